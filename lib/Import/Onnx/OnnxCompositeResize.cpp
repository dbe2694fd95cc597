//===- OnnxCompositeResize.cpp - Resize as ms ops -------------------------===//
//
// ONNX Resize with known scales or sizes. What ms.resize computes (nearest and linear with the
// half_pixel, align_corners, asymmetric and pytorch_half_pixel coordinates, the output size
// in * scale) becomes one ms.resize; every other combination of mode, coordinate transformation,
// antialiasing and keep_aspect_ratio_policy becomes one ms.interpolate, which `ms-decompose` runs
// as a product per resized axis with an interpolation matrix built tap for tap as ONNX's reference
// implementation does (dialects/ms/Transforms/DecomposeResizePatterns.cpp).
//
//===----------------------------------------------------------------------===//

#include "OnnxCompositeBuilder.h"

#include "dialects/ms/IR/MsShapeUtils.h"

#include "llvm/ADT/StringSwitch.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace mlir::mie::onnx_import;
using namespace mlir::mie::onnx_import::composite;

namespace {

/// Largest [out, in] interpolation matrix Resize builds for one axis.
constexpr int64_t kMaxResizeMatrixElements = 1 << 22;

/// The resize of x (xType) to `sizes` over `axes` (normalized), with `scales` per dim, the roi
/// of tf_crop_and_resize and the nearest rounding per dim: one ms.resize where the ratios are the
/// scales and ms.resize has the coordinate mode, else one ms.interpolate.
LogicalResult emitResize(NodeImporter &n, RankedTensorType xType, const ResizeParams &p,
                         ArrayRef<int64_t> axes, ArrayRef<int64_t> sizes, ArrayRef<double> scales,
                         ArrayRef<double> roiStart, ArrayRef<double> roiEnd, double extrapolation,
                         ArrayRef<ms::NearestMode> nearest) {
  int64_t rank = xType.getRank();
  // ms.resize covers nearest and linear with the four common coordinate modes when out / in is the
  // scale and no antialiasing filter widens the taps.
  std::optional<ms::CoordinateMode> msCoords;
  if (p.coords <= ms::ResizeTransform::pytorch_half_pixel)
    msCoords = static_cast<ms::CoordinateMode>(p.coords);
  bool direct = msCoords && p.mode != ms::Interpolation::cubic &&
                llvm::all_equal(llvm::map_range(axes, [&](int64_t a) { return nearest[a]; }));
  for (int64_t axis = 0; axis < rank; ++axis) {
    double in = double(xType.getDimSize(axis)), out = double(sizes[axis]);
    direct &= std::abs(in * scales[axis] - out) <= 1e-6 * std::max(1.0, out);
    direct &= !(p.antialias && sizes[axis] < xType.getDimSize(axis));
  }
  Ops o(n);
  if (direct)
    return finish(n, o,
                  o.op<ms::ResizeOp>(o.in(0), sizes, static_cast<ms::ResizeMode>(p.mode),
                                     *msCoords, axes.empty() ? p.nearest : nearest[axes.front()]));

  // The interpolation matrices are built at compile time for static shapes.
  if (!xType.hasStaticShape())
    return n.unsupportedFeature() << "this resize of " << xType
                                  << " (its mode, coordinate transformation or antialiasing) "
                                     "has no code for symbolic dims yet; ms.resize's nearest and "
                                     "linear modes do";
  for (int64_t axis = rank - 1; axis >= 0; --axis) {
    int64_t in = xType.getDimSize(axis), out = sizes[axis];
    if (llvm::is_contained(axes, axis) && out * in > kMaxResizeMatrixElements)
      return n.unsupportedFeature() << "resizing an axis of " << in << " to " << out
                                    << " in this mode is larger than its interpolation matrix "
                                       "may be";
  }
  SmallVector<double> roi(roiStart);
  llvm::append_range(roi, roiEnd);
  SmallVector<Attribute> nearestModes;
  for (ms::NearestMode mode : nearest)
    nearestModes.push_back(ms::NearestModeAttr::get(n.context(), mode));
  SmallVector<int64_t> sortedAxes(axes);
  llvm::sort(sortedAxes);
  return finish(n, o,
                o.op<ms::InterpolateOp>(o.in(0), sizes, scales, sortedAxes, p.mode, p.coords,
                                        n.builder().getArrayAttr(nearestModes), roi,
                                        APFloat(p.cubicA), APFloat(extrapolation), p.antialias,
                                        p.excludeOutside));
}

/// Whether the static sizes of a resize bound a tensor (kept symbolic dims are the input's).
bool isReasonableResize(ArrayRef<int64_t> sizes) {
  return isReasonableShape(llvm::to_vector(
      llvm::make_filter_range(sizes, [](int64_t size) { return !ShapedType::isDynamic(size); })));
}

/// The report for a resize that changes a symbolic dim (only ones that keep it have code).
LogicalResult resizesSymbolicDim(NodeImporter &n, RankedTensorType xType, int64_t axis) {
  return n.unsupportedFeature()
         << "resizing symbolic dim " << axis << " of " << xType
         << " has no code for every shape yet (size its symbols: --input-shape)";
}

/// floor(in * scale): dim `axis` (of `in` elements) resized by `scale`, which must be positive
/// and finite.
FailureOr<int64_t> scaledSize(NodeImporter &n, int64_t axis, int64_t in, double scale) {
  if (!(scale > 0.0) || !std::isfinite(scale))
    return n.error() << "scales must be positive and finite, got " << scale;
  // An empty dim has no pixel to interpolate from (and its scale would divide by zero).
  if (in == 0)
    return n.error() << "cannot resize dim " << axis << " of size " << in;
  std::optional<int64_t> size = sizeFromDouble(std::floor(double(in) * scale));
  if (!size || *size < 1)
    return n.error() << "resized dimension " << in << " x " << scale << " is not valid";
  return *size;
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
  p.coords = ms::ResizeTransform::asymmetric;
  p.nearest = ms::NearestMode::floor;
  std::optional<ms::Interpolation> mode = ms::symbolizeInterpolation(modeName);
  if (!mode || *mode == ms::Interpolation::cubic)
    return n.error() << "mode '" << modeName << "' must be nearest or linear (opset 10)";
  p.mode = *mode;
  RankedTensorType xType = n.inputType(0);
  int64_t rank = xType.getRank();
  if (!n.hasInput(1))
    return n.error() << "input 'scales' is required";
  if (!n.constantData(1)) {
    p.nearestBelowOne = ms::NearestMode::ceil;
    FailureOr<bool> runTime = resizeByRunTimeScales(n, p, iota(0, rank), 1);
    if (failed(runTime) || *runTime)
      return success(succeeded(runTime));
  }
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
    if (scale == 1.0)
      continue;
    if (xType.isDynamicDim(axis))
      return resizesSymbolicDim(n, xType, axis);
    FailureOr<int64_t> size = scaledSize(n, axis, xType.getDimSize(axis), scale);
    if (failed(size))
      return failure();
    sizes[axis] = *size;
    scales[axis] = scale;
    nearest[axis] = scale < 1.0 ? ms::NearestMode::ceil : ms::NearestMode::floor;
    axes.push_back(axis);
  }
  if (!isReasonableResize(sizes))
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
  if (!isa<FloatType>(n.inputType(0).getElementType()))
    return n.unsupportedFeature() << "resizing " << n.inputType(0).getElementType()
                                  << " data is not supported (float types only)";
  if (n.opset() < 11)
    return importResize10(n);
  std::optional<ms::Interpolation> mode = ms::symbolizeInterpolation(modeName);
  if (!mode)
    return n.error() << "mode '" << modeName << "' must be nearest, linear or cubic";
  p.mode = *mode;
  std::optional<ms::ResizeTransform> coords = ms::symbolizeResizeTransform(coordName);
  if (!coords)
    return n.error() << "coordinate_transformation_mode '" << coordName
                     << "' is not an ONNX coordinate transformation";
  p.coords = *coords;
  std::optional<ms::NearestMode> nearestMode = ms::symbolizeNearestMode(nearestName);
  if (!nearestMode)
    return n.error() << "nearest_mode '" << nearestName << "' is not an ONNX nearest mode";
  p.nearest = *nearestMode;
  if (policy != "stretch" && policy != "not_larger" && policy != "not_smaller")
    return n.error() << "keep_aspect_ratio_policy '" << policy
                     << "' must be stretch, not_larger or not_smaller";
  if (p.antialias && p.mode == ms::Interpolation::nearest)
    return n.error() << "antialias is defined for linear and cubic modes only";

  RankedTensorType xType = n.inputType(0);
  int64_t rank = xType.getRank();
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
  if (p.coords == ms::ResizeTransform::tf_crop_and_resize) {
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
  // Sizes computed from symbolic dims: constants, and the input's own dims where they keep them
  // (kDynamic; the size of another tensor's dim when both are the same symbol). Sizes given as
  // a graph input's values are the declared output's, below.
  std::optional<SmallVector<int64_t>> symbolicSizes;
  if (haveSizes && hasSymbolicElements(n, 3) && !readsValueSymbols(n, 3)) {
    if (policy != "stretch")
      return n.unsupportedFeature() << "keep_aspect_ratio_policy '" << policy
                                    << "' with sizes computed from symbolic dims";
    FailureOr<SmallVector<int64_t>> sizes = sizesKeepingSymbolicDims(n, 3, *normAxes);
    if (failed(sizes))
      return failure();
    symbolicSizes = std::move(*sizes);
  }
  // Sizes given as a graph input: those of the declared output, which the runtime checks.
  std::optional<SmallVector<int64_t>> declared = n.declaredOutputShape(0);
  std::optional<KnownTensor> declaredSizes;
  if (!symbolicSizes && haveSizes && policy == "stretch" && n.hasTrackedRanges(3) && declared &&
      int64_t(declared->size()) == rank) {
    SmallVector<int64_t> values;
    for (int64_t axis : *normAxes)
      values.push_back((*declared)[axis]);
    FailureOr<bool> pinned = pinValueInput(n, 3, values);
    if (failed(pinned))
      return failure();
    if (*pinned && llvm::all_of(values, [](int64_t v) { return v >= 0; }))
      declaredSizes = KnownTensor::fromInts({count}, n.inputType(3).getElementType(), values);
  }
  if (!haveSizes && !n.constantData(2)) {
    FailureOr<bool> runTime = resizeByRunTimeScales(n, p, *normAxes, 2);
    if (failed(runTime) || *runTime)
      return success(succeeded(runTime));
  }
  std::optional<KnownTensor> known;
  if (!symbolicSizes) {
    FailureOr<KnownTensor> given =
        declaredSizes ? FailureOr<KnownTensor>(*declaredSizes)
                      : constantInput(n, haveSizes ? 3 : 2, haveSizes ? "sizes" : "scales");
    if (failed(given))
      return failure();
    if (given->numElements() != count)
      return n.error() << "expects " << count << " " << (haveSizes ? "sizes" : "scales") << ", got "
                       << given->numElements();
    known = std::move(*given);
  }

  SmallVector<int64_t> sizes(xType.getShape());
  SmallVector<double> scales(rank, 1.0);
  for (auto [k, axis] : llvm::enumerate(*normAxes)) {
    int64_t in = xType.getDimSize(axis);
    if (in == 0)
      return n.error() << "cannot resize dim " << axis << " of size " << in;
    // A symbolic dim is kept: by its own size, or by a scale of exactly 1.
    if (ShapedType::isDynamic(in)) {
      bool kept = symbolicSizes ? ShapedType::isDynamic((*symbolicSizes)[k])
                                : !haveSizes && known->valueAt(k) == 1.0;
      if (!kept)
        return resizesSymbolicDim(n, xType, axis);
      continue;
    }
    if (haveSizes) {
      int64_t size = symbolicSizes ? (*symbolicSizes)[k] : static_cast<int64_t>(known->valueAt(k));
      if (size < 1)
        return n.error() << "sizes must be positive, got " << size;
      sizes[axis] = size;
      scales[axis] = double(size) / double(in);
    } else {
      FailureOr<int64_t> size = scaledSize(n, axis, in, known->valueAt(k));
      if (failed(size))
        return failure();
      sizes[axis] = *size;
      scales[axis] = known->valueAt(k);
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
  if (!isReasonableResize(sizes))
    return n.error() << "resized shape " << listToString(sizes) << " is too large";

  return emitResize(n, xType, p, *normAxes, sizes, scales, roiStart, roiEnd, extrapolation,
                    SmallVector<ms::NearestMode>(rank, p.nearest));
}

} // namespace

void mlir::mie::onnx_import::composite::registerCompositeResizeOps(OnnxOpTable &table) {
  table["Resize"] = {importResize, 1, 4, 10};
}

/// Each resized axis is a product with its interpolation matrix, built at run time from the
/// axis's scale by the taps ms-decompose builds at compile time for known scales
/// (DecomposeResizePatterns.cpp; in f64, then the element type), behind an ms.check that every
/// floor(in * scale) is the declared extent.
FailureOr<bool> mlir::mie::onnx_import::composite::resizeByRunTimeScales(NodeImporter &n,
                                                                         const ResizeParams &p,
                                                                         ArrayRef<int64_t> axes,
                                                                         unsigned scalesInput) {
  RankedTensorType xType = n.inputType(0);
  int64_t rank = xType.getRank();
  std::optional<SmallVector<int64_t>> out = declaredStaticShape(n, rank);
  RankedTensorType scalesType = n.inputType(scalesInput);
  if (!out || !xType.hasStaticShape() || p.antialias ||
      p.coords == ms::ResizeTransform::tf_crop_and_resize)
    return false;
  if (scalesType.getRank() != 1 || scalesType.getDimSize(0) != int64_t(axes.size()) ||
      !isa<FloatType>(scalesType.getElementType()))
    return n.error() << "expects " << axes.size() << " float scales, got " << scalesType;
  for (int64_t axis = 0; axis < rank; ++axis) {
    int64_t in = xType.getDimSize(axis), size = (*out)[axis];
    if (!llvm::is_contained(axes, axis) && size != in)
      return n.error() << "declares " << size << " for dim " << axis << " of " << in
                       << ", which is not resized";
    if (llvm::is_contained(axes, axis) && in == 0)
      return n.error() << "cannot resize dim " << axis << " of size " << in;
    if (llvm::is_contained(axes, axis) && size * in > kMaxResizeMatrixElements)
      return n.unsupportedFeature() << "resizing an axis of " << in << " to " << size
                                    << " by a run-time scale is larger than its interpolation "
                                       "matrix may be";
  }
  Ops o(n);
  Type f64 = n.builder().getF64Type(), i64 = n.builder().getI64Type();
  Type et = xType.getElementType();
  auto c = [&](double v) { return o.scalar(f64, v); };
  auto lt = [&](Value a, Value b) { return o.compare(ms::ComparePredicate::lt, a, b); };
  auto eq = [&](Value a, Value b) { return o.compare(ms::ComparePredicate::eq, a, b); };
  auto floor = [&](Value v) { return o.op<ms::FloorOp>(v); };
  Value scales = o.cast(o.in(scalesInput), f64);
  // The scale of each resized axis, and whether all of them give the declared extents.
  SmallVector<Value> scaleOf(rank);
  Value ok;
  for (auto [k, axis] : llvm::enumerate(axes)) {
    Value s = o.op<ms::GatherOp>(scales, o.scalar(i64, double(k)), uint64_t(0));
    scaleOf[axis] = s;
    Value size = floor(o.mul(s, c(double(xType.getDimSize(axis)))));
    Value good = o.op<ms::AndOp>(o.compare(ms::ComparePredicate::gt, s, c(0.0)),
                                 eq(size, c(double((*out)[axis]))));
    ok = ok ? o.op<ms::AndOp>(ok, good) : good;
  }
  std::string message = checkedNode(n) + ": the run's scales do not give the output shape " +
                        listToString(*out) + " the model declares";
  Value y = o.in(0);
  bool checked = false;
  for (int64_t axis = rank - 1; axis >= 0; --axis) {
    int64_t in = xType.getDimSize(axis), size = (*out)[axis];
    // A one-element axis resized to one element is itself whatever the taps (they all clamp
    // to it, and the weights of every mode sum to 1).
    if (!scaleOf[axis] || (in == 1 && size == 1))
      continue;
    Value s = scaleOf[axis];
    SmallVector<double> positions;
    for (int64_t x = 0; x < size; ++x)
      positions.push_back(double(x));
    Value x = o.constant(KnownTensor::fromFloats({size}, f64, positions));
    Value outWidth = o.mul(s, c(double(in)));
    Value center = o.sub(o.div(o.add(x, c(0.5)), s), c(0.5)); // half_pixel
    Value xo;
    switch (p.coords) {
    case ms::ResizeTransform::align_corners:
      xo = o.where(eq(outWidth, c(1.0)), c(0.0),
                   o.div(o.mul(x, c(double(in - 1))), o.sub(outWidth, c(1.0))));
      break;
    case ms::ResizeTransform::asymmetric:
      xo = o.div(x, s);
      break;
    case ms::ResizeTransform::pytorch_half_pixel:
      xo = o.where(eq(outWidth, c(1.0)), c(-0.5), center);
      break;
    case ms::ResizeTransform::half_pixel:
      xo = center;
      break;
    case ms::ResizeTransform::tf_half_pixel_for_nn:
      xo = o.div(o.add(x, c(0.5)), s);
      break;
    case ms::ResizeTransform::half_pixel_symmetric: {
      Value adjustment = o.div(c(double(size)), outWidth);
      xo = o.add(o.mul(c(double(in) / 2.0), o.sub(c(1.0), adjustment)), center);
      break;
    }
    case ms::ResizeTransform::tf_crop_and_resize:
      llvm_unreachable("refused above");
    }
    // The reference takes an integral coordinate as ratio 1 from the position below it.
    Value base = floor(xo);
    base = o.where(eq(xo, base), o.sub(base, c(1.0)), base);
    Value ratio = o.sub(xo, base);
    SmallVector<Value> coeffs;
    int64_t start = 0;
    if (p.mode == ms::Interpolation::nearest) {
      auto rounds = [&](ms::NearestMode mode) -> Value {
        switch (mode) {
        case ms::NearestMode::round_prefer_floor:
          return o.compare(ms::ComparePredicate::gt, ratio, c(0.5));
        case ms::NearestMode::round_prefer_ceil:
          return o.compare(ms::ComparePredicate::ge, ratio, c(0.5));
        case ms::NearestMode::floor:
        case ms::NearestMode::ceil:
          return o.constant(KnownTensor::splatOf({size}, n.builder().getI1Type(),
                                                 mode == ms::NearestMode::ceil ? 1.0 : 0.0));
        }
        llvm_unreachable("nearest mode");
      };
      Value high = rounds(p.nearest);
      if (p.nearestBelowOne)
        high = o.where(lt(s, c(1.0)), rounds(*p.nearestBelowOne), high);
      high = o.op<ms::OrOp>(high, eq(ratio, c(1.0)));
      coeffs = {o.where(high, c(0.0), c(1.0)), o.where(high, c(1.0), c(0.0))};
    } else if (p.mode == ms::Interpolation::linear) {
      coeffs = {o.sub(c(1.0), ratio), ratio};
    } else { // Keys' cubic kernel over the four taps around the coordinate
      double a = p.cubicA;
      start = -1;
      for (int64_t i = -1; i <= 2; ++i) {
        Value t = o.op<ms::AbsOp>(o.sub(c(double(i)), ratio));
        Value near = o.add(o.mul(o.mul(o.sub(o.mul(c(a + 2.0), t), c(a + 3.0)), t), t), c(1.0));
        Value far = o.sub(o.mul(o.add(o.mul(o.sub(o.mul(c(a), t), c(5.0 * a)), t), c(8.0 * a)), t),
                          c(4.0 * a));
        coeffs.push_back(o.where(o.compare(ms::ComparePredicate::le, t, c(1.0)), near,
                                 o.where(lt(t, c(2.0)), far, c(0.0))));
      }
    }
    Value first = o.add(base, c(double(start)));
    if (p.excludeOutside) {
      Value sum = c(0.0);
      for (size_t i = 0; i < coeffs.size(); ++i) {
        Value index = o.add(first, c(double(i)));
        Value inside = o.op<ms::AndOp>(o.compare(ms::ComparePredicate::ge, index, c(0.0)),
                                       lt(index, c(double(in))));
        coeffs[i] = o.where(inside, coeffs[i], c(0.0));
        sum = o.add(sum, coeffs[i]);
      }
      for (Value &coeff : coeffs)
        coeff = o.div(coeff, sum);
    }
    // The transposed matrix [in, out]: column x holds tap i's coefficient at its clamped index.
    SmallVector<int64_t> rows = iota(0, in);
    Value inputIndex = o.reshape(o.constant(KnownTensor::fromInts({in}, i64, rows)), {in, 1});
    Value matrix;
    for (auto [i, coeff] : llvm::enumerate(coeffs)) {
      Value index = o.cast(o.add(first, c(double(i))), i64);
      index = o.op<ms::MinOp>(o.op<ms::MaxOp>(index, o.scalar(i64, 0.0)),
                              o.scalar(i64, double(in - 1)));
      Value hits = o.cast(eq(inputIndex, o.reshape(index, {1, size})), f64);
      Value weighted = o.mul(hits, o.reshape(coeff, {1, size}));
      matrix = matrix ? o.add(matrix, weighted) : weighted;
    }
    matrix = o.cast(matrix, et);
    if (!checked) {
      matrix = o.op<ms::CheckOp>(matrix, ok, message);
      checked = true;
    }
    auto [perm, back] = ms::moveAxisLast(rank, axis);
    Value resized = o.op<ms::MatMulOp>(o.transpose(y, perm), matrix, TypeAttr());
    y = o.transpose(resized, back);
  }
  if (!checked && ok) // only one-element axes: the check guards the data itself
    y = o.op<ms::CheckOp>(y, ok, message);
  if (failed(finish(n, o, y)))
    return failure();
  return true;
}
