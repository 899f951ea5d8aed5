"""aclnnScaledMaskedSoftmax — side by side with ops-nn
``vfusion/scaled_masked_softmax_v2/op_host/op_api/aclnn_scaled_masked_softmax.cpp`` and the
generated inner function it calls: ``y = softmax(scale * x, masked positions set to -10000)``
over the last dim.

Outer function (no workspaceSize/executor check, no L2_DFX): CheckNotNull (x, mask, y; the
message is a 161001 report but the function returns **561103**) -> CheckDtypeValid (x, y in
{F32, F16, BF16}, mask BOOL, x and y of one dtype) -> CheckTensorDim (x, mask, y 4-D) ->
CheckShape (mask B and N equal to x's or 1, mask S and D equal to x's, 0 < D <= 4096, 8192 on
Ascend950; y's shape is never compared) -> fixedTriuMask must be false ->
``aclnnInnerScaledMaskedSoftmaxV2GetWorkspaceSize`` (:mod:`aclnn_py.ops.nnopbase`: the op
definition ScaledMaskedSoftmaxV2 has kernels for Ascend910B, 910_93 and 950 only).

Shapes CANN accepts but whose kernel behaviour is undefined are reported by the sanitizer
(``undefined``): a y whose shape differs from x's (the kernel writes x's rows densely at y's
address) and negative B, N or S (the tiling reads them as huge unsigned counts).
"""

from __future__ import annotations

from typing import Any

from ... import dtypes
from ... import soc as _soc
from ..._capi import as_bool, as_float, as_float32, c_api
from ..._status import aclnnStatus
from ...dtypes import DT_BF16, DT_BOOL, DT_FLOAT, DT_FLOAT16
from ...executor import checks
from ...executor.api import check_out_params, check_tensor_args
from ...executor.checks import op_loge
from ...executor.executor import aclOpExecutor
from ...kernels import scaled_masked_softmax_v2 as kernel
from ...runtime import sanitizer
from ...tensor import aclTensor
from .. import nnopbase

S = aclnnStatus
API = "aclnnScaledMaskedSoftmax"

INPUT_DIM_NUM = 4
D_LIMIT = 4096
D_LIMIT_D = 8192
SOFTMAX_X_DTYPE_SUPPORT_LIST = (DT_FLOAT, DT_FLOAT16, DT_BF16)
MASK_DTYPE_SUPPORT_LIST = (DT_BOOL,)


def x_dtype_support_list() -> tuple[int, ...]:
    return SOFTMAX_X_DTYPE_SUPPORT_LIST  # one list on every chip


def mask_dtype_support_list() -> tuple[int, ...]:
    return MASK_DTYPE_SUPPORT_LIST


DTYPE_FACTS = {"x, y (op_api check)": x_dtype_support_list, "mask": mask_dtype_support_list}


def _check_dtype_valid(x: aclTensor, mask: aclTensor, y: aclTensor) -> bool:
    if not (
        checks.check_dtype_support(x, SOFTMAX_X_DTYPE_SUPPORT_LIST, "x")
        and checks.check_dtype_support(mask, MASK_DTYPE_SUPPORT_LIST, "mask")
        and checks.check_dtype_support(y, SOFTMAX_X_DTYPE_SUPPORT_LIST, "y")
    ):
        return False
    if x.dtype != y.dtype:  # OP_CHECK_DTYPE_NOT_SAME
        op_loge(
            S.ACLNN_ERR_PARAM_INVALID,
            f"Expected both tensors to have same dtype, but found x {dtypes.dt_name(x.dtype)} and y "
            f"{dtypes.dt_name(y.dtype)}.",
        )
        return False
    return True


def _check_tensor_dim(*named: tuple[aclTensor, str]) -> bool:
    for t, name in named:  # OP_CHECK_WRONG_DIMENSION
        if t.rank != INPUT_DIM_NUM:
            op_loge(
                S.ACLNN_ERR_PARAM_INVALID,
                f"Expected {INPUT_DIM_NUM} dimension input, but got {name} with sizes "
                f"{dtypes.shape_str(t.view_shape)}.",
            )
            return False
    return True


def _check_shape(x: aclTensor, mask: aclTensor) -> bool:
    xs, ms = x.view_shape, mask.view_shape
    for dim, word in ((0, "first"), (1, "second")):
        if xs[dim] != ms[dim] and ms[dim] != 1:
            op_loge(
                S.ACLNN_ERR_PARAM_INVALID,
                f"When x{dtypes.shape_str(xs)} and mask{dtypes.shape_str(ms)} are different in the {word} dimensions, "
                "the broadcast relation needs to be satisfied",
            )
            return False
    if xs[2] != ms[2] or xs[3] != ms[3]:
        op_loge(S.ACLNN_ERR_PARAM_INVALID, "x and mask should be same in dim3 and dim4")
        return False
    limit = D_LIMIT_D if _soc.current().is_regbase else D_LIMIT
    if xs[3] <= 0 or xs[3] > limit:  # the text says 4096 on Ascend950 too
        op_loge(S.ACLNN_ERR_PARAM_INVALID, "Expected x and mask dim4 in range of (0, 4096].")
        return False
    return True


def _check_params(x: Any, mask: Any, y: Any) -> int:
    if not checks.check_not_null_tensors((x, "x"), (mask, "mask"), (y, "y")):
        return S.ACLNN_ERR_INNER_NULLPTR  # CHECK_RET(CheckNotNull(...), ACLNN_ERR_INNER_NULLPTR)
    if not _check_dtype_valid(x, mask, y):
        return S.ACLNN_ERR_PARAM_INVALID
    if not _check_tensor_dim((x, "x"), (mask, "mask"), (y, "y")):
        return S.ACLNN_ERR_PARAM_INVALID
    if not _check_shape(x, mask):
        return S.ACLNN_ERR_PARAM_INVALID
    return S.ACLNN_SUCCESS


@c_api(S.ACLNN_ERR_INNER)
def aclnnScaledMaskedSoftmaxGetWorkspaceSize(
    x: aclTensor | None,
    mask: aclTensor | None,
    scale: float,
    fixedTriuMask: bool,
    y: aclTensor | None,
    workspaceSize: Any,
    executor: Any,
) -> int:
    """Phase 1 of aclnnScaledMaskedSoftmax: check the arguments, build the executor."""
    check_tensor_args(API, x=x, mask=mask, y=y)
    check_out_params(workspaceSize, executor)
    sc = as_float(scale, "scale", S.ACLNN_ERR_PARAM_INVALID)
    fix = as_bool(fixedTriuMask, "fixedTriuMask", S.ACLNN_ERR_PARAM_INVALID)
    ret = _check_params(x, mask, y)
    if ret != S.ACLNN_SUCCESS:
        return ret
    if fix:
        op_loge(S.ACLNN_ERR_PARAM_INVALID, "the param fixedTriuMask only suppport false.")  # sic
        return S.ACLNN_ERR_PARAM_INVALID
    assert x is not None and mask is not None and y is not None
    return _inner_get_workspace_size(x, mask, sc, False, y, workspaceSize, executor)


# -- the generated inner function (nnopbase individual op) ---------------------------------------

_COLUMNS = ((DT_FLOAT, DT_BOOL, DT_FLOAT), (DT_FLOAT16, DT_BOOL, DT_FLOAT16), (DT_BF16, DT_BOOL, DT_BF16))
OPDEF = nnopbase.OpDef(
    "ScaledMaskedSoftmaxV2",
    inputs=(nnopbase.Param("x"), nnopbase.Param("mask", optional=True)),
    outputs=(nnopbase.Param("out"),),
    support={"ascend910b": _COLUMNS, "ascend910_93": _COLUMNS, "ascend950": _COLUMNS},  # kirin SoCs: not emulated
)


def _undefined(message: str) -> None:
    sanitizer.finding("undefined", f"{API}: {message}", S.ACLNN_ERR_PARAM_INVALID)


def _kernel_output(x: aclTensor, y: aclTensor) -> aclTensor:
    """What the kernel writes: x's B*N*S rows of D elements, densely, from y's first element."""
    if x.view_shape == y.view_shape:
        return nnopbase.dense_view(y)
    _undefined(
        f"y's shape {dtypes.shape_str(y.view_shape)} differs from x's {dtypes.shape_str(x.view_shape)}; CANN checks "
        "only its rank, and the ScaledMaskedSoftmaxV2 kernel writes x's rows densely from y's address (beyond y "
        "when y is smaller)"
    )
    out = aclTensor(x.view_shape, y.dtype, None, y.offset, y.view_format, y.storage_shape, y.storage)
    out.storage_format, out.origin_format = y.storage_format, y.origin_format
    return out


def _build(scale: float, fixed_triu_mask: bool) -> nnopbase.Build:
    def build(ex: aclOpExecutor, ins: list[aclTensor | None], outs: list[aclTensor]) -> None:
        x, mask = ins
        assert x is not None and mask is not None
        if any(d < 0 for d in (*x.view_shape, *mask.view_shape)):
            _undefined(
                f"x {dtypes.shape_str(x.view_shape)} or mask {dtypes.shape_str(mask.view_shape)} has a negative "
                "dimension, which no check refuses; the tiling reads it as a huge unsigned row count (a device "
                "fault on the chip); aclnn_py launches nothing"
            )
            return
        arch = kernel.ARCH_OF_NPU[_soc.current().npu_arch]
        out = _kernel_output(x, outs[0])
        step = ex.step("ScaledMaskedSoftmaxV2", [x, mask], scale=scale, fixed_triu_mask=fixed_triu_mask)
        ex.launch(
            step, "ScaledMaskedSoftmaxV2", [x, mask], [out], kernel.make(scale, arch),
            tail_scratch_sizes=[_soc.current().lib_api_workspace], scale=scale,
        )  # fmt: skip
        step.outputs = [out]

    return build


def _inner_get_workspace_size(
    x: aclTensor, mask: aclTensor, scale: float, fixed_triu_mask: bool, y: aclTensor, workspaceSize: Any, executor: Any
) -> int:
    """``aclnnInnerScaledMaskedSoftmaxV2GetWorkspaceSize`` (the attr ``scale`` becomes a float32)."""
    scale_f32 = as_float32(scale, "scale", S.ACLNN_ERR_PARAM_INVALID)
    return nnopbase.get_workspace_size(
        API, OPDEF, [x, mask], [y], workspaceSize, executor, _build(scale_f32, fixed_triu_mask), ("x", "mask", "y")
    )


@c_api(S.ACLNN_ERR_INNER)
def aclnnScaledMaskedSoftmax(workspace: int | None, workspaceSize: int, executor: Any, stream: Any) -> int:
    """Phase 2: the generated ``aclnnInnerScaledMaskedSoftmaxV2`` (nnopbase)."""
    return nnopbase.run_with_workspace(API, OPDEF, workspace, workspaceSize, executor, stream)
