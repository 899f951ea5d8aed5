"""aclnnCast — side by side with ops-math ``math/cast/op_api/aclnn_cast.cpp``: ``out = self``
converted to ``dtype``.

L2_DFX_PHASE_1 -> CheckNotNull (self, out) -> self in the chip's list, then ``dtype`` in the
output list -> self at most 8 dims, out's shape == self's -> (a private format: a warning only)
-> an INT4 ``out`` needs a contiguous self -> empty shortcut. Graph: Contiguous(self) ->
Cast(dtype) -> ViewCopy(out). Nothing compares ``dtype`` with out's dtype: ViewCopy refuses a
mismatch (561103); a pair neither the AI Core nor the AI CPU converts fails in Cast (561103,
nothing reported).
"""

from __future__ import annotations

from typing import Any

from ... import dtypes
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
    DT_FLOAT4_E1M2,
    DT_FLOAT4_E2M1,
    DT_FLOAT8_E4M3FN,
    DT_FLOAT8_E5M2,
    DT_FLOAT16,
    DT_HIFLOAT8,
    DT_INT4,
    DT_INT8,
    DT_INT16,
    DT_INT32,
    DT_INT64,
    DT_UINT8,
    DT_UINT16,
    DT_UINT32,
    DT_UINT64,
)  # fmt: skip
from ...executor import checks
from ...executor.api import hand_out
from ...executor.checks import op_loge
from ...l0.cast import cast
from ...l0.contiguous import contiguous, is_contiguous, view_copy
from ...tensor import aclTensor
from .. import _l2

S = aclnnStatus
API = "aclnnCast"
MAX_DIM = 8

ASCEND910_DTYPE_SUPPORT_LIST = (
    DT_FLOAT16, DT_FLOAT, DT_DOUBLE, DT_INT8, DT_UINT8, DT_INT16, DT_INT32, DT_INT64, DT_UINT16, DT_UINT32,
    DT_UINT64, DT_BOOL, DT_COMPLEX64, DT_COMPLEX128,
)  # fmt: skip
DTYPE_SUPPORT_LIST_DEFAULT = (*ASCEND910_DTYPE_SUPPORT_LIST, DT_BF16)
REGBASE_SELF_DTYPE_SUPPORT_LIST = (
    *DTYPE_SUPPORT_LIST_DEFAULT, DT_HIFLOAT8, DT_FLOAT8_E5M2, DT_FLOAT8_E4M3FN, DT_COMPLEX32, DT_FLOAT4_E1M2,
    DT_FLOAT4_E2M1,
)  # fmt: skip
REGBASE_DTYPE_SUPPORT_LIST = (*REGBASE_SELF_DTYPE_SUPPORT_LIST, DT_INT4)


def self_support_list() -> tuple[int, ...]:
    """CheckDtypeValid's list for self, by NpuArch."""
    soc = _soc.current()
    if soc.npu_arch == "DAV_2201":
        return DTYPE_SUPPORT_LIST_DEFAULT
    return REGBASE_SELF_DTYPE_SUPPORT_LIST if soc.is_regbase else ASCEND910_DTYPE_SUPPORT_LIST


def dtype_support_list() -> tuple[int, ...]:
    """CheckDtypeValid's list for the ``dtype`` argument, by NpuArch."""
    soc = _soc.current()
    if soc.npu_arch == "DAV_2201":
        return DTYPE_SUPPORT_LIST_DEFAULT
    return REGBASE_DTYPE_SUPPORT_LIST if soc.is_regbase else ASCEND910_DTYPE_SUPPORT_LIST


DTYPE_FACTS = {"self": self_support_list, "dtype (the result)": dtype_support_list}


def _check_dtype_valid(self: aclTensor, dtype: int) -> bool:
    if not checks.check_dtype_support(self, self_support_list(), "self"):
        return False
    supported = dtype_support_list()
    if dtype not in supported:
        op_loge(
            S.ACLNN_ERR_PARAM_INVALID,
            f"The param dtype not implemented for {dtypes.dt_name(dtype)}, should be in dtype support list "
            f"{dtypes.dt_list_str(supported)}.",
        )
        return False
    return True


def _check_params(self: Any, dtype: int, out: Any) -> int:
    if not (checks.check_null(self, "self") and checks.check_null(out, "out")):
        return S.ACLNN_ERR_PARAM_NULLPTR
    if not _check_dtype_valid(self, dtype):
        return S.ACLNN_ERR_PARAM_INVALID
    if not (checks.check_max_dim(self, MAX_DIM, "self") and checks.check_shape_equal(out, self, "out", "self")):
        return S.ACLNN_ERR_PARAM_INVALID
    return S.ACLNN_SUCCESS  # a private storage format of self is only a warning in the log


@_l2.phase1(API)
def aclnnCastGetWorkspaceSize(
    self: aclTensor | None, dtype: int, out: aclTensor | None, workspaceSize: Any, executor: Any
) -> int:
    """Phase 1 of aclnnCast: ``out = self`` converted to ``dtype``."""
    ex = _l2.l2_dfx_phase1(API, workspaceSize, executor, self=self, dtype=dtype, out=out)
    if ex is None:  # an op-cache hit
        return S.ACLNN_SUCCESS
    dst = dtypes.to_op_dtype(dtype)
    ret = _check_params(self, dst, out)
    if ret != S.ACLNN_SUCCESS:
        return ret
    assert self is not None and out is not None
    if out.dtype == DT_INT4 and not is_contiguous(self):  # out's dtype, not the dtype argument
        op_loge(S.ACLNN_ERR_PARAM_INVALID, "Input tensor must be contiguous if dst_type in INT4")
        return S.ACLNN_ERR_PARAM_INVALID
    ex.bind_arguments(self=self, out=out)
    if self.is_empty():
        return hand_out(ex, ex.finish(), workspaceSize, executor)
    self_c = contiguous(self, ex)
    if self_c is None:
        return S.ACLNN_ERR_INNER_NULLPTR
    cast_out = cast(self_c, dst, ex)
    if cast_out is None or view_copy(cast_out, out, ex) is None:
        return S.ACLNN_ERR_INNER_NULLPTR
    return hand_out(ex, ex.finish(), workspaceSize, executor)


aclnnCast = _l2.phase2(API)
