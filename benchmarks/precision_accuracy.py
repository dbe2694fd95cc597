"""Accuracy of reduced precision on zoo models: each model compiled in fp32 and in every precision
asked for, run on the model's saved input, and compared with the fp32 package's output.

Usage: precision_accuracy.py ZOO_DIR MODEL ... [--precisions bf16,mixed,dynamic_fp16,auto]
                             [--target x86-64] [--build build] [--threads 2] [--budget 1e-2]
  e.g. precision_accuracy.py ~/.cache/mie-models tiny_cnn resnet18 bert_tiny
ZOO_DIR is what ../shared/models/export_zoo.py wrote (<name>/model.onnx, input_0.npy, output_0.npy).
Prints one row per model and precision: cosine similarity to the fp32 output, the max error relative
to max |fp32 output|, the number of NaN/Inf outputs, the model's weight bytes (the graph's constants,
from --report=precision) next to fp32's, the package's weights section next to fp32's (fp32 weights
are packed for the microkernels, Winograd-transformed 3x3 filters larger than the model's, while
bf16/fp16 weights are stored as they are until their microkernels land), the casts left in the
graph, and whether it meets the bar (cosine >= 0.999, all finite). `auto` rows (--precision=auto
with --accuracy-budget=BUDGET, random calibration inputs) add the products kept in f32 of the
candidates, the error the compiler measured, and the compile's wall time. The fp32 row
compares with the saved PyTorch reference instead. Accuracy only: nothing is timed (the portable
bf16 path is slow until the bf16 microkernels land). Not part of the test suite.
"""
import argparse
import json
import os
import re
import struct
import subprocess
import sys
import tempfile
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

parser = argparse.ArgumentParser()
parser.add_argument("zoo")
parser.add_argument("models", nargs="+")
parser.add_argument("--precisions", default="bf16,mixed,dynamic_fp16")
parser.add_argument("--target", default="x86-64")
parser.add_argument("--build", default=os.path.join(ROOT, "build"))
parser.add_argument("--threads", type=int, default=2)
parser.add_argument("--budget", type=float, default=1e-2)
args = parser.parse_args()


def flags(precision):
    if precision == "dynamic_fp16":
        return ["--quantize-method=dynamic_fp16"]
    if precision == "auto":
        return ["--precision=auto", f"--accuracy-budget={args.budget}"]
    return [f"--precision={precision}"]


def weight_bytes(package):
    """The package's weights section as its manifest states it."""
    with open(package, "rb") as f:
        data = f.read()
    offset, size = struct.unpack_from("<QQ", data, 16)
    return json.loads(data[offset:offset + size])["weights"]["size"]


def compile_and_run(model, inputs, precision, tmp):
    package, out = os.path.join(tmp, f"{precision}.mie"), os.path.join(tmp, f"{precision}.npy")
    start = time.monotonic()
    report = subprocess.run([os.path.join(args.build, "bin", "mie-compile"), model, "-o", package,
                             f"--target={args.target}", "--report=precision", *flags(precision)],
                            check=True, capture_output=True, text=True).stdout
    seconds = time.monotonic() - start
    kept = re.search(r"kept in f32: (\d+) of (\d+)", report)
    measured = re.search(r" error=(\S+) budget=", report)
    extra = (f"  kept {kept.group(1)}/{kept.group(2)}, measured {measured.group(1)}, "
             f"compile {seconds:.1f} s" if kept and measured else "")
    casts = re.search(r"casts_left=(\d+)", report)
    consts = re.search(r"weight_bytes=(\d+)->(\d+)", report)
    cmd = [os.path.join(args.build, "bin", "mie-run"), package, "--output", out, "--threads",
           str(args.threads)]
    for i in inputs:
        cmd += ["--input", i]
    subprocess.run(cmd, check=True, capture_output=True)
    return (np.load(out).astype(np.float64), weight_bytes(package),
            int(casts.group(1)) if casts else 0, int(consts.group(2)), extra)


def compare(out, ref):
    finite = np.isfinite(out)
    o, r = np.where(finite, out, 0).ravel(), ref.ravel()
    cos = float(o @ r / (np.linalg.norm(o) * np.linalg.norm(r)))
    rel = float(np.abs(o - r).max() / np.abs(r).max())
    return cos, rel, int((~finite).sum())


failed = 0
print(f"{'model':20s} {'precision':13s} {'cosine':>9s} {'max rel':>9s} {'NaN/Inf':>7s} "
      f"{'model MB':>8s} {'vs fp32':>7s} {'pkg MB':>7s} {'vs fp32':>7s} {'casts':>5s}  ok")
for name in args.models:
    d = os.path.join(args.zoo, name)
    inputs = sorted(os.path.join(d, f) for f in os.listdir(d) if re.fullmatch(r"input_\d+\.npy", f))
    with tempfile.TemporaryDirectory(prefix="mie-precision-") as tmp:
        model = os.path.join(d, "model.onnx")
        fp32, fp32_bytes, _, fp32_consts, _ = compile_and_run(model, inputs, "fp32", tmp)
        cos, rel, bad = compare(fp32, np.load(os.path.join(d, "output_0.npy")).astype(np.float64))
        print(f"{name:20s} {'fp32 (ref)':13s} {cos:9.6f} {rel:9.2e} {bad:7d} "
              f"{fp32_consts / 1e6:8.2f} {1.0:7.3f} {fp32_bytes / 1e6:7.2f} {1.0:7.3f} {0:5d}  "
              f"{cos >= 0.999 and bad == 0}", flush=True)
        for precision in args.precisions.split(","):
            try:
                out, nbytes, casts, consts, extra = compile_and_run(model, inputs, precision, tmp)
            except subprocess.CalledProcessError as e:
                failed += 1
                print(f"{name:20s} {precision:13s} FAILED: {(e.stderr or '').strip()[:200]}")
                continue
            cos, rel, bad = compare(out, fp32)
            ok = cos >= 0.999 and bad == 0
            failed += not ok
            print(f"{name:20s} {precision:13s} {cos:9.6f} {rel:9.2e} {bad:7d} {consts / 1e6:8.2f} "
                  f"{consts / fp32_consts:7.3f} {nbytes / 1e6:7.2f} {nbytes / fp32_bytes:7.3f} "
                  f"{casts:5d}  {ok}{extra}", flush=True)
sys.exit(1 if failed else 0)
