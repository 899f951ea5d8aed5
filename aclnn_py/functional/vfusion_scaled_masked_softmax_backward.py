"""Fused operators (ops-nn ``vfusion/``)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ._core import Call, array

__all__ = ["scaled_masked_softmax_backward"]


def scaled_masked_softmax_backward(
    grad_output: Any, y: Any, mask: Any, *, scale: float = 1.0, fix_triu_mask: bool = False
) -> np.ndarray:
    """``aclnnScaledMaskedSoftmaxBackward``: softmax backward over the last dim, times ``scale``,
    zero where ``mask`` (bool, broadcast over the first two dims) is set."""
    g, yy, m = array(grad_output), array(y), np.asarray(mask)
    with Call() as c:
        out = c.output(g.shape, g.dtype)
        c.run(
            "aclnnScaledMaskedSoftmaxBackward", c.tensor(g), c.tensor(yy), c.tensor(m), scale, fix_triu_mask, out,
        )  # fmt: skip
        return c.read(out)
