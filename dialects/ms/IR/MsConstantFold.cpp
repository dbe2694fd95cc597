//===- MsConstantFold.cpp - evaluating ms ops on dense constants ----------===//

#include "dialects/ms/IR/MsConstantFold.h"

#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/APSInt.h"

using namespace mlir;
using namespace mlir::ms;

DenseElementsAttr mlir::ms::getDenseConstant(Attribute attr) {
  auto dense = dyn_cast_if_present<DenseElementsAttr>(attr);
  if (!dense || !dense.getType().hasStaticShape())
    return {};
  Type et = dense.getElementType();
  if (!isa<IntegerType, FloatType>(et))
    return {};
  return dense;
}

bool mlir::ms::isUnsignedInteger(Type type) {
  auto it = dyn_cast<IntegerType>(getElementTypeOrSelf(type));
  return it && (it.isUnsigned() || it.getWidth() == 1);
}

SmallVector<int64_t> mlir::ms::rowMajorStrides(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides(shape.size(), 1);
  for (int64_t d = (int64_t)shape.size() - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape[d + 1];
  return strides;
}

/// A result type the evaluators build: static, not too large.
static ShapedType foldableResult(Type type) {
  auto shaped = dyn_cast<RankedTensorType>(type);
  if (!shaped || !shaped.hasStaticShape() || shaped.getNumElements() > kMaxFoldedElements)
    return {};
  return shaped;
}

namespace {

/// One operand of a broadcast evaluation: its elements and its strides in the result's index
/// space (0 along broadcast dims; a splat has one element and all-zero strides).
template <typename T>
struct BroadcastOperand {
  SmallVector<T> values;
  SmallVector<int64_t> strides;
};

/// The strides of a constant of `shape` (or a splat) in the index space of `resultShape`.
std::optional<SmallVector<int64_t>> broadcastStrides(DenseElementsAttr dense,
                                                     ArrayRef<int64_t> resultShape) {
  ArrayRef<int64_t> shape = dense.getType().getShape();
  if (shape.size() > resultShape.size())
    return std::nullopt;
  SmallVector<int64_t> strides(resultShape.size(), 0);
  if (dense.isSplat())
    return strides;
  size_t offset = resultShape.size() - shape.size();
  SmallVector<int64_t> own = rowMajorStrides(shape);
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] != 1 && shape[d] != resultShape[offset + d])
      return std::nullopt;
    strides[offset + d] = shape[d] == 1 ? 0 : own[d];
  }
  return strides;
}

template <typename T>
std::optional<BroadcastOperand<T>> readOperand(Attribute attr, ArrayRef<int64_t> resultShape) {
  DenseElementsAttr dense = getDenseConstant(attr);
  if (!dense)
    return std::nullopt;
  std::optional<SmallVector<int64_t>> strides = broadcastStrides(dense, resultShape);
  if (!strides)
    return std::nullopt;
  BroadcastOperand<T> op;
  op.strides = std::move(*strides);
  if (dense.isSplat())
    op.values.push_back(dense.getSplatValue<T>());
  else
    llvm::append_range(op.values, dense.getValues<T>());
  return op;
}

/// Calls `fn(offsets)` for every result element in row-major order with each operand's element
/// offset; stops (returning false) when `fn` does.
template <typename Fn>
bool forEachBroadcast(ArrayRef<int64_t> shape, ArrayRef<ArrayRef<int64_t>> strides, Fn fn) {
  int64_t count = 1;
  for (int64_t d : shape)
    count *= d;
  SmallVector<int64_t> index(shape.size(), 0), offsets(strides.size(), 0);
  for (int64_t i = 0; i < count; ++i) {
    if (!fn(ArrayRef<int64_t>(offsets)))
      return false;
    for (int64_t d = (int64_t)shape.size() - 1; d >= 0; --d) {
      for (size_t k = 0; k < strides.size(); ++k)
        offsets[k] += strides[k][d];
      if (++index[d] < shape[d])
        break;
      for (size_t k = 0; k < strides.size(); ++k)
        offsets[k] -= strides[k][d] * shape[d];
      index[d] = 0;
    }
  }
  return true;
}

template <typename In, typename Out>
Attribute foldBroadcast(ArrayRef<Attribute> operands, Type resultType,
                        function_ref<std::optional<Out>(ArrayRef<In>)> fn) {
  ShapedType type = foldableResult(resultType);
  if (!type)
    return {};
  SmallVector<BroadcastOperand<In>> ops;
  for (Attribute a : operands) {
    std::optional<BroadcastOperand<In>> op = readOperand<In>(a, type.getShape());
    if (!op)
      return {};
    ops.push_back(std::move(*op));
  }
  SmallVector<ArrayRef<int64_t>> strides;
  for (auto &op : ops)
    strides.push_back(op.strides);
  SmallVector<Out> results;
  results.reserve(type.getNumElements());
  SmallVector<In> args;
  bool complete = forEachBroadcast(type.getShape(), strides, [&](ArrayRef<int64_t> offsets) {
    args.clear();
    for (size_t k = 0; k < ops.size(); ++k)
      args.push_back(ops[k].values[offsets[k]]);
    std::optional<Out> r = fn(args);
    if (!r)
      return false;
    results.push_back(std::move(*r));
    return true;
  });
  if (!complete)
    return {};
  return DenseElementsAttr::get(type, results);
}

bool allOf(ArrayRef<Attribute> operands, bool wantFloat) {
  for (Attribute a : operands) {
    DenseElementsAttr dense = getDenseConstant(a);
    if (!dense || isa<FloatType>(dense.getElementType()) != wantFloat)
      return false;
  }
  return true;
}

} // namespace

Attribute mlir::ms::foldIntElementwise(ArrayRef<Attribute> operands, Type resultType,
                                       function_ref<std::optional<APInt>(ArrayRef<APInt>)> fn) {
  if (!allOf(operands, false) || !isa<IntegerType>(getElementTypeOrSelf(resultType)))
    return {};
  return foldBroadcast<APInt, APInt>(operands, resultType, fn);
}

Attribute
mlir::ms::foldFloatElementwise(ArrayRef<Attribute> operands, Type resultType,
                               function_ref<std::optional<APFloat>(ArrayRef<APFloat>)> fn) {
  if (!allOf(operands, true) || !isa<FloatType>(getElementTypeOrSelf(resultType)))
    return {};
  return foldBroadcast<APFloat, APFloat>(operands, resultType, fn);
}

Attribute
mlir::ms::foldFloatToIntElementwise(ArrayRef<Attribute> operands, Type resultType,
                                    function_ref<std::optional<APInt>(ArrayRef<APFloat>)> fn) {
  if (!allOf(operands, true) || !isa<IntegerType>(getElementTypeOrSelf(resultType)))
    return {};
  return foldBroadcast<APFloat, APInt>(operands, resultType, fn);
}

Attribute mlir::ms::foldSelect(Attribute condition, Attribute onTrue, Attribute onFalse,
                               Type resultType) {
  ShapedType type = foldableResult(resultType);
  if (!type || !getDenseConstant(condition))
    return {};
  // Index arithmetic picks each element's source; the values are then gathered as they are.
  std::optional<BroadcastOperand<APInt>> cond = readOperand<APInt>(condition, type.getShape());
  if (!cond)
    return {};
  SmallVector<Attribute> inputs = {onTrue, onFalse};
  SmallVector<SmallVector<int64_t>> layouts;
  for (Attribute a : inputs) {
    DenseElementsAttr dense = getDenseConstant(a);
    if (!dense || dense.getElementType() != type.getElementType())
      return {};
    std::optional<SmallVector<int64_t>> strides = broadcastStrides(dense, type.getShape());
    if (!strides)
      return {};
    layouts.push_back(std::move(*strides));
  }
  SmallVector<std::pair<unsigned, int64_t>> sources;
  SmallVector<ArrayRef<int64_t>> strides = {cond->strides, layouts[0], layouts[1]};
  forEachBroadcast(type.getShape(), strides, [&](ArrayRef<int64_t> offsets) {
    bool pick = !cond->values[offsets[0]].isZero();
    sources.push_back(pick ? std::make_pair(0u, offsets[1]) : std::make_pair(1u, offsets[2]));
    return true;
  });
  return foldGather(inputs, type, [&](int64_t i) { return sources[i]; });
}

Attribute mlir::ms::foldGather(ArrayRef<Attribute> inputs, Type resultType,
                               function_ref<std::pair<unsigned, int64_t>(int64_t)> source) {
  ShapedType type = foldableResult(resultType);
  if (!type)
    return {};
  SmallVector<DenseElementsAttr> dense;
  for (Attribute a : inputs) {
    DenseElementsAttr d = getDenseConstant(a);
    if (!d || d.getElementType() != type.getElementType())
      return {};
    dense.push_back(d);
  }
  auto element = [&](auto tag, unsigned k, int64_t i) {
    using T = decltype(tag);
    return dense[k].isSplat() ? dense[k].getSplatValue<T>() : dense[k].getValues<T>()[i];
  };
  auto build = [&](auto tag) -> Attribute {
    using T = decltype(tag);
    SmallVector<T> values;
    for (int64_t i = 0, e = type.getNumElements(); i < e; ++i) {
      auto [k, at] = source(i);
      if (k >= dense.size() || at < 0 || at >= dense[k].getNumElements())
        return {};
      values.push_back(element(tag, k, at));
    }
    return DenseElementsAttr::get(type, values);
  };
  if (isa<FloatType>(type.getElementType()))
    return build(APFloat(0.0));
  return build(APInt());
}

Attribute mlir::ms::foldCast(Attribute input, Type resultType) {
  DenseElementsAttr dense = getDenseConstant(input);
  ShapedType type = foldableResult(resultType);
  if (!dense || !type)
    return {};
  Type from = dense.getElementType(), to = type.getElementType();
  // Conversions from and to the 8-bit and 4-bit floats follow ONNX's saturate and round_mode
  // (ms.cast's attributes, which this does not see): the generated code computes them.
  auto isNarrowFloat = [](Type t) {
    auto f = dyn_cast<FloatType>(t);
    return f && f.getWidth() < 16;
  };
  if (isNarrowFloat(from) || isNarrowFloat(to))
    return {};
  bool fromUnsigned = isUnsignedInteger(from);
  if (auto toInt = dyn_cast<IntegerType>(to)) {
    unsigned width = toInt.getWidth();
    if (isa<IntegerType>(from)) {
      return foldIntElementwise({input}, type, [&](ArrayRef<APInt> x) -> std::optional<APInt> {
        if (width == 1)
          return APInt(1, !x[0].isZero());
        return fromUnsigned ? x[0].zextOrTrunc(width) : x[0].sextOrTrunc(width);
      });
    }
    bool toUnsigned = isUnsignedInteger(toInt);
    return foldFloatToIntElementwise(
        {input}, type, [&](ArrayRef<APFloat> x) -> std::optional<APInt> {
          if (x[0].isNaN())
            return std::nullopt;
          if (width == 1)
            return APInt(1, !x[0].isZero());
          // Out of range is undefined in ONNX (and differs between targets): not folded.
          llvm::APSInt result(width, toUnsigned);
          bool exact;
          if (x[0].convertToInteger(result, APFloat::rmTowardZero, &exact) & APFloat::opInvalidOp)
            return std::nullopt;
          return APInt(result);
        });
  }
  auto toFloat = cast<FloatType>(to);
  const llvm::fltSemantics &semantics = toFloat.getFloatSemantics();
  if (isa<IntegerType>(from)) {
    // The int -> float conversion builds float elements out of integer operands.
    SmallVector<APFloat> values;
    auto convert = [&](const APInt &v) {
      APFloat f(semantics);
      f.convertFromAPInt(v, !fromUnsigned, APFloat::rmNearestTiesToEven);
      return f;
    };
    if (dense.isSplat())
      return DenseElementsAttr::get(type, convert(dense.getSplatValue<APInt>()));
    for (const APInt &v : dense.getValues<APInt>())
      values.push_back(convert(v));
    return DenseElementsAttr::get(type, values);
  }
  return foldFloatElementwise({input}, type, [&](ArrayRef<APFloat> x) -> std::optional<APFloat> {
    APFloat f = x[0];
    bool lost;
    f.convert(semantics, APFloat::rmNearestTiesToEven, &lost);
    return f;
  });
}

ConstantOperandFold
mlir::ms::foldOnConstantOperands(Operation *op, ArrayRef<Attribute> operands,
                                 function_ref<DenseElementsAttr(Value)> constantOf) {
  Value result = op->getResult(0);
  SmallVector<OpFoldResult> folded;
  // An in-place fold (no results) leaves an updated op: keep it.
  if (op->getNumResults() != 1 || failed(op->fold(operands, folded)) || folded.size() != 1)
    return {};
  DenseElementsAttr attr;
  if (auto value = dyn_cast<Value>(folded[0])) {
    if (value.getType() != result.getType())
      return {};
    // Every operand is constant, so an operand it folds to (1 * x, x + 0) is one too, but the
    // caller may hold it otherwise (model data as a resource): a new dense constant keeps it known.
    attr = constantOf(value);
    if (!attr)
      return {value, {}};
  } else {
    attr = dyn_cast<DenseElementsAttr>(cast<Attribute>(folded[0]));
  }
  if (!attr || attr.getType() != result.getType())
    return {};
  return {{}, attr};
}
