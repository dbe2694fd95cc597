"""Builds the RNN, GRU and LSTM models of recurrent.test, their inputs and onnxruntime's outputs.

Usage: make_recurrent.py OUT_DIR [VARIANT...]   (all variants when none is named)
Same layout and reference as make_ops.py (whose Variant and build it uses). Weights are
initializers (the input projection then runs on packed weights); sequence lengths and initial
states are graph inputs. The variants cover every direction, sequence lengths shorter than the
sequence (down to 1), initial states, peepholes, clip, input_forget, both GRU forms and
activations with alpha/beta consumed in order.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_ops import Variant, build, normal  # noqa: E402


def weights(op, dirs, gates, hidden, inputs, seed, scale=0.4):
    """W, R, B initializers (B: Wb and Rb side by side) with values where the gates do not
    saturate."""
    return {f"{op}_w": scale * normal([dirs, gates * hidden, inputs], seed),
            f"{op}_r": scale * normal([dirs, gates * hidden, hidden], seed + 1),
            f"{op}_b": scale * normal([dirs, 2 * gates * hidden], seed + 2)}


def variants():
    v = {}
    t, b, i, h = 7, 3, 5, 6
    lens = np.array([7, 4, 1], np.int32)

    # Bidirectional LSTM with sequence lengths, both initial states and peepholes.
    inits = weights("lstm", 2, 4, h, i, 1)
    inits["p"] = 0.3 * normal([2, 3 * h], 4)
    v["lstm_bidirectional"] = Variant(
        "LSTM", {"x": normal([t, b, i], 5), "lens": lens, "h0": normal([2, b, h], 6),
                 "c0": normal([2, b, h], 7)},
        outputs=["y", "y_h", "y_c"], inits=inits, opset=14, direction="bidirectional",
        hidden_size=h, node_inputs=["x", "lstm_w", "lstm_r", "lstm_b", "lens", "h0", "c0", "p"],
        )
    # LSTM, reverse, with clip, input_forget and other activations (f = HardSigmoid takes alpha
    # and beta, g = Elu alpha, h = Softsign none); only Y_h and Y_c requested.
    v["lstm_reverse_clip"] = Variant(
        "LSTM", {"x": 2 * normal([t, b, i], 8), "lens": np.array([3, 7, 5], np.int32)},
        outputs=["", "y_h", "y_c"], inits=weights("lstm", 1, 4, h, i, 9, 0.8), opset=14,
        direction="reverse", hidden_size=h, clip=0.7, input_forget=1,
        activations=["HardSigmoid", "Elu", "Softsign"], activation_alpha=[0.3, 0.8],
        activation_beta=[0.45], node_inputs=["x", "lstm_w", "lstm_r", "lstm_b", "lens"])
    # GRU with linear_before_reset and an initial state.
    v["gru_linear_before_reset"] = Variant(
        "GRU", {"x": normal([t, b, i], 12), "h0": normal([1, b, h], 13)},
        outputs=["y", "y_h"], inits=weights("gru", 1, 3, h, i, 14), opset=14,
        linear_before_reset=1, hidden_size=h,
        node_inputs=["x", "gru_w", "gru_r", "gru_b", "", "h0"])
    # The same with B a graph input (the biases are sliced and summed at run time).
    gru_weights = weights("gru", 1, 3, h, i, 14)
    v["gru_runtime_bias"] = Variant(
        "GRU", {"x": normal([t, b, i], 12), "gru_b": gru_weights.pop("gru_b")},
        outputs=["y", "y_h"], inits=gru_weights, opset=14, linear_before_reset=1, hidden_size=h,
        node_inputs=["x", "gru_w", "gru_r", "gru_b"])
    # GRU, bidirectional, reset before the product, with sequence lengths.
    v["gru_bidirectional_lens"] = Variant(
        "GRU", {"x": normal([t, b, i], 17), "lens": lens},
        outputs=["y", "y_h"], inits=weights("gru", 2, 3, h, i, 18), opset=14,
        direction="bidirectional", hidden_size=h, node_inputs=["x", "gru_w", "gru_r", "gru_b", "lens"])
    # Six batch rows: the recurrent products take four rows at a time, then the other two.
    v["gru_six_rows"] = Variant(
        "GRU", {"x": normal([t, 6, i], 19), "lens": np.array([7, 2, 5, 7, 1, 6], np.int32),
                "h0": normal([1, 6, h], 20)},
        outputs=["y", "y_h"], inits=weights("gru", 1, 3, h, i, 36), opset=14,
        direction="reverse", hidden_size=h,
        node_inputs=["x", "gru_w", "gru_r", "gru_b", "lens", "h0"])
    # A tanh RNN with a bias, forward.
    v["rnn_tanh"] = Variant(
        "RNN", {"x": normal([t, b, i], 21)}, outputs=["y", "y_h"],
        inits=weights("rnn", 1, 1, h, i, 22), opset=14, hidden_size=h,
        node_inputs=["x", "rnn_w", "rnn_r", "rnn_b"])
    # Bidirectional RNN: HardSigmoid forward (alpha 0.3, beta 0.6), ScaledTanh backward (alpha
    # 1.5, beta 0.7), no bias, an initial state. (Both take alpha and beta: onnxruntime's RNN
    # indexes the lists by activation where ONNX, its LSTM and GRU and this compiler consume them
    # in order, which agree only then.)
    v["rnn_bidirectional_activations"] = Variant(
        "RNN", {"x": normal([t, b, i], 25), "h0": normal([2, b, h], 26)}, outputs=["y", "y_h"],
        inits={k: a for k, a in weights("rnn", 2, 1, h, i, 27).items() if k != "rnn_b"},
        opset=14, direction="bidirectional", hidden_size=h, activations=["HardSigmoid", "ScaledTanh"],
        activation_alpha=[0.3, 1.5], activation_beta=[0.6, 0.7],
        node_inputs=["x", "rnn_w", "rnn_r", "", "", "h0"])
    # A reverse GRU and a bidirectional LSTM in layout 1 (see to_layout1).
    v["gru_layout1"] = Variant(
        "GRU", {"x": normal([t, b, i], 30), "h0": normal([1, b, h], 31)}, outputs=["y", "y_h"],
        inits=weights("gru", 1, 3, h, i, 32), opset=14, direction="reverse", hidden_size=h,
        node_inputs=["x", "gru_w", "gru_r", "gru_b", "", "h0"])
    v["lstm_layout1"] = Variant(
        "LSTM", {"x": normal([t, b, i], 33), "lens": lens, "c0": normal([2, b, h], 34)},
        outputs=["y", "y_h", "y_c"], inits=weights("lstm", 2, 4, h, i, 35), opset=14,
        direction="bidirectional", hidden_size=h,
        node_inputs=["x", "lstm_w", "lstm_r", "lstm_b", "lens", "", "c0"])
    for var in v.values():
        var.tol = (1e-5, 1e-6)
    return v


def to_layout1(name, out_dir):
    """Turns a built layout-0 variant into its layout-1 twin: onnxruntime's CPU kernels take
    layout 0 only, so the reference is the layout-0 model's output, transposed. X and the initial
    states become [B, T, I] and [B, D, H]; Y becomes [B, T, D, H], Y_h and Y_c [B, D, H]."""
    import onnx
    from onnx import helper
    d = os.path.join(out_dir, name)
    model = onnx.load(os.path.join(d, "model.onnx"))
    node = model.graph.node[0]
    node.attribute.append(helper.make_attribute("layout", 1))
    batch_major = {node.input[0]: (1, 0, 2)}
    for k in (5, 6):
        if len(node.input) > k and node.input[k]:
            batch_major[node.input[k]] = (1, 0, 2)
    for k, value in enumerate(model.graph.input):
        if value.name not in batch_major:
            continue
        dims = value.type.tensor_type.shape.dim
        sizes = [dim.dim_value for dim in dims]
        dims[0].dim_value, dims[1].dim_value = sizes[1], sizes[0]
        path = os.path.join(d, f"input_{k}.npy")
        np.save(path, np.load(path).transpose(batch_major[value.name]))
    del model.graph.value_info[:]
    for value in model.graph.output:
        value.type.tensor_type.ClearField("shape")
    for k, out in enumerate(o for o in node.output if o):
        path = os.path.join(d, f"reference_{k}.npy")
        ref = np.load(path)
        np.save(path, ref.transpose((2, 0, 1, 3) if ref.ndim == 4 else (1, 0, 2)))
    model = onnx.shape_inference.infer_shapes(model, strict_mode=True)
    onnx.checker.check_model(model)
    onnx.save(model, os.path.join(d, "model.onnx"))


def main():
    out_dir, names = sys.argv[1], sys.argv[2:]
    all_variants = variants()
    names = names or list(all_variants)
    os.makedirs(out_dir, exist_ok=True)
    for name in names:
        build(name, all_variants[name], out_dir)
        if name.endswith("_layout1"):
            to_layout1(name, out_dir)
    with open(os.path.join(out_dir, "variants"), "w") as f:
        f.write("\n".join(names) + "\n")


if __name__ == "__main__":
    main()
