//===- ScheduleForMemory.cpp - the mie-schedule-for-memory pass -----------===//

#include "dialects/mie/Transforms/ArenaPlanner.h"
#include "dialects/mie/Transforms/Passes.h"
#include "dialects/mie/Utils/BufferAliasing.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::mie {
#define GEN_PASS_DEF_MIESCHEDULEFORMEMORYPASS
#include "dialects/mie/Transforms/Passes.h.inc"

namespace {

/// Ops that only define values (views, constants, allocations): they move with their first user.
bool definesOnly(Operation &op) {
  return isa<AllocOp>(op) || (op.getNumRegions() == 0 && isMemoryEffectFree(&op));
}

/// One kernel (or other op with effects) to schedule and what it touches.
struct Step {
  Operation *op;
  SmallVector<size_t> buffers;   // indices of the mie.alloc buffers it touches
  SmallVector<size_t> dependsOn; // steps that must run before it
};

/// The most bytes alive at one step of `order` (a buffer from the first step touching it through
/// the last, inclusive): the lower bound mie-plan-memory will report for that order.
int64_t peakBytes(ArrayRef<Step> steps, ArrayRef<size_t> order, ArrayRef<int64_t> sizes) {
  std::vector<BufferRequest> requests(sizes.size());
  for (auto [buffer, req] : llvm::enumerate(requests)) {
    req.size = sizes[buffer];
    req.firstUse = INT64_MAX;
    req.lastUse = -1;
  }
  for (auto [position, step] : llvm::enumerate(order))
    for (size_t buffer : steps[step].buffers) {
      requests[buffer].firstUse = std::min<int64_t>(requests[buffer].firstUse, position);
      requests[buffer].lastUse = std::max<int64_t>(requests[buffer].lastUse, position);
    }
  llvm::erase_if(requests, [](const BufferRequest &req) { return req.lastUse < 0; });
  return arenaBounds(requests).lowerBound;
}

/// Greedy list scheduling: of the ready steps, the one adding the fewest live bytes.
SmallVector<size_t> scheduleGreedily(ArrayRef<Step> steps, ArrayRef<int64_t> sizes) {
  SmallVector<size_t> waitingOn(steps.size(), 0), usesLeft(sizes.size(), 0);
  SmallVector<SmallVector<size_t>> unblocks(steps.size());
  for (auto [index, step] : llvm::enumerate(steps)) {
    waitingOn[index] = step.dependsOn.size();
    for (size_t before : step.dependsOn)
      unblocks[before].push_back(index);
    for (size_t buffer : step.buffers)
      ++usesLeft[buffer];
  }
  SmallVector<bool> started(sizes.size(), false), done(steps.size(), false);
  SmallVector<size_t> order;
  while (order.size() < steps.size()) {
    size_t best = steps.size();
    int64_t bestDelta = INT64_MAX;
    for (size_t index = 0; index < steps.size(); ++index) {
      if (done[index] || waitingOn[index] != 0)
        continue;
      int64_t delta = 0;
      for (size_t buffer : steps[index].buffers) {
        if (!started[buffer])
          delta += sizes[buffer];
        if (usesLeft[buffer] == 1)
          delta -= sizes[buffer];
      }
      if (delta < bestDelta) {
        bestDelta = delta;
        best = index;
      }
    }
    assert(best < steps.size() && "dependencies form a cycle");
    done[best] = true;
    order.push_back(best);
    for (size_t buffer : steps[best].buffers) {
      started[buffer] = true;
      --usesLeft[buffer];
    }
    for (size_t next : unblocks[best])
      --waitingOn[next];
  }
  return order;
}

struct MieScheduleForMemoryPass : impl::MieScheduleForMemoryPassBase<MieScheduleForMemoryPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal() || func.isPrivate() || !func.getBody().hasOneBlock())
      return;
    Block &block = func.getBody().front();

    // The buffers whose lifetimes the order decides.
    DenseMap<Value, size_t> bufferIndex;
    SmallVector<int64_t> sizes;
    for (AllocOp alloc : block.getOps<AllocOp>()) {
      std::optional<ByteRange> bytes = bytesOf(alloc.getResult());
      if (!bytes)
        return;
      bufferIndex[alloc.getResult()] = sizes.size();
      sizes.push_back(bytes->end - bytes->begin);
    }

    // Steps and their dependencies, through the buffers (roots) they read and write.
    SmallVector<Step> steps;
    DenseMap<Operation *, size_t> stepOf;
    DenseMap<Value, size_t> lastWriter;
    DenseMap<Value, SmallVector<size_t>> readersSinceWrite;
    std::optional<size_t> lastBarrier;
    SmallVector<size_t> sinceBarrier;
    for (Operation &op : block.without_terminator()) {
      if (definesOnly(op)) {
        // A value computed from a step's result would have to move with it: keep the order.
        for (Value operand : op.getOperands())
          if (Operation *def = operand.getDefiningOp(); def && stepOf.count(def))
            return;
        continue;
      }
      const size_t index = steps.size();
      Step step{&op, {}, {}};
      auto addDependency = [&](size_t before) {
        if (!llvm::is_contained(step.dependsOn, before))
          step.dependsOn.push_back(before);
      };
      if (lastBarrier)
        addDependency(*lastBarrier);
      auto kernel = dyn_cast<KernelOp>(op);
      SmallVector<std::pair<Value, bool>> accesses; // (root, writes)
      bool known = kernel != nullptr;
      if (kernel) {
        for (auto [position, operand] : llvm::enumerate(kernel->getOperands())) {
          std::optional<ByteRange> bytes = bytesOf(operand);
          if (!bytes) {
            known = false;
            break;
          }
          accesses.push_back({bytes->root, position >= kernel.getInputs().size()});
        }
      }
      if (!known) {
        // Unknown effects: after everything before it, before everything after it.
        for (size_t before : sinceBarrier)
          addDependency(before);
        op.walk([&](Operation *nested) {
          for (Value operand : nested->getOperands())
            if (auto it = bufferIndex.find(operand); it != bufferIndex.end())
              step.buffers.push_back(it->second);
        });
        lastBarrier = index;
        sinceBarrier.clear();
      } else {
        for (auto [root, writes] : accesses) {
          if (auto it = lastWriter.find(root); it != lastWriter.end())
            addDependency(it->second);
          if (writes) {
            for (size_t reader : readersSinceWrite[root])
              addDependency(reader);
            readersSinceWrite[root].clear();
          }
          if (auto it = bufferIndex.find(root); it != bufferIndex.end())
            step.buffers.push_back(it->second);
        }
        for (auto [root, writes] : accesses) {
          if (writes)
            lastWriter[root] = index;
          else
            readersSinceWrite[root].push_back(index);
        }
        sinceBarrier.push_back(index);
      }
      llvm::sort(step.buffers);
      step.buffers.erase(std::unique(step.buffers.begin(), step.buffers.end()),
                         step.buffers.end());
      stepOf[&op] = index;
      steps.push_back(std::move(step));
    }
    if (steps.size() < 3)
      return;

    SmallVector<size_t> current(steps.size());
    std::iota(current.begin(), current.end(), 0);
    SmallVector<size_t> order = scheduleGreedily(steps, sizes);
    const int64_t before = peakBytes(steps, current, sizes), after = peakBytes(steps, order, sizes);
    // For the memory report: the peak of live bytes in the given order and in the one kept.
    func->setAttr(MieDialect::getSchedulePeakAttrName(),
                  DenseI64ArrayAttr::get(&getContext(), {before, std::min(before, after)}));
    if (after >= before)
      return;

    // Rebuild the block: each step after the ops defining its operands (moved with it).
    Operation *terminator = block.getTerminator();
    DenseSet<Operation *> placed;
    std::function<void(Operation *)> place = [&](Operation *op) {
      if (!placed.insert(op).second)
        return;
      op->walk([&](Operation *nested) {
        for (Value operand : nested->getOperands())
          if (Operation *def = operand.getDefiningOp(); def && def->getBlock() == &block)
            place(def);
      });
      op->moveBefore(terminator);
    };
    SmallVector<Operation *> original = llvm::map_to_vector(
        block.without_terminator(), [](Operation &op) { return &op; });
    for (size_t step : order)
      place(steps[step].op);
    // Ops no step uses keep their relative order, at the end.
    for (Operation *op : original)
      place(op);
  }
};

} // namespace
} // namespace mlir::mie
