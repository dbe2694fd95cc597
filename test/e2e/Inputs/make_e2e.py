"""Builds the end-to-end test models, their inputs and independent reference outputs.

Usage: make_e2e.py MODEL OUT_DIR
Writes OUT_DIR/model.onnx, OUT_DIR/input_0.npy and OUT_DIR/reference_0.npy. Models are built with
onnx.helper from seeded numpy weights (deterministic); the reference is onnxruntime's output, so the
compiler is checked against an implementation that shares nothing with it.
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

RNG = np.random.default_rng(1234)


def weight(name, shape, scale=None):
    fan_in = int(np.prod(shape[1:])) if len(shape) > 1 else shape[0]
    scale = scale if scale is not None else 1.0 / np.sqrt(max(fan_in, 1))
    return numpy_helper.from_array((RNG.standard_normal(shape) * scale).astype(np.float32), name)


def bn_params(prefix, channels):
    return [
        numpy_helper.from_array(RNG.uniform(0.5, 1.5, channels).astype(np.float32), prefix + "_scale"),
        numpy_helper.from_array(RNG.uniform(-0.2, 0.2, channels).astype(np.float32), prefix + "_bias"),
        numpy_helper.from_array(RNG.uniform(-0.2, 0.2, channels).astype(np.float32), prefix + "_mean"),
        numpy_helper.from_array(RNG.uniform(0.5, 1.5, channels).astype(np.float32), prefix + "_var"),
    ]


def bn(prefix, x, y):
    return helper.make_node("BatchNormalization", [x] + [prefix + s for s in
                            ("_scale", "_bias", "_mean", "_var")], [y], name=prefix, epsilon=1e-5)


def mlp():
    inits = [weight("w1", [32, 16]), weight("b1", [32], 0.1), weight("w2", [32, 10]),
             weight("b2", [10], 0.1)]
    nodes = [
        helper.make_node("Gemm", ["x", "w1", "b1"], ["h1"], name="fc1", transB=1),
        helper.make_node("Relu", ["h1"], ["a1"], name="relu1"),
        helper.make_node("MatMul", ["a1", "w2"], ["h2"], name="fc2"),
        helper.make_node("Add", ["h2", "b2"], ["y"], name="fc2_bias"),
    ]
    return nodes, inits, [4, 16], [4, 10]


def cnn_bn():
    inits = [weight("c1_w", [8, 3, 3, 3]), weight("c1_b", [8], 0.1), *bn_params("bn1", 8),
             weight("c2_w", [16, 8, 3, 3]), weight("fc_w", [10, 16]), weight("fc_b", [10], 0.1),
             numpy_helper.from_array(np.array(0.0, np.float32), "clip_min"),
             numpy_helper.from_array(np.array(6.0, np.float32), "clip_max")]
    nodes = [
        helper.make_node("Conv", ["x", "c1_w", "c1_b"], ["c1"], name="conv1", pads=[1, 1, 1, 1]),
        bn("bn1", "c1", "n1"),
        helper.make_node("Relu", ["n1"], ["r1"], name="relu1"),
        helper.make_node("MaxPool", ["r1"], ["p1"], name="pool1", kernel_shape=[3, 3],
                         strides=[2, 2], pads=[1, 1, 1, 1]),
        helper.make_node("Conv", ["p1", "c2_w"], ["c2"], name="conv2", strides=[2, 2],
                         pads=[1, 1, 1, 1]),
        helper.make_node("Clip", ["c2", "clip_min", "clip_max"], ["r2"], name="relu6"),
        helper.make_node("AveragePool", ["r2"], ["p2"], name="pool2", kernel_shape=[2, 2],
                         strides=[1, 1], pads=[0, 0, 1, 1]),
        helper.make_node("GlobalAveragePool", ["p2"], ["g"], name="gap"),
        helper.make_node("Flatten", ["g"], ["f"], name="flatten", axis=1),
        helper.make_node("Gemm", ["f", "fc_w", "fc_b"], ["y"], name="fc", transB=1),
    ]
    return nodes, inits, [1, 3, 16, 16], [1, 10]


def residual():
    c = 8
    inits = [weight("a_w", [c, c, 3, 3]), *bn_params("bn_a", c), weight("b_w", [c, c, 3, 3]),
             *bn_params("bn_b", c), weight("dw_w", [c, 1, 3, 3]), weight("dw_b", [c], 0.1),
             numpy_helper.from_array(np.array([0.5], np.float32), "half"),
             numpy_helper.from_array(np.array([1], np.int64), "gather_idx"),
             numpy_helper.from_array(np.array([-1], np.int64), "minus_one")]
    nodes = [
        helper.make_node("Conv", ["x", "a_w"], ["a"], name="conv_a", pads=[1, 1, 1, 1]),
        bn("bn_a", "a", "an"),
        helper.make_node("Relu", ["an"], ["ar"], name="relu_a"),
        helper.make_node("Conv", ["ar", "b_w"], ["b"], name="conv_b", pads=[1, 1, 1, 1]),
        bn("bn_b", "b", "bn"),
        helper.make_node("Add", ["bn", "x"], ["s"], name="skip_add"),
        helper.make_node("Relu", ["s"], ["sr"], name="relu_out"),
        helper.make_node("Conv", ["sr", "dw_w", "dw_b"], ["dw"], name="depthwise", group=c,
                         pads=[1, 1, 1, 1], strides=[2, 2]),
        helper.make_node("Mul", ["dw", "half"], ["m"], name="scale"),
        # The exporter's shape chain: reshape to [N, C, -1] with N and C taken from the shape.
        helper.make_node("Shape", ["m"], ["shp"], name="shape"),
        helper.make_node("Gather", ["shp", "gather_idx"], ["ch"], name="gather_c", axis=0),
        helper.make_node("Slice", ["shp", "zero_idx", "gather_idx"], ["n"], name="slice_n"),
        helper.make_node("Concat", ["n", "ch", "minus_one"], ["target"], name="concat_shape",
                         axis=0),
        helper.make_node("Reshape", ["m", "target"], ["y"], name="reshape"),
    ]
    inits.append(numpy_helper.from_array(np.array([0], np.int64), "zero_idx"))
    return nodes, inits, [1, c, 12, 12], [1, c, 36]


def const(name, value):
    return numpy_helper.from_array(np.array(value, np.float32), name)


def encoder():
    """A post-LN transformer encoder layer as torch exports it at opset 13: LayerNorm as
    ReduceMean/Sub/Pow/Sqrt/Div, GELU through Erf, attention as MatMul/Div/Add(mask)/Softmax/MatMul
    with K transposed by the exporter; every composite the fusion passes recognize."""
    s, h, heads = 8, 16, 2
    d = h // heads
    inits = [weight(n, [h, h]) for n in ("wq", "wk", "wv", "wo")]
    inits += [weight(n, [h], 0.1) for n in ("bq", "bk", "bv", "bo")]
    inits += [weight("w1", [h, 4 * h]), weight("b1", [4 * h], 0.1), weight("w2", [4 * h, h]),
              weight("b2", [h], 0.1), weight("g1", [h], 0.1), weight("be1", [h], 0.1)]
    inits[-2] = numpy_helper.from_array(RNG.uniform(0.5, 1.5, h).astype(np.float32), "g1")
    mask = np.zeros([1, 1, 1, s], np.float32)
    mask[..., -2:] = -10000.0  # the last two positions are padding
    inits += [numpy_helper.from_array(mask, "mask"), const("two", 2.0), const("eps", 1e-5),
              const("sqrt_d", np.sqrt(d)), const("sqrt2", np.sqrt(2.0)), const("one", 1.0),
              const("half", 0.5),
              numpy_helper.from_array(np.array([1, s, heads, d], np.int64), "split_heads"),
              numpy_helper.from_array(np.array([1, s, h], np.int64), "merge_heads")]
    nodes = []

    def linear(x, w, b, y):
        nodes.append(helper.make_node("MatMul", [x, w], [y + "_mm"], name=y + "/MatMul"))
        nodes.append(helper.make_node("Add", [b, y + "_mm"], [y], name=y + "/Add"))

    def heads_of(x, y, perm):
        nodes.append(helper.make_node("Reshape", [x, "split_heads"], [y + "_r"], name=y + "/Reshape"))
        nodes.append(helper.make_node("Transpose", [y + "_r"], [y], name=y + "/Transpose", perm=perm))

    linear("x", "wq", "bq", "q")
    linear("x", "wk", "bk", "k")
    linear("x", "wv", "bv", "v")
    heads_of("q", "qh", [0, 2, 1, 3])
    heads_of("k", "kt", [0, 2, 3, 1])
    heads_of("v", "vh", [0, 2, 1, 3])
    nodes += [
        helper.make_node("MatMul", ["qh", "kt"], ["sc"], name="attn/MatMul"),
        helper.make_node("Div", ["sc", "sqrt_d"], ["scs"], name="attn/Div"),
        helper.make_node("Add", ["scs", "mask"], ["scm"], name="attn/AddMask"),
        helper.make_node("Softmax", ["scm"], ["p"], name="attn/Softmax", axis=-1),
        helper.make_node("MatMul", ["p", "vh"], ["ctx"], name="attn/MatMul_1"),
        helper.make_node("Transpose", ["ctx"], ["ctxt"], name="attn/Transpose", perm=[0, 2, 1, 3]),
        helper.make_node("Reshape", ["ctxt", "merge_heads"], ["ctxm"], name="attn/Reshape"),
    ]
    linear("ctxm", "wo", "bo", "o")
    nodes += [
        helper.make_node("Add", ["o", "x"], ["res"], name="attn/Residual"),
        helper.make_node("ReduceMean", ["res"], ["mu"], name="ln/ReduceMean", axes=[-1]),
        helper.make_node("Sub", ["res", "mu"], ["dev"], name="ln/Sub"),
        helper.make_node("Pow", ["dev", "two"], ["sq"], name="ln/Pow"),
        helper.make_node("ReduceMean", ["sq"], ["var"], name="ln/ReduceMean_1", axes=[-1]),
        helper.make_node("Add", ["var", "eps"], ["vareps"], name="ln/Add"),
        helper.make_node("Sqrt", ["vareps"], ["std"], name="ln/Sqrt"),
        helper.make_node("Div", ["dev", "std"], ["nrm"], name="ln/Div"),
        helper.make_node("Mul", ["nrm", "g1"], ["nrmg"], name="ln/Mul"),
        helper.make_node("Add", ["nrmg", "be1"], ["ln"], name="ln/Add_1"),
    ]
    linear("ln", "w1", "b1", "f1")
    nodes += [
        helper.make_node("Div", ["f1", "sqrt2"], ["gd"], name="gelu/Div"),
        helper.make_node("Erf", ["gd"], ["ge"], name="gelu/Erf"),
        helper.make_node("Add", ["ge", "one"], ["ga"], name="gelu/Add"),
        helper.make_node("Mul", ["f1", "ga"], ["gm"], name="gelu/Mul"),
        helper.make_node("Mul", ["gm", "half"], ["g"], name="gelu/Mul_1"),
    ]
    linear("g", "w2", "b2", "f2")
    nodes.append(helper.make_node("Add", ["f2", "ln"], ["y"], name="ffn/Residual"))
    return nodes, inits, [1, s, h], [1, s, h]


def decoder(kv_heads=(4, 4), s=160, h=32, heads=4):
    """Two pre-LN causal self-attention layers (GPT-2 style) as exporters write them at opset 13:
    the causal mask an additive constant (0 on and below the diagonal, the float minimum above),
    GELU in its tanh form, 160 positions so the attention runs over two key tiles. `kv_heads` gives
    each layer's number of key/value heads (and so the number of layers): fewer than the 4 query heads is grouped-query
    attention, its heads repeated as Llama's exporters write it (Unsqueeze, Expand, Reshape), or
    with one head (multi-query) broadcast by the MatMuls themselves."""
    layers = len(kv_heads)
    d = h // heads
    mask = np.triu(np.full([s, s], np.finfo(np.float32).min, np.float32), k=1)[None, None]
    inits = [numpy_helper.from_array(mask, "causal"), const("two", 2.0), const("eps", 1e-5),
             const("sqrt_d", np.sqrt(d)), const("one", 1.0), const("half", 0.5),
             const("c3", 0.044715), const("k", np.sqrt(2.0 / np.pi)),
             numpy_helper.from_array(np.array([1, s, heads, d], np.int64), "split_heads"),
             numpy_helper.from_array(np.array([1, s, h], np.int64), "merge_heads"),
             numpy_helper.from_array(np.array([2], np.int64), "group_axis")]
    nodes = []

    def node(op, ins, out, **attrs):
        nodes.append(helper.make_node(op, ins, [out], name=out, **attrs))
        return out

    def linear(x, p, n_in, n_out):
        inits.extend([weight(p + "w", [n_in, n_out]), weight(p + "b", [n_out], 0.1)])
        return node("Add", [node("MatMul", [x, p + "w"], p + "mm"), p + "b"], p + "out")

    def layer_norm(x, p):
        inits.extend([numpy_helper.from_array(RNG.uniform(0.5, 1.5, h).astype(np.float32), p + "g"),
                      weight(p + "be", [h], 0.1)])
        dev = node("Sub", [x, node("ReduceMean", [x], p + "mu", axes=[-1])], p + "dev")
        var = node("ReduceMean", [node("Pow", [dev, "two"], p + "sq")], p + "var", axes=[-1])
        std = node("Sqrt", [node("Add", [var, "eps"], p + "ve")], p + "std")
        return node("Add", [node("Mul", [node("Div", [dev, std], p + "nrm"), p + "g"], p + "nrmg"),
                            p + "be"], p + "ln")

    def kv_head_split(x, p, kv):
        """[1, s, kv * d] -> [1, kv, s, d], then repeated to the query heads when 1 < kv < heads."""
        inits.append(numpy_helper.from_array(np.array([1, s, kv, d], np.int64), p + "split"))
        t = node("Transpose", [node("Reshape", [x, p + "split"], p + "h")], p + "t",
                 perm=[0, 2, 1, 3])
        if kv in (1, heads):
            return t
        inits.extend([numpy_helper.from_array(np.array([1, kv, heads // kv, s, d], np.int64),
                                              p + "rep"),
                      numpy_helper.from_array(np.array([1, heads, s, d], np.int64), p + "heads")])
        grouped = node("Expand", [node("Unsqueeze", [t, "group_axis"], p + "unsq"), p + "rep"],
                       p + "expand")
        return node("Reshape", [grouped, p + "heads"], p + "repeat")

    x = "x"
    for i in range(layers):
        p = f"l{i}/"
        kv = kv_heads[i]
        ln = layer_norm(x, p + "ln1/")
        q = node("Reshape", [linear(ln, p + "q/", h, h), "split_heads"], p + "qh")
        qh = node("Transpose", [q], p + "qt", perm=[0, 2, 1, 3])
        kh = kv_head_split(linear(ln, p + "k/", h, kv * d), p + "k", kv)
        vh = kv_head_split(linear(ln, p + "v/", h, kv * d), p + "v", kv)
        kt = node("Transpose", [kh], p + "kT", perm=[0, 1, 3, 2])
        sc = node("Div", [node("MatMul", [qh, kt], p + "attn/MatMul"), "sqrt_d"], p + "attn/Div")
        pr = node("Softmax", [node("Add", [sc, "causal"], p + "attn/Causal")], p + "attn/Softmax",
                  axis=-1)
        ctx = node("MatMul", [pr, vh], p + "attn/MatMul_1")
        ctx = node("Reshape", [node("Transpose", [ctx], p + "ctxt", perm=[0, 2, 1, 3]),
                               "merge_heads"], p + "ctxm")
        x = node("Add", [linear(ctx, p + "o/", h, h), x], p + "res1")
        f1 = linear(layer_norm(x, p + "ln2/"), p + "f1/", h, 4 * h)
        cube = node("Mul", [node("Pow", [f1, "two"], p + "sq3"), f1], p + "cube")
        inner = node("Mul", [node("Add", [f1, node("Mul", [cube, "c3"], p + "c3x3")], p + "poly"),
                             "k"], p + "inner")
        gelu = node("Mul", [node("Mul", [f1, node("Add", [node("Tanh", [inner], p + "tanh"), "one"],
                                                  p + "t1")], p + "gm"), "half"], p + "gelu")
        x = node("Add", [linear(gelu, p + "f2/", 4 * h, h), x], p + "res2")
    nodes.append(helper.make_node("Identity", [x], ["y"], name="out"))
    return nodes, inits, [1, s, h], [1, s, h]


def gqa_decoder():
    """The decoder with grouped-query attention (2 key/value heads for 4 query heads, repeated) in
    its first layer and multi-query attention (1 key/value head, broadcast) in its second."""
    return decoder(kv_heads=(2, 1))


def matmuls():
    """MatMuls that are not linear layers, on odd sizes: a batched product of two activations (the
    right one transposed), another on its result (what attention computes when it is not
    recognized), a 4-D activation times a constant matrix without a bias (one GEMM over the
    collapsed rows) and a 2-D product of two activations."""
    inits = [weight("w", [45, 19]),
             numpy_helper.from_array(np.array([2 * 3 * 37, 19], np.int64), "rows")]
    nodes = [
        helper.make_node("Transpose", ["x"], ["xt"], name="xt", perm=[0, 1, 3, 2]),
        helper.make_node("MatMul", ["x", "xt"], ["g"], name="gram"),
        helper.make_node("Sigmoid", ["g"], ["gs"], name="gram_sigmoid"),
        helper.make_node("MatMul", ["gs", "x"], ["h"], name="mix"),
        helper.make_node("MatMul", ["h", "w"], ["l"], name="project"),
        helper.make_node("Reshape", ["l", "rows"], ["r"], name="rows"),
        helper.make_node("Transpose", ["r"], ["rt"], name="rt", perm=[1, 0]),
        helper.make_node("MatMul", ["rt", "r"], ["y"], name="cov"),
    ]
    return nodes, inits, [2, 3, 37, 45], [19, 19]


def kernels():
    """Every microkernel path of mie-select-kernels on odd sizes: Winograd (3x3 stride 1, >= 16
    channels, a residual; F(4x4, 3x3) on the 27x27 map, F(2x2, 3x3) on the late 4x4 one), the implicit GEMM (3x3 stride 2), 1x1 read in place with a partial last
    panel, 1x1 on few pixels (7x7, K = 128) computed with the pixels as rows and a residual, 1x1 stride 2,
    depthwise 5x5 stride 2 with relu6, a late layer with shared panels (few pixels), and a Gemm
    with a packed B."""
    inits = [weight("w_in", [24, 3, 3, 3]), weight("b_in", [24], 0.1),
             weight("w_wg1", [24, 24, 3, 3]), weight("b_wg1", [24], 0.1),
             weight("w_wg2", [24, 24, 3, 3]),
             weight("w_s2", [32, 24, 3, 3]), weight("b_s2", [32], 0.1),
             weight("w_pw", [128, 32, 1, 1]), weight("b_pw", [128], 0.1),
             weight("w_dw", [128, 1, 5, 5]), weight("b_dw", [128], 0.1),
             weight("w_rows", [128, 128, 1, 1]), weight("b_rows", [128], 0.1),
             weight("w_ds", [64, 128, 1, 1]),
             weight("w_late", [72, 64, 3, 3]), weight("b_late", [72], 0.1),
             weight("fc_w", [10, 72]), weight("fc_b", [10], 0.1),
             numpy_helper.from_array(np.array(0.0, np.float32), "clip_min"),
             numpy_helper.from_array(np.array(6.0, np.float32), "clip_max")]
    nodes = [
        helper.make_node("Conv", ["x", "w_in", "b_in"], ["a"], name="stem", pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["a"], ["ar"], name="stem_relu"),
        helper.make_node("Conv", ["ar", "w_wg1", "b_wg1"], ["b"], name="winograd1", pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["b"], ["br"], name="winograd1_relu"),
        helper.make_node("Conv", ["br", "w_wg2"], ["c"], name="winograd2", pads=[1, 1, 1, 1]),
        helper.make_node("Add", ["c", "ar"], ["cs"], name="skip"),
        helper.make_node("Relu", ["cs"], ["cr"], name="skip_relu"),
        helper.make_node("Conv", ["cr", "w_s2", "b_s2"], ["d"], name="strided", strides=[2, 2],
                         pads=[1, 1, 1, 1]),
        helper.make_node("Conv", ["d", "w_pw", "b_pw"], ["e"], name="pointwise"),
        helper.make_node("Clip", ["e", "clip_min", "clip_max"], ["er"], name="pointwise_relu6"),
        helper.make_node("Conv", ["er", "w_dw", "b_dw"], ["f"], name="depthwise", group=128,
                         strides=[2, 2], pads=[2, 2, 2, 2]),
        helper.make_node("Clip", ["f", "clip_min", "clip_max"], ["fr"], name="depthwise_relu6"),
        helper.make_node("Conv", ["fr", "w_rows", "b_rows"], ["p"], name="pointwise_rows"),
        helper.make_node("Add", ["p", "fr"], ["ps"], name="rows_skip"),
        helper.make_node("Relu", ["ps"], ["pr"], name="rows_relu"),
        helper.make_node("Conv", ["pr", "w_ds"], ["g"], name="pointwise_s2", strides=[2, 2]),
        helper.make_node("Conv", ["g", "w_late", "b_late"], ["h"], name="late", pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["h"], ["hr"], name="late_relu"),
        helper.make_node("GlobalAveragePool", ["hr"], ["gap"], name="gap"),
        helper.make_node("Flatten", ["gap"], ["flat"], name="flatten", axis=1),
        helper.make_node("Gemm", ["flat", "fc_w", "fc_b"], ["y"], name="fc", transB=1),
    ]
    return nodes, inits, [1, 3, 27, 27], [1, 10]


def strided_batch():
    """Strided convolutions on a batch of two small maps (7x7 outputs): a 1x1 stride-2 one and a
    3x3 stride-2 one whose sum with it (the residual) and relu are fused into its epilogue."""
    inits = [weight("w_a", [48, 64, 3, 3]), weight("b_a", [48], 0.1),
             weight("w_b", [48, 64, 1, 1]), weight("b_b", [48], 0.1)]
    nodes = [
        helper.make_node("Conv", ["x", "w_a", "b_a"], ["a"], name="strided3x3", strides=[2, 2],
                         pads=[1, 1, 1, 1]),
        helper.make_node("Conv", ["x", "w_b", "b_b"], ["b"], name="strided1x1", strides=[2, 2]),
        helper.make_node("Add", ["a", "b"], ["s"], name="sum"),
        helper.make_node("Relu", ["s"], ["y"], name="relu"),
    ]
    return nodes, inits, [2, 64, 13, 13], [2, 48, 7, 7]


def residual_in_place():
    """Bottleneck-like blocks whose residual dies at the convolution that adds it, so its output is
    planned over the residual's bytes (mie.in_place_input): a 1x1 convolution read in place on a
    14x14 map (NCHW tiles) and a 1x1 convolution on a 7x7 map (pixels as rows, tiles storing
    transposed), each adding a residual computed two convolutions earlier."""
    inits = [weight("w1", [64, 32, 1, 1]), weight("b1", [64], 0.1),
             weight("w2", [64, 64, 1, 1]), weight("b2", [64], 0.1),
             weight("w3", [64, 64, 1, 1]), weight("b3", [64], 0.1),
             weight("w4", [128, 64, 3, 3]), weight("b4", [128], 0.1),
             weight("w5", [128, 128, 1, 1]), weight("b5", [128], 0.1),
             weight("w6", [128, 128, 1, 1]), weight("b6", [128], 0.1)]
    nodes = [
        helper.make_node("Conv", ["x", "w1", "b1"], ["a"], name="conv1"),
        helper.make_node("Conv", ["a", "w2", "b2"], ["b"], name="conv2"),
        helper.make_node("Relu", ["b"], ["br"], name="relu2"),
        helper.make_node("Conv", ["br", "w3", "b3"], ["c"], name="conv3"),
        helper.make_node("Add", ["c", "a"], ["cs"], name="skip3"),
        helper.make_node("Relu", ["cs"], ["cr"], name="relu3"),
        helper.make_node("Conv", ["cr", "w4", "b4"], ["d"], name="conv4", strides=[2, 2],
                         pads=[1, 1, 1, 1]),
        helper.make_node("Conv", ["d", "w5", "b5"], ["e"], name="conv5"),
        helper.make_node("Relu", ["e"], ["er"], name="relu5"),
        helper.make_node("Conv", ["er", "w6", "b6"], ["f"], name="conv6"),
        helper.make_node("Add", ["f", "d"], ["fs"], name="skip6"),
        helper.make_node("Relu", ["fs"], ["fr"], name="relu6"),
        helper.make_node("GlobalAveragePool", ["fr"], ["gap"], name="gap"),
        helper.make_node("Flatten", ["gap"], ["y"], name="flatten", axis=1),
    ]
    return nodes, inits, [1, 32, 14, 14], [1, 128]


def deep(blocks=80):
    """A long chain of small residual conv blocks: enough kernels that mie-compile splits code
    generation into several parts (lib/Target/CPU, codegenParts)."""
    inits, nodes, x = [], [], "x"
    for i in range(blocks):
        inits += [weight(f"w{i}", [8, 8, 3, 3], 0.2), weight(f"b{i}", [8], 0.1)]
        nodes += [
            helper.make_node("Conv", [x, f"w{i}", f"b{i}"], [f"c{i}"], name=f"conv{i}",
                             pads=[1, 1, 1, 1]),
            helper.make_node("Add", [f"c{i}", x], [f"s{i}"], name=f"skip{i}"),
            helper.make_node("Relu", [f"s{i}"], [f"r{i}"], name=f"relu{i}"),
        ]
        x = f"r{i}"
    nodes.append(helper.make_node("ReduceMean", [x], ["y"], name="mean", axes=[2, 3], keepdims=0))
    return nodes, inits, [1, 8, 12, 12], [1, 8]


def separable(head=True):
    """A MobileNet-like depthwise-separable network on an odd 33x33 map, which ms-assign-layout
    runs channels last: a 3x3 stride-2 stem (one group, stays NCHW: its output is transposed once),
    relu6 clips, depthwise 3x3 stride 1 and 5x5 stride 2 layers over channel counts that leave a
    vector tail (72, 120), 1x1 expand/project layers as pixel-row GEMMs, a squeeze-excite branch
    (global pool, two 1x1 layers on the 1x1 map, hard-sigmoid, multiply), hard-swish, a residual
    add, and a classifier after the global pool; `head=False` returns the last feature map, which
    leaves channels last by a transpose at the graph output."""
    inits = [weight("stem_w", [16, 3, 3, 3]), weight("stem_b", [16], 0.1),
             weight("dw1_w", [16, 1, 3, 3]), weight("dw1_b", [16], 0.1),
             weight("pw1_w", [24, 16, 1, 1]), weight("pw1_b", [24], 0.1),
             weight("ex2_w", [72, 24, 1, 1]), weight("ex2_b", [72], 0.1),
             weight("dw2_w", [72, 1, 5, 5]), weight("dw2_b", [72], 0.1),
             weight("se_r_w", [18, 72, 1, 1]), weight("se_r_b", [18], 0.1),
             weight("se_e_w", [72, 18, 1, 1]), weight("se_e_b", [72], 0.1),
             weight("pw2_w", [40, 72, 1, 1]), weight("pw2_b", [40], 0.1),
             weight("ex3_w", [120, 40, 1, 1]), weight("ex3_b", [120], 0.1),
             weight("dw3_w", [120, 1, 3, 3]), weight("dw3_b", [120], 0.1),
             weight("pw3_w", [40, 120, 1, 1]), weight("pw3_b", [40], 0.1),
             weight("fc_w", [10, 40]), weight("fc_b", [10], 0.1),
             const("zero", 0.0), const("six", 6.0)]
    clip = lambda x, y: helper.make_node("Clip", [x, "zero", "six"], [y], name="clip_" + y)
    conv = lambda x, w, y, **kw: helper.make_node("Conv", [x, w + "_w", w + "_b"], [y], name=w, **kw)
    nodes = [
        conv("x", "stem", "s", strides=[2, 2], pads=[1, 1, 1, 1]), clip("s", "s6"),
        conv("s6", "dw1", "d1", group=16, pads=[1, 1, 1, 1]), clip("d1", "d16"),
        conv("d16", "pw1", "p1"),
        conv("p1", "ex2", "e2"), helper.make_node("Relu", ["e2"], ["e2r"], name="relu_e2"),
        conv("e2r", "dw2", "d2", group=72, pads=[2, 2, 2, 2], strides=[2, 2]),
        helper.make_node("HardSigmoid", ["d2"], ["d2g"], name="hs_d2", alpha=1.0 / 6, beta=0.5),
        helper.make_node("Mul", ["d2", "d2g"], ["d2h"], name="hswish_d2"),
        helper.make_node("GlobalAveragePool", ["d2h"], ["se_p"], name="se_pool"),
        conv("se_p", "se_r", "se_1"), helper.make_node("Relu", ["se_1"], ["se_1r"], name="se_relu"),
        conv("se_1r", "se_e", "se_2"),
        helper.make_node("HardSigmoid", ["se_2"], ["se_g"], name="se_gate", alpha=1.0 / 6, beta=0.5),
        helper.make_node("Mul", ["d2h", "se_g"], ["se_y"], name="se_scale"),
        conv("se_y", "pw2", "p2"),
        conv("p2", "ex3", "e3"), clip("e3", "e36"),
        conv("e36", "dw3", "d3", group=120, pads=[1, 1, 1, 1]), clip("d3", "d36"),
        conv("d36", "pw3", "p3"),
        helper.make_node("Add", ["p3", "p2"], ["r3" if head else "y"], name="residual"),
    ]
    if not head:
        return nodes, [i for i in inits if not i.name.startswith("fc_")], [1, 3, 33, 33], [1, 40, 9, 9]
    nodes += [helper.make_node("GlobalAveragePool", ["r3"], ["g"], name="pool"),
              helper.make_node("Flatten", ["g"], ["f"], name="flatten"),
              helper.make_node("Gemm", ["f", "fc_w", "fc_b"], ["y"], name="fc", transB=1)]
    return nodes, inits, [1, 3, 33, 33], [1, 10]


def grouped():
    # A RegNet-style grouped 3x3 convolution (4 groups of 8 channels): no microkernel takes it yet,
    # so the compiler warns and --report=kernels names it.
    nodes = [helper.make_node("Conv", ["x", "wg"], ["g"], name="grouped_conv", group=4,
                              pads=[1, 1, 1, 1]),
             helper.make_node("Relu", ["g"], ["y"], name="relu")]
    return nodes, [weight("wg", [32, 8, 3, 3])], [1, 32, 14, 14], [1, 32, 14, 14]


def lm_head():
    # A GPT-style head tied to the embedding table: rows [1, 16, 64] times its transpose.
    nodes = [helper.make_node("Transpose", ["emb"], ["emb_t"], name="tie", perm=[1, 0]),
             helper.make_node("MatMul", ["x", "emb_t"], ["y"], name="lm_head")]
    return nodes, [weight("emb", [2000, 64], 0.1)], [1, 16, 64], [1, 16, 2000]


MODELS = {"mlp": mlp, "strided_batch": strided_batch, "cnn_bn": cnn_bn, "residual": residual, "encoder": encoder,
          "decoder": decoder, "gqa_decoder": gqa_decoder,
          "matmuls": matmuls, "kernels": kernels, "deep": deep,
          "residual_in_place": residual_in_place, "separable": separable,
          "separable_map": lambda: separable(head=False), "grouped": grouped, "lm_head": lm_head}


def main():
    name, out_dir = sys.argv[1], sys.argv[2]
    os.makedirs(out_dir, exist_ok=True)
    nodes, inits, in_shape, out_shape = MODELS[name]()
    graph = helper.make_graph(
        nodes, name, [helper.make_tensor_value_info("x", TensorProto.FLOAT, in_shape)],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, out_shape)], initializer=inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    path = os.path.join(out_dir, "model.onnx")
    onnx.save(model, path)

    x = RNG.standard_normal(in_shape).astype(np.float32)
    np.save(os.path.join(out_dir, "input_0.npy"), x)
    import onnxruntime as ort
    session = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
    (y,) = session.run(None, {"x": x})
    assert list(y.shape) == out_shape, (y.shape, out_shape)
    np.save(os.path.join(out_dir, "reference_0.npy"), y)


if __name__ == "__main__":
    main()
