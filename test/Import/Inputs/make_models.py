#!/usr/bin/env python3
"""Writes one small ONNX model, chosen by name, for the importer's lit tests.

    make_models.py NAME OUT.onnx

Models are built with onnx.helper and numpy at test time (no binary models in git); weights come from a
seeded generator, so every run writes the same bytes. No model is passed through onnx.checker: some are
invalid on purpose. Run with Debian's /usr/bin/python3 (python3-onnx, python3-numpy).
"""

import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

F = TensorProto.FLOAT
I64 = TensorProto.INT64

MODELS = {}


def register(fn):
    MODELS[fn.__name__] = fn
    return fn


def vi(name, shape, dtype=F):
    return helper.make_tensor_value_info(name, dtype, shape)


def init(name, array):
    return numpy_helper.from_array(np.asarray(array), name)


def ints(name, values):
    return init(name, np.array(values, dtype=np.int64))


def weights(rng, *shape):
    return rng.standard_normal(shape).astype(np.float32)


def model(nodes, inputs, outputs, inits=(), opset=13, extra_opsets=()):
    graph = helper.make_graph(nodes, "test", inputs, outputs, initializer=list(inits))
    opsets = [helper.make_opsetid("", opset)] if opset is not None else []
    opsets += [helper.make_opsetid(d, v) for d, v in extra_opsets]
    m = helper.make_model(graph, opset_imports=opsets, producer_name="mie-tests")
    m.ir_version = 8
    return m


node = helper.make_node

# ----------------------------------------------------------------------------------------------------
# Conv, BatchNormalization, pooling
# ----------------------------------------------------------------------------------------------------


@register
def conv_bn_relu():
    rng = np.random.default_rng(1)
    return model(
        [node("Conv", ["input", "conv1.weight", "conv1.bias"], ["c"], name="conv1", pads=[1, 1, 1, 1]),
         node("BatchNormalization", ["c", "bn.scale", "bn.bias", "bn.mean", "bn.var"], ["b"],
              name="bn1", epsilon=1e-3),
         node("Relu", ["b"], ["output"], name="relu1")],
        [vi("input", [1, 3, 8, 8])], [vi("output", [1, 4, 8, 8])],
        [init("conv1.weight", weights(rng, 4, 3, 3, 3)), init("conv1.bias", weights(rng, 4)),
         init("bn.scale", weights(rng, 4)), init("bn.bias", weights(rng, 4)),
         init("bn.mean", weights(rng, 4)), init("bn.var", np.abs(weights(rng, 4)))])


@register
def conv_variants():
    rng = np.random.default_rng(2)
    x = "input"
    nodes = [
        node("Conv", [x, "w"], ["no_bias"], name="conv_nobias", strides=[2, 2]),
        node("Conv", [x, "wg"], ["grouped"], name="conv_group", group=2, dilations=[2, 2],
             pads=[2, 2, 2, 2]),
        node("Conv", [x, "w"], ["same_upper"], name="conv_same_upper", auto_pad="SAME_UPPER",
             strides=[2, 2]),
        node("Conv", [x, "w2"], ["same_lower"], name="conv_same_lower", auto_pad="SAME_LOWER"),
        node("Conv", [x, "w"], ["valid"], name="conv_valid", auto_pad="VALID", kernel_shape=[3, 3]),
    ]
    outs = [vi(n, None) for n in ["no_bias", "grouped", "same_upper", "same_lower", "valid"]]
    return model(nodes, [vi("input", [1, 4, 9, 9])], outs,
                 [init("w", weights(rng, 8, 4, 3, 3)), init("wg", weights(rng, 8, 2, 3, 3)),
                  init("w2", weights(rng, 8, 4, 2, 2))])


@register
def pools():
    nodes = [
        node("MaxPool", ["input"], ["max"], name="maxpool", kernel_shape=[3, 3], strides=[2, 2],
             pads=[1, 1, 1, 1]),
        node("MaxPool", ["input"], ["max_ceil"], name="maxpool_ceil", kernel_shape=[2, 2],
             strides=[2, 2], ceil_mode=1, dilations=[1, 1]),
        node("AveragePool", ["input"], ["avg"], name="avgpool", kernel_shape=[3, 3],
             pads=[1, 1, 1, 1], count_include_pad=1),
        node("AveragePool", ["input"], ["avg_same"], name="avgpool_same", kernel_shape=[2, 2],
             strides=[2, 2], auto_pad="SAME_UPPER"),
        node("GlobalAveragePool", ["input"], ["gap"], name="gap"),
    ]
    outs = [vi(n, None) for n in ["max", "max_ceil", "avg", "avg_same", "gap"]]
    return model(nodes, [vi("input", [1, 2, 7, 7])], outs)


@register
def lp_pools():
    nodes = [node("LpPool", ["input"], ["lp2"], name="lp2", kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
             node("LpPool", ["input"], ["lp3"], name="lp3", kernel_shape=[2, 2], p=3)]
    return model(nodes, [vi("input", [1, 2, 7, 7])], [vi("lp2", None), vi("lp3", None)], opset=18)


@register
def lp_pool_ceil():
    return model([node("LpPool", ["input"], ["y"], name="lp_ceil", kernel_shape=[2, 2],
                       strides=[2, 2], ceil_mode=1)],
                 [vi("input", [1, 2, 7, 7])], [vi("y", None)], opset=18)


# ----------------------------------------------------------------------------------------------------
# Elementwise
# ----------------------------------------------------------------------------------------------------


@register
def unary():
    ops = ["Relu", "Sigmoid", "Tanh", "Erf", "Exp", "Log", "Sqrt", "Neg", "Abs", "Reciprocal",
           "HardSwish", "Identity", "Dropout"]
    nodes, prev = [], "input"
    for op in ops:
        out = op.lower()
        nodes.append(node(op, [prev], [out], name=out))
        prev = out
    nodes.append(node("HardSigmoid", [prev], ["output"], name="hardsigmoid", alpha=0.25, beta=0.4))
    return model(nodes, [vi("input", [2, 3])], [vi("output", [2, 3])], opset=14)


@register
def optional_tensors():
    """OptionalHasElement of a tensor (true) and of an omitted input (false), OptionalGetElement of
    a tensor (the tensor): opset 18's tensor forms."""
    nodes = [helper.make_node("OptionalHasElement", ["x"], ["has"]),
             helper.make_node("OptionalHasElement", [""], ["empty"]),
             helper.make_node("OptionalHasElement", [], ["none"]),
             helper.make_node("OptionalGetElement", ["x"], ["got"])]
    return model(nodes, [vi("x", [4])],
                 [vi("has", [], TensorProto.BOOL), vi("empty", [], TensorProto.BOOL),
                  vi("none", [], TensorProto.BOOL), vi("got", [4])], opset=18)


@register
def binary():
    rng = np.random.default_rng(3)
    nodes = [
        node("Add", ["a", "bias"], ["add"], name="add"),
        node("Sub", ["add", "b"], ["sub"], name="sub"),
        node("Mul", ["sub", "scale"], ["mul"], name="mul"),
        node("Div", ["mul", "b"], ["div"], name="div"),
        node("Pow", ["div", "exponent"], ["pow"], name="pow"),
        node("Max", ["pow", "a", "b"], ["max"], name="max3"),
        node("Min", ["max", "bias"], ["output"], name="min2"),
    ]
    return model(nodes, [vi("a", [2, 3, 4]), vi("b", [2, 3, 4])], [vi("output", [2, 3, 4])],
                 [init("bias", weights(rng, 4)), init("scale", weights(rng, 3, 1)),
                  init("exponent", np.array(2, dtype=np.int64))])


@register
def sum_variadic():
    return model([node("Sum", ["a", "b", "a"], ["s3"], name="sum3"),
                  node("Sum", ["s3"], ["output"], name="sum1")],
                 [vi("a", [2, 3]), vi("b", [3])], [vi("output", None)])


@register
def compare_where_cast():
    nodes = [
        node("Equal", ["a", "b"], ["eq"], name="eq"),
        node("Less", ["a", "b"], ["lt"], name="lt"),
        node("Greater", ["a", "b"], ["gt"], name="gt"),
        node("LessOrEqual", ["a", "b"], ["le"], name="le"),
        node("GreaterOrEqual", ["a", "b"], ["ge"], name="ge"),
        node("Where", ["lt", "a", "b"], ["where"], name="where"),
        node("Cast", ["where"], ["half"], name="to_f16", to=TensorProto.FLOAT16),
        node("Cast", ["ge"], ["ge_int"], name="to_i32", to=TensorProto.INT32),
    ]
    return model(nodes, [vi("a", [4]), vi("b", [4])],
                 [vi("eq", None, TensorProto.BOOL), vi("gt", None, TensorProto.BOOL),
                  vi("le", None, TensorProto.BOOL), vi("half", None, TensorProto.FLOAT16),
                  vi("ge_int", None, TensorProto.INT32)])


@register
def clip_opset7():
    return model([node("Clip", ["input"], ["c1"], name="clip_both", min=0.0, max=6.0),
                  node("Clip", ["c1"], ["output"], name="clip_max", max=1.5)],
                 [vi("input", [8])], [vi("output", [8])], opset=7)


@register
def clip_opset13():
    nodes = [node("Constant", [], ["lo"], name="lo_const", value_float=-1.0),
             node("Clip", ["input", "lo", "hi"], ["c1"], name="clip_both"),
             node("Clip", ["c1", "", "hi"], ["c2"], name="clip_max"),
             node("Clip", ["c2"], ["output"], name="clip_none")]
    return model(nodes, [vi("input", [8])], [vi("output", [8])],
                 [init("hi", np.array(2.5, dtype=np.float32))])


# ----------------------------------------------------------------------------------------------------
# MatMul, Gemm, Softmax, LayerNormalization, reductions
# ----------------------------------------------------------------------------------------------------


@register
def gemm_matmul():
    rng = np.random.default_rng(4)
    nodes = [
        node("MatMul", ["x", "w"], ["mm"], name="matmul"),
        node("Flatten", ["mm"], ["flat"], name="flatten", axis=1),
        node("Gemm", ["flat", "fc.weight", "fc.bias"], ["fc"], name="fc", transB=1, alpha=0.5,
             beta=2.0),
        node("Gemm", ["fc", "w2"], ["output"], name="gemm_noc"),
    ]
    return model(nodes, [vi("x", [2, 3, 4])], [vi("output", [2, 5])],
                 [init("w", weights(rng, 4, 6)), init("fc.weight", weights(rng, 7, 18)),
                  init("fc.bias", weights(rng, 7)), init("w2", weights(rng, 7, 5))])


@register
def softmax_opset11():
    return model([node("Softmax", ["input"], ["s_axis1"], name="softmax_axis1", axis=1),
                  node("Softmax", ["input"], ["s_last"], name="softmax_last", axis=2),
                  node("Softmax", ["input"], ["s_default"], name="softmax_default")],
                 [vi("input", [2, 3, 4])], [vi(n, None) for n in ["s_axis1", "s_last", "s_default"]],
                 opset=11)


@register
def softmax_opset13():
    return model([node("Softmax", ["input"], ["s_axis1"], name="softmax_axis1", axis=1),
                  node("Softmax", ["input"], ["s_default"], name="softmax_default")],
                 [vi("input", [2, 3, 4])], [vi(n, None) for n in ["s_axis1", "s_default"]])


@register
def layernorm():
    rng = np.random.default_rng(5)
    return model([node("LayerNormalization", ["input", "ln.scale", "ln.bias"], ["output"],
                       name="ln", axis=-1, epsilon=1e-6),
                  node("LayerNormalization", ["input", "ln2.scale"], ["output2"], name="ln_nobias",
                       axis=1)],
                 [vi("input", [2, 3, 8])], [vi("output", None), vi("output2", None)],
                 [init("ln.scale", weights(rng, 8)), init("ln.bias", weights(rng, 8)),
                  init("ln2.scale", weights(rng, 3, 8))], opset=17)


@register
def reduce_opset11():
    return model([node("ReduceMean", ["input"], ["mean"], name="mean", axes=[-1]),
                  node("ReduceSum", ["input"], ["sum"], name="sum", axes=[0, 2], keepdims=0),
                  node("ReduceMax", ["input"], ["max"], name="max"),
                  node("ReduceMin", ["input"], ["min"], name="min", axes=[1], keepdims=0)],
                 [vi("input", [2, 3, 4])], [vi(n, None) for n in ["mean", "sum", "max", "min"]],
                 opset=11)


@register
def reduce_opset13():
    return model([node("ReduceSum", ["input", "axes"], ["sum"], name="sum", keepdims=0),
                  node("ReduceSum", ["input"], ["sum_all"], name="sum_all"),
                  node("ReduceSum", ["input"], ["sum_noop"], name="sum_noop", noop_with_empty_axes=1),
                  node("ReduceMean", ["input"], ["mean"], name="mean", axes=[1])],
                 [vi("input", [2, 3, 4])], [vi(n, None) for n in ["sum", "sum_all", "sum_noop", "mean"]],
                 [ints("axes", [1])])


@register
def reduce_opset18():
    return model([node("ReduceMean", ["input", "axes"], ["mean"], name="mean"),
                  node("ReduceMax", ["input"], ["max"], name="max", keepdims=0)],
                 [vi("input", [2, 3, 4])], [vi(n, None) for n in ["mean", "max"]],
                 [ints("axes", [-1, 0])], opset=18)


# ----------------------------------------------------------------------------------------------------
# Shape chains (fold at import time)
# ----------------------------------------------------------------------------------------------------


@register
def shape_chain():
    # The classic export: x.view(x.size(0), -1), plus int64 scalar arithmetic on the shape.
    nodes = [
        node("Shape", ["input"], ["shape"], name="shape"),
        node("Gather", ["shape", "zero"], ["batch"], name="gather_batch", axis=0),
        node("Unsqueeze", ["batch", "axes0"], ["batch1"], name="unsqueeze_batch"),
        node("Concat", ["batch1", "minus_one"], ["target"], name="concat_shape", axis=0),
        node("Reshape", ["input", "target"], ["flat"], name="reshape_flat"),
        # (dim2 * dim3) / 2 - 1 + 1 computed on scalars, then a Cast round trip, Slice and Squeeze.
        node("Gather", ["shape", "two"], ["d2"], name="gather_d2"),
        node("Gather", ["shape", "three"], ["d3"], name="gather_d3"),
        node("Mul", ["d2", "d3"], ["d23"], name="mul_dims"),
        node("Div", ["d23", "two"], ["half"], name="div_dims"),
        node("Sub", ["half", "one"], ["hm1"], name="sub_dims"),
        node("Add", ["hm1", "one"], ["h"], name="add_dims"),
        node("Cast", ["h"], ["hf"], name="cast_f", to=TensorProto.FLOAT),
        node("Cast", ["hf"], ["hi"], name="cast_i", to=TensorProto.INT64),
        node("Slice", ["shape", "s_start", "s_end"], ["lead"], name="slice_shape"),
        node("Unsqueeze", ["hi", "axes0"], ["hi1"], name="unsqueeze_h"),
        node("Concat", ["lead", "hi1", "two1"], ["target2"], name="concat2", axis=0),
        node("Reshape", ["input", "target2"], ["output2"], name="reshape2"),
        node("Squeeze", ["batch1", "axes0"], ["batch0"], name="squeeze_batch"),
        node("ConstantOfShape", ["batch1"], ["ones"], name="const_of_shape",
             value=helper.make_tensor("v", I64, [1], [1])),
        node("Concat", ["ones", "batch1", "minus_one"], ["target3"], name="concat3", axis=0),
        node("Reshape", ["input", "target3"], ["output3"], name="reshape3"),
    ]
    return model(nodes, [vi("input", [2, 3, 4, 5])],
                 [vi("flat", None), vi("output2", None), vi("output3", None)],
                 [ints("zero", 0), ints("one", 1), ints("two", 2), ints("three", 3), ints("axes0", [0]),
                  ints("minus_one", [-1]), ints("s_start", [0]), ints("s_end", [2]),
                  ints("two1", [2])])


@register
def shape_chain_expand():
    # PyTorch's expand export: ConstantOfShape -> Mul -> Equal -> Where -> Expand.
    nodes = [
        node("Shape", ["target_like"], ["tshape"], name="tshape"),
        node("Shape", ["tshape"], ["rank"], name="rank"),
        node("ConstantOfShape", ["rank"], ["ones"], name="ones",
             value=helper.make_tensor("v", I64, [1], [1])),
        node("Mul", ["ones", "minus_one"], ["neg"], name="neg_ones"),
        node("Equal", ["tshape", "neg"], ["is_neg"], name="equal"),
        node("Where", ["is_neg", "ones", "tshape"], ["eshape"], name="where"),
        node("Expand", ["input", "eshape"], ["output"], name="expand"),
    ]
    return model(nodes, [vi("input", [3, 1]), vi("target_like", [2, 3, 4])], [vi("output", None)],
                 [ints("minus_one", -1)])


@register
def shape_chain_tf_same_pad():
    # timm's TF "same" padding (EfficientDet-Lite): the pads computed from the input size through
    # Cast, Div, Ceil, Clip (min omitted: only max given) and Div, concatenated and sliced, then Pad.
    nodes = [node("Shape", ["input"], ["shape"], name="shape")]
    for d, index in (("h", "two"), ("w", "three")):
        nodes += [
            node("Gather", ["shape", index], [d], name=f"gather_{d}", axis=0),
            node("Cast", [d], [d + "f"], name=f"cast_{d}", to=TensorProto.FLOAT),
            node("Div", [d + "f", "stride_f"], [d + "q"], name=f"div_{d}"),
            node("Ceil", [d + "q"], [d + "c"], name=f"ceil_{d}"),
            node("Cast", [d + "c"], [d + "ci"], name=f"cast_back_{d}", to=TensorProto.INT64),
            node("Sub", [d + "ci", "one"], [d + "a"], name=f"sub_{d}"),
            node("Mul", [d + "a", "two"], [d + "b"], name=f"mul_{d}"),
            node("Add", [d + "b", "three"], [d + "e"], name=f"add_{d}"),
            node("Sub", [d + "e", d], [d + "p0"], name=f"pad_{d}"),
            node("Clip", [d + "p0", "", "big"], [d + "p"], name=f"clip_{d}"),
            node("Clip", [d + "p", "zero"], [d + "pc"], name=f"clip_min_{d}"),
            node("Div", [d + "pc", "two"], [d + "lo"], name=f"half_{d}"),
            node("Sub", [d + "pc", d + "lo"], [d + "hi"], name=f"rest_{d}"),
            node("Unsqueeze", [d + "lo", "axes0"], [d + "lo1"], name=f"unsqueeze_lo_{d}"),
            node("Unsqueeze", [d + "hi", "axes0"], [d + "hi1"], name=f"unsqueeze_hi_{d}"),
        ]
    nodes += [
        node("Concat", ["zeros2", "hlo1", "wlo1", "zeros2", "hhi1", "whi1", "tail"], ["pads10"],
             name="concat_pads", axis=0),
        node("Slice", ["pads10", "s_start", "s_end"], ["pads"], name="slice_pads"),
        node("Pad", ["input", "pads"], ["output"], name="pad"),
    ]
    return model(nodes, [vi("input", [1, 3, 15, 17])], [vi("output", None)],
                 [ints("zero", 0), ints("one", 1), ints("two", 2), ints("three", 3),
                  ints("big", 1000), ints("axes0", [0]), ints("zeros2", [0, 0]), ints("tail", [7, 7]),
                  ints("s_start", [0]), ints("s_end", [8]),
                  numpy_helper.from_array(np.array(2.0, np.float32), "stride_f")])


@register
def shape_opset15():
    nodes = [node("Shape", ["input"], ["tail"], name="shape_tail", start=-2),
             node("Shape", ["input"], ["mid"], name="shape_mid", start=1, end=-1),
             node("Concat", ["minus_one", "tail"], ["target"], name="concat_tail", axis=0),
             node("Reshape", ["input", "target"], ["output"], name="reshape_tail"),
             node("Concat", ["mid", "minus_one"], ["target2"], name="concat_mid", axis=0),
             node("Reshape", ["input", "target2"], ["output2"], name="reshape_mid")]
    return model(nodes, [vi("input", [1, 2, 3, 4])], [vi("output", None), vi("output2", None)],
                 [ints("minus_one", [-1])], opset=15)


@register
def shape_materialize():
    # A folded shape consumed by a real op as a tensor: only then does a small dense constant appear.
    nodes = [node("Shape", ["input"], ["shape"], name="shape"),
             node("Cast", ["shape"], ["shape_f"], name="cast", to=TensorProto.FLOAT),
             node("Add", ["vec", "shape_f"], ["output"], name="add")]
    return model(nodes, [vi("input", [2, 3, 4]), vi("vec", [3])], [vi("output", None)])


@register
def fold_misc():
    # More folds: Split, Size, Neg, Abs, Range on known values; Range's result feeds a real Gather.
    nodes = [
        node("Shape", ["input"], ["shape"], name="shape"),
        node("Split", ["shape", "halves"], ["lead", "tail"], name="split_shape", axis=0),
        node("Concat", ["lead", "minus_one"], ["target"], name="concat", axis=0),
        node("Reshape", ["input", "target"], ["reshaped"], name="reshape"),
        node("Size", ["input"], ["size"], name="size"),
        node("Neg", ["size"], ["neg"], name="neg"),
        node("Abs", ["neg"], ["count"], name="abs"),
        node("Range", ["zero", "three", "one"], ["idx"], name="range"),
        node("Gather", ["input", "idx"], ["gathered"], name="gather", axis=1),
        node("Dropout", ["input"], ["dropped", "mask"], name="dropout"),
    ]
    return model(nodes, [vi("input", [2, 3, 4, 5])],
                 [vi("reshaped", None), vi("count", None, I64), vi("gathered", None),
                  vi("mask", None, TensorProto.BOOL)],
                 [ints("halves", [2, 2]), ints("minus_one", [-1]), ints("zero", 0), ints("three", 3),
                  ints("one", 1)])


@register
def opset_newer():
    return model([node("Relu", ["input"], ["output"], name="relu")],
                 [vi("input", [4])], [vi("output", None)], opset=20)


# ----------------------------------------------------------------------------------------------------
# Tensor ops
# ----------------------------------------------------------------------------------------------------


@register
def tensor_ops():
    rng = np.random.default_rng(6)
    nodes = [
        node("Transpose", ["input"], ["t"], name="transpose", perm=[0, 2, 1]),
        node("Concat", ["t", "t"], ["cat"], name="concat", axis=-1),
        node("Gather", ["table", "ids"], ["emb"], name="embedding", axis=0),
        node("Gather", ["input", "idx1"], ["g1"], name="gather_axis1", axis=1),
        node("Expand", ["col", "eshape"], ["expanded"], name="expand"),
        node("Slice", ["input", "starts", "ends", "axes", "steps"], ["sl"], name="slice"),
        node("Split", ["input", "split"], ["sp0", "sp1"], name="split", axis=2),
        node("Pad", ["input", "pads", "pad_value"], ["padded"], name="pad", mode="constant"),
        node("Pad", ["input", "pads_r"], ["reflected"], name="pad_reflect", mode="reflect"),
        node("Reshape", ["input", "rshape"], ["reshaped"], name="reshape"),
        node("Unsqueeze", ["input", "uaxes"], ["unsq"], name="unsqueeze"),
        node("Squeeze", ["unsq", "uaxes"], ["sq"], name="squeeze"),
        node("Squeeze", ["unsq"], ["sq_all"], name="squeeze_all"),
        node("Transpose", ["input"], ["t_default"], name="transpose_default"),
    ]
    outs = ["cat", "emb", "g1", "expanded", "sl", "sp0", "sp1", "padded", "reflected", "reshaped",
            "sq", "sq_all", "t_default"]
    return model(nodes, [vi("input", [2, 3, 4]), vi("ids", [2, 5], I64), vi("col", [3, 1])],
                 [vi(n, None) for n in outs],
                 [init("table", weights(rng, 10, 6)), ints("idx1", [2, 0]), ints("eshape", [2, 1, 4]),
                  ints("starts", [-1, 0]), ints("ends", [-100, 10**18]), ints("axes", [1, 2]),
                  ints("steps", [-2, 3]), ints("split", [1, 3]), ints("pads", [0, 1, 0, 0, 1, 2]),
                  init("pad_value", np.array(0.5, dtype=np.float32)),
                  ints("pads_r", [0, 0, 1, 0, 0, 2]), ints("rshape", [0, -1, 2]), ints("uaxes", [0, -1])])


@register
def tensor_ops_old():
    # Attribute forms: Slice before opset 10, Squeeze/Unsqueeze/Split before 13, Pad before 11.
    nodes = [
        node("Slice", ["input"], ["sl"], name="slice", starts=[1], ends=[3], axes=[2]),
        node("Unsqueeze", ["input"], ["unsq"], name="unsqueeze", axes=[1]),
        node("Squeeze", ["unsq"], ["sq"], name="squeeze", axes=[1]),
        node("Split", ["input"], ["sp0", "sp1"], name="split", axis=2, split=[3, 1]),
        node("Split", ["input"], ["eq0", "eq1"], name="split_equal", axis=2),
        node("Pad", ["input"], ["padded"], name="pad", pads=[0, 0, 1, 0, 0, 1], value=1.5),
        node("Pad", ["input"], ["edge"], name="pad_edge", pads=[0, 1, 0, 0, 1, 0], mode="edge"),
    ]
    outs = ["sl", "sq", "sp0", "sp1", "eq0", "eq1", "padded", "edge"]
    return model(nodes, [vi("input", [2, 3, 4])], [vi(n, None) for n in outs], opset=9)


@register
def tensor_ops_opset11():
    nodes = [node("Unsqueeze", ["input"], ["unsq"], name="unsqueeze", axes=[0, 3]),
             node("Squeeze", ["unsq"], ["sq"], name="squeeze", axes=[-2]),
             node("Split", ["input"], ["sp0", "sp1"], name="split", axis=-1, split=[1, 3]),
             node("Pad", ["input", "pads"], ["padded"], name="pad")]
    return model(nodes, [vi("input", [2, 3, 4])], [vi(n, None) for n in ["sq", "sp0", "sp1", "padded"]],
                 [ints("pads", [1, 0, 0, 0, 0, 1])], opset=11)


@register
def tensor_ops_opset18():
    nodes = [node("Split", ["input"], ["a", "b", "c"], name="split", axis=2, num_outputs=3),
             node("Pad", ["input", "pads", "", "axes"], ["padded"], name="pad")]
    return model(nodes, [vi("input", [2, 3, 7])], [vi(n, None) for n in ["a", "b", "c", "padded"]],
                 [ints("pads", [1, 2]), ints("axes", [-1])], opset=18)


@register
def constants():
    nodes = [node("Constant", [], ["c_tensor"], name="c_tensor",
                  value=numpy_helper.from_array(np.arange(6, dtype=np.float32).reshape(2, 3), "v")),
             node("Constant", [], ["c_float"], name="c_float", value_float=0.5),
             node("Constant", [], ["c_floats"], name="c_floats", value_floats=[1.0, 2.0, 3.0]),
             node("Constant", [], ["c_int"], name="c_int", value_int=1),
             node("Constant", [], ["c_ints"], name="c_ints", value_ints=[3, 2]),
             node("Add", ["input", "c_tensor"], ["a"], name="add_tensor"),
             node("Mul", ["a", "c_float"], ["b"], name="mul_float"),
             node("Sub", ["b", "c_floats"], ["c"], name="sub_floats"),
             node("Reshape", ["c", "c_ints"], ["d"], name="reshape_ints"),
             node("Gather", ["d", "c_int"], ["output"], name="gather_int", axis=0)]
    return model(nodes, [vi("input", [2, 3])], [vi("output", None)])


@register
def dtypes():
    # Initializers of every supported type, stored as raw_data and as typed fields, returned directly.
    def typed(name, dtype, dims, vals):
        return helper.make_tensor(name, dtype, dims, vals, raw=False)
    inits = [
        init("f32_raw", np.arange(4, dtype=np.float32)),
        typed("f32_typed", F, [4], [0.0, 1.0, 2.0, 3.0]),
        init("f16_raw", np.arange(4, dtype=np.float16)),
        typed("f16_typed", TensorProto.FLOAT16, [4], np.arange(4, dtype=np.float16)),
        typed("bf16_typed", TensorProto.BFLOAT16, [4], [0.0, 1.0, 2.0, 3.0]),
        init("f64_raw", np.arange(4, dtype=np.float64)),
        typed("f64_typed", TensorProto.DOUBLE, [4], [0.0, 1.0, 2.0, 3.0]),
        init("i64_raw", np.arange(2000, dtype=np.int64)),
        typed("i32_typed", TensorProto.INT32, [4], [0, 1, 2, 3]),
        init("i8_raw", np.arange(4, dtype=np.int8)),
        typed("u8_typed", TensorProto.UINT8, [4], [0, 1, 2, 255]),
        typed("u16_typed", TensorProto.UINT16, [2], [1, 65535]),
        typed("u32_typed", TensorProto.UINT32, [2], [1, 4294967295]),
        typed("u64_typed", TensorProto.UINT64, [2], [1, 18446744073709551615]),
        init("u64_raw", np.array([2, 2**63], dtype=np.uint64)),
        init("bool_raw", np.array([True, False, True, True])),
        typed("bool_typed", TensorProto.BOOL, [2], [True, False]),
    ]
    names = [t.name for t in inits]
    nodes = [node("Identity", [n], [n + "_out"], name="id_" + n) for n in names]
    outs = [helper.make_tensor_value_info(t.name + "_out", t.data_type, None) for t in inits]
    return model(nodes, [], outs, inits)


@register
def unnamed_nodes():
    return model([node("Relu", ["input"], ["r"]), node("Neg", ["r"], ["output"])],
                 [vi("input", [4])], [vi("output", [4])])


# ----------------------------------------------------------------------------------------------------
# Inputs: symbolic dims
# ----------------------------------------------------------------------------------------------------


@register
def symbolic_batch():
    return model([node("Relu", ["input"], ["output"], name="relu")],
                 [vi("input", ["N", 3, "height", None])], [vi("output", None)])


@register
def pads_input():
    """Pad whose pads are a graph input (bound with --input-value)."""
    return model([node("Pad", ["x", "pads"], ["y"], name="pad")],
                 [vi("x", [1, 2, 3, 4]), vi("pads", [8], TensorProto.INT64)], [vi("y", None)])


# ----------------------------------------------------------------------------------------------------
# Errors
# ----------------------------------------------------------------------------------------------------


@register
def unsupported_op():
    return model([node("Relu", ["input"], ["r"], name="relu"),
                  node("ImageDecoder", ["r"], ["output"], name="decode")],
                 [vi("input", [4])], [vi("output", [4])])


@register
def dead_branch():
    # No output depends on the ImageDecoder: it is not imported (as onnxruntime drops it).
    return model([node("Relu", ["input"], ["output"], name="relu"),
                  node("ImageDecoder", ["input"], ["unused"], name="decode"),
                  node("Neg", ["unused"], ["unused2"], name="neg")],
                 [vi("input", [4])], [vi("output", [4])])


@register
def unsupported_many():
    return model([node("ImageDecoder", ["input"], ["a"], name="decode1"),
                  node("Relu", ["a"], ["b"], name="relu_after"),
                  node("ImageDecoder", ["input"], ["nz"], name="decode"),
                  node("Relu", ["input"], ["c"], name="relu_ok"),
                  node("FusedGemm", ["c", "c"], ["d"], name="fused", domain="com.microsoft"),
                  node("Add", ["b", "d"], ["output"], name="add")],
                 [vi("input", [4])], [vi("output", [4]), vi("nz", None, I64)],
                 extra_opsets=[("com.microsoft", 1)])


@register
def mixed_errors():
    rng = np.random.default_rng(10)
    return model([node("ImageDecoder", ["input"], ["a"], name="decode"),
                  node("Pad", ["input", "pads"], ["b"], name="p_dynamic"),
                  node("Conv", ["image", "w"], ["c"], name="conv_bad", auto_pad="FOO"),
                  node("ImageDecoder", ["image"], ["d"], name="decode2")],
                 [vi("input", [4]), vi("pads", [2], I64), vi("image", [1, 1, 4, 4])],
                 [vi(n, None) for n in "abcd"], [init("w", weights(rng, 1, 1, 3, 3))])


@register
def pad_dynamic_pads():
    # (A Reshape's shape given so is a value symbol: docs/dynamic-shapes.md.)
    return model([node("Pad", ["input", "pads"], ["output"], name="p1")],
                 [vi("input", [2, 3]), vi("pads", [4], I64)], [vi("output", None)])


@register
def pad_computed_pads():
    # Pad's pads computed from two graph inputs (Concat of `rows` and `cols` + 1, twice).
    return model([node("Add", ["cols", "one"], ["cols1"]),
                  node("Concat", ["rows", "cols1", "rows", "cols1"], ["pads"], axis=0),
                  node("Pad", ["input", "pads"], ["output"], name="p2")],
                 [vi("input", [2, 3]), vi("rows", [1], I64), vi("cols", [1], I64)],
                 [vi("output", None)], [ints("one", [1])])


@register
def clip_dynamic_min():
    return model([node("Clip", ["input", "lo"], ["output"], name="clip")],
                 [vi("input", [4]), vi("lo", [])], [vi("output", None)])


@register
def bad_auto_pad():
    rng = np.random.default_rng(7)
    return model([node("Conv", ["input", "w"], ["output"], name="conv_bad", auto_pad="FOO")],
                 [vi("input", [1, 1, 4, 4])], [vi("output", None)], [init("w", weights(rng, 1, 1, 3, 3))])


@register
def bad_attribute_type():
    return model([node("Softmax", ["input"], ["output"], name="softmax", axis=1.5)],
                 [vi("input", [2, 3])], [vi("output", None)])


@register
def bad_shape():
    return model([node("Reshape", ["input", "shape"], ["output"], name="r_bad")],
                 [vi("input", [2, 3])], [vi("output", None)], [ints("shape", [4, -1, 5])])


@register
def add_one_input():
    return model([node("Add", ["input"], ["output"], name="add1")],
                 [vi("input", [4])], [vi("output", None)])


@register
def raw_data_mismatch():
    w = TensorProto(name="w", data_type=F, dims=[4], raw_data=b"\0" * 8)
    return model([node("Add", ["input", "w"], ["output"], name="add")],
                 [vi("input", [4])], [vi("output", None)], [w])


@register
def huge_initializer_raw():
    """4 bytes of raw_data declaring 2^39 floats: refused before anything is allocated."""
    w = TensorProto(name="w", data_type=F, dims=[1 << 20, 1 << 19], raw_data=b"\0" * 4)
    return model([node("Identity", ["w"], ["output"], name="id")], [], [vi("output", None)], [w])


@register
def huge_initializer_typed():
    """No values for 2^39 floats."""
    w = TensorProto(name="w", data_type=F, dims=[1 << 20, 1 << 19])
    return model([node("Identity", ["w"], ["output"], name="id")], [], [vi("output", None)], [w])


@register
def huge_constant_of_shape():
    """A ConstantOfShape to 2^39 floats (2 TiB): refused at its node, nothing of that size built."""
    shape = numpy_helper.from_array(np.array([1 << 20, 1 << 19], np.int64), "shape")
    return model([node("ConstantOfShape", ["shape"], ["output"], name="fill")], [],
                 [vi("output", None)], [shape])


@register
def undefined_input():
    return model([node("Relu", ["nowhere"], ["output"], name="relu")],
                 [vi("input", [4])], [vi("output", None)])


@register
def opset6():
    return model([node("Relu", ["input"], ["output"], name="relu")],
                 [vi("input", [4])], [vi("output", None)], opset=6)


@register
def old_opsets():
    # Opset 1 forms: broadcast/axis flags, consumed_inputs, Reshape's shape attribute, Concat
    # without an axis, Cast to a type name, Dropout and BatchNormalization with is_test.
    rng = np.random.default_rng(14)
    nodes = [
        node("Add", ["a", "b"], ["sum"], name="add_axis", broadcast=1, axis=1),
        node("Mul", ["sum", "s"], ["prod"], name="mul_trailing", broadcast=1,
             consumed_inputs=[0, 0]),
        node("Sub", ["prod", "a"], ["diff"], name="sub_same"),
        node("Relu", ["diff"], ["r"], name="relu", consumed_inputs=[1]),
        node("Dropout", ["r"], ["d"], name="dropout", is_test=1, ratio=0.5),
        node("Reshape", ["d"], ["flat"], name="reshape_attr", shape=[2, 12]),
        node("Concat", ["flat", "flat"], ["cat"], name="concat_default"),
        node("Cast", ["cat"], ["casted"], name="cast_name", to="DOUBLE"),
        node("BatchNormalization", ["x", "g", "beta", "mean", "var"], ["bn"], name="bn",
             is_test=1, spatial=1, consumed_inputs=[0, 0, 0, 1, 1]),
    ]
    c = 3
    return model(nodes, [vi("a", [2, 3, 4]), vi("b", [3]), vi("x", [1, c, 2, 2])],
                 [vi("casted", None, TensorProto.DOUBLE), vi("bn", None)],
                 [init("s", np.array([1.0, 2.0, 3.0, 4.0], np.float32)),
                  init("g", weights(rng, c)), init("beta", weights(rng, c)),
                  init("mean", weights(rng, c)), init("var", np.abs(weights(rng, c)))], opset=1)


@register
def old_tile_upsample():
    # Tile-1 (tiles and axis inputs) and the experimental Upsample-1 (scale attributes).
    return model([node("Tile", ["input", "tiles", "axis"], ["tiled"], name="tile1"),
                  node("Upsample", ["tiled"], ["output"], name="up1", height_scale=2.0,
                       width_scale=3.0, mode="nearest")],
                 [vi("input", [1, 2, 3, 4])], [vi("output", None)],
                 [ints("tiles", [2]), ints("axis", [1])], opset=5)


@register
def old_upsample_bilinear():
    return model([node("Upsample", ["input"], ["output"], name="up_bilinear", height_scale=2.0,
                       width_scale=2.0, mode="bilinear")],
                 [vi("input", [1, 1, 2, 2])], [vi("output", None)], opset=6)


@register
def old_dropout_training():
    return model([node("Dropout", ["input"], ["output"], name="drop")],
                 [vi("input", [4])], [vi("output", None)], opset=6)


@register
def conv_1d_3d():
    # A 1-D convolution (stride 2, dilation 2) and a 3-D one (depth stride 2, depth padding, 2 groups).
    rng = np.random.default_rng(11)
    return model([node("Conv", ["x1", "w1"], ["y1"], name="conv1d", strides=[2], dilations=[2],
                       pads=[1, 1]),
                  node("Conv", ["x3", "w3", "b3"], ["y3"], name="conv3d", strides=[2, 1, 1],
                       pads=[1, 1, 1, 1, 1, 1], group=2)],
                 [vi("x1", [1, 2, 9]), vi("x3", [1, 4, 5, 6, 6])],
                 [vi("y1", None), vi("y3", None)],
                 [init("w1", weights(rng, 3, 2, 3)), init("w3", weights(rng, 6, 2, 3, 3, 3)),
                  init("b3", weights(rng, 6))])


@register
def conv_1d_symbolic():
    # 1-D convolutions over a symbolic batch (an audio model's feature encoder exported with a
    # dynamic batch), and over a symbolic length, which stays refused.
    rng = np.random.default_rng(12)
    return model([node("Conv", ["x", "w"], ["y"], name="conv1d_batch", strides=[2], pads=[1, 1]),
                  node("Conv", ["z", "w"], ["v"], name="conv1d_length")],
                 [vi("x", ["batch", 2, 9]), vi("z", [1, 2, "length"])],
                 [vi("y", None), vi("v", None)], [init("w", weights(rng, 3, 2, 3))])


@register
def pad_wrap_reduce_bool():
    # Pad in wrap mode (one gather per padded axis) and ReduceMax of booleans (through uint8).
    return model([node("Pad", ["x", "pads"], ["padded"], name="pad_wrap", mode="wrap"),
                  node("ReduceMax", ["b", "axes"], ["any"], name="any", keepdims=0)],
                 [vi("x", [2, 3]), vi("b", [2, 3], TensorProto.BOOL)],
                 [vi("padded", None), vi("any", None, TensorProto.BOOL)],
                 [ints("pads", [0, 2, 0, 4]), ints("axes", [1])], opset=20)


@register
def pad_wrap_huge():
    # Pad in wrap mode by INT64_MIN (found by fuzz_onnx_import: the bound check overflowed).
    return model([node("Pad", ["x", "pads"], ["padded"], name="pad_wrap", mode="wrap")],
                 [vi("x", [2, 3])], [vi("padded", None)],
                 [ints("pads", [0, -2**63, 0, 4])], opset=20)


@register
def tfidf_bigrams():
    # TfIdfVectorizer, TF of two bigrams (output columns swapped) over int32 tokens [1, 5].
    return model([node("TfIdfVectorizer", ["x"], ["y"], name="tfidf", mode="TF",
                       min_gram_length=2, max_gram_length=2, max_skip_count=0, ngram_counts=[0, 0],
                       pool_int64s=[1, 2, 2, 3], ngram_indexes=[1, 0])],
                 [vi("x", [1, 5], TensorProto.INT32)], [vi("y", None)], opset=9)


@register
def ml_binarizer_features():
    # ai.onnx.ml: Binarizer, then ArrayFeatureExtractor of columns [2, 0] from a 1-D input.
    return model([node("Binarizer", ["x"], ["b"], name="binarizer", domain="ai.onnx.ml",
                       threshold=0.5),
                  node("ArrayFeatureExtractor", ["b", "cols"], ["y"], name="features",
                       domain="ai.onnx.ml")],
                 [vi("x", [3])], [vi("y", None)], [ints("cols", [2, 0])],
                 extra_opsets=[("ai.onnx.ml", 1)])


def ml_tree(features, trues, falses, leaves=(1, 2)):
    """A one-tree TreeEnsembleRegressor over x [2, 3]: node i tests `features[i]` <= 0.5 and leads
    to `trues[i]` / `falses[i]`, or is a leaf where those are -1; `leaves` are scored."""
    count = len(features)
    modes = ["BRANCH_LEQ" if t != -1 else "LEAF" for t in trues]
    return model([node("TreeEnsembleRegressor", ["x"], ["y"], name="forest", domain="ai.onnx.ml",
                       n_targets=1, nodes_treeids=[0] * count, nodes_nodeids=list(range(count)),
                       nodes_featureids=features, nodes_values=[0.5] * count,
                       nodes_modes=modes, nodes_truenodeids=[max(t, 0) for t in trues],
                       nodes_falsenodeids=[max(f, 0) for f in falses],
                       target_treeids=[0, 0], target_nodeids=list(leaves), target_ids=[0, 0],
                       target_weights=[1.5, -2.0])],
                 [vi("x", [2, 3])], [vi("y", None)], extra_opsets=[("ai.onnx.ml", 3)])


@register
def ml_tree_regressor():
    # One BRANCH_LEQ node on feature 2 and two leaves: one level walked.
    return ml_tree([2, 0, 0], [1, -1, -1], [2, -1, -1])


@register
def ml_tree_cycle():
    # Nodes 1 and 2 lead to each other below the root.
    return ml_tree([2, 0, 1, 0], [1, 2, 1, -1], [3, 3, 3, -1], leaves=(3, 3))


@register
def ml_tree_bad_feature():
    # Node 0 tests feature 7 of X's 3.
    return ml_tree([7, 0, 0], [1, -1, -1], [2, -1, -1])


@register
def ml_tree_classifier_one_class():
    # A one-class TreeEnsembleClassifier: one BRANCH_LEQ node, both leaves voting for the class.
    return model([node("TreeEnsembleClassifier", ["x"], ["label", "scores"], name="forest",
                       domain="ai.onnx.ml", classlabels_int64s=[5], nodes_treeids=[0, 0, 0],
                       nodes_nodeids=[0, 1, 2], nodes_featureids=[1, 0, 0],
                       nodes_values=[0.5, 0.0, 0.0], nodes_modes=["BRANCH_LEQ", "LEAF", "LEAF"],
                       nodes_truenodeids=[1, 0, 0], nodes_falsenodeids=[2, 0, 0],
                       class_treeids=[0, 0], class_nodeids=[1, 2], class_ids=[0, 0],
                       class_weights=[1.0, 1.0])],
                 [vi("x", [2, 3])], [vi("label", None), vi("scores", None)],
                 extra_opsets=[("ai.onnx.ml", 3)])


@register
def ml_scaler_bad_length():
    # Scaler with two offsets for three features.
    return model([node("Scaler", ["x"], ["y"], name="scaler", domain="ai.onnx.ml",
                       offset=[1.0, 2.0], scale=[0.5])],
                 [vi("x", [2, 3])], [vi("y", None)], extra_opsets=[("ai.onnx.ml", 1)])


@register
def ml_svm_classifier_probabilities():
    # SVMClassifier, 3 classes (2 + 1 + 1 RBF support vectors of 2 features) with Platt
    # coefficients: the one-vs-one scores, the votes and the pairwise coupling loop.
    return model([node("SVMClassifier", ["x"], ["label", "probabilities"], name="svc",
                       domain="ai.onnx.ml", classlabels_ints=[4, 8, 15], vectors_per_class=[2, 1, 1],
                       kernel_type="RBF", kernel_params=[0.5, 0.0, 0.0],
                       support_vectors=[0.0, 1.0, 1.0, 0.0, 2.0, 2.0, -1.0, 0.5],
                       coefficients=[1.0, 0.5, -1.0, -0.5, 0.25, 0.75, 1.0, -1.0],
                       rho=[0.1, -0.2, 0.3], prob_a=[-2.0, -1.5, -1.0], prob_b=[0.1, 0.0, -0.1])],
                 [vi("x", [5, 2])], [vi("label", None, TensorProto.INT64), vi("probabilities", None)],
                 extra_opsets=[("ai.onnx.ml", 1)])


@register
def ml_svm_regressor_bad_vectors():
    # SVMRegressor with 3 support vectors declared and 5 values for 2 features.
    return model([node("SVMRegressor", ["x"], ["y"], name="svr", domain="ai.onnx.ml",
                       n_supports=3, kernel_type="RBF", kernel_params=[0.5, 0.0, 0.0],
                       support_vectors=[1.0, 2.0, 3.0, 4.0, 5.0], coefficients=[1.0, 1.0, 1.0],
                       rho=[0.0])],
                 [vi("x", [2, 2])], [vi("y", None)], extra_opsets=[("ai.onnx.ml", 1)])


@register
def ml_svm_classifier_string_labels():
    # SVMClassifier with string class labels.
    return model([node("SVMClassifier", ["x"], ["label", "scores"], name="svc", domain="ai.onnx.ml",
                       classlabels_strings=["a", "b"], coefficients=[1.0, -1.0, 0.5, 0.5],
                       rho=[0.0], kernel_params=[0.0, 0.0, 0.0])],
                 [vi("x", [2, 2])], [vi("label", None, TensorProto.INT64), vi("scores", None)],
                 extra_opsets=[("ai.onnx.ml", 1)])


@register
def ml_one_hot_zeros0():
    # OneHotEncoder with zeros = 0 (onnxruntime fails on an unknown category; mie warns).
    return model([node("OneHotEncoder", ["x"], ["y"], name="onehot", domain="ai.onnx.ml",
                       cats_int64s=[2, 5, 7], zeros=0)],
                 [vi("x", [4], TensorProto.INT64)], [vi("y", None)],
                 extra_opsets=[("ai.onnx.ml", 1)])


@register
def ml_label_encoder_duplicate_key():
    # LabelEncoder listing the key 3 twice.
    return model([node("LabelEncoder", ["x"], ["y"], name="labels", domain="ai.onnx.ml",
                       keys_int64s=[1, 3, 3], values_int64s=[10, 30, 31])],
                 [vi("x", [4], TensorProto.INT64)], [vi("y", None)],
                 extra_opsets=[("ai.onnx.ml", 2)])


@register
def ml_label_encoder_scattered():
    # LabelEncoder on int64 keys too far apart for a dense table: compared with every key.
    return model([node("LabelEncoder", ["x"], ["y"], name="labels", domain="ai.onnx.ml",
                       keys_int64s=[-5000000, 7, 90000000], values_floats=[0.5, 1.5, 2.5],
                       default_float=-1.0)],
                 [vi("x", [4], TensorProto.INT64)], [vi("y", None)],
                 extra_opsets=[("ai.onnx.ml", 2)])


@register
def ml_label_encoder_strings():
    # LabelEncoder mapping strings to int64.
    return model([node("LabelEncoder", ["x"], ["y"], name="labels", domain="ai.onnx.ml",
                       keys_int64s=[1, 2], values_strings=["a", "b"])],
                 [vi("x", [4], TensorProto.INT64)], [vi("y", None)],
                 extra_opsets=[("ai.onnx.ml", 2)])


@register
def ml_linear_bad_coefficients():
    # LinearRegressor with 5 coefficients for 2 targets of 3 features.
    return model([node("LinearRegressor", ["x"], ["y"], name="linear", domain="ai.onnx.ml",
                       coefficients=[1.0, 2.0, 3.0, 4.0, 5.0], intercepts=[0.0, 1.0], targets=2)],
                 [vi("x", [2, 3])], [vi("y", None)], extra_opsets=[("ai.onnx.ml", 1)])


@register
def ml_normalizer_bad_norm():
    # Normalizer with a norm that does not exist.
    return model([node("Normalizer", ["x"], ["y"], name="normalizer", domain="ai.onnx.ml",
                       norm="L3")],
                 [vi("x", [2, 3])], [vi("y", None)], extra_opsets=[("ai.onnx.ml", 1)])


@register
def ml_imputer_no_values():
    # Imputer of a float input with only int64 imputed values.
    return model([node("Imputer", ["x"], ["y"], name="imputer", domain="ai.onnx.ml",
                       imputed_value_int64s=[1])],
                 [vi("x", [2, 3])], [vi("y", None)], extra_opsets=[("ai.onnx.ml", 1)])


TRAINING = "ai.onnx.preview.training"


@register
def momentum_nesterov():
    # An optimizer step over two tensors in a model that imports only the training domain.
    return model([node("Momentum", ["R", "T", "X1", "X2", "G1", "G2", "V1", "V2"],
                       ["X1_new", "X2_new", "V1_new", "V2_new"], name="momentum", domain=TRAINING,
                       alpha=0.9, beta=0.5, norm_coefficient=0.01, mode="nesterov")],
                 [vi("R", []), vi("T", [], I64), vi("X1", [3]), vi("X2", [2, 2]), vi("G1", [3]),
                  vi("G2", [2, 2]), vi("V1", [3]), vi("V2", [2, 2])],
                 [vi("X1_new", None), vi("X2_new", None), vi("V1_new", None), vi("V2_new", None)],
                 opset=None, extra_opsets=[(TRAINING, 1)])


@register
def training_domain_only_with_relu():
    # A default-domain node in a model that does not import the default domain.
    return model([node("Relu", ["x"], ["y"], name="relu")], [vi("x", [2])], [vi("y", None)],
                 opset=None, extra_opsets=[(TRAINING, 1)])


@register
def dropout_training_zero_ratio():
    # Training mode with a ratio of 0 (attention dropout exported without `training=`): identity.
    return model([node("Dropout", ["input", "ratio", "training"], ["output", "mask"], name="drop")],
                 [vi("input", [2, 3])], [vi("output", None), vi("mask", None, TensorProto.BOOL)],
                 [init("ratio", np.array(0.0, dtype=np.float32)),
                  init("training", np.array(True))])


@register
def dropout_training_random():
    return model([node("Dropout", ["input", "ratio", "training"], ["output"], name="drop")],
                 [vi("input", [2, 3])], [vi("output", None)],
                 [init("ratio", np.array(0.5, dtype=np.float32)),
                  init("training", np.array(True))])


@register
def shape_fold_chains():
    # Shape arithmetic the importer must fold to constants: a Concat with a negative axis over
    # constants, a Slice's ends computed as Shape(x)[0] * 2 with a batch of 1 (1 * c folds to the
    # constant c), a Pad whose pads come from ReduceMax over a
    # one-element float constant (the image size in torchvision detection models).
    nodes = [
        node("Concat", ["c0", "c1"], ["cat"], name="concat_neg", axis=-1),
        node("Shape", ["input"], ["shape"], name="shape"),
        node("Gather", ["shape", "i0"], ["batch"], name="batch", axis=0),
        node("Mul", ["batch", "two"], ["ends"], name="ends"),
        node("Slice", ["input", "i0", "ends", "i0"], ["sliced"], name="slice"),
        node("ReduceMax", ["sizes"], ["size"], name="size_max", keepdims=0),
        node("Cast", ["size"], ["size_i"], name="size_i", to=TensorProto.INT64),
        node("Sub", ["size_i", "four"], ["pad_end"], name="pad_end"),
        node("Concat", ["zeros6", "pad_end", "zeros1"], ["pads"], name="pads", axis=0),
        node("Pad", ["sliced", "pads"], ["output"], name="pad"),
        # A float table in a Constant node sliced, concatenated, indexed and cast into a
        # Range's start (Hugging Face Funnel's pooled lengths).
        node("Constant", [], ["table"], name="table",
             value=numpy_helper.from_array(np.arange(1, 15, dtype=np.float32), "table")),
        node("Slice", ["table", "i0", "big", "i0", "two"], ["odd"], name="odd"),
        node("Constant", [], ["minus1"], name="minus1", value_floats=[-1.0]),
        node("Concat", ["minus1", "odd"], ["lengths"], name="lengths", axis=0),
        node("Gather", ["lengths", "last"], ["length"], name="length", axis=0),
        node("Add", ["length", "sixteen"], ["start_f"], name="start_f"),
        node("Cast", ["start_f"], ["start"], name="start", to=TensorProto.INT64),
        node("Range", ["start", "limit", "one"], ["rng"], name="range"),
    ]
    return model(nodes, [vi("input", [1, 3, 4, 4])],
                 [vi("output", None), vi("cat", None, I64), vi("rng", None, I64)],
                 [init("c0", np.arange(4, dtype=np.int64).reshape(2, 2, 1)),
                  init("c1", np.arange(4, 8, dtype=np.int64).reshape(2, 2, 1)),
                  ints("i0", [0]), ints("two", [2]), ints("four", [4]),
                  init("sizes", np.array([6.0], dtype=np.float32)),
                  ints("zeros6", [0] * 6), ints("zeros1", [0]),
                  ints("big", [100]), init("last", np.array(7, dtype=np.int64)),
                  init("sixteen", np.array(16.0, dtype=np.float32)),
                  init("limit", np.array(30, dtype=np.int64)),
                  init("one", np.array(1, dtype=np.int64))])


@register
def old_broadcast_missing():
    return model([node("Add", ["a", "b"], ["output"], name="add_no_flag")],
                 [vi("a", [2, 3]), vi("b", [3])], [vi("output", None)], opset=6)


@register
def layernorm_opset13():
    rng = np.random.default_rng(8)
    return model([node("LayerNormalization", ["input", "s"], ["output"], name="ln")],
                 [vi("input", [2, 4])], [vi("output", None)], [init("s", weights(rng, 4))])


def truncated():
    data = conv_bn_relu().SerializeToString()
    return data[: len(data) // 2]


def garbage():
    return bytes(np.random.default_rng(9).integers(0, 256, 300, dtype=np.uint8))


RAW = {"truncated": truncated, "garbage": garbage}

# Models whose weights go to a file next to the model (ONNX external data), named <model>.data.
EXTERNAL = {"external_data": conv_bn_relu}


def main():
    known = list(MODELS) + list(RAW) + list(EXTERNAL)
    if len(sys.argv) != 3 or sys.argv[1] not in known:
        names = " ".join(sorted(known))
        sys.exit(f"usage: {sys.argv[0]} NAME OUT.onnx\n  names: {names}")
    name, path = sys.argv[1], sys.argv[2]
    if name in EXTERNAL:
        import os
        onnx.save_model(EXTERNAL[name](), path, save_as_external_data=True,
                        all_tensors_to_one_file=True, location=os.path.basename(path) + ".data",
                        size_threshold=0)
        return
    data = RAW[name]() if name in RAW else MODELS[name]().SerializeToString()
    with open(path, "wb") as f:
        f.write(data)


if __name__ == "__main__":
    main()
