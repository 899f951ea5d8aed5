"""aclrtRepairError: CANN's checks in order and what each chip's implementation accepts."""

from __future__ import annotations

from aclnn_py import (
    ACL_ERROR_INVALID_PARAM,
    ACL_ERROR_RT_DEV_SETUP_ERROR,
    ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
    ACL_ERROR_RT_INVALID_DEVICEID,
    ACL_ERROR_RT_PARAM_INVALID,
    ACL_RT_ERROR_AICORE,
    ACL_RT_ERROR_L2,
    ACL_RT_ERROR_LINK,
    ACL_RT_ERROR_MEMORY,
    ACL_RT_NO_ERROR,
    ACL_RT_THREAD_LEVEL,
    Ref,
    aclFinalize,
    aclGetRecentErrMsg,
    aclInit,
    aclrtGetErrorVerbose,
    aclrtGetLastError,
    aclrtResetDevice,
    aclrtSetDevice,
)
from aclnn_py.runtime.api_device_repair import aclrtRepairError
from aclnn_py.runtime.api_system import aclrtErrorInfo


def _info(error_type: int, try_repair: int = 1) -> aclrtErrorInfo:
    info = aclrtErrorInfo()
    info.tryRepair, info.errorType = try_repair, error_type
    return info


def test_checks_in_cann_order(soc):
    soc("Ascend910B1")
    assert aclInit(None) == 0
    assert aclrtRepairError(0, None) == ACL_ERROR_INVALID_PARAM
    assert "aclrtRepairError failed because errorInfo cannot be a NULL pointer." in aclGetRecentErrMsg()
    assert aclrtRepairError(-1, _info(ACL_RT_NO_ERROR, 0)) == ACL_ERROR_RT_PARAM_INVALID  # tryRepair first
    assert aclrtRepairError(-1, _info(ACL_RT_NO_ERROR)) == ACL_ERROR_RT_INVALID_DEVICEID
    assert aclrtRepairError(0, _info(ACL_RT_NO_ERROR)) == ACL_ERROR_RT_DEV_SETUP_ERROR  # not open
    assert aclrtSetDevice(0) == 0
    try:
        assert aclrtRepairError(0, _info(ACL_RT_NO_ERROR)) == 0
        assert aclrtRepairError(0, _info(ACL_RT_ERROR_MEMORY)) == 0
        assert aclrtRepairError(0, _info(ACL_RT_ERROR_LINK)) == ACL_ERROR_RT_PARAM_INVALID
        assert (
            "Rectifying the device faults failed because value ERROR_LINK(4) for parameter errorInfo->errorType "
            "is invalid. Expected value: {NO_ERROR(0), ERROR_MEMORY(1), ERROR_LINK(4)}." in aclGetRecentErrMsg()
        )
        # what aclrtGetErrorVerbose reports (no fault) is accepted back once tryRepair is set
        got = Ref()
        assert aclrtGetErrorVerbose(0, got) == 0
        got.value.tryRepair = 1
        assert aclrtRepairError(0, got.value) == 0
    finally:
        assert aclrtResetDevice(0) == 0 and aclFinalize() == 0


def test_ascend950_repairs_its_fault_types(soc):
    soc("Ascend950")
    assert aclInit(None) == 0 and aclrtSetDevice(0) == 0
    try:
        for t in (ACL_RT_ERROR_L2, ACL_RT_ERROR_AICORE, ACL_RT_ERROR_MEMORY, ACL_RT_ERROR_LINK, 5):
            assert aclrtRepairError(0, _info(t)) == 0
        assert aclrtRepairError(0, _info(ACL_RT_NO_ERROR)) == ACL_ERROR_RT_PARAM_INVALID  # not in its switch
    finally:
        assert aclrtResetDevice(0) == 0 and aclFinalize() == 0


def test_chips_without_the_feature_refuse_silently(soc):
    soc("Ascend310P")
    assert aclrtRepairError(0, _info(ACL_RT_NO_ERROR)) == ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    assert aclrtGetLastError(ACL_RT_THREAD_LEVEL) == ACL_ERROR_RT_FEATURE_NOT_SUPPORT
