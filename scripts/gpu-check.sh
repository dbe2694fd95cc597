#!/usr/bin/env bash
# The GPU check, for a machine with an NVIDIA GPU (< 5 minutes there): builds (Release), runs the runtime's
# gtests including the ones that need the GPU (CudaGpu.*: the generated-kernel test model, and the cuBLASLt /
# cuDNN library calls against a host reference), then, when mie-compile can target CUDA, compiles the zoo
# models for x86-64 and cuda:sm_90 (GEMMs on cuBLASLt, convolutions on cuDNN), runs them on the GPU and on the
# CPU and compares both with onnxruntime (its CUDA provider where installed) and PyTorch (eager and
# torch.compile, where torch with CUDA and onnx2torch are installed): a table of latency, throughput at batch
# 1 and 32 where the model allows, the libraries used, and the largest error. Whatever cannot be done is
# skipped with the reason.
#
# Usage: scripts/gpu-check.sh [--build-dir DIR] [--models-dir DIR] [--model NAME=PATH.onnx]... [--models a,b]
#                             [--target LIST] [--batches 1,32] [--runs N] [--packages DIR]
#                             [--cuda-libraries LIST] [--naive] [--gtest-source DIR] [--model-timeout S]
#                             [--torch-compile a,b|all|none]
#   --build-dir   build directory (default: build-gpu; an existing configured one is reused as it is)
#   --models-dir  where the zoo lives, one folder per model with model.onnx (default: ~/.cache/mie-models)
#   --model       a model by path (repeatable; replaces the zoo list)
#   --models      which zoo models (default: tiny_mlp,tiny_cnn,resnet18,resnet50,mobilenet_v2,bert_tiny,bert_base)
#   --packages    run packages compiled elsewhere (benchmarks/gpu_compare.py --compile-only, NAME_bBATCH.mie)
#                 instead of compiling: for a GPU machine without LLVM/MLIR 22 (the ONNX models are still read)
#   --cuda-libraries  mie-compile's --cuda-libraries (default cublaslt,cudnn; none: generated kernels only)
#   --naive       also time each model compiled with --cuda-libraries=none (generated kernels) next to it
#   --gtest-source  GoogleTest's sources for the runtime tests where libgtest-dev is not installed
#                 (benchmarks/gpu_bundle.py carries them to a GPU machine that cannot install packages)
#   --torch-compile  the models timed with torch.compile too (default all; it takes a minute or more for
#                 each model and batch)
#   --model-timeout  seconds one model may take (compiling, running, the peers; default 300): each model runs
#                 in a process of its own, so a crash or a hang costs that model's row only
# Environment: PYTHON (default python3), MIE_CUDA_DRIVER (another libcuda, as the runtime reads it),
#   MIE_CUBLASLT_LIBRARY / MIE_CUDNN_LIBRARY (other cuBLASLt / cuDNN files). Where the driver, cuBLASLt or
#   cuDNN is not on the loader's path, the script looks in /usr/local/nvidia, the CUDA toolkit and the
#   nvidia-* wheels of $PYTHON's site-packages (where PyTorch installs them) and adds what it finds to
#   LD_LIBRARY_PATH.
# Exit status: 0 all ran and passed, 1 a build, test or comparison failed, 2 no GPU here.
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="$ROOT/build-gpu"
MODELS_DIR="${HOME:-/root}/.cache/mie-models"
ZOO="tiny_mlp,tiny_cnn,resnet18,resnet50,mobilenet_v2,bert_tiny,bert_base"
TARGET="x86-64,cuda:sm_90"
BATCHES="1,32"
RUNS=20
MODELS=()
PACKAGES=""
PYTHON="${PYTHON:-python3}"
LIBRARIES="cublaslt,cudnn"
NAIVE=()
GTEST_SOURCE=""
MODEL_TIMEOUT=300
TORCH_COMPILE=all

while [[ $# -gt 0 ]]; do
  case "$1" in
    --build-dir) BUILD_DIR="$(realpath -m "$2")"; shift 2 ;;
    --models-dir) MODELS_DIR="$2"; shift 2 ;;
    --model) MODELS+=("$2"); shift 2 ;;
    --models) ZOO="$2"; shift 2 ;;
    --target) TARGET="$2"; shift 2 ;;
    --batches) BATCHES="$2"; shift 2 ;;
    --runs) RUNS="$2"; shift 2 ;;
    --packages) PACKAGES="$(realpath -m "$2")"; shift 2 ;;
    --cuda-libraries) LIBRARIES="$2"; shift 2 ;;
    --naive) NAIVE=(--naive); shift ;;
    --gtest-source) GTEST_SOURCE="$(realpath -m "$2")"; shift 2 ;;
    --model-timeout) MODEL_TIMEOUT="$2"; shift 2 ;;
    --torch-compile) TORCH_COMPILE="$2"; shift 2 ;;
    -h|--help) sed -n '2,/^set /p' "$0" | grep '^#' | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "gpu-check: unknown argument '$1' (see --help)" >&2; exit 1 ;;
  esac
done

failures=()
skipped=()
no_gpu() {
  echo "gpu-check: no GPU: $1"
  echo "gpu-check: nothing was checked on a GPU (exit 2)"
  exit 2
}
step() { echo; echo "== $*"; }

# 1. A quick look before building: without a driver there is nothing to check. Libraries the loader does not
# find by name are looked for where drivers and pip wheels put them.
step "GPU"
add_library_dir() {  # NAME: the first folder holding NAME among the usual places, added to LD_LIBRARY_PATH
  ldconfig -p 2>/dev/null | grep -q "$1 " && return 0
  local places=(/usr/local/nvidia/lib64 /usr/local/nvidia/lib /usr/local/cuda/lib64 /usr/local/cuda/targets/*/lib)
  local site
  site="$("$PYTHON" -c 'import site; print(" ".join(site.getsitepackages()))' 2>/dev/null)"
  for d in $site; do [[ -d "$d/nvidia" ]] && places+=("$d/nvidia"); done
  local found
  found="$(find "${places[@]}" -name "$1" 2>/dev/null | head -1)"
  [[ -n "$found" ]] || return 1
  export LD_LIBRARY_PATH="$(dirname "$found")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  echo "$1: $(dirname "$found") (added to LD_LIBRARY_PATH)"
}
driver_found=0
[[ -z "${MIE_CUDA_DRIVER:-}" ]] && add_library_dir libcuda.so.1 && driver_found=1
[[ -z "${MIE_CUBLASLT_LIBRARY:-}" ]] && add_library_dir libcublasLt.so.13
[[ -z "${MIE_CUDNN_LIBRARY:-}" ]] && add_library_dir libcudnn.so.9
if [[ -z "${MIE_CUDA_DRIVER:-}" ]]; then
  if [[ $driver_found -eq 0 ]] && \
     ! compgen -G "/usr/lib*/libcuda.so.1" >/dev/null && ! compgen -G "/usr/lib*/*/libcuda.so.1" >/dev/null && \
     ! compgen -G "/usr/local/cuda*/compat/libcuda.so.1" >/dev/null; then
    no_gpu "no CUDA driver (libcuda.so.1 is not installed)"
  fi
  if command -v nvidia-smi >/dev/null; then
    if ! nvidia-smi -L 2>&1 | grep -q '^GPU '; then
      no_gpu "nvidia-smi lists no GPU ($(nvidia-smi -L 2>&1 | head -1))"
    fi
    nvidia-smi -L
  fi
else
  echo "driver: MIE_CUDA_DRIVER=$MIE_CUDA_DRIVER"
fi

# 2. Build: reuse a configured build directory; else the whole project where LLVM/MLIR 22 is installed
# (mie-compile then targets CUDA if it can), else the runtime alone (it needs no LLVM and no CUDA toolkit).
step "build ($BUILD_DIR)"
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
jobs="$(nproc 2>/dev/null || echo 4)"
if [[ ! -f "$BUILD_DIR/CMakeCache.txt" ]]; then
  if [[ -f /usr/lib/llvm-22/lib/cmake/mlir/MLIRConfig.cmake ]]; then
    cmake -S "$ROOT" -B "$BUILD_DIR" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
      -DMIE_PYTHON="$(command -v "$PYTHON")" >"$BUILD_DIR.configure.log" 2>&1 || {
      echo "gpu-check: configuring the project failed (last lines of $BUILD_DIR.configure.log):"
      tail -5 "$BUILD_DIR.configure.log"
      exit 1
    }
  else
    skipped+=("mie-compile: LLVM/MLIR 22 is not installed here; built the runtime alone")
    gtest=ON
    gtest_source=()
    [[ -n "$GTEST_SOURCE" ]] && gtest_source=(-DMIE_RT_GTEST_SOURCE_DIR="$GTEST_SOURCE")
    if [[ -z "$GTEST_SOURCE" && ! -f /usr/src/googletest/CMakeLists.txt && ! -f /usr/lib/x86_64-linux-gnu/cmake/GTest/GTestConfig.cmake && \
          ! -f /usr/lib/aarch64-linux-gnu/cmake/GTest/GTestConfig.cmake ]]; then
      gtest=OFF
      skipped+=("runtime gtests: GoogleTest is not installed (libgtest-dev)")
    fi
    mkdir -p "$BUILD_DIR"
    cmake -S "$ROOT/runtime" -B "$BUILD_DIR" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
      -DMIE_RT_BUILD_TESTS="$gtest" "${gtest_source[@]}" >"$BUILD_DIR/configure.log" 2>&1 || {
      echo "gpu-check: configuring the runtime failed (last lines of $BUILD_DIR/configure.log):"
      tail -5 "$BUILD_DIR/configure.log"
      exit 1
    }
  fi
fi
targets=(mie-run mie_rt)
grep -q 'mie_run_tests' "$BUILD_DIR"/build.ninja "$BUILD_DIR"/Makefile 2>/dev/null && targets+=(mie_run_tests)
grep -q '^CMAKE_PROJECT_NAME:STATIC=mie-compiler$' "$BUILD_DIR/CMakeCache.txt" && targets+=(mie-compile)
grep -q 'mie_rt_tests' "$BUILD_DIR"/build.ninja "$BUILD_DIR"/Makefile 2>/dev/null && targets+=(mie_rt_tests)
if ! cmake --build "$BUILD_DIR" -j "$jobs" --target "${targets[@]}" >"$BUILD_DIR/build.log" 2>&1; then
  echo "gpu-check: the build failed (last lines of $BUILD_DIR/build.log):"
  grep -E 'error|FAILED' "$BUILD_DIR/build.log" | head -10
  exit 1
fi
echo "built: ${targets[*]}"
MIE_RUN="$BUILD_DIR/bin/mie-run"

# 3. The runtime's own view of the device: what a session would use, or why there is none.
devices="$("$MIE_RUN" --devices 2>&1)"
echo "$devices"
if grep -q '^cuda: none: ' <<<"$devices"; then
  no_gpu "$(sed -n 's/^cuda: none: //p' <<<"$devices")"
fi

# 4. The runtime tests, the GPU ones included: on a machine with a GPU they must run, not skip.
step "runtime tests"
ran_tests=0
for name in mie_rt_tests mie_run_tests; do
  bin="$(find "$BUILD_DIR" -name "$name" -type f -perm -u+x 2>/dev/null | head -1)"
  [[ -n "$bin" ]] || continue
  ran_tests=1
  log="$BUILD_DIR/$name.log"
  "$bin" >"$log" 2>&1
  rc=$?
  echo "$name: $(grep -E '^\[  PASSED  \]' "$log" | tail -1) $(grep -E '^\[  (FAILED|SKIPPED) \] [0-9]+ test' "$log" | tr '\n' ' ')"
  if [[ $rc -ne 0 ]]; then
    failures+=("$name failed (see $log)")
    grep -E '^\[  FAILED  \] [A-Za-z]' "$log" | sort -u | head -10
  fi
done
if [[ $ran_tests -eq 0 ]]; then
  skipped+=("runtime gtests: not built")
else
  log="$BUILD_DIR/mie_rt_tests.log"
  if grep -q '^\[  SKIPPED \] CudaGpu' "$log"; then
    failures+=("the GPU gtests were skipped on a machine with a GPU: $(grep -A1 ': Skipped$' "$log" | tail -1)")
  elif grep -q '^\[       OK \] CudaGpu' "$log"; then
    echo "GPU gtests ran: $(grep -c '^\[       OK \] CudaGpu' "$log") passed"
  fi
  # The library path on the real cuBLASLt and cuDNN: everything else about it was checked with fakes only.
  if grep -q '^\[       OK \] CudaGpu.LibraryCallsOnTheDevice' "$log"; then
    echo "cuBLASLt/cuDNN library calls: ran on the GPU and matched the host reference"
  elif grep -q 'CudaGpu.LibraryCallsOnTheDevice' "$log"; then
    failures+=("the cuBLASLt/cuDNN gtest did not pass: $(grep -A2 'CudaGpu.LibraryCallsOnTheDevice' "$log" | grep -v '^\[ RUN' | head -2 | tr '\n' ' ')")
  fi
fi

# 5. The zoo on the GPU, when the compiler can target CUDA.
step "models ($TARGET)"
MIE_COMPILE="$BUILD_DIR/bin/mie-compile"
compare=()
[[ -n "$PACKAGES" ]] && compare=(--packages "$PACKAGES")
if [[ -z "$PACKAGES" && ! -x "$MIE_COMPILE" ]]; then
  skipped+=("models: no mie-compile in $BUILD_DIR (and no --packages)")
elif [[ -z "$PACKAGES" ]] && ! "$MIE_COMPILE" --help 2>&1 | grep -qi 'cuda'; then
  skipped+=("models: mie-compile --help lists no cuda targets (this build cannot compile for the GPU)")
elif ! "$PYTHON" -c 'import numpy, onnxruntime' 2>/dev/null; then
  skipped+=("models: $PYTHON lacks numpy or onnxruntime")
else
  if [[ ${#MODELS[@]} -eq 0 ]]; then
    IFS=, read -ra names <<<"$ZOO"
    for n in "${names[@]}"; do
      if [[ -f "$MODELS_DIR/$n/model.onnx" ]]; then MODELS+=("$n=$MODELS_DIR/$n/model.onnx")
      else skipped+=("model $n: no $MODELS_DIR/$n/model.onnx"); fi
    done
  fi
  if [[ ${#MODELS[@]} -eq 0 ]]; then
    skipped+=("models: none found (--models-dir, --model NAME=PATH)")
  else
    for model in "${MODELS[@]}"; do
      torch_compile=()
      [[ "$TORCH_COMPILE" == all || ",$TORCH_COMPILE," == *",${model%%=*},"* ]] || torch_compile=(--no-torch-compile)
      timeout --kill-after=10 "$MODEL_TIMEOUT" "$PYTHON" "$ROOT/benchmarks/gpu_compare.py" --build "$BUILD_DIR" \
        --work "$BUILD_DIR/gpu-check" --target "$TARGET" --batches "$BATCHES" --runs "$RUNS" \
        --cuda-libraries "$LIBRARIES" "${NAIVE[@]}" "${compare[@]}" "${torch_compile[@]}" "$model"
      rc=$?
      if [[ $rc -eq 124 || $rc -eq 137 ]]; then
        failures+=("model ${model%%=*}: did not finish within --model-timeout $MODEL_TIMEOUT s")
      elif [[ $rc -ne 0 ]]; then
        failures+=("model ${model%%=*}: failed to run or was outside the tolerance (exit $rc, table above)")
      fi
    done
  fi
fi

step "summary"
for s in "${skipped[@]}"; do echo "skipped: $s"; done
for f in "${failures[@]}"; do echo "FAILED: $f"; done
if [[ ${#failures[@]} -gt 0 ]]; then
  echo "gpu-check: ${#failures[@]} failure(s)"
  exit 1
fi
echo "gpu-check: ok"
exit 0
