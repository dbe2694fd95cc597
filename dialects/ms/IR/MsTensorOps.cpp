//===- MsTensorOps.cpp - constants and shape/data movement ops ------------===//

#include "dialects/ms/IR/MsConstantFold.h"
#include "dialects/ms/IR/MsOps.h"
#include "dialects/ms/IR/MsShapeUtils.h"

#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CheckedArithmetic.h"

#include <numeric>

using namespace mlir;
using namespace mlir::ms;

static RankedTensorType tensorType(Value v) { return cast<RankedTensorType>(v.getType()); }

/// Same elements, new shape: works for dense and for resource-backed constants (the blob is
/// row-major bytes, so only the type changes).
static Attribute reshapeConstant(Attribute attr, Type resultType) {
  auto shaped = cast<ShapedType>(resultType);
  if (auto dense = dyn_cast_if_present<DenseElementsAttr>(attr))
    return dense.reshape(shaped);
  if (auto resource = dyn_cast_if_present<DenseResourceElementsAttr>(attr))
    return DenseResourceElementsAttr::get(shaped, resource.getRawHandle());
  return {};
}

/// Folds a pure shape change: identity when the type does not change, a reshaped constant when the
/// input is one.
static OpFoldResult foldShapeChange(Value input, Attribute inputAttr, Type resultType) {
  if (input.getType() == resultType)
    return input;
  return reshapeConstant(inputAttr, resultType);
}

//===----------------------------------------------------------------------===//
// ConstantOp
//===----------------------------------------------------------------------===//

LogicalResult ConstantOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                           Adaptor adaptor, SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  auto type = dyn_cast<RankedTensorType>(adaptor.getValue().getType());
  if (!type)
    return diag.error("expects a ranked tensor value, got ", adaptor.getValue().getType());
  results.push_back(type);
  return success();
}

LogicalResult ConstantOp::verify() {
  SmallVector<Type> inferred;
  if (failed(inferReturnTypes(getContext(), getLoc(), Adaptor(*this), inferred)))
    return failure();
  // A resource constant must carry exactly the bytes its type needs, or lowering would read past
  // it.
  auto resource = dyn_cast<DenseResourceElementsAttr>(getValue());
  if (!resource)
    return success();
  AsmResourceBlob *blob = resource.getRawHandle().getBlob();
  if (!blob)
    return success(); // Not loaded yet (e.g. lazily parsed); checked when the data is used.
  RankedTensorType type = getType();
  int64_t bits = type.getElementTypeBitWidth();
  // Elements narrower than a byte (i1, i4, f4E2M1FN, i2) take a byte each.
  int64_t expected = type.getNumElements() * ((bits + 7) / 8);
  if (static_cast<int64_t>(blob->getData().size()) != expected)
    return emitOpError("expects resource '")
           << resource.getRawHandle().getKey() << "' to hold " << expected << " bytes for " << type
           << ", got " << blob->getData().size();
  return success();
}

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

//===----------------------------------------------------------------------===//
// Reshape, flatten, squeeze, unsqueeze
//===----------------------------------------------------------------------===//

/// Sizes given as expressions of the function's symbols (`symbolic`, a map with no dims): one
/// per entry of `sizes`, which is `?` exactly where the expression is not a constant and that
/// constant elsewhere.
static LogicalResult checkSymbolicSizes(const InferDiag &diag, StringRef sizesName,
                                        ArrayRef<int64_t> sizes, StringRef mapName,
                                        AffineMapAttr symbolic) {
  AffineMap map = symbolic.getValue();
  if (map.getNumDims() != 0 || map.getNumResults() != sizes.size())
    return diag.error("expects '", mapName, "' to have no dims and one result per '", sizesName,
                      "' entry (", sizes.size(), "), got ", symbolic);
  for (auto [i, expr] : llvm::enumerate(map.getResults())) {
    auto constant = dyn_cast<AffineConstantExpr>(expr);
    if (constant ? constant.getValue() != sizes[i] : !ShapedType::isDynamic(sizes[i]))
      return diag.error("expects '", sizesName, "' entry ", i, " to be ",
                        constant ? std::to_string(constant.getValue()) : std::string("?"), " as '",
                        mapName, "' says, got ", sizes[i]);
  }
  return success();
}

LogicalResult ReshapeOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                          Adaptor adaptor, SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  RankedTensorType input = tensorType(adaptor.getInput());
  ArrayRef<int64_t> shape = adaptor.getShape();
  if (AffineMapAttr symbolic = adaptor.getSymbolicShapeAttr()) {
    if (failed(checkSymbolicSizes(diag, "shape", shape, "symbolic_shape", symbolic)))
      return failure();
    SmallVector<int64_t> staticDims;
    for (int64_t d : shape)
      if (!ShapedType::isDynamic(d))
        staticDims.push_back(d);
    if (failed(checkArrayMin(diag, "shape", staticDims, 0)))
      return failure();
    results.push_back(RankedTensorType::get(shape, input.getElementType()));
    return success();
  }
  if (failed(checkArrayMin(diag, "shape", shape, 0)))
    return failure();
  int64_t in = shapeProduct(input.getShape()), out = shapeProduct(shape);
  if (!ShapedType::isDynamic(in) && in != out)
    return diag.error("cannot reshape ", input, " (", in, " elements) to ", shapeToString(shape),
                      " (", out, " elements)");
  results.push_back(RankedTensorType::get(shape, input.getElementType()));
  return success();
}

OpFoldResult ReshapeOp::fold(FoldAdaptor adaptor) {
  // reshape(reshape(x)) == reshape(x): update the operand in place.
  if (auto producer = getInput().getDefiningOp<ReshapeOp>()) {
    getInputMutable().assign(producer.getInput());
    return getResult();
  }
  return foldShapeChange(getInput(), adaptor.getInput(), getType());
}

LogicalResult FlattenOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                          Adaptor adaptor, SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  RankedTensorType input = tensorType(adaptor.getInput());
  int64_t rank = input.getRank(), axis = adaptor.getAxis();
  if (axis < -rank || axis > rank)
    return diag.error("axis ", axis, " is out of range for rank ", rank, " (expected [", -rank,
                      ", ", rank, "])");
  if (axis < 0)
    axis += rank;
  ArrayRef<int64_t> shape = input.getShape();
  results.push_back(RankedTensorType::get(
      {shapeProduct(shape.take_front(axis)), shapeProduct(shape.drop_front(axis))},
      input.getElementType()));
  return success();
}

OpFoldResult FlattenOp::fold(FoldAdaptor adaptor) {
  return foldShapeChange(getInput(), adaptor.getInput(), getType());
}

LogicalResult SqueezeOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                          Adaptor adaptor, SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  RankedTensorType input = tensorType(adaptor.getInput());
  FailureOr<SmallVector<int64_t>> axes = normalizeAxes(diag, adaptor.getAxes(), input.getRank());
  if (failed(axes))
    return failure();
  SmallVector<int64_t> shape;
  for (auto [i, dim] : llvm::enumerate(input.getShape())) {
    bool listed = llvm::is_contained(*axes, (int64_t)i);
    if (listed && dim != 1)
      return diag.error("cannot squeeze dim ", i, " of size ", shapeToString({dim}), " in ", input);
    if (listed || (axes->empty() && dim == 1))
      continue;
    shape.push_back(dim);
  }
  results.push_back(RankedTensorType::get(shape, input.getElementType()));
  return success();
}

OpFoldResult SqueezeOp::fold(FoldAdaptor adaptor) {
  return foldShapeChange(getInput(), adaptor.getInput(), getType());
}

LogicalResult UnsqueezeOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                            Adaptor adaptor, SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  RankedTensorType input = tensorType(adaptor.getInput());
  int64_t rank = input.getRank() + adaptor.getAxes().size();
  FailureOr<SmallVector<int64_t>> axes = normalizeAxes(diag, adaptor.getAxes(), rank);
  if (failed(axes))
    return failure();
  SmallVector<int64_t> shape;
  auto next = input.getShape().begin();
  for (int64_t i = 0; i < rank; ++i)
    shape.push_back(llvm::is_contained(*axes, i) ? 1 : *next++);
  results.push_back(RankedTensorType::get(shape, input.getElementType()));
  return success();
}

OpFoldResult UnsqueezeOp::fold(FoldAdaptor adaptor) {
  return foldShapeChange(getInput(), adaptor.getInput(), getType());
}

//===----------------------------------------------------------------------===//
// TransposeOp
//===----------------------------------------------------------------------===//

LogicalResult TransposeOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                            Adaptor adaptor, SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  RankedTensorType input = tensorType(adaptor.getInput());
  ArrayRef<int64_t> perms = adaptor.getPerms();
  if (failed(checkArraySize(diag, "perms", perms, input.getRank())))
    return failure();
  SmallVector<bool> seen(perms.size(), false);
  SmallVector<int64_t> shape;
  for (int64_t p : perms) {
    if (p < 0 || p >= (int64_t)perms.size() || seen[p])
      return diag.error("expects 'perms' to be a permutation of [0, ", perms.size(), "), got [",
                        llvm::make_range(perms.begin(), perms.end()), "]");
    seen[p] = true;
    shape.push_back(input.getDimSize(p));
  }
  results.push_back(RankedTensorType::get(shape, input.getElementType()));
  return success();
}

OpFoldResult TransposeOp::fold(FoldAdaptor adaptor) {
  ArrayRef<int64_t> perms = getPerms();
  if (llvm::equal(perms, llvm::seq<int64_t>(0, perms.size())))
    return getInput();
  if (getDenseConstant(adaptor.getInput())) {
    // Result dim d walks input dim perms[d].
    SmallVector<int64_t> inStrides = rowMajorStrides(getInput().getType().getShape());
    ArrayRef<int64_t> outShape = getType().getShape();
    SmallVector<int64_t> outStrides = rowMajorStrides(outShape);
    return foldGather({adaptor.getInput()}, getType(), [&](int64_t i) {
      int64_t from = 0;
      for (size_t d = 0; d < outShape.size(); ++d)
        from += ((i / outStrides[d]) % outShape[d]) * inStrides[perms[d]];
      return std::make_pair(0u, from);
    });
  }
  // transpose(transpose(x, p), q) == transpose(x, p o q): compose in place.
  if (auto producer = getInput().getDefiningOp<TransposeOp>()) {
    ArrayRef<int64_t> inner = producer.getPerms();
    SmallVector<int64_t> composed;
    for (int64_t p : perms)
      composed.push_back(inner[p]);
    if (llvm::equal(composed, llvm::seq<int64_t>(0, composed.size())) &&
        producer.getInput().getType() == getType())
      return producer.getInput();
    // Both nodes are computed here now: the location names them, in graph order.
    (*this)->setLoc(FusedLoc::get(getContext(), {producer.getLoc(), getLoc()}));
    getInputMutable().assign(producer.getInput());
    setPerms(composed);
    return getResult();
  }
  return {};
}

//===----------------------------------------------------------------------===//
// Concat and split
//===----------------------------------------------------------------------===//

LogicalResult ConcatOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                         Adaptor adaptor, SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  ValueRange inputs = adaptor.getInputs();
  if (inputs.empty())
    return diag.error("expects at least one input");
  RankedTensorType first = tensorType(inputs.front());
  FailureOr<int64_t> axis = normalizeAxis(diag, adaptor.getAxis(), first.getRank());
  if (failed(axis))
    return failure();
  SmallVector<int64_t> shape(first.getShape());
  for (auto [index, value] : llvm::enumerate(inputs.drop_front())) {
    RankedTensorType type = tensorType(value);
    if (type.getRank() != first.getRank() || type.getElementType() != first.getElementType())
      return diag.error("expects input ", index + 1, " to have rank ", first.getRank(),
                        " and element type ", first.getElementType(), ", got ", type);
    for (int64_t d = 0; d < first.getRank(); ++d) {
      int64_t size = type.getDimSize(d);
      if (d == *axis) {
        shape[d] = ShapedType::isDynamic(shape[d]) || ShapedType::isDynamic(size)
                       ? ShapedType::kDynamic
                       : shape[d] + size;
      } else if (!ShapedType::isDynamic(size) && !ShapedType::isDynamic(shape[d]) &&
                 size != shape[d]) {
        return diag.error("expects input ", index + 1, " to match dim ", d, " (", shape[d],
                          "), got ", type);
      }
    }
  }
  results.push_back(RankedTensorType::get(shape, first.getElementType()));
  return success();
}

OpFoldResult ConcatOp::fold(FoldAdaptor adaptor) {
  if (getInputs().size() == 1 && getInputs().front().getType() == getType())
    return getInputs().front();
  if (!llvm::all_of(adaptor.getInputs(), [](Attribute a) { return getDenseConstant(a); }))
    return {};
  // Each outer index (the dims before the axis) takes one slab from every input in turn.
  RankedTensorType type = getType();
  int64_t axis = positiveAxis(getAxis(), type.getRank());
  int64_t inner = 1;
  for (int64_t d = axis + 1; d < type.getRank(); ++d)
    inner *= type.getDimSize(d);
  SmallVector<std::pair<unsigned, int64_t>> slabs; // (input, slab size) along the result's axis
  for (auto [k, v] : llvm::enumerate(getInputs()))
    slabs.push_back({(unsigned)k, tensorType(v).getDimSize(axis) * inner});
  int64_t outerSize = type.getDimSize(axis) * inner;
  return foldGather(adaptor.getInputs(), type, [&](int64_t i) {
    int64_t outer = i / std::max<int64_t>(outerSize, 1), within = i % std::max<int64_t>(outerSize, 1);
    for (auto [k, size] : slabs) {
      if (within < size)
        return std::make_pair(k, outer * size + within);
      within -= size;
    }
    return std::make_pair(~0u, int64_t(0));
  });
}

LogicalResult SplitOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
                                        SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  RankedTensorType input = tensorType(adaptor.getInput());
  FailureOr<int64_t> axis = normalizeAxis(diag, adaptor.getAxis(), input.getRank());
  if (failed(axis))
    return failure();
  ArrayRef<int64_t> sizes = adaptor.getSizes();
  if (sizes.empty())
    return diag.error("expects at least one entry in 'sizes'");
  if (failed(checkArrayMin(diag, "sizes", sizes, 0)))
    return failure();
  int64_t total = std::accumulate(sizes.begin(), sizes.end(), int64_t(0));
  int64_t dim = input.getDimSize(*axis);
  if (!ShapedType::isDynamic(dim) && total != dim)
    return diag.error("expects 'sizes' to add up to dim ", *axis, " (", dim, "), got ", total);
  for (int64_t size : sizes) {
    SmallVector<int64_t> shape(input.getShape());
    shape[*axis] = size;
    results.push_back(RankedTensorType::get(shape, input.getElementType()));
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Slice and gather
//===----------------------------------------------------------------------===//

LogicalResult SliceOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
                                        SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  RankedTensorType input = tensorType(adaptor.getInput());
  ArrayRef<int64_t> starts = adaptor.getStarts(), sizes = adaptor.getSizes(),
                    steps = adaptor.getSteps();
  size_t rank = input.getRank();
  if (failed(checkArraySize(diag, "starts", starts, rank)) ||
      failed(checkArraySize(diag, "sizes", sizes, rank)) ||
      failed(checkArraySize(diag, "steps", steps, rank)))
    return failure();
  if (AffineMapAttr symbolic = adaptor.getSymbolicSizesAttr()) {
    if (failed(checkSymbolicSizes(diag, "sizes", sizes, "symbolic_sizes", symbolic)))
      return failure();
  } else if (failed(checkArrayMin(diag, "sizes", sizes, 0))) {
    return failure();
  }
  if (AffineMapAttr symbolic = adaptor.getSymbolicStartsAttr())
    if (failed(checkSymbolicSizes(diag, "starts", starts, "symbolic_starts", symbolic)))
      return failure();
  for (size_t d = 0; d < rank; ++d) {
    if (steps[d] == 0)
      return diag.error("expects non-zero steps, got 0 for dim ", d);
    int64_t dim = input.getDimSize(d);
    // A symbolic start (`?`) is checked against the dim once ms-specialize-dims sizes both.
    if (sizes[d] == 0 || ShapedType::isDynamic(dim) || ShapedType::isDynamic(sizes[d]) ||
        (adaptor.getSymbolicStartsAttr() && ShapedType::isDynamic(starts[d])))
      continue;
    int64_t last = starts[d] + (sizes[d] - 1) * steps[d];
    if (starts[d] < 0 || starts[d] >= dim || last < 0 || last >= dim)
      return diag.error("slice of dim ", d, " (size ", dim, ") from ", starts[d], " with ",
                        sizes[d], " elements of step ", steps[d], " is out of bounds");
  }
  results.push_back(RankedTensorType::get(sizes, input.getElementType()));
  return success();
}

OpFoldResult SliceOp::fold(FoldAdaptor adaptor) {
  if (getInput().getType() == getType() &&
      llvm::all_of(getStarts(), [](int64_t s) { return s == 0; }) &&
      llvm::all_of(getSteps(), [](int64_t s) { return s == 1; }))
    return getInput();
  if (!getDenseConstant(adaptor.getInput()))
    return {};
  ArrayRef<int64_t> starts = getStarts(), sizes = getSizes(), steps = getSteps();
  SmallVector<int64_t> inStrides = rowMajorStrides(getInput().getType().getShape());
  SmallVector<int64_t> outStrides = rowMajorStrides(sizes);
  return foldGather({adaptor.getInput()}, getType(), [&](int64_t i) {
    int64_t from = 0;
    for (size_t d = 0; d < sizes.size(); ++d)
      from += (starts[d] + ((i / outStrides[d]) % sizes[d]) * steps[d]) * inStrides[d];
    return std::make_pair(0u, from);
  });
}

OpFoldResult GatherOp::fold(FoldAdaptor adaptor) {
  DenseElementsAttr indices = getDenseConstant(adaptor.getIndices());
  if (!indices || !getDenseConstant(adaptor.getData()))
    return {};
  RankedTensorType data = getData().getType();
  int64_t axis = positiveAxis(getAxis(), data.getRank());
  int64_t dim = data.getDimSize(axis), inner = 1;
  for (int64_t d = axis + 1; d < data.getRank(); ++d)
    inner *= data.getDimSize(d);
  SmallVector<int64_t> idx;
  for (const APInt &v : indices.getValues<APInt>()) {
    int64_t at = v.getSExtValue();
    if (at < -dim || at >= dim)
      return {}; // out of range: left to the generated code's diagnostics
    idx.push_back(at < 0 ? at + dim : at);
  }
  int64_t count = std::max<int64_t>(idx.size(), 1);
  return foldGather({adaptor.getData()}, getType(), [&](int64_t i) {
    int64_t in = i % inner, rest = i / inner;
    int64_t at = idx.empty() ? -1 : idx[rest % count], outer = rest / count;
    return std::make_pair(0u, at < 0 ? -1 : (outer * dim + at) * inner + in);
  });
}

LogicalResult GatherOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                         Adaptor adaptor, SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  RankedTensorType data = tensorType(adaptor.getData());
  RankedTensorType indices = tensorType(adaptor.getIndices());
  if (data.getRank() == 0)
    return diag.error("expects data of rank >= 1, got ", data);
  FailureOr<int64_t> axis = normalizeAxis(diag, adaptor.getAxis(), data.getRank());
  if (failed(axis))
    return failure();
  SmallVector<int64_t> shape(data.getShape().take_front(*axis));
  llvm::append_range(shape, indices.getShape());
  llvm::append_range(shape, data.getShape().drop_front(*axis + 1));
  results.push_back(RankedTensorType::get(shape, data.getElementType()));
  return success();
}

//===----------------------------------------------------------------------===//
// Element and tuple gathers, scatters
//===----------------------------------------------------------------------===//

/// GatherElements / ScatterElements: `indices` has the rank of `data`, fits it off the axis (an
/// index position is also a data position there), and indexes a non-empty axis when it has any
/// element (an empty one has no position to clamp a bad index to). A symbolic (`?`) dim on either
/// side is not compared: the sizes decide (the lowering of code for every shape requires equal
/// expressions there).
static LogicalResult checkElementIndices(const InferDiag &diag, RankedTensorType data,
                                         RankedTensorType indices, int64_t axis) {
  if (data.getRank() == 0 || indices.getRank() != data.getRank())
    return diag.error("expects data of rank >= 1 and indices of the same rank, got ", data, " and ",
                      indices);
  FailureOr<int64_t> a = normalizeAxis(diag, axis, data.getRank());
  if (failed(a))
    return failure();
  for (int64_t d = 0; d < data.getRank(); ++d)
    if (d != *a && !data.isDynamicDim(d) && !indices.isDynamicDim(d) &&
        indices.getDimSize(d) > data.getDimSize(d))
      return diag.error("expects indices dim ", d, " (", indices.getDimSize(d),
                        ") to be at most the data dim (", data.getDimSize(d), ")");
  // Indices with a symbolic dim may have elements: only a static zero among them says they do not.
  bool indicesEmpty = llvm::is_contained(indices.getShape(), 0);
  if (data.getDimSize(*a) == 0 && !indicesEmpty)
    return diag.error("expects a non-empty dim ", *a, " to index, got ", data);
  return success();
}

LogicalResult GatherElementsOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                                 Adaptor adaptor, SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  RankedTensorType data = tensorType(adaptor.getData());
  RankedTensorType indices = tensorType(adaptor.getIndices());
  if (failed(checkElementIndices(diag, data, indices, static_cast<int64_t>(adaptor.getAxis()))))
    return failure();
  results.push_back(RankedTensorType::get(indices.getShape(), data.getElementType()));
  return success();
}

/// GatherND / ScatterND: the shape of the slices that `indices` address in `data`, i.e.
/// indices.shape[:-1] + data.shape[batchDims + r:], after checking that the tuples fit.
static FailureOr<SmallVector<int64_t>> inferTupleSliceShape(const InferDiag &diag,
                                                            RankedTensorType data,
                                                            RankedTensorType indices,
                                                            int64_t batchDims) {
  if (indices.getRank() < 1 || !indices.hasStaticShape()) {
    (void)diag.error("expects static indices of rank >= 1, got ", indices);
    return failure();
  }
  int64_t r = indices.getShape().back();
  if (batchDims < 0 || batchDims >= indices.getRank() || batchDims >= data.getRank()) {
    (void)diag.error("expects batch_dims in [0, ", std::min(indices.getRank(), data.getRank()),
                     "), got ", batchDims);
    return failure();
  }
  if (r < 1 || batchDims + r > data.getRank()) {
    (void)diag.error("expects index tuples of 1 to ", data.getRank() - batchDims, " entries, got ",
                     r);
    return failure();
  }
  for (int64_t d = 0; d < batchDims; ++d)
    if (indices.getDimSize(d) != data.getDimSize(d)) {
      (void)diag.error("expects batch dim ", d, " of indices (", indices.getDimSize(d),
                       ") to match data (", data.getDimSize(d), ")");
      return failure();
    }
  SmallVector<int64_t> shape(indices.getShape().drop_back());
  for (int64_t d = batchDims; d < batchDims + r; ++d)
    if (data.getDimSize(d) == 0 && shapeProduct(shape) != 0) {
      (void)diag.error("expects a non-empty dim ", d, " to index, got ", data);
      return failure();
    }
  llvm::append_range(shape, data.getShape().drop_front(batchDims + r));
  return shape;
}

LogicalResult GatherNdOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                           Adaptor adaptor, SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  RankedTensorType data = tensorType(adaptor.getData());
  FailureOr<SmallVector<int64_t>> shape = inferTupleSliceShape(
      diag, data, tensorType(adaptor.getIndices()), static_cast<int64_t>(adaptor.getBatchDims()));
  if (failed(shape))
    return failure();
  results.push_back(RankedTensorType::get(*shape, data.getElementType()));
  return success();
}

static LogicalResult checkUpdates(const InferDiag &diag, RankedTensorType data,
                                  RankedTensorType updates, ArrayRef<int64_t> expectedShape) {
  if (updates.getElementType() != data.getElementType())
    return diag.error("expects updates of element type ", data.getElementType(), ", got ",
                      updates.getElementType());
  if (updates.getShape() != expectedShape)
    return diag.error("expects updates of shape ", shapeToString(expectedShape), ", got ",
                      shapeToString(updates.getShape()));
  return success();
}

LogicalResult ScatterElementsOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                                  Adaptor adaptor, SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  RankedTensorType data = tensorType(adaptor.getData());
  RankedTensorType indices = tensorType(adaptor.getIndices());
  if (failed(checkElementIndices(diag, data, indices, static_cast<int64_t>(adaptor.getAxis()))) ||
      failed(checkUpdates(diag, data, tensorType(adaptor.getUpdates()), indices.getShape())))
    return failure();
  results.push_back(data);
  return success();
}

LogicalResult ScatterNdOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                            Adaptor adaptor, SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  RankedTensorType data = tensorType(adaptor.getData());
  FailureOr<SmallVector<int64_t>> shape =
      inferTupleSliceShape(diag, data, tensorType(adaptor.getIndices()), /*batchDims=*/0);
  if (failed(shape) || failed(checkUpdates(diag, data, tensorType(adaptor.getUpdates()), *shape)))
    return failure();
  results.push_back(data);
  return success();
}

//===----------------------------------------------------------------------===//
// Range
//===----------------------------------------------------------------------===//

LogicalResult RangeOp::verify() {
  AffineMap map = getSymbolicRange();
  if (map.getNumDims() != 0 || map.getNumResults() != 2)
    return emitOpError("expects 'symbolic_range' to have no dims and two results (the start and "
                       "the number of elements), got ")
           << getSymbolicRangeAttr();
  if (getDelta() == 0)
    return emitOpError("expects a non-zero delta");
  RankedTensorType type = getType();
  if (type.getRank() != 1)
    return emitOpError("expects a 1-D result, got ") << type;
  // The one dim is the count: `?` exactly where the count is not a constant.
  auto count = dyn_cast<AffineConstantExpr>(getSizeExpr());
  if (count && count.getValue() < 0)
    return emitOpError("expects a non-negative number of elements, got ") << count.getValue();
  int64_t dim = type.getDimSize(0);
  if (count ? count.getValue() != dim : !ShapedType::isDynamic(dim))
    return emitOpError("expects a result of ")
           << (count ? std::to_string(count.getValue()) : std::string("?"))
           << " elements as 'symbolic_range' says, got " << type;
  return success();
}

//===----------------------------------------------------------------------===//
// Pad, expand, resize
//===----------------------------------------------------------------------===//

LogicalResult PadOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
                                      SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  RankedTensorType input = tensorType(adaptor.getInput());
  ArrayRef<int64_t> pads = adaptor.getPads();
  int64_t rank = input.getRank();
  if (failed(checkArraySize(diag, "pads", pads, 2 * rank)))
    return failure();
  PadMode mode = adaptor.getMode();
  AffineMapAttr symbolic = adaptor.getSymbolicPadsAttr();
  if (symbolic && failed(checkSymbolicSizes(diag, "pads", pads, "symbolic_pads", symbolic)))
    return failure();
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t dim = input.getDimSize(d), before = pads[d], after = pads[d + rank];
    // A symbolic amount is `?` (checked once ms-specialize-dims sizes it), and so is the dim.
    if (symbolic && (ShapedType::isDynamic(before) || ShapedType::isDynamic(after))) {
      shape.push_back(ShapedType::kDynamic);
      continue;
    }
    if (mode != PadMode::constant && (before < 0 || after < 0))
      return diag.error("expects non-negative pads in ", stringifyPadMode(mode), " mode, got ",
                        std::min(before, after), " for dim ", d);
    if (mode == PadMode::reflect && !ShapedType::isDynamic(dim) && (before >= dim || after >= dim))
      return diag.error("reflect padding of dim ", d, " needs pads smaller than its size (", dim,
                        "), got ", std::max(before, after));
    if (ShapedType::isDynamic(dim)) {
      shape.push_back(ShapedType::kDynamic);
      continue;
    }
    // Pads come from the model: any int64, so the sum can overflow (found by fuzz_onnx_import).
    std::optional<int64_t> padded = llvm::checkedAdd(dim, before);
    if (padded)
      padded = llvm::checkedAdd(*padded, after);
    if (!padded)
      return diag.error("pads ", before, " and ", after, " overflow dim ", d, " of size ", dim);
    int64_t size = *padded;
    if (size < 0)
      return diag.error("pads ", before, " and ", after, " crop dim ", d, " of size ", dim,
                        " below zero");
    shape.push_back(size);
  }
  results.push_back(RankedTensorType::get(shape, input.getElementType()));
  return success();
}

OpFoldResult PadOp::fold(FoldAdaptor) {
  if (llvm::all_of(getPads(), [](int64_t p) { return p == 0; }))
    return getInput();
  return {};
}

LogicalResult ExpandOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                         Adaptor adaptor, SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  RankedTensorType input = tensorType(adaptor.getInput());
  if (AffineMapAttr symbolic = adaptor.getSymbolicShapeAttr()) {
    if (failed(checkSymbolicSizes(diag, "shape", adaptor.getShape(), "symbolic_shape", symbolic)))
      return failure();
  } else if (failed(checkArrayMin(diag, "shape", adaptor.getShape(), 0))) {
    return failure();
  }
  FailureOr<SmallVector<int64_t>> shape =
      broadcastShapes(diag, input.getShape(), adaptor.getShape());
  if (failed(shape))
    return failure();
  results.push_back(RankedTensorType::get(*shape, input.getElementType()));
  return success();
}

OpFoldResult ExpandOp::fold(FoldAdaptor adaptor) {
  if (getInput().getType() == getType())
    return getInput();
  // Broadcasting a splat is a bigger splat (of a static shape: a symbolic one is sized later).
  auto splat = dyn_cast_if_present<SplatElementsAttr>(adaptor.getInput());
  if (splat && getType().hasStaticShape())
    return SplatElementsAttr::get(getType(), splat.getSplatValue<Attribute>());
  if (!getDenseConstant(adaptor.getInput()))
    return {};
  // Right-aligned broadcast: a size-1 (or missing) input dim repeats.
  ArrayRef<int64_t> inShape = getInput().getType().getShape(), outShape = getType().getShape();
  SmallVector<int64_t> inStrides = rowMajorStrides(inShape), outStrides = rowMajorStrides(outShape);
  size_t offset = outShape.size() - inShape.size();
  return foldGather({adaptor.getInput()}, getType(), [&](int64_t i) {
    int64_t from = 0;
    for (size_t d = offset; d < outShape.size(); ++d)
      if (inShape[d - offset] != 1)
        from += ((i / outStrides[d]) % outShape[d]) * inStrides[d - offset];
    return std::make_pair(0u, from);
  });
}

LogicalResult ResizeOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                         Adaptor adaptor, SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  RankedTensorType input = tensorType(adaptor.getInput());
  ArrayRef<int64_t> sizes = adaptor.getSizes();
  if (failed(checkArraySize(diag, "sizes", sizes, input.getRank())))
    return failure();
  // A symbolic dim is kept (`?` in sizes): what it would be resized to is not an expression the
  // kernel takes.
  for (auto [d, size] : llvm::enumerate(sizes)) {
    if (ShapedType::isDynamic(size) != input.isDynamicDim(d))
      return diag.error("expects sizes to keep exactly the input's symbolic dims, got size ",
                        ShapedType::isDynamic(size) ? "?" : std::to_string(size), " for dim ", d,
                        " of ", input);
    if (!ShapedType::isDynamic(size) && size < 1)
      return diag.error("expects 'sizes' entries to be >= 1, got ", size, " at index ", d);
  }
  results.push_back(RankedTensorType::get(sizes, input.getElementType()));
  return success();
}

OpFoldResult ResizeOp::fold(FoldAdaptor) {
  // Every coordinate mode maps an output index to the same input index when the size is unchanged.
  if (getInput().getType() == getType())
    return getInput();
  return {};
}

//===----------------------------------------------------------------------===//
// ShapeOfOp
//===----------------------------------------------------------------------===//

LogicalResult ShapeOfOp::inferReturnTypes(MLIRContext *ctx, std::optional<Location> loc,
                                          Adaptor adaptor, SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  int64_t rank = tensorType(adaptor.getInput()).getRank();
  int64_t start = adaptor.getStart(), end = adaptor.getEnd();
  if (start < 0 || end < start || end > rank)
    return diag.error("expects 0 <= start <= end <= rank (", rank, "), got start ", start,
                      " and end ", end);
  results.push_back(RankedTensorType::get({end - start}, IntegerType::get(ctx, 64)));
  return success();
}

OpFoldResult ShapeOfOp::fold(FoldAdaptor) {
  ArrayRef<int64_t> dims = getInput().getType().getShape().slice(getStart(), getEnd() - getStart());
  if (llvm::any_of(dims, ShapedType::isDynamic))
    return {};
  return DenseElementsAttr::get(getType(), dims);
}
