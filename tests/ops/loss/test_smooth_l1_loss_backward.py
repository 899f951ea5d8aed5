"""aclnnSmoothL1LossBackward: every error row in CANN's order, dtypes, broadcast, layouts, numbers."""

from __future__ import annotations

import goldens
import ml_dtypes
import numpy as np
import pytest
from helpers import assert_bits_equal

from aclnn_py import (
    ACL_DOUBLE,
    ACL_FORMAT_NCHW,
    ACL_FORMAT_ND,
    ACL_INT32,
    ACLNN_ERR_PARAM_INVALID,
    ACLNN_ERR_PARAM_NULLPTR,
    Ref,
    aclGetFormat,
    aclGetRecentErrMsg,
    aclnnSmoothL1LossBackward,
    aclnnSmoothL1LossBackwardGetWorkspaceSize,
)  # fmt: skip

BF16 = np.dtype(ml_dtypes.bfloat16)
P1, P2 = aclnnSmoothL1LossBackwardGetWorkspaceSize, aclnnSmoothL1LossBackward


def _phase1(dev, g, s, t, out, reduction=0, beta=1.0):
    ws, ex = Ref(0), Ref()
    return P1(g, s, t, reduction, beta, out, ws, ex), ws, ex


def _four(dev, dtype=np.float32, shape=(4, 2)):
    return [dev.tensor(np.ones(shape, dtype)) for _ in range(4)]


# -- error rows ----------------------------------------------------------------------------------


@pytest.mark.parametrize("which,name", [(0, "gradOut"), (1, "self"), (2, "target"), (3, "gradInput")])
def test_null_tensor_gives_161001_naming_the_argument(dev, which, name):
    args = _four(dev)
    args[which] = None
    code, ws, ex = _phase1(dev, *args)
    assert code == ACLNN_ERR_PARAM_NULLPTR
    assert (
        aclGetRecentErrMsg()
        == f"AclNN_Parameter_Error(EZ1001): Expected a proper Tensor but got null for argument {name}." + "\n"
    )
    assert ws.value == 0 and ex.value is None  # out-parameters untouched


def test_null_out_pointers_give_161001_before_any_tensor_check(dev):
    g, s, t, o = _four(dev)
    assert P1(None, s, t, 0, 1.0, o, None, Ref()) == ACLNN_ERR_PARAM_NULLPTR
    assert aclGetRecentErrMsg() == "AclNN_Parameter_Error(EZ1001): The workspaceSize or executor is nullptr." + "\n"
    assert P1(g, s, t, 0, 1.0, o, Ref(), None) == ACLNN_ERR_PARAM_NULLPTR
    aclGetRecentErrMsg()


@pytest.mark.parametrize("which,name", [(0, "gradOut"), (1, "self"), (2, "target"), (3, "gradInput")])
@pytest.mark.parametrize("bad", [ACL_INT32, ACL_DOUBLE])
def test_unsupported_dtype_gives_161002_with_the_support_list(dev, which, name, bad):
    args = _four(dev)
    args[which] = dev.tensor(np.ones((4, 2), np.float32), acl_dtype=bad)
    code, _, _ = _phase1(dev, *args)
    assert code == ACLNN_ERR_PARAM_INVALID
    dt = {ACL_INT32: "DT_INT32", ACL_DOUBLE: "DT_DOUBLE"}[bad]
    assert aclGetRecentErrMsg() == (
        f"AclNN_Parameter_Error(EZ1001): Tensor {name} not implemented for {dt}, "
        "should be in dtype support list [DT_FLOAT,DT_FLOAT16,DT_BFLOAT16,]." + "\n"
    )


@pytest.mark.parametrize("chip", ["Ascend910", "Ascend310P"])
def test_bf16_only_where_the_chip_supports_it(soc, chip):
    soc(chip)
    from helpers import Dev

    dev = Dev()
    try:
        args = [dev.tensor(np.ones(4, BF16)) for _ in range(4)]
        code, _, _ = _phase1(dev, *args)
        assert code == ACLNN_ERR_PARAM_INVALID
        assert "should be in dtype support list [DT_FLOAT,DT_FLOAT16,]." in aclGetRecentErrMsg()
    finally:
        dev.close()


def test_rank_above_8_is_refused_but_gradinput_rank_is_not_checked(dev):
    big = (1,) * 9
    g, s, t = (
        dev.tensor(np.ones(big, np.float32)),
        dev.tensor(np.ones(4, np.float32)),
        dev.tensor(np.ones(4, np.float32)),
    )
    code, _, _ = _phase1(dev, g, s, t, dev.tensor(np.ones(big, np.float32)))
    assert code == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg().endswith("expected tensor must have at most 8 dimensions, but got 9." + "\n")


@pytest.mark.parametrize("reduction", [-1, 3, 2**40])
def test_reduction_out_of_range(dev, reduction):
    code, _, _ = _phase1(dev, *_four(dev), reduction=reduction)
    assert code == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg().endswith(f"Reduction should be between 0 and 2, but got {reduction}" + "\n")


@pytest.mark.parametrize("beta", [-1.0, -1e-30, float("nan"), float("-inf")])
def test_negative_or_nan_beta(dev, beta):
    code, _, _ = _phase1(dev, *_four(dev), beta=beta)
    assert code == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg().endswith("beta should be greater than or equal to 0" + "\n")


def test_broadcast_failure_reports_ez1007_then_the_op_message(dev):
    g = dev.tensor(np.ones((3, 2), np.float32))
    s = dev.tensor(np.ones((4, 2), np.float32))
    t = dev.tensor(np.ones((4, 2), np.float32))
    code, _, _ = _phase1(dev, g, s, t, dev.tensor(np.ones((4, 2), np.float32)))
    assert code == ACLNN_ERR_PARAM_INVALID
    msg = aclGetRecentErrMsg().splitlines()
    assert msg[0].startswith(
        "Invalid_Argument_Tensor_Input_Shape(EZ1007): Shape [4, 2] of the tensor of operator aclnnSmoothL1LossBackward_"
    )
    assert msg[0].endswith(
        "has incorrect dimension 4. Reason: The tensor whose shape is [4, 2] and the tensor whose shape is "
        "[3, 2] do not meet the broadcast condition."
    )
    assert msg[1] == "TraceBack (most recent call last):"
    assert msg[2] == "        Broadcast [3, 2] and [4, 2] failed."


def test_broadcast_failure_names_the_last_failing_dimension_first(dev):
    g = dev.tensor(np.ones((3, 5), np.float32))
    s = dev.tensor(np.ones((4, 6), np.float32))
    code, _, _ = _phase1(dev, g, s, s, dev.tensor(np.ones((4, 6), np.float32)))
    assert code == ACLNN_ERR_PARAM_INVALID
    first = aclGetRecentErrMsg().splitlines()[0]
    assert first.endswith(
        "has incorrect dimension 6. Reason: The tensor whose shape is [4, 6] and the tensor whose shape is "
        "[3, 5] do not meet the broadcast condition."
    )


def test_result_shape_must_equal_gradinput(dev):
    g, s, t = (dev.tensor(np.ones((4, 2), np.float32)) for _ in range(3))
    code, _, _ = _phase1(dev, g, s, t, dev.tensor(np.ones((2, 4), np.float32)))
    assert code == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg().endswith(
        "Exepected tensor for result to have same size as tensor for gradInput, but [4, 2] does not equal [2, 4]."
        + "\n"
    )


def test_check_order(dev):
    ok = dev.tensor(np.ones(4, np.float32))
    bad_dtype = dev.tensor(np.ones(4, np.int32))
    rank9 = dev.tensor(np.ones((1,) * 9, np.float32))
    # null beats dtype
    assert _phase1(dev, None, bad_dtype, ok, ok)[0] == ACLNN_ERR_PARAM_NULLPTR
    # dtype beats rank
    assert _phase1(dev, rank9, bad_dtype, ok, ok)[0] == ACLNN_ERR_PARAM_INVALID
    assert "not implemented for DT_INT32" in aclGetRecentErrMsg()
    # rank beats reduction, reduction beats beta
    assert _phase1(dev, rank9, ok, ok, ok, reduction=5)[0] == ACLNN_ERR_PARAM_INVALID
    assert "at most 8 dimensions" in aclGetRecentErrMsg()
    assert _phase1(dev, ok, ok, ok, ok, reduction=5, beta=-1)[0] == ACLNN_ERR_PARAM_INVALID
    assert "Reduction" in aclGetRecentErrMsg()
    # beta beats broadcast
    other = dev.tensor(np.ones(3, np.float32))
    assert _phase1(dev, other, ok, ok, ok, beta=-1)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg().endswith("beta should be greater than or equal to 0" + "\n")
    # the empty shortcut comes after every check
    empty = dev.tensor(np.ones((0, 4), np.float32))
    assert _phase1(dev, empty, empty, empty, empty, reduction=3)[0] == ACLNN_ERR_PARAM_INVALID
    aclGetRecentErrMsg()


def test_arguments_that_c_could_not_pass(dev):
    g, s, t, o = _four(dev)
    assert P1(np.ones(3), s, t, 0, 1.0, o, Ref(), Ref()) == ACLNN_ERR_PARAM_INVALID
    assert "must be an aclTensor" in aclGetRecentErrMsg()
    assert P1(g, s, t, "mean", 1.0, o, Ref(), Ref()) == ACLNN_ERR_PARAM_INVALID
    assert P1(g, s, t, 0, "1.0", o, Ref(), Ref()) == ACLNN_ERR_PARAM_INVALID
    assert P1(g, s, t, 0, 1.0, o, 5, Ref()) == ACLNN_ERR_PARAM_INVALID
    aclGetRecentErrMsg()


# -- empty tensors ---------------------------------------------------------------------------------


def test_empty_tensors_succeed_with_no_kernel_and_no_workspace(dev):
    e = [dev.tensor(np.ones((2, 0), np.float32)) for _ in range(4)]
    code, ws, ex = _phase1(dev, *e, reduction=1)
    assert code == 0 and ws.value == 0 and ex.value.launches == []
    assert P2(None, 0, ex.value, dev.stream) == 0


# -- numbers -----------------------------------------------------------------------------------------


def _run(dev, g, s, t, out_dtype, reduction=0, beta=1.0):
    gt, st, tt = dev.tensor(g), dev.tensor(s), dev.tensor(t)
    shape = np.broadcast_shapes(g.shape, s.shape, t.shape)
    ot = dev.tensor(np.zeros(shape, out_dtype))
    assert dev.run(P1, P2, gt, st, tt, reduction, beta, ot) == (0, 0, 0), aclGetRecentErrMsg()
    return dev.read(ot)


def _promote(*dts):
    if len(set(dts)) == 1:
        return dts[0]
    return np.dtype(np.float32)


REDUCTIONS = {0: "none", 1: "mean", 2: "sum"}


@pytest.mark.parametrize("dtype", [np.float32, np.float16, BF16], ids=["f32", "f16", "bf16"])
@pytest.mark.parametrize("reduction", [0, 1, 2])
def test_bit_exact_against_the_tbe_recipe(dev, dtype, reduction):
    rng = np.random.default_rng(reduction)
    n = 257
    s = (rng.standard_normal(n) * 2).astype(dtype)
    t = (rng.standard_normal(n) * 2).astype(dtype)
    g = rng.standard_normal(n).astype(dtype)
    out = _run(dev, g, s, t, dtype, reduction, 1.0)
    assert_bits_equal(out, goldens.smooth_l1_tbe(s, t, g, 1.0, REDUCTIONS[reduction], dtype))
    ref = goldens.smooth_l1_reference(s, t, g, 1.0, REDUCTIONS[reduction])
    tol = {np.dtype(np.float32): 1e-5, np.dtype(np.float16): 2e-3, BF16: 1.6e-2}[np.dtype(dtype)]
    np.testing.assert_allclose(out.astype(np.float64), ref, rtol=tol, atol=tol)


@pytest.mark.parametrize("beta", [0.0, 1e-7, 0.5, 1.0, 1.7, 2.9, 41.0, 1e30])
def test_beta_edges_including_the_boundary_x_equal_beta(dev, beta):
    b32 = float(np.float32(beta))
    x = np.array(
        [-2 * b32, -b32, -b32 / 2, -0.0, 0.0, b32 / 2, b32, 2 * b32, 3.0, -3.0, np.nan, np.inf, -np.inf], np.float32
    )
    s = x.copy()
    t = np.zeros_like(x)
    g = np.linspace(0.5, 2.0, x.size).astype(np.float32)
    out = _run(dev, g, s, t, np.float32, 0, beta)
    assert_bits_equal(out, goldens.smooth_l1_tbe(s, t, g, beta, "none", np.float32))


@pytest.mark.parametrize(
    "gs,ss,ts",
    [((4, 3), (4, 3), (3,)), ((), (2, 3), (2, 3)), ((1,), (5, 1, 3), (4, 1)), ((2, 1, 3), (3,), (1, 4, 1))],
)
@pytest.mark.parametrize("reduction", [0, 1])
def test_broadcast_shapes_and_the_mean_divisor_is_numel_of_self(dev, gs, ss, ts, reduction):
    rng = np.random.default_rng(7)
    g = rng.standard_normal(gs).astype(np.float32)
    s = (rng.standard_normal(ss) * 2).astype(np.float32)
    t = (rng.standard_normal(ts) * 2).astype(np.float32)
    out = _run(dev, g, s, t, np.float32, reduction)
    assert_bits_equal(out, goldens.smooth_l1_tbe(s, t, g, 1.0, REDUCTIONS[reduction], np.float32))
    np.testing.assert_allclose(
        out, goldens.smooth_l1_reference(s, t, g, 1.0, REDUCTIONS[reduction]), rtol=1e-5, atol=1e-6
    )


@pytest.mark.parametrize(
    "dg,ds,dt,dout",
    [
        (np.float16, BF16, np.float32, np.float32),
        (np.float16, np.float16, np.float16, np.float32),
        (np.float32, np.float32, np.float32, np.float16),
        (BF16, np.float16, BF16, BF16),
    ],
)
def test_dtype_mixes_promote_then_cast_to_gradinput(dev, dg, ds, dt, dout):
    rng = np.random.default_rng(3)
    g = rng.standard_normal(64).astype(dg)
    s = (rng.standard_normal(64) * 2).astype(ds)
    t = (rng.standard_normal(64) * 2).astype(dt)
    promote = _promote(np.dtype(dg), np.dtype(ds), np.dtype(dt))
    gt, st, tt = dev.tensor(g), dev.tensor(s), dev.tensor(t)
    ot = dev.tensor(np.zeros(64, dout))
    ws, ex = Ref(0), Ref()
    assert P1(gt, st, tt, 2, 1.0, ot, ws, ex) == 0
    kernels = [ln.op_type for ln in ex.value.launches]
    casts_in = sum(np.dtype(d) != promote for d in (dg, ds, dt))
    cast_out = int(np.dtype(dout) != promote)
    assert kernels == ["Cast"] * casts_in + ["SmoothL1LossGradV2"] + ["Cast"] * cast_out
    assert P2(dev.workspace(ws.value), ws.value, ex.value, dev.stream) == 0
    out = dev.read(ot)
    inner = goldens.smooth_l1_tbe(s.astype(promote), t.astype(promote), g.astype(promote), 1.0, "sum", promote)
    assert_bits_equal(out, inner.astype(np.float32).astype(dout) if cast_out else inner)


def test_ascend950_uses_its_own_recipe(soc):
    soc("Ascend950")
    from helpers import Dev

    dev = Dev()
    try:
        x = np.array([-1.7, -0.85, 0.0, 0.85, 1.7, 3.0, np.nan], np.float32)
        t = np.zeros_like(x)
        # tensor dout: strict compares, x*fl(1/beta) at |x| == beta
        g = np.full(x.shape, 2.0, np.float32)
        out = _run(dev, g, x, t, np.float32, 0, 1.7)
        assert_bits_equal(out, goldens.smooth_l1_arch35(x, t, g, 1.7, "none", np.float32))
        assert out[0] == np.float32(-2 * 0.99999994)
        # scalar dout: non-strict compares
        g1 = np.array(2.0, np.float32)
        out = _run(dev, g1, x, t, np.float32, 1, 1.7)
        assert_bits_equal(out, goldens.smooth_l1_arch35(x, t, g1, 1.7, "mean", np.float32))
        # beta == 0: x == 0 gives NaN with a tensor dout, 0 with a scalar dout
        out = _run(dev, g, x, t, np.float32, 0, 0.0)
        assert np.isnan(out[2]) and out[0] == -2
        out = _run(dev, g1, x, t, np.float32, 0, 0.0)
        assert out[2] == 0
    finally:
        dev.close()


def test_tbe_beta_zero_and_nan_rules(dev):
    x = np.array([-1.0, 0.0, 1.0, np.nan], np.float32)
    t = np.zeros_like(x)
    g = np.full(x.shape, 3.0, np.float32)
    out = _run(dev, g, x, t, np.float32, 0, 0.0)
    assert out.tolist() == [-3.0, 0.0, 3.0, 0.0]  # NaN x -> 0 when beta == 0
    out = _run(dev, g, x, t, np.float32, 0, 1.0)
    assert np.isnan(out[3])  # ... but NaN when beta > 0


# -- layouts -------------------------------------------------------------------------------------


def test_non_contiguous_inputs_and_output_give_the_same_numbers(dev):
    rng = np.random.default_rng(11)
    base = (rng.standard_normal((6, 5)) * 2).astype(np.float32)
    # self: a transposed view (5, 6) of a (6, 5) storage
    s = dev.strided(base, (5, 6), (1, 5))
    s_host = base.T.copy()
    # target: a slice rows 1..5, cols 0..6 of an (7, 6) storage, with an offset
    big = (rng.standard_normal((7, 6)) * 2).astype(np.float32)
    t = dev.strided(big, (5, 6), (6, 1), offset=6)
    t_host = big[1:6].copy()
    # gradOut: a stepped slice
    gbig = rng.standard_normal((5, 12)).astype(np.float32)
    g = dev.strided(gbig, (5, 6), (12, 2))
    g_host = gbig[:, ::2].copy()
    # gradInput: transposed output
    o = dev.strided(np.zeros((6, 5), np.float32), (5, 6), (1, 5))
    ws, ex = Ref(0), Ref()
    assert P1(g, s, t, 0, 1.0, o, ws, ex) == 0
    kinds = [ln.op_type for ln in ex.value.launches]
    assert kinds == ["StridedSlice", "Transpose", "SmoothL1LossGradV2", "Transpose"]
    assert ws.value > 0
    assert P2(dev.workspace(ws.value), ws.value, ex.value, dev.stream) == 0
    out = dev.read(o)
    assert_bits_equal(out, goldens.smooth_l1_tbe(s_host, t_host, g_host, 1.0, "none", np.float32))


def test_reformat_relabels_the_callers_input_to_nd(dev):
    g, s, t = (dev.tensor(np.ones((2, 2, 2, 2), np.float32), fmt=ACL_FORMAT_NCHW) for _ in range(3))
    o = dev.tensor(np.zeros((2, 2, 2, 2), np.float32), fmt=ACL_FORMAT_NCHW)
    fmt = Ref()
    assert aclGetFormat(s, fmt) == 0 and fmt.value == ACL_FORMAT_NCHW
    assert dev.run(P1, P2, g, s, t, 0, 1.0, o) == (0, 0, 0)
    assert aclGetFormat(s, fmt) == 0 and fmt.value == ACL_FORMAT_ND  # CANN's in-place side effect
    assert aclGetFormat(o, fmt) == 0 and fmt.value == ACL_FORMAT_NCHW


def test_executor_graph_of_the_sample(dev):
    g, s, t, o = _four(dev)
    code, ws, ex = _phase1(dev, g, s, t, o)
    assert code == 0 and ws.value == 0
    names = [st.name for st in ex.value.steps]
    assert names == ["Contiguous"] * 3 + ["Cast"] * 3 + ["ReFormat"] * 3 + ["SmoothL1LossGradV2", "Cast", "ViewCopy"]
    assert [ln.op_type for ln in ex.value.launches] == ["SmoothL1LossGradV2"]
    text = str(ex.value)
    assert "kernel #0 SmoothL1LossGradV2" in text and "@ gradInput" in text
    assert P2(None, 0, ex.value, dev.stream) == 0


def test_ascend910_writes_through_a_copy_when_the_output_has_a_tail(soc):
    soc("Ascend910")
    from helpers import Dev

    dev = Dev()
    try:
        g, s = (dev.tensor(np.full(4, 2.0, np.float32)) for _ in range(2))
        t = dev.tensor(np.array([0.0, 1.5, 2.0, 5.0], np.float32))
        storage = np.zeros(6, np.float32)
        o = dev.strided(storage, (4,), (1,), offset=1)  # storage numel 6 != 4 + 1
        ws, ex = Ref(0), Ref()
        assert P1(g, s, t, 0, 1.0, o, ws, ex) == 0
        assert [ln.op_type for ln in ex.value.launches] == ["SmoothL1LossGradV2", "MemcpyD2D"]
        assert ws.value == 512
        assert P2(dev.workspace(ws.value), ws.value, ex.value, dev.stream) == 0
        expected = goldens.smooth_l1_tbe(
            np.full(4, 2.0, np.float32),
            np.array([0.0, 1.5, 2.0, 5.0], np.float32),
            np.full(4, 2.0, np.float32),
            1.0,
            "none",
            np.float32,
        )
        assert_bits_equal(dev.read(o), expected)
        assert expected[1] == np.float32(0.5 / np.float32(1 + np.float32(1e-6)) * 2)  # the slope is 1/(beta+1e-6)
    finally:
        dev.close()


def test_ascend950_compares_beta_with_1e6_in_float32(soc):
    """The arch35 tiling tests ``fabsf(sigma) < 1e-6f``: beta = 1e-6 is not below it, so the slope
    is 1e6 and the results are finite (a double comparison would give NaN everywhere)."""
    soc("Ascend950")
    from helpers import Dev

    dev = Dev()
    try:
        beta = np.float32(1e-6)
        x = np.array([0.0, 5e-7, float(beta), -float(beta), 1.0], np.float32)
        t = np.zeros_like(x)
        g = np.full(x.shape, 2.0, np.float32)
        out = _run(dev, g, x, t, np.float32, 0, 1e-6)
        assert np.isfinite(out).all()
        assert out[0] == 0 and out[2] == 2.0 and out[3] == -2.0 and out[4] == 2.0
        assert_bits_equal(out, goldens.smooth_l1_arch35(x, t, g, 1e-6, "none", np.float32))
        # just below the threshold the slope is NaN, as in CANN
        below = float(np.nextafter(beta, np.float32(0)))
        out = _run(dev, g, x, t, np.float32, 0, below)
        assert np.isnan(out[0]) and out[4] == 2.0
    finally:
        dev.close()


@pytest.mark.parametrize(
    "shape,differs",
    [((5, 23), True), ((7, 5), True), ((11, 13), True), ((5, 7), False), ((3, 5), False), ((2, 3, 4), False)],
)
def test_tbe_mean_factor_divides_by_each_dim_in_float32(dev, shape, differs):
    """The legacy tiling computes reduce_mean_cof as ((1f / d0) / d1) / ...; for some shapes that
    is one ulp away from float32(1 / numel), which the Ascend950 tiling uses."""
    from aclnn_py.kernels import smooth_l1_loss_grad_v2 as kernel

    cof, exact = kernel.tbe_mean_factor(shape), kernel.arch35_mean_factor(shape)
    assert (cof != exact) == differs
    if differs:
        assert abs(int(cof.view(np.uint32)) - int(exact.view(np.uint32))) == 1
    x = np.full(shape, 3.0, np.float32)  # |x| > beta: r = d, times the mean factor
    t = np.zeros(shape, np.float32)
    g = np.ones(shape, np.float32)
    out = _run(dev, g, x, t, np.float32, 1, 1.0)
    assert (out.view(np.uint32) == cof.view(np.uint32)).all()
    assert_bits_equal(out, goldens.smooth_l1_tbe(x, t, g, 1.0, "mean", np.float32))


def test_negative_dimension_fails_in_the_kernels_tiling(dev):
    from aclnn_py import ACL_FLOAT, ACL_FORMAT_ND, ACLNN_ERR_INNER_NULLPTR, aclCreateTensor, aclDestroyTensor

    ptr = dev.malloc(64)
    t = [aclCreateTensor([2, -1], 2, ACL_FLOAT, None, 0, ACL_FORMAT_ND, [2], 1, ptr) for _ in range(4)]
    code, _, _ = _phase1(dev, *t)
    assert code == ACLNN_ERR_INNER_NULLPTR
    msg = aclGetRecentErrMsg()
    assert msg.startswith("Execution_Error(EZ1008): Failed to execute operator aclnnSmoothL1LossBackward_")
    assert msg.endswith("        SmoothL1LossGradV2 ADD_TO_LAUNCHER_LIST_AICORE failed.\n")
    for x in t:
        aclDestroyTensor(x)
