//===- MsCompositeMathOps.td - reductions, log-softmax, RMS norm -*- tablegen -*-===//
//
// ONNX's reductions other than sum/mean/max/min/prod, LogSoftmax and RMSNormalization, which the
// importer emits one-to-one and `ms-decompose` writes as the elementwise transforms around
// ms.reduce_* that the importer used to build (DecomposeNormPatterns.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef MS_COMPOSITE_MATH_OPS_TD
#define MS_COMPOSITE_MATH_OPS_TD

include "dialects/ms/IR/MsBase.td"

class Ms_ComposedReduceOp<string mnemonic, string onnx, string what>
    : Ms_InferredOp<mnemonic> {
  let summary = "Reduces by " # what # " over the given axes (ONNX " # onnx # ").";
  let description = [{
    Reduces `input` by }] # what # [{ over `axes` (each in [-rank, rank), no duplicates). Empty
    `axes` means every axis, or, with `noop_with_empty_axes`, none: then only the elementwise part
    applies, as in ONNX's reference. With `keep_dims` the reduced dims stay as size 1.
    `ms-decompose` writes it with ms.reduce_sum (ms.reduce_max for the stable log-sum-exp).

    Example:
    ```mlir
    %r = ms.}] # mnemonic # [{ %x {axes = array<i64: -1>, keep_dims} : (tensor<2x8xf32>) -> tensor<2x1xf32>
    ```
  }];
  let arguments = (ins Ms_NumericTensor:$input, DefaultValuedAttr<DenseI64ArrayAttr, "{}">:$axes,
                   UnitAttr:$keep_dims, UnitAttr:$noop_with_empty_axes);
  let results = (outs Ms_NumericTensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let extraClassDeclaration = [{
    /// The reduced axes, sorted and non-negative: every axis for empty `axes`, none for empty
    /// `axes` with `noop_with_empty_axes`.
    ::llvm::SmallVector<int64_t> getReducedAxes();
  }];
}

def Ms_ReduceL1Op : Ms_ComposedReduceOp<"reduce_l1", "ReduceL1", "the sum of absolute values">;
def Ms_ReduceL2Op : Ms_ComposedReduceOp<"reduce_l2", "ReduceL2", "the Euclidean norm">;
def Ms_ReduceSumSquareOp
    : Ms_ComposedReduceOp<"reduce_sum_square", "ReduceSumSquare", "the sum of squares">;
def Ms_ReduceLogSumOp : Ms_ComposedReduceOp<"reduce_log_sum", "ReduceLogSum", "log of the sum">;
def Ms_ReduceLogSumExpOp
    : Ms_ComposedReduceOp<"reduce_log_sum_exp", "ReduceLogSumExp", "log of the sum of exp">;

def Ms_LogSoftmaxOp : Ms_InferredOp<"log_softmax"> {
  let summary = "Log of the softmax over one axis or a trailing block of dims (ONNX LogSoftmax).";
  let description = [{
    `(x - max) - log(sum(exp(x - max)))` over `axes`: one axis, or (ONNX LogSoftmax before opset
    13, which coerces its input to 2-D) every dim from one axis to the last. The result has the
    input's type. `ms-decompose` writes it with ms.reduce_max, ms.exp, ms.reduce_sum and ms.log.

    Example:
    ```mlir
    %y = ms.log_softmax %x {axes = array<i64: 1>} : (tensor<2x5xf32>) -> tensor<2x5xf32>
    ```
  }];
  let arguments = (ins Ms_FloatTensor:$input, DenseI64ArrayAttr:$axes);
  let results = (outs Ms_FloatTensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

def Ms_RmsNormOp : Ms_InferredOp<"rms_norm"> {
  let summary = "Root-mean-square normalization over the trailing dims (ONNX RMSNormalization).";
  let description = [{
    `x / sqrt(mean(x^2) + epsilon) * scale`, the mean over the dims from `axis` on (in
    [-rank, rank)), computed in the float type `stash_type` (the input converted to it and the
    normalized value back), then multiplied by `scale`, which broadcasts against the input; the
    result has the broadcast shape and the input's element type. `ms-decompose` writes ONNX's
    function body.

    Example:
    ```mlir
    %y = ms.rms_norm %x, %s {axis = -1 : i64, epsilon = 1.0E-5 : f64, stash_type = f32}
        : (tensor<2x8xf16>, tensor<8xf16>) -> tensor<2x8xf16>
    ```
  }];
  let arguments = (ins Ms_FloatTensor:$input, Ms_FloatTensor:$scale, I64Attr:$axis,
                   F64Attr:$epsilon, TypeAttr:$stash_type);
  let results = (outs Ms_FloatTensor:$result);
  let assemblyFormat = "$input `,` $scale attr-dict `:` functional-type(operands, results)";
}

#endif // MS_COMPOSITE_MATH_OPS_TD
