"""aclnnInplaceCopy."""

from __future__ import annotations

from typing import Any

import numpy as np

from ._core import Call, array

__all__ = ["inplace_copy"]


def inplace_copy(self: np.ndarray, src: Any) -> np.ndarray:
    """``aclnnInplaceCopy``: ``self[...] = src``, converted to self's dtype by the chip's Cast and
    broadcast to self's shape; ``self`` (a numpy array) is updated and returned."""
    b = array(src)
    with Call() as c:
        t = c.tensor(self)
        c.run("aclnnInplaceCopy", t, c.tensor(b))
        self[...] = c.read(t)
        return self
