//===- SymbolicDims.h - dims of code for symbolic dims as expressions -*- C++ -*-===//
//
// Code for every shape in the symbols' ranges (docs/dynamic-shapes.md) sizes its buffers and
// loops from `mie.symbol` values. The passes that decide at compile time (memory planning, tile
// choice) read those sizes back as affine expressions of the symbols and evaluate them over the
// ranges the function records (`mie.symbol_ranges`).
//
//===----------------------------------------------------------------------===//

#ifndef MIE_UTILS_SYMBOLICDIMS_H
#define MIE_UTILS_SYMBOLICDIMS_H

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <utility>
#include <vector>

namespace mlir::mie {

/// `v` (an index) as an expression of the function's symbols, when it is computed from
/// `mie.symbol`s and constants by affine.apply, or is a `memref.dim` of a buffer whose dim is one
/// (dimExpr); null otherwise.
AffineExpr symbolicExpr(Value v);

/// `v` as the least of expressions of the function's symbols: those of an affine.min's results
/// over such operands, else symbolicExpr alone; empty where it is none of these.
SmallVector<AffineExpr> symbolicMinExprs(Value v);

/// The least of `map`'s results over `operands`: an affine.apply where it has one result, else an
/// affine.min (what symbolicMinExprs reads back).
Value createLeast(OpBuilder &b, Location loc, AffineMap map, ValueRange operands);

/// Dim `d` of `buffer` as an expression of the function's symbols: a constant for a static dim;
/// for a dynamic one, the size a `mie.alloc` was given, followed through collapse_shape,
/// expand_shape and function arguments (`ms.shape`); null where it is none of these.
AffineExpr dimExpr(Value buffer, int64_t d);

/// `expr` at the symbols' `values` (0 where it does not fold to a constant).
int64_t evaluateSymbolic(AffineExpr expr, ArrayRef<int64_t> values);

/// The shapes a decision for every shape in the ranges (array<i64: lo0, hi0, lo1, hi1, ...>) is
/// taken on: every corner and the middle (with more than four symbols: all low, all high, the
/// middle, and each symbol high alone).
std::vector<std::vector<int64_t>> rangeSamples(ArrayRef<int64_t> ranges);

/// The least and the largest value of dim `d` of `buffer` over the samples of the ranges of the
/// function around it; none where the dim is no expression of the symbols or the function has no
/// ranges. Sizes grow with the symbols in the expressions shapes make (products, sums, windows),
/// so the corners bound them.
std::optional<std::pair<int64_t, int64_t>> dimBounds(Value buffer, int64_t d);

} // namespace mlir::mie

#endif // MIE_UTILS_SYMBOLICDIMS_H
