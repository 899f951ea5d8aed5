"""aclnnInplaceOne — side by side with ops-math ``math/ones_like/op_api/aclnn_ones.cpp``:
``selfRef = 1``.

L2_DFX_PHASE_1 -> CheckNotNull (self) -> self in the chip's list (SocVersion Ascend910B/910_93
or regbase: with BFLOAT16) -> self at most 8 dims -> empty shortcut. Graph: Contiguous(selfRef)
-> OnesLike -> ViewCopy(selfRef).
"""

from __future__ import annotations

from typing import Any

from ... import soc as _soc
from ..._status import aclnnStatus
from ...dtypes import DT_BF16, DT_BOOL, DT_DOUBLE, DT_FLOAT, DT_FLOAT16, DT_INT8, DT_INT16, DT_INT32, DT_INT64, DT_UINT8
from ...executor import checks
from ...executor.api import hand_out
from ...executor.checks import MAX_SUPPORT_DIMS_NUMS
from ...l0.contiguous import contiguous, view_copy
from ...l0.ones_like import ones_like
from ...tensor import aclTensor
from .. import _l2

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
    ex = _l2.l2_dfx_phase1(API, workspaceSize, executor, selfRef=selfRef)
    if ex is None:  # an op-cache hit
        return S.ACLNN_SUCCESS
    ret = _check_params(selfRef)
    if ret != S.ACLNN_SUCCESS:
        return ret
    assert selfRef is not None
    ex.bind_arguments(selfRef=selfRef)
    if selfRef.is_empty():
        return hand_out(ex, ex.finish(), workspaceSize, executor)
    self_c = contiguous(selfRef, ex)
    if self_c is None:
        return S.ACLNN_ERR_INNER_NULLPTR
    ones_out = ones_like(self_c, ex)
    if ones_out is None or view_copy(ones_out, selfRef, ex) is None:
        return S.ACLNN_ERR_INNER_NULLPTR
    return hand_out(ex, ex.finish(), workspaceSize, executor)


aclnnInplaceOne = _l2.phase2(API)
