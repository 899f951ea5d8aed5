"""The ReduceAll / ReduceAny kernels: a logical and / or over the reduced axes.

An element counts as true when it is not zero: BOOL (a byte), or a float compared with 0 —
Ascend950's DAG compares ``x != 0`` before its min/max reduction; the float kernels of
Ascend910B/910_93 are not public and are assumed to do the same. So NaN is true and -0.0 false. The
reduction is a min (all) or a max (any) over 0/1 values, exact in any order. The result is
written as 0/1 in the output's dtype (BOOL, or FLOAT/FLOAT16 for the float inputs of
Ascend910B/910_93).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .elementwise import Compute


def make(kind: str, axes: Sequence[int], keepdim: bool) -> Compute:
    """``kind`` is ``all`` or ``any``; ``axes`` are the wrapped axes (empty: every axis)."""

    def compute(ins: Sequence[np.ndarray], outs: Sequence[np.ndarray]) -> str:
        x, out = ins[0], outs[0]
        truth = (x.view(np.uint8) if x.dtype == np.bool_ else x) != 0
        if truth.ndim:
            axis = tuple(sorted(set(axes))) if axes else tuple(range(truth.ndim))
            reduce = np.all if kind == "all" else np.any
            truth = reduce(truth, axis=axis, keepdims=keepdim)
        r = np.asarray(truth).reshape(out.shape)
        if out.dtype == np.bool_:
            out.view(np.uint8)[...] = r
        else:
            out[...] = r.astype(out.dtype)
        return "numpy"

    return compute
