//===- DecomposeResizePatterns.cpp - ms-decompose's ms.interpolate --------===//
//
// ms.interpolate is separable: each resized axis becomes a product with its [in, out]
// interpolation matrix (the axis moved last, then back), built here tap for tap as ONNX's
// reference implementation computes them (exact in double, then rounded to the element type).
// An axis whose matrix is the identity is skipped; tf_crop_and_resize's rows outside the input
// add extrapolation_value.
//
//===----------------------------------------------------------------------===//

#include "dialects/ms/IR/MsShapeUtils.h"
#include "dialects/ms/Transforms/DecomposeBuilder.h"
#include "dialects/ms/Transforms/Patterns.h"

#include <cmath>

using namespace mlir;
using namespace mlir::ms;

namespace {

/// One resized axis as a [out, in] matrix; `outside` marks rows that take extrapolation_value
/// (tf_crop_and_resize beyond the axis).
struct ResizeAxis {
  SmallVector<double> weights; // [out, in]
  SmallVector<bool> outside;
};

double keysWeight(double x, double a) {
  x = std::abs(x);
  if (x <= 1.0)
    return ((a + 2.0) * x - (a + 3.0)) * x * x + 1.0;
  if (x < 2.0)
    return ((a * x - 5.0 * a) * x + 8.0 * a) * x - 4.0 * a;
  return 0.0;
}

/// Output position x maps to input coordinate x_ori; the taps are the input positions nearest to
/// it (preferring the lower ones, clamped into the axis, as the reference's edge padding does)
/// weighted by the mode's coefficients.
ResizeAxis resizeAxis(InterpolateOp op, NearestMode nearest, int64_t in, int64_t out,
                      double scale, double roiStart, double roiEnd) {
  ResizeTransform coords = op.getCoordinateTransformationMode();
  Interpolation mode = op.getMode();
  bool antialias = op.getAntialias();
  ResizeAxis axis;
  axis.weights.assign(out * in, 0.0);
  axis.outside.assign(out, false);
  double outWidth = scale * double(in); // the reference's (float) output_width
  for (int64_t x = 0; x < out; ++x) {
    double xo = 0.0;
    switch (coords) {
    case ResizeTransform::align_corners:
      xo = outWidth == 1.0 ? 0.0 : double(x) * double(in - 1) / (outWidth - 1.0);
      break;
    case ResizeTransform::asymmetric:
      xo = double(x) / scale;
      break;
    case ResizeTransform::tf_crop_and_resize:
      xo = outWidth == 1.0 ? (roiEnd - roiStart) * double(in - 1) / 2.0
                           : double(x) * (roiEnd - roiStart) * double(in - 1) / (outWidth - 1.0);
      xo += roiStart * double(in - 1);
      break;
    case ResizeTransform::pytorch_half_pixel:
      xo = outWidth == 1.0 ? -0.5 : (double(x) + 0.5) / scale - 0.5;
      break;
    case ResizeTransform::half_pixel:
      xo = (double(x) + 0.5) / scale - 0.5;
      break;
    case ResizeTransform::tf_half_pixel_for_nn:
      xo = (double(x) + 0.5) / scale;
      break;
    case ResizeTransform::half_pixel_symmetric: {
      double adjustment = double(out) / outWidth;
      double center = double(in) / 2.0;
      xo = center * (1.0 - adjustment) + (double(x) + 0.5) / scale - 0.5;
      break;
    }
    }
    if (coords == ResizeTransform::tf_crop_and_resize && (xo < 0.0 || xo > double(in - 1))) {
      axis.outside[x] = true;
      continue;
    }
    // The reference takes an integral coordinate as ratio 1 from the position below it.
    double base = std::floor(xo);
    if (xo == base)
      base -= 1.0;
    double ratio = xo - base;
    SmallVector<double> coeffs;
    int64_t start = 0; // first tap relative to base
    double s = std::min(scale, 1.0);
    if (mode == Interpolation::nearest) {
      bool high;
      if (ratio == 1.0)
        high = true;
      else
        switch (nearest) {
        case NearestMode::round_prefer_floor:
          high = ratio > 0.5;
          break;
        case NearestMode::round_prefer_ceil:
          high = ratio >= 0.5;
          break;
        case NearestMode::floor:
          high = false;
          break;
        case NearestMode::ceil:
          high = true;
          break;
        }
      coeffs = {high ? 0.0 : 1.0, high ? 1.0 : 0.0};
    } else if (mode == Interpolation::linear) {
      if (antialias) { // a triangle filter stretched by 1 / scale
        start = static_cast<int64_t>(std::floor(-1.0 / s)) + 1;
        for (int64_t i = start; i < 2 - start; ++i)
          coeffs.push_back(std::clamp(1.0 - std::abs((double(i) - ratio) * s), 0.0, 1.0));
      } else {
        coeffs = {1.0 - ratio, ratio};
      }
    } else {
      double a = op.getCubicCoeffA().convertToDouble();
      if (antialias) { // Keys' kernel stretched by 1 / scale
        start = static_cast<int64_t>(std::floor(-2.0 / s)) + 1;
        for (int64_t i = start; i < 2 - start; ++i)
          coeffs.push_back(keysWeight(s * (double(i) - ratio), a));
      } else {
        start = -1;
        for (int64_t i = -1; i <= 2; ++i)
          coeffs.push_back(keysWeight(double(i) - ratio, a));
      }
    }
    if (antialias && mode != Interpolation::nearest) {
      double sum = 0.0;
      for (double c : coeffs)
        sum += c;
      for (double &c : coeffs)
        c /= sum;
    }
    int64_t first = static_cast<int64_t>(base) + start;
    if (op.getExcludeOutside()) {
      double sum = 0.0;
      for (auto [i, c] : llvm::enumerate(coeffs)) {
        int64_t index = first + (int64_t)i;
        if (index < 0 || index >= in)
          c = 0.0;
        sum += c;
      }
      for (double &c : coeffs)
        c /= sum;
    }
    for (auto [i, c] : llvm::enumerate(coeffs)) {
      int64_t index = std::clamp<int64_t>(first + (int64_t)i, 0, in - 1);
      axis.weights[x * in + index] += c;
    }
  }
  return axis;
}

struct DecomposeInterpolate : OpRewritePattern<InterpolateOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(InterpolateOp op, PatternRewriter &rewriter) const override {
    RankedTensorType xType = op.getInput().getType();
    int64_t rank = xType.getRank();
    Type et = xType.getElementType();
    ArrayRef<int64_t> axes = op.getAxes(), sizes = op.getSizes();
    ArrayRef<double> scales = op.getScales(), roi = op.getRoi();
    double extrapolation = op.getExtrapolationValue().convertToDouble();
    OpChain o(rewriter, op.getLoc());
    Value y = op.getInput();
    for (int64_t axis = rank - 1; axis >= 0; --axis) {
      int64_t in = xType.getDimSize(axis), out = sizes[axis];
      if (!llvm::is_contained(axes, axis))
        continue;
      NearestMode nearest = cast<NearestModeAttr>(op.getNearestModes()[axis]).getValue();
      ResizeAxis m =
          resizeAxis(op, nearest, in, out, scales[axis], roi[axis], roi[rank + axis]);
      bool identity = out == in && !llvm::is_contained(m.outside, true);
      for (int64_t r = 0; r < out && identity; ++r)
        for (int64_t c = 0; c < in && identity; ++c)
          identity = m.weights[r * in + c] == (r == c ? 1.0 : 0.0);
      if (identity)
        continue;
      // Transposed: [in, out], applied to the axis moved last.
      SmallVector<double> transposed(in * out);
      for (int64_t r = 0; r < out; ++r)
        for (int64_t c = 0; c < in; ++c)
          transposed[c * out + r] = m.weights[r * in + c];
      auto [perm, back] = moveAxisLast(rank, axis);
      Value moved = o.transpose(y, perm);
      Value matrix = o.floats({in, out}, et, transposed);
      Value resized = o.op<MatMulOp>(moved, matrix, TypeAttr());
      if (llvm::is_contained(m.outside, true) && extrapolation != 0.0) {
        SmallVector<double> bias;
        for (bool outside : m.outside)
          bias.push_back(outside ? extrapolation : 0.0);
        resized = o.add(resized, o.floats({out}, et, bias));
      }
      y = o.transpose(resized, back);
    }
    rewriter.replaceOp(op, y);
    return success();
  }
};

} // namespace

void mlir::ms::populateDecomposeResizePatterns(RewritePatternSet &patterns) {
  patterns.add<DecomposeInterpolate>(patterns.getContext());
}
