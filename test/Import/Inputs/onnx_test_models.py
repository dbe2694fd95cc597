"""What the importer tests' model generators share: value infos, a model of one graph, and a registry
of named model builders with the generators' command line (`NAME OUT.onnx`).

Used by make_quant_models.py and make_recurrent_models.py; built with onnx.helper, no model passed
through onnx.checker (some are invalid on purpose).
"""
import sys

from onnx import TensorProto, helper


def vi(name, shape, dtype=TensorProto.FLOAT):
    return helper.make_tensor_value_info(name, dtype, shape)


def model(nodes, inputs, outputs, inits=(), opset=13):
    graph = helper.make_graph(nodes, "test", inputs, outputs, initializer=list(inits))
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)],
                          producer_name="mie-tests")
    m.ir_version = 8
    return m


class Registry:
    """`@registry` records a builder under its function name; `registry.main()` writes the model
    named by argv[1] to argv[2]."""

    def __init__(self):
        self.models = {}

    def __call__(self, fn):
        self.models[fn.__name__] = fn
        return fn

    def main(self):
        if len(sys.argv) != 3 or sys.argv[1] not in self.models:
            sys.exit(f"usage: {sys.argv[0]} NAME OUT.onnx\n  names: {' '.join(sorted(self.models))}")
        with open(sys.argv[2], "wb") as f:
            f.write(self.models[sys.argv[1]]().SerializeToString())
