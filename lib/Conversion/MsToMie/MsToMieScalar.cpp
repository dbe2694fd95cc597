//===- MsToMieScalar.cpp - scalar bodies of elementwise ms ops ------------===//
//
// One place that says what every elementwise ms op computes per element, for floats and signless
// integers. Transcendentals use the math dialect; its polynomial approximations keep the generated
// code free of libm calls.
//
//===----------------------------------------------------------------------===//

#include "MsToMieCommon.h"

#include "dialects/ms/IR/MsOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::mie;

namespace {
/// Small arithmetic helpers over one element type.
struct ScalarBuilder {
  OpBuilder &b;
  Location loc;
  Type type;

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
    return isFloat() ? (Value)arith::DivFOp::create(b, loc, x, y)
                     : (Value)arith::DivSIOp::create(b, loc, x, y);
  }
  Value max(Value x, Value y) const {
    return isFloat() ? (Value)arith::MaximumFOp::create(b, loc, x, y)
                     : (Value)arith::MaxSIOp::create(b, loc, x, y);
  }
  Value min(Value x, Value y) const {
    return isFloat() ? (Value)arith::MinimumFOp::create(b, loc, x, y)
                     : (Value)arith::MinSIOp::create(b, loc, x, y);
  }
  Value clamp(Value x, double lo, double hi) const { return min(max(x, cst(lo)), cst(hi)); }
  Value sigmoid(Value x) const {
    Value e = math::ExpOp::create(b, loc, arith::NegFOp::create(b, loc, x));
    return div(cst(1.0), add(cst(1.0), e));
  }
};

/// Element type conversion with ONNX Cast semantics.
Value emitCast(OpBuilder &b, Location loc, Value x, Type to) {
  Type from = x.getType();
  if (from == to)
    return x;
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
    return arith::FPToSIOp::create(b, loc, to, x);
  if (toF)
    return from.isInteger(1) ? (Value)arith::UIToFPOp::create(b, loc, to, x)
                             : (Value)arith::SIToFPOp::create(b, loc, to, x);
  unsigned fw = from.getIntOrFloatBitWidth(), tw = to.getIntOrFloatBitWidth();
  if (fw < tw)
    return from.isInteger(1) ? (Value)arith::ExtUIOp::create(b, loc, to, x)
                             : (Value)arith::ExtSIOp::create(b, loc, to, x);
  return arith::TruncIOp::create(b, loc, to, x);
}

Value emitCompare(OpBuilder &b, Location loc, ms::ComparePredicate pred, Value x, Value y) {
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
    p = arith::CmpIPredicate::slt;
    break;
  case ms::ComparePredicate::le:
    p = arith::CmpIPredicate::sle;
    break;
  case ms::ComparePredicate::gt:
    p = arith::CmpIPredicate::sgt;
    break;
  case ms::ComparePredicate::ge:
    p = arith::CmpIPredicate::sge;
    break;
  }
  return arith::CmpIOp::create(b, loc, p, x, y);
}
} // namespace

Value mstomie::emitElementwiseScalar(Operation *op, OpBuilder &b, Location loc, ValueRange args,
                                     Type resultType) {
  // Compare and cast decide by their operand type; everything else computes in the result type.
  ScalarBuilder s{b, loc, resultType};
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
        return math::PowFOp::create(b, loc, args[0], args[1]);
      })
      .Case([&](ms::CompareOp cmp) {
        return emitCompare(b, loc, cmp.getPredicate(), args[0], args[1]);
      })
      .Case([&](ms::WhereOp) {
        return (Value)arith::SelectOp::create(b, loc, args[0], args[1], args[2]);
      })
      .Case([&](ms::CastOp) { return emitCast(b, loc, args[0], resultType); })
      .Case([&](ms::ReluOp) { return s.max(args[0], s.cst(0.0)); })
      .Case([&](ms::ClipOp clip) {
        Value x = args[0];
        if (std::optional<APFloat> lo = clip.getMin())
          x = s.max(x, s.cst(lo->convertToDouble()));
        if (std::optional<APFloat> hi = clip.getMax())
          x = s.min(x, s.cst(hi->convertToDouble()));
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
        return math::AbsIOp::create(b, loc, args[0]);
      })
      .Default([](Operation *) { return Value(); });
}
