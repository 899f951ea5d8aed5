"""``l0op::HardSwishGrad`` — ops-nn ``activation/hard_swish_grad/op_api/hard_swish_grad.cpp``."""

from __future__ import annotations

from .. import soc as _soc
from ..executor.executor import aclOpExecutor
from ..kernels import hard_swish_grad as kernel
from ..tensor import aclTensor
from . import launch


def hard_swish_grad(gradOutput: aclTensor, self: aclTensor, ex: aclOpExecutor) -> aclTensor | None:
    """``l0op::HardSwishGrad(gradOutput, self, executor)``: the gradient in the workspace, with
    self's shape and dtype (AI Core)."""
    recipe = _soc.current().kernel_family
    step = ex.step("HardSwishGrad", [gradOutput, self])
    out = ex.alloc_tensor(self.view_shape, self.dtype)
    failure = launch.checked("HardSwishGradAiCore ADD_TO_LAUNCHER_LIST_AICORE failed.")
    ins, compute = [gradOutput, self], kernel.make(recipe)
    if launch.aicore(ex, step, "HardSwishGrad", ins, [out], compute, failure=failure, recipe=recipe) is None:
        return None
    step.outputs = [out]
    return out
