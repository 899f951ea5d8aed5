"""``l0op::ReduceSumOp`` — ops-math ``math/reduce_sum/op_api/reduce_sum_op.cpp``.

The axes become an INT64 host tensor. The output has x's dtype (INT64 for a BOOL x) and the
shape ``InferShape4ReduceCommon`` gives (reduced dims removed; with ``keepDim`` set to 1).
AI Core when x's dtype is in the NpuArch's list, else the AI CPU: ``ReduceSum`` (attribute
``keep_dims``) for INT64, the TF ``Sum`` (attributes ``Tidx``, ``keep_dims``) for the rest.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .. import dtypes
from .. import soc as _soc
from ..dtypes import DT_BF16, DT_BOOL, DT_FLOAT, DT_FLOAT16, DT_INT32, DT_INT64
from ..executor.executor import aclOpExecutor
from ..kernels import reduce_sum as kernel
from ..tensor import aclTensor
from . import launch

AICORE310P_DTYPE_SUPPORT_LIST = (DT_FLOAT, DT_FLOAT16, DT_INT64)
AICORE910_DTYPE_SUPPORT_LIST = (DT_FLOAT, DT_FLOAT16, DT_INT32)
AICORE910B_DTYPE_SUPPORT_LIST = (DT_FLOAT, DT_FLOAT16, DT_INT32, DT_INT64, DT_BF16)
ARCH3510_DTYPE_SUPPORT_LIST = (DT_FLOAT, DT_FLOAT16, DT_INT32, DT_BF16, DT_INT64, DT_BOOL)

_BY_ARCH = {
    "DAV_2201": AICORE910B_DTYPE_SUPPORT_LIST,
    "DAV_3510": ARCH3510_DTYPE_SUPPORT_LIST,
    "DAV_2002": AICORE310P_DTYPE_SUPPORT_LIST,
    "DAV_1001": AICORE910_DTYPE_SUPPORT_LIST,
}


def aicore_dtypes() -> tuple[int, ...]:
    """``IsAiCoreSupport``'s list for the NpuArch (default: the Ascend910 list)."""
    return _BY_ARCH.get(_soc.current().npu_arch, AICORE910_DTYPE_SUPPORT_LIST)


def normalised(axes: Sequence[int], rank: int) -> list[int]:
    return [a + rank if a < 0 else a for a in axes]


def infer_shape(shape: tuple[int, ...], axes: Sequence[int], keep_dim: bool) -> tuple[int, ...]:
    """``InferShape4ReduceCommon`` for valid, non-empty axes."""
    red = set(normalised(axes, len(shape)))
    if keep_dim:
        return tuple(1 if i in red else d for i, d in enumerate(shape))
    return tuple(d for i, d in enumerate(shape) if i not in red)


def reduce_sum_op(x: aclTensor, axes: Sequence[int], keep_dim: bool, ex: aclOpExecutor) -> aclTensor | None:
    """``l0op::ReduceSumOp(x, axes, keepDim, executor)``."""
    axes_t = ex.convert_to_tensor(np.array(list(axes), dtype=np.int64), DT_INT64)
    step = ex.step("ReduceSum", [x, axes_t], keep_dims=bool(keep_dim))
    out = ex.alloc_tensor(infer_shape(x.view_shape, axes, keep_dim), DT_INT64 if x.dtype == DT_BOOL else x.dtype)
    red = normalised(axes, x.rank)
    if x.dtype in aicore_dtypes():
        recipe = _soc.current().kernel_family
        compute = kernel.make(recipe, red, keep_dim)
        attrs: dict[str, object] = {"keep_dims": bool(keep_dim), "noop_with_empty_axes": True}
        failure = launch.checked_static("ReduceSumOp ADD_TO_LAUNCHER_LIST_AICORE failed.")
        if launch.aicore(ex, step, "ReduceSum", [x, axes_t], [out], compute, failure=failure, **attrs) is None:
            return None
    elif x.dtype == DT_INT64:
        launch.aicpu(ex, step, "ReduceSum", [x, axes_t], [out], kernel.make("aicpu", red, keep_dim),
                     keep_dims=bool(keep_dim))  # fmt: skip
    else:  # the TF kernel ``Sum``
        launch.aicpu(ex, step, "Sum", [x, axes_t], [out], kernel.make("aicpu", red, keep_dim),
                     Tidx=dtypes.dt_name(axes_t.dtype), keep_dims=bool(keep_dim))  # fmt: skip
    step.outputs = [out]
    return out
