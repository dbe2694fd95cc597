"""The Python bindings' signature policy: mie.load(..., trusted_keys=, require_signature=).

Usage: check_signing.py WORK_DIR MIE_SIGN   (expects make_e2e.py's output in WORK_DIR)
"""
import os
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.environ["MIE_PYTHON_PATH"])
import mie  # noqa: E402

work, mie_sign = sys.argv[1:3]
for name in ("dev", "other"):
    for ext in (".key", ".pub"):
        if os.path.exists(os.path.join(work, name + ext)):
            os.unlink(os.path.join(work, name + ext))
    subprocess.run([mie_sign, "keygen", "--out", os.path.join(work, name)], check=True, capture_output=True)
dev_pub, other_pub = os.path.join(work, "dev.pub"), os.path.join(work, "other.pub")
signed = mie.compile(os.path.join(work, "model.onnx"), os.path.join(work, "signed.mie"),
                     extra_args=["--sign-key=" + os.path.join(work, "dev.key")])
plain = mie.compile(os.path.join(work, "model.onnx"), os.path.join(work, "plain.mie"))
x = np.load(os.path.join(work, "input_0.npy"))

with mie.load(signed, trusted_keys=[dev_pub], require_signature=True) as session:
    print("trusted run", session.run([x])["y"].shape)
# Raw 32-byte keys work as well as key files.
raw = bytes.fromhex(open(dev_pub).read().split()[1])
with mie.load(signed, trusted_keys=[other_pub, raw], require_signature=True) as session:
    print("raw key run", session.run([x])["y"].shape)
with mie.load(plain) as session:
    print("unsigned, nothing required", session.run([x])["y"].shape)
for label, path, keys in (("untrusted", signed, [other_pub]), ("unsigned", plain, [dev_pub])):
    try:
        mie.load(path, trusted_keys=keys, require_signature=True)
    except mie.MieError as e:
        print(label, "error:", e)
try:
    mie.load(signed, trusted_keys=[os.path.join(work, "dev.key")])
except mie.MieError as e:
    print("bad key error:", e)
