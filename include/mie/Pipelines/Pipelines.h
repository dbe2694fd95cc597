//===- Pipelines.h - the one definition of the compilation pipeline -*- C++ -*-===//
//
// mie-compile, the Python bindings and ms-opt's registered pipelines all build their pass managers
// here, so the same model compiles the same way whatever the entry point.
//
//===----------------------------------------------------------------------===//

#ifndef MIE_PIPELINES_PIPELINES_H
#define MIE_PIPELINES_PIPELINES_H

#include "mie/Import/OnnxImporter.h"
#include "mie/Pipelines/CompileOptions.h"
#include "mie/Target/CUDATarget.h"
#include "mie/Target/Target.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"

#include <string>
#include <vector>

namespace mlir::mie {

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

/// The layout `requested` means for a package of `targets` under `policy`, as ms-assign-layout
/// spells it ("nhwc" or "nchw"): auto is nhwc where the channels-last kernels were measured faster
/// (docs/kernels.md, "Layouts"), else nchw.
StringRef resolveLayout(LayoutChoice requested, ArrayRef<PackageTarget> targets,
                        PrecisionPolicy policy);

/// ms -> mie: kernels on buffers, library kernels implemented, outputs as arguments, memory
/// planned, weights packed, kernels outlined. For a cuda module, the convolutions and GEMMs that
/// `gpuLibraries` serve become library calls (mie-gpu-library-calls).
void buildMsToMiePipeline(OpPassManager &pm, StringRef gpuLibraries = "cublaslt,cudnn");

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

/// A product (convolution, GEMM, matmul, attention) that runs portable generated code: where it
/// comes from and why no microkernel family took it (the `mie.portable` attribute).
struct PortableProduct {
  Location loc;
  std::string kernel;
  std::string reason;
};

/// The portable products of a module lowered by buildMsToMiePipeline, in launch order.
std::vector<PortableProduct> collectPortableProducts(ModuleOp module);

/// Which kernels of a module lowered by buildMsToMiePipeline for `target` call microkernels and
/// which products run portable code, with each one's shapes and reason, and a last line
/// `kernels: target=<t> microkernel_kernels=<n> portable_products=<m>`.
std::string buildKernelReport(ModuleOp module, StringRef target);

/// The arena of each entry function of a module lowered by buildMsToMiePipeline as an SVG picture:
/// every buffer a rectangle over time (kernels) and arena offset, labelled with its ONNX node (in
/// full in its tooltip), and the op where the most bytes are live marked.
std::string buildMemoryPlot(ModuleOp module);

FailureOr<std::string> compileModule(ModuleOp module, const CompileOptions &options);

/// Whether a function of `module` has symbolic dims (an import with keepSymbolicDims).
bool hasSymbolicDims(ModuleOp module);

/// Reads a .npy or ONNX TensorProto .pb file into a graph input's compile-time value
/// (`mie-compile --input-value`); returns an error message, empty on success.
std::string readBoundInput(StringRef path, OnnxImportOptions::BoundInput &bound);

} // namespace mlir::mie

#endif // MIE_PIPELINES_PIPELINES_H
