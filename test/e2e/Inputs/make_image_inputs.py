#!/usr/bin/env python3
"""Writes what test/e2e/image-decoder.test runs: an ImageDecoder model whose input takes up to 4096
encoded bytes (an image shorter than that is padded with zeros, which every format ignores after
its end) and decodes a 40x30 RGB image, a PNG of that size with Pillow's decoding as the
reference, a JPEG of another size and bytes of no known format.

    make_image_inputs.py OUT_DIR
"""
import io
import os
import sys

import numpy as np
from onnx import TensorProto, helper
from PIL import Image

MAX_BYTES, WIDTH, HEIGHT = 4096, 40, 30
out = sys.argv[1]


def padded(data):
    assert len(data) <= MAX_BYTES
    return np.frombuffer(data.ljust(MAX_BYTES, b"\0"), np.uint8)


def encode(image, fmt):
    buffer = io.BytesIO()
    image.save(buffer, format=fmt)
    return buffer.getvalue()


y, x = np.mgrid[0:HEIGHT, 0:WIDTH]
pixels = np.stack([x * 6, y * 8, (x + y) * 3], axis=-1).astype(np.uint8)
png = encode(Image.fromarray(pixels, "RGB"), "PNG")
np.save(os.path.join(out, "png.npy"), padded(png))
np.save(os.path.join(out, "expected.npy"), np.asarray(Image.open(io.BytesIO(png)).convert("RGB")))
np.save(os.path.join(out, "small.npy"),
        padded(encode(Image.fromarray(pixels[:20, :24].copy(), "RGB"), "JPEG")))
np.save(os.path.join(out, "foreign.npy"), padded(b"GIF89a" + bytes(100)))

graph = helper.make_graph(
    [helper.make_node("ImageDecoder", ["bytes"], ["image"], name="decode", pixel_format="RGB")],
    "decode", [helper.make_tensor_value_info("bytes", TensorProto.UINT8, ["n"])],
    [helper.make_tensor_value_info("image", TensorProto.UINT8, ["height", "width", 3])])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 20)])
model.ir_version = 9
with open(os.path.join(out, "decode.onnx"), "wb") as f:
    f.write(model.SerializeToString())
