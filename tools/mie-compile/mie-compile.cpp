//===- mie-compile.cpp - the compiler's command line ------------------------===//
//
// mie-compile model.onnx -o model.mie [--target=...] [--emit=ms|mie|llvm|asm|obj|package] ...
//
// The options and main only: the flags are checked and typed by applyCompileFlags
// (lib/Pipelines/CompileOptions.cpp), the compilation is compileModule (the one pipeline), and
// loading, diagnostics and the atomic output file are lib/Driver. On any error the exit code is 1,
// the diagnostics are on stderr, and the output file is neither created nor overwritten.
//
//===----------------------------------------------------------------------===//

#include "PackageSigner.h"

#include "mie/Driver/Driver.h"
#include "mie/Import/OnnxImporter.h"
#include "mie/InitAll.h"
#include "mie/Pipelines/Pipelines.h"
#include "mie/mie_rt.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllExtensions.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace mlir;
namespace cl = llvm::cl;

namespace {

using mie::EmitKind;

cl::OptionCategory category("mie-compile options");

cl::opt<std::string> inputFile(cl::Positional, cl::desc("<model.onnx | model.mlir>"), cl::Required,
                               cl::cat(category));

cl::opt<std::string> outputFile("o", cl::desc("Output file ('-' for stdout)"),
                                cl::value_desc("file"), cl::init("-"), cl::cat(category));

cl::opt<std::string> signKey(
    "sign-key",
    cl::desc("Sign the package with this Ed25519 secret key (NAME.key from `mie-sign keygen`); "
             "see docs/security.md"),
    cl::value_desc("file"), cl::cat(category));

cl::opt<EmitKind>
    emit("emit", cl::desc("What to produce (default: package)"), cl::init(EmitKind::Package),
         cl::values(clEnumValN(EmitKind::Import, "import",
                               "the ms graph exactly as the importer built it (no pass run)"),
                    clEnumValN(EmitKind::Ms, "ms",
                               "the ms graph after graph optimization (folding, CSE)"),
                    clEnumValN(EmitKind::Mie, "mie", "the execution-level mie dialect"),
                    clEnumValN(EmitKind::LLVMIR, "llvm", "LLVM IR"),
                    clEnumValN(EmitKind::Assembly, "asm", "target assembly"),
                    clEnumValN(EmitKind::Object, "obj", "a target object file"),
                    clEnumValN(EmitKind::Package, "package", "a deployable .mie package")),
         cl::cat(category));

cl::opt<std::string>
    target("target",
           cl::desc("Code generation target: x86-64 (AVX2 + FMA), x86-64-avx512, "
                    "x86-64-avx512-vnni (AVX-512 with VNNI: integer QDQ convolutions), x86-64-amx "
                    "(AVX-512 with AMX-BF16 and VNNI), aarch64 (NEON), host (the best of these "
                    "for this machine) or cuda:sm_<N> (NVIDIA GPUs, N >= 75; cuda:sm_80+sm_90 "
                    "makes one target per SM); for a package a comma-separated list, e.g. "
                    "x86-64,cuda:sm_90: one code object each, the runtime runs the best one the "
                    "machine supports. Default: $MIE_COMPILE_TARGET, else a package for every "
                    "x86-64 machine (x86-64,x86-64-avx512, plus x86-64-amx under "
                    "bf16/mixed/auto; aarch64 on an AArch64 compiler) and x86-64 for the stages "
                    "before it"),
           cl::value_desc("name[,name...]"), cl::cat(category));
cl::opt<std::string> includeTargets(
    "include-targets",
    cl::desc("The targets of a portable package by class: cpu (x86-64 and x86-64-avx512), gpu or "
             "cuda (cuda:sm_80+sm_90), or target names; e.g. cpu,gpu. The runtime runs a cuda "
             "target where a CUDA device can, else the best cpu one. Instead of --target"),
    cl::value_desc("class[,class...]"), cl::cat(category));
cl::opt<std::string> cudaPath(
    "cuda-path",
    cl::desc("The CUDA toolkit whose ptxas makes the cubins of cuda targets (default: $CUDA_ROOT, "
             "else /usr/local/cuda)"),
    cl::value_desc("dir"), cl::cat(category));
cl::opt<std::string> cudaLibraries(
    "cuda-libraries",
    cl::desc("What cuda targets compute convolutions and GEMMs with: cublaslt,cudnn (default: "
             "cuBLASLt for GEMMs and MatMuls, cuDNN for convolutions, loaded by the runtime), a "
             "subset, or none (generated kernels only)"),
    cl::value_desc("list"), cl::init("cublaslt,cudnn"), cl::cat(category));
cl::opt<int64_t> parallelMinBytes(
    "parallel-min-bytes",
    cl::desc(
        "Run a kernel loop on one thread when all its buffers are smaller than this many bytes "
        "(default 65536: splitting smaller work costs more than it saves)"),
    cl::init(65536), cl::cat(category));
cl::opt<int64_t> jobs("jobs",
                  cl::desc("Threads for code generation (default 0: one per core); the package "
                           "is the same whatever the count"),
                  cl::init(0), cl::cat(category));
cl::opt<bool> printIRAfterAll("print-ir-after-all",
                              cl::desc("Print the IR after every pass (to stderr)"),
                              cl::init(false), cl::cat(category));
cl::opt<bool> fusion("fusion",
                     cl::desc("Run the graph fusion passes (default: on; --fusion=false gives one "
                              "kernel per op, the reference for checking fusion)"),
                     cl::init(true), cl::cat(category));
cl::opt<int64_t> maxFusedOps(
    "max-fused-ops",
    cl::desc("The most ops one fused elementwise kernel may hold (default 64, at least 2): longer "
             "chains become several kernels, which keeps code generation time linear"),
    cl::init(64), cl::cat(category));

cl::opt<std::string> precision(
    "precision",
    cl::desc("Element types: fp32 (default), bf16 or fp16 (everything reduced but what must stay "
             "f32), mixed (conv/matmul/gemm in bf16 on x86-64, fp16 on aarch64, with f32 "
             "accumulation; normalizations, softmax, reductions, exp/log/pow, embedding lookups "
             "and the outputs in f32), auto (mixed, with the fewest products kept in f32 that "
             "bring the measured error within --accuracy-budget); see docs/precision.md"),
    cl::value_desc("fp32|fp16|bf16|mixed|auto"), cl::init("fp32"), cl::cat(category));
cl::opt<std::string> layout(
    "layout",
    cl::desc("Activation layout: auto (default: channels last where it was measured faster, for "
             "now bf16/mixed on CPUs with AMX), nhwc (depthwise-separable parts of the graph "
             "channels last: 1x1 convolutions as pixel-row GEMMs, depthwise convolutions on the "
             "NHWC kernel), nchw (every activation NCHW); see docs/kernels.md"),
    cl::value_desc("auto|nhwc|nchw"), cl::init("auto"), cl::cat(category));
cl::opt<double> accuracyBudget(
    "accuracy-budget",
    cl::desc("With --precision=auto: the largest relative error of the outputs (max |reduced - "
             "fp32| / max |fp32| per output, over the calibration inputs), in (0, 1]; default "
             "0.01"),
    cl::value_desc("R"), cl::init(1e-2), cl::cat(category));
cl::opt<std::string> calibrationDir(
    "calibration",
    cl::desc("With --precision=auto: a directory of input sets (.npy or ONNX .pb files named "
             "after the inputs or input_<i>; the directory's own files and each subdirectory's "
             "are one set each); default: seeded random inputs"),
    cl::value_desc("DIR"), cl::cat(category));
cl::list<std::string> keepFp32(
    "keep-fp32",
    cl::desc("Ops kept in f32 whatever --precision says: ONNX op types (Softmax) or node names "
             "(/encoder/layer.0/attention/Softmax), comma-separated"),
    cl::value_desc("name[,name...]"), cl::CommaSeparated, cl::cat(category));
cl::list<std::string> forceReduced(
    "force-reduced",
    cl::desc("Ops computed in the reduced type whatever the policy says (needs --precision other "
             "than fp32): ONNX op types or node names, comma-separated"),
    cl::value_desc("name[,name...]"), cl::CommaSeparated, cl::cat(category));
cl::opt<std::string> quantizeMethod(
    "quantize-method",
    cl::desc("Weight-only quantization: dynamic_fp16 stores the weights as fp16 (half the "
             "weight bytes) and converts them to fp32 where they are used"),
    cl::value_desc("dynamic_fp16"), cl::cat(category));

enum class Report { None, Fusion, Memory, Precision, Kernels };
cl::opt<Report> report(
    "report", cl::desc("Print a report of the compilation"), cl::init(Report::None),
    cl::values(clEnumValN(Report::Fusion, "fusion",
                          "source nodes in, kernels out, and the source nodes of each kernel "
                          "(stdout; stderr when the output goes to stdout)"),
               clEnumValN(Report::Memory, "memory",
                          "the arena next to its lower bound and the bytes without reuse, the "
                          "largest buffers at the peak, and a last line 'memory: arena=<bytes> "
                          "lower_bound=<bytes> naive=<bytes>' (stdout; stderr as for fusion)"),
               clEnumValN(Report::Precision, "precision",
                          "ops per element type, casts inserted, removed and left, weight bytes "
                          "before and after, and a last line 'precision: policy=<p> "
                          "casts_left=<n> weight_bytes=<before>-><after>' (stdout; stderr as for "
                          "fusion)"),
               clEnumValN(Report::Kernels, "kernels",
                          "per target, the kernels calling microkernels and every convolution, "
                          "GEMM, matmul or attention left to portable code, with its shapes, "
                          "ONNX nodes and the reason, and a last line per target 'kernels: "
                          "target=<t> microkernel_kernels=<n> portable_products=<m>' (stdout; "
                          "stderr as for fusion)")),
    cl::cat(category));

cl::opt<std::string> memoryPlot(
    "memory-plot",
    cl::desc("Write the memory plan as an SVG picture: buffers as rectangles over time (kernels) "
             "and arena offset, labelled with their ONNX node, the peak marked"),
    cl::value_desc("FILE.svg"), cl::cat(category));

cl::list<std::string> inputShapes(
    "input-shape",
    cl::desc("Static shape for a graph input, e.g. --input-shape=input=1x3x224x224 (repeatable)"),
    cl::value_desc("name=DxDx..."), cl::cat(category));

cl::list<std::string> inputValues(
    "input-value",
    cl::desc("Bind a graph input to a value at compile time, e.g. --input-value=sizes=sizes.npy "
             "(.npy or ONNX TensorProto .pb; repeatable): it becomes a constant of the model and "
             "leaves the package's inputs, so shape-determining inputs (a Resize's sizes, a Pad's "
             "pads) may be graph inputs"),
    cl::value_desc("name=FILE"), cl::cat(category));

cl::list<std::string>
    dimParams("dim-param",
              cl::desc("Size of a named symbolic dim, e.g. --dim-param=batch=4 (repeatable)"),
              cl::value_desc("name=size"), cl::cat(category));

cl::opt<bool> symbolicDims(
    "symbolic-dims",
    cl::desc("Keep the symbolic input dims symbolic ('?' over the function's ms.symbols) through "
             "import and the graph passes; --emit=import and --emit=ms show them, and the later "
             "stages size them with --dim-param (or --symbolic-dim-default) after the graph "
             "passes (docs/dynamic-shapes.md); --specialize and --dim-range imply it. Without "
             "this flag, --dim-param, --input-shape and --symbolic-dim-default, a dynamic-axes "
             "model compiles to code for every shape (each symbol 1..512) where it can, else for "
             "one size of each symbol (a warning says why); --symbolic-dims=false always takes "
             "the one size"),
    cl::init(false), cl::cat(category));

cl::list<std::string> specializeDims(
    "specialize",
    cl::desc(
        "Compile code for these values of a symbolic dim (implies --symbolic-dims), e.g. "
        "--specialize=seq=128,384 (repeatable, one symbol each): the package keeps the symbols "
        "and holds code for every combination of the values; the runtime runs the one "
        "matching a run's input shapes"),
    cl::value_desc("name=N[,N...]"), cl::cat(category));

cl::list<std::string> dimRanges(
    "dim-range",
    cl::desc("The values a symbolic dim may take at run time, e.g. --dim-range=seq=1..512 "
             "(implies --symbolic-dims; recorded in the package and checked before each run): "
             "the package also holds code for any shape in the ranges (a symbol without "
             "one: 1..512, or the span of its --specialize values)"),
    cl::value_desc("name=LO..HI"), cl::cat(category));

cl::opt<int64_t> defaultSymbolicDim(
    "symbolic-dim-default",
    cl::desc("Size for symbolic input dims not set otherwise (0: such dims are an error)"),
    cl::init(1), cl::cat(category));

cl::opt<uint64_t> maxTensorBytes(
    "max-tensor-bytes",
    cl::desc("The most bytes one tensor of the model may have (default 17179869184 = 16 GiB); "
             "a larger initializer, input or computed value is an error naming it"),
    cl::init(mie::OnnxImportOptions::kDefaultMaxTensorBytes), cl::cat(category));

cl::opt<uint64_t> maxModelBytes(
    "max-model-bytes",
    cl::desc("The most bytes the model may bring, its file and external data together (default "
             "68719476736 = 64 GiB)"),
    cl::init(mie::OnnxImportOptions::kDefaultMaxModelBytes), cl::cat(category));

cl::opt<bool> listUnsupported(
    "list-unsupported",
    cl::desc("Print every unsupported node (op, domain, opset, node) instead of compiling; exit 1 "
             "if there is any"),
    cl::init(false), cl::cat(category));

/// The flags that decide the compilation, as text for applyCompileFlags.
mie::CompileFlags compileFlags() {
  mie::CompileFlags flags;
  if (target.getNumOccurrences())
    flags.target = target;
  else if (const char *env = std::getenv("MIE_COMPILE_TARGET");
           env && *env && !includeTargets.getNumOccurrences()) {
    // The environment's default where the command line names no targets (a fleet of one kind of
    // machine, a test suite that checks one target's code).
    flags.target = env;
    flags.targetSource = "MIE_COMPILE_TARGET";
  }
  if (includeTargets.getNumOccurrences())
    flags.includeTargets = includeTargets;
  flags.precision = precision;
  flags.layout = layout;
  flags.quantizeMethod = quantizeMethod;
  if (accuracyBudget.getNumOccurrences())
    flags.accuracyBudget = accuracyBudget;
  flags.calibrationDir = calibrationDir;
  flags.keepFp32.assign(keepFp32.begin(), keepFp32.end());
  flags.forceReduced.assign(forceReduced.begin(), forceReduced.end());
  flags.maxFusedOps = maxFusedOps;
  flags.parallelMinBytes = parallelMinBytes;
  flags.jobs = jobs;
  return flags;
}

/// An error's message and, where its location names one, its ONNX node: the reason a fallback
/// gives on one line.
std::string describeError(Diagnostic &diag) {
  std::string node = mie::unnamedOnnxNode(diag);
  return diag.str() + (node.empty() ? "" : " at ONNX node '" + node + "'");
}

/// Whether the dims a dynamic-axes export leaves symbolic get code for every shape (the default):
/// no flag chose the symbols' handling or sized any input (--dim-param, --input-shape,
/// --symbolic-dim-default).
bool everyShapeByDefault() {
  return !symbolicDims.getNumOccurrences() && specializeDims.empty() && dimRanges.empty() &&
         dimParams.empty() && inputShapes.empty() && !defaultSymbolicDim.getNumOccurrences();
}

/// Runs the pipeline up to the requested stage and writes the result.
LogicalResult compile(MLIRContext &ctx, const mie::OnnxImportOptions &opts) {
  // Checked before the model is read: a typo must not cost an import.
  mie::CompileOptions options;
  std::string flagError;
  if (failed(mie::applyCompileFlags(compileFlags(), options, flagError))) {
    llvm::errs() << "error: " << flagError << "\n";
    return failure();
  }
  // The key too: a compile must not run only to find that it cannot be signed.
  mie_compile::PackageSigner signer;
  if (!signKey.empty()) {
    if (emit != EmitKind::Package) {
      llvm::errs() << "error: --sign-key signs a package: it needs --emit=package\n";
      return failure();
    }
    if (std::string error = signer.load(signKey); !error.empty()) {
      llvm::errs() << "error: --sign-key: " << error << "\n";
      return failure();
    }
  }
  std::string reportText;
  if (report == Report::Precision) {
    if (emit == EmitKind::Import) {
      llvm::errs() << "error: --report=precision needs the graph passes: use --emit=ms or later\n";
      return failure();
    }
    options.precisionReport = &reportText;
  } else if (report != Report::None) {
    if (emit == EmitKind::Import || emit == EmitKind::Ms) {
      llvm::errs() << "error: --report="
                   << (report == Report::Fusion   ? "fusion"
                       : report == Report::Memory ? "memory"
                                                  : "kernels")
                   << " needs the kernels: use --emit=mie or later\n";
      return failure();
    }
    (report == Report::Fusion   ? options.fusionReport
     : report == Report::Memory ? options.memoryReport
                                : options.kernelReport) = &reportText;
  }
  std::string plotText;
  if (!memoryPlot.empty()) {
    if (emit == EmitKind::Import || emit == EmitKind::Ms) {
      llvm::errs() << "error: --memory-plot needs the planned kernels: use --emit=mie or later\n";
      return failure();
    }
    if (memoryPlot == "-" || memoryPlot == outputFile) {
      llvm::errs() << "error: --memory-plot needs a file of its own, not '" << memoryPlot
                   << "'\n";
      return failure();
    }
    options.memoryPlot = &plotText;
  }
  std::string autoSummary;
  options.autoPrecisionSummary = &autoSummary;
  options.emit = emit;
  options.cudaPath = cudaPath;
  options.cudaLibraries = cudaLibraries;
  options.modelName = llvm::sys::path::stem(inputFile).str();
  options.printIRAfterAll = printIRAfterAll;
  options.fusion = fusion;
  // Kept symbolic, the dims get their --dim-param sizes (checked name=N) after the graph passes.
  if (opts.keepSymbolicDims)
    options.dimSizes.assign(dimParams.begin(), dimParams.end());
  options.specializations.assign(specializeDims.begin(), specializeDims.end());
  options.dimRanges.assign(dimRanges.begin(), dimRanges.end());
  options.defaultDimSize = defaultSymbolicDim;
  // keptSymbols: the import left some dim symbolic (unknown when it failed).
  std::optional<bool> keptSymbols;
  auto compileOnce = [&](const mie::OnnxImportOptions &importOpts) -> FailureOr<std::string> {
    FailureOr<OwningOpRef<ModuleOp>> module = mie::loadModel(inputFile, ctx, importOpts);
    if (failed(module))
      return failure();
    keptSymbols = mie::hasSymbolicDims(**module);
    return mie::compileModule(**module, options);
  };
  // Runs `body` with its diagnostics kept as text (and the first error's message and node).
  auto buffered = [&](std::string &text, std::string &firstError, auto body) {
    llvm::raw_string_ostream os(text);
    ScopedDiagnosticHandler capture(&ctx, [&](Diagnostic &diag) {
      if (diag.getSeverity() == DiagnosticSeverity::Error && firstError.empty())
        firstError = describeError(diag);
      return mie::formatCompilerDiagnostic(diag, os);
    });
    return body();
  };
  FailureOr<std::string> artifact = failure();
  if (everyShapeByDefault()) {
    // A dynamic-axes export gets code for every shape; where some part of it cannot take its
    // sizes at run time yet (an op, a target, a precision), the compile of one size per symbol
    // that every model got before. The try's diagnostics are shown only when it is kept, the
    // fallback's reason only when the fallback compiles.
    mie::OnnxImportOptions symbolic = opts;
    symbolic.keepSymbolicDims = true;
    options.everyShape = true;
    std::string tried, reason;
    artifact = buffered(tried, reason, [&] { return compileOnce(symbolic); });
    if (succeeded(artifact) || keptSymbols == false) {
      // Kept, or a model without symbolic dims, whose compile the fallback would only repeat.
      llvm::errs() << tried;
    } else {
      options.everyShape = false;
      reportText.clear();
      plotText.clear();
      autoSummary.clear();
      std::string pinned, unused;
      artifact = buffered(pinned, unused, [&] { return compileOnce(opts); });
      if (succeeded(artifact))
        llvm::errs() << inputFile << ": warning: no code for every shape of the model's symbolic "
                     << "dims (" << reason << "): it is compiled for one size of each "
                     << "(--dim-range=NAME=LO..HI asks for every shape and fails here instead; "
                     << "--symbolic-dims=false skips the try)\n";
      llvm::errs() << pinned;
    }
  } else {
    artifact = compileOnce(opts);
  }
  if (failed(artifact))
    return failure();
  if (!autoSummary.empty())
    llvm::errs() << "mie-compile: " << autoSummary << "\n";
  if (!signKey.empty()) {
    if (std::string error = signer.sign(*artifact); !error.empty()) {
      llvm::errs() << "error: --sign-key: " << error << "\n";
      return failure();
    }
  }
  if (report != Report::None)
    (outputFile == "-" ? llvm::errs() : llvm::outs()) << reportText;

  bool binary = emit == EmitKind::Object || emit == EmitKind::Package;
  if (binary && outputFile == "-" && llvm::sys::Process::StandardOutIsDisplayed()) {
    llvm::errs() << "error: refusing to write binary output to a terminal; pass -o FILE\n";
    return failure();
  }
  // Opened only now, so that a failed compilation never creates or truncates the output.
  if (failed(mie::writeOutputFile(outputFile, [&](llvm::raw_ostream &os) { os << *artifact; })))
    return failure();
  if (!memoryPlot.empty())
    return mie::writeOutputFile(memoryPlot, [&](llvm::raw_ostream &os) { os << plotText; });
  return success();
}

/// --list-unsupported: one line per unsupported node on stdout; exit 1 when there is any.
LogicalResult listUnsupportedNodes(MLIRContext &ctx, mie::OnnxImportOptions opts) {
  std::vector<mie::OnnxUnsupportedNode> nodes;
  opts.collectAllUnsupported = true;
  opts.unsupportedNodes = &nodes;
  FailureOr<OwningOpRef<ModuleOp>> module = mie::importOnnxModel(inputFile, ctx, opts);
  for (const mie::OnnxUnsupportedNode &node : nodes)
    llvm::outs() << mie::formatUnsupported(node) << "\n";
  llvm::outs().flush();
  return success(succeeded(module) && nodes.empty());
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  registerAsmPrinterCLOptions();
  registerMLIRContextCLOptions();
  // MLIR and LLVM register hundreds of debugging options; --help shows the compiler's own.
  cl::HideUnrelatedOptions(category);
  // The project's version first (the one mie-run, mie-sign and the Python module print), then the
  // LLVM it was built with, which LLVM's own printer would have shown alone.
  cl::SetVersionPrinter([](llvm::raw_ostream &os) {
    os << "mie-compile " << MIE_RT_VERSION_STRING << "\n  package format "
       << MIE_PACKAGE_FORMAT_VERSION << "\n  LLVM " << LLVM_VERSION_STRING << "\n";
  });
  cl::ParseCommandLineOptions(argc, argv, "mie model compiler\n");

  mie::OnnxImportOptions opts;
  opts.defaultSymbolicDim = defaultSymbolicDim;
  if (maxTensorBytes == 0 || maxModelBytes == 0) {
    llvm::errs() << "error: --max-tensor-bytes and --max-model-bytes must be at least 1\n";
    return 1;
  }
  opts.maxTensorBytes = maxTensorBytes;
  opts.maxModelBytes = maxModelBytes;
  for (const std::string &text : inputShapes)
    if (failed(mie::parseInputShapeFlag(text, opts)))
      return 1;
  for (const std::string &text : dimParams)
    if (failed(mie::parseDimParamFlag(text, opts)))
      return 1;
  // --specialize and --dim-range are about the symbols --symbolic-dims keeps: they imply it.
  opts.keepSymbolicDims = symbolicDims || !specializeDims.empty() || !dimRanges.empty();
  for (const std::string &text : inputValues)
    if (failed(mie::parseInputValueFlag(text, opts)))
      return 1;

  DialectRegistry registry;
  mie::registerAllDialects(registry);
  registry.insert<func::FuncDialect>();
  // The lowering to NVVM finds each dialect's conversion to LLVM through these.
  registerAllExtensions(registry);
  MLIRContext ctx(registry);
  ScopedDiagnosticHandler handler(&ctx, mie::printCompilerDiagnostic);

  LogicalResult result = listUnsupported ? listUnsupportedNodes(ctx, opts) : compile(ctx, opts);
  return succeeded(result) ? 0 : 1;
}
