"""aclnnAdd, aclnnAdds, aclnnInplaceAdd, aclnnInplaceAdds: error rows in CANN's order, dtypes per
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
    ACL_DOUBLE,
    ACL_FLOAT,
    ACL_FLOAT16,
    ACL_INT8,
    ACL_INT32,
    ACL_INT64,
    ACL_UINT32,
    ACLNN_ERR_INNER_NULLPTR,
    ACLNN_ERR_PARAM_INVALID,
    ACLNN_ERR_PARAM_NULLPTR,
    Ref,
    aclCreateScalar,
    aclDestroyAclOpExecutor,
    aclDestroyScalar,
    aclGetRecentErrMsg,
    aclnnAdd,
    aclnnAddGetWorkspaceSize,
    aclnnAdds,
    aclnnAddsGetWorkspaceSize,
    aclnnInplaceAdd,
    aclnnInplaceAddGetWorkspaceSize,
    aclnnInplaceAdds,
    aclnnInplaceAddsGetWorkspaceSize,
)
from aclnn_py.ops.math import add as facts

BF16 = np.dtype(ml_dtypes.bfloat16)
PREFIX = "AclNN_Parameter_Error(EZ1001): "
CHIPS = ["Ascend910B", "Ascend910_93", "Ascend950", "Ascend910", "Ascend310P"]


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


def _p1(fn, *args):
    ws, ex = Ref(0), Ref()
    return fn(*args, ws, ex), ws, ex


def _graph(ex) -> list[str]:
    return [f"{ln.op_type}{'@AiCpu' if ln.engine == 'AiCpu' else ''}" for ln in ex.launches]


def _run(dev, p1, p2, *args):
    assert dev.run(p1, p2, *args) == (0, 0, 0), aclGetRecentErrMsg()


# -- error rows ------------------------------------------------------------------------------------


@pytest.mark.parametrize("which,name,kind", [(0, "self", "aclTensor"), (1, "other", "aclTensor"),
                                             (2, "alpha", "aclScalar"), (3, "out", "aclTensor")])  # fmt: skip
def test_null_arguments_in_order(dev, scalars, which, name, kind):
    args = [dev.tensor(np.ones(4, np.float32)), dev.tensor(np.ones(4, np.float32)), scalars(1.0),
            dev.tensor(np.zeros(4, np.float32))]  # fmt: skip
    args[which] = None
    code, ws, ex = _p1(aclnnAddGetWorkspaceSize, *args)
    assert code == ACLNN_ERR_PARAM_NULLPTR
    assert (
        aclGetRecentErrMsg()
        == f"{PREFIX}Expected a value of type [{kind}] for argument [{name}] but instead found nullptr.\n"
    )
    assert ws.value == 0 and ex.value is None


def test_null_out_pointers_come_first(dev, scalars):
    t = dev.tensor(np.ones(4, np.float32))
    assert aclnnAddGetWorkspaceSize(None, t, scalars(1.0), t, None, Ref()) == ACLNN_ERR_PARAM_NULLPTR
    assert aclGetRecentErrMsg() == f"{PREFIX}executor or workspaceSize is nullptr\n"
    assert aclnnAddsGetWorkspaceSize(t, None, None, t, Ref(0), None) == ACLNN_ERR_PARAM_NULLPTR
    assert aclGetRecentErrMsg() == f"{PREFIX}executor or workspaceSize is nullptr\n"


ALL_DTYPES = [np.float32, np.float16, BF16, np.float64, np.int8, np.int16, np.int32, np.int64, np.uint8, np.bool_,
              np.complex64, np.complex128, np.uint16, np.uint32, np.uint64]  # fmt: skip


@pytest.mark.parametrize("chip", CHIPS)
def test_every_dtype_per_chip(chip, soc, scalars):
    """self/other/out of one dtype: accepted iff in the chip's list; then the numbers (x + 1*y)."""
    soc(chip)
    dev = Dev()
    try:
        supported = facts.dtype_support_list()
        alpha = scalars(1, ACL_INT64)
        for dt in ALL_DTYPES:
            dt = np.dtype(dt)
            acl = int(ACL_OF[dt])
            a = (np.arange(6) % 2 == 1) if dt == np.bool_ else np.arange(6).astype(dt)
            ta, tb = dev.tensor(a, acl_dtype=acl), dev.tensor(a, acl_dtype=acl)
            to = dev.tensor(np.zeros(6, dt), acl_dtype=acl)
            code, ws, ex = _p1(aclnnAddGetWorkspaceSize, ta, tb, alpha, to)
            if acl in supported:
                assert code == 0, (dt, aclGetRecentErrMsg())
                assert aclnnAdd(dev.workspace(ws.value), ws.value, ex.value, dev.stream) == 0
                got = dev.read(to)
                if dt == np.bool_:  # the TBE kernel adds the bytes: True + True is the byte 2
                    want = np.where(a, 2 if facts._soc.current().kernel_family == "tbe" else 1, 0).astype(np.uint8)
                    assert (got.view(np.uint8) == want).all()
                else:
                    assert (got == (a + a).astype(dt)).all(), dt
            else:
                assert code == ACLNN_ERR_PARAM_INVALID
                from aclnn_py import dtypes as D

                assert aclGetRecentErrMsg() == (
                    f"{PREFIX}Tensor self not implemented for {D.dt_name(acl)}, should be in dtype support list "
                    f"{D.dt_list_str(supported)}.\n"
                )
    finally:
        dev.close()


def test_other_is_checked_after_self(dev, scalars):
    f = dev.tensor(np.ones(4, np.float32))
    u = dev.tensor(np.ones(4, np.uint32), acl_dtype=ACL_UINT32)
    assert _p1(aclnnAddGetWorkspaceSize, f, u, scalars(1.0), f)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg().startswith(f"{PREFIX}Tensor other not implemented for DT_UINT32")


def test_alpha_must_cast_to_the_promoted_dtype(dev, scalars):
    i = dev.tensor(np.ones(4, np.int32))
    assert _p1(aclnnAddGetWorkspaceSize, i, i, scalars(5.9), i)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == f"{PREFIX}Alpha dtype DT_FLOAT can't be cast to the promote dtype DT_INT32.\n"
    b = dev.tensor(np.ones(4, np.bool_))
    assert _p1(aclnnAddGetWorkspaceSize, b, b, scalars(1.0), b)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == f"{PREFIX}Alpha dtype DT_FLOAT can't be cast to the promote dtype DT_BOOL.\n"
    code, _, ex = _p1(aclnnAddGetWorkspaceSize, b, b, scalars(2, ACL_INT64), b)  # an integer alpha is fine
    assert code == 0 and aclDestroyAclOpExecutor(ex.value) == 0


def test_promoted_dtype_must_cast_to_out(dev, scalars):
    f = dev.tensor(np.ones(4, np.float32))
    i = dev.tensor(np.zeros(4, np.int32))
    assert _p1(aclnnAddGetWorkspaceSize, f, f, scalars(1.0), i)[0] == ACLNN_ERR_PARAM_INVALID
    assert (
        aclGetRecentErrMsg() == f"{PREFIX}Promote dtype DT_FLOAT can't be cast to the desired output type DT_INT32.\n"
    )


def test_shape_rows(dev, scalars):
    alpha = scalars(1.0)
    r9 = dev.tensor(np.ones((1,) * 9, np.float32))
    a = dev.tensor(np.ones((10, 5, 2, 10), np.float32))
    b = dev.tensor(np.ones((10, 5, 5, 10), np.float32))
    o = dev.tensor(np.zeros((10, 5, 2, 10), np.float32))
    assert _p1(aclnnAddGetWorkspaceSize, r9, r9, alpha, r9)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == f"{PREFIX}The self tensor cannot be larger than 8 dimensions.\n"
    assert _p1(aclnnAddGetWorkspaceSize, a, r9, alpha, a)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == f"{PREFIX}The other tensor cannot be larger than 8 dimensions.\n"
    assert _p1(aclnnAddGetWorkspaceSize, a, b, alpha, o)[0] == ACLNN_ERR_PARAM_INVALID
    lines = aclGetRecentErrMsg().splitlines()
    assert lines[0].startswith(
        "Invalid_Argument_Tensor_Input_Shape(EZ1007): Shape [10, 5, 5, 10] of the tensor of operator aclnnAdd_"
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
    assert _p1(aclnnAddGetWorkspaceSize, a, a, alpha, wrong)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == f"{PREFIX}Shape of out should be [10, 5, 2, 10], but current is [10, 5, 10, 2].\n"


def test_empty_tensors_skip_the_graph(dev, scalars):
    a = dev.tensor(np.ones((7, 0, 6), np.float32))
    b = dev.tensor(np.ones((7, 1, 6), np.float32))
    code, ws, ex = _p1(aclnnAddGetWorkspaceSize, a, b, scalars(2.0), a)
    assert code == 0 and ws.value == 0 and not ex.value.launches
    assert aclnnAdd(None, 0, ex.value, dev.stream) == 0


# -- the graph's branches --------------------------------------------------------------------------

BRANCHES = [
    # chip, dtype, alpha, expected launches
    ("Ascend910B", np.float32, 1.0, ["Add"]),
    ("Ascend910B", np.float32, 2.5, ["Axpy"]),
    ("Ascend910B", np.float16, 2.5, ["Axpy"]),
    ("Ascend910B", BF16, 2.5, ["Mul", "Add"]),
    ("Ascend910B", np.int32, 3, ["Axpy"]),
    ("Ascend910B", np.int64, 3, ["Mul", "Add"]),
    ("Ascend910B", np.int16, 1, ["Add@AiCpu"]),
    ("Ascend910B", np.float64, 2.5, ["Mul@AiCpu", "Add@AiCpu"]),
    ("Ascend910", np.complex64, 1, ["Add@AiCpu"]),
    ("Ascend910B", np.complex64, 1, ["Add"]),
    ("Ascend950", BF16, 2.5, ["Axpy"]),
    ("Ascend950", np.int32, 3, ["AxpyV2"]),
    ("Ascend950", np.uint8, 3, ["AxpyV2"]),
    ("Ascend950", np.int16, 3, ["Mul", "Add@AiCpu"]),
    ("Ascend950", np.float64, 2.5, ["Mul", "Add@AiCpu"]),
]


@pytest.mark.parametrize("chip,dtype,alpha,graph", BRANCHES)
def test_graph_branch_by_chip_dtype_and_alpha(soc, chip, dtype, alpha, graph):
    soc(chip)
    dev = Dev()
    try:
        a = dev.tensor(np.arange(4).astype(dtype))
        acl_alpha = ACL_FLOAT if isinstance(alpha, float) else ACL_INT64
        s = aclCreateScalar(alpha, ACL_DOUBLE if dtype == np.float64 else acl_alpha)
        code, _, ex = _p1(aclnnAddGetWorkspaceSize, a, a, s, dev.tensor(np.zeros(4, dtype)))
        assert code == 0, aclGetRecentErrMsg()
        assert _graph(ex.value) == graph
        assert aclDestroyAclOpExecutor(ex.value) == 0 and aclDestroyScalar(s) == 0
    finally:
        dev.close()


def test_mixed_pairs_add_into_float_without_casts(dev, scalars):
    x = np.array([0.1, 1e-4, 65504, -3], np.float16)
    y = np.array([1e-8, 0.25, 1e6, 3.5], np.float32)
    for a, b in ((x, y), (y, x), (x.astype(BF16), y)):
        ta, tb = dev.tensor(a), dev.tensor(b)
        o = dev.tensor(np.zeros(4, np.float32))
        code, _, ex = _p1(aclnnAddGetWorkspaceSize, ta, tb, scalars(1.0), o)
        assert code == 0 and _graph(ex.value) == ["Add"]
        assert [s.name for s in ex.value.steps if s.name == "Cast"] == ["Cast"]  # only the final one (a no-op)
        aclDestroyAclOpExecutor(ex.value)
        _run(dev, aclnnAddGetWorkspaceSize, aclnnAdd, ta, tb, scalars(1.0), o)
        assert_bits_equal(dev.read(o), goldens.elementwise(goldens.add_exact, np.float32, a.astype(np.float32), b))
    # alpha != 1: the half input is cast to float first and Axpy runs
    ta, tb = dev.tensor(x), dev.tensor(y)
    code, _, ex = _p1(aclnnAddGetWorkspaceSize, ta, tb, scalars(2.0), dev.tensor(np.zeros(4, np.float32)))
    assert _graph(ex.value) == ["Cast", "Axpy"]
    aclDestroyAclOpExecutor(ex.value)


def test_a_nan_alpha_counts_as_one(dev, scalars):
    a = dev.tensor(np.array([1, 2, 3], np.float32))
    o = dev.tensor(np.zeros(3, np.float32))
    _run(dev, aclnnAddGetWorkspaceSize, aclnnAdd, a, a, scalars(float("nan")), o)
    assert dev.read(o).tolist() == [2, 4, 6]


# -- numbers ---------------------------------------------------------------------------------------


def _values(dtype, n, seed, scale=4.0):
    rng = np.random.default_rng(seed)
    v = (rng.standard_normal(n) * scale).astype(np.float32)
    v[:6] = [0.0, -0.0, np.inf, -np.inf, np.nan, 1e-39]
    return v.astype(dtype)


@pytest.mark.parametrize("chip", ["Ascend910B", "Ascend950"])
@pytest.mark.parametrize("dtype", [np.float32, np.float16, BF16], ids=["f32", "f16", "bf16"])
def test_float_numbers_against_exact_goldens(soc, chip, dtype):
    soc(chip)
    dev = Dev()
    try:
        x, y = _values(dtype, 300, 1), _values(dtype, 300, 2, 100.0)
        tx, ty, o = dev.tensor(x), dev.tensor(y), dev.tensor(np.zeros(300, dtype))
        s1 = aclCreateScalar(1.0, ACL_FLOAT)
        _run(dev, aclnnAddGetWorkspaceSize, aclnnAdd, tx, ty, s1, o)
        assert_bits_equal(dev.read(o), goldens.elementwise(goldens.add_exact, dtype, x, y))
        # alpha = 1.3: Axpy (one rounding; TBE rounds alpha to the half dtype first) or Mul + Add
        s = aclCreateScalar(1.3, ACL_FLOAT)
        _run(dev, aclnnAddGetWorkspaceSize, aclnnAdd, tx, ty, s, o)
        a32 = float(np.float32(1.3))
        if dtype == BF16 and chip == "Ascend910B":  # Mul then Add, each rounded to bfloat16
            a_bf = float(np.float32(a32).astype(BF16))
            t = goldens.elementwise(lambda v: goldens.mul_exact(v, a_bf), dtype, y)
            want = goldens.elementwise(goldens.add_exact, dtype, x, t)
        elif dtype == np.float16 and chip == "Ascend910B":
            a16 = float(np.float16(a32))
            want = goldens.elementwise(lambda u, v: goldens.fma_exact(a16, v, u), dtype, x, y)
        elif dtype != np.float32:  # Ascend950: the float32 vaxpy, then the cast
            r32 = goldens.elementwise(lambda u, v: goldens.fma_exact(a32, v, u), np.float32, x, y)
            want = r32.astype(dtype)
        else:
            want = goldens.elementwise(lambda u, v: goldens.fma_exact(a32, v, u), dtype, x, y)
        assert_bits_equal(dev.read(o), want)
        aclDestroyScalar(s1)
        aclDestroyScalar(s)
    finally:
        dev.close()


@pytest.mark.parametrize("chip", ["Ascend910B", "Ascend950"])
def test_integer_arithmetic(soc, chip):
    soc(chip)
    dev = Dev()
    try:
        i8 = np.array([100, -100, 127, -128, 5], np.int8)
        t = dev.tensor(i8)
        o = dev.tensor(np.zeros(5, np.int8))
        s = aclCreateScalar(3, ACL_INT64)
        _run(dev, aclnnAddGetWorkspaceSize, aclnnAdd, t, t, s, o)
        want = ((i8.astype(np.int64) + 3 * i8.astype(np.int64) + 128) % 256 - 128).astype(np.int8)
        assert (dev.read(o) == want).all()  # wraps
        # int32 with alpha != 1: Axpy through float32 on the TBE chips (truncating), exact on 950
        big = np.array([16777217, 3, -7, 2**30], np.int32)
        tb = dev.tensor(big)
        ob = dev.tensor(np.zeros(4, np.int32))
        _run(dev, aclnnAddGetWorkspaceSize, aclnnAdd, tb, tb, s, ob)
        got = dev.read(ob)
        if chip == "Ascend950":
            assert got.tolist() == ((big.astype(np.int64) * 4 + 2**31) % 2**32 - 2**31).tolist()
        else:
            assert got[0] == 67108864 and got[1] == 12 and got[2] == -28  # 16777217 -> 16777216.0f: lossy
            assert got[3] == 2**31 - 1  # float32 overflow beyond int32 saturates
        aclDestroyScalar(s)
    finally:
        dev.close()


def test_broadcast_and_non_contiguous_inputs(dev, scalars):
    rng = np.random.default_rng(3)
    xs = rng.standard_normal((3, 4)).astype(np.float32)
    x = dev.strided(xs, (4, 3), (1, 4))  # a transposed view
    y = dev.tensor(rng.standard_normal(3).astype(np.float32))
    o = dev.tensor(np.zeros((4, 3), np.float32))
    code, _, ex = _p1(aclnnAddGetWorkspaceSize, x, y, scalars(0.5), o)
    assert code == 0 and _graph(ex.value) == ["Transpose", "Axpy"]
    aclDestroyAclOpExecutor(ex.value)
    _run(dev, aclnnAddGetWorkspaceSize, aclnnAdd, x, y, scalars(0.5), o)
    yh = dev.read(y)
    want = goldens.elementwise(lambda u, v: goldens.fma_exact(0.5, v, u), np.float32, xs.T, yh)
    assert_bits_equal(dev.read(o), want)


def test_ascend950_adds_strided_views_directly(soc, scalars):
    soc("Ascend950")
    dev = Dev()
    try:
        xs = np.arange(12, dtype=np.float32).reshape(3, 4)
        x = dev.strided(xs, (4, 3), (1, 4))
        o = dev.tensor(np.zeros((4, 3), np.float32))
        code, _, ex = _p1(aclnnAddGetWorkspaceSize, x, x, scalars(1.0), o)
        assert code == 0 and _graph(ex.value) == ["Add"]  # IsAddSupportNonContiguous: no Contiguous kernel
        aclDestroyAclOpExecutor(ex.value)
        _run(dev, aclnnAddGetWorkspaceSize, aclnnAdd, x, x, scalars(1.0), o)
        assert (dev.read(o) == xs.T * 2).all()
    finally:
        dev.close()


def test_non_contiguous_out(dev, scalars):
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    t = dev.tensor(x)
    o = dev.strided(np.zeros((3, 2), np.float32), (2, 3), (1, 2))
    _run(dev, aclnnAddGetWorkspaceSize, aclnnAdd, t, t, scalars(1.0), o)
    assert (dev.read(o) == x * 2).all()


# -- aclnnAdds -------------------------------------------------------------------------------------

PROMOTE_SCALAR = [
    # chip, self dtype, scalar dtype, out dtype, promoted dtype
    ("Ascend910B", np.float16, ACL_FLOAT, np.float16, "DT_FLOAT16"),  # a float tensor keeps its dtype
    ("Ascend910B", np.float16, ACL_DOUBLE, np.float32, "DT_FLOAT16"),
    ("Ascend910B", np.int32, ACL_FLOAT, np.float32, "DT_FLOAT"),  # a float scalar widens an int tensor
    ("Ascend910B", np.int32, ACL_FLOAT16, np.float16, "DT_FLOAT16"),
    ("Ascend910B", np.int32, ACL_DOUBLE, np.float32, "DT_FLOAT"),  # double scalar, float out
    ("Ascend910B", np.int32, ACL_DOUBLE, np.float64, "DT_DOUBLE"),
    ("Ascend910B", np.int8, ACL_INT64, np.int8, "DT_INT8"),  # int tensor + int scalar: the tensor's
    ("Ascend910B", np.bool_, ACL_INT64, np.int64, "DT_INT64"),
    ("Ascend950", np.int32, ACL_DOUBLE, np.float32, "DT_FLOAT"),  # the default float dtype
    ("Ascend950", np.float16, ACL_FLOAT, np.float16, "DT_FLOAT16"),  # 0.5 is exact in float16: kept
]


@pytest.mark.parametrize("chip,self_dt,scalar_dt,out_dt,promoted", PROMOTE_SCALAR)
def test_scalar_promotion(soc, chip, self_dt, scalar_dt, out_dt, promoted):
    soc(chip)
    dev = Dev()
    try:
        t = dev.tensor(np.ones(4, self_dt))
        o = dev.tensor(np.zeros(4, out_dt))
        s = aclCreateScalar(1 if scalar_dt == ACL_INT64 else 0.5, scalar_dt)
        a = aclCreateScalar(1, ACL_INT64)
        code, _, ex = _p1(aclnnAddsGetWorkspaceSize, t, s, a, o)
        assert code == 0, aclGetRecentErrMsg()
        kernel = next(st for st in ex.value.steps if st.name == "Add")
        from aclnn_py import dtypes as D

        assert D.dt_name(kernel.outputs[0].dtype) == promoted
        assert aclDestroyAclOpExecutor(ex.value) == 0
        aclDestroyScalar(s)
        aclDestroyScalar(a)
    finally:
        dev.close()


def test_ascend950_falls_back_to_float_when_the_scalar_is_not_a_half_value(soc):
    soc("Ascend950")
    dev = Dev()
    try:
        t = dev.tensor(np.ones(4, np.float16))
        o = dev.tensor(np.zeros(4, np.float16))
        for value, promoted in ((0.1, "DT_FLOAT"), (1e-9, "DT_FLOAT16"), (0.25, "DT_FLOAT16")):
            s, a = aclCreateScalar(value, ACL_FLOAT), aclCreateScalar(1.0, ACL_FLOAT)
            code, _, ex = _p1(aclnnAddsGetWorkspaceSize, t, s, a, o)
            from aclnn_py import dtypes as D

            kernel = next(st for st in ex.value.steps if st.name == "Add")
            assert code == 0 and D.dt_name(kernel.outputs[0].dtype) == promoted, value
            aclDestroyAclOpExecutor(ex.value)
            aclDestroyScalar(s)
            aclDestroyScalar(a)
    finally:
        dev.close()


def test_adds_rows_and_numbers(dev, scalars):
    x = np.arange(8, dtype=np.float32).reshape(4, 2)
    t = dev.tensor(x)
    o = dev.tensor(np.zeros((4, 2), np.float32))
    _run(dev, aclnnAddsGetWorkspaceSize, aclnnAdds, t, scalars(2.0), scalars(1.2), o)
    assert dev.read(o).tolist() == (x + np.float32(2.4000001)).tolist()
    # the scalar's own dtype is not checked; out must have self's shape
    wrong = dev.tensor(np.zeros((2, 4), np.float32))
    assert _p1(aclnnAddsGetWorkspaceSize, t, scalars(2, ACL_UINT32), scalars(1.0), wrong)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == (
        f"{PREFIX}Expected tensor for self to have same size as tensor for out, but [4, 2] does not equal [2, 4].\n"
    )
    assert _p1(aclnnAddsGetWorkspaceSize, t, None, scalars(1.0), o)[0] == ACLNN_ERR_PARAM_NULLPTR
    assert (
        aclGetRecentErrMsg()
        == f"{PREFIX}Expected a value of type [aclScalar] for argument [other] but instead found nullptr.\n"
    )


def test_adds_rounds_the_scalar_to_the_tensor_dtype(dev, scalars):
    """An int8 tensor plus an int64 scalar stays int8: the scalar is truncated by a C cast."""
    t = dev.tensor(np.array([1, 2, 3], np.int8))
    o = dev.tensor(np.zeros(3, np.int8))
    _run(dev, aclnnAddsGetWorkspaceSize, aclnnAdds, t, scalars(300, ACL_INT64), scalars(1, ACL_INT64), o)
    assert dev.read(o).tolist() == [45, 46, 47]  # 300 -> int8 44
    h = dev.tensor(np.array([1.0], np.float16))
    oh = dev.tensor(np.zeros(1, np.float16))
    _run(dev, aclnnAddsGetWorkspaceSize, aclnnAdds, h, scalars(1e-4), scalars(1.0), oh)
    assert dev.read(oh)[0] == np.float16(1.0) + np.float16(1e-4)


@pytest.mark.parametrize("chip", ["Ascend910B", "Ascend950"])
def test_adds_bool_fix(soc, chip):
    """True + True * True into a non-bool out: CANN casts through BOOL so that it reads 1, not 2."""
    soc(chip)
    dev = Dev()
    try:
        t = dev.tensor(np.array([True, False]))
        o = dev.tensor(np.zeros(2, np.float16))
        s, a = aclCreateScalar(True, ACL_BOOL), aclCreateScalar(True, ACL_BOOL)
        code, _, ex = _p1(aclnnAddsGetWorkspaceSize, t, s, a, o)
        assert code == 0 and _graph(ex.value)[-3:] == ["Cast", "Cast", "Cast"]
        aclDestroyAclOpExecutor(ex.value)
        _run(dev, aclnnAddsGetWorkspaceSize, aclnnAdds, t, s, a, o)
        assert dev.read(o).tolist() == [1.0, 1.0]
        aclDestroyScalar(s)
        aclDestroyScalar(a)
    finally:
        dev.close()


# -- in place --------------------------------------------------------------------------------------


def test_inplace_add(dev, scalars):
    x = np.arange(8, dtype=np.float32).reshape(4, 2)
    self_ref = dev.tensor(x)
    other = dev.tensor(np.array([1, 1, 1, 2, 2, 2, 3, 3], np.float32).reshape(4, 2))
    _run(dev, aclnnInplaceAddGetWorkspaceSize, aclnnInplaceAdd, self_ref, other, scalars(1.2))
    assert np.allclose(dev.read(self_ref).ravel(), [1.2, 2.2, 3.2, 5.4, 6.4, 7.4, 9.6, 10.6])
    # the executor is aclnnAdd's (the op cache and messages say aclnnAdd)
    code, _, ex = _p1(aclnnInplaceAddGetWorkspaceSize, self_ref, other, scalars(1.0))
    assert code == 0 and ex.value.api == "aclnnAdd"
    aclDestroyAclOpExecutor(ex.value)


def test_inplace_add_checks_its_broadcast_before_phase_one(dev, scalars):
    self_ref = dev.tensor(np.ones((3, 2), np.float32))
    other = dev.tensor(np.ones((4, 2), np.float32))
    assert _p1(aclnnInplaceAddGetWorkspaceSize, self_ref, other, scalars(1.0))[0] == ACLNN_ERR_PARAM_INVALID
    # before L2_DFX_PHASE_1 no operator is being run: the EZ1007 names none
    assert aclGetRecentErrMsg() == (
        "Invalid_Argument_Tensor_Input_Shape(EZ1007): Shape [4, 2] of the tensor of operator  has incorrect dimension 4. "
        "Reason: The tensor whose shape is [4, 2] and the tensor whose shape is [3, 2] do not meet the broadcast "
        "condition.\nTraceBack (most recent call last):\n"
        "        The size of tensor selfRef [3, 2] must match the size of tensor other [4, 2].\n"
    )
    small = dev.tensor(np.ones((1, 2), np.float32))
    assert _p1(aclnnInplaceAddGetWorkspaceSize, small, other, scalars(1.0))[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == f"{PREFIX}Expected shape of selfRef should be [4, 2], but got [1, 2].\n"
    assert _p1(aclnnInplaceAddGetWorkspaceSize, None, other, scalars(1.0))[0] == ACLNN_ERR_PARAM_NULLPTR
    assert (
        aclGetRecentErrMsg()
        == f"{PREFIX}Expected a value of type [aclTensor] for argument [selfRef] but instead found nullptr.\n"
    )
    # the rest is aclnnAdd's, with its names
    i = dev.tensor(np.ones((4, 2), np.int32))
    assert _p1(aclnnInplaceAddGetWorkspaceSize, i, other, scalars(1.0))[0] == ACLNN_ERR_PARAM_INVALID
    assert (
        aclGetRecentErrMsg() == f"{PREFIX}Promote dtype DT_FLOAT can't be cast to the desired output type DT_INT32.\n"
    )


def test_inplace_adds(dev, scalars):
    x = np.arange(8, dtype=np.float32)
    t = dev.tensor(x)
    _run(dev, aclnnInplaceAddsGetWorkspaceSize, aclnnInplaceAdds, t, scalars(2.0), scalars(1.2))
    assert dev.read(t).tolist() == (x + np.float32(2.4000001)).tolist()
    assert _p1(aclnnInplaceAddsGetWorkspaceSize, t, scalars(2.0), None)[0] == ACLNN_ERR_PARAM_NULLPTR
    assert (
        aclGetRecentErrMsg()
        == f"{PREFIX}Expected a value of type [aclScalar] for argument [alpha] but instead found nullptr.\n"
    )


def test_a_view_outside_its_storage_stops_at_selfs_contiguous(dev, scalars):
    """aclnnAdd's CHECK_RET follows each Contiguous: when self's view reaches past its storage,
    only self's failure is logged (other is never made contiguous)."""
    a = dev.strided(np.ones(8, np.float32), (4,), (3,))  # elements 0..9 of 8
    b = dev.strided(np.ones(8, np.float32), (4,), (3,))
    code, _, ex = _p1(aclnnAddGetWorkspaceSize, a, b, scalars(2.0), dev.tensor(np.zeros(4, np.float32)))
    assert code == ACLNN_ERR_INNER_NULLPTR and ex.value is None
    msg = aclGetRecentErrMsg()
    assert msg.count("Invalid input tensor") == 1 and f"{a!r}" in msg and f"{b!r}" not in msg


def test_another_apis_executor_fails_phase_two_in_sanitizer_error_mode(dev, scalars, findings):
    """CANN runs any executor it is given; the sanitizer names a phase 2 given another API's
    executor, and in error mode refuses it (161002), leaving the executor to the right API."""
    from aclnn_py.runtime import sanitizer

    t = dev.tensor(np.ones(4, np.float32))
    code, _, ex = _p1(aclnnAddsGetWorkspaceSize, t, scalars(1.0), scalars(1.0), t)
    assert code == 0 and ex.value.api == "aclnnAdds"
    sanitizer.set_mode("error")
    try:
        assert aclnnInplaceAdd(None, 0, ex.value, dev.stream) == ACLNN_ERR_PARAM_INVALID
        assert "sanitizer [usage]: aclnnInplaceAdd at " in aclGetRecentErrMsg()
        assert aclnnInplaceAdds(None, 0, ex.value, dev.stream) == 0  # its own twin: no finding
    finally:
        sanitizer.set_mode("warn")
    assert findings.refresh().checks() == ["usage"] and dev.read(t).tolist() == [2.0] * 4


def test_dtype_argument_types(dev, scalars):
    """Python objects no C caller could pass are refused with 161002."""
    t = dev.tensor(np.ones(4, np.float32))
    assert aclnnAddGetWorkspaceSize(t, t, 1.0, t, Ref(0), Ref()) == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == f"{PREFIX}aclnnAdd: argument alpha must be an aclScalar, got float.\n"
    _ = (ACL_BF16, ACL_FLOAT16, ACL_INT8, ACL_INT32)
