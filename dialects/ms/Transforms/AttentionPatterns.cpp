//===- AttentionPatterns.cpp - scaled-dot-product attention recognition ---===//

#include "dialects/ms/Transforms/FusionUtils.h"
#include "dialects/ms/Transforms/Patterns.h"

using namespace mlir;
using namespace mlir::ms;

namespace {

RankedTensorType tensorTypeOf(Value v) { return cast<RankedTensorType>(v.getType()); }

/// softmax(Q·Kᵀ · c [+ mask]) · V -> ms.attention(Q, K, V [, mask]) {scale = c}.
struct RecognizeAttention : OpRewritePattern<MatMulOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(MatMulOp output, PatternRewriter &rewriter) const override {
    auto softmax = singleUseDef<SoftmaxOp>(output.getLhs());
    Value v = output.getRhs();
    if (!softmax)
      return failure();
    int64_t rank = softmax.getType().getRank();
    if (rank < 2 || tensorTypeOf(v).getRank() != rank ||
        !(softmax.getAxis() == -1 || softmax.getAxis() == rank - 1))
      return failure();
    Value scores = softmax.getInput();
    Value mask;
    if (auto add = singleUseDef<AddOp>(scores); add && add.getType() == add.getLhs().getType()) {
      scores = add.getLhs();
      mask = add.getRhs();
    }
    double scale = 1.0;
    if (auto mul = singleUseDef<MulOp>(scores)) {
      if (std::optional<double> c = getSplatValue(mul.getRhs()); c && mul.getType() ==
                                                                          mul.getLhs().getType()) {
        scale = *c;
        scores = mul.getLhs();
      }
    } else if (auto div = singleUseDef<DivOp>(scores)) {
      if (std::optional<double> c = getSplatValue(div.getRhs());
          c && *c != 0.0 && div.getType() == div.getLhs().getType()) {
        scale = 1.0 / *c;
        scores = div.getLhs();
      }
    }
    auto product = singleUseDef<MatMulOp>(scores);
    if (!product)
      return failure();
    Value q = product.getLhs(), kT = product.getRhs();
    auto qt = tensorTypeOf(q), kt = tensorTypeOf(kT), vt = tensorTypeOf(v);
    if (qt.getRank() != rank || kt.getRank() != rank || !qt.hasStaticShape() ||
        !kt.hasStaticShape() || !vt.hasStaticShape() ||
        qt.getShape().drop_back(2) != kt.getShape().drop_back(2) ||
        qt.getShape().drop_back(2) != vt.getShape().drop_back(2) ||
        !qt.getElementType().isF32() || kt.getElementType() != qt.getElementType() ||
        vt.getElementType() != qt.getElementType())
      return failure();
    if (mask && tensorTypeOf(mask).getElementType() != qt.getElementType())
      return failure();

    SmallVector<Value> stops = {q, kT, v};
    if (mask)
      stops.push_back(mask);
    Location loc = chainLoc(output, stops);
    SmallVector<int64_t> perm = llvm::to_vector(llvm::seq<int64_t>(0, rank));
    std::swap(perm[rank - 1], perm[rank - 2]);
    Value k = TransposeOp::create(rewriter, kT.getLoc(), kT, perm);
    auto attention = AttentionOp::create(rewriter, loc, q, k, v, mask,
                                         rewriter.getF64FloatAttr(scale));
    rewriter.replaceOp(output, attention.getResult());
    return success();
  }
};

} // namespace

void ms::populateAttentionPatterns(RewritePatternSet &patterns) {
  patterns.add<RecognizeAttention>(patterns.getContext());
}
