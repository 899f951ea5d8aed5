"""aclnnMul, aclnnMuls, aclnnInplaceMul, aclnnInplaceMuls: error rows in CANN's order, dtypes per
chip, the graph's branches, numbers against exact goldens (Ascend950's software DOUBLE multiply
against a statement-by-statement transcription), broadcast, views, empty, in place, 0-d."""

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
    aclnnInplaceMul,
    aclnnInplaceMulGetWorkspaceSize,
    aclnnInplaceMuls,
    aclnnInplaceMulsGetWorkspaceSize,
    aclnnMul,
    aclnnMulGetWorkspaceSize,
    aclnnMuls,
    aclnnMulsGetWorkspaceSize,
)
from aclnn_py import dtypes as D
from aclnn_py.ops.math import mul as facts

BF16 = np.dtype(ml_dtypes.bfloat16)
PREFIX = "AclNN_Parameter_Error(EZ1001): "
CHIPS = ["Ascend910B", "Ascend910_93", "Ascend950", "Ascend910", "Ascend310P"]
ALL_DTYPES = [np.float32, np.float16, BF16, np.float64, np.int8, np.int16, np.int32, np.int64, np.uint8, np.bool_,
              np.complex64, np.complex128, np.uint16, np.uint32, np.uint64]  # fmt: skip


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
        if made:  # one device at a time: the previous one is closed first
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


def _graph(ex) -> list[str]:
    return [f"{ln.op_type}{'@AiCpu' if ln.engine == 'AiCpu' else ''}" for ln in ex.launches]


def _graph_of(fn, *args) -> list[str]:
    code, _, ex = _p1(fn, *args)
    assert code == 0, aclGetRecentErrMsg()
    g = _graph(ex.value)
    assert aclDestroyAclOpExecutor(ex.value) == 0
    return g


def _kernel_step(fn, *args, name="Mul"):
    """The step of the compute kernel (its inputs and output), after a successful phase 1."""
    code, _, ex = _p1(fn, *args)
    assert code == 0, aclGetRecentErrMsg()
    step = next(s for s in ex.value.steps if s.name == name)
    aclDestroyAclOpExecutor(ex.value)
    return step


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
    v[:6] = [0.0, -0.0, np.inf, -np.inf, np.nan, 1e-39]
    return v.astype(dtype)


# == aclnnMul: error rows ===========================================================================


@pytest.mark.parametrize("which,name", [(0, "self"), (1, "other"), (2, "out")])
def test_mul_null_arguments_in_order(dev, which, name):
    args = [dev.tensor(np.ones(4, np.float32)) for _ in range(3)]
    args[which] = None
    code, ws, ex = _p1(aclnnMulGetWorkspaceSize, *args)
    assert code == ACLNN_ERR_PARAM_NULLPTR and ws.value == 0 and ex.value is None
    assert aclGetRecentErrMsg() == _one_line(
        f"Expected a value of type [aclTensor] for argument [{name}] but instead found nullptr."
    )


def test_null_out_pointers_come_first(dev, scalars):
    t = dev.tensor(np.ones(4, np.float32))
    for fn, args in (
        (aclnnMulGetWorkspaceSize, (None, t, t)),
        (aclnnMulsGetWorkspaceSize, (t, None, t)),
        (aclnnInplaceMulGetWorkspaceSize, (None, t)),
        (aclnnInplaceMulsGetWorkspaceSize, (t, None)),
    ):
        assert fn(*args, None, Ref()) == ACLNN_ERR_PARAM_NULLPTR
        assert aclGetRecentErrMsg() == _one_line("executor or workspaceSize is nullptr")
        assert fn(*args, Ref(0), None) == ACLNN_ERR_PARAM_NULLPTR


def _sample(dt, n=6):
    dt = np.dtype(dt)
    if dt == np.bool_:
        return np.arange(n) % 2 == 1
    if dt.kind == "c":
        return (np.arange(n) + 1j * (np.arange(n) % 3)).astype(dt)
    return np.arange(n).astype(dt)


@pytest.mark.parametrize("chip", CHIPS)
def test_mul_every_dtype_per_chip(chip_dev, chip):
    """self/other/out of one dtype: accepted iff in the chip's list; then the numbers (x * x)."""
    dev = chip_dev(chip)
    supported = facts.dtype_support_list()
    assert (D.DT_BF16 in supported) == (chip in ("Ascend910B", "Ascend910_93", "Ascend950"))
    for dt in ALL_DTYPES:
        dt = np.dtype(dt)
        acl = int(ACL_OF[dt])
        a = _sample(dt)
        ta, tb, to = (
            dev.tensor(a, acl_dtype=acl),
            dev.tensor(a, acl_dtype=acl),
            dev.tensor(np.zeros(6, dt), acl_dtype=acl),
        )
        code, ws, ex = _p1(aclnnMulGetWorkspaceSize, ta, tb, to)
        if acl not in supported:
            assert code == ACLNN_ERR_PARAM_INVALID
            assert aclGetRecentErrMsg() == _one_line(
                f"Tensor self not implemented for {D.dt_name(acl)}, should be in dtype support list "
                f"{D.dt_list_str(supported)}."
            )
            continue
        assert code == 0, (dt, aclGetRecentErrMsg())
        assert aclnnMul(dev.workspace(ws.value), ws.value, ex.value, dev.stream) == 0
        got = dev.read(to)
        want = (a & a) if dt == np.bool_ else (a * a).astype(dt)
        assert (got == want).all(), dt


def test_mul_dtype_checks_self_other_out_in_order(dev):
    f = dev.tensor(np.ones(4, np.float32))
    u = dev.tensor(np.ones(4, np.uint32), acl_dtype=ACL_UINT32)
    for args, name in (((u, u, u), "self"), ((f, u, u), "other"), ((f, f, u), "out")):
        code, msg = _err(aclnnMulGetWorkspaceSize, *args)
        assert code == ACLNN_ERR_PARAM_INVALID
        assert msg.startswith(f"{PREFIX}Tensor {name} not implemented for DT_UINT32, should be in dtype support list")


@pytest.mark.parametrize("chip", ["Ascend910B", "Ascend910", "Ascend950"])
def test_mul_promoted_dtype_must_cast_to_out_off_ascend950_only(chip_dev, chip):
    dev = chip_dev(chip)
    x = np.array([1.5, -2.7, 3.9], np.float32)
    f = dev.tensor(x)
    i = dev.tensor(np.zeros(3, np.int32))
    b = dev.tensor(np.zeros(3, np.bool_))
    if chip != "Ascend950":
        assert _err(aclnnMulGetWorkspaceSize, f, f, i) == (
            ACLNN_ERR_PARAM_INVALID,
            _one_line("Result type DT_FLOAT can't be cast to the desired output type DT_INT32."),
        )
        assert _err(aclnnMulGetWorkspaceSize, i, i, b)[1] == _one_line(
            "Result type DT_INT32 can't be cast to the desired output type DT_BOOL."
        )
        return
    # Ascend950 skips the check: the final Cast converts (float -> int truncates)
    _run(dev, aclnnMulGetWorkspaceSize, aclnnMul, f, f, i)
    assert dev.read(i).tolist() == [2, 7, 15]
    _run(dev, aclnnMulGetWorkspaceSize, aclnnMul, f, f, b)
    assert dev.read(b).tolist() == [True, True, True]


def test_mul_shape_rows(dev):
    r9 = dev.tensor(np.ones((1,) * 9, np.float32))
    a = dev.tensor(np.ones((10, 5, 2, 10), np.float32))
    b = dev.tensor(np.ones((10, 5, 5, 10), np.float32))
    assert _err(aclnnMulGetWorkspaceSize, r9, a, a) == (
        ACLNN_ERR_PARAM_INVALID, _one_line("The self tensor cannot be larger than 8 dimensions."))  # fmt: skip
    assert _err(aclnnMulGetWorkspaceSize, a, r9, a)[1] == _one_line(
        "The other tensor cannot be larger than 8 dimensions."
    )
    code, msg = _err(aclnnMulGetWorkspaceSize, a, b, a)
    lines = msg.splitlines()
    assert code == ACLNN_ERR_PARAM_INVALID
    assert lines[0].startswith(
        "Invalid_Argument_Tensor_Input_Shape(EZ1007): Shape [10, 5, 5, 10] of the tensor of operator aclnnMul_"
    )
    assert lines[0].endswith(
        " has incorrect dimension 5. Reason: The tensor whose shape is [10, 5, 5, 10] and the tensor whose shape is "
        "[10, 5, 2, 10] do not meet the broadcast condition."
    )
    assert (
        lines[2] == "        The size of tensor self [10, 5, 2, 10] must match the size of tensor other [10, 5, 5, 10]."
    )
    wrong = dev.tensor(np.zeros((10, 5, 10, 2), np.float32))
    assert _err(aclnnMulGetWorkspaceSize, a, a, wrong) == (
        ACLNN_ERR_PARAM_INVALID,
        _one_line("Expected tensor for out to have same size as [10, 5, 2, 10], but got [10, 5, 10, 2]."),
    )


def test_mul_dtype_is_checked_before_shape(dev):
    r9 = dev.tensor(np.ones((1,) * 9, np.uint32), acl_dtype=ACL_UINT32)
    assert _err(aclnnMulGetWorkspaceSize, r9, r9, r9)[1].startswith(
        f"{PREFIX}Tensor self not implemented for DT_UINT32"
    )


def test_mul_non_nd_formats_are_only_a_warning(dev):
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    for fmt in (ACL_FORMAT_NCHW, ACL_FORMAT_FRACTAL_NZ):
        t = dev.tensor(x, fmt=fmt)
        o = dev.tensor(np.zeros((2, 3), np.float32))
        _run(dev, aclnnMulGetWorkspaceSize, aclnnMul, t, t, o)
        assert (dev.read(o) == x * x).all()


def test_mul_empty_tensors_skip_the_graph(dev):
    a = dev.tensor(np.ones((7, 0, 6), np.float32))
    b = dev.tensor(np.ones((7, 1, 6), np.float32))
    code, ws, ex = _p1(aclnnMulGetWorkspaceSize, a, b, a)
    assert code == 0 and ws.value == 0 and not ex.value.launches
    assert aclnnMul(None, 0, ex.value, dev.stream) == 0


def test_mul_unreachable_promotion_row_is_implemented():
    """Every pair of the support lists promotes, so ``Expected aclnnMul self dtype [...] ... to be
    promotable`` cannot fire through the API; the pairs are checked here."""
    for lst in (facts.ASCEND910B_DTYPE_DTYPE_SUPPORT_LIST, facts.ASCEND910_DTYPE_DTYPE_SUPPORT_LIST):
        assert all(D.promote_type(a, b) != D.DT_UNDEFINED for a in lst for b in lst)


# == aclnnMul: the graph ============================================================================

MUL_BRANCHES = [
    # chip, self dtype, other dtype, self transposed, expected launches
    ("Ascend910B", np.float32, np.float32, False, ["Mul"]),
    ("Ascend910B", np.float16, np.float32, False, ["Mul"]),  # mixed: no cast, FLOAT result
    ("Ascend910B", np.float16, np.float32, True, ["Transpose", "Mul"]),
    ("Ascend950", np.float16, np.float32, True, ["Mul"]),  # mixed, strided view read directly
    ("Ascend950", BF16, np.float32, False, ["Mul"]),
    ("Ascend910", np.float16, np.float32, False, ["Mul"]),  # the mixed path is not chip-gated
    ("Ascend910B", BF16, np.float16, False, ["Cast", "Cast", "Mul"]),  # promoted to FLOAT
    ("Ascend910B", np.int8, np.int32, False, ["Cast", "Mul"]),
    ("Ascend910B", np.float32, np.float32, True, ["Transpose", "Mul"]),
    ("Ascend950", np.float32, np.float32, True, ["Mul"]),  # IsMulSupportNonContiguous
    ("Ascend950", np.int8, np.int32, True, ["Transpose", "Cast", "Mul"]),
    ("Ascend910B", np.int16, np.int16, False, ["Mul@AiCpu"]),
    ("Ascend950", np.int16, np.int16, False, ["Mul"]),
    ("Ascend910B", np.float64, np.float64, False, ["Mul@AiCpu"]),
    ("Ascend950", np.float64, np.float64, True, ["Mul"]),  # IsDoubleSupport, on views
    ("Ascend910B", np.complex64, np.complex64, False, ["Mul"]),
    ("Ascend910", np.complex64, np.complex64, False, ["Mul@AiCpu"]),
    ("Ascend310P", np.complex64, np.complex64, False, ["Mul@AiCpu"]),
    ("Ascend950", np.complex128, np.complex128, False, ["Mul@AiCpu"]),
    ("Ascend950", np.complex128, np.complex128, True, ["Transpose", "Mul@AiCpu"]),
    ("Ascend910", np.bool_, np.bool_, False, ["Mul"]),
]


@pytest.mark.parametrize("chip,sdt,odt,strided,graph", MUL_BRANCHES)
def test_mul_graph_branches(chip_dev, chip, sdt, odt, strided, graph):
    dev = chip_dev(chip)
    base = _sample(sdt, 6).reshape(2, 3)
    a = dev.strided(base, (3, 2), (1, 3)) if strided else dev.tensor(base.T.copy())
    b = dev.tensor(_sample(odt, 6).reshape(3, 2))
    out_dt = D.numpy_dtype(D.promote_type(D.from_numpy_dtype(np.dtype(sdt)), D.from_numpy_dtype(np.dtype(odt))))
    o = dev.tensor(np.zeros((3, 2), out_dt))
    assert _graph_of(aclnnMulGetWorkspaceSize, a, b, o) == graph
    _run(dev, aclnnMulGetWorkspaceSize, aclnnMul, a, b, o)
    want = base.T.astype(out_dt) * dev.read(b).astype(out_dt)
    assert (dev.read(o) == want).all()


def test_mul_rank_above_four_is_copied_dense_on_ascend950(chip_dev):
    dev = chip_dev("Ascend950")
    base = np.arange(32, dtype=np.float32).reshape(2, 2, 2, 2, 2)
    a = dev.strided(base, (2, 2, 2, 2, 2), (1, 2, 4, 8, 16))  # rank 5, transposed
    o = dev.tensor(np.zeros((2,) * 5, np.float32))
    assert _graph_of(aclnnMulGetWorkspaceSize, a, a, o) == ["Transpose", "Transpose", "Mul"]


def test_mul_prefers_a_dense_copy_of_a_sparse_broadcast_operand_on_ascend950(chip_dev):
    """MulPreferContiguous: a view re-read 320 times, of >= 512 elements, with a short inner run
    (2) and a large gather stride (32) is copied dense before the Mul."""
    dev = chip_dev("Ascend950")
    storage = np.arange(256 * 32, dtype=np.float32)
    x = dev.strided(storage, (1, 256, 2), (8192, 32, 1))
    y_many = dev.tensor(np.ones((320, 256, 2), np.float32))
    y_few = dev.tensor(np.full((2, 256, 2), 2, np.float32))
    o_many = dev.tensor(np.zeros((320, 256, 2), np.float32))
    o_few = dev.tensor(np.zeros((2, 256, 2), np.float32))
    g = _graph_of(aclnnMulGetWorkspaceSize, x, y_many, o_many)
    assert len(g) == 2 and g[1] == "Mul" and g[0] != "Mul"
    assert _graph_of(aclnnMulGetWorkspaceSize, x, y_few, o_few) == ["Mul"]
    _run(dev, aclnnMulGetWorkspaceSize, aclnnMul, x, y_many, o_many)
    view = storage.reshape(256, 32)[:, :2]
    assert (dev.read(o_many) == np.broadcast_to(view, (320, 256, 2))).all()
    facts_x = dev.strided(storage, (1, 256, 2), (8192, 32, 1))
    assert facts.mul_prefer_contiguous(facts_x, y_many) and not facts.mul_prefer_contiguous(facts_x, y_few)


def test_mixed_pair_into_a_half_out_rounds_twice(dev):
    """FLOAT16 x FLOAT is multiplied into FLOAT, then cast to out's FLOAT16."""
    x = _values(np.float16, 200, 1)
    y = _values(np.float32, 200, 2, 3.0)
    tx, ty = dev.tensor(x), dev.tensor(y)
    of, oh = dev.tensor(np.zeros(200, np.float32)), dev.tensor(np.zeros(200, np.float16))
    _run(dev, aclnnMulGetWorkspaceSize, aclnnMul, tx, ty, of)
    _run(dev, aclnnMulGetWorkspaceSize, aclnnMul, ty, tx, oh)
    p32 = goldens.elementwise(goldens.mul_exact, np.float32, x, y)
    assert_bits_equal(dev.read(of), p32)
    assert_bits_equal(dev.read(oh), goldens.round_to([float(v) for v in p32], np.float16))


# == aclnnMul: the numbers ==========================================================================


FLOAT_CASES = [(c, d) for c in ("Ascend910B", "Ascend950", "Ascend310P") for d in (np.float32, np.float16, BF16)]


@pytest.mark.parametrize("chip,dtype", [c for c in FLOAT_CASES if not (c[0] == "Ascend310P" and c[1] == BF16)])
def test_mul_float_numbers_against_exact_goldens(chip_dev, chip, dtype):
    dev = chip_dev(chip)
    x, y = _values(dtype, 300, 1), _values(dtype, 300, 2, 100.0)
    tx, ty, o = dev.tensor(x), dev.tensor(y), dev.tensor(np.zeros(300, dtype))
    _run(dev, aclnnMulGetWorkspaceSize, aclnnMul, tx, ty, o)
    assert_bits_equal(dev.read(o), goldens.elementwise(goldens.mul_exact, dtype, x, y))


@pytest.mark.parametrize("chip", ["Ascend910B", "Ascend950"])
def test_mul_integers_wrap_and_bool_is_and(chip_dev, chip):
    dev = chip_dev(chip)
    for dt, vals in (
        (np.int8, [100, -128, 127, -7, 16]),
        (np.uint8, [200, 255, 16, 3, 0]),
        (np.int16, [300, -32768, 181, -2, 7]),
        (np.int32, [2**20, -(2**31), 46341, -3, 5]),
        (np.int64, [2**40, -(2**63), 3037000500, -3, 5]),
    ):
        a = np.array(vals, dt)
        t, o = dev.tensor(a), dev.tensor(np.zeros(5, dt))
        _run(dev, aclnnMulGetWorkspaceSize, aclnnMul, t, t, o)
        bits = np.iinfo(dt).bits
        want = [(int(v) * int(v)) % (1 << bits) for v in vals]
        want = [w - (1 << bits) if np.iinfo(dt).min < 0 and w >= 1 << (bits - 1) else w for w in want]
        assert dev.read(o).tolist() == want, dt
    p, q = np.array([True, True, False, False]), np.array([True, False, True, False])
    tb, tq, ob = dev.tensor(p), dev.tensor(q), dev.tensor(np.zeros(4, np.bool_))
    _run(dev, aclnnMulGetWorkspaceSize, aclnnMul, tb, tq, ob)
    assert dev.read(ob).view(np.uint8).tolist() == [1, 0, 0, 0]


def test_mul_complex(dev):
    a = np.array([1 + 2j, -3.5 + 0.25j, 1e20 + 1e20j], np.complex64)
    b = np.array([2 - 1j, 0.5j, 1e20 - 1e20j], np.complex64)
    ta, tb, o = dev.tensor(a), dev.tensor(b), dev.tensor(np.zeros(3, np.complex64))
    _run(dev, aclnnMulGetWorkspaceSize, aclnnMul, ta, tb, o)
    with np.errstate(over="ignore", invalid="ignore"):
        want = a * b
    got = dev.read(o)
    assert got[:2].tolist() == want[:2].tolist() and got[2].real == np.inf  # (1e20+1e20j)(1e20-1e20j) overflows


def test_ascend950_double_product_is_the_simt_routine(chip_dev):
    """+0.0 for any zero operand, the positive quiet NaN, ties away from zero, subnormals as the
    kernel's integer routine computes them; the AI CPU (Ascend910B) multiplies by IEEE rules."""
    x = np.array([-0.0, 3.0, -2.0, np.nan, -np.nan, np.inf, 1 + 3 * 2.0**-52, 1e-310, -5e-324, 1e300], np.float64)
    y = np.array([5.0, -0.0, 0.0, 1.0, 2.0, 0.0, 1.5, 3.5, 7.0, 1e10], np.float64)
    tie_exact = gmd.Fraction(x[6]) * gmd.Fraction(y[6])
    assert gmd.round_half_away(tie_exact) != float(x[6] * y[6])  # a tie: half away is not nearest-even
    dev = chip_dev("Ascend950")
    tx, ty, o = dev.tensor(x), dev.tensor(y), dev.tensor(np.zeros(10, np.float64))
    _run(dev, aclnnMulGetWorkspaceSize, aclnnMul, tx, ty, o)
    got = dev.read(o).view(np.uint64).tolist()
    assert got == [gmd.mul_double_simt_ref(float(a), float(b)) for a, b in zip(x, y)]
    assert got[:6] == [0, 0, 0, 0x7FF8000000000000, 0x7FF8000000000000, 0x7FF8000000000000]
    assert gmd.bits_f64(got[6]) == gmd.round_half_away(tie_exact)
    assert gmd.bits_f64(got[9]) == math.inf
    dev = chip_dev("Ascend910B")
    tx, ty, o = dev.tensor(x), dev.tensor(y), dev.tensor(np.zeros(10, np.float64))
    _run(dev, aclnnMulGetWorkspaceSize, aclnnMul, tx, ty, o)
    want = goldens.elementwise(goldens.mul_exact, np.float64, x, y)
    assert_bits_equal(dev.read(o), want)
    assert math.copysign(1, dev.read(o)[0]) == -1  # -0 * 5 = -0 on the AI CPU


def test_ascend950_double_product_with_subnormal_operands(chip_dev):
    dev = chip_dev("Ascend950")
    rng = np.random.default_rng(7)
    n = 400
    x = rng.standard_normal(n) * 2.0 ** rng.integers(-1074, -1000, n)
    raw = rng.integers(1, 2**52, n // 4, dtype=np.uint64).view(np.float64)
    x[: n // 4] = raw  # subnormals with random significands
    y = rng.standard_normal(n) * 2.0 ** rng.integers(-60, 80, n)
    y[::7] *= 2.0**-900  # products near and below the subnormal range
    tx, ty, o = dev.tensor(x), dev.tensor(y), dev.tensor(np.zeros(n, np.float64))
    _run(dev, aclnnMulGetWorkspaceSize, aclnnMul, tx, ty, o)
    got = dev.read(o).view(np.uint64).tolist()
    assert got == [gmd.mul_double_simt_ref(float(a), float(b)) for a, b in zip(x, y)]


def test_mul_broadcast_views_out_and_zero_d(dev):
    rng = np.random.default_rng(3)
    xs = rng.standard_normal((3, 4)).astype(np.float32)
    x = dev.strided(xs, (4, 3), (1, 4))
    y = dev.tensor(rng.standard_normal(3).astype(np.float32))
    o = dev.strided(np.zeros((3, 4), np.float32), (4, 3), (1, 4))  # a non-contiguous out
    _run(dev, aclnnMulGetWorkspaceSize, aclnnMul, x, y, o)
    assert_bits_equal(dev.read(o), goldens.elementwise(goldens.mul_exact, np.float32, xs.T, dev.read(y)))
    z = dev.tensor(np.array(2.5, np.float32))
    oz = dev.tensor(np.array(0, np.float32))
    _run(dev, aclnnMulGetWorkspaceSize, aclnnMul, z, z, oz)
    assert dev.read(oz).shape == () and float(dev.read(oz)) == 6.25
    o2 = dev.tensor(np.zeros((4, 3), np.float32))
    _run(dev, aclnnMulGetWorkspaceSize, aclnnMul, z, x, o2)  # 0-d times a matrix
    assert (dev.read(o2) == xs.T * np.float32(2.5)).all()


def test_mul_doc_example(dev):
    x = np.arange(8, dtype=np.float32).reshape(4, 2)
    y = np.array([1, 1, 1, 2, 2, 2, 3, 3], np.float32).reshape(4, 2)
    o = dev.tensor(np.zeros((4, 2), np.float32))
    _run(dev, aclnnMulGetWorkspaceSize, aclnnMul, dev.tensor(x), dev.tensor(y), o)
    assert [f"{v:f}" for v in dev.read(o).ravel()] == [
        "0.000000", "1.000000", "2.000000", "6.000000", "8.000000", "10.000000", "18.000000", "21.000000"]  # fmt: skip


# == aclnnMuls ======================================================================================


@pytest.mark.parametrize(
    "which,name,kind", [(0, "self", "aclTensor"), (1, "other", "aclScalar"), (2, "out", "aclTensor")]
)
def test_muls_null_arguments_in_order(dev, scalars, which, name, kind):
    args = [dev.tensor(np.ones(4, np.float32)), scalars(2.0), dev.tensor(np.zeros(4, np.float32))]
    args[which] = None
    assert _err(aclnnMulsGetWorkspaceSize, *args) == (
        ACLNN_ERR_PARAM_NULLPTR,
        _one_line(f"Expected a value of type [{kind}] for argument [{name}] but instead found nullptr."),
    )


def test_muls_checks_self_and_out_dtypes_not_the_scalars(dev, scalars):
    f = dev.tensor(np.ones(4, np.float32))
    u = dev.tensor(np.ones(4, np.uint32), acl_dtype=ACL_UINT32)
    assert _err(aclnnMulsGetWorkspaceSize, u, scalars(2.0), f)[1].startswith(f"{PREFIX}Tensor self not implemented")
    assert _err(aclnnMulsGetWorkspaceSize, f, scalars(2.0), u)[1].startswith(f"{PREFIX}Tensor out not implemented")
    i = dev.tensor(np.array([1, -2, 3, 4], np.int32))
    o = dev.tensor(np.zeros(4, np.int32))
    _run(dev, aclnnMulsGetWorkspaceSize, aclnnMuls, i, scalars(3, ACL_UINT32), o)  # scalar dtype unchecked
    assert dev.read(o).tolist() == [3, -6, 9, 12]


def test_muls_shape_row_and_no_rank_check(dev, scalars):
    t = dev.tensor(np.ones((4, 2), np.float32))
    wrong = dev.tensor(np.zeros((2, 4), np.float32))
    assert _err(aclnnMulsGetWorkspaceSize, t, scalars(2.0), wrong) == (
        ACLNN_ERR_PARAM_INVALID,
        _one_line("Expected tensor for self to have same size as tensor for out, but [4, 2] does not equal [2, 4]."),
    )
    r9 = dev.tensor(np.full((1,) * 8 + (2,), 3, np.float32))  # 9 dims: the page's row, not in the code
    o9 = dev.tensor(np.zeros((1,) * 8 + (2,), np.float32))
    _run(dev, aclnnMulsGetWorkspaceSize, aclnnMuls, r9, scalars(2.0), o9)
    assert dev.read(o9).ravel().tolist() == [6.0, 6.0]


@pytest.mark.parametrize("chip", ["Ascend910B", "Ascend950"])
def test_muls_promotion_checks_only_on_ascend950(chip_dev, chip, scalars):
    dev = chip_dev(chip)
    b = dev.tensor(np.array([True, False]))
    ob = dev.tensor(np.zeros(2, np.bool_))
    f = dev.tensor(np.array([1.5, -2.5], np.float32))
    oi = dev.tensor(np.zeros(2, np.int32))
    if chip == "Ascend950":
        assert _err(aclnnMulsGetWorkspaceSize, b, scalars(3, ACL_UINT32), ob) == (
            ACLNN_ERR_PARAM_INVALID, _one_line("Self dtype DT_BOOL and other dtype DT_UINT32 can not promote dtype."))  # fmt: skip
        assert _err(aclnnMulsGetWorkspaceSize, f, scalars(2.0), oi)[1] == _one_line(
            "Result type DT_FLOAT can't be cast to the desired output type DT_INT32."
        )
        return
    # not checked off Ascend950: float -> int32 by the last Cast; BOOL x UINT32 promotes to nothing,
    # ConvertToTensor fails and the Cast to DT_UNDEFINED ends the graph
    _run(dev, aclnnMulsGetWorkspaceSize, aclnnMuls, f, scalars(2.0), oi)
    assert dev.read(oi).tolist() == [3, -5]
    code, msg = _err(aclnnMulsGetWorkspaceSize, b, scalars(3, ACL_UINT32), ob)
    assert code == 561103
    assert "does not support data type DT_UNDEFINED(28)" in msg and "aclOpExecutor::ConvertToTensor failed." in msg


# chip, self dtype, scalar dtype (value 1 or 0.5), out dtype, (kernel, its dtype, the scalar tensor's dtype)
MULS_PROMOTION = [
    ("Ascend910B", np.float16, ACL_FLOAT, np.float16, ("Mul", "DT_FLOAT16", "DT_FLOAT16")),
    ("Ascend910B", np.float16, ACL_DOUBLE, np.float32, ("Mul", "DT_FLOAT16", "DT_FLOAT16")),
    ("Ascend910B", BF16, ACL_FLOAT, BF16, ("Mul", "DT_FLOAT", "DT_FLOAT")),  # BFLOAT16 computes in FLOAT
    ("Ascend910B", BF16, ACL_DOUBLE, BF16, ("Muls", "DT_BFLOAT16", None)),
    ("Ascend910B", np.int32, ACL_FLOAT, np.float32, ("Mul", "DT_FLOAT", "DT_FLOAT")),
    ("Ascend910B", np.int32, ACL_FLOAT16, np.float16, ("Mul", "DT_FLOAT16", "DT_FLOAT16")),
    ("Ascend910B", np.int32, ACL_DOUBLE, np.float32, ("Mul", "DT_FLOAT", "DT_FLOAT")),
    ("Ascend910B", np.int32, ACL_DOUBLE, np.float64, ("Mul@AiCpu", "DT_DOUBLE", "DT_DOUBLE")),
    ("Ascend910B", np.bool_, ACL_DOUBLE, np.float16, ("Mul", "DT_FLOAT", "DT_FLOAT")),
    ("Ascend910B", np.bool_, ACL_INT64, np.int64, ("Mul", "DT_INT64", "DT_INT64")),
    ("Ascend910B", np.int32, ACL_INT64, np.int32, ("Mul", "DT_INT32", "DT_INT32")),
    ("Ascend910B", np.int8, ACL_COMPLEX64, np.complex64, ("Mul", "DT_COMPLEX64", "DT_COMPLEX64")),
    ("Ascend910", np.float16, ACL_DOUBLE, np.float16, ("Mul", "DT_FLOAT16", "DT_FLOAT16")),
    ("Ascend950", np.float16, ACL_FLOAT, np.float16, ("Muls", "DT_FLOAT16", None)),
    ("Ascend950", BF16, ACL_DOUBLE, np.float32, ("Muls", "DT_BFLOAT16", None)),
    ("Ascend950", np.float16, ACL_INT64, np.float16, ("Mul", "DT_FLOAT16", "DT_FLOAT16")),  # 1 survives in f16
    ("Ascend950", np.int32, ACL_DOUBLE, np.float32, ("Mul", "DT_FLOAT", "DT_FLOAT")),
    ("Ascend950", np.int32, ACL_INT64, np.int32, ("Mul", "DT_INT32", "DT_INT32")),
    ("Ascend950", np.bool_, ACL_INT64, np.int64, ("Mul", "DT_INT64", "DT_INT64")),
    ("Ascend950", np.float32, ACL_COMPLEX64, np.complex64, ("Mul", "DT_COMPLEX64", "DT_COMPLEX64")),
    ("Ascend950", np.float16, ACL_COMPLEX64, np.complex64, ("Mul", "DT_COMPLEX64", "DT_COMPLEX64")),  # C32 -> C64
]


@pytest.mark.parametrize("chip,self_dt,scalar_dt,out_dt,want", MULS_PROMOTION)
def test_muls_scalar_promotion_and_kernel_per_chip(chip_dev, chip, self_dt, scalar_dt, out_dt, want):
    dev = chip_dev(chip)
    t = dev.tensor(np.ones(4, self_dt))
    o = dev.tensor(np.zeros(4, out_dt))
    value = 1 if scalar_dt == ACL_INT64 else (1 + 1j if scalar_dt == ACL_COMPLEX64 else 0.5)
    s = aclCreateScalar(value, scalar_dt)
    kernel, kdt, sdt = want
    code, _, ex = _p1(aclnnMulsGetWorkspaceSize, t, s, o)
    assert code == 0, aclGetRecentErrMsg()
    launch = next(ln for ln in ex.value.launches if ln.op_type == kernel.split("@")[0])
    assert (launch.engine == "AiCpu") == kernel.endswith("@AiCpu")
    assert D.dt_name(launch.outputs[0].dtype) == kdt
    if sdt is None:
        assert len(launch.inputs) == 1 and launch.attrs["value"] == float(np.float32(value))
    else:
        assert D.dt_name(launch.inputs[1].dtype) == sdt and launch.inputs[1].view_shape == ()
    aclDestroyAclOpExecutor(ex.value)
    _run(dev, aclnnMulsGetWorkspaceSize, aclnnMuls, t, s, o)
    want_value = np.array(value).astype(out_dt)
    assert (dev.read(o) == want_value).all()
    aclDestroyScalar(s)


def test_ascend950_keeps_a_half_promotion_only_for_scalars_exact_in_it(chip_dev, scalars):
    dev = chip_dev("Ascend950")
    t = dev.tensor(np.ones(4, np.float16))
    o = dev.tensor(np.zeros(4, np.float16))
    for value, dt, want in ((3, ACL_INT64, "DT_FLOAT16"), (70000, ACL_INT64, "DT_FLOAT")):
        step = _kernel_step(aclnnMulsGetWorkspaceSize, t, scalars(value, dt), o)
        assert D.dt_name(step.outputs[0].dtype) == want, value


def test_muls_views_on_ascend950_and_copies_elsewhere(chip_dev, scalars):
    for chip, graph in (("Ascend950", ["Mul"]), ("Ascend910B", ["Transpose", "Mul"])):
        dev = chip_dev(chip)
        xs = np.arange(12, dtype=np.float32).reshape(3, 4)
        x = dev.strided(xs, (4, 3), (1, 4))
        o = dev.tensor(np.zeros((4, 3), np.float32))
        assert _graph_of(aclnnMulsGetWorkspaceSize, x, scalars(2.0), o) == graph
        _run(dev, aclnnMulsGetWorkspaceSize, aclnnMuls, x, scalars(2.0), o)
        assert (dev.read(o) == xs.T * 2).all()


def test_muls_half_recipes_per_chip(chip_dev, scalars):
    """FLOAT16 x 1.1f: Ascend910B multiplies by 1.1 rounded to float16 (one rounding); Ascend950's
    Muls rounds the float32 product, then to float16 (935 * 1.1f = 1028.50002 -> 1028.5 -> 1028)."""
    x = np.concatenate([np.array([935, 955, 975], np.float16), _values(np.float16, 200, 4, 300.0)])
    v32 = float(np.float32(1.1))
    v16 = float(np.float16(v32))
    for chip in ("Ascend910B", "Ascend950"):
        dev = chip_dev(chip)
        t, o = dev.tensor(x), dev.tensor(np.zeros(x.size, np.float16))
        _run(dev, aclnnMulsGetWorkspaceSize, aclnnMuls, t, scalars(1.1), o)
        got = dev.read(o)
        if chip == "Ascend910B":
            want = goldens.elementwise(lambda a: goldens.mul_exact(a, v16), np.float16, x)
        else:
            p32 = goldens.elementwise(lambda a: goldens.mul_exact(a, v32), np.float32, x)
            want = goldens.round_to([float(p) for p in p32], np.float16)
            assert got[:3].tolist() == [1028, 1050, 1072]
        assert_bits_equal(got, want)


@pytest.mark.parametrize("chip", ["Ascend910B", "Ascend950"])
def test_muls_bfloat16_rounds_the_float32_product(chip_dev, chip, scalars):
    """BFLOAT16 x DOUBLE (Muls on both) and x FLOAT (Ascend910B: Cast to float, Mul, Cast back):
    bfloat16(float32(x) * float32(s))."""
    dev = chip_dev(chip)
    x = _values(BF16, 200, 5, 50.0)
    v32 = float(np.float32(0.3))
    want = goldens.round_to(
        [float(p) for p in goldens.elementwise(lambda a: goldens.mul_exact(a, v32), np.float32, x)], BF16
    )
    for dt in (ACL_DOUBLE, ACL_FLOAT):
        t, o = dev.tensor(x), dev.tensor(np.zeros(200, BF16))
        _run(dev, aclnnMulsGetWorkspaceSize, aclnnMuls, t, scalars(0.3, dt), o)
        assert_bits_equal(dev.read(o), want)


def test_muls_float_and_integer_numbers(dev, scalars):
    x = _values(np.float32, 100, 6, 1e3)
    t, o = dev.tensor(x), dev.tensor(np.zeros(100, np.float32))
    _run(dev, aclnnMulsGetWorkspaceSize, aclnnMuls, t, scalars(0.1, ACL_DOUBLE), o)
    v = float(np.float32(0.1))
    assert_bits_equal(dev.read(o), goldens.elementwise(lambda a: goldens.mul_exact(a, v), np.float32, x))
    i8 = dev.tensor(np.array([1, 2, 3], np.int8))
    o8 = dev.tensor(np.zeros(3, np.int8))
    _run(dev, aclnnMulsGetWorkspaceSize, aclnnMuls, i8, scalars(300, ACL_INT64), o8)  # 300 -> int8 44
    assert dev.read(o8).tolist() == [44, 88, (132 + 128) % 256 - 128]


def test_muls_doc_example(dev, scalars):
    x = np.arange(8, dtype=np.float32).reshape(4, 2)
    o = dev.tensor(np.zeros((4, 2), np.float32))
    _run(dev, aclnnMulsGetWorkspaceSize, aclnnMuls, dev.tensor(x), scalars(1.2), o)
    assert [f"{v:f}" for v in dev.read(o).ravel()] == [
        "0.000000", "1.200000", "2.400000", "3.600000", "4.800000", "6.000000", "7.200000", "8.400001"]  # fmt: skip


def test_muls_empty(dev, scalars):
    t = dev.tensor(np.ones((0, 3), np.float32))
    code, ws, ex = _p1(aclnnMulsGetWorkspaceSize, t, scalars(2.0), t)
    assert code == 0 and ws.value == 0 and not ex.value.launches
    assert aclnnMuls(None, 0, ex.value, dev.stream) == 0


# == aclnnInplaceMul ================================================================================


def test_inplace_mul_rows(dev):
    s = dev.tensor(np.ones((4, 2), np.float32))
    o = dev.tensor(np.ones((4, 2), np.float32))
    u = dev.tensor(np.ones((4, 2), np.uint32), acl_dtype=ACL_UINT32)
    assert _err(aclnnInplaceMulGetWorkspaceSize, None, o) == (
        ACLNN_ERR_PARAM_NULLPTR,
        _one_line("Expected a value of type [aclTensor] for argument [selfRef] but instead found nullptr."),
    )
    assert _err(aclnnInplaceMulGetWorkspaceSize, s, None)[1] == _one_line(
        "Expected a value of type [aclTensor] for argument [other] but instead found nullptr."
    )
    assert _err(aclnnInplaceMulGetWorkspaceSize, u, o)[1].startswith(f"{PREFIX}Tensor selfRef not implemented")
    assert _err(aclnnInplaceMulGetWorkspaceSize, s, u)[1].startswith(f"{PREFIX}Tensor other not implemented")
    code, msg = _err(aclnnInplaceMulGetWorkspaceSize, s, dev.tensor(np.ones((3, 2), np.float32)))
    assert code == ACLNN_ERR_PARAM_INVALID
    assert msg.splitlines()[0].startswith(
        "Invalid_Argument_Tensor_Input_Shape(EZ1007): Shape [3, 2] of the tensor of operator aclnnInplaceMul_"
    )
    assert (
        msg.splitlines()[2] == "        The size of tensor selfRef [4, 2] must match the size of tensor other [3, 2]."
    )
    small = dev.tensor(np.ones((1, 2), np.float32))
    assert _err(aclnnInplaceMulGetWorkspaceSize, small, o) == (
        ACLNN_ERR_PARAM_INVALID,
        _one_line("Expected tensor for selfRef to have same size as [4, 2], but got [1, 2]."),
    )


@pytest.mark.parametrize("chip", ["Ascend910B", "Ascend950"])
def test_inplace_mul_castability_per_chip(chip_dev, chip):
    dev = chip_dev(chip)
    i = dev.tensor(np.array([3, -3, 7], np.int32))
    f = dev.tensor(np.array([0.5, 0.5, 0.5], np.float32))
    if chip == "Ascend910B":
        assert _err(aclnnInplaceMulGetWorkspaceSize, i, f) == (
            ACLNN_ERR_PARAM_INVALID, _one_line("Result type DT_FLOAT can't be cast to the desired output type DT_INT32."))  # fmt: skip
        return
    assert _graph_of(aclnnInplaceMulGetWorkspaceSize, i, f) == ["Cast", "Mul", "Cast"]
    _run(dev, aclnnInplaceMulGetWorkspaceSize, aclnnInplaceMul, i, f)
    assert dev.read(i).tolist() == [1, -1, 3]  # 1.5, -1.5, 3.5 truncated


@pytest.mark.parametrize("chip,graph", [("Ascend910B", ["Cast", "Mul", "Cast"]), ("Ascend950", ["Mul", "Cast"])])
def test_inplace_mul_mixed_pair_only_direct_on_ascend950(chip_dev, chip, graph):
    dev = chip_dev(chip)
    x = _values(np.float16, 100, 8)
    y = _values(np.float32, 100, 9)
    s, t = dev.tensor(x), dev.tensor(y)
    assert _graph_of(aclnnInplaceMulGetWorkspaceSize, s, t) == graph
    _run(dev, aclnnInplaceMulGetWorkspaceSize, aclnnInplaceMul, s, t)
    p32 = goldens.elementwise(goldens.mul_exact, np.float32, x, y)
    assert_bits_equal(dev.read(s), goldens.round_to([float(v) for v in p32], np.float16))


def test_inplace_mul_broadcast_views_no_rank_check_and_empty(dev):
    xs = np.arange(12, dtype=np.float32).reshape(3, 4)
    s = dev.strided(xs, (4, 3), (1, 4))  # a non-contiguous selfRef
    t = dev.tensor(np.array([1, 2, 3], np.float32))
    code, _, ex = _p1(aclnnInplaceMulGetWorkspaceSize, s, t)
    assert code == 0 and ex.value.api == "aclnnInplaceMul"
    aclDestroyAclOpExecutor(ex.value)
    _run(dev, aclnnInplaceMulGetWorkspaceSize, aclnnInplaceMul, s, t)
    assert (dev.read(s) == xs.T * np.array([1, 2, 3], np.float32)).all()
    r9 = dev.tensor(np.full((1,) * 8 + (2,), 3, np.float32))
    _run(dev, aclnnInplaceMulGetWorkspaceSize, aclnnInplaceMul, r9, r9)  # no rank check in place
    assert dev.read(r9).ravel().tolist() == [9.0, 9.0]
    e = dev.tensor(np.ones((0, 2), np.float32))
    code, ws, ex = _p1(aclnnInplaceMulGetWorkspaceSize, e, dev.tensor(np.ones(2, np.float32)))
    assert code == 0 and ws.value == 0 and not ex.value.launches
    aclDestroyAclOpExecutor(ex.value)


def test_inplace_mul_doc_example(dev):
    x = dev.tensor(np.arange(8, dtype=np.float32).reshape(4, 2))
    y = dev.tensor(np.array([1, 1, 1, 2, 2, 2, 3, 3], np.float32).reshape(4, 2))
    _run(dev, aclnnInplaceMulGetWorkspaceSize, aclnnInplaceMul, x, y)
    assert dev.read(x).ravel().tolist() == [0, 1, 2, 6, 8, 10, 18, 21]


# == aclnnInplaceMuls ===============================================================================


def test_inplace_muls_rows(dev, scalars):
    s = dev.tensor(np.ones(4, np.float32))
    u = dev.tensor(np.ones(4, np.uint32), acl_dtype=ACL_UINT32)
    assert _err(aclnnInplaceMulsGetWorkspaceSize, None, scalars(2.0))[1] == _one_line(
        "Expected a value of type [aclTensor] for argument [selfRef] but instead found nullptr."
    )
    assert _err(aclnnInplaceMulsGetWorkspaceSize, s, None)[1] == _one_line(
        "Expected a value of type [aclScalar] for argument [other] but instead found nullptr."
    )
    assert _err(aclnnInplaceMulsGetWorkspaceSize, u, scalars(2.0))[1].startswith(
        f"{PREFIX}Tensor selfRef not implemented for DT_UINT32"
    )
    r9 = dev.tensor(np.full((1,) * 8 + (2,), 3, np.float32))  # the page's "dims > 8" row is not in the code
    _run(dev, aclnnInplaceMulsGetWorkspaceSize, aclnnInplaceMuls, r9, scalars(2.0))
    assert dev.read(r9).ravel().tolist() == [6.0, 6.0]


def test_inplace_muls_numbers_and_graph(chip_dev, scalars):
    for chip, graph in (
        ("Ascend910B", ["Transpose", "Mul", "Transpose"]),
        ("Ascend950", ["Transpose", "Muls", "Transpose"]),
    ):
        dev = chip_dev(chip)
        xs = np.arange(12, dtype=np.float16).reshape(3, 4)
        s = dev.strided(xs, (4, 3), (1, 4))  # no view path in place: always a dense copy
        # Contiguous (a Transpose), the product, ViewCopy back into the strided selfRef (a Transpose)
        assert _graph_of(aclnnInplaceMulsGetWorkspaceSize, s, scalars(1.5)) == graph
        _run(dev, aclnnInplaceMulsGetWorkspaceSize, aclnnInplaceMuls, s, scalars(1.5))
        assert (dev.read(s) == xs.T * np.float16(1.5)).all()
        ex = _p1(aclnnInplaceMulsGetWorkspaceSize, s, scalars(1.5))[2]
        assert ex.value.api == "aclnnInplaceMuls"
        aclDestroyAclOpExecutor(ex.value)


def test_inplace_muls_rounds_and_casts_back(chip_dev, scalars):
    dev = chip_dev("Ascend910B")
    i = dev.tensor(np.array([1, 2, 3], np.int32))
    _run(dev, aclnnInplaceMulsGetWorkspaceSize, aclnnInplaceMuls, i, scalars(1.5))  # FLOAT, then truncated
    assert dev.read(i).tolist() == [1, 3, 4]
    dev = chip_dev("Ascend950")
    i = dev.tensor(np.array([1, 2, 3], np.int32))
    assert _err(aclnnInplaceMulsGetWorkspaceSize, i, scalars(1.5)) == (
        ACLNN_ERR_PARAM_INVALID, _one_line("Result type DT_FLOAT can't be cast to the desired output type DT_INT32."))  # fmt: skip
    b = dev.tensor(np.array([1.0, 3.0], BF16))
    _run(dev, aclnnInplaceMulsGetWorkspaceSize, aclnnInplaceMuls, b, scalars(0.1, ACL_DOUBLE))
    want = goldens.round_to([float(np.float32(v) * np.float32(0.1)) for v in (1.0, 3.0)], BF16)
    assert_bits_equal(dev.read(b), want)
    e = dev.tensor(np.ones((0,), np.float32))
    code, ws, ex = _p1(aclnnInplaceMulsGetWorkspaceSize, e, scalars(2.0))
    assert code == 0 and ws.value == 0 and not ex.value.launches
    aclDestroyAclOpExecutor(ex.value)


def test_another_apis_phase_two_runs_the_executor_and_the_sanitizer_names_it(dev, scalars, findings):
    t = dev.tensor(np.ones(4, np.float32))
    code, _, ex = _p1(aclnnMulsGetWorkspaceSize, t, scalars(2.0), t)
    assert code == 0
    assert aclnnInplaceMuls(None, 0, ex.value, dev.stream) == 0  # CANN runs it
    assert findings.refresh().checks() == ["usage"]
    assert "was given an executor built by aclnnMulsGetWorkspaceSize; it runs aclnnMuls's graph" in findings[0][1]
    assert dev.read(t).tolist() == [2.0] * 4
    code, _, ex = _p1(aclnnMulsGetWorkspaceSize, t, scalars(2.0), t)
    assert aclnnMuls(None, 0, ex.value, dev.stream) == 0 and len(findings.refresh()) == 1
    _ = (ACL_BF16, ACL_BOOL, ACL_FLOAT16, ACL_INT32)


@pytest.mark.parametrize("chip", CHIPS)
def test_muls_and_inplace_muls_every_self_dtype_per_chip(chip_dev, chip, scalars):
    dev = chip_dev(chip)
    supported = facts.dtype_support_list()
    for dt in ALL_DTYPES:
        dt = np.dtype(dt)
        acl = int(ACL_OF[dt])
        a = _sample(dt)
        two = scalars(True, ACL_BOOL) if dt == np.bool_ else scalars(2, ACL_INT64)
        t, o = dev.tensor(a, acl_dtype=acl), dev.tensor(np.zeros(6, dt), acl_dtype=acl)
        code, ws, ex = _p1(aclnnMulsGetWorkspaceSize, t, two, o)
        if acl not in supported:
            assert code == ACLNN_ERR_PARAM_INVALID
            assert aclGetRecentErrMsg().startswith(f"{PREFIX}Tensor self not implemented for {D.dt_name(acl)}")
            assert _err(aclnnInplaceMulsGetWorkspaceSize, t, two)[1].startswith(
                f"{PREFIX}Tensor selfRef not implemented for {D.dt_name(acl)}"
            )
            continue
        assert code == 0, (dt, aclGetRecentErrMsg())
        assert aclnnMuls(dev.workspace(ws.value), ws.value, ex.value, dev.stream) == 0
        want = a if dt == np.bool_ else (a * 2).astype(dt)  # bool x True: an and
        assert (dev.read(o) == want).all(), dt
        _run(dev, aclnnInplaceMulsGetWorkspaceSize, aclnnInplaceMuls, t, two)
        assert (dev.read(t) == want).all(), dt


def test_the_mul_launch_status_is_not_checked(dev, monkeypatch):
    """A negative dimension fails the Mul kernel's tiling; MulAiCore ignores the launch status:
    l0 Mul logs nothing of its own and returns its output, and the graph goes on."""
    from helpers import normalise_seq, record_op_loge, tiling_refusal

    from aclnn_py import ACL_FORMAT_ND, aclCreateTensor, aclDestroyTensor

    logged = record_op_loge(monkeypatch)
    ptr = dev.malloc(64)
    t = [aclCreateTensor([2, -1], 2, ACL_FLOAT, None, 0, ACL_FORMAT_ND, [2], 1, ptr) for _ in range(3)]
    code, _, ex = _p1(aclnnMulGetWorkspaceSize, *t)
    assert code == 0
    assert _graph(ex.value) == []  # the Mul launch failed
    assert [s.name for s in ex.value.steps][-3:] == ["Mul", "Cast", "ViewCopy"]
    assert normalise_seq(aclGetRecentErrMsg(), "aclnnMul") == tiling_refusal("aclnnMul", "Mul", "[2, -1]")
    assert logged == []
    aclDestroyAclOpExecutor(ex.value)
    for x in t:
        aclDestroyTensor(x)
