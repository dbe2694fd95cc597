"""Type stubs of the mie package (mie/__init__.py); the runtime's classes are in _native.pyi."""
import os
from typing import Mapping, Optional, Sequence, Tuple, Union, overload

from ._native import MieError as MieError
from ._native import Session as Session
from ._native import TensorInfo as TensorInfo

__version__: str

class MieWarning(UserWarning): ...

_Path = Union[str, "os.PathLike[str]"]
_Key = Union[str, "os.PathLike[str]", bytes, bytearray]

@overload
def compile(model: _Path, output: _Path, target: Optional[str] = ..., emit: str = ...,
            extra_args: Sequence[str] = ..., precision: str = ..., keep_fp32: Sequence[str] = ...,
            force_reduced: Sequence[str] = ..., quantize_method: Optional[str] = ...,
            accuracy_budget: Optional[float] = ..., calibration: Optional[_Path] = ...,
            specialize: Optional[Mapping[str, Sequence[int]]] = ...,
            dim_ranges: Optional[Mapping[str, Tuple[int, int]]] = ...) -> _Path: ...
@overload
def compile(model: _Path, output: None = ..., target: Optional[str] = ..., emit: str = ...,
            extra_args: Sequence[str] = ..., precision: str = ..., keep_fp32: Sequence[str] = ...,
            force_reduced: Sequence[str] = ..., quantize_method: Optional[str] = ...,
            accuracy_budget: Optional[float] = ..., calibration: Optional[_Path] = ...,
            specialize: Optional[Mapping[str, Sequence[int]]] = ...,
            dim_ranges: Optional[Mapping[str, Tuple[int, int]]] = ...) -> bytes: ...
def load(path: _Path, threads: int = 0, target: Optional[str] = None,
         trusted_keys: Union[_Key, Sequence[_Key]] = (),
         require_signature: bool = False) -> Session: ...
