"""``l0op::HardSwishGrad`` — ops-nn ``activation/hard_swish_grad/op_api/hard_swish_grad.cpp``."""

from __future__ import annotations

from .. import soc as _soc
from ..executor.executor import aclOpExecutor
from ..kernels import hard_swish_grad as kernel
from ..tensor import aclTensor
from . import launch


def hard_swish_grad(ex: aclOpExecutor, gradOutput: aclTensor, self: aclTensor) -> aclTensor | None:
    """The gradient in the workspace, with self's shape and dtype (AI Core)."""
    recipe = _soc.current().kernel_family
    step = ex.step("HardSwishGrad", [gradOutput, self])
    out = ex.alloc_tensor(self.view_shape, self.dtype)
    if launch.aicore(ex, step, "HardSwishGrad", [gradOutput, self], [out], kernel.make(recipe), recipe=recipe) is None:
        return None
    step.outputs = [out]
    return out
