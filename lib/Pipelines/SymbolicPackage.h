//===- SymbolicPackage.h - packages that keep a model's symbolic dims -*- C++ -*-===//
//
// Internal to the pipeline. A model imported with its symbolic dims (`--symbolic-dims`) and given
// `--specialize=seq=128,384` becomes one package whose manifest keeps the symbols, their ranges
// (`--dim-range`) and every input's and output's dims as expressions of them, and which holds each
// target's code for every combination of the specialized values; the runtime binds the symbols from
// a run's input shapes and runs the matching code (docs/dynamic-shapes.md).
//
//===----------------------------------------------------------------------===//

#ifndef MIE_LIB_PIPELINES_SYMBOLICPACKAGE_H
#define MIE_LIB_PIPELINES_SYMBOLICPACKAGE_H

#include "PackageEmitter.h"

#include "mie/Pipelines/CompileOptions.h"

#include "mlir/IR/BuiltinOps.h"

#include <string>
#include <vector>

namespace mlir::mie {

/// What the options make of a module's symbols.
struct SymbolPlan {
  std::vector<std::string> names;               // the function's symbols, in order
  std::vector<std::vector<int64_t>> values;     // per symbol: the values code is compiled for
  std::vector<::mie::PackageSymbolSpec> ranges; // per symbol: what the runtime accepts
  /// Every combination of the values (the first symbol varying slowest): one specialization each.
  std::vector<std::vector<int64_t>> points() const;
  /// "name=N" for each symbol at `point`: ms-specialize-dims' sizes.
  std::vector<std::string> sizes(const std::vector<int64_t> &point) const;
  /// Whether the package also gets code for every shape in the ranges: every symbol has a
  /// --dim-range and none is pinned by --dim-param.
  bool generic = false;
};

/// Marks `module`'s symbolic function with the plan's ranges (MieDialect::getSymbolRangesAttrName:
/// memory planning samples them) for code over all of them.
void setSymbolRanges(ModuleOp module, const SymbolPlan &plan);

/// Reads --specialize, --dim-param and --dim-range for the symbols of `module`'s public function:
/// a specialized symbol takes its listed values, another its --dim-param size or the default (with
/// the same warning as a sized compile); a range defaults to the values' span (a note says so).
/// Errors name the option and the symbol.
FailureOr<SymbolPlan> planSymbols(ModuleOp module, const CompileOptions &options);

/// Per input and output of the symbolic module (before sizing): for each dim, its expression of the
/// symbols in the manifest's syntax ("s0", "s0 * s1"), "" for a static dim; empty for a static
/// tensor.
struct SymbolicDims {
  std::vector<std::vector<std::string>> inputs, outputs;
};
FailureOr<SymbolicDims> readSymbolicDims(ModuleOp module);

/// Puts `dims` into the signature a sized copy of the module gave (names, dtypes, static dims).
LogicalResult applySymbolicDims(PackageSignature &signature, const SymbolicDims &dims,
                                Location loc);

} // namespace mlir::mie

#endif // MIE_LIB_PIPELINES_SYMBOLICPACKAGE_H
