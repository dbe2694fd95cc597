#!/usr/bin/env python3
"""Writes one small ONNX model of the math / logic / activation family, chosen by name, for the
importer's lit tests (test/Import/onnx-math-ops.test).

    make_math_models.py NAME OUT.onnx

Built with onnx.helper and numpy at test time; no model is passed through onnx.checker (some are
invalid on purpose). Run with Debian's /usr/bin/python3 (python3-onnx, python3-numpy).
"""

import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper

F = TensorProto.FLOAT
B = TensorProto.BOOL
I32 = TensorProto.INT32
U8 = TensorProto.UINT8

MODELS = {}
node = helper.make_node


def register(fn):
    MODELS[fn.__name__] = fn
    return fn


def vi(name, shape, dtype=F):
    return helper.make_tensor_value_info(name, dtype, shape)


def model(nodes, inputs, outputs, inits=(), opset=13):
    graph = helper.make_graph(nodes, "test", inputs, outputs, initializer=list(inits))
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)],
                          producer_name="mie-tests")
    m.ir_version = 8
    return m


def chain(ops, x="input"):
    """One node per op type, each consuming the previous output; the last writes 'output'."""
    nodes = []
    for i, op in enumerate(ops):
        out = "output" if i == len(ops) - 1 else "t%d" % i
        nodes.append(node(op, [x], [out], name=op.lower()))
        x = out
    return nodes


@register
def math_unary():
    ops = ["Floor", "Ceil", "Round", "Sign", "Sin", "Cos", "Tan", "Asin", "Acos", "Atan", "Sinh",
           "Cosh", "Asinh", "Acosh", "Atanh"]
    nodes = chain(ops) + [node("IsNaN", ["input"], ["nan"], name="isnan"),
                          node("IsInf", ["input"], ["inf"], name="isinf", detect_negative=0)]
    return model(nodes, [vi("input", [2, 3])],
                 [vi("output", [2, 3]), vi("nan", [2, 3], B), vi("inf", [2, 3], B)])


@register
def logic_bitwise():
    nodes = [node("And", ["a", "b"], ["and"], name="and"),
             node("Or", ["and", "b"], ["or"], name="or"),
             node("Xor", ["or", "a"], ["xor"], name="xor"),
             node("Not", ["xor"], ["not"], name="not"),
             node("BitwiseAnd", ["i", "j"], ["band"], name="band"),
             node("BitwiseOr", ["band", "j"], ["bor"], name="bor"),
             node("BitwiseXor", ["bor", "i"], ["bxor"], name="bxor"),
             node("BitwiseNot", ["bxor"], ["bnot"], name="bnot"),
             node("Mod", ["bnot", "j"], ["mod"], name="mod"),
             node("Mod", ["x", "y"], ["fmod"], name="fmod", fmod=1),
             node("BitShift", ["u", "s"], ["shl"], name="shl", direction="LEFT"),
             node("BitShift", ["shl", "s"], ["shr"], name="shr", direction="RIGHT")]
    return model(nodes,
                 [vi("a", [3, 4], B), vi("b", [4], B), vi("i", [3, 4], I32), vi("j", [4], I32),
                  vi("x", [5], F), vi("y", [], F), vi("u", [6], U8), vi("s", [6], U8)],
                 [vi("not", [3, 4], B), vi("mod", [3, 4], I32), vi("fmod", [5], F),
                  vi("shr", [6], U8)], opset=18)


@register
def activations():
    nodes = [node("LeakyRelu", ["input"], ["leaky"], name="leaky", alpha=0.2),
             node("PRelu", ["leaky", "slope"], ["prelu"], name="prelu"),
             node("Elu", ["prelu"], ["elu"], name="elu", alpha=0.5),
             node("Selu", ["elu"], ["selu"], name="selu"),
             node("Celu", ["selu"], ["celu"], name="celu", alpha=2.0),
             node("ThresholdedRelu", ["celu"], ["thr"], name="thr", alpha=0.25),
             node("Softplus", ["thr"], ["softplus"], name="softplus"),
             node("Softsign", ["softplus"], ["softsign"], name="softsign"),
             node("Mish", ["softsign"], ["mish"], name="mish"),
             node("Shrink", ["mish"], ["shrink"], name="shrink", bias=0.5, lambd=1.5),
             node("Mean", ["shrink", "input", "slope"], ["output"], name="mean")]
    slope = numpy_helper.from_array(np.array([0.1, 0.2, 0.3], dtype=np.float32), "slope")
    return model(nodes, [vi("input", [2, 3])], [vi("output", [2, 3])], [slope], opset=18)


@register
def swish():
    return model([node("Swish", ["input"], ["output"], name="swish", alpha=0.5)],
                 [vi("input", [4])], [vi("output", [4])], opset=24)


@register
def gelu_castlike():
    nodes = [node("Gelu", ["input"], ["g"], name="gelu"),
             node("Gelu", ["g"], ["t"], name="gelu_tanh", approximate="tanh"),
             node("CastLike", ["t", "like"], ["output"], name="castlike")]
    return model(nodes, [vi("input", [4]), vi("like", [1], TensorProto.FLOAT16)],
                 [vi("output", [4], TensorProto.FLOAT16)], opset=20)


# Floor / Ceil / Round on known values are evaluated: the shape below is computed at import.
@register
def rounding_known():
    scale = numpy_helper.from_array(np.array(2.5, dtype=np.float32), "scale")
    nodes = [node("Floor", ["scale"], ["f"], name="floor"),
             node("Ceil", ["scale"], ["c"], name="ceil"),
             node("Round", ["scale"], ["r"], name="round"),
             node("Add", ["f", "c"], ["fc"], name="add"),
             node("Add", ["fc", "r"], ["sum"], name="add2"),
             node("Mul", ["input", "sum"], ["output"], name="mul")]
    return model(nodes, [vi("input", [4])], [vi("output", [4])], [scale])


# Not / And / Or / Xor on known booleans are evaluated: only the final mask reaches the graph.
@register
def logic_known():
    p = numpy_helper.from_array(np.array([True, True, False, False]), "p")
    q = numpy_helper.from_array(np.array([True, False, True, False]), "q")
    nodes = [node("Not", ["p"], ["np"], name="not"),
             node("And", ["np", "q"], ["a"], name="and"),
             node("Or", ["a", "p"], ["o"], name="or"),
             node("Xor", ["o", "q"], ["x"], name="xor"),
             node("Where", ["x", "input", "zero"], ["output"], name="where")]
    zero = numpy_helper.from_array(np.array(0.0, dtype=np.float32), "zero")
    return model(nodes, [vi("input", [4])], [vi("output", [4])], [p, q, zero])


# Integer Mod on known values (shape arithmetic) is evaluated with either sign rule.
@register
def mod_known():
    a = numpy_helper.from_array(np.array([-7, 7, 6], dtype=np.int64), "a")
    b = numpy_helper.from_array(np.array([3, -3, 4], dtype=np.int64), "b")
    return model([node("Mod", ["a", "b"], ["py"], name="mod"),
                  node("Mod", ["a", "b"], ["c"], name="fmod", fmod=1)],
                 [], [vi("py", [3], TensorProto.INT64), vi("c", [3], TensorProto.INT64)], [a, b])


@register
def clip_bad_bound():
    return model([node("Clip", ["x", "", "hi"], ["output"], name="clip_bad")],
                 [vi("x", [4]), vi("hi", [], TensorProto.INT64)], [vi("output", [4])])


# min > max: every element becomes max (ONNX Clip).
@register
def clip_min_over_max():
    lo = numpy_helper.from_array(np.array(2.0, dtype=np.float32), "lo")
    hi = numpy_helper.from_array(np.array(1.0, dtype=np.float32), "hi")
    return model([node("Clip", ["x", "lo", "hi"], ["output"], name="clip")],
                 [vi("x", [4])], [vi("output", [4])], [lo, hi])


@register
def mod_float_no_fmod():
    return model([node("Mod", ["x", "x"], ["output"], name="mod_bad")],
                 [vi("x", [4])], [vi("output", [4])])


@register
def prelu_bad_slope():
    slope = numpy_helper.from_array(np.ones([2, 3], dtype=np.float32), "slope")
    return model([node("PRelu", ["x", "slope"], ["output"], name="prelu_bad")],
                 [vi("x", [3])], [vi("output", [3])], [slope])


@register
def bitshift_bad_direction():
    return model([node("BitShift", ["u", "u"], ["output"], name="shift_bad", direction="UP")],
                 [vi("u", [4], U8)], [vi("output", [4], U8)])


@register
def leaky_relu_int():
    return model([node("LeakyRelu", ["x"], ["output"], name="leaky_int")],
                 [vi("x", [4], I32)], [vi("output", [4], I32)])


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in MODELS:
        sys.exit(f"usage: {sys.argv[0]} NAME OUT.onnx\n  names: {' '.join(sorted(MODELS))}")
    with open(sys.argv[2], "wb") as f:
        f.write(MODELS[sys.argv[1]]().SerializeToString())


if __name__ == "__main__":
    main()
