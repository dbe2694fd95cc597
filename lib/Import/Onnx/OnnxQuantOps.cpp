//===- OnnxQuantOps.cpp - QuantizeLinear, DequantizeLinear and the integer ops -===//
//
// The ONNX quantization ops, built out of existing ms ops with ONNX's reference semantics:
//
// - QuantizeLinear: saturate(round_half_even(x / scale) + zero_point), per tensor, per axis or per
//   block; DequantizeLinear: (x - zero_point) * scale, computed in f32 and converted to the scale's
//   type. A DequantizeLinear of model data (a QDQ model's int8 weights and int32 biases) is
//   evaluated here into a new f32 resource, so no weight is dequantized at run time.
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

#include "mlir/IR/DialectResourceBlobManager.h"

#include <cmath>

using namespace mlir;
using namespace mlir::mie::onnx_import;
using namespace mlir::mie::onnx_import::composite;

namespace {

/// The range of a quantized integer type, or nullopt when it is not one ONNX quantizes to here.
std::optional<std::pair<double, double>> quantRange(Type type) {
  auto intType = dyn_cast<IntegerType>(type);
  if (!intType)
    return std::nullopt;
  unsigned width = intType.getWidth();
  if (width != 2 && width != 4 && width != 8 && width != 16 && width != 32)
    return std::nullopt;
  if (intType.isUnsigned())
    return std::make_pair(0.0, std::ldexp(1.0, width) - 1.0);
  return std::make_pair(-std::ldexp(1.0, width - 1), std::ldexp(1.0, width - 1) - 1.0);
}

/// Whether `type` is an 8-bit float ONNX quantizes to (the E4M3 and E5M2 kinds) or FLOAT4E2M1:
/// the quantized value is x / scale converted to it (saturating or not) rather than rounded and
/// clipped to an integer range.
bool isQuantFloat(Type type) {
  return isa<Float8E4M3FNType, Float8E4M3FNUZType, Float8E5M2Type, Float8E5M2FNUZType,
             Float4E2M1FNType>(type);
}

/// Where a quantization parameter (scale or zero point) of a tensor `x` of `xType` applies: per
/// tensor (a scalar or one-element 1-D tensor), per axis (1-D with x's extent along `axis`) or per
/// block (x's rank, ceil(extent / blockSize) along `axis`, x's extent elsewhere).
struct ParamLayout {
  enum class Kind { Tensor, Axis, Block } kind = Kind::Tensor;
  int64_t axis = 0;
  int64_t blockSize = 0;
};

FailureOr<ParamLayout> paramLayout(NodeImporter &n, RankedTensorType xType,
                                   RankedTensorType paramType, StringRef what) {
  ParamLayout layout;
  int64_t blockSize = n.getInt("block_size", 0);
  int64_t axisAttr = n.getInt("axis", 1);
  if (n.hasFailed())
    return failure();
  if (paramType.getRank() == 0 ||
      (paramType.getRank() == 1 && paramType.getDimSize(0) == 1 && blockSize == 0))
    return layout;
  FailureOr<int64_t> axis = normalizeAxis(n, axisAttr, xType.getRank());
  if (failed(axis))
    return failure();
  layout.axis = *axis;
  int64_t extent = xType.getDimSize(*axis);
  if (blockSize == 0) {
    if (paramType.getRank() != 1 || paramType.getDimSize(0) != extent)
      return n.error() << what << " " << paramType << " must be a scalar or 1-D with " << extent
                       << " elements (the input's extent along axis " << *axis << ")";
    layout.kind = ParamLayout::Kind::Axis;
    return layout;
  }
  if (blockSize < 0)
    return n.error() << "block_size must be >= 0, got " << blockSize;
  if (paramType.getRank() != xType.getRank())
    return n.error() << what << " " << paramType << " must have the input's rank for block_size "
                     << blockSize;
  for (int64_t d = 0; d < xType.getRank(); ++d) {
    int64_t expected =
        d == *axis ? (xType.getDimSize(d) + blockSize - 1) / blockSize : xType.getDimSize(d);
    if (paramType.getDimSize(d) != expected)
      return n.error() << what << " " << paramType << " does not match blocks of " << blockSize
                       << " along axis " << *axis << " of " << xType;
  }
  layout.kind = ParamLayout::Kind::Block;
  layout.blockSize = blockSize;
  return layout;
}

/// `param` made to broadcast against x of `xType`: a per-axis [C] becomes [1.., C, ..1]; a blocked
/// one is repeated `blockSize` times along the axis (reshape, expand, reshape, slice).
Value broadcastParam(Ops &o, Value param, RankedTensorType xType, const ParamLayout &layout) {
  if (o.failed())
    return Value();
  int64_t rank = xType.getRank();
  switch (layout.kind) {
  case ParamLayout::Kind::Tensor:
    return o.reshape(param, {});
  case ParamLayout::Kind::Axis: {
    SmallVector<int64_t> shape(rank, 1);
    shape[layout.axis] = xType.getDimSize(layout.axis);
    return o.reshape(param, shape);
  }
  case ParamLayout::Kind::Block: {
    ArrayRef<int64_t> pShape = typeOf(param).getShape();
    int64_t blocks = pShape[layout.axis];
    SmallVector<int64_t> split(pShape.begin(), pShape.end());
    split.insert(split.begin() + layout.axis + 1, 1);
    SmallVector<int64_t> repeated = split;
    repeated[layout.axis + 1] = layout.blockSize;
    SmallVector<int64_t> merged(pShape.begin(), pShape.end());
    merged[layout.axis] = blocks * layout.blockSize;
    Value v = o.reshape(o.expand(o.reshape(param, split), repeated), merged);
    if (merged[layout.axis] == xType.getDimSize(layout.axis))
      return v;
    SmallVector<int64_t> starts(rank, 0), steps(rank, 1);
    return o.slice(v, starts, xType.getShape(), steps);
  }
  }
  return Value();
}

/// Whether a zero point fits its scale: the same shape, or one element each (a scalar next to a
/// [1] tensor, as quantizers write them).
bool sameParamShape(RankedTensorType zeroPoint, RankedTensorType scale) {
  return zeroPoint.getShape() == scale.getShape() ||
         (zeroPoint.getNumElements() == 1 && scale.getNumElements() == 1);
}

/// saturate(round_half_even(scaled) + zeroPoint) as `qType`, from the float `scaled` (x / scale).
Value requantize(Ops &o, Value scaled, Value zeroPoint, Type qType) {
  if (o.failed())
    return Value();
  std::optional<std::pair<double, double>> range = quantRange(qType);
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

LogicalResult importQuantizeLinear(NodeImporter &n) {
  RankedTensorType xType = n.inputType(0), scaleType = n.inputType(1);
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
  const bool toFloat = isQuantFloat(qType);
  if (!toFloat && (!quantRange(qType) || qType.getIntOrFloatBitWidth() == 32))
    return n.unsupportedFeature() << "quantizing to " << qType << " is not supported";
  const bool saturate = n.getInt("saturate", 1) != 0;
  if (!isa<FloatType>(scaleType.getElementType()))
    return n.error() << "y_scale must be floating-point, got " << scaleType;
  FailureOr<ParamLayout> layout = paramLayout(n, xType, scaleType, "y_scale");
  if (failed(layout))
    return failure();
  if (n.hasInput(2) && !sameParamShape(n.inputType(2), scaleType))
    return n.error() << "y_zero_point " << n.inputType(2) << " must have y_scale's shape "
                     << scaleType;
  Ops o(n);
  Value x = o.in(0);
  // x / scale in x's type, as the reference divides (int32 inputs are divided in f32).
  Type floatType = isa<FloatType>(xType.getElementType()) ? xType.getElementType()
                                                          : Float32Type::get(n.context());
  x = o.cast(x, floatType);
  Value scale = o.cast(broadcastParam(o, o.in(1), xType, *layout), floatType);
  Value zeroPoint = n.hasInput(2) ? broadcastParam(o, o.in(2), xType, *layout) : Value();
  if (toFloat) {
    // ONNX's reference: x / scale converted to the 8-bit float (saturating unless saturate = 0),
    // its zero point (which must be 0) not read; FLOAT4E2M1 adds its zero point and always
    // saturates, having neither infinity nor NaN.
    Value scaled = o.div(x, scale);
    if (zeroPoint && isa<Float4E2M1FNType>(qType))
      scaled = o.add(scaled, o.cast(zeroPoint, floatType));
    if (o.failed())
      return failure();
    auto cast = ms::CastOp::create(n.builder(), n.loc(), typeOf(scaled).clone(qType), scaled);
    cast.setSaturate(saturate);
    return finish(n, o, cast.getResult());
  }
  return finish(n, o, requantize(o, o.div(x, scale), zeroPoint, qType));
}

/// The dequantized values of model data `x` as f32 when it is a constant (a weight or bias of a QDQ
/// model) and its scale and zero point are constants too; null otherwise.
Value foldDequantize(NodeImporter &n, Ops &o, Value x, const ParamLayout &layout) {
  if (o.failed())
    return Value();
  RankedTensorType xType = typeOf(x);
  if (!n.inputType(1).getElementType().isF32() || !xType.hasStaticShape() ||
      !isa<IntegerType>(xType.getElementType()))
    return Value();
  auto constant = x.getDefiningOp<ms::ConstantOp>();
  if (!constant)
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
  for (int64_t d = layout.axis + 1; d < xType.getRank(); ++d)
    inner *= shape[d];
  int64_t extent = xType.getRank() ? shape[layout.axis] : 1;
  int64_t blocks = layout.kind == ParamLayout::Kind::Block
                       ? (extent + layout.blockSize - 1) / layout.blockSize
                       : 0;
  for (int64_t i = 0; i < count; ++i) {
    int64_t p = 0;
    if (layout.kind != ParamLayout::Kind::Tensor) {
      int64_t a = (i / inner) % extent;
      if (layout.kind == ParamLayout::Kind::Axis) {
        p = a;
      } else {
        int64_t outer = i / (inner * extent);
        p = (outer * blocks + a / layout.blockSize) * inner + i % inner;
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
  if (xType.getElementType().isSignlessInteger(8) && layout.kind != ParamLayout::Kind::Block) {
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
            {b.getNamedAttr("axis", b.getI64IntegerAttr(
                                        layout.kind == ParamLayout::Kind::Axis ? layout.axis : -1)),
             b.getNamedAttr("scale", DenseElementsAttr::get(
                                         vectorType(b.getF32Type(), scales.size()),
                                         ArrayRef<float>(scales))),
             b.getNamedAttr("zero_point", DenseElementsAttr::get(
                                              vectorType(b.getI32Type(), zeros.size()),
                                              ArrayRef<int32_t>(zeros)))}));
  }
  return folded;
}

/// The f32 value that `x` was converted from when `x` is a QuantizeLinear's result built here:
/// cast(clip(round(v) [+ cast(zero point)], qmin, qmax)) in f32. Its elements are integers in the
/// range of x's type, which f32 holds exactly, so converting x back to f32 gives that value: the
/// activation's QuantizeLinear -> DequantizeLinear pair then skips the round trip through the
/// integer type (two conversions per element of the fused kernel).
Value quantizedAsF32(Value x) {
  auto cast = x.getDefiningOp<ms::CastOp>();
  auto clip = cast ? cast.getInput().getDefiningOp<ms::ClipOp>() : ms::ClipOp();
  if (!clip || !typeOf(clip.getResult()).getElementType().isF32() || !clip.getMin() ||
      !clip.getMax())
    return Value();
  std::optional<std::pair<double, double>> range = quantRange(typeOf(x).getElementType());
  if (!range || range->second > 65535.0 ||
      clip.getMin()->convertToDouble() != range->first ||
      clip.getMax()->convertToDouble() != range->second)
    return Value();
  Value v = clip.getInput();
  if (auto add = v.getDefiningOp<ms::AddOp>()) {
    auto zeroPoint = add.getRhs().getDefiningOp<ms::CastOp>();
    if (!zeroPoint || !isa<IntegerType>(typeOf(zeroPoint.getInput()).getElementType()))
      return Value();
    v = add.getLhs();
  }
  if (!v.getDefiningOp<ms::RoundOp>())
    return Value();
  return clip.getResult();
}

LogicalResult importDequantizeLinear(NodeImporter &n) {
  RankedTensorType xType = n.inputType(0), scaleType = n.inputType(1);
  // 8-bit and 4-bit floats dequantize as x * scale: the reference reads no zero point for them
  // (the 8-bit ones require it to be 0), so none is subtracted.
  const bool fromFloat =
      isQuantFloat(xType.getElementType()) || isa<Float8E8M0FNUType>(xType.getElementType());
  if (!fromFloat && !isa<IntegerType>(xType.getElementType()))
    return n.error() << "x must be an integer, 8-bit float or FLOAT4E2M1 tensor, got " << xType;
  if (!fromFloat && !quantRange(xType.getElementType()))
    return n.unsupportedFeature() << "dequantizing " << xType.getElementType()
                                  << " is not supported";
  if (!isa<FloatType>(scaleType.getElementType()))
    return n.error() << "x_scale must be floating-point, got " << scaleType;
  if (n.hasInput(2) && n.inputType(2).getElementType() != xType.getElementType())
    return n.error() << "x_zero_point " << n.inputType(2) << " must have x's element type "
                     << xType.getElementType();
  FailureOr<ParamLayout> layout = paramLayout(n, xType, scaleType, "x_scale");
  if (failed(layout))
    return failure();
  if (n.hasInput(2) && !sameParamShape(n.inputType(2), scaleType))
    return n.error() << "x_zero_point " << n.inputType(2) << " must have x_scale's shape "
                     << scaleType;
  Ops o(n);
  Value x = o.in(0);
  if (Value folded = foldDequantize(n, o, x, *layout))
    return finish(n, o, folded);
  Type f32 = Float32Type::get(n.context());
  Value shifted = fromFloat ? Value() : quantizedAsF32(x);
  if (!shifted)
    shifted = o.cast(x, f32);
  if (n.hasInput(2) && !isQuantFloat(xType.getElementType()))
    shifted = o.sub(shifted, o.cast(broadcastParam(o, o.in(2), xType, *layout), f32));
  Value scale = o.cast(broadcastParam(o, o.in(1), xType, *layout), f32);
  return finish(n, o, o.cast(o.mul(shifted, scale), scaleType.getElementType()));
}

/// DynamicQuantizeLinear as ms.dynamic_quantize_linear (uint8 values, their scale and zero point).
LogicalResult importDynamicQuantizeLinear(NodeImporter &n) {
  FailureOr<Value> x = n.input(0);
  if (failed(x))
    return failure();
  FailureOr<Operation *> op = n.createVariadicOp<ms::DynamicQuantizeLinearOp>(*x);
  if (failed(op))
    return failure();
  for (unsigned i = 0; i < 3; ++i)
    if (n.hasOutput(i))
      n.setOutput(i, (*op)->getResult(i));
  return success();
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
