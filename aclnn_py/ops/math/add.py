"""aclnnAdd, aclnnAdds, aclnnInplaceAdd, aclnnInplaceAdds — side by side with ops-math
``math/add/op_api/aclnn_add.cpp``: ``out = self + alpha * other``.

aclnnAdd: L2_DFX_PHASE_1 -> CheckNotNull (self, other, alpha, out) -> self, other in the chip's
list -> CheckPromoteType -> CheckShape (ranks <= 8, broadcast, == out's shape) -> empty
shortcut. Graph: the mixed FLOAT16/BFLOAT16 + FLOAT pairs with alpha 1 add directly into FLOAT;
otherwise Contiguous + Cast both to the promoted dtype, then Add (alpha 1), Axpy, AxpyV2
(Ascend950) or Mul + Add by dtype; then Cast to out's dtype and ViewCopy.

aclnnAdds: the same with a scalar ``other`` (PromoteTypeScalar: the scalar seldom widens the
tensor's dtype), converted to a tensor of the promoted dtype. The in-place APIs run the
out-of-place phase 1 with ``out = selfRef``; aclnnInplaceAdd checks the broadcast first.

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
    DT_COMPLEX32,
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
from ...executor.api import hand_out
from ...executor.checks import MAX_SUPPORT_DIMS_NUMS, op_loge
from ...executor.executor import aclOpExecutor
from ...l0.add import add as l0_add
from ...l0.add import is_add_support_non_contiguous, is_mix
from ...l0.axpy import axpy as l0_axpy
from ...l0.axpy import axpy_v2 as l0_axpy_v2
from ...l0.cast import cast
from ...l0.contiguous import view_copy
from ...l0.mul import mul as l0_mul
from ...tensor import aclScalar, aclTensor
from .. import _l2
from .._graph import contiguous_cast, contiguous_pair, empty, finish
from .._promote import COMPLEX, FLOATING, casted_float, combine_categories, scalar_default_dtype

S = aclnnStatus

ASCEND910B_DTYPE_SUPPORT_LIST = (
    DT_FLOAT, DT_INT32, DT_INT64, DT_FLOAT16, DT_INT16, DT_INT8, DT_UINT8, DT_DOUBLE, DT_BOOL, DT_BF16,
    DT_COMPLEX64, DT_COMPLEX128,
)  # fmt: skip
ASCEND910_DTYPE_SUPPORT_LIST = (
    DT_FLOAT, DT_INT32, DT_INT64, DT_FLOAT16, DT_INT16, DT_INT8, DT_UINT8, DT_DOUBLE, DT_BOOL, DT_COMPLEX64,
    DT_COMPLEX128,
)  # fmt: skip
AXPY_DTYPE_SUPPORT_LIST = (DT_FLOAT, DT_INT32, DT_FLOAT16)
ARCH3510_AXPY_DTYPE_SUPPORT_LIST = (DT_FLOAT, DT_FLOAT16, DT_BF16)
ARCH3510_AXPY_V2_DTYPE_SUPPORT_LIST = (DT_FLOAT, DT_BF16, DT_FLOAT16, DT_INT32, DT_INT64, DT_INT8, DT_UINT8, DT_BOOL)

_INTEGRAL_OR_BOOL = (DT_INT8, DT_INT16, DT_INT32, DT_INT64, DT_UINT8, DT_UINT16, DT_UINT32, DT_UINT64, DT_BOOL)


def dtype_support_list() -> tuple[int, ...]:
    """``GetDtypeSupportListBySocVersion``: DAV_2201 and DAV_3510 the 910B list, else the 910 list."""
    return (
        ASCEND910B_DTYPE_SUPPORT_LIST
        if _soc.current().npu_arch in ("DAV_2201", "DAV_3510")
        else (ASCEND910_DTYPE_SUPPORT_LIST)
    )


DTYPE_FACTS = {
    "self, other (aclnnAdd, aclnnInplaceAdd); self (aclnnAdds, aclnnInplaceAdds)": dtype_support_list,
}


def is_support_axpy(promote: int) -> bool:
    lst = ARCH3510_AXPY_DTYPE_SUPPORT_LIST if _soc.current().is_regbase else AXPY_DTYPE_SUPPORT_LIST
    return promote in lst


def is_support_axpy_v2(promote: int) -> bool:
    return _soc.current().is_regbase and promote in ARCH3510_AXPY_V2_DTYPE_SUPPORT_LIST


def float_is_one(alpha: aclScalar) -> bool:
    """alpha is 1 as ``!(alpha->ToFloat() > 1 || alpha->ToFloat() < 1)`` tests it (aclnn_sub.cpp too)."""
    v = scalars.to_float(alpha)
    return not (v > 1 or v < 1)  # NaN counts as 1


def is_equal_to_one(calc_type: int, alpha: aclScalar) -> bool:
    """``IsEqualToOne``: on Ascend950 a complex alpha or type is never 1 and DOUBLE compares as double."""
    if not _soc.current().is_regbase:
        return float_is_one(alpha)
    if alpha.dtype in COMPLEX or calc_type in COMPLEX:
        return False
    if calc_type == DT_DOUBLE:
        v = scalars.to_double(alpha)
        return not (v > 1 or v < 1)
    return float_is_one(alpha)


def check_promote_type(self_dt: int, other_dt: int, alpha: aclScalar, promote: int, out_dt: int) -> bool:
    """``CheckPromoteType`` (the Add version)."""
    name = dtypes.dt_name
    if promote == DT_UNDEFINED:
        op_loge(
            S.ACLNN_ERR_PARAM_INVALID,
            f"Self dtype {name(self_dt)} and other dtype {name(other_dt)} can not promote dtype.",
        )
        return False
    alpha_ok = alpha.dtype in _INTEGRAL_OR_BOOL if promote == DT_BOOL else dtypes.can_cast(alpha.dtype, promote)
    if not alpha_ok:
        op_loge(
            S.ACLNN_ERR_PARAM_INVALID,
            f"Alpha dtype {name(alpha.dtype)} can't be cast to the promote dtype {name(promote)}.",
        )
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
    if not dtypes.can_cast(promote, out_dt):
        op_loge(
            S.ACLNN_ERR_PARAM_INVALID,
            f"Promote dtype {name(promote)} can't be cast to the desired output type {name(out_dt)}.",
        )
        return False
    return True


# -- aclnnAdd -------------------------------------------------------------------------------------


def _check_shape(self: aclTensor, other: aclTensor, out: aclTensor) -> bool:
    if not (
        checks.check_max_dim(self, MAX_SUPPORT_DIMS_NUMS, "self")
        and checks.check_max_dim(other, MAX_SUPPORT_DIMS_NUMS, "other")
    ):
        return False
    shape = checks.broadcast_and_infer_shape(self, other, "self", "other")
    if shape is None:
        return False
    if shape != out.view_shape:
        op_loge(
            S.ACLNN_ERR_PARAM_INVALID,
            f"Shape of out should be {dtypes.shape_str(shape)}, but current is {dtypes.shape_str(out.view_shape)}.",
        )
        return False
    return True


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
    if not check_promote_type(self.dtype, other.dtype, alpha, promote, out.dtype):
        return S.ACLNN_ERR_PARAM_INVALID
    if not _check_shape(self, other, out):
        return S.ACLNN_ERR_PARAM_INVALID
    return S.ACLNN_SUCCESS  # a non-ND format is only a warning in the log


def _add_tensors(ex: aclOpExecutor, self: aclTensor, other: aclTensor, alpha: aclScalar) -> aclTensor | None:
    """The compute part of aclnnAdd's graph; the result before the cast to out's dtype."""
    regbase = _soc.current().is_regbase
    if is_mix(self, other) and float_is_one(alpha):
        if regbase:
            return l0_add(self, other, ex)  # straight on the strided views
        pair = contiguous_pair(ex, self, other)  # CHECK_RET after each: a failed self stops there
        return None if pair is None else l0_add(*pair, ex)
    promote = dtypes.promote_type(self.dtype, other.dtype)
    if is_equal_to_one(promote, alpha) and promote == self.dtype == other.dtype:
        if is_add_support_non_contiguous(self, other):
            return l0_add(self, other, ex)
        pair = contiguous_pair(ex, self, other)
        return None if pair is None else l0_add(*pair, ex)
    pair = contiguous_pair(ex, self, other)
    if pair is None:
        return None
    self_p = cast(pair[0], promote, ex)
    other_p = cast(pair[1], promote, ex) if self_p is not None else None
    if self_p is None or other_p is None:
        return None
    if is_equal_to_one(promote, alpha):
        return l0_add(self_p, other_p, ex)
    if is_support_axpy(promote):
        return l0_axpy(self_p, other_p, float(scalars.to_float(alpha)), ex)
    alpha_t = ex.convert_scalar(alpha, promote)
    if alpha_t is None:
        return None
    if is_support_axpy_v2(promote):
        return l0_axpy_v2(self_p, other_p, alpha_t, ex)
    mul_out = l0_mul(other_p, alpha_t, ex)
    if mul_out is None:
        return None
    return l0_add(self_p, mul_out, ex)


@_l2.phase1("aclnnAdd")
def aclnnAddGetWorkspaceSize(
    self: aclTensor | None, other: aclTensor | None, alpha: aclScalar | None, out: aclTensor | None,
    workspaceSize: Any, executor: Any,
) -> int:  # fmt: skip
    """Phase 1 of aclnnAdd: ``out = self + alpha * other`` (broadcast)."""
    ex = _l2.l2_dfx_phase1("aclnnAdd", workspaceSize, executor, self=self, other=other, alpha=alpha, out=out)
    if ex is None:
        return S.ACLNN_SUCCESS
    ret = _check_params(self, other, alpha, out)
    if ret != S.ACLNN_SUCCESS:
        return ret
    assert self is not None and other is not None and alpha is not None and out is not None
    ex.bind_arguments(self=self, other=other, out=out)
    if self.is_empty() or other.is_empty():
        return empty(ex, workspaceSize, executor)
    return finish(ex, _add_tensors(ex, self, other, alpha), out, workspaceSize, executor)


aclnnAdd = _l2.phase2("aclnnAdd")


# -- aclnnAdds ------------------------------------------------------------------------------------


def promote_type_scalar(self: aclTensor, other: aclScalar, alpha: aclScalar, out: aclTensor) -> int:
    """``PromoteTypeScalar``: how a scalar takes part in the result dtype."""
    s, o = self.dtype, other.dtype
    if not _soc.current().is_regbase:
        if s in COMPLEX or o in COMPLEX:
            return dtypes.promote_type(s, o)
        if s in FLOATING:
            return s
        if o == DT_DOUBLE and out.dtype == DT_FLOAT:
            return DT_FLOAT
        if o in FLOATING or s == DT_BOOL:
            return dtypes.promote_type(s, o)
        return s
    promote = combine_categories(s, scalar_default_dtype(o))
    if promote in (DT_FLOAT16, DT_BF16):
        eps = scalars.FLT_EPSILON
        for sc in (other, alpha):
            casted, exact = casted_float(promote, sc), float(scalars.to_float(sc))
            if not abs(casted - exact) <= eps:  # a NaN or an infinity after rounding fails too
                promote = DT_FLOAT
                break
    return DT_COMPLEX64 if promote == DT_COMPLEX32 else promote


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
    promote = promote_type_scalar(self, other, alpha, out)
    if not check_promote_type(self.dtype, other.dtype, alpha, promote, out.dtype):
        return S.ACLNN_ERR_PARAM_INVALID
    if not (
        checks.check_max_dim(self, MAX_SUPPORT_DIMS_NUMS, "self") and checks.check_shape_equal(self, out, "self", "out")
    ):
        return S.ACLNN_ERR_PARAM_INVALID
    return S.ACLNN_SUCCESS


@_l2.phase1("aclnnAdds")
def aclnnAddsGetWorkspaceSize(
    self: aclTensor | None, other: aclScalar | None, alpha: aclScalar | None, out: aclTensor | None,
    workspaceSize: Any, executor: Any,
) -> int:  # fmt: skip
    """Phase 1 of aclnnAdds: ``out = self + alpha * other`` with a scalar ``other``."""
    ex = _l2.l2_dfx_phase1("aclnnAdds", workspaceSize, executor, self=self, other=other, alpha=alpha, out=out)
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
    other_t = ex.convert_scalar(other, promote)
    if other_t is None:
        return S.ACLNN_ERR_INNER_NULLPTR
    one = is_equal_to_one(promote, alpha)
    axpy, axpy_v2 = is_support_axpy(promote), is_support_axpy_v2(promote)
    if self.dtype == promote and is_add_support_non_contiguous(self, other_t) and (one or not (axpy or axpy_v2)):
        self_p: aclTensor | None = self  # a view of self, no kernel
    else:
        self_p = contiguous_cast(ex, self, promote)
    if self_p is None:
        return S.ACLNN_ERR_INNER_NULLPTR
    if one:
        result = l0_add(self_p, other_t, ex)
    elif axpy:
        result = l0_axpy(self_p, other_t, float(scalars.to_float(alpha)), ex)
    elif (alpha_t := ex.convert_scalar(alpha, promote)) is None:
        result = None
    elif axpy_v2:
        result = l0_axpy_v2(self_p, other_t, alpha_t, ex)
    else:
        mul_out = l0_mul(other_t, alpha_t, ex)
        result = l0_add(self_p, mul_out, ex) if mul_out is not None else None
    if result is None:
        return S.ACLNN_ERR_INNER_NULLPTR
    cast_out = cast(result, out.dtype, ex)
    bool_fix = self.dtype == other.dtype == alpha.dtype == DT_BOOL and out.dtype != DT_BOOL
    if cast_out is not None and bool_fix and scalars.to_bool(other) and scalars.to_bool(alpha):
        # the TBE Add stores True + True as 2: through BOOL and back (CANN does this on every chip)
        as_bool = cast(cast_out, DT_BOOL, ex)
        cast_out = cast(as_bool, out.dtype, ex) if as_bool is not None else None
    if cast_out is None or view_copy(cast_out, out, ex) is None:
        return S.ACLNN_ERR_INNER_NULLPTR
    return hand_out(ex, ex.finish(), workspaceSize, executor)


aclnnAdds = _l2.phase2("aclnnAdds")


# -- in place -------------------------------------------------------------------------------------


def _check_inplace(selfRef: Any, other: Any) -> int:
    """``CheckInplace``: before L2_DFX_PHASE_1, so its EZ1007 names no operator."""
    if not (checks.check_null(selfRef, "selfRef") and checks.check_null(other, "other")):
        return S.ACLNN_ERR_PARAM_NULLPTR
    shape = checks.broadcast_and_infer_shape(selfRef, other, "selfRef", "other")
    if shape is None or not checks.check_self_ref_shape(selfRef, shape):
        return S.ACLNN_ERR_PARAM_INVALID
    return S.ACLNN_SUCCESS


@_l2.phase1("aclnnInplaceAdd")
def aclnnInplaceAddGetWorkspaceSize(
    selfRef: aclTensor | None, other: aclTensor | None, alpha: aclScalar | None, workspaceSize: Any, executor: Any
) -> int:
    """Phase 1 of aclnnInplaceAdd: ``selfRef += alpha * other`` (aclnnAdd's phase 1, out = selfRef)."""
    ret = _check_inplace(selfRef, other)
    if ret != S.ACLNN_SUCCESS:
        return ret
    return int(aclnnAddGetWorkspaceSize(selfRef, other, alpha, selfRef, workspaceSize, executor))


aclnnInplaceAdd = _l2.phase2("aclnnInplaceAdd", "aclnnAdd")


@_l2.phase1("aclnnInplaceAdds")
def aclnnInplaceAddsGetWorkspaceSize(
    selfRef: aclTensor | None, other: aclScalar | None, alpha: aclScalar | None, workspaceSize: Any, executor: Any
) -> int:
    """Phase 1 of aclnnInplaceAdds: ``selfRef += alpha * other`` (aclnnAdds' phase 1, out = selfRef)."""
    return int(aclnnAddsGetWorkspaceSize(selfRef, other, alpha, selfRef, workspaceSize, executor))


aclnnInplaceAdds = _l2.phase2("aclnnInplaceAdds", "aclnnAdds")
