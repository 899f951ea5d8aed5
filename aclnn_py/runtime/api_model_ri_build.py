"""Built models and their execution, of the model runtime instance chapter of ``acl_rt.h``:
a model built from bound streams (aclmdlRIBuildBegin, BindStream, EndTask, BuildEnd), stream
activation and switching inside it, and running, aborting, updating and destroying a model
(captured or built).

The engine is model_ri.py; the shared checks are _model_ri_checks.py.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .._capi import ApiError, describe
from .._ref import store
from . import _rt_features, sanitizer
from . import model_ri as M
from ._checks import (
    PARAM,
    RT_PARAM,
    TIMEOUT_EXPECT,
    E,
    acl_null,
    acl_reason,
    check_stopped,
    cur_stream,
    drain,
    emu,
    fb_inner,
    fb_invalid,
    fb_unsupported,
    int_arg,
    is_null_handle,
    need_context,
    out_arg,
    own_stream,
    rt_api,
    rt_value,
    stream_error,
    stream_handle,
    unrecorded,
)
from ._model_ri_checks import captured, model_arg, own_model, refused, rt_null
from .api_stream import (
    _RT_STREAM_AICPU,
    _RT_STREAM_CP_PROCESS_USE,
    _RT_STREAM_PERSISTENT,
    RT_STREAM_FAST_LAUNCH,
    aborted,
    rt_flags_of,
)
from .device import RT
from .memory import SPACE, MemoryFault, call_site
from .stream import Stream

ACL_MODEL_STREAM_FLAG_HEAD = 0  # RT_MODEL_HEAD_STREAM (rt_model.h)
ACL_STREAM_PERSISTENT = 0x4  # aclrtCreateStreamWithConfig's flag (the runtime's RT_STREAM_PERSISTENT)
ACL_MODEL_STREAM_FLAG_DEFAULT = 0x7FFFFFFF  # RT_INVALID_FLAG (rt_external_base.h)

_EXEC_ASYNC = "Executing the model running instance"  # rtModelExecute: ApiErrorDecorator::ModelExecute
_EXEC = "Executing the model running instance"
_EXEC_SYNC = "Synchronously executing the model running instance"
_BIND = "Binding a model running instance to a stream"
_UNBIND = "Unbinding a model running instance from a stream"
_END_GRAPH = "Delivering the EndGraph flag to the stream of a model"
_SWITCH = "Switching between streams based on conditions"
_ACTIVE = "Stream activation"


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
    if f != 0:  # rtsModelCreate's COND_RETURN_AND_MSG_OUTER_WITH_PARAM: reported, not the last error
        raise unrecorded(ApiError(RT_PARAM, rt_value("rtsModelCreate", f, "flag", "0")))
    ctx = need_context("rtsModelCreate")
    store(out, M.Model(ctx, "build", f))
    return E.ACL_SUCCESS


def _built(mdl: M.Model, desc: str) -> None:
    if mdl.kind == "capture":
        raise refused(RT_PARAM, desc, "ACL Graph mode is not supported")


def _bindable(st: Stream, rt_fn: str) -> None:
    """ApiErrorDecorator::ModelBindStream after the capture check (api_error.cc:3910-3930): the
    failure mode in force (STOP, or ABORT after a task failed in a stopped context; 207000,
    EE1016), then a FAST_LAUNCH stream (207000, EE1011). (The checks before them, a
    DEVICE_USE_ONLY stream and a stream of a DVPP group, cannot be reached here: a persistent
    stream cannot be device-use-only, and DVPP groups are not emulated.)"""
    mode = "Abort" if aborted(st) else "Stop" if st.failure_mode == 1 else None
    if mode is not None:
        raise ApiError(
            E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
            ("EE1016", f"{_BIND} failed. Reason: {mode} mode for stream (stream_id={st.ident}) is not supported."),
            fb_unsupported(rt_fn),
        )
    if rt_flags_of(st.flags) & RT_STREAM_FAST_LAUNCH:
        raise ApiError(
            E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
            (
                "EE1011",
                f"{_BIND} failed. Value ACL_STREAM_FAST_LAUNCH for parameter stream flag is invalid. Reason: Stream "
                f"(stream_id={st.ident}) with the flag ACL_STREAM_FAST_LAUNCH cannot be bound to a model.",
            ),
            fb_unsupported(rt_fn),
        )


@rt_api
def aclmdlRIBindStream(modelRI: object, stream: object, flag: int) -> int:
    """Bind a stream to a model being built: the work submitted to it is recorded into the
    model. ACL_MODEL_STREAM_FLAG_HEAD makes it the stream an execution starts with."""
    api, rt_fn = "aclmdlRIBindStream", "rtsModelBindStream"
    if is_null_handle(modelRI):
        raise ApiError(PARAM, acl_null(api, "modelRI"))
    f = int_arg(flag, "flag", 0, 2**32 - 1)
    if f not in (ACL_MODEL_STREAM_FLAG_HEAD, ACL_MODEL_STREAM_FLAG_DEFAULT):  # rtsModelBindStream, before the handles
        raise unrecorded(
            ApiError(RT_PARAM, rt_value(rt_fn, f, "flag", "RT_MODEL_STREAM_FLAG_HEAD or RT_MODEL_STREAM_FLAG_DEFAULT"))
        )
    mdl = model_arg(modelRI, api, rt_fn)
    given = stream_handle(stream, rt_fn)
    if given is not None and not given.flags & ACL_STREAM_PERSISTENT:
        raise ApiError(
            RT_PARAM,
            (
                "EE1017",
                f"{rt_fn} failed. Parameter stm is invalid. Reason: Non-persistent stream cannot be bound to a model.",
            ),
        )
    bound_to = M.model_stream(given) if given is not None else None
    if bound_to is not None and given is not None:
        raise ApiError(
            E.ACL_ERROR_RT_STREAM_MODEL,
            (
                "EE1007",
                f"Failed to bind stream (stream_id={given.ident}). Reason: The current stream has been bound to a "
                f"model (model_id={bound_to.ident}) and cannot be bound to the input model (model_id={mdl.ident}).",
            ),
        )
    st = cur_stream(given, _BIND, rt_fn)  # ApiErrorDecorator::ModelBindStream's GetCurStream
    _built(mdl, _BIND)
    if M.capturing(st):
        raise captured(st, _BIND, rt_fn)
    _bindable(st, rt_fn)
    own_model(mdl, _BIND, rt_fn)  # ApiImpl::ModelBindStream: the context, the model's
    own_stream(st, need_context(rt_fn), _BIND, rt_fn)
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
    mdl = model_arg(modelRI, api, rt_fn)
    st = cur_stream(stream_handle(stream, rt_fn), _UNBIND, rt_fn)  # ApiErrorDecorator::ModelUnbindStream
    _built(mdl, _UNBIND)
    if M.capturing(st):
        raise captured(st, _UNBIND, rt_fn)
    own_model(mdl, _UNBIND, rt_fn)  # ApiImpl::ModelUnbindStream
    if st not in mdl.streams:  # Model::UnbindStream (feature/model/model.cc)
        raise ApiError(
            E.ACL_ERROR_RT_STREAM_MODEL,
            (
                "EE4002",
                "Failed to unbind the stream from the model. The specified stream "
                f"(stream_id={st.ident}) is not bound to the current model (model_id={mdl.ident}).",
            ),
            fb_inner(rt_fn, "the relationship between the model and stream is incorrect."),
        )
    mdl.remove_stream(st)
    st.capture = None
    return E.ACL_SUCCESS


@rt_api
def aclmdlRIEndTask(modelRI: object, stream: object) -> int:
    """Record the model's end (EndGraph) on one of its streams."""
    api, rt_fn = "aclmdlRIEndTask", "rtsEndGraph"
    mdl = model_arg(modelRI, api, rt_fn)
    # rtsEndGraph unlocks the stream's send queue first: SetStreamSqLockUnlock's GetCurStream, then
    # ApiImpl's context (its stream-context check needs RT_FEATURE_STREAM_LOCKABLE: no emulated chip)
    sq = "Locking or unlocking the send queue of a stream"
    st = cur_stream(stream_handle(stream, rt_fn), sq, rt_fn)
    need_context(rt_fn)
    _built(mdl, _END_GRAPH)
    if M.capturing(st):
        raise captured(st, _END_GRAPH, rt_fn)
    if st not in mdl.streams:
        raise ApiError(RT_PARAM, emu(f"{api}: {st!r} is not a stream of {mdl!r} (aclmdlRIBindStream binds it)."))
    mdl.tasks_of(st).append(M.ModelTask(mdl, st, M.TASK_DEFAULT, "end graph", None))
    return E.ACL_SUCCESS


@rt_api
def aclmdlRIBuildEnd(modelRI: object, reserve: object) -> int:
    """Finish building: the model can run."""
    api = "aclmdlRIBuildEnd"
    mdl = model_arg(modelRI, api, "rtsModelLoadComplete")
    if not is_null_handle(reserve):  # ACL_CHECK_INVALID_PARAM_NO_VALUE: EH0012
        raise ApiError(
            PARAM,
            (
                "EH0012",
                f"{api} failed. Parameter reserve is invalid. Reason: reserve is a reserved parameter and must be "
                "nullptr.",
            ),
        )
    own_model(mdl, "Ending the build of a model running instance", "rtsModelLoadComplete")  # ModelLoadComplete
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
        raise rt_null(_ACTIVE, "activeStream", rt_fn)
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
            raise rt_null(_SWITCH, name, rt_fn)
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
# execution
# ---------------------------------------------------------------------------------------------


def _runnable(mdl: M.Model, api: str, rt_fn: str) -> None:
    if mdl.state == "capturing":  # CaptureModel::CheckExecuteReady
        raise ApiError(
            E.ACL_ERROR_RT_MODEL_CAPTURED,
            (
                "EE1017",
                "Checking whether the capture model is ready failed. Parameter modelRI is invalid. Reason: ModelRI "
                f"(model_id={mdl.ident}) is in capturing state, status=CAPTURING.",
            ),
            fb_inner(rt_fn, "model is captured"),
        )
    if mdl.state != "ready":
        what = (
            "is still being captured (aclmdlRICaptureEnd)"
            if mdl.state == "capturing"
            else "is still being built (aclmdlRIBuildEnd)"
        )
        raise ApiError(RT_PARAM, emu(f"{api}: {mdl!r} {what}; it cannot run yet."))


# ApiErrorDecorator::ModelExecute on the chips with RT_FEATURE_MODEL_STREAM_DOT_SYNC (Ascend950;
# api_error.cc:4002-4015): the execution stream's runtime flags it refuses, in this order (107000, EE1006)
_NO_EXEC_FLAGS = (
    (
        _RT_STREAM_AICPU,
        "The current stream is used to carry AI CPU scheduling tasks and does not support execution models",
    ),
    (_RT_STREAM_PERSISTENT, "Sink streams do not support execution models"),
    (_RT_STREAM_CP_PROCESS_USE, "Stream (stream_id={ident}) can be called only on the device"),
)


def _executable(st: Stream, rt_fn: str) -> None:
    """ApiErrorDecorator::ModelExecute's checks of a given (non-NULL) stream (api_error.cc:3994-4015):
    a model stream (EE1017), a capturing stream (107027, EE1016), then on Ascend950 its flags;
    each RT_ERROR_INVALID_VALUE ends in rtModelExecute's FuncErrorReason (EE1001)."""
    if M.model_stream(st) is not None:
        raise ApiError(
            RT_PARAM,
            (
                "EE1017",
                f"{_EXEC_ASYNC} failed. Parameter stm is invalid. Reason: The current stream cannot be the same as "
                "the model stream.",
            ),
            fb_invalid(rt_fn),
        )
    if M.capturing(st):
        raise captured(st, _EXEC_ASYNC, rt_fn)
    if not _rt_features.has("RT_FEATURE_MODEL_STREAM_DOT_SYNC"):
        return
    flags = rt_flags_of(st.flags)
    for bit, reason in _NO_EXEC_FLAGS:
        if flags & bit:
            raise ApiError(
                RT_PARAM,
                (
                    "EE1006",
                    f"{_EXEC_ASYNC} failed. Stream flag value {flags} is not supported. Reason: "
                    f"{reason.format(ident=st.ident)}.",
                ),
                fb_invalid(rt_fn),
            )


@rt_api
def aclmdlRIExecuteAsync(modelRI: object, stream: object) -> int:
    """Queue one execution of the model on the stream: its recorded tasks, in order, on the
    addresses they were recorded with. (On Ascend950 the stream may not be an AI CPU, a
    persistent or a device-use-only one.)"""
    api, rt_fn = "aclmdlRIExecuteAsync", "rtModelExecute"
    mdl = model_arg(modelRI, api, rt_fn)
    given = stream_handle(stream, rt_fn)  # rtModelExecute's handle guards
    if given is not None:
        _executable(given, rt_fn)
    if mdl.is_sub:  # the decorator's COND_RETURN_WARN; rtModelExecute's COND_RETURN_WITH_NOLOG
        raise unrecorded(ApiError(E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT))
    ctx = need_context(rt_fn)  # ApiImpl::ModelExecute
    st = given or ctx.default_stream
    own_model(mdl, _EXEC, rt_fn)
    own_stream(st, ctx, _EXEC_ASYNC, rt_fn)
    _runnable(mdl, api, rt_fn)
    check_stopped(
        ctx
    )  # the model-execute task's submission: Context::CheckTaskSend (Model::SubmitExecuteTask, model.cc:1257)
    M.execute(mdl, st, RT.policy)
    return E.ACL_SUCCESS


@rt_api
def aclmdlRIExecute(modelRI: object, timeout: int) -> int:
    """Run the model and wait for it (timeout in ms, -1 for ever; the emulator does not time out)."""
    api, rt_fn = "aclmdlRIExecute", "rtsModelExecute"
    mdl = model_arg(modelRI, api, rt_fn)  # the ACL layer's null check, then the handle's
    t = int_arg(timeout, "timeout", -(2**31), 2**31 - 1)
    if t < -1 or t == 0:  # ApiErrorDecorator::ModelExecuteSync
        raise ApiError(RT_PARAM, rt_value(_EXEC_SYNC, t, "timeout", TIMEOUT_EXPECT), fb_invalid(rt_fn))
    if mdl.kind == "capture":
        raise ApiError(
            RT_PARAM,
            ("EE1016", f"{_EXEC_SYNC} failed. Reason: ACL Graph mode is not supported."),
            fb_invalid(rt_fn),
        )
    ctx = need_context(rt_fn)
    own_model(mdl, _EXEC_SYNC, rt_fn)  # ApiImpl::ModelExecuteSync
    _runnable(mdl, api, rt_fn)
    check_stopped(
        ctx
    )  # the model-execute task's submission: Context::CheckTaskSend (Model::SubmitExecuteTask, model.cc:1257)
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
    mdl = model_arg(modelRI, "Aborting the model running instance", "rtsModelAbort", acl_check=False)
    if mdl.is_sub:
        return E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    own_model(mdl, "Aborting the model running instance", "rtsModelAbort")  # ApiImpl::ModelAbort
    mdl.aborted += 1
    return E.ACL_SUCCESS


@rt_api
def aclmdlRIUpdate(modelRI: object) -> int:
    """Make task parameter changes (aclmdlRITaskSetParams, aclmdlRITaskDisable) take effect:
    the emulator's replays read the tasks when they run, so only the state is checked."""
    mdl = model_arg(modelRI, "Updating the model running instance", "rtModelUpdate", acl_check=False)
    if mdl.kind != "capture":
        raise refused(
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
    mdl = model_arg(modelRI, api, "rtModelDestroy")
    if mdl.is_sub:
        return E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    own_model(mdl, "Destroying a model running instance", "rtModelDestroy")  # ApiImpl::ModelDestroy
    if mdl.state == "capturing":  # Context::ModelDestroy: logged only, then FuncErrorReason
        raise ApiError(E.ACL_ERROR_RT_MODEL_CAPTURED, fb_inner("rtModelDestroy", "model is captured"))
    destroy_model(mdl)
    return E.ACL_SUCCESS


def destroy_model(mdl: M.Model) -> None:
    """Free a model, its sub-models, condition words and model streams; run its destroy callbacks."""
    for sub in mdl.subs:
        destroy_model(sub)
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
    mdl = model_arg(
        modelRI, "Registering a model destruction callback", "rtModelDestroyRegisterCallback", acl_check=False
    )
    if func is None:
        raise rt_null("Registering a model destruction callback", "fn", "rtModelDestroyRegisterCallback")
    if not callable(func):
        raise ApiError(PARAM, emu(f"aclmdlRIDestroyRegisterCallback: func must be callable, got {describe(func)}."))
    mdl.callbacks.append((func, userData))
    return E.ACL_SUCCESS


@rt_api
def aclmdlRIDestroyUnregisterCallback(modelRI: object, func: object) -> int:
    """Forget a destroy callback registered for the model."""
    mdl = model_arg(
        modelRI, "Unregistering a model destruction callback", "rtModelDestroyUnregisterCallback", acl_check=False
    )
    if func is None:
        raise rt_null("Unregistering a model destruction callback", "fn", "rtModelDestroyUnregisterCallback")
    kept = [(f, d) for f, d in mdl.callbacks if f != func]
    if len(kept) == len(mdl.callbacks):
        raise ApiError(RT_PARAM, emu(f"aclmdlRIDestroyUnregisterCallback: {func!r} is not registered for {mdl!r}."))
    mdl.callbacks = kept
    return E.ACL_SUCCESS


__all__ = [
    "ACL_MODEL_STREAM_FLAG_DEFAULT",
    "ACL_MODEL_STREAM_FLAG_HEAD",
    "aclmdlRIAbort",
    "aclmdlRIBindStream",
    "aclmdlRIBuildBegin",
    "aclmdlRIBuildEnd",
    "aclmdlRIDestroy",
    "aclmdlRIDestroyRegisterCallback",
    "aclmdlRIDestroyUnregisterCallback",
    "aclmdlRIEndTask",
    "aclmdlRIExecute",
    "aclmdlRIExecuteAsync",
    "aclmdlRIUnbindStream",
    "aclmdlRIUpdate",
    "aclrtActiveStream",
    "aclrtSwitchStream",
]
