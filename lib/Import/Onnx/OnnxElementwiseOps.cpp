//===- OnnxElementwiseOps.cpp - unary, binary, compare, where, cast, clip -===//
//
// Binary, compare, Where, Cast, Neg and Abs evaluate at import time when all their inputs are known
// (shape arithmetic on int64 scalars); everything else maps one-to-one onto an ms op.
//
//===----------------------------------------------------------------------===//

#include "OnnxImporterInternal.h"

#include "dialects/ms/IR/MsOps.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::mie::onnx_import;

namespace {

//===----------------------------------------------------------------------===//
// Unary ops
//===----------------------------------------------------------------------===//


/// Neg and Abs: evaluated on known integer values (they appear in index arithmetic).
template <typename OpTy, bool isNeg>
LogicalResult importSignOp(NodeImporter &n) {
  if (const KnownTensor *x = n.known(0); x && !x->isFloat()) {
    std::optional<KnownTensor> folded = foldElementwise(
        {x}, x->type.getElementType(), [&](ArrayRef<int64_t> idx) -> std::optional<KnownElement> {
          int64_t v = x->intAt(idx[0]);
          if (v == std::numeric_limits<int64_t>::min())
            return std::nullopt;
          return KnownElement{isNeg ? -v : (v < 0 ? -v : v), 0.0};
        });
    if (folded) {
      n.setKnownOutput(0, std::move(*folded));
      return success();
    }
  }
  return importUnary<OpTy>(n);
}

LogicalResult importHardSigmoid(NodeImporter &n) {
  double alpha = n.getFloat("alpha", 0.2), beta = n.getFloat("beta", 0.5);
  FailureOr<Value> x = n.input(0);
  if (failed(x) || n.hasFailed())
    return failure();
  FailureOr<Value> result = n.create<ms::HardSigmoidOp>(*x, APFloat(alpha), APFloat(beta));
  if (failed(result))
    return failure();
  n.setOutput(0, *result);
  return success();
}

/// Clip: bounds are attributes before opset 11 and optional scalar inputs from 11 on. Known bounds
/// become ms.clip's attributes; a bound computed at run time is applied with ms.max / ms.min, which
/// is the same min(max(x, lo), hi) (max wins when lo > hi, as ONNX says).
LogicalResult importClip(NodeImporter &n) {
  std::optional<double> bounds[2];
  bool dynamic[2] = {false, false};
  const char *names[2] = {"min", "max"};
  for (int i = 0; i < 2; ++i) {
    if (n.opset() < 11) {
      if (n.hasAttr(names[i]))
        bounds[i] = n.getFloat(names[i], 0.0);
      continue;
    }
    if (!n.hasInput(i + 1))
      continue;
    RankedTensorType type = n.inputType(i + 1), xType = n.inputType(0);
    if (!type.hasStaticShape() || type.getNumElements() != 1)
      return n.error() << names[i] << " input must be a scalar, got " << type;
    if (const KnownTensor *bound = n.known(i + 1)) {
      bounds[i] = bound->valueAt(0);
      continue;
    }
    // Broadcasting a one-element bound keeps x's shape unless the bound has the higher rank.
    if (type.getElementType() != xType.getElementType() || type.getRank() > xType.getRank())
      return n.error() << names[i] << " input must be a scalar of the input's element type "
                       << xType.getElementType() << ", got " << type;
    dynamic[i] = true;
  }
  if (n.hasFailed())
    return failure();
  FailureOr<Value> x = n.input(0);
  if (failed(x))
    return failure();
  Builder &b = n.builder();
  FloatAttr minAttr = bounds[0] ? b.getF64FloatAttr(*bounds[0]) : FloatAttr();
  FloatAttr maxAttr = bounds[1] ? b.getF64FloatAttr(*bounds[1]) : FloatAttr();
  FailureOr<Value> result = *x;
  // A clip with min > max is invalid as an ms.clip; its result is max everywhere.
  if (minAttr && maxAttr && *bounds[0] > *bounds[1])
    minAttr = maxAttr;
  if (minAttr || maxAttr || (!dynamic[0] && !dynamic[1]))
    result = n.create<ms::ClipOp>(*x, minAttr, maxAttr);
  for (int i = 0; i < 2 && succeeded(result); ++i) {
    if (!dynamic[i])
      continue;
    FailureOr<Value> bound = n.input(i + 1);
    if (failed(bound))
      return failure();
    result = i == 0 ? n.create<ms::MaxOp>(*result, *bound) : n.create<ms::MinOp>(*result, *bound);
  }
  if (failed(result))
    return failure();
  n.setOutput(0, *result);
  return success();
}

//===----------------------------------------------------------------------===//
// Binary ops
//===----------------------------------------------------------------------===//

enum class Arith { Add, Sub, Mul, Div, Pow, Max, Min };

std::optional<int64_t> evalInt(Arith kind, int64_t a, int64_t b) {
  int64_t r;
  switch (kind) {
  case Arith::Add:
    if (__builtin_add_overflow(a, b, &r))
      return std::nullopt;
    return r;
  case Arith::Sub:
    if (__builtin_sub_overflow(a, b, &r))
      return std::nullopt;
    return r;
  case Arith::Mul:
    if (__builtin_mul_overflow(a, b, &r))
      return std::nullopt;
    return r;
  case Arith::Div:
    if (b == 0 || (a == std::numeric_limits<int64_t>::min() && b == -1))
      return std::nullopt;
    return a / b; // ONNX integer Div truncates, as C++ does
  case Arith::Pow: {
    if (b < 0)
      return std::nullopt;
    int64_t result = 1;
    for (int64_t i = 0; i < b; ++i)
      if (__builtin_mul_overflow(result, a, &result))
        return std::nullopt;
    return result;
  }
  case Arith::Max:
    return std::max(a, b);
  case Arith::Min:
    return std::min(a, b);
  }
  return std::nullopt;
}

double evalFloat(Arith kind, double a, double b) {
  switch (kind) {
  case Arith::Add:
    return a + b;
  case Arith::Sub:
    return a - b;
  case Arith::Mul:
    return a * b;
  case Arith::Div:
    return a / b;
  case Arith::Pow:
    return std::pow(a, b);
  case Arith::Max:
    return std::fmax(a, b);
  case Arith::Min:
    return std::fmin(a, b);
  }
  return 0.0;
}

/// Evaluates `lhs op rhs` on known values (the result has lhs's element type, as in ONNX).
std::optional<KnownTensor> foldArith(Arith kind, const KnownTensor &lhs, const KnownTensor &rhs) {
  Type et = lhs.type.getElementType();
  bool isFloat = lhs.isFloat();
  return foldElementwise(
      {&lhs, &rhs}, et, [&](ArrayRef<int64_t> idx) -> std::optional<KnownElement> {
        if (isFloat)
          return KnownElement{0, evalFloat(kind, lhs.floatAt(idx[0]), rhs.valueAt(idx[1]))};
        int64_t b = rhs.isFloat() ? static_cast<int64_t>(rhs.floatAt(idx[1])) : rhs.intAt(idx[1]);
        std::optional<int64_t> r = evalInt(kind, lhs.intAt(idx[0]), b);
        if (!r)
          return std::nullopt;
        return KnownElement{*r, 0.0};
      });
}

template <typename OpTy>
FailureOr<Value> createArith(NodeImporter &n, Arith kind, Value lhs, Value rhs) {
  // Pow may have an exponent of another type (opset 12+); ms.pow wants one element type.
  Type lhsType = cast<RankedTensorType>(lhs.getType()).getElementType();
  auto rhsType = cast<RankedTensorType>(rhs.getType());
  if (kind == Arith::Pow && rhsType.getElementType() != lhsType)
    rhs = ms::CastOp::create(n.builder(), n.loc(), rhsType.clone(lhsType), rhs);
  return n.create<OpTy>(lhs, rhs);
}

/// Add, Sub, Mul, Div, Pow (two inputs) and Max, Min, Sum (one or more inputs, chained left to
/// right).
template <typename OpTy, Arith kind, bool variadic = false>
LogicalResult importArith(NodeImporter &n) {
  unsigned count = n.node().inputs.size();
  if (!variadic && count != 2)
    return n.error() << "expects 2 inputs, got " << count;
  for (unsigned i = 0; i < count; ++i)
    if (!n.hasInput(i))
      return n.error() << "input " << i << " is missing";
  if (count == 1) {
    n.forwardInput(0, 0);
    return success();
  }

  if (n.allInputsKnown()) {
    std::optional<KnownTensor> acc = *n.known(0);
    for (unsigned i = 1; i < count && acc; ++i)
      acc = foldArith(kind, *acc, *n.known(i));
    if (acc) {
      n.setKnownOutput(0, std::move(*acc));
      return success();
    }
  }

  FailureOr<Value> acc = n.input(0);
  for (unsigned i = 1; i < count && succeeded(acc); ++i) {
    FailureOr<Value> rhs = n.input(i);
    if (failed(rhs))
      return failure();
    acc = createArith<OpTy>(n, kind, *acc, *rhs);
  }
  if (failed(acc))
    return failure();
  n.setOutput(0, *acc);
  return success();
}

//===----------------------------------------------------------------------===//
// Compare and where
//===----------------------------------------------------------------------===//

/// Evaluates a comparison on known values (doubles, or int64 so large integers compare exactly).
template <typename T>
bool evalCompare(ms::ComparePredicate predicate, T a, T b) {
  switch (predicate) {
  case ms::ComparePredicate::eq:
    return a == b;
  case ms::ComparePredicate::ne:
    return a != b;
  case ms::ComparePredicate::lt:
    return a < b;
  case ms::ComparePredicate::le:
    return a <= b;
  case ms::ComparePredicate::gt:
    return a > b;
  case ms::ComparePredicate::ge:
    return a >= b;
  }
  return false;
}

template <ms::ComparePredicate predicate>
LogicalResult importCompare(NodeImporter &n) {
  if (n.allInputsKnown()) {
    const KnownTensor *lhs = n.known(0), *rhs = n.known(1);
    bool asInts = !lhs->isFloat() && !rhs->isFloat();
    std::optional<KnownTensor> folded = foldElementwise(
        {lhs, rhs}, n.builder().getI1Type(),
        [&](ArrayRef<int64_t> idx) -> std::optional<KnownElement> {
          bool r = asInts ? evalCompare<int64_t>(predicate, lhs->intAt(idx[0]), rhs->intAt(idx[1]))
                          : evalCompare<double>(predicate, lhs->valueAt(idx[0]), rhs->valueAt(idx[1]));
          return KnownElement{r, 0.0};
        });
    if (folded) {
      n.setKnownOutput(0, std::move(*folded));
      return success();
    }
  }
  FailureOr<Value> lhs = n.input(0), rhs = n.input(1);
  if (failed(lhs) || failed(rhs))
    return failure();
  FailureOr<Value> result = n.create<ms::CompareOp>(predicate, *lhs, *rhs);
  if (failed(result))
    return failure();
  n.setOutput(0, *result);
  return success();
}

LogicalResult importWhere(NodeImporter &n) {
  if (n.allInputsKnown()) {
    const KnownTensor *cond = n.known(0), *x = n.known(1), *y = n.known(2);
    if (x->type.getElementType() == y->type.getElementType()) {
      std::optional<KnownTensor> folded =
          foldElementwise({cond, x, y}, x->type.getElementType(),
                          [&](ArrayRef<int64_t> idx) -> std::optional<KnownElement> {
                            const KnownTensor *chosen = cond->intAt(idx[0]) ? x : y;
                            int64_t at = cond->intAt(idx[0]) ? idx[1] : idx[2];
                            if (chosen->isFloat())
                              return KnownElement{0, chosen->floatAt(at)};
                            return KnownElement{chosen->intAt(at), 0.0};
                          });
      if (folded) {
        n.setKnownOutput(0, std::move(*folded));
        return success();
      }
    }
  }
  FailureOr<Value> cond = n.input(0), x = n.input(1), y = n.input(2);
  if (failed(cond) || failed(x) || failed(y))
    return failure();
  FailureOr<Value> result = n.create<ms::WhereOp>(*cond, *x, *y);
  if (failed(result))
    return failure();
  n.setOutput(0, *result);
  return success();
}

//===----------------------------------------------------------------------===//
// Cast, Identity, Dropout
//===----------------------------------------------------------------------===//

LogicalResult importCast(NodeImporter &n) {
  if (!n.hasAttr("to"))
    return n.error() << "attribute 'to' is required";
  int64_t to = n.getInt("to", 0);
  if (n.hasFailed())
    return failure();
  Type elementType = elementTypeFor(n.context(), to);
  if (!elementType)
    return n.error() << "cast to " << dataTypeName(to) << " is not supported";
  return importCastTo(n, elementType);
}

LogicalResult importIdentity(NodeImporter &n) {
  n.forwardInput(0, 0);
  return success();
}

/// Dropout at inference is the identity; its optional mask output is all true.
LogicalResult importDropout(NodeImporter &n) {
  if (n.opset() >= 12 && n.hasInput(2)) {
    FailureOr<const KnownTensor *> training = n.requireKnown(2, "training_mode");
    if (failed(training))
      return failure();
    if ((*training)->numElements() == 1 && (*training)->valueAt(0) != 0.0)
      return n.error() << "training mode is not supported";
  }
  n.forwardInput(0, 0);
  if (n.hasOutput(1))
    n.setKnownOutput(1,
                     KnownTensor::splatOf(n.inputType(0).getShape(), n.builder().getI1Type(), 1.0));
  return success();
}

} // namespace

LogicalResult mlir::mie::onnx_import::importCastTo(NodeImporter &n, Type elementType) {
  RankedTensorType inputType = n.inputType(0);
  if (inputType.getElementType() == elementType) {
    n.forwardInput(0, 0);
    return success();
  }
  if (const KnownTensor *x = n.known(0)) {
    n.setKnownOutput(0, x->castTo(elementType));
    return success();
  }
  FailureOr<Value> x = n.input(0);
  if (failed(x))
    return failure();
  n.setOutput(0, ms::CastOp::create(n.builder(), n.loc(), inputType.clone(elementType), *x));
  return success();
}

void mlir::mie::onnx_import::registerElementwiseOps(OnnxOpTable &table) {
  constexpr unsigned variadic = ~0u;
  table["Relu"] = {importUnary<ms::ReluOp>, 1, 1};
  table["Sigmoid"] = {importUnary<ms::SigmoidOp>, 1, 1};
  table["Tanh"] = {importUnary<ms::TanhOp>, 1, 1};
  table["Erf"] = {importUnary<ms::ErfOp>, 1, 1};
  table["Exp"] = {importUnary<ms::ExpOp>, 1, 1};
  table["Log"] = {importUnary<ms::LogOp>, 1, 1};
  table["Sqrt"] = {importUnary<ms::SqrtOp>, 1, 1};
  table["Reciprocal"] = {importUnary<ms::ReciprocalOp>, 1, 1};
  table["Neg"] = {importSignOp<ms::NegOp, true>, 1, 1};
  table["Abs"] = {importSignOp<ms::AbsOp, false>, 1, 1};
  table["HardSwish"] = {importUnary<ms::HardSwishOp>, 1, 1, 14};
  table["HardSigmoid"] = {importHardSigmoid, 1, 1};
  table["Clip"] = {importClip, 1, 3};

  table["Add"] = {importArith<ms::AddOp, Arith::Add>, 2, 2};
  table["Sub"] = {importArith<ms::SubOp, Arith::Sub>, 2, 2};
  table["Mul"] = {importArith<ms::MulOp, Arith::Mul>, 2, 2};
  table["Div"] = {importArith<ms::DivOp, Arith::Div>, 2, 2};
  table["Pow"] = {importArith<ms::PowOp, Arith::Pow>, 2, 2};
  table["Max"] = {importArith<ms::MaxOp, Arith::Max, true>, 1, variadic};
  table["Min"] = {importArith<ms::MinOp, Arith::Min, true>, 1, variadic};
  table["Sum"] = {importArith<ms::AddOp, Arith::Add, true>, 1, variadic};

  table["Equal"] = {importCompare<ms::ComparePredicate::eq>, 2, 2};
  table["Less"] = {importCompare<ms::ComparePredicate::lt>, 2, 2};
  table["Greater"] = {importCompare<ms::ComparePredicate::gt>, 2, 2};
  table["LessOrEqual"] = {importCompare<ms::ComparePredicate::le>, 2, 2, 12};
  table["GreaterOrEqual"] = {importCompare<ms::ComparePredicate::ge>, 2, 2, 12};
  table["Where"] = {importWhere, 3, 3, 9};

  table["Cast"] = {importCast, 1, 1};
  table["Identity"] = {importIdentity, 1, 1};
  table["Dropout"] = {importDropout, 1, 3};
}
