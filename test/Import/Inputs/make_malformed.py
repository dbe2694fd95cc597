#!/usr/bin/env python3
"""Writes the malformed-input corpus of malformed-models.test: models (and files next to them) that
mie-compile must reject with one clear diagnostic, exit code 1, and no output written.

    make_malformed.py OUT_DIR

Writes OUT_DIR/<case>.onnx for every case below, plus what some cases need beside the model:
external data files, a FIFO, symlinks (to a file outside OUT_DIR/ext, to /dev/zero), a directory.
Everything is built from fixed bytes or a seeded generator, so every run writes the same corpus.
Nothing is passed through onnx.checker: the models are invalid on purpose.
"""

import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

F = TensorProto.FLOAT
I64 = TensorProto.INT64
node = helper.make_node


def vi(name, shape, dtype=F):
    return helper.make_tensor_value_info(name, dtype, shape)


def ints(name, values):
    return numpy_helper.from_array(np.array(values, np.int64), name)


def floats(name, values):
    return numpy_helper.from_array(np.array(values, np.float32), name)


def model(nodes, inputs, outputs, inits=(), opset=13):
    graph = helper.make_graph(nodes, "malformed", inputs, outputs, initializer=list(inits))
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)],
                          producer_name="mie-tests")
    m.ir_version = 8
    return m


def identity_of(tensor):
    """A graph whose output is the initializer `tensor`."""
    return model([node("Identity", [tensor.name], ["y"], name="id")], [], [vi("y", None)], [tensor])


def external(name, dims, location, offset=None, length=None):
    """A float initializer whose data is in the file `location` (relative to the model)."""
    t = TensorProto(name=name, data_type=F, dims=dims)
    t.data_location = TensorProto.EXTERNAL
    for key, value in (("location", location), ("offset", offset), ("length", length)):
        if value is not None:
            entry = t.external_data.add()
            entry.key, entry.value = key, str(value)
    return t


def relu_model():
    """A valid small model: the base that the limit flags refuse."""
    rng = np.random.default_rng(3)
    return model([node("MatMul", ["x", "w"], ["y"], name="mm")], [vi("x", [2, 4])],
                 [vi("y", None)], [floats("w", rng.standard_normal((4, 8)))])


CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


# --- Sizes from the input: limits checked before anything is allocated ------------------------------

@case
def huge_initializer_raw():
    """4 bytes of raw_data declaring 2^39 floats (a 2 TiB tensor in a tiny file)."""
    return identity_of(TensorProto(name="w", data_type=F, dims=[1 << 20, 1 << 19], raw_data=b"\0" * 4))


@case
def huge_initializer_dims_overflow():
    """Dims whose product overflows int64 (2^62 * 8)."""
    return identity_of(TensorProto(name="w", data_type=F, dims=[1 << 62, 8], raw_data=b"\0" * 4))


@case
def empty_with_huge_dims():
    """No elements (a 0 dim), but dims whose product overflows int64."""
    return identity_of(TensorProto(name="w", data_type=F, dims=[1 << 62, 1 << 62, 0]))


@case
def negative_dim_initializer():
    return identity_of(TensorProto(name="w", data_type=F, dims=[4, -2], raw_data=b"\0" * 32))


@case
def huge_constant_of_shape():
    """A ConstantOfShape to 2^39 floats: refused at its node, nothing of that size built."""
    return model([node("ConstantOfShape", ["shape"], ["y"], name="fill")], [], [vi("y", None)],
                 [ints("shape", [1 << 20, 1 << 19])])


@case
def huge_expand():
    return model([node("Expand", ["x", "shape"], ["y"], name="expand")], [vi("x", [1])],
                 [vi("y", None)], [ints("shape", [1 << 20, 1 << 20])])


@case
def huge_input_dims():
    """A graph input of 2^37 bytes: within the element-count sanity bound, beyond 16 GiB."""
    return model([node("Relu", ["x"], ["y"], name="relu")], [vi("x", [1 << 20, 1 << 15])],
                 [vi("y", None)])


@case
def absurd_input_dims():
    return model([node("Relu", ["x"], ["y"], name="relu")], [vi("x", [1 << 40, 1 << 40, 1 << 40])],
                 [vi("y", None)])


@case
def limited_tensor():
    """Valid; refused with --max-tensor-bytes=64 (its weight has 128 bytes)."""
    return relu_model()


# --- External data ------------------------------------------------------------------------------------

@case
def ext_symlink_outside():
    """The location is a symlink inside the model's folder to a file outside it."""
    return identity_of(external("w", [4], "leak.bin"))


@case
def ext_symlink_dev_zero():
    return identity_of(external("w", [4], "zero.bin"))


@case
def ext_fifo():
    return identity_of(external("w", [4], "fifo.bin"))


@case
def ext_directory():
    return identity_of(external("w", [4], "subdir"))


@case
def ext_absolute():
    return identity_of(external("w", [4], "/etc/passwd"))


@case
def ext_dotdot():
    return identity_of(external("w", [4], "../outside/secret.bin"))


@case
def ext_missing():
    return identity_of(external("w", [4], "missing.bin"))


@case
def ext_too_short():
    """16 bytes wanted at offset 8 of a 16-byte file."""
    return identity_of(external("w", [4], "w16.bin", offset=8, length=16))


@case
def ext_offset_past_end():
    return identity_of(external("w", [4], "w16.bin", offset=64))


@case
def ext_wrong_length():
    """The whole 16-byte file for a tensor of 8 floats."""
    return identity_of(external("w", [8], "w16.bin"))


@case
def ext_huge_declared():
    """2^39 floats declared, 16 bytes in the file: refused before anything is allocated."""
    return identity_of(external("w", [1 << 20, 1 << 19], "w16.bin"))


@case
def ext_bad_offset():
    return identity_of(external("w", [4], "w16.bin", offset="-8"))


@case
def ext_symlink_inside():
    """Valid: a symlink to a file in the model's folder is followed."""
    return identity_of(external("w", [4], "inside.bin"))


@case
def ext_over_model_limit():
    """Valid (4 KiB of external data); refused with --max-model-bytes=2048."""
    return identity_of(external("w", [1024], "w4k.bin"))


# --- Not models ---------------------------------------------------------------------------------------

def truncated():
    data = relu_model().SerializeToString()
    return data[: len(data) // 2]


def random_bytes():
    return bytes(np.random.default_rng(13).integers(0, 256, 512, dtype=np.uint8))


def empty():
    return b""


RAW = {"truncated": truncated, "random_bytes": random_bytes, "empty": empty}


# --- Invalid graphs -----------------------------------------------------------------------------------

@case
def attr_float_for_int():
    return model([node("Softmax", ["x"], ["y"], name="softmax", axis=1.5)], [vi("x", [2, 3])],
                 [vi("y", None)])


@case
def attr_string_for_ints():
    return model([node("Transpose", ["x"], ["y"], name="transpose", perm="1,0")],
                 [vi("x", [2, 3])], [vi("y", None)])


@case
def attr_tensor_for_int():
    return model([node("Gather", ["x", "i"], ["y"], name="gather", axis=floats("a", [1.0]))],
                 [vi("x", [2, 3])], [vi("y", None)], [ints("i", [0])])


@case
def dangling_input():
    return model([node("Relu", ["nowhere"], ["y"], name="relu")], [vi("x", [4])], [vi("y", None)])


@case
def dangling_output():
    return model([node("Relu", ["x"], ["r"], name="relu")], [vi("x", [4])], [vi("y", None)])


@case
def cycle():
    return model([node("Relu", ["b"], ["a"], name="relu_a"), node("Relu", ["a"], ["b"], name="relu_b")],
                 [vi("x", [4])], [vi("b", None)])


@case
def defined_twice():
    return model([node("Relu", ["x"], ["y"], name="relu1"), node("Neg", ["x"], ["y"], name="neg1")],
                 [vi("x", [4])], [vi("y", None)])


@case
def duplicate_initializer():
    return model([node("Add", ["x", "w"], ["y"], name="add")], [vi("x", [2])], [vi("y", None)],
                 [floats("w", [1, 2]), floats("w", [3, 4])])


@case
def shape_mismatch_add():
    return model([node("Add", ["a", "b"], ["y"], name="add")], [vi("a", [2, 3]), vi("b", [4, 5])],
                 [vi("y", None)])


@case
def einsum_failed_diagonal():
    """A repeated label over dims of different sizes in the second operand: its diagonal cannot be
    built, and the contraction after it must not run on the missing value (found by
    fuzz_onnx_import: a null value dereferenced)."""
    return model([node("Einsum", ["q", "k"], ["y"], name="attn", equation="bhid,bhjj->bhij")],
                 [vi("q", [1, 2, 5, 4]), vi("k", [1, 2, 4, 5])], [vi("y", None)])


@case
def split_sizes_overflow():
    """Split sizes whose sum overflows int64 (found by fuzz_onnx_import)."""
    big = 2**62
    return model([node("Split", ["x", "s"], ["a", "b", "c"], name="split", axis=0)],
                 [vi("x", [4])], [vi("a", None), vi("b", None), vi("c", None)],
                 [ints("s", [big, big, 4 - 2 * big])])


@case
def tile_overflow():
    """Tile repeats whose product with the dim overflows int64 (found by fuzz_onnx_import)."""
    return model([node("Tile", ["x", "r"], ["y"], name="tile")], [vi("x", [4])], [vi("y", None)],
                 [ints("r", [2**62])])


@case
def upsample_scale_overflow():
    """Upsample scales whose product with the dim is beyond int64 (found by fuzz_onnx_import)."""
    return model([node("Upsample", ["x", "s"], ["y"], name="up")], [vi("x", [1, 1, 2, 2])],
                 [vi("y", None)], [floats("s", [1.0, 1.0, 1e33, 1.0])], opset=9)


@case
def range_overflow():
    """A Range whose element count is beyond int64 (start 0, limit 1e30, delta 1)."""
    return model([node("Range", ["s", "l", "d"], ["y"], name="range")], [], [vi("y", None)],
                 [numpy_helper.from_array(np.array(v, np.float32), n)
                  for n, v in (("s", 0.0), ("l", 1e30), ("d", 1.0))])


@case
def slice_without_ends():
    """A Slice (opset 13) given only its data and starts: found by fuzzing, once read past the
    node's inputs."""
    return model([node("Slice", ["x", "s"], ["y"], name="slice")], [vi("x", [4])], [vi("y", None)],
                 [ints("s", [1])])


@case
def shape_mismatch_matmul():
    return model([node("MatMul", ["a", "b"], ["y"], name="mm")], [vi("a", [2, 3]), vi("b", [4, 5])],
                 [vi("y", None)])


@case
def reshape_wrong_count():
    return model([node("Reshape", ["x", "shape"], ["y"], name="reshape")], [vi("x", [2, 3])],
                 [vi("y", None)], [ints("shape", [4, 2])])


@case
def concat_rank_mismatch():
    return model([node("Concat", ["a", "b"], ["y"], name="concat", axis=0)],
                 [vi("a", [2, 3]), vi("b", [2, 3, 1])], [vi("y", None)])


@case
def string_initializer():
    t = helper.make_tensor("w", TensorProto.STRING, [1], [b"text"])
    return identity_of(t)


@case
def input_without_type():
    graph = helper.make_graph([node("Relu", ["x"], ["y"], name="relu")], "malformed",
                              [onnx.ValueInfoProto(name="x")], [vi("y", None)])
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    m.ir_version = 8
    return m


def setup_files(out):
    """The files that the external-data cases point at, and a FIFO as a model."""
    ext = out
    with open(os.path.join(ext, "w16.bin"), "wb") as f:
        f.write(np.arange(4, dtype=np.float32).tobytes())
    with open(os.path.join(ext, "w4k.bin"), "wb") as f:
        f.write(np.zeros(1024, np.float32).tobytes())
    outside = os.path.join(os.path.dirname(os.path.abspath(out)), "outside")
    os.makedirs(outside, exist_ok=True)
    with open(os.path.join(outside, "secret.bin"), "wb") as f:
        f.write(b"secret!!" * 2)
    os.symlink(os.path.join(outside, "secret.bin"), os.path.join(ext, "leak.bin"))
    os.symlink("/dev/zero", os.path.join(ext, "zero.bin"))
    os.symlink("w16.bin", os.path.join(ext, "inside.bin"))
    os.mkfifo(os.path.join(ext, "fifo.bin"))
    os.mkfifo(os.path.join(ext, "fifo.onnx"))
    os.makedirs(os.path.join(ext, "subdir"))


def main():
    if len(sys.argv) != 2:
        sys.exit(f"usage: {sys.argv[0]} OUT_DIR")
    out = sys.argv[1]
    os.makedirs(out)
    for name, build in CASES.items():
        with open(os.path.join(out, name + ".onnx"), "wb") as f:
            f.write(build().SerializeToString())
    for name, build in RAW.items():
        with open(os.path.join(out, name + ".onnx"), "wb") as f:
            f.write(build())
    setup_files(out)


if __name__ == "__main__":
    main()
