//===- OnnxDynamicExtentOps.cpp - ops over data-dependent extents and sizes -===//
//
// What detection post-processing does with the values NonZero, TopK with a computed K and
// NonMaxSuppression return (docs/dynamic-shapes.md): it takes their Shape, computes sizes from it
// (Gather, Concat, ReduceMin with a constant, ...), reshapes, slices, concatenates and reduces
// them, and sorts or suppresses them again. Each value keeps its upper-bound type with the real
// extent as a runtime count (DynamicExtent); the sizes computed from counts are runtime tensors
// whose element ranges are tracked here (IntRange), so that an op taking one as a shape allocates
// at its upper bound. Where padding could change a result (a reduction, a sort or a suppression
// over the data-dependent dim) it is first replaced by a value that cannot win; concatenation
// along that dim gathers the real rows together.
//
//===----------------------------------------------------------------------===//

#include "OnnxImporterInternal.h"

#include "dialects/ms/IR/MsOps.h"
#include "dialects/ms/IR/MsShapeUtils.h"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::mie::onnx_import;

namespace {

constexpr int64_t kI64Max = std::numeric_limits<int64_t>::max();

LogicalResult usual(NodeImporter &n) { return usualOnnxHandler(n.opType())(n); }

LogicalResult refuse(NodeImporter &n, unsigned input, const Twine &why) {
  return n.unsupportedFeature() << "input " << input << " ('" << n.node().inputs[input]
                                << "') has a data-dependent shape: " << why;
}

/// Sets output 0 to `result`, with `count` real rows along `dim`.
LogicalResult finishExtent(NodeImporter &n, FailureOr<Value> result, FailureOr<Value> count,
                           int64_t dim) {
  if (failed(result) || failed(count))
    return failure();
  n.setOutput(0, *result);
  n.setOutputExtent(0, *count, dim);
  return success();
}

/// The usual import of a row-wise op, its output 0 keeping `count` real rows along `dim`.
LogicalResult usualWithExtent(NodeImporter &n, Value count, int64_t dim) {
  if (failed(usual(n)))
    return failure();
  n.setOutputExtent(0, count, dim);
  return success();
}

//===----------------------------------------------------------------------===//
// Building blocks
//===----------------------------------------------------------------------===//

FailureOr<Value> i64Constant(NodeImporter &n, ArrayRef<int64_t> shape, ArrayRef<int64_t> values) {
  auto type = RankedTensorType::get(shape, n.builder().getI64Type());
  return n.create<ms::ConstantOp>(cast<ElementsAttr>(DenseElementsAttr::get(type, values)));
}

FailureOr<Value> countConstant(NodeImporter &n, int64_t v) { return i64Constant(n, {1}, {v}); }

/// A splat of `value` with `type`'s element type and the given shape (a scalar fill: shape {}).
FailureOr<Value> fillConstant(NodeImporter &n, Type elementType, ArrayRef<int64_t> shape,
                              double value) {
  auto type = RankedTensorType::get(shape, elementType);
  Attribute element;
  if (auto ft = dyn_cast<FloatType>(elementType)) {
    element = FloatAttr::get(ft, value);
  } else {
    auto it = cast<IntegerType>(elementType);
    APInt bits = it.getWidth() == 1 ? APInt(1, value != 0.0)
                 : std::isinf(value)
                     ? (value > 0 ? (it.isUnsigned() ? APInt::getMaxValue(it.getWidth())
                                                     : APInt::getSignedMaxValue(it.getWidth()))
                                  : (it.isUnsigned() ? APInt::getMinValue(it.getWidth())
                                                     : APInt::getSignedMinValue(it.getWidth())))
                     : APInt(it.getWidth(), static_cast<int64_t>(value), /*isSigned=*/true);
    element = IntegerAttr::get(it, bits);
  }
  return n.create<ms::ConstantOp>(cast<ElementsAttr>(DenseElementsAttr::get(type, element)));
}

template <typename OpTy>
FailureOr<Value> binary(NodeImporter &n, FailureOr<Value> a, FailureOr<Value> b) {
  if (failed(a) || failed(b))
    return failure();
  return n.create<OpTy>(*a, *b);
}

/// clamp(v, lo, hi) of a count.
FailureOr<Value> clampCount(NodeImporter &n, FailureOr<Value> v, int64_t lo, int64_t hi) {
  FailureOr<Value> low = binary<ms::MaxOp>(n, v, countConstant(n, lo));
  return binary<ms::MinOp>(n, low, countConstant(n, hi));
}

/// A bool tensor of shape [1, .., bound, .., 1] (`bound` at `dim` of `rank`): position < count.
FailureOr<Value> realPositions(NodeImporter &n, int64_t rank, int64_t dim, int64_t bound,
                               Value count) {
  SmallVector<int64_t> positions(bound);
  for (int64_t i = 0; i < bound; ++i)
    positions[i] = i;
  SmallVector<int64_t> shape(rank, 1);
  shape[dim] = bound;
  FailureOr<Value> iota = i64Constant(n, shape, positions);
  if (failed(iota))
    return failure();
  return n.create<ms::CompareOp>(ms::ComparePredicate::lt, *iota, count);
}

/// `x` with its padding along the extent's dim replaced by `fill`.
FailureOr<Value> maskPadding(NodeImporter &n, Value x, DynamicExtent extent, double fill) {
  auto type = cast<RankedTensorType>(x.getType());
  FailureOr<Value> real =
      realPositions(n, type.getRank(), extent.dim, type.getDimSize(extent.dim), extent.count);
  FailureOr<Value> filler = fillConstant(n, type.getElementType(), {}, fill);
  if (failed(real) || failed(filler))
    return failure();
  return n.create<ms::WhereOp>(*real, x, *filler);
}

/// The runtime value of element `k` of input `i` (a 1-D size list with ranges `r` there) as a
/// count: the count it equals when Shape took it from one, else the element, clamped into
/// [0, bound].
FailureOr<Value> elementCount(NodeImporter &n, unsigned i, int64_t k, IntRange r, int64_t bound) {
  if (r.count)
    return r.count;
  if (r.exact())
    return countConstant(n, std::clamp<int64_t>(r.lo, 0, bound));
  FailureOr<Value> list = n.input(i);
  if (failed(list))
    return failure();
  FailureOr<Value> element = *list;
  if (cast<RankedTensorType>(list->getType()).getRank() == 0)
    element = n.create<ms::ReshapeOp>(*list, ArrayRef<int64_t>{1});
  else
    element = n.create<ms::SliceOp>(*list, ArrayRef<int64_t>{k}, ArrayRef<int64_t>{1},
                                    ArrayRef<int64_t>{1});
  // Counts are i64; a size list may be i32 (Slice's ends).
  auto i64 = RankedTensorType::get({1}, n.builder().getI64Type());
  if (succeeded(element) && element->getType() != i64)
    element = n.foldCreated(ms::CastOp::create(n.builder(), n.loc(), i64, *element));
  return clampCount(n, element, 0, bound);
}

//===----------------------------------------------------------------------===//
// Shape and Size
//===----------------------------------------------------------------------===//

LogicalResult importShapeOfExtent(NodeImporter &n) {
  std::optional<DynamicExtent> e = n.inputExtent(0);
  ArrayRef<int64_t> shape = n.inputType(0).getShape();
  FailureOr<std::pair<int64_t, int64_t>> range = shapeRange(n);
  if (failed(range))
    return failure();
  auto [start, end] = *range;
  if (!e || e->dim < start || e->dim >= end)
    return usual(n);
  SmallVector<Value> pieces;
  SmallVector<IntRange> ranges;
  SmallVector<int64_t> run;
  auto flush = [&]() -> LogicalResult {
    if (run.empty())
      return success();
    FailureOr<Value> c = i64Constant(n, {(int64_t)run.size()}, run);
    if (failed(c))
      return failure();
    pieces.push_back(*c);
    run.clear();
    return success();
  };
  for (int64_t d = start; d < end; ++d) {
    if (d != e->dim) {
      run.push_back(shape[d]);
      ranges.push_back({shape[d], shape[d]});
      continue;
    }
    if (failed(flush()))
      return failure();
    pieces.push_back(e->count);
    ranges.push_back({0, shape[d], e->count});
  }
  if (failed(flush()))
    return failure();
  Value result = pieces.front();
  if (pieces.size() > 1) {
    FailureOr<Value> c = n.create<ms::ConcatOp>(ValueRange(pieces), uint64_t(0));
    if (failed(c))
      return failure();
    result = *c;
  }
  n.setOutput(0, result);
  n.setOutputRanges(0, ranges);
  return success();
}

LogicalResult importSizeOfExtent(NodeImporter &n) {
  std::optional<DynamicExtent> e = n.inputExtent(0);
  if (!e)
    return usual(n);
  RankedTensorType type = n.inputType(0);
  int64_t others =
      type.getDimSize(e->dim) == 0 ? 0 : type.getNumElements() / type.getDimSize(e->dim);
  FailureOr<Value> size = binary<ms::MulOp>(n, e->count, countConstant(n, others));
  if (succeeded(size))
    size = n.create<ms::ReshapeOp>(*size, ArrayRef<int64_t>{});
  if (failed(size))
    return failure();
  n.setOutput(0, *size);
  n.setOutputRanges(0, {{0, type.getNumElements()}});
  return success();
}

//===----------------------------------------------------------------------===//
// Split, Concat, Slice
//===----------------------------------------------------------------------===//

LogicalResult importSplitOfExtent(NodeImporter &n) {
  std::optional<DynamicExtent> e = n.inputExtent(0);
  if (!e)
    return usual(n);
  FailureOr<int64_t> axis = normalizeAxis(n, n.getInt("axis", 0), n.inputType(0).getRank());
  if (failed(axis))
    return failure();
  if (*axis == e->dim)
    return refuse(n, 0, "Split divides its data-dependent dim");
  if (failed(usual(n)))
    return failure();
  for (unsigned i = 0; i < n.numOutputs(); ++i)
    n.setOutputExtent(i, e->count, e->dim);
  return success();
}

/// Concat along the data-dependent dim: the inputs' real rows are gathered together. Row r of
/// the result is row r + sum over the earlier inputs j with C_{j+1} <= r of (bound_j - count_j)
/// of the bounded concatenation (C_j: the real rows before input j).
LogicalResult importConcatOfExtents(NodeImporter &n) {
  unsigned numInputs = n.node().inputs.size();
  std::optional<DynamicExtent> any;
  for (unsigned i = 0; i < numInputs && !any; ++i)
    any = n.inputExtent(i);
  if (!any)
    return usual(n);
  RankedTensorType type0 = n.inputType(0);
  FailureOr<int64_t> axis = normalizeAxis(n, n.getInt("axis", 1), type0.getRank());
  if (failed(axis))
    return failure();
  if (any->dim != *axis) {
    // Along another dim every input must have the same extent (sizes only known at run time
    // would have to match).
    for (unsigned i = 0; i < numInputs; ++i) {
      std::optional<DynamicExtent> e = n.inputExtent(i);
      if (!e || !sameCount(e->count, any->count) || e->dim != any->dim)
        return refuse(n, i == 0 ? 1 : 0, "every input of a Concat along another dim must share it");
    }
    return usualWithExtent(n, any->count, any->dim);
  }
  SmallVector<Value> inputs, counts;
  SmallVector<int64_t> bounds;
  int64_t total = 0;
  for (unsigned i = 0; i < numInputs; ++i) {
    std::optional<DynamicExtent> e = n.inputExtent(i);
    if (e && e->dim != *axis)
      return refuse(n, i, "it is not along the Concat's axis as the others are");
    FailureOr<Value> x = n.input(i);
    if (failed(x))
      return failure();
    int64_t bound = n.inputType(i).getDimSize(*axis);
    FailureOr<Value> count = e ? FailureOr<Value>(e->count) : countConstant(n, bound);
    if (failed(count))
      return failure();
    inputs.push_back(*x);
    counts.push_back(*count);
    bounds.push_back(bound);
    total += bound;
  }
  FailureOr<Value> joined = n.create<ms::ConcatOp>(ValueRange(inputs), uint64_t(*axis));
  SmallVector<int64_t> rows(total);
  for (int64_t r = 0; r < total; ++r)
    rows[r] = r;
  FailureOr<Value> row = i64Constant(n, {total}, rows);
  if (failed(joined) || failed(row))
    return failure();
  FailureOr<Value> index = row;
  Value realBefore = counts[0];
  for (unsigned j = 0; j + 1 < inputs.size(); ++j) {
    if (j > 0) {
      FailureOr<Value> sum = n.create<ms::AddOp>(realBefore, counts[j]);
      if (failed(sum))
        return failure();
      realBefore = *sum;
    }
    FailureOr<Value> gap = binary<ms::SubOp>(n, countConstant(n, bounds[j]), counts[j]);
    FailureOr<Value> past = n.create<ms::CompareOp>(ms::ComparePredicate::ge, *row, realBefore);
    if (failed(gap) || failed(past))
      return failure();
    Value pastI64 = n.foldCreated(ms::CastOp::create(
        n.builder(), n.loc(), RankedTensorType::get({total}, n.builder().getI64Type()), *past));
    FailureOr<Value> shift = n.create<ms::MulOp>(pastI64, *gap);
    FailureOr<Value> next = binary<ms::AddOp>(n, index, shift);
    if (failed(next))
      return failure();
    index = next;
  }
  FailureOr<Value> realTotal = inputs.size() == 1 ? FailureOr<Value>(counts[0])
                                                  : n.create<ms::AddOp>(realBefore, counts.back());
  FailureOr<Value> result = n.create<ms::GatherOp>(*joined, *index, uint64_t(*axis));
  return finishExtent(n, result, realTotal, *axis);
}

/// Slice of a value with an extent, or with ends computed from data-dependent sizes (their upper
/// bound is sliced, the real end becomes the count). Along the data-dependent dim, with step 1 and
/// non-negative starts and ends (negative ones count from a size only known at run time), the real
/// extent becomes clamp(min(count, end) - start, 0, size).
LogicalResult importSliceOfExtent(NodeImporter &n) {
  std::optional<DynamicExtent> e = n.inputExtent(0);
  bool rangedEnds = n.hasTrackedRanges(2);
  for (unsigned i : {1u, 3u, 4u})
    if (n.hasTrackedRanges(i))
      return n.unsupportedFeature() << "input " << i << " ('" << n.node().inputs[i]
                                    << "') is computed from a data-dependent shape";
  if (!e && !rangedEnds)
    return usual(n);
  RankedTensorType type = n.inputType(0);
  int64_t rank = type.getRank();
  SmallVector<int64_t> starts, axes, steps;
  SmallVector<IntRange> ends;
  if (n.opset() < 10) {
    starts = n.getInts("starts").value_or(SmallVector<int64_t>());
    for (int64_t v : n.getInts("ends").value_or(SmallVector<int64_t>()))
      ends.push_back({v, v});
    axes = n.getInts("axes").value_or(SmallVector<int64_t>());
  } else {
    const KnownTensor *s = n.constantData(1);
    std::optional<SmallVector<IntRange>> r = n.inputRanges(2);
    if (!s || !r)
      return refuse(n, 0, "Slice needs known starts and known or bounded ends with it");
    starts = s->toInts();
    ends = *r;
    for (unsigned i : {3u, 4u}) {
      if (!n.hasInput(i))
        continue;
      const KnownTensor *k = n.constantData(i);
      if (!k)
        return refuse(n, 0, "Slice needs known axes and steps with it");
      (i == 3 ? axes : steps) = k->toInts();
    }
  }
  if (n.hasFailed())
    return failure();
  if (ends.size() != starts.size() || (!axes.empty() && axes.size() != starts.size()) ||
      (!steps.empty() && steps.size() != starts.size()))
    return n.error() << "starts, ends, axes and steps must have the same length";
  SmallVector<int64_t> boxStarts(rank, 0), boxSizes(type.getShape()), boxSteps(rank, 1);
  std::optional<DynamicExtent> out = e;
  for (size_t i = 0; i < starts.size(); ++i) {
    int64_t axis = axes.empty() ? int64_t(i) : (axes[i] < 0 ? axes[i] + rank : axes[i]);
    if (axis < 0 || axis >= rank)
      return n.error() << "axis " << axes[i] << " is out of range for rank " << rank;
    int64_t step = steps.empty() ? 1 : steps[i];
    int64_t dim = type.getDimSize(axis), start = starts[i];
    bool dynamicAxis = e && axis == e->dim;
    IntRange end = ends[i];
    if (!dynamicAxis && end.exact()) {
      // A static dim: ONNX's clamping, any step (as importSlice).
      if (step == 0)
        return n.error() << "steps must be non-zero";
      SliceDim d = normalizeSliceDim(dim, start, end.lo, step);
      boxStarts[axis] = d.start;
      boxSizes[axis] = d.size;
      boxSteps[axis] = d.step;
      continue;
    }
    if (step != 1 || start < 0 || end.lo < 0)
      return refuse(n, 0,
                    "Slice along a data-dependent dim needs step 1 and non-negative starts "
                    "and ends");
    if (start < 0)
      start += dim;
    int64_t last = end.exact() && end.lo < 0 ? end.lo + dim : end.hi;
    start = std::clamp<int64_t>(start, 0, dim);
    int64_t size = std::max<int64_t>(std::clamp<int64_t>(last, 0, dim) - start, 0);
    boxStarts[axis] = start;
    boxSizes[axis] = size;
    if (!dynamicAxis && end.exact())
      continue;
    if (!dynamicAxis && out)
      return refuse(n, 0, "its Slice would make a second dim data-dependent");
    FailureOr<Value> real = elementCount(n, 2, i, end, kI64Max);
    if (dynamicAxis)
      real = binary<ms::MinOp>(n, real, e->count);
    FailureOr<Value> rest = binary<ms::SubOp>(n, real, countConstant(n, start));
    FailureOr<Value> count = clampCount(n, rest, 0, size);
    if (failed(count))
      return failure();
    out = DynamicExtent{*count, axis};
  }
  FailureOr<Value> x = n.input(0);
  if (failed(x))
    return failure();
  FailureOr<Value> result = *x;
  if (ArrayRef<int64_t>(boxSizes) != type.getShape() ||
      llvm::any_of(boxStarts, [](int64_t s) { return s != 0; }) ||
      llvm::any_of(boxSteps, [](int64_t s) { return s != 1; }))
    result = n.create<ms::SliceOp>(*x, ArrayRef<int64_t>(boxStarts), ArrayRef<int64_t>(boxSizes),
                                   ArrayRef<int64_t>(boxSteps));
  if (failed(result))
    return failure();
  n.setOutput(0, *result);
  if (out)
    n.setOutputExtent(0, out->count, out->dim);
  return success();
}

//===----------------------------------------------------------------------===//
// Reshape, Flatten
//===----------------------------------------------------------------------===//

/// Reshapes `x` (extent `e`) to `dims`, whose entry `at` is the data-dependent one (a
/// placeholder). The bounded layout holds the real tensor when the dims before the
/// data-dependent one keep their product A and the rows after it (T before, T' after) divide:
/// then count' = count * T / T' and bound' = bound * T / T'.
LogicalResult reshapeExtent(NodeImporter &n, DynamicExtent e, SmallVector<int64_t> dims,
                            int64_t at) {
  RankedTensorType type = n.inputType(0);
  ArrayRef<int64_t> in = type.getShape();
  int64_t before = ms::shapeProduct(in.take_front(e.dim)),
          after = ms::shapeProduct(in.drop_front(e.dim + 1));
  int64_t newBefore = ms::shapeProduct(ArrayRef<int64_t>(dims).take_front(at));
  int64_t newAfter = ms::shapeProduct(ArrayRef<int64_t>(dims).drop_front(at + 1));
  int64_t bound = in[e.dim];
  if (before != newBefore || newAfter == 0 || (bound * after) % newAfter != 0)
    return refuse(n, 0,
                  "the new shape must keep the dims before it and regroup only the dims after it");
  dims[at] = bound * after / newAfter;
  FailureOr<Value> x = n.input(0);
  if (failed(x))
    return failure();
  FailureOr<Value> result = n.create<ms::ReshapeOp>(*x, ArrayRef<int64_t>(dims));
  FailureOr<Value> count = e.count;
  if (after != newAfter) {
    FailureOr<Value> scaled = binary<ms::MulOp>(n, e.count, countConstant(n, after));
    count = binary<ms::DivOp>(n, scaled, countConstant(n, newAfter));
  }
  return finishExtent(n, result, count, at);
}

LogicalResult importReshapeOfExtent(NodeImporter &n) {
  std::optional<DynamicExtent> e = n.inputExtent(0);
  if (!e) {
    if (n.hasTrackedRanges(1))
      return n.unsupportedFeature()
             << "input 1 ('" << n.node().inputs[1]
             << "') is computed from a data-dependent shape, and the data is "
                "not data-dependent";
    return usual(n);
  }
  if (n.opset() < 5 && !n.hasInput(1))
    return refuse(n, 0, "Reshape before opset 5 does not take it");
  std::optional<SmallVector<IntRange>> requested = n.inputRanges(1);
  if (!requested)
    return refuse(n, 0, "the new shape must be known or computed from its Shape");
  bool allowZero = n.opset() >= 14 && n.getInt("allowzero", 0) != 0;
  RankedTensorType xType = n.inputType(0);
  SmallVector<int64_t> dims;
  int64_t at = -1, inferred = -1;
  for (auto [i, r] : llvm::enumerate(*requested)) {
    bool copiesCount = r.exact() && r.lo == 0 && !allowZero && (int64_t)i == e->dim;
    if (!r.exact() || copiesCount) {
      if (at >= 0)
        return refuse(n, 0, "the new shape has more than one size only known at run time");
      at = i;
      dims.push_back(1);
    } else if (r.lo == -1) {
      if (inferred >= 0)
        return n.error() << "shape has more than one -1";
      inferred = i;
      dims.push_back(1);
    } else if (r.lo == 0 && !allowZero) {
      if ((int64_t)i >= xType.getRank())
        return n.error() << "shape copies dim " << i << ", which " << xType << " does not have";
      dims.push_back(xType.getDimSize(i));
    } else {
      dims.push_back(r.lo);
    }
  }
  if (at >= 0 && inferred >= 0) {
    // [count, -1]: the -1 is what remains of the elements once the count is taken out, which
    // is static when the size is that count itself.
    IntRange r = (*requested)[at];
    if (!r.count || !sameCount(r.count, e->count))
      return refuse(n, 0, "the new shape has a -1 and a size only known at run time");
    int64_t perRow =
        ms::shapeProduct(xType.getShape()) / std::max<int64_t>(xType.getDimSize(e->dim), 1);
    int64_t others = ms::shapeProduct(dims);
    if (others == 0 || perRow % others != 0)
      return n.error() << "cannot infer the -1 of the shape for " << xType;
    dims[inferred] = perRow / others;
  } else if (at < 0) {
    at = inferred;
  }
  if (at < 0)
    return refuse(n, 0, "the new shape is static, so the real extent would have to match it");
  return reshapeExtent(n, *e, dims, at);
}

LogicalResult importFlattenOfExtent(NodeImporter &n) {
  std::optional<DynamicExtent> e = n.inputExtent(0);
  if (!e)
    return usual(n);
  RankedTensorType type = n.inputType(0);
  int64_t rank = type.getRank();
  int64_t axis = n.getInt("axis", 1);
  if (n.hasFailed())
    return failure();
  if (axis < 0)
    axis += rank;
  if (axis < 0 || axis > rank)
    return n.error() << "axis " << axis << " is out of range for rank " << rank;
  SmallVector<int64_t> dims = {ms::shapeProduct(type.getShape().take_front(axis)),
                               ms::shapeProduct(type.getShape().drop_front(axis))};
  return reshapeExtent(n, *e, dims, e->dim < axis ? 0 : 1);
}

//===----------------------------------------------------------------------===//
// TopK, reductions, NonMaxSuppression, Gather
//===----------------------------------------------------------------------===//

/// TopK over the data-dependent dim: the padding is replaced by a value that sorts last, and the
/// result has min(K, count) real entries; a K with tracked ranges bounds the result.
LogicalResult importTopKOfExtent(NodeImporter &n) {
  std::optional<DynamicExtent> e = n.inputExtent(0);
  int64_t axis = n.getInt("axis", -1);
  bool largest = n.getInt("largest", 1) != 0;
  (void)n.getInt("sorted", 1);
  if (n.hasFailed())
    return failure();
  RankedTensorType xType = n.inputType(0);
  FailureOr<int64_t> a = normalizeAxis(n, axis, std::max<int64_t>(xType.getRank(), 1));
  if (failed(a))
    return failure();
  if (!e || e->dim != *a) {
    if (failed(usual(n)))
      return failure();
    if (e) {
      if (n.outputExtent(0))
        return refuse(n, 0, "TopK with a K only known at run time needs it along its axis");
      for (unsigned i = 0; i < 2; ++i)
        n.setOutputExtent(i, e->count, e->dim);
    }
    return success();
  }
  double fill =
      largest ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
  FailureOr<Value> x = n.input(0);
  if (failed(x))
    return failure();
  FailureOr<Value> masked = maskPadding(n, *x, *e, fill);
  if (failed(masked))
    return failure();
  int64_t bound = xType.getDimSize(*a);
  if (n.opset() < 10 || !n.hasInput(1) || n.constantData(1)) {
    n.replaceInput(0, *masked);
    return usual(n); // a known K: a static result
  }
  RankedTensorType kType = n.inputType(1);
  if (!kType.getElementType().isInteger(64) || kType.getNumElements() != 1)
    return n.error() << "K input must be a one-element int64 tensor, got " << kType;
  int64_t k = bound;
  if (std::optional<SmallVector<IntRange>> r = n.inputRanges(1))
    k = std::clamp<int64_t>((*r)[0].hi, 0, bound);
  FailureOr<Value> kv = n.input(1);
  if (succeeded(kv) && kType.getRank() != 1)
    kv = n.create<ms::ReshapeOp>(*kv, ArrayRef<int64_t>{1});
  FailureOr<Value> capped = binary<ms::MinOp>(n, kv, e->count);
  FailureOr<Value> count = clampCount(n, capped, 0, k);
  FailureOr<Operation *> op =
      failed(count) ? FailureOr<Operation *>(failure())
                    : n.createOp<ms::TopKOp>(*masked, uint64_t(k), uint64_t(*a), !largest);
  if (failed(op))
    return failure();
  for (unsigned i = 0; i < 2; ++i) {
    n.setOutput(i, (*op)->getResult(i));
    n.setOutputExtent(i, *count, *a);
  }
  return success();
}

/// The reduced axes of a Reduce* node (attribute before opset 18, input 1 from then on); empty:
/// every axis (or none with noop_with_empty_axes, reported as nullopt).
FailureOr<std::optional<SmallVector<int64_t>>> reducedAxes(NodeImporter &n, int64_t rank) {
  FailureOr<std::optional<SmallVector<int64_t>>> axes = intsFromAttrOrInput(n, "axes", 1, 18);
  if (failed(axes))
    return failure();
  SmallVector<int64_t> list;
  if (*axes && !(*axes)->empty()) {
    FailureOr<SmallVector<int64_t>> normalized = normalizeAxes(n, **axes, rank);
    if (failed(normalized))
      return failure();
    list = *normalized;
  } else {
    if (n.getInt("noop_with_empty_axes", 0) != 0)
      return std::optional<SmallVector<int64_t>>();
    for (int64_t d = 0; d < rank; ++d)
      list.push_back(d);
  }
  return std::optional<SmallVector<int64_t>>(list);
}

/// Reductions: over other dims the extent moves to its place in the result; over the
/// data-dependent dim the padding first becomes the reduction's identity.
LogicalResult importReduceOfExtent(NodeImporter &n) {
  std::optional<DynamicExtent> e = n.inputExtent(0);
  if (!e)
    return usual(n);
  RankedTensorType type = n.inputType(0);
  FailureOr<std::optional<SmallVector<int64_t>>> axes = reducedAxes(n, type.getRank());
  bool keepDims = n.getInt("keepdims", 1) != 0;
  if (failed(axes) || n.hasFailed())
    return failure();
  if (!*axes || !llvm::is_contained(**axes, e->dim)) {
    if (failed(usual(n)))
      return failure();
    int64_t dim = e->dim;
    if (*axes && !keepDims)
      dim -= llvm::count_if(**axes, [&](int64_t a) { return a < e->dim; });
    n.setOutputExtent(0, e->count, dim);
    return success();
  }
  double identity;
  StringRef op = n.opType();
  if (op == "ReduceSum")
    identity = 0.0;
  else if (op == "ReduceProd")
    identity = 1.0;
  else if (op == "ReduceMax")
    identity = -std::numeric_limits<double>::infinity();
  else if (op == "ReduceMin")
    identity = std::numeric_limits<double>::infinity();
  else
    return refuse(n, 0, op + " over it is not supported");
  FailureOr<Value> x = n.input(0);
  if (failed(x))
    return failure();
  FailureOr<Value> masked = maskPadding(n, *x, *e, identity);
  if (failed(masked))
    return failure();
  n.replaceInput(0, *masked);
  return usual(n);
}

/// NonMaxSuppression over boxes with a data-dependent count: the padding's scores become NaN,
/// which no score threshold keeps.
LogicalResult importNonMaxSuppressionOfExtent(NodeImporter &n) {
  std::optional<DynamicExtent> boxes = n.inputExtent(0), scores = n.inputExtent(1);
  for (unsigned i = 2; i < 5; ++i)
    if (n.inputExtent(i))
      return refuse(n, i, "NonMaxSuppression takes one only as its boxes and scores");
  if (!boxes && !scores)
    return usual(n);
  if (!scores || scores->dim != 2 ||
      (boxes && (boxes->dim != 1 || !sameCount(boxes->count, scores->count))))
    return refuse(n, scores ? 1 : 0,
                  "the boxes (dim 1) and the scores (dim 2) must have the same data-dependent "
                  "box count");
  FailureOr<Value> s = n.input(1);
  if (failed(s))
    return failure();
  FailureOr<Value> masked = maskPadding(n, *s, *scores, std::nan(""));
  if (failed(masked))
    return failure();
  n.replaceInput(1, *masked);
  return usual(n);
}

/// Range whose limit is computed from a count (start and delta known integers, delta > 0): the
/// values up to the limit's upper bound, with ceil((limit - start) / delta) of them real.
LogicalResult importRangeOfRanges(NodeImporter &n) {
  const KnownTensor *start = n.known(0), *delta = n.known(2);
  std::optional<SmallVector<IntRange>> limit = n.inputRanges(1);
  if (!n.hasTrackedRanges(1) || !start || !delta || !limit || start->isFloat() ||
      delta->isFloat() || start->numElements() != 1 || delta->numElements() != 1 ||
      limit->size() != 1 || delta->intAt(0) <= 0)
    return usual(n);
  int64_t first = start->intAt(0), step = delta->intAt(0);
  int64_t bound = std::max<int64_t>(0, ((*limit)[0].hi - first + step - 1) / step);
  if (bound > kMaxKnownElements * 1024)
    return n.error() << "produces up to " << bound << " elements, too many";
  SmallVector<int64_t> values(bound);
  for (int64_t i = 0; i < bound; ++i)
    values[i] = first + i * step;
  RankedTensorType type = n.inputType(0);
  auto resultType = RankedTensorType::get({bound}, type.getElementType());
  SmallVector<APInt> elements;
  for (int64_t v : values)
    elements.push_back(APInt(type.getElementTypeBitWidth(), v, /*isSigned=*/true));
  FailureOr<Value> result =
      n.create<ms::ConstantOp>(cast<ElementsAttr>(DenseElementsAttr::get(resultType, elements)));
  if (first == 0 && step == 1 && (*limit)[0].count) {
    // Range(0, count): as many values as that count, which it keeps (its rows line up with the
    // values the count belongs to).
    FailureOr<Value> result =
        n.create<ms::ConstantOp>(cast<ElementsAttr>(DenseElementsAttr::get(resultType, elements)));
    return finishExtent(n, result, (*limit)[0].count, 0);
  }
  FailureOr<Value> real = elementCount(n, 1, 0, (*limit)[0], kI64Max);
  FailureOr<Value> span = binary<ms::SubOp>(n, real, countConstant(n, first - (step - 1)));
  FailureOr<Value> steps = binary<ms::DivOp>(n, span, countConstant(n, step));
  FailureOr<Value> count = clampCount(n, steps, 0, bound);
  return finishExtent(n, result, count, 0);
}

/// NonZero of a value with an extent: the padding becomes zero, so only real positions are
/// found (their indices and their row-major order are the same in the bounded layout).
LogicalResult importNonZeroOfExtent(NodeImporter &n) {
  std::optional<DynamicExtent> e = n.inputExtent(0);
  if (!e)
    return usual(n);
  FailureOr<Value> x = n.input(0);
  FailureOr<Value> masked = failed(x) ? x : maskPadding(n, *x, *e, 0.0);
  if (failed(masked))
    return failure();
  n.replaceInput(0, *masked);
  return usual(n);
}

/// ConstantOfShape whose shape is computed from a data-dependent one: allocated at the upper
/// bound of the one size only known at run time, which becomes its extent.
LogicalResult importConstantOfShapeOfRanges(NodeImporter &n) {
  std::optional<SmallVector<IntRange>> ranges = n.inputRanges(0);
  if (!ranges || !n.hasTrackedRanges(0))
    return usual(n);
  SmallVector<int64_t> dims;
  int64_t at = -1;
  for (auto [i, r] : llvm::enumerate(*ranges)) {
    if (!r.exact()) {
      if (at >= 0)
        return n.unsupportedFeature() << "the shape has more than one size only known at run time";
      at = i;
    }
    dims.push_back(std::max<int64_t>(r.hi, 0));
  }
  if (at < 0)
    return usual(n);
  if (!isReasonableShape(dims))
    return n.error() << "shape bound " << listToString(dims) << " is too large";
  Type elementType = n.builder().getF32Type();
  double value = 0.0;
  if (n.hasAttr("value")) {
    OnnxTensor *tensor = n.getTensor("value");
    if (!tensor)
      return failure();
    if (!tensor->known || tensor->type.getNumElements() != 1)
      return n.error() << "'value' must hold one element, got " << tensor->type;
    elementType = tensor->type.getElementType();
    value = tensor->known->valueAt(0);
  }
  FailureOr<Value> result = fillConstant(n, elementType, dims, value);
  FailureOr<Value> shape = n.input(0);
  if (failed(result) || failed(shape))
    return failure();
  // The extent is the size element itself: a count when Shape took it from one (so that values
  // built from the same count line up in elementwise ops), else the runtime element, clamped.
  FailureOr<Value> count = elementCount(n, 0, at, (*ranges)[at], dims[at]);
  return finishExtent(n, result, count, at);
}

//===----------------------------------------------------------------------===//
// Row-wise ops: every result row is computed from the same row of one input
//===----------------------------------------------------------------------===//

/// RoiAlign over data-dependent boxes: one output per box.
LogicalResult importRoiAlignOfExtent(NodeImporter &n) {
  if (n.inputExtent(0))
    return refuse(n, 0, "RoiAlign takes one only as its rois and batch indices");
  std::optional<DynamicExtent> rois = n.inputExtent(1), batch = n.inputExtent(2);
  if (!rois && !batch)
    return usual(n);
  if (!rois || !batch || rois->dim != 0 || batch->dim != 0 || !sameCount(rois->count, batch->count))
    return refuse(n, rois ? 2 : 1, "the rois and batch indices must have the same box count");
  return usualWithExtent(n, rois->count, 0);
}

/// Gemm and MatMul with data-dependent rows of A (B and C static): the result has A's rows.
LogicalResult importMatMulOfExtent(NodeImporter &n) {
  std::optional<DynamicExtent> a = n.inputExtent(0);
  for (unsigned i = 1; i < n.node().inputs.size(); ++i)
    if (n.inputExtent(i))
      return refuse(n, i, "a matrix product takes one only along the rows of A");
  if (!a)
    return usual(n);
  RankedTensorType aType = n.inputType(0);
  bool gemm = n.opType() == "Gemm";
  if (gemm && (n.getInt("transA", 0) != 0 || a->dim != 0))
    return refuse(n, 0, "Gemm takes one only along the rows of an untransposed A");
  if (!gemm && (aType.getRank() < 2 || a->dim >= aType.getRank() - 1))
    return refuse(n, 0, "MatMul takes one only along a dim of A before its last");
  if (gemm && n.hasInput(2) && n.inputType(2).getRank() == 2 && n.inputType(2).getDimSize(0) != 1)
    return refuse(n, 0, "Gemm's C would have to match the rows of A");
  if (failed(usual(n)))
    return failure();
  // (The output's rank is known once it is built.)
  n.setOutputExtent(0, a->count, a->dim + n.outputType(0).getRank() - aType.getRank());
  return success();
}

/// Ops that treat the batch dim of their first input independently (convolutions, pooling,
/// normalizations with fixed statistics, Resize that keeps the batch): data-dependent rows there
/// (RoI features of the kept proposals) stay rows of the result.
LogicalResult importBatchRowsOfExtent(NodeImporter &n) {
  for (unsigned i = 1; i < n.node().inputs.size(); ++i)
    if (n.inputExtent(i))
      return refuse(n, i, n.opType() + " takes one only as its data's batch dim");
  std::optional<DynamicExtent> e = n.inputExtent(0);
  if (!e)
    return usual(n);
  if (e->dim != 0)
    return refuse(n, 0, n.opType() + " takes one only along the batch dim");
  if (failed(usual(n)))
    return failure();
  int64_t bound = n.inputType(0).getDimSize(0);
  for (unsigned i = 0; i < n.numOutputs(); ++i) {
    if (!n.hasOutput(i))
      continue;
    if (n.outputType(i).getRank() == 0 || n.outputType(i).getDimSize(0) != bound)
      return refuse(n, 0, n.opType() + " changes the batch dim");
    n.setOutputExtent(i, e->count, 0);
  }
  return success();
}

/// Softmax, LogSoftmax over another dim than the data-dependent one.
LogicalResult importSoftmaxOfExtent(NodeImporter &n) {
  std::optional<DynamicExtent> e = n.inputExtent(0);
  if (!e)
    return usual(n);
  int64_t rank = n.inputType(0).getRank();
  int64_t axis = n.getInt("axis", n.opset() >= 13 ? -1 : 1);
  axis = axis < 0 ? axis + rank : axis;
  // Before opset 13 the input is coerced to 2-D at `axis`: the dim must be before it.
  if (n.opset() >= 13 ? axis == e->dim : e->dim >= axis)
    return refuse(n, 0, n.opType() + " normalizes along it");
  return usualWithExtent(n, e->count, e->dim);
}

/// Expand of a value with an extent, to a shape whose entry for that dim is the same count (or
/// 1, or the bound): the result keeps the bound and the count there.
LogicalResult importExpandOfExtent(NodeImporter &n) {
  std::optional<DynamicExtent> e = n.inputExtent(0);
  std::optional<SmallVector<IntRange>> ranges = n.inputRanges(1);
  if (n.inputExtent(1))
    return refuse(n, 1, "Expand's shape must not be one");
  if (!e && !n.hasTrackedRanges(1))
    return usual(n);
  if (!ranges)
    return refuse(n, 0, "the shape must be known or computed from its Shape");
  RankedTensorType xType = n.inputType(0);
  if (!e) {
    // A static value broadcast along a size only known at run time (its dim there is 1): the
    // result is allocated at that size's bound.
    int64_t outRank = std::max<int64_t>(ranges->size(), xType.getRank());
    int64_t lead = outRank - ranges->size(), xLead = outRank - xType.getRank();
    SmallVector<int64_t> shape;
    int64_t at = -1;
    for (int64_t k = 0; k < outRank; ++k) {
      int64_t xDim = k >= xLead ? xType.getDimSize(k - xLead) : 1;
      if (k < lead) {
        shape.push_back(xDim);
        continue;
      }
      IntRange r = (*ranges)[k - lead];
      if (r.exact()) {
        shape.push_back(r.lo == 1 ? xDim : r.lo);
        continue;
      }
      if (at >= 0 || xDim != 1)
        return n.unsupportedFeature()
               << "input 1 ('" << n.node().inputs[1]
               << "') has more than one size only known at run time, or one where the data's dim "
                  "is not 1";
      at = k;
      shape.push_back(std::max<int64_t>(r.hi, 0));
    }
    if (at < 0)
      return usual(n);
    if (!isReasonableShape(shape))
      return n.error() << "shape bound " << listToString(shape) << " is too large";
    FailureOr<Value> x = n.input(0);
    FailureOr<Value> result = failed(x) ? x : n.create<ms::ExpandOp>(*x, ArrayRef<int64_t>(shape));
    FailureOr<Value> count = elementCount(n, 1, at - lead, (*ranges)[at - lead], shape[at]);
    return finishExtent(n, result, count, at);
  }
  int64_t outRank = std::max<int64_t>(ranges->size(), xType.getRank());
  int64_t at = e->dim + outRank - xType.getRank();
  int64_t bound = xType.getDimSize(e->dim);
  SmallVector<int64_t> shape;
  for (int64_t k = 0, lead = outRank - ranges->size(); k < (int64_t)ranges->size(); ++k) {
    IntRange r = (*ranges)[k];
    if (k + lead == at) {
      bool same =
          (r.count && sameCount(r.count, e->count)) || (r.exact() && (r.lo == 1 || r.lo == bound));
      if (!same)
        return refuse(n, 0, "Expand's shape must keep its size there");
      shape.push_back(bound);
      continue;
    }
    if (!r.exact())
      return refuse(n, 0, "Expand's shape has another size only known at run time");
    shape.push_back(r.lo);
  }
  FailureOr<Value> x = n.input(0);
  if (failed(x))
    return failure();
  FailureOr<Value> result = n.create<ms::ExpandOp>(*x, ArrayRef<int64_t>(shape));
  return finishExtent(n, result, e->count, at);
}

/// ScatterElements whose indices and updates have data-dependent rows along the axis: the
/// padding rows write to one extra row of the data, cut off afterwards. The data keeps its own
/// extent, if it has one.
LogicalResult importScatterElementsOfExtent(NodeImporter &n) {
  std::optional<DynamicExtent> data = n.inputExtent(0), indices = n.inputExtent(1),
                               updates = n.inputExtent(2);
  if (!indices && !updates) {
    if (failed(usual(n)))
      return failure();
    if (data)
      n.setOutputExtent(0, data->count, data->dim);
    return success();
  }
  RankedTensorType type = n.inputType(0);
  FailureOr<int64_t> axis = normalizeAxis(n, n.getInt("axis", 0), type.getRank());
  if (failed(axis))
    return failure();
  if (!indices || !updates || indices->dim != *axis || updates->dim != *axis ||
      !sameCount(indices->count, updates->count))
    return refuse(n, indices ? 2 : 1,
                  "the indices and updates must share one count along the scatter axis");
  FailureOr<Value> x = n.input(0), idx = n.input(1);
  if (failed(x) || failed(idx))
    return failure();
  int64_t size = type.getDimSize(*axis);
  SmallVector<int64_t> extraShape(type.getShape());
  extraShape[*axis] = 1;
  FailureOr<Value> extra = fillConstant(n, type.getElementType(), extraShape, 0.0);
  if (failed(extra))
    return failure();
  FailureOr<Value> widened = n.create<ms::ConcatOp>(ValueRange{*x, *extra}, uint64_t(*axis));
  FailureOr<Value> spare = fillConstant(n, n.inputType(1).getElementType(), {}, double(size));
  if (failed(widened) || failed(spare))
    return failure();
  auto idxType = cast<RankedTensorType>(idx->getType());
  FailureOr<Value> real =
      realPositions(n, idxType.getRank(), *axis, idxType.getDimSize(*axis), indices->count);
  if (failed(real))
    return failure();
  FailureOr<Value> redirected = n.create<ms::WhereOp>(*real, *idx, *spare);
  if (failed(redirected))
    return failure();
  std::string name = n.getString("reduction", "none");
  std::optional<ms::ScatterReduction> reduction = ms::symbolizeScatterReduction(name);
  if (!reduction)
    return n.error() << "reduction '" << name << "' is not one of none, add, mul, max, min";
  FailureOr<Value> updatesValue = n.input(2);
  if (failed(updatesValue))
    return failure();
  FailureOr<Value> scattered = n.create<ms::ScatterElementsOp>(*widened, *redirected, *updatesValue,
                                                               uint64_t(*axis), *reduction);
  if (failed(scattered))
    return failure();
  SmallVector<int64_t> starts(type.getRank(), 0), steps(type.getRank(), 1);
  FailureOr<Value> result = n.create<ms::SliceOp>(*scattered, ArrayRef<int64_t>(starts),
                                                  type.getShape(), ArrayRef<int64_t>(steps));
  if (failed(result))
    return failure();
  n.setOutput(0, *result);
  if (data)
    n.setOutputExtent(0, data->count, data->dim);
  return success();
}

} // namespace

//===----------------------------------------------------------------------===//
// Slice windows at runtime starts
//===----------------------------------------------------------------------===//

namespace {

/// `v` (a one-element integer tensor) as base + offset: base is the runtime value it is computed
/// from by reshapes and additions of constants (null for a constant).
std::optional<std::pair<Value, int64_t>> affineOf(NodeImporter &n, Value v, int depth = 0) {
  if (depth > 16)
    return std::nullopt;
  Operation *op = v.getDefiningOp();
  auto one = [](Value x) {
    auto t = dyn_cast<RankedTensorType>(x.getType());
    return t && t.hasStaticShape() && t.getNumElements() == 1 &&
           isa<IntegerType>(t.getElementType());
  };
  if (!one(v))
    return std::nullopt;
  if (!op)
    return std::make_pair(v, int64_t(0));
  if (isa<ms::ConstantOp>(op)) {
    if (auto dense = dyn_cast_or_null<DenseIntElementsAttr>(n.constantValue(v)))
      return std::make_pair(Value(), (*dense.begin()).getSExtValue());
    return std::nullopt;
  }
  if (isa<ms::ReshapeOp, ms::SqueezeOp, ms::UnsqueezeOp, ms::FlattenOp>(op))
    return affineOf(n, op->getOperand(0), depth + 1);
  if (isa<ms::AddOp, ms::SubOp>(op)) {
    auto a = affineOf(n, op->getOperand(0), depth + 1),
         b = affineOf(n, op->getOperand(1), depth + 1);
    if (!a || !b)
      return std::nullopt;
    bool sub = isa<ms::SubOp>(op);
    if (!b->first)
      return std::make_pair(a->first, sub ? a->second - b->second : a->second + b->second);
    if (!a->first && !sub)
      return std::make_pair(b->first, a->second + b->second);
    return std::nullopt;
  }
  return std::make_pair(v, int64_t(0));
}

} // namespace

FailureOr<bool> mlir::mie::onnx_import::importSliceWindow(NodeImporter &n) {
  if (!n.hasInput(1) || !n.hasInput(2))
    return false;
  RankedTensorType type = n.inputType(0), startsType = n.inputType(1), endsType = n.inputType(2);
  if (startsType.getRank() != 1 || endsType != startsType ||
      !isa<IntegerType>(startsType.getElementType()) || n.hasTrackedRanges(1) || n.inputExtent(0))
    return false;
  int64_t entries = startsType.getDimSize(0), rank = type.getRank();
  SmallVector<int64_t> axes, steps;
  for (unsigned i : {3u, 4u}) {
    if (!n.hasInput(i))
      continue;
    const KnownTensor *k = n.constantData(i);
    if (!k)
      return false;
    (i == 3 ? axes : steps) = k->toInts();
  }
  if ((!axes.empty() && (int64_t)axes.size() != entries) ||
      llvm::any_of(steps, [](int64_t s) { return s != 1; }))
    return false;
  FailureOr<Value> starts = n.input(1), ends = n.input(2), x = n.input(0);
  if (failed(starts) || failed(ends) || failed(x))
    return failure();
  // One entry at a time: its start and end as base + offset of one runtime value.
  auto entry = [&](Value list, int64_t i) -> std::optional<std::pair<Value, int64_t>> {
    Operation *op = list.getDefiningOp();
    if (entries == 1)
      return affineOf(n, list);
    if (auto concat = dyn_cast_or_null<ms::ConcatOp>(op);
        concat && concat->getNumOperands() == entries)
      return affineOf(n, concat->getOperand(i));
    return std::nullopt;
  };
  SmallVector<int64_t> starts0(rank, 0), sizes(type.getShape()), ones(rank, 1);
  SmallVector<std::pair<int64_t, Value>> windows; // (axis, runtime start) per runtime entry
  for (int64_t i = 0; i < entries; ++i) {
    auto s = entry(*starts, i), e = entry(*ends, i);
    if (!s || !e || s->first != e->first)
      return false;
    int64_t axis = axes.empty() ? i : (axes[i] < 0 ? axes[i] + rank : axes[i]);
    if (axis < 0 || axis >= rank)
      return false;
    int64_t dim = type.getDimSize(axis), size = e->second - s->second;
    if (size < 0 || size > dim)
      return false;
    if (!s->first) // both known: an ordinary static slice along this axis
      return false;
    sizes[axis] = size;
    FailureOr<Value> start = n.create<ms::SliceOp>(*starts, ArrayRef<int64_t>{i},
                                                   ArrayRef<int64_t>{1}, ArrayRef<int64_t>{1});
    if (failed(start))
      return failure();
    auto i64 = RankedTensorType::get({1}, n.builder().getI64Type());
    if (start->getType() != i64)
      start = n.foldCreated(ms::CastOp::create(n.builder(), n.loc(), i64, *start));
    windows.push_back({axis, *start});
  }
  if (windows.empty())
    return false;
  Value result = *x;
  for (auto [axis, start] : windows) {
    int64_t dim = type.getDimSize(axis), size = sizes[axis];
    // A negative start counts from the end; the window is then kept inside the dim (where ONNX
    // would shorten it, the model's static shapes could not hold).
    FailureOr<Value> zero = countConstant(n, 0), wrapped = countConstant(n, dim),
                     last = countConstant(n, dim - size);
    if (failed(zero) || failed(wrapped) || failed(last))
      return failure();
    FailureOr<Value> negative = n.create<ms::CompareOp>(ms::ComparePredicate::lt, start, *zero);
    FailureOr<Value> shifted = n.create<ms::AddOp>(start, *wrapped);
    FailureOr<Value> fromEnd = failed(negative) || failed(shifted)
                                   ? FailureOr<Value>(failure())
                                   : n.create<ms::WhereOp>(*negative, *shifted, start);
    FailureOr<Value> low = binary<ms::MaxOp>(n, fromEnd, zero);
    FailureOr<Value> clamped = binary<ms::MinOp>(n, low, last);
    if (failed(clamped))
      return failure();
    SmallVector<int64_t> offsets(size);
    for (int64_t k = 0; k < size; ++k)
      offsets[k] = k;
    FailureOr<Value> iota = i64Constant(n, {size}, offsets);
    FailureOr<Value> index = binary<ms::AddOp>(n, iota, clamped);
    FailureOr<Value> gathered =
        failed(index) ? index : n.create<ms::GatherOp>(result, *index, uint64_t(axis));
    if (failed(gathered))
      return failure();
    result = *gathered;
  }
  n.setOutput(0, result);
  return true;
}

//===----------------------------------------------------------------------===//
// If over data-dependent values
//===----------------------------------------------------------------------===//

/// An If whose branches read data-dependent values: both branches are imported inline (they are
/// side-effect free) and each output selects between them; a data-dependent output is padded to
/// the larger bound and its count selected too.
LogicalResult mlir::mie::onnx_import::importIfBySelect(NodeImporter &n, OnnxGraph &thenGraph,
                                                       OnnxGraph &elseGraph) {
  SmallVector<std::optional<DynamicExtent>> thenExtents, elseExtents;
  FailureOr<SmallVector<Value>> thenValues = n.importSubgraphInline(thenGraph, thenExtents);
  if (failed(thenValues))
    return failure();
  FailureOr<SmallVector<Value>> elseValues = n.importSubgraphInline(elseGraph, elseExtents);
  FailureOr<Value> cond = n.input(0);
  if (failed(elseValues) || failed(cond))
    return failure();
  for (unsigned i = 0; i < n.numOutputs(); ++i) {
    Value t = (*thenValues)[i], f = (*elseValues)[i];
    auto tType = cast<RankedTensorType>(t.getType()), fType = cast<RankedTensorType>(f.getType());
    std::optional<DynamicExtent> te = thenExtents[i], fe = elseExtents[i];
    auto mismatch = [&]() {
      return n.unsupportedFeature()
             << "output " << i << " ('" << n.node().outputs[i] << "') is " << tType
             << " in then_branch but " << fType
             << " in else_branch: the branches may differ only in the size of one "
                "data-dependent dim";
    };
    if (tType.getElementType() != fType.getElementType() || tType.getRank() != fType.getRank())
      return mismatch();
    int64_t dim = te ? te->dim : fe ? fe->dim : -1;
    if ((te && te->dim != dim) || (fe && fe->dim != dim))
      return mismatch();
    for (int64_t d = 0; d < tType.getRank(); ++d)
      if (tType.getDimSize(d) != fType.getDimSize(d) && d != dim)
        return mismatch();
    if (dim < 0) {
      FailureOr<Value> selected = n.create<ms::WhereOp>(*cond, t, f);
      if (failed(selected))
        return failure();
      n.setOutput(i, *selected);
      continue;
    }
    int64_t bound = std::max(tType.getDimSize(dim), fType.getDimSize(dim));
    // Pads a branch's value to the bound along `dim` with zeros.
    auto widen = [&](Value v) -> FailureOr<Value> {
      auto type = cast<RankedTensorType>(v.getType());
      if (type.getDimSize(dim) == bound)
        return v;
      SmallVector<int64_t> padShape(type.getShape());
      padShape[dim] = bound - type.getDimSize(dim);
      FailureOr<Value> zeros = fillConstant(n, type.getElementType(), padShape, 0.0);
      if (failed(zeros))
        return failure();
      if (type.getNumElements() == 0)
        return zeros;
      return n.create<ms::ConcatOp>(ValueRange{v, *zeros}, uint64_t(dim));
    };
    FailureOr<Value> tw = widen(t), fw = widen(f);
    FailureOr<Value> tc =
        te ? FailureOr<Value>(te->count) : countConstant(n, tType.getDimSize(dim));
    FailureOr<Value> fc =
        fe ? FailureOr<Value>(fe->count) : countConstant(n, fType.getDimSize(dim));
    if (failed(tw) || failed(fw) || failed(tc) || failed(fc))
      return failure();
    FailureOr<Value> selected = n.create<ms::WhereOp>(*cond, *tw, *fw);
    FailureOr<Value> count = n.create<ms::WhereOp>(*cond, *tc, *fc);
    if (failed(selected) || failed(count))
      return failure();
    n.setOutput(i, *selected);
    n.setOutputExtent(i, *count, dim);
  }
  return success();
}

OnnxOpHandler mlir::mie::onnx_import::dynamicExtentHandler(StringRef opType) {
  static const llvm::StringMap<OnnxOpHandler> table = {
      {"Shape", importShapeOfExtent},
      {"Size", importSizeOfExtent},
      {"Split", importSplitOfExtent},
      {"Concat", importConcatOfExtents},
      {"Slice", importSliceOfExtent},
      {"Reshape", importReshapeOfExtent},
      {"Flatten", importFlattenOfExtent},
      {"TopK", importTopKOfExtent},
      {"ReduceSum", importReduceOfExtent},
      {"ReduceProd", importReduceOfExtent},
      {"ReduceMax", importReduceOfExtent},
      {"ReduceMin", importReduceOfExtent},
      {"ReduceMean", importReduceOfExtent},
      {"NonMaxSuppression", importNonMaxSuppressionOfExtent},
      {"ConstantOfShape", importConstantOfShapeOfRanges},
      {"NonZero", importNonZeroOfExtent},
      {"Range", importRangeOfRanges},
      {"RoiAlign", importRoiAlignOfExtent},
      {"Gemm", importMatMulOfExtent},
      {"MatMul", importMatMulOfExtent},
      {"Softmax", importSoftmaxOfExtent},
      {"Expand", importExpandOfExtent},
      {"Conv", importBatchRowsOfExtent},
      {"ConvTranspose", importBatchRowsOfExtent},
      {"MaxPool", importBatchRowsOfExtent},
      {"AveragePool", importBatchRowsOfExtent},
      {"GlobalAveragePool", importBatchRowsOfExtent},
      {"GlobalMaxPool", importBatchRowsOfExtent},
      {"BatchNormalization", importBatchRowsOfExtent},
      {"InstanceNormalization", importBatchRowsOfExtent},
      {"Resize", importBatchRowsOfExtent},
      {"ScatterElements", importScatterElementsOfExtent},
      {"LogSoftmax", importSoftmaxOfExtent},
  };
  return table.lookup(opType);
}
