"""aclrtRepairError: rectify a device fault that aclrtGetErrorVerbose reported.

CANN (acl event.cpp:413-442; runtime api_c_device.cc:856-872, api_error.cc:7451-7474,
api_impl.cc:9079-9104, api_impl_david.cc:2189-2225) checks the pointer, the chip's
RT_FEATURE_DFX_ERR_GET_AND_REPAIR (Ascend910B/910_93/950; elsewhere 207000 with a WARN only),
``tryRepair`` (must be 1), the device id and that the device is open, then repairs by error type.
The emulated devices have no memory, L2, link or port faults, so every repair the chip accepts
succeeds at once; what each chip accepts follows its implementation:

- Ascend910B/910_93 (ApiImpl): NO_ERROR and ERROR_MEMORY (the UCE ranges are handed to the
  driver's repair); any other type is refused with EE1003.
- Ascend950 (ApiImplDavid): ERROR_L2, ERROR_AICORE, ERROR_MEMORY, ERROR_LINK and ERROR_L3_PORT (the
  port repair also clears the device's streams' failures, L3PortErrorStatusReset); any other
  type, NO_ERROR included, is refused (107000, logged only).
"""

from __future__ import annotations

import ctypes
from typing import Any

from .._capi import ApiError, describe
from . import _rt_features
from ._checks import (
    PARAM,
    RT_PARAM,
    E,
    acl_null,
    emu,
    fb_inner,
    fb_invalid,
    impl_david,
    int_arg,
    rt_api,
    rt_value,
    silent,
)
from .api_system import aclrtErrorInfo
from .device import RT
from .enums import aclrtErrorType

_DESC = "Rectifying the device faults"
_TYPE_TEXT = {  # ErrorTypeToString (runtime core/inc/common/enum_desc.hpp:73-93)
    0: "NO_ERROR(0)",
    1: "ERROR_MEMORY(1)",
    2: "ERROR_L2(2)",
    3: "ERROR_AICORE(3)",
    4: "ERROR_LINK(4)",
    5: "ERROR_L3_PORT(5)",
    0xFFFF: "ERROR_OTHERS(65535)",
}
_DAVID_TYPES = (
    aclrtErrorType.ACL_RT_ERROR_L2,
    aclrtErrorType.ACL_RT_ERROR_AICORE,
    aclrtErrorType.ACL_RT_ERROR_MEMORY,
    aclrtErrorType.ACL_RT_ERROR_LINK,
    aclrtErrorType.ACL_RT_ERROR_L3_PORT,
)


def _type_text(t: int) -> str:
    return _TYPE_TEXT.get(t, f"UNKNOWN({t})")


@rt_api
def aclrtRepairError(deviceId: int, errorInfo: object) -> int:
    """Repair the fault ``errorInfo`` (an ``aclrtErrorInfo``, as aclrtGetErrorVerbose fills it,
    with ``tryRepair`` 1) on device ``deviceId``."""
    api, rt_fn = "aclrtRepairError", "rtsRepairError"
    if errorInfo is None:
        raise ApiError(PARAM, acl_null(api, "errorInfo"))
    if not isinstance(errorInfo, aclrtErrorInfo):
        raise ApiError(PARAM, emu(f"{api}: errorInfo must be an aclrtErrorInfo, got {describe(errorInfo)}."))
    dev = int_arg(deviceId, "deviceId", -(2**31), 2**31 - 1)
    if not _rt_features.has("RT_FEATURE_DFX_ERR_GET_AND_REPAIR"):
        raise silent(E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
    if int(errorInfo.tryRepair) == 0:  # "Repair flag is invalid [0], should be 1." (logged only)
        raise ApiError(RT_PARAM, fb_invalid(rt_fn))
    count = RT.device_count
    if not 0 <= dev < count:  # ApiErrorDecorator::RepairError: realDeviceId is a uint32_t
        raise ApiError(
            E.ACL_ERROR_RT_INVALID_DEVICEID,
            rt_value(_DESC, dev % 2**32, "realDeviceId", f"[0,{count})"),
            fb_inner(rt_fn, "device id error"),
        )
    device = RT.devices.get(dev)
    if device is None or (device.primary is None and not device.contexts):  # Runtime::GetDevice: not open
        raise ApiError(
            E.ACL_ERROR_RT_DEV_SETUP_ERROR,
            emu(f"{rt_fn}: device {dev} is not open (aclrtSetDevice)."),
            fb_inner(rt_fn, "device pointer null"),
        )
    t = int(errorInfo.errorType)
    if impl_david():
        if t not in _DAVID_TYPES:  # "Does not support current error type [...]" (logged only)
            raise ApiError(RT_PARAM, fb_invalid(rt_fn))
        if t == aclrtErrorType.ACL_RT_ERROR_L3_PORT:
            _clear_stream_failures(device)
        return E.ACL_SUCCESS
    if t not in (aclrtErrorType.ACL_RT_NO_ERROR, aclrtErrorType.ACL_RT_ERROR_MEMORY):
        raise ApiError(
            RT_PARAM,
            rt_value(_DESC, _type_text(t), "errorInfo->errorType", "{NO_ERROR(0), ERROR_MEMORY(1), ERROR_LINK(4)}"),
            fb_invalid(rt_fn),
        )
    return E.ACL_SUCCESS


def _clear_stream_failures(device: Any) -> None:
    """L3PortErrorStatusReset: every context of the device forgets its streams' and its own failure."""
    with RT.lock:
        for ctx in ([device.primary] if device.primary else []) + list(device.contexts):
            ctx.failure = None
            for st in ctx.all_streams():
                with st.lock:
                    st.error = None


# ---------------------------------------------------------------------------------------------
# the C ABI (capi/gen_rt.py ADAPTED): the caller's aclrtErrorInfo read field by field
# ---------------------------------------------------------------------------------------------


def _c_repair(fn: Any, deviceId: int, errorInfo: int) -> int:
    from .._cabi_device import _ErrorInfo

    if errorInfo == 0:
        return int(fn(deviceId, None))
    raw = _ErrorInfo.from_address(errorInfo)
    info = aclrtErrorInfo()
    info.tryRepair, info.hasDetail = int(raw.tryRepair), int(raw.hasDetail)
    t = int(raw.errorType)
    info.errorType = aclrtErrorType(t) if t in aclrtErrorType._value2member_map_ else t  # type: ignore[assignment]
    if info.hasDetail == 1 and t == aclrtErrorType.ACL_RT_ERROR_MEMORY:
        uce = raw.detail.uceInfo
        n = min(int(uce.arraySize), len(uce.memUceInfoArray))
        info.uceInfo = [(int(uce.memUceInfoArray[i].addr), int(uce.memUceInfoArray[i].len)) for i in range(n)]
    else:
        info.aicoreErrType = ctypes.c_int32(raw.detail.aicoreErrType).value  # type: ignore[assignment]
    return int(fn(deviceId, info))


CABI_ADAPTORS: dict[str, Any] = {"aclrtRepairError": _c_repair}


__all__ = ["aclrtRepairError"]
