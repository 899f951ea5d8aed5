"""aclnnMinimum — side by side with ops-math ``math/minimum/op_api/aclnn_minimum.cpp``:
``out = min(self, other)`` elementwise with broadcasting; BOOL is a logical and (LogicalAnd).

The checks and the graph are shared with aclnnMaximum (``_compare_minmax``). The code's 910
list has BOOL although the document says Ascend910/310P support no BOOL. NaN and signed zeros:
see ``kernels/minmax.py``.
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
from ...l0.logical_and import logical_and as l0_logical_and
from ...l0.minimum import minimum as l0_minimum
from ...tensor import aclTensor
from .. import _l2
from . import _compare as C
from ._compare_minmax import phase1

ASCEND910_DTYPE_SUPPORT_LIST = (
    DT_FLOAT, DT_INT32, DT_INT64, DT_FLOAT16, DT_INT16, DT_INT8, DT_UINT8, DT_DOUBLE, DT_BOOL,
)  # fmt: skip
ASCEND910B_DTYPE_SUPPORT_LIST = (
    DT_FLOAT, DT_INT32, DT_INT64, DT_FLOAT16, DT_INT16, DT_INT8, DT_UINT8, DT_DOUBLE, DT_BOOL, DT_BF16,
)  # fmt: skip


def dtype_support_list() -> tuple[int, ...]:
    """``GetDtypeSupportList``: SocVersion Ascend910B..910E the 910B list, else the 910 list."""
    return ASCEND910B_DTYPE_SUPPORT_LIST if C.soc_910b_to_910e() else ASCEND910_DTYPE_SUPPORT_LIST


DTYPE_FACTS = {"self, other, out": dtype_support_list}


@_l2.phase1("aclnnMinimum")
def aclnnMinimumGetWorkspaceSize(
    self: aclTensor | None, other: aclTensor | None, out: aclTensor | None, workspaceSize: Any, executor: Any
) -> int:
    """Phase 1 of aclnnMinimum: ``out = min(self, other)`` (broadcast)."""
    return phase1(
        "aclnnMinimum", self, other, out, workspaceSize, executor, dtype_support_list, l0_minimum, l0_logical_and
    )


aclnnMinimum = _l2.phase2("aclnnMinimum")
