//===- UKernelTiles.h - the microkernel tiles the compiler can choose from ===//
//
// One list, shared with the microkernel sources (runtime/src/ukernels/f32_gemm_tiles.def): a tile
// the compiler picks is always one the bitcode defines.
//
//===----------------------------------------------------------------------===//

#ifndef MIE_TARGET_UKERNELTILES_H
#define MIE_TARGET_UKERNELTILES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"

namespace mlir::mie {

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
};

inline llvm::ArrayRef<UKernelTile> getAllF32GemmTiles() {
  static const UKernelTile kTiles[] = {
#define MIE_UK_F32_GEMM_TILE(isa, MR, NR, eff) {#isa, MR, NR, eff},
#include "runtime/src/ukernels/f32_gemm_tiles.def"
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

/// The microkernel family for a CPU target: "neon" on aarch64, "avx512" when the LLVM feature
/// string has +avx512f, "avx2" with +avx2 and +fma, else "" (no microkernels). The one rule that
/// both kernel selection (from the module's mie.target) and code generation (which bitcode to link)
/// follow.
inline llvm::StringRef getUKernelIsa(llvm::StringRef arch, llvm::StringRef features) {
  if (arch == "aarch64")
    return "neon";
  if (features.contains("+avx512f"))
    return "avx512";
  if (features.contains("+avx2") && features.contains("+fma"))
    return "avx2";
  return "";
}

} // namespace mlir::mie

#endif // MIE_TARGET_UKERNELTILES_H
