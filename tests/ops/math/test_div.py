"""aclnnDiv, aclnnDivs, aclnnInplaceDiv, aclnnInplaceDivs: error rows in CANN's (odd) order, dtypes
per chip, the graph's branches (Ascend910B's mixed pairs, Ascend950's views and its Muls by the
reciprocal), numbers against exact goldens (true division; flush to zero on Ascend950), broadcast,
views, empty, in place, 0-d."""

from __future__ import annotations

import math

import goldens
import goldens_mul_div as gmd
import ml_dtypes
import numpy as np
import pytest
from helpers import ACL_OF, Dev, assert_bits_equal, own

from aclnn_py import (
    ACL_BF16,
    ACL_BOOL,
    ACL_COMPLEX64,
    ACL_DOUBLE,
    ACL_FLOAT,
    ACL_FLOAT16,
    ACL_FORMAT_FRACTAL_NZ,
    ACL_FORMAT_NCHW,
    ACL_INT8,
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
    aclnnDiv,
    aclnnDivGetWorkspaceSize,
    aclnnDivs,
    aclnnDivsGetWorkspaceSize,
    aclnnInplaceDiv,
    aclnnInplaceDivGetWorkspaceSize,
    aclnnInplaceDivs,
    aclnnInplaceDivsGetWorkspaceSize,
    aclnnMulGetWorkspaceSize,
)
from aclnn_py import dtypes as D
from aclnn_py.ops.math import div as facts

BF16 = np.dtype(ml_dtypes.bfloat16)
PREFIX = "AclNN_Parameter_Error(EZ1001): "
CHIPS = ["Ascend910B", "Ascend910_93", "Ascend950", "Ascend910", "Ascend310P"]
FORMAT = "Format only support ND、NCHW、NHWC、HWCN、NDHWC、NCDHW."
ALL_DTYPES = [np.float32, np.float16, BF16, np.float64, np.int8, np.int16, np.int32, np.int64, np.uint8, np.bool_,
              np.complex64, np.complex128, np.uint16, np.uint32, np.uint64]  # fmt: skip
TINY = float(np.finfo(np.float32).tiny)


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
    """``chip_dev("Ascend950")``: switch the SoC, then a device (closed at the end or by the next call)."""
    made = []

    def make(chip):
        if made:
            made.pop().close()
        soc(chip)
        made.append(Dev())
        return made[-1]

    yield make
    for d in made:
        d.close()


def _p1(fn, *args):
    ws, ex = Ref(0), Ref()
    return fn(*args, ws, ex), ws, ex


def _np_of(name: str) -> np.dtype:
    """The numpy dtype of a ``DT_...`` name."""
    return next(np.dtype(d) for d in ALL_DTYPES if D.dt_name(D.from_numpy_dtype(np.dtype(d))) == name)


def _graph(ex) -> list[str]:
    return [f"{ln.op_type}{'@AiCpu' if ln.engine == 'AiCpu' else ''}" for ln in ex.launches]


def _graph_of(fn, *args) -> list[str]:
    code, _, ex = _p1(fn, *args)
    assert code == 0, aclGetRecentErrMsg()
    g = _graph(ex.value)
    assert aclDestroyAclOpExecutor(ex.value) == 0
    return g


def _run(dev, p1, p2, *args):
    assert dev.run(p1, p2, *args) == (0, 0, 0), aclGetRecentErrMsg()


def _err(fn, *args) -> tuple[int, str]:
    code = _p1(fn, *args)[0]
    return int(code), aclGetRecentErrMsg()


def _one_line(text: str) -> str:
    return f"{PREFIX}{text}\n"


def _values(dtype, n, seed, scale=4.0):
    rng = np.random.default_rng(seed)
    v = (rng.standard_normal(n) * scale).astype(np.float32)
    v[:8] = [0.0, -0.0, np.inf, -np.inf, np.nan, 1e-39, 3.0, -7.0]
    return v.astype(dtype)


def _ftz(v: float) -> float:
    return math.copysign(0.0, v) if v != 0 and abs(v) < TINY else v


def div_golden(x, y, dtype, ftz=False):
    """x / y correctly rounded to ``dtype``; ``ftz``: Ascend950's DivHighPrecision (float32
    subnormal operands and quotients become zeros of their sign)."""
    if not ftz:
        return goldens.elementwise(gmd.div_exact, dtype, x, y)
    q = goldens.elementwise(lambda a, b: gmd.div_exact(_ftz(a), _ftz(b)), np.float32, x, y)
    return goldens.round_to([_ftz(float(v)) for v in q.reshape(-1)], dtype).reshape(q.shape)


# == aclnnDiv: error rows ===========================================================================


def test_div_null_arguments_out_other_self(dev):
    t = dev.tensor(np.ones(4, np.float32))
    for args, name in (((None, None, None), "out"), ((None, None, t), "other"), ((None, t, t), "self")):
        assert _err(aclnnDivGetWorkspaceSize, *args) == (
            ACLNN_ERR_PARAM_NULLPTR,
            _one_line(f"Expected a value of type [aclTensor] for argument [{name}] but instead found nullptr."),
        )


def test_null_out_pointers(dev, scalars):
    t = dev.tensor(np.ones(4, np.float32))
    for fn, args in ((aclnnDivGetWorkspaceSize, (None, t, t)), (aclnnDivsGetWorkspaceSize, (t, None, t))):
        assert fn(*args, None, Ref()) == ACLNN_ERR_PARAM_NULLPTR
        assert aclGetRecentErrMsg() == _one_line("executor or workspaceSize is nullptr")
    assert aclnnInplaceDivsGetWorkspaceSize(t, scalars(1.0), Ref(0), None) == ACLNN_ERR_PARAM_NULLPTR
    assert aclGetRecentErrMsg() == _one_line("executor or workspaceSize is nullptr")


def test_div_shapes_are_checked_before_dtypes(dev):
    u9 = dev.tensor(np.ones((1,) * 9, np.uint32), acl_dtype=ACL_UINT32)
    u = dev.tensor(np.ones((3, 2), np.uint32), acl_dtype=ACL_UINT32)
    u4 = dev.tensor(np.ones((4, 2), np.uint32), acl_dtype=ACL_UINT32)
    assert _err(aclnnDivGetWorkspaceSize, u9, u, u) == (
        ACLNN_ERR_PARAM_INVALID, _one_line("The self tensor cannot be larger than 8 dimensions."))  # fmt: skip
    assert _err(aclnnDivGetWorkspaceSize, u, u9, u)[1] == _one_line(
        "The other tensor cannot be larger than 8 dimensions."
    )
    code, msg = _err(aclnnDivGetWorkspaceSize, u, u4, u)
    lines = msg.splitlines()
    assert code == ACLNN_ERR_PARAM_INVALID
    assert lines[0].startswith(
        "Invalid_Argument_Tensor_Input_Shape(EZ1007): Shape [4, 2] of the tensor of operator aclnnDiv_"
    )
    assert lines[2] == "        The size of tensor self [3, 2] must match the size of tensor other [4, 2]."
    # the helper's parameter is called y: the message says so
    assert _err(aclnnDivGetWorkspaceSize, u, u, u4) == (
        ACLNN_ERR_PARAM_INVALID, _one_line("Expected tensor for y to have same size as [3, 2], but got [4, 2]."))  # fmt: skip


def test_div_dtypes_other_first_out_unchecked(dev):
    f = dev.tensor(np.ones(4, np.float32))
    u = dev.tensor(np.ones(4, np.uint32), acl_dtype=ACL_UINT32)
    supported = D.dt_list_str(facts.dtype_support_list())
    for args, name in (((u, u, f), "other"), ((f, u, f), "other"), ((u, f, f), "self")):
        assert _err(aclnnDivGetWorkspaceSize, *args) == (
            ACLNN_ERR_PARAM_INVALID,
            _one_line(f"Tensor {name} not implemented for DT_UINT32, should be in dtype support list {supported}."),
        )


@pytest.mark.parametrize("chip", CHIPS)
def test_div_every_dtype_per_chip(chip_dev, chip):
    """self and other of one dtype (out FLOAT, or the dtype for floats): accepted iff in the list."""
    dev = chip_dev(chip)
    supported = facts.dtype_support_list()
    assert (D.DT_BF16 in supported) == (chip in ("Ascend910B", "Ascend910_93", "Ascend950"))
    for dt in ALL_DTYPES:
        dt = np.dtype(dt)
        acl = int(ACL_OF[dt])
        a = (np.arange(6) % 2 == 1) if dt == np.bool_ else (np.arange(6) + 1).astype(dt)
        b = np.ones(6, np.bool_) if dt == np.bool_ else np.full(6, 2).astype(dt)
        out_dt = dt if dt.kind in "fc" or dt == BF16 else np.dtype(np.float32)
        ta, tb = dev.tensor(a, acl_dtype=acl), dev.tensor(b, acl_dtype=acl)
        to = dev.tensor(np.zeros(6, out_dt))
        code, ws, ex = _p1(aclnnDivGetWorkspaceSize, ta, tb, to)
        if acl not in supported:
            assert code == ACLNN_ERR_PARAM_INVALID
            assert aclGetRecentErrMsg().startswith(f"{PREFIX}Tensor other not implemented for {D.dt_name(acl)}")
            continue
        assert code == 0, (dt, aclGetRecentErrMsg())
        assert aclnnDiv(dev.workspace(ws.value), ws.value, ex.value, dev.stream) == 0
        with np.errstate(all="ignore"):
            want = (a.astype(np.float64) / b.astype(np.float64)).astype(out_dt) if dt.kind != "c" else a / b
        assert (dev.read(to) == want).all(), dt


@pytest.mark.parametrize("chip", ["Ascend910B", "Ascend910", "Ascend950"])
def test_div_result_must_cast_to_out(chip_dev, chip):
    dev = chip_dev(chip)
    f = dev.tensor(np.array([7.0, -7.0], np.float32))
    i = dev.tensor(np.array([7, -7], np.int32))
    two = dev.tensor(np.array([2, 2], np.int32))
    oi = dev.tensor(np.zeros(2, np.int32))
    b = dev.tensor(np.array([True, False]))
    ob = dev.tensor(np.zeros(2, np.bool_))
    assert _err(aclnnDivGetWorkspaceSize, f, f, oi) == (
        ACLNN_ERR_PARAM_INVALID, _one_line("Result type DT_FLOAT can't be cast to the desired output type DT_INT32."))  # fmt: skip
    if chip == "Ascend950":  # integers and bool compute in FLOAT: no integer or bool out
        assert _err(aclnnDivGetWorkspaceSize, i, two, oi)[1] == _one_line(
            "Result type DT_FLOAT can't be cast to the desired output type DT_INT32."
        )
        assert _err(aclnnDivGetWorkspaceSize, b, b, ob)[1] == _one_line(
            "Result type DT_FLOAT can't be cast to the desired output type DT_BOOL."
        )
        return
    # elsewhere the promoted INT32 casts to INT32: the float quotient is truncated by the last Cast
    _run(dev, aclnnDivGetWorkspaceSize, aclnnDiv, i, two, oi)
    assert dev.read(oi).tolist() == [3, -3]


def test_div_formats_are_checked_last(dev):
    nz = dev.tensor(np.ones((2, 16), np.float32), fmt=ACL_FORMAT_FRACTAL_NZ)
    f = dev.tensor(np.ones((2, 16), np.float32))
    unz = dev.tensor(np.ones((2, 16), np.uint32), acl_dtype=ACL_UINT32, fmt=ACL_FORMAT_FRACTAL_NZ)
    for args in ((nz, f, f), (f, nz, f), (f, f, nz)):
        assert _err(aclnnDivGetWorkspaceSize, *args) == (ACLNN_ERR_PARAM_INVALID, _one_line(FORMAT))
    assert _err(aclnnDivGetWorkspaceSize, unz, f, f)[1].startswith(f"{PREFIX}Tensor self not implemented")
    nchw = dev.tensor(np.full((2, 16), 3, np.float32), fmt=ACL_FORMAT_NCHW)  # not a private format
    _run(dev, aclnnDivGetWorkspaceSize, aclnnDiv, nchw, nchw, f)
    assert (dev.read(f) == 1).all()


def test_div_empty_tensors_skip_the_graph(dev):
    a = dev.tensor(np.ones((7, 0), np.float32))
    b = dev.tensor(np.ones((7, 1), np.float32))
    code, ws, ex = _p1(aclnnDivGetWorkspaceSize, a, b, a)
    assert code == 0 and ws.value == 0 and not ex.value.launches
    assert aclnnDiv(None, 0, ex.value, dev.stream) == 0


def test_div_unreachable_promotion_row_is_implemented():
    """Every pair of the support lists promotes: ``Self dtype %s and other dtype %s can not promote
    dtype.`` cannot fire through aclnnDiv or aclnnDivs (the scalar's dtype is list-checked too)."""
    for lst in (facts.ASCEND910B_DTYPE_SUPPORT_LIST, facts.ASCEND910_DTYPE_SUPPORT_LIST):
        assert all(D.promote_type(a, b) != D.DT_UNDEFINED for a in lst for b in lst)
        assert all(facts.infer_divs_mode_dtype(a, b) != D.DT_UNDEFINED for a in lst for b in lst)


# == aclnnDiv: the graph ============================================================================

DIV_BRANCHES = [
    # chip, self dtype, other dtype, self transposed, launches, RealDiv's output dtype
    ("Ascend910B", np.float32, np.float32, False, ["RealDiv"], "DT_FLOAT"),  # the mixed path, same dtypes
    ("Ascend910_93", np.float16, np.float16, False, ["RealDiv"], "DT_FLOAT16"),
    ("Ascend910B", BF16, BF16, False, ["RealDiv"], "DT_BFLOAT16"),
    ("Ascend910B", np.float16, np.float32, False, ["RealDiv"], "DT_FLOAT"),  # mixed inputs, FLOAT out
    ("Ascend910B", np.float16, BF16, False, ["RealDiv"], "DT_FLOAT"),
    ("Ascend910B", np.float32, np.float32, True, ["Transpose", "RealDiv"], "DT_FLOAT"),
    ("Ascend910B", np.int32, np.int32, False, ["RealDiv"], "DT_FLOAT"),  # INT32 kept, RealDiv gives FLOAT
    ("Ascend910B", np.int32, np.int64, False, ["Cast", "Cast", "RealDiv"], "DT_FLOAT"),
    ("Ascend910B", np.int8, np.int8, False, ["Cast", "Cast", "RealDiv"], "DT_FLOAT"),
    ("Ascend910B", np.bool_, np.bool_, False, ["RealDiv"], "DT_FLOAT"),
    ("Ascend910B", np.bool_, np.int8, False, ["Cast", "Cast", "RealDiv"], "DT_FLOAT"),
    ("Ascend910B", np.float64, np.float64, False, ["RealDiv@AiCpu"], "DT_DOUBLE"),
    ("Ascend910B", np.complex64, np.complex64, False, ["RealDiv@AiCpu"], "DT_COMPLEX64"),
    ("Ascend910B", np.float16, np.float64, False, ["Cast@AiCpu", "RealDiv@AiCpu"], "DT_DOUBLE"),
    ("Ascend910", np.float16, np.float32, False, ["Cast", "RealDiv"], "DT_FLOAT"),
    ("Ascend910", np.float16, np.float16, False, ["RealDiv"], "DT_FLOAT16"),
    ("Ascend910", np.int32, np.int32, False, ["Cast", "Cast", "RealDiv"], "DT_FLOAT"),
    ("Ascend310P", np.bool_, np.bool_, False, ["RealDiv"], "DT_FLOAT"),
    ("Ascend950", np.float32, np.float32, True, ["RealDiv"], "DT_FLOAT"),  # views read directly
    ("Ascend950", np.float16, np.float32, True, ["Transpose", "Cast", "RealDiv"], "DT_FLOAT"),
    ("Ascend950", np.float16, np.float16, False, ["RealDiv"], "DT_FLOAT16"),
    ("Ascend950", np.int32, np.int32, True, ["RealDiv"], "DT_FLOAT"),
    ("Ascend950", np.int8, np.int32, False, ["Cast", "RealDiv"], "DT_FLOAT"),  # INT32 kept; other read as it is
    ("Ascend950", np.int64, np.int64, False, ["Cast", "Cast", "RealDiv"], "DT_FLOAT"),
    ("Ascend950", np.bool_, np.bool_, False, ["RealDiv"], "DT_FLOAT"),
    ("Ascend950", np.float64, np.float64, False, ["RealDiv@AiCpu"], "DT_DOUBLE"),
]


def _nonzero(dt, n=6):
    dt = np.dtype(dt)
    if dt == np.bool_:
        return np.ones(n, np.bool_)
    return (np.arange(n) % 3 + 1).astype(dt)


@pytest.mark.parametrize("chip,sdt,odt,strided,graph,kdt", DIV_BRANCHES)
def test_div_graph_branches(chip_dev, chip, sdt, odt, strided, graph, kdt):
    dev = chip_dev(chip)
    base = (np.arange(6) % 2 == 0) if np.dtype(sdt) == np.bool_ else (np.arange(6) - 2).astype(sdt)
    base = base.reshape(2, 3)
    a = dev.strided(base, (3, 2), (1, 3)) if strided else dev.tensor(base.T.copy())
    bv = _nonzero(odt).reshape(3, 2)
    b = dev.tensor(bv)
    o = dev.tensor(np.zeros((3, 2), _np_of(kdt)))  # out in the quotient's dtype: no last Cast
    code, _, ex = _p1(aclnnDivGetWorkspaceSize, a, b, o)
    assert code == 0, aclGetRecentErrMsg()
    assert _graph(ex.value) == graph and ex.value.api == "aclnnDiv"
    rd = next(s for s in ex.value.steps if s.name == "RealDiv")
    assert D.dt_name(rd.outputs[0].dtype) == kdt
    aclDestroyAclOpExecutor(ex.value)
    _run(dev, aclnnDivGetWorkspaceSize, aclnnDiv, a, b, o)
    want = base.T.astype(np.complex128) / bv.astype(np.complex128)
    assert np.allclose(dev.read(o).astype(np.complex128), want, rtol=1e-2)


# == aclnnDiv: the numbers ==========================================================================

FLOAT_CASES = [
    (c, d) for c in ("Ascend910B", "Ascend910", "Ascend950") for d in (np.float32, np.float16, BF16)
    if not (c == "Ascend910" and d == BF16)
]  # fmt: skip


@pytest.mark.parametrize("chip,dtype", FLOAT_CASES)
def test_div_float_numbers_are_correctly_rounded(chip_dev, chip, dtype):
    dev = chip_dev(chip)
    x, y = _values(dtype, 400, 1, 100.0), _values(dtype, 400, 2)
    y[8:12] = [0.0, -0.0, 1e-39, 3.0]  # division by zero; a subnormal divisor
    tx, ty, o = dev.tensor(x), dev.tensor(y), dev.tensor(np.zeros(400, dtype))
    _run(dev, aclnnDivGetWorkspaceSize, aclnnDiv, tx, ty, o)
    assert_bits_equal(dev.read(o), div_golden(x, y, dtype, ftz=chip == "Ascend950"))


def test_ascend950_flushes_float32_subnormals_in_division(chip_dev):
    """AscendC's DIFF_COMPENSATION division: 0 ulp, but subnormal operands and quotients are
    zeros of their sign (its documentation's example: 1 / -5.01923e-39 = -inf)."""
    x = np.array([1.0, 1e-39, -3e-39, 1e-30, 1.0], np.float32)
    y = np.array([np.float32(-5.01923249665106e-39), 1.0, 1e-10, 1e10, 3.0], np.float32)
    results = {}
    for chip in ("Ascend950", "Ascend910B"):
        dev = chip_dev(chip)
        tx, ty, o = dev.tensor(x), dev.tensor(y), dev.tensor(np.zeros(5, np.float32))
        _run(dev, aclnnDivGetWorkspaceSize, aclnnDiv, tx, ty, o)
        results[chip] = dev.read(o)
    assert results["Ascend950"][0] == -np.inf and results["Ascend910B"][0] == np.float32(1 / -5.01923249665106e-39)
    assert math.copysign(1, results["Ascend950"][1]) == 1 and results["Ascend950"][1] == 0  # 1e-39 / 1 -> +0
    assert results["Ascend910B"][1] == np.float32(1e-39)
    assert results["Ascend950"][2] == 0 and math.copysign(1, results["Ascend950"][2]) == -1  # -3e-39 flushed first
    assert results["Ascend950"][3] == 0 and results["Ascend910B"][3] == np.float32(1e-40)  # a subnormal quotient
    assert results["Ascend950"][4] == results["Ascend910B"][4] == np.float32(1 / 3)


@pytest.mark.parametrize("chip", ["Ascend910B", "Ascend950"])
def test_div_mixed_and_integer_numbers(chip_dev, chip):
    dev = chip_dev(chip)
    x = _values(np.float16, 200, 3, 100.0)
    y = _values(np.float32, 200, 4, 0.7)
    tx, ty, o = dev.tensor(x), dev.tensor(y), dev.tensor(np.zeros(200, np.float32))
    _run(dev, aclnnDivGetWorkspaceSize, aclnnDiv, tx, ty, o)
    assert_bits_equal(dev.read(o), div_golden(x.astype(np.float32), y, np.float32, ftz=chip == "Ascend950"))
    i = np.array([7, -7, 0, 5, 16777217, -(2**31), 1], np.int32)
    j = np.array([2, 2, 0, 0, 1, -1, 3], np.int32)
    ti, tj, oi = dev.tensor(i), dev.tensor(j), dev.tensor(np.zeros(7, np.float32))
    _run(dev, aclnnDivGetWorkspaceSize, aclnnDiv, ti, tj, oi)
    got = dev.read(oi)
    assert got[:2].tolist() == [3.5, -3.5] and np.isnan(got[2]) and got[3] == np.inf
    assert got[4] == np.float32(16777216)  # converted to float32 first (nearest even)
    assert got[5] == np.float32(2**31) and got[6] == np.float32(1 / 3)
    b = np.array([True, True, False, False])
    c = np.array([True, False, True, False])
    tb, tc, ob = dev.tensor(b), dev.tensor(c), dev.tensor(np.zeros(4, np.float16))
    _run(dev, aclnnDivGetWorkspaceSize, aclnnDiv, tb, tc, ob)
    got = dev.read(ob)
    assert got[0] == 1 and got[1] == np.inf and got[2] == 0 and np.isnan(got[3])


def test_div_double_and_complex_on_the_ai_cpu(dev):
    x = np.array([1.0, -0.0, 5.0, 1e-310, 2.0**1023], np.float64)
    y = np.array([3.0, 2.0, 0.0, 1e10, 0.5], np.float64)
    tx, ty, o = dev.tensor(x), dev.tensor(y), dev.tensor(np.zeros(5, np.float64))
    _run(dev, aclnnDivGetWorkspaceSize, aclnnDiv, tx, ty, o)
    assert_bits_equal(dev.read(o), goldens.elementwise(gmd.div_exact, np.float64, x, y))
    a = np.array([1 + 2j, 3 - 1j], np.complex64)
    b = np.array([2 - 1j, 1j], np.complex64)
    ta, tb, oc = dev.tensor(a), dev.tensor(b), dev.tensor(np.zeros(2, np.complex64))
    _run(dev, aclnnDivGetWorkspaceSize, aclnnDiv, ta, tb, oc)
    assert np.allclose(dev.read(oc), a.astype(np.complex128) / b.astype(np.complex128), rtol=1e-6)


def test_div_broadcast_views_out_and_zero_d(chip_dev):
    for chip in ("Ascend910B", "Ascend950"):
        dev = chip_dev(chip)
        rng = np.random.default_rng(5)
        xs = rng.standard_normal((3, 4)).astype(np.float32)
        x = dev.strided(xs, (4, 3), (1, 4))
        yv = rng.standard_normal(3).astype(np.float32)
        y = dev.tensor(yv)
        o = dev.strided(np.zeros((3, 4), np.float32), (4, 3), (1, 4))
        _run(dev, aclnnDivGetWorkspaceSize, aclnnDiv, x, y, o)
        assert_bits_equal(dev.read(o), div_golden(xs.T, yv, np.float32))
        z = dev.tensor(np.array(3.0, np.float32))
        oz = dev.tensor(np.array(0, np.float32))
        _run(dev, aclnnDivGetWorkspaceSize, aclnnDiv, z, dev.tensor(np.array(4.0, np.float32)), oz)
        assert dev.read(oz).shape == () and float(dev.read(oz)) == 0.75


def test_div_doc_example(dev):
    x = np.arange(8, dtype=np.float32).reshape(4, 2)
    y = np.array([1, 1, 1, 2, 2, 2, 3, 3], np.float32).reshape(4, 2)
    o = dev.tensor(np.zeros((4, 2), np.float32))
    tx, ty = dev.tensor(x), dev.tensor(y)
    _run(dev, aclnnDivGetWorkspaceSize, aclnnDiv, tx, ty, o)
    want = ["0.000000", "1.000000", "2.000000", "1.500000", "2.000000", "2.500000", "2.000000", "2.333333"]
    assert [f"{v:f}" for v in dev.read(o).ravel()] == want
    _run(dev, aclnnInplaceDivGetWorkspaceSize, aclnnInplaceDiv, tx, ty)
    assert [f"{v:f}" for v in dev.read(tx).ravel()] == want


# == aclnnInplaceDiv ================================================================================


def test_inplace_div_checks_before_phase_one(dev):
    s = dev.tensor(np.ones((3, 2), np.float32))
    o = dev.tensor(np.ones((4, 2), np.float32))
    # before L2_DFX_PHASE_1: even the null out-pointers come after these
    assert aclnnInplaceDivGetWorkspaceSize(None, o, None, None) == ACLNN_ERR_PARAM_NULLPTR
    assert aclGetRecentErrMsg() == _one_line("Expected selfRef not to be null.")
    assert _err(aclnnInplaceDivGetWorkspaceSize, s, None) == (
        ACLNN_ERR_PARAM_NULLPTR, _one_line("Expected other not to be null."))  # fmt: skip
    assert _err(aclnnInplaceDivGetWorkspaceSize, s, o) == (
        ACLNN_ERR_PARAM_INVALID,
        "Invalid_Argument_Tensor_Input_Shape(EZ1007): Shape [4, 2] of the tensor of operator  has incorrect dimension 4. "
        "Reason: The tensor whose shape is [4, 2] and the tensor whose shape is [3, 2] do not meet the broadcast "
        "condition.\nTraceBack (most recent call last):\n"
        "        Shape of selfRef and other can't broadcast, got [3, 2], [4, 2].\n",
    )
    small = dev.tensor(np.ones((1, 2), np.float32))
    assert _err(aclnnInplaceDivGetWorkspaceSize, small, o) == (
        ACLNN_ERR_PARAM_INVALID, _one_line("Expected shape of selfRef should be [4, 2], but got [1, 2]."))  # fmt: skip
    assert aclnnInplaceDivGetWorkspaceSize(o, o, None, Ref()) == ACLNN_ERR_PARAM_NULLPTR
    assert aclGetRecentErrMsg() == _one_line("executor or workspaceSize is nullptr")


@pytest.mark.parametrize("chip,api,graph", [
    ("Ascend910B", "aclnnInplaceDiv", ["RealDiv"]),  # own graph: RealDiv(isScalar=true) gives FLOAT16
    ("Ascend910", "aclnnDiv", ["Cast", "RealDiv", "Cast"]),
    ("Ascend950", "aclnnDiv", ["Cast", "RealDiv", "Cast"]),
])  # fmt: skip
def test_inplace_div_half_by_float(chip_dev, chip, api, graph):
    """FLOAT16 selfRef / FLOAT other: the float32 quotient rounded to float16 on every path."""
    dev = chip_dev(chip)
    x = _values(np.float16, 300, 6, 100.0)
    y = _values(np.float32, 300, 7, 0.3)
    s, t = dev.tensor(x), dev.tensor(y)
    code, _, ex = _p1(aclnnInplaceDivGetWorkspaceSize, s, t)
    assert code == 0 and ex.value.api == api and _graph(ex.value) == graph
    aclDestroyAclOpExecutor(ex.value)
    _run(dev, aclnnInplaceDivGetWorkspaceSize, aclnnInplaceDiv, s, t)
    q = div_golden(x.astype(np.float32), y, np.float32, ftz=chip == "Ascend950")
    assert_bits_equal(dev.read(s), goldens.round_to([float(v) for v in q], np.float16))


def test_inplace_div_mixed_path_runs_aclnn_divs_checks_with_its_names(chip_dev):
    dev = chip_dev("Ascend910B")
    nz = dev.tensor(np.ones((2, 16), np.float32), fmt=ACL_FORMAT_FRACTAL_NZ)
    f = dev.tensor(np.ones((2, 16), np.float32))
    assert _err(aclnnInplaceDivGetWorkspaceSize, nz, f) == (ACLNN_ERR_PARAM_INVALID, _one_line(FORMAT))
    r9 = dev.tensor(np.ones((1,) * 9, np.float16))
    assert _err(aclnnInplaceDivGetWorkspaceSize, r9, r9)[1] == _one_line(
        "The self tensor cannot be larger than 8 dimensions."
    )
    e = dev.tensor(np.ones((0, 2), np.float16))
    code, ws, ex = _p1(aclnnInplaceDivGetWorkspaceSize, e, dev.tensor(np.ones(2, np.float32)))
    assert code == 0 and ws.value == 0 and ex.value.api == "aclnnInplaceDiv" and not ex.value.launches
    aclDestroyAclOpExecutor(ex.value)


@pytest.mark.parametrize("chip", ["Ascend910B", "Ascend950"])
def test_inplace_div_integer_self(chip_dev, chip):
    dev = chip_dev(chip)
    i = dev.tensor(np.array([7, -7, 9], np.int32))
    two = dev.tensor(np.array([2, 2, 2], np.int32))
    if chip == "Ascend950":
        assert _err(aclnnInplaceDivGetWorkspaceSize, i, two) == (
            ACLNN_ERR_PARAM_INVALID, _one_line("Result type DT_FLOAT can't be cast to the desired output type DT_INT32."))  # fmt: skip
        return
    code, _, ex = _p1(aclnnInplaceDivGetWorkspaceSize, i, two)
    assert code == 0 and ex.value.api == "aclnnDiv"
    aclDestroyAclOpExecutor(ex.value)
    _run(dev, aclnnInplaceDivGetWorkspaceSize, aclnnInplaceDiv, i, two)
    assert dev.read(i).tolist() == [3, -3, 4]


def test_inplace_div_phase_two_takes_either_builder(chip_dev, findings):
    """aclnnInplaceDiv runs executors of its own phase 1 or aclnnDiv's without a word; any other
    API's executor runs too (CANN does not check the builder), named by the sanitizer [usage]."""
    dev = chip_dev("Ascend910B")
    f = dev.tensor(np.array([3.0, 2.0], np.float32))
    code, _, ex = _p1(aclnnInplaceDivGetWorkspaceSize, f, f)
    assert code == 0 and ex.value.api == "aclnnInplaceDiv"
    assert aclnnInplaceDiv(None, 0, ex.value, dev.stream) == 0
    i = dev.tensor(np.array([4, 6], np.int32))
    code, _, ex = _p1(aclnnDivGetWorkspaceSize, i, i, f)
    assert code == 0 and aclnnInplaceDiv(None, 0, ex.value, dev.stream) == 0  # aclnnDiv's executor
    assert not findings.refresh()
    two = dev.tensor(np.array([2.0, 2.0], np.float32))
    code, _, ex = _p1(aclnnMulGetWorkspaceSize, two, two, f)
    assert aclnnInplaceDiv(None, 0, ex.value, dev.stream) == 0  # Mul's graph runs: f = 2 * 2
    assert findings.refresh().checks() == ["usage"]
    assert "aclnnInplaceDiv at " in findings[0][1]
    assert "was given an executor built by aclnnMulGetWorkspaceSize; it runs aclnnMul's graph" in findings[0][1]
    assert dev.read(f).tolist() == [4.0, 4.0]


# == aclnnDivs ======================================================================================


@pytest.mark.parametrize(
    "which,name,kind", [(0, "self", "aclTensor"), (1, "other", "aclScalar"), (2, "out", "aclTensor")]
)
def test_divs_null_arguments_in_order(dev, scalars, which, name, kind):
    args = [dev.tensor(np.ones(4, np.float32)), scalars(2.0), dev.tensor(np.zeros(4, np.float32))]
    args[which] = None
    assert _err(aclnnDivsGetWorkspaceSize, *args) == (
        ACLNN_ERR_PARAM_NULLPTR,
        _one_line(f"Expected a value of type [{kind}] for argument [{name}] but instead found nullptr."),
    )


def test_divs_check_order(dev, scalars):
    """formats (out, self), dtypes (the scalar, then self), self's rank, the shape, castability."""
    u9nz = dev.tensor(np.ones((1,) * 9, np.uint32), acl_dtype=ACL_UINT32, fmt=ACL_FORMAT_FRACTAL_NZ)
    u9 = dev.tensor(np.ones((1,) * 9, np.uint32), acl_dtype=ACL_UINT32)
    f9 = dev.tensor(np.ones((1,) * 9, np.float32))
    f = dev.tensor(np.ones((4, 2), np.float32))
    f_nz = dev.tensor(np.ones((4, 2), np.float32), fmt=ACL_FORMAT_FRACTAL_NZ)
    supported = D.dt_list_str(facts.dtype_support_list())
    assert _err(aclnnDivsGetWorkspaceSize, u9nz, scalars(2, ACL_UINT32), f) == (
        ACLNN_ERR_PARAM_INVALID,
        _one_line(FORMAT),
    )
    assert _err(aclnnDivsGetWorkspaceSize, f, scalars(2.0), f_nz)[1] == _one_line(FORMAT)
    assert _err(aclnnDivsGetWorkspaceSize, u9, scalars(2, ACL_UINT32), f)[1] == _one_line(
        f"Tensor other not implemented for DT_UINT32, should be in dtype support list {supported}."
    )
    assert _err(aclnnDivsGetWorkspaceSize, u9, scalars(2.0), f)[1].startswith(f"{PREFIX}Tensor self not implemented")
    assert _err(aclnnDivsGetWorkspaceSize, f9, scalars(2.0), f)[1] == _one_line(
        "The self tensor cannot be larger than 8 dimensions."
    )
    wrong = dev.tensor(np.zeros((2, 4), np.float32))
    assert _err(aclnnDivsGetWorkspaceSize, f, scalars(2.0), wrong)[1] == _one_line(
        "Shape of out should be [4, 2], but current is [2, 4]."
    )
    oi = dev.tensor(np.zeros((4, 2), np.int32))
    assert _err(aclnnDivsGetWorkspaceSize, f, scalars(2.0), oi)[1] == _one_line(
        "Result type DT_FLOAT can't be cast to the desired output type DT_INT32."
    )


@pytest.mark.parametrize("chip", ["Ascend910B", "Ascend950"])
def test_divs_castability_per_chip(chip_dev, chip, scalars):
    """Off Ascend950 only self's dtype must cast to out's; Ascend950 checks the promotion."""
    dev = chip_dev(chip)
    i = dev.tensor(np.array([7, -7], np.int32))
    oi = dev.tensor(np.zeros(2, np.int32))
    b = dev.tensor(np.array([True, False]))
    of = dev.tensor(np.zeros(2, np.float16))
    if chip == "Ascend950":
        assert _err(aclnnDivsGetWorkspaceSize, i, scalars(2, ACL_INT32), oi)[1] == _one_line(
            "Result type DT_FLOAT can't be cast to the desired output type DT_INT32."
        )
    else:
        _run(dev, aclnnDivsGetWorkspaceSize, aclnnDivs, i, scalars(2.0), oi)  # a FLOAT scalar: no check of it
        assert dev.read(oi).tolist() == [3, -3]
    _run(dev, aclnnDivsGetWorkspaceSize, aclnnDivs, b, scalars(True, ACL_BOOL), of)
    assert dev.read(of).tolist() == [1.0, 0.0]


DIVS_BRANCHES = [
    # chip, self dtype, scalar dtype, self transposed, launches, compute kernel's output dtype
    ("Ascend910B", np.float16, ACL_FLOAT, False, ["RealDiv"], "DT_FLOAT16"),  # mixed: f16 / f32 0-d -> f16
    ("Ascend910B", np.float32, ACL_FLOAT16, False, ["RealDiv"], "DT_FLOAT"),
    ("Ascend910B", BF16, ACL_DOUBLE, False, ["RealDiv"], "DT_BFLOAT16"),  # the DOUBLE scalar as FLOAT
    ("Ascend910B", np.float16, ACL_BF16, False, ["RealDiv"], "DT_FLOAT16"),
    ("Ascend910B", np.float16, ACL_DOUBLE, False, ["RealDiv"], "DT_FLOAT16"),  # scalar rounded to float16
    ("Ascend910B", np.float32, ACL_DOUBLE, True, ["Transpose", "RealDiv"], "DT_FLOAT"),
    ("Ascend910B", np.int32, ACL_INT32, False, ["RealDiv"], "DT_FLOAT"),
    ("Ascend910B", np.int32, ACL_INT64, False, ["Cast", "RealDiv"], "DT_FLOAT"),
    ("Ascend910B", np.bool_, ACL_BOOL, False, ["RealDiv"], "DT_FLOAT"),
    ("Ascend910B", np.float32, ACL_COMPLEX64, False, ["Cast@AiCpu", "RealDiv@AiCpu"], "DT_COMPLEX64"),
    ("Ascend910B", np.float64, ACL_FLOAT, False, ["RealDiv@AiCpu"], "DT_DOUBLE"),
    ("Ascend910", np.float16, ACL_FLOAT, False, ["RealDiv"], "DT_FLOAT16"),  # no mixed path: f16 scalar
    ("Ascend910", np.int32, ACL_INT32, False, ["Cast", "RealDiv"], "DT_FLOAT"),
    ("Ascend950", np.float32, ACL_DOUBLE, False, ["Muls"], "DT_FLOAT"),  # times float(1/(double)s)
    ("Ascend950", np.float32, ACL_DOUBLE, True, ["RealDiv"], "DT_FLOAT"),  # strided + DOUBLE: divided
    ("Ascend950", np.float32, ACL_FLOAT, True, ["Transpose", "Muls"], "DT_FLOAT"),
    ("Ascend950", np.float16, ACL_FLOAT, False, ["Cast", "Muls"], "DT_FLOAT"),
    ("Ascend950", BF16, ACL_BF16, False, ["Cast", "Muls"], "DT_FLOAT"),
    ("Ascend950", np.float32, ACL_INT64, False, ["RealDiv"], "DT_FLOAT"),  # an integer scalar: no Muls
    ("Ascend950", np.int32, ACL_INT32, True, ["RealDiv"], "DT_FLOAT"),
    ("Ascend950", np.int8, ACL_INT32, False, ["Cast", "RealDiv"], "DT_FLOAT"),  # promoted to INT32
    ("Ascend950", np.int32, ACL_INT8, False, ["RealDiv"], "DT_FLOAT"),
    ("Ascend950", np.int64, ACL_INT64, False, ["Cast", "RealDiv"], "DT_FLOAT"),
    ("Ascend950", np.bool_, ACL_BOOL, False, ["RealDiv"], "DT_FLOAT"),
]


@pytest.mark.parametrize("chip,sdt,scalar_dt,strided,graph,kdt", DIVS_BRANCHES)
def test_divs_graph_branches(chip_dev, scalars, chip, sdt, scalar_dt, strided, graph, kdt):
    dev = chip_dev(chip)
    base = (np.arange(6) % 2 == 0) if np.dtype(sdt) == np.bool_ else (np.arange(6) - 2).astype(sdt)
    base = base.reshape(2, 3)
    a = dev.strided(base, (3, 2), (1, 3)) if strided else dev.tensor(base.T.copy())
    value = True if scalar_dt == ACL_BOOL else (2 + 0j if scalar_dt == ACL_COMPLEX64 else 2)
    s = scalars(value, scalar_dt)
    o = dev.tensor(np.zeros((3, 2), _np_of(kdt)))  # out in the quotient's dtype: no last Cast
    code, _, ex = _p1(aclnnDivsGetWorkspaceSize, a, s, o)
    assert code == 0, aclGetRecentErrMsg()
    assert _graph(ex.value) == graph
    kernel = next(s for s in ex.value.steps if s.name in ("RealDiv", "Muls"))
    assert D.dt_name(kernel.outputs[0].dtype) == kdt
    aclDestroyAclOpExecutor(ex.value)
    _run(dev, aclnnDivsGetWorkspaceSize, aclnnDivs, a, s, o)
    want = base.T.astype(np.complex128) / complex(value)
    assert np.allclose(dev.read(o).astype(np.complex128), want, rtol=1e-2)


def test_divs_ascend950_multiplies_by_the_reciprocal_unless_strided_with_a_double(chip_dev, scalars):
    dev = chip_dev("Ascend950")
    xs = np.arange(1, 201, dtype=np.float32).reshape(20, 10)
    x, xt = dev.tensor(xs), dev.strided(xs.T.copy(), (20, 10), (1, 20))
    inv = float(np.float32(1.0 / 3.0))
    times_inv = goldens.elementwise(lambda a: goldens.mul_exact(a, inv), np.float32, xs)
    divided = div_golden(xs, np.float32(3.0), np.float32)
    assert (times_inv != divided).any()  # 5 / 3: 1.6666667 by the reciprocal, 1.6666666 divided
    for t, scalar_dt, want in ((x, ACL_DOUBLE, times_inv), (xt, ACL_DOUBLE, divided), (xt, ACL_FLOAT, times_inv)):
        o = dev.tensor(np.zeros((20, 10), np.float32))
        _run(dev, aclnnDivsGetWorkspaceSize, aclnnDivs, t, scalars(3.0, scalar_dt), o)
        assert_bits_equal(dev.read(o), want)
    # the reciprocal is computed in double and rounded once: 1 / 0.1 (double) = 10 exactly
    assert facts.reciprocal(scalars(0.1, ACL_DOUBLE)) == 10.0
    assert facts.reciprocal(scalars(0.1, ACL_FLOAT)) == float(np.float32(1 / float(np.float32(0.1))))
    # half tensors are computed in float32 and rounded once at the end
    h = np.array([5, 7, 1000, -3], np.float16)
    th, oh = dev.tensor(h), dev.tensor(np.zeros(4, np.float16))
    _run(dev, aclnnDivsGetWorkspaceSize, aclnnDivs, th, scalars(3.0), oh)
    p32 = goldens.elementwise(lambda a: goldens.mul_exact(a, inv), np.float32, h)
    assert_bits_equal(dev.read(oh), goldens.round_to([float(v) for v in p32], np.float16))


def test_divs_by_zero_and_infinities(chip_dev, scalars):
    x = np.array([1.0, -2.0, 0.0, np.inf, np.nan], np.float32)
    for chip in ("Ascend910B", "Ascend950"):
        dev = chip_dev(chip)
        t = dev.tensor(x)
        for value, dt in ((0.0, ACL_FLOAT), (-0.0, ACL_DOUBLE), (np.inf, ACL_FLOAT)):
            o = dev.tensor(np.zeros(5, np.float32))
            _run(dev, aclnnDivsGetWorkspaceSize, aclnnDivs, t, scalars(value, dt), o)
            assert_bits_equal(dev.read(o), goldens.elementwise(lambda a, v=value: gmd.div_exact(a, v), np.float32, x))


def test_divs_ascend910b_rounds_the_scalar_to_the_tensors_dtype(chip_dev, scalars):
    """FLOAT16 / DOUBLE 0.1 divides by 0.1 rounded to float16; FLOAT16 / FLOAT 0.1 (the mixed pair)
    divides by float32(0.1) and rounds the float32 quotient to float16."""
    dev = chip_dev("Ascend910B")
    x = _values(np.float16, 300, 8, 10.0)
    t = dev.tensor(x)
    o = dev.tensor(np.zeros(300, np.float16))
    _run(dev, aclnnDivsGetWorkspaceSize, aclnnDivs, t, scalars(0.1, ACL_DOUBLE), o)
    v16 = float(np.float16(0.1))
    assert_bits_equal(dev.read(o), goldens.elementwise(lambda a: gmd.div_exact(a, v16), np.float16, x))
    _run(dev, aclnnDivsGetWorkspaceSize, aclnnDivs, t, scalars(0.1, ACL_FLOAT), o)
    v32 = float(np.float32(0.1))
    q = goldens.elementwise(lambda a: gmd.div_exact(a, v32), np.float32, x)
    assert_bits_equal(dev.read(o), goldens.round_to([float(v) for v in q], np.float16))
    i = dev.tensor(np.array([7, -7, 16777217], np.int32))
    oi = dev.tensor(np.zeros(3, np.float32))
    _run(dev, aclnnDivsGetWorkspaceSize, aclnnDivs, i, scalars(300, ACL_INT64), oi)  # INT32 / INT64: FLOAT
    assert dev.read(oi).tolist() == [np.float32(7 / 300), np.float32(-7 / 300), np.float32(16777216 / 300)]


def test_divs_doc_example_and_its_inplace_twin(dev, scalars):
    x = np.arange(8, dtype=np.float32).reshape(4, 2)
    t = dev.tensor(x)
    o = dev.tensor(np.zeros((4, 2), np.float32))
    _run(dev, aclnnDivsGetWorkspaceSize, aclnnDivs, t, scalars(2.0), o)
    want = ["0.000000", "0.500000", "1.000000", "1.500000", "2.000000", "2.500000", "3.000000", "3.500000"]
    assert [f"{v:f}" for v in dev.read(o).ravel()] == want
    _run(dev, aclnnInplaceDivsGetWorkspaceSize, aclnnInplaceDivs, t, scalars(2.0))
    assert [f"{v:f}" for v in dev.read(t).ravel()] == want
    e = dev.tensor(np.ones((0, 2), np.float32))
    code, ws, ex = _p1(aclnnDivsGetWorkspaceSize, e, scalars(2.0), e)
    assert code == 0 and ws.value == 0 and not ex.value.launches
    aclDestroyAclOpExecutor(ex.value)


# == aclnnInplaceDivs ===============================================================================


def test_inplace_divs_is_aclnn_divs_with_out_self(chip_dev, scalars):
    dev = chip_dev("Ascend950")
    assert _err(aclnnInplaceDivsGetWorkspaceSize, None, scalars(2.0)) == (
        ACLNN_ERR_PARAM_NULLPTR,
        _one_line("Expected a value of type [aclTensor] for argument [self] but instead found nullptr."),
    )
    i = dev.tensor(np.array([4, 6], np.int32))
    assert _err(aclnnInplaceDivsGetWorkspaceSize, i, scalars(2, ACL_INT64))[1] == _one_line(
        "Result type DT_FLOAT can't be cast to the desired output type DT_INT32."
    )
    f = dev.tensor(np.array([3.0, 6.0], np.float32))
    code, _, ex = _p1(aclnnInplaceDivsGetWorkspaceSize, f, scalars(3.0))
    assert code == 0 and ex.value.api == "aclnnDivs" and _graph(ex.value) == ["Muls"]
    assert aclnnDivs(None, 0, ex.value, dev.stream) == 0  # the executor is aclnnDivs'
    assert dev.read(f).tolist() == [1.0, 2.0]
    code, _, ex = _p1(aclnnInplaceDivsGetWorkspaceSize, f, scalars(2.0))
    assert aclnnInplaceDivs(None, 0, ex.value, dev.stream) == 0
    assert dev.read(f).tolist() == [0.5, 1.0]
    _ = (ACL_BF16, ACL_FLOAT16, ACL_INT8, ACL_INT64)


@pytest.mark.parametrize("chip", CHIPS)
def test_divs_every_self_dtype_per_chip(chip_dev, chip, scalars):
    """self of each dtype divided by the INT64 scalar 2, out FLOAT (complex: COMPLEX64, DOUBLE:
    DOUBLE); accepted iff in the chip's list."""
    dev = chip_dev(chip)
    supported = facts.dtype_support_list()
    two = scalars(2, ACL_INT64)
    for dt in ALL_DTYPES:
        dt = np.dtype(dt)
        acl = int(ACL_OF[dt])
        a = (np.arange(6) % 2 == 1) if dt == np.bool_ else (np.arange(6) * 3).astype(dt)
        out_dt = {"c": np.dtype(np.complex128)}.get(dt.kind, np.dtype(np.float64 if dt == np.float64 else np.float32))
        t, o = dev.tensor(a, acl_dtype=acl), dev.tensor(np.zeros(6, out_dt))
        code, ws, ex = _p1(aclnnDivsGetWorkspaceSize, t, two, o)
        if acl not in supported:
            assert code == ACLNN_ERR_PARAM_INVALID
            assert aclGetRecentErrMsg().startswith(f"{PREFIX}Tensor self not implemented for {D.dt_name(acl)}")
            continue
        assert code == 0, (dt, aclGetRecentErrMsg())
        assert aclnnDivs(dev.workspace(ws.value), ws.value, ex.value, dev.stream) == 0
        assert (dev.read(o) == a.astype(np.complex128) / 2).all(), dt
