#!/usr/bin/env python3
"""Writes one small ONNX model of RNN, GRU or LSTM, chosen by name, for onnx-recurrent-ops.test.

    make_recurrent_models.py NAME OUT.onnx

Same conventions as make_models.py: built with onnx.helper and numpy at test time, never passed
through onnx.checker (some are invalid on purpose).
"""

import numpy as np
from onnx import TensorProto, helper, numpy_helper
from onnx_test_models import Registry, vi
from onnx_test_models import model as base_model

F = TensorProto.FLOAT
I32 = TensorProto.INT32

register = Registry()


def weight(name, shape, seed):
    return numpy_helper.from_array(
        np.random.default_rng(seed).standard_normal(shape).astype(np.float32), name)


def model(nodes, inputs, outputs, inits=(), opset=14):
    return base_model(nodes, inputs, outputs, inits, opset)


node = helper.make_node
T, B, I, H = 5, 2, 3, 4


def cell_weights(dirs, gates, bias=True):
    inits = [weight("w", [dirs, gates * H, I], 1), weight("r", [dirs, gates * H, H], 2)]
    if bias:
        inits.append(weight("b", [dirs, 2 * gates * H], 3))
    return inits


@register
def lstm_bidirectional():
    # Every input: the bias folds into the projection, lengths, both initial states, peepholes.
    return model(
        [node("LSTM", ["x", "w", "r", "b", "lens", "h0", "c0", "p"], ["y", "y_h", "y_c"],
              name="lstm", direction="bidirectional", hidden_size=H)],
        [vi("x", [T, B, I]), vi("lens", [B], I32), vi("h0", [2, B, H]), vi("c0", [2, B, H])],
        [vi("y", None), vi("y_h", None), vi("y_c", None)],
        cell_weights(2, 4) + [weight("p", [2, 3 * H], 4)])


@register
def gru_linear_before_reset():
    # Rbh stays out of the projection; only Y_h is requested.
    return model(
        [node("GRU", ["x", "w", "r", "b"], ["", "y_h"], name="gru", linear_before_reset=1,
              clip=5.0)],
        [vi("x", [T, B, I])], [vi("y_h", None)], cell_weights(1, 3))


@register
def gru_runtime_bias():
    # B a graph input: the biases are sliced and summed by ms ops at run time.
    return model(
        [node("GRU", ["x", "w", "r", "b"], ["y"], name="gru", linear_before_reset=1)],
        [vi("x", [T, B, I]), vi("b", [1, 6 * H])], [vi("y", None)], cell_weights(1, 3, False))


@register
def rnn_layout1():
    # Batch-major tensors; one activation list for both directions; alpha/beta consumed in order.
    return model(
        [node("RNN", ["x", "w", "r", "", "", "h0"], ["y", "y_h"], name="rnn", layout=1,
              direction="bidirectional", activations=["LeakyRelu", "Affine"],
              activation_alpha=[0.2, 2.0], activation_beta=[0.5])],
        [vi("x", [B, T, I]), vi("h0", [B, 2, H])], [vi("y", None), vi("y_h", None)],
        cell_weights(2, 1, bias=False))


@register
def rnn_one_activation_bidirectional():
    return model(
        [node("RNN", ["x", "w", "r"], ["y"], name="rnn", direction="bidirectional",
              activations=["Relu"])],
        [vi("x", [T, B, I])], [vi("y", None)], cell_weights(2, 1, bias=False))


@register
def lstm_unknown_activation():
    return model(
        [node("LSTM", ["x", "w", "r"], ["y"], name="lstm",
              activations=["Sigmoid", "Gelu", "Tanh"])],
        [vi("x", [T, B, I])], [vi("y", None)], cell_weights(1, 4, bias=False))


@register
def gru_bad_direction():
    return model([node("GRU", ["x", "w", "r"], ["y"], name="gru", direction="sideways")],
                 [vi("x", [T, B, I])], [vi("y", None)], cell_weights(1, 3, bias=False))


@register
def gru_bad_weights():
    # W for two directions under a forward GRU.
    return model([node("GRU", ["x", "w", "r"], ["y"], name="gru")], [vi("x", [T, B, I])],
                 [vi("y", None)], [weight("w", [2, 3 * H, I], 1), weight("r", [1, 3 * H, H], 2)])


@register
def lstm_bad_hidden_size():
    return model([node("LSTM", ["x", "w", "r"], ["y"], name="lstm", hidden_size=H + 1)],
                 [vi("x", [T, B, I])], [vi("y", None)], cell_weights(1, 4, bias=False))


@register
def rnn_activation_count():
    return model([node("RNN", ["x", "w", "r"], ["y"], name="rnn", activations=["Tanh", "Relu"])],
                 [vi("x", [T, B, I])], [vi("y", None)], cell_weights(1, 1, bias=False))


@register
def lstm_bad_initial_c():
    return model([node("LSTM", ["x", "w", "r", "", "", "", "c0"], ["y"], name="lstm")],
                 [vi("x", [T, B, I]), vi("c0", [1, B + 1, H])], [vi("y", None)],
                 cell_weights(1, 4, bias=False))


if __name__ == "__main__":
    register.main()
