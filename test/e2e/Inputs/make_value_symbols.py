"""Builds models whose tensors are sized by a graph input's values (a Reshape's shape, a Tile's
repeats, a ConstantOfShape's shape given as an input: value symbols, docs/dynamic-shapes.md), and
onnxruntime's outputs for them.

Usage: make_value_symbols.py OUT_DIR
Writes OUT_DIR/<model>.onnx and, per case, OUT_DIR/<model>_<case>_<input>.npy and
OUT_DIR/<model>_<case>.ref.npy (onnxruntime's output). `reshape` declares its output [6, 4] (the
value the package is compiled for); `reshape_undeclared` declares [a, b] (nothing gives the values).
"""
import os
import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper

OUT = sys.argv[1]
os.makedirs(OUT, exist_ok=True)
RNG = np.random.default_rng(77)


def save_model(name, nodes, inputs, outputs):
    graph = helper.make_graph(nodes, name, inputs, outputs)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)
    onnx.checker.check_model(model)
    path = os.path.join(OUT, name + ".onnx")
    onnx.save(model, path)
    return path


def reference(name, case, feeds):
    session = ort.InferenceSession(os.path.join(OUT, name + ".onnx"),
                                   providers=["CPUExecutionProvider"])
    for key, value in feeds.items():
        np.save(os.path.join(OUT, "%s_%s_%s.npy" % (name, case, key)), value)
    np.save(os.path.join(OUT, "%s_%s.ref.npy" % (name, case)), session.run(None, feeds)[0])


x = RNG.standard_normal((2, 3, 4)).astype(np.float32)
f32, i64 = TensorProto.FLOAT, TensorProto.INT64

# Reshape by a graph input, then real work on the result.
for name, out_dims in (("reshape", [6, 4]), ("reshape_undeclared", ["a", "b"])):
    save_model(name, [helper.make_node("Reshape", ["x", "shape"], ["r"]),
                      helper.make_node("Relu", ["r"], ["y"])],
               [helper.make_tensor_value_info("x", f32, [2, 3, 4]),
                helper.make_tensor_value_info("shape", i64, [2])],
               [helper.make_tensor_value_info("y", f32, out_dims)])
for case, shape in (("plain", [6, 4]), ("infer", [-1, 4]), ("infer0", [6, -1]),
                    ("other", [4, 6])):
    reference("reshape", case, {"x": x, "shape": np.array(shape, np.int64)})

# Tile by graph-input repeats; ConstantOfShape of a graph-input shape, added to a tensor.
save_model("tile", [helper.make_node("Tile", ["t", "repeats"], ["z"])],
           [helper.make_tensor_value_info("t", f32, [2, 3]),
            helper.make_tensor_value_info("repeats", i64, [2])],
           [helper.make_tensor_value_info("z", f32, [4, 9])])
reference("tile", "2x3", {"t": x[0, :2, :3].copy(), "repeats": np.array([2, 3], np.int64)})
save_model("fill", [helper.make_node("ConstantOfShape", ["dims"], ["c"],
                                     value=helper.make_tensor("v", f32, [1], [1.5])),
                    helper.make_node("Add", ["c", "b"], ["w"])],
           [helper.make_tensor_value_info("dims", i64, [2]),
            helper.make_tensor_value_info("b", f32, [1, 1])],
           [helper.make_tensor_value_info("w", f32, [3, 5])])
reference("fill", "3x5", {"dims": np.array([3, 5], np.int64),
                          "b": RNG.standard_normal((1, 1)).astype(np.float32)})

# Axes given as a graph input: the declared outputs give them (Unsqueeze's and Squeeze's up to ones
# next to ones; a ReduceSum that drops one of two equal dims, the first).
i64_axes = lambda n: helper.make_tensor_value_info("axes", i64, [n])
save_model("unsqueeze", [helper.make_node("Unsqueeze", ["u", "axes"], ["v"])],
           [helper.make_tensor_value_info("u", f32, [1, 3, 1, 5]), i64_axes(1)],
           [helper.make_tensor_value_info("v", f32, [1, 3, 1, 1, 5])])
u = RNG.standard_normal((1, 3, 1, 5)).astype(np.float32)
reference("unsqueeze", "neg", {"u": u, "axes": np.array([-2], np.int64)})
reference("unsqueeze", "two", {"u": u, "axes": np.array([2], np.int64)})
reference("unsqueeze", "four", {"u": u, "axes": np.array([4], np.int64)})
save_model("reduce", [helper.make_node("ReduceSum", ["r", "axes"], ["s"], keepdims=0)],
           [helper.make_tensor_value_info("r", f32, [3, 2, 2]), i64_axes(1)],
           [helper.make_tensor_value_info("s", f32, [3, 2])])
r = RNG.standard_normal((3, 2, 2)).astype(np.float32)
reference("reduce", "one", {"r": r, "axes": np.array([1], np.int64)})
reference("reduce", "neg", {"r": r, "axes": np.array([-2], np.int64)})
reference("reduce", "two", {"r": r, "axes": np.array([2], np.int64)})
