"""aclnnClamp, aclnnClampMin, aclnnClampMax."""

from __future__ import annotations

from typing import Any

import numpy as np

from ._core import Call, array

__all__ = ["clamp", "clamp_max", "clamp_min"]


def clamp(self: Any, min: Any = None, max: Any = None, *, out_dtype: Any = None) -> np.ndarray:
    """``aclnnClamp``: ``min(max(self, min), max)``; a bound left as None is not applied (at least
    one is needed). ``out_dtype`` defaults to self's; where the result is computed depends on the
    chip (out's dtype, or the promoted dtype on Ascend950)."""
    a = array(self)
    with Call() as c:
        out = c.output(a.shape, out_dtype or a.dtype)
        lo = None if min is None else c.scalar(min)
        hi = None if max is None else c.scalar(max)
        c.run("aclnnClamp", c.tensor(a), lo, hi, out)
        return c.read(out)


def clamp_min(self: Any, min: Any, *, out_dtype: Any = None) -> np.ndarray:
    """``aclnnClampMin``: ``max(self, min)``."""
    a = array(self)
    with Call() as c:
        out = c.output(a.shape, out_dtype or a.dtype)
        c.run("aclnnClampMin", c.tensor(a), c.scalar(min), out)
        return c.read(out)


def clamp_max(self: Any, max: Any, *, out_dtype: Any = None) -> np.ndarray:
    """``aclnnClampMax``: ``min(self, max)``."""
    a = array(self)
    with Call() as c:
        out = c.output(a.shape, out_dtype or a.dtype)
        c.run("aclnnClampMax", c.tensor(a), c.scalar(max), out)
        return c.read(out)
