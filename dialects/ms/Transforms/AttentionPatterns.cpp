//===- AttentionPatterns.cpp - scaled-dot-product attention recognition ---===//

#include "dialects/ms/IR/MsSymbolicShapes.h"
#include "dialects/ms/Transforms/FusionUtils.h"
#include "dialects/ms/Transforms/Patterns.h"

using namespace mlir;
using namespace mlir::ms;

namespace {

/// With symbolic dims the static checks of the fold see `?` equal to `?`: the query's batch dims
/// must also be the key's and the value's (the heads dim excepted: grouped-query heads are
/// static), the key's length the value's, and every dim of the mask 1 or the scores' own. True
/// for static shapes (the static checks decide).
bool sameSymbolicDims(Value q, Value kT, Value v, Value mask) {
  if (!hasKnownDims(q) || !hasKnownDims(kT) || !hasKnownDims(v) || (mask && !hasKnownDims(mask)))
    return false;
  auto isStatic = [](Value x) { return cast<RankedTensorType>(x.getType()).hasStaticShape(); };
  if (isStatic(q) && isStatic(kT) && isStatic(v) && (!mask || isStatic(mask)))
    return true;
  SmallVector<AffineExpr> dq = symbolicDimsOf(q), dk = symbolicDimsOf(kT), dv = symbolicDimsOf(v);
  size_t rank = dq.size();
  if (dk.size() != rank || dv.size() != rank || rank < 2)
    return false;
  ArrayRef<AffineExpr> bq = ArrayRef(dq).drop_back(2), bk = ArrayRef(dk).drop_back(2),
                       bv = ArrayRef(dv).drop_back(2);
  bool headsStatic =
      !bq.empty() && isa<AffineConstantExpr>(bq.back()) && isa<AffineConstantExpr>(bk.back());
  if (bk != bv || dk[rank - 1] != dv[rank - 2] ||
      (!bq.empty() && bq.drop_back() != bk.drop_back()) ||
      (!bq.empty() && bq.back() != bk.back() && !headsStatic))
    return false;
  if (!mask)
    return true;
  SmallVector<AffineExpr> scores(bq);
  scores.push_back(dq[rank - 2]);
  scores.push_back(dk[rank - 1]);
  SmallVector<AffineExpr> dm = symbolicDimsOf(mask);
  if (dm.size() > scores.size())
    return false;
  AffineExpr one = getAffineConstantExpr(1, q.getContext());
  for (size_t i = 0; i < dm.size(); ++i)
    if (dm[i] != one && dm[i] != scores[scores.size() - dm.size() + i])
      return false;
  return true;
}

RankedTensorType tensorTypeOf(Value v) { return cast<RankedTensorType>(v.getType()); }

/// Additive mask values at or below this hide a key: exp(-1e4 + s - max) is 0 in f32 unless the
/// hidden score exceeds every visible one by more than 9.9e3 (exporters write -1e4, -1e9, the
/// float minimum or -inf).
constexpr double kHiddenKey = -1.0e4;

/// `v` without the unsqueezes and reshapes that only add or drop dims of 1 (a mask's broadcast
/// to [1, 1, S, T]).
Value stripUnitDims(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (!isa<UnsqueezeOp, ReshapeOp, SqueezeOp>(def))
      break;
    Value in = def->getOperand(0);
    auto nonUnit = [](Value x) {
      SmallVector<AffineExpr> dims = symbolicDimsOf(x);
      llvm::erase_if(dims, [](AffineExpr d) {
        auto c = dyn_cast<AffineConstantExpr>(d);
        return c && c.getValue() == 1;
      });
      return dims;
    };
    if (!hasKnownDims(in) || nonUnit(in) != nonUnit(v))
      break;
    v = in;
  }
  return v;
}

/// Positions 0, 1, ..., n - 1 along one axis of a mask: an ms.range from 0 by 1 (a symbolic
/// length) or a constant of those values, with dims of 1 around it. `fromEnd` is the axis
/// counted from the last (1: the keys of [S, T], 2: the queries), `length` its size.
struct Positions {
  int64_t fromEnd;
  AffineExpr length;
};
std::optional<Positions> positionsOf(Value v) {
  if (!hasKnownDims(v))
    return std::nullopt;
  SmallVector<AffineExpr> dims = symbolicDimsOf(v);
  std::optional<int64_t> axis;
  for (auto [i, d] : llvm::enumerate(dims)) {
    auto c = dyn_cast<AffineConstantExpr>(d);
    if (c && c.getValue() == 1)
      continue;
    if (axis)
      return std::nullopt;
    axis = i;
  }
  if (!axis)
    return std::nullopt;
  Value src = stripUnitDims(v);
  if (auto range = src.getDefiningOp<RangeOp>()) {
    auto start = dyn_cast<AffineConstantExpr>(range.getStartExpr());
    if (!start || start.getValue() != 0 || range.getDelta() != 1)
      return std::nullopt;
  } else if (auto cst = src.getDefiningOp<ConstantOp>()) {
    auto dense = dyn_cast<DenseIntElementsAttr>(cst.getValue());
    if (!dense)
      return std::nullopt;
    int64_t i = 0;
    for (const APInt &x : dense.getValues<APInt>())
      if (x.getSExtValue() != i++)
        return std::nullopt;
  } else {
    return std::nullopt;
  }
  return Positions{(int64_t)dims.size() - *axis, dims[*axis]};
}

/// Whether boolean `cond` (broadcast to scores [..., S, T], S and T the expressions `s` and `t`)
/// is true exactly at the keys a causal attention hides (`hiddenWhenTrue`: key j > query i) or
/// exactly at those it shows (j <= i), with S = T: the masked_fill of a decoder, as a comparison
/// of the key and query positions (`arange(T)[None, :] > arange(S)[:, None]`, symbolic lengths)
/// or, shapes known, a constant.
bool isCausalCondition(Value cond, bool hiddenWhenTrue, AffineExpr s, AffineExpr t) {
  if (s != t || !hasKnownDims(cond))
    return false;
  SmallVector<AffineExpr> dims = symbolicDimsOf(cond);
  size_t r = dims.size();
  AffineExpr one = getAffineConstantExpr(1, cond.getContext());
  if (r < 2 || dims[r - 2] != s || dims[r - 1] != t ||
      llvm::any_of(ArrayRef(dims).drop_back(2), [&](AffineExpr d) { return d != one; }))
    return false;
  Value src = stripUnitDims(cond);
  if (auto cmp = src.getDefiningOp<CompareOp>()) {
    std::optional<Positions> l = positionsOf(cmp.getLhs()), rr = positionsOf(cmp.getRhs());
    if (!l || !rr || l->length != s || rr->length != s)
      return false;
    // Hidden: key > query (key on the left) or query < key; shown: key <= query or query >= key.
    bool keyLeft = l->fromEnd == 1 && rr->fromEnd == 2;
    if (!keyLeft && !(l->fromEnd == 2 && rr->fromEnd == 1))
      return false;
    ComparePredicate want = hiddenWhenTrue
                                ? (keyLeft ? ComparePredicate::gt : ComparePredicate::lt)
                                : (keyLeft ? ComparePredicate::le : ComparePredicate::ge);
    return cmp.getPredicate() == want;
  }
  auto cst = src.getDefiningOp<ConstantOp>();
  auto sc = dyn_cast<AffineConstantExpr>(s);
  auto dense = cst ? dyn_cast<DenseElementsAttr>(cst.getValue()) : DenseElementsAttr();
  if (!sc || !dense || !dense.getElementType().isInteger(1))
    return false;
  const int64_t n = sc.getValue();
  if (dense.getNumElements() != n * n)
    return false;
  int64_t index = 0;
  for (bool x : dense.getValues<bool>()) {
    int64_t i = index / n, j = index % n;
    ++index;
    if (x != ((j > i) == hiddenWhenTrue))
      return false;
  }
  return true;
}

/// The scores of a causal masked_fill, `where(cond, fill, x)` (or `where(cond, x, fill)`) of
/// scores [..., S, T], with `fill` at or below kHiddenKey once multiplied by `scale` (a scale
/// applied after it) and `cond` a causal condition: `x` (and `cond` in `condition`), else null.
Value unmaskCausalScores(Value scores, double scale, Value &condition) {
  auto where = singleUseDef<WhereOp>(scores);
  if (!where || !hasKnownDims(scores))
    return Value();
  SmallVector<AffineExpr> dims = symbolicDimsOf(scores);
  if (dims.size() < 2)
    return Value();
  AffineExpr s = dims[dims.size() - 2], t = dims.back();
  for (bool hiddenWhenTrue : {true, false}) {
    Value fill = hiddenWhenTrue ? where.getOnTrue() : where.getOnFalse();
    Value x = hiddenWhenTrue ? where.getOnFalse() : where.getOnTrue();
    std::optional<double> f = getSplatValue(fill);
    if (f && *f * scale <= kHiddenKey && x.getType() == where.getType() &&
        isCausalCondition(where.getCondition(), hiddenWhenTrue, s, t)) {
      condition = where.getCondition();
      return x;
    }
  }
  return Value();
}

/// softmax(Q·Kᵀ · c [+ mask]) · V -> ms.attention(Q, K, V [, mask]) {scale = c}; with the hidden
/// keys of a causal mask filled in (where(j > i, -inf, ...), symbolic lengths or constant),
/// {causal}.
struct RecognizeAttention : OpRewritePattern<MatMulOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(MatMulOp output, PatternRewriter &rewriter) const override {
    auto softmax = singleUseDef<SoftmaxOp>(output.getLhs());
    Value v = output.getRhs();
    if (!softmax)
      return failure();
    int64_t rank = softmax.getType().getRank();
    // I64Attr's accessor is unsigned: read the axis back as the signed value it holds.
    int64_t axis = static_cast<int64_t>(softmax.getAxis());
    if (rank < 2 || tensorTypeOf(v).getRank() != rank || !(axis == -1 || axis == rank - 1))
      return failure();
    Value scores = softmax.getInput();
    Value mask;
    if (auto add = singleUseDef<AddOp>(scores); add && add.getType() == add.getLhs().getType()) {
      scores = add.getLhs();
      mask = add.getRhs();
    }
    // A decoder's masked_fill of the hidden keys, outside the scale or inside it (below).
    bool causal = false;
    Value condition;
    if (Value unmasked = unmaskCausalScores(scores, 1.0, condition)) {
      scores = unmasked;
      causal = true;
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
    if (!causal)
      if (Value unmasked = unmaskCausalScores(scores, scale, condition)) {
        scores = unmasked;
        causal = true;
      }
    auto product = singleUseDef<MatMulOp>(scores);
    if (!product)
      return failure();
    Value q = product.getLhs(), kT = product.getRhs();
    auto qt = tensorTypeOf(q), kt = tensorTypeOf(kT), vt = tensorTypeOf(v);
    if (qt.getRank() != rank || kt.getRank() != rank || !sameSymbolicDims(q, kT, v, mask) ||
        !isKeyValueBatch(qt.getShape().drop_back(2), kt.getShape().drop_back(2)) ||
        kt.getShape().drop_back(2) != vt.getShape().drop_back(2) || !qt.getElementType().isF32() ||
        kt.getElementType() != qt.getElementType() || vt.getElementType() != qt.getElementType())
      return failure();
    if (mask && tensorTypeOf(mask).getElementType() != qt.getElementType())
      return failure();

    SmallVector<Value> stops = {q, kT, v};
    if (mask)
      stops.push_back(mask);
    if (condition) // the positions compared are the mask's, not the attention's
      stops.push_back(condition);
    Location loc = chainLoc(output, stops);
    SmallVector<int64_t> perm = llvm::to_vector(llvm::seq<int64_t>(0, rank));
    std::swap(perm[rank - 1], perm[rank - 2]);
    Value k = TransposeOp::create(rewriter, kT.getLoc(), kT, perm);
    auto attention =
        AttentionOp::create(rewriter, loc, q, k, v, mask, rewriter.getF64FloatAttr(scale),
                            /*token_major=*/nullptr, causal ? rewriter.getUnitAttr() : nullptr);
    rewriter.replaceOp(output, attention.getResult());
    return success();
  }
};

/// A key or value operand that repeats each of its Hkv heads n times as Llama's exporters write
/// it: reshape([..., Hkv * n, T, D]) of expand([..., Hkv, n, T, D]) of an [..., Hkv, 1, T, D]
/// tensor (`single`); `heads` is the [..., Hkv, T, D] shape before the repetition.
struct RepeatedHeads {
  Value single;
  SmallVector<int64_t> heads;

  /// The unrepeated [..., Hkv, T, D] tensor: usually the unsqueeze's input, else a view built.
  Value build(PatternRewriter &rewriter, Location loc) const {
    if (Operation *def = single.getDefiningOp(); def && isa<ReshapeOp, UnsqueezeOp>(def) &&
                                                tensorTypeOf(def->getOperand(0)).getShape() ==
                                                    ArrayRef<int64_t>(heads))
      return def->getOperand(0);
    return ReshapeOp::create(rewriter, loc, single, heads);
  }
};

std::optional<RepeatedHeads> matchRepeatedHeads(Value v) {
  auto reshape = v.getDefiningOp<ReshapeOp>();
  auto expand = reshape ? reshape.getInput().getDefiningOp<ExpandOp>() : ExpandOp();
  if (!expand)
    return std::nullopt;
  ArrayRef<int64_t> out = tensorTypeOf(v).getShape(), grouped = expand.getType().getShape(),
                    single = tensorTypeOf(expand.getInput()).getShape();
  int64_t r = out.size();
  if (r < 3 || (int64_t)grouped.size() != r + 1 || single.size() != grouped.size() ||
      single[r - 2] != 1 || grouped[r - 3] * grouped[r - 2] != out[r - 3] ||
      grouped.take_front(r - 2) != single.take_front(r - 2) ||
      grouped.take_front(r - 3) != out.take_front(r - 3) ||
      grouped.take_back(2) != single.take_back(2) || grouped.take_back(2) != out.take_back(2))
    return std::nullopt;
  RepeatedHeads repeated{expand.getInput(), SmallVector<int64_t>(single)};
  repeated.heads.erase(repeated.heads.begin() + (r - 2));
  return repeated;
}

/// attention(q, repeat(k), repeat(v)) -> attention(q, k, v) with fewer key/value heads: the
/// kernel maps each query head onto its key/value head, so the repeated copies cost no kernels.
struct FoldRepeatedKeyValueHeads : OpRewritePattern<AttentionOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AttentionOp op, PatternRewriter &rewriter) const override {
    if (op.getTokenMajor())
      return failure();
    std::optional<RepeatedHeads> k = matchRepeatedHeads(op.getKey());
    std::optional<RepeatedHeads> v = matchRepeatedHeads(op.getValue());
    if (!k || !v || ArrayRef(k->heads).drop_back(2) != ArrayRef(v->heads).drop_back(2))
      return failure();
    // The repetition's nodes join the kernel's location.
    Location loc = rewriter.getFusedLoc(
        {op.getKey().getDefiningOp()->getOperand(0).getLoc(), op.getKey().getLoc(),
         op.getValue().getDefiningOp()->getOperand(0).getLoc(), op.getValue().getLoc(),
         op.getLoc()});
    Value key = k->build(rewriter, op.getKey().getLoc());
    Value value = v->build(rewriter, op.getValue().getLoc());
    auto folded = AttentionOp::create(rewriter, loc, op.getQuery(), key, value, op.getMask(),
                                      op.getScaleAttr(), op.getTokenMajorAttr(),
                                      op.getCausalAttr());
    rewriter.replaceOp(op, folded.getResult());
    return success();
  }
};

/// Whether `v` is a transpose swapping the dims -3 and -2 ([..., S, H, D] <-> [..., H, S, D], the
/// exporters' head split and merge); its input then.
Value headSwapInput(Value v) {
  auto t = v.getDefiningOp<TransposeOp>();
  if (!t)
    return {};
  ArrayRef<int64_t> perms = t.getPerms();
  int64_t r = perms.size();
  if (r < 3 || perms[r - 3] != r - 2 || perms[r - 2] != r - 3 || perms[r - 1] != r - 1)
    return {};
  for (int64_t i = 0; i < r - 3; ++i)
    if (perms[i] != i)
      return {};
  return t.getInput();
}

/// transpose_merge(attention(transpose_split(q), transpose_split(k), transpose_split(v))) ->
/// attention {token_major} (q, k, v): the kernel reads the heads in place with row strides and
/// writes the merged layout, so the four transposes cost no kernels.
struct FoldHeadTransposesIntoAttention : OpRewritePattern<AttentionOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AttentionOp op, PatternRewriter &rewriter) const override {
    if (op.getTokenMajor() || !op.getResult().hasOneUse())
      return failure();
    Value q = headSwapInput(op.getQuery()), k = headSwapInput(op.getKey()),
          v = headSwapInput(op.getValue());
    auto merge = dyn_cast<TransposeOp>(*op.getResult().getUsers().begin());
    if (!q || !k || !v || !merge || headSwapInput(merge.getResult()) != op.getResult())
      return failure();
    // The kernel computes the transposes too: their nodes join its location, in graph order.
    Location loc = rewriter.getFusedLoc({op.getQuery().getLoc(), op.getKey().getLoc(),
                                         op.getValue().getLoc(), op.getLoc(), merge.getLoc()});
    // Its inferred [.., S, H, Dv] result is the merge's type by construction.
    auto folded = AttentionOp::create(rewriter, loc, q, k, v, op.getMask(), op.getScaleAttr(),
                                      rewriter.getUnitAttr(), op.getCausalAttr());
    rewriter.replaceOp(merge, folded.getResult());
    rewriter.eraseOp(op);
    return success();
  }
};

/// Whether constant `mask` (broadcast to scores [..., S, T]) is a causal mask: 0 on and below the
/// diagonal j = i + (T - S), hidden above it, the same for every batch index.
bool isCausalMask(Value mask, int64_t s, int64_t t) {
  if (!mask || t < s)
    return false;
  ArrayRef<int64_t> shape = tensorTypeOf(mask).getShape();
  int64_t r = shape.size();
  if (r < 2 || shape[r - 2] != s || shape[r - 1] != t ||
      llvm::any_of(shape.drop_back(2), [](int64_t d) { return d != 1; }))
    return false;
  std::optional<SmallVector<float>> values = readF32Constant(mask);
  if (!values)
    return false;
  int64_t index = 0;
  for (float m : *values) {
    int64_t i = index / t, j = index % t;
    ++index;
    if (j <= i + (t - s) ? m != 0.0f : !(m <= kHiddenKey))
      return false;
  }
  return true;
}

/// Whether additive `mask` is a causal bias built from a causal condition (unmaskCausalScores),
/// `where(cond, 0, fill)` or `where(cond, fill, 0)` with `fill` at or below kHiddenKey: a
/// decoder's mask computed from the length (`arange(T)[None, :] <= arange(S)[:, None]`).
bool isCausalBias(Value mask, AffineExpr s, AffineExpr t) {
  auto where = stripUnitDims(mask).getDefiningOp<WhereOp>();
  if (!where)
    return false;
  for (bool hiddenWhenTrue : {true, false}) {
    std::optional<double> fill =
        getSplatValue(hiddenWhenTrue ? where.getOnTrue() : where.getOnFalse());
    std::optional<double> zero =
        getSplatValue(hiddenWhenTrue ? where.getOnFalse() : where.getOnTrue());
    if (fill && zero && *fill <= kHiddenKey && *zero == 0.0 &&
        isCausalCondition(where.getCondition(), hiddenWhenTrue, s, t))
      return true;
  }
  return false;
}

/// attention(q, k, v, causal mask) -> attention {causal} (q, k, v), the mask a constant or a
/// causal bias: the kernel skips the hidden keys (about half of a decoder's scores) instead of
/// adding the mask to them.
struct FoldCausalMaskIntoAttention : OpRewritePattern<AttentionOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AttentionOp op, PatternRewriter &rewriter) const override {
    if (op.getCausal() || !op.getMask())
      return failure();
    SmallVector<int64_t> q(tensorTypeOf(op.getQuery()).getShape()),
        k(tensorTypeOf(op.getKey()).getShape());
    int64_t r = q.size();
    // The sequence dims: -2 in the logical order, -3 in token-major buffers.
    int64_t seqDim = op.getTokenMajor() ? r - 3 : r - 2;
    if (!isCausalMask(op.getMask(), q[seqDim], k[seqDim]) &&
        !(hasKnownDims(op.getQuery()) && hasKnownDims(op.getKey()) &&
          isCausalBias(op.getMask(), symbolicDimsOf(op.getQuery())[seqDim],
                       symbolicDimsOf(op.getKey())[seqDim])))
      return failure();
    auto folded = AttentionOp::create(rewriter, op.getLoc(), op.getQuery(), op.getKey(),
                                      op.getValue(), Value(), op.getScaleAttr(),
                                      op.getTokenMajorAttr(), rewriter.getUnitAttr());
    rewriter.replaceOp(op, folded.getResult());
    return success();
  }
};

} // namespace

void ms::populateAttentionPatterns(RewritePatternSet &patterns) {
  patterns.add<RecognizeAttention, FoldRepeatedKeyValueHeads, FoldHeadTransposesIntoAttention,
               FoldCausalMaskIntoAttention>(patterns.getContext());
}
