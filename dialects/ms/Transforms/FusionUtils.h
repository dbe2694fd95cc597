//===- FusionUtils.h - shared pieces of the ms fusion passes ----*- C++ -*-===//
//
// Which ms ops count as elementwise for fusion, how a group of ops becomes an `ms.fused` op, and
// access to constant f32 data (for folding into weights and for matching constants in patterns).
//
//===----------------------------------------------------------------------===//

#ifndef MS_TRANSFORMS_FUSIONUTILS_H
#define MS_TRANSFORMS_FUSIONUTILS_H

#include "dialects/ms/IR/MsOps.h"

#include "mlir/IR/PatternMatch.h"

#include <optional>
#include <string>

namespace mlir::ms {

/// Whether `op` computes each result element from the operand elements at the same (broadcast)
/// position only, so that a chain of such ops can be one loop nest. The lowering of `ms.fused`
/// (convert-ms-to-mie) has a scalar body for exactly these ops.
bool isFusibleElementwise(Operation *op);

/// Whether `op` is a float reduce_sum/mean/max/min: the kind of reduction a fused group may end
/// in. Reads no symbolic dims, so a group's root is told by it while its values are converted.
bool isFloatReduction(Operation *op);

/// Whether `op` is a reduction that can root a fused group (isFloatReduction, its input's dims
/// known).
bool isFusibleReduction(Operation *op);

/// The kernel name of a group: member op names without the dialect prefix, joined by '_' (long
/// groups are shortened to their first ops and a count).
std::string fusedKernelName(ArrayRef<Operation *> members);

/// Moves `members` (in block order; the last one is the root, whose single result is the only value
/// used outside the group) into a new `ms.fused` op at the root's position and replaces the root's
/// uses. The fused op's location fuses the members' locations, so diagnostics and reports still name
/// the source nodes.
FusedOp wrapInFusedOp(RewriterBase &rewriter, ArrayRef<Operation *> members);

/// The fused location of the ops that compute `root` from `stops` (constants excluded): what a
/// recognized composite replaces, so reports and diagnostics still name every source node.
Location chainLoc(Operation *root, ValueRange stops);

/// The op of type OpTy defining `v`, if `v` is its result and has exactly one use (so that a
/// rewrite replacing the chain removes the op).
template <typename OpTy>
OpTy singleUseDef(Value v) {
  auto op = v.getDefiningOp<OpTy>();
  return op && op->hasOneUse() ? op : OpTy();
}

/// The value of a splat constant (ms.constant with a splat attribute or a one-element tensor), if
/// `v` is one.
std::optional<double> getSplatValue(Value v);

/// Whether `v` is a splat constant equal to `expected` within a relative tolerance of 1e-6.
bool isSplatNear(Value v, double expected);

/// The elements of an f32 `ms.constant` (dense or dense_resource), row-major, splats expanded.
std::optional<SmallVector<float>> readF32Constant(Value v);

/// A new `ms.constant` of `type` (f32) holding `values` in a new dense_resource blob.
Value createF32Constant(OpBuilder &b, Location loc, RankedTensorType type, ArrayRef<float> values,
                        StringRef blobName);

} // namespace mlir::ms

#endif // MS_TRANSFORMS_FUSIONUTILS_H
