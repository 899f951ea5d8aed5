"""Invalid device ids of the device queries (CANN runtime master, ACL 1.17): the code, the texts
aclGetRecentErrMsg() returns, and where the id check stands among the call's other checks.

Eight devices (the default); ``dev0`` keeps a context bound, so aclGetRecentErrMsg adds nothing
of its own."""

from __future__ import annotations

import pytest
from rt_texts import FUNC_ERROR_REASON, INDENT, RANGE_SOLUTION, TRACEBACK, emulator, null

from aclnn_py import (
    ACL_ERROR_INVALID_PARAM,
    ACL_ERROR_RT_INVALID_DEVICEID,
    ACL_ERROR_RT_PARAM_INVALID,
    ACL_RT_DEV_RES_CUBE_CORE,
    ACL_RT_DEV_RES_VECTOR_CORE,
    ACL_RT_DEVICE_STATUS_NORMAL,
    ACL_RT_THREAD_LEVEL,
    Ref,
    aclGetRecentErrMsg,
    aclrtDeviceEnablePeerAccess,
    aclrtDeviceGetPCIBusId,
    aclrtDeviceGetUuid,
    aclrtDevicePeerAccessStatus,
    aclrtGetDeviceResLimit,
    aclrtGetLastError,
    aclrtGetPrimaryCtxState,
    aclrtPeekAtLastError,
    aclrtQueryDeviceStatus,
    aclrtResetDevice,
    aclrtResetDeviceResLimit,
    aclrtSetDevice,
    aclrtSetDeviceResLimit,
)


def ee1003(text: str, *traceback: str) -> str:
    """An EE1003 headline, then the TraceBack lines (each indented)."""
    return (
        f"Invalid_Argument(EE1003): {text}\n"
        + RANGE_SOLUTION
        + TRACEBACK
        + "".join(f"{INDENT}{line}\n" for line in traceback)
    )


def device_id_error(rt_fn: str) -> str:
    """The rt wrapper's FuncErrorReason of RT_ERROR_DEVICE_ID."""
    return f"{rt_fn} execution failed, reason=device id error{FUNC_ERROR_REASON}"


def verifying(dev: int, inner: str, func: str, line: int, rt_fn: str) -> str:
    """CheckDeviceIdIsValid's EE1003, the decorator's inner report, the wrapper's."""
    return ee1003(
        f"Verifying the device ID validity failed because value {dev} for parameter devId is invalid. "
        "Expected value: [0, 8).",
        f"{inner}[FUNC:{func}][FILE:api_error.cc][LINE:{line}]",
        device_id_error(rt_fn),
    )


def rts_negative(rt_fn: str, dev: int) -> str:
    """The rts entry's RT_LOG_OUTER_MSG_INVALID_PARAM, then its wrapper's FuncErrorReason."""
    return ee1003(
        f"{rt_fn} failed because value {dev} for parameter devId is invalid. "
        "Expected value: greater than or equal to 0.",
        device_id_error(rt_fn),
    )


def p2p(value: int, param: str) -> str:
    return ee1003(
        f"Obtaining the P2P status failed because value {value} for parameter {param} is invalid. "
        "Expected value: [0, 64).",
        "The argument is invalid. Reason: rtGetP2PStatus execution failed.",
    )


# ---------------------------------------------------------------------------------------------
# aclrtQueryDeviceStatus: rtDeviceStatusQuery (uint32 id), ApiErrorDecorator::DeviceStatusQuery
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("device", "drv"), [(8, 8), (63, 63), (-1, 4294967295), (-(2**31), 2**31)])
def test_query_device_status_of_an_invalid_id_is_107001(dev0, device, drv):
    status = Ref()
    assert aclrtQueryDeviceStatus(device, status) == ACL_ERROR_RT_INVALID_DEVICEID
    assert aclrtGetLastError(ACL_RT_THREAD_LEVEL) == ACL_ERROR_RT_INVALID_DEVICEID
    # CheckDeviceIdIsValid reads the id as int32, the decorator's inner report prints it as uint32
    assert aclGetRecentErrMsg() == verifying(
        device,
        f"drv devId is invalid, devId={drv}, drv devId={drv}, retCode=0x7010003",
        "DeviceStatusQuery",
        6533,
        "rtDeviceStatusQuery",
    )
    assert status.value is None


def test_query_device_status_checks_its_pointer_before_the_id(dev0):
    assert aclrtQueryDeviceStatus(-1, None) == ACL_ERROR_INVALID_PARAM
    assert aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL) == 0  # the ACL layer's refusal
    assert aclGetRecentErrMsg() == null("aclrtQueryDeviceStatus", "deviceStatus")
    status = Ref()
    assert aclrtQueryDeviceStatus(7, status) == 0 and status.value == ACL_RT_DEVICE_STATUS_NORMAL


# ---------------------------------------------------------------------------------------------
# aclrtDeviceGetUuid: rtGetDeviceUuid, ApiErrorDecorator::GetDeviceUuid
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("device", [-1, -(2**31)])
def test_uuid_of_a_negative_id_is_the_decorators_own_107001(dev0, device):
    uuid = Ref()
    assert aclrtDeviceGetUuid(device, uuid) == ACL_ERROR_RT_INVALID_DEVICEID
    assert aclrtGetLastError(ACL_RT_THREAD_LEVEL) == ACL_ERROR_RT_INVALID_DEVICEID
    assert aclGetRecentErrMsg() == ee1003(
        f"Obtaining the device UUID failed because value {device} for parameter devId is invalid. "
        "Expected value: greater than or equal to 0.",
        device_id_error("rtGetDeviceUuid"),
    )


@pytest.mark.parametrize("device", [8, 100])
def test_uuid_of_an_id_past_the_devices_is_107001(dev0, device):
    uuid = Ref()
    assert aclrtDeviceGetUuid(device, uuid) == ACL_ERROR_RT_INVALID_DEVICEID
    assert aclGetRecentErrMsg() == verifying(
        device,
        f"drvDeviceId is invalid, drvDeviceId={device}, ErrorCode=0x7010003",
        "GetDeviceUuid",
        6941,
        "rtGetDeviceUuid",
    )


def test_uuid_checks_its_pointer_before_the_id(dev0):
    assert aclrtDeviceGetUuid(-1, None) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg() == null("aclrtDeviceGetUuid", "uuid")
    uuid = Ref()
    assert aclrtDeviceGetUuid(7, uuid) == 0 and len(uuid.value) == 16


# ---------------------------------------------------------------------------------------------
# aclrtDeviceGetPCIBusId: rtDeviceGetPCIBusId, ApiErrorDecorator::GetDevicePCIBusId
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("device", [8, 63])
def test_pci_bus_id_of_an_id_past_the_devices_is_107001(dev0, device):
    bus = Ref()
    assert aclrtDeviceGetPCIBusId(device, bus, 13) == ACL_ERROR_RT_INVALID_DEVICEID
    assert aclrtGetLastError(ACL_RT_THREAD_LEVEL) == ACL_ERROR_RT_INVALID_DEVICEID
    assert aclGetRecentErrMsg() == verifying(
        device,
        f"drvDeviceId is invalid, drvDeviceId={device}, ErrorCode=0x7010003",
        "GetDevicePCIBusId",
        6967,
        "rtDeviceGetPCIBusId",
    )


def test_pci_bus_id_check_order(dev0):
    bus = Ref()
    assert aclrtDeviceGetPCIBusId(-1, None, 13) == ACL_ERROR_INVALID_PARAM  # the ACL layer's pointer check
    assert aclGetRecentErrMsg() == null("aclrtDeviceGetPCIBusId", "pciBusId")
    # a negative id comes before the buffer length ...
    assert aclrtDeviceGetPCIBusId(-1, bus, 12) == ACL_ERROR_RT_INVALID_DEVICEID
    assert aclGetRecentErrMsg() == ee1003(
        "Obtaining the device PCI bus id failed because value -1 for parameter devId is invalid. "
        "Expected value: greater than or equal to 0.",
        device_id_error("rtDeviceGetPCIBusId"),
    )
    # ... an id past the devices after it (the length's EE1003 is not recorded: see
    # test_pci_bus_ids_round_trip)
    assert aclrtDeviceGetPCIBusId(8, bus, 12) == ACL_ERROR_RT_PARAM_INVALID
    assert aclGetRecentErrMsg() == (
        "Invalid_Argument(EE1001): The argument is invalid. Reason: rtDeviceGetPCIBusId execution failed.\n"
        + RANGE_SOLUTION
    )
    assert aclrtDeviceGetPCIBusId(7, bus, 13) == 0 and bus.value == "0000:08:00.0"


# ---------------------------------------------------------------------------------------------
# aclrtGetPrimaryCtxState: rtsGetPrimaryCtxState, ApiErrorDecorator::GetPrimaryCtxState
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("device", [8, 63, -1])
def test_primary_context_state_of_an_invalid_id_is_107001(dev0, device):
    active = Ref()
    assert aclrtGetPrimaryCtxState(device, None, active) == ACL_ERROR_RT_INVALID_DEVICEID
    assert aclrtGetLastError(ACL_RT_THREAD_LEVEL) == ACL_ERROR_RT_INVALID_DEVICEID
    assert aclGetRecentErrMsg() == ee1003(
        f"Obtaining the status of the default context failed because value {device} for parameter realDeviceId "
        "is invalid. Expected value: [0, 8).",
        device_id_error("rtsGetPrimaryCtxState"),
    )


def test_primary_context_state_checks_active_and_flags_before_the_id(dev0):
    assert aclrtGetPrimaryCtxState(-1, None, None) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg() == null("aclrtGetPrimaryCtxState", "active")
    assert aclrtGetPrimaryCtxState(8, Ref(), Ref()) == ACL_ERROR_INVALID_PARAM
    assert "Reason: flags is a reserved parameter and must be nullptr." in aclGetRecentErrMsg()
    active = Ref()
    assert aclrtGetPrimaryCtxState(7, None, active) == 0 and active.value == 0


# ---------------------------------------------------------------------------------------------
# aclrtDevicePeerAccessStatus: rtsGetP2PStatus -> rtGetP2PStatus, ApiErrorDecorator::GetP2PStatus
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("device", "shown"), [(-1, 4294967295), (64, 64), (-(2**31), 2**31)])
def test_peer_status_of_an_id_past_the_maximum_is_107000(dev0, device, shown):
    status = Ref()
    assert aclrtDevicePeerAccessStatus(device, 1, status) == ACL_ERROR_RT_PARAM_INVALID
    assert aclrtGetLastError(ACL_RT_THREAD_LEVEL) == ACL_ERROR_RT_PARAM_INVALID
    assert aclGetRecentErrMsg() == p2p(shown, "realDeviceId")


def test_peer_status_check_order(dev0):
    status = Ref()
    assert aclrtDevicePeerAccessStatus(-1, 1, None) == ACL_ERROR_INVALID_PARAM  # the ACL layer's pointer check
    assert aclGetRecentErrMsg() == null("aclrtDevicePeerAccessStatus", "status")
    # the device before the peer
    assert aclrtDevicePeerAccessStatus(-1, -1, status) == ACL_ERROR_RT_PARAM_INVALID
    assert aclGetRecentErrMsg() == p2p(4294967295, "realDeviceId")
    # both ids below 64 come before whether the device exists (only the driver tells that)
    assert aclrtDevicePeerAccessStatus(9, 64, status) == ACL_ERROR_RT_PARAM_INVALID
    assert aclGetRecentErrMsg() == p2p(64, "phyIdSrc")
    assert aclrtDevicePeerAccessStatus(9, 1, status) == ACL_ERROR_RT_INVALID_DEVICEID
    assert aclGetRecentErrMsg() == (
        emulator("rtGetP2PStatus: device 9 does not exist; the emulator offers devices 0 to 7.")
        + TRACEBACK
        + f"{INDENT}{device_id_error('rtGetP2PStatus')}\n"
    )
    assert aclrtDeviceEnablePeerAccess(1, 0) == 0
    assert aclrtDevicePeerAccessStatus(0, 1, status) == 0 and status.value == 1


# ---------------------------------------------------------------------------------------------
# aclrtSetDeviceResLimit / aclrtGetDeviceResLimit / aclrtResetDeviceResLimit: the rts entries
# refuse a negative id; ApiErrorDecorator checks the type, then CheckDeviceIdIsValid
# ---------------------------------------------------------------------------------------------

CUBE, VECTOR = ACL_RT_DEV_RES_CUBE_CORE, ACL_RT_DEV_RES_VECTOR_CORE

RES_CALLS = [
    ("rtsSetDeviceResLimit", "SetDeviceResLimit", 6759, lambda d: aclrtSetDeviceResLimit(d, CUBE, 1)),
    ("rtsGetDeviceResLimit", "GetDeviceResLimit", 6790, lambda d: aclrtGetDeviceResLimit(d, CUBE, Ref())),
    ("rtsResetDeviceResLimit", "ResetDeviceResLimit", 6772, lambda d: aclrtResetDeviceResLimit(d)),
]


@pytest.mark.parametrize(("rt_fn", "func", "line", "call"), RES_CALLS, ids=[c[0] for c in RES_CALLS])
@pytest.mark.parametrize("device", [-1, -(2**31)])
def test_res_limit_of_a_negative_id_is_the_rts_entrys_107001(dev0, rt_fn, func, line, call, device):
    assert call(device) == ACL_ERROR_RT_INVALID_DEVICEID
    assert aclrtGetLastError(ACL_RT_THREAD_LEVEL) == ACL_ERROR_RT_INVALID_DEVICEID
    assert aclGetRecentErrMsg() == rts_negative(rt_fn, device)


@pytest.mark.parametrize(("rt_fn", "func", "line", "call"), RES_CALLS, ids=[c[0] for c in RES_CALLS])
@pytest.mark.parametrize("device", [8, 63])
def test_res_limit_of_an_id_past_the_devices_is_107001(dev0, rt_fn, func, line, call, device):
    assert call(device) == ACL_ERROR_RT_INVALID_DEVICEID
    assert aclrtGetLastError(ACL_RT_THREAD_LEVEL) == ACL_ERROR_RT_INVALID_DEVICEID
    assert aclGetRecentErrMsg() == verifying(
        device, f"drv devId is invalid, drv devId={device}, retCode=0x7010003", func, line, rt_fn
    )


@pytest.mark.parametrize(
    ("rt_fn", "desc", "call"),
    [
        ("rtsSetDeviceResLimit", "Setting the device resource limit", lambda d, t: aclrtSetDeviceResLimit(d, t, 1)),
        (
            "rtsGetDeviceResLimit",
            "Obtaining the device resource limits of the current process",
            lambda d, t: aclrtGetDeviceResLimit(d, t, Ref()),
        ),
    ],
    ids=["set", "get"],
)
def test_res_limit_checks_a_negative_id_before_the_type_and_the_type_before_the_device(dev0, rt_fn, desc, call):
    assert call(-1, 2) == ACL_ERROR_RT_INVALID_DEVICEID
    assert aclGetRecentErrMsg() == rts_negative(rt_fn, -1)
    assert call(8, 2) == ACL_ERROR_RT_PARAM_INVALID
    assert aclGetRecentErrMsg() == ee1003(
        f"{desc} failed because value DEV_RES_TYPE_MAX(2) for parameter type is invalid. Expected value: [0, 2).",
        f"The argument is invalid. Reason: {rt_fn} execution failed.",
    )


def test_res_limit_pointer_and_valid_ids(dev0):
    assert aclrtGetDeviceResLimit(-1, CUBE, None) == ACL_ERROR_INVALID_PARAM  # the ACL layer's pointer check
    assert aclGetRecentErrMsg() == null("aclrtGetDeviceResLimit", "value")
    value = Ref()
    assert aclrtSetDevice(7) == 0  # the res-limit calls need the device open (Runtime::GetDevice)
    assert aclrtSetDeviceResLimit(7, VECTOR, 3) == 0
    assert aclrtGetDeviceResLimit(7, VECTOR, value) == 0 and value.value == 3
    assert aclrtResetDeviceResLimit(7) == 0
    assert aclrtGetDeviceResLimit(7, VECTOR, value) == 0 and value.value != 3
    assert aclrtResetDevice(7) == 0
