//===- NormalizationPatterns.cpp - GELU, LayerNorm, Softmax recognition ---===//
//
// Each pattern is rooted at the last op of the exporter's chain and checks that every intermediate
// value is used only inside the chain, so the replacement removes the whole chain.
//
//===----------------------------------------------------------------------===//

#include "dialects/ms/Transforms/FusionUtils.h"
#include "dialects/ms/Transforms/Patterns.h"

#include <cmath>

using namespace mlir;
using namespace mlir::ms;

namespace {

RankedTensorType tensorTypeOf(Value v) { return cast<RankedTensorType>(v.getType()); }

/// The factors of the product rooted at `root`: interior muls (the root and single-use muls below
/// it) are expanded, everything else is a leaf.
void collectFactors(Value v, bool isRoot, SmallVectorImpl<Value> &leaves) {
  auto mul = v.getDefiningOp<MulOp>();
  if (mul && (isRoot || mul->hasOneUse())) {
    collectFactors(mul.getLhs(), false, leaves);
    collectFactors(mul.getRhs(), false, leaves);
    return;
  }
  leaves.push_back(v);
}

/// Whether `v` is `x / c` or `x * (1 / c)` for constant c (single use); returns x.
Value matchDivByConstant(Value v, double c) {
  if (auto div = singleUseDef<DivOp>(v); div && isSplatNear(div.getRhs(), c))
    return div.getLhs();
  if (auto mul = singleUseDef<MulOp>(v)) {
    if (isSplatNear(mul.getRhs(), 1.0 / c))
      return mul.getLhs();
    if (isSplatNear(mul.getLhs(), 1.0 / c))
      return mul.getRhs();
  }
  return Value();
}

/// `1 + f` where f is the single-use result of OpTy (either order); returns f's op.
template <typename OpTy>
OpTy matchOnePlus(Value v) {
  auto add = singleUseDef<AddOp>(v);
  if (!add)
    return OpTy();
  Value f = isSplatNear(add.getLhs(), 1.0)   ? add.getRhs()
            : isSplatNear(add.getRhs(), 1.0) ? add.getLhs()
                                             : Value();
  return f ? singleUseDef<OpTy>(f) : OpTy();
}

/// Whether `v` is x^3 as pow(x, 3) or a product x * x * x (single use).
bool isCubeOf(Value v, Value x) {
  if (auto pow = singleUseDef<PowOp>(v))
    return pow.getLhs() == x && isSplatNear(pow.getRhs(), 3.0);
  if (!singleUseDef<MulOp>(v))
    return false;
  SmallVector<Value> leaves;
  collectFactors(v, true, leaves);
  return leaves.size() == 3 && llvm::all_of(leaves, [&](Value l) { return l == x; });
}

/// The argument of tanh in the GELU tanh form, sqrt(2/pi) * (x + 0.044715 * x^3); returns x.
Value matchGeluTanhArgument(Value t) {
  auto mul = singleUseDef<MulOp>(t);
  if (!mul)
    return Value();
  constexpr double kSqrt2OverPi = 0.7978845608028654;
  Value inner = isSplatNear(mul.getLhs(), kSqrt2OverPi)   ? mul.getRhs()
                : isSplatNear(mul.getRhs(), kSqrt2OverPi) ? mul.getLhs()
                                                          : Value();
  auto add = inner ? singleUseDef<AddOp>(inner) : AddOp();
  if (!add)
    return Value();
  for (int i = 0; i < 2; ++i) {
    Value x = add->getOperand(i);
    auto cubic = singleUseDef<MulOp>(add->getOperand(1 - i));
    if (!cubic)
      continue;
    Value cube = isSplatNear(cubic.getLhs(), 0.044715)   ? cubic.getRhs()
                 : isSplatNear(cubic.getRhs(), 0.044715) ? cubic.getLhs()
                                                         : Value();
    if (cube && isCubeOf(cube, x))
      return x;
  }
  return Value();
}

/// x * 0.5 * (1 + erf(x / sqrt(2))) and 0.5 * x * (1 + tanh(...)), as any product tree.
struct RecognizeGelu : OpRewritePattern<MulOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(MulOp root, PatternRewriter &rewriter) const override {
    SmallVector<Value> leaves;
    collectFactors(root.getResult(), true, leaves);
    if (leaves.size() != 3)
      return failure();
    auto half = llvm::find_if(leaves, [](Value v) { return isSplatNear(v, 0.5); });
    if (half == leaves.end())
      return failure();
    for (Value candidate : leaves) {
      if (candidate == *half)
        continue;
      Value x;
      bool approximate = false;
      if (auto erf = matchOnePlus<ErfOp>(candidate)) {
        x = matchDivByConstant(erf.getInput(), std::sqrt(2.0));
      } else if (auto tanh = matchOnePlus<TanhOp>(candidate)) {
        x = matchGeluTanhArgument(tanh.getInput());
        approximate = true;
      }
      if (!x || x.getType() != root.getType() || !llvm::is_contained(leaves, x))
        continue;
      auto gelu = GeluOp::create(rewriter, chainLoc(root, x), x);
      if (approximate)
        gelu.setApproximate(true);
      rewriter.replaceOp(root, gelu.getResult());
      return success();
    }
    return failure();
  }
};

/// Whether `axes` (of an op on a rank-`rank` input) are exactly the trailing dims from `first`.
std::optional<int64_t> trailingAxesStart(ArrayRef<int64_t> axes, int64_t rank) {
  if (axes.empty())
    return std::nullopt;
  SmallVector<int64_t> sorted;
  for (int64_t a : axes)
    sorted.push_back(a < 0 ? a + rank : a);
  llvm::sort(sorted);
  for (size_t i = 0; i < sorted.size(); ++i)
    if (sorted[i] != rank - (int64_t)sorted.size() + (int64_t)i)
      return std::nullopt;
  return sorted.front();
}

/// (x - mean(x)) / sqrt(mean((x - mean(x))^2) + eps) [* gamma] [+ beta] over trailing axes.
struct RecognizeLayerNorm : OpRewritePattern<DivOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(DivOp div, PatternRewriter &rewriter) const override {
    auto sub = div.getLhs().getDefiningOp<SubOp>();
    auto sqrt = singleUseDef<SqrtOp>(div.getRhs());
    if (!sub || !sqrt || div.getType() != sub.getType())
      return failure();
    Value x = sub.getLhs();
    auto mean = singleUseDef<ReduceMeanOp>(sub.getRhs());
    if (!mean || mean.getInput() != x || !mean.getKeepDims() || x.getType() != div.getType())
      return failure();
    int64_t rank = tensorTypeOf(x).getRank();
    std::optional<int64_t> axis = trailingAxesStart(mean.getAxes(), rank);
    auto addEps = singleUseDef<AddOp>(sqrt.getInput());
    if (!axis || !addEps)
      return failure();
    Value var = addEps.getLhs(), epsValue = addEps.getRhs();
    if (!getSplatValue(epsValue))
      std::swap(var, epsValue);
    std::optional<double> eps = getSplatValue(epsValue);
    auto varMean = singleUseDef<ReduceMeanOp>(var);
    if (!eps || *eps < 0 || !varMean || !varMean.getKeepDims() ||
        trailingAxesStart(varMean.getAxes(), rank) != axis)
      return failure();
    Operation *square = varMean.getInput().getDefiningOp();
    bool isSquare = square && square->hasOneUse() &&
                    ((isa<PowOp>(square) && square->getOperand(0) == sub.getResult() &&
                      isSplatNear(square->getOperand(1), 2.0)) ||
                     (isa<MulOp>(square) && square->getOperand(0) == sub.getResult() &&
                      square->getOperand(1) == sub.getResult()));
    if (!isSquare || !llvm::all_of(sub->getUsers(), [&](Operation *user) {
          return user == square || user == div.getOperation();
        }))
      return failure();

    // Optional affine tail over the normalized dims.
    ArrayRef<int64_t> normalized = tensorTypeOf(x).getShape().drop_front(*axis);
    Operation *last = div;
    Value gamma, beta;
    auto takeOperand = [&](Operation *user) -> Value {
      if (!user || user->getResult(0).getType() != div.getType())
        return Value();
      for (int i = 0; i < 2; ++i)
        if (user->getOperand(i) == last->getResult(0) &&
            tensorTypeOf(user->getOperand(1 - i)).getShape() == normalized)
          return user->getOperand(1 - i);
      return Value();
    };
    if (last->hasOneUse() && isa<MulOp>(*last->getUsers().begin())) {
      if ((gamma = takeOperand(*last->getUsers().begin())))
        last = *last->getUsers().begin();
    }
    if (gamma && last->hasOneUse() && isa<AddOp>(*last->getUsers().begin())) {
      if ((beta = takeOperand(*last->getUsers().begin())))
        last = *last->getUsers().begin();
    }
    SmallVector<Value> stops = {x};
    if (gamma)
      stops.push_back(gamma);
    if (beta)
      stops.push_back(beta);
    Location loc = chainLoc(last, stops);
    rewriter.setInsertionPoint(last);
    if (!gamma) {
      auto type = RankedTensorType::get(normalized, tensorTypeOf(x).getElementType());
      gamma = ConstantOp::create(rewriter, loc, DenseElementsAttr::get(type, 1.0f));
    }
    auto layerNorm = LayerNormOp::create(rewriter, loc, x, gamma, beta,
                                         rewriter.getI64IntegerAttr(*axis),
                                         rewriter.getF64FloatAttr(*eps));
    rewriter.replaceOp(last, layerNorm.getResult());
    return success();
  }
};

/// exp(x - max(x)) / sum(exp(x - max(x))) (or without the max) along one axis.
struct RecognizeSoftmax : OpRewritePattern<DivOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(DivOp div, PatternRewriter &rewriter) const override {
    auto exp = div.getLhs().getDefiningOp<ExpOp>();
    auto sum = singleUseDef<ReduceSumOp>(div.getRhs());
    if (!exp || !sum || sum.getInput() != exp.getResult() || !sum.getKeepDims() ||
        sum.getAxes().size() != 1 || !llvm::hasNItems(exp->getUses(), 2) ||
        exp.getType() != div.getType())
      return failure();
    int64_t rank = exp.getType().getRank();
    int64_t axis = sum.getAxes()[0] < 0 ? sum.getAxes()[0] + rank : sum.getAxes()[0];
    Value x = exp.getInput();
    if (auto sub = singleUseDef<SubOp>(x)) {
      auto max = singleUseDef<ReduceMaxOp>(sub.getRhs());
      if (max && max.getInput() == sub.getLhs() && max.getKeepDims() &&
          max.getAxes().size() == 1 &&
          (max.getAxes()[0] < 0 ? max.getAxes()[0] + rank : max.getAxes()[0]) == axis)
        x = sub.getLhs();
    }
    if (!isa<FloatType>(exp.getType().getElementType()))
      return failure();
    auto softmax = SoftmaxOp::create(rewriter, chainLoc(div, x), x, axis);
    rewriter.replaceOp(div, softmax.getResult());
    return success();
  }
};

} // namespace

void ms::populateNormalizationPatterns(RewritePatternSet &patterns) {
  patterns.add<RecognizeGelu, RecognizeLayerNorm, RecognizeSoftmax>(patterns.getContext());
}
