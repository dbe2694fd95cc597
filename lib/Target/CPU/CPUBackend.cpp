//===- CPUBackend.cpp - the cpu kind of target (x86-64, aarch64) ---------===//
//
// --target spellings (CPUTarget.cpp's table, and "host"), the mie.target attribute, the lowering
// of a planned mie module to LLVM (buildMieToLLVMPipeline) and the code object or stage
// (emitCpuArtifact).
//
//===----------------------------------------------------------------------===//

#include "mie/Target/CPUTarget.h"
#include "mie/Target/Target.h"

#include "dialects/mie/IR/MieOps.h"
#include "dialects/mie/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::mie;

PackageTarget mie::makeCpuPackageTarget(const CpuTarget &cpu) {
  PackageTarget target;
  target.backend = &getCpuTargetBackend();
  target.name = cpu.name;
  target.arch = cpu.arch;
  target.features = cpu.features;
  target.host = cpu;
  return target;
}

/// Host code without parallel loops to LLVM: the end of buildMieToLLVMPipeline, and the host side
/// of a cuda target after its device side.
void mlir::mie::buildHostToLLVMPipeline(OpPassManager &pm) {
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  // Bare pointers at function boundaries: the entry wrapper passes the runtime's raw buffers.
  ConvertFuncToLLVMPassOptions funcOptions;
  funcOptions.useBarePtrCallConv = true;
  pm.addPass(createConvertFuncToLLVMPass(funcOptions));
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

void mlir::mie::buildMieToLLVMPipeline(OpPassManager &pm, int64_t parallelMinBytes) {
  pm.addPass(createMieLowerViewsPass());
  // Parallel dims become scf.parallel; the outer one of each kernel runs on the runtime's pool.
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToParallelLoopsPass());
  pm.addPass(createCanonicalizerPass());
  MieParallelizeLoopsPassOptions parallelOptions;
  parallelOptions.minBytes = parallelMinBytes;
  pm.addPass(createMieParallelizeLoopsPass(parallelOptions));
  pm.addPass(createMieInsertProfileHooksPass());
  pm.addPass(createMieExpandMathPass());
  // What has no polynomial form (integer powers) becomes small generated functions, not libm calls.
  pm.addPass(createConvertMathToFuncs());
  buildHostToLLVMPipeline(pm);
}

namespace {

/// x86-64, x86-64-avx512, x86-64-avx512-vnni, x86-64-amx, aarch64 (CPUTarget.cpp's table), host.
class CpuTargetBackend : public TargetBackend {
public:
  StringRef kind() const override { return "cpu"; }
  bool claims(StringRef item) const override { return !item.contains(':'); }
  LogicalResult parse(StringRef item, std::vector<PackageTarget> &targets,
                      std::string &error) const override {
    // "host": the build machine's best target, for a package that runs there alone.
    FailureOr<CpuTarget> cpu =
        item == "host" ? hostCpuTarget(error) : lookupCpuTarget(item, error);
    if (failed(cpu) && item == "host")
      return failure();
    if (failed(cpu)) {
      error = ("unknown target '" + item + "' (known: " + knownTargets() + ")").str();
      return failure();
    }
    targets.push_back(makeCpuPackageTarget(*cpu));
    return success();
  }
  std::string spellings() const override { return knownCpuTargets() + ", host"; }

  bool runsOnHostCpu() const override { return true; }

  Attribute getTargetAttr(MLIRContext *ctx, const PackageTarget &target) const override {
    return TargetAttr::get(ctx, TargetKind::cpu,
                           target.arch == "x86_64" ? "x86-64" : target.arch, target.features);
  }

  FailureOr<std::string> emitCodeObject(ModuleOp module, const PackageTarget &target,
                                        const CodegenOptions &options,
                                        ArrayRef<int64_t> abiTable) const override {
    if (failed(lowerToLLVM(module, options)))
      return failure();
    return emitCpuArtifact(module, target.host, CpuArtifact::SharedObject, "main", options.jobs,
                           abiTable);
  }

  FailureOr<std::string> emitStage(ModuleOp module, const PackageTarget &target,
                                   const CodegenOptions &options,
                                   CodegenStage stage) const override {
    if (failed(lowerToLLVM(module, options)))
      return failure();
    CpuArtifact artifact = stage == CodegenStage::LLVMIR     ? CpuArtifact::LLVMIR
                           : stage == CodegenStage::Assembly ? CpuArtifact::Assembly
                                                             : CpuArtifact::Object;
    return emitCpuArtifact(module, target.host, artifact);
  }

private:
  static LogicalResult lowerToLLVM(ModuleOp module, const CodegenOptions &options) {
    return runPasses(module, options.printIRAfterAll, [&](OpPassManager &pm) {
      buildMieToLLVMPipeline(pm, options.parallelMinBytes);
    });
  }
};

} // namespace

const TargetBackend &mie::getCpuTargetBackend() {
  static const CpuTargetBackend backend;
  return backend;
}
