//===- KernelBuilders.h - building blocks of generated kernels --*- C++ -*-===//
//
// Small IR builders shared by everything that emits mie.kernel bodies (the ms -> mie lowering and
// the library-kernel lowering): constants, padding copies, epilogue activations.
//
//===----------------------------------------------------------------------===//

#ifndef MIE_UTILS_KERNELBUILDERS_H
#define MIE_UTILS_KERNELBUILDERS_H

#include "dialects/mie/IR/MieOps.h"

#include "mlir/IR/Builders.h"

namespace mlir::mie {

/// Collapses a buffer to 1-D (identity layout, so always possible; a 1-D buffer as it is).
Value collapseToVector(OpBuilder &b, Location loc, Value buffer);

/// The aligned base address of a static identity-layout buffer as an `!llvm.ptr`: how a buffer is
/// handed to a microkernel, a runtime service or a GPU launch.
Value bufferPointer(OpBuilder &b, Location loc, Value buffer);

/// Code for symbolic dims: a buffer of dynamic shape crosses a function boundary as the pointer
/// alone, a one-element buffer of its element type (the bare-pointer calling convention has no
/// form for dynamic shapes). This is that type.
MemRefType pointerOnlyType(MemRefType type);

/// `pointer` (a pointerOnlyType buffer) seen as the identity-layout buffer of `type` with the dims
/// `sizes` (one per dim; the dynamic ones as values): a `memref.reinterpret_cast` with row-major
/// strides, static up to the innermost dynamic dim as the identity layout has them.
Value viewPointerAs(OpBuilder &b, Location loc, Value pointer, MemRefType type,
                    ArrayRef<OpFoldResult> sizes);

/// A scalar constant of `type` (float or signless integer).
Value scalarConstant(OpBuilder &b, Location loc, Type type, double value);

/// Emits `mie.kernel name` that fills `output` with `padValue` and copies `input` into its interior
/// at offsets `lowPad` (one per dim, non-negative).
void buildPadKernel(OpBuilder &b, Location loc, StringRef name, Value input, Value output,
                    ArrayRef<int64_t> lowPad, double padValue);

/// Emits `activation(x)` on a float scalar.
Value emitActivation(OpBuilder &b, Location loc, Activation activation, Value x);

/// Emits the whole epilogue on a float scalar: + bias, + residual (either may be null), activation,
/// clamp.
Value emitEpilogue(OpBuilder &b, Location loc, EpilogueAttr epilogue, Value x, Value bias,
                   Value residual);

} // namespace mlir::mie

#endif // MIE_UTILS_KERNELBUILDERS_H
