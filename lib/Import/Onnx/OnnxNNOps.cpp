//===- OnnxNNOps.cpp - conv, gemm, normalization, pooling, softmax, reduce -===//

#include "OnnxCompositeBuilder.h"
#include "OnnxImporterInternal.h"

#include "dialects/ms/IR/MsOps.h"
#include "dialects/ms/IR/MsShapeUtils.h"

using namespace mlir;
using namespace mlir::mie::onnx_import;

namespace {

/// Reads a per-spatial-dim attribute (strides, dilations) with a default of all ones.
FailureOr<SmallVector<int64_t>> spatialAttr(NodeImporter &n, StringRef name, size_t rank,
                                            int64_t min) {
  std::optional<SmallVector<int64_t>> values = n.getInts(name);
  if (n.hasFailed())
    return failure();
  if (!values)
    return SmallVector<int64_t>(rank, 1);
  if (values->size() != rank)
    return n.error() << "'" << name << "' " << listToString(*values) << " must have " << rank
                     << " entries";
  for (int64_t v : *values)
    if (v < min)
      return n.error() << "'" << name << "' " << listToString(*values) << " must be >= " << min;
  return *values;
}

/// Pads [begin..., end...] of a sliding-window op from `pads` or `auto_pad`.
FailureOr<SmallVector<int64_t>> windowPads(NodeImporter &n, ArrayRef<int64_t> input,
                                           ArrayRef<int64_t> kernel, ArrayRef<int64_t> strides,
                                           ArrayRef<int64_t> dilations) {
  size_t rank = input.size();
  std::string autoPad = n.getString("auto_pad", "NOTSET");
  if (n.hasFailed())
    return failure();
  if (autoPad == "NOTSET") {
    std::optional<SmallVector<int64_t>> pads = n.getInts("pads");
    if (n.hasFailed())
      return failure();
    if (!pads)
      return SmallVector<int64_t>(2 * rank, 0);
    if (pads->size() != 2 * rank)
      return n.error() << "'pads' " << listToString(*pads) << " must have " << 2 * rank
                       << " entries";
    if (llvm::any_of(*pads, [](int64_t p) { return p < 0; }))
      return n.error() << "'pads' " << listToString(*pads) << " must be non-negative";
    return *pads;
  }
  if (autoPad == "VALID")
    return SmallVector<int64_t>(2 * rank, 0);
  if (autoPad != "SAME_UPPER" && autoPad != "SAME_LOWER")
    return n.error() << "auto_pad '" << autoPad << "' is not supported";
  // SAME_*: output = ceil(input / stride); the odd pad goes to the end (UPPER) or begin (LOWER).
  SmallVector<int64_t> pads(2 * rank, 0);
  for (size_t i = 0; i < rank; ++i) {
    int64_t out = (input[i] + strides[i] - 1) / strides[i];
    int64_t total = std::max<int64_t>(0, (out - 1) * strides[i] + (kernel[i] - 1) * dilations[i] +
                                             1 - input[i]);
    int64_t small = total / 2, big = total - small;
    pads[i] = autoPad == "SAME_UPPER" ? small : big;
    pads[i + rank] = autoPad == "SAME_UPPER" ? big : small;
  }
  return pads;
}

//===----------------------------------------------------------------------===//
// Conv, Gemm, MatMul
//===----------------------------------------------------------------------===//

} // namespace

namespace {

/// A 1-D convolution is a 2-D one of height 1.
Value conv1dAs2d(composite::Ops &o, Value x, Value w, Value bias, ArrayRef<int64_t> strides,
                 ArrayRef<int64_t> pads, ArrayRef<int64_t> dilations, int64_t group) {
  ArrayRef<int64_t> xs = composite::typeOf(x).getShape(), ws = composite::typeOf(w).getShape();
  // A run-time batch (the only dim that may be symbolic) stays one through the unit height.
  const bool symbolicBatch = ShapedType::isDynamic(xs[0]);
  Value image = symbolicBatch ? o.op<ms::UnsqueezeOp>(x, ArrayRef<int64_t>{2})
                              : o.reshape(x, {xs[0], xs[1], 1, xs[2]});
  Value y = o.op<ms::Conv2dOp>(
      image, o.reshape(w, {ws[0], ws[1], 1, ws[2]}), bias, ArrayRef<int64_t>{1, strides[0]},
      ArrayRef<int64_t>{0, pads[0], 0, pads[1]}, ArrayRef<int64_t>{1, dilations[0]},
      static_cast<uint64_t>(group), TypeAttr());
  if (o.failed())
    return Value();
  ArrayRef<int64_t> ys = composite::typeOf(y).getShape();
  return symbolicBatch ? o.op<ms::SqueezeOp>(y, ArrayRef<int64_t>{2})
                       : o.reshape(y, {ys[0], ys[1], ys[3]});
}

} // namespace

FailureOr<Value> mlir::mie::onnx_import::buildConvFromAttrs(NodeImporter &n, Value x, Value w,
                                                            Value bias) {
  RankedTensorType xType = cast<RankedTensorType>(x.getType());
  RankedTensorType wType = cast<RankedTensorType>(w.getType());
  const int64_t rank = xType.getRank();
  if (rank < 3 || rank > 5 || wType.getRank() != rank)
    return n.unsupportedFeature()
           << "only 1-D, 2-D and 3-D convolutions (input and weight of rank 3 to 5) are "
              "implemented, got "
           << xType << " and " << wType;
  const size_t spatial = rank - 2;
  ArrayRef<int64_t> kernel = wType.getShape().drop_front(2);
  if (std::optional<SmallVector<int64_t>> kernelShape = n.getInts("kernel_shape"))
    if (ArrayRef<int64_t>(*kernelShape) != kernel)
      return n.error() << "kernel_shape " << listToString(*kernelShape)
                       << " does not match the weight " << wType;
  int64_t group = n.getInt("group", 1);
  FailureOr<SmallVector<int64_t>> strides = spatialAttr(n, "strides", spatial, 1);
  FailureOr<SmallVector<int64_t>> dilations = spatialAttr(n, "dilations", spatial, 1);
  if (failed(strides) || failed(dilations) || n.hasFailed())
    return failure();
  FailureOr<SmallVector<int64_t>> pads =
      windowPads(n, xType.getShape().drop_front(2), kernel, *strides, *dilations);
  if (failed(pads))
    return failure();
  if (group < 1)
    return n.error() << "group must be >= 1, got " << group;
  if (spatial == 2)
    return n.create<ms::Conv2dOp>(x, w, bias, ArrayRef<int64_t>(*strides), ArrayRef<int64_t>(*pads),
                                  ArrayRef<int64_t>(*dilations), static_cast<uint64_t>(group),
                                  TypeAttr());
  if (llvm::any_of(*strides, [](int64_t s) { return s < 1; }) ||
      llvm::any_of(*dilations, [](int64_t d) { return d < 1; }))
    return n.error() << "strides " << listToString(*strides) << " and dilations "
                     << listToString(*dilations) << " must be positive";
  // A symbolic batch is kept (code for symbolic dims), nothing else.
  if (llvm::any_of(xType.getShape().drop_front(), ShapedType::isDynamic) || !wType.hasStaticShape())
    return n.unsupportedFeature() << "a " << spatial
                                  << "-D convolution needs static shapes but for the batch "
                                     "(--input-shape, --dim-param), got "
                                  << xType << " and " << wType;
  auto below2to31 = [](ArrayRef<int64_t> v) {
    return llvm::all_of(v, [](int64_t x) { return x < (int64_t(1) << 31); });
  };
  if (!below2to31(*strides) || !below2to31(*dilations) || !below2to31(*pads))
    return n.error() << "strides, dilations and pads must be below 2^31";
  if (spatial == 3) {
    // The stacked input is [N, C, KD, D, H, W] at most: bounded, so no size computed from it
    // overflows (the tensor size limits come later).
    // (Per sample where the batch is symbolic: its range bounds the rest.)
    int64_t batch = xType.isDynamicDim(0) ? 1 : xType.getDimSize(0);
    if (!isReasonableShape({batch, xType.getDimSize(1), kernel[0],
                            xType.getDimSize(2) + (*pads)[0] + (*pads)[3], xType.getDimSize(3),
                            xType.getDimSize(4)}))
      return n.error() << "the input " << xType << " stacked over " << kernel[0]
                       << " depth taps is too large";
    int64_t depth = xType.getDimSize(2) + (*pads)[0] + (*pads)[3];
    if (depth < (*dilations)[0] * (kernel[0] - 1) + 1)
      return n.error() << "the padded depth " << depth << " is smaller than the kernel's reach "
                       << (*dilations)[0] * (kernel[0] - 1) + 1;
  }
  if (spatial == 3) // ms-decompose runs it on the 2-D kernels
    return n.create<ms::Conv3dOp>(x, w, bias, ArrayRef<int64_t>(*strides),
                                  ArrayRef<int64_t>(*pads), ArrayRef<int64_t>(*dilations),
                                  static_cast<uint64_t>(group));
  composite::Ops o(n);
  Value y = conv1dAs2d(o, x, w, bias, *strides, *pads, *dilations, group);
  if (o.failed() || !y)
    return failure();
  return y;
}

namespace {

LogicalResult importConv(NodeImporter &n) {
  FailureOr<Value> x = n.input(0), w = n.input(1);
  FailureOr<Value> bias =
      succeeded(x) && succeeded(w) ? n.optionalInput(2) : FailureOr<Value>(failure());
  if (failed(bias))
    return failure();
  return finish(n, buildConvFromAttrs(n, *x, *w, *bias));
}

LogicalResult importGemm(NodeImporter &n) {
  double alpha = n.getFloat("alpha", 1.0), beta = n.getFloat("beta", 1.0);
  bool transA = n.getInt("transA", 0) != 0, transB = n.getInt("transB", 0) != 0;
  if (n.hasFailed())
    return failure();
  FailureOr<Value> a = n.input(0), b = n.input(1);
  FailureOr<Value> c =
      succeeded(a) && succeeded(b) ? n.optionalInput(2) : FailureOr<Value>(failure());
  if (failed(c))
    return failure();
  return finish(n, n.create<ms::GemmOp>(*a, *b, *c, APFloat(alpha), APFloat(beta), transA, transB,
                                        TypeAttr()));
}

LogicalResult importMatMul(NodeImporter &n) {
  FailureOr<Value> a = n.input(0), b = n.input(1);
  if (failed(a) || failed(b))
    return failure();
  return finish(n, n.create<ms::MatMulOp>(*a, *b, TypeAttr()));
}

//===----------------------------------------------------------------------===//
// Normalization and softmax
//===----------------------------------------------------------------------===//

LogicalResult importBatchNorm(NodeImporter &n) {
  double epsilon = n.getFloat("epsilon", 1e-5);
  if (n.getInt("training_mode", 0) != 0)
    return importBatchNormTraining(n);
  // Before opset 7 the mode is an attribute, training (batch statistics) by default.
  if (n.opset() < 7 && n.getInt("is_test", 0) == 0)
    return n.unsupportedFeature() << "training mode (is_test = 0, opsets 1-6) is not supported";
  if (n.opset() < 9 && n.getInt("spatial", 1) != 1)
    return n.unsupportedFeature() << "spatial = 0 is not implemented";
  if (n.hasFailed() || failed(n.onlyOutputs(1, "only the inference form is implemented")))
    return failure();
  SmallVector<Value, 5> operands;
  for (unsigned i = 0; i < 5; ++i) {
    FailureOr<Value> v = n.input(i);
    if (failed(v))
      return failure();
    operands.push_back(*v);
  }
  return finish(n, n.create<ms::BatchNormOp>(operands[0], operands[1], operands[2], operands[3],
                                             operands[4], APFloat(epsilon)));
}

/// The optional Mean and InvStdDev outputs of LayerNormalization: reduce_mean over the normalized
/// dims (kept as size 1) and rsqrt(var + epsilon), computed in f32 when stash_type is 1.
LogicalResult layerNormStatistics(NodeImporter &n, Value x, int64_t axis, double epsilon) {
  RankedTensorType xType = cast<RankedTensorType>(x.getType());
  if (n.getInt("stash_type", 1) == 1 && !xType.getElementType().isF32()) {
    xType = xType.clone(n.builder().getF32Type());
    x = ms::CastOp::create(n.builder(), n.loc(), xType, x);
  }
  if (n.hasFailed())
    return failure();
  SmallVector<int64_t> axes;
  for (int64_t d = axis; d < xType.getRank(); ++d)
    axes.push_back(d);
  FailureOr<Value> mean = n.create<ms::ReduceMeanOp>(x, ArrayRef<int64_t>(axes), true);
  if (failed(mean))
    return failure();
  n.setOutput(1, *mean);
  if (!n.hasOutput(2))
    return success();
  FailureOr<Value> centered = n.create<ms::SubOp>(x, *mean);
  FailureOr<Value> squares =
      succeeded(centered) ? n.create<ms::MulOp>(*centered, *centered) : centered;
  FailureOr<Value> variance =
      succeeded(squares) ? n.create<ms::ReduceMeanOp>(*squares, ArrayRef<int64_t>(axes), true)
                         : squares;
  if (failed(variance))
    return failure();
  auto epsType = RankedTensorType::get({}, xType.getElementType());
  Value eps = ms::ConstantOp::create(
      n.builder(), n.loc(),
      DenseElementsAttr::get(epsType, FloatAttr::get(epsType.getElementType(), epsilon)));
  FailureOr<Value> shifted = n.create<ms::AddOp>(*variance, eps);
  FailureOr<Value> invStdDev = succeeded(shifted) ? n.create<ms::RsqrtOp>(*shifted) : shifted;
  if (failed(invStdDev))
    return failure();
  n.setOutput(2, *invStdDev);
  return success();
}

LogicalResult importLayerNorm(NodeImporter &n) {
  int64_t axis = n.getInt("axis", -1);
  double epsilon = n.getFloat("epsilon", 1e-5);
  if (n.hasFailed())
    return failure();
  RankedTensorType xType = n.inputType(0);
  FailureOr<int64_t> normAxis = normalizeAxis(n, axis, xType.getRank());
  if (failed(normAxis))
    return failure();
  ArrayRef<int64_t> normalized = xType.getShape().drop_front(*normAxis);

  // Scale and bias only need to broadcast to the normalized dims; ms.layer_norm wants them exact.
  auto param = [&](unsigned i) -> FailureOr<Value> {
    FailureOr<Value> v = n.input(i);
    if (failed(v) || cast<RankedTensorType>(v->getType()).getShape() == normalized)
      return v;
    return n.create<ms::ExpandOp>(*v, normalized);
  };
  FailureOr<Value> x = n.input(0), scale = param(1);
  if (failed(x) || failed(scale))
    return failure();
  Value bias;
  if (n.hasInput(2)) {
    FailureOr<Value> b = param(2);
    if (failed(b))
      return failure();
    bias = *b;
  }
  FailureOr<Value> result =
      n.create<ms::LayerNormOp>(*x, *scale, bias, static_cast<uint64_t>(axis), APFloat(epsilon));
  if (failed(result))
    return failure();
  n.setOutput(0, *result);
  if (n.hasOutput(1) || n.hasOutput(2))
    return layerNormStatistics(n, *x, *normAxis, epsilon);
  return success();
}

/// Softmax. Before opset 13 the input is coerced to 2-D at `axis` (default 1) and normalized over
/// the second dim; that equals a softmax over the last axis only when axis == rank - 1, otherwise
/// it is reshape -> softmax -> reshape. From opset 13 it is a softmax over any `axis` (default -1).
LogicalResult importSoftmax(NodeImporter &n) {
  bool coerce = n.opset() < 13;
  int64_t axis = n.getInt("axis", coerce ? 1 : -1);
  if (n.hasFailed())
    return failure();
  RankedTensorType xType = n.inputType(0);
  int64_t rank = xType.getRank();
  if (rank == 0)
    return n.error() << "expects an input of rank >= 1, got " << xType;
  FailureOr<Value> x = n.input(0);
  if (failed(x))
    return failure();
  if (!coerce) {
    return finish(n, n.create<ms::SoftmaxOp>(*x, static_cast<uint64_t>(axis)));
  }
  if (axis < -rank || axis > rank)
    return n.error() << "axis " << axis << " is out of range for rank " << rank;
  if (axis < 0)
    axis += rank;
  FailureOr<Value> result;
  if (axis == rank - 1) {
    result = n.create<ms::SoftmaxOp>(*x, static_cast<uint64_t>(-1));
  } else {
    ArrayRef<int64_t> shape = xType.getShape();
    int64_t rows = 1, cols = 1;
    for (int64_t d = 0; d < rank; ++d)
      (d < axis ? rows : cols) *= shape[d];
    FailureOr<Value> flat = n.create<ms::ReshapeOp>(*x, ArrayRef<int64_t>{rows, cols});
    if (failed(flat))
      return failure();
    FailureOr<Value> softmax = n.create<ms::SoftmaxOp>(*flat, static_cast<uint64_t>(-1));
    if (failed(softmax))
      return failure();
    result = n.create<ms::ReshapeOp>(*softmax, shape);
  }
  if (failed(result))
    return failure();
  n.setOutput(0, *result);
  return success();
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

/// Reduce*: axes are an attribute before `axesInputSince` and an optional input from then on; empty
/// axes reduce everything, or nothing with noop_with_empty_axes.
template <typename OpTy, int64_t axesInputSince>
LogicalResult importReduce(NodeImporter &n) {
  bool keepDims = n.getInt("keepdims", 1) != 0;
  bool noopWithEmptyAxes = n.getInt("noop_with_empty_axes", 0) != 0;
  if (n.hasFailed())
    return failure();
  FailureOr<std::optional<SmallVector<int64_t>>> axes =
      intsFromAttrOrInput(n, "axes", 1, axesInputSince);
  if (failed(axes))
    return failure();
  RankedTensorType xType = n.inputType(0);
  SmallVector<int64_t> normalized;
  if (*axes && !(*axes)->empty()) {
    FailureOr<SmallVector<int64_t>> checked = normalizeAxes(n, **axes, xType.getRank());
    if (failed(checked))
      return failure();
    normalized = std::move(*checked);
    llvm::sort(normalized);
  } else if (noopWithEmptyAxes) {
    n.forwardInput(0, 0);
    return success();
  }
  FailureOr<Value> x = n.input(0);
  if (failed(x))
    return failure();
  // Booleans (opset 20: max is any, min is all) reduce as uint8 0/1 and come back as i1.
  bool isBool = xType.getElementType().isInteger(1);
  constexpr bool isMaxOrMin =
      std::is_same_v<OpTy, ms::ReduceMaxOp> || std::is_same_v<OpTy, ms::ReduceMinOp>;
  if (isBool && !isMaxOrMin)
    return n.error() << "expects a numeric input, got " << xType;
  Type u8 = IntegerType::get(n.context(), 8, IntegerType::Unsigned);
  if (isBool)
    x = ms::CastOp::create(n.builder(), n.loc(), xType.clone(u8), *x).getResult();
  FailureOr<Value> result = n.create<OpTy>(*x, ArrayRef<int64_t>(normalized), keepDims);
  if (isBool && succeeded(result))
    result = ms::CastOp::create(
                 n.builder(), n.loc(),
                 cast<RankedTensorType>(result->getType()).clone(xType.getElementType()), *result)
                 .getResult();
  if (failed(result))
    return failure();
  n.setOutput(0, *result);
  return success();
}

//===----------------------------------------------------------------------===//
// Pooling
//===----------------------------------------------------------------------===//

/// MaxPool and AveragePool. 2-D and 3-D map onto the ms op (ms-decompose separates a 3-D pool
/// into two 2-D ones); 1-D runs as 2-D over [N, C, 1, L]. MaxPool on 8/16-bit integers runs on f32,
/// which holds them exactly. With `lpNorm` (LpPool, average only) the pool is
/// (kernel size * avg(|x|^p, padding counted))^(1/p): the window's sum with zero padding.
template <typename OpTy, bool isAverage>
LogicalResult importPoolOf(NodeImporter &n, std::optional<double> lpNorm) {
  RankedTensorType xType = n.inputType(0);
  int64_t rank = xType.getRank();
  if (rank < 3 || rank > 5)
    return n.unsupportedFeature() << "only 1-D, 2-D and 3-D pooling is implemented, got " << xType;
  size_t spatial = rank - 2;
  std::optional<SmallVector<int64_t>> kernel = n.getInts("kernel_shape");
  if (n.hasFailed())
    return failure();
  if (!kernel)
    return n.error() << "attribute 'kernel_shape' is required";
  if (kernel->size() != spatial || llvm::any_of(*kernel, [](int64_t k) { return k < 1; }))
    return n.error() << "kernel_shape " << listToString(*kernel) << " must have " << spatial
                     << " positive entries";
  FailureOr<SmallVector<int64_t>> strides = spatialAttr(n, "strides", spatial, 1);
  FailureOr<SmallVector<int64_t>> dilations = spatialAttr(n, "dilations", spatial, 1);
  bool ceilMode = n.getInt("ceil_mode", 0) != 0;
  bool countIncludePad = isAverage && (lpNorm || n.getInt("count_include_pad", 0) != 0);
  if (failed(strides) || failed(dilations) || n.hasFailed())
    return failure();
  if (lpNorm && !isa<FloatType>(xType.getElementType()))
    return n.error() << "expects a float input, got " << xType;
  bool wantIndices = !isAverage && n.hasOutput(1);
  bool columnMajor = !isAverage && n.getInt("storage_order", 0) != 0;
  if (wantIndices && spatial != 2)
    return n.unsupportedFeature() << "the Indices output is implemented for 2-D pooling only";
  if (n.hasFailed() || failed(n.onlyOutputs(wantIndices ? 2 : 1, "not an output of pooling")))
    return failure();
  FailureOr<SmallVector<int64_t>> pads =
      windowPads(n, xType.getShape().drop_front(2), *kernel, *strides, *dilations);
  if (failed(pads))
    return failure();
  // LpPool sums |x|^p over the window's elements inside the input: an average that counts the
  // padding, times the taps. A ceil-mode window that runs past the end padding would be divided
  // by fewer taps, so |x|^p is padded at the end by that overhang (zeros add nothing to the sum)
  // and pooled without ceil mode: full windows, the ceil-mode output size.
  SmallVector<int64_t> overhang(2 * (spatial + 2), 0);
  bool overhangs = false;
  if (lpNorm && ceilMode) {
    ArrayRef<int64_t> inShape = xType.getShape().drop_front(2);
    for (size_t i = 0; i < spatial; ++i) {
      int64_t before = (*pads)[i], after = (*pads)[spatial + i];
      int64_t out = ms::windowOutputSize(inShape[i], before, after, (*kernel)[i], (*strides)[i],
                                         (*dilations)[i], /*ceilMode=*/true);
      if (ShapedType::isDynamic(out))
        return n.unsupportedFeature() << "ceil_mode = 1 needs static spatial sizes, got " << xType;
      int64_t reach = (out - 1) * (*strides)[i] + (*dilations)[i] * ((*kernel)[i] - 1) + 1;
      int64_t extra = std::max<int64_t>(0, reach - (inShape[i] + before + after));
      overhang[spatial + 2 + 2 + i] = extra;
      overhangs |= extra > 0;
    }
    ceilMode = false;
  }
  FailureOr<Value> x = n.input(0);
  if (failed(x))
    return failure();
  Type elementType = xType.getElementType();
  auto scalar = [&](double v) -> Value {
    return ms::ConstantOp::create(n.builder(), n.loc(),
                                  KnownTensor::splatOf({}, elementType, v).toAttr());
  };
  if (lpNorm) {
    x = n.create<ms::AbsOp>(*x);
    if (succeeded(x) && *lpNorm == 2.0)
      x = n.create<ms::MulOp>(*x, *x);
    else if (succeeded(x) && *lpNorm != 1.0)
      x = n.create<ms::PowOp>(*x, scalar(*lpNorm));
    if (succeeded(x) && overhangs)
      x = n.create<ms::PadOp>(*x, ArrayRef<int64_t>(overhang), ms::PadMode::constant,
                              APFloat(0.0));
    if (failed(x))
      return failure();
  }

  auto intType = dyn_cast<IntegerType>(elementType);
  bool viaFloat = !isAverage && intType && intType.getWidth() > 1 && intType.getWidth() <= 16;
  if (viaFloat)
    x = ms::CastOp::create(n.builder(), n.loc(), xType.clone(n.builder().getF32Type()), *x)
            .getResult();

  // One 2-D ms pool of a 4-D value.
  auto pool = [&](Value in, ArrayRef<int64_t> k, ArrayRef<int64_t> st, ArrayRef<int64_t> p,
                  ArrayRef<int64_t> d) -> FailureOr<Value> {
    if constexpr (isAverage)
      return n.create<OpTy>(in, k, st, p, d, ceilMode, countIncludePad);
    else
      return n.create<OpTy>(in, k, st, p, d, ceilMode);
  };
  auto reshape = [&](FailureOr<Value> in, ArrayRef<int64_t> shape) -> FailureOr<Value> {
    if (failed(in))
      return in;
    return n.create<ms::ReshapeOp>(*in, shape);
  };
  auto shapeOf = [](Value v) { return cast<RankedTensorType>(v.getType()).getShape(); };
  ArrayRef<int64_t> shape = cast<RankedTensorType>(x->getType()).getShape();
  SmallVector<int64_t> &k = *kernel, &st = *strides, &d = *dilations, &p = *pads;
  FailureOr<Value> result;
  if (spatial == 1) {
    result = reshape(x, {shape[0], shape[1], 1, shape[2]});
    if (succeeded(result))
      result = pool(*result, {1, k[0]}, {1, st[0]}, {0, p[0], 0, p[1]}, {1, d[0]});
    if (succeeded(result))
      result = reshape(result, {shape[0], shape[1], shapeOf(*result)[3]});
  } else if (spatial == 2) {
    result = pool(*x, k, st, p, d);
    if (succeeded(result) && wantIndices) {
      FailureOr<Value> indices = maxPoolIndices(n, *x, *result, k, st, p, d, columnMajor);
      if (failed(indices))
        return failure();
      n.setOutput(1, *indices);
    }
  } else {
    result = pool(*x, k, st, p, d); // 5-D: ms-decompose separates it into two 2-D pools
  }
  if (succeeded(result) && lpNorm) {
    int64_t taps = 1;
    for (int64_t size : k)
      taps *= size;
    result = n.create<ms::MulOp>(*result, scalar(static_cast<double>(taps)));
    if (succeeded(result) && *lpNorm == 2.0)
      result = n.create<ms::SqrtOp>(*result);
    else if (succeeded(result) && *lpNorm != 1.0)
      result = n.create<ms::PowOp>(*result, scalar(1.0 / *lpNorm));
  }
  if (failed(result))
    return failure();
  if (viaFloat)
    result =
        ms::CastOp::create(n.builder(), n.loc(),
                           cast<RankedTensorType>(result->getType()).clone(elementType), *result)
            .getResult();
  n.setOutput(0, *result);
  return success();
}

template <typename OpTy, bool isAverage>
LogicalResult importPool(NodeImporter &n) {
  return importPoolOf<OpTy, isAverage>(n, std::nullopt);
}

/// LpPool: the p-norm of each window (p an integer >= 1, default 2).
LogicalResult importLpPool(NodeImporter &n) {
  int64_t p = n.getInt("p", 2);
  if (n.hasFailed())
    return failure();
  if (p < 1)
    return n.error() << "p = " << p << " must be >= 1";
  return importPoolOf<ms::AvgPoolOp, true>(n, static_cast<double>(p));
}

LogicalResult importGlobalAveragePool(NodeImporter &n) {
  FailureOr<Value> x = n.input(0);
  if (failed(x))
    return failure();
  return finish(n, n.create<ms::GlobalAvgPoolOp>(*x));
}

} // namespace

void mlir::mie::onnx_import::registerNNOps(OnnxOpTable &table) {
  table["Conv"] = {importConv, 2, 3};
  table["Gemm"] = {importGemm, 2, 3};
  table["MatMul"] = {importMatMul, 2, 2};
  table["BatchNormalization"] = {importBatchNorm, 5, 5};
  table["LayerNormalization"] = {importLayerNorm, 2, 3, 17};
  table["Softmax"] = {importSoftmax, 1, 1};
  table["MaxPool"] = {importPool<ms::MaxPoolOp, false>, 1, 1};
  table["AveragePool"] = {importPool<ms::AvgPoolOp, true>, 1, 1};
  table["LpPool"] = {importLpPool, 1, 1};
  table["GlobalAveragePool"] = {importGlobalAveragePool, 1, 1};
  table["ReduceSum"] = {importReduce<ms::ReduceSumOp, 13>, 1, 2};
  table["ReduceMean"] = {importReduce<ms::ReduceMeanOp, 18>, 1, 2};
  table["ReduceMax"] = {importReduce<ms::ReduceMaxOp, 18>, 1, 2};
  table["ReduceMin"] = {importReduce<ms::ReduceMinOp, 18>, 1, 2};
  table["ReduceProd"] = {importReduce<ms::ReduceProdOp, 18>, 1, 2};
}
