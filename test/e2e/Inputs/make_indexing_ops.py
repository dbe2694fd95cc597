"""Builds the single-op models of indexing-ops.test: ArgMax/ArgMin, ReduceProd, TopK, CumSum,
GatherElements, GatherND, ScatterElements and ScatterND, with inputs and onnxruntime's outputs.

Usage: make_indexing_ops.py OUT_DIR [VARIANT...]   (all variants when none is named)
Same layout and reference as make_ops.py (whose Variant and build it uses). The shapes are large
enough for mie-parallelize-loops to split the outer loops, and the scatters have many duplicate
indices, so a scatter loop split across threads would lose or reorder updates.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_ops import Variant, build, i64, normal, rng  # noqa: E402


def ints(shape, lo, hi, seed, dtype=np.int64):
    return rng(seed).integers(lo, hi, shape).astype(dtype)


def variants():
    v = {}
    # ArgMax/ArgMin: few distinct values, so ties are everywhere.
    ties = ints([4, 33, 5], -3, 3, 1).astype(np.float32)
    v["argmax_first"] = Variant("ArgMax", {"x": ties}, axis=1, keepdims=1)
    v["argmax_last"] = Variant("ArgMax", {"x": ties}, axis=1, keepdims=0, select_last_index=1)
    v["argmin_int_last"] = Variant("ArgMin", {"x": ints([7, 40], -5, 5, 2, np.int32)}, axis=-1,
                                   keepdims=0, select_last_index=1)
    v["argmin_axis0"] = Variant("ArgMin", {"x": normal([9, 6, 4], 3)}, keepdims=1)
    # ReduceProd on values near 1 (the product stays finite), and on integers.
    v["reduce_prod"] = Variant("ReduceProd", {"x": 1 + 0.1 * normal([3, 4, 5], 4)}, axes=[0, 2],
                               keepdims=0)
    v["reduce_prod_int"] = Variant("ReduceProd", {"x": ints([6, 5], -3, 4, 5, np.int32)},
                                   axes=[1], keepdims=1)
    # TopK (opset 11: K an input): largest with ties, smallest on an inner axis, integers.
    v["top_k_ties"] = Variant("TopK", {"x": ints([6, 50], 0, 10, 6).astype(np.float32)},
                              outputs=["values", "indices"], inits={"k": i64([7])}, axis=-1,
                              opset=11, node_inputs=["x", "k"])
    v["top_k_smallest"] = Variant("TopK", {"x": normal([40, 3, 2], 7)},
                                  outputs=["values", "indices"], inits={"k": i64([5])}, axis=0,
                                  largest=0, opset=11, node_inputs=["x", "k"])
    v["top_k_int_all"] = Variant("TopK", {"x": ints([3, 12], -4, 4, 8, np.int32)},
                                 outputs=["values", "indices"], inits={"k": i64([12])}, axis=1,
                                 opset=11, node_inputs=["x", "k"])
    # CumSum: a constant axis (exclusive, reverse) and a runtime one, float and int.
    v["cumsum_exclusive_reverse"] = Variant(
        "CumSum", {"x": normal([3, 40, 5], 9)}, inits={"axis": np.array(1, np.int32)},
        exclusive=1, reverse=1, opset=14, node_inputs=["x", "axis"])
    v["cumsum_runtime_axis"] = Variant(
        "CumSum", {"x": ints([4, 6, 3], -9, 9, 10, np.int32), "axis": np.array(-2, np.int64)},
        opset=14)
    # GatherElements with negative indices; GatherND with batch dims and tuples.
    v["gather_elements"] = Variant("GatherElements", {"x": normal([5, 64], 11),
                                                      "i": ints([5, 100], -64, 64, 12)}, axis=1)
    v["gather_nd_batch"] = Variant("GatherND", {"x": normal([3, 10, 4, 2], 13),
                                                "i": ints([3, 6, 2], -4, 4, 14)}, batch_dims=1)
    v["gather_nd_slices"] = Variant("GatherND", {"x": normal([10, 7, 3], 15),
                                                 "i": ints([4, 5, 1], -10, 10, 16)})
    # ScatterElements: ~37 updates per element on axis 1 (add, max), none without duplicates.
    d = normal([4, 8], 17)
    dup = ints([4, 300], -8, 8, 18)
    upd = normal([4, 300], 19)
    v["scatter_elements_add"] = Variant("ScatterElements", {"x": d, "i": dup, "u": upd}, axis=1,
                                        reduction="add", opset=16)
    v["scatter_elements_max"] = Variant("ScatterElements", {"x": d, "i": dup, "u": upd}, axis=1,
                                        reduction="max", opset=18)
    # On axis 0 the duplicates of one element sit in different rows of the update loop, which
    # mie-parallelize-loops would split across threads if it were an scf.parallel.
    v["scatter_elements_add_axis0"] = Variant(
        "ScatterElements", {"x": normal([8, 4], 32), "i": ints([100000, 4], -8, 8, 33),
                            "u": normal([100000, 4], 34)}, axis=0, reduction="add", opset=16,
        tol=(1e-3, 1e-3))
    v["scatter_elements_none"] = Variant(
        "ScatterElements", {"x": normal([6, 50], 20), "i": np.stack(
            [rng(21 + r).permutation(50)[:30] for r in range(6)]).astype(np.int64),
            "u": normal([6, 30], 22)}, axis=1, opset=13)
    # ScatterND: rows with duplicates (add, mul) and element tuples without.
    v["scatter_nd_add"] = Variant("ScatterND", {"x": normal([16, 8], 23),
                                                "i": ints([50, 1], -16, 16, 24),
                                                "u": normal([50, 8], 25)},
                                  reduction="add", opset=16)
    v["scatter_nd_mul"] = Variant("ScatterND", {"x": normal([16, 8], 26),
                                                "i": ints([20, 1], 0, 16, 27),
                                                "u": 1 + 0.1 * normal([20, 8], 28)},
                                  reduction="mul", opset=16)
    cells = rng(29).permutation(16 * 8)[:40]
    v["scatter_nd_elements"] = Variant("ScatterND", {"x": normal([16, 8], 30),
                                                     "i": np.stack([cells // 8, cells % 8], 1),
                                                     "u": normal([40], 31)}, opset=13)
    return v


def main():
    out_dir, names = sys.argv[1], sys.argv[2:]
    all_variants = variants()
    names = names or list(all_variants)
    os.makedirs(out_dir, exist_ok=True)
    for name in names:
        build(name, all_variants[name], out_dir)
    with open(os.path.join(out_dir, "variants"), "w") as f:
        f.write("\n".join(names) + "\n")


if __name__ == "__main__":
    main()
