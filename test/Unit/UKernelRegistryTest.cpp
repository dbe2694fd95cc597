//===- UKernelRegistryTest.cpp - the registry against the embedded bitcode ===//
//
// The link check of runtime/include/mie/mie_ukernels.def: every unit's bitcode (the compiler's
// embedded copy, built from the registry's MIE_UK_UNIT rows) defines exactly the kernels the
// registry gives that unit, so a name kernel selection emits always links, and a kernel added to
// the sources without a row (or a row without a kernel) fails here rather than in a user's compile.
//
//===----------------------------------------------------------------------===//

#include "mie/Target/CPUTarget.h"
#include "mie/Target/UKernelRegistry.h"
#include "runtime/include/mie/mie_ukernel_abi.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MemoryBuffer.h"

#include <gtest/gtest.h>

#include <iterator>
#include <set>
#include <string>

using namespace mlir;
using namespace mlir::mie;

namespace {

/// The external kernels `unit`'s bitcode defines.
std::set<std::string> definedKernels(const UKernelUnit &unit) {
  std::optional<StringRef> bitcode = getUKernelBitcode(unit.name);
  EXPECT_TRUE(bitcode) << "no embedded bitcode for unit " << unit.name.str();
  if (!bitcode)
    return {};
  llvm::LLVMContext ctx;
  llvm::Expected<std::unique_ptr<llvm::Module>> module =
      llvm::parseBitcodeFile(llvm::MemoryBufferRef(*bitcode, unit.name), ctx);
  if (!module) {
    ADD_FAILURE() << "unit " << unit.name.str() << ": " << toString(module.takeError());
    return {};
  }
  std::set<std::string> names;
  for (const llvm::Function &f : **module)
    if (!f.isDeclaration() && !f.hasLocalLinkage() && f.getName().starts_with(kUKernelPrefix))
      names.insert(f.getName().str());
  return names;
}

std::string listOf(const std::set<std::string> &names) {
  std::string text;
  for (const std::string &name : names)
    text += (text.empty() ? "" : ", ") + name;
  return text;
}

TEST(UKernelRegistry, EveryUnitDefinesExactlyItsKernels) {
  ASSERT_FALSE(getUKernelUnits().empty());
  for (const UKernelUnit &unit : getUKernelUnits()) {
    std::vector<std::string> symbols = getUKernelSymbolsOfUnit(unit);
    std::set<std::string> registered(symbols.begin(), symbols.end());
    EXPECT_EQ(registered.size(), symbols.size()) << "unit " << unit.name.str() << " repeats a symbol";
    std::set<std::string> defined = definedKernels(unit), missing, unlisted;
    for (const std::string &name : registered)
      if (!defined.count(name))
        missing.insert(name);
    for (const std::string &name : defined)
      if (!registered.count(name))
        unlisted.insert(name);
    EXPECT_TRUE(missing.empty()) << "unit " << unit.name.str()
                                 << ": registered but not defined by the bitcode: " << listOf(missing);
    EXPECT_TRUE(unlisted.empty()) << "unit " << unit.name.str()
                                  << ": defined by the bitcode but not registered: " << listOf(unlisted);
  }
}

TEST(UKernelRegistry, RowsAreIndexedByTheirIds) {
  ArrayRef<UKernelInfo> kernels = getUKernels();
  for (size_t i = 0; i < kernels.size(); ++i)
    EXPECT_EQ(static_cast<size_t>(kernels[i].id), i) << kernels[i].symbol.str();
}

TEST(UKernelRegistry, EveryKernelIsInSomeUnit) {
  for (const UKernelInfo &kernel : getUKernels())
    EXPECT_TRUE(llvm::any_of(getUKernelUnits(),
                             [&](const UKernelUnit &unit) { return kernel.isInUnit(unit.name); }))
        << kernel.symbol.str() << " lists no unit of the registry";
}

// Every row's scratch column names a function of the public ABI header (this compiles only if
// each exists), and every row says what it accepts.
TEST(UKernelRegistry, EveryRowNamesItsScratchAndLimits) {
  const void *scratchFunctions[] = {
#define MIE_UK_UNIT(unit, isa, macro, select, flags)
#define MIE_UK_KERNEL(id, family, types, symbol, form, units, scratch, accepts)                    \
  reinterpret_cast<const void *>(&scratch),
#include "runtime/include/mie/mie_ukernels.def"
#undef MIE_UK_KERNEL
#undef MIE_UK_UNIT
  };
  ASSERT_EQ(std::size(scratchFunctions), getUKernels().size());
  for (const UKernelInfo &kernel : getUKernels()) {
    EXPECT_TRUE(kernel.scratch.starts_with(kUKernelPrefix)) << kernel.symbol.str();
    EXPECT_FALSE(kernel.accepts.empty()) << kernel.symbol.str() << " says nothing of its shapes";
  }
  EXPECT_EQ(getUKernelInfo(UKernel::F32ConvDirectNchw).scratch, "mie_uk_conv_direct_plane_floats");
}

TEST(UKernelRegistry, SymbolsByForm) {
  EXPECT_EQ(ukernelSymbol(UKernel::F32Gemm, "avx512", 8, 48), "mie_uk_f32_gemm_8x48_avx512");
  EXPECT_EQ(ukernelSymbol(UKernel::F32PackLhs, "avx2"), "mie_uk_f32_pack_lhs_avx2");
  EXPECT_EQ(ukernelSymbol(UKernel::QU8GemmVnni), "mie_uk_qu8_gemm_vnni");
  EXPECT_TRUE(isRegisteredUKernel("mie_uk_f32_maxpool_nchw_neon"));
  EXPECT_FALSE(isRegisteredUKernel("mie_uk_f32_maxpool_nchw_sse2"));
  // A tile of one ISA is not a tile of another.
  EXPECT_FALSE(isRegisteredUKernel("mie_uk_f32_gemm_8x48_avx2"));
}

TEST(UKernelRegistry, EveryCpuTargetLinksTheUnitOfItsFeatures) {
  std::string error;
  auto unitOf = [&](StringRef name) -> std::string {
    FailureOr<CpuTarget> target = lookupCpuTarget(name, error);
    EXPECT_TRUE(succeeded(target)) << error;
    if (failed(target))
      return "";
    const UKernelUnit *unit =
        selectUKernelUnit(getUKernelIsa(target->arch, target->features), target->features);
    return unit ? unit->name.str() : "";
  };
  EXPECT_EQ(unitOf("x86-64"), "avx2");
  EXPECT_EQ(unitOf("x86-64-avx512"), "avx512");
  EXPECT_EQ(unitOf("x86-64-avx512-vnni"), "avx512vnni");
  EXPECT_EQ(unitOf("x86-64-amx"), "avx512amx");
  EXPECT_EQ(unitOf("aarch64"), "neon");
  EXPECT_EQ(selectUKernelUnit("", ""), nullptr);
}

} // namespace
