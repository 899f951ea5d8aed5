"""The atomic-capability queries: CANN's checks in order, then each chip's table."""

from __future__ import annotations

import numpy as np
import pytest

from aclnn_py import (
    ACL_ERROR_INVALID_PARAM,
    ACL_ERROR_RT_INVALID_DEVICEID,
    ACL_ERROR_RT_PARAM_INVALID,
    aclGetRecentErrMsg,
)
from aclnn_py.runtime.api_device_atomic import (
    aclrtDeviceGetHostAtomicCapabilities,
    aclrtDeviceGetP2PAtomicCapabilities,
)

INT_ADD, INCREMENT, FLOAT_ADD, DMA_ADD, DMA_MAX, SIMD_EXCH = 0, 3, 10, 30, 32, 44
SIGNED, UNSIGNED, SCALAR8, SCALAR16, SCALAR32, SCALAR64 = 1, 2, 8, 16, 32, 64


def test_p2p_capabilities_follow_the_chip(soc):
    ops = [INT_ADD, DMA_ADD, DMA_MAX, 13]  # 13: inside the checked range, no such operation
    soc("Ascend910B1")
    caps = [7] * 5
    assert aclrtDeviceGetP2PAtomicCapabilities(caps, ops, 4, 0, 1) == 0
    dma = SIGNED | SCALAR8 | SCALAR16 | SCALAR32
    assert caps == [0, dma, dma, 0, 7]  # only the count entries are written
    soc("Ascend950")
    arr = np.full(6, 99, dtype=np.uint32)
    ops = [INT_ADD, INCREMENT, FLOAT_ADD, DMA_ADD, SIMD_EXCH, 20]
    assert aclrtDeviceGetP2PAtomicCapabilities(arr, ops, 6, 1, 0) == 0
    type1 = SIGNED | UNSIGNED | SCALAR32 | SCALAR64
    assert arr.tolist() == [
        type1,
        UNSIGNED | SCALAR32 | SCALAR64,
        SCALAR16 | SCALAR32,
        dma,
        UNSIGNED | SCALAR32 | SCALAR64,
        0,
    ]
    soc("Ascend310P")
    caps = [5]
    assert aclrtDeviceGetP2PAtomicCapabilities(caps, [DMA_ADD], 1, 0, 1) == 0 and caps == [0]


@pytest.mark.parametrize("chip", ["Ascend910B1", "Ascend950"])
def test_host_capabilities_are_zero_over_pcie(soc, chip):
    soc(chip)
    caps = [3, 3]
    assert aclrtDeviceGetHostAtomicCapabilities(caps, [INT_ADD, DMA_ADD], 2, 0) == 0
    assert caps == [0, 0]


def test_checks_in_cann_order():
    host = "Querying details about the atomic operations supported between a specified device and the host"
    p2p = "Querying details about the atomic operations supported between devices"
    assert aclrtDeviceGetHostAtomicCapabilities(None, None, 0, -1) == ACL_ERROR_RT_PARAM_INVALID
    assert f"{host} failed because capabilities cannot be a NULL pointer." in aclGetRecentErrMsg()
    assert aclrtDeviceGetHostAtomicCapabilities([0], None, 0, -1) == ACL_ERROR_RT_PARAM_INVALID
    assert f"{host} failed because operations cannot be a NULL pointer." in aclGetRecentErrMsg()
    assert aclrtDeviceGetHostAtomicCapabilities([0], [99], 0, -1) == ACL_ERROR_RT_PARAM_INVALID
    assert f"{host} failed because value 0 for parameter count is invalid. Expected value: not equal to 0." in (
        aclGetRecentErrMsg()
    )
    assert aclrtDeviceGetHostAtomicCapabilities([0], [99], 1, -1) == ACL_ERROR_RT_INVALID_DEVICEID
    caps = [5, 5]
    assert aclrtDeviceGetHostAtomicCapabilities(caps, [0, 45], 2, 0) == ACL_ERROR_RT_PARAM_INVALID
    assert (
        "Validating atomic operations failed. Value UNKNOWN(45) for parameter operations[1] is invalid. "
        "Reason: the operation must be in [0, 44]." in aclGetRecentErrMsg()
    )
    assert caps == [5, 5]  # the check comes before the zeroing
    # p2p: equal ids before either is converted: RT_ERROR_DEVICE_ID, so 107001 and FuncErrorReason's reason
    assert aclrtDeviceGetP2PAtomicCapabilities([0], [0], 1, 99, 99) == ACL_ERROR_RT_INVALID_DEVICEID
    msg = aclGetRecentErrMsg()
    assert (
        f"{p2p} failed because value 99 for parameter srcDeviceId is invalid. Expected value: srcDeviceId must "
        "be different from dstDeviceId." in msg
    )
    assert "rtDeviceGetP2PAtomicCapabilities execution failed, reason=device id error" in msg
    assert aclrtDeviceGetP2PAtomicCapabilities([0], [-1], 1, 0, 99) == ACL_ERROR_RT_INVALID_DEVICEID
    assert aclrtDeviceGetP2PAtomicCapabilities([0], [-1], 1, 0, 1) == ACL_ERROR_RT_PARAM_INVALID
    assert "UNKNOWN(-1) for parameter operations[0]" in aclGetRecentErrMsg()
    assert aclrtDeviceGetP2PAtomicCapabilities([], [0], 1, 0, 1) == ACL_ERROR_INVALID_PARAM  # emulator: too short
