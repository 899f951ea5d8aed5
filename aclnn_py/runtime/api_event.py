"""The events and notifies chapter of ``acl_rt.h``: events that record, time and wait; notifies
that one stream records and another waits for.
"""

from __future__ import annotations

import numpy as np

from .._capi import ApiError
from .._ref import store
from ._checks import (
    PARAM,
    RT_PARAM,
    TIMEOUT_EXPECT,
    E,
    acl_null,
    acl_value,
    drain,
    event_handle,
    fb_inner,
    fb_invalid,
    int_arg,
    is_null_handle,
    need_context,
    out_arg,
    own_stream,
    rt_api,
    rt_value,
    stream_handle,
    submit,
)
from .device import RT
from .enums import aclrtEventRecordedStatus
from .memory import call_site
from .stream import CycleError, Event, Task, TaskFault, now_ns

# ---------------------------------------------------------------------------------------------
# events
# ---------------------------------------------------------------------------------------------

RT_EVENT_DEFAULT = 0x0E  # RT_EVENT_DDSYNC | RT_EVENT_TIME_LINE | RT_EVENT_STREAM_MARK: aclrtCreateEvent's flag
_RT_EVENT_FLAG_MAX = 0x3F
_RT_EVENT_MC2, _RT_EVENT_EXTERNAL = 0x10, 0x20  # ACL_EVENT_DEVICE_USE_ONLY, ACL_EVENT_EXTERNAL
_EVENT_FLAG_EXPECT = (
    "an OR combination of RT_EVENT_DDSYNC_NS(0x1U), RT_EVENT_STREAM_MARK(0x2U), RT_EVENT_DDSYNC(0x4U), and "
    "RT_EVENT_TIME_LINE(0x8U); or RT_EVENT_MC2(0x10U) or RT_EVENT_EXTERNAL(0x20U) used alone"
)


def _create_event(out: object, flags: int) -> int:
    """``rtEventCreateWithFlag``: the flag checks come before the context."""
    rt_fn = "rtEventCreateWithFlag"
    if flags & _RT_EVENT_FLAG_MAX == 0 or flags > _RT_EVENT_FLAG_MAX:
        raise ApiError(RT_PARAM, rt_value("Event creation", flags, "flag", _EVENT_FLAG_EXPECT), fb_invalid(rt_fn))
    for alone in (_RT_EVENT_MC2, _RT_EVENT_EXTERNAL):
        if flags & alone and flags & ~alone:
            raise ApiError(
                RT_PARAM,
                (
                    "EE1006",
                    f"Event creation failed. Parameter flag value {flags} is not supported. Reason: "
                    "RT_EVENT_MC2(0x10U) and RT_EVENT_EXTERNAL(0x20U) do not support OR combination with other flags.",
                ),
                fb_invalid(rt_fn),
            )
    ctx = need_context(rt_fn)
    ev = Event(ctx, flags, call_site())
    RT.events.add(ev)
    store(out, ev)
    return E.ACL_SUCCESS


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


def _event_arg(event: object, func: str, rt_fn: str, name: str = "event") -> Event:
    if is_null_handle(event):
        raise ApiError(PARAM, acl_null(func, name))
    return event_handle(event, rt_fn)


@rt_api
def aclrtDestroyEvent(event: object) -> int:
    """Destroy an event (no current context is needed)."""
    ev = _event_arg(event, "aclrtDestroyEvent", "rtEventDestroy")
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


@rt_api
def aclrtRecordEvent(event: object, stream: object) -> int:
    """Record the event at the current end of the stream's queue (a stream of the current context)."""
    rt_fn = "rtEventRecord"
    ev = _event_arg(event, "aclrtRecordEvent", rt_fn)
    st = stream_handle(stream, rt_fn)
    _device_only(ev, "Event recording", rt_fn)
    ctx = need_context(rt_fn)
    target = st or ctx.default_stream
    own_stream(target, ctx, "Event recording", rt_fn)

    def run() -> None:
        ev.timestamp_ns = now_ns()

    ev.timestamp_ns = None
    ev.stream = target
    ev.task = Task(target, "record event", run)
    RT.policy.submit(target, ev.task)
    return E.ACL_SUCCESS


def _sync_event(ev: Event) -> int:
    if ev.flags == _RT_EVENT_EXTERNAL:
        return E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT  # "The external event does not support synchronization."
    if ev.task is not None and ev.stream is not None:
        drain(ev.stream, ev.task)
    return E.ACL_SUCCESS


@rt_api
def aclrtSynchronizeEvent(event: object) -> int:
    """Block until the stream has reached the event (an unrecorded event returns at once). No
    current context is needed."""
    return _sync_event(_event_arg(event, "aclrtSynchronizeEvent", "rtEventSynchronize"))


@rt_api
def aclrtSynchronizeEventWithTimeout(event: object, timeout: int) -> int:
    """As aclrtSynchronizeEvent; timeout < -1 or 0 gives 107000 (the emulator never times out)."""
    rt_fn = "rtEventSynchronizeWithTimeout"
    t = int_arg(timeout, "timeout", -(2**31), 2**31 - 1)
    if t < -1:
        raise ApiError(RT_PARAM, acl_value("aclrtSynchronizeEventWithTimeout", t, "timeout", "[-1, INT_MAX]"))
    ev = _event_arg(event, "aclrtSynchronizeEventWithTimeout", rt_fn)
    if t == 0:
        raise ApiError(RT_PARAM, rt_value("Event synchronization", t, "timeout", TIMEOUT_EXPECT), fb_invalid(rt_fn))
    return _sync_event(ev)


@rt_api
def aclrtQueryEventStatus(event: object, status: object) -> int:
    """COMPLETE once the stream has passed the event; a pending event reports NOT_READY and the
    device makes progress, so polling terminates."""
    if is_null_handle(event):
        raise ApiError(PARAM, acl_null("aclrtQueryEventStatus", "event"))
    out = out_arg(status, "aclrtQueryEventStatus", "status")
    ev = event_handle(event, "rtEventQueryStatus")
    if ev.complete:
        store(out, aclrtEventRecordedStatus.ACL_EVENT_RECORDED_STATUS_COMPLETE)
        return E.ACL_SUCCESS
    store(out, aclrtEventRecordedStatus.ACL_EVENT_RECORDED_STATUS_NOT_READY)
    if ev.task is not None and ev.stream is not None and RT.policy.name != "thread":
        drain(ev.stream, ev.task)
    return E.ACL_SUCCESS


@rt_api
def aclrtEventElapsedTime(ms: object, startEvent: object, endEvent: object) -> int:
    """Milliseconds (float32) between two completed events."""
    rt_fn = "rtEventElapsedTime"
    out = out_arg(ms, "aclrtEventElapsedTime", "ms")
    for ev, name in ((startEvent, "startEvent"), (endEvent, "endEvent")):
        if is_null_handle(ev):
            raise ApiError(PARAM, acl_null("aclrtEventElapsedTime", name))
    start = event_handle(startEvent, rt_fn)
    end = event_handle(endEvent, rt_fn)
    if not (start.recorded and end.recorded):
        raise ApiError(E.ACL_ERROR_RT_INTERNAL_ERROR, fb_inner(rt_fn, "event recorder null"))
    if not (start.complete and end.complete) or start.timestamp_ns is None or end.timestamp_ns is None:
        raise ApiError(E.ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID, fb_inner(rt_fn, "event timestamp invalid"))
    store(out, float(np.float32((end.timestamp_ns - start.timestamp_ns) / 1e6)))
    return E.ACL_SUCCESS


@rt_api
def aclrtStreamWaitEvent(stream: object, event: object) -> int:
    """Make later work on the stream (one of the current context) wait until the event completes."""
    rt_fn = "rtStreamWaitEvent"
    if is_null_handle(event):
        raise ApiError(PARAM, acl_null("aclrtStreamWaitEvent", "event"))
    st = stream_handle(stream, rt_fn)
    ev = event_handle(event, rt_fn)
    _device_only(ev, "Triggering event waiting", rt_fn)
    ctx = need_context(rt_fn)
    target = st or ctx.default_stream
    own_stream(target, ctx, "Triggering stream event waiting", rt_fn)
    if ev.task is None or ev.stream is None:
        return E.ACL_SUCCESS
    waited_task, waited_stream = ev.task, ev.stream

    def run() -> None:
        if waited_stream is target:
            return
        try:
            RT.policy.drain(waited_stream, waited_task)
        except CycleError as e:
            raise TaskFault(E.ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, f"stream wait would never finish: {e}") from None

    submit(target, "wait event", run)
    return E.ACL_SUCCESS
