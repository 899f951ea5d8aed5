"""The ClipByValueV2 kernels: ``y = min(max(x, lo), hi)``, so a bound pair with lo > hi gives hi.

* AI Core (TBE ``vmax``/``vmin`` on Ascend910B, 910_93, 910, 310P; ``Reg::Max``/``Reg::Min`` on
  Ascend950), FLOAT16, FLOAT, BFLOAT16, INT32, INT64: each max/min returns one of its operands;
  of a (NaN, number) pair it returns the number (IEEE maxNum/minNum: documented for Ascend950's
  Maxs/Mins, assumed for the others), of two NaNs a NaN; ``max(-0, +0) = +0`` and
  ``min(-0, +0) = -0`` (documented for Ascend950, assumed for the TBE chips). BFLOAT16 on the
  TBE chips goes through float32, which changes nothing (a selection is exact).
* AI CPU (DOUBLE, INT16, INT8, UINT8; ops-math ``clip_by_value_v2_aicpu.cpp``): floating types
  give a quiet NaN if x, lo or hi is NaN, else ``std::min(std::max(x, lo), hi)`` (which keeps
  the first operand of an equal pair, so -0.0 stays -0.0); integers plain min/max.

The bounds arrive already converted to the compute dtype (0-d tensors, or tensors that
broadcast to x).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from . import accel
from ._fp import blocks, has_nan, run_elementwise, store, worth_blocks
from .elementwise import FLOATS, Compute


def _max_num(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """maxNum with ordered zeros: the number of a (NaN, number) pair; +0 of (-0, +0)."""
    with np.errstate(invalid="ignore"):
        r = np.where((b > a) | np.isnan(a), b, a)
        both_zero = (a == 0) & (b == 0)
        return np.where(both_zero & np.signbit(a), b, r)  # -0 only when both are -0


def _min_num(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """minNum with ordered zeros: the number of a (NaN, number) pair; -0 of (-0, +0)."""
    with np.errstate(invalid="ignore"):
        r = np.where((b < a) | np.isnan(a), b, a)
        both_zero = (a == 0) & (b == 0)
        return np.where(both_zero & ~np.signbit(a), b, r)  # +0 only when both are +0


def _std_clamp(x: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """``std::min(std::max(x, lo), hi)``: ``max(a, b) = a < b ? b : a``, ``min(a, b) = b < a ? b : a``."""
    t = np.where(x < lo, lo, x)
    return np.where(hi < t, hi, t)


def _recipe(x: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    x32, lo32, hi32 = (a.astype(np.float32) for a in (x, lo, hi))  # exact for half types
    return _min_num(_max_num(x32, lo32), hi32)


def _plain_bounds(x: np.ndarray, lo: np.ndarray, hi: np.ndarray, out: np.ndarray) -> bool:
    """float32 x with single-element bounds that are neither NaN nor zero: maxNum/minNum are then
    np.fmax/np.fmin (no pair of zeros; a NaN x gives lo, numpy's fmax letting a signalling one
    through in its scalar loop is undone). One call broadcasting the bounds for a call of one
    block; above, out's blocks (the bounds tiled to a block: numpy's fmax/fmin loops are about
    2x faster on two arrays than on an array and a scalar; the same numbers)."""
    if not (x.dtype == out.dtype == np.float32 and lo.size == 1 and hi.size == 1):
        return False
    lo32, hi32 = np.float32(lo.reshape(-1)[0]), np.float32(hi.reshape(-1)[0])
    if np.isnan(lo32) or np.isnan(hi32) or lo32 == 0 or hi32 == 0:
        return False
    with np.errstate(invalid="ignore"):
        if not worth_blocks(out):
            _fmax_fmin(x, lo32, hi32, out, lo32)  # numpy buffers an x that overlaps out
            return True
        parts = blocks([x, np.full(1, lo32), np.full(1, hi32)], out, tile_scalars=True)
        if parts is None:  # not contiguous, or x overlapping out other than as out itself
            return False
        for block, (xb, los, his) in parts:
            _fmax_fmin(xb, los, his, block, lo32)
    return True


def _fmax_fmin(x: np.ndarray, lo: Any, hi: Any, out: np.ndarray, lo32: np.float32) -> None:
    """``out = fmin(fmax(x, lo), hi)`` with a NaN x giving lo (the bounds arrays or scalars)."""
    np.fmax(x, lo, out=out)
    # a signalling NaN x: numpy's fmax lets it through in its scalar loop (a call's last n % 8
    # elements) and not in its vector loop; maxNum gives lo, as the recipe does
    if has_nan(out):
        out[np.isnan(out)] = lo32
    np.fmin(out, hi, out=out)


def aicore() -> Compute:
    def compute(ins: Sequence[np.ndarray], outs: Sequence[np.ndarray]) -> str:
        x, lo, hi = ins
        out = outs[0]
        if out.dtype.kind in "iu":
            out[...] = np.minimum(np.maximum(x, lo), hi)
            return "numpy"
        if x.dtype in FLOATS and out.dtype == x.dtype and lo.size == 1 and hi.size == 1:
            acc = accel.elementwise(out, x, halves=True)
            if acc is not None:
                nb, kind, o, (xb,) = acc
                nb.ew.clamp(kind, xb, np.float32(lo.reshape(-1)[0]), np.float32(hi.reshape(-1)[0]), o)
                return "numba"
            if _plain_bounds(x, lo, hi, out):
                return "numpy"
            run_elementwise(_recipe, [x, lo, hi], out)
            return "numpy"
        store(out, _recipe(x, lo, hi))
        return "numpy"

    return compute


def aicpu() -> Compute:
    def compute(ins: Sequence[np.ndarray], outs: Sequence[np.ndarray]) -> str:
        x, lo, hi = ins
        out = outs[0]
        if out.dtype.kind in "iu":
            out[...] = _std_clamp(x, lo, hi)
            return "numpy"
        with np.errstate(invalid="ignore"):
            nan = np.isnan(x) | np.isnan(lo) | np.isnan(hi)
            r = np.where(nan, np.nan, _std_clamp(x, lo, hi))
        store(out, r)
        return "numpy"

    return compute
