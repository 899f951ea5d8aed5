"""aclnnSmoothL1Loss — side by side with ops-nn ``loss/smooth_l1_loss_v2/op_api/aclnn_smooth_l1_loss.cpp``.

Check order: OP_CHECK_COMM_INPUT -> L2_DFX_PHASE_1 -> CheckNotNullTensor (self, target, result)
-> CheckDtypeValid (self, target in the chip's list; result's dtype is not listed) ->
CheckPromoteType (self and target promote; the promoted dtype casts to result's) ->
CheckReduction (0 none, 1 mean, 2 sum) -> CheckShape (ranks <= 8, self and target broadcast,
for none result has the broadcast shape) -> CheckFormat (FRACTAL_NZ self: a warning only) ->
CheckBeta (beta >= 0; NaN fails) -> empty self or target: nothing (none), or result filled with
NaN (mean) or 0 (sum).

Graph: Contiguous(self), Contiguous(target) -> both BroadcastTo the broadcast shape when their
shapes differ -> per input Cast to the promoted dtype, then (none, NCHW/NHWC storage, not
Ascend950) TransData to NC1HWC0, else ReFormat to ND in place -> SmoothL1LossV2 -> TransData
back (a 5-D result going to an NCHW/NHWC result, not Ascend950) or ReFormat to result's format
-> Cast to result's dtype -> ViewCopy.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ... import dtypes, scalars
from ... import soc as _soc
from ..._status import aclnnStatus
from ...dtypes import DT_BF16, DT_FLOAT, DT_FLOAT16, DT_INT64, DT_UNDEFINED, FORMAT_ND
from ...executor import checks
from ...executor.api import hand_out
from ...executor.checks import MAX_SUPPORT_DIMS_NUMS, op_loge
from ...executor.executor import aclOpExecutor
from ...l0.broadcast_to import broadcast_to_shape
from ...l0.cast import cast
from ...l0.contiguous import contiguous, view_copy
from ...l0.fill import fill
from ...l0.reformat import reformat
from ...l0.smooth_l1_loss_v2 import smooth_l1_loss
from ...l0.transdata import FORMAT_NC1HWC0, FORMAT_NCHW, FORMAT_NHWC, trans_data
from ...runtime import sanitizer
from ...tensor import aclScalar, aclTensor
from .. import _l2

S = aclnnStatus
API = "aclnnSmoothL1Loss"

REDUCTION_STR = ("none", "mean", "sum")
NC1HWC0_DIM = 5
ASCEND910_DTYPE_SUPPORT_LIST = (DT_FLOAT, DT_FLOAT16)
ASCEND910B_DTYPE_SUPPORT_LIST = (DT_FLOAT, DT_FLOAT16, DT_BF16)


def dtype_support_list() -> tuple[int, ...]:
    """``GetDtypeSupportList``: DAV_2201 or regbase (Ascend950) the 910B list, else the 910 list."""
    return checks.dtype_support_list_v2(ASCEND910B_DTYPE_SUPPORT_LIST, ASCEND910_DTYPE_SUPPORT_LIST)


DTYPE_FACTS = {"self, target": dtype_support_list}


def _check_promote_type(self_dt: int, target_dt: int, result_dt: int, promote: int) -> bool:
    if promote == DT_UNDEFINED:
        op_loge(
            S.ACLNN_ERR_PARAM_INVALID,
            f"Self dtype {dtypes.dt_name(self_dt)} and target dtype {dtypes.dt_name(target_dt)} can not promote dtype.",
        )
        return False
    return checks.check_result_dtype_cast(promote, result_dt)


def _check_reduction(reduction: int) -> bool:
    if not 0 <= reduction <= 2:
        op_loge(S.ACLNN_ERR_PARAM_INVALID, f"Reduction should be between 0 and 2, but current is {reduction}.")
        return False
    return True


def _check_shape(self: aclTensor, target: aclTensor, reduction: int, result: aclTensor) -> bool:
    if not (
        checks.check_max_dim(self, MAX_SUPPORT_DIMS_NUMS, "self")
        and checks.check_max_dim(target, MAX_SUPPORT_DIMS_NUMS, "target")
    ):
        return False
    shape = checks.broadcast_and_infer_shape(self, target, "self", "target")
    if shape is None:
        return False
    if reduction == 0 and shape != result.view_shape:
        op_loge(
            S.ACLNN_ERR_PARAM_INVALID,
            f"Shape of result should be {dtypes.shape_str(shape)}, but current is "
            f"{dtypes.shape_str(result.view_shape)}.",
        )
        return False
    return True


def _check_beta(beta: float) -> bool:
    if not beta >= 0:  # NaN fails too
        op_loge(S.ACLNN_ERR_PARAM_INVALID, "beta should be greater than or equal to 0")
        return False
    return True


def _check_params(self: Any, target: Any, reduction: int, beta: float, result: Any) -> int:
    if not checks.check_not_null_tensors((self, "self"), (target, "target"), (result, "result")):
        return S.ACLNN_ERR_PARAM_NULLPTR
    supported = dtype_support_list()
    if not (
        checks.check_dtype_support(self, supported, "self") and checks.check_dtype_support(target, supported, "target")
    ):
        return S.ACLNN_ERR_PARAM_INVALID
    promote = dtypes.promote_type(self.dtype, target.dtype)
    if not _check_promote_type(self.dtype, target.dtype, result.dtype, promote):
        return S.ACLNN_ERR_PARAM_INVALID
    if not _check_reduction(reduction):
        return S.ACLNN_ERR_PARAM_INVALID
    if not _check_shape(self, target, reduction, result):
        return S.ACLNN_ERR_PARAM_INVALID
    # CheckFormat: a FRACTAL_NZ self is only a warning in the log
    if not _check_beta(beta):
        return S.ACLNN_ERR_PARAM_INVALID
    return S.ACLNN_SUCCESS


# -- the graph ------------------------------------------------------------------------------------


def _fill_scalar(ex: aclOpExecutor, out: aclTensor, value: float) -> int:
    """``FillScalar``: a one-element Fill of ``value`` in out's dtype, ViewCopy'd into out."""
    dims = ex.convert_to_tensor(np.array([1], dtype=np.int64), DT_INT64)
    if out.dtype not in (DT_FLOAT, DT_FLOAT16, DT_BF16, dtypes.DT_DOUBLE):
        # ConvertToTensor(float*, ...) throws for other dtypes (complex here) and returns nullptr,
        # which l0op::Fill then dereferences
        op_loge(S.ACLNN_ERR_INNER, "aclOpExecutor::ConvertToTensor failed.")
        sanitizer.finding(
            "undefined",
            f"{API}: an empty self or target with reduction {'mean' if value != 0 else 'sum'} fills result, but "
            f"ConvertToTensor cannot make a {dtypes.dt_name(out.dtype)} value and CANN passes the null value "
            "tensor on to l0op::Fill (a crash on the host)",
            S.ACLNN_ERR_INNER_NULLPTR,
        )
        return S.ACLNN_ERR_INNER_NULLPTR
    element = scalars.element(aclScalar(np.float32(value), DT_FLOAT), out.dtype).reshape(1)
    fill_out = fill(dims, ex.convert_to_tensor(element, out.dtype), (1,), ex)
    if fill_out is None or view_copy(fill_out, out, ex) is None:
        return S.ACLNN_ERR_INNER_NULLPTR
    return S.ACLNN_SUCCESS


def _empty_tensor_compute(ex: aclOpExecutor, reduction: int, result: aclTensor) -> int:
    """``EmptyTensorCompute``: nothing for none, NaN for mean, 0 for sum."""
    if reduction == 0:
        return S.ACLNN_SUCCESS
    return _fill_scalar(ex, result, float("nan") if reduction == 1 else 0.0)


def _broadcast_inputs(
    ex: aclOpExecutor, self: aclTensor, target: aclTensor
) -> tuple[aclTensor | None, aclTensor | None]:
    """``CheckShapeBroadcast``: different shapes -> both inputs BroadcastTo the common shape."""
    if self.view_shape == target.view_shape:
        return self, target
    shape, _ = dtypes.broadcast_infer_shape(self.view_shape, target.view_shape)
    if shape is None:
        return self, target
    self_b = broadcast_to_shape(self, shape, ex)
    if self_b is None:
        return None, None
    return self_b, broadcast_to_shape(target, shape, ex)


def _need_5hd(t: aclTensor, reduction: int) -> bool:
    """``CheckNeed5hdFormat``."""
    return t.storage_format in (FORMAT_NCHW, FORMAT_NHWC) and reduction == 0 and not _soc.current().is_regbase


def _input_pre_process(ex: aclOpExecutor, t: aclTensor, reduction: int, promote: int) -> aclTensor | None:
    """``InputPreProcess``: Cast to the promoted dtype, then TransData to NC1HWC0 or ReFormat to
    ND (in place: without a cast this relabels the caller's own tensor)."""
    t_cast = cast(t, promote, ex)
    if t_cast is None:
        op_loge(S.ACLNN_ERR_INNER_NULLPTR, "The cast return nullptr.")
        return None
    if _need_5hd(t_cast, reduction):
        t_5hd = trans_data(t_cast, FORMAT_NC1HWC0, 1, ex)
        if t_5hd is None:
            op_loge(S.ACLNN_ERR_INNER_NULLPTR, "The TransData return nullptr.")
        return t_5hd
    if t_cast.storage_format != FORMAT_ND:
        return reformat(t_cast, FORMAT_ND, ex)  # never fails: ND has no fixed rank
    return t_cast


def _result_format(ex: aclOpExecutor, loss: aclTensor, result: aclTensor) -> aclTensor | None:
    """The loss back in result's format: TransData for a 5-D loss going to NCHW/NHWC (not on
    Ascend950), else ReFormat (in place, with its rank check)."""
    to_primary = result.storage_format in (FORMAT_NCHW, FORMAT_NHWC)
    if len(loss.storage_shape) == NC1HWC0_DIM and to_primary and not _soc.current().is_regbase:
        return trans_data(loss, result.origin_format, 1, ex)
    if loss.storage_format == FORMAT_NC1HWC0:
        sanitizer.finding(
            "undefined",
            f"{API}: the loss was computed in NC1HWC0 (self and target are NCHW/NHWC) but result is "
            f"{dtypes.format_name(result.storage_format)}: CANN relabels the blocked loss and copies it as it is, "
            "so result receives the NC1HWC0 layout (the kernel writes its padded size)",
            S.ACLNN_ERR_PARAM_INVALID,
        )
    return reformat(loss, result.storage_format, ex)


def _build(
    ex: aclOpExecutor, self: aclTensor, target: aclTensor, reduction: int, beta: float, result: aclTensor
) -> int:
    self_c = contiguous(self, ex)
    if self_c is None:
        return S.ACLNN_ERR_INNER_NULLPTR
    target_c = contiguous(target, ex)
    if target_c is None:
        return S.ACLNN_ERR_INNER_NULLPTR
    self_b, target_b = _broadcast_inputs(ex, self_c, target_c)
    if self_b is None or target_b is None:
        return S.ACLNN_ERR_INNER_NULLPTR
    promote = dtypes.promote_type(self.dtype, target.dtype)
    self_post = _input_pre_process(ex, self_b, reduction, promote)
    if self_post is None:
        op_loge(S.ACLNN_ERR_INNER_NULLPTR, "The self with InputPreProcess return nullptr.")
        return S.ACLNN_ERR_INNER_NULLPTR
    target_post = _input_pre_process(ex, target_b, reduction, promote)
    if target_post is None:
        op_loge(S.ACLNN_ERR_INNER_NULLPTR, "The target with InputPreProcess return nullptr.")
        return S.ACLNN_ERR_INNER_NULLPTR
    loss = smooth_l1_loss(self_post, target_post, REDUCTION_STR[reduction], beta, ex)
    if loss is None:
        op_loge(S.ACLNN_ERR_INNER_NULLPTR, "The reslut with SmoothL1Loss return nullptr.")  # sic
        return S.ACLNN_ERR_INNER_NULLPTR
    loss_fmt = _result_format(ex, loss, result)
    if loss_fmt is None:
        op_loge(S.ACLNN_ERR_INNER_NULLPTR, "The smoothL1LossResult with TransData return nullptr.")
        return S.ACLNN_ERR_INNER_NULLPTR
    loss_cast = cast(loss_fmt, result.dtype, ex)
    if loss_cast is None:
        op_loge(S.ACLNN_ERR_INNER_NULLPTR, "The smoothL1LossResult with cast return nullptr.")
        return S.ACLNN_ERR_INNER_NULLPTR
    if view_copy(loss_cast, result, ex) is None:
        op_loge(S.ACLNN_ERR_INNER_NULLPTR, "The reslut with ViewCopy return nullptr.")  # sic
        return S.ACLNN_ERR_INNER_NULLPTR
    return S.ACLNN_SUCCESS


@_l2.phase1(API)
def aclnnSmoothL1LossGetWorkspaceSize(
    self: aclTensor | None,
    target: aclTensor | None,
    reduction: int,
    beta: float,
    result: aclTensor | None,
    workspaceSize: Any,
    executor: Any,
) -> int:
    """Phase 1 of aclnnSmoothL1Loss: check the arguments, build the executor."""
    if not checks.check_comm_input(workspaceSize, executor):
        return S.ACLNN_ERR_PARAM_NULLPTR
    ex = _l2.l2_dfx_phase1(
        API, workspaceSize, executor, self=self, target=target, reduction=reduction, beta=beta, result=result
    )
    if ex is None:  # an op-cache hit
        return S.ACLNN_SUCCESS
    ret = _check_params(self, target, reduction, beta, result)
    if ret != S.ACLNN_SUCCESS:
        return ret
    assert self is not None and target is not None and result is not None
    ex.bind_arguments(self=self, target=target, result=result)
    if self.is_empty() or target.is_empty():
        ret = _empty_tensor_compute(ex, reduction, result)
    else:
        ret = _build(ex, self, target, reduction, beta, result)
    if ret != S.ACLNN_SUCCESS:
        return ret
    return hand_out(ex, ex.finish(), workspaceSize, executor)


aclnnSmoothL1Loss = _l2.phase2(API)
