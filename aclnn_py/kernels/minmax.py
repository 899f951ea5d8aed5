"""Maximum, Minimum, and the LogicalOr / LogicalAnd that aclnnMaximum / aclnnMinimum use for
BOOL.

Maximum / Minimum return one of their inputs, so every recipe is exact for ordinary values
(TBE compares int8/uint8 through float16 and bfloat16 through float32: both exact). What the
sources do not settle, and aclnn_py chooses (see the fidelity notes):

* NaN: **maxNum / minNum** on every chip and engine: a NaN loses against a number, two NaNs
  give NaN (the canonical quiet NaN). Ascend950's AscendC code states this for its Maxs/Mins
  (IEEE 754 maxNumber/minNumber); nothing states it for TBE's vmax/vmin or TF's AI CPU kernel.
* Signed zeros: -0 is below +0 (max(-0, +0) = +0, min(-0, +0) = -0, either order), as the
  AscendC Reg Max/Min documents for Ascend950.

LogicalOr / LogicalAnd on BOOL (the bytes as stored, which need not be 0/1):

* ``tbe``: LogicalOr is the signed-byte maximum (int8 through float16, vmax); LogicalAnd the
  product in float16, truncated to int8 (saturating: assumed);
* ``arch35``: the bitwise or / and of the bytes;
* ``aicpu``: C++ ``||`` / ``&&`` on the bools (not reached: BOOL runs on the AI Core).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import ml_dtypes
import numpy as np

from . import accel
from ._fp import CANONICAL_NAN, CHUNK, blocks, has_nan, run_elementwise, store

Compute = Callable[[Sequence[np.ndarray], Sequence[np.ndarray]], str]

_BF16 = np.dtype(ml_dtypes.bfloat16)


def _f32(a: np.ndarray) -> np.ndarray:
    return a.astype(np.float32)


def _float_maxmin(a: np.ndarray, b: np.ndarray, is_max: bool) -> np.ndarray:
    """maxNum / minNum of float arrays (float32 or float64), -0 ordered below +0."""
    with np.errstate(invalid="ignore"):
        r = np.fmax(a, b) if is_max else np.fmin(a, b)  # a NaN operand loses
        nan = np.isnan(r)
        if np.any(nan):  # also a signalling one (numpy's fmax lets it win in its scalar loop)
            r = np.where(nan & ~np.isnan(a), a, np.where(nan & ~np.isnan(b), b, r))
        zeros = (a == 0) & (b == 0)
        if np.any(zeros):
            sa, sb = np.signbit(a), np.signbit(b)
            neg = (sa & sb) if is_max else (sa | sb)
            r = np.where(zeros, np.where(neg, -0.0, 0.0).astype(r.dtype), r)
    return np.asarray(r)


_FLOATS = (np.dtype(np.float32), np.dtype(np.float16), _BF16)


def _maxmin_f32_blocks(a: np.ndarray, b: np.ndarray, out: np.ndarray, is_max: bool) -> bool:
    """The float32 recipe written straight into blocks of ``out`` (fmax/fmin, then the few zero
    pairs and NaN results fixed up): the numbers of :func:`_float_maxmin`, fewer passes.

    Same shape, scalar operand and row broadcast layouts (:func:`aclnn_py.kernels._fp.blocks`;
    a scalar is tiled to a block: numpy's fmax/fmin loop is ~1.5x faster on two arrays). The
    zero fix-up is skipped when a broadcast operand (a scalar or a row) holds no zero: a pair
    of zeros then never occurs (a NaN loses, the other operand passes unchanged), so
    fmax/fmin's result is already :func:`_float_maxmin`'s. Otherwise one abs pass and one min
    reduction per block tell a block with neither zero nor NaN results (most blocks), which
    needs no fix-up. False when the layout does not allow blocks."""
    if out.dtype != np.float32 or a.dtype != np.float32 or b.dtype != np.float32 or out.size <= CHUNK:
        return False
    if any(np.may_share_memory(x, out) for x in (a, b)):  # the fix-ups reread the operands
        return False
    parts = blocks([a, b], out, tile_scalars=True)
    if parts is None:
        return False
    # a pair of zeros needs a zero in each operand: a broadcast operand (scalar or row, small)
    # without one rules them out for the whole call
    zeros_possible = not any(x.size < out.size and not (x == 0).any() for x in (a, b))
    fn = np.fmax if is_max else np.fmin
    scratch = np.empty(min(out.size, CHUNK), np.float32) if zeros_possible else None
    with np.errstate(invalid="ignore"):
        for block, (x, y) in parts:
            fn(x, y, out=block)
            if scratch is not None:
                # min |result| > 0 rules out both a zero and a NaN result (a NaN propagates
                # through abs and the min reduction): one check for the two fix-ups
                if np.minimum.reduce(np.abs(block, out=scratch[: block.size])) > 0:
                    continue
                if (block == 0).any():  # both operands may be zeros: the sign rule
                    block[...] = _float_maxmin(x, y, is_max)
            if has_nan(block):  # a NaN loses, a signalling one too (see _float_maxmin); two give the canonical NaN
                nan = np.isnan(block)
                xs, ys = np.broadcast_to(x, block.shape)[nan], np.broadcast_to(y, block.shape)[nan]
                block[nan] = np.where(np.isnan(xs), np.where(np.isnan(ys), CANONICAL_NAN, ys), xs)
    return True


def maxmin(is_max: bool) -> Compute:
    """``Maximum`` (``is_max``) or ``Minimum``: the output has the inputs' dtype."""

    def compute(ins: Sequence[np.ndarray], outs: Sequence[np.ndarray]) -> str:
        a, b = ins
        out = outs[0]
        if a.dtype in _FLOATS and b.dtype == a.dtype and out.dtype == a.dtype:
            acc = accel.elementwise(out, a, b, halves=True)
            if acc is not None:
                nb, kind, o, (x, y) = acc
                nb.ew.maxmin(is_max, kind, x, y, o)
                return "numba"
            if not _maxmin_f32_blocks(a, b, out, is_max):
                run_elementwise(lambda x, y: _float_maxmin(_f32(x), _f32(y), is_max), [a, b], out)
            return "numpy"
        if a.dtype.kind == "f" or a.dtype == _BF16:
            wide = np.float64 if a.dtype == np.float64 else np.float32
            store(out, _float_maxmin(a.astype(wide), b.astype(wide), is_max))
        else:  # integers: exact
            out[...] = np.maximum(a, b) if is_max else np.minimum(a, b)
        return "numpy"

    return compute


def _bytes(a: np.ndarray) -> np.ndarray:
    return a.view(np.uint8) if a.dtype == np.bool_ else a.astype(np.uint8)


def logical_or(recipe: str) -> Compute:
    """``LogicalOr`` of two BOOL inputs."""

    def compute(ins: Sequence[np.ndarray], outs: Sequence[np.ndarray]) -> str:
        a, b = (_bytes(x) for x in ins)
        if recipe == "tbe":
            r = np.maximum(a.view(np.int8), b.view(np.int8)).view(np.uint8)
        elif recipe == "arch35":
            r = a | b
        else:
            r = ((a != 0) | (b != 0)).astype(np.uint8)
        outs[0].view(np.uint8)[...] = r
        return "numpy"

    return compute


def logical_and(recipe: str) -> Compute:
    """``LogicalAnd`` of two BOOL inputs."""

    def compute(ins: Sequence[np.ndarray], outs: Sequence[np.ndarray]) -> str:
        a, b = (_bytes(x) for x in ins)
        if recipe == "tbe":
            p = a.view(np.int8).astype(np.float16) * b.view(np.int8).astype(np.float16)
            r = np.clip(np.trunc(p.astype(np.float32)), -128, 127).astype(np.int8).view(np.uint8)
        elif recipe == "arch35":
            r = a & b
        else:
            r = ((a != 0) & (b != 0)).astype(np.uint8)
        outs[0].view(np.uint8)[...] = r
        return "numpy"

    return compute
