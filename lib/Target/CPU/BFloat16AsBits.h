//===- BFloat16AsBits.h - bf16 values as i16 bits in LLVM IR -----*- C++ -*-===//
//
// Internal to lib/Target/CPU.
//
//===----------------------------------------------------------------------===//

#ifndef MIE_LIB_TARGET_CPU_BFLOAT16ASBITS_H
#define MIE_LIB_TARGET_CPU_BFLOAT16ASBITS_H

namespace llvm {
class Module;
} // namespace llvm

namespace mlir::mie {

/// Rewrites every bf16 value that only moves (loads, stores, phis, selects, vector element and
/// shuffle ops) to move as i16 bits. bf16 is a storage-only type on targets without native bf16
/// arithmetic: the code generator promotes a bf16 value held in a register to f32 and rounds it
/// back (for a store, a select, a copy between blocks) through libgcc's __truncsfbf2, which a
/// loaded package cannot call. mie-expand-math leaves no bf16 arithmetic and converts with integer
/// operations, but LLVM's optimizer moves the bitcasts to bf16 into these ops; so this runs after
/// the optimizer, and no bf16 value is left live in a register.
void bfloat16AsBits(llvm::Module &module);

} // namespace mlir::mie

#endif // MIE_LIB_TARGET_CPU_BFLOAT16ASBITS_H
