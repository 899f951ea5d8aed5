"""Stop 31 (b) of the streams chapter: what aclrtStreamAbort refuses (Context::StreamAbort,
hicann/runtime context.cc:2781-2790; Ascend950's ApiImplDavid::StreamAbort, api_impl_david.cc:1946-1960),
the order of a kernel launch's checks in a context stopped on failure, and the streams the host
does not synchronize (ApiErrorDecorator::StreamSynchronize / StreamQuery, api_error.cc:1451-1458,
1487-1494; Context::IsStreamNotSync, context.cc:1195-1204)."""

from __future__ import annotations

import threading

import numpy as np
import pytest
from rt_streams import capture_model_stream, failing_copy, last_error, new_stream
from rt_texts import FUNC_ERROR_REASON, INDENT, TRACEBACK, bad_handle

from aclnn_py import (
    ACL_ERROR_RT_CONTEXT_NULL,
    ACL_ERROR_RT_INTERNAL_ERROR,
    ACL_ERROR_RT_INVALID_HANDLE,
    ACL_ERROR_RT_STREAM_CONTEXT,
    ACL_ERROR_RT_SYS_DMA,
    ACL_MEMCPY_DEVICE_TO_HOST,
    ACL_STOP_ON_FAILURE,
    ACL_STREAM_CPU_SCHEDULE,
    ACL_STREAM_DEVICE_USE_ONLY,
    ACL_STREAM_PERSISTENT,
    ACL_STREAM_STATUS_COMPLETE,
    Ref,
    aclGetRecentErrMsg,
)
from aclnn_py.runtime import api as A

_ABORT = "Aborting tasks in a stream"
_INVALID = f"{INDENT}rtStreamAbort execution failed, reason=stream invalid{FUNC_ERROR_REASON}\n"
_NOT_WAITED = [ACL_STREAM_PERSISTENT, ACL_STREAM_CPU_SCHEDULE, ACL_STREAM_DEVICE_USE_ONLY]


def _bound(stream):
    m = Ref()
    assert A.aclmdlRIBuildBegin(m, 0) == 0
    assert A.aclmdlRIBindStream(m.value, stream, A.ACL_MODEL_STREAM_FLAG_HEAD) == 0
    return m.value


def _bound_refusal(st, model) -> str:
    return (
        f"Not_Supported(EE1016): {_ABORT} failed. Reason: Aborting stream (stream_id={st.ident}) that is already "
        f"bound to a model (model_id={model.ident}) is not supported.\n" + TRACEBACK + _INVALID
    )


_PERSISTENT_REFUSAL = (
    "Not_Supported(EE1006): Stream aborting failed. Aborting persistent stream is not supported. Reason: The stream "
    "flag contains ACL_STREAM_PERSISTENT(0x4) and the stream cannot be aborted.\n" + TRACEBACK + _INVALID
)


def _failing_copy(stream) -> None:
    """rt_streams.failing_copy, its free's synccheck read."""
    failing_copy(stream)
    aclGetRecentErrMsg()


# -- item 1: aclrtStreamAbort's refusals --------------------------------------------------------------


def test_a_stream_bound_to_a_model_cannot_be_aborted(dev0):
    """Context::StreamAbort's bind-flag check: RT_ERROR_STREAM_INVALID (507000), EE1016, then the
    wrapper's FuncErrorReason; kept as the last error. Unbound, the stream aborts."""
    st = new_stream(ACL_STREAM_PERSISTENT)
    model = _bound(st)
    assert A.aclrtStreamAbort(st) == ACL_ERROR_RT_INTERNAL_ERROR
    assert aclGetRecentErrMsg() == _bound_refusal(st, model)
    assert last_error() == ACL_ERROR_RT_INTERNAL_ERROR
    assert A.aclmdlRIUnbindStream(model, st) == 0
    assert A.aclrtStreamAbort(st) == 0  # an unbound persistent stream: Ascend910B aborts it
    assert A.aclmdlRIDestroy(model) == 0
    assert A.aclrtDestroyStream(st) == 0


def test_a_capture_model_stream_cannot_be_aborted(dev0):
    """Model::AddStream gives a capture's model stream the bind flag too."""
    origin, model, ms = capture_model_stream()
    assert A.aclrtStreamAbort(ms) == ACL_ERROR_RT_INTERNAL_ERROR
    assert aclGetRecentErrMsg() == _bound_refusal(ms, model)
    assert A.aclmdlRIDestroy(model) == 0
    assert A.aclrtDestroyStream(origin) == 0


def test_the_stream_s_context_is_checked_before_its_model(dev0):
    """ApiImpl::StreamAbort's context check (107003, EE1010) comes before Context::StreamAbort's."""
    st = new_stream(ACL_STREAM_PERSISTENT)
    model = _bound(st)
    own, other = Ref(), Ref()
    assert A.aclrtGetCurrentContext(own) == 0
    assert A.aclrtCreateContext(other, 0) == 0
    assert A.aclrtStreamAbort(st) == ACL_ERROR_RT_STREAM_CONTEXT
    assert aclGetRecentErrMsg().startswith(f"Execution_Error_Invalid_Context(EE1010): {_ABORT} execution failed")
    assert A.aclrtSetCurrentContext(own.value) == 0
    assert A.aclrtDestroyContext(other.value) == 0
    assert A.aclmdlRIDestroy(model) == 0
    assert A.aclrtDestroyStream(st) == 0


def test_ascend950_refuses_to_abort_a_persistent_stream(chip):
    """ApiImplDavid::StreamAbort: EE1006 for an RT_STREAM_PERSISTENT stream, bound or not (it has no
    bind-flag check of its own), and for a capture's model stream (GetCaptureStreamFlag:
    RT_STREAM_PERSISTENT); a plain stream aborts."""
    chip("Ascend950")
    st = new_stream(ACL_STREAM_PERSISTENT)
    assert A.aclrtStreamAbort(st) == ACL_ERROR_RT_INTERNAL_ERROR
    assert aclGetRecentErrMsg() == _PERSISTENT_REFUSAL
    assert last_error() == ACL_ERROR_RT_INTERNAL_ERROR
    model = _bound(st)
    assert A.aclrtStreamAbort(st) == ACL_ERROR_RT_INTERNAL_ERROR
    assert aclGetRecentErrMsg() == _PERSISTENT_REFUSAL
    assert A.aclmdlRIDestroy(model) == 0
    origin, captured, ms = capture_model_stream()
    assert A.aclrtStreamAbort(ms) == ACL_ERROR_RT_INTERNAL_ERROR
    assert aclGetRecentErrMsg() == _PERSISTENT_REFUSAL
    assert A.aclmdlRIDestroy(captured) == 0
    assert A.aclrtStreamAbort(origin) == 0
    for s in (st, origin):
        assert A.aclrtDestroyStream(s) == 0


# -- item 2: a kernel launch in a context stopped on failure --------------------------------------


def test_a_kernel_launch_in_a_stopped_context_fails_at_its_handle_guard(deferred, dev0, findings):
    """The launch's submission would meet Context::CheckTaskSend (context.cc:2924-2962), but the rt
    wrapper's handle guard comes first, and the emulator never issues a function handle."""
    st = new_stream()
    assert A.aclrtSetStreamFailureMode(st, ACL_STOP_ON_FAILURE) == 0
    _failing_copy(st)
    assert A.aclrtSynchronizeStream(st) == ACL_ERROR_RT_SYS_DMA
    aclGetRecentErrMsg()
    assert A.aclrtLaunchKernel(object(), 8, b"args", 4, st) == ACL_ERROR_RT_INVALID_HANDLE
    assert aclGetRecentErrMsg() == bad_handle("funcHandle", "rtLaunchKernelByFuncHandleV3")
    findings.refresh()
    assert A.aclrtDestroyStreamForce(st) == 0


# -- item 3: the streams the host does not synchronize ------------------------------------------------


@pytest.mark.parametrize("flag", _NOT_WAITED)
def test_their_synchronize_neither_waits_nor_reports(deferred, dev0, findings, flag):
    """The decorator returns RT_ERROR_NONE at once: the failing copy runs (the device goes on), its
    failure is reported by neither synchronize, and no last error is kept."""
    st = new_stream(flag)
    _failing_copy(st)
    assert A.aclrtSynchronizeStream(st) == 0
    assert A.aclrtSynchronizeStreamWithTimeout(st, 1000) == 0
    assert "task failed" not in (aclGetRecentErrMsg() or "")
    assert last_error() == 0
    assert st.error is not None and st.error[0] == ACL_ERROR_RT_SYS_DMA  # it ran and failed, unreported
    findings.refresh()
    assert A.aclrtDestroyStreamForce(st) == 0


def test_their_synchronize_returns_with_work_still_queued(deferred, dev0):
    """A wait nobody has met yet: the synchronize returns 0, the query says COMPLETE (its status "has
    no business meaning"), the work stays queued and runs once the wait is met (here when
    aclrtSynchronizeDevice, which waits for a persistent stream on Ascend910B, reaches it)."""
    st, other = new_stream(ACL_STREAM_PERSISTENT), new_stream()
    n = Ref()
    assert A.aclrtCreateNotify(n, 0) == 0
    p = Ref()
    assert A.aclrtMalloc(p, 16, 0) == 0
    assert A.aclrtWaitAndResetNotify(n.value, st, 0) == 0
    assert A.aclrtMemsetAsync(p.value, 16, 5, 16, st) == 0
    assert A.aclrtSynchronizeStream(st) == 0
    status = Ref()
    assert A.aclrtStreamQuery(st, status) == 0 and status.value == ACL_STREAM_STATUS_COMPLETE
    assert st.pending
    assert A.aclrtRecordNotify(n.value, other) == 0
    assert A.aclrtSynchronizeDevice() == 0
    assert not st.pending
    host = np.zeros(16, np.uint8)
    assert A.aclrtMemcpy(host, 16, p.value, 16, ACL_MEMCPY_DEVICE_TO_HOST) == 0 and (host == 5).all()
    assert A.aclrtFree(p.value) == 0
    assert A.aclrtDestroyNotify(n.value) == 0
    assert A.aclrtDestroyStream(st) == 0 and A.aclrtDestroyStream(other) == 0


def test_their_synchronize_does_not_order_the_work_for_the_host(deferred, dev0, findings):
    """The host reads what the stream wrote after a synchronize that did not wait: the sanitizer says
    the host may see stale data."""
    st = new_stream(ACL_STREAM_PERSISTENT)
    p = Ref()
    assert A.aclrtMalloc(p, 16, 0) == 0
    assert A.aclrtMemsetAsync(p.value, 16, 5, 16, st) == 0
    assert A.aclrtSynchronizeStream(st) == 0
    host = np.zeros(16, np.uint8)
    assert A.aclrtMemcpy(host, 16, p.value, 16, ACL_MEMCPY_DEVICE_TO_HOST) == 0
    findings.refresh()
    assert findings.checks() == ["synccheck"] and "may still have to write it" in findings.text()
    aclGetRecentErrMsg()
    assert A.aclrtSynchronizeDevice() == 0  # Ascend910B: it waits for the persistent stream
    assert A.aclrtFree(p.value) == 0
    assert A.aclrtDestroyStream(st) == 0


def test_their_synchronize_and_query_need_no_current_context(dev0):
    """The decorator answers before ApiImpl looks for the current context."""
    st = new_stream(ACL_STREAM_PERSISTENT)
    got: list[object] = []

    def other_thread() -> None:
        status = Ref()
        got.append(A.aclrtSynchronizeStream(st))
        got.append(A.aclrtStreamQuery(st, status))
        got.append(status.value)
        got.append(A.aclrtSynchronizeStream(_plain))

    _plain = new_stream()
    t = threading.Thread(target=other_thread)
    t.start()
    t.join()
    assert got[:3] == [0, 0, ACL_STREAM_STATUS_COMPLETE]
    assert got[3] == ACL_ERROR_RT_CONTEXT_NULL  # a plain stream's synchronize needs one
    assert A.aclrtDestroyStream(st) == 0 and A.aclrtDestroyStream(_plain) == 0


def test_device_synchronize_skips_a_device_use_only_stream_on_ascend910b(deferred, dev0, findings):
    """IsStreamNotSync without RT_FEATURE_MODEL_STREAM_DOT_SYNC: only RT_STREAM_CP_PROCESS_USE is
    skipped; a persistent stream's failure is the device synchronize's."""
    cp, pers = new_stream(ACL_STREAM_DEVICE_USE_ONLY), new_stream(ACL_STREAM_PERSISTENT)
    _failing_copy(cp)
    assert A.aclrtSynchronizeDevice() == 0
    assert cp.error is not None  # it ran and failed, unreported
    _failing_copy(pers)
    assert A.aclrtSynchronizeDevice() == ACL_ERROR_RT_SYS_DMA
    assert "aclrtMemcpyAsync task failed" in aclGetRecentErrMsg()
    findings.refresh()
    assert A.aclrtDestroyStreamForce(cp) == 0 and A.aclrtDestroyStreamForce(pers) == 0


@pytest.mark.parametrize("flag", _NOT_WAITED)
def test_device_synchronize_skips_them_all_on_ascend950(deferred, chip, findings, flag):
    """Ascend950 has RT_FEATURE_MODEL_STREAM_DOT_SYNC: all three kinds are skipped."""
    chip("Ascend950")
    st = new_stream(flag)
    _failing_copy(st)
    assert A.aclrtSynchronizeDevice() == 0
    assert st.error is not None
    findings.refresh()
    assert A.aclrtDestroyStreamForce(st) == 0
