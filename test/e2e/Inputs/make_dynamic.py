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


MODELS = {"cls_dyn": cls_dyn, "encoder_dyn": encoder_dyn, "cnn_dyn": cnn_dyn, "reshapes_dyn": reshapes_dyn,
          "positions_dyn": positions_dyn}

# Sizes of the symbols per named shape set.
SHAPES = {
    "encoder_dyn": {"b1s1": dict(batch=1, seq=1), "b1s7": dict(batch=1, seq=7),
                    "b3s7": dict(batch=3, seq=7), "b2s64": dict(batch=2, seq=64)},
    "cnn_dyn": {"b1": dict(batch=1), "b3": dict(batch=3), "b8": dict(batch=8)},
    "reshapes_dyn": {"b1s1": dict(batch=1, seq=1), "b3s7": dict(batch=3, seq=7)},
    "cls_dyn": {"b3": dict(batch=3)},
    "positions_dyn": {"b1s1": dict(batch=1, seq=1), "b2s9": dict(batch=2, seq=9)},
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
