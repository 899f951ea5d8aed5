"""aclnnSoftmax — side by side with ops-nn ``activation/softmax_v2/op_api/aclnn_softmax.cpp``:
``out = exp(self - max) / sum(exp(self - max))`` along ``dim``.

L2_DFX_PHASE_1 -> CheckNotNull (self, out) -> **an empty self succeeds here, before any other
check** -> CheckDtypeValid (self, then out, in the chip's list; they may differ) -> CheckDim
(dim in range, a 0-d self counting as rank 1) -> CheckShape (self rank <= 8, out's shape ==
self's) -> CREATE_EXECUTOR -> empty shortcut. Graph: Contiguous -> SoftmaxV2 (in self's dtype,
along the caller's dim) -> Cast to out's dtype -> ViewCopy.
"""

from __future__ import annotations

from typing import Any

from ... import soc as _soc
from ..._status import aclnnStatus
from ...dtypes import DT_BF16, DT_DOUBLE, DT_FLOAT, DT_FLOAT16
from ...executor import checks
from ...executor.api import hand_out
from ...executor.checks import op_loge
from ...l0.cast import cast
from ...l0.contiguous import contiguous, view_copy
from ...l0.softmax_v2 import softmax_v2
from ...tensor import aclTensor
from .. import _l2

S = aclnnStatus
API = "aclnnSoftmax"

ASCEND910_DTYPE_SUPPORT_LIST = (DT_FLOAT, DT_FLOAT16, DT_DOUBLE)
ASCEND910B_DTYPE_SUPPORT_LIST = (DT_FLOAT, DT_FLOAT16, DT_DOUBLE, DT_BF16)
AXIS_LIMIT = 8  # the kernels take at most 8 dims


def dtype_support_list() -> tuple[int, ...]:
    """``ASCEND910B <= SocVersion <= ASCEND910E`` (910B, 910_93, 950): the 910B list; else 910's."""
    if _soc.current().family in ("Ascend910B", "Ascend910_93", "Ascend950"):
        return ASCEND910B_DTYPE_SUPPORT_LIST
    return ASCEND910_DTYPE_SUPPORT_LIST


DTYPE_FACTS = {"self, out (each on its own; they may differ)": dtype_support_list}


def _check_dim(self: aclTensor, dim: int) -> bool:
    n = max(self.rank, 1)
    if dim >= n or dim < -n:
        op_loge(S.ACLNN_ERR_PARAM_INVALID, f"provided dim {dim} not in the range of input size {n}.")
        return False
    return True


def _check_params(self: Any, dim: int, out: Any) -> int:
    if not checks.check_not_null_tensors((self, "self"), (out, "out")):
        return S.ACLNN_ERR_PARAM_NULLPTR
    if self.is_empty():  # nothing else is checked for an empty self
        return S.ACLNN_SUCCESS
    supported = dtype_support_list()
    if not (checks.check_dtype_support(self, supported, "self") and checks.check_dtype_support(out, supported, "out")):
        return S.ACLNN_ERR_PARAM_INVALID
    if not _check_dim(self, dim):
        return S.ACLNN_ERR_PARAM_INVALID
    if not (checks.check_max_dim(self, AXIS_LIMIT, "self") and checks.check_shape_equal(self, out, "self", "out")):
        return S.ACLNN_ERR_PARAM_INVALID
    return S.ACLNN_SUCCESS


@_l2.phase1(API)
def aclnnSoftmaxGetWorkspaceSize(
    self: aclTensor | None, dim: int, out: aclTensor | None, workspaceSize: Any, executor: Any
) -> int:
    """Phase 1 of aclnnSoftmax: the softmax of ``self`` along ``dim`` into ``out``."""
    ex = _l2.l2_dfx_phase1(API, workspaceSize, executor, self=self, dim=dim, out=out)
    if ex is None:  # an op-cache hit
        return S.ACLNN_SUCCESS
    ret = _check_params(self, dim, out)
    if ret != S.ACLNN_SUCCESS:
        return ret
    assert self is not None and out is not None
    ex.bind_arguments(self=self, out=out)
    if self.is_empty():
        return hand_out(ex, ex.finish(), workspaceSize, executor)
    self_c = contiguous(self, ex)
    if self_c is None:
        return S.ACLNN_ERR_INNER_NULLPTR
    result = softmax_v2(self_c, dim, ex)
    casted = cast(result, out.dtype, ex)
    if casted is None or view_copy(casted, out, ex) is None:
        return S.ACLNN_ERR_INNER_NULLPTR
    return hand_out(ex, ex.finish(), workspaceSize, executor)


aclnnSoftmax = _l2.phase2(API)
