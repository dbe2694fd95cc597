//===- MsDynamicShapeOps.cpp - data-dependent extents, ms.check -------------===//
//
// Result types at the upper bound of the data-dependent extents, plus the one-element i64 count;
// ms.check passes its input through.
//
//===----------------------------------------------------------------------===//

#include "dialects/ms/IR/MsOps.h"
#include "dialects/ms/IR/MsShapeUtils.h"

using namespace mlir;
using namespace mlir::ms;

namespace {

RankedTensorType tensorType(Value v) { return cast<RankedTensorType>(v.getType()); }

RankedTensorType i64Tensor(MLIRContext *ctx, ArrayRef<int64_t> shape) {
  return RankedTensorType::get(shape, IntegerType::get(ctx, 64));
}

/// A one-element tensor operand (`name`), as runtime scalars of ONNX are.
LogicalResult checkScalar(const InferDiag &diag, StringRef name, Value v) {
  RankedTensorType type = tensorType(v);
  if (!type.hasStaticShape() || type.getNumElements() != 1)
    return diag.error("expects a one-element ", name, ", got ", type);
  return success();
}

} // namespace

LogicalResult NonZeroOp::inferReturnTypes(MLIRContext *ctx, std::optional<Location> loc,
                                          Adaptor adaptor, SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  RankedTensorType type = tensorType(adaptor.getInput());
  if (type.getRank() == 0 || !type.hasStaticShape())
    return diag.error("expects a static input of rank >= 1, got ", type);
  results.push_back(i64Tensor(ctx, {type.getRank(), type.getNumElements()}));
  results.push_back(i64Tensor(ctx, {1}));
  return success();
}

LogicalResult UniqueOp::inferReturnTypes(MLIRContext *ctx, std::optional<Location> loc,
                                         Adaptor adaptor, SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  RankedTensorType type = tensorType(adaptor.getInput());
  if (!type.hasStaticShape())
    return diag.error("expects a static input, got ", type);
  SmallVector<int64_t> values;
  int64_t slices;
  if (std::optional<int64_t> axis = adaptor.getAxis()) {
    FailureOr<int64_t> a = normalizeAxis(diag, *axis, type.getRank());
    if (failed(a))
      return failure();
    values.assign(type.getShape().begin(), type.getShape().end());
    slices = values[*a];
  } else {
    slices = type.getNumElements();
    values = {slices};
  }
  results.push_back(RankedTensorType::get(values, type.getElementType()));
  results.push_back(i64Tensor(ctx, {slices}));
  results.push_back(i64Tensor(ctx, {slices}));
  results.push_back(i64Tensor(ctx, {slices}));
  results.push_back(i64Tensor(ctx, {1}));
  return success();
}

LogicalResult NonMaxSuppressionOp::inferReturnTypes(MLIRContext *ctx, std::optional<Location> loc,
                                                    Adaptor adaptor,
                                                    SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  RankedTensorType boxes = tensorType(adaptor.getBoxes()), scores = tensorType(adaptor.getScores());
  if (boxes.getRank() != 3 || !boxes.hasStaticShape() || boxes.getDimSize(2) != 4)
    return diag.error("expects static boxes of shape [batches, boxes, 4], got ", boxes);
  if (scores.getRank() != 3 || !scores.hasStaticShape() ||
      scores.getDimSize(0) != boxes.getDimSize(0) || scores.getDimSize(2) != boxes.getDimSize(1))
    return diag.error("expects scores of shape [", boxes.getDimSize(0), ", classes, ",
                      boxes.getDimSize(1), "], got ", scores);
  if (failed(checkScalar(diag, "max_output", adaptor.getMaxOutput())) ||
      failed(checkScalar(diag, "iou_threshold", adaptor.getIouThreshold())) ||
      failed(checkScalar(diag, "score_threshold", adaptor.getScoreThreshold())))
    return failure();
  auto bound = static_cast<int64_t>(adaptor.getMaxPerClass());
  if (bound < 0 || bound > boxes.getDimSize(1))
    return diag.error("expects max_per_class in [0, ", boxes.getDimSize(1), "], got ", bound);
  results.push_back(i64Tensor(ctx, {boxes.getDimSize(0) * scores.getDimSize(1) * bound, 3}));
  results.push_back(i64Tensor(ctx, {1}));
  return success();
}

LogicalResult CheckOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
                                        SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  if (failed(checkScalar(diag, "condition", adaptor.getCondition())))
    return failure();
  results.push_back(adaptor.getInput().getType());
  return success();
}

/// A condition known to hold checks nothing; one known to fail stays, to fail every run.
OpFoldResult CheckOp::fold(FoldAdaptor adaptor) {
  auto condition = dyn_cast_or_null<DenseIntElementsAttr>(adaptor.getCondition());
  if (condition && condition.isSplat() && condition.getSplatValue<bool>())
    return getInput();
  return {};
}
