//===- MsTensorOps.td - constants and shape/data movement ops ------------===//

#ifndef MS_TENSOR_OPS_TD
#define MS_TENSOR_OPS_TD

include "dialects/ms/IR/MsBase.td"

// How a scatter combines an update with the element already there (ONNX's `reduction`).
def Ms_ScatterReduction : I32EnumAttr<"ScatterReduction", "scatter reduction", [
    I32EnumAttrCase<"none", 0>, I32EnumAttrCase<"add", 1>, I32EnumAttrCase<"mul", 2>,
    I32EnumAttrCase<"max", 3>, I32EnumAttrCase<"min", 4>]> {
  let cppNamespace = "::mlir::ms";
  let genSpecializedAttr = 0;
}
def Ms_ScatterReductionAttr : EnumAttr<Ms_Dialect, Ms_ScatterReduction, "scatter_reduction">;

def Ms_ConstantOp : Ms_Op<"constant", [ConstantLike, Pure, InferTypeOpAdaptor]> {
  let summary = "A constant tensor: weights, or small folded values.";
  let description = [{
    Materializes `value`. Weights imported from a model are `dense_resource` attributes, whose bytes
    live in the file's resource section and are never printed inline; small values produced by folding
    are ordinary `dense` attributes.

    Example:
    ```mlir
    %w = ms.constant dense_resource<conv1_weight> : tensor<64x3x7x7xf32>
    %z = ms.constant dense<0.0> : tensor<64xf32>
    ```
  }];
  let arguments = (ins ElementsAttr:$value);
  let results = (outs Ms_Tensor:$result);
  let assemblyFormat = "attr-dict $value";
  let hasFolder = 1;
  let hasVerifier = 1;
}

def Ms_ReshapeOp : Ms_InferredOp<"reshape"> {
  let summary = "Reinterprets a tensor with a new shape of the same number of elements.";
  let description = [{
    Row-major reshape to `shape` (the importer resolves ONNX's 0 and -1 entries). A dim that
    depends on the function's symbolic dims (docs/dynamic-shapes.md) is `?` in `shape`, and
    `symbolic_shape` gives every result dim as an expression of the function's symbols (`s0` is
    the first name of the function's `ms.symbols`): how a Reshape of `[batch, seq, 768]` to
    `[batch, seq, 12, 64]` stays a view of known extents.

    Example:
    ```mlir
    %y = ms.reshape %x {shape = array<i64: 1, 512>} : (tensor<1x512x1x1xf32>) -> tensor<1x512xf32>
    %z = ms.reshape %h {shape = array<i64: -9223372036854775808, 12, 64>,
                        symbolic_shape = affine_map<()[s0, s1] -> (s0 * s1, 12, 64)>}
        : (tensor<?x?x768xf32>) -> tensor<?x12x64xf32>
    ```
  }];
  let arguments = (ins Ms_Tensor:$input, DenseI64ArrayAttr:$shape,
                       OptionalAttr<AffineMapAttr>:$symbolic_shape);
  let results = (outs Ms_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
  // A static reshape, as every pass but the importer's symbolic-dims path builds one.
  let builders = [
    OpBuilder<(ins "::mlir::Value":$input, "::llvm::ArrayRef<int64_t>":$shape), [{
      build($_builder, $_state, input, $_builder.getDenseI64ArrayAttr(shape), ::mlir::AffineMapAttr());
    }]>,
    OpBuilder<(ins "::mlir::Type":$resultType, "::mlir::Value":$input, "::llvm::ArrayRef<int64_t>":$shape), [{
      build($_builder, $_state, resultType, input, $_builder.getDenseI64ArrayAttr(shape), ::mlir::AffineMapAttr());
    }]>,
    OpBuilder<(ins "::mlir::TypeRange":$resultTypes, "::mlir::Value":$input, "::llvm::ArrayRef<int64_t>":$shape), [{
      build($_builder, $_state, resultTypes, input, $_builder.getDenseI64ArrayAttr(shape), ::mlir::AffineMapAttr());
    }]>];
}

def Ms_FlattenOp : Ms_InferredOp<"flatten"> {
  let summary = "Flattens to 2-D: dims before `axis` form rows, the rest columns.";
  let description = [{
    ONNX Flatten: [d0, ..., dn) -> [d0 * ... * d(axis-1), d(axis) * ... * d(n-1)]; `axis` may be
    negative and lies in [-rank, rank].

    Example:
    ```mlir
    %y = ms.flatten %x {axis = 1 : i64} : (tensor<1x512x1x1xf32>) -> tensor<1x512xf32>
    ```
  }];
  let arguments = (ins Ms_Tensor:$input, DefaultValuedAttr<I64Attr, "1">:$axis);
  let results = (outs Ms_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
}

def Ms_SqueezeOp : Ms_InferredOp<"squeeze"> {
  let summary = "Removes size-1 dimensions.";
  let description = [{
    Removes the listed `axes` (each must have size 1; negative counts from the end), or every size-1
    dim when `axes` is empty.

    Example:
    ```mlir
    %y = ms.squeeze %x {axes = array<i64: 2, 3>} : (tensor<1x512x1x1xf32>) -> tensor<1x512xf32>
    ```
  }];
  let arguments = (ins Ms_Tensor:$input, DefaultValuedAttr<DenseI64ArrayAttr, "{}">:$axes);
  let results = (outs Ms_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
}

def Ms_UnsqueezeOp : Ms_InferredOp<"unsqueeze"> {
  let summary = "Inserts size-1 dimensions.";
  let description = [{
    Inserts a size-1 dim at each of `axes`, which index the result (negative counts from the end of
    the result) and must be distinct.

    Example:
    ```mlir
    %y = ms.unsqueeze %x {axes = array<i64: 0>} : (tensor<128xi64>) -> tensor<1x128xi64>
    ```
  }];
  let arguments = (ins Ms_Tensor:$input, DenseI64ArrayAttr:$axes);
  let results = (outs Ms_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
}

def Ms_TransposeOp : Ms_InferredOp<"transpose"> {
  let summary = "Permutes dimensions.";
  let description = [{
    `result.shape[i] = input.shape[perms[i]]`; `perms` is a permutation of [0, rank).

    Example:
    ```mlir
    %y = ms.transpose %x {perms = array<i64: 0, 2, 1, 3>}
        : (tensor<1x128x12x64xf32>) -> tensor<1x12x128x64xf32>
    ```
  }];
  let arguments = (ins Ms_Tensor:$input, DenseI64ArrayAttr:$perms);
  let results = (outs Ms_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
}

def Ms_ConcatOp : Ms_InferredOp<"concat"> {
  let summary = "Concatenates tensors along one axis.";
  let description = [{
    All inputs have the same rank, element type and sizes except along `axis` (negative counts from the
    end).

    Example:
    ```mlir
    %y = ms.concat %a, %b {axis = 1 : i64}
        : (tensor<1x16x8x8xf32>, tensor<1x32x8x8xf32>) -> tensor<1x48x8x8xf32>
    ```
  }];
  let arguments = (ins Variadic<Ms_Tensor>:$inputs, I64Attr:$axis);
  let results = (outs Ms_Tensor:$result);
  let assemblyFormat = "$inputs attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
}

def Ms_SplitOp : Ms_InferredOp<"split"> {
  let summary = "Splits a tensor into consecutive pieces along one axis.";
  let description = [{
    Produces one result per entry of `sizes`, which must be non-negative and add up to the size
    of `axis`.

    Example:
    ```mlir
    %q, %k, %v = ms.split %x {axis = 2 : i64, sizes = array<i64: 768, 768, 768>}
        : (tensor<1x128x2304xf32>) -> (tensor<1x128x768xf32>, tensor<1x128x768xf32>, tensor<1x128x768xf32>)
    ```
  }];
  let arguments = (ins Ms_Tensor:$input, I64Attr:$axis, DenseI64ArrayAttr:$sizes);
  let results = (outs Variadic<Ms_Tensor>:$results);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

def Ms_SliceOp : Ms_InferredOp<"slice"> {
  let summary = "Extracts a strided box of a tensor.";
  let description = [{
    For every dim d: `sizes[d]` elements starting at `starts[d]` with step `steps[d]` (non-zero, may be
    negative). All three arrays have one entry per dim and all selected indices must be in bounds; the
    importer normalizes ONNX Slice's clamping, negative indices and partial axes into this form.
    A size that depends on the function's symbolic dims is `?` in `sizes`, and `symbolic_sizes`
    gives every size as an expression of the symbols (as ms.reshape's `symbolic_shape` does): a
    position table sliced to the sequence length. Likewise a start that depends on them is `?` in
    `starts`, and `symbolic_starts` gives every start as an expression: the last token
    (`x[:, seq - 1:]`) or the window of a KV cache (`past[:, :, past_len - window:]`).

    Example:
    ```mlir
    %y = ms.slice %x {starts = array<i64: 0, 1>, sizes = array<i64: 4, 2>, steps = array<i64: 1, 2>}
        : (tensor<4x6xf32>) -> tensor<4x2xf32>
    %p = ms.slice %table {starts = array<i64: 0, 0>, sizes = array<i64: 1, -9223372036854775808>,
                          steps = array<i64: 1, 1>,
                          symbolic_sizes = affine_map<()[s0, s1] -> (1, s1)>}
        : (tensor<1x512xi64>) -> tensor<1x?xi64>
    %l = ms.slice %h {starts = array<i64: 0, -9223372036854775808, 0>, sizes = array<i64: 1, 1, 32>,
                      steps = array<i64: 1, 1, 1>,
                      symbolic_starts = affine_map<()[s0] -> (0, s0 - 1, 0)>}
        : (tensor<1x?x32xf32>) -> tensor<1x1x32xf32>
    ```
  }];
  let arguments = (ins Ms_Tensor:$input, DenseI64ArrayAttr:$starts, DenseI64ArrayAttr:$sizes,
                   DenseI64ArrayAttr:$steps, OptionalAttr<AffineMapAttr>:$symbolic_sizes,
                   OptionalAttr<AffineMapAttr>:$symbolic_starts);
  let results = (outs Ms_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
  // A static slice, as every pass but the importer's symbolic-dims path builds one.
  let builders = [
    OpBuilder<(ins "::mlir::Value":$input, "::llvm::ArrayRef<int64_t>":$starts,
                   "::llvm::ArrayRef<int64_t>":$sizes, "::llvm::ArrayRef<int64_t>":$steps), [{
      build($_builder, $_state, input, $_builder.getDenseI64ArrayAttr(starts),
            $_builder.getDenseI64ArrayAttr(sizes), $_builder.getDenseI64ArrayAttr(steps),
            ::mlir::AffineMapAttr(), ::mlir::AffineMapAttr());
    }]>,
    OpBuilder<(ins "::mlir::Type":$resultType, "::mlir::Value":$input,
                   "::llvm::ArrayRef<int64_t>":$starts, "::llvm::ArrayRef<int64_t>":$sizes,
                   "::llvm::ArrayRef<int64_t>":$steps), [{
      build($_builder, $_state, resultType, input, $_builder.getDenseI64ArrayAttr(starts),
            $_builder.getDenseI64ArrayAttr(sizes), $_builder.getDenseI64ArrayAttr(steps),
            ::mlir::AffineMapAttr(), ::mlir::AffineMapAttr());
    }]>,
    OpBuilder<(ins "::mlir::TypeRange":$resultTypes, "::mlir::Value":$input,
                   "::llvm::ArrayRef<int64_t>":$starts, "::llvm::ArrayRef<int64_t>":$sizes,
                   "::llvm::ArrayRef<int64_t>":$steps), [{
      build($_builder, $_state, resultTypes, input, $_builder.getDenseI64ArrayAttr(starts),
            $_builder.getDenseI64ArrayAttr(sizes), $_builder.getDenseI64ArrayAttr(steps),
            ::mlir::AffineMapAttr(), ::mlir::AffineMapAttr());
    }]>];
}

def Ms_GatherOp : Ms_InferredOp<"gather"> {
  let summary = "Gathers slices along one axis by integer indices (embedding lookup).";
  let description = [{
    ONNX Gather: result shape is `data.shape[:axis] + indices.shape + data.shape[axis+1:]`; negative
    indices count from the end of the axis.

    Example:
    ```mlir
    %e = ms.gather %table, %ids {axis = 0 : i64}
        : (tensor<30522x768xf32>, tensor<1x128xi64>) -> tensor<1x128x768xf32>
    ```
  }];
  let arguments = (ins Ms_Tensor:$data, Ms_IndexTensor:$indices, DefaultValuedAttr<I64Attr, "0">:$axis);
  let results = (outs Ms_Tensor:$result);
  let assemblyFormat = "$data `,` $indices attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
}

def Ms_GatherElementsOp : Ms_InferredOp<"gather_elements"> {
  let summary = "Reads one element per index along an axis (ONNX GatherElements).";
  let description = [{
    `result[i][j][k] = data[indices[i][j][k]][j][k]` for `axis` = 0, and likewise for the other
    axes. `indices` has the rank of `data` and no dim larger than data's (except along `axis`); the
    result has the shape of `indices`. Negative indices count from the end of the axis; indices out
    of range are invalid ONNX and read a clamped position.

    Example:
    ```mlir
    %y = ms.gather_elements %data, %idx {axis = 1 : i64}
        : (tensor<3x4xf32>, tensor<3x2xi64>) -> tensor<3x2xf32>
    ```
  }];
  let arguments = (ins Ms_Tensor:$data, Ms_IndexTensor:$indices,
                   DefaultValuedAttr<I64Attr, "0">:$axis);
  let results = (outs Ms_Tensor:$result);
  let assemblyFormat = "$data `,` $indices attr-dict `:` functional-type(operands, results)";
}

def Ms_GatherNdOp : Ms_InferredOp<"gather_nd"> {
  let summary = "Gathers slices addressed by index tuples (ONNX GatherND).";
  let description = [{
    The last dim of `indices` (size r) holds tuples indexing dims [batch_dims, batch_dims + r) of
    `data`; the first `batch_dims` dims of both are batch dims of equal sizes. The result shape is
    `indices.shape[:-1] + data.shape[batch_dims + r:]`. Negative indices count from the end of their
    dim; indices out of range are invalid ONNX and read a clamped position.

    Example:
    ```mlir
    %y = ms.gather_nd %data, %idx {batch_dims = 1 : i64}
        : (tensor<2x3x4xf32>, tensor<2x5x1xi64>) -> tensor<2x5x4xf32>
    ```
  }];
  let arguments = (ins Ms_Tensor:$data, Ms_IndexTensor:$indices,
                   DefaultValuedAttr<I64Attr, "0">:$batch_dims);
  let results = (outs Ms_Tensor:$result);
  let assemblyFormat = "$data `,` $indices attr-dict `:` functional-type(operands, results)";
}

def Ms_ScatterElementsOp : Ms_InferredOp<"scatter_elements"> {
  let summary = "Writes updates at per-element indices along an axis (ONNX ScatterElements).";
  let description = [{
    The result is `data` with `result[indices[i][j]][j] = updates[i][j]` for `axis` = 0 (likewise
    for the other axes), or combined with the value there by `reduction` (add, mul, max, min).
    `indices` and `updates` have the same shape, of the rank of `data`. Updates are applied in
    row-major order, so with duplicate indices and no reduction the last one wins. Negative indices
    count from the end of the axis; indices out of range are invalid ONNX and write a clamped
    position.

    Example:
    ```mlir
    %y = ms.scatter_elements %data, %idx, %upd
        {axis = 1 : i64, reduction = #ms<scatter_reduction add>}
        : (tensor<1x5xf32>, tensor<1x2xi64>, tensor<1x2xf32>) -> tensor<1x5xf32>
    ```
  }];
  let arguments = (ins Ms_Tensor:$data, Ms_IndexTensor:$indices, Ms_Tensor:$updates,
                   DefaultValuedAttr<I64Attr, "0">:$axis,
                   DefaultValuedAttr<Ms_ScatterReductionAttr,
                                     "::mlir::ms::ScatterReduction::none">:$reduction);
  let results = (outs Ms_Tensor:$result);
  let assemblyFormat = [{
    $data `,` $indices `,` $updates attr-dict `:` functional-type(operands, results)
  }];
}

def Ms_ScatterNdOp : Ms_InferredOp<"scatter_nd"> {
  let summary = "Writes update slices at index tuples (ONNX ScatterND).";
  let description = [{
    The last dim of `indices` (size r) holds tuples addressing the leading r dims of `data`; the
    result is `data` with each addressed slice replaced by (or, with `reduction`, combined with) the
    matching slice of `updates`, whose shape is `indices.shape[:-1] + data.shape[r:]`. Tuples are
    applied in row-major order, so with duplicates and no reduction the last one wins. Negative
    indices count from the end of their dim; indices out of range are invalid ONNX and write a
    clamped position.

    Example:
    ```mlir
    %y = ms.scatter_nd %data, %idx, %upd {reduction = #ms<scatter_reduction mul>}
        : (tensor<4x4x4xf32>, tensor<2x1xi64>, tensor<2x4x4xf32>) -> tensor<4x4x4xf32>
    ```
  }];
  let arguments = (ins Ms_Tensor:$data, Ms_IndexTensor:$indices, Ms_Tensor:$updates,
                   DefaultValuedAttr<Ms_ScatterReductionAttr,
                                     "::mlir::ms::ScatterReduction::none">:$reduction);
  let results = (outs Ms_Tensor:$result);
  let assemblyFormat = [{
    $data `,` $indices `,` $updates attr-dict `:` functional-type(operands, results)
  }];
}

def Ms_RangeOp : Ms_Op<"range", [Pure]> {
  let summary = "The integers start, start + delta, ... of a length given by the symbols.";
  let description = [{
    ONNX Range whose bounds are computed from the function's symbolic dims (docs/dynamic-shapes.md):
    `torch.arange(seq)` positions, a causal mask's row and column indices. `symbolic_range` gives
    the first element and the number of elements as expressions of the symbols (`s0` is the first
    name of the function's `ms.symbols`); element i is `start + i * delta`. The result's one dim is
    that count, `?` unless it is a constant. A Range of known bounds is a constant instead, so this
    op only exists until ms-specialize-dims sizes the symbols and makes it one.

    Example:
    ```mlir
    %pos = ms.range {delta = 1 : i64, symbolic_range = affine_map<()[s0, s1] -> (0, s1)>}
        : tensor<?xi64>
    ```
  }];
  let arguments = (ins AffineMapAttr:$symbolic_range, I64Attr:$delta);
  let results = (outs RankedTensorOf<[AnySignlessInteger]>:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The first element and the number of elements, as expressions of the symbols.
    ::mlir::AffineExpr getStartExpr() { return getSymbolicRange().getResult(0); }
    ::mlir::AffineExpr getSizeExpr() { return getSymbolicRange().getResult(1); }
  }];
}

def Ms_PadOp : Ms_InferredOp<"pad"> {
  let summary = "Pads (or, with negative amounts, crops) every dimension.";
  let description = [{
    `pads` has 2 * rank entries in ONNX order [begin_0, ..., begin_n, end_0, ..., end_n]. `mode` is
    constant (filled with `value`), reflect or edge. An amount that depends on the function's
    symbolic dims is `?` in `pads`, and `symbolic_pads` gives every amount as an expression of
    the symbols (as ms.slice's `symbolic_sizes` does): a sequence padded to a multiple of a block.

    Example:
    ```mlir
    %y = ms.pad %x {pads = array<i64: 0, 0, 1, 1, 0, 0, 1, 1>, mode = #ms<pad_mode constant>,
                    value = 0.0 : f64} : (tensor<1x3x4x4xf32>) -> tensor<1x3x6x6xf32>
    %b = ms.pad %h {pads = array<i64: 0, 0, 0, -9223372036854775808>,
                    symbolic_pads = affine_map<()[s0] -> (0, 0, 0, (s0 ceildiv 8) * 8 - s0)>}
        : (tensor<1x?xf32>) -> tensor<1x?xf32>
    ```
  }];
  let arguments = (ins Ms_Tensor:$input, DenseI64ArrayAttr:$pads,
                   DefaultValuedAttr<Ms_PadModeAttr, "::mlir::ms::PadMode::constant">:$mode,
                   DefaultValuedAttr<F64Attr, "0.0">:$value,
                   OptionalAttr<AffineMapAttr>:$symbolic_pads);
  let results = (outs Ms_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
  // A static pad, as every pass but the importer's symbolic-dims path builds one.
  let builders = [
    OpBuilder<(ins "::mlir::TypeRange":$resultTypes, "::mlir::Value":$input,
                   "::llvm::ArrayRef<int64_t>":$pads,
                   CArg<"::mlir::ms::PadMode", "::mlir::ms::PadMode::constant">:$mode,
                   CArg<"::llvm::APFloat", "::llvm::APFloat(0.0)">:$value), [{
      build($_builder, $_state, resultTypes, input, pads, mode, value, ::mlir::AffineMapAttr());
    }]>,
    OpBuilder<(ins "::mlir::Type":$resultType, "::mlir::Value":$input,
                   "::llvm::ArrayRef<int64_t>":$pads,
                   CArg<"::mlir::ms::PadMode", "::mlir::ms::PadMode::constant">:$mode,
                   CArg<"::llvm::APFloat", "::llvm::APFloat(0.0)">:$value), [{
      build($_builder, $_state, resultType, input, pads, mode, value, ::mlir::AffineMapAttr());
    }]>,
    OpBuilder<(ins "::mlir::Value":$input, "::llvm::ArrayRef<int64_t>":$pads,
                   CArg<"::mlir::ms::PadMode", "::mlir::ms::PadMode::constant">:$mode,
                   CArg<"::llvm::APFloat", "::llvm::APFloat(0.0)">:$value), [{
      build($_builder, $_state, input, pads, mode, value, ::mlir::AffineMapAttr());
    }]>];
}

def Ms_ExpandOp : Ms_InferredOp<"expand"> {
  let summary = "Broadcasts a tensor to a shape (ONNX Expand).";
  let description = [{
    The result shape is the numpy broadcast of the input shape with `shape`, so a 1 in `shape` keeps the
    input's size. With symbolic dims (docs/dynamic-shapes.md), `shape` is the result's shape, `?`
    where `symbolic_shape` (one expression of the function's symbols per result dim) is not a
    constant: a class token expanded to the batch.

    Example:
    ```mlir
    %y = ms.expand %x {shape = array<i64: 2, 1, 6>} : (tensor<3x1xf32>) -> tensor<2x3x6xf32>
    %c = ms.expand %cls {shape = array<i64: -9223372036854775808, 1, 768>,
                         symbolic_shape = affine_map<()[s0] -> (s0, 1, 768)>}
        : (tensor<1x1x768xf32>) -> tensor<?x1x768xf32>
    ```
  }];
  let arguments = (ins Ms_Tensor:$input, DenseI64ArrayAttr:$shape,
                       OptionalAttr<AffineMapAttr>:$symbolic_shape);
  let results = (outs Ms_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
  // A static expand, as every pass but the importer's symbolic-dims path builds one.
  let builders = [
    OpBuilder<(ins "::mlir::Value":$input, "::llvm::ArrayRef<int64_t>":$shape), [{
      build($_builder, $_state, input, $_builder.getDenseI64ArrayAttr(shape), ::mlir::AffineMapAttr());
    }]>,
    OpBuilder<(ins "::mlir::Type":$resultType, "::mlir::Value":$input, "::llvm::ArrayRef<int64_t>":$shape), [{
      build($_builder, $_state, resultType, input, $_builder.getDenseI64ArrayAttr(shape), ::mlir::AffineMapAttr());
    }]>,
    OpBuilder<(ins "::mlir::TypeRange":$resultTypes, "::mlir::Value":$input, "::llvm::ArrayRef<int64_t>":$shape), [{
      build($_builder, $_state, resultTypes, input, $_builder.getDenseI64ArrayAttr(shape), ::mlir::AffineMapAttr());
    }]>];
}

def Ms_ResizeOp : Ms_InferredOp<"resize"> {
  let summary = "Resizes a tensor to `sizes` by nearest or linear interpolation.";
  let description = [{
    ONNX Resize with the output size resolved: `sizes` has one entry per dim; `mode` is nearest or
    linear (bilinear over the spatial dims), `coordinate_mode` maps output to input coordinates and
    `nearest_mode` rounds for nearest. A symbolic input dim is kept: its size is `?`
    (ShapedType::kDynamic), and only symbolic dims have such a size.

    Example:
    ```mlir
    %y = ms.resize %x {sizes = array<i64: 1, 3, 8, 8>, mode = #ms<resize_mode nearest>}
        : (tensor<1x3x4x4xf32>) -> tensor<1x3x8x8xf32>
    ```
  }];
  let arguments = (ins Ms_FloatTensor:$input, DenseI64ArrayAttr:$sizes,
      DefaultValuedAttr<Ms_ResizeModeAttr, "::mlir::ms::ResizeMode::nearest">:$mode,
      DefaultValuedAttr<Ms_CoordinateModeAttr, "::mlir::ms::CoordinateMode::half_pixel">:$coordinate_mode,
      DefaultValuedAttr<Ms_NearestModeAttr, "::mlir::ms::NearestMode::round_prefer_floor">:$nearest_mode);
  let results = (outs Ms_FloatTensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
}

def Ms_ShapeOfOp : Ms_InferredOp<"shape_of"> {
  let summary = "The extents of dims [start, end) of a tensor, as a 1-D i64 tensor.";
  let description = [{
    ONNX Shape of a tensor with symbolic dims: the run-time extents of dims `start` to `end`
    (both in [0, rank], already normalized). Folds to a constant when those dims are static.

    Example:
    ```mlir
    %s = ms.shape_of %x {start = 0 : i64, end = 2 : i64} : (tensor<?x?x768xf32>) -> tensor<2xi64>
    ```
  }];
  let arguments = (ins Ms_Tensor:$input, I64Attr:$start, I64Attr:$end);
  let results = (outs RankedTensorOf<[I64]>:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
}

#endif // MS_TENSOR_OPS_TD
