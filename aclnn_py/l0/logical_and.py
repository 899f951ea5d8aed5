"""``l0op::LogicalAnd`` — ops-math ``math/logical_and/op_api/logical_and.cpp``: an output of the
broadcast shape and self's dtype; AI Core for BOOL, else AI CPU."""

from __future__ import annotations

from .. import soc as _soc
from ..dtypes import DT_BOOL
from ..executor.executor import aclOpExecutor
from ..kernels import minmax
from ..tensor import aclTensor
from . import launch
from ._binary import elementwise as launch_elementwise

AICORE_DTYPE_SUPPORT_LIST = (DT_BOOL,)


def logical_and(self: aclTensor, other: aclTensor, ex: aclOpExecutor) -> aclTensor | None:
    """``l0op::LogicalAnd(self, other, executor)`` (aclnnMinimum passes BOOL tensors only)."""
    aicore = self.dtype in AICORE_DTYPE_SUPPORT_LIST
    recipe = _soc.current().kernel_family if aicore else "aicpu"
    failure = launch.checked("LogicalAndAiCore ADD_TO_LAUNCHER_LIST_AICORE failed.")
    compute = minmax.logical_and(recipe)
    return launch_elementwise(ex, "LogicalAnd", [self, other], self.dtype, aicore, compute, failure=failure)
