//===- MsOpsGenerated.cpp - the ODS-generated op definitions --------------===//
//
// Kept in its own translation unit: the generated code is large and rarely changes, so editing the
// hand-written op logic (Ms*Ops.cpp) does not recompile it.
//
//===----------------------------------------------------------------------===//

#include "dialects/ms/IR/MsOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::ms;

#define GET_OP_CLASSES
#include "dialects/ms/IR/MsOps.cpp.inc"
