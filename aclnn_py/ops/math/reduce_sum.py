"""aclnnReduceSum — side by side with ops-math ``math/reduce_sum/op_api/aclnn_reduce_sum.cpp``:
``out = sum(self cast to dtype, dims)``.

L2_DFX_PHASE_1 -> CheckNotNull (self, dims, out) -> CheckDtypeValid (self, out and ``dtype``
in the chip's list, ``out`` of dtype ``dtype``) -> self rank <= 8 -> CheckDimValid (each dim in
range, no repeats) -> empty self: out filled with zeros (out's shape unchecked) -> 0-d self:
Contiguous, Cast to out's dtype, ViewCopy (dims and keepDims unused).

Graph: empty ``dims`` reduce every axis. ``dtype`` is the dtype summed in: self is cast to it
*before* the sum — except BOOL self with INT64 dtype, summed in FLOAT below 2^24 reduced
elements — then ReduceSum (ReduceAny for a BOOL dtype: a logical or), the result's shape
against out's, Cast to out's dtype, ViewCopy. On Ascend950 a FLOAT self of rank 1-4 whose view
is a plain row-major slice is read in place, with no Contiguous kernel.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ... import dtypes
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
)  # fmt: skip
from ...executor import checks
from ...executor.api import hand_out
from ...executor.checks import MAX_SUPPORT_DIMS_NUMS, op_loge
from ...executor.executor import aclOpExecutor
from ...l0.cast import cast
from ...l0.contiguous import contiguous, view_copy
from ...l0.fill import fill
from ...l0.reduce_any import reduce_any
from ...l0.reduce_sum import reduce_sum_op
from ...tensor import aclIntArray, aclTensor
from .. import _l2
from ._aclnn_check import check_shape_and_scalar_same, is_reduce_non_contiguous_support

S = aclnnStatus
API = "aclnnReduceSum"

ASCEND910_DTYPE_SUPPORT_LIST = (
    DT_FLOAT16, DT_FLOAT, DT_INT8, DT_INT16, DT_INT32, DT_INT64, DT_UINT8, DT_BOOL, DT_DOUBLE, DT_COMPLEX64,
    DT_COMPLEX128,
)  # fmt: skip
ASCEND910B_DTYPE_SUPPORT_LIST = (
    DT_FLOAT16, DT_FLOAT, DT_INT8, DT_INT16, DT_INT32, DT_INT64, DT_UINT8, DT_BOOL, DT_DOUBLE, DT_COMPLEX64,
    DT_COMPLEX128, DT_BF16,
)  # fmt: skip
EMPTY_INPUT_DTYPE_SUPPORT_LIST = (
    DT_FLOAT16, DT_FLOAT, DT_INT8, DT_INT16, DT_INT32, DT_INT64, DT_UINT8, DT_BOOL, DT_DOUBLE, DT_BF16,
)  # fmt: skip
NON_CONTIGUOUS_SUPPORT_DTYPE_SUPPORT_LIST = (DT_FLOAT,)
MAX_FLOAT_EXACT_COUNT = 16777216  # 2^24: below it a float32 count of booleans is exact


def dtype_support_list() -> tuple[int, ...]:
    """SocVersion ASCEND910B or ASCEND910_93, or a regbase arch: the 910B list; else the 910 list."""
    soc = _soc.current()
    if soc.family in ("Ascend910B", "Ascend910_93") or soc.is_regbase:
        return ASCEND910B_DTYPE_SUPPORT_LIST
    return ASCEND910_DTYPE_SUPPORT_LIST


def empty_input_dtypes() -> tuple[int, ...]:
    return EMPTY_INPUT_DTYPE_SUPPORT_LIST


DTYPE_FACTS = {
    "self, out, dtype": dtype_support_list,
    "out, when self is empty": empty_input_dtypes,
}


def _check_dtype_valid(self: aclTensor, dtype: int, out: aclTensor) -> bool:
    supported = dtype_support_list()
    if not (checks.check_dtype_support(self, supported, "self") and checks.check_dtype_support(out, supported, "out")):
        return False
    dt = dtypes.to_op_dtype(dtype)
    if dt not in supported:
        # the list's ToString already has brackets: CANN prints them twice
        op_loge(
            S.ACLNN_ERR_PARAM_INVALID,
            f"type {dtypes.dt_name(dt)} should be in dtype support list [{dtypes.dt_list_str(supported)}].",
        )
        return False
    return checks.check_dtype_match(out, dt, "out")


def _check_dim_valid(self: aclTensor, dims: aclIntArray) -> bool:
    n = max(self.rank, 1)  # a 0-d self takes dims -1 and 0
    seen: set[int] = set()
    for d in dims.values:
        if d >= n or d < -n:
            op_loge(S.ACLNN_ERR_PARAM_INVALID, f"Provided dim {d} must be in the range of [{-n}, {n - 1}].")
            return False
        pos = d if d >= 0 else d + n
        if pos in seen:
            op_loge(S.ACLNN_ERR_PARAM_INVALID, f"Dim {pos} appears multiple times in the list of dims.")
            return False
        seen.add(pos)
    return True


def _check_params(self: Any, dims: Any, dtype: int, out: Any) -> int:
    if not (
        checks.check_null(self, "self")
        and checks.check_null(dims, "dims", "aclIntArray")
        and checks.check_null(out, "out")
    ):
        return S.ACLNN_ERR_PARAM_NULLPTR
    if not _check_dtype_valid(self, dtype, out):
        return S.ACLNN_ERR_PARAM_INVALID
    if not checks.check_max_dim(self, MAX_SUPPORT_DIMS_NUMS, "self"):
        return S.ACLNN_ERR_PARAM_INVALID
    if not _check_dim_valid(self, dims):
        return S.ACLNN_ERR_PARAM_INVALID
    return S.ACLNN_SUCCESS  # a FRACTAL_NZ self is only a warning in the log


def _fill_zero(ex: aclOpExecutor, out: aclTensor) -> int:
    """``FillScalar(out, 0.0f)``: zeros of out's dtype in out's shape (Fill, then ViewCopy)."""
    if not checks.check_dtype_support(out, EMPTY_INPUT_DTYPE_SUPPORT_LIST, "out"):
        return S.ACLNN_ERR_PARAM_INVALID
    if out.is_empty():
        return S.ACLNN_SUCCESS
    npdt = dtypes.numpy_dtype(out.dtype)
    assert npdt is not None
    dims_t = ex.convert_to_tensor(np.array(out.view_shape, dtype=np.int64), DT_INT64)
    value_t = ex.convert_to_tensor(np.zeros(1, dtype=npdt), out.dtype)
    fill_out = fill(dims_t, value_t, out.view_shape, ex)
    if fill_out is None or view_copy(fill_out, out, ex) is None:
        return S.ACLNN_ERR_INNER_NULLPTR
    return S.ACLNN_SUCCESS


def bool_count_dim(shape: tuple[int, ...], d: int) -> int:
    """``shape[(*dims)[i]]`` with the caller's dim: ``gert::Shape::operator[]`` has no bounds
    check, and with its LP64 layout ``dims_[-1]`` is the rank field. A dim below -1 reads
    memory before the object (undefined); aclnn_py wraps it."""
    if d == -1:
        return len(shape)
    return shape[d + len(shape) if d < 0 else d]


def _scalar_self(ex: aclOpExecutor, self: aclTensor, out: aclTensor) -> int:
    """A 0-d self: copied (cast to out's dtype) into out."""
    self_c = contiguous(self, ex)
    if self_c is None:
        return S.ACLNN_ERR_INNER_NULLPTR
    casted = cast(self_c, out.dtype, ex)
    if casted is None or view_copy(casted, out, ex) is None:
        return S.ACLNN_ERR_INNER_NULLPTR
    return S.ACLNN_SUCCESS


def _reduce(ex: aclOpExecutor, self: aclTensor, dims: list[int], keepDims: bool, dtype: int, out: aclTensor) -> int:
    """The graph for a non-empty self of rank >= 1."""
    promote = dtype
    if not dims:  # empty dims: every axis
        dims = list(range(self.rank))
    if self.dtype == DT_BOOL and dtype == DT_INT64:
        count = 1
        for d in dims:
            count *= bool_count_dim(self.view_shape, d)
        promote = DT_FLOAT if count < MAX_FLOAT_EXACT_COUNT else DT_INT64
    regbase_view = (
        _soc.current().is_regbase
        and self.dtype in NON_CONTIGUOUS_SUPPORT_DTYPE_SUPPORT_LIST
        and self.dtype == promote
        and is_reduce_non_contiguous_support(self, dims)
    )
    if regbase_view:  # CreateView of self: the kernel reads the strided view, no Contiguous
        x: aclTensor | None = self
    else:
        self_c = contiguous(self, ex)
        x = cast(self_c, promote, ex) if self_c is not None else None
    if x is None:
        return S.ACLNN_ERR_INNER_NULLPTR
    if dtype == DT_BOOL and not regbase_view:
        result = reduce_any(x, dims, keepDims, ex)
    else:
        result = reduce_sum_op(x, dims, keepDims, ex)
    if result is None:
        return S.ACLNN_ERR_INNER_NULLPTR
    if not check_shape_and_scalar_same(result, out):
        return S.ACLNN_ERR_PARAM_INVALID
    casted = cast(result, out.dtype, ex)
    if casted is None or view_copy(casted, out, ex) is None:
        return S.ACLNN_ERR_INNER_NULLPTR
    return S.ACLNN_SUCCESS


@_l2.phase1(API)
def aclnnReduceSumGetWorkspaceSize(
    self: aclTensor | None, dims: aclIntArray | None, keepDims: bool, dtype: int, out: aclTensor | None,
    workspaceSize: Any, executor: Any,
) -> int:  # fmt: skip
    """Phase 1 of aclnnReduceSum: ``out = sum(self cast to dtype, dims)``."""
    ex = _l2.l2_dfx_phase1(API, workspaceSize, executor, self=self, dims=dims, keepDims=keepDims, dtype=dtype, out=out)
    if ex is None:  # an op-cache hit
        return S.ACLNN_SUCCESS
    ret = _check_params(self, dims, dtype, out)
    if ret != S.ACLNN_SUCCESS:
        return ret
    assert self is not None and dims is not None and out is not None
    ex.bind_arguments(self=self, out=out)
    if self.is_empty():
        ret = _fill_zero(ex, out)
    elif self.rank == 0:
        ret = _scalar_self(ex, self, out)
    else:
        ret = _reduce(ex, self, list(dims.values), keepDims, dtypes.to_op_dtype(dtype), out)
    if ret != S.ACLNN_SUCCESS:
        return ret
    return hand_out(ex, ex.finish(), workspaceSize, executor)


aclnnReduceSum = _l2.phase2(API)
