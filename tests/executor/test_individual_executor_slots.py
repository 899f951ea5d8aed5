"""An individual op's executor (nnopbase) holds its kernel's addresses from phase 1: what
aclSetRawTensorAddr does to a tensor afterwards does not move the kernel, aclSetTensorAddr /
aclSetInputTensorAddr / aclSetOutputTensorAddr move the argument their index names, with
nnopbase's range and null-slot checks; and nnopbase pools its executors, so destroying or
making repeatable an executor phase 2 consumed answers 0 (hicann/opbase indv_executor.cpp,
individual_op_api.cpp, acl_op_api.cpp)."""

from __future__ import annotations

import numpy as np
import pytest

from aclnn_py import (
    ACLNN_ERR_INNER_NULLPTR,
    ACLNN_ERR_PARAM_INVALID,
    Ref,
    aclDestroyAclOpExecutor,
    aclGetRecentErrMsg,
    aclnnScaledMaskedSoftmax,
    aclnnScaledMaskedSoftmaxGetWorkspaceSize,
    aclrtSynchronizeStream,
    aclSetAclOpExecutorRepeatable,
    aclSetInputTensorAddr,
    aclSetOutputTensorAddr,
    aclSetRawTensorAddr,
    aclSetTensorAddr,
)

SHAPE = (1, 1, 2, 8)


def _phase1(dev, x, m, y):
    ws, ex = Ref(0), Ref()
    assert aclnnScaledMaskedSoftmaxGetWorkspaceSize(x, m, 1.0, False, y, ws, ex) == 0, aclGetRecentErrMsg()
    return ws.value, ex.value


def _phase2(dev, ws, ex):
    assert aclnnScaledMaskedSoftmax(dev.workspace(ws), ws, ex, dev.stream) == 0, aclGetRecentErrMsg()
    assert aclrtSynchronizeStream(dev.stream) == 0


def _setup(dev):
    x = dev.tensor(np.arange(16, dtype=np.float32).reshape(SHAPE) / 8)
    m = dev.tensor(np.zeros(SHAPE, np.bool_))
    y = dev.tensor(np.zeros(SHAPE, np.float32))
    return x, m, y


def test_a_raw_address_change_after_phase_1_does_not_move_the_kernel(dev):
    x, m, y = _setup(dev)
    ws, ex = _phase1(dev, x, m, y)
    other = dev.tensor(np.zeros(SHAPE, np.float32))
    old = y.storage.addr
    assert aclSetRawTensorAddr(y, other.storage.addr) == 0  # the document forbids it between the phases
    _phase2(dev, ws, ex)
    assert aclSetRawTensorAddr(y, old) == 0
    assert np.all(dev.read(y) > 0)  # the kernel wrote the address phase 1 copied
    assert not dev.read(other).any()  # not the tensor's new one


@pytest.mark.parametrize("how", ["output", "flat"])
def test_set_output_tensor_addr_moves_the_kernels_output(dev, how):
    x, m, y = _setup(dev)
    ws, ex = _phase1(dev, x, m, y)
    assert aclSetAclOpExecutorRepeatable(ex) == 0
    _phase2(dev, ws, ex)
    first = dev.read(y)
    y2 = dev.tensor(np.zeros(SHAPE, np.float32))
    if how == "output":
        assert aclSetOutputTensorAddr(ex, 0, y2, y2.storage.addr) == 0
    else:  # aclSetTensorAddr counts the inputs (x, mask) first: index 2 is the output
        assert aclSetTensorAddr(ex, 2, y2, y2.storage.addr) == 0
    _phase2(dev, ws, ex)
    np.testing.assert_array_equal(dev.read(y2), first)
    assert aclDestroyAclOpExecutor(ex) == 0


def test_set_input_tensor_addr_moves_an_input(dev):
    x, m, y = _setup(dev)
    ws, ex = _phase1(dev, x, m, y)
    assert aclSetAclOpExecutorRepeatable(ex) == 0
    x2 = dev.tensor(np.zeros(SHAPE, np.float32))  # equal inputs: an even softmax
    assert aclSetInputTensorAddr(ex, 0, x2, x2.storage.addr) == 0
    _phase2(dev, ws, ex)
    np.testing.assert_allclose(dev.read(y), np.full(SHAPE, 1 / 8, np.float32), rtol=1e-6)
    assert aclDestroyAclOpExecutor(ex) == 0


def test_index_and_null_slot_checks(dev):
    x, m, y = _setup(dev)
    ws, ex = _phase1(dev, x, m, y)
    # an absent optional input's slot (aclnnScaledMaskedSoftmax's own checks require the mask, so
    # the slot is emptied here as a null optional tensor leaves it)
    op_type, inputs, outputs = ex.io_slots
    ex.io_slots = (op_type, [inputs[0], None], outputs)
    assert aclSetTensorAddr(ex, 7, y, y.storage.addr) == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg().startswith(
        "Invalid_Argument(EZ1012): Value 5 for parameter index is out of range, it should be smaller than 1."
    )
    assert aclSetInputTensorAddr(ex, 5, x, x.storage.addr) == ACLNN_ERR_PARAM_INVALID
    assert "Value 5 for parameter index is out of range, it should be smaller than 2." in aclGetRecentErrMsg()
    assert aclSetOutputTensorAddr(ex, 3, y, y.storage.addr) == ACLNN_ERR_PARAM_INVALID
    assert "Value 3 for parameter index is out of range, it should be smaller than 1." in aclGetRecentErrMsg()
    assert aclSetInputTensorAddr(ex, 1, x, x.storage.addr) == ACLNN_ERR_PARAM_INVALID  # the absent mask
    assert aclGetRecentErrMsg().startswith(
        "Execution_Error(EZ1009): Failed to execute operator ScaledMaskedSoftmaxV2_0. Reason: The 1th input in "
        "operator ScaledMaskedSoftmaxV2 is a null pointer. The address cannot be updated through the "
        "aclSetTensorAddr/aclSetInputTensorAddr API."
    )
    _phase2(dev, ws, ex)


@pytest.mark.parametrize("fn", [aclSetInputTensorAddr, aclSetOutputTensorAddr, aclSetTensorAddr])
def test_null_pointer_messages_name_the_function_called(dev, fn):
    x, m, y = _setup(dev)
    ws, ex = _phase1(dev, x, m, y)
    name = fn.__name__
    assert fn(ex, 0, None, 0) == ACLNN_ERR_INNER_NULLPTR
    assert f"{name} failed because tensor cannot be a NULL pointer." in aclGetRecentErrMsg()
    assert fn(None, 0, y, y.storage.addr) == ACLNN_ERR_INNER_NULLPTR
    assert f"{name} failed because executor cannot be a NULL pointer." in aclGetRecentErrMsg()
    _phase2(dev, ws, ex)


def test_a_consumed_executor_is_pooled_not_freed(dev, findings):
    x, m, y = _setup(dev)
    ws, ex = _phase1(dev, x, m, y)
    _phase2(dev, ws, ex)
    assert aclDestroyAclOpExecutor(ex) == 0  # NnopbaseResetExecutor on an idle executor
    assert aclSetAclOpExecutorRepeatable(ex) == 0
    assert aclDestroyAclOpExecutor(ex) == 0
    assert aclSetOutputTensorAddr(ex, 0, y, y.storage.addr) == 0  # nothing moves: the executor is idle
    assert "[usage]" in aclGetRecentErrMsg()  # the sanitizer's note; CANN reports nothing
    assert findings.refresh().checks() == ["usage"] * 4
    assert "nnopbase keeps its executors in a pool" in findings.text()


def test_the_address_setters_on_a_released_composite_executor_answer_0(dev, findings):
    """acl_op_api.cpp's setters set the tensor's address, then look only for nnopbase's magic
    number: for any other executor they return OK without reading it."""
    from aclnn_py import ACL_FLOAT, aclCreateScalar, aclDestroyScalar, aclnnAdd, aclnnAddGetWorkspaceSize

    a = dev.tensor(np.ones(4, np.float32))
    out = dev.tensor(np.zeros(4, np.float32))
    alpha = aclCreateScalar(1.0, ACL_FLOAT)
    ws, ex = Ref(0), Ref()
    assert aclnnAddGetWorkspaceSize(a, a, alpha, out, ws, ex) == 0
    assert aclnnAdd(dev.workspace(ws.value), ws.value, ex.value, dev.stream) == 0
    assert aclSetTensorAddr(ex.value, 0, out, out.storage.addr) == 0
    assert findings.refresh().checks() == ["usage"]
    assert "only looks for nnopbase's executors" in findings.text()
    assert aclDestroyScalar(alpha) == 0
