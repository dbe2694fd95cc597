//===- OnnxCompositeOps.cpp - ONNX ops imported as compositions of ms ops -===//
//
// Ops with no ms counterpart of their own, written exactly in terms of existing ms ops: data
// movement (Tile, DepthToSpace, SpaceToDepth) as reshape/transpose/expand chains, normalizations as
// reductions and elementwise arithmetic, the extra reductions (ReduceL1, ReduceLogSumExp, ...) as an
// elementwise transform around ms.reduce_*, masks (Trilu, EyeLike, OneHot) as constants built here,
// CumSum as a log-step scan of shifted adds (exact for integers), Einsum as transposes around a
// batched ms.matmul, LRN as an average pool over channels, and ConvTranspose as zero insertion plus
// an ms.conv2d with flipped, transposed weights.
//
//===----------------------------------------------------------------------===//

#include "OnnxImporterInternal.h"

#include "dialects/ms/IR/MsOps.h"

#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/StringExtras.h"

#include <cmath>
#include <cstring>
#include <map>
#include <numeric>

using namespace mlir;
using namespace mlir::mie::onnx_import;

namespace {

int64_t product(ArrayRef<int64_t> values) {
  return std::accumulate(values.begin(), values.end(), int64_t(1), std::multiplies<int64_t>());
}

RankedTensorType typeOf(Value v) { return cast<RankedTensorType>(v.getType()); }

/// Builds ms ops for one node. The first failure (already reported at the node) makes every later
/// call return a null Value, so a chain of ops needs one check at its end.
class Ops {
public:
  explicit Ops(NodeImporter &n) : n(n) {}

  bool failed() const { return bad; }

  template <typename OpTy, typename... Args>
  Value op(Args &&...args) {
    if (bad)
      return Value();
    FailureOr<Value> result = n.create<OpTy>(std::forward<Args>(args)...);
    if (mlir::failed(result)) {
      bad = true;
      return Value();
    }
    return *result;
  }

  /// Input `i`, materialized.
  Value in(unsigned i) {
    if (bad)
      return Value();
    FailureOr<Value> v = n.input(i);
    if (mlir::failed(v)) {
      bad = true;
      return Value();
    }
    return *v;
  }

  Value constant(const KnownTensor &value) {
    if (bad)
      return Value();
    return ms::ConstantOp::create(n.builder(), n.loc(), value.toAttr());
  }
  /// A rank-0 constant, broadcast by the elementwise ops.
  Value scalar(Type elementType, double value) {
    return constant(KnownTensor::splatOf({}, elementType, value));
  }

  Value add(Value a, Value b) { return op<ms::AddOp>(a, b); }
  Value sub(Value a, Value b) { return op<ms::SubOp>(a, b); }
  Value mul(Value a, Value b) { return op<ms::MulOp>(a, b); }
  Value div(Value a, Value b) { return op<ms::DivOp>(a, b); }
  Value compare(ms::ComparePredicate predicate, Value a, Value b) {
    return op<ms::CompareOp>(predicate, a, b);
  }
  Value where(Value c, Value a, Value b) { return op<ms::WhereOp>(c, a, b); }

  template <typename ReduceOp>
  Value reduce(Value x, ArrayRef<int64_t> axes, bool keepDims) {
    return op<ReduceOp>(x, axes, keepDims);
  }

  Value reshape(Value x, ArrayRef<int64_t> shape) {
    if (bad || typeOf(x).getShape() == shape)
      return x;
    return op<ms::ReshapeOp>(x, shape);
  }
  Value transpose(Value x, ArrayRef<int64_t> perm) {
    if (bad)
      return Value();
    bool identity = true;
    for (auto [i, p] : llvm::enumerate(perm))
      identity &= (int64_t)i == p;
    return identity ? x : op<ms::TransposeOp>(x, perm);
  }
  Value expand(Value x, ArrayRef<int64_t> shape) {
    if (bad || typeOf(x).getShape() == shape)
      return x;
    return op<ms::ExpandOp>(x, shape);
  }
  /// Zero padding; negative amounts crop.
  Value pad(Value x, ArrayRef<int64_t> pads) {
    if (bad || llvm::all_of(pads, [](int64_t p) { return p == 0; }))
      return x;
    return op<ms::PadOp>(x, pads, ms::PadMode::constant, APFloat(0.0));
  }
  Value slice(Value x, ArrayRef<int64_t> starts, ArrayRef<int64_t> sizes, ArrayRef<int64_t> steps) {
    return op<ms::SliceOp>(x, starts, sizes, steps);
  }
  Value cast(Value x, Type elementType) {
    if (bad)
      return Value();
    RankedTensorType type = typeOf(x);
    if (type.getElementType() == elementType)
      return x;
    return ms::CastOp::create(n.builder(), n.loc(), type.clone(elementType), x);
  }

private:
  NodeImporter &n;
  bool bad = false;
};

LogicalResult finish(NodeImporter &n, Ops &ops, Value result) {
  if (ops.failed() || !result)
    return failure();
  n.setOutput(0, result);
  return success();
}

/// A known integer input (a scalar or a 1-D list).
FailureOr<SmallVector<int64_t>> knownInts(NodeImporter &n, unsigned i, StringRef what) {
  FailureOr<const KnownTensor *> known = n.requireKnown(i, what);
  if (failed(known))
    return failure();
  if ((*known)->isFloat() || (*known)->rank() > 1)
    return n.error() << what << " input must be an integer scalar or 1-D tensor, got "
                     << (*known)->type;
  return (*known)->toInts();
}

/// A known scalar input (one element of any numeric type), as an integer.
FailureOr<int64_t> knownScalar(NodeImporter &n, unsigned i, StringRef what) {
  FailureOr<const KnownTensor *> known = n.requireKnown(i, what);
  if (failed(known))
    return failure();
  if ((*known)->numElements() != 1)
    return n.error() << what << " must be a scalar, got " << (*known)->type;
  return static_cast<int64_t>((*known)->valueAt(0));
}

SmallVector<int64_t> iota(int64_t from, int64_t to) {
  SmallVector<int64_t> values;
  for (int64_t i = from; i < to; ++i)
    values.push_back(i);
  return values;
}

/// (x - mean) / sqrt(var + epsilon) over `axes` (mean and variance kept as size-1 dims).
Value standardize(Ops &o, Value x, ArrayRef<int64_t> axes, double epsilon) {
  Type et = typeOf(x).getElementType();
  Value centered = o.sub(x, o.reduce<ms::ReduceMeanOp>(x, axes, true));
  Value variance = o.reduce<ms::ReduceMeanOp>(o.mul(centered, centered), axes, true);
  return o.mul(centered, o.op<ms::RsqrtOp>(o.add(variance, o.scalar(et, epsilon))));
}

/// Shifts `x` by `by` along `axis` (towards higher indices, or lower when `reverse`), filling with
/// zeros: one ms.pad that pads one side and crops the other.
Value shift(Ops &o, Value x, int64_t axis, int64_t by, bool reverse) {
  int64_t rank = typeOf(x).getRank();
  SmallVector<int64_t> pads(2 * rank, 0);
  pads[axis] = reverse ? -by : by;
  pads[axis + rank] = reverse ? by : -by;
  return o.pad(x, pads);
}

/// Inclusive prefix sums along `axis` (suffix sums when `reverse`) by the log-step scan
/// y += shift(y, 1), y += shift(y, 2), ...: exact for integers, ceil(log2(n)) adds.
Value prefixSum(Ops &o, Value x, int64_t axis, bool reverse) {
  int64_t size = typeOf(x).getDimSize(axis);
  for (int64_t step = 1; step < size && !o.failed(); step *= 2)
    x = o.add(x, shift(o, x, axis, step, reverse));
  return x;
}

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

/// Tile: each dim d becomes [repeats[d], size] by an expand of [1, size], then one reshape merges
/// the pairs.
LogicalResult importTile(NodeImporter &n) {
  FailureOr<SmallVector<int64_t>> repeats = knownInts(n, 1, "repeats");
  if (failed(repeats))
    return failure();
  RankedTensorType xType = n.inputType(0);
  if ((int64_t)repeats->size() != xType.getRank())
    return n.error() << "repeats " << listToString(*repeats) << " must have " << xType.getRank()
                     << " entries for " << xType;
  SmallVector<int64_t> lifted, expanded, result;
  for (auto [size, r] : llvm::zip(xType.getShape(), *repeats)) {
    if (r < 0)
      return n.error() << "repeats " << listToString(*repeats) << " must be non-negative";
    lifted.append({1, size});
    expanded.append({r, size});
    result.push_back(r * size);
  }
  if (!isReasonableShape(result))
    return n.error() << "tiled shape " << listToString(result) << " is too large";
  Ops o(n);
  Value tiled = o.reshape(o.expand(o.reshape(o.in(0), lifted), expanded), result);
  return finish(n, o, tiled);
}

/// DepthToSpace: [N, C, H, W] -> [N, C / b^2, H * b, W * b]. DCR reads the channel as
/// (bh, bw, c), CRD as (c, bh, bw).
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
  int64_t batch = xType.getDimSize(0), c = xType.getDimSize(1), h = xType.getDimSize(2),
          w = xType.getDimSize(3);
  if (b < 1 || c % (b * b) != 0)
    return n.error() << "blocksize " << b << " must be >= 1 with blocksize^2 dividing " << c
                     << " channels";
  int64_t oc = c / (b * b);
  Ops o(n);
  Value x = o.in(0), y;
  if (mode == "DCR")
    y = o.transpose(o.reshape(x, {batch, b, b, oc, h, w}), {0, 3, 4, 1, 5, 2});
  else
    y = o.transpose(o.reshape(x, {batch, oc, b, b, h, w}), {0, 1, 4, 2, 5, 3});
  return finish(n, o, o.reshape(y, {batch, oc, h * b, w * b}));
}

/// SpaceToDepth: [N, C, H, W] -> [N, C * b^2, H / b, W / b], the inverse of DepthToSpace (DCR).
LogicalResult importSpaceToDepth(NodeImporter &n) {
  int64_t b = n.getInt("blocksize", 0);
  if (n.hasFailed())
    return failure();
  RankedTensorType xType = n.inputType(0);
  if (xType.getRank() != 4)
    return n.error() << "expects a 4-D input, got " << xType;
  int64_t batch = xType.getDimSize(0), c = xType.getDimSize(1), h = xType.getDimSize(2),
          w = xType.getDimSize(3);
  if (b < 1 || h % b != 0 || w % b != 0)
    return n.error() << "blocksize " << b << " must be >= 1 and divide the spatial dims of "
                     << xType;
  Ops o(n);
  Value y = o.transpose(o.reshape(o.in(0), {batch, c, h / b, b, w / b, b}), {0, 3, 5, 1, 2, 4});
  return finish(n, o, o.reshape(y, {batch, c * b * b, h / b, w / b}));
}

//===----------------------------------------------------------------------===//
// Normalizations
//===----------------------------------------------------------------------===//

/// A per-channel parameter [C] reshaped to [C, 1, ...] against [N, C, spatial...] of `rank`.
Value channelParam(Ops &o, Value param, int64_t channels, int64_t rank) {
  SmallVector<int64_t> shape(rank - 1, 1);
  shape[0] = channels;
  return o.reshape(param, shape);
}

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
    return o.add(old, o.mul(o.reshape(batch, n.inputType(input).getShape()),
                            o.scalar(et, 1.0 - momentum)));
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
  Value y = standardize(o, o.in(0), iota(2, rank), epsilon);
  y = o.mul(y, channelParam(o, o.in(1), channels, rank));
  y = o.add(y, channelParam(o, o.in(2), channels, rank));
  return finish(n, o, y);
}

/// GroupNormalization: statistics over [C / G, spatial...] of each group. Scale and bias are per
/// group in opset 18 and per channel from 21 (the importer's semantic opset stops at 18, so their
/// size tells which).
LogicalResult importGroupNorm(NodeImporter &n) {
  double epsilon = n.getFloat("epsilon", 1e-5);
  int64_t groups = n.getInt("num_groups", 0);
  if (n.hasFailed())
    return failure();
  RankedTensorType xType = n.inputType(0);
  int64_t rank = xType.getRank();
  if (rank < 3)
    return n.error() << "expects an input of rank >= 3 ([N, C, spatial...]), got " << xType;
  int64_t batch = xType.getDimSize(0), channels = xType.getDimSize(1);
  if (groups < 1 || channels % groups != 0)
    return n.error() << "num_groups " << groups << " must be >= 1 and divide " << channels
                     << " channels";
  int64_t size = n.inputType(1).getNumElements();
  if (n.inputType(2).getNumElements() != size || (size != groups && size != channels))
    return n.error() << "scale " << n.inputType(1) << " and bias " << n.inputType(2)
                     << " must both have num_groups (" << groups << ") or C (" << channels
                     << ") elements";
  Ops o(n);
  Value grouped = o.reshape(o.in(0), {batch, groups, xType.getNumElements() / (batch * groups)});
  Value y = standardize(o, grouped, {2}, epsilon);
  if (size == groups) {
    y = o.mul(y, o.reshape(o.in(1), {groups, 1}));
    y = o.add(y, o.reshape(o.in(2), {groups, 1}));
    return finish(n, o, o.reshape(y, xType.getShape()));
  }
  y = o.reshape(y, xType.getShape());
  y = o.mul(y, channelParam(o, o.in(1), channels, rank));
  y = o.add(y, channelParam(o, o.in(2), channels, rank));
  return finish(n, o, y);
}

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
  Value x = o.in(0);
  Value norm = p == 1 ? o.reduce<ms::ReduceSumOp>(o.op<ms::AbsOp>(x), {*normAxis}, true)
                      : o.op<ms::SqrtOp>(o.reduce<ms::ReduceSumOp>(o.mul(x, x), {*normAxis}, true));
  return finish(n, o, o.div(x, norm));
}

/// MeanVarianceNormalization: (x - mean) / (sqrt(var) + 1e-9), ONNX's function body.
LogicalResult importMeanVarianceNorm(NodeImporter &n) {
  RankedTensorType xType = n.inputType(0);
  SmallVector<int64_t> axes = n.getInts("axes").value_or(SmallVector<int64_t>{0, 2, 3});
  if (n.hasFailed())
    return failure();
  FailureOr<SmallVector<int64_t>> normAxes = normalizeAxes(n, axes, xType.getRank());
  if (failed(normAxes))
    return failure();
  llvm::sort(*normAxes);
  Ops o(n);
  Value x = o.in(0);
  Type et = xType.getElementType();
  Value centered = o.sub(x, o.reduce<ms::ReduceMeanOp>(x, *normAxes, true));
  Value variance = o.reduce<ms::ReduceMeanOp>(o.mul(centered, centered), *normAxes, true);
  Value stddev = o.add(o.op<ms::SqrtOp>(variance), o.scalar(et, 1e-9));
  return finish(n, o, o.div(centered, stddev));
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
  auto sum = [&](Value v) {
    return *axes ? o.reduce<ms::ReduceSumOp>(v, **axes, keepDims) : v;
  };
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
  Value logSum =
      o.op<ms::LogOp>(o.reduce<ms::ReduceSumOp>(o.op<ms::ExpOp>(shifted), *axes, true));
  return finish(n, o, o.sub(shifted, logSum));
}

/// Hardmax: 1 at the first maximum of each slice. The slice is flattened to one axis; the maxima
/// are counted with a prefix sum so only the first one stays.
LogicalResult importHardmax(NodeImporter &n) {
  FailureOr<SmallVector<int64_t>> axes = softmaxAxes(n);
  if (failed(axes))
    return failure();
  RankedTensorType xType = n.inputType(0);
  ArrayRef<int64_t> shape = xType.getShape();
  Type et = xType.getElementType();
  Ops o(n);
  Value x = o.in(0);
  int64_t axis = axes->front();
  if (axes->size() > 1) {
    x = o.reshape(x, {product(shape.take_front(axis)), product(shape.drop_front(axis))});
    axis = 1;
  }
  Value isMax = o.compare(ms::ComparePredicate::eq, x, o.reduce<ms::ReduceMaxOp>(x, {axis}, true));
  Value ones = o.cast(isMax, et);
  Value count = prefixSum(o, ones, axis, /*reverse=*/false);
  Value first = o.compare(ms::ComparePredicate::eq, o.mul(count, ones), o.scalar(et, 1.0));
  return finish(n, o, o.reshape(o.cast(first, et), shape));
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

/// Trilu: where(mask, x, 0). The mask keeps j - i >= k (upper) or j - i <= k (lower): a constant
/// for a known k, else a comparison of the constant [rows, cols] matrix of j - i with k at run time.
LogicalResult importTrilu(NodeImporter &n) {
  bool upper = n.getInt("upper", 1) != 0;
  if (n.hasFailed())
    return failure();
  RankedTensorType xType = n.inputType(0);
  if (xType.getRank() < 2)
    return n.error() << "expects an input of rank >= 2, got " << xType;
  int64_t rows = xType.getDimSize(xType.getRank() - 2), cols = xType.getDimSize(xType.getRank() - 1);
  if (rows * cols > kMaxKnownElements)
    return n.error() << "a " << rows << "x" << cols
                     << " mask is too large to build at compile time";
  const KnownTensor *knownK = n.known(1);
  if (n.hasInput(1) && (n.inputType(1).getNumElements() != 1 ||
                        !n.inputType(1).getElementType().isInteger(64)))
    return n.error() << "k must be an int64 scalar, got " << n.inputType(1);
  int64_t k = knownK ? knownK->intAt(0) : 0;
  if (xType.getNumElements() == 0) { // nothing to mask
    n.forwardInput(0, 0);
    return success();
  }
  SmallVector<int64_t> offsets, mask;
  for (int64_t i = 0; i < rows; ++i) {
    for (int64_t j = 0; j < cols; ++j) {
      offsets.push_back(j - i);
      mask.push_back(upper ? j - i >= k : j - i <= k);
    }
  }
  Ops o(n);
  Value maskValue;
  if (!n.hasInput(1) || knownK) {
    maskValue = o.constant(KnownTensor::fromInts({rows, cols}, n.builder().getI1Type(), mask));
  } else {
    Type i64 = n.builder().getI64Type();
    Value offsetValue = o.constant(KnownTensor::fromInts({rows, cols}, i64, offsets));
    Value kValue = o.reshape(o.in(1), {});
    maskValue = o.compare(upper ? ms::ComparePredicate::ge : ms::ComparePredicate::le,
                          offsetValue, kValue);
  }
  Value zero = o.scalar(xType.getElementType(), 0.0);
  return finish(n, o, o.where(maskValue, o.in(0), zero));
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

//===----------------------------------------------------------------------===//
// CumSum
//===----------------------------------------------------------------------===//

/// CumSum with a known axis is one scan. An axis given at run time does not change the result
/// shape, so every axis is scanned and the one asked for is selected.
LogicalResult importCumSum(NodeImporter &n) {
  bool exclusive = n.getInt("exclusive", 0) != 0, reverse = n.getInt("reverse", 0) != 0;
  if (n.hasFailed())
    return failure();
  RankedTensorType xType = n.inputType(0), axisType = n.inputType(1);
  int64_t rank = xType.getRank();
  if (rank == 0)
    return n.error() << "expects an input of rank >= 1, got " << xType;
  if (axisType.getNumElements() != 1 || !isa<IntegerType>(axisType.getElementType()))
    return n.error() << "axis must be an integer scalar, got " << axisType;
  Ops o(n);
  Value x = o.in(0);
  auto scan = [&](int64_t axis) {
    Value v = exclusive ? shift(o, x, axis, 1, reverse) : x;
    return prefixSum(o, v, axis, reverse);
  };
  if (const KnownTensor *axis = n.known(1)) {
    FailureOr<int64_t> normAxis = normalizeAxis(n, axis->intAt(0), rank);
    if (failed(normAxis))
      return failure();
    return finish(n, o, scan(*normAxis));
  }
  Type axisElement = axisType.getElementType();
  Value axis = o.reshape(o.in(1), {});
  Value zero = o.scalar(axisElement, 0.0);
  axis = o.where(o.compare(ms::ComparePredicate::lt, axis, zero),
                 o.add(axis, o.scalar(axisElement, (double)rank)), axis);
  Value result = scan(rank - 1);
  for (int64_t a = rank - 2; a >= 0 && !o.failed(); --a)
    result = o.where(o.compare(ms::ComparePredicate::eq, axis, o.scalar(axisElement, (double)a)),
                     scan(a), result);
  return finish(n, o, result);
}

//===----------------------------------------------------------------------===//
// Upsample, LRN, ConvTranspose
//===----------------------------------------------------------------------===//

/// Upsample (opsets 7-9): an ms.resize to floor(dim * scale) with Upsample's asymmetric
/// coordinates (nearest rounds down).
LogicalResult importUpsample(NodeImporter &n) {
  std::string mode = n.getString("mode", "nearest");
  if (n.hasFailed())
    return failure();
  SmallVector<double> scales;
  if (n.hasInput(1)) {
    FailureOr<const KnownTensor *> known = n.requireKnown(1, "scales");
    if (failed(known))
      return failure();
    for (int64_t i = 0, e = (*known)->numElements(); i < e; ++i)
      scales.push_back((*known)->valueAt(i));
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
    sizes.push_back(static_cast<int64_t>(std::floor(dim * scale)));
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

/// LRN: x / (bias + alpha / size * sum of squares over a channel window)^beta. The window sum is
/// size * an average pool (zero padding counted) over the channel dim of [N, 1, C, spatial].
LogicalResult importLRN(NodeImporter &n) {
  double alpha = n.getFloat("alpha", 1e-4), beta = n.getFloat("beta", 0.75),
         bias = n.getFloat("bias", 1.0);
  int64_t size = n.getInt("size", 0);
  if (n.hasFailed())
    return failure();
  RankedTensorType xType = n.inputType(0);
  if (xType.getRank() < 3)
    return n.error() << "expects an input of rank >= 3 ([N, C, spatial...]), got " << xType;
  if (size < 1)
    return n.error() << "size must be >= 1, got " << size;
  ArrayRef<int64_t> shape = xType.getShape();
  Type et = xType.getElementType();
  int64_t before = (size - 1) / 2, after = size - 1 - before;
  Ops o(n);
  Value x = o.in(0);
  Value squares = o.reshape(o.mul(x, x), {shape[0], 1, shape[1], product(shape.drop_front(2))});
  Value mean = o.op<ms::AvgPoolOp>(squares, ArrayRef<int64_t>{size, 1}, ArrayRef<int64_t>{1, 1},
                                   ArrayRef<int64_t>{before, 0, after, 0},
                                   ArrayRef<int64_t>{1, 1}, false, true);
  Value base = o.add(o.scalar(et, bias), o.mul(o.scalar(et, alpha), o.reshape(mean, shape)));
  return finish(n, o, o.div(x, o.op<ms::PowOp>(base, o.scalar(et, beta))));
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

/// The ms.conv2d weight [g * Cout/g, Cin/g, kh, kw] of a ConvTranspose whose weight
/// [Cin, Cout/g, kh, kw] is model data, built at import as a new resource (so no transpose runs
/// per inference); null when the weight is computed or not a resource.
Value flippedWeight(NodeImporter &n, Ops &o, Value weight, int64_t group,
                    ArrayRef<int64_t> convShape) {
  if (o.failed())
    return Value();
  auto constant = weight.getDefiningOp<ms::ConstantOp>();
  auto resource = constant ? dyn_cast<DenseResourceElementsAttr>(constant.getValue())
                           : DenseResourceElementsAttr();
  if (!resource || !resource.getRawHandle().getBlob())
    return Value();
  ArrayRef<char> bytes = resource.getData();
  RankedTensorType type = typeOf(weight);
  int64_t count = type.getNumElements();
  if (count == 0 || bytes.size() % count != 0)
    return Value();
  size_t width = bytes.size() / count;
  int64_t cout = convShape[0], cinPerGroup = convShape[1], kh = convShape[2], kw = convShape[3];
  int64_t coutPerGroup = cout / group;
  std::vector<char> flipped(bytes.size());
  char *to = flipped.data();
  for (int64_t oc = 0; oc < cout; ++oc) {
    int64_t g = oc / coutPerGroup, ocInGroup = oc % coutPerGroup;
    for (int64_t ic = 0; ic < cinPerGroup; ++ic) {
      for (int64_t y = 0; y < kh; ++y) {
        for (int64_t x = 0; x < kw; ++x, to += width) {
          int64_t from = (((g * cinPerGroup + ic) * coutPerGroup + ocInGroup) * kh + (kh - 1 - y)) *
                             kw +
                         (kw - 1 - x);
          std::memcpy(to, bytes.data() + from * width, width);
        }
      }
    }
  }
  AsmResourceBlob blob = HeapAsmResourceBlob::allocateAndCopyWithAlign(
      flipped, resource.getRawHandle().getBlob()->getDataAlignment(), /*dataIsMutable=*/false);
  std::string name = (resource.getRawHandle().getKey() + ".flipped").str();
  auto attr = DenseResourceElementsAttr::get(type.clone(convShape), name, std::move(blob));
  OpBuilder &b = n.builder();
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointAfter(constant); // with the model's other constants
  return ms::ConstantOp::create(b, constant.getLoc(), attr);
}

/// ConvTranspose (1-D and 2-D): the input gets stride - 1 zeros between elements (reshape, pad,
/// reshape), then a pad of k_eff - 1 - pad on each side (negative: a crop) plus output_padding at
/// the end, then a stride-1 ms.conv2d with the weight [Cin, Cout / g, kh, kw] regrouped to
/// [Cout, Cin / g, kh, kw] and flipped spatially. 1-D runs as 2-D with a height of 1.
LogicalResult importConvTranspose(NodeImporter &n) {
  RankedTensorType xType = n.inputType(0), wType = n.inputType(1);
  int64_t rank = xType.getRank();
  if (rank != 3 && rank != 4)
    return n.unsupportedFeature() << "only 1-D and 2-D transposed convolutions are implemented, "
                                     "got an input "
                                  << xType;
  if (wType.getRank() != rank)
    return n.error() << "weight " << wType << " must have the rank of the input " << xType;
  size_t spatial = rank - 2;
  int64_t group = n.getInt("group", 1);
  std::string autoPad = n.getString("auto_pad", "NOTSET");
  FailureOr<SmallVector<int64_t>> strides = spatialInts(n, "strides", spatial, 1);
  FailureOr<SmallVector<int64_t>> dilations = spatialInts(n, "dilations", spatial, 1);
  FailureOr<SmallVector<int64_t>> outputPadding = spatialInts(n, "output_padding", spatial, 0);
  if (failed(strides) || failed(dilations) || failed(outputPadding) || n.hasFailed())
    return failure();
  std::optional<SmallVector<int64_t>> pads = n.getInts("pads");
  std::optional<SmallVector<int64_t>> outputShape = n.getInts("output_shape");
  std::optional<SmallVector<int64_t>> kernelShape = n.getInts("kernel_shape");
  if (n.hasFailed())
    return failure();
  ArrayRef<int64_t> in = xType.getShape().drop_front(2), kernel = wType.getShape().drop_front(2);
  if (kernelShape && ArrayRef<int64_t>(*kernelShape) != kernel)
    return n.error() << "kernel_shape " << listToString(*kernelShape)
                     << " does not match the weight " << wType;
  int64_t cin = xType.getDimSize(1);
  if (group < 1 || cin % group != 0 || wType.getDimSize(0) != cin)
    return n.error() << "weight " << wType << " and group " << group << " do not fit the input "
                     << xType;
  for (size_t i = 0; i < spatial; ++i)
    if ((*strides)[i] < 1 || (*dilations)[i] < 1 || (*outputPadding)[i] < 0)
      return n.error() << "strides and dilations must be >= 1 and output_padding >= 0";
  if (outputShape && outputShape->size() == spatial + 2)
    outputShape->erase(outputShape->begin(), outputShape->begin() + 2); // [N, C, spatial...]

  SmallVector<int64_t> kEff, begin(spatial), end(spatial);
  for (size_t i = 0; i < spatial; ++i)
    kEff.push_back((kernel[i] - 1) * (*dilations)[i] + 1);
  if (autoPad != "NOTSET" && autoPad != "VALID" && autoPad != "SAME_UPPER" &&
      autoPad != "SAME_LOWER")
    return n.error() << "auto_pad '" << autoPad << "' is not supported";
  if (pads && autoPad == "NOTSET") {
    if (pads->size() != 2 * spatial)
      return n.error() << "'pads' " << listToString(*pads) << " must have " << 2 * spatial
                       << " entries";
    for (size_t i = 0; i < spatial; ++i) {
      begin[i] = (*pads)[i];
      end[i] = (*pads)[i + spatial];
    }
  } else if (outputShape || autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
    // The total padding that gives the requested size (ONNX: in * stride for SAME_*); the odd
    // unit goes to the end for SAME_UPPER, to the beginning otherwise.
    if (outputShape && outputShape->size() != spatial)
      return n.error() << "output_shape " << listToString(*outputShape) << " must have "
                       << spatial << " entries";
    for (size_t i = 0; i < spatial; ++i) {
      int64_t out = outputShape ? (*outputShape)[i] : in[i] * (*strides)[i];
      int64_t total = (*strides)[i] * (in[i] - 1) + (*outputPadding)[i] + kEff[i] - out;
      int64_t half = llvm::divideFloorSigned(total, 2); // total < 0 extends the end with zeros
      begin[i] = autoPad == "SAME_UPPER" ? half : total - half;
      end[i] = total - begin[i];
    }
  }
  SmallVector<int64_t> outSpatial;
  for (size_t i = 0; i < spatial; ++i) {
    outSpatial.push_back((*strides)[i] * (in[i] - 1) + (*outputPadding)[i] + kEff[i] - begin[i] -
                         end[i]);
    if (outSpatial.back() < 1)
      return n.error() << "pads and output_shape give an empty output";
  }

  // Everything below is 2-D: a 1-D op gets a leading spatial dim of 1.
  auto lift = [&](ArrayRef<int64_t> v, int64_t one) {
    SmallVector<int64_t> lifted(v);
    if (spatial == 1)
      lifted.insert(lifted.begin(), one);
    return lifted;
  };
  SmallVector<int64_t> s = lift(*strides, 1), d = lift(*dilations, 1), k = lift(kernel, 1),
                       keff = lift(kEff, 1), inHW = lift(in, 1), b = lift(begin, 0),
                       e = lift(end, 0), op = lift(*outputPadding, 0);
  int64_t batch = xType.getDimSize(0), coutPerGroup = wType.getDimSize(1),
          cinPerGroup = cin / group;

  Ops o(n);
  Value x = o.reshape(o.in(0), {batch, cin, inHW[0], inHW[1]});
  // Zero insertion: [N, C, H, 1, W, 1] padded to [N, C, H, sh, W, sw]; the trailing stride - 1 zeros
  // are cropped by the next pad.
  x = o.reshape(x, {batch, cin, inHW[0], 1, inHW[1], 1});
  x = o.pad(x, {0, 0, 0, 0, 0, 0, 0, 0, 0, s[0] - 1, 0, s[1] - 1});
  x = o.reshape(x, {batch, cin, inHW[0] * s[0], inHW[1] * s[1]});
  x = o.pad(x, {0, 0, keff[0] - 1 - b[0], keff[1] - 1 - b[1], 0, 0,
                keff[0] - 1 - e[0] + op[0] - (s[0] - 1), keff[1] - 1 - e[1] + op[1] - (s[1] - 1)});

  SmallVector<int64_t> convWeightShape = {group * coutPerGroup, cinPerGroup, k[0], k[1]};
  Value w = o.in(1);
  if (Value flipped = flippedWeight(n, o, w, group, convWeightShape)) {
    w = flipped;
  } else {
    w = o.reshape(w, {group, cinPerGroup, coutPerGroup, k[0], k[1]});
    w = o.transpose(w, {0, 2, 1, 3, 4});
    w = o.slice(o.reshape(w, convWeightShape), {0, 0, k[0] - 1, k[1] - 1}, convWeightShape,
                {1, 1, -1, -1});
  }
  Value bias;
  if (n.hasInput(2))
    bias = o.in(2);
  Value y = o.op<ms::Conv2dOp>(x, w, bias, ArrayRef<int64_t>{1, 1}, ArrayRef<int64_t>{0, 0, 0, 0},
                               ArrayRef<int64_t>(d), static_cast<uint64_t>(group), TypeAttr());
  SmallVector<int64_t> outShape = {batch, group * coutPerGroup};
  llvm::append_range(outShape, outSpatial);
  return finish(n, o, o.reshape(y, outShape));
}

//===----------------------------------------------------------------------===//
// Einsum
//===----------------------------------------------------------------------===//

/// An operand of an einsum being contracted: its value and one label per dim.
struct Labeled {
  Value value;
  std::string labels;
};

/// Sums `x` over every label for which `drop` holds.
Labeled sumOut(Ops &o, Labeled x, function_ref<bool(char)> drop) {
  SmallVector<int64_t> axes;
  std::string kept;
  for (auto [i, label] : llvm::enumerate(x.labels)) {
    if (drop(label))
      axes.push_back(i);
    else
      kept.push_back(label);
  }
  if (axes.empty())
    return x;
  return {o.reduce<ms::ReduceSumOp>(x.value, axes, false), kept};
}

/// Takes the diagonal of every label repeated within one operand ("ii->i"): the operand is
/// multiplied by an identity mask over the two dims, then summed over the second.
Labeled takeDiagonals(Ops &o, Labeled x) {
  for (size_t q = 1; q < x.labels.size() && !o.failed(); ++q) {
    size_t p = x.labels.find(x.labels[q]);
    if (p == q)
      continue;
    RankedTensorType type = typeOf(x.value);
    int64_t size = type.getDimSize(p);
    SmallVector<int64_t> maskShape(type.getRank(), 1), eye;
    maskShape[p] = maskShape[q] = size;
    for (int64_t i = 0; i < size; ++i)
      for (int64_t j = 0; j < size; ++j)
        eye.push_back(i == j);
    Value mask = o.constant(KnownTensor::fromInts(maskShape, type.getElementType(), eye));
    x.value = o.reduce<ms::ReduceSumOp>(o.mul(x.value, mask), {(int64_t)q}, false);
    x.labels.erase(q, 1);
    --q;
  }
  return x;
}

/// Contracts two operands with one batched ms.matmul: [batch, M, K] x [batch, K, N], where batch
/// labels are shared and kept, K labels shared and summed, M and N labels those of one side.
Labeled contract(Ops &o, Labeled a, Labeled b, StringRef keep) {
  std::string batch, m, k, nn;
  for (char l : a.labels) {
    bool inB = b.labels.find(l) != std::string::npos, kept = keep.contains(l);
    (inB ? (kept ? batch : k) : m).push_back(l);
  }
  for (char l : b.labels)
    if (a.labels.find(l) == std::string::npos)
      nn.push_back(l);
  auto dims = [&](const Labeled &x, StringRef labels) {
    SmallVector<int64_t> perm, sizes;
    for (char l : labels) {
      perm.push_back(x.labels.find(l));
      sizes.push_back(typeOf(x.value).getDimSize(perm.back()));
    }
    return std::make_pair(perm, sizes);
  };
  auto [aBatchPerm, aBatch] = dims(a, batch);
  auto [bBatchPerm, bBatch] = dims(b, batch);
  auto [mPerm, mSizes] = dims(a, m);
  auto [kPermA, kSizesA] = dims(a, k);
  auto [kPermB, kSizesB] = dims(b, k);
  auto [nPerm, nSizes] = dims(b, nn);
  // Shared dims of size 1 on one side broadcast to the other.
  SmallVector<int64_t> batchSizes, kSizes;
  for (auto [x, y] : llvm::zip(aBatch, bBatch))
    batchSizes.push_back(std::max(x, y));
  for (auto [x, y] : llvm::zip(kSizesA, kSizesB))
    kSizes.push_back(std::max(x, y));
  SmallVector<int64_t> aPerm = aBatchPerm, bPerm = bBatchPerm;
  llvm::append_range(aPerm, mPerm);
  llvm::append_range(aPerm, kPermA);
  llvm::append_range(bPerm, kPermB);
  llvm::append_range(bPerm, nPerm);
  SmallVector<int64_t> aFull = batchSizes, bFull = batchSizes;
  llvm::append_range(aFull, mSizes);
  llvm::append_range(aFull, kSizes);
  llvm::append_range(bFull, kSizes);
  llvm::append_range(bFull, nSizes);
  int64_t bt = product(batchSizes), mt = product(mSizes), kt = product(kSizes),
          nt = product(nSizes);
  Value lhs = o.reshape(o.expand(o.transpose(a.value, aPerm), aFull), {bt, mt, kt});
  Value rhs = o.reshape(o.expand(o.transpose(b.value, bPerm), bFull), {bt, kt, nt});
  Value product = o.op<ms::MatMulOp>(lhs, rhs, TypeAttr());
  SmallVector<int64_t> outShape = batchSizes;
  llvm::append_range(outShape, mSizes);
  llvm::append_range(outShape, nSizes);
  return {o.reshape(product, outShape), batch + m + nn};
}

/// Einsum: explicit ("ij,jk->ik") or implicit output, "..." for leading dims. Operands are
/// contracted left to right; labels no later operand or the output needs are summed first.
LogicalResult importEinsum(NodeImporter &n) {
  std::string equation = n.getString("equation", "");
  if (n.hasFailed())
    return failure();
  std::string eq;
  for (char c : equation)
    if (c != ' ')
      eq.push_back(c);
  size_t arrow = eq.find("->");
  std::string lhs = eq.substr(0, arrow);
  std::optional<std::string> output;
  if (arrow != std::string::npos)
    output = eq.substr(arrow + 2);
  SmallVector<StringRef> pieces;
  StringRef(lhs).split(pieces, ',');
  SmallVector<std::string> terms;
  for (StringRef term : pieces)
    terms.push_back(term.str());
  unsigned count = n.node().inputs.size();
  if (terms.size() != count)
    return n.error() << "equation '" << equation << "' names " << terms.size()
                     << " operands, the node has " << count;

  // "..." becomes labels '0', '1', ... for the leading dims (right-aligned across operands).
  int64_t ellipsisRank = 0;
  auto expandEllipsis = [&](std::string &term, int64_t rank) -> LogicalResult {
    size_t dots = term.find("...");
    if (dots == std::string::npos)
      return success();
    int64_t covered = rank - (int64_t)(term.size() - 3);
    if (covered < 0 || covered > 10)
      return failure();
    std::string labels;
    for (int64_t i = 0; i < covered; ++i)
      labels.push_back('0' + (char)(10 - covered + i));
    ellipsisRank = std::max(ellipsisRank, covered);
    term.replace(dots, 3, labels);
    return success();
  };
  for (unsigned i = 0; i < count; ++i) {
    int64_t rank = n.inputType(i).getRank();
    if (failed(expandEllipsis(terms[i], rank)) || (int64_t)terms[i].size() != rank ||
        !llvm::all_of(terms[i], [](char c) { return llvm::isAlnum(c); }))
      return n.error() << "term '" << terms[i] << "' of '" << equation << "' does not fit operand "
                       << i << " of type " << n.inputType(i);
  }
  std::string out;
  if (output) {
    out = *output;
    size_t dots = out.find("...");
    if (dots != std::string::npos) {
      std::string labels;
      for (int64_t i = 0; i < ellipsisRank; ++i)
        labels.push_back('0' + (char)(10 - ellipsisRank + i));
      out.replace(dots, 3, labels);
    }
  } else {
    // Implicit output: the ellipsis dims, then the labels used once, in alphabetical order.
    std::map<char, int> uses;
    for (const std::string &term : terms)
      for (char c : term)
        ++uses[c];
    for (int64_t i = 0; i < ellipsisRank; ++i)
      out.push_back('0' + (char)(10 - ellipsisRank + i));
    for (auto [c, uses] : uses)
      if (uses == 1 && !llvm::isDigit(c))
        out.push_back(c);
  }
  for (char c : out)
    if (llvm::none_of(terms, [&](const std::string &t) { return t.find(c) != std::string::npos; }) ||
        llvm::count(out, c) != 1)
      return n.error() << "output '" << out << "' of '" << equation
                       << "' names a label that is repeated or not in any operand";

  Ops o(n);
  std::optional<Labeled> acc;
  for (unsigned i = 0; i < count && !o.failed(); ++i) {
    Labeled next = takeDiagonals(o, {o.in(i), terms[i]});
    // Labels needed after this step: the output's and those of later operands.
    std::string later = out;
    for (unsigned j = i + 1; j < count; ++j)
      later += terms[j];
    auto unneeded = [&later](const Labeled *other) {
      return [&later, other](char l) {
        return later.find(l) == std::string::npos &&
               (!other || other->labels.find(l) == std::string::npos);
      };
    };
    if (!acc) {
      acc = count == 1 ? sumOut(o, next, unneeded(nullptr)) : next;
      continue;
    }
    acc = sumOut(o, *acc, unneeded(&next));
    next = sumOut(o, next, unneeded(&*acc));
    acc = contract(o, *acc, next, later);
  }
  if (o.failed())
    return failure();
  acc = sumOut(o, *acc, [&](char l) { return out.find(l) == std::string::npos; });
  SmallVector<int64_t> perm;
  for (char l : out)
    perm.push_back(acc->labels.find(l));
  return finish(n, o, o.transpose(acc->value, perm));
}

} // namespace

void mlir::mie::onnx_import::registerCompositeOps(OnnxOpTable &table) {
  table["Tile"] = {importTile, 2, 2, 6};
  table["DepthToSpace"] = {importDepthToSpace, 1, 1};
  table["SpaceToDepth"] = {importSpaceToDepth, 1, 1};
  table["InstanceNormalization"] = {importInstanceNorm, 3, 3};
  table["GroupNormalization"] = {importGroupNorm, 3, 3, 18};
  table["LpNormalization"] = {importLpNorm, 1, 1};
  table["MeanVarianceNormalization"] = {importMeanVarianceNorm, 1, 1, 9};
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
  table["CumSum"] = {importCumSum, 2, 2, 11};
  table["Upsample"] = {importUpsample, 1, 2, 7};
  table["LRN"] = {importLRN, 1, 1};
  table["ConvTranspose"] = {importConvTranspose, 2, 3};
  table["Einsum"] = {importEinsum, 1, ~0u, 12};
}
