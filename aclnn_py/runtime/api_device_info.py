"""Device queries of ``acl_rt.h``: capabilities, resource limits, device information, the
stream priority range, the device status, the utilisation rate, the UUID, and the event-wait and
operator-execution timeouts.
"""

from __future__ import annotations

import hashlib

from .. import _errmsg
from .. import soc as _soc
from .._capi import ApiError, describe
from .._ref import store
from . import _rt_features
from ._checks import (
    E,
    acl_null,
    check_device_valid,
    emu,
    fb_inner,
    fb_invalid,
    int_arg,
    need_context,
    negative_device,
    out_arg,
    rt_api,
    rt_inner,
    rt_value,
)
from .api_device import _closed, _device_arg, check_device_id
from .api_stream_res import hardware_cores, thread_limit
from .device import RT, Device
from .enums import aclrtDeviceStatus

# ---------------------------------------------------------------------------------------------
# device queries
# ---------------------------------------------------------------------------------------------

_FEATURE_DESC = {
    1: "FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV(1)",
    21: "FEATURE_SYSTEM_MEMQ_EVENT_CROSS_DEV(21)",
    10001: "FEATURE_AICPU_SCHEDULE_TYPE(10001)",
    20001: "FEATURE_SYSTEM_TASKID_BIT_WIDTH(20001)",
}
_RT_DEV_FEATURE_MAX = 20002


@rt_api
def aclrtGetDeviceCapability(deviceId: int, devFeatureType: int, value: object) -> int:
    """Whether the device supports a feature: ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV (1;
    needs a current context) answers ACL_DEV_FEATURE_SUPPORT on the chips with the tiling-key
    sink; ACL_FEATURE_SYSTEM_MEMQ_EVENT_CROSS_DEV (21) and the runtime's internal types answer 0:
    the emulator has no such driver feature."""
    rt_fn = "rtsDeviceGetCapability"
    out = out_arg(value, "aclrtGetDeviceCapability", "value")
    dev_id = _device_arg(deviceId)
    ftype = int_arg(devFeatureType, "devFeatureType", -(2**31), 2**31 - 1)
    desc = _FEATURE_DESC.get(ftype, f"UNKNOWN({ftype})")
    if not 0 <= ftype < _RT_DEV_FEATURE_MAX:
        raise ApiError(
            E.ACL_ERROR_RT_PARAM_INVALID, rt_value(rt_fn, desc, "devFeatureType", f"[0, {_RT_DEV_FEATURE_MAX})")
        )
    if ftype not in _FEATURE_DESC:  # reported, but returned without setting the last error
        _errmsg.report(*rt_value(rt_fn, desc, "devFeatureType", f"[1, {_RT_DEV_FEATURE_MAX})"))
        return E.ACL_ERROR_RT_PARAM_INVALID
    check_device_id(dev_id, rt_fn, "GetDeviceCapability", 4912)
    if ftype == 1:
        need_context(rt_fn)
        store(out, 1 if _rt_features.has("RT_FEATURE_KERNEL_TILING_KEY_SINK") else 0)
    else:
        store(out, 0)
    return E.ACL_SUCCESS


_RES_DESC = {2: "DEV_RES_TYPE_MAX(2)"}


def _res_type(type_: object, rt_fn: str, desc: str) -> int:
    t = int_arg(type_, "type", -(2**31), 2**31 - 1)
    if not 0 <= t < 2:
        raise ApiError(
            E.ACL_ERROR_RT_PARAM_INVALID,
            rt_value(desc, _RES_DESC.get(t, f"UNKNOWN({t})"), "type", "[0, 2)"),
            fb_invalid(rt_fn),
        )
    return t


@rt_api
def aclrtGetResInCurrentThread(type: int, value: object) -> int:
    """The cores of ``type`` the calling thread may use: the limit of the stream bound to it
    (aclrtUseStreamResInCurrentThread), else the device's (aclrtSetDeviceResLimit), else the
    SoC's count. Needs a current context unless a bound stream answers."""
    rt_fn = "rtsGetResInCurrentThread"
    out = out_arg(value, "aclrtGetResInCurrentThread", "value")
    t = _res_type(type, rt_fn, "Obtaining the device resources that can be used by the current thread")
    bound = thread_limit(t)  # a stream's limits bound by aclrtUseStreamResInCurrentThread come first
    if bound is not None:
        store(out, bound)
        return E.ACL_SUCCESS
    dev = need_context(rt_fn).device
    store(out, dev.res_limits.get(t, hardware_cores(t)))
    return E.ACL_SUCCESS


def _res_device(deviceId: object, rt_fn: str) -> int:
    """The rts entry's own check of the res-limit calls: a negative id is 107001 with an EE1003
    under the rts function's name (``RT_LOG_OUTER_MSG_INVALID_PARAM``, api_c_device.cc:171-174 Set,
    185-188 Reset, 199-202 Get),
    before the decorator's checks; an id past the devices fails later (``check_device_id``)."""
    dev_id = _device_arg(deviceId)
    negative_device(dev_id, rt_fn, rt_fn)
    return dev_id


# ApiImpl::<func>'s NULL_PTR_RETURN_MSG(dev, RT_ERROR_DEVICE_NULL) (api_impl.cc, the line)
_DEVICE_NULL_LINE = {"SetDeviceResLimit": 7832, "ResetDeviceResLimit": 7855, "GetDeviceResLimit": 7870}


def _open_device(dev_id: int, func: str, rt_fn: str) -> Device:
    """``ApiImpl::<func>`` (every chip: no ApiImplDavid override) reads ``Runtime::GetDevice``,
    NULL for a device no context holds (never set in the process, or reset since: only a primary
    or an explicit context retains a device). Then 507033 (RT_ERROR_DEVICE_NULL): the macro's inner
    EE9999, the wrapper's "device pointer null". It comes after the decorator's type and id checks
    and before the value check."""
    dev = RT.devices.get(dev_id)
    if dev is None or _closed(dev):
        raise ApiError(
            E.ACL_ERROR_RT_DEV_SETUP_ERROR,
            rt_inner("Check param failed, dev can not be null.", func, "api_impl.cc", _DEVICE_NULL_LINE[func]),
            fb_inner(rt_fn, "device pointer null"),
        )
    return dev


@rt_api
def aclrtGetDeviceResLimit(deviceId: int, type: int, value: object) -> int:
    """The device's core limit of ``type`` (the SoC's count unless aclrtSetDeviceResLimit set one).
    Like the other two res-limit calls, it needs the device open (a context holds it): else 507033."""
    rt_fn = "rtsGetDeviceResLimit"
    out = out_arg(value, "aclrtGetDeviceResLimit", "value")
    dev_id = _res_device(deviceId, rt_fn)
    t = _res_type(type, rt_fn, "Obtaining the device resource limits of the current process")
    check_device_id(dev_id, rt_fn, "GetDeviceResLimit", 6790)  # ApiErrorDecorator: after the type
    store(out, _open_device(dev_id, "GetDeviceResLimit", rt_fn).res_limits.get(t, hardware_cores(t)))
    return E.ACL_SUCCESS


@rt_api
def aclrtSetDeviceResLimit(deviceId: int, type: int, value: int) -> int:
    """Limit the cores of ``type`` the process uses on the device (0 .. the SoC's count; the device
    must be open)."""
    rt_fn = "rtsSetDeviceResLimit"
    dev_id = _res_device(deviceId, rt_fn)
    t = _res_type(type, rt_fn, "Setting the device resource limit")
    check_device_id(dev_id, rt_fn, "SetDeviceResLimit", 6759)  # ApiErrorDecorator: after the type
    dev = _open_device(dev_id, "SetDeviceResLimit", rt_fn)
    v = int_arg(value, "value", 0, 2**32 - 1)
    most = hardware_cores(t)
    if v > most:  # ApiImpl::SetDeviceResLimit: only above the cores (0 is taken)
        raise ApiError(
            E.ACL_ERROR_RT_PARAM_INVALID,
            rt_value("Setting the device resource limit", v, "value", f"must be less than or equal to {most}"),
            fb_invalid(rt_fn),
        )
    dev.res_limits[t] = v
    return E.ACL_SUCCESS


@rt_api
def aclrtResetDeviceResLimit(deviceId: int) -> int:
    """Back to the SoC's core counts (the device must be open)."""
    rt_fn = "rtsResetDeviceResLimit"
    dev_id = _res_device(deviceId, rt_fn)
    check_device_id(dev_id, rt_fn, "ResetDeviceResLimit", 6772)
    _open_device(dev_id, "ResetDeviceResLimit", rt_fn).res_limits.clear()
    return E.ACL_SUCCESS


@rt_api
def aclrtCtxGetCurrentDefaultStream(stream: object) -> int:
    """The current context's default stream (a handle the other stream calls accept)."""
    out = out_arg(stream, "aclrtCtxGetCurrentDefaultStream", "stream", numeric=False)
    store(out, need_context("rtCtxGetCurrentDefaultStream").default_stream)
    return E.ACL_SUCCESS


_DEV_ATTR_NAMES = {
    102: "DEV_ATTR_CUBE_CORE_NUM", 202: "DEV_ATTR_WARP_SIZE", 203: "DEV_ATTR_MAX_THREAD_PER_VECTOR_CORE",
    204: "DEV_ATTR_UBUF_PER_VECTOR_CORE", 205: "DEV_ATTR_MAX_GRID_DIM_X", 206: "DEV_ATTR_MAX_GRID_DIM_Y",
    207: "DEV_ATTR_MAX_GRID_DIM_Z", 208: "DEV_ATTR_MAX_BLOCK_PER_GRID", 209: "DEV_ATTR_MAX_THREADS_PER_BLOCK",
    210: "DEV_ATTR_MAX_BLOCK_DIM_X", 211: "DEV_ATTR_MAX_BLOCK_DIM_Y", 212: "DEV_ATTR_MAX_BLOCK_DIM_Z",
    301: "DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE", 302: "DEV_ATTR_L2_CACHE_SIZE", 601: "DEV_ATTR_NPU_ARCH",
    501: "DEV_ATTR_IS_VIRTUAL",
}  # fmt: skip
_DEV_ATTR_EXPECT = (
    ", ".join(f"{n}({v})" for v, n in _DEV_ATTR_NAMES.items() if v != 501) + ", or DEV_ATTR_IS_VIRTUAL(501)"
)


def _device_attr(attr: int) -> int | None:
    """The value of a device attribute on the emulated SoC (None: not an attribute CANN knows)."""
    soc = _soc.current()
    values = {
        1: soc.ai_cpu_cnt,
        101: soc.ai_core_cnt,
        201: soc.vector_core_cnt,
        301: RT.capacity,
        501: 0,
        601: soc.npu_arch_number,
    }
    values.update({a: 0 for a in range(202, 213)})  # SIMT properties: 0 outside Ascend950 (not modelled)
    values.update({a: 0 for a in range(401, 410)})  # one host, one server, PCIe: ids and types 0
    if attr in values:
        return values[attr]
    return None


@rt_api
def aclrtGetDeviceInfo(deviceId: int, attr: int, value: object) -> int:
    """One attribute of a device (core counts and L2 size of the SoC's platform ini, the device
    memory, the NPU architecture; SIMT properties and topology ids 0)."""
    rt_fn = "rtsDeviceGetInfo"
    out = out_arg(value, "aclrtGetDeviceInfo", "value")
    dev_id = int_arg(deviceId, "deviceId", 0, 2**32 - 1)
    a = int_arg(attr, "attr", -(2**31), 2**31 - 1)
    if dev_id >= RT.device_count:
        raise ApiError(
            E.ACL_ERROR_RT_PARAM_INVALID,
            rt_value(
                "Querying device information based on the specified attribute",
                dev_id,
                "realDeviceId",
                f"[0, {RT.device_count})",
            ),
            fb_invalid(rt_fn),
        )
    soc = _soc.current()
    if a in (102, 302):
        key, v = ("cube_core_cnt", soc.cube_core_cnt) if a == 102 else ("l2_size", soc.l2_size)
        if not v:
            raise ApiError(
                E.ACL_ERROR_RT_PARAM_INVALID,
                rt_inner(
                    f"get platform res failed, label=SoCInfo, key={key} socVersion={soc.name}",
                    "GetDeviceInfoFromPlatformInfo",
                    "api_impl_standard_soc.cc",
                    339,
                ),
                fb_invalid(rt_fn),
            )
        store(out, v)
        return E.ACL_SUCCESS
    found = _device_attr(a)
    if found is None:
        name = f"{_DEV_ATTR_NAMES[a]}({a})" if a in _DEV_ATTR_NAMES else f"UNKNOWN({a})"
        raise ApiError(
            E.ACL_ERROR_RT_PARAM_INVALID,
            rt_value("Getting the device attributes", name, "attr", _DEV_ATTR_EXPECT),
            fb_invalid(rt_fn),
        )
    store(out, found)
    return E.ACL_SUCCESS


@rt_api
def aclrtDeviceGetStreamPriorityRange(leastPriority: object, greatestPriority: object) -> int:
    """Least priority 7, greatest 0; either out-parameter may be None."""
    if leastPriority is not None:
        store(out_arg(leastPriority, "aclrtDeviceGetStreamPriorityRange", "leastPriority"), 7)
    if greatestPriority is not None:
        store(out_arg(greatestPriority, "aclrtDeviceGetStreamPriorityRange", "greatestPriority"), 0)
    return E.ACL_SUCCESS


@rt_api
def aclrtQueryDeviceStatus(deviceId: int, deviceStatus: object) -> int:
    """ACL_RT_DEVICE_STATUS_NORMAL for every device the emulator offers."""
    out = out_arg(deviceStatus, "aclrtQueryDeviceStatus", "deviceStatus")
    # the ACL layer hands the id on as uint32 (rtDeviceStatusQuery); CheckDeviceIdIsValid reads it
    # back as int32, the decorator's inner report prints it unsigned (api_error.cc:6533-6535)
    dev_id = _device_arg(deviceId)
    drv = dev_id & 0xFFFFFFFF
    check_device_valid(
        dev_id,
        f"drv devId is invalid, devId={drv}, drv devId={drv}, retCode=0x7010003",
        "DeviceStatusQuery",
        6533,
        "rtDeviceStatusQuery",
    )
    store(out, aclrtDeviceStatus.ACL_RT_DEVICE_STATUS_NORMAL)
    return E.ACL_SUCCESS


@rt_api
def aclrtSetOpWaitTimeout(timeout: int) -> int:
    """Keep the event-wait timeout (seconds; 0: never). The emulator's waits do not time out by it."""
    t = int_arg(timeout, "timeout", 0, 2**32 - 1)
    if _soc.current().family == "Ascend310P":
        # DevProperties.eventWaitTimeout SET_OP_WAIT_TIMEOUT_NEED_TS_VERSION (config/dc): ApiImpl::
        # SetOpWaitTimeOut reads the device's TS version, so it needs a current context
        need_context("rtSetOpWaitTimeOut")
    RT.op_wait_timeout = t
    return E.ACL_SUCCESS


@rt_api
def aclrtSetOpExecuteTimeOut(timeout: int) -> int:
    """Keep the operator execution timeout (seconds; 0: the maximum). Kernels here never hang."""
    RT.op_execute_timeout = int_arg(timeout, "timeout", 0, 2**32 - 1)
    RT.op_timeout_us = RT.op_execute_timeout * 1_000_000  # rtSetOpExecuteTimeOut: seconds
    return E.ACL_SUCCESS


class aclrtUtilizationInfo:
    """``aclrtUtilizationInfo``: percentages, -1 where the device cannot tell; ``utilizationExtend``
    is reserved (it must be None)."""

    __slots__ = ("aicpuUtilization", "cubeUtilization", "memoryUtilization", "utilizationExtend", "vectorUtilization")

    def __init__(self) -> None:
        self.cubeUtilization = -1
        self.vectorUtilization = -1
        self.aicpuUtilization = -1
        self.memoryUtilization = -1
        self.utilizationExtend: object = None

    def __repr__(self) -> str:
        return (
            f"aclrtUtilizationInfo(cube={self.cubeUtilization}, vector={self.vectorUtilization}, "
            f"aicpu={self.aicpuUtilization}, memory={self.memoryUtilization})"
        )


@rt_api
def aclrtGetDeviceUtilizationRate(deviceId: int, utilizationInfo: object) -> int:
    """Fills ``utilizationInfo`` (an :class:`aclrtUtilizationInfo`, in and out as C's struct).
    The emulated device has no utilisation counters: every figure is -1, CANN's value when the
    driver cannot answer (memoryUtilization is always -1 in CANN); the call succeeds."""
    api = "aclrtGetDeviceUtilizationRate"
    if utilizationInfo is None:
        raise ApiError(E.ACL_ERROR_INVALID_PARAM, acl_null(api, "utilizationInfo"))
    if not isinstance(utilizationInfo, aclrtUtilizationInfo):
        raise ApiError(
            E.ACL_ERROR_INVALID_PARAM,
            emu(f"{api}: utilizationInfo must be an aclrtUtilizationInfo, got {describe(utilizationInfo)}."),
        )
    if utilizationInfo.utilizationExtend not in (None, 0):
        raise ApiError(
            E.ACL_ERROR_INVALID_PARAM,
            (
                "EH0012",
                f"{api} failed. Parameter utilizationInfo->utilizationExtend is invalid. Reason: utilizationExtend is "
                "a reserved parameter and must be nullptr.",
            ),
        )
    int_arg(deviceId, "deviceId", -(2**31), 2**31 - 1)
    for field in ("cubeUtilization", "vectorUtilization", "aicpuUtilization", "memoryUtilization"):
        setattr(utilizationInfo, field, -1)
    return E.ACL_SUCCESS


@rt_api
def aclrtDeviceGetUuid(deviceId: int, uuid: object) -> int:
    """A 16-byte id of the device, the same from run to run (bytes)."""
    rt_fn = "rtGetDeviceUuid"
    out = out_arg(uuid, "aclrtDeviceGetUuid", "uuid", numeric=False)
    dev_id = _device_arg(deviceId)
    # ApiErrorDecorator::GetDeviceUuid (api_error.cc:6930-6931), before its uuid check
    negative_device(dev_id, "Obtaining the device UUID", rt_fn)
    check_device_valid(
        dev_id, f"drvDeviceId is invalid, drvDeviceId={dev_id}, ErrorCode=0x7010003", "GetDeviceUuid", 6941, rt_fn
    )
    store(out, hashlib.md5(f"aclnn_py device {dev_id}".encode(), usedforsecurity=False).digest())
    return E.ACL_SUCCESS


__all__ = [
    "aclrtCtxGetCurrentDefaultStream",
    "aclrtDeviceGetStreamPriorityRange",
    "aclrtDeviceGetUuid",
    "aclrtGetDeviceCapability",
    "aclrtGetDeviceInfo",
    "aclrtGetDeviceResLimit",
    "aclrtGetDeviceUtilizationRate",
    "aclrtGetResInCurrentThread",
    "aclrtQueryDeviceStatus",
    "aclrtResetDeviceResLimit",
    "aclrtSetDeviceResLimit",
    "aclrtSetOpExecuteTimeOut",
    "aclrtSetOpWaitTimeout",
    "aclrtUtilizationInfo",
]
