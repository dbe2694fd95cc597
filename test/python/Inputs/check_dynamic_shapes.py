"""The Python bindings on outputs with data-dependent shapes: run() returns arrays of the real
shape (different per run), TensorInfo says which dims are data-dependent, and the numbers match
onnxruntime.

Usage: check_dynamic_shapes.py WORK_DIR   (expects make_dynamic_shapes.py's output in WORK_DIR)
"""
import os
import sys

import numpy as np
import onnxruntime as ort

sys.path.insert(0, os.environ["MIE_PYTHON_PATH"])
import mie  # noqa: E402

work = sys.argv[1]
model = os.path.join(work, "nonzero_gather_nd", "model.onnx")
package = mie.compile(model, os.path.join(work, "py.mie"))
reference = ort.InferenceSession(model, providers=["CPUExecutionProvider"])
with mie.load(package) as session:
    print("outputs", session.outputs)
    base = np.load(os.path.join(work, "nonzero_gather_nd", "input_0.npy"))
    for scale in (1.0, 0.2, 100.0):  # fewer or more elements pass the model's threshold
        x = (base * scale).astype(np.float32)
        out = session.run({"x": x})
        ref = dict(zip(["nz", "column"], reference.run(None, {"x": x})))
        for name in ("nz", "column"):
            assert out[name].shape == ref[name].shape, (name, out[name].shape, ref[name].shape)
            np.testing.assert_allclose(out[name], ref[name], rtol=1e-6)
        print("shapes", out["nz"].shape, out["column"].shape)
