//===- DecomposeMathPatterns.cpp - ms-decompose's det and hardmax ---------===//
//
//   det:     Gaussian elimination with partial pivoting over the batch of [..., n, n] matrices,
//            unrolled over the n columns: each step picks the largest remaining |pivot|
//            (ms.arg_max), swaps its row up (a gather by a computed row permutation, flipping the
//            sign) and eliminates below it. The determinant is the sign times the product of the
//            diagonal; a zero pivot (the column below is all zero) leaves the matrix as it is and
//            makes the product 0.
//   hardmax: the slice flattened to one axis, its maxima marked and counted with a log-step
//            prefix sum, so that only the first one stays.
//
//===----------------------------------------------------------------------===//

#include "dialects/ms/Transforms/DecomposeBuilder.h"
#include "dialects/ms/Transforms/Patterns.h"

using namespace mlir;
using namespace mlir::ms;

namespace {

SmallVector<int64_t> iota(int64_t from, int64_t to) {
  return llvm::to_vector(llvm::seq<int64_t>(from, to));
}

struct DecomposeDet : OpRewritePattern<DetOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(DetOp op, PatternRewriter &rewriter) const override {
    RankedTensorType xType = op.getInput().getType();
    int64_t rank = xType.getRank(), size = xType.getDimSize(rank - 1);
    ArrayRef<int64_t> batchShape = xType.getShape().drop_back(2);
    int64_t batch = 1;
    for (int64_t d : batchShape)
      batch *= d;
    Type et = xType.getElementType(), i64 = rewriter.getI64Type();
    OpChain o(rewriter, op.getLoc());
    auto c = [&](double d) { return o.scalar(et, d); };
    auto ci = [&](int64_t v) { return o.scalar(i64, double(v)); };
    Value a = o.reshape(op.getInput(), {batch, size, size});
    Value rowIds = o.ints({1, size}, i64, iota(0, size));
    Value sign = c(1.0);
    for (int64_t k = 0; k < size; ++k) {
      Value column = o.reshape(o.slice(a, {0, 0, k}, {batch, size, 1}, {1, 1, 1}), {batch, size});
      // Rows above k are done: -1 keeps them from being chosen (|x| >= 0, NaN aside).
      SmallVector<int64_t> doneMask;
      for (int64_t i = 0; i < size; ++i)
        doneMask.push_back(i < k);
      Value done = o.ints({1, size}, rewriter.getI1Type(), doneMask);
      Value candidates = o.where(done, c(-1.0), o.op<AbsOp>(column));
      Value pivotRow = o.op<ArgMaxOp>(candidates, uint64_t(1), true, false); // [batch, 1]
      // Swap rows k and pivotRow: row i takes row perm[i].
      Value isK = o.compare(ComparePredicate::eq, rowIds, ci(k));
      Value isPivot = o.compare(ComparePredicate::eq, rowIds, pivotRow);
      Value perm = o.where(isK, pivotRow, o.where(isPivot, ci(k), rowIds)); // [batch, size]
      Value index = o.expand(o.reshape(perm, {batch, size, 1}), {batch, size, size});
      a = o.op<GatherElementsOp>(a, index, uint64_t(1));
      Value swapped = o.compare(ComparePredicate::ne, pivotRow, ci(k));
      sign = o.mul(sign, o.where(swapped, c(-1.0), c(1.0)));
      if (k + 1 == size)
        break;
      // Eliminate below row k: row_i -= a[i][k] / a[k][k] * row_k.
      Value pivotRowValues = o.slice(a, {0, k, 0}, {batch, 1, size}, {1, 1, 1});
      Value pivot = o.slice(a, {0, k, k}, {batch, 1, 1}, {1, 1, 1});
      Value zeroPivot = o.compare(ComparePredicate::eq, pivot, c(0.0));
      Value safePivot = o.where(zeroPivot, c(1.0), pivot);
      SmallVector<double> belowMask;
      for (int64_t i = 0; i < size; ++i)
        belowMask.push_back(i > k ? 1.0 : 0.0);
      Value below = o.floats({1, size, 1}, et, belowMask);
      Value factors =
          o.mul(o.div(o.slice(a, {0, 0, k}, {batch, size, 1}, {1, 1, 1}), safePivot), below);
      a = o.sub(a, o.mul(factors, pivotRowValues));
    }
    SmallVector<double> eye;
    for (int64_t i = 0; i < size; ++i)
      for (int64_t j = 0; j < size; ++j)
        eye.push_back(i == j ? 1.0 : 0.0);
    Value diagonal =
        o.reduce<ReduceSumOp>(o.mul(a, o.floats({1, size, size}, et, eye)), {2}, false);
    Value det = o.mul(o.reduce<ReduceProdOp>(diagonal, {1}, false), o.reshape(sign, {batch}));
    rewriter.replaceOp(op, o.reshape(det, batchShape));
    return success();
  }
};

/// Shifts `x` by `by` along `axis` towards higher indices, filling with zeros: one ms.pad that
/// pads one side and crops the other.
Value shift(OpChain &o, Value x, int64_t axis, int64_t by) {
  int64_t rank = tensorTypeOf(x).getRank();
  SmallVector<int64_t> pads(2 * rank, 0);
  pads[axis] = by;
  pads[axis + rank] = -by;
  return o.pad(x, pads);
}

/// Inclusive prefix sums along `axis` by the log-step scan y += shift(y, 1), y += shift(y, 2),
/// ...: exact for integers, ceil(log2(n)) adds.
Value prefixSum(OpChain &o, Value x, int64_t axis) {
  int64_t size = tensorTypeOf(x).getDimSize(axis);
  for (int64_t step = 1; step < size; step *= 2)
    x = o.add(x, shift(o, x, axis, step));
  return x;
}

struct DecomposeHardmax : OpRewritePattern<HardmaxOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(HardmaxOp op, PatternRewriter &rewriter) const override {
    RankedTensorType xType = cast<RankedTensorType>(op.getInput().getType());
    ArrayRef<int64_t> shape = xType.getShape(), axes = op.getAxes();
    Type et = xType.getElementType();
    OpChain o(rewriter, op.getLoc());
    Value x = op.getInput();
    int64_t axis = axes.front();
    if (axes.size() > 1) {
      int64_t outer = 1, inner = 1;
      for (int64_t d : shape.take_front(axis))
        outer *= d;
      for (int64_t d : shape.drop_front(axis))
        inner *= d;
      x = o.reshape(x, {outer, inner});
      axis = 1;
    }
    Value isMax = o.compare(ComparePredicate::eq, x, o.reduce<ReduceMaxOp>(x, {axis}, true));
    Value ones = o.cast(isMax, et);
    Value count = prefixSum(o, ones, axis);
    Value first = o.compare(ComparePredicate::eq, o.mul(count, ones), o.scalar(et, 1.0));
    rewriter.replaceOp(op, o.reshape(o.cast(first, et), shape));
    return success();
  }
};

} // namespace

void mlir::ms::populateDecomposeMathPatterns(RewritePatternSet &patterns) {
  patterns.add<DecomposeDet, DecomposeHardmax>(patterns.getContext());
}
