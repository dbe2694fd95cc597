"""Type stubs of mie._native, the runtime module (python-bindings/src/mie_native.cpp). Import its names
from `mie`: mie.Session, mie.TensorInfo, mie.MieError, mie.load."""
import os
from types import TracebackType
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Type, TypedDict, Union

import numpy as np
import numpy.typing as npt

__version__: str
PACKAGE_FORMAT_VERSION: int

def runtime_version() -> str:
    """The version of the runtime linked into this module (the project's version: the tools'
    --version)."""

class MieError(RuntimeError):
    """A compilation or runtime error, with the compiler's or runtime's own message."""

_Path = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]
_Key = Union[str, "os.PathLike[str]", bytes, bytearray]
_Dim = Union[int, str]

class TargetInfo(TypedDict):
    name: str
    kind: str
    arch: str
    runnable: bool
    reason: str

class KernelInfo(TypedDict):
    name: str
    nodes: str
    flops: int

class KernelProfile(KernelInfo):
    ms: float

class TensorInfo:
    """Name, numpy dtype and shape of a package input or output. A symbolic dim is its name (for
    outputs: an expression of the symbols, "batch * seq"). `dynamic_dims`: the dims of an output
    whose extent the model computes at run time; `shape` is then their upper bound."""

    @property
    def name(self) -> str: ...
    @property
    def dtype(self) -> np.dtype[Any]: ...
    @property
    def shape(self) -> Tuple[_Dim, ...]: ...
    @shape.setter
    def shape(self, value: Sequence[_Dim]) -> None: ...
    @property
    def dynamic_dims(self) -> Tuple[int, ...]: ...
    @property
    def value_bits(self) -> int:
        """4 or 2 for the 4-bit and 2-bit types (the bits of each byte that hold the value), else 0."""

class _SessionLock:
    def __enter__(self) -> None: ...
    def __exit__(self, *exc: Any) -> None: ...

class Session:
    """A loaded, validated package with its arena and threads, ready to run (see mie.load)."""

    def __init__(self, path: _Path, threads: int = 0, target: Optional[str] = None,
                 trusted_keys: Union[_Key, Sequence[_Key]] = (),
                 require_signature: bool = False) -> None: ...
    @property
    def inputs(self) -> List[TensorInfo]: ...
    @property
    def outputs(self) -> List[TensorInfo]: ...
    @property
    def symbols(self) -> Dict[str, Tuple[int, int]]:
        """The package's symbolic dims: name -> (min, max)."""
    @property
    def target(self) -> str: ...
    @property
    def device(self) -> str:
        """"cpu", or the CUDA device of a cuda target."""
    @property
    def targets(self) -> List[TargetInfo]: ...
    @property
    def last_run_ms(self) -> float: ...
    @property
    def arena_bytes(self) -> int: ...
    @property
    def threads(self) -> int: ...
    @property
    def kernels(self) -> List[KernelInfo]: ...
    @property
    def _lock(self) -> _SessionLock: ...
    @property
    def batch_slice(self) -> int: ...
    def set_batch_slice(self, slice: int) -> None:
        """Runs a batch of more than `slice` samples in slices of `slice` where the package marks a
        batch symbol: -1 lets the runtime choose (the default), 0 runs it whole."""
    def set_threads(self, threads: int) -> None:
        """Sets the thread count (0: one per core)."""
    def set_random_seed(self, seed: int) -> None:
        """Makes the following runs draw the same random numbers as any session given `seed` (an
        integer in [0, 2**64)) after as many runs."""
    def set_profiling(self, enable: bool) -> None:
        """Times every kernel of the following runs; read with profile()."""
    def profile(self) -> List[KernelProfile]:
        """The kernels of the last run with their time (set_profiling(True) first)."""
    def run(self, inputs: Union[Mapping[str, npt.ArrayLike], Sequence[npt.ArrayLike]],
            outputs: Optional[Union[Mapping[str, np.ndarray], Sequence[np.ndarray]]] = None
            ) -> Dict[str, np.ndarray]:
        """Runs once and returns the outputs by name. Dtypes and shapes must match the package
        exactly; C-contiguous inputs of the package's dtype are read in place; `outputs` are arrays
        to write into (by name, or all of them in package order)."""
    def close(self) -> None: ...
    def __enter__(self) -> "Session": ...
    def __exit__(self, exc_type: Optional[Type[BaseException]], exc: Optional[BaseException],
                 traceback: Optional[TracebackType]) -> None: ...
