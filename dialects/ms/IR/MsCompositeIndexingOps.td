//===- MsCompositeIndexingOps.td - OneHot, ReverseSequence, ... -*- tablegen -*-===//
//
// ONNX ops that move elements to positions computed at run time (ReverseSequence, TensorScatter,
// MaxUnpool) or compare indices against a range (OneHot), which the importer emits one-to-one and
// `ms-decompose` writes with ms.gather_elements / ms.scatter_elements and index arithmetic
// (DecomposeIndexingPatterns.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef MS_COMPOSITE_INDEXING_OPS_TD
#define MS_COMPOSITE_INDEXING_OPS_TD

include "dialects/ms/IR/MsBase.td"

def Ms_OneHotOp : Ms_InferredOp<"one_hot"> {
  let summary = "One-hot encoding of indices along a new axis (ONNX OneHot).";
  let description = [{
    The result has `indices`' shape with a dim of `depth` inserted at `axis` (in [-r - 1, r] for
    indices of rank r): `values[1]` (on) where the index equals the position along that dim,
    `values[0]` (off) elsewhere. Float indices truncate; negative ones count from `depth`.
    `values` holds two elements; the result has its element type. `ms-decompose` compares the
    indices with a constant range and selects.

    Example:
    ```mlir
    %y = ms.one_hot %i, %v {depth = 4 : i64, axis = -1 : i64}
        : (tensor<3xi64>, tensor<2xf32>) -> tensor<3x4xf32>
    ```
  }];
  let arguments = (ins Ms_NumericTensor:$indices, Ms_Tensor:$values, I64Attr:$depth,
                   I64Attr:$axis);
  let results = (outs Ms_Tensor:$result);
  let assemblyFormat = "$indices `,` $values attr-dict `:` functional-type(operands, results)";
}

def Ms_ReverseSequenceOp : Ms_InferredOp<"reverse_sequence"> {
  let summary = "Reverses the first sequence_lens[b] steps of each batch entry (ONNX ReverseSequence).";
  let description = [{
    For `input` of rank >= 2 with batch and time axes 0 and 1 (in either order) and int64
    `sequence_lens` [batch]: `result[t, b] = input[len[b] - 1 - t, b]` for t < len[b], else
    `input[t, b]`. `ms-decompose` runs it as one ms.gather_elements along the time axis.

    Example:
    ```mlir
    %y = ms.reverse_sequence %x, %lens {batch_axis = 1 : i64, time_axis = 0 : i64}
        : (tensor<4x3x2xf32>, tensor<3xi64>) -> tensor<4x3x2xf32>
    ```
  }];
  let arguments = (ins Ms_Tensor:$input, Ms_IntegerTensor:$sequence_lens, I64Attr:$batch_axis,
                   I64Attr:$time_axis);
  let results = (outs Ms_Tensor:$result);
  let assemblyFormat = [{
    $input `,` $sequence_lens attr-dict `:` functional-type(operands, results)
  }];
}

def Ms_TensorScatterOp : Ms_InferredOp<"tensor_scatter"> {
  let summary = "Writes an update into a key/value cache at per-batch offsets (ONNX TensorScatter).";
  let description = [{
    `result[b, ..., p, ...] = update[b, ..., p - w[b], ...]` where `0 <= p - w[b] <` the update's
    length along `axis` (p - w[b] taken modulo the cache length when `circular`), else
    `past_cache[b, ..., p, ...]`; w is the int64 `write_indices` [batch] (zeros when absent).
    `past_cache` and `update` have one rank (>= 2) and element type and equal dims but along
    `axis` (in [-rank, rank), not the batch axis 0), where the update is not longer. The result
    has the cache's type. `ms-decompose` gathers the update and selects.

    Example:
    ```mlir
    %y = ms.tensor_scatter %past, %update, %w {axis = -2 : i64}
        : (tensor<2x5x4xf32>, tensor<2x2x4xf32>, tensor<2xi64>) -> tensor<2x5x4xf32>
    ```
  }];
  let arguments = (ins Ms_Tensor:$past_cache, Ms_Tensor:$update,
                   Optional<Ms_IntegerTensor>:$write_indices, I64Attr:$axis,
                   UnitAttr:$circular);
  let results = (outs Ms_Tensor:$result);
  let assemblyFormat = [{
    $past_cache `,` $update (`,` $write_indices^)? attr-dict `:` functional-type(operands, results)
  }];
}

def Ms_MaxUnpoolOp : Ms_InferredOp<"max_unpool"> {
  let summary = "Scatters pooled values back to their flat indices (ONNX MaxUnpool).";
  let description = [{
    For `input` [N, C, spatial...] and int64 `indices` of its shape (flat positions in the
    unpooled tensor): a zero tensor of the unpooled shape, `(in - 1) * stride - pad_begin -
    pad_end + kernel` per spatial dim, with the values written at their indices. A non-empty
    `output_shape` (N and C kept, each dim at least the unpooled one) puts that block at its
    origin and fills the rest with zeros, as ONNX's reference does. `ms-decompose` runs it as one
    ms.scatter_elements into a flat zero tensor, a reshape and a pad.

    Example:
    ```mlir
    %y = ms.max_unpool %x, %i {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>,
                               pads = array<i64: 0, 0, 0, 0>, output_shape = array<i64>}
        : (tensor<1x1x2x2xf32>, tensor<1x1x2x2xi64>) -> tensor<1x1x4x4xf32>
    ```
  }];
  let arguments = (ins Ms_Tensor:$input, Ms_IntegerTensor:$indices,
                   DenseI64ArrayAttr:$kernel_shape, DenseI64ArrayAttr:$strides,
                   DenseI64ArrayAttr:$pads, DenseI64ArrayAttr:$output_shape);
  let results = (outs Ms_Tensor:$result);
  let assemblyFormat = "$input `,` $indices attr-dict `:` functional-type(operands, results)";
  let extraClassDeclaration = [{
    /// The shape the indices address: (in - 1) * stride - pads + kernel per spatial dim.
    ::llvm::SmallVector<int64_t> getUnpooledShape();
  }];
}

def Ms_MaxPoolIndicesOp : Ms_InferredOp<"max_pool_indices"> {
  let summary = "Flat indices of the first maximum of each 2-D max pool window (ONNX MaxPool's Indices).";
  let description = [{
    For `input` [N, C, H, W] and the window of ms.max_pool (`kernel`, `strides`, `pads` [top,
    left, bottom, right], `dilations`, `ceil_mode`), the int64 result [N, C, OH, OW] holds, per
    window, the flat index into the input (row-major, or column-major within each plane when
    `column_major`) of its first maximum in row-major window order, as ONNX's reference does.
    `ms-decompose` reads the input padded with -inf once per window tap with a strided slice; a
    strictly greater tap replaces the running maximum and its index, taken from a constant plane
    index plus a constant per-plane offset.

    Example:
    ```mlir
    %i = ms.max_pool_indices %x {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>,
                                 pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>}
        : (tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xi64>
    ```
  }];
  let arguments = (ins Ms_FloatTensor:$input, DenseI64ArrayAttr:$kernel,
                   DenseI64ArrayAttr:$strides, DenseI64ArrayAttr:$pads,
                   DenseI64ArrayAttr:$dilations, UnitAttr:$ceil_mode, UnitAttr:$column_major);
  let results = (outs RankedTensorOf<[I64]>:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

#endif // MS_COMPOSITE_INDEXING_OPS_TD
