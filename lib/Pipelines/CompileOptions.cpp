//===- CompileOptions.cpp - checking and typing a driver's flags ----------===//

#include "mie/Pipelines/CompileOptions.h"

#include "mie/Target/CPUTarget.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::mie;

std::optional<PrecisionPolicy> mie::parsePrecisionPolicy(StringRef text) {
  return llvm::StringSwitch<std::optional<PrecisionPolicy>>(text)
      .Case("fp32", PrecisionPolicy::Fp32)
      .Case("fp16", PrecisionPolicy::Fp16)
      .Case("bf16", PrecisionPolicy::Bf16)
      .Case("mixed", PrecisionPolicy::Mixed)
      .Case("auto", PrecisionPolicy::Auto)
      .Default(std::nullopt);
}

StringRef mie::stringifyPrecisionPolicy(PrecisionPolicy policy) {
  switch (policy) {
  case PrecisionPolicy::Fp32:
    return "fp32";
  case PrecisionPolicy::Fp16:
    return "fp16";
  case PrecisionPolicy::Bf16:
    return "bf16";
  case PrecisionPolicy::Mixed:
    return "mixed";
  case PrecisionPolicy::Auto:
    return "auto";
  }
  llvm_unreachable("unknown precision policy");
}

StringRef mie::stringifyQuantizeMethod(QuantizeMethod method) {
  return method == QuantizeMethod::DynamicFp16 ? "dynamic_fp16" : "";
}

std::optional<LayoutChoice> mie::parseLayoutChoice(StringRef text) {
  return llvm::StringSwitch<std::optional<LayoutChoice>>(text)
      .Case("auto", LayoutChoice::Auto)
      .Case("nhwc", LayoutChoice::Nhwc)
      .Case("nchw", LayoutChoice::Nchw)
      .Default(std::nullopt);
}

/// The targets of the flags: --include-targets' classes expanded, or --target (or the
/// environment's), parsed; none given leaves the default to resolveTargets.
static LogicalResult applyTargetFlags(const CompileFlags &flags, CompileOptions &options,
                                      std::string &error) {
  std::string list, source = flags.targetSource;
  if (flags.includeTargets) {
    if (flags.target && flags.targetSource == "--target") {
      error = "--include-targets and --target both name the package's targets; give one of them";
      return failure();
    }
    std::string why;
    FailureOr<std::string> expanded = expandTargetClasses(*flags.includeTargets, why);
    if (failed(expanded)) {
      error = "--include-targets: " + why;
      return failure();
    }
    list = *expanded;
    source = "--include-targets";
  } else if (flags.target) {
    if (flags.target->empty()) {
      error = "--target names no target (leave it out for the default)";
      return failure();
    }
    list = *flags.target;
  } else {
    options.targets.clear();
    return success();
  }
  std::string why;
  FailureOr<std::vector<PackageTarget>> targets = parseTargetList(list, why);
  if (failed(targets)) {
    error = source + ": " + why;
    return failure();
  }
  options.targets = std::move(*targets);
  return success();
}

LogicalResult mie::applyCompileFlags(const CompileFlags &flags, CompileOptions &options,
                                     std::string &error) {
  llvm::raw_string_ostream os(error);
  if (failed(applyTargetFlags(flags, options, error)))
    return failure();
  std::optional<PrecisionPolicy> policy = parsePrecisionPolicy(flags.precision);
  if (!policy) {
    os << "--precision must be fp32, fp16, bf16, mixed or auto, got '" << flags.precision << "'";
    return failure();
  }
  std::optional<LayoutChoice> layout = parseLayoutChoice(flags.layout);
  if (!layout) {
    os << "--layout must be auto, nhwc or nchw, got '" << flags.layout << "'";
    return failure();
  }
  if (*policy != PrecisionPolicy::Auto && (flags.accuracyBudget || !flags.calibrationDir.empty())) {
    os << "--" << (flags.calibrationDir.empty() ? "accuracy-budget" : "calibration")
       << " is for --precision=auto, not --precision=" << flags.precision;
    return failure();
  }
  double budget = flags.accuracyBudget.value_or(1e-2);
  if (!(budget > 0 && budget <= 1)) {
    os << "--accuracy-budget must be in (0, 1] (a relative error), got " << budget;
    return failure();
  }
  if (!flags.calibrationDir.empty() && !llvm::sys::fs::is_directory(flags.calibrationDir)) {
    os << "--calibration: '" << flags.calibrationDir << "' is not a directory";
    return failure();
  }
  QuantizeMethod quantize = QuantizeMethod::None;
  if (!flags.quantizeMethod.empty()) {
    if (flags.quantizeMethod != "dynamic_fp16") {
      os << "--quantize-method must be dynamic_fp16, got '" << flags.quantizeMethod << "'";
      return failure();
    }
    if (*policy != PrecisionPolicy::Fp32) {
      os << "--quantize-method=" << flags.quantizeMethod
         << " computes in fp32: it cannot be combined with --precision=" << flags.precision;
      return failure();
    }
    quantize = QuantizeMethod::DynamicFp16;
  }
  if (!flags.forceReduced.empty() && *policy == PrecisionPolicy::Fp32) {
    os << "--force-reduced needs --precision=bf16, fp16, mixed or auto";
    return failure();
  }
  if (flags.maxFusedOps < 2) {
    os << "--max-fused-ops must be at least 2, got " << flags.maxFusedOps;
    return failure();
  }
  if (flags.parallelMinBytes < 0) {
    os << "--parallel-min-bytes must be >= 0, got " << flags.parallelMinBytes;
    return failure();
  }
  if (flags.jobs < 0) {
    os << "--jobs must be >= 0, got " << flags.jobs;
    return failure();
  }
  options.precision.policy = *policy;
  options.precision.quantizeMethod = quantize;
  options.precision.keepFp32 = flags.keepFp32;
  options.precision.forceReduced = flags.forceReduced;
  options.precision.accuracyBudget = budget;
  options.precision.calibrationDir = flags.calibrationDir;
  options.layout = *layout;
  options.maxFusedOps = flags.maxFusedOps;
  options.parallelMinBytes = flags.parallelMinBytes;
  options.jobs = flags.jobs;
  return success();
}

std::vector<PackageTarget> mie::resolveTargets(const CompileOptions &options) {
  if (!options.targets.empty())
    return options.targets;
  std::string list = defaultCpuTargetList(reducesProducts(options.precision.policy));
  // A stage before the package shows one target's code: the baseline, the same on every machine.
  if (options.emit != EmitKind::Package)
    list = StringRef(list).split(',').first.str();
  std::string error;
  FailureOr<std::vector<PackageTarget>> targets = parseTargetList(list, error);
  assert(succeeded(targets) && "the default targets are known targets");
  return *targets;
}
