#!/usr/bin/env python3
"""Writes one small ONNX model of the quantization family, chosen by name, for the importer's lit
tests (test/Import/onnx-quant-ops.test).

    make_quant_models.py NAME OUT.onnx

Built with onnx.helper and numpy at test time; no model is passed through onnx.checker (some are
invalid on purpose).
"""

import numpy as np
from onnx import TensorProto, helper, numpy_helper
from onnx_test_models import Registry, model, vi

F = TensorProto.FLOAT
I8 = TensorProto.INT8
U8 = TensorProto.UINT8
I32 = TensorProto.INT32

register = Registry()
node = helper.make_node


def init(name, array):
    return numpy_helper.from_array(array, name)


@register
def quantize_per_tensor():
    """x -> QuantizeLinear (uint8) -> DequantizeLinear: the activation pair of a QDQ model."""
    return model([node("QuantizeLinear", ["x", "s", "zp"], ["q"], name="quant"),
                  node("DequantizeLinear", ["q", "s", "zp"], ["y"], name="dequant")],
                 [vi("x", [2, 3])], [vi("y", [2, 3])],
                 [init("s", np.array(0.5, np.float32)), init("zp", np.array(10, np.uint8))])


@register
def quantize_known():
    """QuantizeLinear and DequantizeLinear of a Constant node's small table: known values."""
    table = numpy_helper.from_array(np.array([[0.1, -0.5, 2.0], [1.5, 0.04, -3.0]], np.float32))
    return model([node("Constant", [], ["c"], value=table),
                  node("QuantizeLinear", ["c", "s", "zp"], ["q"], name="quant"),
                  node("DequantizeLinear", ["q", "s", "zp"], ["d"], name="dequant"),
                  node("Add", ["x", "d"], ["y"])],
                 [vi("x", [2, 3])], [vi("y", [2, 3])],
                 [init("s", np.array(0.05, np.float32)), init("zp", np.array(4, np.int8))])


@register
def quantize_per_axis():
    """Per-axis int8 scales along axis 1 (run-time x), no zero point given to DequantizeLinear."""
    return model([node("QuantizeLinear", ["x", "s", "zp"], ["q"], name="quant", axis=1),
                  node("DequantizeLinear", ["q", "s"], ["y"], name="dequant", axis=1)],
                 [vi("x", [2, 3, 4])], [vi("y", [2, 3, 4])],
                 [init("s", np.array([0.5, 0.25, 2.0], np.float32)),
                  init("zp", np.zeros([3], np.int8))])


@register
def quantize_blocked():
    """Blocks of 2 along axis 1 (opset 21): the scale [2, 2] repeated to [2, 3]."""
    return model([node("QuantizeLinear", ["x", "s", "zp"], ["y"], name="quant", axis=1,
                       block_size=2)],
                 [vi("x", [2, 3])], [vi("y", [2, 3], I8)],
                 [init("s", np.array([[0.5, 1.0], [2.0, 4.0]], np.float32)),
                  init("zp", np.zeros([2, 2], np.int8))], opset=21)


@register
def dequantize_weight():
    """A QDQ conv: the int8 weight [4, 3, 3, 3] (per output channel) and int32 bias are model data,
    dequantized at compile time."""
    rng = np.random.default_rng(0)
    w = rng.integers(-127, 128, size=[4, 3, 3, 3]).astype(np.int8)
    b = rng.integers(-1000, 1000, size=[4]).astype(np.int32)
    return model([node("DequantizeLinear", ["wq", "ws", "wzp"], ["w"], name="dq_w", axis=0),
                  node("DequantizeLinear", ["bq", "bs"], ["b"], name="dq_b"),
                  node("Conv", ["x", "w", "b"], ["y"], name="conv", pads=[1, 1, 1, 1])],
                 [vi("x", [1, 3, 8, 8])], [vi("y", [1, 4, 8, 8])],
                 [init("wq", w), init("ws", np.array([0.5, 0.25, 0.125, 1.0], np.float32)),
                  init("wzp", np.zeros([4], np.int8)), init("bq", b),
                  init("bs", np.array(0.001, np.float32))])


@register
def dynamic_quantize():
    return model([node("DynamicQuantizeLinear", ["x"], ["y", "s", "zp"], name="dql")],
                 [vi("x", [3, 4])], [vi("y", [3, 4], U8), vi("s", [], F), vi("zp", [], U8)])


@register
def matmul_integer():
    return model([node("MatMulInteger", ["a", "b", "azp", "bzp"], ["y"], name="mmi")],
                 [vi("a", [2, 3], U8), vi("b", [3, 4], U8), vi("azp", [2], U8),
                  vi("bzp", [], U8)], [vi("y", [2, 4], I32)])


@register
def conv_integer():
    return model([node("ConvInteger", ["x", "w", "xzp"], ["y"], name="convi", pads=[1, 1, 1, 1])],
                 [vi("x", [1, 1, 3, 3], U8), vi("w", [1, 1, 2, 2], U8), vi("xzp", [], U8)],
                 [vi("y", [1, 1, 4, 4], I32)])


@register
def qlinear_matmul():
    inputs = [vi("a", [2, 4], U8), vi("as", [], F), vi("azp", [], U8), vi("b", [4, 3], I8),
              vi("bs", [3], F), vi("bzp", [3], I8), vi("ys", [], F), vi("yzp", [], I8)]
    return model([node("QLinearMatMul", [i.name for i in inputs], ["y"], name="qmm")], inputs,
                 [vi("y", [2, 3], I8)])


@register
def qlinear_conv():
    inputs = [vi("x", [1, 2, 4, 4], U8), vi("xs", [], F), vi("xzp", [], U8),
              vi("w", [3, 2, 1, 1], I8), vi("ws", [3], F), vi("wzp", [3], I8), vi("ys", [], F),
              vi("yzp", [], U8), vi("b", [3], I32)]
    return model([node("QLinearConv", [i.name for i in inputs], ["y"], name="qconv")], inputs,
                 [vi("y", [1, 3, 4, 4], U8)])


@register
def quantize_bad_axis_scale():
    return model([node("QuantizeLinear", ["x", "s"], ["y"], name="quant_bad", axis=1)],
                 [vi("x", [2, 3])], [vi("y", [2, 3], U8)],
                 [init("s", np.array([0.5, 0.25], np.float32))])


@register
def dequantize_float_input():
    return model([node("DequantizeLinear", ["x", "s"], ["y"], name="dequant_bad")],
                 [vi("x", [2, 3])], [vi("y", [2, 3])], [init("s", np.array(0.5, np.float32))])


@register
def matmul_integer_int32():
    return model([node("MatMulInteger", ["a", "b"], ["y"], name="mmi_bad")],
                 [vi("a", [2, 3], I32), vi("b", [3, 4], I32)], [vi("y", [2, 4], I32)])


if __name__ == "__main__":
    register.main()
