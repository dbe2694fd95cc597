//===- InputValues.cpp - graph inputs bound to values at compile time ------===//
//
// `mie-compile --input-value name=FILE`: the file is read with the runtime's tensor reader (the
// same .npy / .pb support as mie-run and --calibration) and handed to the importer, which turns
// the input into a constant of the model.
//
//===----------------------------------------------------------------------===//

#include "mie/Pipelines/Pipelines.h"

#include "mie/mie_tensor_io.h"

std::string mlir::mie::readBoundInput(StringRef path, OnnxImportOptions::BoundInput &bound) {
  ::mie::io::Tensor tensor;
  if (std::string error = ::mie::io::read_tensor_file(path.str(), &tensor); !error.empty())
    return error;
  bound.dataType = ::mie::io::onnx_data_type(tensor.dtype);
  if (!bound.dataType)
    return "'" + path.str() + "' holds no tensor type an ONNX input can have";
  bound.shape.assign(tensor.shape.begin(), tensor.shape.end());
  bound.bytes.assign(tensor.data.begin(), tensor.data.end());
  bound.source = path.str();
  return "";
}
