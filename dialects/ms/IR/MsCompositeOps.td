//===- MsCompositeOps.td - ONNX ops that ms-decompose expands -*- tablegen -*-===//
//
// Ops with ONNX's semantics that the importer emits one-to-one and `ms-decompose` rewrites into
// ms primitives (reshape, transpose, compare, where, reductions, ...) at the start of the
// pipeline, as
// onnx-mlir's decompositions do: the importer stays one small handler per ONNX op, the
// decomposition is an ms pattern with its own .mlir tests, and a later pass (or a target with a
// native kernel for the op) can still see the op whole.
//
//===----------------------------------------------------------------------===//

#ifndef MS_COMPOSITE_OPS_TD
#define MS_COMPOSITE_OPS_TD

include "dialects/ms/IR/MsBase.td"

def Ms_TileOp : Ms_InferredOp<"tile"> {
  let summary = "Repeats a tensor along each dim (ONNX Tile).";
  let description = [{
    `result.shape[d] = input.shape[d] * repeats[d]`; element `i` of the result is element
    `i mod input.shape` of the input. `repeats` has one non-negative entry per dim. Folds on a
    constant input.

    Example:
    ```mlir
    %y = ms.tile %x {repeats = array<i64: 2, 1>} : (tensor<2x3xf32>) -> tensor<4x3xf32>
    ```
  }];
  let arguments = (ins Ms_Tensor:$input, DenseI64ArrayAttr:$repeats);
  let results = (outs Ms_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
}

def Ms_DepthToSpaceOp : Ms_InferredOp<"depth_to_space"> {
  let summary = "Moves blocks of channels into spatial blocks (ONNX DepthToSpace).";
  let description = [{
    `[N, C, H, W] -> [N, C / b^2, H * b, W * b]` for `blocksize` b (b^2 divides C). In DCR order
    (the default) the channel index is read as (block row, block column, output channel); with
    `crd` as (output channel, block row, block column).

    Example:
    ```mlir
    %y = ms.depth_to_space %x {blocksize = 2 : i64} : (tensor<1x8x2x3xf32>) -> tensor<1x2x4x6xf32>
    ```
  }];
  let arguments = (ins Ms_Tensor:$input, I64Attr:$blocksize, UnitAttr:$crd);
  let results = (outs Ms_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

def Ms_SpaceToDepthOp : Ms_InferredOp<"space_to_depth"> {
  let summary = "Moves spatial blocks into channels (ONNX SpaceToDepth).";
  let description = [{
    `[N, C, H, W] -> [N, C * b^2, H / b, W / b]` for `blocksize` b dividing H and W: the inverse of
    DCR depth_to_space (channel index (block row, block column, input channel)).

    Example:
    ```mlir
    %y = ms.space_to_depth %x {blocksize = 2 : i64} : (tensor<1x2x4x6xf32>) -> tensor<1x8x2x3xf32>
    ```
  }];
  let arguments = (ins Ms_Tensor:$input, I64Attr:$blocksize);
  let results = (outs Ms_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

def Ms_TriluOp : Ms_InferredOp<"trilu"> {
  let summary = "Keeps the upper or lower triangle of the last two dims (ONNX Trilu).";
  let description = [{
    Element (..., i, j) is kept where `j - i >= k` (upper, the default) or `j - i <= k` (`lower`),
    else zero. `k` is an optional one-element i64 tensor, read at run time (0 without it).

    Example:
    ```mlir
    %y = ms.trilu %x, %k : (tensor<2x3x4xf32>, tensor<i64>) -> tensor<2x3x4xf32>
    %z = ms.trilu %x {lower} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
    ```
  }];
  let arguments = (ins Ms_Tensor:$input, Optional<RankedTensorOf<[I64]>>:$k, UnitAttr:$lower);
  let results = (outs Ms_Tensor:$result);
  let assemblyFormat = "$input (`,` $k^)? attr-dict `:` functional-type(operands, results)";
}

def Ms_InstanceNormOp : Ms_InferredOp<"instance_norm"> {
  let summary = "Normalizes each channel of each sample over its spatial dims (ONNX InstanceNormalization).";
  let description = [{
    For `input` [N, C, spatial...]: `(x - mean) / sqrt(var + epsilon) * scale[c] + bias[c]`, mean
    and (biased) variance over the spatial dims of each (n, c). `scale` and `bias` are [C].

    Example:
    ```mlir
    %y = ms.instance_norm %x, %s, %b {epsilon = 1.0e-05 : f64}
        : (tensor<1x4x8x8xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
    ```
  }];
  let arguments = (ins Ms_FloatTensor:$input, Ms_FloatTensor:$scale, Ms_FloatTensor:$bias,
                   DefaultValuedAttr<F64Attr, "1.0e-5">:$epsilon);
  let results = (outs Ms_FloatTensor:$result);
  let assemblyFormat = "$input `,` $scale `,` $bias attr-dict `:` functional-type(operands, results)";
}

def Ms_GroupNormOp : Ms_InferredOp<"group_norm"> {
  let summary = "Normalizes groups of channels of each sample (ONNX GroupNormalization).";
  let description = [{
    For `input` [N, C, spatial...] with `num_groups` G dividing C: mean and (biased) variance over
    the C / G channels and the spatial dims of each group of each sample, then
    `(x - mean) / sqrt(var + epsilon) * scale[c] + bias[c]`; `scale` and `bias` are per channel
    [C] (GroupNormalization-18's per-group parameters are repeated per channel by the importer).

    Example:
    ```mlir
    %y = ms.group_norm %x, %s, %b {num_groups = 2 : i64, epsilon = 1.0e-05 : f64}
        : (tensor<1x4x8x8xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
    ```
  }];
  let arguments = (ins Ms_FloatTensor:$input, Ms_FloatTensor:$scale, Ms_FloatTensor:$bias,
                   I64Attr:$num_groups, DefaultValuedAttr<F64Attr, "1.0e-5">:$epsilon);
  let results = (outs Ms_FloatTensor:$result);
  let assemblyFormat = "$input `,` $scale `,` $bias attr-dict `:` functional-type(operands, results)";
}

def Ms_LpNormalizationOp : Ms_InferredOp<"lp_normalization"> {
  let summary = "Divides by the L1 or L2 norm along one axis (ONNX LpNormalization).";
  let description = [{
    `x / sum(|x|)` (`p` = 1) or `x / sqrt(sum(x^2))` (`p` = 2) along `axis` (non-negative).

    Example:
    ```mlir
    %y = ms.lp_normalization %x {axis = 1 : i64, p = 2 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    ```
  }];
  let arguments = (ins Ms_FloatTensor:$input, I64Attr:$axis, I64Attr:$p);
  let results = (outs Ms_FloatTensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

def Ms_MeanVarianceNormOp : Ms_InferredOp<"mean_variance_norm"> {
  let summary = "Zero mean, unit variance over some axes (ONNX MeanVarianceNormalization).";
  let description = [{
    `(x - mean) / (sqrt(var) + 1e-9)` with mean and (biased) variance over `axes` (sorted,
    distinct, non-negative), as ONNX's function body computes it.

    Example:
    ```mlir
    %y = ms.mean_variance_norm %x {axes = array<i64: 0, 2, 3>}
        : (tensor<2x3x4x4xf32>) -> tensor<2x3x4x4xf32>
    ```
  }];
  let arguments = (ins Ms_FloatTensor:$input, DenseI64ArrayAttr:$axes);
  let results = (outs Ms_FloatTensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

def Ms_LrnOp : Ms_InferredOp<"lrn"> {
  let summary = "Local response normalization across channels (ONNX LRN).";
  let description = [{
    For `input` [N, C, spatial...]: `x / (bias + alpha / size * sum(x^2))^beta`, the sum over the
    `size` channels centred on each channel ((size - 1) / 2 before, the rest after; missing ones
    count as zero).

    Example:
    ```mlir
    %y = ms.lrn %x {size = 3 : i64, alpha = 1.0e-04 : f64, beta = 7.5e-01 : f64, bias = 1.0 : f64}
        : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
    ```
  }];
  let arguments = (ins Ms_FloatTensor:$input, I64Attr:$size, F64Attr:$alpha, F64Attr:$beta,
                   F64Attr:$bias);
  let results = (outs Ms_FloatTensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

def Ms_Conv3dOp : Ms_InferredOp<"conv3d"> {
  let summary = "3-D convolution in NCDHW layout with groups, strides, pads and dilations (ONNX Conv).";
  let description = [{
    Convolves `input` [N, C, D, H, W] with `filter` [F, C / groups, KD, KH, KW] and adds the
    optional `bias` [F]. `pads` is [front, top, left, back, bottom, right] (ONNX's begins, then
    ends). The output is [N, F, OD, OH, OW] with
    `O = (I + begin + end - dilation * (K - 1) - 1) / stride + 1` per spatial dim.
    `ms-decompose` runs it as one 2-D convolution whose channels are the input's (c, kd) pairs.

    Example:
    ```mlir
    %y = ms.conv3d %x, %w, %b {pads = array<i64: 1, 1, 1, 1, 1, 1>}
        : (tensor<1x3x8x16x16xf32>, tensor<8x3x3x3x3xf32>, tensor<8xf32>) -> tensor<1x8x8x16x16xf32>
    ```
  }];
  let arguments = (ins Ms_FloatTensor:$input, Ms_FloatTensor:$filter, Optional<Ms_FloatTensor>:$bias,
                   DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1, 1}">:$strides,
                   DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0, 0, 0, 0, 0}">:$pads,
                   DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1, 1}">:$dilations,
                   DefaultValuedAttr<I64Attr, "1">:$groups);
  let results = (outs Ms_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $filter (`,` $bias^)? attr-dict `:` functional-type(operands, results)
  }];
}

def Ms_ConvTransposeOp : Ms_InferredOp<"conv_transpose"> {
  let summary = "1-D, 2-D or 3-D transposed convolution (ONNX ConvTranspose) with explicit pads.";
  let description = [{
    For `input` [N, C, I...] (1 to 3 spatial dims) and `filter` [C, F / groups, K...], the
    gradient of a convolution: each input element scatters its filter, scaled, into the output at
    `stride * i`. `pads` are [begins..., ends...] cropped from the full result (negative: zeros
    added), `output_padding` extends the end. The output is [N, F, O...] with
    `O = stride * (I - 1) + output_padding + dilation * (K - 1) + 1 - begin - end`; the optional
    `bias` is [F]. ONNX's auto_pad and output_shape are resolved into `pads` by the importer.
    `ms-decompose` runs it as a stride-1 convolution of the input with stride - 1 zeros between
    elements and the filter regrouped and flipped.

    Example:
    ```mlir
    %y = ms.conv_transpose %x, %w {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>}
        : (tensor<1x4x5x5xf32>, tensor<4x2x3x3xf32>) -> tensor<1x2x9x9xf32>
    ```
  }];
  let arguments = (ins Ms_FloatTensor:$input, Ms_FloatTensor:$filter, Optional<Ms_FloatTensor>:$bias,
                   DenseI64ArrayAttr:$strides, DenseI64ArrayAttr:$pads,
                   DenseI64ArrayAttr:$dilations, DenseI64ArrayAttr:$output_padding,
                   DefaultValuedAttr<I64Attr, "1">:$groups);
  let results = (outs Ms_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $filter (`,` $bias^)? attr-dict `:` functional-type(operands, results)
  }];
}

def Ms_EinsumOp : Ms_InferredOp<"einsum"> {
  let summary = "Einstein summation over labelled dims (ONNX Einsum), in explicit form.";
  let description = [{
    `equation` is `term,term,...->output`: one letter per dim of each operand, the output's
    letters distinct and each in some operand. Labels shared by operands are multiplied
    together, labels missing from the output are summed, a label repeated within one term takes
    that operand's diagonal. A shared label's sizes must be equal or 1 (broadcast). The importer
    writes ONNX's implicit form and its "..." out as letters. `ms-decompose` runs it as
    diagonals, sums and one batched `ms.matmul` per pair of operands, contracted left to right.

    Example:
    ```mlir
    %y = ms.einsum %a, %b {equation = "bij,bjk->bik"}
        : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
    ```
  }];
  let arguments = (ins Variadic<Ms_NumericTensor>:$inputs, StrAttr:$equation);
  let results = (outs Ms_NumericTensor:$result);
  let assemblyFormat = "$inputs attr-dict `:` functional-type(operands, results)";
}

#endif // MS_COMPOSITE_OPS_TD
