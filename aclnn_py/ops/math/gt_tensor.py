"""aclnnGtTensor — side by side with ops-math ``math/greater/op_api/aclnn_gt_tensor.cpp``:
``out = (self > other)`` with broadcasting, cast to out's dtype.

L2_DFX_PHASE_1 -> CheckNotNull (self, other, out) -> CheckDtypeValid: **out** against the out
list (self and other are not checked one by one); Ascend910 refuses BFLOAT16 inputs; the
promoted dtype (PromoteType; Ascend950 BinaryOpTypePromote), **BOOL compared as INT8**, must
exist and be in the input list; on Ascend950 self and other must cast to it -> CheckShape
(self, other, out at most 8 dims; broadcast; the broadcast shape is out's) -> empty shortcut.
Graph: Contiguous + Cast of self, then of other; Greater; Cast to out's dtype; ViewCopy.

aclnnInplaceGtTensor (same file) calls aclnnGtTensorGetWorkspaceSize with out = selfRef: no check
or L2_DFX_PHASE_1 of its own, the executor is aclnnGtTensor's.
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
from ...l0.greater import greater as l0_greater
from ...tensor import aclTensor
from .. import _l2
from . import _compare as C

S = aclnnStatus

DTYPE_SUPPORT_910_LIST = (
    DT_FLOAT, DT_INT32, DT_INT64, DT_FLOAT16, DT_INT16, DT_INT8, DT_UINT8, DT_DOUBLE, DT_UINT32, DT_UINT64, DT_UINT16,
    DT_BOOL,
)  # fmt: skip
OUT_DTYPE_SUPPORT_910_LIST = (
    DT_FLOAT, DT_INT32, DT_INT64, DT_FLOAT16, DT_INT16, DT_INT8, DT_UINT8, DT_DOUBLE, DT_UINT32, DT_UINT64, DT_BOOL,
    DT_UINT16, DT_COMPLEX64, DT_COMPLEX128,
)  # fmt: skip
DTYPE_SUPPORT_910B_LIST = (
    DT_FLOAT, DT_INT32, DT_INT64, DT_FLOAT16, DT_INT16, DT_INT8, DT_UINT8, DT_DOUBLE, DT_UINT32, DT_UINT64, DT_UINT16,
    DT_BF16, DT_BOOL,
)  # fmt: skip
OUT_DTYPE_SUPPORT_910B_LIST = (*OUT_DTYPE_SUPPORT_910_LIST, DT_BF16)


def dtype_support_list() -> tuple[int, ...]:
    """The list the promoted dtype must be in: DAV_2201 or Ascend950 the 910B list, else the 910 list."""
    return DTYPE_SUPPORT_910B_LIST if C.is_2201_or_regbase() else DTYPE_SUPPORT_910_LIST


def out_dtype_support_list() -> tuple[int, ...]:
    return OUT_DTYPE_SUPPORT_910B_LIST if C.is_2201_or_regbase() else OUT_DTYPE_SUPPORT_910_LIST


DTYPE_FACTS = {
    "the promoted dtype (self and other are not checked one by one)": dtype_support_list,
    "out; selfRef (in place: also checked as the input)": out_dtype_support_list,
}


def _check_dtype_valid(self: aclTensor, other: aclTensor, out: aclTensor) -> int:
    """``CheckDtypeValid``: the promoted dtype (BOOL as INT8), or DT_UNDEFINED after a report."""
    if not checks.check_dtype_support(out, out_dtype_support_list(), "out"):
        return DT_UNDEFINED
    if C.soc_is_ascend910() and DT_BF16 in (self.dtype, other.dtype):
        op_loge(S.ACLNN_ERR_PARAM_INVALID, "The current soc version does not support the DT_BF16 data type.")
        return DT_UNDEFINED
    promote = C.tensor_promote(self, other)
    if promote == DT_BOOL:
        promote = DT_INT8
    if promote == DT_UNDEFINED:
        C.report_can_not_promote(self.dtype, other.dtype)
        return DT_UNDEFINED
    supported = dtype_support_list()
    if promote not in supported:
        name = dtypes.dt_name
        op_loge(
            S.ACLNN_ERR_PARAM_INVALID,
            f"Self dtype {name(self.dtype)} and other dtype {name(other.dtype)} get promoteType dtype "
            f"{name(promote)} should be in dtype support list {C.bracketed(supported)}.",
        )
        return DT_UNDEFINED
    if C.is_regbase() and not (
        checks.check_result_dtype_cast(self.dtype, promote) and checks.check_result_dtype_cast(other.dtype, promote)
    ):
        return DT_UNDEFINED
    return promote if C.check_bool_to_out(out) else DT_UNDEFINED


def _check_params(self: Any, other: Any, out: Any) -> tuple[int, int]:
    """CheckNotNull, CheckDtypeValid, CheckShape: (status, promoted dtype)."""
    if not C.check_not_null(self, other, out):
        return S.ACLNN_ERR_PARAM_NULLPTR, DT_UNDEFINED
    promote = _check_dtype_valid(self, other, out)
    if promote == DT_UNDEFINED:
        return S.ACLNN_ERR_PARAM_INVALID, DT_UNDEFINED
    if not (
        C.check_max_dims((self, "self"), (other, "other"), (out, "out"))
        and C.check_broadcast_to_out(self, other, out, "BroadcastShape")
    ):
        return S.ACLNN_ERR_PARAM_INVALID, DT_UNDEFINED
    return S.ACLNN_SUCCESS, promote


# after the checks: Contiguous + Cast of self, then of other, Greater
_GRAPH = C.tensor_graph(l0_greater)


@_l2.phase1("aclnnGtTensor")
def aclnnGtTensorGetWorkspaceSize(
    self: aclTensor | None, other: aclTensor | None, out: aclTensor | None, workspaceSize: Any, executor: Any
) -> int:
    """Phase 1 of aclnnGtTensor: ``out = (self > other)`` (broadcast)."""
    return C.phase1("aclnnGtTensor", self, other, out, workspaceSize, executor, _check_params, _GRAPH)


aclnnGtTensor = _l2.phase2("aclnnGtTensor")


@_l2.phase1("aclnnInplaceGtTensor")
def aclnnInplaceGtTensorGetWorkspaceSize(
    selfRef: aclTensor | None, other: aclTensor | None, workspaceSize: Any, executor: Any
) -> int:
    """Phase 1 of aclnnInplaceGtTensor: ``selfRef = (selfRef > other)`` in selfRef's dtype
    (aclnnGtTensor's phase 1 with out = selfRef: its checks, its messages, its executor)."""
    return int(aclnnGtTensorGetWorkspaceSize(selfRef, other, selfRef, workspaceSize, executor))


# Its executor is made by aclnnGtTensorGetWorkspaceSize (L2_DFX_PHASE_1 names aclnnGtTensor).
aclnnInplaceGtTensor = _l2.phase2("aclnnInplaceGtTensor", "aclnnGtTensor")
