"""aclnnInplaceOne — side by side with ops-math ``math/ones_like/op_api/aclnn_ones.cpp``:
``selfRef = 1``.

L2_DFX_PHASE_1 -> CheckNotNull (self) -> self in the chip's list (SocVersion Ascend910B/910_93
or regbase: with BFLOAT16) -> self at most 8 dims -> empty shortcut. Graph: Contiguous(selfRef)
-> OnesLike -> ViewCopy(selfRef) (the phase 1 aclnnInplaceZero shares: ``_fill_like``).
"""

from __future__ import annotations

from typing import Any

from ... import soc as _soc
from ..._status import aclnnStatus
from ...dtypes import DT_BF16, DT_BOOL, DT_DOUBLE, DT_FLOAT, DT_FLOAT16, DT_INT8, DT_INT16, DT_INT32, DT_INT64, DT_UINT8
from ...executor import checks
from ...executor.checks import MAX_SUPPORT_DIMS_NUMS
from ...l0.ones_like import ones_like
from ...tensor import aclTensor
from .. import _l2
from . import _fill_like

S = aclnnStatus
API = "aclnnInplaceOne"

ASCEND910_DTYPE_SUPPORT_LIST = (
    DT_FLOAT, DT_FLOAT16, DT_INT8, DT_INT16, DT_INT32, DT_INT64, DT_UINT8, DT_BOOL, DT_DOUBLE,
)  # fmt: skip
ASCEND910B_DTYPE_SUPPORT_LIST = (*ASCEND910_DTYPE_SUPPORT_LIST, DT_BF16)


def dtype_support_list() -> tuple[int, ...]:
    """By SocVersion: Ascend910B, Ascend910_93 or regbase (Ascend950) the list with BFLOAT16."""
    soc = _soc.current()
    if soc.family in ("Ascend910B", "Ascend910_93") or soc.is_regbase:
        return ASCEND910B_DTYPE_SUPPORT_LIST
    return ASCEND910_DTYPE_SUPPORT_LIST


DTYPE_FACTS = {"selfRef": dtype_support_list}


def _check_params(selfRef: Any) -> int:
    if not checks.check_null(selfRef, "self"):
        return S.ACLNN_ERR_PARAM_NULLPTR
    if not checks.check_dtype_support(selfRef, dtype_support_list(), "self"):
        return S.ACLNN_ERR_PARAM_INVALID
    if not checks.check_max_dim(selfRef, MAX_SUPPORT_DIMS_NUMS, "self"):
        return S.ACLNN_ERR_PARAM_INVALID
    return S.ACLNN_SUCCESS


@_l2.phase1(API)
def aclnnInplaceOneGetWorkspaceSize(selfRef: aclTensor | None, workspaceSize: Any, executor: Any) -> int:
    """Phase 1 of aclnnInplaceOne: fill ``selfRef`` with ones."""
    return _fill_like.phase1(API, selfRef, workspaceSize, executor, _check_params, ones_like)


aclnnInplaceOne = _l2.phase2(API)
