"""``l0op::OnesLike`` — ops-math ``math/ones_like/op_api/ones_like.cpp`` (and ``ones_like.h``).

The output takes self's view shape and dtype (ND). Nothing is launched for an empty output. AI
Core when the dtype is in the chip's list (SocVersion Ascend910B/910_93 or regbase: the longer
one), else AI CPU if the dtype is in its list (complex and BFLOAT16 through TensorFlow's kernel,
attribute ``T``), else nullptr without a report.
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
    DT_UINT16,
)  # fmt: skip
from ..executor.executor import aclOpExecutor
from ..kernels import fill as fill_kernel
from ..tensor import aclTensor
from . import launch
from .zeros_like import launch_inputs

ASCEND910_AICORE_DTYPE_SUPPORT_LIST = (DT_FLOAT, DT_FLOAT16, DT_INT8, DT_INT32, DT_UINT8)
ASCEND910B_AICORE_DTYPE_SUPPORT_LIST = (DT_FLOAT, DT_FLOAT16, DT_INT8, DT_INT32, DT_UINT8, DT_BF16, DT_BOOL)
AICPU_DTYPE_SUPPORT_LIST = (
    DT_BOOL, DT_FLOAT, DT_FLOAT16, DT_INT8, DT_INT16, DT_UINT16, DT_UINT8, DT_INT32, DT_INT64, DT_DOUBLE,
    DT_COMPLEX64, DT_COMPLEX128, DT_BF16,
)  # fmt: skip


def aicore_dtypes() -> tuple[int, ...]:
    """``IsAiCoreSupport``'s list, by SocVersion (or regbase)."""
    soc = _soc.current()
    if soc.family in ("Ascend910B", "Ascend910_93") or soc.is_regbase:
        return ASCEND910B_AICORE_DTYPE_SUPPORT_LIST
    return ASCEND910_AICORE_DTYPE_SUPPORT_LIST


def ones_like(self: aclTensor, ex: aclOpExecutor) -> aclTensor | None:
    """``l0op::OnesLike(self, executor)``."""
    step = ex.step("OnesLike", [self])
    out = ex.alloc_tensor(self.view_shape, self.dtype)
    step.outputs = [out]
    if out.is_empty():
        step.note = "no kernel: empty output"
        return out
    ones = fill_kernel.constant(1)
    ins = launch_inputs(self)
    if self.dtype in aicore_dtypes():
        failure = launch.checked_static("OnesLike ADD_TO_LAUNCHER_LIST_AICORE failed.")
        if launch.aicore(ex, step, "OnesLike", ins, [out], ones, failure=failure) is None:
            return None
        return out
    if self.dtype not in AICPU_DTYPE_SUPPORT_LIST:
        return None  # CHECK_RET(IsAiCpuSupport(self)): nothing reported
    if self.dtype in (DT_COMPLEX64, DT_COMPLEX128, DT_BF16):  # TensorFlow's OnesLike
        launch.aicpu(ex, step, "OnesLike", ins, [out], ones, T=dtypes.dt_name(self.dtype))
    else:
        launch.aicpu(ex, step, "OnesLike", ins, [out], ones)
    return out
