"""The model runtime instance chapter of ``acl_rt.h`` (``aclmdlRI*``): stream capture and
replay, models built from bound streams, conditional tasks, stream activation and switching.

The engine is model_ri.py; this module checks the arguments as CANN's ACL layer
(src/acl/aclrt_impl/model_ri.cpp: ``ACL_REQUIRES_NOT_NULL_WITH_INPUT_REPORT``, 100000 and
EH0008) and the runtime's decorators (src/runtime/api/impl/api_error.cc and
src/runtime/feature/aclgraph/api_error_aclgraph.cc: EE1004 null pointers, EE1003 values,
EE1016 capture-state refusals) do, in their order.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Sequence
from typing import Any

from .._capi import ApiError, describe
from .._ref import store
from . import model_ri as M
from . import sanitizer
from ._checks import (
    PARAM,
    RT_PARAM,
    TIMEOUT_EXPECT,
    E,
    acl_null,
    acl_reason,
    bad_object,
    drain,
    emu,
    fb_invalid,
    int_arg,
    is_null_handle,
    need_context,
    out_arg,
    own_stream,
    rt_api,
    rt_value,
    stream_error,
    stream_handle,
)
from .device import RT
from .memory import SPACE, MemoryFault, call_site
from .stream import LIVE_STREAMS, Stream, TaskFault

ACL_MODEL_STREAM_FLAG_HEAD = 0  # RT_MODEL_HEAD_STREAM (rt_model.h)
ACL_MODEL_STREAM_FLAG_DEFAULT = 0x7FFFFFFF  # RT_INVALID_FLAG (rt_external_base.h)

_BEGIN = "Starting capturing tasks delivered to a stream"
_END = "Ending the capture of a stream"
_EXEC_ASYNC = "Asynchronously executing the model running instance"
_EXEC = "Executing the model running instance"
_BIND = "Binding a model running instance to a stream"
_UNBIND = "Unbinding a model running instance from a stream"
_END_GRAPH = "Delivering the EndGraph flag to the stream of a model"
_GRP_BEGIN = "Marking the start of a task group"
_GRP_END = "Marking the end of a task group"
_UPD_BEGIN = "Marking the start of the task to be updated"
_UPD_END = "Marking the end of the task to be updated"
_COND_CREATE = "Conditional handle creation"
_COND_PTR = "Obtaining the device pointer of a conditional handle"
_COND_TASK = "Adding a conditional task to a stream"
_SWITCH = "Switching between streams based on conditions"
_ACTIVE = "Stream activation"


def _rt_null(desc: str, param: str, rt_fn: str) -> ApiError:
    """``NULL_PTR_RETURN_MSG_OUTER_WITH_FUNC_DESC``: 107000, EE1004."""
    return ApiError(RT_PARAM, ("EE1004", f"{desc} failed because {param} cannot be a NULL pointer."), fb_invalid(rt_fn))


def _refused(code: int, desc: str, reason: str) -> ApiError:
    """``COND_RETURN_AND_MSG_OUTER`` with EE1016: ``<desc> failed. Reason: <reason>.``"""
    return ApiError(code, ("EE1016", f"{desc} failed. Reason: {reason}."))


def _captured(st: Stream, desc: str) -> ApiError:
    return _refused(
        E.ACL_ERROR_RT_STREAM_CAPTURED, desc, f"Stream (stream_id={st.ident}) during the capture stage is not supported"
    )


def _model(obj: object, api: str, rt_fn: str, param: str = "modelRI", acl_check: bool = True) -> M.Model:
    """A model argument: nullptr is the ACL layer's EH0008 (or the runtime's EE1004), anything
    else that is not a live model the handle guard's 107017."""
    if is_null_handle(obj):
        if acl_check:
            raise ApiError(PARAM, acl_null(api, param))
        raise _rt_null(api, "mdl", rt_fn)
    if not isinstance(obj, M.Model) or obj.destroyed:
        raise bad_object("model", rt_fn)
    return obj


def _stream_arg(stream: object, api: str, rt_fn: str) -> Stream:
    if is_null_handle(stream):
        raise ApiError(PARAM, acl_null(api, "stream"))
    st = stream_handle(stream, rt_fn)
    assert st is not None
    return st


def _mode_arg(mode: object, desc: str, rt_fn: str) -> int:
    m = int_arg(mode, "mode", -(2**31), 2**31 - 1)
    if not 0 <= m < M.MODE_NONE:
        raise ApiError(RT_PARAM, rt_value(desc, m, "mode", f"[0, {M.MODE_NONE})"), fb_invalid(rt_fn))
    return m


def check_capture_mode(desc: str) -> None:
    """The refusal of an unsafe call while a capture forbids it (``CHECK_CAPTURE_MODE_SUPPORT``:
    107030, EE1016), for the synchronous copies and sets to call first (see docs/runtime.md)."""
    ctx = RT.thread_context()
    if ctx is None:
        return
    why = M.capture_mode_refusal(ctx)
    if why is not None:
        raise ApiError(E.ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT, ("EE1016", f"{desc} failed. Reason: {why}."))


def refuse_if_capturing(stream: Stream | None, desc: str) -> None:
    """The refusal of an operation on a capturing stream (a synchronize, a query, a destroy:
    107027, EE1016 ``<desc> failed. Reason: Stream (stream_id=N) during the capture stage is not
    supported.``), for the stream chapter to call first (see docs/runtime.md)."""
    if stream is not None and M.capturing(stream):
        raise _captured(stream, desc)


# ---------------------------------------------------------------------------------------------
# capture
# ---------------------------------------------------------------------------------------------


def _begin_capture(st: Stream, mode: int, model: M.Model | None, rt_fn: str) -> None:
    ctx = need_context(rt_fn)
    own_stream(st, ctx, "Stream begin capture", rt_fn)
    if st.capture is not None:
        if isinstance(st.capture, M.Capture) and st.capture.bound:
            raise _refused(
                E.ACL_ERROR_RT_STREAM_MODEL, "Stream begin capture", f"Stream (stream_id={st.ident}) is a model stream"
            )
        raise _captured(st, "Stream begin capture")
    if model is None:
        model = M.Model(ctx, "capture")
    target = Stream(ctx, False, 0, call_site())  # the model stream the capture fills
    model.add_stream(target, head=True)
    model.state = "capturing"
    st.capture = M.Capture(model, st, target, mode)


@rt_api
def aclmdlRICaptureBegin(stream: object, mode: int) -> int:
    """Start capturing: the work submitted to ``stream`` is recorded into a new model instead
    of running, until aclmdlRICaptureEnd."""
    api, rt_fn = "aclmdlRICaptureBegin", "rtStreamBeginCapture"
    st = _stream_arg(stream, api, rt_fn)
    m = _mode_arg(mode, _BEGIN, rt_fn)
    _begin_capture(st, m, None, rt_fn)
    return E.ACL_SUCCESS


@rt_api
def aclmdlRICaptureToModelRIBegin(stream: object, modelRI: object, mode: int) -> int:
    """Capture into an existing, still empty sub-model (a branch of aclmdlRIAddCondTask)."""
    api, rt_fn = "aclmdlRICaptureToModelRIBegin", "rtStreamBeginCaptureToModel"
    st = _stream_arg(stream, api, rt_fn)
    mdl = _model(modelRI, api, rt_fn)
    m = _mode_arg(mode, _BEGIN, rt_fn)
    if not mdl.is_sub:
        raise ApiError(
            RT_PARAM,
            (
                "EE1017",
                "Stream begin capture failed. Parameter modelRI is invalid. Reason: The modelRI is not a sub ACL "
                "Graph.",
            ),
        )
    if mdl.state != "empty":
        raise ApiError(
            E.ACL_ERROR_RT_MODEL_CAPTURED,
            (
                "EE1017",
                "rtStreamBeginCaptureToModel failed. Parameter modelRI is invalid. Reason: ModelRI "
                f"(model_id={mdl.ident}) is already captured.",
            ),
        )
    _begin_capture(st, m, mdl, rt_fn)
    return E.ACL_SUCCESS


@rt_api
def aclmdlRICaptureGetInfo(stream: object, status: object, modelRI: object) -> int:
    """Whether the stream captures (ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE or _NONE) and into which model."""
    api = "aclmdlRICaptureGetInfo"
    st = _stream_arg(stream, api, "rtStreamGetCaptureInfo")
    if status is None and modelRI is None:
        raise ApiError(
            PARAM, acl_reason(api, "nullptr/nullptr", "status/modelRI", "both cannot be nullptr at the same time")
        )
    cap = st.capture
    active = isinstance(cap, M.Capture) and not cap.bound and cap.update is None
    if status is not None:
        store(status, 1 if active else 0)
    if modelRI is not None:
        store(modelRI, cap.model if active and isinstance(cap, M.Capture) else None)
    return E.ACL_SUCCESS


@rt_api
def aclmdlRICaptureEnd(stream: object, modelRI: object) -> int:
    """End the capture and hand out the model (the stream runs its work again)."""
    api, rt_fn = "aclmdlRICaptureEnd", "rtStreamEndCapture"
    st = _stream_arg(stream, api, rt_fn)
    cap = st.capture
    if not isinstance(cap, M.Capture) or cap.bound or cap.update is not None:
        raise _refused(
            E.ACL_ERROR_RT_STREAM_NOT_CAPTURED,
            "Stream end capture",
            f"Stream (stream_id={st.ident}) is not in the capture stage",
        )
    if modelRI is None:
        raise _rt_null(_END, "captureMdl", rt_fn)
    out = out_arg(modelRI, api, "modelRI", numeric=False)
    if cap.mode != M.MODE_RELAXED and cap.thread != threading.get_ident():
        raise _refused(
            E.ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD,
            "Stream end capture",
            "The thread that ends the capture is not the thread that began it",
        )
    st.capture = None
    mdl = cap.model
    mdl.state = "ready"
    store(out, mdl)
    return E.ACL_SUCCESS


@rt_api
def aclmdlRICaptureThreadExchangeMode(mode: object) -> int:
    """Swap the calling thread's capture mode with ``*mode`` (the previous one comes back)."""
    api, rt_fn = "aclmdlRICaptureThreadExchangeMode", "rtThreadExchangeCaptureMode"
    if mode is None:
        raise ApiError(PARAM, acl_null(api, "mode"))
    out = out_arg(mode, api, "mode")
    value = getattr(out, "value", out)
    m = int_arg(value, "mode", -(2**31), 2**31 - 1)
    if not 0 <= m < M.MODE_NONE:
        raise ApiError(
            RT_PARAM,
            rt_value("Switching the capture mode of the current thread", m, "mode", f"less than {M.MODE_NONE}"),
            fb_invalid(rt_fn),
        )
    previous, M.THREAD.exchange = M.THREAD.exchange, m
    store(out, previous)
    return E.ACL_SUCCESS


# ---------------------------------------------------------------------------------------------
# task groups and their update
# ---------------------------------------------------------------------------------------------


@rt_api
def aclmdlRICaptureTaskGrpBegin(stream: object) -> int:
    """Open a task group on a capturing stream: the tasks up to TaskGrpEnd can be replaced later."""
    api, rt_fn = "aclmdlRICaptureTaskGrpBegin", "rtsStreamBeginTaskGrp"
    st = _stream_arg(stream, api, rt_fn)
    cap = st.capture
    if not isinstance(cap, M.Capture) or cap.bound or cap.update is not None:
        raise _refused(
            E.ACL_ERROR_RT_STREAM_NOT_CAPTURED, _GRP_BEGIN, f"Stream (stream_id={st.ident}) is not in the capture stage"
        )
    if cap.group is not None:
        raise ApiError(
            E.ACL_ERROR_STREAM_TASK_GROUP_STATUS,
            emu(
                f"{api}: {st!r} already has an open task group ({cap.group!r}); end it with "
                "aclmdlRICaptureTaskGrpEnd first."
            ),
        )
    cap.group = M.TaskGroup(cap.model, cap.target)
    return E.ACL_SUCCESS


@rt_api
def aclmdlRICaptureTaskGrpEnd(stream: object, handle: object) -> int:
    """Close the stream's task group and hand out its handle."""
    api, rt_fn = "aclmdlRICaptureTaskGrpEnd", "rtsStreamEndTaskGrp"
    st = _stream_arg(stream, api, rt_fn)
    if handle is None:
        raise ApiError(PARAM, acl_null(api, "handle"))
    out = out_arg(handle, api, "handle", numeric=False)
    cap = st.capture
    if not isinstance(cap, M.Capture) or cap.bound or cap.update is not None:
        raise _refused(
            E.ACL_ERROR_RT_STREAM_NOT_CAPTURED, _GRP_END, f"Stream (stream_id={st.ident}) is not in the capture stage"
        )
    if cap.group is None:
        raise ApiError(
            E.ACL_ERROR_STREAM_TASK_GROUP_STATUS,
            emu(f"{api}: {st!r} has no open task group (aclmdlRICaptureTaskGrpBegin opens one)."),
        )
    group, cap.group = cap.group, None
    group.closed = True
    store(out, group)
    return E.ACL_SUCCESS


@rt_api
def aclmdlRICaptureTaskUpdateBegin(stream: object, handle: object) -> int:
    """Start recording the replacement of a task group: the work submitted to ``stream`` (not a
    capturing stream) up to TaskUpdateEnd replaces the group's tasks, one for one."""
    api, rt_fn = "aclmdlRICaptureTaskUpdateBegin", "rtsStreamBeginTaskUpdate"
    st = _stream_arg(stream, api, rt_fn)
    if is_null_handle(handle):
        raise ApiError(PARAM, acl_null(api, "handle"))
    if not isinstance(handle, M.TaskGroup) or handle.model.destroyed:
        raise bad_object("taskGrp", rt_fn)
    if M.capturing(st):
        raise _captured(st, _UPD_BEGIN)
    if M.model_stream(st) is not None or st.capture is not None:
        raise _refused(E.ACL_ERROR_RT_STREAM_MODEL, _UPD_BEGIN, "Only single operator stream is supported")
    ctx = need_context(rt_fn)
    own_stream(st, ctx, _UPD_BEGIN, rt_fn)
    cap = M.Capture(handle.model, st, handle.stream, M.MODE_RELAXED)
    cap.update = handle
    st.capture = cap
    return E.ACL_SUCCESS


@rt_api
def aclmdlRICaptureTaskUpdateEnd(stream: object) -> int:
    """Replace the group's tasks with those recorded since TaskUpdateBegin (same number and
    types, else 107040 and the group is left as it was)."""
    api, rt_fn = "aclmdlRICaptureTaskUpdateEnd", "rtsStreamEndTaskUpdate"
    st = _stream_arg(stream, api, rt_fn)
    cap = st.capture
    if not isinstance(cap, M.Capture) or cap.update is None:
        if M.capturing(st):
            raise _captured(st, _UPD_END)
        raise ApiError(
            E.ACL_ERROR_STREAM_TASK_GROUP_STATUS,
            emu(f"{api}: {st!r} is not updating a task group (aclmdlRICaptureTaskUpdateBegin starts that)."),
        )
    st.capture = None
    group, new = cap.update, cap.updates
    old = group.tasks
    if len(new) != len(old) or any(a.type != b.type for a, b in zip(old, new, strict=False)):
        raise ApiError(
            E.ACL_ERROR_RT_MODEL_UPDATE_FAILED,
            emu(
                f"{api}: the update of {group!r} recorded {len(new)} task(s) of types "
                f"{[M.TASK_TYPE_NAMES[t.type] for t in new]}; the group holds {len(old)} of types "
                f"{[M.TASK_TYPE_NAMES[t.type] for t in old]} (an update keeps the number and the types)."
            ),
        )
    for a, b in zip(old, new, strict=True):
        a.replace(b)
    return E.ACL_SUCCESS


# ---------------------------------------------------------------------------------------------
# building from bound streams
# ---------------------------------------------------------------------------------------------


@rt_api
def aclmdlRIBuildBegin(modelRI: object, flag: int) -> int:
    """Create an empty model to bind streams to (aclmdlRIBindStream) and fill."""
    api = "aclmdlRIBuildBegin"
    f = int_arg(flag, "flag", 0, 2**32 - 1)
    if modelRI is None:
        raise ApiError(PARAM, acl_null(api, "modelRI"))
    out = out_arg(modelRI, api, "modelRI", numeric=False)
    ctx = need_context("rtsModelCreate")
    store(out, M.Model(ctx, "build", f))
    return E.ACL_SUCCESS


def _built(mdl: M.Model, desc: str) -> None:
    if mdl.kind == "capture":
        raise _refused(RT_PARAM, desc, "ACL Graph mode is not supported")


@rt_api
def aclmdlRIBindStream(modelRI: object, stream: object, flag: int) -> int:
    """Bind a stream to a model being built: the work submitted to it is recorded into the
    model. ACL_MODEL_STREAM_FLAG_HEAD makes it the stream an execution starts with."""
    api, rt_fn = "aclmdlRIBindStream", "rtsModelBindStream"
    mdl = _model(modelRI, api, rt_fn)
    f = int_arg(flag, "flag", 0, 2**32 - 1)
    ctx = need_context(rt_fn)
    st = stream_handle(stream, rt_fn) or ctx.default_stream
    _built(mdl, _BIND)
    if M.capturing(st):
        raise _captured(st, _BIND)
    own_stream(st, ctx, _BIND, rt_fn)
    if st.capture is not None or M.model_stream(st) is not None:
        raise ApiError(RT_PARAM, emu(f"{api}: {st!r} is already bound to a model."))
    if st.is_default:
        raise ApiError(RT_PARAM, emu(f"{api}: a context's default stream cannot be bound to a model."))
    mdl.add_stream(st, head=f == ACL_MODEL_STREAM_FLAG_HEAD)
    st.capture = M.Capture(mdl, st, st, M.MODE_RELAXED, bound=True)
    return E.ACL_SUCCESS


@rt_api
def aclmdlRIUnbindStream(modelRI: object, stream: object) -> int:
    """Unbind a stream from its model (its recorded tasks leave the model)."""
    api, rt_fn = "aclmdlRIUnbindStream", "rtsModelUnbindStream"
    mdl = _model(modelRI, api, rt_fn)
    ctx = need_context(rt_fn)
    st = stream_handle(stream, rt_fn) or ctx.default_stream
    _built(mdl, _UNBIND)
    if M.capturing(st):
        raise _captured(st, _UNBIND)
    if st not in mdl.streams:
        raise ApiError(RT_PARAM, emu(f"{api}: {st!r} is not bound to {mdl!r}."))
    mdl.remove_stream(st)
    st.capture = None
    return E.ACL_SUCCESS


@rt_api
def aclmdlRIEndTask(modelRI: object, stream: object) -> int:
    """Record the model's end (EndGraph) on one of its streams."""
    api, rt_fn = "aclmdlRIEndTask", "rtsEndGraph"
    mdl = _model(modelRI, api, rt_fn)
    ctx = need_context(rt_fn)
    st = stream_handle(stream, rt_fn) or ctx.default_stream
    _built(mdl, _END_GRAPH)
    if M.capturing(st):
        raise _captured(st, _END_GRAPH)
    if st not in mdl.streams:
        raise ApiError(RT_PARAM, emu(f"{api}: {st!r} is not a stream of {mdl!r} (aclmdlRIBindStream binds it)."))
    mdl.tasks_of(st).append(M.ModelTask(mdl, st, M.TASK_DEFAULT, "end graph", None))
    return E.ACL_SUCCESS


@rt_api
def aclmdlRIBuildEnd(modelRI: object, reserve: object) -> int:
    """Finish building: the model can run."""
    api = "aclmdlRIBuildEnd"
    mdl = _model(modelRI, api, "rtsModelLoadComplete")
    if not is_null_handle(reserve):
        raise ApiError(
            PARAM, acl_reason(api, "reserve", "reserve", "reserve is a reserved parameter and must be nullptr")
        )
    if mdl.kind == "build":
        mdl.state = "ready"
    return E.ACL_SUCCESS


# ---------------------------------------------------------------------------------------------
# stream activation and switching (built models)
# ---------------------------------------------------------------------------------------------


def _bound_target(st: Stream, desc: str, rt_fn: str) -> M.Capture:
    cap = st.capture
    if not isinstance(cap, M.Capture):
        raise ApiError(
            RT_PARAM,
            emu(f"{desc}: {st!r} is not a stream of a model being built or captured (aclmdlRIBindStream binds one)."),
        )
    return cap


@rt_api
def aclrtActiveStream(activeStream: object, stream: object) -> int:
    """Record, on a model stream, the activation of another model stream: when an execution
    reaches it, the activated stream's tasks run."""
    rt_fn = "rtStreamActive"
    ctx = need_context(rt_fn)
    st = stream_handle(stream, rt_fn) or ctx.default_stream
    if is_null_handle(activeStream):
        raise _rt_null(_ACTIVE, "activeStream", rt_fn)
    act = stream_handle(activeStream, rt_fn)
    assert act is not None
    cap = _bound_target(st, "aclrtActiveStream", rt_fn)
    mdl = cap.model
    if act not in mdl.streams:
        raise ApiError(RT_PARAM, emu(f"aclrtActiveStream: {act!r} is not bound to {mdl!r}, the model of {st!r}."))

    def activate(runner: M.Runner) -> None:
        runner.run_stream(mdl, act)

    cap.add(M.ModelTask(mdl, cap.target, M.TASK_DEFAULT, f"active stream #{act.ident}", None, control=activate))
    return E.ACL_SUCCESS


_COMPARE: dict[int, Callable[[int, int], bool]] = {
    0: lambda a, b: a == b,
    1: lambda a, b: a != b,
    2: lambda a, b: a > b,
    3: lambda a, b: a >= b,
    4: lambda a, b: a < b,
    5: lambda a, b: a <= b,
}
_COND_NAMES = (
    "ACL_RT_EQUAL",
    "ACL_RT_NOT_EQUAL",
    "ACL_RT_GREATER",
    "ACL_RT_GREATER_OR_EQUAL",
    "ACL_RT_LESS",
    "ACL_RT_LESS_OR_EQUAL",
)


def _device_word(ptr: object, name: str, rt_fn: str) -> int:
    p = int_arg(ptr, name, 0, 2**64 - 1)
    try:
        SPACE.check(p, 4, "read", "aclrtSwitchStream")
    except MemoryFault as fault:
        raise ApiError(RT_PARAM, emu(f"aclrtSwitchStream: {name}: {fault.message}")) from None
    return p


@rt_api
def aclrtSwitchStream(
    leftValue: object,
    cond: int,
    rightValue: object,
    dataType: int,
    trueStream: object,
    falseStream: object,
    stream: object,
) -> int:
    """Record, on a model stream, a comparison of two device words: when an execution reaches
    it and ``*leftValue cond *rightValue`` holds, ``trueStream``'s tasks run (falseStream is
    reserved: nullptr)."""
    rt_fn = "rtStreamSwitchEx"
    for value, name in ((leftValue, "ptr"), (rightValue, "valuePtr"), (trueStream, "trueStream")):
        if is_null_handle(value):
            raise _rt_null(_SWITCH, name, rt_fn)
    ctx = need_context(rt_fn)
    st = stream_handle(stream, rt_fn) or ctx.default_stream
    c = int_arg(cond, "cond", -(2**31), 2**31 - 1)
    if not 0 <= c <= 5:
        raise ApiError(RT_PARAM, rt_value(_SWITCH, f"UNKNOWN({c})", "condition", "[0, 5]"), fb_invalid(rt_fn))
    dt = int_arg(dataType, "dataType", -(2**31), 2**31 - 1)
    if dt not in (0, 1):
        raise ApiError(RT_PARAM, rt_value(_SWITCH, f"UNKNOWN({dt})", "dataType", "[0, 1]"), fb_invalid(rt_fn))
    if not is_null_handle(falseStream):
        raise ApiError(
            PARAM,
            acl_reason(
                "aclrtSwitchStream", "falseStream", "falseStream", "falseStream is reserved and must be nullptr"
            ),
        )
    true_st = stream_handle(trueStream, rt_fn)
    assert true_st is not None
    left = _device_word(leftValue, "leftValue", rt_fn)
    right = _device_word(rightValue, "rightValue", rt_fn)
    cap = _bound_target(st, "aclrtSwitchStream", rt_fn)
    mdl = cap.model
    if true_st not in mdl.streams:
        raise ApiError(RT_PARAM, emu(f"aclrtSwitchStream: {true_st!r} is not bound to {mdl!r}, the model of {st!r}."))
    nbytes = 4 if dt == 0 else 8
    compare = _COMPARE[c]

    def switch(runner: M.Runner) -> None:
        a = M.read_word(left, nbytes, "aclrtSwitchStream")
        b = M.read_word(right, nbytes, "aclrtSwitchStream")
        if compare(a, b):
            runner.run_stream(mdl, true_st)

    label = f"switch stream: *0x{left:x} {_COND_NAMES[c]} *0x{right:x} -> stream #{true_st.ident}"
    cap.add(M.ModelTask(mdl, cap.target, M.TASK_DEFAULT, label, None, control=switch))
    return E.ACL_SUCCESS


# ---------------------------------------------------------------------------------------------
# conditional tasks
# ---------------------------------------------------------------------------------------------


@rt_api
def aclmdlRICondHandleCreate(modelRI: object, defaultLaunchValue: int, flag: int, handle: object) -> int:
    """A condition word of a captured model; with ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT it is
    set to ``defaultLaunchValue`` at the start of every execution."""
    api, rt_fn = "aclmdlRICondHandleCreate", "rtModelCondHandleCreate"
    mdl = _model(modelRI, api, rt_fn)
    if handle is None:
        raise ApiError(PARAM, acl_null(api, "handle"))
    out = out_arg(handle, api, "handle", numeric=False)
    default = int_arg(defaultLaunchValue, "defaultLaunchValue", 0, 2**32 - 1)
    f = int_arg(flag, "flag", -(2**31), 2**31 - 1)
    if not 0 <= f <= 1:
        raise ApiError(RT_PARAM, rt_value(_COND_CREATE, f, "flag", "[0, 1]"), fb_invalid(rt_fn))
    if mdl.kind != "capture":
        raise ApiError(
            RT_PARAM,
            ("EE1016", f"{_COND_CREATE} failed. Reason: The modelRI is not a ACL Graph."),
        )
    h = M.CondHandle(mdl, default, f == 1)
    mdl.cond_handles.append(h)
    store(out, h)
    return E.ACL_SUCCESS


@rt_api
def aclmdlRICondHandleGetCondPtr(handle: object, ptr: object) -> int:
    """The device address of the condition word (a program writes it, e.g. by aclrtMemcpy)."""
    api, rt_fn = "aclmdlRICondHandleGetCondPtr", "rtModelCondHandleGetCondPtr"
    if is_null_handle(handle):
        raise ApiError(PARAM, acl_null(api, "handle"))
    if ptr is None:
        raise ApiError(PARAM, acl_null(api, "ptr"))
    if not isinstance(handle, M.CondHandle) or handle.alloc is None:
        raise bad_object("condHandle", rt_fn)
    out = out_arg(ptr, api, "ptr")
    store(out, handle.ptr)
    return E.ACL_SUCCESS


@rt_api
def aclmdlRIAddCondTask(params: object, stream: object, flags: int) -> int:
    """Record a conditional task on a capturing stream: ``params`` is an aclmdlRICondTaskParams
    (here a dict or object with ``handle``, ``type``, ``size``, ``modelRIArray``, a list the
    call fills with ``size`` empty sub-models to capture into with aclmdlRICaptureToModelRIBegin).
    IF runs sub-model 0 when the word is non-zero, else sub-model 1 (if any); WHILE runs
    sub-model 0 while the word is non-zero; SWITCH runs sub-model ``word`` when it is below
    ``size``."""
    api, rt_fn = "aclmdlRIAddCondTask", "rtStreamAddCondTask"
    st = _stream_arg(stream, api, rt_fn)

    def field(name: str) -> Any:
        return params.get(name) if isinstance(params, dict) else getattr(params, name, None)

    kind = int_arg(field("type"), "type", -(2**31), 2**31 - 1)
    if not 0 <= kind <= M.COND_SWITCH:
        raise ApiError(RT_PARAM, rt_value(_COND_TASK, kind, "type", f"[0, {M.COND_SWITCH}]"), fb_invalid(rt_fn))
    if int_arg(flags, "flags", 0, 2**32 - 1) != 0:
        raise ApiError(
            RT_PARAM,
            (
                "EE1017",
                f"{_COND_TASK} failed. Parameter flags is invalid. Reason: flags is reserved parameter and must be 0.",
            ),
        )
    handle = field("handle")
    if is_null_handle(handle):
        raise _rt_null(_COND_TASK, "params.handle", rt_fn)
    array = field("modelRIArray")
    if array is None:
        raise _rt_null(_COND_TASK, "params.modelRIArray", rt_fn)
    if not isinstance(handle, M.CondHandle) or handle.alloc is None:
        raise bad_object("condHandle", rt_fn)
    size = int_arg(field("size"), "size", 0, 2**32 - 1)
    if size == 0 or (kind == M.COND_IF and size > 2) or (kind == M.COND_WHILE and size != 1):
        expect = {M.COND_IF: "1 or 2", M.COND_WHILE: "1", M.COND_SWITCH: "at least 1"}[kind]
        raise ApiError(RT_PARAM, rt_value(_COND_TASK, size, "size", expect), fb_invalid(rt_fn))
    if not isinstance(array, list):
        raise ApiError(
            PARAM, emu(f"{api}: modelRIArray must be a list to receive the sub-models, got {describe(array)}.")
        )
    cap = st.capture
    if not isinstance(cap, M.Capture) or cap.bound or cap.update is not None:
        raise _refused(
            E.ACL_ERROR_RT_STREAM_NOT_CAPTURED, _COND_TASK, f"Stream (stream_id={st.ident}) is not in the capture stage"
        )
    parent = cap.model
    subs: list[M.Model] = []
    for _ in range(size):
        sub = M.Model(parent.context, "capture")
        sub.state = "empty"
        sub.parent = parent
        parent.subs.append(sub)
        subs.append(sub)
    array[:] = subs + array[size:]
    h: M.CondHandle = handle

    def conditional(runner: M.Runner) -> None:
        if kind == M.COND_IF:
            if h.value() != 0:
                runner.run_model(subs[0])
            elif size == 2:
                runner.run_model(subs[1])
        elif kind == M.COND_WHILE:
            loops = 0
            while h.value() != 0 and not runner.aborted():
                runner.run_model(subs[0])
                loops += 1
                if loops >= M.WHILE_LIMIT:
                    raise TaskFault(
                        E.ACL_ERROR_RT_TASK_TIMEOUT, f"{api}: WHILE ran {loops} times; on hardware the model hangs"
                    )
        else:
            v = h.value()
            if 0 <= v < size:
                runner.run_model(subs[v])

    label = f"conditional {M.COND_NAMES[kind]} on {h!r} over {size} sub-model(s)"
    cap.add(M.ModelTask(parent, cap.target, M.TASK_DEFAULT, label, None, control=conditional))
    return E.ACL_SUCCESS


# ---------------------------------------------------------------------------------------------
# execution
# ---------------------------------------------------------------------------------------------


def _runnable(mdl: M.Model, api: str) -> None:
    if mdl.is_sub:
        raise ApiError(E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)  # COND_RETURN_WARN: no report
    if mdl.state != "ready":
        what = (
            "is still being captured (aclmdlRICaptureEnd)"
            if mdl.state == "capturing"
            else "is still being built (aclmdlRIBuildEnd)"
        )
        raise ApiError(RT_PARAM, emu(f"{api}: {mdl!r} {what}; it cannot run yet."))


@rt_api
def aclmdlRIExecuteAsync(modelRI: object, stream: object) -> int:
    """Queue one execution of the model on the stream: its recorded tasks, in order, on the
    addresses they were recorded with."""
    api, rt_fn = "aclmdlRIExecuteAsync", "rtModelExecute"
    mdl = _model(modelRI, api, rt_fn)
    ctx = need_context(rt_fn)
    st = stream_handle(stream, rt_fn) or ctx.default_stream
    if M.model_stream(st) is not None:
        raise ApiError(
            RT_PARAM,
            (
                "EE1017",
                f"{_EXEC_ASYNC} failed. Parameter stm is invalid. Reason: The current stream cannot be the same as "
                "the model stream.",
            ),
        )
    if M.capturing(st):
        raise _captured(st, _EXEC_ASYNC)
    own_stream(st, ctx, _EXEC_ASYNC, rt_fn)
    _runnable(mdl, api)
    M.execute(mdl, st, RT.policy)
    return E.ACL_SUCCESS


@rt_api
def aclmdlRIExecute(modelRI: object, timeout: int) -> int:
    """Run the model and wait for it (timeout in ms, -1 for ever; the emulator does not time out)."""
    api, rt_fn = "aclmdlRIExecute", "rtsModelExecute"
    t = int_arg(timeout, "timeout", -(2**31), 2**31 - 1)
    if t < -1 or t == 0:
        raise ApiError(RT_PARAM, rt_value(_EXEC, t, "timeout", TIMEOUT_EXPECT), fb_invalid(rt_fn))
    mdl = _model(modelRI, api, rt_fn)
    ctx = need_context(rt_fn)
    _runnable(mdl, api)
    st = _exec_stream(mdl, ctx)
    M.execute(mdl, st, RT.policy)
    drain(st)
    sanitizer.ordered(st)  # the host waited for the whole execution
    return stream_error(st)


_EXEC_STREAMS: dict[int, Stream] = {}


def _exec_stream(mdl: M.Model, ctx: Any) -> Stream:
    """The runtime's own stream aclmdlRIExecute runs a model on (one per context)."""
    st = _EXEC_STREAMS.get(id(ctx))
    if st is None or st.context is not ctx:
        st = Stream(ctx, False, 0, call_site())
        _EXEC_STREAMS[id(ctx)] = st
    return st


@rt_api
def aclmdlRIAbort(modelRI: object) -> int:
    """Stop the model: executions queued and not yet run do nothing."""
    mdl = _model(modelRI, "Aborting the model running instance", "rtsModelAbort", acl_check=False)
    if mdl.is_sub:
        return E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    mdl.aborted += 1
    return E.ACL_SUCCESS


@rt_api
def aclmdlRIUpdate(modelRI: object) -> int:
    """Make task parameter changes (aclmdlRITaskSetParams, aclmdlRITaskDisable) take effect:
    the emulator's replays read the tasks when they run, so only the state is checked."""
    mdl = _model(modelRI, "Updating the model running instance", "rtModelUpdate", acl_check=False)
    if mdl.kind != "capture":
        raise _refused(
            E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
            "Checking whether the capture model is updatable",
            "Non ACL Graph mode is not supported",
        )
    if mdl.is_sub:
        return E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    if mdl.state != "ready":
        raise ApiError(
            E.ACL_ERROR_RT_MODEL_UPDATE_FAILED,
            (
                "EE1017",
                "Checking whether the capture model is updatable failed. Parameter modelRI is invalid. Reason: "
                "ModelRI "
                f"(model_id={mdl.ident}) is in running or capture state, status=CAPTURING.",
            ),
        )
    return E.ACL_SUCCESS


@rt_api
def aclmdlRIDestroy(modelRI: object) -> int:
    """Destroy the model (its sub-models and condition words with it); the registered destroy
    callbacks run."""
    api = "aclmdlRIDestroy"
    mdl = _model(modelRI, api, "rtModelDestroy")
    if mdl.is_sub:
        return E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    for st in list(LIVE_STREAMS):
        if isinstance(st.capture, M.Capture) and st.capture.model is mdl and not st.capture.bound:
            raise _captured(st, "Destroying a model running instance")
    _destroy(mdl)
    return E.ACL_SUCCESS


def _destroy(mdl: M.Model) -> None:
    for sub in mdl.subs:
        _destroy(sub)
    for st in list(mdl.streams):
        if isinstance(st.capture, M.Capture) and st.capture.model is mdl:
            st.capture = None
        mdl.remove_stream(st)
    for h in mdl.cond_handles:
        h.release()
    mdl.destroyed = True
    M.LIVE_MODELS.discard(mdl)
    callbacks, mdl.callbacks = mdl.callbacks, []
    for fn, data in callbacks:
        fn(data)


@rt_api
def aclmdlRIDestroyRegisterCallback(modelRI: object, func: object, userData: object) -> int:
    """Call ``func(userData)`` when the model is destroyed."""
    mdl = _model(modelRI, "Registering a model destruction callback", "rtModelDestroyRegisterCallback", acl_check=False)
    if func is None:
        raise _rt_null("Registering a model destruction callback", "fn", "rtModelDestroyRegisterCallback")
    if not callable(func):
        raise ApiError(PARAM, emu(f"aclmdlRIDestroyRegisterCallback: func must be callable, got {describe(func)}."))
    mdl.callbacks.append((func, userData))
    return E.ACL_SUCCESS


@rt_api
def aclmdlRIDestroyUnregisterCallback(modelRI: object, func: object) -> int:
    """Forget a destroy callback registered for the model."""
    mdl = _model(
        modelRI, "Unregistering a model destruction callback", "rtModelDestroyUnregisterCallback", acl_check=False
    )
    if func is None:
        raise _rt_null("Unregistering a model destruction callback", "fn", "rtModelDestroyUnregisterCallback")
    kept = [(f, d) for f, d in mdl.callbacks if f != func]
    if len(kept) == len(mdl.callbacks):
        raise ApiError(RT_PARAM, emu(f"aclmdlRIDestroyUnregisterCallback: {func!r} is not registered for {mdl!r}."))
    mdl.callbacks = kept
    return E.ACL_SUCCESS


# ---------------------------------------------------------------------------------------------
# inspection
# ---------------------------------------------------------------------------------------------


@rt_api
def aclmdlRIGetId(modelRI: object, modelRIId: object) -> int:
    """The model's number."""
    api = "aclmdlRIGetId"
    mdl = _model(modelRI, api, "rtModelGetId")
    if modelRIId is None:
        raise ApiError(PARAM, acl_null(api, "modelRIId"))
    store(out_arg(modelRIId, api, "modelRIId"), mdl.ident)
    return E.ACL_SUCCESS


@rt_api
def aclmdlRISetName(modelRI: object, name: object) -> int:
    """Name the model (DebugPrint shows it)."""
    api = "aclmdlRISetName"
    mdl = _model(modelRI, api, "rtsModelSetName")
    if name is None:
        raise ApiError(PARAM, acl_null(api, "name"))
    if not isinstance(name, str):
        raise ApiError(PARAM, emu(f"{api}: name must be a str, got {describe(name)}."))
    mdl.name = name
    return E.ACL_SUCCESS


@rt_api
def aclmdlRIGetName(modelRI: object, maxLen: int, name: object) -> int:
    """The model's name, at most ``maxLen`` - 1 characters and the NUL."""
    api, rt_fn = "aclmdlRIGetName", "rtsModelGetName"
    mdl = _model(modelRI, api, rt_fn)
    if name is None:
        raise ApiError(PARAM, acl_null(api, "name"))
    n = int_arg(maxLen, "maxLen", 0, 2**32 - 1)
    if n == 0 or len(mdl.name.encode()) + 1 > n:
        raise ApiError(
            RT_PARAM,
            rt_value("Obtaining the model name", n, "maxLen", f"greater than or equal to {len(mdl.name.encode()) + 1}"),
            fb_invalid(rt_fn),
        )
    store(out_arg(name, api, "name", numeric=False), mdl.name)
    return E.ACL_SUCCESS


def _fill(array: object, items: Sequence[Any], count: object, api: str, what: str) -> int:
    """aclmdlRIGetStreams / GetTasksByStream: ``*count`` in is the array's size (a None array:
    only the number is asked); out, the number of items."""
    if count is None:
        raise _rt_null(api, f"num{what}", api)
    out = out_arg(count, api, f"num{what}")
    cap = int(getattr(out, "value", 0) or 0)
    if array is not None:
        if not isinstance(array, list):
            raise ApiError(PARAM, emu(f"{api}: {what.lower()} must be a list, got {describe(array)}."))
        if cap < len(items):
            raise ApiError(
                E.ACL_ERROR_RT_INSUFFICIENT_INPUT_ARRAY,
                emu(f"{api}: the array holds {cap} entries; the model has {len(items)} {what.lower()}."),
            )
        array[: len(items)] = list(items)
    store(out, len(items))
    return E.ACL_SUCCESS


@rt_api
def aclmdlRIGetStreams(modelRI: object, streams: object, numStreams: object) -> int:
    """The model's streams (a capture's model streams, or the streams bound to a built model)."""
    mdl = _model(modelRI, "Obtaining the streams of a model", "rtModelGetStreams", acl_check=False)
    return _fill(streams, mdl.streams, numStreams, "aclmdlRIGetStreams", "Streams")


@rt_api
def aclmdlRIGetTasksByStream(stream: object, tasks: object, numTasks: object) -> int:
    """The tasks recorded on a model stream, in order."""
    api, rt_fn = "aclmdlRIGetTasksByStream", "rtStreamGetTasks"
    if is_null_handle(stream):
        raise _rt_null("Obtaining the tasks of a stream", "stm", rt_fn)
    st = stream_handle(stream, rt_fn)
    assert st is not None
    mdl = M.model_stream(st)
    if mdl is None:
        raise ApiError(RT_PARAM, emu(f"{api}: {st!r} is not a model stream (aclmdlRIGetStreams lists them)."))
    return _fill(tasks, mdl.tasks_of(st), numTasks, api, "Tasks")


def _task(task: object, rt_fn: str) -> M.ModelTask:
    if is_null_handle(task):
        raise _rt_null("Obtaining the task information", "task", rt_fn)
    if not isinstance(task, M.ModelTask) or task.model.destroyed:
        raise bad_object("task", rt_fn)
    return task


@rt_api
def aclmdlRITaskGetType(task: object, type: object) -> int:
    """The task's aclmdlRITaskType."""
    t = _task(task, "rtTaskGetType")
    if type is None:
        raise _rt_null("Obtaining the task type", "type", "rtTaskGetType")
    store(out_arg(type, "aclmdlRITaskGetType", "type"), t.type)
    return E.ACL_SUCCESS


@rt_api
def aclmdlRITaskGetSeqId(task: object, id: object) -> int:
    """The task's place on its model stream (from 0)."""
    t = _task(task, "rtTaskGetSeqId")
    if id is None:
        raise _rt_null("Obtaining the task sequence ID", "id", "rtTaskGetSeqId")
    store(out_arg(id, "aclmdlRITaskGetSeqId", "id"), t.seq)
    return E.ACL_SUCCESS


@rt_api
def aclmdlRITaskDisable(task: object) -> int:
    """Skip the task in later executions (aclmdlRIUpdate commits it on CANN)."""
    t = _task(task, "rtModelTaskDisable")
    if t.model.state == "capturing":
        raise _captured(t.stream, "Disabling a model task")
    t.disabled = True
    return E.ACL_SUCCESS


@rt_api
def aclmdlRITaskGetParams(task: object, params: object) -> int:
    """The task's parameters: a dict with ``type`` and, for the event and value tasks, the
    event or address it uses (the kernel parameters of an aclnn task are the executor's and
    not exposed)."""
    t = _task(task, "rtModelTaskGetParams")
    if params is None:
        raise _rt_null("Obtaining the task parameters", "params", "rtModelTaskGetParams")
    info: dict[str, Any] = {"type": t.type, "name": t.label, "seqId": t.seq}
    if t.event is not None:
        info["event"] = t.event
    store(out_arg(params, "aclmdlRITaskGetParams", "params", numeric=False), info)
    return E.ACL_SUCCESS


@rt_api
def aclmdlRITaskSetParams(task: object, params: object) -> int:
    """Changing a recorded task's parameters: the emulator records a task as its body, not its
    parameters, so the call is refused (207000); a task group update
    (aclmdlRICaptureTaskUpdateBegin/End) replaces a kernel instead."""
    _task(task, "rtModelTaskSetParams")
    if params is None:
        raise _rt_null("Setting the task parameters", "params", "rtModelTaskSetParams")
    raise ApiError(
        E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
        emu(
            "aclmdlRITaskSetParams: the emulator keeps a captured task as the work it does, not as kernel "
            "parameters that could be changed; capture the new work in a task group update "
            "(aclmdlRICaptureTaskUpdateBegin/End) instead."
        ),
    )


@rt_api
def aclmdlRIKernelTaskGetAttribute(task: object, attrId: int, attrValue: object) -> int:
    """A kernel task's launch attribute: an aclnn kernel is launched by the executor, not by
    aclrtLaunchKernelWithConfig, so it has no launch attributes to read (207000)."""
    t = _task(task, "rtModelKernelTaskGetAttribute")
    int_arg(attrId, "attrId", -(2**31), 2**31 - 1)
    if attrValue is None:
        raise _rt_null("Obtaining the kernel task attribute", "attrValue", "rtModelKernelTaskGetAttribute")
    if t.type != M.TASK_KERNEL:
        raise ApiError(RT_PARAM, emu(f"aclmdlRIKernelTaskGetAttribute: {t!r} is not a kernel task."))
    raise ApiError(
        E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
        emu(
            "aclmdlRIKernelTaskGetAttribute: the kernels of aclnn operators are launched by their executor, "
            "without aclrtLaunchKernelWithConfig attributes."
        ),
    )


@rt_api
def aclmdlRIDebugPrint(modelRI: object) -> int:
    """Print the model's streams and tasks (CANN logs them; the emulator prints to stdout)."""
    mdl = _model(modelRI, "aclmdlRIDebugPrint", "rtModelDebugDotPrint")
    print("\n".join(M.describe(mdl)), flush=True)
    return E.ACL_SUCCESS


@rt_api
def aclmdlRIDebugJsonPrint(modelRI: object, path: object, flags: int) -> int:
    """Write the model's streams and tasks as JSON to ``path``."""
    api = "aclmdlRIDebugJsonPrint"
    mdl = _model(modelRI, api, "rtModelDebugJsonPrint")
    if path is None:
        raise ApiError(PARAM, acl_null(api, "path"))
    int_arg(flags, "flags", 0, 2**32 - 1)
    if not isinstance(path, str):
        raise ApiError(PARAM, emu(f"{api}: path must be a str, got {describe(path)}."))
    try:
        with open(path, "w", encoding="utf-8") as fh:
            json.dump(M.as_json(mdl), fh, indent=2)
    except OSError as e:
        raise ApiError(E.ACL_ERROR_RT_PARAM_INVALID, emu(f"{api}: cannot write {path}: {e.strerror}.")) from None
    return E.ACL_SUCCESS


__all__ = [
    "ACL_MODEL_STREAM_FLAG_DEFAULT",
    "ACL_MODEL_STREAM_FLAG_HEAD",
    "aclmdlRIAbort",
    "aclmdlRIAddCondTask",
    "aclmdlRIBindStream",
    "aclmdlRIBuildBegin",
    "aclmdlRIBuildEnd",
    "aclmdlRICaptureBegin",
    "aclmdlRICaptureEnd",
    "aclmdlRICaptureGetInfo",
    "aclmdlRICaptureTaskGrpBegin",
    "aclmdlRICaptureTaskGrpEnd",
    "aclmdlRICaptureTaskUpdateBegin",
    "aclmdlRICaptureTaskUpdateEnd",
    "aclmdlRICaptureThreadExchangeMode",
    "aclmdlRICaptureToModelRIBegin",
    "aclmdlRICondHandleCreate",
    "aclmdlRICondHandleGetCondPtr",
    "aclmdlRIDebugJsonPrint",
    "aclmdlRIDebugPrint",
    "aclmdlRIDestroy",
    "aclmdlRIDestroyRegisterCallback",
    "aclmdlRIDestroyUnregisterCallback",
    "aclmdlRIEndTask",
    "aclmdlRIExecute",
    "aclmdlRIExecuteAsync",
    "aclmdlRIGetId",
    "aclmdlRIGetName",
    "aclmdlRIGetStreams",
    "aclmdlRIGetTasksByStream",
    "aclmdlRIKernelTaskGetAttribute",
    "aclmdlRISetName",
    "aclmdlRITaskDisable",
    "aclmdlRITaskGetParams",
    "aclmdlRITaskGetSeqId",
    "aclmdlRITaskGetType",
    "aclmdlRITaskSetParams",
    "aclmdlRIUnbindStream",
    "aclmdlRIUpdate",
    "aclrtActiveStream",
    "aclrtSwitchStream",
    "check_capture_mode",
    "refuse_if_capturing",
]
