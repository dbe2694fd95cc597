"""Per-call overhead of mie's Session.run from Python next to onnxruntime's InferenceSession.run, and
what zero-copy inputs save.

    python benchmarks/python_overhead.py [--calls 2000] [--repeats 15] [--ctypes-bindings DIR]

Two models, both compiled here for one x86-64 target and run with one thread:
  tiny:   Add of two [1, 16] float32 inputs: the run itself is a few nanoseconds, so the time per call
          is the binding's overhead (argument checks, output allocation, GIL release).
  reduce: ReduceMean over a [1024, 4096] float32 input (16 MiB): run with a C-contiguous input, which
          is read in place, and with a strided view of the same values, which must be copied first.
  relu:   Relu of the same input (16 MiB out): into a new array per run, and into the caller's array
          (outputs=), which saves the allocation and the first-touch page faults.
Each configuration runs `--calls` calls per block; blocks of all configurations are interleaved
`--repeats` times, so drift on a shared machine hits them alike; the median over blocks of the mean
time per call is printed in microseconds. `--ctypes-bindings DIR` also times the former ctypes
bindings (a python-bindings directory holding them, with MIE_BUILD_DIR pointing at a build with
libmie_rt.so), loaded under another module name.
"""
import argparse
import importlib.util
import os
import statistics
import sys
import tempfile
import time

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python-bindings"))
import mie  # noqa: E402


def save(graph, path):
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8  # what every onnxruntime reads
    onnx.save(model, path)


def tiny_model(path):
    graph = helper.make_graph(
        [helper.make_node("Add", ["a", "b"], ["y"])], "tiny",
        [helper.make_tensor_value_info("a", TensorProto.FLOAT, [1, 16]),
         helper.make_tensor_value_info("b", TensorProto.FLOAT, [1, 16])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 16])])
    save(graph, path)


def reduce_model(path):
    graph = helper.make_graph(
        [helper.make_node("ReduceMean", ["x"], ["y"], axes=[1], keepdims=0)], "reduce",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1024, 4096])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1024])])
    save(graph, path)


def relu_model(path):
    graph = helper.make_graph(
        [helper.make_node("Relu", ["x"], ["y"])], "relu",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1024, 4096])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1024, 4096])])
    save(graph, path)


def ort_session(path):
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    return ort.InferenceSession(path, options, providers=["CPUExecutionProvider"])


def load_ctypes_bindings(directory):
    spec = importlib.util.spec_from_file_location("mie_ctypes", os.path.join(directory, "mie", "__init__.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument("--ctypes-bindings", help="a python-bindings directory with the ctypes mie")
    args = parser.parse_args()

    work = tempfile.mkdtemp(prefix="mie-overhead-")
    tiny, reduce = os.path.join(work, "tiny.onnx"), os.path.join(work, "reduce.onnx")
    relu = os.path.join(work, "relu.onnx")
    tiny_model(tiny)
    reduce_model(reduce)
    relu_model(relu)
    tiny_mie = mie.compile(tiny, os.path.join(work, "tiny.mie"), target="x86-64")
    reduce_mie = mie.compile(reduce, os.path.join(work, "reduce.mie"), target="x86-64")
    relu_mie = mie.compile(relu, os.path.join(work, "relu.mie"), target="x86-64")

    a = np.random.rand(1, 16).astype(np.float32)
    b = np.random.rand(1, 16).astype(np.float32)
    x = np.random.rand(1024, 4096).astype(np.float32)
    wide = np.empty((1024, 8192), np.float32)
    wide[:, ::2] = x
    strided = wide[:, ::2]  # the same values, not contiguous: copied before the run

    s_tiny, s_reduce = mie.load(tiny_mie, threads=1), mie.load(reduce_mie, threads=1)
    o_tiny, o_reduce = ort_session(tiny), ort_session(reduce)
    s_relu, o_relu = mie.load(relu_mie, threads=1), ort_session(relu)
    relu_out = np.empty((1024, 4096), np.float32)
    out = np.empty((1, 16), np.float32)
    np.testing.assert_allclose(s_tiny.run({"a": a, "b": b})["y"], o_tiny.run(None, {"a": a, "b": b})[0])
    np.testing.assert_allclose(s_reduce.run({"x": x})["y"], o_reduce.run(None, {"x": x})[0], rtol=1e-5)
    np.testing.assert_allclose(s_reduce.run({"x": strided})["y"], o_reduce.run(None, {"x": x})[0], rtol=1e-5)

    configs = {
        "tiny  mie run(dict)": lambda: s_tiny.run({"a": a, "b": b}),
        "tiny  mie run(list)": lambda: s_tiny.run([a, b]),
        "tiny  mie run(outputs=)": lambda: s_tiny.run({"a": a, "b": b}, outputs={"y": out}),
        "tiny  onnxruntime run": lambda: o_tiny.run(None, {"a": a, "b": b}),
        "tiny  onnxruntime run(output_names)": lambda: o_tiny.run(["y"], {"a": a, "b": b}),
    }
    if args.ctypes_bindings:
        old = load_ctypes_bindings(args.ctypes_bindings)
        s_old = old.load(tiny_mie, threads=1)
        configs["tiny  mie ctypes (before)"] = lambda: s_old.run({"a": a, "b": b})
    # Fewer calls for the 16 MiB input: each is milliseconds, not microseconds.
    heavy = {
        "reduce mie, contiguous (zero-copy)": lambda: s_reduce.run({"x": x}),
        "reduce mie, strided view (copied)": lambda: s_reduce.run({"x": strided}),
        "reduce onnxruntime, contiguous": lambda: o_reduce.run(None, {"x": x}),
        "relu mie, new output array": lambda: s_relu.run({"x": x}),
        "relu mie, outputs= (caller's array)": lambda: s_relu.run({"x": x}, outputs={"y": relu_out}),
        "relu onnxruntime": lambda: o_relu.run(None, {"x": x}),
    }

    def block(fn, calls):
        for _ in range(min(calls, 50)):
            fn()
        start = time.perf_counter()
        for _ in range(calls):
            fn()
        return (time.perf_counter() - start) / calls * 1e6

    times = {name: [] for name in list(configs) + list(heavy)}
    for _ in range(args.repeats):
        for name, fn in configs.items():
            times[name].append(block(fn, args.calls))
        for name, fn in heavy.items():
            times[name].append(block(fn, max(args.calls // 100, 5)))
    print(f"numpy {np.__version__}, onnxruntime {ort.__version__}, mie {mie.__version__}; "
          f"median of {args.repeats} interleaved blocks, microseconds per call")
    for name, values in times.items():
        print(f"  {name:40s} {statistics.median(values):10.2f}   (min {min(values):.2f})")


if __name__ == "__main__":
    main()
