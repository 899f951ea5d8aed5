"""``l0op::SmoothL1LossGradV2`` — ops-nn ``loss/smooth_l1_loss_grad_v2/op_api/smooth_l1_loss_grad_v2.cpp``."""

from __future__ import annotations

from .. import soc as _soc
from ..executor.executor import aclOpExecutor
from ..kernels import smooth_l1_loss_grad_v2 as kernel
from ..tensor import aclTensor
from . import launch


def smooth_l1_loss_grad_v2(
    predict: aclTensor,
    label: aclTensor,
    dout: aclTensor,
    reduction: str,
    sigma: float,
    result_shape: tuple[int, ...],
    ex: aclOpExecutor,
) -> aclTensor | None:
    """``l0op::SmoothL1LossGradV2(self, target, gradOut, reduction, beta, outputShape, executor)``:
    the gradient in the workspace, predict's (the promoted) dtype, the broadcast shape (AI Core)."""
    recipe = _soc.current().kernel_family
    step = ex.step("SmoothL1LossGradV2", [predict, label, dout], sigma=sigma, reduction=reduction)
    out = ex.alloc_tensor(result_shape, predict.dtype)
    compute = kernel.make(recipe, sigma, reduction, predict.view_shape)
    ln = launch.aicore(
        ex, step, "SmoothL1LossGradV2", [predict, label, dout], [out], compute,
        failure=launch.checked_static("SmoothL1LossGradV2 ADD_TO_LAUNCHER_LIST_AICORE failed."),
        sigma=sigma, reduction=reduction, recipe=recipe,
    )  # fmt: skip
    if ln is None:
        return None
    step.outputs = [out]
    return out
