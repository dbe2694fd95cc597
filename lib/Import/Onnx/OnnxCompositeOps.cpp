//===- OnnxCompositeOps.cpp - ONNX ops imported as composite ms ops -------===//
//
// Ops with no ms primitive of their own, each mapped to the composite ms op ms-decompose expands:
// data movement (Tile, DepthToSpace, SpaceToDepth), the normalizations, the extra reductions
// (ReduceL1, ReduceLogSumExp, ...), LogSoftmax, Hardmax, Trilu, OneHot and Det; BatchNormalization
// in training mode is still built here, EyeLike is a known constant. Upsample, LRN, ConvTranspose
// and Einsum are in OnnxCompositeNNOps.cpp, the training losses in OnnxCompositeLossOps.cpp.
// (CumSum is an op of its own, ms.cumsum, imported in OnnxIndexingOps.cpp.)
//
//===----------------------------------------------------------------------===//

#include "OnnxCompositeBuilder.h"

using namespace mlir;
using namespace mlir::mie::onnx_import;
using namespace mlir::mie::onnx_import::composite;

namespace {

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

/// Tile (and Tile-1's tiles along one axis) as ms.tile; ms-decompose expands it.
LogicalResult importTile(NodeImporter &n) {
  RankedTensorType xType = n.inputType(0);
  FailureOr<SmallVector<int64_t>> repeats = failure();
  if (n.opset() < 6) {
    // Tile-1: `tiles` copies along `axis`, both one-element inputs.
    if (!n.hasInput(2))
      return n.error() << "expects the 'axis' input (opsets 1-5)";
    FailureOr<SmallVector<int64_t>> tiles = knownInts(n, 1, "tiles");
    FailureOr<SmallVector<int64_t>> axis =
        succeeded(tiles) ? knownInts(n, 2, "axis") : FailureOr<SmallVector<int64_t>>(failure());
    if (failed(axis))
      return failure();
    if (tiles->size() != 1 || axis->size() != 1)
      return n.error() << "tiles and axis must have one element each, got " << listToString(*tiles)
                       << " and " << listToString(*axis);
    FailureOr<int64_t> normalized = normalizeAxis(n, axis->front(), xType.getRank());
    if (failed(normalized))
      return failure();
    repeats = SmallVector<int64_t>(xType.getRank(), 1);
    (*repeats)[*normalized] = tiles->front();
  } else {
    if (n.hasInput(2))
      return n.error() << "expects 2 inputs, got 3 (the 'axis' input is Tile-1's)";
    // Repeats computed from symbolic dims, or any repeats of an input with symbolic dims (ms.tile
    // takes static inputs): an unsqueeze, expand and reshape over the symbols.
    if (!xType.hasStaticShape() || hasSymbolicElements(n, 1))
      return importTileOfSymbolicDims(n);
    repeats = knownInts(n, 1, "repeats");
  }
  if (failed(repeats))
    return failure();
  Ops o(n);
  return finish(n, o, o.op<ms::TileOp>(o.in(0), *repeats));
}

/// DepthToSpace: [N, C, H, W] -> [N, C / b^2, H * b, W * b] as ms.depth_to_space (DCR reads the
/// channel as (bh, bw, c), CRD as (c, bh, bw)); ms-decompose expands it.
LogicalResult importDepthToSpace(NodeImporter &n) {
  int64_t b = n.getInt("blocksize", 0);
  std::string mode = n.getString("mode", "DCR");
  if (n.hasFailed())
    return failure();
  if (mode != "DCR" && mode != "CRD")
    return n.error() << "mode '" << mode << "' must be DCR or CRD";
  Ops o(n);
  return finish(n, o, o.op<ms::DepthToSpaceOp>(o.in(0), b, mode == "CRD"));
}

/// SpaceToDepth: [N, C, H, W] -> [N, C * b^2, H / b, W / b], the inverse of DepthToSpace (DCR),
/// as ms.space_to_depth.
LogicalResult importSpaceToDepth(NodeImporter &n) {
  int64_t b = n.getInt("blocksize", 0);
  if (n.hasFailed())
    return failure();
  Ops o(n);
  return finish(n, o, o.op<ms::SpaceToDepthOp>(o.in(0), b));
}

//===----------------------------------------------------------------------===//
// Normalizations
//===----------------------------------------------------------------------===//

} // namespace

/// Y uses the batch's mean and (population) variance over every dim but the channel; the running
/// statistics are input * momentum + batch statistic * (1 - momentum), as in ONNX's reference.
LogicalResult mlir::mie::onnx_import::importBatchNormTraining(NodeImporter &n) {
  double epsilon = n.getFloat("epsilon", 1e-5), momentum = n.getFloat("momentum", 0.9);
  if (n.hasFailed())
    return failure();
  RankedTensorType xType = n.inputType(0);
  int64_t rank = xType.getRank();
  if (rank < 2)
    return n.error() << "expects an input of rank >= 2 ([N, C, ...]), got " << xType;
  int64_t channels = xType.getDimSize(1);
  for (unsigned i = 1; i < 5; ++i)
    if (n.inputType(i).getNumElements() != channels)
      return n.error() << "input " << i << " " << n.inputType(i) << " must have " << channels
                       << " elements";
  SmallVector<int64_t> axes = {0};
  llvm::append_range(axes, iota(2, rank));
  Type et = xType.getElementType();
  Ops o(n);
  Value x = o.in(0);
  Value mean = o.reduce<ms::ReduceMeanOp>(x, axes, true);
  Value centered = o.sub(x, mean);
  Value variance = o.reduce<ms::ReduceMeanOp>(o.mul(centered, centered), axes, true);
  Value y = o.mul(centered, o.op<ms::RsqrtOp>(o.add(variance, o.scalar(et, epsilon))));
  y = o.mul(y, channelParam(o, o.in(1), channels, rank));
  y = o.add(y, channelParam(o, o.in(2), channels, rank));
  auto running = [&](unsigned input, Value batch) {
    Value old = o.mul(o.in(input), o.scalar(et, momentum));
    return o.add(
        old, o.mul(o.reshape(batch, n.inputType(input).getShape()), o.scalar(et, 1.0 - momentum)));
  };
  Value runningMean = n.hasOutput(1) ? running(3, mean) : Value();
  Value runningVar = n.hasOutput(2) ? running(4, variance) : Value();
  if (o.failed() || failed(n.onlyOutputs(3, "only Y and the running statistics are computed")))
    return failure();
  n.setOutput(0, y);
  if (runningMean)
    n.setOutput(1, runningMean);
  if (runningVar)
    n.setOutput(2, runningVar);
  return success();
}

namespace {

/// InstanceNormalization as ms.instance_norm (scale and bias as [C]); ms-decompose expands the
/// normalizations.
LogicalResult importInstanceNorm(NodeImporter &n) {
  double epsilon = n.getFloat("epsilon", 1e-5);
  if (n.hasFailed())
    return failure();
  RankedTensorType xType = n.inputType(0);
  int64_t rank = xType.getRank();
  if (rank < 3)
    return n.error() << "expects an input of rank >= 3 ([N, C, spatial...]), got " << xType;
  int64_t channels = xType.getDimSize(1);
  for (unsigned i = 1; i < 3; ++i)
    if (n.inputType(i).getNumElements() != channels)
      return n.error() << (i == 1 ? "scale " : "bias ") << n.inputType(i) << " must have "
                       << channels << " elements";
  Ops o(n);
  return finish(n, o,
                o.op<ms::InstanceNormOp>(o.in(0), o.reshape(o.in(1), {channels}),
                                         o.reshape(o.in(2), {channels}), APFloat(epsilon)));
}

/// GroupNormalization as ms.group_norm: statistics over [C / G, spatial...] of each group. Scale
/// and bias are per group in opset 18 and per channel from 21 (the importer's semantic opset
/// stops at 18, so their size tells which); per-group ones are repeated per channel here.
LogicalResult importGroupNorm(NodeImporter &n) {
  double epsilon = n.getFloat("epsilon", 1e-5);
  int64_t groups = n.getInt("num_groups", 0);
  if (n.hasFailed())
    return failure();
  RankedTensorType xType = n.inputType(0);
  int64_t rank = xType.getRank();
  if (rank < 3)
    return n.error() << "expects an input of rank >= 3 ([N, C, spatial...]), got " << xType;
  int64_t channels = xType.getDimSize(1);
  if (groups < 1 || channels % groups != 0)
    return n.error() << "num_groups " << groups << " must be >= 1 and divide " << channels
                     << " channels";
  int64_t size = n.inputType(1).getNumElements();
  if (n.inputType(2).getNumElements() != size || (size != groups && size != channels))
    return n.error() << "scale " << n.inputType(1) << " and bias " << n.inputType(2)
                     << " must both have num_groups (" << groups << ") or C (" << channels
                     << ") elements";
  Ops o(n);
  // Per-group parameters (opset 18) repeated for each channel of their group.
  auto perChannel = [&](Value param) {
    if (size == channels)
      return o.reshape(param, {channels});
    Value repeated = o.expand(o.reshape(param, {groups, 1}), {groups, channels / groups});
    return o.reshape(repeated, {channels});
  };
  return finish(n, o,
                o.op<ms::GroupNormOp>(o.in(0), perChannel(o.in(1)), perChannel(o.in(2)), groups,
                                      APFloat(epsilon)));
}

/// LpNormalization (p = 1 or 2) as ms.lp_normalization.
LogicalResult importLpNorm(NodeImporter &n) {
  int64_t axis = n.getInt("axis", -1), p = n.getInt("p", 2);
  if (n.hasFailed())
    return failure();
  FailureOr<int64_t> normAxis = normalizeAxis(n, axis, n.inputType(0).getRank());
  if (failed(normAxis))
    return failure();
  Ops o(n);
  return finish(n, o, o.op<ms::LpNormalizationOp>(o.in(0), *normAxis, p));
}

/// MeanVarianceNormalization as ms.mean_variance_norm: (x - mean) / (sqrt(var) + 1e-9), ONNX's
/// function body.
LogicalResult importMeanVarianceNorm(NodeImporter &n) {
  RankedTensorType xType = n.inputType(0);
  SmallVector<int64_t> axes = n.getInts("axes").value_or(SmallVector<int64_t>{0, 2, 3});
  if (n.hasFailed())
    return failure();
  FailureOr<SmallVector<int64_t>> normAxes = normalizeAxes(n, axes, xType.getRank());
  if (failed(normAxes))
    return failure();
  llvm::sort(*normAxes);
  normAxes->erase(std::unique(normAxes->begin(), normAxes->end()), normAxes->end());
  Ops o(n);
  return finish(n, o, o.op<ms::MeanVarianceNormOp>(o.in(0), *normAxes));
}

/// RMSNormalization (opset 23) as ms.rms_norm over the dims from `axis` on, computed in
/// `stash_type` (float32 by default, so f16/bf16 inputs widen).
LogicalResult importRMSNorm(NodeImporter &n) {
  int64_t axis = n.getInt("axis", -1), stashType = n.getInt("stash_type", 1);
  double epsilon = n.getFloat("epsilon", 1e-5);
  if (n.hasFailed())
    return failure();
  Type stash = elementTypeFor(n.context(), stashType);
  if (!stash)
    return n.error() << "unsupported stash_type " << dataTypeName(stashType);
  Ops o(n);
  return finish(n, o, o.op<ms::RmsNormOp>(o.in(0), o.in(1), axis, APFloat(epsilon), stash));
}

//===----------------------------------------------------------------------===//
// Reductions and log-softmax
//===----------------------------------------------------------------------===//

/// ReduceL1, ReduceL2, ReduceSumSquare, ReduceLogSum and ReduceLogSumExp as their ms ops, with
/// axes from the attribute (before opset 18) or the input.
template <typename OpTy>
LogicalResult importReduction(NodeImporter &n) {
  bool keepDims = n.getInt("keepdims", 1) != 0;
  bool noop = n.getInt("noop_with_empty_axes", 0) != 0;
  if (n.hasFailed())
    return failure();
  FailureOr<std::optional<SmallVector<int64_t>>> axes = intsFromAttrOrInput(n, "axes", 1, 18);
  if (failed(axes))
    return failure();
  Ops o(n);
  return finish(n, o, o.op<OpTy>(o.in(0), axes->value_or(SmallVector<int64_t>()), keepDims, noop));
}

/// The axes a (Log)Softmax/Hardmax normalizes over: before opset 13 the input is coerced to 2-D at
/// `axis` (default 1), so every dim from `axis` on; from 13 the single `axis` (default -1).
FailureOr<SmallVector<int64_t>> softmaxAxes(NodeImporter &n) {
  bool coerce = n.opset() < 13;
  int64_t axis = n.getInt("axis", coerce ? 1 : -1);
  if (n.hasFailed())
    return failure();
  int64_t rank = n.inputType(0).getRank();
  if (rank == 0)
    return n.error() << "expects an input of rank >= 1, got " << n.inputType(0);
  FailureOr<int64_t> normAxis = normalizeAxis(n, axis, rank);
  if (failed(normAxis))
    return failure();
  return coerce ? iota(*normAxis, rank) : SmallVector<int64_t>{*normAxis};
}

/// LogSoftmax and Hardmax as ms.log_softmax and ms.hardmax over the axes softmaxAxes gives;
/// ms-decompose expands them.
template <typename OpTy>
LogicalResult importSoftmaxLike(NodeImporter &n) {
  FailureOr<SmallVector<int64_t>> axes = softmaxAxes(n);
  if (failed(axes))
    return failure();
  Ops o(n);
  return finish(n, o, o.op<OpTy>(o.in(0), *axes));
}

LogicalResult importGlobalMaxPool(NodeImporter &n) {
  int64_t rank = n.inputType(0).getRank();
  if (rank < 3)
    return n.error() << "expects an input of rank >= 3 ([N, C, spatial...]), got "
                     << n.inputType(0);
  Ops o(n);
  return finish(n, o, o.reduce<ms::ReduceMaxOp>(o.in(0), iota(2, rank), true));
}

//===----------------------------------------------------------------------===//
// Masks: Trilu, EyeLike, OneHot
//===----------------------------------------------------------------------===//

/// Trilu: ms.trilu, which keeps j - i >= k (upper) or j - i <= k (lower) of the last two dims
/// (k read at run time; ms-decompose expands it into a compare and a select).
LogicalResult importTrilu(NodeImporter &n) {
  bool upper = n.getInt("upper", 1) != 0;
  if (n.hasFailed())
    return failure();
  RankedTensorType xType = n.inputType(0);
  if (xType.hasStaticShape() && xType.getNumElements() == 0) { // nothing to mask
    n.forwardInput(0, 0);
    return success();
  }
  Ops o(n);
  Value k = n.hasInput(1) ? o.in(1) : Value();
  return finish(n, o, o.op<ms::TriluOp>(o.in(0), k, !upper));
}

/// EyeLike: a known 2-D tensor with ones on diagonal `k`.
LogicalResult importEyeLike(NodeImporter &n) {
  RankedTensorType xType = n.inputType(0);
  int64_t k = n.getInt("k", 0);
  Type et = xType.getElementType();
  if (n.hasAttr("dtype")) {
    int64_t dtype = n.getInt("dtype", 0);
    if (n.hasFailed())
      return failure();
    et = elementTypeFor(n.context(), dtype);
    if (!et)
      return n.error() << "unsupported element type " << dataTypeName(dtype) << " for the output";
  }
  if (n.hasFailed())
    return failure();
  if (xType.getRank() != 2)
    return n.error() << "expects a 2-D input, got " << xType;
  int64_t rows = xType.getDimSize(0), cols = xType.getDimSize(1);
  if (rows * cols > kMaxKnownElements)
    return n.error() << "output of " << rows * cols
                     << " elements is too large to build at compile time";
  SmallVector<int64_t> values;
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j)
      values.push_back(j - i == k);
  KnownTensor eye =
      KnownTensor::fromInts({rows, cols}, n.builder().getI64Type(), values).castTo(et);
  n.setKnownOutput(0, std::move(eye));
  return success();
}

/// Det as ms.det (ms-decompose runs Gaussian elimination with partial pivoting, unrolled over
/// the columns).
LogicalResult importDet(NodeImporter &n) {
  RankedTensorType xType = n.inputType(0);
  int64_t rank = xType.getRank();
  if (rank < 2 || !isa<FloatType>(xType.getElementType()) ||
      xType.getDimSize(rank - 1) != xType.getDimSize(rank - 2) || xType.getDimSize(rank - 1) < 1)
    return n.error() << "expects float square matrices [..., n, n] with n >= 1, got " << xType;
  int64_t size = xType.getDimSize(rank - 1);
  // Unrolled elimination builds about 20 ops per column.
  constexpr int64_t kMaxDetSize = 64;
  if (size > kMaxDetSize)
    return n.unsupportedFeature() << "matrices larger than " << kMaxDetSize << "x" << kMaxDetSize
                                  << " are not supported, got " << size << "x" << size;
  Ops o(n);
  return finish(n, o, o.op<ms::DetOp>(o.in(0)));
}

/// OneHot as ms.one_hot (depth known); known values are passed as a constant, which the
/// expansion reads as two scalars.
LogicalResult importOneHot(NodeImporter &n) {
  int64_t axis = n.getInt("axis", -1);
  if (n.hasFailed())
    return failure();
  // A depth given as a graph input: the declared output's dim at the axis, checked at run time.
  std::optional<SmallVector<int64_t>> declared = n.declaredOutputShape(0);
  int64_t outRank = n.inputType(0).getRank() + 1;
  int64_t at = axis < 0 ? axis + outRank : axis;
  std::optional<int64_t> declaredDepth;
  if (declared && int64_t(declared->size()) == outRank && at >= 0 && at < outRank)
    declaredDepth = (*declared)[at];
  FailureOr<int64_t> depth = scalarOrDeclared(n, 1, "depth", declaredDepth);
  if (failed(depth))
    return failure();
  Ops o(n);
  Value indices = o.in(0);
  Value values = n.known(2) ? o.constant(*n.known(2)) : o.in(2);
  return finish(n, o, o.op<ms::OneHotOp>(indices, values, *depth, axis));
}

} // namespace

void mlir::mie::onnx_import::registerCompositeOps(OnnxOpTable &table) {
  table["Tile"] = {importTile, 2, 3};
  table["DepthToSpace"] = {importDepthToSpace, 1, 1};
  table["SpaceToDepth"] = {importSpaceToDepth, 1, 1};
  table["InstanceNormalization"] = {importInstanceNorm, 3, 3};
  table["GroupNormalization"] = {importGroupNorm, 3, 3, 18};
  table["LpNormalization"] = {importLpNorm, 1, 1};
  table["MeanVarianceNormalization"] = {importMeanVarianceNorm, 1, 1, 9};
  table["RMSNormalization"] = {importRMSNorm, 2, 2, 23};
  table["ReduceL1"] = {importReduction<ms::ReduceL1Op>, 1, 2};
  table["ReduceL2"] = {importReduction<ms::ReduceL2Op>, 1, 2};
  table["ReduceSumSquare"] = {importReduction<ms::ReduceSumSquareOp>, 1, 2};
  table["ReduceLogSum"] = {importReduction<ms::ReduceLogSumOp>, 1, 2};
  table["ReduceLogSumExp"] = {importReduction<ms::ReduceLogSumExpOp>, 1, 2};
  table["LogSoftmax"] = {importSoftmaxLike<ms::LogSoftmaxOp>, 1, 1};
  table["Hardmax"] = {importSoftmaxLike<ms::HardmaxOp>, 1, 1};
  table["GlobalMaxPool"] = {importGlobalMaxPool, 1, 1};
  table["Trilu"] = {importTrilu, 1, 2, 14};
  table["EyeLike"] = {importEyeLike, 1, 1, 9};
  table["OneHot"] = {importOneHot, 3, 3, 9};
  table["Det"] = {importDet, 1, 1, 11};
  registerCompositeNNOps(table);
  registerCompositeLossOps(table);
  registerCompositeAttentionOps(table);
  registerCompositeSamplingOps(table);
  registerCompositeIndexingOps(table);
  registerCompositeSignalOps(table);
  registerCompositeResizeOps(table);
  registerCompositeTextOps(table);
  registerCompositeRandomOps(table);
}
