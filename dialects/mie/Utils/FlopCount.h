//===- FlopCount.h - arithmetic a kernel does per run -----------*- C++ -*-===//
//
// The profiler reports GFLOP/s per kernel, so every kernel carries the floating-point operations it
// performs per run (`mie.flops`). Library ops count their products as a direct computation would
// (2 per multiply-add; a Winograd convolution is credited with the direct count, the usual
// "effective" figure); generated bodies count the float arithmetic of their linalg ops.
//
//===----------------------------------------------------------------------===//

#ifndef MIE_UTILS_FLOPCOUNT_H
#define MIE_UTILS_FLOPCOUNT_H

#include "mlir/IR/Operation.h"

#include <cstdint>

namespace mlir::mie {

/// Floating-point operations of one mie.conv2d / mie.gemm / mie.attention (2 per multiply-add,
/// epilogue and softmax excluded).
/// 0 for any other op, and for one with run-time extents (code for symbolic dims).
int64_t countLibraryOpFlops(Operation *op);

/// Floating-point operations of everything under `root`: library ops as above, each linalg op with
/// static loop bounds as trip count x float arithmetic ops in its body (a fused multiply-add
/// counts 2). Loops around ops that are not linalg are not followed (0 for them).
int64_t countFlops(Operation *root);

} // namespace mlir::mie

#endif // MIE_UTILS_FLOPCOUNT_H
