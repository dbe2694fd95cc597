"""Runs in the venv make_wheel_venv.py made: the installed wheel compiles (through mie-compile), runs
and matches onnxruntime; error cases raise clear MieErrors; the versions agree.

Usage: check_wheel.py WORK_DIR BIN_DIR   (make_e2e.py's mlp in WORK_DIR; BIN_DIR has the C++ tools)
"""
import os
import subprocess
import sys

import numpy as np
import onnxruntime as ort

import mie

work, bin_dir = sys.argv[1], sys.argv[2]
print("from the wheel:", mie.__file__.startswith(sys.prefix), mie._native.__file__.startswith(sys.prefix))
tools = [subprocess.run([os.path.join(bin_dir, tool), "--version"], check=True, capture_output=True,
                        text=True).stdout.splitlines()[0] for tool in ("mie-compile", "mie-run", "mie-sign")]
print("versions:", mie.__version__, tools)
assert all(line.endswith(" " + mie.__version__) for line in tools), tools

model = os.path.join(work, "model.onnx")
package = mie.compile(model, os.path.join(work, "model.mie"))
x = np.load(os.path.join(work, "input_0.npy"))
ref = ort.InferenceSession(model, providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]

with mie.load(package, threads=1) as session:
    print("inputs", session.inputs, "outputs", session.outputs)
    y = session.run({"x": x})["y"]
    np.testing.assert_allclose(y, ref, rtol=1e-4, atol=1e-5)
    print("matches onnxruntime")
    # Positional inputs; a non-contiguous input is copied (the contiguous one is read in place).
    wide = np.zeros((x.shape[0], x.shape[1] * 2), np.float32)
    wide[:, ::2] = x
    np.testing.assert_array_equal(session.run([wide[:, ::2]])["y"], y)
    # Into the caller's array.
    out = np.empty((4, 10), np.float32)
    result = session.run({"x": x}, outputs={"y": out})
    print("outputs= writes in place:", result["y"] is out, np.array_equal(out, y))
    session.set_threads(2)
    print("threads", session.threads, "last_run_ms >= 0:", session.last_run_ms >= 0)

    def error(what, call):
        try:
            call()
            sys.exit(f"{what} was accepted")
        except mie.MieError as e:
            print(f"{what}: {e}")

    error("wrong dtype", lambda: session.run({"x": x.astype(np.float64)}))
    error("wrong shape", lambda: session.run({"x": x[:2]}))
    error("missing input", lambda: session.run({}))
    error("unknown input", lambda: session.run({"x": x, "z": x}))
    error("wrong output dtype", lambda: session.run({"x": x}, outputs={"y": out.astype(np.float64)}))
    error("read-only output", lambda: session.run({"x": x}, outputs=[np.broadcast_to(out, out.shape)]))
error("bad package path", lambda: mie.load(os.path.join(work, "missing.mie")))
error("closed session", lambda: session.run({"x": x}))
print("isinstance RuntimeError:", issubclass(mie.MieError, RuntimeError))
