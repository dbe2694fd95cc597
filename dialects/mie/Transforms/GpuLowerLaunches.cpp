//===- GpuLowerLaunches.cpp - the mie-gpu-lower-launches pass -------------===//

#include "dialects/mie/Transforms/Passes.h"

#include "mlir/IR/SymbolTable.h"

namespace mlir::mie {
#define GEN_PASS_DEF_MIEGPULOWERLAUNCHESPASS
#include "dialects/mie/Transforms/Passes.h.inc"

namespace {

// Kernel ABI 4 (runtime/include/mie/mie_kernel_abi.h, /work/notes/cuda-contract.md): offsets of
// mie_kernel_env::gpu_ctx and ::gpu, and of mie_gpu_api::get_function and ::launch.
constexpr int64_t kEnvGpuCtxOffset = 40, kEnvGpuOffset = 48;
constexpr int64_t kApiGetFunctionOffset = 8, kApiLaunchOffset = 16;
/// The status of a launch whose kernel the runtime does not find.
constexpr int32_t kMissingFunctionStatus = 1;

struct MieGpuLowerLaunchesPass : impl::MieGpuLowerLaunchesPassBase<MieGpuLowerLaunchesPass> {
  using Base::Base;

  DenseMap<func::FuncOp, Block *> exitBlocks;

  /// `func`'s block `^exit(%status: i32)` that returns the status.
  Block *exitBlock(func::FuncOp func) {
    Block *&exit = exitBlocks[func];
    if (!exit) {
      OpBuilder b(func.getContext());
      exit = b.createBlock(&func.getBody(), func.getBody().end(), {b.getI32Type()},
                           {func.getLoc()});
      func::ReturnOp::create(b, func.getLoc(), exit->getArgument(0));
    }
    return exit;
  }

  /// Returns `status` from `func` if it is not zero; the code after `op` (which computed it) runs
  /// otherwise. `op` must be at the top level of the function's body.
  LogicalResult returnOnFailure(func::FuncOp func, Operation *op, Value status) {
    if (op->getParentOp() != func)
      return op->emitError("mie-gpu-lower-launches: a GPU launch inside a loop or branch cannot "
                           "report failure; it must be at the top level of '")
             << func.getSymName() << "'";
    Block *before = op->getBlock();
    Block *after = before->splitBlock(std::next(Block::iterator(status.getDefiningOp())));
    OpBuilder b = OpBuilder::atBlockEnd(before);
    Location loc = op->getLoc();
    Value zero = arith::ConstantIntOp::create(b, loc, 0, 32);
    Value failed = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, status, zero);
    cf::CondBranchOp::create(b, loc, failed, exitBlock(func), ValueRange{status}, after,
                             ValueRange{});
    return success();
  }

  /// Loads the pointer at `base + offset` bytes.
  static Value loadPointer(OpBuilder &b, Location loc, Value base, int64_t offset) {
    Type ptr = LLVM::LLVMPointerType::get(b.getContext());
    Value slot = LLVM::GEPOp::create(b, loc, ptr, b.getI8Type(), base,
                                     ArrayRef<LLVM::GEPArg>{int32_t(offset)});
    return LLVM::LoadOp::create(b, loc, ptr, slot);
  }

  /// The kernel argument `value` as the bare-pointer NVVM lowering passes it.
  static FailureOr<Value> kernelArgument(OpBuilder &b, Location loc, Value value) {
    Type ptr = LLVM::LLVMPointerType::get(b.getContext());
    Type type = value.getType();
    if (auto memref = dyn_cast<MemRefType>(type)) {
      if (!memref.hasStaticShape() || !memref.getLayout().isIdentity())
        return failure();
      Value address = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, value);
      address = arith::IndexCastOp::create(b, loc, b.getI64Type(), address);
      return LLVM::IntToPtrOp::create(b, loc, ptr, address).getResult();
    }
    if (type.isIndex())
      return arith::IndexCastOp::create(b, loc, b.getI64Type(), value).getResult();
    if (type.isIntOrFloat())
      return value;
    return failure();
  }

  LogicalResult lowerLaunch(gpu::LaunchFuncOp launch, func::FuncOp func, int32_t moduleIndex,
                            LLVM::GlobalOp name) {
    MLIRContext *ctx = launch.getContext();
    Location loc = launch.getLoc();
    if (launch.getAsyncToken() || !launch.getAsyncDependencies().empty() ||
        launch.hasClusterSize())
      return launch.emitError("mie-gpu-lower-launches: async and cluster launches are not "
                              "supported");
    Type ptr = LLVM::LLVMPointerType::get(ctx);
    Type i32 = IntegerType::get(ctx, 32);
    Value env = func.getArgument(0);
    // Argument slots live in the entry block: one stack frame slot each, however many launches.
    OpBuilder entry = OpBuilder::atBlockBegin(&func.getBody().front());
    Value one = LLVM::ConstantOp::create(entry, loc, entry.getI64Type(), 1);

    OpBuilder b(launch);
    Value gpu = loadPointer(b, loc, env, kEnvGpuOffset);
    Value gpuCtx = loadPointer(b, loc, env, kEnvGpuCtxOffset);
    Value getFunction = loadPointer(b, loc, gpu, kApiGetFunctionOffset);
    Value namePtr = LLVM::AddressOfOp::create(b, loc, name);
    Value module = LLVM::ConstantOp::create(b, loc, i32, moduleIndex);
    auto getFunctionType = LLVM::LLVMFunctionType::get(ptr, {ptr, i32, ptr});
    Value function = LLVM::CallOp::create(b, loc, getFunctionType,
                                          ValueRange{getFunction, gpuCtx, module, namePtr})
                         .getResult();
    Value null = LLVM::ZeroOp::create(b, loc, ptr);
    Value missing = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, function, null);
    Value missingStatus = arith::SelectOp::create(
        b, loc, missing, arith::ConstantIntOp::create(b, loc, kMissingFunctionStatus, 32),
        arith::ConstantIntOp::create(b, loc, 0, 32));
    if (failed(returnOnFailure(func, launch, missingStatus)))
      return failure();

    b.setInsertionPoint(launch);
    // params[i] points at a slot holding argument i.
    ValueRange operands = launch.getKernelOperands();
    Value params = LLVM::AllocaOp::create(
        entry, loc, ptr, ptr,
        LLVM::ConstantOp::create(entry, loc, entry.getI64Type(),
                                 std::max<int64_t>(1, operands.size())));
    for (auto [i, operand] : llvm::enumerate(operands)) {
      FailureOr<Value> arg = kernelArgument(b, loc, operand);
      if (failed(arg))
        return launch.emitError("mie-gpu-lower-launches: cannot pass ")
               << operand.getType() << " to a kernel (static identity buffers and scalars only)";
      Value slot = LLVM::AllocaOp::create(entry, loc, ptr, arg->getType(), one);
      LLVM::StoreOp::create(b, loc, *arg, slot);
      Value param = LLVM::GEPOp::create(b, loc, ptr, ptr, params,
                                        ArrayRef<LLVM::GEPArg>{int32_t(i)});
      LLVM::StoreOp::create(b, loc, slot, param);
    }
    auto toI32 = [&](Value v) -> Value { return arith::IndexCastOp::create(b, loc, i32, v); };
    gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
    gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
    Value shared = launch.getDynamicSharedMemorySize()
                       ? launch.getDynamicSharedMemorySize()
                       : arith::ConstantIntOp::create(b, loc, 0, 32).getResult();
    if (shared.getType().isIndex())
      shared = toI32(shared);
    Value launchFn = loadPointer(b, loc, gpu, kApiLaunchOffset);
    auto launchType =
        LLVM::LLVMFunctionType::get(i32, {ptr, ptr, i32, i32, i32, i32, i32, i32, i32, ptr});
    Value status = LLVM::CallOp::create(b, loc, launchType,
                                        ValueRange{launchFn, gpuCtx, function, toI32(grid.x),
                                                   toI32(grid.y), toI32(grid.z), toI32(block.x),
                                                   toI32(block.y), toI32(block.z), shared, params})
                       .getResult();
    Operation *last = status.getDefiningOp();
    launch.erase();
    return returnOnFailure(func, last, status);
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    Type ptr = LLVM::LLVMPointerType::get(ctx);
    Type i32 = IntegerType::get(ctx, 32);

    // Images in module order: the index the runtime loaded each under.
    DenseMap<StringAttr, int32_t> moduleIndex;
    for (Operation &op : module.getBody()->getOperations())
      if (isa<gpu::BinaryOp, gpu::GPUModuleOp>(op))
        moduleIndex.try_emplace(SymbolTable::getSymbolName(&op), int32_t(moduleIndex.size()));

    // Fallible functions: public ones, those that launch, and their callers.
    SymbolTable symbols(module);
    DenseSet<func::FuncOp> fallible;
    for (auto func : module.getOps<func::FuncOp>())
      if (!func.isExternal() &&
          (func.isPublic() ||
           func.walk([](gpu::LaunchFuncOp) { return WalkResult::interrupt(); }).wasInterrupted()))
        fallible.insert(func);
    for (bool changed = true; changed;) {
      changed = false;
      for (auto func : module.getOps<func::FuncOp>()) {
        if (fallible.contains(func))
          continue;
        bool callsFallible = func.walk([&](func::CallOp call) {
                                   auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
                                   return callee && fallible.contains(callee)
                                              ? WalkResult::interrupt()
                                              : WalkResult::advance();
                                 }).wasInterrupted();
        if (callsFallible) {
          fallible.insert(func);
          changed = true;
        }
      }
    }
    if (fallible.empty())
      return;

    // Signatures first: (env, args...) -> i32, every return giving 0.
    for (auto func : module.getOps<func::FuncOp>()) {
      if (!fallible.contains(func))
        continue;
      if (func.getNumResults() != 0) {
        func.emitError("mie-gpu-lower-launches: a function that launches kernels must return "
                       "nothing (its outputs are arguments)");
        return signalPassFailure();
      }
      if (!func.getBody().hasOneBlock()) {
        func.emitError("mie-gpu-lower-launches: expected a function of one block");
        return signalPassFailure();
      }
      (void)func.insertArgument(0, ptr, {}, func.getLoc());
      func.setFunctionType(FunctionType::get(ctx, func.getArgumentTypes(), {i32}));
      func.walk([&](func::ReturnOp ret) {
        OpBuilder b(ret);
        func::ReturnOp::create(b, ret.getLoc(),
                               ValueRange{arith::ConstantIntOp::create(b, ret.getLoc(), 0, 32)});
        ret.erase();
      });
    }

    // Calls to fallible functions pass the environment and return on failure.
    SmallVector<std::pair<func::CallOp, func::FuncOp>> calls;
    module.walk([&](func::CallOp call) {
      auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
      if (callee && fallible.contains(callee))
        calls.push_back({call, call->getParentOfType<func::FuncOp>()});
    });
    for (auto [call, caller] : calls) {
      OpBuilder b(call);
      SmallVector<Value> operands = {caller.getArgument(0)};
      llvm::append_range(operands, call.getOperands());
      auto status = func::CallOp::create(b, call.getLoc(), call.getCallee(), TypeRange{i32},
                                         operands);
      call.erase();
      if (failed(returnOnFailure(caller, status, status.getResult(0))))
        return signalPassFailure();
    }

    // Launches: one name constant per kernel.
    OpBuilder top = OpBuilder::atBlockBegin(module.getBody());
    llvm::StringMap<LLVM::GlobalOp> names;
    SmallVector<std::pair<gpu::LaunchFuncOp, func::FuncOp>> launches;
    module.walk([&](gpu::LaunchFuncOp launch) {
      launches.push_back({launch, launch->getParentOfType<func::FuncOp>()});
    });
    for (auto [launch, func] : launches) {
      StringRef kernel = launch.getKernelName().getValue();
      auto index = moduleIndex.find(launch.getKernelModuleName());
      if (index == moduleIndex.end()) {
        launch.emitError("mie-gpu-lower-launches: no GPU module '")
            << launch.getKernelModuleName().getValue() << "'";
        return signalPassFailure();
      }
      LLVM::GlobalOp &name = names[kernel];
      if (!name) {
        std::string text = kernel.str();
        text.push_back('\0');
        auto type = LLVM::LLVMArrayType::get(IntegerType::get(ctx, 8), text.size());
        name = LLVM::GlobalOp::create(top, launch.getLoc(), type, /*isConstant=*/true,
                                      LLVM::Linkage::Internal,
                                      ("__mie_gpu_name_" + kernel).str(),
                                      top.getStringAttr(text));
        symbols.insert(name);
      }
      if (failed(lowerLaunch(launch, func, index->second, name)))
        return signalPassFailure();
    }
  }
};

} // namespace
} // namespace mlir::mie
