"""aclnnAny — side by side with ops-math ``math/reduce_any/op_api/aclnn_any.cpp``: ``out = any(self != 0)``
over the dims in ``dim`` (an empty list: every dim).

Less strict than aclnnAll. CheckParams, before the executor: self, dim, out non-null -> self in
the chip's list, out UINT8 or BOOL -> every dim in [-n, n-1] (``Dimension out of range.``; a dim
given twice is fine: the union is reduced) -> self and out at most 8 dims. No format check, and
out's shape is not checked here: an empty self fills out with 0 (False) whatever its shape;
otherwise the shape ReduceAny infers is compared with out's *after* the kernel is added, and
two shapes of one element each are accepted (``[]`` for ``[1]``).

Graph, two branches:

* Ascend950, FLOAT self that the strided reduce can read (1-4 dims, a row-major strided view,
  not only size-1 dims reduced): ReduceAny straight on self's view;
* otherwise Contiguous, then Cast to BOOL except FLOAT16/BFLOAT16/FLOAT on Ascend910B/910_93
  (Ascend950 casts them, unlike aclnnAll), then ReduceAny;

then the shape check, Cast to out's dtype, ReFormat to out's format, ViewCopy.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ... import soc as _soc
from ..._status import aclnnStatus
from ...dtypes import DT_BF16, DT_BOOL, DT_FLOAT, DT_FLOAT16
from ...executor import checks
from ...executor.api import hand_out
from ...executor.checks import MAX_SUPPORT_DIMS_NUMS, op_loge
from ...l0.cast import cast
from ...l0.contiguous import contiguous, view_copy
from ...l0.reduce_any import reduce_any
from ...l0.reformat import reformat
from ...tensor import aclIntArray, aclTensor
from .. import _l2
from ._aclnn_check import check_shape_and_scalar_same, is_reduce_non_contiguous_support
from .all import Ascend910_self_dtype_support_list, Ascend910B_self_dtype_support_list, fill_out, out_dtype_support_list

S = aclnnStatus

ASCEND910_DTYPE_DTYPE_SUPPORT_LIST = Ascend910_self_dtype_support_list
ASCEND910B_DTYPE_DTYPE_SUPPORT_LIST = Ascend910B_self_dtype_support_list
NON_CONTIOUS_SUPPORT_DTYPE_SUPPORT_LIST = (DT_FLOAT,)
_FLOATS = (DT_FLOAT16, DT_BF16, DT_FLOAT)


def dtype_support_list() -> tuple[int, ...]:
    """``GetDtypeSupportList``: SocVersion ASCEND910B / ASCEND910_93, or regbase."""
    soc = _soc.current()
    if soc.family in ("Ascend910B", "Ascend910_93") or soc.is_regbase:
        return ASCEND910B_DTYPE_DTYPE_SUPPORT_LIST
    return ASCEND910_DTYPE_DTYPE_SUPPORT_LIST


DTYPE_FACTS = {"self": dtype_support_list, "out": lambda: out_dtype_support_list}


def _check_dim(self: aclTensor, dim: Sequence[int]) -> bool:
    n = self.rank or 1  # a 0-d self counts as one dim
    for d in dim:
        if d < -n or d >= n:
            op_loge(S.ACLNN_ERR_PARAM_INVALID, "Dimension out of range.")
            return False
    return True


def _check_params(self: Any, dim: Any, out: Any) -> int:
    if not (
        checks.check_null(self, "self")
        and checks.check_null(dim, "dim", "aclIntArray")
        and checks.check_null(out, "out")
    ):
        return S.ACLNN_ERR_PARAM_NULLPTR
    if not (
        checks.check_dtype_support(self, dtype_support_list(), "self")
        and checks.check_dtype_support(out, out_dtype_support_list, "out")
    ):
        return S.ACLNN_ERR_PARAM_INVALID
    if not _check_dim(self, [int(v) for v in dim.values]):
        return S.ACLNN_ERR_PARAM_INVALID
    if not (
        checks.check_max_dim(self, MAX_SUPPORT_DIMS_NUMS, "self")
        and checks.check_max_dim(out, MAX_SUPPORT_DIMS_NUMS, "out")
    ):
        return S.ACLNN_ERR_PARAM_INVALID
    return S.ACLNN_SUCCESS


def is_non_contiguous_support(x: aclTensor, dims: Sequence[int]) -> bool:
    """``IsNonContiguousSupport``: Ascend950, FLOAT, and a view the strided reduce can read."""
    if not _soc.current().is_regbase or x.dtype not in NON_CONTIOUS_SUPPORT_DTYPE_SUPPORT_LIST:
        return False
    return is_reduce_non_contiguous_support(x, dims)


def keeps_float_input(x: aclTensor) -> bool:
    """FLOAT16/BFLOAT16/FLOAT skip the Cast to BOOL on Ascend910B and 910_93 only (SocVersion)."""
    return x.dtype in _FLOATS and _soc.current().family in ("Ascend910B", "Ascend910_93")


@_l2.phase1("aclnnAny")
def aclnnAnyGetWorkspaceSize(
    self: aclTensor | None, dim: aclIntArray | None, keepdim: bool, out: aclTensor | None,
    workspaceSize: Any, executor: Any,
) -> int:  # fmt: skip
    """Phase 1 of aclnnAny: ``out = any(self != 0)`` over ``dim`` (empty: every dim)."""
    ex = _l2.l2_dfx_phase1("aclnnAny", workspaceSize, executor, self=self, dim=dim, keepdim=keepdim, out=out)
    if ex is None:
        return S.ACLNN_SUCCESS
    ret = _check_params(self, dim, out)
    if ret != S.ACLNN_SUCCESS:
        return ret
    assert self is not None and dim is not None and out is not None
    ex.bind_arguments(self=self, out=out)
    dims = [int(v) for v in dim.values] or list(range(self.rank))  # getAllDims
    if self.is_empty():
        if fill_out(ex, out, 0) is None:
            return S.ACLNN_ERR_INNER_NULLPTR
        return hand_out(ex, ex.finish(), workspaceSize, executor)
    if is_non_contiguous_support(self, dims):
        # CreateView(self, its view shape, storage shape, strides, offset): the kernel reads the view
        view = aclTensor(self.view_shape, self.dtype, self.strides, self.offset, self.view_format,
                         self.storage_shape, self.storage)  # fmt: skip
        view.storage_format, view.origin_format = self.storage_format, self.origin_format
        result = reduce_any(view, dims, keepdim, ex)
    else:
        self_c = contiguous(self, ex)
        if self_c is None:
            return S.ACLNN_ERR_INNER_NULLPTR
        self_cast = self_c if keeps_float_input(self_c) else cast(self_c, DT_BOOL, ex)
        if self_cast is None:
            return S.ACLNN_ERR_INNER_NULLPTR
        result = reduce_any(self_cast, dims, keepdim, ex)
    if result is None:
        return S.ACLNN_ERR_INNER_NULLPTR
    if not check_shape_and_scalar_same(result, out):
        return S.ACLNN_ERR_PARAM_INVALID
    result_cast = cast(result, out.dtype, ex)
    if result_cast is None:
        return S.ACLNN_ERR_INNER_NULLPTR
    formatted = reformat(result_cast, out.storage_format, ex)
    if formatted is None:
        return S.ACLNN_ERR_INNER_NULLPTR
    if view_copy(formatted, out, ex) is None:
        return S.ACLNN_ERR_INNER_NULLPTR
    return hand_out(ex, ex.finish(), workspaceSize, executor)


aclnnAny = _l2.phase2("aclnnAny")
