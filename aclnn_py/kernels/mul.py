"""The ``Mul`` kernel: the shared elementwise product, and Ascend950's software DOUBLE multiply.

Every dtype but DOUBLE on Ascend950's AI Core is :func:`aclnn_py.kernels.elementwise.mul` (one
IEEE multiplication in the compute dtype; the mixed FLOAT16/BFLOAT16 + FLOAT pairs in float32;
integers wrap; bool is an and). The AI CPU multiplies DOUBLE with the C++ ``*`` (IEEE).

Ascend950 has no double-precision vector unit: ops-math's arch35 ``MulDouble_vf``
(``math/mul/op_kernel/arch35/mul_dag.h``) multiplies on the SIMT cores in integer arithmetic:
the two 53-bit significands as 32-bit limbs into a 106-bit product, normalised in 16-bit steps,
then rounded by adding half a unit at the first dropped bit (**ties away from zero**, not to
even). Its special cases: a NaN operand gives the positive quiet NaN ``0x7FF8000000000000`` (the
low word of the result is left unset in the kernel: taken as 0), infinity times zero gives that
NaN, **any zero operand gives +0.0** (the sign is dropped), results below half the smallest
subnormal give +0.0. :func:`mul_double_simt` reproduces the routine step by step, including its
carries: when a subnormal operand leaves the leading bit of the product at bit 20 of the top limb
the rounding increment is added twice (the first time without carry), and the subnormal-result
branches add without carry into the high word.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from . import elementwise
from .elementwise import Compute

_U = np.uint64
_M32 = _U(0xFFFFFFFF)
_MMASK = _U(0xFFFFF)  # the 20 significand bits of the high word
_SIGN = _U(0x80000000)
_NAN_BITS = _U(0x7FF80000) << _U(32)


def _shl32(x: np.ndarray, k: np.ndarray) -> np.ndarray:
    """``(uint32)(x << k)`` for 0 <= k < 32."""
    return np.asarray((x << k.astype(_U)) & _M32)


def _shr(x: np.ndarray, k: np.ndarray) -> np.ndarray:
    return x >> k.astype(_U)


def mul_double_simt(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """The bits (uint64) of Ascend950's DOUBLE product of ``x`` and ``y`` (broadcast)."""
    xa, ya = np.broadcast_arrays(np.asarray(x, np.float64), np.asarray(y, np.float64))
    shape = xa.shape
    ua = np.ascontiguousarray(xa).reshape(-1).view(_U)
    ub = np.ascontiguousarray(ya).reshape(-1).view(_U)
    a1, a0, b1, b0 = ua >> _U(32), ua & _M32, ub >> _U(32), ub & _M32
    sa, sb = a1 & _SIGN, b1 & _SIGN
    ea, eb = ((a1 >> _U(20)) & _U(0x7FF)).astype(np.int64), ((b1 >> _U(20)) & _U(0x7FF)).astype(np.int64)
    frac_a = ((a1 & _MMASK) != 0) | (a0 != 0)
    frac_b = ((b1 & _MMASK) != 0) | (b0 != 0)
    zero_a = ((a1 & _U(0x7FFFFFFF)) == 0) & (a0 == 0)
    zero_b = ((b1 & _U(0x7FFFFFFF)) == 0) & (b0 == 0)
    nan = ((ea == 2047) & frac_a) | ((eb == 2047) & frac_b)
    inf_a = ~nan & (ea == 2047)
    inf_b = ~nan & ~inf_a & (eb == 2047)
    zero = ~(nan | inf_a | inf_b) & (zero_a | zero_b)
    finite = ~(nan | inf_a | inf_b | zero)

    out = np.zeros(ua.shape, _U)
    out[nan] = _NAN_BITS
    out[inf_a] = np.where(zero_b[inf_a], _NAN_BITS, ua[inf_a] ^ (sb[inf_a] << _U(32)))
    out[inf_b] = np.where(zero_a[inf_b], _NAN_BITS, ub[inf_b] ^ (sa[inf_b] << _U(32)))
    if finite.any():
        out[finite] = _finite_product(a1[finite], a0[finite], b1[finite], b0[finite], ea[finite], eb[finite])
    return out.reshape(shape)


def _finite_product(
    a1: np.ndarray, a0: np.ndarray, b1: np.ndarray, b0: np.ndarray, ea: np.ndarray, eb: np.ndarray
) -> np.ndarray:
    """The routine's path for two finite non-zero operands (normal or subnormal)."""
    sc = (a1 ^ b1) & _SIGN
    aflag, bflag = (ea > 0).astype(np.int64), (eb > 0).astype(np.int64)
    ea = ea - 1023 + 1 - aflag
    eb = eb - 1023 + 1 - bflag
    ma_high, mb_high = (a1 & _MMASK) + (aflag.astype(_U) << _U(20)), (b1 & _MMASK) + (bflag.astype(_U) << _U(20))
    ma_low, mb_low = a0, b0
    # the 106-bit product in four 32-bit limbs s3:s2:s1:s0, as the kernel accumulates it
    res0 = ma_low * mb_low
    res1 = (res0 >> _U(32)) + ma_low * mb_high + ma_high * mb_low
    res2 = (res1 >> _U(32)) + ma_high * mb_high
    hi = res2  # s3:s2
    lo = ((res1 & _M32) << _U(32)) | (res0 & _M32)  # s1:s0
    s3, s2, s1, s0 = hi >> _U(32), hi & _M32, lo >> _U(32), lo & _M32
    top16 = _U(0xFFFF0000)
    total = np.select(
        [s3 != 0, (s2 & top16) != 0, s2 != 0, (s1 & top16) != 0, s1 != 0, (s0 & top16) != 0, s0 != 0],
        [0, 16, 32, 48, 64, 80, 96],
        0,
    ).astype(np.int64)
    # shift the 128-bit value left by `total` (whole 16-bit steps; nothing above bit 127 is lost)
    small = total < 64
    k = np.where(small, total, 0).astype(_U)
    k_hi = np.where(small, 0, total - 64).astype(_U)
    new_hi = np.where(
        small,
        (hi << k) | np.where(k == 0, _U(0), lo >> (_U(64) - np.where(k == 0, _U(1), k))),
        lo << k_hi,
    )
    new_lo = np.where(small, lo << k, _U(0))
    s3, s2, s1, s0 = new_hi >> _U(32), new_hi & _M32, new_lo >> _U(32), new_lo & _M32
    n = (np.frexp(s3.astype(np.float64))[1] - 1).astype(np.int64)  # 31 - clz(s3)
    ec = ea + (n - 8) + eb + 1023 - total

    c1 = np.zeros_like(s3)
    c0 = np.zeros_like(s3)
    over = ec >= 2047
    c1[over] = sc[over] + (_U(2047) << _U(20))
    sub = (ec <= 0) & (ec > -53)  # ec <= -53: +0.0 (the zeros already in c1, c0)
    if sub.any():
        h, lw = _subnormal(s3[sub], s2[sub], s1[sub], ec[sub], n[sub])
        c1[sub] = (sc[sub] + h) & _M32
        c0[sub] = lw
    norm = (ec > 0) & ~over
    if norm.any():
        h, lw = _normal(s3[norm], s2[norm], s1[norm], n[norm])
        c1[norm] = (sc[norm] + (ec[norm].astype(_U) << _U(20)) + h) & _M32
        c0[norm] = lw
    return np.asarray((c1 << _U(32)) | c0)


def _normal(s3: np.ndarray, s2: np.ndarray, s1: np.ndarray, n: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The 52 fraction bits (high 20, low 32) of a normal result, rounded half up, with carry."""
    lsh = 20 - n
    pos, neg = lsh > 0, lsh < 0
    lp = np.where(pos, lsh, 1)
    rn = np.where(neg, -lsh, 1)
    # lshift > 0
    h_pos = ((_shl32(s3, lp) - _U(1 << 20)) & _M32) + _shr(s2, 32 - lp)
    l_pos = _shl32(s2, lp)
    v_pos = _shr((s1 >> _U(1)) + (_U(1) << (30 - lp).astype(_U)), 31 - lp)
    # lshift < 0
    h_neg = _shr(s3, rn) - _U(1 << 20)
    l_neg = _shl32(s3, 32 - rn)
    v_neg = _shr((s2 + (_U(1) << (rn - 1).astype(_U))) & _M32, rn)
    # lshift == 0: the rounding increment goes in twice, the first time without a carry
    rb = ((s1 >> _U(1)) + _U(1 << 30)) >> _U(31)
    h_zero = s3 - _U(1 << 20)
    l_zero = (s2 + rb) & _M32
    high = np.where(pos, h_pos, np.where(neg, h_neg, h_zero))
    low = np.where(pos, l_pos, np.where(neg, l_neg, l_zero))
    inc = np.where(pos, v_pos, np.where(neg, v_neg, rb))
    carry = ((~low) & _M32) < inc
    return (high + carry.astype(_U)) & _M32, (low + inc) & _M32


def _subnormal(
    s3: np.ndarray, s2: np.ndarray, s1: np.ndarray, ec: np.ndarray, n: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """A subnormal result's significand (high, low words), rounded half up without a carry
    into the high word; the exponent field is 0."""
    w32 = ec <= -33
    w16 = ~w32 & (ec <= -17)
    # right shifts of the limbs by 32 or 16 bits, as the kernel does them (the lowest limb is
    # not read afterwards)
    t1 = np.where(w32, s2, np.where(w16, (s1 >> _U(16)) | ((s2 << _U(16)) & _M32), s1))
    t2 = np.where(w32, s3, np.where(w16, (s2 >> _U(16)) | ((s3 << _U(16)) & _M32), s2))
    t3 = np.where(w32, _U(0), np.where(w16, s3 >> _U(16), s3))
    ec = ec + np.where(w32, 32, np.where(w16, 16, 0))
    lsh = 19 + ec - n
    pos, neg = lsh > 0, lsh < 0
    lp = np.where(pos, lsh, 1)
    rn = np.where(neg, -lsh, 1)
    h_pos = (_shl32(t3, lp) + _shr(t2, 32 - lp)) & _M32
    l_pos = (_shl32(t2, lp) + _shr((t1 >> _U(1)) + (_U(1) << (30 - lp).astype(_U)), 31 - lp)) & _M32
    # rshift reaches 32 at most; a 32-bit shift by 32 is undefined in C: the mathematical shift
    # (giving 0) is taken
    h_neg = _shr(t3, rn)
    l_neg = (_shl32(t3, 32 - rn) + _shr((t2 + (_U(1) << (rn - 1).astype(_U))) & _M32, rn)) & _M32
    h_zero = t3
    l_zero = (t2 + (((t1 >> _U(1)) + _U(1 << 30)) >> _U(31))) & _M32
    high = np.where(pos, h_pos, np.where(neg, h_neg, h_zero))
    low = np.where(pos, l_pos, np.where(neg, l_neg, l_zero))
    return high, low


def mul(recipe: str, *, simt_double: bool = False) -> Compute:
    """``Mul``: the shared product; DOUBLE by the SIMT routine when ``simt_double`` (Ascend950's
    AI Core)."""
    shared = elementwise.mul(recipe)

    def compute(ins: Sequence[np.ndarray], outs: Sequence[np.ndarray]) -> str:
        a, b = ins
        if simt_double and a.dtype == np.float64 and b.dtype == np.float64:
            outs[0].view(_U)[...] = mul_double_simt(a, b)
            return "numpy"
        return shared(ins, outs)

    return compute
