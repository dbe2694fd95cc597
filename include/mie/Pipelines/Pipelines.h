//===- Pipelines.h - the one definition of the compilation pipeline -*- C++ -*-===//
//
// mie-compile, the Python bindings and ms-opt's registered pipelines all build their pass managers
// here, so the same model compiles the same way whatever the entry point.
//
//===----------------------------------------------------------------------===//

#ifndef MIE_PIPELINES_PIPELINES_H
#define MIE_PIPELINES_PIPELINES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"

#include <string>
#include <vector>

namespace mlir::mie {

/// What a compilation stops at and returns. `Import` is the module as given, before any pass.
enum class EmitKind { Import, Ms, Mie, LLVMIR, Assembly, Object, Package };

struct CompileOptions {
  /// One target, or for a package a comma-separated list ("x86-64,x86-64-avx512"): one code object
  /// per target in one package, whose runtime picks the best the machine supports.
  std::string target = "x86-64";
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
/// weights, composite recognition and grouping into `ms.fused` kernels of at most `maxFusedOps`
/// ops.
void buildMsPipeline(OpPassManager &pm, bool fusion = true, unsigned maxFusedOps = 64);

/// ms -> mie: kernels on buffers, library kernels implemented, outputs as arguments, memory
/// planned, weights packed, kernels outlined.
void buildMsToMiePipeline(OpPassManager &pm);

/// mie (after buildMsToMiePipeline) -> LLVM dialect, ready for translation.
void buildMieToLLVMPipeline(OpPassManager &pm, int64_t parallelMinBytes = 65536);

/// Registers the three pipelines with ms-opt ("mie-ms-pipeline", "mie-ms-to-mie-pipeline",
/// "mie-to-llvm-pipeline").
void registerPipelines();

/// Compiles `module` (ms dialect, one public function) to the artifact `options.emit` names and
/// returns its bytes: IR text for ms/mie/llvm/asm, an ELF object, or a whole `.mie` package. Errors
/// are reported through the context's diagnostic handler and yield failure.
/// A human-readable account of fusion on a module lowered by buildMsToMiePipeline: the number of
/// source (ONNX) nodes, the kernels launched by each entry function in order, and the source nodes
/// each kernel computes (from the kernels' locations).
std::string buildFusionReport(ModuleOp module);

/// The arena of each entry function of a module lowered by buildMsToMiePipeline next to its lower
/// bound (the largest sum of buffers live at one kernel) and the bytes without reuse, the largest
/// buffers at the peak, and a last line `memory: arena=<bytes> lower_bound=<bytes> naive=<bytes>`.
std::string buildMemoryReport(ModuleOp module);

/// The arena of each entry function of a module lowered by buildMsToMiePipeline as an SVG picture:
/// every buffer a rectangle over time (kernels) and arena offset, labelled with its ONNX node (in
/// full in its tooltip), and the op where the most bytes are live marked.
std::string buildMemoryPlot(ModuleOp module);

FailureOr<std::string> compileModule(ModuleOp module, const CompileOptions &options);

} // namespace mlir::mie

#endif // MIE_PIPELINES_PIPELINES_H
