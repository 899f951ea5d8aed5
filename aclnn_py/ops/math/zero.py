"""aclnnInplaceZero — side by side with ops-math ``math/zero_op/op_api/aclnn_zero.cpp``:
``selfRef = 0``.

L2_DFX_PHASE_1 -> CheckNotNull (self) -> self in the chip's list (regbase Ascend950: the longer
list with the 8-bit and 4-bit floats) -> empty shortcut. No rank check: an AI Core dtype with
more than 8 dims passes; the AI CPU ZerosLike refuses it (561103). Graph: Contiguous(selfRef) ->
ZerosLike -> ViewCopy(selfRef) (the phase 1 aclnnInplaceOne shares: ``_fill_like``).
"""

from __future__ import annotations

from typing import Any

from ... import soc as _soc
from ..._status import aclnnStatus
from ...dtypes import (
    DT_BF16,
    DT_BOOL,
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
    DT_INT8,
    DT_INT16,
    DT_INT32,
    DT_INT64,
    DT_UINT8,
    DT_UINT16,
)  # fmt: skip
from ...executor import checks
from ...l0.zeros_like import zeros_like
from ...tensor import aclTensor
from .. import _l2
from . import _fill_like

S = aclnnStatus
API = "aclnnInplaceZero"

DTYPE_SUPPORT_LIST = (
    DT_INT8, DT_INT32, DT_INT64, DT_UINT8, DT_FLOAT16, DT_FLOAT, DT_BOOL, DT_DOUBLE, DT_INT16, DT_UINT16,
    DT_COMPLEX128, DT_COMPLEX64, DT_BF16,
)  # fmt: skip
DTYPE_SUPPORT_950_LIST = (
    *DTYPE_SUPPORT_LIST, DT_FLOAT8_E5M2, DT_FLOAT8_E4M3FN, DT_HIFLOAT8, DT_FLOAT4_E1M2, DT_FLOAT4_E2M1,
)  # fmt: skip


def dtype_support_list() -> tuple[int, ...]:
    """``IsRegBase()`` picks the 950 list; every other chip (Ascend910 and 310P too) the short one."""
    return DTYPE_SUPPORT_950_LIST if _soc.current().is_regbase else DTYPE_SUPPORT_LIST


DTYPE_FACTS = {"selfRef": dtype_support_list}


def _check_params(selfRef: Any) -> int:
    if not checks.check_null(selfRef, "self"):
        return S.ACLNN_ERR_PARAM_NULLPTR
    if not checks.check_dtype_support(selfRef, dtype_support_list(), "self"):
        return S.ACLNN_ERR_PARAM_INVALID
    return S.ACLNN_SUCCESS


@_l2.phase1(API)
def aclnnInplaceZeroGetWorkspaceSize(selfRef: aclTensor | None, workspaceSize: Any, executor: Any) -> int:
    """Phase 1 of aclnnInplaceZero: fill ``selfRef`` with zeros."""
    return _fill_like.phase1(API, selfRef, workspaceSize, executor, _check_params, zeros_like)


aclnnInplaceZero = _l2.phase2(API)
