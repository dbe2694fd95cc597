//===- UKernels.cpp - linking the microkernel bitcode into generated code -===//

#include "mie/Target/CPUTarget.h"
#include "mie/Target/UKernelRegistry.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cstddef>

namespace mlir::mie::embedded {
#define MIE_UK_UNIT(unit, isa, macro, select, flags)                                               \
  extern const unsigned char kUKernelBitcode_##unit[];                                             \
  extern const size_t kUKernelBitcode_##unit##_size;
#define MIE_UK_KERNEL(id, family, types, symbol, form, units, scratch, accepts)
#include "runtime/include/mie/mie_ukernels.def"
#undef MIE_UK_KERNEL
#undef MIE_UK_UNIT
} // namespace mlir::mie::embedded

using namespace mlir;
using namespace mlir::mie;

std::optional<llvm::StringRef> mie::getUKernelBitcode(llvm::StringRef unit) {
  using namespace mlir::mie::embedded;
#define MIE_UK_UNIT(name, isa, macro, select, flags)                                               \
  if (unit == #name)                                                                               \
    return llvm::StringRef(reinterpret_cast<const char *>(kUKernelBitcode_##name),                \
                           kUKernelBitcode_##name##_size);
#define MIE_UK_KERNEL(id, family, types, symbol, form, units, scratch, accepts)
#include "runtime/include/mie/mie_ukernels.def"
#undef MIE_UK_KERNEL
#undef MIE_UK_UNIT
  return std::nullopt;
}

LogicalResult mie::linkUKernels(llvm::Module &module, const CpuTarget &target, std::string &error) {
  bool needed = llvm::any_of(module, [](const llvm::Function &f) {
    return f.isDeclaration() && f.getName().starts_with(kUKernelPrefix);
  });
  if (!needed)
    return success();
  std::string isa = getUKernelIsa(target.arch, target.features).str();
  const UKernelUnit *unit = selectUKernelUnit(isa, target.features);
  std::optional<llvm::StringRef> bitcode =
      unit ? getUKernelBitcode(unit->name) : std::optional<llvm::StringRef>();
  llvm::raw_string_ostream os(error);
  if (!bitcode) {
    os << "target '" << target.name << "' has no microkernels, but the module calls them";
    return failure();
  }
  llvm::Expected<std::unique_ptr<llvm::Module>> ukernels = llvm::parseBitcodeFile(
      llvm::MemoryBufferRef(*bitcode, "mie-ukernels-" + isa), module.getContext());
  if (!ukernels) {
    os << "cannot read the " << isa << " microkernel bitcode: " << toString(ukernels.takeError());
    return failure();
  }
  (*ukernels)->setTargetTriple(module.getTargetTriple());
  (*ukernels)->setDataLayout(module.getDataLayout());
  // Only what the module calls comes in; it is internalized and inlined afterwards.
  if (llvm::Linker::linkModules(module, std::move(*ukernels), llvm::Linker::LinkOnlyNeeded)) {
    os << "linking the microkernels failed";
    return failure();
  }
  for (const llvm::Function &f : module)
    if (f.isDeclaration() && f.getName().starts_with(kUKernelPrefix)) {
      os << "no microkernel '" << f.getName() << "' in the " << unit->name
         << " unit (runtime/include/mie/mie_ukernels.def)";
      return failure();
    }
  return success();
}
