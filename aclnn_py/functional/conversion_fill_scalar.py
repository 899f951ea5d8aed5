"""aclnnInplaceFillScalar."""

from __future__ import annotations

from typing import Any

import numpy as np

from ._core import Call

__all__ = ["inplace_fill_scalar"]


def inplace_fill_scalar(self: np.ndarray, value: Any) -> np.ndarray:
    """``aclnnInplaceFillScalar``: every element of ``self`` set to the scalar ``value`` (converted
    on the host as opbase converts an aclScalar); ``self`` (a numpy array) is updated and returned."""
    with Call() as c:
        t = c.tensor(self)
        c.run("aclnnInplaceFillScalar", t, c.scalar(value))
        self[...] = c.read(t)
        return self
