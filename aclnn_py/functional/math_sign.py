"""aclnnSign."""

from __future__ import annotations

from typing import Any

import numpy as np

from ._core import Call, array

__all__ = ["sign"]


def sign(self: Any) -> np.ndarray:
    """``aclnnSign``: -1, 0 or 1 per element, in self's dtype (BOOL unchanged; complex ``x / |x|``)."""
    a = array(self)
    with Call() as c:
        out = c.output(a.shape, a.dtype)
        c.run("aclnnSign", c.tensor(a), out)
        return c.read(out)
