"""Runs zoo models compiled for a CPU and a CUDA target on the GPU and on the CPU and compares them with
onnxruntime (its CUDA provider where installed, else its CPU provider): latency, throughput and the largest
error, at batch 1 and 32 where the model allows. Called by scripts/gpu-check.sh; prints one table and says
what it skipped and why.

Usage: gpu_compare.py --build DIR --work DIR [--target x86-64,cuda:sm_90] [--batches 1,32] [--runs 20]
                      [--cuda-libraries cublaslt,cudnn] [--naive] [--no-torch-compile] [--kind cuda|cpu]
                      [--compile-only | --packages DIR] NAME=MODEL.onnx ...
  --cuda-libraries  passed to mie-compile (default cublaslt,cudnn: GEMMs on cuBLASLt, convolutions on cuDNN)
  --naive           also compile with --cuda-libraries=none and time that package on the GPU (column "naive ms")
Columns "libs" (the GPU libraries the session loaded: L = cuBLASLt, D = cuDNN), "torch ms" / "compile ms"
(PyTorch eager and torch.compile on the same GPU, where torch with CUDA and onnx2torch are installed).
  --compile-only  compile NAME_bBATCH.mie into --work and stop (on a machine with mie-compile, for a GPU
                  machine without one); --packages DIR runs such precompiled packages instead of compiling.
Exit status: 0 when every model that compiled ran within the tolerance, 1 otherwise.
"""
import argparse
import os
import statistics
import subprocess
import sys
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOLERANCE = 1e-3  # relative to the largest reference magnitude: fp32 on the GPU against fp32 references


def timed(fn, runs):
    fn()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times)


def rel_error(got, ref):
    """Largest |got - ref| over the largest |ref| (and 1e-6), across all outputs."""
    worst = 0.0
    for g, r in zip(got, ref):
        g = np.asarray(g, dtype=np.float64)
        r = np.asarray(r, dtype=np.float64)
        if g.shape != r.shape:
            return float("inf")
        if r.size:
            worst = max(worst, float(np.max(np.abs(g - r))) / max(float(np.max(np.abs(r))), 1e-6))
    return worst


def model_inputs(model_path, batch):
    """The first input set of the zoo folder (input_0.npy) or seeded random data, at `batch`."""
    import onnxruntime as ort
    session = ort.InferenceSession(model_path, providers=["CPUExecutionProvider"])
    saved = os.path.join(os.path.dirname(model_path), "input_0.npy")
    rng = np.random.default_rng(0)
    feeds = {}
    for i, info in enumerate(session.get_inputs()):
        shape = [d if isinstance(d, int) else 1 for d in info.shape]
        if i == 0 and os.path.exists(saved) and len(session.get_inputs()) == 1:
            x = np.load(saved)
        elif "int" in info.type:
            x = rng.integers(0, 100, size=shape).astype(np.int64 if "int64" in info.type else np.int32)
        else:
            x = rng.standard_normal(shape).astype(np.float32)
        if batch != x.shape[0]:
            x = np.concatenate([x] * batch, axis=0)
        feeds[info.name] = x
    return feeds


def batched_model(model_path, batch, work):
    """`model_path` with its inputs' and outputs' first dimension made symbolic, for onnxruntime at
    `batch` (None when the model is batch 1 and cannot be rewritten: no onnx module)."""
    if batch == 1:
        return model_path
    try:
        import onnx
    except ImportError:
        return None
    model = onnx.load(model_path)
    for value in list(model.graph.input) + list(model.graph.output):
        dims = value.type.tensor_type.shape.dim
        if dims:
            dims[0].dim_param = "batch"
    del model.graph.value_info[:]
    out = os.path.join(work, f"{os.path.basename(os.path.dirname(model_path))}_b{batch}.onnx")
    onnx.save(model, out)
    return out


def torch_times(model_path, feeds, runs, compile_too):
    """PyTorch eager and (when `compile_too`) torch.compile latencies (ms) of the ONNX model on the GPU,
    through onnx2torch; None for what cannot run here (with the reason)."""
    try:
        import torch
        import onnx2torch
    except ImportError as e:
        return None, None, f"torch skipped: {e}"
    if not torch.cuda.is_available():
        return None, None, "torch skipped: torch.cuda.is_available() is False"
    try:
        module = onnx2torch.convert(model_path).eval().cuda()
        args = [torch.from_numpy(v).cuda() for v in feeds.values()]

        def run(m):
            with torch.no_grad():
                m(*args)
            torch.cuda.synchronize()
        eager = timed(lambda: run(module), runs)
        if not compile_too:
            return eager, None, None
        compiled_module = torch.compile(module)
        run(compiled_module)  # compiles
        compiled = timed(lambda: run(compiled_module), runs)
        return eager, compiled, None
    except Exception as e:  # conversion and compilation raise many types
        return None, None, f"torch skipped: {str(e).splitlines()[0] if str(e) else type(e).__name__}"


def ort_session(path):
    import onnxruntime as ort
    available = ort.get_available_providers()
    providers = ["CUDAExecutionProvider", "CPUExecutionProvider"] if "CUDAExecutionProvider" in available \
        else ["CPUExecutionProvider"]
    session = ort.InferenceSession(path, providers=providers)
    return session, session.get_providers()[0].replace("ExecutionProvider", "")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("models", nargs="+", help="NAME=MODEL.onnx")
    parser.add_argument("--build", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--target", default="x86-64,cuda:sm_90")
    parser.add_argument("--batches", default="1,32")
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--compile-only", action="store_true")
    parser.add_argument("--packages", help="a folder of NAME_bBATCH.mie from --compile-only")
    parser.add_argument("--cuda-libraries", default="cublaslt,cudnn")
    parser.add_argument("--naive", action="store_true")
    parser.add_argument("--no-torch-compile", action="store_true",
                        help="time PyTorch eager only (torch.compile takes a minute or more per model and batch)")
    parser.add_argument("--kind", default="cuda", choices=["cuda", "cpu"],
                        help="the target kind the 'gpu' columns measure; cpu is a dry run of this script on a "
                             "machine without a GPU")
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    sys.path.insert(0, os.path.join(ROOT, "python-bindings"))
    os.environ.setdefault("MIE_RT_LIBRARY", os.path.join(args.build, "lib", "libmie_rt.so"))
    import mie

    rows, notes, failed = [], [], False
    for spec in args.models:
        name, _, model = spec.partition("=")
        for batch in [int(b) for b in args.batches.split(",")]:
            what = f"{name} batch {batch}"
            feeds = model_inputs(model, batch)
            package = os.path.join(args.packages or args.work, f"{name}_b{batch}.mie")
            if args.packages:
                if not os.path.exists(package):
                    notes.append(f"{what}: skipped: no {package}")
                    continue
            else:
                shapes = [f"--input-shape={k}={'x'.join(str(d) for d in v.shape)}" for k, v in feeds.items()]
                compile_cmd = [os.path.join(args.build, "bin", "mie-compile"), model, "-o", package,
                               f"--target={args.target}", f"--cuda-libraries={args.cuda_libraries}",
                               *(shapes if batch != 1 else [])]
                compiled = subprocess.run(compile_cmd, capture_output=True, text=True)
                if compiled.returncode == 0 and args.naive:
                    naive_cmd = compile_cmd[:]
                    naive_cmd[3] = package.replace(".mie", "_naive.mie")
                    naive_cmd[5] = "--cuda-libraries=none"
                    naive = subprocess.run(naive_cmd, capture_output=True, text=True)
                    if naive.returncode != 0:
                        notes.append(f"{what}: naive package skipped: mie-compile failed")
                if compiled.returncode != 0:
                    last = (compiled.stderr.strip().splitlines() or ["no message"])[-1]
                    notes.append(f"{what}: skipped: mie-compile failed: {last}")
                    continue
                if args.compile_only:
                    notes.append(f"{what}: compiled {package}")
                    continue
            try:
                probe = mie.load(package)
                targets = probe.targets
                probe.close()
                gpu = next((t["name"] for t in targets if t["kind"] == args.kind and t["runnable"]), None)
                cpu = next((t["name"] for t in targets if t["kind"] == "cpu" and t["runnable"]), None)
                if gpu is None:
                    why = "; ".join(f"{t['name']}: {t['reason']}" for t in targets if t["kind"] == args.kind)
                    notes.append(f"{what}: skipped: no runnable {args.kind} target ({why or 'none in the package'})")
                    failed |= args.kind == "cuda" and bool(why)
                    continue
                with mie.load(package, target=gpu) as s:
                    device = s.device
                    inputs = {i.name: feeds[i.name].astype(i.dtype) for i in s.inputs}
                    gpu_out = list(s.run(inputs).values())
                    gpu_ms = timed(lambda: s.run(inputs), args.runs)
                libs = ("L" if "cuBLASLt" in device else "") + ("D" if "cuDNN" in device else "") or "-"
                naive_ms, naive_path = None, package.replace(".mie", "_naive.mie")
                if args.naive and os.path.exists(naive_path):
                    with mie.load(naive_path, target=gpu) as s:
                        naive_out = list(s.run(inputs).values())
                        naive_ms = timed(lambda: s.run(inputs), max(3, args.runs // 4))
                    naive_err = rel_error(naive_out, gpu_out)
                    notes.append(f"{what}: naive kernels vs libraries: {naive_err:.2e}")
                cpu_out, cpu_ms = None, None
                if cpu:
                    with mie.load(package, target=cpu) as s:
                        cpu_out = list(s.run(inputs).values())
                        cpu_ms = timed(lambda: s.run(inputs), max(3, args.runs // 4))
            except mie.MieError as e:
                notes.append(f"{what}: FAILED: {e}")
                failed = True
                continue
            ort_path = batched_model(model, batch, args.work)
            ort_ms, ort_err, provider = None, None, "-"
            if ort_path is None:
                notes.append(f"{what}: onnxruntime skipped: no onnx module to make the batch symbolic")
            else:
                try:
                    sess, provider = ort_session(ort_path)
                    ort_feeds = {i.name: inputs[i.name] for i in sess.get_inputs()}
                    ref = sess.run(None, ort_feeds)
                    # Its CPU provider is slow at batch 32 and only a reference there: fewer runs.
                    ort_runs = args.runs if provider == "CUDA" else max(3, args.runs // 4)
                    ort_ms = timed(lambda: sess.run(None, ort_feeds), ort_runs)
                    ort_err = rel_error(gpu_out, ref)
                except Exception as e:  # onnxruntime raises its own types
                    notes.append(f"{what}: onnxruntime skipped: {str(e).splitlines()[0]}")
            torch_ms, compile_ms, torch_note = torch_times(ort_path or model, inputs, args.runs,
                                                                 not args.no_torch_compile) \
                if args.kind == "cuda" else (None, None, None)
            if torch_note:
                notes.append(f"{what}: {torch_note}")
            cpu_err = rel_error(gpu_out, cpu_out) if cpu_out is not None else None
            worst = max(e for e in (ort_err, cpu_err) if e is not None) if (ort_err is not None or
                                                                           cpu_err is not None) else None
            ok = worst is not None and worst <= TOLERANCE
            failed |= not ok
            rows.append((name, batch, gpu_ms, batch * 1e3 / gpu_ms, cpu_ms, ort_ms, provider, ort_err, cpu_err,
                         "ok" if ok else "FAIL", libs, naive_ms, torch_ms, compile_ms))
            notes.append(f"{what}: ran on {device}")

    fmt = lambda v, f: "-" if v is None else format(v, f)
    print(f"{'model':<20} {'batch':>5} {'libs':>4} {'mie gpu ms':>10} {'gpu /s':>9} {'naive ms':>9} {'mie cpu ms':>10} "
          f"{'ort ms':>9} {'ort ep':>6} {'torch ms':>9} {'compile ms':>10} {'err vs ort':>10} {'err vs cpu':>10}  check")
    for r in rows:
        print(f"{r[0]:<20} {r[1]:>5} {r[10]:>4} {r[2]:>10.3f} {r[3]:>9.1f} {fmt(r[11], '9.3f'):>9} "
              f"{fmt(r[4], '10.3f'):>10} {fmt(r[5], '9.3f'):>9} {r[6]:>6} {fmt(r[12], '9.3f'):>9} "
              f"{fmt(r[13], '10.3f'):>10} {fmt(r[7], '10.2e'):>10} {fmt(r[8], '10.2e'):>10}  {r[9]}")
    for n in notes:
        print("  " + n)
    print(f"(errors: largest |difference| over the largest |reference|; tolerance {TOLERANCE:g})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
