//===- InitAll.cpp - register every dialect and pass of the project -------===//

#include "mie/InitAll.h"

#include "dialects/mie/IR/MieDialect.h"
#include "dialects/mie/Transforms/Passes.h"
#include "dialects/ms/Transforms/Passes.h"
#include "dialects/ms/IR/MsDialect.h"
#include "mie/Conversion/Passes.h"
#include "mie/Pipelines/Pipelines.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"

void mlir::mie::registerAllDialects(DialectRegistry &registry) {
  registry.insert<mlir::ms::MsDialect>();
  registry.insert<mlir::mie::MieDialect>();
  // Code generation translates the LLVM dialect to LLVM IR in-process.
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
}

void mlir::mie::registerAllPasses() {
  registerMieConversionPasses();
  registerMieTransformsPasses();
  ms::registerMsTransformsPasses();
  registerPipelines();
}
