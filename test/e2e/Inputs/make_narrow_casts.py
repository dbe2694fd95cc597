#!/usr/bin/env python3
"""Conversions to and from the 8-bit and 4-bit floats and the 4-bit and 2-bit integers, checked bit
for bit against ONNX's reference implementation (onnx.reference, the spec: ml_dtypes' round to
nearest even, saturate_cast, numpy_helper.to_float8e8m0).

  make_narrow_casts.py make DIR    writes DIR/model.onnx, its inputs (x.npy: f32 values around every
                                   representable value, every midpoint and the overflow thresholds;
                                   xi_<int type>.npy: those within the int type's range; one .npy
                                   per narrow type with all its codes, as ml_dtypes saves them),
                                   the reference outputs DIR/expected_<name>.npy and DIR/args.txt
                                   (mie-run's --input and --output options)
  make_narrow_casts.py check DIR   compares DIR/<name>.npy (what mie-run wrote) with them: the same
                                   bits (-0 is not 0; any NaN for a NaN)
"""

import json
import os
import sys

import ml_dtypes
import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper
from onnx.reference import ReferenceEvaluator

FLOATS = {  # ONNX type -> ml_dtypes type, name used in files
    T.FLOAT8E4M3FN: (ml_dtypes.float8_e4m3fn, "e4m3fn"),
    T.FLOAT8E4M3FNUZ: (ml_dtypes.float8_e4m3fnuz, "e4m3fnuz"),
    T.FLOAT8E5M2: (ml_dtypes.float8_e5m2, "e5m2"),
    T.FLOAT8E5M2FNUZ: (ml_dtypes.float8_e5m2fnuz, "e5m2fnuz"),
    T.FLOAT8E8M0: (ml_dtypes.float8_e8m0fnu, "e8m0"),
    T.FLOAT4E2M1: (ml_dtypes.float4_e2m1fn, "e2m1"),
}
INTS = {
    T.INT4: (ml_dtypes.int4, "i4", 4),
    T.UINT4: (ml_dtypes.uint4, "u4", 4),
    T.INT2: (ml_dtypes.int2, "i2", 2),
    T.UINT2: (ml_dtypes.uint2, "u2", 2),
}


def all_codes(dtype, bits=8):
    return np.arange(1 << bits, dtype=np.uint8).view(dtype)


def probe_values():
    """f32 values where a conversion can go wrong: each representable value of each float type,
    the midpoints between neighbours and one f32 ulp either side, past the largest value,
    denormals of f32 and of the targets, zeros, infinities, NaN; integers for the int types."""
    vals = [0.0, -0.0, np.inf, -np.inf, np.nan, 1e-45, -1e-45, 1e-38, 3e38, -3e38, 1e9, -1e9]
    for dtype, _ in FLOATS.values():
        bits = 4 if dtype == ml_dtypes.float4_e2m1fn else 8
        v = all_codes(dtype, bits).astype(np.float32)
        v = np.unique(v[np.isfinite(v)])
        mids = (v[:-1].astype(np.float64) + v[1:]) / 2
        vals += list(v) + list(mids)
        top = float(v[-1])
        vals += [top * 1.0625, top * 1.125, top * 1.25, top * 2, top * 1.0001]
    vals += list(np.arange(-20, 21, 0.5))
    x = np.array(vals, dtype=np.float32)
    ulp_up = np.nextafter(x, np.float32(np.inf))
    ulp_down = np.nextafter(x, np.float32(-np.inf))
    x = np.concatenate([x, ulp_up, ulp_down, -x])
    return np.unique(x.view(np.uint32)).view(np.float32)  # keeps NaN, -0 and 0 apart


def build(directory):
    os.makedirs(directory, exist_ok=True)
    x = probe_values()
    n = x.size
    inputs = [helper.make_tensor_value_info("x", T.FLOAT, [n])]
    outputs, nodes, feeds = [], [], {"x": x}
    # f32 -> each float type, saturating and not; E8M0 in each rounding mode.
    for to, (dtype, name) in FLOATS.items():
        modes = ["up", "down", "nearest"] if to == T.FLOAT8E8M0 else [None]
        for saturate in (1, 0):
            for mode in modes:
                out = "%s_sat%d%s" % (name, saturate, "_" + mode if mode else "")
                attrs = {"to": to, "saturate": saturate}
                if mode:
                    attrs["round_mode"] = mode
                nodes.append(helper.make_node("Cast", ["x"], [out], **attrs))
                outputs.append(helper.make_tensor_value_info(out, to, [n]))
    # f32 -> the int types: truncation toward zero, within each type's range. (Past it ONNX leaves
    # the result undefined: the reference gives 0, ONNX's stored Cast test data the wrapped value,
    # which is what mie computes.)
    for to, (dtype, name, _) in INTS.items():
        info = ml_dtypes.iinfo(dtype)
        xi = x[np.isfinite(x) & (x > int(info.min) - 1) & (x < int(info.max) + 1)]
        feeds["xi_" + name] = xi
        inputs.append(helper.make_tensor_value_info("xi_" + name, T.FLOAT, [xi.size]))
        nodes.append(helper.make_node("Cast", ["xi_" + name], ["to_" + name], to=to))
        outputs.append(helper.make_tensor_value_info("to_" + name, to, [xi.size]))
    # Every code of each type -> f32 (and the int types -> int8 as well).
    for to, (dtype, name) in list(FLOATS.items()) + [(k, v[:2]) for k, v in INTS.items()]:
        bits = INTS[to][2] if to in INTS else (4 if to == T.FLOAT4E2M1 else 8)
        codes = all_codes(dtype, bits)
        feeds["codes_" + name] = codes
        inputs.append(helper.make_tensor_value_info("codes_" + name, to, [codes.size]))
        nodes.append(helper.make_node("Cast", ["codes_" + name], ["from_" + name], to=T.FLOAT))
        outputs.append(helper.make_tensor_value_info("from_" + name, T.FLOAT, [codes.size]))
    model = helper.make_model(helper.make_graph(nodes, "narrow_casts", inputs, outputs),
                              opset_imports=[helper.make_opsetid("", 25)])
    model.ir_version = 11
    onnx.save(model, os.path.join(directory, "model.onnx"))
    results = ReferenceEvaluator(model).run(None, feeds)
    # .npy keeps no ml_dtypes type (they save as '<V1', float8_e5m2 as '<f1', which numpy cannot
    # load back): the references are saved as their bytes, their types beside them.
    types = {}
    for o, r in zip(outputs, results):
        np.save(os.path.join(directory, "expected_%s.npy" % o.name),
                r.view(np.uint8) if r.dtype.itemsize == 1 else r)
        types[o.name] = r.dtype.name
    with open(os.path.join(directory, "types.json"), "w") as f:
        json.dump(types, f)
    for k, v in feeds.items():
        np.save(os.path.join(directory, "%s.npy" % k), v)
    with open(os.path.join(directory, "args.txt"), "w") as f:
        f.write(" ".join(["--input %s=%s/%s.npy" % (k, directory, k) for k in feeds] +
                         ["--output %s=%s/%s.npy" % (o.name, directory, o.name) for o in outputs]))


def check(directory):
    failures = 0
    with open(os.path.join(directory, "types.json")) as f:
        types = json.load(f)
    names = sorted(types)
    for name in names:
        dtype = np.dtype(getattr(ml_dtypes, types[name], None) or types[name])
        ref = np.load(os.path.join(directory, "expected_%s.npy" % name)).view(dtype)
        got = np.load(os.path.join(directory, "%s.npy" % name))
        if got.dtype.kind == "V":
            got = got.view(dtype)
        if got.dtype != dtype:
            failures += 1
            print("%s: dtype %s, expected %s" % (name, got.dtype, dtype))
            continue
        refbits = ref.view(np.uint8) if ref.dtype.itemsize == 1 else ref.view(np.uint32)
        gotbits = got.view(np.uint8) if got.dtype.itemsize == 1 else got.view(np.uint32)
        if "float" in dtype.name and dtype.itemsize == 1:
            rnan = np.isnan(ref.astype(np.float32))
            gnan = np.isnan(got.astype(np.float32))
        elif ref.dtype == np.float32:
            rnan, gnan = np.isnan(ref), np.isnan(got)
        else:
            rnan = gnan = np.zeros(ref.shape, bool)
        bad = (rnan != gnan) | (~rnan & (refbits != gotbits))
        if ref.shape != got.shape or bad.any():
            failures += 1
            i = np.flatnonzero(bad)[:5]
            print("%s: %d of %d differ; first at %s: got %s, expected %s" % (
                name, int(bad.sum()), ref.size, list(i), list(gotbits[i]), list(refbits[i])))
    print("%d outputs checked, %d differ" % (len(names), failures))
    return 1 if failures else 0


if __name__ == "__main__":
    # Overflowing probes (2 * the largest E8M0 value is inf in f32) and the reference's NaN casts.
    np.seterr(all="ignore")
    if sys.argv[1] == "make":
        build(sys.argv[2])
    else:
        sys.exit(check(sys.argv[2]))
