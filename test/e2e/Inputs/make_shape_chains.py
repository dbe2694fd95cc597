#!/usr/bin/env python3
"""Writes shape-arithmetic models (chains from Shape/Size through integer arithmetic to a shape input)
with inputs and onnxruntime references, in make_math_e2e.py's layout:

    make_shape_chains.py OUT_DIR

Every chain is what an exporter emits for code such as `F.pad(x, (0, (7 - W % 7) % 7, ...))` or
`x.view(x.numel() // C, C)`; the compiler must fold it on `ms` to a constant shape. The window
variants slice `x[:, p : p + 3]` at a runtime `p`: a static size at a runtime start.
"""

import os
import sys

import numpy as np
from onnx import TensorProto as T, helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_math_e2e  # noqa: E402

# ONNX's shape inference cannot give the outputs static shapes (they depend on computed values),
# which onnx.checker then refuses; onnxruntime is the judge of these models instead.
make_math_e2e.onnx.checker.check_model = lambda model: None

node = helper.make_node


def i64(*values):
    return np.array(values, dtype=np.int64)


def s64(value):
    return np.array(value, dtype=np.int64)


def variants():
    rng = np.random.default_rng(14)
    v = {}
    # Swin-style window padding of an NHWC map to multiples of 7, laid out as PyTorch's F.pad
    # export does: pairs from the last dim, zeros for the rest, reversed, transposed, flattened.
    x = rng.standard_normal((1, 10, 12, 8)).astype(np.float32)
    v["window_pad"] = ([
        node("Shape", ["x"], ["shape"]),
        node("Gather", ["shape", "one"], ["h"], axis=0),
        node("Gather", ["shape", "two"], ["w"], axis=0),
        node("Mod", ["h", "seven"], ["hm"]),
        node("Sub", ["seven", "hm"], ["hs"]),
        node("Mod", ["hs", "seven"], ["pad_h"]),
        node("Mod", ["w", "seven"], ["wm"]),
        node("Sub", ["seven", "wm"], ["ws"]),
        node("Mod", ["ws", "seven"], ["pad_w"]),
        node("Unsqueeze", ["pad_h", "axes0"], ["pad_h1"]),
        node("Unsqueeze", ["pad_w", "axes0"], ["pad_w1"]),
        node("Concat", ["zeros3", "pad_w1", "zero1", "pad_h1"], ["given"], axis=0),
        node("Shape", ["given"], ["given_len"]),
        node("Sub", ["eight1", "given_len"], ["rest_len"]),
        node("ConstantOfShape", ["rest_len"], ["rest"],
             value=helper.make_tensor("zero", T.INT64, [1], [0])),
        node("Concat", ["given", "rest"], ["all"], axis=0),
        node("Reshape", ["all", "pairs"], ["pairs2"]),
        node("Slice", ["pairs2", "minus1", "int_min", "axes0", "minus1"], ["reversed"]),
        node("Transpose", ["reversed"], ["begins_ends"], perm=[1, 0]),
        node("Reshape", ["begins_ends", "minus1"], ["pads_i"]),
        node("Cast", ["pads_i"], ["pads"], to=T.INT64),
        node("Pad", ["x", "pads"], ["y"]),
    ], {"x": x}, {"one": s64(1), "two": s64(2), "seven": s64(7), "axes0": i64(0),
                 "zeros3": i64(0, 0, 0), "zero1": i64(0), "eight1": i64(8), "pairs": i64(-1, 2),
                 "minus1": i64(-1), "int_min": i64(-2**63)}, 13, (0, 0), ["y"])

    # Size -> Div -> Concat -> Reshape: x.view(x.numel() // C, C).
    v["size_div"] = ([
        node("Size", ["x"], ["n"]),
        node("Shape", ["x"], ["shape"]),
        node("Gather", ["shape", "three"], ["c"], axis=0),
        node("Div", ["n", "c"], ["rows"]),
        node("Unsqueeze", ["rows", "axes0"], ["rows1"]),
        node("Unsqueeze", ["c", "axes0"], ["c1"]),
        node("Concat", ["rows1", "c1"], ["target"], axis=0),
        node("Reshape", ["x", "target"], ["y"]),
    ], {"x": x}, {"three": s64(3), "axes0": i64(0)}, 13, (0, 0), ["y"])

    # Range from a shape, counting down: flips the last axis through Gather.
    v["range_flip"] = ([
        node("Shape", ["x"], ["shape"]),
        node("Gather", ["shape", "minus1"], ["w"], axis=0),
        node("Sub", ["w", "one"], ["last"]),
        node("Range", ["last", "minus1", "minus1"], ["idx"]),
        node("Gather", ["x", "idx"], ["y"], axis=3),
    ], {"x": x}, {"one": s64(1), "minus1": s64(-1)}, 13, (0, 0), ["y"])

    # PyTorch's expand pattern on shapes: Where(Equal(shape, -1), ones, shape), with Max/Min and
    # ReduceProd on the way (the flattened size of all but the first dim).
    y = rng.standard_normal((3, 1)).astype(np.float32)
    v["where_expand"] = ([
        node("Equal", ["want", "minus1"], ["is_neg"]),
        node("Shape", ["y"], ["yshape"]),
        node("Concat", ["one1", "yshape"], ["yshape3"], axis=0),
        node("Where", ["is_neg", "yshape3", "want"], ["target"]),
        node("Max", ["target", "one1"], ["target_pos"]),
        node("Min", ["target_pos", "big"], ["target_ok"]),
        node("Expand", ["y", "target_ok"], ["e"]),
        node("Shape", ["e"], ["eshape"]),
        node("Slice", ["eshape", "one1", "big"], ["tail"]),
        node("ReduceProd", ["tail"], ["tail_n"], keepdims=1),
        node("Gather", ["eshape", "zero1"], ["head"], axis=0),
        node("Concat", ["head", "tail_n"], ["flat"], axis=0),
        node("Reshape", ["e", "flat"], ["z"]),
        node("Greater", ["tail_n", "head"], ["less"]),
        node("Cast", ["less"], ["less_f"], to=T.FLOAT),
        node("Mul", ["z", "less_f"], ["out"]),
    ], {"y": y}, {"want": i64(2, -1, 4), "minus1": i64(-1), "one1": i64(1), "zero1": i64(0),
                 "big": i64(1000)}, 13, (0, 0), ["out"])
    # x[:, p : p + 3] and x[q - 1 : q + 1, p : p + 3] with p, q runtime scalars (graph inputs):
    # windows of static size at runtime starts (a negative start counts from the end).
    x = np.arange(5 * 9, dtype=np.float32).reshape(5, 9)
    for name, p, q in [("window_start", 4, 2), ("window_start_negative", -5, 4)]:
        v[name] = ([
            node("Unsqueeze", ["p", "axis0"], ["p1"]),
            node("Add", ["p1", "three"], ["p3"]),
            node("Slice", ["x", "p1", "p3", "axis1"], ["cols"]),
            node("Sub", ["q", "one0"], ["q0"]),
            node("Add", ["q", "one0"], ["q2"]),
            node("Unsqueeze", ["q0", "axis0"], ["q01"]),
            node("Unsqueeze", ["q2", "axis0"], ["q21"]),
            node("Concat", ["q01", "p1"], ["starts"], axis=0),
            node("Concat", ["q21", "p3"], ["ends"], axis=0),
            node("Slice", ["x", "starts", "ends", "axes01"], ["block"]),
        ], {"x": x, "p": np.array(p, np.int64), "q": np.array(q, np.int64)},
            {"axis0": i64(0), "three": i64(3), "axis1": i64(1), "one0": np.array(1, np.int64),
             "axes01": i64(0, 1)}, 13, (0, 0), ["cols", "block"])
    return v


def main():
    make_math_e2e.write_variants(variants(), sys.argv[1])


if __name__ == "__main__":
    main()
