"""``l0op::HardSwish`` — ops-nn ``activation/hard_swish/op_host/op_api/hardswish.cpp``.

The output has self's *storage* shape, dtype and storage format (after Contiguous the storage
shape is the view shape); AI Core only, on every chip: the legacy TBE kernel on Ascend910B /
910_93 / 910 / 310P, the ops-nn AscendC kernel on Ascend950 (its tiling asks for no workspace).
"""

from __future__ import annotations

from .. import soc as _soc
from ..executor.executor import aclOpExecutor
from ..kernels import hard_swish as kernel
from ..tensor import aclTensor
from . import launch


def hard_swish(self: aclTensor, ex: aclOpExecutor) -> aclTensor | None:
    """``l0op::HardSwish(self, executor)``: the activation in the workspace, or None when the
    kernel's tiling refuses the shape."""
    recipe = _soc.current().kernel_family
    step = ex.step("HardSwish", [self])
    out = ex.alloc_tensor(self.storage_shape, self.dtype, self.storage_format)
    failure = launch.checked("HardSwishAiCore ADD_TO_LAUNCHER_LIST_AICORE failed.")
    if launch.aicore(ex, step, "HardSwish", [self], [out], kernel.make(recipe), failure=failure, recipe=recipe) is None:
        return None
    step.outputs = [out]
    return out
