"""IPC events and notifies, counting notifies (under every stream policy), device limits, the
overflow mode and status, system parameters, the operator timeout, the init/finalize callbacks,
and aclrtResetDeviceForce's release of the primary context only."""

from __future__ import annotations

import os

import numpy as np
import pytest
from rt_texts import bad_handle, null

from aclnn_py import (
    ACL_ERROR_INTERNAL_ERROR,
    ACL_ERROR_INVALID_PARAM,
    ACL_ERROR_RT_CONTEXT_RELEASE_ERROR,
    ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
    ACL_ERROR_RT_INTERNAL_ERROR,
    ACL_ERROR_RT_INVALID_DEVICEID,
    ACL_ERROR_RT_INVALID_HANDLE,
    ACL_ERROR_RT_NO_PERMISSION,
    ACL_ERROR_RT_PARAM_INVALID,
    ACL_ERROR_RT_SYSPARAMOPT_NOT_SET,
    ACL_ERROR_RT_WAIT_TIMEOUT,
    ACL_MEMCPY_DEVICE_TO_HOST,
    ACL_MEMCPY_HOST_TO_DEVICE,
    Ref,
    _errmsg,
    aclFinalize,
    aclGetRecentErrMsg,
    aclInit,
    aclrtCreateContext,
    aclrtCreateEvent,
    aclrtCreateEventExWithFlag,
    aclrtCreateNotify,
    aclrtCreateStream,
    aclrtDestroyContext,
    aclrtDestroyEvent,
    aclrtDestroyNotify,
    aclrtDestroyStream,
    aclrtDeviceEnablePeerAccess,
    aclrtFree,
    aclrtGetCurrentContext,
    aclrtLaunchHostFunc,
    aclrtMalloc,
    aclrtMemcpy,
    aclrtQueryEventStatus,
    aclrtRecordEvent,
    aclrtRecordNotify,
    aclrtResetDevice,
    aclrtResetDeviceForce,
    aclrtSetCurrentContext,
    aclrtSetDevice,
    aclrtSetOpExecuteTimeOut,
    aclrtStreamWaitEvent,
    aclrtSynchronizeStream,
    aclrtWaitAndResetNotify,
)
from aclnn_py._capi import ApiError
from aclnn_py.runtime import api_init_callback as cbs
from aclnn_py.runtime.api_cnt_notify import (
    aclrtCntNotifyCreate,
    aclrtCntNotifyDestroy,
    aclrtCntNotifyGetId,
    aclrtCntNotifyRecord,
    aclrtCntNotifyRecordInfo,
    aclrtCntNotifyReset,
    aclrtCntNotifyWaitInfo,
    aclrtCntNotifyWaitWithTimeout,
)
from aclnn_py.runtime.api_device_config import (
    aclrtCtxGetFloatOverflowAddr,
    aclrtCtxGetSysParamOpt,
    aclrtCtxSetSysParamOpt,
    aclrtDeviceGetLimit,
    aclrtDeviceSetLimit,
    aclrtGetDeviceSatMode,
    aclrtGetFloatOverflowStatus,
    aclrtGetOpExecuteTimeout,
    aclrtGetOpTimeOutInterval,
    aclrtGetOverflowStatus,
    aclrtGetSysParamOpt,
    aclrtNpuClearFloatOverFlowStatus,
    aclrtNpuGetFloatOverFlowStatus,
    aclrtResetOverflowStatus,
    aclrtSetDeviceSatMode,
    aclrtSetOpExecuteTimeOutV2,
    aclrtSetOpExecuteTimeOutWithMs,
    aclrtSetSysParamOpt,
)
from aclnn_py.runtime.api_device_query import (
    aclrtDeviceGetBareTgid,
    aclrtDeviceGetByPCIBusId,
    aclrtDeviceGetPCIBusId,
    aclrtDeviceL2CacheFlush,
    aclrtDevicePeerAccessStatus,
    aclrtDeviceTaskAbort,
    aclrtGetDevicesTopo,
    aclrtGetLogicDevIdByPhyDevId,
    aclrtGetLogicDevIdByUserDevId,
    aclrtGetPhyDevIdByLogicDevId,
    aclrtGetPhyDevIdByUserDevId,
    aclrtGetPrimaryCtxState,
    aclrtGetUserDevIdByLogicDevId,
    aclrtGetUserDevIdByPhyDevId,
    aclrtRegDeviceStateCallback,
    aclrtSetDeviceTaskAbortCallback,
    aclrtSetTsDevice,
)
from aclnn_py.runtime.api_init_callback import (
    aclFinalizeCallbackRegister,
    aclFinalizeCallbackUnRegister,
    aclInitCallbackRegister,
    aclInitCallbackUnRegister,
)
from aclnn_py.runtime.api_notify import (
    aclrtGetEventAvailNum,
    aclrtIpcEventHandle,
    aclrtIpcGetEventHandle,
    aclrtIpcOpenEventHandle,
    aclrtNotifyGetExportKey,
    aclrtNotifyImportByKey,
    aclrtNotifySetImportPid,
    aclrtNotifySetImportPidInterServer,
    aclrtServerPid,
)
from aclnn_py.runtime.device import RT

EE1001 = "The argument is invalid. Reason: {} execution failed."


def streams(n: int) -> list[object]:
    out = []
    for _ in range(n):
        s = Ref()
        assert aclrtCreateStream(s) == 0
        out.append(s.value)
    return out


# -- events: how many are left, IPC handles -------------------------------------------------------


def test_event_avail_num_counts_the_device_events(dev0):
    before = Ref()
    assert aclrtGetEventAvailNum(before) == 0 and before.value == 65536  # stubEventCount of Ascend910B
    ev = Ref()
    assert aclrtCreateEvent(ev) == 0
    after = Ref()
    assert aclrtGetEventAvailNum(after) == 0 and after.value == before.value  # no id before its first record
    assert aclrtRecordEvent(ev.value, None) == 0 and aclrtSynchronizeStream(None) == 0
    assert aclrtGetEventAvailNum(after) == 0 and after.value == before.value - 1
    assert aclrtDestroyEvent(ev.value) == 0
    assert aclrtGetEventAvailNum(None) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg().startswith(null("aclrtGetEventAvailNum", "eventCount"))


def test_ipc_event_opened_in_the_process_waits_for_the_exporters_record(ctx):
    producer, consumer = streams(2)
    ev = Ref()
    assert aclrtCreateEventExWithFlag(ev, 0x40) == 0  # ACL_EVENT_IPC
    handle = aclrtIpcEventHandle()
    assert aclrtIpcGetEventHandle(ev.value, handle) == 0 and any(handle.reserved)
    opened = Ref()
    assert aclrtIpcOpenEventHandle(handle, opened) == 0 and opened.value is not ev.value
    seen: list[str] = []
    assert aclrtLaunchHostFunc(producer, lambda _: seen.append("produced"), None) == 0
    assert aclrtRecordEvent(ev.value, producer) == 0
    assert aclrtStreamWaitEvent(consumer, opened.value) == 0  # waits for the exporter's record
    assert aclrtLaunchHostFunc(consumer, lambda _: seen.append("consumed"), None) == 0
    assert aclrtSynchronizeStream(consumer) == 0
    assert seen == ["produced", "consumed"]
    status = Ref()
    assert aclrtQueryEventStatus(opened.value, status) == 0 and status.value == 1  # COMPLETE
    for e in (opened.value, ev.value):
        assert aclrtDestroyEvent(e) == 0
    for s in (producer, consumer):
        assert aclrtDestroyStream(s) == 0


def test_ipc_event_handle_checks(dev0, soc):
    plain = Ref()
    assert aclrtCreateEvent(plain) == 0
    handle = aclrtIpcEventHandle()
    assert aclrtIpcGetEventHandle(plain.value, None) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg().startswith(null("aclrtIpcGetEventHandle", "handle"))
    assert aclrtIpcGetEventHandle(None, handle) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg().startswith(null("aclrtIpcGetEventHandle", "event"))
    assert aclrtIpcGetEventHandle(plain.value, handle) == ACL_ERROR_RT_PARAM_INVALID
    assert aclGetRecentErrMsg().startswith(
        "Not_Supported(EE1006): Obtaining the IPC event handle failed. Parameter evt.eventFlag_ value 14 is not "
        "supported. Reason: Only IPC events are supported."
    )
    assert aclrtIpcOpenEventHandle(aclrtIpcEventHandle(b"\x07"), Ref()) == ACL_ERROR_RT_PARAM_INVALID
    assert "no live IPC event was exported under handle 0x7" in aclGetRecentErrMsg()
    assert aclrtIpcOpenEventHandle(handle, None) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg().startswith(null("aclrtIpcOpenEventHandle", "event"))
    assert aclrtDestroyEvent(plain.value) == 0
    assert aclrtIpcGetEventHandle(plain.value, handle) == ACL_ERROR_RT_INVALID_HANDLE
    assert aclGetRecentErrMsg().startswith(bad_handle("event", "rtIpcGetEventHandle"))


def test_ipc_events_are_refused_on_chips_without_them(soc):
    soc("Ascend310P")
    assert aclInit(None) == 0 and aclrtSetDevice(0) == 0
    ev = Ref()
    assert aclrtCreateEvent(ev) == 0
    assert aclrtIpcGetEventHandle(ev.value, aclrtIpcEventHandle()) == ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    assert aclGetRecentErrMsg() is None  # a WARN only
    assert aclrtDestroyEvent(ev.value) == 0
    aclrtResetDevice(0)
    aclFinalize()


# -- IPC notifies ---------------------------------------------------------------------------------


def test_notify_export_import_shares_the_flag(ctx):
    recorder, waiter = streams(2)
    n = Ref()
    assert aclrtCreateNotify(n, 0) == 0
    key = Ref()
    assert aclrtNotifyGetExportKey(n.value, key, 64, 0) == 0 and str(os.getpid()) in key.value
    imported = Ref()
    assert aclrtNotifyImportByKey(imported, key.value, 0) == ACL_ERROR_RT_NO_PERMISSION  # not trusted yet
    assert f"process {os.getpid()} is not on the trustlist" in aclGetRecentErrMsg()
    assert aclrtNotifySetImportPid(n.value, [os.getpid()], 1) == 0
    assert aclrtNotifyImportByKey(imported, key.value, 0) == 0
    seen: list[str] = []
    assert aclrtWaitAndResetNotify(imported.value, waiter, 0) == 0  # waits on the importer's side
    assert aclrtLaunchHostFunc(waiter, lambda _: seen.append("after wait"), None) == 0
    assert aclrtLaunchHostFunc(recorder, lambda _: seen.append("record"), None) == 0
    assert aclrtRecordNotify(n.value, recorder) == 0  # recorded on the exporter's notify
    assert aclrtSynchronizeStream(waiter) == 0
    assert seen == ["record", "after wait"] and not n.value.is_set  # the wait cleared the shared flag
    for notify in (imported.value, n.value):
        assert aclrtDestroyNotify(notify) == 0
    for s in (recorder, waiter):
        assert aclrtDestroyStream(s) == 0


def test_notify_export_checks(dev0):
    n = Ref()
    assert aclrtCreateNotify(n, 0) == 0
    key = Ref()
    assert aclrtNotifyGetExportKey(None, key, 64, 0) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg().startswith(null("aclrtNotifyGetExportKey", "notify"))
    assert aclrtNotifyGetExportKey(n.value, None, 64, 0) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg().startswith(null("aclrtNotifyGetExportKey", "key"))
    assert aclrtNotifyGetExportKey(n.value, key, 0, 0) == ACL_ERROR_RT_PARAM_INVALID
    msg = aclGetRecentErrMsg()
    assert msg.startswith(
        "Invalid_Argument(EE1003): Setting a Notify as an IPC Notify failed because value 0 for parameter len is "
        "invalid. Expected value: not equal to 0."
    )
    assert EE1001.format("rtsNotifyGetExportKey") in msg
    assert aclrtNotifyGetExportKey(n.value, key, 64, 1) == ACL_ERROR_RT_PARAM_INVALID
    assert "value 1 for parameter flag is invalid. Expected value: 0 or 2." in aclGetRecentErrMsg()
    assert aclrtNotifySetImportPid(n.value, [1], 1) == ACL_ERROR_RT_PARAM_INVALID  # not exported yet
    assert "has no export key yet" in aclGetRecentErrMsg()
    assert aclrtNotifyGetExportKey(n.value, key, 64, 2) == 0  # no trustlist needed
    assert aclrtNotifyGetExportKey(n.value, key, 64, 0) == ACL_ERROR_RT_INTERNAL_ERROR  # already exported
    assert "Create ipc notify failed, ipc notify flag cannot be true" in aclGetRecentErrMsg()
    assert aclrtNotifySetImportPid(n.value, [1], 0) == ACL_ERROR_RT_PARAM_INVALID
    assert "value 0 for parameter num is invalid. Expected value: (0, 2147483647]." in aclGetRecentErrMsg()
    assert aclrtNotifySetImportPid(n.value, None, 1) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg().startswith(null("aclrtNotifySetImportPid", "pid"))
    assert aclrtNotifySetImportPidInterServer(n.value, [aclrtServerPid(1, [42], 2)], 1) == ACL_ERROR_RT_PARAM_INVALID
    assert aclGetRecentErrMsg().startswith(
        "Invalid_Argument(EE1003): rtNotifySetImportPidInterServer failed because value 2 for parameter "
        "serverPids[0].num is invalid. Expected value: 1."
    )
    assert aclrtNotifySetImportPidInterServer(n.value, [aclrtServerPid(1, [42], 1)], 1) == 0
    imported = Ref()
    assert aclrtNotifyImportByKey(imported, key.value, 4) == ACL_ERROR_RT_PARAM_INVALID
    assert "Enabling IPC Notify failed because value 4 for parameter flag is invalid. Expected value: [0, 3]." in (
        aclGetRecentErrMsg()
    )
    assert aclrtNotifyImportByKey(imported, "no such key", 0) == ACL_ERROR_RT_PARAM_INVALID
    assert "no live notify was exported under key 'no such key'" in aclGetRecentErrMsg()
    assert aclrtNotifyImportByKey(imported, key.value, 0) == 0  # DISABLE_PID_VALIDATION
    for notify in (imported.value, n.value):
        assert aclrtDestroyNotify(notify) == 0
    assert aclrtNotifyGetExportKey(n.value, key, 64, 0) == ACL_ERROR_RT_INVALID_HANDLE
    assert aclGetRecentErrMsg().startswith(bad_handle("notify", "rtsNotifyGetExportKey"))


# -- counting notifies ---------------------------------------------------------------------------


def test_counting_notify_counts_across_streams(soc, monkeypatch):
    for policy in ("deferred", "eager", "thread"):
        soc("Ascend950")
        monkeypatch.setenv("ACLNN_PY_STREAM", policy)
        assert aclInit(None) == 0 and aclrtSetDevice(0) == 0
        producer, consumer = streams(2)
        cn = Ref()
        assert aclrtCntNotifyCreate(cn, 0) == 0
        seen: list[object] = []
        wait = aclrtCntNotifyWaitInfo(mode=3, value=3, timeout=5, isClear=1)  # BIGGER_OR_EQUAL 3, then clear
        assert aclrtCntNotifyWaitWithTimeout(cn.value, consumer, wait) == 0
        assert (
            aclrtLaunchHostFunc(
                consumer, lambda _, seen=seen, cn=cn: seen.append(("consumer saw", cn.value.count)), None
            )
            == 0
        )
        for _ in range(3):
            assert aclrtLaunchHostFunc(producer, lambda _, seen=seen: seen.append("tick"), None) == 0
            assert aclrtCntNotifyRecord(cn.value, producer, aclrtCntNotifyRecordInfo(1, 1)) == 0  # ADD 1
        assert aclrtSynchronizeStream(consumer) == 0 and aclrtSynchronizeStream(producer) == 0
        assert seen == ["tick", "tick", "tick", ("consumer saw", 0)], policy  # cleared once met
        # set, or, and: 0b1100 | 0b0011 = 15; & 0b0110 = 6
        for mode, value in ((0, 0b1100), (2, 0b0011), (4, 0b0110)):
            assert aclrtCntNotifyRecord(cn.value, producer, aclrtCntNotifyRecordInfo(mode, value)) == 0
        assert aclrtSynchronizeStream(producer) == 0 and cn.value.count == 6
        bitmask = aclrtCntNotifyWaitInfo(mode=4, value=0b0110)
        assert aclrtCntNotifyWaitWithTimeout(cn.value, consumer, bitmask) == 0
        assert aclrtSynchronizeStream(consumer) == 0
        assert aclrtCntNotifyReset(cn.value, producer) == 0 and aclrtSynchronizeStream(producer) == 0
        assert cn.value.count == 0
        ident = Ref()
        assert aclrtCntNotifyGetId(cn.value, ident) == 0 and ident.value == cn.value.ident
        assert aclrtCntNotifyDestroy(cn.value) == 0
        for s in (producer, consumer):
            assert aclrtDestroyStream(s) == 0
        aclrtResetDevice(0)
        aclFinalize()


def test_counting_notify_wait_times_out(soc, monkeypatch):
    soc("Ascend950")
    monkeypatch.setenv("ACLNN_PY_STREAM", "deferred")
    assert aclInit(None) == 0 and aclrtSetDevice(0) == 0
    (s,) = streams(1)
    cn = Ref()
    assert aclrtCntNotifyCreate(cn, 0) == 0
    assert aclrtCntNotifyWaitWithTimeout(cn.value, s, aclrtCntNotifyWaitInfo(mode=1, value=1, timeout=1)) == 0
    assert aclrtSynchronizeStream(s) == ACL_ERROR_RT_WAIT_TIMEOUT  # nothing ever records it
    aclGetRecentErrMsg()
    assert aclrtCntNotifyDestroy(cn.value) == 0 and aclrtDestroyStream(s) == 0
    aclrtResetDevice(0)
    aclFinalize()


def test_counting_notify_checks(soc):
    soc("Ascend950")
    assert aclInit(None) == 0 and aclrtSetDevice(0) == 0
    cn = Ref()
    assert aclrtCntNotifyCreate(cn, 1) == ACL_ERROR_RT_PARAM_INVALID
    assert aclGetRecentErrMsg().startswith(
        "Invalid_Argument(EE1003): rtCntNotifyCreateServer failed because value 1 for parameter flags is invalid. "
        "Expected value: 0."
    )
    assert aclrtCntNotifyCreate(None, 0) == ACL_ERROR_RT_PARAM_INVALID
    assert aclGetRecentErrMsg().startswith(
        "Invalid_Argument_Null_Pointer(EE1004): CntNotify creation failed because retCntNotify cannot be a NULL pointer."
    )
    assert aclrtCntNotifyCreate(cn, 0) == 0
    assert aclrtCntNotifyRecord(cn.value, None, None) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg().startswith(null("aclrtCntNotifyRecord", "info"))
    assert aclrtCntNotifyRecord(cn.value, None, aclrtCntNotifyRecordInfo(3, 1)) == ACL_ERROR_RT_PARAM_INVALID
    msg = aclGetRecentErrMsg()
    assert msg.startswith(
        "Invalid_Argument(EE1003): CntNotify recording failed because value RECORD_INVALID_MODE(3) for parameter "
        "info->mode is invalid. Expected value: RECORD_STORE_MODE(0), RECORD_ADD_MODE(1), RECORD_WRITE_BIT_MODE(2) "
        "or RECORD_CLEAR_BIT_MODE(4)."
    )
    assert EE1001.format("rtsCntNotifyRecord") in msg
    assert aclrtCntNotifyWaitWithTimeout(cn.value, None, aclrtCntNotifyWaitInfo(mode=7)) == ACL_ERROR_RT_PARAM_INVALID
    assert "value UNKNOWN(7) for parameter info->mode is invalid. Expected value: [0, 5)." in aclGetRecentErrMsg()
    assert aclrtCntNotifyReset(None, None) == ACL_ERROR_RT_PARAM_INVALID
    assert aclGetRecentErrMsg().startswith(
        "Invalid_Argument_Null_Pointer(EE1004): CntNotify reset failed because inCntNotify cannot be a NULL pointer."
    )
    assert aclrtCntNotifyGetId(cn.value, None) == ACL_ERROR_RT_PARAM_INVALID
    assert "Obtaining the ID of a CntNotify object failed because notifyId cannot be a NULL pointer." in (
        aclGetRecentErrMsg()
    )
    assert aclrtCntNotifyDestroy(cn.value) == 0
    assert aclrtCntNotifyDestroy(cn.value) == ACL_ERROR_RT_INVALID_HANDLE
    assert aclGetRecentErrMsg().startswith(bad_handle("cntNotify", "rtCntNotifyDestroy"))
    aclrtResetDevice(0)
    aclFinalize()


def test_counting_notifies_exist_on_ascend950_only(dev0):
    cn = Ref()
    assert aclrtCntNotifyCreate(cn, 0) == ACL_ERROR_RT_FEATURE_NOT_SUPPORT and cn.value is None
    assert aclGetRecentErrMsg().startswith(
        "Invalid_Argument(EE1001): The argument is invalid. Reason: rtCntNotifyCreateWithFlag execution failed, the "
        "feature is not supported."
    )


# -- device limits, overflow ----------------------------------------------------------------------


def test_device_limits(dev0):
    value = Ref()
    assert aclrtDeviceGetLimit(2, value) == 0 and value.value == 32768  # SIMD stack: 32 KiB
    assert aclrtDeviceSetLimit(2, 16384) == 0 and aclrtDeviceGetLimit(2, value) == 0 and value.value == 32768
    assert aclrtDeviceSetLimit(2, 40000) == 0 and aclrtDeviceGetLimit(2, value) == 0 and value.value == 49152
    assert aclrtDeviceSetLimit(3, 1029) == 0 and aclrtDeviceGetLimit(3, value) == 0 and value.value == 1032
    assert aclrtDeviceSetLimit(3, 5) == ACL_ERROR_RT_PARAM_INVALID
    msg = aclGetRecentErrMsg()
    assert msg.startswith(
        "Invalid_Argument(EE1003): Setting the size of the printf space for the AI Core in SIMD scenarios failed "
        "because value 5 for parameter val is invalid. Expected value: [1024, 67108864]."
    )
    assert "rtDeviceSetLimit failed, runtime result = 107000.[FUNC:ReportCallError]" in msg
    for simt in (0, 1, 4):  # SIMT limits: Ascend950 only, refused without a report
        assert aclrtDeviceSetLimit(simt, 4096) == ACL_ERROR_RT_FEATURE_NOT_SUPPORT
        assert aclrtDeviceGetLimit(simt, value) == ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    assert aclrtDeviceSetLimit(5, 1) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg().startswith(
        "Invalid_Argument(EH0007): aclrtDeviceSetLimit failed because value UNKNOWN(5) for parameter limit is "
        "invalid. Expected value: [0, 4]."
    )
    assert aclrtDeviceSetLimit(2, 2**32) == ACL_ERROR_INVALID_PARAM
    assert "value 4294967296 for parameter value is invalid. Expected value: [0, UINT32_MAX]." in aclGetRecentErrMsg()
    assert aclrtDeviceGetLimit(2, None) == ACL_ERROR_INVALID_PARAM


def test_simt_limits_on_ascend950(soc):
    soc("Ascend950")
    assert aclInit(None) == 0
    value = Ref()
    assert aclrtDeviceGetLimit(0, value) == 0 and value.value == 32 * 1152  # RT_KIS_SIMT_WARP_STK_SIZE
    assert aclrtDeviceSetLimit(0, 200) == 0 and aclrtDeviceGetLimit(0, value) == 0 and value.value == 256 * 32
    assert aclrtDeviceGetLimit(4, value) == 0 and value.value == 2 * 1024 * 1024
    aclFinalize()


def test_sat_mode(dev0, soc):
    mode = Ref()
    assert aclrtGetDeviceSatMode(mode) == 0 and mode.value == 1  # Inf/NaN on Ascend910B
    assert aclrtSetDeviceSatMode(0) == 0 and aclrtGetDeviceSatMode(mode) == 0 and mode.value == 0
    assert aclrtSetDeviceSatMode(2) == ACL_ERROR_RT_PARAM_INVALID
    msg = aclGetRecentErrMsg()
    assert msg.startswith(
        "Invalid_Argument(EE1003): Setting the overflow/underflow detection mode of the current device failed because "
        "value OVERFLOW_MODE_UNDEF(2) for parameter floatOverflowMode is invalid. Expected value: [0, 2)."
    )
    assert EE1001.format("rtSetDeviceSatMode") in msg


def test_sat_mode_the_chip_lacks(soc):
    soc("Ascend950")  # Inf/NaN only
    assert aclInit(None) == 0
    assert aclrtSetDeviceSatMode(0) == ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    assert "Failed to set the saturation mode because only the Inf/NaN mode can be set and the saturation mode is " in (
        aclGetRecentErrMsg()
    )
    aclFinalize()


def test_overflow_status_is_copied_and_cleared_on_the_stream(ctx):
    (s,) = streams(1)
    area = Ref()
    assert aclrtCtxGetFloatOverflowAddr(area) == 0 and area.value
    status = np.zeros(64, np.uint8)
    status[:4] = [1, 0, 0, 0]
    assert aclrtMemcpy(area.value, 512, status, 64, ACL_MEMCPY_HOST_TO_DEVICE) == 0  # as an overflowing kernel would
    out = Ref()
    assert aclrtMalloc(out, 64, 0) == 0
    host = np.zeros(64, np.uint8)
    for get in (aclrtGetOverflowStatus, aclrtGetFloatOverflowStatus):
        assert get(out.value, 64, s) == 0 and aclrtSynchronizeStream(s) == 0
        assert aclrtMemcpy(host, 64, out.value, 64, ACL_MEMCPY_DEVICE_TO_HOST) == 0 and host[0] == 1
    assert aclrtNpuGetFloatOverFlowStatus(out.value, 64, 0, s) == 0 and aclrtSynchronizeStream(s) == 0
    assert aclrtResetOverflowStatus(s) == 0 and aclrtGetOverflowStatus(out.value, 64, s) == 0
    assert aclrtSynchronizeStream(s) == 0
    assert aclrtMemcpy(host, 64, out.value, 64, ACL_MEMCPY_DEVICE_TO_HOST) == 0 and not host.any()
    assert aclrtNpuClearFloatOverFlowStatus(0, s) == 0 and aclrtSynchronizeStream(s) == 0
    assert aclrtGetOverflowStatus(out.value, 32, s) == ACL_ERROR_RT_PARAM_INVALID
    assert aclGetRecentErrMsg().startswith("Invalid_Argument(EE1001): " + EE1001.format("rtGetDeviceSatStatus"))
    assert aclrtGetOverflowStatus(None, 64, s) == ACL_ERROR_INVALID_PARAM
    assert aclrtNpuGetFloatOverFlowStatus(out.value, 32, 0, s) == ACL_ERROR_RT_PARAM_INVALID
    assert "Obtaining the Float exception status of the NPU failed because value 32 for parameter outputSize" in (
        aclGetRecentErrMsg()
    )
    assert aclrtFree(out.value) == 0 and aclrtDestroyStream(s) == 0


def test_npu_float_status_is_refused_on_older_chips(soc):
    soc("Ascend910")
    assert aclInit(None) == 0 and aclrtSetDevice(0) == 0
    assert aclrtNpuClearFloatOverFlowStatus(0, None) == ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    assert "(EE1005): The current system or device does not support rtNpuClearFloatStatus." in aclGetRecentErrMsg()
    assert aclrtResetOverflowStatus(None) == 0  # the context-level clear exists there
    assert aclrtSynchronizeStream(None) == 0
    aclrtResetDevice(0)
    aclFinalize()


# -- system parameters and the operator timeout -----------------------------------------------------


def test_system_parameters(dev0):
    value = Ref()
    assert aclrtGetSysParamOpt(0, value) == 0 and value.value == 0  # never set: 0
    assert aclrtSetSysParamOpt(0, 3) == 0 and aclrtGetSysParamOpt(0, value) == 0 and value.value == 3
    assert aclrtSetSysParamOpt(3, 1) == 0  # early start: process level only
    assert aclrtSetSysParamOpt(1, 2) == ACL_ERROR_RT_PARAM_INVALID
    assert aclGetRecentErrMsg().startswith(
        "Invalid_Argument(EE1003): rtSetSysParamOpt failed because value 2 for parameter configVal is invalid. "
        "Expected value: [0, 2)."
    )
    assert aclrtCtxGetSysParamOpt(1, value) == ACL_ERROR_RT_SYSPARAMOPT_NOT_SET
    assert aclrtCtxSetSysParamOpt(1, 1) == 0 and aclrtCtxGetSysParamOpt(1, value) == 0 and value.value == 1
    assert aclrtGetSysParamOpt(1, value) == 0 and value.value == 1  # the process value follows
    assert aclrtCtxSetSysParamOpt(3, 1) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg().startswith(
        "Invalid_Argument(EH0007): Setting system parameter values in the current context failed because value "
        "ACL_OPT_ENABLE_KERNEL_EARLY_START(3) for parameter opt is invalid. Expected value: ACL_OPT_DETERMINISTIC(0) "
        "or ACL_OPT_ENABLE_DEBUG_KERNEL(1) or ACL_OPT_STRONG_CONSISTENCY(2)."
    )
    assert aclrtCtxSetSysParamOpt(0, 4) == ACL_ERROR_RT_PARAM_INVALID
    msg = aclGetRecentErrMsg()
    assert "Setting system parameter values in the current context failed because value 4 for parameter " in msg
    assert EE1001.format("rtCtxSetSysParamOpt") in msg
    assert aclrtGetSysParamOpt(0, None) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg().startswith(null("Obtaining system parameter values from the current context", "value"))
    other = Ref()
    assert aclrtCreateContext(other, 0) == 0  # a new context has none of its own
    assert aclrtCtxGetSysParamOpt(1, value) == ACL_ERROR_RT_SYSPARAMOPT_NOT_SET
    assert aclrtDestroyContext(other.value) == 0


def test_operator_timeout(dev0):
    value = Ref()
    assert aclrtGetOpExecuteTimeout(value) == 0 and value.value == 1090922  # 254 credits of 4294967.296 us
    assert aclrtGetOpTimeOutInterval(value) == 0 and value.value == 4294967
    assert aclrtSetOpExecuteTimeOutV2(100, value) == 0 and value.value == 4294967  # one credit
    assert aclrtGetOpExecuteTimeout(value) == 0 and value.value == 4295
    assert aclrtSetOpExecuteTimeOutV2(10_000_000, value) == 0 and value.value == 12884901  # three credits
    assert aclrtSetOpExecuteTimeOutV2(0, value) == 0 and value.value == 1090921693  # the maximum
    assert aclrtSetOpExecuteTimeOutWithMs(5000) == 0 and aclrtGetOpExecuteTimeout(value) == 0
    assert value.value == 8590  # rounded up to two credits
    assert aclrtSetOpExecuteTimeOut(2) == 0 and aclrtGetOpExecuteTimeout(value) == 0 and value.value == 4295
    assert aclrtSetOpExecuteTimeOutV2(1, None) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg().startswith(null("aclrtSetOpExecuteTimeOutV2", "actualTimeout"))


# -- init and finalize callbacks ---------------------------------------------------------------------


def test_init_and_finalize_callbacks():
    calls: list[object] = []

    def on_init(config: str, size: int, data: object) -> int:
        calls.append(("init", config, size, data))
        return 0

    def on_finalize(data: object) -> int:
        calls.append(("finalize", data))
        return 0

    try:
        assert aclInitCallbackRegister(0, on_init, "model") == 0
        assert aclInitCallbackRegister(0, on_init, "again") == ACL_ERROR_INTERNAL_ERROR  # one per type
        assert aclInitCallbackRegister(0xFFFF, on_init, "other") == 0
        assert aclInitCallbackRegister(0xFFFF, on_init, "other 2") == 0  # OTHER takes any number
        assert aclInitCallbackRegister(0, None, None) == ACL_ERROR_INVALID_PARAM
        assert aclFinalizeCallbackRegister(6, on_finalize, "dvpp") == 0
        assert aclFinalizeCallbackRegister(3, on_finalize, "compiler") == 0
        cbs.notify_init("{}", False)
        assert [c[3] for c in calls] == ["model", "other", "other 2"] and calls[0][1:3] == ("{}", 2)
        calls.clear()
        cbs.notify_finalize()
        assert calls == [("finalize", "compiler"), ("finalize", "dvpp")]
        calls.clear()
        assert aclInit(None) == 0  # aclInit walks them (no configuration file: no op-executor ones)
        assert [c[1:] for c in calls] == [("", 0, "model"), ("", 0, "other"), ("", 0, "other 2")]
        calls.clear()
        assert aclInitCallbackRegister(6, on_init, "late") == 0  # after aclInit: runs at once
        assert calls == [("init", "", 0, "late")]
        calls.clear()
        assert aclFinalize() == 0  # and aclFinalize its own
        assert calls == [("finalize", "compiler"), ("finalize", "dvpp")]
        assert aclInitCallbackUnRegister(0, on_init) == 0
        assert aclInitCallbackUnRegister(0, on_init) == ACL_ERROR_INTERNAL_ERROR  # not registered any more
        assert aclInitCallbackUnRegister(1, on_init) == ACL_ERROR_INTERNAL_ERROR
        assert aclFinalizeCallbackUnRegister(6, on_finalize) == 0
        assert aclFinalizeCallbackUnRegister(6, None) == ACL_ERROR_INVALID_PARAM
        failing: list[str] = []
        assert aclFinalizeCallbackRegister(0, lambda data: failing.append("model") or 500001, None) == 0
        with pytest.raises(ApiError) as failure:
            cbs.notify_finalize()
        assert failure.value.code == 500001 and failing == ["model"]  # compiler ran, model failed: stop
        cbs.reset()
        # a failing init callback fails aclInit with its code, and the runtime stays uninitialised
        assert aclInitCallbackRegister(0, lambda cfg, size, data: 500002, None) == 0
        assert aclInit(None) == 500002
        # aclInitImpl's ACL_LOG_INNER_ERROR for the type
        assert "call acl_model init callback failed, ret:500002[FUNC:ReportInnerError]" in aclGetRecentErrMsg()
        from aclnn_py.runtime.device import RT

        assert not RT.initialized
        cbs.reset()
        assert aclInit(None) == 0
        # a failing finalize callback fails aclFinalize, which can be called again once it passes
        answer = [500003]
        assert aclFinalizeCallbackRegister(0, lambda data: answer[0], None) == 0
        assert aclFinalize() == 500003
        msg = aclGetRecentErrMsg()
        assert "call acl_model finalize callback failed, ret:500003" in msg
        assert "[Finalize][Acl]finalize internal failed, errorCode = 500003" in msg
        answer[0] = 0
        assert aclFinalize() == 0
    finally:
        cbs.reset()


# -- aclrtResetDeviceForce ---------------------------------------------------------------------------


def test_reset_device_force_releases_only_the_primary_context():
    assert aclInit(None) == 0 and aclrtSetDevice(0) == 0 and aclrtSetDevice(0) == 0
    primary_stream = Ref()
    assert aclrtCreateStream(primary_stream) == 0
    primary = RT.devices[0].primary
    explicit = Ref()
    assert aclrtCreateContext(explicit, 0) == 0  # now current
    explicit_stream = Ref()
    assert aclrtCreateStream(explicit_stream) == 0
    buf = Ref()
    assert aclrtMalloc(buf, 64, 0) == 0
    assert aclrtSetCurrentContext(primary) == 0
    assert aclrtDestroyStream(primary_stream.value) == 0
    assert aclrtResetDeviceForce(0) == 0  # both references of the primary context go
    assert primary.destroyed and RT.devices[0].refcount == 0
    assert not explicit.value.destroyed and not explicit_stream.value.destroyed  # CANN keeps it
    assert aclrtSetCurrentContext(explicit.value) == 0
    cur = Ref()
    assert aclrtGetCurrentContext(cur) == 0 and cur.value is explicit.value
    host = np.arange(64, dtype=np.uint8)
    assert aclrtMemcpy(buf.value, 64, host, 64, ACL_MEMCPY_HOST_TO_DEVICE) == 0  # the memory survives
    assert aclrtResetDeviceForce(0) == ACL_ERROR_RT_CONTEXT_RELEASE_ERROR  # no primary left
    assert "PrimaryContextRelease failed during force reset, retain count is 0." in aclGetRecentErrMsg()
    assert aclrtFree(buf.value) == 0
    assert aclrtDestroyStream(explicit_stream.value) == 0 and aclrtDestroyContext(explicit.value) == 0
    aclFinalize()


# -- device ids, topology, callbacks -----------------------------------------------------------------


def test_device_id_mappings_agree_on_one_host(dev0):
    for fn in (
        aclrtGetLogicDevIdByPhyDevId,
        aclrtGetPhyDevIdByLogicDevId,
        aclrtGetLogicDevIdByUserDevId,
        aclrtGetUserDevIdByLogicDevId,
        aclrtGetUserDevIdByPhyDevId,
        aclrtGetPhyDevIdByUserDevId,
    ):
        out = Ref()
        assert fn(3, out) == 0 and out.value == 3, fn.__name__
        assert fn(-1, out) == ACL_ERROR_RT_PARAM_INVALID
        assert "for parameter" in aclGetRecentErrMsg()
        assert fn(8, out) == ACL_ERROR_RT_INVALID_DEVICEID
        assert "device 8 does not exist" in aclGetRecentErrMsg()
    assert aclrtGetLogicDevIdByPhyDevId(-1, Ref()) == ACL_ERROR_RT_PARAM_INVALID
    assert aclGetRecentErrMsg().startswith(
        "Invalid_Argument(EE1003): rtsGetLogicDevIdByPhyDevId failed because value -1 for parameter phyDevId is "
        "invalid. Expected value: greater than or equal to 0."
    )
    assert aclrtGetLogicDevIdByPhyDevId(0, None) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg().startswith(null("aclrtGetLogicDevIdByPhyDevId", "logicDevId"))
    pid = Ref()
    assert aclrtDeviceGetBareTgid(pid) == 0 and pid.value == os.getpid()


def test_pci_bus_ids_round_trip(dev0):
    bus = Ref()
    assert aclrtDeviceGetPCIBusId(2, bus, 13) == 0 and bus.value == "0000:03:00.0"
    dev = Ref()
    assert aclrtDeviceGetByPCIBusId(bus.value, dev) == 0 and dev.value == 2
    assert aclrtDeviceGetPCIBusId(2, bus, 12) == ACL_ERROR_RT_PARAM_INVALID
    # the decorator's EE1003 has one value too many for its template: the error manager records
    # nothing; only the wrapper's EE1001 remains
    msg = aclGetRecentErrMsg()
    assert "EE1003" not in msg and "rtDeviceGetPCIBusId execution failed." in msg
    assert aclrtDeviceGetPCIBusId(-1, bus, 13) == ACL_ERROR_RT_INVALID_DEVICEID
    aclGetRecentErrMsg()
    # GetDeviceByPCIBusId compares with strcmp against "%04x:%02x:%02x.%x": no other spelling matches
    for text in ("0000:99:00.0", "0:3:0.0", " 0000:03:00.0", "0000:03:00.0 "):
        assert aclrtDeviceGetByPCIBusId(text, dev) == ACL_ERROR_RT_PARAM_INVALID
        msg = aclGetRecentErrMsg()
        assert "rtDeviceGetByPCIBusId execution failed." in msg and "aclnn_py" not in msg and "EE1003" not in msg
    assert aclrtDeviceGetByPCIBusId(None, dev) == ACL_ERROR_INVALID_PARAM
    aclGetRecentErrMsg()


def test_topology_peers_and_primary_context_state(dev0):
    topo = Ref()
    assert aclrtGetDevicesTopo(0, 1, topo) == 0 and topo.value == 0x01  # ACL_RT_DEVS_TOPOLOGY_HCCS
    status = Ref()
    assert aclrtDevicePeerAccessStatus(0, 1, status) == 0 and status.value == 0
    assert aclrtDeviceEnablePeerAccess(1, 0) == 0
    assert aclrtDevicePeerAccessStatus(0, 1, status) == 0 and status.value == 1
    assert aclrtDevicePeerAccessStatus(0, 64, status) == ACL_ERROR_RT_PARAM_INVALID
    assert "Obtaining the P2P status failed because value 64 for parameter phyIdSrc" in aclGetRecentErrMsg()
    active = Ref()
    assert aclrtGetPrimaryCtxState(0, None, active) == 0 and active.value == 1
    assert aclrtGetPrimaryCtxState(1, None, active) == 0 and active.value == 0
    assert aclrtGetPrimaryCtxState(0, Ref(), active) == ACL_ERROR_INVALID_PARAM
    assert "Reason: flags is a reserved parameter and must be nullptr." in aclGetRecentErrMsg()
    assert aclrtSetTsDevice(1) == 0 and aclrtSetTsDevice(2) == ACL_ERROR_INVALID_PARAM
    assert "value TS_ID_RESERVED(2) for parameter tsId" in aclGetRecentErrMsg()
    assert aclrtDeviceL2CacheFlush(None) == 0 and aclrtDeviceL2CacheFlush(1) == ACL_ERROR_INVALID_PARAM
    aclGetRecentErrMsg()


def test_device_state_and_task_abort_callbacks(monkeypatch):
    from aclnn_py.runtime import api_device_query

    monkeypatch.setenv("ACLNN_PY_STREAM", "deferred")  # the abort finds the work still queued
    seen: list[tuple[int, ...]] = []
    try:
        assert aclrtRegDeviceStateCallback("watch", lambda d, s, a: seen.append((d, s)), None) == 0
        assert aclInit(None) == 0 and aclrtSetDevice(1) == 0 and aclrtSetDevice(1) == 0
        # SET_PRE when the device opens, SET_POST after every set (ApiImpl::SetDevice)
        assert seen == [(1, 0), (1, 1), (1, 1)]
        del seen[2]
        aborted: list[tuple[int, int, int]] = []
        assert aclrtSetDeviceTaskAbortCallback("abort", lambda d, st, t, a: aborted.append((d, st, t)) or 0, None) == 0
        (s,) = streams(1)
        ran: list[int] = []
        assert aclrtLaunchHostFunc(s, lambda _: ran.append(1), None) == 0
        assert aclrtDeviceTaskAbort(1, 1000) == 0
        assert aborted == [(1, 0, 1000), (1, 1, 1000)] and aclrtSynchronizeStream(s) == 0 and ran == []
        assert aclrtDeviceTaskAbort(1, 36 * 60 * 1000 + 1) == ACL_ERROR_RT_PARAM_INVALID
        assert "Stopping all tasks running on the current device failed because value 2160001" in aclGetRecentErrMsg()
        assert aclrtDestroyStream(s) == 0
        assert aclrtResetDevice(1) == 0 and aclrtResetDevice(1) == 0
        assert seen[2:] == [(1, 2), (1, 3)]  # RESET_PRE, RESET_POST when it closes
        assert aclrtRegDeviceStateCallback("watch", None, None) == 0  # taken back
        assert aclrtSetDevice(1) == 0 and len(seen) == 4
        assert aclrtResetDevice(1) == 0
        assert aclrtRegDeviceStateCallback("watch", lambda d, s, a: seen.append((d, s)), None) == 0
        seen.clear()
        ctx = Ref()
        assert aclrtCreateContext(ctx, 2) == 0 and seen == [(2, 0)]  # the context opens the device
        assert aclrtDestroyContext(ctx.value) == 0
        seen.clear()
        assert aclrtSetDevice(3) == 0 and aclrtResetDeviceForce(3) == 0
        assert seen == [(3, 0), (3, 1), (3, 2), (3, 3)]  # a forced reset tears the primary down too
        assert aclrtRegDeviceStateCallback("watch", None, None) == 0
        assert aclrtRegDeviceStateCallback(None, None, None) == ACL_ERROR_INVALID_PARAM
        aclGetRecentErrMsg()
        aclFinalize()
    finally:
        api_device_query.reset()


def test_init_callbacks_run_in_acl_inits_order_and_a_failed_init_records_no_config(tmp_path):
    """aclInitImpl: the ACL_MODEL callbacks before the file's dump and default-device sections,
    the ACL_OP_EXECUTOR ones between them; a failure of an OTHER callback is only logged; the
    first configuration a later aclInit must match is recorded only when aclInit succeeds."""
    bad = tmp_path / "bad.json"
    bad.write_text('{"defaultDevice": {"default_device": "100"}}')
    good = tmp_path / "good.json"
    good.write_text("{}")
    try:
        assert aclInitCallbackRegister(0, lambda cfg, size, data: 500002, None) == 0
        assert aclInit(str(bad)) == 500002  # before the default device is looked at
        assert "call acl_model init callback failed, ret:500002" in aclGetRecentErrMsg()
        cbs.reset()
        assert aclInitCallbackRegister(1, lambda cfg, size, data: 500003, None) == 0  # ACL_OP_EXECUTOR
        assert aclInit(str(bad)) == 500003  # with a file, before the default device too
        assert "call acl_op_executor init callback failed, ret:500003." in aclGetRecentErrMsg()
        cbs.reset()
        assert aclInitCallbackRegister(0xFFFF, lambda cfg, size, data: 500004, None) == 0
        _errmsg.clear()
        assert aclInit(str(good)) == 500004
        assert "500004" not in (aclGetRecentErrMsg() or "")  # ACL_LOG_ERROR: a log line only
        cbs.reset()
        assert aclInit(str(good)) == 0  # no failed aclInit fixed the first configuration
        assert aclFinalize() == 0
    finally:
        cbs.reset()
