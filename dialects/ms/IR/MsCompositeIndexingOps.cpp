//===- MsCompositeIndexingOps.cpp - one_hot, reverse_sequence, ... --------===//
//
// Result types of the ops of MsCompositeIndexingOps.td; their expansions are in
// dialects/ms/Transforms/DecomposeIndexingPatterns.cpp.
//
//===----------------------------------------------------------------------===//

#include "dialects/ms/IR/MsOps.h"
#include "dialects/ms/IR/MsShapeUtils.h"

using namespace mlir;
using namespace mlir::ms;

namespace {

RankedTensorType tensorType(Value v) { return cast<RankedTensorType>(v.getType()); }

/// A static int64 [count] operand.
bool isI64Vector(Value v, int64_t count) {
  RankedTensorType type = tensorType(v);
  return type.getRank() == 1 && type.getDimSize(0) == count &&
         type.getElementType().isSignlessInteger(64);
}

/// Bound on one-hot depths: the expansion builds the range [0, depth) as a constant (the
/// importer's bound on values it builds, kMaxKnownElements).
constexpr int64_t kMaxDepth = int64_t(1) << 16;

} // namespace

LogicalResult OneHotOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                         Adaptor adaptor, SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  RankedTensorType iType = tensorType(adaptor.getIndices()),
                   vType = tensorType(adaptor.getValues());
  int64_t depth = adaptor.getDepth();
  if (depth < 1 || depth > kMaxDepth)
    return diag.error("expects a depth in [1, ", kMaxDepth, "], got ", depth);
  if (!vType.hasStaticShape() || vType.getNumElements() != 2)
    return diag.error("expects values holding [off_value, on_value], got ", vType);
  int64_t rank = iType.getRank() + 1;
  FailureOr<int64_t> axis = normalizeAxis(diag, adaptor.getAxis(), rank);
  if (failed(axis))
    return failure();
  SmallVector<int64_t> shape(iType.getShape());
  shape.insert(shape.begin() + *axis, depth);
  results.push_back(RankedTensorType::get(shape, vType.getElementType()));
  return success();
}

LogicalResult ReverseSequenceOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                                  Adaptor adaptor, SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  RankedTensorType type = tensorType(adaptor.getInput());
  int64_t batchAxis = adaptor.getBatchAxis(), timeAxis = adaptor.getTimeAxis();
  if (type.getRank() < 2 || !type.hasStaticShape() ||
      !((batchAxis == 0 && timeAxis == 1) || (batchAxis == 1 && timeAxis == 0)))
    return diag.error("expects a static input of rank >= 2 and batch_axis/time_axis 0 and 1, got ",
                      type, " with batch_axis ", batchAxis, " and time_axis ", timeAxis);
  int64_t batch = type.getDimSize(batchAxis);
  if (!isI64Vector(adaptor.getSequenceLens(), batch))
    return diag.error("expects sequence_lens of type tensor<", batch, "xi64>, got ",
                      adaptor.getSequenceLens().getType());
  results.push_back(type);
  return success();
}

LogicalResult TensorScatterOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                                Adaptor adaptor, SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  RankedTensorType cType = tensorType(adaptor.getPastCache()),
                   uType = tensorType(adaptor.getUpdate());
  int64_t rank = cType.getRank();
  if (rank < 2 || !cType.hasStaticShape() || !uType.hasStaticShape() || uType.getRank() != rank ||
      uType.getElementType() != cType.getElementType())
    return diag.error("expects a static past_cache and update of one rank (>= 2) and element "
                      "type, got ",
                      cType, " and ", uType);
  FailureOr<int64_t> axis = normalizeAxis(diag, adaptor.getAxis(), rank);
  if (failed(axis))
    return failure();
  if (*axis == 0)
    return diag.error("expects an axis other than the batch axis 0");
  for (int64_t d = 0; d < rank; ++d)
    if (d == *axis ? uType.getDimSize(d) > cType.getDimSize(d)
                   : uType.getDimSize(d) != cType.getDimSize(d))
      return diag.error("expects an update ", uType, " that fits past_cache ", cType,
                        " along axis ", *axis);
  if (Value w = adaptor.getWriteIndices(); w && !isI64Vector(w, cType.getDimSize(0)))
    return diag.error("expects write_indices of type tensor<", cType.getDimSize(0), "xi64>, got ",
                      w.getType());
  results.push_back(cType);
  return success();
}

namespace {

SmallVector<int64_t> unpooledShape(RankedTensorType type, ArrayRef<int64_t> kernel,
                                   ArrayRef<int64_t> strides, ArrayRef<int64_t> pads) {
  int64_t spatial = kernel.size();
  SmallVector<int64_t> shape(type.getShape().take_front(2));
  for (int64_t d = 0; d < spatial; ++d)
    shape.push_back((type.getDimSize(d + 2) - 1) * strides[d] - pads[d] - pads[d + spatial] +
                    kernel[d]);
  return shape;
}

} // namespace

SmallVector<int64_t> MaxUnpoolOp::getUnpooledShape() {
  return unpooledShape(getInput().getType(), getKernelShape(), getStrides(), getPads());
}

LogicalResult MaxUnpoolOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                            Adaptor adaptor, SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  RankedTensorType type = tensorType(adaptor.getInput()), iType = tensorType(adaptor.getIndices());
  ArrayRef<int64_t> kernel = adaptor.getKernelShape(), strides = adaptor.getStrides(),
                    pads = adaptor.getPads(), outputShape = adaptor.getOutputShape();
  int64_t rank = type.getRank(), spatial = rank - 2;
  if (spatial < 1 || !type.hasStaticShape())
    return diag.error("expects a static input [N, C, spatial...], got ", type);
  if (iType.getShape() != type.getShape() || !iType.getElementType().isSignlessInteger(64))
    return diag.error("expects int64 indices of the input's shape ", type, ", got ", iType);
  if (failed(checkArraySize(diag, "kernel_shape", kernel, spatial)) ||
      failed(checkArraySize(diag, "strides", strides, spatial)) ||
      failed(checkArraySize(diag, "pads", pads, 2 * spatial)))
    return failure();
  // Bounded so that the unpooled sizes cannot overflow.
  constexpr int64_t kBound = int64_t(1) << 31;
  auto inRange = [&](ArrayRef<int64_t> v, int64_t min) {
    return llvm::all_of(v, [&](int64_t x) { return x >= min && x < kBound; });
  };
  if (!inRange(kernel, 1) || !inRange(strides, 1) || !inRange(pads, 0) ||
      !inRange(type.getShape(), 0))
    return diag.error("expects kernel_shape and strides in [1, 2^31) and pads in [0, 2^31)");
  SmallVector<int64_t> unpooled = unpooledShape(type, kernel, strides, pads);
  if (llvm::any_of(unpooled, [](int64_t d) { return d < 0; }))
    return diag.error("expects a non-empty unpooled shape, got [",
                      llvm::make_range(unpooled.begin(), unpooled.end()), "]");
  if (outputShape.empty()) {
    results.push_back(RankedTensorType::get(unpooled, type.getElementType()));
    return success();
  }
  if ((int64_t)outputShape.size() != rank)
    return diag.error("expects output_shape to have ", rank, " entries, got ", outputShape.size());
  for (int64_t d = 0; d < rank; ++d)
    if (outputShape[d] < unpooled[d] || (d < 2 && outputShape[d] != unpooled[d]))
      return diag.error("expects output_shape [",
                        llvm::make_range(outputShape.begin(), outputShape.end()),
                        "] to keep N and C and be at least the unpooled shape [",
                        llvm::make_range(unpooled.begin(), unpooled.end()), "]");
  results.push_back(RankedTensorType::get(outputShape, type.getElementType()));
  return success();
}

LogicalResult MaxPoolIndicesOp::inferReturnTypes(MLIRContext *ctx, std::optional<Location> loc,
                                                 Adaptor adaptor, SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  RankedTensorType type = tensorType(adaptor.getInput());
  ArrayRef<int64_t> kernel = adaptor.getKernel(), strides = adaptor.getStrides(),
                    pads = adaptor.getPads(), dilations = adaptor.getDilations();
  if (type.getRank() != 4 || !type.hasStaticShape())
    return diag.error("expects a static input [N, C, H, W], got ", type);
  if (failed(checkArraySize(diag, "kernel", kernel, 2)) ||
      failed(checkArraySize(diag, "strides", strides, 2)) ||
      failed(checkArraySize(diag, "pads", pads, 4)) ||
      failed(checkArraySize(diag, "dilations", dilations, 2)))
    return failure();
  constexpr int64_t kBound = int64_t(1) << 16;
  auto inRange = [&](ArrayRef<int64_t> v, int64_t min) {
    return llvm::all_of(v, [&](int64_t x) { return x >= min && x < kBound; });
  };
  if (!inRange(kernel, 1) || !inRange(strides, 1) || !inRange(dilations, 1) || !inRange(pads, 0))
    return diag.error("expects kernel, strides and dilations in [1, 2^16) and pads in [0, 2^16)");
  ArrayRef<int64_t> shape = type.getShape();
  SmallVector<int64_t> result(shape.take_front(2));
  int64_t plane = 1;
  for (int i = 0; i < 2; ++i) {
    int64_t out = windowOutputSize(shape[2 + i], pads[i], pads[2 + i], kernel[i], strides[i],
                                   dilations[i], adaptor.getCeilMode());
    if (out < 1)
      return diag.error("expects a window that fits the padded input ", type);
    result.push_back(out);
    // The expansion's plane index covers the padded input and the last window's reach.
    int64_t reach = (out - 1) * strides[i] + (kernel[i] - 1) * dilations[i] + 1;
    plane *= std::max(reach, shape[2 + i] + pads[i] + pads[2 + i]);
  }
  // The plane index and the per-plane offsets are constants (2^16 elements each, the importer's
  // bound on values it builds).
  if (plane > kBound || shape[0] * shape[1] > kBound)
    return diag.error("expects at most 2^16 padded positions per plane and 2^16 planes, got ",
                      type);
  results.push_back(RankedTensorType::get(result, IntegerType::get(ctx, 64)));
  return success();
}
