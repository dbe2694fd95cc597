"""Per-kernel comparisons, matched by the ONNX nodes each kernel computes (not by kernel number,
which changes when a change reorders or fuses kernels). Never part of the test suite.

  B/bin/python benchmarks/kernel_compare.py ab A.mie B.mie --input NAME=x.npy [--threads 1]
      [--rounds 6] [--runs 100] [--top 15]
    Runs two packages of the same model alternately (the order swapped every round), each with
    `mie-run --trace`, and prints per kernel the minimum over all runs of A and of B, largest
    differences first, plus the sums of the minima and the best round medians.

  B/bin/python benchmarks/kernel_compare.py ort PACKAGE MODEL_DIR [--threads 1] [--runs 100]
      [--top 30]
    Runs the package (`mie-run --trace`) and onnxruntime with profiling on the model's
    input_*.npy, and prints per mie kernel its minimum next to the summed minima of the
    onnxruntime nodes that compute the same ONNX nodes (onnxruntime names a fused node after its
    output), largest losses first.
"""
import argparse
import collections
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def mie_trace(build, package, inputs, threads, runs, work):
    """(median ms, {nodes: (kernel name, min us)}) of one `mie-run --trace` call."""
    trace = os.path.join(work, "trace.json")
    cmd = [os.path.join(build, "bin", "mie-run"), package, "--threads", str(threads),
           "--benchmark", str(runs), "--trace", trace]
    for spec in inputs:
        cmd += ["--input", spec]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    median = float(re.search(r"median ([0-9.]+) ms", out).group(1))
    kernels = {}
    for e in json.load(open(trace))["traceEvents"]:
        if e.get("cat") != "kernel":
            continue
        key = e["args"]["nodes"]
        name, best = kernels.get(key, (e["name"], float("inf")))
        kernels[key] = (name, min(best, e["dur"]))
    return median, kernels


def merge(into, kernels):
    for key, (name, us) in kernels.items():
        old = into.get(key, (name, float("inf")))
        into[key] = (name, min(old[1], us))


def cmd_ab(args, work):
    mins = {args.a: {}, args.b: {}}
    medians = {args.a: [], args.b: []}
    for r in range(args.rounds):
        for package in ([args.a, args.b] if r % 2 == 0 else [args.b, args.a]):
            median, kernels = mie_trace(args.build, package, args.input, args.threads, args.runs,
                                        work)
            medians[package].append(median)
            merge(mins[package], kernels)
    a, b = mins[args.a], mins[args.b]
    sa, sb = sum(v[1] for v in a.values()), sum(v[1] for v in b.values())
    print(f"kernel minima summed: A {sa / 1e3:.3f} ms, B {sb / 1e3:.3f} ms (B/A {sb / sa:.3f}); "
          f"best round median: A {min(medians[args.a]):.3f} ms, B {min(medians[args.b]):.3f} ms")
    keys = sorted(set(a) | set(b), key=lambda k: -abs(b.get(k, ("", 0))[1] - a.get(k, ("", 0))[1]))
    for key in keys[:args.top]:
        ua, ub = a.get(key, ("-", 0.0)), b.get(key, ("-", 0.0))
        ratio = f"{ub[1] / ua[1]:.3f}" if ua[1] else "  -  "
        print(f"A {ua[1]:9.1f} us  B {ub[1]:9.1f} us  B/A {ratio}  {ua[0] if ua[1] else ub[0]}: "
              f"{key[:70]}")


def cmd_ort(args, work):
    import numpy as np
    import onnxruntime as ort

    model = os.path.join(args.model_dir, "model.onnx")
    options = ort.SessionOptions()
    options.intra_op_num_threads = args.threads
    options.enable_profiling = True
    options.profile_file_prefix = os.path.join(work, "ort")
    session = ort.InferenceSession(model, options, providers=["CPUExecutionProvider"])
    feeds, specs = {}, []
    for i, inp in enumerate(session.get_inputs()):
        path = os.path.join(args.model_dir, f"input_{i}.npy")
        feeds[inp.name] = np.load(path)
        specs.append(f"{inp.name}={path}")
    for _ in range(args.runs):
        session.run(None, feeds)
    ort_min = collections.defaultdict(lambda: float("inf"))
    for e in json.load(open(session.end_profiling())):
        if e.get("cat") == "Node" and e["name"].endswith("_kernel_time"):
            name = e["name"][:-len("_kernel_time")]
            ort_min[name] = min(ort_min[name], e["dur"])
    _, kernels = mie_trace(args.build, args.package, specs, args.threads, args.runs, work)
    node_to_kernel = {node: key for key in kernels for node in key.split(",")}
    ort_of = collections.defaultdict(float)
    unmatched = 0.0
    for name, us in ort_min.items():
        # A fused node is named after its output (`<node>_output_0`, NCHWc ones `..._nchwc`).
        base = re.sub(r"(_output_\d+)?(_nchwc)?$", "", name)
        key = node_to_kernel.get(base) or node_to_kernel.get(name)
        if key:
            ort_of[key] += us
        else:
            unmatched += us
    total = sum(v[1] for v in kernels.values())
    print(f"mie kernel minima summed {total / 1e3:.3f} ms; onnxruntime node minima matched "
          f"{sum(ort_of.values()) / 1e3:.3f} ms, unmatched (reorders, ...) {unmatched / 1e3:.3f} ms")
    for key in sorted(kernels, key=lambda k: -(kernels[k][1] - ort_of.get(k, 0.0)))[:args.top]:
        name, us = kernels[key]
        print(f"mie {us:9.1f} us  onnxruntime {ort_of.get(key, 0.0):9.1f} us  {name}: {key[:70]}")


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    sub = parser.add_subparsers(dest="command", required=True)
    ab = sub.add_parser("ab")
    ab.add_argument("a")
    ab.add_argument("b")
    ab.add_argument("--input", action="append", default=[], help="NAME=path, as for mie-run")
    ab.add_argument("--rounds", type=int, default=6)
    ort_parser = sub.add_parser("ort")
    ort_parser.add_argument("package")
    ort_parser.add_argument("model_dir")
    for p in (ab, ort_parser):
        p.add_argument("--threads", type=int, default=1)
        p.add_argument("--runs", type=int, default=100)
        p.add_argument("--top", type=int, default=15)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        (cmd_ab if args.command == "ab" else cmd_ort)(args, work)


if __name__ == "__main__":
    sys.exit(main())
