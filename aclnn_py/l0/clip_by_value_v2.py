"""``l0op::ClipByValueV2`` — ops-math ``conversion/clip_by_value_v2/op_api/clip_by_value.cpp``.

AI Core iff self's dtype is FLOAT16, FLOAT, INT32, INT64 or BFLOAT16 (the same list on every
chip): the output has self's dtype and formats and the broadcast shape of the three inputs.
Otherwise (DOUBLE, INT16, INT8, UINT8) the AI CPU kernel, whose output has self's view shape.
"""

from __future__ import annotations

from .. import dtypes
from .._status import aclnnStatus
from ..dtypes import DT_BF16, DT_FLOAT, DT_FLOAT16, DT_INT32, DT_INT64
from ..executor.checks import op_loge
from ..executor.executor import aclOpExecutor
from ..kernels import clamp as clamp_kernel
from ..tensor import aclTensor
from . import launch

S = aclnnStatus

AICORE_DTYPE_SUPPORT_LIST = (DT_FLOAT16, DT_FLOAT, DT_INT32, DT_INT64, DT_BF16)


def is_aicore_support(x: aclTensor) -> bool:
    return x.dtype in AICORE_DTYPE_SUPPORT_LIST


def clip_by_value_v2(x: aclTensor, lo: aclTensor, hi: aclTensor, ex: aclOpExecutor) -> aclTensor | None:
    """``l0op::ClipByValueV2(self, clipValueMin, clipValueMax, executor)``."""
    inputs = [x, lo, hi]
    step = ex.step("ClipByValueV2", inputs)
    if is_aicore_support(x):
        shape: tuple[int, ...] | None = x.view_shape
        for t in (lo, hi):  # INFER_SHAPE: the broadcast of the three inputs
            assert shape is not None
            shape, _ = dtypes.broadcast_infer_shape(shape, t.view_shape)
            if shape is None:
                op_loge(S.ACLNN_ERR_PARAM_INVALID, "infershape failed.")
                return None
        assert shape is not None
        out = ex.alloc_tensor(shape, x.dtype, x.storage_format)
        failure = launch.checked("ClipByValueV2AiCore ADD_TO_LAUNCHER_LIST_AICORE failed.")
        if launch.aicore(ex, step, "ClipByValueV2", inputs, [out], clamp_kernel.aicore(), failure=failure) is None:
            return None
    else:
        out = ex.alloc_tensor(x.view_shape, x.dtype)
        launch.aicpu(ex, step, "ClipByValueV2", inputs, [out], clamp_kernel.aicpu())
    step.outputs = [out]
    return out
