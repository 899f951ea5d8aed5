"""aclnnSign: the error rows in CANN's order (per-chip dtype texts, the BF16 and Ascend310P holes),
the graph (BOOL through INT32, AI Core / AI CPU per chip, > 8 dims), the numbers per kernel
recipe (NaN, -0.0, subnormals, complex), views, empty tensors."""

from __future__ import annotations

import math

import goldens
import ml_dtypes
import numpy as np
import pytest
from helpers import ACL_OF, Dev, assert_bits_equal, normalise_seq, record_op_loge, tiling_refusal

from aclnn_py import (
    ACL_BF16,
    ACL_FLOAT,
    ACL_FORMAT_ND,
    ACL_INT8,
    ACLNN_ERR_INNER_NULLPTR,
    ACLNN_ERR_PARAM_INVALID,
    ACLNN_ERR_PARAM_NULLPTR,
    Ref,
    aclCreateTensor,
    aclDestroyAclOpExecutor,
    aclDestroyTensor,
    aclGetRecentErrMsg,
    aclnnSign,
    aclnnSignGetWorkspaceSize,
    aclrtSynchronizeStream,
)
from aclnn_py import dtypes as D
from aclnn_py import functional as F
from aclnn_py.ops.math import sign as facts

BF16 = np.dtype(ml_dtypes.bfloat16)
PREFIX = "AclNN_Parameter_Error(EZ1001): "
CHIPS = ["Ascend910B", "Ascend910_93", "Ascend950", "Ascend910", "Ascend310P"]
LIST = "[DT_DOUBLE,DT_FLOAT,DT_FLOAT16,DT_INT32,DT_INT64,DT_COMPLEX64,DT_COMPLEX128,DT_BOOL,]"


def _p1(*args):
    ws, ex = Ref(0), Ref()
    return aclnnSignGetWorkspaceSize(*args, ws, ex), ws, ex


def _graph(ex) -> list[str]:
    return [f"{ln.op_type}{'@AiCpu' if ln.engine == 'AiCpu' else ''}" for ln in ex.launches]


def _sign(dev, x: np.ndarray) -> np.ndarray:
    t, o = dev.tensor(x), dev.tensor(np.zeros_like(x))
    assert dev.run(aclnnSignGetWorkspaceSize, aclnnSign, t, o) == (0, 0, 0), aclGetRecentErrMsg()
    return dev.read(o)


@pytest.fixture
def on(soc):
    """Run a body on a chip with a fresh device: ``with on("Ascend950") as dev``."""
    import contextlib

    @contextlib.contextmanager
    def use(chip):
        soc(chip)
        d = Dev()
        try:
            yield d
        finally:
            d.close()

    return use


# -- error rows ------------------------------------------------------------------------------------


def test_null_tensors_are_named_t0_and_t1(dev):
    t = dev.tensor(np.ones(4, np.float32))
    assert _p1(None, t)[0] == ACLNN_ERR_PARAM_NULLPTR
    assert (
        aclGetRecentErrMsg()
        == f"{PREFIX}Expected a value of type [aclTensor] for argument [t0] but instead found nullptr.\n"
    )
    assert _p1(t, None)[0] == ACLNN_ERR_PARAM_NULLPTR
    assert (
        aclGetRecentErrMsg()
        == f"{PREFIX}Expected a value of type [aclTensor] for argument [t1] but instead found nullptr.\n"
    )
    assert _p1(None, None)[0] == ACLNN_ERR_PARAM_NULLPTR  # self first
    assert "[t0]" in aclGetRecentErrMsg()
    assert aclnnSignGetWorkspaceSize(t, t, None, Ref()) == ACLNN_ERR_PARAM_NULLPTR
    assert aclGetRecentErrMsg() == f"{PREFIX}executor or workspaceSize is nullptr\n"


ALL_DTYPES = [np.float32, np.float16, BF16, np.float64, np.int8, np.int16, np.int32, np.int64, np.uint8, np.bool_,
              np.complex64, np.complex128, np.uint16, np.uint32, np.uint64]  # fmt: skip


@pytest.mark.parametrize("chip", CHIPS)
def test_every_self_dtype_per_chip(chip, on):
    """self = result dtype: accepted iff CheckDtypeValid lets it through (the texts per NpuArch)."""
    with on(chip) as dev:
        accepted = facts.accepted_self_dtypes()
        for dt in map(np.dtype, ALL_DTYPES):
            acl = int(ACL_OF[dt])
            t = dev.tensor(np.zeros(4, dt))
            code, _, ex = _p1(t, t)
            if acl in accepted:
                if chip == "Ascend310P" and dt == BF16:  # passes the check, no kernel (see below)
                    assert code == ACLNN_ERR_INNER_NULLPTR
                    continue
                assert code == 0, (chip, dt, aclGetRecentErrMsg())
                aclDestroyAclOpExecutor(ex.value)
                continue
            assert code == ACLNN_ERR_PARAM_INVALID, (chip, dt)
            if chip == "Ascend910":
                want = f"On Ascend910 self dtype [{D.dt_name(acl)}] should be in dtype support list [{LIST}].\n"
            else:
                want = (
                    f"On {chip}, self dtype [{D.dt_name(acl)}] should be in dtype support list [{LIST}] or be BF16.\n"
                )
            assert aclGetRecentErrMsg() == PREFIX + want
        if chip == "Ascend310P":  # the default branch: no dtype is refused
            assert len(accepted) > len(facts.DTYPE_SUPPORT_LIST) + 1


def test_result_dtype_must_equal_self_dtype(dev):
    code, *_ = _p1(dev.tensor(np.ones(4, np.float32)), dev.tensor(np.ones(4, np.float16)))
    assert code == ACLNN_ERR_PARAM_INVALID
    assert (
        aclGetRecentErrMsg()
        == f"{PREFIX}Self dtype should be same as result dtype. self [DT_FLOAT], result [DT_FLOAT16]\n"
    )
    code, *_ = _p1(dev.tensor(np.ones(4, np.complex64)), dev.tensor(np.ones(4, np.complex128)))
    assert aclGetRecentErrMsg().endswith("self [DT_COMPLEX64], result [DT_COMPLEX128]\n")


def test_bf16_self_skips_the_result_comparison_and_fails_in_viewcopy(dev):
    """On DAV_2201/3510 a BF16 self passes without comparing result's dtype; ViewCopy refuses later."""
    x = dev.tensor(np.ones(4, BF16))
    code, *_ = _p1(x, dev.tensor(np.ones(4, np.float32)))
    assert code == ACLNN_ERR_INNER_NULLPTR
    assert aclGetRecentErrMsg() == (
        f"{PREFIX}Input tensor's dtype[DT_BFLOAT16] should be same with output's dtype[DT_FLOAT].\n"
        "TraceBack (most recent call last):\n        Params check failed.\n"
    )


def test_shape_mismatch_and_no_rank_limit(dev):
    code, *_ = _p1(dev.tensor(np.ones((2, 16, 32, 16), np.float32)), dev.tensor(np.ones((2, 16, 32, 18), np.float32)))
    assert code == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == (
        f"{PREFIX}Expected tensor for self to have same size as tensor for result, but [2, 16, 32, 16] does not "
        "equal [2, 16, 32, 18].\n"
    )
    x = np.arange(-256, 256, dtype=np.float32).reshape((2,) * 9)  # 9 dims: accepted, reshaped back
    t, o = dev.tensor(x), dev.tensor(np.zeros_like(x))
    code, _, ex = _p1(t, o)
    assert code == 0 and [s.name for s in ex.value.steps] == ["Contiguous", "Sign", "Reshape", "ViewCopy"]
    aclDestroyAclOpExecutor(ex.value)
    assert (_sign(dev, x) == np.sign(x)).all()


def test_empty_tensors_run_nothing(dev):
    e = dev.tensor(np.ones((2, 16, 0, 16), np.float32))
    code, ws, ex = _p1(e, e)
    assert code == 0 and ws.value == 0 and not ex.value.launches
    assert aclnnSign(None, 0, ex.value, dev.stream) == 0
    # the checks still run first
    assert _p1(e, dev.tensor(np.ones((2, 16, 0, 16), np.float16)))[0] == ACLNN_ERR_PARAM_INVALID


def test_formats_are_not_checked(dev):
    from aclnn_py import ACL_FORMAT_NC1HWC0

    t = dev.tensor(np.ones((1, 1, 2, 2, 16), np.float32), fmt=ACL_FORMAT_NC1HWC0)
    code, _, ex = _p1(t, t)
    assert code == 0
    aclDestroyAclOpExecutor(ex.value)


# -- the graph -------------------------------------------------------------------------------------

BRANCHES = [
    ("Ascend910B", np.float32, ["Sign"]),
    ("Ascend910B", BF16, ["Sign"]),
    ("Ascend910B", np.int32, ["Sign"]),
    ("Ascend910B", np.int64, ["Sign@AiCpu"]),
    ("Ascend910B", np.float64, ["Sign@AiCpu"]),
    ("Ascend910B", np.complex64, ["Sign@AiCpu"]),
    ("Ascend910B", np.bool_, ["Cast", "Sign", "Cast"]),
    ("Ascend950", np.int64, ["Sign"]),
    ("Ascend950", np.complex128, ["Sign@AiCpu"]),
    ("Ascend910", np.float16, ["Sign"]),
    ("Ascend310P", np.int64, ["Sign@AiCpu"]),
    ("Ascend310P", np.int8, ["Sign@AiCpu"]),  # accepted without a check; the TF kernel fails later
]


@pytest.mark.parametrize("chip,dtype,graph", BRANCHES)
def test_graph_per_chip_and_dtype(chip, dtype, graph, on):
    with on(chip) as dev:
        t = dev.tensor(np.zeros(4, dtype))
        code, _, ex = _p1(t, t)
        assert code == 0, aclGetRecentErrMsg()
        assert _graph(ex.value) == graph
        aclDestroyAclOpExecutor(ex.value)


def test_non_contiguous_self_and_result(dev):
    xs = np.array([[-2, 0, 3], [4, -0.5, -7]], np.float32)
    x = dev.strided(xs, (3, 2), (1, 3))  # the transpose
    o = dev.strided(np.zeros((2, 3), np.float32), (3, 2), (1, 3))
    _, _, ex = _p1(x, o)
    assert _graph(ex.value) == ["Transpose", "Sign", "Transpose"]
    aclDestroyAclOpExecutor(ex.value)
    assert dev.run(aclnnSignGetWorkspaceSize, aclnnSign, x, o) == (0, 0, 0)
    assert (dev.read(o) == np.sign(xs.T)).all()


# -- numbers ---------------------------------------------------------------------------------------

F32_SPECIAL = [0.0, -0.0, math.inf, -math.inf, math.nan, 1e-40, -1e-40, 2.0**-126, 3.5, -1e30]


def _golden_compare(values, dtype) -> np.ndarray:
    """``(x > 0) - (x < 0)``: NaN 0, -0.0 +0.0."""
    return np.array([int(float(v) > 0) - int(float(v) < 0) for v in values], np.float64).astype(dtype)


def _golden_scaled(values, dtype, nan_to_zero) -> np.ndarray:
    """``min(max(x, -tiny), tiny) * 2^k`` with a NaN kept away by max/min (the number wins)."""
    tiny, k = (2.0**-126, 126) if dtype == np.float32 else (2.0**-24, 24)
    out = []
    for v in values:
        if math.isnan(v):
            out.append(0.0 if nan_to_zero else -1.0)  # max(NaN, -tiny) = -tiny
            continue
        c = min(max(v, -tiny), tiny) if v != 0 else v  # -0.0 stays -0.0
        out.append(math.ldexp(c, k))
    return np.array(out, np.float64).astype(dtype)


@pytest.mark.parametrize("chip", CHIPS)
@pytest.mark.parametrize("dtype", [np.float32, np.float16], ids=["f32", "f16"])
def test_float_specials_per_recipe(chip, dtype, on):
    if dtype == np.float32:
        vals = F32_SPECIAL
    else:  # float16: its subnormals (6e-8 is 2^-24, the smallest) and its largest value
        vals = [0.0, -0.0, math.inf, -math.inf, math.nan, 6e-8, -6e-8, 1e-5, 3.5, -65504.0]
    x = np.array(vals, np.float64).astype(dtype)
    with on(chip) as dev:
        got = _sign(dev, x)
    cast_vals = [float(v) for v in x]
    if chip in ("Ascend910", "Ascend310P"):
        want = _golden_scaled(cast_vals, dtype, nan_to_zero=chip == "Ascend310P")
    else:
        want = _golden_compare(cast_vals, dtype)
    assert_bits_equal(got, want)


@pytest.mark.parametrize("chip", ["Ascend910B", "Ascend950"])
def test_bfloat16_through_float32(chip, on):
    x = np.array([0.0, -0.0, 1e-40, -3.0, math.inf, math.nan], np.float32).astype(BF16)
    with on(chip) as dev:
        got = _sign(dev, x)
    assert_bits_equal(got, _golden_compare([float(v) for v in x], BF16))


@pytest.mark.parametrize("chip", ["Ascend910B", "Ascend950", "Ascend310P"])
def test_integers_and_bool_are_exact(chip, on):
    i32 = np.array([-(2**31), -5, -1, 0, 1, 7, 2**31 - 1], np.int32)
    i64 = np.array([-(2**63), -1, 0, 1, 2**63 - 1], np.int64)
    b = np.array([True, False, True])
    with on(chip) as dev:
        assert (_sign(dev, i32) == np.sign(i32)).all()
        assert (_sign(dev, i64) == np.sign(i64)).all()
        if chip != "Ascend310P":
            got = _sign(dev, b)
            assert got.dtype == np.bool_ and (got == b).all()


def test_double_on_the_ai_cpu_gives_zero_for_nan(dev):
    x = np.array([math.nan, -0.0, 0.0, -math.inf, 5e-324, -2.5], np.float64)
    assert_bits_equal(_sign(dev, x), _golden_compare(list(x), np.float64))


def _complex_golden(z: complex, dtype) -> complex:
    """Eigen 3.3 ``scalar_sign_op``: ``aa = |z|``, ``0`` if aa == 0, else ``z * (1 / aa)``,
    every step rounded to the component precision (float32: ``goldens.r32``)."""
    rnd = goldens.r32 if dtype == np.complex64 else float
    aa = rnd(math.hypot(z.real, z.imag))
    if aa == 0:
        return 0j
    inv = rnd(1.0 / aa)
    return complex(rnd(z.real * inv), rnd(z.imag * inv))


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_complex_is_x_over_abs(dev, dtype):
    z = np.array([3 + 4j, -1 + 1j, 0j, -2.5 - 0.1j, 1e-20 + 0j, 0 - 7j], dtype)
    got = _sign(dev, z)
    want = np.array([_complex_golden(complex(v), dtype) for v in z], dtype)
    assert_bits_equal(got.view(got.real.dtype), want.view(want.real.dtype))


def test_ascend310p_unsupported_kernels(on):
    """Ascend310P checks no dtype: INT8 reaches the TF kernel (none: the stream fails); BFLOAT16
    reaches the AI Core, which has no BFLOAT16 Sign on that chip (phase 1 fails)."""
    with on("Ascend310P") as dev:
        t = dev.tensor(np.ones(4, np.int8), acl_dtype=ACL_INT8)
        ws, ex = Ref(0), Ref()
        assert aclnnSignGetWorkspaceSize(t, t, ws, ex) == 0
        assert aclnnSign(dev.workspace(ws.value), ws.value, ex.value, dev.stream) == 0
        assert aclrtSynchronizeStream(dev.stream) == 507018  # ACL_ERROR_RT_AICPU_EXCEPTION
        assert "AI CPU Sign kernel has no implementation for int8" in aclGetRecentErrMsg()
    with on("Ascend310P") as dev:
        b = dev.tensor(np.ones(4, BF16), acl_dtype=ACL_BF16)
        assert _p1(b, b)[0] == ACLNN_ERR_INNER_NULLPTR
        assert "Sign ADD_TO_LAUNCHER_LIST_AICORE failed." in aclGetRecentErrMsg()


def test_negative_dimension_is_refused_by_the_tiling(dev, monkeypatch):
    """No check refuses a negative dimension; the kernel's tiling does. l0 Sign checks the launch
    status with ``OP_CHECK_ADD_TO_LAUNCHER_LIST_AICORE`` (ACLNN_ERR_INNER_STATIC_WORKSPACE_INVALID)
    and returns nullptr: the op_api's 561103."""
    logged = record_op_loge(monkeypatch)
    ptr = dev.malloc(64)
    t = [aclCreateTensor([2, -1], 2, ACL_FLOAT, None, 0, ACL_FORMAT_ND, [2], 1, ptr) for _ in range(2)]
    assert _p1(*t)[0] == ACLNN_ERR_INNER_NULLPTR
    assert normalise_seq(aclGetRecentErrMsg(), "aclnnSign") == (
        tiling_refusal("aclnnSign", "Sign", "[2, -1]") + "        Sign ADD_TO_LAUNCHER_LIST_AICORE failed.\n"
    )
    assert logged == [(561118, "Sign ADD_TO_LAUNCHER_LIST_AICORE failed.")]
    for x in t:
        aclDestroyTensor(x)


def test_zero_d_and_in_place(dev):
    assert _sign(dev, np.array(-4.0, np.float32)).tolist() == -1.0
    t = dev.tensor(np.array([-7, 0, 3], np.int64))  # result may be self itself
    assert dev.run(aclnnSignGetWorkspaceSize, aclnnSign, t, t) == (0, 0, 0)
    assert dev.read(t).tolist() == [-1, 0, 1]


def test_doc_example_and_functional(dev):
    x = np.arange(1, 9, dtype=np.float32).reshape(4, 2)
    assert (_sign(dev, x) == 1).all()
    assert F.sign(np.array([-3, 0, 2], np.int32)).tolist() == [-1, 0, 1]
    assert F.sign(np.array([-0.0, 2.5], np.float32)).tolist() == [0.0, 1.0]
    _ = ACL_FLOAT
