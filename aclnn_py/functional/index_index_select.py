"""aclnnIndexSelect."""

from __future__ import annotations

from typing import Any

import numpy as np

from ._core import Call, array

__all__ = ["index_select"]


def index_select(self: Any, dim: int, index: Any) -> np.ndarray:
    """``aclnnIndexSelect``: the slices of ``self`` along ``dim`` named by ``index`` (INT32 or
    INT64, rank 0 or 1; a Python list becomes INT64). A 0-d ``self`` gives a 0-d result."""
    a, idx = array(self), np.asarray(index)
    if idx.dtype.kind not in "iu":
        idx = idx.astype(np.int64)
    shape = list(a.shape)
    if -len(shape) <= dim < len(shape):  # otherwise the operator reports the dim
        shape[dim] = 1 if idx.ndim == 0 else idx.shape[0]
    with Call() as c:
        out = c.output(shape, a.dtype)
        c.run("aclnnIndexSelect", c.tensor(a), int(dim), c.tensor(idx), out)
        return c.read(out)
