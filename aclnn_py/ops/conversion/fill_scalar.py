"""aclnnInplaceFillScalar — side by side with ops-math ``conversion/fill/op_api/aclnn_fill_scalar.cpp``:
``selfRef = value`` everywhere.

L2_DFX_PHASE_1 -> CheckNotNull (selfRef, value) -> self in the chip's list (SocVersion from
Ascend910B to Ascend910E: the longer list) -> PromoteType(self, value) is defined -> self at most
8 dims -> empty shortcut. Graph: the scalar made a host tensor of selfRef's dtype
(``ConvertToTensor``: opbase's conversions), selfRef's dims as an INT64 host tensor ([1] for a
0-d selfRef) -> Fill -> ViewCopy(selfRef). No Contiguous, no Cast kernel.
"""

from __future__ import annotations

from typing import Any

import numpy as np

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
from ...executor.api import hand_out
from ...executor.checks import op_loge
from ...l0.contiguous import view_copy
from ...l0.fill import fill, soc_version_ge_910b
from ...tensor import aclScalar, aclTensor
from .. import _l2

S = aclnnStatus
API = "aclnnInplaceFillScalar"
MAX_DIM_LEN = 8

DTYPE_SUPPORT_910_LIST = (
    DT_FLOAT, DT_INT32, DT_INT64, DT_FLOAT16, DT_INT16, DT_INT8, DT_UINT8, DT_DOUBLE, DT_BOOL, DT_COMPLEX64,
    DT_COMPLEX128,
)  # fmt: skip
DTYPE_SUPPORT_GE910B_LIST = (*DTYPE_SUPPORT_910_LIST, DT_BF16, DT_UINT16, DT_UINT32, DT_UINT64)


def dtype_support_list() -> tuple[int, ...]:
    """``CheckSocVersionGe910B`` (Ascend910B, 910_93, 950) picks the longer list."""
    return DTYPE_SUPPORT_GE910B_LIST if soc_version_ge_910b() else DTYPE_SUPPORT_910_LIST


DTYPE_FACTS = {"selfRef": dtype_support_list}


def _check_promote_type(self: aclTensor, value: aclScalar) -> bool:
    if dtypes.promote_type(self.dtype, value.dtype) == DT_UNDEFINED:
        op_loge(
            S.ACLNN_ERR_PARAM_INVALID,
            f"Self dtype {dtypes.dt_name(self.dtype)} and value dtype {dtypes.dt_name(value.dtype)} "
            "can not promote dtype.",
        )
        return False
    return True


def _check_params(selfRef: Any, value: Any) -> int:
    if not (checks.check_null(selfRef, "selfRef") and checks.check_null(value, "value", "aclScalar")):
        return S.ACLNN_ERR_PARAM_NULLPTR
    if not checks.check_dtype_support(selfRef, dtype_support_list(), "self"):
        return S.ACLNN_ERR_PARAM_INVALID
    if not _check_promote_type(selfRef, value):
        return S.ACLNN_ERR_PARAM_INVALID
    if not checks.check_max_dim(selfRef, MAX_DIM_LEN, "self"):
        return S.ACLNN_ERR_PARAM_INVALID
    return S.ACLNN_SUCCESS


@_l2.phase1(API)
def aclnnInplaceFillScalarGetWorkspaceSize(
    selfRef: aclTensor | None, value: aclScalar | None, workspaceSize: Any, executor: Any
) -> int:
    """Phase 1 of aclnnInplaceFillScalar: fill ``selfRef`` with the scalar ``value``."""
    ex = _l2.l2_dfx_phase1(API, workspaceSize, executor, selfRef=selfRef, value=value)
    if ex is None:  # an op-cache hit
        return S.ACLNN_SUCCESS
    ret = _check_params(selfRef, value)
    if ret != S.ACLNN_SUCCESS:
        return ret
    assert selfRef is not None and value is not None
    ex.bind_arguments(selfRef=selfRef)
    if selfRef.is_empty():
        return hand_out(ex, ex.finish(), workspaceSize, executor)
    value_t = ex.convert_scalar(value, selfRef.dtype)
    shape = list(selfRef.view_shape) if selfRef.rank else [1]
    dims = ex.convert_to_tensor(np.array(shape, dtype=np.int64), DT_INT64)
    fill_out = fill(dims, value_t, shape, ex) if value_t is not None else None
    if fill_out is None or view_copy(fill_out, selfRef, ex) is None:
        return S.ACLNN_ERR_INNER_NULLPTR
    return hand_out(ex, ex.finish(), workspaceSize, executor)


aclnnInplaceFillScalar = _l2.phase2(API)
