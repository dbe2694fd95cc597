"""The Python bindings on a package with value symbols (test/e2e/Inputs/make_value_symbols.py's
reshape): runs bind the inputs' data, a Reshape's -1 resolves, other values are refused naming the
input, the element and the symbol, and the session stays usable.

Usage: check_value_symbols.py DIR (make_value_symbols.py's output, with DIR/reshape.mie compiled)
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.environ["MIE_PYTHON_PATH"])
import mie  # noqa: E402

d = sys.argv[1]
session = mie.Session(os.path.join(d, "reshape.mie"))
print("symbols", session.symbols)
x = np.load(os.path.join(d, "reshape_infer_x.npy"))
ref = np.load(os.path.join(d, "reshape_infer.ref.npy"))
for shape in ([6, 4], [-1, 4], [6, -1]):
    y = session.run([x, np.array(shape, np.int64)])["y"]
    print("ran", shape, y.shape, "max diff", float(np.abs(y - ref).max()))
try:
    session.run([x, np.array([4, 6], np.int64)])
    print("not refused")
except mie.MieError as e:
    print("refused", str(e).split(": ", 1)[1])
y = session.run([x, np.array([-1, 4], np.int64)])["y"]
print("still runs", y.shape)
