//===- MsSymbolicShapes.h - dims as expressions of a function's symbols -*- C++ -*-===//
//
// A model exported with dynamic axes keeps them: its `ms` function types those dims `?`, lists
// the names of its symbols (`batch`, `seq`) in the `ms.symbols` attribute, and gives each
// argument's dims as an affine map over those symbols in the argument attribute `ms.shape`
// (`affine_map<()[s0, s1] -> (s0, s1, 768)>`). Every other value's dims follow from its op:
// `SymbolicShapes` computes them on demand as AffineExprs over the same symbols (constants for
// static dims; products such as `s0 * s1` allowed), so that two `?` dims are known equal when
// their expressions are, and an op whose shape comes from a computed size (a Reshape to
// [batch, seq, 12, 64]) can say what that size is (docs/dynamic-shapes.md).
//
// A `?` dim no rule here explains has a null expression: what needs it reports it.
//
//===----------------------------------------------------------------------===//

#ifndef MS_IR_MSSYMBOLICSHAPES_H
#define MS_IR_MSSYMBOLICSHAPES_H

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Allocator.h"

#include <optional>

namespace mlir::ms {

/// The function attribute naming the symbols (an array of strings; `s<i>` is the i-th name).
inline constexpr llvm::StringLiteral kSymbolsAttrName = "ms.symbols";
/// The argument attribute giving an argument's dims over the function's symbols.
inline constexpr llvm::StringLiteral kArgShapeAttrName = "ms.shape";
/// The function attribute listing its value symbols: triples (symbol, argument, element), the
/// symbol being element `element` (row-major) of integer argument `argument` (a Reshape's shape
/// given as a graph input), bound from a run's data rather than its shapes.
inline constexpr llvm::StringLiteral kValueSymbolsAttrName = "ms.value_symbols";
/// The function attribute listing the graph inputs whose value symbols are a Reshape's result dims
/// as ONNX resolves them (0 copies the reshaped tensor's dim, -1 infers one): an array of
/// dictionaries {input: the argument, dims: the reshaped tensor's dims over the symbols (a map
/// with no dims), allowzero: whether 0 is a size of 0}.
inline constexpr llvm::StringLiteral kReshapedValueSymbolsAttrName = "ms.reshaped_value_symbols";
/// The function attribute listing the graph inputs whose value symbols are axes (a Squeeze's,
/// Unsqueeze's or Reduce*'s given as an input): an array of dictionaries {input: the argument,
/// rank: the rank negative axes count from}; each symbol is its element once the input's values
/// are made non-negative and sorted.
inline constexpr llvm::StringLiteral kAxesValueSymbolsAttrName = "ms.axes_value_symbols";
/// The function attribute listing value symbols that an Expand broadcasts against a size: pairs
/// (symbol, size), the symbol's value 1 meaning `size` (the result's dim).
inline constexpr llvm::StringLiteral kBroadcastValueSymbolsAttrName = "ms.broadcast_value_symbols";
/// The function attribute giving value symbols the value the model's declared output shapes say
/// they take: pairs (symbol, value).
inline constexpr llvm::StringLiteral kDeclaredSymbolValuesAttrName = "ms.declared_symbol_values";

/// The shape `exprs` as a map with no dims over `numSymbols` symbols.
AffineMap symbolicShapeMap(MLIRContext *ctx, unsigned numSymbols, ArrayRef<AffineExpr> exprs);

/// Sizes of an op that takes symbolic ones (every expression non-null): the static entries, `?`
/// where an expression is not a constant, and the map of all of them over `numSymbols` symbols
/// (null when every size is static, so a static op is built as before).
std::pair<SmallVector<int64_t>, AffineMapAttr>
staticAndSymbolic(MLIRContext *ctx, unsigned numSymbols, ArrayRef<AffineExpr> sizes);

/// The same over the symbols of the function holding `op` (a rewrite's op).
std::pair<SmallVector<int64_t>, AffineMapAttr> staticAndSymbolic(Operation *op,
                                                                 ArrayRef<AffineExpr> sizes);

/// Numpy broadcasting of two dims: equal ones stay, 1 takes the other; null where they may differ
/// at run time (two different expressions, a symbol against a size) or either is unknown.
AffineExpr broadcastDim(AffineExpr a, AffineExpr b);

/// `a / b` when `b` divides `a` exactly as polynomials of the symbols (a constant, or a product
/// of symbols and a constant: `s0 * s1 * 768 / (s1 * 12)` is `s0 * 64`); null otherwise.
AffineExpr divideExactly(AffineExpr a, AffineExpr b);

/// The symbolic dims of the values of one function (the op that holds `ms.symbols`).
class SymbolicShapes {
public:
  explicit SymbolicShapes(Operation *function);

  unsigned numSymbols() const { return symbolNames.size(); }
  ArrayRef<StringRef> symbols() const { return symbolNames; }
  MLIRContext *context() const { return ctx; }

  /// The dims of `value` (a ranked tensor): constants where its type is static, the symbols'
  /// expression where the function's attributes or the producing op say, null where nothing does.
  /// The array lives as long as this object: later queries do not move it.
  ArrayRef<AffineExpr> dims(Value value);

  /// True when every dim of `value` has an expression.
  bool isResolved(Value value);

  /// `expr` as a user reads it: the symbols by their names (`batch * seq + 1`), `?` for null.
  std::string format(AffineExpr expr) const;

private:
  SmallVector<AffineExpr> compute(Value value);
  void computeWithOperands(Value value);
  SmallVector<AffineExpr> fromOp(Operation *op, unsigned resultIndex, ArrayRef<int64_t> shape);

  MLIRContext *ctx;
  SmallVector<StringRef> symbolNames;
  Operation *function;
  // Each value's dims are copied once into `storage`, so the ArrayRefs handed out stay valid while
  // later queries grow the map (a map of SmallVectors would move them).
  llvm::BumpPtrAllocator storage;
  llvm::DenseMap<Value, ArrayRef<AffineExpr>> cache;
};

/// The dims of `v` over the symbols of the function that holds it, computed afresh (passes
/// rewrite the IR between queries, so nothing is cached across them).
SmallVector<AffineExpr> symbolicDimsOf(Value v);

/// Whether every dim of `v` is static or an expression of the function's symbols: the shapes
/// the fusion and lowering passes take (for a static function: a static shape).
bool hasKnownDims(Value v);

/// Whether `a` and `b` have the same dims, static or symbolic: the static test of two types'
/// shapes being equal, which `?` alone cannot answer (two `?` may be `batch` and `seq`, or one
/// of them 1 at run time and broadcast).
bool haveSameDims(Value a, Value b);

} // namespace mlir::ms

#endif // MS_IR_MSSYMBOLICSHAPES_H
