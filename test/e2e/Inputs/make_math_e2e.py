"""Builds small models of the math / logic / cast family, their inputs and onnxruntime's outputs.

Usage: make_math_e2e.py OUT_DIR
Writes OUT_DIR/VARIANT/ in make_ops.py's layout (model.onnx, input_K.npy, reference_K.npy, compile,
run_args, outputs, tol) and OUT_DIR/variants, for math-ops.test's loop. Each variant is one graph of
one or more nodes with one output per value worth checking; inputs are fixed or seeded, and the
reference is always onnxruntime's output. Values are kept where ONNX defines the result (no float to
int casts out of range, no NaN outputs, which compare.py does not match).
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto as T, helper, numpy_helper

NP_TO_ONNX = {np.dtype(np.float32): T.FLOAT, np.dtype(np.int32): T.INT32,
              np.dtype(np.int64): T.INT64, np.dtype(np.bool_): T.BOOL}
node = helper.make_node


def normal(shape, seed, scale=1.0):
    return (np.random.default_rng(seed).standard_normal(shape) * scale).astype(np.float32)


def variants():
    v = {}
    # Negative bases with integral exponents (odd and even), positive bases with any exponent, zero
    # to the power 0; and LayerNorm's Pow(x - mean, 2) with a constant exponent.
    x = np.array([-2.0, -1.5, -3.0, 0.5, 2.0, 0.0, 4.0, -0.5], np.float32)
    y = np.array([3.0, 2.0, -1.0, 0.5, -1.5, 0.0, 0.25, -3.0], np.float32)
    v["pow"] = ([node("Pow", ["x", "y"], ["general"]), node("Pow", ["x", "two"], ["square"]),
                 node("Pow", ["x", "three_i"], ["cube"])],
                {"x": x, "y": y}, {"two": np.array(2.0, np.float32),
                                   "three_i": np.array(3, np.int64)}, 13, (1e-5, 1e-6))
    # Cast from f32 (truncation toward zero, != 0 for bool) and from integers and bool, through every
    # integer width, f16, bf16 and f64.
    f = np.array([[-100.75, -2.5, -0.4, 0.0, 0.6, 1.5, 99.9, 7.25]], np.float32)
    i = np.array([[-70000, -129, -1, 0, 1, 127, 255, 40000]], np.int32)
    nodes, outs = [], []
    for name, to in [("i8", T.INT8), ("i16", T.INT16), ("i32", T.INT32), ("i64", T.INT64),
                     ("b", T.BOOL), ("h", T.FLOAT16), ("bf", T.BFLOAT16), ("d", T.DOUBLE)]:
        nodes.append(node("Cast", ["f"], ["f_" + name], to=to))
        nodes.append(node("Cast", ["f_" + name], ["f_%s_back" % name], to=T.FLOAT))
        outs.append("f_%s_back" % name)
    for name, to in [("i64", T.INT64), ("b", T.BOOL), ("f", T.FLOAT), ("d", T.DOUBLE),
                     ("bf", T.BFLOAT16)]:
        nodes.append(node("Cast", ["i"], ["i_" + name], to=to))
        nodes.append(node("Cast", ["i_" + name], ["i_%s_back" % name], to=T.INT32))
        outs.append("i_%s_back" % name)
    nodes.append(node("Cast", ["i_b"], ["b_f"], to=T.FLOAT))
    nodes.append(node("CastLike", ["f", "i"], ["like_i"]))
    outs += ["b_f", "like_i"]
    v["cast"] = (nodes, {"f": f, "i": i}, {}, 19, (0, 0), outs)
    # Mod: integers with the divisor's sign, floats with fmod's.
    a = np.array([-7, 7, -7, 7, 0, 13, -13, 5], np.int32)
    b = np.array([3, -3, -3, 3, 5, 4, 4, -13], np.int32)
    xf = np.array([-7.5, 7.5, 5.25, -5.25, 100.0, 3.0, 0.0, -1e-3], np.float32)
    yf = np.array([2.0, -2.0, 1.5, 1.5, 7.0, 0.7, 3.0, 0.3], np.float32)
    v["mod"] = ([node("Mod", ["a", "b"], ["py"]), node("Mod", ["a", "b"], ["c"], fmod=1),
                 node("Mod", ["xf", "yf"], ["fm"], fmod=1)],
                {"a": a, "b": b, "xf": xf, "yf": yf}, {}, 13, (1e-5, 1e-6))
    # Rounding (halves to even), sign, trigonometric and hyperbolic functions on their domains.
    r = np.array([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 2.4999, -0.0001], np.float32)
    u = np.clip(normal([16], 1, 0.5), -0.95, 0.95)
    w = normal([16], 2, 2.0)
    funcs = ["Sin", "Cos", "Tan", "Atan", "Sinh", "Cosh", "Asinh"]
    nodes = [node("Floor", ["r"], ["floor"]), node("Ceil", ["r"], ["ceil"]),
             node("Round", ["r"], ["round"]), node("Sign", ["r"], ["sign"])]
    nodes += [node(fn, ["w"], [fn.lower()]) for fn in funcs]
    nodes += [node(fn, ["u"], [fn.lower()]) for fn in ["Asin", "Acos", "Atanh"]]
    nodes += [node("Abs", ["w"], ["aw"]), node("Add", ["aw", "one"], ["w1"]),
              node("Acosh", ["w1"], ["acosh"])]
    outs = ["floor", "ceil", "round", "sign"] + [fn.lower() for fn in funcs] + \
        ["asin", "acos", "atanh", "acosh"]
    v["unary"] = (nodes, {"r": r, "w": w, "u": u}, {"one": np.array(1.0, np.float32)}, 13,
                  (1e-4, 1e-5), outs)
    # IsNaN / IsInf (bool outputs) on special values.
    s = np.array([np.nan, np.inf, -np.inf, 0.0, -1.0, 3e38], np.float32)
    v["classify"] = ([node("IsNaN", ["s"], ["nan"]), node("IsInf", ["s"], ["inf"]),
                      node("IsInf", ["s"], ["neg"], detect_positive=0),
                      node("IsInf", ["s"], ["pos"], detect_negative=0)],
                     {"s": s}, {}, 13, (0, 0))
    # Logical and bitwise ops with broadcasting.
    p = np.random.default_rng(3).random([3, 4]) > 0.5
    q = np.random.default_rng(4).random([4]) > 0.5
    m = np.random.default_rng(5).integers(-1000, 1000, [3, 4]).astype(np.int32)
    n = np.random.default_rng(6).integers(-1000, 1000, [4]).astype(np.int32)
    v["logic"] = ([node("And", ["p", "q"], ["and"]), node("Or", ["p", "q"], ["or"]),
                   node("Xor", ["p", "q"], ["xor"]), node("Not", ["p"], ["not"]),
                   node("BitwiseAnd", ["m", "n"], ["band"]), node("BitwiseOr", ["m", "n"], ["bor"]),
                   node("BitwiseXor", ["m", "n"], ["bxor"]), node("BitwiseNot", ["m"], ["bnot"])],
                  {"p": p, "q": q, "m": m, "n": n}, {}, 18, (0, 0))
    # Activations over negative and positive values (large ones for Softplus's stable form).
    z = np.concatenate([normal([22], 7, 2.0), np.array([-40, 40], np.float32)]).reshape(2, 3, 4)
    slope = np.array([0.1, -0.2, 0.3, 0.05], np.float32)
    v["activations"] = ([node("LeakyRelu", ["z"], ["leaky"], alpha=0.1),
                         node("PRelu", ["z", "slope"], ["prelu"]),
                         node("Elu", ["z"], ["elu"], alpha=0.7), node("Selu", ["z"], ["selu"]),
                         node("Celu", ["z"], ["celu"], alpha=1.3),
                         node("ThresholdedRelu", ["z"], ["thr"], alpha=0.4),
                         node("Softplus", ["z"], ["softplus"]), node("Softsign", ["z"], ["softsign"]),
                         node("Mish", ["z"], ["mish"]),
                         node("Shrink", ["z"], ["shrink"], bias=0.3, lambd=0.8),
                         node("Gelu", ["z"], ["gelu"]),
                         node("Gelu", ["z"], ["gelu_tanh"], approximate="tanh"),
                         node("Mean", ["z", "slope", "leaky"], ["mean"])],
                        {"z": z}, {"slope": slope}, 20, (1e-4, 1e-5))
    return v


def onnxruntime_reference(path, inputs):
    import onnxruntime as ort
    return ort.InferenceSession(path, providers=["CPUExecutionProvider"]).run(None, inputs)


def build(name, spec, out_dir):
    nodes, inputs, inits, opset, tol = spec[:5]
    outs = list(spec[5]) if len(spec) > 5 and spec[5] else [o for nd in nodes for o in nd.output]
    d = os.path.join(out_dir, name)
    os.makedirs(d, exist_ok=True)
    graph_inputs = [helper.make_tensor_value_info(k, NP_TO_ONNX[a.dtype], a.shape)
                    for k, a in inputs.items()]
    graph = helper.make_graph(nodes, name, graph_inputs,
                              [helper.make_empty_tensor_value_info(o) for o in outs],
                              initializer=[numpy_helper.from_array(a, k) for k, a in inits.items()])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 8
    model = onnx.shape_inference.infer_shapes(model, strict_mode=True)
    onnx.checker.check_model(model)
    path = os.path.join(d, "model.onnx")
    onnx.save(model, path)

    # spec[6], when given, computes the references instead of onnxruntime (for ops and types
    # onnxruntime has no kernel for): a function (model path, inputs) -> list of arrays.
    reference = spec[6] if len(spec) > 6 else onnxruntime_reference
    results = reference(path, inputs)
    args = []
    for k, (key, a) in enumerate(inputs.items()):
        np.save(os.path.join(d, f"input_{k}.npy"), a)
        args.append(f"--input {key}={os.path.join(d, f'input_{k}.npy')}")
    for k, r in enumerate(results):
        np.save(os.path.join(d, f"reference_{k}.npy"), r)
        args.append(f"--output {os.path.join(d, f'out_{k}.npy')}")
    files = {"compile": "model.onnx", "run_args": " ".join(args),
             "outputs": " ".join(str(k) for k in range(len(results))),
             "tol": f"--rtol {tol[0]} --atol {tol[1]}"}
    for fname, text in files.items():
        with open(os.path.join(d, fname), "w") as f:
            f.write(text + "\n")


def write_variants(all_variants, out_dir):
    """Builds every variant into out_dir/<name>/ and lists their names in out_dir/variants."""
    os.makedirs(out_dir, exist_ok=True)
    for name, spec in all_variants.items():
        build(name, spec, out_dir)
    with open(os.path.join(out_dir, "variants"), "w") as f:
        f.write("\n".join(all_variants) + "\n")


def main():
    write_variants(variants(), sys.argv[1])


if __name__ == "__main__":
    main()
