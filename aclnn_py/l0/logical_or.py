"""``l0op::LogicalOr`` — ops-math ``math/logical_or/op_api/logical_or.cpp``: a BOOL output of the
broadcast shape; AI Core for self's dtype in the list (Ascend950: BOOL, INT8, UINT8, INT16,
INT32, INT64, FLOAT16, BFLOAT16, FLOAT; the other chips BOOL only), else AI CPU."""

from __future__ import annotations

from .. import soc as _soc
from ..dtypes import DT_BF16, DT_BOOL, DT_FLOAT, DT_FLOAT16, DT_INT8, DT_INT16, DT_INT32, DT_INT64, DT_UINT8
from ..executor.executor import aclOpExecutor
from ..kernels import minmax
from ..tensor import aclTensor
from . import launch
from ._binary import elementwise as launch_elementwise

AICORE_DTYPE_SUPPORT_LIST = (DT_BOOL, DT_INT8, DT_UINT8, DT_INT16, DT_INT32, DT_INT64, DT_FLOAT16, DT_BF16, DT_FLOAT)


def aicore_dtypes() -> tuple[int, ...]:
    """``IsAiCoreSupport``: the list on Ascend950, BOOL only elsewhere."""
    return AICORE_DTYPE_SUPPORT_LIST if _soc.current().is_regbase else (DT_BOOL,)


def logical_or(self: aclTensor, other: aclTensor, ex: aclOpExecutor) -> aclTensor | None:
    """``l0op::LogicalOr(self, other, executor)`` (aclnnMaximum passes BOOL tensors only)."""
    soc = _soc.current()
    aicore = self.dtype in aicore_dtypes()
    recipe = soc.kernel_family if aicore else "aicpu"
    failure = launch.checked("LogicalOrAiCore ADD_TO_LAUNCHER_LIST_AICORE failed.")
    compute = minmax.logical_or(recipe)
    return launch_elementwise(ex, "LogicalOr", [self, other], DT_BOOL, aicore, compute, failure=failure)
