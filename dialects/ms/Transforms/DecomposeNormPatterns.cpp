//===- DecomposeNormPatterns.cpp - ms-decompose's composed reductions -----===//
//
// The expansions of MsCompositeMathOps.td, as the importer built them:
//   reduce_l1 / l2 / sum_square / log_sum: an elementwise transform around ms.reduce_sum;
//   reduce_log_sum_exp: max + log(sum(exp(x - max))), so that exp never overflows, with the max
//                       replaced by 0 where it is not finite (an all -inf slice would give NaN
//                       from -inf - -inf);
//   log_softmax:        (x - max) - log(sum(exp(x - max)));
//   rms_norm:           ONNX's function body, x * 1 / sqrt(mean(x^2) + epsilon) in stash_type,
//                       converted back, times scale.
//
//===----------------------------------------------------------------------===//

#include "dialects/ms/IR/MsShapeUtils.h"
#include "dialects/ms/Transforms/DecomposeBuilder.h"
#include "dialects/ms/Transforms/Patterns.h"

using namespace mlir;
using namespace mlir::ms;

namespace {

enum class Reduction { L1, L2, SumSquare, LogSum, LogSumExp };

template <typename OpTy, Reduction kind>
struct DecomposeComposedReduce : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op, PatternRewriter &rewriter) const override {
    // noop_with_empty_axes with no axes: only the elementwise part applies.
    bool reduces = !(op.getAxes().empty() && op.getNoopWithEmptyAxes());
    SmallVector<int64_t> axes = op.getReducedAxes();
    bool keepDims = op.getKeepDims();
    OpChain o(rewriter, op.getLoc());
    Value x = op.getInput();
    auto sum = [&](Value v) { return reduces ? o.reduce<ReduceSumOp>(v, axes, keepDims) : v; };
    Value result;
    switch (kind) {
    case Reduction::L1:
      result = sum(o.op<AbsOp>(x));
      break;
    case Reduction::L2:
      result = o.op<SqrtOp>(sum(o.mul(x, x)));
      break;
    case Reduction::SumSquare:
      result = sum(o.mul(x, x));
      break;
    case Reduction::LogSum:
      result = o.op<LogOp>(sum(x));
      break;
    case Reduction::LogSumExp: {
      if (!reduces) {
        result = x; // log(exp(x)) without the overflow
        break;
      }
      Type et = tensorTypeOf(x).getElementType();
      Value max = o.reduce<ReduceMaxOp>(x, axes, true);
      Value finite = o.compare(ComparePredicate::eq, o.sub(max, max), o.scalar(et, 0.0));
      max = o.where(finite, max, o.scalar(et, 0.0));
      Value sumExp = o.reduce<ReduceSumOp>(o.op<ExpOp>(o.sub(x, max)), axes, keepDims);
      Value maxOut = keepDims ? max : o.reshape(max, tensorTypeOf(sumExp).getShape());
      result = o.add(o.op<LogOp>(sumExp), maxOut);
      break;
    }
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct DecomposeLogSoftmax : OpRewritePattern<LogSoftmaxOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LogSoftmaxOp op, PatternRewriter &rewriter) const override {
    ArrayRef<int64_t> axes = op.getAxes();
    OpChain o(rewriter, op.getLoc());
    Value x = op.getInput();
    Value shifted = o.sub(x, o.reduce<ReduceMaxOp>(x, axes, true));
    Value logSum = o.op<LogOp>(o.reduce<ReduceSumOp>(o.op<ExpOp>(shifted), axes, true));
    rewriter.replaceOp(op, o.sub(shifted, logSum));
    return success();
  }
};

struct DecomposeRmsNorm : OpRewritePattern<RmsNormOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(RmsNormOp op, PatternRewriter &rewriter) const override {
    RankedTensorType xType = op.getInput().getType();
    int64_t rank = xType.getRank(), axis = positiveAxis(op.getAxis(), rank);
    Type stash = op.getStashType();
    OpChain o(rewriter, op.getLoc());
    Value x = o.cast(op.getInput(), stash);
    Value meanSquare =
        o.reduce<ReduceMeanOp>(o.mul(x, x), llvm::to_vector(llvm::seq(axis, rank)), true);
    Value invRms = o.op<ReciprocalOp>(
        o.op<SqrtOp>(o.add(meanSquare, o.scalar(stash, op.getEpsilon().convertToDouble()))));
    Value normalized = o.cast(o.mul(x, invRms), xType.getElementType());
    rewriter.replaceOp(op, o.mul(normalized, op.getScale()));
    return success();
  }
};

} // namespace

void mlir::ms::populateDecomposeNormPatterns(RewritePatternSet &patterns) {
  patterns.add<DecomposeComposedReduce<ReduceL1Op, Reduction::L1>,
               DecomposeComposedReduce<ReduceL2Op, Reduction::L2>,
               DecomposeComposedReduce<ReduceSumSquareOp, Reduction::SumSquare>,
               DecomposeComposedReduce<ReduceLogSumOp, Reduction::LogSum>,
               DecomposeComposedReduce<ReduceLogSumExpOp, Reduction::LogSumExp>,
               DecomposeLogSoftmax, DecomposeRmsNorm>(patterns.getContext());
}
