//===- FusionReport.cpp - what became which kernel ------------------------===//
//
// Kernels carry the locations of the ms ops they compute (fused groups fuse their members'
// locations), and the importer names each ms op's location after its ONNX node, so the report is
// read off the lowered module: one line per kernel launch in the entry function's order.
//
//===----------------------------------------------------------------------===//

#include "mie/Pipelines/Pipelines.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;

/// The source node names in `loc`, in order, without repeats.
static void collectNodeNames(Location loc, llvm::SetVector<StringRef> &names) {
  if (auto name = dyn_cast<NameLoc>(loc)) {
    names.insert(name.getName().getValue());
    return;
  }
  if (auto fused = dyn_cast<FusedLoc>(loc))
    for (Location inner : fused.getLocations())
      collectNodeNames(inner, names);
}

std::string mlir::mie::buildFusionReport(ModuleOp module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  auto sourceNodes = module->getAttrOfType<IntegerAttr>("ms.source_nodes");
  os << "fusion report\n";
  os << "  source nodes in: "
     << (sourceNodes ? std::to_string(sourceNodes.getInt()) : std::string("unknown")) << "\n";
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isPrivate() || func.isExternal())
      continue;
    SmallVector<func::CallOp> launches;
    func.walk([&](func::CallOp call) {
      auto callee = module.lookupSymbol<func::FuncOp>(call.getCallee());
      if (callee && !callee.isExternal())
        launches.push_back(call);
    });
    os << "  kernels out (@" << func.getSymName() << "): " << launches.size() << "\n";
    llvm::SetVector<StringRef> covered;
    for (auto [index, call] : llvm::enumerate(launches)) {
      llvm::SetVector<StringRef> names;
      collectNodeNames(call.getLoc(), names);
      covered.insert(names.begin(), names.end());
      os << llvm::formatv("  {0,4}  {1,-40}", index, call.getCallee()) << " <- ";
      llvm::interleaveComma(names, os);
      os << "\n";
    }
    os << "  source nodes computed by a kernel: " << covered.size()
       << " (the others were folded at import or into constants, or are views)\n";
  }
  return text;
}
