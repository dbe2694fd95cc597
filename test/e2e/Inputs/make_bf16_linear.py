"""Builds a bf16 model of linear layers, its input and an independent reference output.

Usage: make_bf16_linear.py OUT_DIR
Writes OUT_DIR/model.onnx: x (f32 [20, 100]) -> Cast to bf16 -> MatMul by a bf16 weight [100, 40] ->
Add a bf16 bias -> Relu -> Gemm (transB, alpha 0.5) by a bf16 weight [33, 40] and bias -> Cast to
f32 -> y [20, 33]: a bf16 network's linear layers, with odd sizes (K = 100 and 40 are not multiples of
the AMX tile's 32). The reference is onnxruntime's output for the same network in f32 with the same
(bf16-exact) weights and a round trip through bf16 (Cast, Cast) wherever the bf16 model stores a
tensor, so only the summation order differs: within about one bf16 ulp (2^-8 relative).
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

RNG = np.random.default_rng(4321)


def bf16_exact(a):
    """Rounds float32 values to the nearest bf16 (ties to even) and returns them as float32."""
    u = a.astype(np.float32).view(np.uint32).astype(np.uint64)
    u = (u + 0x7FFF + ((u >> 16) & 1)) >> 16 << 16
    return u.astype(np.uint32).view(np.float32)


def tensor(name, values, dtype):
    if dtype == TensorProto.FLOAT:
        return numpy_helper.from_array(values.astype(np.float32), name)
    bits = (values.astype(np.float32).view(np.uint32) >> 16).astype(np.uint16)
    t = helper.make_tensor(name, TensorProto.BFLOAT16, values.shape, bits.tobytes(), raw=True)
    return t


def build(dtype, round_trip):
    w1 = bf16_exact(RNG.standard_normal([100, 40]) * 0.1)
    b1 = bf16_exact(RNG.standard_normal([40]) * 0.1)
    w2 = bf16_exact(RNG.standard_normal([33, 40]) * 0.15)
    b2 = bf16_exact(RNG.standard_normal([33]) * 0.1)
    inits = [tensor("w1", w1, dtype), tensor("b1", b1, dtype), tensor("w2", w2, dtype),
             tensor("b2", b2, dtype)]
    nodes = []

    def store(x, y):
        # Where the bf16 model holds a tensor in bf16: a Cast to bf16 (and back, in the reference).
        if round_trip:
            nodes.append(helper.make_node("Cast", [x], [y + "_h"], to=TensorProto.BFLOAT16))
            nodes.append(helper.make_node("Cast", [y + "_h"], [y], to=TensorProto.FLOAT))
        else:
            nodes.append(helper.make_node("Cast", [x], [y], to=dtype))

    store("x", "xb")
    nodes += [helper.make_node("MatMul", ["xb", "w1"], ["h"], name="fc1"),
              helper.make_node("Add", ["h", "b1"], ["hb"], name="fc1_bias"),
              helper.make_node("Relu", ["hb"], ["a"], name="relu")]
    if round_trip:
        store("a", "ab")
    nodes.append(helper.make_node("Gemm", ["ab" if round_trip else "a", "w2", "b2"], ["z"],
                                  name="fc2", transB=1, alpha=0.5))
    if round_trip:
        store("z", "y")
    else:
        nodes.append(helper.make_node("Cast", ["z"], ["y"], to=TensorProto.FLOAT))
    graph = helper.make_graph(
        nodes, "bf16_linear", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [20, 100])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [20, 33])], initializer=inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model


def main():
    out_dir = sys.argv[1]
    os.makedirs(out_dir, exist_ok=True)
    state = RNG.bit_generator.state
    onnx.save(build(TensorProto.BFLOAT16, round_trip=False), os.path.join(out_dir, "model.onnx"))
    RNG.bit_generator.state = state  # the same weights for the reference
    reference = build(TensorProto.FLOAT, round_trip=True)
    x = RNG.standard_normal([20, 100]).astype(np.float32)
    np.save(os.path.join(out_dir, "input_0.npy"), x)
    import onnxruntime as ort
    session = ort.InferenceSession(reference.SerializeToString(), providers=["CPUExecutionProvider"])
    (y,) = session.run(None, {"x": x})
    np.save(os.path.join(out_dir, "reference_0.npy"), y)


if __name__ == "__main__":
    main()
