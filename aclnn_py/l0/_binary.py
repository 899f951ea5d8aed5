"""The pattern most elementwise l0 ops share: broadcast the two inputs, pick AI Core or AI CPU
by dtype and chip, add one launch."""

from __future__ import annotations

from collections.abc import Collection, Mapping

from .. import _errmsg, dtypes
from .. import soc as _soc
from .._status import aclnnStatus
from ..executor.executor import Compute, aclOpExecutor
from ..tensor import aclTensor
from . import launch

S = aclnnStatus


def by_arch(lists: Mapping[str, Collection[int]], default: Collection[int]) -> Collection[int]:
    """A per-NpuArch dtype list (``switch (npuArch)`` with a default)."""
    return lists.get(_soc.current().npu_arch, default)


def elementwise(
    ex: aclOpExecutor,
    op: str,
    inputs: list[aclTensor],
    out_dtype: int,
    aicore: bool,
    compute: Compute,
    shape: tuple[int, ...] | None = None,
    *,
    failure: launch.OnFailure | None,
    **attrs: object,
) -> aclTensor | None:
    """Infer the broadcast shape of ``inputs`` (or take ``shape``), allocate the output, launch
    ``<op>`` on AI Core or AI CPU. None (reported) when the shapes do not broadcast or the
    tiling refuses them and the op checks the status (``failure``: the op's report, see
    :func:`launch.aicore`)."""
    if shape is None:
        out_shape: tuple[int, ...] | None = inputs[0].view_shape
        for t in inputs[1:]:
            assert out_shape is not None
            out_shape, _ = dtypes.broadcast_infer_shape(out_shape, t.view_shape)
            if out_shape is None:
                _errmsg.report_code(
                    S.ACLNN_ERR_PARAM_INVALID,
                    f"Broadcast {dtypes.shape_str(inputs[0].view_shape)} and {dtypes.shape_str(t.view_shape)} failed.",
                )
                return None
        assert out_shape is not None
        shape = out_shape
    step = ex.step(op, list(inputs), **attrs)
    out = ex.alloc_tensor(shape, out_dtype)
    if aicore:
        ln = launch.aicore(ex, step, op, list(inputs), [out], compute, failure=failure, **attrs)
        if ln is None and failure is not None:  # an op that ignores the status goes on with out
            return None
    else:
        launch.aicpu(ex, step, op, list(inputs), [out], compute, **attrs)
    step.outputs = [out]
    return out
