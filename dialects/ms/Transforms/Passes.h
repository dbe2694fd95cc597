//===- Passes.h - ms dialect passes -----------------------------*- C++ -*-===//

#ifndef MS_TRANSFORMS_PASSES_H
#define MS_TRANSFORMS_PASSES_H

#include "dialects/ms/IR/MsOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::ms {

#define GEN_PASS_DECL
#include "dialects/ms/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "dialects/ms/Transforms/Passes.h.inc"

} // namespace mlir::ms

#endif // MS_TRANSFORMS_PASSES_H
