"""The res-limit calls on a device that is not open, and aclrtDevicePeerAccessStatus without
RT_FEATURE_DEVICE_P2P (CANN runtime master, ACL 1.17).

aclrtGet/Set/ResetDeviceResLimit reach ApiImpl::Get/Set/ResetDeviceResLimit (api_impl.cc:7827-7874,
every chip: ApiImplDavid does not override them), which reads Runtime::GetDevice: NULL unless a
context holds the device (aclrtSetDevice's primary context or aclrtCreateContext). Then
NULL_PTR_RETURN_MSG(dev, RT_ERROR_DEVICE_NULL): 507033, the macro's inner EE9999 and the rts
wrapper's "device pointer null"; after the rts entry's negative-id check and the decorator's type
and id checks, before SetDeviceResLimit's value check.

aclrtDevicePeerAccessStatus reaches NpuDriver::GetP2PStatus (npu_driver.cc:1091-1099): without
RT_FEATURE_DEVICE_P2P it returns RT_ERROR_FEATURE_NOT_SUPPORT (207000, the wrapper's EE1001)
before the driver is asked. Every emulated family registers the feature, so the refusal is shown
with the feature taken away from the current family."""

from __future__ import annotations

import pytest
from rt_texts import FUNC_ERROR_REASON, RANGE_SOLUTION, TRACEBACK

from aclnn_py import (
    ACL_ERROR_INVALID_PARAM,
    ACL_ERROR_RT_DEV_SETUP_ERROR,
    ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
    ACL_ERROR_RT_INVALID_DEVICEID,
    ACL_ERROR_RT_PARAM_INVALID,
    ACL_RT_DEV_RES_CUBE_CORE,
    ACL_RT_DEV_RES_VECTOR_CORE,
    ACL_RT_THREAD_LEVEL,
    Ref,
    aclGetRecentErrMsg,
    aclrtCreateContext,
    aclrtDestroyContext,
    aclrtDeviceEnablePeerAccess,
    aclrtDevicePeerAccessStatus,
    aclrtGetDeviceResLimit,
    aclrtGetLastError,
    aclrtResetDevice,
    aclrtResetDeviceForce,
    aclrtResetDeviceResLimit,
    aclrtSetDevice,
    aclrtSetDeviceResLimit,
)
from aclnn_py.runtime import _rt_features

FAMILIES = ["Ascend910B", "Ascend910_93", "Ascend950", "Ascend910", "Ascend310P"]
CUBE, VECTOR = ACL_RT_DEV_RES_CUBE_CORE, ACL_RT_DEV_RES_VECTOR_CORE

# (rts function, ApiImpl function, its NULL_PTR_RETURN_MSG line in api_impl.cc, the call on device d)
RES_CALLS = [
    ("rtsSetDeviceResLimit", "SetDeviceResLimit", 7832, lambda d: aclrtSetDeviceResLimit(d, CUBE, 1)),
    ("rtsResetDeviceResLimit", "ResetDeviceResLimit", 7855, lambda d: aclrtResetDeviceResLimit(d)),
    ("rtsGetDeviceResLimit", "GetDeviceResLimit", 7870, lambda d: aclrtGetDeviceResLimit(d, CUBE, Ref())),
]
RES_IDS = [c[0] for c in RES_CALLS]


def device_null(rt_fn: str, func: str, line: int) -> str:
    """507033 of ApiImpl's NULL device: the inner EE9999, then the wrapper's reason."""
    return (
        "EE9999: Internal error!\n"
        f"EE9999(EE9999):  Check param failed, dev can not be null.[FUNC:{func}][FILE:api_impl.cc][LINE:{line}]\n"
        + TRACEBACK
        + f"       {rt_fn} execution failed, reason=device pointer null{FUNC_ERROR_REASON}\n"
    )


def p2p_unsupported() -> str:
    text = "The argument is invalid. Reason: rtGetP2PStatus execution failed, the feature is not supported."
    return f"Invalid_Argument(EE1001): {text}\n" + RANGE_SOLUTION


# ---------------------------------------------------------------------------------------------
# the res-limit calls need an open device
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize(("rt_fn", "func", "line", "call"), RES_CALLS, ids=RES_IDS)
def test_res_limit_of_a_device_never_set_is_507033(chip, family, rt_fn, func, line, call):
    chip(family)  # device 0 open and current; device 1 valid but never set
    assert call(1) == ACL_ERROR_RT_DEV_SETUP_ERROR
    assert aclrtGetLastError(ACL_RT_THREAD_LEVEL) == ACL_ERROR_RT_DEV_SETUP_ERROR
    assert aclGetRecentErrMsg() == device_null(rt_fn, func, line)
    assert call(0) == 0  # the open device answers


def test_get_res_limit_of_a_closed_device_leaves_value_alone(chip):
    chip("Ascend910B")
    value = Ref(12345)
    assert aclrtGetDeviceResLimit(1, VECTOR, value) == ACL_ERROR_RT_DEV_SETUP_ERROR
    assert value.value == 12345


def test_res_limit_checks_before_and_after_the_open_device(chip):
    chip("Ascend910B")
    # the ACL layer's pointer, the rts entry's negative id, the decorator's type and id come first
    earlier = [
        (lambda: aclrtGetDeviceResLimit(1, CUBE, None), ACL_ERROR_INVALID_PARAM, "value cannot be a NULL pointer"),
        (lambda: aclrtSetDeviceResLimit(-1, CUBE, 1), ACL_ERROR_RT_INVALID_DEVICEID, "parameter devId"),
        (lambda: aclrtSetDeviceResLimit(1, 2, 1), ACL_ERROR_RT_PARAM_INVALID, "parameter type"),
        (lambda: aclrtGetDeviceResLimit(1, 2, Ref()), ACL_ERROR_RT_PARAM_INVALID, "parameter type"),
        (lambda: aclrtResetDeviceResLimit(8), ACL_ERROR_RT_INVALID_DEVICEID, "Verifying the device ID validity"),
    ]
    for call, code, text in earlier:
        assert call() == code
        assert text in aclGetRecentErrMsg().splitlines()[0]
    # ... then the device: a value above the cores is not looked at on a closed device
    assert aclrtSetDeviceResLimit(1, CUBE, 10**6) == ACL_ERROR_RT_DEV_SETUP_ERROR
    assert aclGetRecentErrMsg() == device_null("rtsSetDeviceResLimit", "SetDeviceResLimit", 7832)
    assert aclrtSetDeviceResLimit(0, CUBE, 10**6) == ACL_ERROR_RT_PARAM_INVALID


def test_res_limit_follows_the_device_opening_and_closing(chip):
    chip("Ascend950")
    value = Ref()
    assert aclrtSetDevice(1) == 0  # open: the calls work
    assert aclrtSetDeviceResLimit(1, VECTOR, 3) == 0
    assert aclrtGetDeviceResLimit(1, VECTOR, value) == 0 and value.value == 3
    assert aclrtResetDeviceResLimit(1) == 0
    assert aclrtResetDevice(1) == 0  # closed again (the fixture's own reset of device 1 then fails quietly)
    assert aclrtGetDeviceResLimit(1, VECTOR, value) == ACL_ERROR_RT_DEV_SETUP_ERROR
    assert aclrtSetDeviceResLimit(1, VECTOR, 3) == ACL_ERROR_RT_DEV_SETUP_ERROR
    assert aclrtResetDeviceResLimit(1) == ACL_ERROR_RT_DEV_SETUP_ERROR


def test_an_explicit_context_opens_the_device(chip):
    chip("Ascend910B")
    ctx = Ref()
    assert aclrtCreateContext(ctx, 1) == 0  # retains device 1 without its primary context
    value = Ref()
    assert aclrtSetDeviceResLimit(1, CUBE, 2) == 0
    assert aclrtGetDeviceResLimit(1, CUBE, value) == 0 and value.value == 2
    assert aclrtResetDeviceResLimit(1) == 0
    assert aclrtSetDevice(1) == 0
    assert aclrtResetDeviceForce(1) == 0  # the primary context goes; the explicit context keeps the device
    assert aclrtGetDeviceResLimit(1, CUBE, value) == 0
    assert aclrtDestroyContext(ctx.value) == 0
    assert aclrtGetDeviceResLimit(1, CUBE, value) == ACL_ERROR_RT_DEV_SETUP_ERROR


# ---------------------------------------------------------------------------------------------
# aclrtDevicePeerAccessStatus and RT_FEATURE_DEVICE_P2P
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("family", FAMILIES)
def test_every_emulated_family_answers_the_peer_status(chip, family):
    chip(family)
    assert _rt_features.has("RT_FEATURE_DEVICE_P2P")  # config/*/dev_info_reg.cc of all five
    status = Ref()
    assert aclrtDevicePeerAccessStatus(0, 1, status) == 0 and status.value == 0
    assert aclrtDeviceEnablePeerAccess(1, 0) == 0
    assert aclrtDevicePeerAccessStatus(0, 1, status) == 0 and status.value == 1


@pytest.fixture
def no_p2p(chip, monkeypatch):
    """Ascend910B with RT_FEATURE_DEVICE_P2P taken away (a chip type such as mini's lacks it)."""
    chip("Ascend910B")
    features = _rt_features.FEATURES
    monkeypatch.setitem(features, "Ascend910B", features["Ascend910B"] - {"RT_FEATURE_DEVICE_P2P"})


def test_peer_status_without_p2p_is_207000(no_p2p):
    status = Ref(7)
    assert aclrtDevicePeerAccessStatus(0, 1, status) == ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    assert aclrtGetLastError(ACL_RT_THREAD_LEVEL) == ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    assert aclGetRecentErrMsg() == p2p_unsupported()
    assert status.value == 7  # nothing written


def test_peer_status_without_p2p_check_order(no_p2p):
    status = Ref()
    earlier = [
        ((0, 1, None), ACL_ERROR_INVALID_PARAM, "status cannot be a NULL pointer"),  # the ACL layer's pointer
        ((64, 1, status), ACL_ERROR_RT_PARAM_INVALID, "parameter realDeviceId"),  # the decorator's ids
        ((0, -1, status), ACL_ERROR_RT_PARAM_INVALID, "parameter phyIdSrc"),
    ]
    for args, code, text in earlier:
        assert aclrtDevicePeerAccessStatus(*args) == code
        assert text in aclGetRecentErrMsg().splitlines()[0]
    # the feature before the driver: a device past the devices is not looked at
    assert aclrtDevicePeerAccessStatus(9, 1, status) == ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    assert aclGetRecentErrMsg() == p2p_unsupported()


def test_res_limits_do_not_outlive_the_device(chip):
    """The limits live in the runtime's Device (RawDevice::resLimitArray_), which the last context's
    release deletes (runtime.cc:3216); the next aclrtSetDevice builds one from the chip's cores."""
    chip("Ascend910B")
    value = Ref()
    assert aclrtGetDeviceResLimit(0, CUBE, value) == 0
    cores = value.value
    assert aclrtSetDeviceResLimit(0, CUBE, 2) == 0
    assert aclrtResetDevice(0) == 0 and aclrtSetDevice(0) == 0
    assert aclrtGetDeviceResLimit(0, CUBE, value) == 0 and value.value == cores != 2
