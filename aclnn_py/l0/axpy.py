"""``l0op::Axpy`` (ops-math ``math/axpy``) and ``l0op::AxpyV2`` (``math/axpy_v2``): x1 + alpha * x2.

Axpy takes ``alpha`` as a float attribute; AI Core for FLOAT, INT32, FLOAT16 and BF16 on every
chip. AxpyV2 takes ``alpha`` as a tensor of the same dtype (a converted scalar) and exists on
the AI Core only (Ascend950: FLOAT, INT32, FLOAT16, BF16, UINT8, INT8, INT64, BOOL; DAV_2201:
the four float/int32 types); for other dtypes it reports and returns nullptr.
"""

from __future__ import annotations

from .. import dtypes
from .. import soc as _soc
from ..dtypes import DT_BF16, DT_BOOL, DT_FLOAT, DT_FLOAT16, DT_INT8, DT_INT32, DT_INT64, DT_UINT8
from ..executor.checks import op_loge
from ..executor.executor import aclOpExecutor
from ..kernels import elementwise
from ..tensor import aclTensor
from . import launch
from ._binary import by_arch
from ._binary import elementwise as launch_elementwise

AXPY_AICORE = (DT_FLOAT, DT_INT32, DT_FLOAT16, DT_BF16)
AXPY_V2_AICORE_3510 = (DT_FLOAT, DT_INT32, DT_FLOAT16, DT_BF16, DT_UINT8, DT_INT8, DT_INT64, DT_BOOL)
AXPY_V2_AICORE_2201 = (DT_FLOAT, DT_INT32, DT_FLOAT16, DT_BF16)


def axpy(self: aclTensor, other: aclTensor, alpha: float, ex: aclOpExecutor) -> aclTensor | None:
    """``l0op::Axpy(self, other, alpha, executor)``: the output has self's dtype."""
    recipe = _soc.current().kernel_family
    aicore = self.dtype in AXPY_AICORE
    failure = launch.checked("AxpyAiCore ADD_TO_LAUNCHER_LIST_AICORE failed.")
    compute = elementwise.axpy(recipe, alpha)
    return launch_elementwise(
        ex, "Axpy", [self, other], self.dtype, aicore, compute, failure=failure, alpha=float(alpha)
    )


def axpy_v2(self: aclTensor, other: aclTensor, alpha: aclTensor, ex: aclOpExecutor) -> aclTensor | None:
    """``l0op::AxpyV2(self, other, alphaTensor, executor)``."""
    supported = tuple(by_arch({"DAV_3510": AXPY_V2_AICORE_3510, "DAV_2201": AXPY_V2_AICORE_2201}, ()))
    if self.dtype not in supported:
        listed = dtypes.dt_list_str(supported)
        op_loge(561103, f"self dtype {dtypes.dt_name(self.dtype)} should be in dtype support list [{listed}].")
        return None
    compute = elementwise.axpy_v2()  # AxpyV2AiCore ignores the launch status
    return launch_elementwise(ex, "AxpyV2", [self, other, alpha], self.dtype, True, compute, failure=None)
