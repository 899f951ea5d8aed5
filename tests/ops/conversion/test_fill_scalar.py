"""aclnnInplaceFillScalar: error rows in CANN's order (null, dtype per chip, the promotion test,
rank), AI Core / AI CPU Fill per dtype and chip, the host conversion of the scalar into selfRef's
dtype (opbase's To<T> as compiled for x86-64, fp16_t, bfloat16 through float), views, empty, 0-d."""

from __future__ import annotations

import math

import ml_dtypes
import numpy as np
import pytest
from helpers import ACL_OF, Dev, own

from aclnn_py import (
    ACL_BOOL,
    ACL_COMPLEX64,
    ACL_DOUBLE,
    ACL_FLOAT,
    ACL_FLOAT16,
    ACL_INT64,
    ACL_UINT16,
    ACL_UINT32,
    ACLNN_ERR_PARAM_INVALID,
    ACLNN_ERR_PARAM_NULLPTR,
    Ref,
    aclCreateScalar,
    aclDestroyAclOpExecutor,
    aclDestroyScalar,
    aclGetRecentErrMsg,
    aclnnInplaceFillScalar,
    aclnnInplaceFillScalarGetWorkspaceSize,
)
from aclnn_py import dtypes as D
from aclnn_py.l0 import fill as l0
from aclnn_py.ops.conversion import fill_scalar as facts

BF16 = np.dtype(ml_dtypes.bfloat16)
PREFIX = "AclNN_Parameter_Error(EZ1001): "
CHIPS = ["Ascend910B", "Ascend910_93", "Ascend950", "Ascend910", "Ascend310P"]
ALL = [np.float32, np.float16, BF16, np.float64, np.int8, np.int16, np.int32, np.int64, np.uint8, np.bool_,
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


def _p1(*args):
    ws, ex = Ref(0), Ref()
    return aclnnInplaceFillScalarGetWorkspaceSize(*args, ws, ex), ws, ex


def _graph(ex) -> list[str]:
    return [f"{ln.op_type}{'@AiCpu' if ln.engine == 'AiCpu' else ''}" for ln in ex.launches]


def _fill(dev, t, s):
    assert dev.run(aclnnInplaceFillScalarGetWorkspaceSize, aclnnInplaceFillScalar, t, s) == (0, 0, 0), (
        aclGetRecentErrMsg()
    )
    return dev.read(t)


# -- error rows ------------------------------------------------------------------------------------


def test_null_arguments_in_order(dev, scalars):
    t = dev.tensor(np.zeros(2, np.float32))
    code, _, ex = _p1(None, scalars(1.0))
    assert code == ACLNN_ERR_PARAM_NULLPTR and ex.value is None
    assert (
        aclGetRecentErrMsg()
        == f"{PREFIX}Expected a value of type [aclTensor] for argument [selfRef] but instead found nullptr.\n"
    )
    assert _p1(t, None)[0] == ACLNN_ERR_PARAM_NULLPTR
    assert (
        aclGetRecentErrMsg()
        == f"{PREFIX}Expected a value of type [aclScalar] for argument [value] but instead found nullptr.\n"
    )
    assert aclnnInplaceFillScalarGetWorkspaceSize(t, None, None, Ref()) == ACLNN_ERR_PARAM_NULLPTR
    assert aclGetRecentErrMsg() == f"{PREFIX}executor or workspaceSize is nullptr\n"


@pytest.mark.parametrize("chip", CHIPS)
def test_every_dtype_per_chip(chip, soc, scalars):
    """Accepted iff in the chip's list; Fill on the AI Core iff the dtype is in its list; the value
    is the scalar 3 converted to the dtype."""
    soc(chip)
    dev = Dev()
    try:
        supported, aicore = facts.dtype_support_list(), l0.aicore_dtypes()
        for npdt in map(np.dtype, ALL):
            acl = int(ACL_OF[npdt])
            t = dev.tensor(np.zeros((2, 3), npdt))
            s = scalars(3, acl if npdt.kind == "u" and npdt.itemsize > 1 else ACL_INT64)  # U16/32/64 promote alone
            code, ws, ex = _p1(t, s)
            if acl not in supported:
                assert code == ACLNN_ERR_PARAM_INVALID
                assert aclGetRecentErrMsg() == (
                    f"{PREFIX}Tensor self not implemented for {D.dt_name(acl)}, should be in dtype support list "
                    f"{D.dt_list_str(supported)}.\n"
                )
                continue
            assert code == 0, (chip, npdt, aclGetRecentErrMsg())
            ln = ex.value.launches[0]
            if acl in aicore:
                assert _graph(ex.value) == ["Fill"] and ln.attrs == {}
            else:
                assert _graph(ex.value) == ["Fill@AiCpu"]
                assert ln.attrs == {"index_type": "DT_INT64", "T": D.dt_name(acl)}
            assert aclnnInplaceFillScalar(dev.workspace(ws.value), ws.value, ex.value, dev.stream) == 0
            got = dev.read(t)
            assert (got == (True if npdt == np.bool_ else 3)).all(), (chip, npdt)
    finally:
        dev.close()


def test_promotion_must_be_defined(dev, scalars):
    u16 = dev.tensor(np.zeros(2, np.uint16))
    assert _p1(u16, scalars(1.0))[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == f"{PREFIX}Self dtype DT_UINT16 and value dtype DT_FLOAT can not promote dtype.\n"
    f = dev.tensor(np.zeros(2, np.float32))
    assert _p1(f, scalars(1, ACL_UINT32))[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == f"{PREFIX}Self dtype DT_FLOAT and value dtype DT_UINT32 can not promote dtype.\n"
    # a complex scalar promotes with anything, so it passes: a real selfRef receives 0
    assert _fill(dev, f, scalars(1 + 2j, ACL_COMPLEX64)).tolist() == [0.0, 0.0]
    assert _fill(dev, u16, scalars(1 + 2j, ACL_COMPLEX64)).tolist() == [0, 0]


def test_order_dtype_before_promotion_before_rank(dev, scalars):
    u32 = dev.tensor(np.zeros((1,) * 9, np.uint32))
    assert _p1(u32, scalars(1.0))[0] == ACLNN_ERR_PARAM_INVALID  # Ascend910B: UINT32 listed; promotion fails
    assert aclGetRecentErrMsg().startswith(f"{PREFIX}Self dtype DT_UINT32 and value dtype DT_FLOAT")
    r9 = dev.tensor(np.zeros((1,) * 9, np.float32))
    assert _p1(r9, scalars(1.0))[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == f"{PREFIX}The self tensor cannot be larger than 8 dimensions.\n"


# -- the value -------------------------------------------------------------------------------------


def _bits16(a) -> int:
    return int(np.asarray(a).view(np.uint16).reshape(-1)[0])


def test_float16_from_a_float_scalar(dev, scalars):
    t = dev.tensor(np.zeros(2, np.float16))
    assert _fill(dev, t, scalars(1 / 3)).tolist() == [np.float16(1 / 3)] * 2  # half to even
    assert math.isinf(_fill(dev, t, scalars(65520.0))[0])
    assert _bits16(_fill(dev, t, scalars(float("nan")))) == 0x7FFF  # fp16_t: all mantissa bits
    assert _bits16(_fill(dev, t, scalars(-float("nan")))) == 0xFFFF


def test_bfloat16_through_float(dev, scalars):
    t = dev.tensor(np.zeros(2, BF16))
    v = 1 + 2**-8 + 2**-30  # float: 1 + 2^-8 (tie), then bfloat16: 1.0 (tie to even); once: 1 + 2^-7
    assert _fill(dev, t, scalars(v, ACL_DOUBLE)).astype(np.float64).tolist() == [1.0, 1.0]
    assert _bits16(_fill(dev, t, scalars(-float("nan")))) == 0x7FC0  # the sign is dropped


@pytest.mark.parametrize(
    "npdt,value,acl,want",
    [
        (np.int8, 300, ACL_INT64, 44),  # C conversion: the low byte
        (np.int8, 1.5, ACL_FLOAT, 1),  # truncation
        (np.int8, -1.5, ACL_FLOAT, -1),
        (np.uint8, -1.0, ACL_FLOAT, 255),  # x86-64: through int32, then the low byte
        (np.int32, float("nan"), ACL_FLOAT, -(2**31)),  # x86-64's integer indefinite (host conversion)
        (np.int64, 3e9, ACL_FLOAT, 3000000000),
        (np.bool_, 1e-8, ACL_FLOAT, False),  # |v| >= FLT_EPSILON
        (np.bool_, float("nan"), ACL_FLOAT, False),
        (np.bool_, float("inf"), ACL_FLOAT, True),
        (np.bool_, 2, ACL_INT64, True),
        (np.float64, 0.1, ACL_FLOAT, float(np.float32(0.1))),
        (np.float32, 0.1, ACL_DOUBLE, float(np.float32(0.1))),
        (np.complex64, 2.5, ACL_FLOAT, 2.5 + 0j),
        (np.uint16, 65535, ACL_UINT16, 65535),
        (np.float16, 70000, ACL_INT64, math.inf),
    ],
)
def test_host_conversions(dev, scalars, npdt, value, acl, want):
    t = dev.tensor(np.zeros(3, npdt))
    got = _fill(dev, t, scalars(value, acl))
    assert got.tolist() == [want] * 3


# -- graph, views, empty, 0-d ----------------------------------------------------------------------


def test_graph_and_host_tensors(dev, scalars):
    t = dev.tensor(np.zeros((4, 2), np.float32))
    code, _, ex = _p1(t, scalars(1.0))
    step = ex.value.steps[0]
    assert code == 0 and step.name == "Fill" and [s.name for s in ex.value.steps] == ["Fill", "ViewCopy"]
    assert step.inputs[0].storage.data.tolist() == [4, 2] and step.inputs[0].dtype == D.DT_INT64
    assert step.inputs[1].storage.data.tolist() == 1.0 and step.inputs[1].view_shape == ()
    aclDestroyAclOpExecutor(ex.value)


def test_zero_dim_fills_a_one_element_tensor(dev, scalars):
    t = dev.tensor(np.array(0, np.int32))
    _code, _, ex = _p1(t, scalars(7, ACL_INT64))
    assert ex.value.steps[0].outputs[0].view_shape == (1,)
    aclDestroyAclOpExecutor(ex.value)
    assert _fill(dev, t, scalars(7, ACL_INT64)).tolist() == 7


def test_views_and_empty(dev, scalars):
    view = dev.strided(np.zeros((3, 4), np.float16), (4, 3), (1, 4))
    code, ws, ex = _p1(view, scalars(2.5, ACL_FLOAT16))
    assert code == 0 and _graph(ex.value) == ["Fill", "Transpose"]
    assert aclnnInplaceFillScalar(dev.workspace(ws.value), ws.value, ex.value, dev.stream) == 0
    assert (dev.read(view) == 2.5).all()
    code, ws, ex = _p1(dev.tensor(np.zeros((2, 0), np.float32)), scalars(1.0))
    assert code == 0 and ws.value == 0 and not ex.value.launches
    aclDestroyAclOpExecutor(ex.value)


def test_the_example(dev, scalars):
    t = dev.tensor(np.zeros((2, 2), np.float32))
    got = _fill(dev, t, scalars(1.0))
    assert [f"{v:f}" for v in got.reshape(-1)] == ["1.000000"] * 4


def test_bool_scalar_into_int(dev, scalars):
    t = dev.tensor(np.zeros(2, np.int16))  # AI CPU Fill on every chip
    assert _fill(dev, t, scalars(True, ACL_BOOL)).tolist() == [1, 1]
