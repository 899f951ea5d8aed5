"""Independent goldens for the comparison and max/min family: one element at a time, in Python
numbers (a float16/bfloat16/float32 value is exact as a Python float; float32 operations are
rounded by ``goldens.r32``), without numpy's comparison or min/max ufuncs."""

from __future__ import annotations

import math
import operator

import ml_dtypes
import numpy as np
from goldens import r32

BF16 = np.dtype(ml_dtypes.bfloat16)
OPS = {
    "Equal": operator.eq,
    "NotEqual": operator.ne,
    "Greater": operator.gt,
    "GreaterEqual": operator.ge,
    "Less": operator.lt,
    "LessEqual": operator.le,
}


def value(v: object, dtype: np.dtype) -> object:
    """A stored element as the kernels read it: bool as its signed byte, floats as Python floats,
    complex as Python complex, integers as Python ints."""
    if dtype == np.bool_:
        b = np.asarray(v).view(np.uint8).item()
        return b - 256 if b >= 128 else b
    if dtype.kind == "c":
        return complex(v)
    if dtype.kind == "f" or dtype == BF16:
        return float(np.asarray(v).astype(np.float64))
    return int(v)


def elements(a: np.ndarray, b: np.ndarray) -> tuple[tuple[int, ...], list[object], list[object]]:
    shape = np.broadcast_shapes(a.shape, b.shape)
    A, B = np.broadcast_to(a, shape).reshape(-1), np.broadcast_to(b, shape).reshape(-1)
    return shape, [value(x, a.dtype) for x in A], [value(y, b.dtype) for y in B]


def compare(op: str, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The exact comparison ``op`` (IEEE: NaN unordered) of two arrays of one dtype."""
    shape, A, B = elements(a, b)
    fn = OPS[op]
    return np.array([bool(fn(x, y)) for x, y in zip(A, B)], dtype=np.bool_).reshape(shape)


def is_value_equal(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """opbase ``IsValueEqual``: ``|x - y| <= eps * max(|x|, |y|)``, each operation rounded to
    the dtype (DOUBLE: Python floats; FLOAT: r32, with eps = float(1e-5f)); integers and bool
    exactly. inf - inf is NaN: two equal infinities are *not* equal."""
    shape, A, B = elements(a, b)
    out = []
    for x, y in zip(A, B):
        if a.dtype == np.float64:
            assert isinstance(x, float) and isinstance(y, float)
            out.append(abs(x - y) <= 1e-9 * max(abs(x), abs(y)))
        elif a.dtype == np.float32:
            assert isinstance(x, float) and isinstance(y, float)
            out.append(abs(r32(x - y)) <= r32(r32(1e-5) * max(abs(x), abs(y))))
        else:
            out.append(x == y)
    return np.array(out, dtype=np.bool_).reshape(shape)


def maxmin(a: np.ndarray, b: np.ndarray, is_max: bool) -> np.ndarray:
    """maxNum / minNum (a NaN loses; two NaNs give the canonical NaN), -0 below +0; integers exact."""
    shape, A, B = elements(a, b)
    out: list[object] = []
    for x, y in zip(A, B):
        if isinstance(x, float) and isinstance(y, float):
            if x != x and y != y:
                out.append(math.nan)
            elif x != x:
                out.append(y)
            elif y != y:
                out.append(x)
            elif x == 0 and y == 0:
                neg = (math.copysign(1, x) < 0) and (math.copysign(1, y) < 0)
                if not is_max:
                    neg = (math.copysign(1, x) < 0) or (math.copysign(1, y) < 0)
                out.append(-0.0 if neg else 0.0)
            else:
                out.append((x if x > y else y) if is_max else (x if x < y else y))
        else:
            assert isinstance(x, int) and isinstance(y, int)
            out.append((x if x > y else y) if is_max else (x if x < y else y))
    if a.dtype.kind == "f" or a.dtype == BF16:
        r = np.array(out, dtype=np.float64)
        r[np.isnan(r)] = np.float64(np.float32(np.nan))  # the canonical quiet NaN
        return r.astype(a.dtype).reshape(shape)
    return np.array(out, dtype=a.dtype).reshape(shape)
