#!/usr/bin/env python3
"""Writes one small ONNX model with data-dependent output shapes (NonZero, Unique, Compress,
NonMaxSuppression, TopK with a runtime K, their consumers), chosen by name, for
onnx-dynamic-shapes.test.

    make_dynamic_shape_models.py NAME OUT.onnx

Built with onnx.helper and numpy at test time (helpers shared through onnx_test_models.py), never passed
through onnx.checker (some are invalid on purpose).
"""

import numpy as np
from onnx import TensorProto, helper, numpy_helper
from onnx_test_models import Registry, model, vi

F = TensorProto.FLOAT
I64 = TensorProto.INT64
B = TensorProto.BOOL

register = Registry()


def ints(name, values, dtype=np.int64):
    return numpy_helper.from_array(np.array(values, dtype=dtype), name)


node = helper.make_node


@register
def non_zero():
    return model([node("NonZero", ["x"], ["nz"], name="nz")], [vi("x", [3, 4])], [vi("nz", None, I64)])


@register
def non_zero_known():
    return model([node("NonZero", ["c"], ["nz"], name="nz")], [], [vi("nz", None, I64)],
                 [ints("c", [[1, 0, 2], [0, 0, 3]])])


@register
def non_zero_chain():
    # NonZero -> Transpose -> GatherND -> Unsqueeze: the extent moves with each op.
    return model(
        [node("NonZero", ["x"], ["nz"], name="nz"),
         node("Transpose", ["nz"], ["pairs"], name="t", perm=[1, 0]),
         node("GatherND", ["x", "pairs"], ["picked"], name="g"),
         node("Unsqueeze", ["picked", "axes"], ["col"], name="u")],
        [vi("x", [3, 4])], [vi("col", None)], [ints("axes", [0])])


@register
def non_zero_reduce():
    return model(
        [node("NonZero", ["x"], ["nz"], name="nz"),
         node("ReduceSum", ["nz"], ["s"], name="sum", keepdims=0)],
        [vi("x", [3, 4])], [vi("s", None, I64)])


@register
def non_zero_arg_max():
    return model(
        [node("NonZero", ["x"], ["nz"], name="nz"),
         node("ArgMax", ["nz"], ["s"], name="argmax", axis=1, keepdims=0)],
        [vi("x", [3, 4])], [vi("s", None, I64)])


@register
def non_zero_top_k():
    # K = min(5, count) computed from Shape, as torchvision's detection heads do; the labels are
    # ConstantOfShape(Shape(values)); the boxes are reshaped with a size from Shape too.
    return model(
        [node("Greater", ["x", "t"], ["mask"], name="gt"),
         node("NonZero", ["mask"], ["nz"], name="nz"),
         node("Squeeze", ["nz", "axis0"], ["idx"], name="sq"),
         node("Gather", ["x", "idx"], ["s"], name="g", axis=0),
         node("Shape", ["s"], ["shape"], name="shape"),
         node("Gather", ["shape", "zero"], ["n"], name="n", axis=0),
         node("Unsqueeze", ["n", "axis0"], ["n1"], name="n1"),
         node("Concat", ["five", "n1"], ["kk"], name="kk", axis=0),
         node("ReduceMin", ["kk"], ["k"], name="k", keepdims=1),
         node("TopK", ["s", "k"], ["values", "order"], name="top", axis=0),
         node("Shape", ["values"], ["vshape"], name="vshape"),
         node("ConstantOfShape", ["vshape"], ["labels"], name="labels",
              value=helper.make_tensor("v", I64, [1], [7])),
         node("Concat", ["n1", "one"], ["rows"], name="rows", axis=0),
         node("Reshape", ["s", "rows"], ["col"], name="col")],
        [vi("x", [12])], [vi("values", None), vi("labels", None, I64), vi("col", None)],
        [ints("axis0", [0]), ints("zero", 0), ints("five", [5]), ints("one", [1]),
         numpy_helper.from_array(np.array(0.5, np.float32), "t")])


@register
def non_zero_broadcast():
    # A static operand of size 4 along the data-dependent dim cannot match it.
    return model(
        [node("NonZero", ["x"], ["nz"], name="nz"),
         node("Add", ["nz", "w"], ["y"], name="add")],
        [vi("x", [2, 2])], [vi("y", None, I64)], [ints("w", [[1, 2, 3, 4]])])


@register
def top_k_runtime_k():
    return model([node("TopK", ["x", "k"], ["v", "i"], name="topk", axis=1)],
                  [vi("x", [2, 5]), vi("k", [1], I64)], [vi("v", None), vi("i", None, I64)])


@register
def compress():
    return model([node("Compress", ["x", "c"], ["y"], name="cmp", axis=1)],
                 [vi("x", [2, 5]), vi("c", [3], B)], [vi("y", None)])


@register
def compress_known():
    return model([node("Compress", ["x", "c"], ["y"], name="cmp")], [vi("x", [2, 3])],
                 [vi("y", None)], [numpy_helper.from_array(np.array([0, 1, 1, 0, 1], bool), "c")])


@register
def unique():
    return model([node("Unique", ["x"], ["y", "idx", "inv", "cnt"], name="u", axis=-1)],
                 [vi("x", [2, 5])], [vi("y", None), vi("idx", None, I64), vi("inv", None, I64),
                                     vi("cnt", None, I64)], opset=11)


@register
def nms():
    return model(
        [node("NonMaxSuppression", ["b", "s", "m", "iou"], ["sel"], name="nms")],
        [vi("b", [2, 8, 4]), vi("s", [2, 3, 8]), vi("iou", [1])], [vi("sel", None, I64)],
        [ints("m", [2])], opset=11)


if __name__ == "__main__":
    register.main()
