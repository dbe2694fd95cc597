"""The Python bindings with the 8-bit and 4-bit floats and 4-bit and 2-bit integers: inputs and
outputs are ml_dtypes arrays (one byte per element, as the runtime stores them), checked against
ONNX's reference; a 4-bit array whose bytes carry bits above the value is refused.

Usage: check_narrow_types.py WORK_DIR
"""
import os
import sys

import ml_dtypes
import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper
from onnx.reference import ReferenceEvaluator

sys.path.insert(0, os.environ["MIE_PYTHON_PATH"])
import mie  # noqa: E402

work = sys.argv[1]
os.makedirs(work, exist_ok=True)
nodes = [helper.make_node("Cast", ["x"], ["q"], to=T.FLOAT8E4M3FN),
         helper.make_node("Cast", ["i"], ["w"], to=T.FLOAT),
         helper.make_node("Cast", ["i"], ["u"], to=T.UINT2)]  # int to int wraps
graph = helper.make_graph(
    nodes, "narrow",
    [helper.make_tensor_value_info("x", T.FLOAT, [6]), helper.make_tensor_value_info("i", T.INT4, [6])],
    [helper.make_tensor_value_info("q", T.FLOAT8E4M3FN, [6]),
     helper.make_tensor_value_info("w", T.FLOAT, [6]),
     helper.make_tensor_value_info("u", T.UINT2, [6])])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 21)])
path = os.path.join(work, "narrow.onnx")
onnx.save(model, path)
package = mie.compile(path, os.path.join(work, "narrow.mie"))

x = np.array([0.3, -1000.0, 17.0, 2.0, 1.0, np.nan], np.float32)
i = np.array([-8, -1, 0, 1, 6, 7], ml_dtypes.int4)
ref = ReferenceEvaluator(model).run(None, {"x": x, "i": i})
with mie.load(package, threads=1) as session:
    print("inputs", session.inputs)
    print("outputs", session.outputs)
    out = session.run({"x": x, "i": i})
    for name, r in zip(("q", "w", "u"), ref):
        got = out[name]
        same = got.dtype == r.dtype and np.array_equal(got.view(np.uint8) if got.itemsize == 1 else got,
                                                       r.view(np.uint8) if r.itemsize == 1 else r)
        print(name, got.dtype, "matches" if same else "differs: %s vs %s" % (got, r))
    bad = np.array([0x1F, 0, 0, 0, 0, 0], np.uint8).view(ml_dtypes.int4)
    try:
        session.run({"x": x, "i": bad})
        sys.exit("an int4 byte with bits above the value was accepted")
    except mie.MieError as e:
        print("bits error:", e)
