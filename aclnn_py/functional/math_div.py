"""aclnnDiv, aclnnDivs, aclnnInplaceDiv, aclnnInplaceDivs."""

from __future__ import annotations

from typing import Any

import numpy as np

from ._core import Call, array, broadcast_shape, promoted

__all__ = ["div", "divs", "inplace_div", "inplace_divs"]


def _quotient_dtype(dt: np.dtype) -> np.dtype:
    """True division: integer and bool quotients are float32."""
    return np.dtype(np.float32) if dt.kind in "iub" else dt


def div(self: Any, other: Any, *, out_dtype: Any = None) -> np.ndarray:
    """``aclnnDiv``: ``self / other`` (broadcast, true division); the promoted dtype (float32 for
    integers and bool) unless ``out_dtype``."""
    a, b = array(self), array(other)
    with Call() as c:
        out = c.output(broadcast_shape(a, b), out_dtype or _quotient_dtype(promoted(a, b)))
        c.run("aclnnDiv", c.tensor(a), c.tensor(b), out)
        return c.read(out)


def divs(self: Any, other: Any, *, out_dtype: Any = None) -> np.ndarray:
    """``aclnnDivs``: ``self / other`` with a scalar ``other``; ``out_dtype`` defaults to self's
    (float32 for an integer or bool ``self``)."""
    a = array(self)
    with Call() as c:
        out = c.output(a.shape, out_dtype or _quotient_dtype(a.dtype))
        c.run("aclnnDivs", c.tensor(a), c.scalar(other), out)
        return c.read(out)


def inplace_div(self: np.ndarray, other: Any) -> np.ndarray:
    """``aclnnInplaceDiv``: ``self /= other``; ``self`` (a numpy array) is updated and returned."""
    b = array(other)
    with Call() as c:
        t = c.tensor(self)
        c.run("aclnnInplaceDiv", t, c.tensor(b))
        self[...] = c.read(t)
        return self


def inplace_divs(self: np.ndarray, other: Any) -> np.ndarray:
    """``aclnnInplaceDivs``: ``self /= other`` with a scalar ``other``."""
    with Call() as c:
        t = c.tensor(self)
        c.run("aclnnInplaceDivs", t, c.scalar(other))
        self[...] = c.read(t)
        return self
