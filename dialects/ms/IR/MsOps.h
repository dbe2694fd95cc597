//===- MsOps.h - ms dialect ops ---------------------------------*- C++ -*-===//

#ifndef MS_IR_MSOPS_H
#define MS_IR_MSOPS_H

#include "dialects/ms/IR/MsDialect.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "dialects/ms/IR/MsEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "dialects/ms/IR/MsAttrs.h.inc"

#define GET_OP_CLASSES
#include "dialects/ms/IR/MsOps.h.inc"

#endif // MS_IR_MSOPS_H
