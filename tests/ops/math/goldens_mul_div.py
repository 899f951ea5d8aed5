"""Independent goldens for the Mul and Div families (one element at a time, in Python integers
and fractions; see tests/goldens.py for the shared ones).

* :func:`div_exact`: x / y as an exact fraction, or IEEE's special values;
* :func:`round_half_away`: an exact value rounded to float64, ties away from zero;
* :func:`mul_double_simt_ref`: Ascend950's SIMT double multiply (``MulDouble_vf`` in ops-math's
  ``mul_dag.h``) transcribed statement by statement with C's 32-bit unsigned arithmetic — the
  package's version is vectorised differently, so this is a check of the transcription.
"""

from __future__ import annotations

import math
import struct
from fractions import Fraction

M32 = 0xFFFFFFFF


def f64_bits(x: float) -> int:
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def bits_f64(b: int) -> float:
    return struct.unpack("<d", struct.pack("<Q", b & 0xFFFFFFFFFFFFFFFF))[0]


def div_exact(x: float, y: float):
    """x / y: an exact Fraction, or the IEEE result for zeros, infinities and NaNs."""
    if math.isnan(x) or math.isnan(y):
        return math.nan
    if math.isinf(x) and math.isinf(y):
        return math.nan
    sign = -1.0 if (math.copysign(1, x) < 0) != (math.copysign(1, y) < 0) else 1.0
    if y == 0:
        return math.nan if x == 0 else sign * math.inf
    if math.isinf(x):
        return sign * math.inf
    if math.isinf(y) or x == 0:
        return sign * 0.0
    return Fraction(x) / Fraction(y)


def round_half_away(value: Fraction) -> float:
    """The float64 nearest to ``value`` (normal range), ties away from zero."""
    sign = -1 if value < 0 else 1
    a = abs(value)
    e = a.numerator.bit_length() - a.denominator.bit_length()
    if Fraction(2) ** e > a:
        e -= 1
    q = Fraction(2) ** (e - 52)
    n = a / q
    whole = n.numerator // n.denominator
    if n - whole >= Fraction(1, 2):
        whole += 1
    return sign * float(whole * q)


def _clz32(x: int) -> int:
    return 32 - x.bit_length()


def mul_double_simt_ref(x: float, y: float) -> int:
    """The bits of Ascend950's DOUBLE product (the NaN's unset low word taken as 0)."""
    a, b = f64_bits(x), f64_bits(y)
    a1, a0, b1, b0 = a >> 32, a & M32, b >> 32, b & M32
    sa, sb = a1 & 0x80000000, b1 & 0x80000000
    ea, eb = (a1 & 0x7FF00000) >> 20, (b1 & 0x7FF00000) >> 20
    nan = 0x7FF80000 << 32
    if ea == 2047 and ((a1 & 0xFFFFF) > 0 or a0 > 0):
        return nan
    if eb == 2047 and ((b1 & 0xFFFFF) > 0 or b0 > 0):
        return nan
    if ea == 2047:
        if eb == 0 and (b1 & 0xFFFFF) == 0 and b0 == 0:
            return nan
        return ((a1 ^ sb) << 32) | a0
    if eb == 2047:
        if ea == 0 and (a1 & 0xFFFFF) == 0 and a0 == 0:
            return nan
        return ((b1 ^ sa) << 32) | b0
    if (a1 & 0x7FFFFFFF) == 0 and a0 == 0:
        return 0
    if (b1 & 0x7FFFFFFF) == 0 and b0 == 0:
        return 0
    aflag, bflag = int(ea > 0), int(eb > 0)
    ea = ea - 1023 + 1 - aflag
    eb = eb - 1023 + 1 - bflag
    ma_high, ma_low = (a1 & 0xFFFFF) + (aflag << 20), a0
    mb_high, mb_low = (b1 & 0xFFFFF) + (bflag << 20), b0
    r0 = ma_low * mb_low
    r1 = (r0 >> 32) + ma_low * mb_high + ma_high * mb_low
    r2 = (r1 >> 32) + ma_high * mb_high
    s3, s2, s1, s0 = (r2 >> 32) & M32, r2 & M32, r1 & M32, r0 & M32
    if s3 != 0:
        total = 0
    elif s2 & 0xFFFF0000:
        total = 16
    elif s2:
        total = 32
    elif s1 & 0xFFFF0000:
        total = 48
    elif s1:
        total = 64
    elif s0 & 0xFFFF0000:
        total = 80
    elif s0:
        total = 96
    else:
        total, s3 = 0, 0
    if total == 16:
        s3, s2, s1, s0 = (
            ((s3 << 16) | (s2 >> 16)) & M32,
            ((s2 << 16) | (s1 >> 16)) & M32,
            ((s1 << 16) | (s0 >> 16)) & M32,
            (s0 << 16) & M32,
        )
    elif total == 32:
        s3, s2, s1, s0 = s2, s1, s0, 0
    elif total == 48:
        s3, s2, s1, s0 = s1 >> 16, ((s1 << 16) | (s0 >> 16)) & M32, (s0 << 16) & M32, 0
    elif total == 64:
        s3, s2, s1, s0 = s1, s0, 0, 0
    elif total == 80:
        s3, s2, s1, s0 = s0 >> 16, (s0 << 16) & M32, 0, 0
    elif total == 96:
        s3, s2, s1, s0 = s0, 0, 0, 0
    n = 31 - _clz32(s3)
    sc = sa ^ sb
    ec = ea + (n - 8) + eb + 1023 - total
    mc_high = mc_low = 0
    if ec >= 2047:
        ec = 2047
    elif ec <= 0:
        if ec <= -53:
            return 0
        if ec <= -33:
            s0, s1, s2, s3 = s1, s2, s3, 0
            ec += 32
        elif ec <= -17:
            s0 = ((s0 >> 16) | (s1 << 16)) & M32
            s1 = ((s1 >> 16) | (s2 << 16)) & M32
            s2 = ((s2 >> 16) | (s3 << 16)) & M32
            s3 = s3 >> 16
            ec += 16
        lshift = 19 + ec - n
        if lshift > 0:
            mc_high = (s3 << lshift) & M32
            mc_high = (mc_high + (s2 >> (32 - lshift))) & M32
            roundvalue = 1 << (30 - lshift)
            mc_low = (s2 << lshift) & M32
            mc_low = (mc_low + ((((s1 >> 1) + roundvalue) & M32) >> (31 - lshift))) & M32
        elif lshift < 0:
            rshift = -lshift
            mc_high = s3 >> rshift
            mc_low = (s3 << (32 - rshift)) & M32
            roundvalue = 1 << (rshift - 1)
            mc_low = (mc_low + (((s2 + roundvalue) & M32) >> rshift)) & M32
        else:
            mc_high = s3
            mc_low = (s2 + ((((s1 >> 1) + (1 << 30)) & M32) >> 31)) & M32
        ec = 0
    else:
        lshift = 20 - n
        if lshift > 0:
            mc_high = (((s3 << lshift) & M32) - (1 << 20)) & M32
            mc_high = (mc_high + (s2 >> (32 - lshift))) & M32
            mc_low = (s2 << lshift) & M32
            roundvalue = 1 << (30 - lshift)
            s1value = (((s1 >> 1) + roundvalue) & M32) >> (31 - lshift)
            p = int((~mc_low & M32) < s1value)
            mc_low = (mc_low + s1value) & M32
            mc_high = (mc_high + p) & M32
        elif lshift < 0:
            rshift = -lshift
            mc_high = ((s3 >> rshift) - (1 << 20)) & M32
            mc_low = (s3 << (32 - rshift)) & M32
            roundvalue = 1 << (rshift - 1)
            s2value = ((s2 + roundvalue) & M32) >> rshift
            p = int((~mc_low & M32) < s2value)
            mc_low = (mc_low + s2value) & M32
            mc_high = (mc_high + p) & M32
        else:
            mc_high = (s3 - (1 << 20)) & M32
            mc_low = s2
            mc_low = (mc_low + ((((s1 >> 1) + (1 << 30)) & M32) >> 31)) & M32
            s2value = (((s1 >> 1) + (1 << 30)) & M32) >> 31
            p = int((~mc_low & M32) < s2value)
            mc_low = (mc_low + s2value) & M32
            mc_high = (mc_high + p) & M32
    c1 = (sc + (ec << 20) + mc_high) & M32
    return (c1 << 32) | mc_low
