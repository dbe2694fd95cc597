//===- BindSymbols.cpp - the mie-bind-symbols pass -------------------------===//
//
// Code for every shape of a model's symbolic dims reads the run's symbol values through
// `mie.symbol`; the runtime hands them to the entry as the last slot of `args` (kernel ABI 7), and
// sizes the arena before the run by calling `mie_arena_bytes` with the same values.
//
//===----------------------------------------------------------------------===//

#include "dialects/mie/Transforms/Passes.h"
#include "dialects/mie/Utils/KernelBuilders.h"
#include "dialects/mie/Utils/RuntimeSymbols.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::mie {
#define GEN_PASS_DEF_MIEBINDSYMBOLSPASS
#include "dialects/mie/Transforms/Passes.h.inc"

namespace {

/// Appends `%dims : memref<Nxi64>` to `func` and replaces its `mie.symbol`s by loads from it and
/// its `mie.symbol_values` by it.
LogicalResult bindDims(func::FuncOp func, unsigned numSymbols) {
  MLIRContext *ctx = func.getContext();
  unsigned index = func.getNumArguments();
  auto type = MemRefType::get({int64_t(numSymbols)}, IntegerType::get(ctx, 64));
  if (failed(func.insertArgument(index, type, slotArgAttrs(ctx, "dims"), func.getLoc())))
    return failure();
  OpBuilder b = OpBuilder::atBlockBegin(&func.getBody().front());
  SmallVector<Value> values;
  for (unsigned s = 0; s < numSymbols; ++s) {
    Value at = arith::ConstantIndexOp::create(b, func.getLoc(), s);
    Value word = memref::LoadOp::create(b, func.getLoc(), func.getArgument(index), at);
    values.push_back(arith::IndexCastOp::create(b, func.getLoc(), b.getIndexType(), word));
  }
  LogicalResult result = success();
  func.walk([&](SymbolValuesOp all) {
    if (all.getType() != type) {
      all.emitOpError() << "reads " << all.getType() << " of " << numSymbols << " symbols";
      result = failure();
      return;
    }
    all.replaceAllUsesWith(func.getArgument(index));
    all.erase();
  });
  func.walk([&](SymbolOp symbol) {
    if (symbol.getIndex() >= int64_t(numSymbols)) {
      symbol.emitOpError() << "reads symbol " << symbol.getIndex() << " of " << numSymbols;
      result = failure();
      return;
    }
    symbol.replaceAllUsesWith(values[symbol.getIndex()]);
    symbol.erase();
  });
  return result;
}

/// The dynamic input and output arguments of the entry take the pointer alone (pointerOnlyType:
/// the runtime passes bare pointers) and are seen with the dims of their `ms.shape`.
LogicalResult pointerOnlyArguments(func::FuncOp func) {
  OpBuilder b = OpBuilder::atBlockBegin(&func.getBody().front());
  Location loc = func.getLoc();
  for (BlockArgument arg : func.getArguments()) {
    auto type = dyn_cast<MemRefType>(arg.getType());
    if (!type || type.hasStaticShape())
      continue;
    auto shape = func.getArgAttrOfType<AffineMapAttr>(arg.getArgNumber(), "ms.shape");
    if (!shape || !type.getLayout().isIdentity() ||
        shape.getValue().getNumResults() != unsigned(type.getRank()))
      return func.emitError("mie-bind-symbols: argument ")
             << arg.getArgNumber() << " of dynamic type " << type
             << " needs the identity layout and an 'ms.shape' map of its rank";
    AffineMap map = shape.getValue();
    SmallVector<Value> symbols;
    for (unsigned s = 0; s < map.getNumSymbols(); ++s)
      symbols.push_back(SymbolOp::create(b, loc, b.getIndexType(), b.getI64IntegerAttr(s)));
    SmallVector<OpFoldResult> sizes;
    for (int64_t d = 0; d < type.getRank(); ++d)
      sizes.push_back(
          ShapedType::isDynamic(type.getDimSize(d))
              ? OpFoldResult(
                    affine::AffineApplyOp::create(
                        b, loc, AffineMap::get(0, map.getNumSymbols(), map.getResult(d)), symbols)
                        .getResult())
              : OpFoldResult(b.getIndexAttr(type.getDimSize(d))));
    // What the code takes there, for the package's ABI table (-1: a symbolic dim).
    SmallVector<int64_t> declared;
    for (int64_t d : type.getShape())
      declared.push_back(ShapedType::isDynamic(d) ? -1 : d);
    func.setArgAttr(arg.getArgNumber(), "mie.symbolic_shape",
                    DenseI64ArrayAttr::get(func.getContext(), declared));
    arg.setType(pointerOnlyType(type));
    Value seen = viewPointerAs(b, loc, arg, type, sizes);
    arg.replaceAllUsesExcept(seen, seen.getDefiningOp());
  }
  func.setType(FunctionType::get(func.getContext(), func.getBody().front().getArgumentTypes(),
                                 func.getResultTypes()));
  return success();
}

/// `mie_arena_bytes(dims) -> i64`: a copy of what computes the size of the entry's arena
/// arena's cast (mie-plan-memory put it at the entry's start, from `mie.symbol`s).
LogicalResult addArenaBytesFunction(ModuleOp module, func::FuncOp entry) {
  std::optional<unsigned> arenaIndex = slotArgument(entry, "arena");
  Value total;
  if (arenaIndex)
    for (Operation *user : entry.getArgument(*arenaIndex).getUsers())
      if (auto cast = dyn_cast<memref::ReinterpretCastOp>(user); cast && cast.getSizes().size() == 1)
        total = cast.getSizes()[0];
  OpBuilder b(module.getContext());
  b.setInsertionPointAfter(entry);
  if (module.lookupSymbol(kArenaBytesFunction))
    return module.emitError("mie-bind-symbols: the module already has a '")
           << kArenaBytesFunction << "'";
  auto fn = func::FuncOp::create(b, entry.getLoc(), kArenaBytesFunction,
                                 b.getFunctionType({}, {b.getI64Type()}));
  fn->setAttr(MieDialect::getArenaSizeFnAttrName(), b.getUnitAttr());
  OpBuilder fb = OpBuilder::atBlockBegin(fn.addEntryBlock());
  Value bytes;
  if (!total) { // no buffers: no arena
    bytes = arith::ConstantIntOp::create(fb, entry.getLoc(), fb.getI64Type(), 0);
  } else {
    SetVector<Operation *> slice;
    BackwardSliceOptions options;
    options.inclusive = true;
    if (failed(getBackwardSlice(total, &slice, options)))
      return entry.emitError("mie-bind-symbols: cannot follow the arena size");
    IRMapping mapping;
    for (Operation *op : slice) {
      if (op->getNumRegions() || !isPure(op))
        return op->emitError("mie-bind-symbols: the arena size depends on this op");
      fb.clone(*op, mapping);
    }
    bytes = arith::IndexCastOp::create(fb, entry.getLoc(), fb.getI64Type(),
                                       mapping.lookup(total));
  }
  func::ReturnOp::create(fb, entry.getLoc(), bytes);
  return success();
}

struct MieBindSymbolsPass : impl::MieBindSymbolsPassBase<MieBindSymbolsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    func::FuncOp entry;
    bool symbolic = false;
    for (auto func : module.getOps<func::FuncOp>()) {
      bool uses = false;
      func.walk([&](Operation *op) { uses |= isa<SymbolOp, SymbolValuesOp>(op); });
      bool dynamicArgs = llvm::any_of(func.getArgumentTypes(), [](Type t) {
        auto memref = dyn_cast<MemRefType>(t);
        return memref && !memref.hasStaticShape();
      });
      if (!uses && !dynamicArgs)
        continue;
      if (func.isPrivate() || func.isExternal()) {
        func.emitError("mie-bind-symbols: symbol values in private function '")
            << func.getSymName() << "'; kernels get them as arguments (bind before outlining)";
        return signalPassFailure();
      }
      if (entry) {
        func.emitError("mie-bind-symbols: a second public function with symbolic dims");
        return signalPassFailure();
      }
      entry = func;
      symbolic = true;
    }
    if (!symbolic)
      return;
    auto symbols = entry->getAttrOfType<ArrayAttr>("ms.symbols");
    if (!symbols) {
      entry.emitError("mie-bind-symbols: symbol values in a function without 'ms.symbols'");
      return signalPassFailure();
    }
    if (failed(addArenaBytesFunction(module, entry)) || failed(pointerOnlyArguments(entry)))
      return signalPassFailure();
    // The slot before the dims is the random key's (kernel ABI 5): an unused `random_key` argument
    // keeps it where the code draws no random numbers.
    if (!slotArgument(entry, "random_key") &&
        failed(entry.insertArgument(entry.getNumArguments(),
                                    MemRefType::get({2}, IntegerType::get(ctx, 64)),
                                    slotArgAttrs(ctx, "random_key"), entry.getLoc())))
      return signalPassFailure();
    auto sizeFn = module.lookupSymbol<func::FuncOp>(kArenaBytesFunction);
    if (failed(bindDims(entry, symbols.size())) || failed(bindDims(sizeFn, symbols.size())))
      return signalPassFailure();
  }
};

} // namespace
} // namespace mlir::mie
