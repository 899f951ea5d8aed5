"""aclnnSub, aclnnSubs, aclnnInplaceSub, aclnnInplaceSubs: error rows in CANN's order, dtypes per
chip, the graph's branches, numbers against exact goldens, broadcast, views, empty, in place."""

from __future__ import annotations

import goldens
import ml_dtypes
import numpy as np
import pytest
from helpers import ACL_OF, Dev, assert_bits_equal, own

from aclnn_py import (
    ACL_BF16,
    ACL_BOOL,
    ACL_COMPLEX64,
    ACL_DOUBLE,
    ACL_ERROR_RT_AICPU_EXCEPTION,
    ACL_FLOAT,
    ACL_FLOAT16,
    ACL_INT32,
    ACL_INT64,
    ACL_UINT32,
    ACLNN_ERR_PARAM_INVALID,
    ACLNN_ERR_PARAM_NULLPTR,
    Ref,
    aclCreateScalar,
    aclDestroyAclOpExecutor,
    aclDestroyScalar,
    aclGetRecentErrMsg,
    aclnnInplaceSub,
    aclnnInplaceSubGetWorkspaceSize,
    aclnnInplaceSubs,
    aclnnInplaceSubsGetWorkspaceSize,
    aclnnSub,
    aclnnSubGetWorkspaceSize,
    aclnnSubs,
    aclnnSubsGetWorkspaceSize,
)
from aclnn_py import dtypes as D
from aclnn_py import functional as F
from aclnn_py.ops.math import sub as facts

BF16 = np.dtype(ml_dtypes.bfloat16)
PREFIX = "AclNN_Parameter_Error(EZ1001): "
CHIPS = ["Ascend910B", "Ascend910_93", "Ascend950", "Ascend910", "Ascend310P"]
LIST_910B = (
    "[DT_FLOAT,DT_INT32,DT_INT64,DT_FLOAT16,DT_INT16,DT_INT8,DT_UINT8,DT_DOUBLE,DT_BFLOAT16,DT_BOOL,DT_COMPLEX64,"
    "DT_COMPLEX128,]"
)
LIST_910 = (
    "[DT_FLOAT,DT_INT32,DT_INT64,DT_FLOAT16,DT_INT16,DT_INT8,DT_UINT8,DT_DOUBLE,DT_BOOL,DT_COMPLEX64,DT_COMPLEX128,]"
)


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
def chip_dev(soc):
    """A device on the chip named by the test: ``dev = chip_dev("Ascend950")``."""
    made = []

    def make(chip):
        soc(chip)
        d = Dev()
        made.append(d)
        return d

    yield make
    for d in made:
        d.close()


def _p1(fn, *args):
    ws, ex = Ref(0), Ref()
    return fn(*args, ws, ex), ws, ex


def _names(launches) -> list[str]:
    """Op types, with the engine of Sub/Mul (the Cast family decides where its casts run)."""
    return [f"{ln.op_type}{'@AiCpu' if ln.engine == 'AiCpu' and ln.op_type != 'Cast' else ''}" for ln in launches]


def _graph(ex) -> list[str]:
    return _names(ex.launches)


def _run(dev, p1, p2, *args):
    assert dev.run(p1, p2, *args) == (0, 0, 0), aclGetRecentErrMsg()


def _graph_of(fn, *args) -> list[str]:
    code, _, ex = _p1(fn, *args)
    assert code == 0, aclGetRecentErrMsg()
    g = _graph(ex.value)
    assert aclDestroyAclOpExecutor(ex.value) == 0
    return g


def _sub_exact(x: float, y: float):
    return goldens.add_exact(x, -y)


def _axpy_exact(alpha: float):
    """x + alpha * y with alpha the (already negated) float32 attribute, rounded once."""
    return lambda x, y: goldens.fma_exact(alpha, y, x)


def _f16(x: float) -> float:
    return float(np.array(goldens.to_f16_bits(x), np.uint16).view(np.float16))


def _round(r32: np.ndarray, dtype) -> np.ndarray:
    """float32 results rounded (by hand, half to even) to ``dtype``: the final Cast."""
    return goldens.round_to([float(v) for v in r32.reshape(-1)], dtype).reshape(r32.shape)


# -- aclnnSub: error rows --------------------------------------------------------------------------


def test_null_out_pointers_come_first(dev, scalars):
    t = dev.tensor(np.ones(4, np.float32))
    assert aclnnSubGetWorkspaceSize(None, t, scalars(1.0), t, None, Ref()) == ACLNN_ERR_PARAM_NULLPTR
    assert aclGetRecentErrMsg() == f"{PREFIX}executor or workspaceSize is nullptr\n"
    assert aclnnSubsGetWorkspaceSize(t, None, None, t, Ref(0), None) == ACLNN_ERR_PARAM_NULLPTR
    assert aclGetRecentErrMsg() == f"{PREFIX}executor or workspaceSize is nullptr\n"


@pytest.mark.parametrize("which,name,kind", [(0, "self", "aclTensor"), (1, "other", "aclTensor"),
                                             (2, "alpha", "aclScalar"), (3, "out", "aclTensor")])  # fmt: skip
def test_null_arguments_in_order(dev, scalars, which, name, kind):
    args = [dev.tensor(np.ones(4, np.float32)), dev.tensor(np.ones(4, np.float32)), scalars(1.0),
            dev.tensor(np.zeros(4, np.float32))]  # fmt: skip
    args[which] = None
    code, ws, ex = _p1(aclnnSubGetWorkspaceSize, *args)
    assert code == ACLNN_ERR_PARAM_NULLPTR
    assert (
        aclGetRecentErrMsg()
        == f"{PREFIX}Expected a value of type [{kind}] for argument [{name}] but instead found nullptr.\n"
    )
    assert ws.value == 0 and ex.value is None


ALL_DTYPES = [np.float32, np.float16, BF16, np.float64, np.int8, np.int16, np.int32, np.int64, np.uint8, np.bool_,
              np.complex64, np.complex128, np.uint16, np.uint32, np.uint64]  # fmt: skip


def _operands(dt):
    if dt == np.bool_:
        return np.array([True, False, True, False, True, True]), np.array([True, True, False, False, False, True])
    return np.arange(6).astype(dt), np.array([5, 1, 1, 2, 0, 3]).astype(dt)


@pytest.mark.parametrize("chip", CHIPS)
def test_every_dtype_per_chip(chip_dev, scalars, chip):
    """self/other/out of one dtype: accepted iff in the chip's list (BFLOAT16 before BOOL in the
    message); then the numbers (x - 1*y; bool: exclusive or; uint8 wraps)."""
    dev = chip_dev(chip)
    supported = facts.dtype_support_list()
    alpha = scalars(1, ACL_INT64)
    for dt in map(np.dtype, ALL_DTYPES):
        acl = int(ACL_OF[dt])
        a, b = _operands(dt)
        ta, tb, to = dev.tensor(a), dev.tensor(b), dev.tensor(np.zeros(6, dt))
        code, ws, ex = _p1(aclnnSubGetWorkspaceSize, ta, tb, alpha, to)
        if acl in supported:
            assert code == 0, (dt, aclGetRecentErrMsg())
            assert aclnnSub(dev.workspace(ws.value), ws.value, ex.value, dev.stream) == 0
            got = dev.read(to)
            if dt == np.bool_:
                assert got.tolist() == [x != y for x, y in zip(a.tolist(), b.tolist())]
            elif dt == np.uint8:
                assert got.tolist() == [(x - y) % 256 for x, y in zip(a.tolist(), b.tolist())]
            else:
                assert got.tolist() == [x - y for x, y in zip(a.tolist(), b.tolist())], dt
        else:
            assert code == ACLNN_ERR_PARAM_INVALID
            listed = LIST_910B if chip in ("Ascend910B", "Ascend910_93", "Ascend950") else LIST_910
            assert aclGetRecentErrMsg() == (
                f"{PREFIX}Tensor self not implemented for {D.dt_name(acl)}, should be in dtype support list {listed}.\n"
            )
    expected = {"Ascend910": 11, "Ascend310P": 11}.get(chip, 12)
    assert len(supported) == expected


def test_other_is_checked_after_self(dev, scalars):
    f = dev.tensor(np.ones(4, np.float32))
    u = dev.tensor(np.ones(4, np.uint32), acl_dtype=ACL_UINT32)
    assert _p1(aclnnSubGetWorkspaceSize, f, u, scalars(1.0), f)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == (
        f"{PREFIX}Tensor other not implemented for DT_UINT32, should be in dtype support list {LIST_910B}.\n"
    )
    # UT abnormal_dtype_alpha_int64: UINT32 inputs
    assert _p1(aclnnSubGetWorkspaceSize, u, u, scalars(5, ACL_INT64), u)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg().startswith(f"{PREFIX}Tensor self not implemented for DT_UINT32")


def test_alpha_must_cast_to_the_promoted_dtype(dev, scalars):
    """Sub's CheckPromoteType: a non-bool promotion reports ``Result type ...`` (Add: ``Alpha dtype ...``)."""
    i = dev.tensor(np.ones(4, np.int32))
    assert _p1(aclnnSubGetWorkspaceSize, i, i, scalars(5.9), i)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == f"{PREFIX}Result type DT_FLOAT can't be cast to the desired output type DT_INT32.\n"
    f = dev.tensor(np.ones(4, np.float32))
    assert _p1(aclnnSubGetWorkspaceSize, f, f, scalars(1 + 2j, ACL_COMPLEX64), f)[0] == ACLNN_ERR_PARAM_INVALID
    assert (
        aclGetRecentErrMsg() == f"{PREFIX}Result type DT_COMPLEX64 can't be cast to the desired output type DT_FLOAT.\n"
    )
    b = dev.tensor(np.ones(4, np.bool_))
    assert _p1(aclnnSubGetWorkspaceSize, b, b, scalars(1.0), b)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == f"{PREFIX}Alpha dtype DT_FLOAT can't be cast to the promote dtype DT_BOOL.\n"
    for ok in (scalars(2, ACL_INT64), scalars(True, ACL_BOOL), scalars(7, ACL_UINT32)):  # integer or bool
        code, _, ex = _p1(aclnnSubGetWorkspaceSize, b, b, ok, b)
        assert code == 0 and aclDestroyAclOpExecutor(ex.value) == 0


def test_promoted_dtype_must_cast_to_out(dev, scalars):
    """UT abnormal_dtype_promote: float - float into an INT32 out."""
    f = dev.tensor(np.ones(4, np.float32))
    i = dev.tensor(np.zeros(4, np.int32))
    assert _p1(aclnnSubGetWorkspaceSize, f, f, scalars(1.2), i)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == f"{PREFIX}Result type DT_FLOAT can't be cast to the desired output type DT_INT32.\n"
    h = dev.tensor(np.ones(4, np.float16))
    b = dev.tensor(np.zeros(4, np.bool_))
    assert _p1(aclnnSubGetWorkspaceSize, h, f, scalars(1.0), b)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == f"{PREFIX}Result type DT_FLOAT can't be cast to the desired output type DT_BOOL.\n"


def test_the_checks_run_in_canns_order(dev, scalars):
    """A call wrong in every way reports only the first failing check."""
    u = dev.tensor(np.ones((1,) * 9, np.uint32), acl_dtype=ACL_UINT32)
    assert _p1(aclnnSubGetWorkspaceSize, u, u, None, u)[0] == ACLNN_ERR_PARAM_NULLPTR
    assert "[alpha]" in aclGetRecentErrMsg()
    assert _p1(aclnnSubGetWorkspaceSize, u, u, scalars(1.5), u)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg().startswith(f"{PREFIX}Tensor self not implemented for DT_UINT32")
    i9 = dev.tensor(np.ones((1,) * 9, np.int32))
    assert _p1(aclnnSubGetWorkspaceSize, i9, i9, scalars(1.5), i9)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == f"{PREFIX}Result type DT_FLOAT can't be cast to the desired output type DT_INT32.\n"


def test_shape_rows(dev, scalars):
    alpha = scalars(1.0)
    r9 = dev.tensor(np.ones((1,) * 9, np.float32))
    a = dev.tensor(np.ones((10, 5, 2, 10), np.float32))
    b = dev.tensor(np.ones((10, 5, 5, 10), np.float32))
    o = dev.tensor(np.zeros((10, 5, 2, 10), np.float32))
    assert _p1(aclnnSubGetWorkspaceSize, r9, r9, alpha, r9)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == f"{PREFIX}The self tensor cannot be larger than 8 dimensions.\n"
    assert _p1(aclnnSubGetWorkspaceSize, a, r9, alpha, a)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == f"{PREFIX}The other tensor cannot be larger than 8 dimensions.\n"
    r8 = dev.tensor(np.ones((1,) * 8, np.float32))  # 8 dims pass
    code, _, ex = _p1(aclnnSubGetWorkspaceSize, r8, r8, alpha, r8)
    assert code == 0 and aclDestroyAclOpExecutor(ex.value) == 0
    assert _p1(aclnnSubGetWorkspaceSize, a, b, alpha, o)[0] == ACLNN_ERR_PARAM_INVALID
    lines = aclGetRecentErrMsg().splitlines()
    assert lines[0].startswith(
        "Invalid_Argument_Tensor_Input_Shape(EZ1007): Shape [10, 5, 5, 10] of the tensor of operator aclnnSub_"
    )
    assert lines[0].endswith(
        " has incorrect dimension 5. Reason: The tensor whose shape is [10, 5, 5, 10] and the tensor whose shape is "
        "[10, 5, 2, 10] do not meet the broadcast condition."
    )
    assert lines[1:] == [
        "TraceBack (most recent call last):",
        "        The size of tensor self [10, 5, 2, 10] must match the size of tensor other [10, 5, 5, 10].",
    ]
    wrong = dev.tensor(np.zeros((10, 5, 10, 2), np.float32))
    assert _p1(aclnnSubGetWorkspaceSize, a, a, alpha, wrong)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == (
        f"{PREFIX}Expected tensor for out to have same size as [10, 5, 2, 10], but got [10, 5, 10, 2].\n"
    )
    # out of the broadcast shape, but of another rank
    o1 = dev.tensor(np.zeros((1, 10, 5, 2, 10), np.float32))
    assert _p1(aclnnSubGetWorkspaceSize, a, a, alpha, o1)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == (
        f"{PREFIX}Expected tensor for out to have same size as [10, 5, 2, 10], but got [1, 10, 5, 2, 10].\n"
    )


def test_empty_tensors_skip_the_graph(dev, scalars):
    a = dev.tensor(np.ones((7, 0, 6), np.float32))
    b = dev.tensor(np.ones((7, 1, 6), np.float32))
    code, ws, ex = _p1(aclnnSubGetWorkspaceSize, a, b, scalars(2.0), a)
    assert code == 0 and ws.value == 0 and not ex.value.launches and not ex.value.steps
    assert aclnnSub(None, 0, ex.value, dev.stream) == 0
    # only other empty: the broadcast shape is empty too
    c = dev.tensor(np.ones((1,), np.float32))
    e = dev.tensor(np.ones((0,), np.float32))
    code, ws, ex = _p1(aclnnSubGetWorkspaceSize, c, e, scalars(2.0), e)
    assert code == 0 and ws.value == 0 and not ex.value.launches
    assert aclDestroyAclOpExecutor(ex.value) == 0


# -- aclnnSub: the graph's branches ----------------------------------------------------------------

BRANCHES = [
    # chip, dtype, alpha, expected launches
    ("Ascend910B", np.float32, 1.0, ["Sub"]),
    ("Ascend910B", np.float32, 2.5, ["Axpy"]),
    ("Ascend910B", np.float16, 1.0, ["Sub"]),
    ("Ascend910B", np.float16, 2.5, ["Cast", "Cast", "Axpy", "Cast"]),  # raised to FLOAT
    ("Ascend910B", BF16, 2.5, ["Cast", "Cast", "Axpy", "Cast"]),
    ("Ascend910B", np.int32, 3, ["Mul", "Sub"]),  # no INT32 Axpy, unlike aclnnAdd
    ("Ascend910B", np.int64, 3, ["Mul", "Sub"]),
    ("Ascend910B", np.int8, 3, ["Mul", "Sub"]),
    ("Ascend910B", np.uint8, 3, ["Mul", "Sub"]),
    ("Ascend910B", np.bool_, 2, ["Mul", "Sub"]),
    ("Ascend910B", np.int16, 1, ["Sub@AiCpu"]),
    ("Ascend910B", np.int16, 3, ["Mul@AiCpu", "Sub@AiCpu"]),
    ("Ascend910B", np.float64, 2.5, ["Mul@AiCpu", "Sub@AiCpu"]),  # DOUBLE stays DOUBLE
    ("Ascend910B", np.complex64, 1, ["Sub"]),
    ("Ascend910B", np.complex128, 1, ["Sub@AiCpu"]),
    ("Ascend910_93", np.float16, 2.5, ["Cast", "Cast", "Axpy", "Cast"]),
    ("Ascend910", np.complex64, 1, ["Sub@AiCpu"]),
    ("Ascend910", np.complex64, 3, ["Mul@AiCpu", "Sub@AiCpu"]),
    ("Ascend910", np.float16, 2.5, ["Cast", "Cast", "Axpy", "Cast"]),
    ("Ascend310P", np.int32, 3, ["Mul", "Sub"]),
    ("Ascend950", np.float32, 2.5, ["Axpy"]),
    ("Ascend950", np.float16, 2.5, ["Axpy"]),  # no FLOAT raise on Ascend950
    ("Ascend950", BF16, 2.5, ["Axpy"]),
    ("Ascend950", np.int32, 3, ["AxpyV2"]),
    ("Ascend950", np.int64, 3, ["AxpyV2"]),
    ("Ascend950", np.int8, 3, ["AxpyV2"]),
    ("Ascend950", np.uint8, 3, ["Mul", "Sub"]),  # not in Sub's AxpyV2 list
    ("Ascend950", np.bool_, 2, ["Mul", "Sub"]),
    ("Ascend950", np.int16, 3, ["Mul", "Sub@AiCpu"]),
    ("Ascend950", np.float64, 2.5, ["Mul", "Sub@AiCpu"]),
    ("Ascend950", np.complex64, 1, ["Mul", "Sub"]),  # a complex promotion is never "1" on Ascend950
    ("Ascend950", np.complex128, 1, ["Mul@AiCpu", "Sub@AiCpu"]),
]


@pytest.mark.parametrize("chip,dtype,alpha,graph", BRANCHES)
def test_graph_branch_by_chip_dtype_and_alpha(chip_dev, chip, dtype, alpha, graph):
    dev = chip_dev(chip)
    a = dev.tensor(np.arange(4).astype(dtype))
    acl_alpha = ACL_DOUBLE if dtype == np.float64 else (ACL_FLOAT if isinstance(alpha, float) else ACL_INT64)
    s = aclCreateScalar(alpha, acl_alpha)
    assert _graph_of(aclnnSubGetWorkspaceSize, a, a, s, dev.tensor(np.zeros(4, dtype))) == graph
    assert aclDestroyScalar(s) == 0


def test_the_float_raise_computes_half_types_in_float(dev, scalars):
    """Off Ascend950, a floating promotion with alpha != 1 becomes FLOAT: the Axpy runs on FLOAT
    with the float32 ``-alpha`` and the result is cast back to out's dtype."""
    h = dev.tensor(np.ones((4, 2), np.float16))
    code, _, ex = _p1(aclnnSubGetWorkspaceSize, h, h, scalars(1.2), dev.tensor(np.zeros((4, 2), np.float16)))
    assert code == 0
    axpy = next(ln for ln in ex.value.launches if ln.op_type == "Axpy")
    assert D.dt_name(axpy.outputs[0].dtype) == "DT_FLOAT"
    assert axpy.attrs["alpha"] == -float(np.float32(1.2))
    aclDestroyAclOpExecutor(ex.value)
    # mixed FLOAT16/BFLOAT16 promote to FLOAT anyway; alpha 1 keeps FLOAT16 FLOAT16
    b = dev.tensor(np.ones((4, 2), BF16))
    assert _graph_of(aclnnSubGetWorkspaceSize, h, b, scalars(1.0), dev.tensor(np.zeros((4, 2), np.float32))) == [
        "Cast", "Cast", "Sub"]  # fmt: skip
    # a NaN alpha counts as 1: neither the raise nor the Axpy
    assert _graph_of(aclnnSubGetWorkspaceSize, h, h, scalars(float("nan")), h) == ["Sub"]


def test_mixed_dtypes_have_no_mix_kernel(dev, scalars):
    """FLOAT16 - FLOAT casts self to FLOAT first (aclnnAdd has a mixed kernel, aclnnSub has not)."""
    h = dev.tensor(np.array([0.1, 1e-4, 65504, -3], np.float16))
    f = dev.tensor(np.array([1e-8, 0.25, 1e6, 3.5], np.float32))
    o = dev.tensor(np.zeros(4, np.float32))
    assert _graph_of(aclnnSubGetWorkspaceSize, h, f, scalars(1.0), o) == ["Cast", "Sub"]
    _run(dev, aclnnSubGetWorkspaceSize, aclnnSub, h, f, scalars(1.0), o)
    want = goldens.elementwise(_sub_exact, np.float32, dev.read(h).astype(np.float32), dev.read(f))
    assert_bits_equal(dev.read(o), want)


def test_alpha_is_one_per_chip(chip_dev, scalars):
    """A double alpha within float rounding of 1 is 1 except on Ascend950's DOUBLE promotion."""
    near_one = 1 + 1e-10
    for chip, dtype, graph in (("Ascend910B", np.float64, ["Sub@AiCpu"]), ("Ascend950", np.float64, ["Mul", "Sub@AiCpu"]),
                               ("Ascend950", np.float32, ["Sub"])):  # fmt: skip
        dev = chip_dev(chip)
        t = dev.tensor(np.ones(3, dtype))
        assert _graph_of(aclnnSubGetWorkspaceSize, t, t, scalars(near_one, ACL_DOUBLE), t) == graph, chip
        dev.close()


def test_ascend950_negates_an_integer_alpha_for_axpy_v2(chip_dev, scalars):
    """AxpyV2 gets ``-ToInt64(alpha)`` converted to the promoted dtype (C truncation)."""
    dev = chip_dev("Ascend950")
    cases = [
        (np.int32, scalars(3, ACL_INT64), -3),
        (np.int32, scalars(2**32 + 3, ACL_INT64), -3),  # the low 32 bits of -(2^32 + 3)
        (np.int8, scalars(130, ACL_INT64), 126),  # -130 -> int8 126
        (np.int64, scalars(-(2**63), ACL_INT64), -(2**63)),  # -INT64_MIN wraps
        (np.int32, scalars(True, ACL_BOOL), None),  # 1: alpha is one, no AxpyV2
    ]
    for dtype, alpha, want in cases:
        t = dev.tensor(np.arange(4).astype(dtype))
        code, _, ex = _p1(aclnnSubGetWorkspaceSize, t, t, alpha, t)
        assert code == 0
        if want is None:
            assert _graph(ex.value) == ["Sub"]
        else:
            (ln,) = ex.value.launches
            assert ln.op_type == "AxpyV2" and ln.inputs[2].storage.data.tolist() == want
            assert D.dt_name(ln.inputs[2].dtype) == D.dt_name(int(ACL_OF[np.dtype(dtype)]))
        aclDestroyAclOpExecutor(ex.value)


def test_mul_takes_alpha_converted_to_the_promoted_dtype(dev, scalars):
    t = dev.tensor(np.arange(4, dtype=np.int64))
    code, _, ex = _p1(aclnnSubGetWorkspaceSize, t, t, scalars(2**40 + 1, ACL_INT64), t)
    mul = next(ln for ln in ex.value.launches if ln.op_type == "Mul")
    assert code == 0 and mul.inputs[1].storage.data.tolist() == 2**40 + 1 and mul.inputs[1].view_shape == ()
    aclDestroyAclOpExecutor(ex.value)


# -- aclnnSub: numbers -----------------------------------------------------------------------------


def _values(dtype, n, seed, scale=4.0):
    rng = np.random.default_rng(seed)
    v = (rng.standard_normal(n) * scale).astype(np.float32)
    v[:7] = [0.0, -0.0, np.inf, -np.inf, np.nan, 1e-39, 0.0]
    return v.astype(dtype)


@pytest.mark.parametrize(
    "chip,dtype",
    [(c, d) for c in ("Ascend910B", "Ascend950", "Ascend910") for d in (np.float32, np.float16, BF16)
     if not (c == "Ascend910" and d == BF16)],  # no BFLOAT16 on Ascend910
)  # fmt: skip
def test_float_numbers_against_exact_goldens(chip_dev, chip, dtype):
    dev = chip_dev(chip)
    x, y = _values(dtype, 300, 1), _values(dtype, 300, 2, 100.0)
    y[6] = -0.0  # +0 - (-0) and friends
    tx, ty, o = dev.tensor(x), dev.tensor(y), dev.tensor(np.zeros(300, dtype))
    s1, s = aclCreateScalar(1.0, ACL_FLOAT), aclCreateScalar(1.3, ACL_FLOAT)
    _run(dev, aclnnSubGetWorkspaceSize, aclnnSub, tx, ty, s1, o)
    assert_bits_equal(dev.read(o), goldens.elementwise(_sub_exact, dtype, x, y))
    # alpha 1.3: x + (-1.3f) * y rounded once in float32 (Axpy), then once more to the half type
    _run(dev, aclnnSubGetWorkspaceSize, aclnnSub, tx, ty, s, o)
    r32 = goldens.elementwise(_axpy_exact(-float(np.float32(1.3))), np.float32, x, y)
    assert_bits_equal(dev.read(o), r32 if dtype == np.float32 else _round(r32, dtype))
    aclDestroyScalar(s1)
    aclDestroyScalar(s)


def test_double_and_complex_numbers(dev, scalars):
    x = np.array([1.5, -2.25, 1e300, 0.1])
    y = np.array([0.5, 4.0, -1e300, 0.2])
    tx, ty, o = dev.tensor(x), dev.tensor(y), dev.tensor(np.zeros(4))
    _run(dev, aclnnSubGetWorkspaceSize, aclnnSub, tx, ty, scalars(0.1, ACL_DOUBLE), o)
    want = goldens.elementwise(lambda u, v: goldens.add_exact(u, -goldens.round_exact(goldens.mul_exact(v, 0.1), np.float64)),
                               np.float64, x, y)  # fmt: skip
    assert_bits_equal(dev.read(o), want)  # Mul then Sub, each rounded in double
    c = np.array([1 + 2j, -3 + 0.5j], np.complex64)
    tc, oc = dev.tensor(c), dev.tensor(np.zeros(2, np.complex64))
    _run(dev, aclnnSubGetWorkspaceSize, aclnnSub, tc, tc, scalars(2, ACL_INT64), oc)
    assert dev.read(oc).tolist() == [-(1 + 2j), -(-3 + 0.5j)]


@pytest.mark.parametrize("chip", ["Ascend910B", "Ascend950"])
def test_integer_arithmetic_is_exact_and_wraps(chip_dev, chip):
    """int32 with alpha != 1 is Mul + Sub (910B) or AxpyV2 (950): exact, wrapping — unlike
    aclnnAdd's float32 Axpy on the TBE chips."""
    dev = chip_dev(chip)
    s = aclCreateScalar(3, ACL_INT64)
    big = np.array([16777217, 3, -7, 2**30, -(2**31)], np.int32)
    other = np.array([1, -5, 2, 1, 1], np.int32)
    tb, to, ob = dev.tensor(big), dev.tensor(other), dev.tensor(np.zeros(5, np.int32))
    _run(dev, aclnnSubGetWorkspaceSize, aclnnSub, tb, to, s, ob)
    want = [(int(a) - 3 * int(b) + 2**31) % 2**32 - 2**31 for a, b in zip(big, other)]
    assert dev.read(ob).tolist() == want
    i8 = np.array([100, -100, 127, -128, 5], np.int8)
    t8, o8 = dev.tensor(i8), dev.tensor(np.zeros(5, np.int8))
    _run(dev, aclnnSubGetWorkspaceSize, aclnnSub, t8, t8, s, o8)
    assert dev.read(o8).tolist() == [(-2 * int(v) + 128) % 256 - 128 for v in i8]
    u8 = np.array([0, 1, 200, 255], np.uint8)
    tu, ou = dev.tensor(u8), dev.tensor(np.zeros(4, np.uint8))
    _run(dev, aclnnSubGetWorkspaceSize, aclnnSub, tu, tu, s, ou)
    assert dev.read(ou).tolist() == [(-2 * int(v)) % 256 for v in u8]
    i64 = np.array([2**62, -(2**63), 5], np.int64)
    t64, o64 = dev.tensor(i64), dev.tensor(np.zeros(3, np.int64))
    _run(dev, aclnnSubGetWorkspaceSize, aclnnSub, t64, t64, s, o64)
    assert dev.read(o64).tolist() == [(-2 * int(v) + 2**63) % 2**64 - 2**63 for v in i64]
    aclDestroyScalar(s)


@pytest.mark.parametrize("chip", ["Ascend910B", "Ascend950"])
def test_bool_sub_is_an_exclusive_or(chip_dev, chip):
    dev = chip_dev(chip)
    a = np.array([True, False, True, False])
    b = np.array([True, True, False, False])
    ta, tb, o = dev.tensor(a), dev.tensor(b), dev.tensor(np.zeros(4, np.bool_))
    for alpha, want in ((1, a ^ b), (2, a ^ b), (0, a)):  # Mul(other, bool(alpha)) first when alpha != 1
        s = aclCreateScalar(alpha, ACL_INT64)
        _run(dev, aclnnSubGetWorkspaceSize, aclnnSub, ta, tb, s, o)
        assert dev.read(o).view(np.uint8).tolist() == want.astype(np.uint8).tolist(), alpha
        aclDestroyScalar(s)
    # into a FLOAT16 out
    oh = dev.tensor(np.zeros(4, np.float16))
    s = aclCreateScalar(True, ACL_BOOL)
    _run(dev, aclnnSubGetWorkspaceSize, aclnnSub, ta, tb, s, oh)
    assert dev.read(oh).tolist() == [0.0, 1.0, 1.0, 0.0]
    aclDestroyScalar(s)


def test_bool_sub_takes_the_absolute_difference_of_the_bytes(dev, scalars):
    """The kernels compute |x - y| on the stored bytes: the byte 2 the TBE Add stores for
    True + True minus True is 1 (a bitwise xor would give 3)."""
    t2 = dev.tensor(np.array([True, True, False]))
    two = dev.tensor(np.zeros(3, np.bool_))
    from aclnn_py import aclnnAdd, aclnnAddGetWorkspaceSize

    _run(dev, aclnnAddGetWorkspaceSize, aclnnAdd, t2, t2, scalars(1, ACL_INT64), two)
    assert dev.read(two).view(np.uint8).tolist() == [2, 2, 0]  # the TBE Add's bytes
    ones = dev.tensor(np.array([True, False, True]))
    o = dev.tensor(np.zeros(3, np.bool_))
    _run(dev, aclnnSubGetWorkspaceSize, aclnnSub, two, ones, scalars(1, ACL_INT64), o)
    assert dev.read(o).view(np.uint8).tolist() == [1, 2, 1]


def test_broadcast_and_non_contiguous_inputs(dev, scalars):
    rng = np.random.default_rng(3)
    xs = rng.standard_normal((3, 4)).astype(np.float32)
    x = dev.strided(xs, (4, 3), (1, 4))  # a transposed view
    y = dev.tensor(rng.standard_normal(3).astype(np.float32))
    o = dev.tensor(np.zeros((4, 3), np.float32))
    assert _graph_of(aclnnSubGetWorkspaceSize, x, y, scalars(0.5), o) == ["Transpose", "Axpy"]
    _run(dev, aclnnSubGetWorkspaceSize, aclnnSub, x, y, scalars(0.5), o)
    assert_bits_equal(dev.read(o), goldens.elementwise(_axpy_exact(-0.5), np.float32, xs.T, dev.read(y)))


def test_ascend950_has_no_strided_view_path(chip_dev, scalars):
    """Unlike aclnnAdd, aclnnSub makes every input contiguous on Ascend950 too."""
    dev = chip_dev("Ascend950")
    xs = np.arange(12, dtype=np.float32).reshape(3, 4)
    x = dev.strided(xs, (4, 3), (1, 4))
    o = dev.tensor(np.zeros((4, 3), np.float32))
    assert _graph_of(aclnnSubGetWorkspaceSize, x, x, scalars(1.0), o) == ["Transpose", "Transpose", "Sub"]
    _run(dev, aclnnSubGetWorkspaceSize, aclnnSub, x, x, scalars(1.0), o)
    assert (dev.read(o) == 0).all()


def test_non_contiguous_out_and_zero_dim(dev, scalars):
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    t = dev.tensor(x)
    o = dev.strided(np.zeros((3, 2), np.float32), (2, 3), (1, 2))
    _run(dev, aclnnSubGetWorkspaceSize, aclnnSub, t, dev.tensor(np.float32(1.5)), scalars(2.0), o)
    assert dev.read(o).tolist() == (x - 3).tolist()
    z = dev.tensor(np.float32(7))
    oz = dev.tensor(np.float32(0))
    _run(dev, aclnnSubGetWorkspaceSize, aclnnSub, z, z, scalars(1.0), oz)
    assert dev.read(oz).shape == () and float(dev.read(oz)) == 0.0


def test_doc_example(dev, scalars):
    """ops-math's example: self 0..7, other 2, alpha 1.2, FLOAT; then in place on self."""
    x = np.arange(8, dtype=np.float32).reshape(4, 2)
    self_t, other = dev.tensor(x), dev.tensor(np.full((4, 2), 2, np.float32))
    out = dev.tensor(np.zeros((4, 2), np.float32))
    alpha = scalars(1.2)
    _run(dev, aclnnSubGetWorkspaceSize, aclnnSub, self_t, other, alpha, out)
    printed = [f"{v:f}" for v in dev.read(out).ravel()]
    assert printed == [
        "-2.400000",
        "-1.400000",
        "-0.400000",
        "0.600000",
        "1.600000",
        "2.600000",
        "3.600000",
        "4.600000",
    ]
    _run(dev, aclnnInplaceSubGetWorkspaceSize, aclnnInplaceSub, self_t, other, alpha)
    assert [f"{v:f}" for v in dev.read(self_t).ravel()] == printed


# -- aclnnSubs -------------------------------------------------------------------------------------


def test_subs_rows(dev, scalars):
    x = np.arange(8, dtype=np.float32).reshape(4, 2)
    t = dev.tensor(x)
    o = dev.tensor(np.zeros((4, 2), np.float32))
    for which, name, kind in ((0, "self", "aclTensor"), (1, "other", "aclScalar"), (2, "alpha", "aclScalar"),
                              (3, "out", "aclTensor")):  # fmt: skip
        args = [t, scalars(2.0), scalars(1.0), o]
        args[which] = None
        assert _p1(aclnnSubsGetWorkspaceSize, *args)[0] == ACLNN_ERR_PARAM_NULLPTR
        assert (
            aclGetRecentErrMsg()
            == f"{PREFIX}Expected a value of type [{kind}] for argument [{name}] but instead found nullptr.\n"
        )
    u = dev.tensor(np.ones(4, np.uint32), acl_dtype=ACL_UINT32)
    assert _p1(aclnnSubsGetWorkspaceSize, u, scalars(1.0), scalars(1.0), u)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == (
        f"{PREFIX}Tensor self not implemented for DT_UINT32, should be in dtype support list {LIST_910B}.\n"
    )
    # UT abnormal_dtype_other_float: an INT32 tensor minus a FLOAT scalar promotes to FLOAT
    i = dev.tensor(np.ones((10, 5), np.int32))
    assert _p1(aclnnSubsGetWorkspaceSize, i, scalars(1.0), scalars(5, ACL_INT64), i)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == f"{PREFIX}Result type DT_FLOAT can't be cast to the desired output type DT_INT32.\n"
    assert _p1(aclnnSubsGetWorkspaceSize, i, scalars(1, ACL_INT64), scalars(0.5), i)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == f"{PREFIX}Result type DT_FLOAT can't be cast to the desired output type DT_INT32.\n"
    b = dev.tensor(np.ones(4, np.bool_))
    assert (
        _p1(aclnnSubsGetWorkspaceSize, b, scalars(1, ACL_UINT32), scalars(1, ACL_INT64), b)[0]
        == ACLNN_ERR_PARAM_INVALID
    )
    assert aclGetRecentErrMsg() == f"{PREFIX}Self dtype DT_BOOL and other dtype DT_UINT32 can not promote dtype.\n"
    assert _p1(aclnnSubsGetWorkspaceSize, b, scalars(True, ACL_BOOL), scalars(0.5), b)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == f"{PREFIX}Alpha dtype DT_FLOAT can't be cast to the promote dtype DT_BOOL.\n"
    # the scalar's own dtype is not checked; out must have self's shape; at most 8 dims
    code, _, ex = _p1(aclnnSubsGetWorkspaceSize, t, scalars(2, ACL_UINT32), scalars(1.0), o)
    assert code == 0 and aclDestroyAclOpExecutor(ex.value) == 0
    wrong = dev.tensor(np.zeros((2, 4), np.float32))
    assert _p1(aclnnSubsGetWorkspaceSize, t, scalars(2.0), scalars(1.0), wrong)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == (
        f"{PREFIX}Expected tensor for self to have same size as tensor for out, but [4, 2] does not equal [2, 4].\n"
    )
    r9 = dev.tensor(np.ones((1,) * 9, np.float32))
    assert _p1(aclnnSubsGetWorkspaceSize, r9, scalars(2.0), scalars(1.0), r9)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == f"{PREFIX}The self tensor cannot be larger than 8 dimensions.\n"
    e = dev.tensor(np.ones((3, 0), np.float32))
    code, ws, ex = _p1(aclnnSubsGetWorkspaceSize, e, scalars(2.0), scalars(1.0), e)
    assert code == 0 and ws.value == 0 and not ex.value.launches and aclDestroyAclOpExecutor(ex.value) == 0


@pytest.mark.parametrize("chip", CHIPS)
def test_subs_self_dtypes_per_chip(chip_dev, scalars, chip):
    dev = chip_dev(chip)
    supported = facts.dtype_support_list()
    for dt in map(np.dtype, ALL_DTYPES):
        t = dev.tensor(_operands(dt)[0])
        other = scalars(True, ACL_BOOL) if dt == np.bool_ else scalars(1, ACL_INT64)
        code, _, ex = _p1(aclnnSubsGetWorkspaceSize, t, other, scalars(1, ACL_INT64), t)
        assert (code == 0) == (int(ACL_OF[dt]) in supported), dt
        if code == 0:
            aclDestroyAclOpExecutor(ex.value)
        aclGetRecentErrMsg()


def test_subs_doc_example(dev, scalars):
    x = np.arange(8, dtype=np.float32).reshape(4, 2)
    t = dev.tensor(x)
    o = dev.tensor(np.zeros((4, 2), np.float32))
    _run(dev, aclnnSubsGetWorkspaceSize, aclnnSubs, t, scalars(2.0), scalars(1.2), o)
    printed = [f"{v:f}" for v in dev.read(o).ravel()]
    assert printed == [
        "-2.400000",
        "-1.400000",
        "-0.400000",
        "0.600000",
        "1.600000",
        "2.600000",
        "3.600000",
        "4.600000",
    ]
    want = goldens.elementwise(lambda u: goldens.fma_exact(-float(np.float32(1.2)), 2.0, u), np.float32, x)
    assert_bits_equal(dev.read(o), want)
    _run(dev, aclnnInplaceSubsGetWorkspaceSize, aclnnInplaceSubs, t, scalars(2.0), scalars(1.2))
    assert_bits_equal(dev.read(t), want)


SUBS_BRANCHES = [
    # chip, self dtype, scalar (value, dtype), alpha (value, dtype), out dtype, launches, dtype computed in
    ("Ascend910B", np.float16, (0.1, ACL_FLOAT), (1.3, ACL_FLOAT), np.float16, ["Axpy"], "DT_FLOAT16"),  # no raise
    ("Ascend910B", np.float16, (0.1, ACL_FLOAT), (1.0, ACL_FLOAT), np.float16, ["Sub"], "DT_FLOAT16"),
    ("Ascend910B", BF16, (1.0, ACL_FLOAT), (1.2, ACL_FLOAT), BF16, ["Axpy"], "DT_BFLOAT16"),
    ("Ascend910B", np.int32, (3, ACL_INT64), (2, ACL_INT64), np.int32, ["Mul", "Sub"], "DT_INT32"),
    ("Ascend910B", np.int32, (0.5, ACL_FLOAT), (2, ACL_INT64), np.float32, ["Cast", "Axpy"], "DT_FLOAT"),
    ("Ascend910B", np.int32, (0.5, ACL_DOUBLE), (1, ACL_INT64), np.float32, ["Cast", "Sub"], "DT_FLOAT"),
    ("Ascend910B", np.int32, (0.5, ACL_DOUBLE), (1, ACL_INT64), np.float64, ["Cast", "Sub@AiCpu"], "DT_DOUBLE"),
    ("Ascend910B", np.int8, (300, ACL_INT64), (1, ACL_INT64), np.int8, ["Sub"], "DT_INT8"),
    ("Ascend910B", np.bool_, (True, ACL_BOOL), (True, ACL_BOOL), np.float16, ["Sub", "Cast"], "DT_BOOL"),  # no fix
    (
        "Ascend910B",
        np.float64,
        (0.5, ACL_DOUBLE),
        (2.0, ACL_DOUBLE),
        np.float64,
        ["Mul@AiCpu", "Sub@AiCpu"],
        "DT_DOUBLE",
    ),
    ("Ascend910", np.uint8, (0.5, ACL_BF16), (1, ACL_INT64), np.float32, ["Cast", "Sub@AiCpu", "Cast"], "DT_BFLOAT16"),
    ("Ascend950", np.float16, (0.1, ACL_FLOAT), (1.3, ACL_FLOAT), np.float16, ["Cast", "Axpy", "Cast"], "DT_FLOAT"),
    ("Ascend950", np.float16, (0.25, ACL_FLOAT), (1.5, ACL_FLOAT), np.float16, ["Axpy"], "DT_FLOAT16"),
    ("Ascend950", np.int32, (3, ACL_INT64), (2, ACL_INT64), np.int32, ["AxpyV2"], "DT_INT32"),
    ("Ascend950", np.uint8, (3, ACL_INT64), (2, ACL_INT64), np.uint8, ["Mul", "Sub"], "DT_UINT8"),
    ("Ascend950", np.int32, (0.5, ACL_DOUBLE), (1, ACL_INT64), np.float32, ["Cast", "Sub"], "DT_FLOAT"),
]


@pytest.mark.parametrize("chip,self_dt,other,alpha,out_dt,graph,computed", SUBS_BRANCHES)
def test_subs_graph_and_promotion(chip_dev, scalars, chip, self_dt, other, alpha, out_dt, graph, computed):
    dev = chip_dev(chip)
    t, o = dev.tensor(np.ones(4, self_dt)), dev.tensor(np.zeros(4, out_dt))
    code, _, ex = _p1(aclnnSubsGetWorkspaceSize, t, scalars(*other), scalars(*alpha), o)
    assert code == 0, aclGetRecentErrMsg()
    launches = list(ex.value.launches)
    assert aclDestroyAclOpExecutor(ex.value) == 0
    assert _names(launches) == graph
    kernel = next(ln for ln in launches if ln.op_type in ("Sub", "Axpy", "AxpyV2"))
    assert D.dt_name(kernel.outputs[0].dtype) == computed
    scalar_in = None if any(g.startswith("Mul") for g in graph) else kernel.inputs[1]
    assert scalar_in is None or (scalar_in.view_shape == () and scalar_in.storage.kind == "host")


@pytest.mark.parametrize("chip", ["Ascend910", "Ascend310P"])
@pytest.mark.parametrize("api", ["Adds", "Subs"])
def test_a_bfloat16_add_or_sub_on_the_ai_cpu_fails_the_task(chip_dev, scalars, chip, api):
    """An integer tensor with a BFLOAT16 scalar promotes to BFLOAT16 off Ascend950 without a list
    check; the chip's AI Core has no BFLOAT16 Add/Sub, and the AI CPU kernels (add_aicpu_def.cpp,
    sub_aicpu_def.cpp) do not register it: phase 1 and 2 succeed, the task fails on the stream."""
    import aclnn_py

    dev = chip_dev(chip)
    t, o = dev.tensor(np.ones(3, np.int32)), dev.tensor(np.zeros(3, np.float32))
    p1, p2 = getattr(aclnn_py, f"aclnn{api}GetWorkspaceSize"), getattr(aclnn_py, f"aclnn{api}")
    code, _, ex = _p1(p1, t, scalars(1.5, ACL_BF16), scalars(1, ACL_INT64), o)
    assert code == 0 and f"{api[:3]}@AiCpu" in _graph(ex.value)
    aclDestroyAclOpExecutor(ex.value)
    assert dev.run(p1, p2, t, scalars(1.5, ACL_BF16), scalars(1, ACL_INT64), o)[2] == ACL_ERROR_RT_AICPU_EXCEPTION
    assert f"the AI CPU {api[:3]} kernel has no implementation for bfloat16" in aclGetRecentErrMsg()


def test_subs_has_no_view_path(chip_dev, scalars):
    """aclnnSubs always makes self contiguous (aclnnAdds reads a strided self on Ascend950)."""
    dev = chip_dev("Ascend950")
    xs = np.arange(6, dtype=np.float32).reshape(2, 3)
    x = dev.strided(xs, (3, 2), (1, 3))
    o = dev.tensor(np.zeros((3, 2), np.float32))
    assert _graph_of(aclnnSubsGetWorkspaceSize, x, scalars(1.0), scalars(1.0), o) == ["Transpose", "Sub"]
    _run(dev, aclnnSubsGetWorkspaceSize, aclnnSubs, x, scalars(1.0), scalars(1.0), o)
    assert (dev.read(o) == xs.T - 1).all()


def test_subs_half_numbers(chip_dev):
    """Ascend910B keeps FLOAT16 (the TBE Axpy rounds -alpha to float16, one float16 rounding);
    Ascend950 computes in FLOAT when the scalars are not float16 values."""
    x = _values(np.float16, 200, 5, 50.0)
    a32, o32 = float(np.float32(1.3)), float(np.float32(0.1))
    for chip in ("Ascend910B", "Ascend950"):
        dev = chip_dev(chip)
        t, o = dev.tensor(x), dev.tensor(np.zeros(200, np.float16))
        other, alpha = aclCreateScalar(0.1, ACL_FLOAT), aclCreateScalar(1.3, ACL_FLOAT)
        _run(dev, aclnnSubsGetWorkspaceSize, aclnnSubs, t, other, alpha, o)
        if chip == "Ascend910B":  # ConvertToTensor rounds the scalar to float16 (opbase fp16_t, RNE)
            want = goldens.elementwise(lambda u: goldens.fma_exact(_f16(-a32), _f16(o32), u), np.float16, x)
        else:
            want = _round(goldens.elementwise(lambda u: goldens.fma_exact(-a32, o32, u), np.float32, x), np.float16)
        assert_bits_equal(dev.read(o), want)
        aclDestroyScalar(other)
        aclDestroyScalar(alpha)
        dev.close()


@pytest.mark.parametrize("chip", ["Ascend910B", "Ascend950"])
def test_subs_bfloat16_numbers(chip_dev, chip):
    """UT Ascend910B2_normal_other_scalar_bf16: BFLOAT16 self, other 1.0, alpha 1.2. Ascend910B runs
    the TBE Axpy on BFLOAT16, which computes in float32 with the float32 alpha and rounds the
    result to bfloat16; Ascend950 promotes to FLOAT (1.2 is not a bfloat16 value): same bits."""
    dev = chip_dev(chip)
    x = (np.random.default_rng(9).random(64) * 100).astype(BF16)
    t, o = dev.tensor(x), dev.tensor(np.zeros(64, BF16))
    other, alpha = aclCreateScalar(1.0, ACL_FLOAT), aclCreateScalar(1.2, ACL_FLOAT)
    _run(dev, aclnnSubsGetWorkspaceSize, aclnnSubs, t, other, alpha, o)
    r32 = goldens.elementwise(lambda u: goldens.fma_exact(-float(np.float32(1.2)), 1.0, u), np.float32, x)
    assert_bits_equal(dev.read(o), _round(r32, BF16))
    aclDestroyScalar(other)
    aclDestroyScalar(alpha)


@pytest.mark.parametrize("chip", ["Ascend910B", "Ascend950"])
def test_subs_integer_numbers(chip_dev, scalars, chip):
    dev = chip_dev(chip)
    i8 = np.array([1, 2, 3, -128], np.int8)
    t, o = dev.tensor(i8), dev.tensor(np.zeros(4, np.int8))
    _run(dev, aclnnSubsGetWorkspaceSize, aclnnSubs, t, scalars(300, ACL_INT64), scalars(1, ACL_INT64), o)
    assert dev.read(o).tolist() == [(int(v) - 44 + 128) % 256 - 128 for v in i8]  # 300 -> int8 44
    i32 = np.array([0, 10, -(2**31), 2**31 - 1], np.int32)
    t, o = dev.tensor(i32), dev.tensor(np.zeros(4, np.int32))
    _run(dev, aclnnSubsGetWorkspaceSize, aclnnSubs, t, scalars(7, ACL_INT64), scalars(-3, ACL_INT64), o)
    assert dev.read(o).tolist() == [(int(v) + 21 + 2**31) % 2**32 - 2**31 for v in i32]


def test_subs_bool_has_no_fix(dev, scalars):
    """UT-like BOOL - True*True into FLOAT16: Sub (xor), one Cast — no extra casts as in aclnnAdds."""
    t = dev.tensor(np.array([True, False]))
    o = dev.tensor(np.zeros(2, np.float16))
    _run(dev, aclnnSubsGetWorkspaceSize, aclnnSubs, t, scalars(True, ACL_BOOL), scalars(True, ACL_BOOL), o)
    assert dev.read(o).tolist() == [0.0, 1.0]


# -- in place --------------------------------------------------------------------------------------


def test_inplace_sub(dev, scalars):
    x = np.arange(8, dtype=np.float32).reshape(4, 2)
    self_ref = dev.tensor(x)
    other = dev.tensor(np.array([1, 1, 1, 2, 2, 2, 3, 3], np.float32).reshape(4, 2))
    _run(dev, aclnnInplaceSubGetWorkspaceSize, aclnnInplaceSub, self_ref, other, scalars(1.2))
    want = goldens.elementwise(_axpy_exact(-float(np.float32(1.2))), np.float32, x, dev.read(other))
    assert_bits_equal(dev.read(self_ref), want)
    # the executor is aclnnSub's (the op cache and messages say aclnnSub)
    code, _, ex = _p1(aclnnInplaceSubGetWorkspaceSize, self_ref, other, scalars(1.0))
    assert code == 0 and ex.value.api == "aclnnSub"
    aclDestroyAclOpExecutor(ex.value)
    # broadcast into selfRef
    row = dev.tensor(np.array([10, 20], np.float32))
    _run(dev, aclnnInplaceSubGetWorkspaceSize, aclnnInplaceSub, self_ref, row, scalars(1, ACL_INT64))
    assert_bits_equal(dev.read(self_ref), want - np.array([10, 20], np.float32))


def test_inplace_sub_check_failures_only_log(dev, scalars):
    """CheckInplace returns ``false`` (ACLNN_SUCCESS) on failure: aclnnSub's phase 1 runs anyway,
    and its own check fails, so both messages are in the log."""
    other = dev.tensor(np.ones((4, 2), np.float32))
    assert _p1(aclnnInplaceSubGetWorkspaceSize, None, other, scalars(1.0))[0] == ACLNN_ERR_PARAM_NULLPTR
    assert aclGetRecentErrMsg() == (
        f"{PREFIX}Expected a value of type [aclTensor] for argument [selfRef] but instead found nullptr.\n"
        "TraceBack (most recent call last):\n"
        "        Expected a value of type [aclTensor] for argument [self] but instead found nullptr.\n"
    )
    self_ref = dev.tensor(np.ones((3, 2), np.float32))
    # a null other is reported twice, with the same text: the error manager keeps it once
    assert _p1(aclnnInplaceSubGetWorkspaceSize, self_ref, None, scalars(1.0))[0] == ACLNN_ERR_PARAM_NULLPTR
    assert aclGetRecentErrMsg() == (
        f"{PREFIX}Expected a value of type [aclTensor] for argument [other] but instead found nullptr.\n"
    )
    assert _p1(aclnnInplaceSubGetWorkspaceSize, other, other, None)[0] == ACLNN_ERR_PARAM_NULLPTR
    assert aclGetRecentErrMsg() == (
        f"{PREFIX}Expected a value of type [aclScalar] for argument [alpha] but instead found nullptr.\n"
    )
    # a broadcast failure: CheckInplace's (before L2_DFX_PHASE_1: no operator named), then aclnnSub's
    assert _p1(aclnnInplaceSubGetWorkspaceSize, self_ref, other, scalars(1.0))[0] == ACLNN_ERR_PARAM_INVALID
    lines = aclGetRecentErrMsg().splitlines()
    reason = ("has incorrect dimension 4. Reason: The tensor whose shape is [4, 2] and the tensor whose shape is "
              "[3, 2] do not meet the broadcast condition.")  # fmt: skip
    assert lines[0] == f"Invalid_Argument_Tensor_Input_Shape(EZ1007): Shape [4, 2] of the tensor of operator  {reason}"
    assert lines[1:3] == [
        "TraceBack (most recent call last):",
        "        The size of tensor selfRef [3, 2] must match the size of tensor other [4, 2].",
    ]
    assert lines[3].startswith("        Shape [4, 2] of the tensor of operator aclnnSub_") and lines[3].endswith(reason)
    assert lines[4:] == ["        The size of tensor self [3, 2] must match the size of tensor other [4, 2]."]
    # ... and when aclnnSub fails earlier, its earlier message follows CheckInplace's
    u = dev.tensor(np.ones((3, 2), np.uint32), acl_dtype=ACL_UINT32)
    assert _p1(aclnnInplaceSubGetWorkspaceSize, u, other, scalars(1.0))[0] == ACLNN_ERR_PARAM_INVALID
    lines = aclGetRecentErrMsg().splitlines()
    assert lines[0].startswith("Invalid_Argument_Tensor_Input_Shape(EZ1007): ") and len(lines) == 4
    assert lines[2] == "        The size of tensor selfRef [3, 2] must match the size of tensor other [4, 2]."
    assert (
        lines[3] == f"        Tensor self not implemented for DT_UINT32, should be in dtype support list {LIST_910B}."
    )


def test_inplace_sub_broadcast_wider_than_self_ref(dev, scalars):
    """CheckInplace's selfRef-vs-broadcast check cannot fail; aclnnSub's out check catches it."""
    small = dev.tensor(np.ones((1, 2), np.float32))
    other = dev.tensor(np.ones((4, 2), np.float32))
    assert _p1(aclnnInplaceSubGetWorkspaceSize, small, other, scalars(1.0))[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == f"{PREFIX}Expected tensor for out to have same size as [4, 2], but got [1, 2].\n"
    i = dev.tensor(np.ones((4, 2), np.int32))
    assert _p1(aclnnInplaceSubGetWorkspaceSize, i, other, scalars(1.0))[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == f"{PREFIX}Result type DT_FLOAT can't be cast to the desired output type DT_INT32.\n"
    assert aclnnInplaceSubGetWorkspaceSize(i, other, scalars(1.0), None, Ref()) == ACLNN_ERR_PARAM_NULLPTR
    assert aclGetRecentErrMsg() == f"{PREFIX}executor or workspaceSize is nullptr\n"


def test_inplace_subs(dev, scalars):
    x = np.arange(8, dtype=np.float32)
    t = dev.tensor(x)
    _run(dev, aclnnInplaceSubsGetWorkspaceSize, aclnnInplaceSubs, t, scalars(2.0), scalars(1.2))
    assert_bits_equal(dev.read(t), goldens.elementwise(lambda u: goldens.fma_exact(-float(np.float32(1.2)), 2.0, u),
                                                       np.float32, x))  # fmt: skip
    # aclnnSubs' names and checks
    assert _p1(aclnnInplaceSubsGetWorkspaceSize, None, scalars(2.0), scalars(1.0))[0] == ACLNN_ERR_PARAM_NULLPTR
    assert (
        aclGetRecentErrMsg()
        == f"{PREFIX}Expected a value of type [aclTensor] for argument [self] but instead found nullptr.\n"
    )
    assert _p1(aclnnInplaceSubsGetWorkspaceSize, t, scalars(2.0), None)[0] == ACLNN_ERR_PARAM_NULLPTR
    assert (
        aclGetRecentErrMsg()
        == f"{PREFIX}Expected a value of type [aclScalar] for argument [alpha] but instead found nullptr.\n"
    )
    i = dev.tensor(np.ones(4, np.int32))
    assert _p1(aclnnInplaceSubsGetWorkspaceSize, i, scalars(2.0), scalars(1.0))[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == f"{PREFIX}Result type DT_FLOAT can't be cast to the desired output type DT_INT32.\n"
    code, _, ex = _p1(aclnnInplaceSubsGetWorkspaceSize, i, scalars(2, ACL_INT32), scalars(1, ACL_INT64))
    assert code == 0 and ex.value.api == "aclnnSubs" and aclDestroyAclOpExecutor(ex.value) == 0


def test_inplace_phase_two_takes_the_out_of_place_executor_only(dev, scalars, findings):
    """aclnnInplaceSubs runs aclnnSubs's executor without a word; another phase 2 runs it too
    (CANN does not check the builder), named by the sanitizer [usage]."""
    t = dev.tensor(np.ones(4, np.float32))
    code, _, ex = _p1(aclnnSubsGetWorkspaceSize, t, scalars(1.0), scalars(1.0), t)
    assert code == 0 and ex.value.api == "aclnnSubs"
    assert aclnnInplaceSub(None, 0, ex.value, dev.stream) == 0
    assert findings.refresh().checks() == ["usage"]
    assert "aclnnInplaceSub at " in findings[0][1] and "built by aclnnSubsGetWorkspaceSize" in findings[0][1]
    assert dev.read(t).tolist() == [0.0] * 4
    code, _, ex = _p1(aclnnSubsGetWorkspaceSize, t, scalars(1.0), scalars(1.0), t)
    assert code == 0 and aclnnInplaceSubs(None, 0, ex.value, dev.stream) == 0
    assert len(findings.refresh()) == 1 and dev.read(t).tolist() == [-1.0] * 4


def test_functional_wrappers():
    x = np.arange(6, dtype=np.float32)
    assert F.sub(x, np.ones(6, np.float32), 2).tolist() == (x - 2).tolist()
    assert F.subs(x, 1.0, 3).tolist() == (x - 3).tolist()
    assert F.sub(np.array([True, False]), np.array([True, True]), 1).tolist() == [False, True]
    y = x.copy()
    assert F.inplace_sub(y, np.float32(1.0)) is y and y.tolist() == (x - 1).tolist()
    assert F.inplace_subs(y, 2.0, 0.5).tolist() == (x - 2).tolist()
    with pytest.raises(F.AclnnError) as err:
        F.subs(np.arange(4, dtype=np.int32), 1.5)
    assert err.value.code == ACLNN_ERR_PARAM_INVALID
    _ = (ACL_BF16, ACL_FLOAT16, ACL_INT32)
