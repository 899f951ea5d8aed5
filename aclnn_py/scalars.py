"""What opbase does with an ``aclScalar``'s value: ``ToFloat``, ``ToDouble``, ``ToBool``, ``ToInt8`` ...
``ToFp16``, ``ToBf16`` (``aclScalar::To<T>``), and the element ``ConvertToTensor`` stores.

``To<T>`` is a C++ ``static_cast`` from the scalar's own type, as compiled for x86-64 (the host
that runs the aclnn library):

* float -> integer truncates toward zero; a NaN or an out-of-range value gives the "integer
  indefinite" of the conversion instruction (cvttss2si / cvttsd2si: the minimum of int32 for
  targets up to 32 bits signed / 16 bits unsigned, of int64 for int64 and uint32), then the C
  conversion keeps the target's low bits;
* integer -> narrower integer keeps the low bits; -> floating rounds to nearest even;
* double -> float rounds to nearest even (overflow gives an infinity);
* ToBool of a floating value is ``|v| >= epsilon`` (FLT_EPSILON for float/float16/bfloat16,
  DBL_EPSILON for double), so 1e-8 and NaN are false; of an integer, ``v != 0``;
* a complex value converts only to complex: any real target gets 0 (``T{}``);
* ``ToFp16`` (opbase ``fp16_t``) rounds to nearest even, overflows to infinity, turns NaN into
  0x7FFF / 0xFFFF (sign kept), and int64 values beyond int32 into infinities;
* ``ToBf16`` is ``bfloat16(ToFloat())``: two roundings from a double; NaN becomes 0x7FC0.
"""

from __future__ import annotations

import math
from typing import Any

import ml_dtypes
import numpy as np

from . import dtypes
from .dtypes import (
    DT_BF16,
    DT_BOOL,
    DT_COMPLEX64,
    DT_COMPLEX128,
    DT_DOUBLE,
    DT_FLOAT,
    DT_FLOAT16,
    DT_INT8,
    DT_INT16,
    DT_INT32,
    DT_INT64,
    DT_UINT8,
    DT_UINT16,
    DT_UINT32,
    DT_UINT64,
)
from .tensor import aclScalar

FLT_EPSILON = float(np.finfo(np.float32).eps)
DBL_EPSILON = float(np.finfo(np.float64).eps)
_COMPLEX = (DT_COMPLEX64, DT_COMPLEX128)
_INT_BITS = {
    DT_INT8: (8, True), DT_INT16: (16, True), DT_INT32: (32, True), DT_INT64: (64, True),
    DT_UINT8: (8, False), DT_UINT16: (16, False), DT_UINT32: (32, False), DT_UINT64: (64, False),
}  # fmt: skip


def _source(s: aclScalar) -> Any:
    """The scalar's value as C++ reads it: a Python float (floating), int, bool or complex."""
    if s.dtype in _COMPLEX:
        return complex(s.value)
    if s.dtype in dtypes.FLOATING:
        return float(s.value)
    if s.dtype == DT_BOOL:
        return int(bool(s.value))
    return int(s.value)


def _wrap(v: int, bits: int, signed: bool) -> int:
    v &= (1 << bits) - 1
    if signed and v >= 1 << (bits - 1):
        v -= 1 << bits
    return v


def _cvtt(v: float, bits: int) -> int:
    """x86 truncating conversion to a signed ``bits``-bit integer (integer indefinite if invalid)."""
    lo, hi = -(1 << (bits - 1)), 1 << (bits - 1)
    if not math.isfinite(v):
        return lo
    t = math.trunc(v)
    return t if lo <= t < hi else lo


def float_to_int(v: float, dt: int) -> int:
    """``static_cast<T>(v)`` of a float or double on x86-64 (gcc's instruction choice)."""
    bits, signed = _INT_BITS[dt]
    if dt == DT_UINT64:
        raw = _cvtt(v - 2.0**63, 64) ^ (1 << 63) if v >= 2.0**63 else _cvtt(v, 64)
    elif dt in (DT_INT64, DT_UINT32):
        raw = _cvtt(v, 64)
    else:
        raw = _cvtt(v, 32)
    return _wrap(raw, bits, signed)


def to_int(s: aclScalar, dt: int) -> int:
    """``ToInt8`` ... ``ToUint64`` (``ToUint16`` is opbase's ``To<int16_t>``: signed)."""
    if dt == DT_UINT16:
        dt = DT_INT16
    v = _source(s)
    if isinstance(v, complex):
        return 0
    if isinstance(v, float):
        return float_to_int(v, dt)
    bits, signed = _INT_BITS[dt]
    return _wrap(v, bits, signed)


def to_double(s: aclScalar) -> float:
    v = _source(s)
    return 0.0 if isinstance(v, complex) else float(v)


def to_float(s: aclScalar) -> Any:
    """``ToFloat``: a double or an integer rounded to float32 (overflow: infinity)."""
    v = _source(s)
    if isinstance(v, complex):
        return np.float32(0)
    with np.errstate(all="ignore"):
        return np.float32(v)


def to_bool(s: aclScalar) -> bool:
    v = _source(s)
    if isinstance(v, complex):
        return False
    if isinstance(v, float):
        eps = DBL_EPSILON if s.dtype == DT_DOUBLE else FLT_EPSILON
        return abs(v) >= eps
    return bool(v != 0)


_INT32_RANGE = (-(2**31), 2**31 - 1)


def to_fp16(s: aclScalar) -> Any:
    """``ToFp16`` (opbase ``fp16_t``): round to nearest even; NaN keeps only its sign."""
    v = _source(s)
    if isinstance(v, complex):
        return np.float16(0)
    if isinstance(v, float):
        if math.isnan(v):
            return np.array(0xFFFF if math.copysign(1.0, v) < 0 else 0x7FFF, np.uint16).view(np.float16)[()]
        with np.errstate(all="ignore"):
            return np.float16(v)  # numpy rounds a double to float16 once, to nearest even
    if s.dtype == DT_INT64 and not _INT32_RANGE[0] <= v <= _INT32_RANGE[1]:
        return np.float16(math.copysign(math.inf, v))
    if s.dtype == DT_UINT64 and v > 2**32 - 1:
        return np.float16(math.inf)
    with np.errstate(all="ignore"):
        return np.float16(v)


def to_bf16(s: aclScalar) -> Any:
    """``ToBf16``: ``bfloat16(ToFloat())``; a NaN becomes 0x7FC0."""
    f = to_float(s)
    if np.isnan(f):
        return np.array(0x7FC0, np.uint16).view(ml_dtypes.bfloat16)[()]
    return np.array(f).astype(ml_dtypes.bfloat16)[()]


def to_complex(s: aclScalar) -> complex:
    v = _source(s)
    return complex(v)


def element(s: aclScalar, dt: int) -> np.ndarray:
    """The one element ``ConvertToTensor(scalar, dt)`` stores, as a 0-d array of ``dt``."""
    npdt = dtypes.numpy_dtype(dt)
    if npdt is None:
        raise ValueError(f"ConvertToTensor: {dtypes.dt_name(dt)} is not a scalar tensor type")
    if dt == DT_FLOAT:
        v: Any = to_float(s)
    elif dt == DT_FLOAT16:
        v = to_fp16(s)
    elif dt == DT_BF16:
        v = to_bf16(s)
    elif dt == DT_DOUBLE:
        v = to_double(s)
    elif dt == DT_BOOL:
        v = to_bool(s)
    elif dt in _COMPLEX:
        v = to_complex(s)
    elif dt in _INT_BITS:
        v = to_int(s, dt)
        if dt == DT_UINT16:
            v &= 0xFFFF  # ToUint16 converts through int16_t
    else:
        raise ValueError(f"ConvertToTensor: {dtypes.dt_name(dt)} is not a scalar tensor type")
    if isinstance(v, (np.generic, np.ndarray)) and v.dtype == npdt:
        return np.array(v, dtype=npdt)
    with np.errstate(all="ignore"):
        return np.array(v, dtype=npdt)
