//===- FusionReport.cpp - what became which kernel ------------------------===//
//
// Kernels carry the locations of the ms ops they compute (fused groups fuse their members'
// locations), and the importer names each ms op's location after its ONNX node, so the report is
// read off the lowered module: one line per kernel launch in the entry function's order.
//
//===----------------------------------------------------------------------===//

#include "mie/Pipelines/Pipelines.h"

#include "dialects/mie/Utils/KernelLaunches.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;

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
    SmallVector<func::CallOp> launches = mie::collectKernelLaunches(module, func);
    os << "  kernels out (@" << func.getSymName() << "): " << launches.size() << "\n";
    llvm::SetVector<StringRef> covered;
    for (auto [index, call] : llvm::enumerate(launches)) {
      SmallVector<StringRef> names = mie::sourceNodeNames(call.getLoc());
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
