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


def main():
    out = sys.argv[1]
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
