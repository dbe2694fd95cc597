#!/usr/bin/env python3
"""Writes unsigned-integer models (uint8/16/32/64 graph inputs and outputs; Div, Mod, Min, Max,
comparisons, BitShift, Clip, Cast, Where, Abs, Sign; the reductions, ArgMax/ArgMin, TopK, CumSum,
GatherElements and ScatterElements with max/min) with inputs and onnxruntime references, in
make_math_e2e.py's layout:

    make_unsigned.py OUT_DIR

The values sit where signed and unsigned semantics differ: the top bit set (200 as uint8, 2^63 + 5
as uint64), so that a signed division, comparison or extension gives another number.
"""

import os
import sys

import numpy as np
from onnx import TensorProto as T, helper, numpy_helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_math_e2e  # noqa: E402

make_math_e2e.NP_TO_ONNX.update({np.dtype(np.uint8): T.UINT8, np.dtype(np.uint16): T.UINT16,
                                 np.dtype(np.uint32): T.UINT32, np.dtype(np.uint64): T.UINT64})
node = helper.make_node


def runs_on_onnxruntime(nodes, inputs, opset, inits=None):
    """Whether onnxruntime has kernels for these nodes and types (it lacks some unsigned ones, e.g.
    Max on uint8): only what it can check is compared."""
    import onnxruntime as ort
    graph = helper.make_graph(
        nodes, "probe",
        [helper.make_tensor_value_info(k, make_math_e2e.NP_TO_ONNX[a.dtype], a.shape)
         for k, a in inputs.items()],
        [helper.make_empty_tensor_value_info(nodes[-1].output[0])],
        initializer=[numpy_helper.from_array(a, k) for k, a in (inits or {}).items()])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 8
    options = ort.SessionOptions()
    options.log_severity_level = 3  # no warnings about the probe's unused initializers
    try:
        ort.InferenceSession(model.SerializeToString(), options,
                             providers=["CPUExecutionProvider"])
        return True
    except Exception:  # NOT_IMPLEMENTED: no kernel for this op and type
        return False


def onnx_reference(path, inputs):
    from onnx.reference import ReferenceEvaluator
    return ReferenceEvaluator(path).run(None, inputs)


def values(dtype, rng, n):
    info = np.iinfo(dtype)
    top = info.max // 2 + 1  # the top bit alone
    base = np.array([0, 1, 2, 3, 7, 200 % (int(info.max) + 1), int(info.max), int(top), int(top) + 5,
                     int(info.max) - 1], dtype=dtype)
    extra = rng.integers(0, int(info.max), size=n - base.size, dtype=dtype, endpoint=True)
    return np.concatenate([base, extra]).reshape(2, n // 2)


def variants():
    rng = np.random.default_rng(3)
    v = {}
    for dtype, onnx_type in [(np.uint8, T.UINT8), (np.uint16, T.UINT16), (np.uint32, T.UINT32),
                             (np.uint64, T.UINT64)]:
        name = np.dtype(dtype).name
        bits = np.iinfo(dtype).bits
        a = values(dtype, rng, 16)
        b = np.maximum(values(dtype, rng, 16)[::-1], 1).astype(dtype)  # Div/Mod by 0 is undefined
        shift = (np.arange(16, dtype=dtype) % bits).reshape(2, 8)
        nodes = [node("Div", ["a", "b"], ["div"]),
                 node("Mod", ["a", "b"], ["mod"]),
                 node("Max", ["a", "b"], ["max"]),
                 node("Min", ["a", "b"], ["min"]),
                 node("Less", ["a", "b"], ["less"]),
                 node("GreaterOrEqual", ["a", "b"], ["ge"]),
                 node("Where", ["less", "a", "b"], ["where"]),
                 node("BitShift", ["a", "s"], ["shl"], direction="LEFT"),
                 node("BitShift", ["a", "s"], ["shr"], direction="RIGHT"),
                 node("Cast", ["a"], ["to_f"], to=T.DOUBLE),
                 node("Cast", ["a"], ["to_i64"], to=T.INT64),
                 node("Cast", ["to_i64"], ["back"], to=onnx_type),
                 node("Abs", ["a"], ["abs"]),
                 node("Sign", ["a"], ["sign"]),
                 node("Add", ["a", "b"], ["add"]),
                 node("Mul", ["a", "b"], ["mul"])]
        inputs = {"a": a, "b": b, "s": shift}
        # Each node with the nodes it reads from; kept when onnxruntime runs it.
        producers = {n.output[0]: n for n in nodes}
        def chain(n):
            deps = [chain(producers[i]) for i in n.input if i in producers]
            return [d for c in deps for d in c] + [n]
        kept = [n for n in nodes if runs_on_onnxruntime(chain(n), inputs, 18)]
        v[f"arith_{name}"] = (kept, inputs, {}, 18, (0, 0))
        # Reductions, arg/top-k and scans order or combine the values unsigned.
        idx = np.array([[1, 0, 7, 3, 2, 6, 5, 4], [0, 0, 1, 1, 7, 7, 2, 2]], np.int64)
        inits = {"k": np.array([3], np.int64), "axis": np.array(1, np.int64)}
        nodes = [node("ReduceMax", ["a"], ["rmax"], keepdims=0),
                 node("ReduceMin", ["a"], ["rmin"], keepdims=0),
                 node("ReduceSum", ["a"], ["rsum"], keepdims=0),
                 node("ArgMax", ["a"], ["argmax"], axis=1),
                 node("ArgMin", ["a"], ["argmin"], axis=1),
                 node("TopK", ["a", "k"], ["topk", "topk_i"], axis=1),
                 node("TopK", ["a", "k"], ["bottomk", "bottomk_i"], axis=1, largest=0),
                 node("CumSum", ["a", "axis"], ["cumsum"]),
                 node("GatherElements", ["a", "idx"], ["gathered"], axis=1),
                 node("ScatterElements", ["a", "idx", "b"], ["smax"], axis=1, reduction="max"),
                 node("ScatterElements", ["a", "idx", "b"], ["smin"], axis=1, reduction="min")]
        inputs = {"a": a, "b": b, "idx": idx}
        def used(kept):
            names = {i for n in kept for i in n.input}
            return {k: a for k, a in inits.items() if k in names}
        on_ort = [n for n in nodes if runs_on_onnxruntime([n], inputs, 18, inits)]
        v[f"reduce_{name}"] = (on_ort, inputs, used(on_ort), 18, (0, 0))
        # What onnxruntime has no kernel for is checked against ONNX's reference implementation.
        rest = [n for n in nodes if n not in on_ort]
        if rest:
            v[f"reduce_ref_{name}"] = (rest, inputs, used(rest), 18, (0, 0), None, onnx_reference)
    # Widening and narrowing casts between unsigned and signed types, and float <-> unsigned.
    x8 = values(np.uint8, rng, 16)
    f = np.array([[0.0, 1.5, 200.7, 255.0], [3.2, 127.9, 128.0, 65535.0]], dtype=np.float32)
    v["casts"] = ([node("Cast", ["x8"], ["u16"], to=T.UINT16),
                   node("Cast", ["x8"], ["i32"], to=T.INT32),
                   node("Cast", ["x8"], ["f32"], to=T.FLOAT),
                   node("Cast", ["u16"], ["u64"], to=T.UINT64),
                   node("Cast", ["f"], ["f_u16"], to=T.UINT16),
                   node("Cast", ["f_u16"], ["f_u8"], to=T.UINT8),
                   node("Clip", ["x8", "lo", "hi"], ["clip"])],
                  {"x8": x8, "f": f}, {"lo": np.array(3, np.uint8), "hi": np.array(200, np.uint8)},
                  13, (0, 0))
    return v


def main():
    make_math_e2e.write_variants(variants(), sys.argv[1])


if __name__ == "__main__":
    main()
