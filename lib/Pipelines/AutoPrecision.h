//===- AutoPrecision.h - mixed precision under a measured error budget -*- C++ -*-===//
//
// Internal to the pipeline. `--precision=auto` is `mixed` with some of its reduced products
// (conv2d, matmul, gemm) kept in f32: as few as the accuracy budget allows, chosen by compiling and
// running the variants on calibration inputs through the runtime (docs/precision.md).
//
//===----------------------------------------------------------------------===//

#ifndef MIE_LIB_PIPELINES_AUTOPRECISION_H
#define MIE_LIB_PIPELINES_AUTOPRECISION_H

#include "PackageEmitter.h"

#include "mie/Pipelines/Pipelines.h"
#include "mie/mie_package_writer.h"
#include "mie/mie_tensor_io.h"

#include <optional>

namespace mlir::mie {

/// Pipelines.cpp: lowers `msModule` (after buildMsPostPrecisionPipeline; consumed) for `target`
/// and generates its code object.
FailureOr<PackageTargetCode> compileMsForTarget(ModuleOp msModule, const CompileOptions &options,
                                                const CpuTarget &target, size_t numInputs);

/// One input set, in the order of the model's inputs.
using CalibrationSet = std::vector<::mie::io::Tensor>;

/// What the search decided and measured.
struct AutoPrecisionOutcome {
  /// The target the variants were compiled for and run on (one of the requested ones when it runs
  /// on this machine).
  CpuTarget calibrationTarget;
  std::vector<CalibrationSet> sets;
  /// The fp32 outputs of every set: the reference.
  std::vector<std::vector<std::vector<float>>> reference;
  /// The chosen variant's code for the calibration target: the final package reuses it.
  std::optional<PackageTargetCode> code;
  /// For the report and the manifest.
  ::mie::PackagePrecisionAuto record;
  std::string reportText;
  int compiles = 0;
};

/// Runs the search on `module` (after buildMsPrePrecisionPipeline) and marks the products it keeps
/// in f32 with the `ms.keep_fp32` attribute. `mixed` is the policy the variants start from.
FailureOr<AutoPrecisionOutcome> searchAutoPrecision(ModuleOp module, const CompileOptions &options,
                                                    ArrayRef<CpuTarget> targets,
                                                    const PrecisionOptions &mixed);

/// Runs `package` (the final one) on the calibration sets and returns its error against the
/// reference; failure (diagnosed at `loc`) when it cannot run.
FailureOr<double> measurePackageError(StringRef package, const AutoPrecisionOutcome &outcome,
                                      Location loc);

} // namespace mlir::mie

#endif // MIE_LIB_PIPELINES_AUTOPRECISION_H
