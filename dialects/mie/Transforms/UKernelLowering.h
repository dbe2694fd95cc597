//===- UKernelLowering.h - library kernels on the microkernels --*- C++ -*-===//

#ifndef MIE_TRANSFORMS_UKERNELLOWERING_H
#define MIE_TRANSFORMS_UKERNELLOWERING_H

#include "dialects/mie/IR/MieOps.h"

#include "mlir/IR/SymbolTable.h"

namespace mlir::mie {

// Each lowering erases the op and returns the one mie.kernel that replaces it.

/// Replaces a `conv_gemm` `mie.conv2d` with a packed filter by a `mie.kernel` calling the
/// microkernels; declares the microkernels it calls in `symbols`' module.
KernelOp lowerConv2dToUKernels(Conv2dOp op, SymbolTable &symbols);

/// A `conv_direct` convolution: row bands of each image run the direct microkernel, which reads
/// the input rows in place from a padded copy (no pixel panels), filter packed as LHS panels.
KernelOp lowerDirectConvToUKernels(Conv2dOp op, SymbolTable &symbols);

/// A `conv_pixel_rows` convolution: the transposed implicit GEMM, pixels packed into row panels,
/// the filter packed as column panels, tiles storing transposed into the NCHW output.
KernelOp lowerPixelRowsConvToUKernels(Conv2dOp op, SymbolTable &symbols);

/// A bf16 `conv_gemm` convolution with the "amx" tiling: the NCHW implicit GEMM on the AMX tiles,
/// the filter packed as bf16 A panels at compile time, pixels packed at run time into VNNI B panels
/// of all of K, one rounding of each output to bf16.
KernelOp lowerAmxConvToUKernels(Conv2dOp op, SymbolTable &symbols);

/// Replaces a `mie.qconv2d` with a packed filter by a `mie.kernel` calling the AVX512-VNNI integer
/// convolution on work items of (image, pixel block, filter block).
KernelOp lowerQConvToUKernels(QConv2dOp op, SymbolTable &symbols);

/// Replaces a `winograd_mxm` `mie.conv2d` by a `mie.kernel`: input transform, (m + 2)^2 GEMMs on
/// the microkernels, output transform with the epilogue.
KernelOp lowerWinogradToUKernels(Conv2dOp op, SymbolTable &symbols);

/// Replaces an NCHW `depthwise` `mie.conv2d` by a `mie.kernel` calling the f32 or bf16 kernel,
/// channels split across threads.
KernelOp lowerDepthwiseToUKernels(Conv2dOp op, SymbolTable &symbols);
/// A channels-last `depthwise` convolution with a packed [KH * KW, C] filter (the NHWC kernel):
/// at least `minItems` bands of output rows when the image has that many rows.
KernelOp lowerChannelsLastDepthwiseToUKernels(Conv2dOp op, SymbolTable &symbols,
                                              int64_t minItems);

/// Replaces a `max_pool` `mie.max_pool2d` by a `mie.kernel` calling the kernel, channels split
/// across threads as for the depthwise convolution.
KernelOp lowerMaxPoolToUKernels(MaxPool2dOp op, SymbolTable &symbols);

/// Replaces a `gemm` 2-D `mie.gemm` with a packed b by a `mie.kernel` calling the microkernels.
KernelOp lowerGemmToUKernels(GemmOp op, SymbolTable &symbols);

/// Replaces a `gemm` `mie.gemm` whose b is not packed (an activation; 2-D or batched) by a
/// `mie.kernel` whose work items (batch index, row block, column block) pack their blocks of both
/// operands at run time and run the register tiles on them.
KernelOp lowerActivationGemmToUKernels(GemmOp op, SymbolTable &symbols);

/// Replaces an `attention` `mie.attention` by a `mie.kernel` calling the fused attention
/// microkernel on work items of (batch index, query row group).
KernelOp lowerAttentionToUKernels(AttentionOp op, SymbolTable &symbols);

} // namespace mlir::mie

#endif // MIE_TRANSFORMS_UKERNELLOWERING_H
