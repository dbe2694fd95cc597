"""Packs what scripts/gpu-check.sh needs on a GPU machine that has no LLVM/MLIR 22 and takes little data in
(the GPU machines lent to this project receive at most 64 MiB per call): the zoo models, the packages
compiled from them here (gpu_compare.py --compile-only), GoogleTest's sources for the runtime tests and any
extra wheels (onnx2torch for the PyTorch columns), all in one .tar.xz.

The zoo's weights are random and incompressible (resnet50 is 98 MB, bert_base 416 MB, and every package
holds them again), so `make` first rewrites each model's large float initializers to repeat along one axis
with a short period: the axis a weight is reduced over where that is known (axis 1 of a convolution filter
[F, C, kh, kw]; axis 0 of a MatMul B [K, N] and of a Gather table [V, D]), axis 0 otherwise. The values are
the model's own (the first `period` slices, tiled), the shapes, the graph and so the work of every kernel are
unchanged, and xz stores the repeats almost for free, in the ONNX file and in the packages alike. Latency does
not depend on the values; the accuracy columns compare our GPU result with onnxruntime and with our CPU
target on the same rewritten model. Small tensors (biases, normalization parameters) stay as they are.

Usage: gpu_bundle.py make --build DIR --out BUNDLE.tar.xz [--models a,b | NAME=MODEL.onnx ...]
                          [--models-dir DIR] [--period 8] [--target x86-64,cuda:sm_90] [--batches 1,32]
                          [--wheel FILE.whl]... [--gtest-source /usr/src/googletest]
       gpu_bundle.py unpack BUNDLE.tar.xz DIR
After `unpack`, DIR holds models/NAME/model.onnx (+ input_0.npy), packages/NAME_bBATCH.mie, googletest/,
wheels/ and gpu-check.args: the arguments for scripts/gpu-check.sh (--packages, --model..., --gtest-source).
"""
import argparse
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MIN_ELEMENTS = 1 << 16  # smaller initializers stay as they are


def repeat_axis(initializer_name, model):
    """The axis along which `initializer_name` is made periodic: the one its consumer reduces over."""
    for node in model.graph.node:
        if initializer_name not in node.input:
            continue
        position = list(node.input).index(initializer_name)
        if node.op_type in ("Conv", "ConvTranspose") and position == 1:
            return 1
        if node.op_type == "Gemm" and position == 1:
            trans_b = next((a.i for a in node.attribute if a.name == "transB"), 0)
            return 1 if trans_b else 0
        if node.op_type == "Gemm" and position == 0:
            trans_a = next((a.i for a in node.attribute if a.name == "transA"), 0)
            return 0 if trans_a else 1
    return 0


def make_periodic(model, period):
    """Rewrites the large float initializers of `model` in place; returns how many."""
    import numpy as np
    from onnx import numpy_helper
    count = 0
    for i, init in enumerate(model.graph.initializer):
        array = numpy_helper.to_array(init)
        if array.dtype.kind != "f" or array.size < MIN_ELEMENTS or array.ndim == 0:
            continue
        axis = min(repeat_axis(init.name, model), array.ndim - 1)
        extent = array.shape[axis]
        if extent <= period:
            continue
        base = np.take(array, range(period), axis=axis)
        reps = [1] * array.ndim
        reps[axis] = -(-extent // period)
        tiled = np.take(np.tile(base, reps), range(extent), axis=axis)
        model.graph.initializer[i].CopyFrom(numpy_helper.from_array(np.ascontiguousarray(tiled), init.name))
        count += 1
    return count


def make(args):
    import onnx
    work = tempfile.mkdtemp(prefix="gpu_bundle.")
    stage = os.path.join(work, "bundle")
    models_out = os.path.join(stage, "models")
    packages = os.path.join(stage, "packages")
    os.makedirs(models_out)
    os.makedirs(packages)
    specs = list(args.model)
    if args.models:
        specs += [f"{n}={os.path.join(args.models_dir, n, 'model.onnx')}" for n in args.models.split(",") if n]
    if not specs:
        sys.exit("gpu_bundle: no models (--models or NAME=MODEL.onnx)")
    model_args = []
    for spec in specs:
        name, sep, path = spec.partition("=")
        if not sep or not os.path.isfile(path):
            sys.exit(f"gpu_bundle: '{spec}' is not NAME=MODEL.onnx of an existing file")
        model = onnx.load(path)
        rewritten = make_periodic(model, args.period)
        folder = os.path.join(models_out, name)
        os.makedirs(folder)
        onnx.save(model, os.path.join(folder, "model.onnx"))
        saved_input = os.path.join(os.path.dirname(path), "input_0.npy")
        if os.path.exists(saved_input):
            shutil.copy(saved_input, folder)
        print(f"{name}: {rewritten} initializers made periodic (period {args.period})", flush=True)
        model_args.append(f"--model {name}=$BUNDLE/models/{name}/model.onnx")
    compile_cmd = [sys.executable, os.path.join(ROOT, "benchmarks", "gpu_compare.py"), "--build", args.build,
                   "--work", packages, "--target", args.target, "--batches", args.batches, "--compile-only",
                   *[f"{m.split('=', 1)[0]}={os.path.join(models_out, m.split('=', 1)[0], 'model.onnx')}"
                     for m in specs]]
    if subprocess.run(compile_cmd).returncode != 0:
        sys.exit("gpu_bundle: compiling the packages failed")
    for f in os.listdir(packages):  # only the packages travel (gpu_compare writes batched ONNX copies too)
        if not f.endswith(".mie"):
            os.remove(os.path.join(packages, f))
    if args.gtest_source:
        shutil.copytree(args.gtest_source, os.path.join(stage, "googletest"))
        model_args.append("--gtest-source $BUNDLE/googletest")
    if args.wheel:
        os.makedirs(os.path.join(stage, "wheels"))
        for w in args.wheel:
            shutil.copy(w, os.path.join(stage, "wheels"))
    model_args.append("--packages $BUNDLE/packages")
    with open(os.path.join(stage, "gpu-check.args"), "w") as f:
        f.write(" ".join(model_args) + "\n")
    tmp_out = args.out + ".tmp"
    with tarfile.open(tmp_out, "w:xz", preset=6) as tar:
        tar.add(stage, arcname=".")
    os.replace(tmp_out, args.out)
    shutil.rmtree(work)
    print(f"wrote {args.out} ({os.path.getsize(args.out) / 2**20:.1f} MiB)")


def unpack(args):
    os.makedirs(args.dir, exist_ok=True)
    with tarfile.open(args.bundle, "r:xz") as tar:
        tar.extractall(args.dir, filter="data") if hasattr(tarfile, "data_filter") else tar.extractall(args.dir)
    path = os.path.join(args.dir, "gpu-check.args")
    with open(path) as f:
        text = f.read().replace("$BUNDLE", os.path.abspath(args.dir))
    with open(path, "w") as f:
        f.write(text)
    print(text.strip())


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    m = sub.add_parser("make")
    m.add_argument("model", nargs="*", help="NAME=MODEL.onnx")
    m.add_argument("--build", required=True, help="the build directory with bin/mie-compile")
    m.add_argument("--out", required=True)
    m.add_argument("--models", help="zoo model names, read from --models-dir/NAME/model.onnx")
    m.add_argument("--models-dir", default=os.path.expanduser("~/.cache/mie-models"))
    m.add_argument("--period", type=int, default=8)
    m.add_argument("--target", default="x86-64,cuda:sm_90")
    m.add_argument("--batches", default="1,32")
    m.add_argument("--wheel", action="append", default=[])
    m.add_argument("--gtest-source", help="GoogleTest's sources (the runtime tests build them)")
    u = sub.add_parser("unpack")
    u.add_argument("bundle")
    u.add_argument("dir")
    args = parser.parse_args()
    make(args) if args.command == "make" else unpack(args)


if __name__ == "__main__":
    main()
