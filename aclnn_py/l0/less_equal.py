"""``l0op::LessEqual`` — ops-math ``math/less_equal/op_api/less_equal.cpp``.

A BOOL output of the broadcast shape; AI Core when both dtypes are in the chip's list, else
**always** the TF AI CPU kernel (attributes ``T`` = self's dtype and ``incompatible_shape_error``;
an exact ``<=``, assumed: the TF kernel is not in the sources).
"""

from __future__ import annotations

from .. import dtypes
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

AICORE_DTYPE_SUPPORT_LIST = (DT_INT8, DT_UINT8, DT_INT32, DT_INT64, DT_FLOAT16, DT_FLOAT, DT_BF16)
REGBASE_DTYPE_SUPPORT_LIST = (
    DT_FLOAT16, DT_FLOAT, DT_INT32, DT_INT64, DT_INT8, DT_UINT8, DT_BF16, DT_UINT64, DT_BOOL,
)  # fmt: skip
# TensorFlow's LessEqual kernel: the real number types (TF_CALL_REAL_NUMBER_TYPES).
TF_KERNEL_DTYPES = (
    DT_FLOAT, DT_DOUBLE, DT_FLOAT16, DT_INT8, DT_INT16, DT_INT32, DT_INT64, DT_UINT8, DT_UINT16, DT_UINT32,
    DT_UINT64,
)  # fmt: skip


def aicore_dtypes() -> tuple[int, ...]:
    """``IsAiCoreSupport``: Ascend950 its list, every other chip the common list."""
    return REGBASE_DTYPE_SUPPORT_LIST if _soc.current().is_regbase else AICORE_DTYPE_SUPPORT_LIST


def less_equal(self: aclTensor, other: aclTensor, ex: aclOpExecutor) -> aclTensor | None:
    """``l0op::LessEqual(self, other, executor)``."""
    supported = aicore_dtypes()
    if self.dtype in supported and other.dtype in supported:
        failure = launch.checked("LessEqualAiCore ADD_TO_LAUNCHER_LIST_AICORE failed.")
        compute = compare.make("LessEqual")
        return launch_elementwise(ex, "LessEqual", [self, other], DT_BOOL, True, compute, failure=failure)
    tf = aicpu.registered("LessEqual", TF_KERNEL_DTYPES, compare.make("LessEqual"))
    return launch_elementwise(
        ex, "LessEqual", [self, other], DT_BOOL, False, tf, failure=None,
        T=dtypes.dt_name(self.dtype), incompatible_shape_error=True,
    )  # fmt: skip
