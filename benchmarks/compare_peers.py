"""Latency of mie next to onnxruntime and OpenVINO: same model, same input, same thread count.

Usage (a benchmark venv with the peers: `python3 -m venv B && B/bin/pip install onnxruntime openvino onnx`):
  B/bin/python benchmarks/compare_peers.py MODEL_DIR [MODEL_DIR...] [--threads 1,2] [--runs 20]
      [--repeats 5] [--target default|host|x86-64|x86-64-avx512|...] [--build build] [--no-openvino]
MODEL_DIR holds model.onnx and input_*.npy (the layout of shared/models/export_zoo.py). Each model is
compiled once (compile time and package size are reported next to the ONNX file's size); then for
every thread count the three runtimes are timed interleaved (the order reversed every other round),
`--repeats` rounds of `--runs` runs each
(mie through `mie-run --benchmark`, the peers in-process), and the minimum over rounds of each
round's median is kept. Prints latencies, the ratios mie / onnxruntime and mie / OpenVINO (f32, its
bf16 default switched off), the model's GFLOP/s (Conv/Gemm/MatMul FLOPs) and the share of the FMA
peak this machine measures (benchmarks/peak/fma_peak.c, built with clang-22 -march=native, times the
thread count). `--target default` (the default) compiles as a user does, with no --target: a package
for every x86-64 machine whose runtime runs the best code this CPU has, as the peers pick their best
kernels at run time; `--target host` the build machine's best single target; any other value is
passed to mie-compile's --target.
Never part of the test suite: these machines are shared and noisy.
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
import onnx
import onnxruntime as ort

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def measure_peak(work):
    exe = os.path.join(work, "fma_peak")
    subprocess.run(["clang-22", "-O2", "-march=native", "-ffp-contract=fast",
                    os.path.join(ROOT, "benchmarks", "peak", "fma_peak.c"), "-o", exe], check=True)
    out = subprocess.run([exe], check=True, capture_output=True, text=True).stdout
    return float(re.search(r"peak_gflops ([0-9.]+)", out).group(1))


def model_flops(path):
    """2 * MACs of the Conv, ConvTranspose, Gemm and MatMul nodes (shapes from ONNX inference)."""
    model = onnx.shape_inference.infer_shapes(onnx.load(path))
    shapes = {}
    for vi in list(model.graph.value_info) + list(model.graph.input) + list(model.graph.output):
        dims = [d.dim_value for d in vi.type.tensor_type.shape.dim]
        shapes[vi.name] = dims
    for init in model.graph.initializer:
        shapes[init.name] = list(init.dims)
    total = 0
    for node in model.graph.node:
        out = shapes.get(node.output[0])
        if not out or 0 in out:
            continue
        if node.op_type == "Conv":
            w = shapes[node.input[1]]
            total += 2 * int(np.prod(out)) * int(np.prod(w[1:]))
        elif node.op_type in ("Gemm", "MatMul"):
            a = shapes.get(node.input[0])
            trans_a = any(at.name == "transA" and at.i for at in node.attribute)
            k = a[-2] if trans_a else a[-1]
            total += 2 * int(np.prod(out)) * k
    return total


def mie_latency(build, package, inputs, threads, runs):
    cmd = [os.path.join(build, "bin", "mie-run"), package, "--threads", str(threads),
           "--benchmark", str(runs)]
    for name, path in inputs:
        cmd += ["--input", f"{name}={path}"]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return float(re.search(r"median ([0-9.]+) ms", out).group(1))


def compile_package(build, model, out, target, extra=()):
    """Compiles `model` into `out` for `target` (with the mie-compile flags `extra`); the seconds."""
    start = time.perf_counter()
    flags = [] if target == "default" else [f"--target={target}"]
    subprocess.run([os.path.join(build, "bin", "mie-compile"), model, "-o", out, *flags, *extra],
                   check=True)
    return time.perf_counter() - start


def timed(fn, runs):
    fn()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("model_dirs", nargs="+")
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--target", default="default")
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--model", default="model.onnx")
    parser.add_argument("--no-openvino", action="store_true")
    args = parser.parse_args()

    print(f"mie target: {args.target}")
    work = tempfile.mkdtemp(prefix="mie-peers-")
    peak = measure_peak(work)
    print(f"measured fp32 FMA peak: {peak:.1f} GFLOP/s per core")
    ov_core = None
    if not args.no_openvino:
        import openvino as ov
        ov_core = ov.Core()
    rows = []
    for model_dir in args.model_dirs:
        model = os.path.join(model_dir, args.model)
        name = os.path.basename(os.path.normpath(model_dir))
        package = os.path.join(work, name + ".mie")
        compile_s = compile_package(args.build, model, package, args.target)
        flops = model_flops(model)
        probe = ort.InferenceSession(model, providers=["CPUExecutionProvider"])
        inputs, feeds = [], {}
        for i, inp in enumerate(probe.get_inputs()):
            path = os.path.join(model_dir, f"input_{i}.npy")
            inputs.append((inp.name, path))
            feeds[inp.name] = np.load(path)
        print(f"{name}: compile {compile_s:.1f} s, package {os.path.getsize(package) / 1e6:.1f} MB "
              f"(onnx {os.path.getsize(model) / 1e6:.1f} MB), {flops / 1e9:.2f} GFLOP")
        for threads in [int(t) for t in args.threads.split(",")]:
            options = ort.SessionOptions()
            options.intra_op_num_threads = threads
            options.inter_op_num_threads = 1
            session = ort.InferenceSession(model, options, providers=["CPUExecutionProvider"])
            runners = {"mie": lambda: mie_latency(args.build, package, inputs, threads, args.runs),
                       "onnxruntime": lambda: timed(lambda: session.run(None, feeds), args.runs)}
            if ov_core is not None:
                compiled = ov_core.compile_model(model, "CPU", {
                    "INFERENCE_NUM_THREADS": threads, "INFERENCE_PRECISION_HINT": "f32",
                    "PERFORMANCE_HINT": "LATENCY"})
                request = compiled.create_infer_request()
                ov_feeds = list(feeds.values())
                runners["openvino"] = lambda: timed(lambda: request.infer(ov_feeds), args.runs)
            results = {k: [] for k in runners}
            order = list(runners)
            for r in range(args.repeats):
                # Alternate the order, so that no runtime always runs first (or right after another's
                # threads went idle) in a round.
                for key in (order if r % 2 == 0 else order[::-1]):
                    results[key].append(runners[key]())
            best = {k: min(v) for k, v in results.items()}
            m = best["mie"]
            gflops = flops / (m * 1e-3) / 1e9
            line = (f"  {threads} thread(s): mie {m:.2f} ms, onnxruntime {best['onnxruntime']:.2f} ms "
                    f"(mie/ort {m / best['onnxruntime']:.2f})")
            if "openvino" in best:
                line += f", openvino {best['openvino']:.2f} ms (mie/ov {m / best['openvino']:.2f})"
            line += f"; mie {gflops:.1f} GFLOP/s = {100 * gflops / (peak * threads):.0f}% of peak"
            print(line, flush=True)
            rows.append((name, threads, m, best["onnxruntime"], best.get("openvino")))
    print("\n| model | threads | mie ms | onnxruntime ms | mie/ort | openvino ms | mie/ov |")
    print("|---|---|---|---|---|---|---|")
    for name, threads, m, o, v in rows:
        ov_cols = f"{v:.2f} | {m / v:.2f}" if v else "- | -"
        print(f"| {name} | {threads} | {m:.2f} | {o:.2f} | {m / o:.2f} | {ov_cols} |")


if __name__ == "__main__":
    main()
