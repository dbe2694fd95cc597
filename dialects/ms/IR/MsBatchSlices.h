//===- MsBatchSlices.h - symbols whose dim a run may take in slices -*- C++ -*-===//
//
// A CNN or an encoder computes each sample of its batch on its own: the outputs for samples
// [i, j) depend on the inputs' samples [i, j) only. Where a function with symbolic dims proves
// that of a symbol (every input and output holds the symbol in its first dim, and no op mixes
// samples), the runtime may run a large batch as several runs over slices of it, each one's
// activations small enough to stay in the cache (docs/dynamic-shapes.md, "Batch slices"):
// mobilenet_v2 at batch 32 streamed its 190 MB of activations through memory and ran 1.2x
// slower per image than at batch 1.
//
//===----------------------------------------------------------------------===//

#ifndef MS_IR_MSBATCHSLICES_H
#define MS_IR_MSBATCHSLICES_H

#include "mlir/IR/Operation.h"

#include <optional>

namespace mlir::ms {

/// The symbol of `function` (its position in `ms.symbols`) along which its samples are
/// independent, or none:
///  - every argument is free of the symbol or holds it in dim 0 only, and some argument's dim 0 is
///    the symbol itself (a run's inputs bind it); every result holds it in dim 0 only;
///  - "holds it in dim 0 only": dim 0 is the symbol times a factor free of it (`batch`,
///    `batch * seq`: each sample one contiguous block), no other dim uses it;
///  - every op that reads such a value is one that computes sample by sample (elementwise ops,
///    convolutions and pools, products with a free operand or batched over dim 0, attention,
///    normalizations and reductions over other dims, layout changes that keep dim 0 in front,
///    embedding gathers, slices, concats and splits along other dims), and only broadcasts make
///    such a value from free ones; nothing reads the symbol's value (a shape computation, a
///    range over it) and nothing draws random numbers (a slice's run would draw other ones).
/// The first such symbol in order where several are.
std::optional<unsigned> findBatchSliceSymbol(Operation *function);

} // namespace mlir::ms

#endif // MS_IR_MSBATCHSLICES_H
