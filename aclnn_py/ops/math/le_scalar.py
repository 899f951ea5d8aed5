"""aclnnLeScalar — side by side with ops-math ``math/less_equal/op_api/aclnn_le_scalar.cpp``:
``out = (self <= other)`` with a scalar ``other``, cast to out's dtype.

L2_DFX_PHASE_1 -> (aclnnLeScalarCommon) CheckParams, before the executor: CheckNotNull (self,
other, out) -> CheckDtypeValid (self and the scalar against the input list; out against it —
Ascend950: the out list — or BOOL: ``out dtype %s should be in dtype support list [[...]].``)
-> CheckPromoteType (``PromoteTypeScalar``: exists; self and the scalar cast to it; Ascend950:
in the list, ``aclnnLeScalar not implemented for input dtype %s,should be ...``; BOOL casts to
out) -> CheckShape (self, out at most 8 dims; ``self shape is different with out shape, self
[[2, 3]], out [[2, 3, 3]].``) -> empty shortcut.

Graph: Contiguous of self; the promoted dtype again, **BOOL compared as FLOAT off Ascend950**
(Ascend950 keeps BOOL); Cast of self; the scalar converted to a 0-d tensor; LessEqual; Cast to
out's dtype; ViewCopy.

``PromoteTypeScalar`` off Ascend950: a floating self keeps its dtype; a DOUBLE scalar gives
FLOAT; anything else PromoteType (an int8 self with an int64 scalar compares in INT64).
aclnnInplaceLeScalar (same file) has its own L2_DFX_PHASE_1, then the same Common with out = selfRef.
"""

from __future__ import annotations

from typing import Any

from ... import dtypes
from ..._status import aclnnStatus
from ...dtypes import DT_BOOL, DT_DOUBLE, DT_FLOAT, DT_UNDEFINED
from ...executor import checks
from ...executor.checks import op_loge
from ...executor.executor import aclOpExecutor
from ...l0.less_equal import less_equal as l0_less_equal
from ...tensor import aclScalar, aclTensor
from .. import _l2
from .._promote import FLOATING
from . import _compare as C
from .le_tensor import (
    ASCEND910_DTYPE_SUPPORT_LIST,
    ASCEND910B_DTYPE_SUPPORT_LIST,
    OUT_DTYPE_SUPPORT_910_LIST,
    REGBASE_DTYPE_SUPPORT_LIST,
    REGBASE_OUT_DTYPE_SUPPORT_LIST,
)

S = aclnnStatus


def dtype_support_list() -> tuple[int, ...]:
    """``GetDtypeSupportList``: Ascend950 its list, DAV_2201 the 910B list, else the 910 list."""
    if C.is_regbase():
        return REGBASE_DTYPE_SUPPORT_LIST
    return ASCEND910B_DTYPE_SUPPORT_LIST if C.is_2201() else ASCEND910_DTYPE_SUPPORT_LIST


def checked_out_list() -> tuple[int, ...]:
    """What out is checked against (BOOL is accepted besides): Ascend950 the out list
    (``GetOutputDtypeSupportList``, chosen by SocVersion), elsewhere the input list."""
    if not C.is_regbase():
        return dtype_support_list()
    # SocVersion Ascend910B..910E gives the regbase out list (the 910 out list otherwise, never
    # on Ascend950)
    return REGBASE_OUT_DTYPE_SUPPORT_LIST if C.soc_910b_to_910e() else OUT_DTYPE_SUPPORT_910_LIST


DTYPE_FACTS = {
    "self, other (the scalar); Ascend950: the promoted dtype": dtype_support_list,
    "out (BOOL is accepted too); selfRef (in place: also checked as the input)": checked_out_list,
}


def promote_type_scalar(self_dt: int, other_dt: int) -> int:
    """``PromoteTypeScalar`` (the check's and the graph's dtype, before the BOOL fix-up)."""
    if C.is_regbase():
        return C.regbase_scalar_promote(self_dt, other_dt)
    if self_dt in FLOATING:
        return self_dt
    if other_dt == DT_DOUBLE:
        return DT_FLOAT
    return dtypes.promote_type(self_dt, other_dt)


def _check_dtype_valid(self: aclTensor, other: aclScalar, out: aclTensor) -> bool:
    supported = dtype_support_list()
    if not (
        checks.check_dtype_support(self, supported, "self") and checks.check_dtype_support(other, supported, "other")
    ):
        return False
    out_list = checked_out_list()
    if out.dtype not in out_list and out.dtype != DT_BOOL:
        op_loge(
            S.ACLNN_ERR_PARAM_INVALID,
            f"out dtype {dtypes.dt_name(out.dtype)} should be in dtype support list {C.bracketed(out_list)}.",
        )
        return False
    return True


def _check_promote_type(self: aclTensor, other: aclScalar, out: aclTensor) -> bool:
    promote = promote_type_scalar(self.dtype, other.dtype)
    if promote == DT_UNDEFINED:
        C.report_can_not_promote(self.dtype, other.dtype)
        return False
    if not (
        checks.check_result_dtype_cast(self.dtype, promote) and checks.check_result_dtype_cast(other.dtype, promote)
    ):
        return False
    if C.is_regbase():
        supported = dtype_support_list()
        if promote not in supported:
            op_loge(
                S.ACLNN_ERR_PARAM_INVALID,
                f"aclnnLeScalar not implemented for input dtype {dtypes.dt_name(promote)},"
                f"should be in dtype support list {C.bracketed(supported)}.",
            )
            return False
    return C.check_bool_to_out(out)


def _check_shape(self: aclTensor, out: aclTensor) -> bool:
    if not C.check_max_dims((self, "self"), (out, "out")):
        return False
    if self.view_shape != out.view_shape:
        s, o = dtypes.shape_str(self.view_shape), dtypes.shape_str(out.view_shape)
        op_loge(S.ACLNN_ERR_PARAM_INVALID, f"self shape is different with out shape, self [{s}], out [{o}].")
        return False
    return True


def _check_params(self: Any, other: Any, out: Any) -> tuple[int, int]:
    """``CheckParams``: (status, ``PromoteTypeScalar``'s dtype)."""
    if not C.check_not_null(self, other, out, "aclScalar"):
        return S.ACLNN_ERR_PARAM_NULLPTR, DT_UNDEFINED
    if not (_check_dtype_valid(self, other, out) and _check_promote_type(self, other, out) and _check_shape(self, out)):
        return S.ACLNN_ERR_PARAM_INVALID, DT_UNDEFINED
    return S.ACLNN_SUCCESS, promote_type_scalar(self.dtype, other.dtype)


_SCALAR_GRAPH = C.scalar_graph(l0_less_equal)


def _graph(ex: aclOpExecutor, self: aclTensor, other: aclScalar, promote: int) -> aclTensor | None:
    """aclnnLeScalarCommon's l0 calls: Contiguous + Cast of self, the scalar converted, LessEqual,
    in the promoted dtype — **BOOL compared as FLOAT off Ascend950**."""
    if promote == DT_BOOL and not C.is_regbase():
        promote = DT_FLOAT
    return _SCALAR_GRAPH(ex, self, other, promote)


@_l2.phase1("aclnnLeScalar")
def aclnnLeScalarGetWorkspaceSize(
    self: aclTensor | None, other: aclScalar | None, out: aclTensor | None, workspaceSize: Any, executor: Any
) -> int:
    """Phase 1 of aclnnLeScalar: ``out = (self <= other)`` with a scalar ``other``."""
    return C.phase1("aclnnLeScalar", self, other, out, workspaceSize, executor, _check_params, _graph)


aclnnLeScalar = _l2.phase2("aclnnLeScalar")


@_l2.phase1("aclnnInplaceLeScalar")
def aclnnInplaceLeScalarGetWorkspaceSize(
    selfRef: aclTensor | None, other: aclScalar | None, workspaceSize: Any, executor: Any
) -> int:
    """Phase 1 of aclnnInplaceLeScalar: ``selfRef = (selfRef <= other)`` in selfRef's dtype (its own
    L2_DFX_PHASE_1, then aclnnLeScalarCommon with out = selfRef)."""
    return C.phase1_inplace("aclnnInplaceLeScalar", selfRef, other, workspaceSize, executor, _check_params, _graph)


aclnnInplaceLeScalar = _l2.phase2("aclnnInplaceLeScalar")
