#!/usr/bin/env bash
# The whole test suite under AddressSanitizer + UndefinedBehaviorSanitizer: configures a separate build
# (default build-asan) whose compiler, runtime, tools and gtests are instrumented, then runs
# scripts/test.sh on it. Any report is fatal (UBSan does not recover, ASan aborts), so a finding shows as
# a failed test with the sanitizer's stack in its log. Prints test.sh's "N passed, N failed" line.
#
#   Usage: scripts/sanitize.sh            Environment: ASAN_BUILD_DIR (default: build-asan)
#          scripts/sanitize.sh --thread   ThreadSanitizer on the runtime alone (its thread pool, sessions
#                                         and their tests: the standalone runtime build in build-tsan)
#
# What is and is not instrumented: everything built from this repository for the host. Not LLVM/MLIR
# (Debian's libMLIR.so), not the code mie-compile generates (it is compiled for the package, and the
# microkernel bitcode linked into it is built with its own flags), not the aarch64 cross runtime. The
# Python tests load the instrumented runtime into an uninstrumented interpreter, so they run it with
# the shared ASan runtime preloaded (the `python-asan` wrapper this script writes into the build); every
# executable links that same shared runtime, because the tools Python starts inherit the preload and a
# statically linked second runtime aborts.
# Leak checking is on for our executables and off inside Python (the interpreter's own allocations).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export CCACHE_BASEDIR="$ROOT"

if [[ "${1:-}" == "--thread" ]]; then
  # The runtime is the only multi-threaded part (the compiler's threads are LLVM's). Its standalone
  # build needs no LLVM, so TSan instruments all of it, gtests included.
  TSAN_DIR="${TSAN_BUILD_DIR:-$ROOT/build-tsan}"
  flags="-fsanitize=thread -g -O1"
  cmake -S "$ROOT/runtime" -B "$TSAN_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release "-DCMAKE_C_FLAGS=$flags" \
    "-DCMAKE_CXX_FLAGS=$flags" -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=thread \
    -DCMAKE_SHARED_LINKER_FLAGS=-fsanitize=thread >/dev/null
  cmake --build "$TSAN_DIR"
  export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1${TSAN_OPTIONS:+:$TSAN_OPTIONS}"
  ctest --test-dir "$TSAN_DIR" --output-on-failure
  exit
fi
BUILD_DIR="${ASAN_BUILD_DIR:-$ROOT/build-asan}"
VENV_PY="${MIE_VENV:-$ROOT/.venv}/bin/python"
if [[ ! -x "$VENV_PY" ]]; then
  echo "sanitize: $VENV_PY not found; run scripts/setup.sh first" >&2
  exit 2
fi
ASAN_RT="$(clang-22 -print-file-name=libclang_rt.asan-x86_64.so)"
if [[ ! -f "$ASAN_RT" ]]; then
  echo "sanitize: the shared ASan runtime of clang-22 is missing ($ASAN_RT)" >&2
  exit 2
fi

mkdir -p "$BUILD_DIR"
cat > "$BUILD_DIR/python-asan" <<EOF
#!/bin/sh
# The test venv's interpreter with the shared ASan runtime loaded first (see scripts/sanitize.sh).
LD_PRELOAD="$ASAN_RT\${LD_PRELOAD:+:\$LD_PRELOAD}" ASAN_OPTIONS="detect_leaks=0:\${ASAN_OPTIONS:-}" exec "$VENV_PY" "\$@"
EOF
chmod +x "$BUILD_DIR/python-asan"

cmake -S "$ROOT" -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  "-DLLVM_USE_SANITIZER=Address;Undefined" -DMIE_BUILD_AARCH64_RUNTIME=OFF \
  "-DCMAKE_EXE_LINKER_FLAGS=-shared-libasan -Wl,-rpath,$(dirname "$ASAN_RT")" \
  "-DCMAKE_SHARED_LINKER_FLAGS=-shared-libasan" \
  -DMIE_PYTHON="$BUILD_DIR/python-asan" >/dev/null

# abort_on_error: a report ends the process with a signal the tests cannot mistake for a clean exit.
# allow_user_poisoning=0: LLVM's BumpPtrAllocator poisons its free space from the inline code of our
# instrumented objects, and Debian's uninstrumented libMLIR.so then hands out that memory without
# unpoisoning it, so every parsed file location read as a use-after-poison (in MLIR's parser).
export ASAN_OPTIONS="abort_on_error=1:allow_user_poisoning=0:detect_stack_use_after_return=1:strict_string_checks=1:check_initialization_order=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
BUILD_DIR="$BUILD_DIR" "$ROOT/scripts/test.sh"
