"""``l0op::ReFormat`` — ops-math ``conversion/trans_data/op_api/transdata.cpp``: relabels formats,
no kernel.

A format of fixed rank (``kFormatRank``; ND, FRACTAL_NZ ... have none) needs x's view shape to
have that rank, for every caller: else 161002 is reported and nullptr returned. Called without
an executor, as every CANN caller here does, ReFormat relabels x itself.
"""

from __future__ import annotations

from .. import _errmsg, dtypes
from .._status import aclnnStatus
from ..executor.executor import aclOpExecutor
from ..tensor import aclTensor

# kFormatRank through kFormatIndex: the formats with a fixed rank
FORMAT_RANK = {0: 4, 1: 4, 3: 5, 4: 4, 12: 5, 13: 4, 16: 4, 27: 5, 30: 5, 31: 5, 32: 6, 33: 4, 47: 3}


def reformat(x: aclTensor, fmt: int, ex: aclOpExecutor) -> aclTensor | None:
    """``l0op::ReFormat(x, format)``: x relabelled *in place* (this can be the caller's own input
    tensor), or None when x's rank does not fit the format (``ex`` records the step)."""
    rank = FORMAT_RANK.get(fmt)
    if rank is not None and rank != x.rank:
        _errmsg.report_code(
            aclnnStatus.ACLNN_ERR_PARAM_INVALID,
            f"input tensor shape's rank does not match format, format is: {dtypes.format_name(fmt)}, "
            f"shape is: {dtypes.shape_str(x.view_shape)}.",
        )
        return None
    step = ex.step("ReFormat", [x], format=dtypes.format_name(fmt))
    x.view_format = x.storage_format = x.origin_format = fmt
    step.outputs = [x]
    step.note = "no kernel: formats relabelled in place"
    return x
