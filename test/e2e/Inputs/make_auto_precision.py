"""Builds the models of precision-auto.test, their inputs and onnxruntime's fp32 references.

Usage: make_auto_precision.py OUT_DIR
Writes OUT_DIR/
  model.onnx       x[1,32] -> a = x @ Wa (benign: bf16 rounding costs ~3e-3), b = concat(x, x) @ Wb
                   with Wb = [C + D; -C], C in [64, 128) and D ~ N(0, 1): b = x @ D in exact
                   arithmetic, but rounding C + D and -C to bf16 (a step of 0.5 there) leaves a
                   large error in b's small result. Only b's MatMul is sensitive.
  input_0.npy, reference_a.npy, reference_b.npy   a test input and onnxruntime's outputs for it
  cal/x.npy, cal/set1/input_0.npy                  two calibration sets (by name and by position)
  bad_shape/x.npy (1x16), bad_name/y.npy, empty/   calibration directories that must be refused
  embed.onnx       ids[1,8] int64 -> Gather(table 50x16) -> MatMul: random calibration ids must stay
                   within the table (inferred from the Gather), else the runs would fail.
"""
import os
import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

out = sys.argv[1]
rng = np.random.default_rng(20261203)
os.makedirs(out, exist_ok=True)

wa = (rng.standard_normal((32, 16)) / np.sqrt(32)).astype(np.float32)
c = rng.uniform(64, 128, (32, 8)).astype(np.float32)
d = rng.standard_normal((32, 8)).astype(np.float32)
wb = np.concatenate([c + d, -c]).astype(np.float32)
graph = helper.make_graph(
    [helper.make_node("MatMul", ["x", "wa"], ["a"], name="/benign/MatMul"),
     helper.make_node("Concat", ["x", "x"], ["xx"], name="/concat", axis=1),
     helper.make_node("MatMul", ["xx", "wb"], ["b"], name="/sensitive/MatMul")],
    "auto",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 32])],
    [helper.make_tensor_value_info("a", TensorProto.FLOAT, [1, 16]),
     helper.make_tensor_value_info("b", TensorProto.FLOAT, [1, 8])],
    [numpy_helper.from_array(wa, "wa"), numpy_helper.from_array(wb, "wb")])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)
onnx.save(model, os.path.join(out, "model.onnx"))

x = rng.uniform(-1, 1, (1, 32)).astype(np.float32)
np.save(os.path.join(out, "input_0.npy"), x)
sess = ort.InferenceSession(os.path.join(out, "model.onnx"), providers=["CPUExecutionProvider"])
ra, rb = sess.run(None, {"x": x})
np.save(os.path.join(out, "reference_a.npy"), ra)
np.save(os.path.join(out, "reference_b.npy"), rb)

for sub in ("cal/set1", "bad_shape", "bad_name", "empty"):
    os.makedirs(os.path.join(out, sub), exist_ok=True)
np.save(os.path.join(out, "cal", "x.npy"), rng.uniform(-1, 1, (1, 32)).astype(np.float32))
np.save(os.path.join(out, "cal", "set1", "input_0.npy"), rng.uniform(-1, 1, (1, 32)).astype(np.float32))
np.save(os.path.join(out, "bad_shape", "x.npy"), np.zeros((1, 16), np.float32))
np.save(os.path.join(out, "bad_name", "y.npy"), np.zeros((1, 32), np.float32))

table = rng.standard_normal((50, 16)).astype(np.float32)
w = (rng.standard_normal((16, 4)) / 4).astype(np.float32)
graph = helper.make_graph(
    [helper.make_node("Gather", ["table", "ids"], ["e"], name="/embed/Gather"),
     helper.make_node("MatMul", ["e", "w"], ["y"], name="/proj/MatMul")],
    "embed",
    [helper.make_tensor_value_info("ids", TensorProto.INT64, [1, 8])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 8, 4])],
    [numpy_helper.from_array(table, "table"), numpy_helper.from_array(w, "w")])
onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8),
          os.path.join(out, "embed.onnx"))
