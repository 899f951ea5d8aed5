"""Loss operators (ops-nn ``loss/``)."""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import dtypes
from ._core import AclnnError, Call, acl_dtype, array, broadcast_shape

__all__ = ["smooth_l1_loss_backward"]

REDUCTIONS = {"none": 0, "mean": 1, "sum": 2}


def reduction_code(api: str, reduction: str | int) -> int:
    """``"none"``/``"mean"``/``"sum"`` -> 0/1/2; an int passes through unchecked, so the
    operator's own check runs; any other string fails as CANN's check would."""
    if isinstance(reduction, str):
        if reduction not in REDUCTIONS:
            raise AclnnError(
                api, 161002,
                f"AclNN_Parameter_Error(EZ1001): reduction {reduction!r} is not one of 'none', 'mean', 'sum' "
                "(0, 1, 2).\n",
            )  # fmt: skip
        return REDUCTIONS[reduction]
    return int(reduction)


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

    ``reduction`` is ``"none"``/``"mean"``/``"sum"`` (or 0/1/2, passed through unchecked so the
    operator's own check runs); the result has the broadcast shape and, unless ``out_dtype`` is
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
