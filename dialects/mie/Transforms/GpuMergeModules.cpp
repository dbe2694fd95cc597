//===- GpuMergeModules.cpp - the mie-gpu-merge-modules pass ---------------===//

#include "dialects/mie/Transforms/Passes.h"

#include "mlir/IR/SymbolTable.h"

namespace mlir::mie {
#define GEN_PASS_DEF_MIEGPUMERGEMODULESPASS
#include "dialects/mie/Transforms/Passes.h.inc"

namespace {

struct MieGpuMergeModulesPass : impl::MieGpuMergeModulesPassBase<MieGpuMergeModulesPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<gpu::GPUModuleOp> gpuModules(module.getOps<gpu::GPUModuleOp>());
    if (gpuModules.empty())
      return;
    // Outlining uniques the module names but not the kernels in them (two launches of one
    // function give modules f_kernel and f_kernel_0, each with a kernel f_kernel): each kernel takes
    // its module's name, unique at the top level.
    DenseMap<std::pair<StringAttr, StringAttr>, StringAttr> renamed;
    for (gpu::GPUModuleOp gpuModule : gpuModules) {
      SmallVector<gpu::GPUFuncOp> kernels(gpuModule.getOps<gpu::GPUFuncOp>());
      for (gpu::GPUFuncOp kernel : kernels) {
        StringAttr name = kernels.size() == 1
                              ? gpuModule.getSymNameAttr()
                              : StringAttr::get(&getContext(), gpuModule.getSymName() + "_" +
                                                                   kernel.getName());
        renamed[{gpuModule.getSymNameAttr(), kernel.getNameAttr()}] = name;
        SymbolTable::setSymbolName(kernel, name);
      }
    }
    gpu::GPUModuleOp merged = gpuModules.front();
    SymbolTable topSymbols(module);
    SymbolTable mergedSymbols(merged);
    for (gpu::GPUModuleOp other : ArrayRef(gpuModules).drop_front()) {
      if (other.getTargetsAttr() != merged.getTargetsAttr()) {
        other.emitError("mie-gpu-merge-modules: modules for different targets");
        return signalPassFailure();
      }
      for (Operation &op : llvm::make_early_inc_range(other.getBody()->getOperations())) {
        if (auto symbol = dyn_cast<SymbolOpInterface>(op);
            symbol && mergedSymbols.lookup(symbol.getName())) {
          op.emitError("mie-gpu-merge-modules: '") << symbol.getName() << "' is defined twice";
          return signalPassFailure();
        }
        op.moveBefore(merged.getBody(), merged.getBody()->end());
        if (isa<SymbolOpInterface>(op))
          mergedSymbols.insert(&op);
      }
      other.erase();
    }
    if (merged.getSymName() != moduleName) {
      if (Operation *clash = topSymbols.lookup(moduleName); clash && clash != merged) {
        clash->emitError("mie-gpu-merge-modules: '") << moduleName << "' is taken";
        return signalPassFailure();
      }
      topSymbols.setSymbolName(merged, moduleName);
    }
    // Launches name @module::@kernel: both change.
    WalkResult walk = module.walk([&](gpu::LaunchFuncOp launch) {
      auto it = renamed.find({launch.getKernelModuleName(), launch.getKernelName()});
      if (it == renamed.end()) {
        launch.emitError("mie-gpu-merge-modules: no kernel ") << launch.getKernel();
        return WalkResult::interrupt();
      }
      launch.setKernelAttr(
          SymbolRefAttr::get(merged.getSymNameAttr(), {FlatSymbolRefAttr::get(it->second)}));
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return signalPassFailure();
  }
};

} // namespace
} // namespace mlir::mie
