"""Valid models at the edges of ONNX's ranges, which once failed to compile or gave other values
than onnxruntime (issue 13): one graph, each output one case, onnxruntime's outputs the reference.

- Slice with steps near INT64_MIN / INT64_MAX (one element each; the step's negation overflowed and
  ms.slice got a size of 0 and a stride memref.subview rejected);
- ReduceMean over an axis of size 0 (0 / 0 gave NaN; onnxruntime gives 0), also with integers,
  whose 0 / 0 would trap;
- a ConstantOfShape of 16 MiB (filled at run time, not stored in the package), reduced per row.

Usage: make_edge_cases.py OUT_DIR  (writes model.onnx, x.npy, e.npy, ei.npy, expected_<out>.npy)
"""
import os
import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
lo, hi = np.iinfo(np.int64).min, np.iinfo(np.int64).max


def ints(name, values):
    return numpy_helper.from_array(np.array(values, np.int64), name)


inits = [ints("s_start", [-1]), ints("s_end", [lo]), ints("axis0", [0]), ints("s_step", [lo]),
         ints("p_start", [2]), ints("p_end", [hi]), ints("p_step", [hi]),
         ints("m_start", [0, 7]), ints("m_end", [3, lo]), ints("axes01", [0, 1]),
         ints("m_step", [hi - 1, lo + 1]), ints("fill_shape", [2048, 2048])]
nodes = [
    helper.make_node("Slice", ["x", "s_start", "s_end", "axis0", "s_step"], ["slice_min"],
                     name="slice_min"),
    helper.make_node("Slice", ["x", "p_start", "p_end", "axis0", "p_step"], ["slice_max"],
                     name="slice_max"),
    helper.make_node("Slice", ["x", "m_start", "m_end", "axes01", "m_step"], ["slice_2d"],
                     name="slice_2d"),
    helper.make_node("ReduceMean", ["e"], ["mean_empty"], name="mean_empty", axes=[1],
                     keepdims=1),
    helper.make_node("ReduceMean", ["e"], ["mean_all_empty"], name="mean_all_empty", keepdims=0),
    helper.make_node("ReduceMean", ["ei"], ["mean_int_empty"], name="mean_int_empty", axes=[1],
                     keepdims=0),
    helper.make_node("ConstantOfShape", ["fill_shape"], ["filled"], name="fill",
                     value=numpy_helper.from_array(np.array([0.5], np.float32))),
    helper.make_node("ReduceSum", ["filled", "axis0"], ["fill_sum"], name="fill_sum", keepdims=0),
]
outputs = ["slice_min", "slice_max", "slice_2d", "mean_empty", "mean_all_empty", "mean_int_empty",
           "fill_sum"]
graph = helper.make_graph(
    nodes, "edge_cases",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [10, 8]),
     helper.make_tensor_value_info("e", TensorProto.FLOAT, [3, 0, 2]),
     helper.make_tensor_value_info("ei", TensorProto.INT32, [3, 0, 2])],
    [helper.make_tensor_value_info(name, elem, None) for name, elem in
     zip(outputs, [TensorProto.FLOAT] * 5 + [TensorProto.INT32, TensorProto.FLOAT])],
    initializer=inits)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
model.ir_version = 8
onnx.save(model, os.path.join(out, "model.onnx"))

feeds = {"x": np.arange(80, dtype=np.float32).reshape(10, 8),
         "e": np.zeros((3, 0, 2), np.float32), "ei": np.zeros((3, 0, 2), np.int32)}
for name, value in feeds.items():
    np.save(os.path.join(out, name + ".npy"), value)
session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
for name, value in zip(outputs, session.run(outputs, feeds)):
    np.save(os.path.join(out, "expected_" + name + ".npy"), value)
