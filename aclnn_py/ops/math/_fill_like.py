"""What ``aclnn_ones.cpp`` (aclnnInplaceOne) and ``aclnn_zero.cpp`` (aclnnInplaceZero) share:
the same phase 1 with OnesLike or ZerosLike.

L2_DFX_PHASE_1 -> the API's CheckParams -> empty shortcut -> Contiguous(selfRef) -> the l0 fill
-> ViewCopy(selfRef). Each API's checks (its lists, aclnnInplaceOne's rank check) stay in its
module.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..._status import aclnnStatus
from ...executor.api import hand_out
from ...executor.executor import aclOpExecutor
from ...l0.contiguous import contiguous, view_copy
from ...tensor import aclTensor
from .. import _l2
from .._graph import empty

S = aclnnStatus


def phase1(
    api: str,
    selfRef: Any,
    workspaceSize: Any,
    executor: Any,
    check: Callable[[Any], int],
    fill: Callable[[aclTensor, aclOpExecutor], aclTensor | None],
) -> int:
    """``api``'s phase 1: ``check`` (its CheckParams), then ``fill`` (OnesLike or ZerosLike) of
    the contiguous selfRef, ViewCopy back into selfRef."""
    ex = _l2.l2_dfx_phase1(api, workspaceSize, executor, selfRef=selfRef)
    if ex is None:  # an op-cache hit
        return S.ACLNN_SUCCESS
    ret = check(selfRef)
    if ret != S.ACLNN_SUCCESS:
        return ret
    assert selfRef is not None
    ex.bind_arguments(selfRef=selfRef)
    if selfRef.is_empty():
        return empty(ex, workspaceSize, executor)
    self_c = contiguous(selfRef, ex)
    if self_c is None:
        return S.ACLNN_ERR_INNER_NULLPTR
    filled = fill(self_c, ex)
    if filled is None or view_copy(filled, selfRef, ex) is None:
        return S.ACLNN_ERR_INNER_NULLPTR
    return hand_out(ex, ex.finish(), workspaceSize, executor)
