//===- OnnxCompositeGridSample.cpp - GridSample, RoiAlign, DeformConv, ... -===//
//
// GridSample (2-D and 3-D) written in ms ops, following ONNX's reference: each sampling point's
// normalized coordinates become input coordinates (align_corners or not); nearest rounds half to
// even; a coordinate outside the borders is clamped (border) or reflected (reflection) before
// the taps are taken; each tap index then obeys the padding mode on its own (zeros: 0 outside,
// border: clamped, reflection: reflected). Every tap is one ms.gather_elements of the input
// flattened to [N, C, spatial], weighted by the product of its per-dim linear or cubic
// (Keys, a = -0.75) coefficients. RoiAlign and DeformConv sample the same way, their taps computed
// from the ROIs or from the learned offsets. AffineGrid builds the grids GridSample reads.
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

/// RoiAlign (opsets 10, 16): for each ROI, an output_height x output_width grid of bins, each the
/// average (or maximum) of sampling_ratio^2 bilinear samples of its batch item, following ONNX's
/// reference: a sample beyond [-1, size] counts 0; one below 0 is taken at 0; one past the last
/// row or column takes that row or column. The taps of all samples are one ms.gather_elements of
/// X laid out as [C, N * H * W]. An adaptive sample count (sampling_ratio 0) varies per ROI and is
/// reported as unsupported.
LogicalResult importRoiAlign(NodeImporter &n) {
  // Opset 10 has no coordinate_transformation_mode: its ROIs are output_half_pixel.
  std::string coordName = n.getString("coordinate_transformation_mode",
                                      n.opset() >= 16 ? "half_pixel" : "output_half_pixel");
  std::string modeName = n.getString("mode", "avg");
  int64_t outH = n.getInt("output_height", 1), outW = n.getInt("output_width", 1);
  int64_t ratio = n.getInt("sampling_ratio", 0);
  double spatialScale = n.getFloat("spatial_scale", 1.0);
  if (n.hasFailed())
    return failure();
  if (coordName != "half_pixel" && coordName != "output_half_pixel")
    return n.error() << "coordinate_transformation_mode '" << coordName
                     << "' must be half_pixel or output_half_pixel";
  if (modeName != "avg" && modeName != "max")
    return n.error() << "mode '" << modeName << "' must be avg or max";
  if (outH < 1 || outW < 1 || ratio < 0)
    return n.error() << "expects positive output_height and output_width and sampling_ratio >= 0";
  if (ratio == 0)
    return n.unsupportedFeature() << "sampling_ratio 0 (a sample count that varies with each "
                                     "ROI's size) is not supported; give a positive one";
  bool halfPixel = coordName == "half_pixel", isMax = modeName == "max";
  RankedTensorType xType = n.inputType(0), rType = n.inputType(1), bType = n.inputType(2);
  Type et = xType.getElementType();
  if (xType.getRank() != 4 || !isa<FloatType>(et) || rType.getRank() != 2 ||
      rType.getDimSize(1) != 4 || !isa<FloatType>(rType.getElementType()) ||
      bType.getRank() != 1 || bType.getDimSize(0) != rType.getDimSize(0) ||
      !isa<IntegerType>(bType.getElementType()))
    return n.error() << "expects X [N, C, H, W], rois [R, 4] (float) and batch_indices [R] "
                        "(integer), got "
                     << xType << ", " << rType << " and " << bType;
  int64_t batch = xType.getDimSize(0), channels = xType.getDimSize(1);
  int64_t height = xType.getDimSize(2), width = xType.getDimSize(3);
  int64_t rois = rType.getDimSize(0);
  int64_t samplesH = outH * ratio, samplesW = outW * ratio;
  int64_t points = rois * samplesH * samplesW;
  if (!isReasonableShape({channels, points, 4}))
    return n.error() << "sampling " << points << " points of " << channels
                     << " channels is too large";
  Type i64 = n.builder().getI64Type();

  Ops o(n);
  auto c = [&](double d) { return o.scalar(et, d); };
  Value boxes = o.cast(o.in(1), et);
  auto column = [&](int64_t k) {
    return o.mul(o.slice(boxes, {0, k}, {rois, 1}, {1, 1}), c(spatialScale)); // [R, 1]
  };
  double offset = halfPixel ? 0.5 : 0.0;
  // One spatial dim: its sample positions [R, samples] become two taps (index, weight).
  struct Taps {
    Value low, high, lowWeight, highWeight;
  };
  auto taps = [&](int64_t startColumn, int64_t pooled, int64_t size) {
    Value start = o.sub(column(startColumn), c(offset));
    Value extent = o.sub(o.sub(column(startColumn + 2), c(offset)), start);
    if (!halfPixel)
      extent = o.op<ms::MaxOp>(extent, c(1.0));
    Value bin = o.div(extent, c(double(pooled)));
    // Sample s of bin p lies at p + (s + 0.5) / ratio bins from the start.
    SmallVector<double> steps;
    for (int64_t p = 0; p < pooled; ++p)
      for (int64_t s = 0; s < ratio; ++s)
        steps.push_back(double(p) + (double(s) + 0.5) / double(ratio));
    Value offsets = o.constant(KnownTensor::fromFloats({1, pooled * ratio}, et, steps));
    Value v = o.add(start, o.mul(bin, offsets)); // [R, pooled * ratio]
    Value inside = o.op<ms::AndOp>(o.compare(ms::ComparePredicate::ge, v, c(-1.0)),
                                   o.compare(ms::ComparePredicate::le, v, c(double(size))));
    v = o.op<ms::MaxOp>(v, c(0.0));
    Value low = o.op<ms::FloorOp>(v);
    Value atEnd = o.compare(ms::ComparePredicate::ge, low, c(double(size - 1)));
    low = o.where(atEnd, c(double(size - 1)), low);
    Value high = o.where(atEnd, low, o.add(low, c(1.0)));
    Value frac = o.where(atEnd, c(0.0), o.sub(v, low));
    Value mask = o.cast(inside, et);
    return Taps{o.cast(low, i64), o.cast(high, i64), o.mul(o.sub(c(1.0), frac), mask),
                o.mul(frac, mask)};
  };
  Taps ys = taps(1, outH, height), xs = taps(0, outW, width);
  // Batch offsets, clamped into range (an out-of-range batch index is invalid input).
  Value item = o.op<ms::MinOp>(o.op<ms::MaxOp>(o.cast(o.in(2), i64), o.scalar(i64, 0.0)),
                               o.scalar(i64, double(batch - 1)));
  Value base = o.reshape(o.mul(item, o.scalar(i64, double(height * width))), {rois, 1, 1});
  Value flat = o.transpose(o.reshape(o.in(0), {batch, channels, height * width}), {1, 0, 2});
  flat = o.reshape(flat, {channels, batch * height * width});
  Value result;
  for (int tap = 0; tap < 4 && !o.failed(); ++tap) {
    Value yi = tap / 2 ? ys.high : ys.low, yw = tap / 2 ? ys.highWeight : ys.lowWeight;
    Value xi = tap % 2 ? xs.high : xs.low, xw = tap % 2 ? xs.highWeight : xs.lowWeight;
    Value index = o.add(o.add(base, o.reshape(o.mul(yi, o.scalar(i64, double(width))),
                                              {rois, samplesH, 1})),
                        o.reshape(xi, {rois, 1, samplesW})); // [R, samplesH, samplesW]
    Value weight = o.mul(o.reshape(yw, {rois, samplesH, 1}), o.reshape(xw, {rois, 1, samplesW}));
    Value gathered = o.op<ms::GatherElementsOp>(
        flat, o.expand(o.reshape(index, {1, points}), {channels, points}), uint64_t(1));
    Value value = o.mul(o.reshape(gathered, {channels, rois, samplesH, samplesW}),
                        o.reshape(weight, {1, rois, samplesH, samplesW}));
    result = !result ? value : isMax ? o.op<ms::MaxOp>(result, value) : o.add(result, value);
  }
  Value bins = o.reshape(result, {channels, rois, outH, ratio, outW, ratio});
  Value pooled = isMax ? o.reduce<ms::ReduceMaxOp>(bins, {3, 5}, false)
                       : o.reduce<ms::ReduceMeanOp>(bins, {3, 5}, false);
  return finish(n, o, o.transpose(pooled, {1, 0, 2, 3}));
}

/// DeformConv (opsets 19, 22), 2-D: each kernel tap of each output position reads the input at its
/// regular position plus a learned offset, bilinearly with zeros outside (ONNX's reference
/// samples with GridSample, align_corners, zeros padding), optionally scaled by the mask; the
/// sampled columns [N, C * kH * kW, oH * oW] then meet the weights in one batched ms.matmul per
/// group. The four bilinear taps of every (offset group, tap, position) are ms.gather_elements of
/// X laid out as [N, offset_group, C / offset_group, H * W].
LogicalResult importDeformConv(NodeImporter &n) {
  int64_t group = n.getInt("group", 1), offsetGroup = n.getInt("offset_group", 1);
  std::optional<SmallVector<int64_t>> kernelAttr = n.getInts("kernel_shape");
  std::optional<SmallVector<int64_t>> padsAttr = n.getInts("pads");
  std::optional<SmallVector<int64_t>> stridesAttr = n.getInts("strides");
  std::optional<SmallVector<int64_t>> dilationsAttr = n.getInts("dilations");
  if (n.hasFailed())
    return failure();
  RankedTensorType xType = n.inputType(0), wType = n.inputType(1), oType = n.inputType(2);
  Type et = xType.getElementType();
  if (xType.getRank() != 4 || wType.getRank() != 4 || oType.getRank() != 4 ||
      !isa<FloatType>(et))
    return n.unsupportedFeature() << "only 2-D DeformConv on float data is supported, got X "
                                  << xType << ", W " << wType << " and offset " << oType;
  int64_t batch = xType.getDimSize(0), channels = xType.getDimSize(1);
  int64_t height = xType.getDimSize(2), width = xType.getDimSize(3);
  int64_t outChannels = wType.getDimSize(0);
  int64_t kh = kernelAttr && kernelAttr->size() == 2 ? (*kernelAttr)[0] : wType.getDimSize(2);
  int64_t kw = kernelAttr && kernelAttr->size() == 2 ? (*kernelAttr)[1] : wType.getDimSize(3);
  SmallVector<int64_t> pads = padsAttr ? *padsAttr : SmallVector<int64_t>(4, 0);
  SmallVector<int64_t> strides = stridesAttr ? *stridesAttr : SmallVector<int64_t>(2, 1);
  SmallVector<int64_t> dilations = dilationsAttr ? *dilationsAttr : SmallVector<int64_t>(2, 1);
  if (pads.size() != 4 || strides.size() != 2 || dilations.size() != 2 || group < 1 ||
      offsetGroup < 1 || channels % group != 0 || outChannels % group != 0 ||
      channels % offsetGroup != 0 || wType.getDimSize(1) * group != channels ||
      wType.getDimSize(2) != kh || wType.getDimSize(3) != kw)
    return n.error() << "inconsistent X " << xType << ", W " << wType << ", group " << group
                     << ", offset_group " << offsetGroup << " or 2-D pads/strides/dilations";
  int64_t outH = oType.getDimSize(2), outW = oType.getDimSize(3);
  int64_t expectH = (height + pads[0] + pads[2] - ((kh - 1) * dilations[0] + 1)) / strides[0] + 1;
  int64_t expectW = (width + pads[1] + pads[3] - ((kw - 1) * dilations[1] + 1)) / strides[1] + 1;
  int64_t taps = kh * kw, points = outH * outW;
  if (oType.getDimSize(0) != batch || oType.getDimSize(1) != offsetGroup * taps * 2 ||
      outH != expectH || outW != expectW)
    return n.error() << "expects offset [" << batch << ", " << offsetGroup * taps * 2 << ", "
                     << expectH << ", " << expectW << "], got " << oType;
  bool haveMask = n.hasInput(4);
  if (haveMask && n.inputType(4).getShape() !=
                      ArrayRef<int64_t>({batch, offsetGroup * taps, outH, outW}))
    return n.error() << "expects mask [" << batch << ", " << offsetGroup * taps << ", " << outH
                     << ", " << outW << "], got " << n.inputType(4);
  if (n.hasInput(3) && n.inputType(3).getShape() != ArrayRef<int64_t>({outChannels}))
    return n.error() << "expects B [" << outChannels << "], got " << n.inputType(3);
  int64_t perOffsetGroup = channels / offsetGroup, samples = taps * points;
  Type i64 = n.builder().getI64Type();

  Ops o(n);
  auto c = [&](double d) { return o.scalar(et, d); };
  Value offsets = o.reshape(o.in(2), {batch, offsetGroup, taps, 2, points});
  // Regular sampling positions per (tap, output position), then the learned offsets added.
  auto position = [&](int64_t which) {
    SmallVector<double> base;
    for (int64_t ki = 0; ki < kh; ++ki)
      for (int64_t kj = 0; kj < kw; ++kj)
        for (int64_t i = 0; i < outH; ++i)
          for (int64_t j = 0; j < outW; ++j)
            base.push_back(which == 0 ? double(-pads[0] + strides[0] * i + ki * dilations[0])
                                      : double(-pads[1] + strides[1] * j + kj * dilations[1]));
    Value offset = o.reshape(
        o.slice(offsets, {0, 0, 0, which, 0}, {batch, offsetGroup, taps, 1, points},
                {1, 1, 1, 1, 1}),
        {batch, offsetGroup, samples});
    return o.add(o.constant(KnownTensor::fromFloats({1, 1, samples}, et, base)), offset);
  };
  struct Tap {
    Value index, weight;
  };
  // The two taps of one dim: clamped index and weight (zero outside the input).
  auto dimTaps = [&](Value v, int64_t size) {
    Value low = o.op<ms::FloorOp>(v);
    Value frac = o.sub(v, low);
    SmallVector<Tap> result;
    for (int k = 0; k < 2; ++k) {
      Value p = k ? o.add(low, c(1.0)) : low;
      Value inside = o.op<ms::AndOp>(o.compare(ms::ComparePredicate::ge, p, c(0.0)),
                                     o.compare(ms::ComparePredicate::le, p, c(size - 1.0)));
      Value weight = o.mul(k ? frac : o.sub(c(1.0), frac), o.cast(inside, et));
      Value index = o.cast(o.op<ms::MinOp>(o.op<ms::MaxOp>(p, c(0.0)), c(size - 1.0)), i64);
      result.push_back(Tap{index, weight});
    }
    return result;
  };
  SmallVector<Tap> ys = dimTaps(position(0), height), xs = dimTaps(position(1), width);
  Value flat = o.reshape(o.in(0), {batch, offsetGroup, perOffsetGroup, height * width});
  SmallVector<int64_t> gathered = {batch, offsetGroup, perOffsetGroup, samples};
  Value columns;
  for (int t = 0; t < 4 && !o.failed(); ++t) {
    const Tap &y = ys[t / 2], &x = xs[t % 2];
    Value index = o.add(o.mul(y.index, o.scalar(i64, double(width))), x.index);
    index = o.expand(o.reshape(index, {batch, offsetGroup, 1, samples}), gathered);
    Value value = o.op<ms::GatherElementsOp>(flat, index, uint64_t(3));
    value = o.mul(value, o.reshape(o.mul(y.weight, x.weight), {batch, offsetGroup, 1, samples}));
    columns = columns ? o.add(columns, value) : value;
  }
  if (haveMask)
    columns = o.mul(columns, o.reshape(o.cast(o.in(4), et), {batch, offsetGroup, 1, samples}));
  // [N, C * taps, points] by group, against W as [group, oC / group, C / group * taps].
  int64_t inPerGroup = channels / group, outPerGroup = outChannels / group;
  columns = o.reshape(columns, {batch, group, inPerGroup * taps, points});
  Value weights = o.reshape(o.in(1), {1, group, outPerGroup, inPerGroup * taps});
  Value y = o.op<ms::MatMulOp>(weights, columns, TypeAttr());
  y = o.reshape(y, {batch, outChannels, outH, outW});
  if (n.hasInput(3))
    y = o.add(y, o.reshape(o.in(3), {1, outChannels, 1, 1}));
  return finish(n, o, y);
}

/// AffineGrid: the sampling grid of GridSample for affine matrices theta ([N, 2, 3] or [N, 3, 4]):
/// each output position's normalized coordinates (x along W first, then y, then z; -1 and 1 at the
/// corner pixels' centers with align_corners, else at their outer edges), homogeneous, times
/// theta. The base grid [spatial, 3 or 4] is a constant built at import (in double, rounded once,
/// as the reference's float64 arange), so the op is one batched product.
LogicalResult importAffineGrid(NodeImporter &n) {
  bool alignCorners = n.getInt("align_corners", 0) != 0;
  if (n.hasFailed())
    return failure();
  RankedTensorType thetaType = n.inputType(0);
  FailureOr<SmallVector<int64_t>> size = knownInts(n, 1, "size");
  if (failed(size))
    return failure();
  if (size->size() != 4 && size->size() != 5)
    return n.error() << "size " << listToString(*size)
                     << " must be [N, C, H, W] or [N, C, D, H, W]";
  int64_t dims = size->size() - 2, batch = (*size)[0];
  if (!isa<FloatType>(thetaType.getElementType()) || thetaType.getRank() != 3 ||
      thetaType.getDimSize(1) != dims || thetaType.getDimSize(2) != dims + 1)
    return n.error() << "theta " << thetaType << " must be float [N, " << dims << ", " << dims + 1
                     << "] for size " << listToString(*size);
  if (thetaType.getDimSize(0) != batch)
    return n.error() << "theta has " << thetaType.getDimSize(0) << " matrices, size asks for "
                     << batch;
  ArrayRef<int64_t> spatial = ArrayRef<int64_t>(*size).drop_front(2);
  if (llvm::any_of(spatial, [](int64_t d) { return d < 1; }) ||
      !isReasonableShape(SmallVector<int64_t>{product(spatial), dims + 1}))
    return n.error() << "size " << listToString(*size) << " is not a valid grid";
  // The base grid is a constant built here: bounded (2^23 coordinates, 64 MiB of f64: a 128^3
  // volume; the import of 2^26 took 1.7 GB, found by fuzz_onnx_import).
  if (product(spatial) > (int64_t(1) << 23) / (dims + 1))
    return n.unsupportedFeature() << "a grid of " << product(spatial)
                                  << " points is too large to build at compile time";
  auto coordinate = [&](int64_t i, int64_t extent) {
    if (alignCorners)
      return extent == 1 ? -1.0 : -1.0 + 2.0 * double(i) / double(extent - 1);
    return -1.0 + (2.0 * double(i) + 1.0) / double(extent);
  };
  // Row p of the base grid: the coordinates of position p (row-major over D, H, W), x first.
  int64_t points = product(spatial);
  SmallVector<double> base;
  base.reserve(points * (dims + 1));
  SmallVector<int64_t> index(dims, 0);
  for (int64_t p = 0; p < points; ++p) {
    for (int64_t d = dims - 1; d >= 0; --d)
      base.push_back(coordinate(index[d], spatial[d]));
    base.push_back(1.0);
    for (int64_t d = dims - 1; d >= 0 && ++index[d] == spatial[d]; --d)
      index[d] = 0;
  }
  Ops o(n);
  Type et = thetaType.getElementType();
  Value grid = o.constant(KnownTensor::fromFloats({points, dims + 1}, et, base));
  // [points, dims + 1] x theta^T [N, dims + 1, dims] -> [N, points, dims].
  Value y = o.op<ms::MatMulOp>(grid, o.transpose(o.in(0), {0, 2, 1}), TypeAttr());
  SmallVector<int64_t> outShape = {batch};
  outShape.append(spatial.begin(), spatial.end());
  outShape.push_back(dims);
  return finish(n, o, o.reshape(y, outShape));
}

} // namespace

void mlir::mie::onnx_import::composite::registerCompositeSamplingOps(OnnxOpTable &table) {
  table["GridSample"] = {importGridSample, 2, 2, 16};
  table["RoiAlign"] = {importRoiAlign, 3, 3, 10};
  table["DeformConv"] = {importDeformConv, 3, 5, 19};
  table["AffineGrid"] = {importAffineGrid, 2, 2, 20};
}
