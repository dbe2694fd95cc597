//===- UKernelLowering.h - library kernels on the microkernels --*- C++ -*-===//

#ifndef MIE_TRANSFORMS_UKERNELLOWERING_H
#define MIE_TRANSFORMS_UKERNELLOWERING_H

#include "dialects/mie/IR/MieOps.h"

#include "mlir/IR/SymbolTable.h"

namespace mlir::mie {

// Each lowering erases the op and returns the one mie.kernel that replaces it.

/// Replaces a tiled `mie.conv2d` with a packed filter by a `mie.kernel` calling the microkernels;
/// declares the microkernels it calls in `symbols`' module.
KernelOp lowerConv2dToUKernels(Conv2dOp op, SymbolTable &symbols);

/// A convolution marked `direct`: row bands of each image run the direct microkernel, which reads
/// the input rows in place from a padded copy (no pixel panels), filter packed as LHS panels.
KernelOp lowerDirectConvToUKernels(Conv2dOp op, SymbolTable &symbols);

/// A convolution marked `pixel_rows`: the transposed implicit GEMM, pixels packed into row panels,
/// the filter packed as column panels, tiles storing transposed into the NCHW output.
KernelOp lowerPixelRowsConvToUKernels(Conv2dOp op, SymbolTable &symbols);

/// A bf16 convolution with the "amx" tiling: the NCHW implicit GEMM on the AMX tiles, the filter
/// packed as bf16 A panels at compile time, pixels packed at run time into VNNI B panels of all of
/// K, one rounding of each output to bf16.
KernelOp lowerAmxConvToUKernels(Conv2dOp op, SymbolTable &symbols);

/// Replaces a `mie.qconv2d` with a packed filter by a `mie.kernel` calling the AVX512-VNNI integer
/// convolution on work items of (image, pixel block, filter block).
KernelOp lowerQConvToUKernels(QConv2dOp op, SymbolTable &symbols);

/// Replaces a `winograd` tiled `mie.conv2d` by a `mie.kernel`: input transform, 16 GEMMs on the
/// microkernels, output transform with the epilogue.
KernelOp lowerWinogradToUKernels(Conv2dOp op, SymbolTable &symbols);

/// Replaces a depthwise `mie.conv2d` with a `ukernel` by a `mie.kernel` calling it, channels split
/// across threads.
KernelOp lowerDepthwiseToUKernels(Conv2dOp op, SymbolTable &symbols);
/// A channels-last depthwise convolution with a packed [KH * KW, C] filter and an NHWC `ukernel`:
/// at least `minItems` bands of output rows when the image has that many rows.
KernelOp lowerChannelsLastDepthwiseToUKernels(Conv2dOp op, SymbolTable &symbols,
                                              int64_t minItems);

/// Replaces a `mie.max_pool2d` with a `ukernel` by a `mie.kernel` calling it, channels split
/// across threads as for the depthwise convolution.
KernelOp lowerMaxPoolToUKernels(MaxPool2dOp op, SymbolTable &symbols);

/// Replaces a tiled 2-D `mie.gemm` with a packed b by a `mie.kernel` calling the microkernels.
KernelOp lowerGemmToUKernels(GemmOp op, SymbolTable &symbols);

/// Replaces a tiled `mie.gemm` whose b is not packed (an activation; 2-D or batched) by a
/// `mie.kernel` whose work items (batch index, row block, column block) pack their blocks of both
/// operands at run time and run the register tiles on them.
KernelOp lowerActivationGemmToUKernels(GemmOp op, SymbolTable &symbols);

/// Replaces a `mie.attention` with a `ukernel` by a `mie.kernel` calling the fused attention
/// microkernel on work items of (batch index, query row group).
KernelOp lowerAttentionToUKernels(AttentionOp op, SymbolTable &symbols);

} // namespace mlir::mie

#endif // MIE_TRANSFORMS_UKERNELLOWERING_H
