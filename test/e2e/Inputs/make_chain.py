"""A chain of N Sigmoids on a [1, 64] input, with the input and onnxruntime's output.

Usage: make_chain.py N OUT_DIR  (writes model.onnx, x.npy, expected_y.npy)
"""
import os
import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper

n, out = int(sys.argv[1]), sys.argv[2]
os.makedirs(out, exist_ok=True)
names = ["x"] + [f"t{i}" for i in range(1, n)] + ["y"]
nodes = [helper.make_node("Sigmoid", [names[i]], [names[i + 1]], name=f"s{i}") for i in range(n)]
graph = helper.make_graph(nodes, "chain", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 64])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 64])])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
model.ir_version = 8
onnx.save(model, os.path.join(out, "model.onnx"))
x = np.random.default_rng(5).standard_normal((1, 64)).astype(np.float32)
np.save(os.path.join(out, "x.npy"), x)
y = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]
np.save(os.path.join(out, "expected_y.npy"), y)
