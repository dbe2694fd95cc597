//===- Target.h - the kinds of target and the --target registry -*- C++ -*-===//
//
// A package holds one code object per target. A target has a kind (cpu, cuda), and each kind
// parses its own items of a `--target` list: "x86-64" is a cpu target, "cuda:sm_90" a cuda one,
// "cuda:sm_80+sm_90" two cuda targets (one per SM). The pipeline (lib/Pipelines) dispatches on
// the kind: how mie is lowered to LLVM and how the code object is made.
//
//===----------------------------------------------------------------------===//

#ifndef MIE_TARGET_TARGET_H
#define MIE_TARGET_TARGET_H

#include "mie/Target/CPUTarget.h"

#include "mlir/Support/LLVM.h"

#include <memory>
#include <string>
#include <vector>

namespace mlir::mie {

/// What the pipeline dispatches on. Matches the mie dialect's TargetKind enum.
enum class TargetKindId { Cpu, Cuda };

/// One target of a package.
struct PackageTarget {
  TargetKindId kind = TargetKindId::Cpu;
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

  bool isCpu() const { return kind == TargetKindId::Cpu; }
  bool isCuda() const { return kind == TargetKindId::Cuda; }
  /// "cpu" or "cuda", as the manifest's `kind`.
  StringRef kindName() const { return isCpu() ? "cpu" : "cuda"; }
};

/// A kind of target: how its items of a --target list are spelled.
class TargetKindInfo {
public:
  virtual ~TargetKindInfo() = default;
  virtual TargetKindId id() const = 0;
  /// Whether `item` (one element of a --target list, trimmed) names targets of this kind.
  virtual bool claims(StringRef item) const = 0;
  /// Appends the targets `item` names; failure with a one-line `error`.
  virtual LogicalResult parse(StringRef item, std::vector<PackageTarget> &targets,
                              std::string &error) const = 0;
  /// The accepted spellings, for help texts and errors.
  virtual std::string spellings() const = 0;
};

/// The registered kinds, cpu first (it claims every item no other kind claims).
ArrayRef<std::unique_ptr<TargetKindInfo>> targetKinds();

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
