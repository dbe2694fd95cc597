"""ImageDecoder end to end (docs/image-decoding.md), through the Python bindings.

Usage: check_image_decoder.py WORK_DIR

Encodes one synthetic picture with Pillow in every format and flavour the op reads (JPEG 4:2:0,
4:4:4, progressive and grayscale; PNG RGB, RGBA, gray, gray+alpha, palette, 16-bit; BMP 24-bit and
palette; PPM, PGM; TIFF raw, LZW and deflate; WebP lossy and lossless; JPEG 2000 as JP2 and as a
raw codestream), compiles one model that decodes each of them as RGB, BGR and Grayscale, runs it
once and compares every output with Pillow's decoding, the ONNX reference implementation's:
convert("RGB") (alpha dropped, gray replicated), its channels reversed, convert("L"). Exact: the
outputs are integers. Then the failures: an image of another size, truncated and foreign bytes.
"""
import io
import os
import sys

import numpy as np
from onnx import TensorProto, helper
from PIL import Image

sys.path.insert(0, os.environ["MIE_PYTHON_PATH"])
import mie  # noqa: E402

WIDTH, HEIGHT = 37, 23  # odd sizes: partial MCUs, padded BMP rows, odd chroma


def picture():
    """Smooth gradients (what JPEG's DCT keeps) with some sharp edges and noise."""
    y, x = np.mgrid[0:HEIGHT, 0:WIDTH]
    rgb = np.stack([x * 255 // (WIDTH - 1), y * 255 // (HEIGHT - 1), (x * y) % 256], axis=-1)
    rgb[5:12, 8:20] = [250, 30, 60]
    noise = np.random.default_rng(7).integers(-20, 21, rgb.shape)
    return np.clip(rgb + noise, 0, 255).astype(np.uint8)


def encode(image, fmt, **options):
    out = io.BytesIO()
    image.save(out, format=fmt, **options)
    return out.getvalue()


rgb = Image.fromarray(picture(), "RGB")
alpha = Image.fromarray(np.random.default_rng(3).integers(0, 256, (HEIGHT, WIDTH), np.uint8), "L")
rgba = rgb.copy()
rgba.putalpha(alpha)
gray = rgb.convert("L")
gray_alpha = gray.copy()
gray_alpha.putalpha(alpha)
palette = rgb.quantize(colors=64)
gray16 = Image.fromarray(np.asarray(gray, np.uint16) * 257 + 3)
assert gray16.mode == "I;16", gray16.mode

IMAGES = {
    "jpeg_420": encode(rgb, "JPEG", quality=90),
    "jpeg_444": encode(rgb, "JPEG", quality=95, subsampling=0),
    "jpeg_progressive": encode(rgb, "JPEG", quality=85, progressive=True),
    "jpeg_gray": encode(gray, "JPEG", quality=90),
    "png_rgb": encode(rgb, "PNG"),
    "png_rgba": encode(rgba, "PNG"),
    "png_gray": encode(gray, "PNG"),
    "png_gray_alpha": encode(gray_alpha, "PNG"),
    "png_palette": encode(palette, "PNG"),
    "png_gray16": encode(gray16, "PNG"),
    "bmp_rgb": encode(rgb, "BMP"),
    "bmp_palette": encode(palette, "BMP"),
    "ppm": encode(rgb, "PPM"),
    "pgm": encode(gray, "PPM"),
    "tiff_raw": encode(rgb, "TIFF"),
    "tiff_lzw": encode(rgb, "TIFF", compression="tiff_lzw"),
    "tiff_deflate": encode(rgb, "TIFF", compression="tiff_adobe_deflate"),
    "webp_lossy": encode(rgb, "WEBP", quality=80),
    "webp_lossless": encode(rgb, "WEBP", lossless=True),
    "jp2": encode(rgb, "JPEG2000", irreversible=False),
    "j2k": encode(rgb, "JPEG2000", no_jp2=True),
}
FORMATS = {"RGB": 3, "BGR": 3, "Grayscale": 1}


def expected(data, pixel_format):
    image = Image.open(io.BytesIO(data))
    if image.mode == "I;16":  # Pillow keeps 16 bits; 8-bit decoders keep the high byte
        image = Image.fromarray((np.asarray(image) >> 8).astype(np.uint8), "L")
    if pixel_format == "Grayscale":
        return np.asarray(image.convert("L"))[:, :, None]
    pixels = np.asarray(image.convert("RGB"))
    return pixels[:, :, ::-1] if pixel_format == "BGR" else pixels


def build(work):
    nodes, inputs, outputs = [], [], []
    for name, data in IMAGES.items():
        inputs.append(helper.make_tensor_value_info(name, TensorProto.UINT8, [len(data)]))
        for pixel_format, channels in FORMATS.items():
            out = f"{name}_{pixel_format}"
            nodes.append(helper.make_node("ImageDecoder", [name], [out], name=out,
                                          pixel_format=pixel_format))
            outputs.append(helper.make_tensor_value_info(out, TensorProto.UINT8,
                                                         [HEIGHT, WIDTH, channels]))
    graph = helper.make_graph(nodes, "images", inputs, outputs)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 20)])
    model.ir_version = 9
    path = os.path.join(work, "images.onnx")
    with open(path, "wb") as f:
        f.write(model.SerializeToString())
    return mie.compile(path, os.path.join(work, "images.mie"))


work = sys.argv[1]
feeds = {name: np.frombuffer(data, np.uint8) for name, data in IMAGES.items()}
with mie.load(build(work)) as session:
    results = session.run(feeds)
    for name, data in IMAGES.items():
        for pixel_format in FORMATS:
            got, want = results[f"{name}_{pixel_format}"], expected(data, pixel_format)
            assert got.shape == want.shape, (name, pixel_format, got.shape, want.shape)
            differ = int(np.count_nonzero(got != want))
            assert differ == 0, f"{name} {pixel_format}: {differ} values differ, max " \
                f"{int(np.abs(got.astype(int) - want).max())}"
        print(f"{name}: RGB, BGR, Grayscale exact")

    def failure(name, data):
        broken = dict(feeds)
        broken[name] = np.frombuffer(data.ljust(len(IMAGES[name]), b"\0"), np.uint8)
        try:
            session.run(broken)
        except mie.MieError as e:
            return str(e)
        raise AssertionError(f"{name}: no error")

    # Another size than the model's; then the next run with good data succeeds again.
    print(failure("png_rgb", encode(rgb.resize((HEIGHT, WIDTH)), "PNG")))
    print(failure("jpeg_420", IMAGES["jpeg_420"][:400]))
    print(failure("bmp_rgb", b"GIF89a" + IMAGES["bmp_rgb"][6:]))
    again = session.run(feeds)
    assert all(np.array_equal(again[k], results[k]) for k in results)
    print("next run: exact again")
