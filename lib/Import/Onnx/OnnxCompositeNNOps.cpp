//===- OnnxCompositeNNOps.cpp - Upsample, LRN, ConvTranspose, Einsum ------===//
//
// NN ops imported as ms ops that ms-decompose expands or one-op mappings: Upsample as ms.resize,
// LRN as ms.lrn, ConvTranspose as ms.conv_transpose (which resolves auto_pad and output_shape),
// Einsum as ms.einsum (ONNX's equation), MaxPool's indices as ms.max_pool_indices.
//
//===----------------------------------------------------------------------===//

#include "OnnxCompositeBuilder.h"

#include <cmath>

using namespace mlir;
using namespace mlir::mie::onnx_import;
using namespace mlir::mie::onnx_import::composite;

namespace {

//===----------------------------------------------------------------------===//
// Upsample, LRN, ConvTranspose
//===----------------------------------------------------------------------===//

/// Upsample (opsets 7-9, and the experimental nearest form of opsets 1-6): an ms.resize to
/// floor(dim * scale) with Upsample's asymmetric coordinates (nearest rounds down).
LogicalResult importUpsample(NodeImporter &n) {
  std::string mode = n.getString("mode", "nearest");
  if (n.hasFailed())
    return failure();
  SmallVector<double> scales;
  if (n.opset() < 7) {
    // The experimental Upsample-1: NCHW, height_scale/width_scale attributes. Its bilinear mode
    // has no coordinate convention written down, so only nearest is taken.
    if (mode != "nearest")
      return n.unsupportedFeature()
             << "mode '" << mode << "' of Upsample-1 (opsets 1-6) is not supported";
    if (n.inputType(0).getRank() != 4)
      return n.error() << "expects a 4-D input (opsets 1-6), got " << n.inputType(0);
    if (!n.hasAttr("height_scale") || !n.hasAttr("width_scale"))
      return n.error() << "attributes 'height_scale' and 'width_scale' are required";
    scales = {1.0, 1.0, n.getFloat("height_scale", 1.0), n.getFloat("width_scale", 1.0)};
    if (n.hasFailed())
      return failure();
  } else if (n.hasInput(1)) {
    if (!n.constantData(1) && (mode == "nearest" || mode == "linear" || mode == "bilinear")) {
      // Scales only a run gives: Resize-10's taps at the declared output shape.
      ResizeParams p;
      p.mode = mode == "nearest" ? ms::Interpolation::nearest : ms::Interpolation::linear;
      p.coords = ms::ResizeTransform::asymmetric;
      p.nearest = ms::NearestMode::floor;
      FailureOr<bool> runTime = resizeByRunTimeScales(n, p, iota(0, n.inputType(0).getRank()), 1);
      if (failed(runTime) || *runTime)
        return success(succeeded(runTime));
    }
    FailureOr<KnownTensor> known = constantInput(n, 1, "scales");
    if (failed(known))
      return failure();
    for (int64_t i = 0, e = known->numElements(); i < e; ++i)
      scales.push_back(known->valueAt(i));
  } else if (std::optional<SmallVector<double>> attr = n.getFloats("scales")) {
    scales = *attr;
  } else {
    return n.hasFailed() ? failure() : n.error() << "scales are required";
  }
  RankedTensorType xType = n.inputType(0);
  if ((int64_t)scales.size() != xType.getRank())
    return n.error() << "expects " << xType.getRank() << " scales for " << xType << ", got "
                     << scales.size();
  SmallVector<int64_t> sizes;
  for (auto [dim, scale] : llvm::zip(xType.getShape(), scales)) {
    if (!(scale >= 1.0))
      return n.error() << "scales must be >= 1, got " << scale;
    std::optional<int64_t> size = sizeFromDouble(std::floor(double(dim) * scale));
    if (!size)
      return n.error() << "upsampled dimension " << dim << " x " << scale << " is too large";
    sizes.push_back(*size);
  }
  if (!isReasonableShape(sizes))
    return n.error() << "upsampled shape " << listToString(sizes) << " is too large";
  ms::ResizeMode resizeMode;
  if (mode == "nearest")
    resizeMode = ms::ResizeMode::nearest;
  else if (mode == "linear" || mode == "bilinear")
    resizeMode = ms::ResizeMode::linear;
  else
    return n.error() << "mode '" << mode << "' must be nearest or linear";
  Ops o(n);
  Value y = o.op<ms::ResizeOp>(o.in(0), ArrayRef<int64_t>(sizes), resizeMode,
                               ms::CoordinateMode::asymmetric, ms::NearestMode::floor);
  return finish(n, o, y);
}

/// LRN: x / (bias + alpha / size * sum of squares over a channel window)^beta, as ms.lrn
/// (ms-decompose makes the window sum an average pool over the channel dim).
LogicalResult importLRN(NodeImporter &n) {
  double alpha = n.getFloat("alpha", 1e-4), beta = n.getFloat("beta", 0.75),
         bias = n.getFloat("bias", 1.0);
  int64_t size = n.getInt("size", 0);
  if (n.hasFailed())
    return failure();
  Ops o(n);
  return finish(n, o, o.op<ms::LrnOp>(o.in(0), size, APFloat(alpha), APFloat(beta), APFloat(bias)));
}

/// A per-spatial-dim attribute with a default.
FailureOr<SmallVector<int64_t>> spatialInts(NodeImporter &n, StringRef name, size_t count,
                                            int64_t defaultValue) {
  std::optional<SmallVector<int64_t>> values = n.getInts(name);
  if (n.hasFailed())
    return failure();
  if (!values)
    return SmallVector<int64_t>(count, defaultValue);
  if (values->size() != count)
    return n.error() << "'" << name << "' " << listToString(*values) << " must have " << count
                     << " entries";
  return *values;
}

/// ConvTranspose (1-D to 3-D) as ms.conv_transpose, which resolves auto_pad and output_shape
/// into pads (ms-decompose runs it as a stride-1 convolution of the zero-inserted input).
LogicalResult importConvTranspose(NodeImporter &n) {
  RankedTensorType xType = n.inputType(0), wType = n.inputType(1);
  int64_t rank = xType.getRank();
  if (rank < 3 || rank > 5)
    return n.unsupportedFeature()
           << "only 1-D, 2-D and 3-D transposed convolutions are implemented, got an input "
           << xType;
  size_t spatial = rank - 2;
  int64_t group = n.getInt("group", 1);
  std::string autoPadName = n.getString("auto_pad", "NOTSET");
  FailureOr<SmallVector<int64_t>> strides = spatialInts(n, "strides", spatial, 1);
  FailureOr<SmallVector<int64_t>> dilations = spatialInts(n, "dilations", spatial, 1);
  FailureOr<SmallVector<int64_t>> outputPadding = spatialInts(n, "output_padding", spatial, 0);
  if (failed(strides) || failed(dilations) || failed(outputPadding) || n.hasFailed())
    return failure();
  SmallVector<int64_t> pads = n.getInts("pads").value_or(SmallVector<int64_t>());
  SmallVector<int64_t> outputShape = n.getInts("output_shape").value_or(SmallVector<int64_t>());
  std::optional<SmallVector<int64_t>> kernelShape = n.getInts("kernel_shape");
  if (n.hasFailed())
    return failure();
  if (kernelShape && ArrayRef<int64_t>(*kernelShape) != wType.getShape().drop_front(2))
    return n.error() << "kernel_shape " << listToString(*kernelShape)
                     << " does not match the weight " << wType;
  std::optional<ms::AutoPad> autoPad = ms::symbolizeAutoPad(StringRef(autoPadName).lower());
  if (!autoPad)
    return n.error() << "auto_pad '" << autoPadName << "' is not supported";
  if (outputShape.size() == spatial + 2) // [N, C, spatial...]
    outputShape.erase(outputShape.begin(), outputShape.begin() + 2);
  Ops o(n);
  Value bias = n.hasInput(2) ? o.in(2) : Value();
  return finish(n, o,
                o.op<ms::ConvTransposeOp>(o.in(0), o.in(1), bias, *strides, pads, *dilations,
                                          *outputPadding, static_cast<uint64_t>(group), *autoPad,
                                          outputShape));
}

//===----------------------------------------------------------------------===//
// Einsum
//===----------------------------------------------------------------------===//

/// Einsum as ms.einsum, whose verifier reads ONNX's equation (implicit output, "...").
LogicalResult importEinsum(NodeImporter &n) {
  std::string equation = n.getString("equation", "");
  if (n.hasFailed())
    return failure();
  Ops o(n);
  SmallVector<Value> inputs;
  for (unsigned i = 0, e = n.node().inputs.size(); i < e; ++i)
    inputs.push_back(o.in(i));
  return finish(n, o, o.op<ms::EinsumOp>(ValueRange(inputs), equation));
}

} // namespace

/// As ms.max_pool_indices, which ms-decompose expands (DecomposeIndexingPatterns.cpp); `pooled`
/// tells whether the pool rounded its size up (ceil_mode).
FailureOr<Value> mlir::mie::onnx_import::maxPoolIndices(
    NodeImporter &n, Value x, Value pooled, ArrayRef<int64_t> kernel, ArrayRef<int64_t> strides,
    ArrayRef<int64_t> pads, ArrayRef<int64_t> dilations, bool columnMajor) {
  ArrayRef<int64_t> in = typeOf(x).getShape(), out = typeOf(pooled).getShape();
  bool ceilMode = false;
  for (int i = 0; i < 2; ++i)
    ceilMode |=
        out[2 + i] !=
        (in[2 + i] + pads[i] + pads[2 + i] - dilations[i] * (kernel[i] - 1) - 1) / strides[i] + 1;
  return n.create<ms::MaxPoolIndicesOp>(x, kernel, strides, pads, dilations, ceilMode, columnMajor);
}

void mlir::mie::onnx_import::composite::registerCompositeNNOps(OnnxOpTable &table) {
  table["Upsample"] = {importUpsample, 1, 2};
  table["LRN"] = {importLRN, 1, 1};
  table["ConvTranspose"] = {importConvTranspose, 2, 3};
  table["Einsum"] = {importEinsum, 1, ~0u, 12};
}
