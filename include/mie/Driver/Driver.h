//===- Driver.h - what the compiler's command-line tools share ---*- C++ -*-===//
//
// The parts of mie-compile that are not its option declarations: the diagnostic printer that names
// the ONNX node, the parsers of the import flags (--input-shape, --dim-param, --input-value), model
// loading (ONNX, or ms-dialect MLIR) and the atomic output file. The compilation's own flags are
// checked by applyCompileFlags (mie/Pipelines/CompileOptions.h).
//
//===----------------------------------------------------------------------===//

#ifndef MIE_DRIVER_DRIVER_H
#define MIE_DRIVER_DRIVER_H

#include "mie/Import/OnnxImporter.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Support/LLVM.h"

#include <string>

namespace mlir {
class Diagnostic;
class MLIRContext;
} // namespace mlir

namespace mlir::mie {

/// A diagnostic handler for the tools: prints "<file>: error: <message>" on stderr, then the ONNX
/// node when the message does not name it already, then the notes. (MLIR's SourceMgr handler would
/// try to show the binary model as source lines.)
LogicalResult printCompilerDiagnostic(Diagnostic &diag);
/// The same text on `os` (a compile attempt whose diagnostics are shown only if it is kept).
LogicalResult formatCompilerDiagnostic(Diagnostic &diag, llvm::raw_ostream &os);
/// The ONNX node `diag`'s location names, where its message does not name it already (else "").
std::string unnamedOnnxNode(Diagnostic &diag);

/// --input-shape NAME=DxDx... ("NAME=" is a scalar; the last '=' separates, so a name may hold
/// one), --dim-param NAME=N and --input-value NAME=FILE (.npy or ONNX .pb, read now) into `opts`.
/// On a malformed value each prints "error: ..." naming the flag and fails.
LogicalResult parseInputShapeFlag(StringRef text, OnnxImportOptions &opts);
LogicalResult parseDimParamFlag(StringRef text, OnnxImportOptions &opts);
LogicalResult parseInputValueFlag(StringRef text, OnnxImportOptions &opts);

/// Imports `inputFile`: an ONNX model, or ms-dialect MLIR (`.mlir`) for testing the backend alone.
FailureOr<OwningOpRef<ModuleOp>> loadModel(StringRef inputFile, MLIRContext &ctx,
                                           const OnnxImportOptions &opts);

/// Writes `outputFile` ("-": stdout) through `write`, atomically: into a new file beside it,
/// synced and renamed over it only when everything was written, so a failed or killed run (or a
/// full disk) leaves any old file untouched. A device or FIFO is written in place.
LogicalResult writeOutputFile(StringRef outputFile, function_ref<void(llvm::raw_ostream &)> write);

} // namespace mlir::mie

#endif // MIE_DRIVER_DRIVER_H
