//===- OnnxDeclaredShapeOps.cpp - run-time parameters, declared output shapes -===//
//
// Slice, Pad and Range whose parameters only a run gives (graph inputs, or values computed from
// them, that are neither model data nor sizes of the symbolic dims) and whose output shape the
// model declares (a graph output, a value_info entry). `ms` types are static, so the declaration
// is the output's type; the offsets, steps and values are computed at run time from the
// parameters, exactly as ONNX defines them, and an ms.check fails the run (naming the node) when
// the parameters give another shape than the declared one. Every index the code reads with is
// clamped into its dim, so a failed check never reads out of bounds.
//
// A Slice or Pad is one gather per dim with a run-time index vector (start + i * step, or the
// padded position's source), a constant Pad then masking what lies outside the input; a Range is
// start + i * delta over the declared count.
//
//===----------------------------------------------------------------------===//

#include "OnnxCompositeBuilder.h"

using namespace mlir;
using namespace mlir::mie::onnx_import;
using namespace mlir::mie::onnx_import::composite;

namespace {

using ms::ComparePredicate;

/// Integer arithmetic on rank-0 and 1-D i64 tensors, over Ops.
struct IndexMath {
  Ops &o;
  Type i64;

  Value scalar(int64_t v) { return o.scalar(i64, double(v)); }
  Value cmp(ComparePredicate p, Value a, Value b) { return o.compare(p, a, b); }
  Value max(Value a, Value b) { return o.op<ms::MaxOp>(a, b); }
  Value min(Value a, Value b) { return o.op<ms::MinOp>(a, b); }
  Value clamp(Value v, int64_t lo, int64_t hi) { return min(max(v, scalar(lo)), scalar(hi)); }
  /// v mod m with the sign of m (m > 0 here): in [0, m).
  Value mod(Value v, Value m) { return o.op<ms::ModOp>(v, m, UnitAttr()); }
  Value both(Value a, Value b) { return a && b ? Value(o.op<ms::AndOp>(a, b)) : a ? a : b; }
  /// The values 0, 1, ..., count - 1.
  Value iota(int64_t count) {
    return o.constant(KnownTensor::fromInts({count}, i64, composite::iota(0, count)));
  }
  /// Rank-0: whether `v` (an integer tensor of one element) is `expected`.
  Value equals(Value v, int64_t expected) { return cmp(ComparePredicate::eq, v, scalar(expected)); }
};

/// x gathered along every dim by the index vectors of `indices` (one per dim, null: the whole dim),
/// each passed through an ms.check of `ok` first.
Value gatherEach(Ops &o, Value x, ArrayRef<Value> indices, Value ok, StringRef message) {
  for (auto [d, idx] : llvm::enumerate(indices)) {
    if (!idx)
      continue;
    Value checked = o.op<ms::CheckOp>(idx, ok, message);
    x = o.op<ms::GatherOp>(x, checked, uint64_t(d));
  }
  return x;
}

} // namespace

/// Slice (opset 10+) with starts, ends, axes or steps given at run time and a declared output
/// shape. Per data dim d: the entry of `axes` naming d (none: the whole dim), its start, end and
/// step normalized and clamped as ONNX says, the count checked against the declared dim, and the
/// indices start + i * step.
FailureOr<bool> mlir::mie::onnx_import::importSliceByDeclaredShape(NodeImporter &n) {
  RankedTensorType xType = n.inputType(0);
  int64_t rank = xType.getRank();
  std::optional<SmallVector<int64_t>> out = declaredStaticShape(n, rank);
  RankedTensorType startsType = n.inputType(1);
  if (!out || !xType.hasStaticShape() || startsType.getRank() != 1 || startsType.isDynamicDim(0))
    return false;
  int64_t k = startsType.getDimSize(0);
  Ops o(n);
  Type i64 = n.builder().getI64Type();
  IndexMath m{o, i64};
  auto vector = [&](unsigned i, StringRef what) -> Value {
    RankedTensorType type = n.inputType(i);
    if (type.getRank() != 1 || type.getDimSize(0) != k || !isa<IntegerType>(type.getElementType()))
      return n.error() << what << " must be a 1-D integer tensor of " << k
                       << " elements as starts is, got " << type,
             Value();
    return o.cast(o.in(i), i64);
  };
  Value starts = vector(1, "starts"), ends = vector(2, "ends");
  Value axes = n.hasInput(3) ? vector(3, "axes") : m.iota(k);
  Value steps = n.hasInput(4) ? vector(4, "steps") : Value();
  if (n.hasFailed() || o.failed())
    return failure();
  // Negative axes count from the end; one naming no dim matches none (ONNX: invalid).
  axes = o.where(m.cmp(ComparePredicate::lt, axes, m.scalar(0)), o.add(axes, m.scalar(rank)), axes);
  SmallVector<Value> indices(rank);
  Value ok;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t dim = xType.getDimSize(d), count = (*out)[d];
    Value named = m.cmp(ComparePredicate::eq, axes, m.scalar(d));
    Value isNamed = m.cmp(ComparePredicate::gt,
                          o.reduce<ms::ReduceMaxOp>(o.cast(named, i64), {0}, false), m.scalar(0));
    // The entry of a vector for dim d, `otherwise` where no entry names d.
    auto pick = [&](Value v, int64_t otherwise) {
      Value entry = o.reduce<ms::ReduceSumOp>(o.where(named, v, m.scalar(0)), {0}, false);
      return o.where(isNamed, entry, m.scalar(otherwise));
    };
    Value step = steps ? pick(steps, 1) : m.scalar(1);
    Value start = pick(starts, 0), end = pick(ends, dim);
    Value stepOk = m.cmp(ComparePredicate::ne, step, m.scalar(0));
    // A step beyond the dim reads what a step of the dim reads; clamped, nothing below overflows.
    step = m.clamp(step, -std::max<int64_t>(dim, 1), std::max<int64_t>(dim, 1));
    auto fromEnd = [&](Value v) { // negative: from the end, below -dim staying below 0
      Value shifted = m.max(o.add(m.max(v, m.scalar(-dim - 1)), m.scalar(dim)), m.scalar(-1));
      return o.where(m.cmp(ComparePredicate::lt, v, m.scalar(0)), shifted, v);
    };
    start = fromEnd(start);
    end = fromEnd(end);
    Value forward = m.cmp(ComparePredicate::gt, step, m.scalar(0));
    start =
        o.where(forward, m.clamp(start, 0, dim), m.clamp(start, 0, std::max<int64_t>(dim - 1, 0)));
    end = o.where(forward, m.clamp(end, 0, dim), m.clamp(end, -1, dim - 1));
    Value span = o.where(forward, o.sub(end, start), o.sub(start, end));
    Value stride = m.max(o.where(forward, step, o.sub(m.scalar(0), step)), m.scalar(1));
    Value got = m.max(o.div(o.add(span, o.sub(stride, m.scalar(1))), stride), m.scalar(0));
    if (dim == 0)
      got = m.scalar(0);
    ok = m.both(ok, m.both(stepOk, m.equals(got, count)));
    if (count == 0 || dim == 0) {
      indices[d] = m.iota(count); // nothing is read
      continue;
    }
    indices[d] = m.clamp(o.add(start, o.mul(m.iota(count), step)), 0, dim - 1);
  }
  std::string message = checkedNode(n) +
                        ": the run's starts, ends, axes and steps do not give the "
                        "output shape " +
                        listToString(*out) + " the model declares";
  Value result = gatherEach(o, o.in(0), indices, ok, message);
  if (failed(finish(n, o, result)))
    return failure();
  return true;
}

/// Pad (opset 11+) with pads given at run time (its axes, when given, model data) and a declared
/// output shape. Per padded dim: the declared extent checked against dim + begin + end, and the
/// source of each output position (i - begin, past what negative amounts crop) mapped into the
/// kept elements as the mode says; a constant pad then puts the value where any dim's source lies
/// outside them.
FailureOr<bool> mlir::mie::onnx_import::importPadByDeclaredShape(NodeImporter &n, StringRef mode) {
  RankedTensorType xType = n.inputType(0);
  int64_t rank = xType.getRank();
  std::optional<SmallVector<int64_t>> out = declaredStaticShape(n, rank);
  if (!out || !xType.hasStaticShape() || (n.hasInput(3) && !n.constantData(3)) ||
      !llvm::is_contained({"constant", "edge", "reflect", "wrap"}, mode))
    return false;
  SmallVector<int64_t> axes = iota(0, rank);
  if (n.hasInput(3)) {
    FailureOr<SmallVector<int64_t>> given = knownInts(n, 3, "axes");
    if (failed(given))
      return failure();
    FailureOr<SmallVector<int64_t>> normalized = normalizeAxes(n, *given, rank);
    if (failed(normalized))
      return failure();
    axes = *normalized;
  }
  int64_t numAxes = axes.size();
  RankedTensorType padsType = n.inputType(1);
  if (padsType.getRank() != 1 || padsType.getDimSize(0) != 2 * numAxes ||
      !isa<IntegerType>(padsType.getElementType()))
    return n.error() << "pads must be a 1-D integer tensor of " << 2 * numAxes
                     << " elements (2 per padded axis), got " << padsType;
  Ops o(n);
  Type i64 = n.builder().getI64Type();
  IndexMath m{o, i64};
  Value pads = o.cast(o.in(1), i64);
  auto element = [&](int64_t i) { // pads[i], rank 0
    return o.op<ms::GatherOp>(pads, m.scalar(i), uint64_t(0));
  };
  SmallVector<Value> indices(rank);
  Value ok, inside;
  bool onlyPadding = false; // an empty dim padded: nothing of x reaches the output
  for (auto [a, d] : llvm::enumerate(axes)) {
    int64_t dim = xType.getDimSize(d), count = (*out)[d];
    Value begin = element(a), end = element(a + numAxes);
    // dim + begin + end == count, without overflow: begin and end are clamped far beyond any count.
    Value padded = o.add(m.clamp(begin, -(int64_t(1) << 40), int64_t(1) << 40),
                         m.clamp(end, -(int64_t(1) << 40), int64_t(1) << 40));
    ok = m.both(ok, m.equals(padded, count - dim));
    if (count == 0 || dim == 0) {
      // Nothing is read: an empty dim, or one that only padding fills (constant mode only).
      indices[d] = count == 0 ? m.iota(0) : Value();
      if (dim == 0 && count > 0 && mode != "constant")
        return n.error() << "mode '" << mode << "' cannot pad the empty dim " << d;
      onlyPadding |= dim == 0 && count > 0;
      continue;
    }
    // Negative amounts crop first (ONNX's reference): the mode pads the `kept` elements from
    // `cropped` on, a run-time extent (at least 1 where the shape checks out; clamped so).
    Value lead = m.clamp(begin, -count - dim, count), trail = m.clamp(end, -count - dim, count);
    Value cropped = m.max(o.sub(m.scalar(0), lead), m.scalar(0));
    Value remaining =
        o.sub(o.sub(m.scalar(dim), cropped), m.max(o.sub(m.scalar(0), trail), m.scalar(0)));
    // Only a constant pad may crop every element away (the other modes have nothing to repeat).
    if (mode != "constant")
      ok = m.both(ok, m.cmp(ComparePredicate::gt, remaining, m.scalar(0)));
    Value kept = m.max(remaining, m.scalar(1));
    Value source = o.sub(m.iota(count), m.max(lead, m.scalar(0))); // within the kept elements
    Value index;
    if (mode == "constant" || mode == "edge") {
      index = m.max(m.min(source, o.sub(kept, m.scalar(1))), m.scalar(0));
    } else if (mode == "wrap") {
      index = m.mod(source, kept);
    } else { // reflect: period 2 (kept - 1), the second half mirrored; one element repeats
      Value period = m.max(o.mul(o.sub(kept, m.scalar(1)), m.scalar(2)), m.scalar(1));
      Value r = m.mod(source, period);
      index = o.where(m.cmp(ComparePredicate::lt, r, kept), r, o.sub(period, r));
    }
    index = m.clamp(o.add(index, cropped), 0, dim - 1);
    indices[d] = index;
    if (mode == "constant") {
      Value within = m.both(m.cmp(ComparePredicate::ge, source, m.scalar(0)),
                            m.cmp(ComparePredicate::lt, source, remaining));
      SmallVector<int64_t> shape(rank, 1);
      shape[d] = count;
      inside = m.both(inside, o.reshape(within, shape));
    }
  }
  std::string message = checkedNode(n) + ": the run's pads do not give the output shape " +
                        listToString(*out) + " the model declares";
  Type et = xType.getElementType();
  auto padValue = [&] {
    return n.hasInput(2) ? o.cast(o.reshape(o.in(2), {}), et) : o.scalar(et, 0.0);
  };
  Value result;
  if (onlyPadding) { // every element is the value, once the pads check out
    result = o.op<ms::CheckOp>(o.expand(padValue(), *out), ok, message);
  } else {
    result = gatherEach(o, o.in(0), indices, ok, message);
    if (mode == "constant" && inside)
      result = o.where(inside, result, padValue());
  }
  if (failed(finish(n, o, result)))
    return failure();
  return true;
}

/// Range with start, limit or delta given at run time and a declared output shape [N]: the
/// count ceil((limit - start) / delta) (at least 0, in f64 as ONNX's reference computes it)
/// checked against N, and start + i * delta.
FailureOr<bool> mlir::mie::onnx_import::importRangeByDeclaredShape(NodeImporter &n) {
  std::optional<SmallVector<int64_t>> out = declaredStaticShape(n, 1);
  if (!out)
    return false;
  Type et = n.inputType(0).getElementType();
  for (unsigned i = 0; i < 3; ++i)
    if (n.inputType(i).getElementType() != et || !n.inputType(i).hasStaticShape() ||
        n.inputType(i).getNumElements() != 1)
      return n.error() << "start, limit and delta must be scalars of one type, got "
                       << n.inputType(0) << ", " << n.inputType(1) << " and " << n.inputType(2);
  int64_t count = (*out)[0];
  Ops o(n);
  Type f64 = n.builder().getF64Type();
  auto scalarIn = [&](unsigned i) { return o.cast(o.reshape(o.in(i), {}), f64); };
  Value start = scalarIn(0), limit = scalarIn(1), delta = scalarIn(2);
  Value zero = o.scalar(f64, 0.0);
  Value nonzero = o.compare(ComparePredicate::ne, delta, zero);
  Value steps = o.op<ms::CeilOp>(o.div(o.sub(limit, start), delta));
  Value got = o.op<ms::MaxOp>(steps, zero); // NaN (a zero or infinite delta) fails the check
  Value ok =
      o.op<ms::AndOp>(nonzero, o.compare(ComparePredicate::eq, got, o.scalar(f64, double(count))));
  Value values;
  if (isa<IntegerType>(et)) { // exact in i64: start + i * delta
    Type i64 = n.builder().getI64Type();
    auto intIn = [&](unsigned i) { return o.cast(o.reshape(o.in(i), {}), i64); };
    values = o.add(
        intIn(0), o.mul(o.constant(KnownTensor::fromInts({count}, i64, iota(0, count))), intIn(2)));
  } else {
    SmallVector<double> positions;
    for (int64_t i = 0; i < count; ++i)
      positions.push_back(double(i));
    values =
        o.add(start, o.mul(o.constant(KnownTensor::fromFloats({count}, f64, positions)), delta));
  }
  std::string message = checkedNode(n) + ": the run's start, limit and delta do not give the " +
                        std::to_string(count) + " elements the model declares";
  Value result = o.cast(o.op<ms::CheckOp>(values, ok, message), et);
  if (failed(finish(n, o, result)))
    return failure();
  return true;
}
