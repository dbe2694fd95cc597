//===- MsDynamicShapeOps.td - ops with data-dependent extents -*- tablegen -*-===//
//
// Ops whose result extents depend on the values of their operands (ONNX NonZero, Unique and the
// NonMaxSuppression selection), and the run-time check of values that must agree with a declared
// shape (ms.check). `ms` types are static, so each result is typed at its upper bound
// and the op also returns the real extent as a one-element i64 tensor (docs/dynamic-shapes.md):
// the elements past it are padding (zeros), which later ops may read (a zero index is in range)
// but a graph output never shows, because the runtime cuts it to the real extent.
//
//===----------------------------------------------------------------------===//

#ifndef MS_DYNAMIC_SHAPE_OPS_TD
#define MS_DYNAMIC_SHAPE_OPS_TD

include "dialects/ms/IR/MsBase.td"

def Ms_CheckOp : Ms_InferredOp<"check"> {
  let summary = "Its input, where a run-time condition holds; the run fails with `message` where not.";
  let description = [{
    A model's parameters that only a run gives (a Slice's starts or a Pad's pads as graph inputs)
    must agree with the shape the model declares for the result; the importer computes the
    agreement as `condition` (a one-element i1 tensor) and passes a small tensor the result
    depends on (its indices) through this op. The run fails with `message` (which names the ONNX
    node) when the condition is false; the code after it stays memory-safe either way (its indices
    are clamped). Pure as a function of its operands: a check whose result is unused is dropped.

    Example:
    ```mlir
    %i = ms.check %indices, %ok {message = "Slice 'n': the starts give 4 rows, the model declares 3"}
        : (tensor<3xi64>, tensor<i1>) -> tensor<3xi64>
    ```
  }];
  let arguments = (ins Ms_Tensor:$input, Ms_BoolTensor:$condition, StrAttr:$message);
  let results = (outs Ms_Tensor:$result);
  let assemblyFormat = "$input `,` $condition attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
}

def Ms_NonZeroOp : Ms_InferredOp<"non_zero"> {
  let summary = "Indices of the non-zero elements, bounded by the element count, with their count.";
  let description = [{
    ONNX NonZero: column `j < count` of `indices` holds the indices (one row per dim of `input`) of
    the `j`-th non-zero element in row-major order. `indices` is typed at its upper bound
    `[rank, number of elements]`; its columns from `count` on are zero. NaN counts as non-zero.

    Example:
    ```mlir
    %i, %n = ms.non_zero %x : (tensor<3x4xf32>) -> (tensor<2x12xi64>, tensor<1xi64>)
    ```
  }];
  let arguments = (ins Ms_Tensor:$input);
  let results = (outs RankedTensorOf<[I64]>:$indices, RankedTensorOf<[I64]>:$count);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

def Ms_UniqueOp : Ms_InferredOp<"unique"> {
  let summary = "The distinct elements (or slices along an axis) with their first indices, "
                "inverse indices and counts.";
  let description = [{
    ONNX Unique. Without `axis` the input is read flattened and the distinct elements are
    compared; with `axis` the distinct slices along it. `values` holds the `count` distinct ones,
    in order of first occurrence, or ascending (slices: lexicographically in row-major order) with
    `sorted`; `indices` the position of each one's first occurrence, `counts` how often it occurs,
    and `inverse_indices`, for every input element (slice), the position of its value in `values`.
    `values`, `indices` and `counts` are typed at their upper bound (every element distinct) and
    zero past `count`; `inverse_indices` has the input's element (slice) count.

    Example:
    ```mlir
    %y, %i, %inv, %c, %n = ms.unique %x {sorted}
        : (tensor<6xf32>) -> (tensor<6xf32>, tensor<6xi64>, tensor<6xi64>, tensor<6xi64>, tensor<1xi64>)
    ```
  }];
  let arguments = (ins Ms_NumericTensor:$input, OptionalAttr<I64Attr>:$axis, UnitAttr:$sorted);
  let results = (outs Ms_NumericTensor:$values, RankedTensorOf<[I64]>:$indices,
                      RankedTensorOf<[I64]>:$inverse_indices, RankedTensorOf<[I64]>:$counts,
                      RankedTensorOf<[I64]>:$count);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

def Ms_NonMaxSuppressionOp : Ms_InferredOp<"non_max_suppression"> {
  let summary = "Greedy selection of boxes by score, dropping those that overlap a selected one.";
  let description = [{
    ONNX NonMaxSuppression. `boxes` is [batches, boxes, 4] (corners `y1, x1, y2, x2` in either
    order, or with `center_point_box` `x_center, y_center, width, height`), `scores` [batches,
    classes, boxes]. For every batch and class, the boxes whose score exceeds `score_threshold` are
    taken by descending score (ties: lower index first), each kept unless its intersection over
    union with a box already kept for that class exceeds `iou_threshold`, until
    `max_output_boxes_per_class` are kept. Row `j < count` of `selected` is `[batch, class, box]`
    of the `j`-th kept box, batches and classes in order. `selected` is typed at its upper bound,
    `batches * classes * max_per_class` rows (`max_per_class`: a bound on the runtime maximum,
    at most the box count), zero past `count`.

    Example:
    ```mlir
    %s, %n = ms.non_max_suppression %boxes, %scores, %max, %iou, %score {max_per_class = 6 : i64}
        : (tensor<1x6x4xf32>, tensor<1x1x6xf32>, tensor<1xi64>, tensor<1xf32>, tensor<1xf32>)
          -> (tensor<6x3xi64>, tensor<1xi64>)
    ```
  }];
  let arguments = (ins Ms_FloatTensor:$boxes, Ms_FloatTensor:$scores, RankedTensorOf<[I64]>:$max_output,
                   Ms_FloatTensor:$iou_threshold, Ms_FloatTensor:$score_threshold,
                   I64Attr:$max_per_class, UnitAttr:$center_point_box);
  let results = (outs RankedTensorOf<[I64]>:$selected, RankedTensorOf<[I64]>:$count);
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
}

#endif // MS_DYNAMIC_SHAPE_OPS_TD
