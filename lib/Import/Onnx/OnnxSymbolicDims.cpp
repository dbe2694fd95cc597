//===- OnnxSymbolicDims.cpp - ops sized by kept symbolic dims -------------===//
//
// With OnnxImportOptions::keepSymbolicDims a graph input's symbolic dims stay `?`, and the sizes
// exporters compute from them (Shape -> Gather -> Unsqueeze -> Concat -> Reshape) are followed
// as expressions of the function's symbols (IntRange::sym, carried through the integer
// arithmetic by OnnxValueRanges.cpp). Shape of such a value is a run-time ms.shape_of whose
// elements have those expressions; a Reshape to sizes that all have one is an ms.reshape with
// a `symbolic_shape`, so the Shape chain that computed them is left dead. So are the other ops
// that take such sizes: Slice (symbolic starts and sizes), Expand, ConstantOfShape (its value
// expanded), Tile (unsqueeze, expand, reshape), Pad (symbolic amounts) and Range (ms.range).
//
//===----------------------------------------------------------------------===//

#include "OnnxImporterInternal.h"

#include "dialects/ms/IR/MsOps.h"
#include "dialects/ms/IR/MsSymbolicShapes.h"

#include "mlir/Interfaces/FunctionInterfaces.h"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::mie::onnx_import;

namespace {

/// The function the node is imported into, holding its symbols.
Operation *functionOf(NodeImporter &n) {
  Operation *op = n.builder().getInsertionBlock()->getParentOp();
  return isa<FunctionOpInterface>(op) ? op : op->getParentOfType<FunctionOpInterface>();
}

} // namespace

bool mlir::mie::onnx_import::hasSymbolicElements(NodeImporter &n, unsigned i) {
  // Symbolic sizes are tracked ranges; a known value (the static path) never is one.
  if (!n.hasTrackedRanges(i))
    return false;
  std::optional<SmallVector<IntRange>> ranges = n.inputRanges(i);
  return ranges && llvm::any_of(*ranges, [](const IntRange &r) { return r.sym; }) &&
         llvm::all_of(*ranges, [](const IntRange &r) { return r.sym || r.exact(); });
}

bool mlir::mie::onnx_import::readsValueSymbols(NodeImporter &n, unsigned i) {
  std::optional<SmallVector<IntRange>> ranges = n.inputRanges(i);
  if (!ranges)
    return false;
  Operation *fn = functionOf(n);
  bool reads = false;
  for (const IntRange &r : *ranges)
    if (r.sym)
      r.sym.walk([&](AffineExpr e) {
        if (auto s = dyn_cast<AffineSymbolExpr>(e))
          reads |= valueSymbolSource(fn, s.getPosition()).has_value();
      });
  return reads;
}

LogicalResult mlir::mie::onnx_import::importShapeOfSymbolicDims(NodeImporter &n, int64_t start,
                                                                int64_t end) {
  FailureOr<Value> x = n.input(0);
  if (failed(x))
    return failure();
  ms::SymbolicShapes shapes(functionOf(n));
  ArrayRef<AffineExpr> dims = shapes.dims(*x);
  SmallVector<IntRange> ranges;
  for (int64_t i = start; i < end; ++i) {
    if (!dims[i])
      return n.unsupportedFeature() << "dim " << i << " of " << n.inputType(0)
                                    << " is not an expression of the symbolic input dims";
    IntRange r = rangeOfSymbolic(dims[i]);
    if (!r.exact())
      r.sym = dims[i];
    ranges.push_back(r);
  }
  FailureOr<Value> shape = n.create<ms::ShapeOfOp>(*x, start, end);
  if (failed(shape))
    return failure();
  n.setOutput(0, *shape);
  n.setOutputRanges(0, ranges);
  return success();
}

/// A Reshape to the shape a graph input holds: its value symbols are the result's dims once the
/// runtime resolved the input's values as ONNX says (0 copies the dim, -1 infers it; the manifest's
/// `reshape_of`), which the function records (ms::kReshapedValueSymbolsAttrName).
static LogicalResult importReshapeByValueInput(NodeImporter &n, Value x, unsigned input,
                                               ArrayRef<IntRange> requested,
                                               ArrayRef<AffineExpr> inDims, bool allowZero) {
  Operation *func = functionOf(n);
  MLIRContext *ctx = n.context();
  ms::SymbolicShapes shapes(func);
  for (AffineExpr e : inDims) {
    if (!e || usesValueSymbol(func, e))
      return n.unsupportedFeature()
             << "a Reshape to a graph input's values of " << n.inputType(0)
             << ", whose dims are not the input dims' expressions";
  }
  auto dims = AffineMapAttr::get(ms::symbolicShapeMap(ctx, shapes.numSymbols(), inDims));
  Builder b(ctx);
  auto entry = b.getDictionaryAttr({b.getNamedAttr("input", b.getI64IntegerAttr(input)),
                                    b.getNamedAttr("dims", dims),
                                    b.getNamedAttr("allowzero", b.getBoolAttr(allowZero))});
  SmallVector<Attribute> entries;
  if (auto old = func->getAttrOfType<ArrayAttr>(ms::kReshapedValueSymbolsAttrName))
    for (Attribute a : old) {
      auto d = cast<DictionaryAttr>(a);
      if (cast<IntegerAttr>(d.get("input")).getInt() == int64_t(input) && d != entry)
        return n.unsupportedFeature() << "a graph input that gives the shape of Reshapes of "
                                         "different tensors";
      entries.push_back(a);
    }
  if (!llvm::is_contained(entries, Attribute(entry)))
    entries.push_back(entry);
  func->setAttr(ms::kReshapedValueSymbolsAttrName, b.getArrayAttr(entries));
  SmallVector<AffineExpr> outDims;
  for (const IntRange &r : requested)
    outDims.push_back(r.sym);
  auto [shape, map] = ms::staticAndSymbolic(ctx, shapes.numSymbols(), outDims);
  return finish(n, n.create<ms::ReshapeOp>(x, shape, map));
}

LogicalResult mlir::mie::onnx_import::importReshapeOfSymbolicDims(NodeImporter &n) {
  std::optional<SmallVector<IntRange>> requested = n.inputRanges(1);
  if (!requested)
    return (void)n.requireKnown(1, "shape"), failure();
  bool allowZero = n.opset() >= 14 && n.getInt("allowzero", 0) != 0;
  FailureOr<Value> x = n.input(0);
  if (n.hasFailed() || failed(x))
    return failure();
  ms::SymbolicShapes shapes(functionOf(n));
  ArrayRef<AffineExpr> inDims = shapes.dims(*x);
  MLIRContext *ctx = n.context();
  if (std::optional<unsigned> input = wholeValueInput(functionOf(n), *requested))
    return importReshapeByValueInput(n, *x, *input, *requested, inDims, allowZero);
  SmallVector<AffineExpr> outDims;
  int64_t inferred = -1;
  for (auto [i, entry] : llvm::enumerate(*requested)) {
    AffineExpr e = entry.symbolic(ctx);
    auto c = dyn_cast_or_null<AffineConstantExpr>(e);
    if (c && c.getValue() == 0 && !allowZero) {
      if (i >= inDims.size())
        return n.error() << "shape entry " << i << " copies a dim that " << n.inputType(0)
                         << " does not have";
      e = inDims[i];
    } else if (c && c.getValue() == -1) {
      if (inferred >= 0)
        return n.error() << "shape has more than one -1";
      inferred = i;
    } else if (c && c.getValue() < 0) {
      return n.error() << "shape entry " << i << " is " << c.getValue() << ", below -1";
    }
    outDims.push_back(e);
  }
  auto product = [&](ArrayRef<AffineExpr> dims, int64_t skip) {
    AffineExpr p = getAffineConstantExpr(1, ctx);
    for (auto [i, e] : llvm::enumerate(dims))
      if ((int64_t)i != skip)
        p = p && e ? p * e : AffineExpr();
    return p;
  };
  if (inferred >= 0)
    outDims[inferred] = ms::divideExactly(product(inDims, -1), product(outDims, inferred));
  for (auto [i, e] : llvm::enumerate(outDims))
    if (!e)
      return n.unsupportedFeature() << "dim " << i << " of the reshaped " << n.inputType(0)
                                    << " is not an expression of the symbolic input dims";
  auto [shape, map] = ms::staticAndSymbolic(ctx, shapes.numSymbols(), outDims);
  return finish(n, n.create<ms::ReshapeOp>(*x, shape, map));
}

LogicalResult mlir::mie::onnx_import::importSliceOfSymbolicDims(NodeImporter &n) {
  // Starts, ends, axes and steps as elements: attributes before opset 10, inputs after.
  MLIRContext *ctx = n.context();
  auto exact = [](ArrayRef<int64_t> values) {
    SmallVector<IntRange> r;
    for (int64_t v : values)
      r.push_back({v, v});
    return r;
  };
  SmallVector<IntRange> parts[4];
  const char *names[] = {"starts", "ends", "axes", "steps"};
  for (unsigned i = 0; i < 4; ++i) {
    if (n.opset() < 10) {
      if (i < 3)
        if (std::optional<SmallVector<int64_t>> attr = n.getInts(names[i]))
          parts[i] = exact(*attr);
      continue;
    }
    if (!n.hasInput(i + 1))
      continue;
    std::optional<SmallVector<IntRange>> r = n.inputRanges(i + 1);
    if (!r)
      return (void)n.requireKnown(i + 1, names[i]), failure();
    parts[i] = std::move(*r);
  }
  FailureOr<Value> x = n.input(0);
  if (n.hasFailed() || failed(x))
    return failure();
  int64_t rank = n.inputType(0).getRank();
  size_t count = parts[0].size();
  if (parts[1].size() != count || (!parts[2].empty() && parts[2].size() != count) ||
      (!parts[3].empty() && parts[3].size() != count))
    return n.error() << "starts, ends, axes and steps must have the same length";
  ms::SymbolicShapes shapes(functionOf(n));
  SmallVector<AffineExpr> sizes(shapes.dims(*x));
  SmallVector<AffineExpr> starts(rank, getAffineConstantExpr(0, ctx));
  SmallVector<int64_t> steps(rank, 1);
  for (size_t i = 0; i < count; ++i) {
    int64_t axis = parts[2].empty() ? (int64_t)i : parts[2][i].lo;
    if (!parts[2].empty() && !parts[2][i].exact())
      return n.unsupportedFeature() << "axes computed at run time";
    axis = axis < 0 ? axis + rank : axis;
    if (axis < 0 || axis >= rank)
      return n.error() << "axis " << parts[2][i].lo << " is out of range for rank " << rank;
    if (!parts[3].empty() && !parts[3][i].exact())
      return n.unsupportedFeature() << "a step computed at run time on a slice sized by "
                                       "symbolic dims";
    int64_t step = parts[3].empty() ? 1 : parts[3][i].lo;
    if (step == 0)
      return n.error() << "steps must be non-zero";
    AffineExpr dim = sizes[axis];
    IntRange start = parts[0][i], end = parts[1][i];
    if (!dim)
      return n.unsupportedFeature() << "a slice of dim " << axis << " of " << n.inputType(0)
                                    << ", which is not an expression of the symbolic dims";
    // A static dim of a tensor with symbolic ones (Swin's patch merging, x[:, 0::2]): clamped as
    // the static path does, any step.
    auto staticExtent = dyn_cast<AffineConstantExpr>(dim);
    if (staticExtent && start.exact() && end.exact()) {
      SliceDim d = normalizeSliceDim(staticExtent.getValue(), start.lo, end.lo, step);
      starts[axis] = getAffineConstantExpr(d.start, ctx);
      sizes[axis] = getAffineConstantExpr(d.size, ctx);
      steps[axis] = d.step;
      continue;
    }
    if (step < 0)
      return n.unsupportedFeature() << "a negative step on the symbolic dim " << axis;
    steps[axis] = step;
    // A start: a constant >= 0 (clamped to a static dim), a negative constant counting from the
    // dim's end, or an expression of the symbols (the last token, a cache's window). The last
    // two are taken as within the dim, as the model needs them to be for its other ops to fit;
    // ms-specialize-dims checks that they are for the sizes it is given.
    auto staticDim = dyn_cast<AffineConstantExpr>(dim);
    AffineExpr first;
    if (start.exact() && start.lo >= 0)
      first = getAffineConstantExpr(staticDim ? std::min(start.lo, staticDim.getValue()) : start.lo,
                                    ctx);
    else if (start.exact() && staticDim)
      first = getAffineConstantExpr(std::max<int64_t>(0, staticDim.getValue() + start.lo), ctx);
    else if (start.exact() && start.lo > std::numeric_limits<int32_t>::min())
      first = dim + start.lo;
    else if (start.sym)
      first = start.sym;
    if (!first)
      return n.unsupportedFeature() << "a slice of dim " << axis << " of " << n.inputType(0)
                                    << " from a start that is neither a constant nor an "
                                       "expression of the symbolic dims";
    // An end past any size takes the whole dim; a negative one counts from its end; a symbolic
    // one is taken as within the dim, as a symbolic start is.
    AffineExpr stop;
    if (end.exact() && end.lo >= std::numeric_limits<int32_t>::max())
      stop = dim;
    else if (end.exact() && end.lo < 0)
      stop = dim + end.lo;
    else if (end.sym)
      stop = end.sym;
    else if (end.exact() && staticDim)
      stop = getAffineConstantExpr(std::min(end.lo, staticDim.getValue()), ctx);
    if (!stop)
      return n.unsupportedFeature() << "a constant end " << end.lo << " on the symbolic dim "
                                    << axis << " (it may be past the dim's run-time size)";
    starts[axis] = simplifyAffineExpr(first, 0, shapes.numSymbols());
    sizes[axis] = simplifyAffineExpr((stop - first).ceilDiv(step), 0, shapes.numSymbols());
    if (auto c = dyn_cast<AffineConstantExpr>(sizes[axis]); c && c.getValue() < 0)
      sizes[axis] = getAffineConstantExpr(0, ctx); // an empty slice, as ONNX clamps it
  }
  if (llvm::any_of(sizes, [](AffineExpr e) { return !e; }))
    return n.unsupportedFeature() << "a slice of " << n.inputType(0)
                                  << ", whose dims are not all expressions of the symbolic dims";
  auto [staticSizes, map] = ms::staticAndSymbolic(ctx, shapes.numSymbols(), sizes);
  auto [staticStarts, startsMap] = ms::staticAndSymbolic(ctx, shapes.numSymbols(), starts);
  return finish(n, n.create<ms::SliceOp>(*x, n.builder().getDenseI64ArrayAttr(staticStarts),
                                         n.builder().getDenseI64ArrayAttr(staticSizes),
                                         n.builder().getDenseI64ArrayAttr(steps), map, startsMap));
}

LogicalResult mlir::mie::onnx_import::importExpandOfSymbolicDims(NodeImporter &n) {
  std::optional<SmallVector<IntRange>> target = n.inputRanges(1);
  if (!target)
    return (void)n.requireKnown(1, "shape"), failure();
  FailureOr<Value> x = n.input(0);
  if (failed(x))
    return failure();
  MLIRContext *ctx = n.context();
  ms::SymbolicShapes shapes(functionOf(n));
  ArrayRef<AffineExpr> in = shapes.dims(*x);
  size_t rank = std::max(in.size(), target->size());
  AffineExpr one = getAffineConstantExpr(1, ctx);
  SmallVector<AffineExpr> out(rank);
  // Numpy broadcasting on expressions: 1 takes the other side, equal sides stay; a symbolic dim
  // against another size could be 1 at run time, which is not an expression.
  for (size_t i = 0; i < rank; ++i) {
    int64_t a = (int64_t)i - (int64_t)(rank - in.size());
    int64_t b = (int64_t)i - (int64_t)(rank - target->size());
    AffineExpr e = a >= 0 ? in[a] : one;
    AffineExpr t = b >= 0 ? (*target)[b].symbolic(ctx) : one;
    if (!e || !t)
      return n.unsupportedFeature() << "dim " << i
                                    << " of the expanded shape is not an expression of the "
                                       "symbolic dims";
    auto tc = dyn_cast<AffineConstantExpr>(t);
    if (tc && tc.getValue() < 0)
      return n.error() << "shape entry " << b << " is " << tc.getValue() << ", below 0";
    auto te = dyn_cast<AffineSymbolExpr>(t);
    auto ec = dyn_cast<AffineConstantExpr>(e);
    if (t == one || t == e) {
      out[i] = e;
    } else if (e == one) {
      out[i] = t;
    } else if (te && ec && valueSymbolSource(functionOf(n), te.getPosition())) {
      // A graph input's value against a size: 1 means that size (the runtime resolves the
      // symbol so, ms::kBroadcastValueSymbolsAttrName), any other value must be it.
      if (failed(broadcastValueSymbol(functionOf(n), te.getPosition(), ec.getValue())))
        return n.unsupportedFeature() << "a graph input's value broadcast against two sizes";
      out[i] = t;
    } else {
      std::string from, to;
      llvm::raw_string_ostream(from) << e;
      llvm::raw_string_ostream(to) << t;
      return n.unsupportedFeature() << "dim " << i << " expands " << from << " to " << to
                                    << ", which the symbols alone do not decide";
    }
  }
  if (ArrayRef<AffineExpr>(out) == in) {
    n.forwardInput(0, 0);
    return success();
  }
  auto [shape, map] = ms::staticAndSymbolic(ctx, shapes.numSymbols(), out);
  return finish(n, n.create<ms::ExpandOp>(*x, n.builder().getDenseI64ArrayAttr(shape), map));
}

FailureOr<SmallVector<int64_t>>
mlir::mie::onnx_import::sizesKeepingSymbolicDims(NodeImporter &n, unsigned i,
                                                 ArrayRef<int64_t> axes) {
  std::optional<SmallVector<IntRange>> ranges = n.inputRanges(i);
  if (!ranges)
    return (void)n.requireKnown(i, "sizes"), failure();
  if (ranges->size() != axes.size())
    return n.error() << "expects " << axes.size() << " sizes, got " << ranges->size();
  FailureOr<Value> x = n.input(0);
  if (failed(x))
    return failure();
  ms::SymbolicShapes shapes(functionOf(n));
  ArrayRef<AffineExpr> in = shapes.dims(*x);
  SmallVector<int64_t> sizes;
  for (auto [k, axis] : llvm::enumerate(axes)) {
    const IntRange &r = (*ranges)[k];
    if (r.exact()) {
      sizes.push_back(r.lo);
      continue;
    }
    // Another symbolic size would need a kernel whose output extent is not its input's.
    if (!r.sym || r.sym != in[axis]) {
      std::string given = r.sym ? "'" + shapes.format(r.sym) + "'"
                                : "a run-time value in [" + std::to_string(r.lo) + ", " +
                                      std::to_string(r.hi) + "]";
      return n.unsupportedFeature()
             << "size " << k << " (dim " << axis << ") is " << given
             << ", not a constant or the input's own dim ('" << shapes.format(in[axis])
             << "'): resizing to a run-time extent has no code for every "
                "shape yet (size the symbols: --input-shape)";
    }
    sizes.push_back(ShapedType::kDynamic);
  }
  return sizes;
}

LogicalResult mlir::mie::onnx_import::importRangeOfSymbolicDims(NodeImporter &n) {
  MLIRContext *ctx = n.context();
  AffineExpr bounds[3];
  const char *names[] = {"start", "limit", "delta"};
  Type elementType = n.inputType(0).getElementType();
  // A float Range over whole numbers (a window's length cast to float, counted from 0.0 by 1.0,
  // as the window ops' function bodies do) is an integer range cast to the float type: exact.
  auto type = dyn_cast<IntegerType>(elementType);
  if (!type)
    type = n.builder().getI64Type();
  for (unsigned i = 0; i < 3; ++i) {
    std::optional<SmallVector<IntRange>> r = n.inputRanges(i);
    const KnownTensor *known = n.known(i);
    if (!r && known && known->isFloat() && known->numElements() == 1) {
      double v = known->valueAt(0);
      if (v == std::trunc(v) && std::abs(v) <= double(int64_t(1) << 52))
        r = SmallVector<IntRange>{IntRange{int64_t(v), int64_t(v)}};
    }
    if (!r) {
      if (failed(n.requireKnown(i, names[i])))
        return failure();
      return n.unsupportedFeature()
             << "a Range of " << elementType << " whose " << names[i] << " is not a whole number";
    }
    if (r->size() != 1)
      return n.error() << names[i] << " must be a scalar, got " << n.inputType(i);
    bounds[i] = (*r)[0].symbolic(ctx);
    if (!bounds[i])
      return n.unsupportedFeature() << "a Range whose " << names[i]
                                    << " is neither a constant nor an expression of the "
                                       "symbolic dims";
  }
  auto delta = dyn_cast<AffineConstantExpr>(bounds[2]);
  if (!delta)
    return usesValueSymbol(functionOf(n), bounds[2])
               ? ((void)n.requireKnown(2, "delta"), failure())
               : (n.unsupportedFeature()
                  << "a Range whose delta is an expression of the symbolic dims");
  if (delta.getValue() == 0)
    return n.error() << "delta must not be zero";
  // ceil((limit - start) / delta) elements; a negative count is an error once the symbols are
  // sized (ONNX would make it empty), as a bound the symbols alone do not decide.
  int64_t step = delta.getValue();
  AffineExpr span = step > 0 ? bounds[1] - bounds[0] : bounds[0] - bounds[1];
  unsigned numSymbols = ms::SymbolicShapes(functionOf(n)).numSymbols();
  AffineExpr count = simplifyAffineExpr(span.ceilDiv(step > 0 ? step : -step), 0, numSymbols);
  AffineExpr start = simplifyAffineExpr(bounds[0], 0, numSymbols);
  auto staticCount = dyn_cast<AffineConstantExpr>(count);
  if (staticCount && staticCount.getValue() < 0)
    count = getAffineConstantExpr(0, ctx);
  auto resultType = RankedTensorType::get(
      {staticCount ? std::max<int64_t>(0, staticCount.getValue()) : ShapedType::kDynamic}, type);
  AffineMap map = ms::symbolicShapeMap(ctx, numSymbols, {start, count});
  Value range = ms::RangeOp::create(n.builder(), n.loc(), resultType, AffineMapAttr::get(map),
                                    n.builder().getI64IntegerAttr(step));
  if (elementType != type)
    range = ms::CastOp::create(n.builder(), n.loc(), resultType.clone(elementType), range);
  n.setOutput(0, range);
  return success();
}

LogicalResult mlir::mie::onnx_import::importConstantOfShapeOfSymbolicDims(NodeImporter &n) {
  std::optional<SmallVector<IntRange>> ranges = n.inputRanges(0);
  if (!ranges)
    return (void)n.requireKnown(0, "shape"), failure();
  MLIRContext *ctx = n.context();
  SmallVector<AffineExpr> dims;
  for (auto [i, r] : llvm::enumerate(*ranges)) {
    dims.push_back(r.symbolic(ctx));
    if (!dims.back())
      return n.unsupportedFeature()
             << "shape entry " << i << " is not an expression of the symbolic dims";
    if (auto c = dyn_cast<AffineConstantExpr>(dims.back()); c && c.getValue() < 0)
      return n.error() << "shape entry " << i << " is " << c.getValue() << ", below 0";
  }
  KnownTensor value = KnownTensor::fromFloats({}, n.builder().getF32Type(), {0.0});
  if (n.hasAttr("value")) {
    OnnxTensor *tensor = n.getTensor("value");
    if (!tensor)
      return failure();
    if (!tensor->known || tensor->type.getNumElements() != 1)
      return n.error() << "'value' must hold one element, got " << tensor->type;
    value = *tensor->known;
  }
  // The value as one element of the result's rank, broadcast to the symbolic shape: the
  // expand is what ms-specialize-dims sizes.
  value.type =
      RankedTensorType::get(SmallVector<int64_t>(dims.size(), 1), value.type.getElementType());
  value.splat = false;
  FailureOr<Value> element = n.create<ms::ConstantOp>(cast<ElementsAttr>(value.toAttr()));
  if (failed(element))
    return failure();
  auto [shape, map] =
      ms::staticAndSymbolic(ctx, ms::SymbolicShapes(functionOf(n)).numSymbols(), dims);
  return finish(n, n.create<ms::ExpandOp>(*element, n.builder().getDenseI64ArrayAttr(shape), map));
}

LogicalResult mlir::mie::onnx_import::importTileOfSymbolicDims(NodeImporter &n) {
  std::optional<SmallVector<IntRange>> repeats = n.inputRanges(1);
  if (!repeats)
    return (void)n.requireKnown(1, "repeats"), failure();
  FailureOr<Value> x = n.input(0);
  if (failed(x))
    return failure();
  MLIRContext *ctx = n.context();
  ms::SymbolicShapes shapes(functionOf(n));
  ArrayRef<AffineExpr> in = shapes.dims(*x);
  if (repeats->size() != in.size())
    return n.error() << "repeats must have one entry per dim of " << n.inputType(0) << ", got "
                     << repeats->size();
  // Tile is a broadcast of a copy axis before each dim, merged into it: [d0, d1] -> [1, d0, 1,
  // d1] -> [r0, d0, r1, d1] -> [r0 * d0, r1 * d1] (the copy index is the outer one).
  SmallVector<int64_t> axes;
  SmallVector<AffineExpr> expanded, tiled;
  for (auto [i, d] : llvm::enumerate(in)) {
    AffineExpr r = (*repeats)[i].symbolic(ctx);
    if (!r || !d)
      return n.unsupportedFeature() << "dim " << i
                                    << " of the tiled shape is not an expression of the "
                                       "symbolic dims";
    if (auto c = dyn_cast<AffineConstantExpr>(r); c && c.getValue() < 0)
      return n.error() << "repeats entry " << i << " is " << c.getValue() << ", below 0";
    axes.push_back(2 * i);
    expanded.append({r, d});
    tiled.push_back(r * d);
  }
  if (ArrayRef<AffineExpr>(tiled) == in) { // every repeat 1
    n.forwardInput(0, 0);
    return success();
  }
  FailureOr<Value> spread = n.create<ms::UnsqueezeOp>(*x, ArrayRef<int64_t>(axes));
  if (failed(spread))
    return failure();
  auto [expandShape, expandMap] = ms::staticAndSymbolic(ctx, shapes.numSymbols(), expanded);
  FailureOr<Value> copies =
      n.create<ms::ExpandOp>(*spread, n.builder().getDenseI64ArrayAttr(expandShape), expandMap);
  if (failed(copies))
    return failure();
  auto [shape, map] = ms::staticAndSymbolic(ctx, shapes.numSymbols(), tiled);
  return finish(n, n.create<ms::ReshapeOp>(*copies, shape, map));
}

LogicalResult mlir::mie::onnx_import::importPadOfSymbolicDims(NodeImporter &n) {
  std::string modeName = n.getString("mode", "constant");
  std::optional<ms::PadMode> mode = ms::symbolizePadMode(modeName);
  if (n.hasFailed())
    return failure();
  if (!mode)
    return n.unsupportedFeature() << "mode '" << modeName << "' with pads computed from "
                                  << "symbolic dims";
  double value = 0.0;
  if (n.hasInput(2)) {
    FailureOr<const KnownTensor *> constant = n.requireKnown(2, "constant_value");
    if (failed(constant))
      return failure();
    if ((*constant)->numElements() != 1)
      return n.error() << "constant_value must be a scalar, got " << (*constant)->type;
    value = (*constant)->valueAt(0);
  }
  std::optional<SmallVector<IntRange>> ranges = n.inputRanges(1);
  if (!ranges)
    return (void)n.requireKnown(1, "pads"), failure();
  MLIRContext *ctx = n.context();
  int64_t rank = n.inputType(0).getRank();
  SmallVector<AffineExpr> given;
  for (auto [i, r] : llvm::enumerate(*ranges)) {
    given.push_back(r.symbolic(ctx));
    if (!given.back())
      return n.unsupportedFeature() << "pads entry " << i
                                    << " is neither a constant nor an expression of the "
                                       "symbolic dims";
  }
  // Optional axes (opset 18): the amounts of the listed axes, 0 for the others.
  SmallVector<int64_t> axes;
  if (n.hasInput(3)) {
    const KnownTensor *known = n.known(3);
    if (!known)
      return (void)n.requireKnown(3, "axes"), failure();
    FailureOr<SmallVector<int64_t>> normalized = normalizeAxes(n, known->toInts(), rank);
    if (failed(normalized))
      return failure();
    axes = std::move(*normalized);
  } else {
    for (int64_t d = 0; d < rank; ++d)
      axes.push_back(d);
  }
  if (given.size() != 2 * axes.size())
    return n.error() << "pads must have 2 entries per padded axis (" << axes.size() << "), got "
                     << given.size();
  SmallVector<AffineExpr> pads(2 * rank, getAffineConstantExpr(0, ctx));
  for (auto [i, d] : llvm::enumerate(axes)) {
    pads[d] = given[i];
    pads[d + rank] = given[i + axes.size()];
  }
  FailureOr<Value> x = n.input(0);
  if (failed(x))
    return failure();
  auto [staticPads, map] =
      ms::staticAndSymbolic(ctx, ms::SymbolicShapes(functionOf(n)).numSymbols(), pads);
  return finish(n,
                n.create<ms::PadOp>(*x, ArrayRef<int64_t>(staticPads), *mode, APFloat(value), map));
}
