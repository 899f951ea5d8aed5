"""What every chapter of the runtime shares: CANN's message builders, argument and handle
checks, the current-context rule, the thread's last error, and the queue helpers.

Each runtime function checks its arguments in the order the current CANN runtime does
(hicann/runtime master, ACL 1.17): the ACL layer first (a null pointer gives 100000 and EH0008,
a bad value EH0007), then the ``rt*`` function it calls: the stream/event handle (107017, two
EE1017 reports), the runtime's own value checks (EE1003 in CANN's wording), the current context
(107002, EE1018), and the stream's context (107003, EE1010). A runtime failure is followed by
the second message the ``rt*`` wrapper adds (``ErrorMessageUtils::FuncErrorReason``): EE1001
``The argument is invalid. Reason: <rtFn> execution failed...``, the EE1017 handle report, or an
EE9999 inner report. Inner reports carry the ``[FUNC:..][FILE:..][LINE:..]`` suffix CANN's error
manager appends.

Where CANN has no check but the emulator must protect its simulated memory (a copy whose kind
contradicts the addresses, one that reaches outside live memory, a bad free, an address the
emulator does not know ...), the emulator keeps its check and reports it under its own id
``aclnn_py``. See ``docs/runtime.md`` for the table of codes and messages.
"""

from __future__ import annotations

import contextlib
import functools
import sys
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any, TypeVar

from .. import soc as _soc
from .._capi import ApiError, as_int, binding_error, c_api, describe, fail
from .._ref import is_out_param
from .._status import aclError
from . import _rt_features
from ._lock_gated import NOT_GATED
from .device import RT, Context
from .stream import CycleError, Event, Stream, Task, finish_unrun

F = TypeVar("F", bound=Callable[..., Any])

E = aclError
INTERNAL = E.ACL_ERROR_INTERNAL_ERROR
PARAM = E.ACL_ERROR_INVALID_PARAM
RT_PARAM = E.ACL_ERROR_RT_PARAM_INVALID
EMU = "aclnn_py"  # the id of the emulator's own reports (checks CANN does not make)

Message = tuple[str, str] | tuple[str, str, None]


# ---------------------------------------------------------------------------------------------
# CANN's messages
# ---------------------------------------------------------------------------------------------

# The [FUNC:][FILE:][LINE:] suffix CANN's error manager appends to an inner report.
ACL_INNER = "[FUNC:ReportInnerError][FILE:log_inner.cpp][LINE:133]"  # ACL_LOG_INNER_ERROR
ACL_CALL = "[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:150]"  # ACL_LOG_CALL_ERROR
FUNC_ERROR_REASON = "[FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:68]"

# ContextManage::ReportContextValidationError (EE1018 "%s failed. Reason: %s.")
NO_CONTEXT = (
    "Context validation failed. Reason: No valid context is bound to the current thread. Call aclrtSetDevice "
    "or aclrtSetCurrentContext to bind a valid context to the current thread before calling this API."
)
TIMEOUT_EXPECT = "greater than or equal to -1 and not equal to 0"


def acl_null(func: str, param: str) -> Message:
    """``ACL_REQUIRES_NOT_NULL_WITH_INPUT_REPORT``: EH0008 (``func`` without its ``Impl``)."""
    return ("EH0008", f"{func} failed because {param} cannot be a NULL pointer.")


def acl_value(func: str, value: object, param: str, expect: str) -> Message:
    """EH0007, the ACL layer's invalid-value report."""
    return (
        "EH0007",
        f"{func} failed because value {value} for parameter {param} is invalid. Expected value: {expect}.",
    )


def acl_reason(func: str, value: object, param: str, reason: str) -> Message:
    """EH0009, the ACL layer's invalid-parameter report with a reason."""
    return ("EH0009", f"{func} failed. Value {value} for parameter {param} is invalid. Reason: {reason}.")


def acl_inner(text: str, suffix: str = ACL_INNER) -> Message:
    """``ACL_LOG_INNER_ERROR`` (or, with ``ACL_CALL``, ``ACL_LOG_CALL_ERROR``): EH9999."""
    return ("EH9999", text + suffix, None)


def rt_value(desc: str, value: object, param: str, expect: str) -> Message:
    """EE1003 of the runtime's checks; ``desc`` is CANN's phrase for the operation."""
    return (
        "EE1003",
        f"{desc} failed because value {value} for parameter {param} is invalid. Expected value: {expect}.",
    )


def rt_inner(text: str, func: str, file: str, line: int) -> Message:
    """An EE9999 inner report of the runtime, with the place that made it."""
    return ("EE9999", f"{text}[FUNC:{func}][FILE:{file}][LINE:{line}]", None)


# The rt* wrapper's second message (FuncErrorReason), by the inner error it returns.
def fb_invalid(rt_fn: str) -> Message:
    return ("EE1001", f"The argument is invalid. Reason: {rt_fn} execution failed.")


def fb_unsupported(rt_fn: str) -> Message:
    """``FuncErrorReason`` of RT_ERROR_FEATURE_NOT_SUPPORT."""
    return ("EE1001", f"The argument is invalid. Reason: {rt_fn} execution failed, the feature is not supported.")


def fb_no_context(rt_fn: str) -> Message:
    return ("EE1001", f"The argument is invalid. Reason: {rt_fn} execution failed, the context is a null pointer.")


def fb_handle(rt_fn: str) -> Message:
    return (
        "EE1017",
        f"{rt_fn} failed. Parameter handle is invalid. Reason: 1. The handle has been destroyed. "
        "2. The handle type is not the expected one.",
    )


def fb_inner(rt_fn: str, reason: str) -> Message:
    return ("EE9999", f"{rt_fn} execution failed, reason={reason}{FUNC_ERROR_REASON}", None)


def negative_device(dev: int, desc: str, rt_fn: str) -> None:
    """A negative device id refused before CheckDeviceIdIsValid (an rts entry's or a decorator's
    own test): 107001 with the EE1003 of ``desc`` (the caller's phrase, or the rts function's name),
    then the wrapper's "device id error"."""
    if dev < 0:
        raise ApiError(
            E.ACL_ERROR_RT_INVALID_DEVICEID,
            rt_value(desc, dev, "devId", "greater than or equal to 0"),
            fb_inner(rt_fn, "device id error"),
        )


def impl_david() -> bool:
    """Whether the chip's runtime implementation is ``ApiImplDavid`` (Ascend950: the v200 build's
    api_impl_creator_c.cc) rather than ``ApiImpl``: several calls check and report differently."""
    return _soc.current().family == "Ascend950"


def check_device_valid(dev: int, inner: str, func: str, line: int, rt_fn: str | None) -> None:
    """``ApiErrorDecorator::CheckDeviceIdIsValid`` (api_error.cc): an id outside the devices is
    107001 with its EE1003 (the id read as the int32 it takes), then the calling decorator's inner
    report ``inner`` (each decorator words it its own way; made at ``func``, api_error.cc ``line``)
    and, when the ``rt_fn`` wrapper adds one, its FuncErrorReason. No ASCEND_RT_VISIBLE_DEVICES:
    a user id is the device id."""
    count = RT.device_count
    if not 0 <= dev < count:
        as_int32 = dev - 2**32 if 2**31 <= dev < 2**32 else dev
        messages = [
            rt_value("Verifying the device ID validity", as_int32, "devId", f"[0, {count})"),
            rt_inner(inner, func, "api_error.cc", line),
        ]
        if rt_fn is not None:
            messages.append(fb_inner(rt_fn, "device id error"))
        raise ApiError(E.ACL_ERROR_RT_INVALID_DEVICEID, *messages)


# acl::GetMemcpyKindDesc (src/acl/utils/cann_info_utils.cpp): how the ACL layer prints an aclrtMemcpyKind
_MEMCPY_KIND_DESCS = (
    "MEMCPY_HOST_TO_HOST(0)", "MEMCPY_HOST_TO_DEVICE(1)", "MEMCPY_DEVICE_TO_HOST(2)", "MEMCPY_DEVICE_TO_DEVICE(3)",
    "MEMCPY_DEFAULT(4)", "MEMCPY_HOST_TO_BUF_TO_DEVICE(5)", "MEMCPY_INNER_DEVICE_TO_DEVICE(6)",
    "MEMCPY_INTER_DEVICE_TO_DEVICE(7)",
)  # fmt: skip


def memcpy_kind_desc(kind: int) -> str:
    """acl::GetMemcpyKindDesc: ``MEMCPY_DEVICE_TO_DEVICE(3)``, ``UNKNOWN(<k>)`` out of range."""
    return _MEMCPY_KIND_DESCS[kind] if 0 <= kind < len(_MEMCPY_KIND_DESCS) else f"UNKNOWN({kind})"


def emu(text: str) -> Message:
    """A report of the emulator's own (not CANN's): id ``aclnn_py``, no title."""
    return (EMU, text, None)


@contextlib.contextmanager
def host_backing(api: str, size: int, what: str = "") -> Iterator[None]:
    """Turn the host's failure to back a simulated allocation of ``size`` bytes (numpy's
    MemoryError) into ACL_ERROR_RT_MEMORY_ALLOCATION with an aclnn_py note."""
    try:
        yield
    except MemoryError:
        raise ApiError(
            E.ACL_ERROR_RT_MEMORY_ALLOCATION, emu(f"{api}: the host cannot back {size} bytes{what}.")
        ) from None


def int_arg(v: object, name: str, lo: int, hi: int) -> int:
    """An integer argument; a non-integer or out-of-range value is the emulator's refusal."""
    return as_int(v, name, E.ACL_ERROR_INVALID_PARAM, lo, hi, eid=EMU)


def out_arg(obj: object, func: str, name: str, numeric: bool = True) -> object:
    """An out-parameter: None is nullptr (100000, EH0008); an object that cannot hold a value too."""
    if obj is None:
        raise ApiError(E.ACL_ERROR_INVALID_PARAM, acl_null(func, name))
    if not is_out_param(obj, numeric):
        holders = "Ref() or a ctypes holder" if numeric else "Ref()"
        raise ApiError(
            E.ACL_ERROR_INVALID_PARAM, emu(f"{func}: {name} must be an out-parameter ({holders}), got {describe(obj)}.")
        )
    return obj


def need_context(rt_fn: str | None = None, *, implicit_default: bool = True) -> Context:
    """The calling thread's current context, or 107002: EE1018, then (when the caller names its
    ``rt*`` function) the wrapper's EE1001. ``implicit_default``: an aclInit ``defaultDevice``
    is made current on the spot (``ApiImpl::CurrentContext()``); the no-argument
    ``Runtime::CurrentContext()`` of a few functions does not do that."""
    ctx = RT.current_context() if implicit_default else RT.thread_context()
    if ctx is None:
        messages: list[Message] = [("EE1018", NO_CONTEXT)]
        if rt_fn is not None:
            messages.append(fb_no_context(rt_fn))
        raise ApiError(E.ACL_ERROR_RT_CONTEXT_NULL, *messages)
    return ctx


def cur_stream(st: Stream | None, desc: str, rt_fn: str, *, stream_null: bool = False) -> Stream:
    """``Runtime::GetCurStream`` (runtime.cc:6017-6025) and the calling decorator's not-null check of
    its ``curStm``: NULL is the current context's default stream only on the chips with a device
    control SQ (RT_FEATURE_DEVICE_CTRL_SQ: Ascend910B, 910_93, 950), and only through the
    no-argument ``Runtime::CurrentContext()`` (the thread's bound context: an aclInit default
    device is never made current). Otherwise NULL stays NULL and the decorator refuses it: EE1018
    when the context was missing, the decorator's EE1004 for ``desc``, then the wrapper's report
    (RT_ERROR_INVALID_VALUE, 107000; ``stream_null``: RT_ERROR_STREAM_NULL, 507000)."""
    if st is not None:
        return st
    ctrl_sq = _rt_features.has("RT_FEATURE_DEVICE_CTRL_SQ")
    ctx = RT.thread_context() if ctrl_sq else None
    if ctx is not None:
        return ctx.default_stream
    missing: list[Message] = [("EE1018", NO_CONTEXT)] if ctrl_sq else []
    refusal: Message = ("EE1004", f"{desc} failed because curStm cannot be a NULL pointer.")
    if stream_null:
        raise ApiError(E.ACL_ERROR_RT_INTERNAL_ERROR, *missing, refusal, fb_inner(rt_fn, "stream pointer null"))
    raise ApiError(E.ACL_ERROR_RT_PARAM_INVALID, *missing, refusal, fb_invalid(rt_fn))


def is_null_handle(obj: object) -> bool:
    return obj is None or (isinstance(obj, int) and not isinstance(obj, bool) and obj == 0)


def bad_object(kind: str, rt_fn: str) -> ApiError:
    """``RT_VALIDATE_AND_UNWRAP_OBJECT`` failed: the handle guard's EE1017, then the wrapper's."""
    return ApiError(
        E.ACL_ERROR_RT_INVALID_HANDLE,
        (
            "EE1017",
            f"Object validation failed. Parameter {kind} is invalid. Reason: 1. The {kind} handle has been "
            f"destroyed. 2. The handle type must be {kind}.",
        ),
        fb_handle(rt_fn),
    )


def stream_handle(stream: object, rt_fn: str) -> Stream | None:
    """A stream argument validated as the rt function's handle guard does (None: the default)."""
    if is_null_handle(stream):
        return None
    if not isinstance(stream, Stream) or stream.destroyed:
        raise bad_object("stream", rt_fn)
    return stream


def event_handle(event: object, rt_fn: str) -> Event:
    if not isinstance(event, Event) or event.destroyed:
        raise bad_object("event", rt_fn)
    return event


def own_stream(st: Stream, ctx: Context, desc: str, rt_fn: str) -> None:
    """``COND_RETURN_AND_MSG_INVALID_CONTEXT_STREAM_WITH_FUNC_DESC``: the stream must belong to
    the current context (107003, EE1010 and the wrapper's inner report)."""
    if st.context is not ctx:
        raise ApiError(
            E.ACL_ERROR_RT_STREAM_CONTEXT,
            (
                "EE1010",
                f"{desc} execution failed because stream does not belong to the current context. Extended "
                f"information: stream_id={st.ident}, stream_ctx={st.context.pointer}, cur_ctx={ctx.pointer}.",
            ),
            fb_inner(rt_fn, "stream not in current context"),
        )


def legacy_bad_handle(kind: str, obj: object) -> ApiError:
    if isinstance(obj, (Stream, Event, Context)) and obj.destroyed:
        reason = f"{obj!r} was already destroyed"
    else:
        reason = f"{type(obj).__name__} object is not an {kind}"
    return fail(E.ACL_ERROR_RT_INVALID_HANDLE, "EE1017", f"The {kind} handle is invalid. Reason: {reason}.")


def resolve_stream(stream: object) -> Stream:
    """A stream argument of a caller outside the runtime (the executor's phase-2 launch): None is
    the current context's default stream; no current context gives 107002, a bad handle 107017.
    (The runtime functions check their streams as their own rt functions do.)"""
    if is_null_handle(stream):
        return need_context().default_stream
    need_context()
    if not isinstance(stream, Stream) or stream.destroyed:
        raise legacy_bad_handle("aclrtStream", stream)
    return stream


def _replayed_report(ctx: Context, failure: tuple[int, str]) -> Message | None:
    """``Context::PopContextErrMsg`` (context.cc:3556-3570), which CheckStatus and CheckTaskSend
    call whenever a failure is stored: the failed task's report, which ``Stream::EnterFailureAbort``
    moved from the recycle thread to the context (PushContextErrMsg, stream.cc:4342-4344 and
    context.cc:3545-3554; GetRawErrorMessages empties that thread's list, error_manager.cc:1069-1075),
    is appended to the reports of the first call that meets the failure (SetRawErrorMessages,
    error_manager.cc:1056-1067) and forgotten: later calls get none. Only a stream with separate
    send and recycle pushes (Stream::IsSeparateSendAndRecycle, stream.cc:4367-4371: a Stars chip, not
    an RT_STREAM_AICPU or CP_PROCESS_USE stream); elsewhere the failed stream's synchronize reports
    its task. The report is pending while that stream still holds the failure (the very tuple)."""
    if not _rt_features.properties().is_stars:
        return None
    from .enums import ACL_STREAM_CPU_SCHEDULE, ACL_STREAM_DEVICE_USE_ONLY

    for st in ctx.all_streams():
        if st.error is failure and not st.flags & (ACL_STREAM_CPU_SCHEDULE | ACL_STREAM_DEVICE_USE_ONLY):
            with st.lock:  # two threads may meet the failure at once: one of them takes the report
                if st.error is not failure:
                    continue
                st.error = None
            return ("EZ9999", failure[1], None)  # as the stream's synchronize would have reported it
    return None


def _stopped(ctx: Context, what: str) -> None:
    failure = ctx.failure  # read once: aclrtDeviceTaskAbort may clear it on another thread
    if failure is not None:
        code, message = failure
        note = emu(f"the context stopped on failure (ACL_STOP_ON_FAILURE) after a task failed ({message}); {what}")
        report = _replayed_report(ctx, failure)
        raise ApiError(code, report, note) if report is not None else ApiError(code, note)


def check_stopped(ctx: Context) -> None:
    """``Context::CheckTaskSend`` (context.cc:2924-2962) at a submission: a context that stopped
    on a failure refuses new work with the failure's code (the first refusal, or synchronize,
    carries the failed task's report: :func:`_replayed_report`)."""
    _stopped(ctx, "it accepts no new work")


def check_failed(ctx: Context) -> None:
    """``Context::CheckStatus`` (context.cc:2889-2922), which a synchronize or a query of the
    context's streams and events makes before it looks at them: once a task failed in stop mode
    (``Stream::EnterFailureAbort`` keeping the failure on the context), each returns that failure
    until aclrtDeviceTaskAbort cleans the device (``SetFailureError(RT_ERROR_NONE)``)."""
    _stopped(ctx, "synchronizing or querying its streams returns that failure until aclrtDeviceTaskAbort")


def stream_error(stream: Stream) -> int:
    """Collect a failed task's status from the stream (reported once, then cleared)."""
    if stream.error is None:
        # Nothing to collect (the common case), read without the lock: an error a worker sets
        # after this read is collected by the next synchronize, as if this one had taken the
        # lock a moment earlier.
        return E.ACL_SUCCESS
    with stream.lock:
        err, stream.error = stream.error, None
    if err is None:
        return E.ACL_SUCCESS
    code, message = err
    raise ApiError(code, ("EZ9999", message, None))  # a device error: no aclnn template title


def drain(stream: Stream, until: Task | None = None) -> None:
    """Run (or wait for) the stream's queued work; a wait cycle fails like a hang would."""
    try:
        RT.policy.drain(stream, until)
    except CycleError as e:
        raise ApiError(
            E.ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
            emu(f"this synchronize would never return ({e}); on hardware it hangs. Remove the wait cycle."),
        ) from None


def discard_queue(st: Stream) -> None:
    """Drop the tasks still queued on the stream without running them (a forced destruction, a
    stream stop or abort, a device task abort; a task a worker thread is running finishes first)."""
    with st.lock:
        queued = [t for t in st.queue if not t.done]
        running = st.worker is not None and bool(queued)
        keep = queued[:1] if running else []
        st.queue.clear()
        st.queue.extend(keep)
    for task in queued[len(keep) :]:
        finish_unrun(task)
    if keep:
        drain(st)


def submit(stream: Stream, label: str, fn: Any) -> Task:
    """Queue ``fn`` on ``stream`` under the active execution policy."""
    task = Task(stream, label, fn)
    RT.policy.submit(stream, task)
    return task


# ---------------------------------------------------------------------------------------------
# the thread's last error (aclrtGetLastError / aclrtPeekAtLastError)
# ---------------------------------------------------------------------------------------------

_RT_CODES = 107000  # the runtime's external codes are 107xxx, 207xxx and 507xxx

#: ``RT_ERROR_INVALID_VALUE`` (internal_error_define.hpp): the inner code the rts layer's messages
#: print as ``retCode=0x7110001`` (ACL_ERROR_RT_PARAM_INVALID, 107000, outside).
RT_ERROR_INVALID_VALUE = 0x07110001


def set_last_error(code: int) -> None:
    """``Runtime::SetGlobalErr``: the calling thread's last runtime error (the newest wins)."""
    RT.tls.last_error = code


def _records(e: ApiError) -> bool:
    """Whether a failure reaches the thread's last error: only failures of the runtime layer do
    (an ``rt*`` wrapper's ``ERROR_RETURN_WITH_EXT_ERRCODE``); ACL-layer refusals (EH reports)
    never reach the runtime, and codes outside the runtime's ranges are not its."""
    if e.code < _RT_CODES or getattr(e, "unrecorded", False):
        return False
    return not e.messages or not e.messages[0][0].startswith("EH")


def unrecorded(e: ApiError) -> ApiError:
    """``e``, marked as a failure the runtime reports but does not keep as the thread's last error
    (an rt wrapper returning ``RT_TRANS_EXT_ERRCODE`` rather than ``GetRtExtErrCodeAndSetGlobalErr``)."""
    e.unrecorded = True  # type: ignore[attr-defined]
    return e


def loaded_chapter(name: str) -> ModuleType | None:
    """The module ``name`` if it is loaded, else None: a chapter that loads on first use
    (runtime.api.LAZY_CHAPTERS) and was never loaded holds no state. A module another thread is
    still importing is already in sys.modules, without its functions yet: not loaded either."""
    module = sys.modules.get(name)
    if module is None or getattr(getattr(module, "__spec__", None), "_initializing", False):
        return None
    return module


# Set by the snapshot chapter when it loads (api_snapshot.wait_if_locked): while the process is
# locked for a snapshot, CANN's rt functions that modify device resources wait
# (GLOBAL_STATE_WAIT_IF_LOCKED); the functions that reach only the others (the queries, the
# synchronizes, the snapshot calls) run on. None until then: no cost for programs that never take
# a snapshot.
SNAPSHOT_GATE: Callable[[str], None] | None = None

#: The name of every function made with :func:`rt_api` (of the chapters loaded so far).
RT_API_NAMES: set[str] = set()


def rt_api(fn: F) -> F:
    """``c_api`` for a runtime function that returns a code, recording the runtime failures it
    raises as the thread's last error. A code a function *returns* (CANN's silent ``NOLOG``
    paths) is not recorded, as in CANN. While the process is locked for a snapshot, the call
    first waits if CANN's does: unless :mod:`._lock_gated` (generated from CANN's source) lists it
    in NOT_GATED, i.e. a function it does not know waits. (On CANN the wait comes when the ACL
    layer reaches the rt function that waits, after its own checks: here before them.)"""
    name = fn.__name__
    RT_API_NAMES.add(name)
    gated = name not in NOT_GATED

    @functools.wraps(fn)
    def recording(*args: Any, **kwargs: Any) -> Any:
        try:
            gate = SNAPSHOT_GATE
            if gated and gate is not None:
                gate(name)
            return fn(*args, **kwargs)
        except ApiError as e:
            if _records(e):
                set_last_error(e.code)
            raise
        except TypeError as e:
            if e.__traceback__ is not None and e.__traceback__.tb_next is None:
                binding_error(e)  # fn's arguments did not bind: its body never started
            raise

    return c_api(INTERNAL)(recording)  # type: ignore[return-value]


def silent(code: int) -> ApiError:
    """A runtime failure with no report (CANN logs a WARN only) that still sets the last error."""
    return ApiError(code)
