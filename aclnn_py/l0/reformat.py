"""``l0op::ReFormat`` — ops-math ``conversion/trans_data``: relabels formats, no kernel."""

from __future__ import annotations

from .. import dtypes
from ..executor.executor import aclOpExecutor
from ..tensor import aclTensor


def reformat(x: aclTensor, fmt: int, ex: aclOpExecutor) -> aclTensor:
    """``l0op::ReFormat(x, format)`` without an executor: relabels x's formats *in place*
    (this can be the caller's own input tensor) and adds no kernel."""
    step = ex.step("ReFormat", [x], format=dtypes.format_name(fmt))
    x.view_format = x.storage_format = x.origin_format = fmt
    step.outputs = [x]
    step.note = "no kernel: formats relabelled in place"
    return x
