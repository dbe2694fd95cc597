//===- DecomposeBuilder.h - building ms primitives in decompositions -*- C++ -*-===//
//
// `OpChain`, the pattern-side twin of the importer's composite builder (lib/Import/Onnx/
// OnnxCompositeBuilder.h): the decompositions moved out of the importer keep their shape, and
// they emit the same primitives in the same order as the importer did (a reshape or expand to the
// shape a value already has, a transpose by the identity and a cast to the same element type are
// no ops, as there). Each op is folded as it is built, as the importer folded each op it built
// (NodeImporter::foldCreated: only on constant operands), so that ms-decompose's greedy driver
// starts from the IR the importer emitted (see Decompose.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef MS_TRANSFORMS_DECOMPOSEBUILDER_H
#define MS_TRANSFORMS_DECOMPOSEBUILDER_H

#include "dialects/ms/IR/MsConstantFold.h"
#include "dialects/ms/IR/MsOps.h"
#include "dialects/ms/IR/MsSymbolicShapes.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::ms {

inline RankedTensorType tensorTypeOf(Value v) { return cast<RankedTensorType>(v.getType()); }

/// A reshape of `x` to `dims`, built in place of `op`: static, or symbolic (sizes `?` with their
/// expressions over the function's symbols) where a dim is not a constant.
inline Value reshapeToDims(OpBuilder &b, Operation *op, Value x, ArrayRef<AffineExpr> dims) {
  auto [sizes, map] = staticAndSymbolic(op, dims);
  return ReshapeOp::create(b, op->getLoc(), x, b.getDenseI64ArrayAttr(sizes), map);
}

/// How OpChain reads constant operands while the importer expands an op on model data
/// (expandImportComposite): as the importer reads them, small model data kept as resources
/// (scalars, small integer tensors) included, so that each op folds where the importer's own
/// expansion folded it. Null otherwise: dense constants only.
inline thread_local const function_ref<DenseElementsAttr(Value)> *importConstantReader = nullptr;

class OpChain {
public:
  OpChain(PatternRewriter &rewriter, Location loc) : rewriter(rewriter), loc(loc) {}

  MLIRContext *context() const { return rewriter.getContext(); }

  template <typename OpTy, typename... Args>
  Value op(Args &&...args) {
    return fold(OpTy::create(rewriter, loc, std::forward<Args>(args)...).getOperation());
  }

  /// Folds `op` as NodeImporter::foldCreated does (both through foldOnConstantOperands): only
  /// where every operand is a dense constant, the result becoming a new constant (erasing `op`),
  /// or an existing value that is not one.
  /// Folding ops with some run-time operands too (createOrFold) would leave constants unused
  /// where the importer left none, and change the order the greedy driver meets them in.
  Value fold(Operation *op) {
    Value result = op->getResult(0);
    auto read = [](Value value) {
      if (importConstantReader)
        return (*importConstantReader)(value);
      Attribute attr;
      return matchPattern(value, m_Constant(&attr)) ? dyn_cast<DenseElementsAttr>(attr)
                                                    : DenseElementsAttr();
    };
    SmallVector<Attribute> operands;
    for (Value v : op->getOperands()) {
      DenseElementsAttr value = read(v);
      if (!value)
        return result;
      operands.push_back(value);
    }
    ConstantOperandFold folded = foldOnConstantOperands(op, operands, read);
    if (folded.value) {
      rewriter.eraseOp(op);
      return folded.value;
    }
    if (!folded.constant)
      return result;
    Value constant = ConstantOp::create(rewriter, loc, folded.constant);
    rewriter.eraseOp(op);
    return constant;
  }

  /// A constant holding `attr`.
  Value constant(DenseElementsAttr attr) { return ConstantOp::create(rewriter, loc, attr); }
  /// A rank-0 constant of `elementType` (float or integer), broadcast by the elementwise ops.
  Value scalar(Type elementType, double value) { return splat({}, elementType, value); }
  /// An integer constant of `shape` from `values` (wrapped to `elementType`'s width; i1: 0 / 1).
  Value ints(ArrayRef<int64_t> shape, Type elementType, ArrayRef<int64_t> values) {
    unsigned width = elementType.getIntOrFloatBitWidth();
    SmallVector<APInt> converted;
    for (int64_t v : values)
      converted.push_back(APInt(width, static_cast<uint64_t>(width == 1 ? v != 0 : v),
                                /*isSigned=*/false, /*implicitTrunc=*/true));
    return constant(DenseElementsAttr::get(RankedTensorType::get(shape, elementType), converted));
  }
  /// `shape` filled with `value` (float or integer `elementType`).
  Value splat(ArrayRef<int64_t> shape, Type elementType, double value) {
    auto type = RankedTensorType::get(shape, elementType);
    if (auto ft = dyn_cast<FloatType>(elementType))
      return constant(DenseElementsAttr::get(type, Attribute(FloatAttr::get(ft, value))));
    return constant(DenseElementsAttr::get(
        type, Attribute(IntegerAttr::get(elementType, static_cast<int64_t>(value)))));
  }
  /// A float constant of `shape` from `values` (converted to `elementType`).
  Value floats(ArrayRef<int64_t> shape, Type elementType, ArrayRef<double> values) {
    auto ft = llvm::cast<FloatType>(elementType);
    SmallVector<APFloat> converted;
    converted.reserve(values.size());
    for (double v : values) {
      APFloat f(v);
      bool lost;
      f.convert(ft.getFloatSemantics(), APFloat::rmNearestTiesToEven, &lost);
      converted.push_back(f);
    }
    return constant(DenseElementsAttr::get(RankedTensorType::get(shape, ft), converted));
  }

  Value add(Value a, Value b) { return op<AddOp>(a, b); }
  Value sub(Value a, Value b) { return op<SubOp>(a, b); }
  Value mul(Value a, Value b) { return op<MulOp>(a, b); }
  Value div(Value a, Value b) { return op<DivOp>(a, b); }
  Value compare(ComparePredicate predicate, Value a, Value b) {
    return op<CompareOp>(predicate, a, b);
  }
  Value where(Value c, Value a, Value b) { return op<WhereOp>(c, a, b); }

  template <typename ReduceOpTy>
  Value reduce(Value x, ArrayRef<int64_t> axes, bool keepDims) {
    return op<ReduceOpTy>(x, axes, keepDims);
  }

  Value reshape(Value x, ArrayRef<int64_t> shape) {
    if (tensorTypeOf(x).getShape() == shape)
      return x;
    return op<ReshapeOp>(x, shape);
  }
  Value transpose(Value x, ArrayRef<int64_t> perm) {
    bool identity = true;
    for (auto [i, p] : llvm::enumerate(perm))
      identity &= static_cast<int64_t>(i) == p;
    return identity ? x : op<TransposeOp>(x, perm);
  }
  Value expand(Value x, ArrayRef<int64_t> shape) {
    if (tensorTypeOf(x).getShape() == shape)
      return x;
    return op<ExpandOp>(x, shape);
  }
  /// Zero padding; negative amounts crop.
  Value pad(Value x, ArrayRef<int64_t> pads) {
    if (llvm::all_of(pads, [](int64_t p) { return p == 0; }))
      return x;
    return op<PadOp>(x, pads, PadMode::constant, APFloat(0.0));
  }
  Value slice(Value x, ArrayRef<int64_t> starts, ArrayRef<int64_t> sizes, ArrayRef<int64_t> steps) {
    return op<SliceOp>(x, starts, sizes, steps);
  }
  Value cast(Value x, Type elementType) {
    RankedTensorType type = tensorTypeOf(x);
    if (type.getElementType() == elementType)
      return x;
    return CastOp::create(rewriter, loc, type.clone(elementType), x);
  }

private:
  PatternRewriter &rewriter;
  Location loc;
};

} // namespace mlir::ms

#endif // MS_TRANSFORMS_DECOMPOSEBUILDER_H
