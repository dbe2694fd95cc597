//===- OnnxTensorOps.cpp - constants, shape chains, data movement ---------===//
//
// Constant, Shape, Size, ConstantOfShape and Range produce known values (unless sized by kept
// symbolic dims: OnnxSymbolicDims.cpp). Reshape, Flatten,
// Squeeze, Unsqueeze, Concat, Gather, Slice, Split and Expand map onto ms ops, which fold on known
// data (the Shape -> Gather -> Unsqueeze -> Concat -> Reshape chains of exporters). Shape-like
// inputs (Reshape's shape, Slice's starts, Pad's pads, ...) must be known after that folding.
//
//===----------------------------------------------------------------------===//

#include "OnnxImporterInternal.h"

#include "dialects/ms/IR/MsOps.h"

#include <cmath>
#include <limits>
#include <numeric>

using namespace mlir;
using namespace mlir::mie::onnx_import;

namespace {

int64_t product(ArrayRef<int64_t> values) {
  return std::accumulate(values.begin(), values.end(), int64_t(1), std::multiplies<int64_t>());
}

//===----------------------------------------------------------------------===//
// Constant producers
//===----------------------------------------------------------------------===//

LogicalResult importConstant(NodeImporter &n) {
  Builder &b = n.builder();
  if (n.hasAttr("value")) {
    OnnxTensor *tensor = n.getTensor("value");
    if (!tensor)
      return failure();
    n.setTensorOutput(0, *tensor);
    return success();
  }
  if (n.hasAttr("value_float")) {
    double v = n.getFloat("value_float", 0.0);
    n.setKnownOutput(0, KnownTensor::fromFloats({}, b.getF32Type(), {v}));
  } else if (n.hasAttr("value_floats")) {
    SmallVector<double> v = n.getFloats("value_floats").value_or(SmallVector<double>());
    n.setKnownOutput(0, KnownTensor::fromFloats({(int64_t)v.size()}, b.getF32Type(), v));
  } else if (n.hasAttr("value_int")) {
    int64_t v = n.getInt("value_int", 0);
    n.setKnownOutput(0, KnownTensor::fromInts({}, b.getI64Type(), {v}));
  } else if (n.hasAttr("value_ints")) {
    SmallVector<int64_t> v = n.getInts("value_ints").value_or(SmallVector<int64_t>());
    n.setKnownOutput(0, KnownTensor::fromInts({(int64_t)v.size()}, b.getI64Type(), v));
  } else {
    for (StringRef other : {"sparse_value", "value_string", "value_strings"})
      if (n.hasAttr(other))
        return n.error() << "attribute '" << other << "' is not supported";
    return n.error() << "has no value attribute";
  }
  return n.hasFailed() ? failure() : success();
}

/// Shape (with start/end from opset 15): always known, since every shape is static.
LogicalResult importShape(NodeImporter &n) {
  FailureOr<std::pair<int64_t, int64_t>> range = shapeRange(n);
  if (failed(range))
    return failure();
  auto [start, end] = *range;
  ArrayRef<int64_t> dims = n.inputType(0).getShape().slice(start, end - start);
  if (llvm::any_of(dims, ShapedType::isDynamic))
    return importShapeOfSymbolicDims(n, start, end);
  n.setKnownOutput(0,
                   KnownTensor::fromInts({(int64_t)dims.size()}, n.builder().getI64Type(), dims));
  return success();
}

LogicalResult importSize(NodeImporter &n) {
  n.setKnownOutput(
      0, KnownTensor::fromInts({}, n.builder().getI64Type(), {n.inputType(0).getNumElements()}));
  return success();
}

/// Reads a known 1-D shape input; every entry must be >= `min`.
FailureOr<SmallVector<int64_t>> knownShape(NodeImporter &n, unsigned i, StringRef what,
                                           int64_t min) {
  FailureOr<const KnownTensor *> known = n.requireKnown(i, what);
  if (failed(known))
    return failure();
  if ((*known)->isFloat() || (*known)->rank() != 1)
    return n.error() << what << " input must be a 1-D integer tensor, got " << (*known)->type;
  SmallVector<int64_t> values = (*known)->toInts();
  for (int64_t v : values)
    if (v < min)
      return n.error() << what << " " << listToString(values) << " has an entry below " << min;
  if (min >= 0 && !isReasonableShape(values))
    return n.error() << what << " " << listToString(values) << " is too large";
  return values;
}

LogicalResult importConstantOfShape(NodeImporter &n) {
  if (hasSymbolicElements(n, 0))
    return importConstantOfShapeOfSymbolicDims(n);
  FailureOr<SmallVector<int64_t>> shape = knownShape(n, 0, "shape", 0);
  if (failed(shape))
    return failure();
  KnownTensor value = KnownTensor::fromFloats({}, n.builder().getF32Type(), {0.0});
  if (n.hasAttr("value")) {
    OnnxTensor *tensor = n.getTensor("value");
    if (!tensor)
      return failure();
    if (!tensor->known || tensor->type.getNumElements() != 1)
      return n.error() << "'value' must hold one element, got " << tensor->type;
    value = *tensor->known;
  }
  value.type = RankedTensorType::get(*shape, value.type.getElementType());
  value.splat = product(*shape) != 1;
  if (product(*shape) == 0) {
    value.splat = false;
    value.ints.clear();
    value.floats.clear();
  }
  n.setKnownOutput(0, std::move(value));
  return success();
}

LogicalResult importRange(NodeImporter &n) {
  if (llvm::any_of(llvm::seq(0u, 3u), [&](unsigned i) { return hasSymbolicElements(n, i); }))
    return importRangeOfSymbolicDims(n);
  if (llvm::any_of(llvm::seq(0u, 3u), [&](unsigned i) { return !n.constantData(i); })) {
    FailureOr<bool> declared = importRangeByDeclaredShape(n);
    if (failed(declared) || *declared)
      return success(succeeded(declared));
  }
  FailureOr<const KnownTensor *> knownStart = n.requireKnown(0, "start");
  FailureOr<const KnownTensor *> knownLimit =
      succeeded(knownStart) ? n.requireKnown(1, "limit") : knownStart;
  FailureOr<const KnownTensor *> knownDelta =
      succeeded(knownLimit) ? n.requireKnown(2, "delta") : knownLimit;
  if (failed(knownDelta))
    return failure();
  const KnownTensor *start = *knownStart, *limit = *knownLimit, *delta = *knownDelta;
  for (const KnownTensor *t : {start, limit, delta})
    if (t->numElements() != 1)
      return n.error() << "start, limit and delta must be scalars, got " << t->type;
  Type et = start->type.getElementType();
  double s = start->valueAt(0), l = limit->valueAt(0), d = delta->valueAt(0);
  if (d == 0.0)
    return n.error() << "delta must not be zero";
  // (l - s) / d may be NaN or beyond int64 (infinite or huge bounds): no such range is evaluable.
  const double steps = std::ceil((l - s) / d);
  std::optional<int64_t> size = sizeFromDouble(steps < 0.0 ? 0.0 : steps);
  if (!size || *size > kMaxKnownElements)
    return n.error() << "produces " << steps << " elements, too many to evaluate at compile time";
  const int64_t count = *size;
  if (start->isFloat()) {
    SmallVector<double> values;
    for (int64_t i = 0; i < count; ++i)
      values.push_back(s + i * d);
    n.setKnownOutput(0, KnownTensor::fromFloats({count}, et, values));
  } else {
    SmallVector<int64_t> values;
    for (int64_t i = 0; i < count; ++i)
      values.push_back(start->intAt(0) + i * delta->intAt(0));
    n.setKnownOutput(0, KnownTensor::fromInts({count}, et, values));
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Reshape family
//===----------------------------------------------------------------------===//

/// Output 0 is input 0 with a new static shape: forwarded or an ms.reshape (folded when known).
LogicalResult reshapeTo(NodeImporter &n, ArrayRef<int64_t> shape) {
  if (n.inputType(0).getShape() == shape) {
    n.forwardInput(0, 0);
    return success();
  }
  FailureOr<Value> x = n.input(0);
  if (failed(x))
    return failure();
  return finish(n, n.create<ms::ReshapeOp>(*x, shape));
}

/// Reshape: 0 copies the input dim (unless allowzero), one -1 is inferred.
LogicalResult importReshape(NodeImporter &n) {
  if (!n.inputType(0).hasStaticShape() || (n.hasInput(1) && hasSymbolicElements(n, 1)))
    return importReshapeOfSymbolicDims(n);
  // Before opset 5 the shape is an attribute.
  FailureOr<SmallVector<int64_t>> requested = failure();
  if (n.opset() < 5 && !n.hasInput(1)) {
    std::optional<SmallVector<int64_t>> attr = n.getInts("shape");
    if (!attr)
      return n.hasFailed() ? failure() : n.error() << "attribute 'shape' is required";
    requested = std::move(*attr);
  } else {
    requested = knownShape(n, 1, "shape", -1);
  }
  if (failed(requested))
    return failure();
  bool allowZero = n.opset() >= 14 && n.getInt("allowzero", 0) != 0;
  if (n.hasFailed())
    return failure();
  RankedTensorType xType = n.inputType(0);
  SmallVector<int64_t> shape;
  int64_t inferred = -1;
  for (auto [i, entry] : llvm::enumerate(*requested)) {
    int64_t dim = entry;
    if (dim == 0 && !allowZero) {
      if ((int64_t)i >= xType.getRank())
        return n.error() << "shape " << listToString(*requested) << " copies dim " << i
                         << ", which " << xType << " does not have";
      dim = xType.getDimSize(i);
    } else if (dim == -1) {
      if (inferred >= 0)
        return n.error() << "shape " << listToString(*requested) << " has more than one -1";
      inferred = i;
      shape.push_back(1); // placeholder, resolved below
      continue;
    }
    shape.push_back(dim);
  }
  int64_t total = xType.getNumElements();
  if (!isReasonableShape(shape))
    return n.error() << "shape " << listToString(*requested) << " is too large";
  if (inferred >= 0) {
    int64_t knownProduct = product(shape);
    if (knownProduct == 0 || total % knownProduct != 0)
      return n.error() << "cannot infer the -1 of shape " << listToString(*requested) << " for "
                       << xType;
    shape[inferred] = total / knownProduct;
  }
  if (product(shape) != total)
    return n.error() << "cannot reshape " << xType << " (" << total << " elements) to "
                     << listToString(shape);
  return reshapeTo(n, shape);
}

LogicalResult importFlatten(NodeImporter &n) {
  RankedTensorType xType = n.inputType(0);
  int64_t rank = xType.getRank(), axis = n.getInt("axis", 1);
  if (n.hasFailed())
    return failure();
  if (axis < -rank || axis > rank)
    return n.error() << "axis " << axis << " is out of range for rank " << rank;
  if (axis < 0)
    axis += rank;
  FailureOr<Value> x = n.input(0);
  if (failed(x))
    return failure();
  return finish(n, n.create<ms::FlattenOp>(*x, static_cast<uint64_t>(axis)));
}

LogicalResult importSqueeze(NodeImporter &n) {
  FailureOr<std::optional<SmallVector<int64_t>>> axes = intsFromAttrOrInput(n, "axes", 1, 13);
  if (failed(axes))
    return failure();
  RankedTensorType xType = n.inputType(0);
  SmallVector<int64_t> normalized;
  // No axes, or an empty list (as ONNX Runtime reads it): every size-1 dim goes.
  bool all = !*axes || (*axes)->empty();
  if (!all) {
    FailureOr<SmallVector<int64_t>> checked = normalizeAxes(n, **axes, xType.getRank());
    if (failed(checked))
      return failure();
    normalized = std::move(*checked);
  }
  // (ms.squeeze's verifier checks that the listed dims have size 1.)
  FailureOr<Value> x = n.input(0);
  if (failed(x))
    return failure();
  llvm::sort(normalized);
  return finish(n, n.create<ms::SqueezeOp>(*x, ArrayRef<int64_t>(normalized)));
}

LogicalResult importUnsqueeze(NodeImporter &n) {
  FailureOr<std::optional<SmallVector<int64_t>>> axes = intsFromAttrOrInput(n, "axes", 1, 13);
  if (failed(axes))
    return failure();
  if (!*axes)
    return n.error() << "axes are required";
  RankedTensorType xType = n.inputType(0);
  int64_t rank = xType.getRank() + (*axes)->size();
  FailureOr<SmallVector<int64_t>> normalized = normalizeAxes(n, **axes, rank);
  if (failed(normalized))
    return failure();
  FailureOr<Value> x = n.input(0);
  if (failed(x))
    return failure();
  llvm::sort(*normalized);
  return finish(n, n.create<ms::UnsqueezeOp>(*x, ArrayRef<int64_t>(*normalized)));
}

//===----------------------------------------------------------------------===//
// Transpose, Concat, Gather, Expand
//===----------------------------------------------------------------------===//

LogicalResult importTranspose(NodeImporter &n) {
  int64_t rank = n.inputType(0).getRank();
  std::optional<SmallVector<int64_t>> perm = n.getInts("perm");
  if (n.hasFailed())
    return failure();
  if (!perm) {
    perm.emplace();
    for (int64_t d = rank - 1; d >= 0; --d)
      perm->push_back(d);
  }
  FailureOr<Value> x = n.input(0);
  if (failed(x))
    return failure();
  return finish(n, n.create<ms::TransposeOp>(*x, ArrayRef<int64_t>(*perm)));
}

LogicalResult importConcat(NodeImporter &n) {
  if (!n.hasAttr("axis") && n.opset() >= 4)
    return n.error() << "attribute 'axis' is required";
  int64_t axis = n.getInt("axis", 1); // optional before opset 4, with 1 as the default
  if (n.hasFailed())
    return failure();
  unsigned count = n.node().inputs.size();
  for (unsigned i = 0; i < count; ++i)
    if (!n.hasInput(i))
      return n.error() << "input " << i << " is missing";
  RankedTensorType first = n.inputType(0);
  FailureOr<int64_t> normAxis = normalizeAxis(n, axis, first.getRank());
  if (failed(normAxis))
    return failure();
  if (count == 1) {
    n.forwardInput(0, 0);
    return success();
  }

  SmallVector<Value> inputs;
  for (unsigned i = 0; i < count; ++i) {
    FailureOr<Value> v = n.input(i);
    if (failed(v))
      return failure();
    inputs.push_back(*v);
  }
  return finish(n, n.create<ms::ConcatOp>(ValueRange(inputs), static_cast<uint64_t>(axis)));
}

LogicalResult importGather(NodeImporter &n) {
  RankedTensorType dataType = n.inputType(0);
  if (dataType.getRank() == 0)
    return n.error() << "expects data of rank >= 1, got " << dataType;
  FailureOr<int64_t> axis = normalizeAxis(n, n.getInt("axis", 0), dataType.getRank());
  if (failed(axis) || n.hasFailed())
    return failure();
  int64_t dim = dataType.getDimSize(*axis);
  const KnownTensor *indices = n.known(1);
  if (indices) {
    if (indices->isFloat())
      return n.error() << "indices must be integers, got " << indices->type;
    for (int64_t i = 0, e = indices->numElements(); i < e; ++i)
      if (indices->intAt(i) < -dim || indices->intAt(i) >= dim)
        return n.error() << "index " << indices->intAt(i) << " is out of range for dim " << *axis
                         << " of size " << dim;
  }
  FailureOr<Value> data = n.input(0), idx = n.input(1);
  if (failed(data) || failed(idx))
    return failure();
  return finish(n, n.create<ms::GatherOp>(*data, *idx, static_cast<uint64_t>(*axis)));
}

LogicalResult importExpand(NodeImporter &n) {
  if (!n.inputType(0).hasStaticShape() || hasSymbolicElements(n, 1))
    return importExpandOfSymbolicDims(n);
  FailureOr<SmallVector<int64_t>> shape = knownShape(n, 1, "shape", 0);
  if (failed(shape))
    return failure();
  RankedTensorType xType = n.inputType(0);
  std::optional<SmallVector<int64_t>> result = broadcastStaticShapes(xType.getShape(), *shape);
  if (!result)
    return n.error() << "cannot expand " << xType << " to " << listToString(*shape);
  if (ArrayRef<int64_t>(*result) == xType.getShape()) {
    n.forwardInput(0, 0);
    return success();
  }
  FailureOr<Value> x = n.input(0);
  if (failed(x))
    return failure();
  return finish(n, n.create<ms::ExpandOp>(*x, ArrayRef<int64_t>(*shape)));
}

//===----------------------------------------------------------------------===//
// Slice and Split
//===----------------------------------------------------------------------===//

/// A strided box of a tensor in ms.slice form (one entry per dim).
struct Box {
  SmallVector<int64_t> starts, sizes, steps;
};

Box fullBox(ArrayRef<int64_t> shape) {
  Box box;
  box.starts.assign(shape.size(), 0);
  box.sizes.assign(shape.begin(), shape.end());
  box.steps.assign(shape.size(), 1);
  return box;
}

/// Output 0 is `box` of input 0: forwarded or an ms.slice (folded when known).
LogicalResult sliceTo(NodeImporter &n, const Box &box) {
  RankedTensorType xType = n.inputType(0);
  if (ArrayRef<int64_t>(box.sizes) == xType.getShape() &&
      llvm::all_of(box.starts, [](int64_t s) { return s == 0; }) &&
      llvm::all_of(box.steps, [](int64_t s) { return s == 1; })) {
    n.forwardInput(0, 0);
    return success();
  }
  FailureOr<Value> x = n.input(0);
  if (failed(x))
    return failure();
  return finish(n,
                n.create<ms::SliceOp>(*x, ArrayRef<int64_t>(box.starts),
                                      ArrayRef<int64_t>(box.sizes), ArrayRef<int64_t>(box.steps)));
}

/// Slice: starts/ends/axes are attributes before opset 10, inputs (with steps) from 10 on. Known
/// indices are clamped and normalized to ms.slice's per-dim starts/sizes/steps; run-time ones need
/// a declared output shape (importSliceByDeclaredShape).
LogicalResult importSlice(NodeImporter &n) {
  SmallVector<int64_t> starts, ends, axes, steps;
  RankedTensorType xType = n.inputType(0);
  int64_t rank = xType.getRank();
  if (!xType.hasStaticShape() ||
      llvm::any_of(llvm::seq(1u, 5u), [&](unsigned i) { return hasSymbolicElements(n, i); }))
    return importSliceOfSymbolicDims(n);
  if (n.opset() < 10) {
    std::optional<SmallVector<int64_t>> s = n.getInts("starts"), e = n.getInts("ends");
    if (n.hasFailed())
      return failure();
    if (!s || !e)
      return n.error() << "attributes 'starts' and 'ends' are required";
    starts = *s;
    ends = *e;
    axes = n.getInts("axes").value_or(SmallVector<int64_t>());
  } else {
    if (!n.constantData(1) || !n.constantData(2)) {
      FailureOr<bool> window = importSliceWindow(n);
      if (failed(window))
        return failure();
      if (*window)
        return success();
    }
    if (llvm::any_of(llvm::seq(1u, 5u),
                     [&](unsigned i) { return n.hasInput(i) && !n.constantData(i); })) {
      FailureOr<bool> declared = importSliceByDeclaredShape(n);
      if (failed(declared) || *declared)
        return success(succeeded(declared));
    }
    const char *names[] = {"starts", "ends", "axes", "steps"};
    SmallVector<int64_t> *targets[] = {&starts, &ends, &axes, &steps};
    for (unsigned i = 0; i < 4; ++i) {
      if (i >= 2 && !n.hasInput(i + 1))
        continue;
      FailureOr<SmallVector<int64_t>> values =
          knownShape(n, i + 1, names[i], std::numeric_limits<int64_t>::min());
      if (failed(values))
        return failure();
      *targets[i] = std::move(*values);
    }
  }
  if (n.hasFailed())
    return failure();
  if (axes.empty())
    for (size_t i = 0; i < starts.size(); ++i)
      axes.push_back(i);
  if (steps.empty())
    steps.assign(starts.size(), 1);
  if (ends.size() != starts.size() || axes.size() != starts.size() || steps.size() != starts.size())
    return n.error() << "starts " << listToString(starts) << ", ends " << listToString(ends)
                     << ", axes " << listToString(axes) << " and steps " << listToString(steps)
                     << " must have the same length";
  FailureOr<SmallVector<int64_t>> normAxes = normalizeAxes(n, axes, rank);
  if (failed(normAxes))
    return failure();

  Box box = fullBox(xType.getShape());
  for (size_t i = 0; i < starts.size(); ++i) {
    int64_t d = (*normAxes)[i];
    if (steps[i] == 0)
      return n.error() << "steps must be non-zero, got " << listToString(steps);
    SliceDim s = normalizeSliceDim(xType.getDimSize(d), starts[i], ends[i], steps[i]);
    box.starts[d] = s.start;
    box.sizes[d] = s.size;
    box.steps[d] = s.step;
  }
  return sliceTo(n, box);
}

/// Split: sizes come from the `split` attribute (before 13), the optional `split` input (13+), or
/// equal parts — by `num_outputs` from opset 18 (the last part may be smaller), else by the number
/// of outputs.
LogicalResult importSplit(NodeImporter &n) {
  RankedTensorType xType = n.inputType(0);
  FailureOr<int64_t> axis = normalizeAxis(n, n.getInt("axis", 0), xType.getRank());
  if (failed(axis) || n.hasFailed())
    return failure();
  // Sizes given as a graph input: the declared outputs' dims along the axis, checked at run time.
  FailureOr<std::optional<SmallVector<int64_t>>> split = failure();
  if (n.opset() >= 13 && n.hasInput(1) && n.hasTrackedRanges(1)) {
    SmallVector<int64_t> declaredSizes;
    for (unsigned k = 0; k < n.numOutputs(); ++k) {
      std::optional<SmallVector<int64_t>> shape = n.declaredOutputShape(k);
      if (!shape || int64_t(shape->size()) != xType.getRank() || (*shape)[*axis] < 0)
        break;
      declaredSizes.push_back((*shape)[*axis]);
    }
    if (declaredSizes.size() == n.numOutputs()) {
      FailureOr<bool> pinned = pinValueInput(n, 1, declaredSizes);
      if (failed(pinned))
        return failure();
      if (*pinned)
        split = std::optional<SmallVector<int64_t>>(declaredSizes);
    }
  }
  if (failed(split))
    split = intsFromAttrOrInput(n, "split", 1, 13);
  if (failed(split))
    return failure();
  int64_t dim = xType.getDimSize(*axis), parts = n.numOutputs();
  SmallVector<int64_t> sizes;
  if (*split) {
    sizes = **split;
  } else if (n.opset() >= 18 && n.hasAttr("num_outputs")) {
    int64_t num = n.getInt("num_outputs", 0);
    if (num < 1 || num != parts)
      return n.error() << "num_outputs " << num << " must equal the number of outputs (" << parts
                       << ")";
    int64_t chunk = (dim + num - 1) / num;
    for (int64_t i = 0; i < num; ++i)
      sizes.push_back(std::max<int64_t>(0, std::min(chunk, dim - i * chunk)));
  } else {
    if (parts < 1 || dim % parts != 0)
      return n.error() << "cannot split dim " << *axis << " of size " << dim << " into " << parts
                       << " equal parts";
    sizes.assign(parts, dim / parts);
  }
  // Summed only while it stays at most dim: sizes from the model may overflow int64 together.
  int64_t total = 0;
  bool fits = llvm::all_of(
      sizes, [&](int64_t s) { return s >= 0 && s <= dim - total && ((total += s), true); });
  if ((int64_t)sizes.size() != parts || !fits || total != dim)
    return n.error() << "split sizes " << listToString(sizes) << " must be " << parts
                     << " non-negative sizes adding up to " << dim;

  // A known input (a shape split into dims) is sliced piece by piece, so that each piece folds.
  if (n.known(0)) {
    FailureOr<Value> x = n.input(0);
    if (failed(x))
      return failure();
    int64_t offset = 0;
    for (auto [i, size] : llvm::enumerate(sizes)) {
      Box box = fullBox(xType.getShape());
      box.starts[*axis] = size ? offset : 0;
      box.sizes[*axis] = size;
      offset += size;
      FailureOr<Value> piece =
          n.create<ms::SliceOp>(*x, ArrayRef<int64_t>(box.starts), ArrayRef<int64_t>(box.sizes),
                                ArrayRef<int64_t>(box.steps));
      if (failed(piece))
        return failure();
      n.setOutput(i, *piece);
    }
    return success();
  }
  FailureOr<Value> x = n.input(0);
  if (failed(x))
    return failure();
  FailureOr<Operation *> op =
      n.createVariadicOp<ms::SplitOp>(*x, static_cast<uint64_t>(*axis), ArrayRef<int64_t>(sizes));
  return finish(n, op);
}

//===----------------------------------------------------------------------===//
// Pad
//===----------------------------------------------------------------------===//

/// Pad in `wrap` mode (opset 19): each padded axis is a gather of the indices
/// (i - begin) mod size, i over the output: any amount (more than the size repeats it; negative
/// crops) in one op per axis.
FailureOr<Value> wrapPad(NodeImporter &n, Value x, ArrayRef<int64_t> pads) {
  RankedTensorType type = cast<RankedTensorType>(x.getType());
  int64_t rank = type.getRank();
  for (int64_t d = 0; d < rank; ++d) {
    int64_t begin = pads[d], end = pads[d + rank], size = type.getDimSize(d);
    if (begin == 0 && end == 0)
      continue;
    if (ShapedType::isDynamic(size))
      return n.unsupportedFeature() << "wrap padding of dynamic dim " << d << " of " << type;
    // The gather's indices are built here: an axis of at most 2^24 after padding (and pads
    // bounded first, so the sum cannot overflow).
    constexpr int64_t kMaxWrapped = int64_t(1) << 24;
    // (Compared without std::abs, which overflows on INT64_MIN.)
    if (begin < -kMaxWrapped || begin > kMaxWrapped || end < -kMaxWrapped || end > kMaxWrapped)
      return n.error() << "wrap pads " << listToString(pads) << " must be at most 2^24";
    int64_t out = size + begin + end;
    if (out < 0 || out > kMaxWrapped || (size == 0 && out > 0))
      return n.error() << "pads " << listToString(pads) << " do not fit dim " << d << " of "
                       << type;
    SmallVector<int64_t> indices(out);
    for (int64_t i = 0; i < out; ++i)
      indices[i] = ((i - begin) % size + size) % size;
    auto indexType = RankedTensorType::get({out}, n.builder().getI64Type());
    Value idx = ms::ConstantOp::create(n.builder(), n.loc(),
                                       DenseElementsAttr::get(indexType, ArrayRef(indices)));
    FailureOr<Value> gathered = n.create<ms::GatherOp>(x, idx, static_cast<uint64_t>(d));
    if (failed(gathered))
      return failure();
    x = *gathered;
    type = cast<RankedTensorType>(x.getType());
  }
  return x;
}

/// Pad: pads/value are attributes before opset 11, inputs from 11 on (with optional axes from 18):
/// constant, sizes of the symbolic dims, or run-time values with a declared output shape.
LogicalResult importPad(NodeImporter &n) {
  RankedTensorType xType = n.inputType(0);
  int64_t rank = xType.getRank();
  std::string modeName = n.getString("mode", "constant");
  SmallVector<int64_t> pads;
  double value = 0.0;
  if (n.opset() < 11) {
    // Pad-1 calls them `paddings`.
    std::optional<SmallVector<int64_t>> attr =
        n.getInts(n.opset() < 2 && n.hasAttr("paddings") ? "paddings" : "pads");
    if (!attr && !n.hasFailed())
      return n.error() << "attribute 'pads' is required";
    pads = attr.value_or(SmallVector<int64_t>());
    value = n.getFloat("value", 0.0);
  } else {
    if (hasSymbolicElements(n, 1))
      return importPadOfSymbolicDims(n);
    if (!n.constantData(1) || (n.hasInput(2) && !n.constantData(2))) {
      FailureOr<bool> declared = importPadByDeclaredShape(n, modeName);
      if (failed(declared) || *declared)
        return success(succeeded(declared));
    }
    FailureOr<SmallVector<int64_t>> input =
        knownShape(n, 1, "pads", std::numeric_limits<int64_t>::min());
    if (failed(input))
      return failure();
    pads = std::move(*input);
    if (n.hasInput(2)) {
      FailureOr<const KnownTensor *> constant = n.requireKnown(2, "constant_value");
      if (failed(constant))
        return failure();
      if ((*constant)->numElements() != 1)
        return n.error() << "constant_value must be a scalar, got " << (*constant)->type;
      value = (*constant)->valueAt(0);
    }
    if (n.hasInput(3)) {
      FailureOr<SmallVector<int64_t>> axes =
          knownShape(n, 3, "axes", std::numeric_limits<int64_t>::min());
      if (failed(axes))
        return failure();
      FailureOr<SmallVector<int64_t>> normAxes = normalizeAxes(n, *axes, rank);
      if (failed(normAxes))
        return failure();
      if (pads.size() != 2 * normAxes->size())
        return n.error() << "pads " << listToString(pads) << " must have 2 entries per axis of "
                         << listToString(*axes);
      SmallVector<int64_t> full(2 * rank, 0);
      for (auto [i, d] : llvm::enumerate(*normAxes)) {
        full[d] = pads[i];
        full[d + rank] = pads[i + normAxes->size()];
      }
      pads = std::move(full);
    }
  }
  if (n.hasFailed())
    return failure();
  std::optional<ms::PadMode> mode = ms::symbolizePadMode(modeName);
  if (!mode && modeName != "wrap")
    return n.error() << "mode '" << modeName << "' is not supported";
  if ((int64_t)pads.size() != 2 * rank)
    return n.error() << "pads " << listToString(pads) << " must have " << 2 * rank << " entries";
  FailureOr<Value> x = n.input(0);
  if (failed(x))
    return failure();
  if (mode)
    return finish(n, n.create<ms::PadOp>(*x, ArrayRef<int64_t>(pads), *mode, APFloat(value)));
  return finish(n, wrapPad(n, *x, pads));
}

/// CenterCropPad: each axis of `axes` (all by default) cropped or zero-padded to `shape` about its
/// center: one ms.pad whose negative amounts crop. An odd difference puts its extra element at
/// the end, as ONNX's reference does.
LogicalResult importCenterCropPad(NodeImporter &n) {
  RankedTensorType xType = n.inputType(0);
  int64_t rank = xType.getRank();
  std::optional<SmallVector<int64_t>> axesAttr = n.getInts("axes");
  if (n.hasFailed())
    return failure();
  FailureOr<SmallVector<int64_t>> target = knownShape(n, 1, "shape", 0);
  if (failed(target))
    return failure();
  SmallVector<int64_t> axes(axesAttr.value_or(SmallVector<int64_t>()));
  if (!axesAttr)
    for (int64_t d = 0; d < rank; ++d)
      axes.push_back(d);
  FailureOr<SmallVector<int64_t>> normAxes = normalizeAxes(n, axes, rank);
  if (failed(normAxes))
    return failure();
  if (target->size() != normAxes->size())
    return n.error() << "shape " << listToString(*target) << " must have one entry per axis ("
                     << normAxes->size() << ")";
  SmallVector<int64_t> pads(2 * rank, 0);
  for (auto [axis, size] : llvm::zip(*normAxes, *target)) {
    int64_t dim = xType.getDimSize(axis);
    if (ShapedType::isDynamic(dim))
      return n.unsupportedFeature()
             << "center crop or pad of dynamic dim " << axis << " of " << xType;
    int64_t diff = size - dim; // > 0: pad, < 0: crop (negative pads)
    int64_t half = (diff >= 0 ? diff : -diff) / 2;
    pads[axis] = diff >= 0 ? half : -half;
    pads[axis + rank] = diff - pads[axis];
  }
  FailureOr<Value> x = n.input(0);
  if (failed(x))
    return failure();
  return finish(
      n, n.create<ms::PadOp>(*x, ArrayRef<int64_t>(pads), ms::PadMode::constant, APFloat(0.0)));
}

} // namespace

SliceDim mlir::mie::onnx_import::normalizeSliceDim(int64_t dim, int64_t start, int64_t end,
                                                   int64_t step) {
  // A step of at least the dim's size takes one element at most, as a step of the dim's size
  // does; clamped, the arithmetic below stays far from overflow (a step of INT64_MIN has no
  // negation).
  if (dim > 0)
    step = std::clamp<int64_t>(step, -dim, dim);
  if (start < 0)
    start = start < -dim ? -1 : start + dim; // stays below 0: clamped next
  if (end < 0)
    end = end < -dim ? -1 : end + dim;
  int64_t size;
  if (dim == 0) {
    size = 0;
  } else if (step > 0) {
    start = std::clamp<int64_t>(start, 0, dim);
    end = std::clamp<int64_t>(end, 0, dim);
    size = end > start ? (end - start + step - 1) / step : 0;
  } else {
    start = std::clamp<int64_t>(start, 0, dim - 1);
    end = std::clamp<int64_t>(end, -1, dim - 1);
    size = start > end ? (start - end - step - 1) / -step : 0;
  }
  // One element or none: any step reads the same.
  return {size == 0 ? 0 : start, size, size <= 1 ? 1 : step};
}

FailureOr<std::pair<int64_t, int64_t>> mlir::mie::onnx_import::shapeRange(NodeImporter &n) {
  int64_t rank = n.inputType(0).getRank();
  int64_t start = n.getInt("start", 0), end = n.getInt("end", rank);
  if (n.hasFailed())
    return failure();
  auto clampIndex = [&](int64_t i) { return std::clamp<int64_t>(i < 0 ? i + rank : i, 0, rank); };
  start = clampIndex(start);
  return std::make_pair(start, std::max(start, clampIndex(end)));
}

void mlir::mie::onnx_import::registerTensorOps(OnnxOpTable &table) {
  constexpr unsigned variadic = ~0u;
  table["Constant"] = {importConstant, 0, 0};
  table["Shape"] = {importShape, 1, 1};
  table["Size"] = {importSize, 1, 1};
  table["ConstantOfShape"] = {importConstantOfShape, 1, 1, 9};
  table["Range"] = {importRange, 3, 3, 11};
  table["Reshape"] = {importReshape, 1, 2};
  table["Flatten"] = {importFlatten, 1, 1};
  table["Squeeze"] = {importSqueeze, 1, 2};
  table["Unsqueeze"] = {importUnsqueeze, 1, 2};
  table["Transpose"] = {importTranspose, 1, 1};
  table["Concat"] = {importConcat, 1, variadic};
  table["Gather"] = {importGather, 2, 2};
  table["Expand"] = {importExpand, 2, 2, 8};
  table["Slice"] = {importSlice, 1, 5};
  table["Split"] = {importSplit, 1, 2};
  table["Pad"] = {importPad, 1, 4};
  table["CenterCropPad"] = {importCenterCropPad, 2, 2, 18};
}
