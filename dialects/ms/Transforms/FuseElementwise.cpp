//===- FuseElementwise.cpp - the ms-fuse-elementwise pass -----------------===//
//
// Greedy grouping from the end of each block: every op not yet grouped that can be a root starts a
// group, which grows over producers by the legality rule stated in Passes.td until nothing more
// joins. Visiting roots in reverse order gives each producer to its last consumer's group first,
// which is the only group it can join (all its users must be members).
//
//===----------------------------------------------------------------------===//

#include "dialects/ms/Transforms/FusionUtils.h"

#include "dialects/ms/IR/MsSymbolicShapes.h"
#include "dialects/ms/Transforms/Passes.h"

namespace mlir::ms {
#define GEN_PASS_DEF_MSFUSEELEMENTWISEPASS
#include "dialects/ms/Transforms/Passes.h.inc"

namespace {

/// The value whose shape is the root's iteration space: its input for a reduction, its result
/// otherwise.
Value iterationValue(Operation *root) {
  return isFusibleReduction(root) ? root->getOperand(0) : root->getResult(0);
}

/// Grows the group of `root` over its producers, up to `maxOps` members; returns the members in
/// block order. Every member is legal on its own when it joins, so stopping early leaves a legal
/// group: the producers left out become roots of the next groups.
SmallVector<Operation *> growGroup(Operation *root, const DenseSet<Operation *> &taken,
                                   unsigned maxOps) {
  Value iteration = iterationValue(root);
  llvm::SetVector<Operation *> members;
  members.insert(root);
  bool changed = true;
  while (changed && members.size() < maxOps) {
    changed = false;
    for (size_t i = 0; i < members.size() && members.size() < maxOps; ++i) {
      for (Value operand : members[i]->getOperands()) {
        Operation *producer = operand.getDefiningOp();
        if (!producer || members.contains(producer) || taken.contains(producer) ||
            producer->getBlock() != root->getBlock() || producer->getNumResults() != 1 ||
            !isFusibleElementwise(producer) || !haveSameDims(operand, iteration))
          continue;
        if (!llvm::all_of(producer->getUsers(),
                          [&](Operation *user) { return members.contains(user); }))
          continue;
        members.insert(producer);
        changed = true;
        if (members.size() >= maxOps)
          break;
      }
    }
  }
  SmallVector<Operation *> ordered(members.begin(), members.end());
  llvm::sort(ordered, [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  return ordered;
}

struct MsFuseElementwisePass : impl::MsFuseElementwisePassBase<MsFuseElementwisePass> {
  using impl::MsFuseElementwisePassBase<MsFuseElementwisePass>::MsFuseElementwisePassBase;

  void runOnOperation() override {
    if (maxOps < 2) {
      getOperation().emitError() << "ms-fuse-elementwise: max-ops must be at least 2, got "
                                 << maxOps.getValue();
      return signalPassFailure();
    }
    IRRewriter rewriter(&getContext());
    SmallVector<SmallVector<Operation *>> groups;
    DenseSet<Operation *> taken;
    getOperation().walk([&](Block *block) {
      if (isa<FusedOp>(block->getParentOp()))
        return;
      for (Operation &op : llvm::reverse(*block)) {
        if (taken.contains(&op) || op.getNumResults() != 1)
          continue;
        auto type = dyn_cast<RankedTensorType>(op.getResult(0).getType());
        if (!type || !hasKnownDims(op.getResult(0)) ||
            !(isFusibleElementwise(&op) || isFusibleReduction(&op)))
          continue;
        SmallVector<Operation *> members = growGroup(&op, taken, maxOps);
        if (members.size() < 2)
          continue;
        taken.insert(members.begin(), members.end());
        groups.push_back(std::move(members));
      }
    });
    for (ArrayRef<Operation *> members : groups)
      wrapInFusedOp(rewriter, members);
  }
};

} // namespace
} // namespace mlir::ms
