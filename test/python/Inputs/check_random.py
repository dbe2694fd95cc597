"""The random ops end to end (docs/random.md), through the Python bindings.

Usage: check_random.py MODELS_SCRIPT WORK_DIR

Checks, for models written by make_random_models.py:
- the numbers are Philox-4x32-10's (a reference written here, itself checked against Random123's
  known-answer vectors) under the session's seed, bit for bit for RandomUniform;
- runs differ; a seed restarts the sequence; sessions with one seed agree, without one they differ;
  an op's own ONNX seed overrides the session's; two ops never draw the same numbers;
- the distributions: moments of uniform and normal draws, Bernoulli and Multinomial frequencies
  against their probabilities (never a zero-probability class), Dropout's scale, mask and ratio.
The statistical bounds are 6 standard errors or more: with fixed seeds the outcome is fixed anyway.
"""
import math
import os
import struct
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.environ["MIE_PYTHON_PATH"])
import mie  # noqa: E402

MASK = 0xFFFFFFFF


def philox(counter, key):
    c = list(counter)
    k0, k1 = key
    for r in range(10):
        if r:
            k0 = (k0 + 0x9E3779B9) & MASK
            k1 = (k1 + 0xBB67AE85) & MASK
        p0 = 0xD2511F53 * c[0]
        p1 = 0xCD9E8D57 * c[2]
        c = [((p1 >> 32) ^ c[1] ^ k0) & MASK, p1 & MASK, ((p0 >> 32) ^ c[3] ^ k1) & MASK, p0 & MASK]
    return c


# Random123's kat_vectors for philox4x32 with 10 rounds.
assert philox([0, 0, 0, 0], [0, 0]) == [0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8]
assert philox([MASK] * 4, [MASK] * 2) == [0x408F276D, 0x41C83B0E, 0xA20BC7C6, 0x6D5451FD]
assert philox([0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344], [0xA4093822, 0x299F31D0]) == \
    [0xD16CFE09, 0x94FDCCEB, 0x5001E420, 0x24126EA1]


def words(index, stream, key, run):
    return philox([index & MASK, index >> 32, stream ^ (run >> 32), run & MASK],
                  [key & MASK, key >> 32])


def mix64(x):
    x = (x + 0x9E3779B97F4A7C15) & (2**64 - 1)
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & (2**64 - 1)
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & (2**64 - 1)
    return x ^ (x >> 31)


def uniform_f32(n, stream, key, run, low, high):
    u = np.array([(words(i, stream, key, run)[0] >> 8) * 2.0**-24 for i in range(n)])
    return (u * np.float64(np.float32(high - low)) + np.float64(np.float32(low))).astype(np.float32)


def normal_f32(n, stream, key, run, mean, scale):
    out = []
    for i in range(n):
        w = words(i, stream, key, run)
        u1 = ((w[0] >> 8) + 1) * 2.0**-24
        u2 = (w[2] >> 8) * 2.0**-24  # f32: words 0 and 2 (f64 takes 0-1 and 2-3)
        out.append(mean + scale * math.sqrt(-2.0 * math.log(u1)) * math.cos(2.0 * math.pi * u2))
    return np.array(out)


script, work = sys.argv[1], sys.argv[2]


def package(name):
    onnx_path = os.path.join(work, name + ".onnx")
    subprocess.run([sys.executable, script, name, onnx_path], check=True)
    return mie.compile(onnx_path, os.path.join(work, name + ".mie"))


# RandomUniform: Philox bit for bit, run to run, seed to seed.
p = package("uniform_big")
with mie.load(p) as s:
    s.set_random_seed(12345)
    first = s.run({})["y"]
    second = s.run({})["y"]
    s.set_random_seed(12345)
    again = s.run({})["y"]
    s.set_random_seed(12346)
    other = s.run({})["y"]
np.testing.assert_array_equal(first[:300], uniform_f32(300, 0, 12345, 0, -1.0, 3.0))
np.testing.assert_array_equal(second[:300], uniform_f32(300, 0, 12345, 1, -1.0, 3.0))
np.testing.assert_array_equal(first, again)
assert np.mean(first == second) < 1e-3 and np.mean(first == other) < 1e-3
n = first.size
assert first.min() >= -1.0 and first.max() < 3.0, (first.min(), first.max())
assert abs(first.mean() - 1.0) < 6 * math.sqrt(16 / 12 / n), first.mean()
assert abs(first.var() / (16 / 12) - 1) < 0.03, first.var()
print(f"uniform: {n} draws, mean {first.mean():.4f}, var {first.var():.4f}, philox exact")

with mie.load(p) as s1, mie.load(p) as s2:
    unseeded1, unseeded2 = s1.run({})["y"], s2.run({})["y"]
    s1.set_random_seed(7)
    s2.set_random_seed(7)
    s2.set_threads(1)
    seeded1, seeded2 = s1.run({})["y"], s2.run({})["y"]
assert np.mean(unseeded1 == unseeded2) < 1e-3
np.testing.assert_array_equal(seeded1, seeded2)
print("sessions: unseeded differ, seeded agree across thread counts")

# RandomNormal in f64: moments.
with mie.load(package("normal_big")) as s:
    s.set_random_seed(99)
    z = s.run({})["y"]
assert z.dtype == np.float64 and z.shape == (256, 257)
n = z.size
assert abs(z.mean() - 2.0) < 6 * 0.5 / math.sqrt(n), z.mean()
assert abs(z.std() / 0.5 - 1) < 0.02, z.std()
skew = np.mean(((z - z.mean()) / z.std()) ** 3)
kurt = np.mean(((z - z.mean()) / z.std()) ** 4)
assert abs(skew) < 0.05 and abs(kurt - 3) < 0.1, (skew, kurt)
print(f"normal: mean {z.mean():.4f}, std {z.std():.4f}, skew {skew:.3f}, kurtosis {kurt:.3f}")

# An op's own seed: the same numbers in every session whatever the session's seed; Box-Muller.
p = package("normal_seeded")
key = mix64(struct.unpack("<Q", struct.pack("<d", 3.0))[0])
with mie.load(p) as s1, mie.load(p) as s2:
    s2.set_random_seed(5)
    a, b = s1.run({})["y"], s2.run({})["y"]
    c = s1.run({})["y"]
np.testing.assert_array_equal(a, b)
np.testing.assert_allclose(a.ravel(), normal_f32(20, 0, key, 0, 0.0, 1.0), atol=2e-6)
np.testing.assert_allclose(c.ravel(), normal_f32(20, 0, key, 1, 0.0, 1.0), atol=2e-6)
print("seeded op: same numbers across sessions, next run draws the next")

# In a Loop body: each iteration draws under its own key, mix64(key ^ mix64(iteration)); nested
# Loops combine their iteration numbers as outer * K + inner; trip counts may be runtime values.
def iteration_key(key, iteration):
    return mix64(key ^ mix64(iteration & (2**64 - 1)))


K = 0x9E3779B97F4A7C15
a = np.array([0.5, -0.5], np.float32)
with mie.load(package("in_loop_body")) as s:
    s.set_random_seed(11)
    r = s.run({"a": a})["r"]
want = a
for i in range(3):
    want = want + uniform_f32(2, 0, iteration_key(11, i), 0, 0.0, 1.0)
np.testing.assert_array_equal(r, want)
with mie.load(package("in_loop_runtime_trips")) as s:
    s.set_random_seed(12)
    r = s.run({"trips": np.array(5, np.int64), "a": a})["r"]
    r0 = s.run({"trips": np.array(0, np.int64), "a": a})["r"]
want = a.astype(np.float64)
for i in range(5):
    want = want + normal_f32(2, 0, iteration_key(12, i), 0, 0.0, 1.0)
np.testing.assert_allclose(r, want, atol=1e-5)
np.testing.assert_array_equal(r0, a)
with mie.load(package("in_nested_loops")) as s:
    s.set_random_seed(13)
    r = s.run({"trips": np.array(4, np.int64), "a": a})["r"]
want, draws = a, []
for o in range(2):
    for i in range(4):
        draws.append(uniform_f32(2, 0, iteration_key(13, o * K + i), 0, 0.0, 1.0))
        want = want + draws[-1]
np.testing.assert_array_equal(r, want)
assert len({d.tobytes() for d in draws}) == 8
xs = np.arange(6, dtype=np.float32).reshape(3, 2)
with mie.load(package("in_scan_body")) as s:
    s.set_random_seed(14)
    r = s.run({"a": a, "xs": xs})["r"]
want = a
for step in range(3):
    want = (want + xs[step]) + uniform_f32(2, 0, iteration_key(14, step), 0, 0.0, 1.0)
np.testing.assert_array_equal(r, want)
print("loop: every iteration draws its own numbers, runtime trip counts, nested loops and scans too")

# Two ops, one model: different streams.
with mie.load(package("two_uniforms")) as s:
    out = s.run({})
assert np.mean(out["a"] == out["b"]) < 0.05
print("two ops draw different numbers")

# *Like: the input's shape and type (f16), or the dtype asked for.
with mie.load(package("like_f16")) as s:
    out = s.run({"x": np.zeros((3, 4), np.float16)})
assert out["u"].dtype == np.float16 and out["u"].shape == (3, 4)
assert out["u"].min() >= 0 and out["u"].max() <= 10
assert out["z"].dtype == np.float32 and out["z"].shape == (3, 4)
print("like: f16 uniform, f32 normal")

# Bernoulli: frequencies per probability, 0 and 1 exactly.
probs = np.repeat(np.array([0.0, 0.1, 0.5, 0.9, 1.0], np.float32), [512, 1024, 1024, 1024, 512])
with mie.load(package("bernoulli")) as s:
    s.set_random_seed(1)
    y = s.run({"p": probs})["y"]
assert y.dtype == np.int32 and set(np.unique(y)) <= {0, 1}
for q in (0.0, 0.1, 0.5, 0.9, 1.0):
    f = y[probs == np.float32(q)].mean()
    m = int((probs == np.float32(q)).sum())
    assert abs(f - q) <= 6 * math.sqrt(q * (1 - q) / m), (q, f)
print("bernoulli: frequencies match")

# Multinomial: class frequencies; a class of probability 0 is never drawn.
with np.errstate(divide="ignore"):  # log(0) = -inf: a class that is never drawn
    logits = np.log(np.array([[0.1, 0.2, 0.3, 0.4], [0.5, 0.0, 0.25, 0.25]], np.float32))
with mie.load(package("multinomial")) as s:
    s.set_random_seed(2)
    y = s.run({"x": logits + 3.0})["y"]  # unnormalized: the shift does not matter
assert y.dtype == np.int64 and y.min() >= 0 and y.max() <= 3
probs = np.exp(logits)
for row in range(2):
    freq = np.bincount(y[row], minlength=4) / y.shape[1]
    assert np.all(np.abs(freq - probs[row]) <= 6 * np.sqrt(probs[row] * (1 - probs[row]) / y.shape[1])), \
        (row, freq)
assert not np.any(y[1] == 1)
print("multinomial: frequencies match, zero-probability class never drawn")

# Dropout in training mode: kept elements scaled by 1 / (1 - ratio), the mask says which.
with mie.load(package("dropout_training")) as s:
    s.set_random_seed(3)
    x = np.linspace(1, 2, 50000, dtype=np.float32)
    out = s.run({"x": x})
y, mask = out["y"], out["mask"]
assert mask.dtype == np.bool_
np.testing.assert_allclose(y[mask], x[mask] / np.float32(0.75), rtol=1e-6)
assert np.all(y[~mask] == 0)
kept = mask.mean()
assert abs(kept - 0.75) < 6 * math.sqrt(0.75 * 0.25 / x.size), kept
print(f"dropout: kept {kept:.4f} of the elements, scaled by 1/0.75")

with mie.load(package("dropout_opset6")) as s:
    out = s.run({"x": np.ones(8, np.float32)})
assert out["mask"].dtype == np.float32 and set(np.unique(out["mask"])) <= {0.0, 1.0}
np.testing.assert_array_equal(out["y"], out["mask"] * 2.0)
print("dropout opset 6: float mask")

try:
    with mie.load(p) as s:
        s.set_random_seed(-1)
    raise AssertionError("a negative seed was accepted")
except mie.MieError as e:
    print("error:", e)
