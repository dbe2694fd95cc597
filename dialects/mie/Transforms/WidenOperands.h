//===- WidenOperands.h - narrow products computed on f32 copies -----------===//
//
// f16/bf16 convolutions and GEMMs that no reduced-precision microkernel serves run on f32 copies of
// their operands, which is f32 accumulation of the narrow values (their products are exact in
// f32): mie-select-kernels does this before it picks f32 microkernels for them, and
// mie-widen-accumulation for what is left to the portable path.
//
//===----------------------------------------------------------------------===//

#ifndef MIE_TRANSFORMS_WIDENOPERANDS_H
#define MIE_TRANSFORMS_WIDENOPERANDS_H

#include "dialects/mie/IR/MieOps.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"

#include <vector>

namespace mlir::mie {

/// The values of a constant f32, f16 or bf16 global as f32 (the narrow types widen exactly),
/// row-major; failure for anything else or an unreadable initializer.
FailureOr<std::vector<float>> readGlobalAsF32(memref::GlobalOp global);

/// The wider accumulator type of a `mie.conv2d` or `mie.gemm` on f16/bf16 buffers (its
/// `accumulator`, f32 in practice), or null when it has none or sums in its own type.
Type wideAccumulatorOf(Operation *op);

/// Rewrites the `mie.conv2d` or `mie.gemm` `op` to compute in `wide` (f32): its constant operands
/// (weights, bias) become `wide` globals converted at compile time, shared by every op reading the
/// same global; every other operand is converted by a "widen" kernel into a new buffer before it,
/// and the output goes to a new buffer rounded back into the original one by a "narrow" kernel
/// after it. Drops `accumulator`.
void widenToF32(Operation *op, Type wide, SymbolTable &symbols);

} // namespace mlir::mie

#endif // MIE_TRANSFORMS_WIDENOPERANDS_H
