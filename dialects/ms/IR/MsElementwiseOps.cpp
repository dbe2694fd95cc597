//===- MsElementwiseOps.cpp - unary, binary, compare, where, cast ---------===//

#include "dialects/ms/IR/MsOps.h"
#include "dialects/ms/IR/MsShapeUtils.h"

#include "mlir/Dialect/CommonFolders.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"

#include <cmath>

using namespace mlir;
using namespace mlir::ms;

//===----------------------------------------------------------------------===//
// Shared helpers
//===----------------------------------------------------------------------===//

/// Result of broadcasting `operands` (all ranked tensors) with `elementType`; the operands listed
/// in `sameElementType` must share their element type.
static LogicalResult inferBroadcast(const InferDiag &diag, ValueRange operands,
                                    ValueRange sameElementType, Type elementType,
                                    SmallVectorImpl<Type> &results) {
  Type common;
  for (Value v : sameElementType) {
    Type et = cast<ShapedType>(v.getType()).getElementType();
    if (common && common != et)
      return diag.error("expects operands to have the same element type, got ", common, " and ",
                        et);
    common = et;
  }
  SmallVector<int64_t> shape;
  for (Value v : operands) {
    FailureOr<SmallVector<int64_t>> next =
        broadcastShapes(diag, shape, cast<ShapedType>(v.getType()).getShape());
    if (failed(next))
      return failure();
    shape = std::move(*next);
  }
  results.push_back(RankedTensorType::get(shape, elementType ? elementType : common));
  return success();
}

/// True if `attr` is a splat constant equal to `value` (float or integer).
static bool isSplatOf(Attribute attr, double value) {
  auto splat = dyn_cast_if_present<SplatElementsAttr>(attr);
  if (!splat)
    return false;
  Type et = splat.getElementType();
  if (isa<FloatType>(et))
    return splat.getSplatValue<APFloat>().convertToDouble() == value;
  if (isa<IntegerType>(et))
    return splat.getSplatValue<APInt>().getSExtValue() == static_cast<int64_t>(value);
  return false;
}

/// Folds `x op identity` to `x` when no broadcasting changes the type.
static Value foldIdentityOperand(Value keep, Attribute other, double identity, Type resultType) {
  if (keep.getType() == resultType && isSplatOf(other, identity))
    return keep;
  return {};
}

/// Constant-folds a same-shape binary float op (broadcasting folds are left to later passes).
static Attribute foldBinaryFloat(ArrayRef<Attribute> operands, Type resultType,
                                 function_ref<APFloat(const APFloat &, const APFloat &)> fn) {
  auto lhs = dyn_cast_if_present<DenseElementsAttr>(operands[0]);
  auto rhs = dyn_cast_if_present<DenseElementsAttr>(operands[1]);
  if (!lhs || !rhs || lhs.getType() != resultType || rhs.getType() != resultType ||
      !isa<FloatType>(lhs.getElementType()))
    return {};
  return constFoldBinaryOp<FloatAttr, APFloat, void>(operands, resultType, fn);
}

static Attribute foldBinaryInt(ArrayRef<Attribute> operands, Type resultType,
                               function_ref<APInt(const APInt &, const APInt &)> fn) {
  auto lhs = dyn_cast_if_present<DenseElementsAttr>(operands[0]);
  auto rhs = dyn_cast_if_present<DenseElementsAttr>(operands[1]);
  if (!lhs || !rhs || lhs.getType() != resultType || rhs.getType() != resultType ||
      !isa<IntegerType>(lhs.getElementType()))
    return {};
  return constFoldBinaryOp<IntegerAttr, APInt, void>(operands, resultType, fn);
}

/// Constant-folds a unary float op on f32/f64 dense constants by evaluating in double.
static Attribute foldUnaryFloat(Attribute operand, Type resultType, double (*fn)(double)) {
  auto dense = dyn_cast_if_present<DenseElementsAttr>(operand);
  if (!dense || dense.getType() != resultType)
    return {};
  Type et = dense.getElementType();
  if (!et.isF32() && !et.isF64())
    return {};
  return constFoldUnaryOp<FloatAttr, APFloat, void>(
      ArrayRef<Attribute>{operand}, resultType, [&](const APFloat &x) {
        APFloat r(fn(x.convertToDouble()));
        bool lost;
        r.convert(x.getSemantics(), APFloat::rmNearestTiesToEven, &lost);
        return r;
      });
}

//===----------------------------------------------------------------------===//
// Binary ops
//===----------------------------------------------------------------------===//

#define MS_BINARY_INFER(OP)                                                                        \
  LogicalResult OP::inferReturnTypes(MLIRContext *, std::optional<Location> loc, Adaptor adaptor,  \
                                     SmallVectorImpl<Type> &results) {                             \
    return inferBroadcast(InferDiag(loc, getOperationName()), adaptor.getOperands(),               \
                          adaptor.getOperands(), Type(), results);                                 \
  }
MS_BINARY_INFER(AddOp)
MS_BINARY_INFER(SubOp)
MS_BINARY_INFER(MulOp)
MS_BINARY_INFER(DivOp)
MS_BINARY_INFER(PowOp)
MS_BINARY_INFER(MaxOp)
MS_BINARY_INFER(MinOp)
MS_BINARY_INFER(AndOp)
MS_BINARY_INFER(OrOp)
MS_BINARY_INFER(XorOp)
MS_BINARY_INFER(ShiftLeftOp)
MS_BINARY_INFER(ShiftRightOp)
#undef MS_BINARY_INFER

LogicalResult ModOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
                                      SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  Type et = cast<ShapedType>(adaptor.getLhs().getType()).getElementType();
  // Python's sign rule has no meaning ONNX defines for floats; only C's fmod is allowed there.
  if (isa<FloatType>(et) && !adaptor.getFmod())
    return diag.error("expects fmod for floating-point operands, got ", et);
  return inferBroadcast(diag, adaptor.getOperands(), adaptor.getOperands(), Type(), results);
}

OpFoldResult AddOp::fold(FoldAdaptor adaptor) {
  Type type = getType();
  if (Value v = foldIdentityOperand(getLhs(), adaptor.getRhs(), 0.0, type))
    return v;
  if (Value v = foldIdentityOperand(getRhs(), adaptor.getLhs(), 0.0, type))
    return v;
  if (Attribute a = foldBinaryFloat(adaptor.getOperands(), type,
                                    [](const APFloat &x, const APFloat &y) { return x + y; }))
    return a;
  return foldBinaryInt(adaptor.getOperands(), type,
                       [](const APInt &x, const APInt &y) { return x + y; });
}

OpFoldResult SubOp::fold(FoldAdaptor adaptor) {
  Type type = getType();
  if (Value v = foldIdentityOperand(getLhs(), adaptor.getRhs(), 0.0, type))
    return v;
  if (Attribute a = foldBinaryFloat(adaptor.getOperands(), type,
                                    [](const APFloat &x, const APFloat &y) { return x - y; }))
    return a;
  return foldBinaryInt(adaptor.getOperands(), type,
                       [](const APInt &x, const APInt &y) { return x - y; });
}

OpFoldResult MulOp::fold(FoldAdaptor adaptor) {
  Type type = getType();
  if (Value v = foldIdentityOperand(getLhs(), adaptor.getRhs(), 1.0, type))
    return v;
  if (Value v = foldIdentityOperand(getRhs(), adaptor.getLhs(), 1.0, type))
    return v;
  if (Attribute a = foldBinaryFloat(adaptor.getOperands(), type,
                                    [](const APFloat &x, const APFloat &y) { return x * y; }))
    return a;
  return foldBinaryInt(adaptor.getOperands(), type,
                       [](const APInt &x, const APInt &y) { return x * y; });
}

OpFoldResult DivOp::fold(FoldAdaptor adaptor) {
  Type type = getType();
  if (Value v = foldIdentityOperand(getLhs(), adaptor.getRhs(), 1.0, type))
    return v;
  // Integer division by zero is undefined; only floats fold (IEEE gives inf/nan).
  return foldBinaryFloat(adaptor.getOperands(), type,
                         [](const APFloat &x, const APFloat &y) { return x / y; });
}

OpFoldResult PowOp::fold(FoldAdaptor adaptor) {
  return foldIdentityOperand(getLhs(), adaptor.getRhs(), 1.0, getType());
}

/// The value of a splat constant, or of a one-element resource (a model's Constant node, such as
/// the 2.0 of LayerNorm's Pow, arrives as one), as a double.
static std::optional<double> splatValue(ElementsAttr attr) {
  Type et = attr.getElementType();
  if (!isa<FloatType>(et) && !(isa<IntegerType>(et) && !et.isInteger(1)))
    return std::nullopt;
  if (auto splat = dyn_cast<SplatElementsAttr>(attr)) {
    if (isa<FloatType>(et))
      return splat.getSplatValue<APFloat>().convertToDouble();
    return static_cast<double>(splat.getSplatValue<APInt>().getSExtValue());
  }
  auto resource = dyn_cast<DenseResourceElementsAttr>(attr);
  if (!resource || resource.getNumElements() != 1)
    return std::nullopt;
  AsmResourceBlob *blob = resource.getRawHandle().getBlob();
  unsigned width = et.getIntOrFloatBitWidth();
  if (!blob || width % 8 != 0 || blob->getData().size() * 8 < width)
    return std::nullopt;
  APInt bits(width, 0);
  // Resource data is little-endian, as the hosts we compile on.
  llvm::LoadIntFromMemory(bits, reinterpret_cast<const uint8_t *>(blob->getData().data()),
                          width / 8);
  if (auto ft = dyn_cast<FloatType>(et))
    return APFloat(ft.getFloatSemantics(), bits).convertToDouble();
  return static_cast<double>(bits.getSExtValue());
}

/// The exponent of ms.pow when it is a splat constant, possibly behind an ms.cast (the importer
/// casts integer exponents to the base's type).
static std::optional<double> splatExponent(Value exponent) {
  if (auto cast = exponent.getDefiningOp<CastOp>())
    exponent = cast.getInput();
  ElementsAttr attr;
  if (!matchPattern(exponent, m_Constant(&attr)))
    return std::nullopt;
  return splatValue(attr);
}

LogicalResult PowOp::canonicalize(PowOp op, PatternRewriter &rewriter) {
  Value x = op.getLhs();
  // Only when the exponent does not broadcast the base to a larger shape.
  if (x.getType() != op.getType())
    return failure();
  std::optional<double> y = splatExponent(op.getRhs());
  if (!y)
    return failure();
  Location loc = op.getLoc();
  bool isFloat = isa<FloatType>(getElementTypeOrSelf(x.getType()));
  Value result;
  if (*y == 2.0) {
    result = MulOp::create(rewriter, loc, x, x);
  } else if (*y == 3.0) {
    result = MulOp::create(rewriter, loc, MulOp::create(rewriter, loc, x, x), x);
  } else if (isFloat && *y == 0.5) {
    result = SqrtOp::create(rewriter, loc, x);
  } else if (isFloat && *y == -1.0) {
    result = ReciprocalOp::create(rewriter, loc, x);
  } else if (isFloat && *y == -0.5) {
    result = RsqrtOp::create(rewriter, loc, x);
  } else {
    return failure();
  }
  rewriter.replaceOp(op, result);
  return success();
}

OpFoldResult MaxOp::fold(FoldAdaptor adaptor) {
  if (getLhs() == getRhs() && getLhs().getType() == getType())
    return getLhs();
  return foldBinaryFloat(adaptor.getOperands(), getType(),
                         [](const APFloat &x, const APFloat &y) { return llvm::maximum(x, y); });
}

OpFoldResult MinOp::fold(FoldAdaptor adaptor) {
  if (getLhs() == getRhs() && getLhs().getType() == getType())
    return getLhs();
  return foldBinaryFloat(adaptor.getOperands(), getType(),
                         [](const APFloat &x, const APFloat &y) { return llvm::minimum(x, y); });
}

OpFoldResult AndOp::fold(FoldAdaptor adaptor) {
  if (getLhs() == getRhs() && getLhs().getType() == getType())
    return getLhs();
  return foldBinaryInt(adaptor.getOperands(), getType(),
                       [](const APInt &x, const APInt &y) { return x & y; });
}

OpFoldResult OrOp::fold(FoldAdaptor adaptor) {
  if (getLhs() == getRhs() && getLhs().getType() == getType())
    return getLhs();
  return foldBinaryInt(adaptor.getOperands(), getType(),
                       [](const APInt &x, const APInt &y) { return x | y; });
}

OpFoldResult XorOp::fold(FoldAdaptor adaptor) {
  Type type = getType();
  if (Value v = foldIdentityOperand(getLhs(), adaptor.getRhs(), 0.0, type))
    return v;
  if (Value v = foldIdentityOperand(getRhs(), adaptor.getLhs(), 0.0, type))
    return v;
  return foldBinaryInt(adaptor.getOperands(), type,
                       [](const APInt &x, const APInt &y) { return x ^ y; });
}

//===----------------------------------------------------------------------===//
// Compare and where
//===----------------------------------------------------------------------===//

LogicalResult CompareOp::inferReturnTypes(MLIRContext *context, std::optional<Location> loc,
                                          Adaptor adaptor, SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  SmallVector<Value, 2> operands = {adaptor.getLhs(), adaptor.getRhs()};
  return inferBroadcast(diag, operands, operands, IntegerType::get(context, 1), results);
}

LogicalResult WhereOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
                                        SmallVectorImpl<Type> &results) {
  InferDiag diag(loc, getOperationName());
  SmallVector<Value, 2> values = {adaptor.getOnTrue(), adaptor.getOnFalse()};
  return inferBroadcast(diag, adaptor.getOperands(), values, Type(), results);
}

OpFoldResult WhereOp::fold(FoldAdaptor adaptor) {
  Type type = getType();
  if (getOnTrue() == getOnFalse() && getOnTrue().getType() == type)
    return getOnTrue();
  auto cond = dyn_cast_if_present<SplatElementsAttr>(adaptor.getCondition());
  if (!cond)
    return {};
  Value chosen = cond.getSplatValue<bool>() ? getOnTrue() : getOnFalse();
  return chosen.getType() == type ? chosen : Value();
}

//===----------------------------------------------------------------------===//
// Unary ops
//===----------------------------------------------------------------------===//

OpFoldResult ReluOp::fold(FoldAdaptor adaptor) {
  if (auto producer = getInput().getDefiningOp<ReluOp>())
    return producer.getResult();
  return foldUnaryFloat(adaptor.getInput(), getType(), [](double x) { return x > 0.0 ? x : 0.0; });
}

OpFoldResult NegOp::fold(FoldAdaptor adaptor) {
  if (auto producer = getInput().getDefiningOp<NegOp>())
    return producer.getInput();
  return foldUnaryFloat(adaptor.getInput(), getType(), [](double x) { return -x; });
}

OpFoldResult AbsOp::fold(FoldAdaptor adaptor) {
  if (auto producer = getInput().getDefiningOp<AbsOp>())
    return producer.getResult();
  return foldUnaryFloat(adaptor.getInput(), getType(), [](double x) { return std::fabs(x); });
}

OpFoldResult ReciprocalOp::fold(FoldAdaptor adaptor) {
  return foldUnaryFloat(adaptor.getInput(), getType(), [](double x) { return 1.0 / x; });
}

OpFoldResult SigmoidOp::fold(FoldAdaptor adaptor) {
  return foldUnaryFloat(adaptor.getInput(), getType(),
                        [](double x) { return 1.0 / (1.0 + std::exp(-x)); });
}

OpFoldResult HardSwishOp::fold(FoldAdaptor adaptor) {
  return foldUnaryFloat(adaptor.getInput(), getType(),
                        [](double x) { return x * std::min(std::max(x + 3.0, 0.0), 6.0) / 6.0; });
}

OpFoldResult TanhOp::fold(FoldAdaptor adaptor) {
  return foldUnaryFloat(adaptor.getInput(), getType(), [](double x) { return std::tanh(x); });
}

OpFoldResult ErfOp::fold(FoldAdaptor adaptor) {
  return foldUnaryFloat(adaptor.getInput(), getType(), [](double x) { return std::erf(x); });
}

OpFoldResult ExpOp::fold(FoldAdaptor adaptor) {
  return foldUnaryFloat(adaptor.getInput(), getType(), [](double x) { return std::exp(x); });
}

OpFoldResult LogOp::fold(FoldAdaptor adaptor) {
  if (auto producer = getInput().getDefiningOp<ExpOp>())
    return producer.getInput();
  return foldUnaryFloat(adaptor.getInput(), getType(), [](double x) { return std::log(x); });
}

OpFoldResult SqrtOp::fold(FoldAdaptor adaptor) {
  return foldUnaryFloat(adaptor.getInput(), getType(), [](double x) { return std::sqrt(x); });
}

OpFoldResult RsqrtOp::fold(FoldAdaptor adaptor) {
  return foldUnaryFloat(adaptor.getInput(), getType(), [](double x) { return 1.0 / std::sqrt(x); });
}

LogicalResult ClipOp::verify() {
  if (getMin() && getMax() && getMin()->convertToDouble() > getMax()->convertToDouble())
    return emitOpError("expects min <= max, got min = ")
           << getMin()->convertToDouble() << " and max = " << getMax()->convertToDouble();
  return success();
}

OpFoldResult ClipOp::fold(FoldAdaptor) {
  // Unbounded on both sides: the identity.
  if (!getMin() && !getMax())
    return getInput();
  return {};
}

LogicalResult HardSigmoidOp::verify() {
  if (getAlpha().convertToDouble() == 0.0)
    return emitOpError("expects a non-zero alpha");
  return success();
}

//===----------------------------------------------------------------------===//
// Classification
//===----------------------------------------------------------------------===//

LogicalResult IsNanOp::inferReturnTypes(MLIRContext *context, std::optional<Location>,
                                        Adaptor adaptor, SmallVectorImpl<Type> &results) {
  auto type = cast<RankedTensorType>(adaptor.getInput().getType());
  results.push_back(type.clone(IntegerType::get(context, 1)));
  return success();
}

LogicalResult IsInfOp::inferReturnTypes(MLIRContext *context, std::optional<Location>,
                                        Adaptor adaptor, SmallVectorImpl<Type> &results) {
  auto type = cast<RankedTensorType>(adaptor.getInput().getType());
  results.push_back(type.clone(IntegerType::get(context, 1)));
  return success();
}

//===----------------------------------------------------------------------===//
// Cast
//===----------------------------------------------------------------------===//

OpFoldResult CastOp::fold(FoldAdaptor) {
  if (getInput().getType() == getType())
    return getInput();
  // cast(cast(x)) back to x's type is exact when the middle type widens (f16 -> f32 -> f16).
  if (auto producer = getInput().getDefiningOp<CastOp>()) {
    Type inner = producer.getInput().getType();
    auto innerEt = dyn_cast<FloatType>(getElementTypeOrSelf(inner));
    auto midEt = dyn_cast<FloatType>(getElementTypeOrSelf(producer.getType()));
    if (inner == getType() && innerEt && midEt && midEt.getWidth() > innerEt.getWidth())
      return producer.getInput();
  }
  return {};
}
