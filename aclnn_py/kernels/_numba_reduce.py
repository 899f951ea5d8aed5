# mypy: disallow-untyped-defs=False, warn-return-any=False
"""The accelerator's reductions: ReduceSum (TBE lanes, Ascend950's AR and RA orders), the sums and
divisions of SoftmaxV2 and ScaledMaskedSoftmaxV2, and the sums of SmoothL1LossV2's reductions.

Every addition is the one the numpy recipe makes, on the same two float32 operands (the tree
shapes, the +0.0 padding, the lane assignment); IEEE addition is commutative, and a NaN's
payload never shows (results store the canonical NaN), so only the grouping has to match.

The exponentials of the softmax kernels are numpy's float32 ``np.exp``. On x86-64 with AVX2 and
FMA (and with AVX-512F) numpy runs its own vector algorithm (``simd_exp_FLOAT``); :func:`np_exp32`
is that algorithm element by element (the same float32 operations, the same fused multiply-adds),
so the rows are computed in one fused pass (``x - max``, exp, sum, divide) while each row is in the
L1 cache. Whether numpy's exp really is that algorithm on this machine is checked once per process
(:func:`exp_matches_numpy`, against numpy on the edges and on random patterns); where it is not
(another CPU, a numpy built otherwise), the kernels write ``x - max`` into a float32 block, the
caller applies ``np.exp`` to the block, and a second call sums and divides. See
:func:`aclnn_py.kernels.softmax.make` for the loops.

Compile cost (a fresh checkout compiles every kernel the tests reach): every kernel takes its data
as uint16 arrays, float32 as the two halves of each element (viewed back inside), so one compiled
signature serves the three kinds (a uint32 and a uint16 signature each held the code of all three).
A softmax layout is one kernel whose ``mode`` is the fused pass, the ``x - max`` step or the sum
and division step (the steps of the ``np.exp`` route), not three kernels holding the same sums.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic
from numba.np.numpy_support import carray

from ._numba import F32, KIND_F16, KIND_F32, _canon, _jit, _jit_in, _jit_inline, _narrow16, _to_f32, _tree, _widen16

LANES = 64
BLK = 4096  # elements converted per step (a multiple of 64)
TINY = F32(2.0**-126)


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


# -- numpy's float32 exp ---------------------------------------------------------------------------


@intrinsic
def _fma32(typingctx, a, b, c):
    """``a * b + c`` rounded once (LLVM's llvm.fma: the CPU's FMA, or a correctly rounded libm
    call where there is none), as numpy's ``_mm256_fmadd_ps`` computes it."""
    sig = types.float32(types.float32, types.float32, types.float32)

    def codegen(context, builder, signature, args):
        f = ir.FloatType()
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(f, [f, f, f]), "llvm.fma.f32")  # type: ignore[no-untyped-call]
        return builder.call(fn, args)

    return sig, codegen


# The constants of numpy's vector exp (numpy/_core/src/umath/npy_simd_data.h and
# loops_exponent_log.dispatch.c.src, numpy 1.20 to 2.4), as float32.
_EXP_XMAX = F32(88.72283935546875)
_EXP_XMIN = F32(-103.97208404541015625)
_LOG2E = F32(1.442695040888963407359924681001892137)
_RINT_MAGIC = F32(12582912.0)  # 0x1.8p+23: (q + magic) - magic rounds q to an integer, half to even
_RINT_MAGIC_BITS = np.uint32(0x4B400000)
_CW_HIGH = F32(-6.93145752e-1)
_CW_LOW = F32(-1.42860677e-6)
_P0, _P1, _P2 = F32(9.999999999980870924916e-01), F32(7.257664613233124478488e-01), F32(2.473615434895520810817e-01)
_P3, _P4, _P5 = F32(5.114512081637298353406e-02), F32(6.757896990527504603057e-03), F32(5.082762527590693718096e-04)
_Q0, _Q1, _Q2 = F32(1.0), F32(-2.742335390411667452936e-01), F32(2.159509375685829852307e-02)
_NAN = np.uint32(0x7FC00000).view(np.float32)


@_jit
def np_exp32(x):
    """numpy's float32 exp on AVX2+FMA3 / AVX-512F (``simd_exp_FLOAT``), one element: NaN -> the
    quiet NaN, x >= xmax -> inf, x <= xmin -> +0; else q = rint(x * log2 e) (the magic-number
    rounding), Cody-Waite reduction by three FMAs, exp(r) = P(r) / Q(r) (Horner by FMA, one
    division), scaled by 2^q through the exponent bits. Where q <= -125 numpy adds -125 to the
    exponent and divides by 2^-(q+125); the product by the exact power 2^(q+125) used here rounds
    the same real number once, so it gives the same bits. Branch-free (selects), so a loop of it
    vectorises. Equal to numpy 2.4's np.exp on all 2^32 float32 inputs (checked on AVX2)."""
    nan = x != x
    big = x >= _EXP_XMAX
    small = x <= _EXP_XMIN
    v = F32(0.0) if (nan or big or small) else x
    q = (v * _LOG2E + _RINT_MAGIC) - _RINT_MAGIC
    p = _exp_poly(v, q)
    low = q <= F32(-125.0)
    qc = F32(-125.0) if low else q
    y = np.uint32(np.float32(p).view(np.uint32) + np.uint32(np.int32(qc) << 23)).view(np.float32)
    shift = np.int32(F32(0.0) - (q - F32(-125.0))) if low else np.int32(0)
    y = y * np.uint32(np.uint32(127 - shift) << np.uint32(23)).view(np.float32) if low else y
    y = _NAN if nan else y
    y = F32(np.inf) if big else y
    return F32(0.0) if small else y


# Above this, exp(x) is :func:`_exp_normal`'s: q = rint(x * log2 e) >= -124 > -125, and x is
# neither NaN nor past the limits.
EXP_NORMAL_MIN = F32(-86.0)


@_jit
def _exp_normal(x):
    """:func:`np_exp32` for EXP_NORMAL_MIN <= x <= 0, where every guard of it is idle (no NaN, no
    overflow or underflow, no subnormal scaling): the same operations without the selects."""
    t = x * _LOG2E + _RINT_MAGIC
    p = _exp_poly(x, t - _RINT_MAGIC)
    # q as an integer from the bits of t (t is in [2^23, 2^24), where the ulp is 1): int(q); a
    # NaN (from a NaN element) keeps p's NaN, whatever its payload, so that the row's sum is NaN
    k = np.uint32(np.float32(t).view(np.uint32) - _RINT_MAGIC_BITS) << np.uint32(23)
    k = k if t == t else np.uint32(0)
    return np.uint32(np.float32(p).view(np.uint32) + k).view(np.float32)


@_jit_in
def _exp_poly(v, q):
    """numpy's Cody-Waite reduction of v by q = rint(v * log2 e) and its rational approximation
    P(r) / Q(r) of exp(r)."""
    r = _fma32(q, _CW_HIGH, v)  # type: ignore[call-arg,var-annotated]  # numba passes typingctx
    r = _fma32(q, _CW_LOW, r)
    r = _fma32(q, F32(0.0), r)  # numpy's third step, with c3 = 0
    num = _fma32(_P5, r, _P4)
    num = _fma32(num, r, _P3)
    num = _fma32(num, r, _P2)
    num = _fma32(num, r, _P1)
    num = _fma32(num, r, _P0)
    den = _fma32(_Q2, r, _Q1)
    den = _fma32(den, r, _Q0)
    return num / den


@_jit
def exp_block(src, dst):
    """dst[i] = :func:`np_exp32` (src[i]) (float32 arrays of one size)."""
    for i in range(src.size):
        dst[i] = np_exp32(src[i])


_EXP_OK: bool | None = None


def exp_matches_numpy() -> bool:
    """Whether :func:`np_exp32` gives numpy's ``np.exp`` bits in this process (checked once): on
    the edges (NaN, infinities, zeros, the overflow and underflow limits and their neighbours,
    the results that become subnormal) and on random float32 patterns and values. numpy's exp is
    the specification; a machine where it is another algorithm keeps the np.exp blocks."""
    global _EXP_OK
    if _EXP_OK is None:
        rng = np.random.default_rng(20261124)
        edges = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 0.5], np.float32)
        limits = np.array([_EXP_XMAX, _EXP_XMIN, -87.33654, -86.6, -88.0, -100.0], np.float32)
        near = (limits.view(np.int32)[:, None] + np.arange(-40, 41, dtype=np.int32)).view(np.float32).ravel()
        ramp = np.linspace(-110.0, 95.0, 1 << 15, dtype=np.float32)
        values = (rng.standard_normal(1 << 15) * 8).astype(np.float32)
        patterns = rng.integers(0, 1 << 32, 1 << 15, dtype=np.uint64).astype(np.uint32).view(np.float32)
        x = np.concatenate([edges, near, ramp, -np.abs(values), values, patterns])
        with np.errstate(all="ignore"):
            want = np.exp(x)
        got = np.empty_like(x)
        exp_block(x, got)
        same = (want.view(np.uint32) == got.view(np.uint32)) | (np.isnan(want) & np.isnan(got))
        _EXP_OK = bool(same.all())
    return _EXP_OK


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


@intrinsic
def _stack_lanes(typingctx):
    """A pointer to 64 float32 on the stack of the function that uses it (allocated once, in its
    entry block). Lanes kept there, unlike in a heap array, are promoted by LLVM to eight vector
    registers for the whole row: no store and reload of each lane per 64-element chunk."""
    sig = types.CPointer(types.float32)()  # type: ignore[no-untyped-call]

    def codegen(context, builder, signature, args):
        return cgutils.alloca_once(builder, ir.FloatType(), size=LANES)  # type: ignore[no-untyped-call]

    return sig, codegen


@_jit_in
def _lanes_sum_f32(f, blk):
    """The TBE order over one float32 row: element k into lane k mod 64 (lanes from +0.0, added
    in sequence), then the pair tree of the lanes (``blk``: 64 floats of scratch). The last chunk
    is padded with +0.0, which changes no lane (a lane is never -0.0: it starts at +0.0)."""
    acc = carray(_stack_lanes(), LANES)  # type: ignore[call-arg]  # numba passes typingctx
    for lane in range(LANES):
        acc[lane] = F32(0.0)
    full = f.size // LANES
    # whole chunks into the stack lanes, two per step (chunk 2c, then 2c + 1: each lane still
    # adds in sequence), the partial one into blk (an access to acc at a variable index would
    # keep it in memory)
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
    for lane in range(LANES):
        blk[lane] = acc[lane]
    tail = f[full * LANES :]
    for lane in range(tail.size):
        blk[lane] = blk[lane] + tail[lane]
    return _tree(blk, LANES)


@_jit_in
def _lanes_sum_16(kind, src, blk):
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
    for lane in range(LANES):
        blk[lane] = acc[lane]
    tail = src[full * LANES :]
    for lane in range(tail.size):
        blk[lane] = blk[lane] + _widen16(kind, tail[lane])
    return _tree(blk, LANES)


@_jit
def lanes_rows(kind, x, rows, r, res):
    """The TBE order (:func:`_lanes_sum_f32`) over rows of ``r`` contiguous elements of ``x``
    (uint16: the kind's bits, float32 as halves)."""
    blk = np.empty(LANES, np.float32)
    if kind == KIND_F32:
        f = x.view(np.float32)
        for row in range(rows):
            res[row] = _lanes_sum_f32(f[row * r : row * r + r], blk)
    else:
        for row in range(rows):
            res[row] = _lanes_sum_16(kind, x[row * r : row * r + r], blk)


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
        return _lanes_sum_f32(row[:r], blk)
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
        b_idx = r // (n_dim * s_dim)
        n_idx = (r // s_dim) % n_dim
        s_idx = r % s_dim
        nm = n_dim if mask_n else 1
        mrow = ((b_idx if mask_b else 0) * nm + (n_idx if mask_n else 0)) * s_dim + s_idx
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
