//===- MsTrainingOps.cpp - ms.adagrad, ms.momentum, ms.adam ----------------===//
//
// Result types of the optimizer steps: one result per state tensor the step updates, each of the
// type of its optimized tensor. The checks are what the expansion (DecomposeTrainingPatterns.cpp)
// broadcasts against: R and T single values, the tensors of one float type, group by group of
// the same shapes.
//
//===----------------------------------------------------------------------===//

#include "dialects/ms/IR/MsOps.h"
#include "dialects/ms/IR/MsShapeUtils.h"

using namespace mlir;
using namespace mlir::ms;

namespace {

/// The results of an optimizer step over `tensors` in `inputGroups` groups (X, G, state...):
/// `outputGroups` copies of the types of the first group.
LogicalResult inferOptimizer(const InferDiag &diag, Value rate, Value step, ValueRange tensors,
                             int64_t inputGroups, int64_t outputGroups,
                             SmallVectorImpl<Type> &results) {
  auto rateType = cast<RankedTensorType>(rate.getType());
  auto stepType = cast<RankedTensorType>(step.getType());
  if (rateType.getNumElements() != 1)
    return diag.error("expects a float scalar R, got ", rateType);
  if (stepType.getNumElements() != 1)
    return diag.error("expects an int64 scalar T, got ", stepType);
  int64_t size = static_cast<int64_t>(tensors.size());
  if (size == 0 || size % inputGroups != 0)
    return diag.error("expects ", inputGroups, " groups of tensors of one size each, got ", size,
                      " tensors");
  int64_t count = size / inputGroups;
  auto first = cast<RankedTensorType>(tensors[0].getType());
  for (int64_t i = 0; i < size; ++i) {
    auto type = cast<RankedTensorType>(tensors[i].getType());
    auto leader = cast<RankedTensorType>(tensors[i % count].getType());
    if (type.getElementType() != first.getElementType() || type.getShape() != leader.getShape())
      return diag.error("expects tensor ", i, " to have the shape and type of tensor ", i % count,
                        " (", leader, "), got ", type);
  }
  for (int64_t g = 0; g < outputGroups; ++g)
    for (int64_t i = 0; i < count; ++i)
      results.push_back(tensors[i].getType());
  return success();
}

} // namespace

LogicalResult AdagradOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                          Adaptor adaptor, SmallVectorImpl<Type> &results) {
  return inferOptimizer(InferDiag(loc, getOperationName()), adaptor.getRate(), adaptor.getStep(),
                        adaptor.getTensors(), 3, 2, results);
}

LogicalResult MomentumOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                           Adaptor adaptor, SmallVectorImpl<Type> &results) {
  return inferOptimizer(InferDiag(loc, getOperationName()), adaptor.getRate(), adaptor.getStep(),
                        adaptor.getTensors(), 3, 2, results);
}

LogicalResult AdamOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
                                       SmallVectorImpl<Type> &results) {
  return inferOptimizer(InferDiag(loc, getOperationName()), adaptor.getRate(), adaptor.getStep(),
                        adaptor.getTensors(), 4, 3, results);
}
