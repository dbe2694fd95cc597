//===- MieDialect.h - mie dialect -------------------------------*- C++ -*-===//

#ifndef MIE_IR_MIEDIALECT_H
#define MIE_IR_MIEDIALECT_H

#include "mlir/IR/Dialect.h"

#include "dialects/mie/IR/MieDialect.h.inc"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include <optional>

namespace mlir::mie {
/// The argument attributes of the slot argument `slot` ("arena", "weights", "dims",
/// "random_key"; MieDialect::getSlotAttrName).
DictionaryAttr slotArgAttrs(MLIRContext *ctx, StringRef slot);
/// The index of `func`'s slot argument `slot`, if it has one.
std::optional<unsigned> slotArgument(FunctionOpInterface func, StringRef slot);
} // namespace mlir::mie

#endif // MIE_IR_MIEDIALECT_H
