"""aclnnMaximum — side by side with ops-math ``math/maximum/op_api/aclnn_maximum.cpp``:
``out = max(self, other)`` elementwise with broadcasting; BOOL is a logical or (LogicalOr).

The checks and the graph are shared with aclnnMinimum (``_compare_minmax``); the list (chosen by
SocVersion: Ascend910B..910E the 910B list, Ascend950 included) is checked for self, other
and out. NaN and signed zeros: see ``kernels/minmax.py``.
"""

from __future__ import annotations

from typing import Any

from ...dtypes import (
    DT_BF16,
    DT_BOOL,
    DT_DOUBLE,
    DT_FLOAT,
    DT_FLOAT16,
    DT_INT8,
    DT_INT16,
    DT_INT32,
    DT_INT64,
    DT_UINT8,
)  # fmt: skip
from ...l0.logical_or import logical_or as l0_logical_or
from ...l0.maximum import maximum as l0_maximum
from ...tensor import aclTensor
from .. import _l2
from . import _compare as C
from ._compare_minmax import phase1

# AI Core dtypes first, then those the AI CPU computes (the file's own grouping)
ASCEND910_DTYPE_SUPPORT_LIST = (
    DT_FLOAT, DT_FLOAT16, DT_INT32, DT_INT8, DT_INT64, DT_INT16, DT_UINT8, DT_DOUBLE, DT_BOOL,
)  # fmt: skip
ASCEND910B_DTYPE_SUPPORT_LIST = (
    DT_FLOAT, DT_FLOAT16, DT_INT32, DT_INT8, DT_INT64, DT_BF16, DT_INT16, DT_UINT8, DT_DOUBLE, DT_BOOL,
)  # fmt: skip


def dtype_support_list() -> tuple[int, ...]:
    """``GetDtypeSupportList``: SocVersion Ascend910B..910E the 910B list, else the 910 list."""
    return ASCEND910B_DTYPE_SUPPORT_LIST if C.soc_910b_to_910e() else ASCEND910_DTYPE_SUPPORT_LIST


DTYPE_FACTS = {"self, other, out": dtype_support_list}


@_l2.phase1("aclnnMaximum")
def aclnnMaximumGetWorkspaceSize(
    self: aclTensor | None, other: aclTensor | None, out: aclTensor | None, workspaceSize: Any, executor: Any
) -> int:
    """Phase 1 of aclnnMaximum: ``out = max(self, other)`` (broadcast)."""
    return phase1(
        "aclnnMaximum", self, other, out, workspaceSize, executor, dtype_support_list, l0_maximum, l0_logical_or
    )


aclnnMaximum = _l2.phase2("aclnnMaximum")
