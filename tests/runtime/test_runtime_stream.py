"""The streams chapter's additions: aclrtDestroyStreamForce, aclrtSetStreamFailureMode, the stream
queries, the stream-config handle, aclrtLaunchHostFunc."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest
from rt_texts import bad_handle, null

from aclnn_py import (
    ACL_CALLBACK_BLOCK,
    ACL_CALLBACK_NO_BLOCK,
    ACL_CONTINUE_ON_FAILURE,
    ACL_ERROR_INVALID_PARAM,
    ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
    ACL_ERROR_RT_INVALID_HANDLE,
    ACL_ERROR_RT_PARAM_INVALID,
    ACL_ERROR_RT_REPORT_TIMEOUT,
    ACL_ERROR_RT_STREAM_NO_CB_REG,
    ACL_ERROR_RT_STREAM_SUBSCRIBE,
    ACL_ERROR_RT_SYS_DMA,
    ACL_ERROR_RT_THREAD_SUBSCRIBE,
    ACL_MEMCPY_DEVICE_TO_HOST,
    ACL_MEMCPY_HOST_TO_DEVICE,
    ACL_RT_STREAM_FLAG,
    ACL_RT_STREAM_PRIORITY,
    ACL_RT_STREAM_WORK_SIZE,
    ACL_RT_THREAD_LEVEL,
    ACL_STOP_ON_FAILURE,
    ACL_STREAM_DEVICE_USE_ONLY,
    ACL_STREAM_FAST_LAUNCH,
    ACL_STREAM_HUGE,
    Ref,
    aclFinalize,
    aclGetRecentErrMsg,
    aclInit,
    aclrtCreateStream,
    aclrtCreateStreamConfigHandle,
    aclrtCreateStreamV2,
    aclrtCreateStreamWithConfig,
    aclrtCtxGetCurrentDefaultStream,
    aclrtDestroyStream,
    aclrtDestroyStreamConfigHandle,
    aclrtDestroyStreamForce,
    aclrtExceptionInfoCallbackRegister,
    aclrtExceptionInfoCallbackUnregister,
    aclrtFree,
    aclrtGetDeviceIdFromExceptionInfo,
    aclrtGetErrorCodeFromExceptionInfo,
    aclrtGetLastError,
    aclrtGetStreamAvailableNum,
    aclrtGetStreamIdFromExceptionInfo,
    aclrtGetTaskIdFromExceptionInfo,
    aclrtLaunchCallback,
    aclrtLaunchHostFunc,
    aclrtMalloc,
    aclrtMemcpy,
    aclrtMemcpyAsync,
    aclrtMemsetAsync,
    aclrtProcessReport,
    aclrtResetDevice,
    aclrtSetCurrentContext,
    aclrtSetDevice,
    aclrtSetExceptionInfoCallback,
    aclrtSetStreamConfigOpt,
    aclrtSetStreamFailureMode,
    aclrtStreamAbort,
    aclrtStreamGetFlags,
    aclrtStreamGetId,
    aclrtStreamGetPriority,
    aclrtStreamStop,
    aclrtSubscribeReport,
    aclrtSynchronizeStream,
    aclrtUnSubscribeReport,
)
from aclnn_py.runtime.device import RT
from aclnn_py.runtime.memory import SPACE


def _stream(flag=None, priority=0):
    s = Ref()
    assert (aclrtCreateStream(s) if flag is None else aclrtCreateStreamWithConfig(s, priority, flag)) == 0
    return s.value


def _alloc(n):
    p = Ref()
    assert aclrtMalloc(p, n, 0) == 0
    return p.value


def _read(ptr, n):
    host = np.zeros(n, np.uint8)
    assert aclrtMemcpy(host, n, ptr, n, ACL_MEMCPY_DEVICE_TO_HOST) == 0
    return host


# -- aclrtDestroyStreamForce ---------------------------------------------------------------------


def test_destroy_stream_force_drops_queued_work_under_the_deferred_policy(deferred, dev0, findings):
    """The fill is still queued at the force-destroy only under the deferred policy (pinned)."""
    s = _stream()
    p = _alloc(16)
    assert aclrtMemcpy(p, 16, np.zeros(16, np.uint8), 16, ACL_MEMCPY_HOST_TO_DEVICE) == 0
    assert aclrtMemsetAsync(p, 16, 7, 16, s) == 0
    assert aclrtDestroyStreamForce(s) == 0
    assert (_read(p, 16) == 0).all()  # the fill never ran
    assert findings.refresh() == []
    aclrtFree(p)


def test_destroy_stream_waits_where_force_does_not(dev0, findings):
    s = _stream()
    p = _alloc(16)
    assert aclrtMemsetAsync(p, 16, 7, 16, s) == 0
    assert aclrtDestroyStream(s) == 0
    assert (_read(p, 16) == 7).all()
    assert findings.refresh().checks() == ["synccheck"]  # work destroyed unsynchronised runs now
    aclrtFree(p)


def test_destroy_stream_force_checks_as_destroy_stream(dev0):
    assert aclrtDestroyStreamForce(None) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg().startswith(null("aclrtDestroyStreamForce", "stream"))
    s = _stream()
    assert aclrtDestroyStreamForce(s) == 0
    assert aclrtDestroyStreamForce(s) == ACL_ERROR_RT_INVALID_HANDLE
    assert aclGetRecentErrMsg() == bad_handle("stream", "rtStreamDestroyForce")


# -- aclrtSetStreamFailureMode -------------------------------------------------------------------


def _failing_copy(stream):
    """Queue a copy whose destination is freed before it runs: the task fails (a DMA error)."""
    p = _alloc(64)
    assert aclrtMemcpyAsync(p, 64, np.ones(64, np.uint8), 64, ACL_MEMCPY_HOST_TO_DEVICE, stream) == 0
    assert aclrtFree(p) == 0


def test_stop_on_failure_stops_every_stream_of_the_context(deferred, dev0, findings):
    """Deferred (pinned): the copy fails when it runs, after the free, and b's fill is still queued then."""
    a, b = _stream(), _stream()
    assert aclrtSetStreamFailureMode(a, ACL_STOP_ON_FAILURE) == 0
    p = _alloc(16)
    assert aclrtMemcpy(p, 16, np.zeros(16, np.uint8), 16, ACL_MEMCPY_HOST_TO_DEVICE) == 0
    _failing_copy(a)
    assert aclrtMemsetAsync(p, 16, 9, 16, b) == 0  # queued on the other stream before the failure
    assert aclrtSynchronizeStream(a) == ACL_ERROR_RT_SYS_DMA
    aclGetRecentErrMsg()
    # the context has stopped: b's queued fill does not run, new work is refused with the failure
    assert aclrtSynchronizeStream(b) == ACL_ERROR_RT_SYS_DMA
    assert (_read(p, 16) == 0).all()
    assert aclrtMemsetAsync(p, 16, 9, 16, b) == ACL_ERROR_RT_SYS_DMA
    assert "the context stopped on failure (ACL_STOP_ON_FAILURE)" in aclGetRecentErrMsg()
    assert "synccheck" in findings.refresh().checks()
    assert aclrtDestroyStreamForce(a) == 0 and aclrtDestroyStreamForce(b) == 0
    aclrtFree(p)


def test_continue_on_failure_keeps_other_streams_running(deferred, dev0, findings):
    """Deferred (pinned): the copy fails when it runs, after the free (eager ran it before)."""
    a, b = _stream(), _stream()
    p = _alloc(16)
    _failing_copy(a)
    assert aclrtMemsetAsync(p, 16, 9, 16, b) == 0
    assert aclrtSynchronizeStream(a) == ACL_ERROR_RT_SYS_DMA
    assert aclrtSynchronizeStream(b) == 0
    assert (_read(p, 16) == 9).all()
    findings.refresh()
    for s in (a, b):
        assert aclrtDestroyStream(s) == 0
    aclrtFree(p)


def test_failure_mode_checks(dev0):
    s = _stream()
    assert aclrtSetStreamFailureMode(s, ACL_STOP_ON_FAILURE | 0x10) == 0  # other bits are ignored
    assert aclrtSetStreamFailureMode(s, ACL_STOP_ON_FAILURE) == 0  # the same mode again
    assert aclrtSetStreamFailureMode(s, ACL_CONTINUE_ON_FAILURE) == ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    assert aclGetRecentErrMsg().startswith(
        f"Not_Supported(EE1016): Setting the error handling mode of a stream failed. Reason: Changing stream "
        f"{s.ident} from stop mode to continue mode is not supported."
    )
    assert aclrtSetStreamFailureMode(None, ACL_STOP_ON_FAILURE) == 0  # the default stream (Ascend910B)
    d = _stream(ACL_STREAM_DEVICE_USE_ONLY)
    assert aclrtSetStreamFailureMode(d, ACL_STOP_ON_FAILURE) == ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    assert aclGetRecentErrMsg() is None
    assert aclrtDestroyStream(s) == 0 and aclrtDestroyStream(d) == 0


@pytest.mark.parametrize("chip", ["Ascend910", "Ascend310P"])
def test_failure_mode_of_the_default_stream_is_refused_on_older_chips(soc, chip):
    soc(chip)
    assert aclInit(None) == 0 and aclrtSetDevice(0) == 0
    assert aclrtSetStreamFailureMode(None, ACL_STOP_ON_FAILURE) == ACL_ERROR_RT_PARAM_INVALID
    assert aclGetRecentErrMsg().startswith(
        "Invalid_Argument_Null_Pointer(EE1004): Setting the error handling mode of a stream failed because curStm "
        "cannot be a NULL pointer."
    )
    aclrtResetDevice(0)
    aclFinalize()


# -- stream queries --------------------------------------------------------------------------------


@pytest.mark.parametrize(("given", "stored"), [(0, 0), (5, 5), (9, 7), (0xFFFFFFFF, 0)])
def test_stream_priority_is_clamped(dev0, given, stored):
    s = _stream(0, given)
    prio = Ref()
    assert aclrtStreamGetPriority(s, prio) == 0 and prio.value == stored
    assert aclrtDestroyStream(s) == 0


def test_stream_flags_and_id(dev0):
    s = _stream(ACL_STREAM_FAST_LAUNCH | ACL_STREAM_HUGE | 0x1000)  # an unknown bit is dropped
    flags, ident = Ref(), Ref()
    assert aclrtStreamGetFlags(s, flags) == 0 and flags.value == ACL_STREAM_FAST_LAUNCH | ACL_STREAM_HUGE
    assert aclrtStreamGetId(s, ident) == 0 and ident.value == s.ident
    default = Ref()
    assert aclrtCtxGetCurrentDefaultStream(default) == 0
    assert aclrtStreamGetId(None, ident) == 0 and ident.value == default.value.ident
    assert aclrtStreamGetFlags(s, None) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg().startswith(null("aclrtStreamGetFlags", "flags"))
    assert aclrtDestroyStream(s) == 0
    assert aclrtStreamGetId(s, ident) == ACL_ERROR_RT_INVALID_HANDLE
    assert aclGetRecentErrMsg() == bad_handle("stream", "rtGetStreamId")


def test_stream_priority_and_flags_need_a_context():
    assert aclInit(None) == 0
    assert aclrtStreamGetPriority(None, Ref()) == 107002
    assert "rtStreamGetPriority execution failed, the context is a null pointer." in aclGetRecentErrMsg()
    assert aclrtGetLastError(ACL_RT_THREAD_LEVEL) == 107002
    aclFinalize()


def test_available_streams_count_down(dev0):
    n = Ref()
    assert aclrtGetStreamAvailableNum(n) == 0
    before = n.value
    s = _stream()
    assert aclrtGetStreamAvailableNum(n) == 0 and n.value == before - 1
    assert aclrtDestroyStream(s) == 0


# -- the stream-config handle --------------------------------------------------------------------


def test_stream_config_handle_creates_a_configured_stream(dev0):
    h = aclrtCreateStreamConfigHandle()
    assert aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_PRIORITY, 3, 4) == 0
    # RT fast launch: the compact runtime's stream keeps no flag (runtime_compact/feature/src/stream.c)
    assert aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_FLAG, (0x200).to_bytes(8, "little"), 8) == 0
    s = Ref()
    assert aclrtCreateStreamV2(s, h) == 0
    prio, flags = Ref(), Ref()
    assert aclrtStreamGetPriority(s.value, prio) == 0 and prio.value == 3
    assert aclrtStreamGetFlags(s.value, flags) == 0 and flags.value == 0
    assert aclrtDestroyStream(s.value) == 0
    assert aclrtDestroyStreamConfigHandle(h) == 0


@pytest.mark.parametrize(
    ("attr", "value", "size"),
    [
        (ACL_RT_STREAM_FLAG, 0x200, 4),  # the flag is a size_t: 8 bytes (the example passes 4: refused)
        (ACL_RT_STREAM_PRIORITY, 8, 4),  # more than the least priority 7
        (ACL_RT_STREAM_PRIORITY, 1, 8),
        (ACL_RT_STREAM_WORK_SIZE, 1, 4),
        (4, 1, 8),
        (ACL_RT_STREAM_FLAG, None, 8),
    ],
)
def test_stream_config_options_are_checked_without_reports(dev0, attr, value, size):
    h = aclrtCreateStreamConfigHandle()
    assert aclrtSetStreamConfigOpt(h, attr, value, size) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg() is None
    assert aclrtSetStreamConfigOpt(None, ACL_RT_STREAM_PRIORITY, 1, 4) == ACL_ERROR_INVALID_PARAM
    assert aclrtCreateStreamV2(None, h) == ACL_ERROR_INVALID_PARAM
    assert aclrtDestroyStreamConfigHandle(None) == ACL_ERROR_INVALID_PARAM
    assert aclrtDestroyStreamConfigHandle(h) == 0


# -- aclrtLaunchHostFunc -----------------------------------------------------------------------------


def test_host_functions_run_in_stream_order(ctx):
    s = _stream()
    p = _alloc(4)
    seen = []

    def read_back(tag):  # the memory as the stream left it when it reached the host function
        seen.append((tag, int(SPACE.read(p, 4, "test").view(np.uint32)[0])))

    assert aclrtMemsetAsync(p, 4, 1, 4, s) == 0
    assert aclrtLaunchHostFunc(s, read_back, "first") == 0
    assert aclrtMemsetAsync(p, 4, 2, 4, s) == 0
    assert aclrtLaunchHostFunc(s, read_back, "second") == 0
    assert aclrtSynchronizeStream(s) == 0
    assert seen == [("first", 0x01010101), ("second", 0x02020202)]
    assert aclrtLaunchHostFunc(s, None, None) == ACL_ERROR_RT_PARAM_INVALID
    assert aclGetRecentErrMsg().startswith(
        "Invalid_Argument_Null_Pointer(EE1004): Adding a host callback function to the stream task queue failed "
        "because callBackFunc cannot be a NULL pointer."
    )
    assert aclrtDestroyStream(s) == 0
    aclrtFree(p)
    assert RT.policy.name == ctx


# -- host callbacks (aclrtSubscribeReport / aclrtLaunchCallback / aclrtProcessReport) ----------------


def test_callbacks_run_on_the_subscribed_thread(ctx):
    """hicann/runtime example callback/0_simple_callback: a worker thread loops aclrtProcessReport;
    the main thread subscribes it, launches callbacks and synchronizes the stream."""
    s = _stream()
    context = RT.thread_context()
    stop = threading.Event()
    ready = threading.Event()
    worker_id = []
    ran = []

    def worker():
        assert aclrtSetCurrentContext(context) == 0
        worker_id.append(threading.get_ident())
        ready.set()
        while not stop.is_set():
            aclrtProcessReport(20)

    t = threading.Thread(target=worker)
    t.start()
    ready.wait(5)
    assert aclrtSubscribeReport(worker_id[0], s) == 0
    p = _alloc(4)
    assert aclrtMemsetAsync(p, 4, 1, 4, s) == 0
    assert (
        aclrtLaunchCallback(lambda tag: ran.append((tag, threading.get_ident())), "block", ACL_CALLBACK_BLOCK, s) == 0
    )
    assert (
        aclrtLaunchCallback(lambda tag: ran.append((tag, threading.get_ident())), "free", ACL_CALLBACK_NO_BLOCK, s) == 0
    )
    assert aclrtSynchronizeStream(s) == 0
    assert ran[0] == ("block", worker_id[0])  # the blocking callback ran before the stream went on
    deadline = time.monotonic() + 5
    while len(ran) < 2 and time.monotonic() < deadline:
        time.sleep(0.001)
    assert ran[1] == ("free", worker_id[0])
    assert aclrtUnSubscribeReport(worker_id[0], s) == 0
    stop.set()
    t.join(5)
    assert aclrtDestroyStream(s) == 0
    aclrtFree(p)


def test_callback_checks(dev0):
    s = _stream()
    me = threading.get_ident()
    assert aclrtLaunchCallback(print, None, 2, s) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg().startswith(
        "Invalid_Argument(EH0007): aclrtLaunchCallback failed because value UNKNOWN(2) for parameter blockType is "
        "invalid. Expected value: ACL_CALLBACK_BLOCK or ACL_CALLBACK_NO_BLOCK."
    )
    assert aclrtLaunchCallback(print, None, ACL_CALLBACK_BLOCK, s) == ACL_ERROR_RT_STREAM_NO_CB_REG
    assert aclGetRecentErrMsg().startswith(
        f"Invalid_Argument_API_Call_Sequence(EE1018): Delivering an on-host callback function task in a stream "
        f"failed. Reason: Stream (stream_id={s.ident}) is not bound to any thread. Call the rtSubscribeReport API to "
        "bind a thread to the stream."
    )
    assert aclrtProcessReport(0) == ACL_ERROR_INVALID_PARAM
    aclGetRecentErrMsg()
    assert aclrtProcessReport(10) == ACL_ERROR_RT_THREAD_SUBSCRIBE  # not subscribed: no report
    assert aclrtSubscribeReport(me, s) == 0
    assert aclrtSubscribeReport(me, s) == ACL_ERROR_RT_STREAM_SUBSCRIBE
    msg = aclGetRecentErrMsg()
    assert (
        f"Stream already exists in stream map, streamId={s.ident}, devId=0, threadId={me}"
        "[FUNC:CheckForInsert][FILE:subscribe.cc][LINE:73]" in msg
    )
    assert (  # then Runtime::SubscribeReport's own report (runtime.cc)
        f"Subscribe report failed, streamId={s.ident}, threadId={me}, retCode=0x7160003."
        "[FUNC:SubscribeReport][FILE:runtime.cc][LINE:4395]" in msg
    )
    assert aclrtProcessReport(10) == ACL_ERROR_RT_REPORT_TIMEOUT  # nothing reached
    seen = []
    assert aclrtLaunchCallback(seen.append, 7, ACL_CALLBACK_NO_BLOCK, s) == 0
    assert aclrtProcessReport(1000) == 0 and seen == [7]  # this thread drives the stream meanwhile
    assert aclrtUnSubscribeReport(me + 1, s) == ACL_ERROR_RT_THREAD_SUBSCRIBE
    assert (
        f"Unsubscribe report failed, streamId={s.ident}, threadId={me + 1}, retCode=0x7160004."
        "[FUNC:UnSubscribeReport][FILE:runtime.cc][LINE:4384]" in aclGetRecentErrMsg()
    )
    assert aclrtUnSubscribeReport(me, s) == 0
    assert aclrtUnSubscribeReport(me, s) == ACL_ERROR_RT_STREAM_SUBSCRIBE
    assert "retCode=0x7160003.[FUNC:UnSubscribeReport]" in aclGetRecentErrMsg()
    assert aclrtDestroyStream(s) == 0


# -- abort, stop, exception callbacks ----------------------------------------------------------------


def test_abort_and_stop_discard_queued_work(deferred, dev0):
    """Deferred (pinned): the fills are still queued when the stream is aborted or stopped."""
    s = _stream()
    p = _alloc(16)
    assert aclrtMemcpy(p, 16, np.zeros(16, np.uint8), 16, ACL_MEMCPY_HOST_TO_DEVICE) == 0
    assert aclrtMemsetAsync(p, 16, 3, 16, s) == 0
    assert aclrtStreamAbort(s) == 0
    assert aclrtSynchronizeStream(s) == 0 and (_read(p, 16) == 0).all()
    assert aclrtMemsetAsync(p, 16, 4, 16, s) == 0  # the stream stays usable
    assert aclrtStreamStop(s) == 0
    assert aclrtSynchronizeStream(s) == 0 and (_read(p, 16) == 0).all()
    assert aclrtStreamStop(None) == ACL_ERROR_RT_PARAM_INVALID
    assert aclGetRecentErrMsg().startswith(
        "Invalid_Argument_Null_Pointer(EE1004): Stopping the running tasks in a stream failed because stm cannot be "
        "a NULL pointer."
    )
    assert aclrtStreamAbort(None) == 0  # the default stream on Ascend910B
    assert aclrtDestroyStream(s) == 0
    aclrtFree(p)


def test_exception_callbacks_see_a_failed_task(deferred, dev0, findings):
    """Deferred (pinned): the copy fails when it runs, after the free (eager ran it before)."""
    s = _stream()
    seen, legacy = [], []
    record = seen.append
    assert aclrtExceptionInfoCallbackRegister(record) == 0
    assert aclrtSetExceptionInfoCallback(legacy.append) == 0
    _failing_copy(s)
    assert aclrtSynchronizeStream(s) == ACL_ERROR_RT_SYS_DMA
    aclGetRecentErrMsg()
    assert len(seen) == 1 and len(legacy) == 1
    info = seen[0]
    assert aclrtGetErrorCodeFromExceptionInfo(info) == ACL_ERROR_RT_SYS_DMA
    assert aclrtGetStreamIdFromExceptionInfo(info) == s.ident
    assert aclrtGetDeviceIdFromExceptionInfo(info) == 0
    assert aclrtGetTaskIdFromExceptionInfo(None) == 0xFFFFFFFF
    assert aclGetRecentErrMsg().startswith(null("aclrtGetTaskIdFromExceptionInfo", "info"))
    assert aclrtExceptionInfoCallbackUnregister(record) == 0
    assert aclrtSetExceptionInfoCallback(None) == 0
    _failing_copy(s)
    assert aclrtSynchronizeStream(s) == ACL_ERROR_RT_SYS_DMA
    aclGetRecentErrMsg()
    assert len(seen) == 1 and len(legacy) == 1
    assert aclrtExceptionInfoCallbackRegister(None) == ACL_ERROR_RT_PARAM_INVALID  # EH0008, but 107000
    assert aclGetRecentErrMsg().startswith(null("aclrtExceptionInfoCallbackRegister", "callback"))
    findings.refresh()
    assert aclrtDestroyStream(s) == 0


def test_host_functions_and_user_subscriptions_exclude_each_other(dev0):
    """aclrtLaunchHostFunc subscribes its stream to the runtime's callback thread
    (SUBSCRIBE_RUNTIME): aclrtSubscribeReport and aclrtLaunchCallback then refuse it, and
    aclrtLaunchHostFunc refuses a stream the user subscribed (ApiErrorDecorator, 107011 EE1016)."""
    me = threading.get_ident()
    s, u = _stream(), _stream()
    assert aclrtLaunchHostFunc(s, lambda arg: None, None) == 0
    assert aclrtSynchronizeStream(s) == 0
    assert aclrtSubscribeReport(me, s) == ACL_ERROR_RT_STREAM_SUBSCRIBE
    assert aclGetRecentErrMsg().startswith(
        "Not_Supported(EE1016): Specifying the thread for processing the callback function in stream failed. "
        f"Reason: The stream (stream_id={s.ident}) is in the host callback process and cannot call "
        "rtSubscribeReport."
    )
    assert aclrtLaunchCallback(print, None, ACL_CALLBACK_NO_BLOCK, s) == ACL_ERROR_RT_STREAM_SUBSCRIBE
    assert "cannot call rtCallbackLaunch." in aclGetRecentErrMsg()
    assert aclrtSubscribeReport(me, u) == 0
    assert aclrtLaunchHostFunc(u, lambda arg: None, None) == ACL_ERROR_RT_STREAM_SUBSCRIBE
    msg = aclGetRecentErrMsg()
    assert msg.startswith(
        "Not_Supported(EE1016): Adding a host callback function to the stream task queue failed. Reason: The "
        f"stream (stream_id={u.ident}) is in the host callback process and cannot call rtsLaunchHostFunc."
    )
    assert "rtsLaunchHostFunc execution failed, reason=subscribe stream error[FUNC:FuncErrorReason]" in msg
    assert aclrtUnSubscribeReport(me, u) == 0
    assert aclrtLaunchHostFunc(u, lambda arg: None, None) == 0
    for st in (s, u):
        assert aclrtSynchronizeStream(st) == 0 and aclrtDestroyStream(st) == 0
