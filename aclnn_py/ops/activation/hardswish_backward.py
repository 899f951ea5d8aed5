"""aclnnHardswishBackward — side by side with ops-nn ``aclnn_hardswish_backward.cpp``.

Check order: OP_CHECK_COMM_INPUT -> CheckNotNull3Tensor(gradOutput, self, out) (messages name
them t0, t1, t2) -> CheckDtypeValid (self in list, gradOutput in list, gradOutput == self,
out == self) -> CheckShapeValid (ranks <= 8, gradOutput == self, out == self) -> empty shortcut.
Graph: Contiguous(self) -> Contiguous(gradOutput) -> HardSwishGrad -> ViewCopy. No casts.
Shapes with a negative dimension pass every check; the kernel's tiling refuses them (561103).
"""

from __future__ import annotations

from typing import Any

from ..._status import aclnnStatus
from ...dtypes import DT_BF16, DT_FLOAT, DT_FLOAT16
from ...executor import checks
from ...executor.api import hand_out
from ...executor.checks import MAX_SUPPORT_DIMS_NUMS
from ...l0.contiguous import contiguous, view_copy
from ...l0.hard_swish_grad import hard_swish_grad
from ...tensor import aclTensor
from .. import _l2

S = aclnnStatus
API = "aclnnHardswishBackward"

ASCEND910_DTYPE_SUPPORT_LIST = (DT_FLOAT, DT_FLOAT16)
ASCEND910B_DTYPE_SUPPORT_LIST = (DT_FLOAT, DT_FLOAT16, DT_BF16)


def dtype_support_list() -> tuple[int, ...]:
    return checks.dtype_support_list_v2(ASCEND910B_DTYPE_SUPPORT_LIST, ASCEND910_DTYPE_SUPPORT_LIST)


DTYPE_FACTS = {"self, gradOutput (out: self's dtype)": dtype_support_list}


def _check_shape_valid(gradOutput: aclTensor, self: aclTensor, out: aclTensor) -> bool:
    return (
        checks.check_max_dim(gradOutput, MAX_SUPPORT_DIMS_NUMS, "gradOutput")
        and checks.check_max_dim(self, MAX_SUPPORT_DIMS_NUMS, "self")
        and checks.check_shape_equal(gradOutput, self, "gradOutput", "self")
        and checks.check_shape_equal(out, self, "out", "self")
    )


def _check_dtype_valid(gradOutput: aclTensor, self: aclTensor, out: aclTensor) -> bool:
    supported = dtype_support_list()
    return (
        checks.check_dtype_support(self, supported, "self")
        and checks.check_dtype_support(gradOutput, supported, "gradOutput")
        and checks.check_dtype_match(gradOutput, self.dtype, "gradOutput")
        and checks.check_dtype_match(out, self.dtype, "out")
    )


def _check_params(gradOutput: Any, self: Any, out: Any) -> int:
    # CheckNotNull3Tensor stringifies its own parameters: the messages say t0 / t1 / t2.
    if not checks.check_not_null_tensors((gradOutput, "t0"), (self, "t1"), (out, "t2")):
        return S.ACLNN_ERR_PARAM_NULLPTR
    if not _check_dtype_valid(gradOutput, self, out):
        return S.ACLNN_ERR_PARAM_INVALID
    if not _check_shape_valid(gradOutput, self, out):
        return S.ACLNN_ERR_PARAM_INVALID
    return S.ACLNN_SUCCESS


@_l2.phase1(API)
def aclnnHardswishBackwardGetWorkspaceSize(
    gradOutput: aclTensor | None,
    self: aclTensor | None,
    out: aclTensor | None,
    workspaceSize: Any,
    executor: Any,
) -> int:
    """Phase 1 of aclnnHardswishBackward: check the arguments, build the executor."""
    if not checks.check_comm_input(workspaceSize, executor):
        return S.ACLNN_ERR_PARAM_NULLPTR
    ex = _l2.l2_dfx_phase1(API, workspaceSize, executor, gradOutput=gradOutput, self=self, out=out)
    if ex is None:  # an op-cache hit
        return S.ACLNN_SUCCESS

    ret = _check_params(gradOutput, self, out)
    if ret != S.ACLNN_SUCCESS:
        return ret
    assert gradOutput is not None and self is not None and out is not None

    ex.bind_arguments(gradOutput=gradOutput, self=self, out=out)
    if gradOutput.is_empty() or self.is_empty():
        return hand_out(ex, ex.finish(), workspaceSize, executor)
    self_c = contiguous(self, ex)
    if self_c is None:
        return S.ACLNN_ERR_INNER_NULLPTR
    grad_output_c = contiguous(gradOutput, ex)
    if grad_output_c is None:
        return S.ACLNN_ERR_INNER_NULLPTR

    result = hard_swish_grad(grad_output_c, self_c, ex)
    if result is None:
        return S.ACLNN_ERR_INNER_NULLPTR
    if view_copy(result, out, ex) is None:
        return S.ACLNN_ERR_INNER_NULLPTR

    return hand_out(ex, ex.finish(), workspaceSize, executor)


aclnnHardswishBackward = _l2.phase2(API)
