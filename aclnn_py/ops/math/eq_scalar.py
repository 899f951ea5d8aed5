"""aclnnEqScalar — side by side with ops-math ``math/equal/op_api/aclnn_eq_scalar.cpp``:
``out = (self == other)`` with a scalar ``other``, cast to out's dtype.

L2_DFX_PHASE_1 -> CheckNotNull (self, other, out) -> CheckDtypeValid (self and the scalar
against the input list; out against it too, or Ascend950's out list) -> CheckPromoteType ->
CheckShape (self, out at most 8 dims; ``OP_CHECK_SHAPE_NOT_EQUAL(out, self)``) -> empty
shortcut. Graph: Contiguous + Cast of self, the scalar converted to a 0-d tensor, Equal, Cast
to out's dtype, ViewCopy.

The check and the graph promote differently off Ascend950: the check uses PromoteType(self,
scalar), the graph ``PromoteTypeScalar``, under which an integral self keeps its dtype against
an integral scalar (the scalar is truncated: int8 44 equals the int64 scalar 300). On
Ascend950 both use the regbase promotion, and the promoted dtype is checked against the list
**before** it is tested for DT_UNDEFINED.

aclnnInplaceEqScalar (same file) calls aclnnEqScalarGetWorkspaceSize with out = selfRef: no check
or L2_DFX_PHASE_1 of its own, the executor is aclnnEqScalar's.
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
from ...tensor import aclScalar, aclTensor
from .. import _l2
from . import _compare as C

S = aclnnStatus

DTYPE_SUPPORT_910_LIST = (
    DT_FLOAT, DT_INT32, DT_INT64, DT_FLOAT16, DT_INT16, DT_INT8, DT_UINT8, DT_UINT64, DT_UINT32, DT_BOOL, DT_DOUBLE,
    DT_COMPLEX64, DT_COMPLEX128,
)  # fmt: skip
DTYPE_SUPPORT_910B_LIST = (
    DT_FLOAT, DT_INT32, DT_INT64, DT_FLOAT16, DT_INT16, DT_INT8, DT_UINT8, DT_BOOL, DT_DOUBLE, DT_COMPLEX64,
    DT_COMPLEX128, DT_BF16,
)  # fmt: skip
REGBASE_DTYPE_SUPPORT_LIST = (*DTYPE_SUPPORT_910B_LIST, DT_UINT64)
REGBASE_OUT_DTYPE_SUPPORT_LIST = (
    DT_FLOAT, DT_INT32, DT_INT64, DT_FLOAT16, DT_INT16, DT_INT8, DT_UINT8, DT_DOUBLE, DT_UINT32, DT_UINT64, DT_BOOL,
    DT_UINT16, DT_COMPLEX64, DT_COMPLEX128, DT_BF16,
)  # fmt: skip


def input_dtype_support_list() -> tuple[int, ...]:
    """``GetInputDtypeSupportList``: DAV_2201 910B, DAV_3510 regbase, DAV_1001 910, and **any
    other chip (Ascend310P) the 910B list** (EqTensor gives it the 910 list)."""
    arch = C.npu_arch()
    if arch == "DAV_3510":
        return REGBASE_DTYPE_SUPPORT_LIST
    return DTYPE_SUPPORT_910_LIST if arch == "DAV_1001" else DTYPE_SUPPORT_910B_LIST


def out_dtype_support_list() -> tuple[int, ...]:
    """The list out is checked against: Ascend950's out list, elsewhere the input list."""
    return REGBASE_OUT_DTYPE_SUPPORT_LIST if C.is_regbase() else input_dtype_support_list()


DTYPE_FACTS = {
    "self, other (the scalar); Ascend950: the promoted dtype": input_dtype_support_list,
    "out; selfRef (in place: also checked as the input)": out_dtype_support_list,
}


def _check_promote_type(self: aclTensor, other: aclScalar, out: aclTensor) -> bool:
    if C.is_regbase():
        promote = C.eq_ne_promote_type_scalar(self.dtype, other.dtype)
        supported = input_dtype_support_list()
        if promote not in supported:  # before the DT_UNDEFINED test: names DT_UNDEFINED then
            op_loge(
                S.ACLNN_ERR_PARAM_INVALID,
                f"promote dtype {dtypes.dt_name(promote)} should be in dtype support list {C.bracketed(supported)}.",
            )
            return False
    else:
        promote = dtypes.promote_type(self.dtype, other.dtype)
    if promote == DT_UNDEFINED:
        C.report_can_not_promote(self.dtype, other.dtype)
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
    if not (C.check_max_dims((self, "self"), (out, "out")) and checks.check_shape_equal(out, self, "out", "self")):
        return S.ACLNN_ERR_PARAM_INVALID, DT_UNDEFINED
    # the graph's dtype is PromoteTypeScalar's on every chip (the check above used PromoteType
    # off Ascend950)
    return S.ACLNN_SUCCESS, C.eq_ne_promote_type_scalar(self.dtype, other.dtype)


# after the checks: Contiguous + Cast of self, the scalar converted, Equal
_GRAPH = C.scalar_graph(l0_equal)


@_l2.phase1("aclnnEqScalar")
def aclnnEqScalarGetWorkspaceSize(
    self: aclTensor | None, other: aclScalar | None, out: aclTensor | None, workspaceSize: Any, executor: Any
) -> int:
    """Phase 1 of aclnnEqScalar: ``out = (self == other)`` with a scalar ``other``."""
    return C.phase1("aclnnEqScalar", self, other, out, workspaceSize, executor, _check_params, _GRAPH)


aclnnEqScalar = _l2.phase2("aclnnEqScalar")


@_l2.phase1("aclnnInplaceEqScalar")
def aclnnInplaceEqScalarGetWorkspaceSize(
    selfRef: aclTensor | None, other: aclScalar | None, workspaceSize: Any, executor: Any
) -> int:
    """Phase 1 of aclnnInplaceEqScalar: ``selfRef = (selfRef == other)`` in selfRef's dtype
    (aclnnEqScalar's phase 1 with out = selfRef: its checks, its messages, its executor)."""
    return int(aclnnEqScalarGetWorkspaceSize(selfRef, other, selfRef, workspaceSize, executor))


# Its executor is made by aclnnEqScalarGetWorkspaceSize (L2_DFX_PHASE_1 names aclnnEqScalar).
aclnnInplaceEqScalar = _l2.phase2("aclnnInplaceEqScalar", "aclnnEqScalar")
