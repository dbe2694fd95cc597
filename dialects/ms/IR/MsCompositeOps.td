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

// ONNX's auto_pad of the transposed convolution: `same_upper` / `same_lower` aim at
// input * stride, the odd unit of padding at the end or the beginning.
def Ms_AutoPad : I32EnumAttr<"AutoPad", "ONNX's auto_pad", [
    I32EnumAttrCase<"notset", 0>, I32EnumAttrCase<"valid", 1>, I32EnumAttrCase<"same_upper", 2>,
    I32EnumAttrCase<"same_lower", 3>]> {
  let cppNamespace = "::mlir::ms";
  let genSpecializedAttr = 0;
}
def Ms_AutoPadAttr : EnumAttr<Ms_Dialect, Ms_AutoPad, "auto_pad">;

def Ms_ConvTransposeOp : Ms_InferredOp<"conv_transpose"> {
  let summary = "1-D, 2-D or 3-D transposed convolution (ONNX ConvTranspose).";
  let description = [{
    For `input` [N, C, I...] (1 to 3 spatial dims) and `filter` [C, F / groups, K...], the
    gradient of a convolution: each input element scatters its filter, scaled, into the output at
    `stride * i`. The pads are [begins..., ends...] cropped from the full result (negative: zeros
    added), `output_padding` extends the end. The output is [N, F, O...] with
    `O = stride * (I - 1) + output_padding + dilation * (K - 1) + 1 - begin - end`; the optional
    `bias` is [F]. The pads are resolved as ONNX does: `pads` with `auto_pad` notset; else, with
    an `output_shape` (the spatial sizes) or `auto_pad` same_upper / same_lower, the total that
    gives that size (input * stride for same_*), its odd unit at the end for same_upper and at
    the beginning otherwise; else zeros. `ms-decompose` runs it as a stride-1 convolution of the
    input with stride - 1 zeros between elements and the filter regrouped and flipped.

    Example:
    ```mlir
    %y = ms.conv_transpose %x, %w {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>,
                                   dilations = array<i64: 1, 1>, output_padding = array<i64: 0, 0>}
        : (tensor<1x4x5x5xf32>, tensor<4x2x3x3xf32>) -> tensor<1x2x9x9xf32>
    %z = ms.conv_transpose %x, %w {strides = array<i64: 2, 2>, dilations = array<i64: 1, 1>,
                                   output_padding = array<i64: 0, 0>,
                                   auto_pad = #ms<auto_pad same_upper>}
        : (tensor<1x4x5x5xf32>, tensor<4x2x3x3xf32>) -> tensor<1x2x10x10xf32>
    ```
  }];
  let arguments = (ins Ms_FloatTensor:$input, Ms_FloatTensor:$filter, Optional<Ms_FloatTensor>:$bias,
                   DenseI64ArrayAttr:$strides, DefaultValuedAttr<DenseI64ArrayAttr, "{}">:$pads,
                   DenseI64ArrayAttr:$dilations, DenseI64ArrayAttr:$output_padding,
                   DefaultValuedAttr<I64Attr, "1">:$groups,
                   DefaultValuedAttr<Ms_AutoPadAttr, "::mlir::ms::AutoPad::notset">:$auto_pad,
                   DefaultValuedAttr<DenseI64ArrayAttr, "{}">:$output_shape);
  let results = (outs Ms_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $filter (`,` $bias^)? attr-dict `:` functional-type(operands, results)
  }];
  let extraClassDeclaration = [{
    /// The pads [begins..., ends...] that `pads`, `auto_pad` and `output_shape` resolve to (see
    /// the description); the op must be verified.
    ::llvm::SmallVector<int64_t> getResolvedPads();
  }];
}

def Ms_EinsumOp : Ms_InferredOp<"einsum"> {
  let summary = "Einstein summation over labelled dims (ONNX Einsum).";
  let description = [{
    `equation` is ONNX's: `term,term,...->output`, one letter per dim of each operand, the
    output's letters distinct and each in some operand; without `->` the output is the labels
    used once, in alphabetical order; "..." stands for the leading dims (right-aligned across
    operands, first in an implicit output); spaces are ignored. Labels shared by operands are
    multiplied together, labels missing from the output are summed, a label repeated within one
    term takes that operand's diagonal. A shared label's sizes must be equal or 1 (broadcast).
    `ms-decompose` runs it as diagonals, sums and one batched `ms.matmul` per pair of operands,
    contracted left to right.

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

def Ms_GridSampleOp : Ms_InferredOp<"grid_sample"> {
  let summary = "Samples a tensor at the points of a grid (ONNX GridSample).";
  let description = [{
    For `input` [N, C, D1, ..., Dk] (k = 2 or 3) and `grid` [N, P1, ..., Pk, k] holding
    normalized coordinates in [-1, 1] (the last component indexes the last dim, x first), the
    result [N, C, P1, ..., Pk] holds the input interpolated at each grid point: `nearest`
    (half to even), `linear` or `cubic` (Keys, a = -0.75, 2-D only). `align_corners` puts -1 and 1
    at the corner pixels' centers instead of their outer edges; `padding_mode` says what lies
    outside the input: `zeros`, the `border` value, or the input's `reflection`. Shapes are
    static. `ms-decompose` runs it as one `ms.gather_elements` per combination of taps.

    Example:
    ```mlir
    %y = ms.grid_sample %x, %g {mode = #ms<grid_sample_mode linear>,
                                padding_mode = #ms<grid_padding_mode border>, align_corners}
        : (tensor<1x2x3x4xf32>, tensor<1x5x6x2xf32>) -> tensor<1x2x5x6xf32>
    ```
  }];
  let arguments = (ins Ms_FloatTensor:$input, Ms_FloatTensor:$grid,
                   Ms_GridSampleModeAttr:$mode, Ms_GridPaddingModeAttr:$padding_mode,
                   UnitAttr:$align_corners);
  let results = (outs Ms_FloatTensor:$result);
  let assemblyFormat = "$input `,` $grid attr-dict `:` functional-type(operands, results)";
}

def Ms_RoiAlignOp : Ms_InferredOp<"roi_align"> {
  let summary = "Pools bilinear samples of regions of interest (ONNX RoiAlign).";
  let description = [{
    For `input` [N, C, H, W], `rois` [R, 4] (x1, y1, x2, y2, scaled by `spatial_scale`) and
    `batch_indices` [R], the result [R, C, output_height, output_width] holds, per ROI and bin,
    the average (the maximum with `max`) of `sampling_ratio`^2 bilinear samples of the ROI's batch
    item. `half_pixel` shifts the ROI by -0.5 pixel (ONNX's half_pixel; without it,
    output_half_pixel, the ROI is at least one pixel wide). `sampling_ratio` is positive (ONNX's
    adaptive 0 has no static form). `ms-decompose` runs it as four `ms.gather_elements`.

    Example:
    ```mlir
    %y = ms.roi_align %x, %rois, %idx {output_height = 2 : i64, output_width = 2 : i64,
                                       sampling_ratio = 2 : i64, spatial_scale = 1.0 : f64,
                                       half_pixel}
        : (tensor<1x3x8x8xf32>, tensor<4x4xf32>, tensor<4xi64>) -> tensor<4x3x2x2xf32>
    ```
  }];
  let arguments = (ins Ms_FloatTensor:$input, Ms_FloatTensor:$rois,
                   Ms_IntegerTensor:$batch_indices, I64Attr:$output_height,
                   I64Attr:$output_width, I64Attr:$sampling_ratio, F64Attr:$spatial_scale,
                   UnitAttr:$max, UnitAttr:$half_pixel);
  let results = (outs Ms_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $rois `,` $batch_indices attr-dict `:` functional-type(operands, results)
  }];
}

def Ms_DeformConvOp : Ms_InferredOp<"deform_conv", [AttrSizedOperandSegments]> {
  let summary = "2-D convolution whose taps read at learned offsets (ONNX DeformConv).";
  let description = [{
    For `input` [N, C, H, W], `filter` [F, C / groups, KH, KW] and `offset`
    [N, offset_groups * KH * KW * 2, OH, OW], tap (kh, kw) of output position (oh, ow) reads the
    input bilinearly (zeros outside) at its regular position plus the offset (dy, dx) of its
    offset group; the optional `mask` [N, offset_groups * KH * KW, OH, OW] scales each read and
    the optional `bias` [F] is added. `pads` is [top, left, bottom, right];
    `O = (I + begin + end - dilation * (K - 1) - 1) / stride + 1`. `ms-decompose` runs it as
    four `ms.gather_elements` and one batched `ms.matmul`.

    Example:
    ```mlir
    %y = ms.deform_conv %x, %w, %off {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>,
                                      dilations = array<i64: 1, 1>}
        : (tensor<1x2x4x4xf32>, tensor<3x2x2x2xf32>, tensor<1x8x3x3xf32>) -> tensor<1x3x3x3xf32>
    %z = ms.deform_conv %x, %w, %off bias %b mask %m {strides = array<i64: 1, 1>,
                                      pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>}
        : (tensor<1x2x4x4xf32>, tensor<3x2x2x2xf32>, tensor<1x8x3x3xf32>, tensor<3xf32>,
           tensor<1x4x3x3xf32>) -> tensor<1x3x3x3xf32>
    ```
  }];
  let arguments = (ins Ms_FloatTensor:$input, Ms_FloatTensor:$filter, Ms_FloatTensor:$offset,
                   Optional<Ms_FloatTensor>:$bias, Optional<Ms_FloatTensor>:$mask,
                   DenseI64ArrayAttr:$strides, DenseI64ArrayAttr:$pads,
                   DenseI64ArrayAttr:$dilations, DefaultValuedAttr<I64Attr, "1">:$groups,
                   DefaultValuedAttr<I64Attr, "1">:$offset_groups);
  let results = (outs Ms_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $filter `,` $offset (`bias` $bias^)? (`mask` $mask^)? attr-dict `:`
    functional-type(operands, results)
  }];
}

def Ms_AffineGridOp : Ms_InferredOp<"affine_grid"> {
  let summary = "The sampling grid of affine matrices (ONNX AffineGrid).";
  let description = [{
    For `theta` [N, 2, 3] (or [N, 3, 4]) and `size` [N, C, H, W] (or [N, C, D, H, W]), the result
    [N, H, W, 2] (or [N, D, H, W, 3]) holds theta times the homogeneous normalized coordinates of
    each output position (x along W first; -1 and 1 at the corner pixels' centers with
    `align_corners`, else at their outer edges): the grid `ms.grid_sample` reads.
    `ms-decompose` runs it as one `ms.matmul` of a constant base grid by theta transposed.

    Example:
    ```mlir
    %g = ms.affine_grid %theta {size = array<i64: 2, 1, 2, 3>, align_corners}
        : (tensor<2x2x3xf32>) -> tensor<2x2x3x2xf32>
    ```
  }];
  let arguments = (ins Ms_FloatTensor:$theta, DenseI64ArrayAttr:$size, UnitAttr:$align_corners);
  let results = (outs Ms_FloatTensor:$result);
  let assemblyFormat = "$theta attr-dict `:` functional-type(operands, results)";
}

def Ms_DftOp : Ms_InferredOp<"dft"> {
  let summary = "Discrete Fourier transform along one axis (ONNX DFT).";
  let description = [{
    For a real ([..., 1]) or complex ([..., 2]) `input`, the transform along `axis` (a signal
    dim, not the last) at `length` (the signal truncated or zero-padded to it): bin k is
    `sum_n x[n] exp(-2 pi i k n / length)` (`inverse`: `+`, divided by `length`). `onesided` keeps
    bins 0 .. length / 2. The result is complex ([..., 2]), with the bins along `axis`.
    `ms-decompose` runs it as products with cos / sin matrices in f64.

    Example:
    ```mlir
    %y = ms.dft %x {axis = 1 : i64, length = 8 : i64, onesided}
        : (tensor<2x8x1xf32>) -> tensor<2x5x2xf32>
    ```
  }];
  let arguments = (ins Ms_FloatTensor:$input, I64Attr:$axis, I64Attr:$length,
                   UnitAttr:$inverse, UnitAttr:$onesided);
  let results = (outs Ms_FloatTensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

def Ms_StftOp : Ms_InferredOp<"stft"> {
  let summary = "Short-time Fourier transform (ONNX STFT).";
  let description = [{
    For a real ([batch, length, 1]) or complex ([batch, length, 2]) `input`, the DFT of each frame
    of `frame_length` samples taken every `frame_step` samples, weighted by the optional 1-D
    `window` (of `frame_length` samples): [batch, frames, bins, 2] with
    `frames = (length - frame_length) / frame_step + 1` and `bins = frame_length / 2 + 1` when
    `onesided`, else `frame_length`. `ms-decompose` runs it as one gather of the frames and
    the products of `ms.dft`.

    Example:
    ```mlir
    %y = ms.stft %x, %w {frame_step = 4 : i64, frame_length = 8 : i64, onesided}
        : (tensor<1x32x1xf32>, tensor<8xf32>) -> tensor<1x7x5x2xf32>
    ```
  }];
  let arguments = (ins Ms_FloatTensor:$input, Optional<Ms_FloatTensor>:$window,
                   I64Attr:$frame_step, I64Attr:$frame_length, UnitAttr:$onesided);
  let results = (outs Ms_FloatTensor:$result);
  let assemblyFormat = [{
    $input (`,` $window^)? attr-dict `:` functional-type(operands, results)
  }];
}

def Ms_NllLossOp : Ms_InferredOp<"nll_loss"> {
  let summary = "Negative log-likelihood loss (ONNX NegativeLogLikelihoodLoss).";
  let description = [{
    For log-probabilities `input` [N, C, d...], class indices `target` [N, d...] (i32 or i64)
    and the optional class `weight` [C]: per sample `-input[n, target, d...] * weight[target]`,
    0 where the target equals `ignore_index`; then, by `reduction`, kept ([N, d...]), summed,
    or divided by the sum of the weights applied (the number of samples not ignored, without
    weights) for `mean` (rank 0). `ms-decompose` runs it as a gather_elements along C, a
    gather of the weights, selects and reductions.

    Example:
    ```mlir
    %l = ms.nll_loss %lp, %t {reduction = #ms<loss_reduction mean>, ignore_index = -1 : i64}
        : (tensor<4x5xf32>, tensor<4xi64>) -> tensor<f32>
    ```
  }];
  let arguments = (ins Ms_FloatTensor:$input, Ms_IndexTensor:$target,
                   Optional<Ms_FloatTensor>:$weight, Ms_LossReductionAttr:$reduction,
                   OptionalAttr<I64Attr>:$ignore_index);
  let results = (outs Ms_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $target (`,` $weight^)? attr-dict `:` functional-type(operands, results)
  }];
}

def Ms_Col2ImOp : Ms_InferredOp<"col2im"> {
  let summary = "Sums sliding blocks back into an image (ONNX Col2Im).";
  let description = [{
    For `input` [N, C * prod(block_shape), L], the values of each channel's L blocks (row-major
    over the block grid) per kernel position (row-major over `block_shape`) land at
    `block * stride + k * dilation` of the padded image; overlapping ones add and the padding
    (`pads`: begins, then ends) is dropped. The result is [N, C, image_shape...]; L must be the
    number of blocks that fit the padded image. `ms-decompose` runs it as one
    `ms.scatter_elements` (add) into a zero padded image and a slice.

    Example:
    ```mlir
    %y = ms.col2im %x {image_shape = array<i64: 3, 3>, block_shape = array<i64: 2, 2>,
                       strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>,
                       pads = array<i64: 0, 0, 0, 0>}
        : (tensor<1x4x4xf32>) -> tensor<1x1x3x3xf32>
    ```
  }];
  let arguments = (ins Ms_Tensor:$input, DenseI64ArrayAttr:$image_shape,
                   DenseI64ArrayAttr:$block_shape, DenseI64ArrayAttr:$strides,
                   DenseI64ArrayAttr:$dilations, DenseI64ArrayAttr:$pads);
  let results = (outs Ms_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

def Ms_InterpolateOp : Ms_InferredOp<"interpolate"> {
  let summary = "Resizes a tensor by separable interpolation (ONNX Resize, every mode).";
  let description = [{
    Resizes each of `axes` of `input` to `sizes` (one per dim; the other dims keep their size)
    as ONNX's reference does: output position x maps to an input coordinate by
    `coordinate_transformation_mode` and `scales` (one per dim; `roi`, starts then ends per dim,
    for tf_crop_and_resize, whose coordinates outside the input take `extrapolation_value`),
    and reads the taps around it weighted by `mode`: `nearest` (rounded by the axis's entry of
    `nearest_modes`), `linear` or `cubic` (Keys' kernel with `cubic_coeff_a`), widened by
    `antialias` when shrinking, renormalized inside the input with `exclude_outside`. The
    importer emits ms.resize instead where that covers the combination. `ms-decompose` runs it
    as one product per resized axis with its [in, out] interpolation matrix.

    Example:
    ```mlir
    %y = ms.interpolate %x {sizes = array<i64: 1, 1, 8, 8>,
        scales = array<f64: 1.0, 1.0, 2.0, 2.0>, axes = array<i64: 2, 3>,
        mode = #ms<interpolation cubic>,
        coordinate_transformation_mode = #ms<resize_transform half_pixel>,
        nearest_modes = [#ms<nearest_mode round_prefer_floor>, #ms<nearest_mode round_prefer_floor>,
                         #ms<nearest_mode round_prefer_floor>, #ms<nearest_mode round_prefer_floor>],
        roi = array<f64: 0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0>, cubic_coeff_a = -7.5e-01 : f64,
        extrapolation_value = 0.0 : f64}
        : (tensor<1x1x4x4xf32>) -> tensor<1x1x8x8xf32>
    ```
  }];
  let arguments = (ins Ms_FloatTensor:$input, DenseI64ArrayAttr:$sizes,
                   DenseF64ArrayAttr:$scales, DenseI64ArrayAttr:$axes,
                   Ms_InterpolationAttr:$mode,
                   Ms_ResizeTransformAttr:$coordinate_transformation_mode,
                   TypedArrayAttrBase<Ms_NearestModeAttr, "nearest modes">:$nearest_modes,
                   DenseF64ArrayAttr:$roi, F64Attr:$cubic_coeff_a, F64Attr:$extrapolation_value,
                   UnitAttr:$antialias, UnitAttr:$exclude_outside);
  let results = (outs Ms_FloatTensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

def Ms_DetOp : Ms_InferredOp<"det"> {
  let summary = "Determinants of square matrices (ONNX Det).";
  let description = [{
    For `input` [..., n, n] (1 <= n <= 64), the result [...] holds each matrix's determinant.
    `ms-decompose` runs Gaussian elimination with partial pivoting, unrolled over the n columns.

    Example:
    ```mlir
    %d = ms.det %x : (tensor<2x3x3xf32>) -> tensor<2xf32>
    ```
  }];
  let arguments = (ins Ms_FloatTensor:$input);
  let results = (outs Ms_FloatTensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

def Ms_HardmaxOp : Ms_InferredOp<"hardmax"> {
  let summary = "1 at the first maximum of each slice, 0 elsewhere (ONNX Hardmax).";
  let description = [{
    The slices span `axes`: one axis, or (ONNX Hardmax before opset 13, which coerces its input
    to 2-D) every dim from one axis to the last, taken as one flattened axis; the first maximum
    in row-major order gets 1. The result has the input's type.

    Example:
    ```mlir
    %y = ms.hardmax %x {axes = array<i64: 1>} : (tensor<2x5xf32>) -> tensor<2x5xf32>
    ```
  }];
  let arguments = (ins Ms_Tensor:$input, DenseI64ArrayAttr:$axes);
  let results = (outs Ms_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

def Ms_RotaryEmbeddingOp : Ms_InferredOp<"rotary_embedding"> {
  let summary = "Rotates the features of attention heads by position (ONNX RotaryEmbedding).";
  let description = [{
    `input` is [B, heads, S, size] or, with `num_heads`, [B, S, heads * size]; its first
    `rotary_embedding_dim` features of each head are rotated in pairs (the two halves, or
    neighbours when `interleaved`) by `cos_cache` and `sin_cache`: [B, S, dim / 2], or
    [max_position, dim / 2] read at `position_ids` [B, S] when given. The result has the input's
    shape and type.

    Example:
    ```mlir
    %y = ms.rotary_embedding %x, %cos, %sin {rotary_embedding_dim = 4 : i64, num_heads = 0 : i64}
        : (tensor<1x2x3x4xf32>, tensor<1x3x2xf32>, tensor<1x3x2xf32>) -> tensor<1x2x3x4xf32>
    ```
  }];
  let arguments = (ins Ms_FloatTensor:$input, Ms_FloatTensor:$cos_cache,
                   Ms_FloatTensor:$sin_cache, Optional<Ms_IntegerTensor>:$position_ids,
                   I64Attr:$rotary_embedding_dim, I64Attr:$num_heads, UnitAttr:$interleaved);
  let results = (outs Ms_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $cos_cache `,` $sin_cache (`,` $position_ids^)? attr-dict `:`
    functional-type(operands, results)
  }];
}

def Ms_TfIdfOp : Ms_InferredOp<"tfidf"> {
  let summary = "Counts and weights n-grams of token ids (ONNX TfIdfVectorizer).";
  let description = [{
    For token ids `input` [rows, width], counts in each row the n-grams of `pool_int64s`
    (ngram_counts[i] is where its (i + 1)-grams start) of lengths `min_gram_length` to
    `max_gram_length` whose tokens sit d apart, d = 1 .. max_skip_count + 1 (unigrams at d = 1
    only), into output column `ngram_indexes[g]` of n-gram g: [rows, max(ngram_indexes) + 1] f32,
    then weighted by `mode`: `tf` the counts, `idf` 1 (or the column's weight) where the count is
    positive, `tfidf` the counts times `weights` (none: ones).

    Example:
    ```mlir
    %y = ms.tfidf %x {mode = #ms<tfidf_mode tf>, min_gram_length = 1 : i64,
        max_gram_length = 1 : i64, max_skip_count = 0 : i64, ngram_counts = array<i64: 0>,
        ngram_indexes = array<i64: 0, 1>, pool_int64s = array<i64: 3, 7>, weights = array<f64>}
        : (tensor<2x6xi64>) -> tensor<2x2xf32>
    ```
  }];
  let arguments = (ins Ms_IntegerTensor:$input, Ms_TfIdfModeAttr:$mode, I64Attr:$min_gram_length,
                   I64Attr:$max_gram_length, I64Attr:$max_skip_count,
                   DenseI64ArrayAttr:$ngram_counts, DenseI64ArrayAttr:$ngram_indexes,
                   DenseI64ArrayAttr:$pool_int64s, DenseF64ArrayAttr:$weights);
  let results = (outs Ms_FloatTensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let extraClassDeclaration = [{
    /// Where the n-grams of each length (1, 2, ...) start and end in a pool of `poolSize` tokens
    /// split by `counts`; failure where they do not split it into whole n-grams.
    static ::mlir::LogicalResult ngramRanges(
        ::llvm::ArrayRef<int64_t> counts, int64_t poolSize,
        ::llvm::SmallVectorImpl<std::pair<int64_t, int64_t>> &ranges);
  }];
}

def Ms_OnnxAttentionOp : Ms_InferredOp<"onnx_attention", [AttrSizedOperandSegments]> {
  let summary = "ONNX Attention (opsets 23/24) on split heads, before it is fused.";
  let description = [{
    For `query` [B, Hq, S, D], `key` [B, Hkv, T, D] and `value` [B, Hkv, T, Dv] (Hkv dividing Hq;
    the importer splits 3-D inputs into heads and puts the past keys and values, `past_length`
    of the T, in front): softmax(Q Kᵀ · `scale` + bias) V, where the bias adds `attn_mask` (bool:
    0 / -inf; padded with -inf to T), with `is_causal` -inf above the diagonal shifted by
    `past_length`, and -inf at the key positions past `nonpad_kv_seqlen` [B]; `softcap` > 0 caps
    the logits by softcap · tanh(x / softcap), the softmax runs in `softmax_type`. Q and K are
    each scaled by sqrt(scale), as ONNX's reference does. Results: `output` [B, Hq, S, Dv] and
    `qk_output` [B, Hq, S, T], the scores as `qk_matmul_output_mode` names them (0: Q Kᵀ, 1: plus
    the bias, 2: after the softcap, 3: after the softmax, in `softmax_type`). `ms-decompose`
    writes ONNX's function body, the chain the attention fold (ms.attention) takes over.

    Example:
    ```mlir
    %y, %qk = ms.onnx_attention %q, %k, %v {is_causal, past_length = 0 : i64,
        qk_matmul_output_mode = 0 : i64, scale = 0.5 : f64, softcap = 0.0 : f64,
        softmax_type = f32}
        : (tensor<1x2x3x4xf32>, tensor<1x2x3x4xf32>, tensor<1x2x3x4xf32>)
        -> (tensor<1x2x3x4xf32>, tensor<1x2x3x3xf32>)
    ```
  }];
  let arguments = (ins Ms_FloatTensor:$query, Ms_FloatTensor:$key, Ms_FloatTensor:$value,
                   Optional<Ms_Tensor>:$attn_mask, Optional<Ms_IntegerTensor>:$nonpad_kv_seqlen,
                   UnitAttr:$is_causal, I64Attr:$past_length, F64Attr:$scale, F64Attr:$softcap,
                   I64Attr:$qk_matmul_output_mode, TypeAttr:$softmax_type);
  let results = (outs Ms_FloatTensor:$output, Ms_FloatTensor:$qk_output);
  let assemblyFormat = [{
    $query `,` $key `,` $value (`,` $attn_mask^)? (`nonpad` $nonpad_kv_seqlen^)? attr-dict `:`
    functional-type(operands, results)
  }];
}

#endif // MS_COMPOSITE_OPS_TD
