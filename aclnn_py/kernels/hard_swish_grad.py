"""HardSwishGrad: ``out = gradOutput * hardswish'(self)``, per chip.

Both production recipes multiply by the float32 constant 1/3 (0x3EAAAAAB), never divide by 3,
and use the closed interval [-3, 3] for the linear part (x = -3 gives -0.5*g, x = 3 gives 1.5*g).

``tbe`` — legacy TBE kernel (Ascend910B / 910_93 / 910 / 310P)::

    d = x * 0.33333334 + 0.5                  # two float32 operations
    d = 0 if x < -3 else d
    d = 1 if x >  3 else d
    r = g * d
    float32 and bfloat16 outputs: r = r if x == x else 1.0   (NaN x gives 1.0)
    float16 output: no NaN fix-up (NaN x gives NaN)

``arch35`` — ops-nn AscendC kernel (Ascend950)::

    d = x * (float)(1/3) ; d = d + 0.5
    d = d if x >= -3 else 0
    d = d if x <=  3 else 1                   # NaN x: both compares false, d = 1, out = g
    r = g * d
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from . import accel
from ._fp import F32, f32, run_blocks, run_elementwise, select, worth_blocks

ONE_THIRD = F32(1.0 / 3.0)  # 0.333333343267..., bits 0x3EAAAAAB
HALF = F32(0.5)
THREE = F32(3)


def tbe(grad: np.ndarray, x_in: np.ndarray, nan_fix: bool | None = None) -> np.ndarray:
    """The TBE recipe in float32; ``nan_fix`` (NaN x gives 1.0) holds for FLOAT and BFLOAT16
    inputs, not FLOAT16 (default: from x's dtype)."""
    if nan_fix is None:
        nan_fix = x_in.dtype != np.float16
    with np.errstate(all="ignore"):
        x, g = f32(x_in), f32(grad)
        d = x * ONE_THIRD
        d = d + HALF
        d = select(x < -THREE, F32(0), d)
        d = select(x > THREE, F32(1), d)
        r = g * d
        if nan_fix:
            r = select(x == x, r, F32(1))
        return np.asarray(r, dtype=np.float32)


def arch35(grad: np.ndarray, x_in: np.ndarray) -> np.ndarray:
    """The Ascend950 recipe in float32."""
    with np.errstate(all="ignore"):
        x, g = f32(x_in), f32(grad)
        d = x * ONE_THIRD
        d = d + HALF
        d = select(x >= -THREE, d, F32(0))
        d = select(x <= THREE, d, F32(1))
        return np.asarray(g * d, dtype=np.float32)


RECIPES = {"tbe": tbe, "arch35": arch35}


def _fast_f32(
    fn: Callable[[np.ndarray, np.ndarray], np.ndarray], g: np.ndarray, x: np.ndarray, out: np.ndarray
) -> bool:
    """Both recipes for float32 operands without selects, in :func:`._fp.run_blocks`' pieces
    (any layout); False when the call does not qualify (not float32, 0-d or empty, ``out``
    overlapping an input other than as itself), the general path then runs.

    For a finite x both recipes are ``g * d`` with d = 0 for x < -3, 1 for x > 3, else
    ``x * (1/3) + 0.5``. With ``keep = float(|x| <= 3)`` and ``hi = float(x > 3)``,
    ``d * keep + hi`` is that d bit for bit: inside, ``d * 1 + 0`` is d (d is never -0.0:
    x * (1/3) = -0.5 gives +0.0); outside, d is finite, ``d * 0`` is ±0.0 and ``±0.0 + hi``
    is +0.0 or 1.0. A NaN or infinite x makes ``d * keep`` NaN (NaN, or ±inf * 0), so the
    piece's result holds a NaN, as does a NaN g or ``±inf * 0``: run_blocks then computes that
    piece by the recipe itself."""
    if any(a.dtype != F32 for a in (g, x, out)) or not worth_blocks(out):
        return False
    scratch: dict[tuple[int, ...], tuple[np.ndarray, np.ndarray, np.ndarray]] = {}

    def kernel(ins: Sequence[np.ndarray], r: np.ndarray) -> None:
        gb, xb = np.broadcast_arrays(*ins)
        if r.shape not in scratch:
            scratch[r.shape] = (np.empty(r.shape, F32), np.empty(r.shape, F32), np.empty(r.shape, F32))
        d, keep, hi = scratch[r.shape]
        np.multiply(xb, ONE_THIRD, out=d)
        np.add(d, HALF, out=d)
        np.abs(xb, out=keep)
        np.less_equal(keep, THREE, out=keep)  # True -> 1.0
        np.greater(xb, THREE, out=hi)
        np.multiply(d, keep, out=d)
        np.add(d, hi, out=d)
        np.multiply(gb, d, out=r)  # the inputs' last read

    return run_blocks(kernel, fn, [g, x], out)


def make(recipe: str) -> Callable[[Sequence[np.ndarray], Sequence[np.ndarray]], str]:
    """A launch computation: inputs (gradOutput, self), output in self's dtype.
    Returns the kernel path it took."""
    fn = RECIPES[recipe]

    def compute(ins: Sequence[np.ndarray], outs: Sequence[np.ndarray]) -> str:
        nb = accel.use_numba(outs[0].size)
        if nb is not None:
            kb = accel.same_kind_bits(ins[0], ins[1], outs[0])
            if kb is not None:
                kind, (g, x, o) = kb
                run = nb.hardswish_tbe if recipe == "tbe" else nb.hardswish_arch35
                run(g, x, o, kind, ONE_THIRD, HALF, THREE)
                return "numba"
        if _fast_f32(fn, ins[0], ins[1], outs[0]):
            return "numpy"
        run_elementwise(fn, list(ins), outs[0])
        return "numpy"

    return compute
