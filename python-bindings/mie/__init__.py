"""Python interface to the mie compiler and runtime.

    import mie
    package = mie.compile("model.onnx", "model.mie")   # for every x86-64 machine
    session = mie.load(package, threads=2)
    outputs = session.run({"input": x})          # dict of numpy arrays

Compilation runs the same C++ pipeline as the `mie-compile` tool (this module starts that tool, so
Python and the command line give identical packages); running goes through the runtime's C API
(`libmie_rt.so`, no LLVM/MLIR) with ctypes. Locations, in this order: the MIE_COMPILE and
MIE_RT_LIBRARY environment variables, the build tree next to this file (build/bin, build/lib), PATH
and the system library path.
"""
import ctypes
import ctypes.util
import os
import re
import shutil
import subprocess
import tempfile
import threading
import warnings

import numpy as np

__all__ = ["MieError", "Session", "TensorInfo", "compile", "load"]

_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_BUILD = os.environ.get("MIE_BUILD_DIR", os.path.join(_ROOT, "build"))


class MieError(RuntimeError):
    """A compilation or runtime error, with the compiler's or runtime's own message."""


class MieWarning(UserWarning):
    """A compiler warning (a symbolic input dim compiled for its default size, a OneHotEncoder
    that gives zeros for unknown categories, ...), with the compiler's own message."""


# --------------------------------------------------------------------------------------------
# Compilation
# --------------------------------------------------------------------------------------------

def _compiler():
    for candidate in (os.environ.get("MIE_COMPILE"), os.path.join(_BUILD, "bin", "mie-compile"),
                      shutil.which("mie-compile")):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    raise MieError("mie-compile not found: build the project or set MIE_COMPILE")


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
    `specialize` (a dict: symbolic dim name -> sizes) keeps the model's dynamic axes: one package
    with code for every combination of the sizes, run at any of those shapes, the symbols checked
    against `dim_ranges` (name -> (lo, hi); default: the sizes' span); docs/dynamic-shapes.md.
    With `output`, writes it there and returns the path; without, returns the artifact's bytes.
    Raises MieError with the compiler's diagnostics (which name the ONNX node) on failure; the
    compiler's warnings become MieWarning (`warnings.warn`).
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
        if specialize:
            cmd.append("--symbolic-dims")
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


# --------------------------------------------------------------------------------------------
# Runtime (ctypes over mie_rt.h)
# --------------------------------------------------------------------------------------------

_DTYPES = {1: np.float32, 2: np.float16, 4: np.float64, 5: np.int8, 6: np.int16, 7: np.int32,
           8: np.int64, 9: np.uint8, 10: np.bool_,
           11: np.uint16, 12: np.uint32, 13: np.uint64}
_BF16 = 3
# The 8-bit and 4-bit floats and 4-bit and 2-bit integers (mie_dtype 14-23) have no numpy dtype of
# their own; ml_dtypes (which onnx depends on) names them, one byte per element as the runtime
# stores them.
_NARROW = {14: "float8_e4m3fn", 15: "float8_e4m3fnuz", 16: "float8_e5m2", 17: "float8_e5m2fnuz",
           18: "float8_e8m0fnu", 19: "float4_e2m1fn", 20: "int4", 21: "uint4", 22: "int2",
           23: "uint2"}


def _narrow_dtype(code, name):
    try:
        import ml_dtypes
    except ImportError as e:
        raise MieError(f"tensor '{name}': its element type ({_NARROW[code]}) needs the ml_dtypes "
                       "package") from e
    return np.dtype(getattr(ml_dtypes, _NARROW[code]))


class _TensorInfoC(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("dtype", ctypes.c_int), ("rank", ctypes.c_uint32),
                ("dims", ctypes.POINTER(ctypes.c_int64)), ("num_elements", ctypes.c_uint64),
                ("byte_size", ctypes.c_uint64)]


class _SessionOptionsC(ctypes.Structure):
    _fields_ = [("num_threads", ctypes.c_uint32), ("target", ctypes.c_char_p)]


class _TargetInfoC(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("kind", ctypes.c_char_p), ("arch", ctypes.c_char_p),
                ("features", ctypes.c_char_p), ("format", ctypes.c_char_p), ("entry", ctypes.c_char_p),
                ("abi_version", ctypes.c_uint32), ("arena_bytes", ctypes.c_uint64),
                ("code_size", ctypes.c_uint64), ("runnable_here", ctypes.c_int32)]


class _PackageOptionsC(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_uint32), ("num_trusted_keys", ctypes.c_uint32),
                ("trusted_keys", ctypes.c_void_p), ("require_signature", ctypes.c_int32)]


_lib = None


def _runtime():
    global _lib
    if _lib is not None:
        return _lib
    candidates = [os.environ.get("MIE_RT_LIBRARY"), os.path.join(_BUILD, "lib", "libmie_rt.so"),
                  ctypes.util.find_library("mie_rt")]
    for candidate in candidates:
        if candidate and (os.path.exists(candidate) or not os.path.isabs(candidate)):
            try:
                lib = ctypes.CDLL(candidate)
                break
            except OSError:
                continue
    else:
        raise MieError("libmie_rt.so not found: build the project or set MIE_RT_LIBRARY")
    p, u32 = ctypes.c_void_p, ctypes.c_uint32
    lib.mie_last_error.restype = ctypes.c_char_p
    lib.mie_package_open.argtypes = [ctypes.c_char_p, ctypes.POINTER(p)]
    lib.mie_package_options_init.argtypes = [ctypes.POINTER(_PackageOptionsC)]
    lib.mie_package_open_with_options.argtypes = [ctypes.c_char_p, ctypes.POINTER(_PackageOptionsC),
                                                  ctypes.POINTER(p)]
    lib.mie_public_key_read.argtypes = [ctypes.c_char_p, ctypes.c_char_p]
    lib.mie_package_close.argtypes = [p]
    for name in ("mie_package_num_inputs", "mie_package_num_outputs"):
        getattr(lib, name).argtypes = [p, ctypes.POINTER(u32)]
    for name in ("mie_package_input_info", "mie_package_output_info"):
        getattr(lib, name).argtypes = [p, u32, ctypes.POINTER(_TensorInfoC)]
    lib.mie_package_output_dynamic_dims.argtypes = [p, u32, ctypes.POINTER(u32),
                                                    ctypes.POINTER(ctypes.POINTER(u32))]
    lib.mie_session_output_shape.argtypes = [p, u32, ctypes.POINTER(u32),
                                             ctypes.POINTER(ctypes.POINTER(ctypes.c_int64))]
    lib.mie_package_num_symbols.argtypes = [p, ctypes.POINTER(u32)]
    lib.mie_package_symbol_info.argtypes = [p, u32, ctypes.POINTER(ctypes.c_char_p),
                                            ctypes.POINTER(ctypes.c_int64),
                                            ctypes.POINTER(ctypes.c_int64)]
    for name in ("mie_package_input_symbolic_dim", "mie_package_output_symbolic_dim"):
        getattr(lib, name).argtypes = [p, u32, u32, ctypes.POINTER(ctypes.c_char_p)]
    lib.mie_session_set_input_shapes.argtypes = [p, u32, ctypes.POINTER(u32),
                                                 ctypes.POINTER(ctypes.POINTER(ctypes.c_int64))]
    lib.mie_session_options_init.argtypes = [ctypes.POINTER(_SessionOptionsC)]
    lib.mie_session_create.argtypes = [p, ctypes.POINTER(_SessionOptionsC), ctypes.POINTER(p)]
    lib.mie_session_destroy.argtypes = [p]
    u64p = ctypes.POINTER(ctypes.c_uint64)
    lib.mie_session_run_sized.argtypes = [p, u32, ctypes.POINTER(p), u64p, u32, ctypes.POINTER(p), u64p]
    lib.mie_session_set_threads.argtypes = [p, u32]
    lib.mie_session_set_random_seed.argtypes = [p, ctypes.c_uint64]
    lib.mie_session_last_run_ns.argtypes = [p, ctypes.POINTER(ctypes.c_uint64)]
    lib.mie_session_target.argtypes = [p, ctypes.POINTER(ctypes.c_char_p)]
    lib.mie_session_device.argtypes = [p, ctypes.POINTER(ctypes.c_char_p)]
    lib.mie_package_num_targets.argtypes = [p, ctypes.POINTER(u32)]
    lib.mie_package_target_info.argtypes = [p, u32, ctypes.POINTER(_TargetInfoC)]
    lib.mie_package_target_check.argtypes = [p, u32, ctypes.POINTER(ctypes.c_int32),
                                             ctypes.POINTER(ctypes.c_char_p)]
    _lib = lib
    return lib


def _check(status):
    if status != 0:
        raise MieError(_runtime().mie_last_error().decode())


class TensorInfo:
    """Name, numpy dtype and shape of a package input or output. `dynamic_dims`: the dims of an
    output whose extent the model computes at run time (NonZero, Unique, ...); `shape` is then
    their upper bound, and run() returns arrays of the real shape."""

    def __init__(self, info, dynamic_dims=(), symbolic=None):
        self.name = info.name.decode()
        if info.dtype == _BF16:
            raise MieError(f"tensor '{self.name}': bf16 has no numpy dtype")
        if info.dtype in _NARROW:
            self.dtype = _narrow_dtype(info.dtype, self.name)
        elif info.dtype in _DTYPES:
            self.dtype = np.dtype(_DTYPES[info.dtype])
        else:
            raise MieError(f"tensor '{self.name}': unknown element type {info.dtype} (a runtime "
                           "newer than these bindings?)")
        # 4-bit and 2-bit elements: the bits a byte may use (the rest must be 0).
        self.value_bits = {19: 4, 20: 4, 21: 4, 22: 2, 23: 2}.get(info.dtype, 0)
        # A symbolic dim (a model compiled with --symbolic-dims --specialize) is its symbol's name,
        # or for an output the expression of the symbols it equals ("batch * seq"), as
        # onnxruntime's get_inputs() shows dynamic axes.
        self.shape = tuple(symbolic[i] if symbolic and symbolic[i] else info.dims[i]
                           for i in range(info.rank))
        self.dynamic_dims = tuple(dynamic_dims)

    def __repr__(self):
        dynamic = f", dynamic_dims={self.dynamic_dims}" if self.dynamic_dims else ""
        return f"TensorInfo({self.name!r}, {self.dtype}, {self.shape}{dynamic})"


def _thread_count(threads):
    """`threads` checked as the C API's uint32 count (0: one per core) before ctypes wraps it: a
    negative or huge value would otherwise become another count silently."""
    if isinstance(threads, bool) or not isinstance(threads, (int, np.integer)):
        raise MieError(f"threads must be an integer >= 0 (0: one per core), got {threads!r}")
    if threads < 0 or threads > 0xFFFFFFFF:
        raise MieError(f"threads must be an integer >= 0 (0: one per core), got {threads}")
    return int(threads)


def _trusted_keys(keys):
    """The public keys as one buffer of 32-byte keys: each a key file path (NAME.pub from
    `mie-sign keygen`) or the key's 32 raw bytes."""
    if isinstance(keys, (str, bytes, os.PathLike)):
        keys = [keys]
    out = b""
    for key in keys:
        if isinstance(key, (bytes, bytearray)) and len(key) == 32:
            out += bytes(key)
        elif isinstance(key, (str, os.PathLike)):
            buf = ctypes.create_string_buffer(32)
            _check(_runtime().mie_public_key_read(os.fsencode(key), buf))
            out += buf.raw
        else:
            raise MieError(f"trusted key {key!r}: expected a public key file path or 32 bytes")
    return out


class Session:
    """A loaded, validated package with its arena and threads, ready to run.

    `trusted_keys` (public key files or 32-byte keys) and `require_signature` are the signature
    policy of docs/security.md: with keys, a signed package must be signed by one of them; with
    `require_signature`, an unsigned package is refused too (MIE_TRUSTED_KEYS in the environment
    adds keys and requires a signature whatever is passed here).

    One session runs one call at a time: run(), set_threads() and close() from several Python
    threads are serialized (close() waits for a run in progress; a closed session raises)."""

    def __init__(self, path, threads=0, target=None, trusted_keys=(), require_signature=False):
        threads = _thread_count(threads)
        lib = _runtime()
        self._lock = threading.Lock()
        self._package = ctypes.c_void_p()
        self._session = None
        keys = _trusted_keys(trusted_keys)
        package_options = _PackageOptionsC()
        _check(lib.mie_package_options_init(ctypes.byref(package_options)))
        key_buffer = ctypes.create_string_buffer(keys, max(len(keys), 1))
        package_options.num_trusted_keys = len(keys) // 32
        package_options.trusted_keys = ctypes.cast(key_buffer, ctypes.c_void_p) if keys else None
        package_options.require_signature = 1 if require_signature else 0
        _check(lib.mie_package_open_with_options(os.fsencode(path), ctypes.byref(package_options),
                                                 ctypes.byref(self._package)))
        self.symbols = self._symbols()
        self.inputs = self._infos(lib.mie_package_num_inputs, lib.mie_package_input_info,
                                  symbolic_fn=lib.mie_package_input_symbolic_dim)
        self.outputs = self._infos(lib.mie_package_num_outputs, lib.mie_package_output_info,
                                   dynamic=True, symbolic_fn=lib.mie_package_output_symbolic_dim)
        options = _SessionOptionsC()
        _check(lib.mie_session_options_init(ctypes.byref(options)))
        options.num_threads = threads
        options.target = target.encode() if target else None
        session = ctypes.c_void_p()
        _check(lib.mie_session_create(self._package, ctypes.byref(options), ctypes.byref(session)))
        self._session = session

    def _symbols(self):
        """The package's symbolic dims: name -> (min, max), the values a run may give them."""
        lib = _runtime()
        count = ctypes.c_uint32()
        _check(lib.mie_package_num_symbols(self._package, ctypes.byref(count)))
        out = {}
        for i in range(count.value):
            name, lo, hi = ctypes.c_char_p(), ctypes.c_int64(), ctypes.c_int64()
            _check(lib.mie_package_symbol_info(self._package, i, ctypes.byref(name),
                                               ctypes.byref(lo), ctypes.byref(hi)))
            out[name.value.decode()] = (lo.value, hi.value)
        return out

    def _named(self, expr):
        """An expression over s0, s1, ... with the symbols' names."""
        names = list(self.symbols)
        return re.sub(r"\bs(\d+)\b", lambda m: names[int(m.group(1))], expr)

    def _infos(self, count_fn, info_fn, dynamic=False, symbolic_fn=None):
        count = ctypes.c_uint32()
        _check(count_fn(self._package, ctypes.byref(count)))
        infos = []
        for i in range(count.value):
            info = _TensorInfoC()
            _check(info_fn(self._package, i, ctypes.byref(info)))
            symbolic = None
            if self.symbols:
                symbolic = []
                for d in range(info.rank):
                    expr = ctypes.c_char_p()
                    _check(symbolic_fn(self._package, i, d, ctypes.byref(expr)))
                    symbolic.append(self._named(expr.value.decode()))
            dims = ()
            if dynamic:
                n = ctypes.c_uint32()
                ptr = ctypes.POINTER(ctypes.c_uint32)()
                _check(_runtime().mie_package_output_dynamic_dims(self._package, i, ctypes.byref(n),
                                                                  ctypes.byref(ptr)))
                dims = tuple(ptr[j] for j in range(n.value))
            infos.append(TensorInfo(info, dims, symbolic))
        return infos

    # Every call into the C API holds the lock: close() on another thread must not free the session
    # between the check that it is open and the call.
    @property
    def target(self):
        name = ctypes.c_char_p()
        with self._lock:
            _check(_runtime().mie_session_target(self._live(), ctypes.byref(name)))
            return name.value.decode()

    @property
    def device(self):
        """What the session runs on: "cpu", or the CUDA device of a cuda target
        ("NVIDIA H200, sm_90, device 0")."""
        name = ctypes.c_char_p()
        with self._lock:
            _check(_runtime().mie_session_device(self._live(), ctypes.byref(name)))
            return name.value.decode()

    @property
    def targets(self):
        """Every target of the package: dicts with name, kind, arch and, for this host, runnable and
        reason (why it cannot run here; "" when it can). Automatic selection prefers a runnable cuda
        target, else the most specialized cpu target; `target=` at load forces one."""
        lib = _runtime()
        out = []
        with self._lock:
            self._live()
            count = ctypes.c_uint32()
            _check(lib.mie_package_num_targets(self._package, ctypes.byref(count)))
            for i in range(count.value):
                info = _TargetInfoC()
                _check(lib.mie_package_target_info(self._package, i, ctypes.byref(info)))
                runnable, reason = ctypes.c_int32(), ctypes.c_char_p()
                _check(lib.mie_package_target_check(self._package, i, ctypes.byref(runnable),
                                                    ctypes.byref(reason)))
                out.append({"name": info.name.decode(), "kind": info.kind.decode(),
                            "arch": info.arch.decode(), "runnable": bool(runnable.value),
                            "reason": reason.value.decode()})
        return out

    @property
    def last_run_ms(self):
        ns = ctypes.c_uint64()
        with self._lock:
            _check(_runtime().mie_session_last_run_ns(self._live(), ctypes.byref(ns)))
        return ns.value / 1e6

    def _live(self):
        if not self._session:
            raise MieError("session is closed")
        return self._session

    def set_threads(self, threads):
        threads = _thread_count(threads)
        with self._lock:
            _check(_runtime().mie_session_set_threads(self._live(), threads))

    def set_random_seed(self, seed):
        """Makes the following runs draw the same random numbers (RandomUniform, RandomNormal,
        Bernoulli, Multinomial, Dropout in training mode) as any session given `seed` (an integer in
        [0, 2**64)) after as many runs. Without it every session draws its own (docs/random.md)."""
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
            raise MieError(f"seed must be an integer in [0, 2**64), got {seed!r}")
        with self._lock:
            _check(_runtime().mie_session_set_random_seed(self._live(), seed))

    def run(self, inputs):
        """Runs once. `inputs`: dict name -> array, or a list in package order. Returns a dict of
        output arrays. Shapes and dtypes must match the package exactly (no implicit casts)."""
        if not isinstance(inputs, dict):
            inputs = list(inputs)
            if len(inputs) != len(self.inputs):
                raise MieError(f"expected {len(self.inputs)} inputs in package order ("
                               + ", ".join(i.name for i in self.inputs) + f"), got {len(inputs)}")
            inputs = {info.name: value for info, value in zip(self.inputs, inputs)}
        missing = [i.name for i in self.inputs if i.name not in inputs]
        unknown = sorted(set(inputs) - {i.name for i in self.inputs})
        if missing or unknown:
            raise MieError(f"inputs missing: {missing}, unknown: {unknown}; expected "
                           + ", ".join(f"{i.name} {i.dtype}{list(i.shape)}" for i in self.inputs))
        arrays = []
        for info in self.inputs:
            # np.ascontiguousarray would make a 0-d (scalar) input 1-d.
            array = np.asarray(inputs[info.name], order="C")
            # Symbolic dims: the runtime checks the shapes when they are bound, below.
            if array.dtype != info.dtype or (not self.symbols and array.shape != info.shape):
                raise MieError(f"input '{info.name}': expected {info.dtype}{list(info.shape)}, "
                               f"got {array.dtype}{list(array.shape)}")
            if info.value_bits and (array.view(np.uint8) >> info.value_bits).any():
                raise MieError(f"input '{info.name}': {info.dtype} bytes must hold the value in "
                               f"their low {info.value_bits} bits and 0 above")
            arrays.append(array)
        in_ptrs = (ctypes.c_void_p * max(len(arrays), 1))(*[a.ctypes.data for a in arrays])
        in_sizes = (ctypes.c_uint64 * max(len(arrays), 1))(*[a.nbytes for a in arrays])
        # One lock for the bind and the run: another thread's shapes must not come between them.
        with self._lock:
            shapes = self._bind([a.shape for a in arrays]) if self.symbols else \
                [info.shape for info in self.outputs]
            outputs = [np.empty(shape, info.dtype) for shape, info in zip(shapes, self.outputs)]
            out_ptrs = (ctypes.c_void_p * len(outputs))(*[o.ctypes.data for o in outputs])
            # The runtime checks every buffer's size against the package, whatever was checked above.
            out_sizes = (ctypes.c_uint64 * len(outputs))(*[o.nbytes for o in outputs])
            _check(_runtime().mie_session_run_sized(self._live(), len(arrays), in_ptrs, in_sizes,
                                                    len(outputs), out_ptrs, out_sizes))
            for i, info in enumerate(self.outputs):
                if info.dynamic_dims:
                    outputs[i] = self._real_shape(i, outputs[i])
        return {info.name: out for info, out in zip(self.outputs, outputs)}

    def _bind(self, shapes):
        """Binds the symbols to the input `shapes` (the runtime names the input, dim and symbol
        that do not fit) and returns the output shapes they give."""
        lib = _runtime()
        ranks = (ctypes.c_uint32 * max(len(shapes), 1))(*[len(s) for s in shapes])
        dims = [(ctypes.c_int64 * max(len(s), 1))(*s) for s in shapes]
        pointers = (ctypes.POINTER(ctypes.c_int64) * max(len(shapes), 1))(
            *[ctypes.cast(d, ctypes.POINTER(ctypes.c_int64)) for d in dims])
        _check(lib.mie_session_set_input_shapes(self._live(), len(shapes), ranks, pointers))
        out = []
        for i in range(len(self.outputs)):
            rank = ctypes.c_uint32()
            ptr = ctypes.POINTER(ctypes.c_int64)()
            _check(lib.mie_session_output_shape(self._session, i, ctypes.byref(rank),
                                                ctypes.byref(ptr)))
            out.append(tuple(ptr[j] for j in range(rank.value)))
        return out

    def _real_shape(self, index, buffer):
        """An output with data-dependent dims: the run's real shape, whose elements the runtime
        left dense at the start of the bound-sized buffer."""
        rank = ctypes.c_uint32()
        dims = ctypes.POINTER(ctypes.c_int64)()
        _check(_runtime().mie_session_output_shape(self._session, index, ctypes.byref(rank),
                                                   ctypes.byref(dims)))
        shape = tuple(dims[j] for j in range(rank.value))
        count = int(np.prod(shape, dtype=np.int64))
        return buffer.reshape(-1)[:count].copy().reshape(shape)

    def close(self):
        lib = _runtime()
        with self._lock:
            if self._session:
                lib.mie_session_destroy(self._session)
                self._session = None
            if self._package:
                lib.mie_package_close(self._package)
                self._package = ctypes.c_void_p()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass


def load(path, threads=0, target=None, trusted_keys=(), require_signature=False):
    """Opens and validates the package at `path` (under the signature policy given by `trusted_keys`
    and `require_signature`, see Session) and creates a session on it."""
    return Session(path, threads=threads, target=target, trusted_keys=trusted_keys,
                   require_signature=require_signature)
