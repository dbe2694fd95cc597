"""The default package (mie-compile with no --target) against every single-target package, on this
machine: latency, package size and compile time.

Usage:
  .venv/bin/python benchmarks/default_targets.py MODEL_DIR [MODEL_DIR...] [--threads 1]
      [--runs 20] [--repeats 5] [--precision fp32] [--build build] [--model model_op17.onnx]

MODEL_DIR holds the model and input_*.npy (shared/models/export_zoo.py's layout). Each model is
compiled with no --target (what a new user gets) and once per x86-64 target; then the packages are
timed with `mie-run --benchmark` interleaved (the order rotated every round), `--repeats` rounds, and
the minimum over rounds of each round's median is kept. Prints per model the default's latency, the
best single target's, their ratio, which target the runtime chose for the default package, and
every package's size and compile time. The acceptance line of issue 45: the default within 3% of
the best single-target package. Never part of the tests.
"""
import argparse
import glob
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare_peers import ROOT, compile_package, mie_latency  # noqa: E402

TARGETS = ["x86-64", "x86-64-avx512", "x86-64-avx512-vnni", "x86-64-amx"]


def inputs_of(model_dir, model):
    import onnx
    names = [i.name for i in onnx.load(model, load_external_data=False).graph.input]
    files = sorted(glob.glob(os.path.join(model_dir, "input_*.npy")))
    return list(zip(names, files))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("model_dirs", nargs="+")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--precision", default="fp32")
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--model", default="model_op17.onnx")
    args = ap.parse_args()
    runner = os.path.join(args.build, "bin", "mie-run")
    # What a user gets: no default target or target choice from this shell's environment.
    os.environ.pop("MIE_COMPILE_TARGET", None)
    os.environ.pop("MIE_TARGET", None)
    work = tempfile.mkdtemp(prefix="mie-default-")
    for model_dir in args.model_dirs:
        model = os.path.join(model_dir, args.model)
        name = os.path.basename(os.path.normpath(model_dir))
        packages = {}
        for target in ["default"] + TARGETS:
            out = os.path.join(work, f"{name}-{target}.mie")
            seconds = compile_package(args.build, model, out, target,
                                      [f"--precision={args.precision}"])
            packages[target] = (out, seconds, os.path.getsize(out))
        inputs = inputs_of(model_dir, model)
        feeds = sum((["--input", f"{n}={p}"] for n, p in inputs), [])
        chosen = re.search(r"target '([^']+)'", subprocess.run(
            [runner, packages["default"][0], *feeds], capture_output=True, text=True,
            check=True).stdout).group(1)
        medians = {t: [] for t in packages}
        order = list(packages)
        for r in range(args.repeats):
            for target in order[r % len(order):] + order[:r % len(order)]:
                medians[target].append(mie_latency(args.build, packages[target][0], inputs,
                                                   args.threads, args.runs))
        best = min(TARGETS, key=lambda t: min(medians[t]))
        default, single = min(medians["default"]), min(medians[best])
        print(f"{name} ({args.precision}, {args.threads} thread(s)): default {default:.2f} ms "
              f"(runs {chosen}), best single target {best} {single:.2f} ms, "
              f"ratio {default / single:.3f}")
        for target, (_, seconds, size) in packages.items():
            print(f"  {target:<20} {min(medians[target]):8.2f} ms  {size / 1e6:8.1f} MB  "
                  f"compile {seconds:6.1f} s")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
