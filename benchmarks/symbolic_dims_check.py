"""Exports torchvision architectures with a dynamic batch dim and checks them on the symbolic-dims
path: import with --symbolic-dims (the batch stays '?' through the graph passes, --emit=ms), then
a package sized by --dim-param=batch=N for each N (or, with --dim-range, ONE package with code for
every batch in 1..max N, run at each N), compared with onnxruntime running the same dynamic-axes
export.

Needs Debian's python3-torch and python3-torchvision (run with /usr/bin/python3) and onnxruntime
in the interpreter given by --ort-python (the project's .venv). Not a test: the counts go into the
notes of the symbolic-shapes work.

Usage:
  /usr/bin/python3 benchmarks/symbolic_dims_check.py [--models resnet18,vit_b_16,...] [--batches 1,3]
      [--work DIR] [--tools build/bin] [--ort-python .venv/bin/python]
"""
import argparse
import os
import subprocess
import sys

DEFAULT_MODELS = ("resnet18,mobilenet_v2,mobilenet_v3_small,efficientnet_b0,densenet121,"
                  "squeezenet1_0,shufflenet_v2_x0_5,mnasnet0_5,regnet_x_400mf,googlenet,"
                  "convnext_tiny,vit_b_16,swin_t,alexnet")

COMPARE = r"""
import sys, numpy as np, onnxruntime as ort
model, x_path, out_path = sys.argv[1:4]
x = np.load(x_path)
s = ort.InferenceSession(model, providers=["CPUExecutionProvider"])
(ref,) = s.run(None, {s.get_inputs()[0].name: x})
out = np.load(out_path)
err = float(np.abs(out - ref).max()) if out.shape == ref.shape else float("inf")
print("%.3e" % err)
"""


def export(name, path):
    import torch
    import torchvision
    torch.manual_seed(0)
    kwargs = {"aux_logits": False, "init_weights": True} if name in ("googlenet", "inception_v3") else {}
    model = getattr(torchvision.models, name)(**kwargs).eval()
    size = 299 if name == "inception_v3" else 224
    x = torch.randn(1, 3, size, size)
    with torch.no_grad():
        torch.onnx.export(model, (x,), path, opset_version=17, input_names=["input"],
                          output_names=["output"],
                          dynamic_axes={"input": {0: "batch"}, "output": {0: "batch"}})
    return size


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--models", default=DEFAULT_MODELS)
    ap.add_argument("--batches", default="1,3")
    ap.add_argument("--work", default="/tmp/mie-symbolic-check")
    ap.add_argument("--tools", default="build/bin")
    ap.add_argument("--ort-python", default=".venv/bin/python")
    ap.add_argument("--dim-range", action="store_true",
                    help="one package per model with code for every batch in 1..max(--batches) "
                         "(--dim-range), run at each batch, instead of one --dim-param package each")
    args = ap.parse_args()
    import numpy as np
    os.makedirs(args.work, exist_ok=True)
    compile_ = os.path.join(args.tools, "mie-compile")
    run = os.path.join(args.tools, "mie-run")
    rows = []
    for name in args.models.split(","):
        d = os.path.join(args.work, name)
        os.makedirs(d, exist_ok=True)
        model = os.path.join(d, "model.onnx")
        try:
            size = export(name, model) if not os.path.exists(model) else 224
        except Exception as e:  # an export torch cannot do is not the compiler's failure
            rows.append((name, "export failed: %s" % str(e).splitlines()[0][:80]))
            continue
        r = subprocess.run([compile_, model, "--symbolic-dims", "--emit=ms", "-o", os.devnull],
                           capture_output=True, text=True)
        if r.returncode:
            err = [l for l in r.stderr.splitlines() if "error" in l]
            rows.append((name, "symbolic import failed: " + (err[0][:160] if err else "?")))
            continue
        results = []
        if args.dim_range:
            top = max(int(b) for b in args.batches.split(","))
            pkg = os.path.join(d, "range.mie")
            r = subprocess.run([compile_, model, "--symbolic-dims", "--dim-range=batch=1..%d" % top,
                                "-o", pkg], capture_output=True, text=True)
            if r.returncode:
                err = [l for l in r.stderr.splitlines() if "error" in l]
                rows.append((name, "dim-range compile failed: " + (err[0][:160] if err else "?")))
                continue
        for b in args.batches.split(","):
            if not args.dim_range:
                pkg = os.path.join(d, "b%s.mie" % b)
            x = np.random.default_rng(int(b)).standard_normal((int(b), 3, size, size)).astype(np.float32)
            xp, op = os.path.join(d, "x%s.npy" % b), os.path.join(d, "out%s.npy" % b)
            np.save(xp, x)
            if not args.dim_range:
                r = subprocess.run([compile_, model, "--symbolic-dims", "--dim-param=batch=" + b,
                                    "-o", pkg], capture_output=True, text=True)
                if r.returncode:
                    results.append("b%s: compile failed" % b)
                    continue
            r = subprocess.run([run, pkg, "--input", xp, "--output", op], capture_output=True, text=True)
            if r.returncode:
                results.append("b%s: run failed" % b)
                continue
            err = subprocess.run([args.ort_python, "-c", COMPARE, model, xp, op], capture_output=True,
                                 text=True).stdout.strip()
            results.append("b%s: max err %s" % (b, err))
        rows.append((name, "symbolic ok; " + ", ".join(results)))
    for name, what in rows:
        print("%-20s %s" % (name, what))
    ok = sum(1 for _, w in rows if w.startswith("symbolic ok"))
    print("%d of %d import with a symbolic batch" % (ok, len(rows)))


if __name__ == "__main__":
    main()
