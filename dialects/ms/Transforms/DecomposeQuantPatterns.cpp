//===- DecomposeQuantPatterns.cpp - ms-decompose's quantization ops --------===//
//
//   quantize_linear:         x / scale in x's type (f32 for integer x), rounded half to even,
//                            the zero point added and clipped to the integer range in f32 (f64
//                            for f64 x), converted; to a narrow float, x / scale converted to it.
//   dequantize_linear:       (x - zero_point) * scale in f32, converted to the scale's type; the
//                            clipped f32 value of a quantize_linear read directly.
//   dynamic_quantize_linear: the range [min(x, 0), max(x, 0)] by two full reductions, the scale
//                            (max - min) / 255, and the zero point and the values requantized
//                            as ONNX's reference does: round half to even, add, clip to
//                            [0, 255], convert to uint8.
// A per-axis scale or zero point [C] is reshaped to [1.., C, ..1]; a blocked one is repeated
// block_size times along its axis (reshape, expand, reshape) and cut to the input's extent.
// The ops are built in the order the importer built them when it expanded these ops itself (see
// Decompose.cpp).
//
//===----------------------------------------------------------------------===//

#include "dialects/ms/IR/MsShapeUtils.h"
#include "dialects/ms/Transforms/DecomposeBuilder.h"
#include "dialects/ms/Transforms/Patterns.h"

using namespace mlir;
using namespace mlir::ms;

namespace {

/// saturate(round_half_even(scaled) + zeroPoint) as `qType`, from the float `scaled` (x / scale).
Value requantize(OpChain &o, Value scaled, Value zeroPoint, Type qType) {
  MLIRContext *ctx = scaled.getContext();
  std::pair<double, double> range = *quantRange(qType);
  Type computeType = tensorTypeOf(scaled).getElementType();
  // Rounding is exact in any float type; the zero point and the saturation bounds need f32.
  if (!computeType.isF32() && !computeType.isF64())
    computeType = Float32Type::get(ctx);
  Value rounded = o.cast(o.op<RoundOp>(scaled), computeType);
  if (zeroPoint)
    rounded = o.add(rounded, o.cast(zeroPoint, computeType));
  Value clipped = o.op<ClipOp>(rounded, FloatAttr::get(Float64Type::get(ctx), range.first),
                               FloatAttr::get(Float64Type::get(ctx), range.second));
  return o.cast(clipped, qType);
}

Value requantizeToU8(OpChain &o, Value scaled, Value zeroPoint) {
  return requantize(o, scaled, zeroPoint,
                    IntegerType::get(scaled.getContext(), 8, IntegerType::Unsigned));
}

/// `param` made to broadcast against x of `xType` (see the file comment).
Value broadcastParam(OpChain &o, Value param, RankedTensorType xType,
                     const QuantParamLayout &layout) {
  switch (layout.kind) {
  case QuantParamLayout::Kind::Tensor:
    return o.reshape(param, {});
  case QuantParamLayout::Kind::Axis: {
    SmallVector<int64_t> shape(xType.getRank(), 1);
    shape[layout.axis] = xType.getDimSize(layout.axis);
    return o.reshape(param, shape);
  }
  case QuantParamLayout::Kind::Block: {
    ArrayRef<int64_t> pShape = tensorTypeOf(param).getShape();
    SmallVector<int64_t> split(pShape), merged(pShape);
    split.insert(split.begin() + layout.axis + 1, 1);
    SmallVector<int64_t> repeated = split;
    repeated[layout.axis + 1] = layout.blockSize;
    merged[layout.axis] = pShape[layout.axis] * layout.blockSize;
    Value v = o.reshape(o.expand(o.reshape(param, split), repeated), merged);
    if (merged[layout.axis] == xType.getDimSize(layout.axis))
      return v;
    SmallVector<int64_t> starts(xType.getRank(), 0), steps(xType.getRank(), 1);
    return o.slice(v, starts, xType.getShape(), steps);
  }
  }
  llvm_unreachable("unknown quantization parameter layout");
}

/// The layout of a verified op's scale.
template <typename OpTy>
QuantParamLayout layoutOf(OpTy op) {
  return *quantParamLayout(InferDiag(std::nullopt, ""), tensorTypeOf(op.getInput()),
                           tensorTypeOf(op.getScale()), op.getAxis(), op.getBlockSize(), "");
}

struct DecomposeQuantizeLinear : OpRewritePattern<QuantizeLinearOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(QuantizeLinearOp op, PatternRewriter &rewriter) const override {
    OpChain o(rewriter, op.getLoc());
    RankedTensorType xType = tensorTypeOf(op.getInput());
    QuantParamLayout layout = layoutOf(op);
    Type qType = op.getElementType();
    // x / scale in x's type, as the reference divides (int32 inputs are divided in f32).
    Type floatType = isa<FloatType>(xType.getElementType()) ? xType.getElementType()
                                                            : Float32Type::get(op.getContext());
    Value x = o.cast(op.getInput(), floatType);
    Value scale = o.cast(broadcastParam(o, op.getScale(), xType, layout), floatType);
    Value zeroPoint =
        op.getZeroPoint() ? broadcastParam(o, op.getZeroPoint(), xType, layout) : Value();
    if (!isQuantFloat(qType)) {
      rewriter.replaceOp(op, requantize(o, o.div(x, scale), zeroPoint, qType));
      return success();
    }
    // ONNX's reference: x / scale converted to the 8-bit float (saturating unless saturate = 0),
    // its zero point (which must be 0) not read; FLOAT4E2M1 adds its zero point and always
    // saturates, having neither infinity nor NaN.
    Value scaled = o.div(x, scale);
    if (zeroPoint && isa<Float4E2M1FNType>(qType))
      scaled = o.add(scaled, o.cast(zeroPoint, floatType));
    auto cast = CastOp::create(rewriter, op.getLoc(), op.getType(), scaled);
    cast.setSaturate(op.getSaturate());
    rewriter.replaceOp(op, cast.getResult());
    return success();
  }
};

/// The f32 value that `x` was converted from when `x` is a quantize_linear's expansion:
/// cast(clip(round(v) [+ cast(zero point)], qmin, qmax)) in f32. Its elements are integers in the
/// range of x's type, which f32 holds exactly, so converting x back to f32 gives that value: the
/// activation's quantize -> dequantize pair then skips the round trip through the integer type
/// (two conversions per element of the fused kernel).
Value quantizedAsF32(Value x) {
  auto cast = x.getDefiningOp<CastOp>();
  auto clip = cast ? cast.getInput().getDefiningOp<ClipOp>() : ClipOp();
  if (!clip || !tensorTypeOf(clip.getResult()).getElementType().isF32() || !clip.getMin() ||
      !clip.getMax())
    return Value();
  std::optional<std::pair<double, double>> range = quantRange(tensorTypeOf(x).getElementType());
  if (!range || range->second > 65535.0 || clip.getMin()->convertToDouble() != range->first ||
      clip.getMax()->convertToDouble() != range->second)
    return Value();
  Value v = clip.getInput();
  if (auto add = v.getDefiningOp<AddOp>()) {
    auto zeroPoint = add.getRhs().getDefiningOp<CastOp>();
    if (!zeroPoint || !isa<IntegerType>(tensorTypeOf(zeroPoint.getInput()).getElementType()))
      return Value();
    v = add.getLhs();
  }
  if (!v.getDefiningOp<RoundOp>())
    return Value();
  return clip.getResult();
}

struct DecomposeDequantizeLinear : OpRewritePattern<DequantizeLinearOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(DequantizeLinearOp op, PatternRewriter &rewriter) const override {
    OpChain o(rewriter, op.getLoc());
    RankedTensorType xType = tensorTypeOf(op.getInput());
    QuantParamLayout layout = layoutOf(op);
    Type f32 = Float32Type::get(op.getContext());
    // 8-bit and 4-bit floats dequantize as x * scale: the reference reads no zero point for them
    // (the 8-bit ones require it to be 0).
    bool fromFloat = isa<FloatType>(xType.getElementType());
    Value shifted = fromFloat ? Value() : quantizedAsF32(op.getInput());
    if (!shifted)
      shifted = o.cast(op.getInput(), f32);
    if (op.getZeroPoint() && !isQuantFloat(xType.getElementType()))
      shifted = o.sub(shifted, o.cast(broadcastParam(o, op.getZeroPoint(), xType, layout), f32));
    Value scale = o.cast(broadcastParam(o, op.getScale(), xType, layout), f32);
    rewriter.replaceOp(op, o.cast(o.mul(shifted, scale), op.getType().getElementType()));
    return success();
  }
};

struct DecomposeDynamicQuantizeLinear : OpRewritePattern<DynamicQuantizeLinearOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(DynamicQuantizeLinearOp op,
                                PatternRewriter &rewriter) const override {
    OpChain o(rewriter, op.getLoc());
    Type f32 = Float32Type::get(op.getContext());
    Value x = op.getInput();
    Value zero = o.scalar(f32, 0.0);
    Value lo = o.op<MinOp>(o.reduce<ReduceMinOp>(x, {}, false), zero);
    Value hi = o.op<MaxOp>(o.reduce<ReduceMaxOp>(x, {}, false), zero);
    Value scale = o.div(o.sub(hi, lo), o.scalar(f32, 255.0));
    Value zeroPoint = requantizeToU8(o, o.sub(zero, o.div(lo, scale)), Value());
    Value y = requantizeToU8(o, o.div(x, scale), zeroPoint);
    rewriter.replaceOp(op, ValueRange{y, scale, zeroPoint});
    return success();
  }
};

} // namespace

void mlir::ms::populateDecomposeQuantPatterns(RewritePatternSet &patterns) {
  patterns.add<DecomposeQuantizeLinear, DecomposeDequantizeLinear, DecomposeDynamicQuantizeLinear>(
      patterns.getContext());
}
