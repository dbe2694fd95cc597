//===- KernelLaunches.h - the kernel launches of an entry -------*- C++ -*-===//
//
// After mie-outline-kernels an entry function is a sequence of calls of its kernels. Their order is
// the kernel numbering everything downstream shares: the fusion report's lines, the manifest's
// "kernels" list and the ids the profile hooks pass to the runtime.
//
//===----------------------------------------------------------------------===//

#ifndef MIE_UTILS_KERNELLAUNCHES_H
#define MIE_UTILS_KERNELLAUNCHES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::mie {

/// The calls in `entry` of functions defined in `module` (kernels; declarations such as parallel
/// dispatches and hooks are not launches), in program order.
SmallVector<func::CallOp> collectKernelLaunches(ModuleOp module, func::FuncOp entry);

/// The source (ONNX) node names in a launch's location, in order, without repeats: kernels carry
/// the fused locations of the ms ops they compute, which the importer names after their nodes.
SmallVector<StringRef> sourceNodeNames(Location loc);

} // namespace mlir::mie

#endif // MIE_UTILS_KERNELLAUNCHES_H
