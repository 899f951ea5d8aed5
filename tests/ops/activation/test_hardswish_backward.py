"""aclnnHardswishBackward: error rows in CANN's order, dtypes per chip, layouts, numbers."""

from __future__ import annotations

import goldens
import ml_dtypes
import numpy as np
import pytest
from helpers import Dev, assert_bits_equal

from aclnn_py import (
    ACLNN_ERR_PARAM_INVALID,
    ACLNN_ERR_PARAM_NULLPTR,
    Ref,
    aclDestroyAclOpExecutor,
    aclGetRecentErrMsg,
    aclnnHardswishBackward,
    aclnnHardswishBackwardGetWorkspaceSize,
)  # fmt: skip

BF16 = np.dtype(ml_dtypes.bfloat16)
P1, P2 = aclnnHardswishBackwardGetWorkspaceSize, aclnnHardswishBackward
PREFIX = "AclNN_Parameter_Error(EZ1001): "


def _p1(g, s, o):
    ws, ex = Ref(0), Ref()
    return P1(g, s, o, ws, ex), ws, ex


def _three(dev, dtype=np.float32, shape=(4, 2)):
    return [dev.tensor(np.ones(shape, dtype)) for _ in range(3)]


@pytest.mark.parametrize("which,name", [(0, "t0"), (1, "t1"), (2, "t2")])
def test_null_tensors_are_named_t0_t1_t2_as_in_cann(dev, which, name):
    args = _three(dev)
    args[which] = None
    assert _p1(*args)[0] == ACLNN_ERR_PARAM_NULLPTR
    assert aclGetRecentErrMsg() == f"{PREFIX}Expected a proper Tensor but got null for argument {name}." + "\n"


def test_null_out_pointers(dev):
    g, s, o = _three(dev)
    assert P1(g, s, o, None, Ref()) == ACLNN_ERR_PARAM_NULLPTR
    assert aclGetRecentErrMsg() == f"{PREFIX}The workspaceSize or executor is nullptr." + "\n"
    assert P1(None, None, None, Ref(), None) == ACLNN_ERR_PARAM_NULLPTR
    aclGetRecentErrMsg()


def test_dtype_rows_in_order(dev):
    f32 = dev.tensor(np.ones(4, np.float32))
    f16 = dev.tensor(np.ones(4, np.float16))
    i32 = dev.tensor(np.ones(4, np.int32))
    # self first, then gradOutput
    assert _p1(i32, i32, f32)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == (
        f"{PREFIX}Tensor self not implemented for DT_INT32, should be in dtype support list "
        "[DT_FLOAT,DT_FLOAT16,DT_BFLOAT16,]." + "\n"
    )
    assert _p1(i32, f32, f32)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg().startswith(f"{PREFIX}Tensor gradOutput not implemented for DT_INT32")
    # gradOutput must match self, then out must match self
    assert _p1(f16, f32, f32)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == f"{PREFIX}Tensor gradOutput expected dtype is DT_FLOAT but found DT_FLOAT16." + "\n"
    assert _p1(f32, f32, f16)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == f"{PREFIX}Tensor out expected dtype is DT_FLOAT but found DT_FLOAT16." + "\n"
    # the out dtype is not checked against the list, only against self
    out_i32 = dev.tensor(np.ones(4, np.int32))
    assert _p1(f32, f32, out_i32)[0] == ACLNN_ERR_PARAM_INVALID
    assert "expected dtype is DT_FLOAT but found DT_INT32" in aclGetRecentErrMsg()


def test_shape_rows_in_order(dev):
    a = dev.tensor(np.ones((4, 2), np.float32))
    b = dev.tensor(np.ones((2, 4), np.float32))
    r9 = dev.tensor(np.ones((1,) * 9, np.float32))
    assert _p1(r9, a, a)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == f"{PREFIX}The gradOutput tensor cannot be larger than 8 dimensions." + "\n"
    assert _p1(a, r9, a)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == f"{PREFIX}The self tensor cannot be larger than 8 dimensions." + "\n"
    assert _p1(b, a, a)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == (
        f"{PREFIX}Expected tensor for gradOutput to have same size as tensor for self, but [2, 4] does not equal [4, 2]."
        + "\n"
    )
    assert _p1(a, a, b)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == (
        f"{PREFIX}Expected tensor for out to have same size as tensor for self, but [2, 4] does not equal [4, 2]."
        + "\n"
    )


def test_dtype_check_comes_before_shape_check(dev):
    i32 = dev.tensor(np.ones((1,) * 9, np.int32))
    f32 = dev.tensor(np.ones(4, np.float32))
    assert _p1(f32, i32, f32)[0] == ACLNN_ERR_PARAM_INVALID
    assert "not implemented for DT_INT32" in aclGetRecentErrMsg()


@pytest.mark.parametrize(
    "chip,bf16_ok",
    [("Ascend910B", True), ("Ascend910_93", True), ("Ascend950", True), ("Ascend910", False), ("Ascend310P", False)],
)
def test_bf16_support_per_chip(soc, chip, bf16_ok):
    soc(chip)
    dev = Dev()
    try:
        g, s, o = (dev.tensor(np.ones(4, BF16)) for _ in range(3))
        code, _, ex = _p1(g, s, o)
        if bf16_ok:
            assert code == 0
            assert aclDestroyAclOpExecutor(ex.value) == 0
        else:
            assert code == ACLNN_ERR_PARAM_INVALID
            assert aclGetRecentErrMsg().endswith("should be in dtype support list [DT_FLOAT,DT_FLOAT16,]." + "\n")
    finally:
        dev.close()


def test_empty_and_zero_d(dev):
    e = [dev.tensor(np.ones((3, 0), np.float32)) for _ in range(3)]
    code, ws, ex = _p1(*e)
    assert code == 0 and ws.value == 0 and not ex.value.launches
    assert P2(None, 0, ex.value, dev.stream) == 0
    g, s, o = dev.tensor(np.float32(2.0)), dev.tensor(np.float32(1.0)), dev.tensor(np.float32(0))
    assert dev.run(P1, P2, g, s, o) == (0, 0, 0)
    assert dev.read(o) == np.float32(2.0) * (np.float32(1.0) * np.float32(1 / 3) + np.float32(0.5))


def _run(dev, g, x):
    gt, xt = dev.tensor(g), dev.tensor(x)
    ot = dev.tensor(np.zeros(x.shape, x.dtype))
    assert dev.run(P1, P2, gt, xt, ot) == (0, 0, 0), aclGetRecentErrMsg()
    return dev.read(ot)


EDGES = np.array(
    [-4, -3, -2.9999998, -1, -0.0, 0, 1e-39, 1, 2, 2.9999998, 3, 3.0000002, 4, np.inf, -np.inf, np.nan], np.float32
)


@pytest.mark.parametrize("dtype", [np.float32, np.float16, BF16], ids=["f32", "f16", "bf16"])
def test_bit_exact_against_the_tbe_recipe(dev, dtype):
    rng = np.random.default_rng(5)
    x = np.concatenate([EDGES, rng.uniform(-5, 5, 500).astype(np.float32)]).astype(dtype)
    g = np.concatenate([np.full(EDGES.size, 2.5, np.float32), rng.standard_normal(500).astype(np.float32)]).astype(
        dtype
    )
    out = _run(dev, g, x)
    assert_bits_equal(out, goldens.hardswish_tbe(g, x, dtype))
    ref = goldens.hardswish_reference(g, x)
    finite = np.isfinite(x.astype(np.float64))
    tol = {np.dtype(np.float32): 1e-6, np.dtype(np.float16): 2e-3, BF16: 1.6e-2}[np.dtype(dtype)]
    np.testing.assert_allclose(out.astype(np.float64)[finite], ref[finite], rtol=tol, atol=tol)


def test_tbe_boundaries_and_nan(dev):
    x = np.array([-3, 3, np.nan], np.float32)
    g = np.array([2, 2, 7], np.float32)
    assert _run(dev, g, x).tolist() == [-1.0, 3.0, 1.0]  # -0.5*g, 1.5*g, NaN x -> 1.0 (f32)
    out16 = _run(dev, g.astype(np.float16), x.astype(np.float16))
    assert np.isnan(out16[2])  # the f16 kernel does not fix NaN up


def test_ascend950_recipe(soc):
    soc("Ascend950")
    dev = Dev()
    try:
        x = np.concatenate([EDGES, np.linspace(-5, 5, 101, dtype=np.float32)])
        g = np.linspace(-2, 2, x.size).astype(np.float32)
        out = _run(dev, g, x)
        assert_bits_equal(out, goldens.hardswish_arch35(g, x, np.float32))
        assert out[-1 - 101] == g[-1 - 101]  # NaN x gives g on Ascend950
    finally:
        dev.close()


def test_one_third_is_multiplied_not_divided(dev):
    x = np.array([0.1], np.float32)
    g = np.array([1.0], np.float32)
    out = _run(dev, g, x)
    third = np.float32(x[0] * np.float32(1 / 3)) + np.float32(0.5)
    assert out[0] == third


def test_sample_values_and_graph(dev):
    x = np.arange(8, dtype=np.float32).reshape(4, 2)
    g, s, o = dev.tensor(x), dev.tensor(x), dev.tensor(np.zeros((4, 2), np.float32))
    code, ws, ex = _p1(g, s, o)
    assert code == 0 and ws.value == 0
    assert [st.name for st in ex.value.steps] == ["Contiguous", "Contiguous", "HardSwishGrad", "ViewCopy"]
    assert ex.value.steps[0].inputs[0] is s  # self is made contiguous first
    assert P2(None, 0, ex.value, dev.stream) == 0
    out = dev.read(o).reshape(-1)
    assert out.view(np.uint32).tolist() == [
        0x00000000, 0x3F555556, 0x40155556, 0x40900000, 0x40800000, 0x40A00000, 0x40C00000, 0x40E00000,
    ]  # fmt: skip


def test_non_contiguous_views_in_and_out(dev):
    rng = np.random.default_rng(2)
    xs = rng.uniform(-5, 5, (3, 8)).astype(np.float16)
    gs = rng.standard_normal((8, 3)).astype(np.float16)
    x = dev.strided(xs, (8, 3), (1, 8))  # transposed
    g = dev.strided(gs, (8, 3), (3, 1))  # contiguous
    o = dev.strided(np.zeros((3, 8), np.float16), (8, 3), (1, 8))  # transposed output
    ws, ex = Ref(0), Ref()
    assert P1(g, x, o, ws, ex) == 0
    assert [ln.op_type for ln in ex.value.launches] == ["Transpose", "HardSwishGrad", "Transpose"]
    assert ws.value == 2 * 512
    assert P2(dev.workspace(ws.value), ws.value, ex.value, dev.stream) == 0
    assert_bits_equal(dev.read(o), goldens.hardswish_tbe(gs, xs.T.copy(), np.float16))


def test_view_outside_its_storage_is_refused_at_contiguous(dev):
    x = dev.strided(np.ones(4, np.float32), (4,), (2,))  # reaches element 6 of a 4-element storage
    g = dev.tensor(np.ones(4, np.float32))
    o = dev.tensor(np.ones(4, np.float32))
    assert _p1(g, x, o)[0] == 561103
    msg = aclGetRecentErrMsg()
    assert msg.startswith("AclNN_Parameter_Error(EZ1001): ViewShape overlap.")
    assert "Invalid input tensor: aclTensor(view_shape = [4], view_strides = [2]" in msg


def test_negative_dimension_fails_in_the_kernels_tiling(dev):
    """No op_api check refuses a negative dimension; the kernel's tiling does (an l0 nullptr)."""
    from aclnn_py import ACL_FLOAT, ACL_FORMAT_ND, ACLNN_ERR_INNER_NULLPTR, aclCreateTensor

    ptr = dev.malloc(64)
    t = [aclCreateTensor([2, -1], 2, ACL_FLOAT, None, 0, ACL_FORMAT_ND, [2], 1, ptr) for _ in range(3)]
    assert _p1(*t)[0] == ACLNN_ERR_INNER_NULLPTR
    lines = aclGetRecentErrMsg().splitlines()
    assert lines[0].startswith("Execution_Error(EZ1008): Failed to execute operator aclnnHardswishBackward_")
    assert lines[0].endswith("_HardSwishGrad. Reason: Failed to execute tiling.")
    assert lines[1].startswith("        Solution: 1.If the tiling function does not exist")
    assert lines[2:] == [
        "TraceBack (most recent call last):",
        "        the tiling of HardSwishGrad cannot handle the negative dimension of [2, -1] (Ascend950's broadcast "
        "tiling refuses it; what the other chips' closed tiling does is not public)",
        "        HardSwishGradAiCore ADD_TO_LAUNCHER_LIST_AICORE failed.",
    ]
    # strides that reach before the storage: l0 Contiguous refuses the view first
    from aclnn_py import aclDestroyTensor

    odd = aclCreateTensor([2, -1], 2, ACL_FLOAT, [1, 1], 0, ACL_FORMAT_ND, [2], 1, ptr)
    assert _p1(odd, odd, odd)[0] == ACLNN_ERR_INNER_NULLPTR
    assert aclGetRecentErrMsg().startswith("AclNN_Parameter_Error(EZ1001): ViewShape overlap.\n")
    for x in (*t, odd):
        aclDestroyTensor(x)
