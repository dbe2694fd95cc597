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
  // ms.onnx_attention's verifier checks the rest, on the heads split here.
  if ((rank != 3 && rank != 4) || kType.getRank() != rank || vType.getRank() != rank)
    return n.error() << "expects Q, K and V all 3-D or all 4-D, got " << qType << ", " << kType
                     << " and " << vType;
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
  int64_t headSize = typeOf(q).getDimSize(3);
  int64_t past = 0;
  if (n.hasInput(kPastKey)) {
    RankedTensorType pkType = n.inputType(kPastKey), pvType = n.inputType(kPastValue);
    if (pkType.getRank() != 4 || pvType.getRank() != 4)
      return n.error() << "past_key " << pkType << " and past_value " << pvType << " must be 4-D";
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
  // rotary_embedding_dim 0 is the head size; ms.rotary_embedding's verifier checks the shapes.
  RankedTensorType xType = n.inputType(0);
  int64_t rank = xType.getRank();
  if (rotaryDim == 0 && rank == 4)
    rotaryDim = xType.getDimSize(3);
  else if (rotaryDim == 0 && rank == 3 && numHeads >= 1)
    rotaryDim = xType.getDimSize(2) / numHeads;
  bool positions = n.hasInput(3);

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
