//===- Target.cpp - the target registry and the --target list -------------===//

#include "mie/Target/Target.h"

using namespace mlir;
using namespace mlir::mie;

TargetBackend::~TargetBackend() = default;

StringRef PackageTarget::kind() const { return backend->kind(); }

ArrayRef<const TargetBackend *> mie::targetBackends() {
  // One line per kind. cpu first: it claims every item no other kind claims.
  static const TargetBackend *const kBackends[] = {
      &getCpuTargetBackend(),
      &getCudaTargetBackend(),
  };
  return kBackends;
}

LogicalResult mie::runPasses(ModuleOp module, bool printIRAfterAll,
                             function_ref<void(OpPassManager &)> build) {
  PassManager pm(module.getContext());
  if (printIRAfterAll) {
    module.getContext()->disableMultithreading();
    pm.enableIRPrinting();
  }
  build(pm);
  return pm.run(module);
}

std::string mie::knownTargets() {
  std::string names;
  for (const TargetBackend *backend : targetBackends())
    names += (names.empty() ? "" : ", ") + backend->spellings();
  return names;
}

FailureOr<std::vector<PackageTarget>> mie::parseTargetList(StringRef list, std::string &error) {
  SmallVector<StringRef> items;
  list.split(items, ',');
  std::vector<PackageTarget> targets;
  for (StringRef item : items) {
    item = item.trim();
    // The last kind that claims an item parses it: cpu claims what no other kind does.
    const TargetBackend *parser = nullptr;
    for (const TargetBackend *backend : targetBackends())
      if (backend->claims(item))
        parser = backend;
    if (!parser) {
      error = ("unknown target '" + item + "' (known: " + knownTargets() + ")").str();
      return failure();
    }
    size_t first = targets.size();
    if (failed(parser->parse(item, targets, error)))
      return failure();
    for (size_t i = first; i < targets.size(); ++i)
      if (llvm::any_of(ArrayRef(targets).take_front(i),
                       [&](const PackageTarget &t) { return t.name == targets[i].name; })) {
        error = "target '" + targets[i].name + "' is listed twice";
        return failure();
      }
  }
  return targets;
}

FailureOr<std::string> mie::expandTargetClasses(StringRef classes, std::string &error) {
  SmallVector<StringRef> items;
  classes.split(items, ',', -1, /*KeepEmpty=*/false);
  std::string list;
  for (StringRef item : items) {
    item = item.trim();
    StringRef expanded = item == "cpu"                      ? StringRef("x86-64,x86-64-avx512")
                         : item == "gpu" || item == "cuda" ? StringRef("cuda:sm_80+sm_90")
                                                            : item;
    list += (list.empty() ? "" : ",") + expanded.str();
  }
  if (list.empty()) {
    error = "no targets (expected cpu, gpu or target names)";
    return failure();
  }
  return list;
}
