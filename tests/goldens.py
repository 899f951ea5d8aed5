"""Independent re-implementations of the kernel recipes, for bit-exact tests.

Written differently from the package on purpose: one element at a time, in Python floats,
with every float32 operation rounded by ``r32`` (a basic operation computed in double and
rounded once to float32 is correctly rounded, since 53 >= 2*24 + 2), and with fp16/bf16
rounding done by hand on the bits (round half to even) instead of by numpy/ml_dtypes.
"""

from __future__ import annotations

import math
import struct

import ml_dtypes
import numpy as np


def r32(x: float) -> float:
    """Round a Python float to the nearest float32 (ties to even), keeping inf/nan."""
    if math.isnan(x) or math.isinf(x):
        return x
    with np.errstate(over="ignore"):
        return float(np.float32(x))


def f32_bits(x: float) -> int:
    return struct.unpack("<I", struct.pack("<f", x))[0]


def bits_f32(b: int) -> float:
    return struct.unpack("<f", struct.pack("<I", b & 0xFFFFFFFF))[0]


def to_bf16_bits(x: float) -> int:
    """float32 value -> bfloat16 bits, round half to even on the 16 dropped bits."""
    b = f32_bits(x)
    if (b & 0x7F800000) == 0x7F800000 and (b & 0x7FFFFF):
        return ((b >> 16) & 0x8000) | 0x7FC0  # a NaN becomes the canonical quiet NaN, sign kept
    lower = b & 0xFFFF
    upper = b >> 16
    if lower > 0x8000 or (lower == 0x8000 and (upper & 1)):
        upper += 1
    return upper & 0xFFFF


def to_f16_bits(x: float) -> int:
    """float32 value -> IEEE half bits, round half to even (subnormals, overflow to inf)."""
    b = f32_bits(x)
    sign = (b >> 16) & 0x8000
    exp = (b >> 23) & 0xFF
    man = b & 0x7FFFFF
    if exp == 0xFF:
        if man:  # NaN: the top payload bits, at least 1
            return sign | 0x7C00 | ((man >> 13) or 1)
        return sign | 0x7C00
    e = exp - 127 + 15
    if e >= 31:
        return sign | 0x7C00
    if e <= 0:
        if e < -10:
            return sign  # too small even for a subnormal (rounds to 0; the tie case is below half)
        man |= 0x800000
        shift = 14 - e
        half = 1 << (shift - 1)
        rest = man & ((1 << shift) - 1)
        h = man >> shift
        if rest > half or (rest == half and (h & 1)):
            h += 1
        return sign | h
    h = (e << 10) | (man >> 13)
    rest = man & 0x1FFF
    if rest > 0x1000 or (rest == 0x1000 and (h & 1)):
        h += 1
    return sign | h


CANONICAL_NAN = bits_f32(0x7FC00000)


def round_to(values: list[float], dtype: np.dtype) -> np.ndarray:
    """float32 values -> an array of ``dtype``, rounded by the hand-written converters.
    Every NaN result is the canonical quiet NaN (0x7FC00000 before rounding)."""
    dtype = np.dtype(dtype)
    values = [CANONICAL_NAN if v != v else v for v in values]
    if dtype == np.float32:
        return np.array(values, dtype=np.float32)
    if dtype == np.float16:
        return np.array([to_f16_bits(v) for v in values], dtype=np.uint16).view(np.float16)
    if dtype == np.dtype(ml_dtypes.bfloat16):
        return np.array([to_bf16_bits(v) for v in values], dtype=np.uint16).view(ml_dtypes.bfloat16)
    raise ValueError(dtype)


def _flat_broadcast(*arrays: np.ndarray) -> list[list[float]]:
    b = np.broadcast_arrays(*[a.astype(np.float32) for a in arrays])
    return [[float(v) for v in a.reshape(-1)] for a in b]


# -- SmoothL1LossGradV2 ---------------------------------------------------------------------------


def smooth_l1_tbe(p: np.ndarray, lab: np.ndarray, d: np.ndarray, sigma: float, reduction: str, out_dtype) -> np.ndarray:
    shape = np.broadcast_shapes(p.shape, lab.shape, d.shape)
    P, L, D = _flat_broadcast(p, lab, d)
    s = r32(sigma)
    divisor = r32(s + r32(1e-6))
    cof = 1.0  # the legacy op tiling: 1.0f divided by each of predict's dims in turn
    for dim in p.shape:
        cof = r32(cof / dim)
    out = []
    for pi, li, di in zip(P, L, D):
        x = r32(pi - li)
        temp = r32(x / divisor)
        if x != x:
            x = 0.0
        s1 = -1.0 if x <= -s else 0.0
        s2 = 1.0 if x >= s else 0.0
        s3 = temp if abs(x) < s else 0.0
        r = r32(r32(s1 + s2) + s3)
        r = r32(r * di)
        if reduction == "mean":
            r = r32(r * cof)
        out.append(r)
    return round_to(out, out_dtype).reshape(shape)


def smooth_l1_arch35(
    p: np.ndarray, lab: np.ndarray, d: np.ndarray, sigma: float, reduction: str, out_dtype
) -> np.ndarray:
    shape = np.broadcast_shapes(p.shape, lab.shape, d.shape)
    scalar = d.size == 1
    P, L, D = _flat_broadcast(p, lab, d)
    s = r32(sigma)
    inv = math.nan if abs(s) < r32(1e-6) else r32(1.0 / s)  # fabsf(sigma) < 1e-6f
    norm = r32(1.0 / p.size) if reduction == "mean" else 1.0
    out = []
    for pi, li, di in zip(P, L, D):
        x = r32(pi - li)
        if scalar:
            pos = 1.0 if x >= s else 0.0
            neg = -1.0 if x <= -s else 0.0
            lin = 0.0 if abs(x) >= s else r32(x * inv)
        else:
            pos = 1.0 if x > s else 0.0
            neg = -1.0 if x < -s else 0.0
            lin = 0.0 if abs(x) > s else r32(x * inv)
        r = r32(r32(pos + neg) + lin)
        r = r32(r * di)
        r = r32(r * norm)
        out.append(r)
    return round_to(out, out_dtype).reshape(shape)


def smooth_l1_reference(p, lab, d, beta, reduction) -> np.ndarray:
    """The float64 formula (PyTorch's semantics, inclusive thresholds, division by beta)."""
    p, lab, d = (np.asarray(a, dtype=np.float64) for a in (p, lab, d))
    x = p - lab
    with np.errstate(all="ignore"):
        g = np.where(x <= -beta, -1.0, np.where(x >= beta, 1.0, x / beta))
    r = g * d
    if reduction == "mean":
        r = r / p.size
    return r


# -- HardSwishGrad --------------------------------------------------------------------------------


THIRD = r32(1.0 / 3.0)


def hardswish_tbe(g: np.ndarray, x: np.ndarray, out_dtype) -> np.ndarray:
    G, X = _flat_broadcast(g, x)
    nan_fix = np.dtype(out_dtype) != np.float16
    out = []
    for gi, xi in zip(G, X):
        d = r32(r32(xi * THIRD) + 0.5)
        if xi < -3:
            d = 0.0
        if xi > 3:
            d = 1.0
        r = r32(gi * d)
        if nan_fix and xi != xi:
            r = 1.0
        out.append(r)
    return round_to(out, out_dtype).reshape(x.shape)


def hardswish_arch35(g: np.ndarray, x: np.ndarray, out_dtype) -> np.ndarray:
    G, X = _flat_broadcast(g, x)
    out = []
    for gi, xi in zip(G, X):
        d = r32(r32(xi * THIRD) + 0.5)
        d = d if xi >= -3 else 0.0
        d = d if xi <= 3 else 1.0
        out.append(r32(gi * d))
    return round_to(out, out_dtype).reshape(x.shape)


def hardswish_reference(g, x) -> np.ndarray:
    g, x = np.asarray(g, np.float64), np.asarray(x, np.float64)
    return g * np.where(x < -3, 0.0, np.where(x > 3, 1.0, x / 3 + 0.5))


# -- ScaledMaskedSoftmaxGradV2 --------------------------------------------------------------------


def _tree(values: list[float]) -> float:
    while len(values) > 1:
        values = [r32(values[i] + values[i + 1]) for i in range(0, len(values), 2)]
    return values[0]


def _row_sum(prod: list[float], d: int, arch: str = "v220") -> float:
    """The row sum of the AscendC SoftmaxGrad of each architecture, one float32 add at a time."""
    padded = prod + [0.0] * (-(-d // 64) * 64 - d)
    chunks = len(padded) // 64
    if chunks * 64 <= 1024:
        if arch == "v220":  # tree8 per group of 8, 8 lanes accumulated over chunks, tree8
            acc = None
            for c in range(chunks):
                blk = [_tree(padded[c * 64 + 8 * j : c * 64 + 8 * j + 8]) for j in range(8)]
                acc = blk if acc is None else [r32(a + b) for a, b in zip(acc, blk)]
            return _tree(acc)
        if arch == "v200":  # tree64 per chunk, chunk sums added left to right
            total = None
            for c in range(chunks):
                w = _tree(padded[c * 64 : c * 64 + 64])
                total = w if total is None else r32(total + w)
            return total
        lanes = [0.0] * 64  # 3510: 64 lanes from +0.0, then tree64
        for c in range(chunks):
            lanes = [r32(a + b) for a, b in zip(lanes, padded[c * 64 : c * 64 + 64])]
        return _tree(lanes)
    partial = [_tree(padded[c * 64 : c * 64 + 64]) for c in range(chunks)]
    if arch == "3510":
        partial = partial[:64]  # the second reduction is one 64-lane register
    return _tree(partial + [0.0] * (64 - len(partial)))


def scaled_masked_softmax_grad(
    g: np.ndarray, y: np.ndarray, mask: np.ndarray, scale: float, out_dtype, arch: str = "v220"
) -> np.ndarray:
    D = g.shape[-1]
    mb = np.broadcast_to(mask.astype(np.uint8) != 0, g.shape)
    sc = r32(scale)
    large = -(-D // 64) * 64 > 1024
    out = np.empty(g.shape, dtype=np.float32).reshape(-1, D)
    gf = g.astype(np.float32).reshape(-1, D)
    yf = y.astype(np.float32).reshape(-1, D)
    mf = mb.reshape(-1, D)
    for row in range(gf.shape[0]):
        gr = [float(v) for v in gf[row]]
        yr = [float(v) for v in yf[row]]
        prod = [r32(a * b) for a, b in zip(yr, gr)]
        s = _row_sum(prod, D, arch)
        for j in range(D):
            v = r32(prod[j] - r32(yr[j] * s)) if large else r32(yr[j] * r32(gr[j] - s))
            if sc != 1.0:
                v = r32(v * sc)
            if mf[row, j]:
                v = 0.0
            out[row, j] = v
    return round_to([float(v) for v in out.reshape(-1)], out_dtype).reshape(g.shape)


def softmax_grad_reference(g, y, mask, scale) -> np.ndarray:
    g, y = np.asarray(g, np.float64), np.asarray(y, np.float64)
    s = (g * y).sum(axis=-1, keepdims=True)
    out = y * (g - s) * scale
    return np.where(np.broadcast_to(mask != 0, g.shape), 0.0, out)


# -- exact rounding of rationals (elementwise arithmetic, fused multiply-add) --------------------

_FORMATS = {
    np.dtype(np.float32): (24, -126, 127),
    np.dtype(np.float16): (11, -14, 15),
    np.dtype(ml_dtypes.bfloat16): (8, -126, 127),
    np.dtype(np.float64): (53, -1022, 1023),
}


def round_exact(value, dtype) -> float:
    """The ``dtype`` value nearest to an exact rational (fractions.Fraction), ties to even;
    beyond the largest finite value: an infinity. Zero results come back as +0.0."""
    from fractions import Fraction

    p, emin, emax = _FORMATS[np.dtype(dtype)]
    if value == 0:
        return 0.0
    sign = -1 if value < 0 else 1
    a = abs(Fraction(value))
    e = a.numerator.bit_length() - a.denominator.bit_length()
    if Fraction(2) ** e > a:
        e -= 1
    e = max(e, emin)
    q = Fraction(2) ** (e - p + 1)
    n = a / q
    whole = n.numerator // n.denominator
    rest = n - whole
    if rest > Fraction(1, 2) or (rest == Fraction(1, 2) and whole % 2 == 1):
        whole += 1
    r = whole * q
    if r >= Fraction(2) ** (emax + 1):
        return sign * math.inf
    return sign * float(r)


def _exact(x: float):
    from fractions import Fraction

    return Fraction(x)


def elementwise(fn, dtype, *arrays: np.ndarray) -> np.ndarray:
    """Apply ``fn`` (Python floats in, an exact Fraction or a float out) to the broadcast
    elements and round each result exactly to ``dtype``; NaN results are canonical, the sign
    of an exact zero result is the one ``fn`` says (by returning a float zero)."""
    dtype = np.dtype(dtype)
    b = np.broadcast_arrays(*[np.asarray(a) for a in arrays])
    shape = b[0].shape
    flat = [[float(v) for v in np.asarray(x, dtype=np.float64).reshape(-1)] for x in b]
    out = []
    for vals in zip(*flat):
        r = fn(*vals)
        if isinstance(r, float):
            out.append(r)
        else:
            out.append(round_exact(r, dtype) if r != 0 else 0.0)
    res = np.array(out, dtype=np.float64)
    res[np.isnan(res)] = np.nan
    if dtype == np.float64:
        return res.reshape(shape)
    # every value is exactly representable: convert without a second rounding
    if dtype == np.float32:
        return res.astype(np.float32).reshape(shape)
    return round_to([float(v) for v in res.astype(np.float32)], dtype).reshape(shape)


def add_exact(x: float, y: float):
    """x + y: exact, or the IEEE special values."""
    if not (math.isfinite(x) and math.isfinite(y)):
        return x + y
    if x == 0 and y == 0:
        return -0.0 if (math.copysign(1, x) < 0 and math.copysign(1, y) < 0) else 0.0
    s = _exact(x) + _exact(y)
    return s if s != 0 else 0.0


def mul_exact(x: float, y: float):
    if not (math.isfinite(x) and math.isfinite(y)):
        return x * y
    if x == 0 or y == 0:
        return math.copysign(0.0, x) * math.copysign(1.0, y)
    return _exact(x) * _exact(y)


def fma_exact(a: float, b: float, c: float):
    """a * b + c rounded once (IEEE fusedMultiplyAdd)."""
    if not (math.isfinite(a) and math.isfinite(b) and math.isfinite(c)):
        return a * b + c
    p = mul_exact(a, b)
    if isinstance(p, float):  # a zero product
        return add_exact(p, c)
    s = p + _exact(c)
    return s if s != 0 else 0.0
