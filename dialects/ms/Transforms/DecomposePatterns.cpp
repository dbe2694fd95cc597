//===- DecomposePatterns.cpp - ms-decompose's rewrites ----------------------===//
//
// Each composite op (MsCompositeOps.td) as ms primitives:
//   tile:           each dim d as [1, size] expanded to [repeats[d], size], one reshape merging
//                   the pairs;
//   depth_to_space: reshape [N, b, b, C', H, W] (DCR) or [N, C', b, b, H, W] (CRD), a transpose
//                   that interleaves the blocks with H and W, reshape [N, C', H b, W b];
//   space_to_depth: reshape [N, C, H', b, W', b], transpose to (b, b, C), reshape;
//   trilu:          where(compare(column - row, k), x, 0) with the row and column indices as
//                   [rows, 1] and [1, cols] constants, so no [rows, cols] table is stored.
//
//===----------------------------------------------------------------------===//

#include "dialects/ms/IR/MsOps.h"
#include "dialects/ms/Transforms/Patterns.h"

#include "mlir/IR/PatternMatch.h"

#include <numeric>

using namespace mlir;
using namespace mlir::ms;

namespace {

struct DecomposeTile : OpRewritePattern<TileOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(TileOp op, PatternRewriter &rewriter) const override {
    SmallVector<int64_t> lifted, expanded;
    for (auto [size, r] : llvm::zip(op.getInput().getType().getShape(), op.getRepeats())) {
      lifted.append({1, size});
      expanded.append({r, size});
    }
    Location loc = op.getLoc();
    Value x = ReshapeOp::create(rewriter, loc, op.getInput(), lifted);
    x = ExpandOp::create(rewriter, loc, x, expanded);
    rewriter.replaceOpWithNewOp<ReshapeOp>(op, x, op.getType().getShape());
    return success();
  }
};

struct DecomposeDepthToSpace : OpRewritePattern<DepthToSpaceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(DepthToSpaceOp op, PatternRewriter &rewriter) const override {
    ArrayRef<int64_t> s = op.getInput().getType().getShape();
    int64_t b = op.getBlocksize(), n = s[0], c = s[1] / (b * b), h = s[2], w = s[3];
    Location loc = op.getLoc();
    Value blocks, moved;
    if (op.getCrd()) {
      blocks = ReshapeOp::create(rewriter, loc, op.getInput(), ArrayRef<int64_t>{n, c, b, b, h, w});
      moved = TransposeOp::create(rewriter, loc, blocks, ArrayRef<int64_t>{0, 1, 4, 2, 5, 3});
    } else {
      blocks = ReshapeOp::create(rewriter, loc, op.getInput(), ArrayRef<int64_t>{n, b, b, c, h, w});
      moved = TransposeOp::create(rewriter, loc, blocks, ArrayRef<int64_t>{0, 3, 4, 1, 5, 2});
    }
    rewriter.replaceOpWithNewOp<ReshapeOp>(op, moved, op.getType().getShape());
    return success();
  }
};

struct DecomposeSpaceToDepth : OpRewritePattern<SpaceToDepthOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(SpaceToDepthOp op, PatternRewriter &rewriter) const override {
    ArrayRef<int64_t> s = op.getInput().getType().getShape();
    int64_t b = op.getBlocksize();
    Location loc = op.getLoc();
    Value blocks = ReshapeOp::create(rewriter, loc, op.getInput(),
                                     ArrayRef<int64_t>{s[0], s[1], s[2] / b, b, s[3] / b, b});
    Value moved = TransposeOp::create(rewriter, loc, blocks, ArrayRef<int64_t>{0, 3, 5, 1, 2, 4});
    rewriter.replaceOpWithNewOp<ReshapeOp>(op, moved, op.getType().getShape());
    return success();
  }
};

struct DecomposeTrilu : OpRewritePattern<TriluOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(TriluOp op, PatternRewriter &rewriter) const override {
    RankedTensorType type = op.getInput().getType();
    int64_t rank = type.getRank(), rows = type.getDimSize(rank - 2),
            cols = type.getDimSize(rank - 1);
    Location loc = op.getLoc();
    Type i64 = rewriter.getI64Type();
    auto indices = [&](ArrayRef<int64_t> shape, int64_t count) -> Value {
      SmallVector<int64_t> values(count);
      std::iota(values.begin(), values.end(), int64_t(0));
      auto t = RankedTensorType::get(shape, i64);
      return ConstantOp::create(rewriter, loc, DenseIntElementsAttr::get(t, ArrayRef(values)));
    };
    Value offset = SubOp::create(rewriter, loc, indices({1, cols}, cols), indices({rows, 1}, rows));
    Value k = op.getK();
    if (k)
      k = ReshapeOp::create(rewriter, loc, k, ArrayRef<int64_t>{});
    else
      k = ConstantOp::create(
          rewriter, loc,
          DenseIntElementsAttr::get(RankedTensorType::get({}, i64), ArrayRef<int64_t>{0}));
    Value keep = CompareOp::create(
        rewriter, loc, op.getLower() ? ComparePredicate::le : ComparePredicate::ge, offset, k);
    Type et = type.getElementType();
    auto scalar = RankedTensorType::get({}, et);
    Attribute zero = isa<FloatType>(et) ? Attribute(FloatAttr::get(et, 0.0))
                                        : Attribute(IntegerAttr::get(et, 0));
    Value zeros = ConstantOp::create(rewriter, loc, DenseElementsAttr::get(scalar, zero));
    rewriter.replaceOpWithNewOp<WhereOp>(op, keep, op.getInput(), zeros);
    return success();
  }
};

} // namespace

void mlir::ms::populateDecomposePatterns(RewritePatternSet &patterns) {
  patterns.add<DecomposeTile, DecomposeDepthToSpace, DecomposeSpaceToDepth, DecomposeTrilu>(
      patterns.getContext());
}
