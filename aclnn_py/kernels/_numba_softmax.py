# mypy: disallow-untyped-defs=False, warn-return-any=False
"""The accelerator's SoftmaxV2 and ScaledMaskedSoftmaxV2 kernels: the maximum, ``x - max``, the
exponential, the sum in the recipe's order and the division, one row (or one slab of columns)
at a time while it is in the cache.

The recipes are those of :mod:`aclnn_py.kernels.softmax` (SoftmaxV2: the TBE ``softmax_v2``
compute with the 64-lane sum of :mod:`._numba_reduce`, and Ascend950's AscendC templates in
ops-nn ``activation/softmax_v2/op_kernel/arch35/``: ``ar_small_r``, ``ar_full_load``,
``ar_recompute`` along the last axis, the ARA tree for the inner axes) and of
:mod:`aclnn_py.kernels.scaled_masked_softmax_v2` (ops-nn
``vfusion/scaled_masked_softmax_v2/op_kernel/``: scale, mask, then the AscendC ``SoftMax`` row
sum of the v220 or 3510 chips). The exponential is numpy's float32 ``np.exp``, compiled in by
:mod:`._numba_exp`.

A softmax layout is one kernel whose ``mode`` is the fused pass (numpy's exp compiled in), the
``x - max`` step or the sum and division step (the steps around ``np.exp`` where numpy's exp is
another algorithm), not three kernels holding the same sums. Like the ReduceSum kernels, every
kernel takes its data as uint16 arrays (float32 as the two halves of each element), so one
compiled signature serves the three float kinds.
"""

from __future__ import annotations

import numpy as np
from numba.np.numpy_support import carray

from ._numba import (
    F32,
    KIND_F16,
    KIND_F32,
    LANES,
    _canon,
    _jit,
    _jit_in,
    _jit_inline,
    _narrow16,
    _stack_lanes,
    _tree,
    _widen16,
    mask_row,
)
from ._numba_exp import EXP_NORMAL_MIN, _exp_normal, np_exp32
from ._numba_reduce import (
    _ar_sum,
    _floor_pow2,
    _lanes_add_f32,
    _lanes_sum_f32,
    _lanes_tree,
    _load,
    _reduce64,
    _zero_lanes,
)

TINY = F32(2.0**-126)  # the smallest normal float32: Ascend950's Exp and Div flush anything smaller


# -- SoftmaxV2 ------------------------------------------------------------------------------------

SM_TBE, SM_SMALL_R, SM_FULL_LOAD, SM_RECOMPUTE = 0, 1, 2, 3
# What a softmax kernel call does: the whole softmax (numpy's exp compiled in), or one of the two
# steps around ``np.exp`` (``x - max`` into a float32 block; that block's exponentials summed,
# divided and stored).
MODE_FUSED, MODE_PREP, MODE_FINISH = 0, 1, 2


@_jit_in
def _row_max(v, r, part):
    """max(v[0:r]) as np.max gives it: NaN if any element is NaN (16 running maxima, so that the
    loop vectorises; which zero a maximum of zeros is does not matter to x - max)."""
    for j in range(16):
        part[j] = v[0]
    nan = False
    full = r // 16
    for c in range(full):
        chunk = v[c * 16 : c * 16 + 16]
        for j in range(16):
            val = chunk[j]
            part[j] = val if val > part[j] else part[j]
            nan |= val != val
    m = part[0]
    for j in range(1, 16):
        m = part[j] if part[j] > m else m
    for k in range(full * 16, r):
        val = v[k]
        m = val if val > m else m
        nan |= val != val
    return F32(np.nan) if nan else m


@_jit_in
def _flush_row(row):
    for k in range(row.size):
        v = row[k]
        row[k] = F32(0.0) if abs(v) < TINY else v


@_jit_in
def _div_store_f32(row, s, reciprocal, flush, fo):
    """fo = row / s (or row * (1 / s); ``flush``: subnormal quotients become +0), NaN canonical."""
    if reciprocal:
        inv = F32(1.0) / s
        for k in range(row.size):
            fo[k] = _canon(row[k] * inv)
    elif flush:
        for k in range(row.size):
            y = row[k] / s
            fo[k] = _canon(F32(0.0) if abs(y) < TINY else y)
    else:
        for k in range(row.size):
            fo[k] = _canon(row[k] / s)


@_jit_in
def _div_store_16(kind, row, s, reciprocal, flush, out):
    if reciprocal:
        inv = F32(1.0) / s
        for k in range(row.size):
            out[k] = _narrow16(kind, row[k] * inv)
    elif flush:
        for k in range(row.size):
            y = row[k] / s
            out[k] = _narrow16(kind, F32(0.0) if abs(y) < TINY else y)
    else:
        for k in range(row.size):
            out[k] = _narrow16(kind, row[k] / s)


@_jit_in
def _post(p, n, tmp, blk):
    """``SecondNormComputePost``: up to 64 values one reduce; up to 128, lane pairs first."""
    if n <= LANES:
        return _reduce64(p, 0, n, blk)
    for j in range(LANES):
        tmp[j] = p[j] + p[LANES + j] if j < n - LANES else p[j]
    return _reduce64(tmp, 0, LANES, blk)


@_jit_in
def _sum_full_load(row, r, parts, tmp, blk):
    """AR full load (:func:`softmax.sum_ar_full_load`)."""
    if r <= 2 * LANES:
        return _post(row, r, tmp, blk)
    c = -(-r // LANES)
    f = r // LANES
    fold = _floor_pow2(c - 1)
    n = 0
    for j in range(f - fold):
        for lane in range(LANES):
            tmp[lane] = row[j * LANES + lane] + row[(j + fold) * LANES + lane]
        parts[n] = _reduce64(tmp, 0, LANES, blk)
        n += 1
    lone_from = f - fold
    if c > f:
        t = r - f * LANES
        for lane in range(LANES):
            a = row[(f - fold) * LANES + lane]
            tmp[lane] = a + row[f * LANES + lane] if lane < t else a
        parts[n] = _reduce64(tmp, 0, LANES, blk)
        n += 1
        lone_from += 1
    for j in range(lone_from, fold):
        parts[n] = _reduce64(row, j * LANES, LANES, blk)
        n += 1
    return _post(parts, n, tmp, blk)


@_jit_in
def _trailing_ones(i):
    n = 0
    while i & 1:
        i >>= 1
        n += 1
    return n


@_jit_in
def _sum_recompute(row, r, u, tile, head, blk, cache):
    """AR recompute (:func:`softmax.sum_ar_recompute`): UB tiles of u, tile i plus tile B + i,
    each by AscendC AR, combined by the binary-counter cache."""
    ceil_n, floor_n = -(-r // u), r // u
    tail = r - u * floor_n
    b = _floor_pow2(ceil_n - 1) if ceil_n > 1 else 0
    if b == 0:
        return _ar_sum(row, min(u, r), head, blk)
    main_fold = floor_n - b
    for i in range(b):
        for k in range(u):
            tile[k] = row[i * u + k]
        if i < main_fold:
            for k in range(u):
                tile[k] = tile[k] + row[(b + i) * u + k]
        elif i == main_fold and tail > 0:
            for k in range(tail):
                tile[k] = tile[k] + row[(b + i) * u + k]
        p = _ar_sum(tile, u, head, blk)
        cid = _trailing_ones(i)
        for j in range(cid):
            p = p + cache[j]
        cache[cid] = p
    return cache[_trailing_ones(b - 1)]


@_jit_in
def _sum_small_r(row, r, tmp):
    """AR small R: the tail folded onto the head, then halving."""
    m = _floor_pow2(r)
    for j in range(m):
        tmp[j] = row[j] + row[m + j] if j < r - m else row[j]
    while m > 1:
        h = m // 2
        for j in range(h):
            tmp[j] = tmp[j] + tmp[j + h]
        m = h
    return tmp[0]


@_jit_inline
def _row_sum(method, u, row, r, acc, blk, tmp, parts, cache, tile, head):
    """The sum of the float32 row in the order of ``method`` (SM_TBE lanes, or an Ascend950
    template; ``u``: the recompute tile)."""
    if method == SM_TBE:
        return _lanes_sum_f32(row[:r])
    if method == SM_SMALL_R:
        return _sum_small_r(row, r, tmp)
    if method == SM_FULL_LOAD:
        return _sum_full_load(row, r, parts, tmp, blk)
    return _sum_recompute(row, r, u, tile, head, blk, cache)


@_jit_inline
def _row_scratch(u, r):
    """The blocks the row sums work in: (acc, blk, tmp, parts, cache, tile, head)."""
    return (
        np.zeros(LANES, np.float32),
        np.empty(LANES, np.float32),
        np.empty(max(LANES, 16), np.float32),
        np.empty(256, np.float32),
        np.zeros(64, np.float32),
        np.empty(max(u, 1), np.float32),
        np.empty(max(_floor_pow2(((max(u, r) + 7) // 8) * 8), 1), np.float32),
    )


@_jit_inline
def _finish_row(kind, method, u, flush, flush_exp, reciprocal, row, r, out, base, sc):
    """One row of exponentials -> ``e / sum`` (or ``e * (1 / sum)``) stored at out[base:];
    ``flush``: subnormal quotients become +0, ``flush_exp``: the exponentials first; ``sc``:
    :func:`_row_scratch`."""
    if flush_exp:
        _flush_row(row)
    acc, blk, tmp, parts, cache, tile, head = sc
    s = _row_sum(method, u, row, r, acc, blk, tmp, parts, cache, tile, head)
    if kind == KIND_F32:
        _div_store_f32(row, s, reciprocal, flush, out.view(np.float32)[base : base + r])
    else:
        _div_store_16(kind, row, s, reciprocal, flush, out[base : base + r])


@_jit_in
def _row_spread(v, r, blk):
    """(max, min) of v[0:r] for a row without NaN (with a NaN the values are unspecified): 64
    running maxima and minima (the order does not matter to either; which zero they are does
    not matter to x - max) in stack blocks that LLVM keeps in vector registers (see
    :func:`_stack_lanes`; an accumulator in a heap block, ``part[j] = v if v > part[j] else
    part[j]``, compiles to a masked store, which is slow on AMD CPUs). ``blk``: 64 floats."""
    hi = carray(_stack_lanes(), LANES)  # type: ignore[call-arg]
    lo = carray(_stack_lanes(), LANES)
    v0 = v[0]
    for j in range(LANES):
        hi[j] = v0
        lo[j] = v0
    full = r // LANES
    for c in range(full):
        chunk = v[c * LANES : c * LANES + LANES]
        for j in range(LANES):
            val = chunk[j]
            hi[j] = val if val > hi[j] else hi[j]
            lo[j] = val if val < lo[j] else lo[j]
    m, n = v0, v0
    for j in range(LANES):
        blk[j] = hi[j]
    for j in range(LANES):
        m = blk[j] if blk[j] > m else m
    for j in range(LANES):
        blk[j] = lo[j]
    for j in range(LANES):
        n = blk[j] if blk[j] < n else n
    for k in range(full * LANES, r):
        val = v[k]
        m = val if val > m else m
        n = val if val < n else n
    return m, n


@_jit_in
def _exp_diff_normal(row, m, f16_sub, flush):
    """row[k] = exp(row[k] - m) by :func:`_exp_normal`: for rows whose every difference is in
    [EXP_NORMAL_MIN, 0], or that hold a NaN (a NaN element gives a NaN exponential, so the sum,
    and every result, is NaN, as the recipe's NaN maximum makes them). ``flush``: a subnormal
    exponential becomes +0 (Ascend950), in the same loop (a separate pass in place compiles to
    a masked store)."""
    if f16_sub:
        for k in range(row.size):
            y = _exp_normal(_widen16(KIND_F16, _narrow16(KIND_F16, row[k] - m)))
            row[k] = F32(0.0) if flush and abs(y) < TINY else y
    elif flush:
        for k in range(row.size):
            y = _exp_normal(row[k] - m)
            row[k] = F32(0.0) if abs(y) < TINY else y
    else:
        for k in range(row.size):
            row[k] = _exp_normal(row[k] - m)


@_jit_in
def _exp_diff(row, m, f16_sub, flush):
    """row[k] = exp(row[k] - m) (numpy's float32 exp; ``f16_sub``: the difference rounded to
    float16 first, as the TBE float16 recipe subtracts in float16; ``flush``: as above)."""
    if f16_sub:
        for k in range(row.size):
            y = np_exp32(_widen16(KIND_F16, _narrow16(KIND_F16, row[k] - m)))
            row[k] = F32(0.0) if flush and abs(y) < TINY else y
    else:
        for k in range(row.size):
            y = np_exp32(row[k] - m)
            row[k] = F32(0.0) if flush and abs(y) < TINY else y


@_jit
def softmax_rows(kind, mode, f16_sub, method, u, flush, reciprocal, x, e, row0, nrows, r, out):
    """Rows [row0, row0 + nrows) of r contiguous elements; ``x`` and ``out`` are uint16 (the
    kind's bits, float32 as halves). ``mode``:

    * MODE_FUSED: the whole softmax, one row at a time while it is in the cache: widened to
      float32, its maximum (NaN if any element is NaN), ``exp(x - max)`` (:func:`np_exp32`), the
      sum in the order of ``method``, the division, the store (``e`` is not used);
    * MODE_PREP: ``x - max`` into the float32 block ``e`` (``f16_sub``: rounded to float16, as
      the TBE float16 recipe subtracts; the maximum propagates NaN);
    * MODE_FINISH: the exponentials in ``e`` summed (``method``; ``u``: the recompute tile),
      divided (``reciprocal``: ``e * (1 / sum)``) and stored; ``flush``: Ascend950's Exp and Div
      give +0 for subnormal results.

    MODE_PREP, ``np.exp`` on the block and MODE_FINISH make the same operations in the same order
    as MODE_FUSED."""
    bits = np.empty(max(r, 1) if mode == MODE_FUSED else 1, np.uint32)
    part = np.empty(16, np.float32)
    blk = np.empty(LANES, np.float32)
    sc = _row_scratch(u, r if mode != MODE_PREP else 1)
    for i in range(nrows):
        if mode == MODE_FINISH:
            row = e[i * r : i * r + r]
        else:
            row = bits.view(np.float32) if mode == MODE_FUSED else e[i * r : i * r + r]
            _load(x, (row0 + i) * r, r, kind, row.view(np.uint32))
            if mode == MODE_PREP:
                m = _row_max(row, r, part)
                if f16_sub:
                    for k in range(r):
                        row[k] = _widen16(KIND_F16, _narrow16(KIND_F16, row[k] - m))
                else:
                    for k in range(r):
                        row[k] = row[k] - m
                continue
            m, n = _row_spread(row, r, blk)
            if n - m >= EXP_NORMAL_MIN:  # every x - m is (rounds monotonically) in [-86, 0]
                _exp_diff_normal(row, m, f16_sub, flush)
            else:  # an infinity or a spread over 86 (or a NaN): the recipe's max, the guarded exp
                _exp_diff(row, _row_max(row, r, part), f16_sub, flush)
        _finish_row(kind, method, u, flush, flush and mode == MODE_FINISH, reciprocal, row, r, out, (row0 + i) * r, sc)


# -- SoftmaxV2 over the inner axes: slabs (r, a0) --------------------------------------------------


@_jit_in
def _ld(e, off, i, r, a0, c):
    return e[off + i * a0 + c] if i < r else F32(0.0)


@_jit_in
def _sum_ara(e, off, r, a0, s, ys):
    """ARA full load (:func:`softmax.sum_ara`) of the slab at ``off`` into s[0:a0]."""
    if r <= 2:
        for c in range(a0):
            acc = F32(0.0)
            for i in range(r):
                acc = acc + e[off + i * a0 + c]
            s[c] = acc
        return
    if r <= 4:
        for c in range(a0):
            s[c] = (e[off + c] + _ld(e, off, 2, r, a0, c)) + (e[off + a0 + c] + _ld(e, off, 3, r, a0, c))
        return
    if r <= 8:
        for c in range(a0):
            s[c] = ((e[off + c] + _ld(e, off, 4, r, a0, c)) + (e[off + a0 + c] + _ld(e, off, 5, r, a0, c))) + (
                (e[off + 2 * a0 + c] + _ld(e, off, 6, r, a0, c)) + (e[off + 3 * a0 + c] + _ld(e, off, 7, r, a0, c))
            )
        return
    q = _floor_pow2(r - 1)
    groups = q // 8
    for g in range(groups):
        y = ys[g]
        for c in range(a0):
            a0_ = e[off + (8 * g) * a0 + c] + _ld(e, off, q + 8 * g, r, a0, c)
            a1_ = e[off + (8 * g + 1) * a0 + c] + _ld(e, off, q + 8 * g + 1, r, a0, c)
            a2_ = e[off + (8 * g + 2) * a0 + c] + _ld(e, off, q + 8 * g + 2, r, a0, c)
            a3_ = e[off + (8 * g + 3) * a0 + c] + _ld(e, off, q + 8 * g + 3, r, a0, c)
            a4_ = e[off + (8 * g + 4) * a0 + c] + _ld(e, off, q + 8 * g + 4, r, a0, c)
            a5_ = e[off + (8 * g + 5) * a0 + c] + _ld(e, off, q + 8 * g + 5, r, a0, c)
            a6_ = e[off + (8 * g + 6) * a0 + c] + _ld(e, off, q + 8 * g + 6, r, a0, c)
            a7_ = e[off + (8 * g + 7) * a0 + c] + _ld(e, off, q + 8 * g + 7, r, a0, c)
            y[c] = ((a0_ + a1_) + (a2_ + a3_)) + ((a4_ + a5_) + (a6_ + a7_))
    n = groups
    while n >= 4:
        for j in range(n // 4):
            d, p0, p1, p2, p3 = ys[j], ys[4 * j], ys[4 * j + 1], ys[4 * j + 2], ys[4 * j + 3]
            for c in range(a0):
                d[c] = (p0[c] + p1[c]) + (p2[c] + p3[c])
        n //= 4
    if n == 2:
        for c in range(a0):
            s[c] = ys[0, c] + ys[1, c]
    else:
        for c in range(a0):
            s[c] = ys[0, c]


@_jit_in
def _store_row_f32(row, fo):
    for k in range(row.size):
        fo[k] = _canon(row[k])


@_jit_in
def _store_row_16(kind, row, out):
    for k in range(row.size):
        out[k] = _narrow16(kind, row[k])


@_jit_inline
def _prep_slab(kind, f16_sub, with_exp, x, base, r, a0, e, m_even, m_odd, n_even, n_odd, buf):
    """``x - max`` over r of the slab (r, a0) of x at ``base`` into e[0:r*a0] (float32);
    ``with_exp``: its exponential instead: :func:`_exp_normal` when every column's ``min - max``
    is at least EXP_NORMAL_MIN (as for the rows in :func:`softmax_rows`), else :func:`np_exp32`."""
    fb = buf.view(np.float32)
    _load(x, base, a0, kind, m_even.view(np.uint32))
    for c in range(a0):
        n_even[c] = m_even[c]
    # the running maxima (NaN once a NaN is seen) and minima alternate between two blocks: an
    # update in place compiles to a masked store, which is slow on AMD CPUs
    for k in range(1, r):
        _load(x, base + k * a0, a0, kind, buf)
        src, dst = (m_even, m_odd) if k % 2 else (m_odd, m_even)
        nsrc, ndst = (n_even, n_odd) if k % 2 else (n_odd, n_even)
        for c in range(a0):
            val, mc, nc = fb[c], src[c], nsrc[c]
            dst[c] = val if ((val > mc) | (val != val)) & (mc == mc) else mc
            ndst[c] = val if val < nc else nc
    m = m_odd if r % 2 == 0 else m_even
    n = n_odd if r % 2 == 0 else n_even
    normal = True
    for c in range(a0):
        normal &= n[c] - m[c] >= EXP_NORMAL_MIN  # false for a NaN maximum
    for k in range(r):
        _load(x, base + k * a0, a0, kind, buf)
        dst = e[k * a0 : k * a0 + a0]
        if not with_exp:
            if f16_sub:
                for c in range(a0):
                    dst[c] = _widen16(KIND_F16, _narrow16(KIND_F16, fb[c] - m[c]))
            else:
                for c in range(a0):
                    dst[c] = fb[c] - m[c]
        elif normal:
            if f16_sub:
                for c in range(a0):
                    dst[c] = _exp_normal(_widen16(KIND_F16, _narrow16(KIND_F16, fb[c] - m[c])))
            else:
                for c in range(a0):
                    dst[c] = _exp_normal(fb[c] - m[c])
        elif f16_sub:
            for c in range(a0):
                dst[c] = np_exp32(_widen16(KIND_F16, _narrow16(KIND_F16, fb[c] - m[c])))
        else:
            for c in range(a0):
                dst[c] = np_exp32(fb[c] - m[c])


@_jit_inline
def _finish_slab(kind, ara, flush, reciprocal, e, out, base, r, a0, s, acc, ys):
    """A slab of exponentials e[0:r*a0] as (r, a0) -> divided by their sums over r (the TBE
    lanes, or Ascend950's ARA tree), stored into out at ``base``."""
    tile = acc.shape[1]
    if flush:
        for k in range(r * a0):
            v = e[k]
            e[k] = F32(0.0) if abs(v) < TINY else v
    if ara:
        _sum_ara(e, 0, r, a0, s, ys)
    else:
        for c0 in range(0, a0, tile):
            w = min(tile, a0 - c0)
            _zero_lanes(acc, w)
            for k in range(r):
                row = acc[k % LANES]
                src = e[k * a0 + c0 : k * a0 + c0 + w]
                for j in range(w):
                    row[j] = row[j] + src[j]
            _lanes_tree(acc, w)
            for j in range(w):
                s[c0 + j] = acc[0, j]
    if reciprocal:
        for c in range(a0):
            s[c] = F32(1.0) / s[c]
    for k in range(r):
        row = e[k * a0 : k * a0 + a0]
        if reciprocal:
            for c in range(a0):
                row[c] = row[c] * s[c]
        else:
            for c in range(a0):
                y = row[c] / s[c]
                row[c] = F32(0.0) if flush and abs(y) < TINY else y
        if kind == KIND_F32:
            _store_row_f32(row, out.view(np.float32)[base + k * a0 : base + k * a0 + a0])
        else:
            _store_row_16(kind, row, out[base + k * a0 : base + k * a0 + a0])


@_jit
def softmax_cols(kind, mode, f16_sub, ara, flush, reciprocal, x, e, b0, nb, r, a0, out):
    """Slabs [b0, b0 + nb) of x as (a1, r, a0), the softmax over r; ``x`` and ``out`` are uint16
    (the kind's bits, float32 as halves). ``mode``: MODE_FUSED, the whole softmax slab by slab
    (``e``: r * a0 floats of scratch); MODE_PREP, ``x - max`` into the float32 block ``e``
    (slab b at b * r * a0); MODE_FINISH, the exponentials in ``e`` divided by their sums over r
    (the TBE lanes, or ``ara``: Ascend950's ARA tree) and stored into out."""
    prep, finish = mode != MODE_FINISH, mode != MODE_PREP
    w = a0 if prep else 1
    m_even, m_odd = np.empty(w, np.float32), np.empty(w, np.float32)
    n_even, n_odd = np.empty(w, np.float32), np.empty(w, np.float32)
    buf = np.empty(w, np.uint32)
    s = np.empty(a0 if finish else 1, np.float32)
    acc = np.zeros((LANES, min(a0, 1024) if finish and not ara else 1), np.float32)
    ys = np.empty((max(r // 8, 1), a0) if finish and ara else (1, 1), np.float32)
    for b in range(nb):
        base = (b0 + b) * r * a0
        slab = e if mode == MODE_FUSED else e[b * r * a0 : (b + 1) * r * a0]
        if prep:
            _prep_slab(kind, f16_sub, finish, x, base, r, a0, slab, m_even, m_odd, n_even, n_odd, buf)
        if finish:
            _finish_slab(kind, ara, flush, reciprocal, slab, out, base, r, a0, s, acc, ys)


# -- ScaledMaskedSoftmaxV2 ------------------------------------------------------------------------


@_jit
def scaled_masked_prep(kind, x, mask, row0, nrows, d, n_dim, s_dim, mask_b, mask_n, scale, scale16, e):
    """Step 1 and the subtraction of step 2 for rows [row0, row0 + nrows): float32
    ``s = x * scale`` (float16: the product in float16 by ``scale16``), -10000 where the mask
    byte is set, ``e = s - max(s)``. The mask broadcasts over b (``mask_b`` false) and n."""
    mask_val = F32(-10000.0)
    buf = np.empty(d, np.uint32)
    fb = buf.view(np.float32)
    part = np.empty(16, np.float32)
    for i in range(nrows):
        r = row0 + i
        mrow = mask_row(r, n_dim, s_dim, mask_b, mask_n)
        mk = mask[mrow * d : mrow * d + d]
        out = e[i * d : i * d + d]
        _load(x, r * d, d, kind, buf)
        if kind == KIND_F16:  # the half-precision Muls: the product rounded to float16
            for k in range(d):
                v = _widen16(KIND_F16, _narrow16(KIND_F16, fb[k] * scale16))
                out[k] = mask_val if mk[k] != 0 else v
        else:
            for k in range(d):
                v = fb[k] * scale
                out[k] = mask_val if mk[k] != 0 else v
        m = _row_max(out, d, part)
        for k in range(d):
            out[k] = out[k] - m


@_jit
def scaled_masked_finish(kind, arch3510, e, out, row0, nrows, d):
    """Step 3 (the row sum in the v220 or 3510 SoftMax order) and step 4 (the division)."""
    acc = np.zeros(LANES, np.float32)
    blk = np.empty(LANES, np.float32)
    for i in range(nrows):
        row = e[i * d : i * d + d]
        if arch3510:
            _flush_row(row)
        if d <= LANES:
            s = _reduce64(row, 0, d, blk)
        elif arch3510:  # 64 lanes from +0.0; the last chunk's +0.0 padding changes no lane
            for lane in range(LANES):
                acc[lane] = F32(0.0)
            _lanes_add_f32(acc, row, d)
            for lane in range(LANES):
                blk[lane] = acc[lane]
            s = _tree(blk, LANES)
        else:
            n, t = d // LANES, d % LANES
            if d >= 512:
                for lane in range(LANES):
                    for j in range(8):
                        blk[j] = row[lane * 8 + j]
                    acc[lane] = _tree(blk, 8)
                first = 8
            else:
                for lane in range(LANES):
                    acc[lane] = row[lane]
                first = 1
            for c in range(first, n):
                for lane in range(LANES):
                    acc[lane] = row[c * LANES + lane] + acc[lane]
            for lane in range(t):
                acc[lane] = acc[lane] + row[n * LANES + lane]
            for lane in range(LANES):
                blk[lane] = acc[lane]
            s = _tree(blk, LANES)
        base = (row0 + i) * d
        if kind == KIND_F32:
            _div_store_f32(row, s, False, arch3510, out.view(np.float32)[base : base + d])
        else:
            _div_store_16(kind, row, s, False, arch3510, out[base : base + d])
