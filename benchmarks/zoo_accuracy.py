"""Compiles zoo models and compares their outputs with the saved PyTorch references.

Usage: zoo_accuracy.py ZOO_DIR MODEL[/FILE] ... [--target x86-64] [--build build] [--threads 2]
  e.g. zoo_accuracy.py ~/.cache/mie-models resnet18 resnet18/model_bn.onnx mobilenet_v2
ZOO_DIR is what ../shared/models/export_zoo.py wrote (<name>/model*.onnx, input_0.npy, output_0.npy).
Prints one row per model: compile time, first-run latency, max absolute error, max error relative to
max |reference|, and whether numpy.allclose(rtol=1e-4, atol=1e-5) holds. Not part of the test suite.
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

parser = argparse.ArgumentParser()
parser.add_argument("zoo")
parser.add_argument("models", nargs="+")
parser.add_argument("--target", default="x86-64")
parser.add_argument("--build", default=os.path.join(ROOT, "build"))
parser.add_argument("--threads", type=int, default=2)
args = parser.parse_args()

bad = 0
print(f"{'model':34s} {'compile s':>9s} {'max abs':>10s} {'max rel':>10s}  allclose")
for spec in args.models:
    name, _, file = spec.partition("/")
    d = os.path.join(args.zoo, name)
    model = os.path.join(d, file or "model.onnx")
    with tempfile.TemporaryDirectory(prefix="mie-zoo-") as tmp:
        package, out = os.path.join(tmp, "model.mie"), os.path.join(tmp, "out.npy")
        start = time.perf_counter()
        subprocess.run([os.path.join(args.build, "bin", "mie-compile"), model, "-o", package,
                        f"--target={args.target}"], check=True)
        compile_s = time.perf_counter() - start
        subprocess.run([os.path.join(args.build, "bin", "mie-run"), package, "--input",
                        os.path.join(d, "input_0.npy"), "--output", out, "--threads",
                        str(args.threads)], check=True, capture_output=True)
        ours, ref = np.load(out), np.load(os.path.join(d, "output_0.npy"))
    err = np.abs(ours.astype(np.float64) - ref)
    ok = np.allclose(ours, ref, rtol=1e-4, atol=1e-5)
    bad += not ok
    print(f"{spec:34s} {compile_s:9.1f} {err.max():10.2e} {err.max() / np.abs(ref).max():10.2e}  {ok}")
sys.exit(1 if bad else 0)
