"""The streams chapter of ``acl_rt.h``: creation, destruction, synchronisation, queries, the
failure mode and the stream-config handle.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable

from .. import soc as _soc
from .._capi import ApiError, c_api, describe
from .._ref import store
from . import _rt_features, sanitizer
from . import stream as stream_mod
from ._checks import (
    ACL_CALL,
    INTERNAL,
    PARAM,
    TIMEOUT_EXPECT,
    E,
    Message,
    acl_inner,
    acl_null,
    acl_value,
    check_failed,
    check_stopped,
    cur_stream,
    discard_queue,
    drain,
    emu,
    fb_inner,
    fb_invalid,
    fb_unsupported,
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
    stream_error,
    stream_handle,
    submit,
    unrecorded,
)
from ._model_ri_checks import refuse_if_capturing, refused  # a capturing stream refuses synchronize, query, destroy
from .api_device_query import stream_state_changed
from .device import RT
from .enums import aclrtStreamStatus
from .memory import call_site
from .model_ri import model_stream
from .stream import FAULT_HOOKS, Stream, Task, TaskFault, stream_released

# ---------------------------------------------------------------------------------------------
# streams
# ---------------------------------------------------------------------------------------------

RT_STREAM_LEAST_PRIORITY, RT_STREAM_GREATEST_PRIORITY = 7, 0  # base_info.hpp:168-169
ACL_RT_STREAM_STATE_CREATE_POST, ACL_RT_STREAM_STATE_DESTROY_PRE = 1, 2  # aclrtStreamState


def clamp_priority(priority: int) -> int:
    """The runtime keeps a stream's priority as an int32 clamped to [0, 7] (0xFFFFFFFF is -1: 0)."""
    signed = priority - 2**32 if priority >= 2**31 else priority
    return min(max(signed, RT_STREAM_GREATEST_PRIORITY), RT_STREAM_LEAST_PRIORITY)


# aclrtCreateStreamWithConfig maps the ACL flags it knows to the runtime's (others are dropped).
_STREAM_FLAGS = {0x1: 0x200, 0x2: 0x400, 0x4: 0x01, 0x8: 0x04, 0x10: 0x08, 0x20: 0x800}
_RT_STREAM_HUGE, _RT_STREAM_CP_PROCESS_USE, _RT_STREAM_ACSQ_LOCK = 0x04, 0x800, 0x2000
_RT_STREAM_AICPU, RT_STREAM_FAST_LAUNCH = 0x08, 0x200


def rt_flags_of(flags: int) -> int:
    """The runtime's flags of a stream created with these ACL flags."""
    return sum(rt for acl, rt in _STREAM_FLAGS.items() if flags & acl)


# StreamFlagIsSupportCapture: RT_STREAM_AICPU (ACL_STREAM_CPU_SCHEDULE) and RT_STREAM_CP_PROCESS_USE
# (ACL_STREAM_DEVICE_USE_ONLY) streams cannot take part in a capture (capture_adapt_v100.cc);
# Ascend950's (capture_adapt_v200.cc) refuses RT_STREAM_PERSISTENT ones too
NO_CAPTURE_RT_FLAGS = (0x08, 0x800)
_RT_STREAM_PERSISTENT = 0x01


def runtime_flags(st: Stream) -> int:
    """The runtime's flags of the stream (``Stream::Flags()``): those of its ACL flags (a capture's
    model streams carry GetCaptureStreamFlag's, RT_STREAM_PERSISTENT on Ascend950: model_ri.capture_stream)."""
    return rt_flags_of(st.flags)


def supports_capture(st: Stream) -> bool:
    """Whether a stream's flags let it capture (or join a capture)."""
    rt = rt_flags_of(st.flags)
    refused = NO_CAPTURE_RT_FLAGS + ((_RT_STREAM_PERSISTENT,) if _soc.current().is_regbase else ())
    return not any(rt & f == f for f in refused)


def _create_stream(out: object, flags: int, priority: int = 0) -> int:
    rt_flags = rt_flags_of(flags)
    if rt_flags & _RT_STREAM_HUGE and not _rt_features.has("RT_FEATURE_STREAM_HUGE_DEPTH"):
        # FEATURE_NOT_SUPPORT: rtStreamCreateWithFlags' COND_RETURN_WITH_NOLOG adds nothing and keeps no last error
        raise unrecorded(
            ApiError(
                E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                (
                    "EE1006",
                    f"Checking stream flags failed. Parameter flags value {rt_flags} is not supported. Reason: The "
                    "current SoC supports only streams with a normal number of tasks and does not support huge "
                    "streams.",
                ),
            )
        )
    if rt_flags & _RT_STREAM_CP_PROCESS_USE and (rt_flags | _RT_STREAM_ACSQ_LOCK) != (
        _RT_STREAM_ACSQ_LOCK | _RT_STREAM_CP_PROCESS_USE
    ):
        raise ApiError(
            E.ACL_ERROR_RT_PARAM_INVALID,
            (
                "EE1006",
                f"Checking stream flags failed. Parameter flags value {rt_flags} is not supported. Reason: The flag "
                "RT_STREAM_CP_PROCESS_USE(0x800U) must be used together with RT_STREAM_ACSQ_LOCK(0x2000U).",
            ),
            fb_invalid("rtStreamCreateWithFlags"),
        )
    ctx = need_context("rtStreamCreateWithFlags")
    with RT.lock:
        dev = ctx.device
        soc = _soc.current()
        if dev.stream_count() >= soc.max_streams:
            raise ApiError(
                E.ACL_ERROR_RT_NO_STREAM_RESOURCE,
                emu(
                    f"stream creation: device {dev.ident} already has {soc.max_streams} streams, the most "
                    f"{soc.family} offers (default streams included); destroy the streams you no longer use."
                ),
            )
        s = Stream(ctx, False, flags, call_site())
        s.priority = priority
        ctx.streams.append(s)
    store(out, s)
    _tell_stream_state(s, ACL_RT_STREAM_STATE_CREATE_POST)
    return E.ACL_SUCCESS


@rt_api
def aclrtCreateStreamWithConfig(stream: object, priority: int, flag: int) -> int:
    """Create a stream in the current context (the priority is clamped and otherwise ignored)."""
    out = out_arg(stream, "aclrtCreateStreamWithConfig", "stream", numeric=False)
    prio = int_arg(priority, "priority", 0, 2**32 - 1)
    flags = int_arg(flag, "flag", 0, 2**32 - 1)
    return _create_stream(out, flags, clamp_priority(prio))


@rt_api
def aclrtCreateStream(stream: object) -> int:
    """Create a stream in the current context."""
    return _create_stream(out_arg(stream, "aclrtCreateStream", "stream", numeric=False), 0)


def _tell_stream_state(stream: Stream, state: int) -> None:
    """The aclrtRegStreamStateCallback callbacks."""
    stream_state_changed(stream, state)


def _destroy_stream(stream: object, api: str, rt_fn: str, force: bool) -> int:
    """aclrtDestroyStream waits for the stream's tasks; the forced variant drops them unrun."""
    if is_null_handle(stream):
        raise ApiError(E.ACL_ERROR_INVALID_PARAM, acl_null(api, "stream"))
    st = stream_handle(stream, rt_fn)
    assert st is not None
    refuse_if_capturing(st, "Stream destruction", rt_fn)  # ApiErrorDecorator::StreamDestroy, before the impl's context
    ctx = need_context(rt_fn)
    own_stream(st, ctx, "Stream destruction", rt_fn)
    if st.is_default:
        raise ApiError(
            E.ACL_ERROR_RT_PARAM_INVALID,
            emu(
                f"{api}: {st!r} is a context's default stream; it goes with its context "
                f"(aclrtResetDevice, aclrtDestroyContext), not by {api}."
            ),
        )
    bound_to = model_stream(st) if st.capture is not None else None
    if bound_to is not None:  # Context::TearDownOwnedStream: the stream stays
        model_id = bound_to.ident
        raise ApiError(
            E.ACL_ERROR_RT_STREAM_MODEL,
            rt_inner(
                f"Failed to tear down stream because stream is bound, stream_id={st.ident}, "
                f"model_id={model_id}, retCode=0x7030004.",
                "TearDownOwnedStream",
                "context.cc",
                1050,
            ),
            fb_inner(rt_fn, "the relationship between the model and stream is incorrect."),
        )
    _tell_stream_state(st, ACL_RT_STREAM_STATE_DESTROY_PRE)
    code = 0
    if force:
        discard_queue(st)
    else:
        sanitizer.check_pending_destroy(st, api)
        try:
            drain(st)
            stream_error(st)
        except ApiError as e:
            code = e.report()
    sanitizer.check_stream_release(st, api)
    with RT.lock:
        st.destroyed = True
        RT.policy.shutdown(st)
        if st in st.context.streams:
            st.context.streams.remove(st)
    stream_released(st)
    return code or E.ACL_SUCCESS


@rt_api
def aclrtDestroyStream(stream: object) -> int:
    """Wait for the stream's tasks, then destroy it. The stream must belong to the current context."""
    return _destroy_stream(stream, "aclrtDestroyStream", "rtStreamDestroy", force=False)


@rt_api
def aclrtDestroyStreamForce(stream: object) -> int:
    """Destroy the stream at once: tasks still queued are dropped, not waited for (CANN's
    documentation of aclrtDestroyStreamForce). The stream must belong to the current context."""
    return _destroy_stream(stream, "aclrtDestroyStreamForce", "rtStreamDestroyForce", force=True)


def _sync_stream(stream: object, rt_fn: str, timeout: int = -1) -> int:
    # a live Stream passes stream_handle as it is (the usual call: no call for it)
    st = stream if type(stream) is Stream and not stream.destroyed else stream_handle(stream, rt_fn)
    if timeout == 0:
        raise ApiError(
            E.ACL_ERROR_RT_PARAM_INVALID,
            rt_value("Synchronizing a stream", timeout, "timeout", TIMEOUT_EXPECT),
            fb_invalid(rt_fn),
        )
    refuse_if_capturing(st, "Synchronizing a stream", rt_fn)  # the decorator's check, before the impl's context
    if st is not None and not_host_synchronized(st):
        let_run(st)  # the decorator returns at once: no wait, no report, no context needed
        return E.ACL_SUCCESS
    ctx = need_context(rt_fn)
    s = st or ctx.default_stream  # a stream of another context is synchronized too
    if st is None:
        refuse_if_capturing(s, "Synchronizing a stream", rt_fn)
    # ApiImpl::StreamSynchronize: CheckContextStatus before the wait (api_impl.cc:1729-1731); the
    # failure it replays (PopContextErrMsg) is the failed task's report when this stream holds it
    failure = s.context.failure
    if failure is not None and s.error is failure:
        stream_error(s)
    check_failed(s.context)
    drain(s)
    sanitizer.ordered(s)
    stream_error(s)
    return E.ACL_SUCCESS


@rt_api
def aclrtSynchronizeStream(stream: object) -> int:
    """Block until every task queued on the stream has finished; report a failed task's status.
    In a context stopped on failure, every later synchronize returns that failure. A stream
    created ACL_STREAM_PERSISTENT, ACL_STREAM_CPU_SCHEDULE or ACL_STREAM_DEVICE_USE_ONLY is not
    waited for: 0 at once, its failures unreported (CANN: "returns success directly")."""
    return _sync_stream(stream, "rtStreamSynchronize")


@rt_api
def aclrtSynchronizeStreamWithTimeout(stream: object, timeout: int) -> int:
    """As aclrtSynchronizeStream; timeout < -1 or == 0 gives 107000 (the emulator never times out)."""
    t = int_arg(timeout, "timeout", -(2**31), 2**31 - 1)
    if t < -1:
        raise ApiError(
            E.ACL_ERROR_RT_PARAM_INVALID,
            acl_inner("the timeout of synchronize stream is invalid", ACL_CALL),
            acl_value("aclrtSynchronizeStreamWithTimeout", t, "timeout", "[-1, INT_MAX]"),
        )
    return _sync_stream(stream, "rtStreamSynchronizeWithTimeout", t)


@rt_api
def aclrtStreamQuery(stream: object, status: object) -> int:
    """COMPLETE if nothing is queued; otherwise NOT_READY — and the device makes progress, so a
    polling loop sees COMPLETE on a later query. In a context stopped on failure: that failure.
    A stream not synchronized by the host (see aclrtSynchronizeStream) is COMPLETE, whatever it
    still has to run (CANN: the status "has no business meaning")."""
    out = out_arg(status, "aclrtStreamQuery", "status")
    st = stream_handle(stream, "rtStreamQuery")
    refuse_if_capturing(st, "Querying a stream", "rtStreamQuery")  # the decorator's check, before the impl's context
    if st is not None and not_host_synchronized(st):
        store(out, aclrtStreamStatus.ACL_STREAM_STATUS_COMPLETE)  # rtStreamQuery's RT_ERROR_NONE
        let_run(st)
        return E.ACL_SUCCESS
    ctx = need_context("rtStreamQuery")
    s = st or ctx.default_stream  # a stream of another context is queried too
    if st is None:
        refuse_if_capturing(s, "Querying a stream", "rtStreamQuery")
    check_failed(s.context)  # ApiImpl::StreamQuery: CheckContextStatus, before the stream's tasks
    if s.pending:
        store(out, aclrtStreamStatus.ACL_STREAM_STATUS_NOT_READY)
        if RT.policy.name != "thread":
            drain(s)
    else:
        store(out, aclrtStreamStatus.ACL_STREAM_STATUS_COMPLETE)
        sanitizer.ordered(s)  # the host saw the stream finish: its work is ordered before what follows
    return E.ACL_SUCCESS


# -- the failure mode and stream queries ----------------------------------------------------------


@rt_api
def aclrtSetStreamFailureMode(stream: object, mode: int) -> int:
    """ACL_CONTINUE_ON_FAILURE (0) or ACL_STOP_ON_FAILURE (1; other bits are ignored). STOP
    applies to the whole context (``Stream::SetFailMode``): after a task of any of its streams
    fails, no later task runs and later submissions and synchronizations return that failure.
    The stream whose task failed is then in abort mode: once set to STOP it refuses both modes
    (EE1016, 207000) until aclrtStreamAbort."""
    m = int_arg(mode, "mode", 0, 2**64 - 1)
    return set_failure_mode(stream_handle(stream, "rtStreamSetMode"), m, "rtStreamSetMode")


# Stream::EnterFailureAbort (stream.cc:4335-4352): a stream whose task fails while its context is in
# stop mode (any of its streams was set to ACL_STOP_ON_FAILURE: Context::SetCtxMode) enters
# ABORT_ON_FAILURE, which Stream::SetFailureMode never overwrites; ResClear (aclrtStreamAbort's
# Context::StreamAbort / Stream::StreamAbort) puts the mode set back in force (failureMode_ = GetMode()).
ABORT_ON_FAILURE = 2
_ABORTED: weakref.WeakSet[Stream] = weakref.WeakSet()


def aborted(st: Stream) -> bool:
    """Whether the stream is in ABORT_ON_FAILURE (``GetFailureMode() == ABORT_ON_FAILURE``)."""
    return st in _ABORTED


def leave_failure_abort(st: Stream) -> None:
    """``failureMode_ = GetMode()``: the stream's mode set is in force again."""
    _ABORTED.discard(st)


def res_clear(st: Stream) -> None:
    """``Stream::ResClear`` (stream.cc:4619-4676; its ResetStreamConstruct, :4565-4606), which
    aclrtStreamAbort and aclrtDeviceTaskAbort end in: the stream leaves abort mode and forgets its
    failure (``errCode_``, ``drvErr_`` = 0), so a later synchronize does not report it."""
    leave_failure_abort(st)
    with st.lock:
        st.error = None


def _enter_failure_abort(stream: Stream, task: Task, fault: TaskFault) -> None:
    """A FAULT_HOOKS entry: a stream whose task fails in a stopped context enters abort (every
    such failure: the device's exception report calls EnterFailureAbort per failed task). The tasks
    a stopped context does not run (``fault.dropped``) fail with its failure but enter nothing."""
    if stream.context.stop_on_failure:  # (a task the stopped context drops unrun reaches no hook)
        _ABORTED.add(stream)


FAULT_HOOKS.append(_enter_failure_abort)


def _mode_refusal(rt_fn: str, *messages: Message) -> ApiError:
    """RT_ERROR_FEATURE_NOT_SUPPORT out of ``StreamSetMode``: rtStreamSetMode returns it with
    ``COND_RETURN_WITH_NOLOG`` (no report of its own, no last error: api_c_stream.cc:302);
    rtsStreamSetAttribute's ``ERROR_RETURN_WITH_EXT_ERRCODE`` adds its EE1001 and keeps it as the
    last error (api_c_stream.cc:496)."""
    if rt_fn == "rtStreamSetMode":
        return unrecorded(ApiError(E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, *messages))
    return ApiError(E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, *messages, fb_unsupported(rt_fn))


def set_failure_mode(st: Stream | None, m: int, rt_fn: str) -> int:
    """``ApiErrorDecorator::StreamSetMode`` after the handle guard (``rt_fn`` names the rt function
    that called it: rtStreamSetMode, or rtsStreamSetAttribute for ACL_STREAM_ATTR_FAILURE_MODE):
    GetCurStream (api_error.cc:1602-1604), then ``ApiImpl::StreamSetMode``, whose
    ``CurrentContext()`` does make an aclInit default device current (api_impl.cc:1994-1995)."""
    desc = "Setting the error handling mode of a stream"
    st = cur_stream(st, desc, rt_fn)
    rt_flags = rt_flags_of(st.flags)
    if rt_flags & _RT_STREAM_CP_PROCESS_USE:  # ACL_STREAM_DEVICE_USE_ONLY: the decorator's COND_RETURN_WARN
        raise _mode_refusal(rt_fn)
    ctx = need_context(rt_fn)
    bound_to = model_stream(st)
    if bound_to is not None and not rt_flags & _RT_STREAM_AICPU:
        # the stream's bind flag (api_impl.cc:2002-2008): a stream bound to a model, or a model stream
        # of a capture (Model::BindStream / AddStream; an AI CPU stream gets no bind flag)
        raise _mode_refusal(
            rt_fn,
            (
                "EE1017",
                f"{desc} failed. Parameter stream is invalid. Reason: Stream (stream_id={st.ident}) has been bound "
                f"to a model (model_id={bound_to.ident}). This operation only supports single-operator streams.",
            ),
        )
    fail_mode = m & 0x1
    # GetFailureMode(): the mode in force (ABORT once the stream failed in a stopped context);
    # st.failure_mode is the mode set (GetMode(), what the FAILURE_MODE attribute reads)
    in_force = ABORT_ON_FAILURE if aborted(st) else st.failure_mode
    if fail_mode == in_force:
        return E.ACL_SUCCESS
    if in_force == 1 and fail_mode == 0:
        raise _mode_refusal(
            rt_fn,
            (
                "EE1016",
                f"{desc} failed. Reason: Changing stream {st.ident} from stop mode to continue mode is not supported.",
            ),
        )
    if in_force == ABORT_ON_FAILURE and st.failure_mode == 1:  # api_impl.cc:2022-2027, whichever mode is asked
        raise _mode_refusal(
            rt_fn,
            (
                "EE1016",
                f"{desc} failed. Reason: Changing stream {st.ident} from abort mode to stop mode is not supported.",
            ),
        )
    own_stream(st, ctx, desc, rt_fn)
    st.failure_mode = fail_mode  # an aborted stream stays aborted (Stream::SetFailureMode keeps ABORT)
    st.context.stop_on_failure = True
    return E.ACL_SUCCESS


@rt_api
def aclrtStreamGetId(stream: object, streamId: object) -> int:
    """The stream's number (a NULL stream: the current context's default stream)."""
    rt_fn = "rtGetStreamId"
    out = out_arg(streamId, "aclrtStreamGetId", "streamId")
    st = stream_handle(stream, rt_fn)
    if st is None:
        st = need_context(rt_fn).default_stream
    store(out, st.ident)
    return E.ACL_SUCCESS


@rt_api
def aclrtGetThreadLastTaskId(taskId: object) -> int:
    """The id of the last task this thread submitted to any stream (0 before the first): the
    number an exception callback reports as the task id."""
    out = out_arg(taskId, "aclrtGetThreadLastTaskId", "taskId")
    store(out, getattr(stream_mod._THREAD, "last_task", 0) & 0xFFFFFFFF)
    return E.ACL_SUCCESS


@rt_api
def aclrtStreamGetPriority(stream: object, priority: object) -> int:
    """The priority the stream was created with, clamped to [0, 7] (needs a current context)."""
    rt_fn = "rtStreamGetPriority"
    out = out_arg(priority, "aclrtStreamGetPriority", "priority")
    st = stream_handle(stream, rt_fn)
    ctx = need_context(rt_fn)
    store(out, (st or ctx.default_stream).priority)
    return E.ACL_SUCCESS


# aclrtStreamGetFlags maps the runtime's flags back to ACL's (stream.cpp:205-224): the inverse
# of the creation mapping; other runtime bits are dropped.
_ACL_FLAGS_OF_RT = {rt: acl for acl, rt in _STREAM_FLAGS.items()}


@rt_api
def aclrtStreamGetFlags(stream: object, flags: object) -> int:
    """The ACL flags the stream was created with (those CANN maps back; needs a current context)."""
    rt_fn = "rtStreamGetFlags"
    out = out_arg(flags, "aclrtStreamGetFlags", "flags")
    st = stream_handle(stream, rt_fn)
    ctx = need_context(rt_fn)
    s = st or ctx.default_stream
    store(out, sum(acl for acl in _STREAM_FLAGS if s.flags & acl))
    return E.ACL_SUCCESS


@rt_api
def aclrtGetStreamAvailableNum(streamCount: object) -> int:
    """How many more streams the current device can create."""
    out = out_arg(streamCount, "aclrtGetStreamAvailableNum", "streamCount")
    ctx = need_context("rtsStreamGetAvailableNum")
    store(out, max(0, _soc.current().max_streams - ctx.device.stream_count()))
    return E.ACL_SUCCESS


@rt_api
def aclrtLaunchHostFunc(stream: object, fn: Callable[[object], None] | None, args: object) -> int:
    """Queue a host function on the stream: it runs with ``args`` when the stream reaches it (the
    runtime's own callback thread in CANN; here whichever thread runs the stream's work)."""
    rt_fn = "rtsLaunchHostFunc"
    st = stream_handle(stream, rt_fn)
    if fn is None:
        raise ApiError(
            E.ACL_ERROR_RT_PARAM_INVALID,
            (
                "EE1004",
                "Adding a host callback function to the stream task queue failed because callBackFunc cannot be a "
                "NULL pointer.",
            ),
            fb_invalid(rt_fn),
        )
    if not callable(fn):
        raise ApiError(
            E.ACL_ERROR_RT_PARAM_INVALID, emu(f"aclrtLaunchHostFunc: fn must be callable, got {describe(fn)}.")
        )
    callbacks = loaded_chapter("aclnn_py.runtime.api_callback")
    if st is not None and callbacks is not None and callbacks.subscribed_by_user(st):
        # ApiErrorDecorator::LaunchHostFunc: a stream the user subscribed (aclrtSubscribeReport)
        raise refused(
            E.ACL_ERROR_RT_STREAM_SUBSCRIBE,
            "Adding a host callback function to the stream task queue",
            f"The stream (stream_id={st.ident}) is in the host callback process and cannot call rtsLaunchHostFunc",
            fb_inner(rt_fn, "subscribe stream error"),  # rtsLaunchHostFunc's ERROR_RETURN_WITH_EXT_ERRCODE
        )
    ctx = need_context(rt_fn)
    target = st or ctx.default_stream
    own_stream(target, ctx, "Adding a host callback function to the stream task queue", rt_fn)
    check_stopped(ctx)
    target.host_funcs = True  # the runtime subscribes the stream to its own callback thread
    submit(target, "host function", lambda: fn(args))
    return E.ACL_SUCCESS


# -- the stream-config handle (acl_rt.h:286-298, 2695-2743) ----------------------------------------


class aclrtStreamConfigHandle:
    """``aclrtStreamConfigHandle``: the fields aclrtCreateStreamV2 reads."""

    __slots__ = ("destroyed", "flag", "priority", "workSize", "workptr")

    def __init__(self) -> None:
        self.workptr = 0
        self.workSize = 0
        self.flag = 0
        self.priority = 0
        self.destroyed = False

    def __repr__(self) -> str:
        return f"<aclrtStreamConfigHandle flag={self.flag} priority={self.priority}>"


# attr: (field, the value's C size in bytes)
_CONFIG_FIELDS = {0: ("workptr", 8), 1: ("workSize", 8), 2: ("flag", 8), 3: ("priority", 4)}


@c_api(INTERNAL, handle=True)
def aclrtCreateStreamConfigHandle() -> aclrtStreamConfigHandle:
    """A zeroed stream-config handle."""
    return aclrtStreamConfigHandle()


def _config_handle(handle: object, api: str) -> aclrtStreamConfigHandle | None:
    if handle is None:
        return None
    if not isinstance(handle, aclrtStreamConfigHandle) or handle.destroyed:
        raise ApiError(PARAM, emu(f"{api}: handle is {describe(handle)}, not a live aclrtStreamConfigHandle."))
    return handle


@rt_api
def aclrtDestroyStreamConfigHandle(handle: object) -> int:
    """Free the handle (NULL: 100000, with a log only, as the lite library does)."""
    h = _config_handle(handle, "aclrtDestroyStreamConfigHandle")
    if h is None:
        return PARAM
    h.destroyed = True
    return E.ACL_SUCCESS


def _config_value(attrValue: object, size: int) -> int | None:
    """The value behind ``attrValue``: an int, or ``size`` little-endian bytes."""
    if isinstance(attrValue, bool):
        return None
    if isinstance(attrValue, int):
        return attrValue
    if isinstance(attrValue, (bytes, bytearray, memoryview)):
        raw = bytes(attrValue)[:size]
        return int.from_bytes(raw, "little") if len(raw) == size else None
    return None


@rt_api
def aclrtSetStreamConfigOpt(handle: object, attr: int, attrValue: object, valueSize: int) -> int:
    """Set one field. As CANN's implementation (src/acl/aclrt_c/runtime/stream.c): a NULL handle
    or value, an attribute >= 4, a valueSize other than the field's C size (8 for the pointer,
    size and flag — a size_t —, 4 for the priority) or a priority > 7 gives 100000 with no report."""
    h = _config_handle(handle, "aclrtSetStreamConfigOpt")
    if h is None or attrValue is None:
        return PARAM
    a = int_arg(attr, "attr", -(2**31), 2**31 - 1)
    n = int_arg(valueSize, "valueSize", 0, 2**64 - 1)
    if a not in _CONFIG_FIELDS:
        return PARAM
    field, size = _CONFIG_FIELDS[a]
    value = _config_value(attrValue, size)
    if n != size or value is None or not 0 <= value < 2 ** (8 * size):
        return PARAM
    if a == 3 and value > RT_STREAM_LEAST_PRIORITY:
        return PARAM
    setattr(h, field, value)
    return E.ACL_SUCCESS


@rt_api
def aclrtCreateStreamV2(stream: object, handle: object) -> int:
    """Create a stream with the handle's priority. Only the lite library (src/acl/aclrt_c/runtime/
    stream.c) has this function: it copies the handle into an rtStreamConfigHandle for the compact
    runtime's rtStreamCreateWithConfig (src/runtime_compact/feature/src/stream.c), whose stream
    keeps the priority (its SQ's qos) and the work area but no flag: the handle's flag is ignored
    (a plain stream, no flag check). A NULL stream gives 100000 without a report."""
    if stream is None:
        return PARAM
    out = out_arg(stream, "aclrtCreateStreamV2", "stream", numeric=False)
    h = _config_handle(handle, "aclrtCreateStreamV2")
    return _create_stream(out, 0, clamp_priority(h.priority if h is not None else 0))


# ApiErrorDecorator::StreamSynchronize / StreamQuery (api_error.cc:1451-1458, 1487-1494) return
# RT_ERROR_NONE at once for a stream with one of these runtime flags (RT_STREAM_PERSISTENT,
# RT_STREAM_AICPU, RT_STREAM_CP_PROCESS_USE), after their capture check and before ApiImpl: the ACL
# flags that give them
_NO_HOST_SYNC = {0x4: "ACL_STREAM_PERSISTENT", 0x10: "ACL_STREAM_CPU_SCHEDULE", 0x20: "ACL_STREAM_DEVICE_USE_ONLY"}
_RT_NO_HOST_SYNC = rt_flags_of(sum(_NO_HOST_SYNC))


def unsynchronized_flag(st: Stream) -> str | None:
    """The ACL flag for which the host does not synchronize the stream (:func:`not_host_synchronized`),
    or None."""
    if not not_host_synchronized(st):
        return None
    return next(name for bit, name in _NO_HOST_SYNC.items() if st.flags & bit)


def not_host_synchronized(st: Stream) -> bool:
    """Whether the decorators answer a synchronize or a query of the stream without looking at it:
    the host neither waits for its work nor hears of its failures (nor of its context's), and the
    work is not ordered before what the host does next (the sanitizer's synccheck sees that)."""
    return bool(runtime_flags(st) & _RT_NO_HOST_SYNC)


def not_device_synchronized(st: Stream) -> bool:
    """``Context::IsStreamNotSync`` (context.cc:1195-1204): the streams aclrtSynchronizeDevice skips,
    those of :func:`not_host_synchronized` on the chips with RT_FEATURE_MODEL_STREAM_DOT_SYNC
    (Ascend950), an RT_STREAM_CP_PROCESS_USE (ACL_STREAM_DEVICE_USE_ONLY) one on the others."""
    mask = _RT_NO_HOST_SYNC if _rt_features.has("RT_FEATURE_MODEL_STREAM_DOT_SYNC") else _RT_STREAM_CP_PROCESS_USE
    return bool(runtime_flags(st) & mask)


def let_run(st: Stream) -> None:
    """The device runs a stream nobody waits for: under the deferred and eager policies the work
    it can run now runs here (up to a task that waits for something unmet; never blocking), under
    the thread policy its worker runs it. Nothing is reported or ordered for the host."""
    policy = RT.policy
    if isinstance(policy, stream_mod.DeferredPolicy):
        policy.run_ready(st)


# -- abort and stop -------------------------------------------------------------------------------


def _abortable(st: Stream, desc: str, rt_fn: str) -> None:
    """The refusals after the stream's context check, RT_ERROR_STREAM_INVALID (507000, the rt
    wrapper's FuncErrorReason "stream invalid"): Ascend950's ApiImplDavid::StreamAbort refuses a
    persistent stream (api_impl_david.cc:1955-1958; it has no bind-flag check, and every model
    stream is persistent there), the others' Context::StreamAbort a stream bound to a model or a
    capture's model stream (the bind flag, context.cc:2786-2790)."""
    if impl_david():
        if runtime_flags(st) & _RT_STREAM_PERSISTENT:
            raise ApiError(
                E.ACL_ERROR_RT_INTERNAL_ERROR,
                (
                    "EE1006",
                    "Stream aborting failed. Aborting persistent stream is not supported. Reason: The stream flag "
                    "contains ACL_STREAM_PERSISTENT(0x4) and the stream cannot be aborted.",
                ),
                fb_inner(rt_fn, "stream invalid"),
            )
        return
    bound_to = model_stream(st)
    if bound_to is not None:
        raise refused(
            E.ACL_ERROR_RT_INTERNAL_ERROR,
            desc,
            f"Aborting stream (stream_id={st.ident}) that is already bound to a model (model_id={bound_to.ident}) "
            "is not supported",
            fb_inner(rt_fn, "stream invalid"),
        )


@rt_api
def aclrtStreamAbort(stream: object) -> int:
    """Discard every task still queued on the stream (a NULL stream: the default stream on the
    chips that resolve it); the stream stays usable. It leaves abort mode and forgets a failure no
    synchronize reported yet (``Stream::ResClear``); a context stopped on failure stays stopped.
    A stream bound to a model (Ascend950: a persistent stream) is refused (507000)."""
    rt_fn = "rtStreamAbort"
    # ApiErrorDecorator::StreamAbort's GetCurStream (api_error.cc:6602-6603), then ApiImpl's (or
    # ApiImplDavid's) CurrentContext(), which makes an aclInit default device current
    desc = "Aborting tasks in a stream"
    st = cur_stream(stream_handle(stream, rt_fn), desc, rt_fn)
    ctx = need_context(rt_fn)
    own_stream(st, ctx, desc, rt_fn)
    _abortable(st, desc, rt_fn)
    if st.context.device.task_abort and (impl_david() or not runtime_flags(st) & _RT_STREAM_CP_PROCESS_USE):
        # the device's task abort is under way (its callbacks run): success, nothing done, abort
        # mode kept. Context::StreamAbort (context.cc:2795-2801) spares a DEVICE_USE_ONLY stream;
        # Ascend950's Stream::StreamAbort (stream.cc:1195-1199) returns for every stream
        return E.ACL_SUCCESS
    discard_queue(st)
    res_clear(st)  # Context::StreamAbort / Stream::StreamAbort end in ResClear
    return E.ACL_SUCCESS


@rt_api
def aclrtStreamStop(stream: object) -> int:
    """Stop the stream's running work: its queued tasks are discarded."""
    rt_fn = "rtsStreamStop"
    st = stream_handle(stream, rt_fn)
    if st is None:
        raise ApiError(
            E.ACL_ERROR_RT_PARAM_INVALID,
            ("EE1004", "Stopping the running tasks in a stream failed because stm cannot be a NULL pointer."),
            fb_invalid(rt_fn),
        )
    discard_queue(st)
    return E.ACL_SUCCESS


__all__ = [
    "aclrtCreateStream",
    "aclrtCreateStreamConfigHandle",
    "aclrtCreateStreamV2",
    "aclrtCreateStreamWithConfig",
    "aclrtDestroyStream",
    "aclrtDestroyStreamConfigHandle",
    "aclrtDestroyStreamForce",
    "aclrtGetStreamAvailableNum",
    "aclrtGetThreadLastTaskId",
    "aclrtLaunchHostFunc",
    "aclrtSetStreamConfigOpt",
    "aclrtSetStreamFailureMode",
    "aclrtStreamAbort",
    "aclrtStreamConfigHandle",
    "aclrtStreamGetFlags",
    "aclrtStreamGetId",
    "aclrtStreamGetPriority",
    "aclrtStreamQuery",
    "aclrtStreamStop",
    "aclrtSynchronizeStream",
    "aclrtSynchronizeStreamWithTimeout",
]
