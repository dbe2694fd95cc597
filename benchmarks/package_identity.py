"""Compiles models with two mie-compile builds and compares the packages byte for byte.

Usage:
  python3 benchmarks/package_identity.py --old OLD/mie-compile --new build/bin/mie-compile \
      [--targets x86-64,x86-64-avx512,x86-64-amx,aarch64,cuda:sm_90] [--precisions fp32,mixed] \
      MODEL.onnx [MODEL.onnx...]

For a refactoring that must not change what the compiler makes (docs/testing.md, "Refactorings"):
keep a copy of the old mie-compile (it links only the system's LLVM/MLIR libraries), rebuild, then
run this over the zoo. Each model is compiled for each target separately (--target=T) and under
each precision; a row says `identical`, `differs` (with the first differing offset and both sizes)
or which compile failed. Exits 1 when any package differs or only one build compiles it. Not part of
the tests (it needs the old build); the numbers go into the note of the change.
"""
import argparse
import os
import subprocess
import sys
import tempfile


def compile_one(compiler, model, target, precision, out):
    cmd = [compiler, model, "-o", out, f"--target={target}", f"--precision={precision}"]
    env = dict(os.environ)
    env.pop("MIE_COMPILE_TARGET", None)
    run = subprocess.run(cmd, capture_output=True, text=True, env=env)
    return run.returncode == 0, run.stderr.strip().splitlines()[-1:] if run.returncode else []


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--old", required=True)
    ap.add_argument("--new", required=True)
    ap.add_argument("--targets", default="x86-64,x86-64-avx512,x86-64-amx,aarch64,cuda:sm_90")
    ap.add_argument("--precisions", default="fp32")
    ap.add_argument("models", nargs="+")
    args = ap.parse_args()
    bad = 0
    total = 0
    with tempfile.TemporaryDirectory(prefix="mie-identity-") as work:
        for model in args.models:
            name = os.path.basename(os.path.dirname(os.path.abspath(model)))
            for precision in args.precisions.split(","):
                for target in args.targets.split(","):
                    total += 1
                    a, b = os.path.join(work, "old.mie"), os.path.join(work, "new.mie")
                    ok_a, err_a = compile_one(args.old, model, target, precision, a)
                    ok_b, err_b = compile_one(args.new, model, target, precision, b)
                    label = f"{name:<16} {precision:<6} {target:<20}"
                    if not ok_a and not ok_b:
                        print(f"{label} both refuse ({' '.join(err_b)})")
                        continue
                    if ok_a != ok_b:
                        bad += 1
                        print(f"{label} only the {'old' if ok_a else 'new'} build compiles it "
                              f"({' '.join(err_a or err_b)})")
                        continue
                    with open(a, "rb") as fa, open(b, "rb") as fb:
                        da, db = fa.read(), fb.read()
                    if da == db:
                        print(f"{label} identical ({len(da)} bytes)")
                        continue
                    bad += 1
                    first = next((i for i, (x, y) in enumerate(zip(da, db)) if x != y),
                                 min(len(da), len(db)))
                    print(f"{label} differs at byte {first} ({len(da)} -> {len(db)} bytes)")
    print(f"{total - bad} of {total} identical or refused by both")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
