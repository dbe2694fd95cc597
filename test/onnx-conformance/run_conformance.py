#!/usr/bin/env python3
"""ONNX backend node-test conformance runner for mie.

Each case directory (test_*/model.onnx + test_data_set_N/{input_K.pb,output_K.pb}) is taken through
`mie-compile` (ONNX import, compilation, packaging) and `mie-run` on every data set, and the outputs are
compared with output_K.pb using ONNX's backend tolerances (rtol 1e-3, atol 1e-7; exact for integer and
bool outputs; NaN positions must match; dtype and shape must match).

Classes:
  pass         every data set of the case matches
  fail         wrong numbers, wrong shape/dtype, crash, run error, timeout, or a compile error that is
               not a declared limitation of the importer
  unsupported  the importer reports `unsupported ONNX op` (or --list-unsupported is non-empty, or the
               model uses only a non-default domain such as ai.onnx.ml), a declared dtype limitation
               (`unsupported element type`, `cast to X is not supported`, sequence/map/optional values),
               a model opset the importer refuses, a shape-determining input given as a graph input
               (`unsupported dynamic input 'axes' of ReduceSum at node 'X'`: reason dynamic-input), or
               a declared limitation of an imported op (`unsupported feature of MaxPool at node 'X'`:
               reason limitation), or test data that contradicts the model (an input whose shape is
               not the model's fully static declared shape: reason invalid-data; no runtime can run
               such a case; or expected outputs computed with attributes the model does not
               declare: REFERENCE_CONTRADICTS_MODEL)

See README.md in this directory.
"""

import argparse
import collections
import concurrent.futures
import datetime
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np
import onnx
from onnx import numpy_helper

RTOL = 1e-3
ATOL = 1e-7

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
DEBIAN_DATA = "/usr/share/libonnx-testdata/data/node"

# Compile errors that are declared limitations of the importer, not bugs: (regex, reason). They
# are checked before the --list-unsupported fallback. Anything else that stops compilation (e.g.
# "no lowering to mie", a verifier error) is a failure; wrong numbers and crashes always are.
UNSUPPORTED_PATTERNS = [
    (re.compile(r"unsupported ONNX op '([^']*)'"), "op"),
    (re.compile(r"does not import the default ONNX domain"), "op"),  # ai.onnx.ml, preview.training
    (re.compile(r"unsupported element type"), "dtype"),
    (re.compile(r"cast to .+ is not supported"), "dtype"),
    (re.compile(r"sequence, map and optional values are not supported"), "dtype"),
    (re.compile(r"model opset -?[0-9]+ is not supported"), "opset"),  # opsets 1 and later import
    # A shape-determining input (axes, pads, shape, repeats, ...) given as a graph input.
    (re.compile(r"unsupported dynamic input '[^']*' of \S+ at node"), "dynamic-input"),
    # A declared limitation of an imported op (training mode, 3-D pooling, pooling indices, ...).
    (re.compile(r"unsupported feature of \S+ at node"), "limitation"),
]



# Cases whose expected outputs were computed with other attributes than their model declares
# (checked by recomputing the reference formula both ways); reason invalid-data.
REFERENCE_CONTRADICTS_MODEL = {
    "test_adam_multiple": "expected outputs use epsilon = 1e-2 (ONNX's adam.py), the model's Adam "
                          "node has no epsilon attribute (spec default 1e-6)",
}


def wheel_data_dir():
    try:
        d = os.path.join(os.path.dirname(onnx.__file__), "backend", "test", "data", "node")
    except Exception:  # pragma: no cover
        return None
    return d if os.path.isdir(d) else None


def default_data_dirs():
    dirs = []
    if os.path.isdir(DEBIAN_DATA):
        dirs.append(DEBIAN_DATA)
    w = wheel_data_dir()
    if w:
        dirs.append(w)
    return dirs


def find_cases(data_dirs):
    """name -> directory; the first data dir that has a case name wins (Debian's, then the wheel's)."""
    cases = collections.OrderedDict()
    for d in data_dirs:
        for path in sorted(glob.glob(os.path.join(d, "test_*"))):
            name = os.path.basename(path)
            if name in cases or not os.path.isfile(os.path.join(path, "model.onnx")):
                continue
            cases[name] = path
    return cases


_SCHEMA_KEYS = None


def schema_keys():
    """(normalized name, op type) of every ONNX op, longest first, for matching case names."""
    global _SCHEMA_KEYS
    if _SCHEMA_KEYS is None:
        names = set()
        try:
            for s in onnx.defs.get_all_schemas_with_history():
                if s.domain in ("", "ai.onnx"):
                    names.add(s.name)
        except Exception:
            pass
        _SCHEMA_KEYS = sorted(((n.lower(), n) for n in names), key=lambda k: -len(k[0]))
    return _SCHEMA_KEYS


def main_op(name, model):
    """The case's main op: the model's node types minus Constant; for multi-op graphs (the *_expanded
    function bodies, small composites) the ONNX op whose name the case name starts with."""
    types = []
    for n in model.graph.node:
        if n.op_type != "Constant" and n.op_type not in types:
            types.append(n.op_type)
    expanded = "_expanded" in name
    if len(types) == 1 and not expanded:
        return types[0]
    flat = name[len("test_"):].replace("_", "").lower()
    op = None
    candidates = [(t.lower(), t) for t in types] + schema_keys()
    for key, t in sorted(candidates, key=lambda k: -len(k[0])):
        if flat.startswith(key):
            op = t
            break
    if op is None:
        op = types[0] if types else (model.graph.node[0].op_type if model.graph.node else "?")
    return op + (" (expanded)" if expanded else "")


def load_proto_tensor(path):
    t = onnx.TensorProto()
    with open(path, "rb") as f:
        t.ParseFromString(f.read())
    return numpy_helper.to_array(t)


def data_contradicts_model(model, path):
    """The first test-data input whose shape contradicts the model's fully static declared shape, as
    a message, or None. (A few of Debian's older cases have such data; no runtime can run them.)"""
    inputs = [i for i in model.graph.input
              if i.name not in {t.name for t in model.graph.initializer}]
    for ds in sorted(glob.glob(os.path.join(path, "test_data_set_*"))):
        for k, graph_input in enumerate(inputs):
            pb = os.path.join(ds, "input_%d.pb" % k)
            if not os.path.isfile(pb) or not graph_input.type.HasField("tensor_type"):
                continue
            dims = graph_input.type.tensor_type.shape.dim
            if not graph_input.type.tensor_type.HasField("shape") or \
                    any(not d.HasField("dim_value") for d in dims):
                continue
            t = onnx.TensorProto()
            with open(pb, "rb") as f:
                t.ParseFromString(f.read())
            declared, given = [d.dim_value for d in dims], list(t.dims)
            if declared != given:
                return "%s: input '%s' has shape %s, the model declares %s" % (
                    os.path.basename(ds), graph_input.name, given, declared)
    return None


def qlinearmatmul_saturated(inputs):
    """QLinearMatMul as its spec says (and onnxruntime computes): saturate(rint(acc * a_scale *
    b_scale / y_scale + y_zero_point)). ONNX's reference implementation before onnx/onnx#7868
    (issue #7835) cast without saturating, so the data of the int8 cases generated with it holds
    wrapped values (-236 stored as 20)."""
    a, a_scale, a_zp, b, b_scale, b_zp, y_scale, y_zp = inputs
    acc = np.matmul(a.astype(np.int32) - a_zp.astype(np.int32),
                    b.astype(np.int32) - b_zp.astype(np.int32))
    d = np.rint(acc * (a_scale * b_scale / y_scale) + y_zp)
    info = np.iinfo(y_zp.dtype)
    return [np.clip(d, info.min, info.max).astype(y_zp.dtype)]


def dft_inverse_axis1_float64(inputs):
    """DFT(inverse=1, axis=1) of [..., 2] data computed in float64, as ONNX's reference does with
    numpy 1.x. The stored output of test_dft_inverse_opset19 came from numpy 2's single-precision
    FFT (complex64 stays complex64 there): its near-zero imaginary parts carry rounding noise of up
    to 1.9e-6 that the absolute tolerance (1e-7) cannot take; the exact transform misses it on 10
    values, onnxruntime on 20."""
    x = inputs[0]
    signal = x[..., 0].astype(np.float64) + 1j * x[..., 1].astype(np.float64)
    y = np.fft.ifft(signal, axis=1)
    return [np.stack([y.real, y.imag], axis=-1).astype(x.dtype)]


# Cases whose stored outputs contradict the ONNX spec (a since-fixed bug of the generator) or are
# rounded past the backend tolerance (a single-precision FFT): their outputs are computed from the
# data set's inputs by the spec's formula instead, and the case passes only when it matches those
# (exactly for integers, within the usual tolerance for floats).
CORRECTED_REFERENCES = {
    re.compile(r"^test_qlinearmatmul_\dD_int8_float(16|32)$"): qlinearmatmul_saturated,
    re.compile(r"^test_dft_inverse_opset19$"): dft_inverse_axis1_float64,
}


def bernoulli_property(inputs, outputs):
    """Bernoulli(p): every output 0 or 1; 1 where p is 1 and 0 where p is 0."""
    p, y = inputs[0], outputs[0]
    if not np.all((y == 0) | (y == 1)):
        return "values other than 0 and 1"
    if np.any(y[p == 1] != 1) or np.any(y[p == 0] != 0):
        return "a certain outcome (p = 0 or 1) was not drawn"
    return None


def training_dropout_property(inputs, outputs):
    """Dropout in training mode: each output element is 0 or x / (1 - ratio), all of them kept at
    ratio 0; the mask, when asked for, is true exactly where the element was kept."""
    x = inputs[0].astype(np.float64)
    ratio = float(inputs[1]) if len(inputs) > 1 else 0.5
    y = outputs[0].astype(np.float64)
    scaled = x / (1.0 - ratio)
    kept = np.abs(y - scaled) <= ATOL + RTOL * np.abs(scaled)
    if not np.all(kept | (y == 0)):
        return "values other than 0 and x / (1 - ratio)"
    if ratio == 0 and not np.all(kept):
        return "ratio 0 dropped elements"
    if len(outputs) > 1:
        # Where x is 0 a kept and a dropped element look alike: the mask is checked elsewhere.
        mask, nonzero = outputs[1], scaled != 0
        if mask.dtype != np.bool_ or not np.array_equal(mask[nonzero], kept[nonzero]):
            return "the mask does not say which elements were kept"
    return None


# Cases whose outputs are random (ONNX's data holds one draw of numpy's generator, which no other
# implementation reproduces): their dtype and shape are compared as usual, their values checked for
# the properties every draw has (docs/random.md tests the distributions).
RANDOM_OUTPUTS = {
    re.compile(r"^test_bernoulli"): bernoulli_property,
    re.compile(r"^test_training_dropout"): training_dropout_property,
}


def random_property(name):
    for pat, fn in RANDOM_OUTPUTS.items():
        if pat.search(name):
            return fn
    return None


def data_set_inputs(ds):
    return [load_proto_tensor(p) for p in
            sorted(glob.glob(os.path.join(ds, "input_*.pb")),
                   key=lambda p: int(re.search(r"input_(\d+)", p).group(1)))]


def corrected_reference(name, ds, k):
    """The spec's output `k` of data set `ds` where CORRECTED_REFERENCES lists the case; else None."""
    for pat, fn in CORRECTED_REFERENCES.items():
        if pat.search(name):
            return fn(data_set_inputs(ds))[k]
    return None


def bf16_input_file(pb_path, graph_type, work, tag):
    """The input file to give mie-run: ONNX's older test generator stored bfloat16 tensors as UINT16
    (the same bit patterns); such a file is rewritten as BFLOAT16 when the graph input is bfloat16."""
    if graph_type != onnx.TensorProto.BFLOAT16:
        return pb_path
    t = onnx.TensorProto()
    with open(pb_path, "rb") as f:
        t.ParseFromString(f.read())
    if t.data_type != onnx.TensorProto.UINT16:
        return pb_path
    bits = numpy_helper.to_array(t).astype(np.uint16)
    fixed = onnx.TensorProto()
    fixed.CopyFrom(t)
    fixed.data_type = onnx.TensorProto.BFLOAT16
    fixed.ClearField("int32_data")
    fixed.raw_data = bits.astype("<u2").tobytes()
    out = os.path.join(work, "%s.pb" % tag)
    with open(out, "wb") as f:
        f.write(fixed.SerializeToString())
    return out


def bf16_as_float32(a):
    """bfloat16 values (mie-run's 2-byte void dtype, ml_dtypes' bfloat16, or the uint16 bit
    patterns of older test data) as float32."""
    bits = np.ascontiguousarray(a).view(np.uint16).astype(np.uint32) << 16
    return bits.view(np.float32)


# ml_dtypes' 8-bit and 4-bit floats and 4-bit and 2-bit integers (numpy_helper.to_array's dtypes for
# ONNX FLOAT8*, FLOAT4E2M1, INT4, UINT4, INT2, UINT2): one byte per element, saved by mie-run as '|V1'.
NARROW_FLOATS = {"float8_e4m3fn", "float8_e4m3fnuz", "float8_e5m2", "float8_e5m2fnuz",
                 "float8_e8m0fnu", "float4_e2m1fn"}
NARROW_INTS = {"int4", "uint4", "int2", "uint2"}


def as_narrow(got, ref):
    """mie-run's '|V1' output typed as the reference's narrow dtype (the bytes are the same
    encoding: the value's bits, low bits first, zero above); other outputs unchanged."""
    if got.dtype.kind == "V" and got.dtype.itemsize == 1 and \
            ref.dtype.name in NARROW_FLOATS | NARROW_INTS:
        return got.view(ref.dtype)
    return got


def compare_narrow(ref, out):
    """Exact comparison of narrow values: the same bits (so -0 is not 0), any NaN for a NaN."""
    if ref.dtype.name in NARROW_INTS:
        r, o = ref.astype(np.int8), out.astype(np.int8)
        if not np.array_equal(r, o):
            return "%d of %d values differ (exact)" % (int((r != o).sum()), ref.size)
        return None
    rn, on = np.isnan(ref.astype(np.float32)), np.isnan(out.astype(np.float32))
    if not np.array_equal(rn, on):
        return "NaN positions differ (%d expected, %d got)" % (int(rn.sum()), int(on.sum()))
    rb, ob = ref.view(np.uint8)[~rn], out.view(np.uint8)[~rn]
    bad = rb != ob
    if bad.any():
        i = int(np.argmax(bad))
        return "%d of %d values differ (exact bits: got 0x%02x, expected 0x%02x)" % (
            int(bad.sum()), ref.size, int(ob[i]), int(rb[i]))
    return None


def compare(ref, out, rtol=None):
    """None if `out` matches `ref` under ONNX's backend rules, else a short reason."""
    rtol = RTOL if rtol is None else rtol
    if ref.dtype == out.dtype and ref.dtype.name in NARROW_FLOATS | NARROW_INTS:
        if ref.shape != out.shape:
            return "shape %s, expected %s" % (list(out.shape), list(ref.shape))
        return compare_narrow(ref, out)
    if ref.dtype != out.dtype:
        # mie-run writes bool as numpy bool; accept only identical dtypes otherwise.
        return "dtype %s, expected %s" % (out.dtype, ref.dtype)
    if ref.shape != out.shape:
        return "shape %s, expected %s" % (list(out.shape), list(ref.shape))
    if ref.dtype.kind in "fc":
        r = ref.astype(np.float64)
        o = out.astype(np.float64)
        rn, on = np.isnan(r), np.isnan(o)
        if not np.array_equal(rn, on):
            return "NaN positions differ (%d expected, %d got)" % (int(rn.sum()), int(on.sum()))
        mask = ~rn
        r, o = r[mask], o[mask]
        inf = np.isinf(r) | np.isinf(o)
        if not np.array_equal(r[inf], o[inf]):
            return "inf values differ"
        r, o = r[~inf], o[~inf]
        err = np.abs(o - r)
        bad = err > ATOL + rtol * np.abs(r)
        if bad.any():
            i = int(np.argmax(err - (ATOL + rtol * np.abs(r))))
            return "%d of %d values differ (max abs err %.3g: got %.6g, expected %.6g)" % (
                int(bad.sum()), r.size, float(err.max()), float(o[i]), float(r[i]))
        return None
    if not np.array_equal(ref, out):
        return "%d of %d values differ (exact)" % (int((ref != out).sum()), ref.size)
    return None


def first_line(text, limit=300):
    for line in text.splitlines():
        line = line.strip()
        if line:
            return line[:limit]
    return ""


def error_line(text, limit=300):
    """The most telling line of a tool's stderr: the first 'error:' line, else the first line."""
    for line in text.splitlines():
        if "error" in line.lower():
            return line.strip()[:limit]
    return first_line(text, limit)


def run_tool(cmd, timeout):
    # A tool that is missing for a moment (being relinked by a rebuild) is retried for up to a minute.
    for _ in range(30):
        if os.path.exists(cmd[0]):
            break
        time.sleep(2)
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
        return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        return None, "", ""


DYNAMIC_INPUT = re.compile(r"unsupported dynamic input '([^']*)' of (\S+) at node '([^']*)'")
# A value symbol (an input's element sizing tensors) that nothing gives a value (compile), or whose
# value the package refuses (run): binding the input compiles for the data set's values.
VALUE_UNSIZED = re.compile(r"element \d+ of input '([^']*)', whose values size the model's "
                           r"tensors\) has no value")
VALUE_REFUSED = re.compile(r"input '([^']*)' (?:element \d+ )?\(symbol '[^']*'\): ")
COMES_FROM = re.compile(r"it comes from the graph inputs? ((?:'[^']*'(?:, )?)+)")


def bound_inputs_for(model, text, graph_inputs):
    """The graph inputs to bind for a `unsupported dynamic input 'what' of Op at node 'N'` report:
    those the report says the operand comes from; without that list (older compilers), the node's
    operand named `what` in the op's schema when that operand is a graph input, else the
    integer graph inputs it is computed from (a shape tensor through Shape/Slice/Concat
    arithmetic); [] when there is no such report or nothing to bind."""
    unsized = VALUE_UNSIZED.findall(text)
    if unsized:
        return sorted({i for i in unsized if i in graph_inputs})
    m = DYNAMIC_INPUT.search(text)
    if not m:
        return []
    # The compiler names the graph inputs the operand comes from (through any ops and subgraphs).
    named = COMES_FROM.search(text[m.end():].split("\n", 1)[0])
    if named:
        found = [i for i in re.findall(r"'([^']*)'", named.group(1)) if i in graph_inputs]
        if found:
            return sorted(found)
    what, op_type, node_name = m.groups()
    opset = next((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), 0)
    try:
        names = [i.name for i in onnx.defs.get_schema(op_type, opset).inputs]
    except Exception:
        return []
    # The importer's name for an operand may differ from the schema's (ConstantOfShape's 'input'
    # is its 'shape'): then every integer operand of the node that is a graph input.
    index = names.index(what) if what in names else None
    producer = {o: nd for nd in model.graph.node for o in nd.output}
    integer = {i.name for i in model.graph.input
               if i.type.tensor_type.elem_type in (onnx.TensorProto.INT64, onnx.TensorProto.INT32)}
    for node in model.graph.node:
        if node.op_type != op_type or (node.name and node.name != node_name):
            continue
        if index is None:
            found = sorted({i for i in node.input if i in graph_inputs and i in integer})
            if found:
                return found
            continue
        if index >= len(node.input) or not node.input[index]:
            continue
        operand = node.input[index]
        if operand in graph_inputs:
            return [operand]
        found, todo, seen = [], [operand], set()
        while todo:
            v = todo.pop()
            if v in seen:
                continue
            seen.add(v)
            if v in graph_inputs and v in integer:
                found.append(v)
            elif v in producer:
                todo.extend(i for i in producer[v].input if i)
        if found:
            return sorted(found)
    return []


def run_case(name, path, tools, compile_timeout, run_timeout, keep_dir=None, compile_args=(), bind=True):
    """Returns dict(name, op, status, reason, detail, seconds)."""
    t0 = time.time()
    res = {"name": name, "op": "?", "status": "fail", "reason": "", "detail": ""}
    model_path = os.path.join(path, "model.onnx")
    try:
        model = onnx.load(model_path)
        res["op"] = main_op(name, model)
    except Exception as e:
        res.update(reason="model unreadable", detail=str(e)[:300])
        res["seconds"] = time.time() - t0
        return res

    mismatch = data_contradicts_model(model, path) or REFERENCE_CONTRADICTS_MODEL.get(name)
    if mismatch:
        res.update(status="unsupported", reason="invalid-data", detail=mismatch)
        res["seconds"] = time.time() - t0
        return res

    init_names = {i.name for i in model.graph.initializer}
    graph_inputs = [i for i in model.graph.input if i.name not in init_names]
    in_names = [i.name for i in graph_inputs]
    sets = sorted(glob.glob(os.path.join(path, "test_data_set_*")))
    # Shape-determining operands (a Resize's sizes, a Pad's pads) given as graph inputs are bound
    # to the data set's values at compile time (`mie-compile --input-value`), as a user of such a
    # model would; each such input the compiler reports is bound and the compile retried.
    bound = []

    def compile_for(ds, pkg):
        args = []
        for b in bound:
            args.append("--input-value=%s=%s" % (b, os.path.join(ds, "input_%d.pb" % in_names.index(b))))
        return run_tool([os.path.join(tools, "mie-compile"), model_path, "-o", pkg, *args,
                         *compile_args], compile_timeout)

    work = tempfile.mkdtemp(prefix="mie-conf-%s-" % name)
    try:
        pkg = os.path.join(work, "model.mie")
        while True:
            rc, out, err = compile_for(sets[0] if sets else path, pkg)
            if rc is None or rc == 0 or not sets or not bind:
                break
            more = [b for b in bound_inputs_for(model, err + out, set(in_names)) if b not in bound]
            if not more:
                break
            bound.extend(more)
        if rc is None:
            res.update(reason="compile timeout", detail="mie-compile ran over %ds" % compile_timeout)
            return res
        if rc != 0 or not os.path.isfile(pkg):
            text = err + out
            # A crash is a failure whatever was printed before it.
            if rc is not None and rc < 0:
                res.update(reason="compile crash", detail="mie-compile killed by signal %d: %s" % (
                    -rc, error_line(text)))
                return res
            for pat, why in UNSUPPORTED_PATTERNS:
                m = pat.search(text)
                if m:
                    res.update(status="unsupported", reason=why, detail=error_line(text))
                    return res
            # Ask the importer explicitly; a non-empty list means an unsupported op.
            lrc, lout, lerr = run_tool([os.path.join(tools, "mie-compile"), "--list-unsupported",
                                        model_path], compile_timeout)
            ltext = (lout + lerr).strip()
            if lrc is not None and "unsupported" in ltext:
                res.update(status="unsupported", reason="op", detail=first_line(ltext))
                return res
            line = error_line(text)
            if "no lowering to mie" in line:
                why = "compile: no lowering"
            elif re.search(r"not supported|only .* is supported", line):
                why = "compile: limitation"
            else:
                why = "compile error"
            res.update(reason=why, detail=line)
            return res

        in_types = [i.type.tensor_type.elem_type for i in graph_inputs]
        out_names = [o.name for o in model.graph.output]
        out_types = [o.type.tensor_type.elem_type for o in model.graph.output]
        if not sets:
            res.update(reason="no data sets")
            return res
        for ds in sets:
            ds_name = os.path.basename(ds)
            if bound and ds != sets[0]:  # each data set's bound values make their own package
                rc, out, err = compile_for(ds, pkg)
                if rc != 0:
                    res.update(reason="compile error", detail="%s: %s" % (ds_name, error_line(err + out)))
                    return res
            def run_set():
                n_in = len(glob.glob(os.path.join(ds, "input_*.pb")))
                cmd = [os.path.join(tools, "mie-run"), pkg, "--threads", "1"]
                for k in range(n_in):
                    if k >= len(in_names):
                        break
                    if in_names[k] in bound:
                        continue
                    pb = bf16_input_file(os.path.join(ds, "input_%d.pb" % k), in_types[k], work,
                                         "%s_in_%d" % (ds_name, k))
                    cmd += ["--input", "%s=%s" % (in_names[k], pb)]
                outs = []
                for k, oname in enumerate(out_names):
                    o = os.path.join(work, "%s_out_%d.npy" % (ds_name, k))
                    outs.append(o)
                    cmd += ["--output", "%s=%s" % (oname, o)]
                return run_tool(cmd, run_timeout) + (outs,)

            rc, out, err, outs = run_set()
            # The package refused the values of an input sizing its tensors: bind that input.
            refused = VALUE_REFUSED.search(err + out) if bind and rc is not None and rc > 0 else None
            if refused and refused.group(1) in in_names and refused.group(1) not in bound:
                bound.append(refused.group(1))
                rc, out, err = compile_for(ds, pkg)
                if rc != 0:
                    res.update(reason="compile error", detail="%s: %s" % (ds_name, error_line(err + out)))
                    return res
                rc, out, err, outs = run_set()
            if rc is None:
                res.update(reason="run timeout", detail="%s: mie-run ran over %ds" % (ds_name, run_timeout))
                return res
            if rc < 0:
                res.update(reason="run crash", detail="%s: mie-run killed by signal %d: %s" % (
                    ds_name, -rc, error_line(err + out)))
                return res
            if rc != 0:
                res.update(reason="run error", detail="%s: %s" % (ds_name, error_line(err + out)))
                return res
            property_check = random_property(name)
            random_outputs = []
            for k, o in enumerate(outs):
                ref_path = os.path.join(ds, "output_%d.pb" % k)
                if not os.path.isfile(ref_path):
                    continue
                try:
                    ref = load_proto_tensor(ref_path)
                    corrected = corrected_reference(name, ds, k)
                    if corrected is not None:
                        ref = corrected
                except Exception as e:
                    res.update(reason="reference unreadable", detail="%s output_%d: %s" % (ds_name, k, e))
                    return res
                try:
                    got = as_narrow(np.load(o), ref)
                except Exception as e:
                    res.update(reason="output unreadable", detail="%s output %s: %s" % (
                        ds_name, out_names[k], str(e)[:200]))
                    return res
                rtol = None
                if out_types[k] == onnx.TensorProto.BFLOAT16 and got.dtype.itemsize == 2 and \
                        ref.dtype.itemsize == 2:
                    # The older generator (UINT16-encoded references) rounded f32 -> bf16 toward
                    # zero where today's ONNX rounds to nearest even: allow one bf16 ulp there.
                    if ref.dtype == np.uint16:
                        rtol = 2.0 ** -7
                    ref, got = bf16_as_float32(ref), bf16_as_float32(got)
                if property_check:
                    # Random values: the same dtype and shape here, the properties below.
                    random_outputs.append(got)
                    why = None
                    if got.dtype != ref.dtype:
                        why = "dtype %s, expected %s" % (got.dtype, ref.dtype)
                    elif got.shape != ref.shape:
                        why = "shape %s, expected %s" % (list(got.shape), list(ref.shape))
                else:
                    why = compare(ref, got, rtol)
                if why:
                    res.update(reason="wrong output", detail="%s output %s: %s" % (
                        ds_name, out_names[k], why))
                    return res
            if property_check:
                why = property_check(data_set_inputs(ds), random_outputs)
                if why:
                    res.update(reason="wrong output", detail="%s (random outputs): %s" % (ds_name, why))
                    return res
                res["random"] = True
        res.update(status="pass", detail="inputs bound at compile time: " + ", ".join(bound)
                   if bound else "")
        res["bound"] = bool(bound)
        return res
    except Exception as e:
        res.update(reason="runner error", detail="%s: %s" % (type(e).__name__, str(e)[:300]))
        return res
    finally:
        if keep_dir:
            shutil.copytree(work, os.path.join(keep_dir, name), dirs_exist_ok=True)
        shutil.rmtree(work, ignore_errors=True)
        res["seconds"] = time.time() - t0


def write_table(path, results, header_note):
    per_op = collections.defaultdict(lambda: collections.Counter())
    for r in results:
        per_op[r["op"]][r["status"]] += 1
    lines = []
    if header_note:
        lines += [header_note, ""]
    lines += ["| op | pass | fail | unsupported |", "|---|---:|---:|---:|"]
    for op in sorted(per_op, key=lambda s: (s.endswith("(expanded)"), s.lower())):
        c = per_op[op]
        lines.append("| %s | %d | %d | %d |" % (op, c["pass"], c["fail"], c["unsupported"]))
    tot = collections.Counter(r["status"] for r in results)
    lines.append("| **total** | **%d** | **%d** | **%d** |" % (tot["pass"], tot["fail"], tot["unsupported"]))
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def main():
    global RTOL, ATOL
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", action="append", default=None,
                    help="directory of test_* case dirs (repeatable; default: Debian's libonnx-testdata "
                         "then the onnx wheel's backend/test/data/node); the first dir with a name wins")
    ap.add_argument("--tools", default=os.path.join(REPO, "build", "bin"),
                    help="directory with mie-compile and mie-run (default: build/bin)")
    ap.add_argument("-j", "--jobs", type=int, default=2, help="cases run in parallel (default 2)")
    ap.add_argument("--only", help="run only the case names listed in FILE (one a line, # comments)")
    ap.add_argument("--filter", help="run only cases whose name matches REGEX (re.search)")
    ap.add_argument("--table", help="write the per-op table (markdown) to FILE")
    ap.add_argument("--list-passing", help="write the sorted names of passing cases to FILE")
    ap.add_argument("--results", help="write one line per case (name, op, status, reason, detail) to FILE")
    ap.add_argument("--compile-timeout", type=int, default=120, help="seconds per mie-compile (default 120)")
    ap.add_argument("--run-timeout", type=int, default=60, help="seconds per mie-run (default 60)")
    ap.add_argument("--keep", help="copy each case's work dir (package, outputs) under DIR")
    ap.add_argument("-v", "--verbose", action="store_true", help="print every case, not only failures")
    ap.add_argument("--compile-arg", action="append", default=[],
                    help="an extra mie-compile argument (repeatable), e.g. --compile-arg=--precision=bf16")
    ap.add_argument("--no-bind", action="store_true",
                    help="never bind graph inputs with --input-value: shape-determining inputs stay run-time "
                         "inputs, as a user runs such a model")
    ap.add_argument("--skip", help="leave out the case names listed in FILE (one a line, # comments)")
    ap.add_argument("--rtol", type=float, help="relative tolerance for float outputs (default %g)" % RTOL)
    ap.add_argument("--atol", type=float, help="absolute tolerance for float outputs (default %g)" % ATOL)
    args = ap.parse_args()
    if args.rtol is not None:
        RTOL = args.rtol
    if args.atol is not None:
        ATOL = args.atol

    tools = os.path.abspath(args.tools)
    for t in ("mie-compile", "mie-run"):
        if not os.access(os.path.join(tools, t), os.X_OK):
            print("error: %s not found in %s" % (t, tools), file=sys.stderr)
            return 2

    data_dirs = args.data if args.data else default_data_dirs()
    cases = find_cases(data_dirs)
    names = list(cases)
    missing = []
    if args.only:
        wanted = []
        with open(args.only) as f:
            for line in f:
                line = line.split("#", 1)[0].strip()
                if line:
                    wanted.append(line)
        missing = [n for n in wanted if n not in cases]
        names = [n for n in wanted if n in cases]
    if args.skip:
        with open(args.skip) as f:
            skipped = {line.split("#", 1)[0].strip() for line in f} - {""}
        names = [n for n in names if n not in skipped]
        missing = [n for n in missing if n not in skipped]
    if args.filter:
        rx = re.compile(args.filter)
        names = [n for n in names if rx.search(n)]
        missing = [n for n in missing if rx.search(n)]
    if args.keep:
        os.makedirs(args.keep, exist_ok=True)

    print("mie ONNX conformance: %d cases from %s, tools %s, -j %d" % (
        len(names), ", ".join(data_dirs), tools, args.jobs), flush=True)
    t0 = time.time()
    results = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as ex:
        futs = [ex.submit(run_case, n, cases[n], tools, args.compile_timeout, args.run_timeout, args.keep,
                          args.compile_arg, not args.no_bind)
                for n in names]
        for fut in concurrent.futures.as_completed(futs):
            r = fut.result()
            results.append(r)
            if r["status"] == "fail":
                print("FAIL %s [%s] %s: %s" % (r["name"], r["op"], r["reason"], r["detail"]), flush=True)
            elif args.verbose:
                print("%s %s [%s] %s" % (r["status"].upper(), r["name"], r["op"], r["detail"]), flush=True)
    for n in missing:
        r = {"name": n, "op": "?", "status": "fail", "reason": "missing case",
             "detail": "not found in %s" % ", ".join(data_dirs), "seconds": 0.0}
        results.append(r)
        print("FAIL %s [?] missing case: %s" % (n, r["detail"]), flush=True)
    elapsed = time.time() - t0
    results.sort(key=lambda r: r["name"])
    if args.only:
        # Every listed case passed when the list was made: a case that is now reported
        # unsupported (a shape-determining input no longer taken at run time, say) regressed.
        for r in results:
            if r["status"] == "unsupported":
                r.update(status="fail", reason="listed, now unsupported (%s)" % r["reason"])
                print("FAIL %s [%s] %s: %s" % (r["name"], r["op"], r["reason"], r["detail"]), flush=True)

    tot = collections.Counter(r["status"] for r in results)
    ops = collections.defaultdict(collections.Counter)
    for r in results:
        ops[r["op"]][r["status"]] += 1
    real_ops = [o for o in ops if not o.endswith("(expanded)") and o != "?"]
    covered = sorted(o for o in real_ops if ops[o]["pass"])
    clean = sorted(o for o in covered if not ops[o]["fail"])

    if args.table:
        note = ("%s: %d cases, %d passed, %d failed, %d unsupported; %d ops with a passing case "
                "(%d without failures)" % (datetime.date.today().isoformat(), len(results), tot["pass"],
                                           tot["fail"], tot["unsupported"], len(covered), len(clean)))
        write_table(args.table, results, note)
    if args.list_passing:
        with open(args.list_passing, "w") as f:
            for r in results:
                if r["status"] == "pass":
                    f.write(r["name"] + "\n")
    if args.results:
        with open(args.results, "w") as f:
            for r in results:
                f.write("\t".join([r["name"], r["op"], r["status"], r["reason"],
                                   r["detail"].replace("\t", " ").replace("\n", " ")]) + "\n")

    print()
    reasons = collections.Counter((r["status"], r["reason"]) for r in results if r["status"] != "pass")
    for (status, reason), n in sorted(reasons.items(), key=lambda kv: (kv[0][0], -kv[1])):
        print("  %-11s %-24s %d" % (status, reason, n))
    print("%d cases in %.1f s; %d ops with a passing case, %d of them without failures" % (
        len(results), elapsed, len(covered), len(clean)))
    print("%d of the passed cases bind shape-determining graph inputs at compile time "
          "(--input-value)" % sum(1 for r in results if r.get("bound")))
    print("%d of the passed cases have random outputs, checked for their properties "
          "(RANDOM_OUTPUTS)" % sum(1 for r in results if r.get("status") == "pass" and r.get("random")))
    print("%d unsupported" % tot["unsupported"])
    print("%d passed, %d failed" % (tot["pass"], tot["fail"]))
    return 1 if tot["fail"] else 0


if __name__ == "__main__":
    sys.exit(main())
