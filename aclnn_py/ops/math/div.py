"""aclnnDiv, aclnnDivs, aclnnInplaceDiv, aclnnInplaceDivs — side by side with ops-math
``math/div/op_api/aclnn_div.cpp``: ``out = self / other``, always true division (integers and
bool through float).

aclnnDiv: L2_DFX_PHASE_1 -> out, other, self non-null (in that order) -> ranks <= 8, broadcast,
``y`` (= out) of the broadcast shape -> other's, then self's dtype in the list -> promotion (per
chip) castable to out -> no private format on self, other, out -> empty shortcut. Graph:
Ascend910B/910_93 divide any two of FLOAT16/FLOAT/BFLOAT16 directly (``RealDiv`` with mixed inputs:
self's dtype when both agree, else FLOAT); otherwise each input is cast to the promoted dtype
(Ascend950 reads strided views that need no cast) and ``RealDiv`` runs (INT32 and BOOL inputs
give FLOAT); then Cast to out's dtype and ViewCopy.

aclnnDivs: out and self formats, the scalar's and self's dtypes, self's rank and shape (= out's),
then castability; the compute dtype is (mostly) self's, FLOAT for integers; Ascend910B divides
the mixed half/float pairs directly into self's dtype; Ascend950 multiplies FLOAT16/BFLOAT16/
FLOAT tensors by ``float(1.0 / (double)other)`` (``Muls``), except a strided tensor with a DOUBLE
scalar, which is divided.

aclnnInplaceDiv checks its arguments before any L2_DFX_PHASE_1, then runs its own graph for the
Ascend910B mixed pairs or aclnnDiv's phase 1 with ``out = selfRef``; aclnnInplaceDivs is
aclnnDivs' phase 1 with ``out = selfRef``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

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
    DT_UNDEFINED,
)  # fmt: skip
from ...executor import checks
from ...executor.checks import MAX_SUPPORT_DIMS_NUMS, op_loge
from ...executor.executor import aclOpExecutor
from ...l0.contiguous import contiguous, is_contiguous
from ...l0.muls import muls as l0_muls
from ...l0.real_div import MODE_REAL_DIV, is_real_div_support_non_contiguous, real_div_mode, real_div_scalar
from ...tensor import aclScalar, aclTensor
from .. import _l2
from .._graph import contiguous_cast, contiguous_pair, empty, finish
from .._promote import COMPLEX, FLOATING, combine_categories, scalar_default_dtype

S = aclnnStatus

ASCEND910_DTYPE_SUPPORT_LIST = (
    DT_FLOAT16, DT_FLOAT, DT_INT64, DT_INT32, DT_INT16, DT_INT8, DT_UINT8, DT_DOUBLE, DT_BOOL, DT_COMPLEX64,
    DT_COMPLEX128,
)  # fmt: skip
ASCEND910B_DTYPE_SUPPORT_LIST = (
    DT_FLOAT16, DT_FLOAT, DT_INT64, DT_INT32, DT_INT16, DT_INT8, DT_UINT8, DT_DOUBLE, DT_BOOL, DT_BF16, DT_COMPLEX64,
    DT_COMPLEX128,
)  # fmt: skip
# every pair of FLOAT16, FLOAT, BFLOAT16, the equal ones included
ALLOWED_MIX_DTYPE_PAIRS = frozenset(
    (a, b) for a in (DT_FLOAT16, DT_FLOAT, DT_BF16) for b in (DT_FLOAT16, DT_FLOAT, DT_BF16)
)
DIVS_MIX_DTYPE_PAIRS = frozenset(
    {(DT_FLOAT16, DT_FLOAT), (DT_FLOAT, DT_FLOAT16), (DT_BF16, DT_FLOAT), (DT_FLOAT, DT_BF16), (DT_BF16, DT_DOUBLE),
     (DT_FLOAT16, DT_BF16), (DT_BF16, DT_FLOAT16)}
)  # fmt: skip
FORMAT_MESSAGE = "Format only support ND、NCHW、NHWC、HWCN、NDHWC、NCDHW."
_INTEGRAL = (DT_INT8, DT_INT16, DT_INT32, DT_INT64, DT_UINT8, dtypes.DT_UINT16, dtypes.DT_UINT32, dtypes.DT_UINT64)


def dtype_support_list() -> tuple[int, ...]:
    """``GetDtypeSupportList``: NpuArch DAV_2201 or regbase (Ascend910B, 910_93, 950) take the
    list with BFLOAT16, the others (Ascend910, 310P) the list without."""
    soc = _soc.current()
    return (
        ASCEND910B_DTYPE_SUPPORT_LIST if soc.npu_arch == "DAV_2201" or soc.is_regbase else ASCEND910_DTYPE_SUPPORT_LIST
    )


DTYPE_FACTS = {
    "self, other (aclnnDiv, aclnnInplaceDiv); self and the scalar other (aclnnDivs, aclnnInplaceDivs)": (
        dtype_support_list
    ),
}


def _is_910b_family() -> bool:
    """``socVersion == ASCEND910B || socVersion == ASCEND910_93``."""
    return _soc.current().family in ("Ascend910B", "Ascend910_93")


def is_mix_dtype_tensor_support(self: aclTensor, other: aclTensor) -> bool:
    """``isMixDtypeTensorSupport``: Ascend910B/910_93 and two of FLOAT16, FLOAT, BFLOAT16."""
    return _is_910b_family() and (self.dtype, other.dtype) in ALLOWED_MIX_DTYPE_PAIRS


def is_divs_mix_dtype_support(self: aclTensor, other: aclScalar) -> bool:
    """``isDivsMixDtypeSupport``: Ascend910B/910_93 and one of seven (tensor, scalar) pairs."""
    return _is_910b_family() and (self.dtype, other.dtype) in DIVS_MIX_DTYPE_PAIRS


def _promote_integer_inputs_to_float(dt: int) -> int:
    return DT_FLOAT if dt in _INTEGRAL else dt


def infer_div_mode_dtype(self_dt: int, other_dt: int) -> int:
    """``InferDivModeDtype(self, other, MODE_REAL_DIV)`` (Ascend950): INT32 and BOOL stay, other
    integers become FLOAT."""
    promote = dtypes.promote_type(self_dt, other_dt)
    if promote not in (DT_INT32, DT_BOOL):
        promote = _promote_integer_inputs_to_float(promote)
    return promote


def compatible_infer_div_dtype(self_dt: int, other_dt: int) -> int:
    """``CompatibleInferDivDtype`` (off Ascend950): floating, complex and BOOL promotions stay, so
    does INT32 / INT32 on Ascend910B/910_93; the rest becomes FLOAT."""
    promote = dtypes.promote_type(self_dt, other_dt)
    keep = (
        promote in FLOATING
        or promote in COMPLEX
        or promote == DT_BOOL
        or (self_dt == other_dt == DT_INT32 and _is_910b_family())
    )
    return promote if keep else DT_FLOAT


def infer_divs_mode_dtype(self_dt: int, other_dt: int) -> int:
    """``InferDivsModeDtype(self, other, MODE_REAL_DIV)``: the scalar promotes by its category."""
    promote = combine_categories(self_dt, scalar_default_dtype(other_dt))
    if promote not in (DT_INT32, DT_BOOL):
        promote = _promote_integer_inputs_to_float(promote)
    return DT_COMPLEX64 if promote == dtypes.DT_COMPLEX32 else promote


# -- aclnnDiv -------------------------------------------------------------------------------------


def _check_shape(self: aclTensor, other: aclTensor, y: aclTensor) -> bool:
    if not (
        checks.check_max_dim(self, MAX_SUPPORT_DIMS_NUMS, "self")
        and checks.check_max_dim(other, MAX_SUPPORT_DIMS_NUMS, "other")
    ):
        return False
    shape = checks.broadcast_and_infer_shape(self, other, "self", "other")
    return shape is not None and checks.check_shape_equal_expected(y, shape, "y")


def _check_promote_type(self: aclTensor, other: aclTensor, y: aclTensor) -> bool:
    regbase = _soc.current().is_regbase
    promote = infer_div_mode_dtype(self.dtype, other.dtype) if regbase else dtypes.promote_type(self.dtype, other.dtype)
    if promote == DT_UNDEFINED:
        op_loge(
            S.ACLNN_ERR_PARAM_INVALID,
            f"Self dtype {dtypes.dt_name(self.dtype)} and other dtype {dtypes.dt_name(other.dtype)} can not promote "
            "dtype.",
        )
        return False
    compute = DT_FLOAT if regbase and promote in (DT_INT32, DT_BOOL) else promote
    return checks.check_result_dtype_cast(compute, y.dtype)


def _check_format(*tensors: aclTensor) -> bool:
    for t in tensors:
        if dtypes.is_private_format(t.storage_format):
            op_loge(S.ACLNN_ERR_PARAM_INVALID, FORMAT_MESSAGE)
            return False
    return True


def _check_params(self: Any, other: Any, y: Any) -> int:
    """``CheckParams(self, other, y, MODE_REAL_DIV)``."""
    if not (checks.check_null(y, "out") and checks.check_null(other, "other") and checks.check_null(self, "self")):
        return S.ACLNN_ERR_PARAM_NULLPTR
    if not _check_shape(self, other, y):
        return S.ACLNN_ERR_PARAM_INVALID
    supported = dtype_support_list()
    if not (
        checks.check_dtype_support(other, supported, "other") and checks.check_dtype_support(self, supported, "self")
    ):
        return S.ACLNN_ERR_PARAM_INVALID
    if not _check_promote_type(self, other, y):
        return S.ACLNN_ERR_PARAM_INVALID
    if not _check_format(self, other, y):
        return S.ACLNN_ERR_PARAM_INVALID
    return S.ACLNN_SUCCESS


def _to_promote(ex: aclOpExecutor, t: aclTensor, promote: int) -> aclTensor | None:
    """A view of ``t`` when Ascend950's RealDiv can read it as it is, else Contiguous + Cast."""
    if t.dtype == promote and is_real_div_support_non_contiguous(t):
        return t
    return contiguous_cast(ex, t, promote)


def _div_tensors(ex: aclOpExecutor, self: aclTensor, other: aclTensor) -> aclTensor | None:
    """``HandleMixDataTypeDiv`` / ``HandleNotMixDataTypeDiv``: the quotient before the last cast."""
    if is_mix_dtype_tensor_support(self, other):
        pair = contiguous_pair(ex, self, other)
        return real_div_scalar(*pair, False, ex) if pair is not None else None
    regbase = _soc.current().is_regbase
    promote = (
        infer_div_mode_dtype(self.dtype, other.dtype)
        if regbase
        else compatible_infer_div_dtype(self.dtype, other.dtype)
    )
    self_p = _to_promote(ex, self, promote)
    if self_p is None:
        return None
    other_p = _to_promote(ex, other, promote)
    if other_p is None:
        return None
    return real_div_mode(self_p, other_p, MODE_REAL_DIV, ex)


@_l2.phase1("aclnnDiv")
def aclnnDivGetWorkspaceSize(
    self: aclTensor | None, other: aclTensor | None, out: aclTensor | None, workspaceSize: Any, executor: Any
) -> int:
    """Phase 1 of aclnnDiv: ``out = self / other`` (broadcast, true division)."""
    ex = _l2.l2_dfx_phase1("aclnnDiv", workspaceSize, executor, self=self, other=other, out=out)
    if ex is None:
        return S.ACLNN_SUCCESS
    ret = _check_params(self, other, out)
    if ret != S.ACLNN_SUCCESS:
        return ret
    assert self is not None and other is not None and out is not None
    ex.bind_arguments(self=self, other=other, out=out)
    if self.is_empty() or other.is_empty():
        return empty(ex, workspaceSize, executor)
    return finish(ex, _div_tensors(ex, self, other), out, workspaceSize, executor)


aclnnDiv = _l2.phase2("aclnnDiv")


# -- aclnnInplaceDiv ------------------------------------------------------------------------------


def _check_inplace(selfRef: aclTensor | None, other: aclTensor | None) -> int:
    """``CheckInplace``: before any L2_DFX_PHASE_1 (its EZ1007 names no operator)."""
    if selfRef is None:
        op_loge(S.ACLNN_ERR_PARAM_NULLPTR, "Expected selfRef not to be null.")
        return S.ACLNN_ERR_PARAM_NULLPTR
    if other is None:
        op_loge(S.ACLNN_ERR_PARAM_NULLPTR, "Expected other not to be null.")
        return S.ACLNN_ERR_PARAM_NULLPTR
    shape = checks.broadcast_self_ref(selfRef, other)
    if shape is None or not checks.check_self_ref_shape(selfRef, shape):
        return S.ACLNN_ERR_PARAM_INVALID
    return S.ACLNN_SUCCESS


@_l2.phase1("aclnnInplaceDiv")
def aclnnInplaceDivGetWorkspaceSize(
    selfRef: aclTensor | None, other: aclTensor | None, workspaceSize: Any, executor: Any
) -> int:
    """Phase 1 of aclnnInplaceDiv: ``selfRef /= other`` (other broadcast to selfRef)."""
    ret = _check_inplace(selfRef, other)
    if ret != S.ACLNN_SUCCESS:
        return ret
    assert selfRef is not None and other is not None
    if not is_mix_dtype_tensor_support(selfRef, other):
        return int(aclnnDivGetWorkspaceSize(selfRef, other, selfRef, workspaceSize, executor))
    ex = _l2.l2_dfx_phase1("aclnnInplaceDiv", workspaceSize, executor, selfRef=selfRef, other=other, out=selfRef)
    if ex is None:
        return S.ACLNN_SUCCESS
    ret = _check_params(selfRef, other, selfRef)
    if ret != S.ACLNN_SUCCESS:
        return ret
    ex.bind_arguments(selfRef=selfRef, other=other)
    if selfRef.is_empty() or other.is_empty():
        return empty(ex, workspaceSize, executor)
    pair = contiguous_pair(ex, selfRef, other)
    # isScalar = true: the quotient comes out in selfRef's dtype (FLOAT16 / FLOAT -> FLOAT16)
    result = real_div_scalar(*pair, True, ex) if pair is not None else None
    return finish(ex, result, selfRef, workspaceSize, executor)


# Its executor comes from its own phase 1 (Ascend910B's mixed pairs) or from aclnnDiv's.
aclnnInplaceDiv = _l2.phase2("aclnnInplaceDiv", "aclnnInplaceDiv", "aclnnDiv")


# -- aclnnDivs ------------------------------------------------------------------------------------


def _check_promote_type_scalar(self: aclTensor, other: aclScalar, y: aclTensor) -> bool:
    if _soc.current().is_regbase:
        promote = infer_divs_mode_dtype(self.dtype, other.dtype)
        if promote == DT_UNDEFINED:
            op_loge(
                S.ACLNN_ERR_PARAM_INVALID,
                f"Self dtype {dtypes.dt_name(self.dtype)} and other dtype {dtypes.dt_name(other.dtype)} can not "
                "promote dtype.",
            )
            return False
        compute = DT_FLOAT if promote in (DT_INT32, DT_BOOL) else promote
        return checks.check_result_dtype_cast(compute, y.dtype)
    return checks.check_result_dtype_cast(self.dtype, y.dtype)  # off Ascend950: self's dtype only


def _check_params_scalar(self: Any, other: Any, y: Any) -> int:
    """``CheckParamsScalar(self, other, y, MODE_REAL_DIV)``."""
    if not (
        checks.check_null(self, "self")
        and checks.check_null(other, "other", "aclScalar")
        and checks.check_null(y, "out")
    ):
        return S.ACLNN_ERR_PARAM_NULLPTR
    if not _check_format(y, self):
        return S.ACLNN_ERR_PARAM_INVALID
    supported = dtype_support_list()
    # OP_CHECK_DTYPE_NOT_SUPPORT reads only the dtype: the scalar is checked like a tensor
    if not (
        checks.check_dtype_support(other, supported, "other") and checks.check_dtype_support(self, supported, "self")
    ):
        return S.ACLNN_ERR_PARAM_INVALID
    if not checks.check_max_dim(self, MAX_SUPPORT_DIMS_NUMS, "self"):
        return S.ACLNN_ERR_PARAM_INVALID
    if tuple(self.view_shape) != tuple(y.view_shape):
        op_loge(
            S.ACLNN_ERR_PARAM_INVALID,
            f"Shape of out should be {dtypes.shape_str(self.view_shape)}, but current is "
            f"{dtypes.shape_str(y.view_shape)}.",
        )
        return S.ACLNN_ERR_PARAM_INVALID
    if not _check_promote_type_scalar(self, other, y):
        return S.ACLNN_ERR_PARAM_INVALID
    return S.ACLNN_SUCCESS


def divs_promote_type(self: aclTensor, other: aclScalar) -> int:
    """The dtype aclnnDivs divides in (aclnn_div.cpp overwrites its scalar inference with this)."""
    s, o = self.dtype, other.dtype
    keep_self = s in FLOATING or s in COMPLEX or (s == o == DT_INT32 and _is_910b_family())
    promote = s if keep_self else DT_FLOAT
    if s == o == DT_BOOL:
        promote = s
    if o in COMPLEX:
        promote = dtypes.promote_type(promote, o)
    if _soc.current().is_regbase:
        if dtypes.promote_type(s, o) == DT_INT32:
            promote = DT_INT32
        if promote in (DT_FLOAT16, DT_BF16):  # PromoteLowPrecToFloat
            promote = DT_FLOAT
    return promote


def can_use_muls(self: aclTensor, other: aclScalar) -> bool:
    """``CanUseMuls``: Ascend950, a FLOAT16/BFLOAT16/FLOAT tensor, a floating scalar, and not a
    strided tensor with a DOUBLE scalar."""
    if not _soc.current().is_regbase:
        return False
    if self.dtype not in (DT_FLOAT16, DT_BF16, DT_FLOAT):
        return False
    if other.dtype not in (DT_FLOAT16, DT_BF16, DT_FLOAT, DT_DOUBLE):
        return False
    return not (not is_contiguous(self) and other.dtype == DT_DOUBLE)


def reciprocal(other: aclScalar) -> float:
    """``static_cast<float>(1.0 / other->ToDouble())``: the reciprocal in double, rounded once."""
    with np.errstate(all="ignore"):
        return float(np.float32(np.float64(1.0) / np.float64(scalars.to_double(other))))


def _divs(ex: aclOpExecutor, self: aclTensor, other: aclScalar) -> aclTensor | None:
    """The compute part of aclnnDivs' graph: the quotient before the cast to out's dtype."""
    if is_divs_mix_dtype_support(self, other):
        dt = DT_FLOAT if other.dtype == DT_DOUBLE else other.dtype
        other_t = ex.convert_scalar(other, dt)
        if other_t is None:
            return None
        self_c = self if _soc.current().is_regbase else contiguous(self, ex)  # never Ascend950 here
        return real_div_scalar(self_c, other_t, True, ex) if self_c is not None else None
    promote = divs_promote_type(self, other)
    use_muls = can_use_muls(self, other)
    if self.dtype == promote and is_real_div_support_non_contiguous(self) and not use_muls:
        other_t = ex.convert_scalar(other, promote)
        return real_div_mode(self, other_t, MODE_REAL_DIV, ex) if other_t is not None else None
    self_cast = contiguous_cast(ex, self, promote)
    if self_cast is None:
        return None
    if use_muls:
        return l0_muls(self_cast, reciprocal(other), ex)
    other_t = ex.convert_scalar(other, promote)
    return real_div_mode(self_cast, other_t, MODE_REAL_DIV, ex) if other_t is not None else None


@_l2.phase1("aclnnDivs")
def aclnnDivsGetWorkspaceSize(
    self: aclTensor | None, other: aclScalar | None, out: aclTensor | None, workspaceSize: Any, executor: Any
) -> int:
    """Phase 1 of aclnnDivs: ``out = self / other`` with a scalar ``other``."""
    ex = _l2.l2_dfx_phase1("aclnnDivs", workspaceSize, executor, self=self, other=other, out=out)
    if ex is None:
        return S.ACLNN_SUCCESS
    ret = _check_params_scalar(self, other, out)
    if ret != S.ACLNN_SUCCESS:
        return ret
    assert self is not None and other is not None and out is not None
    ex.bind_arguments(self=self, out=out)
    if self.is_empty():
        return empty(ex, workspaceSize, executor)
    return finish(ex, _divs(ex, self, other), out, workspaceSize, executor)


aclnnDivs = _l2.phase2("aclnnDivs")


@_l2.phase1("aclnnInplaceDivs")
def aclnnInplaceDivsGetWorkspaceSize(
    selfRef: aclTensor | None, other: aclScalar | None, workspaceSize: Any, executor: Any
) -> int:
    """Phase 1 of aclnnInplaceDivs: aclnnDivs' phase 1 with ``out = selfRef``."""
    return int(aclnnDivsGetWorkspaceSize(selfRef, other, selfRef, workspaceSize, executor))


aclnnInplaceDivs = _l2.phase2("aclnnInplaceDivs", "aclnnDivs")
