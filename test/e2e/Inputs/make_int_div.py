"""Integer Div and Mod whose run-time divisors include 0 and -1 against the most negative value:
ONNX leaves those results undefined and the CPU traps on them (SIGFPE), so onnxruntime cannot be
the reference. The expected outputs are numpy's values, which the compiled code gives: x / 0 = 0,
x mod 0 = 0, INT_MIN / -1 = INT_MIN (wrapped), INT_MIN mod -1 = 0.

Usage: make_int_div.py OUT_DIR  (writes model.onnx, a.npy, b.npy, expected_{q,m,c}.npy)
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
lo = np.iinfo(np.int32).min
a = np.array([7, -7, 0, lo, lo, 9, -9, 5], np.int32)
b = np.array([0, 0, 0, -1, 0, 2, 2, -3], np.int32)
info = [helper.make_tensor_value_info(n, TensorProto.INT32, [8]) for n in ("a", "b")]
outs = [helper.make_tensor_value_info(n, TensorProto.INT32, [8]) for n in ("q", "m", "c")]
graph = helper.make_graph([helper.make_node("Div", ["a", "b"], ["q"], name="div"),
                           helper.make_node("Mod", ["a", "b"], ["m"], name="mod"),
                           helper.make_node("Mod", ["a", "b"], ["c"], name="fmod", fmod=1)],
                          "int_div", info, outs)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
model.ir_version = 8
onnx.checker.check_model(model)
onnx.save(model, os.path.join(out, "model.onnx"))
np.save(os.path.join(out, "a.npy"), a)
np.save(os.path.join(out, "b.npy"), b)
with np.errstate(divide="ignore", over="ignore"):
    safe = np.where((b == 0) | ((a == lo) & (b == -1)), 1, b)
    q = np.where(b == 0, 0, np.trunc(a.astype(np.float64) / safe)).astype(np.int64)
    q = np.where((a == lo) & (b == -1), lo, q).astype(np.int32)  # C division truncates, wraps here
    c = np.fmod(a, safe).astype(np.int32)                        # C remainder: the dividend's sign
    m = np.mod(a, safe).astype(np.int32)                         # Python's: the divisor's sign
np.save(os.path.join(out, "expected_q.npy"), q)
np.save(os.path.join(out, "expected_m.npy"), m)
np.save(os.path.join(out, "expected_c.npy"), c)
