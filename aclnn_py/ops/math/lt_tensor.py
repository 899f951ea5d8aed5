"""aclnnLtTensor — side by side with ops-math ``math/less/op_api/aclnn_lt_tensor.cpp``:
``out = (self < other)`` with broadcasting, cast to out's dtype.

L2_DFX_PHASE_1 -> CheckNotNull (self, other, out) -> CheckDtypeValid (self, other against the
input list; out against **the input list** too, except on Ascend950, which has an out list
with COMPLEX) -> CheckPromoteType (PromoteType; Ascend950 BinaryOpTypePromote; must exist; on
Ascend950 in the list) -> CheckShape (self, other at most 8 dims — not out; broadcast; ``Shape
of out should be ...``) -> empty shortcut -> **BOOL is compared as UINT8** (after the checks).
Graph: Contiguous + Cast of self, then of other; Less; Cast to out's dtype; ViewCopy.

The lists are chosen by SocVersion (Ascend910B..910E: the 910B lists, Ascend950 included).
aclnnInplaceLtTensor (same file) calls aclnnLtTensorGetWorkspaceSize with out = selfRef: no check
or L2_DFX_PHASE_1 of its own, the executor is aclnnLtTensor's.
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
from ...l0.less import less as l0_less
from ...tensor import aclTensor
from .. import _l2
from . import _compare as C

S = aclnnStatus

ASCEND910_DTYPE_SUPPORT_LIST = (
    DT_FLOAT, DT_INT32, DT_INT64, DT_FLOAT16, DT_INT16, DT_INT8, DT_UINT8, DT_DOUBLE, DT_UINT32, DT_UINT64, DT_BOOL,
    DT_UINT16,
)  # fmt: skip
ASCEND910B_DTYPE_SUPPORT_LIST = (*ASCEND910_DTYPE_SUPPORT_LIST, DT_BF16)
ASCEND910_OUT_DTYPE_SUPPORT_LIST = (
    DT_INT64, DT_UINT64, DT_INT32, DT_UINT32, DT_INT16, DT_UINT16, DT_INT8, DT_UINT8, DT_DOUBLE, DT_FLOAT,
    DT_FLOAT16, DT_BOOL, DT_COMPLEX128, DT_COMPLEX64,
)  # fmt: skip
ASCEND910B_OUT_DTYPE_SUPPORT_LIST = (
    DT_INT64, DT_UINT64, DT_INT32, DT_UINT32, DT_INT16, DT_UINT16, DT_INT8, DT_UINT8, DT_DOUBLE, DT_FLOAT,
    DT_FLOAT16, DT_BF16, DT_BOOL, DT_COMPLEX128, DT_COMPLEX64,
)  # fmt: skip


def dtype_support_list() -> tuple[int, ...]:
    """``GetDtypeSupportList``: SocVersion Ascend910B..910E the 910B list, else the 910 list."""
    return ASCEND910B_DTYPE_SUPPORT_LIST if C.soc_910b_to_910e() else ASCEND910_DTYPE_SUPPORT_LIST


def out_dtype_support_list() -> tuple[int, ...]:
    """``GetOutDtypeSupportList``, by SocVersion likewise."""
    return ASCEND910B_OUT_DTYPE_SUPPORT_LIST if C.soc_910b_to_910e() else ASCEND910_OUT_DTYPE_SUPPORT_LIST


def checked_out_list() -> tuple[int, ...]:
    """What out is checked against: the out list on Ascend950, the input list elsewhere."""
    return out_dtype_support_list() if C.is_regbase() else dtype_support_list()


DTYPE_FACTS = {
    "self, other; Ascend950: the promoted dtype": dtype_support_list,
    "out; selfRef (in place: also checked as the input)": checked_out_list,
}


def _check_params(self: Any, other: Any, out: Any) -> tuple[int, int]:
    """``CheckParams``: (status, promoted dtype)."""
    if not C.check_not_null(self, other, out):
        return S.ACLNN_ERR_PARAM_NULLPTR, DT_UNDEFINED
    supported = dtype_support_list()
    if not (
        checks.check_dtype_support(self, supported, "self")
        and checks.check_dtype_support(other, supported, "other")
        and checks.check_dtype_support(out, checked_out_list(), "out")
    ):
        return S.ACLNN_ERR_PARAM_INVALID, DT_UNDEFINED
    promote = C.tensor_promote(self, other)
    if promote == DT_UNDEFINED:
        C.report_can_not_promote(self.dtype, other.dtype)
        return S.ACLNN_ERR_PARAM_INVALID, DT_UNDEFINED
    if C.is_regbase() and promote not in supported:
        op_loge(
            S.ACLNN_ERR_PARAM_INVALID,
            f"aclnnLtTensor not implemented for input promote dtype {dtypes.dt_name(promote)}.",
        )
        return S.ACLNN_ERR_PARAM_INVALID, DT_UNDEFINED
    if not (
        C.check_bool_to_out(out)
        and C.check_max_dims((self, "self"), (other, "other"))
        and C.check_broadcast_to_out(self, other, out, "Shape of out")
    ):
        return S.ACLNN_ERR_PARAM_INVALID, DT_UNDEFINED
    return S.ACLNN_SUCCESS, promote


_TENSOR_GRAPH = C.tensor_graph(l0_less)


def _graph(ex: aclOpExecutor, self: aclTensor, other: aclTensor, promote: int) -> aclTensor | None:
    """After the checks: Contiguous + Cast of self, then of other, Less — BOOL compared as UINT8."""
    return _TENSOR_GRAPH(ex, self, other, DT_UINT8 if promote == DT_BOOL else promote)


@_l2.phase1("aclnnLtTensor")
def aclnnLtTensorGetWorkspaceSize(
    self: aclTensor | None, other: aclTensor | None, out: aclTensor | None, workspaceSize: Any, executor: Any
) -> int:
    """Phase 1 of aclnnLtTensor: ``out = (self < other)`` (broadcast)."""
    return C.phase1("aclnnLtTensor", self, other, out, workspaceSize, executor, _check_params, _graph)


aclnnLtTensor = _l2.phase2("aclnnLtTensor")


@_l2.phase1("aclnnInplaceLtTensor")
def aclnnInplaceLtTensorGetWorkspaceSize(
    selfRef: aclTensor | None, other: aclTensor | None, workspaceSize: Any, executor: Any
) -> int:
    """Phase 1 of aclnnInplaceLtTensor: ``selfRef = (selfRef < other)`` in selfRef's dtype
    (aclnnLtTensor's phase 1 with out = selfRef: its checks, its messages, its executor)."""
    return int(aclnnLtTensorGetWorkspaceSize(selfRef, other, selfRef, workspaceSize, executor))


# Its executor is made by aclnnLtTensorGetWorkspaceSize (L2_DFX_PHASE_1 names aclnnLtTensor).
aclnnInplaceLtTensor = _l2.phase2("aclnnInplaceLtTensor", "aclnnLtTensor")
