"""aclnnAll: the error rows in CANN's order (dim range, duplicates, the exact out shape, formats),
dtypes per chip, the graph (which inputs skip the Cast to BOOL, the l0 output dtype), the empty
reduction (True through Fill), the numbers (NaN true, -0.0 false), dims, keepdim, 0-d, views."""

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
    ACLNN_ERR_PARAM_INVALID,
    ACLNN_ERR_PARAM_NULLPTR,
    Ref,
    aclCreateIntArray,
    aclDestroyAclOpExecutor,
    aclDestroyIntArray,
    aclGetRecentErrMsg,
    aclnnAll,
    aclnnAllGetWorkspaceSize,
)
from aclnn_py import dtypes as D
from aclnn_py import functional as F
from aclnn_py.ops.math import all as facts

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
    return aclnnAllGetWorkspaceSize(*args, ws, ex), ws, ex


def _graph(ex) -> list[str]:
    return [f"{ln.op_type}{'@AiCpu' if ln.engine == 'AiCpu' else ''}" for ln in ex.launches]


def _msg(text: str) -> str:
    return f"{PREFIX}{text}\n"


def _all(dev, x, dim, keepdim=False, out_dtype=np.bool_):
    shape = facts.reduced_shape(x.shape, list(dim), keepdim)
    t, o = dev.tensor(x), dev.tensor(np.full(shape, 7, out_dtype) if out_dtype != np.bool_ else np.zeros(shape, bool))
    d = aclCreateIntArray(list(dim), len(dim))
    try:
        assert dev.run(aclnnAllGetWorkspaceSize, aclnnAll, t, d, keepdim, o) == (0, 0, 0), aclGetRecentErrMsg()
    finally:
        aclDestroyIntArray(d)
    return dev.read(o)


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
    assert aclnnAllGetWorkspaceSize(t, d, False, o, None, Ref()) == ACLNN_ERR_PARAM_NULLPTR
    assert aclGetRecentErrMsg() == _msg("executor or workspaceSize is nullptr")


ALL_DTYPES = [np.float32, np.float16, BF16, np.float64, np.int8, np.int16, np.int32, np.int64, np.uint8, np.bool_,
              np.complex64, np.uint16, np.uint32, np.uint64]  # fmt: skip


@pytest.mark.parametrize("chip", CHIPS)
def test_every_self_dtype_per_chip(chip, on, arrays):
    with on(chip) as dev:
        supported = facts.self_dtype_support_list()
        x = np.array([[1, 0, 2], [3, 4, 5]])
        for dt in map(np.dtype, ALL_DTYPES):
            acl = int(ACL_OF[dt])
            t = dev.tensor(x.astype(dt))
            o = dev.tensor(np.zeros(3, np.bool_))
            code, ws, ex = _p1(t, arrays(0), False, o)
            if acl not in supported:
                assert code == ACLNN_ERR_PARAM_INVALID
                assert aclGetRecentErrMsg() == _msg(
                    f"Tensor self not implemented for {D.dt_name(acl)}, should be in dtype support list "
                    f"{D.dt_list_str(supported)}."
                )
                continue
            assert code == 0, (chip, dt, aclGetRecentErrMsg())
            assert aclnnAll(dev.workspace(ws.value), ws.value, ex.value, dev.stream) == 0
            assert dev.read(o).tolist() == [True, False, True], (chip, dt)


def test_out_dtype_must_be_uint8_or_bool(dev, arrays):
    t = dev.tensor(np.ones((2, 3), np.float32))
    for dt in (np.float32, np.int32, np.int8):
        o = dev.tensor(np.ones(3, dt))
        assert _p1(t, arrays(0), False, o)[0] == ACLNN_ERR_PARAM_INVALID
        assert aclGetRecentErrMsg() == _msg(
            f"Tensor out not implemented for {D.dt_name(int(ACL_OF[np.dtype(dt)]))}, should be in dtype support list "
            "[DT_UINT8,DT_BOOL,]."
        )


def test_private_formats_are_refused(dev, arrays):
    t = dev.tensor(np.ones((1, 1, 2, 2, 16), np.float32), fmt=ACL_FORMAT_NC1HWC0)
    o = dev.tensor(np.ones((1, 2, 2, 16), np.bool_))
    assert _p1(t, arrays(0), False, o)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == _msg("Format only support ND、NCHW、NHWC、HWCN、NDHWC、NCDHW, self [NC1HWC0]")
    t = dev.tensor(np.ones((1, 1, 2, 2), np.float32), fmt=ACL_FORMAT_NCHW)
    code, _, ex = _p1(t, arrays(0), False, dev.tensor(np.ones((1, 2, 2), np.bool_)))
    assert code == 0
    aclDestroyAclOpExecutor(ex.value)


def test_dim_range_and_duplicates(dev, arrays):
    t3 = dev.tensor(np.ones((2, 3, 4), np.bool_))
    o = dev.tensor(np.ones(3, np.bool_))
    assert _p1(t3, arrays(3), False, o)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == _msg("Dimension out of range (expected to be in range of [-3, 2], but got 3)")
    assert _p1(t3, arrays(0, -4), False, o)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == _msg("Dimension out of range (expected to be in range of [-3, 2], but got -4)")
    assert _p1(t3, arrays(1, -2), False, o)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == _msg("Dim 1 appears multiple times in the list of dims.")
    t1 = dev.tensor(np.ones(1, np.bool_))
    assert _p1(t1, arrays(1), False, dev.tensor(np.ones((), np.bool_)))[0] == ACLNN_ERR_PARAM_INVALID  # UT case_2
    assert aclGetRecentErrMsg() == _msg("Dimension out of range (expected to be in range of [-1, 0], but got 1)")
    t0 = dev.tensor(np.ones((), np.bool_))  # a 0-d self counts as one dim
    assert _p1(t0, arrays(0, -1), False, t0)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == _msg("Dim 0 appears multiple times in the list of dims.")
    # the range is checked element by element before the duplicates after it
    assert _p1(t3, arrays(0, 0, 5), False, o)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == _msg("Dim 0 appears multiple times in the list of dims.")


def test_rank_and_out_shape_rows(dev, arrays):
    r9 = dev.tensor(np.ones((1,) * 9, np.bool_))
    assert _p1(r9, arrays(0), False, dev.tensor(np.ones((1,) * 8, np.bool_)))[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == _msg("The self tensor cannot be larger than 8 dimensions.")
    t = dev.tensor(np.ones((2, 3), np.bool_))
    assert _p1(t, arrays(0), False, dev.tensor(np.ones((1,) * 9, np.bool_)))[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == _msg("The out tensor cannot be larger than 8 dimensions.")
    assert _p1(t, arrays(0), True, dev.tensor(np.ones(3, np.bool_)))[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == _msg("Expect out shape [[1, 3]], but got: [[3]].")
    # exact: no one-element tolerance (a full reduction is [], not [1])
    assert _p1(t, arrays(), False, dev.tensor(np.ones(1, np.bool_)))[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == _msg("Expect out shape [[]], but got: [[1]].")


# -- empty self ------------------------------------------------------------------------------------


@pytest.mark.parametrize("chip,out_dt,fill", [("Ascend910B", np.bool_, "Fill"), ("Ascend910B", np.uint8, "Fill@AiCpu"),
                                              ("Ascend910", np.bool_, "Fill"), ("Ascend950", np.uint8, "Fill@AiCpu")])  # fmt: skip
def test_an_empty_reduction_is_true(chip, out_dt, fill, on, arrays):
    with on(chip) as dev:
        t = dev.tensor(np.ones((2, 0), np.float32))
        o = dev.tensor(np.zeros(2, out_dt))
        code, ws, ex = _p1(t, arrays(1), False, o)
        assert code == 0 and _graph(ex.value) == [fill]
        assert [s.name for s in ex.value.steps] == ["Fill", "ViewCopy"]
        assert aclnnAll(dev.workspace(ws.value), ws.value, ex.value, dev.stream) == 0
        assert dev.read(o).tolist() == [1, 1]
        # an empty out: nothing runs
        e = dev.tensor(np.zeros(0, out_dt))
        code, ws, ex = _p1(t, arrays(0), False, e)
        assert code == 0 and ws.value == 0 and not ex.value.steps
        aclDestroyAclOpExecutor(ex.value)


# -- the graph -------------------------------------------------------------------------------------

BRANCHES = [
    # chip, self dtype, the launches, the ReduceAll output dtype
    ("Ascend910B", np.float32, ["ReduceAll", "Cast"], "DT_FLOAT"),
    ("Ascend910B", BF16, ["ReduceAll", "Cast"], "DT_FLOAT"),
    ("Ascend910_93", np.float16, ["ReduceAll", "Cast"], "DT_FLOAT16"),
    ("Ascend910B", np.int32, ["Cast", "ReduceAll"], "DT_BOOL"),
    ("Ascend910B", np.float64, ["Cast@AiCpu", "ReduceAll"], "DT_BOOL"),
    ("Ascend910B", np.bool_, ["ReduceAll"], "DT_BOOL"),
    ("Ascend950", np.float32, ["ReduceAll"], "DT_BOOL"),
    ("Ascend950", BF16, ["ReduceAll"], "DT_BOOL"),
    ("Ascend950", np.int8, ["Cast", "ReduceAll"], "DT_BOOL"),
    ("Ascend910", np.float32, ["Cast", "ReduceAll"], "DT_BOOL"),
    ("Ascend310P", np.float16, ["Cast", "ReduceAll"], "DT_BOOL"),
]


@pytest.mark.parametrize("chip,dtype,graph,reduce_dt", BRANCHES)
def test_graph_per_chip(chip, dtype, graph, reduce_dt, on, arrays):
    with on(chip) as dev:
        t = dev.tensor(np.ones((2, 3), dtype))
        o = dev.tensor(np.zeros((2, 1), np.bool_))
        code, _, ex = _p1(t, arrays(-1), True, o)
        assert code == 0, aclGetRecentErrMsg()
        launched = _graph(ex.value)
        step = next(s for s in ex.value.steps if s.name == "ReduceAll")
        aclDestroyAclOpExecutor(ex.value)
        assert launched == graph
        assert D.dt_name(step.outputs[0].dtype) == reduce_dt
        assert step.inputs[1].storage.data.tolist() == [-1]  # the dims as an INT64 host tensor


# -- numbers ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("chip", CHIPS)
@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.float64])
def test_nan_is_true_and_negative_zero_false(chip, dtype, on):
    """x != 0 in the kernels and in the Cast to BOOL, except the TBE float32 -> bool Cast of
    Ascend910/310P, for which a NaN is false (l0 Cast's arithmetic, see kernels/cast.py)."""
    x = np.array([[math.nan, 1.0], [-0.0, math.nan], [math.inf, -2.0]], dtype)
    nan_true = not (dtype == np.float32 and chip in ("Ascend910", "Ascend310P"))
    with on(chip) as dev:
        assert _all(dev, x, [1]).tolist() == [nan_true, False, True]
        assert _all(dev, x, [0], out_dtype=np.uint8).tolist() == [0, int(nan_true)]
        assert _all(dev, np.array([math.nan, 3.0], dtype), []).tolist() is nan_true


@pytest.mark.parametrize("chip", ["Ascend910B", "Ascend950", "Ascend310P"])
def test_random_arrays_against_numpy(chip, on):
    rng = np.random.default_rng(7)
    x = (rng.random((3, 4, 5)) > 0.1).astype(np.int32) * rng.integers(1, 9, (3, 4, 5))
    with on(chip) as dev:
        for dim, keepdim in (([0], False), ([1, 2], True), ([-1, 0], False), ([], True), ([], False), ([2], True)):
            axes = tuple(dim) if dim else None
            want = np.all(x != 0, axis=axes, keepdims=keepdim)
            assert _all(dev, x, dim, keepdim).tolist() == want.tolist(), (dim, keepdim)


def test_zero_d_self(dev):
    for keepdim in (False, True):
        assert _all(dev, np.array(2.5, np.float32), [], keepdim).tolist() is True
        assert _all(dev, np.array(0, np.int32), [0], keepdim).tolist() is False
        assert _all(dev, np.array(True), [-1], keepdim).tolist() is True


def test_views_in_and_out(dev, arrays):
    xs = np.array([[1, 0, 3], [4, 5, 6]], np.int64)
    x = dev.strided(xs, (3, 2), (1, 3))  # the transpose: all over dim 1 = rows of xs.T
    o = dev.strided(np.zeros(6, np.uint8), (3,), (2,))
    d = arrays(1)
    assert dev.run(aclnnAllGetWorkspaceSize, aclnnAll, x, d, False, o) == (0, 0, 0)
    assert dev.read(o).tolist() == [1, 0, 1]


def test_doc_example_and_functional(dev):
    x = np.arange(8, dtype=np.int32).reshape(4, 2)
    assert _all(dev, x, [0], True, np.uint8).tolist() == [[0, 1]]
    assert F.all(np.array([[1, 0], [2, 3]], np.int32), [1]).tolist() == [False, True]
    assert F.all(np.zeros((0, 3), np.float32), [0]).tolist() == [True, True, True]
    assert F.all(np.array([1.0, 2.0], np.float32)).tolist() is True
