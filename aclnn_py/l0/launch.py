"""``ADD_TO_LAUNCHER_LIST_AICORE`` / ``ADD_TO_LAUNCHER_LIST_AICPU``: one kernel launch of an l0 op.

An AI Core launch runs the kernel's tiling at phase 1 (that is where its workspace comes from);
a shape no tiling accepts fails the launch. What the l0 op then logs is its own: each op checks
the macro's status with its own text and code (:class:`OnFailure`: ``OP_CHECK(..., OP_LOGE(
ACLNN_ERR_INNER_NULLPTR, "AddAiCore ADD_TO_LAUNCHER_LIST_AICORE failed."))`` or
``OP_CHECK_ADD_TO_LAUNCHER_LIST_AICORE``, which logs 561118), or ignores it (``failure=None``).
An AI CPU launch makes the executor's op-cache entry unusable (``AbandonCache``) but keeps it
repeatable.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs

from .. import _errmsg, dtypes
from .._status import aclnnStatus
from ..executor.executor import Compute, Launch, Step, aclOpExecutor
from ..tensor import aclTensor

S = aclnnStatus


@attrs.frozen
class OnFailure:
    """What an l0 op logs when its kernel could not be added: ``OP_LOGE(code, text)``."""

    code: int
    text: str

    def report(self) -> None:
        _errmsg.report_code(self.code, self.text)


def checked(text: str) -> OnFailure:
    """``OP_CHECK(ret == ACLNN_SUCCESS, OP_LOGE(ACLNN_ERR_INNER_NULLPTR, text), return nullptr)``."""
    return OnFailure(S.ACLNN_ERR_INNER_NULLPTR, text)


def checked_static(text: str) -> OnFailure:
    """``OP_CHECK_ADD_TO_LAUNCHER_LIST_AICORE(ret != ACLNN_SUCCESS, return nullptr, text)``
    (ops-math's macro logs ACLNN_ERR_INNER_STATIC_WORKSPACE_INVALID)."""
    return OnFailure(S.ACLNN_ERR_INNER_STATIC_WORKSPACE_INVALID, text)


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
            return False
    return True


def aicore(
    ex: aclOpExecutor,
    step: Step,
    op_type: str,
    inputs: list[aclTensor],
    outputs: list[aclTensor],
    compute: Compute,
    *,
    failure: OnFailure | None,
    **attrs: Any,
) -> Launch | None:
    """Add an AI Core kernel; None when its tiling fails, after the op's own ``failure`` report
    (None: the op does not check the status)."""
    if not _tiling_accepts(ex, op_type, [*inputs, *outputs]):
        if failure is not None:
            failure.report()
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
