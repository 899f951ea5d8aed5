"""``l0op::SmoothL1Loss`` — ops-nn ``loss/smooth_l1_loss_v2/op_api/smooth_l1_loss.cpp``.

SmoothL1LossV2: the output has self's dtype and storage format; its shape is self's (``none``)
or 0-d (``mean``, ``sum``), inferred on the original shapes as opbase's ``INFER_SHAPE`` does
(a tensor in NC1HWC0 keeps its 4-D view and gets the 5-D storage shape). AI Core on every chip:
the legacy TBE kernel, or on Ascend950 the ops-nn AscendC kernel, whose tiling asks for a 16 MiB
workspace (``ASCEND_WORKSPACE`` for ``none``, the reduce template's ``WORKSPACE_SIZE`` otherwise;
a multi-core group reduce would add to it).
"""

from __future__ import annotations

from .. import dtypes
from .. import soc as _soc
from .._status import aclnnStatus
from ..executor.executor import aclOpExecutor
from ..kernels import smooth_l1_loss_v2 as kernel
from ..runtime import sanitizer
from ..tensor import Storage, aclTensor
from . import launch
from .transdata import FORMAT_NC1HWC0, storage_view

S = aclnnStatus
ARCH35_WORKSPACE = 16 * 1024 * 1024


def smooth_l1_loss(
    self: aclTensor, target: aclTensor, reduction: str, beta: float, ex: aclOpExecutor
) -> aclTensor | None:
    """``l0op::SmoothL1Loss(self, target, reduction, beta, executor)``."""
    recipe = _soc.current().kernel_family
    step = ex.step("SmoothL1LossV2", [self, target], sigma=beta, reduction=reduction)
    view_shape = self.view_shape if reduction == "none" else ()
    blocked = self.storage_format == FORMAT_NC1HWC0
    storage_shape = self.storage_shape if blocked and reduction == "none" else view_shape
    nbytes = dtypes.shape_bytes(dtypes.numel(storage_shape), self.dtype)
    out = aclTensor(view_shape, self.dtype, None, 0, self.origin_format, storage_shape,
                    Storage(None, "workspace", nbytes))  # fmt: skip
    out.storage_format = self.storage_format
    if blocked != (target.storage_format == FORMAT_NC1HWC0):
        sanitizer.finding(
            "undefined",
            f"SmoothL1LossV2 gets self in {dtypes.format_name(self.storage_format)} and target in "
            f"{dtypes.format_name(target.storage_format)}: which kernel binary CANN picks for that mix is not "
            "public; aclnn_py computes on the tensors' views",
            S.ACLNN_ERR_PARAM_INVALID,
        )
        ins, outs = [self, target], [out]
    else:  # both blocked: the kernel runs over the whole 5-D storage (padding lanes give 0)
        ins, outs = [storage_view(self), storage_view(target)], [storage_view(out)]
    scratch = [ARCH35_WORKSPACE] if recipe == "arch35" else []
    compute = kernel.make(recipe, beta, reduction, self.view_shape)
    ln = launch.aicore(
        ex, step, "SmoothL1LossV2", ins, outs, compute, scratch_sizes=scratch,
        failure=launch.checked_static("SmoothL1LossV2 ADD_TO_LAUNCHER_LIST_AICORE failed."),
        sigma=beta, reduction=reduction, recipe=recipe,
    )  # fmt: skip
    if ln is None:
        return None
    step.outputs = [out]
    return out
