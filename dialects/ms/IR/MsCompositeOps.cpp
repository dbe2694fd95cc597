//===- MsCompositeOps.cpp - ms.tile, ms.trilu, the normalizations, ... ------===//
//
// Result types and folders of the ops `ms-decompose` expands (their decompositions are in
// dialects/ms/Transforms/DecomposePatterns.cpp). ms.tile folds on constants, as the shape
// arithmetic the importer resolves may go through it.
//
//===----------------------------------------------------------------------===//

#include "dialects/ms/IR/MsConstantFold.h"
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
  // Bounded so that blocksize^2 and the sizes times blocksize cannot overflow.
  if (blocksize < 1 || blocksize > (1 << 16))
    return diag.error("expects a blocksize in [1, 65536], got ", blocksize);
  return type;
}

} // namespace

LogicalResult TileOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
                                       SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  RankedTensorType type = tensorType(adaptor.getInput());
  ArrayRef<int64_t> repeats = adaptor.getRepeats();
  if (!type.hasStaticShape())
    return diag.error("expects a static input, got ", type);
  if (failed(checkArraySize(diag, "repeats", repeats, type.getRank())))
    return failure();
  SmallVector<int64_t> shape;
  for (auto [size, r] : llvm::zip(type.getShape(), repeats)) {
    int64_t tiled;
    if (r < 0 || llvm::MulOverflow(size, r, tiled))
      return diag.error("expects non-negative repeats that keep sizes in int64, got [",
                        llvm::make_range(repeats.begin(), repeats.end()), "]");
    shape.push_back(tiled);
  }
  results.push_back(RankedTensorType::get(shape, type.getElementType()));
  return success();
}

OpFoldResult TileOp::fold(FoldAdaptor adaptor) {
  if (getType() == getInput().getType())
    return getInput();
  if (!getDenseConstant(adaptor.getInput()))
    return {};
  ArrayRef<int64_t> inShape = getInput().getType().getShape(), outShape = getType().getShape();
  SmallVector<int64_t> inStrides = rowMajorStrides(inShape), outStrides = rowMajorStrides(outShape);
  return foldGather({adaptor.getInput()}, getType(), [&](int64_t i) {
    int64_t from = 0;
    for (size_t d = 0; d < outShape.size(); ++d)
      from += ((i / outStrides[d]) % outShape[d]) % inShape[d] * inStrides[d];
    return std::make_pair(0u, from);
  });
}

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

namespace {

/// [N, C, spatial...] input of a channel normalization, with [C] scale and bias of its type.
LogicalResult checkChannelNorm(const InferDiag &diag, Value input, Value scale, Value bias) {
  RankedTensorType type = tensorType(input);
  if (type.getRank() < 3)
    return diag.error("expects an input of rank >= 3 ([N, C, spatial...]), got ", type);
  int64_t channels = type.getDimSize(1);
  for (Value param : {scale, bias}) {
    RankedTensorType t = tensorType(param);
    if (t.getRank() != 1 || t.getDimSize(0) != channels ||
        t.getElementType() != type.getElementType())
      return diag.error("expects scale and bias of type ",
                        RankedTensorType::get({channels}, type.getElementType()), ", got ", t);
  }
  return success();
}

} // namespace

LogicalResult InstanceNormOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                               Adaptor adaptor, SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  if (failed(checkChannelNorm(diag, adaptor.getInput(), adaptor.getScale(), adaptor.getBias())))
    return failure();
  results.push_back(adaptor.getInput().getType());
  return success();
}

LogicalResult GroupNormOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                            Adaptor adaptor, SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  if (failed(checkChannelNorm(diag, adaptor.getInput(), adaptor.getScale(), adaptor.getBias())))
    return failure();
  int64_t groups = adaptor.getNumGroups(), channels = tensorType(adaptor.getInput()).getDimSize(1);
  if (groups < 1 || channels % groups != 0)
    return diag.error("expects num_groups (", groups, ") to be >= 1 and divide the ", channels,
                      " channels");
  results.push_back(adaptor.getInput().getType());
  return success();
}

LogicalResult LpNormalizationOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                                  Adaptor adaptor, SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  RankedTensorType type = tensorType(adaptor.getInput());
  int64_t axis = adaptor.getAxis(), p = adaptor.getP();
  if (axis < 0 || axis >= type.getRank())
    return diag.error("expects an axis in [0, ", type.getRank(), "), got ", axis);
  if (p != 1 && p != 2)
    return diag.error("expects p to be 1 or 2, got ", p);
  results.push_back(type);
  return success();
}

LogicalResult MeanVarianceNormOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                                   Adaptor adaptor,
                                                   SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  RankedTensorType type = tensorType(adaptor.getInput());
  ArrayRef<int64_t> axes = adaptor.getAxes();
  for (auto [i, a] : llvm::enumerate(axes))
    if (a < 0 || a >= type.getRank() || (i > 0 && a <= axes[i - 1]))
      return diag.error("expects sorted, distinct axes in [0, ", type.getRank(), "), got [",
                        llvm::make_range(axes.begin(), axes.end()), "]");
  results.push_back(type);
  return success();
}

LogicalResult LrnOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
                                      SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  RankedTensorType type = tensorType(adaptor.getInput());
  if (type.getRank() < 3 || !type.hasStaticShape())
    return diag.error("expects a static input of rank >= 3 ([N, C, spatial...]), got ", type);
  if (adaptor.getSize() < 1)
    return diag.error("expects a size >= 1, got ", adaptor.getSize());
  results.push_back(type);
  return success();
}
