"""A QDQ-quantized copy of a zoo model, and how mie's output compares with onnxruntime's.

Usage (the benchmark venv, which has onnxruntime with its quantization tools):
  B/bin/python benchmarks/qdq_accuracy.py MODEL_DIR OUT_DIR [--per-channel] [--calibration 4]
      [--build build] [--target host]
MODEL_DIR holds model.onnx and input_0.npy (shared/models/export_zoo.py's layout). The model is
quantized with onnxruntime.quantization.quantize_static (QuantFormat.QDQ, uint8 activations, int8
weights, MinMax calibration on `--calibration` random normal inputs) into OUT_DIR/model.onnx, with
input_0.npy copied, so that OUT_DIR is a model directory for benchmarks/compare_peers.py. Then
mie-compile and mie-run (1 thread) run it on input_0.npy, and the output is compared with:
- onnxruntime's default session on the QDQ model (QLinearConv etc., integer kernels),
- onnxruntime with graph optimizations off (the QDQ graph as written: Q/DQ + float conv, as mie),
- onnxruntime on the float model,
printing the largest difference in output quantization steps (the last DequantizeLinear's scale),
the share of outputs that differ, and whether the top-1 class agrees. Not part of the test suite.
"""
import argparse
import os
import shutil
import subprocess
import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import numpy_helper
from onnxruntime.quantization import (CalibrationDataReader, QuantFormat, QuantType,
                                      quantize_static)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "benchmarks"))
from compare_peers import host_target  # noqa: E402

ort.set_default_logger_severity(3)  # not the unused-initializer warnings of quantized models


class Reader(CalibrationDataReader):
    def __init__(self, name, shape, count):
        rng = np.random.default_rng(0)
        self.data = iter([{name: rng.standard_normal(shape).astype(np.float32)}
                          for _ in range(count)])

    def get_next(self):
        return next(self.data, None)


def ort_run(path, feeds, optimize=True):
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    if not optimize:
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    return ort.InferenceSession(path, options, providers=["CPUExecutionProvider"]).run(None, feeds)[0]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("model_dir")
    parser.add_argument("out_dir")
    parser.add_argument("--per-channel", action="store_true")
    parser.add_argument("--calibration", type=int, default=4)
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--target", default="host")
    args = parser.parse_args()

    os.makedirs(args.out_dir, exist_ok=True)
    float_path = os.path.join(args.model_dir, "model.onnx")
    qdq_path = os.path.join(args.out_dir, "model.onnx")
    x = np.load(os.path.join(args.model_dir, "input_0.npy"))
    shutil.copy(os.path.join(args.model_dir, "input_0.npy"), args.out_dir)
    name = onnx.load(float_path, load_external_data=False).graph.input[0].name
    if not os.path.exists(qdq_path):
        quantize_static(float_path, qdq_path, Reader(name, x.shape, args.calibration),
                        quant_format=QuantFormat.QDQ, per_channel=args.per_channel,
                        activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8)
    model = onnx.load(qdq_path)
    out_name = model.graph.output[0].name
    last = next(n for n in model.graph.node if out_name in n.output)
    inits = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    step = float(inits[last.input[1]]) if last.op_type == "DequantizeLinear" else None

    package = os.path.join(args.out_dir, "model.mie")
    target = ["--target=" + (host_target() if args.target == "host" else args.target)]
    subprocess.run([os.path.join(args.build, "bin", "mie-compile"), qdq_path, "-o", package,
                    *target], check=True)
    out = os.path.join(args.out_dir, "mie_out.npy")
    subprocess.run([os.path.join(args.build, "bin", "mie-run"), package, "--threads", "1",
                    "--input", os.path.join(args.out_dir, "input_0.npy"), "--output", out],
                   check=True, stdout=subprocess.DEVNULL)
    got = np.load(out)
    refs = {"ort QDQ (integer kernels)": ort_run(qdq_path, {name: x}),
            "ort QDQ unoptimized": ort_run(qdq_path, {name: x}, optimize=False),
            "ort float model": ort_run(float_path, {name: x})}
    print(f"{os.path.basename(os.path.normpath(args.model_dir))} QDQ "
          f"({'per channel' if args.per_channel else 'per tensor'}), output step {step}")
    for label, ref in refs.items():
        diff = np.abs(got.astype(np.float64) - ref)
        steps = diff.max() / step if step else float("nan")
        print(f"  vs {label:28s} max |diff| {diff.max():.4g} ({steps:.1f} steps), "
              f"{(diff > 1e-6).mean() * 100:.2f}% of outputs differ, "
              f"top-1 {'agrees' if got.argmax() == ref.argmax() else 'DIFFERS'}, "
              f"cosine {float((got.ravel() @ ref.ravel()) / np.linalg.norm(got) / np.linalg.norm(ref)):.6f}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
