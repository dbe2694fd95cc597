//===- DecomposeQuantPatterns.cpp - ms-decompose's quantization ops --------===//
//
//   dynamic_quantize_linear: the range [min(x, 0), max(x, 0)] by two full reductions, the scale
//                            (max - min) / 255, and the zero point and the values requantized
//                            as ONNX's reference does: round half to even, add, clip to
//                            [0, 255], convert to uint8.
// The ops are built in the order the importer built them when it expanded these ops itself (see
// Decompose.cpp).
//
//===----------------------------------------------------------------------===//

#include "dialects/ms/Transforms/DecomposeBuilder.h"
#include "dialects/ms/Transforms/Patterns.h"

using namespace mlir;
using namespace mlir::ms;

namespace {

/// saturate(round_half_even(scaled) + zeroPoint) as uint8, from the f32 `scaled` (x / scale).
Value requantizeToU8(OpChain &o, Value scaled, Value zeroPoint) {
  MLIRContext *ctx = scaled.getContext();
  Type f32 = Float32Type::get(ctx);
  Value rounded = o.cast(o.op<RoundOp>(scaled), f32);
  if (zeroPoint)
    rounded = o.add(rounded, o.cast(zeroPoint, f32));
  Value clipped = o.op<ClipOp>(rounded, FloatAttr::get(Float64Type::get(ctx), 0.0),
                               FloatAttr::get(Float64Type::get(ctx), 255.0));
  return o.cast(clipped, IntegerType::get(ctx, 8, IntegerType::Unsigned));
}

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
  patterns.add<DecomposeDynamicQuantizeLinear>(patterns.getContext());
}
