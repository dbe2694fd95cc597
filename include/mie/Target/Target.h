//===- Target.h - the target interface and the --target registry -*- C++ -*-===//
//
// A package holds one code object per target. Every kind of target (cpu, cuda) is a TargetBackend,
// registered once in targetBackends() (lib/Target/Target.cpp): the pipeline asks it how its items
// of a `--target` list are spelled, what it cannot compile, the module attribute kernel selection
// follows, how a planned mie module becomes its code object or an inspectable stage, and what the
// manifest says of that code object. The pipeline itself never tests a kind, so a new kind is one
// directory under lib/Target plus its line in targetBackends() (docs/how-to-add-a-target.md).
//
//===----------------------------------------------------------------------===//

#ifndef MIE_TARGET_TARGET_H
#define MIE_TARGET_TARGET_H

#include "mie/Target/CPUTarget.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/LLVM.h"

#include <string>
#include <vector>

namespace mlir::mie {

class TargetBackend;

/// One target of a package.
struct PackageTarget {
  /// Its kind; never null in a parsed target.
  const TargetBackend *backend = nullptr;
  /// Package target name: "x86-64", "cuda-sm_90".
  std::string name;
  /// The manifest's arch: "x86_64" / "aarch64" for cpu, "sm_90" for cuda.
  std::string arch;
  /// The manifest's features (LLVM feature string for cpu, empty for cuda).
  std::string features;
  /// The CPU the code object runs on: the target itself for cpu, the host side for cuda.
  CpuTarget host;
  /// cuda: the SM number (90 for sm_90); 0 for cpu.
  unsigned sm = 0;

  /// The manifest's kind: the backend's ("cpu", "cuda").
  StringRef kind() const;
};

/// What code generation is told by the driver, whatever the kind.
struct CodegenOptions {
  /// Dump the IR after every pass (to stderr).
  bool printIRAfterAll = false;
  /// Threads for code generation (0: one per core); the code is the same whatever the count.
  unsigned jobs = 0;
  /// cpu: loops whose buffers are all smaller than this stay on the calling thread.
  int64_t parallelMinBytes = 65536;
  /// cuda: the CUDA toolkit (ptxas, libdevice); empty: $CUDA_ROOT, else /usr/local/cuda.
  std::string cudaPath;
};

/// The inspectable stages before the code object (--emit=llvm, asm, obj).
enum class CodegenStage { LLVMIR, Assembly, Object };

/// What the package manifest records of a code object beyond its target's name, arch and
/// features; empty fields and a zero version leave the writer's defaults.
struct CodeObjectFacts {
  std::string format;
  std::string hostArch;
  int abiVersion = 0;
};

/// A kind of target.
class TargetBackend {
public:
  virtual ~TargetBackend();

  /// The manifest's `kind` of its targets ("cpu", "cuda").
  virtual StringRef kind() const = 0;

  /// Whether `item` (one element of a --target list, trimmed) names targets of this kind.
  virtual bool claims(StringRef item) const = 0;
  /// Appends the targets `item` names; failure with a one-line `error`.
  virtual LogicalResult parse(StringRef item, std::vector<PackageTarget> &targets,
                              std::string &error) const = 0;
  /// The accepted spellings, for help texts and errors.
  virtual std::string spellings() const = 0;

  /// Whether its code objects run on the compiling machine's CPU where it has the target's
  /// features (--precision=auto measures candidates by running them).
  virtual bool runsOnHostCpu() const { return false; }
  /// Refuses, naming the op or output, what this kind cannot compile in the optimized ms module:
  /// `dataDependentOutputs` are the outputs whose shape only the run decides.
  virtual LogicalResult checkSupported(ModuleOp module, const PackageTarget &target,
                                       ArrayRef<std::string> dataDependentOutputs) const {
    return success();
  }

  /// The `mie.target` attribute that kernel selection, weight packing and the microkernels follow.
  virtual Attribute getTargetAttr(MLIRContext *ctx, const PackageTarget &target) const = 0;
  /// A planned, outlined mie module (after buildMsToMiePipeline) to the package's code object,
  /// exporting `abiTable` (the facts the runtime checks the manifest against).
  virtual FailureOr<std::string> emitCodeObject(ModuleOp module, const PackageTarget &target,
                                                const CodegenOptions &options,
                                                ArrayRef<int64_t> abiTable) const = 0;
  /// The same module to an inspectable stage.
  virtual FailureOr<std::string> emitStage(ModuleOp module, const PackageTarget &target,
                                           const CodegenOptions &options,
                                           CodegenStage stage) const = 0;
  /// The manifest's facts of its code objects.
  virtual CodeObjectFacts describeCodeObject(const PackageTarget &target) const { return {}; }
};

/// The registered kinds, cpu first (it claims every item no other kind claims).
ArrayRef<const TargetBackend *> targetBackends();

/// The kinds this build has (each kind's directory defines its own).
const TargetBackend &getCpuTargetBackend();
const TargetBackend &getCudaTargetBackend();

/// Runs the passes `build` adds on `module`; with `printIRAfterAll`, printing the IR after each.
LogicalResult runPasses(ModuleOp module, bool printIRAfterAll,
                        function_ref<void(OpPassManager &)> build);

/// The targets of a comma-separated `list` ("x86-64,cuda:sm_90"), in the order given; failure with
/// a one-line `error` on an unknown name, an unsupported SM or a target listed twice.
FailureOr<std::vector<PackageTarget>> parseTargetList(StringRef list, std::string &error);

/// The target list of `--include-targets` (the portable package): each item a class, `cpu` (x86-64
/// and x86-64-avx512: the x86 machines, AVX2 and AVX-512) or `gpu` / `cuda` (cuda:sm_80+sm_90: A100
/// and H100/H200 class GPUs), or a target name as --target takes it. Failure with `error` on an
/// empty list.
FailureOr<std::string> expandTargetClasses(StringRef classes, std::string &error);

/// Every accepted spelling, for help texts ("x86-64, ..., aarch64, cuda:sm_<N> (N >= 75)").
std::string knownTargets();

/// The package target of a cpu target.
PackageTarget makeCpuPackageTarget(const CpuTarget &cpu);

} // namespace mlir::mie

#endif // MIE_TARGET_TARGET_H
