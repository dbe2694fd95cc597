//===- OnnxMlOps.h - shared by the ai.onnx.ml importers ---------*- C++ -*-===//
//
// What OnnxMlOps.cpp, OnnxMlTreeOps.cpp and OnnxMlSvmOps.cpp share: the names of the post
// transforms of the classifiers and regressors, and their input as rows of features.
//
//===----------------------------------------------------------------------===//

#ifndef MIE_LIB_IMPORT_ONNX_ONNXMLOPS_H
#define MIE_LIB_IMPORT_ONNX_ONNXMLOPS_H

#include "OnnxCompositeBuilder.h"

namespace mlir::mie::onnx_import::ml {

/// The ms form of a post_transform named NONE, LOGISTIC, SOFTMAX, SOFTMAX_ZERO or PROBIT; others
/// are reported.
FailureOr<ms::MlPostTransform> postTransformNamed(NodeImporter &n, StringRef transform);

/// Input 0 as rows of features [N, F] in f32 (a 1-D X is one row), as the linear models and
/// support vector machines compute; a non-numeric or dynamically shaped X is reported.
FailureOr<Value> rowsOfFeatures(NodeImporter &n, composite::Ops &o);

} // namespace mlir::mie::onnx_import::ml

#endif // MIE_LIB_IMPORT_ONNX_ONNXMLOPS_H
