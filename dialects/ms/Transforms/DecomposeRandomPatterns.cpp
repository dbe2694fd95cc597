//===- DecomposeRandomPatterns.cpp - ms-decompose's draws on a uniform draw -===//
//
//   bernoulli:   cast(u < p), u uniform in [0, 1) in f32 (f64 for f64 probabilities)
//   multinomial: the number of cumulative probabilities (exp(x - max) summed along the row) at
//                or below u * total, clamped to the last class: the class whose interval holds
//                the draw
// The uniform draw is an ms.random_uniform of the op's seed, stream and iteration, so the numbers
// are the ones the importer's expansion drew; the ops are built in the order it built them (see
// Decompose.cpp).
//
//===----------------------------------------------------------------------===//

#include "dialects/ms/Transforms/DecomposeBuilder.h"
#include "dialects/ms/Transforms/Patterns.h"

using namespace mlir;
using namespace mlir::ms;

namespace {

/// A uniform draw in [0, 1) of `shape` and `elementType` keyed as `op` (a bernoulli or
/// multinomial) is.
template <typename OpTy>
Value uniform(OpChain &o, PatternRewriter &rewriter, OpTy op, ArrayRef<int64_t> shape,
              Type elementType) {
  return o.op<RandomUniformOp>(op.getIteration(), rewriter.getDenseI64ArrayAttr(shape),
                               TypeAttr::get(elementType), rewriter.getF64FloatAttr(0.0),
                               rewriter.getF64FloatAttr(1.0), op.getSeedAttr(), op.getStreamAttr());
}

struct DecomposeBernoulli : OpRewritePattern<BernoulliOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(BernoulliOp op, PatternRewriter &rewriter) const override {
    OpChain o(rewriter, op.getLoc());
    RankedTensorType type = tensorTypeOf(op.getInput());
    // f16 and bf16 probabilities meet f32 draws: their rounding would turn draws just below 1
    // into 1, which a probability of 1 would then miss.
    Type drawType =
        type.getElementType().isF64() ? type.getElementType() : Float32Type::get(op.getContext());
    Value u = uniform(o, rewriter, op, type.getShape(), drawType);
    Value hit = o.compare(ComparePredicate::lt, u, o.cast(op.getInput(), drawType));
    rewriter.replaceOp(op, o.cast(hit, op.getElementType()));
    return success();
  }
};

struct DecomposeMultinomial : OpRewritePattern<MultinomialOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(MultinomialOp op, PatternRewriter &rewriter) const override {
    OpChain o(rewriter, op.getLoc());
    RankedTensorType type = tensorTypeOf(op.getInput());
    int64_t batch = type.getDimSize(0), classes = type.getDimSize(1);
    int64_t samples = op.getSampleSize();
    Value u = uniform(o, rewriter, op, {batch, samples}, type.getElementType());
    Type i32 = IntegerType::get(op.getContext(), 32);
    Value x = op.getInput();
    Value shifted = o.sub(x, o.reduce<ReduceMaxOp>(x, {1}, /*keepDims=*/true));
    Value p = o.op<ExpOp>(shifted);
    Value axis = o.ints({}, IntegerType::get(op.getContext(), 64), {1});
    Value cdf = o.op<CumSumOp>(p, axis, /*exclusive=*/false, /*reverse=*/false);
    Value total = o.slice(cdf, {0, classes - 1}, {batch, 1}, {1, 1});
    Value t = o.reshape(o.mul(u, total), {batch, samples, 1});
    Value below = o.compare(ComparePredicate::le, o.reshape(cdf, {batch, 1, classes}), t);
    Value count = o.reduce<ReduceSumOp>(o.cast(below, i32), {2}, /*keepDims=*/false);
    Value index = o.op<MinOp>(count, o.scalar(i32, double(classes - 1)));
    rewriter.replaceOp(op, o.cast(index, op.getElementType()));
    return success();
  }
};

} // namespace

void mlir::ms::populateDecomposeRandomPatterns(RewritePatternSet &patterns) {
  patterns.add<DecomposeBernoulli, DecomposeMultinomial>(patterns.getContext());
}
