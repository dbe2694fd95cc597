//===- DecomposePatterns.cpp - ms-decompose's rewrites ----------------------===//
//
// Each composite op (MsCompositeOps.td) as ms primitives:
//   tile:           each dim d as [1, size] expanded to [repeats[d], size], one reshape merging
//                   the pairs;
//   depth_to_space: reshape [N, b, b, C', H, W] (DCR) or [N, C', b, b, H, W] (CRD), a transpose
//                   that interleaves the blocks with H and W, reshape [N, C', H b, W b];
//   space_to_depth: reshape [N, C, H', b, W', b], transpose to (b, b, C), reshape;
//   trilu:          where(compare(column - row, k), x, 0) with the row and column indices as
//                   [rows, 1] and [1, cols] constants (ms.range of a symbolic dim), so no
//                   [rows, cols] table is stored;
//   instance_norm, group_norm, mean_variance_norm: (x - mean) times rsqrt(var + epsilon) (MVN:
//                   divided by sqrt(var) + 1e-9) over the normalized dims (a group's channels
//                   reshaped into one dim), then the per-channel scale and bias;
//   lp_normalization: x / sum(|x|) or x / sqrt(sum(x^2)) along the axis;
//   lrn:            the squares as [N, 1, C, rest], an average pool of `size` x 1 over C
//                   (zero-padded, padding counted), then x / (bias + alpha * mean)^beta;
//   einsum:         operands contracted left to right: repeated labels' diagonals (an identity
//                   mask and a sum), labels nothing later needs summed first, then one batched
//                   ms.matmul [batch, M, K] x [batch, K, N] per pair (transposes, broadcasts
//                   and reshapes around it; integers: a broadcast product summed over K), a
//                   final sum and transpose to the output's order;
//   nll_loss:       the target's log-probability read with ms.gather_elements along the class
//                   axis, the class weights with ms.gather, ignored samples masked with ms.where,
//                   then ms.reduce_* over every axis.
//
//===----------------------------------------------------------------------===//

#include "dialects/ms/IR/MsOps.h"
#include "dialects/ms/IR/MsShapeUtils.h"
#include "dialects/ms/IR/MsSymbolicShapes.h"
#include "dialects/ms/Transforms/DecomposeBuilder.h"
#include "dialects/ms/Transforms/Patterns.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include <numeric>

using namespace mlir;
using namespace mlir::ms;

namespace {

/// A rank-0 constant of `et`.
Value scalar(PatternRewriter &rewriter, Location loc, Type et, double value) {
  auto type = RankedTensorType::get({}, et);
  return ConstantOp::create(rewriter, loc,
                            DenseElementsAttr::get(type, Attribute(FloatAttr::get(et, value))));
}

/// x - mean(x) over `axes` and the (biased) variance, both keeping the reduced dims.
std::pair<Value, Value> centeredAndVariance(PatternRewriter &rewriter, Location loc, Value x,
                                            ArrayRef<int64_t> axes) {
  Value mean = ReduceMeanOp::create(rewriter, loc, x, axes, true);
  Value centered = SubOp::create(rewriter, loc, x, mean);
  Value squared = MulOp::create(rewriter, loc, centered, centered);
  return {centered, ReduceMeanOp::create(rewriter, loc, squared, axes, true)};
}

/// (x - mean) * rsqrt(var + epsilon) over `axes`.
Value standardize(PatternRewriter &rewriter, Location loc, Value x, ArrayRef<int64_t> axes,
                  double epsilon) {
  auto [centered, variance] = centeredAndVariance(rewriter, loc, x, axes);
  Type et = cast<RankedTensorType>(x.getType()).getElementType();
  Value shifted = AddOp::create(rewriter, loc, variance, scalar(rewriter, loc, et, epsilon));
  return MulOp::create(rewriter, loc, centered, RsqrtOp::create(rewriter, loc, shifted));
}

/// y * scale[c] + bias[c] for y [N, C, spatial...]: the [C] parameters as [C, 1, ...].
Value scaleAndShift(PatternRewriter &rewriter, Location loc, Value y, Value scale, Value bias) {
  int64_t rank = cast<RankedTensorType>(y.getType()).getRank();
  SmallVector<int64_t> shape(rank - 1, 1);
  shape[0] = cast<RankedTensorType>(scale.getType()).getDimSize(0);
  y = MulOp::create(rewriter, loc, y, ReshapeOp::create(rewriter, loc, scale, shape));
  return AddOp::create(rewriter, loc, y, ReshapeOp::create(rewriter, loc, bias, shape));
}

struct DecomposeInstanceNorm : OpRewritePattern<InstanceNormOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(InstanceNormOp op, PatternRewriter &rewriter) const override {
    int64_t rank = op.getInput().getType().getRank();
    SmallVector<int64_t> spatial = llvm::to_vector(llvm::seq<int64_t>(2, rank));
    Value y = standardize(rewriter, op.getLoc(), op.getInput(), spatial,
                          op.getEpsilon().convertToDouble());
    rewriter.replaceOp(op, scaleAndShift(rewriter, op.getLoc(), y, op.getScale(), op.getBias()));
    return success();
  }
};

struct DecomposeGroupNorm : OpRewritePattern<GroupNormOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(GroupNormOp op, PatternRewriter &rewriter) const override {
    RankedTensorType type = op.getInput().getType();
    int64_t batch = type.getDimSize(0), groups = op.getNumGroups();
    Location loc = op.getLoc();
    Value grouped = ReshapeOp::create(
        rewriter, loc, op.getInput(),
        ArrayRef<int64_t>{batch, groups, type.getNumElements() / (batch * groups)});
    Value y = standardize(rewriter, loc, grouped, {2}, op.getEpsilon().convertToDouble());
    y = ReshapeOp::create(rewriter, loc, y, type.getShape());
    rewriter.replaceOp(op, scaleAndShift(rewriter, loc, y, op.getScale(), op.getBias()));
    return success();
  }
};

struct DecomposeMeanVarianceNorm : OpRewritePattern<MeanVarianceNormOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(MeanVarianceNormOp op, PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto [centered, variance] = centeredAndVariance(rewriter, loc, op.getInput(), op.getAxes());
    Type et = op.getType().getElementType();
    Value stddev = AddOp::create(rewriter, loc, SqrtOp::create(rewriter, loc, variance),
                                 scalar(rewriter, loc, et, 1e-9));
    rewriter.replaceOpWithNewOp<DivOp>(op, centered, stddev);
    return success();
  }
};

struct DecomposeLpNormalization : OpRewritePattern<LpNormalizationOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LpNormalizationOp op, PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = op.getInput();
    int64_t axis = op.getAxis();
    Value norm = op.getP() == 1
                     ? Value(ReduceSumOp::create(rewriter, loc, AbsOp::create(rewriter, loc, x),
                                                 ArrayRef<int64_t>{axis}, true))
                     : Value(SqrtOp::create(rewriter, loc,
                                            ReduceSumOp::create(rewriter, loc,
                                                                MulOp::create(rewriter, loc, x, x),
                                                                ArrayRef<int64_t>{axis}, true)));
    rewriter.replaceOpWithNewOp<DivOp>(op, x, norm);
    return success();
  }
};

struct DecomposeLrn : OpRewritePattern<LrnOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LrnOp op, PatternRewriter &rewriter) const override {
    RankedTensorType type = op.getType();
    ArrayRef<int64_t> shape = type.getShape();
    Type et = type.getElementType();
    int64_t size = op.getSize(), before = (size - 1) / 2, after = size - 1 - before;
    Location loc = op.getLoc();
    Value x = op.getInput();
    Value squares = ReshapeOp::create(
        rewriter, loc, MulOp::create(rewriter, loc, x, x),
        ArrayRef<int64_t>{shape[0], 1, shape[1], type.getNumElements() / (shape[0] * shape[1])});
    Value mean = AvgPoolOp::create(rewriter, loc, squares, ArrayRef<int64_t>{size, 1},
                                   ArrayRef<int64_t>{1, 1}, ArrayRef<int64_t>{before, 0, after, 0},
                                   ArrayRef<int64_t>{1, 1}, false, true);
    Value scaled =
        MulOp::create(rewriter, loc, scalar(rewriter, loc, et, op.getAlpha().convertToDouble()),
                      ReshapeOp::create(rewriter, loc, mean, shape));
    Value base = AddOp::create(rewriter, loc,
                               scalar(rewriter, loc, et, op.getBias().convertToDouble()), scaled);
    Value denominator = PowOp::create(rewriter, loc, base,
                                      scalar(rewriter, loc, et, op.getBeta().convertToDouble()));
    rewriter.replaceOpWithNewOp<DivOp>(op, x, denominator);
    return success();
  }
};

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
    // A symbolic dim's indices are an ms.range over its expression (a causal mask of the
    // sequence length), unsqueezed to the same [rows, 1] or [1, cols]; one without an
    // expression is left for the shapes to be known.
    SmallVector<AffineExpr> dims;
    unsigned numSymbols = 0;
    if (!type.hasStaticShape()) {
      dims = symbolicDimsOf(op.getInput());
      if (!dims[rank - 2] || !dims[rank - 1])
        return rewriter.notifyMatchFailure(op, "a dim that is not an expression of the symbols");
      numSymbols = SymbolicShapes(op->getParentOfType<FunctionOpInterface>()).numSymbols();
    }
    auto indices = [&](ArrayRef<int64_t> shape, int64_t count, int64_t dim) -> Value {
      if (ShapedType::isDynamic(count)) {
        AffineMap bounds = symbolicShapeMap(op.getContext(), numSymbols,
                                            {rewriter.getAffineConstantExpr(0), dims[dim]});
        Value range = RangeOp::create(rewriter, loc, RankedTensorType::get({count}, i64),
                                      AffineMapAttr::get(bounds), rewriter.getI64IntegerAttr(1));
        return UnsqueezeOp::create(rewriter, loc, range,
                                   ArrayRef<int64_t>{shape[0] == 1 ? int64_t(0) : int64_t(1)});
      }
      SmallVector<int64_t> values(count);
      std::iota(values.begin(), values.end(), int64_t(0));
      auto t = RankedTensorType::get(shape, i64);
      return ConstantOp::create(rewriter, loc, DenseIntElementsAttr::get(t, ArrayRef(values)));
    };
    Value offset = SubOp::create(rewriter, loc, indices({1, cols}, cols, rank - 1),
                                 indices({rows, 1}, rows, rank - 2));
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

/// An einsum operand being contracted: its value and one label per dim.
struct Labeled {
  Value value;
  std::string labels;
};

ArrayRef<int64_t> shapeOf(Value v) { return cast<RankedTensorType>(v.getType()).getShape(); }

/// Sums `x` over every label for which `drop` holds.
Labeled sumOut(PatternRewriter &rewriter, Location loc, Labeled x, function_ref<bool(char)> drop) {
  SmallVector<int64_t> axes;
  std::string kept;
  for (auto [i, label] : llvm::enumerate(x.labels)) {
    if (drop(label))
      axes.push_back(i);
    else
      kept.push_back(label);
  }
  if (axes.empty())
    return x;
  return {ReduceSumOp::create(rewriter, loc, x.value, axes, false), kept};
}

/// Takes the diagonal of every label repeated within one operand ("ii->i"): the operand is
/// multiplied by an identity mask over the two dims, then summed over the second.
Labeled takeDiagonals(PatternRewriter &rewriter, Location loc, Labeled x) {
  for (size_t q = 1; q < x.labels.size(); ++q) {
    size_t p = x.labels.find(x.labels[q]);
    if (p == q)
      continue;
    auto type = cast<RankedTensorType>(x.value.getType());
    int64_t size = type.getDimSize(p);
    SmallVector<int64_t> maskShape(type.getRank(), 1);
    maskShape[p] = maskShape[q] = size;
    Type et = type.getElementType();
    SmallVector<Attribute> eye;
    for (int64_t i = 0; i < size; ++i)
      for (int64_t j = 0; j < size; ++j)
        eye.push_back(isa<FloatType>(et) ? Attribute(FloatAttr::get(et, i == j))
                                         : Attribute(IntegerAttr::get(et, i == j)));
    Value mask = ConstantOp::create(
        rewriter, loc, DenseElementsAttr::get(RankedTensorType::get(maskShape, et), eye));
    x.value = ReduceSumOp::create(rewriter, loc, MulOp::create(rewriter, loc, x.value, mask),
                                  ArrayRef<int64_t>{(int64_t)q}, false);
    x.labels.erase(q, 1);
    --q;
  }
  return x;
}

/// The product of `exprs` (1 for none).
AffineExpr productOf(MLIRContext *ctx, ArrayRef<AffineExpr> exprs) {
  AffineExpr p = getAffineConstantExpr(1, ctx);
  for (AffineExpr e : exprs)
    p = p * e;
  return p;
}

/// Contracts two operands with one batched ms.matmul: [batch, M, K] x [batch, K, N], where batch
/// labels are shared and kept, K labels shared and summed, M and N labels those of one side.
/// Sizes are expressions of the function's symbols, so a symbolic batch (or length) flattens and
/// unflattens by symbolic reshapes; a label whose two sides may differ at run time (a symbolic
/// dim against 1 or another expression) fails.
FailureOr<Labeled> contract(PatternRewriter &rewriter, Operation *op, SymbolicShapes &shapes,
                            Labeled a, Labeled b, StringRef keep) {
  Location loc = op->getLoc();
  MLIRContext *ctx = op->getContext();
  std::string batch, m, k, nn;
  for (char l : a.labels) {
    bool inB = b.labels.find(l) != std::string::npos, kept = keep.contains(l);
    (inB ? (kept ? batch : k) : m).push_back(l);
  }
  for (char l : b.labels)
    if (a.labels.find(l) == std::string::npos)
      nn.push_back(l);
  // One analysis for the whole einsum: the values built here get their dims on demand.
  SmallVector<AffineExpr> aDims(shapes.dims(a.value)), bDims(shapes.dims(b.value));
  AffineExpr one = getAffineConstantExpr(1, ctx);
  // A label's size: its sides' dims broadcast (a side without it counts as 1).
  auto sizeOf = [&](char l) -> AffineExpr {
    size_t i = a.labels.find(l), j = b.labels.find(l);
    return broadcastDim(i == std::string::npos ? one : aDims[i],
                        j == std::string::npos ? one : bDims[j]);
  };
  auto perm = [](const Labeled &x, StringRef labels) {
    SmallVector<int64_t> p;
    for (char l : labels)
      p.push_back(x.labels.find(l));
    return p;
  };
  SmallVector<AffineExpr> batchSizes, mSizes, kSizes, nSizes;
  for (auto [labels, sizes] : {std::pair{&batch, &batchSizes}, std::pair{&m, &mSizes},
                               std::pair{&k, &kSizes}, std::pair{&nn, &nSizes}})
    for (char l : *labels) {
      AffineExpr size = sizeOf(l);
      if (!size)
        return rewriter.notifyMatchFailure(op, "a label's sizes may differ at run time");
      sizes->push_back(size);
    }
  SmallVector<int64_t> aPerm = perm(a, batch), bPerm = perm(b, batch);
  llvm::append_range(aPerm, perm(a, m));
  llvm::append_range(aPerm, perm(a, k));
  llvm::append_range(bPerm, perm(b, k));
  llvm::append_range(bPerm, perm(b, nn));
  SmallVector<AffineExpr> aFull = batchSizes, bFull = batchSizes;
  llvm::append_range(aFull, mSizes);
  llvm::append_range(aFull, kSizes);
  llvm::append_range(bFull, kSizes);
  llvm::append_range(bFull, nSizes);
  // Transpose, broadcast and reshape, each only where it changes something.
  auto reshape = [&](Value x, ArrayRef<AffineExpr> to) -> Value {
    return shapes.dims(x) == to ? x : reshapeToDims(rewriter, op, x, to);
  };
  auto arrange = [&](Value x, ArrayRef<int64_t> perm, ArrayRef<AffineExpr> full,
                     ArrayRef<AffineExpr> flat) -> Value {
    if (!llvm::equal(perm, llvm::seq<int64_t>(0, perm.size())))
      x = TransposeOp::create(rewriter, loc, x, perm);
    if (shapes.dims(x) != full) {
      auto [sizes, map] = staticAndSymbolic(op, full);
      x = ExpandOp::create(rewriter, loc, x, rewriter.getDenseI64ArrayAttr(sizes), map);
    }
    return reshape(x, flat);
  };
  AffineExpr bt = productOf(ctx, batchSizes), mt = productOf(ctx, mSizes),
             kt = productOf(ctx, kSizes), nt = productOf(ctx, nSizes);
  Value lhs = arrange(a.value, aPerm, aFull, {bt, mt, kt});
  Value rhs = arrange(b.value, bPerm, bFull, {bt, kt, nt});
  Value result;
  if (isa<FloatType>(cast<RankedTensorType>(lhs.getType()).getElementType())) {
    result = MatMulOp::create(rewriter, loc, lhs, rhs, TypeAttr());
  } else {
    // ms.matmul is for floats; integers multiply exactly as [bt, mt, kt, 1] * [bt, 1, kt, nt]
    // summed over kt (wrapping as ONNX's integer arithmetic does).
    Value l = reshape(lhs, {bt, mt, kt, one});
    Value r = reshape(rhs, {bt, one, kt, nt});
    result = ReduceSumOp::create(rewriter, loc, MulOp::create(rewriter, loc, l, r),
                                 ArrayRef<int64_t>{2}, false);
  }
  SmallVector<AffineExpr> outShape = batchSizes;
  llvm::append_range(outShape, mSizes);
  llvm::append_range(outShape, nSizes);
  return Labeled{reshapeToDims(rewriter, op, result, outShape), batch + m + nn};
}

struct DecomposeEinsum : OpRewritePattern<EinsumOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(EinsumOp op, PatternRewriter &rewriter) const override {
    SmallVector<int64_t> ranks;
    for (Value input : op.getInputs())
      ranks.push_back(cast<RankedTensorType>(input.getType()).getRank());
    std::string error;
    FailureOr<EinsumEquation> eq = parseEinsumEquation(op.getEquation(), ranks, error);
    if (failed(eq)) // the verifier has refused it already
      return failure();
    // Symbolic sizes decompose where each label has one expression (or 1) and no symbolic label
    // repeats within a term (a diagonal's mask is static); otherwise the einsum is left for the
    // lowering to report.
    // (Outside a function, as an import-time expansion may run, there are no symbols.)
    Operation *fn = op->getParentOfType<FunctionOpInterface>();
    SymbolicShapes shapes(fn ? fn : op->getParentOp());
    if (op.getType().getNumDynamicDims() || llvm::any_of(op.getInputs(), [](Value v) {
          return !cast<RankedTensorType>(v.getType()).hasStaticShape();
        })) {
      llvm::SmallDenseMap<char, AffineExpr> sizes;
      for (auto [term, input] : llvm::zip(eq->terms, op.getInputs())) {
        auto type = cast<RankedTensorType>(input.getType());
        ArrayRef<AffineExpr> dims = shapes.dims(input);
        for (auto [d, label] : llvm::enumerate(term)) {
          if (type.isDynamicDim(d) && term.find(label) != d)
            return rewriter.notifyMatchFailure(op, "a diagonal of a symbolic dim");
          AffineExpr &size =
              sizes.try_emplace(label, getAffineConstantExpr(1, op.getContext())).first->second;
          if (!(size = broadcastDim(size, dims[d])))
            return rewriter.notifyMatchFailure(op, "a label's sizes may differ at run time");
        }
      }
    }
    Location loc = op.getLoc();
    const std::string &out = eq->output;
    size_t count = eq->terms.size();
    std::optional<Labeled> acc;
    for (size_t i = 0; i < count; ++i) {
      Labeled next = takeDiagonals(rewriter, loc, {op.getInputs()[i], eq->terms[i]});
      // Labels needed after this step: the output's and those of later operands.
      std::string later = out;
      for (size_t j = i + 1; j < count; ++j)
        later += eq->terms[j];
      auto unneeded = [&later](const Labeled *other) {
        return [&later, other](char l) {
          return later.find(l) == std::string::npos &&
                 (!other || other->labels.find(l) == std::string::npos);
        };
      };
      if (!acc) {
        acc = count == 1 ? sumOut(rewriter, loc, next, unneeded(nullptr)) : next;
        continue;
      }
      acc = sumOut(rewriter, loc, *acc, unneeded(&next));
      next = sumOut(rewriter, loc, next, unneeded(&*acc));
      FailureOr<Labeled> product = contract(rewriter, op, shapes, *acc, next, later);
      if (failed(product))
        return failure();
      acc = *product;
    }
    acc = sumOut(rewriter, loc, *acc, [&](char l) { return out.find(l) == std::string::npos; });
    SmallVector<int64_t> perm;
    for (char l : out)
      perm.push_back(acc->labels.find(l));
    Value y = acc->value;
    if (!llvm::equal(perm, llvm::seq<int64_t>(0, perm.size())))
      y = TransposeOp::create(rewriter, loc, y, perm);
    // Labels of size 1 broadcast against larger ones may leave the result at the output's shape
    // only after an expand (a label of size 1 in every operand stays 1).
    if (shapeOf(y) != op.getType().getShape())
      y = ExpandOp::create(rewriter, loc, y, op.getType().getShape());
    rewriter.replaceOp(op, y);
    return success();
  }
};

/// Per sample -input[n, target, d...] * weight[target], 0 where the target is ignore_index; then
/// summed, or divided by the sum of the weights applied for mean. An ignored target may lie
/// outside [0, C) (negative ignore_index, or one past the classes): it reads class 0 instead, and
/// its loss and weight are then masked to 0.
struct DecomposeNllLoss : OpRewritePattern<NllLossOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(NllLossOp op, PatternRewriter &rewriter) const override {
    RankedTensorType tType = op.getTarget().getType();
    Type et = op.getType().getElementType(), tt = tType.getElementType();
    OpChain o(rewriter, op.getLoc());
    Value target = op.getTarget();
    Value ignored;
    if (std::optional<uint64_t> ignoreIndex = op.getIgnoreIndex()) {
      ignored = o.compare(ComparePredicate::eq, target,
                          o.scalar(tt, static_cast<double>(static_cast<int64_t>(*ignoreIndex))));
      target = o.where(ignored, o.scalar(tt, 0.0), target);
    }
    SmallVector<int64_t> lifted(tType.getShape());
    lifted.insert(lifted.begin() + 1, 1);
    Value picked = o.op<GatherElementsOp>(op.getInput(), o.reshape(target, lifted), uint64_t(1));
    Value loss = o.op<NegOp>(o.reshape(picked, tType.getShape()));

    Value weight; // per sample (target's shape); null when every sample weighs 1
    if (op.getWeight())
      weight = o.op<GatherOp>(op.getWeight(), target, uint64_t(0));
    Value zero = ignored ? o.scalar(et, 0.0) : Value();
    if (ignored)
      weight = o.where(ignored, zero, weight ? weight : o.scalar(et, 1.0));
    if (weight)
      loss = o.mul(loss, weight);
    if (ignored) // -x * 0 would keep a NaN or infinite log-probability of class 0
      loss = o.where(ignored, zero, loss);

    SmallVector<int64_t> all = llvm::to_vector(llvm::seq<int64_t>(0, tType.getRank()));
    switch (op.getReduction()) {
    case LossReduction::none:
      break;
    case LossReduction::sum:
      loss = o.reduce<ReduceSumOp>(loss, all, false);
      break;
    case LossReduction::mean:
      loss = weight ? o.div(o.reduce<ReduceSumOp>(loss, all, false),
                            o.reduce<ReduceSumOp>(weight, all, false))
                    : o.reduce<ReduceMeanOp>(loss, all, false);
      break;
    }
    rewriter.replaceOp(op, loss);
    return success();
  }
};

} // namespace

void mlir::ms::populateDecomposePatterns(RewritePatternSet &patterns) {
  patterns.add<DecomposeTile, DecomposeDepthToSpace, DecomposeSpaceToDepth, DecomposeTrilu,
               DecomposeInstanceNorm, DecomposeGroupNorm, DecomposeMeanVarianceNorm,
               DecomposeLpNormalization, DecomposeLrn, DecomposeEinsum>(
      patterns.getContext());
}

void mlir::ms::populateDecomposeLossPatterns(RewritePatternSet &patterns) {
  patterns.add<DecomposeNllLoss>(patterns.getContext());
}
