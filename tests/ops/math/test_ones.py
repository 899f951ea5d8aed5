"""aclnnInplaceOne: error rows (UINT16 is refused although the document lists it), the dtype list
per chip, AI Core / AI CPU OnesLike, views, empty, 0-d, the ones' encodings."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
from helpers import ACL_OF, Dev

from aclnn_py import (
    ACL_FLOAT,
    ACL_FORMAT_ND,
    ACLNN_ERR_PARAM_INVALID,
    ACLNN_ERR_PARAM_NULLPTR,
    Ref,
    aclCreateTensor,
    aclDestroyAclOpExecutor,
    aclGetRecentErrMsg,
    aclnnInplaceOne,
    aclnnInplaceOneGetWorkspaceSize,
)
from aclnn_py import dtypes as D
from aclnn_py.l0 import ones_like as l0
from aclnn_py.ops.math import ones as facts

BF16 = np.dtype(ml_dtypes.bfloat16)
PREFIX = "AclNN_Parameter_Error(EZ1001): "
CHIPS = ["Ascend910B", "Ascend910_93", "Ascend950", "Ascend910", "Ascend310P"]
ALL = [np.float32, np.float16, BF16, np.float64, np.int8, np.int16, np.int32, np.int64, np.uint8, np.bool_,
       np.complex64, np.complex128, np.uint16, np.uint32, np.uint64]  # fmt: skip
ONE_BITS = {np.dtype(np.float32): 0x3F800000, np.dtype(np.float16): 0x3C00, BF16: 0x3F80,
            np.dtype(np.float64): 0x3FF0000000000000}  # fmt: skip


def _p1(t):
    ws, ex = Ref(0), Ref()
    return aclnnInplaceOneGetWorkspaceSize(t, ws, ex), ws, ex


def _graph(ex) -> list[str]:
    return [f"{ln.op_type}{'@AiCpu' if ln.engine == 'AiCpu' else ''}" for ln in ex.launches]


def test_null_self(dev):
    code, _, ex = _p1(None)
    assert code == ACLNN_ERR_PARAM_NULLPTR and ex.value is None
    assert (
        aclGetRecentErrMsg()
        == f"{PREFIX}Expected a value of type [aclTensor] for argument [self] but instead found nullptr.\n"
    )


@pytest.mark.parametrize("chip", CHIPS)
def test_every_dtype_per_chip(chip, soc):
    soc(chip)
    dev = Dev()
    try:
        supported, aicore = facts.dtype_support_list(), l0.aicore_dtypes()
        for npdt in map(np.dtype, ALL):
            acl = int(ACL_OF[npdt])
            t = dev.tensor(np.zeros((2, 3), npdt))
            code, ws, ex = _p1(t)
            if acl not in supported:
                assert code == ACLNN_ERR_PARAM_INVALID
                assert aclGetRecentErrMsg() == (
                    f"{PREFIX}Tensor self not implemented for {D.dt_name(acl)}, should be in dtype support list "
                    f"{D.dt_list_str(supported)}.\n"
                )
                continue
            assert code == 0, (chip, npdt, aclGetRecentErrMsg())
            ln = ex.value.launches[0]
            assert _graph(ex.value) == ["OnesLike" if acl in aicore else "OnesLike@AiCpu"]
            assert ln.attrs == ({"T": "DT_BFLOAT16"} if acl == D.DT_BF16 and acl not in aicore else {})
            assert aclnnInplaceOne(dev.workspace(ws.value), ws.value, ex.value, dev.stream) == 0
            got = dev.read(t)
            if npdt in ONE_BITS:
                assert (got.view({2: np.uint16, 4: np.uint32, 8: np.uint64}[npdt.itemsize]) == ONE_BITS[npdt]).all()
            else:
                assert (got.view(np.uint8 if npdt == np.bool_ else npdt) == 1).all(), (chip, npdt)
    finally:
        dev.close()


def test_document_lists_uint16_but_the_code_refuses_it(dev):
    assert D.DT_UINT16 not in facts.ASCEND910B_DTYPE_SUPPORT_LIST
    code, _, _ = _p1(dev.tensor(np.zeros(2, np.uint16)))
    assert code == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg().startswith(f"{PREFIX}Tensor self not implemented for DT_UINT16")


def test_rank_limit(dev):
    code, _, _ = _p1(dev.tensor(np.zeros((1,) * 9, np.float32)))
    assert code == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == f"{PREFIX}The self tensor cannot be larger than 8 dimensions.\n"


def test_ai_cpu_kernels(dev):
    """CANN's AI CPU OnesLike, no attributes. (TensorFlow's, for complex and BFLOAT16, is unreachable
    here: the API refuses complex, and BFLOAT16 passes only where the AI Core takes it.)"""
    for npdt, attrs in ((np.float64, {}), (np.int16, {}), (np.int64, {})):
        code, _, ex = _p1(dev.tensor(np.zeros(3, npdt)))
        assert code == 0 and _graph(ex.value) == ["OnesLike@AiCpu"] and ex.value.launches[0].attrs == attrs
        aclDestroyAclOpExecutor(ex.value)


def test_views_empty_and_zero_dim(dev):
    xs = np.zeros((3, 4), np.float32)
    view = dev.strided(xs, (4, 3), (1, 4))
    code, ws, ex = _p1(view)
    assert code == 0 and _graph(ex.value) == ["Transpose", "OnesLike", "Transpose"]
    assert aclnnInplaceOne(dev.workspace(ws.value), ws.value, ex.value, dev.stream) == 0
    assert (dev.read(view) == 1).all()
    code, ws, ex = _p1(dev.tensor(np.zeros((0, 2), np.float32)))
    assert code == 0 and ws.value == 0 and not ex.value.launches
    aclDestroyAclOpExecutor(ex.value)
    t = dev.tensor(np.array(5, np.int32))
    assert dev.run(aclnnInplaceOneGetWorkspaceSize, aclnnInplaceOne, t) == (0, 0, 0)
    assert dev.read(t).tolist() == 1


def test_the_example(dev):
    t = aclCreateTensor([4, 2], 2, ACL_FLOAT, None, 0, ACL_FORMAT_ND, [4, 2], 2, dev.upload(np.zeros(8, np.float32)))
    dev.tensors.append(t)
    assert dev.run(aclnnInplaceOneGetWorkspaceSize, aclnnInplaceOne, t) == (0, 0, 0)
    assert [f"{v:f}" for v in dev.read(t).reshape(-1)] == ["1.000000"] * 8
