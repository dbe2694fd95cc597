#!/usr/bin/env python3
"""Writes one small ONNX model of NegativeLogLikelihoodLoss or SoftmaxCrossEntropyLoss, chosen by
name, for onnx-loss-ops.test.

    make_loss_models.py NAME OUT.onnx

Built with onnx.helper at test time, never passed through onnx.checker (some are invalid on
purpose).
"""

from onnx import TensorProto, helper
from onnx_test_models import Registry, model, vi

F = TensorProto.FLOAT
I64 = TensorProto.INT64

register = Registry()
node = helper.make_node


@register
def nll_mean_weight_ii():
    return model([node("NegativeLogLikelihoodLoss", ["x", "t", "w"], ["y"], name="nll",
                       reduction="mean", ignore_index=-1)],
                 [vi("x", [2, 3, 4]), vi("t", [2, 4], I64), vi("w", [3])], [vi("y", [])])


@register
def nll_none():
    return model([node("NegativeLogLikelihoodLoss", ["x", "t"], ["y"], name="nll",
                       reduction="none")],
                 [vi("x", [2, 3]), vi("t", [2], I64)], [vi("y", [2])])


@register
def nll_sum_no_weight():
    return model([node("NegativeLogLikelihoodLoss", ["x", "t"], ["y"], name="nll",
                       reduction="sum")],
                 [vi("x", [2, 3, 2, 2]), vi("t", [2, 2, 2], TensorProto.INT32)], [vi("y", [])])


@register
def sce_mean_log_prob():
    return model([node("SoftmaxCrossEntropyLoss", ["x", "t"], ["y", "lp"], name="sce")],
                 [vi("x", [2, 3]), vi("t", [2], I64)], [vi("y", []), vi("lp", [2, 3])])


@register
def bad_target_shape():
    return model([node("NegativeLogLikelihoodLoss", ["x", "t"], ["y"], name="nll_bad")],
                 [vi("x", [2, 3, 4]), vi("t", [2, 3], I64)], [vi("y", [])])


@register
def bad_reduction():
    return model([node("SoftmaxCrossEntropyLoss", ["x", "t"], ["y"], name="sce_bad",
                       reduction="max")],
                 [vi("x", [2, 3]), vi("t", [2], I64)], [vi("y", [])])


@register
def bad_weight():
    return model([node("NegativeLogLikelihoodLoss", ["x", "t", "w"], ["y"], name="nll_w")],
                 [vi("x", [2, 3]), vi("t", [2], I64), vi("w", [2])], [vi("y", [])])


if __name__ == "__main__":
    register.main()
