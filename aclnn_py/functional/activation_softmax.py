"""aclnnSoftmax."""

from __future__ import annotations

from typing import Any

import numpy as np

from ._core import Call, array

__all__ = ["softmax"]


def softmax(self: Any, dim: int = -1, *, out_dtype: Any = None) -> np.ndarray:
    """``aclnnSoftmax``: ``exp(x - max) / sum(exp(x - max))`` along ``dim``, computed in self's
    dtype, then cast to ``out_dtype`` (default: self's)."""
    a = array(self)
    with Call() as c:
        out = c.output(a.shape, out_dtype or a.dtype)
        c.run("aclnnSoftmax", c.tensor(a), int(dim), out)
        return c.read(out)
