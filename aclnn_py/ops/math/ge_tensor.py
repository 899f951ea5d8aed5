"""aclnnGeTensor — side by side with ops-math ``math/greater_equal/op_api/aclnn_ge_tensor.cpp``:
``out = (self >= other)`` with broadcasting, cast to out's dtype.

L2_DFX_PHASE_1 -> (aclnnGeTensorCommon) CheckNotNull (self, other, out) -> CheckDtypeValid:
only **out**, against the out list (BFLOAT16 also accepted on DAV_2201 and Ascend950:
``CheckSocExtraType``) -> CheckPromoteType: PromoteType (Ascend950 BinaryOpTypePromote), BOOL
compared as INT8, must exist and be in the input list (or be BFLOAT16 on DAV_2201/950); on
Ascend950 self and other cast to it -> CheckShape (self, other, out at most 8 dims; broadcast;
the broadcast shape is out's) -> empty shortcut.

Graph: for self, then other: on Ascend950, when it already has the promoted dtype and an AI Core
dtype, GreaterEqual reads its (possibly strided) view directly; otherwise Contiguous + Cast.
GreaterEqual; Cast to out's dtype; ViewCopy.

The input lists have no BOOL, but BOOL with BOOL becomes INT8 and passes. aclnnInplaceGeTensor
(same file) has its own L2_DFX_PHASE_1, then the same Common with out = selfRef.
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
from ...l0.greater_equal import greater_equal as l0_greater_equal
from ...l0.greater_equal import is_greater_equal_support_non_contiguous
from ...tensor import aclTensor
from .. import _l2
from .._graph import contiguous_cast
from . import _compare as C

S = aclnnStatus

ASCEND910_DTYPE_DTYPE_SUPPORT_LIST = (
    DT_FLOAT, DT_INT32, DT_FLOAT16, DT_INT8, DT_DOUBLE, DT_INT16, DT_INT64, DT_UINT64, DT_UINT32, DT_UINT16, DT_UINT8,
)  # fmt: skip
ASCEND910B_DTYPE_DTYPE_SUPPORT_LIST = (*ASCEND910_DTYPE_DTYPE_SUPPORT_LIST, DT_BF16)
OUT_DTYPE_SUPPORT_LIST = (
    DT_FLOAT, DT_INT32, DT_FLOAT16, DT_INT8, DT_DOUBLE, DT_INT16, DT_INT64, DT_UINT64, DT_UINT32, DT_UINT16, DT_UINT8,
    DT_COMPLEX128, DT_COMPLEX64, DT_BOOL, DT_BF16,
)  # fmt: skip


def check_soc_extra_type(dt: int) -> bool:
    """``CheckSocExtraType``: BFLOAT16 on DAV_2201 or Ascend950."""
    return dt == DT_BF16 and C.is_2201_or_regbase()


def dtype_support_list() -> tuple[int, ...]:
    """``GetDtypeSupportList``: DAV_2201 or Ascend950 the 910B list, else the 910 list."""
    return ASCEND910B_DTYPE_DTYPE_SUPPORT_LIST if C.is_2201_or_regbase() else ASCEND910_DTYPE_DTYPE_SUPPORT_LIST


def out_dtype_support_list() -> tuple[int, ...]:
    """The OUT list (the same on every chip; it holds BFLOAT16, so CheckSocExtraType adds nothing)."""
    return OUT_DTYPE_SUPPORT_LIST


DTYPE_FACTS = {
    "the promoted dtype (self and other are not checked one by one; BOOL with BOOL is compared as INT8)": (
        dtype_support_list
    ),
    "out; selfRef": out_dtype_support_list,  # in place: the input row checks the promoted dtype
}


def _check_promote_type(self: aclTensor, other: aclTensor, out: aclTensor) -> int:
    """``CheckPromoteType``: the promoted dtype, or DT_UNDEFINED after a report."""
    supported = dtype_support_list()
    promote = C.tensor_promote(self, other)
    if promote == DT_BOOL:
        promote = DT_INT8
    if promote == DT_UNDEFINED:
        C.report_can_not_promote(self.dtype, other.dtype)
        return DT_UNDEFINED
    if promote not in supported and not check_soc_extra_type(promote):
        op_loge(S.ACLNN_ERR_PARAM_INVALID, f"aclnnGeTensor not implemented for input dtype {dtypes.dt_name(promote)}.")
        return DT_UNDEFINED
    if C.is_regbase() and not (
        checks.check_result_dtype_cast(self.dtype, promote) and checks.check_result_dtype_cast(other.dtype, promote)
    ):
        return DT_UNDEFINED
    return promote if C.check_bool_to_out(out) else DT_UNDEFINED


def _check_params(self: Any, other: Any, out: Any) -> tuple[int, int]:
    """``CheckParams``: (status, promoted dtype)."""
    if not C.check_not_null(self, other, out):
        return S.ACLNN_ERR_PARAM_NULLPTR, DT_UNDEFINED
    if out.dtype not in OUT_DTYPE_SUPPORT_LIST and not check_soc_extra_type(out.dtype):
        op_loge(S.ACLNN_ERR_PARAM_INVALID, f"aclnnGeTensor not implemented for out dtype {dtypes.dt_name(out.dtype)}.")
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


def _input(ex: aclOpExecutor, t: aclTensor, promote: int) -> aclTensor | None:
    """Ascend950 reads a view of a tensor already of the promoted AI Core dtype (CreateView, no
    kernel); otherwise Contiguous + Cast."""
    if t.dtype == promote and is_greater_equal_support_non_contiguous(t):
        return t
    return contiguous_cast(ex, t, promote)


def _graph(ex: aclOpExecutor, self: aclTensor, other: aclTensor, promote: int) -> aclTensor | None:
    """aclnnGeTensorCommon's l0 calls: self's input, then other's, GreaterEqual."""
    self_p = _input(ex, self, promote)
    if self_p is None:
        return None
    other_p = _input(ex, other, promote)
    return l0_greater_equal(self_p, other_p, ex) if other_p is not None else None


@_l2.phase1("aclnnGeTensor")
def aclnnGeTensorGetWorkspaceSize(
    self: aclTensor | None, other: aclTensor | None, out: aclTensor | None, workspaceSize: Any, executor: Any
) -> int:
    """Phase 1 of aclnnGeTensor: ``out = (self >= other)`` (broadcast)."""
    return C.phase1("aclnnGeTensor", self, other, out, workspaceSize, executor, _check_params, _graph)


aclnnGeTensor = _l2.phase2("aclnnGeTensor")


@_l2.phase1("aclnnInplaceGeTensor")
def aclnnInplaceGeTensorGetWorkspaceSize(
    selfRef: aclTensor | None, other: aclTensor | None, workspaceSize: Any, executor: Any
) -> int:
    """Phase 1 of aclnnInplaceGeTensor: ``selfRef = (selfRef >= other)`` in selfRef's dtype (its own
    L2_DFX_PHASE_1, then aclnnGeTensorCommon with out = selfRef)."""
    return C.phase1_inplace("aclnnInplaceGeTensor", selfRef, other, workspaceSize, executor, _check_params, _graph)


aclnnInplaceGeTensor = _l2.phase2("aclnnInplaceGeTensor")
