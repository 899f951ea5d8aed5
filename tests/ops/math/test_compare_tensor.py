"""aclnnEqTensor, aclnnNeTensor, aclnnGtTensor, aclnnGeTensor, aclnnLtTensor, aclnnLeTensor: the
lists per chip (written out here from the ops-math sources), every dtype through every API on
every chip with CANN's messages, the check order and wording of each API, the empty-tensor
placement, the BOOL fix-ups, the AI Core / AI CPU branches, Ascend950's 0-d promotion and
strided views, and the numbers against element-by-element goldens."""

from __future__ import annotations

import goldens_compare as G
import ml_dtypes
import numpy as np
import pytest
from helpers import ACL_OF, Dev

import aclnn_py
from aclnn_py import (
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
from aclnn_py.ops.math import eq_tensor, ge_tensor, gt_tensor, le_tensor, lt_tensor, ne_tensor

BF16 = np.dtype(ml_dtypes.bfloat16)
PREFIX = "AclNN_Parameter_Error(EZ1001): "
CHIPS = ["Ascend910B", "Ascend910_93", "Ascend950", "Ascend910", "Ascend310P"]
APIS = ["EqTensor", "NeTensor", "GtTensor", "GeTensor", "LtTensor", "LeTensor"]
OP = {"EqTensor": "Equal", "NeTensor": "NotEqual", "GtTensor": "Greater", "GeTensor": "GreaterEqual",
      "LtTensor": "Less", "LeTensor": "LessEqual"}  # fmt: skip
ALL = [np.float32, np.float16, BF16, np.float64, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16,
       np.uint32, np.uint64, np.bool_, np.complex64, np.complex128]  # fmt: skip


def names(text: str) -> tuple[int, ...]:
    """'FLOAT INT32 ...' -> the dtype codes."""
    by_name = {D.dt_name(d).removeprefix("DT_"): d for d in range(0, 42)}
    return tuple(by_name[n] for n in text.split())


def lst(dts) -> str:
    return D.dt_list_str(dts)


# -- the lists, per chip, as the sources state them ------------------------------------------------
EQ_910 = names("FLOAT INT32 INT64 FLOAT16 INT16 INT8 UINT8 UINT64 UINT32 BOOL DOUBLE COMPLEX64 COMPLEX128")
EQ_910B = names("FLOAT INT32 INT64 FLOAT16 INT16 INT8 UINT8 BFLOAT16 BOOL DOUBLE COMPLEX64 COMPLEX128")
EQ_950 = (*EQ_910B, *names("UINT64"))
OUT_950 = names("FLOAT INT32 INT64 FLOAT16 INT16 INT8 UINT8 DOUBLE UINT32 UINT64 BOOL UINT16 COMPLEX64 COMPLEX128 "
                "BFLOAT16")  # fmt: skip
NE_910 = names("FLOAT INT32 INT64 FLOAT16 INT16 INT8 UINT8 BOOL DOUBLE COMPLEX64 COMPLEX128")
NE_910B = (*NE_910, *names("BFLOAT16"))
NE_950 = (*NE_910B, *names("UINT64"))
GT_910 = names("FLOAT INT32 INT64 FLOAT16 INT16 INT8 UINT8 DOUBLE UINT32 UINT64 UINT16 BOOL")
GT_910B = names("FLOAT INT32 INT64 FLOAT16 INT16 INT8 UINT8 DOUBLE UINT32 UINT64 UINT16 BFLOAT16 BOOL")
GT_OUT_910 = names("FLOAT INT32 INT64 FLOAT16 INT16 INT8 UINT8 DOUBLE UINT32 UINT64 BOOL UINT16 COMPLEX64 COMPLEX128")
GT_OUT_910B = (*GT_OUT_910, *names("BFLOAT16"))
GE_910 = names("FLOAT INT32 FLOAT16 INT8 DOUBLE INT16 INT64 UINT64 UINT32 UINT16 UINT8")
GE_910B = (*GE_910, *names("BFLOAT16"))
GE_OUT = names("FLOAT INT32 FLOAT16 INT8 DOUBLE INT16 INT64 UINT64 UINT32 UINT16 UINT8 COMPLEX128 COMPLEX64 BOOL "
               "BFLOAT16")  # fmt: skip
LT_910 = names("FLOAT INT32 INT64 FLOAT16 INT16 INT8 UINT8 DOUBLE UINT32 UINT64 BOOL UINT16")
LT_910B = (*LT_910, *names("BFLOAT16"))
LT_OUT_910B = names("INT64 UINT64 INT32 UINT32 INT16 UINT16 INT8 UINT8 DOUBLE FLOAT FLOAT16 BFLOAT16 BOOL COMPLEX128 "
                    "COMPLEX64")  # fmt: skip
LE_910 = names("INT8 UINT8 INT16 UINT16 INT32 INT64 FLOAT16 FLOAT DOUBLE BOOL")
LE_910B = (*LE_910, *names("BFLOAT16"))
LE_950 = (*LE_910B, *names("UINT64"))

# (input list, out list) per API and chip; for Eq/Gt/Ge the input list is the promoted dtype's
LISTS = {
    "EqTensor": {"Ascend910B": (EQ_910B, EQ_910B), "Ascend950": (EQ_950, OUT_950), "Ascend910": (EQ_910, EQ_910),
                 "Ascend310P": (EQ_910, EQ_910)},
    "NeTensor": {"Ascend910B": (NE_910B, NE_910B), "Ascend950": (NE_950, OUT_950), "Ascend910": (NE_910, NE_910),
                 "Ascend310P": (NE_910, NE_910)},
    "GtTensor": {"Ascend910B": (GT_910B, GT_OUT_910B), "Ascend950": (GT_910B, GT_OUT_910B),
                 "Ascend910": (GT_910, GT_OUT_910), "Ascend310P": (GT_910, GT_OUT_910)},
    "GeTensor": {"Ascend910B": (GE_910B, GE_OUT), "Ascend950": (GE_910B, GE_OUT), "Ascend910": (GE_910, GE_OUT),
                 "Ascend310P": (GE_910, GE_OUT)},
    "LtTensor": {"Ascend910B": (LT_910B, LT_910B), "Ascend950": (LT_910B, LT_OUT_910B), "Ascend910": (LT_910, LT_910),
                 "Ascend310P": (LT_910, LT_910)},
    "LeTensor": {"Ascend910B": (LE_910B, LE_910B), "Ascend950": (LE_950, OUT_950), "Ascend910": (LE_910, LE_910),
                 "Ascend310P": (LE_910, LE_910)},
}  # fmt: skip
MODULES = {"EqTensor": eq_tensor, "NeTensor": ne_tensor, "GtTensor": gt_tensor, "GeTensor": ge_tensor,
           "LtTensor": lt_tensor, "LeTensor": le_tensor}  # fmt: skip


def family(chip: str) -> str:
    return "Ascend910B" if chip == "Ascend910_93" else chip


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
    made = []

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


# -- the module's facts are the sources' lists -----------------------------------------------------


@pytest.mark.parametrize("api", APIS)
@pytest.mark.parametrize("chip", CHIPS)
def test_the_lists_per_chip(api, chip):
    from aclnn_py import soc as S

    mod = MODULES[api]
    want_in, want_out = LISTS[api][family(chip)]
    with S.emulating(chip):
        fns = list(mod.DTYPE_FACTS.values())
        assert tuple(fns[0]()) == want_in
        assert tuple(fns[1]()) == want_out


# -- error rows ------------------------------------------------------------------------------------


@pytest.mark.parametrize("api", APIS)
@pytest.mark.parametrize("which,name", [(0, "self"), (1, "other"), (2, "out")])
def test_null_arguments_in_order(dev, api, which, name):
    args = [dev.tensor(np.ones(4, np.float32)), dev.tensor(np.ones(4, np.float32)), dev.tensor(np.zeros(4, np.bool_))]
    args[which] = None
    code, ws, ex = p1(api, *args)
    assert code == ACLNN_ERR_PARAM_NULLPTR
    assert (
        aclGetRecentErrMsg()
        == f"{PREFIX}Expected a value of type [aclTensor] for argument [{name}] but instead found nullptr.\n"
    )
    assert ws.value == 0 and ex.value is None


@pytest.mark.parametrize("api", APIS)
def test_null_out_pointers_come_first(dev, api):
    fn = getattr(aclnn_py, f"aclnn{api}GetWorkspaceSize")
    assert fn(None, None, None, None, Ref()) == ACLNN_ERR_PARAM_NULLPTR
    assert aclGetRecentErrMsg() == f"{PREFIX}executor or workspaceSize is nullptr\n"


def _values(dt) -> tuple[np.ndarray, np.ndarray]:
    dt = np.dtype(dt)
    if dt == np.bool_:
        return np.array([0, 1, 1, 0, 1, 0], bool), np.array([0, 1, 0, 1, 1, 1], bool)
    x = np.array([0, 1, 2, 3, 4, 5]).astype(dt)
    y = np.array([5, 1, 3, 3, 0, 7]).astype(dt)
    if dt.kind == "c":
        x = x + np.array([0, 1j, 0, 2j, 0, 0]).astype(dt)
        y = y + np.array([0, 1j, 0, 1j, 0, 0]).astype(dt)
    return x, y


def expected_rejection(api: str, chip: str, dt: np.dtype, out_dt: np.dtype) -> str | None:
    """The message CANN reports for self = other = ``dt`` into ``out_dt`` (None: accepted)."""
    fam = family(chip)
    ins, outs = LISTS[api][fam]
    a, o = int(ACL_OF[dt]), int(ACL_OF[out_dt])
    n, on = D.dt_name(a), D.dt_name(o)
    regbase = chip == "Ascend950"

    def tensor_msg(arg: str, dtc: int, lst_: tuple[int, ...]) -> str:
        return f"Tensor {arg} not implemented for {D.dt_name(dtc)}, should be in dtype support list {lst(lst_)}."

    if api == "EqTensor":
        if regbase and a not in ins:
            return tensor_msg("self", a, ins)
        if o not in outs:
            return tensor_msg("out", o, outs)
        if chip == "Ascend910" and a == D.DT_BF16:
            return "The current soc version does not support the DT_BF16 data type."
        if a not in ins:
            return f"Self dtype {n} and other dtype {n} get promoteType dtype {n} should be in dtype support list [{lst(ins)}]."
        return None
    if api in ("NeTensor", "LtTensor", "LeTensor"):
        if a not in ins:
            return tensor_msg("self", a, ins)
        if api == "LeTensor":
            if o not in outs and o != D.DT_BOOL:
                return f"Out dtype {on} should be in dtype support list [{lst(outs)}]."
        elif o not in outs:
            return tensor_msg("out", o, outs)
        return None
    p = D.DT_INT8 if a == D.DT_BOOL else a
    if api == "GtTensor":
        if o not in outs:
            return tensor_msg("out", o, outs)
        if chip == "Ascend910" and a == D.DT_BF16:
            return "The current soc version does not support the DT_BF16 data type."
        if p not in ins:
            return (f"Self dtype {n} and other dtype {n} get promoteType dtype {D.dt_name(p)} should be in dtype support "
                    f"list [{lst(ins)}].")  # fmt: skip
        return None
    assert api == "GeTensor"
    if o not in outs:
        return f"aclnnGeTensor not implemented for out dtype {on}."
    if p not in ins:
        return f"aclnnGeTensor not implemented for input dtype {D.dt_name(p)}."
    return None


@pytest.mark.parametrize("api", APIS)
@pytest.mark.parametrize("chip", CHIPS)
def test_every_dtype_per_chip(chip_dev, api, chip):
    """self = other = every dtype, into BOOL and into the same dtype: accepted iff the API's own
    rules say so (with its message); then the numbers."""
    dev = chip_dev(chip)
    for dt in map(np.dtype, ALL):
        x, y = _values(dt)
        for out_dt in (np.dtype(np.bool_), dt):
            tx, ty = dev.tensor(x), dev.tensor(y)
            to = dev.tensor(np.zeros(6, out_dt))
            code, ws, ex = p1(api, tx, ty, to)
            want = expected_rejection(api, chip, dt, out_dt)
            if want is not None:
                assert code == ACLNN_ERR_PARAM_INVALID, (api, chip, dt, out_dt)
                assert aclGetRecentErrMsg() == f"{PREFIX}{want}\n", (api, chip, dt, out_dt)
                continue
            assert code == 0, (api, chip, dt, out_dt, aclGetRecentErrMsg())
            assert getattr(aclnn_py, f"aclnn{api}")(dev.workspace(ws.value), ws.value, ex.value, dev.stream) == 0
            golden = G.compare(OP[api], x, y)
            got = dev.read(to)
            if out_dt == np.bool_:
                assert (got == golden).all(), (api, chip, dt)
            else:
                assert (got == golden.astype(out_dt)).all(), (api, chip, dt, out_dt)


# -- the check order and wording of each API ---------------------------------------------------------


def test_eq_checks_only_out_off_ascend950_and_promotes_then(dev):
    u32 = dev.tensor(np.ones(4, np.uint32))
    u16 = dev.tensor(np.ones(4, np.uint16))
    b = dev.tensor(np.zeros(4, np.bool_))
    # self UINT16 is not in the list, but only out is checked: the promotion fails instead
    assert p1("EqTensor", u16, u16, b)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == (
        f"{PREFIX}Self dtype DT_UINT16 and other dtype DT_UINT16 get promoteType dtype DT_UINT16 should be in dtype "
        f"support list [{lst(EQ_910B)}].\n"
    )
    assert p1("EqTensor", u16, u32, b)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == f"{PREFIX}Self dtype DT_UINT16 and other dtype DT_UINT32 can not promote dtype.\n"
    assert p1("EqTensor", b, b, u32)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == (
        f"{PREFIX}Tensor out not implemented for DT_UINT32, should be in dtype support list {lst(EQ_910B)}.\n"
    )


def test_eq_on_ascend950_checks_self_other_out(chip_dev):
    dev = chip_dev("Ascend950")
    u16 = dev.tensor(np.ones(4, np.uint16))
    f = dev.tensor(np.ones(4, np.float32))
    assert p1("EqTensor", f, u16, dev.tensor(np.zeros(4, np.bool_)))[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == (
        f"{PREFIX}Tensor other not implemented for DT_UINT16, should be in dtype support list {lst(EQ_950)}.\n"
    )
    code, _, ex = p1("EqTensor", f, f, u16)  # UINT16 is in Ascend950's out list
    assert code == 0 and aclDestroyAclOpExecutor(ex.value) == 0


@pytest.mark.parametrize("api", ["EqTensor", "GtTensor"])
def test_ascend910_refuses_bf16_inputs_but_ascend310p_does_not(chip_dev, api):
    dev = chip_dev("Ascend910")
    h = dev.tensor(np.ones(4, BF16))
    f = dev.tensor(np.ones(4, np.float32))
    assert p1(api, f, h, dev.tensor(np.zeros(4, np.bool_)))[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == f"{PREFIX}The current soc version does not support the DT_BF16 data type.\n"


def test_ascend310p_lets_a_bf16_input_through_when_the_promotion_is_float(chip_dev):
    dev = chip_dev("Ascend310P")
    h = dev.tensor(np.array([1, 2, 3], BF16))
    f = dev.tensor(np.array([1, 0, 3], np.float32))
    o = dev.tensor(np.zeros(3, np.bool_))
    for api in ("EqTensor", "GtTensor", "GeTensor"):
        code, _, ex = p1(api, h, f, o)
        assert code == 0, (api, aclGetRecentErrMsg())  # the SocVersion test is ASCEND910 only
        assert launches(ex.value)[0].startswith("Cast")  # (the Cast decides its own engine)
        aclDestroyAclOpExecutor(ex.value)


def test_gt_ge_compare_bool_as_int8(chip_dev):
    for chip in ("Ascend910B", "Ascend910"):
        dev = chip_dev(chip)
        b = dev.tensor(np.array([True, False, True]))
        c = dev.tensor(np.array([False, False, True]))
        for api, want in (("GtTensor", [True, False, False]), ("GeTensor", [True, True, True])):
            o = dev.tensor(np.zeros(3, np.bool_))
            code, _, ex = p1(api, b, c, o)
            assert code == 0
            step = next(s for s in ex.value.steps if s.name == OP[api])
            assert [t.dtype for t in step.inputs] == [D.DT_INT8, D.DT_INT8]
            aclDestroyAclOpExecutor(ex.value)
            run(dev, api, b, c, o)
            assert dev.read(o).tolist() == want


def test_lt_compares_bool_as_uint8_and_le_as_float_on_every_chip(chip_dev):
    for chip in ("Ascend910B", "Ascend950"):
        dev = chip_dev(chip)
        b = dev.tensor(np.array([True, False, False]))
        c = dev.tensor(np.array([False, False, True]))
        for api, dt, want in (
            ("LtTensor", D.DT_UINT8, [False, False, True]),
            ("LeTensor", D.DT_FLOAT, [False, True, True]),
        ):
            o = dev.tensor(np.zeros(3, np.bool_))
            code, _, ex = p1(api, b, c, o)
            assert code == 0
            assert launches(ex.value) == ["Cast", "Cast", OP[api]]
            step = next(s for s in ex.value.steps if s.name == OP[api])
            assert [t.dtype for t in step.inputs] == [dt, dt]
            aclDestroyAclOpExecutor(ex.value)
            run(dev, api, b, c, o)
            assert dev.read(o).tolist() == want


def test_ge_accepts_bf16_as_the_soc_extra_type_and_names_its_own_api(chip_dev):
    dev = chip_dev("Ascend910")
    c = dev.tensor(np.ones(4, np.complex64))
    assert p1("GeTensor", c, c, dev.tensor(np.zeros(4, np.bool_)))[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == f"{PREFIX}aclnnGeTensor not implemented for input dtype DT_COMPLEX64.\n"
    h = dev.tensor(np.ones(4, BF16))
    assert p1("GeTensor", h, h, dev.tensor(np.zeros(4, np.bool_)))[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == f"{PREFIX}aclnnGeTensor not implemented for input dtype DT_BFLOAT16.\n"
    f = dev.tensor(np.ones(4, np.float32))
    assert (
        p1("GeTensor", f, f, dev.tensor(np.zeros(4, np.bool_), acl_dtype=int(D.DT_STRING)))[0]
        == ACLNN_ERR_PARAM_INVALID
    )
    assert aclGetRecentErrMsg() == f"{PREFIX}aclnnGeTensor not implemented for out dtype DT_STRING.\n"


def test_lt_on_ascend950_checks_promotion_and_its_own_out_list(chip_dev):
    dev = chip_dev("Ascend950")
    i8 = dev.tensor(np.ones(4, np.int8))
    u16 = dev.tensor(np.ones(4, np.uint16))
    assert p1("LtTensor", i8, u16, dev.tensor(np.zeros(4, np.bool_)))[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == f"{PREFIX}Self dtype DT_INT8 and other dtype DT_UINT16 can not promote dtype.\n"
    f = dev.tensor(np.ones(4, np.float32))
    code, _, ex = p1("LtTensor", f, f, dev.tensor(np.zeros(4, np.complex64)))
    assert code == 0 and aclDestroyAclOpExecutor(ex.value) == 0  # Ascend950's out list has COMPLEX


def test_ne_and_le_on_ascend950_check_the_promoted_dtype(chip_dev):
    dev = chip_dev("Ascend950")
    u8 = dev.tensor(np.ones(4, np.uint8))
    u64 = dev.tensor(np.ones(4, np.uint64))
    for api in ("NeTensor", "LeTensor"):
        assert p1(api, u8, u64, dev.tensor(np.zeros(4, np.bool_)))[0] == ACLNN_ERR_PARAM_INVALID
        assert aclGetRecentErrMsg() == f"{PREFIX}Self dtype DT_UINT8 and other dtype DT_UINT64 can not promote dtype.\n"


def test_le_out_may_be_bool_and_names_its_list_in_double_brackets(dev):
    f = dev.tensor(np.ones(4, np.float32))
    assert p1("LeTensor", f, f, dev.tensor(np.zeros(4, np.complex64)))[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == f"{PREFIX}Out dtype DT_COMPLEX64 should be in dtype support list [{lst(LE_910B)}].\n"


SHAPE_ROWS = {
    # api: (checks out's rank, out-shape text)
    "EqTensor": (True, "BroadcastShape [2, 3] is not equal out's shape [3, 2]."),
    "NeTensor": (False, "BroadcastShape [2, 3] is not equal out's shape [3, 2]."),
    "GtTensor": (True, "BroadcastShape [2, 3] is not equal out's shape [3, 2]."),
    "GeTensor": (True, "BroadcastShape [2, 3] is not equal out's shape [3, 2]."),
    "LtTensor": (False, "Shape of out should be [2, 3], but current is [3, 2]."),
    "LeTensor": (True, "BroadcastShape [2, 3] is not equal out's shape [3, 2]."),
}


@pytest.mark.parametrize("api", APIS)
def test_shape_rows(dev, api):
    checks_out, out_text = SHAPE_ROWS[api]
    f = dev.tensor(np.ones((2, 3), np.float32))
    r9 = dev.tensor(np.ones((1,) * 9, np.float32))
    b9 = dev.tensor(np.zeros((1,) * 9, np.bool_))
    assert p1(api, r9, f, dev.tensor(np.zeros((2, 3), bool)))[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == f"{PREFIX}The self tensor cannot be larger than 8 dimensions.\n"
    assert p1(api, f, r9, dev.tensor(np.zeros((2, 3), bool)))[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == f"{PREFIX}The other tensor cannot be larger than 8 dimensions.\n"
    one = dev.tensor(np.ones((1,) * 8, np.float32))
    code, _, _ = p1(api, one, one, b9)
    assert code == ACLNN_ERR_PARAM_INVALID
    if checks_out:
        assert aclGetRecentErrMsg() == f"{PREFIX}The out tensor cannot be larger than 8 dimensions.\n"
    else:  # out's rank is not checked: the shapes differ instead
        assert aclGetRecentErrMsg().endswith(" [1, 1, 1, 1, 1, 1, 1, 1, 1].\n")
    g = dev.tensor(np.ones((4, 3), np.float32))
    assert p1(api, f, g, dev.tensor(np.zeros((2, 3), bool)))[0] == ACLNN_ERR_PARAM_INVALID
    lines = aclGetRecentErrMsg().splitlines()
    assert lines[0].startswith(
        f"Invalid_Argument_Tensor_Input_Shape(EZ1007): Shape [4, 3] of the tensor of operator aclnn{api}_"
    )
    assert lines[-1] == "        The size of tensor self [2, 3] must match the size of tensor other [4, 3]."
    assert p1(api, f, f, dev.tensor(np.zeros((3, 2), bool)))[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == f"{PREFIX}{out_text}\n"


def test_out_rank_on_ne_and_lt_is_not_checked(dev):
    one = dev.tensor(np.ones((1,) * 8, np.float32))
    b9 = dev.tensor(np.zeros((1,) * 9, np.bool_))
    assert p1("NeTensor", one, one, b9)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == (
        f"{PREFIX}BroadcastShape [1, 1, 1, 1, 1, 1, 1, 1] is not equal out's shape [1, 1, 1, 1, 1, 1, 1, 1, 1].\n"
    )
    assert p1("LtTensor", one, one, b9)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == (
        f"{PREFIX}Shape of out should be [1, 1, 1, 1, 1, 1, 1, 1], but current is [1, 1, 1, 1, 1, 1, 1, 1, 1].\n"
    )


# -- empty tensors: Ne and Le test before the checks, the others after -------------------------


@pytest.mark.parametrize("api", APIS)
def test_empty_tensor_placement(dev, api):
    e = dev.tensor(np.ones((2, 0), np.float32))
    wrong = dev.tensor(np.zeros((2, 3), np.int8))  # neither the broadcast shape nor, for some, a valid dtype
    code, ws, ex = p1(api, e, e, wrong)
    if api in ("NeTensor", "LeTensor"):
        assert code == 0 and ws.value == 0 and not ex.value.launches
        assert getattr(aclnn_py, f"aclnn{api}")(None, 0, ex.value, dev.stream) == 0
    else:
        assert code == ACLNN_ERR_PARAM_INVALID
    # a valid call with one empty input and the broadcast shape succeeds without a kernel everywhere
    code, ws, ex = p1(api, e, dev.tensor(np.ones((2, 1), np.float32)), dev.tensor(np.zeros((2, 0), np.bool_)))
    assert code == 0 and ws.value == 0 and not ex.value.launches
    assert aclDestroyAclOpExecutor(ex.value) == 0
    # uncheckable dtypes pass only where the shortcut comes first
    s = dev.tensor(np.ones((2, 0), np.uint16), acl_dtype=int(D.DT_STRING))
    code, _, ex = p1(api, s, s, dev.tensor(np.zeros((2, 0), np.bool_)))
    assert (code == 0) == (api in ("NeTensor", "LeTensor"))
    if code == 0:
        aclDestroyAclOpExecutor(ex.value)


# -- the graph's branches --------------------------------------------------------------------------

BRANCHES = [
    # chip, api, dtype, launches
    ("Ascend910B", "EqTensor", np.float64, ["Equal@AiCpu"]),
    ("Ascend950", "EqTensor", np.float64, ["Equal"]),
    ("Ascend910B", "EqTensor", np.int16, ["Equal@AiCpu"]),
    ("Ascend910B", "EqTensor", np.complex64, ["Equal@AiCpu"]),
    ("Ascend910", "EqTensor", np.uint32, ["Equal"]),
    ("Ascend910", "EqTensor", BF16, None),  # refused
    ("Ascend910B", "NeTensor", np.float64, ["NotEqual@AiCpu"]),
    ("Ascend950", "NeTensor", np.float64, ["NotEqual@AiCpu"]),
    ("Ascend950", "NeTensor", np.uint64, ["NotEqual"]),
    ("Ascend910", "NeTensor", BF16, None),
    ("Ascend910B", "GtTensor", np.uint16, ["Greater@AiCpu"]),
    ("Ascend910B", "GtTensor", BF16, ["Greater"]),
    ("Ascend910", "GtTensor", np.float16, ["Greater"]),
    ("Ascend950", "GtTensor", np.uint64, ["Greater"]),
    ("Ascend950", "GtTensor", np.bool_, ["Cast", "Cast", "Greater"]),
    ("Ascend910B", "GeTensor", np.uint32, ["GreaterEqual@AiCpu"]),
    ("Ascend910", "GeTensor", np.int64, ["GreaterEqual"]),
    ("Ascend950", "GeTensor", np.uint64, ["GreaterEqual"]),
    ("Ascend910B", "LtTensor", np.float64, ["Less@AiCpu"]),
    ("Ascend950", "LtTensor", np.float64, ["Less"]),
    ("Ascend910B", "LtTensor", np.int16, ["Less@AiCpu"]),
    ("Ascend910B", "LeTensor", np.float64, ["LessEqual@AiCpu"]),
    ("Ascend910B", "LeTensor", np.uint16, ["LessEqual@AiCpu"]),
    ("Ascend950", "LeTensor", np.float64, ["LessEqual@AiCpu"]),
    ("Ascend950", "LeTensor", np.uint64, ["LessEqual"]),
]


@pytest.mark.parametrize("chip,api,dtype,want", BRANCHES)
def test_graph_branch(chip_dev, chip, api, dtype, want):
    dev = chip_dev(chip)
    x, y = _values(dtype)
    code, _, ex = p1(api, dev.tensor(x), dev.tensor(y), dev.tensor(np.zeros(6, np.bool_)))
    if want is None:
        assert code == ACLNN_ERR_PARAM_INVALID
        return
    assert code == 0, aclGetRecentErrMsg()
    assert launches(ex.value) == want
    assert aclDestroyAclOpExecutor(ex.value) == 0


def test_tf_kernels_carry_their_attributes(dev):
    c = dev.tensor(np.ones(3, np.complex128))
    for api in ("EqTensor", "NeTensor"):
        _, _, ex = p1(api, c, c, dev.tensor(np.zeros(3, np.bool_)))
        ln = ex.value.launches[0]
        assert ln.attrs == {"T": "DT_COMPLEX128", "incompatible_shape_error": True}
        aclDestroyAclOpExecutor(ex.value)
    d = dev.tensor(np.ones(3, np.float64))
    _, _, ex = p1("LeTensor", d, d, dev.tensor(np.zeros(3, np.bool_)))
    assert ex.value.launches[0].attrs == {"T": "DT_DOUBLE", "incompatible_shape_error": True}
    aclDestroyAclOpExecutor(ex.value)
    _, _, ex = p1("EqTensor", d, d, dev.tensor(np.zeros(3, np.bool_)))
    assert ex.value.launches[0].attrs == {}  # the ops-math AI CPU kernel
    aclDestroyAclOpExecutor(ex.value)


def test_mixed_dtypes_cast_to_the_promoted_dtype_and_the_result_to_out(dev):
    i = dev.tensor(np.array([16777217, 3, -7], np.int64))
    f = dev.tensor(np.array([16777216.0, 3.5, -7.0], np.float32))
    o = dev.tensor(np.zeros(3, np.float16))
    code, _, ex = p1("EqTensor", i, f, o)
    assert code == 0 and launches(ex.value) == ["Cast", "Equal", "Cast"]
    aclDestroyAclOpExecutor(ex.value)
    run(dev, "EqTensor", i, f, o)
    assert dev.read(o).tolist() == [1.0, 0.0, 1.0]  # int64 16777217 becomes float32 16777216


# -- Ascend950: 0-d operands and strided views ----------------------------------------------------


def test_ascend950_promotes_a_0d_operand_like_a_scalar(chip_dev):
    """BinaryOpTypePromote: a 0-d FLOAT against a FLOAT16 tensor compares in FLOAT16 (the 0-d
    value is rounded), an INT64 0-d against an INT8 tensor in INT8 (it wraps)."""
    results = {}
    for chip in ("Ascend910B", "Ascend950"):
        dev = chip_dev(chip)
        h = dev.tensor(np.array([0.1, 0.5, 44], np.float16))
        z = dev.tensor(np.array(0.1, np.float32))
        o = dev.tensor(np.zeros(3, np.bool_))
        run(dev, "EqTensor", h, z, o)
        i8 = dev.tensor(np.array([44, 1, -1], np.int8))
        z64 = dev.tensor(np.array(300, np.int64))
        o2 = dev.tensor(np.zeros(3, np.bool_))
        run(dev, "EqTensor", i8, z64, o2)
        o3 = dev.tensor(np.zeros(3, np.bool_))
        run(dev, "EqTensor", z64, i8, o3)  # the 0-d operand first: the same rule
        results[chip] = (dev.read(o).tolist(), dev.read(o2).tolist(), dev.read(o3).tolist())
    assert results["Ascend910B"] == ([False, False, False], [False, False, False], [False, False, False])
    assert results["Ascend950"] == ([True, False, False], [True, False, False], [True, False, False])


def test_both_0d_promote_normally_on_ascend950(chip_dev):
    dev = chip_dev("Ascend950")
    a = dev.tensor(np.array(0.1, np.float16))
    b = dev.tensor(np.array(0.1, np.float32))
    o = dev.tensor(np.array(True))
    run(dev, "EqTensor", a, b, o)
    assert not dev.read(o)  # FLOAT: float16(0.1) != float32(0.1)


def test_ascend950_ge_reads_strided_views_directly(chip_dev):
    dev = chip_dev("Ascend950")
    xs = np.arange(12, dtype=np.float32).reshape(3, 4)
    x = dev.strided(xs, (4, 3), (1, 4))
    y = dev.tensor(np.full((4, 3), 5, np.float32))
    o = dev.tensor(np.zeros((4, 3), np.bool_))
    code, _, ex = p1("GeTensor", x, y, o)
    assert code == 0 and launches(ex.value) == ["GreaterEqual"]
    assert [s.name for s in ex.value.steps] == ["GreaterEqual", "Cast", "ViewCopy"]  # no Contiguous, no Cast
    aclDestroyAclOpExecutor(ex.value)
    run(dev, "GeTensor", x, y, o)
    assert (dev.read(o) == (xs.T >= 5)).all()
    # another dtype, or another chip: Contiguous + Cast
    code, _, ex = p1("GtTensor", x, y, o)
    assert launches(ex.value) == ["Transpose", "Greater"]
    aclDestroyAclOpExecutor(ex.value)


def test_non_contiguous_inputs_and_output(dev):
    xs = np.array([[1, 2, 3], [4, 5, 6]], np.float32)
    x = dev.strided(xs, (3, 2), (1, 3))
    y = dev.tensor(np.array([1, 5], np.float32))
    o = dev.strided(np.zeros((2, 3), np.int32), (3, 2), (1, 3))
    for api in APIS:
        run(dev, api, x, y, o)
        assert (dev.read(o) == G.compare(OP[api], xs.T, np.array([1, 5], np.float32)).astype(np.int32)).all(), api


def test_out_may_be_an_input(dev):
    x = np.array([1.0, 2.0, 3.0], np.float32)
    t = dev.tensor(x)
    y = dev.tensor(np.array([1.0, 0.0, 3.0], np.float32))
    run(dev, "NeTensor", t, y, t)  # out = self (what the in-place API does)
    assert dev.read(t).tolist() == [0.0, 1.0, 0.0]


# -- numbers ---------------------------------------------------------------------------------------


def _specials(dtype, n, seed) -> np.ndarray:
    rng = np.random.default_rng(seed)
    v = (rng.standard_normal(n) * 3).astype(np.float32)
    v[:10] = [0.0, -0.0, np.inf, -np.inf, np.nan, 1e-39, -1e-39, 1.0, 1.0, 65504]
    v = np.round(v * 4) / 4 if dtype != np.float64 else v  # frequent ties
    return v.astype(dtype)


FLOAT_CASES = [(c, d) for c in ("Ascend910B", "Ascend950", "Ascend910") for d in (np.float32, np.float16, BF16, np.float64)
               if not (c == "Ascend910" and d == BF16)]  # fmt: skip


@pytest.mark.parametrize("chip,dtype", FLOAT_CASES, ids=lambda v: getattr(v, "__name__", str(v)))
def test_float_comparisons_against_goldens(chip_dev, chip, dtype):
    dev = chip_dev(chip)
    x, y = _specials(dtype, 200, 1), _specials(dtype, 200, 2)
    y[:40] = x[:40]  # equal pairs, infinities and NaN against themselves included
    y[40:50] = x[50:60]
    tx, ty = dev.tensor(x), dev.tensor(y)
    for api in APIS:
        o = dev.tensor(np.zeros(200, np.bool_))
        run(dev, api, tx, ty, o)
        got = dev.read(o)
        if dtype == np.float64 and (api == "NeTensor" or (api == "EqTensor" and chip != "Ascend950")):
            want = G.is_value_equal(x, y)  # the AI CPU kernel's relative test
            want = ~want if api == "NeTensor" else want
        else:
            want = G.compare(OP[api], x, y)
        assert (got == want).all(), (api, np.flatnonzero(got != want)[:5])


def test_double_equality_on_the_ai_cpu_is_relative(chip_dev):
    """DOUBLE Equal on the AI CPU (910B, 910, 310P; NotEqual on 950 too): |a-b| <= 1e-9*max(|a|,|b|)."""
    x = np.array([1.0, 1.0, np.inf, np.inf, np.inf, 0.0, -0.0, np.nan, 1e-300, 2.0, 1e308], np.float64)
    y = np.array([1.0 + 1e-12, 1.0 + 2e-9, np.inf, 5.0, -np.inf, 0.0, 0.0, np.nan, 0.0, 2.0 + 4e-9, -1e308])
    relative = [True, False, False, True, True, True, True, False, False, False, False]
    exact = [False, False, True, False, False, True, True, False, False, False, False]
    for chip, eq_want, ne_want in (
        ("Ascend910B", relative, [not v for v in relative]),
        ("Ascend310P", relative, [not v for v in relative]),
        ("Ascend950", exact, [not v for v in relative]),
    ):
        dev = chip_dev(chip)
        tx, ty = dev.tensor(x), dev.tensor(y)
        for api, want in (("EqTensor", eq_want), ("NeTensor", ne_want)):
            o = dev.tensor(np.zeros(len(x), np.bool_))
            run(dev, api, tx, ty, o)
            assert dev.read(o).tolist() == want, (chip, api)
        assert (G.is_value_equal(x, y) == np.array(relative)).all()


def test_bool_inputs_compare_their_stored_bytes(dev):
    raw = np.array([0, 1, 2, 255, 1, 2], np.uint8)
    other = np.array([0, 2, 1, 1, 1, 2], np.uint8)
    x = dev.tensor(raw, acl_dtype=int(D.DT_BOOL))
    y = dev.tensor(other, acl_dtype=int(D.DT_BOOL))
    o = dev.tensor(np.zeros(6, np.bool_))
    run(dev, "EqTensor", x, y, o)
    assert dev.read(o).tolist() == [True, False, False, False, True, True]
    run(dev, "GtTensor", x, y, o)  # BOOL -> INT8: a Cast of the same bytes is no kernel; 255 is -1
    assert dev.read(o).tolist() == [False, False, True, False, False, False]


@pytest.mark.parametrize("chip", ["Ascend910B", "Ascend950"])
def test_integer_extremes_are_exact(chip_dev, chip):
    dev = chip_dev(chip)
    for dt in (np.int32, np.int64, np.uint8, np.int8, np.int16, np.uint64):
        info = np.iinfo(dt)
        big = min(16777217, int(info.max))  # beyond float32's integers where the dtype allows
        x = np.array([info.min, info.max, info.max, 0, info.min + 1, big], dt)
        y = np.array([info.max, info.min, info.max - 1, 0, info.min, big - 1], dt)
        tx, ty = dev.tensor(x), dev.tensor(y)
        for api in APIS:
            o = dev.tensor(np.zeros(6, np.bool_))
            code, _, ex = p1(api, tx, ty, o)
            if code != 0:  # UINT64 is not in every list
                assert dt == np.uint64
                continue
            aclDestroyAclOpExecutor(ex.value)
            run(dev, api, tx, ty, o)
            assert (dev.read(o) == G.compare(OP[api], x, y)).all(), (api, dt)


def test_broadcast_both_ways(dev):
    x = np.arange(6, dtype=np.float32).reshape(2, 1, 3)
    y = np.array([[0], [4]], np.float32)
    for api in APIS:
        o = dev.tensor(np.zeros((2, 2, 3), np.bool_))
        run(dev, api, dev.tensor(x), dev.tensor(y), o)
        assert (dev.read(o) == G.compare(OP[api], x, y)).all()


def test_zero_d_operands(dev):
    a = dev.tensor(np.array(3.0, np.float32))
    b = dev.tensor(np.array([1.0, 3.0, 5.0], np.float32))
    for api in APIS:
        o = dev.tensor(np.zeros(3, np.bool_))
        run(dev, api, a, b, o)
        assert (
            dev.read(o) == G.compare(OP[api], np.array(3.0, np.float32), np.array([1.0, 3.0, 5.0], np.float32))
        ).all()
        o0 = dev.tensor(np.array(False))
        run(dev, api, a, a, o0)
        assert bool(dev.read(o0)) == (api in ("EqTensor", "GeTensor", "LeTensor"))


def test_ops_math_doc_examples():
    """The documents' programs (double inputs; out BOOL, or DOUBLE for Ne/Lt, FLOAT for Le)."""
    from aclnn_py import functional as F

    a = np.arange(8, dtype=np.float64).reshape(4, 2)
    assert F.eq_tensor(a, np.array([0, 1, 9, 9, 9, 9, 9, 9], np.float64).reshape(4, 2)).reshape(-1).tolist() == [
        True, True, False, False, False, False, False, False]  # fmt: skip
    assert F.ne_tensor(a, np.array([1, 1, 1, 2, 2, 2, 3, 3.0]).reshape(4, 2), out_dtype=np.float64).reshape(-1).tolist() == [
        1, 0, 1, 1, 1, 1, 1, 1]  # fmt: skip
    assert F.gt_tensor(a, np.array([0, 1, 1, 2, 3, 4, 5, 6.0]).reshape(4, 2)).reshape(-1).tolist() == [
        0,
        0,
        1,
        1,
        1,
        1,
        1,
        1,
    ]
    f = np.arange(8, dtype=np.float32).reshape(4, 2)
    assert F.ge_tensor(f, f).all()
    assert F.lt_tensor(a, np.full((4, 2), 5.0), out_dtype=np.float64).reshape(-1).tolist() == [1, 1, 1, 1, 1, 0, 0, 0]
    le = F.le_tensor(f, np.array([1, 1, 1, 2, 2, 2, 3, 3], np.float32).reshape(4, 2), out_dtype=np.float32)
    assert le.reshape(-1).tolist() == [1, 1, 0, 0, 0, 0, 0, 0]


def test_a_dtype_no_kernel_can_hold_is_refused_by_the_checks(dev):
    """A COMPLEX32 tensor (storage only) is in no list."""
    ptr = dev.malloc(64)
    c32 = aclCreateTensor([4], 1, int(D.DT_COMPLEX32), None, 0, ACL_FORMAT_ND, [4], 1, ptr)
    f = dev.tensor(np.ones(4, np.float32))
    try:
        assert p1("NeTensor", c32, f, dev.tensor(np.zeros(4, np.bool_)))[0] == ACLNN_ERR_PARAM_INVALID
        assert aclGetRecentErrMsg().startswith(f"{PREFIX}Tensor self not implemented for DT_COMPLEX32")
    finally:
        aclDestroyTensor(c32)
