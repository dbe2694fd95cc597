//===- MsConstantFold.h - evaluating ms ops on dense constants --*- C++ -*-===//
//
// The constant folders of ms ops share these evaluators: numpy broadcasting over dense constants
// with APInt/APFloat elements, and element selection (slices, gathers, transposes, concatenation).
// They let every computation on compile-time values (shape arithmetic above all) fold on `ms`, so
// the importer only builds ops and reads the folded constants back.
//
// Integer elements are read with the signedness of their type: `ui*` and `i1` are unsigned, the
// signless `i*` types are signed (ONNX's int8..int64).
//
//===----------------------------------------------------------------------===//

#ifndef MIE_DIALECTS_MS_IR_MSCONSTANTFOLD_H
#define MIE_DIALECTS_MS_IR_MSCONSTANTFOLD_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/APInt.h"

#include <optional>

namespace mlir::ms {

/// Largest constant a folder creates: folding is for shape arithmetic and small tables, and a
/// bigger result would only bloat the IR that weights already dominate.
constexpr int64_t kMaxFoldedElements = 1 << 16;

/// The dense contents of a folder operand, or null (not a constant, or a resource blob).
DenseElementsAttr getDenseConstant(Attribute attr);

/// Whether the integer elements of `type` compare, divide and extend as unsigned (`ui*`, `i1`).
bool isUnsignedInteger(Type type);

/// Evaluates an op on integer constants elementwise with numpy broadcasting to `resultType`.
/// `fn` gets one element per operand and returns the result element (of the result's width), or
/// nullopt to give up (a value the generated code defines differently, e.g. a division by zero).
Attribute foldIntElementwise(ArrayRef<Attribute> operands, Type resultType,
                             function_ref<std::optional<APInt>(ArrayRef<APInt>)> fn);

/// The same for floating-point operands with a floating-point result.
Attribute foldFloatElementwise(ArrayRef<Attribute> operands, Type resultType,
                               function_ref<std::optional<APFloat>(ArrayRef<APFloat>)> fn);

/// The same for floating-point operands with an integer (i1) result.
Attribute foldFloatToIntElementwise(ArrayRef<Attribute> operands, Type resultType,
                                    function_ref<std::optional<APInt>(ArrayRef<APFloat>)> fn);

/// Selects `condition ? onTrue : onFalse` elementwise with broadcasting.
Attribute foldSelect(Attribute condition, Attribute onTrue, Attribute onFalse, Type resultType);

/// Builds `resultType` from the elements of `inputs` (same element type): result element i is
/// element `source(i).second` (row-major) of input `source(i).first`. Used by data movement ops.
Attribute foldGather(ArrayRef<Attribute> inputs, Type resultType,
                     function_ref<std::pair<unsigned, int64_t>(int64_t)> source);

/// Converts a constant to `resultType`'s element type with ONNX Cast semantics; null where the
/// result is not defined (NaN or out-of-range float to integer).
Attribute foldCast(Attribute input, Type resultType);

/// Row-major strides of `shape`.
SmallVector<int64_t> rowMajorStrides(ArrayRef<int64_t> shape);

/// What folding an op whose operands are all constants gave: an existing value that is not a
/// dense constant (`value`; the op can go), a dense constant of the result's type (`constant`; the
/// caller materializes it and erases the op), or neither (keep the op).
struct ConstantOperandFold {
  Value value;
  DenseElementsAttr constant;
};

/// Folds single-result `op` on `operands` (its operands' constant values). `constantOf` reads a
/// value the fold returned as a dense constant (null when it is none): the importer and
/// ms-decompose's OpChain each know their constants their own way.
ConstantOperandFold foldOnConstantOperands(Operation *op, ArrayRef<Attribute> operands,
                                           function_ref<DenseElementsAttr(Value)> constantOf);

} // namespace mlir::ms

#endif // MIE_DIALECTS_MS_IR_MSCONSTANTFOLD_H
