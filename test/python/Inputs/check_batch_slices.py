"""The Python bindings on a package whose batch symbol lets a run take its batch in slices
(docs/dynamic-shapes.md, "Batch slices"): Session.batch_slice, set_batch_slice, and the outputs of
a sliced run equal to the whole run's and to onnxruntime's.

Usage: check_batch_slices.py WORK_DIR   (expects make_dynamic.py cnn_dyn's output in WORK_DIR, b8)
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.environ["MIE_PYTHON_PATH"])
import mie  # noqa: E402

work = sys.argv[1]
package = mie.compile(os.path.join(work, "model.onnx"), os.path.join(work, "py.mie"),
                      dim_ranges={"batch": (1, 8)})
x = np.load(os.path.join(work, "b8", "x.npy"))
ref = np.load(os.path.join(work, "b8", "y.ref.npy"))
with mie.load(package, threads=1) as session:
    session.set_batch_slice(0)
    whole = session.run({"x": x})["y"]
    print("whole", session.batch_slice, session.arena_bytes > 0)
    session.set_batch_slice(3)
    sliced = session.run({"x": x})["y"]
    print("sliced", session.batch_slice)
    np.testing.assert_allclose(whole, ref, rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(sliced, whole)
    print("equal")
    try:
        session.set_batch_slice(-5)
    except mie.MieError as e:
        print("refused", str(e).split("': ", 1)[1])
    try:
        session.set_batch_slice("2")
    except mie.MieError as e:
        print("refused", e)
