"""``l0op::Greater`` — ops-math ``math/greater/op_api/greater.cpp``.

A BOOL output of the broadcast shape; AI Core when both dtypes are in the chip's list, else the
AI CPU kernel (an exact ``>``). ``IsGreaterSupportNonContiguous``: Ascend950's kernel reads a
strided view of an AI Core dtype directly.
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
    DT_INT16,
    DT_INT32,
    DT_INT64,
    DT_UINT8,
    DT_UINT16,
    DT_UINT32,
    DT_UINT64,
)  # fmt: skip
from ..executor.executor import aclOpExecutor
from ..kernels import aicpu, compare
from ..tensor import aclTensor
from . import launch
from ._binary import elementwise as launch_elementwise

AICORE_DTYPE_SUPPORT_910_LIST = (DT_FLOAT, DT_INT32, DT_INT64, DT_FLOAT16, DT_INT8, DT_UINT8)
AICORE_DTYPE_SUPPORT_910B_LIST = (DT_FLOAT, DT_INT32, DT_INT64, DT_FLOAT16, DT_INT8, DT_UINT8, DT_BF16)
REGBASE_DTYPE_SUPPORT_LIST = (
    DT_FLOAT, DT_INT32, DT_FLOAT16, DT_INT8, DT_UINT8, DT_BF16, DT_INT64, DT_UINT64, DT_BOOL,
)  # fmt: skip
# The AI CPU Greater / GreaterEqual / Less kernels' registered types (ops-math op_kernel_aicpu).
AICPU_KERNEL_DTYPES = (
    DT_INT8, DT_INT16, DT_INT32, DT_INT64, DT_UINT8, DT_UINT16, DT_UINT32, DT_UINT64, DT_FLOAT16, DT_FLOAT,
    DT_DOUBLE,
)  # fmt: skip


def aicore_dtypes() -> tuple[int, ...]:
    """``IsAiCoreSupport``: Ascend950 its list, DAV_2201 the 910B list, others the 910 list."""
    soc = _soc.current()
    if soc.is_regbase:
        return REGBASE_DTYPE_SUPPORT_LIST
    if soc.npu_arch == "DAV_2201":
        return AICORE_DTYPE_SUPPORT_910B_LIST
    return AICORE_DTYPE_SUPPORT_910_LIST


def is_greater_support_non_contiguous(t: aclTensor) -> bool:
    """``IsGreaterSupportNonContiguous``: Ascend950 and an AI Core dtype."""
    return _soc.current().is_regbase and t.dtype in aicore_dtypes()


def greater(self: aclTensor, other: aclTensor, ex: aclOpExecutor) -> aclTensor | None:
    """``l0op::Greater(self, other, executor)``."""
    supported = aicore_dtypes()
    aicore = self.dtype in supported and other.dtype in supported
    kernel = compare.make("Greater")
    if not aicore:
        kernel = aicpu.registered("Greater", AICPU_KERNEL_DTYPES, kernel)
    failure = launch.checked("GreaterAiCore ADD_TO_LAUNCHER_LIST_AICORE failed.")
    return launch_elementwise(ex, "Greater", [self, other], DT_BOOL, aicore, kernel, failure=failure)
