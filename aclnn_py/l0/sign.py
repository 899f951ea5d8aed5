"""``l0op::Sign`` — ops-math ``math/sign/op_api/sign.cpp``.

The output has self's shape and dtype. AI Core iff the dtype is in the chip's list (FLOAT,
FLOAT16, INT32, BFLOAT16; Ascend950 also INT64), else the AI CPU (TF) Sign kernel. The kernels'
own dtypes (ops-info / op defs) are narrower on the older chips: Ascend910 and 310P have no
BFLOAT16 Sign binary (a launch fails, nullptr), and the TF kernel has no INT8, INT16 or unsigned
implementation (the task fails on the stream). Both can only be reached on Ascend310P, whose
op_api checks no dtype.
"""

from __future__ import annotations

from .. import _errmsg
from .. import soc as _soc
from ..dtypes import DT_BF16, DT_COMPLEX64, DT_COMPLEX128, DT_DOUBLE, DT_FLOAT, DT_FLOAT16, DT_INT32, DT_INT64
from ..executor.executor import aclOpExecutor
from ..kernels import aicpu
from ..kernels import sign as sign_kernel
from ..tensor import aclTensor
from . import launch

AICORE_FAILURE = launch.checked_static("Sign ADD_TO_LAUNCHER_LIST_AICORE failed.")

AICORE_DTYPE_SUPPORT_LIST = (DT_FLOAT, DT_FLOAT16, DT_INT32, DT_BF16)
AICORE_DTYPE_SUPPORT_LIST_ARCH3510 = (DT_FLOAT, DT_FLOAT16, DT_INT32, DT_BF16, DT_INT64)
# The dtypes the AI CPU (TF) Sign kernel is registered for (aicpu_kernel/tf_kernel config).
AICPU_DTYPES = (DT_FLOAT16, DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64, DT_COMPLEX64, DT_COMPLEX128)
# The TBE Sign binaries of the chips without BFLOAT16 (ops-info of Ascend910 / Ascend310P).
_NO_BF16_BINARY = ("Ascend910", "Ascend310P")
# The TBE recipe per chip: after_v200() (vcopy) on DAV_2201; the old recipe elsewhere.
_TBE_RECIPE = {"Ascend910B": "v220", "Ascend910_93": "v220", "Ascend910": "v100", "Ascend310P": "v200"}


def aicore_dtypes() -> tuple[int, ...]:
    """``IsAiCoreSupport``: the regbase list on Ascend950, else the common list."""
    return AICORE_DTYPE_SUPPORT_LIST_ARCH3510 if _soc.current().is_regbase else AICORE_DTYPE_SUPPORT_LIST


def sign(x: aclTensor, ex: aclOpExecutor) -> aclTensor | None:
    """``l0op::Sign(self, executor)``."""
    soc = _soc.current()
    step = ex.step("Sign", [x])
    out = ex.alloc_tensor(x.view_shape, x.dtype)
    if x.dtype in aicore_dtypes():
        if x.dtype == DT_BF16 and soc.family in _NO_BF16_BINARY:
            _errmsg.report(
                "aclnn_py",
                f"{soc.family} has no BFLOAT16 kernel of Sign (its ops-info lists float16, float, int32); "
                "the kernel launch fails",
                None,
            )
            AICORE_FAILURE.report()
            return None
        recipe = "arch35" if soc.is_regbase else _TBE_RECIPE[soc.family]
        if launch.aicore(ex, step, "Sign", [x], [out], sign_kernel.make(recipe), failure=AICORE_FAILURE) is None:
            return None
    else:
        launch.aicpu(ex, step, "Sign", [x], [out], aicpu.registered("Sign", AICPU_DTYPES, sign_kernel.make("aicpu")))
    step.outputs = [out]
    return out
