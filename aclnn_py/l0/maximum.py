"""``l0op::Maximum`` — ops-math ``math/maximum/op_api/maximum.cpp``.

The output has the broadcast shape and **self's** dtype. Only self's dtype picks the engine: AI
Core when it is in the chip's list, else the TF AI CPU kernel (INT16, UINT8 on the TBE chips,
DOUBLE). The AI Core launch's status is not checked: a launch that fails (its tiling refuses the
shape) is reported and the op still returns its output.
"""

from __future__ import annotations

from .. import dtypes
from .. import soc as _soc
from .._status import aclnnStatus
from ..dtypes import DT_BF16, DT_FLOAT, DT_FLOAT16, DT_INT8, DT_INT32, DT_INT64, DT_UINT8
from ..executor.checks import op_loge
from ..executor.executor import Compute, aclOpExecutor
from ..kernels import minmax
from ..tensor import aclTensor
from . import launch

AICORE_DTYPE_SUPPORT_LIST = (DT_FLOAT, DT_FLOAT16, DT_INT32, DT_INT8, DT_INT64, DT_BF16)
ASCEND950_DTYPE_SUPPORT_LIST = (DT_FLOAT, DT_FLOAT16, DT_INT32, DT_INT8, DT_UINT8, DT_INT64, DT_BF16)


def aicore_dtypes() -> tuple[int, ...]:
    """``IsAiCoreSupport``: Ascend950 its list, every other chip the common list."""
    return ASCEND950_DTYPE_SUPPORT_LIST if _soc.current().is_regbase else AICORE_DTYPE_SUPPORT_LIST


def launch_maxmin(
    ex: aclOpExecutor, op: str, self: aclTensor, other: aclTensor, aicore: bool, compute: Compute
) -> aclTensor | None:
    """Maximum / Minimum: broadcast, an output of self's dtype, one launch (AI Core unchecked)."""
    shape, _ = dtypes.broadcast_infer_shape(self.view_shape, other.view_shape)
    if shape is None:  # unreachable after the op_api checks; CANN's text names self's shape twice
        text = dtypes.shape_str(self.view_shape)
        op_loge(aclnnStatus.ACLNN_ERR_PARAM_INVALID, f"Broadcast {text} and {text} failed.")
        return None
    step = ex.step(op, [self, other])
    out = ex.alloc_tensor(shape, self.dtype)
    if aicore:
        launch.aicore(ex, step, op, [self, other], [out], compute, failure=None)  # the status is ignored
    else:
        launch.aicpu(ex, step, op, [self, other], [out], compute)
    step.outputs = [out]
    return out


def maximum(self: aclTensor, other: aclTensor, ex: aclOpExecutor) -> aclTensor | None:
    """``l0op::Maximum(self, other, executor)``."""
    return launch_maxmin(ex, "Maximum", self, other, self.dtype in aicore_dtypes(), minmax.maxmin(True))
