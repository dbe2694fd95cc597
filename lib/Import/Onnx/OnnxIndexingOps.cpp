//===- OnnxIndexingOps.cpp - arg reductions, top-k, cumsum, gathers, scatters ===//
//
// ArgMax, ArgMin, TopK, CumSum, GatherElements, GatherND, ScatterElements (and its opset 9-10
// name Scatter) and ScatterND, each onto its ms op. A known TopK K sets the output shape; a
// runtime one makes the axis a data-dependent extent; CumSum's axis may be a runtime input. Known index inputs are range-checked here, so an
// out-of-range index in the model itself is reported at the node; runtime indices out of range
// are clamped by the lowering.
//
//===----------------------------------------------------------------------===//

#include "OnnxImporterInternal.h"

#include "dialects/ms/IR/MsOps.h"

using namespace mlir;
using namespace mlir::mie::onnx_import;

namespace {

/// ArgMax / ArgMin (opsets 1-13; select_last_index from 12).
template <typename OpTy>
LogicalResult importArgReduce(NodeImporter &n) {
  int64_t axis = n.getInt("axis", 0);
  bool keepDims = n.getInt("keepdims", 1) != 0;
  bool last = n.getInt("select_last_index", 0) != 0;
  if (n.hasFailed())
    return failure();
  FailureOr<Value> x = n.input(0);
  if (failed(x))
    return failure();
  return finish(n, n.create<OpTy>(*x, static_cast<uint64_t>(axis), keepDims, last));
}

/// TopK with K computed at run time: the whole axis sorted (k = its size), and the real extent
/// along the axis min(max(K, 0), size) (docs/dynamic-shapes.md).
LogicalResult importTopKRuntimeK(NodeImporter &n, int64_t axis, bool largest) {
  RankedTensorType xType = n.inputType(0), kType = n.inputType(1);
  if (xType.getRank() == 0)
    return n.error() << "expects an input of rank >= 1, got " << xType;
  if (!kType.getElementType().isInteger(64) || kType.getNumElements() != 1)
    return n.error() << "K input must be a one-element int64 tensor, got " << kType;
  FailureOr<int64_t> a = normalizeAxis(n, axis, xType.getRank());
  FailureOr<Value> x = n.input(0), kv = n.input(1);
  if (failed(a) || failed(x) || failed(kv))
    return failure();
  if (kType.getRank() != 1)
    kv = n.create<ms::ReshapeOp>(*kv, ArrayRef<int64_t>{1});
  int64_t size = xType.getDimSize(*a);
  auto countType = RankedTensorType::get({1}, kType.getElementType());
  FailureOr<Value> zero = n.create<ms::ConstantOp>(
      cast<ElementsAttr>(DenseElementsAttr::get(countType, ArrayRef<int64_t>{0})));
  FailureOr<Value> top = n.create<ms::ConstantOp>(
      cast<ElementsAttr>(DenseElementsAttr::get(countType, ArrayRef<int64_t>{size})));
  if (failed(kv) || failed(zero) || failed(top))
    return failure();
  FailureOr<Value> low = n.create<ms::MaxOp>(*kv, *zero);
  if (failed(low))
    return failure();
  FailureOr<Value> count = n.create<ms::MinOp>(*low, *top);
  if (failed(count))
    return failure();
  FailureOr<Operation *> op = n.createOp<ms::TopKOp>(*x, static_cast<uint64_t>(size),
                                                     static_cast<uint64_t>(axis), !largest);
  if (failed(op))
    return failure();
  for (unsigned i = 0; i < 2; ++i) {
    n.setOutput(i, (*op)->getResult(i));
    n.setOutputExtent(i, *count, *a);
  }
  return success();
}

/// TopK: k is an attribute before opset 10 and an input (a one-element int64 tensor) from then
/// on; `sorted` = 0 leaves the order open, so the sorted result is a valid answer for it too.
LogicalResult importTopK(NodeImporter &n) {
  int64_t axis = n.getInt("axis", -1);
  bool largest = n.getInt("largest", 1) != 0;
  (void)n.getInt("sorted", 1);
  if (n.hasFailed())
    return failure();
  int64_t k;
  if (n.opset() < 10 || !n.hasInput(1)) {
    if (!n.hasAttr("k"))
      return n.error() << "needs k (an attribute before opset 10, the K input from 10)";
    k = n.getInt("k", 0);
    if (n.hasFailed())
      return failure();
  } else if (!n.constantData(1)) {
    return importTopKRuntimeK(n, axis, largest);
  } else {
    FailureOr<const KnownTensor *> known = n.requireKnown(1, "K");
    if (failed(known))
      return failure();
    if ((*known)->isFloat() || (*known)->numElements() != 1)
      return n.error() << "K input must be a one-element integer tensor, got " << (*known)->type;
    k = (*known)->intAt(0);
  }
  RankedTensorType xType = n.inputType(0);
  if (xType.getRank() == 0)
    return n.error() << "expects an input of rank >= 1, got " << xType;
  FailureOr<int64_t> a = normalizeAxis(n, axis, xType.getRank());
  if (failed(a))
    return failure();
  if (k < 0 || k > xType.getDimSize(*a))
    return n.error() << "k = " << k << " is out of range for dim " << *a << " of size "
                     << xType.getDimSize(*a);
  FailureOr<Value> x = n.input(0);
  if (failed(x))
    return failure();
  return finish(n, n.createOp<ms::TopKOp>(*x, static_cast<uint64_t>(k), static_cast<uint64_t>(axis),
                                          !largest));
}

/// CumSum (opset 11+): the axis input may be known (range-checked here) or a runtime value.
LogicalResult importCumSum(NodeImporter &n) {
  bool exclusive = n.getInt("exclusive", 0) != 0;
  bool reverse = n.getInt("reverse", 0) != 0;
  if (n.hasFailed())
    return failure();
  RankedTensorType xType = n.inputType(0), axisType = n.inputType(1);
  if (xType.getRank() == 0)
    return n.error() << "expects an input of rank >= 1, got " << xType;
  if (!isa<IntegerType>(axisType.getElementType()) || axisType.getNumElements() != 1)
    return n.error() << "axis input must be a one-element integer tensor, got " << axisType;
  FailureOr<Value> x = n.input(0), axis = failure();
  if (const KnownTensor *known = n.known(1)) {
    if (failed(normalizeAxis(n, known->intAt(0), xType.getRank())))
      return failure();
    // An inline constant (not a weight resource), so the lowering sees the axis.
    axis = n.create<ms::ConstantOp>(cast<ElementsAttr>(known->toAttr()));
  } else {
    axis = n.input(1);
  }
  if (failed(x) || failed(axis))
    return failure();
  return finish(n, n.create<ms::CumSumOp>(*x, *axis, exclusive, reverse));
}

/// Reports a known index input with an entry outside [-size, size) of the dim it indexes;
/// `dimOf(i)` is the size of the dim that element i indexes.
LogicalResult checkKnownIndices(NodeImporter &n, unsigned input,
                                function_ref<int64_t(int64_t)> dimOf) {
  const KnownTensor *indices = n.known(input);
  if (!indices)
    return success();
  if (indices->isFloat())
    return n.error() << "indices must be integers, got " << indices->type;
  for (int64_t i = 0, e = indices->numElements(); i < e; ++i) {
    int64_t index = indices->intAt(i), size = dimOf(i);
    if (index < -size || index >= size)
      return n.error() << "index " << index << " is out of range for a dim of size " << size;
  }
  return success();
}

/// GatherElements (opset 11+) and the axis-indexed scatters: data, indices of the same rank.
FailureOr<int64_t> elementsAxis(NodeImporter &n) {
  RankedTensorType dataType = n.inputType(0);
  if (dataType.getRank() == 0)
    return n.error() << "expects data of rank >= 1, got " << dataType;
  int64_t axis = n.getInt("axis", 0);
  if (n.hasFailed())
    return failure();
  FailureOr<int64_t> a = normalizeAxis(n, axis, dataType.getRank());
  if (failed(a))
    return failure();
  int64_t size = dataType.getDimSize(*a);
  if (failed(checkKnownIndices(n, 1, [&](int64_t) { return size; })))
    return failure();
  return *a;
}

LogicalResult importGatherElements(NodeImporter &n) {
  FailureOr<int64_t> axis = elementsAxis(n);
  if (failed(axis))
    return failure();
  FailureOr<Value> data = n.input(0), indices = n.input(1);
  if (failed(data) || failed(indices))
    return failure();
  return finish(n, n.create<ms::GatherElementsOp>(*data, *indices, static_cast<uint64_t>(*axis)));
}

/// Range-checks known index tuples: entry t of a tuple indexes data dim `firstDim` + t.
LogicalResult checkKnownTuples(NodeImporter &n, int64_t firstDim) {
  RankedTensorType dataType = n.inputType(0), idxType = n.inputType(1);
  if (idxType.getRank() < 1)
    return n.error() << "expects indices of rank >= 1, got " << idxType;
  int64_t r = idxType.getShape().back();
  if (r < 1 || firstDim + r > dataType.getRank())
    return n.error() << "index tuples of " << r << " entries do not fit data of rank "
                     << dataType.getRank();
  return checkKnownIndices(n, 1, [&](int64_t i) { return dataType.getDimSize(firstDim + i % r); });
}

/// GatherND (opset 11+; batch_dims from 12).
LogicalResult importGatherNd(NodeImporter &n) {
  int64_t batchDims = n.getInt("batch_dims", 0);
  if (n.hasFailed())
    return failure();
  if (batchDims < 0 || batchDims >= n.inputType(1).getRank())
    return n.error() << "batch_dims " << batchDims << " is out of range for indices of rank "
                     << n.inputType(1).getRank();
  if (failed(checkKnownTuples(n, batchDims)))
    return failure();
  FailureOr<Value> data = n.input(0), indices = n.input(1);
  if (failed(data) || failed(indices))
    return failure();
  return finish(n, n.create<ms::GatherNdOp>(*data, *indices, static_cast<uint64_t>(batchDims)));
}

/// The `reduction` attribute of the scatters (add and mul from opset 16, max and min from 18).
FailureOr<ms::ScatterReduction> scatterReduction(NodeImporter &n) {
  std::string name = n.getString("reduction", "none");
  if (n.hasFailed())
    return failure();
  std::optional<ms::ScatterReduction> reduction = ms::symbolizeScatterReduction(name);
  if (!reduction)
    return n.error() << "reduction '" << name << "' is not one of none, add, mul, max, min";
  return *reduction;
}

/// ScatterElements (opset 11+) and Scatter (opsets 9-10, no reduction).
LogicalResult importScatterElements(NodeImporter &n) {
  FailureOr<int64_t> axis = elementsAxis(n);
  if (failed(axis))
    return failure();
  FailureOr<ms::ScatterReduction> reduction = scatterReduction(n);
  if (failed(reduction))
    return failure();
  FailureOr<Value> data = n.input(0), indices = n.input(1), updates = n.input(2);
  if (failed(data) || failed(indices) || failed(updates))
    return failure();
  return finish(n, n.create<ms::ScatterElementsOp>(*data, *indices, *updates,
                                                   static_cast<uint64_t>(*axis), *reduction));
}

/// ScatterND (opset 11+).
LogicalResult importScatterNd(NodeImporter &n) {
  if (failed(checkKnownTuples(n, 0)))
    return failure();
  FailureOr<ms::ScatterReduction> reduction = scatterReduction(n);
  if (failed(reduction))
    return failure();
  FailureOr<Value> data = n.input(0), indices = n.input(1), updates = n.input(2);
  if (failed(data) || failed(indices) || failed(updates))
    return failure();
  return finish(n, n.create<ms::ScatterNdOp>(*data, *indices, *updates, *reduction));
}

} // namespace

void mlir::mie::onnx_import::registerIndexingOps(OnnxOpTable &table) {
  table["ArgMax"] = {importArgReduce<ms::ArgMaxOp>, 1, 1};
  table["ArgMin"] = {importArgReduce<ms::ArgMinOp>, 1, 1};
  table["TopK"] = {importTopK, 1, 2};
  table["CumSum"] = {importCumSum, 2, 2, 11};
  table["GatherElements"] = {importGatherElements, 2, 2, 11};
  table["GatherND"] = {importGatherNd, 2, 2, 11};
  table["Scatter"] = {importScatterElements, 3, 3, 9};
  table["ScatterElements"] = {importScatterElements, 3, 3, 11};
  table["ScatterND"] = {importScatterNd, 3, 3, 11};
}
