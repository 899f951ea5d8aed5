"""``l0op::GatherV3`` — ops-nn ``index/gather_v3/op_host/op_api/gather_v3.cpp``.

The AscendC GatherV3 kernel exists on Ascend910B and 910_93 only (a SocVersion test) for the
dtypes below with INT32/INT64 indices; everything else falls back to :func:`.gather_v2.gather_v2`
(so Ascend910/310P always run GatherV2, and DOUBLE/COMPLEX go to its AI CPU kernel). The output
and the axis tensor are GatherV2's; the launch result is not checked.
"""

from __future__ import annotations

from .. import soc as _soc
from ..dtypes import (
    DT_BF16,
    DT_BOOL,
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
from ..tensor import aclTensor
from .gather_v2 import gather_v2, launch_gather, wrap_axis

AICORE_DTYPE_SUPPORT_LIST_SELF = (
    DT_BF16, DT_FLOAT16, DT_FLOAT, DT_INT8, DT_INT16, DT_INT32, DT_INT64, DT_UINT8, DT_UINT16, DT_UINT32, DT_UINT64,
    DT_BOOL,
)  # fmt: skip
AICORE_DTYPE_SUPPORT_LIST_INDICES = (DT_INT32, DT_INT64)


def is_aicore_support(self_dtype: int, indices_dtype: int) -> bool:
    """``IsAiCoreSupport``: SocVersion ASCEND910B or ASCEND910_93, and the dtypes in the lists."""
    soc_ok = _soc.current().family in ("Ascend910B", "Ascend910_93")
    return (
        soc_ok and self_dtype in AICORE_DTYPE_SUPPORT_LIST_SELF and indices_dtype in AICORE_DTYPE_SUPPORT_LIST_INDICES
    )


def gather_v3(
    self: aclTensor, axis: int, indices: aclTensor, ex: aclOpExecutor, batch_dims: int = 0,
    negative_index_support: bool = False,
) -> aclTensor | None:  # fmt: skip
    """``l0op::GatherV3(self, axis, indices, executor, batchDims, negativeIndexSupport)``."""
    if not is_aicore_support(self.dtype, indices.dtype):
        return gather_v2(self, axis, indices, ex, batch_dims, negative_index_support)
    # the kernel's index check is an AscendC assert, compiled out of release kernels: undefined
    return launch_gather(
        ex,
        "GatherV3",
        self,
        wrap_axis(self, axis),
        indices,
        batch_dims,
        negative_index_support,
        True,
        "undefined",
        None,  # GatherV3AiCore ignores the launch status
    )
