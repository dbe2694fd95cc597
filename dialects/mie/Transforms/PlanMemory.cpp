//===- PlanMemory.cpp - the mie-plan-memory pass --------------------------===//

#include "dialects/mie/Transforms/ArenaPlanner.h"
#include "dialects/mie/Transforms/Passes.h"
#include "dialects/mie/Utils/KernelLaunches.h"

#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir::mie {
#define GEN_PASS_DEF_MIEPLANMEMORYPASS
#include "dialects/mie/Transforms/Passes.h.inc"

namespace {

int64_t bufferBytes(MemRefType type) {
  int64_t bits = type.getElementTypeBitWidth();
  return type.getNumElements() * std::max<int64_t>(bits / 8, 1);
}

/// Buffers listed at the peak in the summary, largest first.
constexpr size_t kPeakBuffersListed = 5;

/// The plan's bounds for reports (`mie.memory`): the lower bound, the bytes without reuse, and the
/// largest buffers live at the peak with the ONNX nodes that produce them.
DictionaryAttr summarize(MLIRContext *ctx, const std::vector<BufferRequest> &requests,
                         ArrayRef<Location> locs, const ArenaPlan &plan) {
  Builder b(ctx);
  ArenaBounds bounds = arenaBounds(requests);
  SmallVector<size_t> live;
  for (size_t i = 0; i < requests.size(); ++i)
    if (requests[i].firstUse <= bounds.peakOp && bounds.peakOp <= requests[i].lastUse)
      live.push_back(i);
  llvm::sort(live, [&](size_t a, size_t b) {
    return requests[a].size != requests[b].size ? requests[a].size > requests[b].size : a < b;
  });
  if (live.size() > kPeakBuffersListed)
    live.resize(kPeakBuffersListed);
  SmallVector<Attribute> peak;
  for (size_t i : live) {
    SmallVector<StringRef> nodes = sourceNodeNames(locs[i]);
    std::string name = nodes.empty() ? "" : llvm::join(nodes, ",");
    peak.push_back(b.getArrayAttr({b.getI64IntegerAttr(requests[i].size), b.getStringAttr(name)}));
  }
  return b.getDictionaryAttr({b.getNamedAttr("heuristic", b.getStringAttr(plan.heuristic)),
                              b.getNamedAttr("optimal", b.getBoolAttr(plan.optimal)),
                              b.getNamedAttr("lower_bound", b.getI64IntegerAttr(bounds.lowerBound)),
                              b.getNamedAttr("naive", b.getI64IntegerAttr(bounds.naive)),
                              b.getNamedAttr("peak", b.getArrayAttr(peak))});
}

struct MiePlanMemoryPass : impl::MiePlanMemoryPassBase<MiePlanMemoryPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    if (func.isPrivate()) {
      // The arena is an argument of the entry function; a private function would need it passed
      // through every call.
      if (!func.getBody().getOps<AllocOp>().empty()) {
        func.emitError("mie-plan-memory: buffers in private function '")
            << func.getSymName() << "' cannot be planned (only public functions own an arena)";
        return signalPassFailure();
      }
      return;
    }
    if (!func.getBody().hasOneBlock()) {
      func.emitError("mie-plan-memory expects a single-block function");
      return signalPassFailure();
    }
    Block &block = func.getBody().front();
    DenseMap<Operation *, int64_t> position;
    for (auto [index, op] : llvm::enumerate(block))
      position[&op] = index;

    SmallVector<AllocOp> allocs;
    std::vector<BufferRequest> requests;
    for (AllocOp alloc : llvm::make_early_inc_range(block.getOps<AllocOp>())) {
      if (alloc->use_empty()) {
        alloc.erase();
        continue;
      }
      BufferRequest req;
      req.size = bufferBytes(alloc.getType());
      // Never less than the element size, so every element access stays naturally aligned.
      req.alignment = std::max<int64_t>(
          alloc.getAlignment(),
          std::max<int64_t>(alloc.getType().getElementTypeBitWidth() / 8, 1));
      req.firstUse = INT64_MAX;
      req.lastUse = -1;
      // Uses of the buffer and of every view of it (collapse/expand/subview/...) keep it alive.
      SmallVector<Value> aliases = {alloc.getResult()};
      while (!aliases.empty()) {
        Value value = aliases.pop_back_val();
        for (Operation *user : value.getUsers()) {
          Operation *top = block.findAncestorOpInBlock(*user);
          if (!top || isa<func::ReturnOp, func::CallOp>(top)) {
            user->emitError("mie-plan-memory: buffer escapes its function through this op");
            return signalPassFailure();
          }
          req.firstUse = std::min(req.firstUse, position[top]);
          req.lastUse = std::max(req.lastUse, position[top]);
          if (top == user && isa<ViewLikeOpInterface>(user))
            llvm::append_range(aliases, user->getResults());
        }
      }
      allocs.push_back(alloc);
      requests.push_back(req);
    }

    ArenaPlan plan = planArena(requests);
    SmallVector<Location> allocLocs;
    for (AllocOp alloc : allocs)
      allocLocs.push_back(alloc.getLoc());
    MLIRContext *ctx = &getContext();
    auto arenaType = MemRefType::get({plan.totalBytes}, IntegerType::get(ctx, 8));
    unsigned argIndex = func.getNumArguments();
    if (failed(func.insertArgument(
            argIndex, arenaType,
            DictionaryAttr::get(ctx, {NamedAttribute(StringAttr::get(ctx, "mie.name"),
                                                     StringAttr::get(ctx, "arena"))}),
            func.getLoc())))
      return signalPassFailure();
    Value arena = func.getArgument(argIndex);
    for (auto [alloc, offset] : llvm::zip(allocs, plan.offsets)) {
      OpBuilder b(alloc);
      Value view = ViewOp::create(b, alloc.getLoc(), alloc.getType(), arena,
                                  b.getI64IntegerAttr(offset), UnitAttr());
      alloc.replaceAllUsesWith(view);
      alloc.erase();
    }
    func->setAttr(MieDialect::getArenaBytesAttrName(),
                  IntegerAttr::get(IntegerType::get(ctx, 64), plan.totalBytes));
    func->setAttr(MieDialect::getMemoryAttrName(), summarize(ctx, requests, allocLocs, plan));
  }
};

} // namespace
} // namespace mlir::mie
