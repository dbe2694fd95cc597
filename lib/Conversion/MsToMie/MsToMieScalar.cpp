//===- MsToMieScalar.cpp - scalar bodies of elementwise ms ops ------------===//
//
// One place that says what every elementwise ms op computes per element, for floats and integers.
// Integers compute on signless values; the signedness of `ui*` types, which arith does not carry,
// comes from the ms op's own types and picks the unsigned division, remainder, min/max, comparison
// and conversion. Transcendentals use the math dialect; its polynomial approximations keep the generated
// code free of libm calls.
//
//===----------------------------------------------------------------------===//

#include "MsToMieCommon.h"

#include "dialects/ms/IR/MsOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/TypeSwitch.h"

#include <limits>

using namespace mlir;
using namespace mlir::mie;

namespace {
/// Small arithmetic helpers over one element type.
struct ScalarBuilder {
  OpBuilder &b;
  Location loc;
  Type type;
  bool isUnsigned = false; // integer elements of a `ui*` type

  bool isFloat() const { return isa<FloatType>(type); }
  Value cst(double v) const { return scalarConstant(b, loc, type, v); }
  Value add(Value x, Value y) const {
    return isFloat() ? (Value)arith::AddFOp::create(b, loc, x, y)
                     : (Value)arith::AddIOp::create(b, loc, x, y);
  }
  Value sub(Value x, Value y) const {
    return isFloat() ? (Value)arith::SubFOp::create(b, loc, x, y)
                     : (Value)arith::SubIOp::create(b, loc, x, y);
  }
  Value mul(Value x, Value y) const {
    return isFloat() ? (Value)arith::MulFOp::create(b, loc, x, y)
                     : (Value)arith::MulIOp::create(b, loc, x, y);
  }
  Value div(Value x, Value y) const {
    if (isFloat())
      return arith::DivFOp::create(b, loc, x, y);
    // x / 0 is 0 (numpy's value; ONNX leaves it undefined), never a SIGFPE.
    Value zero = cst(0.0);
    Value byZero = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, y, zero);
    Value q = isUnsigned ? (Value)arith::DivUIOp::create(b, loc, x, safeDivisor(x, y))
                         : (Value)arith::DivSIOp::create(b, loc, x, safeDivisor(x, y));
    return arith::SelectOp::create(b, loc, byZero, zero, q);
  }
  /// The integer divisor `y` with the two divisions the CPU traps on (SIGFPE) replaced by 1: by 0,
  /// and the most negative value by -1 (whose quotient wraps to itself, as x / 1 gives).
  Value safeDivisor(Value x, Value y) const {
    unsigned width = type.getIntOrFloatBitWidth();
    auto intCst = [&](const APInt &v) -> Value {
      return arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, v));
    };
    Value zero = intCst(APInt(width, 0)), one = intCst(APInt(width, 1));
    Value byZero = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, y, zero);
    if (isUnsigned) // no overflowing unsigned quotient
      return arith::SelectOp::create(b, loc, byZero, one, y);
    Value minByMinusOne = arith::AndIOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, x,
                              intCst(APInt::getSignedMinValue(width))),
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, y,
                              intCst(APInt::getAllOnes(width))));
    Value trap = arith::OrIOp::create(b, loc, byZero, minByMinusOne);
    return arith::SelectOp::create(b, loc, trap, one, y);
  }
  Value max(Value x, Value y) const {
    if (isFloat())
      return arith::MaximumFOp::create(b, loc, x, y);
    return isUnsigned ? (Value)arith::MaxUIOp::create(b, loc, x, y)
                      : (Value)arith::MaxSIOp::create(b, loc, x, y);
  }
  Value min(Value x, Value y) const {
    if (isFloat())
      return arith::MinimumFOp::create(b, loc, x, y);
    return isUnsigned ? (Value)arith::MinUIOp::create(b, loc, x, y)
                      : (Value)arith::MinSIOp::create(b, loc, x, y);
  }
  Value clamp(Value x, double lo, double hi) const { return min(max(x, cst(lo)), cst(hi)); }
  Value sigmoid(Value x) const {
    Value e = math::ExpOp::create(b, loc, arith::NegFOp::create(b, loc, x));
    return div(cst(1.0), add(cst(1.0), e));
  }
};

Value boolConstant(OpBuilder &b, Location loc, bool value) {
  return arith::ConstantOp::create(b, loc, b.getBoolAttr(value));
}

/// C's pow for floats: exp(y * log|x|) (mie-expand-math's polynomials) with the cases that form
/// gets wrong fixed up: a negative base with an integral exponent takes the sign of odd powers, a
/// negative base with a non-integral exponent is NaN, and any x to the power 0 is 1.
Value emitPowF(const ScalarBuilder &s, Value x, Value y) {
  OpBuilder &b = s.b;
  Location loc = s.loc;
  Value r = math::PowFOp::create(b, loc, math::AbsFOp::create(b, loc, x), y);
  auto cmp = [&](arith::CmpFPredicate p, Value l, Value rr) {
    return (Value)arith::CmpFOp::create(b, loc, p, l, rr);
  };
  Value yIsInt = cmp(arith::CmpFPredicate::OEQ, math::FloorOp::create(b, loc, y), y);
  Value half = s.mul(y, s.cst(0.5));
  Value halfIsInt = cmp(arith::CmpFPredicate::OEQ, math::FloorOp::create(b, loc, half), half);
  Value yIsOdd = arith::AndIOp::create(
      b, loc, yIsInt, arith::XOrIOp::create(b, loc, halfIsInt, boolConstant(b, loc, true)));
  Value signedR =
      arith::SelectOp::create(b, loc, yIsOdd, arith::NegFOp::create(b, loc, r), r).getResult();
  Value nan = s.cst(std::numeric_limits<double>::quiet_NaN());
  Value negBase = arith::SelectOp::create(b, loc, yIsInt, signedR, nan);
  Value result = arith::SelectOp::create(b, loc, cmp(arith::CmpFPredicate::OLT, x, s.cst(0.0)),
                                         negBase, r);
  return arith::SelectOp::create(b, loc, cmp(arith::CmpFPredicate::OEQ, y, s.cst(0.0)),
                                 s.cst(1.0), result);
}

/// C's fmod (the result has the dividend's sign) without a libm call: x - trunc(x / y) * y with one
/// rounding (fma). When x / y rounds up to the next integer the remainder comes out with the wrong
/// sign; adding |y| with x's sign corrects it. Exact while the quotient fits the mantissa.
Value emitFMod(const ScalarBuilder &s, Value x, Value y) {
  OpBuilder &b = s.b;
  Location loc = s.loc;
  Value q = math::TruncOp::create(b, loc, s.div(x, y));
  Value r = math::FmaOp::create(b, loc, arith::NegFOp::create(b, loc, q), y, x);
  Value zero = s.cst(0.0);
  Value rNeg = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, r, zero);
  Value rPos = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, r, zero);
  Value xNeg = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x, zero);
  Value wrongSign = arith::SelectOp::create(b, loc, xNeg, rPos, rNeg);
  Value fixed = s.add(r, math::CopySignOp::create(b, loc, y, x));
  return arith::SelectOp::create(b, loc, wrongSign, fixed, r);
}

/// Integer remainder; with `pythonSign` it takes the divisor's sign (ONNX Mod with fmod = 0).
/// x mod 0 is 0 (numpy's value), never a SIGFPE.
Value emitIntMod(const ScalarBuilder &s, Value x, Value y, bool pythonSign) {
  OpBuilder &b = s.b;
  Location loc = s.loc;
  if (s.isUnsigned) // both sign rules agree
    return arith::RemUIOp::create(b, loc, x, s.safeDivisor(x, y));
  Value r = arith::RemSIOp::create(b, loc, x, s.safeDivisor(x, y));
  if (!pythonSign)
    return r;
  Value zero = s.cst(0.0);
  Value nonZero = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, r, zero);
  Value rNeg = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, r, zero);
  Value yNeg = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, y, zero);
  Value differ = arith::XOrIOp::create(b, loc, rNeg, yNeg);
  Value fix = arith::AndIOp::create(b, loc, nonZero, differ);
  return arith::SelectOp::create(b, loc, fix, s.add(r, y), r);
}

/// Shifts with ONNX/numpy semantics for unsigned elements: a shift by the bit width or more gives 0
/// (arith would give poison).
Value emitShift(const ScalarBuilder &s, Value x, Value y, bool left) {
  OpBuilder &b = s.b;
  Location loc = s.loc;
  Value shifted = left ? (Value)arith::ShLIOp::create(b, loc, x, y)
                       : (Value)arith::ShRUIOp::create(b, loc, x, y);
  Value width = s.cst(static_cast<double>(s.type.getIntOrFloatBitWidth()));
  Value tooFar = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, y, width);
  return arith::SelectOp::create(b, loc, tooFar, s.cst(0.0), shifted);
}

/// -1, 0 or 1; float zeros and NaN are returned unchanged (ONNX Sign).
Value emitSign(const ScalarBuilder &s, Value x) {
  OpBuilder &b = s.b;
  Location loc = s.loc;
  Value zero = s.cst(0.0);
  Value pos, neg;
  if (s.isFloat()) {
    pos = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, x, zero);
    neg = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x, zero);
  } else if (s.isUnsigned) {
    Value nonZero = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, x, zero);
    return arith::SelectOp::create(b, loc, nonZero, s.cst(1.0), zero);
  } else {
    pos = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, x, zero);
    neg = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, x, zero);
  }
  Value rest = arith::SelectOp::create(b, loc, neg, s.cst(-1.0), s.isFloat() ? x : zero);
  return arith::SelectOp::create(b, loc, pos, s.cst(1.0), rest);
}

Value emitIsInf(OpBuilder &b, Location loc, Value x, bool negative, bool positive) {
  Type t = x.getType();
  Value result = boolConstant(b, loc, false);
  auto equals = [&](double v) {
    return (Value)arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, x,
                                        scalarConstant(b, loc, t, v));
  };
  if (positive)
    result = arith::OrIOp::create(b, loc, result, equals(std::numeric_limits<double>::infinity()));
  if (negative)
    result = arith::OrIOp::create(b, loc, result, equals(-std::numeric_limits<double>::infinity()));
  return result;
}

/// Element type conversion with ONNX Cast semantics; `fromUnsigned`/`toUnsigned` say whether the
/// signless integers on either side hold `ui*` values; `saturate` and `roundMode` are ms.cast's
/// (they matter to the 8-bit and 4-bit float results only).
Value emitCast(OpBuilder &b, Location loc, Value x, Type to, bool fromUnsigned = false,
               bool toUnsigned = false, bool saturate = false, StringRef roundMode = "up") {
  Type from = x.getType();
  if (from == to)
    return x;
  // The 8-bit and 4-bit floats convert through f32 (which holds each of their values) or, from
  // f64 and integers, round once from f64.
  if (mstomie::isNarrowFloat(from))
    return emitCast(b, loc, mstomie::emitFromNarrowFloat(b, loc, x), to, false, toUnsigned,
                    saturate, roundMode);
  if (mstomie::isNarrowFloat(to)) {
    if (!isa<FloatType>(from))
      x = emitCast(b, loc, x, b.getF64Type(), fromUnsigned);
    return mstomie::emitToNarrowFloat(b, loc, x, to, saturate, roundMode);
  }
  // A float to a 4-bit or 2-bit integer wraps, as ONNX's reference does (-9.0 to INT4 is 7):
  // convert to i32, then keep the low bits.
  if (isa<FloatType>(from) && to.getIntOrFloatBitWidth() < 8 && !to.isInteger(1))
    return arith::TruncIOp::create(b, loc, to, emitCast(b, loc, x, b.getI32Type(), false, false));
  // bf16 converts through f32 only: arith's bf16 <-> f32 expansion (mie-expand-math) then turns it
  // into integer bit operations, where LLVM would call the soft-float __truncsfbf2 and friends.
  Type f32 = Float32Type::get(b.getContext());
  if (from.isBF16() && to != f32)
    return emitCast(b, loc, arith::ExtFOp::create(b, loc, f32, x), to);
  if (to.isBF16() && from != f32)
    return arith::TruncFOp::create(b, loc, to, emitCast(b, loc, x, f32));
  auto fromF = dyn_cast<FloatType>(from), toF = dyn_cast<FloatType>(to);
  if (fromF && toF)
    return fromF.getWidth() < toF.getWidth() ? (Value)arith::ExtFOp::create(b, loc, to, x)
                                             : (Value)arith::TruncFOp::create(b, loc, to, x);
  if (to.isInteger(1)) {
    Value zero = scalarConstant(b, loc, from, 0.0);
    return fromF ? (Value)arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, x, zero)
                 : (Value)arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, x, zero);
  }
  if (fromF)
    return toUnsigned ? (Value)arith::FPToUIOp::create(b, loc, to, x)
                      : (Value)arith::FPToSIOp::create(b, loc, to, x);
  bool zeroExtend = fromUnsigned || from.isInteger(1);
  if (toF)
    return zeroExtend ? (Value)arith::UIToFPOp::create(b, loc, to, x)
                      : (Value)arith::SIToFPOp::create(b, loc, to, x);
  unsigned fw = from.getIntOrFloatBitWidth(), tw = to.getIntOrFloatBitWidth();
  if (fw < tw)
    return zeroExtend ? (Value)arith::ExtUIOp::create(b, loc, to, x)
                      : (Value)arith::ExtSIOp::create(b, loc, to, x);
  return arith::TruncIOp::create(b, loc, to, x);
}

Value emitCompare(OpBuilder &b, Location loc, ms::ComparePredicate pred, Value x, Value y,
                  bool isUnsigned) {
  if (isa<FloatType>(x.getType())) {
    // Ordered predicates: any comparison with NaN is false, except ne (unordered), as in ONNX.
    arith::CmpFPredicate p;
    switch (pred) {
    case ms::ComparePredicate::eq:
      p = arith::CmpFPredicate::OEQ;
      break;
    case ms::ComparePredicate::ne:
      p = arith::CmpFPredicate::UNE;
      break;
    case ms::ComparePredicate::lt:
      p = arith::CmpFPredicate::OLT;
      break;
    case ms::ComparePredicate::le:
      p = arith::CmpFPredicate::OLE;
      break;
    case ms::ComparePredicate::gt:
      p = arith::CmpFPredicate::OGT;
      break;
    case ms::ComparePredicate::ge:
      p = arith::CmpFPredicate::OGE;
      break;
    }
    return arith::CmpFOp::create(b, loc, p, x, y);
  }
  arith::CmpIPredicate p;
  switch (pred) {
  case ms::ComparePredicate::eq:
    p = arith::CmpIPredicate::eq;
    break;
  case ms::ComparePredicate::ne:
    p = arith::CmpIPredicate::ne;
    break;
  case ms::ComparePredicate::lt:
    p = isUnsigned ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt;
    break;
  case ms::ComparePredicate::le:
    p = isUnsigned ? arith::CmpIPredicate::ule : arith::CmpIPredicate::sle;
    break;
  case ms::ComparePredicate::gt:
    p = isUnsigned ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::sgt;
    break;
  case ms::ComparePredicate::ge:
    p = isUnsigned ? arith::CmpIPredicate::uge : arith::CmpIPredicate::sge;
    break;
  }
  return arith::CmpIOp::create(b, loc, p, x, y);
}
} // namespace

Value mstomie::emitElementwiseScalar(Operation *op, OpBuilder &b, Location loc, ValueRange args,
                                     Type resultType) {
  // Compare and cast decide by their operand type; everything else computes in the result type.
  // Signedness comes from the ms op's types, the signless type is what the elements are.
  bool resultUnsigned = isUnsignedType(op->getResult(0).getType());
  bool operandUnsigned = op->getNumOperands() && isUnsignedType(op->getOperand(0).getType());
  resultType = signlessType(resultType);
  ScalarBuilder s{b, loc, resultType, resultUnsigned};
  auto unary = [&](auto fn) { return fn(args[0]); };
  return llvm::TypeSwitch<Operation *, Value>(op)
      .Case([&](ms::AddOp) { return s.add(args[0], args[1]); })
      .Case([&](ms::SubOp) { return s.sub(args[0], args[1]); })
      .Case([&](ms::MulOp) { return s.mul(args[0], args[1]); })
      .Case([&](ms::DivOp) { return s.div(args[0], args[1]); })
      .Case([&](ms::MaxOp) { return s.max(args[0], args[1]); })
      .Case([&](ms::MinOp) { return s.min(args[0], args[1]); })
      .Case([&](ms::PowOp) -> Value {
        if (!s.isFloat())
          return math::IPowIOp::create(b, loc, args[0], args[1]);
        return emitPowF(s, args[0], args[1]);
      })
      .Case([&](ms::ModOp mod) -> Value {
        if (s.isFloat())
          return emitFMod(s, args[0], args[1]);
        return emitIntMod(s, args[0], args[1], !mod.getFmod());
      })
      .Case([&](ms::AndOp) { return (Value)arith::AndIOp::create(b, loc, args[0], args[1]); })
      .Case([&](ms::OrOp) { return (Value)arith::OrIOp::create(b, loc, args[0], args[1]); })
      .Case([&](ms::XorOp) { return (Value)arith::XOrIOp::create(b, loc, args[0], args[1]); })
      .Case([&](ms::ShiftLeftOp) { return emitShift(s, args[0], args[1], /*left=*/true); })
      .Case([&](ms::ShiftRightOp) { return emitShift(s, args[0], args[1], /*left=*/false); })
      .Case([&](ms::NotOp) {
        unsigned width = resultType.getIntOrFloatBitWidth();
        Value ones = arith::ConstantOp::create(
            b, loc, IntegerAttr::get(resultType, APInt::getAllOnes(width)));
        return (Value)arith::XOrIOp::create(b, loc, args[0], ones);
      })
      .Case([&](ms::SignOp) { return emitSign(s, args[0]); })
      .Case([&](ms::IsNanOp) {
        return (Value)arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, args[0], args[0]);
      })
      .Case([&](ms::IsInfOp op) {
        return emitIsInf(b, loc, args[0], op.getDetectNegative(), op.getDetectPositive());
      })
      .Case([&](ms::FloorOp) { return (Value)math::FloorOp::create(b, loc, args[0]); })
      .Case([&](ms::CeilOp) { return (Value)math::CeilOp::create(b, loc, args[0]); })
      .Case([&](ms::RoundOp) { return (Value)math::RoundEvenOp::create(b, loc, args[0]); })
      .Case([&](ms::SinOp) { return (Value)math::SinOp::create(b, loc, args[0]); })
      .Case([&](ms::CosOp) { return (Value)math::CosOp::create(b, loc, args[0]); })
      .Case([&](ms::TanOp) { return (Value)math::TanOp::create(b, loc, args[0]); })
      .Case([&](ms::AsinOp) { return (Value)math::AsinOp::create(b, loc, args[0]); })
      .Case([&](ms::AcosOp) { return (Value)math::AcosOp::create(b, loc, args[0]); })
      .Case([&](ms::AtanOp) { return (Value)math::AtanOp::create(b, loc, args[0]); })
      .Case([&](ms::SinhOp) { return (Value)math::SinhOp::create(b, loc, args[0]); })
      .Case([&](ms::CoshOp) { return (Value)math::CoshOp::create(b, loc, args[0]); })
      .Case([&](ms::AsinhOp) { return (Value)math::AsinhOp::create(b, loc, args[0]); })
      .Case([&](ms::AcoshOp) { return (Value)math::AcoshOp::create(b, loc, args[0]); })
      .Case([&](ms::AtanhOp) { return (Value)math::AtanhOp::create(b, loc, args[0]); })
      .Case([&](ms::CompareOp cmp) {
        return emitCompare(b, loc, cmp.getPredicate(), args[0], args[1], operandUnsigned);
      })
      .Case([&](ms::WhereOp) {
        return (Value)arith::SelectOp::create(b, loc, args[0], args[1], args[2]);
      })
      .Case([&](ms::CastOp cast) {
        return emitCast(b, loc, args[0], resultType, operandUnsigned, resultUnsigned,
                        cast.getSaturate(), cast.getRoundMode().value_or("up"));
      })
      .Case([&](ms::ReluOp) { return s.max(args[0], s.cst(0.0)); })
      .Case([&](ms::ClipOp clip) {
        Value x = args[0];
        // An unsigned bound is read within the type's range (a bound of -1 is no bound at all,
        // not 2^w - 1); one at or past the largest value bounds nothing from above.
        double largest = std::ldexp(1.0, resultType.getIntOrFloatBitWidth()) - 1.0;
        auto bounded = [&](const APFloat &v, bool upper, Value x) {
          double d = v.convertToDouble();
          if (s.isUnsigned && d < 0.0)
            d = 0.0;
          if (s.isUnsigned && d >= std::min(largest, 9.2e18))
            return upper ? x : s.max(x, s.cst(std::min(largest, 9.2e18)));
          return upper ? s.min(x, s.cst(d)) : s.max(x, s.cst(d));
        };
        if (std::optional<APFloat> lo = clip.getMin())
          x = bounded(*lo, false, x);
        if (std::optional<APFloat> hi = clip.getMax())
          x = bounded(*hi, true, x);
        return x;
      })
      .Case([&](ms::SigmoidOp) { return s.sigmoid(args[0]); })
      .Case([&](ms::HardSigmoidOp hs) {
        Value y = s.add(s.mul(args[0], s.cst(hs.getAlpha().convertToDouble())),
                        s.cst(hs.getBeta().convertToDouble()));
        return s.clamp(y, 0.0, 1.0);
      })
      .Case([&](ms::HardSwishOp) {
        Value r6 = s.clamp(s.add(args[0], s.cst(3.0)), 0.0, 6.0);
        return s.div(s.mul(args[0], r6), s.cst(6.0));
      })
      .Case([&](ms::GeluOp gelu) {
        Value x = args[0];
        Value inner;
        if (gelu.getApproximate()) {
          // tanh(sqrt(2/pi) * (x + 0.044715 x^3))
          Value x3 = s.mul(s.mul(x, x), x);
          Value poly = s.add(x, s.mul(s.cst(0.044715), x3));
          inner = math::TanhOp::create(b, loc, s.mul(s.cst(0.7978845608028654), poly));
        } else {
          inner = math::ErfOp::create(b, loc, s.mul(x, s.cst(0.7071067811865476)));
        }
        return s.mul(s.mul(s.cst(0.5), x), s.add(s.cst(1.0), inner));
      })
      .Case([&](ms::TanhOp) {
        return unary([&](Value x) { return (Value)math::TanhOp::create(b, loc, x); });
      })
      .Case([&](ms::ErfOp) {
        return unary([&](Value x) { return (Value)math::ErfOp::create(b, loc, x); });
      })
      .Case([&](ms::ExpOp) {
        return unary([&](Value x) { return (Value)math::ExpOp::create(b, loc, x); });
      })
      .Case([&](ms::LogOp) {
        return unary([&](Value x) { return (Value)math::LogOp::create(b, loc, x); });
      })
      .Case([&](ms::SqrtOp) {
        return unary([&](Value x) { return (Value)math::SqrtOp::create(b, loc, x); });
      })
      .Case([&](ms::RsqrtOp) {
        return unary([&](Value x) { return (Value)math::RsqrtOp::create(b, loc, x); });
      })
      .Case([&](ms::ReciprocalOp) { return s.div(s.cst(1.0), args[0]); })
      .Case([&](ms::NegOp) -> Value {
        if (s.isFloat())
          return arith::NegFOp::create(b, loc, args[0]);
        return s.sub(s.cst(0.0), args[0]);
      })
      .Case([&](ms::AbsOp) -> Value {
        if (s.isFloat())
          return math::AbsFOp::create(b, loc, args[0]);
        if (s.isUnsigned)
          return args[0];
        return math::AbsIOp::create(b, loc, args[0]);
      })
      .Default([](Operation *) { return Value(); });
}
