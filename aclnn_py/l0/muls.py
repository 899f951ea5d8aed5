"""``l0op::Muls`` — ops-math ``math/muls/op_api/muls.cpp``: ``y = x * value`` with a float attribute.

The output has self's shape and dtype; the op is AI Core only (its definition: BFLOAT16, FLOAT16,
FLOAT, INT32, INT16, INT64, COMPLEX32, COMPLEX64, the same in the TBE kernel's list). A failed
launch reports :data:`AICORE_FAILURE` and returns nullptr.

aclnn_py computes the dtypes its callers give it — FLOAT16, BFLOAT16 and FLOAT from aclnnMuls
and aclnnDivs — and COMPLEX64; for the integer and COMPLEX32 kernels (whose int conversions
and saturation are not emulated) the launch fails as an unavailable kernel would.
"""

from __future__ import annotations

import numpy as np

from .. import _errmsg, dtypes
from .. import soc as _soc
from ..executor.executor import aclOpExecutor
from ..kernels import muls as muls_kernel
from ..tensor import aclTensor
from . import launch

AICORE_FAILURE = launch.checked_static("Muls ADD_TO_LAUNCHER_LIST_AICORE failed.")


def muls(self: aclTensor, alpha: float, ex: aclOpExecutor) -> aclTensor | None:
    """``l0op::Muls(self, alpha, executor)``: ``alpha`` is a C float (the attribute ``value``)."""
    value = float(np.float32(alpha))
    step = ex.step("Muls", [self], value=value)
    out = ex.alloc_tensor(self.view_shape, self.dtype)
    if dtypes.numpy_dtype(self.dtype) not in muls_kernel.EMULATED:
        _errmsg.report(
            "aclnn_py",
            f"the Muls kernel for {dtypes.dt_name(self.dtype)} is not emulated (no aclnn API of aclnn_py sends it)",
            None,
        )
        AICORE_FAILURE.report()
        return None
    compute = muls_kernel.muls(_soc.current().kernel_family, value)
    if launch.aicore(ex, step, "Muls", [self], [out], compute, failure=AICORE_FAILURE, value=value) is None:
        return None
    step.outputs = [out]
    return out
