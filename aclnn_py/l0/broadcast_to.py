"""``l0op::BroadcastTo`` — ops-math ``conversion/broadcast_to/op_api/broadcast_to.cpp``.

``BroadcastTo(x, y, shape)`` writes ``x`` broadcast into the caller's output ``y`` (``shape`` is
the target dims as an INT64 tensor): AI Core when x's dtype is in the list of the chip's NpuArch,
else TensorFlow's AI CPU ``BroadcastTo`` (attributes ``T`` and ``Tidx``). It never fails on a
dtype. ``BroadcastTo(x, shapeArray)`` allocates that output first.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .. import dtypes
from ..dtypes import (
    DT_BF16,
    DT_BOOL,
    DT_FLOAT,
    DT_FLOAT8_E4M3FN,
    DT_FLOAT8_E5M2,
    DT_FLOAT16,
    DT_HIFLOAT8,
    DT_INT8,
    DT_INT32,
    DT_INT64,
    DT_UINT8,
    DT_UINT32,
    FORMAT_FRACTAL_NZ,
    FORMAT_ND,
)  # fmt: skip
from ..executor import checks
from ..executor.executor import aclOpExecutor
from ..kernels import fill as fill_kernel
from ..tensor import aclTensor
from . import launch

ASCEND310P_AICORE_DTYPE_SUPPORT_LIST = (DT_FLOAT, DT_FLOAT16, DT_INT32, DT_INT64, DT_UINT32, DT_UINT8, DT_INT8, DT_BOOL)
ASCEND910_AICORE_DTYPE_SUPPORT_LIST = (DT_FLOAT, DT_FLOAT16, DT_INT32, DT_INT64, DT_UINT32, DT_UINT8, DT_INT8, DT_BOOL)
ASCEND910B_AICORE_DTYPE_SUPPORT_LIST = (
    DT_FLOAT, DT_FLOAT16, DT_INT32, DT_INT64, DT_UINT32, DT_BF16, DT_UINT8, DT_INT8, DT_BOOL,
)  # fmt: skip
REGBASE_AICORE_DTYPE_SUPPORT_LIST = (
    DT_INT8, DT_INT32, DT_INT64, DT_UINT8, DT_FLOAT16, DT_FLOAT, DT_BF16, DT_UINT32, DT_BOOL, DT_HIFLOAT8,
    DT_FLOAT8_E5M2, DT_FLOAT8_E4M3FN,
)  # fmt: skip


def aicore_dtypes() -> tuple[int, ...]:
    """``IsAiCoreSupport``'s list, by NpuArch."""
    return checks.dtypes_by_arch(
        {
            "DAV_2201": ASCEND910B_AICORE_DTYPE_SUPPORT_LIST,
            "DAV_2002": ASCEND310P_AICORE_DTYPE_SUPPORT_LIST,
            "DAV_3510": REGBASE_AICORE_DTYPE_SUPPORT_LIST,
        },
        ASCEND910_AICORE_DTYPE_SUPPORT_LIST,
    )


def broadcast_to(x: aclTensor, y: aclTensor, shape: aclTensor, ex: aclOpExecutor) -> aclTensor | None:
    """``l0op::BroadcastTo(x, y, shape, executor)``: y, or None when the AI Core tiling refuses."""
    step = ex.step("BroadcastTo", [x, shape])
    step.outputs = [y]
    if x.dtype in aicore_dtypes():
        failure = launch.checked("BroadcastToAiCore ADD_TO_LAUNCHER_LIST_AICORE failed.")
        if launch.aicore(ex, step, "BroadcastTo", [x, shape], [y], fill_kernel.broadcast, failure=failure) is None:
            return None
        return y
    attrs = {"T": dtypes.dt_name(x.dtype), "Tidx": dtypes.dt_name(shape.dtype)}
    launch.aicpu(ex, step, "BroadcastTo", [x, shape], [y], fill_kernel.broadcast, **attrs)
    return y


def broadcast_to_shape(x: aclTensor, shape: Sequence[int], ex: aclOpExecutor) -> aclTensor | None:
    """``l0op::BroadcastTo(x, shapeArray, executor)`` (the three-argument form): an output in ND
    (unless x is FRACTAL_NZ) and the shape as a host INT64 tensor, then the l0 BroadcastTo."""
    shape_t = ex.convert_to_tensor(np.array(list(shape), dtype=np.int64), DT_INT64)
    fmt = FORMAT_FRACTAL_NZ if x.storage_format == FORMAT_FRACTAL_NZ else FORMAT_ND
    return broadcast_to(x, ex.alloc_tensor(shape, x.dtype, fmt), shape_t, ex)
