"""aclnnAll — side by side with ops-math ``math/reduce_all/op_api/aclnn_all.cpp``: ``out = all(self != 0)``
over the dims in ``dim`` (an empty list: every dim).

L2_DFX_PHASE_1 -> CheckParams, all before the executor: self, dim, out non-null -> self in the
chip's list, out UINT8 or BOOL -> self in no private format -> every dim in [-n, n-1] (n = rank,
1 for a 0-d self) and **no dim twice** (after wrapping) -> self and out at most 8 dims -> out's
shape is **exactly** the reduced shape. Then an empty ``dim`` becomes every dim; an empty self
fills out with 1 (True: the empty conjunction) through Fill and ViewCopy.

Graph: Contiguous -> Cast to BOOL, except FLOAT16/BFLOAT16/FLOAT on Ascend910B, 910_93 and 950
(they reach the kernel as they are) -> ReduceAll -> Cast to out's dtype -> ViewCopy.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ... import dtypes
from ... import soc as _soc
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
)  # fmt: skip
from ...executor import checks
from ...executor.api import hand_out
from ...executor.checks import MAX_SUPPORT_DIMS_NUMS, op_loge
from ...executor.executor import aclOpExecutor
from ...l0.cast import cast
from ...l0.contiguous import contiguous, view_copy
from ...l0.fill import fill
from ...l0.reduce_all import reduce_all
from ...tensor import aclIntArray, aclScalar, aclTensor
from .. import _l2
from .._graph import finish

S = aclnnStatus

Ascend910_self_dtype_support_list = (
    DT_FLOAT, DT_FLOAT16, DT_UINT8, DT_INT8, DT_INT16, DT_INT32, DT_INT64, DT_BOOL, DT_DOUBLE,
)  # fmt: skip
Ascend910B_self_dtype_support_list = (*Ascend910_self_dtype_support_list, DT_BF16)
out_dtype_support_list = (DT_UINT8, DT_BOOL)
_FLOATS = (DT_FLOAT16, DT_BF16, DT_FLOAT)


def self_dtype_support_list() -> tuple[int, ...]:
    """``GetSelfDtypeSupportList``: SocVersion ASCEND910B / ASCEND910_93, or regbase."""
    soc = _soc.current()
    if soc.family in ("Ascend910B", "Ascend910_93") or soc.is_regbase:
        return Ascend910B_self_dtype_support_list
    return Ascend910_self_dtype_support_list


DTYPE_FACTS = {"self": self_dtype_support_list, "out": lambda: out_dtype_support_list}


def reduced_shape(shape: Sequence[int], dims: Sequence[int], keepdim: bool) -> tuple[int, ...]:
    """``output_shape``: the masked dims (every dim for an empty list) become 1 or disappear."""
    n = len(shape)
    mask = set(range(64)) if not dims else {d + max(n, 1) if d < 0 else d for d in dims}
    out = list(shape)
    for i in range(n - 1, -1, -1):
        if i in mask:
            if keepdim:
                out[i] = 1
            else:
                del out[i]
    return tuple(out)


def _check_format(self: aclTensor) -> bool:
    if dtypes.is_private_format(self.storage_format):
        op_loge(
            S.ACLNN_ERR_PARAM_INVALID,
            f"Format only support ND、NCHW、NHWC、HWCN、NDHWC、NCDHW, self [{dtypes.format_name(self.storage_format)}]",
        )
        return False
    return True


def _check_dim(self: aclTensor, dim: Sequence[int]) -> bool:
    n = self.rank or 1
    seen: set[int] = set()
    for d in dim:
        if d < -n or d >= n:
            op_loge(
                S.ACLNN_ERR_PARAM_INVALID,
                f"Dimension out of range (expected to be in range of [-{n}, {n - 1}], but got {d})",
            )
            return False
        index = d if d >= 0 else d + n
        if index in seen:
            op_loge(S.ACLNN_ERR_PARAM_INVALID, f"Dim {index} appears multiple times in the list of dims.")
            return False
        seen.add(index)
    return True


def _check_shape(self: aclTensor, out: aclTensor, dim: Sequence[int], keepdim: bool) -> bool:
    if not (
        checks.check_max_dim(self, MAX_SUPPORT_DIMS_NUMS, "self")
        and checks.check_max_dim(out, MAX_SUPPORT_DIMS_NUMS, "out")
    ):
        return False
    expected = reduced_shape(self.view_shape, dim, keepdim)
    if expected != out.view_shape:
        op_loge(
            S.ACLNN_ERR_PARAM_INVALID,
            f"Expect out shape [{dtypes.shape_str(expected)}], but got: [{dtypes.shape_str(out.view_shape)}].",
        )
        return False
    return True


def _check_params(self: Any, dim: Any, keepdim: bool, out: Any) -> int:
    if not (
        checks.check_null(self, "self")
        and checks.check_null(dim, "dim", "aclIntArray")
        and checks.check_null(out, "out")
    ):
        return S.ACLNN_ERR_PARAM_NULLPTR
    if not (
        checks.check_dtype_support(self, self_dtype_support_list(), "self")
        and checks.check_dtype_support(out, out_dtype_support_list, "out")
    ):
        return S.ACLNN_ERR_PARAM_INVALID
    values = [int(v) for v in dim.values]
    if not (_check_format(self) and _check_dim(self, values) and _check_shape(self, out, values, keepdim)):
        return S.ACLNN_ERR_PARAM_INVALID
    return S.ACLNN_SUCCESS


def fill_out(ex: aclOpExecutor, out: aclTensor, value: int) -> aclTensor | None:
    """``GetTensorWithValueTrue`` / ``GetTensorWithValueFalse``: ``AllocScalar(value)`` (INT32)
    converted to out's dtype, Fill of out's shape, ViewCopy into out; nothing for an empty out."""
    if out.is_empty():
        return out
    value_t = ex.convert_scalar(aclScalar(value, DT_INT32), out.dtype)
    shape = out.view_shape
    dims_t = ex.convert_to_tensor(np.array(shape, dtype=np.int64), DT_INT64)
    filled = fill(dims_t, value_t, shape, ex) if value_t is not None else None
    if filled is None:
        return None
    return view_copy(filled, out, ex)


def keeps_float_input(x: aclTensor) -> bool:
    """FLOAT16/BFLOAT16/FLOAT skip the Cast to BOOL on Ascend910B, 910_93 (SocVersion) and DAV_3510."""
    soc = _soc.current()
    return x.dtype in _FLOATS and (soc.family in ("Ascend910B", "Ascend910_93") or soc.npu_arch == "DAV_3510")


@_l2.phase1("aclnnAll")
def aclnnAllGetWorkspaceSize(
    self: aclTensor | None, dim: aclIntArray | None, keepdim: bool, out: aclTensor | None,
    workspaceSize: Any, executor: Any,
) -> int:  # fmt: skip
    """Phase 1 of aclnnAll: ``out = all(self != 0)`` over ``dim`` (empty: every dim)."""
    ex = _l2.l2_dfx_phase1("aclnnAll", workspaceSize, executor, self=self, dim=dim, keepdim=keepdim, out=out)
    if ex is None:
        return S.ACLNN_SUCCESS
    ret = _check_params(self, dim, keepdim, out)
    if ret != S.ACLNN_SUCCESS:
        return ret
    assert self is not None and dim is not None and out is not None
    ex.bind_arguments(self=self, out=out)
    dims = [int(v) for v in dim.values] or list(range(self.rank))  # getAllDims
    if self.is_empty():
        if fill_out(ex, out, 1) is None:
            return S.ACLNN_ERR_INNER_NULLPTR
        return hand_out(ex, ex.finish(), workspaceSize, executor)
    self_c = contiguous(self, ex)
    if self_c is None:
        return S.ACLNN_ERR_INNER_NULLPTR
    self_cast = self_c if keeps_float_input(self_c) else cast(self_c, DT_BOOL, ex)
    if self_cast is None:
        return S.ACLNN_ERR_INNER_NULLPTR
    return finish(ex, reduce_all(self_cast, dims, keepdim, ex), out, workspaceSize, executor)


aclnnAll = _l2.phase2("aclnnAll")
