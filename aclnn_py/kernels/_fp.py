"""Float helpers shared by the recipes."""

from __future__ import annotations

import numpy as np

F32 = np.float32


def f32(a: np.ndarray) -> np.ndarray:
    """Exact upcast of a float16/bfloat16/float32 array to float32 (a copy only if needed)."""
    return a if a.dtype == np.float32 else a.astype(np.float32)


CANONICAL_NAN = F32(np.nan)  # 0x7FC00000: 0x7E00 in float16, 0x7FC0 in bfloat16


def store(out: np.ndarray, r: np.ndarray) -> None:
    """Write a kernel's float32 result into ``out``, rounding once (half to even) to out's dtype.

    float32 -> float16 (numpy) and float32 -> bfloat16 (ml_dtypes) are both correctly rounded,
    half to even; overflow gives +-inf. Every NaN result is written as the canonical quiet NaN:
    which NaN an operation propagates is a detail of the instruction set (x86 keeps the first
    operand's, SIMD loops may swap operands), and the chip's is not documented."""
    with np.errstate(all="ignore"):
        nan = np.isnan(r)
        if nan.any():
            r = np.where(nan, CANONICAL_NAN, r)
        out[...] = r if out.dtype == np.float32 else r.astype(out.dtype)
