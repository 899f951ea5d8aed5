"""The optional accelerator: each recipe compiled by numba to a per-element loop.

Same arithmetic as the numpy recipes (which are the specification), operation for operation in
float32, without fastmath (so nothing is reassociated or contracted into FMAs). FLOAT16 and
BFLOAT16 travel as their bits (uint16) and are converted element by element inside the loop:
upcasts are exact, the one downcast of a result rounds half to even. float16 uses the CPU's
conversion instructions (F16C) where it has them and exact bit manipulation otherwise; bfloat16
is bit manipulation. No whole-array casts, no temporaries: the extra memory of a call is a few
scalars (or a few 16 KiB blocks when an input is broadcast).

Only imported when numba is installed (``pip install numba``, or ``pip install -e '.[fast]'`` in a
checkout); the test-suite proves every kernel bit-identical to the numpy path on random data and on the edges.
"""

from __future__ import annotations

import os
from typing import Any

import numba
import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic
from numba.np.numpy_support import carray

F32 = np.float32
KIND_F32, KIND_F16, KIND_BF16 = 0, 1, 2

_jit = njit(cache=True, nogil=True, fastmath=False, error_model="numpy")
# A helper that only jitted code calls needs neither the CPython wrapper nor the C-function wrapper
# numba otherwise builds and compiles to machine code for every function and signature: without
# them a kernel family compiles ~15% faster (a cold test run compiles ~200 signatures). Calling
# one from Python would crash: tests/test_kernel_paths.py checks that nothing does.
_NO_WRAPPERS: dict[str, Any] = {"no_cpython_wrapper": True, "no_cfunc_wrapper": True}  # not in numba's stubs
_jit_in = njit(cache=True, nogil=True, fastmath=False, error_model="numpy", **_NO_WRAPPERS)
# A thin dispatcher (it only picks which helper runs) is inlined into its callers by numba: every
# level of jitted calls re-optimises and re-compiles all the code below it, so a level less is cheaper.
_jit_inline = njit(nogil=True, fastmath=False, error_model="numpy", inline="always")


def _host_has_f16c() -> bool:
    try:
        import llvmlite.binding as llvm

        return "+f16c" in llvm.get_host_cpu_features().flatten().split(",")
    except Exception:  # any failure to ask means: use the portable code
        return False


# With F16C, LLVM turns half <-> float conversions into the hardware's vcvtph2ps / vcvtps2ph
# (exact up, round half to even down, as IEEE 754 requires); without it, or with
# ACLNN_PY_F16C=0, the portable bit code below runs (same bits). A compile-time constant: numba
# drops the branch not taken.
F16C_ENV_VAR = "ACLNN_PY_F16C"
HAVE_F16C = os.environ.get(F16C_ENV_VAR, "") != "0" and _host_has_f16c()


@intrinsic
def _half_bits_to_f32_bits(typingctx, h):
    """float16 bits -> float32 bits by LLVM's fpext (exact; a signalling NaN comes out quiet)."""
    sig = types.uint32(types.uint16)

    def codegen(context, builder, signature, args):
        wide = builder.fpext(builder.bitcast(args[0], ir.HalfType()), ir.FloatType())
        return builder.bitcast(wide, ir.IntType(32))

    return sig, codegen


@intrinsic
def _f32_to_half_bits(typingctx, f):
    """float32 -> float16 bits by LLVM's fptrunc (round half to even, overflow to infinity)."""
    sig = types.uint16(types.float32)

    def codegen(context, builder, signature, args):
        return builder.bitcast(builder.fptrunc(args[0], ir.HalfType()), ir.IntType(16))

    return sig, codegen


# -- float bit conversions ------------------------------------------------------------------------


CHUNK = 4096
_DENORM_MAGIC = ((127 - 15) + (23 - 10) + 1) << 23  # the bits of float32 0.5
# float16 bits -> float32 bits for all 65536 halves (exact; NaN payloads kept as numpy keeps them)
F16_TO_F32 = np.arange(65536, dtype=np.uint32).astype(np.uint16).view(np.float16).astype(np.float32).view(np.uint32)


@_jit_in
def _buffers4():
    """Four distinct float32 scratch blocks (rows of one allocation)."""
    buf = np.empty((4, CHUNK), np.float32)
    return buf[0], buf[1], buf[2], buf[3]


@_jit_in
def _to_f32(src, start, count, kind, dst):
    """Elements [start, start+count) of a bits array, exactly, as float32 bits into dst[0:count]
    (a single-element source is broadcast). The kind is tested once, not per element."""
    if src.size == 1:
        v = np.uint32(src[0])
        if kind == KIND_BF16:
            v = v << np.uint32(16)
        elif kind == KIND_F16:
            v = F16_TO_F32[v]
        for j in range(count):
            dst[j] = v
        return
    # A slice, not src[start + j]: an index numba cannot prove non-negative gets wraparound code,
    # which stops the loop from vectorising (about 8x slower).
    block = src[start : start + count]
    if kind == KIND_F32:
        for j in range(count):
            dst[j] = block[j]
    elif kind == KIND_BF16:
        for j in range(count):
            dst[j] = np.uint32(block[j]) << np.uint32(16)
    elif HAVE_F16C:
        _widen_f16_hw(block, count, dst)
    else:
        _widen_f16_table(block, count, dst)


@_jit
def _widen_f16_hw(block, count, dst):
    """float16 bits -> float32 bits with the hardware conversion."""
    for j in range(count):
        dst[j] = _half_bits_to_f32_bits(block[j])  # type: ignore[call-arg]  # numba passes typingctx


@_jit
def _widen_f16_table(block, count, dst):
    """float16 bits -> float32 bits through the table of all 65536 exact conversions."""
    for j in range(count):
        dst[j] = F16_TO_F32[block[j]]


@_jit_in
def _from_f32(res, res_f, out, start, count, kind):
    """Round float32 results (bits in res, values in res_f) once, half to even, into out;
    NaN results become the canonical quiet NaN."""
    nan = np.uint32(0x7FC00000)
    block = out[start : start + count]  # see _to_f32 on slices
    if kind == KIND_F32:
        for j in range(count):
            block[j] = res[j] if res_f[j] == res_f[j] else nan
    elif kind == KIND_BF16:
        for j in range(count):
            b = res[j] if res_f[j] == res_f[j] else nan
            # round half to even on the 16 dropped bits; the canonical NaN and the infinities come
            # through unchanged, and a carry out of the largest finite value gives infinity
            block[j] = (b + np.uint32(0x7FFF) + ((b >> np.uint32(16)) & np.uint32(1))) >> np.uint32(16)
    elif HAVE_F16C:
        _narrow_f16_hw(res_f, count, block)
    else:
        _narrow_f16_soft(res, res_f, count, block)


@_jit
def _narrow_f16_hw(res_f, count, block):
    """float32 -> float16 bits with the hardware conversion (round half to even); NaN results
    become the canonical NaN first, so every NaN is stored as 0x7E00."""
    nan_f = np.uint32(0x7FC00000).view(np.float32)
    for j in range(count):
        f = res_f[j]
        block[j] = _f32_to_half_bits(f if f == f else nan_f)  # type: ignore[call-arg]  # numba passes typingctx


@_jit
def _narrow_f16_soft(res, res_f, count, block):
    """The same rounding without F16C (see :func:`_f16_soft`)."""
    nan = np.uint32(0x7FC00000)
    for j in range(count):
        block[j] = _f16_soft(np.uint32(res[j] if res_f[j] == res_f[j] else nan))


@_jit_in
def _f16_soft(b):
    """float32 bits -> float16 bits, round half to even, branch-free (selects only), so a loop
    of it vectorises. Subnormal halves: adding 0.5, whose ulp is the smallest half subnormal,
    lets the FPU round half to even and leaves the half's bits at the bottom of the sum. Normal
    halves: rebias, add 0xFFF plus the lowest kept bit. Checked equal to numpy's cast for all
    2^32 non-NaN patterns (the tie patterns are in the tests); the canonical NaN gives 0x7E00."""
    magic = np.uint32(_DENORM_MAGIC)
    magic_f = magic.view(np.float32)
    a = np.uint32(b & np.uint32(0x7FFFFFFF))
    sub = np.uint32(np.uint32(np.float32(a.view(np.float32) + magic_f).view(np.uint32)) - magic)
    nrm = np.uint32(
        (a - np.uint32(0x38000000) + np.uint32(0x0FFF) + ((a >> np.uint32(13)) & np.uint32(1))) >> np.uint32(13)
    )
    big = np.uint32(0x7E00) if a > np.uint32(0x7F800000) else np.uint32(0x7C00)
    h = sub if a < np.uint32(0x38800000) else (nrm if a < np.uint32(0x477FF000) else big)
    return ((b >> np.uint32(16)) & np.uint32(0x8000)) | h


@_jit_in
def _widen16(kind, h):
    """One float16/bfloat16 element (its bits) as float32, exactly."""
    if kind == KIND_BF16:
        return np.uint32(np.uint32(h) << np.uint32(16)).view(np.float32)
    if HAVE_F16C:
        return np.uint32(_half_bits_to_f32_bits(h)).view(np.float32)  # type: ignore[call-arg]
    return np.uint32(F16_TO_F32[h]).view(np.float32)


@_jit_in
def _narrow16(kind, f):
    """One float32 result rounded once, half to even, to float16/bfloat16 bits (NaN canonical)."""
    nan = np.uint32(0x7FC00000)
    if kind == KIND_BF16:
        b = np.uint32(np.float32(f).view(np.uint32) if f == f else nan)
        return np.uint16((b + np.uint32(0x7FFF) + ((b >> np.uint32(16)) & np.uint32(1))) >> np.uint32(16))
    if HAVE_F16C:
        return _f32_to_half_bits(f if f == f else nan.view(np.float32))  # type: ignore[call-arg]
    return np.uint16(_f16_soft(np.uint32(np.float32(f).view(np.uint32) if f == f else nan)))


# -- SmoothL1LossGradV2 ---------------------------------------------------------------------------
# Each recipe is one per-element function; the kernels run it either straight on float32 arrays
# or on blocks converted from float16/bfloat16 bits.


@_jit_in
def _sl1_tbe(x, di, thr, divisor, keep):
    """The TBE recipe (:func:`aclnn_py.kernels.smooth_l1_loss_grad_v2.tbe`, before the mean
    factor) of x = p - l, in fewer operations: the loop is compute-bound (21 -> 17 instructions
    per 8 float16 elements, ``bench/arith_bound.py --asm``). With ``thr``, ``keep`` from :func:`_sl1_tbe_consts`,
    the result is ``(copysign(1, x) if |x| >= thr else temp & keep) + 0``, times d; the same
    bits, case by case (x' is the recipe's x, a NaN replaced by 0):

    * sigma > 0 (thr = sigma, keep all ones; the three conditions cannot overlap):
      x NaN: x' = 0, so s1 = s2 = 0 (0 <= -sigma, 0 >= sigma are false) and s3 = temp
      (|0| < sigma), a NaN; here |x| >= thr is false and temp is taken. |x| >= sigma (x not 0,
      maybe infinite): exactly one of s1, s2 is 1 with x's sign and s3 = 0, so the sum is that
      +-1: copysign(1, x) + 0. |x| < sigma: s1 = s2 = 0, the sum (0 + 0) + temp = (+0) + temp,
      which is temp + (+0) (IEEE addition commutes; a -0 temp gives +0 either way).
    * sigma <= 0, a = |sigma| (thr = the float32 after a, keep 0): s3 = 0 (|x'| < sigma never
      holds); s1 = -1 for x' <= a, s2 = 1 for x' >= -a: the sum is 1 above a, -1 below -a, and
      -1 + 1 = +0 in between (x = 0 and a NaN x included). |x| >= thr is |x| > a (no float32
      lies between a and thr), false for a NaN x, and temp & 0 is +0. sigma = -inf: thr is a
      NaN (the bits after infinity's), so every element gives +0, as the recipe's s1 + s2.
    * sigma NaN (thr NaN, keep 0): every comparison is false, the recipe's sum is +0: so is
      this one."""
    temp = np.uint32(np.float32(x / divisor).view(np.uint32) & keep).view(np.float32)
    one = np.uint32((np.float32(x).view(np.uint32) & np.uint32(0x80000000)) | np.uint32(0x3F800000))
    return ((one.view(np.float32) if abs(x) >= thr else temp) + F32(0.0)) * di


@_jit
def _sl1_tbe_consts(sigma):
    """(thr, keep) of :func:`_sl1_tbe` for sigma."""
    if sigma > 0:
        return sigma, np.uint32(0xFFFFFFFF)
    if sigma != sigma:
        return sigma, np.uint32(0)
    return np.uint32(np.float32(abs(sigma)).view(np.uint32) + np.uint32(1)).view(np.float32), np.uint32(0)


@_jit_in
def _sl1_arch35(pi, li, di, sigma, neg_sigma, inv, norm, scalar_dout):
    zero = F32(0.0)
    x = pi - li
    ax = abs(x)
    if scalar_dout:
        pos = F32(1.0) if x >= sigma else zero
        neg = F32(-1.0) if x <= neg_sigma else zero
        lin = zero if ax >= sigma else x * inv
    else:
        pos = F32(1.0) if x > sigma else zero
        neg = F32(-1.0) if x < neg_sigma else zero
        lin = zero if ax > sigma else x * inv
    r = ((pos + neg) + lin) * di
    return r * norm


@_jit_in
def _hs_tbe(gi, x, third, half, three, nan_fix):
    d = x * third
    d = d + half
    if x < -three:
        d = F32(0.0)
    if x > three:
        d = F32(1.0)
    r = gi * d
    if nan_fix and x != x:
        r = F32(1.0)
    return r


@_jit_in
def _hs_arch35(gi, x, third, half, three):
    d = x * third
    d = d + half
    d = d if x >= -three else F32(0.0)
    d = d if x <= three else F32(1.0)
    return gi * d


@_jit_in
def _canon(r):
    return r if r == r else F32(np.nan)


# The two SmoothL1LossGradV2 kernels share their loop structure but not a loop: numba cannot cache
# a kernel that takes its per-element recipe as an argument ("dynamic globals"). Each runs one
# fused loop over operands of the output's size (a branch-free body LLVM vectorises); a
# single-element or row-broadcast operand is first repeated into a block (:func:`tile`) and the
# same loop runs block by block. (A per-element choice of index, ``x[i if full else 0]``, kept
# the float32 loop from vectorising: 4x the copy bound.)

BLOCK = 4096


@_jit
def block_len(n, m):
    """A block length for an operand repeating every ``m`` elements of ``n``: a multiple of m,
    about BLOCK elements (m itself when longer), at most n (n is a multiple of m)."""
    if m >= BLOCK:
        return m
    return min(n, (BLOCK // m) * m)


@_jit
def tile(src, blk):
    """``src`` repeated to ``blk`` elements (blk a multiple of src.size); empty when src is
    longer (an operand of the output's size, which is not repeated)."""
    m = src.size
    if m > blk or blk % m:
        return np.empty(0, src.dtype)
    if m == blk:
        return src  # one repeat: the operand itself (a copy of a long row cost up to 0.5 ms in 4 MiB)
    rep = np.empty(blk, src.dtype)
    for start in range(0, blk, m):
        rep[start : start + m] = src
    return rep


@_jit_in
def _sl1_tbe_loop(p, lab, d, out, kind, thr, divisor, keep, cof, mean):
    for i in range(out.size):
        x = _widen16(kind, p[i]) - _widen16(kind, lab[i])
        r = _sl1_tbe(x, _widen16(kind, d[i]), thr, divisor, keep)
        out[i] = _narrow16(kind, r * cof if mean else r)


@_jit
def _sl1_tbe_f32(fp, fl, fd, fo, thr, divisor, keep, cof, mean):
    """:func:`_sl1_tbe` over float32 arrays of the output's size, then the mean factor."""
    for i in range(fo.size):
        r = _sl1_tbe(fp[i] - fl[i], fd[i], thr, divisor, keep)
        fo[i] = _canon(r * cof if mean else r)


@_jit
def _sl1_tbe_same(p, lab, d, out, kind, thr, divisor, keep, cof, mean):
    """:func:`_sl1_tbe` over float16/bfloat16 bits of the output's size, then the mean factor
    ``cof`` when ``mean`` (``bench/arith_bound.py`` times this loop). One loop per kind, each with
    its kind a constant: LLVM unswitches only so many loop-invariant tests (the kind's and the
    mean's together left the half loops scalar)."""
    if kind == KIND_F16:
        _sl1_tbe_loop(p, lab, d, out, KIND_F16, thr, divisor, keep, cof, mean)
    else:
        _sl1_tbe_loop(p, lab, d, out, KIND_BF16, thr, divisor, keep, cof, mean)


@_jit
def _sl1_arch35_f32(fp, fl, fd, fo, sigma, neg_sigma, inv, norm, scalar_dout):
    """:func:`_sl1_arch35` over float32 arrays of the output's size."""
    for i in range(fo.size):
        fo[i] = _canon(_sl1_arch35(fp[i], fl[i], fd[i], sigma, neg_sigma, inv, norm, scalar_dout))


@_jit
def _sl1_arch35_half(p, lab, d, out, kind, sigma, neg_sigma, inv, norm, scalar_dout):
    """:func:`_sl1_arch35` over float16/bfloat16 bits of the output's size."""
    for i in range(out.size):
        r = _sl1_arch35(
            _widen16(kind, p[i]), _widen16(kind, lab[i]), _widen16(kind, d[i]), sigma, neg_sigma, inv, norm, scalar_dout
        )
        out[i] = _narrow16(kind, r)


@_jit_in
def _block(kind, a, n, m):
    """:func:`block_len` in units of ``a``'s container: float32 carried as uint16 halves
    takes twice the units, so that a block holds about BLOCK elements either way (half-size
    blocks cost the broadcast paths about 15%: twice the block calls)."""
    w = 2 if kind == KIND_F32 and a.itemsize == 2 else 1
    if m >= BLOCK * w:
        return m
    return min(n, (BLOCK * w // m) * m)


@_jit_in
def _broadcast_block(kind, n, p, lab, d):
    """The block length, in container units, for the operands of SmoothL1LossGradV2: the
    longest repeat (the others divide it, being trailing products of the same shape)."""
    return _block(
        kind, p, n, max(p.size if p.size != n else 1, lab.size if lab.size != n else 1, d.size if d.size != n else 1)
    )


@_jit_in
def _as_f32(kind, a):
    """A float32 view of float32 bits held as uint16 halves; an empty array for the other kinds
    (whose arrays may have an odd number of halves)."""
    return a.view(np.float32) if kind == KIND_F32 else np.empty(0, np.float32)


# The SmoothL1LossGradV2 and HardSwishGrad kernels take every kind's bits as uint16 (float32 as
# the two halves of each element, viewed as float32 inside): numba compiles a function once per
# argument type, and one signature instead of two (uint16 and uint32) halves a cold compile. The
# public names are Python functions that hand float32's uint32 bits over as halves, so callers
# pass the bits of :func:`aclnn_py.kernels.accel.same_kind_bits` as before (a view costs ~0.1 us).
# The broadcast paths run blocks of about BLOCK elements, each a call of its own (with the block
# loop and the element loop in one function LLVM left the float32 loop 10-40% slower); float32's
# views are made once per call, not per block (four views a block cost an in-cache call ~12%).


@_jit_inline
def _sl1_layouts(f32_loop, half_loop, p, lab, d, out, kind, consts):
    """Run a SmoothL1LossGradV2 recipe's loops (``f32_loop(fp, fl, fd, fo, *consts)`` on float32
    views, ``half_loop(p, lab, d, out, kind, *consts)`` on the half types' bits) over the
    output: one call when the three inputs have its size, else blocks of the broadcast ones
    tiled once (:func:`_broadcast_block`)."""
    n = out.size
    if p.size == n and lab.size == n and d.size == n:
        if kind == KIND_F32:
            f32_loop(p.view(np.float32), lab.view(np.float32), d.view(np.float32), out.view(np.float32), *consts)
        else:
            half_loop(p, lab, d, out, kind, *consts)
        return
    blk = _broadcast_block(kind, n, p, lab, d)
    rp, rl, rd = tile(p, blk), tile(lab, blk), tile(d, blk)
    fp, fl, fd, fo = _as_f32(kind, p), _as_f32(kind, lab), _as_f32(kind, d), _as_f32(kind, out)
    frp, frl, frd = _as_f32(kind, rp), _as_f32(kind, rl), _as_f32(kind, rd)
    for start in range(0, n, blk):
        cnt = min(blk, n - start)
        stop = start + cnt
        if kind == KIND_F32:
            s, e, c = start // 2, stop // 2, cnt // 2
            f32_loop(
                fp[s:e] if p.size == n else frp[:c], fl[s:e] if lab.size == n else frl[:c],
                fd[s:e] if d.size == n else frd[:c], fo[s:e], *consts,
            )  # fmt: skip
        else:
            half_loop(
                p[start:stop] if p.size == n else rp[:cnt], lab[start:stop] if lab.size == n else rl[:cnt],
                d[start:stop] if d.size == n else rd[:cnt], out[start:stop], kind, *consts,
            )  # fmt: skip


@_jit
def _smooth_l1_tbe(p, lab, d, out, kind, sigma, eps, cof, mean):
    divisor = sigma + eps
    thr, keep = _sl1_tbe_consts(sigma)
    _sl1_layouts(_sl1_tbe_f32, _sl1_tbe_same, p, lab, d, out, kind, (thr, divisor, keep, cof, mean))


@_jit
def _smooth_l1_arch35(p, lab, d, out, kind, sigma, inv, norm, scalar_dout):
    consts = (sigma, -sigma, inv, norm, scalar_dout)
    _sl1_layouts(_sl1_arch35_f32, _sl1_arch35_half, p, lab, d, out, kind, consts)


def smooth_l1_tbe(
    p: np.ndarray, lab: np.ndarray, d: np.ndarray, out: np.ndarray, kind: int,
    sigma: np.float32, eps: np.float32, cof: np.float32, mean: bool,
) -> None:  # fmt: skip
    """SmoothL1LossGradV2's TBE recipe into ``out``: predict, label and dout as the kind's bits
    (uint32 for float32, uint16 for the half types), each of out's size, a single element or a
    row broadcast; ``cof`` the mean factor applied when ``mean``."""
    u16 = np.uint16
    _smooth_l1_tbe(p.view(u16), lab.view(u16), d.view(u16), out.view(u16), kind, sigma, eps, cof, mean)


def smooth_l1_arch35(
    p: np.ndarray, lab: np.ndarray, d: np.ndarray, out: np.ndarray, kind: int,
    sigma: np.float32, inv: np.float32, norm: np.float32, scalar_dout: bool,
) -> None:  # fmt: skip
    """SmoothL1LossGradV2's arch35 recipe into ``out`` (operands as for :func:`smooth_l1_tbe`);
    ``scalar_dout``: dout is a single element (the recipe's comparisons then include sigma)."""
    u16 = np.uint16
    _smooth_l1_arch35(p.view(u16), lab.view(u16), d.view(u16), out.view(u16), kind, sigma, inv, norm, scalar_dout)


# -- HardSwishGrad --------------------------------------------------------------------------------


@_jit
def _hardswish_grad_tbe(g, x_in, out, kind, third, half, three):
    nan_fix = kind != KIND_F16
    if kind == KIND_F32:
        fg, fx, fo = g.view(np.float32), x_in.view(np.float32), out.view(np.float32)
        for i in range(fo.size):
            fo[i] = _canon(_hs_tbe(fg[i], fx[i], third, half, three, nan_fix))
        return
    for i in range(out.size):  # the shapes are equal: one fused loop
        out[i] = _narrow16(kind, _hs_tbe(_widen16(kind, g[i]), _widen16(kind, x_in[i]), third, half, three, nan_fix))


@_jit
def _hardswish_grad_arch35(g, x_in, out, kind, third, half, three):
    if kind == KIND_F32:
        fg, fx, fo = g.view(np.float32), x_in.view(np.float32), out.view(np.float32)
        for i in range(fo.size):
            fo[i] = _canon(_hs_arch35(fg[i], fx[i], third, half, three))
        return
    for i in range(out.size):  # the shapes are equal: one fused loop
        out[i] = _narrow16(kind, _hs_arch35(_widen16(kind, g[i]), _widen16(kind, x_in[i]), third, half, three))


def hardswish_tbe(
    g: np.ndarray, x_in: np.ndarray, out: np.ndarray, kind: int, third: np.float32, half: np.float32, three: np.float32
) -> None:
    """HardSwishGrad's TBE recipe into ``out``: gradOutput and self as the kind's bits (uint32 for
    float32, uint16 for the half types), all of one size (see the note above :func:`smooth_l1_tbe`)."""
    u16 = np.uint16
    _hardswish_grad_tbe(g.view(u16), x_in.view(u16), out.view(u16), kind, third, half, three)


def hardswish_arch35(
    g: np.ndarray, x_in: np.ndarray, out: np.ndarray, kind: int, third: np.float32, half: np.float32, three: np.float32
) -> None:
    """HardSwishGrad's arch35 recipe into ``out`` (operands as for :func:`hardswish_tbe`)."""
    u16 = np.uint16
    _hardswish_grad_arch35(g.view(u16), x_in.view(u16), out.view(u16), kind, third, half, three)


# -- ScaledMaskedSoftmaxGradV2 --------------------------------------------------------------------


LANES = 64  # float32 lanes of one 256-byte vector register: the reductions' unit


@intrinsic
def _stack_lanes(typingctx):
    """A pointer to 64 float32 on the stack of the function that uses it (allocated once, in its
    entry block; each use is an array of its own). Lanes kept there, unlike in a heap array, are
    promoted by LLVM to vector registers: no store and reload per step."""
    sig = types.CPointer(types.float32)()  # type: ignore[no-untyped-call]

    def codegen(context, builder, signature, args):
        return cgutils.alloca_once(builder, ir.FloatType(), size=LANES)  # type: ignore[no-untyped-call]

    return sig, codegen


@_jit_inline
def _tree64(buf):
    """The adjacent-pair tree of buf[0:64], level by level between two stack arrays of constant
    widths, which LLVM keeps in vector registers as shuffles and adds (the in-place loop of
    :func:`_tree` took about 50 ns a row: half of ReduceSum's time on rows of 1024). ``buf`` is
    left as it was."""
    a = carray(_stack_lanes(), LANES)  # type: ignore[call-arg]  # numba passes typingctx
    t = carray(_stack_lanes(), LANES)
    for j in range(32):
        t[j] = buf[2 * j] + buf[2 * j + 1]
    for j in range(16):
        a[j] = t[2 * j] + t[2 * j + 1]
    for j in range(8):
        t[j] = a[2 * j] + a[2 * j + 1]
    for j in range(4):
        a[j] = t[2 * j] + t[2 * j + 1]
    return (a[0] + a[1]) + (a[2] + a[3])


@_jit_in
def _tree(buf, n):
    """Adjacent-pair tree sum of buf[0:n] (n a power of two); buf is scratch."""
    if n == LANES:
        return _tree64(buf)
    width = n
    while width > 1:
        half = width // 2
        for j in range(half):
            buf[j] = buf[2 * j] + buf[2 * j + 1]
        width = half
    return buf[0]


@_jit_in
def _as_u32(kind, a):
    """A uint32 view of float32 bits held as uint16 halves; an empty array for the other kinds.
    Made once per call: a view per row cost a small call ~10% (256 rows of 1024)."""
    return a.view(np.uint32) if kind == KIND_F32 else np.empty(0, np.uint32)


@_jit_inline
def _load_row(src, src32, start, count, kind, dst):
    """Elements [start, start+count) of ``src`` (uint16: the kind's bits; float32's are read from
    its uint32 view ``src32``) exactly as float32 bits into dst[0:count]."""
    if kind == KIND_F32:
        _to_f32(src32, start, count, KIND_F32, dst)
    else:
        _to_f32(src, start, count, kind, dst)


@_jit_inline
def _store_row(res, res_f, out, out32, start, count, kind):
    """:func:`_from_f32` into ``out`` (uint16; float32 through its uint32 view ``out32``)."""
    if kind == KIND_F32:
        _from_f32(res, res_f, out32, start, count, KIND_F32)
    else:
        _from_f32(res, res_f, out, start, count, kind)


def scaled_masked_softmax_grad(
    g: np.ndarray, y: np.ndarray, mask: np.ndarray, out: np.ndarray, kind: int, rows: int, d: int,
    mask_rows_b: bool, mask_rows_n: bool, n_dim: int, s_dim: int, scale: np.float32, apply_scale: bool, arch: int,
) -> None:  # fmt: skip
    """ScaledMaskedSoftmaxGradV2 into ``out``: yGrad, y and out as the kind's bits (uint32 for
    float32, uint16 for the half types) of ``rows`` rows of ``d``, the mask's bytes, which
    broadcasts over b (``mask_rows_b`` false) and n (``mask_rows_n`` false) of the rows' (b, n, s).
    arch: 0 v220 (910B), 1 v200 (310P), 2 3510 (950): the norm path's summation order, and on
    3510 the large path's second reduction capped at 64 lanes. (One compiled signature for every
    kind: see the note above :func:`smooth_l1_tbe`.)"""
    u16 = np.uint16
    _scaled_masked_softmax_grad(
        g.view(u16), y.view(u16), mask, out.view(u16), kind, rows, d,
        mask_rows_b, mask_rows_n, n_dim, s_dim, scale, apply_scale, arch,
    )  # fmt: skip


@_jit_inline
def mask_row(r, n_dim, s_dim, mask_b, mask_n):
    """The mask's row for row ``r`` of a [b, n, s, d] input seen as rows (b, n, s): the mask
    is [b or 1, n or 1, s, d] (``mask_b``/``mask_n`` false: it broadcasts over that axis)."""
    b_idx = r // (n_dim * s_dim)
    n_idx = (r // s_dim) % n_dim
    nm = n_dim if mask_n else 1
    return ((b_idx if mask_b else 0) * nm + (n_idx if mask_n else 0)) * s_dim + r % s_dim


@_jit
def _scaled_masked_softmax_grad(
    g, y, mask, out, kind, rows, d, mask_rows_b, mask_rows_n, n_dim, s_dim, scale, apply_scale, arch
):
    padded = ((d + 63) // 64) * 64
    chunks = padded // 64
    gb = np.zeros(padded, np.uint32)
    yb = np.zeros(padded, np.uint32)
    rb = np.zeros(padded, np.uint32)
    grow, yrow, res = gb.view(np.float32), yb.view(np.float32), rb.view(np.float32)
    prod = np.zeros(padded, np.float32)
    acc = np.zeros(64, np.float32)
    blk = np.zeros(64, np.float32)
    part = np.zeros(64, np.float32)
    zero = F32(0.0)
    large = padded > 1024
    used = min(chunks, 64)  # D <= 4096 except on 3510, whose second reduction takes 64 lanes
    g32, y32, out32 = _as_u32(kind, g), _as_u32(kind, y), _as_u32(kind, out)
    for r in range(rows):
        base = r * d
        _load_row(g, g32, base, d, kind, gb)
        _load_row(y, y32, base, d, kind, yb)  # positions d..padded stay 0 (zero padding)
        if not large:
            for j in range(padded):
                prod[j] = yrow[j] * grow[j]
            if arch == 0:
                for c in range(chunks):
                    chunk = prod[c * 64 : c * 64 + 64]  # slices, not computed indices: see _to_f32
                    for k in range(8):
                        lane = chunk[k * 8 : k * 8 + 8]
                        for t in range(8):
                            blk[t] = lane[t]
                        v = _tree(blk, 8)
                        acc[k] = v if c == 0 else acc[k] + v
                for k in range(8):
                    blk[k] = acc[k]
                s = _tree(blk, 8)
            elif arch == 1:
                s = zero
                for c in range(chunks):
                    chunk = prod[c * 64 : c * 64 + 64]
                    for t in range(64):
                        blk[t] = chunk[t]
                    v = _tree(blk, 64)
                    s = v if c == 0 else s + v
            else:
                for t in range(64):
                    acc[t] = zero
                for c in range(chunks):
                    chunk = prod[c * 64 : c * 64 + 64]
                    for t in range(64):
                        acc[t] = acc[t] + chunk[t]
                for t in range(64):
                    blk[t] = acc[t]
                s = _tree(blk, 64)
        else:
            for j in range(padded):
                prod[j] = grow[j] * yrow[j]
            for c in range(used):
                chunk = prod[c * 64 : c * 64 + 64]
                for t in range(64):
                    blk[t] = chunk[t]
                part[c] = _tree(blk, 64)
            for c in range(used, 64):
                part[c] = zero
            s = _tree(part, 64)
        mrow = mask_row(r, n_dim, s_dim, mask_rows_b, mask_rows_n)
        mask_row_bytes = mask[mrow * d : mrow * d + d]
        for j in range(d):
            v = prod[j] - yrow[j] * s if large else yrow[j] * (grow[j] - s)
            if apply_scale:
                v = v * scale
            if mask_row_bytes[j] != 0:
                v = zero
            res[j] = v
        _store_row(rb, res, out, out32, base, d, kind)


VERSION = numba.__version__


# The kernels of the newer families live in their own modules (they use the helpers above). The
# softmax kernels (_numba_softmax, with numpy's exp in _numba_exp) are imported by their callers
# instead: they take names from _numba_reduce, which a module imported from here could not do
# when _numba_reduce is the first one imported.
from . import _numba_ew as ew  # noqa: E402, F401
from . import _numba_reduce as red  # noqa: E402, F401
