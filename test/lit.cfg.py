# -*- Python -*-
import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "MIE"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.mie_obj_root, "test")
config.excludes = ["CMakeLists.txt", "README.md", "lit.cfg.py", "lit.site.cfg.py", "Inputs", "Utils"]

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%mie_src_root", config.mie_src_root))
config.substitutions.append(("%mie_obj_root", config.mie_obj_root))
# Debian's interpreter: it has numpy and onnx (the pyenv python3 on PATH does not).
config.substitutions.append(("%python", config.python_executable))
llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()

# Our tools first, then LLVM's (FileCheck, not, count).
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.mie_tools_dir, append_path=True)
# A compilation that names no target makes a package for every x86-64 machine (x86-64 and
# x86-64-avx512, plus x86-64-amx under reduced precision); the tests that do not name one check the
# AVX2 baseline's code, compiled once, as they did before that default. test/e2e/default-targets.test
# checks the default itself (with this variable unset).
config.environment["MIE_COMPILE_TARGET"] = "x86-64"
tool_dirs = [config.mie_tools_dir, config.llvm_tools_dir]
tools = ["ms-opt", "mie-compile", "mie-sign"]
llvm_config.add_tool_substitutions(tools, tool_dirs)

# End-to-end tests: mie-run for the host; for aarch64 packages, the cross-built mie-run under qemu.
tools.append("mie-run")
llvm_config.add_tool_substitutions(["mie-run"], tool_dirs)
if config.aarch64_runtime_dir and config.qemu_aarch64:
    config.available_features.add("aarch64-runtime")
    config.substitutions.append(
        ("%mie-run-aarch64",
         "%s -L /usr/aarch64-linux-gnu %s/bin/mie-run" % (config.qemu_aarch64,
                                                         config.aarch64_runtime_dir)))

# Tests that run AVX-512 (or AMX) code need a host that has it (those targets are always compiled).
try:
    with open("/proc/cpuinfo") as cpuinfo:
        flags = cpuinfo.read()
        if " avx512f" in flags:
            config.available_features.add("avx512")
        # The x86-64-amx target's code runs where the CPU has AMX-BF16 (Linux grants the tile state
        # to any process that asks, on such a CPU).
        # x86-64-avx512-vnni (and the integer convolutions of x86-64-amx) need AVX512-VNNI.
        if " avx512f" in flags and " avx512_vnni" in flags:
            config.available_features.add("vnni")
        if " amx_bf16" in flags and " amx_tile" in flags and " avx512_bf16" in flags:
            config.available_features.add("amx")
except OSError:
    pass

# cuda targets: cubins need the CUDA toolkit's ptxas (docs/cuda.md); where there is one, the PTX of
# the generated kernels is checked with it too. No GPU is needed for either.
ptxas = os.path.join(os.environ.get("CUDA_ROOT", "/usr/local/cuda"), "bin", "ptxas")
if os.access(ptxas, os.X_OK):
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))
