"""aclnnHardswish, aclnnInplaceHardswish — side by side with ops-nn
``activation/hard_swish/op_host/op_api/aclnn_hardswish.cpp``: ``out = self * relu6(self + 3) / 6``.

Check order: OP_CHECK_COMM_INPUT -> L2_DFX_PHASE_1 -> CheckNotNull (self, out) -> CheckDtypeValid
(self, out in the chip's list; self's dtype casts to out's) -> CheckShape (self and out of one
shape; no rank limit) -> empty self: nothing to do.

Graph: Contiguous(self) -> HardSwish (self's dtype) -> Cast to out's dtype -> ViewCopy. The
op_api also casts a BFLOAT16 self to FLOAT16 outside Ascend910B..Ascend910E, but the dtype check
has refused BFLOAT16 there already, so that branch never runs.

aclnnInplaceHardswish runs aclnnHardswish's phase 1 with ``out = self`` (its DFX and op-cache
name is aclnnHardswish); its phase 2 is its own.
"""

from __future__ import annotations

from typing import Any

from ... import soc as _soc
from ..._status import aclnnStatus
from ...dtypes import DT_BF16, DT_FLOAT, DT_FLOAT16
from ...executor import checks
from ...l0.cast import cast
from ...l0.contiguous import contiguous
from ...l0.hard_swish import hard_swish
from ...tensor import aclTensor
from .. import _l2
from .._graph import empty, finish

S = aclnnStatus
API = "aclnnHardswish"

DTYPE_SUPPORT_910_LIST = (DT_FLOAT, DT_FLOAT16)
DTYPE_SUPPORT_910B_LIST = (DT_FLOAT, DT_FLOAT16, DT_BF16)
DTYPE_CAST_LIST = (DT_BF16,)
# ASCEND910B <= SocVersion <= ASCEND910E in opbase's enum order (ASCEND950 is ASCEND910_95)
_ASCEND910B_TO_910E = ("Ascend910B", "Ascend910_93", "Ascend950")


def soc_version_ge_910b() -> bool:
    """``CheckSocVersionGe910B``: Ascend910B, Ascend910_93 and Ascend950."""
    return _soc.current().family in _ASCEND910B_TO_910E


def dtype_support_list() -> tuple[int, ...]:
    return DTYPE_SUPPORT_910B_LIST if soc_version_ge_910b() else DTYPE_SUPPORT_910_LIST


DTYPE_FACTS = {"self, out (aclnnHardswish); self (aclnnInplaceHardswish)": dtype_support_list}


def _check_params(self: Any, out: Any) -> int:
    if not checks.check_not_null_tensors((self, "self"), (out, "out")):
        return S.ACLNN_ERR_PARAM_NULLPTR
    supported = dtype_support_list()
    if not (
        checks.check_dtype_support(self, supported, "self")
        and checks.check_dtype_support(out, supported, "out")
        and checks.check_result_dtype_cast(self.dtype, out.dtype)
    ):
        return S.ACLNN_ERR_PARAM_INVALID
    if not checks.check_shape_equal(self, out, "self", "out"):
        return S.ACLNN_ERR_PARAM_INVALID
    return S.ACLNN_SUCCESS


@_l2.phase1(API)
def aclnnHardswishGetWorkspaceSize(
    self: aclTensor | None, out: aclTensor | None, workspaceSize: Any, executor: Any
) -> int:
    """Phase 1 of aclnnHardswish: check the arguments, build the executor."""
    if not checks.check_comm_input(workspaceSize, executor):
        return S.ACLNN_ERR_PARAM_NULLPTR
    ex = _l2.l2_dfx_phase1(API, workspaceSize, executor, self=self, out=out)
    if ex is None:  # an op-cache hit
        return S.ACLNN_SUCCESS
    ret = _check_params(self, out)
    if ret != S.ACLNN_SUCCESS:
        return ret
    assert self is not None and out is not None
    ex.bind_arguments(self=self, out=out)
    if self.is_empty():
        return empty(ex, workspaceSize, executor)
    self_c = contiguous(self, ex)
    if self_c is None:
        return S.ACLNN_ERR_INNER_NULLPTR
    self_cast: aclTensor | None = self_c
    if not soc_version_ge_910b() and self_c.dtype in DTYPE_CAST_LIST:  # unreachable: BF16 refused above
        self_cast = cast(self_c, DT_FLOAT16, ex)
    assert self_cast is not None
    return finish(ex, hard_swish(self_cast, ex), out, workspaceSize, executor)


aclnnHardswish = _l2.phase2(API)


@_l2.phase1("aclnnInplaceHardswish")
def aclnnInplaceHardswishGetWorkspaceSize(self: aclTensor | None, workspaceSize: Any, executor: Any) -> int:
    """Phase 1 of aclnnInplaceHardswish: aclnnHardswish's phase 1 with ``out = self``."""
    return int(aclnnHardswishGetWorkspaceSize(self, self, workspaceSize, executor))


aclnnInplaceHardswish = _l2.phase2("aclnnInplaceHardswish", API)
