//===- MsDialect.h - ms dialect ---------------------------------*- C++ -*-===//

#ifndef MS_IR_MSDIALECT_H
#define MS_IR_MSDIALECT_H

#include "mlir/IR/Dialect.h"

#include "dialects/ms/IR/MsDialect.h.inc"

#endif // MS_IR_MSDIALECT_H
