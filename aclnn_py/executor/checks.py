"""The check helpers of op_api code (``op_error_check.h``, ``level2_base.h``), with CANN's texts.

Like the C++ macros, each helper *reports* its message (``OP_LOGE``: visible in
``aclGetRecentErrMsg``) and returns False; the operator decides the status code with
``CHECK_RET``. ``name`` is what the C++ macro stringifies — the argument's source text, which
is why ``CheckNotNull3Tensor`` names its arguments ``t0``, ``t1``, ``t2``.

ops-nn and ops-math build against different copies of ``op_error_check.h``: ops-nn's null check
says ``Expected a proper Tensor but got null for argument x.`` (:func:`check_not_null`),
ops-math's ``Expected a value of type [aclTensor] for argument [x] but instead found nullptr.``
(:func:`check_null`).

The thread-local log context (:data:`LOG`) is opbase's ``logInfo_``: the name messages give the
operator (``GetLogApiInfo()``: ``aclnnAdd_12`` inside aclnnAdd's phase 1, empty outside an API).
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Sequence

from .. import _errmsg, dtypes
from .. import soc as _soc
from .._status import aclnnStatus
from ..tensor import aclScalar, aclTensor

S = aclnnStatus
MAX_SUPPORT_DIMS_NUMS = 8

_L2_SEQ = itertools.count()  # opbase's process-wide atomic opLogSequenceCounter


class _LogInfo(threading.local):
    """opbase's thread-local ``logInfo_``: the L2 API being run, its sequence number, the l0 op."""

    def __init__(self) -> None:
        self.api: str | None = None
        self.seq = 0
        self.l0: str | None = None


LOG = _LogInfo()


def log_api_info() -> str:
    """``GetLogApiInfo()``: ``<api>_<seq>``, plus ``_<l0>`` inside an l0 op; empty outside an API."""
    name = f"{LOG.api}_{LOG.seq}" if LOG.api else ""
    if LOG.l0:
        name = f"{name}_{LOG.l0}" if name else LOG.l0
    return name


def op_loge(code: int, text: str) -> None:
    """``OP_LOGE(code, fmt, ...)``: write the error and report it (EZ id from the code's first digit)."""
    _errmsg.report_code(code, text)


def next_l2_sequence() -> int:
    """The global sequence number ``L2_DFX_PHASE_1`` gives each phase-1 call (``aclnnAdd_123``):
    the counter's value before the increment, so the first call of a process is ``_0``."""
    return next(_L2_SEQ)


def dtype_support_list_v2(l1: tuple[int, ...], l2: tuple[int, ...]) -> tuple[int, ...]:
    """``GetDtypeSupportListV2(l1, l2)``: l1 on DAV_2201 (910B, 910_93) or regbase (950), else l2."""
    soc = _soc.current()
    return l1 if soc.npu_arch == "DAV_2201" or soc.is_regbase else l2


def check_not_null(t: object, name: str) -> bool:
    """``OP_CHECK_NULL`` for an aclTensor (ops-nn wording)."""
    if t is None:
        op_loge(S.ACLNN_ERR_PARAM_NULLPTR, f"Expected a proper Tensor but got null for argument {name}.")
        return False
    return True


def check_not_null_tensors(*named: tuple[object, str]) -> bool:
    """``CheckNotNull{2,3,4}Tensor``: in order, stopping at the first null."""
    return all(check_not_null(t, name) for t, name in named)


def check_comm_input(workspace_size: object, executor: object) -> bool:
    """``OP_CHECK_COMM_INPUT``: both out-pointers non-null."""
    if workspace_size is None or executor is None:
        op_loge(S.ACLNN_ERR_PARAM_NULLPTR, "The workspaceSize or executor is nullptr.")
        return False
    return True


def check_dtype_support(t: aclTensor | aclScalar, supported: Sequence[int], name: str) -> bool:
    """``OP_CHECK_DTYPE_NOT_SUPPORT`` (ops apply it to scalars too; the text still says Tensor)."""
    if t.dtype not in supported:
        op_loge(
            S.ACLNN_ERR_PARAM_INVALID,
            f"Tensor {name} not implemented for {dtypes.dt_name(t.dtype)}, "
            f"should be in dtype support list {dtypes.dt_list_str(supported)}.",
        )
        return False
    return True


def check_dtype_match(t: aclTensor, expected: int, name: str) -> bool:
    """``OP_CHECK_DTYPE_NOT_MATCH``: expected dtype first, actual second."""
    if t.dtype != expected:
        op_loge(
            S.ACLNN_ERR_PARAM_INVALID,
            f"Tensor {name} expected dtype is {dtypes.dt_name(expected)} but found {dtypes.dt_name(t.dtype)}.",
        )
        return False
    return True


def check_result_dtype_cast(src: int, dst: int) -> bool:
    """``OP_CHECK_RESULT_DTYPE_CAST_FAILED``."""
    if not dtypes.can_cast(src, dst):
        op_loge(
            S.ACLNN_ERR_PARAM_INVALID,
            f"Result type {dtypes.dt_name(src)} can't be cast to the desired output type {dtypes.dt_name(dst)}.",
        )
        return False
    return True


def check_max_dim(t: aclTensor, max_dim: int, name: str) -> bool:
    """``OP_CHECK_MAX_DIM``."""
    if t.rank > max_dim:
        op_loge(S.ACLNN_ERR_PARAM_INVALID, f"The {name} tensor cannot be larger than {max_dim} dimensions.")
        return False
    return True


def check_shape_equal(t1: aclTensor, t2: aclTensor, name1: str, name2: str) -> bool:
    """``OP_CHECK_SHAPE_NOT_EQUAL``: view shapes equal in rank and every dim."""
    if t1.view_shape != t2.view_shape:
        op_loge(
            S.ACLNN_ERR_PARAM_INVALID,
            f"Expected tensor for {name1} to have same size as tensor for {name2}, but "
            f"{dtypes.shape_str(t1.view_shape)} does not equal {dtypes.shape_str(t2.view_shape)}.",
        )
        return False
    return True


def broadcast_infer_shape(a: Sequence[int], b: Sequence[int]) -> tuple[int, ...] | None:
    """``BroadcastInferShape``; on failure it reports its own EZ1007 message first."""
    shape, why = dtypes.broadcast_infer_shape(a, b)
    if shape is None:
        assert why is not None
        _errmsg.report(
            "EZ1007",
            f"Shape {dtypes.shape_str(why.larger)} of the tensor of operator {log_api_info()} has incorrect "
            f"dimension {why.dim}. Reason: The tensor whose shape is {dtypes.shape_str(why.larger)} and the "
            f"tensor whose shape is {dtypes.shape_str(why.smaller)} do not meet the broadcast condition.",
        )
    return shape


# -- ops-math's op_error_check.h -------------------------------------------------------------------


def check_null(obj: object, name: str, type_name: str = "aclTensor") -> bool:
    """``OP_CHECK_NULL`` as ops-math compiles it: names the C++ type of the argument."""
    if obj is None:
        op_loge(
            S.ACLNN_ERR_PARAM_NULLPTR,
            f"Expected a value of type [{type_name}] for argument [{name}] but instead found nullptr.",
        )
        return False
    return True


def broadcast_and_infer_shape(t1: aclTensor, t2: aclTensor, name1: str, name2: str) -> tuple[int, ...] | None:
    """``OP_CHECK_BROADCAST_AND_INFER_SHAPE``: EZ1007 from BroadcastInferShape, then the macro's line."""
    shape = broadcast_infer_shape(t1.view_shape, t2.view_shape)
    if shape is None:
        op_loge(
            S.ACLNN_ERR_PARAM_INVALID,
            f"The size of tensor {name1} {dtypes.shape_str(t1.view_shape)} must match the size of tensor "
            f"{name2} {dtypes.shape_str(t2.view_shape)}.",
        )
    return shape


def broadcast_self_ref(self_ref: aclTensor, other: aclTensor) -> tuple[int, ...] | None:
    """The broadcast check of the in-place ``CheckInplace`` functions that write their own text
    (aclnn_div.cpp, aclnn_eq_tensor.cpp) instead of OP_CHECK_BROADCAST_AND_INFER_SHAPE's."""
    shape = broadcast_infer_shape(self_ref.view_shape, other.view_shape)
    if shape is None:
        op_loge(
            S.ACLNN_ERR_PARAM_INVALID,
            f"Shape of selfRef and other can't broadcast, got {dtypes.shape_str(self_ref.view_shape)}, "
            f"{dtypes.shape_str(other.view_shape)}.",
        )
    return shape


def check_self_ref_shape(self_ref: aclTensor, shape: Sequence[int]) -> bool:
    """``CheckInplace``'s last check: selfRef has the broadcast shape (an in-place result cannot
    grow). CANN logs it with ACLNN_ERR_PARAM_NULLPTR; the caller returns ACLNN_ERR_PARAM_INVALID."""
    if tuple(self_ref.view_shape) != tuple(shape):
        op_loge(
            S.ACLNN_ERR_PARAM_NULLPTR,
            f"Expected shape of selfRef should be {dtypes.shape_str(shape)}, but got "
            f"{dtypes.shape_str(self_ref.view_shape)}.",
        )
        return False
    return True


def check_shape_equal_expected(t: aclTensor, expected: Sequence[int], name: str) -> bool:
    """``OP_CHECK_SHAPE_NOT_EQUAL_WITH_EXPECTED_SIZE``."""
    if tuple(t.view_shape) != tuple(expected):
        op_loge(
            S.ACLNN_ERR_PARAM_INVALID,
            f"Expected tensor for {name} to have same size as {dtypes.shape_str(expected)}, but got "
            f"{dtypes.shape_str(t.view_shape)}.",
        )
        return False
    return True


def dtypes_by_arch(table: dict[str, tuple[int, ...]], default: tuple[int, ...]) -> tuple[int, ...]:
    """A dtype list chosen by NpuArch (``DAV_2201`` ...), the usual ``switch (npuArch)``."""
    return table.get(_soc.current().npu_arch, default)
