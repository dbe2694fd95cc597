//===- OnnxElementwiseOps.cpp - unary, binary, compare, where, cast, clip -===//
//
// Every op maps onto ms ops; on known inputs (shape arithmetic) they fold as they are created
// (NodeImporter::create), through the ms folders.
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


LogicalResult importHardSigmoid(NodeImporter &n) {
  double alpha = n.getFloat("alpha", 0.2), beta = n.getFloat("beta", 0.5);
  FailureOr<Value> x = n.input(0);
  if (failed(x) || n.hasFailed())
    return failure();
  return finish(n, n.create<ms::HardSigmoidOp>(*x, APFloat(alpha), APFloat(beta)));
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

template <typename OpTy>
FailureOr<Value> createArith(NodeImporter &n, Arith kind, Value lhs, Value rhs) {
  // Pow may have an exponent of another type (opset 12+); ms.pow wants one element type.
  Type lhsType = cast<RankedTensorType>(lhs.getType()).getElementType();
  auto rhsType = cast<RankedTensorType>(rhs.getType());
  if (kind == Arith::Pow && rhsType.getElementType() != lhsType)
    rhs = n.foldCreated(ms::CastOp::create(n.builder(), n.loc(), rhsType.clone(lhsType), rhs));
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

  FailureOr<Value> acc = n.input(0);
  for (unsigned i = 1; i < count && succeeded(acc); ++i) {
    FailureOr<Value> rhs = variadic ? n.input(i) : legacyBinaryInput(n, i);
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

template <ms::ComparePredicate predicate>
LogicalResult importCompare(NodeImporter &n) {
  FailureOr<Value> lhs = n.input(0), rhs = legacyBinaryInput(n, 1);
  if (failed(lhs) || failed(rhs))
    return failure();
  return finish(n, n.create<ms::CompareOp>(predicate, *lhs, *rhs));
}

LogicalResult importWhere(NodeImporter &n) {
  FailureOr<Value> cond = n.input(0), x = n.input(1), y = n.input(2);
  if (failed(cond) || failed(x) || failed(y))
    return failure();
  return finish(n, n.create<ms::WhereOp>(*cond, *x, *y));
}

//===----------------------------------------------------------------------===//
// Cast, Identity, Dropout
//===----------------------------------------------------------------------===//

LogicalResult importCast(NodeImporter &n) {
  if (!n.hasAttr("to"))
    return n.error() << "attribute 'to' is required";
  // Before opset 6, `to` names the type ("FLOAT", "INT64").
  int64_t to = -1;
  if (n.opset() < 6 && n.node().attributes.lookup("to").kind == OnnxAttribute::Kind::String) {
    std::string name = n.getString("to", "");
    for (int64_t t = 0; t < 32 && to < 0; ++t)
      if (StringRef(dataTypeName(t)).equals_insensitive(name))
        to = t;
    if (to < 0)
      return n.error() << "attribute 'to' names no ONNX data type: '" << name << "'";
  } else {
    to = n.getInt("to", 0);
  }
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

/// OptionalHasElement (opset 18 takes tensors): a tensor input holds its element, an omitted input is
/// the empty optional. Optional values themselves (graph inputs and outputs of optional type, the
/// Optional op) are not supported, so no other input reaches here.
LogicalResult importOptionalHasElement(NodeImporter &n) {
  n.setKnownOutput(0, KnownTensor::fromInts({}, n.builder().getI1Type(), {n.hasInput(0) ? 1 : 0}));
  return success();
}

/// OptionalGetElement of a tensor (opset 18) is the tensor.
LogicalResult importOptionalGetElement(NodeImporter &n) {
  n.forwardInput(0, 0);
  return success();
}

/// Dropout at inference (or training with ratio 0) is the identity; its optional mask output is all
/// true. In training mode with another ratio it draws a random mask (importTrainingDropout).
LogicalResult importDropout(NodeImporter &n) {
  bool training = false;
  double ratio = 0.5; // ONNX's default
  bool ratioKnown = true;
  // Opsets 10+ type the mask bool, earlier ones like the data.
  Type maskType = n.opset() >= 10 ? Type(n.builder().getI1Type()) : n.inputType(0).getElementType();
  if (n.opset() < 7) {
    // Before opset 7 the mode and the ratio are attributes, training by default.
    training = n.getInt("is_test", 0) == 0;
    ratio = n.getFloat("ratio", 0.5);
  } else if (n.opset() >= 12 && n.hasInput(2)) {
    const KnownTensor *mode = n.constantData(2);
    if (!mode) {
      // The mode given at run time (a graph input): both paths, the run's mode selects.
      RankedTensorType modeType = n.inputType(2);
      if (!modeType.hasStaticShape() || modeType.getNumElements() != 1)
        return n.error() << "training_mode must be one value, got " << modeType;
      FailureOr<Value> modeValue = n.input(2);
      if (failed(modeValue))
        return failure();
      return importTrainingDropout(n, 1, ratio, maskType, *modeValue);
    }
    training = mode->numElements() == 1 && mode->valueAt(0) != 0.0;
    if (n.hasInput(1)) {
      const KnownTensor *known = n.constantData(1);
      ratioKnown = known != nullptr;
      if (known)
        ratio = known->numElements() == 1 ? known->valueAt(0) : -1.0;
    }
  }
  if (n.hasFailed())
    return failure();
  // Training with a ratio of 0 drops nothing and scales by 1 / (1 - 0): the identity too, which
  // is what exporters emit for attention dropout called without `training=` (torchvision's
  // Swin Transformer).
  if (training && !(ratioKnown && ratio == 0.0))
    return importTrainingDropout(n, n.opset() >= 12 ? 1 : ~0u, ratio, maskType);
  n.forwardInput(0, 0);
  if (n.hasOutput(1))
    n.setKnownOutput(1, KnownTensor::splatOf(n.inputType(0).getShape(), maskType, 1.0));
  return success();
}

} // namespace

FailureOr<Value> mlir::mie::onnx_import::legacyBinaryInput(NodeImporter &n, unsigned i) {
  FailureOr<Value> value = n.input(i);
  if (failed(value) || n.opset() >= 7 || i != 1)
    return value;
  RankedTensorType a = n.inputType(0), b = n.inputType(1);
  int64_t broadcast = n.getInt("broadcast", 0);
  if (n.hasFailed())
    return failure();
  if (!broadcast) {
    if (a.getShape() != b.getShape())
      return n.error() << "inputs of shapes " << listToString(a.getShape()) << " and "
                       << listToString(b.getShape())
                       << " need broadcast = 1 to broadcast (opsets 1-6)";
    return value;
  }
  int64_t rankA = a.getRank(), rankB = b.getRank();
  int64_t axis = n.getInt("axis", rankA - rankB);
  if (n.hasFailed())
    return failure();
  if (axis < 0)
    axis += rankA;
  if (rankB > rankA || axis < 0 || axis + rankB > rankA)
    return n.error() << "cannot broadcast " << listToString(b.getShape()) << " onto "
                     << listToString(a.getShape()) << " from axis " << axis;
  SmallVector<int64_t> shape(rankA, 1);
  for (int64_t d = 0; d < rankB; ++d) {
    int64_t size = b.getDimSize(d);
    if (size != 1 && size != a.getDimSize(axis + d))
      return n.error() << "cannot broadcast " << listToString(b.getShape()) << " onto "
                       << listToString(a.getShape()) << " from axis " << axis;
    shape[axis + d] = size;
  }
  // Trailing alignment is numpy's own: only other axes need B reshaped.
  if (axis == rankA - rankB || ArrayRef<int64_t>(shape) == b.getShape())
    return value;
  return n.create<ms::ReshapeOp>(*value, ArrayRef<int64_t>(shape));
}

LogicalResult mlir::mie::onnx_import::importCastTo(NodeImporter &n, Type elementType) {
  RankedTensorType inputType = n.inputType(0);
  if (inputType.getElementType() == elementType) {
    n.forwardInput(0, 0);
    return success();
  }
  FailureOr<Value> x = n.input(0);
  if (failed(x))
    return failure();
  // Cast-19 and later (and CastLike) say whether the 8-bit and 4-bit floats saturate (by
  // default they do); Cast-24 and later how E8M0 rounds.
  bool saturate = n.getInt("saturate", 1) != 0;
  std::optional<std::string> roundMode;
  if (isa<Float8E8M0FNUType>(elementType)) {
    roundMode = n.getString("round_mode", "up");
    if (*roundMode != "up" && *roundMode != "down" && *roundMode != "nearest")
      return n.error() << "round_mode must be 'up', 'down' or 'nearest', got '" << *roundMode
                       << "'";
  }
  if (n.hasFailed())
    return failure();
  auto cast = ms::CastOp::create(n.builder(), n.loc(), inputType.clone(elementType), *x);
  if (auto floatType = dyn_cast<FloatType>(elementType); floatType && floatType.getWidth() < 16) {
    if (saturate)
      cast.setSaturate(true);
    if (roundMode)
      cast.setRoundMode(*roundMode);
  }
  n.setOutput(0, n.foldCreated(cast));
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
  table["Neg"] = {importUnary<ms::NegOp>, 1, 1};
  table["Abs"] = {importUnary<ms::AbsOp>, 1, 1};
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
  table["OptionalHasElement"] = {importOptionalHasElement, 0, 1, 18};
  table["OptionalGetElement"] = {importOptionalGetElement, 1, 1, 18};
  table["Dropout"] = {importDropout, 1, 3};
}
