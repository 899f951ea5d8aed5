"""aclnnScaledMaskedSoftmax: the outer checks in CANN's order (a null tensor returns 561103), the
generated nnopbase stage (SoCs, definition match, workspace, AutoContiguous), the numbers per chip
against an independent golden of each chip's SoftMax order (exp from numpy's float32 exp, as the
kernel emulation; the chip's exp and div may differ in the last bit), undefined shapes."""

from __future__ import annotations

import math

import goldens
import ml_dtypes
import numpy as np
import pytest
from helpers import Dev, assert_bits_equal

from aclnn_py import (
    ACL_BOOL,
    ACL_FLOAT,
    ACL_FORMAT_ND,
    ACLNN_ERR_INNER_FIND_KERNEL_ERROR,
    ACLNN_ERR_INNER_NULLPTR,
    ACLNN_ERR_PARAM_INVALID,
    ACLNN_ERR_PARAM_NULLPTR,
    Ref,
    aclCreateTensor,
    aclDestroyAclOpExecutor,
    aclDestroyTensor,
    aclGetRecentErrMsg,
    aclnnScaledMaskedSoftmax,
    aclnnScaledMaskedSoftmaxGetWorkspaceSize,
)

BF16 = np.dtype(ml_dtypes.bfloat16)
P1, P2 = aclnnScaledMaskedSoftmaxGetWorkspaceSize, aclnnScaledMaskedSoftmax
PREFIX = "AclNN_Parameter_Error(EZ1001): "
SYS_WS = 16 * 1024 * 1024
SHAPE = (1, 2, 4, 8)
ARCH = {"Ascend910B": "v220", "Ascend910_93": "v220", "Ascend950": "3510"}


def _p1(x, m, y, scale=1.0, fix=False):
    ws, ex = Ref(0), Ref()
    return P1(x, m, scale, fix, y, ws, ex), ws, ex


def _args(dev, dtype=np.float32, shape=SHAPE, mask_shape=None, y_shape=None):
    x = dev.tensor(np.ones(shape, dtype))
    m = dev.tensor(np.zeros(mask_shape or shape, np.bool_))
    y = dev.tensor(np.zeros(y_shape or shape, dtype))
    return [x, m, y]


def _run(dev, x, m, scale=1.0, y_dtype=None):
    xt, mt = dev.tensor(x), dev.tensor(m)
    y = dev.tensor(np.zeros(x.shape, y_dtype or x.dtype))
    assert dev.run(P1, P2, xt, mt, scale, False, y) == (0, 0, 0), aclGetRecentErrMsg()
    return dev.read(y)


# -- the independent golden: one row, one operation at a time ------------------------------------

r32 = goldens.r32
FLT_MIN = float(np.finfo(np.float32).tiny)


def _tree(values: list[float]) -> float:
    while len(values) > 1:
        values = [r32(values[i] + values[i + 1]) for i in range(0, len(values), 2)]
    return values[0]


def row_sum(e: list[float], arch: str) -> float:
    d = len(e)
    if d <= 64:
        return _tree(e + [0.0] * (64 - d))
    n, t = divmod(d, 64)
    if arch == "3510":
        lanes = [0.0] * 64
        for j, v in enumerate(e):
            lanes[j % 64] = r32(lanes[j % 64] + v)
        return _tree(lanes)
    if d >= 512:
        acc = [_tree(e[8 * k : 8 * k + 8]) for k in range(64)]
        first = 8
    else:
        acc = e[:64]
        first = 1
    for c in range(first, n):
        acc = [r32(e[64 * c + k] + acc[k]) for k in range(64)]
    for k in range(t):
        acc[k] = r32(acc[k] + e[64 * n + k])
    return _tree(acc)


def softmax_golden(x: np.ndarray, mask: np.ndarray, scale: float, arch: str) -> np.ndarray:
    dt = np.dtype(x.dtype)
    sc = r32(scale)
    masked = np.broadcast_to(mask.astype(np.uint8) != 0, x.shape).reshape(-1, x.shape[-1])
    rows = x.astype(np.float32).reshape(-1, x.shape[-1])
    out = []
    for xr, mr in zip(rows, masked):
        if dt == np.float16:
            hs = float(np.float16(np.float32(sc)))
            s = [float(np.array(goldens.to_f16_bits(r32(float(v) * hs)), np.uint16).view(np.float16)) for v in xr]
        else:
            s = [r32(float(v) * sc) for v in xr]
        s = [-10000.0 if mk else v for v, mk in zip(s, mr)]
        m = s[0]
        for v in s[1:]:
            m = math.nan if (m != m or v != v) else max(m, v)
        e = [float(np.exp(np.float32(r32(v - m)))) for v in s]
        if arch == "3510":
            e = [0.0 if abs(v) < FLT_MIN else v for v in e]
        total = row_sum(e, arch)
        y = [r32(v / total) for v in e]
        if arch == "3510":
            y = [0.0 if abs(v) < FLT_MIN else v for v in y]
        out.extend(y)
    return goldens.round_to(out, dt).reshape(x.shape)


def softmax_reference(x, mask, scale) -> np.ndarray:
    s = np.where(np.broadcast_to(mask != 0, x.shape), -10000.0, x.astype(np.float64) * scale)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


# -- outer checks ----------------------------------------------------------------------------------


@pytest.mark.parametrize("which,name", [(0, "x"), (1, "mask"), (2, "y")])
def test_a_null_tensor_reports_161001_but_returns_561103(dev, which, name):
    args = _args(dev)
    args[which] = None
    assert _p1(*args)[0] == ACLNN_ERR_INNER_NULLPTR
    assert aclGetRecentErrMsg() == f"{PREFIX}Expected a proper Tensor but got null for argument {name}.\n"


@pytest.mark.parametrize("which,name", [(0, "x"), (2, "y")])
def test_x_and_y_dtype_rows(dev, which, name):
    args = _args(dev)
    args[which] = dev.tensor(np.ones(SHAPE, np.int32))
    assert _p1(*args)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == (
        f"{PREFIX}Tensor {name} not implemented for DT_INT32, should be in dtype support list "
        "[DT_FLOAT,DT_FLOAT16,DT_BFLOAT16,].\n"
    )


def test_mask_dtype_row_and_x_y_same_dtype(dev):
    x, _, y = _args(dev)
    m = dev.tensor(np.zeros(SHAPE, np.uint8))
    assert _p1(x, m, y)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == (
        f"{PREFIX}Tensor mask not implemented for DT_UINT8, should be in dtype support list [DT_BOOL,].\n"
    )
    y16 = dev.tensor(np.zeros(SHAPE, np.float16))
    assert _p1(x, _args(dev)[1], y16)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == (
        f"{PREFIX}Expected both tensors to have same dtype, but found x DT_FLOAT and y DT_FLOAT16.\n"
    )


def _shape_tensors(xs, ms, ys):
    def t(shape, dt):
        return aclCreateTensor(list(shape), len(shape), dt, None, 0, ACL_FORMAT_ND, list(shape), len(shape), None)

    return [t(xs, ACL_FLOAT), t(ms, ACL_BOOL), t(ys, ACL_FLOAT)]


@pytest.mark.parametrize(
    "xs,ms,ys,text",
    [
        ((2, 4, 8), SHAPE, SHAPE, "Expected 4 dimension input, but got x with sizes [2, 4, 8]."),
        ((1, 2, 3, 4, 8), SHAPE, SHAPE, "Expected 4 dimension input, but got x with sizes [1, 2, 3, 4, 8]."),
        (SHAPE, (2, 4, 8), SHAPE, "Expected 4 dimension input, but got mask with sizes [2, 4, 8]."),
        (SHAPE, SHAPE, (8,), "Expected 4 dimension input, but got y with sizes [8]."),
        ((2, 4, 128, 128), (3, 4, 128, 128), (2, 4, 128, 128),
         "When x[2, 4, 128, 128] and mask[3, 4, 128, 128] are different in the first dimensions, the broadcast "
         "relation needs to be satisfied"),
        ((2, 4, 128, 128), (1, 2, 128, 128), (2, 2, 128, 128),  # the ops-nn UT: mask dim 1 does not broadcast
         "When x[2, 4, 128, 128] and mask[1, 2, 128, 128] are different in the second dimensions, the broadcast "
         "relation needs to be satisfied"),
        (SHAPE, (1, 2, 2, 8), SHAPE, "x and mask should be same in dim3 and dim4"),
        (SHAPE, (1, 2, 4, 16), SHAPE, "x and mask should be same in dim3 and dim4"),
        ((1, 2, 4, 0), (1, 2, 4, 0), (1, 2, 4, 0), "Expected x and mask dim4 in range of (0, 4096]."),
        ((1, 1, 1, 4097), (1, 1, 1, 4097), (1, 1, 1, 4097), "Expected x and mask dim4 in range of (0, 4096]."),
        ((1, 1, 1, 5000), (1, 1, 1, 5000), (1, 1, 1, 5000), "Expected x and mask dim4 in range of (0, 4096]."),
    ],
)  # fmt: skip
def test_shape_rows(dev, xs, ms, ys, text):
    tensors = _shape_tensors(xs, ms, ys)
    assert _p1(*tensors)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == PREFIX + text + "\n"
    for t in tensors:
        aclDestroyTensor(t)


def test_y_shape_is_only_checked_for_its_rank(dev, findings):
    x = np.linspace(-2, 2, 32).astype(np.float32).reshape(1, 1, 4, 8)
    store = np.full(64, 7, np.float32)
    y = dev.strided(store, (1, 2, 4, 8), (64, 32, 8, 1))  # 64 elements: the kernel writes the first 32
    xt, mt = dev.tensor(x), dev.tensor(np.zeros((1, 1, 4, 8), np.bool_))
    assert dev.run(P1, P2, xt, mt, 1.0, False, y) == (0, 0, 0)
    assert findings.refresh().checks() == ["undefined"]
    assert "y's shape [1, 2, 4, 8] differs from x's [1, 1, 4, 8]" in findings.text()
    raw = dev.read(y).reshape(-1)
    assert_bits_equal(raw[:32].reshape(x.shape), softmax_golden(x, np.zeros(1), 1.0, "v220"))
    assert (raw[32:] == 7).all()


def test_a_smaller_y_makes_the_kernel_write_out_of_bounds(dev, findings):
    x = dev.tensor(np.ones((1, 1, 64, 64), np.float32))
    m = dev.tensor(np.zeros((1, 1, 64, 64), np.bool_))
    y = dev.tensor(np.zeros((1, 1, 1, 64), np.float32))
    ws, ex = Ref(0), Ref()
    assert P1(x, m, 1.0, False, y, ws, ex) == 0
    assert P2(dev.workspace(ws.value), ws.value, ex.value, dev.stream) == 0
    from aclnn_py import aclrtSynchronizeStream

    assert aclrtSynchronizeStream(dev.stream) == 507015  # the write runs past y's allocation
    assert "undefined" in findings.refresh().checks()
    aclGetRecentErrMsg()


def test_negative_batch_is_undefined_and_launches_nothing(dev, findings):
    t = [
        aclCreateTensor([-1, 1, 2, 8], 4, dt, None, 0, ACL_FORMAT_ND, [16], 1, dev.malloc(64))
        for dt in (ACL_FLOAT, ACL_BOOL, ACL_FLOAT)
    ]
    code, ws, ex = _p1(*t)
    assert code == 0 and not ex.value.launches and ws.value == 0
    assert findings.refresh().checks() == ["undefined"]
    assert "has a negative dimension" in findings.text()
    aclGetRecentErrMsg()
    aclDestroyAclOpExecutor(ex.value)
    for x in t:
        aclDestroyTensor(x)


def test_fixed_triu_mask_comes_after_the_checks(dev):
    args = _args(dev)
    assert _p1(*args, fix=True)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == f"{PREFIX}the param fixedTriuMask only suppport false.\n"
    args[0] = dev.tensor(np.ones(SHAPE, np.int32))
    assert _p1(*args, fix=True)[0] == ACLNN_ERR_PARAM_INVALID
    assert "DT_INT32" in aclGetRecentErrMsg()


def test_head_dim_limit_is_8192_on_ascend950_with_the_4096_text(soc):
    soc("Ascend950")
    dev = Dev()
    try:
        code, _, ex = _p1(*_args(dev, shape=(1, 1, 1, 8192)))
        assert code == 0 and aclDestroyAclOpExecutor(ex.value) == 0
        assert _p1(*_args(dev, shape=(1, 1, 1, 8193)))[0] == ACLNN_ERR_PARAM_INVALID
        assert aclGetRecentErrMsg() == f"{PREFIX}Expected x and mask dim4 in range of (0, 4096].\n"
    finally:
        dev.close()


# -- the generated inner function (nnopbase) -------------------------------------------------------


@pytest.mark.parametrize("chip", ["Ascend910", "Ascend310P"])
def test_no_kernel_outside_910b_910_93_950(soc, chip):
    soc(chip)
    dev = Dev()
    try:
        x, m, y = _args(dev, BF16)  # BFLOAT16 passes the outer check on every chip
        assert P1(x, m, 1.0, False, y, Ref(0), None) == ACLNN_ERR_PARAM_NULLPTR  # before the executor check
        soc_name = chip.lower()
        assert aclGetRecentErrMsg() == (
            "Execution_Error(EZ1009): Failed to execute operator ScaledMaskedSoftmaxV2_0. Reason: 1.SoC version "
            f"{soc_name} verification failed. This SoC is not configured through the AddConfig API of the OpDef "
            "class. 2.The binary_info_config.json file to which the ScaledMaskedSoftmaxV2 operator belongs fails to "
            "be loaded because the file is damaged or does not exist or the user does not have sufficient "
            "permissions. 3.The operator package to which the ScaledMaskedSoftmaxV2 operator belongs is not "
            "installed.\n"
            "TraceBack (most recent call last):\n"
            "        Check nnopExecutor != nullptr failed\n"
        )
    finally:
        dev.close()


def test_null_executor_and_null_workspace_size(dev, findings):
    x, m, y = _args(dev)
    assert P1(x, m, 1.0, False, y, Ref(0), None) == ACLNN_ERR_PARAM_NULLPTR
    assert aclGetRecentErrMsg() == f"{PREFIX}Check executor != nullptr failed\n"
    ex = Ref()
    assert P1(x, m, 1.0, False, y, None, ex) == 0  # nnopbase's args cache reads its own 161001 as "found"
    assert aclGetRecentErrMsg().startswith(f"{PREFIX}Assert ((workspaceLen) != nullptr) failed\n")
    assert findings.refresh().checks() == ["undefined"]
    assert P2(None, 0, ex.value, dev.stream) == ACLNN_ERR_PARAM_INVALID
    aclGetRecentErrMsg()


def _mismatch(details: str) -> str:
    rows = "".join(
        f"\n        SupportInfo[{i}]: x({dt}, ND), maskOptional(DT_BOOL, ND), out({dt}, ND)"
        for i, dt in enumerate(["DT_FLOAT", "DT_FLOAT16", "DT_BFLOAT16"])
    )
    return (
        "Execution_Error(EZ1009): Failed to execute operator ScaledMaskedSoftmaxV2_0. Reason: The dtype or format "
        "of the actual input or output parameter of the operator is inconsistent with that defined in the operator "
        f"prototype OpDef, details of parameter are {details}.\n"
        "TraceBack (most recent call last):\n"
        "        Supported dtype and format list is:"
        f"{rows}\n"
        "        Check NnopbaseExecutorTilingAndUpdateBinInfo(executor) failed\n"
        "        Check NnopbaseExecutorMatchCache(executor) failed\n"
        "        Check NnopbaseRunForWorkspace(*executor, workspaceSize) failed\n"
    )


def test_formats_against_the_op_definition(dev):
    x, m, y = _args(dev)
    x5 = dev.tensor(np.ones(SHAPE, np.float32), fmt=3)  # NC1HWC0: no outer format check
    assert _p1(x5, m, y)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == _mismatch("x(DT_FLOAT, NC1HWC0), maskOptional(DT_BOOL, ND), out(DT_FLOAT, ND)")
    m5 = dev.tensor(np.zeros(SHAPE, np.bool_), fmt=3)  # the optional mask is not compared: no binary
    assert _p1(x, m5, y)[0] == ACLNN_ERR_INNER_FIND_KERNEL_ERROR
    assert aclGetRecentErrMsg().startswith(
        "Execution_Error(EZ1009): Failed to execute operator ScaledMaskedSoftmaxV2_0. Reason: Cannot find kernel "
        "file for operator ScaledMaskedSoftmaxV2."
    )
    xn = np.linspace(-1, 1, 64).astype(np.float32).reshape(SHAPE)
    nchw = [
        dev.tensor(xn, fmt=0),
        dev.tensor(np.zeros(SHAPE, np.bool_), fmt=0),
        dev.tensor(np.zeros(SHAPE, np.float32), fmt=0),
    ]
    assert dev.run(P1, P2, nchw[0], nchw[1], 1.0, False, nchw[2]) == (0, 0, 0)  # relabelled ND
    assert_bits_equal(dev.read(nchw[2]), softmax_golden(xn, np.zeros(1), 1.0, "v220"))


def test_workspace_and_autocontiguous(dev):
    code, ws, ex = _p1(*_args(dev))
    assert code == 0 and ws.value == SYS_WS and ex.value.kind == "individual"
    assert aclDestroyAclOpExecutor(ex.value) == 0
    rng = np.random.default_rng(2)
    shape = (1, 2, 3, 64)
    xs = rng.standard_normal((1, 2, 64, 3)).astype(np.float32)
    xt = dev.strided(xs, shape, (384, 192, 1, 3))
    ms = rng.uniform(0, 1, (1, 1, 3, 64)) < 0.3
    m = dev.strided(np.repeat(ms, 2, axis=1), (1, 2, 3, 64), (384, 0, 64, 1))  # a broadcast (stride 0) mask
    y = dev.tensor(np.zeros(shape, np.float32))
    code, ws, ex = _p1(xt, m, y)

    def block(n: int) -> int:
        return (n + 32 + 511) // 512 * 512

    # x's copy; the BOOL mask's broadcast goes through INT32: Cast, BroadcastTo, Cast
    copies = block(1536) + block(192 * 4) + block(384 * 4) + block(384)
    assert code == 0 and ws.value == SYS_WS + copies, ws.value
    kinds = [ln.op_type for ln in ex.value.launches]
    assert kinds == ["Transpose", "Cast", "BroadcastTo", "Cast", "ScaledMaskedSoftmaxV2"]
    assert P2(dev.workspace(ws.value), ws.value, ex.value, dev.stream) == 0
    want = softmax_golden(xs.transpose(0, 1, 3, 2).copy(), np.broadcast_to(ms, shape), 1.0, "v220")
    assert_bits_equal(dev.read(y), want)


def test_empty_rows_skip_the_kernel(dev):
    for shape in [(0, 2, 4, 8), (1, 0, 4, 8), (1, 2, 0, 8)]:
        code, ws, ex = _p1(*_args(dev, shape=shape))
        assert code == 0 and ws.value == 0 and not ex.value.launches
        assert P2(None, 0, ex.value, dev.stream) == 0


# -- numbers ---------------------------------------------------------------------------------------


D_VALUES = [1, 5, 8, 9, 16, 17, 33, 64, 65, 100, 128, 200, 511, 512, 600, 1000, 4096]


@pytest.mark.parametrize("chip", ["Ascend910B", "Ascend910_93", "Ascend950"])
@pytest.mark.parametrize("dtype", [np.float32, np.float16, BF16], ids=["f32", "f16", "bf16"])
def test_numbers_follow_each_chips_order(soc, chip, dtype):
    soc(chip)
    dev = Dev()
    try:
        for d in D_VALUES:
            rng = np.random.default_rng(d)
            shape = (2, 2, 2, d) if d < 1000 else (1, 2, 1, d)
            x = (rng.standard_normal(shape) * 3).astype(dtype)
            m = rng.uniform(0, 1, (1, *shape[1:])) < 0.2
            y = _run(dev, x, m, 0.7)
            assert_bits_equal(y, softmax_golden(x, m, 0.7, ARCH[chip]))
            ref = softmax_reference(
                x.astype(np.float64), m, float(np.float32(0.7)) if dtype != np.float16 else float(np.float16(0.7))
            )
            tol = {np.dtype(np.float32): 1e-5, np.dtype(np.float16): 2e-3, BF16: 1e-2}[np.dtype(dtype)]
            np.testing.assert_allclose(y.astype(np.float64), ref, rtol=tol, atol=tol)
    finally:
        dev.close()


def test_v220_and_3510_orders_differ_from_512_columns():
    rng = np.random.default_rng(1)
    x = (rng.standard_normal((1, 1, 6, 1000)) * 4).astype(np.float32)
    m = np.zeros((1, 1, 6, 1000), np.bool_)
    assert softmax_golden(x, m, 1.0, "v220").tobytes() != softmax_golden(x, m, 1.0, "3510").tobytes()
    short = x[..., :500].copy()  # below 512 columns the two sums are the same lane-wise sequence
    ms = m[..., :500]
    assert softmax_golden(short, ms, 1.0, "v220").tobytes() == softmax_golden(short, ms, 1.0, "3510").tobytes()


def test_ascend950_up_to_8192_columns(soc):
    soc("Ascend950")
    dev = Dev()
    try:
        rng = np.random.default_rng(3)
        x = rng.standard_normal((1, 1, 2, 8192)).astype(np.float32)
        m = rng.uniform(0, 1, (1, 1, 2, 8192)) < 0.5
        assert_bits_equal(_run(dev, x, m, 2.0), softmax_golden(x, m, 2.0, "3510"))
    finally:
        dev.close()


def test_ascend950_flushes_subnormal_exp_and_div_results(soc):
    x = np.array([[[[0.0, -100.0, -88.0, -50.0]]]], np.float32)  # exp(-100), exp(-88) are subnormal
    m = np.zeros(x.shape, np.bool_)
    for chip, flushed in (("Ascend910B", False), ("Ascend950", True)):
        soc(chip)
        dev = Dev()
        try:
            y = _run(dev, x, m)
            assert_bits_equal(y, softmax_golden(x, m, 1.0, ARCH[chip]))
            assert (y[0, 0, 0, 1:3] == 0).all() == flushed
        finally:
            dev.close()


def test_fp16_scales_in_half_precision(dev):
    x = np.array([[[[1.0, 2.0, 3.0, 4.0]]]], np.float16)
    m = np.zeros(x.shape, np.bool_)
    y = _run(dev, x, m, 0.1)  # half(0.1f) = 0.0999755859375
    assert_bits_equal(y, softmax_golden(x, m, 0.1, "v220"))
    s = (x.astype(np.float32) * np.float32(np.float16(0.1))).astype(np.float16).astype(np.float32)
    e = np.exp(s - s.max())
    assert np.allclose(y.astype(np.float32), e / e.sum(), atol=1e-3)


def test_masked_positions_are_minus_10000_after_the_scale(dev):
    x = np.array([[[[np.nan, np.inf, 1.0, 2.0], [5.0, 6.0, 7.0, 8.0]]]], np.float32)
    m = np.array([[[[1, 1, 0, 0], [1, 1, 1, 1]]]], np.bool_)
    y = _run(dev, x, m, 1000.0)  # the scale would matter for unmasked values only
    assert_bits_equal(y, softmax_golden(x, m, 1000.0, "v220"))
    assert (y[0, 0, 1] == np.float32(0.25)).all()  # a fully masked row: uniform
    assert y[0, 0, 0, 0] == 0 and y[0, 0, 0, 3] == 1  # exp(-10000 - 2000) = 0; exp(1000 - 2000) = 0


def test_an_unmasked_nan_makes_the_row_nan(dev):
    x = np.array([[[[np.nan, 1.0, 2.0, 3.0], [1.0, 2.0, 3.0, 4.0]]]], np.float32)
    y = _run(dev, x, np.zeros(x.shape, np.bool_))
    assert np.isnan(y[0, 0, 0]).all() and np.isfinite(y[0, 0, 1]).all()


@pytest.mark.parametrize("mshape", [(2, 3, 4, 16), (1, 3, 4, 16), (2, 1, 4, 16), (1, 1, 4, 16)])
def test_mask_broadcast_modes(dev, mshape):
    rng = np.random.default_rng(4)
    x = rng.standard_normal((2, 3, 4, 16)).astype(np.float32)
    m = rng.uniform(0, 1, mshape) < 0.5
    assert_bits_equal(_run(dev, x, m, 2.0), softmax_golden(x, m, 2.0, "v220"))


def test_mask_bytes_other_than_one_mask_too(dev):
    x = np.arange(8, dtype=np.float32).reshape(1, 1, 1, 8)
    raw = np.array([0, 2, 0, 255, 0, 0, 1, 0], np.uint8).reshape(1, 1, 1, 8)
    xt = dev.tensor(x)
    mt = dev.tensor(raw, acl_dtype=ACL_BOOL)
    y = dev.tensor(np.zeros(x.shape, np.float32))
    assert dev.run(P1, P2, xt, mt, 1.0, False, y) == (0, 0, 0)
    assert_bits_equal(dev.read(y), softmax_golden(x, raw, 1.0, "v220"))


def test_doc_example(dev):
    x = np.arange(1, 17, dtype=np.float32).reshape(2, 2, 2, 2)
    m = np.array([1, 1, 0, 0] * 4, np.int8).reshape(2, 2, 2, 2)
    xt, y = dev.tensor(x), dev.tensor(np.zeros((2, 2, 2, 2), np.float32))
    assert dev.run(P1, P2, xt, dev.tensor(m, acl_dtype=ACL_BOOL), 1.0, False, y) == (0, 0, 0)
    printed = [f"{v:f}" for v in dev.read(y).reshape(-1)]
    assert printed == ["0.500000", "0.500000", "0.268941", "0.731059"] * 4
    assert math.isclose(float(dev.read(y)[0, 0, 1, 1]), 1 / (1 + math.exp(-1)), rel_tol=1e-6)
