//===- OnnxCompositeAttention.cpp - ONNX Attention as ms ops --------------===//
//
// The Attention op of opsets 23/24: the 3-D inputs split into heads and the key/value cache
// concatenated here (they are outputs too), the rest one ms.onnx_attention, which ms-decompose
// writes as ONNX's own function body (dialects/ms/Transforms/DecomposeSequencePatterns.cpp): the
// mask (float, or bool turned into 0 / -inf; padded with -inf to the total length), the causal
// mask and the padding of nonpad_kv_seqlen added as one bias, grouped-query heads repeated, then
// Q Kᵀ, softcap, softmax and the product with V, the chain the ms attention fold takes over.
// RotaryEmbedding (opset 23) becomes ms.rotary_embedding, which ms-decompose expands.
//
//===----------------------------------------------------------------------===//

#include "OnnxCompositeBuilder.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::mie::onnx_import;
using namespace mlir::mie::onnx_import::composite;

namespace {

enum : unsigned {
  kQ = 0,
  kK,
  kV,
  kMask,
  kPastKey,
  kPastValue,
  kNonpadKvSeqlen,
};

/// A 3-D [B, L, heads * size] input as [B, heads, L, size].
Value splitHeads(Ops &o, Value x, int64_t heads) {
  ArrayRef<int64_t> shape = typeOf(x).getShape();
  return o.transpose(o.reshape(x, {shape[0], shape[1], heads, shape[2] / heads}), {0, 2, 1, 3});
}

LogicalResult importAttention(NodeImporter &n) {
  bool causal = n.getInt("is_causal", 0) != 0;
  std::optional<int64_t> qHeadsAttr, kvHeadsAttr;
  if (n.hasAttr("q_num_heads"))
    qHeadsAttr = n.getInt("q_num_heads", 0);
  if (n.hasAttr("kv_num_heads"))
    kvHeadsAttr = n.getInt("kv_num_heads", 0);
  int64_t qkMode = n.getInt("qk_matmul_output_mode", 0);
  double softcap = n.getFloat("softcap", 0.0);
  std::optional<double> scaleAttr;
  if (n.hasAttr("scale"))
    scaleAttr = n.getFloat("scale", 1.0);
  std::optional<int64_t> softmaxPrecision;
  if (n.hasAttr("softmax_precision"))
    softmaxPrecision = n.getInt("softmax_precision", 1);
  if (n.hasFailed())
    return failure();

  RankedTensorType qType = n.inputType(kQ), kType = n.inputType(kK), vType = n.inputType(kV);
  Type et = qType.getElementType();
  int64_t rank = qType.getRank();
  if (!isa<FloatType>(et) || (rank != 3 && rank != 4) || kType.getRank() != rank ||
      vType.getRank() != rank || kType.getElementType() != et || vType.getElementType() != et)
    return n.error() << "expects Q, K and V of one float type, all 3-D or all 4-D, got " << qType
                     << ", " << kType << " and " << vType;
  if (qkMode < 0 || qkMode > 3)
    return n.error() << "qk_matmul_output_mode " << qkMode << " must be in [0, 3]";
  if (n.hasInput(kPastKey) != n.hasInput(kPastValue))
    return n.error() << "expects past_key and past_value together";
  Type softmaxType = et;
  if (softmaxPrecision) {
    softmaxType = elementTypeFor(n.context(), *softmaxPrecision);
    if (!softmaxType || !isa<FloatType>(softmaxType))
      return n.error() << "softmax_precision " << dataTypeName(*softmaxPrecision)
                       << " must be a float type";
  }

  Ops o(n);
  Value q = o.in(kQ), k = o.in(kK), v = o.in(kV);
  int64_t batch = qType.getDimSize(0);
  if (rank == 3) {
    if (!qHeadsAttr || !kvHeadsAttr || *qHeadsAttr < 1 || *kvHeadsAttr < 1)
      return n.error() << "3-D inputs need positive q_num_heads and kv_num_heads attributes";
    if (qType.getDimSize(2) % *qHeadsAttr || kType.getDimSize(2) % *kvHeadsAttr ||
        vType.getDimSize(2) % *kvHeadsAttr)
      return n.error() << "hidden sizes " << qType.getDimSize(2) << ", " << kType.getDimSize(2)
                       << " and " << vType.getDimSize(2) << " must divide by q_num_heads "
                       << *qHeadsAttr << " and kv_num_heads " << *kvHeadsAttr;
    q = splitHeads(o, q, *qHeadsAttr);
    k = splitHeads(o, k, *kvHeadsAttr);
    v = splitHeads(o, v, *kvHeadsAttr);
  }
  if (o.failed())
    return failure();
  // From here Q is [B, Hq, S, D], K [B, Hkv, L, D], V [B, Hkv, L, Dv].
  ArrayRef<int64_t> qShape = typeOf(q).getShape(), kShape = typeOf(k).getShape(),
                    vShape = typeOf(v).getShape();
  int64_t qHeads = qShape[1], kvHeads = kShape[1], seq = qShape[2], headSize = qShape[3];
  if (kShape[0] != batch || vShape[0] != batch || vShape[1] != kvHeads || kShape[3] != headSize ||
      vShape[2] != kShape[2] || kvHeads < 1 || qHeads % kvHeads != 0)
    return n.error() << "Q " << typeOf(q) << ", K " << typeOf(k) << " and V " << typeOf(v)
                     << " (as [batch, heads, sequence, head size]) do not match: equal batch, "
                        "K and V heads dividing Q's, equal K/V lengths and Q/K head sizes";

  int64_t past = 0;
  if (n.hasInput(kPastKey)) {
    RankedTensorType pkType = n.inputType(kPastKey), pvType = n.inputType(kPastValue);
    if (pkType.getRank() != 4 || pvType.getRank() != 4 ||
        pkType.getDimSize(2) != pvType.getDimSize(2))
      return n.error() << "past_key " << pkType << " and past_value " << pvType
                       << " must be 4-D with one past length";
    past = pkType.getDimSize(2);
    k = o.op<ms::ConcatOp>(ValueRange{o.in(kPastKey), k}, uint64_t(2));
    v = o.op<ms::ConcatOp>(ValueRange{o.in(kPastValue), v}, uint64_t(2));
  }
  if (o.failed())
    return failure();
  if (n.hasOutput(1))
    n.setOutput(1, k);
  if (n.hasOutput(2))
    n.setOutput(2, v);
  int64_t total = typeOf(k).getDimSize(2);

  if (n.hasInput(kMask)) {
    RankedTensorType mType = n.inputType(kMask);
    Type mt = mType.getElementType();
    if (mType.getRank() < 1 || mType.getRank() > 4 || mType.getShape().back() > total ||
        (!mt.isInteger(1) && mt != et))
      return n.error() << "attn_mask " << mType << " must be bool or " << et
                       << ", of rank 1 to 4, with a last dim of at most " << total;
  }
  // The expansion builds the causal mask as a constant.
  if (causal && seq * total > kMaxKnownElements)
    return n.error() << "a causal mask of " << seq << "x" << total
                     << " is too large to build at compile time";
  if (n.hasInput(kNonpadKvSeqlen)) {
    RankedTensorType lType = n.inputType(kNonpadKvSeqlen);
    if (lType.getRank() != 1 || lType.getDimSize(0) != batch ||
        !lType.getElementType().isSignlessInteger(64))
      return n.error() << "nonpad_kv_seqlen " << lType << " must be int64 [" << batch << "]";
  }
  Value mask = n.hasInput(kMask) ? o.in(kMask) : Value();
  Value lens = n.hasInput(kNonpadKvSeqlen) ? o.in(kNonpadKvSeqlen) : Value();
  if (o.failed())
    return failure();
  double scale = scaleAttr ? *scaleAttr : 1.0 / std::sqrt(static_cast<double>(headSize));
  FailureOr<Operation *> attention = n.createVariadicOp<ms::OnnxAttentionOp>(
      q, k, v, mask, lens, causal, static_cast<uint64_t>(past), APFloat(scale), APFloat(softcap),
      static_cast<uint64_t>(qkMode), softmaxType);
  if (failed(attention))
    return failure();
  Value y = (*attention)->getResult(0), qkOutput = (*attention)->getResult(1);
  if (rank == 3) {
    ArrayRef<int64_t> s = typeOf(y).getShape();
    y = o.reshape(o.transpose(y, {0, 2, 1, 3}), {s[0], s[2], s[1] * s[3]});
  }
  if (failed(finish(n, o, y)))
    return failure();
  if (n.hasOutput(3))
    n.setOutput(3, o.cast(qkOutput, et));
  return o.failed() ? failure() : success();
}

/// RotaryEmbedding (opset 23) as ms.rotary_embedding (ms-decompose writes ONNX's function body:
/// DecomposeSequencePatterns.cpp): the input [B, heads, S, size] or [B, S, heads * size] with
/// num_heads, its first rotary_embedding_dim features rotated in pairs (halves, or neighbours
/// when interleaved) by the cos / sin caches (gathered by position_ids when given, else
/// [B, S, dim / 2]).
LogicalResult importRotaryEmbedding(NodeImporter &n) {
  bool interleaved = n.getInt("interleaved", 0) != 0;
  int64_t rotaryDim = n.getInt("rotary_embedding_dim", 0);
  int64_t numHeads = n.getInt("num_heads", 0);
  if (n.hasFailed())
    return failure();
  RankedTensorType xType = n.inputType(0);
  Type et = xType.getElementType();
  int64_t rank = xType.getRank();
  if (!isa<FloatType>(et) || (rank != 3 && rank != 4))
    return n.error() << "expects a float input [B, heads, S, size] or [B, S, hidden], got "
                     << xType;
  if (rank == 3 && (numHeads < 1 || xType.getDimSize(2) % numHeads != 0))
    return n.error() << "a 3-D input needs num_heads dividing its hidden size, got " << numHeads
                     << " for " << xType;
  int64_t batch = xType.getDimSize(0);
  int64_t seq = rank == 4 ? xType.getDimSize(2) : xType.getDimSize(1);
  int64_t size = rank == 4 ? xType.getDimSize(3) : xType.getDimSize(2) / numHeads;
  if (rotaryDim == 0)
    rotaryDim = size;
  if (rotaryDim < 2 || rotaryDim > size || rotaryDim % 2 != 0)
    return n.error() << "rotary_embedding_dim " << rotaryDim
                     << " must be even and at most the head size " << size;
  int64_t half = rotaryDim / 2;
  bool positions = n.hasInput(3);
  SmallVector<int64_t> cacheShape = {batch, seq, half};
  for (unsigned i : {1u, 2u}) {
    RankedTensorType cType = n.inputType(i);
    bool ok = positions ? cType.getRank() == 2 && cType.getDimSize(1) == half
                        : cType.getShape() == ArrayRef<int64_t>(cacheShape);
    if (!ok)
      return n.error() << "expects " << (i == 1 ? "cos_cache" : "sin_cache") << " of shape "
                       << (positions ? "[max_position, " + std::to_string(half) + "]"
                                     : listToString(cacheShape))
                       << ", got " << cType;
  }
  if (positions && n.inputType(3).getShape() != ArrayRef<int64_t>({batch, seq}))
    return n.error() << "expects position_ids [" << batch << ", " << seq << "], got "
                     << n.inputType(3);

  // The inputs in the order the expansion first reads them (initializers are materialized on
  // first use, and their order is the weights' layout).
  Ops o(n);
  Value x = o.in(0), cos = o.in(1), positionIds = positions ? o.in(3) : Value(), sin = o.in(2);
  return finish(n, o,
                o.op<ms::RotaryEmbeddingOp>(x, cos, sin, positionIds, rotaryDim,
                                            rank == 3 ? numHeads : 0, interleaved));
}

} // namespace

void mlir::mie::onnx_import::composite::registerCompositeAttentionOps(OnnxOpTable &table) {
  table["Attention"] = {importAttention, 3, 7, 23};
  table["RotaryEmbedding"] = {importRotaryEmbedding, 3, 4, 23};
}
