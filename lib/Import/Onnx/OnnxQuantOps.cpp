//===- OnnxQuantOps.cpp - QuantizeLinear, DequantizeLinear and the integer ops -===//
//
// The ONNX quantization ops, built out of existing ms ops with ONNX's reference semantics:
//
// - QuantizeLinear and DequantizeLinear: ms.quantize_linear and ms.dequantize_linear, which
//   `ms-decompose` expands (DecomposeQuantPatterns.cpp). A DequantizeLinear of model data (a QDQ
//   model's int8 weights and int32 biases) is evaluated here into a new f32 resource, so no
//   weight is dequantized at run time; either op on known values is expanded here, folding.
// - DynamicQuantizeLinear: ms.dynamic_quantize_linear, which `ms-decompose` expands
//   (DecomposeQuantPatterns.cpp).
// - ConvInteger, MatMulInteger, QLinearConv, QLinearMatMul: the zero points are subtracted and the
//   product computed in f64, where every partial sum of 8-bit products is an exact integer (|sum| <
//   2^53), so the int32 results are exact whatever the summation order. The QLinear ops then
//   requantize as the ONNX reference does: acc * (scale_a * scale_b / scale_y), the multiplier
//   computed in the scales' type, plus the output zero point, rounded half to even and saturated.
//
//===----------------------------------------------------------------------===//

#include "OnnxCompositeBuilder.h"

#include "dialects/ms/IR/MsOps.h"
#include "dialects/ms/IR/MsShapeUtils.h"

#include "mlir/IR/DialectResourceBlobManager.h"

using namespace mlir;
using namespace mlir::mie::onnx_import;
using namespace mlir::mie::onnx_import::composite;

namespace {

/// saturate(round_half_even(scaled) + zeroPoint) as `qType`, from the float `scaled` (acc *
/// multiplier): the QLinear ops' requantization, as ms.quantize_linear's expansion writes it.
Value requantize(Ops &o, Value scaled, Value zeroPoint, Type qType) {
  if (o.failed())
    return Value();
  std::optional<std::pair<double, double>> range = ms::quantRange(qType);
  Type computeType = typeOf(scaled).getElementType();
  // Rounding is exact in any float type; the zero point and the saturation bounds need f32.
  if (!computeType.isF32() && !computeType.isF64())
    computeType = Float32Type::get(scaled.getContext());
  Value rounded = o.cast(o.op<ms::RoundOp>(scaled), computeType);
  if (zeroPoint)
    rounded = o.add(rounded, o.cast(zeroPoint, computeType));
  Value clipped =
      o.op<ms::ClipOp>(rounded, FloatAttr::get(Float64Type::get(scaled.getContext()), range->first),
                       FloatAttr::get(Float64Type::get(scaled.getContext()), range->second));
  return o.cast(clipped, qType);
}

//===----------------------------------------------------------------------===//
// QuantizeLinear, DequantizeLinear, DynamicQuantizeLinear
//===----------------------------------------------------------------------===//

/// Input `i`, a scale or zero point. Small model data that the expansion reshapes (anything but a
/// scalar per tensor or a 1-D parameter per axis of a 1-D input) is passed as its value, a dense
/// constant: ms-decompose then folds that reshape as the importer did when it built the expansion.
FailureOr<Value> paramInput(NodeImporter &n, unsigned i, int64_t axis, int64_t blockSize) {
  using Kind = ms::QuantParamLayout::Kind;
  FailureOr<Value> v = n.input(i);
  auto constant = succeeded(v) ? v->getDefiningOp<ms::ConstantOp>() : ms::ConstantOp();
  if (!constant || !isa<DenseResourceElementsAttr>(constant.getValue()))
    return v;
  auto value = dyn_cast_or_null<DenseElementsAttr>(n.constantValue(*v));
  FailureOr<ms::QuantParamLayout> layout = ms::quantParamLayout(
      ms::InferDiag(std::nullopt, ""), n.inputType(0), n.inputType(i), axis, blockSize, "");
  if (!value || failed(layout) ||
      (layout->kind == Kind::Tensor && n.inputType(i).getRank() == 0) ||
      (layout->kind == Kind::Axis && n.inputType(0).getRank() == 1))
    return v;
  return ms::ConstantOp::create(n.builder(), n.loc(), value).getResult();
}

/// The node's quantize or dequantize op, built on `inputs`; evaluated right away (its expansion
/// folded as it is built) when every input is model data, so that its value stays known to the
/// nodes after it (a fake-quantized weight's DequantizeLinear folds then).
template <typename OpTy, typename... Args>
LogicalResult finishQuantOp(NodeImporter &n, ArrayRef<FailureOr<Value>> inputs, Args &&...args) {
  if (llvm::any_of(inputs, [](FailureOr<Value> v) { return failed(v); }))
    return failure();
  Value zeroPoint = inputs.size() > 2 ? *inputs[2] : Value();
  FailureOr<Operation *> op =
      n.createOp<OpTy>(*inputs[0], *inputs[1], zeroPoint, std::forward<Args>(args)...);
  if (failed(op))
    return failure();
  n.setOutput(0, n.allInputsKnown() ? n.expandKnown(*op) : (*op)->getResult(0));
  return success();
}

LogicalResult importQuantizeLinear(NodeImporter &n) {
  Type qType;
  if (n.hasInput(2)) {
    qType = n.inputType(2).getElementType();
  } else if (n.hasAttr("output_dtype")) {
    qType = elementTypeFor(n.context(), n.getInt("output_dtype", 0));
    if (!qType)
      return n.unsupportedFeature()
             << "output_dtype " << dataTypeName(n.getInt("output_dtype", 0)) << " is not supported";
  } else {
    qType = IntegerType::get(n.context(), 8, IntegerType::Unsigned);
  }
  if (!ms::isQuantFloat(qType) && (!ms::quantRange(qType) || qType.getIntOrFloatBitWidth() == 32))
    return n.unsupportedFeature() << "quantizing to " << qType << " is not supported";
  int64_t axis = n.getInt("axis", 1), blockSize = n.getInt("block_size", 0);
  bool saturate = n.getInt("saturate", 1) != 0;
  if (n.hasFailed())
    return failure();
  SmallVector<FailureOr<Value>> inputs = {n.input(0), paramInput(n, 1, axis, blockSize)};
  if (n.hasInput(2))
    inputs.push_back(paramInput(n, 2, axis, blockSize));
  return finishQuantOp<ms::QuantizeLinearOp>(n, inputs, qType, static_cast<uint64_t>(axis),
                                             static_cast<uint64_t>(blockSize), saturate);
}

/// The dequantized values of model data `x` as f32 when it is a constant (a weight or bias of a QDQ
/// model) and its scale and zero point are constants too; null otherwise, and where the
/// parameters are invalid (ms.dequantize_linear's verifier then reports them).
Value foldDequantize(NodeImporter &n, Value x, int64_t axis, int64_t blockSize) {
  RankedTensorType xType = typeOf(x);
  if (!n.inputType(1).getElementType().isF32() || !xType.hasStaticShape() ||
      !isa<IntegerType>(xType.getElementType()) || !ms::quantRange(xType.getElementType()))
    return Value();
  auto constant = x.getDefiningOp<ms::ConstantOp>();
  FailureOr<ms::QuantParamLayout> layout = ms::quantParamLayout(
      ms::InferDiag(std::nullopt, ""), xType, n.inputType(1), axis, blockSize, "");
  if (!constant || failed(layout) ||
      (n.hasInput(2) && (n.inputType(2).getElementType() != xType.getElementType() ||
                         (n.inputType(2).getShape() != n.inputType(1).getShape() &&
                          n.inputType(2).getNumElements() * n.inputType(1).getNumElements() != 1))))
    return Value();
  // Scale and zero point: small model data (the importer reads them as known values).
  auto readParam = [&](unsigned i) -> std::optional<SmallVector<double>> {
    if (!n.hasInput(i))
      return SmallVector<double>{0.0};
    const KnownTensor *known = n.constantData(i);
    if (!known)
      return std::nullopt;
    SmallVector<double> values;
    for (int64_t k = 0; k < known->numElements(); ++k)
      values.push_back(known->valueAt(k));
    return values;
  };
  std::optional<SmallVector<double>> scale = readParam(1), zeroPoint = readParam(2);
  if (!scale || !zeroPoint)
    return Value();
  int64_t count = xType.getNumElements();
  std::vector<float> values(count);
  std::vector<double> data;
  if (auto dense = dyn_cast<DenseIntElementsAttr>(constant.getValue())) {
    bool isUnsigned = xType.getElementType().isUnsignedInteger();
    for (const APInt &v : dense.getValues<APInt>())
      data.push_back(isUnsigned ? (double)v.getZExtValue() : (double)v.getSExtValue());
  } else if (auto resource = dyn_cast<DenseResourceElementsAttr>(constant.getValue())) {
    if (!resource.getRawHandle().getBlob())
      return Value();
    ArrayRef<char> bytes = resource.getData();
    unsigned width = (xType.getElementTypeBitWidth() + 7) / 8;
    if ((int64_t)bytes.size() != count * (int64_t)width)
      return Value();
    KnownTensor decoded = knownFromBytes(xType, bytes);
    data.reserve(count);
    for (int64_t i = 0; i < count; ++i)
      data.push_back((double)decoded.intAt(i));
  } else {
    return Value();
  }
  if ((int64_t)data.size() != count)
    return Value();
  // The parameter index of element i: per tensor 0; per axis its index a along the axis; per
  // block the same multi-index with a / blockSize along the axis.
  ArrayRef<int64_t> shape = xType.getShape();
  int64_t inner = 1;
  for (int64_t d = layout->axis + 1; d < xType.getRank(); ++d)
    inner *= shape[d];
  int64_t extent = xType.getRank() ? shape[layout->axis] : 1;
  int64_t blocks = layout->kind == ms::QuantParamLayout::Kind::Block
                       ? (extent + layout->blockSize - 1) / layout->blockSize
                       : 0;
  for (int64_t i = 0; i < count; ++i) {
    int64_t p = 0;
    if (layout->kind != ms::QuantParamLayout::Kind::Tensor) {
      int64_t a = (i / inner) % extent;
      if (layout->kind == ms::QuantParamLayout::Kind::Axis) {
        p = a;
      } else {
        int64_t outer = i / (inner * extent);
        p = (outer * blocks + a / layout->blockSize) * inner + i % inner;
      }
    }
    float s = (float)(*scale)[scale->size() == 1 ? 0 : p];
    float z = (float)(*zeroPoint)[zeroPoint->size() == 1 ? 0 : p];
    // (float(x) - float(zp)) * scale in f32, as the reference computes it.
    values[i] = ((float)data[i] - z) * s;
  }
  AsmResourceBlob blob = HeapAsmResourceBlob::allocateAndCopyWithAlign(
      ArrayRef<char>(reinterpret_cast<const char *>(values.data()), values.size() * sizeof(float)),
      alignof(float), /*dataIsMutable=*/false);
  std::string name = "dequantized";
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(constant.getValue()))
    name = (resource.getRawHandle().getKey() + ".dequantized").str();
  auto attr = DenseResourceElementsAttr::get(xType.clone(Float32Type::get(n.context())), name,
                                             std::move(blob));
  auto folded = ms::ConstantOp::create(n.builder(), n.loc(), attr);
  // int8 weights quantized per tensor or per axis remember their scales and zero points, so that
  // ms-integer-qdq can run the product on the integers (the values are (q - zero point) * scale).
  if (xType.getElementType().isSignlessInteger(8) &&
      layout->kind != ms::QuantParamLayout::Kind::Block) {
    Builder b(n.context());
    SmallVector<float> scales(scale->begin(), scale->end());
    SmallVector<int32_t> zeros;
    for (double z : *zeroPoint)
      zeros.push_back((int32_t)z);
    auto vectorType = [&](Type et, size_t size) {
      return RankedTensorType::get({(int64_t)size}, et);
    };
    folded->setAttr(
        "ms.quantization",
        b.getDictionaryAttr(
            {b.getNamedAttr(
                 "axis", b.getI64IntegerAttr(
                             layout->kind == ms::QuantParamLayout::Kind::Axis ? layout->axis : -1)),
             b.getNamedAttr("scale",
                            DenseElementsAttr::get(vectorType(b.getF32Type(), scales.size()),
                                                   ArrayRef<float>(scales))),
             b.getNamedAttr("zero_point",
                            DenseElementsAttr::get(vectorType(b.getI32Type(), zeros.size()),
                                                   ArrayRef<int32_t>(zeros)))}));
  }
  return folded;
}

LogicalResult importDequantizeLinear(NodeImporter &n) {
  Type et = n.inputType(0).getElementType();
  if (isa<IntegerType>(et) && !ms::quantRange(et))
    return n.unsupportedFeature() << "dequantizing " << et << " is not supported";
  int64_t axis = n.getInt("axis", 1), blockSize = n.getInt("block_size", 0);
  FailureOr<Value> x = n.input(0);
  if (n.hasFailed() || failed(x))
    return failure();
  if (Value folded = foldDequantize(n, *x, axis, blockSize)) {
    n.setOutput(0, folded);
    return success();
  }
  // Constants go to the top of the function in the order they are first read: the expansion
  // reads the zero point before the scale.
  FailureOr<Value> zeroPoint =
      n.hasInput(2) ? paramInput(n, 2, axis, blockSize) : FailureOr<Value>(Value());
  FailureOr<Value> scale = paramInput(n, 1, axis, blockSize);
  return finishQuantOp<ms::DequantizeLinearOp>(
      n, {x, scale, zeroPoint}, static_cast<uint64_t>(axis), static_cast<uint64_t>(blockSize));
}

/// DynamicQuantizeLinear as ms.dynamic_quantize_linear (uint8 values, their scale and zero point).
LogicalResult importDynamicQuantizeLinear(NodeImporter &n) {
  FailureOr<Value> x = n.input(0);
  if (failed(x))
    return failure();
  return finish(n, n.createVariadicOp<ms::DynamicQuantizeLinearOp>(*x));
}

//===----------------------------------------------------------------------===//
// Integer convolution and matrix product
//===----------------------------------------------------------------------===//

/// Input `i` (8-bit integers) minus its zero point (input `zpIndex`, optional) in f64. A 1-D zero
/// point of more than one element applies along `zpAxis` of the input. Null (reported at the node)
/// on failure: callers check the result.
Value centered(Ops &o, NodeImporter &n, unsigned i, unsigned zpIndex, int64_t zpAxis) {
  Type f64 = Float64Type::get(n.context());
  Value v = o.cast(o.in(i), f64);
  if (!n.hasInput(zpIndex) || o.failed())
    return v;
  RankedTensorType type = n.inputType(i), zpType = n.inputType(zpIndex);
  Value zp = o.cast(o.in(zpIndex), f64);
  if (zpType.getNumElements() == 1) {
    zp = o.reshape(zp, {});
  } else {
    if (zpType.getRank() != 1 || zpAxis < 0 || zpAxis >= type.getRank() ||
        zpType.getDimSize(0) != type.getDimSize(zpAxis)) {
      n.error() << "zero point " << zpType << " does not match " << type;
      return Value();
    }
    SmallVector<int64_t> shape(type.getRank() - zpAxis, 1);
    shape[0] = zpType.getDimSize(0);
    zp = o.reshape(zp, shape);
  }
  return o.sub(v, zp);
}

/// Checks that input `i` is 8-bit and its zero point (input `zp`, optional) has its type.
LogicalResult checkIntegerOperand(NodeImporter &n, unsigned i, unsigned zp, StringRef what) {
  Type et = n.inputType(i).getElementType();
  if (!et.isInteger(8))
    return n.error() << what << " must be int8 or uint8, got " << n.inputType(i);
  if (n.hasInput(zp) && n.inputType(zp).getElementType() != et)
    return n.error() << what << "'s zero point " << n.inputType(zp) << " must be " << et;
  return success();
}

/// The matmul's per-row (lhs, [M]) / per-column (rhs, [N]) axis of a zero point or scale.
int64_t rowAxis(RankedTensorType t) { return t.getRank() >= 2 ? t.getRank() - 2 : -1; }
int64_t columnAxis(RankedTensorType t) { return t.getRank() >= 2 ? t.getRank() - 1 : -1; }

LogicalResult importMatMulInteger(NodeImporter &n) {
  if (failed(checkIntegerOperand(n, 0, 2, "A")) || failed(checkIntegerOperand(n, 1, 3, "B")))
    return failure();
  Ops o(n);
  Value a = centered(o, n, 0, 2, rowAxis(n.inputType(0)));
  Value b = centered(o, n, 1, 3, columnAxis(n.inputType(1)));
  if (!a || !b)
    return failure();
  Value product = o.op<ms::MatMulOp>(a, b, TypeAttr());
  return finish(n, o, o.cast(product, IntegerType::get(n.context(), 32)));
}

LogicalResult importConvInteger(NodeImporter &n) {
  if (failed(checkIntegerOperand(n, 0, 2, "x")) || failed(checkIntegerOperand(n, 1, 3, "w")))
    return failure();
  if (n.hasInput(2) && n.inputType(2).getNumElements() != 1)
    return n.error() << "x_zero_point must be a scalar, got " << n.inputType(2);
  Ops o(n);
  Value x = centered(o, n, 0, 2, 0);
  Value w = centered(o, n, 1, 3, 0);
  if (!x || !w)
    return failure();
  if (o.failed())
    return failure();
  FailureOr<Value> conv = buildConvFromAttrs(n, x, w, Value());
  if (failed(conv))
    return failure();
  return finish(n, o, o.cast(*conv, IntegerType::get(n.context(), 32)));
}

/// acc * (scaleA * scaleB / scaleY) + zeroPointY, rounded and saturated to y_zero_point's type.
/// `scaleA`/`scaleB` are already shaped to broadcast against `acc` (f64).
Value requantizeAccumulator(Ops &o, NodeImporter &n, Value acc, Value scaleA, Value scaleB,
                            unsigned yScale, unsigned yZeroPoint) {
  if (o.failed())
    return Value();
  Value yScaleValue = o.reshape(o.in(yScale), {});
  Value multiplier = o.div(o.mul(scaleA, scaleB), yScaleValue);
  Type f64 = Float64Type::get(n.context());
  Value scaled = o.mul(acc, o.cast(multiplier, f64));
  Type qType = n.hasInput(yZeroPoint) ? n.inputType(yZeroPoint).getElementType()
                                      : IntegerType::get(n.context(), 8, IntegerType::Unsigned);
  Value zp = n.hasInput(yZeroPoint) ? o.reshape(o.in(yZeroPoint), {}) : Value();
  return requantize(o, scaled, zp, qType);
}

/// A scale input: a scalar, or a 1-D one along `axis` of an operand of `rank` dims (reshaped to
/// [C, 1...] so that it broadcasts against the result).
Value scaleInput(Ops &o, NodeImporter &n, unsigned i, int64_t axis, int64_t rank) {
  RankedTensorType type = n.inputType(i);
  Value v = o.in(i);
  if (type.getNumElements() == 1 || o.failed())
    return o.reshape(v, {});
  if (type.getRank() != 1 || axis < 0) {
    n.error() << "scale " << type << " must be a scalar or 1-D";
    return Value();
  }
  SmallVector<int64_t> shape(rank - axis, 1);
  shape[0] = type.getDimSize(0);
  return o.reshape(v, shape);
}

LogicalResult checkScales(NodeImporter &n, ArrayRef<unsigned> scales) {
  Type et = n.inputType(scales[0]).getElementType();
  for (unsigned i : scales)
    if (!isa<FloatType>(n.inputType(i).getElementType()) || n.inputType(i).getElementType() != et)
      return n.error() << "scales must share one floating-point type, got "
                       << n.inputType(scales[0]) << " and " << n.inputType(i);
  if (n.inputType(scales.back()).getNumElements() != 1)
    return n.error() << "y_scale must be a scalar, got " << n.inputType(scales.back());
  return success();
}

LogicalResult importQLinearMatMul(NodeImporter &n) {
  if (failed(checkIntegerOperand(n, 0, 2, "a")) || failed(checkIntegerOperand(n, 3, 5, "b")) ||
      failed(checkScales(n, {1, 4, 6})))
    return failure();
  Ops o(n);
  RankedTensorType aType = n.inputType(0), bType = n.inputType(3);
  Value a = centered(o, n, 0, 2, rowAxis(aType));
  Value b = centered(o, n, 3, 5, columnAxis(bType));
  if (!a || !b)
    return failure();
  Value acc = o.op<ms::MatMulOp>(a, b, TypeAttr());
  Value scaleA = scaleInput(o, n, 1, rowAxis(aType), aType.getRank());
  Value scaleB = scaleInput(o, n, 4, columnAxis(bType), bType.getRank());
  return finish(n, o, requantizeAccumulator(o, n, acc, scaleA, scaleB, 6, 7));
}

LogicalResult importQLinearConv(NodeImporter &n) {
  if (failed(checkIntegerOperand(n, 0, 2, "x")) || failed(checkIntegerOperand(n, 3, 5, "w")) ||
      failed(checkScales(n, {1, 4, 6})))
    return failure();
  if (n.inputType(2).getNumElements() != 1)
    return n.error() << "x_zero_point must be a scalar, got " << n.inputType(2);
  Ops o(n);
  Value x = centered(o, n, 0, 2, 0);
  Value w = centered(o, n, 3, 5, 0);
  if (!x || !w)
    return failure();
  Value bias;
  if (n.hasInput(8)) {
    if (!n.inputType(8).getElementType().isInteger(32))
      return n.error() << "B must be int32, got " << n.inputType(8);
    bias = o.cast(o.in(8), Float64Type::get(n.context()));
  }
  if (o.failed())
    return failure();
  FailureOr<Value> acc = buildConvFromAttrs(n, x, w, bias);
  if (failed(acc))
    return failure();
  // A per-output-channel w_scale [M] against the [N, M, H, W] result.
  Value scaleX = scaleInput(o, n, 1, -1, 0);
  Value scaleW = scaleInput(o, n, 4, 1, 4);
  return finish(n, o, requantizeAccumulator(o, n, *acc, scaleX, scaleW, 6, 7));
}

} // namespace

void mlir::mie::onnx_import::registerQuantOps(OnnxOpTable &table) {
  table["QuantizeLinear"] = {importQuantizeLinear, 2, 3, 10};
  table["DequantizeLinear"] = {importDequantizeLinear, 2, 3, 10};
  table["DynamicQuantizeLinear"] = {importDynamicQuantizeLinear, 1, 1, 11};
  table["MatMulInteger"] = {importMatMulInteger, 2, 4, 10};
  table["ConvInteger"] = {importConvInteger, 2, 4, 10};
  table["QLinearMatMul"] = {importQLinearMatMul, 8, 8, 10};
  table["QLinearConv"] = {importQLinearConv, 8, 9, 10};
}
