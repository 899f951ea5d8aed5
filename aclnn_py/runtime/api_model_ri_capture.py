"""Stream capture of the model runtime instance chapter of ``acl_rt.h`` (``aclmdlRICapture*``):
capturing a stream's work into a model, task groups and their update, and conditional tasks
(condition handles and IF/WHILE/SWITCH tasks over sub-models captured with
aclmdlRICaptureToModelRIBegin).

The engine is model_ri.py; the shared checks are _model_ri_checks.py.
"""

from __future__ import annotations

import threading
from typing import Any

from .._capi import ApiError, describe
from .._ref import store
from . import model_ri as M
from ._checks import (
    PARAM,
    RT_PARAM,
    E,
    acl_null,
    acl_reason,
    bad_object,
    emu,
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
)
from ._model_ri_checks import captured, model_arg, refused, require_acl_graph, rt_null
from .api_model_ri_build import destroy_model
from .api_stream import rt_flags_of, supports_capture
from .stream import Stream, TaskFault

_RT_EVENT_EXTERNAL = 0x20  # ACL_EVENT_EXTERNAL: a record of it does not join a stream back

_BEGIN = "Starting capturing tasks delivered to a stream"
_END = "Ending the capture of a stream"
_GRP_BEGIN = "Marking the start of a task group"
_GRP_END = "Marking the end of a task group"
_UPD_BEGIN = "Marking the start of the task to be updated"
_UPD_END = "Marking the end of the task to be updated"
_COND_CREATE = "Conditional handle creation"
_COND_PTR = "Obtaining the device pointer of a conditional handle"
_COND_TASK = "Adding a conditional task to a stream"


def _stream_arg(stream: object, api: str, rt_fn: str, gated: bool = False) -> Stream:
    """The stream argument: the ACL layer's null check, then (``gated``: a wrapper that checks
    RT_FEATURE_MODEL_ACL_GRAPH first) the chip, then the handle."""
    if is_null_handle(stream):
        raise ApiError(PARAM, acl_null(api, "stream"))
    if gated:
        require_acl_graph()
    st = stream_handle(stream, rt_fn)
    assert st is not None
    return st


def _capture_flags(st: Stream, desc: str, rt_fn: str) -> None:
    """ApiErrorDecorator::StreamBeginCapture/StreamEndCapture: StreamFlagIsSupportCapture (507000)."""
    if not supports_capture(st):
        raise ApiError(
            E.ACL_ERROR_RT_INTERNAL_ERROR,
            (
                "EE1011",
                f"{desc} failed. Value {rt_flags_of(st.flags)} for parameter stream flag is invalid. Reason: Stream "
                f"(stream_id={st.ident}) does not support the ACL Graph.",
            ),
            fb_inner(rt_fn, "stream invalid"),
        )


def _mode_arg(mode: object, desc: str, rt_fn: str) -> int:
    m = int_arg(mode, "mode", -(2**31), 2**31 - 1)
    if not 0 <= m < M.MODE_NONE:
        raise ApiError(RT_PARAM, rt_value(desc, M.mode_desc(m), "mode", f"[0, {M.MODE_NONE})"), fb_invalid(rt_fn))
    return m


# ---------------------------------------------------------------------------------------------
# capture
# ---------------------------------------------------------------------------------------------


def _bound_model(st: Stream) -> M.Model | None:
    """The stream's ``Model_()``: the model it is bound to (aclmdlRIBindStream) or, for a capture's
    model stream (the one aclmdlRIGetStreams hands out), its capture model (Model::BindStream and
    Model::AddStream set it, model.cc:511, 643-647)."""
    cap = st.capture
    if isinstance(cap, M.Capture) and cap.bound:
        return cap.model
    return M.model_stream(st)


def _refuse_bound(st: Stream, what: str) -> None:
    """ApiImpl::StreamBeginCapture / StreamEndCapture (v100/api_impl_aclgraph.cc:32-34, 57-59): a stream
    with a model cannot begin or end a capture (on Ascend950 a capture's model stream is persistent:
    the flag check refuses it first)."""
    bound_to = _bound_model(st)
    if bound_to is not None:
        raise ApiError(
            E.ACL_ERROR_RT_STREAM_MODEL,
            (
                "EE1017",
                f"Stream {what} capture failed. Parameter stream is invalid. Reason: Stream {st.ident} is already "
                f"bound to model {bound_to.ident}.",
            ),
        )


def _begin_capture(st: Stream, mode: int, model: M.Model | None, rt_fn: str) -> None:
    ctx = need_context(rt_fn)
    own_stream(st, ctx, "Starting capturing tasks delivered to a stream", rt_fn)
    _refuse_bound(st, "begin")
    if model is not None and model.state != "empty":
        raise ApiError(  # CheckCaptureModelIsCaptured (context_aclgraph.cc:281), before the status
            E.ACL_ERROR_RT_MODEL_CAPTURED,
            (
                "EE1017",
                "rtStreamBeginCaptureToModel failed. Parameter modelRI is invalid. Reason: ModelRI "
                f"(model_id={model.ident}) is already captured.",
            ),
        )
    if st.capture is not None:
        raise refused(  # Context::StreamBeginCapture
            E.ACL_ERROR_RT_STREAM_CAPTURED,
            "Stream begin capture",
            f"Stream is already in capture status, device_id={ctx.device.ident}, stream_id={st.ident}, status=active",
        )
    if model is None:
        model = M.Model(ctx, "capture")
    target = M.capture_stream(ctx)  # the model stream the capture fills
    model.add_stream(target, head=True)
    model.state = "capturing"
    st.capture = M.Capture(model, st, target, mode)


@rt_api
def aclmdlRICaptureBegin(stream: object, mode: int) -> int:
    """Start capturing: the work submitted to ``stream`` is recorded into a new model instead
    of running, until aclmdlRICaptureEnd."""
    api, rt_fn = "aclmdlRICaptureBegin", "rtStreamBeginCapture"
    st = _stream_arg(stream, api, rt_fn, gated=True)
    m = _mode_arg(mode, _BEGIN, rt_fn)
    _capture_flags(st, "Stream begin capture", rt_fn)
    _begin_capture(st, m, None, rt_fn)
    return E.ACL_SUCCESS


@rt_api
def aclmdlRICaptureToModelRIBegin(stream: object, modelRI: object, mode: int) -> int:
    """Capture into an existing, still empty sub-model (a branch of aclmdlRIAddCondTask)."""
    api, rt_fn = "aclmdlRICaptureToModelRIBegin", "rtStreamBeginCaptureToModel"
    if not is_null_handle(stream) and is_null_handle(modelRI):
        raise ApiError(PARAM, acl_null(api, "modelRI"))
    st = _stream_arg(stream, api, rt_fn, gated=True)
    mdl = model_arg(modelRI, api, rt_fn)
    m = _mode_arg(mode, _BEGIN, rt_fn)
    _capture_flags(st, "Stream begin capture", rt_fn)
    if not mdl.is_sub:
        raise ApiError(
            RT_PARAM,
            (
                "EE1017",
                "Stream begin capture failed. Parameter modelRI is invalid. Reason: The modelRI is not a sub ACL "
                "Graph.",
            ),
        )
    _begin_capture(st, m, mdl, rt_fn)
    return E.ACL_SUCCESS


@rt_api
def aclmdlRICaptureGetInfo(stream: object, status: object, modelRI: object) -> int:
    """Whether the stream captures (ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE or _NONE) and into which model."""
    api = "aclmdlRICaptureGetInfo"
    if is_null_handle(stream):
        raise ApiError(PARAM, acl_null(api, "stream"))
    if status is None and modelRI is None:
        raise ApiError(
            PARAM, acl_reason(api, "nullptr/nullptr", "status/modelRI", "both cannot be nullptr at the same time")
        )
    st = _stream_arg(stream, api, "rtStreamGetCaptureInfo", gated=True)
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
    st = _stream_arg(stream, api, rt_fn, gated=True)
    _capture_flags(st, "Stream end capture", rt_fn)
    cap = st.capture
    if modelRI is None and isinstance(cap, M.Capture) and not cap.bound and cap.update is None and not cap.model.is_sub:
        raise rt_null(_END, "captureMdl", rt_fn)  # ApiImpl::StreamEndCapture: a sub-model's capture needs none
    ctx = need_context(rt_fn)  # ApiImpl::StreamEndCapture
    own_stream(st, ctx, "Ending the capture of a stream", rt_fn)
    _refuse_bound(st, "end")
    if not isinstance(cap, M.Capture) or cap.update is not None:
        raise ApiError(  # Context::StreamEndCapture
            E.ACL_ERROR_RT_STREAM_NOT_CAPTURED,
            (
                "EE1018",
                f"Stream end capture failed. Reason: The stream (stream_id={st.ident}) is not in capture status, call "
                "rtStreamBeginCapture API to capture stream first.",
            ),
        )
    out = None if modelRI is None else out_arg(modelRI, api, "modelRI", numeric=False)
    mdl = cap.model
    try:
        if not cap.origin:  # Context::StreamEndCapture: logged only, FuncErrorReason reports it
            raise ApiError(
                E.ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED,
                fb_inner(rt_fn, "the capture was not initiated in this stream"),
            )
        if cap.mode != M.MODE_RELAXED and cap.thread != threading.get_ident():
            # logged only; the streams leave the capture and the model is READY (CaptureModeExit,
            # ClearCaptureModel without a model: ExitCaptureNotify; not destroyed); FuncErrorReason
            M.end_capture(mdl)
            mdl.state = "ready"
            raise ApiError(
                E.ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD, fb_inner(rt_fn, "end capture in the wrong thread")
            )
        failure = _end_failure(st, cap, rt_fn)
        if failure is not None:  # ClearCaptureModel(ctx, stm, model): the streams leave it, the model goes
            M.end_capture(mdl)
            if not mdl.is_sub:
                destroy_model(mdl)
            raise failure
    except ApiError:
        if out is not None and not mdl.is_sub:  # ApiImpl::StreamEndCapture: *captureMdl = nullptr
            store(out, None)
        raise
    M.end_capture(mdl)
    mdl.state = "ready"
    if out is not None:
        store(out, mdl)
    return E.ACL_SUCCESS


def _end_failure(st: Stream, cap: M.Capture, rt_fn: str) -> ApiError | None:
    """Context::StreamEndCapture's checks of the captured model, in order: an error during the
    capture, a sub-model still capturing, then CheckCaptureModelValidity (a task group left
    open, a joined stream not joined back)."""
    mdl = cap.model
    if mdl.invalid:
        return refused(
            E.ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED,
            "Stream end capture",
            f"The current model (model_id={mdl.ident}) is invalid because an error occurred during model capture",
        )
    if any(sub.state == "capturing" for sub in mdl.subs):
        return refused(
            E.ACL_ERROR_RT_SUB_ACLGRAPH_IS_CAPTURING,
            "Stream end capture",
            f"Sub ACL Graph is capturing, stream_id={st.ident}, capture stream_id={cap.target.ident}",
        )
    others = [s.capture for s in mdl.context.all_streams() if s.capture is not None]
    if any(isinstance(c, M.Capture) and c.model is mdl and c.group is not None for c in others):
        return ApiError(E.ACL_ERROR_STREAM_TASK_GROUP_STATUS, fb_inner(rt_fn, "task group status error"))
    reason = M.unjoined(mdl, cap.target, _RT_EVENT_EXTERNAL)
    if reason is not None:
        return ApiError(
            E.ACL_ERROR_RT_STREAM_UNJOINED,
            ("EE1017", f"Capture model validity check failed. Parameter capture model is invalid. Reason: {reason}."),
            fb_inner(rt_fn, "capture model contains a stream that was not joined to the origin stream"),
        )
    return None


@rt_api
def aclmdlRICaptureThreadExchangeMode(mode: object) -> int:
    """Swap the calling thread's capture mode with ``*mode`` (the previous one comes back)."""
    api, rt_fn = "aclmdlRICaptureThreadExchangeMode", "rtThreadExchangeCaptureMode"
    if mode is None:
        raise ApiError(PARAM, acl_null(api, "mode"))
    out = out_arg(mode, api, "mode")
    require_acl_graph()
    value = getattr(out, "value", out)
    m = int_arg(value, "mode", -(2**31), 2**31 - 1)
    if not 0 <= m < M.MODE_NONE:
        raise ApiError(
            RT_PARAM,
            rt_value(
                "Switching the capture mode of the current thread", M.mode_desc(m), "mode", f"less than {M.MODE_NONE}"
            ),
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
    st = _stream_arg(stream, api, rt_fn, gated=True)
    cap = st.capture
    if not isinstance(cap, M.Capture) or cap.bound or cap.update is not None:
        raise refused(
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
        raise refused(
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
    if not is_null_handle(stream) and is_null_handle(handle):
        raise ApiError(PARAM, acl_null(api, "handle"))
    st = _stream_arg(stream, api, rt_fn, gated=True)
    if not isinstance(handle, M.TaskGroup) or handle.model.destroyed:
        raise bad_object("taskGrp", rt_fn)
    if M.capturing(st):
        raise captured(st, _UPD_BEGIN, rt_fn)
    if M.model_stream(st) is not None or st.capture is not None:
        raise refused(E.ACL_ERROR_RT_STREAM_MODEL, _UPD_BEGIN, "Only single operator stream is supported")
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
            raise captured(st, _UPD_END, rt_fn)
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
# conditional tasks
# ---------------------------------------------------------------------------------------------


@rt_api
def aclmdlRICondHandleCreate(modelRI: object, defaultLaunchValue: int, flag: int, handle: object) -> int:
    """A condition word of a captured model; with ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT it is
    set to ``defaultLaunchValue`` at the start of every execution."""
    api, rt_fn = "aclmdlRICondHandleCreate", "rtModelCondHandleCreate"
    mdl = model_arg(modelRI, api, rt_fn)
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
        raise rt_null(_COND_TASK, "params.handle", rt_fn)
    array = field("modelRIArray")
    if array is None:
        raise rt_null(_COND_TASK, "params.modelRIArray", rt_fn)
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
        raise refused(
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


__all__ = [
    "aclmdlRIAddCondTask",
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
]
