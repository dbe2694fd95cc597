//===- fuzz_onnx_import.cpp - libFuzzer target for the ONNX importer -----===//
//
// Bytes in -> importOnnxModel: protobuf parsing, the model reader's checks, every op importer, the
// shape folding and the verifier of the resulting `ms` module; then `ms-decompose`, whose patterns
// expand what the importer maps one-to-one (ConvTranspose, 3-D Conv, Einsum, ...) and so take the
// importer's inputs. Any input must end in success or in a diagnostic; a crash, a sanitizer report,
// a hang or a leak is a bug.
//
// The bytes go through a file because the importer's entry point takes a path (and so the file checks
// and external data resolution are exercised too): `model.onnx` in a private temporary folder, which
// is also the only folder external data can name. The limits are lowered so that a model asking for
// huge tensors is rejected by the importer's own checks instead of running into libFuzzer's.
//
//===----------------------------------------------------------------------===//

#include "dialects/ms/Transforms/Passes.h"
#include "mie/Import/OnnxImporter.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/PassManager.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unistd.h>

// LLVM's BumpPtrAllocator poisons its free space from inline code in our instrumented objects, and
// Debian's uninstrumented libMLIR.so hands that memory out without unpoisoning it: without this every
// parsed location would read as a use-after-poison inside MLIR (scripts/sanitize.sh does the same).
extern "C" const char *__asan_default_options() { return "allow_user_poisoning=0"; }

namespace {

std::string &modelPath() {
  static std::string path = [] {
    const char *tmp = std::getenv("TMPDIR");
    std::string dir = std::string(tmp && *tmp ? tmp : "/tmp") + "/mie-fuzz-onnx-XXXXXX";
    if (!mkdtemp(dir.data()))
      std::abort();
    static std::string cleanupDir = dir;
    std::atexit([] {
      std::remove((cleanupDir + "/model.onnx").c_str());
      rmdir(cleanupDir.c_str());
    });
    return dir + "/model.onnx";
  }();
  return path;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const std::string &path = modelPath();
  FILE *file = std::fopen(path.c_str(), "wb");
  if (!file)
    std::abort();
  if (size && std::fwrite(data, 1, size, file) != size)
    std::abort();
  std::fclose(file);

  mlir::MLIRContext ctx(mlir::MLIRContext::Threading::DISABLED);
  mlir::ScopedDiagnosticHandler quiet(&ctx, [](mlir::Diagnostic &) { return mlir::success(); });
  mlir::mie::OnnxImportOptions opts;
  opts.maxTensorBytes = uint64_t(64) << 20; // 64 MiB; libFuzzer's -malloc_limit_mb is larger
  opts.maxModelBytes = uint64_t(256) << 20;
  auto module = mlir::mie::importOnnxModel(path, ctx, opts);
  if (succeeded(module)) {
    mlir::PassManager pm(&ctx);
    pm.addNestedPass<mlir::func::FuncOp>(mlir::ms::createMsDecomposePass());
    (void)pm.run(**module);
  }
  return 0;
}
