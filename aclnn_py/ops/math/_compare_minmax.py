"""What ``aclnn_maximum.cpp`` and ``aclnn_minimum.cpp`` share: the two files are the same code
with Maximum/LogicalOr swapped for Minimum/LogicalAnd (and their dtype lists in another
order; the "Format only support ND" warning, which is not reported, sits before or after the
empty shortcut).

L2_DFX_PHASE_1 -> CheckNotNull (self, other, out) -> CheckDtypeValid (self, other **and out**
against the list) -> CheckComputeDtype (PromoteType; Ascend950 BinaryOpTypePromote; must exist
and cast to out: ``Result type ... can't be cast to the desired output type ...``) -> CheckShape
(self, other at most 8 dims; broadcast; ``Expected tensor for out to have same size as ...``)
-> empty shortcut -> GetComputeType -> Contiguous + Cast of self, then of other, to the compute
dtype; BOOL: LogicalOr / LogicalAnd, else Maximum / Minimum; Cast to out's dtype when needed;
ViewCopy.

GetComputeType: off Ascend950 the promoted dtype, always cast to out. On Ascend950: equal input
dtypes that are "safe" for out (``IsMaxMinSafeInputDtype``) compute in that dtype; equal but
unsafe input dtypes compute **in out's dtype** (the inputs are cast to it first, no output
cast: int32 inputs with an int8 out take the maximum of the wrapped values); different input
dtypes compute in BinaryOpTypePromote's dtype.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ... import dtypes
from ..._status import aclnnStatus
from ...dtypes import (
    DT_BF16,
    DT_BOOL,
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
from ...l0.cast import cast
from ...l0.contiguous import view_copy
from ...tensor import aclTensor
from .. import _l2
from .._graph import contiguous_cast, empty
from .._promote import FLOATING
from . import _compare as C

S = aclnnStatus

_SIGNED = frozenset({DT_INT8, DT_INT16, DT_INT32, DT_INT64})
_INTEGRAL = frozenset({DT_INT8, DT_INT16, DT_INT32, DT_INT64, DT_UINT8, DT_UINT16, DT_UINT32, DT_UINT64})
_BITS = {
    DT_INT8: 8, DT_UINT8: 8, DT_BOOL: 8, DT_INT16: 16, DT_UINT16: 16, DT_FLOAT16: 16, DT_BF16: 16,
    DT_INT32: 32, DT_UINT32: 32, DT_FLOAT: 32, DT_INT64: 64, DT_UINT64: 64, DT_DOUBLE: 64,
}  # fmt: skip


def is_max_min_safe_input_dtype(in_dt: int, out_dt: int) -> bool:
    """``IsMaxMinSafeInputDtype`` (ops-math data_type_utils.h): computing in ``in_dt`` and
    casting to ``out_dt`` gives the same result as the other way round."""
    if in_dt in (out_dt, DT_BOOL):
        return True
    if in_dt in _INTEGRAL and out_dt in _INTEGRAL:
        return (in_dt in _SIGNED) == (out_dt in _SIGNED) and _BITS[in_dt] <= _BITS[out_dt]
    if out_dt in FLOATING:
        return in_dt in _INTEGRAL or in_dt in FLOATING
    return False


def compute_type(self: aclTensor, other: aclTensor, out: aclTensor) -> tuple[int, bool]:
    """``GetComputeType``: (the dtype max/min runs in, whether a Cast to out's dtype follows)."""
    if not C.is_regbase():
        return dtypes.promote_type(self.dtype, other.dtype), True
    in_dt, out_dt = self.dtype, out.dtype
    if in_dt == other.dtype and is_max_min_safe_input_dtype(in_dt, out_dt):
        return in_dt, in_dt != out_dt
    if in_dt == other.dtype:
        return out_dt, False
    promote = C.binary_op_type_promote(self, other)
    return promote, promote != out_dt


def check_params(self: Any, other: Any, out: Any, supported: tuple[int, ...]) -> int:
    """``CheckParams``."""
    if not C.check_not_null(self, other, out):
        return S.ACLNN_ERR_PARAM_NULLPTR
    if not (
        checks.check_dtype_support(self, supported, "self")
        and checks.check_dtype_support(other, supported, "other")
        and checks.check_dtype_support(out, supported, "out")
    ):
        return S.ACLNN_ERR_PARAM_INVALID
    promote = C.tensor_promote(self, other)
    if promote == DT_UNDEFINED:
        C.report_can_not_promote(self.dtype, other.dtype)
        return S.ACLNN_ERR_PARAM_INVALID
    if not checks.check_result_dtype_cast(promote, out.dtype):
        return S.ACLNN_ERR_PARAM_INVALID
    if not C.check_max_dims((self, "self"), (other, "other")):
        return S.ACLNN_ERR_PARAM_INVALID
    shape = checks.broadcast_and_infer_shape(self, other, "self", "other")
    if shape is None or not checks.check_shape_equal_expected(out, shape, "out"):
        return S.ACLNN_ERR_PARAM_INVALID
    return S.ACLNN_SUCCESS


def phase1(
    api: str,
    self: Any,
    other: Any,
    out: Any,
    workspaceSize: Any,
    executor: Any,
    dtype_support_list: Callable[[], tuple[int, ...]],
    op: C.L0Op,
    logical_op: C.L0Op,
) -> int:
    """aclnnMaximum's / aclnnMinimum's phase 1: ``L2_DFX_PHASE_1``, CheckParams against the API's
    list, the empty shortcut, then the graph with ``op`` (``logical_op`` for BOOL)."""
    ex = _l2.l2_dfx_phase1(api, workspaceSize, executor, self=self, other=other, out=out)
    if ex is None:  # an op-cache hit
        return S.ACLNN_SUCCESS
    supported = dtype_support_list()
    ret = check_params(self, other, out, supported)
    if ret != S.ACLNN_SUCCESS:
        return ret
    ex.bind_arguments(self=self, other=other, out=out)
    if self.is_empty() or other.is_empty():
        return empty(ex, workspaceSize, executor)
    dt, need_output_cast = compute_type(self, other, out)
    if dt == DT_UNDEFINED:  # CHECK_RET(..., ACLNN_ERR_INNER): no message
        return S.ACLNN_ERR_INNER
    self_c = contiguous_cast(ex, self, dt)
    if self_c is None:
        return S.ACLNN_ERR_INNER_NULLPTR
    other_c = contiguous_cast(ex, other, dt)
    if other_c is None:
        return S.ACLNN_ERR_INNER_NULLPTR
    result = (logical_op if dt == DT_BOOL else op)(self_c, other_c, ex)
    if result is None:
        return S.ACLNN_ERR_INNER_NULLPTR
    if need_output_cast:
        result = cast(result, out.dtype, ex)
        if result is None:
            return S.ACLNN_ERR_INNER_NULLPTR
    if view_copy(result, out, ex) is None:
        return S.ACLNN_ERR_INNER_NULLPTR
    return hand_out(ex, ex.finish(), workspaceSize, executor)
