"""Latency of mie's reduced precision next to mie fp32, onnxruntime fp32 and OpenVINO bf16.

Usage (the benchmark venv of compare_peers.py):
  B/bin/python benchmarks/precision_latency.py MODEL_DIR [MODEL_DIR...] [--threads 1,2] [--runs 20]
      [--repeats 5] [--precision mixed] [--build build]
For every model: mie compiled at fp32 for the best f32 target of this CPU (x86-64-avx512 or x86-64)
and at `--precision` (default mixed) for the best reduced-precision target (x86-64-amx where the CPU
has AMX-BF16, else the f32 one); onnxruntime in fp32; OpenVINO with INFERENCE_PRECISION_HINT=bf16
(its default on CPUs with AVX512-BF16). All four run interleaved (the order reversed every other
round), `--repeats` rounds of `--runs` runs, the minimum of the rounds' medians kept. Prints the
latencies and the ratios of mie's reduced precision to onnxruntime fp32 (the issue's bar: <= 0.6)
and to OpenVINO bf16. Never part of the test suite.
"""
import argparse
import os
import sys
import tempfile

import numpy as np
import onnxruntime as ort

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare_peers import ROOT, compile_package, mie_latency, timed  # noqa: E402


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("model_dirs", nargs="+")
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--precision", default="mixed")
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--model", default="model.onnx")
    args = parser.parse_args()

    import openvino as ov
    core = ov.Core()
    # mie-compile's "host": this machine's best single target (x86-64-amx on an AMX CPU, where the
    # reduced-precision GEMMs run on AMX tiles; the fp32 code is the AVX-512 one either way).
    f32_target = low_target = "host"
    print(f"mie fp32 target: {f32_target}; mie {args.precision} target: {low_target}")
    work = tempfile.mkdtemp(prefix="mie-precision-")
    rows = []
    for model_dir in args.model_dirs:
        model = os.path.join(model_dir, args.model)
        name = os.path.basename(os.path.normpath(model_dir))
        fp32_pkg = os.path.join(work, name + "-fp32.mie")
        low_pkg = os.path.join(work, f"{name}-{args.precision}.mie")
        t32 = compile_package(args.build, model, fp32_pkg, f32_target, [])
        tlow = compile_package(args.build, model, low_pkg, low_target,
                               [f"--precision={args.precision}"])
        print(f"{name}: compile fp32 {t32:.1f} s, {args.precision} {tlow:.1f} s; package "
              f"{os.path.getsize(fp32_pkg) / 1e6:.1f} MB fp32, {os.path.getsize(low_pkg) / 1e6:.1f} MB "
              f"{args.precision}")
        probe = ort.InferenceSession(model, providers=["CPUExecutionProvider"])
        inputs, feeds = [], {}
        for i, inp in enumerate(probe.get_inputs()):
            path = os.path.join(model_dir, f"input_{i}.npy")
            inputs.append((inp.name, path))
            feeds[inp.name] = np.load(path)
        for threads in [int(t) for t in args.threads.split(",")]:
            options = ort.SessionOptions()
            options.intra_op_num_threads = threads
            options.inter_op_num_threads = 1
            session = ort.InferenceSession(model, options, providers=["CPUExecutionProvider"])
            compiled = core.compile_model(model, "CPU", {
                "INFERENCE_NUM_THREADS": threads, "INFERENCE_PRECISION_HINT": "bf16",
                "PERFORMANCE_HINT": "LATENCY"})
            request = compiled.create_infer_request()
            ov_feeds = list(feeds.values())
            runners = {
                "mie_low": lambda: mie_latency(args.build, low_pkg, inputs, threads, args.runs),
                "mie_fp32": lambda: mie_latency(args.build, fp32_pkg, inputs, threads, args.runs),
                "ort_fp32": lambda: timed(lambda: session.run(None, feeds), args.runs),
                "ov_bf16": lambda: timed(lambda: request.infer(ov_feeds), args.runs)}
            results = {k: [] for k in runners}
            order = list(runners)
            for r in range(args.repeats):
                for key in (order if r % 2 == 0 else order[::-1]):
                    results[key].append(runners[key]())
            best = {k: min(v) for k, v in results.items()}
            print(f"  {threads} thread(s): " + ", ".join(f"{k} {v:.2f} ms" for k, v in best.items()),
                  flush=True)
            rows.append((name, threads, best))
    p = args.precision
    print(f"\n| model | threads | mie {p} ms | mie fp32 ms | onnxruntime fp32 ms | OpenVINO bf16 ms | "
          f"{p}/ort fp32 | {p}/ov bf16 | {p}/mie fp32 |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name, threads, b in rows:
        print(f"| {name} | {threads} | {b['mie_low']:.2f} | {b['mie_fp32']:.2f} | {b['ort_fp32']:.2f} | "
              f"{b['ov_bf16']:.2f} | {b['mie_low'] / b['ort_fp32']:.2f} | "
              f"{b['mie_low'] / b['ov_bf16']:.2f} | {b['mie_low'] / b['mie_fp32']:.2f} |")


if __name__ == "__main__":
    main()
