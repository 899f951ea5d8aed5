"""Float helpers shared by the recipes."""

from __future__ import annotations

import numpy as np

F32 = np.float32


def f32(a: np.ndarray) -> np.ndarray:
    """Exact upcast of a float16/bfloat16/float32 array to float32 (a copy only if needed)."""
    return a if a.dtype == np.float32 else a.astype(np.float32)


def store(out: np.ndarray, r: np.ndarray) -> None:
    """Write a float32 result into ``out``, rounding once (half to even) to out's dtype.

    float32 -> float16 (numpy) and float32 -> bfloat16 (ml_dtypes) are both correctly rounded,
    half to even; overflow gives +-inf and NaN stays NaN."""
    with np.errstate(all="ignore"):
        out[...] = r if out.dtype == np.float32 else r.astype(out.dtype)
