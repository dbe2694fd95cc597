//===- MsElementwiseOps.cpp - unary, binary, compare, where, cast ---------===//

#include "dialects/ms/IR/MsConstantFold.h"
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

using IntFn = function_ref<std::optional<APInt>(const APInt &, const APInt &, bool isUnsigned)>;
using FloatFn = function_ref<std::optional<APFloat>(const APFloat &, const APFloat &)>;

/// Constant-folds a broadcasting binary op: `intFn` on integer operands (told whether the element
/// type is unsigned), `floatFn` on floating-point ones; either may be null (not folded).
static Attribute foldBinary(ArrayRef<Attribute> operands, Type resultType, IntFn intFn,
                            FloatFn floatFn) {
  Type et = getElementTypeOrSelf(resultType);
  if (isa<FloatType>(et)) {
    if (!floatFn)
      return {};
    return foldFloatElementwise(operands, resultType,
                                [&](ArrayRef<APFloat> x) { return floatFn(x[0], x[1]); });
  }
  if (!intFn)
    return {};
  bool isUnsigned = isUnsignedInteger(et);
  return foldIntElementwise(operands, resultType,
                            [&](ArrayRef<APInt> x) { return intFn(x[0], x[1], isUnsigned); });
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
  return foldBinary(
      adaptor.getOperands(), type, [](const APInt &x, const APInt &y, bool) { return x + y; },
      [](const APFloat &x, const APFloat &y) { return x + y; });
}

OpFoldResult SubOp::fold(FoldAdaptor adaptor) {
  Type type = getType();
  if (Value v = foldIdentityOperand(getLhs(), adaptor.getRhs(), 0.0, type))
    return v;
  return foldBinary(
      adaptor.getOperands(), type, [](const APInt &x, const APInt &y, bool) { return x - y; },
      [](const APFloat &x, const APFloat &y) { return x - y; });
}

OpFoldResult MulOp::fold(FoldAdaptor adaptor) {
  Type type = getType();
  if (Value v = foldIdentityOperand(getLhs(), adaptor.getRhs(), 1.0, type))
    return v;
  if (Value v = foldIdentityOperand(getRhs(), adaptor.getLhs(), 1.0, type))
    return v;
  return foldBinary(
      adaptor.getOperands(), type, [](const APInt &x, const APInt &y, bool) { return x * y; },
      [](const APFloat &x, const APFloat &y) { return x * y; });
}

OpFoldResult DivOp::fold(FoldAdaptor adaptor) {
  Type type = getType();
  if (Value v = foldIdentityOperand(getLhs(), adaptor.getRhs(), 1.0, type))
    return v;
  // An integer division by zero is left to the generated code (which defines it as 0); the most
  // negative value divided by -1 wraps to itself, as there.
  return foldBinary(
      adaptor.getOperands(), type,
      [](const APInt &x, const APInt &y, bool isUnsigned) -> std::optional<APInt> {
        if (y.isZero())
          return std::nullopt;
        return isUnsigned ? x.udiv(y) : x.sdiv(y);
      },
      [](const APFloat &x, const APFloat &y) { return x / y; });
}

OpFoldResult ModOp::fold(FoldAdaptor adaptor) {
  bool fmod = getFmod();
  return foldBinary(
      adaptor.getOperands(), getType(),
      [&](const APInt &x, const APInt &y, bool isUnsigned) -> std::optional<APInt> {
        if (y.isZero())
          return std::nullopt;
        if (isUnsigned)
          return x.urem(y);
        APInt r = x.srem(y); // the dividend's sign (fmod)
        if (!fmod && !r.isZero() && r.isNegative() != y.isNegative())
          r += y; // the divisor's sign (Python's %)
        return r;
      },
      [](const APFloat &x, const APFloat &y) -> std::optional<APFloat> {
        APFloat r = x;
        r.mod(y); // C's fmod: exact
        return r;
      });
}

OpFoldResult PowOp::fold(FoldAdaptor adaptor) {
  if (Value v = foldIdentityOperand(getLhs(), adaptor.getRhs(), 1.0, getType()))
    return v;
  // Integer powers only (shape arithmetic), and only where the exact result fits: the generated
  // code's overflow behaviour is not something to bake into a constant.
  return foldBinary(
      adaptor.getOperands(), getType(),
      [](const APInt &x, const APInt &y, bool isUnsigned) -> std::optional<APInt> {
        if (!isUnsigned && y.isNegative())
          return std::nullopt;
        APInt result(x.getBitWidth(), 1);
        if (x.isZero() || x.isOne())
          return y.isZero() ? result : x;
        if (y.getActiveBits() > 8)
          return std::nullopt; // |x| >= 2 to a power past 255 overflows any width
        for (uint64_t i = 0, e = y.getZExtValue(); i < e; ++i) {
          bool overflow = false;
          result = isUnsigned ? result.umul_ov(x, overflow) : result.smul_ov(x, overflow);
          if (overflow)
            return std::nullopt;
        }
        return result;
      },
      nullptr);
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
  return foldBinary(
      adaptor.getOperands(), getType(),
      [](const APInt &x, const APInt &y, bool isUnsigned) {
        return isUnsigned ? (x.uge(y) ? x : y) : (x.sge(y) ? x : y);
      },
      [](const APFloat &x, const APFloat &y) { return llvm::maximum(x, y); });
}

OpFoldResult MinOp::fold(FoldAdaptor adaptor) {
  if (getLhs() == getRhs() && getLhs().getType() == getType())
    return getLhs();
  return foldBinary(
      adaptor.getOperands(), getType(),
      [](const APInt &x, const APInt &y, bool isUnsigned) {
        return isUnsigned ? (x.ule(y) ? x : y) : (x.sle(y) ? x : y);
      },
      [](const APFloat &x, const APFloat &y) { return llvm::minimum(x, y); });
}

OpFoldResult AndOp::fold(FoldAdaptor adaptor) {
  if (getLhs() == getRhs() && getLhs().getType() == getType())
    return getLhs();
  return foldBinary(
      adaptor.getOperands(), getType(), [](const APInt &x, const APInt &y, bool) { return x & y; },
      nullptr);
}

OpFoldResult OrOp::fold(FoldAdaptor adaptor) {
  if (getLhs() == getRhs() && getLhs().getType() == getType())
    return getLhs();
  return foldBinary(
      adaptor.getOperands(), getType(), [](const APInt &x, const APInt &y, bool) { return x | y; },
      nullptr);
}

OpFoldResult XorOp::fold(FoldAdaptor adaptor) {
  Type type = getType();
  if (Value v = foldIdentityOperand(getLhs(), adaptor.getRhs(), 0.0, type))
    return v;
  if (Value v = foldIdentityOperand(getRhs(), adaptor.getLhs(), 0.0, type))
    return v;
  return foldBinary(
      adaptor.getOperands(), type, [](const APInt &x, const APInt &y, bool) { return x ^ y; },
      nullptr);
}

/// Shifts read the amount as unsigned; shifting by the width or more gives 0 (ONNX BitShift).
static std::optional<APInt> shift(const APInt &x, const APInt &y, bool left) {
  if (y.uge(x.getBitWidth()))
    return APInt(x.getBitWidth(), 0);
  unsigned amount = y.getZExtValue();
  return left ? x.shl(amount) : x.lshr(amount);
}

OpFoldResult ShiftLeftOp::fold(FoldAdaptor adaptor) {
  return foldBinary(
      adaptor.getOperands(), getType(),
      [](const APInt &x, const APInt &y, bool) { return shift(x, y, true); }, nullptr);
}

OpFoldResult ShiftRightOp::fold(FoldAdaptor adaptor) {
  return foldBinary(
      adaptor.getOperands(), getType(),
      [](const APInt &x, const APInt &y, bool) { return shift(x, y, false); }, nullptr);
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

template <typename T>
static bool compareWith(ComparePredicate predicate, const T &less, const T &equal) {
  switch (predicate) {
  case ComparePredicate::eq:
    return equal;
  case ComparePredicate::ne:
    return !equal;
  case ComparePredicate::lt:
    return less;
  case ComparePredicate::le:
    return less || equal;
  case ComparePredicate::gt:
    return !less && !equal;
  case ComparePredicate::ge:
    return !less;
  }
  return false;
}

OpFoldResult CompareOp::fold(FoldAdaptor adaptor) {
  ComparePredicate predicate = getPredicate();
  Type et = getElementTypeOrSelf(getLhs().getType());
  if (isa<FloatType>(et)) {
    // Ordered predicates, except ne: any comparison with NaN is false, NaN != x is true.
    return foldFloatToIntElementwise(
        adaptor.getOperands(), getType(), [&](ArrayRef<APFloat> x) -> std::optional<APInt> {
          APFloat::cmpResult r = x[0].compare(x[1]);
          if (r == APFloat::cmpUnordered)
            return APInt(1, predicate == ComparePredicate::ne);
          return APInt(1, compareWith(predicate, r == APFloat::cmpLessThan,
                                      r == APFloat::cmpEqual));
        });
  }
  bool isUnsigned = isUnsignedInteger(et);
  return foldIntElementwise(adaptor.getOperands(), getType(),
                            [&](ArrayRef<APInt> x) -> std::optional<APInt> {
                              bool less = isUnsigned ? x[0].ult(x[1]) : x[0].slt(x[1]);
                              return APInt(1, compareWith(predicate, less, x[0] == x[1]));
                            });
}

OpFoldResult WhereOp::fold(FoldAdaptor adaptor) {
  Type type = getType();
  if (getOnTrue() == getOnFalse() && getOnTrue().getType() == type)
    return getOnTrue();
  if (Attribute folded = foldSelect(adaptor.getCondition(), adaptor.getOnTrue(),
                                    adaptor.getOnFalse(), type))
    return folded;
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

/// Integer neg/abs of constants; the most negative value (whose negation wraps) is not folded.
static Attribute foldUnaryInt(Attribute operand, Type resultType, bool isAbs) {
  bool isUnsigned = isUnsignedInteger(resultType);
  return foldIntElementwise({operand}, resultType, [&](ArrayRef<APInt> x) -> std::optional<APInt> {
    if (isUnsigned)
      return isAbs ? std::optional<APInt>(x[0]) : std::nullopt;
    if (x[0].isMinSignedValue())
      return std::nullopt;
    return isAbs ? x[0].abs() : -x[0];
  });
}

OpFoldResult NegOp::fold(FoldAdaptor adaptor) {
  if (auto producer = getInput().getDefiningOp<NegOp>())
    return producer.getInput();
  if (Attribute a = foldUnaryInt(adaptor.getInput(), getType(), false))
    return a;
  return foldUnaryFloat(adaptor.getInput(), getType(), [](double x) { return -x; });
}

OpFoldResult AbsOp::fold(FoldAdaptor adaptor) {
  if (auto producer = getInput().getDefiningOp<AbsOp>())
    return producer.getResult();
  if (Attribute a = foldUnaryInt(adaptor.getInput(), getType(), true))
    return a;
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

OpFoldResult FloorOp::fold(FoldAdaptor adaptor) {
  return foldUnaryFloat(adaptor.getInput(), getType(), [](double x) { return std::floor(x); });
}

OpFoldResult CeilOp::fold(FoldAdaptor adaptor) {
  return foldUnaryFloat(adaptor.getInput(), getType(), [](double x) { return std::ceil(x); });
}

OpFoldResult RoundOp::fold(FoldAdaptor adaptor) {
  // Halves to even, as ONNX Round: nearbyint in the default rounding mode.
  return foldUnaryFloat(adaptor.getInput(), getType(), [](double x) { return std::nearbyint(x); });
}

OpFoldResult NotOp::fold(FoldAdaptor adaptor) {
  if (auto producer = getInput().getDefiningOp<NotOp>())
    return producer.getInput();
  return foldIntElementwise({adaptor.getInput()}, getType(),
                            [](ArrayRef<APInt> x) -> std::optional<APInt> { return ~x[0]; });
}

LogicalResult ClipOp::verify() {
  if (getMin() && getMax() && getMin()->convertToDouble() > getMax()->convertToDouble())
    return emitOpError("expects min <= max, got min = ")
           << getMin()->convertToDouble() << " and max = " << getMax()->convertToDouble();
  return success();
}

OpFoldResult ClipOp::fold(FoldAdaptor adaptor) {
  // Unbounded on both sides: the identity.
  if (!getMin() && !getMax())
    return getInput();
  const double lo = getMin() ? getMin()->convertToDouble() : -INFINITY;
  const double hi = getMax() ? getMax()->convertToDouble() : INFINITY;
  // Constants: shape arithmetic clamps sizes (TF "same" padding exported as max(pad, 0)), and the
  // importer needs the clamped sizes as known values.
  Type et = getElementTypeOrSelf(getType());
  if (auto intType = dyn_cast<IntegerType>(et)) {
    const bool isUnsigned = intType.isUnsigned();
    return foldIntElementwise(
        {adaptor.getInput()}, getType(), [&](ArrayRef<APInt> x) -> std::optional<APInt> {
          const double v = isUnsigned ? double(x[0].getZExtValue()) : double(x[0].getSExtValue());
          if (v >= lo && v <= hi)
            return x[0];
          const double bound = v < lo ? std::ceil(lo) : std::floor(hi);
          return APInt(x[0].getBitWidth(), static_cast<uint64_t>(static_cast<int64_t>(bound)),
                       /*isSigned=*/!isUnsigned);
        });
  }
  if (!isa<FloatType>(et))
    return {};
  return foldFloatElementwise(
      {adaptor.getInput()}, getType(), [&](ArrayRef<APFloat> x) -> std::optional<APFloat> {
        const double v = x[0].convertToDouble();
        if (std::isnan(v) || (v >= lo && v <= hi))
          return x[0];
        APFloat r(v < lo ? lo : hi);
        bool lost;
        r.convert(x[0].getSemantics(), APFloat::rmNearestTiesToEven, &lost);
        return r;
      });
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

LogicalResult CastOp::verify() {
  if (std::optional<StringRef> mode = getRoundMode()) {
    if (*mode != "up" && *mode != "down" && *mode != "nearest")
      return emitOpError() << "round_mode must be \"up\", \"down\" or \"nearest\", got \"" << *mode
                           << "\"";
    if (!isa<Float8E8M0FNUType>(getElementTypeOrSelf(getType())))
      return emitOpError() << "round_mode applies only to a f8E8M0FNU result, got "
                           << getElementTypeOrSelf(getType());
  }
  return success();
}

OpFoldResult CastOp::fold(FoldAdaptor adaptor) {
  if (getInput().getType() == getType())
    return getInput();
  // cast(cast(x)) back to x's type is exact when the middle type widens (f16 -> f32 -> f16).
  if (auto producer = getInput().getDefiningOp<CastOp>()) {
    Type inner = producer.getInput().getType();
    auto innerEt = dyn_cast<FloatType>(getElementTypeOrSelf(inner));
    auto midEt = dyn_cast<FloatType>(getElementTypeOrSelf(producer.getType()));
    if (inner == getType() && innerEt && midEt && midEt.getWidth() > innerEt.getWidth())
      return producer.getInput();
    // Integers through a float type whose significand holds every one of them (ui8 -> f32 ->
    // ui8: a quantized activation read back by the next integer kernel).
    auto innerInt = dyn_cast<IntegerType>(getElementTypeOrSelf(inner));
    if (inner == getType() && innerInt && midEt &&
        innerInt.getWidth() + (innerInt.isUnsigned() ? 0 : 1) <= midEt.getFPMantissaWidth())
      return producer.getInput();
  }
  return foldCast(adaptor.getInput(), getType());
}
