"""aclnnClamp, aclnnClampMin, aclnnClampMax — side by side with ops-math
``conversion/clip_by_value_v2/op_api/aclnn_clamp.cpp``: ``out = min(max(self, min), max)``.

The three scalar APIs share ``aclnnClampCommon``. aclnnClampMin / aclnnClampMax first check
their one bound (``clipValueMin`` / ``clipValueMax``) for null, *before* self and out.
aclnnClampCommon: CheckNotNull (self, out, then "at least one bound": 161001) -> self and out
in the chip's list -> self and out of one shape, at most 8 dims -> empty self: success, nothing
runs (before any dtype rule) -> the compute dtype P:

* Ascend910B, 910_93, 910, 310P: P is **out's dtype**; self must cast to it (CanCast). The
  scalars' dtypes play no part: each bound is converted to P by a C cast (2.7 -> 2 for INT32,
  -5 -> 251 for UINT8, a complex bound -> 0);
* Ascend950: P combines self's dtype with the bounds' default dtypes (a floating scalar counts
  as FLOAT, a complex one as COMPLEX64): an INT32 tensor with a float bound computes in FLOAT.
  P must cast to out and be in the list.

A missing bound becomes P's full range (+-inf for the float types, INT_MIN/INT_MAX ...), so it
never clips. Graph: Contiguous -> Cast to P -> the bounds as 0-d tensors of P -> ClipByValueV2
-> (Ascend950: Cast to out's dtype) -> ViewCopy. Every kernel computes ``min(max(x, lo), hi)``:
a lower bound above the upper bound gives the upper bound.
"""

from __future__ import annotations

import math
from typing import Any

from ... import dtypes
from ... import soc as _soc
from ..._status import aclnnStatus
from ...dtypes import (
    DT_BF16,
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
from ...executor.api import hand_out
from ...executor.checks import MAX_SUPPORT_DIMS_NUMS, op_loge
from ...l0.cast import cast
from ...l0.clip_by_value_v2 import clip_by_value_v2
from ...l0.contiguous import view_copy
from ...tensor import aclScalar, aclTensor
from .. import _l2
from .._graph import contiguous_cast, empty
from .._promote import combine_categories as combine_categories_with_complex
from .._promote import scalar_default_dtype

S = aclnnStatus

Ascend910_dtype_support_list = (DT_FLOAT16, DT_FLOAT, DT_INT32, DT_INT64, DT_INT16, DT_INT8, DT_UINT8, DT_DOUBLE)
Ascend910B_dtype_support_list = (*Ascend910_dtype_support_list, DT_BF16)


def dtype_support_list() -> tuple[int, ...]:
    """``GetDtypeSupportList``: DAV_2201 or regbase (Ascend950) the 910B list, else the 910 list."""
    soc = _soc.current()
    if soc.npu_arch == "DAV_2201" or soc.is_regbase:
        return Ascend910B_dtype_support_list
    return Ascend910_dtype_support_list


DTYPE_FACTS = {"self, out (and the compute dtype on Ascend950)": dtype_support_list}


# -- promotion (Ascend950) ------------------------------------------------------------------------
# aclnn_clamp.cpp's CombineCategoriesWithComplex and GetScalarDefaultDtype are the copies many
# op_api files carry: ops/_promote.py


def clamp_promote_type(self: aclTensor, lo: aclScalar | None, hi: aclScalar | None, out: aclTensor) -> int | None:
    """``ClampPromoteType`` (Ascend950): the compute dtype, or None after its report."""
    promote = self.dtype
    if lo is not None and hi is not None:
        bounds = dtypes.promote_type(scalar_default_dtype(lo.dtype), scalar_default_dtype(hi.dtype))
        promote = combine_categories_with_complex(promote, bounds)
    elif lo is not None:
        promote = combine_categories_with_complex(promote, scalar_default_dtype(lo.dtype))
    elif hi is not None:
        promote = combine_categories_with_complex(promote, scalar_default_dtype(hi.dtype))
    if promote == DT_UNDEFINED:
        op_loge(S.ACLNN_ERR_PARAM_INVALID, "promote type fail.")
        return None
    if not checks.check_result_dtype_cast(promote, out.dtype):
        return None
    supported = dtype_support_list()
    if promote not in supported:
        op_loge(
            S.ACLNN_ERR_PARAM_INVALID,
            f"promote dtype not implemented for {dtypes.dt_name(promote)}, should be in dtype support list "
            f"{dtypes.dt_list_str(supported)}.",
        )
        return None
    return promote


# -- the missing bound ----------------------------------------------------------------------------

_INT32_MAX, _INT64_MAX = 2**31 - 1, 2**63 - 1


def normalize_max_scalar(value_max: aclScalar | None, dt: int) -> aclScalar:
    """``NormalizeMaxScalar``: the bound itself, or P's largest value (``executor->AllocScalar``:
    an int constant makes an INT32 scalar, a float constant a FLOAT one)."""
    if value_max is not None:
        return value_max
    defaults = {
        DT_FLOAT: (math.inf, DT_FLOAT),
        DT_INT32: (_INT32_MAX, DT_INT32),
        DT_INT64: (_INT64_MAX, DT_INT64),
        DT_DOUBLE: (math.inf, DT_DOUBLE),
        DT_INT16: (32767, DT_INT32),
        DT_INT8: (127, DT_INT32),
        DT_UINT8: (255, DT_INT32),
    }
    value, sdt = defaults.get(dt, (math.inf, DT_FLOAT))  # FLOAT16, BFLOAT16: a float infinity
    return aclScalar(value, sdt)


def normalize_min_scalar(value_min: aclScalar | None, dt: int) -> aclScalar:
    """``NormalizeMinScalar``: the bound itself, or P's smallest value."""
    if value_min is not None:
        return value_min
    defaults = {
        DT_FLOAT: (-math.inf, DT_FLOAT),
        DT_INT32: (-_INT32_MAX - 1, DT_INT32),
        DT_INT64: (-_INT64_MAX - 1, DT_INT64),
        DT_DOUBLE: (-math.inf, DT_DOUBLE),
        DT_INT16: (-32768, DT_INT32),
        DT_INT8: (-128, DT_INT32),
        DT_UINT8: (0, DT_INT32),
    }
    value, sdt = defaults.get(dt, (-math.inf, DT_FLOAT))
    return aclScalar(value, sdt)


# -- aclnnClampCommon -----------------------------------------------------------------------------


def _check_params(self: Any, lo: Any, hi: Any, out: Any) -> int:
    if not (checks.check_null(self, "self") and checks.check_null(out, "out")):
        return S.ACLNN_ERR_PARAM_NULLPTR
    if lo is None and hi is None:
        op_loge(S.ACLNN_ERR_PARAM_NULLPTR, "clamp: At least one of 'min' or 'max' must not be None.")
        return S.ACLNN_ERR_PARAM_NULLPTR
    supported = dtype_support_list()
    if not (checks.check_dtype_support(self, supported, "self") and checks.check_dtype_support(out, supported, "out")):
        return S.ACLNN_ERR_PARAM_INVALID
    if not (
        checks.check_shape_equal(self, out, "self", "out")
        and checks.check_max_dim(self, MAX_SUPPORT_DIMS_NUMS, "self")
        and checks.check_max_dim(out, MAX_SUPPORT_DIMS_NUMS, "out")
    ):
        return S.ACLNN_ERR_PARAM_INVALID
    return S.ACLNN_SUCCESS


def _self_can_cast_out(self: aclTensor, out: aclTensor) -> bool:
    """``CheckSelfCanCastOut`` (not Ascend950)."""
    if not dtypes.can_cast(self.dtype, out.dtype):
        op_loge(
            S.ACLNN_ERR_PARAM_INVALID,
            f"self type {dtypes.dt_name(self.dtype)} can't be cast to the output type {dtypes.dt_name(out.dtype)}.",
        )
        return False
    return True


def compute_dtype(self: aclTensor, lo: aclScalar | None, hi: aclScalar | None, out: aclTensor) -> int | None:
    """The dtype ClipByValueV2 runs in (None after a report): promoted on Ascend950, out's elsewhere."""
    if _soc.current().is_regbase:
        return clamp_promote_type(self, lo, hi, out)
    if not _self_can_cast_out(self, out):
        return None
    return out.dtype


def clamp_common(
    ex: Any, self: Any, lo: aclScalar | None, hi: aclScalar | None, out: Any, workspaceSize: Any, executor: Any
) -> int:
    """``aclnnClampCommon``, after its caller's ``L2_DFX_PHASE_1``."""
    ret = _check_params(self, lo, hi, out)
    if ret != S.ACLNN_SUCCESS:
        return ret
    ex.bind_arguments(self=self, out=out)
    if self.is_empty():
        return empty(ex, workspaceSize, executor)
    promote = compute_dtype(self, lo, hi, out)
    if promote is None:
        return S.ACLNN_ERR_PARAM_INVALID
    value_max = normalize_max_scalar(hi, promote)
    value_min = normalize_min_scalar(lo, promote)
    self_p = contiguous_cast(ex, self, promote)
    if self_p is None:
        return S.ACLNN_ERR_INNER_NULLPTR
    min_t, max_t = ex.convert_scalar(value_min, promote), ex.convert_scalar(value_max, promote)
    if min_t is None or max_t is None:
        return S.ACLNN_ERR_INNER_NULLPTR
    clipped = clip_by_value_v2(self_p, min_t, max_t, ex)
    if clipped is None:
        return S.ACLNN_ERR_INNER_NULLPTR
    if _soc.current().is_regbase:
        clipped = cast(clipped, out.dtype, ex)
        if clipped is None:
            return S.ACLNN_ERR_INNER_NULLPTR
    if view_copy(clipped, out, ex) is None:
        return S.ACLNN_ERR_INNER_NULLPTR
    return hand_out(ex, ex.finish(), workspaceSize, executor)


# -- the APIs -------------------------------------------------------------------------------------


@_l2.phase1("aclnnClamp")
def aclnnClampGetWorkspaceSize(
    self: aclTensor | None, clipValueMin: aclScalar | None, clipValueMax: aclScalar | None, out: aclTensor | None,
    workspaceSize: Any, executor: Any,
) -> int:  # fmt: skip
    """Phase 1 of aclnnClamp: ``out = min(max(self, clipValueMin), clipValueMax)``; either bound may be null."""
    ex = _l2.l2_dfx_phase1(
        "aclnnClamp", workspaceSize, executor, self=self, clipValueMin=clipValueMin, clipValueMax=clipValueMax, out=out
    )
    if ex is None:
        return S.ACLNN_SUCCESS
    return clamp_common(ex, self, clipValueMin, clipValueMax, out, workspaceSize, executor)


aclnnClamp = _l2.phase2("aclnnClamp")


@_l2.phase1("aclnnClampMin")
def aclnnClampMinGetWorkspaceSize(
    self: aclTensor | None, clipValueMin: aclScalar | None, out: aclTensor | None, workspaceSize: Any, executor: Any
) -> int:
    """Phase 1 of aclnnClampMin: ``out = max(self, clipValueMin)``."""
    ex = _l2.l2_dfx_phase1("aclnnClampMin", workspaceSize, executor, self=self, clipValueMin=clipValueMin, out=out)
    if ex is None:
        return S.ACLNN_SUCCESS
    if not checks.check_null(clipValueMin, "clipValueMin", "aclScalar"):
        return S.ACLNN_ERR_PARAM_NULLPTR
    return clamp_common(ex, self, clipValueMin, None, out, workspaceSize, executor)


aclnnClampMin = _l2.phase2("aclnnClampMin")


@_l2.phase1("aclnnClampMax")
def aclnnClampMaxGetWorkspaceSize(
    self: aclTensor | None, clipValueMax: aclScalar | None, out: aclTensor | None, workspaceSize: Any, executor: Any
) -> int:
    """Phase 1 of aclnnClampMax: ``out = min(self, clipValueMax)``."""
    ex = _l2.l2_dfx_phase1("aclnnClampMax", workspaceSize, executor, self=self, clipValueMax=clipValueMax, out=out)
    if ex is None:
        return S.ACLNN_SUCCESS
    if not checks.check_null(clipValueMax, "clipValueMax", "aclScalar"):
        return S.ACLNN_ERR_PARAM_NULLPTR
    return clamp_common(ex, self, None, clipValueMax, out, workspaceSize, executor)


aclnnClampMax = _l2.phase2("aclnnClampMax")
