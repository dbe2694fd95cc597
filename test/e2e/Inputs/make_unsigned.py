#!/usr/bin/env python3
"""Writes unsigned-integer models (uint8/16/32/64 graph inputs and outputs; Div, Mod, Min, Max,
comparisons, BitShift, Clip, Cast, Where, Abs, Sign) with inputs and onnxruntime references, in
make_math_e2e.py's layout:

    make_unsigned.py OUT_DIR

The values sit where signed and unsigned semantics differ: the top bit set (200 as uint8, 2^63 + 5
as uint64), so that a signed division, comparison or extension gives another number.
"""

import os
import sys

import numpy as np
from onnx import TensorProto as T, helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_math_e2e  # noqa: E402

make_math_e2e.NP_TO_ONNX.update({np.dtype(np.uint8): T.UINT8, np.dtype(np.uint16): T.UINT16,
                                 np.dtype(np.uint32): T.UINT32, np.dtype(np.uint64): T.UINT64})
node = helper.make_node


def runs_on_onnxruntime(nodes, inputs, opset):
    """Whether onnxruntime has kernels for these nodes and types (it lacks some unsigned ones, e.g.
    Max on uint8): only what it can check is compared."""
    import onnxruntime as ort
    graph = helper.make_graph(
        nodes, "probe",
        [helper.make_tensor_value_info(k, make_math_e2e.NP_TO_ONNX[a.dtype], a.shape)
         for k, a in inputs.items()],
        [helper.make_empty_tensor_value_info(nodes[-1].output[0])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 8
    try:
        ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
        return True
    except Exception:  # NOT_IMPLEMENTED: no kernel for this op and type
        return False


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
