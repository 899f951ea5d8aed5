"""Stop 31 (misc): aclrtPersistentTaskClean of an AI CPU stream bound to a built model, and the
capture calls on a stream that has a model (a capture's model stream, a bound stream)."""

from __future__ import annotations

from rt_streams import capture_model_stream, new_stream
from rt_texts import FUNC_ERROR_REASON, INDENT, TRACEBACK

from aclnn_py import (
    ACL_ERROR_RT_INTERNAL_ERROR,
    ACL_ERROR_RT_MODEL_CAPTURED,
    ACL_ERROR_RT_STREAM_MODEL,
    ACL_MODEL_RI_CAPTURE_MODE_RELAXED,
    ACL_MODEL_RI_CAPTURE_STATUS_NONE,
    ACL_STREAM_CPU_SCHEDULE,
    ACL_STREAM_PERSISTENT,
    Ref,
    aclGetRecentErrMsg,
)
from aclnn_py.runtime import api as A
from aclnn_py.runtime import api_stream_task as T
from aclnn_py.runtime import model_ri as M

RELAXED = ACL_MODEL_RI_CAPTURE_MODE_RELAXED


def _bound_text(what: str, stream: object, model: object) -> str:
    return (
        f"Invalid_Argument(EE1017): Stream {what} capture failed. Parameter stream is invalid. Reason: Stream "
        f"{stream.ident} is already bound to model {model.ident}.\n"
    )


def test_persistent_task_clean_of_a_bound_cpu_schedule_stream_lacks_the_bind_flag(dev0):
    """Model::BindStream gives an AI CPU stream (ACL_STREAM_CPU_SCHEDULE: RT_STREAM_AICPU) its model
    but never the bind flag (model.cc:509-513): ApiErrorDecorator::StreamTaskClean's bind check
    (api_error_standard_soc.cc:376-378) refuses it, before the AI CPU check (:379-382)."""
    s = new_stream(ACL_STREAM_PERSISTENT | ACL_STREAM_CPU_SCHEDULE)
    m, buf = Ref(), Ref()
    assert A.aclrtMalloc(buf, 64, 0) == 0
    assert A.aclmdlRIBuildBegin(m, 0) == 0
    assert A.aclmdlRIBindStream(m.value, s, 0) == 0
    assert A.aclrtMemset(buf.value, 64, 1, 64) == 0
    assert A.aclmdlRIEndTask(m.value, s) == 0
    assert A.aclmdlRIBuildEnd(m.value, None) == 0
    mdl = M.model_stream(s)
    assert mdl is not None
    kept = list(mdl.tasks_of(s))
    assert T.aclrtPersistentTaskClean(s) == ACL_ERROR_RT_INTERNAL_ERROR
    assert aclGetRecentErrMsg() == (
        "Invalid_Argument(EE1017): Clearing tasks in a stream failed. Parameter stream is invalid. Reason: Stream "
        f"(stream_id={s.ident}) must be bound to a model.\n"
        + TRACEBACK
        + f"{INDENT}rtsPersistentTaskClean execution failed, reason=stream invalid{FUNC_ERROR_REASON}\n"
    )
    assert mdl.tasks_of(s) == kept  # nothing cleared
    # a non-persistent one: the persistent check first (EE1011)
    plain = new_stream(ACL_STREAM_CPU_SCHEDULE)
    assert T.aclrtPersistentTaskClean(plain) == ACL_ERROR_RT_INTERNAL_ERROR
    assert aclGetRecentErrMsg().startswith(
        "Invalid_Argument(EE1011): Clearing tasks in a stream failed. Value RT_STREAM_PERSISTENT for parameter "
        f"stream flag is invalid. Reason: Non-persistent stream (stream_id={plain.ident}) does not support stream "
        "task clearance.\n"
    )
    assert A.aclmdlRIDestroy(m.value) == 0
    for st in (s, plain):
        assert A.aclrtDestroyStream(st) == 0
    assert A.aclrtFree(buf.value) == 0


def test_a_capture_model_stream_cannot_begin_or_end_a_capture(dev0):
    """ApiImpl::StreamBeginCapture / StreamEndCapture (v100/api_impl_aclgraph.cc:32-34, 57-59): a stream
    with a model (Model::BindStream / AddStream set it for a capture's model stream) is refused with
    107005 EE1017, as a stream bound by aclmdlRIBindStream is; the capture does not start."""
    origin, model, ms = capture_model_stream()
    assert A.aclmdlRICaptureBegin(ms, RELAXED) == ACL_ERROR_RT_STREAM_MODEL
    assert aclGetRecentErrMsg() == _bound_text("begin", ms, model)
    status, into = Ref(), Ref()
    assert A.aclmdlRICaptureGetInfo(ms, status, into) == 0
    assert status.value == ACL_MODEL_RI_CAPTURE_STATUS_NONE
    assert A.aclmdlRICaptureEnd(ms, Ref()) == ACL_ERROR_RT_STREAM_MODEL
    assert aclGetRecentErrMsg() == _bound_text("end", ms, model)
    assert A.aclmdlRIDestroy(model) == 0
    assert A.aclrtDestroyStream(origin) == 0


def _switch_capture(size: int) -> tuple[object, object, list[object]]:
    """A capture on a new stream with a SWITCH task of ``size`` empty sub-models: (the stream, its
    model, the sub-models)."""
    st = new_stream()
    assert A.aclmdlRICaptureBegin(st, RELAXED) == 0
    parent = Ref()
    assert A.aclmdlRICaptureGetInfo(st, None, parent) == 0
    h = Ref()
    assert A.aclmdlRICondHandleCreate(parent.value, 0, 0, h) == 0
    subs: list[object] = [None] * size
    info = {"handle": h.value, "type": M.COND_SWITCH, "size": size, "modelRIArray": subs}
    assert A.aclmdlRIAddCondTask(info, st, 0) == 0
    return st, parent.value, subs


def test_capture_to_a_sub_model_checks_the_stream_model_before_the_sub_model_status(dev0):
    """rtStreamBeginCaptureToModel: ApiImpl::StreamBeginCapture's bound check (api_impl_aclgraph.cc:32-34)
    comes before Context::StreamBeginCapture's CheckCaptureModelIsCaptured (context_aclgraph.cc:281)."""
    st, parent, subs = _switch_capture(2)
    side = new_stream()
    assert A.aclmdlRICaptureToModelRIBegin(side, subs[0], RELAXED) == 0
    assert A.aclmdlRICaptureEnd(side, Ref()) == 0
    # a bound stream and an already captured sub-model: the bound stream decides
    bound, m = new_stream(ACL_STREAM_PERSISTENT), Ref()
    assert A.aclmdlRIBuildBegin(m, 0) == 0
    assert A.aclmdlRIBindStream(m.value, bound, 0) == 0
    assert A.aclmdlRICaptureToModelRIBegin(bound, subs[0], RELAXED) == ACL_ERROR_RT_STREAM_MODEL
    assert aclGetRecentErrMsg() == _bound_text("begin", bound, m.value)
    # a free stream: the sub-model's status
    assert A.aclmdlRICaptureToModelRIBegin(side, subs[0], RELAXED) == ACL_ERROR_RT_MODEL_CAPTURED
    assert f"ModelRI (model_id={subs[0].ident}) is already captured." in aclGetRecentErrMsg()
    assert A.aclmdlRICaptureEnd(st, Ref()) == 0
    # a capture's model stream and an empty sub-model: refused, the sub-model stays empty
    origin, other, ms = capture_model_stream()
    assert A.aclmdlRICaptureToModelRIBegin(ms, subs[1], RELAXED) == ACL_ERROR_RT_STREAM_MODEL
    assert aclGetRecentErrMsg() == _bound_text("begin", ms, other)
    assert subs[1].state == "empty"
    for mdl in (parent, m.value, other):
        assert A.aclmdlRIDestroy(mdl) == 0
    for s in (st, side, bound, origin):
        assert A.aclrtDestroyStream(s) == 0


def test_ascend950_capture_model_stream_cannot_end_a_capture(chip):
    """On Ascend950 the model stream is persistent: StreamFlagIsSupportCapture (capture_adapt_v200.cc:24-33)
    refuses it in ApiErrorDecorator::StreamEndCapture before the bound check: 507000 EE1011."""
    chip("Ascend950")
    origin, model, ms = capture_model_stream()
    assert A.aclmdlRICaptureEnd(ms, Ref()) == ACL_ERROR_RT_INTERNAL_ERROR
    assert aclGetRecentErrMsg().startswith(
        "Invalid_Argument(EE1011): Stream end capture failed. Value 1 for parameter stream flag is invalid. "
        f"Reason: Stream (stream_id={ms.ident}) does not support the ACL Graph.\n"
    )
    assert A.aclmdlRIDestroy(model) == 0
    assert A.aclrtDestroyStream(origin) == 0
