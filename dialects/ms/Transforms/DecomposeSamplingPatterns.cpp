//===- DecomposeSamplingPatterns.cpp - ms-decompose's sampling rewrites -----===//
//
//   grid_sample: ONNX's reference, op for op as the importer used to emit it: each sampling
//                point's normalized coordinates become input coordinates (align_corners or not);
//                nearest rounds half to even; a coordinate outside the borders is clamped
//                (border) or reflected (reflection) before the taps are taken; each tap index
//                then obeys the padding mode on its own (zeros: 0 outside, border: clamped,
//                reflection: reflected). Every combination of per-dim taps is one
//                ms.gather_elements of the input flattened to [N, C, spatial], weighted by the
//                product of its per-dim linear or cubic (Keys, a = -0.75) coefficients, so no
//                gather reads a [N, C, points, taps] table.
//   roi_align:   for each ROI an output_height x output_width grid of bins, each the average (or
//                maximum) of sampling_ratio^2 bilinear samples of its batch item, following
//                ONNX's reference: a sample beyond [-1, size] counts 0, one below 0 is taken at
//                0, one past the last row or column takes that row or column. The taps of all
//                samples are one ms.gather_elements of X laid out as [C, N * H * W] per tap.
//   deform_conv: each kernel tap of each output position reads the input at its regular
//                position plus the learned offset, bilinearly with zeros outside (the
//                reference samples with GridSample, align_corners, zeros padding), optionally
//                scaled by the mask; the sampled columns [N, C * kH * kW, oH * oW] then meet
//                the weights in one batched ms.matmul per group. The four bilinear taps of
//                every (offset group, tap, position) are ms.gather_elements of X laid out as
//                [N, offset_group, C / offset_group, H * W].
//   affine_grid: the base grid [points, dims + 1] (each position's normalized coordinates, x
//                first, and 1) as a constant built here in double and rounded once, as the
//                reference's float64 arange, times theta transposed: one batched product.
//   col2im:      the blocks' landing positions in the flattened padded image, a constant built
//                here; one ms.scatter_elements (add) into zeros, then a slice drops the padding.
//
//===----------------------------------------------------------------------===//

#include "dialects/ms/Transforms/DecomposeBuilder.h"
#include "dialects/ms/Transforms/Patterns.h"

using namespace mlir;
using namespace mlir::ms;

namespace {

int64_t product(ArrayRef<int64_t> values) {
  int64_t result = 1;
  for (int64_t v : values)
    result *= v;
  return result;
}

/// Reflects `v` (float) into [lo, hi] by the near border until inside, as ONNX's _gs_reflect.
Value reflect(OpChain &o, Value v, double lo, double hi) {
  Type et = tensorTypeOf(v).getElementType();
  if (hi <= lo) // a single position
    return o.mul(v, o.scalar(et, 0.0));
  auto c = [&](double d) { return o.scalar(et, d); };
  double range = hi - lo;
  Value below = o.compare(ComparePredicate::lt, v, c(lo));
  Value above = o.compare(ComparePredicate::gt, v, c(hi));
  Value dx = o.where(below, o.sub(c(lo), v), o.sub(v, c(hi)));
  Value count = o.op<FloorOp>(o.div(dx, c(range)));
  Value r = o.sub(dx, o.mul(count, c(range)));
  Value half = o.op<FloorOp>(o.mul(count, c(0.5)));
  Value even = o.compare(ComparePredicate::eq, o.sub(count, o.mul(half, c(2.0))), c(0.0));
  Value fromBelow = o.where(even, o.add(c(lo), r), o.sub(c(hi), r));
  Value fromAbove = o.where(even, o.sub(c(hi), r), o.add(c(lo), r));
  return o.where(below, fromBelow, o.where(above, fromAbove, v));
}

/// Keys' cubic convolution weights (a = -0.75) of the four taps floor(x) - 1 .. floor(x) + 2 for
/// the fraction t = x - floor(x).
SmallVector<Value> cubicWeights(OpChain &o, Value t) {
  Type et = tensorTypeOf(t).getElementType();
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

/// The taps of one spatial dim: an index per tap (i64, in range), whether it lies inside the
/// input (zeros padding only), and its weight (none for nearest).
struct DimTaps {
  SmallVector<Value> index, valid, weight;
};

struct DecomposeGridSample : OpRewritePattern<GridSampleOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(GridSampleOp op, PatternRewriter &rewriter) const override {
    RankedTensorType xType = op.getInput().getType(), gType = op.getGrid().getType();
    int64_t rank = xType.getRank(), spatial = rank - 2;
    Type et = xType.getElementType(), gt = gType.getElementType();
    GridSampleMode mode = op.getMode();
    GridPaddingMode padding = op.getPaddingMode();
    bool alignCorners = op.getAlignCorners();
    ArrayRef<int64_t> dims = xType.getShape().drop_front(2);
    int64_t batch = xType.getDimSize(0), channels = xType.getDimSize(1);
    SmallVector<int64_t> outSpatial(gType.getShape().drop_front().drop_back());
    int64_t points = product(outSpatial), pixels = product(dims);
    Type i64 = rewriter.getI64Type();

    OpChain o(rewriter, op.getLoc());
    Value grid = op.getGrid();
    auto c = [&](double d) { return o.scalar(gt, d); };
    SmallVector<DimTaps> taps(spatial);
    for (int64_t i = 0; i < spatial; ++i) {
      int64_t size = dims[i];
      // Grid component spatial - 1 - i holds dim i's coordinate (x is the last dim).
      SmallVector<int64_t> starts(rank, 0), sizes(gType.getShape()), steps(rank, 1);
      starts.back() = spatial - 1 - i;
      sizes.back() = 1;
      Value g = o.reshape(o.slice(grid, starts, sizes, steps), {batch, points});
      Value v = alignCorners
                    ? o.mul(o.add(g, c(1.0)), c((size - 1) / 2.0))
                    : o.div(o.sub(o.mul(o.add(g, c(1.0)), c(double(size))), c(1.0)), c(2.0));
      if (mode == GridSampleMode::nearest)
        v = o.op<RoundOp>(v);
      double lo = alignCorners ? 0.0 : -0.5, hi = alignCorners ? size - 1.0 : size - 0.5;
      if (padding == GridPaddingMode::border) {
        // Only a coordinate outside [lo, hi] is clamped (one in [-0.5, 0) keeps its taps).
        Value outside = o.op<OrOp>(o.compare(ComparePredicate::lt, v, c(lo)),
                                   o.compare(ComparePredicate::gt, v, c(hi)));
        v = o.where(outside, o.op<MinOp>(o.op<MaxOp>(v, c(0.0)), c(size - 1.0)), v);
      } else if (padding == GridPaddingMode::reflection) {
        v = reflect(o, v, lo, hi);
      }

      // Tap positions (as floats) and weights.
      SmallVector<Value> positions, weights;
      if (mode == GridSampleMode::nearest) {
        positions.push_back(v);
      } else {
        Value base = o.op<FloorOp>(v);
        Value t = o.sub(v, base);
        if (mode == GridSampleMode::linear) {
          positions = {base, o.add(base, c(1.0))};
          weights = {o.sub(c(1.0), t), t};
        } else {
          for (int k = -1; k <= 2; ++k)
            positions.push_back(o.add(base, c(k)));
          weights = cubicWeights(o, t);
        }
      }
      for (Value p : positions) {
        if (padding == GridPaddingMode::reflection)
          p = reflect(o, p, lo, hi);
        Value index = o.cast(p, i64); // truncates, as the reference's int()
        if (padding == GridPaddingMode::zeros)
          taps[i].valid.push_back(
              o.op<AndOp>(o.compare(ComparePredicate::ge, index, o.scalar(i64, 0.0)),
                          o.compare(ComparePredicate::lt, index, o.scalar(i64, size))));
        taps[i].index.push_back(
            o.op<MinOp>(o.op<MaxOp>(index, o.scalar(i64, 0.0)), o.scalar(i64, size - 1.0)));
      }
      taps[i].weight = weights;
    }

    // Sum over every combination of taps: gather, mask, weight.
    Value flat = o.reshape(op.getInput(), {batch, channels, pixels});
    Value result;
    int64_t perDim = taps[0].index.size();
    int64_t combos = 1;
    for (int64_t i = 0; i < spatial; ++i)
      combos *= perDim;
    for (int64_t combo = 0; combo < combos; ++combo) {
      Value index, valid, weight;
      int64_t rest = combo, stride = pixels;
      for (int64_t i = 0; i < spatial; ++i) {
        int64_t t = rest % perDim;
        rest /= perDim;
        stride /= dims[i];
        Value term = o.mul(taps[i].index[t], o.scalar(i64, double(stride)));
        index = index ? o.add(index, term) : term;
        if (!taps[i].valid.empty())
          valid = valid ? o.op<AndOp>(valid, taps[i].valid[t]) : taps[i].valid[t];
        if (!taps[i].weight.empty())
          weight = weight ? o.mul(weight, taps[i].weight[t]) : taps[i].weight[t];
      }
      Value lifted = o.expand(o.reshape(index, {batch, 1, points}), {batch, channels, points});
      Value value = o.op<GatherElementsOp>(flat, lifted, uint64_t(2));
      if (valid)
        value = o.where(o.reshape(valid, {batch, 1, points}), value, o.scalar(et, 0.0));
      if (weight)
        value = o.mul(value, o.cast(o.reshape(weight, {batch, 1, points}), et));
      result = result ? o.add(result, value) : value;
    }
    rewriter.replaceOp(op, o.reshape(result, op.getType().getShape()));
    return success();
  }
};

struct DecomposeRoiAlign : OpRewritePattern<RoiAlignOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(RoiAlignOp op, PatternRewriter &rewriter) const override {
    RankedTensorType xType = op.getInput().getType();
    Type et = xType.getElementType();
    int64_t batch = xType.getDimSize(0), channels = xType.getDimSize(1);
    int64_t height = xType.getDimSize(2), width = xType.getDimSize(3);
    int64_t rois = op.getRois().getType().getDimSize(0);
    int64_t outH = op.getOutputHeight(), outW = op.getOutputWidth();
    int64_t ratio = op.getSamplingRatio();
    int64_t samplesH = outH * ratio, samplesW = outW * ratio;
    int64_t points = rois * samplesH * samplesW;
    double spatialScale = op.getSpatialScale().convertToDouble();
    bool halfPixel = op.getHalfPixel(), isMax = op.getMax();
    Type i64 = rewriter.getI64Type();

    OpChain o(rewriter, op.getLoc());
    auto c = [&](double d) { return o.scalar(et, d); };
    Value boxes = o.cast(op.getRois(), et);
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
        extent = o.op<MaxOp>(extent, c(1.0));
      Value bin = o.div(extent, c(double(pooled)));
      // Sample s of bin p lies at p + (s + 0.5) / ratio bins from the start.
      SmallVector<double> steps;
      for (int64_t p = 0; p < pooled; ++p)
        for (int64_t s = 0; s < ratio; ++s)
          steps.push_back(double(p) + (double(s) + 0.5) / double(ratio));
      Value offsets = o.floats({1, pooled * ratio}, et, steps);
      Value v = o.add(start, o.mul(bin, offsets)); // [R, pooled * ratio]
      Value inside = o.op<AndOp>(o.compare(ComparePredicate::ge, v, c(-1.0)),
                                 o.compare(ComparePredicate::le, v, c(double(size))));
      v = o.op<MaxOp>(v, c(0.0));
      Value low = o.op<FloorOp>(v);
      Value atEnd = o.compare(ComparePredicate::ge, low, c(double(size - 1)));
      low = o.where(atEnd, c(double(size - 1)), low);
      Value high = o.where(atEnd, low, o.add(low, c(1.0)));
      Value frac = o.where(atEnd, c(0.0), o.sub(v, low));
      Value mask = o.cast(inside, et);
      return Taps{o.cast(low, i64), o.cast(high, i64), o.mul(o.sub(c(1.0), frac), mask),
                  o.mul(frac, mask)};
    };
    Taps ys = taps(1, outH, height), xs = taps(0, outW, width);
    // Batch offsets, clamped into range (an out-of-range batch index is invalid input).
    Value item = o.op<MinOp>(o.op<MaxOp>(o.cast(op.getBatchIndices(), i64), o.scalar(i64, 0.0)),
                             o.scalar(i64, double(batch - 1)));
    Value base = o.reshape(o.mul(item, o.scalar(i64, double(height * width))), {rois, 1, 1});
    Value flat =
        o.transpose(o.reshape(op.getInput(), {batch, channels, height * width}), {1, 0, 2});
    flat = o.reshape(flat, {channels, batch * height * width});
    Value result;
    for (int tap = 0; tap < 4; ++tap) {
      Value yi = tap / 2 ? ys.high : ys.low, yw = tap / 2 ? ys.highWeight : ys.lowWeight;
      Value xi = tap % 2 ? xs.high : xs.low, xw = tap % 2 ? xs.highWeight : xs.lowWeight;
      Value index = o.add(
          o.add(base, o.reshape(o.mul(yi, o.scalar(i64, double(width))), {rois, samplesH, 1})),
          o.reshape(xi, {rois, 1, samplesW})); // [R, samplesH, samplesW]
      Value weight = o.mul(o.reshape(yw, {rois, samplesH, 1}), o.reshape(xw, {rois, 1, samplesW}));
      Value gathered = o.op<GatherElementsOp>(
          flat, o.expand(o.reshape(index, {1, points}), {channels, points}), uint64_t(1));
      Value value = o.mul(o.reshape(gathered, {channels, rois, samplesH, samplesW}),
                          o.reshape(weight, {1, rois, samplesH, samplesW}));
      result = !result ? value : isMax ? o.op<MaxOp>(result, value) : o.add(result, value);
    }
    Value bins = o.reshape(result, {channels, rois, outH, ratio, outW, ratio});
    Value pooled = isMax ? o.reduce<ReduceMaxOp>(bins, {3, 5}, false)
                         : o.reduce<ReduceMeanOp>(bins, {3, 5}, false);
    rewriter.replaceOp(op, o.transpose(pooled, {1, 0, 2, 3}));
    return success();
  }
};

struct DecomposeDeformConv : OpRewritePattern<DeformConvOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(DeformConvOp op, PatternRewriter &rewriter) const override {
    RankedTensorType xType = op.getInput().getType(), wType = op.getFilter().getType();
    Type et = xType.getElementType();
    int64_t batch = xType.getDimSize(0), channels = xType.getDimSize(1);
    int64_t height = xType.getDimSize(2), width = xType.getDimSize(3);
    int64_t outChannels = wType.getDimSize(0), kh = wType.getDimSize(2), kw = wType.getDimSize(3);
    int64_t outH = op.getType().getDimSize(2), outW = op.getType().getDimSize(3);
    ArrayRef<int64_t> pads = op.getPads(), strides = op.getStrides(), dilations = op.getDilations();
    int64_t group = op.getGroups(), offsetGroup = op.getOffsetGroups();
    int64_t taps = kh * kw, points = outH * outW;
    int64_t perOffsetGroup = channels / offsetGroup, samples = taps * points;
    Type i64 = rewriter.getI64Type();

    OpChain o(rewriter, op.getLoc());
    auto c = [&](double d) { return o.scalar(et, d); };
    Value offsets = o.reshape(op.getOffset(), {batch, offsetGroup, taps, 2, points});
    // Regular sampling positions per (tap, output position), then the learned offsets added.
    auto position = [&](int64_t which) {
      SmallVector<double> base;
      for (int64_t ki = 0; ki < kh; ++ki)
        for (int64_t kj = 0; kj < kw; ++kj)
          for (int64_t i = 0; i < outH; ++i)
            for (int64_t j = 0; j < outW; ++j)
              base.push_back(which == 0 ? double(-pads[0] + strides[0] * i + ki * dilations[0])
                                        : double(-pads[1] + strides[1] * j + kj * dilations[1]));
      Value offset = o.reshape(o.slice(offsets, {0, 0, 0, which, 0},
                                       {batch, offsetGroup, taps, 1, points}, {1, 1, 1, 1, 1}),
                               {batch, offsetGroup, samples});
      return o.add(o.floats({1, 1, samples}, et, base), offset);
    };
    struct Tap {
      Value index, weight;
    };
    // The two taps of one dim: clamped index and weight (zero outside the input).
    auto dimTaps = [&](Value v, int64_t size) {
      Value low = o.op<FloorOp>(v);
      Value frac = o.sub(v, low);
      SmallVector<Tap> result;
      for (int k = 0; k < 2; ++k) {
        Value p = k ? o.add(low, c(1.0)) : low;
        Value inside = o.op<AndOp>(o.compare(ComparePredicate::ge, p, c(0.0)),
                                   o.compare(ComparePredicate::le, p, c(size - 1.0)));
        Value weight = o.mul(k ? frac : o.sub(c(1.0), frac), o.cast(inside, et));
        Value index = o.cast(o.op<MinOp>(o.op<MaxOp>(p, c(0.0)), c(size - 1.0)), i64);
        result.push_back(Tap{index, weight});
      }
      return result;
    };
    SmallVector<Tap> ys = dimTaps(position(0), height), xs = dimTaps(position(1), width);
    Value flat = o.reshape(op.getInput(), {batch, offsetGroup, perOffsetGroup, height * width});
    SmallVector<int64_t> gathered = {batch, offsetGroup, perOffsetGroup, samples};
    Value columns;
    for (int t = 0; t < 4; ++t) {
      const Tap &y = ys[t / 2], &x = xs[t % 2];
      Value index = o.add(o.mul(y.index, o.scalar(i64, double(width))), x.index);
      index = o.expand(o.reshape(index, {batch, offsetGroup, 1, samples}), gathered);
      Value value = o.op<GatherElementsOp>(flat, index, uint64_t(3));
      value = o.mul(value, o.reshape(o.mul(y.weight, x.weight), {batch, offsetGroup, 1, samples}));
      columns = columns ? o.add(columns, value) : value;
    }
    if (Value mask = op.getMask())
      columns = o.mul(columns, o.reshape(o.cast(mask, et), {batch, offsetGroup, 1, samples}));
    // [N, C * taps, points] by group, against W as [group, oC / group, C / group * taps].
    int64_t inPerGroup = channels / group, outPerGroup = outChannels / group;
    columns = o.reshape(columns, {batch, group, inPerGroup * taps, points});
    Value weights = o.reshape(op.getFilter(), {1, group, outPerGroup, inPerGroup * taps});
    Value y = o.op<MatMulOp>(weights, columns, TypeAttr());
    y = o.reshape(y, {batch, outChannels, outH, outW});
    if (Value bias = op.getBias())
      y = o.add(y, o.reshape(bias, {1, outChannels, 1, 1}));
    rewriter.replaceOp(op, y);
    return success();
  }
};

/// Where element (k, l) of each channel lands in the flattened padded image is known here, so the
/// op is one ms.scatter_elements (add) into a zero padded image and a slice.
struct DecomposeCol2Im : OpRewritePattern<Col2ImOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(Col2ImOp op, PatternRewriter &rewriter) const override {
    ArrayRef<int64_t> image = op.getImageShape(), block = op.getBlockShape(),
                      strides = op.getStrides(), dilations = op.getDilations(), pads = op.getPads();
    RankedTensorType xType = op.getInput().getType();
    int64_t dims = image.size(), batch = xType.getDimSize(0);
    int64_t channels = op.getType().getDimSize(1), blocks = xType.getDimSize(2);
    int64_t taps = xType.getDimSize(1) / channels;
    SmallVector<int64_t> grid, padded;
    int64_t cells = 1;
    for (int64_t d = 0; d < dims; ++d) {
      padded.push_back(image[d] + pads[d] + pads[d + dims]);
      grid.push_back((padded.back() - (dilations[d] * (block[d] - 1) + 1)) / strides[d] + 1);
      cells *= padded.back();
    }
    SmallVector<int64_t> landing;
    landing.reserve(taps * blocks);
    SmallVector<int64_t> k(dims, 0), l(dims, 0);
    auto step = [&](SmallVector<int64_t> &index, ArrayRef<int64_t> extent) {
      for (int64_t d = dims - 1; d >= 0 && ++index[d] == extent[d]; --d)
        index[d] = 0;
    };
    for (int64_t t = 0; t < taps; ++t, step(k, block)) {
      for (int64_t b = 0; b < blocks; ++b, step(l, grid)) {
        int64_t flat = 0;
        for (int64_t d = 0; d < dims; ++d)
          flat = flat * padded[d] + l[d] * strides[d] + k[d] * dilations[d];
        landing.push_back(flat);
      }
    }
    OpChain o(rewriter, op.getLoc());
    auto indexType = RankedTensorType::get({1, 1, taps * blocks}, rewriter.getI64Type());
    Value index = o.constant(DenseElementsAttr::get(indexType, ArrayRef<int64_t>(landing)));
    index = o.expand(index, {batch, channels, taps * blocks});
    Value zeros = o.expand(o.scalar(xType.getElementType(), 0.0), {batch, channels, cells});
    Value summed = o.op<ScatterElementsOp>(
        zeros, index, o.reshape(op.getInput(), {batch, channels, taps * blocks}), uint64_t(2),
        ScatterReduction::add);
    SmallVector<int64_t> paddedShape = {batch, channels}, starts(2, 0), sizes = {batch, channels},
                         unit(dims + 2, 1);
    paddedShape.append(padded);
    starts.append(pads.begin(), pads.begin() + dims);
    sizes.append(image.begin(), image.end());
    rewriter.replaceOp(op, o.slice(o.reshape(summed, paddedShape), starts, sizes, unit));
    return success();
  }
};

struct DecomposeAffineGrid : OpRewritePattern<AffineGridOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AffineGridOp op, PatternRewriter &rewriter) const override {
    ArrayRef<int64_t> size = op.getSize();
    int64_t dims = size.size() - 2, batch = size[0];
    ArrayRef<int64_t> spatial = size.drop_front(2);
    // The base grid is a constant: bounded (2^23 coordinates, 64 MiB of f64: a 128^3 volume; the
    // importer rejects larger grids by name, found by fuzz_onnx_import).
    int64_t points = product(spatial);
    if (points > (int64_t(1) << 23) / (dims + 1))
      return rewriter.notifyMatchFailure(op, "the base grid is too large to build");
    bool alignCorners = op.getAlignCorners();
    auto coordinate = [&](int64_t i, int64_t extent) {
      if (alignCorners)
        return extent == 1 ? -1.0 : -1.0 + 2.0 * double(i) / double(extent - 1);
      return -1.0 + (2.0 * double(i) + 1.0) / double(extent);
    };
    // Row p of the base grid: the coordinates of position p (row-major over D, H, W), x first.
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
    OpChain o(rewriter, op.getLoc());
    Type et = op.getType().getElementType();
    Value grid = o.floats({points, dims + 1}, et, base);
    // [points, dims + 1] x theta^T [N, dims + 1, dims] -> [N, points, dims].
    Value y = o.op<MatMulOp>(grid, o.transpose(op.getTheta(), {0, 2, 1}), TypeAttr());
    SmallVector<int64_t> outShape = {batch};
    outShape.append(spatial.begin(), spatial.end());
    outShape.push_back(dims);
    rewriter.replaceOp(op, o.reshape(y, outShape));
    return success();
  }
};

} // namespace

void mlir::ms::populateDecomposeSamplingPatterns(RewritePatternSet &patterns) {
  patterns.add<DecomposeGridSample, DecomposeRoiAlign, DecomposeDeformConv, DecomposeAffineGrid,
               DecomposeCol2Im>(patterns.getContext());
}
