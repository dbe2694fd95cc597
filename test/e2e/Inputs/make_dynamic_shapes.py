#!/usr/bin/env python3
"""Writes models whose outputs have data-dependent shapes (NonZero, NonZero -> Transpose ->
GatherND, Compress with a runtime condition, TopK with a runtime K, Unique, NonMaxSuppression)
with inputs and onnxruntime references, in make_math_e2e.py's layout:

    make_dynamic_shapes.py OUT_DIR
    make_dynamic_shapes.py --refused MODEL.onnx   (NonZero feeding ReduceSum)
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
    return v


def refused(path):
    """NonZero feeding ReduceSum, which does not take a data-dependent value."""
    import onnx
    graph = helper.make_graph(
        [node("NonZero", ["x"], ["nz"], name="nz"),
         node("ReduceSum", ["nz"], ["s"], name="sum", keepdims=0)],
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
