"""Device identity and topology queries of ``acl_rt.h`` and the device-level callbacks.

One host with ``ACLNN_PY_DEVICE_COUNT`` devices, no ASCEND_RT_VISIBLE_DEVICES: a device's user,
logical and physical ids are the same number, its PCI bus id is ``0000:<id+1>:00.0``, and any two
devices are linked by HCCS. The runtime's own checks (ids, short buffers, timeouts) answer with
CANN's codes and texts; where only the driver refuses an id past the devices the emulator offers
(the id mappings, the topology, a peer's status), the refusal has the emulator's wording.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from typing import Any

from .._capi import ApiError, describe
from .._ref import store
from . import _rt_features
from ._checks import (
    PARAM,
    RT_PARAM,
    E,
    acl_null,
    acl_value,
    check_device_valid,
    discard_queue,
    emu,
    fb_inner,
    fb_invalid,
    fb_unsupported,
    impl_david,
    int_arg,
    loaded_chapter,
    need_context,
    negative_device,
    out_arg,
    rt_api,
    rt_value,
)
from .device import RT, Context
from .enums import ACL_STREAM_DEVICE_USE_ONLY, ACL_STREAM_PERSISTENT
from .model_ri import model_stream
from .stream import Stream

RT_MAX_DEV_NUM = 64
RT_PCI_BUS_ID_MIN_LEN = 13  # "0000:00:00.0" and its NUL
TASK_ABORT_TIMEOUT_MAX = 36 * 60 * 1000  # ms (api_error.cc)
ACL_RT_DEVS_TOPOLOGY_HCCS = 0x01


def _device_id_error(rt_fn: str, dev: int) -> ApiError:
    """An id the emulator does not offer: 107001 (the driver's refusal), then the wrapper's report."""
    return ApiError(
        E.ACL_ERROR_RT_INVALID_DEVICEID,
        emu(f"{rt_fn}: device {dev} does not exist; the emulator offers devices 0 to {RT.device_count - 1}."),
        fb_inner(rt_fn, "device id error"),
    )


def _negative(rt_fn: str, value: int, param: str) -> ApiError:
    """``RT_LOG_OUTER_MSG_INVALID_PARAM``: EE1003 under the rts function's own name (107000)."""
    return ApiError(RT_PARAM, rt_value(rt_fn, value, param, "greater than or equal to 0"))


# ---------------------------------------------------------------------------------------------
# ids
# ---------------------------------------------------------------------------------------------


def _map_id(api: str, value: object, out: object, rt_fn: str, param: str, out_name: str) -> int:
    """One of the six id mappings: all three ids agree on this host."""
    o = out_arg(out, api, out_name)
    v = int_arg(value, param, -(2**31), 2**31 - 1)
    if v < 0:
        raise _negative(rt_fn, v, param)
    if v >= RT.device_count:
        raise _device_id_error(rt_fn, v)
    store(o, v)
    return E.ACL_SUCCESS


@rt_api
def aclrtGetLogicDevIdByPhyDevId(phyDevId: int, logicDevId: object) -> int:
    """The logical id of a physical device (the same number here)."""
    return _map_id(
        "aclrtGetLogicDevIdByPhyDevId", phyDevId, logicDevId, "rtsGetLogicDevIdByPhyDevId", "phyDevId", "logicDevId"
    )


@rt_api
def aclrtGetPhyDevIdByLogicDevId(logicDevId: int, phyDevId: object) -> int:
    """The physical id of a logical device (the same number here)."""
    return _map_id(
        "aclrtGetPhyDevIdByLogicDevId", logicDevId, phyDevId, "rtsGetPhyDevIdByLogicDevId", "logicDevId", "phyDevId"
    )


@rt_api
def aclrtGetLogicDevIdByUserDevId(userDevid: int, logicDevId: object) -> int:
    """The logical id of a user device id (no ASCEND_RT_VISIBLE_DEVICES: the same number)."""
    return _map_id(
        "aclrtGetLogicDevIdByUserDevId", userDevid, logicDevId, "rtsGetLogicDevIdByUserDevId", "userDevId", "logicDevId"
    )


@rt_api
def aclrtGetUserDevIdByLogicDevId(logicDevId: int, userDevid: object) -> int:
    """The user device id of a logical device (the same number here)."""
    return _map_id(
        "aclrtGetUserDevIdByLogicDevId", logicDevId, userDevid, "rtsGetUserDevIdByLogicDevId", "logicDevId", "userDevid"
    )


@rt_api
def aclrtGetUserDevIdByPhyDevId(phyDevId: int, userDevId: object) -> int:
    """The user device id of a physical device (CANN maps it through the logical id)."""
    return _map_id(
        "aclrtGetUserDevIdByPhyDevId", phyDevId, userDevId, "rtsGetLogicDevIdByPhyDevId", "phyDevId", "userDevId"
    )


@rt_api
def aclrtGetPhyDevIdByUserDevId(userDevId: int, phyDevId: object) -> int:
    """The physical id of a user device id."""
    # the ACL layer hands userDevId to rtsGetPhyDevIdByLogicDevId, whose report names its own parameter
    return _map_id(
        "aclrtGetPhyDevIdByUserDevId", userDevId, phyDevId, "rtsGetPhyDevIdByLogicDevId", "logicDevId", "phyDevId"
    )


@rt_api
def aclrtDeviceGetBareTgid(pid: object) -> int:
    """The process id the device knows the process by (this process's pid)."""
    store(out_arg(pid, "aclrtDeviceGetBareTgid", "pid"), os.getpid())
    return E.ACL_SUCCESS


def _bus_id(dev: int) -> str:
    return f"0000:{dev + 1:02x}:00.0"


@rt_api
def aclrtDeviceGetPCIBusId(deviceId: int, pciBusId: object, len: int) -> int:
    """The device's PCI bus id, ``0000:<bus>:00.0`` (the emulator numbers buses from 1); ``len``
    is the caller's buffer, at least 13 bytes."""
    rt_fn, desc = "rtDeviceGetPCIBusId", "Obtaining the device PCI bus id"
    out = out_arg(pciBusId, "aclrtDeviceGetPCIBusId", "pciBusId", numeric=False)
    dev = int_arg(deviceId, "deviceId", -(2**31), 2**31 - 1)
    n = int_arg(len, "len", -(2**31), 2**31 - 1)
    negative_device(dev, desc, rt_fn)
    if n < RT_PCI_BUS_ID_MIN_LEN:
        # ApiErrorDecorator passes EE1003 five values for its four keys (api_error.cc:6954-6956): the
        # error manager only warns and records nothing; the wrapper's EE1001 remains
        raise ApiError(RT_PARAM, fb_invalid(rt_fn))
    check_device_valid(
        dev, f"drvDeviceId is invalid, drvDeviceId={dev}, ErrorCode=0x7010003", "GetDevicePCIBusId", 6967, rt_fn
    )
    store(out, _bus_id(dev))
    return E.ACL_SUCCESS


@rt_api
def aclrtDeviceGetByPCIBusId(pciBusId: str | None, deviceId: object) -> int:
    """The device with this PCI bus id (``domain:bus:device.function``, hexadecimal)."""
    api, rt_fn = "aclrtDeviceGetByPCIBusId", "rtDeviceGetByPCIBusId"
    if pciBusId is None:
        raise ApiError(PARAM, acl_null(api, "pciBusId"))
    out = out_arg(deviceId, api, "deviceId")
    text = pciBusId.decode(errors="replace") if isinstance(pciBusId, (bytes, bytearray)) else str(pciBusId)
    # ApiImpl::GetDeviceByPCIBusId: strcmp against each device's "%04x:%02x:%02x.%x"; no match is
    # logged only, and the wrapper's EE1001 remains
    found = [d for d in range(RT.device_count) if text == _bus_id(d)]
    if not found:
        raise ApiError(RT_PARAM, fb_invalid(rt_fn))
    store(out, found[0])
    return E.ACL_SUCCESS


# ---------------------------------------------------------------------------------------------
# topology, peers, the primary context, the task scheduler
# ---------------------------------------------------------------------------------------------


def _check_user_device(dev: int, rt_fn: str) -> None:
    if not 0 <= dev < RT.device_count:
        raise _device_id_error(rt_fn, dev)


@rt_api
def aclrtGetDevicesTopo(deviceId: int, otherDeviceId: int, value: object) -> int:
    """How two devices are linked: ACL_RT_DEVS_TOPOLOGY_HCCS for every pair of this host."""
    rt_fn = "rtsGetPairDevicesInfo"
    out = out_arg(value, "aclrtGetDevicesTopo", "value")
    dev = int_arg(deviceId, "deviceId", 0, 2**32 - 1)
    other = int_arg(otherDeviceId, "otherDeviceId", 0, 2**32 - 1)
    _check_user_device(dev, rt_fn)
    _check_user_device(other, rt_fn)
    store(out, ACL_RT_DEVS_TOPOLOGY_HCCS)
    return E.ACL_SUCCESS


@rt_api
def aclrtDevicePeerAccessStatus(deviceId: int, peerDeviceId: int, status: object) -> int:
    """1 when aclrtDeviceEnablePeerAccess made ``peerDeviceId`` reachable from ``deviceId``, else 0
    (207000 on a chip without RT_FEATURE_DEVICE_P2P: none of the emulated ones)."""
    rt_fn, desc = "rtGetP2PStatus", "Obtaining the P2P status"
    out = out_arg(status, "aclrtDevicePeerAccessStatus", "status")
    # the ACL layer casts both ids to uint32 (rtsGetP2PStatus -> rtGetP2PStatus): a negative id is huge
    dev = int_arg(deviceId, "deviceId", -(2**31), 2**31 - 1) & 0xFFFFFFFF
    peer = int_arg(peerDeviceId, "peerDeviceId", -(2**31), 2**31 - 1) & 0xFFFFFFFF
    # ApiErrorDecorator::GetP2PStatus (api_error.cc:3410-3415): both ids below RT_MAX_DEV_NUM, the
    # device first; whether it exists only the driver's drvGetP2PStatus tells (ApiImpl, after them)
    for value, param in ((dev, "realDeviceId"), (peer, "phyIdSrc")):
        if value >= RT_MAX_DEV_NUM:
            raise ApiError(RT_PARAM, rt_value(desc, value, param, f"[0, {RT_MAX_DEV_NUM})"), fb_invalid(rt_fn))
    # NpuDriver::GetP2PStatus (npu_driver.cc:1091-1099): a chip type without RT_FEATURE_DEVICE_P2P
    # returns RT_ERROR_FEATURE_NOT_SUPPORT before asking the driver (no status written): 207000 and
    # the wrapper's EE1001. Every emulated family has the feature (config/*/dev_info_reg.cc).
    if not _rt_features.has("RT_FEATURE_DEVICE_P2P"):
        raise ApiError(E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, fb_unsupported(rt_fn))
    _check_user_device(dev, rt_fn)
    store(out, 1 if (dev, peer) in RT.peer_access else 0)
    return E.ACL_SUCCESS


@rt_api
def aclrtGetPrimaryCtxState(deviceId: int, flags: object, active: object) -> int:
    """``active``: 1 while the device's primary context exists (aclrtSetDevice), else 0;
    ``flags`` is reserved and must be NULL."""
    api = "aclrtGetPrimaryCtxState"
    out = out_arg(active, api, "active")
    if flags is not None:
        raise ApiError(
            PARAM,
            (
                "EH0012",
                f"{api} failed. Parameter flags is invalid. Reason: flags is a reserved parameter and must be nullptr.",
            ),
        )
    dev = int_arg(deviceId, "deviceId", -(2**31), 2**31 - 1)
    count = RT.device_count
    if not 0 <= dev < count:  # ApiErrorDecorator::GetPrimaryCtxState (api_error.cc:6700-6702)
        raise ApiError(
            E.ACL_ERROR_RT_INVALID_DEVICEID,
            rt_value("Obtaining the status of the default context", dev, "realDeviceId", f"[0, {count})"),
            fb_inner("rtsGetPrimaryCtxState", "device id error"),
        )
    device = RT.devices.get(dev)
    store(out, 1 if device is not None and device.primary is not None and not device.primary.destroyed else 0)
    return E.ACL_SUCCESS


_TS_NAMES = ("TS_ID_AICORE(0)", "TS_ID_AIVECTOR(1)", "TS_ID_RESERVED(2)")


@rt_api
def aclrtSetTsDevice(tsId: int) -> int:
    """Choose the task scheduler (ACL_TS_ID_AICORE or ACL_TS_ID_AIVECTOR). The emulated chips
    have one scheduler, so either is accepted and nothing changes (``rtSetTSDevice``)."""
    t = int_arg(tsId, "tsId", -(2**31), 2**31 - 1)
    if t not in (0, 1):
        name = _TS_NAMES[t] if 0 <= t < 3 else f"UNKNOWN({t})"
        raise ApiError(PARAM, acl_value("aclrtSetTsDevice", name, "tsId", "ACL_TS_ID_AICORE or ACL_TS_ID_AIVECTOR"))
    return E.ACL_SUCCESS


@rt_api
def aclrtDeviceL2CacheFlush(rsv: object) -> int:
    """Flush the current device's L2 cache (``rsv`` must be NULL). The simulated memory has no
    cache: the flush has nothing to write back."""
    api = "aclrtDeviceL2CacheFlush"
    if rsv is not None and rsv != 0:
        raise ApiError(PARAM, ("EH0012", f"{api} failed. Parameter rsv is invalid. Reason: rsv must be nullptr."))
    need_context("rtDeviceL2CacheFlush")
    return E.ACL_SUCCESS


# ---------------------------------------------------------------------------------------------
# device state and task-abort callbacks, aclrtDeviceTaskAbort
# ---------------------------------------------------------------------------------------------

_lock = threading.RLock()
_state_callbacks: dict[str, tuple[Callable[..., Any], object]] = {}
_abort_callbacks: dict[str, tuple[Callable[..., Any], object]] = {}
_stream_callbacks: dict[str, tuple[Callable[..., Any], object]] = {}


def _register(
    table: dict[str, tuple[Callable[..., Any], object]],
    api: str,
    regName: object,
    cb: object,
    args: object,
    duplicate: Callable[[str], ApiError],
) -> int:
    """CANN's callback managers: a NULL callback takes the name's registration back; a name
    registered already is refused (each manager with its own report)."""
    if regName is None:
        raise ApiError(PARAM, acl_null(api, "regName"))
    name = regName.decode() if isinstance(regName, (bytes, bytearray)) else str(regName)
    with _lock:
        if cb is None:
            table.pop(name, None)
        elif not callable(cb):
            raise ApiError(PARAM, emu(f"{api}: callback must be callable, got {describe(cb)}."))
        elif name in table:
            raise duplicate(name)
        else:
            table[name] = (cb, args)
    return E.ACL_SUCCESS


def _dup_device_state(name: str) -> ApiError:
    """DeviceStateCallbackManager::RegDeviceStateCallback (device_state_callback_manager.cc:40-43)."""
    return ApiError(
        RT_PARAM,
        (
            "EE1011",
            f"Registering the device status callback function failed. Value {name} for parameter regName is "
            f"invalid. Reason: The callback function {name} has been registered and cannot be registered again.",
        ),
        fb_invalid("rtsRegDeviceStateCallback"),
    )


def _dup_task_abort(name: str) -> ApiError:
    """Runtime::SetTaskAbortCallBack (runtime.cc:4301-4305)."""
    return ApiError(
        RT_PARAM,
        (
            "EE1017",
            "Registering the aborting callback function of a task failed. Parameter regName is invalid. "
            f"Reason: The regName {name} has been registered and cannot be registered again.",
        ),
        fb_invalid("rtsSetDeviceTaskAbortCallback"),
    )


def _dup_stream_state(name: str) -> ApiError:
    """StreamStateCallbackManager::RegStreamStateCallback (stream_state_callback_manager.cc:36-40)."""
    return ApiError(
        RT_PARAM,
        (
            "EE1011",
            f"Registering the stream status callback function failed. Value {name} for parameter regName is "
            "invalid. Reason: The callback name has already been registered.",
        ),
        fb_invalid("rtsRegStreamStateCallback"),
    )


@rt_api
def aclrtRegDeviceStateCallback(regName: str | None, callback: Callable[..., Any] | None, args: object) -> int:
    """Register ``callback(deviceId, state, args)`` under ``regName``: it is called with
    ACL_RT_DEVICE_STATE_SET_PRE/_POST when aclrtSetDevice opens a device and _RESET_PRE/_POST
    when aclrtResetDevice closes it. A NULL callback removes the registration."""
    return _register(_state_callbacks, "aclrtRegDeviceStateCallback", regName, callback, args, _dup_device_state)


@rt_api
def aclrtSetDeviceTaskAbortCallback(regName: str | None, callback: Callable[..., Any] | None, args: object) -> int:
    """Register ``callback(deviceId, stage, timeout, args)``: aclrtDeviceTaskAbort calls it with
    ACL_RT_DEVICE_TASK_ABORT_PRE before and _POST after discarding the device's work."""
    return _register(_abort_callbacks, "aclrtSetDeviceTaskAbortCallback", regName, callback, args, _dup_task_abort)


@rt_api
def aclrtRegStreamStateCallback(regName: str | None, callback: Callable[..., Any] | None, args: object) -> int:
    """Register ``callback(stream, state, args)``: called with ACL_RT_STREAM_STATE_CREATE_POST
    after a stream is created and ACL_RT_STREAM_STATE_DESTROY_PRE before one is destroyed (not
    the default streams). A NULL callback removes the registration."""
    return _register(_stream_callbacks, "aclrtRegStreamStateCallback", regName, callback, args, _dup_stream_state)


def stream_state_changed(stream: object, state: int) -> None:
    """Tell the stream-state callbacks (called by the stream chapter's create and destroy)."""
    with _lock:
        entries = list(_stream_callbacks.values())
    for cb, args in entries:
        cb(stream, state, args)


def device_state_changed(device: int, state: int) -> None:
    """Tell the device-state callbacks (called by aclrtSetDevice and aclrtResetDevice)."""
    with _lock:
        entries = list(_state_callbacks.values())
    for cb, args in entries:
        cb(device, state, args)


def _cleaned(st: Stream) -> bool:
    """Whether the device clean puts the stream back in order (``Stream::ResClear``): the default
    stream always; of the others, Context::StreamsTaskClean (context.cc:1753-1773) skips the
    streams bound to a model (``GetBindFlag``) and the device-use-only ones
    (RT_STREAM_CP_PROCESS_USE), Ascend950's CtxStreamTaskClean (fast_recover.cc:23-54) the
    persistent ones (RT_STREAM_PERSISTENT) and the device-use-only ones."""
    if st.is_default:
        return True
    if st.flags & ACL_STREAM_DEVICE_USE_ONLY:
        return False
    return not st.flags & ACL_STREAM_PERSISTENT if impl_david() else model_stream(st) is None


def _device_clean(ctxs: list[Context]) -> None:
    """``ContextManage::DeviceClean`` (context_manage.cc:310-344) or Ascend950's
    ``DeviceTaskSendResume`` (fast_recover.cc:179-221), the last step of a device task abort: the
    cleaned streams leave abort mode and forget their failure, and every context of the device
    forgets the failure it stopped on (``SetFailureError(RT_ERROR_NONE)``; its stop mode stays),
    so it takes new work again."""
    streams = loaded_chapter("aclnn_py.runtime.api_stream")  # it imports this chapter: loaded by now
    with RT.lock:
        for ctx in ctxs:
            for st in ctx.all_streams():
                if streams is not None and _cleaned(st):
                    streams.res_clear(st)
            ctx.failure = None


@rt_api
def aclrtDeviceTaskAbort(deviceId: int, timeout: int) -> int:
    """Discard every task still queued on the device's streams (they stay usable), between the
    abort callbacks' PRE and POST calls; then clean the device: its contexts stopped on failure
    take work again, and its streams leave abort mode (but those bound to a model — Ascend950: the
    persistent ones — and the device-use-only ones). ``timeout`` in ms, at most 36 minutes.
    Ascend910B, 910_93 and 950 only (elsewhere 207000 without a report)."""
    rt_fn, desc = "rtDeviceTaskAbort", "Stopping all tasks running on the current device"
    dev = int_arg(deviceId, "deviceId", -(2**31), 2**31 - 1)
    t = int_arg(timeout, "timeout", 0, 2**32 - 1)
    if not _rt_features.has("RT_FEATURE_DFX_FAST_RECOVER"):
        return E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    if t > TASK_ABORT_TIMEOUT_MAX:
        raise ApiError(RT_PARAM, rt_value(desc, t, "timeout", f"[0, {TASK_ABORT_TIMEOUT_MAX}]"), fb_invalid(rt_fn))
    if not 0 <= dev < RT.device_count:
        raise ApiError(
            E.ACL_ERROR_RT_INVALID_DEVICEID,
            rt_value(desc, dev, "realDeviceId", f"[0, {RT.device_count})"),
            fb_inner(rt_fn, "device id error"),
        )
    with _lock:
        entries = list(_abort_callbacks.values())
    device = RT.devices.get(dev)
    if device is not None:
        device.task_abort = True  # an aclrtStreamAbort meanwhile (a callback's) changes nothing
    try:
        for cb, args in entries:
            cb(dev, 0, t, args)
        ctxs = (([device.primary] if device.primary else []) + device.contexts) if device is not None else []
        for stream in [s for c in ctxs for s in c.all_streams()]:
            discard_queue(stream)
        for cb, args in entries:
            cb(dev, 1, t, args)
    finally:
        if device is not None:
            device.task_abort = False
    _device_clean(ctxs)  # after the POST callbacks, in both of CANN's sequences
    return E.ACL_SUCCESS


def reset() -> None:
    """Forget every registration (test isolation; not a CANN call)."""
    with _lock:
        _state_callbacks.clear()
        _abort_callbacks.clear()
        _stream_callbacks.clear()


__all__ = [
    "aclrtDeviceGetBareTgid",
    "aclrtDeviceGetByPCIBusId",
    "aclrtDeviceGetPCIBusId",
    "aclrtDeviceL2CacheFlush",
    "aclrtDevicePeerAccessStatus",
    "aclrtDeviceTaskAbort",
    "aclrtGetDevicesTopo",
    "aclrtGetLogicDevIdByPhyDevId",
    "aclrtGetLogicDevIdByUserDevId",
    "aclrtGetPhyDevIdByLogicDevId",
    "aclrtGetPhyDevIdByUserDevId",
    "aclrtGetPrimaryCtxState",
    "aclrtGetUserDevIdByLogicDevId",
    "aclrtGetUserDevIdByPhyDevId",
    "aclrtRegDeviceStateCallback",
    "aclrtRegStreamStateCallback",
    "aclrtSetDeviceTaskAbortCallback",
    "aclrtSetTsDevice",
]
