//===- LayoutAssignment.h - channels-last components of a graph -*- C++ -*-===//
//
// The logic of ms-assign-layout, apart from its thin pass file: which connected parts of a
// function's graph run channels last (NHWC), and the rewrite that converts them.
//
//===----------------------------------------------------------------------===//

#ifndef MS_TRANSFORMS_LAYOUTASSIGNMENT_H
#define MS_TRANSFORMS_LAYOUTASSIGNMENT_H

#include "dialects/ms/IR/MsOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::ms {

/// Converts every eligible component of `func`'s body to NHWC (Passes.td, ms-assign-layout) and
/// returns how many were converted. Fails only when a constant it must transpose cannot be read.
FailureOr<int64_t> assignChannelsLast(func::FuncOp func);

} // namespace mlir::ms

#endif // MS_TRANSFORMS_LAYOUTASSIGNMENT_H
