"""aclnnInplaceZero: error rows, the dtype list per chip (the longer regbase list; BFLOAT16
accepted on Ascend910/310P, unlike the document), AI Core / AI CPU ZerosLike per chip, the AI CPU's
8-dim limit, views, empty and 0-d tensors, the zeros' bits."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
from helpers import ACL_OF, Dev

from aclnn_py import (
    ACL_FLOAT4_E2M1,
    ACL_FLOAT8_E5M2,
    ACL_FORMAT_ND,
    ACL_HIFLOAT8,
    ACL_UINT32,
    ACL_UINT64,
    ACLNN_ERR_INNER_NULLPTR,
    ACLNN_ERR_PARAM_INVALID,
    ACLNN_ERR_PARAM_NULLPTR,
    Ref,
    aclCreateTensor,
    aclDestroyAclOpExecutor,
    aclGetRecentErrMsg,
    aclnnInplaceZero,
    aclnnInplaceZeroGetWorkspaceSize,
)
from aclnn_py import dtypes as D
from aclnn_py.l0 import zeros_like as l0
from aclnn_py.ops.math import zero as facts

BF16 = np.dtype(ml_dtypes.bfloat16)
PREFIX = "AclNN_Parameter_Error(EZ1001): "
CHIPS = ["Ascend910B", "Ascend910_93", "Ascend950", "Ascend910", "Ascend310P"]
ALL = [np.float32, np.float16, BF16, np.float64, np.int8, np.int16, np.int32, np.int64, np.uint8, np.bool_,
       np.complex64, np.complex128, np.uint16, np.uint32, np.uint64]  # fmt: skip


def _p1(t):
    ws, ex = Ref(0), Ref()
    return aclnnInplaceZeroGetWorkspaceSize(t, ws, ex), ws, ex


def _graph(ex) -> list[str]:
    return [f"{ln.op_type}{'@AiCpu' if ln.engine == 'AiCpu' else ''}" for ln in ex.launches]


def _raw(dev, shape, acl, fill=0x5A):
    data = np.full(max(int(np.prod(shape)), 1), fill, np.uint8)
    ptr = dev.upload(data)
    t = aclCreateTensor(list(shape), len(shape), acl, None, 0, ACL_FORMAT_ND, list(shape), len(shape), ptr)
    dev.tensors.append(t)
    return t


def test_null_self(dev):
    code, _, ex = _p1(None)
    assert code == ACLNN_ERR_PARAM_NULLPTR and ex.value is None
    assert (
        aclGetRecentErrMsg()
        == f"{PREFIX}Expected a value of type [aclTensor] for argument [self] but instead found nullptr.\n"
    )
    assert aclnnInplaceZeroGetWorkspaceSize(None, None, Ref()) == ACLNN_ERR_PARAM_NULLPTR
    assert aclGetRecentErrMsg() == f"{PREFIX}executor or workspaceSize is nullptr\n"


@pytest.mark.parametrize("chip", CHIPS)
def test_every_dtype_per_chip(chip, soc):
    """Accepted iff in the chip's list; then AI Core iff in ZerosLike's list; the result is zeros."""
    soc(chip)
    dev = Dev()
    try:
        supported, aicore = facts.dtype_support_list(), l0.aicore_dtypes()
        for npdt in map(np.dtype, ALL):
            acl = int(ACL_OF[npdt])
            x = (np.arange(1, 7) * 3 - 7).astype(npdt) if npdt != np.bool_ else np.ones(6, np.bool_)
            t = dev.tensor(x.reshape(2, 3))
            code, ws, ex = _p1(t)
            if acl not in supported:
                assert code == ACLNN_ERR_PARAM_INVALID
                assert aclGetRecentErrMsg() == (
                    f"{PREFIX}Tensor self not implemented for {D.dt_name(acl)}, should be in dtype support list "
                    f"{D.dt_list_str(supported)}.\n"
                )
                continue
            assert code == 0, (chip, npdt, aclGetRecentErrMsg())
            assert _graph(ex.value) == ["ZerosLike" if acl in aicore else "ZerosLike@AiCpu"]
            assert aclnnInplaceZero(dev.workspace(ws.value), ws.value, ex.value, dev.stream) == 0
            got = dev.read(t)
            assert not got.view(np.uint8).any(), (chip, npdt)  # all-zero bits (+0.0, False)
    finally:
        dev.close()


def test_lists():
    assert facts.DTYPE_SUPPORT_LIST[-1] == D.DT_BF16 and len(facts.DTYPE_SUPPORT_LIST) == 13
    assert facts.DTYPE_SUPPORT_950_LIST[-1] == D.DT_FLOAT4_E2M1
    assert ACL_UINT32 not in facts.DTYPE_SUPPORT_950_LIST and ACL_UINT64 not in facts.DTYPE_SUPPORT_LIST


def test_no_rank_check_but_the_ai_cpu_refuses_nine_dims(dev):
    t = dev.tensor(np.ones((1,) * 9, np.float32))
    code, ws, ex = _p1(t)
    assert code == 0 and _graph(ex.value) == ["ZerosLike"]
    assert aclnnInplaceZero(dev.workspace(ws.value), ws.value, ex.value, dev.stream) == 0
    assert dev.read(t).sum() == 0
    d = dev.tensor(np.ones((1,) * 9, np.float64))
    code, _, _ = _p1(d)
    assert code == ACLNN_ERR_INNER_NULLPTR
    assert aclGetRecentErrMsg() == f"{PREFIX}The self tensor cannot be larger than 8 dimensions.\n"


def test_ascend950_small_floats(soc):
    soc("Ascend950")
    dev = Dev()
    try:
        for acl in (ACL_FLOAT8_E5M2, ACL_HIFLOAT8):
            t = _raw(dev, [5], acl)
            assert dev.run(aclnnInplaceZeroGetWorkspaceSize, aclnnInplaceZero, t) == (0, 0, 0)
            assert dev.read(t, np.uint8).tolist() == [0] * 5
        code, _, _ = _p1(_raw(dev, [4], ACL_FLOAT4_E2M1))  # accepted, but packed 4-bit data is not emulated
        assert code == ACLNN_ERR_INNER_NULLPTR
        assert "the ZerosLike kernel for DT_FLOAT4_E2M1 is not emulated" in aclGetRecentErrMsg()
    finally:
        dev.close()


def test_views_and_empty(dev):
    base = np.arange(1, 13, dtype=np.float32)
    view = dev.strided(base, (3, 2), (4, 2), 1)  # rows of 4, every other element from 1
    code, ws, ex = _p1(view)
    assert code == 0 and _graph(ex.value) == ["StridedSlice", "ZerosLike", "ViewCopy"]  # CANN: a 3 x 4 source, step 2
    assert aclnnInplaceZero(dev.workspace(ws.value), ws.value, ex.value, dev.stream) == 0
    full = aclCreateTensor(
        [12], 1, int(ACL_OF[np.dtype(np.float32)]), None, 0, ACL_FORMAT_ND, [12], 1, view.storage.addr
    )
    dev.tensors.append(full)
    want = base.copy()
    want[[1, 3, 5, 7, 9, 11]] = 0
    assert dev.read(full).tolist() == want.tolist()
    code, ws, ex = _p1(dev.tensor(np.ones((3, 0), np.float64)))
    assert code == 0 and ws.value == 0 and not ex.value.launches
    aclDestroyAclOpExecutor(ex.value)


def test_zero_dim_and_negative_zero(dev):
    t = dev.tensor(np.array(-0.0, np.float32))
    assert dev.run(aclnnInplaceZeroGetWorkspaceSize, aclnnInplaceZero, t) == (0, 0, 0)
    assert dev.read(t).view(np.uint32).tolist() == 0  # +0.0, not -0.0


def test_the_example(dev):
    t = dev.tensor(np.arange(8, dtype=np.float32).reshape(4, 2))
    assert dev.run(aclnnInplaceZeroGetWorkspaceSize, aclnnInplaceZero, t) == (0, 0, 0)
    assert [f"{v:f}" for v in dev.read(t).reshape(-1)] == ["0.000000"] * 8
