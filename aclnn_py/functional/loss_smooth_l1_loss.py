"""aclnnSmoothL1Loss."""

from __future__ import annotations

from typing import Any

import numpy as np

from ._core import Call, array, broadcast_shape, promoted, reduction_code

__all__ = ["smooth_l1_loss"]


def smooth_l1_loss(
    self: Any, target: Any, *, reduction: str | int = "mean", beta: float = 1.0, out_dtype: Any = None
) -> np.ndarray:
    """``aclnnSmoothL1Loss``: ``0.5 * d**2 / beta`` where ``|d| < beta``, else ``|d| - 0.5 * beta``
    (``d = self - target``, broadcast), reduced by ``reduction``: ``"none"`` (the broadcast
    shape), ``"mean"`` or ``"sum"`` (a 0-d result) = 0/1/2; an int passes through unchecked, so the
    operator's own check runs. The dtype is the inputs' promoted one unless ``out_dtype``."""
    api = "aclnnSmoothL1Loss"
    red = reduction_code(api, reduction)
    s, t = array(self), array(target)
    shape = broadcast_shape(s, t) if red == 0 else ()
    with Call() as c:
        out = c.output(shape, out_dtype or promoted(s, t))
        c.run(api, c.tensor(s), c.tensor(t), red, beta, out)
        return c.read(out)
