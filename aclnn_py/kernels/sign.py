"""The Sign kernels: -1, 0 or 1 per element, computed as each chip's kernel computes it.

* ``v220`` — the TBE ``sign`` of chips with ``vcopy`` (Ascend910B, 910_93): floats compare
  ``x > 0`` and ``x < 0`` and subtract the two masks (BFLOAT16 through float32): NaN gives 0 and
  -0.0 gives +0.0; INT32 is ``min(max(x, -1), 1)``;
* ``v200`` (Ascend310P) and ``v100`` (Ascend910) — the older TBE recipe
  ``min(max(x, -tiny), tiny) * 2^k`` with tiny = 2^-126 (FLOAT, scaled by 2^62 * 2^62 * 4) or
  2^-24 (FLOAT16, scaled by 2^12 * 2^12): a float32 subnormal gives a fraction ``x * 2^126``
  and -0.0 stays -0.0. Ascend310P first replaces NaN by 0; Ascend910 does not, and its
  ``vmaxs`` keeps the number of a (NaN, number) pair (the assumption aclnn_py makes for every
  vector max/min), so NaN gives -1 there;
* ``arch35`` — Ascend950's AscendC kernel: ``(x > 0) - (x < 0)`` in the dtype (BFLOAT16 through
  float32, INT64 too): the same numbers as ``v220``;
* ``aicpu`` — the TF kernel (DOUBLE, INT64 except on Ascend950, COMPLEX64, COMPLEX128), as Eigen
  3.3's ``scalar_sign_op`` computes it: reals ``(x > 0) - (x < 0)`` (NaN gives 0), complex
  ``x * (1 / |x|)`` with ``|x|`` = hypot (0 for 0).

Every float step here is exact (comparisons, selections, multiplications by powers of two),
except the complex division, which rounds as the C library's ``hypot`` and two products do.
"""

from __future__ import annotations

from collections.abc import Sequence

import ml_dtypes
import numpy as np

from . import accel
from ._fp import CHUNK, blocks, store, worth_blocks
from .elementwise import FLOATS, Compute

_BF16 = np.dtype(ml_dtypes.bfloat16)


def _compare_sign(x: np.ndarray) -> np.ndarray:
    """``(x > 0) - (x < 0)``: NaN -> 0, -0.0 -> +0.0 (as the float mask difference 0 - 0)."""
    with np.errstate(invalid="ignore"):
        return (x > 0).astype(np.int8) - (x < 0).astype(np.int8)


def _compare_sign_f32(x: np.ndarray, out: np.ndarray) -> bool:
    """:func:`_compare_sign` of float32 x written into float32 out in :func:`._fp.blocks`' blocks
    (False, nothing written, for a layout they do not take): the two masks into reused scratch
    blocks, their int8 difference (-1, 0 or 1; NaN and both zeros give 0), then one exact
    conversion into out (0 becomes +0.0). Every pass is a plain contiguous loop with no
    temporaries (the masks' subtraction straight into float32 would convert both inputs in a
    buffered loop, about 1.3x slower; np.sign would need a NaN fix-up)."""
    parts = blocks([x], out) if worth_blocks(out) else None
    if parts is None:
        return False
    size = min(CHUNK, out.size)
    gt, lt, diff = np.empty(size, np.bool_), np.empty(size, np.bool_), np.empty(size, np.int8)
    with np.errstate(invalid="ignore"):
        for block, (xb,) in parts:
            k = xb.size
            np.greater(xb, 0, out=gt[:k])
            np.less(xb, 0, out=lt[:k])
            np.subtract(gt[:k].view(np.int8), lt[:k].view(np.int8), out=diff[:k])
            block[...] = diff[:k]
    return True


def _scaled_sign(x: np.ndarray, nan_to_zero: bool) -> np.ndarray:
    """The pre-vcopy TBE recipe for FLOAT16/FLOAT, in the dtype (every step is exact)."""
    dt = x.dtype
    if nan_to_zero:
        x = np.where(np.isnan(x), dt.type(0), x)
    scales: tuple[float, ...]
    if dt == np.float32:
        tiny, scales = 2.0**-126, (2.0**62, 2.0**62, 4.0)
    else:
        tiny, scales = 2.0**-24, (2.0**12, 2.0**12)
    lo, hi = dt.type(-tiny), dt.type(tiny)
    r = _vmin(_vmax(x, lo), hi)
    with np.errstate(over="ignore"):
        for s in scales:
            r = r * dt.type(s)
    return r


def _vmax(a: np.ndarray, b: np.floating) -> np.ndarray:
    """A vector max that keeps the number of a (NaN, number) pair (aclnn_py's assumption)."""
    with np.errstate(invalid="ignore"):
        return np.where(np.isnan(a) | (b > a), b, a)


def _vmin(a: np.ndarray, b: np.floating) -> np.ndarray:
    with np.errstate(invalid="ignore"):
        return np.where(np.isnan(a) | (b < a), b, a)


def _complex_sign(x: np.ndarray) -> np.ndarray:
    """Eigen 3.3: ``aa = abs(x); aa == 0 ? 0 : x * (1 / aa)`` in the component precision."""
    re, im = x.real, x.imag
    ft = re.dtype.type
    with np.errstate(all="ignore"):
        aa = np.hypot(re, im)
        inv = ft(1) / aa
        out = np.empty_like(x)
        out.real = re * inv
        out.imag = im * inv
    return np.where(aa == 0, x.dtype.type(0), out)


def make(recipe: str) -> Compute:
    """The Sign computation of ``recipe`` (``v220``, ``v200``, ``v100``, ``arch35``, ``aicpu``)."""

    def compute(ins: Sequence[np.ndarray], outs: Sequence[np.ndarray]) -> str:
        x, out = ins[0], outs[0]
        dt = x.dtype
        if recipe == "aicpu":
            if dt.kind == "c":
                r = _complex_sign(x)
                out[...] = r
                return "numpy"
            out[...] = _compare_sign(x).astype(dt)
            return "numpy"
        compare_recipe = recipe in ("v220", "arch35") or dt == _BF16
        if dt in FLOATS and out.dtype == dt:
            acc = accel.elementwise(out, x, halves=True)
            if acc is not None:
                nb, kind, o, (xb,) = acc
                mode = 0 if compare_recipe else (1 if recipe == "v200" else 2)  # _numba_ew.SIGN_*
                nb.ew.sign(mode, kind, xb, o)
                return "numba"
            if compare_recipe and dt == np.float32 and _compare_sign_f32(x, out):
                return "numpy"
        if dt.kind in "iu":  # INT32 (TBE: min(max(x, -1), 1)), INT64 (Ascend950): the exact sign
            out[...] = np.clip(x, -1, 1) if recipe != "arch35" else _compare_sign(x).astype(dt)
            return "numpy"
        if compare_recipe:
            store(out, _compare_sign(x).astype(np.float32))  # BFLOAT16 through float32
            return "numpy"
        out[...] = _scaled_sign(x, nan_to_zero=recipe == "v200")
        return "numpy"

    return compute
