"""Stop 31: what a context stopped on failure (a stream of it in abort mode) answers to a
synchronize or a query of its streams (ApiImpl::StreamSynchronize / StreamQuery's
CheckContextStatus, Context::CheckStatus: hicann/runtime context.cc:2889-2922), and what
Stream::ResClear undoes: at the end of aclrtStreamAbort (context.cc:2781-2866) and of
aclrtDeviceTaskAbort (ContextManage::DeviceClean, context_manage.cc:310-344, Context::StreamsTaskClean,
context.cc:1753-1773; Ascend950: DeviceTaskSendResume and CtxStreamTaskClean, fast_recover.cc)."""

from __future__ import annotations

import threading
import time

import pytest
from rt_streams import failing_copy, last_error, new_stream

from aclnn_py import (
    ACL_CONTINUE_ON_FAILURE,
    ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
    ACL_ERROR_RT_SYS_DMA,
    ACL_STOP_ON_FAILURE,
    ACL_STREAM_CPU_SCHEDULE,
    ACL_STREAM_DEVICE_USE_ONLY,
    ACL_STREAM_PERSISTENT,
    ACL_STREAM_STATUS_COMPLETE,
    Ref,
    aclGetRecentErrMsg,
)
from aclnn_py.runtime import api as A
from aclnn_py.runtime import api_device_query
from aclnn_py.runtime.api_stream import aborted

_STOPPED = "aclnn_py: the context stopped on failure (ACL_STOP_ON_FAILURE) after a task failed ("
_SYNC_TAIL = "); synchronizing or querying its streams returns that failure until aclrtDeviceTaskAbort\n"
_ACCEPTS = "); it accepts no new work\n"
_SET_MODE = "Setting the error handling mode of a stream"
_BIND = "Binding a model running instance to a stream"


def _fail(stream) -> None:
    """The copy fails; the stream's synchronize reports it (the task's report)."""
    failing_copy(stream)
    assert A.aclrtSynchronizeStream(stream) == ACL_ERROR_RT_SYS_DMA
    assert "aclrtMemcpyAsync task failed" in aclGetRecentErrMsg()
    assert last_error() == ACL_ERROR_RT_SYS_DMA


def _fail_unwaited(stream) -> None:
    """The copy fails on a stream the host does not synchronize (RT_STREAM_PERSISTENT, RT_STREAM_AICPU,
    RT_STREAM_CP_PROCESS_USE: ApiErrorDecorator::StreamSynchronize returns 0 at once): the device runs
    it, nothing is reported, the stream enters abort all the same."""
    failing_copy(stream)
    assert A.aclrtSynchronizeStream(stream) == 0
    assert "aclrtMemcpyAsync task failed" not in (aclGetRecentErrMsg() or "")  # the free's synccheck only
    assert last_error() == 0


def _stopped_message(msg: str | None, tail: str = _SYNC_TAIL) -> bool:
    return msg is not None and msg.startswith(_STOPPED) and msg.endswith(tail) and "touches freed memory" in msg


def _memset(stream) -> int:
    p = Ref()
    assert A.aclrtMalloc(p, 16, 0) == 0
    code = A.aclrtMemsetAsync(p.value, 16, 1, 16, stream)
    assert A.aclrtSynchronizeStream(stream) == code
    aclGetRecentErrMsg()
    assert A.aclrtFree(p.value) == 0
    return code


def _abort_refusal(st) -> str:
    return (
        f"Not_Supported(EE1016): {_SET_MODE} failed. Reason: Changing stream {st.ident} from abort mode to stop mode "
        "is not supported.\n"
    )


def _stop_to_continue(st) -> str:
    return (
        f"Not_Supported(EE1016): {_SET_MODE} failed. Reason: Changing stream {st.ident} from stop mode to continue "
        "mode is not supported.\n"
    )


# -- item 1: synchronize and query in a context stopped on failure ----------------------------------


def test_every_later_synchronize_returns_the_failure(deferred, dev0, findings):
    """CheckContextStatus comes before the wait: once the failure was reported, each synchronize of
    any stream of the context (the aborted one, another one, the default stream, with a timeout)
    returns it again, the emulator's note as the report, and keeps it as the thread's last error."""
    st, other = new_stream(), new_stream()
    assert A.aclrtSetStreamFailureMode(st, ACL_STOP_ON_FAILURE) == 0
    _fail(st)
    for call in (
        lambda: A.aclrtSynchronizeStream(st),
        lambda: A.aclrtSynchronizeStream(st),
        lambda: A.aclrtSynchronizeStreamWithTimeout(st, 1000),
        lambda: A.aclrtSynchronizeStream(other),
        lambda: A.aclrtSynchronizeStream(None),
    ):
        assert call() == ACL_ERROR_RT_SYS_DMA
        assert _stopped_message(aclGetRecentErrMsg())
        assert last_error() == ACL_ERROR_RT_SYS_DMA
    findings.refresh()
    assert A.aclrtDestroyStreamForce(st) == 0 and A.aclrtDestroyStreamForce(other) == 0


def test_a_query_returns_the_failure_without_a_status(deferred, dev0, findings):
    """ApiImpl::StreamQuery: CheckContextStatus before Stream::Query; aclrtStreamQuery returns the
    code and leaves the status alone."""
    st, other = new_stream(), new_stream()
    assert A.aclrtSetStreamFailureMode(st, ACL_STOP_ON_FAILURE) == 0
    _fail(st)
    for s in (st, other, None):
        status = Ref(99)
        assert A.aclrtStreamQuery(s, status) == ACL_ERROR_RT_SYS_DMA
        assert status.value == 99
        assert _stopped_message(aclGetRecentErrMsg())
        assert last_error() == ACL_ERROR_RT_SYS_DMA
    findings.refresh()
    assert A.aclrtDestroyStreamForce(st) == 0 and A.aclrtDestroyStreamForce(other) == 0


def test_the_context_s_failure_comes_before_the_other_stream_s_work(deferred, dev0, findings):
    """ApiImpl::StreamSynchronize checks the context (CheckContextStatus) before it waits for the
    stream (api_impl.cc:1729-1731): the other stream's synchronize returns the failure at once,
    every time, its queued work not run."""
    a, b = new_stream(), new_stream()
    assert A.aclrtSetStreamFailureMode(a, ACL_STOP_ON_FAILURE) == 0
    p = Ref()
    assert A.aclrtMalloc(p, 16, 0) == 0
    assert A.aclrtMemsetAsync(p.value, 16, 9, 16, b) == 0
    _fail(a)
    for _ in range(2):
        assert A.aclrtSynchronizeStream(b) == ACL_ERROR_RT_SYS_DMA
        assert _stopped_message(aclGetRecentErrMsg())
    findings.refresh()
    assert A.aclrtDestroyStreamForce(a) == 0 and A.aclrtDestroyStreamForce(b) == 0
    assert A.aclrtFree(p.value) == 0


@pytest.mark.parametrize("flag", [ACL_STREAM_PERSISTENT, ACL_STREAM_CPU_SCHEDULE, ACL_STREAM_DEVICE_USE_ONLY])
def test_the_decorator_answers_for_the_streams_it_does_not_synchronize(deferred, dev0, findings, flag):
    """ApiErrorDecorator::StreamSynchronize / StreamQuery return RT_ERROR_NONE for a stream with
    RT_STREAM_PERSISTENT, RT_STREAM_AICPU or RT_STREAM_CP_PROCESS_USE before ApiImpl's context check."""
    st, flagged = new_stream(), new_stream(flag)
    assert A.aclrtSetStreamFailureMode(st, ACL_STOP_ON_FAILURE) == 0
    _fail(st)
    assert A.aclrtSynchronizeStream(flagged) == 0
    status = Ref()
    assert A.aclrtStreamQuery(flagged, status) == 0 and status.value == ACL_STREAM_STATUS_COMPLETE
    findings.refresh()
    assert A.aclrtDestroyStreamForce(st) == 0 and A.aclrtDestroyStreamForce(flagged) == 0


def test_a_context_in_stop_mode_without_a_failure_synchronizes(dev0):
    st = new_stream()
    assert A.aclrtSetStreamFailureMode(st, ACL_STOP_ON_FAILURE) == 0
    assert _memset(st) == 0
    status = Ref()
    assert A.aclrtStreamQuery(st, status) == 0 and status.value == ACL_STREAM_STATUS_COMPLETE
    assert A.aclrtDestroyStream(st) == 0


# -- aclrtStreamAbort: Stream::ResClear ----------------------------------------------------------


def test_stream_abort_forgets_an_unreported_failure(deferred, dev0, findings):
    """ResetStreamConstruct zeroes errCode_: the failure of a task no synchronize reported is gone."""
    st = new_stream()
    failing_copy(st)
    A.aclrtStreamQuery(st, Ref())  # the deferred policy runs the copy: it fails, unreported
    assert A.aclrtStreamAbort(st) == 0
    assert A.aclrtSynchronizeStream(st) == 0
    findings.refresh()
    assert A.aclrtDestroyStream(st) == 0


def test_stream_abort_leaves_the_context_stopped(deferred, dev0, findings):
    """Context::StreamAbort does not touch the context's failure: the stream leaves abort mode (its
    mode set, STOP, is in force again) but its synchronize and new work still meet the failure."""
    st = new_stream()
    assert A.aclrtSetStreamFailureMode(st, ACL_STOP_ON_FAILURE) == 0
    _fail(st)
    assert A.aclrtStreamAbort(st) == 0
    assert not aborted(st)
    assert A.aclrtSynchronizeStream(st) == ACL_ERROR_RT_SYS_DMA
    assert _stopped_message(aclGetRecentErrMsg())
    p = Ref()
    assert A.aclrtMalloc(p, 16, 0) == 0
    assert A.aclrtMemsetAsync(p.value, 16, 1, 16, st) == ACL_ERROR_RT_SYS_DMA
    assert _stopped_message(aclGetRecentErrMsg(), _ACCEPTS)
    findings.refresh()
    assert A.aclrtDestroyStreamForce(st) == 0
    assert A.aclrtFree(p.value) == 0


# -- item 2: aclrtDeviceTaskAbort ends in the device clean -----------------------------------------


def test_device_task_abort_restarts_a_stopped_context(deferred, dev0, findings):
    """DeviceClean: ResClear of the streams (abort mode ends: STOP, the mode set, is in force again),
    SetFailureError(RT_ERROR_NONE) for the context (new work runs, synchronizes succeed); the
    context stays in stop mode: a new failure stops it again. The POST callback still sees the
    stream in abort mode (the clean comes after it)."""
    st, other = new_stream(), new_stream()
    assert A.aclrtSetStreamFailureMode(st, ACL_STOP_ON_FAILURE) == 0
    _fail(st)
    seen = []

    def callback(dev, stage, timeout, args):
        seen.append((stage, A.aclrtSetStreamFailureMode(st, ACL_STOP_ON_FAILURE)))
        aclGetRecentErrMsg()
        return 0

    assert A.aclrtSetDeviceTaskAbortCallback("abort31", callback, None) == 0
    try:
        assert A.aclrtDeviceTaskAbort(0, 0) == 0
    finally:
        assert A.aclrtSetDeviceTaskAbortCallback("abort31", None, None) == 0
    assert seen == [(0, ACL_ERROR_RT_FEATURE_NOT_SUPPORT), (1, ACL_ERROR_RT_FEATURE_NOT_SUPPORT)]
    assert not aborted(st)
    assert A.aclrtSetStreamFailureMode(st, ACL_STOP_ON_FAILURE) == 0
    assert A.aclrtSetStreamFailureMode(st, ACL_CONTINUE_ON_FAILURE) == ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    assert aclGetRecentErrMsg() == _stop_to_continue(st)
    for s in (st, other, None):
        assert A.aclrtSynchronizeStream(s) == 0
        status = Ref()
        assert A.aclrtStreamQuery(s, status) == 0 and status.value == ACL_STREAM_STATUS_COMPLETE
    assert _memset(st) == 0 and _memset(other) == 0
    _fail(other)  # the context is still in stop mode: the failure stops it, this stream enters abort
    assert aborted(other) and not aborted(st)
    assert A.aclrtSynchronizeStream(st) == ACL_ERROR_RT_SYS_DMA
    findings.refresh()
    assert A.aclrtDestroyStreamForce(st) == 0 and A.aclrtDestroyStreamForce(other) == 0


def test_device_task_abort_forgets_an_unreported_failure(deferred, dev0, findings):
    st = new_stream()
    failing_copy(st)
    A.aclrtStreamQuery(st, Ref())  # the deferred policy runs the copy: it fails, unreported
    assert A.aclrtDeviceTaskAbort(0, 0) == 0
    assert A.aclrtSynchronizeStream(st) == 0
    findings.refresh()
    assert A.aclrtDestroyStream(st) == 0


def _abort_all(flags: int):
    """A STOP stream and one with ``flags`` (its mode set CONTINUE) fail in turn; both in abort."""
    a, b = new_stream(), new_stream(flags)
    assert A.aclrtSetStreamFailureMode(a, ACL_STOP_ON_FAILURE) == 0
    _fail_unwaited(b)
    assert aborted(b)
    return a, b


def test_device_task_abort_skips_the_device_use_only_streams(deferred, dev0, findings):
    """StreamsTaskClean jumps over the RT_STREAM_CP_PROCESS_USE streams: abort mode stays (no call
    of the emulated API shows it: the mode and bind calls refuse such a stream first)."""
    a, b = _abort_all(ACL_STREAM_DEVICE_USE_ONLY)
    assert A.aclrtDeviceTaskAbort(0, 0) == 0
    assert aborted(b)
    findings.refresh()
    assert A.aclrtDestroyStreamForce(a) == 0 and A.aclrtDestroyStreamForce(b) == 0


def _bind_message(stream) -> str | None:
    m = Ref()
    assert A.aclmdlRIBuildBegin(m, 0) == 0
    code = A.aclmdlRIBindStream(m.value, stream, A.ACL_MODEL_STREAM_FLAG_HEAD)
    msg = aclGetRecentErrMsg()
    if code == 0:
        assert A.aclmdlRIUnbindStream(m.value, stream) == 0
    assert A.aclmdlRIDestroy(m.value) == 0
    return msg


def test_device_task_abort_cleans_an_unbound_persistent_stream(deferred, dev0, findings):
    """Ascend910B: only the streams bound to a model are skipped; a persistent one that is not bound
    leaves abort mode (its mode set STOP: the bind refusal names stop mode, not abort mode)."""
    st = new_stream(ACL_STREAM_PERSISTENT)
    assert A.aclrtSetStreamFailureMode(st, ACL_STOP_ON_FAILURE) == 0
    _fail_unwaited(st)
    sid = Ref()
    assert A.aclrtStreamGetId(st, sid) == 0
    assert f"{_BIND} failed. Reason: Abort mode for stream (stream_id={sid.value})" in _bind_message(st)
    assert A.aclrtDeviceTaskAbort(0, 0) == 0
    assert f"{_BIND} failed. Reason: Stop mode for stream (stream_id={sid.value})" in _bind_message(st)
    findings.refresh()
    assert A.aclrtDestroyStreamForce(st) == 0


def test_device_task_abort_skips_a_bound_stream(dev0):
    """GetBindFlag(): a stream bound to a model keeps its state (such a stream cannot enter abort
    in the emulator, whose bound streams record their tasks: the rule itself is checked)."""
    st = new_stream(ACL_STREAM_PERSISTENT)
    m = Ref()
    assert A.aclmdlRIBuildBegin(m, 0) == 0
    assert A.aclmdlRIBindStream(m.value, st, A.ACL_MODEL_STREAM_FLAG_HEAD) == 0
    assert not api_device_query._cleaned(st)
    assert A.aclmdlRIUnbindStream(m.value, st) == 0
    assert api_device_query._cleaned(st)
    assert A.aclmdlRIDestroy(m.value) == 0
    assert A.aclrtDestroyStream(st) == 0


def test_ascend950_skips_the_persistent_streams(deferred, chip, findings):
    """CtxStreamTaskClean: a plain stream leaves abort mode, a RT_STREAM_PERSISTENT one keeps it (STOP
    is refused with the abort EE1016); the context's failure is gone either time."""
    chip("Ascend950")
    pers, plain = new_stream(ACL_STREAM_PERSISTENT), new_stream()
    for s in (pers, plain):
        assert A.aclrtSetStreamFailureMode(s, ACL_STOP_ON_FAILURE) == 0
    _fail(plain)
    assert A.aclrtDeviceTaskAbort(0, 0) == 0
    assert not aborted(plain)
    assert A.aclrtSetStreamFailureMode(plain, ACL_STOP_ON_FAILURE) == 0
    _fail_unwaited(pers)  # the context is in stop mode still
    assert A.aclrtDeviceTaskAbort(0, 0) == 0
    assert aborted(pers)
    assert A.aclrtSetStreamFailureMode(pers, ACL_STOP_ON_FAILURE) == ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    assert aclGetRecentErrMsg() == _abort_refusal(pers)
    assert _memset(plain) == 0
    findings.refresh()
    assert A.aclrtDestroyStreamForce(pers) == 0 and A.aclrtDestroyStreamForce(plain) == 0


def test_events_and_the_device_answer_a_stopped_context_with_its_failure(deferred, dev0, findings):
    """ApiImpl::EventSynchronize / EventQuery / EventQueryStatus check the event's context first
    (CheckStatus), EventQueryWaitStatus the current context's failure, Context::Synchronize (the
    device's) CheckStatus before its streams: each returns the failure, the status left unwritten,
    until aclrtDeviceTaskAbort cleans the device."""
    st, other = new_stream(), new_stream()
    ev = Ref()
    assert A.aclrtCreateEvent(ev) == 0
    assert A.aclrtRecordEvent(ev.value, other) == 0
    assert A.aclrtSetStreamFailureMode(st, ACL_STOP_ON_FAILURE) == 0
    _fail(st)
    calls = [
        lambda s: A.aclrtSynchronizeEvent(ev.value),
        lambda s: A.aclrtQueryEvent(ev.value, s),
        lambda s: A.aclrtQueryEventStatus(ev.value, s),
        lambda s: A.aclrtQueryEventWaitStatus(ev.value, s),
        lambda s: A.aclrtSynchronizeDevice(),
    ]
    for call in calls:
        status = Ref()
        assert call(status) == ACL_ERROR_RT_SYS_DMA
        assert _stopped_message(aclGetRecentErrMsg()) and status.value is None
    assert A.aclrtDeviceTaskAbort(0, 0) == 0
    for call in calls:
        assert call(Ref()) == 0
    assert A.aclrtDestroyEvent(ev.value) == 0


def test_a_stream_abort_inside_the_device_abort_changes_nothing(deferred, dev0, findings):
    """Context::StreamAbort returns success at once while the device's task abort is under way
    (GetDeviceStatus() == RT_ERROR_DEVICE_TASK_ABORT, context.cc:2795-2801): a callback's
    aclrtStreamAbort leaves the stream in abort mode; the device clean then ends it."""
    st = new_stream()
    assert A.aclrtSetStreamFailureMode(st, ACL_STOP_ON_FAILURE) == 0
    _fail(st)
    seen = []

    def callback(dev, stage, timeout, args):
        seen.append((stage, A.aclrtStreamAbort(st), aborted(st)))
        return 0

    assert A.aclrtSetDeviceTaskAbortCallback("abort31b", callback, None) == 0
    try:
        assert A.aclrtDeviceTaskAbort(0, 0) == 0
    finally:
        assert A.aclrtSetDeviceTaskAbortCallback("abort31b", None, None) == 0
    assert seen == [(0, 0, True), (1, 0, True)]
    assert not aborted(st)
    findings.refresh()
    assert A.aclrtDestroyStream(st) == 0


@pytest.fixture
def threaded(monkeypatch):
    """The thread policy: each stream's worker runs its tasks as they come."""
    monkeypatch.setenv("ACLNN_PY_STREAM", "thread")


def test_a_task_the_stopped_context_drops_unrun_is_no_failure_of_its_stream(threaded, dev0, findings):
    """Stream b's memset is held behind a host function until stream a's copy failed in stop mode;
    then b's worker drops it unrun. Only a task that ran and failed is a device exception: one
    exception callback (a's), b not in abort mode, and b's synchronize answers with the context's
    failure (Context::CheckStatus), as under the deferred policy."""
    seen: list[object] = []
    assert A.aclrtSetExceptionInfoCallback(seen.append) == 0
    a, b = new_stream(), new_stream()
    assert A.aclrtSetStreamFailureMode(a, ACL_STOP_ON_FAILURE) == 0
    gate = threading.Event()
    assert A.aclrtLaunchHostFunc(b, lambda _: gate.wait(10), None) == 0
    p = Ref()
    assert A.aclrtMalloc(p, 16, 0) == 0
    assert A.aclrtMemsetAsync(p.value, 16, 9, 16, b) == 0
    hold_a = threading.Event()  # a's copy runs after its free: it fails
    assert A.aclrtLaunchHostFunc(a, lambda _: hold_a.wait(10), None) == 0
    failing_copy(a)
    hold_a.set()
    assert A.aclrtSynchronizeStream(a) == ACL_ERROR_RT_SYS_DMA
    aclGetRecentErrMsg()
    gate.set()
    deadline = time.monotonic() + 10
    while b.pending and time.monotonic() < deadline:
        time.sleep(0.001)
    assert not b.pending
    assert len(seen) == 1 and not aborted(b) and aborted(a)
    assert A.aclrtSynchronizeStream(b) == ACL_ERROR_RT_SYS_DMA
    assert _stopped_message(aclGetRecentErrMsg())
    assert A.aclrtSetExceptionInfoCallback(None) == 0
    findings.refresh()
    assert A.aclrtDeviceTaskAbort(0, 0) == 0
    assert A.aclrtDestroyStream(a) == 0 and A.aclrtDestroyStream(b) == 0
    assert A.aclrtFree(p.value) == 0
