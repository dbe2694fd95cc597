//===- OnnxMlOps.h - shared by the ai.onnx.ml importers ---------*- C++ -*-===//
//
// What OnnxMlOps.cpp, OnnxMlTreeOps.cpp and OnnxMlSvmOps.cpp share: the post transforms of the
// classifiers and regressors, and their input as rows of features.
//
//===----------------------------------------------------------------------===//

#ifndef MIE_LIB_IMPORT_ONNX_ONNXMLOPS_H
#define MIE_LIB_IMPORT_ONNX_ONNXMLOPS_H

#include "OnnxCompositeBuilder.h"

namespace mlir::mie::onnx_import::ml {

/// The ms form of a post_transform named NONE, LOGISTIC, SOFTMAX, SOFTMAX_ZERO or PROBIT; others
/// are reported.
FailureOr<ms::MlPostTransform> postTransformNamed(NodeImporter &n, StringRef transform);

/// `transform` over the targets (axis 1) of `y` [N, targets]: an ms.post_transform (none for
/// NONE).
FailureOr<Value> postTransform(NodeImporter &n, composite::Ops &o, Value y, StringRef transform);

/// Input 0 as rows of features [N, F] in f32 (a 1-D X is one row), as the linear models and
/// support vector machines compute; a non-numeric or dynamically shaped X is reported.
FailureOr<Value> rowsOfFeatures(NodeImporter &n, composite::Ops &o);

/// X W^T + b in f32 for rows `x` [N, F], `coefficients` [targets, F] and `intercepts` [targets]
/// (none: 0); sizes that do not fit are reported.
FailureOr<Value> linearScores(NodeImporter &n, composite::Ops &o, Value x,
                              ArrayRef<double> coefficients, ArrayRef<double> intercepts,
                              int64_t targets);

} // namespace mlir::mie::onnx_import::ml

#endif // MIE_LIB_IMPORT_ONNX_ONNXMLOPS_H
