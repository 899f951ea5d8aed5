"""The events chapter's additions: timestamps, aclrtResetEvent, aclrtCreateEventExWithFlag, the
event queries, and the notifies (one stream records, another waits) under every stream policy."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest
from rt_texts import FUNC_ERROR_REASON, bad_handle, null

from aclnn_py import (
    ACL_ERROR_INVALID_PARAM,
    ACL_ERROR_RT_CONTEXT_NULL,
    ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID,
    ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
    ACL_ERROR_RT_INTERNAL_ERROR,
    ACL_ERROR_RT_INVALID_HANDLE,
    ACL_ERROR_RT_NO_NOTIFY_RESOURCE,
    ACL_ERROR_RT_PARAM_INVALID,
    ACL_ERROR_RT_WAIT_TIMEOUT,
    ACL_EVENT_EXTERNAL,
    ACL_EVENT_IPC,
    ACL_EVENT_STATUS_COMPLETE,
    ACL_EVENT_SYNC,
    ACL_EVENT_TIME_LINE,
    ACL_EVENT_WAIT_STATUS_COMPLETE,
    ACL_MEMCPY_DEVICE_TO_HOST,
    ACL_MEMCPY_HOST_TO_DEVICE,
    ACL_NOTIFY_DEFAULT,
    ACL_RT_THREAD_LEVEL,
    Ref,
    aclFinalize,
    aclGetRecentErrMsg,
    aclInit,
    aclrtCreateContext,
    aclrtCreateEvent,
    aclrtCreateEventExWithFlag,
    aclrtCreateEventWithFlag,
    aclrtCreateNotify,
    aclrtCreateStream,
    aclrtDestroyContext,
    aclrtDestroyEvent,
    aclrtDestroyNotify,
    aclrtDestroyStream,
    aclrtEventElapsedTime,
    aclrtEventGetTimestamp,
    aclrtFree,
    aclrtGetEventId,
    aclrtGetLastError,
    aclrtGetNotifyId,
    aclrtMalloc,
    aclrtMemcpy,
    aclrtMemsetAsync,
    aclrtNotifyBatchReset,
    aclrtQueryEvent,
    aclrtQueryEventStatus,
    aclrtQueryEventWaitStatus,
    aclrtRecordEvent,
    aclrtRecordEventWithFlag,
    aclrtRecordNotify,
    aclrtResetDevice,
    aclrtResetEvent,
    aclrtSetCurrentContext,
    aclrtSetDevice,
    aclrtStreamWaitEvent,
    aclrtStreamWaitEventWithFlag,
    aclrtStreamWaitEventWithTimeout,
    aclrtSynchronizeEvent,
    aclrtSynchronizeStream,
    aclrtWaitAndResetNotify,
)
from aclnn_py.runtime.device import RT
from aclnn_py.runtime.memory import SPACE


def _stream():
    s = Ref()
    assert aclrtCreateStream(s) == 0
    return s.value


def _event(flag=None):
    e = Ref()
    assert (aclrtCreateEvent(e) if flag is None else aclrtCreateEventWithFlag(e, flag)) == 0
    return e.value


def _ex_event(flag):
    e = Ref()
    assert aclrtCreateEventExWithFlag(e, flag) == 0
    return e.value


def _notify():
    n = Ref()
    assert aclrtCreateNotify(n, ACL_NOTIFY_DEFAULT) == 0
    return n.value


def _alloc(n):
    p = Ref()
    assert aclrtMalloc(p, n, 0) == 0
    return p.value


# -- timestamps ------------------------------------------------------------------------------------


def test_event_timestamps_are_microseconds_that_agree_with_elapsed_time(ctx):
    s = _stream()
    start, end = _event(), _event()
    assert aclrtRecordEvent(start, s) == 0
    assert aclrtLaunch_sleep(s, 0.02) == 0
    assert aclrtRecordEvent(end, s) == 0
    assert aclrtSynchronizeStream(s) == 0
    t0, t1, ms = Ref(), Ref(), Ref()
    assert aclrtEventGetTimestamp(start, t0) == 0 and aclrtEventGetTimestamp(end, t1) == 0
    assert aclrtEventElapsedTime(ms, start, end) == 0
    assert t1.value - t0.value >= 20_000  # the host function slept 20 ms
    assert abs((t1.value - t0.value) / 1000 - ms.value) < 1.0
    for e in (start, end):
        assert aclrtDestroyEvent(e) == 0
    assert aclrtDestroyStream(s) == 0


def aclrtLaunch_sleep(stream, seconds):
    from aclnn_py import aclrtLaunchHostFunc

    return aclrtLaunchHostFunc(stream, time.sleep, seconds)


def test_timestamp_of_an_unrecorded_or_pending_event(deferred, dev0):
    """Deferred (pinned): the recorded event is still pending until the synchronize."""
    e = _event()
    stamp = Ref()
    assert aclrtEventGetTimestamp(e, None) == ACL_ERROR_INVALID_PARAM  # timestamp is checked first
    assert aclGetRecentErrMsg().startswith(null("aclrtEventGetTimestamp", "timestamp"))
    assert aclrtEventGetTimestamp(None, stamp) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg().startswith(null("aclrtEventGetTimestamp", "event"))
    assert aclrtEventGetTimestamp(e, stamp) == ACL_ERROR_RT_INTERNAL_ERROR
    assert (
        f"rtEventGetTimeStamp execution failed, reason=event recorder null{FUNC_ERROR_REASON}" in aclGetRecentErrMsg()
    )
    s = _stream()
    assert aclrtRecordEvent(e, s) == 0  # deferred: not reached yet
    assert aclrtEventGetTimestamp(e, stamp) == ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID
    assert f"rtEventGetTimeStamp execution failed, reason=event timestamp invalid{FUNC_ERROR_REASON}" in (
        aclGetRecentErrMsg()
    )
    assert aclrtSynchronizeEvent(e) == 0
    assert aclrtEventGetTimestamp(e, stamp) == 0 and stamp.value >= 0
    assert aclrtDestroyEvent(e) == 0
    assert aclrtEventGetTimestamp(e, stamp) == ACL_ERROR_RT_INVALID_HANDLE
    assert aclGetRecentErrMsg() == bad_handle("event", "rtEventGetTimeStamp")
    assert aclrtDestroyStream(s) == 0


# -- aclrtResetEvent -------------------------------------------------------------------------------


def test_reset_event_returns_it_to_not_recorded_in_stream_order(ctx):
    a, b = _stream(), _stream()
    e = _event(ACL_EVENT_SYNC)
    assert aclrtRecordEvent(e, a) == 0
    assert aclrtStreamWaitEvent(b, e) == 0
    assert aclrtResetEvent(e, b) == 0  # as the multi-stream example: reset on the waiting stream
    assert aclrtSynchronizeStream(b) == 0
    status = Ref()
    assert aclrtQueryEvent(e, status) == 0 and status.value == ACL_EVENT_STATUS_COMPLETE  # not recorded
    assert aclrtSynchronizeEvent(e) == 0  # returns at once
    assert e.task is None
    assert aclrtDestroyEvent(e) == 0
    for s in (a, b):
        assert aclrtDestroyStream(s) == 0


@pytest.mark.parametrize("flag", [ACL_EVENT_TIME_LINE, ACL_EVENT_IPC])
def test_reset_event_refuses_events_without_a_wait_task_silently(dev0, flag):
    e = _event(flag) if flag != ACL_EVENT_IPC else _ex_event(flag)
    assert aclrtResetEvent(e, None) == ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    assert aclGetRecentErrMsg() is None
    assert aclrtDestroyEvent(e) == 0


def test_reset_of_an_acl_create_event_event_is_a_no_op_on_ascend950(soc):
    """ApiImplDavid::EventReset returns before the stream's context is checked for an event of
    the default flag in hardware mode: nothing is queued, the record stands."""
    soc("Ascend950")
    assert aclInit(None) == 0 and aclrtSetDevice(0) == 0
    s = _stream()
    e = _event()
    assert aclrtRecordEvent(e, s) == 0 and aclrtSynchronizeStream(s) == 0
    assert aclrtResetEvent(e, s) == 0 and aclrtSynchronizeStream(s) == 0
    status = Ref()
    assert aclrtQueryEventStatus(e, status) == 0 and status.value == 1  # still COMPLETE
    other = Ref()
    assert aclrtCreateContext(other, 1) == 0
    assert aclrtResetEvent(e, s) == 0  # s belongs to device 0's context: not checked
    assert aclrtDestroyContext(other.value) == 0
    assert aclrtSetCurrentContext(RT.devices[0].primary) == 0
    sync = _event(ACL_EVENT_SYNC)  # another flag: reset as on every chip
    assert aclrtRecordEvent(sync, s) == 0 and aclrtSynchronizeStream(s) == 0
    assert aclrtResetEvent(sync, s) == 0 and aclrtSynchronizeStream(s) == 0
    assert aclrtQueryEventStatus(sync, status) == 0 and status.value == 0
    for ev in (e, sync):
        assert aclrtDestroyEvent(ev) == 0
    assert aclrtDestroyStream(s) == 0
    assert aclrtResetDevice(0) == 0 and aclFinalize() == 0


def test_reset_event_of_the_ex_kind_is_refused(dev0):
    e = Ref()
    assert aclrtCreateEventExWithFlag(e, ACL_EVENT_SYNC) == 0
    assert aclrtResetEvent(e.value, None) == ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    assert aclrtResetEvent(None, None) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg().startswith(null("aclrtResetEvent", "event"))
    assert aclrtDestroyEvent(e.value) == 0


def test_event_queries(dev0):
    s = _stream()
    e = _event()
    status, ident = Ref(), Ref()
    assert aclrtGetEventId(e, ident) == 0 and ident.value == e.ident
    assert aclrtRecordEvent(e, s) == 0
    assert aclrtQueryEventWaitStatus(e, status) == 0  # pending: NOT_READY, and the device progresses
    assert status.value in (0, 1)
    assert aclrtSynchronizeStream(s) == 0
    assert aclrtQueryEventWaitStatus(e, status) == 0 and status.value == ACL_EVENT_WAIT_STATUS_COMPLETE
    assert aclrtQueryEventStatus(e, status) == 0 and status.value == 1  # ACL_EVENT_RECORDED_STATUS_COMPLETE
    ipc = _ex_event(ACL_EVENT_IPC)
    assert aclrtGetEventId(ipc, ident) == ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    for ev in (e, ipc):
        assert aclrtDestroyEvent(ev) == 0
    assert aclrtDestroyStream(s) == 0


def test_queries_the_event_kinds_do_not_support_are_207000_silently(dev0):
    """ApiImplEvent (api_impl_event_common.cc) refuses with a WARN only, and the rt wrappers pass
    207000 on without a report or a last error: aclrtQueryEvent and aclrtQueryEventWaitStatus
    take no event of aclrtCreateEventExWithFlag, no ACL_EVENT_EXTERNAL and no IPC event;
    aclrtQueryEventStatus no EXTERNAL event; aclrtEventElapsedTime neither EXTERNAL nor IPC."""
    s = _stream()
    ex, ext, ipc, plain = _ex_event(ACL_EVENT_SYNC), _event(ACL_EVENT_EXTERNAL), _ex_event(ACL_EVENT_IPC), _event()
    assert aclrtRecordEvent(plain, s) == 0 and aclrtSynchronizeStream(s) == 0
    status, ms = Ref(), Ref()
    calls = [
        *((aclrtQueryEvent, (e, status)) for e in (ex, ext, ipc)),
        *((aclrtQueryEventWaitStatus, (e, status)) for e in (ex, ext, ipc)),
        (aclrtQueryEventStatus, (ext, status)),
        *((aclrtEventElapsedTime, (ms, a, b)) for a, b in ((plain, ext), (ext, plain), (plain, ipc), (ipc, plain))),
    ]
    for fn, args in calls:
        assert fn(*args) == ACL_ERROR_RT_FEATURE_NOT_SUPPORT, fn.__name__
        assert aclGetRecentErrMsg() is None
        assert aclrtGetLastError(ACL_RT_THREAD_LEVEL) == 0
    for e in (ex, ext, ipc, plain):
        assert aclrtDestroyEvent(e) == 0
    assert aclrtDestroyStream(s) == 0


def test_an_ex_event_is_complete_before_its_first_record(deferred, dev0):
    """Event::QueryEventStatus without a record: RECORDED in new mode (aclrtRecordEvent's document:
    no task is held yet), INIT (not ready) for an event of aclrtCreateEvent."""
    s = _stream()
    ex, old = _ex_event(ACL_EVENT_SYNC), _event()
    status = Ref()
    assert aclrtQueryEventStatus(ex, status) == 0 and status.value == 1  # ACL_EVENT_RECORDED_STATUS_COMPLETE
    assert aclrtQueryEventStatus(old, status) == 0 and status.value == 0  # NOT_READY
    assert aclrtLaunch_sleep(s, 0.01) == 0
    assert aclrtRecordEvent(ex, s) == 0
    assert aclrtQueryEventStatus(ex, status) == 0 and status.value == 0  # now it holds the queued work
    assert aclrtSynchronizeStream(s) == 0
    assert aclrtQueryEventStatus(ex, status) == 0 and status.value == 1
    for e in (ex, old):
        assert aclrtDestroyEvent(e) == 0
    assert aclrtDestroyStream(s) == 0


@pytest.mark.parametrize(
    ("flag", "code", "message"),
    [
        (0x41, ACL_ERROR_RT_PARAM_INVALID, "EE1006"),  # IPC with another flag: the sole-flag loop first
        (0x50, ACL_ERROR_RT_PARAM_INVALID, "EE1006"),
        (0x10, ACL_ERROR_RT_PARAM_INVALID, "EE1003"),  # MC2 and EXTERNAL are outside the Ex range
        (0x20, ACL_ERROR_RT_PARAM_INVALID, "EE1003"),
        (0, ACL_ERROR_RT_PARAM_INVALID, "EE1003"),
        (0x80, ACL_ERROR_RT_PARAM_INVALID, "EE1003"),
        (0x0F, 0, None),
        (ACL_EVENT_IPC, 0, None),
    ],
)
def test_create_event_ex_flag_checks(dev0, flag, code, message):
    """ApiErrorDecorator::EventCreateEx: MC2, EXTERNAL and IPC alone (EE1006), IPC on the chip,
    then the range 0x4F with its own expectation text (EE1003), before the context."""
    e = Ref()
    assert aclrtCreateEventExWithFlag(e, flag) == code
    msg = aclGetRecentErrMsg()
    if message == "EE1006":
        assert msg.startswith(
            f"Not_Supported(EE1006): Event creation failed. Parameter flag value {flag} is not supported. Reason: "
            "RT_EVENT_MC2(0x10U) and RT_EVENT_EXTERNAL(0x20U) do not support OR combination with other flags.\n"
        )
    elif message == "EE1003":
        assert msg.startswith(
            f"Invalid_Argument(EE1003): Event creation failed because value {flag} for parameter flag is invalid. "
            "Expected value: an OR combination of RT_EVENT_DDSYNC_NS(0x1U), RT_EVENT_STREAM_MARK(0x2U), "
            "RT_EVENT_DDSYNC(0x4U), and RT_EVENT_TIME_LINE(0x8U); or RT_EVENT_IPC(0x40U) used alone.\n"
        )
    else:
        assert aclrtDestroyEvent(e.value) == 0


@pytest.mark.parametrize("chip", ["Ascend910", "Ascend310P"])
def test_ipc_events_are_207000_silently_on_chips_without_them(soc, chip):
    soc(chip)
    assert aclInit(None) == 0 and aclrtSetDevice(0) == 0
    assert aclrtCreateEventExWithFlag(Ref(), ACL_EVENT_IPC) == ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    assert aclGetRecentErrMsg() is None and aclrtGetLastError(ACL_RT_THREAD_LEVEL) == 0
    assert aclrtResetDevice(0) == 0 and aclFinalize() == 0


def test_stream_wait_event_with_timeout(dev0):
    a, b = _stream(), _stream()
    e = _event()
    p = _alloc(4)
    assert aclrtMemsetAsync(p, 4, 3, 4, a) == 0
    assert aclrtRecordEvent(e, a) == 0
    assert aclrtStreamWaitEventWithTimeout(b, e, -1) == ACL_ERROR_RT_PARAM_INVALID
    assert aclGetRecentErrMsg().startswith(
        "Invalid_Argument(EH0007): aclrtStreamWaitEventWithTimeout failed because value -1 for parameter timeout is "
        "invalid. Expected value: [0, INT_MAX]."
    )
    assert aclrtStreamWaitEventWithTimeout(b, e, 100) == 0
    assert aclrtSynchronizeStream(b) == 0
    host = np.zeros(4, np.uint8)
    assert aclrtMemcpy(host, 4, p, 4, ACL_MEMCPY_DEVICE_TO_HOST) == 0 and (host == 3).all()
    assert aclrtDestroyEvent(e) == 0
    for s in (a, b):
        assert aclrtDestroyStream(s) == 0
    aclrtFree(p)


# -- notifies --------------------------------------------------------------------------------------


def test_notify_record_releases_a_waiting_stream(ctx):
    a, b = _stream(), _stream()
    n = _notify()
    p = _alloc(4)
    assert aclrtMemcpy(p, 4, np.zeros(4, np.uint8), 4, ACL_MEMCPY_HOST_TO_DEVICE) == 0
    # b waits for the notify, then fills; a records it later (submitted after the wait)
    assert aclrtWaitAndResetNotify(n, b, 0) == 0
    assert aclrtMemsetAsync(p, 4, 5, 4, b) == 0
    if ctx == "eager":  # b is blocked at the wait: its fill has not run (read behind the sanitizer's back)
        assert (SPACE.read(p, 4, "test") == 0).all()
    assert aclrtRecordNotify(n, a) == 0
    assert aclrtSynchronizeStream(b) == 0
    assert aclrtSynchronizeStream(a) == 0
    host = np.zeros(4, np.uint8)
    assert aclrtMemcpy(host, 4, p, 4, ACL_MEMCPY_DEVICE_TO_HOST) == 0 and (host == 5).all()
    assert n.is_set is False  # the wait reset it
    assert aclrtDestroyNotify(n) == 0
    for s in (a, b):
        assert aclrtDestroyStream(s) == 0
    aclrtFree(p)


def test_notify_recorded_from_another_thread(ctx):
    a, b = _stream(), _stream()
    n = _notify()
    context = RT.thread_context()
    codes = []

    def recorder():
        assert aclrtSetCurrentContext(context) == 0
        time.sleep(0.02)
        codes.append(aclrtRecordNotify(n, a))
        codes.append(aclrtSynchronizeStream(a))

    assert aclrtWaitAndResetNotify(n, b, 0) == 0
    t = threading.Thread(target=recorder)
    t.start()
    assert aclrtSynchronizeStream(b) == 0
    t.join(10)
    assert codes == [0, 0]
    assert aclrtDestroyNotify(n) == 0
    for s in (a, b):
        assert aclrtDestroyStream(s) == 0


def test_a_notify_wait_that_outlives_its_timeout_fails_the_stream(dev0):
    b = _stream()
    n = _notify()
    start = time.monotonic()
    assert aclrtWaitAndResetNotify(n, b, 1) == 0
    assert aclrtSynchronizeStream(b) == ACL_ERROR_RT_WAIT_TIMEOUT
    assert time.monotonic() - start >= 1.0
    assert "the condition was not met within 1 s" in aclGetRecentErrMsg()
    assert aclrtDestroyNotify(n) == 0
    assert aclrtDestroyStream(b) == 0


def test_notify_checks(dev0):
    n = _notify()
    ident = Ref()
    assert aclrtGetNotifyId(n, ident) == 0 and ident.value == n.ident
    assert aclrtCreateNotify(None, 0) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg().startswith(null("aclrtCreateNotify", "notify"))
    assert aclrtCreateNotify(Ref(), 2) == ACL_ERROR_RT_PARAM_INVALID
    assert aclGetRecentErrMsg().startswith(
        "Invalid_Argument(EE1003): rtsNotifyCreate failed because value 2 for parameter flag is invalid. Expected "
        "value: RT_NOTIFY_FLAG_DEFAULT or RT_NOTIFY_FLAG_DOWNLOAD_TO_DEV."
    )
    assert aclrtRecordNotify(None, None) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg().startswith(null("aclrtRecordNotify", "notify"))
    assert aclrtGetNotifyId(n, None) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg().startswith(null("aclrtGetNotifyId", "notifyId"))
    assert aclrtNotifyBatchReset([n], 0) == ACL_ERROR_RT_PARAM_INVALID
    assert aclGetRecentErrMsg().startswith(
        "Invalid_Argument(EE1003): rtsNotifyBatchReset failed because value 0 for parameter num is invalid. "
        "Expected value: (0, 4294967295]."
    )
    n.is_set = True
    assert aclrtNotifyBatchReset([n], 1) == 0 and n.is_set is False
    assert aclrtDestroyNotify(n) == 0
    assert aclrtRecordNotify(n, None) == ACL_ERROR_RT_INVALID_HANDLE
    assert aclGetRecentErrMsg() == bad_handle("notify", "rtNotifyRecord")


def test_create_notify_without_a_device_is_silent():
    assert aclInit(None) == 0
    assert aclrtCreateNotify(Ref(), 0) == ACL_ERROR_RT_CONTEXT_NULL
    assert aclGetRecentErrMsg() is not None  # only aclGetRecentErrMsg's own rtGetDevMsg report
    aclFinalize()


def test_notifies_per_device_are_limited(soc):
    soc("Ascend310P")  # 1024 per device
    assert aclInit(None) == 0 and aclrtSetDevice(0) == 0
    made = [_notify() for _ in range(1024)]
    assert aclrtCreateNotify(Ref(), 0) == ACL_ERROR_RT_NO_NOTIFY_RESOURCE
    assert "Alloc Notify resource failed. Reason: Too many Notify objects are created." in aclGetRecentErrMsg()
    for n in made:
        assert aclrtDestroyNotify(n) == 0
    aclrtResetDevice(0)
    aclFinalize()


def test_record_and_wait_with_flags(dev0):
    a, b = _stream(), _stream()
    e = _event()
    assert aclrtRecordEventWithFlag(e, a, 0) == 0  # ACL_EVENT_RECORD_DEFAULT: aclrtRecordEvent
    assert aclrtStreamWaitEventWithFlag(b, e, 0, 0) == 0
    assert aclrtSynchronizeStream(b) == 0 and e.complete
    assert aclrtRecordEventWithFlag(e, a, 1) == ACL_ERROR_RT_FEATURE_NOT_SUPPORT  # external: no graph capture
    assert aclrtRecordEventWithFlag(e, a, 2) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg().startswith(
        "Invalid_Argument(EH0007): aclrtRecordEventWithFlag failed because value 2 for parameter flag is invalid. "
        "Expected value: ACL_EVENT_RECORD_DEFAULT or ACL_EVENT_RECORD_EXTERNAL."
    )
    assert aclrtStreamWaitEventWithFlag(b, e, 5, 1) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg().startswith(
        "Invalid_Argument(EH0007): aclrtStreamWaitEventWithFlag failed because value 5 for parameter timeout is "
        "invalid. Expected value: 0 when flag is ACL_EVENT_WAIT_EXTERNAL."
    )
    assert aclrtStreamWaitEventWithFlag(b, None, 0, 0) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg().startswith(null("aclrtStreamWaitEventWithFlag", "event"))
    assert aclrtDestroyEvent(e) == 0
    for s in (a, b):
        assert aclrtDestroyStream(s) == 0
