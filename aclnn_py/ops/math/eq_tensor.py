"""aclnnEqTensor — side by side with ops-math ``math/equal/op_api/aclnn_eq_tensor.cpp``:
``out = (self == other)`` with broadcasting, cast to out's dtype.

L2_DFX_PHASE_1 -> CheckNotNull (self, other, out) -> CheckDtypeValid: on Ascend950 self, other
and out each against a list; elsewhere **only out**, against the input list; Ascend910 refuses
BFLOAT16 inputs; the promoted dtype (PromoteType; Ascend950 BinaryOpTypePromote) must exist and
be in the input list -> CheckShape (self, other, out at most 8 dims; broadcast; the broadcast
shape is out's) -> empty shortcut. Graph: Contiguous + Cast of self, then of other, to the
promoted dtype; Equal; Cast to out's dtype; ViewCopy.

aclnnInplaceEqTensor (same file): ``CheckInplace`` first (before any L2_DFX_PHASE_1), then
aclnnEqTensorGetWorkspaceSize with out = selfRef: the executor is aclnnEqTensor's.
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
from ...l0.equal import equal as l0_equal
from ...tensor import aclTensor
from .. import _l2
from . import _compare as C

S = aclnnStatus

DTYPE_SUPPORT_910_LIST = (
    DT_FLOAT, DT_INT32, DT_INT64, DT_FLOAT16, DT_INT16, DT_INT8, DT_UINT8, DT_UINT64, DT_UINT32, DT_BOOL, DT_DOUBLE,
    DT_COMPLEX64, DT_COMPLEX128,
)  # fmt: skip
DTYPE_SUPPORT_910B_LIST = (
    DT_FLOAT, DT_INT32, DT_INT64, DT_FLOAT16, DT_INT16, DT_INT8, DT_UINT8, DT_BF16, DT_BOOL, DT_DOUBLE, DT_COMPLEX64,
    DT_COMPLEX128,
)  # fmt: skip
REGBASE_DTYPE_SUPPORT_LIST = (*DTYPE_SUPPORT_910B_LIST, DT_UINT64)
REGBASE_OUT_DTYPE_SUPPORT_LIST = (
    DT_FLOAT, DT_INT32, DT_INT64, DT_FLOAT16, DT_INT16, DT_INT8, DT_UINT8, DT_DOUBLE, DT_UINT32, DT_UINT64, DT_BOOL,
    DT_UINT16, DT_COMPLEX64, DT_COMPLEX128, DT_BF16,
)  # fmt: skip
# OUT_DTYPE_SUPPORT_910_LIST / _910B_LIST exist in the file too, but only the Ascend950 out list is used.


def input_dtype_support_list() -> tuple[int, ...]:
    """``GetInputDtypeSupportList``: DAV_2201 the 910B list, DAV_3510 the regbase list, else the 910 list."""
    if C.is_regbase():
        return REGBASE_DTYPE_SUPPORT_LIST
    return DTYPE_SUPPORT_910B_LIST if C.is_2201() else DTYPE_SUPPORT_910_LIST


def out_dtype_support_list() -> tuple[int, ...]:
    """The list out is checked against: Ascend950's out list, elsewhere the input list."""
    return REGBASE_OUT_DTYPE_SUPPORT_LIST if C.is_regbase() else input_dtype_support_list()


DTYPE_FACTS = {
    "self, other (checked on Ascend950 only); the promoted dtype": input_dtype_support_list,
    "out; selfRef (in place: also checked as the input)": out_dtype_support_list,
}


def _check_dtype_valid(self: aclTensor, other: aclTensor, out: aclTensor) -> int:
    """``CheckDtypeValid``: the promoted dtype, or DT_UNDEFINED after a report."""
    supported = input_dtype_support_list()
    if C.is_regbase():
        if not (
            checks.check_dtype_support(self, supported, "self")
            and checks.check_dtype_support(other, supported, "other")
            and checks.check_dtype_support(out, REGBASE_OUT_DTYPE_SUPPORT_LIST, "out")
        ):
            return DT_UNDEFINED
    elif not checks.check_dtype_support(out, supported, "out"):
        return DT_UNDEFINED
    if C.soc_is_ascend910() and DT_BF16 in (self.dtype, other.dtype):
        op_loge(S.ACLNN_ERR_PARAM_INVALID, "The current soc version does not support the DT_BF16 data type.")
        return DT_UNDEFINED
    promote = C.tensor_promote(self, other)
    if promote == DT_UNDEFINED:
        C.report_can_not_promote(self.dtype, other.dtype)
        return DT_UNDEFINED
    if promote not in supported:
        name = dtypes.dt_name
        op_loge(
            S.ACLNN_ERR_PARAM_INVALID,
            f"Self dtype {name(self.dtype)} and other dtype {name(other.dtype)} get promoteType dtype "
            f"{name(promote)} should be in dtype support list {C.bracketed(supported)}.",
        )
        return DT_UNDEFINED
    return promote if C.check_bool_to_out(out) else DT_UNDEFINED


def _check_shape(self: aclTensor, other: aclTensor, out: aclTensor) -> bool:
    return C.check_max_dims((self, "self"), (other, "other"), (out, "out")) and C.check_broadcast_to_out(
        self, other, out, "BroadcastShape"
    )


def _check_params(self: Any, other: Any, out: Any) -> tuple[int, int]:
    """CheckNotNull, CheckDtypeValid, CheckShape: (status, promoted dtype)."""
    if not C.check_not_null(self, other, out):
        return S.ACLNN_ERR_PARAM_NULLPTR, DT_UNDEFINED
    promote = _check_dtype_valid(self, other, out)
    if promote == DT_UNDEFINED or not _check_shape(self, other, out):
        return S.ACLNN_ERR_PARAM_INVALID, DT_UNDEFINED
    return S.ACLNN_SUCCESS, promote


# after the checks: Contiguous + Cast of self, then of other, Equal
_GRAPH = C.tensor_graph(l0_equal)


@_l2.phase1("aclnnEqTensor")
def aclnnEqTensorGetWorkspaceSize(
    self: aclTensor | None, other: aclTensor | None, out: aclTensor | None, workspaceSize: Any, executor: Any
) -> int:
    """Phase 1 of aclnnEqTensor: ``out = (self == other)`` (broadcast)."""
    return C.phase1("aclnnEqTensor", self, other, out, workspaceSize, executor, _check_params, _GRAPH)


aclnnEqTensor = _l2.phase2("aclnnEqTensor")


# -- aclnnInplaceEqTensor -------------------------------------------------------------------------


def _check_inplace(selfRef: aclTensor | None, other: aclTensor | None) -> int:
    """``CheckInplace``, before any L2_DFX_PHASE_1 (its EZ1007 names no operator).

    Its null checks are ``OP_CHECK_NULL(x, return false)`` in a function returning aclnnStatus:
    ``false`` is 0, ACLNN_SUCCESS. The first null argument is reported and the call goes on to
    aclnnEqTensorGetWorkspaceSize, whose own null check reports it again and returns 161001."""
    if not checks.check_null(selfRef, "selfRef") or not checks.check_null(other, "other"):
        return S.ACLNN_SUCCESS
    assert selfRef is not None and other is not None
    shape = checks.broadcast_self_ref(selfRef, other)
    if shape is None or not checks.check_self_ref_shape(selfRef, shape):
        return S.ACLNN_ERR_PARAM_INVALID
    return S.ACLNN_SUCCESS


@_l2.phase1("aclnnInplaceEqTensor")
def aclnnInplaceEqTensorGetWorkspaceSize(
    selfRef: aclTensor | None, other: aclTensor | None, workspaceSize: Any, executor: Any
) -> int:
    """Phase 1 of aclnnInplaceEqTensor: ``selfRef = (selfRef == other)`` in selfRef's dtype, other
    broadcast to selfRef (CheckInplace, then aclnnEqTensor's phase 1 with out = selfRef)."""
    ret = _check_inplace(selfRef, other)
    if ret != S.ACLNN_SUCCESS:
        return ret
    return int(aclnnEqTensorGetWorkspaceSize(selfRef, other, selfRef, workspaceSize, executor))


# Its executor is made by aclnnEqTensorGetWorkspaceSize (L2_DFX_PHASE_1 names aclnnEqTensor).
aclnnInplaceEqTensor = _l2.phase2("aclnnInplaceEqTensor", "aclnnEqTensor")
