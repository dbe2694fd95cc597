#!/usr/bin/env python3
"""Writes one small ONNX model with 8-bit or 4-bit floats or 4-bit or 2-bit integers, chosen by name,
for the importer's lit test (test/Import/onnx-narrow-types.test).

    make_narrow_models.py NAME OUT.onnx

Tensors of those types are written byte for byte as ONNX stores them (4-bit and 2-bit values packed,
the first in the lowest bits), not through onnx.helper's packing, so the test states the encoding.
"""

from onnx import TensorProto as T
from onnx import helper
from onnx_test_models import Registry, model, vi

register = Registry()
node = helper.make_node


def raw(name, dtype, dims, data):
    t = T()
    t.name, t.data_type = name, dtype
    t.dims.extend(dims)
    t.raw_data = bytes(data)
    return t


@register
def cast_saturate():
    """f32 -> FLOAT8E4M3FN saturating (the default) and not."""
    return model([node("Cast", ["x"], ["a"], to=T.FLOAT8E4M3FN, name="sat"),
                  node("Cast", ["x"], ["b"], to=T.FLOAT8E5M2, saturate=0, name="nosat")],
                 [vi("x", [4])], [vi("a", [4], T.FLOAT8E4M3FN), vi("b", [4], T.FLOAT8E5M2)],
                 opset=21)


@register
def cast_e8m0():
    """f32 -> FLOAT8E8M0 rounding to nearest, and back to f16 (no round_mode there)."""
    return model([node("Cast", ["x"], ["e"], to=T.FLOAT8E8M0, round_mode="nearest", name="to"),
                  node("Cast", ["e"], ["y"], to=T.FLOAT16, name="back")],
                 [vi("x", [4])], [vi("y", [4], T.FLOAT16)], opset=25)


@register
def cast_e8m0_bad_round_mode():
    return model([node("Cast", ["x"], ["e"], to=T.FLOAT8E8M0, round_mode="zero", name="bad")],
                 [vi("x", [4])], [vi("e", [4], T.FLOAT8E8M0)], opset=25)


@register
def io_types():
    """An INT4 graph input cast to UINT2 (wraps) and a FLOAT4E2M1 one widened to f32."""
    return model([node("Cast", ["i"], ["u"], to=T.UINT2, name="wrap"),
                  node("Cast", ["f"], ["g"], to=T.FLOAT, name="widen")],
                 [vi("i", [3], T.INT4), vi("f", [3], T.FLOAT4E2M1)],
                 [vi("u", [3], T.UINT2), vi("g", [3])], opset=25)


@register
def initializers():
    """INT4 [1, -2, 7, -8, 3] in raw_data (three bytes, the last half used), UINT2 [3, 0, 1, 2, 3] in
    int32_data (two packed bytes), FLOAT8E4M3FN [1, -2] in raw_data; each is a graph output."""
    u2 = T()
    u2.name, u2.data_type = "u2", T.UINT2
    u2.dims.append(5)
    u2.int32_data.extend([3 | 0 << 2 | 1 << 4 | 2 << 6, 3])
    return model([node("Identity", ["i4"], ["a"]), node("Identity", ["u2"], ["b"]),
                  node("Identity", ["f8"], ["c"])],
                 [], [vi("a", [5], T.INT4), vi("b", [5], T.UINT2), vi("c", [2], T.FLOAT8E4M3FN)],
                 [raw("i4", T.INT4, [5], [0x1 | 0xE << 4, 0x7 | 0x8 << 4, 0x3]), u2,
                  raw("f8", T.FLOAT8E4M3FN, [2], [0x38, 0xC0])], opset=21)


@register
def initializer_short():
    """Five INT4 values need three packed bytes; two are given."""
    return model([node("Identity", ["w"], ["y"])], [], [vi("y", [5], T.INT4)],
                 [raw("w", T.INT4, [5], [0x21, 0x43])], opset=21)


@register
def quantize_f8():
    """QuantizeLinear to FLOAT8E4M3FN without saturation; DequantizeLinear back (zero point unread)."""
    zp = raw("zp", T.FLOAT8E4M3FN, [], [0])
    s = helper.make_tensor("s", T.FLOAT, [], [0.5])
    return model([node("QuantizeLinear", ["x", "s", "zp"], ["q"], saturate=0, name="quant"),
                  node("DequantizeLinear", ["q", "s", "zp"], ["y"], name="dequant")],
                 [vi("x", [4])], [vi("y", [4])], [s, zp], opset=21)


@register
def quantize_int4():
    """QuantizeLinear to INT4 per axis: round, add the zero point, clip to [-8, 7]."""
    zp = raw("zp", T.INT4, [2], [0x1 | 0xF << 4])
    s = helper.make_tensor("s", T.FLOAT, [2], [0.5, 2.0])
    return model([node("QuantizeLinear", ["x", "s", "zp"], ["q"], axis=1, name="quant")],
                 [vi("x", [3, 2])], [vi("q", [3, 2], T.INT4)], [s, zp], opset=21)


@register
def dequantize_f4():
    """DequantizeLinear of FLOAT4E2M1: x * scale, the zero point not read."""
    zp = raw("zp", T.FLOAT4E2M1, [], [0])
    s = helper.make_tensor("s", T.FLOAT, [], [2.0])
    return model([node("DequantizeLinear", ["x", "s", "zp"], ["y"], name="dequant")],
                 [vi("x", [4], T.FLOAT4E2M1)], [vi("y", [4])], [s, zp], opset=23)


@register
def string_input():
    return model([node("Identity", ["x"], ["y"])], [vi("x", [2], T.STRING)],
                 [vi("y", [2], T.STRING)], opset=21)


if __name__ == "__main__":
    register.main()
