"""aclnnSub, aclnnSubs, aclnnInplaceSub, aclnnInplaceSubs — side by side with ops-math
``math/sub/op_api/aclnn_sub.cpp``: ``out = self - alpha * other``.

aclnnSub: L2_DFX_PHASE_1 -> CheckNotNull (self, other, alpha, out) -> self, other in the chip's
list -> CheckPromoteType (Sub's: its alpha and out failures say ``Result type ...``) ->
CheckShape (ranks <= 8, broadcast, ``Expected tensor for out to have same size as ...``) ->
empty shortcut. Graph: off Ascend950 a floating promotion is raised to FLOAT (DOUBLE stays) when
alpha is not 1; Contiguous + Cast of self, then of other; then Sub (alpha 1), Axpy with
``-alpha`` (FLOAT, FLOAT16, BFLOAT16), AxpyV2 with ``-ToInt64(alpha)`` (Ascend950: INT32, INT64,
INT8) or Mul + Sub; Cast to out's dtype and ViewCopy. There is no mixed-dtype kernel and no
strided-view path.

aclnnSubs: a scalar ``other`` (Add's PromoteTypeScalar, converted to a tensor of the promoted
dtype); always Contiguous + Cast of self, no FLOAT raise, no bool fix.

aclnnInplaceSub's CheckInplace returns ``false`` from a function returning aclnnStatus: false
is ACLNN_SUCCESS, so its failures are only logged and aclnnSub's phase 1 runs anyway (its own
checks then fail, with their messages after CheckInplace's). aclnnInplaceSubs is aclnnSubs with
``out = selfRef``.

"alpha is 1" is ``!(alpha > 1 || alpha < 1)`` on the float value: a NaN alpha counts as 1.
"""

from __future__ import annotations

from typing import Any

from ... import dtypes, scalars
from ... import soc as _soc
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
from ...executor.checks import MAX_SUPPORT_DIMS_NUMS, op_loge
from ...executor.executor import aclOpExecutor
from ...l0.axpy import axpy as l0_axpy
from ...l0.axpy import axpy_v2 as l0_axpy_v2
from ...l0.mul import mul as l0_mul
from ...l0.sub import sub as l0_sub
from ...tensor import aclScalar, aclTensor
from .. import _l2
from .._graph import contiguous_cast, empty, finish
from .add import float_is_one, is_equal_to_one, promote_type_scalar

S = aclnnStatus

ARCH3510_AXPY_DTYPE_SUPPORT_LIST = (DT_FLOAT, DT_FLOAT16, DT_BF16)
ARCH3510_AXPY_V2_DTYPE_SUPPORT_LIST = (DT_INT32, DT_INT64, DT_INT8)
ASCEND910_DTYPE_SUPPORT_LIST = (
    DT_FLOAT, DT_INT32, DT_INT64, DT_FLOAT16, DT_INT16, DT_INT8, DT_UINT8, DT_DOUBLE, DT_BOOL, DT_COMPLEX64,
    DT_COMPLEX128,
)  # fmt: skip
# BFLOAT16 before BOOL: the reverse of aclnnAdd's list, and visible in the messages
ASCEND910B_DTYPE_SUPPORT_LIST = (
    DT_FLOAT, DT_INT32, DT_INT64, DT_FLOAT16, DT_INT16, DT_INT8, DT_UINT8, DT_DOUBLE, DT_BF16, DT_BOOL,
    DT_COMPLEX64, DT_COMPLEX128,
)  # fmt: skip
AXPY_DTYPE_SUPPORT_LIST = (DT_FLOAT, DT_FLOAT16, DT_BF16)  # no INT32, unlike aclnnAdd's

# IsIntegralType(t, true) and IsFloatingType (of the dtypes a tensor or a promotion can have here)
_INTEGRAL_OR_BOOL = (DT_INT8, DT_INT16, DT_INT32, DT_INT64, DT_UINT8, DT_UINT16, DT_UINT32, DT_UINT64, DT_BOOL)
_FLOATING = (DT_FLOAT, DT_FLOAT16, DT_BF16, DT_DOUBLE)
_INT64_MIN = -(2**63)


def dtype_support_list() -> tuple[int, ...]:
    """``GetDtypeSupportListBySocVersion``: DAV_2201 and DAV_3510 the 910B list, else the 910 list."""
    if _soc.current().npu_arch in ("DAV_2201", "DAV_3510"):
        return ASCEND910B_DTYPE_SUPPORT_LIST
    return ASCEND910_DTYPE_SUPPORT_LIST


def axpy_dtypes() -> tuple[int, ...]:
    """``UseAxpy``: the promoted dtypes that take Axpy when alpha is not 1."""
    return ARCH3510_AXPY_DTYPE_SUPPORT_LIST if _soc.current().is_regbase else AXPY_DTYPE_SUPPORT_LIST


def axpy_v2_dtypes() -> tuple[int, ...]:
    """``UseAxpyV2``: Ascend950 only."""
    return ARCH3510_AXPY_V2_DTYPE_SUPPORT_LIST if _soc.current().is_regbase else ()


DTYPE_FACTS = {
    "self, other (aclnnSub, aclnnInplaceSub); self (aclnnSubs, aclnnInplaceSubs)": dtype_support_list,
    "promoted dtypes computed by Axpy when alpha is not 1": axpy_dtypes,
    "promoted dtypes computed by AxpyV2 when alpha is not 1": axpy_v2_dtypes,
}


def check_promote_type(self_dt: int, other_dt: int, alpha: aclScalar, out_dt: int, promote: int) -> bool:
    """``CheckPromoteType`` (the Sub version: ``Result type ...`` for alpha and for out)."""
    name = dtypes.dt_name
    if promote == DT_UNDEFINED:
        op_loge(
            S.ACLNN_ERR_PARAM_INVALID,
            f"Self dtype {name(self_dt)} and other dtype {name(other_dt)} can not promote dtype.",
        )
        return False
    if promote == DT_BOOL:
        if alpha.dtype not in _INTEGRAL_OR_BOOL:
            op_loge(
                S.ACLNN_ERR_PARAM_INVALID,
                f"Alpha dtype {name(alpha.dtype)} can't be cast to the promote dtype {name(promote)}.",
            )
            return False
    elif not checks.check_result_dtype_cast(alpha.dtype, promote):
        return False
    if _soc.current().is_regbase:
        if not (checks.check_result_dtype_cast(self_dt, promote) and checks.check_result_dtype_cast(other_dt, promote)):
            return False
        supported = dtype_support_list()
        if promote not in supported:
            op_loge(
                S.ACLNN_ERR_PARAM_INVALID,
                f"Input dtype {name(promote)} is not implemented, itshould be in dtype support list "
                f"{dtypes.dt_list_str(supported)}.",
            )
            return False
    return checks.check_result_dtype_cast(promote, out_dt)


def _neg_alpha_float(alpha: aclScalar) -> float:
    """``alpha->ToFloat() * (-1.0f)`` (exact in float32)."""
    return -float(scalars.to_float(alpha))


def _neg_alpha_tensor(ex: aclOpExecutor, alpha: aclScalar, promote: int) -> aclTensor | None:
    """``ConvertToTensor(AllocScalar(alpha->ToInt64() * -1), promote)``: an INT64 scalar, then
    C's conversion to the promoted integer type (INT64_MIN stays INT64_MIN: the product wraps)."""
    neg = -scalars.to_int(alpha, DT_INT64)
    if neg > 2**63 - 1:
        neg = _INT64_MIN
    alpha_neg = aclScalar(neg, DT_INT64)
    return ex.convert_scalar(alpha_neg, promote)


def _scaled_sub(ex: aclOpExecutor, self_p: aclTensor, other_p: aclTensor, alpha: aclScalar, promote: int) -> Any:
    """The four-way compute of aclnnSub and aclnnSubs, on inputs already of the promoted dtype."""
    if is_equal_to_one(promote, alpha):
        return l0_sub(self_p, other_p, ex)
    if promote in axpy_dtypes():
        return l0_axpy(self_p, other_p, _neg_alpha_float(alpha), ex)
    if promote in axpy_v2_dtypes():
        neg_t = _neg_alpha_tensor(ex, alpha, promote)
        return l0_axpy_v2(self_p, other_p, neg_t, ex) if neg_t is not None else None
    alpha_t = ex.convert_scalar(alpha, promote)
    mul_out = l0_mul(other_p, alpha_t, ex) if alpha_t is not None else None
    if mul_out is None:
        return None
    return l0_sub(self_p, mul_out, ex)


# -- aclnnSub -------------------------------------------------------------------------------------


def _check_shape(self: aclTensor, other: aclTensor, out: aclTensor) -> bool:
    if not (
        checks.check_max_dim(self, MAX_SUPPORT_DIMS_NUMS, "self")
        and checks.check_max_dim(other, MAX_SUPPORT_DIMS_NUMS, "other")
    ):
        return False
    shape = checks.broadcast_and_infer_shape(self, other, "self", "other")
    return shape is not None and checks.check_shape_equal_expected(out, shape, "out")


def _check_params(self: Any, other: Any, alpha: Any, out: Any) -> int:
    if not (
        checks.check_null(self, "self")
        and checks.check_null(other, "other")
        and checks.check_null(alpha, "alpha", "aclScalar")
        and checks.check_null(out, "out")
    ):
        return S.ACLNN_ERR_PARAM_NULLPTR
    supported = dtype_support_list()
    if not (
        checks.check_dtype_support(self, supported, "self") and checks.check_dtype_support(other, supported, "other")
    ):
        return S.ACLNN_ERR_PARAM_INVALID
    promote = dtypes.promote_type(self.dtype, other.dtype)
    if not check_promote_type(self.dtype, other.dtype, alpha, out.dtype, promote):
        return S.ACLNN_ERR_PARAM_INVALID
    if not _check_shape(self, other, out):
        return S.ACLNN_ERR_PARAM_INVALID
    return S.ACLNN_SUCCESS  # a non-ND format is only a warning in the log


def sub_promote_type(self: aclTensor, other: aclTensor, alpha: aclScalar) -> int:
    """The dtype aclnnSub computes in: ``PromoteType``, raised to FLOAT (DOUBLE stays DOUBLE)
    off Ascend950 when it is floating and alpha is not 1."""
    promote = dtypes.promote_type(self.dtype, other.dtype)
    if not _soc.current().is_regbase and not float_is_one(alpha) and promote in _FLOATING:
        promote = DT_DOUBLE if promote == DT_DOUBLE else DT_FLOAT
    return promote


@_l2.phase1("aclnnSub")
def aclnnSubGetWorkspaceSize(
    self: aclTensor | None, other: aclTensor | None, alpha: aclScalar | None, out: aclTensor | None,
    workspaceSize: Any, executor: Any,
) -> int:  # fmt: skip
    """Phase 1 of aclnnSub: ``out = self - alpha * other`` (broadcast)."""
    ex = _l2.l2_dfx_phase1("aclnnSub", workspaceSize, executor, self=self, other=other, alpha=alpha, out=out)
    if ex is None:
        return S.ACLNN_SUCCESS
    ret = _check_params(self, other, alpha, out)
    if ret != S.ACLNN_SUCCESS:
        return ret
    assert self is not None and other is not None and alpha is not None and out is not None
    ex.bind_arguments(self=self, other=other, out=out)
    if self.is_empty() or other.is_empty():
        return empty(ex, workspaceSize, executor)
    promote = sub_promote_type(self, other, alpha)
    self_p = contiguous_cast(ex, self, promote)
    if self_p is None:
        return S.ACLNN_ERR_INNER_NULLPTR
    other_p = contiguous_cast(ex, other, promote)
    if other_p is None:
        return S.ACLNN_ERR_INNER_NULLPTR
    return finish(ex, _scaled_sub(ex, self_p, other_p, alpha, promote), out, workspaceSize, executor)


aclnnSub = _l2.phase2("aclnnSub")


# -- aclnnSubs ------------------------------------------------------------------------------------


def _check_params_scalar(self: Any, other: Any, alpha: Any, out: Any) -> int:
    if not (
        checks.check_null(self, "self")
        and checks.check_null(other, "other", "aclScalar")
        and checks.check_null(alpha, "alpha", "aclScalar")
        and checks.check_null(out, "out")
    ):
        return S.ACLNN_ERR_PARAM_NULLPTR
    if not checks.check_dtype_support(self, dtype_support_list(), "self"):
        return S.ACLNN_ERR_PARAM_INVALID
    promote = promote_type_scalar(self, other, alpha, out)  # identical in aclnn_add.cpp and aclnn_sub.cpp
    if not check_promote_type(self.dtype, other.dtype, alpha, out.dtype, promote):
        return S.ACLNN_ERR_PARAM_INVALID
    if not (
        checks.check_max_dim(self, MAX_SUPPORT_DIMS_NUMS, "self") and checks.check_shape_equal(self, out, "self", "out")
    ):
        return S.ACLNN_ERR_PARAM_INVALID
    return S.ACLNN_SUCCESS  # a FRACTAL_NZ self is only a warning in the log


@_l2.phase1("aclnnSubs")
def aclnnSubsGetWorkspaceSize(
    self: aclTensor | None, other: aclScalar | None, alpha: aclScalar | None, out: aclTensor | None,
    workspaceSize: Any, executor: Any,
) -> int:  # fmt: skip
    """Phase 1 of aclnnSubs: ``out = self - alpha * other`` with a scalar ``other``."""
    ex = _l2.l2_dfx_phase1("aclnnSubs", workspaceSize, executor, self=self, other=other, alpha=alpha, out=out)
    if ex is None:
        return S.ACLNN_SUCCESS
    ret = _check_params_scalar(self, other, alpha, out)
    if ret != S.ACLNN_SUCCESS:
        return ret
    assert self is not None and other is not None and alpha is not None and out is not None
    ex.bind_arguments(self=self, out=out)
    if self.is_empty():
        return empty(ex, workspaceSize, executor)
    promote = promote_type_scalar(self, other, alpha, out)
    self_p = contiguous_cast(ex, self, promote)
    if self_p is None:
        return S.ACLNN_ERR_INNER_NULLPTR
    other_t = ex.convert_scalar(other, promote)
    if other_t is None:
        return S.ACLNN_ERR_INNER_NULLPTR
    return finish(ex, _scaled_sub(ex, self_p, other_t, alpha, promote), out, workspaceSize, executor)


aclnnSubs = _l2.phase2("aclnnSubs")


# -- in place -------------------------------------------------------------------------------------


def _check_inplace(selfRef: Any, other: Any) -> None:
    """``CheckInplace``, before L2_DFX_PHASE_1 (its EZ1007 names no operator). Declared to return
    aclnnStatus, it returns ``false`` on failure, which is ACLNN_SUCCESS: it stops at its first
    failure, having reported it, and never fails the call. Its last check (selfRef broadcasts
    to the broadcast shape) cannot fail: that shape is selfRef's broadcast with other."""
    if not (checks.check_null(selfRef, "selfRef") and checks.check_null(other, "other")):
        return
    checks.broadcast_and_infer_shape(selfRef, other, "selfRef", "other")


@_l2.phase1("aclnnInplaceSub")
def aclnnInplaceSubGetWorkspaceSize(
    selfRef: aclTensor | None, other: aclTensor | None, alpha: aclScalar | None, workspaceSize: Any, executor: Any
) -> int:
    """Phase 1 of aclnnInplaceSub: ``selfRef -= alpha * other`` (aclnnSub's phase 1, out = selfRef)."""
    _check_inplace(selfRef, other)
    return int(aclnnSubGetWorkspaceSize(selfRef, other, alpha, selfRef, workspaceSize, executor))


aclnnInplaceSub = _l2.phase2("aclnnInplaceSub", "aclnnSub")


@_l2.phase1("aclnnInplaceSubs")
def aclnnInplaceSubsGetWorkspaceSize(
    selfRef: aclTensor | None, other: aclScalar | None, alpha: aclScalar | None, workspaceSize: Any, executor: Any
) -> int:
    """Phase 1 of aclnnInplaceSubs: ``selfRef -= alpha * other`` (aclnnSubs' phase 1, out = selfRef)."""
    return int(aclnnSubsGetWorkspaceSize(selfRef, other, alpha, selfRef, workspaceSize, executor))


aclnnInplaceSubs = _l2.phase2("aclnnInplaceSubs", "aclnnSubs")
