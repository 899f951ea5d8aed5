"""aclnnClamp, aclnnClampMin, aclnnClampMax: error rows in CANN's order, the compute dtype per chip
(out's dtype on the TBE chips, the promotion on Ascend950), the C conversions of the bounds, null
bounds, lo > hi, NaN and signed zeros per engine, the graph, views, empty tensors."""

from __future__ import annotations

import math

import ml_dtypes
import numpy as np
import pytest
from helpers import ACL_OF, Dev, assert_bits_equal, own

from aclnn_py import (
    ACL_BOOL,
    ACL_COMPLEX64,
    ACL_DOUBLE,
    ACL_FLOAT,
    ACL_FLOAT16,
    ACL_INT32,
    ACL_INT64,
    ACL_UINT64,
    ACLNN_ERR_PARAM_INVALID,
    ACLNN_ERR_PARAM_NULLPTR,
    Ref,
    aclCreateScalar,
    aclDestroyAclOpExecutor,
    aclDestroyScalar,
    aclGetRecentErrMsg,
    aclnnClamp,
    aclnnClampGetWorkspaceSize,
    aclnnClampMax,
    aclnnClampMaxGetWorkspaceSize,
    aclnnClampMin,
    aclnnClampMinGetWorkspaceSize,
)
from aclnn_py import dtypes as D
from aclnn_py import functional as F
from aclnn_py.ops.conversion import clamp as facts

BF16 = np.dtype(ml_dtypes.bfloat16)
PREFIX = "AclNN_Parameter_Error(EZ1001): "
CHIPS = ["Ascend910B", "Ascend910_93", "Ascend950", "Ascend910", "Ascend310P"]
TBE_CHIPS = ["Ascend910B", "Ascend910_93", "Ascend910", "Ascend310P"]


@pytest.fixture
def scalars():
    made = []

    def make(value, dtype=ACL_FLOAT):
        s = aclCreateScalar(value, dtype)
        if not own(s, aclDestroyScalar):  # the device open now destroys it before its aclFinalize
            made.append(s)
        return s

    yield make
    for s in made:
        aclDestroyScalar(s)


@pytest.fixture
def on(soc):
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


def _p1(fn, *args):
    ws, ex = Ref(0), Ref()
    return fn(*args, ws, ex), ws, ex


def _graph(ex) -> list[str]:
    return [f"{ln.op_type}{'@AiCpu' if ln.engine == 'AiCpu' else ''}" for ln in ex.launches]


def _clamp(dev, x, lo, hi, out_dtype=None):
    """aclnnClamp on x with scalar bounds; the result read back."""
    t = dev.tensor(x)
    o = dev.tensor(np.zeros(x.shape, out_dtype or x.dtype))
    assert dev.run(aclnnClampGetWorkspaceSize, aclnnClamp, t, lo, hi, o) == (0, 0, 0), aclGetRecentErrMsg()
    return dev.read(o)


def _msg(text: str) -> str:
    return f"{PREFIX}{text}\n"


def _same(actual, expected):
    """Bit-exact for floats, equal for integers (helpers.bits has no 1-byte view)."""
    if actual.dtype.itemsize == 1:
        assert actual.dtype == expected.dtype and actual.tolist() == expected.tolist()
    else:
        assert_bits_equal(actual, expected)


# -- error rows ------------------------------------------------------------------------------------


def test_null_rows_in_order(dev, scalars):
    t = dev.tensor(np.ones(4, np.float32))
    s = scalars(1.0)
    assert _p1(aclnnClampGetWorkspaceSize, None, s, s, t)[0] == ACLNN_ERR_PARAM_NULLPTR
    assert aclGetRecentErrMsg() == _msg(
        "Expected a value of type [aclTensor] for argument [self] but instead found nullptr."
    )
    assert _p1(aclnnClampGetWorkspaceSize, t, s, s, None)[0] == ACLNN_ERR_PARAM_NULLPTR
    assert aclGetRecentErrMsg() == _msg(
        "Expected a value of type [aclTensor] for argument [out] but instead found nullptr."
    )
    assert _p1(aclnnClampGetWorkspaceSize, t, None, None, t)[0] == ACLNN_ERR_PARAM_NULLPTR
    assert aclGetRecentErrMsg() == _msg("clamp: At least one of 'min' or 'max' must not be None.")
    assert aclnnClampGetWorkspaceSize(t, s, s, t, Ref(0), None) == ACLNN_ERR_PARAM_NULLPTR
    assert aclGetRecentErrMsg() == _msg("executor or workspaceSize is nullptr")


@pytest.mark.parametrize("fn,name", [(aclnnClampMinGetWorkspaceSize, "clipValueMin"),
                                     (aclnnClampMaxGetWorkspaceSize, "clipValueMax")])  # fmt: skip
def test_single_bound_apis_check_their_bound_before_self(dev, scalars, fn, name):
    t = dev.tensor(np.ones(4, np.float32))
    assert _p1(fn, None, None, t)[0] == ACLNN_ERR_PARAM_NULLPTR
    assert aclGetRecentErrMsg() == _msg(
        f"Expected a value of type [aclScalar] for argument [{name}] but instead found nullptr."
    )
    assert _p1(fn, None, scalars(1.0), t)[0] == ACLNN_ERR_PARAM_NULLPTR
    assert "[self]" in aclGetRecentErrMsg()
    assert _p1(fn, t, scalars(1.0), None)[0] == ACLNN_ERR_PARAM_NULLPTR
    assert "[out]" in aclGetRecentErrMsg()


ALL_DTYPES = [np.float32, np.float16, BF16, np.float64, np.int8, np.int16, np.int32, np.int64, np.uint8, np.bool_,
              np.complex64, np.uint16, np.uint32, np.uint64]  # fmt: skip


@pytest.mark.parametrize("chip", CHIPS)
def test_every_dtype_per_chip(chip, on, scalars):
    """self and out of one dtype, integer bounds 1..3: accepted iff in the chip's list; the numbers."""
    with on(chip) as dev:
        supported = facts.dtype_support_list()
        lo, hi = scalars(1, ACL_INT64), scalars(3, ACL_INT64)
        x = np.array([0, 1, 2, 3, 4, 5])
        for dt in map(np.dtype, ALL_DTYPES):
            acl = int(ACL_OF[dt])
            a = x.astype(dt)
            t, o = dev.tensor(a), dev.tensor(np.zeros(6, dt))
            code, ws, ex = _p1(aclnnClampGetWorkspaceSize, t, lo, hi, o)
            if acl not in supported:
                assert code == ACLNN_ERR_PARAM_INVALID
                assert aclGetRecentErrMsg() == _msg(
                    f"Tensor self not implemented for {D.dt_name(acl)}, should be in dtype support list "
                    f"{D.dt_list_str(supported)}."
                )
                continue
            assert code == 0, (chip, dt, aclGetRecentErrMsg())
            assert aclnnClamp(dev.workspace(ws.value), ws.value, ex.value, dev.stream) == 0
            assert dev.read(o).tolist() == np.clip(x, 1, 3).astype(dt).tolist(), (chip, dt)


def test_out_dtype_is_checked_after_self(dev, scalars):
    t = dev.tensor(np.ones(4, np.float32))
    o = dev.tensor(np.ones(4, np.bool_))
    assert _p1(aclnnClampGetWorkspaceSize, t, scalars(0.0), None, o)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg().startswith(f"{PREFIX}Tensor out not implemented for DT_BOOL")


def test_shape_rows(dev, scalars):
    s = scalars(1.0)
    a = dev.tensor(np.ones((5, 4, 3, 2), np.int64))
    b = dev.tensor(np.ones((2, 3, 4, 5), np.int64))
    assert _p1(aclnnClampGetWorkspaceSize, a, s, s, b)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == _msg(
        "Expected tensor for self to have same size as tensor for out, but [5, 4, 3, 2] does not equal [2, 3, 4, 5]."
    )
    r9 = dev.tensor(np.ones((1,) * 9, np.int64))
    assert _p1(aclnnClampMaxGetWorkspaceSize, r9, s, r9)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == _msg("The self tensor cannot be larger than 8 dimensions.")


def test_empty_self_succeeds_before_the_dtype_rules(dev, scalars):
    e = dev.tensor(np.ones((2, 0), np.float32))
    ei = dev.tensor(np.ones((2, 0), np.int64))
    code, ws, ex = _p1(aclnnClampGetWorkspaceSize, e, scalars(0.5), None, ei)  # FLOAT cannot cast to INT64
    assert code == 0 and ws.value == 0 and not ex.value.launches
    assert aclnnClamp(None, 0, ex.value, dev.stream) == 0


# -- the compute dtype ----------------------------------------------------------------------------


@pytest.mark.parametrize("chip", TBE_CHIPS)
def test_tbe_chips_compute_in_out_dtype(chip, on, scalars):
    with on(chip) as dev:
        # FLOAT self into INT64 out: refused by CanCast (the UT's case_self_uncast_out)
        f = dev.tensor(np.ones(4, np.float32))
        i64 = dev.tensor(np.ones(4, np.int64))
        assert _p1(aclnnClampGetWorkspaceSize, f, scalars(0.0), scalars(1.0), i64)[0] == ACLNN_ERR_PARAM_INVALID
        assert aclGetRecentErrMsg() == _msg("self type DT_FLOAT can't be cast to the output type DT_INT64.")
        # INT32 self, float bounds, INT32 out: the bounds are truncated (2.7 -> 2, 5.9 -> 5)
        x = np.arange(8, dtype=np.int32)
        assert _clamp(dev, x, scalars(2.7), scalars(5.9)).tolist() == [2, 2, 2, 3, 4, 5, 5, 5]
        # INT32 self, FLOAT out: self is cast to FLOAT first, the bounds stay fractional
        assert _clamp(dev, x, scalars(2.5), scalars(5.5), np.float32).tolist() == [2.5, 2.5, 2.5, 3, 4, 5, 5.5, 5.5]
        # UINT8 self, INT64 min -5: wraps to 251 (a C cast), so everything below 251 becomes 251
        u8 = np.array([0, 100, 252, 255], np.uint8)
        assert _clamp(dev, u8, scalars(-5, ACL_INT64), None).tolist() == [251, 251, 252, 255]
        # INT8 self, max 200 -> -56
        i8 = np.array([-100, -56, 0, 100], np.int8)
        assert _clamp(dev, i8, None, scalars(200, ACL_INT64)).tolist() == [-100, -56, -56, -56]
        # a complex bound converts to 0 (with a warning only)
        assert _clamp(dev, np.array([-1.0, 2.0], np.float32), scalars(1 + 1j, ACL_COMPLEX64), None).tolist() == [
            0.0,
            2.0,
        ]
        # a NaN bound into an integer dtype: x86's conversion gives INT_MIN (no lower clipping)
        assert _clamp(dev, np.array([-(2**31), 0], np.int32), scalars(math.nan), None).tolist() == [-(2**31), 0]
        # FLOAT self, FLOAT16 out: cast to float16 first, then clamped in float16
        r = _clamp(dev, np.array([0.1, 70000.0], np.float32), None, scalars(1e9), np.float16)
        assert_bits_equal(r, np.array([np.float16(0.1), np.inf], np.float16))


def test_ascend950_promotes_with_the_bounds(on, scalars):
    with on("Ascend950") as dev:
        i32 = dev.tensor(np.arange(4, dtype=np.int32))
        o32 = dev.tensor(np.zeros(4, np.int32))
        code, *_ = _p1(aclnnClampGetWorkspaceSize, i32, scalars(0.5), None, o32)
        assert code == ACLNN_ERR_PARAM_INVALID
        assert aclGetRecentErrMsg() == _msg("Result type DT_FLOAT can't be cast to the desired output type DT_INT32.")
        # an integer bound keeps the tensor's dtype (INT8 + INT64 scalar -> INT8)
        i8 = np.array([-100, 0, 100], np.int8)
        assert _clamp(dev, i8, scalars(-3, ACL_INT64), scalars(300, ACL_INT64)).tolist() == [-3, 0, 44]
        # INT32 with a float bound computes in FLOAT, then casts to the FLOAT out
        r = _clamp(dev, np.arange(4, dtype=np.int32), scalars(0.5), scalars(2.5, ACL_DOUBLE), np.float32)
        assert r.tolist() == [0.5, 1.0, 2.0, 2.5]
        code, _, ex = _p1(aclnnClampGetWorkspaceSize, i32, scalars(0.5), None, dev.tensor(np.zeros(4, np.float32)))
        clip = next(s for s in ex.value.steps if s.name == "ClipByValueV2")
        assert D.dt_name(clip.outputs[0].dtype) == "DT_FLOAT"
        aclDestroyAclOpExecutor(ex.value)
        # FLOAT16 self with a FLOAT bound stays FLOAT16 (the bound rounded to float16, no epsilon test)
        r = _clamp(dev, np.array([0.0, 1.0], np.float16), scalars(0.1), None)
        assert_bits_equal(r, np.array([np.float16(0.1), 1.0], np.float16))
        # a complex bound promotes to COMPLEX64, which FLOAT out cannot take
        f = dev.tensor(np.ones(4, np.float32))
        assert _p1(aclnnClampGetWorkspaceSize, f, scalars(1j, ACL_COMPLEX64), None, f)[0] == ACLNN_ERR_PARAM_INVALID
        assert aclGetRecentErrMsg() == _msg(
            "Result type DT_COMPLEX64 can't be cast to the desired output type DT_FLOAT."
        )
        # two bounds that do not promote together: the tensor's dtype wins (no "promote type fail.")
        i64 = np.array([-5, 5], np.int64)
        assert _clamp(dev, i64, scalars(0, ACL_UINT64), scalars(3, ACL_INT64)).tolist() == [0, 3]
        # INT32 self cast to FLOAT16 out is fine when the bounds are integers (P = INT32)
        r = _clamp(dev, np.array([1, 9], np.int32), scalars(2, ACL_INT32), scalars(4, ACL_INT32), np.float16)
        assert r.tolist() == [2.0, 4.0]


def test_promotion_helpers():
    c = facts.combine_categories_with_complex
    assert c(D.DT_INT32, D.DT_FLOAT) == D.DT_FLOAT
    assert c(D.DT_FLOAT16, D.DT_FLOAT) == D.DT_FLOAT16
    assert c(D.DT_UINT8, D.DT_INT64) == D.DT_UINT8
    assert c(D.DT_FLOAT, D.DT_COMPLEX64) == D.DT_COMPLEX64
    assert c(D.DT_FLOAT16, D.DT_COMPLEX64) == D.DT_COMPLEX32
    assert c(D.DT_INT8, D.DT_COMPLEX64) == D.DT_COMPLEX64
    assert c(D.DT_INT8, D.DT_UNDEFINED) == D.DT_INT8
    assert facts.scalar_default_dtype(D.DT_DOUBLE) == D.DT_FLOAT
    assert facts.scalar_default_dtype(D.DT_COMPLEX128) == D.DT_COMPLEX64
    assert facts.scalar_default_dtype(D.DT_INT16) == D.DT_INT16


# -- missing bounds, lo > hi -----------------------------------------------------------------------


@pytest.mark.parametrize("chip", ["Ascend910B", "Ascend950"])
def test_a_missing_bound_is_the_full_range(chip, on, scalars):
    with on(chip) as dev:
        cases = [
            (np.array([-np.inf, -3e38, 3e38, np.inf], np.float32), None),
            (np.array([-np.inf, 65504, np.inf], np.float16), None),
            (np.array([-np.inf, np.inf], BF16), None),
            (np.array([-np.inf, 1e300, np.inf], np.float64), None),
            (np.array([-(2**31), 2**31 - 1], np.int32), None),
            (np.array([-(2**63), 2**63 - 1], np.int64), None),
            (np.array([-32768, 32767], np.int16), None),
            (np.array([-128, 127], np.int8), None),
            (np.array([0, 255], np.uint8), None),
        ]
        for x, _ in cases:
            _same(_clamp(dev, x, None, scalars(0, ACL_INT32)), np.minimum(x, x.dtype.type(0)))
            _same(_clamp(dev, x, scalars(0, ACL_INT32), None), np.maximum(x, x.dtype.type(0)))
        _, _, ex = _p1(aclnnClampMinGetWorkspaceSize, dev.tensor(np.ones(2, np.int16)), scalars(0, ACL_INT32),
                       dev.tensor(np.zeros(2, np.int16)))  # fmt: skip
        clip = next(s for s in ex.value.steps if s.name == "ClipByValueV2")
        assert clip.inputs[2].storage.data.tolist() == 32767  # NPU_S16_MAX made an INT16 tensor
        aclDestroyAclOpExecutor(ex.value)


@pytest.mark.parametrize("chip", ["Ascend910B", "Ascend950"])
@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.float64, np.int8])
def test_min_above_max_gives_max(chip, dtype, on, scalars):
    with on(chip) as dev:
        x = np.array([-5, 0, 3, 9], dtype)
        assert _clamp(dev, x, scalars(5, ACL_INT64), scalars(2, ACL_INT64)).tolist() == [2, 2, 2, 2]


# -- NaN and signed zeros --------------------------------------------------------------------------


def _f32(v):
    return np.array(v, np.float32)


@pytest.mark.parametrize("chip", ["Ascend910B", "Ascend950", "Ascend910"])
def test_ai_core_nan_and_zeros(chip, on, scalars):
    """AI Core max/min return the number of a (NaN, number) pair: a NaN element is clamped to the
    lower bound (to -inf when there is none); a NaN bound is ignored."""
    nan = math.nan
    with on(chip) as dev:
        x = _f32([nan, 0.5, 3.0])
        assert_bits_equal(_clamp(dev, x, scalars(0.0), scalars(1.0)), _f32([0.0, 0.5, 1.0]))
        assert_bits_equal(_clamp(dev, x, None, scalars(1.0)), _f32([-np.inf, 0.5, 1.0]))
        assert_bits_equal(_clamp(dev, x, scalars(0.0), None), _f32([0.0, 0.5, 3.0]))
        assert_bits_equal(_clamp(dev, x, scalars(nan), scalars(1.0)), _f32([1.0, 0.5, 1.0]))
        assert_bits_equal(_clamp(dev, _f32([nan]), scalars(nan), scalars(nan)), _f32([nan]))
        z = _f32([-0.0, 0.0])
        assert_bits_equal(_clamp(dev, z, scalars(0.0), None), _f32([0.0, 0.0]))  # max(-0, +0) = +0
        assert_bits_equal(_clamp(dev, z, None, scalars(-0.0)), _f32([-0.0, -0.0]))  # min(+0, -0) = -0
        h = np.array([nan, 2.0], np.float16)
        assert_bits_equal(_clamp(dev, h, scalars(-1.0), scalars(1.0)), np.array([-1.0, 1.0], np.float16))


@pytest.mark.parametrize("chip", ["Ascend910B", "Ascend950"])
def test_ai_cpu_double_propagates_nan(chip, on, scalars):
    nan = math.nan
    with on(chip) as dev:
        x = np.array([nan, 0.5, 3.0, -0.0], np.float64)
        got = _clamp(dev, x, scalars(0.0, ACL_DOUBLE), scalars(1.0, ACL_DOUBLE))
        assert_bits_equal(got, np.array([nan, 0.5, 1.0, -0.0]))  # std::max(-0, +0) keeps -0
        got = _clamp(dev, x, scalars(nan, ACL_DOUBLE), None)
        assert np.isnan(got).all()


# -- the graph -------------------------------------------------------------------------------------

BRANCHES = [
    ("Ascend910B", np.float32, np.float32, ["ClipByValueV2"]),
    ("Ascend910B", BF16, BF16, ["ClipByValueV2"]),
    ("Ascend910B", np.int64, np.int64, ["ClipByValueV2"]),
    ("Ascend910B", np.float64, np.float64, ["ClipByValueV2@AiCpu"]),
    ("Ascend910B", np.int16, np.int16, ["ClipByValueV2@AiCpu"]),
    ("Ascend910B", np.uint8, np.uint8, ["ClipByValueV2@AiCpu"]),
    ("Ascend910B", np.int32, np.float32, ["Cast", "ClipByValueV2"]),
    ("Ascend910", np.int8, np.int8, ["ClipByValueV2@AiCpu"]),
    ("Ascend950", np.int32, np.float32, ["ClipByValueV2", "Cast"]),  # an integer bound: P = INT32
    ("Ascend950", np.float16, np.float32, ["ClipByValueV2", "Cast"]),
    ("Ascend950", np.int8, np.int8, ["ClipByValueV2@AiCpu"]),
]


@pytest.mark.parametrize("chip,self_dt,out_dt,graph", BRANCHES)
def test_graph_per_chip(chip, self_dt, out_dt, graph, on, scalars):
    with on(chip) as dev:
        t = dev.tensor(np.zeros(4, self_dt))
        o = dev.tensor(np.zeros(4, out_dt))
        code, _, ex = _p1(aclnnClampGetWorkspaceSize, t, scalars(1, ACL_INT64), None, o)
        assert code == 0, aclGetRecentErrMsg()
        launched = _graph(ex.value)
        steps = [s.name for s in ex.value.steps]
        aclDestroyAclOpExecutor(ex.value)
        assert launched == graph
        assert steps[:2] == ["Contiguous", "Cast"] and steps[-1] == "ViewCopy"
        assert ("Cast" in steps[3:]) == (chip == "Ascend950")  # only Ascend950 casts to out afterwards


def test_views_and_bf16_numbers(dev, scalars):
    xs = np.array([[-3.0, 0.25, 7.0], [1.5, -0.5, 2.0]], np.float32)
    x = dev.strided(xs, (3, 2), (1, 3))
    o = dev.strided(np.zeros((2, 3), np.float32), (3, 2), (1, 3))
    assert dev.run(aclnnClampGetWorkspaceSize, aclnnClamp, x, scalars(-1.0), scalars(1.75), o) == (0, 0, 0)
    assert dev.read(o).tolist() == np.clip(xs.T, -1.0, 1.75).tolist()
    b = np.array([-3.0, 0.3, 1.0e10], np.float32).astype(BF16)
    got = _clamp(dev, b, scalars(0.1, ACL_DOUBLE), scalars(1e9))  # bounds rounded to bfloat16 via float
    lo = np.float32(0.1).astype(BF16)
    hi = np.float32(1e9).astype(BF16)
    assert_bits_equal(got, np.array([lo, b[1], hi], BF16))


def test_zero_d_and_in_place_out(dev, scalars):
    assert _clamp(dev, np.array(7.5, np.float32), None, scalars(2.0)).tolist() == 2.0
    t = dev.tensor(np.array([-1, 5, 9], np.int64))  # out may be self itself
    assert dev.run(aclnnClampGetWorkspaceSize, aclnnClamp, t, scalars(0, ACL_INT64), scalars(6, ACL_INT64), t) == (
        0,
        0,
        0,
    )
    assert dev.read(t).tolist() == [0, 5, 6]


def test_doc_examples_and_functional(dev, scalars):
    x = np.array([0, 1, 0, 3, 0, 5, 0, 7], np.float32).reshape(4, 2)
    assert _clamp(dev, x, scalars(2.0), scalars(5.0)).ravel().tolist() == [2, 2, 2, 3, 2, 5, 2, 5]
    t, o = dev.tensor(x), dev.tensor(np.zeros((4, 2), np.float32))
    assert dev.run(aclnnClampMinGetWorkspaceSize, aclnnClampMin, t, scalars(2.0), o) == (0, 0, 0)
    assert dev.read(o).ravel().tolist() == [2, 2, 2, 3, 2, 5, 2, 7]
    i = dev.tensor(np.arange(8, dtype=np.int32).reshape(4, 2))
    oi = dev.tensor(np.zeros((4, 2), np.int32))
    assert dev.run(aclnnClampMaxGetWorkspaceSize, aclnnClampMax, i, scalars(4, ACL_INT32), oi) == (0, 0, 0)
    assert dev.read(oi).ravel().tolist() == [0, 1, 2, 3, 4, 4, 4, 4]
    assert F.clamp(np.array([-2.0, 0.5, 9.0], np.float32), 0.0, 1.0).tolist() == [0.0, 0.5, 1.0]
    assert F.clamp(np.array([-2, 5], np.int32), max=3).tolist() == [-2, 3]
    assert F.clamp_min(np.array([-2, 5], np.int64), 0).tolist() == [0, 5]
    assert F.clamp_max(np.array([-2.5, 5.0], np.float16), -3.0).tolist() == [-3.0, -3.0]
    _ = (ACL_BOOL, ACL_FLOAT16)
