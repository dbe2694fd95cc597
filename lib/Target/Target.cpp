//===- Target.cpp - the kinds of target and the --target registry ---------===//

#include "mie/Target/Target.h"

#include "mie/Target/CUDATarget.h"

using namespace mlir;
using namespace mlir::mie;

PackageTarget mie::makeCpuPackageTarget(const CpuTarget &cpu) {
  PackageTarget target;
  target.kind = TargetKindId::Cpu;
  target.name = cpu.name;
  target.arch = cpu.arch;
  target.features = cpu.features;
  target.host = cpu;
  return target;
}

namespace {

/// x86-64, x86-64-avx512, x86-64-avx512-vnni, x86-64-amx, aarch64 (CPUTarget.cpp's table).
class CpuTargetKind : public TargetKindInfo {
public:
  TargetKindId id() const override { return TargetKindId::Cpu; }
  bool claims(StringRef item) const override { return !item.contains(':'); }
  LogicalResult parse(StringRef item, std::vector<PackageTarget> &targets,
                      std::string &error) const override {
    // "host": the build machine's best target, for a package that runs there alone.
    FailureOr<CpuTarget> cpu =
        item == "host" ? hostCpuTarget(error) : lookupCpuTarget(item, error);
    if (failed(cpu) && item == "host")
      return failure();
    if (failed(cpu)) {
      error = ("unknown target '" + item + "' (known: " + knownTargets() + ")").str();
      return failure();
    }
    targets.push_back(makeCpuPackageTarget(*cpu));
    return success();
  }
  std::string spellings() const override { return knownCpuTargets() + ", host"; }
};

} // namespace

ArrayRef<std::unique_ptr<TargetKindInfo>> mie::targetKinds() {
  static const std::vector<std::unique_ptr<TargetKindInfo>> kinds = [] {
    std::vector<std::unique_ptr<TargetKindInfo>> list;
    list.push_back(std::make_unique<CpuTargetKind>());
    list.push_back(createCudaTargetKind());
    return list;
  }();
  return kinds;
}

std::string mie::knownTargets() {
  std::string names;
  for (const std::unique_ptr<TargetKindInfo> &kind : targetKinds())
    names += (names.empty() ? "" : ", ") + kind->spellings();
  return names;
}

FailureOr<std::vector<PackageTarget>> mie::parseTargetList(StringRef list, std::string &error) {
  SmallVector<StringRef> items;
  list.split(items, ',');
  std::vector<PackageTarget> targets;
  for (StringRef item : items) {
    item = item.trim();
    // The last kind that claims an item parses it: cpu claims what no other kind does.
    const TargetKindInfo *parser = nullptr;
    for (const std::unique_ptr<TargetKindInfo> &kind : targetKinds())
      if (kind->claims(item))
        parser = kind.get();
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
