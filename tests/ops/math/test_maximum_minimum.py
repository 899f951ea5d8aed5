"""aclnnMaximum, aclnnMinimum: the lists per chip (from the ops-math sources), error rows in
CANN's order with the whole messages, every dtype per chip, the graph (LogicalOr / LogicalAnd
for BOOL, AI CPU dtypes, Ascend950's compute-dtype choice), NaN and signed zeros, integer
extremes, broadcast, views, empty and 0-d tensors."""

from __future__ import annotations

import goldens_compare as G
import ml_dtypes
import numpy as np
import pytest
from helpers import ACL_OF, Dev, assert_bits_equal, normalise_seq, record_op_loge, tiling_refusal

import aclnn_py
from aclnn_py import (
    ACL_FLOAT,
    ACL_FORMAT_ND,
    ACLNN_ERR_PARAM_INVALID,
    ACLNN_ERR_PARAM_NULLPTR,
    Ref,
    aclCreateTensor,
    aclDestroyAclOpExecutor,
    aclDestroyTensor,
    aclGetRecentErrMsg,
)
from aclnn_py import dtypes as D
from aclnn_py.ops.math import maximum, minimum

BF16 = np.dtype(ml_dtypes.bfloat16)
PREFIX = "AclNN_Parameter_Error(EZ1001): "
CHIPS = ["Ascend910B", "Ascend910_93", "Ascend950", "Ascend910", "Ascend310P"]
APIS = ["Maximum", "Minimum"]
ALL = [np.float32, np.float16, BF16, np.float64, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16,
       np.uint32, np.uint64, np.bool_, np.complex64, np.complex128]  # fmt: skip


def names(text: str) -> tuple[int, ...]:
    by_name = {D.dt_name(d).removeprefix("DT_"): d for d in range(0, 42)}
    return tuple(by_name[n] for n in text.split())


MAX_910 = names("FLOAT FLOAT16 INT32 INT8 INT64 INT16 UINT8 DOUBLE BOOL")
MAX_910B = names("FLOAT FLOAT16 INT32 INT8 INT64 BFLOAT16 INT16 UINT8 DOUBLE BOOL")
MIN_910 = names("FLOAT INT32 INT64 FLOAT16 INT16 INT8 UINT8 DOUBLE BOOL")
MIN_910B = (*MIN_910, *names("BFLOAT16"))
LISTS = {"Maximum": {"Ascend910B": MAX_910B, "Ascend910_93": MAX_910B, "Ascend950": MAX_910B, "Ascend910": MAX_910,
                     "Ascend310P": MAX_910},
         "Minimum": {"Ascend910B": MIN_910B, "Ascend910_93": MIN_910B, "Ascend950": MIN_910B, "Ascend910": MIN_910,
                     "Ascend310P": MIN_910}}  # fmt: skip
MODULES = {"Maximum": maximum, "Minimum": minimum}


def p1(api: str, *args):
    ws, ex = Ref(0), Ref()
    return getattr(aclnn_py, f"aclnn{api}GetWorkspaceSize")(*args, ws, ex), ws, ex


def launches(ex) -> list[str]:
    return [f"{ln.op_type}{'@AiCpu' if ln.engine == 'AiCpu' else ''}" for ln in ex.launches]


def run(dev, api, *args) -> None:
    r = dev.run(getattr(aclnn_py, f"aclnn{api}GetWorkspaceSize"), getattr(aclnn_py, f"aclnn{api}"), *args)
    assert r == (0, 0, 0), aclGetRecentErrMsg()


@pytest.fixture
def chip_dev(soc):
    made: list[Dev] = []

    def use(chip: str) -> Dev:
        """A device on ``chip`` (the previous one, if any, is closed first)."""
        while made:
            made.pop().close()
        soc(chip)
        made.append(Dev())
        return made[-1]

    yield use
    for d in made:
        d.close()


@pytest.mark.parametrize("api", APIS)
@pytest.mark.parametrize("chip", CHIPS)
def test_the_lists_per_chip(api, chip):
    from aclnn_py import soc as S

    with S.emulating(chip):
        assert tuple(MODULES[api].dtype_support_list()) == LISTS[api][chip]


@pytest.mark.parametrize("api", APIS)
@pytest.mark.parametrize("which,name", [(0, "self"), (1, "other"), (2, "out")])
def test_null_arguments_in_order(dev, api, which, name):
    args = [dev.tensor(np.ones(4, np.float32)) for _ in range(3)]
    args[which] = None
    code, ws, ex = p1(api, *args)
    assert code == ACLNN_ERR_PARAM_NULLPTR and ws.value == 0 and ex.value is None
    assert (
        aclGetRecentErrMsg()
        == f"{PREFIX}Expected a value of type [aclTensor] for argument [{name}] but instead found nullptr.\n"
    )
    assert getattr(aclnn_py, f"aclnn{api}GetWorkspaceSize")(None, None, None, None, Ref()) == ACLNN_ERR_PARAM_NULLPTR
    assert aclGetRecentErrMsg() == f"{PREFIX}executor or workspaceSize is nullptr\n"


def _values(dt) -> tuple[np.ndarray, np.ndarray]:
    dt = np.dtype(dt)
    if dt == np.bool_:
        return np.array([0, 1, 1, 0], bool), np.array([0, 0, 1, 1], bool)
    return np.array([0, 1, 5, 3]).astype(dt), np.array([2, 1, 4, 7]).astype(dt)


@pytest.mark.parametrize("api", APIS)
@pytest.mark.parametrize("chip", CHIPS)
def test_every_dtype_per_chip(chip_dev, api, chip):
    """self, other and out of one dtype: accepted iff in the list (self, then other, then out);
    then the numbers."""
    dev = chip_dev(chip)
    supported = LISTS[api][chip]
    for dt in map(np.dtype, ALL):
        x, y = _values(dt)
        tx, ty, to = dev.tensor(x), dev.tensor(y), dev.tensor(np.zeros(4, dt))
        code, ws, ex = p1(api, tx, ty, to)
        a = int(ACL_OF[dt])
        if a not in supported:
            assert code == ACLNN_ERR_PARAM_INVALID
            assert aclGetRecentErrMsg() == (
                f"{PREFIX}Tensor self not implemented for {D.dt_name(a)}, should be in dtype support list "
                f"{D.dt_list_str(supported)}.\n"
            )
            continue
        assert code == 0, (chip, dt, aclGetRecentErrMsg())
        assert getattr(aclnn_py, f"aclnn{api}")(dev.workspace(ws.value), ws.value, ex.value, dev.stream) == 0
        assert (dev.read(to) == G.maxmin(x, y, api == "Maximum")).all(), (chip, dt)
        # other, then out, are checked with the same list
        bad = dev.tensor(np.zeros(4, np.uint32))
        assert p1(api, tx, bad, to)[0] == ACLNN_ERR_PARAM_INVALID
        assert aclGetRecentErrMsg().startswith(f"{PREFIX}Tensor other not implemented for DT_UINT32")
        assert p1(api, tx, ty, bad)[0] == ACLNN_ERR_PARAM_INVALID
        assert aclGetRecentErrMsg().startswith(f"{PREFIX}Tensor out not implemented for DT_UINT32")


@pytest.mark.parametrize("api", APIS)
def test_promotion_rows(dev, api):
    f = dev.tensor(np.ones(4, np.float32))
    i = dev.tensor(np.zeros(4, np.int32))
    assert p1(api, f, f, i)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == f"{PREFIX}Result type DT_FLOAT can't be cast to the desired output type DT_INT32.\n"
    b = dev.tensor(np.zeros(4, np.bool_))
    assert p1(api, i, i, b)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == f"{PREFIX}Result type DT_INT32 can't be cast to the desired output type DT_BOOL.\n"


def test_ascend950_also_refuses_a_float_into_an_int32_out(chip_dev):
    """The UT ``ascend950_out_dtype_compute`` expects success here; the code's CanCast refuses it."""
    dev = chip_dev("Ascend950")
    f = dev.tensor(np.ones(4, np.float32))
    assert p1("Maximum", f, f, dev.tensor(np.zeros(4, np.int32)))[0] == ACLNN_ERR_PARAM_INVALID


def test_bf16_on_ascend910(chip_dev):
    dev = chip_dev("Ascend910")
    h = dev.tensor(np.ones(4, BF16))
    f = dev.tensor(np.ones(4, np.float32))
    assert p1("Maximum", f, h, f)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == (
        f"{PREFIX}Tensor other not implemented for DT_BFLOAT16, should be in dtype support list {D.dt_list_str(MAX_910)}.\n"
    )


@pytest.mark.parametrize("api", APIS)
def test_shape_rows(dev, api):
    f = dev.tensor(np.ones((2, 3), np.float32))
    r9 = dev.tensor(np.ones((1,) * 9, np.float32))
    assert p1(api, r9, f, f)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == f"{PREFIX}The self tensor cannot be larger than 8 dimensions.\n"
    assert p1(api, f, r9, f)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == f"{PREFIX}The other tensor cannot be larger than 8 dimensions.\n"
    one = dev.tensor(np.ones((1,) * 8, np.float32))
    assert p1(api, one, one, r9)[0] == ACLNN_ERR_PARAM_INVALID  # out's rank is not checked
    assert aclGetRecentErrMsg() == (
        f"{PREFIX}Expected tensor for out to have same size as [1, 1, 1, 1, 1, 1, 1, 1], but got "
        "[1, 1, 1, 1, 1, 1, 1, 1, 1].\n"
    )
    g = dev.tensor(np.ones((4, 3), np.float32))
    assert p1(api, f, g, f)[0] == ACLNN_ERR_PARAM_INVALID
    lines = aclGetRecentErrMsg().splitlines()
    assert lines[0].startswith(
        f"Invalid_Argument_Tensor_Input_Shape(EZ1007): Shape [4, 3] of the tensor of operator aclnn{api}_"
    )
    assert lines[-1] == "        The size of tensor self [2, 3] must match the size of tensor other [4, 3]."
    assert p1(api, f, f, dev.tensor(np.ones((3, 2), np.float32)))[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == f"{PREFIX}Expected tensor for out to have same size as [2, 3], but got [3, 2].\n"


@pytest.mark.parametrize("api", APIS)
def test_empty_tensors_after_the_checks(dev, api):
    e = dev.tensor(np.ones((2, 0), np.float32))
    code, ws, ex = p1(api, e, dev.tensor(np.ones((2, 1), np.float32)), dev.tensor(np.ones((2, 0), np.float32)))
    assert code == 0 and ws.value == 0 and not ex.value.launches
    assert getattr(aclnn_py, f"aclnn{api}")(None, 0, ex.value, dev.stream) == 0
    assert p1(api, e, e, dev.tensor(np.ones((2, 3), np.float32)))[0] == ACLNN_ERR_PARAM_INVALID  # Maximum_017


# -- the graph -----------------------------------------------------------------------------------

BRANCHES = [
    # chip, dtype, Maximum launches
    ("Ascend910B", np.float32, ["Maximum"]),
    ("Ascend910B", BF16, ["Maximum"]),
    ("Ascend910B", np.int16, ["Maximum@AiCpu"]),
    ("Ascend910B", np.uint8, ["Maximum@AiCpu"]),
    ("Ascend910B", np.float64, ["Maximum@AiCpu"]),
    ("Ascend910B", np.bool_, ["LogicalOr"]),
    ("Ascend950", np.uint8, ["Maximum"]),
    ("Ascend950", np.int16, ["Maximum@AiCpu"]),
    ("Ascend950", np.float64, ["Maximum@AiCpu"]),
    ("Ascend950", np.bool_, ["LogicalOr"]),
    ("Ascend910", np.int64, ["Maximum"]),
    ("Ascend310P", np.bool_, ["LogicalOr"]),
]


@pytest.mark.parametrize("chip,dtype,want", BRANCHES)
def test_graph_branch(chip_dev, chip, dtype, want):
    dev = chip_dev(chip)
    x, y = _values(dtype)
    for api in APIS:
        code, _, ex = p1(api, dev.tensor(x), dev.tensor(y), dev.tensor(np.zeros(4, dtype)))
        assert code == 0
        expect = [w.replace("Maximum", api).replace("LogicalOr", "LogicalOr" if api == "Maximum" else "LogicalAnd")
                  for w in want]  # fmt: skip
        assert launches(ex.value) == expect
        assert aclDestroyAclOpExecutor(ex.value) == 0


COMPUTE = [
    # chip, self, other, out, (compute dtype, output Cast step?)
    ("Ascend910B", np.int32, np.int32, np.int8, ("DT_INT32", True)),
    ("Ascend950", np.int32, np.int32, np.int8, ("DT_INT8", False)),  # unsafe: computed in out's dtype
    ("Ascend950", np.int32, np.int32, np.int64, ("DT_INT32", True)),  # safe
    ("Ascend950", np.uint8, np.uint8, np.int16, ("DT_INT16", False)),  # signedness differs: unsafe
    ("Ascend950", np.float32, np.float32, np.float16, ("DT_FLOAT", True)),  # any float out is safe
    ("Ascend950", np.int64, np.int64, np.float32, ("DT_INT64", True)),
    ("Ascend950", np.bool_, np.bool_, np.int32, ("DT_BOOL", True)),
    ("Ascend950", np.int8, np.uint8, np.int16, ("DT_INT16", False)),  # different inputs: the promotion
    ("Ascend950", np.float16, np.float16, np.float16, ("DT_FLOAT16", False)),
    ("Ascend910B", np.float16, np.float16, np.float16, ("DT_FLOAT16", True)),  # always a Cast (no kernel)
]


@pytest.mark.parametrize("chip,a,b,out,want", COMPUTE)
def test_compute_dtype(chip_dev, chip, a, b, out, want):
    dev = chip_dev(chip)
    code, _, ex = p1("Maximum", dev.tensor(np.ones(3, a)), dev.tensor(np.ones(3, b)), dev.tensor(np.zeros(3, out)))
    assert code == 0, aclGetRecentErrMsg()
    names_ = [s.name for s in ex.value.steps]
    op = "LogicalOr" if want[0] == "DT_BOOL" else "Maximum"
    step = next(s for s in ex.value.steps if s.name == op)
    assert {D.dt_name(t.dtype) for t in step.inputs} == {want[0]}
    assert (names_[names_.index(op) + 1] == "Cast") == want[1]
    aclDestroyAclOpExecutor(ex.value)


def test_ascend950_computes_unsafe_integers_in_the_out_dtype(chip_dev):
    """int32 300 and 1 into an int8 out: 910B computes max = 300, then casts (44); Ascend950 casts
    both to int8 first (44, 1) — and max(-56, 1) differs from int8(max(200, 1)) = -56."""
    x = np.array([300, 200, -300], np.int32)
    y = np.array([1, 1, 1], np.int32)
    res = {}
    for chip in ("Ascend910B", "Ascend950"):
        dev = chip_dev(chip)
        o = dev.tensor(np.zeros(3, np.int8))
        run(dev, "Maximum", dev.tensor(x), dev.tensor(y), o)
        res[chip] = dev.read(o).tolist()
    assert res["Ascend910B"] == [44, -56, 1]  # int8(max): 300 -> 44, 200 -> -56, max(-300, 1) = 1
    assert res["Ascend950"] == [44, 1, 1]  # max(int8): (44, 1), (-56, 1), (-44, 1)


# -- numbers ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("chip", ["Ascend910B", "Ascend950", "Ascend910"])
@pytest.mark.parametrize("dtype", [np.float32, np.float16, BF16, np.float64], ids=["f32", "f16", "bf16", "f64"])
def test_floats_nan_loses_and_zeros_are_ordered(chip_dev, chip, dtype):
    if chip == "Ascend910" and dtype == BF16:
        return  # not in Ascend910's list (test_every_dtype_per_chip)
    dev = chip_dev(chip)
    rng = np.random.default_rng(11)
    x = (rng.standard_normal(64) * 100).astype(np.float32)
    y = (rng.standard_normal(64) * 100).astype(np.float32)
    x[:10] = [np.nan, 1.0, np.nan, -0.0, 0.0, -0.0, np.inf, -np.inf, 5.0, np.nan]
    y[:10] = [1.0, np.nan, np.nan, 0.0, -0.0, -0.0, 3.0, -np.inf, 5.0, -np.inf]
    x, y = x.astype(dtype), y.astype(dtype)
    for api in APIS:
        o = dev.tensor(np.zeros(64, dtype))
        run(dev, api, dev.tensor(x), dev.tensor(y), o)
        assert_bits_equal(dev.read(o), G.maxmin(x, y, api == "Maximum"))


@pytest.mark.parametrize("chip", ["Ascend910B", "Ascend950"])
def test_integer_extremes(chip_dev, chip):
    dev = chip_dev(chip)
    for dt in (np.int8, np.int16, np.int32, np.int64, np.uint8):
        info = np.iinfo(dt)
        x = np.array([info.min, info.max, 0, info.min, -1 if info.min < 0 else 1], dt)
        y = np.array([info.max, info.min, 0, info.min + 1, info.max], dt)
        for api in APIS:
            o = dev.tensor(np.zeros(5, dt))
            run(dev, api, dev.tensor(x), dev.tensor(y), o)
            assert (dev.read(o) == G.maxmin(x, y, api == "Maximum")).all(), (dt, api)


def test_int64_beyond_float_precision_is_exact(dev):
    x = np.array([2**53 + 1, -(2**62)], np.int64)
    y = np.array([2**53, -(2**62) + 1], np.int64)
    o = dev.tensor(np.zeros(2, np.int64))
    run(dev, "Maximum", dev.tensor(x), dev.tensor(y), o)
    assert dev.read(o).tolist() == [2**53 + 1, -(2**62) + 1]


def test_mixed_dtypes_promote_then_cast(dev):
    x = np.array([1, 5, -3], np.int32)
    y = np.array([2.5, 4.0, -3.5], np.float16)
    o = dev.tensor(np.zeros(3, np.float32))
    code, _, ex = p1("Maximum", dev.tensor(x), dev.tensor(y), o)
    assert code == 0 and launches(ex.value) == ["Cast", "Maximum", "Cast"]  # int32 -> FLOAT16 (PromoteType)
    aclDestroyAclOpExecutor(ex.value)
    run(dev, "Maximum", dev.tensor(x), dev.tensor(y), o)
    assert dev.read(o).tolist() == [2.5, 5.0, -3.0]


@pytest.mark.parametrize("chip", ["Ascend910B", "Ascend950"])
def test_bool_is_or_and_and(chip_dev, chip):
    dev = chip_dev(chip)
    x = np.array([0, 1, 0, 1], bool)
    y = np.array([0, 0, 1, 1], bool)
    o = dev.tensor(np.zeros(4, np.bool_))
    run(dev, "Maximum", dev.tensor(x), dev.tensor(y), o)
    assert dev.read(o).tolist() == [False, True, True, True]
    run(dev, "Minimum", dev.tensor(x), dev.tensor(y), o)
    assert dev.read(o).tolist() == [False, False, False, True]
    o32 = dev.tensor(np.zeros(4, np.int32))
    run(dev, "Maximum", dev.tensor(x), dev.tensor(y), o32)
    assert dev.read(o32).tolist() == [0, 1, 1, 1]


def test_non_canonical_bool_bytes(chip_dev):
    """Bytes other than 0/1: TBE's LogicalOr is a signed-byte max and LogicalAnd a float16
    product; Ascend950's are bitwise."""
    raw_x = np.array([2, 2, 255, 255, 1], np.uint8)
    raw_y = np.array([1, 0, 1, 2, 2], np.uint8)
    want = {"Ascend910B": ([2, 2, 1, 2, 2], [2, 0, 255, 254, 2]), "Ascend950": ([3, 2, 255, 255, 3], [0, 0, 1, 2, 0])}
    for chip, (mx, mn) in want.items():
        dev = chip_dev(chip)
        x = dev.tensor(raw_x, acl_dtype=int(D.DT_BOOL))
        y = dev.tensor(raw_y, acl_dtype=int(D.DT_BOOL))
        o = dev.tensor(np.zeros(5, np.uint8), acl_dtype=int(D.DT_BOOL))
        run(dev, "Maximum", x, y, o)
        assert dev.read(o, np.uint8).tolist() == mx, chip
        run(dev, "Minimum", x, y, o)
        assert dev.read(o, np.uint8).tolist() == mn, chip


def test_broadcast_views_and_0d(dev):
    xs = np.array([[1, 9, 3], [7, 2, 8]], np.float32)
    x = dev.strided(xs, (3, 2), (1, 3))
    y = dev.tensor(np.array(5.0, np.float32))
    o = dev.strided(np.zeros((2, 3), np.float32), (3, 2), (1, 3))
    run(dev, "Maximum", x, y, o)
    assert (dev.read(o) == np.maximum(xs.T, 5)).all()
    run(dev, "Minimum", x, dev.tensor(np.array([[4.0], [6.0], [0.0]], np.float32)), o)
    assert (dev.read(o) == np.minimum(xs.T, [[4.0], [6.0], [0.0]])).all()
    z = dev.tensor(np.array(3, np.int32))
    oz = dev.tensor(np.array(0, np.int32))
    run(dev, "Maximum", z, dev.tensor(np.array(-3, np.int32)), oz)
    assert int(dev.read(oz)) == 3


def test_the_aicore_launch_status_is_not_checked(dev, monkeypatch):
    """A negative dimension fails the Maximum kernel's tiling; MaximumAiCore ignores the launch
    status: it logs nothing of its own and the op carries on."""
    logged = record_op_loge(monkeypatch)
    ptr = dev.malloc(64)
    t = [aclCreateTensor([2, -1], 2, ACL_FLOAT, None, 0, ACL_FORMAT_ND, [2], 1, ptr) for _ in range(3)]
    try:
        code, _, ex = p1("Maximum", *t)
        assert code == 0
        assert launches(ex.value) == []  # the Maximum launch failed, the op went on
        assert normalise_seq(aclGetRecentErrMsg(), "aclnnMaximum") == tiling_refusal(
            "aclnnMaximum", "Maximum", "[2, -1]"
        )
        assert logged == []
        aclDestroyAclOpExecutor(ex.value)
    finally:
        for x in t:
            aclDestroyTensor(x)


def test_ops_math_doc_example():
    from aclnn_py import functional as F

    a = np.arange(8, dtype=np.float32).reshape(4, 2)
    b = np.array([1, 1, 1, 2, 2, 2, 3, 3], np.float32).reshape(4, 2)
    assert F.maximum(a, b).reshape(-1).tolist() == [1, 1, 2, 3, 4, 5, 6, 7]
    assert F.minimum(a, b).reshape(-1).tolist() == [0, 1, 1, 2, 2, 2, 3, 3]


@pytest.mark.parametrize("kernels", ["numpy", "numba"])
@pytest.mark.parametrize("dtype", [np.float32, np.float16, BF16], ids=["f32", "f16", "bf16"])
def test_a_signalling_nan_loses_too_on_every_kernel_path(dev, monkeypatch, kernels, dtype):
    """numpy's fmax/fmin let a signalling NaN win in their scalar tail only (the last elements of
    a long array): the recipe quiets that, so both paths give maxNum's answer everywhere."""
    if kernels == "numba":
        pytest.importorskip("numba")
    monkeypatch.setenv("ACLNN_PY_KERNELS", kernels)
    bits = {np.float32: (np.uint32, 0x7FA00000), np.float16: (np.uint16, 0x7D00), BF16: (np.uint16, 0x7FA0)}
    ui, snan = bits[dtype]
    n = 4500
    x = np.arange(n, dtype=np.float32).astype(dtype)
    y = np.full(n, snan, ui).view(dtype)
    y[::7] = x[::7]
    for api in APIS:
        o = dev.tensor(np.zeros(n, dtype))
        run(dev, api, dev.tensor(x), dev.tensor(y), o)
        assert_bits_equal(dev.read(o), x)  # every pair is (x, sNaN) or (x, x)
        o = dev.tensor(np.zeros(n, dtype))
        run(dev, api, dev.tensor(y), dev.tensor(x), o)
        assert_bits_equal(dev.read(o), x)
