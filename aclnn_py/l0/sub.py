"""``l0op::Sub`` — ops-math ``math/sub/op_api/sub.cpp``.

The output has the broadcast shape and **self's** dtype (there is no mixed-dtype Sub). AI Core or
AI CPU is decided by self's dtype alone, keyed on the SoC version (``ASCEND910B <= soc <=
ASCEND910E`` in opbase's enum order covers Ascend910B, Ascend910_93 and Ascend950): those take
the 910B list, Ascend610Lite its own, every other chip (Ascend910, Ascend310P) the 910 list.
The AI CPU kernel (``sub_aicpu_def.cpp``) has no BOOL and no BFLOAT16; BFLOAT16 reaches it only
on Ascend910/310P through aclnnSubs' scalar promotion (an integer tensor minus a BFLOAT16
scalar): phase 1 succeeds and the task fails on the stream (:mod:`aclnn_py.kernels.aicpu`).
"""

from __future__ import annotations

from .. import dtypes
from .. import soc as _soc
from .._status import aclnnStatus
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
from ..executor import checks
from ..executor.checks import op_loge
from ..executor.executor import aclOpExecutor
from ..kernels import aicpu
from ..kernels import sub as sub_kernels
from ..tensor import aclTensor
from ._binary import elementwise as launch_elementwise

S = aclnnStatus

ASCEND910_AICORE_DTYPE_SUPPORT_LIST = (DT_FLOAT, DT_FLOAT16, DT_INT32, DT_INT64, DT_INT8, DT_UINT8, DT_BOOL)
ASCEND910B_AICORE_DTYPE_SUPPORT_LIST = (
    DT_FLOAT, DT_FLOAT16, DT_BF16, DT_INT64, DT_INT32, DT_INT8, DT_UINT8, DT_BOOL, DT_COMPLEX64,
)  # fmt: skip
ASCEND610LITE_DTYPE_SUPPORT_LIST = (DT_FLOAT, DT_FLOAT16, DT_INT32)  # no emulated chip is an Ascend610Lite
AICPU_DTYPES = (
    DT_FLOAT, DT_DOUBLE, DT_FLOAT16, DT_UINT8, DT_INT8, DT_UINT16, DT_INT16, DT_INT32, DT_INT64, DT_COMPLEX64,
    DT_COMPLEX128,
)  # fmt: skip

# The emulated chips from ASCEND910B to ASCEND910E in opbase's SocVersion order (ASCEND950 is
# ASCEND910_95, between ASCEND910_93 and ASCEND910E).
_ASCEND910B_TO_910E = ("Ascend910B", "Ascend910_93", "Ascend950")


def aicore_dtypes() -> tuple[int, ...]:
    """``IsAiCoreSupport``'s list for the current SoC version."""
    if _soc.current().family in _ASCEND910B_TO_910E:
        return ASCEND910B_AICORE_DTYPE_SUPPORT_LIST
    return ASCEND910_AICORE_DTYPE_SUPPORT_LIST


def is_aicore_support(self: aclTensor) -> bool:
    return self.dtype in aicore_dtypes()


def sub(self: aclTensor, other: aclTensor, ex: aclOpExecutor) -> aclTensor | None:
    """``l0op::Sub(self, other, executor)``: ``SubAiCore`` or ``SubAiCpu``."""
    shape = checks.broadcast_infer_shape(self.view_shape, other.view_shape)
    if shape is None:  # unreachable behind the L2 checks; reported as sub.cpp does
        op_loge(
            S.ACLNN_ERR_PARAM_INVALID,
            f"Broadcast {dtypes.shape_str(self.view_shape)} and {dtypes.shape_str(other.view_shape)} failed.",
        )
        return None
    recipe = _soc.current().kernel_family
    compute = sub_kernels.sub(recipe)
    aicore = is_aicore_support(self)  # SubAiCore ignores the launch status
    if not aicore:  # sub_aicpu_def.cpp: a dtype it does not register fails the task
        compute = aicpu.registered("Sub", AICPU_DTYPES, compute)
    return launch_elementwise(ex, "Sub", [self, other], self.dtype, aicore, compute, shape=shape, failure=None)
