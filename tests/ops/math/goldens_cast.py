"""Independent per-element recipes of the Cast kernels, for the Cast, InplaceCopy tests.

One element at a time, in Python ints and floats: truncation by ``math.trunc``, saturation and
wrapping by integer arithmetic, every float rounding by exact rational arithmetic
(``goldens.round_exact``). Recipes (the engine that converts a pair):

* ``aicpu``: C ``static_cast`` on aarch64 (float -> int through a saturating 32/64-bit
  conversion with NaN -> 0, then the low bits; ints wrap; half/bfloat16 from a float);
* ``tbe-v220`` / ``tbe-v200`` / ``tbe-v100``: the TBE paths (float -> int saturates, except the
  low-byte paths of float16/bfloat16 -> int8 and float16 -> uint8; int32 -> int8 in float16;
  direct integer conversions saturate);
* ``arch35``: Ascend950 (float -> int through int32, or int64 for float32/bfloat16 -> uint8,
  then the low bits; integer conversions keep the low bits).
"""

from __future__ import annotations

import math
from fractions import Fraction

import goldens
import ml_dtypes
import numpy as np

BITS = {"int8": 8, "int16": 16, "int32": 32, "int64": 64, "uint8": 8, "uint16": 16, "uint32": 32, "uint64": 64}
FMT = {"float16": np.float16, "float32": np.float32, "bfloat16": ml_dtypes.bfloat16, "float64": np.float64}


def lo_hi(dst: str) -> tuple[int, int]:
    n = BITS[dst]
    return (-(1 << (n - 1)), (1 << (n - 1)) - 1) if dst.startswith("int") else (0, (1 << n) - 1)


def saturate(v: int, dst: str) -> int:
    lo, hi = lo_hi(dst)
    return min(max(v, lo), hi)


def wrap(v: int, dst: str) -> int:
    n = BITS[dst]
    v &= (1 << n) - 1
    if dst.startswith("int") and v >> (n - 1):
        v -= 1 << n
    return v


def trunc(x: float, dst: str) -> int:
    """Toward zero, NaN -> 0, saturated to ``dst``."""
    if math.isnan(x):
        return 0
    if math.isinf(x):
        return lo_hi(dst)[1] if x > 0 else lo_hi(dst)[0]
    return saturate(math.trunc(x), dst)


def round_to(v, fmt: str) -> float:
    """An exact value (int, float or Fraction) rounded once, half to even, to ``fmt``."""
    if isinstance(v, float) and not math.isfinite(v):
        return v
    return goldens.round_exact(Fraction(v), FMT[fmt]) if v != 0 else 0.0


def float_to_int(x: float, src: str, dst: str, recipe: str) -> int:
    if recipe == "aicpu":
        reg = ("int" if dst.startswith("int") else "uint") + ("64" if BITS[dst] == 64 else "32")
        return wrap(trunc(x, reg), dst)
    if recipe == "arch35":
        if dst in ("int32", "int64"):
            return trunc(x, dst)
        if dst == "uint8" and src != "float16":
            return wrap(trunc(x, "int64"), "uint8")
        return wrap(trunc(x, "int32"), dst)
    # TBE
    if dst == "int8" and src in ("float16", "bfloat16"):
        return wrap(trunc(x, "int32"), "int8")  # vand 255 of the int32, then (x + 128) mod 256 - 128
    if dst == "uint8" and src == "float16":
        t = trunc(x, "int32")
        if not math.isfinite(x):  # the saturated int32 becomes 2^31 (float32) or inf (float16): 0 mod 256
            return 0
        return t % 256
    if dst == "uint8":  # float32 / bfloat16: the low byte of the saturated int64
        return wrap(trunc(x, "int64"), "uint8")
    return trunc(x, dst)


def int_to_int(v: int, src: str, dst: str, recipe: str) -> int:
    if recipe in ("aicpu", "arch35"):
        return wrap(v, dst)
    if src == "int32" and dst == "int8":  # in float16: exact inside (-2048, 1920)
        a = round_to(v, "float16")
        b = round_to(a + 128, "float16")
        if math.isinf(b):  # beyond float16: inf mod 256 is NaN, which converts to 0
            return 0
        c = math.fmod(b, 256.0)
        if c < 0:
            c += 256.0
        return trunc(round_to(c - 128, "float16"), "int8")
    if recipe == "tbe-v100" and src in ("int32", "int64") and dst == "uint8":
        a = round_to(saturate(v, "int32"), "float16")
        if math.isinf(a):
            return 0
        return int(a) % 256
    if dst in ("int8", "uint8"):  # to a byte: the low bits
        return wrap(v, dst)
    return saturate(v, dst)


def int_to_float(v: int, src: str, dst: str, recipe: str) -> float:
    """Rounded once from the exact integer, or twice (through float32) where the recipe does."""
    if dst in ("float32", "float64"):
        return round_to(v, dst)
    if recipe == "aicpu":
        twice = True  # Eigen: static_cast<float> first
    elif recipe == "arch35":
        twice = (dst == "bfloat16" and src in ("int32", "int64", "uint32")) or (
            dst == "float16" and src in ("int64", "uint32")
        )
    else:
        twice = dst == "bfloat16" or src == "int64"
    return round_to(round_to(v, "float32"), dst) if twice else round_to(v, dst)


def read_bool(byte: int, recipe: str) -> int:
    """The value a Cast kernel reads from a bool's byte: as int8 on the AI Core, as the unsigned
    byte on the AI CPU."""
    return byte if recipe == "aicpu" else wrap(byte, "int8")


def to_bool(x: float | int, src: str, recipe: str) -> bool:
    if isinstance(x, float) and math.isnan(x):
        return not (src == "float32" and recipe in ("tbe-v100", "tbe-v200"))  # ceil(|x|) through int32
    return x != 0
