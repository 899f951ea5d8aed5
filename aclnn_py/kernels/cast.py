"""The Cast kernel: float conversions round half to even, going through float32 when neither
side is float64 (fp16 <-> bf16 is upcast exactly, then rounded once)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from .. import dtypes

_NARROW_FLOATS = frozenset({dtypes.DT_FLOAT16, dtypes.DT_BF16, dtypes.DT_FLOAT})


def cast_array(src: np.ndarray, dst: np.dtype) -> np.ndarray:
    """``src`` converted to ``dst`` as the Cast kernel does."""
    with np.errstate(all="ignore"):
        s, d = dtypes.from_numpy_dtype(src.dtype), dtypes.from_numpy_dtype(dst)
        if s in _NARROW_FLOATS and d in _NARROW_FLOATS and s != dtypes.DT_FLOAT:
            return src.astype(np.float32).astype(dst)
        return src.astype(dst)


def make(dst: int) -> Callable[[Sequence[np.ndarray], Sequence[np.ndarray]], str]:
    """A launch computation casting its input into its output (of dtype ``dst``)."""
    npdt = dtypes.numpy_dtype(dst)
    assert npdt is not None

    def compute(ins: Sequence[np.ndarray], outs: Sequence[np.ndarray]) -> str:
        outs[0][...] = cast_array(ins[0], npdt)
        return "numpy"

    return compute
