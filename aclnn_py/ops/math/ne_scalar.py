"""aclnnNeScalar — side by side with ops-math ``math/not_equal/op_api/aclnn_ne_scalar.cpp``:
``out = (self != other)`` with a scalar ``other``, cast to out's dtype.

L2_DFX_PHASE_1 -> (aclnnNeScalarCommon) CheckParams, before the executor: CheckNotNull (self,
other, out) -> CheckDtypeValid (self and the scalar against the input list; out against it
too, or Ascend950's out list) -> CheckPromoteType (``PromoteTypeScalar``: DT_UNDEFINED first,
then on Ascend950 the list; self, the scalar and BOOL cast to the result) -> CheckShape (self,
out at most 8 dims; ``OP_CHECK_SHAPE_NOT_EQUAL(self, out)``) -> empty shortcut. Graph:
Contiguous + Cast of self, the scalar converted to a 0-d tensor, NotEqual, Cast, ViewCopy.

Off Ascend950 an integral self keeps its dtype against an integral scalar (the scalar is
truncated). aclnnInplaceNeScalar (same file) has its own L2_DFX_PHASE_1, then the same Common with out = selfRef.
"""

from __future__ import annotations

from typing import Any

from ... import dtypes
from ..._status import aclnnStatus
from ...dtypes import DT_UNDEFINED
from ...executor import checks
from ...executor.checks import op_loge
from ...l0.not_equal import not_equal as l0_not_equal
from ...tensor import aclScalar, aclTensor
from .. import _l2
from . import _compare as C
from .ne_tensor import (
    ASCEND910_DTYPE_SUPPORT_LIST,
    ASCEND910B_DTYPE_SUPPORT_LIST,
    OUT_DTYPE_SUPPORT_REGBASE_LIST,
    REGBASE_DTYPE_SUPPORT_LIST,
)

S = aclnnStatus


def input_dtype_support_list() -> tuple[int, ...]:
    """``GetInputDtypeSupportList`` (the lists are aclnn_ne_tensor.cpp's, copied into this file)."""
    if C.is_regbase():
        return REGBASE_DTYPE_SUPPORT_LIST
    return ASCEND910B_DTYPE_SUPPORT_LIST if C.soc_910b_to_910e() else ASCEND910_DTYPE_SUPPORT_LIST


def out_dtype_support_list() -> tuple[int, ...]:
    """The list out is checked against: Ascend950's out list, elsewhere the input list."""
    return OUT_DTYPE_SUPPORT_REGBASE_LIST if C.is_regbase() else input_dtype_support_list()


DTYPE_FACTS = {
    "self, other (the scalar); Ascend950: the promoted dtype": input_dtype_support_list,
    "out; selfRef (in place: also checked as the input)": out_dtype_support_list,
}


def _check_promote_type(self: aclTensor, other: aclScalar, out: aclTensor) -> bool:
    promote = C.eq_ne_promote_type_scalar(self.dtype, other.dtype)
    if promote == DT_UNDEFINED:
        C.report_can_not_promote(self.dtype, other.dtype)
        return False
    if C.is_regbase():
        supported = input_dtype_support_list()
        if promote not in supported:
            op_loge(
                S.ACLNN_ERR_PARAM_INVALID,
                f"promote dtype {dtypes.dt_name(promote)} should be in dtype support list {C.bracketed(supported)}.",
            )
            return False
    return (
        checks.check_result_dtype_cast(self.dtype, promote)
        and checks.check_result_dtype_cast(other.dtype, promote)
        and C.check_bool_to_out(out)
    )


def _check_params(self: Any, other: Any, out: Any) -> tuple[int, int]:
    """``CheckParams``: (status, promoted dtype)."""
    if not C.check_not_null(self, other, out, "aclScalar"):
        return S.ACLNN_ERR_PARAM_NULLPTR, DT_UNDEFINED
    supported = input_dtype_support_list()
    if not (
        checks.check_dtype_support(self, supported, "self")
        and checks.check_dtype_support(other, supported, "other")
        and checks.check_dtype_support(out, out_dtype_support_list(), "out")
    ):
        return S.ACLNN_ERR_PARAM_INVALID, DT_UNDEFINED
    if not _check_promote_type(self, other, out):
        return S.ACLNN_ERR_PARAM_INVALID, DT_UNDEFINED
    if not (C.check_max_dims((self, "self"), (out, "out")) and checks.check_shape_equal(self, out, "self", "out")):
        return S.ACLNN_ERR_PARAM_INVALID, DT_UNDEFINED
    return S.ACLNN_SUCCESS, C.eq_ne_promote_type_scalar(self.dtype, other.dtype)


# aclnnNeScalarCommon is C.common with these: Contiguous + Cast of self, the scalar converted, NotEqual
_GRAPH = C.scalar_graph(l0_not_equal)


@_l2.phase1("aclnnNeScalar")
def aclnnNeScalarGetWorkspaceSize(
    self: aclTensor | None, other: aclScalar | None, out: aclTensor | None, workspaceSize: Any, executor: Any
) -> int:
    """Phase 1 of aclnnNeScalar: ``out = (self != other)`` with a scalar ``other``."""
    return C.phase1("aclnnNeScalar", self, other, out, workspaceSize, executor, _check_params, _GRAPH)


aclnnNeScalar = _l2.phase2("aclnnNeScalar")


@_l2.phase1("aclnnInplaceNeScalar")
def aclnnInplaceNeScalarGetWorkspaceSize(
    selfRef: aclTensor | None, other: aclScalar | None, workspaceSize: Any, executor: Any
) -> int:
    """Phase 1 of aclnnInplaceNeScalar: ``selfRef = (selfRef != other)`` in selfRef's dtype (its own
    L2_DFX_PHASE_1, then aclnnNeScalarCommon with out = selfRef)."""
    return C.phase1_inplace("aclnnInplaceNeScalar", selfRef, other, workspaceSize, executor, _check_params, _GRAPH)


aclnnInplaceNeScalar = _l2.phase2("aclnnInplaceNeScalar")
