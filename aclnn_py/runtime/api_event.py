"""The events and notifies chapter of ``acl_rt.h``: events that record, time and wait; notifies
that one stream records and another waits for.
"""

from __future__ import annotations

import weakref

import numpy as np

from .. import soc as _soc
from .._capi import ApiError
from .._ref import store
from . import _rt_features, sanitizer
from ._checks import (
    PARAM,
    RT_PARAM,
    TIMEOUT_EXPECT,
    E,
    Message,
    acl_null,
    acl_value,
    check_failed,
    check_stopped,
    drain,
    event_handle,
    fb_inner,
    fb_invalid,
    impl_david,
    int_arg,
    is_null_handle,
    loaded_chapter,
    need_context,
    out_arg,
    own_stream,
    rt_api,
    rt_inner,
    rt_value,
    stream_handle,
    submit,
)
from ._model_ri_checks import refused
from .api_stream import rt_flags_of, supports_capture
from .device import RT, Device
from .enums import aclrtEventRecordedStatus, aclrtEventStatus, aclrtEventWaitStatus
from .memory import call_site
from .model_ri import (
    TASK_EVENT_RECORD,
    TASK_EVENT_RESET,
    TASK_EVENT_WAIT,
    Capture,
    capturing,
    join_capture,
    record_event_op,
)
from .stream import CycleError, Event, Stream, Task, TaskFault, now_ns

# ---------------------------------------------------------------------------------------------
# events
# ---------------------------------------------------------------------------------------------

RT_EVENT_DEFAULT = 0x0E  # RT_EVENT_DDSYNC | RT_EVENT_TIME_LINE | RT_EVENT_STREAM_MARK: aclrtCreateEvent's flag
_RT_EVENT_FLAG_MAX = 0x3F
_RT_ERROR_MODEL_CAPTURE_STATUS = 0x07040011  # internal_error_define.hpp, printed as %d
_RT_EVENT_MC2, _RT_EVENT_EXTERNAL = 0x10, 0x20  # ACL_EVENT_DEVICE_USE_ONLY, ACL_EVENT_EXTERNAL
_EVENT_FLAG_EXPECT = (
    "an OR combination of RT_EVENT_DDSYNC_NS(0x1U), RT_EVENT_STREAM_MARK(0x2U), RT_EVENT_DDSYNC(0x4U), and "
    "RT_EVENT_TIME_LINE(0x8U); or RT_EVENT_MC2(0x10U) or RT_EVENT_EXTERNAL(0x20U) used alone"
)
_RT_EVENT_EX_FLAG_MAX = 0x4F  # EventCreateEx's maxFlag: DDSYNC_NS | STREAM_MARK | DDSYNC | TIME_LINE | IPC
_EX_EVENT_FLAG_EXPECT = (
    "an OR combination of RT_EVENT_DDSYNC_NS(0x1U), RT_EVENT_STREAM_MARK(0x2U), RT_EVENT_DDSYNC(0x4U), and "
    "RT_EVENT_TIME_LINE(0x8U); or RT_EVENT_IPC(0x40U) used alone"
)


def _create_event(out: object, flags: int, rt_fn: str = "rtEventCreateWithFlag") -> int:
    """``ApiErrorDecorator::EventCreate`` / ``EventCreateEx``: the flag checks come before the
    context. EventCreate checks the range, then that MC2 and EXTERNAL stand alone; EventCreateEx
    first that MC2, EXTERNAL and IPC stand alone, then IPC against the chip (207000, silently),
    then its own range (the DDSYNC_NS, STREAM_MARK, DDSYNC and TIME_LINE bits, or IPC alone)."""
    ex = rt_fn == "rtEventCreateExWithFlag"

    def alone_check(solely: tuple[int, ...]) -> None:
        for alone in solely:
            if flags & alone and flags & ~alone:
                raise ApiError(
                    RT_PARAM,
                    (
                        "EE1006",
                        f"Event creation failed. Parameter flag value {flags} is not supported. Reason: "
                        "RT_EVENT_MC2(0x10U) and RT_EVENT_EXTERNAL(0x20U) do not support OR combination with other "
                        "flags.",
                    ),
                    fb_invalid(rt_fn),
                )

    if ex:
        alone_check((_RT_EVENT_MC2, _RT_EVENT_EXTERNAL, _RT_EVENT_IPC))
        if flags == _RT_EVENT_IPC and not _rt_features.has("RT_FEATURE_IPC_EVENT"):
            return E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT  # a WARN, then rtEventCreateExWithFlag's NOLOG
        if flags & _RT_EVENT_EX_FLAG_MAX == 0 or flags > _RT_EVENT_EX_FLAG_MAX:
            raise ApiError(
                RT_PARAM, rt_value("Event creation", flags, "flag", _EX_EVENT_FLAG_EXPECT), fb_invalid(rt_fn)
            )
    else:
        if flags & _RT_EVENT_FLAG_MAX == 0 or flags > _RT_EVENT_FLAG_MAX:
            raise ApiError(RT_PARAM, rt_value("Event creation", flags, "flag", _EVENT_FLAG_EXPECT), fb_invalid(rt_fn))
        alone_check((_RT_EVENT_MC2, _RT_EVENT_EXTERNAL))
    ctx = need_context(rt_fn)
    with RT.lock:
        if not ex and impl_david() and _notify_at_creation(flags):
            _check_notify_room_for_event(ctx.device, rt_fn)
        ev = Event(ctx, flags, call_site())
        RT.events.add(ev)
    store(out, ev)
    return E.ACL_SUCCESS


# -- the event ids an event holds (aclrtGetEventAvailNum) --------------------------------------

_RT_EVENT_TIME_LINE = 0x8


def _notify_at_creation(flags: int) -> bool:
    """Ascend950 (``ApiImplDavid::EventCreate``, api_impl_david.cc:428-446): an event of
    aclrtCreateEvent(WithFlag) whose flag is not RT_EVENT_DEFAULT takes a notify id of the device
    at once (``DavidEvent::GenEventId``, event_david.cc:89-116) unless it has no wait task
    (``DavidEvent::IsEventWithoutWaitTask``, event_david.hpp:54-59: no DDSYNC, DDSYNC_NS, MC2,
    EXTERNAL or IPC bit). RT_EVENT_DEFAULT events and those of aclrtCreateEventExWithFlag count on
    their stream's count notify instead (event_david.cc:29-39, 118-130), another driver resource
    (DRV_CNT_NOTIFY_ID: stream_david.cc:846-863, npu_driver_res.cc:1465-1468)."""
    return flags != RT_EVENT_DEFAULT and bool(flags & (_RT_EVENT_WAITABLE | _RT_EVENT_MC2))


def _check_notify_room_for_event(device: Device, rt_fn: str) -> None:
    """``DavidEvent::GenEventId`` on a device whose notify ids are all taken: the driver's
    DRV_ERROR_NO_NOTIFY_RESOURCES is turned into DRV_ERROR_NO_EVENT_RESOURCES for an event
    (``NpuDriver::NotifyIdAlloc``, npu_driver_res.cc:1484-1488), which GenEventId reports as EE1023
    (event_david.cc:104-106; its ERROR_RETURN and EventCreate's COND_PROC_RETURN_ERROR only log),
    then rtEventCreateWithFlag's FuncErrorReason: 207007. Call under RT.lock."""
    notify = loaded_chapter(f"{__package__}.api_notify")  # never loaded: no notify holds one
    used = notify.notify_ids_in_use(device) if notify is not None else event_ids_in_use(device)
    if used >= _soc.current().max_notifies:
        raise ApiError(
            E.ACL_ERROR_RT_NO_EVENT_RESOURCE,
            ("EE1023", "Alloc Event resource failed. Reason: Too many events are created."),
            fb_inner(rt_fn, "driver error:no event resource"),
        )


def _driver_id_flags(flags: int) -> bool:
    """``Event::InitEventAllocFlag`` (event.cc:429-455): whether an event of these flags takes its
    ids from the driver. RT_EVENT_MC2 and the flags with a wait task (DDSYNC, DDSYNC_NS, EXTERNAL,
    IPC: ``Event::IsEventWithoutWaitTask``, event.hpp:133-136) do; a stream-mark or timeline event
    takes none on a STARS chip (Ascend910B/910_93), and elsewhere only RT_EVENT_TIME_LINE alone
    goes without (it uses the fixed TIMELINE_EVENT_ID)."""
    if flags == _RT_EVENT_MC2 or flags & _RT_EVENT_WAITABLE:
        return True
    return not _rt_features.properties().is_stars and flags != _RT_EVENT_TIME_LINE


class _IdLease:
    """An event id one record took (``Event::Record``'s AllocEventIdResource, event.cc:536-546):
    the record task and the waits sent against it count on it (``idMap_``), and it goes back when
    they are done (``TryFreeEventIdAndCheckCanBeDelete``, event.cc:191-231) unless it is still the
    latest id of an aclrtCreateEvent event, which keeps it until its next record frees it
    (``RefreshEventId`` / ``TryFreeLastEventId``, event.cc:109-124, 380-391) or its destruction."""

    __slots__ = ("record", "waits")

    def __init__(self, record: Task) -> None:
        self.record = record
        self.waits: list[Task] = []

    def pending(self) -> bool:
        return not self.record.done or any(not w.done for w in self.waits)


# the ids the records of RT_EVENT_DEFAULT and aclrtCreateEventExWithFlag events took (not Ascend950)
_leases: weakref.WeakKeyDictionary[Event, list[_IdLease]] = weakref.WeakKeyDictionary()


def _ids_at_record(ev: Event) -> bool:
    """An event that takes an id at each record rather than at its creation (``ApiImpl::EventCreate``
    calls GenEventId for other flags only, api_impl.cc:2062-2067; EventCreateEx never,
    api_impl.cc:2072-2090): RT_EVENT_DEFAULT (aclrtCreateEvent) and aclrtCreateEventExWithFlag's
    events (their "new mode"), not IPC events, whose records use memory (ipc_event.cc:152-194)."""
    return (
        not impl_david()
        and not ev.flags & _RT_EVENT_IPC
        and (ev.new_mode or ev.flags == RT_EVENT_DEFAULT)
        and _driver_id_flags(ev.flags)
    )


def _lease(ev: Event, record: Task) -> None:
    """A record of ``ev`` reached its stream's queue: it took an id (see :class:`_IdLease`)."""
    if not _ids_at_record(ev):
        return
    leases = [lease for lease in _leases.get(ev, ()) if lease.pending()]
    leases.append(_IdLease(record))
    _leases[ev] = leases


def _bind_wait(ev: Event, record: Task, wait: Task) -> None:
    """A wait sent while the record it waits for is pending counts on that record's id
    (``Event::WaitSendCheck``'s EventIdCountAdd, event.cc:586-632)."""
    for lease in _leases.get(ev, ()):
        if lease.record is record:
            lease.waits.append(wait)


def ids_held(ev: Event) -> int:
    """How many of its device's event ids (Ascend950: notify ids) a live event holds."""
    if ev.flags & _RT_EVENT_IPC:
        return 0  # IpcEvent::Setup: shared memory, no id
    if impl_david():
        return int(not ev.new_mode and _notify_at_creation(ev.flags))
    if not (ev.new_mode or ev.flags == RT_EVENT_DEFAULT):
        return int(_driver_id_flags(ev.flags))  # GenEventId at its creation, kept until it is destroyed
    leases = _leases.get(ev, [])
    last = len(leases) - 1
    return sum(1 for i, lease in enumerate(leases) if lease.pending() or (i == last and not ev.new_mode))


def event_ids_in_use(device: Device) -> int:
    """The ids the device's live events hold (Ascend950: the notify ids of its events)."""
    return sum(ids_held(ev) for ev in list(RT.events) if not ev.destroyed and ev.context.device is device)


@rt_api
def aclrtCreateEventWithFlag(event: object, flag: int) -> int:
    """Create an event in the current context with the runtime flags given (ACL's values are the
    runtime's: ACL_EVENT_SYNC 0x1 ... ACL_EVENT_EXTERNAL 0x20)."""
    out = out_arg(event, "aclrtCreateEventWithFlag", "event", numeric=False)
    flags = int_arg(flag, "flag", 0, 2**32 - 1)
    return _create_event(out, flags)


@rt_api
def aclrtCreateEvent(event: object) -> int:
    """Create an event in the current context (flag RT_EVENT_DEFAULT, 0x0E)."""
    return _create_event(out_arg(event, "aclrtCreateEvent", "event", numeric=False), RT_EVENT_DEFAULT)


def event_arg(event: object, func: str, rt_fn: str, name: str = "event") -> Event:
    if is_null_handle(event):
        raise ApiError(PARAM, acl_null(func, name))
    return event_handle(event, rt_fn)


@rt_api
def aclrtDestroyEvent(event: object) -> int:
    """Destroy an event (no current context is needed)."""
    ev = event_arg(event, "aclrtDestroyEvent", "rtEventDestroy")
    ev.destroyed = True
    RT.events.discard(ev)
    return E.ACL_SUCCESS


def _device_only(ev: Event, desc: str, rt_fn: str) -> None:
    """An ACL_EVENT_DEVICE_USE_ONLY (RT_EVENT_MC2) event cannot be used from the host (107000)."""
    if ev.flags & _RT_EVENT_MC2:
        raise ApiError(
            RT_PARAM,
            (
                "EE1006",
                f"{desc} failed. Parameter evt.eventFlag_ value {ev.flags} is not supported. Reason: Device-only "
                "events can be called only on the device.",
            ),
            fb_invalid(rt_fn),
        )


def _record_event(event: object, stream: object, api: str, rt_fn: str) -> int:
    ev = event_arg(event, api, rt_fn)
    st = stream_handle(stream, rt_fn)
    _device_only(ev, "Event recording", rt_fn)
    ctx = need_context(rt_fn)
    target = st or ctx.default_stream
    own_stream(target, ctx, "Event recording", rt_fn)

    def run() -> None:
        ev.timestamp_ns = now_ns()

    check_stopped(ctx)
    if capturing(target) and not ev.new_mode and ev.flags != _RT_EVENT_EXTERNAL:
        # ApiImpl::EventRecord: an event of aclrtCreateEvent(WithFlag) cannot be captured (a WARN,
        # passed on by rtEventRecord's NOLOG: no report, no last error)
        return E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    cap = target.capture
    into_capture = isinstance(cap, Capture) and capturing(target) and cap.update is None
    if not into_capture:
        # hasRecord_: a record into a capture records the capture's own event (CaptureEventRecord)
        ev.ever_recorded = True
    taken = record_event_op(target, TASK_EVENT_RECORD, ev)
    if into_capture and taken:
        # the runtime's captureEvent_: it stays (a later plain record keeps it) until the capture ends
        ev.captured = cap
    if taken:
        return E.ACL_SUCCESS  # recorded into the model: each replay records the event
    ev.timestamp_ns = None
    ev.stream = target
    ev.task = record = Task(target, "record event", run)
    RT.policy.submit(target, record)
    _lease(ev, record)
    return E.ACL_SUCCESS


@rt_api
def aclrtRecordEvent(event: object, stream: object) -> int:
    """Record the event at the current end of the stream's queue (a stream of the current context)."""
    return _record_event(event, stream, "aclrtRecordEvent", "rtEventRecord")


def in_capture(ev: Event) -> bool:
    """The runtime's ``IsCapturing()``: the event's latest record went into a capture still going on."""
    cap = ev.captured
    # Event::IsCapturing is false for an EXTERNAL event whatever its records (event_capture.cc),
    # and once the capture's model is no longer capturing (ExitCaptureNotify)
    return (
        cap is not None
        and cap.stream.capture is cap
        and cap.model.state == "capturing"
        and ev.flags != _RT_EVENT_EXTERNAL
    )


def _refuse_captured(ev: Event, desc: str, which: str = "Event (event_id={})") -> None:
    """ApiErrorDecorator's refusal of an event recorded in an ongoing capture (107028, EE1016)."""
    if in_capture(ev):
        raise refused(
            E.ACL_ERROR_RT_EVENT_CAPTURED, desc, f"{which.format(ev.ident)} during the capture stage is not supported"
        )


def _sync_event(ev: Event) -> int:
    if ev.flags == _RT_EVENT_EXTERNAL:
        return E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT  # "The external event does not support synchronization."
    _refuse_captured(ev, "Event synchronization")
    check_failed(ev.context)  # ApiImpl::EventSynchronize: the event's context's CheckStatus, before the wait
    if ev.task is not None and ev.stream is not None:
        drain(ev.stream, ev.task)
        sanitizer.ordered(ev.stream, ev.task.seq)  # the work recorded before the event, not after
    return E.ACL_SUCCESS


@rt_api
def aclrtSynchronizeEvent(event: object) -> int:
    """Block until the stream has reached the event (an unrecorded event returns at once). No
    current context is needed."""
    return _sync_event(event_arg(event, "aclrtSynchronizeEvent", "rtEventSynchronize"))


@rt_api
def aclrtSynchronizeEventWithTimeout(event: object, timeout: int) -> int:
    """As aclrtSynchronizeEvent; timeout < -1 or 0 gives 107000 (the emulator never times out)."""
    rt_fn = "rtEventSynchronizeWithTimeout"
    t = int_arg(timeout, "timeout", -(2**31), 2**31 - 1)
    if t < -1:
        raise ApiError(RT_PARAM, acl_value("aclrtSynchronizeEventWithTimeout", t, "timeout", "[-1, INT_MAX]"))
    ev = event_arg(event, "aclrtSynchronizeEventWithTimeout", rt_fn)
    if t == 0:
        raise ApiError(RT_PARAM, rt_value("Event synchronization", t, "timeout", TIMEOUT_EXPECT), fb_invalid(rt_fn))
    return _sync_event(ev)


@rt_api
def aclrtQueryEventStatus(event: object, status: object) -> int:
    """COMPLETE once the stream has passed the event (or, for an event of
    aclrtCreateEventExWithFlag, before any record); a pending event reports NOT_READY and the
    device makes progress, so polling terminates. An ACL_EVENT_EXTERNAL event: 207000, silently."""
    if is_null_handle(event):
        raise ApiError(PARAM, acl_null("aclrtQueryEventStatus", "event"))
    out = out_arg(status, "aclrtQueryEventStatus", "status")
    ev = event_handle(event, "rtEventQueryStatus")
    if ev.flags == _RT_EVENT_EXTERNAL:
        return E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT  # ApiImplEvent::EventQueryStatus: a WARN only
    _refuse_captured(ev, "Event status query")
    check_failed(ev.context)  # ApiImpl::EventQueryStatus: CheckStatus first
    # Event::QueryEventStatus: a new-mode event no record (nor replay) has reached is complete
    if ev.complete or (ev.new_mode and not ev.ever_recorded and ev.task is None):
        store(out, aclrtEventRecordedStatus.ACL_EVENT_RECORDED_STATUS_COMPLETE)
        if ev.complete:
            _seen_complete(ev)
        return E.ACL_SUCCESS
    store(out, aclrtEventRecordedStatus.ACL_EVENT_RECORDED_STATUS_NOT_READY)
    if ev.task is not None and ev.stream is not None and RT.policy.name != "thread":
        drain(ev.stream, ev.task)
    return E.ACL_SUCCESS


@rt_api
def aclrtEventElapsedTime(ms: object, startEvent: object, endEvent: object) -> int:
    """Milliseconds (float32) between two completed events (an ACL_EVENT_EXTERNAL or IPC event:
    207000, silently)."""
    rt_fn = "rtEventElapsedTime"
    out = out_arg(ms, "aclrtEventElapsedTime", "ms")
    for ev, name in ((startEvent, "startEvent"), (endEvent, "endEvent")):
        if is_null_handle(ev):
            raise ApiError(PARAM, acl_null("aclrtEventElapsedTime", name))
    start = event_handle(startEvent, rt_fn)
    end = event_handle(endEvent, rt_fn)
    _refuse_captured(start, "Computing the elapsed time between two events", "StartEvent {}")
    _refuse_captured(end, "Computing the elapsed time between two events", "EndEvent {}")
    if {start.flags, end.flags} & {_RT_EVENT_EXTERNAL, _RT_EVENT_IPC}:
        return E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT  # ApiImplEvent::EventElapsedTime: WARNs only
    if not (start.recorded and end.recorded):
        raise ApiError(E.ACL_ERROR_RT_INTERNAL_ERROR, fb_inner(rt_fn, "event recorder null"))
    if not (start.complete and end.complete) or start.timestamp_ns is None or end.timestamp_ns is None:
        raise ApiError(E.ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID, fb_inner(rt_fn, "event timestamp invalid"))
    store(out, float(np.float32((end.timestamp_ns - start.timestamp_ns) / 1e6)))
    return E.ACL_SUCCESS


def _never_recorded(rt_fn: str) -> None:
    """``Event::Wait`` of an event no record has reached (not one of aclrtCreateEventExWithFlag,
    which returns at once): 107000. Ascend950's ``DavidEvent`` wait only logs it (event_c.cc),
    so only rtStreamWaitEvent's own report remains."""
    if _soc.current().is_regbase:
        raise ApiError(RT_PARAM, fb_invalid(rt_fn))
    raise ApiError(
        RT_PARAM,
        (
            "EE1018",
            "Waiting for an event failed. Reason: The event has not been recorded. Call rtRecordEvent first to "
            "record the event on a stream.",
        ),
        fb_invalid(rt_fn),
    )


def _wait_failed(target: Stream, david: bool) -> Message:
    """StreamWaitEvent's ERROR_PROC_RETURN_MSG_INNER after a failed capture wait (api_impl.cc:1641,
    Ascend950's api_impl_david.cc:668)."""
    if david:
        return rt_inner(
            f"Capture wait event failed, stream_id={target.ident}.", "StreamWaitEvent", "api_impl_david.cc", 668
        )
    return rt_inner("Capture wait event failed.", "StreamWaitEvent", "api_impl.cc", 1641)


def _capture_wait(target: Stream, ev: Event, rt_fn: str) -> None:
    """The checks of a wait on an event recorded in an ongoing capture (ApiImpl::StreamWaitEvent's
    IsCapturing branch; Ascend950's ApiImplDavid logs inner reports instead), then
    GetCaptureStream: a stream that does not capture joins the event's capture, one that
    captures into another model is refused (107032) and both captures are invalidated."""
    david = _soc.current().is_regbase
    if not supports_capture(target):
        flags = rt_flags_of(target.flags)
        raise ApiError(
            E.ACL_ERROR_RT_INTERNAL_ERROR,
            rt_inner(
                f"stream flag does not support capture to model, flag={flags}, stream_id={target.ident}.",
                "StreamWaitEvent", "api_impl_david.cc", 656,
            )
            if david
            else (
                "EE1011",
                f"Triggering event waiting failed. Value {flags} for parameter stream flag is invalid. Reason: Stream "
                f"(stream_id={target.ident}) does not support the ACL Graph.",
            ),
            fb_inner(rt_fn, "stream invalid"),
        )  # fmt: skip
    if target.is_default:
        raise ApiError(
            E.ACL_ERROR_RT_STREAM_CAPTURE_IMPLICIT,
            rt_inner(
                "A disallowed implicit dependency from default stream.", "StreamWaitEvent", "api_impl_david.cc", 659
            )
            if david
            else (
                "EE1017",
                "Triggering event waiting failed. Parameter stream is invalid. Reason: The default stream "
                f"(stream_id={target.ident}) cannot be used in the ACL Graph.",
            ),
            fb_inner(rt_fn, "a disallowed implicit dependency from default stream"),
        )
    assert ev.captured is not None
    model = ev.captured.model
    cap = target.capture
    if not capturing(target):
        if model.invalid:
            # StreamAddToCaptureModelProc: IsCaptureInvalid → RT_ERROR_MODEL_CAPTURE_STATUS (logged),
            # then GetCaptureStream's and CaptureEventWait's inner reports, the wait's, the wrapper's
            raise ApiError(
                E.ACL_ERROR_RT_INTERNAL_ERROR,
                rt_inner(
                    f"New capture stream failed, stream_id={target.ident}, event_id=[{ev.ident}->{ev.ident}].",
                    "GetCaptureStream", "capture_model_utils.cc", 166,
                ),
                rt_inner(
                    f"Create capture stream failed, stream_id={target.ident}, event_id={ev.ident}, "
                    f"error={_RT_ERROR_MODEL_CAPTURE_STATUS}.",
                    "CaptureWaitEvent" if david else "CaptureEventWait",
                    "api_impl_david_capture_event.cc" if david else "api_impl_capture_event.cc",
                    160 if david else 85,
                ),
                _wait_failed(target, david),
                fb_inner(rt_fn, "model status error"),
            )  # fmt: skip
        join_capture(target, model)
        return
    assert isinstance(cap, Capture)
    if cap.model is not model:
        model.invalid = cap.model.invalid = True  # TerminateCapture(evt, stm)
        raise ApiError(
            E.ACL_ERROR_STREAM_CAPTURE_CONFLICT,
            (
                "EE1016",
                f"Triggering event waiting in capture mode failed. Reason: The model (model_id={model.ident}) where "
                f"the event record task is located is inconsistent with the model (stream_id={target.ident}, "
                f"model_id={cap.model.ident}) where the event wait task is located.",
            ),
            _wait_failed(target, david),
            fb_inner(rt_fn, "stream begin capture conflict"),
        )


def _stream_wait_event(stream: object, event: object, api: str, rt_fn: str) -> int:
    if is_null_handle(event):
        raise ApiError(PARAM, acl_null(api, "event"))
    st = stream_handle(stream, rt_fn)
    ev = event_handle(event, rt_fn)
    _device_only(ev, "Triggering event waiting", rt_fn)
    if not ev.flags & _RT_EVENT_WAITABLE:
        # ApiErrorDecorator::StreamWaitEvent: COND_RETURN_WARN(evt->IsEventWithoutWaitTask(), ...), passed on
        # by rtStreamWaitEvent's COND_RETURN_WITH_NOLOG: nothing reported or kept as the last error
        return E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    ctx = need_context(rt_fn)
    target = st or ctx.default_stream
    own_stream(target, ctx, "Triggering stream event waiting", rt_fn)
    check_stopped(ctx)
    if in_capture(ev):
        _capture_wait(target, ev, rt_fn)  # the stream joins the capture if it does not capture
    elif capturing(target) and not ev.new_mode and ev.flags != _RT_EVENT_EXTERNAL:
        # ApiImpl::StreamWaitEvent: on a capturing stream, an event of aclrtCreateEvent(WithFlag) not
        # recorded in the capture is refused with a WARN, passed on by rtStreamWaitEvent's NOLOG
        return E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    elif capturing(target) and ev.new_mode and ev.ever_recorded:
        # an Ex event recorded outside a capture (HasRecord; replays record the capture's own
        # event): the wait would have no record in the model (RT_ERROR_STREAM_CAPTURE_ISOLATION)
        raise ApiError(
            E.ACL_ERROR_RT_CAPTURE_DEPENDENCY,
            (
                "EE1016",
                "Triggering event waiting failed. Reason: The event wait task is not supported during model "
                "capture because the corresponding event record task is not in the current model. To wait for an "
                "event outside the model, see the usage of ACL_EVENT_WAIT_EXTERNAL of the "
                "aclrtStreamWaitEventWithFlag API in the API reference.",
            ),
            fb_inner(
                rt_fn, "in the model capture scenario, the event wait task has no corresponding event record task"
            ),
        )
    if not ev.ever_recorded and not ev.new_mode and not ev.flags & (_RT_EVENT_SYNC_NS | _RT_EVENT_EXTERNAL):
        _never_recorded(rt_fn)
    if record_event_op(target, TASK_EVENT_WAIT, ev):
        return E.ACL_SUCCESS  # captured: each replay waits for the event's latest record
    if ev.task is None or ev.stream is None:
        return E.ACL_SUCCESS
    waited_task, waited_stream = ev.task, ev.stream
    pending = not waited_task.done

    def run() -> None:
        if waited_stream is target:
            return
        try:
            RT.policy.drain(waited_stream, waited_task)
        except CycleError as e:
            raise TaskFault(E.ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, f"stream wait would never finish: {e}") from None

    wait = submit(target, "wait event", run)
    if waited_stream is not target:
        sanitizer.note_wait(target, wait.seq, waited_stream, waited_task.seq)
        if pending:
            _bind_wait(ev, waited_task, wait)
    return E.ACL_SUCCESS


@rt_api
def aclrtStreamWaitEvent(stream: object, event: object) -> int:
    """Make later work on the stream (one of the current context) wait until the event completes."""
    return _stream_wait_event(stream, event, "aclrtStreamWaitEvent", "rtStreamWaitEvent")


@rt_api
def aclrtRecordEventWithFlag(event: object, stream: object, flag: int) -> int:
    """ACL_EVENT_RECORD_DEFAULT: aclrtRecordEvent. ACL_EVENT_RECORD_EXTERNAL records for a
    captured graph, which the emulator does not capture: 207000 without a report."""
    api = "aclrtRecordEventWithFlag"
    if is_null_handle(event):
        raise ApiError(PARAM, acl_null(api, "event"))
    f = int_arg(flag, "flag", 0, 2**32 - 1)
    if f not in (0, 1):
        raise ApiError(PARAM, acl_value(api, f, "flag", "ACL_EVENT_RECORD_DEFAULT or ACL_EVENT_RECORD_EXTERNAL"))
    if f == 0:
        return _record_event(event, stream, api, "rtEventRecord")
    ev = event_handle(event, "rtEventRecordWithFlag")
    st = stream_handle(stream, "rtEventRecordWithFlag")
    if st is not None and record_event_op(st, TASK_EVENT_RECORD, ev):
        return E.ACL_SUCCESS
    return E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT


@rt_api
def aclrtStreamWaitEventWithFlag(stream: object, event: object, timeout: int, flag: int) -> int:
    """ACL_EVENT_WAIT_DEFAULT: aclrtStreamWaitEvent. ACL_EVENT_WAIT_EXTERNAL (graph capture) is
    207000 without a report."""
    api = "aclrtStreamWaitEventWithFlag"
    if is_null_handle(event):
        raise ApiError(PARAM, acl_null(api, "event"))
    f = int_arg(flag, "flag", 0, 2**32 - 1)
    t = int_arg(timeout, "timeout", 0, 2**32 - 1)
    if f not in (0, 1):
        raise ApiError(PARAM, acl_value(api, f, "flag", "ACL_EVENT_WAIT_DEFAULT or ACL_EVENT_WAIT_EXTERNAL"))
    if f == 1 and t != 0:
        raise ApiError(PARAM, acl_value(api, t, "timeout", "0 when flag is ACL_EVENT_WAIT_EXTERNAL"))
    if f == 0:
        return _stream_wait_event(stream, event, api, "rtStreamWaitEventWithFlag")
    st = stream_handle(stream, "rtStreamWaitEventWithFlag")
    ev = event_handle(event, "rtStreamWaitEventWithFlag")
    if st is not None and record_event_op(st, TASK_EVENT_WAIT, ev):
        return E.ACL_SUCCESS
    return E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT


# -- timestamps, reset, the Ex flag and queries -------------------------------------------------


@rt_api
def aclrtEventGetTimestamp(event: object, timestamp: object) -> int:
    """When the stream reached the event's latest record, in microseconds since the device
    started (here: since the runtime was set up). Record, synchronize, then ask."""
    rt_fn = "rtEventGetTimeStamp"
    out = out_arg(timestamp, "aclrtEventGetTimestamp", "timestamp")
    if is_null_handle(event):
        raise ApiError(PARAM, acl_null("aclrtEventGetTimestamp", "event"))
    ev = event_handle(event, rt_fn)
    if ev.flags in (_RT_EVENT_EXTERNAL, _RT_EVENT_IPC):
        return E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT  # refused without a report
    _refuse_captured(ev, "Obtaining the event execution end time", "Event {}")
    if not ev.recorded:
        raise ApiError(E.ACL_ERROR_RT_INTERNAL_ERROR, fb_inner(rt_fn, "event recorder null"))
    if not ev.complete or ev.timestamp_ns is None:
        raise ApiError(E.ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID, fb_inner(rt_fn, "event timestamp invalid"))
    store(out, max(0, ev.timestamp_ns - RT.start_ns) // 1000)
    return E.ACL_SUCCESS


_RT_EVENT_IPC = 0x40
_RT_EVENT_SYNC_NS = 0x1  # RT_EVENT_DDSYNC_NS: ACL_EVENT_SYNC
_RT_EVENT_WAITABLE = _RT_EVENT_SYNC_NS | 0x4 | _RT_EVENT_EXTERNAL | _RT_EVENT_IPC  # events with a wait task


@rt_api
def aclrtResetEvent(event: object, stream: object) -> int:
    """Queue a reset on the stream: when it runs, the event is back to not recorded. Events
    made with ACL_EVENT_TIME_LINE alone (no wait task), IPC events and events of
    aclrtCreateEventExWithFlag are refused without a report (207000), as in CANN. On Ascend950 an
    event of aclrtCreateEvent is not reset at all (its hardware reset is a no-op there)."""
    rt_fn = "rtEventReset"
    ev = event_arg(event, "aclrtResetEvent", rt_fn)
    st = stream_handle(stream, rt_fn)
    _device_only(ev, "Event reset", rt_fn)
    if ev.flags & _RT_EVENT_IPC or not ev.flags & _RT_EVENT_WAITABLE:
        return E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    ctx = need_context(rt_fn)
    target = st or ctx.default_stream
    if ev.new_mode:
        return E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    if _soc.current().is_regbase and ev.flags == RT_EVENT_DEFAULT:
        # ApiImplDavid::EventReset: an aclrtCreateEvent event is a hardware event, whose reset is a
        # no-op (before the stream's context is checked); on a stream bound to a model, 207000
        bound = getattr(target.capture, "bound", False)
        return E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT if bound else E.ACL_SUCCESS
    own_stream(target, ctx, "Event reset", rt_fn)
    if capturing(target) and not in_capture(ev) and ev.flags != _RT_EVENT_EXTERNAL:
        return E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT  # ApiImpl::EventReset: a WARN, rtEventReset's NOLOG
    check_stopped(ctx)

    def run() -> None:
        ev.task = None
        ev.stream = None
        ev.timestamp_ns = None

    if record_event_op(target, TASK_EVENT_RESET, ev):
        return E.ACL_SUCCESS
    submit(target, "reset event", run)
    return E.ACL_SUCCESS


@rt_api
def aclrtCreateEventExWithFlag(event: object, flag: int) -> int:
    """As aclrtCreateEventWithFlag, for an event of the runtime's "new mode" (aclrtResetEvent
    refuses it)."""
    out = out_arg(event, "aclrtCreateEventExWithFlag", "event", numeric=False)
    flags = int_arg(flag, "flag", 0, 2**32 - 1)
    code = _create_event(out, flags, "rtEventCreateExWithFlag")
    ev = getattr(out, "value", None)
    if isinstance(ev, Event):
        ev.new_mode = True
    return code


@rt_api
def aclrtGetEventId(event: object, eventId: object) -> int:
    """The event's number (IPC events: 207000)."""
    if is_null_handle(event):
        raise ApiError(PARAM, acl_null("aclrtGetEventId", "event"))
    out = out_arg(eventId, "aclrtGetEventId", "eventId")
    ev = event_handle(event, "rtGetEventID")
    if ev.flags & _RT_EVENT_IPC:
        return E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT  # a WARN, then rtGetEventID's NOLOG: no last error either
    store(out, ev.ident)
    return E.ACL_SUCCESS


@rt_api
def aclrtQueryEvent(event: object, status: object) -> int:
    """(Deprecated) ACL_EVENT_STATUS_COMPLETE (0) once the stream passed the event, else
    NOT_READY (1); a never-recorded event is complete. Events of aclrtCreateEventExWithFlag,
    ACL_EVENT_EXTERNAL and IPC events: 207000, silently."""
    if is_null_handle(event):
        raise ApiError(PARAM, acl_null("aclrtQueryEvent", "event"))
    out = out_arg(status, "aclrtQueryEvent", "status")
    ev = event_handle(event, "rtEventQuery")
    if ev.new_mode or ev.flags in (_RT_EVENT_EXTERNAL, _RT_EVENT_IPC):
        return E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT  # ApiImplEvent::EventQuery: WARNs only
    _refuse_captured(ev, "Event query")
    check_failed(ev.context)  # ApiImpl::EventQuery: CheckStatus first
    done = ev.task is None or ev.complete
    store(out, aclrtEventStatus.ACL_EVENT_STATUS_COMPLETE if done else aclrtEventStatus.ACL_EVENT_STATUS_NOT_READY)
    if not done:
        _progress(ev)
    else:
        _seen_complete(ev)
    return E.ACL_SUCCESS


def _seen_complete(ev: Event) -> None:
    """A query showed the host that the stream passed the event: the work before it is ordered."""
    if ev.task is not None and ev.stream is not None:
        sanitizer.ordered(ev.stream, ev.task.seq)


@rt_api
def aclrtQueryEventWaitStatus(event: object, status: object) -> int:
    """ACL_EVENT_WAIT_STATUS_COMPLETE (0) once a wait on the event would not block, else NOT_READY
    (events of aclrtCreateEventExWithFlag, ACL_EVENT_EXTERNAL and IPC events: 207000, silently)."""
    if is_null_handle(event):
        raise ApiError(PARAM, acl_null("aclrtQueryEventWaitStatus", "event"))
    out = out_arg(status, "aclrtQueryEventWaitStatus", "status")
    ev = event_handle(event, "rtEventQueryWaitStatus")
    if ev.new_mode or ev.flags in (_RT_EVENT_EXTERNAL, _RT_EVENT_IPC):
        return E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT  # ApiImplEvent::EventQueryWaitStatus: WARNs only
    current = RT.current_context()
    if current is not None:  # EventQueryWaitStatus: the current context's failure
        check_failed(current)
    done = ev.task is None or ev.complete
    store(
        out,
        aclrtEventWaitStatus.ACL_EVENT_WAIT_STATUS_COMPLETE
        if done
        else aclrtEventWaitStatus.ACL_EVENT_WAIT_STATUS_NOT_READY,
    )
    if not done:
        _progress(ev)
    return E.ACL_SUCCESS


def _progress(ev: Event) -> None:
    """A query of pending work lets the device make progress (polling loops terminate)."""
    if ev.task is not None and ev.stream is not None and RT.policy.name != "thread":
        drain(ev.stream, ev.task)


@rt_api
def aclrtStreamWaitEventWithTimeout(stream: object, event: object, timeout: int) -> int:
    """aclrtStreamWaitEvent with a timeout in ms (>= 0; the emulator's waits do not time out)."""
    t = int_arg(timeout, "timeout", -(2**31), 2**31 - 1)
    if t < 0:
        raise ApiError(RT_PARAM, acl_value("aclrtStreamWaitEventWithTimeout", t, "timeout", "[0, INT_MAX]"))
    return _stream_wait_event(stream, event, "aclrtStreamWaitEventWithTimeout", "rtsEventWait")


__all__ = [
    "aclrtCreateEvent",
    "aclrtCreateEventExWithFlag",
    "aclrtCreateEventWithFlag",
    "aclrtDestroyEvent",
    "aclrtEventElapsedTime",
    "aclrtEventGetTimestamp",
    "aclrtGetEventId",
    "aclrtQueryEvent",
    "aclrtQueryEventStatus",
    "aclrtQueryEventWaitStatus",
    "aclrtRecordEvent",
    "aclrtRecordEventWithFlag",
    "aclrtResetEvent",
    "aclrtStreamWaitEvent",
    "aclrtStreamWaitEventWithFlag",
    "aclrtStreamWaitEventWithTimeout",
    "aclrtSynchronizeEvent",
    "aclrtSynchronizeEventWithTimeout",
]
