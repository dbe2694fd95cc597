"""Builds the If / Loop / Scan models of control-flow.test, their inputs and onnxruntime's outputs.

Usage: make_control_flow.py OUT_DIR [VARIANT...]   (all variants when none is named)
The models are those of test/Import/Inputs/make_control_flow_models.py; a variant is a model and
its inputs (each If model runs once with a true and once with a false condition). Same layout as
make_ops.py: OUT_DIR/variants, and per variant model.onnx, input_K.npy, reference_K.npy, compile,
run_args, outputs, tol.
"""
import os
import sys

import numpy as np
import onnxruntime as ort

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Import",
                                "Inputs"))
from make_control_flow_models import register  # noqa: E402


def normal(shape, seed):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


def variants():
    x_pos = np.array([0.5, -0.25, 1.5, 0.75], np.float32)
    return {
        # sum(x) > 0 and sum(x) <= 0: both branches.
        "if_true": ("if_computed", {"x": x_pos}),
        "if_false": ("if_computed", {"x": -x_pos}),
        "loop_counter_scan": ("loop_counter_scan", {"x": normal([3], 1), "y0": normal([3], 2)}),
        # Ends on its condition after a few iterations (well before M = 50), and once right away.
        "loop_while": ("loop_while", {"x": normal([3], 3), "c0": np.array(True),
                                      "s0": normal([3], 4), "limit": np.array(25, np.float32)}),
        "loop_while_not_entered": ("loop_while", {"x": normal([3], 3), "c0": np.array(False),
                                                  "s0": normal([3], 4),
                                                  "limit": np.array(9, np.float32)}),
        "scan_state": ("scan_state", {"h0": normal([2, 3], 5), "x": normal([2, 5, 3], 6),
                                      "z": normal([5, 3], 7)}),
        # max(x) > 0 runs the inner loop; the negative x takes the other branch.
        "loop_in_if": ("loop_in_if", {"x": x_pos}),
        "loop_in_if_else": ("loop_in_if", {"x": -np.abs(x_pos)}),
    }


def build(name, model_name, inputs, out_dir):
    d = os.path.join(out_dir, name)
    os.makedirs(d, exist_ok=True)
    path = os.path.join(d, "model.onnx")
    with open(path, "wb") as f:
        f.write(register.models[model_name]().SerializeToString())
    session = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
    results = session.run(None, inputs)
    args = []
    for k, (key, a) in enumerate(inputs.items()):
        np.save(os.path.join(d, f"input_{k}.npy"), a)
        args.append(f"--input {key}={os.path.join(d, f'input_{k}.npy')}")
    for k, r in enumerate(results):
        np.save(os.path.join(d, f"reference_{k}.npy"), r)
        args.append(f"--output {os.path.join(d, f'out_{k}.npy')}")
    files = {"compile": "model.onnx", "run_args": " ".join(args),
             "outputs": " ".join(str(k) for k in range(len(results))),
             "tol": "--rtol 1e-5 --atol 1e-6"}
    for fname, text in files.items():
        with open(os.path.join(d, fname), "w") as f:
            f.write(text + "\n")


def main():
    out_dir, names = sys.argv[1], sys.argv[2:]
    all_variants = variants()
    names = names or list(all_variants)
    os.makedirs(out_dir, exist_ok=True)
    for name in names:
        build(name, *all_variants[name], out_dir)
    with open(os.path.join(out_dir, "variants"), "w") as f:
        f.write("\n".join(names) + "\n")


if __name__ == "__main__":
    main()
