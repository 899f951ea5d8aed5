"""The AI CPU kernels' dtype registrations: an AI CPU kernel given a dtype its OpDef does not
register fails its task on the stream (CANN's kernels end their dtype switch with
``KERNEL_STATUS_PARAM_INVALID``; aclnn_py reports ``ACL_ERROR_RT_AICPU_EXCEPTION``, 507018, at
the next synchronize, with the kernel and the dtype named). Phase 1 cannot see it: CANN's op_api
chooses the AI CPU for every dtype outside the AI Core list without checking the kernel's."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

import numpy as np

from .. import dtypes
from .._status import aclError
from ..runtime.stream import TaskFault

Compute = Callable[[Sequence[np.ndarray], Sequence[np.ndarray]], str]


def _check(op: str, dt: np.dtype, registered: Collection[np.dtype]) -> None:
    """Fail the task when ``dt`` is not among the AI CPU ``op`` kernel's registered dtypes."""
    if dt not in registered:
        names = ", ".join(str(d) for d in registered)
        raise TaskFault(
            aclError.ACL_ERROR_RT_AICPU_EXCEPTION,
            f"the AI CPU {op} kernel has no implementation for {dt} (registered: {names})",
        )


def registered(op: str, dts: Sequence[int], compute: Compute) -> Compute:
    """``compute`` as the AI CPU ``op`` kernel whose OpDef registers the ACL dtypes ``dts``
    (each input is checked)."""
    known = [d for d in (dtypes.numpy_dtype(dt) for dt in dts) if d is not None]

    def kernel(ins: Sequence[np.ndarray], outs: Sequence[np.ndarray]) -> str:
        for a in ins:
            _check(op, a.dtype, known)
        return compute(ins, outs)

    return kernel
