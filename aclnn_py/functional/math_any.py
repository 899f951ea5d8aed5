"""aclnnAny."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..ops.math.all import reduced_shape
from ._core import Call, array

__all__ = ["any"]


def any(self: Any, dim: Sequence[int] = (), keepdim: bool = False, *, out_dtype: Any = np.bool_) -> np.ndarray:
    """``aclnnAny``: whether some element is non-zero along ``dim`` (empty: every dim); an empty
    reduction is False. ``out_dtype`` is BOOL or UINT8."""
    a = array(self)
    with Call() as c:
        out = c.output(reduced_shape(a.shape, list(dim), keepdim), out_dtype)
        c.run("aclnnAny", c.tensor(a), c.int_array(dim), bool(keepdim), out)
        return c.read(out)
