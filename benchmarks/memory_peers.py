"""Memory of mie next to onnxruntime on the same model and input: the arena plan and peak resident memory.

Usage (the benchmark venv of compare_peers.py):
  B/bin/python benchmarks/memory_peers.py MODEL_DIR [MODEL_DIR...] [--threads 1] [--target host|...]
      [--build build]
MODEL_DIR holds model.onnx, input_*.npy and output_*.npy (the layout of shared/models/export_zoo.py).
For each model, in one run:
  - the plan, from `mie-compile --report=memory` (every compilation also runs the plan checker,
    mie-check-memory-plan): arena / lower bound and naive (no reuse) / arena;
  - peak resident memory (ru_maxrss of a child process) of `mie-run` running the package once, and of a
    Python process that imports onnxruntime and runs the model once with the same thread count; the
    growth of onnxruntime's process over its baseline (Python with numpy and onnxruntime imported,
    ~60 MB), next to which mie-run's whole peak is set as well;
  - the outputs, against the saved reference, of a plain run and of a run with --poison-dead-buffers.
Never part of the test suite.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "benchmarks"))

ORT_RUN = r"""
import sys, numpy as np, onnxruntime as ort
model, threads = sys.argv[1], int(sys.argv[2])
opts = ort.SessionOptions()
opts.intra_op_num_threads = threads
opts.inter_op_num_threads = 1
if model == "-":
    sys.exit(0)  # the baseline: the interpreter with numpy and onnxruntime imported
s = ort.InferenceSession(model, opts, providers=["CPUExecutionProvider"])
feeds = {i.name: np.load(f) for i, f in zip(s.get_inputs(), sys.argv[3:])}
s.run(None, feeds)
"""


def peak_rss_mb(cmd):
    """Runs cmd; returns its peak resident memory in MB. Measured by GNU time, whose own child is forked
    from a small process: a child forked straight from this Python process would count the interpreter's
    pages it held between fork and exec in its ru_maxrss."""
    with tempfile.NamedTemporaryFile("r", suffix=".rss") as rss:
        proc = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", rss.name] + cmd,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if proc.returncode != 0:
            raise RuntimeError(f"{' '.join(cmd)} failed: {proc.stderr}")
        return int(rss.read().split()[-1]) / 1024.0


def max_rel_err(out, ref):
    out, ref = np.load(out).astype(np.float64), np.load(ref).astype(np.float64)
    if np.isnan(out).any():
        return float("nan")
    return float(np.max(np.abs(out - ref)) / max(np.max(np.abs(ref)), 1e-30))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("models", nargs="+")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--target", default="host")
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    args = ap.parse_args()
    target = args.target  # "host": mie-compile's, this machine's best single target
    compile_exe = os.path.join(args.build, "bin", "mie-compile")
    run_exe = os.path.join(args.build, "bin", "mie-run")
    rows = []
    with tempfile.TemporaryDirectory() as work:
        ort_base = peak_rss_mb([sys.executable, "-c", ORT_RUN, "-", str(args.threads)])
        for model_dir in args.models:
            name = os.path.basename(os.path.normpath(model_dir))
            model = os.path.join(model_dir, "model.onnx")
            inputs = sorted(f for f in os.listdir(model_dir) if re.fullmatch(r"input_\d+\.npy", f))
            inputs = [os.path.join(model_dir, f) for f in inputs]
            package = os.path.join(work, name + ".mie")
            report = subprocess.run([compile_exe, model, "-o", package, "--target", target,
                                     "--report=memory"], check=True, capture_output=True, text=True).stdout
            arena, lower, naive = map(int, re.search(
                r"^memory: arena=(\d+) lower_bound=(\d+) naive=(\d+)$", report, re.M).groups())
            out = os.path.join(work, name + "_out.npy")
            run = [run_exe, package, "--threads", str(args.threads)]
            for f in inputs:
                run += ["--input", f]
            mie_rss = peak_rss_mb(run + ["--output", out])
            err = max_rel_err(out, os.path.join(model_dir, "output_0.npy"))
            peak_rss_mb(run + ["--output", out, "--poison-dead-buffers"])
            poisoned_err = max_rel_err(out, os.path.join(model_dir, "output_0.npy"))
            ort_rss = peak_rss_mb([sys.executable, "-c", ORT_RUN, model, str(args.threads)] + inputs)
            rows.append((name, arena, lower, naive, mie_rss, ort_rss, err, poisoned_err))

    print(f"target {target}, {args.threads} thread(s); onnxruntime baseline (python + numpy + onnxruntime "
          f"imported): {ort_base:.1f} MB")
    print(f"{'model':<20} {'arena MB':>9} {'arena/LB':>9} {'naive/arena':>11} {'mie MB':>8} {'ort MB':>8} "
          f"{'mie/ort':>8} {'ort growth':>11} {'mie/growth':>11} {'rel err':>9} {'poisoned':>9}")
    for name, arena, lower, naive, mie_rss, ort_rss, err, perr in rows:
        growth = ort_rss - ort_base
        print(f"{name:<20} {arena / 1e6:9.2f} {arena / lower:9.3f} {naive / arena:11.2f} {mie_rss:8.1f} "
              f"{ort_rss:8.1f} {mie_rss / ort_rss:8.2f} {growth:11.1f} {mie_rss / growth:11.2f} "
              f"{err:9.1e} {perr:9.1e}")


if __name__ == "__main__":
    main()
