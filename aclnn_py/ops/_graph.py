"""The l0 call sequences that op_api files (ops-math, ops-nn) each write out: Contiguous + Cast of an
input, the Contiguous of a pair, the empty-tensor short-cut, and the closing Cast to out's dtype +
ViewCopy + hand-out of the executor."""

from __future__ import annotations

from .._status import aclnnStatus
from ..executor.api import hand_out
from ..executor.executor import aclOpExecutor
from ..l0.cast import cast
from ..l0.contiguous import contiguous, view_copy
from ..tensor import aclTensor

S = aclnnStatus


def contiguous_cast(ex: aclOpExecutor, t: aclTensor, dt: int) -> aclTensor | None:
    """``l0op::Contiguous`` then ``l0op::Cast`` to ``dt``."""
    c = contiguous(t, ex)
    return cast(c, dt, ex) if c is not None else None


def contiguous_pair(ex: aclOpExecutor, a: aclTensor, b: aclTensor) -> tuple[aclTensor, aclTensor] | None:
    """``l0op::Contiguous`` of ``a``, then of ``b`` (None when either fails)."""
    ac = contiguous(a, ex)
    if ac is None:
        return None
    bc = contiguous(b, ex)
    if bc is None:
        return None
    return ac, bc


def finish(ex: aclOpExecutor, result: aclTensor | None, out: aclTensor, workspaceSize: object, executor: object) -> int:
    """Cast of the result to out's dtype, ViewCopy into out, hand the executor out."""
    if result is None:
        return S.ACLNN_ERR_INNER_NULLPTR
    cast_out = cast(result, out.dtype, ex)
    if cast_out is None or view_copy(cast_out, out, ex) is None:
        return S.ACLNN_ERR_INNER_NULLPTR
    return hand_out(ex, ex.finish(), workspaceSize, executor)


def empty(ex: aclOpExecutor, workspaceSize: object, executor: object) -> int:
    """The empty-tensor short-cut: workspace 0, no kernel, SUCCESS."""
    return hand_out(ex, ex.finish(), workspaceSize, executor)
