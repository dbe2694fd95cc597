//===- OnnxCompositeResize.cpp - Resize as ms ops -------------------------===//
//
// ONNX Resize with known scales or sizes. What ms.resize computes (nearest and linear with the
// half_pixel, align_corners, asymmetric and pytorch_half_pixel coordinates, the output size
// in * scale) becomes one ms.resize; every other combination of mode, coordinate transformation,
// antialiasing and keep_aspect_ratio_policy is a product per resized axis with an interpolation
// matrix that this file builds at import, tap for tap as ONNX's reference implementation does.
//
//===----------------------------------------------------------------------===//

#include "OnnxCompositeBuilder.h"

#include "llvm/ADT/StringSwitch.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace mlir::mie::onnx_import;
using namespace mlir::mie::onnx_import::composite;

namespace {

/// How an output coordinate maps to an input coordinate (ONNX's coordinate_transformation_mode).
enum class ResizeCoords {
  HalfPixel,
  AlignCorners,
  Asymmetric,
  PytorchHalfPixel,
  TfHalfPixelForNN,
  HalfPixelSymmetric,
  TfCropAndResize,
};

/// One resized axis, as ONNX's reference interpolates it: output position x maps to input
/// coordinate x_ori; the taps are the `taps` input positions nearest to it (preferring the lower
/// ones, clamped into the axis, as the reference's edge padding does) weighted by the mode's
/// coefficients. Built into a [out, in] matrix; `outside` marks rows that take
/// extrapolation_value (tf_crop_and_resize beyond the axis).
struct ResizeAxis {
  SmallVector<double> weights; // [out, in]
  SmallVector<bool> outside;
};

struct ResizeParams {
  ms::ResizeMode mode;
  bool cubic = false;
  ResizeCoords coords;
  ms::NearestMode nearest;
  bool antialias = false, excludeOutside = false;
  double cubicA = -0.75;
};

double keysWeight(double x, double a) {
  x = std::abs(x);
  if (x <= 1.0)
    return ((a + 2.0) * x - (a + 3.0)) * x * x + 1.0;
  if (x < 2.0)
    return ((a * x - 5.0 * a) * x + 8.0 * a) * x - 4.0 * a;
  return 0.0;
}

ResizeAxis resizeAxis(const ResizeParams &p, int64_t in, int64_t out, double scale, double roiStart,
                      double roiEnd) {
  ResizeAxis axis;
  axis.weights.assign(out * in, 0.0);
  axis.outside.assign(out, false);
  double outWidth = scale * double(in); // the reference's (float) output_width
  for (int64_t x = 0; x < out; ++x) {
    double xo = 0.0;
    switch (p.coords) {
    case ResizeCoords::AlignCorners:
      xo = outWidth == 1.0 ? 0.0 : double(x) * double(in - 1) / (outWidth - 1.0);
      break;
    case ResizeCoords::Asymmetric:
      xo = double(x) / scale;
      break;
    case ResizeCoords::TfCropAndResize:
      xo = outWidth == 1.0 ? (roiEnd - roiStart) * double(in - 1) / 2.0
                           : double(x) * (roiEnd - roiStart) * double(in - 1) / (outWidth - 1.0);
      xo += roiStart * double(in - 1);
      break;
    case ResizeCoords::PytorchHalfPixel:
      xo = outWidth == 1.0 ? -0.5 : (double(x) + 0.5) / scale - 0.5;
      break;
    case ResizeCoords::HalfPixel:
      xo = (double(x) + 0.5) / scale - 0.5;
      break;
    case ResizeCoords::TfHalfPixelForNN:
      xo = (double(x) + 0.5) / scale;
      break;
    case ResizeCoords::HalfPixelSymmetric: {
      double adjustment = double(out) / outWidth;
      double center = double(in) / 2.0;
      xo = center * (1.0 - adjustment) + (double(x) + 0.5) / scale - 0.5;
      break;
    }
    }
    if (p.coords == ResizeCoords::TfCropAndResize && (xo < 0.0 || xo > double(in - 1))) {
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
    if (p.mode == ms::ResizeMode::nearest) {
      bool high;
      if (ratio == 1.0)
        high = true;
      else
        switch (p.nearest) {
        case ms::NearestMode::round_prefer_floor:
          high = ratio > 0.5;
          break;
        case ms::NearestMode::round_prefer_ceil:
          high = ratio >= 0.5;
          break;
        case ms::NearestMode::floor:
          high = false;
          break;
        case ms::NearestMode::ceil:
          high = true;
          break;
        }
      coeffs = {high ? 0.0 : 1.0, high ? 1.0 : 0.0};
    } else if (!p.cubic) {
      if (p.antialias) { // a triangle filter stretched by 1 / scale
        start = static_cast<int64_t>(std::floor(-1.0 / s)) + 1;
        for (int64_t i = start; i < 2 - start; ++i)
          coeffs.push_back(std::clamp(1.0 - std::abs((double(i) - ratio) * s), 0.0, 1.0));
      } else {
        coeffs = {1.0 - ratio, ratio};
      }
    } else {
      if (p.antialias) { // Keys' kernel stretched by 1 / scale
        start = static_cast<int64_t>(std::floor(-2.0 / s)) + 1;
        for (int64_t i = start; i < 2 - start; ++i)
          coeffs.push_back(keysWeight(s * (double(i) - ratio), p.cubicA));
      } else {
        start = -1;
        for (int64_t i = -1; i <= 2; ++i)
          coeffs.push_back(keysWeight(double(i) - ratio, p.cubicA));
      }
    }
    if (p.antialias && p.mode != ms::ResizeMode::nearest) {
      double sum = 0.0;
      for (double c : coeffs)
        sum += c;
      for (double &c : coeffs)
        c /= sum;
    }
    int64_t first = static_cast<int64_t>(base) + start;
    if (p.excludeOutside) {
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

/// Largest [out, in] interpolation matrix Resize builds for one axis.
constexpr int64_t kMaxResizeMatrixElements = 1 << 22;

/// The resize of x (xType) to `sizes` over `axes` (normalized), with `scales` per dim, the roi
/// of tf_crop_and_resize and the nearest rounding per dim: one ms.resize where the ratios are the
/// scales and ms.resize has the coordinate mode, else a product by each resized axis's
/// interpolation matrix.
LogicalResult emitResize(NodeImporter &n, RankedTensorType xType, const ResizeParams &p,
                         ArrayRef<int64_t> axes, ArrayRef<int64_t> sizes, ArrayRef<double> scales,
                         ArrayRef<double> roiStart, ArrayRef<double> roiEnd, double extrapolation,
                         ArrayRef<ms::NearestMode> nearest) {
  int64_t rank = xType.getRank();
  // ms.resize covers nearest and linear with the four common coordinate modes when out / in is the
  // scale and no antialiasing filter widens the taps.
  std::optional<ms::CoordinateMode> msCoords;
  switch (p.coords) {
  case ResizeCoords::HalfPixel:
    msCoords = ms::CoordinateMode::half_pixel;
    break;
  case ResizeCoords::AlignCorners:
    msCoords = ms::CoordinateMode::align_corners;
    break;
  case ResizeCoords::Asymmetric:
    msCoords = ms::CoordinateMode::asymmetric;
    break;
  case ResizeCoords::PytorchHalfPixel:
    msCoords = ms::CoordinateMode::pytorch_half_pixel;
    break;
  default:
    break;
  }
  bool direct = msCoords && !p.cubic &&
                llvm::all_equal(llvm::map_range(axes, [&](int64_t a) { return nearest[a]; }));
  for (int64_t axis = 0; axis < rank; ++axis) {
    double in = double(xType.getDimSize(axis)), out = double(sizes[axis]);
    direct &= std::abs(in * scales[axis] - out) <= 1e-6 * std::max(1.0, out);
    direct &= !(p.antialias && sizes[axis] < xType.getDimSize(axis));
  }
  Ops o(n);
  if (direct)
    return finish(n, o,
                  o.op<ms::ResizeOp>(o.in(0), sizes, p.mode, *msCoords,
                                     axes.empty() ? p.nearest : nearest[axes.front()]));

  Type et = xType.getElementType();
  Value y = o.in(0);
  for (int64_t axis = rank - 1; axis >= 0 && !o.failed(); --axis) {
    int64_t in = xType.getDimSize(axis), out = sizes[axis];
    if (!llvm::is_contained(axes, axis))
      continue;
    if (out * in > kMaxResizeMatrixElements)
      return n.unsupportedFeature() << "resizing an axis of " << in << " to " << out
                                    << " in this mode is larger than its interpolation matrix "
                                       "may be";
    ResizeParams axisParams = p;
    axisParams.nearest = nearest[axis];
    ResizeAxis m = resizeAxis(axisParams, in, out, scales[axis], roiStart[axis], roiEnd[axis]);
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
    SmallVector<int64_t> perm;
    for (int64_t d = 0; d < rank; ++d)
      if (d != axis)
        perm.push_back(d);
    perm.push_back(axis);
    SmallVector<int64_t> back(rank);
    for (int64_t d = 0; d < rank; ++d)
      back[perm[d]] = d;
    Value moved = o.transpose(y, perm);
    Value matrix = o.constant(KnownTensor::fromFloats({in, out}, et, transposed));
    Value resized = o.op<ms::MatMulOp>(moved, matrix, TypeAttr());
    if (llvm::is_contained(m.outside, true) && extrapolation != 0.0) {
      SmallVector<double> bias;
      for (bool outside : m.outside)
        bias.push_back(outside ? extrapolation : 0.0);
      resized = o.add(resized, o.constant(KnownTensor::fromFloats({out}, et, bias)));
    }
    y = o.transpose(resized, back);
  }
  return finish(n, o, y);
}

/// Resize-10: inputs X and scales, nearest or linear, output dims floor(dim * scale) with
/// asymmetric coordinates (x_in = x_out / scale). ONNX leaves its nearest rounding unwritten; this
/// takes onnxruntime's, the runtime such models were exported for: down when an axis is enlarged,
/// up when it is shrunk (per axis).
LogicalResult importResize10(NodeImporter &n) {
  std::string modeName = n.getString("mode", "nearest");
  if (n.hasFailed())
    return failure();
  ResizeParams p;
  p.coords = ResizeCoords::Asymmetric;
  p.nearest = ms::NearestMode::floor;
  if (modeName == "nearest")
    p.mode = ms::ResizeMode::nearest;
  else if (modeName == "linear")
    p.mode = ms::ResizeMode::linear;
  else
    return n.error() << "mode '" << modeName << "' must be nearest or linear (opset 10)";
  RankedTensorType xType = n.inputType(0);
  int64_t rank = xType.getRank();
  if (!isa<FloatType>(xType.getElementType()))
    return n.unsupportedFeature() << "resizing " << xType.getElementType()
                                  << " data is not supported (float types only)";
  if (!n.hasInput(1))
    return n.error() << "input 'scales' is required";
  FailureOr<KnownTensor> known = constantInput(n, 1, "scales");
  if (failed(known))
    return failure();
  if (known->numElements() != rank)
    return n.error() << "expects " << rank << " scales for " << xType << ", got "
                     << known->numElements();
  SmallVector<int64_t> sizes(xType.getShape()), axes;
  SmallVector<double> scales(rank, 1.0), roiStart(rank, 0.0), roiEnd(rank, 1.0);
  SmallVector<ms::NearestMode> nearest(rank, ms::NearestMode::floor);
  for (int64_t axis = 0; axis < rank; ++axis) {
    double scale = known->valueAt(axis);
    int64_t in = xType.getDimSize(axis);
    if (!(scale > 0.0) || !std::isfinite(scale))
      return n.error() << "scales must be positive and finite, got " << scale;
    if (scale == 1.0)
      continue;
    if (in == 0)
      return n.error() << "cannot resize dim " << axis << " of size " << in;
    std::optional<int64_t> size = sizeFromDouble(std::floor(double(in) * scale));
    if (!size || *size < 1)
      return n.error() << "resized dimension " << in << " x " << scale << " is not valid";
    sizes[axis] = *size;
    scales[axis] = scale;
    nearest[axis] = scale < 1.0 ? ms::NearestMode::ceil : ms::NearestMode::floor;
    axes.push_back(axis);
  }
  if (!isReasonableShape(sizes))
    return n.error() << "resized shape " << listToString(sizes) << " is too large";
  return emitResize(n, xType, p, axes, sizes, scales, roiStart, roiEnd, /*extrapolation=*/0.0,
                    nearest);
}

/// Resize (opsets 11+): every mode (nearest, linear, cubic with cubic_coeff_a and
/// exclude_outside, antialiasing), coordinate transformation (including tf_crop_and_resize with
/// its roi and extrapolation_value, tf_half_pixel_for_nn and half_pixel_symmetric) and
/// keep_aspect_ratio_policy, for known scales or sizes (over `axes` from opset 18). Nearest and
/// linear resizes whose output / input ratio is the scale become one ms.resize; the others are
/// separable, so each resized axis becomes a product with its [out, in] interpolation matrix,
/// built at import exactly as ONNX's reference computes the taps (exact in double, then rounded
/// to the element type).
LogicalResult importResize(NodeImporter &n) {
  std::string modeName = n.getString("mode", "nearest");
  std::string coordName = n.getString("coordinate_transformation_mode", "half_pixel");
  std::string nearestName = n.getString("nearest_mode", "round_prefer_floor");
  std::string policy = n.getString("keep_aspect_ratio_policy", "stretch");
  ResizeParams p;
  p.antialias = n.getInt("antialias", 0) != 0;
  p.excludeOutside = n.getInt("exclude_outside", 0) != 0;
  p.cubicA = n.getFloat("cubic_coeff_a", -0.75);
  double extrapolation = n.getFloat("extrapolation_value", 0.0);
  std::optional<SmallVector<int64_t>> axesAttr = n.getInts("axes");
  if (n.hasFailed())
    return failure();
  if (n.opset() < 11)
    return importResize10(n);
  if (modeName == "nearest")
    p.mode = ms::ResizeMode::nearest;
  else if (modeName == "linear")
    p.mode = ms::ResizeMode::linear;
  else if (modeName == "cubic")
    p.mode = ms::ResizeMode::linear, p.cubic = true;
  else
    return n.error() << "mode '" << modeName << "' must be nearest, linear or cubic";
  std::optional<ResizeCoords> coords =
      llvm::StringSwitch<std::optional<ResizeCoords>>(coordName)
          .Case("half_pixel", ResizeCoords::HalfPixel)
          .Case("align_corners", ResizeCoords::AlignCorners)
          .Case("asymmetric", ResizeCoords::Asymmetric)
          .Case("pytorch_half_pixel", ResizeCoords::PytorchHalfPixel)
          .Case("tf_half_pixel_for_nn", ResizeCoords::TfHalfPixelForNN)
          .Case("half_pixel_symmetric", ResizeCoords::HalfPixelSymmetric)
          .Case("tf_crop_and_resize", ResizeCoords::TfCropAndResize)
          .Default(std::nullopt);
  if (!coords)
    return n.error() << "coordinate_transformation_mode '" << coordName
                     << "' is not an ONNX coordinate transformation";
  p.coords = *coords;
  std::optional<ms::NearestMode> nearestMode =
      llvm::StringSwitch<std::optional<ms::NearestMode>>(nearestName)
          .Case("round_prefer_floor", ms::NearestMode::round_prefer_floor)
          .Case("round_prefer_ceil", ms::NearestMode::round_prefer_ceil)
          .Case("floor", ms::NearestMode::floor)
          .Case("ceil", ms::NearestMode::ceil)
          .Default(std::nullopt);
  if (!nearestMode)
    return n.error() << "nearest_mode '" << nearestName << "' is not an ONNX nearest mode";
  p.nearest = *nearestMode;
  if (policy != "stretch" && policy != "not_larger" && policy != "not_smaller")
    return n.error() << "keep_aspect_ratio_policy '" << policy
                     << "' must be stretch, not_larger or not_smaller";
  if (p.antialias && p.mode == ms::ResizeMode::nearest)
    return n.error() << "antialias is defined for linear and cubic modes only";

  RankedTensorType xType = n.inputType(0);
  int64_t rank = xType.getRank();
  if (!isa<FloatType>(xType.getElementType()))
    return n.unsupportedFeature() << "resizing " << xType.getElementType()
                                  << " data is not supported (float types only)";
  SmallVector<int64_t> axes = axesAttr ? *axesAttr : iota(0, rank);
  FailureOr<SmallVector<int64_t>> normAxes = normalizeAxes(n, axes, rank);
  if (failed(normAxes))
    return failure();
  int64_t count = normAxes->size();
  bool haveSizes = n.hasInput(3) && n.inputType(3).getNumElements() > 0;
  bool haveScales = n.hasInput(2) && n.inputType(2).getNumElements() > 0;
  if (haveSizes == haveScales)
    return n.error() << "expects exactly one of scales and sizes";
  if (policy != "stretch" && !haveSizes)
    return n.error() << "keep_aspect_ratio_policy '" << policy << "' needs sizes";
  // The region of interest of tf_crop_and_resize: starts then ends, normalized, per axis.
  SmallVector<double> roiStart(rank, 0.0), roiEnd(rank, 1.0);
  if (p.coords == ResizeCoords::TfCropAndResize) {
    FailureOr<KnownTensor> roi = constantInput(n, 1, "roi");
    if (failed(roi))
      return failure();
    if (roi->numElements() != 2 * count)
      return n.error() << "expects a roi of " << 2 * count << " values, got "
                       << roi->numElements();
    for (auto [k, axis] : llvm::enumerate(*normAxes)) {
      roiStart[axis] = roi->valueAt(k);
      roiEnd[axis] = roi->valueAt(count + k);
      // Every source coordinate is computed from the roi: a NaN or infinite bound has no pixel.
      if (!std::isfinite(roiStart[axis]) || !std::isfinite(roiEnd[axis]))
        return n.error() << "roi values must be finite, got " << roiStart[axis] << " and "
                         << roiEnd[axis];
    }
  }
  FailureOr<KnownTensor> known =
      constantInput(n, haveSizes ? 3 : 2, haveSizes ? "sizes" : "scales");
  if (failed(known))
    return failure();
  if (known->numElements() != count)
    return n.error() << "expects " << count << " " << (haveSizes ? "sizes" : "scales") << ", got "
                     << known->numElements();

  SmallVector<int64_t> sizes(xType.getShape());
  SmallVector<double> scales(rank, 1.0);
  for (auto [k, axis] : llvm::enumerate(*normAxes)) {
    int64_t in = xType.getDimSize(axis);
    // An empty dim has no pixel to interpolate from (and its scale would divide by zero).
    if (in == 0)
      return n.error() << "cannot resize dim " << axis << " of size " << in;
    if (haveSizes) {
      int64_t size = static_cast<int64_t>(known->valueAt(k));
      if (size < 1)
        return n.error() << "sizes must be positive, got " << size;
      sizes[axis] = size;
      scales[axis] = double(size) / double(in);
    } else {
      double scale = known->valueAt(k);
      if (!(scale > 0.0) || !std::isfinite(scale))
        return n.error() << "scales must be positive and finite, got " << scale;
      std::optional<int64_t> size = sizeFromDouble(std::floor(double(in) * scale));
      if (!size || *size < 1)
        return n.error() << "resized dimension " << in << " x " << scale << " is not valid";
      sizes[axis] = *size;
      scales[axis] = scale;
    }
  }
  if (policy != "stretch") {
    double scale = scales[(*normAxes)[0]];
    for (int64_t axis : *normAxes)
      scale = policy == "not_larger" ? std::min(scale, scales[axis])
                                     : std::max(scale, scales[axis]);
    for (int64_t axis : *normAxes) {
      scales[axis] = scale;
      sizes[axis] = static_cast<int64_t>(scale * double(xType.getDimSize(axis)) + 0.5);
      if (sizes[axis] < 1)
        return n.error() << "resized dimension of " << xType.getDimSize(axis) << " is empty";
    }
  }
  if (!isReasonableShape(sizes))
    return n.error() << "resized shape " << listToString(sizes) << " is too large";

  return emitResize(n, xType, p, *normAxes, sizes, scales, roiStart, roiEnd, extrapolation,
                    SmallVector<ms::NearestMode>(rank, p.nearest));
}

} // namespace

void mlir::mie::onnx_import::composite::registerCompositeResizeOps(OnnxOpTable &table) {
  table["Resize"] = {importResize, 1, 4, 10};
}
