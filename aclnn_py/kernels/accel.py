"""Which kernel path runs: the numpy recipes (the specification) or the numba accelerator.

``ACLNN_PY_KERNELS=numpy|numba|auto`` (default ``auto``: numba when it is installed and the
call is large enough to gain from it). The accelerator handles the common layouts (contiguous,
same-size, single-element or row-broadcast inputs); any other call takes the numpy path. Each
launch reports the path it took (the call trace shows it).

Importing numba and loading the compiled kernels costs about a second, so under ``auto`` it
happens at the first call of at least :data:`LAZY_MIN_ELEMENTS` elements: a program of small
tensors never pays it. Once loaded, every call takes it (an 8-element SmoothL1LossBackward
kernel: ~2 us compiled, ~45 us as numpy's 30 operations). ``numba`` asks for the accelerator on
every call, whatever its size (the tests compare the two paths on small arrays).
"""

from __future__ import annotations

import os
from types import ModuleType
from typing import Any

import ml_dtypes
import numpy as np

from .. import _settings
from .._settings import KERNEL_PATHS, KERNELS_ENV

ENV_VAR = KERNELS_ENV
_BF16 = np.dtype(ml_dtypes.bfloat16)
_module: ModuleType | None = None
_tried = False
# Below this many elements ``auto`` does not import numba: the numpy path of such a call takes
# tens of microseconds at most, and the first accelerated call would pay the import (a second).
LAZY_MIN_ELEMENTS = 1 << 15
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
    if value in KERNEL_PATHS:  # the usual case, at every launch
        return value
    return _settings.choice(ENV_VAR, KERNEL_PATHS, "auto", "kernel path", value)  # raises


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


def use_numba(size: int | None = None) -> ModuleType | None:
    """The numba kernels if a call of ``size`` elements should use them (``None``: any size)."""
    want = requested()
    if want == "numpy":
        return None
    if want == "auto" and size is not None and size < LAZY_MIN_ELEMENTS and _module is None:
        return None  # not worth a second of import; once it is loaded, small calls gain too
    mod = numba_kernels()
    if mod is None and want == "numba":
        raise RuntimeError(
            f"{ENV_VAR}=numba but numba is not installed (pip install numba, or pip install -e '.[fast]' in a checkout)"
        )
    return mod


def backend(size: int | None = None) -> str:
    """``numba`` or ``numpy``: what an accelerated kernel of ``size`` elements would use now."""
    return "numba" if use_numba(size) is not None else "numpy"


# The kernels' dtype kinds (0 float32, 1 float16, 2 bfloat16) and the integer type of their bits.
_U16 = np.dtype(np.uint16)
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


def contiguous_inputs(out: np.ndarray, *ins: np.ndarray) -> list[np.ndarray]:
    """The inputs, a strided view of out's shape gathered into a contiguous copy (as
    :func:`elementwise_views` does); the others as they are."""
    return [a if a.flags.c_contiguous or a.shape != out.shape else np.ascontiguousarray(a) for a in ins]


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


def _overlap_ok(a: np.ndarray, out: np.ndarray) -> bool:
    """An input may be the output itself (in place) or apart from it, never partly over it."""
    if not np.may_share_memory(a, out):
        return True
    return bool(
        a.__array_interface__["data"][0] == out.__array_interface__["data"][0]
        and a.size == out.size
        and a.dtype.itemsize == out.dtype.itemsize
    )


def broadcast_ok(a: np.ndarray, n: int, out_shape: tuple[int, ...]) -> bool:
    """Whether the compiled kernels take ``a`` as an operand of an output of ``n`` elements and
    ``out_shape``: of the output's size, a single element (a scalar operand), or a row
    broadcast (its shape, without leading 1s, is the output's trailing shape: it repeats every
    ``a.size`` elements of the flat output)."""
    if a.size in (n, 1):
        return True
    shape = a.shape
    while shape and shape[0] == 1:
        shape = shape[1:]
    k = len(shape)
    return 0 < k <= len(out_shape) and tuple(out_shape[len(out_shape) - k :]) == shape


def elementwise_views(
    out: np.ndarray, *ins: np.ndarray, out_kind: bool = True, halves: bool = False
) -> tuple[int, Any, list[Any]] | None:
    """What the compiled elementwise kernels take: (kind, out's bits, the inputs' bits).

    Every input of one float kind (float32/float16/bfloat16), of out's size, a
    single element (a scalar operand; read-only host scalars are copied, so that the kernels
    see one array type) or a row broadcast (:func:`broadcast_ok`), at least one of out's size,
    overlapping out only as out itself; ``out`` contiguous and of the same kind (``out_kind``)
    or any contiguous array (a BOOL output: its bytes). An input that is a strided view of out's
    shape is gathered into a contiguous copy first (numpy's copy runs at the memory's speed; the
    loop then sees one layout). None when the call does not qualify (it then takes the numpy
    path). ``halves``: float32 bits as uint16 pairs, for the kernels that take every kind as
    uint16 (one compiled signature instead of two: numba compiles per array type)."""
    if not ins or not out.flags.c_contiguous:
        return None
    kb = _KINDS.get(ins[0].dtype)
    if kb is None:
        return None
    if halves:
        kb = (kb[0], _U16)
    n = out.size
    views = []
    full = False
    for a in ins:
        if a.dtype != ins[0].dtype:
            return None
        if not a.flags.c_contiguous:
            if a.shape != out.shape:
                return None
            a = np.ascontiguousarray(a)  # a strided view: gathered once, then the contiguous loop
        if a.size == n:
            full = True
        elif not broadcast_ok(a, n, out.shape):
            return None
        if not a.flags.writeable:
            a = a.copy()
        elif not _overlap_ok(a, out):
            return None
        views.append(a.reshape(-1).view(kb[1]))
    if not full:
        return None
    if out_kind:
        if out.dtype != ins[0].dtype:
            return None
        return kb[0], out.reshape(-1).view(kb[1]), views
    return kb[0], out.reshape(-1).view(np.uint8), views


def elementwise(
    out: np.ndarray, *ins: np.ndarray, out_kind: bool = True, halves: bool = False
) -> tuple[ModuleType, int, Any, list[Any]] | None:
    """(the kernels module, kind, out's bits, the inputs' bits) when this call takes the compiled
    path (:func:`use_numba` for out's size, then :func:`elementwise_views`), else None."""
    nb = use_numba(out.size)
    if nb is None:
        return None
    views = elementwise_views(out, *ins, out_kind=out_kind, halves=halves)
    return None if views is None else (nb, *views)
