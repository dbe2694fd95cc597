#!/usr/bin/env python3
"""Writes one small ONNX model with If, Loop or Scan, chosen by name, for onnx-control-flow.test and
the e2e test control-flow.test (which runs the valid ones against onnxruntime).

    make_control_flow_models.py NAME OUT.onnx

Built with onnx.helper and numpy at test time, never passed through onnx.checker (the error cases
are invalid on purpose, for this static-shape compiler).
"""

import numpy as np
from onnx import TensorProto, helper, numpy_helper
from onnx_test_models import Registry, vi
from onnx_test_models import model as base_model

F = TensorProto.FLOAT
I64 = TensorProto.INT64
BOOL = TensorProto.BOOL

register = Registry()
node = helper.make_node


def model(nodes, inputs, outputs, inits=(), opset=16):
    return base_model(nodes, inputs, outputs, inits, opset)


def weight(name, shape, seed, scale=0.5):
    return numpy_helper.from_array(
        (scale * np.random.default_rng(seed).standard_normal(shape)).astype(np.float32), name)


def scalar_i64(name, value):
    return numpy_helper.from_array(np.array(value, np.int64), name)


def scalar_bool(name, value):
    return numpy_helper.from_array(np.array(value, np.bool_), name)


def graph(name, nodes, inputs, outputs, inits=()):
    return helper.make_graph(nodes, name, inputs, outputs, initializer=list(inits))


def if_branches(then_nodes, then_outputs, else_nodes, else_outputs):
    return {"then_branch": graph("then", then_nodes, [], then_outputs),
            "else_branch": graph("else", else_nodes, [], else_outputs)}


@register
def if_computed():
    # The condition is computed (sum(x) > 0); both branches use values of the outer graph (s, x,
    # the weight w) without taking them as inputs.
    then_nodes = [node("Add", ["s", "x"], ["t0"]), node("Mul", ["x", "x"], ["t1"])]
    else_nodes = [node("Sub", ["s", "w"], ["e0"]), node("Neg", ["x"], ["e1"])]
    return model(
        [node("Mul", ["x", "w"], ["s"]),
         node("ReduceSum", ["x"], ["sum"], keepdims=0),
         node("Greater", ["sum", "zero"], ["c"]),
         node("If", ["c"], ["y0", "y1"], name="if",
              **if_branches(then_nodes, [vi("t0", [4]), vi("t1", [4])],
                            else_nodes, [vi("e0", [4]), vi("e1", [4])]))],
        [vi("x", [4])], [vi("y0", [4]), vi("y1", [4])],
        [weight("w", [4], 1), numpy_helper.from_array(np.array(0, np.float32), "zero")])


@register
def loop_counter_scan():
    # A constant trip count, a condition that is true and passed on unchanged (dropped: the loop
    # runs exactly M times), a carried tensor updated from the iteration number and a captured
    # graph input, and two scan outputs.
    body = graph("body", [
        node("Cast", ["i"], ["fi"], to=F),
        node("Mul", ["y_in", "half"], ["h"]),
        node("Add", ["h", "fi"], ["g"]),
        node("Add", ["g", "x"], ["y_out"]),
        node("Identity", ["c_in"], ["c_out"]),
        node("Identity", ["y_out"], ["y_scan"]),
        node("Mul", ["y_out", "y_out"], ["sq"]),
    ], [vi("i", [], I64), vi("c_in", [], BOOL), vi("y_in", [3])],
        [vi("c_out", [], BOOL), vi("y_out", [3]), vi("y_scan", [3]), vi("sq", [3])],
        [numpy_helper.from_array(np.array(0.5, np.float32), "half")])
    return model(
        [node("Loop", ["m", "true", "y0"], ["y", "ys", "sqs"], name="loop", body=body)],
        [vi("x", [3]), vi("y0", [3])], [vi("y", [3]), vi("ys", [4, 3]), vi("sqs", [4, 3])],
        [scalar_i64("m", 4), scalar_bool("true", True)])


@register
def loop_while():
    # A condition computed in the body ends the loop before its trip count (scf.while): sum grows
    # by |x| + 0.25 per iteration until its total passes the limit; the count is carried too.
    body = graph("body", [
        node("Abs", ["x"], ["ax"]),
        node("Add", ["ax", "quarter"], ["step"]),
        node("Add", ["s_in", "step"], ["s_out"]),
        node("Add", ["n_in", "one"], ["n_out"]),
        node("ReduceSum", ["s_out"], ["total"], keepdims=0),
        node("Less", ["total", "limit"], ["c_out"]),
    ], [vi("i", [], I64), vi("c_in", [], BOOL), vi("s_in", [3]), vi("n_in", [], I64)],
        [vi("c_out", [], BOOL), vi("s_out", [3]), vi("n_out", [], I64)],
        [scalar_i64("one", 1), numpy_helper.from_array(np.array(0.25, np.float32), "quarter")])
    return model(
        [node("Loop", ["m", "c0", "s0", "n0"], ["s", "n"], name="loop", body=body)],
        [vi("x", [3]), vi("c0", [], BOOL), vi("s0", [3]), vi("limit", [])],
        [vi("s", [3]), vi("n", [], I64)],
        [scalar_i64("m", 50), scalar_i64("n0", 0)])


@register
def scan_state():
    # Scan over axis 1 of x [2, 5, 3] and, read backwards, over axis 0 of z [5, 3]; the state h
    # [2, 3] goes through a matmul with a weight of the outer graph; the outputs are stacked along
    # axis 1 and, in reverse, along axis 0.
    body = graph("body", [
        node("MatMul", ["h_in", "w"], ["hw"]),
        node("Add", ["hw", "x_t"], ["pre"]),
        node("Tanh", ["pre"], ["h_out"]),
        node("Identity", ["h_out"], ["o1"]),
        node("Add", ["h_out", "z_t"], ["o2"]),
    ], [vi("h_in", [2, 3]), vi("x_t", [2, 3]), vi("z_t", [3])],
        [vi("h_out", [2, 3]), vi("o1", [2, 3]), vi("o2", [2, 3])])
    return model(
        [node("Scan", ["h0", "x", "z"], ["h", "ys", "zs"], name="scan", body=body,
              num_scan_inputs=2, scan_input_axes=[1, 0], scan_input_directions=[0, 1],
              scan_output_axes=[1, -3], scan_output_directions=[0, 1])],
        [vi("h0", [2, 3]), vi("x", [2, 5, 3]), vi("z", [5, 3])],
        [vi("h", [2, 3]), vi("ys", [2, 5, 3]), vi("zs", [5, 2, 3])],
        [weight("w", [3, 3], 2)], opset=11)


@register
def loop_in_if():
    # Nesting: the then branch runs a Loop whose body reads x, a value two graphs out; the else
    # branch computes the same shapes directly.
    body = graph("body", [
        node("Mul", ["a_in", "x"], ["p"]),
        node("Add", ["p", "b"], ["a_out"]),
        node("Identity", ["a_out"], ["a_scan"]),
        node("Identity", ["c_in"], ["c_out"]),
    ], [vi("i", [], I64), vi("c_in", [], BOOL), vi("a_in", [4])],
        [vi("c_out", [], BOOL), vi("a_out", [4]), vi("a_scan", [4])])
    then_nodes = [node("Loop", ["m", "", "x"], ["l", "ls"], name="inner_loop", body=body)]
    else_nodes = [node("Neg", ["x"], ["nx"]),
                  node("Expand", ["nx", "shape"], ["nxs"])]
    return model(
        [node("ReduceMax", ["x"], ["mx"], keepdims=0),
         node("Greater", ["mx", "zero"], ["c"]),
         node("If", ["c"], ["y", "ys"], name="if",
              **if_branches(then_nodes, [vi("l", [4]), vi("ls", [3, 4])],
                            else_nodes, [vi("nx", [4]), vi("nxs", [3, 4])]))],
        [vi("x", [4])], [vi("y", [4]), vi("ys", [3, 4])],
        [scalar_i64("m", 3), weight("b", [4], 3),
         numpy_helper.from_array(np.array(0, np.float32), "zero"),
         numpy_helper.from_array(np.array([3, 4], np.int64), "shape")])


# Error cases: what would need a shape decided at run time is reported at the node.

@register
def if_shape_mismatch():
    then_nodes = [node("Identity", ["x"], ["t"])]
    else_nodes = [node("Concat", ["x", "x"], ["e"], axis=0)]
    return model(
        [node("If", ["c"], ["y"], name="if",
              **if_branches(then_nodes, [vi("t", None)], else_nodes, [vi("e", None)]))],
        [vi("c", [], BOOL), vi("x", [4])], [vi("y", None)])


@register
def if_known_cond():
    # A constant condition: only the then branch is imported, inline.
    then_nodes = [node("Relu", ["x"], ["t"])]
    else_nodes = [node("Concat", ["x", "x"], ["e"], axis=0)]
    return model(
        [node("If", ["c"], ["y"], name="if",
              **if_branches(then_nodes, [vi("t", None)], else_nodes, [vi("e", None)]))],
        [vi("x", [4])], [vi("y", None)], [scalar_bool("c", True)])


@register
def loop_carried_grows():
    body = graph("body", [
        node("Concat", ["a_in", "a_in"], ["a_out"], axis=0),
        node("Identity", ["c_in"], ["c_out"]),
    ], [vi("i", [], I64), vi("c_in", [], BOOL), vi("a_in", None)],
        [vi("c_out", [], BOOL), vi("a_out", None)])
    return model([node("Loop", ["m", "", "x"], ["y"], name="loop", body=body)],
                 [vi("x", [2])], [vi("y", None)], [scalar_i64("m", 3)])


@register
def loop_scan_runtime_trip():
    # Scan outputs with the trip count a graph input: their length is not known at compile time.
    body = graph("body", [
        node("Identity", ["c_in"], ["c_out"]),
        node("Identity", ["a_in"], ["a_out"]),
        node("Identity", ["a_in"], ["a_scan"]),
    ], [vi("i", [], I64), vi("c_in", [], BOOL), vi("a_in", [2])],
        [vi("c_out", [], BOOL), vi("a_out", [2]), vi("a_scan", [2])])
    return model([node("Loop", ["m", "", "x"], ["y", "ys"], name="loop", body=body)],
                 [vi("m", [], I64), vi("x", [2])], [vi("y", None), vi("ys", None)])


@register
def loop_scan_early_exit():
    # Scan outputs of a loop whose condition is computed: as many rows as iterations, known only
    # at run time.
    body = graph("body", [
        node("ReduceSum", ["a_in"], ["t"], keepdims=0),
        node("Less", ["t", "limit"], ["c_out"]),
        node("Add", ["a_in", "a_in"], ["a_out"]),
        node("Identity", ["a_out"], ["a_scan"]),
    ], [vi("i", [], I64), vi("c_in", [], BOOL), vi("a_in", [2])],
        [vi("c_out", [], BOOL), vi("a_out", [2]), vi("a_scan", [2])],
        [numpy_helper.from_array(np.array(10, np.float32), "limit")])
    return model([node("Loop", ["m", "c", "x"], ["y", "ys"], name="loop", body=body)],
                 [vi("x", [2])], [vi("y", None), vi("ys", None)],
                 [scalar_i64("m", 5), scalar_bool("c", True)])


def pass_on_body():
    # A body that passes its condition on unchanged and scans its state.
    return graph("body", [
        node("Identity", ["c_in"], ["c_out"]),
        node("Add", ["a_in", "a_in"], ["a_out"]),
        node("Identity", ["a_out"], ["a_scan"]),
    ], [vi("i", [], I64), vi("c_in", [], BOOL), vi("a_in", [2])],
        [vi("c_out", [], BOOL), vi("a_out", [2]), vi("a_scan", [2])])


@register
def loop_scan_runtime_cond():
    # The initial condition, passed on unchanged, decides between M iterations and none: a
    # shape-determining input (test_loop11 of ONNX's backend tests).
    return model([node("Loop", ["m", "c", "x"], ["y", "ys"], name="loop", body=pass_on_body())],
                 [vi("c", [], BOOL), vi("x", [2])], [vi("y", None), vi("ys", None)],
                 [scalar_i64("m", 5)])


@register
def loop_scan_never():
    # A condition false from the start: no iteration, empty scan outputs.
    return model([node("Loop", ["m", "c", "x"], ["y", "ys"], name="loop", body=pass_on_body())],
                 [vi("x", [2])], [vi("y", None), vi("ys", None)],
                 [scalar_i64("m", 5), scalar_bool("c", False)])


if __name__ == "__main__":
    register.main()
