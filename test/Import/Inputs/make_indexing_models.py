#!/usr/bin/env python3
"""Writes one small ONNX model of the arg-reduction, top-k, cumsum, gather and scatter ops, chosen
by name, for onnx-indexing-ops.test.

    make_indexing_models.py NAME OUT.onnx

Same conventions as make_models.py: built with onnx.helper and numpy at test time, never passed
through onnx.checker (some are invalid on purpose).
"""

import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

F = TensorProto.FLOAT
I32 = TensorProto.INT32
I64 = TensorProto.INT64

MODELS = {}


def register(fn):
    MODELS[fn.__name__] = fn
    return fn


def vi(name, shape, dtype=F):
    return helper.make_tensor_value_info(name, dtype, shape)


def ints(name, values, dtype=np.int64):
    return numpy_helper.from_array(np.array(values, dtype=dtype), name)


def model(nodes, inputs, outputs, inits=(), opset=13):
    graph = helper.make_graph(nodes, "test", inputs, outputs, initializer=list(inits))
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)],
                          producer_name="mie-tests")
    m.ir_version = 8
    return m


node = helper.make_node


@register
def arg_reduce_opset11():
    # select_last_index does not exist yet: default 0.
    return model(
        [node("ArgMax", ["x"], ["amax"], name="amax", axis=-1),
         node("ArgMin", ["x"], ["amin"], name="amin", keepdims=0)],
        [vi("x", [2, 3, 4])], [vi("amax", None, I64), vi("amin", None, I64)], opset=11)


@register
def arg_reduce_opset13():
    return model(
        [node("ArgMax", ["x"], ["amax"], name="amax", axis=1, keepdims=0, select_last_index=1),
         node("ArgMin", ["i"], ["amin"], name="amin", select_last_index=1)],
        [vi("x", [2, 3, 4]), vi("i", [5, 2], I32)], [vi("amax", None, I64), vi("amin", None, I64)])


@register
def reduce_prod():
    # axes as an attribute (opset 13) and everything by default.
    return model(
        [node("ReduceProd", ["x"], ["p1"], name="p1", axes=[-1, 0], keepdims=0),
         node("ReduceProd", ["x"], ["p2"], name="p2")],
        [vi("x", [2, 3, 4])], [vi("p1", None), vi("p2", None)])


@register
def reduce_prod_opset18():
    # axes as an input; empty axes with noop_with_empty_axes forward the input.
    return model(
        [node("ReduceProd", ["x", "axes"], ["p1"], name="p1", keepdims=1),
         node("ReduceProd", ["x"], ["p2"], name="p2", noop_with_empty_axes=1)],
        [vi("x", [2, 3, 4])], [vi("p1", None), vi("p2", None)], [ints("axes", [1])], opset=18)


@register
def top_k_opset9():
    return model([node("TopK", ["x"], ["v", "i"], name="topk", k=2, axis=0)],
                 [vi("x", [5, 3])], [vi("v", None), vi("i", None, I64)], opset=9)


@register
def top_k_opset11():
    return model([node("TopK", ["x", "k"], ["v", "i"], name="topk", largest=0, sorted=0)],
                 [vi("x", [3, 6], I32)], [vi("v", None, I32), vi("i", None, I64)],
                 [ints("k", [4])], opset=11)


@register
def top_k_runtime_k():
    return model([node("TopK", ["x", "k"], ["v", "i"], name="topk")],
                 [vi("x", [3, 6]), vi("k", [1], I64)], [vi("v", None), vi("i", None, I64)],
                 opset=11)


@register
def top_k_too_large():
    return model([node("TopK", ["x", "k"], ["v", "i"], name="topk")],
                 [vi("x", [3, 6])], [vi("v", None), vi("i", None, I64)], [ints("k", [7])],
                 opset=11)


@register
def cumsum():
    # A constant axis (an initializer) and a runtime one (a graph input).
    return model(
        [node("CumSum", ["x", "axis"], ["c1"], name="c1", exclusive=1),
         node("CumSum", ["x", "rt_axis"], ["c2"], name="c2", reverse=1)],
        [vi("x", [2, 3]), vi("rt_axis", [], I32)], [vi("c1", None), vi("c2", None)],
        [ints("axis", -1, np.int32)], opset=14)


@register
def cumsum_bad_axis():
    return model([node("CumSum", ["x", "axis"], ["c"], name="cs")], [vi("x", [2, 3])],
                 [vi("c", None)], [ints("axis", 2)], opset=14)


@register
def gathers():
    return model(
        [node("GatherElements", ["x", "ie"], ["ge"], name="ge", axis=-1),
         node("GatherND", ["x", "ind"], ["gnd"], name="gnd"),
         node("GatherND", ["x", "inb"], ["gb"], name="gb", batch_dims=1)],
        [vi("x", [2, 3, 4]), vi("ie", [2, 3, 2], I64), vi("ind", [5, 2], I64),
         vi("inb", [2, 1], I32)],
        [vi("ge", None), vi("gnd", None), vi("gb", None)], opset=12)


@register
def gather_elements_bad_index():
    return model([node("GatherElements", ["x", "i"], ["y"], name="ge", axis=1)],
                 [vi("x", [2, 3])], [vi("y", None)], [ints("i", [[0, 3], [-3, 1]])])


@register
def gather_nd_bad_index():
    # The second tuple entry indexes dim 1 (size 3).
    return model([node("GatherND", ["x", "i"], ["y"], name="gnd")],
                 [vi("x", [2, 3])], [vi("y", None)], [ints("i", [[1, 2], [0, -4]])])


@register
def scatter_opset9():
    return model([node("Scatter", ["x", "i", "u"], ["y"], name="sc", axis=1)],
                 [vi("x", [2, 5]), vi("i", [2, 2], I64), vi("u", [2, 2])], [vi("y", None)],
                 opset=9)


@register
def scatters_opset18():
    return model(
        [node("ScatterElements", ["x", "i", "u"], ["se"], name="se", reduction="add"),
         node("ScatterElements", ["x", "i", "u"], ["smax"], name="smax", axis=1, reduction="max"),
         node("ScatterND", ["x", "t", "rows"], ["snd"], name="snd", reduction="mul"),
         node("ScatterND", ["x", "t2", "elems"], ["snd2"], name="snd2")],
        [vi("x", [2, 5]), vi("i", [2, 2], I64), vi("u", [2, 2]), vi("t", [3, 1], I64),
         vi("rows", [3, 5]), vi("t2", [4, 2], I64), vi("elems", [4])],
        [vi("se", None), vi("smax", None), vi("snd", None), vi("snd2", None)], opset=18)


@register
def scatter_bad_reduction():
    return model([node("ScatterElements", ["x", "i", "u"], ["y"], name="se", reduction="mean")],
                 [vi("x", [2, 5]), vi("i", [2, 2], I64), vi("u", [2, 2])], [vi("y", None)],
                 opset=18)


@register
def scatter_nd_bad_updates():
    # Updates must be [3, 5] for three row indices of a [2, 5] tensor.
    return model([node("ScatterND", ["x", "t", "rows"], ["y"], name="snd")],
                 [vi("x", [2, 5]), vi("t", [3, 1], I64), vi("rows", [3, 4])], [vi("y", None)],
                 opset=16)


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in MODELS:
        sys.exit(f"usage: {sys.argv[0]} NAME OUT.onnx\n  names: {' '.join(sorted(MODELS))}")
    with open(sys.argv[2], "wb") as f:
        f.write(MODELS[sys.argv[1]]().SerializeToString())


if __name__ == "__main__":
    main()
