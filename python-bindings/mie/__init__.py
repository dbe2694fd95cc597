"""Python interface to the mie compiler and runtime.

    import mie
    package = mie.compile("model.onnx", "model.mie")   # for every x86-64 machine
    session = mie.load(package, threads=2)
    outputs = session.run({"input": x})          # dict of numpy arrays

Running goes through the native module `mie._native` (nanobind over the runtime's C API, the runtime
linked in statically: no LLVM/MLIR, no libmie_rt.so to find). It comes with the mie-runtime wheel
(`pip install ./python-bindings`, docs/python.md) or, in a source checkout, from the build tree
(<build>/python-bindings/mie, found through MIE_BUILD_DIR or build/ next to python-bindings/).

Compilation runs the same C++ pipeline as the `mie-compile` tool by starting that tool (so Python and
the command line give identical packages; the runtime wheel holds no compiler). It is looked for in the
MIE_COMPILE environment variable, the build tree (build/bin) and PATH.
"""
import os
import shutil
import subprocess
import sys
import tempfile
import warnings

__all__ = ["MieError", "MieWarning", "Session", "TensorInfo", "compile", "load", "__version__"]

_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# The build tree: MIE_BUILD_DIR, else build/ when this file is in a checkout (python-bindings/mie);
# none for an installed wheel.
_BUILD = os.environ.get("MIE_BUILD_DIR") or (
    os.path.join(_ROOT, "build")
    if os.path.exists(os.path.join(_ROOT, "runtime", "include", "mie", "mie_rt.h")) else None)


def _import_native():
    """mie._native: installed beside this file (the wheel), else built in the build tree of this
    source checkout, whose mie/ directory is then added to this package's search path."""
    try:
        from . import _native
        return _native
    except ImportError as error:
        first = error
    built = os.path.join(_BUILD, "python-bindings", "mie") if _BUILD else None
    if built and os.path.isdir(built) and built not in __path__:
        __path__.append(built)
        try:
            from . import _native
            return _native
        except ImportError as error:
            first = error
    raise ImportError(
        f"mie's native module (mie._native) is missing for Python {sys.version_info[0]}."
        f"{sys.version_info[1]} ({first}): install the runtime wheel (pip install ./python-bindings), "
        "or build the project with nanobind in MIE_PYTHON's environment (scripts/setup.sh) and set "
        "MIE_BUILD_DIR to the build directory") from first


_native = _import_native()

__version__ = _native.__version__

MieError = _native.MieError
MieError.__module__ = "mie"
MieError.__doc__ = "A compilation or runtime error, with the compiler's or runtime's own message."
Session = _native.Session
TensorInfo = _native.TensorInfo


class MieWarning(UserWarning):
    """A compiler warning (a symbolic input dim compiled for its default size, a OneHotEncoder
    that gives zeros for unknown categories, ...), with the compiler's own message."""


# --------------------------------------------------------------------------------------------
# Compilation
# --------------------------------------------------------------------------------------------

def _compiler():
    for candidate in (os.environ.get("MIE_COMPILE"),
                      os.path.join(_BUILD, "bin", "mie-compile") if _BUILD else None,
                      shutil.which("mie-compile")):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    raise MieError("mie-compile not found (the mie-runtime wheel has no compiler): build the "
                   "project, put mie-compile on PATH or set MIE_COMPILE")


def compile(model, output=None, target=None, emit="package", extra_args=(), precision="fp32",
            keep_fp32=(), force_reduced=(), quantize_method=None, accuracy_budget=None,
            calibration=None, specialize=None, dim_ranges=None):
    """Compiles `model` (an .onnx or ms-dialect .mlir path).

    `target` is one target name or, for a package, a comma-separated list ("x86-64,x86-64-avx512"):
    one code object each, the runtime runs the best one the machine supports; "host" is this
    machine's best. None: mie-compile's default ($MIE_COMPILE_TARGET, else a package for every
    x86-64 machine, the runtime picking the best code where it is loaded).
    `precision` is fp32, fp16, bf16, mixed or auto; `keep_fp32` / `force_reduced` list ONNX op types
    or node names that override it; `quantize_method="dynamic_fp16"` stores the weights as fp16;
    under auto, `accuracy_budget` (default 1e-2) and `calibration` (a directory of input sets)
    (docs/precision.md). They are mie-compile's options of the same names: the same pipeline runs.
    `dim_ranges` (a dict: symbolic dim name -> (lo, hi), one for every symbol) keeps the model's
    dynamic axes: one package with code for every shape in the ranges; `specialize` (name ->
    sizes) adds code for every combination of the sizes (alone: a package for just those shapes,
    the sizes' span as each range); docs/dynamic-shapes.md. Without either, a dynamic-axes model
    gets mie-compile's default: code for every shape, each symbol over 1..512, or where part of
    the model cannot take its sizes at run time yet, one size per symbol (a MieWarning says why).
    With `output`, writes it there and returns the path; without, returns the artifact's bytes.
    Raises MieError with the compiler's diagnostics (which name the ONNX node) on failure; the
    compiler's warnings become MieWarning (`warnings.warn`).

    This runs the `mie-compile` tool in a subprocess (MIE_COMPILE, build/bin or PATH): the runtime
    wheel carries no compiler, so the tool must be installed or built.
    """
    with tempfile.TemporaryDirectory(prefix="mie-") as tmp:
        path = output or os.path.join(tmp, "out")
        cmd = [_compiler(), os.fspath(model), "-o", os.fspath(path), f"--emit={emit}",
               f"--precision={precision}"]
        if target is not None:
            cmd.append(f"--target={target}")
        if keep_fp32:
            cmd.append("--keep-fp32=" + ",".join(keep_fp32))
        if force_reduced:
            cmd.append("--force-reduced=" + ",".join(force_reduced))
        if quantize_method:
            cmd.append(f"--quantize-method={quantize_method}")
        if accuracy_budget is not None:
            cmd.append(f"--accuracy-budget={accuracy_budget!r}")
        if calibration is not None:
            cmd.append(f"--calibration={os.fspath(calibration)}")
        if specialize or dim_ranges:
            cmd.append("--symbolic-dims")
        if specialize:
            cmd += [f"--specialize={name}=" + ",".join(str(int(v)) for v in values)
                    for name, values in specialize.items()]
        for name, (lo, hi) in (dim_ranges or {}).items():
            cmd.append(f"--dim-range={name}={int(lo)}..{int(hi)}")
        cmd += list(extra_args)
        result = subprocess.run(cmd, capture_output=True, text=True)
        if result.returncode != 0:
            raise MieError(result.stderr.strip() or f"mie-compile exited with {result.returncode}")
        # A successful compile may still have said something the caller should hear.
        for line in result.stderr.splitlines():
            if ": warning: " in line:
                warnings.warn(line.split(": warning: ", 1)[1], MieWarning, stacklevel=2)
        if output:
            return output
        with open(path, "rb") as f:
            return f.read()


def load(path, threads=0, target=None, trusted_keys=(), require_signature=False):
    """Opens and validates the package at `path` and creates a session on it (a Session).

    `threads`: worker threads including the caller (0: one per core). `target`: a target name of the
    package or a kind ("cpu", "cuda"); None: $MIE_TARGET, else the best one for this machine.
    `trusted_keys` (public key files NAME.pub, or 32-byte keys) and `require_signature` are the
    signature policy of docs/security.md: with keys, a signed package must be signed by one of them;
    with `require_signature`, an unsigned package is refused too (MIE_TRUSTED_KEYS in the environment
    adds keys and requires a signature whatever is passed here).

    A Session runs one call at a time: run(), set_threads(), the properties and close() from several
    Python threads are serialized by one lock per session (close() waits for a run in progress; a
    closed session raises MieError); the GIL is released while a run computes, so sessions on other
    threads run in parallel. Use it as a context manager to close it.
    """
    return Session(path, threads=threads, target=target, trusted_keys=trusted_keys,
                   require_signature=require_signature)
