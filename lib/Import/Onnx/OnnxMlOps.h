//===- OnnxMlOps.h - shared by the ai.onnx.ml importers ---------*- C++ -*-===//
//
// What OnnxMlOps.cpp and OnnxMlTreeOps.cpp share: the post transforms of the classifiers and
// regressors.
//
//===----------------------------------------------------------------------===//

#ifndef MIE_LIB_IMPORT_ONNX_ONNXMLOPS_H
#define MIE_LIB_IMPORT_ONNX_ONNXMLOPS_H

#include "OnnxCompositeBuilder.h"

namespace mlir::mie::onnx_import::ml {

/// NONE, LOGISTIC, SOFTMAX and SOFTMAX_ZERO over the targets (axis 1) of `y` [N, targets], as
/// onnxruntime computes them; PROBIT is refused at the node.
FailureOr<Value> postTransform(NodeImporter &n, composite::Ops &o, Value y, StringRef transform);

} // namespace mlir::mie::onnx_import::ml

#endif // MIE_LIB_IMPORT_ONNX_ONNXMLOPS_H
