#!/usr/bin/env python3
"""Writes one small ONNX model of a random op (RandomUniform, RandomNormal, their *Like forms,
Bernoulli, Multinomial, Dropout in training mode), chosen by name, for onnx-random-ops.test and
test/e2e/random.test.

    make_random_models.py NAME OUT.onnx

Built with onnx.helper at test time, never passed through onnx.checker (some are invalid on
purpose).
"""

from onnx import TensorProto, helper
from onnx_test_models import Registry, model, vi

F = TensorProto.FLOAT
D = TensorProto.DOUBLE
F16 = TensorProto.FLOAT16
I32 = TensorProto.INT32
I64 = TensorProto.INT64
B = TensorProto.BOOL

register = Registry()
node = helper.make_node


@register
def uniform():
    return model([node("RandomUniform", [], ["y"], name="ru", shape=[2, 3], low=-1.0, high=2.0)],
                 [], [vi("y", [2, 3])])


@register
def uniform_big():
    # 2^16 + 5 draws: enough for the statistics of the e2e test, an odd size for the vector tails.
    return model([node("RandomUniform", [], ["y"], name="ru", shape=[65541], low=-1.0, high=3.0)],
                 [], [vi("y", [65541])])


@register
def normal_big():
    return model([node("RandomNormal", [], ["y"], name="rn", shape=[256, 257], mean=2.0, scale=0.5,
                       dtype=D)],
                 [], [vi("y", [256, 257], D)])


@register
def normal_seeded():
    return model([node("RandomNormal", [], ["y"], name="rn", shape=[4, 5], seed=3.0)],
                 [], [vi("y", [4, 5])])


@register
def two_uniforms():
    # Two ops with the same attributes draw different numbers (their streams differ).
    return model([node("RandomUniform", [], ["a"], name="a", shape=[64]),
                  node("RandomUniform", [], ["b"], name="b", shape=[64])],
                 [], [vi("a", [64]), vi("b", [64])])


@register
def like_f16():
    return model([node("RandomUniformLike", ["x"], ["u"], name="rul", low=0.0, high=10.0),
                  node("RandomNormalLike", ["x"], ["z"], name="rnl", dtype=F)],
                 [vi("x", [3, 4], F16)], [vi("u", [3, 4], F16), vi("z", [3, 4])])


@register
def bernoulli():
    return model([node("Bernoulli", ["p"], ["y"], name="bern", dtype=I32)],
                 [vi("p", [4096])], [vi("y", [4096], I32)], opset=15)


@register
def multinomial():
    return model([node("Multinomial", ["x"], ["y"], name="multi", sample_size=20000, dtype=I64)],
                 [vi("x", [2, 4])], [vi("y", [2, 20000], I64)])


@register
def dropout_training():
    ratio = helper.make_tensor("ratio", F, [], [0.25])
    training = helper.make_tensor("training", B, [], [True])
    return model([node("Dropout", ["x", "ratio", "training"], ["y", "mask"], name="drop")],
                 [vi("x", [50000])], [vi("y", [50000]), vi("mask", [50000], B)],
                 inits=[ratio, training])


@register
def dropout_training_ratio_input():
    training = helper.make_tensor("training", B, [], [True])
    return model([node("Dropout", ["x", "r", "training"], ["y"], name="drop")],
                 [vi("x", [8]), vi("r", [])], [vi("y", [8])], inits=[training])


@register
def dropout_opset6():
    return model([node("Dropout", ["x"], ["y", "mask"], name="drop", is_test=0, ratio=0.5)],
                 [vi("x", [8])], [vi("y", [8]), vi("mask", [8])], opset=6)


@register
def in_loop_body():
    body = helper.make_graph(
        [node("RandomUniform", [], ["u"], name="draw", shape=[2]),
         node("Add", ["acc", "u"], ["acc_out"], name="add"),
         node("Identity", ["cond"], ["cond_out"], name="id")],
        "body", [vi("i", [], I64), vi("cond", [], B), vi("acc", [2])],
        [vi("cond_out", [], B), vi("acc_out", [2])])
    trips = helper.make_tensor("trips", I64, [], [3])
    return model([node("Loop", ["trips", "", "a"], ["r"], name="loop", body=body)],
                 [vi("a", [2])], [vi("r", [2])], inits=[trips])


@register
def in_loop_runtime_trips():
    body = helper.make_graph(
        [node("RandomNormal", [], ["u"], name="draw", shape=[2]),
         node("Add", ["acc", "u"], ["acc_out"], name="add"),
         node("Identity", ["cond"], ["cond_out"], name="id")],
        "body", [vi("i", [], I64), vi("cond", [], B), vi("acc", [2])],
        [vi("cond_out", [], B), vi("acc_out", [2])])
    return model([node("Loop", ["trips", "", "a"], ["r"], name="loop", body=body)],
                 [vi("trips", [], I64), vi("a", [2])], [vi("r", [2])])


@register
def in_nested_loops():
    # An outer Loop of 2 iterations around an inner one of `trips` (a graph input): 2 * trips draws.
    inner = helper.make_graph(
        [node("RandomUniform", [], ["u"], name="draw", shape=[2]),
         node("Add", ["acc", "u"], ["acc_out"], name="add"),
         node("Identity", ["cond"], ["cond_out"], name="id")],
        "inner", [vi("j", [], I64), vi("cond", [], B), vi("acc", [2])],
        [vi("cond_out", [], B), vi("acc_out", [2])])
    outer = helper.make_graph(
        [node("Loop", ["trips", "", "acc"], ["acc_out"], name="inner", body=inner),
         node("Identity", ["cond"], ["cond_out"], name="id_outer")],
        "outer", [vi("i", [], I64), vi("cond", [], B), vi("acc", [2])],
        [vi("cond_out", [], B), vi("acc_out", [2])])
    two = helper.make_tensor("two", I64, [], [2])
    return model([node("Loop", ["two", "", "a"], ["r"], name="outer", body=outer)],
                 [vi("trips", [], I64), vi("a", [2])], [vi("r", [2])], inits=[two])


@register
def in_scan_body():
    body = helper.make_graph(
        [node("RandomUniform", [], ["u"], name="draw", shape=[2]),
         node("Add", ["acc", "x"], ["s"], name="add"),
         node("Add", ["s", "u"], ["acc_out"], name="add2")],
        "body", [vi("acc", [2]), vi("x", [2])], [vi("acc_out", [2])])
    return model([node("Scan", ["a", "xs"], ["r"], name="scan", body=body, num_scan_inputs=1)],
                 [vi("a", [2]), vi("xs", [3, 2])], [vi("r", [2])], opset=11)


@register
def bad_dtype():
    return model([node("RandomNormal", [], ["y"], name="rn_int", shape=[2], dtype=I32)],
                 [], [vi("y", [2], I32)])


@register
def bad_shape():
    return model([node("RandomUniform", [], ["y"], name="ru_neg", shape=[2, -1])],
                 [], [vi("y", [2, 1])])


@register
def bad_bounds():
    return model([node("RandomUniform", [], ["y"], name="ru_bounds", shape=[2], low=1.0, high=0.0)],
                 [], [vi("y", [2])])


@register
def bad_ratio():
    ratio = helper.make_tensor("ratio", F, [], [1.0])
    training = helper.make_tensor("training", B, [], [True])
    return model([node("Dropout", ["x", "ratio", "training"], ["y"], name="drop_all")],
                 [vi("x", [8])], [vi("y", [8])], inits=[ratio, training])


@register
def bad_multinomial_dtype():
    return model([node("Multinomial", ["x"], ["y"], name="multi_f", dtype=F)],
                 [vi("x", [2, 4])], [vi("y", [2, 1])])


if __name__ == "__main__":
    register.main()
