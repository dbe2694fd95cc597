//===- KernelLaunches.cpp - the kernel launches of an entry ---------------===//

#include "dialects/mie/Utils/KernelLaunches.h"

#include "llvm/ADT/SetVector.h"

using namespace mlir;

static void collectNames(Location loc, llvm::SetVector<StringRef> &names) {
  if (auto name = dyn_cast<NameLoc>(loc)) {
    names.insert(name.getName().getValue());
    return;
  }
  if (auto fused = dyn_cast<FusedLoc>(loc))
    for (Location inner : fused.getLocations())
      collectNames(inner, names);
}

SmallVector<StringRef> mlir::mie::sourceNodeNames(Location loc) {
  llvm::SetVector<StringRef> names;
  collectNames(loc, names);
  return names.takeVector();
}

SmallVector<func::CallOp> mlir::mie::collectKernelLaunches(ModuleOp module, func::FuncOp entry) {
  SmallVector<func::CallOp> launches;
  entry.walk([&](func::CallOp call) {
    auto callee = module.lookupSymbol<func::FuncOp>(call.getCallee());
    if (callee && !callee.isExternal())
      launches.push_back(call);
  });
  return launches;
}
