"""Latency of mie next to onnxruntime on the same model, same input, same thread count.

Usage:
  compare_ort.py MODEL_DIR [--threads 2] [--runs 20] [--repeats 3] [--target x86-64] [--build build]
MODEL_DIR holds model.onnx and input_0.npy (the layout of shared/models/export_zoo.py). Compiles the
model with mie-compile, then alternates mie-run --benchmark and an onnxruntime session `--repeats`
times (these machines are shared and noisy, so the two are measured side by side, not once each),
and prints the median latencies and their ratio. Also checks that the outputs agree.
Never part of the test suite.
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np
import onnxruntime as ort

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def mie_latency(build, package, inputs, threads, runs):
    cmd = [os.path.join(build, "bin", "mie-run"), package, "--threads", str(threads),
           "--benchmark", str(runs)]
    for name, path in inputs:
        cmd += ["--input", f"{name}={path}"]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    match = re.search(r"median ([0-9.]+) ms", out)
    if not match:
        sys.exit("cannot parse mie-run output:\n" + out)
    return float(match.group(1))


def ort_latency(session, feeds, runs):
    session.run(None, feeds)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        session.run(None, feeds)
        times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("model_dir")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--target", default="x86-64")
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--model", default="model.onnx")
    args = parser.parse_args()

    model = os.path.join(args.model_dir, args.model)
    work = tempfile.mkdtemp(prefix="mie-bench-")
    package = os.path.join(work, "model.mie")
    start = time.perf_counter()
    subprocess.run([os.path.join(args.build, "bin", "mie-compile"), model, "-o", package,
                    f"--target={args.target}"], check=True)
    compile_s = time.perf_counter() - start

    options = ort.SessionOptions()
    options.intra_op_num_threads = args.threads
    options.inter_op_num_threads = 1
    session = ort.InferenceSession(model, options, providers=["CPUExecutionProvider"])
    names = [i.name for i in session.get_inputs()]
    feeds, inputs = {}, []
    for i, name in enumerate(names):
        path = os.path.join(args.model_dir, f"input_{i}.npy")
        feeds[name] = np.load(path)
        inputs.append((name, path))

    # Same numbers first.
    out_path = os.path.join(work, "out.npy")
    cmd = [os.path.join(args.build, "bin", "mie-run"), package, "--output", out_path]
    for name, path in inputs:
        cmd += ["--input", f"{name}={path}"]
    subprocess.run(cmd, check=True, capture_output=True)
    ours, ref = np.load(out_path), session.run(None, feeds)[0]
    rel = np.abs(ours - ref).max() / max(np.abs(ref).max(), 1e-12)

    mie_ms, ort_ms = [], []
    for _ in range(args.repeats):
        mie_ms.append(mie_latency(args.build, package, inputs, args.threads, args.runs))
        ort_ms.append(ort_latency(session, feeds, args.runs))
    m, o = statistics.median(mie_ms), statistics.median(ort_ms)
    print(f"model {args.model_dir}: compile {compile_s:.1f} s, package {os.path.getsize(package)} bytes, "
          f"max error relative to max |ref| {rel:.2e}")
    print(f"threads {args.threads}: mie {m:.2f} ms (repeats {', '.join(f'{x:.2f}' for x in mie_ms)}), "
          f"onnxruntime {o:.2f} ms (repeats {', '.join(f'{x:.2f}' for x in ort_ms)}), "
          f"mie/onnxruntime = {m / o:.2f}x")


if __name__ == "__main__":
    main()
