//===- OnnxMathOps.cpp - math, logic and bitwise ops, activations, CastLike ===//
//
// Rounding, trigonometric and hyperbolic functions, Sign, IsNaN/IsInf, Mod, the logical and bitwise
// ops and BitShift map one-to-one onto ms ops. The remaining activations (LeakyRelu, PRelu, Elu,
// Selu, Celu, ThresholdedRelu, Softplus, Softsign, Mish, Shrink) and Mean are decomposed into
// existing ms ops: each is exact in that form, and elementwise fusion makes the chain one kernel.
//
//===----------------------------------------------------------------------===//

#include "OnnxImporterInternal.h"

#include "dialects/ms/IR/MsOps.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::mie::onnx_import;

namespace {


/// Two-input ops whose operands share the element type (logical, bitwise, shifts).
template <typename OpTy>
LogicalResult importBinary(NodeImporter &n) {
  FailureOr<Value> lhs = n.input(0), rhs = legacyBinaryInput(n, 1);
  if (failed(lhs) || failed(rhs))
    return failure();
  return finish(n, n.create<OpTy>(*lhs, *rhs));
}

LogicalResult importMod(NodeImporter &n) {
  int64_t fmod = n.getInt("fmod", 0);
  if (n.hasFailed())
    return failure();
  if (fmod != 0 && fmod != 1)
    return n.error() << "attribute 'fmod' must be 0 or 1, got " << fmod;
  if (isa<FloatType>(n.inputType(0).getElementType()) && fmod == 0)
    return n.error() << "attribute 'fmod' must be 1 for floating-point inputs";
  FailureOr<Value> lhs = n.input(0), rhs = n.input(1);
  if (failed(lhs) || failed(rhs))
    return failure();
  UnitAttr fmodAttr = fmod ? n.builder().getUnitAttr() : UnitAttr();
  return finish(n, n.create<ms::ModOp>(*lhs, *rhs, fmodAttr));
}

LogicalResult importBitShift(NodeImporter &n) {
  if (!n.hasAttr("direction"))
    return n.error() << "attribute 'direction' is required";
  std::string direction = n.getString("direction", "");
  if (n.hasFailed())
    return failure();
  if (direction == "LEFT")
    return importBinary<ms::ShiftLeftOp>(n);
  if (direction == "RIGHT")
    return importBinary<ms::ShiftRightOp>(n);
  return n.error() << "attribute 'direction' must be LEFT or RIGHT, got '" << direction << "'";
}

LogicalResult importIsInf(NodeImporter &n) {
  bool negative = n.getInt("detect_negative", 1) != 0;
  bool positive = n.getInt("detect_positive", 1) != 0;
  FailureOr<Value> x = n.input(0);
  if (failed(x) || n.hasFailed())
    return failure();
  return finish(n, n.create<ms::IsInfOp>(*x, negative, positive));
}

LogicalResult importCastLike(NodeImporter &n) {
  return importCastTo(n, n.inputType(1).getElementType());
}

//===----------------------------------------------------------------------===//
// Decomposed activations
//===----------------------------------------------------------------------===//

/// Builds an activation from ms ops on a float input `x`: scalar constants of x's element type
/// broadcast against it, so every intermediate has x's type.
class Decomposer {
public:
  Decomposer(NodeImporter &n, Value x)
      : b(n.builder()), loc(n.loc()), x(x),
        elementType(cast<RankedTensorType>(x.getType()).getElementType()) {}

  Value input() const { return x; }
  Value cst(double value) {
    DenseElementsAttr attr = KnownTensor::splatOf({}, elementType, value).toAttr();
    return ms::ConstantOp::create(b, loc, attr);
  }
  Value add(Value l, Value r) { return ms::AddOp::create(b, loc, l, r); }
  Value sub(Value l, Value r) { return ms::SubOp::create(b, loc, l, r); }
  Value mul(Value l, Value r) { return ms::MulOp::create(b, loc, l, r); }
  Value div(Value l, Value r) { return ms::DivOp::create(b, loc, l, r); }
  Value max(Value l, Value r) { return ms::MaxOp::create(b, loc, l, r); }
  Value min(Value l, Value r) { return ms::MinOp::create(b, loc, l, r); }
  Value exp(Value v) { return ms::ExpOp::create(b, loc, v); }
  Value log(Value v) { return ms::LogOp::create(b, loc, v); }
  Value abs(Value v) { return ms::AbsOp::create(b, loc, v); }
  Value tanh(Value v) { return ms::TanhOp::create(b, loc, v); }
  Value compare(ms::ComparePredicate p, Value l, Value r) {
    return ms::CompareOp::create(b, loc, p, l, r);
  }
  Value where(Value c, Value t, Value f) { return ms::WhereOp::create(b, loc, c, t, f); }
  /// log(1 + exp(x)) as max(x, 0) + log(1 + exp(-|x|)): no overflow for large x.
  Value softplus(Value v) {
    Value tail = log(add(cst(1.0), exp(ms::NegOp::create(b, loc, abs(v)))));
    return add(max(v, cst(0.0)), tail);
  }

private:
  OpBuilder &b;
  Location loc;
  Value x;
  Type elementType;
};

/// Reads input 0, which must be floating-point, and sets output 0 to `build(decomposer)`.
LogicalResult decompose(NodeImporter &n, function_ref<Value(Decomposer &)> build,
                        bool allowIntegers = false) {
  if (n.hasFailed())
    return failure();
  Type et = n.inputType(0).getElementType();
  if (!isa<FloatType>(et) && !(allowIntegers && !et.isInteger(1)))
    return n.error() << "expects a floating-point input, got " << et;
  FailureOr<Value> x = n.input(0);
  if (failed(x))
    return failure();
  Decomposer d(n, *x);
  n.setOutput(0, build(d));
  return success();
}

using ms::ComparePredicate;

LogicalResult importLeakyRelu(NodeImporter &n) {
  double alpha = n.getFloat("alpha", 0.01);
  return decompose(n, [&](Decomposer &d) {
    Value x = d.input();
    return d.where(d.compare(ComparePredicate::lt, x, d.cst(0.0)), d.mul(x, d.cst(alpha)), x);
  });
}

/// PRelu: the slope broadcasts to the input's shape (unidirectionally).
LogicalResult importPRelu(NodeImporter &n) {
  FailureOr<Value> slope = n.input(1);
  if (failed(slope))
    return failure();
  RankedTensorType xType = n.inputType(0), slopeType = n.inputType(1);
  // Before opset 7 a slope is shared (one element) or per element; other shapes had no defined
  // broadcasting.
  if (n.opset() < 7 && slopeType.getNumElements() != 1 && slopeType != xType)
    return n.unsupportedFeature() << "a slope of shape " << listToString(slopeType.getShape())
                                  << " for an input of shape " << listToString(xType.getShape())
                                  << " (opsets 1-6 define only one shared or per-element slopes)";
  std::optional<SmallVector<int64_t>> shape =
      broadcastStaticShapes(xType.getShape(), slopeType.getShape());
  if (!shape || ArrayRef<int64_t>(*shape) != xType.getShape())
    return n.error() << "slope of shape " << listToString(slopeType.getShape())
                     << " does not broadcast to the input's shape "
                     << listToString(xType.getShape());
  if (slopeType.getElementType() != xType.getElementType())
    return n.error() << "slope must have the input's element type " << xType.getElementType()
                     << ", got " << slopeType.getElementType();
  return decompose(
      n,
      [&](Decomposer &d) {
        Value x = d.input();
        return d.where(d.compare(ComparePredicate::lt, x, d.cst(0.0)), d.mul(x, *slope), x);
      },
      /*allowIntegers=*/true);
}

LogicalResult importElu(NodeImporter &n) {
  double alpha = n.getFloat("alpha", 1.0);
  return decompose(n, [&](Decomposer &d) {
    Value x = d.input();
    Value negative = d.mul(d.sub(d.exp(x), d.cst(1.0)), d.cst(alpha));
    return d.where(d.compare(ComparePredicate::lt, x, d.cst(0.0)), negative, x);
  });
}

LogicalResult importSelu(NodeImporter &n) {
  double alpha = n.getFloat("alpha", 1.67326319217681884765625);
  double gamma = n.getFloat("gamma", 1.05070102214813232421875);
  return decompose(n, [&](Decomposer &d) {
    Value x = d.input();
    Value negative = d.mul(d.sub(d.mul(d.exp(x), d.cst(alpha)), d.cst(alpha)), d.cst(gamma));
    return d.where(d.compare(ComparePredicate::le, x, d.cst(0.0)), negative,
                   d.mul(x, d.cst(gamma)));
  });
}

LogicalResult importCelu(NodeImporter &n) {
  double alpha = n.getFloat("alpha", 1.0);
  if (alpha == 0.0)
    return n.error() << "attribute 'alpha' must be non-zero";
  return decompose(n, [&](Decomposer &d) {
    Value x = d.input();
    Value negative = d.mul(d.sub(d.exp(d.div(x, d.cst(alpha))), d.cst(1.0)), d.cst(alpha));
    return d.add(d.max(x, d.cst(0.0)), d.min(negative, d.cst(0.0)));
  });
}

LogicalResult importThresholdedRelu(NodeImporter &n) {
  double alpha = n.getFloat("alpha", 1.0);
  return decompose(n, [&](Decomposer &d) {
    Value x = d.input();
    return d.where(d.compare(ComparePredicate::gt, x, d.cst(alpha)), x, d.cst(0.0));
  });
}

LogicalResult importSoftplus(NodeImporter &n) {
  return decompose(n, [&](Decomposer &d) { return d.softplus(d.input()); });
}

LogicalResult importSoftsign(NodeImporter &n) {
  return decompose(n, [&](Decomposer &d) {
    Value x = d.input();
    return d.div(x, d.add(d.cst(1.0), d.abs(x)));
  });
}

LogicalResult importMish(NodeImporter &n) {
  return decompose(n, [&](Decomposer &d) {
    Value x = d.input();
    return d.mul(x, d.tanh(d.softplus(x)));
  });
}

/// Swish (opset 24): x * sigmoid(alpha * x).
LogicalResult importSwish(NodeImporter &n) {
  double alpha = n.getFloat("alpha", 1.0);
  if (n.hasFailed())
    return failure();
  return decompose(n, [&](Decomposer &d) {
    Value x = d.input();
    Value scaled = alpha == 1.0 ? x : d.mul(x, d.cst(alpha));
    return d.mul(x, ms::SigmoidOp::create(n.builder(), n.loc(), scaled));
  });
}

LogicalResult importShrink(NodeImporter &n) {
  double bias = n.getFloat("bias", 0.0), lambd = n.getFloat("lambd", 0.5);
  return decompose(
      n,
      [&](Decomposer &d) {
        Value x = d.input();
        Value above = d.where(d.compare(ComparePredicate::gt, x, d.cst(lambd)),
                              d.sub(x, d.cst(bias)), d.cst(0.0));
        return d.where(d.compare(ComparePredicate::lt, x, d.cst(-lambd)), d.add(x, d.cst(bias)),
                       above);
      },
      /*allowIntegers=*/true);
}

LogicalResult importGelu(NodeImporter &n) {
  std::string approximate = n.getString("approximate", "none");
  if (n.hasFailed())
    return failure();
  if (approximate != "none" && approximate != "tanh")
    return n.error() << "attribute 'approximate' must be 'none' or 'tanh', got '" << approximate
                     << "'";
  FailureOr<Value> x = n.input(0);
  if (failed(x))
    return failure();
  UnitAttr tanhForm = approximate == "tanh" ? n.builder().getUnitAttr() : UnitAttr();
  return finish(n, n.create<ms::GeluOp>(*x, tanhForm));
}

/// Mean: the inputs added left to right (broadcasting), divided by their count.
LogicalResult importMean(NodeImporter &n) {
  unsigned count = n.node().inputs.size();
  for (unsigned i = 0; i < count; ++i)
    if (!n.hasInput(i))
      return n.error() << "input " << i << " is missing";
  if (!isa<FloatType>(n.inputType(0).getElementType()))
    return n.error() << "expects floating-point inputs, got " << n.inputType(0).getElementType();
  if (count == 1) {
    n.forwardInput(0, 0);
    return success();
  }
  FailureOr<Value> acc = n.input(0);
  for (unsigned i = 1; i < count && succeeded(acc); ++i) {
    FailureOr<Value> next = n.input(i);
    if (failed(next))
      return failure();
    acc = n.create<ms::AddOp>(*acc, *next);
  }
  if (failed(acc))
    return failure();
  Decomposer d(n, *acc);
  n.setOutput(0, d.div(*acc, d.cst(static_cast<double>(count))));
  return success();
}

} // namespace

void mlir::mie::onnx_import::registerMathOps(OnnxOpTable &table) {
  constexpr unsigned variadic = ~0u;
  table["Floor"] = {importUnary<ms::FloorOp>, 1, 1};
  table["Ceil"] = {importUnary<ms::CeilOp>, 1, 1};
  table["Round"] = {importUnary<ms::RoundOp>, 1, 1, 11};
  table["Sign"] = {importUnary<ms::SignOp>, 1, 1, 9};
  table["Sin"] = {importUnary<ms::SinOp>, 1, 1, 7};
  table["Cos"] = {importUnary<ms::CosOp>, 1, 1, 7};
  table["Tan"] = {importUnary<ms::TanOp>, 1, 1, 7};
  table["Asin"] = {importUnary<ms::AsinOp>, 1, 1, 7};
  table["Acos"] = {importUnary<ms::AcosOp>, 1, 1, 7};
  table["Atan"] = {importUnary<ms::AtanOp>, 1, 1, 7};
  table["Sinh"] = {importUnary<ms::SinhOp>, 1, 1, 9};
  table["Cosh"] = {importUnary<ms::CoshOp>, 1, 1, 9};
  table["Asinh"] = {importUnary<ms::AsinhOp>, 1, 1, 9};
  table["Acosh"] = {importUnary<ms::AcoshOp>, 1, 1, 9};
  table["Atanh"] = {importUnary<ms::AtanhOp>, 1, 1, 9};
  table["IsNaN"] = {importUnary<ms::IsNanOp>, 1, 1, 9};
  table["IsInf"] = {importIsInf, 1, 1, 10};

  table["Mod"] = {importMod, 2, 2, 10};
  table["Not"] = {importUnary<ms::NotOp>, 1, 1};
  table["And"] = {importBinary<ms::AndOp>, 2, 2};
  table["Or"] = {importBinary<ms::OrOp>, 2, 2};
  table["Xor"] = {importBinary<ms::XorOp>, 2, 2};
  table["BitwiseNot"] = {importUnary<ms::NotOp>, 1, 1, 18};
  table["BitwiseAnd"] = {importBinary<ms::AndOp>, 2, 2, 18};
  table["BitwiseOr"] = {importBinary<ms::OrOp>, 2, 2, 18};
  table["BitwiseXor"] = {importBinary<ms::XorOp>, 2, 2, 18};
  table["BitShift"] = {importBitShift, 2, 2, 11};

  table["LeakyRelu"] = {importLeakyRelu, 1, 1};
  table["PRelu"] = {importPRelu, 2, 2};
  table["Elu"] = {importElu, 1, 1};
  table["Selu"] = {importSelu, 1, 1};
  table["Celu"] = {importCelu, 1, 1, 12};
  table["ThresholdedRelu"] = {importThresholdedRelu, 1, 1, 10};
  table["Softplus"] = {importSoftplus, 1, 1};
  table["Softsign"] = {importSoftsign, 1, 1};
  table["Mish"] = {importMish, 1, 1, 18};
  table["Swish"] = {importSwish, 1, 1, 24};
  table["Shrink"] = {importShrink, 1, 1, 9};
  table["Gelu"] = {importGelu, 1, 1, 20};
  table["Mean"] = {importMean, 1, variadic};
  table["CastLike"] = {importCastLike, 2, 2, 15};
}
