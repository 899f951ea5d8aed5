"""aclnnGeScalar — side by side with ops-math ``math/greater_equal/op_api/aclnn_ge_scalar.cpp``:
``out = (self >= other)`` with a scalar ``other``, cast to out's dtype.

L2_DFX_PHASE_1 -> (aclnnGeScalarCommon) CheckNotNull (self, other, out) -> CheckDtypeValid:
Ascend950 only, self against its list; out against the out list (or BFLOAT16 on DAV_2201 and
Ascend950). **The scalar's dtype is never checked**, and off Ascend950 neither is self's ->
CheckPromoteType (Gt's promotion: Ascend950 the regbase one with self and the scalar cast to
it; elsewhere PromoteType with the DOUBLE-scalar rule; BOOL as INT8; the result must exist and
be in the input list, or BFLOAT16 on DAV_2201/950) -> CheckShape (self, out at most 8 dims;
``OP_CHECK_SHAPE_NOT_EQUAL(out, self)``) -> empty shortcut. Graph: Contiguous of self, the
scalar converted to a 0-d tensor, Cast of self, GreaterEqual, Cast to out's dtype, ViewCopy.

Two of its messages join two literals with no space: ``...for out dtype DT_X,should be ...``.
aclnnInplaceGeScalar (same file) has its own L2_DFX_PHASE_1, then the same Common with out = selfRef.
"""

from __future__ import annotations

from typing import Any

from ... import dtypes
from ..._status import aclnnStatus
from ...dtypes import DT_BF16, DT_BOOL, DT_UNDEFINED
from ...executor import checks
from ...executor.checks import op_loge
from ...executor.executor import aclOpExecutor
from ...l0.greater_equal import greater_equal as l0_greater_equal
from ...tensor import aclScalar, aclTensor
from .. import _l2
from . import _compare as C
from .ge_tensor import ASCEND910_DTYPE_DTYPE_SUPPORT_LIST, ASCEND910B_DTYPE_DTYPE_SUPPORT_LIST, OUT_DTYPE_SUPPORT_LIST

S = aclnnStatus

REGBASE_DTYPE_SUPPORT_LIST = (*ASCEND910_DTYPE_DTYPE_SUPPORT_LIST, DT_BOOL, DT_BF16)


def check_soc_extra_type(dt: int) -> bool:
    """``CheckSocExtraType``: BFLOAT16 on DAV_2201 or Ascend950."""
    return dt == DT_BF16 and C.is_2201_or_regbase()


def dtype_support_list() -> tuple[int, ...]:
    """``GetDtypeSupportList``: Ascend950 its list (with BOOL), DAV_2201 the 910B list, else the 910 list."""
    if C.is_regbase():
        return REGBASE_DTYPE_SUPPORT_LIST
    return ASCEND910B_DTYPE_DTYPE_SUPPORT_LIST if C.is_2201() else ASCEND910_DTYPE_DTYPE_SUPPORT_LIST


def out_dtype_support_list() -> tuple[int, ...]:
    return OUT_DTYPE_SUPPORT_LIST


DTYPE_FACTS = {
    "the promoted dtype; Ascend950: also self (the scalar is never checked; BOOL is compared as INT8)": (
        dtype_support_list
    ),
    "out; selfRef": out_dtype_support_list,  # in place: the input row checks the promoted dtype
}


def _check_dtype_valid(self: aclTensor, out: aclTensor) -> bool:
    if C.is_regbase() and not checks.check_dtype_support(self, dtype_support_list(), "self"):
        return False
    if out.dtype not in OUT_DTYPE_SUPPORT_LIST and not check_soc_extra_type(out.dtype):
        op_loge(
            S.ACLNN_ERR_PARAM_INVALID,
            f"aclnnGeScalar not implemented for out dtype {dtypes.dt_name(out.dtype)},"
            f"should be in dtype support list {dtypes.dt_list_str(OUT_DTYPE_SUPPORT_LIST)}.",
        )
        return False
    return True


def _check_promote_type(self: aclTensor, other: aclScalar, out: aclTensor) -> int:
    """``CheckPromoteType``: the promoted dtype, or DT_UNDEFINED after a report."""
    supported = dtype_support_list()
    promote = C.gt_ge_scalar_promote(self.dtype, other)
    if C.is_regbase() and not (
        checks.check_result_dtype_cast(self.dtype, promote) and checks.check_result_dtype_cast(other.dtype, promote)
    ):
        return DT_UNDEFINED
    if promote == DT_UNDEFINED:
        C.report_can_not_promote(self.dtype, other.dtype)
        return DT_UNDEFINED
    if promote not in supported and not check_soc_extra_type(promote):
        op_loge(
            S.ACLNN_ERR_PARAM_INVALID,
            f"aclnnGeScalar not implemented for input dtype {dtypes.dt_name(promote)},"
            f"should be in dtype support list {dtypes.dt_list_str(supported)}.",
        )
        return DT_UNDEFINED
    return promote if C.check_bool_to_out(out) else DT_UNDEFINED


def _check_params(self: Any, other: Any, out: Any) -> tuple[int, int]:
    """``CheckParams``: (status, promoted dtype)."""
    if not C.check_not_null(self, other, out, "aclScalar"):
        return S.ACLNN_ERR_PARAM_NULLPTR, DT_UNDEFINED
    if not _check_dtype_valid(self, out):
        return S.ACLNN_ERR_PARAM_INVALID, DT_UNDEFINED
    promote = _check_promote_type(self, other, out)
    if promote == DT_UNDEFINED:
        return S.ACLNN_ERR_PARAM_INVALID, DT_UNDEFINED
    if not (C.check_max_dims((self, "self"), (out, "out")) and checks.check_shape_equal(out, self, "out", "self")):
        return S.ACLNN_ERR_PARAM_INVALID, DT_UNDEFINED
    return S.ACLNN_SUCCESS, promote


def _graph(ex: aclOpExecutor, self: aclTensor, other: aclScalar, promote: int) -> aclTensor | None:
    """aclnnGeScalarCommon's l0 calls: Contiguous of self, the scalar converted **before** self's
    Cast, GreaterEqual."""
    operands = C.converted_before_cast(ex, self, other, promote)
    return None if operands is None else l0_greater_equal(*operands, ex)


@_l2.phase1("aclnnGeScalar")
def aclnnGeScalarGetWorkspaceSize(
    self: aclTensor | None, other: aclScalar | None, out: aclTensor | None, workspaceSize: Any, executor: Any
) -> int:
    """Phase 1 of aclnnGeScalar: ``out = (self >= other)`` with a scalar ``other``."""
    return C.phase1("aclnnGeScalar", self, other, out, workspaceSize, executor, _check_params, _graph)


aclnnGeScalar = _l2.phase2("aclnnGeScalar")


@_l2.phase1("aclnnInplaceGeScalar")
def aclnnInplaceGeScalarGetWorkspaceSize(
    selfRef: aclTensor | None, other: aclScalar | None, workspaceSize: Any, executor: Any
) -> int:
    """Phase 1 of aclnnInplaceGeScalar: ``selfRef = (selfRef >= other)`` in selfRef's dtype (its own
    L2_DFX_PHASE_1, then aclnnGeScalarCommon with out = selfRef)."""
    return C.phase1_inplace("aclnnInplaceGeScalar", selfRef, other, workspaceSize, executor, _check_params, _graph)


aclnnInplaceGeScalar = _l2.phase2("aclnnInplaceGeScalar")
