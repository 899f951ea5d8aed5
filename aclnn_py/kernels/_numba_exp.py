# mypy: disallow-untyped-defs=False, warn-return-any=False
"""numpy's float32 ``np.exp`` compiled in, for the softmax kernels (:mod:`._numba_softmax`).

aclnn_py's SoftmaxV2 and ScaledMaskedSoftmaxV2 recipes take numpy's float32 exponential as the
chip's ``Exp`` (see :mod:`aclnn_py.kernels.softmax`); no CANN source defines it. On x86-64 with
AVX2 and FMA (and with AVX-512F) numpy runs its own vector algorithm (``simd_exp_FLOAT``, in
numpy/_core/src/umath/loops_exponent_log.dispatch.c.src); :func:`np_exp32` is that algorithm
element by element (the same float32 operations, the same fused multiply-adds), so a softmax row
can be computed in one fused pass (``x - max``, exp, sum, divide) while it is in the L1 cache.
Whether numpy's exp really is that algorithm on this machine is checked once per process
(:func:`exp_matches_numpy`, against numpy on the edges and on random patterns); where it is not
(another CPU, a numpy built otherwise), the softmax kernels write ``x - max`` into a float32
block, the caller applies ``np.exp`` to the block, and a second call sums and divides.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from ._numba import F32, _jit, _jit_in


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
