"""``l0op::Equal`` — ops-math ``math/equal/op_api/equal.cpp``.

A BOOL output of the broadcast shape. AI Core when both dtypes are in the chip's list;
otherwise, if either is complex, the TF AI CPU kernel (attributes ``T`` = self's dtype and
``incompatible_shape_error``); else the ops-math AI CPU kernel, whose float equality is
relative (``IsValueEqual``: DOUBLE on Ascend910B/910_93/910/310P, INT16 everywhere).
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
    DT_UINT32,
    DT_UINT64,
)  # fmt: skip
from ..executor.executor import aclOpExecutor
from ..kernels import aicpu, compare
from ..tensor import aclTensor
from . import launch
from ._binary import elementwise as launch_elementwise

AICORE910_DTYPE_SUPPORT_LIST = (
    DT_FLOAT, DT_INT32, DT_INT64, DT_FLOAT16, DT_INT8, DT_UINT8, DT_UINT64, DT_UINT32, DT_BOOL,
)  # fmt: skip
AICORE910B_DTYPE_SUPPORT_LIST = (DT_FLOAT, DT_INT32, DT_INT64, DT_FLOAT16, DT_INT8, DT_UINT8, DT_BOOL, DT_BF16)
REGBASE_DTYPE_SUPPORT_LIST = (
    DT_FLOAT, DT_INT32, DT_INT64, DT_FLOAT16, DT_INT8, DT_UINT8, DT_BOOL, DT_BF16, DT_UINT64, DT_DOUBLE,
)  # fmt: skip
AICPU_TF_DTYPE_SUPPORT_LIST = (DT_COMPLEX64, DT_COMPLEX128)
# The ops-math AI CPU kernel's registered types (equal_aicpu.cpp; complex goes to TF instead).
AICPU_KERNEL_DTYPES = (
    DT_INT8, DT_INT16, DT_INT32, DT_INT64, DT_UINT8, DT_FLOAT16, DT_FLOAT, DT_DOUBLE, DT_BOOL, DT_COMPLEX64,
    DT_COMPLEX128,
)  # fmt: skip


def aicore_dtypes() -> tuple[int, ...]:
    """``IsAiCoreSupport``: Ascend950 its list, DAV_2201 the 910B list, others the 910 list."""
    soc = _soc.current()
    if soc.is_regbase:
        return REGBASE_DTYPE_SUPPORT_LIST
    if soc.npu_arch == "DAV_2201":
        return AICORE910B_DTYPE_SUPPORT_LIST
    return AICORE910_DTYPE_SUPPORT_LIST


def equal(self: aclTensor, other: aclTensor, ex: aclOpExecutor) -> aclTensor | None:
    """``l0op::Equal(self, other, executor)``."""
    supported = aicore_dtypes()
    if self.dtype in supported and other.dtype in supported:
        failure = launch.checked("EqualAiCore ADD_TO_LAUNCHER_LIST_AICORE failed.")
        return launch_elementwise(ex, "Equal", [self, other], DT_BOOL, True, compare.make("Equal"), failure=failure)
    if self.dtype in AICPU_TF_DTYPE_SUPPORT_LIST or other.dtype in AICPU_TF_DTYPE_SUPPORT_LIST:
        tf = compare.make("Equal")
        return launch_elementwise(
            ex, "Equal", [self, other], DT_BOOL, False, tf, failure=None,
            T=dtypes.dt_name(self.dtype), incompatible_shape_error=True,
        )  # fmt: skip
    kernel = aicpu.registered("Equal", AICPU_KERNEL_DTYPES, compare.aicpu_equal(False))
    return launch_elementwise(ex, "Equal", [self, other], DT_BOOL, False, kernel, failure=None)
