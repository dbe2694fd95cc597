//===- mie-compile.cpp - ONNX model to ms IR (and later: to a package) ----===//
//
// mie-compile model.onnx -o out.mlir --emit=ms [--input-shape name=1x3x224x224]...
// [--list-unsupported]
//
// The driver is organised around the emit stage: import always runs, and each later stage (mie,
// llvm, asm, obj, package) will add its step to `compile` below. On any error the exit code is 1,
// the diagnostics are on stderr, and the output file is neither created nor overwritten.
//
//===----------------------------------------------------------------------===//

#include "mie/Import/OnnxImporter.h"
#include "mie/InitAll.h"
#include "mie/Pipelines/Pipelines.h"
#include "mie/Target/CPUTarget.h"
#include "mie/Target/Target.h"
#include "PackageSigner.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/SourceMgr.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <cerrno>
#include <cstdlib>
#include <unistd.h>

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
cl::opt<int> jobs("jobs",
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
cl::opt<unsigned> maxFusedOps(
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

enum class Report { None, Fusion, Memory, Precision };
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
                          "fusion)")),
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

/// Prints "<file>: error: <message>", and the ONNX node when the message does not name it already.
/// (MLIR's SourceMgr handler would try to show the binary model as source lines.)
LogicalResult printDiagnostic(Diagnostic &diag) {
  llvm::raw_ostream &os = llvm::errs();
  std::string file, node;
  diag.getLocation()->walk([&](Location loc) {
    if (auto name = dyn_cast<NameLoc>(loc); name && node.empty())
      node = name.getName().str();
    if (auto fileLoc = dyn_cast<FileLineColLoc>(loc); fileLoc && file.empty())
      file = fileLoc.getFilename().str();
    return WalkResult::advance();
  });
  if (!file.empty())
    os << file << ": ";
  switch (diag.getSeverity()) {
  case DiagnosticSeverity::Error:
    llvm::WithColor(os, llvm::HighlightColor::Error) << "error: ";
    break;
  case DiagnosticSeverity::Warning:
    llvm::WithColor(os, llvm::HighlightColor::Warning) << "warning: ";
    break;
  case DiagnosticSeverity::Note:
    llvm::WithColor(os, llvm::HighlightColor::Note) << "note: ";
    break;
  case DiagnosticSeverity::Remark:
    llvm::WithColor(os, llvm::HighlightColor::Remark) << "remark: ";
    break;
  }
  std::string message = diag.str();
  os << message << "\n";
  if (!node.empty() && message.find("'" + node + "'") == std::string::npos)
    os << (file.empty() ? "" : file + ": ") << "note: at ONNX node '" << node << "'\n";
  for (Diagnostic &note : diag.getNotes())
    os << (file.empty() ? "" : file + ": ") << "note: " << note.str() << "\n";
  return success();
}

/// Parses "name=1x3x224x224" (the name may itself contain '='; the last one separates). "name=" is
/// a scalar.
LogicalResult parseInputShape(StringRef text, mie::OnnxImportOptions &opts) {
  auto [name, dims] = text.rsplit('=');
  if (name.empty() || name.size() == text.size()) {
    llvm::errs() << "error: --input-shape expects name=DxDx..., got '" << text << "'\n";
    return failure();
  }
  SmallVector<int64_t> shape;
  if (!dims.empty()) {
    SmallVector<StringRef> parts;
    dims.split(parts, 'x');
    for (StringRef part : parts) {
      int64_t dim;
      if (part.getAsInteger(10, dim) || dim < 0) {
        llvm::errs() << "error: --input-shape '" << text << "': '" << part
                     << "' is not a dim size\n";
        return failure();
      }
      shape.push_back(dim);
    }
  }
  opts.inputShapes[name] = std::move(shape);
  return success();
}

/// Parses "name=FILE" (the last '=' separates) and reads the tensor file.
LogicalResult parseInputValue(StringRef text, mie::OnnxImportOptions &opts) {
  auto [name, file] = text.rsplit('=');
  if (name.empty() || file.empty() || name.size() == text.size()) {
    llvm::errs() << "error: --input-value expects name=FILE, got '" << text << "'\n";
    return failure();
  }
  mie::OnnxImportOptions::BoundInput bound;
  if (std::string error = mie::readBoundInput(file, bound); !error.empty()) {
    llvm::errs() << "error: --input-value '" << text << "': " << error << "\n";
    return failure();
  }
  opts.inputValues[name] = std::move(bound);
  return success();
}

LogicalResult parseDimParam(StringRef text, mie::OnnxImportOptions &opts) {
  auto [name, size] = text.rsplit('=');
  int64_t value;
  if (name.empty() || name.size() == text.size() || size.getAsInteger(10, value) || value < 0) {
    llvm::errs() << "error: --dim-param expects name=size, got '" << text << "'\n";
    return failure();
  }
  opts.symbolicDims[name] = value;
  return success();
}

/// Writes `outputFile` through `write`, atomically: into a new file beside it, synced and
/// renamed over it only when everything was written. A failed or killed compile (or a full disk) leaves any old
/// file untouched, and a session that has the old package mapped keeps its inode and bytes.
LogicalResult writeFile(StringRef outputFile, function_ref<void(llvm::raw_ostream &)> write) {
  if (outputFile == "-") {
    write(llvm::outs());
    llvm::outs().flush();
    return success();
  }
  // An existing output that is not a regular file (/dev/null, a FIFO, a terminal) is written
  // into: renaming over it would replace the device node with a regular file.
  llvm::sys::fs::file_status status;
  if (!llvm::sys::fs::status(outputFile, status) && llvm::sys::fs::exists(status) &&
      status.type() != llvm::sys::fs::file_type::regular_file &&
      status.type() != llvm::sys::fs::file_type::directory_file) {
    std::error_code ec;
    llvm::raw_fd_ostream os(outputFile, ec);
    if (ec) {
      llvm::errs() << "error: cannot write '" << outputFile << "': " << ec.message() << "\n";
      return failure();
    }
    write(os);
    os.close();
    if (os.has_error()) {
      llvm::errs() << "error: cannot write '" << outputFile << "': " << os.error().message()
                   << "\n";
      os.clear_error();
      return failure();
    }
    return success();
  }
  int fd;
  SmallString<256> temp;
  if (std::error_code ec =
          llvm::sys::fs::createUniqueFile(outputFile + ".tmp-%%%%%%%%", fd, temp)) {
    llvm::errs() << "error: cannot create '" << outputFile << "' (its directory): " << ec.message()
                 << "\n";
    return failure();
  }
  llvm::sys::RemoveFileOnSignal(temp);
  auto discard = [&](StringRef why) {
    llvm::errs() << "error: cannot write '" << outputFile << "': " << why << "\n";
    llvm::sys::fs::remove(temp);
    llvm::sys::DontRemoveFileOnSignal(temp);
    return failure();
  };
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    write(os);
    os.flush();
    // On disk before the rename makes it the package: a crash then leaves the old file or the
    // whole new one, never a renamed empty file.
    if (!os.has_error() && ::fsync(fd) != 0)
      return discard(std::error_code(errno, std::generic_category()).message());
    os.close();
    if (os.has_error()) {
      std::string message = os.error().message();
      os.clear_error();
      return discard(message);
    }
  }
  // The package gets the permissions a new file would (createUniqueFile makes it owner-only).
  unsigned mask = llvm::sys::fs::getUmask();
  (void)llvm::sys::fs::setPermissions(
      temp, static_cast<llvm::sys::fs::perms>(0666 & ~mask));
  if (std::error_code ec = llvm::sys::fs::rename(temp, outputFile))
    return discard(ec.message());
  llvm::sys::DontRemoveFileOnSignal(temp);
  return success();
}

/// Imports the model: ONNX, or ms-dialect MLIR (`.mlir`) for testing the backend on its own.
FailureOr<OwningOpRef<ModuleOp>> loadModel(MLIRContext &ctx, const mie::OnnxImportOptions &opts) {
  if (!StringRef(inputFile).ends_with(".mlir"))
    return mie::importOnnxModel(inputFile, ctx, opts);
  llvm::SourceMgr sources;
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> buffer = openInputFile(inputFile, &error);
  if (!buffer) {
    llvm::errs() << "error: " << error << "\n";
    return failure();
  }
  sources.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sources, &ctx);
  if (!module)
    return failure();
  return module;
}

/// Runs the pipeline up to the requested stage and writes the result.
LogicalResult compile(MLIRContext &ctx, const mie::OnnxImportOptions &opts) {
  // Checked before the model is read: a typo must not cost an import.
  std::string targetError;
  if (includeTargets.getNumOccurrences()) {
    if (target.getNumOccurrences()) {
      llvm::errs() << "error: --include-targets and --target both name the package's targets; give "
                      "one of them\n";
      return failure();
    }
    FailureOr<std::string> list = mie::expandTargetClasses(includeTargets, targetError);
    if (failed(list)) {
      llvm::errs() << "error: --include-targets: " << targetError << "\n";
      return failure();
    }
    target.setValue(*list);
  }
  // The environment's default where the command line names no targets (a fleet of one kind of
  // machine, a test suite that checks one target's code).
  StringRef targetSource = "--target";
  if (!target.getNumOccurrences() && !includeTargets.getNumOccurrences())
    if (const char *env = std::getenv("MIE_COMPILE_TARGET"); env && *env) {
      target.setValue(env);
      targetSource = "MIE_COMPILE_TARGET";
    }
  if (target.getNumOccurrences() && target.empty()) {
    llvm::errs() << "error: --target names no target (leave it out for the default)\n";
    return failure();
  }
  if (!target.empty() && failed(mie::parseTargetList(target, targetError))) {
    llvm::errs() << "error: " << targetSource << ": " << targetError << "\n";
    return failure();
  }
  if (precision != "fp32" && precision != "fp16" && precision != "bf16" && precision != "mixed" &&
      precision != "auto") {
    llvm::errs() << "error: --precision must be fp32, fp16, bf16, mixed or auto, got '"
                 << precision << "'\n";
    return failure();
  }
  if (layout != "auto" && layout != "nhwc" && layout != "nchw") {
    llvm::errs() << "error: --layout must be auto, nhwc or nchw, got '" << layout << "'\n";
    return failure();
  }
  if (precision != "auto" && (accuracyBudget.getNumOccurrences() || !calibrationDir.empty())) {
    llvm::errs() << "error: --" << (calibrationDir.empty() ? "accuracy-budget" : "calibration")
                 << " is for --precision=auto, not --precision=" << precision << "\n";
    return failure();
  }
  if (!(accuracyBudget > 0 && accuracyBudget <= 1)) {
    llvm::errs() << "error: --accuracy-budget must be in (0, 1] (a relative error), got "
                 << accuracyBudget << "\n";
    return failure();
  }
  if (!calibrationDir.empty() && !llvm::sys::fs::is_directory(calibrationDir)) {
    llvm::errs() << "error: --calibration: '" << calibrationDir << "' is not a directory\n";
    return failure();
  }
  if (!quantizeMethod.empty() && quantizeMethod != "dynamic_fp16") {
    llvm::errs() << "error: --quantize-method must be dynamic_fp16, got '" << quantizeMethod
                 << "'\n";
    return failure();
  }
  if (!quantizeMethod.empty() && precision != "fp32") {
    llvm::errs() << "error: --quantize-method=" << quantizeMethod
                 << " computes in fp32: it cannot be combined with --precision=" << precision
                 << "\n";
    return failure();
  }
  if (!forceReduced.empty() && precision == "fp32") {
    llvm::errs() << "error: --force-reduced needs --precision=bf16, fp16, mixed or auto\n";
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
  FailureOr<OwningOpRef<ModuleOp>> module = loadModel(ctx, opts);
  if (failed(module))
    return failure();

  mie::CompileOptions options;
  options.precision.precision = precision;
  options.layout = layout;
  options.precision.keepFp32.assign(keepFp32.begin(), keepFp32.end());
  options.precision.forceReduced.assign(forceReduced.begin(), forceReduced.end());
  options.precision.quantizeMethod = quantizeMethod;
  options.precision.accuracyBudget = accuracyBudget;
  options.precision.calibrationDir = calibrationDir;
  std::string autoSummary;
  options.autoPrecisionSummary = &autoSummary;
  options.emit = emit;
  options.target = target;
  options.cudaPath = cudaPath;
  options.cudaLibraries = cudaLibraries;
  options.modelName = llvm::sys::path::stem(inputFile).str();
  options.printIRAfterAll = printIRAfterAll;
  options.fusion = fusion;
  if (maxFusedOps < 2) {
    llvm::errs() << "error: --max-fused-ops must be at least 2, got " << maxFusedOps << "\n";
    return failure();
  }
  options.maxFusedOps = maxFusedOps;
  if (parallelMinBytes < 0) {
    llvm::errs() << "error: --parallel-min-bytes must be >= 0, got " << parallelMinBytes << "\n";
    return failure();
  }
  options.parallelMinBytes = parallelMinBytes;
  if (jobs < 0) {
    llvm::errs() << "error: --jobs must be >= 0, got " << jobs << "\n";
    return failure();
  }
  options.jobs = jobs;
  std::string reportText;
  if (report == Report::Precision) {
    if (emit == EmitKind::Import) {
      llvm::errs() << "error: --report=precision needs the graph passes: use --emit=ms or later\n";
      return failure();
    }
    options.precisionReport = &reportText;
  } else if (report != Report::None) {
    if (emit == EmitKind::Import || emit == EmitKind::Ms) {
      llvm::errs() << "error: --report=" << (report == Report::Fusion ? "fusion" : "memory")
                   << " needs the kernels: use --emit=mie or later\n";
      return failure();
    }
    (report == Report::Fusion ? options.fusionReport : options.memoryReport) = &reportText;
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
  FailureOr<std::string> artifact = mie::compileModule(**module, options);
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
  if (failed(writeFile(outputFile, [&](llvm::raw_ostream &os) { os << *artifact; })))
    return failure();
  if (!memoryPlot.empty())
    return writeFile(memoryPlot, [&](llvm::raw_ostream &os) { os << plotText; });
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
    if (failed(parseInputShape(text, opts)))
      return 1;
  for (const std::string &text : dimParams)
    if (failed(parseDimParam(text, opts)))
      return 1;
  for (const std::string &text : inputValues)
    if (failed(parseInputValue(text, opts)))
      return 1;

  DialectRegistry registry;
  mie::registerAllDialects(registry);
  registry.insert<func::FuncDialect>();
  // The lowering to NVVM finds each dialect's conversion to LLVM through these.
  registerAllExtensions(registry);
  MLIRContext ctx(registry);
  ScopedDiagnosticHandler handler(&ctx, printDiagnostic);

  LogicalResult result = listUnsupported ? listUnsupportedNodes(ctx, opts) : compile(ctx, opts);
  return succeeded(result) ? 0 : 1;
}
