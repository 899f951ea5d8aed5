"""Which kernel path runs: the numpy recipes (the specification) or the numba accelerator.

``ACLNN_PY_KERNELS=numpy|numba|auto`` (default ``auto``: numba when it is installed). The
accelerator handles the common layouts (contiguous, same-size or single-element inputs); any
other call takes the numpy path. Each launch reports the path it took (the call trace shows it).
"""

from __future__ import annotations

import os
from types import ModuleType
from typing import Any

import ml_dtypes
import numpy as np

ENV_VAR = "ACLNN_PY_KERNELS"
_BF16 = np.dtype(ml_dtypes.bfloat16)
_module: ModuleType | None = None
_tried = False


def requested() -> str:
    """The path asked for by ``ACLNN_PY_KERNELS``."""
    value = os.environ.get(ENV_VAR, "") or "auto"
    if value not in ("numpy", "numba", "auto"):
        raise ValueError(f"unknown kernel path {value!r} in {ENV_VAR}; expected numpy, numba or auto")
    return value


def numba_kernels() -> ModuleType | None:
    """The compiled kernels module, or None when numba is not installed."""
    global _module, _tried
    if not _tried:
        _tried = True
        try:
            from . import _numba

            _module = _numba
        except ImportError:
            _module = None
    return _module


def use_numba() -> ModuleType | None:
    """The numba kernels if this call should use them."""
    want = requested()
    if want == "numpy":
        return None
    mod = numba_kernels()
    if mod is None and want == "numba":
        raise RuntimeError(f"{ENV_VAR}=numba but numba is not installed (pip install aclnn-py[fast])")
    return mod


def backend() -> str:
    """``numba`` or ``numpy``: what an accelerated kernel would use now."""
    return "numba" if use_numba() is not None else "numpy"


def kind_and_bits(a: np.ndarray) -> tuple[int, np.ndarray] | None:
    """(kind, flat bits view) of a contiguous float32/float16/bfloat16 array, else None."""
    if not a.flags.c_contiguous:
        return None
    flat = a.reshape(-1)
    if a.dtype == np.float32:
        return 0, flat.view(np.uint32)
    if a.dtype == np.float16:
        return 1, flat.view(np.uint16)
    if a.dtype == _BF16:
        return 2, flat.view(np.uint16)
    return None


def same_kind_bits(*arrays: np.ndarray) -> tuple[int, list[Any]] | None:
    """The common kind and bits views of several arrays (None if they differ or do not qualify)."""
    views = []
    kind = -1
    for a in arrays:
        kb = kind_and_bits(a)
        if kb is None or (kind != -1 and kb[0] != kind):
            return None
        kind = kb[0]
        views.append(kb[1])
    return kind, views
