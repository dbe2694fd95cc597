//===- CPUTarget.h - native code for x86-64 and aarch64 ---------*- C++ -*-===//
//
// From a module in the LLVM dialect to an ELF shared object that exports `mie_entry` (the kernel
// ABI of runtime/include/mie/mie_kernel_abi.h): translation to LLVM IR, the entry wrapper, LLVM's
// O3 pipeline for the target, object emission, and the link.
//
//===----------------------------------------------------------------------===//

#ifndef MIE_TARGET_CPUTARGET_H
#define MIE_TARGET_CPUTARGET_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

#include <optional>
#include <string>

namespace llvm {
class Module;
} // namespace llvm

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace mlir::mie {

/// A CPU target the compiler can generate code for.
struct CpuTarget {
  std::string name;     // package target name: "x86-64", "aarch64"
  std::string arch;     // runtime arch: "x86_64", "aarch64"
  std::string triple;   // LLVM triple
  std::string cpu;      // LLVM CPU name
  std::string features; // LLVM feature string, also recorded in the package
  /// LLVM tuning flags for code generation only: preferences, not CPU features, so the package
  /// does not record them and the runtime does not check them.
  std::string tuning = "";

  /// What code generation is given: `features` plus `tuning`.
  std::string codegenFeatures() const {
    return tuning.empty() ? features : features + "," + tuning;
  }
};

/// The target called `name` ("x86-64" or "aarch64"), or failure with the list of known names.
FailureOr<CpuTarget> lookupCpuTarget(StringRef name, std::string &error);

/// The targets of a comma-separated `list` ("x86-64,x86-64-avx512"), in the order given; failure
/// with a one-line `error` on an unknown or repeated name.
FailureOr<SmallVector<CpuTarget>> lookupCpuTargets(StringRef list, std::string &error);

/// Names accepted by lookupCpuTarget, for help texts.
std::string knownCpuTargets();

/// The manifest arch of the machine the compiler runs on: "x86_64", "aarch64", or "" for another.
std::string hostCpuArch();

/// Whether the machine the compiler runs on has `target`'s architecture and every feature.
bool hostRunsCpuTarget(const CpuTarget &target);

/// The best target of this table for the machine the compiler runs on (`--target=host`): of the
/// targets of the host's architecture, the one with the most features, all of which the host has.
/// Failure with `error` on a host none of them runs on.
FailureOr<CpuTarget> hostCpuTarget(std::string &error);

/// The cpu targets of a package whose targets were not named (docs/targets.md, "Default
/// targets"): on an x86-64 compiler every x86-64 ISA level that changes the code of such a
/// package, lowest first, the runtime running the best the loading machine has (x86-64 and
/// x86-64-avx512; with `reducedPrecision`, whose GEMMs run on AMX tiles, also x86-64-amx); on an
/// AArch64 compiler aarch64. A comma-separated list as --target takes it.
std::string defaultCpuTargetList(bool reducedPrecision);

/// Links the microkernels that `module` calls (declarations named mie_uk_*) from the bitcode
/// embedded for `target`'s ISA. A no-op when the module calls none. On failure, `error` says why
/// (one line). Safe to call from several threads on modules of different LLVM contexts.
LogicalResult linkUKernels(llvm::Module &module, const CpuTarget &target, std::string &error);

/// The embedded bitcode of the registry's unit `unit` (runtime/include/mie/mie_ukernels.def), or
/// nothing for a name the registry does not list.
std::optional<StringRef> getUKernelBitcode(StringRef unit);

/// mie (after buildMsToMiePipeline) -> LLVM dialect, ready for translation: kernels' parallel
/// loops on the runtime's pool (loops over fewer than `parallelMinBytes` bytes stay on the calling
/// thread), profile hooks, math expanded, then buildHostToLLVMPipeline.
void buildMieToLLVMPipeline(OpPassManager &pm, int64_t parallelMinBytes = 65536);

/// Host code without parallel loops to LLVM: the end of buildMieToLLVMPipeline, and the host side
/// of a cuda target after its device side.
void buildHostToLLVMPipeline(OpPassManager &pm);

enum class CpuArtifact { LLVMIR, Assembly, Object, SharedObject };

/// Produces `artifact` for `module` (in the LLVM dialect; its public function `entry` takes bare
/// pointers: inputs, outputs, arena, weights). Adds the `mie_entry` wrapper, optimizes at O3 for
/// the target and, for a shared object, links with ld.lld. Errors are reported on `module`.
/// A shared object of a large module is generated in parts (a fixed number for the module, so the
/// bytes do not depend on `jobs`) on up to `jobs` threads; 0 means one per core.
/// `abiTable`, when not empty, is exported as the code object's ABI table (MIE_ABI_SYMBOL of
/// runtime/include/mie/mie_kernel_abi.h), the facts the runtime checks the manifest against.
/// `addExports`, when given, adds what else the code object exports (a cuda target's
/// `mie_gpu_modules`) to the translated module before optimization. An entry that returns an i32
/// has it returned by `mie_entry` (a status); otherwise `mie_entry` returns 0.
FailureOr<std::string>
emitCpuArtifact(ModuleOp module, const CpuTarget &target, CpuArtifact artifact,
                StringRef entry = "main", unsigned jobs = 0, ArrayRef<int64_t> abiTable = {},
                function_ref<LogicalResult(llvm::Module &)> addExports = nullptr);

} // namespace mlir::mie

#endif // MIE_TARGET_CPUTARGET_H
