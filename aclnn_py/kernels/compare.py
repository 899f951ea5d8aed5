"""The comparison kernels: Equal, NotEqual, Greater, GreaterEqual, Less, LessEqual.

Each writes a BOOL output (bytes 0/1) from two inputs of one dtype (numpy broadcasting).

* AI Core, every chip (``make``): an exact comparison in the input dtype. FLOAT16 and BFLOAT16
  compare as their exact float32 values; NaN compares unequal to everything (``!=`` is true);
  -0 equals +0. A BOOL input compares as its signed byte (Ascend950's kernels instantiate the
  int8 comparison for bool; TBE reads bool as int8): a stored 2 is not equal to a stored 1,
  and a stored 255 is less than 1.
* AI CPU Equal / NotEqual (``aicpu_equal``): opbase's ``IsValueEqual``: integers and bool
  exactly; FLOAT and DOUBLE ``|a - b| <= eps * max(|a|, |b|)`` in the dtype's own arithmetic
  with eps 1e-5f / 1e-9; FLOAT16 likewise with eps 1e-3f. So DOUBLE ``inf == inf`` is false,
  ``inf == 5.0`` and ``inf == -inf`` are true and 1.0 equals 1.0 + 1e-12. COMPLEX compares
  exactly (the TF kernel).
* AI CPU Greater, GreaterEqual, Less and the TF LessEqual (``make``): the plain C++ comparison,
  i.e. exact.

An AI CPU kernel that has no implementation for the dtype fails the task on the stream (l0 wraps
the computation in :func:`.aicpu.registered`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import ml_dtypes
import numpy as np

from . import accel

Compute = Callable[[Sequence[np.ndarray], Sequence[np.ndarray]], str]

_BF16 = np.dtype(ml_dtypes.bfloat16)
_HALF = (np.dtype(np.float16), _BF16)
OPS: dict[str, Callable[..., np.ndarray]] = {
    "Equal": np.equal,
    "NotEqual": np.not_equal,
    "Greater": np.greater,
    "GreaterEqual": np.greater_equal,
    "Less": np.less,
    "LessEqual": np.less_equal,
}
CODES = {"Equal": 0, "NotEqual": 1, "Greater": 2, "GreaterEqual": 3, "Less": 4, "LessEqual": 5}  # _numba_ew
_FLOATS = (np.dtype(np.float32), *_HALF)
# IsValueEqual's relative tolerance per dtype (opbase kernel_util.h)
_EPS = {np.dtype(np.float32): np.float32(1e-5), np.dtype(np.float64): np.float64(1e-9)}
_HALF_EPS = np.float32(1e-3)


def operand(a: np.ndarray) -> np.ndarray:
    """What the kernel compares: a bool as its signed byte, a half type as its float32 value."""
    if a.dtype == np.bool_:
        return a.view(np.int8)
    if a.dtype in _HALF:
        return a.astype(np.float32)
    return a


def _store(out: np.ndarray, r: np.ndarray) -> None:
    out.view(np.uint8)[...] = np.asarray(r, dtype=np.uint8)


def make(op: str) -> Compute:
    """The exact comparison ``op`` (an AI Core kernel, or the plain comparison of an AI CPU one:
    l0 wraps it in :func:`.aicpu.registered` with the kernel's dtypes)."""
    fn = OPS[op]
    code = CODES[op]

    def compute(ins: Sequence[np.ndarray], outs: Sequence[np.ndarray]) -> str:
        a, b = ins
        out = outs[0]
        if a.dtype in _FLOATS and b.dtype == a.dtype and out.dtype == np.bool_:
            acc = accel.elementwise(out, a, b, out_kind=False, halves=True)
            if acc is not None:
                nb, kind, o, (x, y) = acc
                nb.ew.compare(code, kind, x, y, o)
                return "numba"
        with np.errstate(invalid="ignore"):
            if out.dtype == np.bool_ and a.dtype.kind in "fiu" and a.dtype not in _HALF and b.dtype == a.dtype:
                fn(a, b, out=out)  # the exact comparison written straight into the output's bytes
                return "numpy"
            _store(out, fn(operand(a), operand(b)))
        return "numpy"

    return compute


def is_value_equal(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """opbase ``IsValueEqual<T>`` elementwise (the AI CPU Equal/NotEqual kernels)."""
    dt = a.dtype
    with np.errstate(all="ignore"):
        if dt in _EPS:  # float and double: one rounding per operation, in the dtype
            return np.asarray(np.abs(a - b) <= _EPS[dt] * np.maximum(np.abs(a), np.abs(b)))
        if dt == np.float16:  # Eigen::half: the difference rounded to half, the test in float
            d = np.abs((a - b).astype(np.float16)).astype(np.float32)
            m = np.maximum(np.abs(a), np.abs(b)).astype(np.float32)
            return np.asarray(d <= _HALF_EPS * m)
        return np.asarray(operand(a) == operand(b))


def aicpu_equal(negate: bool) -> Compute:
    """The AI CPU Equal (``negate`` False) or NotEqual kernel's comparison (l0 wraps it in
    :func:`.aicpu.registered` with the kernel's dtypes)."""

    def compute(ins: Sequence[np.ndarray], outs: Sequence[np.ndarray]) -> str:
        a, b = ins
        eq = is_value_equal(a, b)
        _store(outs[0], ~eq if negate else eq)
        return "numpy"

    return compute
