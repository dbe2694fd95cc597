//===- OnnxImporter.h - ONNX protobuf to the ms dialect ---------*- C++ -*-===//
//
// Reads an ONNX model file and builds a module holding `func.func @main` of `ms` ops. Shapes are
// made static at import time (symbolic dims come from the options), shape-computing subgraphs
// (Shape -> Gather -> Concat -> Reshape, ...) are folded into known constants, and weights become
// `ms.constant` ops with `dense_resource` attributes. Every op carries the location
// `"<node name>"(<model path>:0:0)` of the ONNX node it came from.
//
// No ONNX or protobuf type appears in this header: only the importer's own sources include them.
//
//===----------------------------------------------------------------------===//

#ifndef MIE_IMPORT_ONNXIMPORTER_H
#define MIE_IMPORT_ONNXIMPORTER_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mlir::mie {

/// A node whose op the importer does not know (reported by `collectAllUnsupported` runs).
struct OnnxUnsupportedNode {
  std::string opType;
  std::string domain; // "" for the default ONNX domain
  int64_t opset = 0;  // the model's opset for that domain (0 when it declares none)
  std::string nodeName;
};

struct OnnxImportOptions {
  /// Keep going after a failing node and report every unsupported or invalid node, instead of
  /// stopping at the first one. The import still fails if anything was reported.
  bool collectAllUnsupported = false;

  /// Full shapes for graph inputs, by input name; they replace whatever the model declares (the
  /// rank must match when the model declares one).
  llvm::StringMap<llvm::SmallVector<int64_t>> inputShapes;

  /// Graph inputs bound to values at compile time (`mie-compile --input-value`): each becomes a
  /// constant of the model (as if it were an initializer) and leaves the package's inputs, so
  /// what the importer needs known (a Resize's sizes, a Pad's pads, a Reshape's shape) may come
  /// from a graph input. `dataType` is the ONNX TensorProto data type; `bytes` row-major
  /// little-endian, one byte per bool.
  struct BoundInput {
    int64_t dataType = 0;
    llvm::SmallVector<int64_t> shape;
    std::vector<char> bytes;
    std::string source; // where the value came from, for diagnostics
  };
  llvm::StringMap<BoundInput> inputValues;

  /// Sizes for named symbolic dims (ONNX `dim_param`), e.g. {"batch": 4, "seq": 128}.
  llvm::StringMap<int64_t> symbolicDims;

  /// Size used for any other symbolic or unknown input dim; 0 makes such a dim an error.
  int64_t defaultSymbolicDim = 1;

  /// Keep every symbolic and unknown input dim symbolic (`?`, named by the function's
  /// `ms.symbols`; an unknown dim gets the name `<input>.<index>`) instead of sizing it by
  /// `symbolicDims` or `defaultSymbolicDim`, which then size it after the graph passes
  /// (CompileOptions::dimSizes). `mie-compile --symbolic-dims`.
  bool keepSymbolicDims = false;

  /// The most bytes one tensor may have: an initializer, a Constant's value, a graph input or any
  /// value the graph computes (a ConstantOfShape, an Expand). Checked before anything of that size
  /// is allocated; more is an error naming the initializer or node. `mie-compile
  /// --max-tensor-bytes`; see docs/limits.md.
  uint64_t maxTensorBytes = kDefaultMaxTensorBytes;
  /// The most bytes the model may bring: its .onnx file plus all the tensor data it stores
  /// (inline or as external data). `mie-compile --max-model-bytes`.
  uint64_t maxModelBytes = kDefaultMaxModelBytes;
  static constexpr uint64_t kDefaultMaxTensorBytes = uint64_t(16) << 30; // 16 GiB
  static constexpr uint64_t kDefaultMaxModelBytes = uint64_t(64) << 30;  // 64 GiB
  /// When set, unsupported ops are appended here instead of being reported as diagnostics (other
  /// errors are still diagnostics). Used by `mie-compile --list-unsupported`.
  std::vector<OnnxUnsupportedNode> *unsupportedNodes = nullptr;
};

/// Imports the ONNX model at `path`. Errors (unreadable file, malformed model, unsupported or
/// invalid nodes, a module that does not verify) are reported through `ctx`'s diagnostic handler,
/// at the offending node's location where there is one, and yield failure.
FailureOr<OwningOpRef<ModuleOp>> importOnnxModel(llvm::StringRef path, MLIRContext &ctx,
                                                 const OnnxImportOptions &opts = {});

/// The canonical text of an unsupported-op diagnostic:
/// "unsupported ONNX op 'Foo' (domain '', opset 13) at node 'bar'".
std::string formatUnsupported(const OnnxUnsupportedNode &node);

} // namespace mlir::mie

#endif // MIE_IMPORT_ONNXIMPORTER_H
