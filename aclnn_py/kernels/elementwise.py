"""Elementwise kernels: Add, Sub, Mul, Axpy, AxpyV2 (and the fused multiply-add they need).

Every kernel receives its inputs already in the compute dtype (the l0 op's casts) and writes
its output; broadcasting is numpy's. Float results are one IEEE operation in the compute dtype:
numpy's float16 and ml_dtypes' bfloat16 arithmetic compute in float32 and round once, which is
the correctly rounded result for +, -, * and / (float32 has more than 2p + 2 bits), the same as
the chips' "upcast to float32, operate, round to nearest even" recipes. Integers wrap. NaN
results are written as the canonical quiet NaN (see ``_fp.store``).

Per chip (``recipe`` = the SoC's kernel family):

* ``tbe`` (Ascend910B, 910_93, 910, 310P), legacy TBE kernels: bool + bool adds the bytes, so
  True + True is stored as the byte 2 (CANN's aclnnAdds undoes it with a Cast); ``Axpy`` rounds
  ``alpha`` to float16 for float16 and computes ``x1 + alpha * x2`` with one rounding (vaxpy),
  bfloat16 in float32 then rounded (``support_bfp16``), int32 through float32 and a truncating
  cast back;
* ``arch35`` (Ascend950), AscendC kernels: bool + bool is a logical or; ``Axpy`` computes half
  types in float32 (one rounding each: the fused float32 vaxpy, then the cast); ``AxpyV2`` is
  a fused multiply-add for floats, wrapping arithmetic for integers, ``x1 | (x2 & alpha)`` for bool.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import ml_dtypes
import numpy as np

from . import accel
from ._fp import run_elementwise, run_ufunc, store

Compute = Callable[[Sequence[np.ndarray], Sequence[np.ndarray]], str]
_BF16 = np.dtype(ml_dtypes.bfloat16)
_HALF = (np.dtype(np.float16), _BF16)
FLOATS = (np.dtype(np.float32), *_HALF)  # the dtypes the compiled kernels take
ADD, SUB, MUL, DIV, DIV_FTZ = 0, 1, 2, 3, 4  # the compiled kernels' operation codes (_numba_ew)


def _is_bool(a: np.ndarray) -> bool:
    return a.dtype == np.bool_


def _write(out: np.ndarray, r: np.ndarray) -> None:
    if out.dtype.kind in "fc" or out.dtype == _BF16:
        store(out, np.asarray(r))
    elif out.dtype == np.bool_:
        out.view(np.uint8)[...] = np.asarray(r).view(np.uint8) if np.asarray(r).dtype == np.bool_ else r
    else:
        out[...] = r


def _bytes(a: np.ndarray) -> np.ndarray:
    return a.view(np.uint8) if a.dtype == np.bool_ else a


def float_binary(
    op: int, ufunc: Callable[..., np.ndarray], a: np.ndarray, b: np.ndarray, out: np.ndarray
) -> str | None:
    """``out = ufunc(a, b)``, one IEEE operation per element in float32 rounded once to out's
    dtype, when a, b and out share one float dtype: compiled (``op``) when the layout allows,
    else numpy in blocks. None for any other dtype combination (the caller's general path)."""
    if a.dtype not in FLOATS or b.dtype != a.dtype or out.dtype != a.dtype:
        return None
    acc = accel.elementwise(out, a, b, halves=True)
    if acc is not None:
        nb, kind, o, (x, y) = acc
        nb.ew.binary_arith(op, kind, x, y, o)
        return "numba"
    if out.dtype == np.float32:
        run_ufunc(ufunc, [a, b], out)
    else:  # numpy's float16 and ml_dtypes' bfloat16 arithmetic: float32, rounded once
        run_elementwise(ufunc, [a, b], out)
    return "numpy"


# -- fused multiply-add ---------------------------------------------------------------------------


def fma(a: np.ndarray, b: np.ndarray, c: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """``a * b + c`` rounded once to ``dtype`` (float16, bfloat16 or float32).

    In float64 the product of two such values is exact; the sum is made exact with TwoSum and
    rounded to odd, after which one rounding to ``dtype`` is correct (53 >= p + 2)."""
    with np.errstate(all="ignore"):
        p = a.astype(np.float64) * b.astype(np.float64)
        c64 = c.astype(np.float64)
        s = p + c64
        bb = s - p
        e = (p - (s - bb)) + (c64 - bb)
        bits = s.view(np.uint64)
        fix = np.isfinite(s) & (e != 0) & ((bits & np.uint64(1)) == 0)
        if np.any(fix):
            s = np.where(fix, np.nextafter(s, np.where(e > 0, np.inf, -np.inf)), s)
        return np.asarray(s.astype(np.float32) if dtype == np.float32 else s.astype(dtype))


# -- Add / Sub / Mul ------------------------------------------------------------------------------


def add(recipe: str) -> Compute:
    """``Add``: x1 + x2 (mixed float16/bfloat16 + float32 pairs upcast to a float32 result)."""

    def compute(ins: Sequence[np.ndarray], outs: Sequence[np.ndarray]) -> str:
        a, b = ins
        out = outs[0]
        with np.errstate(all="ignore"):
            if _is_bool(a) and _is_bool(b):
                r = _bytes(a) + _bytes(b)  # uint8: True + True = 2
                out.view(np.uint8)[...] = np.minimum(r, 1) if recipe == "arch35" else r
                return "numpy"
            path = float_binary(ADD, np.add, a, b, out)
            if path is not None:
                return path
            if a.dtype != b.dtype:  # the mixed pairs: both to float32
                a, b = a.astype(np.float32), b.astype(np.float32)
            _write(out, np.add(a, b))
        return "numpy"

    return compute


def sub(recipe: str) -> Compute:
    """``Sub``: x1 - x2 (bool: |x1 - x2|, an exclusive or)."""

    def compute(ins: Sequence[np.ndarray], outs: Sequence[np.ndarray]) -> str:
        a, b = ins
        with np.errstate(all="ignore"):
            if _is_bool(a):
                outs[0].view(np.uint8)[...] = _bytes(a) ^ _bytes(b)
                return "numpy"
            path = float_binary(SUB, np.subtract, a, b, outs[0])
            if path is not None:
                return path
            _write(outs[0], np.subtract(a, b))
        return "numpy"

    return compute


def mul(recipe: str) -> Compute:
    """``Mul``: x1 * x2 (bool: and; mixed pairs upcast to a float32 result)."""

    def compute(ins: Sequence[np.ndarray], outs: Sequence[np.ndarray]) -> str:
        a, b = ins
        with np.errstate(all="ignore"):
            if _is_bool(a) and _is_bool(b):
                outs[0].view(np.uint8)[...] = (_bytes(a) != 0) & (_bytes(b) != 0)
                return "numpy"
            path = float_binary(MUL, np.multiply, a, b, outs[0])
            if path is not None:
                return path
            if a.dtype != b.dtype:
                a, b = a.astype(np.float32), b.astype(np.float32)
            _write(outs[0], np.multiply(a, b))
        return "numpy"

    return compute


# -- Axpy / AxpyV2 --------------------------------------------------------------------------------


def axpy(recipe: str, alpha: float) -> Compute:
    """``Axpy``: x1 + alpha * x2 with the float attribute ``alpha``."""
    alpha32 = np.float32(alpha)

    def compute(ins: Sequence[np.ndarray], outs: Sequence[np.ndarray]) -> str:
        x1, x2 = ins
        out = outs[0]
        dt = x1.dtype
        a = np.full((), alpha32, np.float32)
        with np.errstate(all="ignore"):
            if dt == np.int32:  # through float32, then a truncating (saturating) cast back
                r = fma(a, x2.astype(np.float32), x1.astype(np.float32), np.dtype(np.float32))
                out[...] = _trunc_int32(r)
                return "numpy"
            once = recipe == "tbe" and dt == np.float16  # alpha rounded to float16, one fp16 vaxpy
            if _axpy_numba(x1, x2, out, np.float32(a.astype(dt)) if once else alpha32, once):
                return "numba"
            if dt in _HALF:
                if once:

                    def recipe_fn(p: np.ndarray, q: np.ndarray) -> np.ndarray:
                        return fma(a.astype(dt), q, p, dt)

                else:  # float32 vaxpy, then the cast (two roundings); TBE bfloat16 (support_bfp16) too

                    def recipe_fn(p: np.ndarray, q: np.ndarray) -> np.ndarray:
                        r32 = fma(a, q.astype(np.float32), p.astype(np.float32), np.dtype(np.float32))
                        return r32.astype(dt)

                run_elementwise(recipe_fn, [x1, x2], out)
                return "numpy"
            if dt == np.float32:
                run_elementwise(lambda p, q: fma(a, q, p, dt), [x1, x2], out)
                return "numpy"
            _write(out, fma(a, x2, x1, dt))
        return "numpy"

    return compute


def _axpy_numba(x1: np.ndarray, x2: np.ndarray, out: np.ndarray, alpha: np.float32, once: bool) -> bool:
    """The compiled Axpy when the layout allows: float32 (one rounding), float16 ``once`` (TBE:
    one rounding to float16), else float32 then the half type."""
    if x1.dtype not in FLOATS or x2.dtype != x1.dtype or out.dtype != x1.dtype:
        return False
    acc = accel.elementwise(out, x1, x2, halves=True)
    if acc is None:
        return False
    nb, kind, o, (p, q) = acc
    mode = 0 if x1.dtype == np.float32 else (1 if once else 2)  # _numba_ew.AXPY_*
    nb.ew.axpy(mode, kind, alpha, p, q, o)
    return True


def _trunc_int32(r: np.ndarray) -> Any:
    """float32 -> int32 toward zero, saturating (NaN gives 0)."""
    t = np.trunc(np.nan_to_num(r.astype(np.float64), nan=0.0, posinf=2.0**31, neginf=-(2.0**31)))
    return np.clip(t, -(2.0**31), 2.0**31 - 1).astype(np.int32)


def axpy_v2() -> Compute:
    """``AxpyV2`` (Ascend950): x1 + alpha * x2 with alpha a tensor of the same dtype."""

    def compute(ins: Sequence[np.ndarray], outs: Sequence[np.ndarray]) -> str:
        x1, x2, alpha = ins
        out = outs[0]
        dt = x1.dtype
        with np.errstate(all="ignore"):
            if dt == np.bool_:
                r = (_bytes(x1) != 0) | ((_bytes(x2) != 0) & (_bytes(alpha) != 0))
                out.view(np.uint8)[...] = r
            elif alpha.size == 1 and _axpy_numba(x1, x2, out, np.float32(alpha.reshape(-1)[0]), False):
                return "numba"
            elif dt in _HALF:
                r32 = fma(alpha.astype(np.float32), x2.astype(np.float32), x1.astype(np.float32), np.dtype(np.float32))
                _write(out, r32.astype(dt))
            elif dt == np.float32:
                _write(out, fma(alpha, x2, x1, dt))
            else:  # integers: wrapping multiply and add
                out[...] = x1 + x2 * alpha
        return "numpy"

    return compute
