"""``l0op::SoftmaxV2`` — ops-nn ``activation/softmax_v2/op_api/softmax_v2_op.cpp``.

The output has self's storage shape and dtype; the attribute ``axes`` is ``[dim]`` as given
(a negative dim is passed on; the kernels handle any axis, no transpose), ``half_to_float`` is
false. AI Core for FLOAT, FLOAT16 and BFLOAT16 on every chip, else (DOUBLE) the AI CPU
SoftmaxV2 with the attribute name ``axes``. The AI Core launch result is not checked.
"""

from __future__ import annotations

from .. import soc as _soc
from ..dtypes import DT_BF16, DT_FLOAT, DT_FLOAT16
from ..executor.executor import aclOpExecutor
from ..kernels import softmax as kernel
from ..tensor import aclTensor
from . import launch

AICORE_DTYPE_SUPPORT_LIST = (DT_FLOAT, DT_FLOAT16, DT_BF16)


def softmax_v2(self: aclTensor, dim: int, ex: aclOpExecutor) -> aclTensor:
    """``l0op::SoftmaxV2(self, dim, executor)``."""
    step = ex.step("SoftmaxV2", [self], axes=[dim], half_to_float=False)
    out = ex.alloc_tensor(self.storage_shape, self.dtype)
    axis = dim + max(self.rank, 1) if dim < 0 else dim
    if self.rank == 0:
        axis = 0
    if self.dtype in AICORE_DTYPE_SUPPORT_LIST:
        soc = _soc.current()
        compute = kernel.make(soc.kernel_family, axis, reciprocal=soc.family == "Ascend310P")
        launch.aicore(ex, step, "SoftmaxV2", [self], [out], compute, failure=None, axes=[dim], half_to_float=False)
    else:
        launch.aicpu(ex, step, "SoftmaxV2", [self], [out], kernel.make("aicpu", axis), axes=[dim])
    step.outputs = [out]
    return out
