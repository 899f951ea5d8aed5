"""``l0op::Fill`` — ops-math ``conversion/fill/op_api/fill.cpp``.

``Fill(dims, value, outShape)``: the output has ``outShape`` and value's dtype (ND); nothing is
launched for an empty output. AI Core when value's dtype is in the list of the chip (SocVersion
from Ascend910B to Ascend910E — Ascend910B, 910_93, 950 — the longer list; Ascend910 and 310P
the shorter), else TensorFlow's AI CPU ``Fill`` (attributes ``index_type`` and ``T``).
"""

from __future__ import annotations

from collections.abc import Sequence

from .. import dtypes
from .. import soc as _soc
from ..dtypes import (
    DT_BF16,
    DT_BOOL,
    DT_FLOAT,
    DT_FLOAT16,
    DT_INT8,
    DT_INT32,
    DT_INT64,
    DT_UINT16,
    DT_UINT32,
    DT_UINT64,
)  # fmt: skip
from ..executor.executor import aclOpExecutor
from ..kernels import fill as fill_kernel
from ..tensor import aclTensor
from . import launch

AICORE_DTYPE_SUPPORT_LIST_910 = (DT_FLOAT, DT_FLOAT16, DT_INT32, DT_INT64, DT_INT8, DT_BOOL)
AICORE_DTYPE_SUPPORT_LIST_GE910B = (
    DT_FLOAT, DT_FLOAT16, DT_INT32, DT_INT64, DT_INT8, DT_BOOL, DT_BF16, DT_UINT16, DT_UINT32, DT_UINT64,
)  # fmt: skip


def soc_version_ge_910b() -> bool:
    """``CheckSocVersionGe910B``: ASCEND910B <= SocVersion <= ASCEND910E (910B, 910_93, 950)."""
    return _soc.current().family in ("Ascend910B", "Ascend910_93", "Ascend950")


def aicore_dtypes() -> tuple[int, ...]:
    return AICORE_DTYPE_SUPPORT_LIST_GE910B if soc_version_ge_910b() else AICORE_DTYPE_SUPPORT_LIST_910


def fill(dims: aclTensor, value: aclTensor, out_shape: Sequence[int], ex: aclOpExecutor) -> aclTensor | None:
    """``l0op::Fill(dims, value, outShape, executor)``."""
    step = ex.step("Fill", [dims, value])
    out = ex.alloc_tensor(out_shape, value.dtype)
    step.outputs = [out]
    if out.is_empty():
        step.note = "no kernel: empty output"
        return out
    if value.dtype in aicore_dtypes():
        failure = launch.checked("FillAiCore ADD_TO_LAUNCHER_LIST_AICORE failed.")
        if launch.aicore(ex, step, "Fill", [dims, value], [out], fill_kernel.fill, failure=failure) is None:
            return None
        return out
    attrs = {"index_type": dtypes.dt_name(dims.dtype), "T": dtypes.dt_name(value.dtype)}
    launch.aicpu(ex, step, "Fill", [dims, value], [out], fill_kernel.fill, **attrs)
    return out
