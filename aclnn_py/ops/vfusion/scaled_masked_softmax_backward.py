"""aclnnScaledMaskedSoftmaxBackward — side by side with ops-nn
``aclnn_scaled_masked_softmax_backward.cpp`` and the generated inner function it calls.

Outer function (no workspaceSize/executor check first): CheckNotNull (gradOutput, y, mask, out)
-> CheckDtypeValid (gradOutput, y in {F32, F16, BF16}; mask BOOL; out in the list) ->
CheckFormat (not on Ascend950: no FRACTAL_NZ) -> CheckShape (4-D, D <= 4096 or 8192 on 950,
y/out shapes == gradOutput's, mask 4-D with the same S and D, mask B/N in {B or N, 1}) ->
fixTriuMask must be false -> out's dtype is *overwritten* with gradOutput's ->
``aclnnInnerScaledMaskedSoftmaxGradV2GetWorkspaceSize``.

Inner function: the generated wrapper of the individual op ScaledMaskedSoftmaxGradV2 (see
:mod:`aclnn_py.executor.nnopbase`: null checks, SoC, executor, AutoContiguous, the op
definition's dtype/format columns, tiling), whose workspace is the AscendC system workspace.
"""

from __future__ import annotations

from typing import Any

from ... import dtypes
from ... import soc as _soc
from ..._capi import as_bool, as_float, as_float32, c_api
from ..._status import aclnnStatus
from ...dtypes import DT_BF16, DT_BOOL, DT_FLOAT, DT_FLOAT16, FORMAT_FRACTAL_NZ
from ...executor import checks
from ...executor.api import check_out_params, check_tensor_args
from ...executor.checks import op_loge
from ...executor.executor import aclOpExecutor
from ...kernels import scaled_masked_softmax_grad_v2 as kernel
from ...runtime import sanitizer
from ...tensor import aclTensor
from .. import nnopbase

S = aclnnStatus
API = "aclnnScaledMaskedSoftmaxBackward"
INNER_API = "aclnnInnerScaledMaskedSoftmaxGradV2GetWorkspaceSize"

INPUT_DIM_NUM = 4
D_LIMIT = 4096
D_LIMIT_D = 8192
TYPE_SUPPORT_LIST = (DT_FLOAT, DT_FLOAT16, DT_BF16)

DTYPE_FACTS = {
    "gradOutput, y, out (op_api check)": lambda: TYPE_SUPPORT_LIST,
    "mask": lambda: (DT_BOOL,),
}


def _check_not_null(gradOutput: Any, y: Any, mask: Any, out: Any) -> bool:
    return checks.check_not_null_tensors((gradOutput, "gradOutput"), (y, "y"), (mask, "mask"), (out, "out"))


def _check_dtype_valid(gradOutput: aclTensor, y: aclTensor, mask: aclTensor, out: aclTensor) -> bool:
    return (
        checks.check_dtype_support(gradOutput, TYPE_SUPPORT_LIST, "gradOutput")
        and checks.check_dtype_support(y, TYPE_SUPPORT_LIST, "y")
        and checks.check_dtype_support(mask, (DT_BOOL,), "mask")
        and checks.check_dtype_support(out, TYPE_SUPPORT_LIST, "out")
    )


def _check_format(gradOutput: aclTensor, y: aclTensor, mask: aclTensor, out: aclTensor) -> bool:
    if FORMAT_FRACTAL_NZ in (gradOutput.storage_format, y.storage_format, out.storage_format):
        fmt = dtypes.format_name
        op_loge(
            S.ACLNN_ERR_PARAM_INVALID,
            f"Input and output format only support [ND]. Actual: gradOutput:[{fmt(gradOutput.storage_format)}], "
            f"y:[{fmt(y.storage_format)}], out:[{fmt(out.storage_format)}].",
        )
        return False
    if mask.storage_format == FORMAT_FRACTAL_NZ:
        op_loge(
            S.ACLNN_ERR_PARAM_INVALID,
            f"Mask format only support [ND]. Actual: mask:[{dtypes.format_name(mask.storage_format)}].",
        )
        return False
    return True


def _check_shape(gradOutput: aclTensor, y: aclTensor, mask: aclTensor, out: aclTensor) -> bool:
    shape_str = dtypes.shape_str
    if gradOutput.rank != INPUT_DIM_NUM:
        op_loge(S.ACLNN_ERR_PARAM_INVALID, f"gradOutput only support 4 dims, but current is {gradOutput.rank}")
        return False
    batch, channel, seq_length, head_dim = gradOutput.view_shape
    limit = D_LIMIT_D if _soc.current().is_regbase else D_LIMIT
    if not (batch >= 0 and channel >= 0 and seq_length >= 0 and 0 <= head_dim <= limit):
        op_loge(
            S.ACLNN_ERR_PARAM_INVALID,
            f"shape of gradOutput is not true, current is {shape_str(gradOutput.view_shape)}",
        )
        return False
    if gradOutput.view_shape != y.view_shape:
        op_loge(
            S.ACLNN_ERR_PARAM_INVALID,
            f"shape of y should equal to gradOutput, gradOutput is {shape_str(gradOutput.view_shape)}, "
            f"y is {shape_str(y.view_shape)}",
        )
        return False
    if gradOutput.view_shape != out.view_shape:
        op_loge(
            S.ACLNN_ERR_PARAM_INVALID,
            f"shape of out should equal to gradOutput, gradOutput is {shape_str(gradOutput.view_shape)}, "
            f"out is {shape_str(out.view_shape)}",
        )
        return False
    if mask.rank != INPUT_DIM_NUM:
        op_loge(S.ACLNN_ERR_PARAM_INVALID, f"mask only support 4 dims, but current is {mask.rank}")
        return False
    mb, mc, ms, md = mask.view_shape
    if not (mb >= 0 and mc >= 0 and ms >= 0 and md >= 0 and ms == seq_length and md == head_dim):
        op_loge(S.ACLNN_ERR_PARAM_INVALID, f"shape of mask is not true, current is {shape_str(mask.view_shape)}")
        return False
    if (batch != mb and mb != 1) or (channel != mc and mc != 1):
        op_loge(
            S.ACLNN_ERR_PARAM_INVALID,
            f"mask should broadcast to gradOutput, gradOutput is {shape_str(gradOutput.view_shape)}, "
            f"mask is {shape_str(mask.view_shape)}",
        )
        return False
    return True


def _check_params(gradOutput: Any, y: Any, mask: Any, out: Any) -> int:
    if not _check_not_null(gradOutput, y, mask, out):
        return S.ACLNN_ERR_PARAM_NULLPTR
    if not _check_dtype_valid(gradOutput, y, mask, out):
        return S.ACLNN_ERR_PARAM_INVALID
    if not _soc.current().is_regbase and not _check_format(gradOutput, y, mask, out):
        return S.ACLNN_ERR_PARAM_INVALID
    if not _check_shape(gradOutput, y, mask, out):
        return S.ACLNN_ERR_PARAM_INVALID
    return S.ACLNN_SUCCESS


@c_api(S.ACLNN_ERR_INNER)
def aclnnScaledMaskedSoftmaxBackwardGetWorkspaceSize(
    gradOutput: aclTensor | None,
    y: aclTensor | None,
    mask: aclTensor | None,
    scale: float,
    fixTriuMask: bool,
    out: aclTensor | None,
    workspaceSize: Any,
    executor: Any,
) -> int:
    """Phase 1 of aclnnScaledMaskedSoftmaxBackward: check the arguments, build the executor."""
    check_tensor_args(API, gradOutput=gradOutput, y=y, mask=mask, out=out)
    check_out_params(workspaceSize, executor)
    sc = as_float(scale, "scale", S.ACLNN_ERR_PARAM_INVALID)
    fix = as_bool(fixTriuMask, "fixTriuMask", S.ACLNN_ERR_PARAM_INVALID)

    ret = _check_params(gradOutput, y, mask, out)
    if ret != S.ACLNN_SUCCESS:
        return ret
    if fix:
        op_loge(S.ACLNN_ERR_PARAM_INVALID, "fixTriuMask only support false")
        return S.ACLNN_ERR_PARAM_INVALID
    assert gradOutput is not None and y is not None and mask is not None and out is not None
    relabelled_from = out.dtype
    out.dtype = gradOutput.dtype  # outXGrad->SetDataType(gradOutput->GetDataType())
    # a wider dtype than the caller allocated for writes past its buffer: say it now, not at the sync
    sanitizer.check_relabelled_dtype(API, "out", out, relabelled_from, "gradOutput")
    return _inner_get_workspace_size(gradOutput, y, mask, sc, False, out, workspaceSize, executor)


# -- the generated inner function (nnopbase individual op) ---------------------------------------

_COLUMNS = ((DT_FLOAT, DT_FLOAT, DT_BOOL, DT_FLOAT), (DT_FLOAT16, DT_FLOAT16, DT_BOOL, DT_FLOAT16))
OPDEF = nnopbase.OpDef(
    "ScaledMaskedSoftmaxGradV2",
    inputs=(nnopbase.Param("yGrad"), nnopbase.Param("y"), nnopbase.Param("mask", optional=True)),
    outputs=(nnopbase.Param("out"),),
    support={
        "ascend910b": (*_COLUMNS, (DT_BF16, DT_BF16, DT_BOOL, DT_BF16)),
        "ascend910_93": (*_COLUMNS, (DT_BF16, DT_BF16, DT_BOOL, DT_BF16)),
        "ascend950": (*_COLUMNS, (DT_BF16, DT_BF16, DT_BOOL, DT_BF16)),
        "ascend310p": _COLUMNS,
    },
)


def _report_undefined_shapes(arch: str, d: int) -> None:
    """Shapes CANN accepts but whose kernel result is not softmax's gradient (sanitizer)."""
    soc = _soc.current().family  # the family's kernel, whichever SoC of it
    if kernel.undefined_on(arch, d):
        sanitizer.finding(
            "undefined",
            f"{API}: on {soc} the ScaledMaskedSoftmaxGradV2 kernel copies rows in 32-byte blocks and assumes the "
            f"last dimension is a multiple of 64; with D = {d} its behaviour is undefined (garbage or a device "
            "fault on the chip); aclnn_py leaves the output as the poison pattern (0xFF bytes)",
            S.ACLNN_ERR_PARAM_INVALID,
        )
    elif arch == "3510" and d > kernel.REGBASE_REDUCE_LANES * kernel.ALIGN:
        sanitizer.finding(
            "undefined",
            f"{API}: on {soc} with D = {d} > 4096 the kernel's row sum covers only the first 4096 columns (its "
            "second reduction takes one 64-lane register); the result is what that kernel computes, not the "
            "softmax gradient",
            S.ACLNN_ERR_PARAM_INVALID,
        )


def _build(scale: float, fixed_triu_mask: bool) -> nnopbase.Build:
    def build(ex: aclOpExecutor, ins: list[aclTensor | None], outs: list[aclTensor]) -> None:
        y_grad, y, mask = ins
        assert y_grad is not None and y is not None and mask is not None
        arch = kernel.arch_for(_soc.current().npu_arch)
        _report_undefined_shapes(arch, y_grad.view_shape[-1])
        out = nnopbase.dense_view(outs[0])
        step = ex.step("ScaledMaskedSoftmaxGradV2", [y_grad, y, mask], scale=scale, fixed_triu_mask=fixed_triu_mask)
        ex.launch(
            step, "ScaledMaskedSoftmaxGradV2", [y_grad, y, mask], [out], kernel.make(scale, arch),
            tail_scratch_sizes=[_soc.current().lib_api_workspace], scale=scale,
        )  # fmt: skip
        step.outputs = [out]

    return build


def _inner_get_workspace_size(
    gradOutput: aclTensor, y: aclTensor, mask: aclTensor, scale: float, fixed_triu_mask: bool,
    out: aclTensor, workspaceSize: Any, executor: Any,
) -> int:  # fmt: skip
    """``aclnnInnerScaledMaskedSoftmaxGradV2GetWorkspaceSize`` (the attr ``scale`` is a float32)."""
    scale_f32 = as_float32(scale, "scale", S.ACLNN_ERR_PARAM_INVALID)
    return nnopbase.get_workspace_size(
        API, OPDEF, [gradOutput, y, mask], [out], workspaceSize, executor,
        _build(scale_f32, fixed_triu_mask), ("gradOutput", "y", "mask", "out"),
    )  # fmt: skip


@c_api(S.ACLNN_ERR_INNER)
def aclnnScaledMaskedSoftmaxBackward(workspace: int | None, workspaceSize: int, executor: Any, stream: Any) -> int:
    """Phase 2: the generated ``aclnnInnerScaledMaskedSoftmaxGradV2`` (nnopbase)."""
    return nnopbase.run_with_workspace(API, OPDEF, workspace, workspaceSize, executor, stream)
