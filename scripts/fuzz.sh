#!/usr/bin/env bash
# Builds the runtime's libFuzzer targets (runtime/fuzz, cmake -DMIE_FUZZ=ON: clang-22 with
# -fsanitize=fuzzer,address,undefined) in their own build directory and runs each for SECONDS on a seed
# corpus made from the test packages and tensor files of the main build. Prints executions, executions/s
# and crashes per target; crash inputs land in $FUZZ_DIR/artifacts/<target>/. Exits non-zero on a crash.
#   Usage: scripts/fuzz.sh [SECONDS (default 60)] [TARGET ...]   targets: package manifest tensor_io abi_table
#   Environment: FUZZ_DIR (default build-fuzz), BUILD_DIR (the main build, seeds; default build)
# Run it under the shared CPU lock on shared machines: flock /tmp/mie-cpu.lock scripts/fuzz.sh 120
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
FUZZ_DIR="${FUZZ_DIR:-$ROOT/build-fuzz}"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
SECONDS_EACH="${1:-60}"
shift || true
TARGETS=("$@")
[[ ${#TARGETS[@]} -eq 0 ]] && TARGETS=(package manifest tensor_io abi_table)

if [[ ! -f "$FUZZ_DIR/build.ninja" ]]; then
  cmake -S "$ROOT/runtime" -B "$FUZZ_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMIE_FUZZ=ON \
    -DMIE_RT_BUILD_TESTS=OFF -DMIE_RT_BUILD_TOOLS=OFF -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    >/dev/null || exit 2
fi
cmake --build "$FUZZ_DIR" -- -j2 >/dev/null || { echo "fuzz: build failed" >&2; exit 2; }

# Seeds: small packages (the runtime tests write theirs under the build tree), their manifests, tensor files,
# and the test kernel's ABI table. Missing seeds only make the fuzzers start from scratch.
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
mkdir -p "$FUZZ_DIR/corpus/abi_table"
python3 -c "
import struct, sys
words = [0x003149424145494D, 20, 512, 256, 2, 2, 1, 2, 2, 64, 7, 1, 1, 1, 2, 2, 64, 1, 1, 2]
open(sys.argv[1], 'wb').write(struct.pack('<%dq' % len(words), *words))" "$FUZZ_DIR/corpus/abi_table/seed-test-kernel"

status=0
for t in "${TARGETS[@]}"; do
  bin="$FUZZ_DIR/fuzz/fuzz_$t"
  [[ -x "$bin" ]] || { echo "fuzz: no target '$t'" >&2; status=2; continue; }
  mkdir -p "$FUZZ_DIR/corpus/$t" "$FUZZ_DIR/artifacts/$t"
  log="$FUZZ_DIR/fuzz_$t.log"
  "$bin" "$FUZZ_DIR/corpus/$t" -max_total_time="$SECONDS_EACH" -max_len=65536 -rss_limit_mb=2048 \
    -malloc_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$FUZZ_DIR/artifacts/$t/" >"$log" 2>&1
  rc=$?
  runs=$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$' || echo 0)
  crashes=$(find "$FUZZ_DIR/artifacts/$t" -type f | wc -l)
  echo "fuzz_$t: ${runs:-0} executions in ${SECONDS_EACH} s ($(( ${runs:-0} / SECONDS_EACH ))/s), exit $rc, crash inputs: $crashes"
  if [[ $rc -ne 0 || $crashes -ne 0 ]]; then
    status=1
    grep -E 'ERROR|SUMMARY|runtime error' "$log" | head -5
  fi
done
exit $status
