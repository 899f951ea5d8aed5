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
from ._fp import CANONICAL_NAN, F32, f32, run_blocks, run_elementwise, worth_blocks

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


def _fast_f32(arch: bool, x: np.ndarray, out: np.ndarray) -> bool:
    """The float32 recipes in four passes, in :func:`._fp.run_blocks`' pieces (any layout);
    False when the call does not qualify (not float32, 0-d or empty, ``out`` overlapping ``x``
    other than as itself), the general path then runs.

    The passes are the recipes' float32 operations in the recipes' order, so the same bits:

    * ``clip(t, 0, 6)`` is numpy's ``minimum(maximum(t, 0), 6)`` element by element: TBE's
      max-then-min; Ascend950's min-then-max gives the same value for every t because 0 < 6
      (a NaN stays NaN either way; t = x + 3 is never -0.0: x = -3 gives +0.0).
    * That t is ``clip(x, -3, 3) + 3``, bit for bit: inside [-3, 3] the same addition; for
      x > 3, x + 3 > 6 exactly, so its rounding is >= 6 (monotonic) and the clip gives 6 = 3 + 3;
      for x < -3, x + 3 < 0 exactly and a nonzero sum never rounds to zero, so the clip gives
      +0.0 = -3 + 3; a NaN stays NaN, -0.0 + 3 = 3.
    * Ascend950's ``max(x, -3) * t`` is ``x * t`` for every x but -inf: x >= -3 is unchanged,
      a finite x < -3 has t = +0.0 and both products are -0.0, a NaN x gives NaN both ways.

    Only a NaN or -inf x makes a NaN result (t is NaN, or -inf * 0): run_blocks computes such a
    piece by the recipe itself (canonical NaN; Ascend950's -0.0 for x = -inf). t is built in the
    result piece (one array less in the cache). (numpy's maximum/minimum with a scalar operand
    take a slow loop here, clip does not.)"""
    if x.dtype != F32 or out.dtype != F32 or x.shape != out.shape or not worth_blocks(out):
        return False

    def kernel(ins: Sequence[np.ndarray], r: np.ndarray) -> None:
        (xb,) = ins
        np.clip(xb, -THREE, THREE, out=r)  # clip(x, -3, 3) + 3: the one pass that reads x and writes
        np.add(r, THREE, out=r)  # t is the clip, which is cheaper than an addition; the add is in place
        if arch:
            np.multiply(xb, r, out=r)
            np.multiply(r, ONE_SIXTH, out=r)
        else:
            np.multiply(r, ONE_SIXTH, out=r)
            np.multiply(xb, r, out=r)

    return run_blocks(kernel, arch35 if arch else tbe, [x], out)


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
