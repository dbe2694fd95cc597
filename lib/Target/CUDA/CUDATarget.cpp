//===- CUDATarget.cpp - NVIDIA GPUs through MLIR's NVVM path --------------===//

#include "mie/Target/CUDATarget.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

using namespace mlir;
using namespace mlir::mie;

FailureOr<std::string> mie::findCudaToolkit(StringRef explicitPath, std::string &error) {
  std::string path = explicitPath.str();
  StringRef from = "--cuda-path";
  if (path.empty()) {
    if (std::optional<std::string> root = llvm::sys::Process::GetEnv("CUDA_ROOT")) {
      path = *root;
      from = "CUDA_ROOT";
    }
  }
  if (path.empty()) {
    path = "/usr/local/cuda";
    from = "the default";
  }
  SmallString<128> ptxas(path);
  llvm::sys::path::append(ptxas, "bin", "ptxas");
  if (!llvm::sys::fs::can_execute(ptxas)) {
    error = ("no CUDA toolkit: " + ptxas + " (from " + from +
             ") does not exist; install the CUDA toolkit or point --cuda-path or CUDA_ROOT at it")
                .str();
    return failure();
  }
  return path;
}

/// Adds the contract's `mie_gpu_modules` table: one private constant per image, then
/// { i64 magic, i64 count, [count x { ptr image, i64 size, i32 format, i32 reserved }] }.
static void addGpuModuleTable(llvm::Module &module,
                              ArrayRef<std::pair<std::string, int32_t>> images) {
  llvm::LLVMContext &ctx = module.getContext();
  llvm::Type *ptr = llvm::PointerType::getUnqual(ctx);
  llvm::Type *i64 = llvm::Type::getInt64Ty(ctx);
  llvm::Type *i32 = llvm::Type::getInt32Ty(ctx);
  auto *entryType = llvm::StructType::get(ctx, {ptr, i64, i32, i32});
  SmallVector<llvm::Constant *> entries;
  for (auto [index, image] : llvm::enumerate(images)) {
    auto *data = llvm::ConstantDataArray::getString(ctx, image.first, /*AddNull=*/false);
    auto *global = new llvm::GlobalVariable(module, data->getType(), /*isConstant=*/true,
                                            llvm::GlobalValue::PrivateLinkage, data,
                                            "mie_gpu_image_" + std::to_string(index));
    global->setAlignment(llvm::Align(64));
    entries.push_back(llvm::ConstantStruct::get(
        entryType, {global, llvm::ConstantInt::get(i64, image.first.size()),
                    llvm::ConstantInt::get(i32, image.second), llvm::ConstantInt::get(i32, 0)}));
  }
  auto *arrayType = llvm::ArrayType::get(entryType, entries.size());
  auto *tableType = llvm::StructType::get(ctx, {i64, i64, arrayType});
  auto *init = llvm::ConstantStruct::get(
      tableType, {llvm::ConstantInt::get(i64, kGpuModulesMagic),
                  llvm::ConstantInt::get(i64, entries.size()),
                  llvm::ConstantArray::get(arrayType, entries)});
  auto *table = new llvm::GlobalVariable(module, tableType, /*isConstant=*/true,
                                         llvm::GlobalValue::ExternalLinkage, init,
                                         kGpuModulesSymbol);
  table->setVisibility(llvm::GlobalValue::DefaultVisibility);
  table->setAlignment(llvm::Align(8));
}

FailureOr<std::string> mie::emitCudaArtifact(ModuleOp module, const PackageTarget &target,
                                             CudaArtifact artifact, unsigned jobs,
                                             ArrayRef<int64_t> abiTable) {
  // The images in module order: launches name a module by its index in this list (the
  // mie-gpu-lower-launches pass numbered them the same way).
  SmallVector<std::pair<std::string, int32_t>> images;
  SmallVector<gpu::BinaryOp> binaries(module.getOps<gpu::BinaryOp>());
  for (gpu::BinaryOp binary : binaries) {
    if (binary.getObjects().size() != 1)
      return binary.emitError("expected one object per GPU module, got ")
                 << binary.getObjects().size(),
             failure();
    auto object = cast<gpu::ObjectAttr>(binary.getObjects()[0]);
    std::string bytes = object.getObject().getValue().str();
    switch (object.getFormat()) {
    case gpu::CompilationTarget::Binary:
      images.push_back({std::move(bytes), 0});
      break;
    case gpu::CompilationTarget::Assembly:
      // PTX: the loader wants it NUL-terminated.
      bytes.push_back('\0');
      images.push_back({std::move(bytes), 1});
      break;
    default:
      return binary.emitError("GPU module format must be bin (cubin) or isa (PTX)"), failure();
    }
  }
  if (artifact == CudaArtifact::DeviceImage) {
    std::string all;
    for (auto &image : images)
      all += image.second == 1 ? StringRef(image.first).drop_back().str() : image.first;
    return all;
  }
  for (gpu::BinaryOp binary : binaries)
    binary.erase();
  module->removeAttr(gpu::GPUDialect::getContainerModuleAttrName());
  return emitCpuArtifact(
      module, target.host,
      artifact == CudaArtifact::HostLLVMIR ? CpuArtifact::LLVMIR : CpuArtifact::SharedObject,
      "main", jobs, abiTable, [&](llvm::Module &llvmModule) {
        addGpuModuleTable(llvmModule, images);
        return success();
      });
}
