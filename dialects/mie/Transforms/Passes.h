//===- Passes.h - mie dialect passes ----------------------------*- C++ -*-===//

#ifndef MIE_TRANSFORMS_PASSES_H
#define MIE_TRANSFORMS_PASSES_H

#include "dialects/mie/IR/MieOps.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::mie {

#define GEN_PASS_DECL
#include "dialects/mie/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "dialects/mie/Transforms/Passes.h.inc"

/// Marks a mie.gemm / mie.conv2d that a GPU library computes (`mie-gpu-library-calls`): "cublaslt" or
/// "cudnn". Such an op is a host-side call, not a kernel to generate.
constexpr llvm::StringLiteral kGpuLibraryAttrName = "mie.gpu_library";
inline bool isGpuLibraryCall(Operation *op) { return op->hasAttr(kGpuLibraryAttrName); }

} // namespace mlir::mie

#endif // MIE_TRANSFORMS_PASSES_H
