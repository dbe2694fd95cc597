//===- GpuLowerLaunches.cpp - the mie-gpu-lower-launches pass -------------===//

#include "dialects/mie/Transforms/Passes.h"
#include "dialects/mie/Utils/KernelBuilders.h"

#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/bit.h"

namespace mlir::mie {
#define GEN_PASS_DEF_MIEGPULOWERLAUNCHESPASS
#include "dialects/mie/Transforms/Passes.h.inc"

namespace {

// Kernel ABI 4 (runtime/include/mie/mie_kernel_abi.h, /work/notes/cuda-contract.md): offsets of
// mie_kernel_env::gpu_ctx and ::gpu, and of mie_gpu_api::get_function and ::launch.
constexpr int64_t kEnvGpuCtxOffset = 40, kEnvGpuOffset = 48;
constexpr int64_t kApiGetFunctionOffset = 8, kApiLaunchOffset = 16;
/// gpu api 2: mie_gpu_api::matmul and ::conv2d, and the MIE_GPU_LIBRARY_* bits of mie_gpu_libraries.
constexpr int64_t kApiMatmulOffset = 40, kApiConv2dOffset = 48;
constexpr int64_t kLibraryCublasLt = 1, kLibraryCudnn = 2;
/// mie_gpu_matmul_desc / mie_gpu_conv2d_desc field values (mie_kernel_abi.h).
constexpr int64_t kEpilogueBias = 1, kEpilogueRelu = 2, kEpilogueGelu = 4;
constexpr int64_t kActivationRelu = 1;
/// The status of a launch whose kernel the runtime does not find.
constexpr int32_t kMissingFunctionStatus = 1;
/// The status of a library call on a runtime whose gpu api predates version 2 (no matmul, conv2d).
constexpr int32_t kOldGpuApiStatus = 2;

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
    Type type = value.getType();
    if (auto memref = dyn_cast<MemRefType>(type)) {
      if (!memref.hasStaticShape() || !memref.getLayout().isIdentity())
        return failure();
      return bufferPointer(b, loc, value);
    }
    if (type.isIndex())
      return arith::IndexCastOp::create(b, loc, b.getI64Type(), value).getResult();
    if (type.isIntOrFloat())
      return value;
    return failure();
  }

  /// The mie_dtype of mie_rt.h for a library call's element type.
  static int64_t dtypeCode(Type t) { return t.isF32() ? 1 : t.isF16() ? 2 : 3; }

  /// The words of `op`'s descriptor (every field 8 bytes, in the header's order), or failure.
  static FailureOr<SmallVector<int64_t>> descriptorWords(Operation *op) {
    auto shape = [](Value v) { return cast<MemRefType>(v.getType()).getShape(); };
    Type element = cast<MemRefType>(op->getOperand(0).getType()).getElementType();
    if (auto gemm = dyn_cast<GemmOp>(op)) {
      ArrayRef<int64_t> out = shape(gemm.getOutput()), a = shape(gemm.getA());
      if (gemm.getTransC() || (out.size() != 2 && out.size() != 3) ||
          gemm.getEpilogue().getClamp())
        return failure();
      bool batched = out.size() == 3;
      int64_t m = out[out.size() - 2], n = out[out.size() - 1];
      int64_t k = gemm.getTransA() ? a[a.size() - 2] : a[a.size() - 1];
      EpilogueAttr epilogue = gemm.getEpilogue();
      int64_t code = epilogue.getBias() ? kEpilogueBias : 0;
      if (epilogue.getActivation() == Activation::relu)
        code |= kEpilogueRelu;
      else if (epilogue.getActivation() == Activation::gelu_tanh)
        code |= kEpilogueGelu;
      else if (epilogue.getActivation() != Activation::none)
        return failure();
      double alpha = gemm.getAlpha().convertToDouble();
      return SmallVector<int64_t>{dtypeCode(element),
                                  batched ? out[0] : 1,
                                  m,
                                  n,
                                  k,
                                  gemm.getTransA() ? 1 : 0,
                                  gemm.getTransB() ? 1 : 0,
                                  batched ? m * k : 0,
                                  batched ? k * n : 0,
                                  batched ? m * n : 0,
                                  code,
                                  epilogue.getResidual() ? 1 : 0,
                                  llvm::bit_cast<int64_t>(alpha)};
    }
    auto conv = cast<Conv2dOp>(op);
    ArrayRef<int64_t> x = shape(conv.getInput()), w = shape(conv.getFilter()),
                      y = shape(conv.getOutput());
    ArrayRef<int64_t> pads = conv.getPads(), strides = conv.getStrides(),
                      dilations = conv.getDilations();
    EpilogueAttr epilogue = conv.getEpilogue();
    if (pads[0] != pads[2] || pads[1] != pads[3] || epilogue.getClamp() ||
        (epilogue.getActivation() != Activation::none &&
         epilogue.getActivation() != Activation::relu))
      return failure();
    return SmallVector<int64_t>{dtypeCode(element),
                                x[0], x[1], x[2], x[3],
                                w[0], w[2], w[3],
                                y[2], y[3],
                                strides[0], strides[1],
                                pads[0], pads[1],
                                dilations[0], dilations[1],
                                int64_t(conv.getGroups()),
                                epilogue.getActivation() == Activation::relu ? kActivationRelu : 0,
                                epilogue.getBias() ? 1 : 0,
                                epilogue.getResidual() ? 1 : 0};
  }

  /// `op` (a mie.gemm / mie.conv2d marked by mie-gpu-library-calls) as a call of gpu->matmul /
  /// gpu->conv2d with a constant descriptor; its status returned at once when not zero.
  LogicalResult lowerLibraryCall(Operation *op, func::FuncOp func, OpBuilder &top,
                                 SymbolTable &symbols, int64_t &libraries) {
    MLIRContext *ctx = op->getContext();
    Location loc = op->getLoc();
    bool isGemm = isa<GemmOp>(op);
    FailureOr<SmallVector<int64_t>> words = descriptorWords(op);
    if (failed(words))
      return op->emitError("mie-gpu-lower-launches: ")
             << (isGemm ? "cuBLASLt" : "cuDNN")
             << " cannot compute this op (mie-gpu-library-calls should have kept it a kernel)";
    libraries |= isGemm ? kLibraryCublasLt : kLibraryCudnn;
    Type ptr = LLVM::LLVMPointerType::get(ctx);
    Type i32 = IntegerType::get(ctx, 32), i64 = IntegerType::get(ctx, 64);
    auto arrayType = LLVM::LLVMArrayType::get(i64, words->size());
    auto global = LLVM::GlobalOp::create(
        top, loc, arrayType, /*isConstant=*/true, LLVM::Linkage::Internal,
        isGemm ? "__mie_gpu_matmul_desc" : "__mie_gpu_conv2d_desc",
        DenseElementsAttr::get(RankedTensorType::get({int64_t(words->size())}, i64),
                               ArrayRef<int64_t>(*words)));
    symbols.insert(global); // renamed when the name is taken

    OpBuilder b(op);
    Value env = func.getArgument(0);
    Value gpu = loadPointer(b, loc, env, kEnvGpuOffset);
    Value gpuCtx = loadPointer(b, loc, env, kEnvGpuCtxOffset);
    // A runtime older than gpu api 2 has no such entry: fail cleanly instead of reading past its table.
    Value version = LLVM::LoadOp::create(b, loc, i32, gpu);
    Value tooOld = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, version,
                                         arith::ConstantIntOp::create(b, loc, 2, 32));
    Value oldStatus = arith::SelectOp::create(
        b, loc, tooOld, arith::ConstantIntOp::create(b, loc, kOldGpuApiStatus, 32),
        arith::ConstantIntOp::create(b, loc, 0, 32));
    if (failed(returnOnFailure(func, op, oldStatus)))
      return failure();
    b.setInsertionPoint(op);
    Value fn = loadPointer(b, loc, gpu, isGemm ? kApiMatmulOffset : kApiConv2dOffset);
    Value desc = LLVM::AddressOfOp::create(b, loc, global);
    Value null = LLVM::ZeroOp::create(b, loc, ptr);
    // (ctx, desc, in0, in1, bias, residual, out): both ops order their operands this way.
    SmallVector<Value> args = {gpuCtx, desc};
    auto pointer = [&](Value v) -> Value {
      if (!v)
        return null;
      FailureOr<Value> p = kernelArgument(b, loc, v);
      return succeeded(p) ? *p : Value();
    };
    Value in0, in1, bias, residual, out;
    if (auto gemm = dyn_cast<GemmOp>(op)) {
      in0 = gemm.getA(), in1 = gemm.getB(), bias = gemm.getBias(), residual = gemm.getResidual();
      out = gemm.getOutput();
    } else {
      auto conv = cast<Conv2dOp>(op);
      in0 = conv.getInput(), in1 = conv.getFilter(), bias = conv.getBias();
      residual = conv.getResidual(), out = conv.getOutput();
    }
    for (Value v : {in0, in1, bias, residual, out}) {
      Value p = pointer(v);
      if (!p)
        return op->emitError("mie-gpu-lower-launches: cannot pass ")
               << v.getType() << " to a GPU library (static identity buffers only)";
      args.push_back(p);
    }
    auto type = LLVM::LLVMFunctionType::get(i32, {ptr, ptr, ptr, ptr, ptr, ptr, ptr});
    SmallVector<Value> operands = {fn};
    llvm::append_range(operands, args);
    Value status = LLVM::CallOp::create(b, loc, type, operands).getResult();
    op->erase();
    return returnOnFailure(func, status.getDefiningOp(), status);
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
          (func.isPublic() || func.walk([](Operation *op) {
                                   return isa<gpu::LaunchFuncOp>(op) || isGpuLibraryCall(op)
                                              ? WalkResult::interrupt()
                                              : WalkResult::advance();
                                 }).wasInterrupted()))
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

    // Library calls, and the symbol that tells the runtime which libraries to load.
    SmallVector<std::pair<Operation *, func::FuncOp>> libraryCalls;
    module.walk([&](Operation *op) {
      if (isGpuLibraryCall(op))
        libraryCalls.push_back({op, op->getParentOfType<func::FuncOp>()});
    });
    int64_t libraries = 0;
    for (auto [op, func] : libraryCalls)
      if (failed(lowerLibraryCall(op, func, top, symbols, libraries)))
        return signalPassFailure();
    if (libraries) {
      Type i64 = IntegerType::get(ctx, 64);
      auto symbol = LLVM::GlobalOp::create(top, module.getLoc(), i64, /*isConstant=*/true,
                                           LLVM::Linkage::External, "mie_gpu_libraries",
                                           top.getI64IntegerAttr(libraries));
      symbols.insert(symbol);
    }
  }
};

} // namespace
} // namespace mlir::mie
