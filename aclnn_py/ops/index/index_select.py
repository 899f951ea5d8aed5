"""aclnnIndexSelect — side by side with ops-nn ``index/gather_v2/op_api/aclnn_index_select.cpp``:
``out = self`` with the slices along ``dim`` that ``index`` names.

L2_DFX_PHASE_1 -> CheckNotNull (self, index, out) -> CheckDtypeValid (self in the list; BFLOAT16
only on DAV_2201 and regbase; self's dtype == out's; index INT32/INT64) -> CheckFormat (no
private storage format) -> CheckShape (0-d self needs a 0-d out; self rank <= 8; dim in range;
index rank <= 1; out's shape, only when self and index are not empty) -> empty shortcut.
Graph: Contiguous(self) (a 0-d result viewed as [1]), Contiguous(index) (a 0-d one viewed as
[1]), GatherV2 (Ascend950) or GatherV3 (which falls back to GatherV2 off Ascend910B/910_93),
ViewCopy. ``dim`` is passed on unwrapped; the l0 ops wrap it.

The index values are the kernels' business: an index outside ``[0, self.shape[dim])`` gives
zeros on Ascend950's AI Core, fails the AI CPU kernel at run time, and is undefined on the
other AI Core kernels (see :mod:`aclnn_py.kernels.gather`).
"""

from __future__ import annotations

from typing import Any

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
    DT_UINT16,
    DT_UINT32,
    DT_UINT64,
)  # fmt: skip
from ...executor import checks
from ...executor.api import hand_out
from ...executor.checks import op_loge
from ...executor.executor import aclOpExecutor
from ...l0.contiguous import contiguous, view_copy
from ...l0.gather_v2 import gather_v2
from ...l0.gather_v3 import gather_v3
from ...tensor import aclTensor
from .. import _l2

S = aclnnStatus
API = "aclnnIndexSelect"

DTYPE_SUPPORT_LIST = (
    DT_FLOAT, DT_INT32, DT_INT64, DT_FLOAT16, DT_INT16, DT_INT8, DT_UINT8, DT_BOOL, DT_UINT64, DT_UINT32, DT_UINT16,
    DT_DOUBLE, DT_COMPLEX64, DT_COMPLEX128, DT_BF16,
)  # fmt: skip
INDEX_SUPPORT_LIST = (DT_INT32, DT_INT64)
MAX_INPUT_DIM_NUM = 8


def self_support_list() -> tuple[int, ...]:
    """The list ``OP_CHECK_DTYPE_NOT_SUPPORT`` checks (the same on every chip)."""
    return DTYPE_SUPPORT_LIST


def bf16_allowed() -> bool:
    """The NpuArch test after the list: BFLOAT16 needs DAV_2201 or a regbase arch."""
    soc = _soc.current()
    return soc.npu_arch == "DAV_2201" or soc.is_regbase


def self_accepted() -> tuple[int, ...]:
    """What passes both tests on the chip in effect."""
    return tuple(d for d in DTYPE_SUPPORT_LIST if d != DT_BF16 or bf16_allowed())


def index_support_list() -> tuple[int, ...]:
    return INDEX_SUPPORT_LIST


DTYPE_FACTS = {
    "self, out: the support list": self_support_list,
    "self, out: accepted (BFLOAT16 refused by the NpuArch test)": self_accepted,
    "index": index_support_list,
}


def _check_dtype_valid(self: aclTensor, index: aclTensor, out: aclTensor) -> bool:
    if not checks.check_dtype_support(self, DTYPE_SUPPORT_LIST, "self"):
        return False
    if self.dtype == DT_BF16 and not bf16_allowed():
        arch = int(_soc.current().npu_arch.removeprefix("DAV_"))  # printed with %u: the enum value
        op_loge(S.ACLNN_ERR_PARAM_INVALID, f"NpuArch {arch} does not support BF16.")
        return False
    return checks.check_dtype_match(self, out.dtype, "self") and checks.check_dtype_support(
        index, INDEX_SUPPORT_LIST, "index"
    )


def _check_format(self: aclTensor, index: aclTensor, out: aclTensor) -> bool:
    if any(dtypes.is_private_format(t.storage_format) for t in (self, index, out)):
        op_loge(S.ACLNN_ERR_PARAM_INVALID, "Format only support ND, NCHW, NHWC, HWCN, NDHWC, NCDHW.")
        return False
    return True


def expected_out_shape(self: aclTensor, dim: int, index: aclTensor) -> tuple[int, ...]:
    """self's shape with ``dim`` set to the index count (1 for a 0-d index). ``Shape::SetDim``
    never changes the rank, so a 0-d self expects a 0-d out."""
    shape = list(self.view_shape)
    if dim < len(shape):
        shape[dim] = 1 if index.rank == 0 else index.view_shape[0]
    return tuple(shape)


def _check_shape(self: aclTensor, dim: int, index: aclTensor, out: aclTensor) -> bool:
    self_dims = self.rank
    if self.rank == 0:
        self_dims = 1
        if out.rank != 0:
            op_loge(S.ACLNN_ERR_PARAM_INVALID, "self is scalar, and out should also be scalar")
            return False
    if not checks.check_max_dim(self, MAX_INPUT_DIM_NUM, "self"):
        return False
    if not -self_dims <= dim < self_dims:
        op_loge(
            S.ACLNN_ERR_PARAM_INVALID,
            f"IndexError: Dimension out of range (expected to be in range of [{-self_dims}, {self_dims - 1}], "
            f"but got {dim})",
        )
        return False
    if dim < 0:
        dim += self_dims  # the local copy only: the graph gets the caller's dim
    if index.rank > 1:
        op_loge(S.ACLNN_ERR_PARAM_INVALID, f"index dimNum is {index.rank}, should not greater than 1")
        return False
    expected = expected_out_shape(self, dim, index)
    # Size() is the storage's element count: an empty self or index skips the comparison
    if self.storage_numel() and index.storage_numel() and out.view_shape != expected:
        op_loge(
            S.ACLNN_ERR_PARAM_INVALID,
            f"Shape of out should be {dtypes.shape_str(expected)}, but current is {dtypes.shape_str(out.view_shape)}.",
        )
        return False
    return True


def _check_params(self: Any, dim: int, index: Any, out: Any) -> int:
    if not checks.check_not_null_tensors((self, "self"), (index, "index"), (out, "out")):
        return S.ACLNN_ERR_PARAM_NULLPTR
    if not _check_dtype_valid(self, index, out):
        return S.ACLNN_ERR_PARAM_INVALID
    if not _check_format(self, index, out):
        return S.ACLNN_ERR_PARAM_INVALID
    if not _check_shape(self, dim, index, out):
        return S.ACLNN_ERR_PARAM_INVALID
    return S.ACLNN_SUCCESS


def unsqueeze_nd_view(ex: aclOpExecutor, x: aclTensor) -> aclTensor:
    """``l0op::UnsqueezeNd(x, 0)`` of a 0-d tensor: a [1] view of the same storage, no kernel."""
    step = ex.step("UnsqueezeNd", [x], dim=0)
    view = aclTensor((1,), x.dtype, (1,), x.offset, x.view_format, (1,), x.storage)
    view.storage_format, view.origin_format = x.storage_format, x.origin_format
    step.outputs = [view]
    step.note = "no kernel: a view"
    return view


@_l2.phase1(API)
def aclnnIndexSelectGetWorkspaceSize(
    self: aclTensor | None, dim: int, index: aclTensor | None, out: aclTensor | None, workspaceSize: Any, executor: Any
) -> int:
    """Phase 1 of aclnnIndexSelect: the slices of ``self`` along ``dim`` named by ``index``."""
    ex = _l2.l2_dfx_phase1(API, workspaceSize, executor, self=self, dim=dim, index=index, out=out)
    if ex is None:  # an op-cache hit
        return S.ACLNN_SUCCESS
    ret = _check_params(self, dim, index, out)
    if ret != S.ACLNN_SUCCESS:
        return ret
    assert self is not None and index is not None and out is not None
    ex.bind_arguments(self=self, index=index, out=out)
    if self.is_empty() or index.is_empty():
        return hand_out(ex, ex.finish(), workspaceSize, executor)

    self_c = contiguous(self, ex)
    if self_c is None:
        return S.ACLNN_ERR_INNER_NULLPTR
    if self_c.rank == 0:
        self_c = unsqueeze_nd_view(ex, self_c)
    index_c = contiguous(index, ex)
    if index_c is None:
        return S.ACLNN_ERR_INNER_NULLPTR
    index_p = unsqueeze_nd_view(ex, index_c) if index_c.rank == 0 else index_c

    gather = gather_v2 if _soc.current().is_regbase else gather_v3  # GatherV3 falls back to GatherV2 itself
    result = gather(self_c, dim, index_p, ex)
    if result is None:
        return S.ACLNN_ERR_INNER_NULLPTR
    if view_copy(result, out, ex) is None:
        return S.ACLNN_ERR_INNER_NULLPTR
    return hand_out(ex, ex.finish(), workspaceSize, executor)


aclnnIndexSelect = _l2.phase2(API)
