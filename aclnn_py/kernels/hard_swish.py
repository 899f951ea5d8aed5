"""HardSwish: ``y = x * clamp(x + 3, 0, 6) / 6``, per chip.

Both recipes compute in float32 (fp16/bf16 inputs are widened exactly) and multiply by the
float32 constant 1/6 (0x3E2AAAAB); they differ in the order of the operations and in how the
result is narrowed:

``tbe`` — the legacy TBE kernel (Ascend910B / 910_93 / 910 / 310P)::

    t = x + 3 ; t = max(t, 0) ; t = min(t, 6) ; t = t * (1/6) ; y = x * t
    fp16 / bf16 output: round half to even

so x >= 3 gives ``x * fl(6 * (1/6)) = x * 1.0 = x``, x <= -3 gives ``x * 0`` (-0.0 for x < 0),
-inf gives NaN (-inf * 0) and NaN gives NaN.

``arch35`` — the ops-nn AscendC kernel (Ascend950)::

    t = x + 3 ; t = min(t, 6) ; t = max(t, 0) ; xm = max(x, -3) ; y = (xm * t) * (1/6)
    fp16 / bf16 output: CAST_ROUND, round half AWAY from zero

so ``(x * 6) * (1/6)`` is one ulp above x for about a third of the x > 3, x * 6 overflows
float32 for x > 2**125 * 1.33 (the result is +inf where TBE gives x), -inf gives -0.0 and a
NaN x gives NaN (the vector max/min are taken to propagate NaN, as Ascend950's documented
ReduceMax does; the element-wise instructions' NaN rule is not documented).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import ml_dtypes
import numpy as np

from . import accel
from ._fp import CANONICAL_NAN, F32, f32, run_elementwise

ONE_SIXTH = F32(1.0 / 6.0)  # 0x3E2AAAAB on both chips (tvm.const(1/6, "float32"), 1.0f / 6.0f)
THREE = F32(3)
SIX = F32(6)
ZERO = F32(0)
_BF16 = np.dtype(ml_dtypes.bfloat16)


def tbe(x_in: np.ndarray) -> np.ndarray:
    """The TBE recipe; returns float32."""
    with np.errstate(all="ignore"):
        x = f32(x_in)
        t = x + THREE
        t = np.maximum(t, ZERO)
        t = np.minimum(t, SIX)
        t = t * ONE_SIXTH
        return np.asarray(x * t, dtype=np.float32)


def arch35(x_in: np.ndarray) -> np.ndarray:
    """The Ascend950 recipe; returns float32."""
    with np.errstate(all="ignore"):
        x = f32(x_in)
        t = x + THREE
        t = np.minimum(t, SIX)
        t = np.maximum(t, ZERO)
        xm = np.maximum(x, -THREE)  # the kernel's fix for -inf: -inf * 0 would be NaN
        y = xm * t
        return np.asarray(y * ONE_SIXTH, dtype=np.float32)


def _f16_half_away(r: np.ndarray) -> np.ndarray:
    """float32 -> float16, ties away from zero: round to nearest even, then move the ties that
    went towards zero one step out (x - fl16(x) is exact in float32)."""
    h = r.astype(np.float16)
    back = h.astype(np.float32)
    d = r - back
    away = np.nextafter(h, np.copysign(np.float16(np.inf), h))  # h keeps r's sign, -0.0 included
    gap = np.abs(away.astype(np.float32) - back)
    tie = (d != 0) & (np.abs(d) * F32(2) == gap) & (np.signbit(d) == np.signbit(r))
    return np.where(tie, away, h)


def _bf16_half_away(r: np.ndarray) -> np.ndarray:
    """float32 -> bfloat16, ties away from zero: add half of the dropped range to the
    magnitude's bits and truncate (a carry into the exponent rounds up to the next binade, or
    to infinity)."""
    b = r.view(np.uint32)
    sign = b & np.uint32(0x80000000)
    mag = (b & np.uint32(0x7FFFFFFF)) + np.uint32(0x8000)
    return np.asarray(((sign | mag) >> np.uint32(16)).astype(np.uint16)).view(_BF16)


def narrow_half_away(r: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """AscendC ``Cast(..., CAST_ROUND)`` of float32 results to ``dtype`` (float16 or bfloat16):
    round half away from zero; infinities stay; NaN becomes the canonical quiet NaN."""
    with np.errstate(all="ignore"):
        r = np.ascontiguousarray(r, dtype=np.float32)
        nan = np.isnan(r)
        safe = np.where(nan, F32(0), r)
        out = _f16_half_away(safe) if dtype == np.float16 else _bf16_half_away(safe)
        if nan.any():
            out = np.where(nan, CANONICAL_NAN.astype(dtype), out)
        return np.asarray(out, dtype=dtype)


# Elements per block of the float32 fast path (256 KiB per array): the best of 16 Ki, 32 Ki
# and 64 Ki here; the Python cost of the five calls per block weighs on smaller blocks.
BLOCK = 1 << 16


def _fast_f32(arch: bool, x: np.ndarray, out: np.ndarray) -> bool:
    """The float32 recipes written block by block into ``out`` in four passes; False when the
    call does not qualify (float32 in and out, contiguous, same size, in place or apart), the
    general path then runs.

    The passes are the recipes' float32 operations in the recipes' order, so the same bits:

    * ``clip(t, 0, 6)`` is numpy's ``minimum(maximum(t, 0), 6)`` element by element: TBE's
      max-then-min; Ascend950's min-then-max gives the same value for every t because 0 < 6
      (a NaN stays NaN either way; t = x + 3 is never -0.0: x = -3 gives +0.0).
    * Ascend950's ``max(x, -3) * t`` is ``x * t`` for every x but -inf: x >= -3 is unchanged,
      a finite x < -3 has t = +0.0 and both products are -0.0, a NaN x gives NaN both ways.

    Only a NaN or -inf x makes a NaN result (t is NaN, or -inf * 0), and NaN shows in the
    block's ``minimum.reduce`` (it propagates NaN); only such a block is fixed up: a NaN is
    written as :func:`store` writes it (canonical), and on Ascend950 a NaN from x = -inf (t
    is then 0, not NaN) is the recipe's -0.0. In place, t is kept apart to tell the two
    apart; otherwise it is built in ``out`` (one array less in the cache) and x tells.
    (numpy's maximum/minimum with a scalar operand take a slow loop here, clip does not.)"""
    if x.dtype != F32 or out.dtype != F32 or x.size != out.size:
        return False
    if not (x.flags.c_contiguous and out.flags.c_contiguous):
        return False
    apart = not np.may_share_memory(x, out)
    if not apart and x.__array_interface__["data"][0] != out.__array_interface__["data"][0]:
        return False  # partly overlapping: a block would read what an earlier one wrote
    xf, of = x.reshape(-1), out.reshape(-1)
    n = of.size
    tmp = None if apart else np.empty(min(n, BLOCK), dtype=F32)
    with np.errstate(all="ignore"):
        for start in range(0, n, BLOCK):
            stop = min(start + BLOCK, n)
            xb, ob = xf[start:stop], of[start:stop]
            t = ob if tmp is None else tmp[: stop - start]
            np.add(xb, THREE, out=t)
            np.clip(t, ZERO, SIX, out=t)
            if arch:
                np.multiply(xb, t, out=ob)
                np.multiply(ob, ONE_SIXTH, out=ob)
            else:
                np.multiply(t, ONE_SIXTH, out=t)
                np.multiply(xb, t, out=ob)
            if np.isnan(np.minimum.reduce(ob)):
                nan = np.isnan(ob)
                ob[nan] = CANONICAL_NAN
                if arch:  # x = -inf: max(-inf, -3) * 0 * (1/6) = -0.0
                    minf = nan & (np.isneginf(xb) if tmp is None else ~np.isnan(t))
                    ob[minf] = F32(-0.0)
    return True


def make(recipe: str) -> Callable[[Sequence[np.ndarray], Sequence[np.ndarray]], str]:
    """A launch computation: input x, output y in x's dtype. Returns the kernel path it took."""

    def compute(ins: Sequence[np.ndarray], outs: Sequence[np.ndarray]) -> str:
        x, out = ins[0], outs[0]
        acc = accel.elementwise(out, x, halves=True)
        if acc is not None:
            nb, kind, o, (xb,) = acc
            nb.ew.hardswish(recipe == "arch35", kind, xb, o)
            return "numba"
        if _fast_f32(recipe == "arch35", x, out):
            return "numpy"
        if recipe == "tbe":
            run_elementwise(tbe, [x], out)
            return "numpy"
        if out.dtype == np.float32:
            run_elementwise(arch35, [x], out)  # store: NaN canonical, no rounding
            return "numpy"
        r = arch35(x)
        with np.errstate(all="ignore"):
            out[...] = narrow_half_away(r, out.dtype)
        return "numpy"

    return compute
