#!/usr/bin/env bash
# Runs every test: builds what is stale, then the lit suite (dialects, passes, importer, end to end) and
# the gtest suites through ctest. Prints one summary line "N passed, N failed" and exits non-zero on any
# failure.   Usage: scripts/test.sh     Environment: BUILD_DIR (default: build)
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
LIT="${LIT:-/usr/lib/llvm-22/bin/lit}"

if [[ ! -f "$BUILD_DIR/build.ninja" ]]; then
  echo "test: $BUILD_DIR is not configured; run scripts/setup.sh first" >&2
  exit 2
fi

echo "== build"
if ! cmake --build "$BUILD_DIR"; then
  echo "test: build failed"
  echo "0 passed, 1 failed"
  exit 1
fi

passed=0
failed=0

echo "== lit"
lit_log="$(mktemp)"
"$LIT" -sv "$BUILD_DIR/test" 2>&1 | tee "$lit_log"
lit_rc=${PIPESTATUS[0]}
lit_pass=$(awk -F: '/^ *Passed *:/ {split($2, n, " "); print n[1]}' "$lit_log" | head -1)  # "Passed: 5" or, padded, "Passed     : 5 (90%)"
lit_fail=$(awk '/^ *(Failed|Unresolved|Timed Out|Unexpectedly Passed) *:/ {n += $(NF-1)} END {print n + 0}' "$lit_log")
passed=$((passed + ${lit_pass:-0}))
failed=$((failed + ${lit_fail:-0}))
if [[ $lit_rc -ne 0 && ${lit_fail:-0} -eq 0 ]]; then failed=$((failed + 1)); fi
rm -f "$lit_log"

echo "== ctest"
ct_log="$(mktemp)"
ctest --test-dir "$BUILD_DIR" --output-on-failure 2>&1 | tee "$ct_log"
ct_rc=${PIPESTATUS[0]}
if grep -q "No tests were found" "$ct_log"; then
  ct_total=0; ct_fail=0
else
  # The last summary is ctest's own: a failing runtime-aarch64-under-qemu prints its inner one too.
  ct_total=$(grep -oE 'tests failed out of [0-9]+' "$ct_log" | tail -n1 | grep -oE '[0-9]+$' || echo 0)
  ct_fail=$(grep -oE '[0-9]+ tests failed out of' "$ct_log" | tail -n1 | grep -oE '^[0-9]+' || echo 0)
fi
passed=$((passed + ${ct_total:-0} - ${ct_fail:-0}))
failed=$((failed + ${ct_fail:-0}))
if [[ $ct_rc -ne 0 && ${ct_fail:-0} -eq 0 ]]; then failed=$((failed + 1)); fi
rm -f "$ct_log"

echo "== summary"
echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
