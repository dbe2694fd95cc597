#!/usr/bin/env python3
"""Writes Resize models (nearest and linear; half_pixel, align_corners, asymmetric and
pytorch_half_pixel coordinates; every nearest rounding; scales and sizes, axes) with inputs and
onnxruntime references, in make_math_e2e.py's layout:

    make_resize.py OUT_DIR
"""

import os
import sys

import numpy as np
from onnx import helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_math_e2e  # noqa: E402

node = helper.make_node


def variants():
    x = make_math_e2e.normal([2, 3, 5, 6], 11)
    f32 = lambda *v: np.array(v, np.float32)  # noqa: E731
    i64 = lambda *v: np.array(v, np.int64)  # noqa: E731
    v = {}
    # (name, attributes, scales or None, sizes or None, opset)
    cases = [
        ("nearest_up_half_pixel", dict(mode="nearest"), f32(1, 1, 2, 2), None, 13),
        ("nearest_up_ceil_asym", dict(mode="nearest", nearest_mode="ceil",
                                      coordinate_transformation_mode="asymmetric"),
         None, i64(2, 3, 9, 13), 13),
        ("nearest_down_floor_align", dict(mode="nearest", nearest_mode="floor",
                                          coordinate_transformation_mode="align_corners"),
         None, i64(2, 3, 3, 4), 13),
        ("nearest_prefer_ceil", dict(mode="nearest", nearest_mode="round_prefer_ceil"),
         None, i64(2, 3, 7, 4), 13),
        ("linear_up_half_pixel", dict(mode="linear"), f32(1, 1, 2, 1.5), None, 13),
        ("linear_up_align", dict(mode="linear", coordinate_transformation_mode="align_corners"),
         None, i64(2, 3, 8, 11), 13),
        ("linear_down_pytorch", dict(mode="linear",
                                     coordinate_transformation_mode="pytorch_half_pixel"),
         None, i64(2, 3, 1, 4), 13),
        ("linear_asym_scales", dict(mode="linear", coordinate_transformation_mode="asymmetric"),
         f32(1, 1, 0.6, 0.5), None, 13),
        ("linear_axes", dict(mode="linear", axes=[3, 2]), None, i64(9, 4), 18),
    ]
    for name, attrs, scales, sizes, opset in cases:
        inits = {"roi": np.array([], np.float32)}
        if scales is not None:
            inits["scales"] = scales
            inputs = ["x", "roi", "scales"]
        else:
            inits["scales"] = np.array([], np.float32)
            inits["sizes"] = sizes
            inputs = ["x", "roi", "scales", "sizes"]
        v[name] = ([node("Resize", inputs, ["y"], **attrs)], {"x": x}, inits, opset, (1e-5, 1e-6))
    return v


def main():
    make_math_e2e.write_variants(variants(), sys.argv[1])


if __name__ == "__main__":
    main()
