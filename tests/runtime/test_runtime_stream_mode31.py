"""Stop 31 of the streams chapter: what aclrtCreateStreamV2 does with its config handle (the lite
library's src/acl/aclrt_c/runtime/stream.c and the compact runtime's rtStreamCreateWithConfig,
src/runtime_compact/feature/src/stream.c) and the abort mode of ApiImpl::StreamSetMode
(hicann/runtime api_impl.cc:1991-2032, stream.cc:4303-4352, stream.hpp:597-604)."""

from __future__ import annotations

import pytest
from rt_streams import failing_copy, last_error, new_stream, set_attr_mode
from rt_texts import INDENT, TRACEBACK

from aclnn_py import (
    ACL_CONTINUE_ON_FAILURE,
    ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
    ACL_ERROR_RT_SYS_DMA,
    ACL_MODEL_RI_CAPTURE_MODE_RELAXED,
    ACL_RT_STREAM_FLAG,
    ACL_RT_STREAM_PRIORITY,
    ACL_STOP_ON_FAILURE,
    ACL_STREAM_FAST_LAUNCH,
    ACL_STREAM_PERSISTENT,
    Ref,
    aclGetRecentErrMsg,
)
from aclnn_py.runtime import api as A
from aclnn_py.runtime.api_stream_attr import (
    ACL_STREAM_ATTR_FAILURE_MODE,
    aclrtGetStreamAttribute,
    aclrtStreamAttrValue,
)

_SET_MODE = "Setting the error handling mode of a stream"
_UNSUPPORTED = "The argument is invalid. Reason: rtsStreamSetAttribute execution failed, the feature is not supported."


def _v2_stream(flag: int, priority: int = 0):
    h = A.aclrtCreateStreamConfigHandle()
    assert A.aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_FLAG, flag.to_bytes(8, "little"), 8) == 0
    assert A.aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_PRIORITY, priority, 4) == 0
    s = Ref()
    code = A.aclrtCreateStreamV2(s, h)
    assert A.aclrtDestroyStreamConfigHandle(h) == 0
    return code, s.value


def _mode_set(stream) -> int:
    v = aclrtStreamAttrValue()
    assert aclrtGetStreamAttribute(stream, ACL_STREAM_ATTR_FAILURE_MODE, v) == 0
    return int(v.failureMode)


def _fail(stream) -> None:
    """The copy fails; the synchronize reports it."""
    failing_copy(stream)
    assert A.aclrtSynchronizeStream(stream) == ACL_ERROR_RT_SYS_DMA
    aclGetRecentErrMsg()
    assert last_error() == ACL_ERROR_RT_SYS_DMA  # aclrtGetLastError takes it: the thread has none now


def _abort_refusal(st) -> str:
    return (
        f"Not_Supported(EE1016): {_SET_MODE} failed. Reason: Changing stream {st.ident} from abort mode to stop mode "
        "is not supported.\n"
    )


# -- aclrtCreateStreamV2: the handle's flag is ignored ----------------------------------------------


def test_create_stream_v2_keeps_the_priority_and_ignores_the_flag(dev0):
    """The compact runtime's Stream keeps priority, work pointer and size, no flag: a stream of the
    handle's RT_STREAM_FAST_LAUNCH (0x200) has no flag, its priority is the handle's."""
    code, s = _v2_stream(0x200, priority=3)
    assert code == 0
    prio, flags = Ref(), Ref()
    assert A.aclrtStreamGetPriority(s, prio) == 0 and prio.value == 3
    assert A.aclrtStreamGetFlags(s, flags) == 0 and flags.value == 0
    assert A.aclrtDestroyStream(s) == 0


def test_create_stream_v2_does_not_check_the_flag(dev0):
    """rtStreamCreateWithFlags' check of RT_STREAM_CP_PROCESS_USE (0x800) without RT_STREAM_ACSQ_LOCK
    is not on this path: the stream is made, a plain stream (not device-use-only: its failure mode
    can be set)."""
    code, s = _v2_stream(0x800)
    assert code == 0 and aclGetRecentErrMsg() is None
    assert A.aclrtSetStreamFailureMode(s, ACL_STOP_ON_FAILURE) == 0 and _mode_set(s) == ACL_STOP_ON_FAILURE
    assert A.aclrtDestroyStream(s) == 0


def test_create_stream_v2_makes_no_huge_stream_check(chip):
    """Ascend310P has no RT_FEATURE_STREAM_HUGE_DEPTH: rtStreamCreateWithFlags refuses RT_STREAM_HUGE
    (0x04) there, the compact runtime never sees the flag."""
    chip("Ascend310P")
    code, s = _v2_stream(0x04)
    assert code == 0
    assert A.aclrtDestroyStream(s) == 0


# -- the abort mode of ApiImpl::StreamSetMode --------------------------------------------------------


@pytest.mark.parametrize("mode", [ACL_STOP_ON_FAILURE, ACL_CONTINUE_ON_FAILURE])
def test_a_stopped_stream_whose_task_failed_refuses_every_mode(deferred, dev0, findings, mode):
    """Stream::EnterFailureAbort: the stream's task failed in stop mode, its mode in force is ABORT.
    Either mode asked is refused with the abort EE1016 (api_impl.cc:2022-2027; STOP is not the
    'same mode', CONTINUE is not the stop-to-continue case): silent in rtStreamSetMode, EE1001 and
    the last error through rtsStreamSetAttribute. The mode set (the attribute) stays STOP."""
    st = new_stream()
    assert A.aclrtSetStreamFailureMode(st, ACL_STOP_ON_FAILURE) == 0
    _fail(st)
    assert A.aclrtSetStreamFailureMode(st, mode) == ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    assert aclGetRecentErrMsg() == _abort_refusal(st)
    assert last_error() == 0
    assert set_attr_mode(st, mode) == ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    assert aclGetRecentErrMsg() == _abort_refusal(st) + TRACEBACK + f"{INDENT}{_UNSUPPORTED}\n"
    assert last_error() == ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    assert _mode_set(st) == ACL_STOP_ON_FAILURE
    findings.refresh()
    assert A.aclrtDestroyStreamForce(st) == 0


def test_a_continue_stream_that_failed_in_a_stopped_context_can_still_be_set(deferred, dev0, findings):
    """Another stream set the context to stop mode; this one (its mode set CONTINUE) failed and is in
    ABORT. CONTINUE again succeeds, STOP too (the mode set becomes STOP, ABORT stays in force): from
    then on both are refused with the abort EE1016."""
    a, b = new_stream(), new_stream()
    assert A.aclrtSetStreamFailureMode(a, ACL_STOP_ON_FAILURE) == 0
    _fail(b)
    assert A.aclrtSetStreamFailureMode(b, ACL_CONTINUE_ON_FAILURE) == 0
    assert A.aclrtSetStreamFailureMode(b, ACL_STOP_ON_FAILURE) == 0 and _mode_set(b) == ACL_STOP_ON_FAILURE
    for mode in (ACL_STOP_ON_FAILURE, ACL_CONTINUE_ON_FAILURE):
        assert A.aclrtSetStreamFailureMode(b, mode) == ACL_ERROR_RT_FEATURE_NOT_SUPPORT
        assert aclGetRecentErrMsg() == _abort_refusal(b)
    findings.refresh()
    assert A.aclrtDestroyStreamForce(a) == 0 and A.aclrtDestroyStreamForce(b) == 0


def test_only_the_stream_whose_task_failed_enters_abort(deferred, dev0, findings):
    """The other stream's work the stopped context dropped did not fail on the device: that stream
    reports the context's failure at its synchronize but keeps its mode, and takes STOP."""
    a, b = new_stream(), new_stream()
    assert A.aclrtSetStreamFailureMode(a, ACL_STOP_ON_FAILURE) == 0
    p = Ref()
    assert A.aclrtMalloc(p, 16, 0) == 0
    assert A.aclrtMemsetAsync(p.value, 16, 9, 16, b) == 0  # still queued when a's task fails
    _fail(a)
    assert A.aclrtSynchronizeStream(b) == ACL_ERROR_RT_SYS_DMA
    aclGetRecentErrMsg()
    assert A.aclrtSetStreamFailureMode(b, ACL_STOP_ON_FAILURE) == 0
    assert A.aclrtSetStreamFailureMode(a, ACL_STOP_ON_FAILURE) == ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    findings.refresh()
    assert A.aclrtDestroyStreamForce(a) == 0 and A.aclrtDestroyStreamForce(b) == 0
    assert A.aclrtFree(p.value) == 0


def test_a_failure_in_continue_mode_does_not_abort_the_stream(deferred, dev0, findings):
    """EnterFailureAbort returns at once unless the context is in stop mode."""
    st = new_stream()
    _fail(st)
    assert A.aclrtSetStreamFailureMode(st, ACL_STOP_ON_FAILURE) == 0
    findings.refresh()
    assert A.aclrtDestroyStreamForce(st) == 0


def test_stream_abort_puts_the_mode_set_back_in_force(deferred, dev0, findings):
    """aclrtStreamAbort ends in Stream::ResClear (failureMode_ = GetMode()): the stream is in STOP
    again, so STOP is the same mode and CONTINUE the stop-to-continue refusal."""
    st = new_stream()
    assert A.aclrtSetStreamFailureMode(st, ACL_STOP_ON_FAILURE) == 0
    _fail(st)
    assert A.aclrtStreamAbort(st) == 0
    assert A.aclrtSetStreamFailureMode(st, ACL_STOP_ON_FAILURE) == 0
    assert A.aclrtSetStreamFailureMode(st, ACL_CONTINUE_ON_FAILURE) == ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    assert aclGetRecentErrMsg().startswith(
        f"Not_Supported(EE1016): {_SET_MODE} failed. Reason: Changing stream {st.ident} from stop mode to continue "
        "mode is not supported."
    )
    findings.refresh()
    assert A.aclrtDestroyStreamForce(st) == 0


def test_a_capturing_stream_takes_a_failure_mode(dev0):
    """Neither ApiErrorDecorator::StreamSetMode nor ApiImpl::StreamSetMode looks at a capture: the
    capturing stream itself has no bind flag (only the capture's model stream has)."""
    st = new_stream()
    assert A.aclmdlRICaptureBegin(st, ACL_MODEL_RI_CAPTURE_MODE_RELAXED) == 0
    assert A.aclrtSetStreamFailureMode(st, ACL_STOP_ON_FAILURE) == 0 and _mode_set(st) == ACL_STOP_ON_FAILURE
    m = Ref()
    assert A.aclmdlRICaptureEnd(st, m) == 0
    assert A.aclmdlRIDestroy(m.value) == 0
    assert A.aclrtDestroyStream(st) == 0


# -- ApiErrorDecorator::ModelBindStream's stream checks (api_error.cc:3910-3930) ----------------------

_BIND = "Binding a model running instance to a stream"


def _bind(stream) -> int:
    m = Ref()
    assert A.aclmdlRIBuildBegin(m, 0) == 0
    code = A.aclmdlRIBindStream(m.value, stream, A.ACL_MODEL_STREAM_FLAG_HEAD)
    assert A.aclmdlRIDestroy(m.value) == 0
    return code


def _stream_id(stream) -> int:
    sid = Ref()
    assert A.aclrtStreamGetId(stream, sid) == 0
    return sid.value


@pytest.mark.parametrize("aborted", [False, True])
def test_a_stream_in_stop_or_abort_mode_cannot_be_bound_to_a_model(deferred, dev0, findings, aborted):
    """GetFailureMode() == STOP_ON_FAILURE, then == ABORT_ON_FAILURE: 207000, EE1016, the wrapper's
    EE1001 (FEATURE_NOT_SUPPORT)."""
    st = new_stream(ACL_STREAM_PERSISTENT)
    assert A.aclrtSetStreamFailureMode(st, ACL_STOP_ON_FAILURE) == 0
    if aborted:  # a persistent stream: its synchronize returns 0 at once, the copy fails unreported
        failing_copy(st)
        assert A.aclrtSynchronizeStream(st) == 0
    assert _bind(st) == ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    mode = "Abort" if aborted else "Stop"
    msg = aclGetRecentErrMsg()
    assert f"{_BIND} failed. Reason: {mode} mode for stream (stream_id={_stream_id(st)}) is not supported." in msg
    assert "rtsModelBindStream execution failed, the feature is not supported." in msg
    findings.refresh()
    assert A.aclrtDestroyStreamForce(st) == 0


def test_a_fast_launch_stream_cannot_be_bound(dev0):
    st = new_stream(ACL_STREAM_PERSISTENT | ACL_STREAM_FAST_LAUNCH)
    assert _bind(st) == ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    msg = aclGetRecentErrMsg()
    assert (
        f"{_BIND} failed. Value ACL_STREAM_FAST_LAUNCH for parameter stream flag is invalid. Reason: Stream "
        f"(stream_id={_stream_id(st)}) with the flag ACL_STREAM_FAST_LAUNCH cannot be bound to a model." in msg
    )
    assert "rtsModelBindStream execution failed, the feature is not supported." in msg
    assert A.aclrtDestroyStream(st) == 0
