"""aclnnHardswish, aclnnInplaceHardswish."""

from __future__ import annotations

from typing import Any

import numpy as np

from ._core import Call, array

__all__ = ["hardswish", "inplace_hardswish"]


def hardswish(self: Any, *, out_dtype: Any = None) -> np.ndarray:
    """``aclnnHardswish``: ``self * clamp(self + 3, 0, 6) / 6`` in self's dtype, then cast to
    ``out_dtype`` (default: self's)."""
    a = array(self)
    with Call() as c:
        out = c.output(a.shape, out_dtype or a.dtype)
        c.run("aclnnHardswish", c.tensor(a), out)
        return c.read(out)


def inplace_hardswish(self: np.ndarray) -> np.ndarray:
    """``aclnnInplaceHardswish``: ``self`` (a numpy array) is replaced by its hardswish and returned."""
    with Call() as c:
        t = c.tensor(self)
        c.run("aclnnInplaceHardswish", t)
        self[...] = c.read(t)
        return self
