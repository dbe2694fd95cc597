//===- SpecializeDims.cpp - the ms-specialize-dims pass -------------------===//
//
// Sizes every symbol of a function, then rewrites each type with `?` to the static type its
// dims evaluate to (all dims first, then the types: an op's rule reads its operands' symbolic
// dims, which retyping would lose). The ops that take symbolic starts, amounts or bounds (slice,
// pad, range) take their values, a range becoming the constant it then is.
//
//===----------------------------------------------------------------------===//

#include "dialects/ms/IR/MsOps.h"
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

    // The values the symbols give (a slice's starts, a pad's amounts, a range's start and
    // count), evaluated and checked before anything changes, as the types are.
    DenseMap<Operation *, SmallVector<int64_t>> amounts;
    func.walk([&](Operation *op) {
      std::optional<AffineMap> map;
      auto slice = dyn_cast<SliceOp>(op);
      if (slice)
        map = slice.getSymbolicStarts();
      else if (auto pad = dyn_cast<PadOp>(op))
        map = pad.getSymbolicPads();
      else if (auto range = dyn_cast<RangeOp>(op))
        map = range.getSymbolicRange();
      SmallVector<int64_t> evaluated;
      for (auto [i, e] : llvm::enumerate(map ? map->getResults() : ArrayRef<AffineExpr>())) {
        std::optional<int64_t> v = evaluateDim(e, *values);
        if (!v) {
          op->emitError() << "entry " << i << " of " << AffineMapAttr::get(*map)
                          << " is not an expression of the symbolic dims: the function cannot "
                             "be specialized";
          failedAny = true;
          return;
        }
        evaluated.push_back(*v);
      }
      // A slice from a symbolic start or to a symbolic size must select within its input.
      if (slice && (slice.getSymbolicStarts() || slice.getSymbolicSizes()))
        failedAny |= failed(checkSliceBounds(
            slice, shapes, map ? ArrayRef<int64_t>(evaluated) : slice.getStarts(), *values));
      if (map)
        amounts[op] = std::move(evaluated);
    });
    if (failedAny)
      return signalPassFailure();

    for (auto &[value, type] : retyped)
      value.setType(type);
    // The ops sized by symbols take their static result shape (reshape, expand) or sizes
    // (slice, resize) from the evaluated type, and their starts and amounts from the symbols'
    // values; a range becomes the constant it now is.
    SmallVector<RangeOp> ranges;
    func.walk([&](Operation *op) {
      if (auto reshape = dyn_cast<ReshapeOp>(op); reshape && reshape.getSymbolicShape()) {
        reshape.setShape(reshape.getType().getShape());
        reshape.removeSymbolicShapeAttr();
      } else if (auto expand = dyn_cast<ExpandOp>(op); expand && expand.getSymbolicShape()) {
        expand.setShape(expand.getType().getShape());
        expand.removeSymbolicShapeAttr();
      } else if (auto slice = dyn_cast<SliceOp>(op)) {
        if (slice.getSymbolicSizes()) {
          slice.setSizes(slice.getType().getShape());
          slice.removeSymbolicSizesAttr();
        }
        if (slice.getSymbolicStarts()) {
          slice.setStarts(amounts[op]);
          slice.removeSymbolicStartsAttr();
        }
      } else if (auto pad = dyn_cast<PadOp>(op); pad && pad.getSymbolicPads()) {
        pad.setPads(amounts[op]);
        pad.removeSymbolicPadsAttr();
      } else if (auto resize = dyn_cast<ResizeOp>(op)) {
        // Its kept symbolic dims (`?` sizes) are now the input's static extents.
        resize.setSizes(resize.getType().getShape());
      } else if (auto range = dyn_cast<RangeOp>(op)) {
        ranges.push_back(range);
      }
    });
    for (RangeOp range : ranges) {
      RankedTensorType type = range.getType();
      int64_t start = amounts[range][0], delta = range.getDelta();
      SmallVector<APInt> elements;
      for (int64_t i = 0; i < type.getDimSize(0); ++i)
        elements.push_back(APInt(type.getElementTypeBitWidth(), start + i * delta,
                                 /*isSigned=*/true));
      OpBuilder b(range);
      Value constant =
          ConstantOp::create(b, range.getLoc(), DenseElementsAttr::get(type, elements));
      range.replaceAllUsesWith(constant);
      range.erase();
    }
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

  /// A symbolic start or size must select within its dim for the given sizes: ONNX would clamp
  /// it (a cache shorter than its window), which an expression of the symbols does not say.
  static LogicalResult checkSliceBounds(SliceOp slice, SymbolicShapes &shapes,
                                        ArrayRef<int64_t> starts, ArrayRef<AffineExpr> values) {
    ArrayRef<AffineExpr> dims = shapes.dims(slice.getInput());
    ArrayRef<AffineExpr> sizes = shapes.dims(slice.getResult());
    for (auto [d, start] : llvm::enumerate(starts)) {
      std::optional<int64_t> dim = evaluateDim(dims[d], values);
      std::optional<int64_t> size = evaluateDim(sizes[d], values);
      int64_t step = slice.getSteps()[d];
      if (!dim || !size || *size == 0)
        continue;
      int64_t last = start + (*size - 1) * step;
      if (start < 0 || start >= *dim || last < 0 || last >= *dim)
        return slice.emitError() << "the slice of dim " << d << " (size " << *dim << ") from "
                                 << start << " with " << *size
                                 << " elements is out of bounds for the given sizes of the "
                                    "symbolic dims (the model's slice would be clamped)";
    }
    return success();
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
