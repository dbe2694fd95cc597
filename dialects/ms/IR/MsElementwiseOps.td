//===- MsElementwiseOps.td - unary, binary, compare, where, cast ----------===//

#ifndef MS_ELEMENTWISE_OPS_TD
#define MS_ELEMENTWISE_OPS_TD

include "dialects/ms/IR/MsBase.td"

//===----------------------------------------------------------------------===//
// Broadcasting binary ops
//===----------------------------------------------------------------------===//

// Numpy/ONNX multidirectional broadcasting: shapes are right-aligned; each pair of dims must be equal or
// one of them 1. Both operands have the same element type.
class Ms_BinaryOp<string mnemonic, string what, list<Trait> traits = [],
                  TypeConstraint tensorType = Ms_NumericTensor>
    : Ms_InferredOp<mnemonic, traits> {
  let summary = "Elementwise " # what # " with numpy broadcasting.";
  let description = [{
    Computes `lhs }] # what # [{ rhs` elementwise after broadcasting both operands to a common shape
    (ONNX multidirectional broadcasting). Operands must share the element type.

    Example:
    ```mlir
    %r = ms.}] # mnemonic # [{ %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
    ```
  }];
  let arguments = (ins tensorType:$lhs, tensorType:$rhs);
  let results = (outs tensorType:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
}

def Ms_AddOp : Ms_BinaryOp<"add", "+", [Commutative]>;
def Ms_SubOp : Ms_BinaryOp<"sub", "-">;
def Ms_MulOp : Ms_BinaryOp<"mul", "*", [Commutative]>;
def Ms_DivOp : Ms_BinaryOp<"div", "/"> {
  let description = [{
    Computes `lhs / rhs` elementwise after broadcasting both operands to a common shape (ONNX
    multidirectional broadcasting). Operands must share the element type. Integers truncate toward
    zero; where ONNX leaves the result undefined the generated code gives numpy's value and never
    traps: x / 0 is 0, and the most negative value divided by -1 wraps to itself.

    Example:
    ```mlir
    %r = ms.div %a, %b : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
    ```
  }];
}
def Ms_PowOp : Ms_BinaryOp<"pow", "to the power of"> {
  // Constant small exponents (2, 3, 0.5, -1, -0.5) become multiplies, sqrt, reciprocal or rsqrt:
  // exact where the general exp(y * log|x|) form is not, and cheaper.
  let hasCanonicalizeMethod = 1;
}
def Ms_MaxOp : Ms_BinaryOp<"max", "maximum with", [Commutative]>;
def Ms_MinOp : Ms_BinaryOp<"min", "minimum with", [Commutative]>;

def Ms_ModOp : Ms_BinaryOp<"mod", "modulo"> {
  let description = [{
    Computes the remainder of `lhs / rhs` elementwise after broadcasting (ONNX Mod). Without `fmod`
    the result takes the sign of the divisor (Python's `%`, integers only); with `fmod` it takes the
    sign of the dividend (C's `fmod`), which floating-point operands require. An integer remainder
    by 0 is 0 (numpy's value; ONNX leaves it undefined), never a trap.

    Example:
    ```mlir
    %r = ms.mod %a, %b : (tensor<6xi32>, tensor<6xi32>) -> tensor<6xi32>
    %f = ms.mod %x, %y {fmod} : (tensor<6xf32>, tensor<f32>) -> tensor<6xf32>
    ```
  }];
  let arguments = (ins Ms_NumericTensor:$lhs, Ms_NumericTensor:$rhs, UnitAttr:$fmod);
}

// Bitwise ops on integers; on i1 they are the logical ops (ONNX And/Or/Xor and BitwiseAnd/...).
class Ms_BitwiseOp<string mnemonic, string what, list<Trait> traits = []>
    : Ms_BinaryOp<mnemonic, what, traits, Ms_IntegerTensor> {
  let description = [{
    Computes `lhs }] # what # [{ rhs` bitwise on integers after broadcasting both operands to a
    common shape; on `i1` this is the logical operation. Operands must share the element type.

    Example:
    ```mlir
    %r = ms.}] # mnemonic # [{ %a, %b : (tensor<3x4xi1>, tensor<4xi1>) -> tensor<3x4xi1>
    %s = ms.}] # mnemonic # [{ %c, %d : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi32>
    ```
  }];
}

def Ms_AndOp : Ms_BitwiseOp<"and", "&", [Commutative]>;
def Ms_OrOp : Ms_BitwiseOp<"or", "|", [Commutative]>;
def Ms_XorOp : Ms_BitwiseOp<"xor", "^", [Commutative]>;
// Shifts treat the elements as unsigned (ONNX BitShift is defined on unsigned types only): bits
// shifted in are 0, and a shift by the bit width or more gives 0.
def Ms_ShiftLeftOp : Ms_BitwiseOp<"shift_left", "<<">;
def Ms_ShiftRightOp : Ms_BitwiseOp<"shift_right", ">> (logical)">;

def Ms_CompareOp : Ms_InferredOp<"compare"> {
  let summary = "Elementwise comparison with numpy broadcasting, producing i1.";
  let description = [{
    Compares `lhs` and `rhs` elementwise with `predicate` (eq, ne, lt, le, gt, ge) after broadcasting.
    The result has element type `i1`. Operands must share the element type.

    Example:
    ```mlir
    %m = ms.compare lt, %a, %b : (tensor<4xf32>, tensor<1xf32>) -> tensor<4xi1>
    ```
  }];
  let arguments = (ins Ms_ComparePredicate:$predicate, Ms_Tensor:$lhs, Ms_Tensor:$rhs);
  let results = (outs Ms_BoolTensor:$result);
  let assemblyFormat = [{
    $predicate `,` $lhs `,` $rhs attr-dict `:` functional-type(operands, results)
  }];
  let hasFolder = 1;
}

def Ms_WhereOp : Ms_InferredOp<"where"> {
  let summary = "Elementwise select between two tensors by an i1 condition, with broadcasting.";
  let description = [{
    `result[i] = condition[i] ? on_true[i] : on_false[i]` after broadcasting all three operands to a
    common shape. `on_true` and `on_false` share the element type, which is the result's.

    Example:
    ```mlir
    %r = ms.where %c, %x, %y : (tensor<4x4xi1>, tensor<4x4xf32>, tensor<f32>) -> tensor<4x4xf32>
    ```
  }];
  let arguments = (ins Ms_BoolTensor:$condition, Ms_Tensor:$on_true, Ms_Tensor:$on_false);
  let results = (outs Ms_Tensor:$result);
  let assemblyFormat = [{
    $condition `,` $on_true `,` $on_false attr-dict `:` functional-type(operands, results)
  }];
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Unary ops
//===----------------------------------------------------------------------===//

class Ms_UnaryOp<string mnemonic, string what, TypeConstraint tensorType = Ms_FloatTensor,
                 list<Trait> traits = []>
    : Ms_Op<mnemonic, !listconcat([Pure, SameOperandsAndResultType, InferTypeOpInterface], traits)> {
  let summary = "Elementwise " # what # ".";
  let description = [{
    Applies }] # what # [{ to every element; the result has the operand's type.

    Example:
    ```mlir
    %r = ms.}] # mnemonic # [{ %x : tensor<1x64xf32>
    ```
  }];
  let arguments = (ins tensorType:$input);
  let results = (outs tensorType:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
}

// Unary ops with a constant folder (see MsElementwiseOps.cpp).
class Ms_FoldableUnaryOp<string mnemonic, string what, TypeConstraint tensorType = Ms_FloatTensor>
    : Ms_UnaryOp<mnemonic, what, tensorType> {
  let hasFolder = 1;
}

def Ms_ReluOp : Ms_FoldableUnaryOp<"relu", "max(x, 0)", Ms_NumericTensor>;
def Ms_SigmoidOp : Ms_FoldableUnaryOp<"sigmoid", "the logistic function 1 / (1 + exp(-x))">;
def Ms_HardSwishOp : Ms_FoldableUnaryOp<"hard_swish", "x * relu6(x + 3) / 6">;
def Ms_TanhOp : Ms_FoldableUnaryOp<"tanh", "the hyperbolic tangent">;
def Ms_ErfOp : Ms_FoldableUnaryOp<"erf", "the Gauss error function">;
def Ms_ExpOp : Ms_FoldableUnaryOp<"exp", "the natural exponential">;
def Ms_LogOp : Ms_FoldableUnaryOp<"log", "the natural logarithm">;
def Ms_SqrtOp : Ms_FoldableUnaryOp<"sqrt", "the square root">;
def Ms_RsqrtOp : Ms_FoldableUnaryOp<"rsqrt", "the reciprocal square root 1 / sqrt(x)">;
def Ms_NegOp : Ms_FoldableUnaryOp<"neg", "negation", Ms_NumericTensor>;
def Ms_AbsOp : Ms_FoldableUnaryOp<"abs", "the absolute value", Ms_NumericTensor>;
def Ms_ReciprocalOp : Ms_FoldableUnaryOp<"reciprocal", "1 / x">;

// Rounding folds: it appears in shape arithmetic (Resize sizes computed from scales).
def Ms_FloorOp : Ms_FoldableUnaryOp<"floor", "rounding down to an integer">;
def Ms_CeilOp : Ms_FoldableUnaryOp<"ceil", "rounding up to an integer">;
def Ms_RoundOp : Ms_FoldableUnaryOp<"round", "rounding to the nearest integer, halves to even">;
// Sign and trigonometric / hyperbolic functions: no folders, they appear on activations, not on
// the constant shape arithmetic that folding is for.
def Ms_SignOp : Ms_UnaryOp<"sign", "the sign (-1, 0 or 1; NaN stays NaN)", Ms_NumericTensor>;
def Ms_SinOp : Ms_UnaryOp<"sin", "the sine">;
def Ms_CosOp : Ms_UnaryOp<"cos", "the cosine">;
def Ms_TanOp : Ms_UnaryOp<"tan", "the tangent">;
def Ms_AsinOp : Ms_UnaryOp<"asin", "the arcsine">;
def Ms_AcosOp : Ms_UnaryOp<"acos", "the arccosine">;
def Ms_AtanOp : Ms_UnaryOp<"atan", "the arctangent">;
def Ms_SinhOp : Ms_UnaryOp<"sinh", "the hyperbolic sine">;
def Ms_CoshOp : Ms_UnaryOp<"cosh", "the hyperbolic cosine">;
def Ms_AsinhOp : Ms_UnaryOp<"asinh", "the inverse hyperbolic sine">;
def Ms_AcoshOp : Ms_UnaryOp<"acosh", "the inverse hyperbolic cosine">;
def Ms_AtanhOp : Ms_UnaryOp<"atanh", "the inverse hyperbolic tangent">;
def Ms_NotOp : Ms_UnaryOp<"not", "bitwise not (logical not on i1)", Ms_IntegerTensor> {
  let description = [{
    Flips every bit of every element; on `i1` this is the logical not (ONNX Not and BitwiseNot).

    Example:
    ```mlir
    %r = ms.not %m : tensor<4x8xi1>
    ```
  }];
  let hasFolder = 1;
}

def Ms_ClipOp : Ms_UnaryOp<"clip", "clamping to [min, max]", Ms_NumericTensor> {
  let description = [{
    Clamps every element to `[min, max]` (ONNX Clip; relu6 is `min = 0, max = 6`). Either bound may be
    omitted, meaning unbounded on that side; `min <= max` is required when both are present.

    Example:
    ```mlir
    %r = ms.clip %x {min = 0.0 : f64, max = 6.0 : f64} : tensor<1x32x112x112xf32>
    ```
  }];
  let arguments = (ins Ms_NumericTensor:$input, OptionalAttr<F64Attr>:$min, OptionalAttr<F64Attr>:$max);
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Ms_HardSigmoidOp : Ms_UnaryOp<"hard_sigmoid", "max(0, min(1, alpha * x + beta))"> {
  let description = [{
    Computes `max(0, min(1, alpha * x + beta))` elementwise (ONNX HardSigmoid defaults: alpha 0.2,
    beta 0.5; PyTorch's hardsigmoid uses alpha 1/6).

    Example:
    ```mlir
    %r = ms.hard_sigmoid %x {alpha = 0.2 : f64, beta = 0.5 : f64} : tensor<8xf32>
    ```
  }];
  let arguments = (ins Ms_FloatTensor:$input, DefaultValuedAttr<F64Attr, "0.2">:$alpha,
                   DefaultValuedAttr<F64Attr, "0.5">:$beta);
  let hasVerifier = 1;
}

def Ms_GeluOp : Ms_UnaryOp<"gelu", "the Gaussian error linear unit"> {
  let description = [{
    Computes GELU: exact `0.5 * x * (1 + erf(x / sqrt(2)))`, or with `approximate` set, the tanh form
    `0.5 * x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x^3)))`.

    Example:
    ```mlir
    %e = ms.gelu %x : tensor<1x128x3072xf32>
    %t = ms.gelu %x {approximate} : tensor<1x128x3072xf32>
    ```
  }];
  let arguments = (ins Ms_FloatTensor:$input, UnitAttr:$approximate);
}

//===----------------------------------------------------------------------===//
// Floating-point classification
//===----------------------------------------------------------------------===//

def Ms_IsNanOp : Ms_InferredOp<"is_nan"> {
  let summary = "Elementwise test for NaN, producing i1.";
  let description = [{
    `result[i]` is true where `input[i]` is a NaN. The result has the input's shape and element
    type `i1`.

    Example:
    ```mlir
    %m = ms.is_nan %x : tensor<4xf32> -> tensor<4xi1>
    ```
  }];
  let arguments = (ins Ms_FloatTensor:$input);
  let results = (outs Ms_BoolTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
}

def Ms_IsInfOp : Ms_InferredOp<"is_inf"> {
  let summary = "Elementwise test for infinities, producing i1.";
  let description = [{
    `result[i]` is true where `input[i]` is +inf (if `detect_positive`) or -inf (if
    `detect_negative`); both default to true (ONNX IsInf).

    Example:
    ```mlir
    %m = ms.is_inf %x {detect_negative = false} : tensor<4xf32> -> tensor<4xi1>
    ```
  }];
  let arguments = (ins Ms_FloatTensor:$input, DefaultValuedAttr<BoolAttr, "true">:$detect_negative,
                   DefaultValuedAttr<BoolAttr, "true">:$detect_positive);
  let results = (outs Ms_BoolTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
}

//===----------------------------------------------------------------------===//
// Cast
//===----------------------------------------------------------------------===//

def Ms_CastOp : Ms_Op<"cast", [Pure, SameOperandsAndResultShape]> {
  let summary = "Elementwise conversion to another element type.";
  let description = [{
    Converts every element to the result's element type (ONNX Cast semantics: float to int truncates
    toward zero, to `i1` means `x != 0`, to a narrower integer wraps). Shapes are unchanged. The
    result type cannot be inferred, so it is written after `to`.

    Floats round to nearest even. To the 8-bit and 4-bit floats (f8E4M3FN, f8E4M3FNUZ, f8E5M2,
    f8E5M2FNUZ, f8E8M0FNU, f4E2M1FN) the conversion is ONNX's: with `saturate`, values past the
    largest finite value (and infinities, except for f8E8M0FNU) become it; without, they become
    infinity where the type has one and NaN where it has not. f4E2M1FN, which has neither,
    always saturates. `round_mode` ("up", the default, "down" or "nearest") rounds to
    f8E8M0FNU, whose values are powers of two, as ONNX's Cast-24 does.

    Example:
    ```mlir
    %h = ms.cast %x : tensor<1x64xf32> to tensor<1x64xf16>
    %q = ms.cast %x {saturate} : tensor<1x64xf32> to tensor<1x64xf8E4M3FN>
    ```
  }];
  let arguments = (ins Ms_Tensor:$input, UnitAttr:$saturate, OptionalAttr<StrAttr>:$round_mode);
  let results = (outs Ms_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `to` type($result)";
  let hasFolder = 1;
  let hasVerifier = 1;
}

#endif // MS_ELEMENTWISE_OPS_TD
