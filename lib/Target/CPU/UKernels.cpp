//===- UKernels.cpp - linking the microkernel bitcode into generated code -===//

#include "mie/Target/CPUTarget.h"
#include "mie/Target/UKernelTiles.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cstddef>

namespace mlir::mie::embedded {
extern const unsigned char kUKernelBitcode_avx512[];
extern const size_t kUKernelBitcode_avx512_size;
extern const unsigned char kUKernelBitcode_avx512amx[];
extern const size_t kUKernelBitcode_avx512amx_size;
extern const unsigned char kUKernelBitcode_avx512vnni[];
extern const size_t kUKernelBitcode_avx512vnni_size;
extern const unsigned char kUKernelBitcode_avx2[];
extern const size_t kUKernelBitcode_avx2_size;
extern const unsigned char kUKernelBitcode_neon[];
extern const size_t kUKernelBitcode_neon_size;
} // namespace mlir::mie::embedded

using namespace mlir;
using namespace mlir::mie;

/// The bitcode of `isa`'s microkernels for a target with `features`: AVX-512 targets with AMX-BF16 get
/// the unit that adds the AMX bf16 family and the VNNI integer convolution, those with VNNI only
/// the unit that adds the latter (the f32 kernels are the same; the others need the target's
/// features to be inlined and compiled).
static std::optional<llvm::StringRef> bitcodeFor(llvm::StringRef isa, llvm::StringRef features) {
  using namespace mlir::mie::embedded;
  auto ref = [](const unsigned char *data, size_t size) {
    return llvm::StringRef(reinterpret_cast<const char *>(data), size);
  };
  if (isa == "avx512" && features.contains("+amx-bf16"))
    return ref(kUKernelBitcode_avx512amx, kUKernelBitcode_avx512amx_size);
  if (isa == "avx512" && features.contains("+avx512vnni"))
    return ref(kUKernelBitcode_avx512vnni, kUKernelBitcode_avx512vnni_size);
  if (isa == "avx512")
    return ref(kUKernelBitcode_avx512, kUKernelBitcode_avx512_size);
  if (isa == "avx2")
    return ref(kUKernelBitcode_avx2, kUKernelBitcode_avx2_size);
  if (isa == "neon")
    return ref(kUKernelBitcode_neon, kUKernelBitcode_neon_size);
  return std::nullopt;
}

LogicalResult mie::linkUKernels(llvm::Module &module, const CpuTarget &target, std::string &error) {
  bool needed = llvm::any_of(module, [](const llvm::Function &f) {
    return f.isDeclaration() && f.getName().starts_with("mie_uk_");
  });
  if (!needed)
    return success();
  std::string isa = getUKernelIsa(target.arch, target.features).str();
  std::optional<llvm::StringRef> bitcode = bitcodeFor(isa, target.features);
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
    if (f.isDeclaration() && f.getName().starts_with("mie_uk_")) {
      os << "no microkernel '" << f.getName() << "' for " << isa;
      return failure();
    }
  return success();
}
