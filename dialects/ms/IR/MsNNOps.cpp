//===- MsNNOps.cpp - convolution, GEMM, normalization, pooling, reductions -===//

#include "dialects/ms/IR/MsConstantFold.h"
#include "dialects/ms/IR/MsOps.h"
#include "dialects/ms/IR/MsShapeUtils.h"

#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::ms;

static RankedTensorType tensorType(Value v) { return cast<RankedTensorType>(v.getType()); }

static LogicalResult checkRank(const InferDiag &diag, StringRef name, Value v, int64_t rank) {
  if (tensorType(v).getRank() == rank)
    return success();
  return diag.error("expects ", name, " of rank ", rank, ", got ", tensorType(v));
}

static LogicalResult checkSameElementType(const InferDiag &diag, StringRef name, Value v,
                                          Type expected) {
  Type et = tensorType(v).getElementType();
  if (et == expected)
    return success();
  return diag.error("expects ", name, " element type ", expected, ", got ", et);
}

static LogicalResult checkAccType(const InferDiag &diag, std::optional<Type> accType) {
  if (!accType || isa<FloatType>(*accType))
    return success();
  return diag.error("expects 'acc_type' to be a float type, got ", *accType);
}

/// Checks a 1-D parameter of `size` elements (dynamic sizes are accepted).
static LogicalResult checkVector(const InferDiag &diag, StringRef name, Value v, int64_t size,
                                 Type elementType) {
  RankedTensorType type = tensorType(v);
  if (type.getRank() != 1 ||
      (!type.isDynamicDim(0) && !ShapedType::isDynamic(size) && type.getDimSize(0) != size))
    return diag.error("expects ", name, " of shape [", size, "], got ", type);
  return checkSameElementType(diag, name, v, elementType);
}

/// Checks strides/pads/dilations of a 2-D window op.
static LogicalResult checkWindow(const InferDiag &diag, ArrayRef<int64_t> strides,
                                 ArrayRef<int64_t> pads, ArrayRef<int64_t> dilations) {
  if (failed(checkArraySize(diag, "strides", strides, 2)) ||
      failed(checkArraySize(diag, "pads", pads, 4)) ||
      failed(checkArraySize(diag, "dilations", dilations, 2)) ||
      failed(checkArrayMin(diag, "strides", strides, 1)) ||
      failed(checkArrayMin(diag, "pads", pads, 0)) ||
      failed(checkArrayMin(diag, "dilations", dilations, 1)))
    return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// QConv2dOp
//===----------------------------------------------------------------------===//

LogicalResult QConv2dOp::inferReturnTypes(MLIRContext *ctx, std::optional<Location> loc,
                                          Adaptor adaptor, SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  Value input = adaptor.getInput(), filter = adaptor.getFilter();
  if (failed(checkRank(diag, "input", input, 4)) || failed(checkRank(diag, "filter", filter, 4)))
    return failure();
  ArrayRef<int64_t> strides = adaptor.getStrides(), pads = adaptor.getPads(),
                    dilations = adaptor.getDilations();
  if (failed(checkWindow(diag, strides, pads, dilations)))
    return failure();
  ArrayRef<int64_t> in = tensorType(input).getShape(), w = tensorType(filter).getShape();
  if (!tensorType(input).hasStaticShape() || !tensorType(filter).hasStaticShape())
    return diag.error("expects static shapes");
  if (in[1] != w[1])
    return diag.error("expects input channels (", in[1], ") to equal filter channels (", w[1],
                      ")");
  if (failed(checkVector(diag, "bias", adaptor.getBias(), w[0], IntegerType::get(ctx, 32))) ||
      failed(checkVector(diag, "scale", adaptor.getScale(), w[0], Float32Type::get(ctx))))
    return failure();
  int64_t xZero = adaptor.getInputZeroPoint(), yZero = adaptor.getOutputZeroPoint(),
          yMin = adaptor.getOutputMin(), yMax = adaptor.getOutputMax();
  if (xZero < 0 || xZero > 255 || yZero < 0 || yZero > 255)
    return diag.error("expects zero points in [0, 255], got ", xZero, " and ", yZero);
  if (yMin < 0 || yMin > yMax || yMax > 255)
    return diag.error("expects 0 <= output_min <= output_max <= 255, got ", yMin, " and ", yMax);
  SmallVector<int64_t> shape = {in[0], w[0]};
  for (int i = 0; i < 2; ++i) {
    int64_t size = windowOutputSize(in[2 + i], pads[i], pads[i + 2], w[2 + i], strides[i],
                                    dilations[i], /*ceilMode=*/false);
    if (size == 0 || size == -1)
      return diag.error("window of size ", w[2 + i], " (dilation ", dilations[i],
                        ") does not fit padded input dim ", 2 + i, " of size ", in[2 + i]);
    shape.push_back(size);
  }
  results.push_back(
      RankedTensorType::get(shape, IntegerType::get(ctx, 8, IntegerType::Unsigned)));
  return success();
}

//===----------------------------------------------------------------------===//
// Conv2dOp
//===----------------------------------------------------------------------===//

LogicalResult Conv2dOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                         Adaptor adaptor, SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  Value input = adaptor.getInput(), filter = adaptor.getFilter();
  if (failed(checkRank(diag, "input", input, 4)) || failed(checkRank(diag, "filter", filter, 4)))
    return failure();
  Type et = tensorType(input).getElementType();
  if (failed(checkSameElementType(diag, "filter", filter, et)) ||
      failed(checkAccType(diag, adaptor.getAccType())))
    return failure();
  ArrayRef<int64_t> strides = adaptor.getStrides(), pads = adaptor.getPads(),
                    dilations = adaptor.getDilations();
  if (failed(checkWindow(diag, strides, pads, dilations)))
    return failure();

  // The input as [N, C, H, W] whatever its layout.
  ArrayRef<int64_t> inShape = tensorType(input).getShape(), w = tensorType(filter).getShape();
  const bool channelsLast = adaptor.getChannelsLast();
  SmallVector<int64_t> in(inShape);
  if (channelsLast)
    in = {inShape[0], inShape[3], inShape[1], inShape[2]};
  int64_t groups = adaptor.getGroups();
  if (groups < 1)
    return diag.error("expects groups >= 1, got ", groups);
  if (!ShapedType::isDynamic(w[0]) && w[0] % groups != 0)
    return diag.error("expects filter output channels (", w[0], ") to be divisible by groups (",
                      groups, ")");
  if (!ShapedType::isDynamic(in[1]) && !ShapedType::isDynamic(w[1]) && in[1] != w[1] * groups)
    return diag.error("expects input channels (", in[1], ") to equal filter channels per group (",
                      w[1], ") * groups (", groups, ")");
  if (Value bias = adaptor.getBias())
    if (failed(checkVector(diag, "bias", bias, w[0], et)))
      return failure();
  if (channelsLast && groups != 1 && !(groups == in[1] && groups == w[0]))
    return diag.error("expects one group or a depthwise convolution (groups = C = F) with "
                      "channels_last, got groups = ",
                      groups);

  SmallVector<int64_t> shape = {in[0], w[0]};
  for (int i = 0; i < 2; ++i) {
    int64_t size = ShapedType::isDynamic(w[2 + i])
                       ? ShapedType::kDynamic
                       : windowOutputSize(in[2 + i], pads[i], pads[i + 2], w[2 + i], strides[i],
                                          dilations[i], /*ceilMode=*/false);
    if (size == 0 || size == -1)
      return diag.error("window of size ", w[2 + i], " (dilation ", dilations[i],
                        ") does not fit padded input dim ", (channelsLast ? 1 : 2) + i,
                        " of size ", in[2 + i]);
    shape.push_back(size);
  }
  if (channelsLast)
    shape = {shape[0], shape[2], shape[3], shape[1]};
  results.push_back(RankedTensorType::get(shape, et));
  return success();
}

//===----------------------------------------------------------------------===//
// MatMulOp and GemmOp
//===----------------------------------------------------------------------===//

LogicalResult MatMulOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                         Adaptor adaptor, SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  RankedTensorType lhs = tensorType(adaptor.getLhs()), rhs = tensorType(adaptor.getRhs());
  if (lhs.getRank() == 0 || rhs.getRank() == 0)
    return diag.error("expects operands of rank >= 1, got ", lhs, " and ", rhs);
  if (lhs.getElementType() != rhs.getElementType())
    return diag.error("expects operands to have the same element type, got ", lhs.getElementType(),
                      " and ", rhs.getElementType());
  if (failed(checkAccType(diag, adaptor.getAccType())))
    return failure();
  SmallVector<int64_t> a(lhs.getShape()), b(rhs.getShape());
  bool lhsVector = a.size() == 1, rhsVector = b.size() == 1;
  if (lhsVector)
    a.insert(a.begin(), 1);
  if (rhsVector)
    b.push_back(1);
  int64_t k1 = a.back(), k2 = b[b.size() - 2];
  if (!ShapedType::isDynamic(k1) && !ShapedType::isDynamic(k2) && k1 != k2)
    return diag.error("expects contracting dims to match, got ", k1, " (lhs) and ", k2, " (rhs)");
  FailureOr<SmallVector<int64_t>> batch =
      broadcastShapes(diag, ArrayRef<int64_t>(a).drop_back(2), ArrayRef<int64_t>(b).drop_back(2));
  if (failed(batch))
    return failure();
  SmallVector<int64_t> shape = *batch;
  if (!lhsVector)
    shape.push_back(a[a.size() - 2]);
  if (!rhsVector)
    shape.push_back(b.back());
  results.push_back(RankedTensorType::get(shape, lhs.getElementType()));
  return success();
}

LogicalResult GemmOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
                                       SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  Value a = adaptor.getA(), b = adaptor.getB();
  if (failed(checkRank(diag, "a", a, 2)) || failed(checkRank(diag, "b", b, 2)))
    return failure();
  Type et = tensorType(a).getElementType();
  if (failed(checkSameElementType(diag, "b", b, et)) ||
      failed(checkAccType(diag, adaptor.getAccType())))
    return failure();
  ArrayRef<int64_t> as = tensorType(a).getShape(), bs = tensorType(b).getShape();
  bool ta = adaptor.getTransA(), tb = adaptor.getTransB();
  int64_t m = ta ? as[1] : as[0], ka = ta ? as[0] : as[1];
  int64_t kb = tb ? bs[1] : bs[0], n = tb ? bs[0] : bs[1];
  if (!ShapedType::isDynamic(ka) && !ShapedType::isDynamic(kb) && ka != kb)
    return diag.error("expects contracting dims to match, got ", ka, " (a) and ", kb, " (b)");
  SmallVector<int64_t> shape = {m, n};
  if (Value c = adaptor.getC()) {
    if (failed(checkSameElementType(diag, "c", c, et)))
      return failure();
    FailureOr<SmallVector<int64_t>> bc = broadcastShapes(diag, shape, tensorType(c).getShape());
    if (failed(bc))
      return failure();
    if (ArrayRef<int64_t>(*bc) != ArrayRef<int64_t>(shape) || tensorType(c).getRank() > 2)
      return diag.error("expects c ", tensorType(c), " to broadcast unidirectionally to [", m, ", ",
                        n, "]");
  }
  results.push_back(RankedTensorType::get(shape, et));
  return success();
}

//===----------------------------------------------------------------------===//
// Normalization and softmax
//===----------------------------------------------------------------------===//

LogicalResult BatchNormOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                            Adaptor adaptor, SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  RankedTensorType input = tensorType(adaptor.getInput());
  if (input.getRank() < 2)
    return diag.error("expects input of rank >= 2, got ", input);
  if (adaptor.getEpsilon().convertToDouble() < 0.0)
    return diag.error("expects a non-negative epsilon");
  int64_t channels = input.getDimSize(1);
  Type et = input.getElementType();
  std::pair<StringRef, Value> params[] = {{"scale", adaptor.getScale()},
                                          {"bias", adaptor.getBias()},
                                          {"mean", adaptor.getMean()},
                                          {"variance", adaptor.getVariance()}};
  for (auto [name, value] : params)
    if (failed(checkVector(diag, name, value, channels, et)))
      return failure();
  results.push_back(input);
  return success();
}

LogicalResult LayerNormOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                            Adaptor adaptor, SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  RankedTensorType input = tensorType(adaptor.getInput());
  FailureOr<int64_t> axis = normalizeAxis(diag, adaptor.getAxis(), input.getRank());
  if (failed(axis))
    return failure();
  if (adaptor.getEpsilon().convertToDouble() < 0.0)
    return diag.error("expects a non-negative epsilon");
  ArrayRef<int64_t> normalized = input.getShape().drop_front(*axis);
  for (auto [name, value] : {std::pair<StringRef, Value>{"scale", adaptor.getScale()},
                             std::pair<StringRef, Value>{"bias", adaptor.getBias()}}) {
    if (!value)
      continue;
    RankedTensorType type = tensorType(value);
    if (type.getShape() != normalized)
      return diag.error("expects ", name, " of shape ", shapeToString(normalized),
                        " (the normalized dims), got ", type);
    if (failed(checkSameElementType(diag, name, value, input.getElementType())))
      return failure();
  }
  results.push_back(input);
  return success();
}

LogicalResult SoftmaxOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                          Adaptor adaptor, SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  RankedTensorType input = tensorType(adaptor.getInput());
  if (failed(normalizeAxis(diag, adaptor.getAxis(), input.getRank())))
    return failure();
  results.push_back(input);
  return success();
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

static LogicalResult inferReduce(const InferDiag &diag, Value input, ArrayRef<int64_t> axes,
                                 bool keepDims, SmallVectorImpl<Type> &results) {
  RankedTensorType type = tensorType(input);
  FailureOr<SmallVector<int64_t>> reduced = normalizeAxes(diag, axes, type.getRank());
  if (failed(reduced))
    return failure();
  SmallVector<int64_t> shape;
  for (auto [i, dim] : llvm::enumerate(type.getShape())) {
    bool isReduced = reduced->empty() || llvm::is_contained(*reduced, (int64_t)i);
    if (!isReduced)
      shape.push_back(dim);
    else if (keepDims)
      shape.push_back(1);
  }
  results.push_back(RankedTensorType::get(shape, type.getElementType()));
  return success();
}

#define MS_REDUCE_INFER(OP)                                                                        \
  LogicalResult OP::inferReturnTypes(MLIRContext *, std::optional<Location> loc, Adaptor adaptor,  \
                                     SmallVectorImpl<Type> &results) {                             \
    return inferReduce(InferDiag(loc, getOperationName()), adaptor.getInput(), adaptor.getAxes(),  \
                       adaptor.getKeepDims(), results);                                            \
  }
MS_REDUCE_INFER(ReduceSumOp)
MS_REDUCE_INFER(ReduceMeanOp)
MS_REDUCE_INFER(ReduceMaxOp)
MS_REDUCE_INFER(ReduceMinOp)
MS_REDUCE_INFER(ReduceProdOp)
#undef MS_REDUCE_INFER

enum class ReduceKind { Sum, Mean, Max, Min, Prod };

/// Reduces a constant: integers wrapping, as the generated code does; floats only by max and min,
/// which are exact in any order (NaN wins, as in numpy), so shape arithmetic on float
/// constants (a detection model's image size, ceil(max(size) / 32)) folds. Integer means are not
/// folded (their rounding is the lowering's business), nor are max/min of nothing.
static Attribute foldReduce(Attribute operand, Value input, ArrayRef<int64_t> axes,
                            RankedTensorType resultType, ReduceKind kind) {
  DenseElementsAttr dense = getDenseConstant(operand);
  if (!dense || resultType.getNumElements() > kMaxFoldedElements)
    return {};
  bool isFloat = isa<FloatType>(dense.getElementType());
  if (isFloat ? kind != ReduceKind::Max && kind != ReduceKind::Min
              : !isa<IntegerType>(dense.getElementType()) || kind == ReduceKind::Mean)
    return {};
  ArrayRef<int64_t> shape = tensorType(input).getShape();
  int64_t rank = shape.size();
  SmallVector<bool> reduced(rank, axes.empty());
  for (int64_t a : axes)
    reduced[a < 0 ? a + rank : a] = true;
  int64_t count = dense.getNumElements();
  if (count == 0 && (kind == ReduceKind::Max || kind == ReduceKind::Min))
    return {};
  SmallVector<int64_t> strides = rowMajorStrides(shape);
  // The result index of input element i: its kept dims, row-major.
  SmallVector<int64_t> keptStrides(rank, 0);
  int64_t stride = 1;
  for (int64_t d = rank - 1; d >= 0; --d) {
    if (reduced[d])
      continue;
    keptStrides[d] = stride;
    stride *= shape[d];
  }
  auto resultIndex = [&](int64_t i) {
    int64_t out = 0;
    for (int64_t d = 0; d < rank; ++d)
      out += ((i / strides[d]) % shape[d]) * keptStrides[d];
    return out;
  };
  SmallVector<bool> seen(resultType.getNumElements(), false);

  if (isFloat) {
    SmallVector<APFloat> values;
    if (dense.isSplat())
      values.assign(count, dense.getSplatValue<APFloat>());
    else
      llvm::append_range(values, dense.getValues<APFloat>());
    SmallVector<APFloat> acc(resultType.getNumElements(), values.front());
    for (int64_t i = 0; i < count; ++i) {
      int64_t out = resultIndex(i);
      acc[out] = !seen[out]                ? values[i]
                 : kind == ReduceKind::Max ? llvm::maximum(acc[out], values[i])
                                           : llvm::minimum(acc[out], values[i]);
      seen[out] = true;
    }
    return DenseElementsAttr::get(resultType, acc);
  }

  bool isUnsigned = isUnsignedInteger(dense.getElementType());
  unsigned width = dense.getElementType().getIntOrFloatBitWidth();
  APInt init(width, kind == ReduceKind::Prod ? 1 : 0);
  SmallVector<APInt> acc(resultType.getNumElements(), init);
  SmallVector<APInt> values;
  if (dense.isSplat())
    values.assign(count, dense.getSplatValue<APInt>());
  else
    llvm::append_range(values, dense.getValues<APInt>());
  for (int64_t i = 0; i < count; ++i) {
    int64_t out = resultIndex(i);
    const APInt &v = values[i];
    APInt &a = acc[out];
    switch (kind) {
    case ReduceKind::Sum:
    case ReduceKind::Mean:
      a += v;
      break;
    case ReduceKind::Prod:
      a *= v;
      break;
    case ReduceKind::Max:
      if (!seen[out] || (isUnsigned ? v.ugt(a) : v.sgt(a)))
        a = v;
      break;
    case ReduceKind::Min:
      if (!seen[out] || (isUnsigned ? v.ult(a) : v.slt(a)))
        a = v;
      break;
    }
    seen[out] = true;
  }
  return DenseElementsAttr::get(resultType, acc);
}

#define MS_REDUCE_FOLD(OP, KIND)                                                                   \
  OpFoldResult OP::fold(FoldAdaptor adaptor) {                                                     \
    return foldReduce(adaptor.getInput(), getInput(), getAxes(), getType(), ReduceKind::KIND);     \
  }
MS_REDUCE_FOLD(ReduceSumOp, Sum)
MS_REDUCE_FOLD(ReduceMeanOp, Mean)
MS_REDUCE_FOLD(ReduceMaxOp, Max)
MS_REDUCE_FOLD(ReduceMinOp, Min)
MS_REDUCE_FOLD(ReduceProdOp, Prod)
#undef MS_REDUCE_FOLD

/// arg_max / arg_min: the input shape without `axis` (or with it as 1), int64 elements.
static LogicalResult inferArgReduce(const InferDiag &diag, Value input, int64_t axis, bool keepDims,
                                    SmallVectorImpl<Type> &results) {
  RankedTensorType type = tensorType(input);
  if (type.getRank() == 0)
    return diag.error("expects an input of rank >= 1, got ", type);
  FailureOr<int64_t> a = normalizeAxis(diag, axis, type.getRank());
  if (failed(a))
    return failure();
  SmallVector<int64_t> shape(type.getShape());
  if (keepDims)
    shape[*a] = 1;
  else
    shape.erase(shape.begin() + *a);
  results.push_back(RankedTensorType::get(shape, IntegerType::get(input.getContext(), 64)));
  return success();
}

#define MS_ARG_REDUCE_INFER(OP)                                                                    \
  LogicalResult OP::inferReturnTypes(MLIRContext *, std::optional<Location> loc, Adaptor adaptor,  \
                                     SmallVectorImpl<Type> &results) {                             \
    return inferArgReduce(InferDiag(loc, getOperationName()), adaptor.getInput(),                  \
                          static_cast<int64_t>(adaptor.getAxis()), adaptor.getKeepDims(),          \
                          results);                                                                \
  }
MS_ARG_REDUCE_INFER(ArgMaxOp)
MS_ARG_REDUCE_INFER(ArgMinOp)
#undef MS_ARG_REDUCE_INFER

LogicalResult TopKOp::inferReturnTypes(MLIRContext *ctx, std::optional<Location> loc,
                                       Adaptor adaptor, SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  RankedTensorType type = tensorType(adaptor.getInput());
  if (type.getRank() == 0)
    return diag.error("expects an input of rank >= 1, got ", type);
  FailureOr<int64_t> axis =
      normalizeAxis(diag, static_cast<int64_t>(adaptor.getAxis()), type.getRank());
  if (failed(axis))
    return failure();
  auto k = static_cast<int64_t>(adaptor.getK());
  int64_t dim = type.getDimSize(*axis);
  if (k < 0 || (!ShapedType::isDynamic(dim) && k > dim))
    return diag.error("expects k in [0, ", shapeToString({dim}), "] (the size of dim ", *axis,
                      "), got ", k);
  SmallVector<int64_t> shape(type.getShape());
  shape[*axis] = k;
  results.push_back(RankedTensorType::get(shape, type.getElementType()));
  results.push_back(RankedTensorType::get(shape, IntegerType::get(ctx, 64)));
  return success();
}

LogicalResult CumSumOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                         Adaptor adaptor, SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  RankedTensorType type = tensorType(adaptor.getInput());
  if (type.getRank() == 0)
    return diag.error("expects an input of rank >= 1, got ", type);
  RankedTensorType axisType = tensorType(adaptor.getAxis());
  if (!axisType.hasStaticShape() || axisType.getNumElements() != 1)
    return diag.error("expects a one-element axis, got ", axisType);
  // A constant axis is checked here; a runtime one is clamped by the lowering.
  DenseIntElementsAttr axis;
  if (matchPattern(adaptor.getAxis(), m_Constant(&axis)) &&
      failed(normalizeAxis(diag, (*axis.value_begin<APInt>()).getSExtValue(), type.getRank())))
    return failure();
  results.push_back(type);
  return success();
}

//===----------------------------------------------------------------------===//
// Pooling
//===----------------------------------------------------------------------===//

template <typename AdaptorT>
static LogicalResult inferPool(const InferDiag &diag, AdaptorT adaptor,
                               SmallVectorImpl<Type> &results) {
  Value input = adaptor.getInput();
  int64_t rank = tensorType(input).getRank();
  if (rank != 4 && rank != 5)
    return diag.error("expects input of rank 4 or 5, got ", tensorType(input));
  const size_t spatial = rank - 2;
  ArrayRef<int64_t> kernel = adaptor.getKernel(), strides = adaptor.getStrides(),
                    pads = adaptor.getPads(), dilations = adaptor.getDilations();
  if (failed(checkArraySize(diag, "kernel", kernel, spatial)) ||
      failed(checkArrayMin(diag, "kernel", kernel, 1)) ||
      failed(checkArraySize(diag, "strides", strides, spatial)) ||
      failed(checkArraySize(diag, "pads", pads, 2 * spatial)) ||
      failed(checkArraySize(diag, "dilations", dilations, spatial)) ||
      failed(checkArrayMin(diag, "strides", strides, 1)) ||
      failed(checkArrayMin(diag, "pads", pads, 0)) ||
      failed(checkArrayMin(diag, "dilations", dilations, 1)))
    return failure();
  for (size_t i = 0; i < spatial; ++i)
    if (pads[i] >= kernel[i] || pads[i + spatial] >= kernel[i])
      return diag.error("expects pads smaller than the kernel, got pad ",
                        std::max(pads[i], pads[i + spatial]), " for kernel ", kernel[i]);
  ArrayRef<int64_t> in = tensorType(input).getShape();
  SmallVector<int64_t> shape = {in[0], in[1]};
  for (size_t i = 0; i < spatial; ++i) {
    int64_t size = windowOutputSize(in[2 + i], pads[i], pads[i + spatial], kernel[i], strides[i],
                                    dilations[i], adaptor.getCeilMode());
    if (size == 0 || size == -1)
      return diag.error("window of size ", kernel[i], " does not fit padded input dim ", 2 + i,
                        " of size ", in[2 + i]);
    shape.push_back(size);
  }
  results.push_back(RankedTensorType::get(shape, tensorType(input).getElementType()));
  return success();
}

LogicalResult MaxPoolOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                          Adaptor adaptor, SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  return inferPool(diag, adaptor, results);
}

LogicalResult AvgPoolOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                          Adaptor adaptor, SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  return inferPool(diag, adaptor, results);
}

LogicalResult GlobalAvgPoolOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                                Adaptor adaptor, SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  RankedTensorType input = tensorType(adaptor.getInput());
  if (input.getRank() < 3)
    return diag.error("expects input of rank >= 3 ([N, C, spatial...]), got ", input);
  SmallVector<int64_t> shape(input.getShape());
  std::fill(shape.begin() + 2, shape.end(), 1);
  results.push_back(RankedTensorType::get(shape, input.getElementType()));
  return success();
}
