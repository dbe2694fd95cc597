//===- OnnxCompositeGridSample.cpp - GridSample, RoiAlign, DeformConv, ... -===//
//
// GridSample, RoiAlign and DeformConv become ms.grid_sample, ms.roi_align and ms.deform_conv
// (ms-decompose expands them: dialects/ms/Transforms/DecomposeSamplingPatterns.cpp); their
// handlers check the attributes and resolve ONNX's defaults. AffineGrid, which builds the grids
// GridSample reads, becomes ms.affine_grid.
//
//===----------------------------------------------------------------------===//

#include "OnnxCompositeBuilder.h"

#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace mlir::mie::onnx_import;
using namespace mlir::mie::onnx_import::composite;

namespace {

LogicalResult importGridSample(NodeImporter &n) {
  std::string modeName = n.getString("mode", "linear");
  std::string paddingName = n.getString("padding_mode", "zeros");
  bool alignCorners = n.getInt("align_corners", 0) != 0;
  if (n.hasFailed())
    return failure();
  // Opset 16 names the 2-D modes bilinear and bicubic, opset 20 linear and cubic.
  std::optional<ms::GridSampleMode> mode =
      llvm::StringSwitch<std::optional<ms::GridSampleMode>>(modeName)
          .Case("nearest", ms::GridSampleMode::nearest)
          .Cases({"linear", "bilinear"}, ms::GridSampleMode::linear)
          .Cases({"cubic", "bicubic"}, ms::GridSampleMode::cubic)
          .Default(std::nullopt);
  if (!mode)
    return n.error() << "mode '" << modeName << "' must be nearest, linear or cubic";
  std::optional<ms::GridPaddingMode> padding = ms::symbolizeGridPaddingMode(paddingName);
  if (!padding)
    return n.error() << "padding_mode '" << paddingName << "' must be zeros, border or reflection";
  Ops o(n);
  return finish(n, o, o.op<ms::GridSampleOp>(o.in(0), o.in(1), *mode, *padding, alignCorners));
}

/// RoiAlign (opsets 10, 16). An adaptive sample count (sampling_ratio 0) varies per ROI and is
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
  if (ratio == 0)
    return n.unsupportedFeature() << "sampling_ratio 0 (a sample count that varies with each "
                                     "ROI's size) is not supported; give a positive one";
  Ops o(n);
  return finish(n, o,
                o.op<ms::RoiAlignOp>(o.in(0), o.in(1), o.in(2), outH, outW, ratio,
                                     APFloat(spatialScale), modeName == "max",
                                     coordName == "half_pixel"));
}

/// DeformConv (opsets 19, 22), 2-D.
LogicalResult importDeformConv(NodeImporter &n) {
  int64_t group = n.getInt("group", 1), offsetGroup = n.getInt("offset_group", 1);
  std::optional<SmallVector<int64_t>> kernelAttr = n.getInts("kernel_shape");
  std::optional<SmallVector<int64_t>> padsAttr = n.getInts("pads");
  std::optional<SmallVector<int64_t>> stridesAttr = n.getInts("strides");
  std::optional<SmallVector<int64_t>> dilationsAttr = n.getInts("dilations");
  if (n.hasFailed())
    return failure();
  RankedTensorType wType = n.inputType(1);
  if (kernelAttr && ArrayRef<int64_t>(*kernelAttr) != wType.getShape().drop_front(2))
    return n.error() << "kernel_shape " << listToString(*kernelAttr) << " differs from W " << wType;
  SmallVector<int64_t> pads = padsAttr ? *padsAttr : SmallVector<int64_t>(4, 0);
  SmallVector<int64_t> strides = stridesAttr ? *stridesAttr : SmallVector<int64_t>(2, 1);
  SmallVector<int64_t> dilations = dilationsAttr ? *dilationsAttr : SmallVector<int64_t>(2, 1);
  Ops o(n);
  Value bias = n.hasInput(3) ? o.in(3) : Value();
  Value mask = n.hasInput(4) ? o.in(4) : Value();
  return finish(n, o,
                o.op<ms::DeformConvOp>(o.in(0), o.in(1), o.in(2), bias, mask, strides, pads,
                                       dilations, group, offsetGroup));
}

/// AffineGrid (opset 20): `size` must be known at import.
LogicalResult importAffineGrid(NodeImporter &n) {
  bool alignCorners = n.getInt("align_corners", 0) != 0;
  if (n.hasFailed())
    return failure();
  FailureOr<SmallVector<int64_t>> size = knownInts(n, 1, "size");
  if (failed(size))
    return failure();
  Ops o(n);
  return finish(n, o, o.op<ms::AffineGridOp>(o.in(0), ArrayRef<int64_t>(*size), alignCorners));
}

} // namespace

void mlir::mie::onnx_import::composite::registerCompositeSamplingOps(OnnxOpTable &table) {
  table["GridSample"] = {importGridSample, 2, 2, 16};
  table["RoiAlign"] = {importRoiAlign, 3, 3, 10};
  table["DeformConv"] = {importDeformConv, 3, 5, 19};
  table["AffineGrid"] = {importAffineGrid, 2, 2, 20};
}
