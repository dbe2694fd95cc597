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

#include <string>

namespace mlir::mie {

/// One register tile of the f32 GEMM family: MR broadcast rows x NR vector columns.
struct UKernelTile {
  llvm::StringLiteral isa;
  int64_t mr;
  int64_t nr;
  /// Fraction of the FMA peak the tile reaches on full tiles.
  double efficiency;

  /// The tile function's symbol, e.g. "mie_uk_f32_gemm_8x48_avx512".
  std::string symbol() const {
    return "mie_uk_f32_gemm_" + std::to_string(mr) + "x" + std::to_string(nr) + "_" + isa.str();
  }
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

/// Vector length in f32 lanes of an ISA with microkernels.
inline int64_t getUKernelVectorLength(llvm::StringRef isa) {
  return isa == "avx512" ? 16 : isa == "avx2" ? 8 : 4;
}

} // namespace mlir::mie

#endif // MIE_TARGET_UKERNELTILES_H
