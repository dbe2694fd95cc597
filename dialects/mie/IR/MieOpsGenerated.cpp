//===- MieOpsGenerated.cpp - the ODS-generated op definitions -------------===//
//
// Kept in its own translation unit: the generated code is large and rarely changes, so editing the
// hand-written op logic (MieOps.cpp) does not recompile it.
//
//===----------------------------------------------------------------------===//

#include "dialects/mie/IR/MieOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::mie;

#define GET_OP_CLASSES
#include "dialects/mie/IR/MieOps.cpp.inc"
