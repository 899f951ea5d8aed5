"""aclnnGtScalar — side by side with ops-math ``math/greater/op_api/aclnn_gt_scalar.cpp``:
``out = (self > other)`` with a scalar ``other``, cast to out's dtype.

L2_DFX_PHASE_1 -> (aclnnGtScalarCommon) CheckNotNull (self, other, out) -> CheckDtypeValid
(self and the scalar against the input list, out against the out list) -> CheckPromoteType
(Ascend950: the regbase promotion, BOOL as INT8, self and the scalar cast to it; elsewhere
PromoteType, BOOL as INT8, and a DOUBLE scalar with a floating self keeps self's dtype when it
survives the cast within FLT_EPSILON; the result must exist; BOOL casts to out) -> CheckShape
(self, out at most 8 dims; ``OP_CHECK_SHAPE_NOT_EQUAL(out, self)``) -> empty shortcut.

Graph: on Ascend950, when self already has the promoted dtype and an AI Core dtype, Greater
reads self's (possibly strided) view directly; otherwise Contiguous + Cast. The scalar becomes
a 0-d tensor of the promoted dtype; Greater; Cast to out's dtype; ViewCopy.

aclnnInplaceGtScalar (same file) has its own L2_DFX_PHASE_1, then the same Common with out = selfRef.
"""

from __future__ import annotations

from typing import Any

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
from ...l0.greater import greater as l0_greater
from ...l0.greater import is_greater_support_non_contiguous
from ...tensor import aclScalar, aclTensor
from .. import _l2
from . import _compare as C

S = aclnnStatus

DTYPE_SUPPORT_910_LIST = (
    DT_FLOAT, DT_INT32, DT_INT64, DT_FLOAT16, DT_INT16, DT_INT8, DT_UINT8, DT_DOUBLE, DT_UINT64, DT_UINT16, DT_UINT32,
    DT_BOOL,
)  # fmt: skip
DTYPE_SUPPORT_910B_LIST = (*DTYPE_SUPPORT_910_LIST, DT_BF16)
OUT_DTYPE_SUPPORT_910_LIST = (*DTYPE_SUPPORT_910_LIST, DT_COMPLEX64, DT_COMPLEX128)
OUT_DTYPE_SUPPORT_910B_LIST = (*OUT_DTYPE_SUPPORT_910_LIST, DT_BF16)


def dtype_support_list() -> tuple[int, ...]:
    """DAV_2201 or Ascend950: the 910B list; else the 910 list."""
    return DTYPE_SUPPORT_910B_LIST if C.is_2201_or_regbase() else DTYPE_SUPPORT_910_LIST


def out_dtype_support_list() -> tuple[int, ...]:
    return OUT_DTYPE_SUPPORT_910B_LIST if C.is_2201_or_regbase() else OUT_DTYPE_SUPPORT_910_LIST


DTYPE_FACTS = {
    "self, other (the scalar)": dtype_support_list,
    "out; selfRef (in place: also checked as the input)": out_dtype_support_list,
}


def _check_params(self: Any, other: Any, out: Any) -> tuple[int, int]:
    """``CheckParams``: (status, promoted dtype)."""
    if not C.check_not_null(self, other, out, "aclScalar"):
        return S.ACLNN_ERR_PARAM_NULLPTR, DT_UNDEFINED
    supported = dtype_support_list()
    if not (
        checks.check_dtype_support(self, supported, "self")
        and checks.check_dtype_support(other, supported, "other")
        and checks.check_dtype_support(out, out_dtype_support_list(), "out")
    ):
        return S.ACLNN_ERR_PARAM_INVALID, DT_UNDEFINED
    promote = C.gt_ge_scalar_promote(self.dtype, other)
    if C.is_regbase() and not (
        checks.check_result_dtype_cast(self.dtype, promote) and checks.check_result_dtype_cast(other.dtype, promote)
    ):
        return S.ACLNN_ERR_PARAM_INVALID, DT_UNDEFINED
    if promote == DT_UNDEFINED:
        C.report_can_not_promote(self.dtype, other.dtype)
        return S.ACLNN_ERR_PARAM_INVALID, DT_UNDEFINED
    if not (
        C.check_bool_to_out(out)
        and C.check_max_dims((self, "self"), (out, "out"))
        and checks.check_shape_equal(out, self, "out", "self")
    ):
        return S.ACLNN_ERR_PARAM_INVALID, DT_UNDEFINED
    return S.ACLNN_SUCCESS, promote


# aclnnGtScalarCommon is C.common with these: self's view as it is when the kernel reads it
# (CreateView, no copy), else Contiguous + Cast of self; the scalar converted; Greater
_GRAPH = C.scalar_graph(l0_greater, is_greater_support_non_contiguous)


@_l2.phase1("aclnnGtScalar")
def aclnnGtScalarGetWorkspaceSize(
    self: aclTensor | None, other: aclScalar | None, out: aclTensor | None, workspaceSize: Any, executor: Any
) -> int:
    """Phase 1 of aclnnGtScalar: ``out = (self > other)`` with a scalar ``other``."""
    return C.phase1("aclnnGtScalar", self, other, out, workspaceSize, executor, _check_params, _GRAPH)


aclnnGtScalar = _l2.phase2("aclnnGtScalar")


@_l2.phase1("aclnnInplaceGtScalar")
def aclnnInplaceGtScalarGetWorkspaceSize(
    selfRef: aclTensor | None, other: aclScalar | None, workspaceSize: Any, executor: Any
) -> int:
    """Phase 1 of aclnnInplaceGtScalar: ``selfRef = (selfRef > other)`` in selfRef's dtype (its own
    L2_DFX_PHASE_1, then aclnnGtScalarCommon with out = selfRef)."""
    return C.phase1_inplace("aclnnInplaceGtScalar", selfRef, other, workspaceSize, executor, _check_params, _GRAPH)


aclnnInplaceGtScalar = _l2.phase2("aclnnInplaceGtScalar")
