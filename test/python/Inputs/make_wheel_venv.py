"""Builds the mie-runtime wheel from the checkout and installs it into a fresh venv.

Usage: make_wheel_venv.py PYTHON_BINDINGS_DIR WORK_DIR

Run with the test interpreter (MIE_PYTHON), which has scikit-build-core, nanobind and numpy: the wheel
is built without build isolation, so no network is needed. The venv (WORK_DIR/venv) sees the test
interpreter's packages (numpy, onnxruntime) through a .pth file and gets the wheel alone (--no-deps
--no-index), so that `import mie` in it can only be the wheel's. Prints the wheel's name, size and
build time.
"""
import glob
import os
import subprocess
import sys
import sysconfig
import time

bindings, work = sys.argv[1], sys.argv[2]
dist = os.path.join(work, "dist")
start = time.monotonic()
subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--disable-pip-version-check",
                "--no-build-isolation", "--no-deps", "-w", dist, bindings], check=True)
elapsed = time.monotonic() - start
wheels = glob.glob(os.path.join(dist, "mie_runtime-*.whl"))
assert len(wheels) == 1, wheels
size = os.path.getsize(wheels[0])
print(f"wheel {os.path.basename(wheels[0])} {size} bytes, built in {elapsed:.1f} s")
print("under 5 MB:", size < 5 << 20)

venv = os.path.join(work, "venv")
subprocess.run([sys.executable, "-m", "venv", venv], check=True)
python = os.path.join(venv, "bin", "python")
purelib = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                         check=True, capture_output=True, text=True).stdout.strip()
with open(os.path.join(purelib, "test_parent.pth"), "w") as f:
    f.write(sysconfig.get_paths()["purelib"] + "\n")
subprocess.run([python, "-m", "pip", "install", "-q", "--disable-pip-version-check", "--no-index",
                "--no-deps", wheels[0]], check=True)
print("installed")
