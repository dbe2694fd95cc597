//===- MsQuantOps.cpp - the quantization ops -------------------------------===//
//
// Result types and checks of the quantization ops `ms-decompose` expands
// (DecomposeQuantPatterns.cpp).
//
//===----------------------------------------------------------------------===//

#include "dialects/ms/IR/MsOps.h"
#include "dialects/ms/IR/MsShapeUtils.h"

using namespace mlir;
using namespace mlir::ms;

LogicalResult DynamicQuantizeLinearOp::inferReturnTypes(MLIRContext *ctx,
                                                        std::optional<Location> loc,
                                                        Adaptor adaptor,
                                                        SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  auto type = cast<RankedTensorType>(adaptor.getInput().getType());
  if (!type.getElementType().isF32())
    return diag.error("expects f32 x, got ", type);
  Type u8 = IntegerType::get(ctx, 8, IntegerType::Unsigned);
  results.push_back(type.clone(u8));
  results.push_back(RankedTensorType::get({}, Float32Type::get(ctx)));
  results.push_back(RankedTensorType::get({}, u8));
  return success();
}

/// Checks a scale and its optional zero point against `x` and returns their layout.
static FailureOr<QuantParamLayout> checkQuantParams(const InferDiag &diag, RankedTensorType x,
                                                    RankedTensorType scale, Value zeroPoint,
                                                    Type zeroPointType, int64_t axis,
                                                    int64_t blockSize) {
  FailureOr<QuantParamLayout> layout = quantParamLayout(diag, x, scale, axis, blockSize, "scale");
  if (failed(layout) || !zeroPoint)
    return layout;
  auto zp = cast<RankedTensorType>(zeroPoint.getType());
  // One element each: a scalar next to a [1] tensor, as quantizers write them.
  if (zp.getShape() != scale.getShape() &&
      (zp.getNumElements() != 1 || scale.getNumElements() != 1))
    return diag.error("zero point ", zp, " must have the scale's shape ", scale);
  if (zp.getElementType() != zeroPointType)
    return diag.error("zero point ", zp, " must have element type ", zeroPointType);
  return layout;
}

LogicalResult QuantizeLinearOp::inferReturnTypes(MLIRContext *ctx, std::optional<Location> loc,
                                                 Adaptor adaptor, SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  auto x = cast<RankedTensorType>(adaptor.getInput().getType());
  Type qType = adaptor.getElementType();
  std::optional<std::pair<double, double>> range = quantRange(qType);
  if (!isQuantFloat(qType) && (!range || qType.getIntOrFloatBitWidth() == 32))
    return diag.error("cannot quantize to ", qType);
  if (failed(checkQuantParams(diag, x, cast<RankedTensorType>(adaptor.getScale().getType()),
                              adaptor.getZeroPoint(), qType, adaptor.getAxis(),
                              adaptor.getBlockSize())))
    return failure();
  results.push_back(x.clone(qType));
  return success();
}

LogicalResult DequantizeLinearOp::inferReturnTypes(MLIRContext *ctx, std::optional<Location> loc,
                                                   Adaptor adaptor,
                                                   SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  auto x = cast<RankedTensorType>(adaptor.getInput().getType());
  auto scale = cast<RankedTensorType>(adaptor.getScale().getType());
  Type et = x.getElementType();
  if (!isQuantFloat(et) && !isa<Float8E8M0FNUType>(et) && !quantRange(et))
    return diag.error("expects an integer, 8-bit float or FLOAT4E2M1 input, got ", x);
  if (failed(checkQuantParams(diag, x, scale, adaptor.getZeroPoint(), et, adaptor.getAxis(),
                              adaptor.getBlockSize())))
    return failure();
  results.push_back(x.clone(scale.getElementType()));
  return success();
}
