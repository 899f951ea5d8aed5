"""``l0op::NotEqual`` — ops-math ``math/not_equal/op_api/not_equal.cpp``.

A BOOL output of the broadcast shape. AI Core when both dtypes are in the chip's list;
otherwise the TF AI CPU kernel for complex inputs (attributes ``T``, ``incompatible_shape_error``),
else the ops-math AI CPU kernel (``!IsValueEqual``: DOUBLE is compared with a relative
tolerance on every chip, Ascend950 included).
"""

from __future__ import annotations

from .. import dtypes
from .. import soc as _soc
from ..dtypes import (
    DT_BF16,
    DT_BOOL,
    DT_COMPLEX64,
    DT_COMPLEX128,
    DT_DOUBLE,
    DT_FLOAT,
    DT_FLOAT16,
    DT_INT8,
    DT_INT16,
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

AICORE910_DTYPE_SUPPORT_LIST = (DT_FLOAT, DT_INT32, DT_INT64, DT_FLOAT16, DT_INT8, DT_UINT8, DT_BOOL, DT_BF16)
ASCEND950_DTYPE_SUPPORT_LIST = (
    DT_FLOAT, DT_INT32, DT_INT64, DT_FLOAT16, DT_INT8, DT_UINT8, DT_BOOL, DT_BF16, DT_UINT64,
)  # fmt: skip
AICPU_TF_DTYPE_SUPPORT_LIST = (DT_COMPLEX64, DT_COMPLEX128)
# The ops-math AI CPU kernel's registered types (not_equal_aicpu.cpp).
AICPU_KERNEL_DTYPES = (
    DT_INT8, DT_INT16, DT_INT32, DT_INT64, DT_UINT8, DT_FLOAT16, DT_FLOAT, DT_DOUBLE, DT_BOOL,
)  # fmt: skip


def aicore_dtypes() -> tuple[int, ...]:
    """``IsAiCoreSupport``: Ascend950 its list, every other chip the common list."""
    return ASCEND950_DTYPE_SUPPORT_LIST if _soc.current().is_regbase else AICORE910_DTYPE_SUPPORT_LIST


def not_equal(self: aclTensor, other: aclTensor, ex: aclOpExecutor) -> aclTensor | None:
    """``l0op::NotEqual(self, other, executor)``."""
    supported = aicore_dtypes()
    if self.dtype in supported and other.dtype in supported:
        failure = launch.checked("NotEqualAiCore ADD_TO_LAUNCHER_LIST_AICORE failed.")
        compute = compare.make("NotEqual")
        return launch_elementwise(ex, "NotEqual", [self, other], DT_BOOL, True, compute, failure=failure)
    if self.dtype in AICPU_TF_DTYPE_SUPPORT_LIST or other.dtype in AICPU_TF_DTYPE_SUPPORT_LIST:
        tf = compare.make("NotEqual")
        return launch_elementwise(
            ex,
            "NotEqual",
            [self, other],
            DT_BOOL,
            False,
            tf,
            failure=None,
            T=dtypes.dt_name(self.dtype),
            incompatible_shape_error=True,
        )
    kernel = aicpu.registered("NotEqual", AICPU_KERNEL_DTYPES, compare.aicpu_equal(True))
    return launch_elementwise(ex, "NotEqual", [self, other], DT_BOOL, False, kernel, failure=None)
