"""``l0op::Less`` — ops-math ``math/less/op_api/less.cpp``.

A BOOL output of the broadcast shape; AI Core when both dtypes are in the chip's list, else the
AI CPU kernel (an exact ``<``).
"""

from __future__ import annotations

from .. import soc as _soc
from ..dtypes import (
    DT_BF16,
    DT_BOOL,
    DT_DOUBLE,
    DT_FLOAT,
    DT_FLOAT16,
    DT_INT8,
    DT_INT32,
    DT_INT64,
    DT_UINT8,
    DT_UINT64,
)  # fmt: skip
from ..executor.executor import aclOpExecutor
from ..kernels import aicpu, compare
from ..tensor import aclTensor
from . import launch
from ._binary import elementwise as launch_elementwise
from .greater import AICPU_KERNEL_DTYPES

AICORE_DTYPE_SUPPORT_LIST = (DT_FLOAT, DT_INT32, DT_INT64, DT_FLOAT16, DT_INT8, DT_UINT8, DT_BOOL, DT_BF16)
REGBASE_DTYPE_SUPPORT_LIST = (
    DT_INT64, DT_UINT64, DT_INT32, DT_INT8, DT_UINT8, DT_FLOAT, DT_FLOAT16, DT_BF16, DT_BOOL, DT_DOUBLE,
)  # fmt: skip


def aicore_dtypes() -> tuple[int, ...]:
    """``IsAiCoreSupport``: Ascend950 its list, every other chip the common list."""
    return REGBASE_DTYPE_SUPPORT_LIST if _soc.current().is_regbase else AICORE_DTYPE_SUPPORT_LIST


def less(self: aclTensor, other: aclTensor, ex: aclOpExecutor) -> aclTensor | None:
    """``l0op::Less(self, other, executor)``."""
    supported = aicore_dtypes()
    aicore = self.dtype in supported and other.dtype in supported
    kernel = compare.make("Less")
    if not aicore:
        kernel = aicpu.registered("Less", AICPU_KERNEL_DTYPES, kernel)
    failure = launch.checked("LessAiCore ADD_TO_LAUNCHER_LIST_AICORE failed.")
    return launch_elementwise(ex, "Less", [self, other], DT_BOOL, aicore, kernel, failure=failure)
