"""aclnnSmoothL1Loss: error rows in CANN's order, dtypes per chip, every branch of the graph
(BroadcastTo, casts, TransData to NC1HWC0 and back, ReFormat, the empty fills), the element-wise
loss bit for bit per chip, mean and sum against an independent golden of the implemented orders
and against float64."""

from __future__ import annotations

import math

import goldens
import ml_dtypes
import numpy as np
import pytest
from helpers import ACL_OF, Dev, assert_bits_equal

from aclnn_py import (
    ACL_COMPLEX64,
    ACL_FORMAT_NCHW,
    ACL_FORMAT_NHWC,
    ACLNN_ERR_INNER_NULLPTR,
    ACLNN_ERR_PARAM_INVALID,
    ACLNN_ERR_PARAM_NULLPTR,
    Ref,
    aclDestroyAclOpExecutor,
    aclGetRecentErrMsg,
    aclnnSmoothL1Loss,
    aclnnSmoothL1LossGetWorkspaceSize,
)
from aclnn_py import dtypes as D
from aclnn_py.ops.loss import smooth_l1_loss as facts

BF16 = np.dtype(ml_dtypes.bfloat16)
PREFIX = "AclNN_Parameter_Error(EZ1001): "
INNER = "AclNN_Inner_Error(EZ9999): "
CHIPS = ["Ascend910B", "Ascend910_93", "Ascend950", "Ascend910", "Ascend310P"]
P1, P2 = aclnnSmoothL1LossGetWorkspaceSize, aclnnSmoothL1Loss
MiB16 = 16 * 1024 * 1024


def _p1(*args):
    ws, ex = Ref(0), Ref()
    return P1(*args, ws, ex), ws, ex


def _graph(ex) -> list[str]:
    return [f"{ln.op_type}{'@AiCpu' if ln.engine == 'AiCpu' else ''}" for ln in ex.launches]


def _run(dev, *args):
    assert dev.run(P1, P2, *args) == (0, 0, 0), aclGetRecentErrMsg()


def _recipe(chip: str) -> str:
    return "arch35" if chip == "Ascend950" else "tbe"


# -- independent goldens: one element, one add at a time ------------------------------------------

r32 = goldens.r32


def inv_arch35(s: float) -> float:
    """The arch35 tiling: 0 when fabsf(sigma) < 1e-6f, else 1 / sigma."""
    return 0.0 if abs(s) < r32(1e-6) else r32(1.0 / s)


def loss_golden(p: float, lab: float, sigma: float, recipe: str) -> float:
    s = r32(sigma)
    inv = (math.inf if s == 0 else r32(1.0 / s)) if recipe == "tbe" else inv_arch35(s)
    d = r32(p - lab)
    h = r32(d * 0.5)
    m1 = r32(r32(h * d) * inv)
    a = abs(d)
    m2 = r32(a + r32(-0.5 * s))
    return m1 if a < s else m2


def tree(values: list[float]) -> float:
    while len(values) > 1:
        values = [r32(values[i] + values[i + 1]) for i in range(0, len(values), 2)]
    return values[0]


def sum_tbe_golden(vals: list[float]) -> float:
    lanes = [0.0] * 64
    for i, v in enumerate(vals):
        lanes[i % 64] = r32(lanes[i % 64] + v)
    return tree(lanes)


def _add(a: list[float], b: list[float]) -> list[float]:
    return [r32(x + y) for x, y in zip(a, b)]


def _halves(blocks: list[list[float]]) -> list[float]:
    while len(blocks) > 1:
        n = len(blocks) // 2
        blocks = [_add(blocks[i], blocks[i + n]) for i in range(n)]
    return blocks[0]


def sum_arch35_golden(vals: list[float]) -> float:
    n = len(vals)
    if n == 1:
        return vals[0]
    width = -(-n // 8) * 8
    x = vals + [0.0] * (width - n)
    if width <= 64:
        if width < 32:
            acc = x[:8]
            for b in range(1, width // 8):
                acc = _add(x[8 * b : 8 * b + 8], acc)
            return tree(acc)
        return tree(x + [0.0] * (64 - width))
    main = 1 << (width.bit_length() - 1)
    v = x[:main]
    for j in range(width - main):
        v[j] = r32(v[j] + x[main + j])
    blocks = [v[64 * b : 64 * b + 64] for b in range(main // 64)]
    for _ in range((len(blocks).bit_length() - 1) // 4):
        blocks = [_halves(blocks[16 * g : 16 * g + 16]) for g in range(len(blocks) // 16)]
    return tree(_halves(blocks))


def expected(p: np.ndarray, lab: np.ndarray, reduction: str, beta: float, chip: str, out_dtype=None) -> np.ndarray:
    """The chip's loss in the promoted dtype, then rounded to ``out_dtype`` (RNE casts)."""
    recipe = _recipe(chip)
    dt = np.dtype(p.dtype) if p.dtype == lab.dtype else np.dtype(np.float32)  # PromoteType of two floats
    pb, lb = np.broadcast_arrays(p.astype(np.float32), lab.astype(np.float32))
    shape = pb.shape
    vals = [loss_golden(float(a), float(b), beta, recipe) for a, b in zip(pb.reshape(-1), lb.reshape(-1))]
    if reduction == "none":
        out = goldens.round_to(vals, dt).reshape(shape)
    else:
        total = sum_tbe_golden(vals) if recipe == "tbe" else sum_arch35_golden(vals)
        if reduction == "mean":
            if recipe == "tbe":
                cof = 1.0
                for d in shape:
                    cof = r32(cof / d)
            else:
                cof = r32(1.0 / len(vals))
            total = r32(total * cof)
        out = goldens.round_to([total], dt).reshape(())
    if out_dtype is not None and np.dtype(out_dtype) != dt:
        out = goldens.round_to([float(v) for v in out.astype(np.float32).reshape(-1)], out_dtype).reshape(out.shape)
    return out


def reference(p, lab, reduction, beta) -> np.ndarray:
    d = p.astype(np.float64) - lab.astype(np.float64)
    a = np.abs(d)
    r = np.where(a < beta, 0.5 * d * d / beta, a - 0.5 * beta)
    return r if reduction == "none" else (r.mean() if reduction == "mean" else r.sum())


# -- error rows ------------------------------------------------------------------------------------


def _args(dev, shape=(3, 5), dtype=np.float32, result_shape=None, result_dtype=None):
    return [
        dev.tensor(np.ones(shape, dtype)), dev.tensor(np.zeros(shape, dtype)),
        dev.tensor(np.zeros(shape if result_shape is None else result_shape, result_dtype or dtype)),
    ]  # fmt: skip


def test_null_out_pointers_come_first(dev):
    s, t, r = _args(dev)
    assert P1(None, t, 1, 1.0, r, None, Ref()) == ACLNN_ERR_PARAM_NULLPTR
    assert aclGetRecentErrMsg() == f"{PREFIX}The workspaceSize or executor is nullptr.\n"
    assert P1(s, t, 1, 1.0, r, Ref(0), None) == ACLNN_ERR_PARAM_NULLPTR
    assert aclGetRecentErrMsg() == f"{PREFIX}The workspaceSize or executor is nullptr.\n"


@pytest.mark.parametrize("which,name", [(0, "self"), (1, "target"), (2, "result")])
def test_null_tensors(dev, which, name):
    args = _args(dev)
    args[which] = None
    code, _, ex = _p1(args[0], args[1], 1, 1.0, args[2])
    assert code == ACLNN_ERR_PARAM_NULLPTR and ex.value is None
    assert aclGetRecentErrMsg() == f"{PREFIX}Expected a proper Tensor but got null for argument {name}.\n"


ALL_DTYPES = [np.float32, np.float16, BF16, np.float64, np.int8, np.int32, np.int64, np.uint8, np.bool_]


@pytest.mark.parametrize("chip", CHIPS)
def test_every_dtype_per_chip(soc, chip):
    """self and target of one dtype, result of the same: accepted iff in the chip's list."""
    soc(chip)
    dev = Dev()
    try:
        supported = facts.dtype_support_list()
        big = ("Ascend910B", "Ascend910_93", "Ascend950")
        assert supported == ((D.DT_FLOAT, D.DT_FLOAT16, D.DT_BF16) if chip in big else (D.DT_FLOAT, D.DT_FLOAT16))
        rng = np.random.default_rng(1)
        for dt in map(np.dtype, ALL_DTYPES):
            acl = int(ACL_OF[dt])
            p = (rng.standard_normal((4, 6)) * 2).astype(dt)
            lab = (rng.standard_normal((4, 6)) * 2).astype(dt)
            for red, name in ((0, "none"), (2, "sum")):
                res = dev.tensor(np.zeros((4, 6) if red == 0 else (), dt))
                code, ws, ex = _p1(dev.tensor(p), dev.tensor(lab), red, 1.0, res)
                if acl not in supported:
                    assert code == ACLNN_ERR_PARAM_INVALID
                    assert aclGetRecentErrMsg() == (
                        f"{PREFIX}Tensor self not implemented for {D.dt_name(acl)}, should be in dtype support list "
                        f"{D.dt_list_str(supported)}.\n"
                    )
                    continue
                assert code == 0, aclGetRecentErrMsg()
                assert P2(dev.workspace(ws.value), ws.value, ex.value, dev.stream) == 0
                assert_bits_equal(dev.read(res), expected(p, lab, name, 1.0, chip))
    finally:
        dev.close()


def test_target_dtype_and_result_dtype_rows(dev):
    s, _, r = _args(dev)
    bad = dev.tensor(np.zeros((3, 5), np.int32))
    assert _p1(s, bad, 0, 1.0, r)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg().startswith(f"{PREFIX}Tensor target not implemented for DT_INT32")
    # result's dtype is not in any list: only CanCast(promoted, result) matters
    i32 = dev.tensor(np.zeros((3, 5), np.int32))
    assert _p1(s, s, 0, 1.0, i32)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == f"{PREFIX}Result type DT_FLOAT can't be cast to the desired output type DT_INT32.\n"
    f64 = dev.tensor(np.zeros((3, 5), np.float64))
    p = np.linspace(-3, 3, 15).astype(np.float32).reshape(3, 5)
    _run(dev, dev.tensor(p), s, 0, 1.0, f64)
    assert_bits_equal(
        dev.read(f64), expected(p, np.ones((3, 5), np.float32), "none", 1.0, "Ascend910B").astype(np.float64)
    )


@pytest.mark.parametrize("reduction", [3, -1, 2**40])
def test_reduction_row_comes_after_the_dtype_checks(dev, reduction):
    s, t, r = _args(dev)
    assert _p1(s, t, reduction, 1.0, r)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == f"{PREFIX}Reduction should be between 0 and 2, but current is {reduction}.\n"
    i = dev.tensor(np.zeros((3, 5), np.int32))
    assert _p1(s, t, reduction, 1.0, i)[0] == ACLNN_ERR_PARAM_INVALID
    assert "Result type DT_FLOAT" in aclGetRecentErrMsg()


def test_shape_rows(dev):
    r9 = dev.tensor(np.ones((1,) * 9, np.float32))
    s, t, r = _args(dev)
    assert _p1(r9, t, 1, 1.0, r)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == f"{PREFIX}The self tensor cannot be larger than 8 dimensions.\n"
    assert _p1(s, r9, 1, 1.0, r)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == f"{PREFIX}The target tensor cannot be larger than 8 dimensions.\n"
    a = dev.tensor(np.ones((4, 2), np.float32))
    b = dev.tensor(np.ones((3, 2), np.float32))
    assert _p1(a, b, 1, 1.0, r)[0] == ACLNN_ERR_PARAM_INVALID
    lines = aclGetRecentErrMsg().splitlines()
    assert lines[0].startswith(
        "Invalid_Argument_Tensor_Input_Shape(EZ1007): Shape [3, 2] of the tensor of operator aclnnSmoothL1Loss_"
    )
    assert lines[0].endswith(
        " has incorrect dimension 3. Reason: The tensor whose shape is [3, 2] and the tensor whose shape is [4, 2] "
        "do not meet the broadcast condition."
    )
    assert lines[1:] == [
        "TraceBack (most recent call last):",
        "        The size of tensor self [4, 2] must match the size of tensor target [3, 2].",
    ]
    wrong = dev.tensor(np.zeros((5, 3), np.float32))
    assert _p1(s, t, 0, 1.0, wrong)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == f"{PREFIX}Shape of result should be [3, 5], but current is [5, 3].\n"


def test_mean_and_sum_need_one_result_element_only_in_view_copy(dev):
    s, t, _ = _args(dev)
    one = dev.tensor(np.zeros((1, 1), np.float32))  # any one-element shape passes
    _run(dev, s, t, 1, 1.0, one)
    assert dev.read(one).tolist() == [[0.5]]
    two = dev.tensor(np.zeros(2, np.float32))
    assert _p1(s, t, 2, 1.0, two)[0] == ACLNN_ERR_INNER_NULLPTR
    assert aclGetRecentErrMsg() == (
        f"{PREFIX}Input tensor's shape[[]] should be same with output's shape[[2]].\n"
        "TraceBack (most recent call last):\n"
        "        Params check failed.\n"
        "        The reslut with ViewCopy return nullptr.\n"
    )


@pytest.mark.parametrize("beta", [-1.0, float("nan"), -1e-30])
def test_beta_row_is_the_last_check(dev, beta):
    s, t, r = _args(dev)
    assert _p1(s, t, 1, beta, r)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == f"{PREFIX}beta should be greater than or equal to 0\n"
    wrong = dev.tensor(np.zeros((5, 3), np.float32))
    assert _p1(s, t, 0, beta, wrong)[0] == ACLNN_ERR_PARAM_INVALID
    assert "Shape of result should be" in aclGetRecentErrMsg()


def test_beta_is_a_c_float(dev):
    """-0.0 and +inf pass; 1e-46 rounds to 0 as a C float."""
    p = np.array([0.5, -2.0, 1e-3, 0.0], np.float32)
    lab = np.zeros(4, np.float32)
    for beta in (-0.0, math.inf, 0.0, 1e-46, 0.3):
        r = dev.tensor(np.zeros(4, np.float32))
        _run(dev, dev.tensor(p), dev.tensor(lab), 0, beta, r)
        assert_bits_equal(dev.read(r), expected(p, lab, "none", float(np.float32(beta)), "Ascend910B"))


def test_regression_fuzz_a_beta_beyond_any_double_is_a_bad_argument(dev):
    """Fuzz campaign (seed 1, the registry-driven harness): a Python int beyond a double's range
    as ``float beta`` raised OverflowError out of phase 1. No C caller can pass such a value; it
    is now refused like any other non-number (161002)."""
    s, t, r = _args(dev)
    for beta in (2**1100, -(10**400)):
        assert _p1(s, t, 0, beta, r)[0] == ACLNN_ERR_PARAM_INVALID
        assert "for beta is invalid. Reason: it does not fit in a double." in aclGetRecentErrMsg()


# -- empty inputs ----------------------------------------------------------------------------------


def test_empty_none_does_nothing(dev):
    e = dev.tensor(np.ones((3, 0), np.float32))
    code, ws, ex = _p1(e, e, 0, 1.0, e)
    assert code == 0 and ws.value == 0 and not ex.value.launches
    assert P2(None, 0, ex.value, dev.stream) == 0


@pytest.mark.parametrize("dtype,nan_bits", [(np.float32, 0x7FC00000), (np.float16, 0x7FFF), (BF16, 0x7FC0)])
def test_empty_mean_fills_nan_and_sum_fills_zero(dev, dtype, nan_bits):
    e = dev.tensor(np.ones((3, 0), dtype))
    r = dev.tensor(np.full((), 7, dtype))  # UT ascend910B2_smooth_l1_loss_empty_tensor: result {}
    code, ws, ex = _p1(e, dev.tensor(np.ones((1, 0), dtype)), 1, 1.0, r)
    assert code == 0 and _graph(ex.value) == ["Fill"] and ws.value == 0  # Fill writes into result
    assert P2(dev.workspace(ws.value), ws.value, ex.value, dev.stream) == 0
    assert int(dev.read(r).reshape(1).view(np.uint16 if dtype != np.float32 else np.uint32)[0]) == nan_bits
    _run(dev, e, e, 2, 1.0, r)
    assert int(dev.read(r).reshape(1).view(np.uint16 if dtype != np.float32 else np.uint32)[0]) == 0


def test_empty_mean_into_double_uses_the_ai_cpu_fill(dev):
    e = dev.tensor(np.ones((0,), np.float32))
    r = dev.tensor(np.zeros((1,), np.float64))
    code, ws, ex = _p1(e, e, 1, 1.0, r)
    assert code == 0 and _graph(ex.value) == ["Fill@AiCpu"]
    assert P2(dev.workspace(ws.value), ws.value, ex.value, dev.stream) == 0
    assert np.isnan(dev.read(r)[0])


def test_empty_mean_into_more_than_one_element_fails(dev):
    e = dev.tensor(np.ones((2, 0), np.float32))
    r = dev.tensor(np.zeros((2,), np.float32))
    assert _p1(e, e, 1, 1.0, r)[0] == ACLNN_ERR_INNER_NULLPTR
    assert aclGetRecentErrMsg().startswith(
        f"{PREFIX}Input tensor's shape[[1]] should be same with output's shape[[2]]."
    )


def test_empty_mean_into_complex_is_undefined(dev, findings):
    e = dev.tensor(np.ones((2, 0), np.float32))
    r = dev.tensor(np.zeros((), np.complex64), acl_dtype=ACL_COMPLEX64)
    assert _p1(e, e, 1, 1.0, r)[0] == ACLNN_ERR_INNER_NULLPTR
    assert findings.refresh().checks() == ["undefined"]
    assert "ConvertToTensor cannot make a DT_COMPLEX64 value" in findings.text()
    assert "        aclOpExecutor::ConvertToTensor failed.\n" in aclGetRecentErrMsg()


# -- the graph -------------------------------------------------------------------------------------


def test_graph_same_shapes_and_dtypes(dev):
    code, ws, ex = _p1(*_args(dev)[:2], 0, 1.0, _args(dev)[2])
    assert code == 0 and _graph(ex.value) == ["SmoothL1LossV2"] and ws.value == 0
    assert [s.name for s in ex.value.steps] == [
        "Contiguous", "Contiguous", "Cast", "Cast", "SmoothL1LossV2", "ReFormat", "Cast", "ViewCopy",
    ]  # fmt: skip
    aclDestroyAclOpExecutor(ex.value)


def test_graph_broadcast_both_inputs_always(dev):
    rng = np.random.default_rng(3)
    p = rng.standard_normal((3, 5)).astype(np.float32)
    lab = rng.standard_normal((5,)).astype(np.float32)
    r = dev.tensor(np.zeros((3, 5), np.float32))
    code, ws, ex = _p1(dev.tensor(p), dev.tensor(lab), 0, 1.0, r)
    assert code == 0 and _graph(ex.value) == ["BroadcastTo", "BroadcastTo", "SmoothL1LossV2"]
    assert ws.value == 1024
    assert P2(dev.workspace(ws.value), ws.value, ex.value, dev.stream) == 0
    assert_bits_equal(dev.read(r), expected(p, lab, "none", 1.0, "Ascend910B"))


def test_graph_casts_to_the_promoted_type_and_to_result(dev):
    rng = np.random.default_rng(4)
    p = rng.standard_normal((2, 7)).astype(np.float16)
    lab = rng.standard_normal((2, 7)).astype(BF16)  # FLOAT16 + BFLOAT16 promote to FLOAT
    r = dev.tensor(np.zeros((2, 7), np.float16))
    code, ws, ex = _p1(dev.tensor(p), dev.tensor(lab), 0, 0.5, r)
    assert code == 0 and _graph(ex.value) == ["Cast", "Cast", "SmoothL1LossV2", "Cast"]
    assert P2(dev.workspace(ws.value), ws.value, ex.value, dev.stream) == 0
    assert_bits_equal(dev.read(r), expected(p, lab, "none", 0.5, "Ascend910B", np.float16))


def test_non_contiguous_inputs_and_output(dev):
    rng = np.random.default_rng(6)
    base = rng.standard_normal((5, 3)).astype(np.float32)
    s = dev.strided(base, (3, 5), (1, 3))  # transposed
    lab = rng.standard_normal((3, 5)).astype(np.float32)
    store = np.zeros((3, 10), np.float32)
    r = dev.strided(store, (3, 5), (10, 2))
    code, ws, ex = _p1(s, dev.tensor(lab), 0, 1.0, r)
    assert code == 0 and _graph(ex.value) == ["Transpose", "SmoothL1LossV2", "ViewCopy"]
    assert P2(dev.workspace(ws.value), ws.value, ex.value, dev.stream) == 0
    assert_bits_equal(dev.read(r), expected(base.T.copy(), lab, "none", 1.0, "Ascend910B"))


def test_zero_d_inputs(dev):
    p, lab = np.array(2.5, np.float32), np.array(0.25, np.float32)
    for red, name in ((0, "none"), (1, "mean"), (2, "sum")):
        r = dev.tensor(np.zeros((), np.float32))
        _run(dev, dev.tensor(p), dev.tensor(lab), red, 1.0, r)
        assert_bits_equal(dev.read(r), expected(p, lab, name, 1.0, "Ascend910B"))


@pytest.mark.parametrize("fmt", [ACL_FORMAT_NCHW, ACL_FORMAT_NHWC], ids=["NCHW", "NHWC"])
@pytest.mark.parametrize("dtype", [np.float32, np.float16], ids=["f32", "f16"])
def test_none_with_nchw_nhwc_goes_through_nc1hwc0(dev, fmt, dtype):
    rng = np.random.default_rng(8)
    shape = (2, 3, 4, 5)
    p = (rng.standard_normal(shape) * 2).astype(dtype)
    lab = (rng.standard_normal(shape) * 2).astype(dtype)
    r = dev.tensor(np.zeros(shape, dtype), fmt=fmt)
    code, ws, ex = _p1(dev.tensor(p, fmt=fmt), dev.tensor(lab, fmt=fmt), 0, 1.0, r)
    assert code == 0, aclGetRecentErrMsg()
    assert _graph(ex.value) == ["TransData", "TransData", "SmoothL1LossV2", "TransData"]
    n, c, h, w = shape if fmt == ACL_FORMAT_NCHW else (shape[0], shape[3], shape[1], shape[2])
    c0 = 8 if dtype == np.float32 else 16  # one 32-byte block
    blocked = next(st for st in ex.value.steps if st.name == "TransData").outputs[0]
    assert blocked.storage_format == 3 and blocked.view_shape == shape  # the view keeps the original shape
    assert blocked.storage_shape == (n, -(-c // c0), h, w, c0)
    assert P2(dev.workspace(ws.value), ws.value, ex.value, dev.stream) == 0
    assert_bits_equal(dev.read(r), expected(p, lab, "none", 1.0, "Ascend910B"))


def test_nchw_on_ascend950_is_only_relabelled(soc):
    soc("Ascend950")
    dev = Dev()
    try:
        p = np.linspace(-2, 2, 24).astype(np.float32).reshape(1, 2, 3, 4)
        s = dev.tensor(p, fmt=ACL_FORMAT_NCHW)
        r = dev.tensor(np.zeros((1, 2, 3, 4), np.float32), fmt=ACL_FORMAT_NCHW)
        code, ws, ex = _p1(s, dev.tensor(np.zeros_like(p)), 0, 1.0, r)
        assert code == 0 and _graph(ex.value) == ["SmoothL1LossV2"]
        assert ws.value == MiB16 + 512  # the AscendC kernel's tiling workspace
        assert P2(dev.workspace(ws.value), ws.value, ex.value, dev.stream) == 0
        assert_bits_equal(dev.read(r), expected(p, np.zeros_like(p), "none", 1.0, "Ascend950"))
        dt = Ref()
        from aclnn_py import aclGetFormat

        assert aclGetFormat(s, dt) == 0 and dt.value == 2  # InputPreProcess relabelled the caller's self ND
    finally:
        dev.close()


def test_nchw_inputs_with_an_nd_result_is_undefined(dev, findings):
    p = np.ones((1, 2, 3, 4), np.float32)
    r = dev.tensor(np.zeros((1, 2, 3, 4), np.float32))
    code, _, ex = _p1(dev.tensor(p, fmt=ACL_FORMAT_NCHW), dev.tensor(p, fmt=ACL_FORMAT_NCHW), 0, 1.0, r)
    assert code == 0 and findings.refresh().checks() == ["undefined"]
    assert "result receives the NC1HWC0 layout" in findings.text()
    aclGetRecentErrMsg()
    aclDestroyAclOpExecutor(ex.value)


def test_nchw_self_with_an_nd_target_is_undefined(dev, findings):
    """Only self goes to NC1HWC0: which kernel binary takes that mix is not public."""
    p = np.ones((1, 2, 3, 4), np.float32)
    r = dev.tensor(np.zeros((1, 2, 3, 4), np.float32), fmt=ACL_FORMAT_NCHW)
    code, _, ex = _p1(dev.tensor(p, fmt=ACL_FORMAT_NCHW), dev.tensor(p), 0, 1.0, r)
    assert code == 0 and _graph(ex.value) == ["TransData", "SmoothL1LossV2", "TransData"]
    assert findings.refresh().checks() == ["undefined"]
    assert "SmoothL1LossV2 gets self in NC1HWC0 and target in ND" in findings.text()
    aclGetRecentErrMsg()
    aclDestroyAclOpExecutor(ex.value)


def test_mean_into_an_nchw_result_fails_reformats_rank_check(dev):
    s, t, _ = _args(dev)
    r = dev.tensor(np.zeros((1, 1, 1, 1), np.float32), fmt=ACL_FORMAT_NCHW)
    assert _p1(s, t, 1, 1.0, r)[0] == ACLNN_ERR_INNER_NULLPTR
    assert aclGetRecentErrMsg() == (
        f"{PREFIX}input tensor shape's rank does not match format, format is: NCHW, shape is: [].\n"
        "TraceBack (most recent call last):\n"
        "        The smoothL1LossResult with TransData return nullptr.\n"
    )


def test_5d_nd_inputs_into_an_nchw_result_fail_in_transdata(dev):
    shape = (1, 2, 1, 2, 2)
    a = dev.tensor(np.ones(shape, np.float32))
    r = dev.tensor(np.zeros(shape, np.float32), fmt=ACL_FORMAT_NCHW)  # an NCHW label on 5 dims
    assert _p1(a, a, 0, 1.0, r)[0] == ACLNN_ERR_INNER_NULLPTR
    assert aclGetRecentErrMsg() == (
        f"{PREFIX}TransData not support: ND -> NCHW\n"
        "TraceBack (most recent call last):\n"
        "        The smoothL1LossResult with TransData return nullptr.\n"
    )


def test_nchw_label_on_three_dims_fails_transdata_rank_check(dev):
    a = dev.tensor(np.ones((2, 3, 4), np.float32), fmt=ACL_FORMAT_NCHW)
    r = dev.tensor(np.zeros((2, 3, 4), np.float32), fmt=ACL_FORMAT_NCHW)
    assert _p1(a, a, 0, 1.0, r)[0] == ACLNN_ERR_INNER_NULLPTR
    assert aclGetRecentErrMsg() == (
        f"{PREFIX}Input tensor format not match it's shape, format is: NCHW, shape is: [2, 3, 4].\n"
        "TraceBack (most recent call last):\n"
        "        The TransData return nullptr.\n"
        "        The self with InputPreProcess return nullptr.\n"
    )


# -- numbers ---------------------------------------------------------------------------------------


def _pair(dtype, shape, seed, scale=2.0):
    rng = np.random.default_rng(seed)
    p = (rng.standard_normal(shape) * scale).astype(np.float32)
    lab = (rng.standard_normal(shape) * scale).astype(np.float32)
    flat = p.reshape(-1)
    if flat.size >= 8:
        flat[:8] = [0.0, -0.0, 1.0, -1.0, 0.9999999, 1.0000001, 1e-30, 65000]
        lab.reshape(-1)[:8] = [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -30.0]
    return p.astype(dtype), lab.astype(dtype)


NONE_CASES = [
    (c, d)
    for c in CHIPS
    for d in (np.float32, np.float16, BF16)
    if not (d == BF16 and c in ("Ascend910", "Ascend310P"))
]


@pytest.mark.parametrize("chip,dtype", NONE_CASES, ids=lambda v: getattr(v, "__name__", str(v)))
def test_none_is_bit_exact_per_chip(soc, chip, dtype):
    soc(chip)
    dev = Dev()
    try:
        p, lab = _pair(dtype, (40, 25), 12)
        for beta in (1.0, 0.37, 0.0):
            r = dev.tensor(np.zeros(p.shape, dtype))
            _run(dev, dev.tensor(p), dev.tensor(lab), 0, beta, r)
            got = dev.read(r)
            assert_bits_equal(got, expected(p, lab, "none", beta, chip))
            if beta > 0:
                ref = reference(p, lab, "none", float(np.float32(beta)))
                tol = {np.dtype(np.float32): 2e-6, np.dtype(np.float16): 2e-3, BF16: 1e-2}[np.dtype(dtype)]
                np.testing.assert_allclose(got.astype(np.float64), ref, rtol=tol, atol=tol)
    finally:
        dev.close()


def test_tiny_beta_differs_between_the_recipes():
    """0 < beta < 1e-6f: TBE divides by beta, Ascend950's tiling multiplies by 0."""
    p, lab = np.array([1e-8, 3e-7], np.float32), np.zeros(2, np.float32)
    tbe = expected(p, lab, "none", 5e-7, "Ascend910B")
    a35 = expected(p, lab, "none", 5e-7, "Ascend950")
    assert (tbe > 0).all() and (a35 == 0).all()
    same = expected(p, lab, "none", 1e-6, "Ascend950")  # 1e-6 as a C float is not below 1e-6f
    assert (same > 0).all()


SIZES = [1, 2, 7, 8, 13, 24, 40, 64, 65, 100, 127, 128, 200, 1000, 1100, 4096, 5000, 20000]


@pytest.mark.parametrize("chip", ["Ascend910B", "Ascend950"])
@pytest.mark.parametrize("reduction", ["mean", "sum"])
def test_reductions_follow_the_implemented_order(soc, chip, reduction):
    soc(chip)
    dev = Dev()
    try:
        for n in SIZES:
            p, lab = _pair(np.float32, (n,), n)
            r = dev.tensor(np.zeros((), np.float32))
            _run(dev, dev.tensor(p), dev.tensor(lab), 1 if reduction == "mean" else 2, 1.0, r)
            got = dev.read(r)
            assert_bits_equal(got, expected(p, lab, reduction, 1.0, chip))
            ref = reference(p, lab, reduction, 1.0)
            np.testing.assert_allclose(float(got), ref, rtol=1e-5 * max(1, math.log2(n)), atol=1e-6)
    finally:
        dev.close()


def test_the_two_summation_orders_differ():
    differ = 0
    for seed in range(20):
        rng = np.random.default_rng(seed)
        vals = [float(v) for v in (rng.uniform(0, 10, 3000)).astype(np.float32)]
        differ += sum_tbe_golden(vals) != sum_arch35_golden(vals)
    assert differ >= 5  # the chosen TBE order and Ascend950's are different trees


@pytest.mark.parametrize("dtype", [np.float16, BF16], ids=["f16", "bf16"])
@pytest.mark.parametrize("chip", ["Ascend910B", "Ascend950"])
def test_half_types_reduce_in_float32_and_round_once(soc, chip, dtype):
    soc(chip)
    dev = Dev()
    try:
        p, lab = _pair(dtype, (6, 50), 21)
        for red, name in ((1, "mean"), (2, "sum")):
            r = dev.tensor(np.zeros((), dtype))
            _run(dev, dev.tensor(p), dev.tensor(lab), red, 0.8, r)
            assert_bits_equal(dev.read(r), expected(p, lab, name, 0.8, chip))
    finally:
        dev.close()


def test_tbe_mean_factor_divides_by_each_dim_in_turn(dev):
    """Shape (5, 23): ((1f/5)/23) is one ulp above float32(1/115) (the arch35 factor)."""
    p = np.full((5, 23), 2.0, np.float32)  # every loss is 1.5; the sum is exact
    lab = np.zeros((5, 23), np.float32)
    r = dev.tensor(np.zeros((), np.float32))
    _run(dev, dev.tensor(p), dev.tensor(lab), 1, 1.0, r)
    total = sum_tbe_golden([1.5] * 115)
    assert total == 172.5
    assert float(dev.read(r)) == r32(172.5 * goldens.bits_f32(0x3C0E7836))
    assert float(dev.read(r)) != r32(172.5 * goldens.bits_f32(0x3C0E7835))


def test_broadcast_mean_uses_the_broadcast_shape(dev):
    """The l0 op sees the broadcast inputs: the factor comes from their shape."""
    p = np.linspace(-3, 3, 7 * 5).astype(np.float32).reshape(7, 5)
    lab = np.linspace(1, 2, 5).astype(np.float32)
    r = dev.tensor(np.zeros((), np.float32))
    _run(dev, dev.tensor(p), dev.tensor(lab), 1, 1.0, r)
    assert_bits_equal(dev.read(r), expected(p, lab, "mean", 1.0, "Ascend910B"))


def test_ascend950_workspace_and_mean(soc):
    soc("Ascend950")
    dev = Dev()
    try:
        p, lab = _pair(np.float32, (3, 7), 2)
        r = dev.tensor(np.zeros((), np.float32))
        code, ws, ex = _p1(dev.tensor(p), dev.tensor(lab), 1, 1.0, r)
        assert code == 0 and ws.value == MiB16 + 512
        assert P2(dev.workspace(ws.value), ws.value, ex.value, dev.stream) == 0
        assert_bits_equal(dev.read(r), expected(p, lab, "mean", 1.0, "Ascend950"))
    finally:
        dev.close()


def test_doc_example(dev):
    ones = np.ones((2, 2, 7, 7), np.float32)
    r = dev.tensor(np.full((2, 2, 7, 7), 9, np.float32))
    _run(dev, dev.tensor(ones), dev.tensor(ones), 0, 1.0, r)
    assert (dev.read(r) == 0).all()
