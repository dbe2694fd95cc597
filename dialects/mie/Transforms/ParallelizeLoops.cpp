//===- ParallelizeLoops.cpp - the mie-parallelize-loops pass --------------===//

#include "dialects/mie/Transforms/Passes.h"
#include "dialects/mie/Utils/RuntimeSymbols.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/RegionUtils.h"

namespace mlir::mie {
#define GEN_PASS_DEF_MIEPARALLELIZELOOPSPASS
#include "dialects/mie/Transforms/Passes.h.inc"

namespace {

/// Suffix of the dispatch declarations that code generation implements (see CPUTarget.cpp).
constexpr StringLiteral kDispatchSuffix = "__dispatch";

std::optional<int64_t> constantIndex(Value v) {
  if (auto c = v.getDefiningOp<arith::ConstantIndexOp>())
    return c.value();
  return std::nullopt;
}

/// The bytes of a buffer of static shape.
int64_t staticBytes(MemRefType type) {
  return type.getNumElements() * llvm::divideCeil(type.getElementTypeBitWidth(), 8);
}

/// Ops whose results may be recomputed inside the outlined body instead of being captured. The
/// address arithmetic of the microkernel lowering is among them: a buffer packed once before the
/// loop (a row GEMM's shared rows) reaches the loop as an `!llvm.ptr`, which only its buffer can
/// be captured for (without them the classifiers and squeeze-excite FCs ran on one thread).
bool isSinkable(Operation *op) {
  // A reinterpret_cast is how a kernel of code for symbolic dims sees a buffer of run-time dims
  // (mie-outline-kernels): the pointer-only argument and the dims pass, the view is rebuilt.
  return isa<arith::ConstantOp, arith::IndexCastOp, memref::SubViewOp, memref::CollapseShapeOp,
             memref::ExpandShapeOp, memref::ViewOp, memref::CastOp, memref::AllocaOp,
             memref::ReinterpretCastOp, memref::ExtractAlignedPointerAsIndexOp, LLVM::IntToPtrOp>(
      op);
}

/// The values `loop` uses from above after sinking cloneable producers; fails if one cannot be
/// passed through the dispatch (only function arguments of static identity memref type and index
/// values can).
FailureOr<SmallVector<Value>> collectCaptures(scf::ParallelOp loop,
                                              SmallVectorImpl<Operation *> &sunk) {
  SetVector<Value> above;
  getUsedValuesDefinedAbove(loop.getRegion(), above);
  for (Value v : loop->getOperands())
    above.insert(v);
  SmallVector<Value> captures;
  SmallVector<Value> worklist(above.begin(), above.end());
  DenseSet<Value> seen;
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    if (!seen.insert(v).second)
      continue;
    Operation *def = v.getDefiningOp();
    if (def && isSinkable(def)) {
      if (!llvm::is_contained(sunk, def))
        sunk.push_back(def);
      llvm::append_range(worklist, def->getOperands());
      continue;
    }
    if (auto memref = dyn_cast<MemRefType>(v.getType())) {
      if (!isa<BlockArgument>(v) || !memref.hasStaticShape() || !memref.getLayout().isIdentity())
        return failure();
    } else if (!v.getType().isIndex()) {
      return failure();
    }
    captures.push_back(v);
  }
  // Clone order must respect def-use: sort by position in the function (pre-order, so an op of
  // an enclosing block comes before those of the region the loop sits in: a loop inside a
  // branch or a stage loop sinks ops of several blocks).
  DenseMap<Operation *, int64_t> position;
  loop->getParentOfType<func::FuncOp>()->walk<WalkOrder::PreOrder>(
      [&](Operation *op) { position[op] = position.size(); });
  llvm::sort(sunk, [&](Operation *a, Operation *b) { return position[a] < position[b]; });
  return captures;
}

struct MieParallelizeLoopsPass : impl::MieParallelizeLoopsPassBase<MieParallelizeLoopsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    Type ptr = LLVM::LLVMPointerType::get(ctx);
    SymbolTable symbols(module);
    SmallVector<func::FuncOp> funcs(module.getOps<func::FuncOp>());
    // The environment: a new first argument of every entry and of every kernel that dispatches,
    // added on first need.
    DenseMap<Operation *, Value> envOf;
    auto envFor = [&](func::FuncOp func) -> FailureOr<Value> {
      if (auto it = envOf.find(func); it != envOf.end())
        return it->second;
      if (failed(func.insertArgument(0, ptr, DictionaryAttr::get(ctx), func.getLoc())))
        return failure();
      return envOf[func] = func.getArgument(0);
    };
    for (func::FuncOp func : funcs) {
      if (func.isExternal())
        continue;
      // The arena size function of code for symbolic dims is called by the runtime with the
      // symbol values alone (kernel ABI 7): it takes no environment.
      if (func.isPublic() && func.getSymName() != kArenaBytesFunction && failed(envFor(func)))
        return signalPassFailure();
      int64_t counter = 0;
      // The kernel's loops, also those in a branch it takes at run time or in the stages of a
      // `mie.parallel_stages` loop (code for symbolic dims: a row product's tile chosen for the
      // run's rows, its chunks of shared row panels); not those of other sequential loops, which
      // would pay a dispatch per iteration, nor loops inside another parallel one.
      SmallVector<scf::ParallelOp> loops;
      func.walk<WalkOrder::PreOrder>([&](Operation *op) {
        if (auto loop = dyn_cast<scf::ParallelOp>(op)) {
          loops.push_back(loop);
          return WalkResult::skip();
        }
        bool stages = isa<scf::ForOp>(op) && op->hasAttr(MieDialect::getParallelStagesAttrName());
        return isa<func::FuncOp, scf::IfOp>(op) || stages ? WalkResult::advance()
                                                          : WalkResult::skip();
      });
      for (scf::ParallelOp loop : loops)
        (void)parallelize(func, loop, counter, symbols, ptr, envFor);
      bool callsHost = false;
      func.walk([&](func::CallOp call) {
        callsHost |= call.getCallee().starts_with(kHostServicePrefix);
      });
      if (callsHost && failed(envFor(func)))
        return signalPassFailure();
    }
    // Host services take the environment first.
    for (func::FuncOp decl : funcs)
      if (decl.isExternal() && decl.getSymName().starts_with(kHostServicePrefix) &&
          failed(decl.insertArgument(0, ptr, DictionaryAttr::get(ctx), decl.getLoc())))
        return signalPassFailure();
    // Calls of functions that took the environment pass it along.
    for (auto [op, env] : envOf) {
      op->walk([&, env = env](func::CallOp call) {
        Operation *callee = symbols.lookup(call.getCallee());
        bool hostCall = call.getCallee().starts_with(kHostServicePrefix);
        if (call.getCallee().ends_with(kDispatchSuffix) || (!envOf.count(callee) && !hostCall))
          return;
        SmallVector<Value> operands = {env};
        llvm::append_range(operands, call.getOperands());
        call->setOperands(operands);
      });
    }
  }

  LogicalResult parallelize(func::FuncOp func, scf::ParallelOp loop, int64_t &counter,
                            SymbolTable &symbols, Type ptr,
                            function_ref<FailureOr<Value>(func::FuncOp)> envFor) {
    // The first dimension with more than one iteration is split across threads: a static trip
    // count > 1, or one known at run time only (code for symbolic dims) with a constant step.
    int64_t dim = -1, tripCount = 0;
    bool runTimeTrips = false;
    for (unsigned d = 0; d < loop.getNumLoops() && dim < 0; ++d) {
      auto lb = constantIndex(loop.getLowerBound()[d]), ub = constantIndex(loop.getUpperBound()[d]),
           step = constantIndex(loop.getStep()[d]);
      if (!step || *step <= 0)
        continue;
      if (!lb || !ub) {
        dim = d;
        runTimeTrips = true;
        continue;
      }
      int64_t trips = (*ub - *lb + *step - 1) / *step;
      if (trips > 1) {
        dim = d;
        tripCount = trips;
      }
    }
    if (dim < 0 || !loop.getInitVals().empty())
      return failure();
    SmallVector<Operation *> sunk;
    FailureOr<SmallVector<Value>> captures = collectCaptures(loop, sunk);
    if (failed(captures))
      return failure();
    int64_t largest = 0;
    for (Value v : *captures)
      if (auto memref = dyn_cast<MemRefType>(v.getType()))
        largest = std::max(largest, staticBytes(memref));
    // A view of a pointer-only argument (code for symbolic dims) has its size here where its
    // dims are static (weights); where they are not, the run decides: the loop stays serial when
    // every buffer is smaller than minBytes for the run's dims, as a static package's would (a
    // one-token decoder step paid a dispatch per kernel, and ran slower on two threads than on
    // one).
    SmallVector<memref::ReinterpretCastOp> runTimeBuffers;
    for (Operation *op : sunk) {
      auto view = dyn_cast<memref::ReinterpretCastOp>(op);
      if (view && !view.getType().hasStaticShape())
        runTimeBuffers.push_back(view);
      else if (view)
        largest = std::max(largest, staticBytes(view.getType()));
    }
    if (largest < minBytes && runTimeBuffers.empty())
      return failure();
    const bool decidedAtRunTime = largest < minBytes;

    MLIRContext *ctx = &getContext();
    OpBuilder b(ctx);
    Location loc = loop.getLoc();
    std::string name = (func.getSymName() + "_p" + Twine(counter++)).str();
    SmallVector<Type> argTypes;
    for (Value v : *captures)
      argTypes.push_back(v.getType());
    argTypes.append({b.getIndexType(), b.getIndexType()});
    auto body = func::FuncOp::create(b, loc, name, b.getFunctionType(argTypes, {}));
    body.setPrivate();
    // Captured buffers are the kernel's own arguments, which do not alias (see
    // mie-outline-kernels).
    for (unsigned i = 0, e = captures->size(); i < e; ++i)
      if (isa<MemRefType>(argTypes[i]))
        body.setArgAttr(i, LLVM::LLVMDialect::getNoAliasAttrName(), b.getUnitAttr());
    symbols.insert(body, std::next(Block::iterator(func)));
    Block *entry = body.addEntryBlock();
    b.setInsertionPointToStart(entry);
    IRMapping mapping;
    for (auto [v, arg] : llvm::zip(*captures, entry->getArguments()))
      mapping.map(v, arg);
    for (Operation *op : sunk)
      b.clone(*op, mapping);
    // Iterations [begin, end) of `dim`: lb' = lb + begin * step, ub' = lb + end * step.
    Value begin = entry->getArgument(captures->size()),
          end = entry->getArgument(captures->size() + 1);
    Value lb = mapping.lookupOrDefault(loop.getLowerBound()[dim]);
    Value step = mapping.lookupOrDefault(loop.getStep()[dim]);
    Value newLb = arith::AddIOp::create(b, loc, lb, arith::MulIOp::create(b, loc, begin, step));
    Value newUb = arith::AddIOp::create(b, loc, lb, arith::MulIOp::create(b, loc, end, step));
    auto clone = cast<scf::ParallelOp>(b.clone(*loop, mapping));
    clone.getLowerBoundMutable().slice(dim, 1).assign(newLb);
    clone.getUpperBoundMutable().slice(dim, 1).assign(newUb);
    func::ReturnOp::create(b, loc);

    // The dispatch: declared here, implemented by code generation.
    SmallVector<Type> dispatchTypes = {ptr};
    llvm::append_range(dispatchTypes, argTypes);
    dispatchTypes.pop_back(); // (begin, end) -> count
    b.setInsertionPointToEnd(func->getParentOfType<ModuleOp>().getBody());
    auto dispatch = func::FuncOp::create(b, loc, name + kDispatchSuffix.str(),
                                         b.getFunctionType(dispatchTypes, {}));
    dispatch.setPrivate();
    symbols.insert(dispatch);

    FailureOr<Value> env = envFor(func);
    if (failed(env))
      return failure();
    b.setInsertionPoint(loop);
    SmallVector<Value> operands = {*env};
    llvm::append_range(operands, *captures);
    if (runTimeTrips) {
      // ceil((ub - lb) / step), never negative.
      Value lb = loop.getLowerBound()[dim], ub = loop.getUpperBound()[dim];
      int64_t step = *constantIndex(loop.getStep()[dim]);
      Value zero = arith::ConstantIndexOp::create(b, loc, 0);
      Value span = arith::MaxSIOp::create(b, loc, zero, arith::SubIOp::create(b, loc, ub, lb));
      Value trips = arith::DivUIOp::create(
          b, loc,
          arith::AddIOp::create(b, loc, span, arith::ConstantIndexOp::create(b, loc, step - 1)),
          arith::ConstantIndexOp::create(b, loc, step));
      operands.push_back(trips);
    } else {
      operands.push_back(arith::ConstantIndexOp::create(b, loc, tripCount));
    }
    if (!decidedAtRunTime) {
      func::CallOp::create(b, loc, dispatch.getSymName(), TypeRange{}, operands);
    } else {
      // Dispatched when the largest run-time buffer has minBytes for this run; otherwise the
      // body runs every iteration on this thread (a call, not a second copy of the loop, which
      // doubled such kernels' code and compile time).
      Value largestBytes;
      for (memref::ReinterpretCastOp view : runTimeBuffers) {
        Value bytes = arith::ConstantIndexOp::create(
            b, loc, llvm::divideCeil(view.getType().getElementTypeBitWidth(), 8));
        for (OpFoldResult size : view.getMixedSizes()) {
          Value v = isa<Value>(size)
                        ? cast<Value>(size)
                        : arith::ConstantIndexOp::create(b, loc, *getConstantIntValue(size));
          bytes = arith::MulIOp::create(b, loc, bytes, v);
        }
        largestBytes = largestBytes ? arith::MaxUIOp::create(b, loc, largestBytes, bytes) : bytes;
      }
      Value worthIt = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, largestBytes,
                                            arith::ConstantIndexOp::create(b, loc, minBytes));
      auto branch = scf::IfOp::create(b, loc, worthIt, /*withElseRegion=*/true);
      b.setInsertionPointToStart(branch.thenBlock());
      func::CallOp::create(b, loc, dispatch.getSymName(), TypeRange{}, operands);
      b.setInsertionPointToStart(branch.elseBlock());
      SmallVector<Value> all(*captures);
      all.append({arith::ConstantIndexOp::create(b, loc, 0), operands.back()});
      func::CallOp::create(b, loc, body.getSymName(), TypeRange{}, all);
    }
    loop.erase();
    for (Operation *op : llvm::reverse(sunk))
      if (op->use_empty())
        op->erase();
    return success();
  }
};

} // namespace
} // namespace mlir::mie
