//===- MsCompositeOps.cpp - ms.depth_to_space, ms.space_to_depth, ms.trilu -===//
//
// Result types of the ops `ms-decompose` expands (their decompositions are in
// dialects/ms/Transforms/DecomposePatterns.cpp).
//
//===----------------------------------------------------------------------===//

#include "dialects/ms/IR/MsOps.h"
#include "dialects/ms/IR/MsShapeUtils.h"

using namespace mlir;
using namespace mlir::ms;

namespace {

RankedTensorType tensorType(Value v) { return cast<RankedTensorType>(v.getType()); }

/// The static [N, C, H, W] input of the block moves, with a blocksize >= 1.
FailureOr<RankedTensorType> blockMoveInput(const InferDiag &diag, Value input, int64_t blocksize) {
  RankedTensorType type = tensorType(input);
  if (type.getRank() != 4 || !type.hasStaticShape())
    return diag.error("expects a static 4-D input, got ", type);
  if (blocksize < 1)
    return diag.error("expects a blocksize >= 1, got ", blocksize);
  return type;
}

} // namespace

LogicalResult DepthToSpaceOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                               Adaptor adaptor, SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  int64_t b = adaptor.getBlocksize();
  FailureOr<RankedTensorType> type = blockMoveInput(diag, adaptor.getInput(), b);
  if (failed(type))
    return failure();
  ArrayRef<int64_t> s = type->getShape();
  if (s[1] % (b * b) != 0)
    return diag.error("expects blocksize^2 (", b * b, ") to divide the ", s[1], " channels");
  results.push_back(
      RankedTensorType::get({s[0], s[1] / (b * b), s[2] * b, s[3] * b}, type->getElementType()));
  return success();
}

LogicalResult SpaceToDepthOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                               Adaptor adaptor, SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  int64_t b = adaptor.getBlocksize();
  FailureOr<RankedTensorType> type = blockMoveInput(diag, adaptor.getInput(), b);
  if (failed(type))
    return failure();
  ArrayRef<int64_t> s = type->getShape();
  if (s[2] % b != 0 || s[3] % b != 0)
    return diag.error("expects the blocksize ", b, " to divide the spatial dims ", s[2], "x", s[3]);
  results.push_back(
      RankedTensorType::get({s[0], s[1] * b * b, s[2] / b, s[3] / b}, type->getElementType()));
  return success();
}

LogicalResult TriluOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
                                        SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  RankedTensorType type = tensorType(adaptor.getInput());
  if (type.getRank() < 2)
    return diag.error("expects an input of rank >= 2, got ", type);
  if (Value k = adaptor.getK()) {
    RankedTensorType kType = tensorType(k);
    if (!kType.hasStaticShape() || kType.getNumElements() != 1)
      return diag.error("expects a one-element k, got ", kType);
  }
  results.push_back(type);
  return success();
}
