"""aclnnEqScalar, aclnnNeScalar, aclnnGtScalar, aclnnGeScalar, aclnnLtScalar, aclnnLeScalar: the
lists per chip (written out from the ops-math sources), every dtype through every API on every
chip with CANN's messages, each API's own check order, its own scalar promotion (five rules),
the scalar conversions (wrap, float16 rounding), aclnnLtScalar's two paths, the graph
branches, and the numbers against element-by-element goldens."""

from __future__ import annotations

import goldens_compare as G
import ml_dtypes
import numpy as np
import pytest
from helpers import ACL_OF, Dev, own

import aclnn_py
from aclnn_py import (
    ACL_BOOL,
    ACL_COMPLEX64,
    ACL_DOUBLE,
    ACL_FLOAT,
    ACL_INT8,
    ACL_INT64,
    ACL_UINT32,
    ACL_UINT64,
    ACLNN_ERR_INNER_NULLPTR,
    ACLNN_ERR_PARAM_INVALID,
    ACLNN_ERR_PARAM_NULLPTR,
    Ref,
    aclCreateScalar,
    aclDestroyAclOpExecutor,
    aclDestroyScalar,
    aclGetRecentErrMsg,
)
from aclnn_py import dtypes as D
from aclnn_py.ops.math import eq_scalar, ge_scalar, gt_scalar, le_scalar, lt_scalar, ne_scalar

BF16 = np.dtype(ml_dtypes.bfloat16)
PREFIX = "AclNN_Parameter_Error(EZ1001): "
CHIPS = ["Ascend910B", "Ascend910_93", "Ascend950", "Ascend910", "Ascend310P"]
APIS = ["EqScalar", "NeScalar", "GtScalar", "GeScalar", "LtScalar", "LeScalar"]
OP = {"EqScalar": "Equal", "NeScalar": "NotEqual", "GtScalar": "Greater", "GeScalar": "GreaterEqual",
      "LtScalar": "Less", "LeScalar": "LessEqual"}  # fmt: skip
ALL = [np.float32, np.float16, BF16, np.float64, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16,
       np.uint32, np.uint64, np.bool_, np.complex64, np.complex128]  # fmt: skip


def names(text: str) -> tuple[int, ...]:
    by_name = {D.dt_name(d).removeprefix("DT_"): d for d in range(0, 42)}
    return tuple(by_name[n] for n in text.split())


def lst(dts) -> str:
    return D.dt_list_str(dts)


EQ_910 = names("FLOAT INT32 INT64 FLOAT16 INT16 INT8 UINT8 UINT64 UINT32 BOOL DOUBLE COMPLEX64 COMPLEX128")
EQ_910B = names("FLOAT INT32 INT64 FLOAT16 INT16 INT8 UINT8 BOOL DOUBLE COMPLEX64 COMPLEX128 BFLOAT16")
EQ_950 = (*EQ_910B, *names("UINT64"))
OUT_950 = names("FLOAT INT32 INT64 FLOAT16 INT16 INT8 UINT8 DOUBLE UINT32 UINT64 BOOL UINT16 COMPLEX64 COMPLEX128 "
                "BFLOAT16")  # fmt: skip
NE_910 = names("FLOAT INT32 INT64 FLOAT16 INT16 INT8 UINT8 BOOL DOUBLE COMPLEX64 COMPLEX128")
NE_910B = (*NE_910, *names("BFLOAT16"))
NE_950 = (*NE_910B, *names("UINT64"))
GT_910 = names("FLOAT INT32 INT64 FLOAT16 INT16 INT8 UINT8 DOUBLE UINT64 UINT16 UINT32 BOOL")
GT_910B = (*GT_910, *names("BFLOAT16"))
GT_OUT_910 = (*GT_910, *names("COMPLEX64 COMPLEX128"))
GT_OUT_910B = (*GT_OUT_910, *names("BFLOAT16"))
GE_910 = names("FLOAT INT32 FLOAT16 INT8 DOUBLE INT16 INT64 UINT64 UINT32 UINT16 UINT8")
GE_910B = (*GE_910, *names("BFLOAT16"))
GE_950 = (*GE_910, *names("BOOL BFLOAT16"))
GE_OUT = names("FLOAT INT32 FLOAT16 INT8 DOUBLE INT16 INT64 UINT64 UINT32 UINT16 UINT8 COMPLEX128 COMPLEX64 BOOL "
               "BFLOAT16")  # fmt: skip
LT_910 = names("FLOAT INT32 INT64 FLOAT16 INT16 INT8 UINT8 DOUBLE UINT32 UINT64 BOOL UINT16")
LT_910B = (*LT_910, *names("BFLOAT16"))
LT_OUT_910B = names("INT64 UINT64 INT32 UINT32 INT16 UINT16 INT8 UINT8 DOUBLE FLOAT FLOAT16 BFLOAT16 BOOL COMPLEX128 "
                    "COMPLEX64")  # fmt: skip
LE_910 = names("INT8 UINT8 INT16 UINT16 INT32 INT64 FLOAT16 FLOAT DOUBLE BOOL")
LE_910B = (*LE_910, *names("BFLOAT16"))
LE_950 = (*LE_910B, *names("UINT64"))

LISTS = {
    "EqScalar": {"Ascend910B": (EQ_910B, EQ_910B), "Ascend950": (EQ_950, OUT_950), "Ascend910": (EQ_910, EQ_910),
                 "Ascend310P": (EQ_910B, EQ_910B)},
    "NeScalar": {"Ascend910B": (NE_910B, NE_910B), "Ascend950": (NE_950, OUT_950), "Ascend910": (NE_910, NE_910),
                 "Ascend310P": (NE_910, NE_910)},
    "GtScalar": {"Ascend910B": (GT_910B, GT_OUT_910B), "Ascend950": (GT_910B, GT_OUT_910B),
                 "Ascend910": (GT_910, GT_OUT_910), "Ascend310P": (GT_910, GT_OUT_910)},
    "GeScalar": {"Ascend910B": (GE_910B, GE_OUT), "Ascend950": (GE_950, GE_OUT), "Ascend910": (GE_910, GE_OUT),
                 "Ascend310P": (GE_910, GE_OUT)},
    "LtScalar": {"Ascend910B": (LT_910B, LT_910B), "Ascend950": (LT_910B, LT_OUT_910B), "Ascend910": (LT_910, LT_910),
                 "Ascend310P": (LT_910, LT_910)},
    "LeScalar": {"Ascend910B": (LE_910B, LE_910B), "Ascend950": (LE_950, OUT_950), "Ascend910": (LE_910, LE_910),
                 "Ascend310P": (LE_910, LE_910)},
}  # fmt: skip
MODULES = {"EqScalar": eq_scalar, "NeScalar": ne_scalar, "GtScalar": gt_scalar, "GeScalar": ge_scalar,
           "LtScalar": lt_scalar, "LeScalar": le_scalar}  # fmt: skip


def family(chip: str) -> str:
    return "Ascend910B" if chip == "Ascend910_93" else chip


def p1(api: str, *args):
    ws, ex = Ref(0), Ref()
    return getattr(aclnn_py, f"aclnn{api}GetWorkspaceSize")(*args, ws, ex), ws, ex


def launches(ex) -> list[str]:
    return [f"{ln.op_type}{'@AiCpu' if ln.engine == 'AiCpu' else ''}" for ln in ex.launches]


def compute_dtype(ex, api: str) -> str:
    step = next(s for s in ex.steps if s.name == OP[api])
    dts = {D.dt_name(t.dtype) for t in step.inputs}
    assert len(dts) == 1, dts
    return dts.pop()


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


@pytest.fixture
def scalars():
    made = []

    def make(value, dtype=ACL_FLOAT):
        s = aclCreateScalar(value, dtype)
        assert s is not None
        if not own(s, aclDestroyScalar):  # the device open now destroys it before its aclFinalize
            made.append(s)
        return s

    yield make
    for s in made:
        aclDestroyScalar(s)


@pytest.mark.parametrize("api", APIS)
@pytest.mark.parametrize("chip", CHIPS)
def test_the_lists_per_chip(api, chip):
    from aclnn_py import soc as S

    want_in, want_out = LISTS[api][family(chip)]
    with S.emulating(chip):
        fns = list(MODULES[api].DTYPE_FACTS.values())
        assert tuple(fns[0]()) == want_in
        assert tuple(fns[1]()) == want_out


# -- null arguments ----------------------------------------------------------------------------------


@pytest.mark.parametrize("api", APIS)
@pytest.mark.parametrize(
    "which,name,kind", [(0, "self", "aclTensor"), (1, "other", "aclScalar"), (2, "out", "aclTensor")]
)
def test_null_arguments(dev, scalars, api, which, name, kind):
    args = [dev.tensor(np.ones(4, np.float32)), scalars(1.0), dev.tensor(np.zeros(4, np.bool_))]
    args[which] = None
    code, ws, ex = p1(api, *args)
    if api == "LtScalar" and name != "out":  # CHECK_RET on the scalar path: 561103, nothing reported
        assert code == ACLNN_ERR_INNER_NULLPTR
        assert aclGetRecentErrMsg() is None
    else:
        assert code == ACLNN_ERR_PARAM_NULLPTR
        assert aclGetRecentErrMsg() == (
            f"{PREFIX}Expected a value of type [{kind}] for argument [{name}] but instead found nullptr.\n"
        )
    assert ws.value == 0 and ex.value is None


def test_lt_scalar_on_ascend950_returns_161001_silently_for_a_null_input(chip_dev, scalars):
    dev = chip_dev("Ascend950")
    t = dev.tensor(np.ones(4, np.float32))
    o = dev.tensor(np.zeros(4, np.bool_))
    for args in ((None, scalars(1.0), o), (t, None, o), (None, None, None)):
        assert p1("LtScalar", *args)[0] == ACLNN_ERR_PARAM_NULLPTR
        assert aclGetRecentErrMsg() is None
    assert p1("LtScalar", t, scalars(1.0), None)[0] == ACLNN_ERR_PARAM_NULLPTR
    assert (
        aclGetRecentErrMsg()
        == f"{PREFIX}Expected a value of type [aclTensor] for argument [out] but instead found nullptr.\n"
    )


@pytest.mark.parametrize("api", APIS)
def test_null_out_pointers_come_first(dev, api):
    fn = getattr(aclnn_py, f"aclnn{api}GetWorkspaceSize")
    assert fn(None, None, None, Ref(0), None) == ACLNN_ERR_PARAM_NULLPTR
    assert aclGetRecentErrMsg() == f"{PREFIX}executor or workspaceSize is nullptr\n"


# -- every dtype ---------------------------------------------------------------------------------


def _values(dt) -> tuple[np.ndarray, object]:
    """A tensor and a scalar of one dtype (the scalar equals element 3)."""
    dt = np.dtype(dt)
    if dt == np.bool_:
        return np.array([0, 1, 1, 1, 0, 0], bool), True
    x = np.array([0, 1, 2, 3, 4, 5]).astype(dt)
    if dt.kind == "c":
        x = x + np.array([0, 1j, 0, 2j, 0, 0]).astype(dt)
    return x, x[3]


def _promote_eq_ne(chip: str, a: int, s: int) -> int:
    """Eq/Ne's PromoteTypeScalar (written independently of the module)."""
    floating = {D.DT_FLOAT, D.DT_FLOAT16, D.DT_BF16, D.DT_DOUBLE}
    complex_ = {D.DT_COMPLEX64, D.DT_COMPLEX128}
    if chip == "Ascend950":
        if a in complex_ or a in floating:
            if s in complex_ and a in floating:
                return {D.DT_FLOAT16: D.DT_COMPLEX64, D.DT_BF16: D.DT_COMPLEX64, D.DT_FLOAT: D.DT_COMPLEX64,
                        D.DT_DOUBLE: D.DT_COMPLEX128}[a]  # fmt: skip
            return a
        if s in complex_:
            return D.DT_COMPLEX64
        if a == D.DT_BOOL or s in floating:
            return D.promote_type(a, D.DT_FLOAT if s in floating else s)
        return a
    if a in complex_ or (a in floating and s not in complex_):
        return a
    if a == D.DT_BOOL or s in floating or s in complex_:
        return D.promote_type(a, s)
    return a


def expected_rejection(api: str, chip: str, dt: np.dtype) -> str | None:
    """The message for self = scalar dtype = ``dt``, out BOOL (None: accepted)."""
    ins = LISTS[api][family(chip)][0]
    a = int(ACL_OF[dt])
    n = D.dt_name(a)
    regbase = chip == "Ascend950"

    def tensor_msg(arg: str, lst_) -> str:
        return f"Tensor {arg} not implemented for {n}, should be in dtype support list {lst(lst_)}."

    checks_self = api in ("EqScalar", "NeScalar", "GtScalar", "LeScalar") or (api == "LtScalar" and regbase)
    if checks_self and a not in ins:
        return tensor_msg("self", ins)
    if api == "EqScalar" and regbase:
        p = _promote_eq_ne(chip, a, a)
        if p not in ins:
            return f"promote dtype {D.dt_name(p)} should be in dtype support list [{lst(ins)}]."
    if api == "NeScalar" and regbase and _promote_eq_ne(chip, a, a) not in ins:
        return f"promote dtype {D.dt_name(a)} should be in dtype support list [{lst(ins)}]."
    if api == "GeScalar":
        if regbase and a not in ins:
            return tensor_msg("self", ins)
        p = D.DT_INT8 if a == D.DT_BOOL else a
        if p not in ins and not (p == D.DT_BF16 and chip != "Ascend910" and chip != "Ascend310P"):
            return (f"aclnnGeScalar not implemented for input dtype {D.dt_name(p)},should be in dtype support list "
                    f"{lst(ins)}.")  # fmt: skip
    if api == "LtScalar" and not regbase and a not in ins:  # the converted scalar has self's dtype: self first
        return tensor_msg("self", ins)
    return None


@pytest.mark.parametrize("api", APIS)
@pytest.mark.parametrize("chip", CHIPS)
def test_every_dtype_per_chip(chip_dev, scalars, api, chip):
    dev = chip_dev(chip)
    for dt in map(np.dtype, ALL):
        x, sv = _values(dt)
        s = scalars(sv, int(ACL_OF[dt]))
        t, o = dev.tensor(x), dev.tensor(np.zeros(6, np.bool_))
        code, ws, ex = p1(api, t, s, o)
        want = expected_rejection(api, chip, dt)
        if want is not None:
            assert code == ACLNN_ERR_PARAM_INVALID, (api, chip, dt)
            assert aclGetRecentErrMsg() == f"{PREFIX}{want}\n", (api, chip, dt)
            continue
        assert code == 0, (api, chip, dt, aclGetRecentErrMsg())
        assert getattr(aclnn_py, f"aclnn{api}")(dev.workspace(ws.value), ws.value, ex.value, dev.stream) == 0
        if chip == "Ascend310P" and api == "EqScalar" and dt == BF16:
            # the 910B list on this chip, but no BFLOAT16 Equal: neither on its AI Core nor in the
            # AI CPU kernel, whose task fails on the stream
            assert aclnn_py.aclrtSynchronizeStream(dev.stream) == aclnn_py.ACL_ERROR_RT_AICPU_EXCEPTION
            assert "the AI CPU Equal kernel has no implementation for bfloat16" in aclGetRecentErrMsg()
            continue
        want_values = G.compare(OP[api], x, np.array(sv, dt))
        assert (dev.read(o) == want_values).all(), (api, chip, dt)


# -- each API's own checks -------------------------------------------------------------------------


def test_eq_ne_check_the_scalar_and_out(dev, scalars):
    f = dev.tensor(np.ones(4, np.float32))
    o = dev.tensor(np.zeros(4, np.bool_))
    for api, ins in (("EqScalar", EQ_910B), ("NeScalar", NE_910B)):
        assert p1(api, f, scalars(1, ACL_UINT32), o)[0] == ACLNN_ERR_PARAM_INVALID
        assert aclGetRecentErrMsg() == (
            f"{PREFIX}Tensor other not implemented for DT_UINT32, should be in dtype support list {lst(ins)}.\n"
        )
        assert p1(api, f, scalars(1.0), dev.tensor(np.zeros(4, np.uint16)))[0] == ACLNN_ERR_PARAM_INVALID
        assert aclGetRecentErrMsg() == (
            f"{PREFIX}Tensor out not implemented for DT_UINT16, should be in dtype support list {lst(ins)}.\n"
        )


def test_eq_scalar_checks_plain_promotion_off_ascend950(chip_dev, scalars):
    """Ascend910: UINT64 self with an INT8 scalar cannot PromoteType, although the graph's
    PromoteTypeScalar (self's dtype) would run; NeScalar has no UINT64."""
    dev = chip_dev("Ascend910")
    u = dev.tensor(np.ones(4, np.uint64))
    assert p1("EqScalar", u, scalars(1, ACL_INT8), dev.tensor(np.zeros(4, np.bool_)))[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == f"{PREFIX}Self dtype DT_UINT64 and other dtype DT_INT8 can not promote dtype.\n"


def test_eq_scalar_on_ascend950_checks_the_list_before_undefined(chip_dev, scalars):
    dev = chip_dev("Ascend950")
    b = dev.tensor(np.ones(4, np.bool_))
    o = dev.tensor(np.zeros(4, np.bool_))
    assert p1("EqScalar", b, scalars(1, ACL_UINT64), o)[0] == ACLNN_ERR_PARAM_INVALID
    assert (
        aclGetRecentErrMsg() == f"{PREFIX}promote dtype DT_UNDEFINED should be in dtype support list [{lst(EQ_950)}].\n"
    )
    assert p1("NeScalar", b, scalars(1, ACL_UINT64), o)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == f"{PREFIX}Self dtype DT_BOOL and other dtype DT_UINT64 can not promote dtype.\n"


def test_ge_scalar_never_checks_the_scalar_and_off_ascend950_not_self(dev, scalars):
    o = dev.tensor(np.zeros(4, np.bool_))
    i = dev.tensor(np.array([1, 2, 3, 4], np.int32))
    # a complex scalar: no list check; the promotion leaves the list
    assert p1("GeScalar", i, scalars(1, ACL_COMPLEX64), o)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == (
        f"{PREFIX}aclnnGeScalar not implemented for input dtype DT_COMPLEX64,should be in dtype support list {lst(GE_910B)}.\n"
    )
    f = dev.tensor(np.ones(4, np.float32))
    assert p1("GeScalar", f, scalars(1, ACL_UINT32), o)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == f"{PREFIX}Self dtype DT_FLOAT and other dtype DT_UINT32 can not promote dtype.\n"
    assert (
        p1("GeScalar", f, scalars(1.0), dev.tensor(np.zeros(4, np.complex64), acl_dtype=int(D.DT_STRING)))[0] == 161002
    )
    assert aclGetRecentErrMsg() == (
        f"{PREFIX}aclnnGeScalar not implemented for out dtype DT_STRING,should be in dtype support list {lst(GE_OUT)}.\n"
    )
    # a UINT32 self with a UINT32 scalar is fine: GreaterEqual on the AI CPU
    u = dev.tensor(np.array([1, 5, 3, 9], np.uint32))
    code, _, ex = p1("GeScalar", u, scalars(3, ACL_UINT32), o)
    assert code == 0 and launches(ex.value) == ["GreaterEqual@AiCpu"]
    aclDestroyAclOpExecutor(ex.value)
    run(dev, "GeScalar", u, scalars(3, ACL_UINT32), o)
    assert dev.read(o).tolist() == [False, True, True, True]


def test_gt_scalar_checks_the_scalar(dev, scalars):
    f = dev.tensor(np.ones(4, np.float32))
    assert p1("GtScalar", f, scalars(1, ACL_COMPLEX64), dev.tensor(np.zeros(4, np.bool_)))[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == (
        f"{PREFIX}Tensor other not implemented for DT_COMPLEX64, should be in dtype support list {lst(GT_910B)}.\n"
    )


def test_lt_scalar_checks_the_converted_scalar_as_a_tensor(dev, scalars):
    """Off Ascend950 the scalar is a tensor of D first: an int self with a complex scalar fails
    ``Tensor other``; a float self with a complex scalar compares with 0 (ToFloat of a complex)."""
    i = dev.tensor(np.array([1, 2], np.int32))
    o = dev.tensor(np.zeros(2, np.bool_))
    assert p1("LtScalar", i, scalars(1, ACL_COMPLEX64), o)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == (
        f"{PREFIX}Tensor other not implemented for DT_COMPLEX64, should be in dtype support list {lst(LT_910B)}.\n"
    )
    f = dev.tensor(np.array([-1.0, 0.0, 1.0], np.float32))
    o3 = dev.tensor(np.zeros(3, np.bool_))
    run(dev, "LtScalar", f, scalars(5 + 5j, ACL_COMPLEX64), o3)
    assert dev.read(o3).tolist() == [True, False, False]
    # out is checked against the input list: no COMPLEX, although the document lists it
    assert p1("LtScalar", f, scalars(1.0), dev.tensor(np.zeros(3, np.complex64)))[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == (
        f"{PREFIX}Tensor out not implemented for DT_COMPLEX64, should be in dtype support list {lst(LT_910B)}.\n"
    )
    u16 = dev.tensor(np.ones(2, np.uint16))
    assert p1("LtScalar", u16, scalars(1, ACL_INT8), o)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == f"{PREFIX}Self dtype DT_UINT16 and other dtype DT_INT8 can not promote dtype.\n"


def test_lt_scalar_on_ascend950(chip_dev, scalars):
    dev = chip_dev("Ascend950")
    f = dev.tensor(np.array([-1.0, 0.0, 1.0], np.float32))
    o = dev.tensor(np.zeros(3, np.bool_))
    assert p1("LtScalar", f, scalars(1, ACL_COMPLEX64), o)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == (
        f"{PREFIX}Tensor other not implemented for DT_COMPLEX64, should be in dtype support list {lst(LT_910B)}.\n"
    )
    u16 = dev.tensor(np.ones(3, np.uint16))
    code, _, ex = p1("LtScalar", u16, scalars(1.0, ACL_BOOL), o)
    assert code == 0 and compute_dtype(ex.value, "LtScalar") == "DT_UINT16"  # Combine keeps UINT16
    aclDestroyAclOpExecutor(ex.value)
    code, _, ex = p1("LtScalar", f, scalars(1.0), dev.tensor(np.zeros(3, np.complex64)))
    assert code == 0 and aclDestroyAclOpExecutor(ex.value) == 0  # Ascend950's out list has COMPLEX
    assert p1("LtScalar", f, scalars(1.0), dev.tensor(np.zeros(4, np.bool_)))[0] == ACLNN_ERR_PARAM_INVALID
    assert (
        aclGetRecentErrMsg()
        == f"{PREFIX}Expected tensor for self to have same size as tensor for out, but [3] does not equal [4].\n"
    )


def test_le_scalar_messages(chip_dev, scalars):
    dev = chip_dev("Ascend910B")
    f = dev.tensor(np.ones(4, np.float32))
    assert p1("LeScalar", f, scalars(1.0), dev.tensor(np.zeros(4, np.complex64)))[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == f"{PREFIX}out dtype DT_COMPLEX64 should be in dtype support list [{lst(LE_910B)}].\n"
    u16 = dev.tensor(np.ones(4, np.uint16))
    assert p1("LeScalar", u16, scalars(8.0), dev.tensor(np.zeros(4, np.bool_)))[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == f"{PREFIX}Self dtype DT_UINT16 and other dtype DT_FLOAT can not promote dtype.\n"
    assert p1("LeScalar", f, scalars(1.0), dev.tensor(np.zeros((2, 3), np.bool_)))[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == f"{PREFIX}self shape is different with out shape, self [[4]], out [[2, 3]].\n"
    dev = chip_dev("Ascend950")
    u64 = dev.tensor(np.ones(4, np.uint64))
    for t, s, dt in (
        (u64, scalars(1, ACL_INT8), "DT_UINT64"),
        (dev.tensor(np.ones(4, np.int8)), scalars(1, ACL_UINT64), "DT_INT8"),
    ):
        code, _, ex = p1("LeScalar", t, s, dev.tensor(np.zeros(4, np.bool_)))
        assert code == 0 and compute_dtype(ex.value, "LeScalar") == dt  # Combine keeps self's integral dtype
        aclDestroyAclOpExecutor(ex.value)


SHAPE_TEXT = {
    "EqScalar": "Expected tensor for out to have same size as tensor for self, but [2, 3] does not equal [3, 2].",
    "NeScalar": "Expected tensor for self to have same size as tensor for out, but [3, 2] does not equal [2, 3].",
    "GtScalar": "Expected tensor for out to have same size as tensor for self, but [2, 3] does not equal [3, 2].",
    "GeScalar": "Expected tensor for out to have same size as tensor for self, but [2, 3] does not equal [3, 2].",
    "LtScalar": "Shape of out should be [3, 2], but current is [2, 3].",
    "LeScalar": "self shape is different with out shape, self [[3, 2]], out [[2, 3]].",
}


@pytest.mark.parametrize("api", APIS)
def test_shape_rows(dev, scalars, api):
    f = dev.tensor(np.ones((3, 2), np.float32))
    r9 = dev.tensor(np.ones((1,) * 9, np.float32))
    b9 = dev.tensor(np.zeros((1,) * 9, np.bool_))
    assert p1(api, r9, scalars(1.0), b9)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == f"{PREFIX}The self tensor cannot be larger than 8 dimensions.\n"
    one = dev.tensor(np.ones((1,) * 8, np.float32))
    assert p1(api, one, scalars(1.0), b9)[0] == ACLNN_ERR_PARAM_INVALID
    if api == "LtScalar":  # the tensor path: the 0-d other is checked, not out
        assert aclGetRecentErrMsg() == (
            f"{PREFIX}Shape of out should be [1, 1, 1, 1, 1, 1, 1, 1], but current is [1, 1, 1, 1, 1, 1, 1, 1, 1].\n"
        )
    else:
        assert aclGetRecentErrMsg() == f"{PREFIX}The out tensor cannot be larger than 8 dimensions.\n"
    assert p1(api, f, scalars(1.0), dev.tensor(np.zeros((2, 3), np.bool_)))[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == f"{PREFIX}{SHAPE_TEXT[api]}\n"


@pytest.mark.parametrize("api", APIS)
def test_empty_self(dev, scalars, api):
    e = dev.tensor(np.ones((2, 0), np.float32))
    code, ws, ex = p1(api, e, scalars(1.0), dev.tensor(np.zeros((2, 0), np.bool_)))
    assert code == 0 and ws.value == 0 and not ex.value.launches
    assert getattr(aclnn_py, f"aclnn{api}")(None, 0, ex.value, dev.stream) == 0
    # the shapes are checked first: an empty self with another out shape fails
    assert p1(api, e, scalars(1.0), dev.tensor(np.zeros((2, 3), np.bool_)))[0] == ACLNN_ERR_PARAM_INVALID


# -- the promotion of a scalar: five rules --------------------------------------------------------

PROMOTIONS = [
    # chip, self dtype, scalar (value, dtype), {api: compute dtype}
    ("Ascend910B", np.int8, (300, ACL_INT64),
     {"EqScalar": "DT_INT8", "NeScalar": "DT_INT8", "GtScalar": "DT_INT64", "GeScalar": "DT_INT64",
      "LtScalar": "DT_INT64", "LeScalar": "DT_INT64"}),
    ("Ascend950", np.int8, (300, ACL_INT64),
     {"EqScalar": "DT_INT8", "NeScalar": "DT_INT8", "GtScalar": "DT_INT8", "GeScalar": "DT_INT8",
      "LtScalar": "DT_INT8", "LeScalar": "DT_INT8"}),
    ("Ascend910B", np.float16, (0.1, ACL_FLOAT),
     {"EqScalar": "DT_FLOAT16", "NeScalar": "DT_FLOAT16", "GtScalar": "DT_FLOAT", "GeScalar": "DT_FLOAT",
      "LtScalar": "DT_FLOAT16", "LeScalar": "DT_FLOAT16"}),
    ("Ascend950", np.float16, (0.1, ACL_DOUBLE),
     {"EqScalar": "DT_FLOAT16", "NeScalar": "DT_FLOAT16", "GtScalar": "DT_FLOAT16", "GeScalar": "DT_FLOAT16",
      "LtScalar": "DT_FLOAT16", "LeScalar": "DT_FLOAT16"}),
    ("Ascend910B", np.float16, (0.1, ACL_DOUBLE),
     {"EqScalar": "DT_FLOAT16", "NeScalar": "DT_FLOAT16", "GtScalar": "DT_DOUBLE", "GeScalar": "DT_DOUBLE",
      "LtScalar": "DT_FLOAT16", "LeScalar": "DT_FLOAT16"}),
    ("Ascend910B", np.float16, (3.5, ACL_DOUBLE),
     {"GtScalar": "DT_FLOAT16", "GeScalar": "DT_FLOAT16"}),
    ("Ascend910B", np.float32, (0.1, ACL_DOUBLE),
     {"EqScalar": "DT_FLOAT", "GtScalar": "DT_FLOAT", "GeScalar": "DT_FLOAT", "LtScalar": "DT_FLOAT"}),
    ("Ascend910B", np.float32, (float("nan"), ACL_DOUBLE), {"GtScalar": "DT_DOUBLE", "GeScalar": "DT_DOUBLE"}),
    ("Ascend910B", BF16, (1e-9, ACL_DOUBLE), {"GtScalar": "DT_BFLOAT16", "GeScalar": "DT_BFLOAT16"}),
    ("Ascend910B", np.int32, (2.5, ACL_DOUBLE),
     {"EqScalar": "DT_DOUBLE", "NeScalar": "DT_DOUBLE", "GtScalar": "DT_DOUBLE", "GeScalar": "DT_DOUBLE",
      "LtScalar": "DT_FLOAT", "LeScalar": "DT_FLOAT"}),
    ("Ascend950", np.int32, (2.5, ACL_DOUBLE),
     {"EqScalar": "DT_FLOAT", "NeScalar": "DT_FLOAT", "GtScalar": "DT_FLOAT", "GeScalar": "DT_FLOAT",
      "LtScalar": "DT_FLOAT", "LeScalar": "DT_FLOAT"}),
    ("Ascend910B", np.bool_, (True, ACL_BOOL),
     {"EqScalar": "DT_BOOL", "NeScalar": "DT_BOOL", "GtScalar": "DT_INT8", "GeScalar": "DT_INT8",
      "LtScalar": "DT_UINT8", "LeScalar": "DT_FLOAT"}),
    ("Ascend950", np.bool_, (True, ACL_BOOL),
     {"EqScalar": "DT_BOOL", "NeScalar": "DT_BOOL", "GtScalar": "DT_INT8", "GeScalar": "DT_INT8",
      "LtScalar": "DT_UINT8", "LeScalar": "DT_BOOL"}),
    ("Ascend910B", np.bool_, (2, ACL_INT64),
     {"EqScalar": "DT_INT64", "NeScalar": "DT_INT64", "GtScalar": "DT_INT64", "LtScalar": "DT_INT64",
      "LeScalar": "DT_INT64"}),
    ("Ascend910B", np.uint8, (-1, ACL_INT8),
     {"EqScalar": "DT_UINT8", "GtScalar": "DT_INT16", "LtScalar": "DT_INT16", "LeScalar": "DT_INT16"}),
    ("Ascend910B", np.int32, (1 + 1j, ACL_COMPLEX64), {"EqScalar": "DT_COMPLEX64", "NeScalar": "DT_COMPLEX64"}),
    ("Ascend950", np.float16, (1 + 1j, ACL_COMPLEX64), {"EqScalar": "DT_COMPLEX64", "NeScalar": "DT_COMPLEX64"}),
]  # fmt: skip


@pytest.mark.parametrize("chip,self_dt,scalar,want", PROMOTIONS)
def test_scalar_promotion(chip_dev, scalars, chip, self_dt, scalar, want):
    dev = chip_dev(chip)
    t = dev.tensor(np.ones(3, self_dt))
    for api, dt in want.items():
        code, _, ex = p1(api, t, scalars(*scalar), dev.tensor(np.zeros(3, np.bool_)))
        assert code == 0, (api, aclGetRecentErrMsg())
        assert compute_dtype(ex.value, api) == dt, api
        aclDestroyAclOpExecutor(ex.value)


def test_the_scalar_is_truncated_to_an_integral_self(chip_dev, scalars):
    """int8 44 against the INT64 scalar 300: Eq/Ne compare with 300 -> int8 = 44; Gt/Ge/Lt/Le
    promote to INT64 off Ascend950, but Ascend950 keeps INT8 for them all."""
    for chip, want in (
        ("Ascend910B", {"EqScalar": True, "NeScalar": False, "GtScalar": False, "GeScalar": False, "LtScalar": True,
                        "LeScalar": True}),
        ("Ascend950", {"EqScalar": True, "NeScalar": False, "GtScalar": False, "GeScalar": True, "LtScalar": False,
                       "LeScalar": True}),
    ):  # fmt: skip
        dev = chip_dev(chip)
        t = dev.tensor(np.array([44], np.int8))
        for api, value in want.items():
            o = dev.tensor(np.zeros(1, np.bool_))
            run(dev, api, t, scalars(300, ACL_INT64), o)
            assert dev.read(o).tolist() == [value], (chip, api)


def test_float16_rounding_of_the_scalar(dev, scalars):
    """fp16 self 0.1 (= 0.0999755859375) against the FLOAT scalar 0.1: Eq rounds the scalar to
    fp16 (equal); Gt compares in FLOAT (0.0999... < 0.1); Lt rounds to fp16 too (not less)."""
    t = dev.tensor(np.array([0.1, np.inf], np.float16))
    for api, want in (("EqScalar", [True, False]), ("GtScalar", [False, True]), ("LtScalar", [False, False]),
                      ("LeScalar", [True, False])):  # fmt: skip
        o = dev.tensor(np.zeros(2, np.bool_))
        run(dev, api, t, scalars(0.1), o)
        assert dev.read(o).tolist() == want, api
    o = dev.tensor(np.zeros(2, np.bool_))
    run(dev, "EqScalar", t, scalars(1e5), o)  # the scalar overflows to inf in fp16 too
    assert dev.read(o).tolist() == [False, True]


def test_gt_ge_double_scalar_rule_computes_in_double_on_the_ai_cpu(dev, scalars):
    t = dev.tensor(np.array([0.1, 0.2], np.float16))
    o = dev.tensor(np.zeros(2, np.bool_))
    code, _, ex = p1("GtScalar", t, scalars(0.1, ACL_DOUBLE), o)
    assert code == 0 and [n.split("@")[0] for n in launches(ex.value)] == ["Cast", "Greater"]
    assert launches(ex.value)[-1] == "Greater@AiCpu"
    aclDestroyAclOpExecutor(ex.value)
    run(dev, "GtScalar", t, scalars(0.1, ACL_DOUBLE), o)
    assert dev.read(o).tolist() == [False, True]  # fp16 0.09998 > 0.1 is false in double


def test_double_scalar_equality_is_relative_on_the_ai_cpu(chip_dev, scalars):
    """An int32 self with a DOUBLE scalar compares in DOUBLE: Equal runs on the AI CPU off
    Ascend950 (relative: 1000000000 equals 1000000000.5), there it runs in FLOAT (exactly)."""
    dev = chip_dev("Ascend910B")
    t = dev.tensor(np.array([1000000000, 7], np.int32))
    o = dev.tensor(np.zeros(2, np.bool_))
    run(dev, "EqScalar", t, scalars(1000000000.5, ACL_DOUBLE), o)
    assert dev.read(o).tolist() == [True, False]
    run(dev, "NeScalar", t, scalars(1000000000.5, ACL_DOUBLE), o)
    assert dev.read(o).tolist() == [False, True]


# -- graph branches ----------------------------------------------------------------------------------


def test_lt_scalar_casts_the_scalar_tensor(dev, scalars):
    """uint8 self, int8 scalar: D = INT8, P = INT16: a Cast kernel on the 0-d host tensor, and
    Less on the AI CPU."""
    t = dev.tensor(np.array([0, 200, 3], np.uint8))
    o = dev.tensor(np.zeros(3, np.bool_))
    code, _, ex = p1("LtScalar", t, scalars(-1, ACL_INT8), o)
    assert code == 0
    assert launches(ex.value) == ["Cast", "Cast", "Less@AiCpu"]
    cast_scalar = ex.value.launches[1]
    assert cast_scalar.inputs[0].storage.kind == "host" and cast_scalar.inputs[0].view_shape == ()
    aclDestroyAclOpExecutor(ex.value)
    run(dev, "LtScalar", t, scalars(5, ACL_INT8), o)
    assert dev.read(o).tolist() == [True, False, True]


def test_lt_scalar_on_ascend950_converts_to_the_promoted_dtype(chip_dev, scalars):
    dev = chip_dev("Ascend950")
    t = dev.tensor(np.array([0, 200, 3], np.uint8))
    o = dev.tensor(np.zeros(3, np.bool_))
    code, _, ex = p1("LtScalar", t, scalars(5, ACL_INT8), o)
    assert code == 0 and launches(ex.value) == ["Less"]  # Combine(UINT8, INT8) = UINT8: no cast
    assert [s.name for s in ex.value.steps] == ["Contiguous", "Cast", "Cast", "Less", "Cast", "ViewCopy"]
    aclDestroyAclOpExecutor(ex.value)


def test_gt_scalar_on_ascend950_reads_a_strided_self(chip_dev, scalars):
    dev = chip_dev("Ascend950")
    xs = np.arange(12, dtype=np.float32).reshape(3, 4)
    x = dev.strided(xs, (4, 3), (1, 4))
    o = dev.tensor(np.zeros((4, 3), np.bool_))
    code, _, ex = p1("GtScalar", x, scalars(5.0), o)
    assert code == 0 and launches(ex.value) == ["Greater"]
    assert [s.name for s in ex.value.steps] == ["Greater", "Cast", "ViewCopy"]
    aclDestroyAclOpExecutor(ex.value)
    run(dev, "GtScalar", x, scalars(5.0), o)
    assert (dev.read(o) == (xs.T > 5)).all()
    # another promoted dtype: Contiguous + Cast
    xi = dev.strided(np.arange(12, dtype=np.int32).reshape(3, 4), (4, 3), (1, 4))
    code, _, ex = p1("GtScalar", xi, scalars(5.0), o)
    assert launches(ex.value) == ["Transpose", "Cast", "Greater"]
    aclDestroyAclOpExecutor(ex.value)
    code, _, ex = p1("GeScalar", x, scalars(5.0), o)  # GeScalar has no view path
    assert launches(ex.value) == ["Transpose", "GreaterEqual"]
    aclDestroyAclOpExecutor(ex.value)


def test_non_contiguous_self_and_out(dev, scalars):
    xs = np.array([[1, 2, 3], [4, 5, 6]], np.float32)
    x = dev.strided(xs, (3, 2), (1, 3))
    o = dev.strided(np.zeros((2, 3), np.int32), (3, 2), (1, 3))
    for api in APIS:
        run(dev, api, x, scalars(3.0), o)
        want = G.compare(OP[api], xs.T, np.array(3.0, np.float32)).astype(np.int32)
        assert (dev.read(o) == want).all(), api


def test_zero_d_self(dev, scalars):
    t = dev.tensor(np.array(3, np.int32))
    for api in APIS:
        o = dev.tensor(np.array(False))
        run(dev, api, t, scalars(3, ACL_INT64), o)
        assert bool(dev.read(o)) == (api in ("EqScalar", "GeScalar", "LeScalar")), api


def test_out_may_be_self(dev, scalars):
    t = dev.tensor(np.array([1.0, 2.0, 3.0], np.float32))
    run(dev, "GeScalar", t, scalars(2.0), t)
    assert dev.read(t).tolist() == [0.0, 1.0, 1.0]


# -- numbers ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("chip", ["Ascend910B", "Ascend950"])
@pytest.mark.parametrize("dtype", [np.float32, np.float16, BF16, np.float64], ids=["f32", "f16", "bf16", "f64"])
def test_float_self_with_a_scalar_of_its_dtype(chip_dev, scalars, chip, dtype):
    dev = chip_dev(chip)
    rng = np.random.default_rng(5)
    x = (np.round(rng.standard_normal(100) * 8) / 4).astype(np.float32)
    x[:8] = [0.0, -0.0, np.inf, -np.inf, np.nan, 0.25, -0.25, 1.0]
    x = x.astype(dtype)
    t = dev.tensor(x)
    for sv in (0.25, 0.0, -0.0, float("inf"), float("nan")):
        s = scalars(sv, int(ACL_OF[np.dtype(dtype)]))
        for api in APIS:
            o = dev.tensor(np.zeros(100, np.bool_))
            run(dev, api, t, s, o)
            ref = np.array(sv, dtype)
            if dtype == np.float64 and (api == "NeScalar" or (api == "EqScalar" and chip != "Ascend950")):
                want = G.is_value_equal(x, ref)
                want = ~want if api == "NeScalar" else want
            else:
                want = G.compare(OP[api], x, ref)
            assert (dev.read(o) == want).all(), (api, sv)


def test_integer_scalars_at_the_edges(dev, scalars):
    x = np.array([-(2**31), 2**31 - 1, 0, 16777217], np.int32)
    t = dev.tensor(x)
    for sv in (-(2**31), 2**31 - 1, 16777216):
        for api in APIS:
            o = dev.tensor(np.zeros(4, np.bool_))
            run(dev, api, t, scalars(sv, ACL_INT64), o)
            assert (dev.read(o) == G.compare(OP[api], x.astype(np.int64), np.array(sv, np.int64))).all(), (api, sv)


def test_a_float_scalar_against_int32_off_ascend950(dev, scalars):
    """int32 self, FLOAT scalar: Eq/Ne PromoteType -> FLOAT (16777217 becomes 16777216.0f)."""
    t = dev.tensor(np.array([16777217, 16777216], np.int32))
    o = dev.tensor(np.zeros(2, np.bool_))
    run(dev, "EqScalar", t, scalars(16777216.0), o)
    assert dev.read(o).tolist() == [True, True]


def test_ops_math_doc_examples():
    from aclnn_py import functional as F

    a = np.arange(8, dtype=np.float64).reshape(4, 2)
    e = np.array([0, 1, 1.2, 0.3, 4.1, 5, 1.6, 7]).reshape(4, 2)
    assert F.eq_scalar(e, np.float64(1.2)).reshape(-1).tolist() == [0, 0, 1, 0, 0, 0, 0, 0]
    assert F.ne_scalar(a, np.float64(1.0), out_dtype=np.float64).reshape(-1).tolist() == [1, 0, 1, 1, 1, 1, 1, 1]
    assert F.gt_scalar(a, np.float64(3.5)).reshape(-1).tolist() == [0, 0, 0, 0, 1, 1, 1, 1]
    f = np.arange(8, dtype=np.float32).reshape(4, 2)
    assert F.ge_scalar(f, 3.5).reshape(-1).tolist() == [0, 0, 0, 0, 1, 1, 1, 1]
    assert F.lt_scalar(a, np.float64(1.2), out_dtype=np.float64).reshape(-1).tolist() == [1, 1, 0, 0, 0, 0, 0, 0]
    assert F.lt_scalar(e, np.float64(1.2)).reshape(-1).tolist() == [1, 1, 0, 1, 0, 0, 0, 0]
    assert F.le_scalar(f, 2.0, out_dtype=np.float32).reshape(-1).tolist() == [1, 1, 1, 0, 0, 0, 0, 0]
    le = F.le_scalar(e.astype(np.float32), np.float32(1.2), out_dtype=np.float32)
    assert le.reshape(-1).tolist() == [1, 1, 1, 1, 0, 0, 0, 0]


def test_uint64_scalar_on_ascend950(chip_dev, scalars):
    dev = chip_dev("Ascend950")
    t = dev.tensor(np.array([2**64 - 1, 0], np.uint64))
    o = dev.tensor(np.zeros(2, np.bool_))
    run(dev, "EqScalar", t, scalars(2**64 - 1, ACL_UINT64), o)
    assert dev.read(o).tolist() == [True, False]
    code, _, ex = p1("EqScalar", t, scalars(1, ACL_UINT64), o)
    assert code == 0 and launches(ex.value) == ["Equal"]
    aclDestroyAclOpExecutor(ex.value)


def test_an_8_bit_float_scalar(dev, scalars):
    """Off Ascend950 aclnnLtScalar converts a FLOAT8 scalar into a FLOAT8 tensor (opbase can) and
    its check refuses it; aclnnGeScalar never checks the scalar and PromoteType(INT32, FLOAT8)
    reads the zero-filled part of opbase's table: DT_FLOAT."""
    t = dev.tensor(np.array([0, 1, 2], np.int32))
    o = dev.tensor(np.zeros(3, np.bool_))
    s = scalars(1, int(D.DT_FLOAT8_E5M2))
    assert p1("LtScalar", t, s, o)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == (
        f"{PREFIX}Tensor other not implemented for DT_FLOAT8_E5M2, should be in dtype support list {lst(LT_910B)}.\n"
    )
    code, _, ex = p1("GeScalar", t, s, o)
    assert code == 0 and compute_dtype(ex.value, "GeScalar") == "DT_FLOAT"
    aclDestroyAclOpExecutor(ex.value)
