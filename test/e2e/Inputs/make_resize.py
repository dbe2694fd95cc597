#!/usr/bin/env python3
"""Writes Resize models (nearest, linear and cubic with exclude_outside and cubic_coeff_a;
antialiasing; half_pixel, align_corners, asymmetric, pytorch_half_pixel, half_pixel_symmetric,
tf_half_pixel_for_nn and tf_crop_and_resize coordinates; every nearest rounding; scales (whole
sizes or not) and sizes, axes, keep_aspect_ratio_policy) with inputs and onnxruntime references,
in make_math_e2e.py's layout:

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
        # Interpolation-matrix path: cubic, antialiasing, the tf_* and half_pixel_symmetric
        # coordinates, scales that give no whole size, keep_aspect_ratio_policy.
        ("cubic_up_half_pixel", dict(mode="cubic"), f32(1, 1, 2, 1.5), None, 13),
        ("cubic_down_align", dict(mode="cubic", coordinate_transformation_mode="align_corners"),
         None, i64(2, 3, 3, 4), 13),
        ("cubic_exclude_outside", dict(mode="cubic", cubic_coeff_a=-0.5, exclude_outside=1),
         f32(1, 1, 0.8, 1.7), None, 13),
        ("cubic_asymmetric", dict(mode="cubic", coordinate_transformation_mode="asymmetric"),
         None, i64(2, 3, 7, 8), 13),
        ("linear_antialias_down", dict(mode="linear", antialias=1), None, i64(2, 3, 2, 3), 18),
        ("cubic_antialias_down", dict(mode="cubic", antialias=1), f32(1, 1, 0.6, 0.5), None, 18),
        ("linear_scales_not_whole", dict(mode="linear"), f32(1, 1, 0.7, 1.3), None, 13),
        ("nearest_scales_not_whole", dict(mode="nearest"), f32(1, 1, 1.7, 0.6), None, 13),
        ("linear_half_pixel_symmetric",
         dict(mode="linear", coordinate_transformation_mode="half_pixel_symmetric"),
         f32(1, 1, 1.7, 0.6), None, 19),
        ("nearest_tf_half_pixel_for_nn",
         dict(mode="nearest", coordinate_transformation_mode="tf_half_pixel_for_nn"),
         None, i64(2, 3, 3, 9), 13),
        ("nearest_not_larger", dict(mode="nearest", keep_aspect_ratio_policy="not_larger",
                                    axes=[2, 3]), None, i64(7, 8), 18),
        ("linear_not_smaller", dict(mode="linear", keep_aspect_ratio_policy="not_smaller",
                                    axes=[2, 3]), None, i64(3, 4), 18),
    ]
    # tf_crop_and_resize: a normalized region of interest, out-of-range samples take
    # extrapolation_value.
    v["linear_tf_crop_and_resize"] = (
        [node("Resize", ["x", "roi", "", "sizes"], ["y"], mode="linear",
              coordinate_transformation_mode="tf_crop_and_resize", extrapolation_value=10.0)],
        {"x": x},
        {"roi": f32(0, 0, -0.2, 0.4, 1, 1, 0.6, 1.3), "sizes": i64(2, 3, 4, 5)}, 13, (1e-5, 1e-6))
    v["nearest_tf_crop_and_resize_axes"] = (
        [node("Resize", ["x", "roi", "", "sizes"], ["y"], mode="nearest", axes=[3, 2],
              coordinate_transformation_mode="tf_crop_and_resize")],
        {"x": x},
        {"roi": f32(0.1, 0.2, 0.8, 0.9), "sizes": i64(5, 3)}, 18, (1e-5, 1e-6))
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
