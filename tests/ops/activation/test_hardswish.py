"""aclnnHardswish, aclnnInplaceHardswish: error rows in CANN's order, dtypes per chip, the graph,
numbers bit for bit against independent goldens of each chip's recipe (TBE: RNE output;
Ascend950: another order of operations and CAST_ROUND, half away from zero), views, empty,
0-d, in place."""

from __future__ import annotations

import math
from fractions import Fraction

import goldens
import ml_dtypes
import numpy as np
import pytest
from helpers import ACL_OF, Dev, assert_bits_equal, normalise_seq, record_op_loge, tiling_refusal

from aclnn_py import (
    ACL_FORMAT_NCHW,
    ACL_FORMAT_NHWC,
    ACLNN_ERR_INNER_NULLPTR,
    ACLNN_ERR_PARAM_INVALID,
    ACLNN_ERR_PARAM_NULLPTR,
    Ref,
    aclCreateTensor,
    aclDestroyAclOpExecutor,
    aclDestroyTensor,
    aclGetRecentErrMsg,
    aclnnHardswish,
    aclnnHardswishGetWorkspaceSize,
    aclnnInplaceHardswish,
    aclnnInplaceHardswishGetWorkspaceSize,
)
from aclnn_py import dtypes as D
from aclnn_py.ops.activation import hardswish as facts

BF16 = np.dtype(ml_dtypes.bfloat16)
PREFIX = "AclNN_Parameter_Error(EZ1001): "
CHIPS = ["Ascend910B", "Ascend910_93", "Ascend950", "Ascend910", "Ascend310P"]
TBE_CHIPS = ["Ascend910B", "Ascend910_93", "Ascend910", "Ascend310P"]
P1, P2 = aclnnHardswishGetWorkspaceSize, aclnnHardswish


def _p1(fn, *args):
    ws, ex = Ref(0), Ref()
    return fn(*args, ws, ex), ws, ex


def _graph(ex) -> list[str]:
    return [ln.op_type for ln in ex.launches]


def _run(dev, *args):
    assert dev.run(P1, P2, *args) == (0, 0, 0), aclGetRecentErrMsg()


# -- independent goldens: one element at a time in Python floats ----------------------------------

G = goldens.r32(1.0 / 6.0)  # the float32 constant 0x3E2AAAAB of both kernels
_FORMATS = {np.dtype(np.float16): (11, -14, 15), BF16: (8, -126, 127)}


def _max(a: float, b: float) -> float:  # NaN-propagating, like the recipes' vector max
    return a if a != a else (b if b != b else max(a, b))


def _min(a: float, b: float) -> float:
    return a if a != a else (b if b != b else min(a, b))


def golden_tbe(x: float) -> float:
    t = goldens.r32(x + 3.0)
    t = _min(_max(t, 0.0), 6.0)
    t = goldens.r32(t * G)
    return goldens.r32(x * t)


def golden_arch35(x: float) -> float:
    t = goldens.r32(x + 3.0)
    t = _max(_min(t, 6.0), 0.0)
    xm = _max(x, -3.0)
    y = goldens.r32(xm * t)
    return goldens.r32(y * G)


def round_half_away(x: float, dtype) -> float:
    """The ``dtype`` value nearest to float32 ``x``, ties away from zero (exact rationals)."""
    if x != x or math.isinf(x) or x == 0:
        return x
    p, emin, emax = _FORMATS[np.dtype(dtype)]
    a = abs(Fraction(x))
    e = a.numerator.bit_length() - a.denominator.bit_length()
    if Fraction(2) ** e > a:
        e -= 1
    q = Fraction(2) ** (max(e, emin) - p + 1)
    whole = int(a / q)
    if a / q - whole >= Fraction(1, 2):
        whole += 1
    r = whole * q
    if r >= Fraction(2) ** (emax + 1):
        return math.copysign(math.inf, x)
    return math.copysign(float(r), x)


def expected(x: np.ndarray, chip: str, out_dtype=None) -> np.ndarray:
    """The chip's result in x's dtype (then cast to ``out_dtype`` by the Cast kernel: RNE)."""
    dt = np.dtype(x.dtype)
    vals = [float(v) for v in x.astype(np.float32).reshape(-1)]
    if chip == "Ascend950":
        r = [golden_arch35(v) for v in vals]
        if dt == np.float32:
            out = goldens.round_to(r, dt)
        else:
            out = goldens.round_to([round_half_away(v, dt) for v in r], np.float32).astype(dt)
    else:
        out = goldens.round_to([golden_tbe(v) for v in vals], dt)
    out = out.reshape(x.shape)
    if out_dtype is not None and np.dtype(out_dtype) != dt:
        out = goldens.round_to([float(v) for v in out.astype(np.float32).reshape(-1)], out_dtype).reshape(x.shape)
    return out


def _values(dtype, n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    v = (rng.standard_normal(n) * 3).astype(np.float32)
    v[:14] = [0.0, -0.0, np.inf, -np.inf, np.nan, -3.0, 3.0, -2.9999998, 2.9999998, 1e-39, 0.1, 95.019, 1e3, -1e3]
    return v.astype(dtype)


# -- error rows ------------------------------------------------------------------------------------


def test_null_out_pointers_come_first(dev):
    t = dev.tensor(np.ones(4, np.float32))
    assert P1(None, t, None, Ref()) == ACLNN_ERR_PARAM_NULLPTR
    assert aclGetRecentErrMsg() == f"{PREFIX}The workspaceSize or executor is nullptr.\n"
    assert aclnnInplaceHardswishGetWorkspaceSize(t, Ref(0), None) == ACLNN_ERR_PARAM_NULLPTR
    assert aclGetRecentErrMsg() == f"{PREFIX}The workspaceSize or executor is nullptr.\n"


@pytest.mark.parametrize("which,name", [(0, "self"), (1, "out")])
def test_null_tensors(dev, which, name):
    args = [dev.tensor(np.ones(4, np.float32)), dev.tensor(np.zeros(4, np.float32))]
    args[which] = None
    code, _, ex = _p1(P1, *args)
    assert code == ACLNN_ERR_PARAM_NULLPTR and ex.value is None
    assert aclGetRecentErrMsg() == f"{PREFIX}Expected a proper Tensor but got null for argument {name}.\n"
    assert _p1(aclnnInplaceHardswishGetWorkspaceSize, None)[0] == ACLNN_ERR_PARAM_NULLPTR
    assert aclGetRecentErrMsg() == f"{PREFIX}Expected a proper Tensor but got null for argument self.\n"


ALL_DTYPES = [np.float32, np.float16, BF16, np.float64, np.int8, np.int16, np.int32, np.int64, np.uint8, np.bool_]


@pytest.mark.parametrize("chip", CHIPS)
def test_every_dtype_per_chip(soc, chip):
    """self and out of one dtype: accepted iff in the chip's list, then the chip's numbers."""
    soc(chip)
    dev = Dev()
    try:
        supported = facts.dtype_support_list()
        assert supported == ((D.DT_FLOAT, D.DT_FLOAT16, D.DT_BF16) if chip in ("Ascend910B", "Ascend910_93", "Ascend950")
                             else (D.DT_FLOAT, D.DT_FLOAT16))  # fmt: skip
        for dt in map(np.dtype, ALL_DTYPES):
            acl = int(ACL_OF[dt])
            x = _values(np.float32, 40, 3).astype(dt) if dt.kind == "f" else np.arange(40).astype(dt)
            t, o = dev.tensor(x), dev.tensor(np.zeros(40, dt))
            code, ws, ex = _p1(P1, t, o)
            if acl not in supported:
                assert code == ACLNN_ERR_PARAM_INVALID
                assert aclGetRecentErrMsg() == (
                    f"{PREFIX}Tensor self not implemented for {D.dt_name(acl)}, should be in dtype support list "
                    f"{D.dt_list_str(supported)}.\n"
                )
                continue
            assert code == 0, aclGetRecentErrMsg()
            assert P2(dev.workspace(ws.value), ws.value, ex.value, dev.stream) == 0
            assert_bits_equal(dev.read(o), expected(x, chip))
    finally:
        dev.close()


def test_out_dtype_is_checked_after_self(dev):
    f = dev.tensor(np.ones(4, np.float32))
    i = dev.tensor(np.zeros(4, np.int32))
    assert _p1(P1, f, i)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == (
        f"{PREFIX}Tensor out not implemented for DT_INT32, should be in dtype support list "
        "[DT_FLOAT,DT_FLOAT16,DT_BFLOAT16,].\n"
    )
    assert _p1(P1, i, i)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg().startswith(f"{PREFIX}Tensor self not implemented for DT_INT32")


def test_bf16_is_refused_outside_910b_to_950(soc):
    soc("Ascend310P")  # the document says 310P is unsupported; the code gives it the 910 list
    dev = Dev()
    try:
        b = dev.tensor(np.ones(4, BF16))
        assert _p1(P1, b, b)[0] == ACLNN_ERR_PARAM_INVALID
        assert aclGetRecentErrMsg() == (
            f"{PREFIX}Tensor self not implemented for DT_BFLOAT16, should be in dtype support list "
            "[DT_FLOAT,DT_FLOAT16,].\n"
        )
    finally:
        dev.close()


def test_shape_must_equal_and_there_is_no_rank_limit(dev):
    a = dev.tensor(np.ones((2, 3, 5), np.float32))
    b = dev.tensor(np.zeros((2, 3), np.float32))
    assert _p1(P1, a, b)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == (
        f"{PREFIX}Expected tensor for self to have same size as tensor for out, but [2, 3, 5] does not equal [2, 3].\n"
    )
    x9 = np.linspace(-5, 5, 2**9).astype(np.float32).reshape((2,) * 9)  # UT l2_hardswish_test_011: 9 dims
    t9, o9 = dev.tensor(x9), dev.tensor(np.zeros((2,) * 9, np.float32))
    _run(dev, t9, o9)
    assert_bits_equal(dev.read(o9), expected(x9, "Ascend910B"))


def test_zero_d_and_empty(dev):
    x0 = np.array(1.5, np.float32)
    t, o = dev.tensor(x0), dev.tensor(np.array(0, np.float32))
    _run(dev, t, o)
    assert_bits_equal(dev.read(o), expected(x0, "Ascend910B"))
    e = dev.tensor(np.ones((2, 0), np.float32))  # UT l2_hardswish_test_004
    code, ws, ex = _p1(P1, e, e)
    assert code == 0 and ws.value == 0 and not ex.value.launches
    assert P2(None, 0, ex.value, dev.stream) == 0


def test_negative_dimension_is_refused_by_the_tiling(dev, monkeypatch):
    """No check refuses a negative dimension; the kernel's tiling does. l0 HardSwish checks the
    launch status (``OP_CHECK``, ACLNN_ERR_INNER_NULLPTR) and returns nullptr."""
    logged = record_op_loge(monkeypatch)
    t = aclCreateTensor([2, -1], 2, ACL_OF[np.dtype(np.float32)], None, 0, 2, [2], 1, dev.malloc(64))
    assert _p1(P1, t, t)[0] == ACLNN_ERR_INNER_NULLPTR
    assert normalise_seq(aclGetRecentErrMsg(), "aclnnHardswish") == (
        tiling_refusal("aclnnHardswish", "HardSwish", "[2, -1]")
        + "        HardSwishAiCore ADD_TO_LAUNCHER_LIST_AICORE failed.\n"
    )
    assert logged == [(561103, "HardSwishAiCore ADD_TO_LAUNCHER_LIST_AICORE failed.")]
    aclDestroyTensor(t)


# -- the graph -------------------------------------------------------------------------------------


def test_graph_contiguous_self_and_out(dev):
    t, o = dev.tensor(np.ones((4, 3), np.float16)), dev.tensor(np.zeros((4, 3), np.float16))
    code, ws, ex = _p1(P1, t, o)
    assert code == 0 and _graph(ex.value) == ["HardSwish"] and ws.value == 0  # computed in out's place
    assert [s.name for s in ex.value.steps] == ["Contiguous", "HardSwish", "Cast", "ViewCopy"]
    aclDestroyAclOpExecutor(ex.value)


def test_graph_with_views_and_a_cast(dev):
    rng = np.random.default_rng(5)
    base = (rng.standard_normal((3, 4)) * 4).astype(np.float16)
    t = dev.strided(base, (4, 3), (1, 4))  # a transposed view
    out_store = np.zeros((4, 6), np.float32)
    o = dev.strided(out_store, (4, 3), (6, 2), 1)  # every other column of a wider buffer, from 1
    code, ws, ex = _p1(P1, t, o)
    assert code == 0, aclGetRecentErrMsg()
    assert _graph(ex.value) == ["Transpose", "HardSwish", "Cast", "ViewCopy"]
    assert P2(dev.workspace(ws.value), ws.value, ex.value, dev.stream) == 0
    want = expected(base.T.copy(), "Ascend910B", np.float32)
    assert_bits_equal(dev.read(o), want)


def test_out_of_another_format_fails_in_view_copy(dev):
    x = np.ones((2, 3, 4, 5), np.float32)
    t_nchw = dev.tensor(x, fmt=ACL_FORMAT_NCHW)
    o_nchw = dev.tensor(np.zeros_like(x), fmt=ACL_FORMAT_NCHW)
    _run(dev, t_nchw, o_nchw)  # UT l2_hardswish_test_009/010: same format in and out
    o_nd = dev.tensor(np.zeros_like(x))
    assert _p1(P1, t_nchw, o_nd)[0] == ACLNN_ERR_INNER_NULLPTR  # the kernel's output keeps self's format
    assert aclGetRecentErrMsg() == (
        f"{PREFIX}Input tensor's format[NCHW] should be same with output's format[ND].\n"
        "TraceBack (most recent call last):\n"
        "        Params check failed.\n"
    )
    t_nhwc = dev.tensor(x, fmt=ACL_FORMAT_NHWC)
    o_nhwc = dev.tensor(np.zeros_like(x), fmt=ACL_FORMAT_NHWC)
    _run(dev, t_nhwc, o_nhwc)
    assert_bits_equal(dev.read(o_nhwc), expected(x, "Ascend910B"))


# -- numbers ---------------------------------------------------------------------------------------


NUMBER_CASES = [(c, d) for c in CHIPS for d in (np.float32, np.float16, BF16)
                if not (d == BF16 and c in ("Ascend910", "Ascend310P"))]  # fmt: skip


@pytest.mark.parametrize("chip,dtype", NUMBER_CASES, ids=lambda v: getattr(v, "__name__", str(v)))
def test_numbers_bit_exact_per_chip(soc, chip, dtype):
    soc(chip)
    dev = Dev()
    try:
        x = _values(dtype, 2000, 11)
        t, o = dev.tensor(x), dev.tensor(np.zeros(x.shape, dtype))
        _run(dev, t, o)
        got = dev.read(o)
        assert_bits_equal(got, expected(x, chip))
        with np.errstate(invalid="ignore"):
            ref = x.astype(np.float64) * np.clip(x.astype(np.float64) + 3, 0, 6) / 6
        fin = np.isfinite(ref) & (np.abs(x.astype(np.float64)) < 1e30)
        tol = {np.dtype(np.float32): 1e-6, np.dtype(np.float16): 1e-3, BF16: 8e-3}[np.dtype(dtype)]
        np.testing.assert_allclose(got.astype(np.float64)[fin], ref[fin], rtol=tol, atol=tol)
    finally:
        dev.close()


def test_the_two_recipes_differ_where_the_notes_say():
    x = np.array([0.1, 1.3, 2.9, 95.019, 5.673234], np.float32)
    tbe = expected(x, "Ascend910B").view(np.uint32).tolist()
    a35 = expected(x, "Ascend950").view(np.uint32).tolist()
    assert tbe == [0x3D53A06D, 0x3F6E81B5, 0x403681B5, 0x42BE09BA, 0x40B58B22]  # x >= 3: x itself
    assert a35 == [0x3D53A06E, 0x3F6E81B6, 0x403681B6, 0x42BE09BB, 0x40B58B23]  # (x * 6) * (1/6)


@pytest.mark.parametrize("chip", ["Ascend910B", "Ascend950"])
def test_special_values(soc, chip):
    soc(chip)
    dev = Dev()
    try:
        x = np.array([-np.inf, np.inf, np.nan, -3.0, -5.0, 3.0, 1e38, -0.0], np.float32)
        t, o = dev.tensor(x), dev.tensor(np.zeros(8, np.float32))
        _run(dev, t, o)
        got = dev.read(o)
        bits = got.view(np.uint32)
        if chip == "Ascend950":
            assert bits[0] == 0x80000000  # max(-inf, -3) * 0: -0.0, the kernel's "ISSUE-001" fix
            assert got[6] == np.inf  # x * 6 overflows float32 before the multiply by 1/6
        else:
            assert np.isnan(got[0])  # -inf * 0
            assert got[6] == np.float32(1e38)  # x * fl(6 * 1/6) = x * 1.0
        assert got[1] == np.inf and np.isnan(got[2]) and bits[2] == 0x7FC00000
        assert bits[3] == 0x80000000 and bits[4] == 0x80000000 and got[5] == 3.0
    finally:
        dev.close()


@pytest.mark.parametrize("dtype", [np.float16, BF16], ids=["f16", "bf16"])
def test_ascend950_narrows_half_away_from_zero(soc, dtype):
    soc("Ascend950")
    dev = Dev()
    try:
        # inputs whose float32 result lies exactly half way between two values of the half type
        cands = np.arange(-2048, 2048, dtype=np.float32) / np.float32(64)
        x = cands.astype(dtype)
        r32 = np.array([golden_arch35(float(v)) for v in x.astype(np.float32)], np.float32)
        ties = np.array([round_half_away(float(v), dtype) != float(np.float32(v).astype(dtype)) for v in r32])
        assert ties.any()  # where RNE and CAST_ROUND part
        t, o = dev.tensor(x), dev.tensor(np.zeros(x.shape, dtype))
        _run(dev, t, o)
        assert_bits_equal(dev.read(o), expected(x, "Ascend950"))
    finally:
        dev.close()


def test_out_dtype_cast_after_the_kernel(dev):
    x = _values(np.float16, 200, 7)
    for out_dt in (np.float32, BF16):
        t, o = dev.tensor(x), dev.tensor(np.zeros(x.shape, out_dt))
        code, ws, ex = _p1(P1, t, o)
        assert code == 0 and _graph(ex.value) == ["HardSwish", "Cast"]
        assert P2(dev.workspace(ws.value), ws.value, ex.value, dev.stream) == 0
        assert_bits_equal(dev.read(o), expected(x, "Ascend910B", out_dt))


def test_doc_example_values_and_the_second_run(dev):
    x = np.array([-4, -3, -2, 0, 1, 2, 4, 5], np.float32).reshape(4, 2)
    t, o = dev.tensor(x), dev.tensor(np.zeros((4, 2), np.float32))
    _run(dev, t, o)
    want = [0x80000000, 0x80000000, 0xBEAAAAAB, 0, 0x3F2AAAAB, 0x3FD55556, 0x40800000, 0x40A00000]
    assert dev.read(o).view(np.uint32).reshape(-1).tolist() == want
    assert dev.run(aclnnInplaceHardswishGetWorkspaceSize, aclnnInplaceHardswish, t) == (0, 0, 0)
    assert dev.read(t).view(np.uint32).reshape(-1).tolist() == want  # self still held the input


# -- in place --------------------------------------------------------------------------------------


def test_inplace_contiguous_and_strided(dev):
    x = _values(np.float32, 64, 9)
    t = dev.tensor(x)
    code, ws, ex = _p1(aclnnInplaceHardswishGetWorkspaceSize, t)
    assert code == 0 and _graph(ex.value) == ["HardSwish"] and ws.value == 0
    assert ex.value.api == "aclnnHardswish"  # the DFX and op-cache name is the out-of-place API's
    assert aclnnInplaceHardswish(None, 0, ex.value, dev.stream) == 0
    assert_bits_equal(dev.read(t), expected(x, "Ascend910B"))
    store = _values(np.float16, 32, 10).reshape(4, 8)
    v = dev.strided(store, (4, 4), (8, 2))  # every other column
    assert dev.run(aclnnInplaceHardswishGetWorkspaceSize, aclnnInplaceHardswish, v) == (0, 0, 0)
    assert_bits_equal(dev.read(v), expected(store[:, ::2].copy(), "Ascend910B"))


def test_inplace_runs_hardswish_checks(dev):
    i = dev.tensor(np.ones(4, np.int64))  # UT l2_hardswish_test_001
    assert _p1(aclnnInplaceHardswishGetWorkspaceSize, i)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg().startswith(f"{PREFIX}Tensor self not implemented for DT_INT64")
