//===- DecomposeSequencePatterns.cpp - onnx_attention, rotary_embedding, tfidf ===//
//
//   onnx_attention:   ONNX's function body: the mask, causal and padding parts summed into one
//                     additive bias, grouped-query heads repeated, then Q Kᵀ (Q and K each
//                     scaled by sqrt(scale), as the reference does), softcap, softmax and the
//                     product with V: the chain exporters emit, which the attention fold takes.
//   rotary_embedding: ONNX's function body: the input as [B, S, heads, size], its first
//                     rotary_embedding_dim features split into halves (or even / odd
//                     neighbours), rotated by the caches (gathered at position_ids when given)
//                     and joined back.
//   tfidf:            for each n-gram length n and skip distance d, the n token columns
//                     x[:, i + j * d] of every start i are compared with the pool's j-th tokens
//                     of all n-grams of length n, the matches multiplied over j and summed over
//                     i; one constant one-hot matrix per length maps n-grams to their output
//                     columns (ngram_indexes), then the TF / IDF / TFIDF weighting.
//
//===----------------------------------------------------------------------===//

#include "dialects/ms/Transforms/DecomposeBuilder.h"
#include "dialects/ms/Transforms/Patterns.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::ms;

namespace {

struct DecomposeOnnxAttention : OpRewritePattern<OnnxAttentionOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(OnnxAttentionOp op, PatternRewriter &rewriter) const override {
    Value q = op.getQuery(), k = op.getKey(), v = op.getValue();
    RankedTensorType qType = op.getQuery().getType();
    Type et = qType.getElementType(), i64 = rewriter.getI64Type();
    int64_t batch = qType.getDimSize(0), qHeads = qType.getDimSize(1), seq = qType.getDimSize(2);
    int64_t kvHeads = op.getKey().getType().getDimSize(1);
    int64_t total = op.getKey().getType().getDimSize(2), past = op.getPastLength();
    int64_t qkMode = op.getQkMatmulOutputMode();
    double softcap = op.getSoftcap().convertToDouble();
    OpChain o(rewriter, op.getLoc());

    // The additive bias: mask, causal and padding parts, each broadcast against [B, H, S, T].
    double negInf = -std::numeric_limits<double>::infinity();
    Value bias;
    auto addBias = [&](Value part) { bias = bias ? o.add(bias, part) : part; };
    if (Value mask = op.getAttnMask()) {
      RankedTensorType mType = cast<RankedTensorType>(mask.getType());
      if (mType.getElementType().isInteger(1))
        mask = o.where(mask, o.scalar(et, 0.0), o.scalar(et, negInf));
      int64_t short_ = total - mType.getShape().back();
      if (short_ > 0) {
        SmallVector<int64_t> pads(2 * mType.getRank(), 0);
        pads.back() = short_;
        mask = o.op<PadOp>(mask, pads, PadMode::constant, APFloat(negInf));
      }
      addBias(mask);
    }
    if (op.getIsCausal()) {
      // Query row i sees the keys j <= i + past (upper-left alignment of the new keys).
      SmallVector<double> values;
      for (int64_t i = 0; i < seq; ++i)
        for (int64_t j = 0; j < total; ++j)
          values.push_back(j > i + past ? negInf : 0.0);
      addBias(o.floats({seq, total}, et, values));
    }
    if (Value lens = op.getNonpadKvSeqlen()) {
      Value positions = o.ints({1, total}, i64, llvm::to_vector(llvm::seq<int64_t>(0, total)));
      Value kept = o.compare(ComparePredicate::lt, positions, o.reshape(lens, {batch, 1}));
      addBias(o.reshape(o.where(kept, o.scalar(et, 0.0), o.scalar(et, negInf)),
                        {batch, 1, 1, total}));
    }

    // Grouped-query attention: each K/V head serves qHeads / kvHeads query heads in a row.
    if (qHeads != kvHeads) {
      int64_t reps = qHeads / kvHeads;
      auto repeat = [&](Value x) {
        ArrayRef<int64_t> s = tensorTypeOf(x).getShape();
        Value lifted = o.reshape(x, {s[0], s[1], 1, s[2], s[3]});
        Value expanded = o.expand(lifted, {s[0], s[1], reps, s[2], s[3]});
        return o.reshape(expanded, {s[0], qHeads, s[2], s[3]});
      };
      k = repeat(k);
      v = repeat(v);
    }

    Value rootScale = o.scalar(et, std::sqrt(op.getScale().convertToDouble()));
    Value scores = o.op<MatMulOp>(o.mul(q, rootScale),
                                  o.transpose(o.mul(k, rootScale), {0, 1, 3, 2}), TypeAttr());
    Value qkOutput = scores;
    Value logits = bias ? o.add(scores, bias) : scores;
    if (qkMode == 1)
      qkOutput = logits;
    if (softcap > 0.0) {
      Value cap = o.scalar(et, softcap);
      logits = o.mul(o.op<TanhOp>(o.div(logits, cap)), cap);
      if (qkMode == 2)
        qkOutput = logits;
    }
    Value probs = o.op<SoftmaxOp>(o.cast(logits, op.getSoftmaxType()), uint64_t(-1));
    if (qkMode == 3)
      qkOutput = probs;
    Value y = o.op<MatMulOp>(o.cast(probs, et), v, TypeAttr());
    rewriter.replaceOp(op, ValueRange{y, qkOutput});
    return success();
  }
};

struct DecomposeRotaryEmbedding : OpRewritePattern<RotaryEmbeddingOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(RotaryEmbeddingOp op, PatternRewriter &rewriter) const override {
    RankedTensorType xType = op.getInput().getType();
    Type et = xType.getElementType();
    int64_t rank = xType.getRank(), numHeads = op.getNumHeads();
    int64_t batch = xType.getDimSize(0);
    int64_t seq = rank == 4 ? xType.getDimSize(2) : xType.getDimSize(1);
    int64_t heads = rank == 4 ? xType.getDimSize(1) : numHeads;
    int64_t size = rank == 4 ? xType.getDimSize(3) : xType.getDimSize(2) / numHeads;
    int64_t rotaryDim = op.getRotaryEmbeddingDim(), half = rotaryDim / 2;
    bool interleaved = op.getInterleaved();
    Value positions = op.getPositionIds();
    OpChain o(rewriter, op.getLoc());
    Value x = op.getInput();
    x = rank == 4 ? o.transpose(x, {0, 2, 1, 3}) : o.reshape(x, {batch, seq, heads, size});
    auto cache = [&](Value c) {
      c = o.cast(c, et);
      if (positions)
        c = o.op<GatherOp>(c, o.cast(positions, rewriter.getI64Type()), uint64_t(0));
      return o.reshape(c, {batch, seq, 1, half});
    };
    Value cos = cache(op.getCosCache()), sin = cache(op.getSinCache());
    auto part = [&](int64_t start, int64_t count, int64_t step) {
      return o.slice(x, {0, 0, 0, start}, {batch, seq, heads, count}, {1, 1, 1, step});
    };
    Value x1 = interleaved ? part(0, half, 2) : part(0, half, 1);
    Value x2 = interleaved ? part(1, half, 2) : part(half, half, 1);
    Value re = o.sub(o.mul(cos, x1), o.mul(sin, x2));
    Value im = o.add(o.mul(sin, x1), o.mul(cos, x2));
    Value rotated;
    if (interleaved) {
      SmallVector<int64_t> pairShape = {batch, seq, heads, half, 1};
      rotated = o.reshape(
          o.op<ConcatOp>(ValueRange{o.reshape(re, pairShape), o.reshape(im, pairShape)},
                         uint64_t(4)),
          {batch, seq, heads, rotaryDim});
    } else {
      rotated = o.op<ConcatOp>(ValueRange{re, im}, uint64_t(3));
    }
    Value y = rotated;
    if (rotaryDim < size)
      y = o.op<ConcatOp>(ValueRange{rotated, part(rotaryDim, size - rotaryDim, 1)}, uint64_t(3));
    y = rank == 4 ? o.transpose(y, {0, 2, 1, 3}) : o.reshape(y, xType.getShape());
    rewriter.replaceOp(op, y);
    return success();
  }
};

struct DecomposeTfIdf : OpRewritePattern<TfIdfOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(TfIdfOp op, PatternRewriter &rewriter) const override {
    RankedTensorType xType = op.getInput().getType();
    auto intType = cast<IntegerType>(xType.getElementType());
    int64_t rows = xType.getDimSize(0), width = xType.getDimSize(1);
    int64_t outSize = op.getType().getDimSize(1), maxSkip = op.getMaxSkipCount();
    ArrayRef<int64_t> pool = op.getPoolInt64s(), indexes = op.getNgramIndexes();
    ArrayRef<double> weights = op.getWeights();
    SmallVector<std::pair<int64_t, int64_t>> ranges;
    if (failed(TfIdfOp::ngramRanges(op.getNgramCounts(), pool.size(), ranges)))
      return rewriter.notifyMatchFailure(op, "ngram_counts do not split the pool");
    Type f32 = rewriter.getF32Type();
    OpChain o(rewriter, op.getLoc());
    Value x = op.getInput();
    // counts [rows, outSize] = sum over lengths of their counts [rows, G] x one-hot [G, outSize].
    Value total;
    int64_t firstIndex = 0; // global index of the length's first n-gram
    for (auto [i, range] : llvm::enumerate(ranges)) {
      const int64_t len = i + 1, grams = (range.second - range.first) / len;
      ArrayRef<int64_t> tokensOfLength = pool.slice(range.first, range.second - range.first);
      int64_t groupFirst = firstIndex;
      firstIndex += grams;
      if (len < static_cast<int64_t>(op.getMinGramLength()) ||
          len > static_cast<int64_t>(op.getMaxGramLength()) || grams == 0)
        continue;
      Value groupCounts;
      int64_t maxDistance = len == 1 ? 1 : maxSkip + 1;
      for (int64_t d = 1; d <= maxDistance; ++d) {
        int64_t starts = width - (len - 1) * d;
        if (starts <= 0)
          break;
        Value match;
        for (int64_t j = 0; j < len; ++j) {
          Value column =
              o.reshape(o.slice(x, {0, j * d}, {rows, starts}, {1, 1}), {rows, starts, 1});
          SmallVector<int64_t> tokens;
          for (int64_t g = 0; g < grams; ++g)
            tokens.push_back(tokensOfLength[g * len + j]);
          Value pooled = o.ints({1, 1, grams}, intType, tokens);
          Value hit = o.cast(o.compare(ComparePredicate::eq, column, pooled), f32);
          match = match ? o.mul(match, hit) : hit;
        }
        Value perDistance = o.reduce<ReduceSumOp>(match, {1}, false); // [rows, grams]
        groupCounts = groupCounts ? o.add(groupCounts, perDistance) : perDistance;
      }
      if (!groupCounts)
        continue;
      SmallVector<double> oneHot(grams * outSize, 0.0);
      for (int64_t g = 0; g < grams; ++g)
        oneHot[g * outSize + indexes[groupFirst + g]] += 1.0;
      Value columns =
          o.op<MatMulOp>(groupCounts, o.floats({grams, outSize}, f32, oneHot), TypeAttr());
      total = total ? o.add(total, columns) : columns;
    }
    if (!total)
      total = o.scalar(f32, 0.0);
    Value result = o.expand(total, {rows, outSize});
    bool weighted = !weights.empty();
    Value weightRow = weighted ? o.floats({1, outSize}, f32, weights.take_front(outSize)) : Value();
    if (op.getMode() == TfIdfMode::idf) {
      Value present = o.compare(ComparePredicate::gt, result, o.scalar(f32, 0.0));
      result = o.where(present, weighted ? weightRow : o.scalar(f32, 1.0), o.scalar(f32, 0.0));
    } else if (op.getMode() == TfIdfMode::tfidf && weighted) {
      result = o.mul(result, weightRow);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void mlir::ms::populateDecomposeSequencePatterns(RewritePatternSet &patterns) {
  patterns.add<DecomposeOnnxAttention, DecomposeRotaryEmbedding, DecomposeTfIdf>(
      patterns.getContext());
}
