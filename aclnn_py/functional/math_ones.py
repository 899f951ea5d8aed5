"""aclnnInplaceOne."""

from __future__ import annotations

import numpy as np

from ._core import Call

__all__ = ["inplace_one"]


def inplace_one(self: np.ndarray) -> np.ndarray:
    """``aclnnInplaceOne``: ``self[...] = 1``; ``self`` (a numpy array) is updated and returned."""
    with Call() as c:
        t = c.tensor(self)
        c.run("aclnnInplaceOne", t)
        self[...] = c.read(t)
        return self
