//===- OnnxCompositeGridSample.cpp - GridSample as ms ops -----------------===//
//
// GridSample (2-D and 3-D) written in ms ops, following ONNX's reference: each sampling point's
// normalized coordinates become input coordinates (align_corners or not); nearest rounds half to
// even; a coordinate outside the borders is clamped (border) or reflected (reflection) before
// the taps are taken; each tap index then obeys the padding mode on its own (zeros: 0 outside,
// border: clamped, reflection: reflected). Every tap is one ms.gather_elements of the input
// flattened to [N, C, spatial], weighted by the product of its per-dim linear or cubic
// (Keys, a = -0.75) coefficients.
//
//===----------------------------------------------------------------------===//

#include "OnnxCompositeBuilder.h"

using namespace mlir;
using namespace mlir::mie::onnx_import;
using namespace mlir::mie::onnx_import::composite;

namespace {

enum class SampleMode { Nearest, Linear, Cubic };
enum class Padding { Zeros, Border, Reflection };

/// The taps of one spatial dim: an index per tap (int64, in range), whether it lies inside the
/// input (zeros padding), and its weight (null for nearest).
struct DimTaps {
  SmallVector<Value> index, valid, weight;
};

/// Reflects `v` (float) into [lo, hi] by the near border until inside, as ONNX's _gs_reflect.
Value reflect(Ops &o, Value v, double lo, double hi) {
  Type et = typeOf(v).getElementType();
  if (hi <= lo) // a single position
    return o.op<ms::MulOp>(v, o.scalar(et, 0.0));
  auto c = [&](double d) { return o.scalar(et, d); };
  double range = hi - lo;
  Value below = o.compare(ms::ComparePredicate::lt, v, c(lo));
  Value above = o.compare(ms::ComparePredicate::gt, v, c(hi));
  Value dx = o.where(below, o.sub(c(lo), v), o.sub(v, c(hi)));
  Value count = o.op<ms::FloorOp>(o.div(dx, c(range)));
  Value r = o.sub(dx, o.mul(count, c(range)));
  Value half = o.op<ms::FloorOp>(o.mul(count, c(0.5)));
  Value even = o.compare(ms::ComparePredicate::eq, o.sub(count, o.mul(half, c(2.0))), c(0.0));
  Value fromBelow = o.where(even, o.add(c(lo), r), o.sub(c(hi), r));
  Value fromAbove = o.where(even, o.sub(c(hi), r), o.add(c(lo), r));
  return o.where(below, fromBelow, o.where(above, fromAbove, v));
}

/// Keys' cubic convolution weights (a = -0.75) of the four taps floor(x) - 1 .. floor(x) + 2 for
/// the fraction t = x - floor(x).
SmallVector<Value> cubicWeights(Ops &o, Value t) {
  Type et = typeOf(t).getElementType();
  auto c = [&](double d) { return o.scalar(et, d); };
  const double a = -0.75;
  auto outer = [&](Value s) { // ((a s - 5a) s + 8a) s - 4a for s in [1, 2]
    return o.sub(o.mul(o.add(o.mul(o.sub(o.mul(s, c(a)), c(5 * a)), s), c(8 * a)), s), c(4 * a));
  };
  auto inner = [&](Value s) { // ((a + 2) s - (a + 3)) s s + 1 for s in [0, 1]
    return o.add(o.mul(o.mul(o.sub(o.mul(s, c(a + 2)), c(a + 3)), s), s), c(1.0));
  };
  Value oneMinus = o.sub(c(1.0), t);
  return {outer(o.add(t, c(1.0))), inner(t), inner(oneMinus), outer(o.sub(c(2.0), t))};
}

LogicalResult importGridSample(NodeImporter &n) {
  std::string modeName = n.getString("mode", "linear");
  std::string paddingName = n.getString("padding_mode", "zeros");
  bool alignCorners = n.getInt("align_corners", 0) != 0;
  if (n.hasFailed())
    return failure();
  SampleMode mode;
  if (modeName == "nearest")
    mode = SampleMode::Nearest;
  else if (modeName == "linear" || modeName == "bilinear")
    mode = SampleMode::Linear;
  else if (modeName == "cubic" || modeName == "bicubic")
    mode = SampleMode::Cubic;
  else
    return n.error() << "mode '" << modeName << "' must be nearest, linear or cubic";
  Padding padding;
  if (paddingName == "zeros")
    padding = Padding::Zeros;
  else if (paddingName == "border")
    padding = Padding::Border;
  else if (paddingName == "reflection")
    padding = Padding::Reflection;
  else
    return n.error() << "padding_mode '" << paddingName << "' must be zeros, border or reflection";

  RankedTensorType xType = n.inputType(0), gType = n.inputType(1);
  int64_t rank = xType.getRank(), spatial = rank - 2;
  Type et = xType.getElementType(), gt = gType.getElementType();
  if (!isa<FloatType>(et) || !isa<FloatType>(gt) || (spatial != 2 && spatial != 3) ||
      gType.getRank() != rank || gType.getDimSize(0) != xType.getDimSize(0) ||
      gType.getShape().back() != spatial)
    return n.error() << "expects a float X [N, C, D1, ...] with 2 or 3 spatial dims and a float "
                        "grid [N, ..., "
                     << spatial << "], got " << xType << " and " << gType;
  if (mode == SampleMode::Cubic && spatial != 2)
    return n.error() << "cubic sampling is defined for 2 spatial dims, got " << xType;

  ArrayRef<int64_t> dims = xType.getShape().drop_front(2);
  int64_t batch = xType.getDimSize(0), channels = xType.getDimSize(1);
  SmallVector<int64_t> outSpatial(gType.getShape().drop_front().drop_back());
  int64_t points = product(outSpatial), pixels = product(dims);
  Type i64 = n.builder().getI64Type();

  Ops o(n);
  Value grid = o.in(1);
  auto c = [&](double d) { return o.scalar(gt, d); };
  SmallVector<DimTaps> taps(spatial);
  for (int64_t i = 0; i < spatial && !o.failed(); ++i) {
    int64_t size = dims[i];
    // Grid component spatial - 1 - i holds dim i's coordinate (x is the last dim).
    SmallVector<int64_t> starts(rank, 0), sizes(gType.getShape()), steps(rank, 1);
    starts.back() = spatial - 1 - i;
    sizes.back() = 1;
    Value g = o.reshape(o.slice(grid, starts, sizes, steps), {batch, points});
    Value v = alignCorners ? o.mul(o.add(g, c(1.0)), c((size - 1) / 2.0))
                           : o.div(o.sub(o.mul(o.add(g, c(1.0)), c((double)size)), c(1.0)), c(2.0));
    if (mode == SampleMode::Nearest)
      v = o.op<ms::RoundOp>(v);
    double lo = alignCorners ? 0.0 : -0.5, hi = alignCorners ? size - 1.0 : size - 0.5;
    if (padding == Padding::Border) {
      // Only a coordinate outside [lo, hi] is clamped (one in [-0.5, 0) keeps its taps).
      Value outside = o.op<ms::OrOp>(o.compare(ms::ComparePredicate::lt, v, c(lo)),
                                     o.compare(ms::ComparePredicate::gt, v, c(hi)));
      v = o.where(outside, o.op<ms::MinOp>(o.op<ms::MaxOp>(v, c(0.0)), c(size - 1.0)), v);
    } else if (padding == Padding::Reflection)
      v = reflect(o, v, lo, hi);

    // Tap positions (as floats) and weights.
    SmallVector<Value> positions, weights;
    if (mode == SampleMode::Nearest) {
      positions.push_back(v);
    } else {
      Value base = o.op<ms::FloorOp>(v);
      Value t = o.sub(v, base);
      if (mode == SampleMode::Linear) {
        positions = {base, o.add(base, c(1.0))};
        weights = {o.sub(c(1.0), t), t};
      } else {
        for (int k = -1; k <= 2; ++k)
          positions.push_back(o.add(base, c(k)));
        weights = cubicWeights(o, t);
      }
    }
    for (Value p : positions) {
      if (padding == Padding::Reflection)
        p = reflect(o, p, lo, hi);
      Value index = o.cast(p, i64); // truncates, as the reference's int()
      if (padding == Padding::Zeros)
        taps[i].valid.push_back(
            o.op<ms::AndOp>(o.compare(ms::ComparePredicate::ge, index, o.scalar(i64, 0.0)),
                            o.compare(ms::ComparePredicate::lt, index, o.scalar(i64, size))));
      taps[i].index.push_back(o.op<ms::MinOp>(o.op<ms::MaxOp>(index, o.scalar(i64, 0.0)),
                                              o.scalar(i64, size - 1.0)));
    }
    taps[i].weight = weights;
  }

  // Sum over every combination of taps: gather, mask, weight.
  Value flat = o.reshape(o.in(0), {batch, channels, pixels});
  Value result;
  int64_t perDim = o.failed() ? 0 : taps[0].index.size();
  int64_t combos = 1;
  for (int64_t i = 0; i < spatial; ++i)
    combos *= perDim;
  for (int64_t combo = 0; combo < combos && !o.failed(); ++combo) {
    Value index, valid, weight;
    int64_t rest = combo, stride = pixels;
    for (int64_t i = 0; i < spatial; ++i) {
      int64_t t = rest % perDim;
      rest /= perDim;
      stride /= dims[i];
      Value term = o.mul(taps[i].index[t], o.scalar(i64, (double)stride));
      index = index ? o.add(index, term) : term;
      if (!taps[i].valid.empty())
        valid = valid ? o.op<ms::AndOp>(valid, taps[i].valid[t]) : taps[i].valid[t];
      if (!taps[i].weight.empty())
        weight = weight ? o.mul(weight, taps[i].weight[t]) : taps[i].weight[t];
    }
    Value lifted = o.expand(o.reshape(index, {batch, 1, points}), {batch, channels, points});
    Value value = o.op<ms::GatherElementsOp>(flat, lifted, uint64_t(2));
    if (valid)
      value = o.where(o.reshape(valid, {batch, 1, points}), value, o.scalar(et, 0.0));
    if (weight)
      value = o.mul(value, o.cast(o.reshape(weight, {batch, 1, points}), et));
    result = result ? o.add(result, value) : value;
  }
  SmallVector<int64_t> outShape = {batch, channels};
  outShape.append(outSpatial);
  return finish(n, o, o.reshape(result, outShape));
}

} // namespace

void mlir::mie::onnx_import::composite::registerCompositeSamplingOps(OnnxOpTable &table) {
  table["GridSample"] = {importGridSample, 2, 2, 16};
}
