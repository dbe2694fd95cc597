"""Compares an output .npy with a reference .npy.

Usage: compare.py OUTPUT REFERENCE [--rtol R] [--atol A]
Passes when |out - ref| <= atol + rtol * |ref| everywhere (numpy.allclose); prints the maximum
absolute and relative errors either way, and exits 1 on a mismatch or a shape/dtype difference.
"""
import argparse
import sys

import numpy as np

parser = argparse.ArgumentParser()
parser.add_argument("output")
parser.add_argument("reference")
parser.add_argument("--rtol", type=float, default=1e-4)
parser.add_argument("--atol", type=float, default=1e-5)
args = parser.parse_args()

out, ref = np.load(args.output), np.load(args.reference)
if out.shape != ref.shape or out.dtype != ref.dtype:
    print(f"mismatch: output {out.dtype}{list(out.shape)} vs reference {ref.dtype}{list(ref.shape)}")
    sys.exit(1)
diff = np.abs(out.astype(np.float64) - ref.astype(np.float64))
rel = diff / np.maximum(np.abs(ref.astype(np.float64)), 1e-12)
ok = np.allclose(out, ref, rtol=args.rtol, atol=args.atol)
# Zero tolerances ask for equality; allclose compares in float64, where 64-bit integers past 2^53
# that differ can round to the same value.
if args.rtol == 0 and args.atol == 0:
    ok = ok and np.array_equal(out, ref)
print(f"{'match' if ok else 'MISMATCH'}: max abs err {diff.max():.3e}, max rel err {rel.max():.3e} "
      f"(rtol {args.rtol}, atol {args.atol}, {out.size} values)")
sys.exit(0 if ok else 1)
