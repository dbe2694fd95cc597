#!/usr/bin/env python3
"""Writes QDQ-quantized small CNNs with inputs and onnxruntime references:

    make_qdq.py OUT_DIR

A float residual CNN (conv-relu x2 with a skip connection, max pool, a strided conv, global average
pool, Gemm) with random weights is built here with onnx.helper and quantized by
onnxruntime.quantization.quantize_static (QuantFormat.QDQ, calibrated on a few random inputs), once
per tensor (uint8 activations, int8 weights) and once per channel (int8 weights per output channel).
For each variant OUT_DIR/<variant>/ holds model.onnx, input.npy and two references:

- reference_plain.npy: onnxruntime with graph optimizations off, so it runs the QDQ graph as written
  (Q and DQ nodes around float Conv/Gemm), which is what mie computes;
- reference_int.npy: onnxruntime's default session, which fuses DQ -> Conv -> Q into QLinearConv and
  computes with integer kernels (int32 accumulation, then one requantization).

OUT_DIR/variants lists the variants and OUT_DIR/<variant>/step the output's quantization step (the
scale of the last DequantizeLinear), the unit of the test's tolerance.

OUT_DIR/folded_variants lists models whose DequantizeLinear reads model data (so mie dequantizes it
at compile time) with every parameter layout: per tensor, per axis along each axis of a weight, per
block (opset 21), int8/uint8/int32 with and without zero points; each feeds a MatMul or Conv whose
output ONNX's reference evaluator (onnx.reference) computes into reference.npy.
"""

import os
import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto as T, helper, numpy_helper
from onnxruntime.quantization import (CalibrationDataReader, QuantFormat, QuantType,
                                      quantize_static)

SHAPE = [1, 3, 32, 32]


def float_model(rng):
    inits = []

    def weight(name, shape, scale):
        inits.append(numpy_helper.from_array((rng.standard_normal(shape) * scale)
                                             .astype(np.float32), name))
        return name

    n = helper.make_node
    nodes = [
        n("Conv", ["x", weight("w1", [16, 3, 3, 3], 0.3), weight("b1", [16], 0.1)], ["c1"],
          pads=[1, 1, 1, 1]),
        n("Relu", ["c1"], ["r1"]),
        n("Conv", ["r1", weight("w2", [16, 16, 3, 3], 0.1), weight("b2", [16], 0.1)], ["c2"],
          pads=[1, 1, 1, 1]),
        n("Relu", ["c2"], ["r2"]),
        n("Add", ["r1", "r2"], ["sum"]),
        n("MaxPool", ["sum"], ["p"], kernel_shape=[2, 2], strides=[2, 2]),
        n("Conv", ["p", weight("w3", [32, 16, 3, 3], 0.1), weight("b3", [32], 0.1)], ["c3"],
          pads=[1, 1, 1, 1], strides=[2, 2]),
        n("Relu", ["c3"], ["r3"]),
        n("GlobalAveragePool", ["r3"], ["g"]),
        n("Flatten", ["g"], ["f"]),
        n("Gemm", ["f", weight("wf", [10, 32], 0.3), weight("bf", [10], 0.1)], ["y"], transB=1),
    ]
    graph = helper.make_graph(nodes, "small_cnn",
                              [helper.make_tensor_value_info("x", T.FLOAT, SHAPE)],
                              [helper.make_tensor_value_info("y", T.FLOAT, [1, 10])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8  # onnxruntime 1.23 reads IR versions up to 11
    return model


class Reader(CalibrationDataReader):
    def __init__(self, rng, count):
        self.data = iter([{"x": rng.standard_normal(SHAPE).astype(np.float32)}
                          for _ in range(count)])

    def get_next(self):
        return next(self.data, None)


def run(path, x, optimize):
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    if not optimize:
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    session = ort.InferenceSession(path, options, providers=["CPUExecutionProvider"])
    return session.run(None, {"x": x})[0]


def folded_models(rng):
    """(name, model, input) for the compile-time dequantization of weights."""
    n = helper.make_node
    models = []

    def matmul_model(name, weight, scale, zero_point, attrs, opset=19):
        inits = [numpy_helper.from_array(weight, "wq"), numpy_helper.from_array(scale, "ws")]
        dq_inputs = ["wq", "ws"]
        if zero_point is not None:
            inits.append(numpy_helper.from_array(zero_point, "wzp"))
            dq_inputs.append("wzp")
        k, m = weight.shape
        graph = helper.make_graph(
            [n("DequantizeLinear", dq_inputs, ["w"], **attrs), n("MatMul", ["x", "w"], ["y"])],
            name, [helper.make_tensor_value_info("x", T.FLOAT, [3, k])],
            [helper.make_tensor_value_info("y", T.FLOAT, [3, m])], inits)
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
        model.ir_version = 8
        x = rng.standard_normal([3, k]).astype(np.float32)
        models.append((name, model, x))

    i8 = lambda shape: rng.integers(-128, 128, size=shape).astype(np.int8)  # noqa: E731
    u8 = lambda shape: rng.integers(0, 256, size=shape).astype(np.uint8)  # noqa: E731
    f32 = lambda shape: (rng.random(shape) * 0.1 + 0.01).astype(np.float32)  # noqa: E731
    matmul_model("tensor_u8", u8([6, 5]), f32([]), np.array(128, np.uint8), {})
    matmul_model("tensor_i8_no_zp", i8([6, 5]), f32([]), None, {})
    matmul_model("axis0_i8", i8([6, 5]), f32([6]), i8([6]), {"axis": 0})
    matmul_model("axis1_u8", u8([6, 5]), f32([5]), u8([5]), {"axis": 1})
    matmul_model("axis_neg1_i8", i8([6, 5]), f32([5]), None, {"axis": -1})
    matmul_model("int32", rng.integers(-10**6, 10**6, size=[6, 5]).astype(np.int32), f32([]),
                 None, {})
    matmul_model("block_axis0", i8([7, 5]), f32([3, 5]), i8([3, 5]), {"axis": 0, "block_size": 3},
                 opset=21)
    matmul_model("block_axis1", u8([6, 5]), f32([6, 3]), u8([6, 3]), {"axis": 1, "block_size": 2},
                 opset=21)
    return models


def write_folded(out):
    from onnx.reference import ReferenceEvaluator
    names = []
    for name, model, x in folded_models(np.random.default_rng(13)):
        d = os.path.join(out, "folded_" + name)
        os.makedirs(d, exist_ok=True)
        onnx.save(model, os.path.join(d, "model.onnx"))
        np.save(os.path.join(d, "input.npy"), x)
        np.save(os.path.join(d, "reference.npy"), ReferenceEvaluator(model).run(None, {"x": x})[0])
        names.append("folded_" + name)
    with open(os.path.join(out, "folded_variants"), "w") as f:
        f.write("\n".join(names) + "\n")


def main():
    out = sys.argv[1]
    write_folded(out)
    os.makedirs(out, exist_ok=True)
    rng = np.random.default_rng(7)
    float_path = os.path.join(out, "float.onnx")
    onnx.save(float_model(rng), float_path)
    names = []
    for name, per_channel in [("per_tensor", False), ("per_channel", True)]:
        d = os.path.join(out, name)
        os.makedirs(d, exist_ok=True)
        path = os.path.join(d, "model.onnx")
        quantize_static(float_path, path, Reader(np.random.default_rng(11), 4),
                        quant_format=QuantFormat.QDQ, per_channel=per_channel,
                        activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8)
        model = onnx.load(path)
        ops = {node.op_type for node in model.graph.node}
        assert {"QuantizeLinear", "DequantizeLinear"} <= ops, ops
        # The output's quantization step: the scale of the DequantizeLinear that produces y.
        last = next(node for node in model.graph.node if node.output[0] == "y")
        assert last.op_type == "DequantizeLinear", last.op_type
        scales = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
        step = float(scales[last.input[1]])
        x = np.random.default_rng(5).standard_normal(SHAPE).astype(np.float32)
        np.save(os.path.join(d, "input.npy"), x)
        np.save(os.path.join(d, "reference_plain.npy"), run(path, x, optimize=False))
        np.save(os.path.join(d, "reference_int.npy"), run(path, x, optimize=True))
        with open(os.path.join(d, "step"), "w") as f:
            f.write(repr(step) + "\n")
        names.append(name)
    with open(os.path.join(out, "variants"), "w") as f:
        f.write("\n".join(names) + "\n")


if __name__ == "__main__":
    main()
