"""Loss operators (ops-nn ``loss/``)."""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import dtypes
from ._core import Call, acl_dtype, array, broadcast_shape, reduction_code

__all__ = ["smooth_l1_loss_backward"]


def smooth_l1_loss_backward(
    grad_out: Any,
    self: Any,
    target: Any,
    *,
    reduction: str | int = "mean",
    beta: float = 1.0,
    out_dtype: Any = None,
) -> np.ndarray:
    """``aclnnSmoothL1LossBackward``: the gradient of smooth-L1 loss w.r.t. ``self``.

    ``reduction`` is ``"none"``/``"mean"``/``"sum"`` = 0/1/2 (an int is passed through unchecked,
    so the operator's own check runs); the result has the broadcast shape and, unless ``out_dtype`` is
    given, the promoted dtype of the inputs."""
    api = "aclnnSmoothL1LossBackward"
    red = reduction_code(api, reduction)
    g, s, t = array(grad_out), array(self), array(target)
    dts = [acl_dtype(v, n) for v, n in ((g, "grad_out"), (s, "self"), (t, "target"))]
    if out_dtype is None:
        promoted = dtypes.promote_type(dtypes.promote_type(dts[0], dts[1]), dts[2])
        npdt = dtypes.numpy_dtype(promoted) or np.dtype(np.float32)
    else:
        npdt = np.dtype(out_dtype)
    with Call() as c:
        out = c.output(broadcast_shape(g, s, t), npdt)
        c.run(api, c.tensor(g), c.tensor(s), c.tensor(t), red, beta, out)
        return c.read(out)
