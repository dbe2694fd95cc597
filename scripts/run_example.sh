#!/usr/bin/env bash
# The main job on the bundled example: compile examples/tiny_cnn/model.onnx (Conv + BatchNorm + ReLU,
# pooling, Gemm) into a .mie package for every x86-64 machine (mie-compile's default: AVX2 and AVX-512
# code, the runtime running the best one the CPU has; an AArch64 build makes an aarch64 package), run it with the runtime, print the output and
# latency, and check it against the saved onnxruntime reference.
#   Usage: scripts/run_example.sh [MODEL_DIR]      Environment: BUILD_DIR (default: build)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
MODEL_DIR="${1:-$ROOT/examples/tiny_cnn}"
OUT_DIR="$BUILD_DIR/examples/$(basename "$MODEL_DIR")"
PYTHON="${MIE_PYTHON:-$ROOT/.venv/bin/python}"
mkdir -p "$OUT_DIR"

echo "== mie-compile $MODEL_DIR/model.onnx"
"$BUILD_DIR/bin/mie-compile" "$MODEL_DIR/model.onnx" -o "$OUT_DIR/model.mie"
ls -l "$OUT_DIR/model.mie"

echo "== mie-run"
"$BUILD_DIR/bin/mie-run" "$OUT_DIR/model.mie" -v --input "$MODEL_DIR/input.npy" \
  --output "$OUT_DIR/output.npy" --print --benchmark 50

echo "== compare with onnxruntime's output"
"$PYTHON" "$ROOT/test/e2e/Inputs/compare.py" "$OUT_DIR/output.npy" "$MODEL_DIR/reference.npy"
