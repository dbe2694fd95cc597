//===- ResultsToOutputs.cpp - the mie-results-to-outputs pass -------------===//

#include "dialects/mie/Transforms/Passes.h"

namespace mlir::mie {
#define GEN_PASS_DEF_MIERESULTSTOOUTPUTSPASS
#include "dialects/mie/Transforms/Passes.h.inc"

namespace {

/// Copies `from` into `to` (same shape) with one generated kernel.
void buildCopyOutput(OpBuilder &b, Location loc, Value from, Value to) {
  KernelOp::create(b, loc, "copy_output", from, to,
                   [&](OpBuilder &kb, Location kl, ValueRange args) {
                     linalg::CopyOp::create(kb, kl, args[0], args[1]);
                   });
}

struct MieResultsToOutputsPass : impl::MieResultsToOutputsPassBase<MieResultsToOutputsPass> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (func.isExternal() || func.isPrivate() || func.getNumResults() == 0)
        continue;
      if (!llvm::all_of(func.getResultTypes(), [](Type t) { return isa<MemRefType>(t); })) {
        func.emitError("mie-results-to-outputs expects only memref results");
        return signalPassFailure();
      }
      auto ret = cast<func::ReturnOp>(func.getBody().front().getTerminator());
      unsigned numInputs = func.getNumArguments(), numResults = func.getNumResults();
      SmallVector<Value> outputs;
      for (unsigned i = 0; i < numResults; ++i) {
        DictionaryAttr attrs = func.getResultAttrDict(i);
        if (failed(func.insertArgument(numInputs + i, func.getResultTypes()[i],
                                       attrs ? attrs : DictionaryAttr(), ret.getLoc())))
          return signalPassFailure();
        outputs.push_back(func.getArgument(numInputs + i));
      }
      OpBuilder b(ret);
      for (auto [result, output] : llvm::zip(ret.getOperands(), outputs)) {
        auto alloc = result.getDefiningOp<AllocOp>();
        bool returnedOnce = llvm::count(ret.getOperands(), result) == 1;
        if (alloc && returnedOnce && alloc->getParentOp() == func) {
          alloc.replaceAllUsesWith(output);
          alloc.erase();
          continue;
        }
        // An empty output has nothing to copy (and an empty kernel would be folded away).
        auto outputType = cast<MemRefType>(output.getType());
        if (!outputType.hasStaticShape() || outputType.getNumElements() != 0)
          buildCopyOutput(b, ret.getLoc(), result, output);
      }
      func::ReturnOp::create(b, ret.getLoc());
      ret.erase();
      BitVector drop(numResults, true);
      if (failed(func.eraseResults(drop)))
        return signalPassFailure();
    }
  }
};

} // namespace
} // namespace mlir::mie
