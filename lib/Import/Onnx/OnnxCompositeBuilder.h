//===- OnnxCompositeBuilder.h - building ONNX ops out of ms ops --*- C++ -*-===//
//
// Shared by OnnxCompositeOps.cpp and OnnxCompositeNNOps.cpp: `Ops`, which creates a chain of ms ops
// for one node and remembers the first failure, and small input readers.
//
//===----------------------------------------------------------------------===//

#ifndef MIE_LIB_IMPORT_ONNX_ONNXCOMPOSITEBUILDER_H
#define MIE_LIB_IMPORT_ONNX_ONNXCOMPOSITEBUILDER_H

#include "OnnxImporterInternal.h"

#include "dialects/ms/IR/MsOps.h"

#include <limits>
#include <numeric>

namespace mlir::mie::onnx_import::composite {

/// The product of `values`, saturated at INT64_MAX where it overflows: sizes from a model's
/// attributes or inputs can be anything, and a saturated product fails every size check after it
/// (isReasonableShape, the tensor limits) instead of wrapping.
inline int64_t product(ArrayRef<int64_t> values) {
  int64_t result = 1;
  for (int64_t v : values)
    if (__builtin_mul_overflow(result, v, &result))
      return std::numeric_limits<int64_t>::max();
  return result;
}

inline RankedTensorType typeOf(Value v) { return cast<RankedTensorType>(v.getType()); }

/// Builds ms ops for one node. The first failure (already reported at the node) makes every later
/// call return a null Value, so a chain of ops needs one check at its end.
class Ops {
public:
  explicit Ops(NodeImporter &n) : n(n) {}

  bool failed() const { return bad; }

  template <typename OpTy, typename... Args>
  Value op(Args &&...args) {
    if (bad)
      return Value();
    FailureOr<Value> result = n.create<OpTy>(std::forward<Args>(args)...);
    if (mlir::failed(result)) {
      bad = true;
      return Value();
    }
    return *result;
  }

  /// Input `i`, materialized.
  Value in(unsigned i) {
    if (bad)
      return Value();
    FailureOr<Value> v = n.input(i);
    if (mlir::failed(v)) {
      bad = true;
      return Value();
    }
    return *v;
  }

  Value constant(const KnownTensor &value) {
    if (bad)
      return Value();
    return ms::ConstantOp::create(n.builder(), n.loc(), value.toAttr());
  }
  /// A rank-0 constant, broadcast by the elementwise ops.
  Value scalar(Type elementType, double value) {
    return constant(KnownTensor::splatOf({}, elementType, value));
  }

  Value add(Value a, Value b) { return op<ms::AddOp>(a, b); }
  Value sub(Value a, Value b) { return op<ms::SubOp>(a, b); }
  Value mul(Value a, Value b) { return op<ms::MulOp>(a, b); }
  Value div(Value a, Value b) { return op<ms::DivOp>(a, b); }
  Value compare(ms::ComparePredicate predicate, Value a, Value b) {
    return op<ms::CompareOp>(predicate, a, b);
  }
  Value where(Value c, Value a, Value b) { return op<ms::WhereOp>(c, a, b); }

  template <typename ReduceOp>
  Value reduce(Value x, ArrayRef<int64_t> axes, bool keepDims) {
    return op<ReduceOp>(x, axes, keepDims);
  }

  Value reshape(Value x, ArrayRef<int64_t> shape) {
    if (bad || typeOf(x).getShape() == shape)
      return x;
    return op<ms::ReshapeOp>(x, shape);
  }
  Value transpose(Value x, ArrayRef<int64_t> perm) {
    if (bad)
      return Value();
    bool identity = true;
    for (auto [i, p] : llvm::enumerate(perm))
      identity &= (int64_t)i == p;
    return identity ? x : op<ms::TransposeOp>(x, perm);
  }
  Value expand(Value x, ArrayRef<int64_t> shape) {
    if (bad || typeOf(x).getShape() == shape)
      return x;
    return op<ms::ExpandOp>(x, shape);
  }
  /// Zero padding; negative amounts crop.
  Value pad(Value x, ArrayRef<int64_t> pads) {
    if (bad || llvm::all_of(pads, [](int64_t p) { return p == 0; }))
      return x;
    return op<ms::PadOp>(x, pads, ms::PadMode::constant, APFloat(0.0));
  }
  Value slice(Value x, ArrayRef<int64_t> starts, ArrayRef<int64_t> sizes, ArrayRef<int64_t> steps) {
    return op<ms::SliceOp>(x, starts, sizes, steps);
  }
  Value cast(Value x, Type elementType) {
    if (bad)
      return Value();
    RankedTensorType type = typeOf(x);
    if (type.getElementType() == elementType)
      return x;
    return ms::CastOp::create(n.builder(), n.loc(), type.clone(elementType), x);
  }

private:
  NodeImporter &n;
  bool bad = false;
};

inline LogicalResult finish(NodeImporter &n, Ops &ops, Value result) {
  if (ops.failed() || !result)
    return failure();
  n.setOutput(0, result);
  return success();
}

/// A known scalar input (one element of any numeric type), as an integer.
inline FailureOr<int64_t> knownScalar(NodeImporter &n, unsigned i, StringRef what) {
  FailureOr<const KnownTensor *> known = n.requireKnown(i, what);
  if (failed(known))
    return failure();
  if ((*known)->numElements() != 1)
    return n.error() << what << " must be a scalar, got " << (*known)->type;
  return static_cast<int64_t>((*known)->valueAt(0));
}

/// Input `i`'s one value: known, or, where it is a graph input of value symbols, `declared` (what
/// the node's declared output shape says it is: a OneHot's depth, a window's size), which the
/// runtime checks (pinValueInput).
inline FailureOr<int64_t> scalarOrDeclared(NodeImporter &n, unsigned i, StringRef what,
                                           std::optional<int64_t> declared) {
  if (declared && *declared >= 0 && n.hasTrackedRanges(i)) {
    FailureOr<bool> pinned = pinValueInput(n, i, {*declared});
    if (failed(pinned))
      return failure();
    if (*pinned)
      return *declared;
  }
  return knownScalar(n, i, what);
}

/// The contents of input `i`, which must be model data (an initializer or a Constant's value);
/// anything else gets the uniform dynamic-input report.
inline FailureOr<KnownTensor> constantInput(NodeImporter &n, unsigned i, StringRef what) {
  FailureOr<const KnownTensor *> known = n.requireKnown(i, what);
  if (failed(known))
    return failure();
  return **known;
}

/// A constant integer input (a scalar or a 1-D list).
inline FailureOr<SmallVector<int64_t>> knownInts(NodeImporter &n, unsigned i, StringRef what) {
  FailureOr<KnownTensor> known = constantInput(n, i, what);
  if (failed(known))
    return failure();
  if (known->isFloat() || known->rank() > 1)
    return n.error() << what << " input must be an integer scalar or 1-D tensor, got "
                     << known->type;
  return known->toInts();
}

inline SmallVector<int64_t> iota(int64_t from, int64_t to) {
  SmallVector<int64_t> values;
  for (int64_t i = from; i < to; ++i)
    values.push_back(i);
  return values;
}

/// A per-channel parameter [C] reshaped to [C, 1, ...] against [N, C, spatial...] of `rank`.
inline Value channelParam(Ops &o, Value param, int64_t channels, int64_t rank) {
  SmallVector<int64_t> shape(rank - 1, 1);
  shape[0] = channels;
  return o.reshape(param, shape);
}

/// How a Resize (or Upsample) interpolates.
struct ResizeParams {
  ms::Interpolation mode;
  ms::ResizeTransform coords;
  ms::NearestMode nearest;
  bool antialias = false, excludeOutside = false;
  double cubicA = -0.75;
  /// The nearest rounding of axes whose scale is below 1, where it differs (Resize-10's).
  std::optional<ms::NearestMode> nearestBelowOne;
};

/// A Resize (or Upsample) of input 0 by the scales of input `scalesInput` (one per axis of
/// `axes`), which only a run gives, to the output shape the model declares
/// (OnnxCompositeResize.cpp). False, reporting nothing, where the model declares none or the
/// taps depend on the scale's value (antialiasing, tf_crop_and_resize).
FailureOr<bool> resizeByRunTimeScales(NodeImporter &n, const ResizeParams &p,
                                      ArrayRef<int64_t> axes, unsigned scalesInput);

/// The output shape the model declares for the node, when it has `rank` dims, all known.
inline std::optional<SmallVector<int64_t>> declaredStaticShape(NodeImporter &n, int64_t rank) {
  std::optional<SmallVector<int64_t>> shape = n.declaredOutputShape(0);
  if (!shape || int64_t(shape->size()) != rank ||
      llvm::any_of(*shape, [](int64_t d) { return d < 0; }))
    return std::nullopt;
  return shape;
}

/// The start of a run-time check's message: "<OpType> node '<name>'".
inline std::string checkedNode(NodeImporter &n) {
  return (n.opType() + " node '" + n.name() + "'").str();
}

/// Registers the handlers of OnnxCompositeNNOps.cpp (Upsample, LRN, ConvTranspose, Einsum).
void registerCompositeNNOps(OnnxOpTable &table);
/// Registers the handlers of OnnxCompositeLossOps.cpp (NegativeLogLikelihoodLoss,
/// SoftmaxCrossEntropyLoss).
void registerCompositeLossOps(OnnxOpTable &table);
/// Registers the handlers of OnnxCompositeAttention.cpp (Attention, opsets 23/24;
/// RotaryEmbedding).
void registerCompositeAttentionOps(OnnxOpTable &table);
/// Registers the handlers of OnnxCompositeGridSample.cpp (GridSample, RoiAlign, DeformConv).
void registerCompositeSamplingOps(OnnxOpTable &table);
/// Registers the handlers of OnnxCompositeIndexingOps.cpp (ReverseSequence, TensorScatter,
/// MaxUnpool).
void registerCompositeIndexingOps(OnnxOpTable &table);
/// Registers the handlers of OnnxCompositeSignalOps.cpp (DFT, STFT, HannWindow, HammingWindow,
/// BlackmanWindow, MelWeightMatrix).
void registerCompositeSignalOps(OnnxOpTable &table);
/// Registers the handler of OnnxCompositeResize.cpp (Resize).
void registerCompositeResizeOps(OnnxOpTable &table);
/// Registers the handler of OnnxCompositeTextOps.cpp (TfIdfVectorizer).
void registerCompositeTextOps(OnnxOpTable &table);
/// Registers the handlers of OnnxCompositeRandomOps.cpp (RandomUniform, RandomNormal and their
/// *Like forms, Bernoulli, Multinomial).
void registerCompositeRandomOps(OnnxOpTable &table);

} // namespace mlir::mie::onnx_import::composite

#endif // MIE_LIB_IMPORT_ONNX_ONNXCOMPOSITEBUILDER_H
