#!/usr/bin/env python3
"""Writes one small ONNX model, chosen by name, for the lit tests of the ops the importer builds
out of several ms ops (lib/Import/Onnx/OnnxCompositeOps.cpp) and of its uniform reports.

    make_composite_models.py NAME OUT.onnx

Same conventions as make_models.py: onnx.helper and numpy at test time, seeded weights, no checker.
"""

import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

F = TensorProto.FLOAT
I32 = TensorProto.INT32
I64 = TensorProto.INT64

MODELS = {}
node = helper.make_node


def register(fn):
    MODELS[fn.__name__] = fn
    return fn


def vi(name, shape, dtype=F):
    return helper.make_tensor_value_info(name, dtype, shape)


def ints(name, values):
    return numpy_helper.from_array(np.array(values, dtype=np.int64), name)


def floats(name, array):
    return numpy_helper.from_array(np.asarray(array, dtype=np.float32), name)


def model(nodes, inputs, outputs, inits=(), opset=13):
    graph = helper.make_graph(nodes, "test", inputs, outputs, initializer=list(inits))
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)],
                          producer_name="mie-tests")
    m.ir_version = 8
    return m


def outs(*names):
    return [vi(n, None, TensorProto.UNDEFINED) for n in names]  # element type not declared


@register
def data_movement():
    return model([node("Tile", ["x", "repeats"], ["tiled"], name="tile"),
                  node("DepthToSpace", ["y"], ["dcr"], name="d2s_dcr", blocksize=2),
                  node("DepthToSpace", ["y"], ["crd"], name="d2s_crd", blocksize=2, mode="CRD"),
                  node("SpaceToDepth", ["y"], ["s2d"], name="s2d", blocksize=2)],
                 [vi("x", [2, 3]), vi("y", [1, 8, 2, 4])], outs("tiled", "dcr", "crd", "s2d"),
                 [ints("repeats", [2, 1])])


@register
def normalizations():
    rng = np.random.default_rng(3)
    return model([node("InstanceNormalization", ["x", "scale", "bias"], ["inst"], name="inst",
                       epsilon=1e-3),
                  node("LpNormalization", ["x"], ["lp1"], name="lp1", axis=1, p=1),
                  node("MeanVarianceNormalization", ["x"], ["mvn"], name="mvn", axes=[0, 2])],
                 [vi("x", [2, 4, 5])], outs("inst", "lp1", "mvn"),
                 [floats("scale", rng.standard_normal(4)), floats("bias", rng.standard_normal(4))])


@register
def rms_norm():
    rng = np.random.default_rng(4)
    f16 = TensorProto.FLOAT16
    return model([node("RMSNormalization", ["x", "scale"], ["y"], name="rms", axis=1,
                       epsilon=1e-3)],
                 [vi("x", [2, 3, 4], f16)], [vi("y", [2, 3, 4], f16)],
                 [numpy_helper.from_array(rng.standard_normal(4).astype(np.float16), "scale")],
                 opset=23)


@register
def attention_3d_gqa():
    """3-D grouped-query attention (4 query heads on 2 key/value heads) with a bool mask shorter
    than the total length, a key/value cache, causal masking and the softmax as 4th output."""
    return model([node("Attention", ["q", "k", "v", "mask", "past_k", "past_v"],
                       ["y", "present_k", "present_v", "qk"], name="attn", q_num_heads=4,
                       kv_num_heads=2, is_causal=1, qk_matmul_output_mode=3, softcap=2.0)],
                 [vi("q", [1, 3, 16]), vi("k", [1, 3, 8]), vi("v", [1, 3, 8]),
                  vi("mask", [3, 4], TensorProto.BOOL), vi("past_k", [1, 2, 2, 4]),
                  vi("past_v", [1, 2, 2, 4])],
                 outs("y", "present_k", "present_v", "qk"), opset=23)


@register
def attention_bad_heads():
    return model([node("Attention", ["q", "k", "v"], ["y"], name="attn_bad", q_num_heads=3,
                       kv_num_heads=2)],
                 [vi("q", [1, 3, 16]), vi("k", [1, 3, 8]), vi("v", [1, 3, 8])], outs("y"),
                 opset=23)


@register
def grid_sample_border():
    return model([node("GridSample", ["x", "grid"], ["y"], name="gs", mode="linear",
                       padding_mode="border", align_corners=1)],
                 [vi("x", [1, 2, 3, 4]), vi("grid", [1, 5, 6, 2])], outs("y"), opset=20)


@register
def grid_sample_bad_mode():
    return model([node("GridSample", ["x", "grid"], ["y"], name="gs_bad", mode="area")],
                 [vi("x", [1, 2, 3, 4]), vi("grid", [1, 5, 6, 2])], outs("y"), opset=20)


@register
def indexing_compositions():
    """ReverseSequence (time axis 0), TensorScatter (circular) and MaxUnpool."""
    return model([node("ReverseSequence", ["x", "lens"], ["rev"], name="rev", batch_axis=1,
                       time_axis=0),
                  node("TensorScatter", ["cache", "update", "w"], ["present"], name="ts",
                       mode="circular"),
                  node("MaxUnpool", ["pooled", "indices"], ["unpooled"], name="unpool",
                       kernel_shape=[2, 2], strides=[2, 2])],
                 [vi("x", [4, 3, 2]), vi("lens", [3], TensorProto.INT64),
                  vi("cache", [2, 5, 4]), vi("update", [2, 2, 4]), vi("w", [2], TensorProto.INT64),
                  vi("pooled", [1, 1, 2, 2]), vi("indices", [1, 1, 2, 2], TensorProto.INT64)],
                 outs("rev", "present", "unpooled"), opset=24)


@register
def resize():
    """Resize by known scales (nearest, defaults) and by sizes over axes (linear, align_corners)."""
    return model([node("Resize", ["x", "", "scales"], ["up"], name="up"),
                  node("Resize", ["x", "", "", "sizes"], ["lin"], name="lin", mode="linear",
                       coordinate_transformation_mode="align_corners", axes=[3, 2])],
                 [vi("x", [1, 2, 4, 6])], outs("up", "lin"),
                 [floats("scales", np.array([1, 1, 2, 1.5], np.float32)), ints("sizes", [3, 5])],
                 opset=18)


@register
def resize_inexact_scale():
    return model([node("Resize", ["x", "", "scales"], ["y"], name="inexact")],
                 [vi("x", [1, 2, 4, 6])], outs("y"),
                 [floats("scales", np.array([1, 1, 1.3, 1], np.float32))], opset=13)


@register
def group_norm_opset18():
    # Opset 18: scale and bias per group.
    return model([node("GroupNormalization", ["x", "scale", "bias"], ["y"], name="gn",
                       num_groups=2)],
                 [vi("x", [1, 4, 3]), vi("scale", [2]), vi("bias", [2])], outs("y"), opset=18)


@register
def group_norm_opset21():
    # Opset 21: scale and bias per channel.
    return model([node("GroupNormalization", ["x", "scale", "bias"], ["y"], name="gn",
                       num_groups=2)],
                 [vi("x", [1, 4, 3]), vi("scale", [4]), vi("bias", [4])], outs("y"), opset=21)


@register
def reductions():
    return model([node("ReduceL1", ["x"], ["l1"], name="l1", axes=[1]),
                  node("ReduceL2", ["x"], ["l2"], name="l2", axes=[-1], keepdims=0),
                  node("ReduceSumSquare", ["x"], ["ss"], name="ss", keepdims=0),
                  node("ReduceLogSum", ["x"], ["ls"], name="ls", axes=[0, 2]),
                  node("ReduceLogSumExp", ["x"], ["lse"], name="lse", axes=[1], keepdims=0)],
                 [vi("x", [2, 3, 4])], outs("l1", "l2", "ss", "ls", "lse"))


@register
def reductions_opset18():
    # Axes as an input; noop_with_empty_axes keeps the elementwise part only.
    return model([node("ReduceSumSquare", ["x", "axes"], ["ss"], name="ss"),
                  node("ReduceL1", ["x"], ["noop"], name="noop", noop_with_empty_axes=1)],
                 [vi("x", [2, 3])], outs("ss", "noop"), [ints("axes", [0])], opset=18)


@register
def softmax_family_opset11():
    # Before opset 13: normalized over every dim from `axis` on.
    return model([node("LogSoftmax", ["x"], ["logsm"], name="logsm"),
                  node("Hardmax", ["x"], ["hard"], name="hard", axis=2)],
                 [vi("x", [2, 3, 4])], outs("logsm", "hard"), opset=11)


@register
def softmax_family_opset13():
    return model([node("LogSoftmax", ["x"], ["logsm"], name="logsm", axis=1),
                  node("Hardmax", ["x"], ["hard"], name="hard", axis=1),
                  node("GlobalMaxPool", ["y"], ["gmp"], name="gmp")],
                 [vi("x", [2, 3, 4]), vi("y", [1, 2, 3, 3])], outs("logsm", "hard", "gmp"))


@register
def masks():
    return model([node("Trilu", ["x", "k"], ["upper"], name="triu"),
                  node("Trilu", ["x", "kdyn"], ["lower"], name="tril", upper=0),
                  node("EyeLike", ["x"], ["eye"], name="eye", k=1, dtype=I32),
                  node("OneHot", ["idx", "depth", "values"], ["hot"], name="onehot", axis=0)],
                 [vi("x", [2, 3]), vi("kdyn", [], I64), vi("idx", [2], I64)],
                 outs("upper", "lower", "eye", "hot"),
                 [ints("k", 1), ints("depth", 3), floats("values", [0.0, 5.0])], opset=14)


@register
def einsum():
    return model([node("Einsum", ["a", "b"], ["bmm"], name="bmm", equation="bij,bjk->bik"),
                  node("Einsum", ["q", "k"], ["attn"], name="attn", equation="bhid,bhjd->bhij"),
                  node("Einsum", ["m"], ["t"], name="transpose", equation="ij->ji"),
                  node("Einsum", ["m2"], ["diag"], name="diag", equation="ii->i"),
                  node("Einsum", ["m"], ["rowsum"], name="rowsum", equation="ij")],
                 [vi("a", [2, 3, 4]), vi("b", [2, 4, 5]), vi("q", [1, 2, 3, 4]),
                  vi("k", [1, 2, 5, 4]), vi("m", [3, 4]), vi("m2", [3, 3])],
                 outs("bmm", "attn", "t", "diag", "rowsum"), opset=12)


@register
def lrn_upsample():
    return model([node("LRN", ["x"], ["lrn"], name="lrn", size=3),
                  node("Upsample", ["x"], ["up"], name="up", scales=[1.0, 1.0, 2.0, 3.0])],
                 [vi("x", [1, 4, 2, 2])], outs("lrn", "up"), opset=8)


@register
def upsample_opset9():
    # Scales as an input (an initializer of floats, which the importer does not track as known).
    return model([node("Upsample", ["x", "scales"], ["y"], name="up", mode="linear")],
                 [vi("x", [1, 1, 2, 2])], outs("y"), [floats("scales", [1.0, 1.0, 2.0, 2.0])],
                 opset=9)


@register
def conv_transpose():
    rng = np.random.default_rng(5)
    return model([node("ConvTranspose", ["x", "w", "b"], ["y"], name="deconv", strides=[2, 2],
                       pads=[1, 0, 1, 1], output_padding=[1, 0], group=2),
                  node("ConvTranspose", ["x1d", "w1d"], ["y1d"], name="deconv1d",
                       auto_pad="SAME_UPPER", strides=[2])],
                 [vi("x", [1, 4, 3, 3]), vi("x1d", [1, 2, 4])], outs("y", "y1d"),
                 [floats("w", rng.standard_normal((4, 3, 3, 2))), floats("b", rng.standard_normal(6)),
                  floats("w1d", rng.standard_normal((2, 1, 3)))])


@register
def conv_transpose_3d():
    rng = np.random.default_rng(8)
    return model([node("ConvTranspose", ["x", "w", "b"], ["y"], name="deconv3d", group=2,
                       strides=[2, 1, 2], dilations=[2, 1, 1], pads=[1, 0, 0, 0, 1, 1],
                       output_padding=[1, 0, 0])],
                 [vi("x", [1, 4, 2, 3, 2])], outs("y"),
                 [floats("w", rng.standard_normal((4, 1, 2, 2, 3))), floats("b", rng.standard_normal(2))])


@register
def conv_transpose_runtime_weight():
    return model([node("ConvTranspose", ["x", "w"], ["y"], name="deconv", strides=[1, 2])],
                 [vi("x", [1, 2, 3, 3]), vi("w", [2, 1, 2, 2])], outs("y"))


@register
def dynamic_inputs():
    # Clip takes run-time bounds; LayerNormalization computes Mean and InvStdDev; 1-D pooling.
    return model([node("Clip", ["x", "lo", "hi"], ["clipped"], name="clip"),
                  node("LayerNormalization", ["x", "scale"], ["ln", "mean", "inv"], name="ln",
                       axis=1),
                  node("MaxPool", ["x"], ["pool"], name="pool", kernel_shape=[2], strides=[2])],
                 [vi("x", [2, 3, 4]), vi("lo", []), vi("hi", [])],
                 outs("clipped", "ln", "mean", "inv", "pool"),
                 [floats("scale", np.ones((3, 4)))], opset=17)


@register
def batchnorm_training():
    rng = np.random.default_rng(6)
    return model([node("BatchNormalization", ["x", "s", "b", "mean", "var"], ["y", "rmean", "rvar"],
                       name="bn", training_mode=1, momentum=0.8)],
                 [vi("x", [2, 3, 4])], outs("y", "rmean", "rvar"),
                 [floats("s", rng.standard_normal(3)), floats("b", rng.standard_normal(3)),
                  floats("mean", rng.standard_normal(3)), floats("var", rng.random(3))], opset=15)


@register
def maxpool_indices():
    return model([node("MaxPool", ["x"], ["y", "idx"], name="pool", kernel_shape=[2, 3],
                       strides=[2, 2], pads=[1, 0, 0, 1], dilations=[1, 2], ceil_mode=1),
                  node("MaxPool", ["x"], ["y2", "idx2"], name="pool_cm", kernel_shape=[2, 2],
                       storage_order=1)],
                 [vi("x", [2, 2, 4, 5])], outs("y", "idx", "y2", "idx2"), opset=12)


@register
def dynamic_axes():
    return model([node("ReduceL2", ["x", "axes"], ["y"], name="l2_dyn")],
                 [vi("x", [2, 3]), vi("axes", [1], I64)], outs("y"), opset=18)


@register
def pool_3d():
    return model([node("AveragePool", ["x"], ["y"], name="pool3d", kernel_shape=[2, 2, 2],
                       strides=[2, 1, 1], pads=[0, 0, 1, 0, 0, 1])],
                 [vi("x", [1, 1, 4, 4, 4])], outs("y"))


@register
def pool_4d():
    return model([node("MaxPool", ["x"], ["y"], name="pool4d", kernel_shape=[1, 1, 1, 1])],
                 [vi("x", [1, 1, 2, 2, 2, 2])], outs("y"))


@register
def bad_depth_to_space():
    return model([node("DepthToSpace", ["x"], ["y"], name="d2s_bad", blocksize=3)],
                 [vi("x", [1, 8, 2, 2])], outs("y"))


@register
def bad_einsum():
    return model([node("Einsum", ["a", "b"], ["y"], name="einsum_bad", equation="ij,jk,kl->il")],
                 [vi("a", [2, 3]), vi("b", [3, 4])], outs("y"), opset=12)


@register
def dft_real():
    """A real signal [1, 6, 3, 1] transformed along axis 1, onesided, zero-padded to 8."""
    return model([node("DFT", ["x", "len"], ["y"], name="dft", axis=1, onesided=1)],
                 [vi("x", [1, 6, 3, 1])], outs("y"), [ints("len", 8)], opset=17)


@register
def dft_bad_axis():
    return model([node("DFT", ["x"], ["y"], name="dft_bad", axis=3)],
                 [vi("x", [1, 6, 3, 2])], outs("y"), opset=17)


@register
def hann_window():
    return model([node("HannWindow", ["n"], ["y"], name="hann", periodic=0)],
                 [], outs("y"), [ints("n", 5)], opset=17)


@register
def hann_window_dynamic():
    return model([node("HannWindow", ["n"], ["y"], name="hann_dyn")],
                 [vi("n", [], TensorProto.INT64)], outs("y"), opset=17)


@register
def det():
    return model([node("Det", ["x"], ["y"], name="det")], [vi("x", [2, 3, 3])], outs("y"))


@register
def roi_align_adaptive():
    return model([node("RoiAlign", ["x", "rois", "idx"], ["y"], name="roi_adaptive")],
                 [vi("x", [1, 1, 8, 8]), vi("rois", [2, 4]), vi("idx", [2], TensorProto.INT64)],
                 outs("y"), opset=16)


@register
def resize_cubic_matrix():
    """Cubic upsampling of H by 1.5 (W untouched): one [4, 6] interpolation matrix."""
    return model([node("Resize", ["x", "", "scales"], ["y"], name="cubic", mode="cubic")],
                 [vi("x", [1, 2, 4, 6])], outs("y"),
                 [floats("scales", np.array([1, 1, 1.5, 1], np.float32))], opset=13)


@register
def resize10():
    """Resize-10 (X, scales): nearest x2 (one ms.resize) and nearest shrinking H, enlarging W."""
    return model([node("Resize", ["x", "up_scales"], ["up"], name="up10"),
                  node("Resize", ["x", "mixed_scales"], ["mixed"], name="mixed10")],
                 [vi("x", [1, 2, 5, 4])], outs("up", "mixed"),
                 [floats("up_scales", np.array([1, 1, 2, 2], np.float32)),
                  floats("mixed_scales", np.array([1, 1, 0.6, 1.5], np.float32))], opset=10)


@register
def resize10_cubic():
    return model([node("Resize", ["x", "scales"], ["y"], name="cubic10", mode="cubic")],
                 [vi("x", [1, 2, 4, 4])], outs("y"),
                 [floats("scales", np.array([1, 1, 2, 2], np.float32))], opset=10)


@register
def col2im():
    """Col2Im of 2x2 blocks, stride 1, pad 1 on each side of a 3x3 image: 4 x 4 = 16 blocks."""
    return model([node("Col2Im", ["x", "image_shape", "block_shape"], ["y"], name="fold",
                       pads=[1, 1, 1, 1])],
                 [vi("x", [1, 8, 16])], outs("y"),
                 [ints("image_shape", [3, 3]), ints("block_shape", [2, 2])], opset=18)


@register
def max_unpool_output_shape():
    """MaxUnpool to an explicit 5x5 output: indices address the inferred 4x4, padded at the end."""
    return model([node("MaxUnpool", ["x", "indices", "shape"], ["y"], name="unpool5",
                       kernel_shape=[2, 2], strides=[2, 2])],
                 [vi("x", [1, 1, 2, 2]), vi("indices", [1, 1, 2, 2], TensorProto.INT64)],
                 outs("y"), [ints("shape", [1, 1, 5, 5])], opset=11)


@register
def center_crop_pad():
    """CenterCropPad of [5, 4, 3] to 2 rows (crop 3: 1 before, 2 after) and 7 columns (pad 3)."""
    return model([node("CenterCropPad", ["x", "shape"], ["y"], name="ccp", axes=[0, -2])],
                 [vi("x", [5, 4, 3])], outs("y"), [ints("shape", [2, 7])], opset=18)


@register
def affine_grid():
    return model([node("AffineGrid", ["theta", "size"], ["grid"], name="grid", align_corners=1)],
                 [vi("theta", [2, 2, 3])], outs("grid"), [ints("size", [2, 1, 2, 3])], opset=20)


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in MODELS:
        sys.exit(f"usage: {sys.argv[0]} NAME OUT.onnx\n  names: {' '.join(sorted(MODELS))}")
    with open(sys.argv[2], "wb") as f:
        f.write(MODELS[sys.argv[1]]().SerializeToString())


if __name__ == "__main__":
    main()
