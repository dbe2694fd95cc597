//===- EpilogueChain.h - what a library kernel can apply after its product -*- C++ -*-===//
//
// The one definition of an epilogue chain at the ms level, shared by the fusion pass (which groups
// the chain) and the lowering of the group (which turns it into a library kernel's epilogue), so the
// two cannot disagree about what fits.
//
//===----------------------------------------------------------------------===//

#ifndef MS_TRANSFORMS_EPILOGUECHAIN_H
#define MS_TRANSFORMS_EPILOGUECHAIN_H

#include "dialects/ms/IR/MsOps.h"

#include <optional>

namespace mlir::ms {

/// An anchor (conv2d, gemm, matmul) and the ops after it that an epilogue applies, in the
/// epilogue's order: bias, residual, activation, clamp.
struct EpilogueChain {
  Operation *anchor = nullptr;
  /// The anchor's own bias (conv2d bias, gemm rank-1 `c`) or the operand of a bias add.
  Value bias;
  /// The operand of a residual add (the result's shape).
  Value residual;
  /// The mie activation name ("relu", "relu6", "sigmoid", "hard_sigmoid", "hard_swish", "silu",
  /// "gelu", "gelu_tanh", "tanh"), empty for none.
  StringRef activation;
  std::optional<std::pair<double, double>> clamp;
  /// The anchor and every op of the chain, in order; the last one's result is the chain's value.
  SmallVector<Operation *> members;
};

/// Whether `op` can anchor an epilogue chain: a float conv2d, a gemm whose `c` is absent or a
/// rank-1 bias with beta 1, or a matmul whose right operand is a matrix and left operand has rank
/// >= 2 (the leading dims are rows of one GEMM).
bool isEpilogueAnchor(Operation *op);

/// Follows single users from `anchor` and returns the longest chain that fits an epilogue.
EpilogueChain matchEpilogueChain(Operation *anchor);

} // namespace mlir::ms

#endif // MS_TRANSFORMS_EPILOGUECHAIN_H
