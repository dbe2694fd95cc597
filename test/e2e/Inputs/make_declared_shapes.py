"""Builds models whose Slice starts/ends/axes/steps, Pad pads and Range bounds are graph inputs and
whose outputs have declared shapes (docs/dynamic-shapes.md, "Run-time parameters"), and
onnxruntime's outputs for them.

Resize (and Resize-10, Upsample) by scales given as a graph input are built the same way.

Usage: make_declared_shapes.py OUT_DIR
Writes OUT_DIR/<model>.onnx and, per case, OUT_DIR/<model>_<case>_<input>.npy and
OUT_DIR/<model>_<case>.ref.npy (onnxruntime's output). Every case's parameters give the declared
output shape, except the `bad` ones (which onnxruntime is not asked about).
"""
import os
import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper

OUT = sys.argv[1]
os.makedirs(OUT, exist_ok=True)
RNG = np.random.default_rng(5)
f32, i32, i64 = TensorProto.FLOAT, TensorProto.INT32, TensorProto.INT64


def save_model(name, nodes, inputs, outputs, opset=18, value_info=()):
    graph = helper.make_graph(nodes, name, inputs, outputs, value_info=list(value_info))
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], ir_version=8)
    onnx.checker.check_model(model)
    onnx.save(model, os.path.join(OUT, name + ".onnx"))


def save_feeds(name, case, feeds):
    for key, value in feeds.items():
        np.save(os.path.join(OUT, "%s_%s_%s.npy" % (name, case, key)), value)


def reference(name, case, feeds):
    session = ort.InferenceSession(os.path.join(OUT, name + ".onnx"),
                                   providers=["CPUExecutionProvider"])
    save_feeds(name, case, feeds)
    np.save(os.path.join(OUT, "%s_%s.ref.npy" % (name, case)), session.run(None, feeds)[0])


x = RNG.standard_normal((6, 5, 4)).astype(np.float32)

# Slice by four graph inputs, then real work on the result (its shape declared by a value_info entry,
# as shape inference writes them: [3, 5, 2]).
save_model("slice", [helper.make_node("Slice", ["x", "starts", "ends", "axes", "steps"], ["s"], name="cut"),
                     helper.make_node("Relu", ["s"], ["y"])],
           [helper.make_tensor_value_info("x", f32, [6, 5, 4]),
            helper.make_tensor_value_info("starts", i64, [2]),
            helper.make_tensor_value_info("ends", i64, [2]),
            helper.make_tensor_value_info("axes", i64, [2]),
            helper.make_tensor_value_info("steps", i64, [2])],
           [helper.make_tensor_value_info("y", f32, [3, 5, 2])],
           value_info=[helper.make_tensor_value_info("s", f32, [3, 5, 2])])
cases = {
    "forward": ([0, 1], [3, 3], [0, 2], [1, 1]),
    "negative": ([-1, 5], [-4, -1000], [0, -1], [-1, -2]),   # from the end, reversed
    "strided": ([-100, 1], [100, 1000], [2, 0], [2, 2]),     # axes in another order, clamped
}
for case, (starts, ends, axes, steps) in cases.items():
    reference("slice", case, {"x": x, "starts": np.array(starts, np.int64),
                              "ends": np.array(ends, np.int64), "axes": np.array(axes, np.int64),
                              "steps": np.array(steps, np.int64)})
# Four rows where three are declared; a zero step.
save_feeds("slice", "bad", {"x": x, "starts": np.array([0, 0], np.int64),
                            "ends": np.array([4, 2], np.int64), "axes": np.array([0, 2], np.int64),
                            "steps": np.array([1, 1], np.int64)})
save_feeds("slice", "zero", {"x": x, "starts": np.array([0, 0], np.int64),
                             "ends": np.array([3, 2], np.int64), "axes": np.array([0, 2], np.int64),
                             "steps": np.array([1, 0], np.int64)})

# Slice with int32 starts/ends only (default axes and steps), declared [2, 5, 1].
save_model("slice_default", [helper.make_node("Slice", ["x", "starts", "ends"], ["y"])],
           [helper.make_tensor_value_info("x", f32, [6, 5, 4]),
            helper.make_tensor_value_info("starts", i32, [3]),
            helper.make_tensor_value_info("ends", i32, [3])],
           [helper.make_tensor_value_info("y", f32, [2, 5, 1])])
reference("slice_default", "plain", {"x": x, "starts": np.array([4, 0, -1], np.int32),
                                     "ends": np.array([6, 5, 1000], np.int32)})

# Pad by a graph input in every mode, and a constant pad with a run-time value (declared [8, 5, 7]).
for mode in ("constant", "edge", "reflect", "wrap"):
    inputs = ["x", "pads"] + (["value"] if mode == "constant" else [])
    declared = [helper.make_tensor_value_info("x", f32, [6, 5, 4]),
                helper.make_tensor_value_info("pads", i64, [6])]
    if mode == "constant":
        declared.append(helper.make_tensor_value_info("value", f32, []))
    save_model("pad_" + mode, [helper.make_node("Pad", inputs, ["y"], mode=mode, name="border")], declared,
               [helper.make_tensor_value_info("y", f32, [8, 5, 7])], opset=19 if mode == "wrap" else 18)
    for case, pads in (("grow", [1, 0, 2, 1, 0, 1]), ("crop", [3, -1, 0, -1, 1, 3])):
        feeds = {"x": x, "pads": np.array(pads, np.int64)}
        if mode == "constant":
            feeds["value"] = np.array(2.5, np.float32)
        reference("pad_" + mode, case, feeds)
save_feeds("pad_edge", "bad", {"x": x, "pads": np.array([1, 0, 2, 1, 0, 2], np.int64)})

# A constant pad of an input with an empty dim: every output element is the value (declared [2, 3]).
save_model("pad_empty", [helper.make_node("Pad", ["x", "pads", "value"], ["y"], name="fill")],
           [helper.make_tensor_value_info("x", f32, [0, 3]),
            helper.make_tensor_value_info("pads", i64, [4]),
            helper.make_tensor_value_info("value", f32, [])],
           [helper.make_tensor_value_info("y", f32, [2, 3])])
reference("pad_empty", "fill", {"x": np.zeros((0, 3), np.float32), "pads": np.array([1, 0, 1, 0], np.int64),
                                "value": np.array(-1.5, np.float32)})
save_feeds("pad_empty", "bad", {"x": np.zeros((0, 3), np.float32), "pads": np.array([1, 0, 2, 0], np.int64),
                                "value": np.array(-1.5, np.float32)})

# Range of three graph inputs, integer and float (declared [4]).
for name, elem, dtype, cases in (
        ("range_int", i32, np.int32, {"down": (10, 0, -3), "up": (-2, 6, 2)}),
        ("range_float", f32, np.float32, {"up": (1.0, 2.9, 0.5), "down": (3.0, -1.5, -1.25)})):
    save_model(name, [helper.make_node("Range", ["start", "limit", "delta"], ["y"], name="steps")],
               [helper.make_tensor_value_info(v, elem, []) for v in ("start", "limit", "delta")],
               [helper.make_tensor_value_info("y", elem, [4])])
    for case, (start, limit, delta) in cases.items():
        reference(name, case, {"start": np.array(start, dtype), "limit": np.array(limit, dtype),
                               "delta": np.array(delta, dtype)})
save_feeds("range_int", "bad", {"start": np.array(0, np.int32), "limit": np.array(5, np.int32),
                                "delta": np.array(1, np.int32)})

# Resize by run-time scales to a declared shape, in several modes: [1, 2, 5, 4] -> [1, 2, 3, 8].
image = RNG.standard_normal((1, 2, 5, 4)).astype(np.float32)
resizes = {
    "resize_linear": dict(mode="linear"),
    "resize_nearest": dict(mode="nearest", coordinate_transformation_mode="asymmetric",
                           nearest_mode="round_prefer_ceil"),
    "resize_cubic": dict(mode="cubic", cubic_coeff_a=-0.5, exclude_outside=1),
    # (align_corners only at exact scales: for others ONNX's reference maps by in * scale where
    # onnxruntime maps by the output size.)
    "resize_corners": dict(mode="linear", coordinate_transformation_mode="align_corners"),
    "resize_pytorch": dict(mode="linear", coordinate_transformation_mode="pytorch_half_pixel"),
}
for name, attrs in resizes.items():
    save_model(name, [helper.make_node("Resize", ["x", "", "scales"], ["y"], name="zoom", **attrs)],
               [helper.make_tensor_value_info("x", f32, [1, 2, 5, 4]),
                helper.make_tensor_value_info("scales", f32, [4])],
               [helper.make_tensor_value_info("y", f32, [1, 2, 3, 8])])
    for case, scales in (("exact", [1, 1, 0.6, 2]), ("inexact", [1, 1, 0.7, 2.1])):
        if name == "resize_corners" and case == "inexact":
            continue
        reference(name, case, {"x": image, "scales": np.array(scales, np.float32)})
save_feeds("resize_linear", "bad", {"x": image, "scales": np.array([1, 1, 0.8, 2], np.float32)})
# Resize-10 and Upsample-9: asymmetric coordinates, nearest rounding by the scale.
save_model("resize10", [helper.make_node("Resize", ["x", "scales"], ["y"], mode="nearest")],
           [helper.make_tensor_value_info("x", f32, [1, 2, 5, 4]),
            helper.make_tensor_value_info("scales", f32, [4])],
           [helper.make_tensor_value_info("y", f32, [1, 2, 3, 8])], opset=10)
reference("resize10", "plain", {"x": image, "scales": np.array([1, 1, 0.7, 2.0], np.float32)})
save_model("upsample", [helper.make_node("Upsample", ["x", "scales"], ["y"], mode="linear")],
           [helper.make_tensor_value_info("x", f32, [1, 2, 5, 4]),
            helper.make_tensor_value_info("scales", f32, [4])],
           [helper.make_tensor_value_info("y", f32, [1, 2, 10, 12])], opset=9)
reference("upsample", "plain", {"x": image, "scales": np.array([1, 1, 2.0, 3.0], np.float32)})
