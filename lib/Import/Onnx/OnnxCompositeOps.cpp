//===- OnnxCompositeOps.cpp - ONNX ops imported as compositions of ms ops -===//
//
// Ops with no ms counterpart of their own, written exactly in terms of existing ms ops: data
// movement (Tile, DepthToSpace, SpaceToDepth) as reshape/transpose/expand chains, normalizations as
// reductions and elementwise arithmetic, the extra reductions (ReduceL1, ReduceLogSumExp, ...) as
// an elementwise transform around ms.reduce_*, masks (Trilu, EyeLike, OneHot) as constants built
// here; Hardmax and Det become ms.hardmax and ms.det, which ms-decompose expands
// (DecomposeMathPatterns.cpp). Upsample, LRN, ConvTranspose and Einsum are in OnnxCompositeNNOps.cpp, the training losses
// in OnnxCompositeLossOps.cpp. (CumSum is an op of its own, ms.cumsum, imported in
// OnnxIndexingOps.cpp.)
//
//===----------------------------------------------------------------------===//

#include "OnnxCompositeBuilder.h"
#include "llvm/Support/MathExtras.h"

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
    repeats = knownInts(n, 1, "repeats");
  }
  if (failed(repeats))
    return failure();
  if ((int64_t)repeats->size() != xType.getRank())
    return n.error() << "repeats " << listToString(*repeats) << " must have " << xType.getRank()
                     << " entries for " << xType;
  SmallVector<int64_t> result;
  for (auto [size, r] : llvm::zip(xType.getShape(), *repeats)) {
    if (r < 0)
      return n.error() << "repeats " << listToString(*repeats) << " must be non-negative";
    int64_t tiled;
    if (llvm::MulOverflow(r, size, tiled))
      return n.error() << "tiled shape of " << xType << " by repeats " << listToString(*repeats)
                       << " is too large";
    result.push_back(tiled);
  }
  if (!isReasonableShape(result))
    return n.error() << "tiled shape " << listToString(result) << " is too large";
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
  RankedTensorType xType = n.inputType(0);
  if (xType.getRank() != 4)
    return n.error() << "expects a 4-D input, got " << xType;
  if (mode != "DCR" && mode != "CRD")
    return n.error() << "mode '" << mode << "' must be DCR or CRD";
  int64_t c = xType.getDimSize(1);
  if (b < 1 || b > (1 << 16) || c % (b * b) != 0)
    return n.error() << "blocksize " << b << " must be >= 1 with blocksize^2 dividing " << c
                     << " channels";
  Ops o(n);
  return finish(n, o, o.op<ms::DepthToSpaceOp>(o.in(0), b, mode == "CRD"));
}

/// SpaceToDepth: [N, C, H, W] -> [N, C * b^2, H / b, W / b], the inverse of DepthToSpace (DCR),
/// as ms.space_to_depth.
LogicalResult importSpaceToDepth(NodeImporter &n) {
  int64_t b = n.getInt("blocksize", 0);
  if (n.hasFailed())
    return failure();
  RankedTensorType xType = n.inputType(0);
  if (xType.getRank() != 4)
    return n.error() << "expects a 4-D input, got " << xType;
  int64_t h = xType.getDimSize(2), w = xType.getDimSize(3);
  if (b < 1 || b > (1 << 16) || h % b != 0 || w % b != 0)
    return n.error() << "blocksize " << b << " must be >= 1 and divide the spatial dims of "
                     << xType;
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
  if (p != 1 && p != 2)
    return n.error() << "p must be 1 or 2, got " << p;
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

/// RMSNormalization (opset 23), ONNX's function body: x * 1 / sqrt(mean(x^2) + epsilon) over the
/// dims from `axis` on, computed in `stash_type` (float32 by default, so f16/bf16 inputs widen),
/// converted back, then times scale.
LogicalResult importRMSNorm(NodeImporter &n) {
  int64_t axis = n.getInt("axis", -1);
  double epsilon = n.getFloat("epsilon", 1e-5);
  int64_t stashType = n.getInt("stash_type", 1);
  if (n.hasFailed())
    return failure();
  RankedTensorType xType = n.inputType(0);
  Type et = xType.getElementType();
  Type stash = elementTypeFor(n.context(), stashType);
  if (!isa<FloatType>(et) || !stash || !isa<FloatType>(stash))
    return n.error() << "expects a float input and a float stash_type, got " << xType
                     << " and stash_type " << dataTypeName(stashType);
  FailureOr<int64_t> normAxis = normalizeAxis(n, axis, xType.getRank());
  if (failed(normAxis))
    return failure();
  Ops o(n);
  Value x = o.cast(o.in(0), stash);
  Value meanSquare =
      o.reduce<ms::ReduceMeanOp>(o.mul(x, x), iota(*normAxis, xType.getRank()), true);
  Value invRms =
      o.op<ms::ReciprocalOp>(o.op<ms::SqrtOp>(o.add(meanSquare, o.scalar(stash, epsilon))));
  Value normalized = o.cast(o.mul(x, invRms), et);
  return finish(n, o, o.mul(normalized, o.in(1)));
}

//===----------------------------------------------------------------------===//
// Reductions and log-softmax
//===----------------------------------------------------------------------===//

enum class Reduction { L1, L2, SumSquare, LogSum, LogSumExp };

/// The reduced axes of a Reduce* node (sorted), or nullopt for noop_with_empty_axes with no axes:
/// then only the elementwise part applies (as in ONNX's reference).
FailureOr<std::optional<SmallVector<int64_t>>> reductionAxes(NodeImporter &n) {
  bool noop = n.getInt("noop_with_empty_axes", 0) != 0;
  if (n.hasFailed())
    return failure();
  FailureOr<std::optional<SmallVector<int64_t>>> axes = intsFromAttrOrInput(n, "axes", 1, 18);
  if (failed(axes))
    return failure();
  int64_t rank = n.inputType(0).getRank();
  if (!*axes || (*axes)->empty()) {
    if (noop)
      return std::optional<SmallVector<int64_t>>();
    return std::optional<SmallVector<int64_t>>(iota(0, rank));
  }
  FailureOr<SmallVector<int64_t>> normalized = normalizeAxes(n, **axes, rank);
  if (failed(normalized))
    return failure();
  llvm::sort(*normalized);
  return std::optional<SmallVector<int64_t>>(std::move(*normalized));
}

template <Reduction kind>
LogicalResult importReduction(NodeImporter &n) {
  bool keepDims = n.getInt("keepdims", 1) != 0;
  FailureOr<std::optional<SmallVector<int64_t>>> axes = reductionAxes(n);
  if (failed(axes) || n.hasFailed())
    return failure();
  Ops o(n);
  Value x = o.in(0);
  auto sum = [&](Value v) { return *axes ? o.reduce<ms::ReduceSumOp>(v, **axes, keepDims) : v; };
  Value result;
  switch (kind) {
  case Reduction::L1:
    result = sum(o.op<ms::AbsOp>(x));
    break;
  case Reduction::L2:
    result = o.op<ms::SqrtOp>(sum(o.mul(x, x)));
    break;
  case Reduction::SumSquare:
    result = sum(o.mul(x, x));
    break;
  case Reduction::LogSum:
    result = o.op<ms::LogOp>(sum(x));
    break;
  case Reduction::LogSumExp: {
    if (!*axes) {
      result = x; // log(exp(x)) without the overflow
      break;
    }
    // max + log(sum(exp(x - max))): exp never overflows. An all -inf slice gives NaN from
    // -inf - -inf, so the max is replaced by 0 where it is not finite.
    Type et = typeOf(x).getElementType();
    Value max = o.reduce<ms::ReduceMaxOp>(x, **axes, true);
    Value finite = o.compare(ms::ComparePredicate::eq, o.sub(max, max), o.scalar(et, 0.0));
    max = o.where(finite, max, o.scalar(et, 0.0));
    Value sumExp = o.reduce<ms::ReduceSumOp>(o.op<ms::ExpOp>(o.sub(x, max)), **axes, keepDims);
    Value maxOut = keepDims || o.failed() ? max : o.reshape(max, typeOf(sumExp).getShape());
    result = o.add(o.op<ms::LogOp>(sumExp), maxOut);
    break;
  }
  }
  return finish(n, o, result);
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

/// LogSoftmax: (x - max) - log(sum(exp(x - max))).
LogicalResult importLogSoftmax(NodeImporter &n) {
  FailureOr<SmallVector<int64_t>> axes = softmaxAxes(n);
  if (failed(axes))
    return failure();
  Ops o(n);
  Value x = o.in(0);
  Value shifted = o.sub(x, o.reduce<ms::ReduceMaxOp>(x, *axes, true));
  Value logSum = o.op<ms::LogOp>(o.reduce<ms::ReduceSumOp>(o.op<ms::ExpOp>(shifted), *axes, true));
  return finish(n, o, o.sub(shifted, logSum));
}

/// Hardmax as ms.hardmax over the axes softmaxAxes gives; ms-decompose expands it.
LogicalResult importHardmax(NodeImporter &n) {
  FailureOr<SmallVector<int64_t>> axes = softmaxAxes(n);
  if (failed(axes))
    return failure();
  Ops o(n);
  return finish(n, o, o.op<ms::HardmaxOp>(o.in(0), *axes));
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
  if (xType.getRank() < 2)
    return n.error() << "expects an input of rank >= 2, got " << xType;
  if (n.hasInput(1) &&
      (n.inputType(1).getNumElements() != 1 || !n.inputType(1).getElementType().isInteger(64)))
    return n.error() << "k must be an int64 scalar, got " << n.inputType(1);
  if (xType.getNumElements() == 0) { // nothing to mask
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

/// OneHot: where(indices == range(depth), on, off), the range laid along `axis`. Negative indices
/// count from depth.
LogicalResult importOneHot(NodeImporter &n) {
  int64_t axis = n.getInt("axis", -1);
  if (n.hasFailed())
    return failure();
  FailureOr<int64_t> depth = knownScalar(n, 1, "depth");
  if (failed(depth))
    return failure();
  if (*depth < 1 || *depth > kMaxKnownElements)
    return n.error() << "depth " << *depth << " must be in [1, " << kMaxKnownElements << "]";
  RankedTensorType indicesType = n.inputType(0), valuesType = n.inputType(2);
  if (valuesType.getNumElements() != 2)
    return n.error() << "values " << valuesType << " must hold [off_value, on_value]";
  int64_t rank = indicesType.getRank() + 1;
  FailureOr<int64_t> normAxis = normalizeAxis(n, axis, rank);
  if (failed(normAxis))
    return failure();

  Ops o(n);
  Type indexType = n.builder().getI64Type();
  Value indices = o.cast(o.in(0), indexType); // float indices truncate, as ONNX casts them
  Value zero = o.scalar(indexType, 0.0);
  Value wrapped = o.add(indices, o.scalar(indexType, (double)*depth));
  indices = o.where(o.compare(ms::ComparePredicate::lt, indices, zero), wrapped, indices);
  SmallVector<int64_t> lifted(indicesType.getShape());
  lifted.insert(lifted.begin() + *normAxis, 1);
  SmallVector<int64_t> rangeShape(rank, 1);
  rangeShape[*normAxis] = *depth;
  Value range = o.constant(KnownTensor::fromInts(rangeShape, indexType, iota(0, *depth)));
  Value hot = o.compare(ms::ComparePredicate::eq, o.reshape(indices, lifted), range);

  Value off, on;
  if (const KnownTensor *values = n.known(2)) {
    Type et = valuesType.getElementType();
    auto element = [&](int64_t i) {
      return values->isFloat() ? KnownTensor::fromFloats({}, et, {values->floatAt(i)})
                               : KnownTensor::fromInts({}, et, {values->intAt(i)});
    };
    off = o.constant(element(0));
    on = o.constant(element(1));
  } else {
    Value flat = o.reshape(o.in(2), {2});
    off = o.reshape(o.slice(flat, {0}, {1}, {1}), {});
    on = o.reshape(o.slice(flat, {1}, {1}, {1}), {});
  }
  return finish(n, o, o.where(hot, on, off));
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
  table["ReduceL1"] = {importReduction<Reduction::L1>, 1, 2};
  table["ReduceL2"] = {importReduction<Reduction::L2>, 1, 2};
  table["ReduceSumSquare"] = {importReduction<Reduction::SumSquare>, 1, 2};
  table["ReduceLogSum"] = {importReduction<Reduction::LogSum>, 1, 2};
  table["ReduceLogSumExp"] = {importReduction<Reduction::LogSumExp>, 1, 2};
  table["LogSoftmax"] = {importLogSoftmax, 1, 1};
  table["Hardmax"] = {importHardmax, 1, 1};
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
