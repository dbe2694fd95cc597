"""Builds one small single-op model per lowering variant, its inputs and onnxruntime's outputs.

Usage: make_ops.py OUT_DIR [VARIANT...]   (all variants when none is named)
For every variant writes OUT_DIR/VARIANT/ with the same layout as make_e2e.py: model.onnx,
input_K.npy, reference_K.npy, plus the files ops.test's loop reads:
  compile   the file to give mie-compile: model.onnx, or model.mlir for ops the ONNX importer
            does not map (then model.onnx is only the reference model, run by onnxruntime)
  run_args  mie-run's --input NAME=FILE / --output FILE arguments
  outputs   the output indices K (out_K.npy is compared with reference_K.npy)
  tol       compare.py's tolerances
and OUT_DIR/variants (the variant names, one a line). Inputs come from a seeded generator; the
reference is always onnxruntime's output, which shares nothing with the compiler.
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

DTYPES = {np.dtype(np.float32): TensorProto.FLOAT, np.dtype(np.int32): TensorProto.INT32,
          np.dtype(np.int64): TensorProto.INT64, np.dtype(np.bool_): TensorProto.BOOL}
MLIR_TYPES = {np.dtype(np.float32): "f32"}


class Variant:
    """One model: graph inputs (name -> array), initializers, one node, output names."""

    def __init__(self, op, inputs, outputs=("y",), inits=None, opset=13, mlir=None,
                 tol=(1e-4, 1e-5), domain="", domain_opset=None, out_type=None, out_shape=None,
                 **attrs):
        self.op, self.inputs, self.outputs = op, inputs, list(outputs)
        self.inits = inits or {}
        self.opset, self.mlir, self.tol, self.attrs = opset, mlir, tol, attrs
        self.domain, self.domain_opset = domain, domain_opset
        # The outputs' element type where shape inference leaves it open, and their shape (default:
        # the first input's).
        self.out_type, self.out_shape = out_type, out_shape


def rng(seed):
    return np.random.default_rng(seed)


def normal(shape, seed=0):
    return rng(seed).standard_normal(shape).astype(np.float32)


def i64(values):
    return np.array(values, np.int64)


def resize_mlir(in_shape, sizes, mode, coord, nearest=None):
    """The ms.resize equivalent of an ONNX Resize (the importer does not map Resize yet)."""
    def ty(shape):
        return "tensor<" + "x".join(map(str, shape)) + "xf32>"
    attrs = [f"sizes = array<i64: {', '.join(map(str, sizes))}>", f"mode = #ms<resize_mode {mode}>",
             f"coordinate_mode = #ms<coordinate_mode {coord}>"]
    if nearest:
        attrs.append(f"nearest_mode = #ms<nearest_mode {nearest}>")
    return (f"func.func @main(%x: {ty(in_shape)} {{mie.name = \"x\"}}) -> "
            f"({ty(sizes)} {{mie.name = \"y\"}}) {{\n"
            f"  %0 = ms.resize %x {{{', '.join(attrs)}}} : ({ty(in_shape)}) -> {ty(sizes)}\n"
            f"  return %0 : {ty(sizes)}\n}}\n")


def resize(in_shape, sizes, mode, coord, nearest=None):
    attrs = dict(mode=mode, coordinate_transformation_mode=coord)
    if nearest:
        attrs["nearest_mode"] = nearest
    return Variant("Resize", {"x": normal(in_shape, 7)}, inits={"sizes": i64(sizes)},
                   node_inputs=["x", "", "", "sizes"],
                   mlir=resize_mlir(in_shape, sizes, mode, coord, nearest), **attrs)


def random_trees(seed, trees, features, targets, depth, modes):
    """A random ensemble as TreeEnsembleRegressor's attribute lists: trees of up to `depth` levels
    (leaves appear early too), tests drawn from `modes` on thresholds that are multiples of 0.1 (so
    inputs rounded the same way hit EQ and NEQ), NaN sent down the true branch at random nodes, and
    leaves scoring a random subset of the targets (target 0 always)."""
    r = rng(seed)
    a = {k: [] for k in ["nodes_treeids", "nodes_nodeids", "nodes_featureids", "nodes_values",
                         "nodes_modes", "nodes_truenodeids", "nodes_falsenodeids",
                         "nodes_missing_value_tracks_true", "target_treeids", "target_nodeids",
                         "target_ids", "target_weights"]}
    for t in range(trees):
        count = [0]

        def grow(level):
            nid = count[0]
            count[0] += 1
            at = len(a["nodes_nodeids"])
            leaf = level == depth or (level > 0 and r.random() < 0.3)
            for k, val in [("nodes_treeids", t), ("nodes_nodeids", nid), ("nodes_truenodeids", 0),
                           ("nodes_falsenodeids", 0)]:
                a[k].append(val)
            a["nodes_featureids"].append(0 if leaf else int(r.integers(features)))
            a["nodes_values"].append(0.0 if leaf else round(float(r.normal()), 1))
            a["nodes_modes"].append("LEAF" if leaf else str(r.choice(modes)))
            a["nodes_missing_value_tracks_true"].append(0 if leaf else int(r.random() < 0.5))
            if leaf:
                for k in range(targets):
                    if k == 0 or r.random() < 0.6:
                        for key, val in [("target_treeids", t), ("target_nodeids", nid),
                                         ("target_ids", k), ("target_weights", round(float(r.normal()), 3))]:
                            a[key].append(val)
            else:
                a["nodes_truenodeids"][at] = grow(level + 1)
                a["nodes_falsenodeids"][at] = grow(level + 1)
            return nid
        grow(0)
    return a


def tree_features(seed, rows, features):
    """Inputs on the thresholds' 0.1 grid, with a few NaNs."""
    x = np.round(rng(seed).standard_normal([rows, features]), 1).astype(np.float32)
    x[rng(seed + 1).random([rows, features]) < 0.08] = np.nan
    return x


def svm_variants():
    """SVMClassifier / SVMRegressor models over x [12, 4] with random support vectors (libsvm's
    layout: coefficients [classes - 1, vectors], one rho per pair of classes)."""
    feats = normal([12, 4], 80)
    ml = dict(domain="ai.onnx.ml", domain_opset=1)
    v = {}

    def classifier(seed, per_class, kernel, params, **attrs):
        vectors = int(sum(per_class))
        classes = len(per_class)
        g = rng(seed)
        scores = classes if "prob_a" in attrs or classes == 2 else classes * (classes - 1) // 2
        return Variant("SVMClassifier", {"x": feats}, outputs=("y", "z"), **ml,
                       out_type=[TensorProto.INT64, TensorProto.FLOAT], out_shape=[[12], [12, scores]],
                       classlabels_ints=[int(c) for c in g.choice(50, classes, replace=False)],
                       vectors_per_class=per_class, kernel_type=kernel, kernel_params=params,
                       support_vectors=[round(float(c), 3) for c in g.standard_normal(vectors * 4)],
                       coefficients=[round(float(c), 3) for c in g.standard_normal((classes - 1) * vectors)],
                       rho=[round(float(c), 3) for c in g.standard_normal(classes * (classes - 1) // 2)],
                       **attrs)

    v["svm_classifier_rbf_4"] = classifier(81, [3, 2, 4, 2], "RBF", [0.3, 0.0, 0.0])
    v["svm_classifier_poly_3_softmax"] = classifier(82, [2, 3, 2], "POLY", [0.5, 1.0, 3.0],
                                                    post_transform="SOFTMAX")
    v["svm_classifier_sigmoid_probabilities"] = classifier(
        83, [3, 3, 2], "SIGMOID", [0.2, 0.1, 0.0], prob_a=[-1.5, -2.0, -0.75], prob_b=[0.1, -0.2, 0.05])
    v["svm_classifier_linear_2"] = classifier(84, [3, 4], "LINEAR", [0.0, 0.0, 0.0])
    v["svm_classifier_rbf_2_logistic"] = classifier(85, [2, 3], "RBF", [0.5, 0.0, 0.0],
                                                    post_transform="LOGISTIC")
    v["svm_classifier_rbf_2_probabilities"] = classifier(86, [4, 3], "RBF", [0.25, 0.0, 0.0],
                                                         prob_a=[-2.5], prob_b=[0.3])
    g = rng(87)
    v["svm_classifier_liblinear_3"] = Variant(
        "SVMClassifier", {"x": feats}, outputs=("y", "z"), **ml, classlabels_ints=[0, 1, 2],
        out_type=[TensorProto.INT64, TensorProto.FLOAT], out_shape=[[12], [12, 3]],
        coefficients=[round(float(c), 3) for c in g.standard_normal(12)], rho=[0.25],
        kernel_params=[0.0, 0.0, 0.0],
        post_transform="LOGISTIC")
    v["svm_classifier_liblinear_2"] = Variant(
        "SVMClassifier", {"x": feats}, outputs=("y", "z"), **ml, classlabels_ints=[5, 6],
        out_type=[TensorProto.INT64, TensorProto.FLOAT], out_shape=[[12], [12, 2]],
        coefficients=[round(float(c), 3) for c in g.standard_normal(8)], rho=[-0.1],
        kernel_params=[0.0, 0.0, 0.0])
    f32 = TensorProto.FLOAT
    v["svm_regressor_rbf"] = Variant(
        "SVMRegressor", {"x": feats}, **ml, out_type=f32, out_shape=[12, 1], n_supports=5,
        kernel_type="RBF", kernel_params=[0.4, 0.0, 0.0],
        support_vectors=[round(float(c), 3) for c in g.standard_normal(20)],
        coefficients=[round(float(c), 3) for c in g.standard_normal(5)], rho=[0.5])
    v["svm_regressor_poly_one_class"] = Variant(
        "SVMRegressor", {"x": feats}, **ml, out_type=f32, out_shape=[12, 1], n_supports=6,
        kernel_type="POLY", kernel_params=[0.3, 0.5, 2.0], one_class=1,
        support_vectors=[round(float(c), 3) for c in g.standard_normal(24)],
        coefficients=[round(float(c), 3) for c in g.standard_normal(6)], rho=[-0.2])
    v["svm_regressor_liblinear"] = Variant(
        "SVMRegressor", {"x": feats}, **ml, out_type=f32, out_shape=[12, 1],
        coefficients=[0.5, -1.25, 2.0, 0.75], rho=[0.125], kernel_params=[0.0, 0.0, 0.0])
    return v


# PROBIT's formula (onnxruntime's ErfInv) cancels: onnxruntime's f32 result is up to ~3e-5 away
# from the exact value of its own formula (mie evaluates it in f64), so the reference is that far
# off.
PROBIT_TOL = (1e-4, 1e-4)


def tree_regressor(seed, targets, modes, trees=6, **attrs):
    return Variant("TreeEnsembleRegressor", {"x": tree_features(seed, 64, 5)}, opset=13,
                   domain="ai.onnx.ml", domain_opset=3, n_targets=targets,
                   **random_trees(seed, trees, 5, targets, 5, modes), **attrs)


def tree_classifier(seed, labels, modes, voted=None, positive=False, **attrs):
    """A TreeEnsembleClassifier of len(labels) classes: random_trees' votes as class votes; with
    `voted`, every vote is for that class; with `positive`, the weights' magnitudes."""
    trees = random_trees(seed, 6, 5, len(labels), 5, modes)
    trees = {k.replace("target_", "class_"): val for k, val in trees.items()}
    if voted is not None:
        trees["class_ids"] = [voted] * len(trees["class_ids"])
    if positive:
        trees["class_weights"] = [abs(w) for w in trees["class_weights"]]
    return Variant("TreeEnsembleClassifier", {"x": tree_features(seed, 64, 5)}, outputs=("y", "z"),
                   opset=13, domain="ai.onnx.ml", domain_opset=3, classlabels_int64s=labels,
                   **trees, **attrs)


def variants():
    v = {}
    # Softmax (opset 13: any axis).
    v["softmax_last"] = Variant("Softmax", {"x": normal([2, 3, 17], 1) * 4}, axis=-1)
    v["softmax_axis1"] = Variant("Softmax", {"x": normal([2, 5, 4], 2) * 4}, axis=1)
    v["softmax_axis0"] = Variant("Softmax", {"x": normal([3, 4], 3)}, axis=0)
    # LayerNormalization (opset 17), with and without bias, one or several normalized dims.
    v["layer_norm_bias"] = Variant(
        "LayerNormalization", {"x": normal([2, 4, 16], 4) * 3 + 1},
        inits={"scale": normal([16], 5), "bias": normal([16], 6)}, opset=17, axis=-1,
        epsilon=1e-5, node_inputs=["x", "scale", "bias"])
    v["layer_norm_axis1"] = Variant(
        "LayerNormalization", {"x": normal([2, 3, 8], 8)}, inits={"scale": normal([3, 8], 9)},
        opset=17, axis=1, epsilon=1e-3, node_inputs=["x", "scale"])
    # Reductions (opset 13: ReduceSum takes axes as an input, the others as an attribute).
    x = normal([2, 3, 4, 5], 10)
    v["reduce_sum_keep"] = Variant("ReduceSum", {"x": x}, inits={"axes": i64([1])}, keepdims=1,
                                   node_inputs=["x", "axes"])
    v["reduce_sum_all"] = Variant("ReduceSum", {"x": x}, keepdims=1)
    v["reduce_sum_int"] = Variant("ReduceSum", {"x": rng(11).integers(-50, 50, [3, 4, 5]).astype(
        np.int32)}, inits={"axes": i64([0, 2])}, keepdims=0, node_inputs=["x", "axes"])
    v["reduce_mean_multi"] = Variant("ReduceMean", {"x": x}, axes=[0, 2], keepdims=0)
    v["reduce_mean_neg"] = Variant("ReduceMean", {"x": x}, axes=[-1], keepdims=1)
    v["reduce_max"] = Variant("ReduceMax", {"x": x}, axes=[1, 3], keepdims=1)
    v["reduce_max_all"] = Variant("ReduceMax", {"x": x}, keepdims=0)
    v["reduce_min"] = Variant("ReduceMin", {"x": x}, axes=[-2], keepdims=0)
    # Gather: constant i64 indices with negatives on axis 0; i32 indices as an input on axis 1;
    # a scalar index.
    v["gather_axis0"] = Variant("Gather", {"x": normal([10, 4], 12)},
                                inits={"idx": i64([[0, -1, 3], [9, -10, 5]])}, axis=0,
                                node_inputs=["x", "idx"])
    v["gather_axis1_i32"] = Variant(
        "Gather", {"x": normal([3, 5, 2], 13), "idx": np.array([4, -2, 0, 1], np.int32)}, axis=1)
    v["gather_scalar"] = Variant("Gather", {"x": normal([4, 6], 14)},
                                 inits={"idx": np.array(-2, np.int64)}, axis=1,
                                 node_inputs=["x", "idx"])
    # Slice: positive steps (a strided box), negative steps (reversed), a partial axes list.
    v["slice_steps"] = Variant("Slice", {"x": normal([6, 8], 15)},
                               inits={"s": i64([1, 0]), "e": i64([5, 8]), "a": i64([0, 1]),
                                      "st": i64([2, 3])}, node_inputs=["x", "s", "e", "a", "st"])
    v["slice_negative"] = Variant("Slice", {"x": normal([5, 6, 3], 16)},
                                  inits={"s": i64([-1, 4]), "e": i64([-100, 0]), "a": i64([0, 1]),
                                         "st": i64([-1, -2])},
                                  node_inputs=["x", "s", "e", "a", "st"])
    v["slice_mixed"] = Variant("Slice", {"x": normal([4, 7], 17)},
                               inits={"s": i64([1, 6]), "e": i64([4, 0]), "a": i64([0, 1]),
                                      "st": i64([1, -3])}, node_inputs=["x", "s", "e", "a", "st"])
    # Split into three uneven pieces, and into equal pieces on a negative axis.
    v["split_sizes"] = Variant("Split", {"x": normal([2, 9], 18)}, outputs=["y0", "y1", "y2"],
                               inits={"split": i64([2, 3, 4])}, axis=1,
                               node_inputs=["x", "split"])
    v["split_equal"] = Variant("Split", {"x": normal([4, 3, 2], 19)}, outputs=["y0", "y1"],
                               axis=-3)
    # Pad: constant with a value, constant with negative pads (crop), reflect, edge.
    p = normal([1, 2, 4, 5], 20)
    v["pad_constant"] = Variant("Pad", {"x": p}, inits={
        "pads": i64([0, 0, 1, 2, 0, 0, 2, 1]), "value": np.array(1.5, np.float32)},
        mode="constant", node_inputs=["x", "pads", "value"])
    v["pad_crop"] = Variant("Pad", {"x": p}, inits={"pads": i64([0, 0, -1, 2, 0, 0, 1, -2])},
                            mode="constant", node_inputs=["x", "pads"])
    v["pad_reflect"] = Variant("Pad", {"x": p}, inits={"pads": i64([0, 1, 3, 2, 0, 1, 2, 4])},
                               mode="reflect", node_inputs=["x", "pads"])
    v["pad_edge"] = Variant("Pad", {"x": p}, inits={"pads": i64([0, 0, 2, 3, 1, 0, 4, 1])},
                            mode="edge", node_inputs=["x", "pads"])
    # Pad in wrap mode (opset 19): one gather of (i - begin) mod size per padded axis.
    v["pad_wrap"] = Variant("Pad", {"x": p}, opset=19, inits={"pads": i64([0, 1, 3, 2, 0, 2, 1, 3])},
                            mode="wrap", node_inputs=["x", "pads"])
    # ReduceMax / ReduceMin of booleans (opset 20): any / all.
    b = rng(42).random([3, 4, 2]) < 0.5
    v["reduce_max_bool"] = Variant("ReduceMax", {"x": b}, opset=20, inits={"axes": i64([1])},
                                   node_inputs=["x", "axes"], keepdims=0)
    v["reduce_min_bool"] = Variant("ReduceMin", {"x": b}, opset=20, inits={"axes": i64([0, 2])},
                                   node_inputs=["x", "axes"], keepdims=1)
    # TfIdfVectorizer (the backend cases are TF only): IDF and TFIDF with weights, 1-D and 2-D
    # int64 input, uni- to trigrams with skips, output columns permuted (weights are per output
    # column, as onnxruntime and ONNX's reference read them).
    tokens = rng(43).integers(0, 4, [2, 9]).astype(np.int64)
    tfidf = dict(min_gram_length=1, max_gram_length=3, max_skip_count=1, ngram_counts=[0, 3, 7],
                 pool_int64s=[0, 1, 3, 0, 1, 1, 2, 3, 3, 2, 0, 1, 2],
                 ngram_indexes=[7, 1, 2, 0, 4, 5, 3, 6],
                 weights=[0.5, 1.5, 2.0, 0.25, 3.0, 1.0, 0.75, 1.25])
    v["tfidf_idf"] = Variant("TfIdfVectorizer", {"x": tokens}, opset=9, mode="IDF", **tfidf)
    v["tfidf_tfidf_1d"] = Variant("TfIdfVectorizer", {"x": tokens[0]}, opset=9, mode="TFIDF",
                                  **tfidf)
    v["tfidf_tf_bigrams"] = Variant("TfIdfVectorizer", {"x": tokens}, opset=9, mode="TF",
                                    **dict(tfidf, min_gram_length=2, max_skip_count=2))
    # LpPool in ceil mode: the last window runs past the input (and past the end padding); its
    # p-norm is over the elements inside. Stride 3 over a kernel of 2 skips elements.
    v["lppool_ceil_2d"] = Variant("LpPool", {"x": normal([1, 2, 7, 7], 24)}, opset=18,
                                  kernel_shape=[2, 2], strides=[2, 2], ceil_mode=1)
    v["lppool_ceil_1d_p3"] = Variant("LpPool", {"x": normal([1, 2, 8], 25)}, opset=18,
                                     kernel_shape=[2], strides=[3], ceil_mode=1, p=3)
    v["lppool_ceil_pads_p1"] = Variant("LpPool", {"x": normal([1, 1, 6, 7], 26)}, opset=18,
                                       kernel_shape=[3, 2], strides=[2, 2], pads=[1, 0, 0, 1],
                                       ceil_mode=1, p=1)
    # 1-D and 3-D convolutions (a 2-D one of height 1; one 2-D convolution over depth taps stacked
    # as channels): strides, pads, dilations, groups, bias, SAME padding.
    v["conv1d_strided_dilated"] = Variant(
        "Conv", {"x": normal([2, 4, 11], 30)}, node_inputs=["x", "w", "b"],
        inits={"w": normal([6, 2, 3], 31), "b": normal([6], 32)}, strides=[2], pads=[2, 1],
        dilations=[2], group=2)
    v["conv1d_same"] = Variant("Conv", {"x": normal([1, 3, 9], 33)}, node_inputs=["x", "w"],
                               inits={"w": normal([5, 3, 4], 34)}, auto_pad="SAME_UPPER")
    v["conv3d_strided_dilated_groups"] = Variant(
        "Conv", {"x": normal([1, 4, 7, 6, 5], 35)}, node_inputs=["x", "w", "b"],
        inits={"w": normal([6, 2, 3, 2, 3], 36), "b": normal([6], 37)}, strides=[2, 1, 2],
        pads=[1, 0, 1, 2, 1, 0], dilations=[2, 1, 1], group=2)
    v["conv3d_temporal"] = Variant("Conv", {"x": normal([2, 3, 5, 4, 4], 38)},
                                   node_inputs=["x", "w"], inits={"w": normal([4, 3, 3, 1, 1], 39)},
                                   pads=[1, 0, 0, 1, 0, 0])
    v["conv3d_spatial_only"] = Variant("Conv", {"x": normal([1, 3, 4, 6, 6], 40)},
                                       node_inputs=["x", "w"],
                                       inits={"w": normal([2, 3, 1, 3, 3], 41)},
                                       strides=[2, 2, 2], auto_pad="SAME_LOWER")
    # ConvTranspose (ms.conv_transpose, run by ms-decompose as a stride-1 convolution of the
    # zero-inserted input): 3-D with strides, dilations, groups, output_padding and a bias (an
    # ms.conv3d inside); 1-D SAME_UPPER with a dilation; 2-D with output_shape.
    v["conv_transpose3d_strided_groups"] = Variant(
        "ConvTranspose", {"x": normal([1, 4, 3, 4, 3], 42)}, node_inputs=["x", "w", "b"],
        inits={"w": normal([4, 3, 2, 3, 2], 43), "b": normal([6], 44)}, strides=[2, 1, 2],
        pads=[1, 0, 1, 0, 1, 0], dilations=[1, 2, 1], output_padding=[1, 0, 1], group=2)
    v["conv_transpose1d_same_dilated"] = Variant(
        "ConvTranspose", {"x": normal([2, 3, 5], 45)}, node_inputs=["x", "w"],
        inits={"w": normal([3, 2, 3], 46)}, strides=[2], dilations=[2], auto_pad="SAME_UPPER")
    v["conv_transpose2d_output_shape"] = Variant(
        "ConvTranspose", {"x": normal([1, 2, 4, 3], 47)}, node_inputs=["x", "w"],
        inits={"w": normal([2, 3, 3, 3], 48)}, strides=[3, 2], output_shape=[12, 7])
    # Einsum (ms.einsum, contracted by ms-decompose): "..." broadcast against a size-1 batch,
    # three operands with a diagonal, an implicit output, an integer operand pair.
    v["einsum_ellipsis_broadcast"] = Variant(
        "Einsum", {"a": normal([2, 3, 4, 5], 49), "b": normal([1, 3, 5, 6], 50)},
        node_inputs=["a", "b"], equation="...ij,...jk->...ik")
    v["einsum_three_diagonal"] = Variant(
        "Einsum", {"a": normal([2, 3, 4], 51), "b": normal([4, 5], 52), "c": normal([5, 5], 53)},
        node_inputs=["a", "b", "c"], equation="bij,jk,kk->bi")
    v["einsum_implicit"] = Variant("Einsum", {"a": normal([3, 4], 54), "b": normal([4, 2], 55)},
                                   node_inputs=["a", "b"], equation="ij,jk")
    v["einsum_int64"] = Variant(
        "Einsum", {"a": np.arange(12, dtype=np.int64).reshape(3, 4) - 5,
                   "b": np.arange(8, dtype=np.int64).reshape(4, 2) - 3},
        node_inputs=["a", "b"], equation="ij,jk->ki")
    # Resize-10 (X, scales; asymmetric): nearest up (one ms.resize), nearest down on one axis and
    # up on the other (rounding up and down: interpolation matrices), linear up and down.
    f32 = np.float32
    v["resize10_nearest_up"] = Variant("Resize", {"x": normal([1, 2, 3, 4], 27)}, opset=10,
                                       inits={"scales": np.array([1, 1, 2, 2], f32)},
                                       node_inputs=["x", "scales"], mode="nearest")
    v["resize10_nearest_mixed"] = Variant("Resize", {"x": normal([1, 1, 5, 4], 28)}, opset=10,
                                          inits={"scales": np.array([1, 1, 0.6, 1.5], f32)},
                                          node_inputs=["x", "scales"], mode="nearest")
    v["resize10_linear_mixed"] = Variant("Resize", {"x": normal([1, 2, 4, 6], 29)}, opset=10,
                                         inits={"scales": np.array([1, 1, 1.7, 0.5], f32)},
                                         node_inputs=["x", "scales"], mode="linear")
    # Tree ensembles (ai.onnx.ml): random forests of every branch test, NaN routing, several
    # targets, each aggregate and post transform, base values; TreeEnsemble (ai.onnx.ml 5) with set
    # membership next to ordinary tests.
    every = ["BRANCH_LEQ", "BRANCH_LT", "BRANCH_GTE", "BRANCH_GT", "BRANCH_EQ", "BRANCH_NEQ"]
    v["tree_regressor_leq_sum"] = tree_regressor(50, 1, ["BRANCH_LEQ"])
    v["tree_regressor_mixed_sum_base"] = tree_regressor(51, 3, every, base_values=[0.5, -1.0, 2.0])
    v["tree_regressor_average_logistic"] = tree_regressor(52, 2, every, aggregate_function="AVERAGE",
                                                          post_transform="LOGISTIC")
    v["tree_regressor_min"] = tree_regressor(53, 3, every, aggregate_function="MIN")
    # Two trees: in some rows no tree votes for target 1 or 2, which then read 0, base or not.
    v["tree_regressor_sparse_votes_base"] = tree_regressor(64, 3, every, trees=2,
                                                           base_values=[1.0, 2.0, 3.0])
    v["tree_regressor_max_softmax"] = tree_regressor(54, 3, every, aggregate_function="MAX",
                                                     post_transform="SOFTMAX")
    # One target: onnxruntime applies PROBIT only (LOGISTIC / SOFTMAX leave the score as it is);
    # PROBIT on several targets too (scores kept in (0, 1) by sigmoid-like leaf weights).
    v["tree_regressor_one_target_logistic"] = tree_regressor(90, 1, every, post_transform="LOGISTIC")
    v["tree_regressor_one_target_softmax"] = tree_regressor(91, 1, every, post_transform="SOFTMAX")
    for name, seed, targets in [("tree_regressor_probit", 92, 2),
                                ("tree_regressor_one_target_probit", 93, 1)]:
        probit_trees = random_trees(seed, 4, 5, targets, 5, every)
        probit_trees["target_weights"] = [round(0.05 + (0.2 * float(w)) % 0.2, 3)
                                          for w in probit_trees["target_weights"]]
        v[name] = Variant("TreeEnsembleRegressor", {"x": tree_features(seed, 64, 5)}, opset=13,
                          domain="ai.onnx.ml", domain_opset=3, n_targets=targets,
                          post_transform="PROBIT", tol=PROBIT_TOL, **probit_trees)
    v["tree_classifier_4"] = tree_classifier(55, [0, 1, 2, 3], every)
    v["tree_classifier_softmax_base"] = tree_classifier(56, [7, 3, 11], every, post_transform="SOFTMAX",
                                                        base_values=[0.25, -0.5, 0.125])
    v["tree_classifier_logistic"] = tree_classifier(57, [1, 2, 3, 4, 5], ["BRANCH_LT"],
                                                    post_transform="LOGISTIC")
    # Two classes, onnxruntime's rules: both classes voted (the label is 1 or 0, not a label), one
    # voted class with positive weights (0.5 threshold) or mixed signs, one or two base values.
    v["tree_classifier_2_both"] = tree_classifier(58, [3, 7], every)
    v["tree_classifier_2_both_base2_softmax"] = tree_classifier(59, [0, 1], every,
                                                                base_values=[0.5, -0.25],
                                                                post_transform="SOFTMAX")
    v["tree_classifier_2_voted1_positive"] = tree_classifier(60, [4, 9], every, voted=1,
                                                             positive=True)
    v["tree_classifier_2_voted0_logistic_base"] = tree_classifier(61, [0, 1], every, voted=0,
                                                                  base_values=[0.3],
                                                                  post_transform="LOGISTIC")
    v["tree_classifier_2_voted1_mixed"] = tree_classifier(62, [5, 6], every, voted=1)
    v["tree_classifier_2_voted1_base2"] = tree_classifier(63, [0, 1], every, voted=1,
                                                          base_values=[0.2, 0.2])
    # Scaler: per-feature offset and scale (int64 input cast to float), one value for all.
    v["scaler_per_feature"] = Variant("Scaler", {"x": normal([5, 3], 65)}, domain="ai.onnx.ml",
                                      domain_opset=1, out_type=TensorProto.FLOAT, offset=[0.5, -1.0, 2.0],
                                      scale=[2.0, 0.25, -3.0])
    v["scaler_int_one_value"] = Variant("Scaler", {"x": rng(66).integers(-9, 9, [4, 6]).astype(np.int64)},
                                        domain="ai.onnx.ml", domain_opset=1, out_type=TensorProto.FLOAT,
                                        offset=[1.5], scale=[0.5])
    # Linear models and Normalizer (ai.onnx.ml): several targets with a post transform, one target
    # (onnxruntime leaves it untransformed), a classifier's many-class argmax and its one-score
    # binary form ((1 - s, s), the second label where s > 0), the three norms with a zero row.
    f32 = TensorProto.FLOAT
    feats = normal([6, 4], 67)
    coef = [round(float(c), 2) for c in normal([12], 68)]
    v["linear_regressor_targets_logistic"] = Variant(
        "LinearRegressor", {"x": feats}, domain="ai.onnx.ml", domain_opset=1, out_type=f32,
        out_shape=[6, 3], coefficients=coef, intercepts=[0.5, -0.25, 1.0], targets=3,
        post_transform="LOGISTIC")
    v["linear_regressor_one_target"] = Variant(
        "LinearRegressor", {"x": feats}, domain="ai.onnx.ml", domain_opset=1, out_type=f32,
        out_shape=[6, 1], coefficients=coef[:4], intercepts=[0.5], post_transform="LOGISTIC")
    unit = (rng(95).random([6, 4]) * 0.25).astype(np.float32)
    v["linear_regressor_probit"] = Variant(
        "LinearRegressor", {"x": unit}, domain="ai.onnx.ml", domain_opset=1, out_type=f32,
        out_shape=[6, 3], coefficients=[0.1, 0.2, -0.1, 0.3, 0.05, -0.2, 0.1, 0.1, 0.2, 0.1, -0.3, 0.2],
        intercepts=[0.4, 0.5, 0.3], targets=3, post_transform="PROBIT", tol=PROBIT_TOL)
    v["linear_regressor_one_target_probit"] = Variant(
        "LinearRegressor", {"x": unit}, domain="ai.onnx.ml", domain_opset=1, out_type=f32,
        out_shape=[6, 1], coefficients=[0.1, 0.2, -0.1, 0.3], intercepts=[0.45],
        post_transform="PROBIT", tol=PROBIT_TOL)
    v["linear_classifier_softmax"] = Variant(
        "LinearClassifier", {"x": feats}, outputs=("y", "z"), domain="ai.onnx.ml", domain_opset=1,
        coefficients=coef, intercepts=[0.5, -0.25, 1.0], classlabels_ints=[4, 8, 15],
        post_transform="SOFTMAX")
    v["linear_classifier_binary"] = Variant(
        "LinearClassifier", {"x": feats}, outputs=("y", "z"), domain="ai.onnx.ml", domain_opset=1,
        coefficients=coef[:4], intercepts=[0.1], classlabels_ints=[3, 9])
    with_zero = np.concatenate([feats, np.zeros([1, 4], np.float32)])
    for norm in ["MAX", "L1", "L2"]:
        v["normalizer_" + norm.lower()] = Variant("Normalizer", {"x": with_zero}, domain="ai.onnx.ml",
                                                  domain_opset=1, out_type=f32, norm=norm)
    # Imputer: NaNs replaced per feature; an int64 sentinel replaced by one value.
    holes = normal([5, 3], 69)
    holes[[0, 2, 4], [1, 0, 2]] = np.nan
    v["imputer_nan_per_feature"] = Variant("Imputer", {"x": holes}, domain="ai.onnx.ml",
                                           domain_opset=1, out_type=f32,
                                           imputed_value_floats=[1.5, -2.0, 0.25],
                                           replaced_value_float=float("nan"))
    v["imputer_int_sentinel"] = Variant("Imputer", {"x": rng(70).integers(-2, 3, [4, 5]).astype(np.int64)},
                                        domain="ai.onnx.ml", domain_opset=1, out_type=TensorProto.INT64,
                                        imputed_value_int64s=[7], replaced_value_int64=-1)
    # Support vector machines (ai.onnx.ml): libsvm's one-vs-one classifier with each kernel, Platt
    # probabilities coupled over 3 classes, the two-class score forms ((-s, s) without a
    # transform, (1 - s, s) with one), liblinear's form (no support vectors); regressors with
    # support vectors, one_class, and liblinear's form.
    v.update(svm_variants())
    # OneHotEncoder: float input cast to int64, an unknown value (a row of zeros), a category
    # listed twice (its last position). LabelEncoder: int64 keys over a compact range (a dense
    # table), scattered int64 keys (compared with each), float keys with NaN (which matches NaN
    # from ai.onnx.ml 4 on, nothing before), and ai.onnx.ml 4's tensor attributes.
    v["one_hot_encoder"] = Variant(
        "OneHotEncoder", {"x": np.array([[1.0, 3.7, -2.0], [9.0, 3.0, 5.0]], np.float32)},
        domain="ai.onnx.ml", domain_opset=1, out_type=TensorProto.FLOAT, out_shape=[2, 3, 5],
        cats_int64s=[3, 1, -2, 5, 3], zeros=1)
    keys = rng(71).choice(40, 12, replace=False).astype(np.int64)
    v["label_encoder_dense_int_to_float"] = Variant(
        "LabelEncoder", {"x": rng(72).integers(-5, 45, [4, 6]).astype(np.int64)}, domain="ai.onnx.ml",
        domain_opset=2, out_type=TensorProto.FLOAT, keys_int64s=keys.tolist(),
        values_floats=[float(k) * 0.5 + 1 for k in keys], default_float=-7.5)
    scattered = [3, -1000000, 10**12, 77, -(2**62)]
    v["label_encoder_scattered_int"] = Variant(
        "LabelEncoder", {"x": i64([[3, 77, 5], [-(2**62), 10**12, -1000000], [0, 3, -(2**63)]])},
        domain="ai.onnx.ml", domain_opset=2, out_type=TensorProto.INT64, keys_int64s=scattered,
        values_int64s=[10, 20, 30, 40, 50])
    v["label_encoder_float_nan_key"] = Variant(
        "LabelEncoder", {"x": np.array([0.5, np.nan, -1.25, 2.0, 0.0, 7.0], np.float32)},
        domain="ai.onnx.ml", domain_opset=2, out_type=TensorProto.INT64,
        keys_floats=[0.5, float("nan"), -1.25, 2.0], values_int64s=[1, 2, 3, 4], default_int64=-9)
    v["label_encoder_4_float_nan_key"] = Variant(
        "LabelEncoder", {"x": np.array([0.5, np.nan, -1.25, 2.0, 0.0, 7.0], np.float32)},
        domain="ai.onnx.ml", domain_opset=4, out_type=TensorProto.INT64,
        keys_tensor=helper.make_tensor("k", TensorProto.FLOAT, [3], [np.nan, 0.5, 7.0]),
        values_tensor=helper.make_tensor("v", TensorProto.INT64, [3], [5, 6, 7]))
    v["label_encoder_tensors"] = Variant(
        "LabelEncoder", {"x": i64([[4, 8], [15, 16], [23, 42]])}, domain="ai.onnx.ml",
        domain_opset=4, out_type=TensorProto.FLOAT,
        keys_tensor=helper.make_tensor("k", TensorProto.INT64, [4], [4, 15, 42, 16]),
        values_tensor=helper.make_tensor("v", TensorProto.FLOAT, [4], [0.5, 1.5, 2.5, 3.5]),
        default_tensor=helper.make_tensor("d", TensorProto.FLOAT, [1], [-1.0]))
    v["tree_ensemble_member"] = Variant(
        "TreeEnsemble", {"x": np.array([[1.0, 0.5, 3.0], [2.0, np.nan, 0.0], [4.0, 1.5, -1.0],
                                         [3.0, 2.5, 2.0], [np.nan, 0.5, 1.0]], np.float32)},
        opset=13, domain="ai.onnx.ml", domain_opset=5, n_targets=2, aggregate_function=1,
        nodes_featureids=[0, 1, 2, 0], nodes_modes=helper.make_tensor("m", TensorProto.UINT8, [4], [6, 0, 3, 1]),
        nodes_splits=helper.make_tensor("s", TensorProto.FLOAT, [4], [0.0, 1.0, 0.5, 2.5]),
        membership_values=helper.make_tensor("mv", TensorProto.FLOAT, [4], [1.0, 4.0, 7.0, np.nan]),
        nodes_truenodeids=[1, 0, 1, 2], nodes_trueleafs=[0, 1, 1, 1],
        nodes_falsenodeids=[2, 1, 3, 3], nodes_falseleafs=[0, 1, 1, 1],
        nodes_missing_value_tracks_true=[1, 0, 0, 1],
        leaf_targetids=[0, 1, 0, 1, 0], leaf_weights=helper.make_tensor(
            "w", TensorProto.FLOAT, [5], [1.0, 10.0, 100.0, 1000.0, 0.5]),
        tree_roots=[0, 3])
    # Expand: broadcast a [3, 1] to [2, 3, 6].
    v["expand"] = Variant("Expand", {"x": normal([3, 1], 21)}, inits={"shape": i64([2, 1, 6])},
                          node_inputs=["x", "shape"])
    # Resize (through ms .mlir): the four nearest modes where asymmetric x2 upsampling makes ties,
    # nearest with half_pixel at a non-integer ratio, and linear with the four coordinate modes.
    for mode in ["round_prefer_floor", "round_prefer_ceil", "floor", "ceil"]:
        v["resize_nearest_" + mode] = resize([1, 2, 3, 4], [1, 2, 6, 8], "nearest", "asymmetric",
                                             mode)
    v["resize_nearest_half_pixel"] = resize([1, 1, 5, 7], [1, 1, 3, 10], "nearest", "half_pixel",
                                            "round_prefer_floor")
    for coord in ["half_pixel", "align_corners", "asymmetric", "pytorch_half_pixel"]:
        v["resize_linear_" + coord] = resize([1, 2, 4, 5], [1, 2, 7, 3], "linear", coord)
    v["resize_linear_pytorch_one"] = resize([1, 2, 4, 5], [1, 2, 1, 9], "linear",
                                            "pytorch_half_pixel")
    return v


def build(name, var, out_dir):
    d = os.path.join(out_dir, name)
    os.makedirs(d, exist_ok=True)
    attrs = dict(var.attrs)
    node_inputs = attrs.pop("node_inputs", list(var.inputs))
    node = helper.make_node(var.op, node_inputs, var.outputs, name=name, domain=var.domain, **attrs)
    graph_inputs = [helper.make_tensor_value_info(k, DTYPES[a.dtype], a.shape)
                    for k, a in var.inputs.items()]
    # Output types are left to shape inference; "" marks an omitted optional output.
    # (A list of types goes with a list of shapes, one per output.)
    out_shape = var.out_shape or next(iter(var.inputs.values())).shape
    outputs = [o for o in var.outputs if o]
    if isinstance(var.out_type, list):
        graph_outputs = [helper.make_tensor_value_info(o, t, sh)
                         for o, t, sh in zip(outputs, var.out_type, var.out_shape)]
    else:
        graph_outputs = [helper.make_tensor_value_info(o, var.out_type, out_shape) if var.out_type
                         else helper.make_empty_tensor_value_info(o) for o in outputs]
    inits = [numpy_helper.from_array(a, k) for k, a in var.inits.items()]
    graph = helper.make_graph([node], name, graph_inputs, graph_outputs, initializer=inits)
    opsets = [helper.make_opsetid("", var.opset)]
    if var.domain:
        opsets.append(helper.make_opsetid(var.domain, var.domain_opset))
    model = helper.make_model(graph, opset_imports=opsets)
    model.ir_version = 8
    model = onnx.shape_inference.infer_shapes(model, strict_mode=True)
    onnx.checker.check_model(model)
    path = os.path.join(d, "model.onnx")
    onnx.save(model, path)

    import onnxruntime as ort
    session = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
    results = session.run(None, dict(var.inputs))

    args = []
    for k, (key, a) in enumerate(var.inputs.items()):
        np.save(os.path.join(d, f"input_{k}.npy"), a)
        args.append(f"--input {key}={os.path.join(d, f'input_{k}.npy')}")
    for k, r in enumerate(results):
        np.save(os.path.join(d, f"reference_{k}.npy"), r)
        args.append(f"--output {os.path.join(d, f'out_{k}.npy')}")
    compile_file = "model.onnx"
    if var.mlir:
        compile_file = "model.mlir"
        with open(os.path.join(d, compile_file), "w") as f:
            f.write(var.mlir)
    files = {"compile": compile_file, "run_args": " ".join(args),
             "outputs": " ".join(str(k) for k in range(len(results))),
             "tol": f"--rtol {var.tol[0]} --atol {var.tol[1]}"}
    for fname, text in files.items():
        with open(os.path.join(d, fname), "w") as f:
            f.write(text + "\n")


def main():
    out_dir, names = sys.argv[1], sys.argv[2:]
    all_variants = variants()
    names = names or list(all_variants)
    os.makedirs(out_dir, exist_ok=True)
    for name in names:
        build(name, all_variants[name], out_dir)
    with open(os.path.join(out_dir, "variants"), "w") as f:
        f.write("\n".join(names) + "\n")


if __name__ == "__main__":
    main()
