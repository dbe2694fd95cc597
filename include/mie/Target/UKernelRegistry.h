//===- UKernelRegistry.h - the microkernels the compiler can call -*- C++ -*-===//
//
// The compiler's view of runtime/include/mie/mie_ukernels.def (the registry: every bitcode unit and
// every kernel, once) and mie_ukernel_tiles.def (the GEMM register tiles): the names kernel
// selection and lowering emit are made here from those rows and nowhere else, so a name the
// compiler emits is one the registry lists, and test/Unit/UKernelRegistryTest.cpp proves that each
// unit's bitcode defines exactly the kernels the registry gives it.
//
//===----------------------------------------------------------------------===//

#ifndef MIE_TARGET_UKERNELREGISTRY_H
#define MIE_TARGET_UKERNELREGISTRY_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"

#include <string>
#include <vector>

namespace mlir::mie {

//===----------------------------------------------------------------------===//
// GEMM register tiles
//===----------------------------------------------------------------------===//

/// One register tile of the f32 GEMM family: MR broadcast rows x NR vector columns.
struct UKernelTile {
  llvm::StringLiteral isa;
  int64_t mr;
  int64_t nr;
  /// Fraction of the FMA peak the tile reaches on full tiles.
  double efficiency;

  /// Whether a full tile stores (and loads) C transposed by an in-register transpose rather than one
  /// element at a time: AVX-512's 8-row tiles (f32_tile.h, storeTransposed8).
  bool transposesInRegisters() const { return isa == "avx512" && mr == 8; }

  /// Floats in one vector register of the tile's ISA (NR is a multiple of it).
  int64_t vectorLanes() const { return isa == "avx512" ? 16 : isa == "avx2" ? 8 : 4; }

  /// FMAs per load of a K step: MR x NR / VL FMAs for MR broadcasts and NR / VL vector loads.
  /// What bounds a product whose weight panels stream from L2 or memory past few rows, where the
  /// table's efficiency (full tiles, panels in L1) does not tell the tiles apart: measured on four
  /// 768x3072 / 3072x768 layers over run-time rows (AVX-512, 1 thread), 8x48 ran 8 rows in 0.67x
  /// the time of 8x32 and 7 and 21 rows (on 7x48) in 0.85-0.88x, and stayed level at 128 and 384.
  double fmasPerLoad() const {
    const double vectors = double(nr) / double(vectorLanes());
    return double(mr) * vectors / (double(mr) + vectors);
  }
};

inline llvm::ArrayRef<UKernelTile> getAllF32GemmTiles() {
  static const UKernelTile kTiles[] = {
#define MIE_UK_F32_GEMM_TILE(isa, MR, NR, eff) {#isa, MR, NR, eff},
#include "runtime/include/mie/mie_ukernel_tiles.def"
#undef MIE_UK_F32_GEMM_TILE
  };
  return kTiles;
}

/// The tiles of one ISA ("avx512", "avx2", "neon"); empty for an ISA without microkernels.
inline llvm::SmallVector<UKernelTile> getF32GemmTiles(llvm::StringRef isa) {
  llvm::SmallVector<UKernelTile> tiles;
  for (const UKernelTile &t : getAllF32GemmTiles())
    if (t.isa == isa)
      tiles.push_back(t);
  return tiles;
}

/// The microkernel ISA of a CPU target: "neon" on aarch64, "avx512" when the LLVM feature string
/// has +avx512f, "avx2" with +avx2 and +fma, else "" (no microkernels). The one rule that both
/// kernel selection (from the module's mie.target) and code generation (which unit to link) follow.
inline llvm::StringRef getUKernelIsa(llvm::StringRef arch, llvm::StringRef features) {
  if (arch == "aarch64")
    return "neon";
  if (features.contains("+avx512f"))
    return "avx512";
  if (features.contains("+avx2") && features.contains("+fma"))
    return "avx2";
  return "";
}

//===----------------------------------------------------------------------===//
// Bitcode units and kernels
//===----------------------------------------------------------------------===//

/// What every kernel's symbol starts with: the name the link step looks for in generated code.
inline constexpr llvm::StringLiteral kUKernelPrefix = "mie_uk_";

/// A bitcode unit (MIE_UK_UNIT).
struct UKernelUnit {
  llvm::StringLiteral name;
  /// The microkernel ISA of the targets that link it.
  llvm::StringLiteral isa;
  /// The LLVM feature that selects it among the units of its ISA; empty: any target of the ISA.
  llvm::StringLiteral select;
};

inline llvm::ArrayRef<UKernelUnit> getUKernelUnits() {
  static const UKernelUnit kUnits[] = {
#define MIE_UK_UNIT(unit, isa, macro, select, flags) {#unit, #isa, select},
#define MIE_UK_KERNEL(id, family, types, symbol, form, units, scratch, accepts)
#include "runtime/include/mie/mie_ukernels.def"
#undef MIE_UK_KERNEL
#undef MIE_UK_UNIT
  };
  return kUnits;
}

/// The unit a target of microkernel ISA `isa` with LLVM `features` links: the last of its ISA
/// whose selecting feature it has; null for an ISA without units.
inline const UKernelUnit *selectUKernelUnit(llvm::StringRef isa, llvm::StringRef features) {
  const UKernelUnit *chosen = nullptr;
  for (const UKernelUnit &unit : getUKernelUnits())
    if (unit.isa == isa && (unit.select.empty() || features.contains(unit.select)))
      chosen = &unit;
  return chosen;
}

/// A kernel of the registry, by its row's id.
enum class UKernel {
#define MIE_UK_UNIT(unit, isa, macro, select, flags)
#define MIE_UK_KERNEL(id, family, types, symbol, form, units, scratch, accepts) id,
#include "runtime/include/mie/mie_ukernels.def"
#undef MIE_UK_KERNEL
#undef MIE_UK_UNIT
};

/// How a kernel's symbol gets its suffix.
enum class UKernelForm { Isa, Tile, One };

/// A row of the registry (MIE_UK_KERNEL).
struct UKernelInfo {
  UKernel id;
  llvm::StringLiteral family;
  llvm::StringLiteral types;
  /// The symbol without the mie_uk_ prefix and the suffix of `form`.
  llvm::StringLiteral symbol;
  UKernelForm form;
  /// The units that define it, space-separated.
  llvm::StringLiteral units;
  /// The mie_ukernel_abi.h function sizing its per-call scratch ("mie_uk_no_scratch": none).
  llvm::StringLiteral scratch;
  /// The shapes and attributes it takes (what the verifiers check; their messages quote it).
  llvm::StringLiteral accepts;

  bool isInUnit(llvm::StringRef unit) const {
    llvm::SmallVector<llvm::StringRef> names;
    units.split(names, ' ', -1, /*KeepEmpty=*/false);
    return llvm::is_contained(names, unit);
  }
};

inline llvm::ArrayRef<UKernelInfo> getUKernels() {
  static const UKernelInfo kKernels[] = {
#define MIE_UK_UNIT(unit, isa, macro, select, flags)
#define MIE_UK_KERNEL(id, family, types, symbol, form, units, scratch, accepts)                    \
  {UKernel::id, #family, #types, #symbol, UKernelForm::form, units, #scratch, accepts},
#define ISA Isa
#define TILE Tile
#define ONE One
#include "runtime/include/mie/mie_ukernels.def"
#undef ONE
#undef TILE
#undef ISA
#undef MIE_UK_KERNEL
#undef MIE_UK_UNIT
  };
  return kKernels;
}

inline const UKernelInfo &getUKernelInfo(UKernel id) {
  return getUKernels()[static_cast<size_t>(id)];
}

/// The C symbol generated code calls for `id`: with the microkernel ISA `isa` ("avx512", "avx2",
/// "neon") for the ISA and TILE forms, and the register tile `mr` x `nr` for the TILE form.
inline std::string ukernelSymbol(UKernel id, llvm::StringRef isa = "", int64_t mr = 0,
                                 int64_t nr = 0) {
  const UKernelInfo &info = getUKernelInfo(id);
  switch (info.form) {
  case UKernelForm::Isa:
    return (kUKernelPrefix + info.symbol + "_" + isa).str();
  case UKernelForm::Tile:
    return (kUKernelPrefix + info.symbol + "_" + llvm::Twine(mr) + "x" + llvm::Twine(nr) + "_" + isa)
        .str();
  case UKernelForm::One:
    return (kUKernelPrefix + info.symbol).str();
  }
  return {};
}

/// Every symbol the bitcode of `unit` must define, in registry order.
inline std::vector<std::string> getUKernelSymbolsOfUnit(const UKernelUnit &unit) {
  std::vector<std::string> symbols;
  for (const UKernelInfo &info : getUKernels()) {
    if (!info.isInUnit(unit.name))
      continue;
    if (info.form != UKernelForm::Tile) {
      symbols.push_back(ukernelSymbol(info.id, unit.isa));
      continue;
    }
    for (const UKernelTile &tile : getF32GemmTiles(unit.isa))
      symbols.push_back(ukernelSymbol(info.id, unit.isa, tile.mr, tile.nr));
  }
  return symbols;
}

/// The check of a name in the IR (a `ukernel` attribute): whether some unit defines `symbol`.
inline bool isRegisteredUKernel(llvm::StringRef symbol) {
  static const llvm::StringSet<> kSymbols = [] {
    llvm::StringSet<> symbols;
    for (const UKernelUnit &unit : getUKernelUnits())
      for (const std::string &name : getUKernelSymbolsOfUnit(unit))
        symbols.insert(name);
    return symbols;
  }();
  return kSymbols.contains(symbol);
}

} // namespace mlir::mie

#endif // MIE_TARGET_UKERNELREGISTRY_H
