//===- ProgramOrder.h - program points of a function with loops -*- C++ -*-===//
//
// Buffer lifetimes are intervals of program points. In a function whose body holds control flow
// (scf.if / scf.for / scf.while around kernels, from ONNX If, Loop and Scan), every op outside
// kernel bodies gets a point in pre-order (a region op before the ops of its regions), and a use
// inside a loop of a buffer defined outside that loop keeps the buffer alive over the whole loop:
// every iteration reads what the previous one left there (loop-carried values, scan outputs,
// captured values), so nothing inside the loop may share its bytes. Buffers defined inside a loop
// body live within one iteration and are planned like straight-line code.
//
//===----------------------------------------------------------------------===//

#ifndef MIE_UTILS_PROGRAMORDER_H
#define MIE_UTILS_PROGRAMORDER_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/Region.h"
#include "llvm/ADT/DenseMap.h"

namespace mlir::mie {

class ProgramOrder {
public:
  /// Numbers the ops of `body` and of the regions of its ops, except the bodies of kernels
  /// (isolated: their ops touch only the kernel's arguments).
  explicit ProgramOrder(Region &body);

  /// The ops by point.
  ArrayRef<Operation *> ops() const { return order; }
  /// The point of `op`, or of its closest numbered ancestor; -1 when neither has one.
  int64_t positionOf(Operation *op) const;
  /// The numbered op that `op` is or is nested in (null when none).
  Operation *numberedAncestor(Operation *op) const;
  /// The points at which a use by `user` keeps alive a buffer defined by `def`: the user's point,
  /// widened to the whole of every loop around the user that does not also hold `def`.
  std::pair<int64_t, int64_t> useRange(Operation *def, Operation *user) const;

private:
  void number(Region &region);

  SmallVector<Operation *> order;
  DenseMap<Operation *, int64_t> position;
  DenseMap<Operation *, int64_t> lastNested; // region ops: the point of their last nested op
};

} // namespace mlir::mie

#endif // MIE_UTILS_PROGRAMORDER_H
