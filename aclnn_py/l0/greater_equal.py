"""``l0op::GreaterEqual`` — ops-math ``math/greater_equal/op_api/greater_equal.cpp``.

A BOOL output of the broadcast shape. Only **self's** dtype picks the engine: AI Core when it is
in the chip's list (BFLOAT16 and INT64 on every chip), else the AI CPU kernel (an exact ``>=``).
``IsGreaterEqualSupportNonContiguous``: Ascend950 reads a strided view of an AI Core dtype.
"""

from __future__ import annotations

from .. import soc as _soc
from ..dtypes import (
    DT_BF16,
    DT_BOOL,
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

AICORE_DTYPE_SUPPORT_LIST = (DT_FLOAT, DT_INT32, DT_FLOAT16, DT_INT8, DT_UINT8, DT_BF16, DT_INT64)
REGBASE_DTYPE_SUPPORT_LIST = (
    DT_FLOAT, DT_INT32, DT_FLOAT16, DT_INT8, DT_UINT8, DT_BF16, DT_INT64, DT_UINT64, DT_BOOL,
)  # fmt: skip


def aicore_dtypes() -> tuple[int, ...]:
    """``IsAiCoreSupport``: Ascend950 its list, every other chip the common list."""
    return REGBASE_DTYPE_SUPPORT_LIST if _soc.current().is_regbase else AICORE_DTYPE_SUPPORT_LIST


def is_greater_equal_support_non_contiguous(t: aclTensor) -> bool:
    """``IsGreaterEqualSupportNonContiguous``: Ascend950 and an AI Core dtype."""
    return _soc.current().is_regbase and t.dtype in aicore_dtypes()


def greater_equal(self: aclTensor, other: aclTensor, ex: aclOpExecutor) -> aclTensor | None:
    """``l0op::GreaterEqual(self, other, executor)``."""
    aicore = self.dtype in aicore_dtypes()
    kernel = compare.make("GreaterEqual")
    if not aicore:
        kernel = aicpu.registered("GreaterEqual", AICPU_KERNEL_DTYPES, kernel)
    failure = launch.checked("GreaterEqual AiCore ADD_TO_LAUNCHER_LIST_AICORE failed.")
    return launch_elementwise(ex, "GreaterEqual", [self, other], DT_BOOL, aicore, kernel, failure=failure)
