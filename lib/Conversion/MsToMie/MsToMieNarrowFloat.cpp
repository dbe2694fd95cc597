//===- MsToMieNarrowFloat.cpp - 8-bit and 4-bit float conversions ---------===//
//
// ONNX's conversions to and from the 8-bit floats (FLOAT8E4M3FN, FLOAT8E4M3FNUZ, FLOAT8E5M2,
// FLOAT8E5M2FNUZ, FLOAT8E8M0) and FLOAT4E2M1 as integer operations on the bits. LLVM has none of
// these types (its type converter stores them as i8 / i4), and arith's own expansions cover only
// some of them, none with ONNX's saturate; so every conversion here is shifts, masks, compares and
// selects that any target lowers and vectorizes.
//
// The reference is ONNX's (onnx/reference/ops/op_cast.py): ml_dtypes' conversions (round to
// nearest even from the source value, overflow to infinity or NaN), saturate_cast (clip to the
// largest finite value, NaN kept) and numpy_helper.to_float8e8m0 (E8M0, with round_mode).
//
//===----------------------------------------------------------------------===//

#include "MsToMieCommon.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include <cmath>
#include <optional>
#include <type_traits>

using namespace mlir;
using namespace mlir::mie;

namespace {

/// An 8-bit or 4-bit float layout: sign, `exponentBits`, `mantissaBits`, exponent `bias`, and
/// which encodings are special.
struct NarrowFormat {
  enum class Kind {
    IEEE,      // all-ones exponent: infinity (mantissa 0) or NaN (FLOAT8E5M2)
    FN,        // no infinity; S.1111.111 is NaN (FLOAT8E4M3FN)
    FNUZ,      // no infinity, no -0; 1.0000.000 is the one NaN (the FNUZ types)
    Finite,    // neither infinity nor NaN (FLOAT4E2M1)
    PowerOfTwo // E8M0: unsigned exponent only, 0xFF is NaN
  };
  unsigned exponentBits, mantissaBits;
  int bias;
  Kind kind;

  unsigned width() const { return kind == Kind::PowerOfTwo ? 8 : 1 + exponentBits + mantissaBits; }
  uint64_t signBit() const { return uint64_t(1) << (exponentBits + mantissaBits); }
  /// The magnitude bits of the largest finite value.
  uint64_t maxFinite() const {
    uint64_t allOnes = signBit() - 1;
    switch (kind) {
    case Kind::IEEE:
      return allOnes - (uint64_t(1) << mantissaBits); // exponent all ones minus one, mantissa full
    case Kind::FN:
      return allOnes - 1;
    default:
      return allOnes;
    }
  }
  uint64_t infinity() const { return ((uint64_t(1) << exponentBits) - 1) << mantissaBits; }
};

std::optional<NarrowFormat> narrowFormat(Type type) {
  using K = NarrowFormat::Kind;
  if (isa<Float8E4M3FNType>(type))
    return NarrowFormat{4, 3, 7, K::FN};
  if (isa<Float8E4M3FNUZType>(type))
    return NarrowFormat{4, 3, 8, K::FNUZ};
  if (isa<Float8E5M2Type>(type))
    return NarrowFormat{5, 2, 15, K::IEEE};
  if (isa<Float8E5M2FNUZType>(type))
    return NarrowFormat{5, 2, 16, K::FNUZ};
  if (isa<Float4E2M1FNType>(type))
    return NarrowFormat{2, 1, 1, K::Finite};
  if (isa<Float8E8M0FNUType>(type))
    return NarrowFormat{8, 0, 127, K::PowerOfTwo};
  return std::nullopt;
}

/// An operand of Bits' ops: a Value (or an op with one result), or an integer constant of the
/// Bits' type.
struct Operand {
  template <typename V, std::enable_if_t<std::is_convertible_v<V, Value>, int> = 0>
  Operand(V v) : value(v) {}
  template <typename I, std::enable_if_t<std::is_integral_v<I>, bool> = true>
  Operand(I c) : constant(static_cast<uint64_t>(c)) {}
  Value value;
  uint64_t constant = 0;
};

/// Integer arithmetic on one integer type (scalar values).
struct Bits {
  OpBuilder &b;
  Location loc;
  IntegerType type;

  Value c(uint64_t v) const { return arith::ConstantOp::create(b, loc, IntegerAttr::get(type, v)); }
  Value toValue(Operand a) const { return a.value ? a.value : c(a.constant); }
  /// One arith op on two operands.
  template <typename OpT>
  Value op(Operand x, Operand y) const {
    return OpT::create(b, loc, toValue(x), toValue(y));
  }
  Value add(Operand x, Operand y) const { return op<arith::AddIOp>(x, y); }
  Value sub(Operand x, Operand y) const { return op<arith::SubIOp>(x, y); }
  Value band(Operand x, Operand y) const { return op<arith::AndIOp>(x, y); }
  Value bor(Operand x, Operand y) const { return op<arith::OrIOp>(x, y); }
  Value shl(Operand x, Operand y) const { return op<arith::ShLIOp>(x, y); }
  Value shr(Operand x, Operand y) const { return op<arith::ShRUIOp>(x, y); }
  Value smax(Operand x, Operand y) const { return op<arith::MaxSIOp>(x, y); }
  Value umin(Operand x, Operand y) const { return op<arith::MinUIOp>(x, y); }
  Value umax(Operand x, Operand y) const { return op<arith::MaxUIOp>(x, y); }
  Value both(Value x, Value y) const { return op<arith::AndIOp>(x, y); }
  Value either(Value x, Value y) const { return op<arith::OrIOp>(x, y); }
  Value cmp(arith::CmpIPredicate p, Operand x, Operand y) const {
    return arith::CmpIOp::create(b, loc, p, toValue(x), toValue(y));
  }
  Value select(Value cond, Operand x, Operand y) const {
    return arith::SelectOp::create(b, loc, cond, toValue(x), toValue(y));
  }
};

using P = arith::CmpIPredicate;

/// The bits of `x` (f32 or f64) rounded to nearest even into format `f` (not E8M0), the overflow
/// handled as ONNX says: `saturate` (or a format without infinity and NaN) gives the largest
/// finite value, else infinity or NaN.
Value truncateToNarrow(OpBuilder &b, Location loc, Value x, const NarrowFormat &f, bool saturate) {
  auto srcType = cast<FloatType>(x.getType());
  const unsigned w = srcType.getWidth();
  const unsigned srcMantissa = srcType.getFPMantissaWidth() - 1;
  const int64_t srcBias = w == 64 ? 1023 : 127;
  Bits i{b, loc, b.getIntegerType(w)};
  Value bits = arith::BitcastOp::create(b, loc, i.type, x);
  Value sign = i.shr(bits, w - 1);
  Value abs = i.band(bits, (uint64_t(1) << (w - 1)) - 1);
  uint64_t srcInfinity = ((uint64_t(1) << (w - 1 - srcMantissa)) - 1) << srcMantissa;
  Value isNaN = i.cmp(P::ugt, abs, srcInfinity);
  Value isInf = i.cmp(P::eq, abs, srcInfinity);

  // The significand with its hidden bit, and the exponent field (a denormal's is read as 1).
  Value expField = i.shr(abs, srcMantissa);
  Value mantissa = i.band(abs, (uint64_t(1) << srcMantissa) - 1);
  Value hidden = i.select(i.cmp(P::ne, expField, 0), uint64_t(1) << srcMantissa, 0);
  Value significand = i.bor(mantissa, hidden);
  expField = i.umax(expField, 1);
  // d: how far the exponent is above the target's smallest normal one. At or above it the
  // significand drops (srcMantissa - M) bits; below it as many more as d is short (a denormal).
  Value d = i.sub(expField, uint64_t(srcBias + 1 - f.bias));
  Value below = i.smax(i.sub(0, d), 0);
  Value shift = i.umin(i.add(below, srcMantissa - f.mantissaBits), w - 1);
  Value base = i.shl(i.smax(d, 0), f.mantissaBits);
  // Round half to even on the dropped bits. shift >= 1: the target always drops some.
  Value q = i.shr(significand, shift);
  Value rest = i.band(significand, i.sub(i.shl(1, shift), 1));
  Value half = i.shl(1, i.sub(shift, 1));
  Value odd = i.cmp(P::ne, i.band(q, 1), 0);
  Value roundUp = i.either(i.cmp(P::ugt, rest, half), i.both(i.cmp(P::eq, rest, half), odd));
  // q carries its hidden bit into the exponent field; a carry out of the mantissa moves the
  // value to the next binade, which the sum gets right too.
  Value magnitude = i.add(i.add(base, q), arith::ExtUIOp::create(b, loc, i.type, roundUp));

  using K = NarrowFormat::Kind;
  const uint64_t maxFinite = f.maxFinite();
  const bool clamps = saturate || f.kind == K::Finite;
  uint64_t overflow = 0, infinite = 0, nan = 0;
  switch (f.kind) {
  case K::IEEE:
    overflow = infinite = f.infinity();
    nan = f.infinity() | (uint64_t(1) << (f.mantissaBits - 1));
    break;
  case K::FN:
    overflow = infinite = nan = f.signBit() - 1;
    break;
  case K::FNUZ:
    overflow = infinite = nan = f.signBit(); // 0x80: the sign is not added below
    break;
  case K::Finite:
  case K::PowerOfTwo:
    overflow = infinite = maxFinite;
    break;
  }
  if (clamps)
    overflow = infinite = maxFinite;
  Value tooLarge = i.cmp(P::ugt, magnitude, maxFinite);
  Value result = i.select(tooLarge, overflow, magnitude);
  result = i.select(isInf, infinite, result);
  Value signBit = i.shl(sign, f.exponentBits + f.mantissaBits);
  if (f.kind == K::FNUZ) {
    // No -0: a zero result is +0; NaN (0x80) is the sign bit alone and already complete.
    Value keepSign = i.both(i.cmp(P::ne, result, 0), i.cmp(P::ne, result, f.signBit()));
    result = i.select(keepSign, i.bor(result, signBit), result);
    result = i.select(isNaN, f.signBit(), result);
  } else if (f.kind == K::Finite) {
    result = i.bor(result, signBit);
    // No NaN to become: ml_dtypes (ONNX's reference) gives the zero of the opposite sign.
    result = i.select(isNaN, i.shl(i.sub(1, sign), f.exponentBits + f.mantissaBits), result);
  } else {
    result = i.bor(result, signBit);
    result = i.select(isNaN, i.bor(nan, signBit), result);
  }
  return arith::TruncIOp::create(b, loc, b.getIntegerType(f.width()), result);
}

/// The bits of f32 `x` as FLOAT8E8M0, exactly as ONNX's numpy_helper.to_float8e8m0 computes them:
/// the sign is dropped, NaN and infinity become 0xFF, and the exponent rounds per `roundMode`.
Value truncateToE8M0(OpBuilder &b, Location loc, Value x, bool saturate, StringRef roundMode) {
  Bits i{b, loc, b.getI32Type()};
  Value bits = arith::BitcastOp::create(b, loc, i.type, x);
  Value exponent = i.band(i.shr(bits, 23), 0xFF);
  Value special = i.cmp(P::eq, exponent, 0xFF);
  Value roundUp;
  if (roundMode == "nearest") {
    // Guard, round and sticky bits; the "last kept bit" is whether the exponent is nonzero.
    Value g = i.cmp(P::ne, i.band(bits, 0x400000), 0);
    Value r = i.cmp(P::ne, i.band(bits, 0x200000), 0);
    Value s = i.cmp(P::ne, i.band(bits, 0x1FFFFF), 0);
    Value lsb = i.cmp(P::ne, exponent, 0);
    roundUp = i.both(g, i.either(r, i.either(s, lsb)));
  } else if (roundMode == "down") {
    roundUp = Value();
  } else {
    // "up": any fraction rounds up. 0x4FFFFF (not 0x7FFFFF) is the reference's mask: a fraction
    // with only bits 20 and 21 set is not rounded up there, so it is not here.
    roundUp = i.cmp(P::ne, i.band(bits, 0x4FFFFF), 0);
  }
  if (roundUp) {
    if (saturate)
      roundUp = i.both(roundUp, i.cmp(P::ne, exponent, 0xFE));
    exponent = i.add(exponent, arith::ExtUIOp::create(b, loc, i.type, roundUp));
  }
  // An exponent of 0xFE rounded up (unsaturated) is 0xFF, NaN, as in the reference.
  Value result = i.select(special, 0xFF, exponent);
  return arith::TruncIOp::create(b, loc, b.getI8Type(), result);
}

/// The f32 value of the format-`f` bits `raw` (i8 or i4). Every 8-bit and 4-bit value is exact
/// in f32 (E8M0's smallest, 2^-127, is an f32 denormal).
Value extendFromNarrow(OpBuilder &b, Location loc, Value raw, const NarrowFormat &f) {
  Bits i{b, loc, b.getI32Type()};
  Value v = arith::ExtUIOp::create(b, loc, i.type, raw);
  using K = NarrowFormat::Kind;
  if (f.kind == K::PowerOfTwo) {
    Value result = i.select(i.cmp(P::eq, v, 0), 0x00400000, i.shl(v, 23));
    result = i.select(i.cmp(P::eq, v, 0xFF), 0x7FC00000, result);
    return arith::BitcastOp::create(b, loc, b.getF32Type(), result);
  }
  const unsigned m = f.mantissaBits, e = f.exponentBits;
  Value sign = i.shl(i.shr(v, e + m), 31);
  Value abs = i.band(v, f.signBit() - 1);
  Value expField = i.shr(abs, m);
  Value mantissa = i.band(abs, (uint64_t(1) << m) - 1);
  Value normal = i.add(i.shl(expField, 23), i.shl(mantissa, 23 - m));
  normal = i.add(normal, uint64_t(127 - f.bias) << 23);
  // A denormal is mantissa * 2^(1 - bias - m): an exact f32 product, normal in f32.
  Type f32 = b.getF32Type();
  Value scaled = arith::MulFOp::create(
      b, loc, arith::UIToFPOp::create(b, loc, f32, mantissa),
      arith::ConstantOp::create(b, loc, b.getF32FloatAttr(std::ldexp(1.0f, 1 - f.bias - int(m)))));
  Value denormal = arith::BitcastOp::create(b, loc, i.type, scaled);
  Value magnitude = i.select(i.cmp(P::eq, expField, 0), denormal, normal);
  Value result = i.bor(magnitude, sign);
  Value nan = i.c(0x7FC00000);
  switch (f.kind) {
  case K::IEEE: {
    Value special = i.cmp(P::eq, expField, (uint64_t(1) << e) - 1);
    Value inf = i.select(i.cmp(P::eq, mantissa, 0), 0x7F800000, nan);
    result = i.select(special, i.bor(inf, sign), result);
    break;
  }
  case K::FN:
    result = i.select(i.cmp(P::eq, abs, f.signBit() - 1), i.bor(nan, sign), result);
    break;
  case K::FNUZ:
    result = i.select(i.cmp(P::eq, v, f.signBit()), nan, result);
    break;
  default:
    break;
  }
  return arith::BitcastOp::create(b, loc, f32, result);
}

} // namespace

bool mstomie::isNarrowFloat(Type type) { return narrowFormat(type).has_value(); }

Value mstomie::emitToNarrowFloat(OpBuilder &b, Location loc, Value x, Type to, bool saturate,
                                 StringRef roundMode) {
  NarrowFormat f = *narrowFormat(to);
  Type f32 = b.getF32Type();
  Value raw;
  if (f.kind == NarrowFormat::Kind::PowerOfTwo) {
    // The reference converts to float32 first, whatever the source type.
    if (!x.getType().isF32())
      x = x.getType().isF64() ? (Value)arith::TruncFOp::create(b, loc, f32, x)
                              : (Value)arith::ExtFOp::create(b, loc, f32, x);
    raw = truncateToE8M0(b, loc, x, saturate, roundMode);
  } else {
    // f16 and bf16 widen to f32 exactly, so f32 and f64 sources both round once.
    if (!x.getType().isF32() && !x.getType().isF64())
      x = arith::ExtFOp::create(b, loc, f32, x);
    raw = truncateToNarrow(b, loc, x, f, saturate);
  }
  return arith::BitcastOp::create(b, loc, to, raw);
}

Value mstomie::emitFromNarrowFloat(OpBuilder &b, Location loc, Value x) {
  NarrowFormat f = *narrowFormat(x.getType());
  Value raw = arith::BitcastOp::create(b, loc, b.getIntegerType(f.width()), x);
  return extendFromNarrow(b, loc, raw, f);
}
