"""Builds models with dynamic axes, as PyTorch and Hugging Face exporters write them, and
onnxruntime's outputs for them at several shapes.

Usage: make_dynamic.py MODEL OUT_DIR [--no-reference | SHAPE_SET...]
Writes OUT_DIR/model.onnx and, for each named shape set (default: all of the model's), the inputs
OUT_DIR/<set>/<input>.npy and onnxruntime's outputs OUT_DIR/<set>/<output>.ref.npy. The symbolic
dims (`batch`, `seq`, ...) stay dim_params in the model; the sizes they take are those of the set.
Weights are seeded numpy (deterministic); the reference shares nothing with the compiler.
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

RNG = np.random.default_rng(4321)


def weight(name, shape, scale=None):
    fan_in = int(np.prod(shape[:-1])) if len(shape) > 1 else shape[0]
    scale = scale if scale is not None else 1.0 / np.sqrt(max(fan_in, 1))
    return numpy_helper.from_array((RNG.standard_normal(shape) * scale).astype(np.float32), name)


def ints(name, values):
    return numpy_helper.from_array(np.array(values, np.int64), name)


class Graph:
    def __init__(self):
        self.nodes, self.inits = [], []

    def node(self, op, ins, out, **attrs):
        self.nodes.append(helper.make_node(op, ins, [out], name=out, **attrs))
        return out

    def linear(self, x, prefix, n_in, n_out):
        self.inits += [weight(prefix + "_w", [n_in, n_out]), weight(prefix + "_b", [n_out], 0.1)]
        return self.node("Add", [self.node("MatMul", [x, prefix + "_w"], prefix + "_mm"),
                                 prefix + "_b"], prefix)

    def dim(self, x, index, out):
        """Shape(x)[index] as a 1-element tensor: Shape -> Gather -> Unsqueeze, as torch writes it."""
        shape = self.node("Shape", [x], out + "_shape")
        self.inits.append(ints(out + "_i", index))
        g = self.node("Gather", [shape, out + "_i"], out + "_g", axis=0)
        self.inits.append(ints(out + "_ax", [0]))
        return self.node("Unsqueeze", [g, out + "_ax"], out)


def encoder_dyn():
    """One post-LN transformer encoder layer over [batch, seq, 32] with an attention mask
    [batch, seq] of ones and zeros (Hugging Face's extended mask: (1 - m) * -10000), heads split
    and merged by Reshapes whose shapes come from Shape -> Gather -> Unsqueeze -> Concat."""
    h, heads = 32, 4
    d = h // heads
    g = Graph()
    b = g.dim("x", 0, "batch_dim")
    s = g.dim("x", 1, "seq_dim")
    g.inits += [ints("heads_d", [heads, d]), ints("hidden", [h]), ints("mask_axes", [1, 2]),
                numpy_helper.from_array(np.array(1.0, np.float32), "one"),
                numpy_helper.from_array(np.array(-10000.0, np.float32), "neg"),
                numpy_helper.from_array(np.array(np.sqrt(d), np.float32), "sqrt_d"),
                numpy_helper.from_array(RNG.uniform(0.5, 1.5, h).astype(np.float32), "ln_g"),
                weight("ln_b", [h], 0.1),
                numpy_helper.from_array(RNG.uniform(0.5, 1.5, h).astype(np.float32), "ln2_g"),
                weight("ln2_b", [h], 0.1)]
    split = g.node("Concat", [b, s, "heads_d"], "split_shape", axis=0)
    merge = g.node("Concat", [b, s, "hidden"], "merge_shape", axis=0)

    def heads_of(x, perm):
        return g.node("Transpose", [g.node("Reshape", [x, split], x + "_r")], x + "_t", perm=perm)

    q = heads_of(g.linear("x", "q", h, h), [0, 2, 1, 3])
    k = heads_of(g.linear("x", "k", h, h), [0, 2, 3, 1])
    v = heads_of(g.linear("x", "v", h, h), [0, 2, 1, 3])
    m = g.node("Unsqueeze", ["mask", "mask_axes"], "mask_u")
    m = g.node("Mul", [g.node("Sub", ["one", m], "mask_inv"), "neg"], "mask_add")
    sc = g.node("Div", [g.node("MatMul", [q, k], "scores"), "sqrt_d"], "scores_s")
    p = g.node("Softmax", [g.node("Add", [sc, m], "scores_m")], "probs", axis=-1)
    ctx = g.node("Transpose", [g.node("MatMul", [p, v], "ctx")], "ctx_t", perm=[0, 2, 1, 3])
    o = g.linear(g.node("Reshape", [ctx, merge], "ctx_m"), "o", h, h)
    ln = g.node("LayerNormalization", [g.node("Add", [o, "x"], "res"), "ln_g", "ln_b"], "ln",
                axis=-1, epsilon=1e-5)
    f = g.linear(g.node("Gelu", [g.linear(ln, "f1", h, 4 * h)], "gelu"), "f2", 4 * h, h)
    g.node("LayerNormalization", [g.node("Add", [f, ln], "res2"), "ln2_g", "ln2_b"], "y",
           axis=-1, epsilon=1e-5)
    inputs = [("x", TensorProto.FLOAT, ["batch", "seq", h]),
              ("mask", TensorProto.FLOAT, ["batch", "seq"])]
    outputs = [("y", TensorProto.FLOAT, ["batch", "seq", h])]
    return g, inputs, outputs, 20


def cnn_dyn():
    """A small CNN over [batch, 3, 32, 32]: Conv+BN+ReLU, a residual block, global pooling and
    a classifier after Flatten (torchvision's dynamic-batch export)."""
    g = Graph()

    def conv(x, name, cin, cout, k, stride=1):
        g.inits += [weight(name + "_w", [cout, cin, k, k]), weight(name + "_b", [cout], 0.1)]
        c = g.node("Conv", [x, name + "_w", name + "_b"], name, pads=[k // 2] * 4,
                   strides=[stride, stride])
        return g.node("Relu", [c], name + "_relu")

    a = conv("x", "c1", 3, 16, 3, 2)
    r = conv(conv(a, "c2", 16, 16, 3), "c3", 16, 16, 3)
    a = g.node("Add", [a, r], "res")
    a = conv(a, "c4", 16, 32, 3, 2)
    p = g.node("Flatten", [g.node("GlobalAveragePool", [a], "gap")], "flat", axis=1)
    g.linear(p, "fc", 32, 10)
    g.nodes[-1].output[0] = "y"
    inputs = [("x", TensorProto.FLOAT, ["batch", 3, 32, 32])]
    outputs = [("y", TensorProto.FLOAT, ["batch", 10])]
    return g, inputs, outputs, 17


def reshapes_dyn():
    """Reshapes sized by shape arithmetic on [batch, seq, 32]: rows = batch * seq (Mul of two
    Gathers) to [rows, 32], back with [batch, -1, 32], and [0, 0, 4, -1] (copied and inferred
    dims); a Relu between them so that the reshapes are not folded into one."""
    g = Graph()
    b = g.dim("x", 0, "b")
    s = g.dim("x", 1, "s")
    g.inits += [ints("c32", [32]), ints("m1", [-1]), ints("heads", [0, 0, 4, -1])]
    rows = g.node("Mul", [b, s], "rows")
    flat = g.node("Relu", [g.node("Reshape", ["x", g.node("Concat", [rows, "c32"], "flat_shape",
                                                            axis=0)], "flat")], "flat_relu")
    back = g.node("Reshape", [flat, g.node("Concat", [b, "m1", "c32"], "back_shape", axis=0)],
                  "back")
    g.node("Reshape", [g.node("Relu", [back], "back_relu"), "heads"], "y")
    inputs = [("x", TensorProto.FLOAT, ["batch", "seq", 32])]
    outputs = [("y", TensorProto.FLOAT, ["batch", "seq", 4, 8])]
    return g, inputs, outputs, 17


def positions_dyn():
    """Token and position embeddings as BERT exports write them: the position ids a slice of a
    constant [1, 64] table to the sequence length (Slice with an end from Shape), then Gather."""
    g = Graph()
    s = g.dim("ids", 1, "seq_len")
    g.inits += [weight("tok", [100, 16]), weight("pos", [64, 16]),
                numpy_helper.from_array(np.arange(64, dtype=np.int64)[None], "pos_ids"),
                ints("zero", [0]), ints("axis1", [1])]
    p = g.node("Slice", ["pos_ids", "zero", s, "axis1"], "pos_slice")
    g.node("Add", [g.node("Gather", ["tok", "ids"], "tok_emb", axis=0),
                   g.node("Gather", ["pos", p], "pos_emb", axis=0)], "y")
    inputs = [("ids", TensorProto.INT64, ["batch", "seq"])]
    outputs = [("y", TensorProto.FLOAT, ["batch", "seq", 16])]
    return g, inputs, outputs, 17


def cls_dyn():
    """A ViT's class token: a [1, 1, 16] parameter expanded to [batch, 1, 16] (Expand with a
    shape from Shape) and put before the patch tokens."""
    g = Graph()
    b = g.dim("x", 0, "b")
    g.inits += [weight("cls", [1, 1, 16]), ints("one_16", [1, 16])]
    shape = g.node("Concat", [b, "one_16"], "cls_shape", axis=0)
    g.node("Concat", [g.node("Expand", ["cls", shape], "cls_tokens"), "x"], "y", axis=1)
    inputs = [("x", TensorProto.FLOAT, ["batch", 4, 16])]
    outputs = [("y", TensorProto.FLOAT, ["batch", 5, 16])]
    return g, inputs, outputs, 17


def scalar_dim(g, x, index, out):
    """Shape(x)[index] as a scalar, as torch writes a length used by arange: Shape -> Gather
    (a scalar index) -> Cast to int64 (a no-op on sizes, which torch still emits)."""
    shape = g.node("Shape", [x], out + "_shape")
    g.inits.append(numpy_helper.from_array(np.array(index, np.int64), out + "_i"))
    return g.node("Cast", [g.node("Gather", [shape, out + "_i"], out + "_g", axis=0)], out,
                  to=TensorProto.INT64)


def range_dyn():
    """Ranges over the sequence length: position ids torch.arange(seq) (Range(0, seq, 1) whose
    limit went through Unsqueeze and Squeeze, as exporters leave it) gathered from a position
    table, and a Range(seq, 3 * seq, 2) whose start, limit and step are all other than 0, seq, 1."""
    g = Graph()
    s = scalar_dim(g, "ids", 1, "seq_len")
    g.inits += [weight("tok", [100, 16]), weight("pos", [64, 16]),
                numpy_helper.from_array(np.array(0, np.int64), "zero"),
                numpy_helper.from_array(np.array(1, np.int64), "one"),
                numpy_helper.from_array(np.array(2, np.int64), "two"),
                numpy_helper.from_array(np.array(3, np.int64), "three"), ints("ax0", [0])]
    limit = g.node("Squeeze", [g.node("Unsqueeze", [s, "ax0"], "seq_u"), "ax0"], "seq_sq")
    pos = g.node("Range", ["zero", limit, "one"], "pos_ids")
    pos = g.node("Unsqueeze", [pos, "ax0"], "pos_ids_u")
    g.node("Add", [g.node("Gather", ["tok", "ids"], "tok_emb", axis=0),
                   g.node("Gather", ["pos", pos], "pos_emb", axis=0)], "y")
    stepped = g.node("Range", [s, g.node("Mul", [s, "three"], "seq3"), "two"], "stepped")
    g.node("Cast", [stepped], "r", to=TensorProto.FLOAT)
    inputs = [("ids", TensorProto.INT64, ["batch", "seq"])]
    outputs = [("y", TensorProto.FLOAT, ["batch", "seq", 16]), ("r", TensorProto.FLOAT, ["seq"])]
    return g, inputs, outputs, 17


def mask_dyn():
    """Masks built from a length, as Hugging Face does without an attention mask:
    ConstantOfShape(Concat(batch, seq)) of ones, extended to (1 - m) * -10000 and added to the
    scores of x; and a ConstantOfShape(Concat(batch, seq, 16)) of 0.5 added too."""
    g = Graph()
    b = g.dim("x", 0, "b")
    s = g.dim("x", 1, "s")
    g.inits += [ints("c16", [16]), ints("ax_last", [-1]),
                numpy_helper.from_array(np.array(1.0, np.float32), "one_f"),
                numpy_helper.from_array(np.array(-10000.0, np.float32), "neg")]
    ones = numpy_helper.from_array(np.array([1.0], np.float32), "value")
    half = numpy_helper.from_array(np.array([0.5], np.float32), "value")
    m = g.node("ConstantOfShape", [g.node("Concat", [b, s], "mask_shape", axis=0)], "mask",
               value=ones)
    ext = g.node("Mul", [g.node("Sub", ["one_f", m], "mask_inv"), "neg"], "mask_ext")
    scores = g.node("MatMul", ["x", g.node("Transpose", ["x"], "x_t", perm=[0, 2, 1])], "scores")
    scores = g.node("Add", [scores, g.node("Unsqueeze", [ext, "ax_last"], "mask_u")], "scores_m")
    scores = g.node("Softmax", [scores], "probs", axis=-1)
    c = g.node("ConstantOfShape", [g.node("Concat", [b, s, "c16"], "fill_shape", axis=0)],
               "fill", value=half)
    g.node("Add", [g.node("MatMul", [scores, "x"], "ctx"), c], "y")
    inputs = [("x", TensorProto.FLOAT, ["batch", "seq", 16])]
    outputs = [("y", TensorProto.FLOAT, ["batch", "seq", 16])]
    return g, inputs, outputs, 17


def tile_pad_dyn():
    """Repeats and pads computed from symbolic dims: two learned tokens Tiled to the batch
    (repeats Concat(batch, 1, 1)) before x, and x padded along the sequence to 16 (pads
    16 - seq, as a fixed-length export pads its input)."""
    g = Graph()
    b = g.dim("x", 0, "b")
    s = g.dim("x", 1, "s")
    g.inits += [weight("tokens", [1, 2, 16]), ints("one_one", [1, 1]), ints("c16", [16]),
                ints("zeros2", [0, 0]), ints("zero1", [0])]
    reps = g.node("Concat", [b, "one_one"], "reps", axis=0)
    g.node("Concat", [g.node("Tile", ["tokens", reps], "tiled"), "x"], "y", axis=1)
    pad = g.node("Sub", ["c16", s], "pad_len")
    pads = g.node("Concat", ["zeros2", "zero1", "zero1", pad, "zero1"], "pads", axis=0)
    g.node("Pad", ["x", pads], "p", mode="constant")
    inputs = [("x", TensorProto.FLOAT, ["batch", "seq", 16])]
    outputs = [("y", TensorProto.FLOAT, ["batch", None, 16]),
               ("p", TensorProto.FLOAT, ["batch", 16, 16])]
    return g, inputs, outputs, 17


def rel_pos_dyn():
    """DeBERTa-v2's relative-position attention scores (content to position), over a run-time
    batch and sequence: the position keys [2k, 8] projected, split into 2 heads and Tiled to
    batch * heads (repeats Concat(Div(Shape(q)[0], 2), 1, 1)); the relative distances
    i - j + k of Range(seq), clipped to [0, 2k), Expanded to the scores' shape as torch's
    expand_as writes it (Where(Equal(shape, -1), 1, shape)); a GatherElements of the product
    along its last dim by them. Beside it, x Tiled by constant repeats [2, 1, 1] over the batch."""
    g = Graph()
    k = 4
    g.inits += [weight("rel_emb", [2 * k, 8]), weight("wq", [8, 8]), weight("wk", [8, 8]),
                ints("heads_shape", [0, 0, 2, 4]),
                ints("pos_shape", [1, 2 * k, 2, 4]), ints("pos_rows", [-1, 2 * k, 4]),
                ints("one_one", [1, 1]), ints("c2", [2]), ints("c4", [4]), ints("ax0", [0]), ints("ax1", [1]),
                ints("minus1", [-1]), ints("c_k", [k]), ints("reps2", [2, 1, 1]),
                numpy_helper.from_array(np.array(0, np.int64), "zero"),
                numpy_helper.from_array(np.array(1, np.int64), "one"),
                numpy_helper.from_array(np.array(0, np.int64), "lo"),
                numpy_helper.from_array(np.array(2 * k - 1, np.int64), "hi")]
    q = g.node("MatMul", ["x", "wq"], "q_proj")
    q = g.node("Transpose", [g.node("Reshape", [q, "heads_shape"], "q_heads")], "q_t",
               perm=[0, 2, 1, 3])
    # [batch, 2, seq, 4] -> [batch * 2, seq, 4]: a -1 and a copied dim.
    q = g.node("Reshape", [q, g.node("Concat", ["minus1", g.dim("q_t", 2, "q_len"), "c4"],
                                      "q_rows_shape", axis=0)], "q_rows")
    pk = g.node("MatMul", ["rel_emb", "wk"], "pos_proj")
    pk = g.node("Transpose", [g.node("Reshape", [pk, "pos_shape"], "pos_heads")], "pos_t",
                perm=[0, 2, 1, 3])
    pk = g.node("Reshape", [pk, "pos_rows"], "pos_k")
    reps = g.node("Concat", [g.node("Div", [g.dim(q, 0, "bh"), "c2"], "b_of_bh"), "one_one"],
                  "reps", axis=0)
    pk = g.node("Tile", [pk, reps], "pos_tiled")
    c2p = g.node("MatMul", [q, g.node("Transpose", [pk], "pos_kt", perm=[0, 2, 1])], "c2p")
    s = scalar_dim(g, "x", 1, "seq_len")
    r = g.node("Range", ["zero", s, "one"], "r")
    rel = g.node("Sub", [g.node("Unsqueeze", [r, "ax1"], "r_col"),
                         g.node("Unsqueeze", [r, "ax0"], "r_row")], "rel")
    idx = g.node("Clip", [g.node("Add", [rel, "c_k"], "rel_k"), "lo", "hi"], "rel_idx")
    idx = g.node("Unsqueeze", [idx, "ax0"], "rel_idx3")
    shape = g.node("Concat", [g.dim(q, 0, "e0"), g.dim(q, 1, "e1"), g.dim(idx, 2, "e2")],
                   "want", axis=0)
    ones = g.node("ConstantOfShape", [g.node("Shape", [shape], "want_len")], "ones",
                  value=numpy_helper.from_array(np.array([1], np.int64)))
    neg = g.node("Mul", [ones, "minus1"], "neg_ones")
    shape = g.node("Where", [g.node("Equal", [shape, neg], "is_neg"), ones, shape], "to")
    g.node("GatherElements", [c2p, g.node("Expand", [idx, shape], "idx_b")], "y", axis=-1)
    g.node("Tile", ["x", "reps2"], "t")
    inputs = [("x", TensorProto.FLOAT, ["batch", "seq", 8])]
    outputs = [("y", TensorProto.FLOAT, [None, "seq", "seq"]),
               ("t", TensorProto.FLOAT, [None, "seq", 8])]
    return g, inputs, outputs, 17


def last_token_dyn():
    """Slices from symbolic starts: GPT's last token x[:, seq - 1:] (start Sub(Shape, 1)), the
    same by a start of -1, and a KV cache's last 4 positions past[:, past_len - 4:, :]."""
    g = Graph()
    s = g.dim("x", 1, "s")
    p = g.dim("past", 1, "p")
    g.inits += [weight("w", [32, 32]), ints("one", [1]), ints("four", [4]), ints("ax1", [1]),
                ints("end", [np.iinfo(np.int64).max]), ints("minus1", [-1])]
    h = g.node("MatMul", ["x", "w"], "h")
    g.node("Slice", [h, g.node("Sub", [s, "one"], "last_start"), "end", "ax1"], "y")
    g.node("Slice", [h, "minus1", "end", "ax1"], "y2")
    g.node("Slice", ["past", g.node("Sub", [p, "four"], "win_start"), "end", "ax1"], "w4")
    inputs = [("x", TensorProto.FLOAT, ["batch", "seq", 32]),
              ("past", TensorProto.FLOAT, ["batch", "past_len", 8])]
    outputs = [("y", TensorProto.FLOAT, ["batch", 1, 32]), ("y2", TensorProto.FLOAT, ["batch", 1, 32]),
               ("w4", TensorProto.FLOAT, ["batch", 4, 8])]
    return g, inputs, outputs, 17


def decoder_dyn(masked_fill=False):
    """A GPT-style decoder block over [batch, seq, 32] as torch exports it with dynamic axes:
    positions from Range(0, seq) added as embeddings, pre-LN causal self-attention whose mask is
    built from the length (Range -> Unsqueeze twice -> LessOrEqual -> Where(0, -1e9), added to
    the scores; with `masked_fill`, scores.masked_fill(j > i, -inf) as GPT-style code writes it:
    Where(Greater(cols, rows), -inf, scores)), heads split and merged by Reshapes sized from
    Shape, an MLP, and the last token's hidden state (Slice from seq - 1) besides the full
    output."""
    h, heads = 32, 4
    d = h // heads
    g = Graph()
    b = g.dim("x", 0, "batch_dim")
    s = g.dim("x", 1, "seq_dim")
    n = scalar_dim(g, "x", 1, "seq_len")
    g.inits += [ints("heads_d", [heads, d]), ints("hidden", [h]), ints("ax0", [0]),
                ints("ax1", [1]), ints("one", [1]), ints("end", [np.iinfo(np.int64).max]),
                numpy_helper.from_array(np.array(0, np.int64), "zero_i"),
                numpy_helper.from_array(np.array(1, np.int64), "one_i"),
                numpy_helper.from_array(np.array(0.0, np.float32), "zero_f"),
                numpy_helper.from_array(np.array(-1e9, np.float32), "neg"),
                numpy_helper.from_array(np.array(-np.inf, np.float32), "ninf"),
                numpy_helper.from_array(np.array(np.sqrt(d), np.float32), "sqrt_d"),
                weight("wpe", [64, h]),
                numpy_helper.from_array(RNG.uniform(0.5, 1.5, h).astype(np.float32), "ln1_g"),
                weight("ln1_b", [h], 0.1),
                numpy_helper.from_array(RNG.uniform(0.5, 1.5, h).astype(np.float32), "ln2_g"),
                weight("ln2_b", [h], 0.1)]
    r = g.node("Range", ["zero_i", n, "one_i"], "positions")
    x = g.node("Add", ["x", g.node("Gather", ["wpe", r], "pos_emb", axis=0)], "x_pos")
    split = g.node("Concat", [b, s, "heads_d"], "split_shape", axis=0)
    merge = g.node("Concat", [b, s, "hidden"], "merge_shape", axis=0)
    ln = g.node("LayerNormalization", [x, "ln1_g", "ln1_b"], "ln1", axis=-1, epsilon=1e-5)

    def heads_of(v, perm):
        return g.node("Transpose", [g.node("Reshape", [v, split], v + "_r")], v + "_t", perm=perm)

    q = heads_of(g.linear(ln, "q", h, h), [0, 2, 1, 3])
    k = heads_of(g.linear(ln, "k", h, h), [0, 2, 3, 1])
    v = heads_of(g.linear(ln, "v", h, h), [0, 2, 1, 3])
    # The causal mask: position j is seen from i when j <= i.
    cols = g.node("Unsqueeze", [r, "ax0"], "mask_cols")
    rows = g.node("Unsqueeze", [r, "ax1"], "mask_rows")
    sc = g.node("Div", [g.node("MatMul", [q, k], "scores"), "sqrt_d"], "scores_s")
    if masked_fill:
        hidden = g.node("Greater", [cols, rows], "mask_hidden")
        masked = g.node("Where", [hidden, "ninf", sc], "scores_m")
    else:
        allowed = g.node("LessOrEqual", [cols, rows], "mask_allowed")
        bias = g.node("Where", [allowed, "zero_f", "neg"], "mask_bias")
        masked = g.node("Add", [sc, bias], "scores_m")
    p = g.node("Softmax", [masked], "probs", axis=-1)
    ctx = g.node("Transpose", [g.node("MatMul", [p, v], "ctx")], "ctx_t", perm=[0, 2, 1, 3])
    o = g.linear(g.node("Reshape", [ctx, merge], "ctx_m"), "o", h, h)
    res = g.node("Add", [o, x], "res")
    ln2 = g.node("LayerNormalization", [res, "ln2_g", "ln2_b"], "ln2", axis=-1, epsilon=1e-5)
    f = g.linear(g.node("Gelu", [g.linear(ln2, "f1", h, 4 * h)], "gelu"), "f2", 4 * h, h)
    y = g.node("Add", [f, res], "y")
    g.node("Slice", [y, g.node("Sub", [s, "one"], "last_start"), "end", "ax1"], "last")
    inputs = [("x", TensorProto.FLOAT, ["batch", "seq", h])]
    outputs = [("y", TensorProto.FLOAT, ["batch", "seq", h]),
               ("last", TensorProto.FLOAT, ["batch", 1, h])]
    return g, inputs, outputs, 20


def triu_mask_dyn():
    """The other causal mask torch writes: triu of a ConstantOfShape([seq, seq]) of -1e9 with
    k = 1 (torch.full((seq, seq), -inf).triu(1)), added to scores of x against itself."""
    g = Graph()
    s = g.dim("x", 1, "s")
    g.inits += [numpy_helper.from_array(np.array(1, np.int64), "k1")]
    full = numpy_helper.from_array(np.array([-1e9], np.float32), "value")
    m = g.node("ConstantOfShape", [g.node("Concat", [s, s], "mask_shape", axis=0)], "mask",
               value=full)
    m = g.node("Trilu", [m, "k1"], "mask_triu", upper=1)
    scores = g.node("MatMul", ["x", g.node("Transpose", ["x"], "x_t", perm=[0, 2, 1])], "scores")
    p = g.node("Softmax", [g.node("Add", [scores, m], "scores_m")], "probs", axis=-1)
    g.node("MatMul", [p, "x"], "y")
    inputs = [("x", TensorProto.FLOAT, ["batch", "seq", 16])]
    outputs = [("y", TensorProto.FLOAT, ["batch", "seq", 16])]
    return g, inputs, outputs, 17


def kv_cache_dyn():
    """Attention of new tokens over a KV cache, as GPT-2 exports it with a past: positions
    Range(past_len, past_len + seq), the causal mask a slice of a constant [1, 1, 64, 64] tril
    buffer bias[:, :, past_len:past_len + seq, :past_len + seq] (symbolic starts and sizes of
    static dims) applied by Where(Equal(mask, 0), -1e9, scores), keys and values the cache
    concatenated with the new tokens."""
    g = Graph()
    s = g.dim("x", 1, "s")
    p = g.dim("past", 1, "p")
    ps = scalar_dim(g, "past", 1, "p_len")
    ss = scalar_dim(g, "x", 1, "s_len")
    g.inits += [weight("wpe", [64, 16]), ints("zero", [0]), ints("axes23", [2, 3]),
                numpy_helper.from_array(np.tril(np.ones((64, 64), np.float32))[None, None], "bias"),
                numpy_helper.from_array(np.array(1, np.int64), "one_i"),
                numpy_helper.from_array(np.array(0.0, np.float32), "zero_f"),
                numpy_helper.from_array(np.array(-1e9, np.float32), "neg")]
    pos = g.node("Range", [ps, g.node("Add", [ps, ss], "total_len"), "one_i"], "positions")
    x = g.node("Add", ["x", g.node("Gather", ["wpe", pos], "pos_emb", axis=0)], "x_pos")
    kv = g.node("Concat", ["past", x], "kv", axis=1)
    total = g.node("Add", [p, s], "total")
    starts = g.node("Concat", [p, "zero"], "mask_starts", axis=0)
    ends = g.node("Concat", [total, total], "mask_ends", axis=0)
    mask = g.node("Slice", ["bias", starts, ends, "axes23"], "mask")
    scores = g.node("MatMul", [x, g.node("Transpose", [kv], "kv_t", perm=[0, 2, 1])], "scores")
    scores = g.node("Unsqueeze", [scores, g.node("Identity", ["zero"], "ax0")], "scores4")
    masked = g.node("Where", [g.node("Equal", [mask, "zero_f"], "hidden"), "neg", scores],
                    "masked")
    probs = g.node("Softmax", [masked], "probs", axis=-1)
    g.node("MatMul", [g.node("Squeeze", [probs, "ax0"], "probs3"), kv], "y")
    inputs = [("x", TensorProto.FLOAT, ["batch", "seq", 16]),
              ("past", TensorProto.FLOAT, ["batch", "past_len", 16])]
    outputs = [("y", TensorProto.FLOAT, ["batch", "seq", 16])]
    return g, inputs, outputs, 17


def range_step_dyn():
    """A Range whose step is the sequence length (Range(0, seq, seq)): not a size the symbols
    give as an expression of a constant step, which the importer refuses, naming the node."""
    g = Graph()
    s = scalar_dim(g, "ids", 1, "seq_len")
    g.inits += [numpy_helper.from_array(np.array(0, np.int64), "zero")]
    g.node("Cast", [g.node("Range", ["zero", s, s], "steps")], "y", to=TensorProto.FLOAT)
    inputs = [("ids", TensorProto.INT64, ["batch", "seq"])]
    outputs = [("y", TensorProto.FLOAT, [1])]
    return g, inputs, outputs, 17


def pointwise_dyn():
    """Elementwise work over [batch, seq, 32] and views of it, what code for every shape takes
    first: a scale and a bias broadcast along the last dim, a GELU-like chain the elementwise
    fusion makes one kernel, a Transpose of batch and seq, and Reshapes sized from Shape."""
    g = Graph()
    b = g.dim("x", 0, "b")
    s = g.dim("x", 1, "s")
    g.inits += [weight("scale", [32]), weight("shift", [32]), ints("c4_8", [4, 8]),
                numpy_helper.from_array(np.array(0.5, np.float32), "half")]
    z = g.node("Add", [g.node("Mul", ["x", "scale"], "scaled"), "shift"], "shifted")
    act = g.node("Mul", [z, g.node("Sigmoid", [g.node("Mul", [z, "half"], "z_half")], "gate")],
                 "act")
    t = g.node("Transpose", [act], "swapped", perm=[1, 0, 2])
    g.node("Reshape", [g.node("Relu", [t], "swapped_relu"),
                       g.node("Concat", [s, b, "c4_8"], "heads_shape", axis=0)], "y")
    inputs = [("x", TensorProto.FLOAT, ["batch", "seq", 32])]
    outputs = [("y", TensorProto.FLOAT, ["seq", "batch", 4, 8])]
    return g, inputs, outputs, 17


def mlp_dyn():
    """A transformer's feed-forward block over [batch, seq, 48]: linear layers over batch x seq
    rows (MatMul + bias + Relu, MatMul + bias, fused into the GEMM's epilogue) with the residual
    added; and a classifier head, a Gemm (transB) over [batch, 48] rows."""
    g = Graph()
    h = g.node("Relu", [g.linear("x", "up", 48, 96)], "up_relu")
    g.node("Add", [g.linear(h, "down", 96, 48), "x"], "y")
    g.inits += [weight("head_w", [10, 48]), weight("head_b", [10], 0.1)]
    g.node("Gemm", ["pooled", "head_w", "head_b"], "logits", transB=1)
    inputs = [("x", TensorProto.FLOAT, ["batch", "seq", 48]),
              ("pooled", TensorProto.FLOAT, ["batch", 48])]
    outputs = [("y", TensorProto.FLOAT, ["batch", "seq", 48]),
               ("logits", TensorProto.FLOAT, ["batch", 10])]
    return g, inputs, outputs, 17


def rows_dyn():
    """Row-wise work over batch x seq rows of run-time count: a token embedding (Gather of a
    [100, 16] table by [batch, seq] ids) plus a [32, 16] position table sliced to the sequence
    length, LayerNormalization, Softmax along the last dim and along seq, ReduceMean and ReduceMax
    over the hidden dim."""
    g = Graph()
    s = g.dim("ids", 1, "seq_len")
    g.inits += [weight("tok", [100, 16]), weight("pos", [32, 16]), ints("zero", [0]),
                numpy_helper.from_array(RNG.uniform(0.5, 1.5, 16).astype(np.float32), "ln_g"),
                weight("ln_b", [16], 0.1)]
    p = g.node("Slice", ["pos", "zero", s, "zero"], "pos_slice")
    h = g.node("Add", [g.node("Gather", ["tok", "ids"], "tok_emb", axis=0), p], "emb")
    ln = g.node("LayerNormalization", [h, "ln_g", "ln_b"], "ln", axis=-1, epsilon=1e-5)
    g.node("Softmax", [ln], "y", axis=-1)
    g.node("Softmax", [ln], "y_seq", axis=1)
    g.node("ReduceMean", [ln], "mean", axes=[-1], keepdims=1)
    g.node("ReduceMax", [ln], "max", axes=[2], keepdims=0)
    inputs = [("ids", TensorProto.INT64, ["batch", "seq"])]
    outputs = [("y", TensorProto.FLOAT, ["batch", "seq", 16]),
               ("y_seq", TensorProto.FLOAT, ["batch", "seq", 16]),
               ("mean", TensorProto.FLOAT, ["batch", "seq", 1]),
               ("max", TensorProto.FLOAT, ["batch", "seq"])]
    return g, inputs, outputs, 17


def strided_dyn():
    """Strided slices of a tensor with symbolic dims, as Swin's patch merging writes them: every
    other row of the symbolic seq (x[:, 0::2] and x[:, 1::2]: ceil(seq / 2) and floor(seq / 2)
    rows), and a static dim read backwards by 2 (x[..., ::-2])."""
    g = Graph()
    g.inits += [ints("s0", [0]), ints("s1", [1]), ints("big", [2**62]), ints("axis1", [1]),
                ints("two", [2]), ints("last", [-1]), ints("axis3", [3]), ints("m2", [-2]),
                ints("neg_big", [-(2**62)])]
    even = g.node("Slice", ["x", "s0", "big", "axis1", "two"], "even")
    odd = g.node("Slice", ["x", "s1", "big", "axis1", "two"], "odd")
    back = g.node("Slice", [even, "last", "neg_big", "axis3", "m2"], "back")
    g.node("Relu", [back], "y")
    g.node("Neg", [odd], "odd_neg")
    inputs = [("x", TensorProto.FLOAT, ["batch", "seq", 4, 6])]
    outputs = [("y", TensorProto.FLOAT, ["batch", "half", 4, 3]),
               ("odd_neg", TensorProto.FLOAT, ["batch", "rest", 4, 6])]
    return g, inputs, outputs, 13


def norm_mask_dyn():
    """What Hugging Face exports put beside the products: an RMSNorm (Pow, ReduceMean, Add, Sqrt,
    Div, Mul: a mean of squares fused into one reduction kernel) over [batch, seq, 16], position
    ids counted from the padding mask by CumSum (RoBERTa's create_position_ids_from_input_ids), the
    mask [batch, 1, 1, seq] Expanded over 2 heads, and an image [batch, 3, 5, 5] zero-padded by 1
    on its static dims (a "same" convolution stem)."""
    g = Graph()
    g.inits += [numpy_helper.from_array(np.array(2.0, np.float32), "two"),
                numpy_helper.from_array(np.array(1e-6, np.float32), "eps"),
                weight("gamma", [16], 1.0), ints("one_ax", [1]),
                numpy_helper.from_array(np.array(0, np.int64), "pad_id"), ints("ax12", [1, 2]),
                ints("heads", [2, 1]), ints("img_pads", [0, 0, 1, 1, 0, 0, 1, 1])]
    sq = g.node("Pow", ["x", "two"], "sq")
    ms = g.node("ReduceMean", [sq], "ms", axes=[-1], keepdims=1)
    rms = g.node("Sqrt", [g.node("Add", [ms, "eps"], "ms_eps")], "rms")
    g.node("Mul", [g.node("Div", ["x", rms], "normed"), "gamma"], "y")
    keep = g.node("Cast", [g.node("Not", [g.node("Equal", ["ids", "pad_id"], "is_pad")], "keep")],
                  "keep_i", to=TensorProto.INT64)
    g.node("Mul", [g.node("CumSum", [keep, "one_ax"], "counts"), keep], "positions")
    mask = g.node("Unsqueeze", [g.node("Cast", [keep], "mask_f", to=TensorProto.FLOAT), "ax12"],
                  "mask4")
    shape = g.node("Concat", [g.dim("ids", 0, "b"), "heads", g.dim("ids", 1, "s")], "mask_shape",
                   axis=0)
    g.node("Expand", [mask, shape], "mask_h")
    g.node("Pad", ["img", "img_pads"], "img_p", mode="constant")
    inputs = [("x", TensorProto.FLOAT, ["batch", "seq", 16]), ("ids", TensorProto.INT64, ["batch", "seq"]),
              ("img", TensorProto.FLOAT, ["batch", 3, 5, 5])]
    outputs = [("y", TensorProto.FLOAT, ["batch", "seq", 16]),
               ("positions", TensorProto.INT64, ["batch", "seq"]),
               ("mask_h", TensorProto.FLOAT, ["batch", 2, 1, "seq"]),
               ("img_p", TensorProto.FLOAT, ["batch", 3, 7, 7])]
    return g, inputs, outputs, 17


def resize_dyn():
    """Resizes under a run-time batch, as torchvision's segmentation heads and FPNs export them:
    interpolate(feat, size=img.shape[-2:], mode="bilinear") (Resize by sizes Concat(Shape(feat)
    [0:2], Shape(img)[2:4]): the batch a symbolic size equal to the input's own) and a nearest
    upsampling by scales [1, 1, 2, 2]."""
    g = Graph()
    g.inits += [ints("s0", [0]), ints("s2", [2]), ints("s4", [4]),
                numpy_helper.from_array(np.array([1.0, 1.0, 2.0, 2.0], np.float32), "scales2")]
    feat_shape = g.node("Shape", ["feat"], "feat_shape")
    img_shape = g.node("Shape", ["img"], "img_shape")
    sizes = g.node("Concat", [g.node("Slice", [feat_shape, "s0", "s2"], "nc"),
                              g.node("Slice", [img_shape, "s2", "s4"], "hw")], "sizes", axis=0)
    g.node("Resize", ["feat", "", "", sizes], "up", mode="linear",
           coordinate_transformation_mode="pytorch_half_pixel")
    g.node("Resize", ["feat", "", "scales2"], "up2", mode="nearest",
           coordinate_transformation_mode="asymmetric", nearest_mode="floor")
    inputs = [("feat", TensorProto.FLOAT, ["batch", 4, 5, 6]),
              ("img", TensorProto.FLOAT, ["batch", 3, 11, 13])]
    outputs = [("up", TensorProto.FLOAT, ["batch", 4, 11, 13]),
               ("up2", TensorProto.FLOAT, ["batch", 4, 10, 12])]
    return g, inputs, outputs, 17


def resize_image_dyn():
    """Resizes that change symbolic dims (an image of run-time height and width): upsampled by
    scales [1, 1, 2, 2], and resized to another input's symbolic height and width. Neither keeps
    its symbolic dims, which the importer refuses, naming the node."""
    g = Graph()
    g.inits += [ints("s0", [0]), ints("s2", [2]), ints("s4", [4]),
                numpy_helper.from_array(np.array([1.0, 1.0, 2.0, 2.0], np.float32), "scales2")]
    g.node("Resize", ["feat", "", "scales2"], "up2", mode="nearest")
    sizes = g.node("Concat", [g.node("Slice", [g.node("Shape", ["feat"], "fs"), "s0", "s2"], "nc"),
                              g.node("Slice", [g.node("Shape", ["img"], "is"), "s2", "s4"], "hw")],
                   "sizes", axis=0)
    g.node("Resize", ["feat", "", "", sizes], "up", mode="linear")
    inputs = [("feat", TensorProto.FLOAT, ["batch", 4, "h", "w"]),
              ("img", TensorProto.FLOAT, ["batch", 3, "H", "W"])]
    outputs = [("up2", TensorProto.FLOAT, ["batch", 4, None, None]),
               ("up", TensorProto.FLOAT, ["batch", 4, "H", "W"])]
    return g, inputs, outputs, 17


def einsum_dyn():
    """Attention written as Einsum (Funnel, CvT) over [batch, 2, seq, 8]: scores
    "bhid,bhjd->bhij" (the length the product's M and N), softmax, context "bhij,bhjd->bhid" (the
    length its K), and a projection "bhid,hde->bie" by a weight."""
    g = Graph()
    g.inits += [weight("proj", [2, 8, 5])]
    scores = g.node("Einsum", ["q", "k"], "scores", equation="bhid,bhjd->bhij")
    probs = g.node("Softmax", [scores], "probs", axis=-1)
    ctx = g.node("Einsum", [probs, "v"], "ctx", equation="bhij,bhjd->bhid")
    g.node("Einsum", [ctx, "proj"], "y", equation="bhid,hde->bie")
    qkv = ["batch", 2, "seq", 8]
    inputs = [("q", TensorProto.FLOAT, qkv), ("k", TensorProto.FLOAT, qkv),
              ("v", TensorProto.FLOAT, qkv)]
    outputs = [("scores", TensorProto.FLOAT, ["batch", 2, "seq", "seq"]),
               ("y", TensorProto.FLOAT, ["batch", "seq", 5])]
    return g, inputs, outputs, 17


def video_dyn():
    """Convolutions beyond 2-D under a run-time batch (torchvision's video networks, DPT's
    upsampling): a 3-D convolution, a 3-D max pool and a global average pool over
    [batch, 2, 4, 6, 6], and a transposed 2-D convolution (stride 2) over [batch, 3, 5, 5]."""
    g = Graph()
    g.inits += [weight("w3", [4, 2, 3, 3, 3]), weight("b3", [4], 0.1),
                weight("wt", [3, 2, 3, 3]), weight("bt", [2], 0.1)]
    c = g.node("Relu", [g.node("Conv", ["clip", "w3", "b3"], "conv3d", pads=[1] * 6)], "relu3d")
    p = g.node("MaxPool", [c], "pool3d", kernel_shape=[2, 2, 2], strides=[2, 2, 2])
    g.node("GlobalAveragePool", [p], "pooled")
    g.node("ConvTranspose", ["img", "wt", "bt"], "up", strides=[2, 2], pads=[1, 1, 1, 1],
           output_padding=[1, 1])
    inputs = [("clip", TensorProto.FLOAT, ["batch", 2, 4, 6, 6]),
              ("img", TensorProto.FLOAT, ["batch", 3, 5, 5])]
    outputs = [("pooled", TensorProto.FLOAT, ["batch", 4, 1, 1, 1]),
               ("up", TensorProto.FLOAT, ["batch", 2, 10, 10])]
    return g, inputs, outputs, 17


def batch_stats_dyn():
    """Work across the samples of a batch, which no run over a slice of it may split: a softmax
    over the batch (of the transposed [8, batch]), transposed back, then rows of each sample alone
    (a linear layer)."""
    g = Graph()
    t = g.node("Transpose", ["x"], "features_major", perm=[1, 0])
    p = g.node("Softmax", [t], "over_batch", axis=1)
    g.linear(g.node("Transpose", [p], "batch_major", perm=[1, 0]), "fc", 8, 4)
    g.nodes[-1].output[0] = "y"
    inputs = [("x", TensorProto.FLOAT, ["batch", 8])]
    outputs = [("y", TensorProto.FLOAT, ["batch", 4])]
    return g, inputs, outputs, 13


MODELS = {"batch_stats_dyn": batch_stats_dyn, "video_dyn": video_dyn, "einsum_dyn": einsum_dyn, "resize_dyn": resize_dyn, "resize_image_dyn": resize_image_dyn, "norm_mask_dyn": norm_mask_dyn, "strided_dyn": strided_dyn, "pointwise_dyn": pointwise_dyn, "mlp_dyn": mlp_dyn, "cls_dyn": cls_dyn, "encoder_dyn": encoder_dyn, "cnn_dyn": cnn_dyn, "reshapes_dyn": reshapes_dyn,
          "positions_dyn": positions_dyn, "range_dyn": range_dyn, "mask_dyn": mask_dyn,
          "tile_pad_dyn": tile_pad_dyn, "last_token_dyn": last_token_dyn, "rel_pos_dyn": rel_pos_dyn,
          "decoder_dyn": decoder_dyn, "masked_fill_decoder_dyn": lambda: decoder_dyn(True),
          "triu_mask_dyn": triu_mask_dyn,
          "range_step_dyn": range_step_dyn, "kv_cache_dyn": kv_cache_dyn, "rows_dyn": rows_dyn}

# Sizes of the symbols per named shape set.
SHAPES = {
    "batch_stats_dyn": {"b5": dict(batch=5)},
    "resize_dyn": {"b1": dict(batch=1), "b3": dict(batch=3)},
    "video_dyn": {"b1": dict(batch=1), "b3": dict(batch=3)},
    "einsum_dyn": {"b1s1": dict(batch=1, seq=1), "b3s7": dict(batch=3, seq=7)},
    "norm_mask_dyn": {"b1s1": dict(batch=1, seq=1), "b3s7": dict(batch=3, seq=7)},
    "strided_dyn": {"b1s1": dict(batch=1, seq=1), "b3s7": dict(batch=3, seq=7),
                    "b2s8": dict(batch=2, seq=8)},
    "rows_dyn": {"b1s1": dict(batch=1, seq=1), "b3s7": dict(batch=3, seq=7),
                 "b2s32": dict(batch=2, seq=32)},
    "pointwise_dyn": {"b1s1": dict(batch=1, seq=1), "b3s7": dict(batch=3, seq=7),
                      "b16s64": dict(batch=16, seq=64), "b5s33": dict(batch=5, seq=33)},
    "mlp_dyn": {"b1s1": dict(batch=1, seq=1), "b3s7": dict(batch=3, seq=7),
                "b8s100": dict(batch=8, seq=100)},
    "encoder_dyn": {"b1s1": dict(batch=1, seq=1), "b1s7": dict(batch=1, seq=7),
                    "b3s7": dict(batch=3, seq=7), "b2s64": dict(batch=2, seq=64)},
    "cnn_dyn": {"b1": dict(batch=1), "b3": dict(batch=3), "b8": dict(batch=8)},
    "reshapes_dyn": {"b1s1": dict(batch=1, seq=1), "b3s7": dict(batch=3, seq=7)},
    "cls_dyn": {"b3": dict(batch=3)},
    "positions_dyn": {"b1s1": dict(batch=1, seq=1), "b2s9": dict(batch=2, seq=9)},
    "range_dyn": {"b1s1": dict(batch=1, seq=1), "b2s9": dict(batch=2, seq=9),
                  "b3s40": dict(batch=3, seq=40)},
    "mask_dyn": {"b1s1": dict(batch=1, seq=1), "b2s9": dict(batch=2, seq=9)},
    "tile_pad_dyn": {"b1s1": dict(batch=1, seq=1), "b3s7": dict(batch=3, seq=7),
                     "b2s16": dict(batch=2, seq=16)},
    "rel_pos_dyn": {"b1s1": dict(batch=1, seq=1), "b3s7": dict(batch=3, seq=7),
                    "b2s12": dict(batch=2, seq=12)},
    "last_token_dyn": {"b1s1p4": dict(batch=1, seq=1, past_len=4),
                       "b2s9p6": dict(batch=2, seq=9, past_len=6),
                       "b3s5p20": dict(batch=3, seq=5, past_len=20)},
    "decoder_dyn": {"b1s1": dict(batch=1, seq=1), "b2s7": dict(batch=2, seq=7),
                    "b3s33": dict(batch=3, seq=33)},
    "masked_fill_decoder_dyn": {"b1s1": dict(batch=1, seq=1), "b2s7": dict(batch=2, seq=7),
                                "b3s33": dict(batch=3, seq=33)},
    "triu_mask_dyn": {"b1s1": dict(batch=1, seq=1), "b2s9": dict(batch=2, seq=9)},
    "kv_cache_dyn": {"b1s1p1": dict(batch=1, seq=1, past_len=1),
                     "b2s3p9": dict(batch=2, seq=3, past_len=9),
                     "b1s20p30": dict(batch=1, seq=20, past_len=30)},
}


def random_input(name, dtype, dims, sizes):
    shape = [sizes[d] if isinstance(d, str) else d for d in dims]
    if dtype == TensorProto.INT64:  # token ids
        return RNG.integers(0, 100, size=shape).astype(np.int64)
    if name == "mask":  # ones, the last positions of every row but the first padding
        m = np.ones(shape, np.float32)
        if shape[1] > 2:
            m[1:, -2:] = 0.0
        return m
    return RNG.standard_normal(shape).astype(np.float32)


def main():
    name, out_dir = sys.argv[1], sys.argv[2]
    os.makedirs(out_dir, exist_ok=True)
    g, inputs, outputs, opset = MODELS[name]()
    graph = helper.make_graph(
        g.nodes, name, [helper.make_tensor_value_info(n, t, d) for n, t, d in inputs],
        [helper.make_tensor_value_info(n, t, d) for n, t, d in outputs], initializer=g.inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 8
    onnx.checker.check_model(model, full_check=True)
    path = os.path.join(out_dir, "model.onnx")
    onnx.save(model, path)

    if sys.argv[3:] == ["--no-reference"]:
        return
    import onnxruntime as ort
    session = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
    sets = sys.argv[3:] or list(SHAPES[name])
    for set_name in sets:
        sizes = SHAPES[name][set_name]
        feeds = {n: random_input(n, t, d, sizes) for n, t, d in inputs}
        os.makedirs(os.path.join(out_dir, set_name), exist_ok=True)
        for n, value in feeds.items():
            np.save(os.path.join(out_dir, set_name, n + ".npy"), value)
        for (n, _, _), value in zip(outputs, session.run(None, feeds)):
            np.save(os.path.join(out_dir, set_name, n + ".ref.npy"), value)


if __name__ == "__main__":
    main()
