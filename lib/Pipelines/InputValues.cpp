//===- InputValues.cpp - graph inputs bound to values at compile time ------===//
//
// `mie-compile --input-value name=FILE`: the file is read with the runtime's tensor reader (the
// same .npy / .pb support as mie-run and --calibration) and handed to the importer, which turns
// the input into a constant of the model.
//
//===----------------------------------------------------------------------===//

#include "mie/Pipelines/Pipelines.h"

#include "mie/mie_tensor_io.h"

namespace {

/// The ONNX TensorProto data type of a runtime dtype (0 for none).
int64_t onnxDataType(mie_dtype dtype) {
  switch (dtype) {
  case MIE_DTYPE_F32:
    return 1;
  case MIE_DTYPE_U8:
    return 2;
  case MIE_DTYPE_I8:
    return 3;
  case MIE_DTYPE_U16:
    return 4;
  case MIE_DTYPE_I16:
    return 5;
  case MIE_DTYPE_I32:
    return 6;
  case MIE_DTYPE_I64:
    return 7;
  case MIE_DTYPE_BOOL:
    return 9;
  case MIE_DTYPE_F16:
    return 10;
  case MIE_DTYPE_F64:
    return 11;
  case MIE_DTYPE_U32:
    return 12;
  case MIE_DTYPE_U64:
    return 13;
  case MIE_DTYPE_BF16:
    return 16;
  case MIE_DTYPE_INVALID:
    break;
  }
  return 0;
}

} // namespace

std::string mlir::mie::readBoundInput(StringRef path, OnnxImportOptions::BoundInput &bound) {
  ::mie::io::Tensor tensor;
  if (std::string error = ::mie::io::read_tensor_file(path.str(), &tensor); !error.empty())
    return error;
  bound.dataType = onnxDataType(tensor.dtype);
  if (!bound.dataType)
    return "'" + path.str() + "' holds no tensor type an ONNX input can have";
  bound.shape.assign(tensor.shape.begin(), tensor.shape.end());
  bound.bytes.assign(tensor.data.begin(), tensor.data.end());
  bound.source = path.str();
  return "";
}
