//===- MsCompositeMathOps.cpp - composed reductions, log-softmax, RMS norm -===//
//
// Result types of the ops of MsCompositeMathOps.td; their expansions are in
// dialects/ms/Transforms/DecomposeNormPatterns.cpp.
//
//===----------------------------------------------------------------------===//

#include "dialects/ms/IR/MsOps.h"
#include "dialects/ms/IR/MsShapeUtils.h"

using namespace mlir;
using namespace mlir::ms;

namespace {

RankedTensorType tensorType(Value v) { return cast<RankedTensorType>(v.getType()); }

/// The reduced axes of a composed reduction: `axes` normalized and sorted, every axis when empty,
/// none when empty with noop_with_empty_axes.
FailureOr<SmallVector<int64_t>> reducedAxes(const InferDiag &diag, ArrayRef<int64_t> axes,
                                            bool noop, int64_t rank) {
  if (axes.empty())
    return noop ? SmallVector<int64_t>() : llvm::to_vector(llvm::seq<int64_t>(0, rank));
  return normalizeAxes(diag, axes, rank);
}

LogicalResult inferComposedReduce(const InferDiag &diag, Value input, ArrayRef<int64_t> axes,
                                  bool keepDims, bool noop, SmallVectorImpl<Type> &results) {
  RankedTensorType type = tensorType(input);
  FailureOr<SmallVector<int64_t>> reduced = reducedAxes(diag, axes, noop, type.getRank());
  if (failed(reduced))
    return failure();
  SmallVector<int64_t> shape;
  for (auto [i, dim] : llvm::enumerate(type.getShape())) {
    if (!llvm::is_contained(*reduced, (int64_t)i))
      shape.push_back(dim);
    else if (keepDims)
      shape.push_back(1);
  }
  results.push_back(RankedTensorType::get(shape, type.getElementType()));
  return success();
}

} // namespace

#define MS_COMPOSED_REDUCE(OP)                                                                     \
  LogicalResult OP::inferReturnTypes(MLIRContext *, std::optional<Location> loc, Adaptor adaptor,  \
                                     SmallVectorImpl<Type> &results) {                             \
    return inferComposedReduce(InferDiag(loc, getOperationName()), adaptor.getInput(),             \
                               adaptor.getAxes(), adaptor.getKeepDims(),                           \
                               adaptor.getNoopWithEmptyAxes(), results);                           \
  }                                                                                                \
  SmallVector<int64_t> OP::getReducedAxes() {                                                      \
    return *reducedAxes(InferDiag(getLoc(), getOperationName()), getAxes(),                        \
                        getNoopWithEmptyAxes(), getInput().getType().getRank());                   \
  }
MS_COMPOSED_REDUCE(ReduceL1Op)
MS_COMPOSED_REDUCE(ReduceL2Op)
MS_COMPOSED_REDUCE(ReduceSumSquareOp)
MS_COMPOSED_REDUCE(ReduceLogSumOp)
MS_COMPOSED_REDUCE(ReduceLogSumExpOp)
#undef MS_COMPOSED_REDUCE

LogicalResult LogSoftmaxOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                             Adaptor adaptor, SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  RankedTensorType type = tensorType(adaptor.getInput());
  ArrayRef<int64_t> axes = adaptor.getAxes();
  int64_t rank = type.getRank();
  bool contiguous = isAxisOrTrailingAxes(axes, rank);
  if (!contiguous)
    return diag.error("expects one axis or the dims from one axis to the last, got axes [",
                      llvm::make_range(axes.begin(), axes.end()), "] for ", type);
  results.push_back(type);
  return success();
}

LogicalResult RmsNormOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                          Adaptor adaptor, SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  RankedTensorType type = tensorType(adaptor.getInput()), sType = tensorType(adaptor.getScale());
  if (!isa<FloatType>(adaptor.getStashType()))
    return diag.error("expects a float stash_type, got ", adaptor.getStashType());
  if (sType.getElementType() != type.getElementType())
    return diag.error("expects a scale of the input's element type ", type.getElementType(),
                      ", got ", sType);
  if (failed(normalizeAxis(diag, adaptor.getAxis(), type.getRank())))
    return failure();
  FailureOr<SmallVector<int64_t>> shape = broadcastShapes(diag, type.getShape(), sType.getShape());
  if (failed(shape))
    return failure();
  results.push_back(RankedTensorType::get(*shape, type.getElementType()));
  return success();
}
