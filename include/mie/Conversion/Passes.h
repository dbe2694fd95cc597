//===- Passes.h - cross-dialect conversion passes ---------------*- C++ -*-===//

#ifndef MIE_CONVERSION_PASSES_H
#define MIE_CONVERSION_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir {
class DialectRegistry;
namespace mie {

#define GEN_PASS_DECL
#include "mie/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "mie/Conversion/Passes.h.inc"

} // namespace mie
} // namespace mlir

#endif // MIE_CONVERSION_PASSES_H
