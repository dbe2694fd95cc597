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
  # Runtime tests.
  libgtest-dev
  # AArch64 cross build + emulation.
  gcc-aarch64-linux-gnu g++-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user
  # Python used by tests and reference generation (Debian's interpreter, not pyenv's).
  python3 python3-numpy python3-onnx python3-protobuf
)

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

[[ "${1:-}" == "--no-build" ]] && exit 0

cmake -S "$ROOT" -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE="$BUILD_TYPE"
cmake --build "$BUILD_DIR"
