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
    print("device", session.device, "targets", session.targets)
    out = session.run({"x": x})["y"]
    np.testing.assert_allclose(out, ref, rtol=1e-4, atol=1e-5)
    again = session.run([x])["y"]  # positional inputs, repeated runs give the same numbers
    np.testing.assert_array_equal(out, again)
    print("run ok", session.last_run_ms >= 0)
    # The runtime checks the buffers' sizes itself (mie_session_run_sized): a stale TensorInfo that
    # lets a smaller array through Python's own checks is refused, not read past its end.
    shape = session.inputs[0].shape
    session.inputs[0].shape = shape[:-1] + (shape[-1] // 2,)
    try:
        session.run({"x": np.ascontiguousarray(x[..., : shape[-1] // 2])})
        sys.exit("a buffer of the wrong size was accepted")
    except mie.MieError as e:
        print("size error:", e)
    session.inputs[0].shape = shape
    try:
        session.run({"x": x.astype(np.float64)})
        sys.exit("a wrong dtype was accepted")
    except mie.MieError as e:
        print("dtype error:", e)

# Bad arguments are MieErrors, not silent conversions: a negative thread count, too many
# positional inputs; a closed session refuses to run.
for threads in (-1, 2**32, 1.5):
    try:
        mie.load(package, threads=threads)
        sys.exit(f"threads={threads!r} was accepted")
    except mie.MieError as e:
        print("threads error:", e)
session = mie.load(package, threads=1)
try:
    session.run([x, x])
    sys.exit("an extra positional input was accepted")
except mie.MieError as e:
    print("count error:", e)
# close() from another thread while runs are in flight waits for the run in progress; the
# runner's next call sees the closed session.
import threading  # noqa: E402

errors = []


def runner():
    try:
        for _ in range(200):
            session.run({"x": x})
    except mie.MieError as e:
        errors.append(str(e))


t = threading.Thread(target=runner)
t.start()
session.close()
t.join()
print("closed while running:", errors or ["finished first"])
# The properties take the session's lock too (close() cannot free the session under them): while this
# thread holds it, reading `target` on another thread waits.
with mie.load(package, threads=1) as other:
    seen = []
    with other._lock:
        reader = threading.Thread(target=lambda: seen.append(other.target))
        reader.start()
        reader.join(0.5)
        print("property waits for the lock:", reader.is_alive())
    reader.join()
    print("property after the lock:", seen)
try:
    session.run({"x": x})
    sys.exit("a closed session ran")
except mie.MieError as e:
    print("closed error:", e)

# A 0-d (scalar) input is passed as one, not as a 1-element vector.
import onnx  # noqa: E402
from onnx import TensorProto, helper  # noqa: E402

scalar = helper.make_model(
    helper.make_graph([helper.make_node("Mul", ["s", "v"], ["y"])], "scalar",
                      [helper.make_tensor_value_info("s", TensorProto.FLOAT, []),
                       helper.make_tensor_value_info("v", TensorProto.FLOAT, [3])],
                      [helper.make_tensor_value_info("y", TensorProto.FLOAT, [3])]),
    opset_imports=[helper.make_opsetid("", 13)])
scalar.ir_version = 8
onnx.save(scalar, os.path.join(work, "scalar.onnx"))
with mie.load(mie.compile(os.path.join(work, "scalar.onnx"),
                          os.path.join(work, "scalar.mie"))) as s:
    y = s.run({"s": np.float32(2.0), "v": np.array([1, 2, 3], np.float32)})["y"]
    print("scalar input:", y.tolist())

# Precision options reach the same pipeline: the ms graph is reduced where asked, kept where named.
ms = mie.compile(os.path.join(work, "model.onnx"), emit="ms", precision="mixed")
kept = mie.compile(os.path.join(work, "model.onnx"), emit="ms", precision="mixed",
                   keep_fp32=["Conv", "Gemm"])
weights = mie.compile(os.path.join(work, "model.onnx"), emit="ms", quantize_method="dynamic_fp16")
print("precision:", b"xbf16>" in ms, b"acc_type = f32" in ms, b"xbf16>" in kept, b"xf16>" in weights)
# auto with a budget below bf16's rounding keeps every product f32 (nothing bf16 is left).
auto = mie.compile(os.path.join(work, "model.onnx"), emit="ms", precision="auto",
                   accuracy_budget=1e-7)
print("auto:", b"ms.keep_fp32" in auto, b"xbf16>" in auto)
try:
    mie.compile(os.path.join(work, "model.onnx"), precision="fp8")
    sys.exit("a bad precision compiled")
except mie.MieError as e:
    print("precision error:", e)

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

# A compiler warning is a MieWarning: a symbolic batch dim compiled for its default size (with the
# symbols pinned at import; by default the dim stays symbolic, code for every shape, no warning).
import warnings
from onnx import TensorProto, helper
sym = os.path.join(work, "symbolic.onnx")
g = helper.make_graph([helper.make_node("Relu", ["x"], ["y"])], "g",
                      [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 3])],
                      [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["batch", 3])])
import onnx
onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)]), sym)
for extra in ((), ("--symbolic-dims=false",)):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        mie.compile(sym, emit="ms", extra_args=extra)
    print("warnings:", [(w.category.__name__, str(w.message)) for w in caught])
