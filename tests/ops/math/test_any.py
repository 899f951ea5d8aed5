"""aclnnAny: less strict than aclnnAll — the short range message, duplicates allowed, no format
check, the out shape compared only after ReduceAny (one-element tolerance) and not at all for an
empty self (False through Fill); the graph per chip, including Ascend950's strided FLOAT path;
the numbers (NaN true, -0.0 false), dims, keepdim, 0-d, views."""

from __future__ import annotations

import contextlib
import math

import ml_dtypes
import numpy as np
import pytest
from helpers import ACL_OF, Dev, own

from aclnn_py import (
    ACL_FORMAT_NC1HWC0,
    ACL_FORMAT_NCHW,
    ACLNN_ERR_INNER_NULLPTR,
    ACLNN_ERR_PARAM_INVALID,
    ACLNN_ERR_PARAM_NULLPTR,
    Ref,
    aclCreateIntArray,
    aclDestroyAclOpExecutor,
    aclDestroyIntArray,
    aclGetRecentErrMsg,
    aclnnAny,
    aclnnAnyGetWorkspaceSize,
)
from aclnn_py import dtypes as D
from aclnn_py import functional as F
from aclnn_py.ops.math import all as all_facts
from aclnn_py.ops.math import any as facts

BF16 = np.dtype(ml_dtypes.bfloat16)
PREFIX = "AclNN_Parameter_Error(EZ1001): "
CHIPS = ["Ascend910B", "Ascend910_93", "Ascend950", "Ascend910", "Ascend310P"]


@pytest.fixture
def arrays():
    made = []

    def make(*values):
        a = aclCreateIntArray(list(values), len(values))
        if not own(a, aclDestroyIntArray):  # the device open now destroys it before its aclFinalize
            made.append(a)
        return a

    yield make
    for a in made:
        aclDestroyIntArray(a)


@pytest.fixture
def on(soc):
    @contextlib.contextmanager
    def use(chip):
        soc(chip)
        d = Dev()
        try:
            yield d
        finally:
            d.close()

    return use


def _p1(*args):
    ws, ex = Ref(0), Ref()
    return aclnnAnyGetWorkspaceSize(*args, ws, ex), ws, ex


def _graph(ex) -> list[str]:
    return [f"{ln.op_type}{'@AiCpu' if ln.engine == 'AiCpu' else ''}" for ln in ex.launches]


def _msg(text: str) -> str:
    return f"{PREFIX}{text}\n"


def _any_on(dev, t, dim, keepdim, shape, out_dtype=np.bool_):
    o = dev.tensor(np.full(shape, 7, out_dtype) if out_dtype != np.bool_ else np.ones(shape, bool))
    d = aclCreateIntArray(list(dim), len(dim))
    try:
        assert dev.run(aclnnAnyGetWorkspaceSize, aclnnAny, t, d, keepdim, o) == (0, 0, 0), aclGetRecentErrMsg()
    finally:
        aclDestroyIntArray(d)
    return dev.read(o)


def _any(dev, x, dim, keepdim=False, out_dtype=np.bool_):
    shape = all_facts.reduced_shape(x.shape, list(dim), keepdim)
    return _any_on(dev, dev.tensor(x), dim, keepdim, shape, out_dtype)


# -- error rows ------------------------------------------------------------------------------------


def test_null_rows_in_order(dev, arrays):
    t = dev.tensor(np.ones((2, 3), np.bool_))
    o = dev.tensor(np.ones(3, np.bool_))
    d = arrays(0)
    for args, name, kind in (((None, d, False, o), "self", "aclTensor"), ((t, None, False, o), "dim", "aclIntArray"),
                             ((t, d, False, None), "out", "aclTensor")):  # fmt: skip
        assert _p1(*args)[0] == ACLNN_ERR_PARAM_NULLPTR
        assert aclGetRecentErrMsg() == _msg(
            f"Expected a value of type [{kind}] for argument [{name}] but instead found nullptr."
        )
    assert aclnnAnyGetWorkspaceSize(t, d, False, o, Ref(0), None) == ACLNN_ERR_PARAM_NULLPTR
    assert aclGetRecentErrMsg() == _msg("executor or workspaceSize is nullptr")


ALL_DTYPES = [np.float32, np.float16, BF16, np.float64, np.int8, np.int16, np.int32, np.int64, np.uint8, np.bool_,
              np.complex64, np.uint16, np.uint32, np.uint64]  # fmt: skip


@pytest.mark.parametrize("chip", CHIPS)
def test_every_self_dtype_per_chip(chip, on, arrays):
    with on(chip) as dev:
        supported = facts.dtype_support_list()
        x = np.array([[1, 0, 0], [3, 0, 5]])
        for dt in map(np.dtype, ALL_DTYPES):
            acl = int(ACL_OF[dt])
            t = dev.tensor(x.astype(dt))
            o = dev.tensor(np.zeros(3, np.uint8))
            code, ws, ex = _p1(t, arrays(0), False, o)
            if acl not in supported:
                assert code == ACLNN_ERR_PARAM_INVALID
                assert aclGetRecentErrMsg() == _msg(
                    f"Tensor self not implemented for {D.dt_name(acl)}, should be in dtype support list "
                    f"{D.dt_list_str(supported)}."
                )
                continue
            assert code == 0, (chip, dt, aclGetRecentErrMsg())
            assert aclnnAny(dev.workspace(ws.value), ws.value, ex.value, dev.stream) == 0
            assert dev.read(o).tolist() == [1, 0, 1], (chip, dt)


def test_out_dtype_row_uses_ut_case(dev, arrays):
    t = dev.tensor(np.ones((2, 3), np.int16))
    o = dev.tensor(np.ones((2, 3), np.int16))  # UT case_unsupportdtype: INT16 out
    assert _p1(t, arrays(), True, o)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == _msg(
        "Tensor out not implemented for DT_INT16, should be in dtype support list [DT_UINT8,DT_BOOL,]."
    )


def test_dim_range_duplicates_and_formats(dev, arrays):
    t3 = dev.tensor(np.ones((2, 3, 4), np.bool_))
    for bad in ((3,), (0, -4)):
        assert _p1(t3, arrays(*bad), False, dev.tensor(np.ones(3, np.bool_)))[0] == ACLNN_ERR_PARAM_INVALID
        assert aclGetRecentErrMsg() == _msg("Dimension out of range.")
    # the same dim twice is a union (aclnnAll refuses it)
    x = np.array([[[0, 1], [0, 0]], [[0, 0], [0, 0]], [[0, 0], [1, 0]]], np.int32)
    assert _any(dev, x, [1, -2, 1]).tolist() == [[False, True], [False, False], [True, False]]
    # a private format is not checked
    p = dev.tensor(np.zeros((1, 1, 2, 2, 16), np.float32), fmt=ACL_FORMAT_NC1HWC0)
    code, _, ex = _p1(p, arrays(0), False, dev.tensor(np.ones((1, 2, 2, 16), np.bool_)))
    assert code == 0
    aclDestroyAclOpExecutor(ex.value)
    r9 = dev.tensor(np.ones((1,) * 9, np.int16))  # UT case_unsupportdim
    assert _p1(r9, arrays(), False, dev.tensor(np.ones((), np.bool_)))[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == _msg("The self tensor cannot be larger than 8 dimensions.")


def test_out_shape_is_checked_after_the_kernel(dev, arrays):
    t = dev.tensor(np.ones((2, 2, 4, 5), np.bool_))
    code, *_ = _p1(t, arrays(), False, dev.tensor(np.ones((1, 2), np.bool_)))  # UT case_unsupportdshape
    assert code == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == _msg("The tensor's shape[[]] is not equal with shape[[1, 2]].")
    # two shapes of one element each pass: [] against [1] (UT case_uncontinue, on a strided view)
    xs = np.zeros((4, 10), np.bool_)
    xs[2, 4] = True
    v = dev.strided(xs, (4, 5), (10, 2))
    assert _any_on(dev, v, [0, 1], False, (1,)).tolist() == [True]
    assert _any_on(dev, v, [0, 1], True, (1,)).tolist() == [True]


def test_reformat_to_outs_format_checks_its_rank(dev, arrays):
    """l0 ReFormat to out's storage format refuses a format of another rank (CHECK_RET: 561103)."""
    t = dev.tensor(np.ones((2, 3), np.bool_))
    o = dev.tensor(np.ones((1, 3), np.bool_), fmt=ACL_FORMAT_NCHW)
    assert _p1(t, arrays(0), True, o)[0] == ACLNN_ERR_INNER_NULLPTR
    assert aclGetRecentErrMsg() == _msg(
        "input tensor shape's rank does not match format, format is: NCHW, shape is: [1, 3]."
    )
    x = np.zeros((2, 3, 1, 2), np.int32)
    x[1, 2, 0, 1] = 5
    o4 = dev.tensor(np.ones((1, 3, 1, 2), np.bool_), fmt=ACL_FORMAT_NCHW)  # NCHW of rank 4 passes
    assert dev.run(aclnnAnyGetWorkspaceSize, aclnnAny, dev.tensor(x), arrays(0), True, o4) == (0, 0, 0)
    assert dev.read(o4).reshape(-1).tolist() == [False, False, False, False, False, True]


def test_an_empty_self_fills_false_without_checking_out(dev, arrays):
    e = dev.tensor(np.ones((2, 0, 4, 5), np.bool_))
    o = dev.tensor(np.ones((1, 1), np.uint8))  # UT case_empty: any shape is accepted
    code, ws, ex = _p1(e, arrays(), False, o)
    assert code == 0 and _graph(ex.value) == ["Fill@AiCpu"]
    assert aclnnAny(dev.workspace(ws.value), ws.value, ex.value, dev.stream) == 0
    assert dev.read(o).tolist() == [[0]]
    ob = dev.tensor(np.ones((0, 4, 5), np.bool_))  # UT case_empty_out: an empty out, no kernel
    code, ws, ex = _p1(e, arrays(0), False, ob)
    assert code == 0 and not ex.value.launches
    aclDestroyAclOpExecutor(ex.value)
    assert F.any(np.zeros((2, 0, 3), np.float32), [1]).tolist() == [[False] * 3] * 2
    assert F.any(np.zeros((2, 0, 3), np.float32)).tolist() is False  # UT case_empty_dimt


# -- the graph -------------------------------------------------------------------------------------

BRANCHES = [
    # chip, self dtype, launches, the ReduceAny output dtype, Contiguous step present
    ("Ascend910B", np.float32, ["ReduceAny", "Cast"], "DT_FLOAT", True),
    ("Ascend910_93", BF16, ["ReduceAny", "Cast"], "DT_FLOAT", True),
    ("Ascend910B", np.float16, ["ReduceAny", "Cast"], "DT_FLOAT16", True),
    ("Ascend910B", np.int64, ["Cast", "ReduceAny"], "DT_BOOL", True),
    ("Ascend910B", np.bool_, ["ReduceAny"], "DT_BOOL", True),
    ("Ascend950", np.float32, ["ReduceAny"], "DT_BOOL", False),  # the strided path: no Contiguous
    ("Ascend950", np.float16, ["Cast", "ReduceAny"], "DT_BOOL", True),  # 950 casts, unlike aclnnAll
    ("Ascend950", BF16, ["Cast", "ReduceAny"], "DT_BOOL", True),
    ("Ascend910", np.float32, ["Cast", "ReduceAny"], "DT_BOOL", True),
    ("Ascend310P", np.int32, ["Cast", "ReduceAny"], "DT_BOOL", True),
    ("Ascend310P", np.uint8, ["Cast@AiCpu", "ReduceAny"], "DT_BOOL", True),
]


@pytest.mark.parametrize("chip,dtype,graph,reduce_dt,contiguous", BRANCHES)
def test_graph_per_chip(chip, dtype, graph, reduce_dt, contiguous, on, arrays):
    with on(chip) as dev:
        t = dev.tensor(np.ones((2, 3), dtype))
        o = dev.tensor(np.zeros(2, np.bool_))
        code, _, ex = _p1(t, arrays(1), False, o)
        assert code == 0, aclGetRecentErrMsg()
        launched = _graph(ex.value)
        steps = [s.name for s in ex.value.steps]
        step = next(s for s in ex.value.steps if s.name == "ReduceAny")
        aclDestroyAclOpExecutor(ex.value)
        assert launched == graph
        assert D.dt_name(step.outputs[0].dtype) == reduce_dt
        assert ("Contiguous" in steps) == contiguous
        assert steps[-3:] == ["Cast", "ReFormat", "ViewCopy"]


STRIDED = [
    # shape, strides, dims, strided path?
    ((4, 5), (10, 2), [1], True),  # a strided slice
    ((4, 5), (1, 4), [1], False),  # a transpose
    ((2, 1, 3), (3, 3, 1), [1], False),  # only size-1 dims reduced: a pure copy
    ((1, 1, 1, 1, 2), (2, 2, 2, 2, 1), [4], False),  # 5 dims
    ((3, 4), (4, 1), [0], True),  # contiguous FLOAT also takes it
]


@pytest.mark.parametrize("shape,strides,dims,direct", STRIDED)
def test_ascend950_reads_row_major_float_views_directly(shape, strides, dims, direct, on, arrays):
    rng = np.random.default_rng(3)
    storage = (rng.random(64) > 0.7).astype(np.float32) * rng.standard_normal(64).astype(np.float32)
    with on("Ascend950") as dev:
        v = dev.strided(storage, shape, strides)
        view = np.lib.stride_tricks.as_strided(storage, shape, [s * 4 for s in strides])
        out_shape = all_facts.reduced_shape(shape, dims, False)
        o = dev.tensor(np.zeros(out_shape, np.bool_))
        code, _, ex = _p1(v, arrays(*dims), False, o)
        assert code == 0
        launched = _graph(ex.value)
        aclDestroyAclOpExecutor(ex.value)
        assert (launched[0] == "ReduceAny") == direct, launched
        got = _any_on(dev, v, dims, False, out_shape)
        assert got.tolist() == np.any(view != 0, axis=tuple(dims)).tolist()


# -- numbers ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("chip", CHIPS)
@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.float64])
def test_nan_is_true_and_negative_zero_false(chip, dtype, on):
    """x != 0, except the TBE float32 -> bool Cast of Ascend910/310P (a NaN is false there)."""
    x = np.array([[math.nan, -0.0], [-0.0, 0.0], [0.0, -2.0]], dtype)
    nan_true = not (dtype == np.float32 and chip in ("Ascend910", "Ascend310P"))
    with on(chip) as dev:
        assert _any(dev, x, [1]).tolist() == [nan_true, False, True]
        assert _any(dev, x, [0], True, np.uint8).tolist() == [[int(nan_true), 1]]


@pytest.mark.parametrize("chip", ["Ascend910B", "Ascend950", "Ascend910"])
def test_random_arrays_against_numpy(chip, on):
    rng = np.random.default_rng(11)
    x = ((rng.random((3, 4, 5)) > 0.9) * rng.integers(1, 9, (3, 4, 5))).astype(np.float32)
    with on(chip) as dev:
        for dim, keepdim in (([0], False), ([1, 2], True), ([-1, 0], False), ([], True), ([], False), ([2], True)):
            axes = tuple(dim) if dim else None
            want = np.any(x != 0, axis=axes, keepdims=keepdim)
            assert _any(dev, x, dim, keepdim).tolist() == want.tolist(), (dim, keepdim)


def test_zero_d_self(dev):
    for keepdim in (False, True):
        assert _any(dev, np.array(0.0, np.float32), [], keepdim).tolist() is False
        assert _any(dev, np.array(-3, np.int64), [0], keepdim).tolist() is True
        assert _any(dev, np.array(False), [-1, 0], keepdim).tolist() is False  # 0 and -1 are one dim


def test_non_contiguous_out(dev, arrays):
    x = np.array([[0, 0, 1], [0, 0, 0]], np.int8)
    o = dev.strided(np.zeros(6, np.uint8), (3,), (2,))
    t = dev.tensor(x)
    assert dev.run(aclnnAnyGetWorkspaceSize, aclnnAny, t, arrays(0), False, o) == (0, 0, 0)
    assert dev.read(o).tolist() == [0, 0, 1]


def test_doc_example_and_functional(dev):
    x = np.array([0, 1, 0, 3, 0, 5, 0, 7], np.int32).reshape(4, 2)
    assert _any(dev, x, [0], True, np.uint8).tolist() == [[0, 1]]
    assert F.any(np.array([[0, 0], [2, 0]], np.int32), [0]).tolist() == [True, False]
    assert F.any(np.array([0.0, math.nan], np.float16)).tolist() is True
