"""``l0op::GatherV2`` — ops-nn ``index/gather_v2/op_api/gather_v2.cpp``.

The output is ``self.shape[:axis] + indices.shape[batchDims:] + self.shape[axis + 1:]`` (a 0-d
self gives a 0-d output) in self's dtype; a negative axis is wrapped by self's rank (1 for
0-d) and becomes a one-element INT64 host tensor. AI Core when self, indices and the axis are
in the chip's lists (Ascend950: the regbase list, which lacks UINT32, UINT64 and COMPLEX128;
otherwise the TBE list, plus BFLOAT16 on DAV_2201), else the AI CPU GatherV2 with the
attributes ``batch_dims`` and ``negative_index_support``.
"""

from __future__ import annotations

import numpy as np

from .. import soc as _soc
from ..dtypes import (
    DT_BF16,
    DT_BOOL,
    DT_COMPLEX64,
    DT_DOUBLE,
    DT_FLOAT,
    DT_FLOAT8_E4M3FN,
    DT_FLOAT8_E5M2,
    DT_FLOAT8_E8M0,
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
from ..kernels import gather as kernel
from ..tensor import aclTensor
from . import launch

AICORE_DTYPE_SUPPORT_LIST_SELF = (
    DT_FLOAT, DT_FLOAT16, DT_INT32, DT_INT8, DT_UINT8, DT_INT64, DT_INT16, DT_UINT16, DT_UINT32, DT_UINT64, DT_BOOL,
)  # fmt: skip
AICORE_DTYPE_SUPPORT_LIST_WITH_BF16 = (
    DT_FLOAT, DT_INT32, DT_INT64, DT_FLOAT16, DT_BF16, DT_INT16, DT_UINT16, DT_INT8, DT_UINT8, DT_BOOL, DT_DOUBLE,
    DT_COMPLEX64, DT_BF16, DT_FLOAT8_E5M2, DT_FLOAT8_E8M0, DT_FLOAT8_E4M3FN,
)  # fmt: skip
AICORE_DTYPE_SUPPORT_LIST_INDICES = (DT_INT32, DT_INT64)
AICORE_DTYPE_SUPPORT_LIST_AXIS = (DT_INT32, DT_INT64)


def is_aicore_support(self_dtype: int, indices_dtype: int, axis_dtype: int = DT_INT64) -> bool:
    """``IsAiCoreSupport``: regbase checks its own list; the others add BFLOAT16 on DAV_2201."""
    soc = _soc.current()
    indices_ok = indices_dtype in AICORE_DTYPE_SUPPORT_LIST_INDICES and axis_dtype in AICORE_DTYPE_SUPPORT_LIST_AXIS
    if soc.is_regbase:
        return self_dtype in AICORE_DTYPE_SUPPORT_LIST_WITH_BF16 and indices_ok
    bf16 = self_dtype == DT_BF16 and soc.npu_arch == "DAV_2201"
    return (self_dtype in AICORE_DTYPE_SUPPORT_LIST_SELF or bf16) and indices_ok


def out_shape(
    self_shape: tuple[int, ...], axis: int, indices_shape: tuple[int, ...], batch_dims: int
) -> tuple[int, ...]:
    """The inferred output shape (``axis`` already wrapped); a 0-d self keeps its 0-d shape."""
    if not self_shape:
        return ()
    return tuple(self_shape[:axis]) + tuple(indices_shape[batch_dims:]) + tuple(self_shape[axis + 1 :])


def wrap_axis(self: aclTensor, axis: int) -> int:
    """``axis += max(rank, 1)`` for a negative axis."""
    return axis + max(self.rank, 1) if axis < 0 else axis


def launch_gather(
    ex: aclOpExecutor, op: str, self: aclTensor, axis: int, indices: aclTensor, batch_dims: int,
    negative_index_support: bool, aicore: bool, mode: str, failure: launch.OnFailure | None,
) -> aclTensor | None:  # fmt: skip
    """Allocate the output, make the axis tensor, add the launch (GatherV2 and GatherV3 share it;
    ``failure`` None: a failed AI Core launch is not checked, the output is returned anyway)."""
    step = ex.step(op, [self, indices], axis=axis)
    out = ex.alloc_tensor(out_shape(self.view_shape, axis, indices.view_shape, batch_dims), self.dtype)
    axis_t = ex.convert_to_tensor(np.array([axis], dtype=np.int64), DT_INT64)
    compute = kernel.make(op, mode if aicore else "aicpu", axis)
    ins = [self, indices, axis_t]
    attrs = {"batch_dims": batch_dims, "negative_index_support": negative_index_support}
    if aicore:
        ln = launch.aicore(ex, step, op, ins, [out], compute, failure=failure, **attrs)
        if ln is None:
            return None if failure is not None else out
    else:
        ln = launch.aicpu(ex, step, op, ins, [out], compute, **attrs)
    compute.launch = ln
    step.outputs = [out]
    return out


def gather_v2(
    self: aclTensor, axis: int, indices: aclTensor, ex: aclOpExecutor, batch_dims: int = 0,
    negative_index_support: bool = False,
) -> aclTensor | None:  # fmt: skip
    """``l0op::GatherV2(self, axis, indices, executor, batchDims, negativeIndexSupport)``."""
    axis = wrap_axis(self, axis)
    aicore = is_aicore_support(self.dtype, indices.dtype)
    # Ascend950's AscendC kernels write zeros for an out-of-range index; the TBE kernel checks nothing
    mode = "zero" if _soc.current().is_regbase else "undefined"
    failure = launch.checked("GatherV2AiCore ADD_TO_LAUNCHER_LIST_AICORE failed.")
    return launch_gather(ex, "GatherV2", self, axis, indices, batch_dims, negative_index_support, aicore, mode, failure)
