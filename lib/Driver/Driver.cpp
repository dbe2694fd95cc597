//===- Driver.cpp - what the compiler's command-line tools share ----------===//

#include "mie/Driver/Driver.h"

#include "mie/Pipelines/Pipelines.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <cerrno>
#include <unistd.h>

using namespace mlir;
using namespace mlir::mie;

/// Prints "<file>: error: <message>", and the ONNX node when the message does not name it already.
/// (MLIR's SourceMgr handler would try to show the binary model as source lines.)
LogicalResult mie::printCompilerDiagnostic(Diagnostic &diag) {
  return formatCompilerDiagnostic(diag, llvm::errs());
}

std::string mie::unnamedOnnxNode(Diagnostic &diag) {
  std::string node;
  diag.getLocation()->walk([&](Location loc) {
    auto name = dyn_cast<NameLoc>(loc);
    if (!name)
      return WalkResult::advance();
    node = name.getName().str();
    return WalkResult::interrupt();
  });
  if (!node.empty() && diag.str().find("'" + node + "'") != std::string::npos)
    return "";
  return node;
}

LogicalResult mie::formatCompilerDiagnostic(Diagnostic &diag, llvm::raw_ostream &os) {
  std::string file, node = unnamedOnnxNode(diag);
  diag.getLocation()->walk([&](Location loc) {
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
  if (!node.empty())
    os << (file.empty() ? "" : file + ": ") << "note: at ONNX node '" << node << "'\n";
  for (Diagnostic &note : diag.getNotes())
    os << (file.empty() ? "" : file + ": ") << "note: " << note.str() << "\n";
  return success();
}

/// Parses "name=1x3x224x224" (the name may itself contain '='; the last one separates). "name=" is
/// a scalar.
LogicalResult mie::parseInputShapeFlag(StringRef text, OnnxImportOptions &opts) {
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
LogicalResult mie::parseInputValueFlag(StringRef text, OnnxImportOptions &opts) {
  auto [name, file] = text.rsplit('=');
  if (name.empty() || file.empty() || name.size() == text.size()) {
    llvm::errs() << "error: --input-value expects name=FILE, got '" << text << "'\n";
    return failure();
  }
  OnnxImportOptions::BoundInput bound;
  if (std::string error = readBoundInput(file, bound); !error.empty()) {
    llvm::errs() << "error: --input-value '" << text << "': " << error << "\n";
    return failure();
  }
  opts.inputValues[name] = std::move(bound);
  return success();
}

LogicalResult mie::parseDimParamFlag(StringRef text, OnnxImportOptions &opts) {
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
LogicalResult mie::writeOutputFile(StringRef outputFile,
                                   function_ref<void(llvm::raw_ostream &)> write) {
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
FailureOr<OwningOpRef<ModuleOp>> mie::loadModel(StringRef inputFile, MLIRContext &ctx,
                                                const OnnxImportOptions &opts) {
  if (!StringRef(inputFile).ends_with(".mlir"))
    return importOnnxModel(inputFile, ctx, opts);
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

