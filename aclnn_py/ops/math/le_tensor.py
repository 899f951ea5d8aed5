"""aclnnLeTensor — side by side with ops-math ``math/less_equal/op_api/aclnn_le_tensor.cpp``:
``out = (self <= other)`` with broadcasting, cast to out's dtype.

L2_DFX_PHASE_1 -> (aclnnLeTensorCommon) CheckNotNull (self, other, out) -> **the empty-tensor
shortcut, before every other check** -> CheckDtypeValid (self, other against the input list;
out against the input list — Ascend950: the out list — or BOOL: ``Out dtype %s should be in
dtype support list [[...]].``) -> CheckPromoteType (PromoteType; Ascend950 BinaryOpTypePromote,
in the list, self and other cast to it) -> CheckOutShape (self, other, out at most 8 dims;
broadcast; the broadcast shape is out's) -> **BOOL is compared as FLOAT, on every chip**.
Graph: Contiguous + Cast of self, then of other; LessEqual; Cast to out's dtype; ViewCopy.

aclnnInplaceLeTensor (same file) has its own L2_DFX_PHASE_1, then the same Common with out = selfRef.
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
from ...executor.executor import aclOpExecutor
from ...l0.less_equal import less_equal as l0_less_equal
from ...tensor import aclTensor
from .. import _l2
from . import _compare as C

S = aclnnStatus

ASCEND910_DTYPE_SUPPORT_LIST = (
    DT_INT8, DT_UINT8, DT_INT16, DT_UINT16, DT_INT32, DT_INT64, DT_FLOAT16, DT_FLOAT, DT_DOUBLE, DT_BOOL,
)  # fmt: skip
ASCEND910B_DTYPE_SUPPORT_LIST = (*ASCEND910_DTYPE_SUPPORT_LIST, DT_BF16)
REGBASE_DTYPE_SUPPORT_LIST = (*ASCEND910B_DTYPE_SUPPORT_LIST, DT_UINT64)
OUT_DTYPE_SUPPORT_910_LIST = (
    DT_FLOAT, DT_INT32, DT_INT64, DT_FLOAT16, DT_INT16, DT_INT8, DT_UINT8, DT_DOUBLE, DT_UINT32, DT_UINT64, DT_BOOL,
    DT_UINT16, DT_COMPLEX64, DT_COMPLEX128,
)  # fmt: skip
REGBASE_OUT_DTYPE_SUPPORT_LIST = (*OUT_DTYPE_SUPPORT_910_LIST, DT_BF16)


def dtype_support_list() -> tuple[int, ...]:
    """``GetDtypeSupportList``: Ascend950 its list, DAV_2201 the 910B list, else the 910 list."""
    if C.is_regbase():
        return REGBASE_DTYPE_SUPPORT_LIST
    return ASCEND910B_DTYPE_SUPPORT_LIST if C.is_2201() else ASCEND910_DTYPE_SUPPORT_LIST


def checked_out_list() -> tuple[int, ...]:
    """What out is checked against (BOOL is accepted besides): Ascend950 the out list (its
    ``GetOutDtypeSupportList``), elsewhere the input list."""
    return REGBASE_OUT_DTYPE_SUPPORT_LIST if C.is_regbase() else dtype_support_list()


DTYPE_FACTS = {
    "self, other; Ascend950: the promoted dtype": dtype_support_list,
    "out (BOOL is accepted too); selfRef (in place: also checked as the input)": checked_out_list,
}


def _check_dtype_valid(self: aclTensor, other: aclTensor, out: aclTensor) -> bool:
    supported = dtype_support_list()
    if not (
        checks.check_dtype_support(self, supported, "self") and checks.check_dtype_support(other, supported, "other")
    ):
        return False
    out_list = checked_out_list()
    if out.dtype not in out_list and out.dtype != DT_BOOL:
        op_loge(
            S.ACLNN_ERR_PARAM_INVALID,
            f"Out dtype {dtypes.dt_name(out.dtype)} should be in dtype support list {C.bracketed(out_list)}.",
        )
        return False
    return True


def _check_promote_type(self: aclTensor, other: aclTensor, out: aclTensor) -> int:
    promote = C.tensor_promote(self, other)
    if promote == DT_UNDEFINED:
        C.report_can_not_promote(self.dtype, other.dtype)
        return DT_UNDEFINED
    if C.is_regbase():
        supported = dtype_support_list()
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
    if not _check_dtype_valid(self, other, out):
        return S.ACLNN_ERR_PARAM_INVALID, DT_UNDEFINED
    promote = _check_promote_type(self, other, out)
    if promote == DT_UNDEFINED:
        return S.ACLNN_ERR_PARAM_INVALID, DT_UNDEFINED
    if not (
        C.check_max_dims((self, "self"), (other, "other"), (out, "out"))
        and C.check_broadcast_to_out(self, other, out, "BroadcastShape")
    ):
        return S.ACLNN_ERR_PARAM_INVALID, DT_UNDEFINED
    return S.ACLNN_SUCCESS, promote


_TENSOR_GRAPH = C.tensor_graph(l0_less_equal)


def _graph(ex: aclOpExecutor, self: aclTensor, other: aclTensor, promote: int) -> aclTensor | None:
    """aclnnLeTensorCommon's l0 calls: Contiguous + Cast of self, then of other, LessEqual — BOOL
    compared as FLOAT (on every chip)."""
    return _TENSOR_GRAPH(ex, self, other, DT_FLOAT if promote == DT_BOOL else promote)


# aclnnLeTensorCommon is C.common_empty_first: CheckNotNull, the empty shortcut, then CheckParams


@_l2.phase1("aclnnLeTensor")
def aclnnLeTensorGetWorkspaceSize(
    self: aclTensor | None, other: aclTensor | None, out: aclTensor | None, workspaceSize: Any, executor: Any
) -> int:
    """Phase 1 of aclnnLeTensor: ``out = (self <= other)`` (broadcast)."""
    return C.phase1(
        "aclnnLeTensor", self, other, out, workspaceSize, executor, _check_params, _graph, C.common_empty_first
    )


aclnnLeTensor = _l2.phase2("aclnnLeTensor")


@_l2.phase1("aclnnInplaceLeTensor")
def aclnnInplaceLeTensorGetWorkspaceSize(
    selfRef: aclTensor | None, other: aclTensor | None, workspaceSize: Any, executor: Any
) -> int:
    """Phase 1 of aclnnInplaceLeTensor: ``selfRef = (selfRef <= other)`` in selfRef's dtype (its own
    L2_DFX_PHASE_1, then aclnnLeTensorCommon with out = selfRef)."""
    return C.phase1_inplace(
        "aclnnInplaceLeTensor", selfRef, other, workspaceSize, executor, _check_params, _graph, C.common_empty_first
    )


aclnnInplaceLeTensor = _l2.phase2("aclnnInplaceLeTensor")
