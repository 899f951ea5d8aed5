"""The SoftmaxV2 kernels: ``exp(x - max) / sum(exp(x - max))`` along one axis.

The steps, in this order: the maximum along the axis, the difference ``x - max``, its
exponential, the sum of the exponentials, the division. Per recipe:

* ``arch35`` (Ascend950, AscendC): float16/bfloat16 upcast exactly; everything in float32;
  ``Exp`` and ``Div`` flush subnormal results to +0 (documented ``ExpAlgo::INTRINSIC`` /
  ``DivAlgo::INTRINSIC`` behaviour); the sum in the order of the tiling template the shape
  selects (:func:`template_3510`); the result rounded once (RINT) to the dtype;
* ``tbe`` (Ascend910B, 910_93, 910, 310P; the TBE ``softmax_v2`` compute): float32 as above
  without flushing; **float16 subtracts the maximum in float16** (rounded) before the float32
  exponential; bfloat16 computes in float32; Ascend310P multiplies by the reciprocal of the
  sum (``1/s`` then ``e * (1/s)``, two roundings); the sum in the chosen TBE order of
  :mod:`.reduce_sum` (64 lanes, then the pair tree);
* ``aicpu`` (DOUBLE): a 0-d input gives 1.0; else ``e = exp(x - max)`` in float64, the sum in
  sequence along the axis, then ``e * (1/sum)``.

The exponential is numpy's (float32 ``np.exp``; the chips' ``Exp`` is documented within 1 ulp
on Ascend950 and not documented for the TBE chips), so float results can differ from the chip
in the last bit wherever an exponential does.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from . import accel
from . import reduce_sum as rs
from ._fp import store

Compute = Callable[[Sequence[np.ndarray], Sequence[np.ndarray]], str]

F32 = np.float32
TINY = F32(2.0**-126)  # the smallest normal float32: anything smaller is flushed on Ascend950

# Ascend950 platform numbers the tiling reads (CANN 8.1.RC1 ``Ascend910_95.ini``; unverified for
# the shipped Ascend950): vector cores, and the unified buffer in bytes.
NUM_BLOCKS = 64
UB_SIZE = 253952

SMALL_R_MAX = 16  # DATA_BLOCK_COUNT
SMALL_R_MIN_A, SMALL_R_MAX_A = 5, 160  # the small-R template is off for a1 in [5, 160] * cores
AR_FULL_LOAD_R_MAX = 16384
UB_RESERVED = 1024


def fnp2(v: int) -> int:
    """``FindNearestPower2``: the largest power of two strictly below v (0 for v <= 1)."""
    return 0 if v <= 1 else rs.floor_pow2(v - 1)


def fuse(shape: Sequence[int], axis: int) -> tuple[int, int, int]:
    """The tiling's (a1, r, a0) around the softmax axis; r == 1 moves everything to a0."""
    if not shape:
        return 1, 1, 1
    a1 = int(np.prod(shape[:axis], dtype=np.int64))
    r = int(shape[axis])
    a0 = int(np.prod(shape[axis + 1 :], dtype=np.int64))
    if r == 1:
        a1, a0 = 1, a1 * a0
    return a1, r, a0


def ar_full_load_factor(r: int, itemsize: int) -> int:
    """The AR full-load template's rows per UB pass (<= 0: the template cannot hold a row)."""
    r_aligned = rs._ceil(r, 32 // itemsize)
    binary_tmp = 0
    if r > 2 * rs.LANES:
        binary_tmp = rs._ceil(fnp2(-(-r // rs.LANES)), rs.BLOCK) * 4
    per_row = r_aligned * 4 + 2 * r_aligned * itemsize + 2 * r_aligned * itemsize + binary_tmp
    return (UB_SIZE - UB_RESERVED) // per_row


def ar_recompute_factor(r: int, itemsize: int) -> int:
    """The AR recompute template's UB tile along r (a multiple of 32 elements, or r)."""
    flexible = UB_SIZE - 32 - 32 - 2048
    base = itemsize * 3 + itemsize * 2 + 4
    return min(r, (flexible // base) // 32 * 32)


def ara_full_load_factor(r: int, itemsize: int) -> int:
    """The ARA full-load template's 64/128-column tiles per UB pass (<= 0: not capable)."""
    tile_base = 64 if itemsize == 4 else 128
    return UB_SIZE // ((itemsize * 2 + 4 * 2 + 4) * r + 4 + 4) // tile_base


def template_3510(shape: Sequence[int], axis: int, itemsize: int) -> str:
    """The tiling template Ascend950 picks (tried in priority order, the first capable one)."""
    a1, r, a0 = fuse(shape, axis)
    if a0 == 1:
        busy = NUM_BLOCKS * SMALL_R_MIN_A <= a1 <= NUM_BLOCKS * SMALL_R_MAX_A
        if r <= SMALL_R_MAX and not busy:
            return "ar_small_r"
        if r <= AR_FULL_LOAD_R_MAX and ar_full_load_factor(r, itemsize) > 0:
            return "ar_full_load"
        return "ar_recompute"
    return "ara_full_load" if ara_full_load_factor(r, itemsize) > 0 else "ara_recompute"


# -- the sums of Ascend950's templates (rows: (N, r) float32) --------------------------------------


def sum_small_r(rows: np.ndarray) -> np.ndarray:
    """AR small R: the rows are transposed to (r, a) and summed by AscendC RA (r <= 16): the
    tail rows folded onto the first, then halving."""
    return rs.halve(rs.fold_tail(rows, -1), -1)


def _reduce64(a: np.ndarray) -> np.ndarray:
    """``Reduce<SUM>`` of one register: up to 64 lanes (+0.0 beyond), the pair tree."""
    return rs.pair_tree(rs.pad_last(a, rs.LANES))


def _post(p: np.ndarray) -> np.ndarray:
    """``SecondNormComputePost``: n <= 64 values one reduce; 64 < n <= 128 lane pairs first."""
    n = p.shape[-1]
    if n <= rs.LANES:
        return _reduce64(p)
    v = p[..., : rs.LANES].copy()
    v[..., : n - rs.LANES] += p[..., rs.LANES : n]
    return _reduce64(v)


def sum_ar_full_load(rows: np.ndarray) -> np.ndarray:
    """AR full load (``SecondNormCompute``): rows of r <= 128 go to the post step; longer rows
    fold chunk j with chunk j + fold (fold = the largest power of two below the chunk count;
    the last, partial chunk onto chunk F - fold on its valid lanes), one reduce per pair or
    lone chunk, then the post step over the fold partials."""
    r = rows.shape[-1]
    if r <= 2 * rs.LANES:
        return _post(rows)
    c = -(-r // rs.LANES)
    f = r // rs.LANES
    fold = fnp2(c)
    chunk = [rows[..., j * rs.LANES : (j + 1) * rs.LANES] for j in range(c)]
    parts = [_reduce64(chunk[j] + chunk[j + fold]) for j in range(f - fold)]
    lone_from = f - fold
    if c > f:  # the partial chunk F, on its valid lanes
        a = chunk[f - fold].copy()
        a[..., : r - f * rs.LANES] += chunk[f]
        parts.append(_reduce64(a))
        lone_from += 1
    parts += [_reduce64(chunk[j]) for j in range(lone_from, fold)]
    return _post(np.stack(parts, axis=-1))


def trailing_ones(i: int) -> int:
    """``GetCacheID``: the number of trailing 1 bits of i."""
    n = 0
    while i & 1:
        i >>= 1
        n += 1
    return n


def sum_ar_recompute(rows: np.ndarray, itemsize: int) -> np.ndarray:
    """AR recompute: UB tiles of u elements; tile i plus tile B + i (B = the largest power of
    two below the tile count; the tail tile on its valid lanes), each summed by AscendC AR,
    the partials combined by the binary-counter cache (a pairwise tree in tile order)."""
    r = rows.shape[-1]
    u = ar_recompute_factor(r, itemsize)
    ceil_n, floor_n = -(-r // u), r // u
    tail = r - u * floor_n
    b = fnp2(ceil_n)
    if b == 0:
        return rs.ar_sum(rows[..., :u])
    main_fold = floor_n - b
    cache: dict[int, np.ndarray] = {}
    for i in range(b):
        t = rows[..., i * u : (i + 1) * u].copy()
        if i < main_fold:
            t += rows[..., (b + i) * u : (b + i + 1) * u]
        elif i == main_fold and tail > 0:
            t[..., :tail] += rows[..., (b + i) * u : (b + i) * u + tail]
        p = rs.ar_sum(t)
        cid = trailing_ones(i)
        for j in range(cid):
            p = p + cache[j]
        cache[cid] = p
    return cache[trailing_ones(b - 1)]


def sum_ara(e: np.ndarray) -> np.ndarray:
    """ARA full load (``VFReduceSum``) of (a1, r, a0) over r, lanes = a0. Row i of the first Q
    (the largest power of two below r) is paired with row Q + i; r <= 2 adds in sequence from
    0; r <= 8 small trees; else 8-row trees, then 4-way trees, then a last pair."""
    r = e.shape[1]
    row = [e[:, i, :] for i in range(r)]
    zero = np.zeros_like(row[0])

    def get(i: int) -> np.ndarray:
        return row[i] if i < r else zero

    if r <= 2:
        s = zero
        for i in range(r):
            s = s + row[i]
        return s
    if r <= 4:
        return np.asarray((row[0] + get(2)) + (row[1] + get(3)))
    if r <= 8:
        return np.asarray(((row[0] + get(4)) + (row[1] + get(5))) + ((row[2] + get(6)) + (row[3] + get(7))))
    q = rs.floor_pow2(r - 1)
    ys = []
    for g in range(q // 8):
        a = [row[8 * g + i] + get(q + 8 * g + i) for i in range(8)]
        ys.append(((a[0] + a[1]) + (a[2] + a[3])) + ((a[4] + a[5]) + (a[6] + a[7])))
    while len(ys) >= 4:
        ys = [(ys[4 * j] + ys[4 * j + 1]) + (ys[4 * j + 2] + ys[4 * j + 3]) for j in range(len(ys) // 4)]
    if len(ys) == 2:
        ys = [ys[0] + ys[1]]
    return np.asarray(ys[0])


def _flush(a: np.ndarray) -> np.ndarray:
    """Ascend950's Exp/Div: subnormal results become +0 (the values here are >= +0 or NaN)."""
    return np.where(np.abs(a) < TINY, F32(0), a)


def softmax_3510(x: np.ndarray, axis: int) -> tuple[np.ndarray, str]:
    """Float32 softmax of ``x`` (any float dtype) in Ascend950's order; (result, template)."""
    template = template_3510(x.shape, axis, x.dtype.itemsize)
    a1, r, a0 = fuse(x.shape, axis)
    v = x.astype(F32).reshape(a1, r, a0)
    m = np.max(v, axis=1, keepdims=True)
    e = _flush(np.exp(v - m))
    if template.startswith("ara"):
        s = sum_ara(e)[:, None, :]
    else:
        rows = e[:, :, 0]
        if template == "ar_small_r":
            s = sum_small_r(rows)
        elif template == "ar_full_load":
            s = sum_ar_full_load(rows)
        else:
            s = sum_ar_recompute(rows, x.dtype.itemsize)
        s = s[:, None, None]
    return _flush(e / s).reshape(x.shape), template


def softmax_tbe(x: np.ndarray, axis: int, reciprocal: bool) -> np.ndarray:
    """Float32 softmax of ``x`` in the TBE recipe (``reciprocal``: Ascend310P's e * (1/s))."""
    v = x if x.ndim else x.reshape(1)
    ax = axis if x.ndim else 0
    m = np.max(v, axis=ax, keepdims=True)
    if v.dtype == np.float16:
        d = (v - m).astype(F32)  # the subtraction rounds to float16 first
    else:
        vf = v.astype(F32)
        d = vf - np.max(vf, axis=ax, keepdims=True)
    e = np.exp(d)
    s = np.expand_dims(rs.lanes_sum(np.moveaxis(e, ax, -1)), ax)
    out = e * (F32(1) / s) if reciprocal else e / s
    return np.asarray(out).reshape(x.shape)


def softmax_aicpu(x: np.ndarray, axis: int) -> np.ndarray:
    """Float64 softmax as the AI CPU kernel computes it (0-d: 1.0)."""
    if x.ndim == 0:
        return np.ones((), np.float64)
    m = np.max(x, axis=axis, keepdims=True)
    e = np.exp(x - m)
    s = np.cumsum(e, axis=axis)
    s = np.take(s, [-1], axis=axis)
    return np.asarray(e * (1.0 / s))


EXP_BLOCK = 1 << 16  # elements per block of the compiled path (np.exp runs on one block at a time)
_METHODS = {"ar_small_r": 1, "ar_full_load": 2, "ar_recompute": 3}  # _numba_softmax.SM_*
_NO_BLOCK = np.empty(0, np.float32)  # the fused rows need no float32 block


def _numba_softmax(recipe: str, x: np.ndarray, axis: int, reciprocal: bool, out: np.ndarray) -> str | None:
    """The compiled path, when x and out are contiguous arrays of one float kind. Where numpy's
    float32 exp is the algorithm the kernels compile in (``_numba_exp.exp_matches_numpy``),
    each row along the last axis is done in one pass while it is in the cache (maximum, exp,
    sum in the recipe's order, division, store), and the inner-axis kernel takes the exp in its
    first loop. Elsewhere, block by block, the kernel writes ``x - max`` as float32, numpy's
    ``np.exp`` takes the block (the recipe's own exponential), the kernel sums in the recipe's
    order, divides and stores. Both give the numpy recipe's bits. Returns the path taken, or
    None."""
    nb = accel.use_numba(x.size)
    if nb is None or x.ndim == 0 or x.size == 0 or out.shape != x.shape or np.may_share_memory(x, out):
        return None
    kb, ob = accel.kind_and_bits(x), accel.kind_and_bits(out)
    if kb is None or ob is None or kb[0] != ob[0]:
        return None
    kind = kb[0]
    xb, obits = kb[1].view(np.uint16), ob[1].view(np.uint16)  # one kernel signature for the three kinds
    a1 = int(np.prod(x.shape[:axis], dtype=np.int64))
    r = int(x.shape[axis])
    a0 = int(np.prod(x.shape[axis + 1 :], dtype=np.int64))
    if r == 1:
        return None
    arch = recipe == "arch35"
    f16_sub = not arch and x.dtype == np.float16
    template = template_3510(x.shape, axis, x.dtype.itemsize) if arch else "tbe"
    # numba is loaded (use_numba said so): the kernels' modules may be imported now
    from . import _numba_exp as ex
    from . import _numba_softmax as smx

    fused = ex.exp_matches_numpy()  # numpy's exp compiled in (else np.exp on float32 blocks)
    with np.errstate(all="ignore"):
        if a0 == 1:
            method = _METHODS[template] if arch else 0
            u = ar_recompute_factor(r, x.dtype.itemsize) if template == "ar_recompute" else 0
            if fused:  # one pass per row while it is in the cache
                smx.softmax_rows(
                    kind, smx.MODE_FUSED, f16_sub, method, u, arch, reciprocal, xb, _NO_BLOCK, 0, a1, r, obits
                )
                return f"numba arch35 {template}" if arch else "numba tbe"
            per = max(1, EXP_BLOCK // r)
            e = np.empty(min(per, a1) * r, np.float32)
            for row0 in range(0, a1, per):
                cnt = min(per, a1 - row0)
                blk = e[: cnt * r]
                smx.softmax_rows(
                    kind, smx.MODE_PREP, f16_sub, method, u, arch, reciprocal, xb, blk, row0, cnt, r, obits
                )
                np.exp(blk, out=blk)
                smx.softmax_rows(
                    kind, smx.MODE_FINISH, f16_sub, method, u, arch, reciprocal, xb, blk, row0, cnt, r, obits
                )
        elif fused:  # slab by slab, each while it is in the cache
            e = np.empty(r * a0, np.float32)
            smx.softmax_cols(kind, smx.MODE_FUSED, f16_sub, arch, arch, reciprocal, xb, e, 0, a1, r, a0, obits)
        else:
            per = max(1, EXP_BLOCK // (r * a0))
            e = np.empty(min(per, a1) * r * a0, np.float32)
            for b0 in range(0, a1, per):
                cnt = min(per, a1 - b0)
                blk = e[: cnt * r * a0]
                smx.softmax_cols(kind, smx.MODE_PREP, f16_sub, arch, arch, reciprocal, xb, blk, b0, cnt, r, a0, obits)
                np.exp(blk, out=blk)
                smx.softmax_cols(kind, smx.MODE_FINISH, f16_sub, arch, arch, reciprocal, xb, blk, b0, cnt, r, a0, obits)
    return f"numba arch35 {template}" if arch else "numba tbe"


def make(recipe: str, axis: int, reciprocal: bool = False) -> Compute:
    """The launch computation of SoftmaxV2 along the normalised ``axis`` (``recipe``:
    ``arch35``, ``tbe`` or ``aicpu``; ``reciprocal`` for Ascend310P's TBE division)."""

    def compute(ins: Sequence[np.ndarray], outs: Sequence[np.ndarray]) -> str:
        x, out = ins[0], outs[0]
        with np.errstate(all="ignore"):
            if recipe == "aicpu":
                out[...] = softmax_aicpu(x, axis)
                return "aicpu"
            fast = _numba_softmax(recipe, x, axis, reciprocal, out)
            if fast is not None:
                return fast
            if recipe == "arch35":
                r, template = softmax_3510(x, axis)
                store(out, r)
                return f"arch35 {template}"
            store(out, softmax_tbe(x, axis, reciprocal))
            return "tbe"

    return compute
