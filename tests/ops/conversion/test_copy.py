"""aclnnInplaceCopy: error rows in CANN's order, the one dtype list, every graph branch
(TensorMove, no kernel for the same tensor, Cast, BroadcastTo on AI Core / AI CPU, Contiguous,
ViewCopy into a view), the numbers of the cross-dtype copies (l0 Cast's recipes), empty, 0-d."""

from __future__ import annotations

import sys
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest
from helpers import Dev

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "math"))
import goldens_cast as gc

from aclnn_py import (
    ACL_COMPLEX32,
    ACL_FLOAT,
    ACL_FLOAT4_E2M1,
    ACL_FLOAT8_E4M3FN,
    ACL_FLOAT8_E8M0,
    ACL_FORMAT_ND,
    ACL_HIFLOAT8,
    ACL_INT4,
    ACLNN_ERR_INNER_NULLPTR,
    ACLNN_ERR_PARAM_INVALID,
    ACLNN_ERR_PARAM_NULLPTR,
    Ref,
    aclCreateTensor,
    aclDestroyAclOpExecutor,
    aclGetRecentErrMsg,
    aclnnInplaceCopy,
    aclnnInplaceCopyGetWorkspaceSize,
)
from aclnn_py import dtypes as D
from aclnn_py.ops.conversion import copy as facts

BF16 = np.dtype(ml_dtypes.bfloat16)
PREFIX = "AclNN_Parameter_Error(EZ1001): "
CHIPS = ["Ascend910B", "Ascend910_93", "Ascend950", "Ascend910", "Ascend310P"]


def _p1(*args):
    ws, ex = Ref(0), Ref()
    return aclnnInplaceCopyGetWorkspaceSize(*args, ws, ex), ws, ex


def _graph(ex) -> list[str]:
    return [f"{ln.op_type}{'@AiCpu' if ln.engine == 'AiCpu' else ''}" for ln in ex.launches]


def _raw(dev, shape, acl, nbytes=64):
    ptr = dev.malloc(nbytes)
    t = aclCreateTensor(list(shape), len(shape), acl, None, 0, ACL_FORMAT_ND, list(shape), len(shape), ptr)
    dev.tensors.append(t)
    return t


def _copy(dev, self_t, src_t):
    assert dev.run(aclnnInplaceCopyGetWorkspaceSize, aclnnInplaceCopy, self_t, src_t) == (0, 0, 0), aclGetRecentErrMsg()
    return dev.read(self_t)


# -- error rows ------------------------------------------------------------------------------------


def test_comm_input_comes_before_everything(dev):
    t = dev.tensor(np.ones(2, np.float32))
    assert aclnnInplaceCopyGetWorkspaceSize(None, t, None, Ref()) == ACLNN_ERR_PARAM_NULLPTR
    assert aclGetRecentErrMsg() == f"{PREFIX}The workspaceSize or executor is nullptr.\n"
    assert aclnnInplaceCopyGetWorkspaceSize(t, t, Ref(0), None) == ACLNN_ERR_PARAM_NULLPTR
    assert aclGetRecentErrMsg() == f"{PREFIX}The workspaceSize or executor is nullptr.\n"


@pytest.mark.parametrize("which,name", [(0, "self"), (1, "src")])
def test_null_tensors_in_order(dev, which, name):
    args = [dev.tensor(np.ones(2, np.float32)), dev.tensor(np.ones(2, np.float32))]
    args[which] = None
    code, _, ex = _p1(*args)
    assert code == ACLNN_ERR_PARAM_NULLPTR and ex.value is None
    assert (
        aclGetRecentErrMsg()
        == f"{PREFIX}Expected a value of type [aclTensor] for argument [{name}] but instead found nullptr.\n"
    )


@pytest.mark.parametrize("chip", CHIPS)
def test_one_dtype_list_on_every_chip(chip, soc):
    soc(chip)
    dev = Dev()
    try:
        f = dev.tensor(np.ones(2, np.float32))
        for acl in (ACL_COMPLEX32, ACL_INT4, ACL_FLOAT4_E2M1):
            for args, name in (((_raw(dev, [2], acl), f), "self"), ((f, _raw(dev, [2], acl)), "src")):
                assert _p1(*args)[0] == ACLNN_ERR_PARAM_INVALID
                assert aclGetRecentErrMsg() == (
                    f"{PREFIX}Tensor {name} not implemented for {D.dt_name(acl)}, should be in dtype support list "
                    f"{D.dt_list_str(facts.DTYPE_SUPPORT_LIST)}.\n"
                )
        for acl in (ACL_HIFLOAT8, ACL_FLOAT8_E4M3FN, ACL_FLOAT8_E8M0):  # pass the checks on every chip
            h = _raw(dev, [2], acl)
            code, _, ex = _p1(h, h)
            assert code == 0 and not ex.value.launches  # the same tensor: no kernel
            aclDestroyAclOpExecutor(ex.value)
    finally:
        dev.close()


def test_shape_rows(dev):
    r9 = dev.tensor(np.ones((1,) * 9, np.float32))
    one = dev.tensor(np.ones(1, np.float32))
    assert _p1(r9, one)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == f"{PREFIX}The self tensor cannot be larger than 8 dimensions.\n"
    assert _p1(one, r9)[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == f"{PREFIX}The src tensor cannot be larger than 8 dimensions.\n"
    a, b = dev.tensor(np.ones((2, 3), np.float32)), dev.tensor(np.ones((2, 4), np.float32))
    assert _p1(a, b)[0] == ACLNN_ERR_PARAM_INVALID
    lines = aclGetRecentErrMsg().splitlines()
    assert lines[0].startswith(
        "Invalid_Argument_Tensor_Input_Shape(EZ1007): Shape [2, 4] of the tensor of operator aclnnInplaceCopy_"
    )
    assert lines[-1] == "        The size of tensor self [2, 3] must match the size of tensor src [2, 4]."
    assert _p1(one, dev.tensor(np.ones(3, np.float32)))[0] == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == f"{PREFIX}Shape of broadcast result should be [3], but self is [1].\n"
    zero_d = dev.tensor(np.array(1.0, np.float32))
    assert _p1(zero_d, one)[0] == ACLNN_ERR_PARAM_INVALID  # [] and [1] broadcast to [1], not self's []
    assert aclGetRecentErrMsg() == f"{PREFIX}Shape of broadcast result should be [1], but self is [].\n"
    code, _, ex = _p1(one, zero_d)  # the other way round is fine
    assert code == 0 and _graph(ex.value) == ["BroadcastTo"]
    aclDestroyAclOpExecutor(ex.value)


def test_no_dtype_pair_check(dev):
    """Any two listed dtypes pass; the pair fails in l0 Cast if no engine converts it."""
    f = dev.tensor(np.ones(2, np.float32))
    code, _, _ = _p1(_raw(dev, [2], ACL_FLOAT8_E4M3FN), f)  # Ascend910B: no FLOAT -> FP8 Cast
    assert code == ACLNN_ERR_INNER_NULLPTR and aclGetRecentErrMsg() is None
    code, _, ex = _p1(f, dev.tensor(np.ones(2, np.complex64)))  # complex64 -> float: the real part
    assert code == 0 and _graph(ex.value) == ["Cast@AiCpu"]
    aclDestroyAclOpExecutor(ex.value)


def test_empty_self_or_src(dev):
    e = dev.tensor(np.ones((2, 0), np.float32))
    code, ws, ex = _p1(e, dev.tensor(np.ones((1, 0), np.int32)))
    assert code == 0 and ws.value == 0 and not ex.value.launches
    assert aclnnInplaceCopy(None, 0, ex.value, dev.stream) == 0
    code, ws, ex = _p1(dev.tensor(np.ones((2, 1), np.float32)), dev.tensor(np.ones((0,), np.float32)))
    assert code == ACLNN_ERR_PARAM_INVALID  # [2, 1] and [0] broadcast to [2, 0], which is not self's shape
    aclGetRecentErrMsg()


# -- graph branches --------------------------------------------------------------------------------


def test_same_dtype_and_shape_is_a_tensor_move(dev):
    x = np.arange(6, dtype=np.float32)
    s, d = dev.tensor(x), dev.tensor(np.zeros(6, np.float32))
    code, _, ex = _p1(d, s)
    assert code == 0 and _graph(ex.value) == ["TensorMove"]
    aclDestroyAclOpExecutor(ex.value)
    assert (_copy(dev, d, s) == x).all()


def test_copy_onto_itself_launches_nothing(dev):
    t = dev.tensor(np.arange(4, dtype=np.float32))
    code, _, ex = _p1(t, t)
    assert code == 0 and not ex.value.launches
    assert ex.value.steps[-1].note == "no kernel: input and output are the same memory"
    aclDestroyAclOpExecutor(ex.value)


BRANCHES = [
    # chip, self dtype, self shape, src dtype, src shape, launches
    ("Ascend910B", np.float32, (4, 5), np.int32, (4, 1), ["Cast", "BroadcastTo"]),
    ("Ascend910B", np.float32, (4, 5), np.float32, (5,), ["BroadcastTo"]),
    ("Ascend910B", np.int16, (4, 5), np.int16, (5,), ["BroadcastTo@AiCpu"]),
    ("Ascend910B", BF16, (2, 3), BF16, (3,), ["BroadcastTo"]),
    ("Ascend910", BF16, (2, 3), BF16, (3,), ["BroadcastTo@AiCpu"]),
    ("Ascend950", np.uint32, (2, 3), np.uint32, (1, 3), ["BroadcastTo"]),
    ("Ascend910B", np.float64, (2, 3), np.float32, (1,), ["Cast@AiCpu", "BroadcastTo@AiCpu"]),
    ("Ascend950", np.float64, (2, 3), np.float32, (3,), ["Cast@AiCpu", "BroadcastTo@AiCpu"]),
    ("Ascend910B", np.bool_, (3,), np.float32, (3,), ["Cast"]),
]


@pytest.mark.parametrize("chip,sdt,sshape,xdt,xshape,graph", BRANCHES)
def test_graph_branches(soc, chip, sdt, sshape, xdt, xshape, graph):
    soc(chip)
    dev = Dev()
    try:
        src = (np.arange(int(np.prod(xshape))) % 3 + 1).astype(xdt).reshape(xshape)
        s, d = dev.tensor(src), dev.tensor(np.zeros(sshape, sdt))
        code, _, ex = _p1(d, s)
        assert code == 0 and _graph(ex.value) == graph
        aclDestroyAclOpExecutor(ex.value)
        got = _copy(dev, d, s)
        assert (got.astype(np.float64) == np.broadcast_to(src.astype(sdt), sshape).astype(np.float64)).all()
    finally:
        dev.close()


def test_broadcast_attributes(dev):
    s, d = dev.tensor(np.ones(3, np.int16)), dev.tensor(np.zeros((2, 3), np.int16))
    _code, _, ex = _p1(d, s)
    ln = ex.value.launches[0]
    assert ln.attrs == {"T": "DT_INT16", "Tidx": "DT_INT64"}
    assert ln.inputs[1].storage.data.tolist() == [2, 3]  # the shape as an INT64 host tensor
    aclDestroyAclOpExecutor(ex.value)


def test_views(dev):
    xs = np.arange(12, dtype=np.float32).reshape(3, 4)
    src = dev.strided(xs, (4, 3), (1, 4))  # transposed
    d = dev.tensor(np.zeros((4, 3), np.float32))
    code, _, ex = _p1(d, src)
    assert code == 0 and _graph(ex.value) == ["Transpose"]  # Contiguous writes straight into selfRef
    aclDestroyAclOpExecutor(ex.value)
    assert (_copy(dev, d, src) == xs.T).all()
    # into every other element of a bigger tensor
    base = np.full(8, -1.0, np.float32)
    view = dev.strided(base, (4,), (2,))
    s = dev.tensor(np.array([1, 2, 3, 4], np.int32))
    code, _, ex = _p1(view, s)
    assert code == 0 and _graph(ex.value) == ["Cast", "ViewCopy"]
    aclDestroyAclOpExecutor(ex.value)
    assert _copy(dev, view, s).tolist() == [1.0, 2.0, 3.0, 4.0]
    full = aclCreateTensor([8], 1, ACL_FLOAT, None, 0, ACL_FORMAT_ND, [8], 1, view.storage.addr)
    dev.tensors.append(full)
    assert dev.read(full).tolist() == [1.0, -1.0, 2.0, -1.0, 3.0, -1.0, 4.0, -1.0]


def test_view_copy_into_a_permuted_view_is_canns_transpose(dev):
    """ViewCopy into a permuted selfRef (CanOptimizeView / OptimizeView): one Transpose whose perm
    lists selfRef's dims by decreasing stride (output dim i = input dim perm[i]), from the result
    read without size-1 dims to selfRef's memory read as the dense permuted block; a stride 0,
    even on a size-1 dim, is a broadcast: the ViewCopy kernel."""
    src = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    for shape, strides, perm, dst in (((2, 3, 4), (3, 1, 6), [2, 0, 1], [4, 2, 3]),
                                      ((2, 1, 3, 4), (3, 7, 1, 6), [2, 0, 1], [4, 2, 3])):  # fmt: skip
        view = dev.strided(np.zeros(24, np.float32), shape, strides)
        s = dev.tensor(src.reshape(shape))
        code, _, ex = _p1(view, s)
        (ln,) = ex.value.launches
        assert code == 0 and ln.op_type == "Transpose" and ln.attrs["perm"] == perm
        assert ln.inputs[0].view_shape == (2, 3, 4) and list(ln.outputs[0].view_shape) == dst
        aclDestroyAclOpExecutor(ex.value)
        assert (_copy(dev, view, s) == src.reshape(shape)).all()
    view = dev.strided(np.zeros(6, np.float32), (2, 1, 3), (1, 0, 2))
    s = dev.tensor(np.arange(6, dtype=np.float32).reshape(2, 1, 3))
    code, _, ex = _p1(view, s)
    assert code == 0 and _graph(ex.value) == ["ViewCopy"]
    aclDestroyAclOpExecutor(ex.value)
    assert (_copy(dev, view, s) == np.arange(6, dtype=np.float32).reshape(2, 1, 3)).all()


def test_zero_dim(dev):
    d = dev.tensor(np.zeros(1, np.int8))
    got = _copy(dev, d, dev.tensor(np.array(-7.9, np.float32)))
    assert got.tolist() == [-7]


# -- numbers ---------------------------------------------------------------------------------------

NUMBERS = [
    # chip, src values, self dtype, recipe of the Cast that runs
    ("Ascend910B", np.array([np.nan, 3e9, -1.5, 300.7], np.float32), np.int32, "tbe-v220"),
    ("Ascend910B", np.array([300.7, -1.5, 1e10], np.float32), np.int8, "tbe-v220"),
    ("Ascend950", np.array([300.7, -1.5, 1e10], np.float32), np.int8, "arch35"),
    ("Ascend910", np.array([300.7, -1.5, 1e10], np.float32), np.int8, "aicpu"),
    ("Ascend910B", np.array([70000, 65535, 3], np.uint32), np.uint16, "tbe-v220"),
    ("Ascend950", np.array([70000, 65535, 3], np.uint32), np.uint16, "arch35"),
    ("Ascend910B", np.array([-1.0, 255.9, 300.0], np.float64), np.uint8, "aicpu"),
]


@pytest.mark.parametrize("chip,src,sdt,recipe", NUMBERS)
def test_cross_dtype_numbers(soc, chip, src, sdt, recipe):
    soc(chip)
    dev = Dev()
    try:
        got = _copy(dev, dev.tensor(np.zeros(src.shape, sdt)), dev.tensor(src))
        name = np.dtype(sdt).name
        if src.dtype.kind == "f":
            want = [gc.float_to_int(float(v), src.dtype.name, name, recipe) for v in src]
        else:
            want = [gc.int_to_int(int(v), src.dtype.name, name, recipe) for v in src]
        assert got.tolist() == want
    finally:
        dev.close()


def test_complex_to_real_keeps_the_real_part(dev):
    src = np.array([1.5 - 2j, -3.25 + 1j], np.complex64)
    got = _copy(dev, dev.tensor(np.zeros(2, np.float32)), dev.tensor(src))
    assert got.tolist() == [1.5, -3.25]
    got = _copy(dev, dev.tensor(np.zeros(2, np.complex128)), dev.tensor(np.array([1.5, 2.0], np.float32)))
    assert got.tolist() == [1.5 + 0j, 2 + 0j]


def test_float8_copies_on_ascend950(soc):
    soc("Ascend950")
    dev = Dev()
    try:
        d = dev.tensor(np.zeros(3, np.uint8), acl_dtype=ACL_FLOAT8_E4M3FN)
        s = dev.tensor(np.array([0.1, 2.125, -448.0], np.float32))
        assert dev.run(aclnnInplaceCopyGetWorkspaceSize, aclnnInplaceCopy, d, s) == (0, 0, 0)
        got = dev.read(d, ml_dtypes.float8_e4m3fn).astype(np.float32)
        assert got.tolist() == [0.1015625, 2.0, -448.0]
        e8 = _raw(dev, [3], ACL_FLOAT8_E8M0)
        assert _p1(e8, s)[0] == ACLNN_ERR_INNER_NULLPTR  # no engine converts FLOAT -> E8M0
    finally:
        dev.close()


def test_the_example(dev):
    self_t = dev.tensor(np.arange(8, dtype=np.float32).reshape(4, 2))
    src = np.array([1, 1, 1, 2, 2, 2, 3, 3], np.float32).reshape(4, 2)
    got = _copy(dev, self_t, dev.tensor(src))
    assert [f"{v:f}" for v in got.reshape(-1)] == [f"{v:f}" for v in src.reshape(-1)]
