//===- ProgramOrder.cpp - program points of a function with loops ---------===//

#include "dialects/mie/Utils/ProgramOrder.h"

#include "dialects/mie/IR/MieOps.h"

#include "mlir/Interfaces/LoopLikeInterface.h"

using namespace mlir;
using namespace mlir::mie;

ProgramOrder::ProgramOrder(Region &body) { number(body); }

void ProgramOrder::number(Region &region) {
  for (Block &block : region) {
    for (Operation &op : block) {
      position[&op] = int64_t(order.size());
      order.push_back(&op);
      if (op.getNumRegions() == 0 || isa<KernelOp>(op))
        continue;
      for (Region &nested : op.getRegions())
        number(nested);
      lastNested[&op] = int64_t(order.size()) - 1;
    }
  }
}

Operation *ProgramOrder::numberedAncestor(Operation *op) const {
  for (; op; op = op->getParentOp())
    if (position.count(op))
      return op;
  return nullptr;
}

int64_t ProgramOrder::positionOf(Operation *op) const {
  Operation *numbered = numberedAncestor(op);
  return numbered ? position.lookup(numbered) : -1;
}

std::pair<int64_t, int64_t> ProgramOrder::useRange(Operation *def, Operation *user) const {
  Operation *at = numberedAncestor(user);
  int64_t first = position.lookup(at), last = first;
  for (Operation *parent = at->getParentOp(); parent && position.count(parent);
       parent = parent->getParentOp()) {
    if (parent->isAncestor(def))
      break;
    if (isa<LoopLikeOpInterface>(parent)) {
      first = std::min(first, position.lookup(parent));
      last = std::max(last, lastNested.lookup(parent));
    }
  }
  return {first, last};
}
