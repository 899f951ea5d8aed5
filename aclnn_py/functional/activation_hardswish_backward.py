"""Activation operators (ops-nn ``activation/``)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ._core import Call, array

__all__ = ["hardswish_backward"]


def hardswish_backward(grad_output: Any, self: Any) -> np.ndarray:
    """``aclnnHardswishBackward``: ``grad_output * hardswish'(self)``, in self's dtype."""
    g, s = array(grad_output), array(self)
    with Call() as c:
        out = c.output(s.shape, s.dtype)
        c.run("aclnnHardswishBackward", c.tensor(g), c.tensor(s), out)
        return c.read(out)
