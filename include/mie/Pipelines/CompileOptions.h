//===- CompileOptions.h - what one compilation is asked to do ----*- C++ -*-===//
//
// The pipeline's options, typed: enums for the precision policy, the reduced type, weight-only
// quantization and the activation layout, the package's targets parsed once. Drivers (mie-compile,
// and through it Python's mie.compile) hand their flags over as text in CompileFlags, which
// applyCompileFlags checks and types in one place, before the model is read, with the messages
// the user sees.
//
//===----------------------------------------------------------------------===//

#ifndef MIE_PIPELINES_COMPILEOPTIONS_H
#define MIE_PIPELINES_COMPILEOPTIONS_H

#include "mie/Target/Target.h"

#include "mlir/Support/LLVM.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir::mie {

/// What a compilation stops at and returns. `Import` is the module as given, before any pass.
enum class EmitKind { Import, Ms, Mie, LLVMIR, Assembly, Object, Package };

/// The element types of a compilation (ms-assign-precision; docs/precision.md): fp32, everything
/// reduced but what must stay f32 (bf16, fp16), the products reduced with f32 accumulation
/// (mixed), or mixed with the products the measured error needs kept in f32 (auto).
enum class PrecisionPolicy { Fp32, Fp16, Bf16, Mixed, Auto };
/// The reduced type of mixed (and auto); `Target` picks it from the first target: bf16 on x86-64,
/// fp16 on aarch64.
enum class ReducedType { Target, Bf16, Fp16 };
/// Weight-only quantization: none, or the weights stored as fp16 and computed in f32.
enum class QuantizeMethod { None, DynamicFp16 };
/// The activation layout (ms-assign-layout): auto picks per target and precision (resolveLayout).
enum class LayoutChoice { Auto, Nhwc, Nchw };

std::optional<PrecisionPolicy> parsePrecisionPolicy(StringRef text);
StringRef stringifyPrecisionPolicy(PrecisionPolicy policy);
StringRef stringifyQuantizeMethod(QuantizeMethod method);
std::optional<LayoutChoice> parseLayoutChoice(StringRef text);

/// Whether `policy` computes the products in bf16 where the target can (the policies whose GEMMs
/// run on AMX tiles on x86-64).
inline bool reducesProducts(PrecisionPolicy policy) {
  return policy == PrecisionPolicy::Bf16 || policy == PrecisionPolicy::Mixed ||
         policy == PrecisionPolicy::Auto;
}

/// Precision assignment (ms-assign-precision; docs/precision.md).
struct PrecisionOptions {
  PrecisionPolicy policy = PrecisionPolicy::Fp32;
  ReducedType mixedType = ReducedType::Target;
  /// ONNX op types, ms op names or ONNX node names kept in f32 / computed in the reduced type.
  std::vector<std::string> keepFp32, forceReduced;
  QuantizeMethod quantizeMethod = QuantizeMethod::None;
  /// auto: the largest relative error of the outputs allowed (max |reduced - fp32| / max |fp32|
  /// per output, over every calibration set).
  double accuracyBudget = 1e-2;
  /// auto: a directory of input sets (.npy / .pb); empty draws random inputs.
  std::string calibrationDir;

  bool isDefault() const {
    return policy == PrecisionPolicy::Fp32 && quantizeMethod == QuantizeMethod::None &&
           keepFp32.empty() && forceReduced.empty();
  }
  /// The reduced type as the passes spell it, bf16 where the target did not decide.
  StringRef reducedTypeName() const {
    return mixedType == ReducedType::Fp16 ? "fp16" : "bf16";
  }
  /// What the package manifest records: the policy, or the weight-only method.
  std::string manifestName() const {
    return (quantizeMethod == QuantizeMethod::None ? stringifyPrecisionPolicy(policy)
                                                   : stringifyQuantizeMethod(quantizeMethod))
        .str();
  }
};

struct CompileOptions {
  /// The package's targets ("x86-64,x86-64-avx512,cuda:sm_90" parsed): one code object each in
  /// one package, whose runtime picks the best the machine supports. Empty: the default
  /// (resolveTargets).
  std::vector<PackageTarget> targets;
  /// The CUDA toolkit for cuda targets' cubins (ptxas); empty: $CUDA_ROOT, else /usr/local/cuda.
  std::string cudaPath;
  /// Which GPU libraries cuda targets call for convolutions and GEMMs (mie-gpu-library-calls):
  /// "cublaslt,cudnn", a subset, or "none" (every op a generated kernel).
  std::string cudaLibraries = "cublaslt,cudnn";
  EmitKind emit = EmitKind::Package;
  std::string modelName = "model";
  /// Dump the IR after every pass (to stderr); for debugging the compiler.
  bool printIRAfterAll = false;
  /// Run the graph fusion passes (folding into weights, composite recognition, epilogue and
  /// elementwise grouping). Off gives one kernel per ms op: the reference for checking fusion.
  bool fusion = true;
  /// The most ops one elementwise fused group (one generated kernel) may hold: LLVM's code
  /// generation is superlinear in the size of a kernel's body, so longer chains are split.
  unsigned maxFusedOps = 64;
  /// Element types: the policy, per-op overrides and weight-only quantization.
  PrecisionOptions precision;
  /// The activation layout (ms-assign-layout): nhwc runs the depthwise-separable parts of the
  /// graph channels last, nchw keeps every activation NCHW, auto picks per target and precision.
  LayoutChoice layout = LayoutChoice::Auto;
  /// When set, receives the precision report (see buildPrecisionReport; under auto followed by
  /// what the search measured and kept).
  std::string *precisionReport = nullptr;
  /// When set, under auto receives a one-line summary of the search (the driver prints it).
  std::string *autoPrecisionSummary = nullptr;
  /// When set, receives the fusion report of the compiled module (see buildFusionReport).
  std::string *fusionReport = nullptr;
  /// When set, receives the memory report of the compiled module (see buildMemoryReport).
  std::string *memoryReport = nullptr;
  /// When set, receives the kernel report of every target of the package (see buildKernelReport).
  std::string *kernelReport = nullptr;
  /// When set, receives the memory plot of the compiled module, an SVG (see buildMemoryPlot).
  std::string *memoryPlot = nullptr;
  /// Loops whose buffers are all smaller than this stay on the calling thread (mie-parallelize-loops).
  int64_t parallelMinBytes = 65536;
  /// Threads for code generation (0: one per core). The package is the same whatever the count.
  unsigned jobs = 0;
  /// Sizes ("batch=8") of the symbolic dims an import kept (OnnxImportOptions::keepSymbolicDims),
  /// given after the graph passes (ms-specialize-dims) because the lowering takes static shapes;
  /// a symbol without one gets `defaultDimSize` (0: an error).
  std::vector<std::string> dimSizes;
  int64_t defaultDimSize = 1;
  /// Values ("seq=128,384") of symbolic dims to compile code for: with any, the package keeps the
  /// symbols and holds each target's code for every combination (--specialize).
  std::vector<std::string> specializations;
  /// Ranges ("seq=1..512") the package accepts for its symbols (--dim-range; default: the span of
  /// the --specialize values).
  std::vector<std::string> dimRanges;
  /// Code for every shape even without --dim-range: each symbol without a range takes the default
  /// one, 1..512 (mie-compile's default for a dynamic-axes export, docs/dynamic-shapes.md).
  bool everyShape = false;
};

/// A driver's flags as the user wrote them (mie-compile's options of the same names).
struct CompileFlags {
  /// --target, or where the command line names none the environment's MIE_COMPILE_TARGET
  /// (`targetSource` says which, for messages).
  std::optional<std::string> target;
  std::string targetSource = "--target";
  std::optional<std::string> includeTargets;
  std::string precision = "fp32";
  std::string layout = "auto";
  std::string quantizeMethod;
  std::optional<double> accuracyBudget;
  std::string calibrationDir;
  std::vector<std::string> keepFp32, forceReduced;
  int64_t maxFusedOps = 64;
  int64_t parallelMinBytes = 65536;
  int64_t jobs = 0;
};

/// Checks `flags` and sets the options they decide in `options` (targets, precision, layout,
/// limits); the rest of `options` is left as it is. On failure, `error` is one line that names
/// the flag and what it expected ("--layout must be auto, nhwc or nchw, got 'nhcw'").
LogicalResult applyCompileFlags(const CompileFlags &flags, CompileOptions &options,
                                std::string &error);

/// The targets `options` compiles for: `options.targets`, or where it is empty the default,
/// defaultCpuTargetList for the precision policy (x86-64 and x86-64-avx512, plus x86-64-amx
/// under bf16, mixed and auto, on an x86-64 compiler), of which a stage before the package
/// (--emit=mie, llvm, asm, obj) takes the first.
std::vector<PackageTarget> resolveTargets(const CompileOptions &options);

} // namespace mlir::mie

#endif // MIE_PIPELINES_COMPILEOPTIONS_H
