"""aclnnScaledMaskedSoftmax."""

from __future__ import annotations

from typing import Any

import numpy as np

from ._core import Call, array

__all__ = ["scaled_masked_softmax"]


def scaled_masked_softmax(x: Any, mask: Any, *, scale: float = 1.0, fixed_triu_mask: bool = False) -> np.ndarray:
    """``aclnnScaledMaskedSoftmax``: softmax over the last dim of ``scale * x`` where positions
    whose ``mask`` (bool, 4-D, broadcast over the first two dims) is set count as -10000; the
    result has x's shape and dtype."""
    a, m = array(x), np.asarray(mask)
    with Call() as c:
        out = c.output(a.shape, a.dtype)
        c.run("aclnnScaledMaskedSoftmax", c.tensor(a), c.tensor(m), scale, fixed_triu_mask, out)
        return c.read(out)
