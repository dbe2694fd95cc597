//===- MieDialect.h - mie dialect -------------------------------*- C++ -*-===//

#ifndef MIE_IR_MIEDIALECT_H
#define MIE_IR_MIEDIALECT_H

#include "mlir/IR/Dialect.h"

#include "dialects/mie/IR/MieDialect.h.inc"

#endif // MIE_IR_MIEDIALECT_H
