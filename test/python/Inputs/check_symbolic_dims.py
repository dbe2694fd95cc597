"""The Python bindings on a package that keeps the model's symbolic dims (--specialize): the
symbols and their ranges, shapes that name them, run() at every compiled shape matching
onnxruntime, and clear errors (the session stays usable) for shapes the package refuses.

Usage: check_symbolic_dims.py WORK_DIR   (expects make_dynamic.py encoder_dyn's output in WORK_DIR)
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.environ["MIE_PYTHON_PATH"])
import mie  # noqa: E402

work = sys.argv[1]
package = mie.compile(os.path.join(work, "model.onnx"), os.path.join(work, "py.mie"),
                      target="x86-64", specialize={"batch": [1, 3], "seq": [1, 7]})
with mie.load(package) as session:
    print("symbols", session.symbols)
    print("inputs", session.inputs)
    print("outputs", session.outputs)
    for shape in ("b1s1", "b3s7", "b1s7"):
        feeds = {name: np.load(os.path.join(work, shape, name + ".npy")) for name in ("x", "mask")}
        y = session.run(feeds)["y"]
        ref = np.load(os.path.join(work, shape, "y.ref.npy"))
        np.testing.assert_allclose(y, ref, rtol=1e-4, atol=1e-5)
        print("ran", shape, y.shape)
    for x_shape, mask_shape in (((2, 7, 32), (2, 7)), ((3, 7, 32), (3, 6)), ((3, 17, 32), (3, 17))):
        try:
            session.run({"x": np.zeros(x_shape, np.float32), "mask": np.ones(mask_shape, np.float32)})
            print("ran", x_shape)
        except mie.MieError as e:
            print("refused", str(e).split("': ", 1)[1])
    y = session.run({"x": np.load(os.path.join(work, "b3s7", "x.npy")),
                     "mask": np.load(os.path.join(work, "b3s7", "mask.npy"))})["y"]
    print("still runs", y.shape)
