//===- SpecializeDims.cpp - the ms-specialize-dims pass -------------------===//
//
// Sizes every symbol of a function, then rewrites each type with `?` to the static type its
// dims evaluate to (all dims first, then the types: an op's rule reads its operands' symbolic
// dims, which retyping would lose).
//
//===----------------------------------------------------------------------===//

#include "dialects/ms/IR/MsSymbolicShapes.h"
#include "dialects/ms/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::ms {
#define GEN_PASS_DEF_MSSPECIALIZEDIMSPASS
#include "dialects/ms/Transforms/Passes.h.inc"

namespace {

struct MsSpecializeDimsPass : impl::MsSpecializeDimsPassBase<MsSpecializeDimsPass> {
  using impl::MsSpecializeDimsPassBase<MsSpecializeDimsPass>::MsSpecializeDimsPassBase;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (!func->hasAttr(kSymbolsAttrName))
      return;
    SymbolicShapes shapes(func);
    FailureOr<SmallVector<AffineExpr>> values = symbolValues(func, shapes);
    if (failed(values))
      return signalPassFailure();

    // Every value's static type, evaluated before any type changes.
    DenseMap<Value, Type> retyped;
    bool failedAny = false;
    auto evaluate = [&](Value v, Location loc) {
      auto type = dyn_cast<RankedTensorType>(v.getType());
      if (!type || type.hasStaticShape())
        return;
      SmallVector<int64_t> shape;
      for (auto [i, e] : llvm::enumerate(shapes.dims(v))) {
        std::optional<int64_t> size = evaluateDim(e, *values);
        if (!size || *size < 0) {
          emitError(loc) << "dim " << i << " of " << type << " is "
                         << (size ? "negative for the given sizes"
                                  : "not an expression of the symbolic dims")
                         << ": the function cannot be specialized";
          failedAny = true;
          return;
        }
        shape.push_back(*size);
      }
      retyped[v] = type.clone(shape);
    };
    for (BlockArgument arg : func.getArguments())
      evaluate(arg, func.getLoc());
    func.walk([&](Operation *op) {
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument arg : block.getArguments())
            evaluate(arg, op->getLoc());
      for (Value result : op->getResults())
        evaluate(result, op->getLoc());
    });
    if (failedAny)
      return signalPassFailure();

    for (auto &[value, type] : retyped)
      value.setType(type);
    // The ops sized by symbols take their static result shape (reshape, expand) or sizes
    // (slice) from the evaluated type.
    func.walk([&](Operation *op) {
      if (auto reshape = dyn_cast<ReshapeOp>(op); reshape && reshape.getSymbolicShape()) {
        reshape.setShape(reshape.getType().getShape());
        reshape.removeSymbolicShapeAttr();
      } else if (auto expand = dyn_cast<ExpandOp>(op); expand && expand.getSymbolicShape()) {
        expand.setShape(expand.getType().getShape());
        expand.removeSymbolicShapeAttr();
      } else if (auto slice = dyn_cast<SliceOp>(op); slice && slice.getSymbolicSizes()) {
        slice.setSizes(slice.getType().getShape());
        slice.removeSymbolicSizesAttr();
      }
    });
    TypeRange argTypes = func.front().getArgumentTypes();
    func.setType(FunctionType::get(func.getContext(), argTypes,
                                   func.front().getTerminator()->getOperandTypes()));
    for (unsigned i = 0; i < func.getNumArguments(); ++i)
      func.removeArgAttr(i, kArgShapeAttrName);
    func->removeAttr(kSymbolsAttrName);
  }

  /// Each symbol's size as a constant expression, in symbol order.
  FailureOr<SmallVector<AffineExpr>> symbolValues(func::FuncOp func, SymbolicShapes &shapes) {
    llvm::StringMap<int64_t> given;
    for (const std::string &entry : sizes) {
      auto [name, number] = StringRef(entry).split('=');
      int64_t size;
      if (name.empty() || number.getAsInteger(10, size) || size < 0)
        return func.emitError() << "ms-specialize-dims: expects sizes as name=N with N >= 0, got '"
                                << entry << "'",
               failure();
      given[name] = size;
    }
    SmallVector<AffineExpr> values;
    for (StringRef symbol : shapes.symbols()) {
      auto it = given.find(symbol);
      int64_t size = it != given.end() ? it->second : defaultSize.getValue();
      if (it == given.end()) {
        if (defaultSize <= 0)
          return func.emitError() << "the symbolic dim '" << symbol
                                  << "' has no size: give one with --dim-param=" << symbol
                                  << "=N",
                 failure();
        func.emitWarning() << "the symbolic dim '" << symbol << "' is compiled for a size of "
                           << size << " (set it with --dim-param=" << symbol
                           << "=N; --symbolic-dim-default=0 makes this an error)";
      }
      values.push_back(getAffineConstantExpr(size, func.getContext()));
    }
    return values;
  }

  static std::optional<int64_t> evaluateDim(AffineExpr e, ArrayRef<AffineExpr> values) {
    if (!e)
      return std::nullopt;
    AffineExpr folded = simplifyAffineExpr(e.replaceSymbols(values), 0, values.size());
    if (auto c = dyn_cast<AffineConstantExpr>(folded))
      return c.getValue();
    return std::nullopt;
  }
};

} // namespace
} // namespace mlir::ms
