//===- CUDABackend.cpp - the cuda kind of target (NVIDIA GPUs) -----------===//
//
// --target spellings ("cuda:sm_90", "cuda:sm_80+sm_90": one target per SM), what a cuda target
// refuses (control flow, data-dependent output shapes), the mie.target attribute, the lowering of
// a planned mie module (buildMieToCudaPipeline: kernels to NVVM and cubins, host code launching
// them) and its code object or stage (emitCudaArtifact).
//
//===----------------------------------------------------------------------===//

#include "mie/Target/CUDATarget.h"

#include "dialects/mie/IR/MieOps.h"
#include "dialects/mie/Transforms/Passes.h"
#include "dialects/ms/IR/MsOps.h"
#include "runtime/include/mie/mie_kernel_abi.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::mie;

void mlir::mie::buildMieToCudaPipeline(OpPassManager &pm, const CudaPipelineOptions &options) {
  pm.addPass(createMieLowerViewsPass());
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToParallelLoopsPass());
  pm.addPass(createCanonicalizerPass());
  // The same polynomials as on the CPU: no libdevice calls for exp, tanh, erf.
  pm.addPass(createMieExpandMathPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createMieGpuMapLoopsPass());
  pm.addPass(createGpuKernelOutliningPass());
  pm.addPass(createMieGpuMergeModulesPass());
  GpuNVVMAttachTargetOptions attach;
  attach.chip = options.chip;
  attach.optLevel = 3;
  pm.addPass(createGpuNVVMAttachTarget(attach));
  OpPassManager &device = pm.nest<gpu::GPUModuleOp>();
  device.addPass(memref::createExpandStridedMetadataPass());
  device.addPass(createLowerAffinePass());
  device.addPass(createSCFToControlFlowPass());
  ConvertGpuOpsToNVVMOpsOptions nvvm;
  // Kernels take bare pointers: the host side passes each buffer's address, nothing more.
  nvvm.useBarePtrCallConv = true;
  // Math becomes libdevice calls (__nv_sqrtf, __nv_fabsf), linked from the toolkit's libdevice by
  // gpu-module-to-binary; what has none (math.trunc) becomes an LLVM intrinsic NVPTX selects.
  device.addPass(createConvertGpuOpsToNVVMOps(nvvm));
  device.addPass(createConvertMathToLLVMPass());
  device.addPass(createCanonicalizerPass());
  device.addPass(createCSEPass());
  device.addPass(createReconcileUnrealizedCastsPass());
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = options.format;
  binary.toolkitPath = options.toolkit;
  pm.addPass(createGpuModuleToBinaryPass(binary));
  pm.addPass(createMieGpuLowerLaunchesPass());
  buildHostToLLVMPipeline(pm);
}

namespace {

/// The SMs ptxas of CUDA 13 generates code for (it refuses anything below sm_75).
constexpr unsigned kKnownSms[] = {75, 80, 86, 87, 89, 90, 100, 103, 110, 120, 121};

std::string knownSmList() {
  std::string list;
  for (unsigned sm : kKnownSms)
    list += (list.empty() ? "sm_" : ", sm_") + std::to_string(sm);
  return list;
}

/// "cuda:sm_90" and "cuda:sm_80+sm_90" (one package target per SM, named "cuda-sm_90").
class CudaTargetBackend : public TargetBackend {
public:
  StringRef kind() const override { return "cuda"; }
  bool claims(StringRef item) const override {
    return item == "cuda" || item.starts_with("cuda:");
  }
  LogicalResult parse(StringRef item, std::vector<PackageTarget> &targets,
                      std::string &error) const override {
    StringRef sms = item.drop_front(std::min<size_t>(item.size(), 5));
    if (item == "cuda" || sms.empty()) {
      error = "target 'cuda' needs an SM: cuda:sm_80, cuda:sm_90 or cuda:sm_80+sm_90";
      return failure();
    }
    SmallVector<StringRef> names;
    sms.split(names, '+');
    for (StringRef name : names) {
      unsigned sm = 0;
      if (!name.consume_front("sm_") || name.getAsInteger(10, sm)) {
        error = ("target '" + item + "': '" + name + "' is not an SM (expected sm_<N>, e.g. sm_90)")
                    .str();
        return failure();
      }
      if (sm < kMinCudaSm) {
        error = "target '" + item.str() + "': sm_" + std::to_string(sm) +
                " is not supported: ptxas of CUDA 13 generates code for sm_" +
                std::to_string(kMinCudaSm) + " and newer only";
        return failure();
      }
      if (!llvm::is_contained(kKnownSms, sm)) {
        error = "target '" + item.str() + "': unknown SM sm_" + std::to_string(sm) +
                " (known: " + knownSmList() + ")";
        return failure();
      }
      PackageTarget target;
      target.backend = &getCudaTargetBackend();
      target.arch = "sm_" + std::to_string(sm);
      target.name = "cuda-" + target.arch;
      target.sm = sm;
      // The host side is baseline x86-64 code: it only launches kernels.
      std::string hostError;
      FailureOr<CpuTarget> host = lookupCpuTarget("x86-64", hostError);
      if (failed(host)) {
        error = hostError;
        return failure();
      }
      target.host = *host;
      targets.push_back(std::move(target));
    }
    return success();
  }
  std::string spellings() const override {
    return "cuda:sm_<N> (N >= " + std::to_string(kMinCudaSm) + "; several as cuda:sm_80+sm_90)";
  }

  LogicalResult checkSupported(ModuleOp module, const PackageTarget &target,
                               ArrayRef<std::string> dataDependentOutputs) const override {
    // The runtime reads data-dependent extents from host memory after a run
    // (docs/dynamic-shapes.md).
    if (!dataDependentOutputs.empty())
      return module.emitError("output '")
                 << dataDependentOutputs.front()
                 << "' has a data-dependent shape, which target '" << target.name
                 << "' does not support (cpu targets only)",
             failure();
    // Control flow would be host-side loops and branches around kernel launches, which the cuda
    // lowering does not build (it maps straight-line kernels; docs/cuda.md).
    Operation *flow = nullptr;
    module.walk([&](Operation *op) {
      if (isa<ms::LoopOp, ms::IfOp, ms::ScanOp>(op) && !flow)
        flow = op;
    });
    if (flow)
      return flow->emitError("control flow ('")
                 << flow->getName() << "', from ONNX Loop / If / Scan or an op built on them) "
                 << "is not supported on target '" << target.name << "' (cpu targets only)",
             failure();
    return success();
  }

  Attribute getTargetAttr(MLIRContext *ctx, const PackageTarget &target) const override {
    return TargetAttr::get(ctx, TargetKind::cuda, target.arch, "");
  }

  FailureOr<std::string> emitCodeObject(ModuleOp module, const PackageTarget &target,
                                        const CodegenOptions &options,
                                        ArrayRef<int64_t> abiTable) const override {
    if (failed(lowerForCuda(module, target, options, "bin")))
      return failure();
    return emitCudaArtifact(module, target, CudaArtifact::SharedObject, options.jobs, abiTable);
  }

  /// llvm: the host code; asm: the kernels' PTX; obj: their cubin.
  FailureOr<std::string> emitStage(ModuleOp module, const PackageTarget &target,
                                   const CodegenOptions &options,
                                   CodegenStage stage) const override {
    if (failed(lowerForCuda(module, target, options,
                            stage == CodegenStage::Object ? "bin" : "isa")))
      return failure();
    return emitCudaArtifact(module, target,
                            stage == CodegenStage::LLVMIR ? CudaArtifact::HostLLVMIR
                                                          : CudaArtifact::DeviceImage);
  }

  /// docs/cuda.md: a host ELF object that launches the kernels, kernel ABI 4 (version 3 plus the
  /// GPU fields).
  CodeObjectFacts describeCodeObject(const PackageTarget &target) const override {
    return {"elf", target.host.arch, MIE_KERNEL_ABI_CUDA_VERSION};
  }

private:
  /// The cuda lowering of a planned mie module: cubins (format "bin", through the toolkit's
  /// ptxas) or PTX ("isa"), libdevice linked from the toolkit either way.
  static LogicalResult lowerForCuda(ModuleOp module, const PackageTarget &target,
                                    const CodegenOptions &options, StringRef format) {
    CudaPipelineOptions cuda;
    cuda.chip = target.arch;
    cuda.format = format.str();
    // The toolkit's ptxas makes cubins and its libdevice implements the math the kernels call
    // (PTX included), so every cuda compilation needs it.
    std::string error;
    FailureOr<std::string> toolkit = findCudaToolkit(options.cudaPath, error);
    if (failed(toolkit))
      return emitError(module.getLoc()) << "target '" << target.name << "': " << error, failure();
    cuda.toolkit = *toolkit;
    return runPasses(module, options.printIRAfterAll,
                     [&](OpPassManager &pm) { buildMieToCudaPipeline(pm, cuda); });
  }
};

} // namespace

const TargetBackend &mie::getCudaTargetBackend() {
  static const CudaTargetBackend backend;
  return backend;
}

