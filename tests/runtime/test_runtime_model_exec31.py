"""Stop 31 of the model runtime instances: the stream flags ApiErrorDecorator::ModelExecute refuses
on Ascend950 (RT_FEATURE_MODEL_STREAM_DOT_SYNC; hicann/runtime api_error.cc:3987-4027), the order
of its checks, and the flag of a capture's model streams (GetCaptureStreamFlag: RT_STREAM_PERSISTENT
on Ascend950, capture_adapt_v200.cc:35; RT_STREAM_DEFAULT elsewhere, capture_adapt_v100.cc:36)."""

from __future__ import annotations

import pytest
from rt_streams import capture_model_stream, last_error, new_stream
from rt_texts import INDENT, TRACEBACK

from aclnn_py import (
    ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
    ACL_ERROR_RT_INTERNAL_ERROR,
    ACL_ERROR_RT_PARAM_INVALID,
    ACL_ERROR_RT_STREAM_MODEL,
    ACL_MODEL_RI_CAPTURE_MODE_RELAXED,
    ACL_STREAM_CPU_SCHEDULE,
    ACL_STREAM_DEVICE_USE_ONLY,
    ACL_STREAM_PERSISTENT,
    Ref,
    aclGetRecentErrMsg,
)
from aclnn_py.runtime import api as A

_EXEC = "Executing the model running instance"
_RT_FAILED = f"{INDENT}The argument is invalid. Reason: rtModelExecute execution failed.\n"


def _flag_refusal(value: int, reason: str) -> str:
    """COND_RETURN_AND_MSG_OUTER's EE1006, then rtModelExecute's FuncErrorReason (RT_ERROR_INVALID_VALUE)."""
    return (
        f"Not_Supported(EE1006): {_EXEC} failed. Stream flag value {value} is not supported. Reason: {reason}.\n"
        + TRACEBACK
        + _RT_FAILED
    )


def _model_stream_refusal() -> str:
    return (
        f"Invalid_Argument(EE1017): {_EXEC} failed. Parameter stm is invalid. Reason: The current stream cannot be "
        "the same as the model stream.\n" + TRACEBACK + _RT_FAILED
    )


def _built_model() -> tuple[object, object]:
    """(a ready built model, its persistent head stream)."""
    st = new_stream(ACL_STREAM_PERSISTENT)
    m = Ref()
    assert A.aclmdlRIBuildBegin(m, 0) == 0
    assert A.aclmdlRIBindStream(m.value, st, A.ACL_MODEL_STREAM_FLAG_HEAD) == 0
    assert A.aclmdlRIEndTask(m.value, st) == 0
    assert A.aclmdlRIBuildEnd(m.value, None) == 0
    return m.value, st


def _sub_model() -> tuple[object, object, object]:
    """(the capture stream, the parent model, a sub-model of one of its conditional tasks)."""
    st = new_stream()
    assert A.aclmdlRICaptureBegin(st, ACL_MODEL_RI_CAPTURE_MODE_RELAXED) == 0
    parent, h = Ref(), Ref()
    assert A.aclmdlRICaptureGetInfo(st, None, parent) == 0
    assert A.aclmdlRICondHandleCreate(parent.value, 0, 0, h) == 0
    subs: list[object] = [None]
    assert A.aclmdlRIAddCondTask({"handle": h.value, "type": 0, "size": 1, "modelRIArray": subs}, st, 0) == 0
    assert A.aclmdlRICaptureEnd(st, parent) == 0
    return st, parent.value, subs[0]


def _stream_flags(stream: object) -> int:
    f = Ref()
    assert A.aclrtStreamGetFlags(stream, f) == 0
    return int(f.value)


# -- item 1: the execution stream's flags on Ascend950 ------------------------------------------


_REASONS = {
    ACL_STREAM_CPU_SCHEDULE: "The current stream is used to carry AI CPU scheduling tasks and does not support "
    "execution models",
    ACL_STREAM_PERSISTENT: "Sink streams do not support execution models",
}


@pytest.mark.parametrize(
    ("flags", "rt_value", "reason"),
    [
        (ACL_STREAM_CPU_SCHEDULE, 8, _REASONS[ACL_STREAM_CPU_SCHEDULE]),
        (ACL_STREAM_PERSISTENT, 1, _REASONS[ACL_STREAM_PERSISTENT]),
        (ACL_STREAM_DEVICE_USE_ONLY, 2048, None),
        # RT_STREAM_AICPU is checked first, then RT_STREAM_PERSISTENT; the value is the whole flag word
        (ACL_STREAM_PERSISTENT | ACL_STREAM_CPU_SCHEDULE, 9, _REASONS[ACL_STREAM_CPU_SCHEDULE]),
    ],
)
def test_ascend950_refuses_to_execute_on_an_ai_cpu_persistent_or_device_only_stream(chip, flags, rt_value, reason):
    """107000 EE1006 with the stream's runtime flags (aclrtCreateStreamWithConfig's mapping: 0x10 ->
    RT_STREAM_AICPU 0x8, 0x4 -> RT_STREAM_PERSISTENT 0x1, 0x20 -> RT_STREAM_CP_PROCESS_USE 0x800), then
    the rt wrapper's FuncErrorReason; kept as the last error."""
    chip("Ascend950")
    origin, model, _ = capture_model_stream()
    st = new_stream(flags)
    if reason is None:
        reason = f"Stream (stream_id={st.ident}) can be called only on the device"
    assert A.aclmdlRIExecuteAsync(model, st) == ACL_ERROR_RT_PARAM_INVALID
    assert aclGetRecentErrMsg() == _flag_refusal(rt_value, reason)
    assert last_error() == ACL_ERROR_RT_PARAM_INVALID
    assert A.aclmdlRIExecuteAsync(model, None) == 0  # a NULL stream is not checked: the default stream runs it
    assert A.aclmdlRIExecuteAsync(model, origin) == 0
    assert A.aclrtSynchronizeStream(origin) == 0
    assert A.aclmdlRIDestroy(model) == 0
    for s in (st, origin):
        assert A.aclrtDestroyStream(s) == 0


@pytest.mark.parametrize("flags", [ACL_STREAM_CPU_SCHEDULE, ACL_STREAM_PERSISTENT, ACL_STREAM_DEVICE_USE_ONLY])
def test_other_chips_execute_on_such_streams(chip, flags):
    """Without RT_FEATURE_MODEL_STREAM_DOT_SYNC the decorator has no flag check."""
    chip("Ascend910B")
    origin, model, _ = capture_model_stream()
    st = new_stream(flags)
    assert A.aclmdlRIExecuteAsync(model, st) == 0
    assert A.aclmdlRIDestroy(model) == 0
    for s in (st, origin):
        assert A.aclrtDestroyStream(s) == 0


def test_the_model_stream_check_comes_before_the_flag_check(chip):
    """A stream bound to a model (persistent, as Ascend950 requires) is refused as a model stream
    (EE1017), as is a capture's model stream; the report ends in rtModelExecute's FuncErrorReason."""
    chip("Ascend950")
    built, bound = _built_model()
    origin, captured, ms = capture_model_stream()
    for model, st in ((captured, bound), (built, ms)):
        assert A.aclmdlRIExecuteAsync(model, st) == ACL_ERROR_RT_PARAM_INVALID
        assert aclGetRecentErrMsg() == _model_stream_refusal()
        assert last_error() == ACL_ERROR_RT_PARAM_INVALID
    assert A.aclmdlRIDestroy(captured) == 0
    assert A.aclmdlRIDestroy(built) == 0
    for s in (bound, origin):
        assert A.aclrtDestroyStream(s) == 0


def test_the_model_stream_refusal_ends_in_the_wrapper_s_report(dev0):
    """ERROR_RETURN_WITH_EXT_ERRCODE reports RT_ERROR_INVALID_VALUE as EE1001 on any chip."""
    built, bound = _built_model()
    origin, captured, _ = capture_model_stream()
    assert A.aclmdlRIExecuteAsync(captured, bound) == ACL_ERROR_RT_PARAM_INVALID
    assert aclGetRecentErrMsg() == _model_stream_refusal()
    assert A.aclmdlRIDestroy(captured) == 0
    assert A.aclmdlRIDestroy(built) == 0
    for s in (bound, origin):
        assert A.aclrtDestroyStream(s) == 0


def test_the_flag_check_comes_before_the_sub_model_check(chip):
    """A sub-model's COND_RETURN_WARN (207000, no report, no last error) follows the flag check."""
    chip("Ascend950")
    st, parent, sub = _sub_model()
    persistent = new_stream(ACL_STREAM_PERSISTENT)
    assert A.aclmdlRIExecuteAsync(sub, persistent) == ACL_ERROR_RT_PARAM_INVALID
    assert aclGetRecentErrMsg() == _flag_refusal(1, _REASONS[ACL_STREAM_PERSISTENT])
    last_error()
    aclGetRecentErrMsg()
    assert A.aclmdlRIExecuteAsync(sub, st) == ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    assert aclGetRecentErrMsg() is None  # nothing reported
    assert last_error() == 0  # rtModelExecute's COND_RETURN_WITH_NOLOG keeps no last error
    assert A.aclmdlRIDestroy(parent) == 0
    for s in (st, persistent):
        assert A.aclrtDestroyStream(s) == 0


def test_the_sub_model_check_comes_before_the_context_checks(dev0):
    """The decorator refuses a sub-model before ApiImpl's model-context check (and its context)."""
    st, parent, sub = _sub_model()
    own, other = Ref(), Ref()
    assert A.aclrtGetCurrentContext(own) == 0
    assert A.aclrtCreateContext(other, 0) == 0  # current now
    assert A.aclmdlRIExecuteAsync(sub, st) == ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    assert A.aclrtSetCurrentContext(own.value) == 0
    assert A.aclrtDestroyContext(other.value) == 0
    assert A.aclmdlRIDestroy(parent) == 0
    assert A.aclrtDestroyStream(st) == 0


def test_aclmdlriexecute_s_own_stream_is_not_checked(chip):
    """aclmdlRIExecute goes through rtsModelExecute / ModelExecuteSync, which has no flag check."""
    chip("Ascend950")
    built, bound = _built_model()
    assert A.aclmdlRIExecute(built, -1) == 0
    assert A.aclmdlRIDestroy(built) == 0
    assert A.aclrtDestroyStream(bound) == 0


# -- item 2: a capture's model streams are persistent on Ascend950 ------------------------------


def _joined_capture() -> tuple[object, object, object, list[object]]:
    """(origin, side, the model, its two model streams): a capture the side stream joined."""
    origin, side = new_stream(), new_stream()
    fork, join = Ref(), Ref()
    assert (
        A.aclrtCreateEventExWithFlag(fork, 0x1) == 0 and A.aclrtCreateEventExWithFlag(join, 0x1) == 0
    )  # ACL_EVENT_SYNC
    assert A.aclmdlRICaptureBegin(origin, ACL_MODEL_RI_CAPTURE_MODE_RELAXED) == 0
    assert A.aclrtRecordEvent(fork.value, origin) == 0
    assert A.aclrtStreamWaitEvent(side, fork.value) == 0, aclGetRecentErrMsg()
    assert A.aclrtRecordEvent(join.value, side) == 0
    assert A.aclrtStreamWaitEvent(origin, join.value) == 0
    m = Ref()
    assert A.aclmdlRICaptureEnd(origin, m) == 0, aclGetRecentErrMsg()
    streams, n = [None, None], Ref(2)
    assert A.aclmdlRIGetStreams(m.value, streams, n) == 0 and n.value == 2
    for ev in (fork, join):
        assert A.aclrtDestroyEvent(ev.value) == 0
    return origin, side, m.value, streams


@pytest.mark.parametrize(("name", "flags"), [("Ascend950", ACL_STREAM_PERSISTENT), ("Ascend910B", 0)])
def test_a_capture_s_model_streams_carry_the_capture_stream_flag(chip, name, flags):
    """aclrtStreamGetFlags maps RT_STREAM_PERSISTENT back to ACL_STREAM_PERSISTENT (stream.cpp:212-214),
    for the origin's model stream and a joined stream's (AllocCascadeCaptureStream /
    StreamAddToCaptureModelProc, context_aclgraph.cc:98, 178)."""
    chip(name)
    origin, side, model, streams = _joined_capture()
    assert [_stream_flags(s) for s in streams] == [flags, flags]
    assert _stream_flags(origin) == 0 and _stream_flags(side) == 0
    assert A.aclmdlRIDestroy(model) == 0
    for s in (origin, side):
        assert A.aclrtDestroyStream(s) == 0


def test_ascend950_capture_model_stream_cannot_begin_a_capture(chip):
    """StreamFlagIsSupportCapture refuses RT_STREAM_PERSISTENT on Ascend950 (capture_adapt_v200.cc:24-33):
    507000 EE1011 with the value 1, before Context::StreamBeginCapture's bound check."""
    chip("Ascend950")
    origin, model, ms = capture_model_stream()
    assert A.aclmdlRICaptureBegin(ms, ACL_MODEL_RI_CAPTURE_MODE_RELAXED) == ACL_ERROR_RT_INTERNAL_ERROR
    msg = aclGetRecentErrMsg()
    assert msg.startswith(
        "Invalid_Argument(EE1011): Stream begin capture failed. Value 1 for parameter stream flag is invalid. "
        f"Reason: Stream (stream_id={ms.ident}) does not support the ACL Graph.\n"
    ), msg
    assert A.aclmdlRIDestroy(model) == 0
    assert A.aclrtDestroyStream(origin) == 0


@pytest.mark.parametrize("name", ["Ascend950", "Ascend910B"])
def test_binding_a_capture_model_stream_to_another_model(chip, name):
    """rtsModelBindStream: the persistent check (EE1017), then the model-stream check (EE1007,
    107021): Ascend950's capture model stream passes the first."""
    chip(name)
    origin, captured, ms = capture_model_stream()
    m = Ref()
    assert A.aclmdlRIBuildBegin(m, 0) == 0
    rc = A.aclmdlRIBindStream(m.value, ms, A.ACL_MODEL_STREAM_FLAG_HEAD)
    msg = aclGetRecentErrMsg()
    if name == "Ascend950":
        assert rc == ACL_ERROR_RT_STREAM_MODEL
        assert msg.startswith(
            f"Resource_Error_Bind_Stream(EE1007): Failed to bind stream (stream_id={ms.ident}). Reason: The current "
            f"stream has been bound to a model (model_id={captured.ident}) and cannot be bound to the input model "
            f"(model_id={m.value.ident})."
        ), msg
    else:
        assert rc == ACL_ERROR_RT_PARAM_INVALID
        assert "Non-persistent stream cannot be bound to a model" in msg
    for mdl in (m.value, captured):
        assert A.aclmdlRIDestroy(mdl) == 0
    assert A.aclrtDestroyStream(origin) == 0
