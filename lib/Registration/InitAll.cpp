//===- InitAll.cpp - register every dialect and pass of the project -------===//

#include "mie/InitAll.h"

#include "dialects/mie/IR/MieDialect.h"
#include "dialects/mie/Transforms/Passes.h"
#include "dialects/ms/Transforms/Passes.h"
#include "dialects/ms/IR/MsDialect.h"
#include "mie/Conversion/Passes.h"
#include "mie/Pipelines/Pipelines.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"

void mlir::mie::registerAllDialects(DialectRegistry &registry) {
  registry.insert<mlir::ms::MsDialect>();
  registry.insert<mlir::mie::MieDialect>();
  // Code generation translates the LLVM dialect to LLVM IR in-process.
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  // cuda targets: kernels through NVVM into PTX and cubins (gpu-module-to-binary translates the
  // gpu.module to LLVM IR in-process too).
  registry.insert<gpu::GPUDialect, NVVM::NVVMDialect>();
  NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  registerNVVMDialectTranslation(registry);
  registerGPUDialectTranslation(registry);
}

void mlir::mie::registerAllPasses() {
  registerMieConversionPasses();
  registerMieTransformsPasses();
  ms::registerMsTransformsPasses();
  registerPipelines();
}
