"""``ADD_TO_LAUNCHER_LIST_AICORE`` / ``ADD_TO_LAUNCHER_LIST_AICPU``: one kernel launch of an l0 op.

An AI Core launch runs the kernel's tiling at phase 1 (that is where its workspace comes from);
a shape no tiling accepts fails the l0 op, which reports it and returns nullptr. An AI CPU
launch makes the executor's op-cache entry unusable (``AbandonCache``) but keeps it repeatable.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .. import _errmsg, dtypes
from .._status import aclnnStatus
from ..executor.executor import Compute, Launch, Step, aclOpExecutor
from ..tensor import aclTensor

S = aclnnStatus


def _tiling_accepts(ex: aclOpExecutor, op_type: str, tensors: Sequence[aclTensor]) -> bool:
    for t in tensors:
        if any(d < 0 for d in t.view_shape):
            _errmsg.report(
                "EZ1008", f"Failed to execute operator {ex.log_name(op_type)}. Reason: Failed to execute tiling."
            )
            _errmsg.report(
                "aclnn_py",
                f"the tiling of {op_type} cannot handle the negative dimension of {dtypes.shape_str(t.view_shape)} "
                "(Ascend950's broadcast tiling refuses it; what the other chips' closed tiling does is not public)",
                None,
            )
            _errmsg.report_code(S.ACLNN_ERR_INNER_NULLPTR, f"{op_type} ADD_TO_LAUNCHER_LIST_AICORE failed.")
            return False
    return True


def aicore(
    ex: aclOpExecutor,
    step: Step,
    op_type: str,
    inputs: list[aclTensor],
    outputs: list[aclTensor],
    compute: Compute,
    **attrs: Any,
) -> Launch | None:
    """Add an AI Core kernel; None (after the reports) when its tiling fails."""
    if not _tiling_accepts(ex, op_type, [*inputs, *outputs]):
        return None
    return ex.launch(step, op_type, inputs, outputs, compute, **attrs)


def aicpu(
    ex: aclOpExecutor,
    step: Step,
    op_type: str,
    inputs: list[aclTensor],
    outputs: list[aclTensor],
    compute: Compute,
    **attrs: Any,
) -> Launch:
    """Add an AI CPU kernel (``CreatAicpuKernelLauncher``): the op cache entry is dropped."""
    ln = ex.launch(step, op_type, inputs, outputs, compute, **attrs)
    ln.engine = "AiCpu"
    ex.abandon_cache()
    return ln
