//===- PackageEmitter.h - assembling a .mie package -------------*- C++ -*-===//
//
// Internal to the pipeline: what the package needs is read off the module at two points (the model
// signature at the ms level, the memory plan and weights after the mie pipeline), then written with
// the runtime's PackageWriter, the one implementation of the format.
//
//===----------------------------------------------------------------------===//

#ifndef MIE_LIB_PIPELINES_PACKAGEEMITTER_H
#define MIE_LIB_PIPELINES_PACKAGEEMITTER_H

#include "mie/Target/Target.h"

#include "mie/mie_package_writer.h"

#include "mlir/IR/BuiltinOps.h"

#include <string>
#include <vector>

namespace mlir::mie {

struct PackageSignature {
  std::vector<::mie::PackageTensorSpec> inputs, outputs;
};

/// One data argument of the entry as the code was compiled for it (a memref's element type and
/// shape).
struct ArgumentAbi {
  int64_t dtype = 0; // mie_dtype value
  std::vector<int64_t> shape;
};

struct PackagePlan {
  int64_t arenaBytes = 0;
  std::vector<char> weights;
  std::vector<::mie::PackageKernelSpec> kernels; // launch order: the profile hooks' kernel ids
  /// Read off the entry's argument types rather than the signature the manifest is written from, so
  /// that the code object's ABI table states what the code itself assumes.
  std::vector<ArgumentAbi> arguments; // inputs then outputs
  int64_t arenaArgBytes = 0, weightsArgBytes = 0;
  /// The entry takes the run's random key (kernel ABI 5).
  bool readsRandomKey = false;
  /// The code calls runtime services through the environment's host api (kernel ABI 6).
  bool callsHost = false;
  /// It calls mie_host_check_failed (ms.check), which kernel ABI 8 added.
  bool checksValues = false;
  /// Code for every shape of symbolic dims: it takes the run's symbol values and exports
  /// mie_arena_bytes (kernel ABI 7); its arena is sized per run.
  bool symbolic = false;
};

/// The words of the code object's ABI table (MIE_ABI_SYMBOL in mie_kernel_abi.h) for `plan`, whose
/// first `numInputs` arguments are the inputs.
std::vector<int64_t> buildAbiTable(const PackagePlan &plan, size_t numInputs);

/// Inputs and outputs (names from `mie.name`, shapes, dtypes) of the module's one public function.
FailureOr<PackageSignature> readSignature(ModuleOp module);

/// Arena size, weights bytes and kernel launches of a module after the ms -> mie pipeline; removes
/// the mie.weights and mie.flops attributes (they go to the package, not into the code).
FailureOr<PackagePlan> readPlan(ModuleOp module);

/// One compiled package target: its code object and what its plan put in the package.
struct PackageTargetCode {
  PackageTarget target;
  PackagePlan plan;
  std::string code;
  /// In a package with symbols: the value of each symbol the code was compiled for.
  std::vector<int64_t> dims = {};
};

/// The bytes of a package holding `targets` (at least one); the manifest records `precision`
/// (fp32, fp16, bf16, mixed, auto or dynamic_fp16) and, under auto, what the search measured.
/// The first target's weights are the package's shared weights; a later target whose weights differ
/// (packed for another tile) gets its own weights section, identical ones are stored once. With
/// `symbols` (a package keeping the model's symbolic dims) the signature's dims may be expressions
/// of them and each target states its `dims`.
FailureOr<std::string> buildPackage(ModuleOp module, StringRef modelName, StringRef precision,
                                    const PackageSignature &signature,
                                    const std::vector<PackageTargetCode> &targets,
                                    const ::mie::PackagePrecisionAuto *autoRecord = nullptr,
                                    const std::vector<::mie::PackageSymbolSpec> &symbols = {});

} // namespace mlir::mie

#endif // MIE_LIB_PIPELINES_PACKAGEEMITTER_H
