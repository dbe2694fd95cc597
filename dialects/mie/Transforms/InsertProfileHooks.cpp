//===- InsertProfileHooks.cpp - the mie-insert-profile-hooks pass ---------===//

#include "dialects/mie/Transforms/Passes.h"
#include "dialects/mie/Utils/RuntimeSymbols.h"
#include "dialects/mie/Utils/KernelLaunches.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::mie {
#define GEN_PASS_DEF_MIEINSERTPROFILEHOOKSPASS
#include "dialects/mie/Transforms/Passes.h.inc"

namespace {

constexpr StringLiteral kHookName = "mie_profile_hook";

struct MieInsertProfileHooksPass
    : impl::MieInsertProfileHooksPassBase<MieInsertProfileHooksPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    Type ptr = LLVM::LLVMPointerType::get(ctx);
    Type i32 = IntegerType::get(ctx, 32);
    if (module.lookupSymbol(kHookName)) {
      module.emitError() << "'" << kHookName << "' is already defined";
      return signalPassFailure();
    }
    func::FuncOp hook;
    for (auto entry : llvm::to_vector(module.getOps<func::FuncOp>())) {
      // The arena size function of code for symbolic dims launches no kernel.
      if (entry.isPrivate() || entry.isExternal() || entry.getSymName() == kArenaBytesFunction)
        continue;
      if (entry.getNumArguments() == 0 || entry.getArgument(0).getType() != ptr) {
        entry.emitError("expects the environment (!llvm.ptr) as first argument; run "
                        "mie-parallelize-loops first");
        return signalPassFailure();
      }
      if (!hook) {
        OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
        hook = func::FuncOp::create(b, module.getLoc(), kHookName,
                                    b.getFunctionType({ptr, i32, i32}, {}));
        hook.setPrivate();
      }
      Value env = entry.getArgument(0);
      // One i32 constant per value, at the top of the entry.
      Block &body = entry.getBody().front();
      DenseMap<int64_t, Value> constants;
      auto constant = [&](int64_t v) {
        Value &c = constants[v];
        if (!c) {
          auto top = OpBuilder::atBlockBegin(&body);
          c = arith::ConstantOp::create(top, entry.getLoc(), top.getI32IntegerAttr(v));
        }
        return c;
      };
      for (auto [index, launch] : llvm::enumerate(collectKernelLaunches(module, entry))) {
        OpBuilder b(launch);
        Location loc = launch.getLoc();
        Value id = constant(int64_t(index));
        func::CallOp::create(b, loc, hook, ValueRange{env, id, constant(0)});
        b.setInsertionPointAfter(launch);
        func::CallOp::create(b, loc, hook, ValueRange{env, id, constant(1)});
      }
    }
  }
};

} // namespace
} // namespace mlir::mie
