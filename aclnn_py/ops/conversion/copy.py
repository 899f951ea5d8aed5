"""aclnnInplaceCopy — side by side with ops-math ``conversion/view_copy/op_api/aclnn_copy.cpp``:
``selfRef = src``, converted to selfRef's dtype and broadcast to its shape.

OP_CHECK_COMM_INPUT (before L2_DFX_PHASE_1) -> CheckNotNull (self, src) -> self, then src, in
the one dtype list of every chip -> self, then src, at most 8 dims -> src broadcasts to self
(EZ1007, then the macro's line) and the broadcast shape is self's -> (FRACTAL_NZ self: a warning
only) -> either tensor empty: success. No dtype-pair check: any listed pair passes and may fail
in l0 Cast (561103, nothing reported). Graph: Contiguous(src) -> Cast to selfRef's dtype (when
they differ, on the unbroadcast src) -> BroadcastTo selfRef's shape (when they differ) ->
ViewCopy(selfRef).
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
    DT_FLOAT8_E4M3FN,
    DT_FLOAT8_E5M2,
    DT_FLOAT8_E8M0,
    DT_FLOAT16,
    DT_HIFLOAT8,
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
from ...executor.checks import MAX_SUPPORT_DIMS_NUMS, op_loge
from ...executor.executor import aclOpExecutor
from ...l0.broadcast_to import broadcast_to
from ...l0.cast import cast
from ...l0.contiguous import contiguous, view_copy
from ...tensor import aclTensor
from .. import _l2

S = aclnnStatus
API = "aclnnInplaceCopy"

DTYPE_SUPPORT_LIST = (
    DT_INT8, DT_INT16, DT_INT32, DT_INT64, DT_UINT8, DT_UINT16, DT_UINT32, DT_UINT64, DT_FLOAT16, DT_FLOAT,
    DT_BOOL, DT_DOUBLE, DT_COMPLEX64, DT_COMPLEX128, DT_BF16, DT_FLOAT8_E5M2, DT_FLOAT8_E4M3FN, DT_HIFLOAT8,
    DT_FLOAT8_E8M0,
)  # fmt: skip


def dtype_support_list() -> tuple[int, ...]:
    """One list for every chip."""
    return DTYPE_SUPPORT_LIST


DTYPE_FACTS = {"selfRef, src": dtype_support_list}


def _check_shape(self: aclTensor, src: aclTensor) -> bool:
    if not (
        checks.check_max_dim(self, MAX_SUPPORT_DIMS_NUMS, "self")
        and checks.check_max_dim(src, MAX_SUPPORT_DIMS_NUMS, "src")
    ):
        return False
    shape = checks.broadcast_and_infer_shape(self, src, "self", "src")
    if shape is None:
        return False
    if shape != self.view_shape:
        op_loge(
            S.ACLNN_ERR_PARAM_INVALID,
            f"Shape of broadcast result should be {dtypes.shape_str(shape)}, but self is "
            f"{dtypes.shape_str(self.view_shape)}.",
        )
        return False
    return True


def _check_params(self: Any, src: Any) -> int:
    if not (checks.check_null(self, "self") and checks.check_null(src, "src")):
        return S.ACLNN_ERR_PARAM_NULLPTR
    supported = dtype_support_list()
    if not (checks.check_dtype_support(self, supported, "self") and checks.check_dtype_support(src, supported, "src")):
        return S.ACLNN_ERR_PARAM_INVALID
    if not _check_shape(self, src):
        return S.ACLNN_ERR_PARAM_INVALID
    return S.ACLNN_SUCCESS  # a FRACTAL_NZ self is only a warning in the log


def broadcast_tensor(shape: tuple[int, ...], src: aclTensor, ex: aclOpExecutor) -> aclTensor | None:
    """``BraodCastTensor`` (sic): a new ND tensor of ``shape`` and src's dtype, BroadcastTo into it."""
    dst = ex.alloc_tensor(shape, src.dtype)
    dims = ex.convert_to_tensor(np.array(shape, dtype=np.int64), dtypes.DT_INT64)
    return broadcast_to(src, dst, dims, ex)


@_l2.phase1(API)
def aclnnInplaceCopyGetWorkspaceSize(
    selfRef: aclTensor | None, src: aclTensor | None, workspaceSize: Any, executor: Any
) -> int:
    """Phase 1 of aclnnInplaceCopy: copy ``src`` into ``selfRef`` (cast, broadcast)."""
    if not checks.check_comm_input(workspaceSize, executor):
        return S.ACLNN_ERR_PARAM_NULLPTR
    ex = _l2.l2_dfx_phase1(API, workspaceSize, executor, selfRef=selfRef, src=src)
    if ex is None:  # an op-cache hit
        return S.ACLNN_SUCCESS
    ret = _check_params(selfRef, src)
    if ret != S.ACLNN_SUCCESS:
        return ret
    assert selfRef is not None and src is not None
    ex.bind_arguments(selfRef=selfRef, src=src)
    if selfRef.is_empty() or src.is_empty():
        return hand_out(ex, ex.finish(), workspaceSize, executor)
    src_c = contiguous(src, ex)
    if src_c is None:
        return S.ACLNN_ERR_INNER_NULLPTR
    src_cast: aclTensor | None = src_c
    if selfRef.dtype != src.dtype:
        src_cast = cast(src_c, selfRef.dtype, ex)
        if src_cast is None:
            return S.ACLNN_ERR_INNER_NULLPTR
    assert src_cast is not None
    src_b: aclTensor | None = src_cast
    if selfRef.view_shape != src_cast.view_shape:
        src_b = broadcast_tensor(selfRef.view_shape, src_cast, ex)
        if src_b is None:
            return S.ACLNN_ERR_INNER_NULLPTR
    assert src_b is not None
    if view_copy(src_b, selfRef, ex) is None:
        return S.ACLNN_ERR_INNER_NULLPTR
    return hand_out(ex, ex.finish(), workspaceSize, executor)


aclnnInplaceCopy = _l2.phase2(API)
