"""Exercises the Python bindings: compile the e2e CNN, run it, compare with onnxruntime; errors.

Usage: check_bindings.py WORK_DIR   (expects make_e2e.py's output in WORK_DIR)
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.environ["MIE_PYTHON_PATH"])
import mie  # noqa: E402

work = sys.argv[1]
package = mie.compile(os.path.join(work, "model.onnx"), os.path.join(work, "py.mie"))
x = np.load(os.path.join(work, "input_0.npy"))
ref = np.load(os.path.join(work, "reference_0.npy"))

with mie.load(package, threads=2) as session:
    print("inputs", session.inputs, "outputs", session.outputs, "target", session.target)
    out = session.run({"x": x})["y"]
    np.testing.assert_allclose(out, ref, rtol=1e-4, atol=1e-5)
    again = session.run([x])["y"]  # positional inputs, repeated runs give the same numbers
    np.testing.assert_array_equal(out, again)
    print("run ok", session.last_run_ms >= 0)
    try:
        session.run({"x": x.astype(np.float64)})
        sys.exit("a wrong dtype was accepted")
    except mie.MieError as e:
        print("dtype error:", e)

# Bytes without an output path; a bad model is a MieError naming the problem.
assert b"mie.arena_bytes" in mie.compile(os.path.join(work, "model.onnx"), emit="mie")
bad = os.path.join(work, "bad.onnx")
with open(bad, "wb") as f:
    f.write(b"not a model")
try:
    mie.compile(bad)
    sys.exit("a bad model compiled")
except mie.MieError as e:
    print("compile error:", str(e).splitlines()[0])
try:
    mie.load(bad)
    sys.exit("a bad package loaded")
except mie.MieError as e:
    print("load error:", e)
