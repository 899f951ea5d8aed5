"""``l0op::ReduceAll`` — ops-math ``math/reduce_all/op_api/reduce_all.cpp``.

The axes become an INT64 host tensor. The output is FLOAT for FLOAT/BFLOAT16 input and FLOAT16
for FLOAT16 input on Ascend910B/910_93 (their newer float kernels), BOOL otherwise. Its shape is
inferred (``InferShape4ReduceCommon`` without the noop attribute: empty axes reduce every axis)
except for a 0-d input with keepdim, which keeps the 0-d shape. Always the AI Core.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .. import soc as _soc
from .._status import aclnnStatus
from ..dtypes import DT_BF16, DT_BOOL, DT_FLOAT, DT_FLOAT16, DT_INT64
from ..executor.checks import op_loge
from ..executor.executor import aclOpExecutor
from ..kernels import reduce_bool as reduce_kernel
from ..tensor import aclTensor
from . import launch


def _axis_ok(rank: int, axis: int) -> bool:
    """``CheckAxisBounds``: [-rank, rank - 1], and only 0 for a 0-d input."""
    if rank == 0:
        return axis == 0
    return -rank <= axis <= rank - 1


def infer_reduce_shape(shape: Sequence[int], axes: Sequence[int], keepdim: bool) -> tuple[int, ...] | None:
    """``InferShape4ReduceCommon(..., hasNoopAttr = false)`` with constant axes; None on
    ``axesDims is invalid``."""
    rank = len(shape)
    if not axes:  # empty axes: reduce everything
        return tuple(1 for _ in shape) if keepdim else ()
    if keepdim:
        n = rank or 1
        out = list(shape)
        for a in axes:
            if not _axis_ok(n, a):
                return None
            if rank:
                out[a + n if a < 0 else a] = 1
        return tuple(out)
    kept = []
    for j in range(rank):  # ReduceDimsWithoutKeepDims: axes are only looked at per input dim
        reduced = False
        for a in axes:
            if not _axis_ok(rank, a):
                return None
            if (a + rank if a < 0 else a) == j:
                reduced = True
                break
        if not reduced:
            kept.append(shape[j])
    return tuple(kept)


def wrapped_axes(rank: int, axes: Sequence[int]) -> list[int]:
    return [a + rank if a < 0 else a for a in axes] if rank else []


def out_dtype(x: aclTensor) -> int:
    """FLOAT / FLOAT16 for float inputs on Ascend910B and 910_93 (a SocVersion test), else BOOL."""
    special = _soc.current().family in ("Ascend910B", "Ascend910_93")
    if special and x.dtype in (DT_BF16, DT_FLOAT):
        return DT_FLOAT
    if special and x.dtype == DT_FLOAT16:
        return DT_FLOAT16
    return DT_BOOL


def reduce_logical(
    ex: aclOpExecutor,
    op: str,
    x: aclTensor,
    dim: Sequence[int],
    keepdim: bool,
    *,
    report_infer: bool,
    failure: launch.OnFailure,
) -> aclTensor | None:
    """The body ReduceAll and ReduceAny share (``op`` names the kernel)."""
    dims = ex.convert_to_tensor(np.array(list(dim), dtype=np.int64), DT_INT64)
    step = ex.step(op, [x, dims], keep_dims=bool(keepdim))
    shape: tuple[int, ...] | None = x.view_shape
    if x.rank != 0 or not keepdim:
        shape = infer_reduce_shape(x.view_shape, list(dim), keepdim)
        if shape is None:
            if report_infer:
                op_loge(aclnnStatus.ACLNN_ERR_PARAM_INVALID, "InferShape failed.")
            return None
    assert shape is not None
    out = ex.alloc_tensor(shape, out_dtype(x))
    compute = reduce_kernel.make("all" if op == "ReduceAll" else "any", wrapped_axes(x.rank, dim), keepdim)
    if launch.aicore(ex, step, op, [x, dims], [out], compute, failure=failure, keep_dims=bool(keepdim)) is None:
        return None
    step.outputs = [out]
    return out


def reduce_all(x: aclTensor, dim: Sequence[int], keepdim: bool, ex: aclOpExecutor) -> aclTensor | None:
    """``l0op::ReduceAll(self, dim, keepdim, executor)`` (a failed shape inference is silent)."""
    failure = launch.checked_static("ReduceAll ADD_TO_LAUNCHER_LIST_AICORE failed.")
    return reduce_logical(ex, "ReduceAll", x, dim, keepdim, report_infer=False, failure=failure)
