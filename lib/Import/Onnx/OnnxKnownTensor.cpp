//===- OnnxKnownTensor.cpp - compile-time tensors and ONNX data types -----===//

#include "OnnxImporterInternal.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringExtras.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>

using namespace mlir;
using namespace mlir::mie::onnx_import;

//===----------------------------------------------------------------------===//
// ONNX data types
//===----------------------------------------------------------------------===//

Type mlir::mie::onnx_import::elementTypeFor(MLIRContext *ctx, int64_t dataType) {
  Builder b(ctx);
  switch (static_cast<OnnxDataType>(dataType)) {
  case OnnxDataType::Float:
    return b.getF32Type();
  case OnnxDataType::Float16:
    return b.getF16Type();
  case OnnxDataType::BFloat16:
    return b.getBF16Type();
  case OnnxDataType::Double:
    return b.getF64Type();
  case OnnxDataType::Int64:
    return b.getI64Type();
  case OnnxDataType::Int32:
    return b.getI32Type();
  case OnnxDataType::Int16:
    return b.getI16Type();
  case OnnxDataType::Int8:
    return b.getI8Type();
  case OnnxDataType::UInt8:
    return IntegerType::get(ctx, 8, IntegerType::Unsigned);
  case OnnxDataType::UInt16:
    return IntegerType::get(ctx, 16, IntegerType::Unsigned);
  case OnnxDataType::UInt32:
    return IntegerType::get(ctx, 32, IntegerType::Unsigned);
  case OnnxDataType::UInt64:
    return IntegerType::get(ctx, 64, IntegerType::Unsigned);
  case OnnxDataType::Bool:
    return b.getI1Type();
  case OnnxDataType::Float8E4M3FN:
    return b.getType<Float8E4M3FNType>();
  case OnnxDataType::Float8E4M3FNUZ:
    return b.getType<Float8E4M3FNUZType>();
  case OnnxDataType::Float8E5M2:
    return b.getType<Float8E5M2Type>();
  case OnnxDataType::Float8E5M2FNUZ:
    return b.getType<Float8E5M2FNUZType>();
  case OnnxDataType::Float8E8M0:
    return b.getType<Float8E8M0FNUType>();
  case OnnxDataType::Float4E2M1:
    return b.getType<Float4E2M1FNType>();
  case OnnxDataType::Int4:
    return b.getIntegerType(4);
  case OnnxDataType::UInt4:
    return IntegerType::get(ctx, 4, IntegerType::Unsigned);
  case OnnxDataType::Int2:
    return b.getIntegerType(2);
  case OnnxDataType::UInt2:
    return IntegerType::get(ctx, 2, IntegerType::Unsigned);
  default:
    return {};
  }
}

unsigned mlir::mie::onnx_import::packedBits(int64_t dataType) {
  switch (static_cast<OnnxDataType>(dataType)) {
  case OnnxDataType::Int4:
  case OnnxDataType::UInt4:
  case OnnxDataType::Float4E2M1:
    return 4;
  case OnnxDataType::Int2:
  case OnnxDataType::UInt2:
    return 2;
  default:
    return 0;
  }
}

std::string mlir::mie::onnx_import::dataTypeName(int64_t dataType) {
  static const char *const names[] = {
      "UNDEFINED",      "FLOAT",    "UINT8",        "INT8",           "UINT16",
      "INT16",          "INT32",    "INT64",        "STRING",         "BOOL",
      "FLOAT16",        "DOUBLE",   "UINT32",       "UINT64",         "COMPLEX64",
      "COMPLEX128",     "BFLOAT16", "FLOAT8E4M3FN", "FLOAT8E4M3FNUZ", "FLOAT8E5M2",
      "FLOAT8E5M2FNUZ", "UINT4",    "INT4",         "FLOAT4E2M1",     "FLOAT8E8M0",
      "UINT2",          "INT2"};
  if (dataType >= 0 && dataType < static_cast<int64_t>(std::size(names)))
    return names[dataType];
  return "data type " + std::to_string(dataType);
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

int64_t mlir::mie::onnx_import::wrapToIntegerType(int64_t value, Type type) {
  auto intType = cast<IntegerType>(type);
  unsigned width = intType.getWidth();
  if (width == 1)
    return value != 0;
  if (width >= 64)
    return value;
  uint64_t mask = (uint64_t(1) << width) - 1;
  uint64_t bits = static_cast<uint64_t>(value) & mask;
  if (intType.isUnsigned())
    return static_cast<int64_t>(bits);
  uint64_t sign = uint64_t(1) << (width - 1);
  return static_cast<int64_t>((bits ^ sign) - sign);
}

/// Rounds `value` to what the float type can hold.
static double roundToFloatType(double value, Type type) {
  if (type.isF64())
    return value;
  APFloat f(value);
  bool lost;
  f.convert(cast<FloatType>(type).getFloatSemantics(), APFloat::rmNearestTiesToEven, &lost);
  return f.convertToDouble();
}

double mlir::mie::onnx_import::shortestDecimal(float value) {
  if (!std::isfinite(value))
    return value;
  char buffer[64];
  std::to_chars_result printed = std::to_chars(buffer, buffer + sizeof(buffer), value);
  *printed.ptr = '\0';
  return std::strtod(buffer, nullptr);
}

bool mlir::mie::onnx_import::isReasonableShape(ArrayRef<int64_t> shape) {
  constexpr int64_t limit = int64_t(1) << 40;
  int64_t count = 1;
  for (int64_t dim : shape) {
    if (dim < 0 || dim > limit)
      return false;
    if (dim == 0)
      count = 0;
    else if (count > limit / dim)
      return false;
    else
      count *= dim;
  }
  return true;
}

SmallVector<int64_t> mlir::mie::onnx_import::stridesOf(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides(shape.size(), 1);
  for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * shape[i + 1];
  return strides;
}

std::string mlir::mie::onnx_import::listToString(ArrayRef<int64_t> values) {
  std::string s = "[";
  llvm::raw_string_ostream os(s);
  llvm::interleaveComma(values, os);
  os << "]";
  return s;
}

bool mlir::mie::onnx_import::shouldTrackAsKnown(RankedTensorType type, bool constantNode) {
  // 8-bit and 4-bit floats are never folded here: their conversions depend on Cast's saturate
  // and round_mode, which only the generated code applies. A Constant node's float vector takes
  // part up to 64 elements: exporters compute sizes from small float tables (Funnel's pooled
  // lengths slice a float Constant and Cast the result into a Range's start). Initializers are
  // model data: beyond scalars they stay resources, never folded into inline `dense` weights.
  if (auto floatType = dyn_cast<FloatType>(type.getElementType()))
    return floatType.getWidth() >= 16 && type.getNumElements() <= (constantNode ? 64 : 1);
  return type.getNumElements() <= 1024;
}

//===----------------------------------------------------------------------===//
// KnownTensor
//===----------------------------------------------------------------------===//

/// Float to int64 toward zero, saturating out-of-range values and mapping NaN to 0 (where C++ would
/// have undefined behaviour).
static int64_t truncateToInt(double v) {
  if (std::isnan(v))
    return 0;
  if (v >= 9.2233720368547758e18)
    return std::numeric_limits<int64_t>::max();
  if (v <= -9.2233720368547758e18)
    return std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(v);
}

SmallVector<int64_t> KnownTensor::toInts() const {
  SmallVector<int64_t> values;
  int64_t n = numElements();
  values.reserve(n);
  for (int64_t i = 0; i < n; ++i) {
    if (!isFloat()) {
      values.push_back(intAt(i));
      continue;
    }
    values.push_back(truncateToInt(floatAt(i)));
  }
  return values;
}

KnownTensor KnownTensor::fromInts(ArrayRef<int64_t> shape, Type elementType,
                                  ArrayRef<int64_t> values) {
  KnownTensor t;
  t.type = RankedTensorType::get(shape, elementType);
  if (isa<FloatType>(elementType)) {
    for (int64_t v : values)
      t.floats.push_back(roundToFloatType(static_cast<double>(v), elementType));
  } else {
    for (int64_t v : values)
      t.ints.push_back(wrapToIntegerType(v, elementType));
  }
  return t;
}

KnownTensor KnownTensor::fromFloats(ArrayRef<int64_t> shape, Type elementType,
                                    ArrayRef<double> values) {
  KnownTensor t;
  t.type = RankedTensorType::get(shape, elementType);
  if (isa<FloatType>(elementType)) {
    for (double v : values)
      t.floats.push_back(roundToFloatType(v, elementType));
    return t;
  }
  KnownTensor asFloat;
  asFloat.type = RankedTensorType::get(shape, Float64Type::get(elementType.getContext()));
  asFloat.floats.assign(values.begin(), values.end());
  return asFloat.castTo(elementType);
}

KnownTensor KnownTensor::splatOf(ArrayRef<int64_t> shape, Type elementType, double value) {
  KnownTensor t = fromFloats({}, elementType, {value});
  t.type = RankedTensorType::get(shape, elementType);
  t.splat = true;
  return t;
}

KnownTensor KnownTensor::reshaped(ArrayRef<int64_t> shape) const {
  KnownTensor t = *this;
  t.type = RankedTensorType::get(shape, type.getElementType());
  return t;
}

KnownTensor KnownTensor::castTo(Type elementType) const {
  KnownTensor t;
  t.type = RankedTensorType::get(shape(), elementType);
  t.splat = splat;
  size_t stored = splat ? 1 : numElements();
  bool toFloat = isa<FloatType>(elementType);
  for (size_t i = 0; i < stored; ++i) {
    if (toFloat) {
      t.floats.push_back(roundToFloatType(valueAt(i), elementType));
      continue;
    }
    if (elementType.isInteger(1)) {
      t.ints.push_back(valueAt(i) != 0.0);
      continue;
    }
    // Float to int truncates toward zero (saturating here); int to int wraps.
    int64_t v = isFloat() ? truncateToInt(floatAt(i)) : intAt(i);
    t.ints.push_back(wrapToIntegerType(v, elementType));
  }
  return t;
}

DenseElementsAttr KnownTensor::toAttr() const {
  Type et = type.getElementType();
  size_t stored = splat ? 1 : numElements();
  if (isFloat()) {
    const llvm::fltSemantics &semantics = cast<FloatType>(et).getFloatSemantics();
    SmallVector<APFloat> values;
    for (size_t i = 0; i < stored; ++i) {
      APFloat f(floats[i]);
      bool lost;
      f.convert(semantics, APFloat::rmNearestTiesToEven, &lost);
      values.push_back(f);
    }
    return DenseElementsAttr::get(type, values);
  }
  unsigned width = et.getIntOrFloatBitWidth();
  SmallVector<APInt> values;
  for (size_t i = 0; i < stored; ++i)
    values.push_back(APInt(width, static_cast<uint64_t>(ints[i]), /*isSigned=*/false,
                           /*implicitTrunc=*/true));
  return DenseElementsAttr::get(type, values);
}

KnownTensor mlir::mie::onnx_import::knownFromAttr(DenseElementsAttr attr) {
  KnownTensor t;
  t.type = cast<RankedTensorType>(attr.getType());
  t.splat = attr.isSplat();
  Type et = t.type.getElementType();
  auto stored = [&](auto tag) {
    using T = decltype(tag);
    SmallVector<T> values;
    if (attr.isSplat())
      values.push_back(attr.getSplatValue<T>());
    else
      llvm::append_range(values, attr.getValues<T>());
    return values;
  };
  if (isa<FloatType>(et)) {
    for (const APFloat &f : stored(APFloat(0.0)))
      t.floats.push_back(et.isF32() ? shortestDecimal(f.convertToFloat()) : f.convertToDouble());
    return t;
  }
  bool zeroExtend = et.isInteger(1) || cast<IntegerType>(et).isUnsigned();
  for (const APInt &v : stored(APInt()))
    t.ints.push_back(zeroExtend ? (int64_t)v.getZExtValue() : v.getSExtValue());
  return t;
}

KnownTensor mlir::mie::onnx_import::knownFromBytes(RankedTensorType type, ArrayRef<char> bytes) {
  KnownTensor t;
  t.type = type;
  Type et = type.getElementType();
  int64_t n = type.getNumElements();
  const char *p = bytes.data();
  auto load = [&](auto tag, int64_t i) {
    decltype(tag) v;
    std::memcpy(&v, p + i * sizeof(v), sizeof(v));
    return v;
  };
  for (int64_t i = 0; i < n; ++i) {
    if (et.isF32()) {
      t.floats.push_back(shortestDecimal(load(float(), i)));
    } else if (et.isF64()) {
      t.floats.push_back(load(double(), i));
    } else if (et.isF16() || et.isBF16()) {
      APInt bits(16, load(uint16_t(), i));
      t.floats.push_back(APFloat(cast<FloatType>(et).getFloatSemantics(), bits).convertToDouble());
    } else if (et.isInteger(1)) {
      t.ints.push_back(load(uint8_t(), i) != 0);
    } else if (et.isUnsignedInteger(8)) {
      t.ints.push_back(load(uint8_t(), i));
    } else if (et.isUnsignedInteger(16)) {
      t.ints.push_back(load(uint16_t(), i));
    } else if (et.isUnsignedInteger(32)) {
      t.ints.push_back(load(uint32_t(), i));
    } else if (et.isUnsignedInteger(64)) {
      // Stored as int64 bits; toAttr and the folders read them back with the type's width.
      t.ints.push_back((int64_t)load(uint64_t(), i));
    } else if (isa<IntegerType>(et) && et.getIntOrFloatBitWidth() < 8) {
      // int4/uint4/int2/uint2: one byte each, the value in the low bits.
      t.ints.push_back(wrapToIntegerType(load(uint8_t(), i), et));
    } else if (et.isInteger(8)) {
      t.ints.push_back(load(int8_t(), i));
    } else if (et.isInteger(16)) {
      t.ints.push_back(load(int16_t(), i));
    } else if (et.isInteger(32)) {
      t.ints.push_back(load(int32_t(), i));
    } else {
      t.ints.push_back(load(int64_t(), i));
    }
  }
  return t;
}

//===----------------------------------------------------------------------===//
// Elementwise folding
//===----------------------------------------------------------------------===//

std::optional<SmallVector<int64_t>>
mlir::mie::onnx_import::broadcastStaticShapes(ArrayRef<int64_t> a, ArrayRef<int64_t> b) {
  size_t rank = std::max(a.size(), b.size());
  SmallVector<int64_t> shape(rank);
  for (size_t i = 0; i < rank; ++i) {
    int64_t x = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    int64_t y = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (x != y && x != 1 && y != 1)
      return std::nullopt;
    shape[i] = x == 1 ? y : x;
  }
  return shape;
}

std::optional<KnownTensor> mlir::mie::onnx_import::foldElementwise(
    ArrayRef<const KnownTensor *> operands, Type resultElementType,
    function_ref<std::optional<KnownElement>(ArrayRef<int64_t>)> eval,
    ArrayRef<int64_t> broadcastTo) {
  SmallVector<int64_t> shape(broadcastTo);
  for (const KnownTensor *operand : operands) {
    std::optional<SmallVector<int64_t>> next = broadcastStaticShapes(shape, operand->shape());
    if (!next)
      return std::nullopt;
    shape = std::move(*next);
  }
  int64_t count = 1;
  for (int64_t d : shape)
    count *= d;
  bool allSplat = count > 0 && llvm::all_of(operands, [](const KnownTensor *t) {
                    return t->splat || t->numElements() == 1;
                  });
  int64_t evaluated = allSplat ? 1 : count;
  if (evaluated > kMaxKnownElements)
    return std::nullopt;

  // Per operand, the stride of each result dim (0 where the operand broadcasts).
  size_t rank = shape.size();
  SmallVector<SmallVector<int64_t>> operandStrides;
  for (const KnownTensor *operand : operands) {
    ArrayRef<int64_t> own = operand->shape();
    SmallVector<int64_t> ownStrides = stridesOf(own);
    SmallVector<int64_t> strides(rank, 0);
    for (size_t d = 0; d < own.size(); ++d)
      if (own[d] != 1 && !operand->splat)
        strides[rank - own.size() + d] = ownStrides[d];
    operandStrides.push_back(std::move(strides));
  }
  SmallVector<int64_t> resultStrides = stridesOf(shape);

  bool isFloatResult = isa<FloatType>(resultElementType);
  std::vector<int64_t> ints;
  std::vector<double> floats;
  SmallVector<int64_t> indices(operands.size());
  for (int64_t linear = 0; linear < evaluated; ++linear) {
    for (size_t k = 0; k < operands.size(); ++k) {
      int64_t index = 0;
      for (size_t d = 0; d < rank; ++d)
        index += ((linear / resultStrides[d]) % shape[d]) * operandStrides[k][d];
      indices[k] = index;
    }
    std::optional<KnownElement> element = eval(indices);
    if (!element)
      return std::nullopt;
    if (isFloatResult)
      floats.push_back(element->f);
    else
      ints.push_back(element->i);
  }
  KnownTensor result = isFloatResult ? KnownTensor::fromFloats({}, resultElementType, floats)
                                     : KnownTensor::fromInts({}, resultElementType, ints);
  result.type = RankedTensorType::get(shape, resultElementType);
  result.splat = allSplat && count != 1;
  return result;
}
