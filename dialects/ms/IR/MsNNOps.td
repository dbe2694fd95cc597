//===- MsNNOps.td - convolution, GEMM, normalization, pooling, reductions --===//

#ifndef MS_NN_OPS_TD
#define MS_NN_OPS_TD

include "dialects/ms/IR/MsBase.td"

//===----------------------------------------------------------------------===//
// Convolution and matrix products
//===----------------------------------------------------------------------===//

def Ms_Conv2dOp : Ms_InferredOp<"conv2d"> {
  let summary = "2-D convolution in NCHW layout with groups, strides, pads and dilations.";
  let description = [{
    Convolves `input` [N, C, H, W] with `filter` [F, C / groups, KH, KW] and adds the optional `bias`
    [F]. `pads` is [top, left, bottom, right]; `groups = C = F` is a depthwise convolution. The output is
    [N, F, (H + top + bottom - dilation_h * (KH - 1) - 1) / stride_h + 1, ...]. `acc_type`, when present,
    is the accumulation element type chosen by precision assignment. With `channels_last` (set by
    `ms-assign-layout`) the input is [N, H, W, C] and the output [N, OH, OW, F] (NHWC); the filter
    and the bias keep their shapes.

    Example:
    ```mlir
    %y = ms.conv2d %x, %w, %b {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>}
        : (tensor<1x3x224x224xf32>, tensor<32x3x3x3xf32>, tensor<32xf32>) -> tensor<1x32x112x112xf32>
    ```
  }];
  let arguments = (ins Ms_FloatTensor:$input, Ms_FloatTensor:$filter, Optional<Ms_FloatTensor>:$bias,
                   DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$strides,
                   DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0, 0, 0}">:$pads,
                   DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$dilations,
                   DefaultValuedAttr<I64Attr, "1">:$groups,
                   OptionalAttr<TypeAttr>:$acc_type,
                   UnitAttr:$channels_last);
  let results = (outs Ms_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $filter (`,` $bias^)? attr-dict `:` functional-type(operands, results)
  }];
}

def Ms_QConv2dOp : Ms_InferredOp<"qconv2d"> {
  let summary = "uint8 x int8 2-D convolution requantized to uint8 (a QDQ DequantizeLinear -> Conv -> "
                "QuantizeLinear).";
  let description = [{
    The integer form of a quantized convolution (NCHW, one group), as onnxruntime's QLinearConv
    computes it: with `acc[n, f, p] = sum_k input[n, k at p] * filter[f, k]` over the raw uint8
    activations and int8 weights (exact in int32; padding reads `input_zero_point`, the quantized
    0.0),
    `result = clamp(round_half_even(float(acc + bias[f]) * scale[f]), output_min - output_zero_point,
    output_max - output_zero_point) + output_zero_point`.
    `bias` [F] is the int32 bias minus `input_zero_point * sum_k filter[f, k]` (so the zero point costs
    nothing at run time) and `scale` [F] is `input_scale * filter_scale[f] / output_scale` in f32.
    `output_min` is the output zero point when a Relu precedes the QuantizeLinear, else 0.
    Made by `ms-integer-qdq`.

    Example:
    ```mlir
    %y = ms.qconv2d %x, %w, %b, %s {pads = array<i64: 1, 1, 1, 1>, input_zero_point = 128 : i64,
                                    output_zero_point = 0 : i64}
        : (tensor<1x64x56x56xui8>, tensor<64x64x3x3xi8>, tensor<64xi32>, tensor<64xf32>)
        -> tensor<1x64x56x56xui8>
    ```
  }];
  let arguments = (ins TensorOf<[UI8]>:$input, TensorOf<[I8]>:$filter, TensorOf<[I32]>:$bias,
                   TensorOf<[F32]>:$scale,
                   DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$strides,
                   DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0, 0, 0}">:$pads,
                   DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$dilations,
                   I64Attr:$input_zero_point, I64Attr:$output_zero_point,
                   DefaultValuedAttr<I64Attr, "0">:$output_min,
                   DefaultValuedAttr<I64Attr, "255">:$output_max);
  let results = (outs TensorOf<[UI8]>:$result);
  let assemblyFormat = [{
    $input `,` $filter `,` $bias `,` $scale attr-dict `:` functional-type(operands, results)
  }];
}

def Ms_MatMulOp : Ms_InferredOp<"matmul"> {
  let summary = "Batched matrix product with numpy broadcasting of batch dimensions.";
  let description = [{
    numpy.matmul semantics (ONNX MatMul): the last two dims are multiplied, leading (batch) dims
    broadcast; a 1-D `lhs` is treated as [1, K] and a 1-D `rhs` as [K, 1], and the added dim is removed
    from the result.

    Example:
    ```mlir
    %y = ms.matmul %a, %b : (tensor<2x12x128x64xf32>, tensor<2x12x64x128xf32>) -> tensor<2x12x128x128xf32>
    ```
  }];
  let arguments = (ins Ms_FloatTensor:$lhs, Ms_FloatTensor:$rhs, OptionalAttr<TypeAttr>:$acc_type);
  let results = (outs Ms_FloatTensor:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` functional-type(operands, results)";
}

def Ms_GemmOp : Ms_InferredOp<"gemm"> {
  let summary = "General matrix multiply: alpha * op(a) * op(b) + beta * c.";
  let description = [{
    ONNX Gemm: `a` and `b` are 2-D, optionally transposed by `trans_a` / `trans_b`; the optional `c` is
    broadcast (unidirectionally) to [M, N].

    Example:
    ```mlir
    %y = ms.gemm %x, %w, %b {trans_b} : (tensor<1x512xf32>, tensor<1000x512xf32>, tensor<1000xf32>)
        -> tensor<1x1000xf32>
    ```
  }];
  let arguments = (ins Ms_FloatTensor:$a, Ms_FloatTensor:$b, Optional<Ms_FloatTensor>:$c,
                   DefaultValuedAttr<F64Attr, "1.0">:$alpha, DefaultValuedAttr<F64Attr, "1.0">:$beta,
                   UnitAttr:$trans_a, UnitAttr:$trans_b, OptionalAttr<TypeAttr>:$acc_type);
  let results = (outs Ms_FloatTensor:$result);
  let assemblyFormat = "$a `,` $b (`,` $c^)? attr-dict `:` functional-type(operands, results)";
}

//===----------------------------------------------------------------------===//
// Normalization and softmax
//===----------------------------------------------------------------------===//

def Ms_BatchNormOp : Ms_InferredOp<"batch_norm"> {
  let summary = "Inference-mode batch normalization over the channel dimension (dim 1).";
  let description = [{
    `y = scale * (x - mean) / sqrt(var + epsilon) + bias`, with the four 1-D parameters of size C
    broadcast along dim 1 of `input` [N, C, ...].

    Example:
    ```mlir
    %y = ms.batch_norm %x, %s, %b, %m, %v {epsilon = 1.0e-05 : f64}
        : (tensor<1x64x56x56xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>)
        -> tensor<1x64x56x56xf32>
    ```
  }];
  let arguments = (ins Ms_FloatTensor:$input, Ms_FloatTensor:$scale, Ms_FloatTensor:$bias,
                   Ms_FloatTensor:$mean, Ms_FloatTensor:$variance,
                   DefaultValuedAttr<F64Attr, "1.0e-5">:$epsilon);
  let results = (outs Ms_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $scale `,` $bias `,` $mean `,` $variance attr-dict `:` functional-type(operands, results)
  }];
}

def Ms_LayerNormOp : Ms_InferredOp<"layer_norm"> {
  let summary = "Layer normalization over the trailing dimensions from `axis` on.";
  let description = [{
    Normalizes `input` over dims [axis, rank) to zero mean and unit variance (with `epsilon`), then
    multiplies by `scale` and adds the optional `bias`; both have the shape of the normalized dims.
    Computed in at least f32 whatever the storage type.

    Example:
    ```mlir
    %y = ms.layer_norm %x, %g, %b {axis = -1 : i64, epsilon = 1.0e-12 : f64}
        : (tensor<1x128x768xf32>, tensor<768xf32>, tensor<768xf32>) -> tensor<1x128x768xf32>
    ```
  }];
  let arguments = (ins Ms_FloatTensor:$input, Ms_FloatTensor:$scale, Optional<Ms_FloatTensor>:$bias,
                   DefaultValuedAttr<I64Attr, "-1">:$axis, DefaultValuedAttr<F64Attr, "1.0e-5">:$epsilon);
  let results = (outs Ms_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $scale (`,` $bias^)? attr-dict `:` functional-type(operands, results)
  }];
}

def Ms_SoftmaxOp : Ms_InferredOp<"softmax"> {
  let summary = "Softmax along one axis.";
  let description = [{
    `exp(x - max) / sum(exp(x - max))` along `axis` (any axis, negative counts from the end), i.e. ONNX
    Softmax from opset 13.

    Example:
    ```mlir
    %p = ms.softmax %x {axis = -1 : i64} : (tensor<1x12x128x128xf32>) -> tensor<1x12x128x128xf32>
    ```
  }];
  let arguments = (ins Ms_FloatTensor:$input, DefaultValuedAttr<I64Attr, "-1">:$axis);
  let results = (outs Ms_FloatTensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

class Ms_ReduceOp<string mnemonic, string what> : Ms_InferredOp<mnemonic> {
  let summary = "Reduces by " # what # " over the given axes.";
  let description = [{
    Reduces `input` by }] # what # [{ over `axes` (negative counts from the end; empty means all
    axes). With `keep_dims` the reduced dims stay as size 1.

    Example:
    ```mlir
    %r = ms.}] # mnemonic # [{ %x {axes = array<i64: -1>, keep_dims} : (tensor<2x8xf32>) -> tensor<2x1xf32>
    ```
  }];
  let arguments = (ins Ms_NumericTensor:$input, DefaultValuedAttr<DenseI64ArrayAttr, "{}">:$axes,
                   UnitAttr:$keep_dims);
  let results = (outs Ms_NumericTensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  // Integer reductions of constants fold (element counts in shape arithmetic).
  let hasFolder = 1;
}

def Ms_ReduceSumOp : Ms_ReduceOp<"reduce_sum", "sum">;
def Ms_ReduceMeanOp : Ms_ReduceOp<"reduce_mean", "arithmetic mean">;
def Ms_ReduceMaxOp : Ms_ReduceOp<"reduce_max", "maximum">;
def Ms_ReduceMinOp : Ms_ReduceOp<"reduce_min", "minimum">;
def Ms_ReduceProdOp : Ms_ReduceOp<"reduce_prod", "product">;

//===----------------------------------------------------------------------===//
// Scans and selections along one axis
//===----------------------------------------------------------------------===//

class Ms_ArgReduceOp<string mnemonic, string what> : Ms_InferredOp<mnemonic> {
  let summary = "Index of the " # what # " along one axis (int64).";
  let description = [{
    ONNX Arg}] # !if(!eq(what, "maximum"), "Max", "Min") # [{: the position of the }] # what # [{
    along `axis` (negative counts from the end). Ties give the first position, or the last one with
    `select_last_index`; a NaN counts as the }] # what # [{ (the first, or last, NaN wins). With
    `keep_dims` the reduced dim stays as size 1.

    Example:
    ```mlir
    %i = ms.}] # mnemonic # [{ %x {axis = 1 : i64, keep_dims} : (tensor<2x8xf32>) -> tensor<2x1xi64>
    ```
  }];
  let arguments = (ins Ms_NumericTensor:$input, DefaultValuedAttr<I64Attr, "0">:$axis,
                   UnitAttr:$keep_dims, UnitAttr:$select_last_index);
  let results = (outs RankedTensorOf<[I64]>:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

def Ms_ArgMaxOp : Ms_ArgReduceOp<"arg_max", "maximum">;
def Ms_ArgMinOp : Ms_ArgReduceOp<"arg_min", "minimum">;

def Ms_TopKOp : Ms_InferredOp<"top_k"> {
  let summary = "The k largest (or smallest) elements along one axis, sorted, with their indices.";
  let description = [{
    ONNX TopK with a constant `k`: along `axis` (negative counts from the end), `values` holds the
    `k` largest elements in descending order (the smallest in ascending order with `smallest`) and
    `indices` their int64 positions. Equal elements keep their input order, so the lower index comes
    first, as ONNX requires; NaN sorts after every number. `k` lies in [0, size of `axis`].

    Example:
    ```mlir
    %v, %i = ms.top_k %x {k = 3 : i64, axis = -1 : i64}
        : (tensor<2x8xf32>) -> (tensor<2x3xf32>, tensor<2x3xi64>)
    ```
  }];
  let arguments = (ins Ms_NumericTensor:$input, I64Attr:$k, DefaultValuedAttr<I64Attr, "-1">:$axis,
                   UnitAttr:$smallest);
  let results = (outs Ms_NumericTensor:$values, RankedTensorOf<[I64]>:$indices);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

def Ms_CumSumOp : Ms_InferredOp<"cumsum"> {
  let summary = "Cumulative sum along an axis given as a one-element tensor.";
  let description = [{
    ONNX CumSum: `result[.., j, ..]` is the sum of `input[.., i, ..]` for i <= j along the axis
    (i < j with `exclusive`; i >= j, or i > j, with `reverse`). The axis is a one-element integer tensor,
    since models may pass it as a runtime input; negative values count from the end. A constant axis
    must lie in [-rank, rank); a runtime one outside it is clamped into [0, rank).

    Example:
    ```mlir
    %y = ms.cumsum %x, %axis {exclusive} : (tensor<2x3xf32>, tensor<i64>) -> tensor<2x3xf32>
    ```
  }];
  let arguments = (ins Ms_NumericTensor:$input, Ms_IndexTensor:$axis, UnitAttr:$exclusive,
                   UnitAttr:$reverse);
  let results = (outs Ms_NumericTensor:$result);
  let assemblyFormat = "$input `,` $axis attr-dict `:` functional-type(operands, results)";
}

//===----------------------------------------------------------------------===//
// Pooling
//===----------------------------------------------------------------------===//

class Ms_PoolOp<string mnemonic, string what, dag extraArgs> : Ms_InferredOp<mnemonic> {
  let summary = "2-D or 3-D " # what # " pooling in NCHW / NCDHW layout.";
  let description = [{
    Slides a `kernel` window with `strides`, `pads` (begins, then ends: [top, left, bottom, right]
    in 2-D) and `dilations` over [N, C, H, W] or [N, C, D, H, W] and takes the }] # what # [{ of
    each window. With `ceil_mode` the output size rounds up (windows that would start in the
    padding are dropped, as in ONNX). The 3-D form is what the importer emits for a 3-D ONNX
    pool; `ms-decompose` runs it as a 2-D pool over (H, W) of [N, C * D, H, W] followed by one
    over D of [N, C, D, H' * W'] (exact: a window's maximum, sum and element count separate per
    dim), so the lowering only sees 2-D pools.

    Example:
    ```mlir
    %y = ms.}] # mnemonic # [{ %x {kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>,
                             pads = array<i64: 1, 1, 1, 1>}
        : (tensor<1x64x112x112xf32>) -> tensor<1x64x56x56xf32>
    ```
  }];
  let arguments = !con((ins Ms_FloatTensor:$input, DenseI64ArrayAttr:$kernel,
                        DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$strides,
                        DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0, 0, 0}">:$pads,
                        DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$dilations,
                        UnitAttr:$ceil_mode), extraArgs);
  let results = (outs Ms_FloatTensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

def Ms_MaxPoolOp : Ms_PoolOp<"max_pool", "maximum", (ins)>;
def Ms_AvgPoolOp : Ms_PoolOp<"avg_pool", "average", (ins UnitAttr:$count_include_pad)>;

def Ms_GlobalAvgPoolOp : Ms_InferredOp<"global_avg_pool"> {
  let summary = "Averages each channel over all spatial dimensions.";
  let description = [{
    [N, C, D1, ..., Dk] -> [N, C, 1, ..., 1]: the mean over every dim after the channel dim.

    Example:
    ```mlir
    %y = ms.global_avg_pool %x : (tensor<1x512x7x7xf32>) -> tensor<1x512x1x1xf32>
    ```
  }];
  let arguments = (ins Ms_FloatTensor:$input);
  let results = (outs Ms_FloatTensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

#endif // MS_NN_OPS_TD
