"""The twelve in-place comparisons, aclnnInplaceEqTensor ... aclnnInplaceLeScalar: each is its
out-of-place twin with ``out = selfRef`` (so the result lands in selfRef's own dtype, 1 or 0).

What differs between them is how they get there, as their op_api files write it: aclnnInplace
EqTensor runs ``CheckInplace`` first (whose null checks return ``false`` = ACLNN_SUCCESS and go
on); EqScalar, GtTensor, LtTensor and LtScalar call the twin's phase 1 (its L2_DFX_PHASE_1, its
executor); NeTensor, NeScalar, GtScalar, GeTensor, GeScalar, LeTensor and LeScalar have their own
L2_DFX_PHASE_1 and run the twin's Common. Tested here: every dtype on every chip (accepted iff the
twin accepts it with out of selfRef's dtype, with the same message; the numbers bit for bit),
every error row, the operator each EZ1007 names, the executor's owner, ``other`` broadcast into
selfRef, strided selfRef views, empty and 0-d tensors, selfRef passed as ``other`` too, and the
functional wrappers."""

from __future__ import annotations

import goldens_compare as G
import ml_dtypes
import numpy as np
import pytest
import test_compare_scalar as TS
import test_compare_tensor as TT
from helpers import ACL_OF, Dev, bits

import aclnn_py
from aclnn_py import (
    ACL_FLOAT,
    ACL_INT64,
    ACL_MEMCPY_DEVICE_TO_HOST,
    ACLNN_ERR_INNER_NULLPTR,
    ACLNN_ERR_PARAM_INVALID,
    ACLNN_ERR_PARAM_NULLPTR,
    Ref,
    aclCreateScalar,
    aclDestroyAclOpExecutor,
    aclDestroyScalar,
    aclGetRecentErrMsg,
    aclrtMemcpy,
)
from aclnn_py import dtypes as D
from aclnn_py import functional as F

BF16 = np.dtype(ml_dtypes.bfloat16)
PREFIX = "AclNN_Parameter_Error(EZ1001): "
CHIPS = TT.CHIPS
TENSOR_APIS = TT.APIS
SCALAR_APIS = TS.APIS
OP = {**TT.OP, **TS.OP}
# the in-place APIs that are their twin's phase 1 (no L2_DFX_PHASE_1 of their own)
DELEGATING = {"EqTensor", "EqScalar", "GtTensor", "LtTensor", "LtScalar"}


def p1(api: str, *args):
    ws, ex = Ref(0), Ref()
    return getattr(aclnn_py, f"aclnn{api}GetWorkspaceSize")(*args, ws, ex), ws, ex


def run_inplace(dev: Dev, api: str, *args) -> None:
    fn1 = getattr(aclnn_py, f"aclnnInplace{api}GetWorkspaceSize")
    r = dev.run(fn1, getattr(aclnn_py, f"aclnnInplace{api}"), *args)
    assert r == (0, 0, 0), (api, aclGetRecentErrMsg())


def as_result(mask: np.ndarray, dt: np.dtype) -> np.ndarray:
    """The BOOL result cast to ``dt``: 1 where true, 0 where false (+0.0 for floats)."""
    return np.where(mask, np.ones(mask.shape, dt), np.zeros(mask.shape, dt)).astype(dt)


def same_bits(got: np.ndarray, want: np.ndarray) -> bool:
    if got.dtype != want.dtype or got.shape != want.shape:
        return False
    if got.dtype == np.bool_ or got.dtype.kind in "iu":
        return bool((got == want).all())
    if got.dtype.kind == "c":
        return same_bits(got.real.copy(), want.real.copy()) and same_bits(got.imag.copy(), want.imag.copy())
    return bool((bits(np.ascontiguousarray(got)) == bits(np.ascontiguousarray(want))).all())


@pytest.fixture
def chip_dev(soc):
    made: list[Dev] = []

    def use(chip: str) -> Dev:
        while made:
            made.pop().close()
        soc(chip)
        made.append(Dev())
        return made[-1]

    yield use
    for d in made:
        d.close()


@pytest.fixture
def scalars():
    made = []

    def make(value, dtype=ACL_FLOAT):
        s = aclCreateScalar(value, dtype)
        assert s is not None
        made.append(s)
        return s

    yield make
    for s in made:
        aclDestroyScalar(s)


# CANN's prototypes (the headers of ops-math math/<op>/op_api): selfRef const or not, as declared
PROTOTYPES = {
    "aclnnInplaceEqTensor": "const aclTensor* selfRef, const aclTensor* other",
    "aclnnInplaceEqScalar": "const aclTensor* selfRef, const aclScalar* other",
    "aclnnInplaceNeTensor": "aclTensor* selfRef, const aclTensor* other",
    "aclnnInplaceNeScalar": "aclTensor* selfRef, const aclScalar* other",
    "aclnnInplaceGtTensor": "const aclTensor* selfRef, const aclTensor* other",
    "aclnnInplaceGtScalar": "aclTensor* selfRef, const aclScalar* other",
    "aclnnInplaceGeTensor": "aclTensor* selfRef, const aclTensor* other",
    "aclnnInplaceGeScalar": "aclTensor* selfRef, const aclScalar* other",
    "aclnnInplaceLtTensor": "const aclTensor* selfRef, const aclTensor* other",
    "aclnnInplaceLtScalar": "const aclTensor* selfRef, const aclScalar* other",
    "aclnnInplaceLeTensor": "aclTensor* selfRef, const aclTensor* other",
    "aclnnInplaceLeScalar": "aclTensor* selfRef, const aclScalar* other",
}


@pytest.mark.parametrize("name", sorted(PROTOTYPES))
def test_prototypes_and_headers(name):
    from aclnn_py.ops import registry

    api = registry.BY_NAME[name]
    assert ", ".join(f"{p.ctype} {p.name}" for p in api.params) == PROTOTYPES[name]
    twin = registry.BY_NAME[name.replace("Inplace", "")]
    assert api.module == twin.module and api.header == twin.header
    assert callable(getattr(aclnn_py, api.phase1)) and callable(getattr(aclnn_py, name))


# -- every dtype on every chip ----------------------------------------------------------------------


@pytest.mark.parametrize("api", TENSOR_APIS)
@pytest.mark.parametrize("chip", CHIPS)
def test_every_dtype_per_chip_tensor(chip_dev, api, chip):
    """selfRef = other = every dtype: refused with the message the twin gives for out of that
    dtype (the tensor tests' model, written independently of the modules), else the comparison
    in selfRef's dtype, bit for bit."""
    dev = chip_dev(chip)
    for dt in map(np.dtype, TT.ALL):
        x, y = TT._values(dt)
        t, o = dev.tensor(x), dev.tensor(y)
        code, ws, ex = p1(f"Inplace{api}", t, o)
        want = TT.expected_rejection(api, chip, dt, dt)
        if want is not None:
            assert code == ACLNN_ERR_PARAM_INVALID, (api, chip, dt)
            assert aclGetRecentErrMsg() == f"{PREFIX}{want}\n", (api, chip, dt)
            assert ws.value == 0 and ex.value is None
            continue
        assert code == 0, (api, chip, dt, aclGetRecentErrMsg())
        phase2 = getattr(aclnn_py, f"aclnnInplace{api}")
        assert phase2(dev.workspace(ws.value), ws.value, ex.value, dev.stream) == 0
        got = dev.read(t)
        assert same_bits(got, as_result(G.compare(OP[api], x, y), dt)), (api, chip, dt, got)
        assert (dev.read(o) == y).all()  # other is only read


def _twin_outcome(dev: Dev, api: str, x: np.ndarray, s) -> tuple[int, str | None]:
    """The out-of-place twin's phase-1 code and message with out a separate tensor of x's dtype."""
    code, _, ex = p1(api, dev.tensor(x), s, dev.tensor(np.zeros_like(x)))
    msg = aclGetRecentErrMsg()
    if code == 0:
        aclDestroyAclOpExecutor(ex.value)
    return code, msg


@pytest.mark.parametrize("api", SCALAR_APIS)
@pytest.mark.parametrize("chip", CHIPS)
def test_every_dtype_per_chip_scalar(chip_dev, scalars, api, chip):
    """selfRef and the scalar of every dtype: the in-place call accepts exactly what the twin
    accepts with out of selfRef's dtype, with the same code and message; the numbers against the
    goldens, in selfRef's dtype."""
    dev = chip_dev(chip)
    for dt in map(np.dtype, TS.ALL):
        x, sv = TS._values(dt)
        s = scalars(sv, int(ACL_OF[dt]))
        twin = _twin_outcome(dev, api, x, s)
        t = dev.tensor(x)
        code, ws, ex = p1(f"Inplace{api}", t, s)
        assert (code, aclGetRecentErrMsg()) == twin, (api, chip, dt)
        if code != 0:
            assert code == ACLNN_ERR_PARAM_INVALID and ex.value is None
            continue
        phase2 = getattr(aclnn_py, f"aclnnInplace{api}")
        assert phase2(dev.workspace(ws.value), ws.value, ex.value, dev.stream) == 0
        if chip == "Ascend310P" and api == "EqScalar" and dt == BF16:
            # the twin's own case: no BFLOAT16 Equal on this chip's AI Core nor its AI CPU
            assert aclnn_py.aclrtSynchronizeStream(dev.stream) == aclnn_py.ACL_ERROR_RT_AICPU_EXCEPTION
            assert "the AI CPU Equal kernel has no implementation for bfloat16" in aclGetRecentErrMsg()
            continue
        got = dev.read(t)
        assert same_bits(got, as_result(G.compare(OP[api], x, np.array(sv, dt)), dt)), (api, chip, dt, got)


def test_a_selfref_of_an_unlisted_out_dtype_is_refused_as_out(dev, scalars):
    """A UINT16 selfRef: the twins check it as out (Eq, Ne off Ascend950: the input list)."""
    u16 = dev.tensor(np.ones(4, np.uint16))
    assert p1("InplaceEqScalar", u16, scalars(1.0))[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == (
        f"{PREFIX}Tensor self not implemented for DT_UINT16, should be in dtype support list {TS.lst(TS.EQ_910B)}.\n"
    )
    f = dev.tensor(np.ones(4, np.float32))
    assert p1("InplaceLeTensor", dev.tensor(np.ones(4, np.complex64)), f)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == (
        f"{PREFIX}Tensor self not implemented for DT_COMPLEX64, should be in dtype support list {TT.lst(TT.LE_910B)}.\n"
    )


# -- null arguments -----------------------------------------------------------------------------------


def _null_msg(name: str, kind: str = "aclTensor") -> str:
    return f"Expected a value of type [{kind}] for argument [{name}] but instead found nullptr."


def test_inplace_eq_tensor_null_arguments_are_reported_twice(dev):
    """CheckInplace's OP_CHECK_NULL returns ``false`` (ACLNN_SUCCESS): the call goes on and
    aclnnEqTensor's own check reports the null argument again (under its own name: self)."""
    f = dev.tensor(np.ones(4, np.float32))
    code, ws, ex = p1("InplaceEqTensor", None, f)
    assert code == ACLNN_ERR_PARAM_NULLPTR and ws.value == 0 and ex.value is None
    assert aclGetRecentErrMsg() == (
        f"{PREFIX}{_null_msg('selfRef')}\nTraceBack (most recent call last):\n        {_null_msg('self')}\n"
    )
    assert p1("InplaceEqTensor", f, None)[0] == ACLNN_ERR_PARAM_NULLPTR
    assert aclGetRecentErrMsg() == f"{PREFIX}{_null_msg('other')}\n"  # the same report twice is kept once
    assert p1("InplaceEqTensor", None, None)[0] == ACLNN_ERR_PARAM_NULLPTR  # selfRef only, then self
    assert aclGetRecentErrMsg() == (
        f"{PREFIX}{_null_msg('selfRef')}\nTraceBack (most recent call last):\n        {_null_msg('self')}\n"
    )


@pytest.mark.parametrize("api", [a for a in TENSOR_APIS if a != "EqTensor"])
def test_null_tensor_arguments(dev, api):
    f = dev.tensor(np.ones(4, np.float32))
    for args, name in (((None, f), "self"), ((f, None), "other")):
        code, ws, ex = p1(f"Inplace{api}", *args)
        assert code == ACLNN_ERR_PARAM_NULLPTR and ws.value == 0 and ex.value is None
        assert aclGetRecentErrMsg() == f"{PREFIX}{_null_msg(name)}\n"


@pytest.mark.parametrize("chip", ["Ascend910B", "Ascend950"])
@pytest.mark.parametrize("api", SCALAR_APIS)
def test_null_scalar_arguments(chip_dev, scalars, api, chip):
    """As the twins: aclnnLtScalar returns 561103 silently off Ascend950 (its CHECK_RET on the
    scalar path) and 161001 silently there; the others report the null argument."""
    dev = chip_dev(chip)
    f = dev.tensor(np.ones(4, np.float32))
    for args, name, kind in (((None, scalars(1.0)), "self", "aclTensor"), ((f, None), "other", "aclScalar")):
        code, _, ex = p1(f"Inplace{api}", *args)
        assert ex.value is None
        if api == "LtScalar":
            assert code == (ACLNN_ERR_PARAM_NULLPTR if chip == "Ascend950" else ACLNN_ERR_INNER_NULLPTR)
            assert aclGetRecentErrMsg() is None
        else:
            assert code == ACLNN_ERR_PARAM_NULLPTR
            assert aclGetRecentErrMsg() == f"{PREFIX}{_null_msg(name, kind)}\n"


@pytest.mark.parametrize("api", TENSOR_APIS + SCALAR_APIS)
def test_null_out_pointers(dev, scalars, api):
    f = dev.tensor(np.ones(4, np.float32))
    other = dev.tensor(np.ones(4, np.float32)) if api.endswith("Tensor") else scalars(1.0)
    fn = getattr(aclnn_py, f"aclnnInplace{api}GetWorkspaceSize")
    assert fn(f, other, None, Ref()) == ACLNN_ERR_PARAM_NULLPTR
    assert aclGetRecentErrMsg() == f"{PREFIX}executor or workspaceSize is nullptr\n"


# -- shapes: other broadcast into selfRef -------------------------------------------------------------

SHAPE_TEXT = {
    # selfRef [3], other [2, 3]: the broadcast shape [2, 3] is not selfRef's
    "EqTensor": "Expected shape of selfRef should be [2, 3], but got [3].",
    "NeTensor": "BroadcastShape [2, 3] is not equal out's shape [3].",
    "GtTensor": "BroadcastShape [2, 3] is not equal out's shape [3].",
    "GeTensor": "BroadcastShape [2, 3] is not equal out's shape [3].",
    "LtTensor": "Shape of out should be [2, 3], but current is [3].",
    "LeTensor": "BroadcastShape [2, 3] is not equal out's shape [3].",
}


@pytest.mark.parametrize("api", TENSOR_APIS)
def test_other_must_broadcast_to_selfref(dev, api):
    small = dev.tensor(np.ones(3, np.float32))
    big = dev.tensor(np.ones((2, 3), np.float32))
    assert p1(f"Inplace{api}", small, big)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == f"{PREFIX}{SHAPE_TEXT[api]}\n"


@pytest.mark.parametrize("api", TENSOR_APIS)
def test_the_broadcast_failure_names_the_operator_that_ran_l2_dfx_phase1(dev, api):
    """aclnnInplaceEqTensor's CheckInplace runs before any L2_DFX_PHASE_1 (no operator name); the
    delegating ones run their twin's (its name); the others their own."""
    t = dev.tensor(np.ones(3, np.float32))
    o = dev.tensor(np.ones(4, np.float32))
    assert p1(f"Inplace{api}", t, o)[0] == ACLNN_ERR_PARAM_INVALID
    lines = aclGetRecentErrMsg().splitlines()
    if api == "EqTensor":
        assert lines[0].startswith(
            "Invalid_Argument_Tensor_Input_Shape(EZ1007): Shape [4] of the tensor of operator  has"
        )
        assert lines[-1] == "        Shape of selfRef and other can't broadcast, got [3], [4]."
        return
    owner = f"aclnn{api}" if api in DELEGATING else f"aclnnInplace{api}"
    assert lines[0].startswith(
        f"Invalid_Argument_Tensor_Input_Shape(EZ1007): Shape [4] of the tensor of operator {owner}_"
    )
    assert lines[-1] == "        The size of tensor self [3] must match the size of tensor other [4]."


def test_selfref_of_nine_dims_is_refused_as_self(dev, scalars):
    r9 = dev.tensor(np.ones((1,) * 9, np.float32))
    for api in ("InplaceGtTensor", "InplaceNeScalar"):
        other = dev.tensor(np.ones(1, np.float32)) if api.endswith("Tensor") else scalars(1.0)
        assert p1(api, r9, other)[0] == ACLNN_ERR_PARAM_INVALID
        assert aclGetRecentErrMsg() == f"{PREFIX}The self tensor cannot be larger than 8 dimensions.\n"


@pytest.mark.parametrize("api", TENSOR_APIS)
def test_broadcast_of_other_into_selfref(dev, api):
    x = np.arange(12, dtype=np.float32).reshape(2, 2, 3) % 5
    y = np.array([[1, 3, 4]], np.float32)
    t = dev.tensor(x)
    run_inplace(dev, api, t, dev.tensor(y))
    assert same_bits(dev.read(t), as_result(G.compare(OP[api], x, y), np.dtype(np.float32)))


# -- the executor: whose it is, which phase 2 runs it -------------------------------------------------


@pytest.mark.parametrize("api", TENSOR_APIS + SCALAR_APIS)
def test_the_executor_belongs_to_the_api_that_ran_l2_dfx_phase1(dev, scalars, findings, api):
    t = dev.tensor(np.array([1.0, 2.0, 3.0], np.float32))
    other = dev.tensor(np.array([2.0, 2.0, 2.0], np.float32)) if api.endswith("Tensor") else scalars(2.0)
    code, ws, ex = p1(f"Inplace{api}", t, other)
    assert code == 0
    owner = f"aclnn{api}" if api in DELEGATING else f"aclnnInplace{api}"
    assert ex.value.api == owner
    if api in DELEGATING:  # the twin's phase 2 runs it as well
        assert getattr(aclnn_py, f"aclnn{api}")(dev.workspace(ws.value), ws.value, ex.value, dev.stream) == 0
    else:  # the out-of-place phase 2 runs it too (CANN does not check), named by the sanitizer
        assert getattr(aclnn_py, f"aclnn{api}")(dev.workspace(ws.value), ws.value, ex.value, dev.stream) == 0
        assert findings.refresh().checks() == ["usage"]
        assert f"was given an executor built by aclnnInplace{api}GetWorkspaceSize" in findings[0][1]
    want = G.compare(OP[api], np.array([1.0, 2.0, 3.0], np.float32), np.float32(2.0))
    assert dev.read(t).tolist() == as_result(want, np.dtype(np.float32)).tolist()


def test_the_graph_casts_the_bool_result_back_to_selfref(dev, scalars):
    h = dev.tensor(np.array([0.5, 1.0, -2.0], np.float16))
    code, _, ex = p1("InplaceGeScalar", h, scalars(1.0))
    assert code == 0
    names = [s.name for s in ex.value.steps]
    assert names[-2:] == ["Cast", "ViewCopy"]
    cast = ex.value.steps[-2]
    assert cast.inputs[0].dtype == D.DT_BOOL and cast.attrs["dst_type"] == "DT_FLOAT16"
    aclDestroyAclOpExecutor(ex.value)


# -- views, empty, 0-d, aliasing ------------------------------------------------------------------------


@pytest.mark.parametrize("api", TENSOR_APIS + SCALAR_APIS)
def test_a_strided_selfref_is_written_through_its_view(dev, scalars, api):
    """selfRef a transposed view with an offset on a larger storage: the view's elements get the
    result, the storage's other elements keep their bytes."""
    storage = np.arange(14, dtype=np.float32) - 4  # elements 0 and 13 lie outside the view
    view = storage[1:13].reshape(3, 4).T  # shape (4, 3), strides (1, 4), offset 1
    t = dev.strided(storage, (4, 3), (1, 4), 1)
    if api.endswith("Tensor"):
        y = np.array([0.0, 2.0, 5.0], np.float32)
        run_inplace(dev, api, t, dev.tensor(y))
    else:
        y = np.float32(2.0)
        run_inplace(dev, api, t, scalars(2.0))
    want = storage.copy()
    want[1:13].reshape(3, 4).T[...] = as_result(G.compare(OP[api], view, np.asarray(y)), np.dtype(np.float32))
    assert dev.read(t).tolist() == want[1:13].reshape(3, 4).T.tolist()
    raw = np.zeros(14, np.float32)  # the whole storage
    assert aclrtMemcpy(raw, raw.nbytes, t.storage.addr, raw.nbytes, ACL_MEMCPY_DEVICE_TO_HOST) == 0
    assert same_bits(raw, want)


@pytest.mark.parametrize("api", TENSOR_APIS + SCALAR_APIS)
def test_empty_selfref(dev, scalars, api):
    e = dev.tensor(np.ones((2, 0), np.float32))
    other = dev.tensor(np.ones((1, 0), np.float32)) if api.endswith("Tensor") else scalars(1.0)
    code, ws, ex = p1(f"Inplace{api}", e, other)
    assert code == 0 and ws.value == 0 and not ex.value.launches
    assert getattr(aclnn_py, f"aclnnInplace{api}")(None, 0, ex.value, dev.stream) == 0


def test_empty_shortcut_comes_first_for_ne_and_le_tensor(dev):
    """Their twins test emptiness before the dtype and shape checks: a STRING selfRef passes."""
    s = dev.tensor(np.ones((2, 0), np.uint16), acl_dtype=int(D.DT_STRING))
    f = dev.tensor(np.ones((2, 0), np.float32))
    for api in TENSOR_APIS:
        code, _, ex = p1(f"Inplace{api}", s, f)
        assert (code == 0) == (api in ("NeTensor", "LeTensor")), api
        if code == 0:
            aclDestroyAclOpExecutor(ex.value)


@pytest.mark.parametrize("api", TENSOR_APIS + SCALAR_APIS)
def test_zero_d_selfref(dev, scalars, api):
    t = dev.tensor(np.array(3, np.int32))
    other = dev.tensor(np.array(3, np.int32)) if api.endswith("Tensor") else scalars(3, ACL_INT64)
    run_inplace(dev, api, t, other)
    got = dev.read(t)
    assert got.shape == () and got.dtype == np.int32
    assert int(got) == int(api[:2] in ("Eq", "Ge", "Le"))


@pytest.mark.parametrize("api", TENSOR_APIS)
def test_selfref_passed_as_other_too(dev, api):
    x = np.array([1.5, -0.0, np.nan, np.inf], np.float32)
    t = dev.tensor(x)
    run_inplace(dev, api, t, t)
    assert same_bits(dev.read(t), as_result(G.compare(OP[api], x, x), np.dtype(np.float32)))


# -- numbers, bit for bit -------------------------------------------------------------------------------


FLOAT_CASES = [
    pytest.param(chip, dt, id=f"{chip}-{name}")
    for chip in ("Ascend910B", "Ascend950", "Ascend910")
    for dt, name in ((np.float32, "f32"), (np.float16, "f16"), (BF16, "bf16"))
    if not (chip == "Ascend910" and dt == BF16)  # refused there (tested with every dtype above)
]


@pytest.mark.parametrize("chip,dtype", FLOAT_CASES)
def test_float_specials_bit_for_bit(chip_dev, scalars, chip, dtype):
    """NaN, infinities, signed zeros, subnormals: each result is +0.0 or 1.0 in selfRef's dtype."""
    dev = chip_dev(chip)
    x = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-39, -1e-39, 1.0, 0.25, -3.0], np.float32).astype(dtype)
    y = np.array([-0.0, 0.0, np.inf, np.inf, np.nan, 0.0, -1e-39, 1.0, 0.5, -4.0], np.float32).astype(dtype)
    dt = np.dtype(dtype)
    for api in TENSOR_APIS:
        t = dev.tensor(x)
        run_inplace(dev, api, t, dev.tensor(y))
        assert same_bits(dev.read(t), as_result(G.compare(OP[api], x, y), dt)), (chip, api)
    for api in SCALAR_APIS:
        for sv in (0.0, -0.0, float("inf"), float("nan"), 0.25):
            t = dev.tensor(x)
            run_inplace(dev, api, t, scalars(sv, int(ACL_OF[dt])))
            ref = np.array(sv, dt)
            assert same_bits(dev.read(t), as_result(G.compare(OP[api], x, ref), dt)), (chip, api, sv)


def test_integer_extremes(dev, scalars):
    info = np.iinfo(np.int64)
    x = np.array([info.min, info.max, 0, -1], np.int64)
    y = np.array([info.max, info.max, 0, 1], np.int64)
    for api in TENSOR_APIS:
        t = dev.tensor(x)
        run_inplace(dev, api, t, dev.tensor(y))
        assert dev.read(t).tolist() == as_result(G.compare(OP[api], x, y), np.dtype(np.int64)).tolist(), api
    for api in SCALAR_APIS:
        t = dev.tensor(x)
        run_inplace(dev, api, t, scalars(int(info.max), ACL_INT64))
        want = G.compare(OP[api], x, np.array(info.max, np.int64))
        assert dev.read(t).tolist() == as_result(want, np.dtype(np.int64)).tolist(), api


def test_int8_selfref_with_a_wide_scalar_keeps_int8(dev, scalars):
    """Eq/Ne compare an int8 selfRef with the INT64 scalar 300 truncated to int8 (44): the result
    is written back as int8 1/0 (the twins' promotion, in place)."""
    t = dev.tensor(np.array([44, 45], np.int8))
    run_inplace(dev, "EqScalar", t, scalars(300, ACL_INT64))
    assert dev.read(t).tolist() == [1, 0]
    t = dev.tensor(np.array([44, 45], np.int8))
    run_inplace(dev, "GtScalar", t, scalars(300, ACL_INT64))  # compared in INT64: 44 > 300 is false
    assert dev.read(t).tolist() == [0, 0]


# -- the functional wrappers ----------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["eq", "ne", "gt", "ge", "lt", "le"])
def test_functional_inplace_wrappers(name):
    x = np.array([[1.0, 2.0, 3.0], [4.0, 2.0, 0.0]], np.float32)
    y = np.array([2.0, 2.0, 3.0], np.float32)
    op = OP[f"{name.capitalize()}Tensor"]
    a = x.copy()
    assert getattr(F, f"inplace_{name}_tensor")(a, y) is a
    assert same_bits(a, as_result(G.compare(op, x, y), np.dtype(np.float32)))
    b = x.astype(np.int32)
    assert getattr(F, f"inplace_{name}_scalar")(b, 2) is b
    assert (
        b.tolist() == as_result(G.compare(op, x.astype(np.int64), np.array(2, np.int64)), np.dtype(np.int32)).tolist()
    )
    z = np.array(2.0, np.float32)
    assert getattr(F, f"inplace_{name}_scalar")(z, 2.0).shape == ()


def test_functional_inplace_failure_is_an_aclnn_error():
    a = np.ones(3, np.float32)
    with pytest.raises(F.AclnnError) as err:
        F.inplace_lt_tensor(a, np.ones((2, 3), np.float32))
    assert err.value.code == ACLNN_ERR_PARAM_INVALID
    assert err.value.message == f"{PREFIX}Shape of out should be [2, 3], but current is [3].\n"
    assert a.tolist() == [1.0, 1.0, 1.0]


def test_ascend950_reads_a_strided_selfref_directly_and_writes_it_back(chip_dev, scalars):
    """GtScalar and GeTensor on Ascend950 read a strided self of the promoted dtype through its view
    (no Contiguous); in place that view is also where ViewCopy writes the result."""
    dev = chip_dev("Ascend950")
    storage = np.arange(12, dtype=np.float32)
    t = dev.strided(storage, (4, 3), (1, 4))
    code, _, ex = p1("InplaceGtScalar", t, scalars(5.0))
    assert code == 0 and [s.name for s in ex.value.steps] == ["Greater", "Cast", "ViewCopy"]
    aclDestroyAclOpExecutor(ex.value)
    run_inplace(dev, "GtScalar", t, scalars(5.0))
    view = storage.reshape(3, 4).T
    assert dev.read(t).tolist() == as_result(view > 5, np.dtype(np.float32)).tolist()
    u = dev.strided(storage, (4, 3), (1, 4))
    y = dev.tensor(np.full((4, 3), 6.0, np.float32))
    code, _, ex = p1("InplaceGeTensor", u, y)
    assert code == 0 and [s.name for s in ex.value.steps] == ["GreaterEqual", "Cast", "ViewCopy"]
    aclDestroyAclOpExecutor(ex.value)
    run_inplace(dev, "GeTensor", u, y)
    assert dev.read(u).tolist() == as_result(view >= 6, np.dtype(np.float32)).tolist()
