"""aclnnSmoothL1LossBackward — side by side with ops-nn ``aclnn_smooth_l1_loss_backward.cpp``.

Check order: OP_CHECK_COMM_INPUT -> CheckNotNull (gradOut, self, target, gradInput) ->
CheckDtypeValid -> CheckShape (max rank of the inputs <= 8) -> CheckReduction -> CheckBeta ->
CheckPromoteType -> CheckShapeBroadcast -> empty shortcut. Graph: Contiguous x3 -> Cast x3 to
the promoted type -> ReFormat x3 (in-place relabel to ND) -> SmoothL1LossGradV2 -> Cast to
gradInput's dtype -> ViewCopy. Shapes with a negative dimension pass every check; the kernel's
tiling refuses them (561103).
"""

from __future__ import annotations

from typing import Any

from ... import dtypes
from ..._status import aclnnStatus
from ...dtypes import DT_BF16, DT_FLOAT, DT_FLOAT16, DT_UNDEFINED
from ...executor import checks
from ...executor.api import hand_out
from ...executor.checks import MAX_SUPPORT_DIMS_NUMS, op_loge
from ...l0.cast import cast
from ...l0.contiguous import contiguous, view_copy
from ...l0.reformat import reformat
from ...l0.smooth_l1_loss_grad_v2 import smooth_l1_loss_grad_v2
from ...tensor import aclTensor
from .. import _l2

S = aclnnStatus
API = "aclnnSmoothL1LossBackward"

REDUCTION_STR = ("none", "mean", "sum")
ASCEND910_DTYPE_SUPPORT_LIST = (DT_FLOAT, DT_FLOAT16)
ASCEND910B_DTYPE_SUPPORT_LIST = (DT_FLOAT, DT_FLOAT16, DT_BF16)


def dtype_support_list() -> tuple[int, ...]:
    return checks.dtype_support_list_v2(ASCEND910B_DTYPE_SUPPORT_LIST, ASCEND910_DTYPE_SUPPORT_LIST)


DTYPE_FACTS = {"gradOut, self, target, gradInput": dtype_support_list}


def _check_not_null(gradOut: Any, self: Any, target: Any, gradInput: Any) -> bool:
    return checks.check_not_null_tensors(
        (gradOut, "gradOut"), (self, "self"), (target, "target"), (gradInput, "gradInput")
    )


def _check_dtype_valid(gradOut: aclTensor, self: aclTensor, target: aclTensor, gradInput: aclTensor) -> bool:
    supported = dtype_support_list()
    return (
        checks.check_dtype_support(gradOut, supported, "gradOut")
        and checks.check_dtype_support(self, supported, "self")
        and checks.check_dtype_support(target, supported, "target")
        and checks.check_dtype_support(gradInput, supported, "gradInput")
    )


def _check_promote_type(gradOut: aclTensor, self: aclTensor, target: aclTensor, gradInput: aclTensor) -> int | None:
    supported = dtype_support_list()
    promote = dtypes.promote_type(gradOut.dtype, self.dtype)
    if promote == DT_UNDEFINED:
        op_loge(
            S.ACLNN_ERR_PARAM_INVALID,
            f"GradOut dtype {dtypes.dt_name(gradOut.dtype)} and self dtype {dtypes.dt_name(self.dtype)} "
            "can not promote dtype.",
        )
        return None
    saved = promote
    promote = dtypes.promote_type(promote, target.dtype)
    if promote == DT_UNDEFINED:
        op_loge(
            S.ACLNN_ERR_PARAM_INVALID,
            f"GradOut dtype {dtypes.dt_name(saved)} and target dtype {dtypes.dt_name(target.dtype)} "
            "can not promote dtype.",
        )
        return None
    if promote not in supported:
        op_loge(
            S.ACLNN_ERR_PARAM_INVALID,
            f"promote dtype {dtypes.dt_name(promote)} should be in dtype support list "
            f"[{dtypes.dt_list_str(supported)}].",
        )
        return None
    if not checks.check_result_dtype_cast(promote, gradInput.dtype):
        return None
    return promote


def _check_shape(gradOut: aclTensor, self: aclTensor, target: aclTensor) -> bool:
    max_dim = max(gradOut.rank, self.rank, target.rank)
    if max_dim > MAX_SUPPORT_DIMS_NUMS:
        op_loge(
            S.ACLNN_ERR_PARAM_INVALID,
            f"expected tensor must have at most {MAX_SUPPORT_DIMS_NUMS} dimensions, but got {max_dim}.",
        )
        return False
    return True


def _check_shape_broadcast(
    gradOut: aclTensor, self: aclTensor, target: aclTensor, gradInput: aclTensor
) -> tuple[int, ...] | None:
    mid = checks.broadcast_infer_shape(gradOut.view_shape, self.view_shape)
    if mid is None:
        op_loge(
            S.ACLNN_ERR_PARAM_INVALID,
            f"Broadcast {dtypes.shape_str(gradOut.view_shape)} and {dtypes.shape_str(self.view_shape)} failed.",
        )
        return None
    result = checks.broadcast_infer_shape(mid, target.view_shape)
    if result is None:
        op_loge(
            S.ACLNN_ERR_PARAM_INVALID,
            f"Broadcast {dtypes.shape_str(mid)} and {dtypes.shape_str(target.view_shape)} failed.",
        )
        return None
    if result != gradInput.view_shape:
        op_loge(
            S.ACLNN_ERR_PARAM_INVALID,
            "Exepected tensor for result to have same size as tensor for gradInput, but "
            f"{dtypes.shape_str(result)} does not equal {dtypes.shape_str(gradInput.view_shape)}.",
        )
        return None
    return result


def _check_reduction(reduction: int) -> bool:
    if not 0 <= reduction <= 2:
        op_loge(S.ACLNN_ERR_PARAM_INVALID, f"Reduction should be between 0 and 2, but got {reduction}")
        return False
    return True


def _check_beta(beta: float) -> bool:
    if not beta >= 0:  # NaN fails too
        op_loge(S.ACLNN_ERR_PARAM_INVALID, "beta should be greater than or equal to 0")
        return False
    return True


def _check_params(gradOut: Any, self: Any, target: Any, reduction: int, beta: float, gradInput: Any) -> int:
    if not _check_not_null(gradOut, self, target, gradInput):
        return S.ACLNN_ERR_PARAM_NULLPTR
    if not _check_dtype_valid(gradOut, self, target, gradInput):
        return S.ACLNN_ERR_PARAM_INVALID
    # ND operator: formats are not checked
    if not _check_shape(gradOut, self, target):
        return S.ACLNN_ERR_PARAM_INVALID
    if not _check_reduction(reduction):
        return S.ACLNN_ERR_PARAM_INVALID
    if not _check_beta(beta):
        return S.ACLNN_ERR_PARAM_INVALID
    return S.ACLNN_SUCCESS


@_l2.phase1(API)
def aclnnSmoothL1LossBackwardGetWorkspaceSize(
    gradOut: aclTensor | None,
    self: aclTensor | None,
    target: aclTensor | None,
    reduction: int,
    beta: float,
    gradInput: aclTensor | None,
    workspaceSize: Any,
    executor: Any,
) -> int:
    """Phase 1 of aclnnSmoothL1LossBackward: check the arguments, build the executor."""
    red, b = reduction, beta  # int64_t and float (rounded to float32) by the C prototype
    if not checks.check_comm_input(workspaceSize, executor):
        return S.ACLNN_ERR_PARAM_NULLPTR
    ex = _l2.l2_dfx_phase1(
        API, workspaceSize, executor,
        gradOut=gradOut, self=self, target=target, reduction=red, beta=b, gradInput=gradInput,
    )  # fmt: skip
    if ex is None:  # an op-cache hit
        return S.ACLNN_SUCCESS

    ret = _check_params(gradOut, self, target, red, b, gradInput)
    if ret != S.ACLNN_SUCCESS:
        return ret
    assert gradOut is not None and self is not None and target is not None and gradInput is not None
    promote = _check_promote_type(gradOut, self, target, gradInput)
    if promote is None:
        return S.ACLNN_ERR_PARAM_INVALID
    result_shape = _check_shape_broadcast(gradOut, self, target, gradInput)
    if result_shape is None:
        return S.ACLNN_ERR_PARAM_INVALID

    ex.bind_arguments(gradOut=gradOut, self=self, target=target, gradInput=gradInput)
    if gradOut.is_empty() or self.is_empty() or target.is_empty():
        return hand_out(ex, ex.finish(), workspaceSize, executor)
    grad_out_c = contiguous(gradOut, ex)
    if grad_out_c is None:
        return S.ACLNN_ERR_INNER_NULLPTR
    self_c = contiguous(self, ex)
    if self_c is None:
        return S.ACLNN_ERR_INNER_NULLPTR
    target_c = contiguous(target, ex)
    if target_c is None:
        return S.ACLNN_ERR_INNER_NULLPTR

    grad_out_cast = cast(grad_out_c, promote, ex)
    self_cast = cast(self_c, promote, ex)
    target_cast = cast(target_c, promote, ex)
    if grad_out_cast is None or self_cast is None or target_cast is None:
        return S.ACLNN_ERR_INNER_NULLPTR

    for t in (grad_out_cast, self_cast, target_cast):  # CheckReformat: in-place relabel to ND
        reformat(t, dtypes.FORMAT_ND, ex)  # never fails: ND has no fixed rank

    smooth_grad = smooth_l1_loss_grad_v2(self_cast, target_cast, grad_out_cast, REDUCTION_STR[red], b, result_shape, ex)
    if smooth_grad is None:
        return S.ACLNN_ERR_INNER_NULLPTR
    smooth_grad_cast = cast(smooth_grad, gradInput.dtype, ex)
    if smooth_grad_cast is None:
        return S.ACLNN_ERR_INNER_NULLPTR
    if view_copy(smooth_grad_cast, gradInput, ex) is None:
        return S.ACLNN_ERR_INNER_NULLPTR

    return hand_out(ex, ex.finish(), workspaceSize, executor)


aclnnSmoothL1LossBackward = _l2.phase2(API)
