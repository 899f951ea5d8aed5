"""``l0op::ReduceAny`` — ops-math ``math/reduce_any/op_api/reduce_any.cpp``.

The same as ReduceAll (:mod:`.reduce_all`): INT64 host axes; FLOAT / FLOAT16 output for float
inputs on Ascend910B/910_93, BOOL otherwise; the shape inferred unless a 0-d input keeps its
dims; always the AI Core. A failed shape inference reports ``InferShape failed.``.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..executor.executor import aclOpExecutor
from ..tensor import aclTensor
from . import launch
from .reduce_all import reduce_logical


def reduce_any(x: aclTensor, dim: Sequence[int], keepdim: bool, ex: aclOpExecutor) -> aclTensor | None:
    """``l0op::ReduceAny(self, dim, keepDim, executor)``."""
    failure = launch.checked_static("ReduceAny ADD_TO_LAUNCHER_LIST_AICORE failed.")
    return reduce_logical(ex, "ReduceAny", x, dim, keepdim, report_infer=True, failure=failure)
