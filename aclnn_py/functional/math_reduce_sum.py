"""aclnnReduceSum."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ._core import Call, acl_dtype, array

__all__ = ["reduce_sum"]


def _out_shape(shape: tuple[int, ...], dims: Sequence[int], keep_dims: bool) -> tuple[int, ...]:
    rank = len(shape)
    red = {d + rank if d < 0 else d for d in dims} if dims else set(range(rank))
    if keep_dims:
        return tuple(1 if i in red else n for i, n in enumerate(shape))
    return tuple(n for i, n in enumerate(shape) if i not in red)


def reduce_sum(self: Any, dims: Sequence[int] = (), keep_dims: bool = False, *, dtype: Any = None) -> np.ndarray:
    """``aclnnReduceSum``: the sum over ``dims`` (empty: every dim) computed in ``dtype``
    (default: self's); self is cast to ``dtype`` before the sum, and a BOOL dtype is a logical
    or. A 0-d ``self`` is returned (cast) as it is."""
    a = array(self)
    npdt = np.dtype(dtype) if dtype is not None else a.dtype
    shape = _out_shape(a.shape, list(dims), keep_dims) if a.ndim else ()
    with Call() as c:
        out = c.output(shape, npdt)
        c.run(
            "aclnnReduceSum",
            c.tensor(a),
            c.int_array(dims),
            bool(keep_dims),
            acl_dtype(np.zeros(0, npdt), "dtype"),
            out,
        )
        return c.read(out)
