"""aclnnInplaceZero."""

from __future__ import annotations

import numpy as np

from ._core import Call

__all__ = ["inplace_zero"]


def inplace_zero(self: np.ndarray) -> np.ndarray:
    """``aclnnInplaceZero``: ``self[...] = 0``; ``self`` (a numpy array) is updated and returned."""
    with Call() as c:
        t = c.tensor(self)
        c.run("aclnnInplaceZero", t)
        self[...] = c.read(t)
        return self
