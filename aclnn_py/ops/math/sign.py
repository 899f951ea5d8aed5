"""aclnnSign — side by side with ops-math ``math/sign/op_api/aclnn_sign.cpp``: ``result = sign(self)``.

L2_DFX_PHASE_1 -> CheckNotNull2Tensor (its arguments are called ``t0`` and ``t1``) ->
CheckDtypeValid -> self and result of one shape -> empty shortcut (self or result empty).
No rank limit: a tensor of more than 8 dims is reshaped back after the kernel (no data moves).

CheckDtypeValid: self in ``DTYPE_SUPPORT_LIST`` -> result must have self's dtype. Otherwise,
by NpuArch: Ascend910 refuses; Ascend910B/910_93/950 refuse anything but BFLOAT16, which then
passes *without* comparing result's dtype (a FLOAT result fails later, in ViewCopy: 561103);
Ascend310P (the ``default:`` branch) accepts every dtype without a word.

Graph: Contiguous -> (BOOL: Cast to INT32) -> Sign -> (> 8 dims: Reshape) -> (BOOL: Cast to
BOOL) -> ViewCopy.
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
    DT_INT32,
    DT_INT64,
)  # fmt: skip
from ...executor import checks
from ...executor.api import hand_out
from ...executor.checks import MAX_SUPPORT_DIMS_NUMS, op_loge
from ...executor.executor import aclOpExecutor
from ...l0.cast import cast
from ...l0.contiguous import contiguous, view_copy
from ...l0.sign import sign as l0_sign
from ...tensor import aclTensor
from .. import _l2

S = aclnnStatus

# bf16 is checked separately below (per NpuArch); bool is computed as INT32.
DTYPE_SUPPORT_LIST = (DT_DOUBLE, DT_FLOAT, DT_FLOAT16, DT_INT32, DT_INT64, DT_COMPLEX64, DT_COMPLEX128, DT_BOOL)


def accepted_self_dtypes() -> tuple[int, ...]:
    """The self dtypes CheckDtypeValid lets through on the chip in effect (Ascend310P: all)."""
    arch = _soc.current().npu_arch
    if arch == "DAV_1001":
        return DTYPE_SUPPORT_LIST
    if arch in ("DAV_2201", "DAV_3510"):
        return (*DTYPE_SUPPORT_LIST, DT_BF16)
    return tuple(int(d) for d in dtypes.aclDataType if d != dtypes.aclDataType.ACL_DT_UNDEFINED)


DTYPE_FACTS = {
    "self, result (`DTYPE_SUPPORT_LIST`: result must have self's dtype)": lambda: DTYPE_SUPPORT_LIST,
    "self, as CheckDtypeValid lets it through (outside the list: result's dtype is not compared)": accepted_self_dtypes,
}


def _check_dtype_valid(self: aclTensor, result: aclTensor) -> bool:
    """``CheckDtypeValid``: the texts differ per NpuArch; the list prints in double brackets."""
    name = dtypes.dt_name
    listed = dtypes.dt_list_str(DTYPE_SUPPORT_LIST)
    if self.dtype not in DTYPE_SUPPORT_LIST:
        soc = _soc.current()
        if soc.npu_arch == "DAV_1001":
            op_loge(
                S.ACLNN_ERR_PARAM_INVALID,
                f"On Ascend910 self dtype [{name(self.dtype)}] should be in dtype support list [{listed}].",
            )
            return False
        if soc.npu_arch in ("DAV_2201", "DAV_3510") and self.dtype != DT_BF16:
            op_loge(
                S.ACLNN_ERR_PARAM_INVALID,
                f"On {soc.family}, self dtype [{name(self.dtype)}] should be in dtype support list [{listed}] "
                "or be BF16.",
            )
            return False
        return True  # BFLOAT16 (DAV_2201/3510) or any dtype on the default branch: result not compared
    if self.dtype != result.dtype:
        op_loge(
            S.ACLNN_ERR_PARAM_INVALID,
            f"Self dtype should be same as result dtype. self [{name(self.dtype)}], result [{name(result.dtype)}]",
        )
        return False
    return True


def _check_params(self: Any, result: Any) -> int:
    if not (checks.check_null(self, "t0") and checks.check_null(result, "t1")):  # CheckNotNull2Tensor
        return S.ACLNN_ERR_PARAM_NULLPTR
    if not _check_dtype_valid(self, result):
        return S.ACLNN_ERR_PARAM_INVALID
    if not checks.check_shape_equal(self, result, "self", "result"):
        return S.ACLNN_ERR_PARAM_INVALID
    return S.ACLNN_SUCCESS


def _reshape(ex: aclOpExecutor, x: aclTensor, shape: tuple[int, ...]) -> aclTensor:
    """``l0op::Reshape`` of a contiguous result to the shape it already has: a view, no kernel."""
    step = ex.step("Reshape", [x], shape=list(shape))
    step.outputs = [x]
    step.note = "no kernel: a view of the same data"
    return x


@_l2.phase1("aclnnSign")
def aclnnSignGetWorkspaceSize(
    self: aclTensor | None, result: aclTensor | None, workspaceSize: Any, executor: Any
) -> int:
    """Phase 1 of aclnnSign: ``result = sign(self)`` (BOOL: unchanged; complex: ``x / |x|``)."""
    ex = _l2.l2_dfx_phase1("aclnnSign", workspaceSize, executor, self=self, result=result)
    if ex is None:
        return S.ACLNN_SUCCESS
    ret = _check_params(self, result)
    if ret != S.ACLNN_SUCCESS:
        return ret
    assert self is not None and result is not None
    ex.bind_arguments(self=self, result=result)
    if self.is_empty() or result.is_empty():
        return hand_out(ex, ex.finish(), workspaceSize, executor)
    self_c = contiguous(self, ex)
    if self_c is None:
        return S.ACLNN_ERR_INNER_NULLPTR
    is_bool = self_c.dtype == DT_BOOL
    self_cast = cast(self_c, DT_INT32, ex) if is_bool else self_c
    if self_cast is None:
        return S.ACLNN_ERR_INNER_NULLPTR
    sign_out = l0_sign(self_cast, ex)
    if sign_out is None:
        return S.ACLNN_ERR_INNER_NULLPTR
    if self.rank > MAX_SUPPORT_DIMS_NUMS:
        sign_out = _reshape(ex, sign_out, self.view_shape)
    final = cast(sign_out, DT_BOOL, ex) if is_bool else sign_out
    if final is None or view_copy(final, result, ex) is None:
        return S.ACLNN_ERR_INNER_NULLPTR
    return hand_out(ex, ex.finish(), workspaceSize, executor)


aclnnSign = _l2.phase2("aclnnSign")
