# mypy: disallow-untyped-defs=False, warn-return-any=False
"""The accelerator's ReduceSum kernels: the TBE 64-lane order (:func:`lanes_rows`,
:func:`lanes_cols`) and Ascend950's AscendC ``ReduceSum`` AR and RA orders (:func:`ar_rows`,
:func:`ra_cols`), with the lane and tree helpers the softmax kernels (:mod:`._numba_softmax`)
share, and the flat sums of SmoothL1LossV2's reductions.

The recipes are those of :mod:`aclnn_py.kernels.reduce_sum`: the TBE order (Ascend910B, 910_93,
910, 310P; the compiled TBE schedule is not public) puts element k into lane k mod 64, then takes
the adjacent-pair tree of the lanes; Ascend950's ATVOSS reduce template (ops-math
``math/reduce_sum/op_kernel/arch35/``) calls AscendC ``ReduceSum`` (asc-devkit
``impl/adv_api/detail/reduce/reduce_sum/reduce_sum_3510_impl.h``) in its AR (one row) or RA
(over the rows) pattern.

Every addition is the one the numpy recipe makes, on the same two float32 operands (the tree
shapes, the +0.0 padding, the lane assignment); IEEE addition is commutative, and a NaN's
payload never shows (results store the canonical NaN), so only the grouping has to match.

Compile cost (a fresh checkout compiles every kernel the tests reach): every kernel takes its data
as uint16 arrays, float32 as the two halves of each element (viewed back inside), so one compiled
signature serves the three kinds (a uint32 and a uint16 signature each held the code of all three).
"""

from __future__ import annotations

import numpy as np
from numba.np.numpy_support import carray

from ._numba import (
    F32,
    KIND_F32,
    LANES,
    _canon,
    _jit,
    _jit_in,
    _jit_inline,
    _narrow16,
    _stack_lanes,
    _to_f32,
    _tree,
    _tree64,
    _widen16,
)

# -- shared: the loads, the store, the 64-lane tree ------------------------------------------------


@_jit_in
def _floor_pow2(n):
    p = 1
    while p * 2 <= n:
        p *= 2
    return p


@_jit_in
def _log2(m):
    k = 0
    while (1 << k) < m:
        k += 1
    return k


@_jit_inline
def _load(x, start, count, kind, dst):
    """Elements [start, start+count) of ``x`` (uint16: the kind's bits, float32 as the two halves
    of each element) exactly as float32 bits into dst[0:count]."""
    if kind == KIND_F32:
        _to_f32(x.view(np.uint32), start, count, KIND_F32, dst)
    else:
        _to_f32(x, start, count, kind, dst)


@_jit
def store_f32(kind, res, out):
    """float32 results into ``out`` (uint16: the kind's bits, float32 as halves), rounded once,
    NaN canonical."""
    if kind == KIND_F32:
        fo = out.view(np.float32)
        for i in range(res.size):
            fo[i] = _canon(res[i])
    else:
        for i in range(res.size):
            out[i] = _narrow16(kind, res[i])


@_jit_in
def _reduce64(src, start, count, blk):
    """The adjacent-pair tree of src[start:start+count] padded with +0.0 to 64 lanes."""
    for j in range(LANES):
        blk[j] = src[start + j] if j < count else F32(0.0)
    return _tree(blk, LANES)


# -- TBE: 64 lanes, then the pair tree ------------------------------------------------------------


@_jit_in
def _lanes_add_f32(acc, src, count):
    """acc[lane] += src[c*64 + lane] for the chunks of src[0:count] (the last one partial)."""
    full = count // LANES
    for c in range(full):
        chunk = src[c * LANES : c * LANES + LANES]
        for lane in range(LANES):
            acc[lane] = acc[lane] + chunk[lane]
    t = count - full * LANES
    chunk = src[full * LANES : full * LANES + t]
    for lane in range(t):
        acc[lane] = acc[lane] + chunk[lane]


@_jit_inline
def _add_tail_f32(acc, tail):
    """acc[lane] += tail[lane] for the lanes of the partial last chunk; +0.0 to the others, which
    changes no lane (a lane is never -0.0: it starts at +0.0). A loop of constant length: one of
    the tail's length would send the lanes through memory."""
    for lane in range(LANES):
        acc[lane] = acc[lane] + (tail[lane] if lane < tail.size else F32(0.0))


@_jit_inline
def _add_tail_16(kind, acc, tail):
    """:func:`_add_tail_f32` for float16/bfloat16 bits, widened."""
    for lane in range(LANES):
        acc[lane] = acc[lane] + (_widen16(kind, tail[lane]) if lane < tail.size else F32(0.0))


@_jit_inline
def _lanes_sum_f32(f):
    """The TBE order over one float32 row: element k into lane k mod 64 (lanes from +0.0, added
    in sequence), then the pair tree of the lanes. The lanes stay in registers for the whole row."""
    acc = carray(_stack_lanes(), LANES)  # type: ignore[call-arg]  # numba passes typingctx
    for lane in range(LANES):
        acc[lane] = F32(0.0)
    full = f.size // LANES
    # whole chunks two per step (chunk 2c, then 2c + 1: each lane still adds in sequence)
    for c in range(full // 2):
        two = f[c * 2 * LANES : c * 2 * LANES + 2 * LANES]
        for lane in range(LANES):
            acc[lane] = acc[lane] + two[lane]
        for lane in range(LANES):
            acc[lane] = acc[lane] + two[LANES + lane]
    if full % 2:
        chunk = f[(full - 1) * LANES : full * LANES]
        for lane in range(LANES):
            acc[lane] = acc[lane] + chunk[lane]
    _add_tail_f32(acc, f[full * LANES :])
    return _tree64(acc)


@_jit_inline
def _lanes_sum_16(kind, src):
    """:func:`_lanes_sum_f32` over the float16/bfloat16 bits of one row, widened as they are added."""
    acc = carray(_stack_lanes(), LANES)  # type: ignore[call-arg]
    for lane in range(LANES):
        acc[lane] = F32(0.0)
    full = src.size // LANES
    for c in range(full // 2):
        two = src[c * 2 * LANES : c * 2 * LANES + 2 * LANES]
        for lane in range(LANES):
            acc[lane] = acc[lane] + _widen16(kind, two[lane])
        for lane in range(LANES):
            acc[lane] = acc[lane] + _widen16(kind, two[LANES + lane])
    if full % 2:
        chunk = src[(full - 1) * LANES : full * LANES]
        for lane in range(LANES):
            acc[lane] = acc[lane] + _widen16(kind, chunk[lane])
    _add_tail_16(kind, acc, src[full * LANES :])
    return _tree64(acc)


@_jit
def lanes_rows(kind, x, rows, r, res):
    """The TBE order (:func:`_lanes_sum_f32`) over rows of ``r`` contiguous elements of ``x``
    (uint16: the kind's bits, float32 as halves)."""
    if kind == KIND_F32:
        f = x.view(np.float32)
        for row in range(rows):
            res[row] = _lanes_sum_f32(f[row * r : row * r + r])
    else:
        for row in range(rows):
            res[row] = _lanes_sum_16(kind, x[row * r : row * r + r])


@_jit_in
def _lanes_tree(acc, w):
    """The pair tree over the 64 lane rows of acc (64, T), columns [0, w); result in acc[0]."""
    width = LANES
    while width > 1:
        half = width // 2
        for i in range(half):
            dst, s1, s2 = acc[i], acc[2 * i], acc[2 * i + 1]
            for j in range(w):
                dst[j] = s1[j] + s2[j]
        width = half


@_jit_in
def _zero_lanes(acc, w):
    """Zero the first ``w`` columns of every lane accumulator row."""
    for lane in range(LANES):
        row = acc[lane]
        for j in range(w):
            row[j] = F32(0.0)


@_jit
def lanes_cols(kind, x, a1, r, a0, res):
    """The TBE order over x as (a1, r, a0), summing r for each (a1, a0): lane k mod 64 of each
    column, then the pair tree, a tile of columns at a time."""
    tile = min(a0, 1024)
    acc = np.zeros((LANES, tile), np.float32)
    buf = np.empty(tile, np.uint32)
    fb = buf.view(np.float32)
    for b in range(a1):
        for c0 in range(0, a0, tile):
            w = min(tile, a0 - c0)
            _zero_lanes(acc, w)
            for k in range(r):
                _load(x, (b * r + k) * a0 + c0, w, kind, buf)
                row = acc[k % LANES]
                for j in range(w):
                    row[j] = row[j] + fb[j]
            _lanes_tree(acc, w)
            top = acc[0]
            for j in range(w):
                res[b * a0 + c0 + j] = top[j]


# -- Ascend950: AscendC ReduceSum AR and RA --------------------------------------------------------


@_jit_in
def _ar_sum(v, r, head, blk):
    """AscendC ``ReduceSum`` AR of the float32 row v[0:r] (:func:`reduce_sum.ar_sum`): padded with
    +0.0 to rp (a multiple of 8); rp <= 64 in blocks of 8 or one 64-lane tree; else the tail past
    the largest power of two m <= rp folded onto the head, runs of 16 chunks of 64 halved, the
    last 2, 4 or 8 chunks halved, one 64-lane tree. ``head``: scratch of >= m floats."""
    if r == 1:
        return v[0]
    rp = ((r + 7) // 8) * 8
    zero = F32(0.0)
    if rp <= LANES:
        if rp == 8:
            for j in range(8):
                blk[j] = v[j] if j < r else zero
            return _tree(blk, 8)
        if rp < 32:  # 16 or 24: the 8-lane blocks added in sequence
            for j in range(8):
                blk[j] = v[j]
            for k in range(1, rp // 8):
                for j in range(8):
                    idx = k * 8 + j
                    blk[j] = (v[idx] if idx < r else zero) + blk[j]
            return _tree(blk, 8)
        for j in range(LANES):
            blk[j] = v[j] if j < r else zero
        return _tree(blk, LANES)
    m = _floor_pow2(rp)
    for j in range(m):
        head[j] = v[j] if j < r else zero
    for i in range(rp - m):
        idx = m + i
        head[i] = head[i] + (v[idx] if idx < r else zero)
    nch = m // LANES
    while nch >= 16:
        for g in range(nch // 16):
            base = g * 16 * LANES
            lvl = 8
            while lvl >= 1:
                for i in range(lvl):
                    dst = head[base + i * LANES : base + i * LANES + LANES]
                    src = head[base + (i + lvl) * LANES : base + (i + lvl) * LANES + LANES]
                    for lane in range(LANES):
                        dst[lane] = dst[lane] + src[lane]
                lvl //= 2
            if g:
                for lane in range(LANES):
                    head[g * LANES + lane] = head[base + lane]
        nch //= 16
    while nch > 1:
        h = nch // 2
        for i in range(h):
            dst = head[i * LANES : i * LANES + LANES]
            src = head[(i + h) * LANES : (i + h) * LANES + LANES]
            for lane in range(LANES):
                dst[lane] = dst[lane] + src[lane]
        nch = h
    for lane in range(LANES):
        blk[lane] = head[lane]
    return _tree(blk, LANES)


LONG_ROW = 1 << 16  # a float32 row longer than this is summed where it is (see ar_rows)


@_jit
def ar_rows(kind, x, rows, r, res):
    """Ascend950's AR order for rows of ``r`` contiguous elements of ``x`` (uint16: the kind's
    bits, float32 as halves), each copied (widened) into a block first: measured faster than
    summing a float32 row where it is (rows of 1024: ~15%), except for one long row (SmoothL1LossV2's
    mean), where the block would be a fresh allocation larger than the caches at every call."""
    head = np.empty(max(_floor_pow2(((r + 7) // 8) * 8), 1), np.float32)
    blk = np.empty(LANES, np.float32)
    if rows == 1 and kind == KIND_F32 and r > LONG_ROW:
        res[0] = _ar_sum(x.view(np.float32)[:r], r, head, blk)
        return
    row = np.empty(max(r, 1), np.uint32)
    fr = row.view(np.float32)
    for i in range(rows):
        _load(x, i * r, r, kind, row)
        res[i] = _ar_sum(fr, r, head, blk)


@_jit_in
def _bit_order(m, groups16):
    """For the binary-counter walk of a tree over m = 2^L leaves: perm[k] is the bit of the leaf
    index that the k-th level of the tree pairs on. Halving pairs (i, i + m/2) first: the top
    bit, then the next. Runs of 16 halve their 4 low bits (3, 2, 1, 0), then the next 4 bits of
    the run results, ...; the last 1, 2, 4 or 8 runs are halved (their top bit first)."""
    levels = _log2(m)
    perm = np.empty(max(levels, 1), np.int64)
    if not groups16:
        for k in range(levels):
            perm[k] = levels - 1 - k
        return perm
    stages = 0
    count = m
    while count >= 16:
        count //= 16
        stages += 1
    k = 0
    for s in range(stages):
        for b in range(3, -1, -1):
            perm[k] = 4 * s + b
            k += 1
    q = levels - 4 * stages
    for b in range(q - 1, -1, -1):
        perm[k] = 4 * stages + b
        k += 1
    return perm


@_jit
def ra_cols(kind, x, a1, r, a0, groups16, res):
    """Ascend950's RA order (:func:`reduce_sum.ra_sum`) over x as (a1, r, a0), summing r: rows
    past the largest power of two m <= r folded onto the first ones, then the rows reduced by
    halving (``groups16``: runs of 16 halved, then the runs), column tiles at a time. The tree
    is walked depth first (a binary counter over its leaves), so nothing but one row per level
    is kept."""
    tile = min(a0, 2048)
    m = _floor_pow2(r)
    levels = _log2(m)
    perm = _bit_order(m, groups16)
    stack = np.empty((levels + 1, tile), np.float32)
    buf = np.empty(tile, np.uint32)
    buf2 = np.empty(tile, np.uint32)
    fb, fb2 = buf.view(np.float32), buf2.view(np.float32)
    for b in range(a1):
        for c0 in range(0, a0, tile):
            w = min(tile, a0 - c0)
            for t in range(m):
                j = 0
                for k in range(levels):
                    if (t >> k) & 1:
                        j |= 1 << perm[k]
                _load(x, (b * r + j) * a0 + c0, w, kind, buf)
                if j < r - m:
                    _load(x, (b * r + m + j) * a0 + c0, w, kind, buf2)
                    for q in range(w):
                        fb[q] = fb[q] + fb2[q]
                lvl = 0
                tt = t
                while tt & 1:
                    s = stack[lvl]
                    for q in range(w):
                        fb[q] = s[q] + fb[q]
                    tt >>= 1
                    lvl += 1
                top = stack[lvl]
                for q in range(w):
                    top[q] = fb[q]
            top = stack[levels]
            for q in range(w):
                res[b * a0 + c0 + q] = top[q]


# -- SmoothL1LossV2 reductions ----------------------------------------------------------------------


def sum_lanes_flat(v: np.ndarray) -> float:
    """The TBE choice for SmoothL1LossV2 over the float32 array v: 64 lanes from +0.0, chunk
    after chunk, the last padded with +0.0, then the pair tree (the order of :func:`lanes_rows`,
    one row: no kernel of its own to compile)."""
    res = np.empty(1, np.float32)
    lanes_rows(KIND_F32, np.ascontiguousarray(v, np.float32).ravel().view(np.uint16), 1, v.size, res)
    return float(res[0])


def sum_ar_flat(v: np.ndarray) -> float:
    """Ascend950's AR order of the float32 array v as one row (:func:`smooth_l1_loss_v2.sum_arch35`,
    :func:`ar_rows`)."""
    res = np.empty(1, np.float32)
    ar_rows(KIND_F32, np.ascontiguousarray(v, np.float32).ravel().view(np.uint16), 1, v.size, res)
    return float(res[0])
