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

#include <memory>
#include <string>

namespace mlir::mie {

/// ptxas of CUDA 13 accepts sm_75 and newer only.
constexpr unsigned kMinCudaSm = 75;

/// The cuda kind of the target registry: "cuda:sm_90", "cuda:sm_80+sm_90".
std::unique_ptr<TargetKindInfo> createCudaTargetKind();

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
