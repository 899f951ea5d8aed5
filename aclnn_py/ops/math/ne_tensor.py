"""aclnnNeTensor — side by side with ops-math ``math/not_equal/op_api/aclnn_ne_tensor.cpp``:
``out = (self != other)`` with broadcasting, cast to out's dtype.

L2_DFX_PHASE_1 -> (aclnnNeTensorCommon) CheckNotNull (self, other, out) -> **the empty-tensor
shortcut, before every other check** (an empty self or other succeeds whatever the dtypes and
out's shape) -> CheckDtypeValid (self, other against the input list; out against it too, or
Ascend950's out list) -> CheckPromoteType (Ascend950: the promoted dtype in the list, self and
other cast to it) -> CheckOutShape (self, other at most 8 dims — out is not checked; broadcast;
the broadcast shape is out's). A non-ND self is only a warning. Graph: Contiguous + Cast of
self, then of other; NotEqual; Cast to out's dtype; ViewCopy.

The input lists are chosen by SocVersion (Ascend910B..910E: the 910B list), the others' by
NpuArch. aclnnInplaceNeTensor (same file) has its own L2_DFX_PHASE_1, then the same Common with out = selfRef.
"""

from __future__ import annotations

from typing import Any

from ... import dtypes
from ..._status import aclnnStatus
from ...dtypes import (
    DT_BF16,
    DT_BOOL,
    DT_COMPLEX64,
    DT_COMPLEX128,
    DT_DOUBLE,
    DT_FLOAT,
    DT_FLOAT16,
    DT_INT8,
    DT_INT16,
    DT_INT32,
    DT_INT64,
    DT_UINT8,
    DT_UINT16,
    DT_UINT32,
    DT_UINT64,
    DT_UNDEFINED,
)  # fmt: skip
from ...executor import checks
from ...executor.checks import op_loge
from ...l0.not_equal import not_equal as l0_not_equal
from ...tensor import aclTensor
from .. import _l2
from . import _compare as C

S = aclnnStatus

ASCEND910_DTYPE_SUPPORT_LIST = (
    DT_FLOAT, DT_INT32, DT_INT64, DT_FLOAT16, DT_INT16, DT_INT8, DT_UINT8, DT_BOOL, DT_DOUBLE, DT_COMPLEX64,
    DT_COMPLEX128,
)  # fmt: skip
ASCEND910B_DTYPE_SUPPORT_LIST = (*ASCEND910_DTYPE_SUPPORT_LIST, DT_BF16)
REGBASE_DTYPE_SUPPORT_LIST = (*ASCEND910B_DTYPE_SUPPORT_LIST, DT_UINT64)
OUT_DTYPE_SUPPORT_REGBASE_LIST = (
    DT_FLOAT, DT_INT32, DT_INT64, DT_FLOAT16, DT_INT16, DT_INT8, DT_UINT8, DT_DOUBLE, DT_UINT32, DT_UINT64, DT_BOOL,
    DT_UINT16, DT_COMPLEX64, DT_COMPLEX128, DT_BF16,
)  # fmt: skip


def input_dtype_support_list() -> tuple[int, ...]:
    """``GetInputDtypeSupportList``: regbase list; SocVersion 910B..910E the 910B list; else the 910 list."""
    if C.is_regbase():
        return REGBASE_DTYPE_SUPPORT_LIST
    return ASCEND910B_DTYPE_SUPPORT_LIST if C.soc_910b_to_910e() else ASCEND910_DTYPE_SUPPORT_LIST


def out_dtype_support_list() -> tuple[int, ...]:
    """The list out is checked against: Ascend950's out list, elsewhere the input list."""
    return OUT_DTYPE_SUPPORT_REGBASE_LIST if C.is_regbase() else input_dtype_support_list()


DTYPE_FACTS = {
    "self, other; Ascend950: the promoted dtype": input_dtype_support_list,
    "out; selfRef (in place: also checked as the input)": out_dtype_support_list,
}


def _check_promote_type(self: aclTensor, other: aclTensor, out: aclTensor) -> int:
    """``CheckPromoteType``: the promoted dtype, or DT_UNDEFINED after a report."""
    promote = C.tensor_promote(self, other)
    if promote == DT_UNDEFINED:
        C.report_can_not_promote(self.dtype, other.dtype)
        return DT_UNDEFINED
    if C.is_regbase():
        supported = input_dtype_support_list()
        if promote not in supported:
            op_loge(
                S.ACLNN_ERR_PARAM_INVALID,
                f"promote dtype {dtypes.dt_name(promote)} should be in dtype support list {C.bracketed(supported)}.",
            )
            return DT_UNDEFINED
        if not (
            checks.check_result_dtype_cast(self.dtype, promote) and checks.check_result_dtype_cast(other.dtype, promote)
        ):
            return DT_UNDEFINED
    return promote if C.check_bool_to_out(out) else DT_UNDEFINED


def _check_params(self: aclTensor, other: aclTensor, out: aclTensor) -> tuple[int, int]:
    """``CheckParams`` (after the null checks and the empty shortcut): (status, promoted dtype)."""
    supported = input_dtype_support_list()
    if not (
        checks.check_dtype_support(self, supported, "self")
        and checks.check_dtype_support(other, supported, "other")
        and checks.check_dtype_support(out, out_dtype_support_list(), "out")
    ):
        return S.ACLNN_ERR_PARAM_INVALID, DT_UNDEFINED
    promote = _check_promote_type(self, other, out)
    if promote == DT_UNDEFINED:
        return S.ACLNN_ERR_PARAM_INVALID, DT_UNDEFINED
    if not (
        C.check_max_dims((self, "self"), (other, "other"))
        and C.check_broadcast_to_out(self, other, out, "BroadcastShape")
    ):
        return S.ACLNN_ERR_PARAM_INVALID, DT_UNDEFINED
    return S.ACLNN_SUCCESS, promote


# aclnnNeTensorCommon is C.common_empty_first (CheckNotNull, the empty shortcut, then CheckParams)
# with these: Contiguous + Cast of self, then of other, NotEqual
_GRAPH = C.tensor_graph(l0_not_equal)


@_l2.phase1("aclnnNeTensor")
def aclnnNeTensorGetWorkspaceSize(
    self: aclTensor | None, other: aclTensor | None, out: aclTensor | None, workspaceSize: Any, executor: Any
) -> int:
    """Phase 1 of aclnnNeTensor: ``out = (self != other)`` (broadcast)."""
    return C.phase1(
        "aclnnNeTensor", self, other, out, workspaceSize, executor, _check_params, _GRAPH, C.common_empty_first
    )


aclnnNeTensor = _l2.phase2("aclnnNeTensor")


@_l2.phase1("aclnnInplaceNeTensor")
def aclnnInplaceNeTensorGetWorkspaceSize(
    selfRef: aclTensor | None, other: aclTensor | None, workspaceSize: Any, executor: Any
) -> int:
    """Phase 1 of aclnnInplaceNeTensor: ``selfRef = (selfRef != other)`` in selfRef's dtype (its own
    L2_DFX_PHASE_1, then aclnnNeTensorCommon with out = selfRef)."""
    return C.phase1_inplace(
        "aclnnInplaceNeTensor", selfRef, other, workspaceSize, executor, _check_params, _GRAPH, C.common_empty_first
    )


aclnnInplaceNeTensor = _l2.phase2("aclnnInplaceNeTensor")
