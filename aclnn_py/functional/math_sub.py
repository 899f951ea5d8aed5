"""aclnnSub, aclnnSubs, aclnnInplaceSub, aclnnInplaceSubs."""

from __future__ import annotations

from typing import Any

import numpy as np

from ._core import Call, array, broadcast_shape, promoted

__all__ = ["inplace_sub", "inplace_subs", "sub", "subs"]


def sub(self: Any, other: Any, alpha: Any = 1, *, out_dtype: Any = None) -> np.ndarray:
    """``aclnnSub``: ``self - alpha * other`` (broadcast); the promoted dtype unless ``out_dtype``."""
    a, b = array(self), array(other)
    with Call() as c:
        out = c.output(broadcast_shape(a, b), out_dtype or promoted(a, b))
        c.run("aclnnSub", c.tensor(a), c.tensor(b), c.scalar(alpha), out)
        return c.read(out)


def subs(self: Any, other: Any, alpha: Any = 1, *, out_dtype: Any = None) -> np.ndarray:
    """``aclnnSubs``: ``self - alpha * other`` with a scalar ``other``; ``out_dtype`` defaults to
    self's (the operator decides the dtype it computes in)."""
    a = array(self)
    with Call() as c:
        out = c.output(a.shape, out_dtype or a.dtype)
        c.run("aclnnSubs", c.tensor(a), c.scalar(other), c.scalar(alpha), out)
        return c.read(out)


def inplace_sub(self: np.ndarray, other: Any, alpha: Any = 1) -> np.ndarray:
    """``aclnnInplaceSub``: ``self -= alpha * other``; ``self`` (a numpy array) is updated and returned."""
    b = array(other)
    with Call() as c:
        t = c.tensor(self)
        c.run("aclnnInplaceSub", t, c.tensor(b), c.scalar(alpha))
        self[...] = c.read(t)
        return self


def inplace_subs(self: np.ndarray, other: Any, alpha: Any = 1) -> np.ndarray:
    """``aclnnInplaceSubs``: ``self -= alpha * other`` with a scalar ``other``."""
    with Call() as c:
        t = c.tensor(self)
        c.run("aclnnInplaceSubs", t, c.scalar(other), c.scalar(alpha))
        self[...] = c.read(t)
        return self
