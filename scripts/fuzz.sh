#!/usr/bin/env bash
# Builds the libFuzzer targets in their own build directories and runs each for SECONDS on a seed corpus
# made from the main build's test files. The runtime's (runtime/fuzz, cmake -DMIE_FUZZ=ON on the
# standalone runtime, in FUZZ_DIR) and the ONNX importer's (fuzz/, cmake -DMIE_FUZZ_COMPILER=ON on the
# whole project, in FUZZ_COMPILER_DIR; only that target is built). Both are clang-22 with
# -fsanitize=fuzzer,address,undefined on our code. Prints executions, executions/s and crashes per
# target; crash inputs land in <dir>/artifacts/<target>/. Exits non-zero on a crash. See docs/fuzzing.md.
#   Usage: scripts/fuzz.sh [SECONDS (default 60)] [TARGET ...]
#          targets: package manifest tensor_io abi_table image_decoder shape_expr onnx_import (default: all seven)
#   Environment: FUZZ_DIR (default build-fuzz), FUZZ_COMPILER_DIR (default build-fuzz-compiler),
#                BUILD_DIR (the main build, seeds; default build)
# Run it under the shared CPU lock on shared machines: flock /tmp/mie-cpu.lock scripts/fuzz.sh 120
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
FUZZ_DIR="${FUZZ_DIR:-$ROOT/build-fuzz}"
FUZZ_COMPILER_DIR="${FUZZ_COMPILER_DIR:-$ROOT/build-fuzz-compiler}"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
SECONDS_EACH="${1:-60}"
shift || true
TARGETS=("$@")
[[ ${#TARGETS[@]} -eq 0 ]] && TARGETS=(package manifest tensor_io abi_table image_decoder shape_expr onnx_import)
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$ROOT}"
# The fuzz builds carry -g, for which ccache hashes the working directory by default: a fresh clone (CI)
# would then miss the cache every time. The debug info's compilation directory may point at another
# checkout; the stacks of a report name the files relative to it all the same.
export CCACHE_NOHASHDIR="${CCACHE_NOHASHDIR:-1}"

want_runtime=0 want_compiler=0
for t in "${TARGETS[@]}"; do
  if [[ $t == onnx_import ]]; then want_compiler=1; else want_runtime=1; fi
done

if [[ $want_runtime -eq 1 ]]; then
  if [[ ! -f "$FUZZ_DIR/build.ninja" ]]; then
    cmake -S "$ROOT/runtime" -B "$FUZZ_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMIE_FUZZ=ON \
      -DMIE_RT_BUILD_TESTS=OFF -DMIE_RT_BUILD_TOOLS=OFF -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
      >/dev/null || exit 2
  fi
  cmake --build "$FUZZ_DIR" -- -j2 >/dev/null || { echo "fuzz: build failed" >&2; exit 2; }
fi
if [[ $want_compiler -eq 1 ]]; then
  # The whole project is configured (the importer needs the ms dialect and its TableGen), but only the
  # fuzz target and what it links are built: about 30 steps, not the compiler, runtime and tests.
  if [[ ! -f "$FUZZ_COMPILER_DIR/build.ninja" ]]; then
    cmake -S "$ROOT" -B "$FUZZ_COMPILER_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMIE_FUZZ_COMPILER=ON \
      -DMIE_BUILD_AARCH64_RUNTIME=OFF -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
      >/dev/null || exit 2
  fi
  cmake --build "$FUZZ_COMPILER_DIR" --target fuzz_onnx_import -- -j2 >/dev/null ||
    { echo "fuzz: build of fuzz_onnx_import failed" >&2; exit 2; }
fi

# Seeds: small ONNX models (the lit tests write theirs under the build tree, valid and malformed ones;
# -type f: the malformed-model tests also leave a FIFO there, which cp would wait on forever).
while IFS= read -r f; do
  mkdir -p "$FUZZ_COMPILER_DIR/corpus/onnx_import"
  cp -f "$f" "$FUZZ_COMPILER_DIR/corpus/onnx_import/seed-$(basename "$(dirname "$f")")-$(basename "$f")" 2>/dev/null || true
done < <([[ $want_compiler -eq 1 ]] && find "$BUILD_DIR" "$ROOT/examples" -type f -name '*.onnx' -size -64k 2>/dev/null | head -300)
# Runtime seeds (left unindented for the Python here-document): small packages (the runtime tests write theirs under the build tree), their manifests, tensor files,
# and the test kernel's ABI table. Missing seeds only make the fuzzers start from scratch.
if [[ $want_runtime -eq 1 ]]; then
seed() {  # seed TARGET FILE
  mkdir -p "$FUZZ_DIR/corpus/$1"
  cp -f "$2" "$FUZZ_DIR/corpus/$1/seed-$(basename "$2")" 2>/dev/null || true
}
while IFS= read -r f; do
  seed package "$f"
  python3 - "$f" "$FUZZ_DIR/corpus/manifest/seed-$(basename "$f").json" <<'PY' || true
import os, struct, sys
data = open(sys.argv[1], "rb").read()
offset, size = struct.unpack_from("<QQ", data, 16)
os.makedirs(os.path.dirname(sys.argv[2]), exist_ok=True)
open(sys.argv[2], "wb").write(data[offset:offset + size])
PY
done < <(find "$BUILD_DIR" "$ROOT/examples" -name '*.mie' -size -64k 2>/dev/null | head -20)
while IFS= read -r f; do seed tensor_io "$f"; done < \
  <(find "$BUILD_DIR" "$ROOT/examples" \( -name '*.npy' -o -name '*.pb' \) -size -64k 2>/dev/null | head -40)
# ImageDecoder: the runtime tests' encoded images (ONNX's backend cases and two small JPEGs).
for f in "$ROOT"/runtime/test/data/images/*.in.bin "$ROOT"/runtime/test/data/images/*.jpg; do
  seed image_decoder "$f"
done
# Shape expressions: the forms the compiler writes (then a NUL and the symbols' values, 8 bytes each).
mkdir -p "$FUZZ_DIR/corpus/shape_expr"
for e in 's0' 's0 * s1' '(s1 - 1) floordiv 2 + 1' 's1 ceildiv 64' 's0 mod 8' 's0 * s1 * 768 + s2 - 3'; do
  printf '%s\0\x03\0\0\0\0\0\0\0\x07\0\0\0\0\0\0\0' "$e" >"$FUZZ_DIR/corpus/shape_expr/seed-$(echo "$e" | tr -c 'a-z0-9' '_')"
done
mkdir -p "$FUZZ_DIR/corpus/abi_table"
python3 -c "
import struct, sys
words = [0x003149424145494D, 20, 512, 256, 2, 2, 1, 2, 2, 64, 7, 1, 1, 1, 2, 2, 64, 1, 1, 2]
open(sys.argv[1], 'wb').write(struct.pack('<%dq' % len(words), *words))" "$FUZZ_DIR/corpus/abi_table/seed-test-kernel"
fi

status=0
for t in "${TARGETS[@]}"; do
  if [[ $t == onnx_import ]]; then dir="$FUZZ_COMPILER_DIR" bin="$FUZZ_COMPILER_DIR/bin/fuzz_$t"
  else dir="$FUZZ_DIR" bin="$FUZZ_DIR/fuzz/fuzz_$t"; fi
  [[ -x "$bin" ]] || { echo "fuzz: no target '$t'" >&2; status=2; continue; }
  mkdir -p "$dir/corpus/$t" "$dir/artifacts/$t"
  log="$dir/fuzz_$t.log"
  # -timeout: one input taking 10 s is a hang (the slowest seed takes well under one).
  t0=$(date +%s)
  "$bin" "$dir/corpus/$t" -max_total_time="$SECONDS_EACH" -max_len=65536 -rss_limit_mb=2048 -timeout=10 \
    -malloc_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$dir/artifacts/$t/" >"$log" 2>&1
  rc=$?
  elapsed=$(( $(date +%s) - t0 )); (( elapsed > 0 )) || elapsed=1  # a crash ends the run early
  runs=$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$' | head -1)
  crashes=$(find "$dir/artifacts/$t" -type f | wc -l)
  echo "fuzz_$t: ${runs:-0} executions in ${elapsed} s ($(( ${runs:-0} / elapsed ))/s), exit $rc, crash inputs: $crashes"
  if [[ $rc -ne 0 || $crashes -ne 0 ]]; then
    status=1
    grep -E 'ERROR|SUMMARY|runtime error' "$log" | head -5
  fi
done
exit $status
