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
from ._fp import CANONICAL_NAN, CHUNK, Blocks, blocks, has_nan, run_elementwise, run_ufunc, store

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


# float64 bits below a dtype's last significand bit, and its smallest normal: a float64 ``s``
# in the dtype's normal range is a midpoint between two neighbours of the dtype exactly when
# those low bits are 1 followed by zeros (float32: 29 = 52 - 23 bits; float16: 42 = 52 - 10)
_MIDPOINT = {np.dtype(np.float32): (29, 2.0**-126), np.dtype(np.float16): (42, 2.0**-14)}
_INT64_MIN = np.iinfo(np.int64).min


def _breakpoints(s: np.ndarray, dtype: np.dtype, work: np.ndarray | None = None) -> np.ndarray | None:
    """The flat indices of the float64 sums ``s`` that rounding straight to ``dtype`` may get
    wrong, or None when there are none. See :func:`fma_fast`: those
    are the sums whose low 52 - (p - 1) significand bits are 1 followed by zeros (a midpoint of
    ``dtype`` when in its normal range; elsewhere a harmless extra) and the nonzero sums below
    ``dtype``'s smallest normal.

    ``work``: a float64 buffer of ``s``'s size for the two temporaries (a blocked caller's: a
    new block-sized array (2 MiB) costs page faults whenever malloc returns the memory between
    blocks, which glibc does by default: 4x the time of the arithmetic)."""
    low, tiny = _MIDPOINT[dtype]
    flat = np.ascontiguousarray(s).reshape(-1)
    if flat.size == 0:
        return None
    # the low bits 1 then zeros <=> shifted to the top they read 1 << 63, int64's minimum
    top = np.left_shift(flat.view(np.uint64), np.uint64(64 - low), out=None if work is None else work.view(np.uint64))
    top = top.view(np.int64)
    mask = top == _INT64_MIN if top.min() == _INT64_MIN else None
    m = np.abs(flat, out=work)
    smallest = m.min()  # NaN when some sum is NaN: then the test below takes the small ones
    if not smallest >= tiny:
        small = (m < tiny) & (m != 0)  # NaN compares False
        mask = small if mask is None else mask | small
    if mask is None:
        return None
    idx = np.flatnonzero(mask)
    return idx if idx.size else None


def _at(x: Any, shape: tuple[int, ...], idx: np.ndarray) -> Any:
    """The elements of ``x`` broadcast to ``shape`` at the flat indices ``idx``."""
    x = np.asarray(x)
    if x.size == 1:
        return x.reshape(())
    return np.broadcast_to(x, shape)[np.unravel_index(idx, shape)]


def fma_fast(
    a: Any,
    b: Any,
    c: Any,
    dtype: np.dtype,
    out: np.ndarray | None = None,
    s: np.ndarray | None = None,
    work: np.ndarray | None = None,
) -> np.ndarray:
    """:func:`fma` with the same bits, cheaper: ``float64(a) * float64(b) + float64(c)`` rounded
    straight to ``dtype`` (float32 or float16), :func:`fma` itself only for the elements whose
    sum is a breakpoint of ``dtype`` or below its smallest normal.

    Why that is the same number. Let x be the exact ``a * b + c`` and s = RN64(x) (the product
    is exact in float64: 2 * 24 bits < 53; so s is the float64 sum :func:`fma` starts from). R,
    rounding to ``dtype`` (to nearest even, overflowing to inf), is a monotone step function
    that changes value only at its breakpoints: the midpoints between neighbouring values of
    the dtype (including the one between its largest finite value and the next power of two,
    from which on everything is inf). Every breakpoint b is a float64 value (at most p + 1
    bits), so RN64 keeps it and, being monotone, keeps x's side of it: x < b gives s <= b and
    x > b gives s >= b. Hence when s is no breakpoint, x and s lie strictly between the same
    two breakpoints and R(s) = R(x), which :func:`fma` returns (round to odd, then one
    rounding, is correctly rounded). In the normal range of ``dtype`` a float64 breakpoint has
    its low 52 - (p - 1) significand bits equal to 1 followed by zeros (:func:`_breakpoints`
    finds them); below the smallest normal the breakpoints are odd multiples of half the
    smallest subnormal, so every nonzero |s| there is taken as one. Zeros: x = 0 gives s = +-0
    exactly and no correction in :func:`fma` (its error term is zero), -0 + -0 keeping its sign
    in both; NaN and inf sums are converted alike (:func:`fma` corrects finite sums only).

    ``out``: written instead of a new array (it may be ``c`` itself: every element of ``c`` is
    read first); ``s`` and ``work``: float64 buffers of the result's shape for the sums and the
    breakpoint test (:func:`_breakpoints`)."""
    if dtype not in _MIDPOINT:
        r = fma(a, b, c, dtype)
        if out is None:
            return r
        out[...] = r
        return out
    with np.errstate(all="ignore"):
        if s is None:
            s = np.add(np.multiply(a, b, dtype=np.float64), c, dtype=np.float64)
        else:
            np.multiply(a, b, out=s, dtype=np.float64)
            np.add(s, c, out=s, dtype=np.float64)
        idx = _breakpoints(s, dtype, work)
        shape = s.shape
        fixed = None if idx is None else fma(_at(a, shape, idx), _at(b, shape, idx), _at(c, shape, idx), dtype)
        if out is None:
            out = np.asarray(s.astype(dtype))
        else:
            np.copyto(out, s, casting="same_kind")
        if fixed is not None:
            out.reshape(-1)[idx] = fixed
    return out


def _pow2_alpha(alpha: np.float32) -> bool:
    """Whether ``alpha`` is 0 or +-2^k: then ``alpha * x`` in float32 is exact for every float32
    x unless it overflows or underflows inexactly (a power of two only moves the exponent; a
    zero gives a signed zero or NaN as float64 would)."""
    if alpha == 0:
        return True
    if not np.isfinite(alpha):
        return False
    return bool(abs(np.frexp(alpha)[0]) == 0.5)


def _short_alpha(alpha: np.float32) -> bool:
    """Whether ``alpha``'s significand has at most 8 bits (3, 1.5, 0.75, ...): its products
    then have few bits, and the float64 sums land on float32 midpoints often (a sixth of
    random normals for 3), so that :func:`fma` on the whole block is cheaper than finding them."""
    bits = int(np.asarray(alpha, np.float32).view(np.uint32)) & 0x7FFFFF
    return bits & 0xFFFF == 0


def axpy_float32(x1: np.ndarray, x2: np.ndarray, alpha: np.float32, out: np.ndarray) -> None:
    """``out = x1 + alpha * x2`` for float32 arrays, rounded once (the fused float32 vaxpy; NaN
    canonical): the numbers of ``store(out, fma(alpha, x2, x1, float32))``, computed in blocks.

    Three routes, each giving the correctly rounded result, which :func:`fma` gives too:

    * a small ``x2`` (a scalar or a row) whose products ``alpha * x2`` are all float32 values
      (checked once per call in float64, NaN products included): one float32 addition per
      element, which rounds the exact sum once;
    * ``alpha`` 0 or +-2^k (:func:`_pow2_alpha`): the float32 product is exact unless it
      overflows or underflows inexactly, then one float32 addition; a block in which an
      operation overflows or underflows (IEEE's flags, which numpy raises as FloatingPointError
      under ``errstate(over="raise", under="raise")``; the sum of two float32 values never
      underflows inexactly) takes the float64 route;
    * otherwise the float64 sum rounded straight to float32 (:func:`fma_fast` says why), the
      elements at a float32 breakpoint or below the smallest normal by :func:`fma`; for an
      alpha of few bits (:func:`_short_alpha`) :func:`fma` on every block, as before.

    In the float32 routes a block holding a NaN (``np.maximum.reduce`` propagates it: one read
    of the block) gets its NaNs written as the canonical one. The layouts the blocks do not
    take (:func:`._fp.blocks`) run :func:`fma_fast` on the whole arrays."""
    a32 = np.float32(alpha)
    a = np.full((), a32, np.float32)
    # every route in blocks of CHUNK (2^18) elements: for the float32 routes measured 5-10% faster
    # than 2^16 on 2^22 elements, the calls' overhead outweighing the cache misses
    length = CHUNK
    with np.errstate(all="ignore"):
        if blocks([x1, x2], out) is None:  # a layout the blocks do not take
            store(out, fma_fast(a, x2, x1, np.dtype(np.float32)))
            return
        if x2.size < out.size:
            p64 = np.multiply(x2, np.float64(a32), dtype=np.float64)
            p32 = p64.astype(np.float32)
            if bool(np.all((p32 == p64) | np.isnan(p64))):
                for ob, (b1, p) in _blocks([x1, p32], out, length):
                    np.add(b1, p, out=ob)
                    if has_nan(ob):
                        ob[np.isnan(ob)] = CANONICAL_NAN
                return
        if _pow2_alpha(a32):
            shared = any(x.size == out.size and np.may_share_memory(x, out) for x in (x1, x2))
            buf = np.empty(length, np.float32) if shared else None
            buf64 = None  # the float64 route's buffers, made on the first block that needs them
            with np.errstate(over="raise", under="raise"):
                for ob, (b1, b2) in _blocks([x1, x2], out, length):
                    t = ob if buf is None else buf[: ob.size]
                    try:
                        np.multiply(b2, a32, out=t)
                        np.add(b1, t, out=t)
                    except FloatingPointError:  # maybe an overflowed or underflowed product
                        buf64 = np.empty((2, length), np.float64) if buf64 is None else buf64
                        with np.errstate(all="ignore"):
                            _f64_block(b1, b2, a, ob, buf64)
                        continue
                    if t is not ob:
                        ob[...] = t
                    if has_nan(ob):
                        ob[np.isnan(ob)] = CANONICAL_NAN
            return
        parts = _blocks([x1, x2], out, length)
        if _short_alpha(a32):
            for ob, (b1, b2) in parts:
                store(ob, fma(a, b2, b1, np.dtype(np.float32)))
            return
        buf64 = np.empty((2, length), np.float64)  # once a call: no page faults a block
        for ob, (b1, b2) in parts:
            _f64_block(b1, b2, a, ob, buf64)


def _blocks(inputs: list[np.ndarray], out: np.ndarray, length: int) -> Blocks:
    """:func:`._fp.blocks` of a layout already known to be taken."""
    parts = blocks(inputs, out, length=length)
    assert parts is not None
    return parts


def _f64_block(b1: Any, b2: Any, a: np.ndarray, ob: np.ndarray, buf64: np.ndarray) -> None:
    """One flat block of :func:`axpy_float32`'s float64 route (:func:`fma_fast` into ``ob``,
    its two buffers the rows of ``buf64``, a block's length or more), NaN canonical."""
    n = ob.size
    fma_fast(a, b2, b1, np.dtype(np.float32), out=ob, s=buf64[0, :n], work=buf64[1, :n])
    if has_nan(ob):
        ob[np.isnan(ob)] = CANONICAL_NAN


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
                r = np.empty(out.shape, np.float32)
                axpy_float32(x1.astype(np.float32), x2.astype(np.float32), alpha32, r)
                out[...] = _trunc_int32(r)  # NaN (whichever) gives 0
                return "numpy"
            once = recipe == "tbe" and dt == np.float16  # alpha rounded to float16, one fp16 vaxpy
            if _axpy_numba(x1, x2, out, np.float32(a.astype(dt)) if once else alpha32, once):
                return "numba"
            if dt in _HALF:
                if once:

                    def recipe_fn(p: np.ndarray, q: np.ndarray) -> np.ndarray:
                        return fma_fast(a.astype(dt), q, p, dt)

                else:  # float32 vaxpy, then the cast (two roundings); TBE bfloat16 (support_bfp16) too

                    def recipe_fn(p: np.ndarray, q: np.ndarray) -> np.ndarray:
                        p32, q32 = np.asarray(p, np.float32), np.asarray(q, np.float32)
                        r32 = np.empty(np.broadcast_shapes(p32.shape, q32.shape), np.float32)
                        axpy_float32(p32, q32, alpha32, r32)  # its canonical NaN: store's anyway
                        return r32.astype(dt)

                run_elementwise(recipe_fn, [x1, x2], out)
                return "numpy"
            if dt == np.float32:
                axpy_float32(x1, x2, alpha32, out)
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
                a32 = alpha.astype(np.float32)
                r32 = fma_fast(a32, x2.astype(np.float32), x1.astype(np.float32), np.dtype(np.float32))
                _write(out, r32.astype(dt))
            elif dt == np.float32 and alpha.size == 1:
                axpy_float32(x1, x2, np.float32(alpha.reshape(-1)[0]), out)
            elif dt == np.float32:
                _write(out, fma_fast(alpha, x2, x1, dt))
            else:  # integers: wrapping multiply and add
                out[...] = x1 + x2 * alpha
        return "numpy"

    return compute
