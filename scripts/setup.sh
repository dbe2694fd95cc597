#!/usr/bin/env bash
# Idempotent setup: installs every Debian package the build and tests need, then configures and builds.
# Run as root on a fresh Debian bookworm machine:   scripts/setup.sh [--no-build]
# Environment: BUILD_DIR (default: build), CMAKE_BUILD_TYPE (default: Release).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
BUILD_TYPE="${CMAKE_BUILD_TYPE:-Release}"

APT_PACKAGES=(
  # LLVM/MLIR 22 toolchain (Debian bookworm-security).
  libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools clang-22 lld-22 liblld-22-dev
  # Build tools.
  cmake ninja-build ccache
  # ONNX importer.
  libonnx-dev libprotobuf-dev protobuf-compiler libonnx-testdata
  # Runtime tests; the sanitizer and libFuzzer runtimes of clang-22 for scripts/fuzz.sh.
  libgtest-dev libclang-rt-22-dev
  # ImageDecoder's codecs: headers for the runtime build (the libraries are loaded with dlopen at run
  # time, and these pull them in: libjpeg62-turbo, libpng16-16, libtiff6, libwebp7, libopenjp2-7).
  libjpeg62-turbo-dev libpng-dev libtiff-dev libwebp-dev libopenjp2-7-dev
  # AArch64 cross build + emulation.
  gcc-aarch64-linux-gnu g++-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user
  # Python for the tests: Debian's interpreter + a venv (pyenv's python3 on PATH is not used).
  python3 python3-venv
)

# PyPI packages of the test venv: ONNX for building test models, onnxruntime as the independent
# reference for end-to-end tests and as the peer in benchmarks, Pillow as ImageDecoder's (ONNX's
# reference implementation decodes with it); nanobind and scikit-build-core build the Python module and the
# mie-runtime wheel (python-bindings/, docs/python.md).
PIP_PACKAGES=(numpy==2.3.5 onnx==1.20.0 onnxruntime==1.23.2 pillow==13.0.0 nanobind==3.1.0
              scikit-build-core==1.1.2)
VENV="${MIE_VENV:-$ROOT/.venv}"

missing=()
for p in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  if [[ $(id -u) -ne 0 ]]; then
    echo "setup: missing Debian packages and not root; run as root or install: ${missing[*]}" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "setup: all Debian packages present"
fi

if [[ ! -x "$VENV/bin/python" ]]; then
  /usr/bin/python3 -m venv "$VENV"
fi
if ! "$VENV/bin/python" -c "import numpy, onnx, onnxruntime, PIL, nanobind, scikit_build_core" 2>/dev/null; then
  echo "setup: installing ${PIP_PACKAGES[*]} into $VENV"
  "$VENV/bin/python" -m pip install -q --disable-pip-version-check "${PIP_PACKAGES[@]}"
fi

[[ "${1:-}" == "--no-build" ]] && exit 0

cmake -S "$ROOT" -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE="$BUILD_TYPE" -DMIE_PYTHON="$VENV/bin/python"
cmake --build "$BUILD_DIR"

# The main job on the bundled example: compile a model, run it, print outputs and latency.
"$ROOT/scripts/run_example.sh"
