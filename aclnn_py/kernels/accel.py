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
# Every launch reads the variable (it may change between calls). os.environ.get of an unset
# variable raises and catches a KeyError inside (0.6 us, a noticeable part of a small call);
# CPython's os.environ keeps the encoded strings in a plain dict, which answers in 40 ns.
_RAW: dict[Any, Any] | None = getattr(os.environ, "_data", None)
_RAW_KEY: Any = os.environ.encodekey(ENV_VAR) if _RAW is not None else None


def _environment_value() -> str:
    if _RAW is None:
        return os.environ.get(ENV_VAR, "")
    raw = _RAW.get(_RAW_KEY)
    return "" if raw is None else str(os.environ.decodevalue(raw))


def requested() -> str:
    """The path asked for by ``ACLNN_PY_KERNELS``."""
    value = _environment_value() or "auto"
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


# The kernels' dtype kinds (0 float32, 1 float16, 2 bfloat16) and the integer type of their bits.
_KINDS: dict[np.dtype[Any], tuple[int, np.dtype[Any]]] = {
    np.dtype(np.float32): (0, np.dtype(np.uint32)),
    np.dtype(np.float16): (1, np.dtype(np.uint16)),
    _BF16: (2, np.dtype(np.uint16)),
}


def kind_and_bits(a: np.ndarray) -> tuple[int, np.ndarray] | None:
    """(kind, flat bits view) of a contiguous float32/float16/bfloat16 array, else None."""
    kb = _KINDS.get(a.dtype)
    if kb is None or not a.flags.c_contiguous:
        return None
    return kb[0], a.ravel().view(kb[1])  # ravel of a C-contiguous array is a view


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
