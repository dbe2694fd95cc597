//===- Pipelines.h - the one definition of the compilation pipeline -*- C++ -*-===//
//
// mie-compile, the Python bindings and ms-opt's registered pipelines all build their pass managers
// here, so the same model compiles the same way whatever the entry point.
//
//===----------------------------------------------------------------------===//

#ifndef MIE_PIPELINES_PIPELINES_H
#define MIE_PIPELINES_PIPELINES_H

#include "mie/Import/OnnxImporter.h"
#include "mie/Target/Target.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"

#include <string>
#include <vector>

namespace mlir::mie {

/// What a compilation stops at and returns. `Import` is the module as given, before any pass.
enum class EmitKind { Import, Ms, Mie, LLVMIR, Assembly, Object, Package };

/// Precision assignment (ms-assign-precision; docs/precision.md).
struct PrecisionOptions {
  /// fp32, fp16, bf16, mixed or auto (mixed, with the products that the measured error needs kept
  /// in f32; see AutoPrecision.h).
  std::string precision = "fp32";
  /// The reduced type of `mixed`: bf16 or fp16; empty picks it from the (first) target: bf16 on
  /// x86-64, fp16 on aarch64.
  std::string mixedType;
  /// ONNX op types, ms op names or ONNX node names kept in f32 / computed in the reduced type.
  std::vector<std::string> keepFp32, forceReduced;
  /// Empty, or dynamic_fp16 (weights stored as f16, computed in f32).
  std::string quantizeMethod;
  /// auto: the largest relative error of the outputs allowed (max |reduced - fp32| / max |fp32|
  /// per output, over every calibration set).
  double accuracyBudget = 1e-2;
  /// auto: a directory of input sets (.npy / .pb); empty draws random inputs.
  std::string calibrationDir;

  bool isDefault() const {
    return precision == "fp32" && quantizeMethod.empty() && keepFp32.empty() &&
           forceReduced.empty();
  }
  /// What the package manifest records: the policy, or the weight-only method.
  std::string manifestName() const { return quantizeMethod.empty() ? precision : quantizeMethod; }
};

struct CompileOptions {
  /// One target, or for a package a comma-separated list ("x86-64,x86-64-avx512,cuda:sm_90"): one
  /// code object per target in one package, whose runtime picks the best the machine supports.
  /// "host" is the compiling machine's best cpu target. Empty: the default (resolveTargetList).
  std::string target;
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
  /// The activation layout (ms-assign-layout): "nhwc" runs the depthwise-separable parts of the
  /// graph channels last, "nchw" keeps every activation NCHW, "auto" picks per target and precision
  /// (resolveLayout).
  std::string layout = "auto";
  /// When set, receives the precision report (see buildPrecisionReport; under auto followed by
  /// what the search measured and kept).
  std::string *precisionReport = nullptr;
  /// When set, under auto receives a one-line summary of the search (the driver prints it).
  std::string *autoPrecisionSummary = nullptr;
  /// When set, receives the fusion report of the compiled module (see buildFusionReport).
  std::string *fusionReport = nullptr;
  /// When set, receives the memory report of the compiled module (see buildMemoryReport).
  std::string *memoryReport = nullptr;
  /// When set, receives the memory plot of the compiled module, an SVG (see buildMemoryPlot).
  std::string *memoryPlot = nullptr;
  /// Loops whose buffers are all smaller than this stay on the calling thread (mie-parallelize-loops).
  int64_t parallelMinBytes = 65536;
  /// Threads for code generation (0: one per core). The package is the same whatever the count.
  unsigned jobs = 0;
};

/// Graph-level clean-up on ms: canonicalization (folders) and CSE; with `fusion`, then folding into
/// weights and composite recognition; precision assignment unless `precision` is the default
/// (fp32); with `fusion`, grouping into `ms.fused` kernels of at most `maxFusedOps` ops. An empty
/// `precision.mixedType` means bf16. With `fusion` and `integerQdq` (every target runs
/// AVX512-VNNI), QDQ convolutions become uint8 x int8 kernels (ms-integer-qdq). With `fusion`,
/// `layout` "nhwc" runs the eligible components channels last (ms-assign-layout) before fusion.
void buildMsPipeline(OpPassManager &pm, bool fusion = true, unsigned maxFusedOps = 64,
                     const PrecisionOptions &precision = {}, bool integerQdq = false,
                     StringRef layout = "nchw");

/// The two halves of buildMsPipeline, split where precision is assigned: auto precision prepares
/// the graph once, then assigns and fuses each variant it measures.
void buildMsPrePrecisionPipeline(OpPassManager &pm, bool fusion = true, bool integerQdq = false);
void buildMsPostPrecisionPipeline(OpPassManager &pm, bool fusion = true, unsigned maxFusedOps = 64,
                                  const PrecisionOptions &precision = {},
                                  StringRef layout = "nchw");

/// The layout `requested` ("auto", "nhwc" or "nchw") means for a package of `targets` under
/// `precision` ("fp32", "mixed", ...): "auto" is "nhwc" where the channels-last kernels were
/// measured faster (docs/kernels.md, "Layouts"), else "nchw".
FailureOr<std::string> resolveLayout(StringRef requested, ArrayRef<PackageTarget> targets,
                                     StringRef precision);

/// ms -> mie: kernels on buffers, library kernels implemented, outputs as arguments, memory
/// planned, weights packed, kernels outlined. For a cuda module, the convolutions and GEMMs that
/// `gpuLibraries` serve become library calls (mie-gpu-library-calls).
void buildMsToMiePipeline(OpPassManager &pm, StringRef gpuLibraries = "cublaslt,cudnn");

/// mie (after buildMsToMiePipeline) -> LLVM dialect, ready for translation.
void buildMieToLLVMPipeline(OpPassManager &pm, int64_t parallelMinBytes = 65536);

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

/// Registers the four pipelines with ms-opt ("mie-ms-pipeline", "mie-ms-to-mie-pipeline",
/// "mie-to-llvm-pipeline").
void registerPipelines();

/// Compiles `module` (ms dialect, one public function) to the artifact `options.emit` names and
/// returns its bytes: IR text for ms/mie/llvm/asm, an ELF object, or a whole `.mie` package. Errors
/// are reported through the context's diagnostic handler and yield failure.
/// A human-readable account of fusion on a module lowered by buildMsToMiePipeline: the number of
/// source (ONNX) nodes, the kernels launched by each entry function in order, and the source nodes
/// each kernel computes (from the kernels' locations).
std::string buildFusionReport(ModuleOp module);

/// What precision assignment did, read off the `ms.precision` summaries the pass leaves on the
/// functions of an ms module: ops per element type, casts inserted, removed and left, constant
/// bytes before and after, and a last line `precision: policy=<p> casts_left=<n>
/// weight_bytes=<before>-><after>`. Empty when the pass did not run.
std::string buildPrecisionReport(ModuleOp module);

/// The arena of each entry function of a module lowered by buildMsToMiePipeline next to its lower
/// bound (the largest sum of buffers live at one kernel) and the bytes without reuse, the largest
/// buffers at the peak, and a last line `memory: arena=<bytes> lower_bound=<bytes> naive=<bytes>`.
std::string buildMemoryReport(ModuleOp module);

/// The arena of each entry function of a module lowered by buildMsToMiePipeline as an SVG picture:
/// every buffer a rectangle over time (kernels) and arena offset, labelled with its ONNX node (in
/// full in its tooltip), and the op where the most bytes are live marked.
std::string buildMemoryPlot(ModuleOp module);

FailureOr<std::string> compileModule(ModuleOp module, const CompileOptions &options);

/// The target list `options` compiles for: `options.target`, or where it is empty the default,
/// defaultCpuTargetList for the precision policy (x86-64 and x86-64-avx512, plus x86-64-amx
/// under bf16, mixed and auto, on an x86-64 compiler), of which a stage before the package
/// (--emit=mie, llvm, asm, obj) takes the first.
std::string resolveTargetList(const CompileOptions &options);

/// Reads a .npy or ONNX TensorProto .pb file into a graph input's compile-time value
/// (`mie-compile --input-value`); returns an error message, empty on success.
std::string readBoundInput(StringRef path, OnnxImportOptions::BoundInput &bound);

} // namespace mlir::mie

#endif // MIE_PIPELINES_PIPELINES_H
