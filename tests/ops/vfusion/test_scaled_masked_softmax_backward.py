"""aclnnScaledMaskedSoftmaxBackward: outer checks, the nnopbase stage, workspace, numbers."""

from __future__ import annotations

import goldens
import ml_dtypes
import numpy as np
import pytest
from helpers import Dev, assert_bits_equal

from aclnn_py import (
    ACL_FORMAT_FRACTAL_NZ,
    ACL_MEMCPY_DEVICE_TO_HOST,
    ACLNN_ERR_INNER_FIND_KERNEL_ERROR,
    ACLNN_ERR_PARAM_INVALID,
    ACLNN_ERR_PARAM_NULLPTR,
    Ref,
    aclDestroyAclOpExecutor,
    aclDestroyTensor,
    aclGetDataType,
    aclGetRecentErrMsg,
    aclnnScaledMaskedSoftmaxBackward,
    aclnnScaledMaskedSoftmaxBackwardGetWorkspaceSize,
    aclrtMemcpy,
)  # fmt: skip

BF16 = np.dtype(ml_dtypes.bfloat16)
P1, P2 = aclnnScaledMaskedSoftmaxBackwardGetWorkspaceSize, aclnnScaledMaskedSoftmaxBackward
PREFIX = "AclNN_Parameter_Error(EZ1001): "
SYS_WS = 16 * 1024 * 1024
SHAPE = (1, 2, 4, 8)


def _p1(g, y, m, o, scale=1.0, fix=False, ws=None, ex=None):
    ws = Ref(0) if ws is None else ws
    ex = Ref() if ex is None else ex
    return P1(g, y, m, scale, fix, o, ws, ex), ws, ex


def _args(dev, dtype=np.float32, shape=SHAPE, mask_shape=None):
    g = dev.tensor(np.ones(shape, dtype))
    y = dev.tensor(np.ones(shape, dtype))
    m = dev.tensor(np.zeros(mask_shape or shape, np.bool_))
    o = dev.tensor(np.zeros(shape, dtype))
    return [g, y, m, o]


@pytest.mark.parametrize("which,name", [(0, "gradOutput"), (1, "y"), (2, "mask"), (3, "out")])
def test_null_tensors(dev, which, name):
    args = _args(dev)
    args[which] = None
    assert _p1(*args)[0] == ACLNN_ERR_PARAM_NULLPTR
    assert aclGetRecentErrMsg() == f"{PREFIX}Expected a proper Tensor but got null for argument {name}." + "\n"


def test_no_out_pointer_check_before_the_parameters(dev):
    _, y, m, o = _args(dev)
    bad = dev.tensor(np.ones(SHAPE, np.int32))
    # with a bad dtype, the missing workspaceSize is never looked at
    assert P1(bad, y, m, 1.0, False, o, None, None) == ACLNN_ERR_PARAM_INVALID
    aclGetRecentErrMsg()
    # with good tensors, the generated inner function finds the null executor ...
    g = dev.tensor(np.ones(SHAPE, np.float32))
    assert P1(g, y, m, 1.0, False, o, Ref(), None) == ACLNN_ERR_PARAM_NULLPTR
    assert aclGetRecentErrMsg() == f"{PREFIX}Check executor != nullptr failed" + "\n"


def test_a_null_workspace_size_succeeds_with_an_executor_that_cannot_run(dev, findings):
    """nnopbase's args-cache check returns bool: its 161001 for a null workspaceLen reads as 'found'."""
    args = _args(dev)
    ex = Ref()
    assert P1(*args[:3], 1.0, False, args[3], None, ex) == 0
    assert aclGetRecentErrMsg().startswith(
        f"{PREFIX}Assert ((workspaceLen) != nullptr) failed\n"
        "TraceBack (most recent call last):\n"
        "        sanitizer [undefined]: aclnnScaledMaskedSoftmaxBackwardGetWorkspaceSize: workspaceSize is "
        "nullptr; nnopbase returns ACLNN_SUCCESS anyway"
    )
    assert findings.refresh().checks() == ["undefined"]
    assert P2(None, 0, ex.value, dev.stream) == ACLNN_ERR_PARAM_INVALID
    assert "never set up this executor's arguments" in aclGetRecentErrMsg()


def test_executor_is_handed_out_before_the_definition_check(dev):
    g = dev.tensor(np.ones(SHAPE, np.float16))
    y = dev.tensor(np.ones(SHAPE, np.float32))
    m = dev.tensor(np.zeros(SHAPE, np.bool_))
    o = dev.tensor(np.zeros(SHAPE, np.float16))
    code, _, ex = _p1(g, y, m, o)
    assert code == ACLNN_ERR_PARAM_INVALID and ex.value is not None  # *executor was written first
    aclGetRecentErrMsg()
    assert P2(None, 0, ex.value, dev.stream) == ACLNN_ERR_PARAM_INVALID
    assert "an executor of a failed phase 1 cannot run" in aclGetRecentErrMsg()


@pytest.mark.parametrize("which,name", [(0, "gradOutput"), (1, "y"), (3, "out")])
def test_dtype_rows(dev, which, name):
    args = _args(dev)
    args[which] = dev.tensor(np.ones(SHAPE, np.int32))
    assert _p1(*args)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == (
        f"{PREFIX}Tensor {name} not implemented for DT_INT32, should be in dtype support list "
        "[DT_FLOAT,DT_FLOAT16,DT_BFLOAT16,]." + "\n"
    )


def test_mask_must_be_bool(dev):
    g, y, _, o = _args(dev)
    m = dev.tensor(np.zeros(SHAPE, np.float16))
    assert _p1(g, y, m, o)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg().endswith(
        "Tensor mask not implemented for DT_FLOAT16, should be in dtype support list [DT_BOOL,]." + "\n"
    )


def test_fractal_nz_is_refused_outside_ascend950(dev):
    g, y, m, o = _args(dev)
    nz = dev.tensor(np.ones(SHAPE, np.float32), fmt=ACL_FORMAT_FRACTAL_NZ)
    assert _p1(nz, y, m, o)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == (
        f"{PREFIX}Input and output format only support [ND]. Actual: gradOutput:[FRACTAL_NZ], y:[ND], out:[ND]." + "\n"
    )
    mnz = dev.tensor(np.zeros(SHAPE, np.bool_), fmt=ACL_FORMAT_FRACTAL_NZ)
    assert _p1(g, y, mnz, o)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == f"{PREFIX}Mask format only support [ND]. Actual: mask:[FRACTAL_NZ]." + "\n"


@pytest.mark.parametrize("fmt", [0, 1, 30, 47, 31], ids=["NCHW", "NHWC", "NCDHW", "NCL", "DHWCN"])
def test_nd_like_formats_are_relabelled_nd_and_accepted(dev, fmt):
    rng = np.random.default_rng(3)
    g = rng.standard_normal(SHAPE).astype(np.float32)
    y = rng.uniform(0, 1, SHAPE).astype(np.float32)
    gt = dev.tensor(g, fmt=fmt)
    yt, mt = dev.tensor(y, fmt=fmt), dev.tensor(np.zeros(SHAPE, np.bool_), fmt=fmt)
    o = dev.tensor(np.zeros(SHAPE, np.float32), fmt=fmt)
    assert dev.run(P1, P2, gt, yt, mt, 1.0, False, o) == (0, 0, 0), aclGetRecentErrMsg()
    assert_bits_equal(dev.read(o), goldens.scaled_masked_softmax_grad(g, y, np.zeros(SHAPE), 1.0, np.float32))


def _definition_mismatch(details, columns):
    rows = "".join(
        f"\n        SupportInfo[{i}]: yGrad({dt}, ND), y({dt}, ND), maskOptional(DT_BOOL, ND), out({dt}, ND)"
        for i, dt in enumerate(columns)
    )
    return (
        "Execution_Error(EZ1009): Failed to execute operator ScaledMaskedSoftmaxGradV2_0. Reason: The dtype or format "
        "of the actual input or output parameter of the operator is inconsistent with that defined in the operator "
        f"prototype OpDef, details of parameter are {details}.\n"
        "TraceBack (most recent call last):\n"
        "        Supported dtype and format list is:"
        f"{rows}\n"
        "        Check NnopbaseExecutorTilingAndUpdateBinInfo(executor) failed\n"
        "        Check NnopbaseExecutorMatchCache(executor) failed\n"
        "        Check NnopbaseRunForWorkspace(*executor, workspaceSize) failed"
    )


def test_another_format_is_refused_by_the_op_definition(dev):
    _, y, m, o = _args(dev)
    nc1hwc0 = dev.tensor(np.ones(SHAPE, np.float32), fmt=3)
    assert _p1(nc1hwc0, y, m, o)[0] == ACLNN_ERR_PARAM_INVALID
    assert (
        aclGetRecentErrMsg()
        == _definition_mismatch(
            "yGrad(DT_FLOAT, NC1HWC0), y(DT_FLOAT, ND), maskOptional(DT_BOOL, ND), out(DT_FLOAT, ND)",
            ["DT_FLOAT", "DT_FLOAT16", "DT_BFLOAT16"],
        )
        + "\n"
    )


def test_an_optional_input_that_fits_no_column_has_no_kernel(dev):
    g, y, _, o = _args(dev)
    m = dev.tensor(np.zeros(SHAPE, np.bool_), fmt=3)  # the optional mask: the default check skips it
    assert _p1(g, y, m, o)[0] == ACLNN_ERR_INNER_FIND_KERNEL_ERROR
    assert aclGetRecentErrMsg() == (
        "Execution_Error(EZ1009): Failed to execute operator ScaledMaskedSoftmaxGradV2_0. Reason: Cannot find kernel "
        "file for operator ScaledMaskedSoftmaxGradV2. The corresponding simplifiedKey in binary_info_config.json "
        "file is missing, please reinstall operator package.\n"
        "TraceBack (most recent call last):\n"
        "        Check NnopbaseExecutorTilingAndUpdateBinInfo(executor) failed\n"
        "        Check NnopbaseExecutorMatchCache(executor) failed\n"
        "        Check NnopbaseRunForWorkspace(*executor, workspaceSize) failed" + "\n"
    )


@pytest.mark.parametrize(
    "gshape,yshape,oshape,mshape,fragment",
    [
        ((2, 4, 8), SHAPE, SHAPE, SHAPE, "gradOutput only support 4 dims, but current is 3"),
        (
            (1, 2, 4, 4097),
            (1, 2, 4, 4097),
            (1, 2, 4, 4097),
            (1, 2, 4, 4097),
            "shape of gradOutput is not true, current is [1, 2, 4, 4097]",
        ),
        ((1, -2, 4, 8), SHAPE, SHAPE, SHAPE, "shape of gradOutput is not true, current is [1, -2, 4, 8]"),
        (
            SHAPE,
            (1, 2, 4, 16),
            SHAPE,
            SHAPE,
            "shape of y should equal to gradOutput, gradOutput is [1, 2, 4, 8], y is [1, 2, 4, 16]",
        ),
        (
            SHAPE,
            SHAPE,
            (2, 2, 4, 8),
            SHAPE,
            "shape of out should equal to gradOutput, gradOutput is [1, 2, 4, 8], out is [2, 2, 4, 8]",
        ),
        (SHAPE, SHAPE, SHAPE, (2, 4, 8), "mask only support 4 dims, but current is 3"),
        (SHAPE, SHAPE, SHAPE, (1, 2, 4, 16), "shape of mask is not true, current is [1, 2, 4, 16]"),
        (SHAPE, SHAPE, SHAPE, (1, 2, 2, 8), "shape of mask is not true, current is [1, 2, 2, 8]"),
        (
            SHAPE,
            SHAPE,
            SHAPE,
            (1, 3, 4, 8),
            "mask should broadcast to gradOutput, gradOutput is [1, 2, 4, 8], mask is [1, 3, 4, 8]",
        ),
    ],
)
def test_shape_rows(dev, gshape, yshape, oshape, mshape, fragment):
    def t(shape, dtype):
        from aclnn_py import ACL_BOOL, ACL_FLOAT, ACL_FORMAT_ND, aclCreateTensor

        return aclCreateTensor(list(shape), len(shape), ACL_BOOL if dtype == np.bool_ else ACL_FLOAT, None, 0,
                               ACL_FORMAT_ND, list(shape), len(shape), None)  # fmt: skip

    tensors = [t(gshape, np.float32), t(yshape, np.float32), t(mshape, np.bool_), t(oshape, np.float32)]
    code = _p1(*tensors)[0]
    assert code == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == PREFIX + fragment + "\n"
    for x in tensors:
        aclDestroyTensor(x)


def test_head_dim_limit_is_8192_on_ascend950(soc, findings):
    soc("Ascend950")
    dev = Dev()
    try:
        args = _args(dev, shape=(1, 1, 1, 8192))
        code, _, ex = _p1(*args)
        assert code == 0 and aclDestroyAclOpExecutor(ex.value) == 0
        assert findings.refresh().checks() == ["undefined"]
        aclGetRecentErrMsg()
        bad = _args(dev, shape=(1, 1, 1, 8193))
        assert _p1(*bad)[0] == ACLNN_ERR_PARAM_INVALID
        assert "current is [1, 1, 1, 8193]" in aclGetRecentErrMsg()
        nz = dev.tensor(np.ones((1, 1, 1, 8), np.float32), fmt=ACL_FORMAT_FRACTAL_NZ)
        a = _args(dev, shape=(1, 1, 1, 8))
        assert _p1(nz, a[1], a[2], a[3])[0] == ACLNN_ERR_PARAM_INVALID  # no outer check; the op definition refuses it
        assert "FRACTAL_NZ" in aclGetRecentErrMsg()
    finally:
        dev.close()


def test_fix_triu_mask_must_be_false_and_comes_after_the_checks(dev):
    args = _args(dev)
    assert _p1(*args, fix=True)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == f"{PREFIX}fixTriuMask only support false" + "\n"
    args[1] = dev.tensor(np.ones(SHAPE, np.int32))
    assert _p1(*args, fix=True)[0] == ACLNN_ERR_PARAM_INVALID
    assert "DT_INT32" in aclGetRecentErrMsg()


def test_y_dtype_mismatch_is_refused_by_the_nnopbase_stage(dev):
    g = dev.tensor(np.ones(SHAPE, np.float16))
    y = dev.tensor(np.ones(SHAPE, np.float32))
    m = dev.tensor(np.zeros(SHAPE, np.bool_))
    o = dev.tensor(np.zeros(SHAPE, np.float16))
    assert _p1(g, y, m, o)[0] == ACLNN_ERR_PARAM_INVALID
    assert (
        aclGetRecentErrMsg()
        == _definition_mismatch(
            "yGrad(DT_FLOAT16, ND), y(DT_FLOAT, ND), maskOptional(DT_BOOL, ND), out(DT_FLOAT16, ND)",
            ["DT_FLOAT", "DT_FLOAT16", "DT_BFLOAT16"],
        )
        + "\n"
    )


def test_out_dtype_is_overwritten_with_gradoutputs(dev):
    rng = np.random.default_rng(1)
    g = rng.standard_normal(SHAPE).astype(np.float16)
    y = rng.uniform(0, 1, SHAPE).astype(np.float16)
    gt, yt = dev.tensor(g), dev.tensor(y)
    m = dev.tensor(np.zeros(SHAPE, np.bool_))
    o = dev.tensor(np.zeros(SHAPE, np.float32))  # an f32 out for f16 data passes ...
    assert dev.run(P1, P2, gt, yt, m, 1.0, False, o) == (0, 0, 0)
    dt = Ref()
    assert aclGetDataType(o, dt) == 0 and dt.value == 1  # ... and is relabelled ACL_FLOAT16
    out = dev.read(o, np.float16)
    assert_bits_equal(out, goldens.scaled_masked_softmax_grad(g, y, np.zeros(SHAPE), 1.0, np.float16))


@pytest.mark.parametrize("chip", ["Ascend310P"])
def test_bf16_is_not_in_the_310p_op_definition(soc, chip):
    soc(chip)
    dev = Dev()
    try:
        assert _p1(*_args(dev, BF16, shape=(1, 2, 4, 64)))[0] == ACLNN_ERR_PARAM_INVALID
        assert (
            aclGetRecentErrMsg()
            == _definition_mismatch(
                "yGrad(DT_BFLOAT16, ND), y(DT_BFLOAT16, ND), maskOptional(DT_BOOL, ND), out(DT_BFLOAT16, ND)",
                ["DT_FLOAT", "DT_FLOAT16"],
            )
            + "\n"
        )
        code, _, ex = _p1(*_args(dev, np.float16, shape=(1, 2, 4, 64)))  # 310P rows: multiples of 64
        assert code == 0 and aclDestroyAclOpExecutor(ex.value) == 0
    finally:
        dev.close()


def test_ascend910_has_no_kernel(soc):
    soc("Ascend910")
    dev = Dev()
    try:
        args = _args(dev)
        # the op registry is looked up before the executor out-pointer
        assert P1(*args[:3], 1.0, False, args[3], Ref(), None) == ACLNN_ERR_PARAM_NULLPTR
        assert aclGetRecentErrMsg() == (
            "Execution_Error(EZ1009): Failed to execute operator ScaledMaskedSoftmaxGradV2_0. Reason: 1.SoC version "
            "ascend910 verification failed. This SoC is not configured through the AddConfig API of the OpDef class. "
            "2.The binary_info_config.json file to which the ScaledMaskedSoftmaxGradV2 operator belongs fails to be "
            "loaded because the file is damaged or does not exist or the user does not have sufficient permissions. "
            "3.The operator package to which the ScaledMaskedSoftmaxGradV2 operator belongs is not installed.\n"
            "TraceBack (most recent call last):\n"
            f"        {PREFIX}Check nnopExecutor != nullptr failed".replace(PREFIX, "")
            + "\n"
        )
    finally:
        dev.close()


def test_empty_tensors_skip_the_kernel(dev):
    for shape in [(0, 2, 4, 8), (1, 2, 4, 0), (1, 0, 0, 0)]:
        code, ws, ex = _p1(*_args(dev, shape=shape))
        assert code == 0 and ws.value == 0 and not ex.value.launches
        assert P2(None, 0, ex.value, dev.stream) == 0


RUN_CHECK = "        Check NnopbaseRunWithWorkspace(executor, stream, workspace, workspaceSize) failed"


def test_workspace_is_the_ascendc_system_workspace(dev):
    code, ws, ex = _p1(*_args(dev))
    assert code == 0 and ws.value == SYS_WS
    assert ex.value.kind == "individual"
    # nnopbase checks the size the caller passes
    small = dev.malloc(1024)
    assert P2(small, 1024, ex.value, dev.stream) == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == (
        "Invalid_Argument(EZ1010): Value 1024 for parameter workspaceLen is invalid. Reason: The passed workspace "
        f"size 1024 does not meet the minimum workspace size {SYS_WS} actually required by the operator.\n"
        "TraceBack (most recent call last):\n" + RUN_CHECK + "\n"
    )
    assert P2(None, SYS_WS, ex.value, dev.stream) == ACLNN_ERR_PARAM_NULLPTR
    assert aclGetRecentErrMsg() == (
        "Invalid_Argument_Null_Pointer(EZ1011): Calling the second-phase API of aclnn failed because workspace "
        "cannot be a NULL pointer.\nTraceBack (most recent call last):\n" + RUN_CHECK + "\n"
    )
    assert P2(dev.workspace(SYS_WS), SYS_WS, ex.value, dev.stream) == 0
    assert P2(None, 0, None, dev.stream) == ACLNN_ERR_PARAM_NULLPTR
    assert aclGetRecentErrMsg() == (
        f"{PREFIX}Assert ((executor) != nullptr) failed\n"
        "TraceBack (most recent call last):\n"
        "        Calling the second-phase API of aclnn failed because executor cannot be a NULL pointer.\n"
        + RUN_CHECK
        + "\n"
    )


def test_autocontiguous_copies_sit_at_the_end_of_the_workspace(dev):
    rng = np.random.default_rng(2)
    shape = (1, 2, 3, 64)
    gs = rng.standard_normal((1, 2, 64, 3)).astype(np.float32)
    g = dev.strided(gs, shape, (384, 192, 1, 3))  # last two dims transposed
    ys = rng.uniform(0, 1, shape).astype(np.float32)
    y, m = dev.tensor(ys), dev.tensor(np.zeros(shape, np.bool_))
    o = dev.tensor(np.zeros(shape, np.float32))
    code, ws, ex = _p1(g, y, m, o)
    copy = (1 * 2 * 3 * 64 * 4 + 32 + 511) // 512 * 512
    assert code == 0 and ws.value == SYS_WS + copy
    assert ex.value.contiguous_size == copy
    assert "workspace tail+0x0" in str(ex.value)
    # the copies need their share first: a smaller size is refused naming workspaceSize
    assert P2(dev.malloc(copy - 1), copy - 1, ex.value, dev.stream) == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == (
        f"Invalid_Argument(EZ1010): Value {copy - 1} for parameter workspaceSize is invalid. Reason: The passed "
        f"workspace size {copy - 1} does not meet the minimum workspace size {copy} actually required by the "
        "AutoContiguous API." + "\n"
    )
    # then the kernel's share is checked on what is left (the reduced size is quoted)
    extra = 4096
    buf = dev.workspace(copy + extra)
    assert P2(buf, copy + extra, ex.value, dev.stream) == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg().startswith(
        f"Invalid_Argument(EZ1010): Value {extra} for parameter workspaceLen is invalid. Reason: The passed workspace "
        f"size {extra} does not meet the minimum workspace size {SYS_WS} actually required by the operator."
    )
    big = ws.value + 1536  # a larger workspace: the copies move to its end
    assert P2(dev.workspace(big), big, ex.value, dev.stream) == 0
    g_host = gs.transpose(0, 1, 3, 2).copy()
    assert_bits_equal(dev.read(o), goldens.scaled_masked_softmax_grad(g_host, ys, np.zeros(shape), 1.0, np.float32))


def _run(dev, g, y, m, scale=1.0, out_dtype=None):
    gt, yt, mt = dev.tensor(g), dev.tensor(y), dev.tensor(m)
    o = dev.tensor(np.zeros(g.shape, out_dtype or g.dtype))
    assert dev.run(P1, P2, gt, yt, mt, scale, False, o) == (0, 0, 0), aclGetRecentErrMsg()
    return dev.read(o)


@pytest.mark.parametrize("dtype", [np.float32, np.float16, BF16], ids=["f32", "f16", "bf16"])
@pytest.mark.parametrize("d", [1, 7, 64, 100, 1024, 1025, 2000])
def test_bit_exact_against_the_recipe_on_both_paths(dev, dtype, d):
    rng = np.random.default_rng(d)
    shape = (2, 1, 2, d)
    g = rng.standard_normal(shape).astype(dtype)
    y = rng.uniform(0, 1, shape).astype(dtype)
    m = rng.uniform(0, 1, (1, 1, 2, d)) < 0.3
    out = _run(dev, g, y, m, 0.7)
    assert_bits_equal(out, goldens.scaled_masked_softmax_grad(g, y, m, 0.7, dtype))
    ref = goldens.softmax_grad_reference(g.astype(np.float64), y.astype(np.float64), m, float(np.float32(0.7)))
    tol = {np.dtype(np.float32): 1e-4, np.dtype(np.float16): 2e-2, BF16: 1e-1}[np.dtype(dtype)]
    np.testing.assert_allclose(out.astype(np.float64), ref, rtol=tol, atol=tol * max(1, d / 100))


@pytest.mark.parametrize("mshape", [(2, 3, 4, 16), (1, 3, 4, 16), (2, 1, 4, 16), (1, 1, 4, 16)])
def test_mask_broadcast_modes(dev, mshape):
    rng = np.random.default_rng(4)
    shape = (2, 3, 4, 16)
    g = rng.standard_normal(shape).astype(np.float32)
    y = rng.uniform(0, 1, shape).astype(np.float32)
    m = rng.uniform(0, 1, mshape) < 0.5
    out = _run(dev, g, y, m, 2.0)
    assert_bits_equal(out, goldens.scaled_masked_softmax_grad(g, y, m, 2.0, np.float32))
    assert (out[np.broadcast_to(m, shape)] == 0).all()


def test_masked_positions_are_plus_zero_whatever_the_data(dev):
    g = np.array([[[[np.nan, np.inf, 1.0, 2.0]]]], np.float32)
    y = np.array([[[[1.0, 1.0, np.nan, 1.0]]]], np.float32)
    m = np.array([[[[1, 1, 1, 0]]]], np.bool_)
    out = _run(dev, g, y, m)
    assert out.view(np.uint32)[0, 0, 0, :3].tolist() == [0, 0, 0]
    assert np.isnan(out[0, 0, 0, 3])


def test_scale_is_rounded_to_float32(dev):
    g = np.full((1, 1, 1, 4), 1.0, np.float32)
    y = np.array([[[[0.1, 0.2, 0.3, 0.4]]]], np.float32)
    scale = 0.1  # not a float32 value
    out = _run(dev, g, y, np.zeros((1, 1, 1, 4), np.bool_), scale)
    assert_bits_equal(
        out, goldens.scaled_masked_softmax_grad(g, y, np.zeros((1, 1, 1, 4)), float(np.float32(scale)), np.float32)
    )


def test_the_norm_path_computes_y_times_g_minus_s(dev):
    # y*(g-s) and g*y - s*y differ in rounding for these values; the norm path uses the former
    y = np.array([[[[0.3, 0.7, 0.1]]]], np.float32)
    g = np.array([[[[1.1, -0.9, 2.3]]]], np.float32)
    out = _run(dev, g, y, np.zeros(y.shape, np.bool_))
    s = np.float32(
        np.float32(np.float32(y[..., 0] * g[..., 0]) + np.float32(y[..., 1] * g[..., 1]))
        + np.float32(y[..., 2] * g[..., 2])
    )
    assert_bits_equal(out, (y * (g - s)).astype(np.float32))


def test_non_contiguous_output_gets_the_dense_result_at_its_address(dev, findings):
    """nnopbase copies non-contiguous inputs (AutoContiguous) but neither detects nor copies outputs."""
    rng = np.random.default_rng(9)
    shape = (2, 2, 3, 5)
    gs = rng.standard_normal((2, 2, 5, 3)).astype(np.float32)
    g = dev.strided(gs, shape, (30, 15, 1, 3))  # last two dims transposed
    ys = rng.uniform(0, 1, shape).astype(np.float32)
    y = dev.tensor(ys)
    ms = rng.uniform(0, 1, (1, 2, 3, 5)) < 0.4
    m = dev.tensor(ms)
    o = dev.strided(np.zeros((2, 2, 5, 3), np.float32), shape, (30, 15, 1, 3))
    ws, ex = Ref(0), Ref()
    assert P1(g, y, m, 1.0, False, o, ws, ex) == 0
    assert [ln.op_type for ln in ex.value.launches] == ["Transpose", "ScaledMaskedSoftmaxGradV2"]
    assert ws.value == SYS_WS + 512
    assert findings.refresh().checks() == ["undefined"]
    assert findings.text() == (
        "aclnnScaledMaskedSoftmaxBackward: out is not contiguous; nnopbase neither detects nor copies non-contiguous "
        "outputs, so the kernel writes its dense result at out's address, ignoring its strides"
    )
    aclGetRecentErrMsg()
    assert P2(dev.workspace(ws.value), ws.value, ex.value, dev.stream) == 0
    g_host = gs.transpose(0, 1, 3, 2).copy()
    dev.read(o)  # synchronize
    raw = np.empty(60, np.float32)  # o's storage, as the kernel wrote it: densely, in row-major order
    assert aclrtMemcpy(raw, raw.nbytes, o.storage.addr, raw.nbytes, ACL_MEMCPY_DEVICE_TO_HOST) == 0
    assert_bits_equal(raw.reshape(shape), goldens.scaled_masked_softmax_grad(g_host, ys, ms, 1.0, np.float32))


def test_sample_values(dev):
    x = np.arange(1, 17, dtype=np.float32).reshape(2, 2, 2, 2)
    m = np.array([1, 1, 0, 0] * 4, np.int8).reshape(2, 2, 2, 2)
    gt, yt = dev.tensor(x), dev.tensor(x)
    mt = dev.tensor(m, acl_dtype=12)
    o = dev.tensor(np.zeros((2, 2, 2, 2), np.float32))
    assert dev.run(P1, P2, gt, yt, mt, 1.0, False, o) == (0, 0, 0)
    assert dev.read(o).reshape(-1).tolist() == [
        0, 0, -66, -84, 0, 0, -742, -840, 0, 0, -2794, -3036, 0, 0, -6990, -7440,
    ]  # fmt: skip
    assert not np.signbit(dev.read(o)).reshape(-1)[0]


CHIP_ARCH = [("Ascend910B", "v220"), ("Ascend910_93", "v220"), ("Ascend310P", "v200"), ("Ascend950", "3510")]


@pytest.mark.parametrize("chip,arch", CHIP_ARCH)
@pytest.mark.parametrize("d", [64, 128, 640, 1024, 1088, 4096])
def test_each_chip_sums_in_its_own_order(soc, chip, arch, d):
    """v220 blocks of 8, v200 chunk sums in sequence, 3510 64 lanes then one tree (norm path);
    the large path (D > 1024) is the same on every chip up to 4096."""
    soc(chip)
    dev = Dev()
    try:
        rng = np.random.default_rng(d)
        shape = (1, 2, 3, d)
        g = rng.standard_normal(shape).astype(np.float32)
        y = rng.uniform(0, 1, shape).astype(np.float32)
        m = rng.uniform(0, 1, (1, 1, 3, d)) < 0.1
        out = _run(dev, g, y, m, 0.5)
        assert_bits_equal(out, goldens.scaled_masked_softmax_grad(g, y, m, 0.5, np.float32, arch))
    finally:
        dev.close()


def test_the_three_orders_really_differ():
    rng = np.random.default_rng(0)  # a row whose three sums all differ (many rows have two equal)
    d = 1000
    g = rng.standard_normal((1, 1, 1, d)).astype(np.float32)
    y = rng.uniform(0, 1, (1, 1, 1, d)).astype(np.float32)
    m = np.zeros((1, 1, 1, d), np.bool_)
    outs = [goldens.scaled_masked_softmax_grad(g, y, m, 1.0, np.float32, arch) for arch in ("v220", "v200", "3510")]
    assert len({o.tobytes() for o in outs}) == 3


@pytest.mark.parametrize("dtype", [np.float16, BF16], ids=["f16", "bf16"])
def test_ascend950_half_types_in_its_order(soc, dtype):
    soc("Ascend950")
    dev = Dev()
    try:
        rng = np.random.default_rng(7)
        shape = (2, 1, 2, 200)
        g = rng.standard_normal(shape).astype(dtype)
        y = rng.uniform(0, 1, shape).astype(dtype)
        m = np.zeros((1, 1, 2, 200), np.bool_)
        assert_bits_equal(_run(dev, g, y, m, 0.7), goldens.scaled_masked_softmax_grad(g, y, m, 0.7, dtype, "3510"))
    finally:
        dev.close()


def test_ascend950_above_4096_sums_only_the_first_4096_columns(soc, findings):
    soc("Ascend950")
    dev = Dev()
    try:
        rng = np.random.default_rng(5)
        shape = (1, 1, 2, 5000)
        g = rng.standard_normal(shape).astype(np.float32)
        y = rng.uniform(0, 1, shape).astype(np.float32)
        m = np.zeros((1, 1, 2, 5000), np.bool_)
        out = _run(dev, g, y, m)
        assert_bits_equal(out, goldens.scaled_masked_softmax_grad(g, y, m, 1.0, np.float32, "3510"))
        full = goldens.softmax_grad_reference(g, y, m, 1.0)
        assert not np.allclose(out, full, rtol=1e-3, atol=1e-3)  # the truncated sum is not a rounding error
        assert findings.refresh().checks() == ["undefined"]
        assert findings.text() == (
            "aclnnScaledMaskedSoftmaxBackward: on Ascend950 with D = 5000 > 4096 the kernel's row sum covers only "
            "the first 4096 columns (its second reduction takes one 64-lane register); the result is what that "
            "kernel computes, not the softmax gradient"
        )
    finally:
        dev.close()


def test_ascend310p_with_d_not_a_multiple_of_64_is_undefined(soc, findings):
    soc("Ascend310P")
    dev = Dev()
    try:
        g = np.ones((1, 1, 2, 100), np.float32)
        out = _run(dev, g, g, np.zeros((1, 1, 2, 100), np.bool_))
        assert (out.view(np.uint32) == 0xFFFFFFFF).all()  # the poison pattern, not a plausible answer
        assert findings.refresh().checks() == ["undefined"]
        assert findings.text() == (
            "aclnnScaledMaskedSoftmaxBackward: on Ascend310P the ScaledMaskedSoftmaxGradV2 kernel copies rows in "
            "32-byte blocks and assumes the last dimension is a multiple of 64; with D = 100 its behaviour is "
            "undefined (garbage or a device fault on the chip); aclnn_py leaves the output as the poison pattern "
            "(0xFF bytes)"
        )
        assert "sanitizer [undefined]" in aclGetRecentErrMsg()
    finally:
        dev.close()


def test_undefined_shape_fails_phase_one_in_error_mode(soc, findings):
    from aclnn_py.runtime import sanitizer

    soc("Ascend310P")
    sanitizer.set_mode("error")
    dev = Dev()
    try:
        assert _p1(*_args(dev, shape=(1, 1, 1, 65)))[0] == ACLNN_ERR_PARAM_INVALID
        assert aclGetRecentErrMsg().startswith("aclnn_py: sanitizer [undefined]: aclnnScaledMaskedSoftmaxBackward: on")
    finally:
        dev.close()
