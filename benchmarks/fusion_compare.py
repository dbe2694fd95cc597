"""Fusion on and off, side by side: kernel counts, output equivalence and latency per zoo model.

Usage:
  fusion_compare.py ZOO_DIR MODEL[/FILE] ... [--threads 2] [--runs 10] [--repeats 3] [--build build]
  e.g. fusion_compare.py ~/.cache/mie-models resnet50/model_bn.onnx mobilenet_v3_small bert_base
ZOO_DIR is what ../shared/models/export_zoo.py wrote (<name>/model*.onnx, input_0.npy, output_0.npy).
Each model is compiled twice (`mie-compile --report=fusion`, then with `--fusion=false`), both packages
run on the saved input, and the script prints per model: kernels launched without and with fusion,
the largest difference between the two outputs relative to max |unfused| (the 1e-5 equivalence
check), the fused output's error against the saved PyTorch reference, and the median latencies
of alternating repeats (the machines are shared and noisy). Not part of the test suite.
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare_ort import ROOT, mie_latency  # noqa: E402


def compile_model(build, model, package, fusion):
    out = subprocess.run([os.path.join(build, "bin", "mie-compile"), model, "-o", package,
                          "--report=fusion", f"--fusion={'true' if fusion else 'false'}"],
                         check=True, capture_output=True, text=True).stdout
    return int(re.search(r"kernels out \(@\w+\): (\d+)", out).group(1))


def run_model(build, package, inputs, out_path):
    cmd = [os.path.join(build, "bin", "mie-run"), package, "--output", out_path]
    for name, path in inputs:
        cmd += ["--input", f"{name}={path}"]
    subprocess.run(cmd, check=True, capture_output=True)
    return np.load(out_path)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("zoo")
    parser.add_argument("models", nargs="+")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    args = parser.parse_args()

    import onnx
    print(f"{'model':34s} {'kernels':>13s} {'fused vs unfused':>16s} {'vs reference':>12s} "
          f"{'unfused ms':>10s} {'fused ms':>9s} {'speedup':>7s}")
    worst = 0.0
    for spec in args.models:
        name, _, file = spec.partition("/")
        d = os.path.join(args.zoo, name)
        model = os.path.join(d, file or "model.onnx")
        in_name = onnx.load(model, load_external_data=False).graph.input[0].name
        inputs = [(in_name, os.path.join(d, "input_0.npy"))]
        ref = np.load(os.path.join(d, "output_0.npy"))
        with tempfile.TemporaryDirectory(prefix="mie-fusion-") as tmp:
            fused_pkg, plain_pkg = os.path.join(tmp, "fused.mie"), os.path.join(tmp, "plain.mie")
            k_fused = compile_model(args.build, model, fused_pkg, True)
            k_plain = compile_model(args.build, model, plain_pkg, False)
            y_fused = run_model(args.build, fused_pkg, inputs, os.path.join(tmp, "f.npy"))
            y_plain = run_model(args.build, plain_pkg, inputs, os.path.join(tmp, "p.npy"))
            equiv = np.abs(y_fused - y_plain).max() / max(np.abs(y_plain).max(), 1e-12)
            err = np.abs(y_fused - ref).max() / max(np.abs(ref).max(), 1e-12)
            worst = max(worst, equiv)
            fused_ms, plain_ms = [], []
            for _ in range(args.repeats):
                plain_ms.append(mie_latency(args.build, plain_pkg, inputs, args.threads, args.runs))
                fused_ms.append(mie_latency(args.build, fused_pkg, inputs, args.threads, args.runs))
        p, f = statistics.median(plain_ms), statistics.median(fused_ms)
        print(f"{spec:34s} {k_plain:5d} -> {k_fused:4d} {equiv:16.2e} {err:12.2e} {p:10.2f} "
              f"{f:9.2f} {p / f:6.2f}x", flush=True)
    print(f"largest fused-vs-unfused difference: {worst:.2e} "
          f"({'within' if worst <= 1e-5 else 'OUTSIDE'} 1e-5)")
    return 0 if worst <= 1e-5 else 1


if __name__ == "__main__":
    sys.exit(main())
