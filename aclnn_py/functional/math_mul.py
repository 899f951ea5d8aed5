"""aclnnMul, aclnnMuls, aclnnInplaceMul, aclnnInplaceMuls."""

from __future__ import annotations

from typing import Any

import numpy as np

from ._core import Call, array, broadcast_shape, promoted

__all__ = ["inplace_mul", "inplace_muls", "mul", "muls"]


def mul(self: Any, other: Any, *, out_dtype: Any = None) -> np.ndarray:
    """``aclnnMul``: ``self * other`` (broadcast); the promoted dtype unless ``out_dtype``."""
    a, b = array(self), array(other)
    with Call() as c:
        out = c.output(broadcast_shape(a, b), out_dtype or promoted(a, b))
        c.run("aclnnMul", c.tensor(a), c.tensor(b), out)
        return c.read(out)


def muls(self: Any, other: Any, *, out_dtype: Any = None) -> np.ndarray:
    """``aclnnMuls``: ``self * other`` with a scalar ``other``; ``out_dtype`` defaults to self's
    (the operator decides the dtype it computes in)."""
    a = array(self)
    with Call() as c:
        out = c.output(a.shape, out_dtype or a.dtype)
        c.run("aclnnMuls", c.tensor(a), c.scalar(other), out)
        return c.read(out)


def inplace_mul(self: np.ndarray, other: Any) -> np.ndarray:
    """``aclnnInplaceMul``: ``self *= other``; ``self`` (a numpy array) is updated and returned."""
    b = array(other)
    with Call() as c:
        t = c.tensor(self)
        c.run("aclnnInplaceMul", t, c.tensor(b))
        self[...] = c.read(t)
        return self


def inplace_muls(self: np.ndarray, other: Any) -> np.ndarray:
    """``aclnnInplaceMuls``: ``self *= other`` with a scalar ``other``."""
    with Call() as c:
        t = c.tensor(self)
        c.run("aclnnInplaceMuls", t, c.scalar(other))
        self[...] = c.read(t)
        return self
