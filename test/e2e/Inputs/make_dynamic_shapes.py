#!/usr/bin/env python3
"""Writes models whose outputs have data-dependent shapes (NonZero, NonZero -> Transpose ->
GatherND, Compress with a runtime condition, TopK with a runtime K, Unique, NonMaxSuppression),
and detection-style post-processing over such values (sizes computed from their Shape, TopK with
K = min(constant, count), Concat / Reshape / Slice / reductions along the data-dependent dim,
NonMaxSuppression inside an If, row-wise Gemm and Softmax), with inputs and onnxruntime
references, in make_math_e2e.py's layout:

    make_dynamic_shapes.py OUT_DIR
    make_dynamic_shapes.py --refused MODEL.onnx   (NonZero feeding ArgMax)
"""

import os
import sys

import numpy as np
from onnx import helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_math_e2e  # noqa: E402

node = helper.make_node


def variants():
    rng = np.random.default_rng(5)
    x = make_math_e2e.normal([3, 4], 7)
    x[1, 2] = 0.0
    x[2, 0] = 0.0
    v = {}
    # (nodes, inputs, initializers, opset, tolerances[, outputs])
    v["nonzero"] = ([node("NonZero", ["x"], ["nz"])], {"x": x}, {}, 13, (0, 0))
    v["nonzero_gather_nd"] = (
        [node("Greater", ["x", "t"], ["mask"]), node("NonZero", ["mask"], ["nz"]),
         node("Transpose", ["nz"], ["pairs"], perm=[1, 0]),
         node("GatherND", ["x", "pairs"], ["picked"]),
         node("Mul", ["picked", "two"], ["doubled"]),
         node("Unsqueeze", ["doubled", "axes"], ["column"])],
        {"x": x}, {"t": np.array(0.2, np.float32), "two": np.array([2], np.float32),
                   "axes": np.array([1], np.int64)}, 13, (1e-6, 1e-7), ["nz", "column"])
    v["nonzero_none"] = ([node("NonZero", ["x"], ["nz"])], {"x": np.zeros([2, 3], np.float32)},
                         {}, 13, (0, 0))
    xs = make_math_e2e.normal([3, 7], 9)
    v["top_k_runtime_k"] = ([node("TopK", ["x", "k"], ["values", "indices"], axis=1)],
                            {"x": xs, "k": np.array([4], np.int64)}, {}, 13, (0, 0))
    v["top_k_runtime_k_smallest"] = (
        [node("TopK", ["x", "k"], ["values", "indices"], axis=0, largest=0)],
        {"x": xs, "k": np.array([2], np.int64)}, {}, 13, (0, 0))
    xc = make_math_e2e.normal([4, 3], 3)
    cond = np.array([True, False, True, True])
    v["compress_axis"] = ([node("Compress", ["x", "c"], ["y"], axis=0)],
                          {"x": xc, "c": cond}, {}, 13, (0, 0))
    v["compress_flat"] = ([node("Compress", ["x", "c"], ["y"])],
                          {"x": xc, "c": np.array([1, 0, 0, 1, 1, 0, 1], bool)}, {}, 13, (0, 0))
    u = np.array([2.0, 1.0, 1.0, 3.0, 4.0, 3.0, 2.0, 0.5], np.float32)
    v["unique_sorted"] = ([node("Unique", ["x"], ["y", "indices", "inverse", "counts"])],
                          {"x": u}, {}, 13, (0, 0))
    v["unique_unsorted"] = ([node("Unique", ["x"], ["y", "indices", "inverse", "counts"],
                                  sorted=0)], {"x": u}, {}, 13, (0, 0))
    ua = np.array([[1, 0, 0], [1, 0, 0], [2, 3, 4], [0, 1, 1], [2, 3, 4]], np.int64)
    v["unique_axis"] = ([node("Unique", ["x"], ["y", "indices", "inverse", "counts"], axis=0)],
                        {"x": ua}, {}, 13, (0, 0))
    boxes = np.array([[[0.0, 0.0, 1.0, 1.0], [0.0, 0.1, 1.0, 1.1], [0.0, -0.1, 1.0, 0.9],
                       [0.0, 10.0, 1.0, 11.0], [0.0, 10.1, 1.0, 11.1], [0.0, 100.0, 1.0, 101.0]]],
                     np.float32)
    scores = rng.random([1, 2, 6]).astype(np.float32)
    v["nms"] = ([node("NonMaxSuppression", ["boxes", "scores", "max", "iou", "score"], ["sel"])],
                {"boxes": boxes, "scores": scores, "max": np.array([3], np.int64),
                 "iou": np.array([0.5], np.float32), "score": np.array([0.1], np.float32)},
                {}, 13, (0, 0))
    v.update(post_processing_variants(rng))
    return v


def int64s(values):
    return np.array(values, np.int64)


def candidates(prefix, threshold):
    """Nodes selecting the scores above `threshold` ([count]) and their boxes ([count, 4]) as
    torchvision does: NonZero of the mask, squeezed, gathered."""
    return [node("Greater", ["scores", threshold], [prefix + "mask"]),
            node("NonZero", [prefix + "mask"], [prefix + "nz"]),
            node("Squeeze", [prefix + "nz", "axis0"], [prefix + "idx"]),
            node("Gather", ["scores", prefix + "idx"], [prefix + "s"], axis=0),
            node("Gather", ["boxes", prefix + "idx"], [prefix + "b"], axis=0)]


def post_processing_variants(rng):
    n = 40
    scores = rng.random(n).astype(np.float32)
    corners = rng.random([n, 2]).astype(np.float32) * 10
    sizes = rng.random([n, 2]).astype(np.float32) * 4 + 0.5
    boxes = np.concatenate([corners, corners + sizes], axis=1)
    inputs = {"scores": scores, "boxes": boxes}
    common = {"axis0": int64s([0]), "t_hi": np.array(0.6, np.float32),
              "t_lo": np.array(0.3, np.float32), "t_none": np.array(2.0, np.float32),
              "five": int64s([5]), "one": int64s([1]),
              "minus1x1": int64s([-1, 1]), "big": int64s([2**62])}
    v = {}
    # K = min(5, count) from Shape -> Gather -> Unsqueeze -> Concat -> ReduceMin, as torchvision's
    # per-level top-k; the boxes follow the indices; labels = ConstantOfShape(Shape(values)).
    topk = candidates("a_", "t_hi") + [
        node("Shape", ["a_s"], ["a_shape"]),
        node("Gather", ["a_shape", "zero"], ["a_n"], axis=0),
        node("Unsqueeze", ["a_n", "axis0"], ["a_n1"]),
        node("Concat", ["five", "a_n1"], ["a_kk"], axis=0),
        node("ReduceMin", ["a_kk"], ["a_k"], keepdims=1),
        node("TopK", ["a_s", "a_k"], ["values", "order"], axis=0),
        node("Gather", ["a_b", "order"], ["top_boxes"], axis=0),
        node("Shape", ["values"], ["v_shape"]),
        node("ConstantOfShape", ["v_shape"], ["labels"],
             value=helper.make_tensor("v", onnx_int64(), [1], [3]))]
    v["post_top_k"] = (topk, inputs, dict(common, zero=np.array(0, np.int64)), 13, (0, 0),
                       ["values", "order", "top_boxes", "labels"])
    # Two selections concatenated along their data-dependent dim (the real rows gathered
    # together), reshaped, sliced from row 1 and reduced over it.
    concat = candidates("a_", "t_hi") + candidates("b_", "t_lo") + [
        node("Concat", ["a_b", "b_b"], ["both"], axis=0),
        node("Reshape", ["both", "minus1x1"], ["column"]),
        node("Slice", ["both", "one", "big", "axis0"], ["rest"]),
        node("ReduceMax", ["rest"], ["corner_max"], axes=[0], keepdims=0),
        node("ReduceSum", ["a_s"], ["score_sum"], keepdims=0),
        node("Flatten", ["rest"], ["flat"], axis=0)]
    v["post_concat"] = (concat, inputs, common, 13, (1e-6, 1e-6),
                        ["both", "column", "rest", "corner_max", "score_sum", "flat"])
    # batched NMS in an If on "no boxes" (the then-branch's empty result is selected at run time);
    # a Gemm and a Softmax over the kept rows.
    then_branch = helper.make_graph(
        [node("Constant", [], ["empty"], value=helper.make_tensor("e", onnx_int64(), [0], []))],
        "then", [], [helper.make_tensor_value_info("empty", onnx_int64(), [0])])
    else_branch = helper.make_graph(
        [node("Unsqueeze", ["c_b", "axis0"], ["nms_boxes"]),
         node("Unsqueeze", ["c_s", "axes01"], ["nms_scores"]),
         node("NonMaxSuppression", ["nms_boxes", "nms_scores", "max_out", "iou"], ["sel"]),
         node("Gather", ["sel", "two"], ["kept_col"], axis=1),
         node("Squeeze", ["kept_col", "one"], ["kept"])],
        "else", [], [helper.make_tensor_value_info("kept", onnx_int64(), ["kept"])])
    nms = candidates("c_", "threshold") + [
        node("Shape", ["c_b"], ["c_shape"]),
        node("ReduceProd", ["c_shape"], ["c_numel"], keepdims=0),
        node("Equal", ["c_numel", "zero"], ["no_boxes"]),
        node("If", ["no_boxes"], ["keep"], then_branch=then_branch, else_branch=else_branch),
        node("Gather", ["c_b", "keep"], ["kept_boxes"], axis=0),
        node("Gemm", ["kept_boxes", "w", "bias"], ["logits"]),
        node("Softmax", ["logits"], ["probs"], axis=1)]
    nms_inits = dict(common, zero=np.array(0, np.int64), axes01=int64s([0, 1]),
                     two=int64s([2]), max_out=int64s([30]),
                     iou=np.array([0.3], np.float32), w=rng.random([4, 3]).astype(np.float32),
                     bias=rng.random([3]).astype(np.float32))
    v["post_nms_if"] = (nms, inputs, dict(nms_inits, threshold=np.array(0.3, np.float32)), 13,
                        (1e-5, 1e-6), ["keep", "kept_boxes", "probs"])
    v["post_nms_if_empty"] = (nms, inputs, dict(nms_inits, threshold=np.array(2.0, np.float32)),
                              13, (1e-5, 1e-6), ["keep", "kept_boxes", "probs"])
    # RoI pooling over the selected boxes, a convolution over the pooled rows; the selected rows
    # above a second threshold scattered back into them (Expand of their indices to the updates'
    # Shape, as Faster R-CNN's MultiScaleRoIAlign does); Range(0, count) lining up with the rows.
    rois = candidates("a_", "t_lo") + [
        node("Shape", ["a_s"], ["a_shape"]),
        node("ConstantOfShape", ["a_shape"], ["batch_idx"],
             value=helper.make_tensor("z", onnx_int64(), [1], [0])),
        node("RoiAlign", ["features", "a_b", "batch_idx"], ["pooled"], output_height=3,
             output_width=3, sampling_ratio=2, spatial_scale=0.5),
        node("Conv", ["pooled", "conv_w"], ["conv"], pads=[1, 1, 1, 1]),
        node("Relu", ["conv"], ["conv_relu"]),
        node("Greater", ["a_s", "t_hi"], ["hi_mask"]),
        node("NonZero", ["hi_mask"], ["hi_nz"]),
        node("Squeeze", ["hi_nz", "axis0"], ["hi_idx"]),
        node("Gather", ["a_b", "hi_idx"], ["hi_b"], axis=0),
        node("Mul", ["hi_b", "minus1f"], ["updates"]),
        node("Unsqueeze", ["hi_idx", "one"], ["hi_col"]),
        node("Shape", ["updates"], ["u_shape"]),
        node("Expand", ["hi_col", "u_shape"], ["scatter_idx"]),
        node("ScatterElements", ["a_b", "scatter_idx", "updates"], ["scattered"], axis=0),
        node("Gather", ["a_shape", "zero"], ["a_n"], axis=0),
        node("Range", ["zero", "a_n", "one_scalar"], ["rows"]),
        node("Cast", ["rows"], ["rows_f"], to=1),
        node("Add", ["a_s", "rows_f"], ["numbered"])]
    feats = rng.random([1, 2, 10, 10]).astype(np.float32)
    v["post_rois"] = (rois, dict(inputs, features=feats),
                      dict(common, conv_w=rng.random([3, 2, 3, 3]).astype(np.float32),
                           minus1f=np.array(-1.0, np.float32), zero=np.array(0, np.int64),
                           one_scalar=np.array(1, np.int64)), 16, (1e-5, 1e-5),
                      ["conv_relu", "scattered", "numbered"])
    return v


def onnx_int64():
    import onnx
    return onnx.TensorProto.INT64


def refused(path):
    """NonZero feeding ArgMax, which does not take a data-dependent value."""
    import onnx
    graph = helper.make_graph(
        [node("NonZero", ["x"], ["nz"], name="nz"),
         node("ArgMax", ["nz"], ["s"], name="argmax", axis=1, keepdims=0)],
        "refused", [helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [3, 4])],
        [helper.make_empty_tensor_value_info("s")])
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]), path)


def main():
    if sys.argv[1] == "--refused":
        refused(sys.argv[2])
        return
    make_math_e2e.write_variants(variants(), sys.argv[1])


if __name__ == "__main__":
    main()
