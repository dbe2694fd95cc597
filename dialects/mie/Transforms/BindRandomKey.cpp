//===- BindRandomKey.cpp - the mie-bind-random-key pass --------------------===//
//
// The random kernels (MsToMieRandom.cpp) read the run's Philox key and run counter from the
// mutable global @mie_random_key; the runtime hands that buffer to the entry as the last slot of
// `args` (kernel ABI 5), so here it becomes the entry's last argument, as the weights did before.
//
//===----------------------------------------------------------------------===//

#include "dialects/mie/Transforms/Passes.h"
#include "dialects/mie/Utils/RuntimeSymbols.h"

namespace mlir::mie {
#define GEN_PASS_DEF_MIEBINDRANDOMKEYPASS
#include "dialects/mie/Transforms/Passes.h.inc"

namespace {


struct MieBindRandomKeyPass : impl::MieBindRandomKeyPassBase<MieBindRandomKeyPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    auto global = module.lookupSymbol<memref::GlobalOp>(kRandomKeyGlobal);
    if (!global)
      return;
    if (auto target = module->getAttrOfType<TargetAttr>(MieDialect::getTargetAttrName());
        target && target.getKind() == TargetKind::cuda) {
      SmallVector<memref::GetGlobalOp> gets;
      module.walk([&](memref::GetGlobalOp get) {
        if (get.getName() == kRandomKeyGlobal)
          gets.push_back(get);
      });
      emitError(gets.empty() ? global.getLoc() : gets.front().getLoc())
          << "random numbers (RandomUniform, RandomNormal, Bernoulli, Multinomial, Dropout in "
             "training mode) are not supported on cuda targets yet; compile for a cpu target";
      return signalPassFailure();
    }
    auto type = global.getType();
    for (auto func : module.getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      SmallVector<memref::GetGlobalOp> gets;
      func.walk([&](memref::GetGlobalOp get) {
        if (get.getName() == kRandomKeyGlobal)
          gets.push_back(get);
      });
      if (gets.empty())
        continue;
      if (func.isPrivate()) {
        gets.front().emitError("mie-bind-random-key: the random key is read in private function '")
            << func.getSymName() << "'; it reaches kernels as an argument (bind before outlining)";
        return signalPassFailure();
      }
      unsigned argIndex = func.getNumArguments();
      if (failed(func.insertArgument(
              argIndex, type,
              slotArgAttrs(ctx, "random_key"),
              func.getLoc())))
        return signalPassFailure();
      for (memref::GetGlobalOp get : gets) {
        get.replaceAllUsesWith(func.getArgument(argIndex));
        get.erase();
      }
    }
    global.erase();
  }
};

} // namespace
} // namespace mlir::mie
