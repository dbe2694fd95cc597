//===- MieOps.h - mie dialect ops and attributes ----------------*- C++ -*-===//

#ifndef MIE_IR_MIEOPS_H
#define MIE_IR_MIEOPS_H

#include "dialects/mie/IR/MieDialect.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#include "dialects/mie/IR/MieEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "dialects/mie/IR/MieAttrs.h.inc"

namespace mlir::mie {
/// The tiling of an op's `ukernel` choice; null without one or for an untiled family.
inline TilingAttr getTilingOf(std::optional<UKernelAttr> kernel) {
  return kernel ? kernel->getTiling() : TilingAttr();
}
} // namespace mlir::mie

#define GET_OP_CLASSES
#include "dialects/mie/IR/MieOps.h.inc"

#endif // MIE_IR_MIEOPS_H
