//===- OnnxCompositeIndexingOps.cpp - ReverseSequence, Col2Im, ... --------===//
//
// Ops that move elements to positions computed at run time, written with ms.gather_elements or
// ms.scatter_elements and index arithmetic in ms ops: ReverseSequence (each batch entry's first
// sequence_lens[b] steps reversed), TensorScatter (opset 24's key/value cache update, linear or
// circular) and MaxUnpool (the values scattered to their pooling indices in a zero tensor).
// Col2Im (sliding blocks added into an image) becomes ms.col2im.
//
//===----------------------------------------------------------------------===//

#include "OnnxCompositeBuilder.h"

using namespace mlir;
using namespace mlir::mie::onnx_import;
using namespace mlir::mie::onnx_import::composite;

namespace {

/// A 1-D int64 value laid along dim `axis` of a rank-`rank` shape (ones elsewhere).
Value alongAxis(Ops &o, Value v, int64_t axis, int64_t rank) {
  SmallVector<int64_t> shape(rank, 1);
  shape[axis] = typeOf(v).getNumElements();
  return o.reshape(v, shape);
}

/// ReverseSequence: out[t, b] = in[len[b] - 1 - t, b] for t < len[b], else in[t, b] (time and
/// batch axes 0/1 in either order): one gather along the time axis.
LogicalResult importReverseSequence(NodeImporter &n) {
  int64_t batchAxis = n.getInt("batch_axis", 1), timeAxis = n.getInt("time_axis", 0);
  if (n.hasFailed())
    return failure();
  RankedTensorType xType = n.inputType(0), lType = n.inputType(1);
  int64_t rank = xType.getRank();
  if (rank < 2 || !((batchAxis == 0 && timeAxis == 1) || (batchAxis == 1 && timeAxis == 0)))
    return n.error() << "expects an input of rank >= 2 and batch_axis/time_axis 0 and 1, got "
                     << xType << " with batch_axis " << batchAxis << " and time_axis " << timeAxis;
  int64_t batch = xType.getDimSize(batchAxis), steps = xType.getDimSize(timeAxis);
  if (lType.getRank() != 1 || lType.getDimSize(0) != batch ||
      !lType.getElementType().isSignlessInteger(64))
    return n.error() << "sequence_lens " << lType << " must be int64 [" << batch << "]";
  Ops o(n);
  Type i64 = n.builder().getI64Type();
  Value time =
      alongAxis(o, o.constant(KnownTensor::fromInts({steps}, i64, iota(0, steps))), timeAxis, rank);
  Value lens = alongAxis(o, o.in(1), batchAxis, rank);
  Value reversed = o.sub(o.sub(lens, o.scalar(i64, 1.0)), time);
  Value index = o.where(o.compare(ms::ComparePredicate::lt, time, lens), reversed, time);
  index = o.expand(index, xType.getShape());
  return finish(n, o, o.op<ms::GatherElementsOp>(o.in(0), index, uint64_t(timeAxis)));
}

/// TensorScatter: present[b, ..., p, ...] = update[b, ..., p - w[b], ...] where 0 <= p - w[b] <
/// the update's length (p - w[b] taken modulo the cache length in circular mode), else
/// past[b, ..., p, ...]; w is write_indices (zeros when absent).
LogicalResult importTensorScatter(NodeImporter &n) {
  int64_t axis = n.getInt("axis", -2);
  std::string mode = n.getString("mode", "linear");
  if (n.hasFailed())
    return failure();
  if (mode != "linear" && mode != "circular")
    return n.error() << "mode '" << mode << "' must be linear or circular";
  RankedTensorType cType = n.inputType(0), uType = n.inputType(1);
  int64_t rank = cType.getRank();
  if (rank < 2 || uType.getRank() != rank || uType.getElementType() != cType.getElementType())
    return n.error() << "expects past_cache and update of one rank (>= 2) and type, got " << cType
                     << " and " << uType;
  FailureOr<int64_t> normAxis = normalizeAxis(n, axis, rank);
  if (failed(normAxis))
    return failure();
  if (*normAxis == 0)
    return n.error() << "axis must not be the batch axis 0";
  for (int64_t d = 0; d < rank; ++d)
    if (d == *normAxis ? uType.getDimSize(d) > cType.getDimSize(d)
                       : uType.getDimSize(d) != cType.getDimSize(d))
      return n.error() << "update " << uType << " does not fit past_cache " << cType
                       << " along axis " << *normAxis;
  int64_t length = cType.getDimSize(*normAxis), updates = uType.getDimSize(*normAxis);
  int64_t batch = cType.getDimSize(0);
  if (n.hasInput(2)) {
    RankedTensorType wType = n.inputType(2);
    if (wType.getRank() != 1 || wType.getDimSize(0) != batch ||
        !wType.getElementType().isSignlessInteger(64))
      return n.error() << "write_indices " << wType << " must be int64 [" << batch << "]";
  }
  if (updates == 0) { // nothing to write
    n.forwardInput(0, 0);
    return success();
  }
  Ops o(n);
  Type i64 = n.builder().getI64Type();
  Value positions = alongAxis(
      o, o.constant(KnownTensor::fromInts({length}, i64, iota(0, length))), *normAxis, rank);
  Value offset = positions;
  if (n.hasInput(2))
    offset = o.sub(positions, alongAxis(o, o.in(2), 0, rank));
  if (mode == "circular")
    offset = o.op<ms::ModOp>(offset, o.scalar(i64, (double)length), false);
  Value written = o.op<ms::AndOp>(
      o.compare(ms::ComparePredicate::ge, offset, o.scalar(i64, 0.0)),
      o.compare(ms::ComparePredicate::lt, offset, o.scalar(i64, (double)updates)));
  Value index = o.op<ms::MinOp>(o.op<ms::MaxOp>(offset, o.scalar(i64, 0.0)),
                                o.scalar(i64, (double)(updates - 1)));
  Value gathered = o.op<ms::GatherElementsOp>(o.in(1), o.expand(index, cType.getShape()),
                                              uint64_t(*normAxis));
  return finish(n, o, o.where(written, gathered, o.in(0)));
}

/// MaxUnpool: a zero tensor of the output shape (inferred from kernel_shape, strides and pads, or
/// the known output_shape input) with X's values scattered to their flat indices.
LogicalResult importMaxUnpool(NodeImporter &n) {
  std::optional<SmallVector<int64_t>> kernel = n.getInts("kernel_shape");
  std::optional<SmallVector<int64_t>> stridesAttr = n.getInts("strides");
  std::optional<SmallVector<int64_t>> padsAttr = n.getInts("pads");
  if (n.hasFailed())
    return failure();
  RankedTensorType xType = n.inputType(0), iType = n.inputType(1);
  int64_t rank = xType.getRank(), spatial = rank - 2;
  if (!kernel || (int64_t)kernel->size() != spatial || spatial < 1)
    return n.error() << "expects kernel_shape with one entry per spatial dim of " << xType;
  SmallVector<int64_t> strides = stridesAttr.value_or(SmallVector<int64_t>(spatial, 1));
  SmallVector<int64_t> pads = padsAttr.value_or(SmallVector<int64_t>(2 * spatial, 0));
  if ((int64_t)strides.size() != spatial || (int64_t)pads.size() != 2 * spatial)
    return n.error() << "strides " << listToString(strides) << " and pads " << listToString(pads)
                     << " must have " << spatial << " and " << 2 * spatial << " entries";
  if (iType.getShape() != xType.getShape() || !iType.getElementType().isSignlessInteger(64))
    return n.error() << "indices " << iType << " must be int64 of X's shape " << xType;
  // The indices address the inferred (unpadded pooling input) shape; an explicit output_shape
  // puts that block at its origin and fills the rest with zeros, as ONNX's reference does.
  SmallVector<int64_t> inferred(xType.getShape().take_front(2));
  for (int64_t d = 0; d < spatial; ++d)
    inferred.push_back((xType.getDimSize(d + 2) - 1) * strides[d] - pads[d] - pads[d + spatial] +
                       (*kernel)[d]);
  if (!isReasonableShape(inferred))
    return n.error() << "output shape " << listToString(inferred) << " is not valid";
  SmallVector<int64_t> growth(2 * rank, 0);
  if (n.hasInput(2)) {
    FailureOr<SmallVector<int64_t>> known = knownInts(n, 2, "output_shape");
    if (failed(known))
      return failure();
    if ((int64_t)known->size() != rank)
      return n.error() << "output_shape " << listToString(*known) << " must have " << rank
                       << " entries";
    for (int64_t d = 0; d < rank; ++d) {
      growth[rank + d] = (*known)[d] - inferred[d];
      if (growth[rank + d] < 0 || (d < 2 && growth[rank + d] != 0))
        return n.error() << "output_shape " << listToString(*known)
                         << " must keep N and C and be at least the unpooled shape "
                         << listToString(inferred);
    }
  }
  int64_t total = product(inferred), count = xType.getNumElements();
  Ops o(n);
  Value zeros = o.expand(o.scalar(xType.getElementType(), 0.0), {total});
  Value flat = o.op<ms::ScatterElementsOp>(zeros, o.reshape(o.in(1), {count}),
                                           o.reshape(o.in(0), {count}), uint64_t(0),
                                           ms::ScatterReduction::none);
  return finish(n, o, o.pad(o.reshape(flat, inferred), growth));
}

/// Col2Im: the sum of sliding blocks into an image (PyTorch's fold), as ms.col2im (ms-decompose
/// scatters the blocks: dialects/ms/Transforms/DecomposeSamplingPatterns.cpp). The known
/// image_shape and block_shape and the attributes are checked here, where the node can be named.
LogicalResult importCol2Im(NodeImporter &n) {
  RankedTensorType xType = n.inputType(0);
  FailureOr<SmallVector<int64_t>> image = knownInts(n, 1, "image_shape");
  if (failed(image))
    return failure();
  FailureOr<SmallVector<int64_t>> block = knownInts(n, 2, "block_shape");
  if (failed(block))
    return failure();
  int64_t dims = image->size();
  auto attr = [&](StringRef name, int64_t count, int64_t fill) {
    return n.getInts(name).value_or(SmallVector<int64_t>(count, fill));
  };
  SmallVector<int64_t> strides = attr("strides", dims, 1), dilations = attr("dilations", dims, 1),
                       pads = attr("pads", 2 * dims, 0);
  if (n.hasFailed())
    return failure();
  if (dims < 1 || (int64_t)block->size() != dims || (int64_t)strides.size() != dims ||
      (int64_t)dilations.size() != dims || (int64_t)pads.size() != 2 * dims)
    return n.error() << "image_shape " << listToString(*image) << ", block_shape "
                     << listToString(*block) << ", strides, dilations and pads "
                     << listToString(pads) << " must agree in their number of dims";
  auto positive = [](ArrayRef<int64_t> v) { return llvm::all_of(v, [](int64_t x) { return x > 0; }); };
  if (!positive(*image) || !positive(*block) || !positive(strides) || !positive(dilations) ||
      llvm::any_of(pads, [](int64_t p) { return p < 0; }))
    return n.error() << "image_shape, block_shape, strides and dilations must be positive and pads "
                        "non-negative";
  // Bounded before any arithmetic on them (sums, products), so that none can overflow.
  constexpr int64_t kMaxExtent = int64_t(1) << 31;
  auto bounded = [&](ArrayRef<int64_t> v) {
    return llvm::all_of(v, [&](int64_t x) { return x < kMaxExtent; });
  };
  if (!bounded(*image) || !bounded(*block) || !bounded(strides) || !bounded(dilations) ||
      !bounded(pads))
    return n.error() << "image_shape, block_shape, strides, dilations and pads must be below 2^31";
  if (!isReasonableShape(*block))
    return n.error() << "block_shape " << listToString(*block) << " is too large";
  if (xType.getRank() != 3 || !xType.hasStaticShape())
    return n.error() << "input " << xType << " must be a static [N, C * prod(block_shape), L]";
  int64_t taps = product(*block), batch = xType.getDimSize(0);
  if (xType.getDimSize(1) % taps != 0)
    return n.error() << "input dim 1 (" << xType.getDimSize(1)
                     << ") must be a multiple of prod(block_shape) = " << taps;
  int64_t channels = xType.getDimSize(1) / taps;
  SmallVector<int64_t> grid, padded;
  for (int64_t d = 0; d < dims; ++d) {
    padded.push_back((*image)[d] + pads[d] + pads[d + dims]);
    int64_t span = padded.back() - (dilations[d] * ((*block)[d] - 1) + 1);
    if (span < 0)
      return n.error() << "block " << listToString(*block) << " does not fit the padded image "
                       << listToString(padded);
    grid.push_back(span / strides[d] + 1);
  }
  if (!isReasonableShape(grid) || !isReasonableShape(padded))
    return n.error() << "padded image " << listToString(padded) << " is too large";
  int64_t blocks = product(grid);
  if (xType.getDimSize(2) != blocks)
    return n.error() << "input dim 2 (" << xType.getDimSize(2) << ") must be the number of blocks, "
                     << blocks << " (" << listToString(grid) << ")";
  int64_t cells = product(padded);
  if (!isReasonableShape(SmallVector<int64_t>{batch, channels, cells}))
    return n.error() << "padded image " << listToString(padded) << " is too large";
  Ops o(n);
  return finish(n, o, o.op<ms::Col2ImOp>(o.in(0), *image, *block, strides, dilations, pads));
}

} // namespace

void mlir::mie::onnx_import::composite::registerCompositeIndexingOps(OnnxOpTable &table) {
  table["ReverseSequence"] = {importReverseSequence, 2, 2, 10};
  table["TensorScatter"] = {importTensorScatter, 2, 3, 24};
  table["MaxUnpool"] = {importMaxUnpool, 2, 3, 9};
  table["Col2Im"] = {importCol2Im, 3, 3, 18};
}
