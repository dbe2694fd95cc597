//===- MsDialect.cpp - ms dialect registration ----------------------------===//

#include "dialects/ms/IR/MsOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::ms;

#include "dialects/ms/IR/MsDialect.cpp.inc"
#include "dialects/ms/IR/MsEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "dialects/ms/IR/MsAttrs.cpp.inc"

void MsDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "dialects/ms/IR/MsOps.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "dialects/ms/IR/MsAttrs.cpp.inc"
      >();
}

Operation *MsDialect::materializeConstant(OpBuilder &builder, Attribute value, Type type,
                                          Location loc) {
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements || elements.getType() != type)
    return nullptr;
  return ConstantOp::create(builder, loc, type, elements);
}
