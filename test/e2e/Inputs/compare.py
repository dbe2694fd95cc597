"""Compares an output .npy with a reference .npy.

Usage: compare.py OUTPUT REFERENCE [--rtol R] [--atol A] [--cosine C] [--max-rel R]
Passes when |out - ref| <= atol + rtol * |ref| everywhere (numpy.allclose); prints the maximum
absolute and relative errors either way, and exits 1 on a mismatch or a shape/dtype difference.
With --cosine (reduced precision), passes instead when the output has no NaN/Inf and its cosine
similarity to the reference is at least C; the max error relative to max |reference| is printed.
With --max-rel (an accuracy budget), passes when the output has no NaN/Inf and
max |out - ref| / max |ref| <= R.
"""
import argparse
import sys

import numpy as np

parser = argparse.ArgumentParser()
parser.add_argument("output")
parser.add_argument("reference")
parser.add_argument("--rtol", type=float, default=1e-4)
parser.add_argument("--atol", type=float, default=1e-5)
parser.add_argument("--cosine", type=float)
parser.add_argument("--max-rel", type=float)
args = parser.parse_args()

out, ref = np.load(args.output), np.load(args.reference)
if out.shape != ref.shape or out.dtype != ref.dtype:
    print(f"mismatch: output {out.dtype}{list(out.shape)} vs reference {ref.dtype}{list(ref.shape)}")
    sys.exit(1)
if out.size == 0:  # an empty result (a data-dependent shape with nothing found) has no error
    print(f"match: empty {out.dtype}{list(out.shape)}")
    sys.exit(0)
diff = np.abs(out.astype(np.float64) - ref.astype(np.float64))
if args.max_rel is not None:
    finite = bool(np.isfinite(out.astype(np.float64)).all())
    rel = float(diff.max() / np.abs(ref.astype(np.float64)).max()) if finite else float("inf")
    ok = rel <= args.max_rel
    print(f"{'match' if ok else 'MISMATCH'}: max err / max|ref| {rel:.3e} (<= {args.max_rel})")
    sys.exit(0 if ok else 1)
if args.cosine is not None:
    o, r = out.astype(np.float64).ravel(), ref.astype(np.float64).ravel()
    finite = bool(np.isfinite(o).all())
    cos = float(o @ r / (np.linalg.norm(o) * np.linalg.norm(r))) if finite else float("nan")
    ok = finite and cos >= args.cosine
    print(f"{'match' if ok else 'MISMATCH'}: cosine {cos:.6f} (>= {args.cosine}), max err / max|ref| "
          f"{diff.max() / np.abs(ref).max():.3e}, {'finite' if finite else 'NaN/Inf in output'}")
    sys.exit(0 if ok else 1)
rel = diff / np.maximum(np.abs(ref.astype(np.float64)), 1e-12)
ok = np.allclose(out, ref, rtol=args.rtol, atol=args.atol)
# Zero tolerances ask for equality; allclose compares in float64, where 64-bit integers past 2^53
# that differ can round to the same value.
if args.rtol == 0 and args.atol == 0:
    ok = ok and np.array_equal(out, ref)
print(f"{'match' if ok else 'MISMATCH'}: max abs err {diff.max():.3e}, max rel err {rel.max():.3e} "
      f"(rtol {args.rtol}, atol {args.atol}, {out.size} values)")
sys.exit(0 if ok else 1)
