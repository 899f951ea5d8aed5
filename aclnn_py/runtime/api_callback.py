"""Host callbacks of the streams chapter of ``acl_rt.h``: aclrtSubscribeReport binds a stream to a
host thread, aclrtLaunchCallback queues a callback on the stream, and the bound thread runs the
callbacks the stream has reached when it calls aclrtProcessReport.

A thread is named by its id as ``pthread_self()`` gives it (``threading.get_ident()`` in Python,
the same number). ``ACL_CALLBACK_BLOCK`` holds the stream until the callback has run;
``ACL_CALLBACK_NO_BLOCK`` does not.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from .. import _errmsg
from .._capi import ApiError, describe
from . import _rt_features
from ._checks import (
    PARAM,
    RT_PARAM,
    E,
    acl_null,
    acl_reason,
    acl_value,
    check_stopped,
    emu,
    fb_inner,
    fb_invalid,
    impl_david,
    int_arg,
    need_context,
    own_stream,
    rt_api,
    rt_inner,
    silent,
    stream_handle,
)
from ._model_ri_checks import refused
from .api_notify import check_notify_room
from .device import RT
from .stream import FAULT_HOOKS, RELEASE_HOOKS, Stream, Task, TaskFault, wait_until


class _Report:
    """One callback the stream has reached, waiting for its thread's aclrtProcessReport."""

    __slots__ = ("args", "done", "fn")

    def __init__(self, fn: Callable[[Any], None], args: object) -> None:
        self.fn, self.args = fn, args
        self.done = False


class _SubscriptionNotify:
    """The notify Ascend950's ``ApiImplDavid::SubscribeReport`` creates on the subscribed stream's
    device (``NotifyCreate``, api_impl_david.cc:1472-1477) and the subscription owns: one of the
    device's notifies, so aclrtCreateNotify counts it against the device's limit (``RT.notifies``),
    until aclrtUnSubscribeReport deletes it (``CbSubscribe::Delete``, subscribe.cc:206-210) or the
    stream's teardown does (it unsubscribes the stream: stream.cc:1544, stream_david.cc:58-60)."""

    __slots__ = ("context",)

    def __init__(self, stream: Stream) -> None:
        self.context = stream.context


class _SubscriptionEvent:
    """The event Ascend910B/910_93's ``ApiImpl::SubscribeReport`` creates for the subscription
    (``EventCreate(&curEvent, RT_EVENT_DDSYNC_NS)``, api_impl.cc:5207-5213) and the subscription
    owns: an event of the *current* context's device (``ApiImpl::EventCreate``, api_impl.cc:
    2041-2069) whose flag is not RT_EVENT_DEFAULT, so ``Event::GenEventId`` takes one of that
    device's event ids from the driver at once (event.cc:457-481; DDSYNC_NS is no stream-mark or
    timeline flag: ``InitEventAllocFlag``, event.cc:429-455). ``CbSubscribe::Delete`` deletes it
    (subscribe.cc:211-218, 283-290) at aclrtUnSubscribeReport or the stream's teardown, and the
    event's destructor gives the id back (``RawDevice::FreeEventIdFromDrv``, raw_device.cc:1875-1898)."""

    __slots__ = ("context",)

    def __init__(self, context: Any) -> None:
        self.context = context


class _Reports:
    """What the runtime keeps (one instance per Runtime): stream -> thread, thread -> queue (the
    thread's callback CQ), and stream -> the notify (Ascend950) or event (Ascend910B/910_93) its
    subscription owns."""

    def __init__(self) -> None:
        self.lock = threading.Condition()
        self.thread_of: dict[Stream, int] = {}
        self.notify_of: dict[Stream, _SubscriptionNotify] = {}
        self.event_of: dict[Stream, _SubscriptionEvent] = {}
        self.queues: dict[int, deque[_Report]] = {}
        self.ran_here: dict[int, int] = {}  # callbacks a bound thread ran while it drove the stream

    def remove(self, st: Stream) -> _SubscriptionNotify | None:
        """``CbSubscribe::Delete`` (the lock held): the stream's subscription and the event it
        owns go; the notify it owns is returned (for :func:`_release_notifies`). The thread's last
        stream (``needsFreeSqCq``, subscribe.cc:221-241, 294-312) frees the thread's group and its
        callback SQ/CQ, with the reports still in the CQ: those callbacks never run, and the
        thread's next aclrtProcessReport finds no subscription (107012)."""
        tid = self.thread_of.pop(st)
        self.event_of.pop(st, None)
        if tid not in self.thread_of.values():
            self.queues.pop(tid, None)
            self.ran_here.pop(tid, None)
        return self.notify_of.pop(st, None)

    def events_on(self, device: object) -> int:
        """The subscriptions' events of ``device`` (each holds one of its event ids)."""
        with self.lock:
            return sum(1 for ev in self.event_of.values() if not ev.context.destroyed and ev.context.device is device)


def _release_notifies(notifies: list[_SubscriptionNotify]) -> None:
    if notifies:
        with RT.lock:
            for n in notifies:
                RT.notifies.discard(n)


def _reports() -> _Reports:
    """The runtime's subscriptions (created on first use, forgotten by ``RT.reset()``)."""
    with RT.lock:
        if not isinstance(RT.reports, _Reports):
            RT.reports = _Reports()
        reports: _Reports = RT.reports
    return reports


def _unsubscribe_released(stream: Stream) -> None:
    """A RELEASE_HOOKS entry: a destroyed stream (aclrtDestroyStream, or its context's release) is
    no longer subscribed; its teardown unsubscribed it (``Runtime::UnSubscribeReport(Stream*)``),
    which frees its thread for a stream of another device, releases its notify or event, and (its
    thread's last stream) frees the thread's callback queue."""
    reports = RT.reports
    if not isinstance(reports, _Reports):
        return
    with reports.lock:
        notify = reports.remove(stream) if stream in reports.thread_of else None
    _release_notifies([notify] if notify is not None else [])


RELEASE_HOOKS.append(_unsubscribe_released)


def _thread_arg(threadId: object) -> int:
    return int_arg(threadId, "threadId", 0, 2**64 - 1)


def _target(stream: object, rt_fn: str) -> Stream:
    st = stream_handle(stream, rt_fn)
    return st if st is not None else need_context(rt_fn).default_stream


def subscribed_by_user(st: Stream) -> bool:
    """Whether aclrtSubscribeReport bound the stream to a thread (SUBSCRIBE_USER)."""
    return st in _reports().thread_of


def _runtime_subscribed(st: Stream | None, desc: str, rt_call: str) -> None:
    """ApiErrorDecorator::SubscribeReport / CallbackLaunch / UnSubscribeReport: a stream
    aclrtLaunchHostFunc used is subscribed to the runtime's own callback thread (107011, EE1016),
    then the rt wrapper's FuncErrorReason (ERROR_RETURN_WITH_EXT_ERRCODE)."""
    if st is not None and st.host_funcs:
        raise refused(
            E.ACL_ERROR_RT_STREAM_SUBSCRIBE,
            desc,
            f"The stream (stream_id={st.ident}) is in the host callback process and cannot call {rt_call}",
            fb_inner(rt_call, "subscribe stream error"),
        )


def _check_thread_device(reports: _Reports, st: Stream, tid: int) -> None:
    """CbSubscribe::CheckForInsert's last check: a thread bound to streams of one device (and ts)
    cannot be bound to a stream of another (107012)."""
    dev = st.context.device.ident
    if any(bound == tid and s.context.device.ident != dev for s, bound in reports.thread_of.items()):
        raise ApiError(
            E.ACL_ERROR_RT_THREAD_SUBSCRIBE,
            rt_inner(
                f"Cannot find callback subscription by thread key, thread_id={tid}, stream_id={st.ident}, "
                f"device_id={dev}, ts_id=0.",
                "CheckForInsert",
                "subscribe.cc",
                84,
            ),
            rt_inner(  # Runtime::SubscribeReport's ERROR_RETURN_MSG_INNER
                f"Subscribe report failed, streamId={st.ident}, threadId={tid}, retCode=0x7160004.",
                "SubscribeReport",
                "runtime.cc",
                4395,
            ),
            fb_inner("rtSubscribeReport", "subscribe thread error"),
        )


def _event_per_subscription() -> bool:
    """Whether ApiImpl::SubscribeReport creates an event for the subscription first
    (``Runtime::ChipIsHaveStars``: the DevProperties' isStars): EventCreate needs a current
    context even for a stream given. Ascend950's ApiImplDavid creates a notify of the stream's
    device instead (:func:`_create_notify`); the chips without STARS create nothing."""
    return _rt_features.properties().is_stars and not impl_david()


def _create_notify(st: Stream, rt_fn: str) -> _SubscriptionNotify:
    """``ApiImplDavid::SubscribeReport``'s ``NotifyCreate`` of a notify on the stream's device
    (``ApiImpl::NotifyCreate``, api_impl.cc:4790-4820, called directly: no error decorator).
    Its ``CurrentContext(true, deviceId)`` makes the aclInit default device current only when it
    is the stream's device (runtime.cc:5397-5428), else no context is 107002 (EE1018); then
    ``Notify::Setup`` takes one of the device's notifies: none left is 207009, EE1023 and
    NotifyCreate's inner report, then the wrapper's FuncErrorReason."""
    dev = st.context.device
    need_context(rt_fn, implicit_default=RT.default_device == dev.ident)
    with RT.lock:
        check_notify_room(dev, rt_fn)
        notify = _SubscriptionNotify(st)
        RT.notifies.add(notify)
    return notify


@rt_api
def aclrtSubscribeReport(threadId: int, stream: object) -> int:
    """Bind the stream's callbacks to the thread ``threadId`` (one thread per stream)."""
    rt_fn = "rtSubscribeReport"
    tid = _thread_arg(threadId)
    _runtime_subscribed(
        stream_handle(stream, rt_fn),
        "Specifying the thread for processing the callback function in stream",
        "rtSubscribeReport",
    )
    st = _target(stream, rt_fn)
    # ApiImpl::SubscribeReport's EventCreate, before Runtime's checks: an event of the current
    # context's device (a refused subscription destroys it again: EventDestroy)
    event = _SubscriptionEvent(need_context(rt_fn)) if _event_per_subscription() else None
    reports = _reports()
    # ApiImplDavid: the notify first; a refused subscription destroys it again (NotifyDestroy)
    notify = _create_notify(st, rt_fn) if impl_david() else None
    try:
        _insert(reports, st, tid, notify, event, rt_fn)
    except ApiError:
        _release_notifies([notify] if notify is not None else [])
        raise
    return E.ACL_SUCCESS


def subscription_events(device: object) -> int:
    """How many of ``device``'s event ids the subscriptions hold (Ascend910B/910_93: one each, of
    the device current at aclrtSubscribeReport, until it is cancelled or the stream destroyed):
    the driver counts them as used, so aclrtGetEventAvailNum (``halResourceInfoQuery``'s
    capacity - usedNum, npu_driver_res.cc:620-637) reports that many fewer."""
    return _reports().events_on(device) if isinstance(RT.reports, _Reports) else 0


def _insert(
    reports: _Reports,
    st: Stream,
    tid: int,
    notify: _SubscriptionNotify | None,
    event: _SubscriptionEvent | None,
    rt_fn: str,
) -> None:
    """``Runtime::SubscribeReport`` (``CbSubscribe::Insert``): the checks, then the binding (the
    thread's first stream allocates its callback queue: ``SqCqAllocate``)."""
    with reports.lock:
        if st in reports.thread_of:
            raise ApiError(
                E.ACL_ERROR_RT_STREAM_SUBSCRIBE,
                rt_inner(
                    f"Stream already exists in stream map, streamId={st.ident}, devId={st.context.device.ident}, "
                    f"threadId={tid}",
                    "CheckForInsert",
                    "subscribe.cc",
                    73,
                ),
                rt_inner(  # Runtime::SubscribeReport's ERROR_RETURN_MSG_INNER
                    f"Subscribe report failed, streamId={st.ident}, threadId={tid}, retCode=0x7160003.",
                    "SubscribeReport",
                    "runtime.cc",
                    4395,
                ),
                fb_inner(rt_fn, "subscribe stream error"),
            )
        _check_thread_device(reports, st, tid)
        reports.thread_of[st] = tid
        if notify is not None:
            reports.notify_of[st] = notify
        if event is not None:
            reports.event_of[st] = event
        reports.queues.setdefault(tid, deque())


@rt_api
def aclrtUnSubscribeReport(threadId: int, stream: object) -> int:
    """Undo aclrtSubscribeReport (the same thread and stream)."""
    rt_fn = "rtUnSubscribeReport"
    tid = _thread_arg(threadId)
    _runtime_subscribed(stream_handle(stream, rt_fn), "Cancelling thread registration", rt_fn)
    st = _target(stream, rt_fn)
    reports = _reports()
    with reports.lock:
        bound = reports.thread_of.get(st)
        if bound is None or bound != tid:
            where, line, code, inner, reason = (
                ("stream", 192, E.ACL_ERROR_RT_STREAM_SUBSCRIBE, 0x7160003, "subscribe stream error")
                if bound is None
                else ("thread", 200, E.ACL_ERROR_RT_THREAD_SUBSCRIBE, 0x7160004, "subscribe thread error")
            )
            raise ApiError(
                code,
                rt_inner(
                    f"Stream does not exist in {where} map, streamId={st.ident}, threadId={tid}",
                    "Delete",
                    "subscribe.cc",
                    line,
                ),
                rt_inner(  # Runtime::UnSubscribeReport's ERROR_RETURN_MSG_INNER
                    f"Unsubscribe report failed, streamId={st.ident}, threadId={tid}, retCode={inner:#x}.",
                    "UnSubscribeReport",
                    "runtime.cc",
                    4384,
                ),
                fb_inner(rt_fn, reason),
            )
        notify = reports.remove(st)
    _release_notifies([notify] if notify is not None else [])  # CbSubscribe::Delete deletes it
    return E.ACL_SUCCESS


_CALLBACK_DESC = "Delivering an on-host callback function task in a stream"


@rt_api
def aclrtLaunchCallback(fn: Callable[[Any], None] | None, userData: object, blockType: int, stream: object) -> int:
    """Queue ``fn(userData)`` on a subscribed stream; the bound thread runs it in its
    aclrtProcessReport once the stream reaches it."""
    rt_fn = "rtCallbackLaunch"
    block = int_arg(blockType, "blockType", -(2**31), 2**31 - 1)
    if block not in (0, 1):
        raise ApiError(
            PARAM,
            acl_value(
                "aclrtLaunchCallback", f"UNKNOWN({block})", "blockType", "ACL_CALLBACK_BLOCK or ACL_CALLBACK_NO_BLOCK"
            ),
        )
    st = stream_handle(stream, rt_fn)
    if fn is None:
        raise ApiError(
            RT_PARAM,
            ("EE1004", f"{_CALLBACK_DESC} failed because callBackFunc cannot be a NULL pointer."),
            fb_invalid(rt_fn),
        )
    if not callable(fn):
        raise ApiError(PARAM, emu(f"aclrtLaunchCallback: fn must be callable, got {describe(fn)}."))
    _runtime_subscribed(st, _CALLBACK_DESC, "rtCallbackLaunch")
    ctx = need_context(rt_fn)
    target = st or ctx.default_stream
    own_stream(target, ctx, _CALLBACK_DESC, rt_fn)
    reports = _reports()
    with reports.lock:
        tid = reports.thread_of.get(target)
        # the callback CQ the task reports to (the task's cbRptCqid, fixed at submission)
        cq = reports.queues.get(tid) if tid is not None else None
    if tid is None and impl_david():  # ApiImplDavid: an inner report
        raise ApiError(
            E.ACL_ERROR_RT_STREAM_NO_CB_REG,
            rt_inner(
                "The stream used by this user's callback function is not registered to any thread, retCode=0x703000b",
                "CallbackLaunch",
                "api_impl_david.cc",
                1594,
            ),
            fb_inner(rt_fn, "stream not registered"),
        )
    if tid is None:
        raise ApiError(
            E.ACL_ERROR_RT_STREAM_NO_CB_REG,
            (
                "EE1018",
                f"{_CALLBACK_DESC} failed. Reason: Stream (stream_id={target.ident}) is not bound to any thread. Call "
                "the rtSubscribeReport API to bind a thread to the stream.",
            ),
            fb_inner(rt_fn, "stream not registered"),
        )
    check_stopped(ctx)
    policy = RT.policy
    report = _Report(fn, userData)

    def run() -> None:
        here = threading.get_ident() == tid  # the bound thread drives the stream itself: call it now
        with reports.lock:
            # the thread's last stream was unsubscribed since: its CQ is freed, the report lost
            lost = cq is None or reports.queues.get(tid) is not cq
            if not lost and not here and cq is not None:
                cq.append(report)
                reports.lock.notify_all()
        if here and not lost:
            report.fn(report.args)
            report.done = True
            with reports.lock:
                if reports.queues.get(tid) is cq:
                    reports.ran_here[tid] = reports.ran_here.get(tid, 0) + 1
            return
        if block == 1 and lost:  # on hardware the stream waits forever for a report nobody gets
            raise TaskFault(
                507046,
                "aclrtLaunchCallback(ACL_CALLBACK_BLOCK): the callback's report was lost (its thread's last "
                "stream was unsubscribed, or destroyed, before the stream reached it: CbSubscribe::Delete freed "
                "the thread's callback queue); on hardware the stream hangs",
            )
        if block == 1:  # ACL_CALLBACK_BLOCK: the stream waits for the callback
            wait_until(lambda: report.done, policy, target, "aclrtLaunchCallback(ACL_CALLBACK_BLOCK)", 507046)

    submit_task = Task(target, "host callback", run)
    policy.submit(target, submit_task)
    return E.ACL_SUCCESS


@rt_api
def aclrtProcessReport(timeout: int) -> int:
    """Run, on the calling (subscribed) thread, the callbacks its streams have reached, waiting up
    to ``timeout`` ms (-1: for ever) for one. None within the time: 507012; a thread no stream is
    bound to: 107012 (both without a report, as in CANN)."""
    t = int_arg(timeout, "timeout", -(2**31), 2**31 - 1)
    if t < -1 or t == 0:
        raise ApiError(
            PARAM,
            acl_reason(
                "aclrtProcessReport",
                t,
                "timeout",
                "-1 represents infinite wait, timeout value greater than 0 represents waiting for a fixed time",
            ),
        )
    tid = threading.get_ident()
    reports = _reports()
    with reports.lock:
        # a thread has a queue while a stream is bound to it: its last stream's unsubscription
        # (or teardown) freed the queue and the callbacks still in it (CbSubscribe::Delete)
        queue = reports.queues.get(tid)
    if queue is None:  # ApiImpl::ProcessReport: GetGroupIdByThreadId finds no group (a WARN)
        raise silent(E.ACL_ERROR_RT_THREAD_SUBSCRIBE)
    deadline = None if t == -1 else time.monotonic() + t / 1000
    while True:
        with reports.lock:
            due = list(queue)
            queue.clear()
            ran_here = reports.ran_here.pop(tid, 0)
        if ran_here and not due:
            return E.ACL_SUCCESS
        if due:
            for report in due:
                report.fn(report.args)
                report.done = True
            return E.ACL_SUCCESS
        # the device runs the bound streams meanwhile (the deferred and eager policies need a hand)
        progressed = RT.policy.progress(_NOBODY)
        if deadline is not None and time.monotonic() >= deadline:
            raise silent(E.ACL_ERROR_RT_REPORT_TIMEOUT)
        if not progressed:
            with reports.lock:
                if not queue:
                    reports.lock.wait(0.001)


class _Nobody:
    """A stream-like placeholder: progress made for a reporting thread excludes no stream."""


_NOBODY: Any = _Nobody()


# ---------------------------------------------------------------------------------------------
# exception information (acl_rt.h:1195-1305)
# ---------------------------------------------------------------------------------------------

_INVALID_EXCEPTION_INFO = 0xFFFFFFFF


class aclrtExceptionInfo:
    """``aclrtExceptionInfo`` (``rtExceptionInfo``): the failed task, its stream, the thread that
    ran it, the device and the error code, as the exception callbacks receive it."""

    __slots__ = ("deviceid", "retcode", "streamid", "taskid", "tid")

    def __init__(self, taskid: int, streamid: int, tid: int, deviceid: int, retcode: int) -> None:
        self.taskid, self.streamid, self.tid = taskid, streamid, tid
        self.deviceid, self.retcode = deviceid, retcode

    def __repr__(self) -> str:
        return (
            f"aclrtExceptionInfo(taskid={self.taskid}, streamid={self.streamid}, tid={self.tid}, "
            f"deviceid={self.deviceid}, retcode={self.retcode})"
        )


def _callbacks() -> dict[object, Callable[[aclrtExceptionInfo], None]]:
    with RT.lock:
        if not isinstance(RT.exception_callbacks, dict):
            RT.exception_callbacks = {}
        callbacks: dict[object, Callable[[aclrtExceptionInfo], None]] = RT.exception_callbacks
        return callbacks


def _on_fault(stream: Stream, task: Task, fault: TaskFault) -> None:
    """A task failed: every registered exception callback gets its information."""
    callbacks = list(_callbacks().values()) if RT.exception_callbacks else []
    if not callbacks:
        return
    info = aclrtExceptionInfo(
        task.seq & 0xFFFFFFFF, stream.ident, threading.get_ident() & 0xFFFFFFFF, stream.context.device.ident, fault.code
    )
    for callback in callbacks:
        callback(info)


FAULT_HOOKS.append(_on_fault)
_ACL_MODULE = "acl"  # the key aclrtSetExceptionInfoCallback registers under (one callback)


def _exception_callback(callback: object, api: str) -> None:
    """A C caller passes a function pointer or NULL: anything else is refused here, at
    registration, not when a failing task calls it (inside some later synchronize)."""
    if callback is not None and not callable(callback):
        raise ApiError(
            RT_PARAM,
            emu(
                f"{api}: callback is {describe(callback)}, not a function; pass a function taking an "
                "aclrtExceptionInfo (a C caller passes a function pointer or NULL)."
            ),
        )


@rt_api
def aclrtSetExceptionInfoCallback(callback: Callable[[aclrtExceptionInfo], None] | None) -> int:
    """(Deprecated) The ACL module's one exception callback; None removes it."""
    _exception_callback(callback, "aclrtSetExceptionInfoCallback")
    if callback is None:
        _callbacks().pop(_ACL_MODULE, None)
    else:
        _callbacks()[_ACL_MODULE] = callback
    return E.ACL_SUCCESS


@rt_api
def aclrtExceptionInfoCallbackRegister(callback: Callable[[aclrtExceptionInfo], None] | None) -> int:
    """Add an exception callback (several may coexist, one per function)."""
    if callback is None:
        raise ApiError(RT_PARAM, acl_null("aclrtExceptionInfoCallbackRegister", "callback"))
    _exception_callback(callback, "aclrtExceptionInfoCallbackRegister")
    _callbacks()[("registered", callback)] = callback
    return E.ACL_SUCCESS


@rt_api
def aclrtExceptionInfoCallbackUnregister(callback: Callable[[aclrtExceptionInfo], None] | None) -> int:
    """Remove a callback added by aclrtExceptionInfoCallbackRegister."""
    if callback is None:
        raise ApiError(RT_PARAM, acl_null("aclrtExceptionInfoCallbackUnregister", "callback"))
    _exception_callback(callback, "aclrtExceptionInfoCallbackUnregister")
    _callbacks().pop(("registered", callback), None)
    return E.ACL_SUCCESS


def _info_field(info: object, field: str, api: str) -> int:
    """The getters: a NULL info is EH0008 and 0xFFFFFFFF."""
    if not isinstance(info, aclrtExceptionInfo):
        if info is None:
            _errmsg.report(*acl_null(api, "info"))
        else:
            _errmsg.report(*emu(f"{api}: info is {describe(info)}, not an aclrtExceptionInfo."))
        return _INVALID_EXCEPTION_INFO
    return int(getattr(info, field))


def aclrtGetTaskIdFromExceptionInfo(info: object) -> int:
    """The failed task's id (0xFFFFFFFF for NULL)."""
    return _info_field(info, "taskid", "aclrtGetTaskIdFromExceptionInfo")


def aclrtGetStreamIdFromExceptionInfo(info: object) -> int:
    """The failed task's stream id (0xFFFFFFFF for NULL)."""
    return _info_field(info, "streamid", "aclrtGetStreamIdFromExceptionInfo")


def aclrtGetThreadIdFromExceptionInfo(info: object) -> int:
    """The thread that ran the failed task (0xFFFFFFFF for NULL)."""
    return _info_field(info, "tid", "aclrtGetThreadIdFromExceptionInfo")


def aclrtGetDeviceIdFromExceptionInfo(info: object) -> int:
    """The failed task's device (0xFFFFFFFF for NULL)."""
    return _info_field(info, "deviceid", "aclrtGetDeviceIdFromExceptionInfo")


def aclrtGetErrorCodeFromExceptionInfo(info: object) -> int:
    """The failed task's error code (0xFFFFFFFF for NULL)."""
    return _info_field(info, "retcode", "aclrtGetErrorCodeFromExceptionInfo")


def _info(info: object, api: str) -> aclrtExceptionInfo | None:
    """ACL_REQUIRES_NOT_NULL_RET_INPUT_REPORT: a NULL info is EH0008 and 0xFFFFFFFF."""
    if info is None or (isinstance(info, int) and info == 0):
        _errmsg.report(*acl_null(api, "info"))
        return None
    if not isinstance(info, aclrtExceptionInfo):
        _errmsg.report(*emu(f"{api}: info is {describe(info)}, not an aclrtExceptionInfo."))
        return None
    return info


@rt_api
def aclrtGetArgsFromExceptionInfo(info: object, devArgsPtr: object, devArgsLen: object) -> int:
    """The failed kernel's argument block: aclnn_py's kernels have none in device memory (their
    arguments are Python objects), so the call is refused after CANN's checks."""
    api = "aclrtGetArgsFromExceptionInfo"
    if _info(info, api) is None:
        return _INVALID_EXCEPTION_INFO_CODE
    if devArgsPtr is None:
        raise ApiError(PARAM, acl_null(api, "devArgsPtr"))
    if devArgsLen is None:
        raise ApiError(PARAM, acl_null(api, "devArgsLen"))
    raise ApiError(
        _INVALID_EXCEPTION_INFO_CODE,
        emu(
            f"{api}: the failed task is an aclnn_py kernel, whose arguments are not laid out in device memory; there "
            "is no argument block to return."
        ),
    )


@rt_api
def aclrtGetFuncHandleFromExceptionInfo(info: object, func: object) -> int:
    """The failed kernel's function handle: aclnn_py's kernels have none (no aclrtFuncHandle is
    ever issued), so the call is refused (207000) after CANN's checks."""
    api = "aclrtGetFuncHandleFromExceptionInfo"
    if _info(info, api) is None:
        return _INVALID_EXCEPTION_INFO_CODE
    if func is None:
        raise ApiError(PARAM, acl_null(api, "func"))
    raise ApiError(
        E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
        emu(f"{api}: the failed task is an aclnn_py kernel, which has no aclrtFuncHandle (none is ever issued)."),
    )


# ACL_ERROR_INVALID_EXCEPTION_INFO (callback.cpp): 0xFFFFFFFF returned as an aclError, i.e. -1
_INVALID_EXCEPTION_INFO_CODE = -1


__all__ = [
    "aclrtExceptionInfo",
    "aclrtExceptionInfoCallbackRegister",
    "aclrtExceptionInfoCallbackUnregister",
    "aclrtGetArgsFromExceptionInfo",
    "aclrtGetDeviceIdFromExceptionInfo",
    "aclrtGetErrorCodeFromExceptionInfo",
    "aclrtGetFuncHandleFromExceptionInfo",
    "aclrtGetStreamIdFromExceptionInfo",
    "aclrtGetTaskIdFromExceptionInfo",
    "aclrtGetThreadIdFromExceptionInfo",
    "aclrtLaunchCallback",
    "aclrtProcessReport",
    "aclrtSetExceptionInfoCallback",
    "aclrtSubscribeReport",
    "aclrtUnSubscribeReport",
]
