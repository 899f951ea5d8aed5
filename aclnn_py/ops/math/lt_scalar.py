"""aclnnLtScalar — side by side with ops-math ``math/less/op_api/aclnn_lt_scalar.cpp``:
``out = (self < other)`` with a scalar ``other``, cast to out's dtype. Two different paths.

Off Ascend950 the scalar is made a tensor **before** any check, and the tensor checks run:
L2_DFX_PHASE_1 -> a null other, then a null self, returns 561103 **with no message** (CHECK_RET)
-> the scalar becomes a 0-d tensor of D (self's dtype if self is floating; FLOAT for a DOUBLE
scalar; else the scalar's dtype) -> CheckParams(self, that tensor, out): out non-null; self,
``other`` (dtype D) and out against the input list; PromoteType(self, D) exists; self and the
0-d other at most 8 dims, their broadcast (self's shape) is out's (``Shape of out should be``)
-> empty shortcut -> PromoteType(self, D), BOOL compared as UINT8. Graph: Contiguous + Cast of
self, **a Cast of the 0-d scalar tensor** (a real kernel when D differs), Less, Cast, ViewCopy.

On Ascend950 (``aclnnLtScalarGetWorkspaceSizeV35``): a null other, then self, returns 161001
with no message -> the regbase promotion (BOOL as UINT8) -> CheckParamsScalar: self, other, out
non-null; self and the scalar against the input list, out against the out list; the promoted
dtype exists, is in the list and self, the scalar and BOOL cast to it; self and out at most 8
dims and of one shape -> empty shortcut. Graph: Contiguous of self, the scalar converted to the
promoted dtype, Cast of self, Cast of the scalar tensor (no kernel), Less, Cast, ViewCopy.

aclnnInplaceLtScalar (same file) calls aclnnLtScalarGetWorkspaceSize with out = selfRef: no check
or L2_DFX_PHASE_1 of its own, the executor is aclnnLtScalar's.
"""

from __future__ import annotations

from typing import Any

from ... import dtypes
from ..._status import aclnnStatus
from ...dtypes import DT_BOOL, DT_DOUBLE, DT_FLOAT, DT_UINT8, DT_UNDEFINED
from ...executor import checks
from ...executor.checks import op_loge
from ...executor.executor import aclOpExecutor
from ...l0.cast import cast
from ...l0.less import less as l0_less
from ...tensor import aclScalar, aclTensor
from .. import _l2
from .._graph import contiguous_cast
from .._promote import FLOATING
from . import _compare as C
from .lt_tensor import (
    ASCEND910_DTYPE_SUPPORT_LIST,
    ASCEND910_OUT_DTYPE_SUPPORT_LIST,
    ASCEND910B_DTYPE_SUPPORT_LIST,
    ASCEND910B_OUT_DTYPE_SUPPORT_LIST,
)

S = aclnnStatus


def dtype_support_list() -> tuple[int, ...]:
    """``GetDtypeSupportList``: SocVersion Ascend910B..910E the 910B list, else the 910 list."""
    return ASCEND910B_DTYPE_SUPPORT_LIST if C.soc_910b_to_910e() else ASCEND910_DTYPE_SUPPORT_LIST


def out_dtype_support_list() -> tuple[int, ...]:
    return ASCEND910B_OUT_DTYPE_SUPPORT_LIST if C.soc_910b_to_910e() else ASCEND910_OUT_DTYPE_SUPPORT_LIST


def checked_out_list() -> tuple[int, ...]:
    """What out is checked against: the out list on Ascend950, the input list elsewhere."""
    return out_dtype_support_list() if C.is_regbase() else dtype_support_list()


DTYPE_FACTS = {
    "self, other (off Ascend950: the scalar as a tensor of its converted dtype); Ascend950: the promoted dtype": (
        dtype_support_list
    ),
    "out; selfRef (in place: also checked as the input)": checked_out_list,
}


def scalar_tensor_dtype(self_dt: int, other_dt: int) -> int:
    """Off Ascend950, the dtype the scalar is converted to before the checks."""
    if self_dt in FLOATING:
        return self_dt
    return DT_FLOAT if other_dt == DT_DOUBLE else other_dt


def _check_params(self: aclTensor, other: aclTensor, out: Any) -> int:
    """``CheckParams`` with the scalar as the 0-d tensor ``other``."""
    if not checks.check_null(out, "out"):  # self and other are known to be non-null here
        return S.ACLNN_ERR_PARAM_NULLPTR
    supported = dtype_support_list()
    if not (
        checks.check_dtype_support(self, supported, "self")
        and checks.check_dtype_support(other, supported, "other")
        and checks.check_dtype_support(out, supported, "out")
    ):
        return S.ACLNN_ERR_PARAM_INVALID
    if dtypes.promote_type(self.dtype, other.dtype) == DT_UNDEFINED:
        C.report_can_not_promote(self.dtype, other.dtype)
        return S.ACLNN_ERR_PARAM_INVALID
    if not (
        C.check_bool_to_out(out)
        and C.check_max_dims((self, "self"), (other, "other"))
        and C.check_broadcast_to_out(self, other, out, "Shape of out")
    ):
        return S.ACLNN_ERR_PARAM_INVALID
    return S.ACLNN_SUCCESS


def _check_params_scalar(self: aclTensor, other: aclScalar, out: Any, promote: int) -> int:
    """Ascend950's ``CheckParamsScalar``."""
    if not (
        checks.check_null(self, "self")
        and checks.check_null(other, "other", "aclScalar")
        and checks.check_null(out, "out")
    ):
        return S.ACLNN_ERR_PARAM_NULLPTR
    supported = dtype_support_list()
    if not (
        checks.check_dtype_support(self, supported, "self")
        and checks.check_dtype_support(other, supported, "other")
        and checks.check_dtype_support(out, out_dtype_support_list(), "out")
    ):
        return S.ACLNN_ERR_PARAM_INVALID
    if promote == DT_UNDEFINED:
        C.report_can_not_promote(self.dtype, other.dtype)
        return S.ACLNN_ERR_PARAM_INVALID
    if promote not in supported:
        op_loge(
            S.ACLNN_ERR_PARAM_INVALID,
            f"aclnnLtScalar not implemented for input promote dtype {dtypes.dt_name(promote)}.",
        )
        return S.ACLNN_ERR_PARAM_INVALID
    if not (
        checks.check_result_dtype_cast(self.dtype, promote)
        and checks.check_result_dtype_cast(other.dtype, promote)
        and C.check_bool_to_out(out)
        and C.check_max_dims((self, "self"), (out, "out"))
        and checks.check_shape_equal(self, out, "self", "out")
    ):
        return S.ACLNN_ERR_PARAM_INVALID
    return S.ACLNN_SUCCESS


def _graph_v35(ex: aclOpExecutor, self: aclTensor, other: aclScalar, promote: int) -> aclTensor | None:
    """Ascend950's l0 calls: Contiguous of self, the scalar converted, Cast of self, Cast of the
    scalar's tensor, Less."""
    operands = C.converted_before_cast(ex, self, other, promote)
    if operands is None:
        return None
    self_p, other_t = operands
    other_p = cast(other_t, promote, ex)
    return l0_less(self_p, other_p, ex) if other_p is not None else None


def _v35(ex: aclOpExecutor, self: Any, other: Any, out: Any, workspaceSize: Any, executor: Any) -> int:
    """``aclnnLtScalarGetWorkspaceSizeV35`` (Ascend950)."""
    if other is None or self is None:  # CHECK_RET: no message
        return S.ACLNN_ERR_PARAM_NULLPTR
    promote = C.regbase_scalar_promote(self.dtype, other.dtype)
    if promote == DT_BOOL:
        promote = DT_UINT8
    ret = _check_params_scalar(self, other, out, promote)
    if ret != S.ACLNN_SUCCESS:
        return ret
    return C.build(ex, self, None, out, workspaceSize, executor, False, lambda: _graph_v35(ex, self, other, promote))


def _graph(ex: aclOpExecutor, self: aclTensor, other_t: aclTensor) -> aclTensor | None:
    """Off Ascend950: Contiguous + Cast of self, Cast of the scalar's tensor, Less, in PromoteType
    of the two — BOOL compared as UINT8."""
    promote = dtypes.promote_type(self.dtype, other_t.dtype)
    if promote == DT_BOOL:
        promote = DT_UINT8
    self_p = contiguous_cast(ex, self, promote)
    if self_p is None:
        return None
    other_p = cast(other_t, promote, ex)
    return l0_less(self_p, other_p, ex) if other_p is not None else None


@_l2.phase1("aclnnLtScalar")
def aclnnLtScalarGetWorkspaceSize(
    self: aclTensor | None, other: aclScalar | None, out: aclTensor | None, workspaceSize: Any, executor: Any
) -> int:
    """Phase 1 of aclnnLtScalar: ``out = (self < other)`` with a scalar ``other``."""
    ex = _l2.l2_dfx_phase1("aclnnLtScalar", workspaceSize, executor, self=self, other=other, out=out)
    if ex is None:
        return S.ACLNN_SUCCESS
    if C.is_regbase():
        return _v35(ex, self, other, out, workspaceSize, executor)
    if other is None or self is None:  # CHECK_RET(..., ACLNN_ERR_INNER_NULLPTR): no message
        return S.ACLNN_ERR_INNER_NULLPTR
    other_t = ex.convert_scalar(other, scalar_tensor_dtype(self.dtype, other.dtype))
    if other_t is None:
        return S.ACLNN_ERR_INNER_NULLPTR
    ret = _check_params(self, other_t, out)
    if ret != S.ACLNN_SUCCESS:
        return ret
    assert out is not None
    # the scalar's tensor is no user argument: not named, not tested for emptiness
    return C.build(ex, self, None, out, workspaceSize, executor, False, lambda: _graph(ex, self, other_t))


aclnnLtScalar = _l2.phase2("aclnnLtScalar")


@_l2.phase1("aclnnInplaceLtScalar")
def aclnnInplaceLtScalarGetWorkspaceSize(
    selfRef: aclTensor | None, other: aclScalar | None, workspaceSize: Any, executor: Any
) -> int:
    """Phase 1 of aclnnInplaceLtScalar: ``selfRef = (selfRef < other)`` in selfRef's dtype
    (aclnnLtScalar's phase 1 with out = selfRef: its checks, its messages, its executor)."""
    return int(aclnnLtScalarGetWorkspaceSize(selfRef, other, selfRef, workspaceSize, executor))


# Its executor is made by aclnnLtScalarGetWorkspaceSize (L2_DFX_PHASE_1 names aclnnLtScalar).
aclnnInplaceLtScalar = _l2.phase2("aclnnInplaceLtScalar", "aclnnLtScalar")
