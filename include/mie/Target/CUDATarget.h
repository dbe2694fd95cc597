//===- CUDATarget.h - NVIDIA GPUs through MLIR's NVVM path ------*- C++ -*-===//
//
// A cuda target's code object is a host shared object (built like a cpu one) that launches the
// model's kernels through the runtime's GPU API (mie_kernel_env::gpu, kernel ABI 4) and exports
// the kernels' cubins as `mie_gpu_modules` (docs/cuda.md, /work/notes/cuda-contract.md).
//
//===----------------------------------------------------------------------===//

#ifndef MIE_TARGET_CUDATARGET_H
#define MIE_TARGET_CUDATARGET_H

#include "mie/Target/Target.h"

#include "mlir/IR/BuiltinOps.h"

#include <string>

namespace mlir::mie {

/// ptxas of CUDA 13 accepts sm_75 and newer only.
constexpr unsigned kMinCudaSm = 75;

/// How buildMieToCudaPipeline makes the device code.
struct CudaPipelineOptions {
  /// "sm_90".
  std::string chip = "sm_90";
  /// "bin" (cubins through ptxas, needs `toolkit`) or "isa" (PTX, needs no toolkit).
  std::string format = "isa";
  /// The CUDA toolkit directory (bin/ptxas, nvvm/libdevice).
  std::string toolkit;
};

/// mie (after buildMsToMiePipeline, for a cuda target) -> host code in the LLVM dialect that
/// launches the kernels through kernel ABI 4, and the kernels as one `gpu.binary` (docs/cuda.md).
void buildMieToCudaPipeline(OpPassManager &pm, const CudaPipelineOptions &options = {});

/// The CUDA toolkit to compile with: `explicitPath` (--cuda-path) when given, else $CUDA_ROOT, else
/// /usr/local/cuda; failure with a one-line `error` when it has no bin/ptxas.
FailureOr<std::string> findCudaToolkit(StringRef explicitPath, std::string &error);

/// The symbol of the GPU module table a cuda code object exports (the contract's
/// `struct mie_gpu_module_table`), and its magic ("MIEGPU1\0" read as a little-endian int64).
constexpr const char *kGpuModulesSymbol = "mie_gpu_modules";
constexpr int64_t kGpuModulesMagic = 0x003155504745494DLL;

/// What a cuda compilation can stop at.
enum class CudaArtifact { HostLLVMIR, DeviceImage, SharedObject };

/// From a module after the cuda lowering (host code in the LLVM dialect, the kernels as
/// `gpu.binary` ops): the host code object with the images embedded and exported as
/// `mie_gpu_modules` (SharedObject), the host's LLVM IR, or the device images themselves
/// (DeviceImage: the bytes of every gpu.binary object, concatenated; PTX text under format=isa).
/// Errors are reported on `module`.
FailureOr<std::string> emitCudaArtifact(ModuleOp module, const PackageTarget &target,
                                        CudaArtifact artifact, unsigned jobs = 0,
                                        ArrayRef<int64_t> abiTable = {});

} // namespace mlir::mie

#endif // MIE_TARGET_CUDATARGET_H
