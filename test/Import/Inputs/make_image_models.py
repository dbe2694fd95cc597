#!/usr/bin/env python3
"""Writes one small ONNX model of ImageDecoder (opset 20), chosen by name, for
onnx-image-decoder.test and test/e2e/image-decoder.test.

    make_image_models.py NAME OUT.onnx

Built with onnx.helper at test time, never passed through onnx.checker (some are invalid on
purpose).
"""

from onnx import TensorProto, helper
from onnx_test_models import Registry, vi

U8 = TensorProto.UINT8
F = TensorProto.FLOAT

register = Registry()
node = helper.make_node


def model(nodes, inputs, outputs, value_info=()):
    graph = helper.make_graph(nodes, "test", inputs, outputs, value_info=list(value_info))
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 20)],
                          producer_name="mie-tests")
    m.ir_version = 9
    return m


def decoder(pixel_format, out_shape, n_bytes=100):
    return model([node("ImageDecoder", ["bytes"], ["img"], name="decode",
                       pixel_format=pixel_format)],
                 [vi("bytes", [n_bytes], U8)], [vi("img", out_shape, U8)])


@register
def rgb():
    return decoder("RGB", [32, 24, 3])


@register
def grayscale():
    return decoder("Grayscale", [32, 24, 1])


@register
def symbolic():
    # Height and width named: --dim-param gives them.
    return decoder("BGR", ["h", "w", 3])


@register
def value_info():
    # The decoded image is an inner value whose size a value_info entry declares; Cast and Div
    # scale it to [0, 1] floats.
    return model([node("ImageDecoder", ["bytes"], ["img"], name="decode"),
                  node("Cast", ["img"], ["f"], to=F),
                  node("Constant", [], ["k"], value_float=1.0 / 255),
                  node("Mul", ["f", "k"], ["y"])],
                 [vi("bytes", [100], U8)], [vi("y", [32, 24, 3])],
                 value_info=[vi("img", [32, 24, 3], U8)])


@register
def bad_value_info():
    # value_info entries are hints: a malformed one (a negative dim) is skipped, so the decoded
    # image is undeclared, and a model without ImageDecoder imports as before.
    return model([node("ImageDecoder", ["bytes"], ["img"], name="decode"),
                  node("Cast", ["img"], ["y"], to=F)],
                 [vi("bytes", [100], U8)], [vi("y", None)],
                 value_info=[vi("img", [32, -24, 3], U8)])


@register
def bad_value_info_no_decoder():
    return model([node("Relu", ["x"], ["r"], name="relu"), node("Neg", ["r"], ["y"], name="neg")],
                 [vi("x", [4], F)], [vi("y", [4], F)], value_info=[vi("r", [-4], F)])


@register
def undeclared():
    return model([node("ImageDecoder", ["bytes"], ["img"], name="decode"),
                  node("Cast", ["img"], ["y"], to=F)],
                 [vi("bytes", [100], U8)], [vi("y", None)])


@register
def wrong_channels():
    return decoder("Grayscale", [32, 24, 3])


@register
def bad_format():
    return decoder("YUV", [32, 24, 3])


@register
def int8_bytes():
    return model([node("ImageDecoder", ["bytes"], ["img"], name="decode")],
                 [vi("bytes", [100], TensorProto.INT8)], [vi("img", [32, 24, 3], U8)])


if __name__ == "__main__":
    register.main()
