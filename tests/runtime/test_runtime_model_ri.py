"""Model runtime instances (aclmdlRI*): capture, replay, task groups, built models, conditions."""

from __future__ import annotations

import json
import threading

import numpy as np
import pytest

from aclnn_py import (
    ACL_FLOAT,
    ACL_MEMCPY_DEVICE_TO_DEVICE,
    ACL_MEMCPY_DEVICE_TO_HOST,
    ACL_MEMCPY_HOST_TO_DEVICE,
    ACL_STREAM_CPU_SCHEDULE,
    ACL_STREAM_PERSISTENT,
    aclCreateScalar,
    aclCreateTensor,
    aclDestroyScalar,
    aclDestroyTensor,
    aclFinalize,
    aclGetRecentErrMsg,
    aclInit,
    aclnnAdd,
    aclnnAddGetWorkspaceSize,
    aclrtCreateEvent,
    aclrtCreateEventExWithFlag,
    aclrtCreateEventWithFlag,
    aclrtCreateStream,
    aclrtCreateStreamWithConfig,
    aclrtDestroyEvent,
    aclrtDestroyStream,
    aclrtFree,
    aclrtMalloc,
    aclrtMemcpy,
    aclrtMemcpyAsync,
    aclrtRecordEvent,
    aclrtRecordEventWithFlag,
    aclrtResetEvent,
    aclrtStreamQuery,
    aclrtStreamWaitEvent,
    aclrtStreamWaitEventWithFlag,
    aclrtSynchronizeStream,
)
from aclnn_py._ref import Ref
from aclnn_py._status import aclError as E
from aclnn_py.runtime import _model_ri_checks as C
from aclnn_py.runtime import api as A
from aclnn_py.runtime import model_ri as M

N = 8
NB = N * 4


class Bench:
    """Device buffers, add executors and streams for one test; released by close()."""

    def __init__(self) -> None:
        self.ptrs: list[int] = []
        self.tensors: list[object] = []
        self.scalars: list[object] = []
        self.streams: list[object] = []

    def buf(self, values: np.ndarray | None = None) -> int:
        p = Ref()
        assert aclrtMalloc(p, NB, 0) == 0
        self.ptrs.append(p.value)
        if values is not None:
            self.put(p.value, values)
        return p.value

    def put(self, ptr: int, values: np.ndarray) -> None:
        assert aclrtMemcpy(ptr, NB, np.asarray(values, np.float32), NB, ACL_MEMCPY_HOST_TO_DEVICE) == 0

    def get(self, ptr: int) -> np.ndarray:
        host = np.zeros(N, np.float32)
        assert aclrtMemcpy(host, NB, ptr, NB, ACL_MEMCPY_DEVICE_TO_HOST) == 0, aclGetRecentErrMsg()
        return host

    def tensor(self, ptr: int) -> object:
        t = aclCreateTensor([N], 1, ACL_FLOAT, [1], 0, 2, [N], 1, ptr)
        self.tensors.append(t)
        return t

    def add(self, a: int, b: int, out: int, alpha: float) -> tuple[int, object]:
        """Phase 1 of out = a + alpha * b: (workspace size, executor)."""
        s = aclCreateScalar(np.float32(alpha), ACL_FLOAT)
        self.scalars.append(s)
        ws, ex = Ref(0), Ref()
        assert aclnnAddGetWorkspaceSize(self.tensor(a), self.tensor(b), s, self.tensor(out), ws, ex) == 0
        assert ws.value == 0
        return ws.value, ex.value

    def stream(self, persistent: bool = False) -> object:
        """A stream (persistent: one aclmdlRIBindStream accepts)."""
        s = Ref()
        assert (aclrtCreateStreamWithConfig(s, 0, ACL_STREAM_PERSISTENT) if persistent else aclrtCreateStream(s)) == 0
        self.streams.append(s.value)
        return s.value

    def close(self) -> None:
        for s in self.streams:
            aclrtSynchronizeStream(s)
            aclrtDestroyStream(s)
        for t in self.tensors:
            aclDestroyTensor(t)
        for s in self.scalars:
            aclDestroyScalar(s)
        for p in self.ptrs:
            aclrtFree(p)


@pytest.fixture
def bench(ctx):
    b = Bench()
    yield b
    b.close()


def _capture_add(bench: Bench, st: object, a: int, b: int, out: int, alpha: float) -> object:
    ws, ex = bench.add(a, b, out, alpha)
    assert A.aclmdlRICaptureBegin(st, M.MODE_GLOBAL) == 0
    assert aclnnAdd(None, ws, ex, st) == 0
    m = Ref()
    assert A.aclmdlRICaptureEnd(st, m) == 0
    return m.value


def test_captured_work_does_not_run_and_each_replay_reads_the_buffers_anew(bench):
    st = bench.stream()
    a, b, out = bench.buf(np.arange(N)), bench.buf(np.full(N, 2)), bench.buf(np.zeros(N))
    model = _capture_add(bench, st, a, b, out, 1.5)
    assert aclrtSynchronizeStream(st) == 0
    np.testing.assert_array_equal(bench.get(out), np.zeros(N))  # captured, not run
    for base in (0.0, 10.0):
        bench.put(a, np.arange(N) + base)
        assert A.aclmdlRIExecuteAsync(model, st) == 0
        assert aclrtSynchronizeStream(st) == 0
        np.testing.assert_allclose(bench.get(out), np.arange(N) + base + 3.0)
    assert A.aclmdlRIDestroy(model) == 0


def test_replay_of_an_async_copy_and_two_kernels_in_order(bench):
    st = bench.stream()
    host = np.arange(N, dtype=np.float32)
    a, b, tmp, out = bench.buf(), bench.buf(np.full(N, 2)), bench.buf(), bench.buf()
    ws1, ex1 = bench.add(a, b, tmp, 1.0)
    ws2, ex2 = bench.add(tmp, b, out, 1.0)
    pinned = Ref()  # a capture cannot hold a copy of pageable memory (a numpy array): 107000
    assert A.aclrtMallocHost(pinned, NB) == 0
    assert aclrtMemcpy(pinned.value, NB, host, NB, 0) == 0  # ACL_MEMCPY_HOST_TO_HOST
    assert A.aclmdlRICaptureBegin(st, M.MODE_RELAXED) == 0
    assert aclrtMemcpyAsync(a, NB, host, NB, ACL_MEMCPY_HOST_TO_DEVICE, st) == 107000
    assert "The pageable memory copy task does not support graph capture." in aclGetRecentErrMsg()
    assert aclrtMemcpyAsync(a, NB, pinned.value, NB, ACL_MEMCPY_HOST_TO_DEVICE, st) == 0
    assert aclnnAdd(None, ws1, ex1, st) == 0
    assert aclnnAdd(None, ws2, ex2, st) == 0
    m = Ref()
    assert A.aclmdlRICaptureEnd(st, m) == 0
    streams, n = [None] * 4, Ref(4)
    assert A.aclmdlRIGetStreams(m.value, streams, n) == 0 and n.value == 1
    tasks, k = [None] * 8, Ref(8)
    assert A.aclmdlRIGetTasksByStream(streams[0], tasks, k) == 0 and k.value == 3
    types = []
    for t in tasks[:3]:
        ty = Ref()
        assert A.aclmdlRITaskGetType(t, ty) == 0
        types.append(ty.value)
    assert types == [M.TASK_DEFAULT, M.TASK_KERNEL, M.TASK_KERNEL]
    seq = Ref()
    assert A.aclmdlRITaskGetSeqId(tasks[2], seq) == 0 and seq.value == 2
    small = Ref(2)
    assert A.aclmdlRIGetTasksByStream(streams[0], [None] * 2, small) == 107039
    aclGetRecentErrMsg()
    assert A.aclmdlRIExecute(m.value, -1) == 107000  # ModelExecuteSync: a captured model is refused
    assert aclGetRecentErrMsg().startswith(
        "Not_Supported(EE1016): Synchronously executing the model running instance failed. Reason: ACL Graph mode "
        "is not supported."
    )
    assert A.aclmdlRIExecuteAsync(m.value, st) == 0 and aclrtSynchronizeStream(st) == 0
    np.testing.assert_allclose(bench.get(out), host + 4)
    assert A.aclmdlRIDestroy(m.value) == 0
    assert A.aclrtFreeHost(pinned.value) == 0


def test_global_capture_refuses_an_unsafe_call_until_the_thread_exchanges_to_relaxed(bench):
    st = bench.stream()
    assert A.aclmdlRICaptureBegin(st, M.MODE_GLOBAL) == 0
    assert C.check_capture_mode  # the hook the synchronous calls reach
    with pytest.raises(Exception) as info:
        from aclnn_py._capi import ApiError

        try:
            C.check_capture_mode("Synchronous memory copy")
        except ApiError as e:
            raise RuntimeError(e.code, e.messages[0][1]) from None
    code, text = info.value.args
    assert code == 107030
    assert (
        "is in the capture state" in text
        and "API is GLOBAL(0), and the capture mode of the current thread is GLOBAL(0)" in text
    )
    mode = Ref(M.MODE_RELAXED)
    assert A.aclmdlRICaptureThreadExchangeMode(mode) == 0 and mode.value == M.MODE_GLOBAL
    C.check_capture_mode("Synchronous memory copy")  # allowed now
    assert A.aclmdlRICaptureThreadExchangeMode(mode) == 0 and mode.value == M.MODE_RELAXED
    status, model = Ref(), Ref()
    assert A.aclmdlRICaptureGetInfo(st, status, model) == 0 and status.value == 1
    assert A.aclmdlRICaptureEnd(st, Ref()) == 0
    assert A.aclmdlRICaptureGetInfo(st, status, None) == 0 and status.value == 0
    assert A.aclmdlRIDestroy(model.value) == 0


def test_argument_checks_and_state_refusals(bench):
    st = bench.stream()
    assert A.aclmdlRICaptureBegin(None, 0) == 100000
    assert "aclmdlRICaptureBegin failed because stream cannot be a NULL pointer" in aclGetRecentErrMsg()
    assert A.aclmdlRICaptureBegin(st, 3) == 107000
    assert A.aclmdlRICaptureEnd(st, Ref()) == 107029
    assert "is not in capture status, call rtStreamBeginCapture API to capture stream first." in aclGetRecentErrMsg()
    assert A.aclmdlRICaptureGetInfo(st, None, None) == 100000
    assert A.aclmdlRICaptureTaskGrpBegin(st) == 107029
    assert A.aclmdlRICaptureBegin(st, 0) == 0
    assert A.aclmdlRICaptureBegin(st, 0) == 107027
    m = Ref()
    status = Ref()
    assert A.aclmdlRICaptureGetInfo(st, status, m) == 0
    aclGetRecentErrMsg()
    assert A.aclmdlRIExecuteAsync(m.value, bench.stream()) == 107026  # still capturing (CheckExecuteReady)
    assert aclGetRecentErrMsg().startswith(
        "Invalid_Argument(EE1017): Checking whether the capture model is ready failed. Parameter modelRI is invalid. "
        f"Reason: ModelRI (model_id={m.value.ident}) is in capturing state, status=CAPTURING."
    )
    assert A.aclmdlRIDestroy(m.value) == 107026  # Context::ModelDestroy: FuncErrorReason only
    assert "rtModelDestroy execution failed, reason=model is captured" in aclGetRecentErrMsg()
    assert A.aclmdlRIExecuteAsync(m.value, st) == 107027
    assert A.aclmdlRICaptureEnd(st, m) == 0
    assert A.aclmdlRIExecute(m.value, 0) == 107000
    assert A.aclmdlRIDestroy(None) == 100000
    assert A.aclmdlRIDestroy(m.value) == 0
    assert A.aclmdlRIDestroy(m.value) == 107017


def test_task_group_update_replaces_the_kernel_of_later_replays(bench):
    st, upd = bench.stream(), bench.stream()
    a, b, tmp, out = bench.buf(np.arange(N)), bench.buf(np.full(N, 2)), bench.buf(), bench.buf()
    ws1, ex1 = bench.add(a, b, tmp, 1.0)
    ws2, ex2 = bench.add(tmp, b, out, 1.0)
    ws3, ex3 = bench.add(tmp, b, out, 3.0)
    assert A.aclmdlRICaptureBegin(st, M.MODE_RELAXED) == 0
    assert aclnnAdd(None, ws1, ex1, st) == 0
    assert A.aclmdlRICaptureTaskGrpBegin(st) == 0
    assert aclnnAdd(None, ws2, ex2, st) == 0
    grp = Ref()
    assert A.aclmdlRICaptureTaskGrpEnd(st, grp) == 0
    m = Ref()
    assert A.aclmdlRICaptureEnd(st, m) == 0
    assert A.aclmdlRIExecuteAsync(m.value, st) == 0
    assert aclrtSynchronizeStream(st) == 0
    np.testing.assert_allclose(bench.get(out), np.arange(N) + 4)
    assert A.aclmdlRICaptureTaskUpdateBegin(upd, None) == 100000
    assert A.aclmdlRICaptureBegin(upd, M.MODE_RELAXED) == 0
    assert A.aclmdlRICaptureTaskUpdateBegin(upd, grp.value) == 107027  # a capturing stream cannot update
    other = Ref()
    assert A.aclmdlRICaptureEnd(upd, other) == 0 and A.aclmdlRIDestroy(other.value) == 0
    assert A.aclmdlRICaptureTaskUpdateBegin(upd, grp.value) == 0
    assert aclnnAdd(None, ws3, ex3, upd) == 0
    assert A.aclmdlRICaptureTaskUpdateEnd(upd) == 0
    assert aclrtSynchronizeStream(upd) == 0
    assert A.aclmdlRIExecuteAsync(m.value, st) == 0
    assert aclrtSynchronizeStream(st) == 0
    np.testing.assert_allclose(bench.get(out), np.arange(N) + 8)
    # an update must keep the number of tasks
    assert A.aclmdlRICaptureTaskUpdateBegin(upd, grp.value) == 0
    assert A.aclmdlRICaptureTaskUpdateEnd(upd) == 107040
    assert A.aclmdlRIDestroy(m.value) == 0


def test_conditional_if_while_switch_read_the_condition_word_when_they_run(bench):
    st, sub = bench.stream(), bench.stream()
    a, b, out = bench.buf(np.arange(N)), bench.buf(np.ones(N)), bench.buf(np.zeros(N))
    zero = bench.buf(np.zeros(N))
    execs = [bench.add(a, b, out, alpha) for alpha in (1.0, 2.0, 3.0)]
    assert A.aclmdlRICaptureBegin(st, M.MODE_THREAD_LOCAL) == 0
    parent = Ref()
    assert A.aclmdlRICaptureGetInfo(st, None, parent) == 0
    h = Ref()
    assert A.aclmdlRICondHandleCreate(parent.value, 0, 0, h) == 0
    ptr = Ref()
    assert A.aclmdlRICondHandleGetCondPtr(h.value, ptr) == 0
    subs: list[object] = [None] * 3
    assert (
        A.aclmdlRIAddCondTask({"handle": h.value, "type": M.COND_SWITCH, "size": 3, "modelRIArray": subs}, st, 0) == 0
    )
    for i, (ws, ex) in enumerate(execs):
        assert A.aclmdlRICaptureToModelRIBegin(sub, subs[i], M.MODE_THREAD_LOCAL) == 0
        assert aclnnAdd(None, ws, ex, sub) == 0
        m = Ref()
        assert A.aclmdlRICaptureEnd(sub, m) == 0 and m.value is subs[i]
    assert A.aclmdlRICaptureToModelRIBegin(sub, subs[0], 0) == 107026
    assert A.aclmdlRICaptureEnd(st, parent) == 0
    for case in (2, 0, 1):
        word = np.array([case], np.uint64)
        assert aclrtMemcpy(ptr.value, 8, word, 8, ACL_MEMCPY_HOST_TO_DEVICE) == 0
        assert A.aclmdlRIExecuteAsync(parent.value, st) == 0
        assert aclrtSynchronizeStream(st) == 0
        np.testing.assert_allclose(bench.get(out), np.arange(N) + case + 1)
    assert A.aclmdlRIExecuteAsync(subs[0], st) == 207000  # a sub-model does not run by itself
    assert A.aclmdlRIDestroy(parent.value) == 0

    # WHILE with ASSIGN_DEFAULT: the word is reset to its default (0) when each execution starts
    assert A.aclmdlRICaptureBegin(st, M.MODE_RELAXED) == 0
    assert A.aclmdlRICaptureGetInfo(st, None, parent) == 0
    assert A.aclmdlRICondHandleCreate(parent.value, 1, 1, h) == 0
    assert A.aclmdlRICondHandleGetCondPtr(h.value, ptr) == 0
    body: list[object] = [None]
    assert A.aclmdlRIAddCondTask({"handle": h.value, "type": M.COND_WHILE, "size": 1, "modelRIArray": body}, st, 0) == 0
    assert A.aclmdlRICaptureToModelRIBegin(sub, body[0], M.MODE_RELAXED) == 0
    ws, ex = bench.add(a, b, out, 3.0)
    assert aclnnAdd(None, ws, ex, sub) == 0
    assert aclrtMemcpyAsync(ptr.value, 8, zero, 8, 3, sub) == 0  # the body clears the word: one pass
    assert A.aclmdlRICaptureEnd(sub, Ref()) == 0
    assert A.aclmdlRICaptureEnd(st, parent) == 0
    bench.put(out, np.zeros(N))
    assert A.aclmdlRIExecuteAsync(parent.value, st) == 0
    assert aclrtSynchronizeStream(st) == 0
    np.testing.assert_allclose(bench.get(out), np.arange(N) + 3)
    assert A.aclmdlRIDestroy(parent.value) == 0


def test_built_model_switches_and_activates_streams_on_device_values(bench):
    s1, s2, s3 = bench.stream(True), bench.stream(True), bench.stream(True)
    a, b, out2, out3 = bench.buf(np.arange(N)), bench.buf(np.ones(N)), bench.buf(np.zeros(N)), bench.buf(np.zeros(N))
    flag, one = bench.buf(np.zeros(N)), bench.buf()
    assert aclrtMemcpy(one, 4, np.array([1], np.int32), 4, ACL_MEMCPY_HOST_TO_DEVICE) == 0
    ws2, ex2 = bench.add(a, b, out2, 2.0)
    ws3, ex3 = bench.add(a, b, out3, 3.0)
    m = Ref()
    assert A.aclmdlRIBuildBegin(m, 0) == 0
    assert A.aclmdlRIBindStream(m.value, s1, A.ACL_MODEL_STREAM_FLAG_HEAD) == 0
    assert A.aclmdlRIBindStream(m.value, s2, A.ACL_MODEL_STREAM_FLAG_DEFAULT) == 0
    assert A.aclmdlRIBindStream(m.value, s3, A.ACL_MODEL_STREAM_FLAG_DEFAULT) == 0
    assert A.aclrtSwitchStream(flag, 0, one, 0, s3, None, s1) == 0  # *flag == 1: s3
    assert A.aclrtActiveStream(s2, s1) == 0  # always s2
    assert aclnnAdd(None, ws2, ex2, s2) == 0
    assert aclnnAdd(None, ws3, ex3, s3) == 0
    assert A.aclmdlRIEndTask(m.value, s1) == 0
    assert A.aclmdlRIBuildEnd(m.value, None) == 0
    ex_st = bench.stream()
    assert A.aclmdlRIExecuteAsync(m.value, s1) == 107000  # a model stream cannot run its model
    assert A.aclmdlRIExecuteAsync(m.value, ex_st) == 0
    assert aclrtSynchronizeStream(ex_st) == 0
    np.testing.assert_allclose(bench.get(out2), np.arange(N) + 2)
    np.testing.assert_allclose(bench.get(out3), np.zeros(N))
    assert aclrtMemcpy(flag, 4, np.array([1], np.int32), 4, ACL_MEMCPY_HOST_TO_DEVICE) == 0
    assert A.aclmdlRIExecuteAsync(m.value, ex_st) == 0
    assert aclrtSynchronizeStream(ex_st) == 0
    np.testing.assert_allclose(bench.get(out3), np.arange(N) + 3)
    for s in (s1, s2, s3):
        assert A.aclmdlRIUnbindStream(m.value, s) == 0
    assert A.aclmdlRIDestroy(m.value) == 0


def test_event_recorded_in_a_model_completes_with_each_replay(bench):
    st, other = bench.stream(), bench.stream()
    a, b, out = bench.buf(np.arange(N)), bench.buf(np.ones(N)), bench.buf(np.zeros(N))
    ws, ex = bench.add(a, b, out, 1.0)
    ev, plain = Ref(), Ref()
    assert aclrtCreateEventExWithFlag(ev, 0x1) == 0  # a capture takes events of the Ex kind only
    assert aclrtCreateEvent(plain) == 0
    assert A.aclmdlRICaptureBegin(st, M.MODE_RELAXED) == 0
    assert aclnnAdd(None, ws, ex, st) == 0
    assert aclrtRecordEvent(plain.value, st) == 207000 and aclGetRecentErrMsg() is None  # ApiImpl::EventRecord
    assert aclrtResetEvent(plain.value, st) == 207000
    assert aclrtDestroyEvent(plain.value) == 0
    assert aclrtRecordEvent(ev.value, st) == 0
    m = Ref()
    assert A.aclmdlRICaptureEnd(st, m) == 0
    tasks, k = [None] * 4, Ref(4)
    streams, n = [None], Ref(1)
    assert A.aclmdlRIGetStreams(m.value, streams, n) == 0
    assert A.aclmdlRIGetTasksByStream(streams[0], tasks, k) == 0
    ty = Ref()
    assert A.aclmdlRITaskGetType(tasks[1], ty) == 0 and ty.value == M.TASK_EVENT_RECORD
    assert A.aclmdlRIExecuteAsync(m.value, st) == 0
    assert ev.value.task is not None and ev.value.stream is st
    host = np.zeros(N, np.float32)
    from aclnn_py import aclrtStreamWaitEvent

    assert aclrtStreamWaitEvent(other, ev.value) == 0
    assert aclrtMemcpyAsync(host, NB, out, NB, ACL_MEMCPY_DEVICE_TO_HOST, other) == 0
    assert aclrtSynchronizeStream(other) == 0
    np.testing.assert_allclose(host, np.arange(N) + 1)
    assert aclrtSynchronizeStream(st) == 0
    assert A.aclmdlRIDestroy(m.value) == 0
    assert aclrtDestroyEvent(ev.value) == 0


def test_names_ids_listing_json_disable_abort_and_destroy_callbacks(bench, tmp_path, capsys):
    st = bench.stream()
    a, b, out = bench.buf(np.arange(N)), bench.buf(np.ones(N)), bench.buf(np.zeros(N))
    model = _capture_add(bench, st, a, b, out, 1.0)
    assert A.aclmdlRISetName(model, "adder") == 0
    name = Ref()
    assert A.aclmdlRIGetName(model, 6, name) == 0 and name.value == "adder"
    assert A.aclmdlRIGetName(model, 5, name) == 107000
    ident = Ref()
    assert A.aclmdlRIGetId(model, ident) == 0 and ident.value == model.ident
    assert A.aclmdlRIDebugPrint(model) == 0
    listing = capsys.readouterr().out
    assert "'adder'" in listing and "KERNEL" in listing and "aclnnAdd: kernel #0" in listing
    path = tmp_path / "m.json"
    assert A.aclmdlRIDebugJsonPrint(model, str(path), 0) == 0
    data = json.loads(path.read_text())
    assert data["name"] == "adder" and data["streams"][0]["tasks"][0]["type"] == "KERNEL"
    streams, n = [None], Ref(1)
    assert A.aclmdlRIGetStreams(model, streams, n) == 0
    tasks, k = [None], Ref(1)
    assert A.aclmdlRIGetTasksByStream(streams[0], tasks, k) == 0
    assert A.aclmdlRITaskDisable(tasks[0]) == 0
    assert A.aclmdlRIUpdate(model) == 0
    assert A.aclmdlRIExecuteAsync(model, st) == 0
    assert aclrtSynchronizeStream(st) == 0
    np.testing.assert_array_equal(bench.get(out), np.zeros(N))  # the only task is disabled
    tasks[0].disabled = False
    assert A.aclmdlRIExecuteAsync(model, st) == 0
    assert A.aclmdlRIAbort(model) == 0  # queued, not yet run (deferred) or already run
    assert aclrtSynchronizeStream(st) == 0
    seen: list[object] = []
    assert A.aclmdlRIDestroyRegisterCallback(model, seen.append, "bye") == 0
    assert A.aclmdlRIDestroyRegisterCallback(model, print, "never") == 0
    assert A.aclmdlRIDestroyUnregisterCallback(model, print) == 0
    assert A.aclmdlRIDestroy(model) == 0
    assert seen == ["bye"]


def test_capture_end_from_another_thread_is_refused_unless_relaxed(bench):
    """Context::StreamEndCapture: a GLOBAL capture ended by another thread fails with 107038 and
    only rtStreamEndCapture's FuncErrorReason report; the capture ends and its model is READY (not
    destroyed)."""
    st = bench.stream()
    assert A.aclmdlRICaptureBegin(st, M.MODE_GLOBAL) == 0
    codes: list[int] = []
    from aclnn_py import aclrtSetCurrentContext

    ctx_obj = st.context

    def end() -> None:
        aclrtSetCurrentContext(ctx_obj)
        codes.append(A.aclmdlRICaptureEnd(st, Ref()))

    t = threading.Thread(target=end)
    t.start()
    t.join()
    assert codes == [107038]
    status, model = Ref(), Ref()
    assert A.aclmdlRICaptureGetInfo(st, status, model) == 0 and status.value == 0  # no longer capturing
    assert A.aclmdlRICaptureEnd(st, Ref()) == 107029
    aclGetRecentErrMsg()
    # ExitCaptureNotify made the model READY: a program holding it can destroy it
    (mdl,) = M.LIVE_MODELS  # the capture's model, which the program could have had from GetInfo
    assert mdl.state == "ready" and A.aclmdlRIDestroy(mdl) == 0


def test_the_event_hook_records_waits_and_resets_that_replays_honour(bench):
    """model_ri.record_event_op, the hook the event chapter calls on a capturing stream: a wait
    captured on an event not yet recorded waits, at each replay, for the event's next record; a
    captured reset makes the next replay wait again (hicann/runtime's 1_model_update pattern)."""
    st, upd = bench.stream(), bench.stream()
    a, b, out = bench.buf(np.arange(N)), bench.buf(np.ones(N)), bench.buf(np.zeros(N))
    ev = Ref()
    assert aclrtCreateEvent(ev) == 0
    ws, ex = bench.add(a, b, out, 1.0)
    assert A.aclmdlRICaptureBegin(st, M.MODE_RELAXED) == 0
    assert M.record_event_op(st, M.TASK_EVENT_WAIT, ev.value)
    assert M.record_event_op(st, M.TASK_EVENT_RESET, ev.value)
    assert aclnnAdd(None, ws, ex, st) == 0
    m = Ref()
    assert A.aclmdlRICaptureEnd(st, m) == 0
    assert not M.record_event_op(st, M.TASK_EVENT_WAIT, ev.value)  # no longer capturing
    streams, n = [None], Ref(1)
    assert A.aclmdlRIGetStreams(m.value, streams, n) == 0
    tasks, k = [None] * 3, Ref(3)
    assert A.aclmdlRIGetTasksByStream(streams[0], tasks, k) == 0
    kinds = []
    for t in tasks:
        ty = Ref()
        assert A.aclmdlRITaskGetType(t, ty) == 0
        kinds.append(ty.value)
    assert kinds == [M.TASK_EVENT_WAIT, M.TASK_EVENT_RESET, M.TASK_KERNEL]
    for base in (0.0, 5.0):
        bench.put(a, np.arange(N) + base)
        assert A.aclmdlRIExecuteAsync(m.value, st) == 0  # blocked at the wait until the record
        assert ev.value.task is None  # nothing has recorded the event since the last reset
        assert aclrtRecordEvent(ev.value, upd) == 0
        assert aclrtSynchronizeStream(upd) == 0
        assert aclrtSynchronizeStream(st) == 0
        np.testing.assert_allclose(bench.get(out), np.arange(N) + base + 1)
        assert ev.value.task is None  # the model's reset ran after its wait
    assert A.aclmdlRIDestroy(m.value) == 0
    assert aclrtDestroyEvent(ev.value) == 0


def test_refusals_the_stream_and_copy_chapters_call(bench):
    from aclnn_py._capi import ApiError

    st = bench.stream()
    C.refuse_if_capturing(st, "Synchronizing a stream", "rtStreamSynchronize")  # not capturing: nothing
    assert A.aclmdlRICaptureBegin(st, M.MODE_THREAD_LOCAL) == 0
    with pytest.raises(ApiError) as info:
        C.refuse_if_capturing(st, "Synchronizing a stream", "rtStreamSynchronize")
    assert info.value.code == 107027
    assert info.value.messages[0][1] == (
        f"Synchronizing a stream failed. Reason: Stream (stream_id={st.ident}) during the capture stage is not supported."
    )
    # the rt wrapper's ERROR_RETURN_WITH_EXT_ERRCODE adds FuncErrorReason's report
    assert info.value.messages[1][1].startswith("rtStreamSynchronize execution failed, reason=stream is captured")
    with pytest.raises(ApiError) as info:
        C.check_capture_mode("Synchronous memory copy")
    assert info.value.code == 107030  # a THREAD_LOCAL capture of this thread refuses unsafe calls here
    m = Ref()
    assert A.aclmdlRICaptureEnd(st, m) == 0
    C.check_capture_mode("Synchronous memory copy")
    assert A.aclmdlRIDestroy(m.value) == 0


def test_a_conditional_task_whose_condition_word_is_gone_fails_when_it_runs(ctx):
    s = Ref()
    assert aclrtCreateStream(s) == 0
    assert A.aclmdlRICaptureBegin(s.value, M.MODE_RELAXED) == 0
    model = Ref()
    assert A.aclmdlRICaptureGetInfo(s.value, None, model) == 0
    h = Ref()
    assert A.aclmdlRICondHandleCreate(model.value, 0, 0, h) == 0
    body: list[object] = [None]
    assert (
        A.aclmdlRIAddCondTask({"handle": h.value, "type": M.COND_WHILE, "size": 1, "modelRIArray": body}, s.value, 0)
        == 0
    )
    assert A.aclmdlRICaptureEnd(s.value, model) == 0
    h.value.release()  # the word is gone: the conditional task fails when it runs, as a bad read does
    assert A.aclmdlRIExecuteAsync(model.value, s.value) == 0
    assert aclrtSynchronizeStream(s.value) == 507015
    assert "conditional task failed" in aclGetRecentErrMsg()
    assert aclrtDestroyStream(s.value) == 0
    assert A.aclmdlRIDestroy(model.value) == 0  # the word's second release is a no-op


def test_model_update_pattern_the_captured_wait_orders_the_update_before_the_replay(bench):
    """hicann/runtime's model_ri/1_model_update: under every policy the second replay runs the
    updated kernel, because it waits for the event recorded after the update."""
    st, upd = bench.stream(), bench.stream()
    a, b, tmp, out = bench.buf(np.arange(N)), bench.buf(np.full(N, 2)), bench.buf(), bench.buf()
    ev = Ref()
    assert aclrtCreateEventWithFlag(ev, 0x20) == 0
    ws1, ex1 = bench.add(a, b, tmp, 1.1)
    ws2, ex2 = bench.add(tmp, b, out, 1.1)
    ws3, ex3 = bench.add(tmp, b, out, 2.2)
    assert A.aclmdlRICaptureBegin(st, 2) == 0
    assert aclnnAdd(None, ws1, ex1, st) == 0
    assert aclrtStreamWaitEvent(st, ev.value) == 0
    assert aclrtResetEvent(ev.value, st) == 0
    assert A.aclmdlRICaptureTaskGrpBegin(st) == 0
    assert aclnnAdd(None, ws2, ex2, st) == 0
    g = Ref()
    assert A.aclmdlRICaptureTaskGrpEnd(st, g) == 0
    m = Ref()
    assert A.aclmdlRICaptureEnd(st, m) == 0
    results = []
    for i in range(2):
        assert A.aclmdlRIExecuteAsync(m.value, st) == 0
        if i == 1:
            assert A.aclmdlRICaptureTaskUpdateBegin(upd, g.value) == 0
            assert aclnnAdd(None, ws3, ex3, upd) == 0
            assert A.aclmdlRICaptureTaskUpdateEnd(upd) == 0
        assert aclrtRecordEvent(ev.value, upd) == 0
        assert aclrtSynchronizeStream(upd) == 0
        assert aclrtSynchronizeStream(st) == 0
        results.append(bench.get(out)[0])
    np.testing.assert_allclose(results, [0 + 2.2 + 2.2, 0 + 2.2 + 4.4], rtol=1e-6)
    assert A.aclmdlRIDestroy(m.value) == 0
    assert aclrtDestroyEvent(ev.value) == 0


def test_external_event_record_and_wait_between_models_and_streams(bench):
    """hicann/runtime's model_ri/4_model_sync_external, scenarios 1 and 3."""
    g1, g2, ext = bench.stream(), bench.stream(), bench.stream()
    src, mid, dst = bench.buf(np.arange(N)), bench.buf(), bench.buf()
    ev = Ref()
    assert aclrtCreateEventExWithFlag(ev, 0x1) == 0
    # scenario 1: stream record + graph wait external
    assert A.aclmdlRICaptureBegin(g1, 2) == 0
    assert aclrtStreamWaitEventWithFlag(g1, ev.value, 0, 1) == 0
    assert aclrtMemcpyAsync(dst, NB, src, NB, ACL_MEMCPY_DEVICE_TO_DEVICE, g1) == 0
    m1 = Ref()
    assert A.aclmdlRICaptureEnd(g1, m1) == 0
    assert aclrtRecordEvent(ev.value, ext) == 0
    assert A.aclmdlRIExecuteAsync(m1.value, g1) == 0
    assert aclrtSynchronizeStream(g1) == 0
    np.testing.assert_array_equal(bench.get(dst), np.arange(N))
    # scenario 3: graph1 records external, graph2 waits external
    ev2 = Ref()
    assert aclrtCreateEventExWithFlag(ev2, 0x1) == 0
    assert A.aclmdlRICaptureBegin(g1, 2) == 0
    assert aclrtMemcpyAsync(mid, NB, src, NB, ACL_MEMCPY_DEVICE_TO_DEVICE, g1) == 0
    assert aclrtRecordEventWithFlag(ev2.value, g1, 1) == 0
    m2 = Ref()
    assert A.aclmdlRICaptureEnd(g1, m2) == 0
    assert A.aclmdlRICaptureBegin(g2, 2) == 0
    assert aclrtStreamWaitEventWithFlag(g2, ev2.value, 0, 1) == 0
    assert aclrtMemcpyAsync(dst, NB, mid, NB, ACL_MEMCPY_DEVICE_TO_DEVICE, g2) == 0
    m3 = Ref()
    assert A.aclmdlRICaptureEnd(g2, m3) == 0
    bench.put(src, np.arange(N) + 7)
    assert A.aclmdlRIExecuteAsync(m2.value, g1) == 0
    assert A.aclmdlRIExecuteAsync(m3.value, g2) == 0
    assert aclrtSynchronizeStream(g2) == 0
    assert aclrtSynchronizeStream(g1) == 0
    np.testing.assert_array_equal(bench.get(dst), np.arange(N) + 7)
    for m in (m1, m2, m3):
        assert A.aclmdlRIDestroy(m.value) == 0
    assert aclrtDestroyEvent(ev.value) == 0 and aclrtDestroyEvent(ev2.value) == 0


def test_a_capturing_stream_refuses_synchronize_query_and_destroy(bench):
    st = bench.stream()
    assert A.aclmdlRICaptureBegin(st, 0) == 0
    assert aclrtSynchronizeStream(st) == 107027
    assert (
        aclGetRecentErrMsg().splitlines()[0].split(": ", 1)[-1]
        == f"Synchronizing a stream failed. Reason: Stream (stream_id={st.ident}) during the capture stage is not supported."
    )
    assert aclrtStreamQuery(st, Ref()) == 107027
    assert aclrtDestroyStream(st) == 107027
    m = Ref()
    assert A.aclmdlRICaptureEnd(st, m) == 0
    assert aclrtSynchronizeStream(st) == 0  # no longer capturing
    assert A.aclmdlRIDestroy(m.value) == 0


def test_a_global_capture_refuses_synchronous_copies_until_the_thread_exchanges_to_relaxed(bench):
    st = bench.stream()
    assert A.aclmdlRICaptureBegin(st, 0) == 0
    h = np.zeros(N, np.float32)
    p = bench.buf()
    assert aclrtMemcpy(p, NB, h, NB, ACL_MEMCPY_HOST_TO_DEVICE) == 107030
    mode = Ref(2)
    assert A.aclmdlRICaptureThreadExchangeMode(mode) == 0
    assert aclrtMemcpy(p, NB, h, NB, ACL_MEMCPY_HOST_TO_DEVICE) == 0
    assert A.aclmdlRICaptureThreadExchangeMode(mode) == 0
    m = Ref()
    assert A.aclmdlRICaptureEnd(st, m) == 0
    assert A.aclmdlRIDestroy(m.value) == 0


def test_reset_forgets_the_models_and_restarts_their_numbers(bench):
    st = bench.stream()
    assert A.aclmdlRICaptureBegin(st, M.MODE_RELAXED) == 0
    m = Ref()
    assert A.aclmdlRICaptureEnd(st, m) == 0
    assert m.value in M.LIVE_MODELS
    mode = Ref(M.MODE_RELAXED)
    assert A.aclmdlRICaptureThreadExchangeMode(mode) == 0
    M.reset()
    assert not M.LIVE_MODELS and not M.MODEL_OF_STREAM and M.THREAD.exchange == M.MODE_GLOBAL
    assert A.aclmdlRIBuildBegin(m, 0) == 0 and m.value.ident == 0
    assert A.aclmdlRIDestroy(m.value) == 0


def test_a_captured_wait_carries_the_order_for_the_sanitizer(bench):
    """Synchronizing only the waiting model's stream orders the recording model's work before
    the host (as on hardware): freeing what the first model read is no finding."""
    g1, g2 = bench.stream(), bench.stream()
    p = Ref()
    assert aclrtMalloc(p, NB, 0) == 0
    src = p.value
    bench.put(src, np.arange(N))
    mid, dst = bench.buf(), bench.buf()
    ev = Ref()
    assert aclrtCreateEventExWithFlag(ev, 0x1) == 0
    assert A.aclmdlRICaptureBegin(g1, M.MODE_RELAXED) == 0
    assert aclrtMemcpyAsync(mid, NB, src, NB, ACL_MEMCPY_DEVICE_TO_DEVICE, g1) == 0
    assert aclrtRecordEventWithFlag(ev.value, g1, 1) == 0
    m1, m2 = Ref(), Ref()
    assert A.aclmdlRICaptureEnd(g1, m1) == 0
    assert A.aclmdlRICaptureBegin(g2, M.MODE_RELAXED) == 0
    assert aclrtStreamWaitEventWithFlag(g2, ev.value, 0, 1) == 0
    assert aclrtMemcpyAsync(dst, NB, mid, NB, ACL_MEMCPY_DEVICE_TO_DEVICE, g2) == 0
    assert A.aclmdlRICaptureEnd(g2, m2) == 0
    assert A.aclmdlRIExecuteAsync(m1.value, g1) == 0
    assert A.aclmdlRIExecuteAsync(m2.value, g2) == 0
    assert aclrtSynchronizeStream(g2) == 0
    assert aclrtFree(src) == 0  # g1's copy is ordered before the host through g2's wait
    np.testing.assert_array_equal(bench.get(dst), np.arange(N))
    for m in (m1, m2):
        assert A.aclmdlRIDestroy(m.value) == 0
    assert aclrtDestroyEvent(ev.value) == 0


def test_a_capturing_stream_is_refused_before_the_context_is_checked(bench):
    """ApiErrorDecorator::StreamDestroy / StreamSynchronize / StreamQuery check the capture state
    before the impl checks the context: from another context the refusal is still 107027."""
    st = bench.stream()
    assert A.aclmdlRICaptureBegin(st, M.MODE_RELAXED) == 0
    home, other = Ref(), Ref()
    assert A.aclrtGetCurrentContext(home) == 0 and A.aclrtCreateContext(other, 1) == 0
    status = Ref()
    for desc, call in (
        ("Stream destruction", lambda: aclrtDestroyStream(st)),
        ("Synchronizing a stream", lambda: aclrtSynchronizeStream(st)),
        ("Querying a stream", lambda: aclrtStreamQuery(st, status)),
    ):
        assert call() == 107027
        assert aclGetRecentErrMsg().startswith(
            f"Not_Supported(EE1016): {desc} failed. Reason: Stream (stream_id={st.ident}) during the capture "
            "stage is not supported."
        )
    assert A.aclrtDestroyContext(other.value) == 0 and A.aclrtSetCurrentContext(home.value) == 0
    model = Ref()
    assert A.aclmdlRICaptureEnd(st, model) == 0 and A.aclmdlRIDestroy(model.value) == 0


def test_synchronize_device_refuses_a_capturing_stream_of_the_context(bench):
    """Context::Synchronize fails on a capturing stream (logged only), and rtDeviceSynchronize's
    FuncErrorReason reports it: 107027."""
    st = bench.stream()
    assert A.aclmdlRICaptureBegin(st, M.MODE_RELAXED) == 0
    assert A.aclrtSynchronizeDevice() == 107027
    assert aclGetRecentErrMsg() == (
        "EE9999: Internal error!\n"
        "EE9999(EE9999):  rtDeviceSynchronize execution failed, reason=stream is captured"
        "[FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:68]\n"
        "TraceBack (most recent call last):\n"
    )
    model = Ref()
    assert A.aclmdlRICaptureEnd(st, model) == 0 and A.aclmdlRIDestroy(model.value) == 0
    assert A.aclrtSynchronizeDevice() == 0


def test_a_stream_bound_to_a_model_cannot_be_destroyed(bench):
    """Context::TearDownOwnedStream refuses a bound stream (107005) and the stream stays valid."""
    st = bench.stream(persistent=True)
    model = Ref()
    assert A.aclmdlRIBuildBegin(model, 0) == 0
    assert A.aclmdlRIBindStream(model.value, st, 0) == 0
    assert aclrtDestroyStream(st) == 107005
    assert aclGetRecentErrMsg() == (
        "EE9999: Internal error!\n"
        f"EE9999(EE9999):  Failed to tear down stream because stream is bound, stream_id={st.ident}, "
        f"model_id={model.value.ident}, retCode=0x7030004.[FUNC:TearDownOwnedStream][FILE:context.cc][LINE:1050]\n"
        "TraceBack (most recent call last):\n"
        "       rtStreamDestroy execution failed, reason=the relationship between the model and stream is incorrect."
        "[FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:68]\n"
    )
    status = Ref()
    assert aclrtStreamQuery(st, status) == 0  # still a stream
    assert A.aclmdlRIUnbindStream(model.value, st) == 0
    assert A.aclmdlRIDestroy(model.value) == 0


def test_a_capturing_stream_waits_only_for_events_recorded_in_the_capture(bench):
    """ApiImpl::StreamWaitEvent: on a capturing stream, an event of aclrtCreateEvent not recorded
    in the capture (recorded before it, or never) is refused with a WARN: 207000, no report, no
    last error; one recorded in the capture (an Ex event) becomes a model task."""
    st, other = bench.stream(), bench.stream()
    before, never, inside = Ref(), Ref(), Ref()
    for e in (before, never):
        assert aclrtCreateEvent(e) == 0
    assert aclrtCreateEventExWithFlag(inside, 0x1) == 0  # a capture records only events of the Ex kind
    assert aclrtRecordEvent(before.value, other) == 0 and aclrtSynchronizeStream(other) == 0
    assert A.aclmdlRICaptureBegin(st, M.MODE_RELAXED) == 0
    assert A.aclmdlRICaptureBegin(other, M.MODE_RELAXED) == 0
    for e in (before, never):
        assert aclrtStreamWaitEvent(st, e.value) == 207000
        assert aclGetRecentErrMsg() is None and A.aclrtGetLastError(0) == 0
    assert aclrtRecordEvent(inside.value, st) == 0
    assert aclrtStreamWaitEvent(st, inside.value) == 0
    for s in (st, other):
        model = Ref()
        assert A.aclmdlRICaptureEnd(s, model) == 0 and A.aclmdlRIDestroy(model.value) == 0
    for e in (before, never, inside):
        assert aclrtDestroyEvent(e.value) == 0


def test_a_pageable_2d_copy_cannot_be_captured_but_takes_any_contexts_stream(bench):
    """ApiErrorDecorator::MemCopy2DAsync: with pageable memory the copy becomes a synchronize and a
    synchronous copy, which skips the stream-context check and which a capture refuses (EE1016)."""
    st = bench.stream()
    dev = bench.buf(np.arange(32, dtype=np.uint8).view(np.float32))
    host = np.zeros(32, np.uint8)
    home, other = Ref(), Ref()
    assert A.aclrtGetCurrentContext(home) == 0 and A.aclrtCreateContext(other, 1) == 0
    assert A.aclrtMemcpy2dAsync(host, 8, dev, 8, 8, 4, ACL_MEMCPY_DEVICE_TO_HOST, st) == 0
    assert A.aclrtDestroyContext(other.value) == 0 and A.aclrtSetCurrentContext(home.value) == 0
    assert aclrtSynchronizeStream(st) == 0 and host.tolist() == list(range(32))
    assert A.aclmdlRICaptureBegin(st, M.MODE_RELAXED) == 0
    assert A.aclrtMemcpy2dAsync(host, 8, dev, 8, 8, 4, ACL_MEMCPY_DEVICE_TO_HOST, st) == 107000
    assert aclGetRecentErrMsg().startswith(
        "Not_Supported(EE1016): Asynchronous 2D memory copy task failed. Reason: The pageable memory copy task "
        "does not support graph capture."
    )
    model = Ref()
    assert A.aclmdlRICaptureEnd(st, model) == 0 and A.aclmdlRIDestroy(model.value) == 0


def test_capture_mode_values_are_named_as_the_runtime_names_them(bench):
    """StreamCaptureModeToString: MAX(3), UNKNOWN(n) in the mode checks' EE1003."""
    st = bench.stream()
    assert A.aclmdlRICaptureBegin(st, 3) == 107000
    assert "because value MAX(3) for parameter mode is invalid" in aclGetRecentErrMsg()
    assert A.aclmdlRICaptureBegin(st, 5) == 107000
    assert "because value UNKNOWN(5) for parameter mode is invalid" in aclGetRecentErrMsg()
    assert A.aclmdlRICaptureThreadExchangeMode(Ref(-1)) == 107000
    assert "because value UNKNOWN(-1) for parameter mode is invalid" in aclGetRecentErrMsg()


def test_ascend910_has_no_graph_capture(soc):
    """RT_FEATURE_MODEL_ACL_GRAPH is not in config/cloud: the capture wrappers return 207000 with a
    WARN and set the thread's last error."""
    soc("Ascend910")
    assert aclInit(None) == 0 and A.aclrtSetDevice(0) == 0
    s = Ref()
    assert aclrtCreateStream(s) == 0
    for call in (
        lambda: A.aclmdlRICaptureBegin(s.value, M.MODE_RELAXED),
        lambda: A.aclmdlRICaptureEnd(s.value, Ref()),
        lambda: A.aclmdlRICaptureGetInfo(s.value, Ref(), None),
        lambda: A.aclmdlRICaptureThreadExchangeMode(Ref(M.MODE_RELAXED)),
    ):
        assert call() == 207000
        assert aclGetRecentErrMsg() is None and A.aclrtGetLastError(0) == 207000
    assert aclrtDestroyStream(s.value) == 0
    assert A.aclrtResetDevice(0) == 0 and aclFinalize() == 0


def test_building_a_model_checks_flags_and_streams(bench):
    """rtsModelCreate (flag 0), rtsModelBindStream (flag HEAD or DEFAULT, a persistent stream, not one
    bound already: EE1007), Model::UnbindStream (EE4002), aclmdlRIBuildEnd's reserve (EH0012)."""
    m, m2 = Ref(), Ref()
    assert A.aclmdlRIBuildBegin(m, 1) == 107000
    assert aclGetRecentErrMsg().startswith(
        "Invalid_Argument(EE1003): rtsModelCreate failed because value 1 for parameter flag is invalid. "
        "Expected value: 0."
    )
    assert A.aclmdlRIBuildBegin(m, 0) == 0 and A.aclmdlRIBuildBegin(m2, 0) == 0
    plain, st = bench.stream(), bench.stream(persistent=True)
    assert A.aclmdlRIBindStream(m.value, st, 5) == 107000
    assert "value 5 for parameter flag is invalid. Expected value: RT_MODEL_STREAM_FLAG_HEAD or " in (
        aclGetRecentErrMsg()
    )
    assert A.aclmdlRIBindStream(m.value, plain, 0) == 107000
    assert aclGetRecentErrMsg().startswith(
        "Invalid_Argument(EE1017): rtsModelBindStream failed. Parameter stm is invalid. Reason: Non-persistent "
        "stream cannot be bound to a model."
    )
    assert A.aclmdlRIUnbindStream(m.value, st) == 107005
    assert (
        f"Failed to unbind the stream from the model. The specified stream (stream_id={st.ident}) is not bound to "
        f"the current model (model_id={m.value.ident})."
    ) in aclGetRecentErrMsg()
    assert A.aclmdlRIBindStream(m.value, st, 0) == 0
    assert A.aclmdlRIBindStream(m2.value, st, 0) == 107005
    assert (
        f"Failed to bind stream (stream_id={st.ident}). Reason: The current stream has been bound to a model "
        f"(model_id={m.value.ident}) and cannot be bound to the input model (model_id={m2.value.ident})."
    ) in aclGetRecentErrMsg()
    assert A.aclmdlRIBuildEnd(m.value, 1) == 100000
    assert aclGetRecentErrMsg().startswith(
        "Invalid_Argument(EH0012): aclmdlRIBuildEnd failed. Parameter reserve is invalid. Reason: reserve is a "
        "reserved parameter and must be nullptr."
    )
    assert A.aclmdlRIUnbindStream(m.value, st) == 0
    for model in (m, m2):
        assert A.aclmdlRIDestroy(model.value) == 0


def test_an_event_recorded_in_an_ongoing_capture_cannot_be_queried_or_synchronized(bench):
    """ApiErrorDecorator: synchronizing, querying, timing an event whose record went into a capture
    still going on is 107028 EE1016; after aclmdlRICaptureEnd it is an event like any other."""
    st = bench.stream()
    ev = Ref()
    assert aclrtCreateEventExWithFlag(ev, 0x9) == 0  # ACL_EVENT_SYNC | ACL_EVENT_TIME_LINE
    assert A.aclmdlRICaptureBegin(st, M.MODE_RELAXED) == 0
    assert aclrtRecordEvent(ev.value, st) == 0
    status, ms, ts = Ref(), Ref(), Ref()
    for call, text in (
        (
            lambda: A.aclrtSynchronizeEvent(ev.value),
            f"Event synchronization failed. Reason: Event (event_id={ev.value.ident})",
        ),
        (lambda: A.aclrtQueryEventStatus(ev.value, status), "Event status query failed. Reason: Event (event_id="),
        (
            lambda: A.aclrtEventElapsedTime(ms, ev.value, ev.value),
            "Computing the elapsed time between two events failed. Reason: StartEvent ",
        ),
        (
            lambda: A.aclrtEventGetTimestamp(ev.value, ts),
            f"Obtaining the event execution end time failed. Reason: Event {ev.value.ident} during",
        ),
    ):
        assert call() == 107028
        msg = aclGetRecentErrMsg()
        assert msg.startswith("Not_Supported(EE1016): " + text) and "during the capture stage is not supported." in msg
    model = Ref()
    assert A.aclmdlRICaptureEnd(st, model) == 0
    assert A.aclrtSynchronizeEvent(ev.value) == 0
    assert A.aclmdlRIDestroy(model.value) == 0 and aclrtDestroyEvent(ev.value) == 0


def test_events_recorded_on_a_bound_stream_are_not_captured_and_flag_checks_keep_no_last_error(bench):
    """A record onto a stream bound to a built model is a model task but not a capture
    (Event::IsCapturing): the event can be synchronized; rtsModelCreate's and rtsModelBindStream's
    flag checks report without setting the thread's last error."""
    m = Ref()
    assert A.aclmdlRIBuildBegin(m, 2) == 107000 and A.aclrtGetLastError(0) == 0
    aclGetRecentErrMsg()
    assert A.aclmdlRIBuildBegin(m, 0) == 0
    st = bench.stream(persistent=True)
    assert A.aclmdlRIBindStream(m.value, st, 3) == 107000 and A.aclrtGetLastError(0) == 0
    aclGetRecentErrMsg()
    assert A.aclmdlRIBindStream(m.value, st, 0) == 0
    ev = Ref()
    assert aclrtCreateEventExWithFlag(ev, 0x1) == 0
    assert aclrtRecordEvent(ev.value, st) == 0
    assert A.aclrtSynchronizeEvent(ev.value) == 0
    assert A.aclmdlRIUnbindStream(m.value, st) == 0 and A.aclmdlRIDestroy(m.value) == 0
    assert aclrtDestroyEvent(ev.value) == 0


def _ex_event() -> object:
    e = Ref()
    assert aclrtCreateEventExWithFlag(e, 0x1) == 0  # ACL_EVENT_SYNC: a capture records Ex events
    return e.value


def _fork_join(bench: Bench, origin: object, side: object, join_back: bool = True) -> tuple[object, object]:
    """Begin a capture on ``origin`` and fork ``side`` off it (an event recorded in the capture,
    waited on by ``side``); with ``join_back``, join it back (a record on ``side`` the origin
    waits on). Returns the two events."""
    fork, join = _ex_event(), _ex_event()
    assert A.aclmdlRICaptureBegin(origin, M.MODE_GLOBAL) == 0
    assert aclrtRecordEvent(fork, origin) == 0
    assert aclrtStreamWaitEvent(side, fork) == 0, aclGetRecentErrMsg()
    if join_back:
        assert aclrtRecordEvent(join, side) == 0
        assert aclrtStreamWaitEvent(origin, join) == 0
    return fork, join


def _capture_info(st: object) -> tuple[int, object]:
    status, model = Ref(), Ref()
    assert A.aclmdlRICaptureGetInfo(st, status, model) == 0
    return status.value, model.value


def test_a_stream_waiting_on_a_captured_event_joins_the_capture_and_replays_with_it(bench):
    """GetCaptureStream/StreamAddToCaptureModelProc: a stream that waits on an event recorded in an
    ongoing capture captures into the same model, on a model stream of its own (fork); its work
    runs at each replay, ordered by the captured events (join), not at capture time."""
    origin, side = bench.stream(), bench.stream()
    a, b = bench.buf(np.arange(N)), bench.buf(np.full(N, 2))
    out1, out2 = bench.buf(np.zeros(N)), bench.buf(np.zeros(N))
    ws1, ex1 = bench.add(a, b, out1, 1.0)
    ws2, ex2 = bench.add(out1, b, out2, 2.0)  # reads what the origin's kernel writes
    fork, join = _ex_event(), _ex_event()
    assert A.aclmdlRICaptureBegin(origin, M.MODE_GLOBAL) == 0
    assert aclnnAdd(None, ws1, ex1, origin) == 0
    assert aclrtRecordEvent(fork, origin) == 0
    assert _capture_info(side)[0] == 0
    assert aclrtStreamWaitEvent(side, fork) == 0
    assert _capture_info(side) == (1, _capture_info(origin)[1])  # ACTIVE, the origin's model
    assert aclnnAdd(None, ws2, ex2, side) == 0
    assert aclrtRecordEvent(join, side) == 0
    assert aclrtStreamWaitEvent(origin, join) == 0
    m = Ref()
    assert A.aclmdlRICaptureEnd(origin, m) == 0, aclGetRecentErrMsg()
    assert _capture_info(side) == (0, None)  # the end releases the joined stream too
    streams, num = [None] * 4, Ref(4)
    assert A.aclmdlRIGetStreams(m.value, streams, num) == 0 and num.value == 2
    kinds = []
    for st in streams[:2]:
        tasks, k = [None] * 4, Ref(4)
        assert A.aclmdlRIGetTasksByStream(st, tasks, k) == 0
        kinds.append([M.TASK_TYPE_NAMES[t.type] for t in tasks[: k.value]])
    assert kinds == [["KERNEL", "EVENT_RECORD", "EVENT_WAIT"], ["EVENT_WAIT", "KERNEL", "EVENT_RECORD"]]
    assert aclrtSynchronizeStream(side) == 0
    np.testing.assert_array_equal(bench.get(out2), np.zeros(N))  # captured, not run
    for base in (0.0, 10.0):
        bench.put(a, np.arange(N) + base)
        assert A.aclmdlRIExecuteAsync(m.value, bench.stream()) == 0
        assert A.aclrtSynchronizeDevice() == 0
        np.testing.assert_array_equal(bench.get(out1), np.arange(N) + base + 2)
        np.testing.assert_array_equal(bench.get(out2), np.arange(N) + base + 6)
    assert A.aclmdlRIDestroy(m.value) == 0
    for e in (fork, join):
        assert aclrtDestroyEvent(e) == 0


def test_the_schedule_runs_a_joined_stream_up_to_the_record_a_wait_needs():
    """Schedule: a wait on a record of another model stream first runs that stream up to it."""
    ctx = type("Ctx", (), {"device": type("D", (), {"ident": 0})()})()
    model = M.Model(ctx, "capture")
    s0, s1 = M.Stream(ctx, False, 0, "t"), M.Stream(ctx, False, 0, "t")
    model.add_stream(s0, head=True)
    model.add_stream(s1, head=False)
    e1, e2 = object(), object()

    def task(st: object, kind: int, label: str, ev: object = None) -> M.ModelTask:
        mt = M.ModelTask(model, st, kind, label, None, ready=(lambda: False) if kind == M.TASK_EVENT_WAIT else None)
        mt.event = ev  # type: ignore[assignment]
        model.tasks_of(st).append(mt)
        return mt

    task(s0, M.TASK_KERNEL, "k0")
    task(s0, M.TASK_EVENT_RECORD, "r1", e1)
    task(s1, M.TASK_EVENT_WAIT, "w1", e1)
    task(s1, M.TASK_KERNEL, "k1")
    task(s1, M.TASK_EVENT_RECORD, "r2", e2)
    task(s0, M.TASK_KERNEL, "k2")
    w2 = task(s0, M.TASK_EVENT_WAIT, "w2", e2)
    task(s0, M.TASK_KERNEL, "k3")
    sched = M.Schedule(model)
    assert [t.label for t in sched.tasks] == ["k0", "r1", "k2", "w1", "k1", "r2", "w2", "k3"]
    assert id(w2) in sched.ordered
    # a joined stream's record the origin waits on before that stream waits on the origin
    model2 = M.Model(ctx, "capture")
    model = model2
    model2.add_stream(s0, head=True)
    model2.add_stream(s1, head=False)
    task(s1, M.TASK_EVENT_RECORD, "rb", e1)
    task(s0, M.TASK_EVENT_WAIT, "wa", e1)
    task(s0, M.TASK_EVENT_RECORD, "ra", e2)
    task(s1, M.TASK_EVENT_WAIT, "wb", e2)
    assert [t.label for t in M.Schedule(model2).tasks] == ["rb", "wa", "ra", "wb"]


def test_ending_a_capture_checks_the_joined_streams(bench):
    """Context::StreamEndCapture on a joined stream is 107036 (logged; FuncErrorReason); on the
    origin, CheckCaptureModelValidity refuses a capture whose joined stream ends with anything but
    an event record a later wait of the capture binds to (107025, EE1017): every stream leaves the
    capture and the model is destroyed. (Its third reason, no record waited on by the origin,
    needs streams this emulator does not model: a joined stream's last record waited on only by
    other joined streams leaves one of them ending with a wait.)"""
    origin, side = bench.stream(), bench.stream()
    m = Ref()
    fork, join = _fork_join(bench, origin, side)
    assert A.aclmdlRICaptureEnd(side, m) == E.ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED
    msg = aclGetRecentErrMsg()
    assert "rtStreamEndCapture execution failed, reason=the capture was not initiated in this stream" in msg
    assert "EE1017" not in msg and "EE1016" not in msg  # logged only, then FuncErrorReason
    assert A.aclmdlRICaptureEnd(origin, m) == 0
    assert A.aclmdlRIDestroy(m.value) == 0
    for e in (fork, join):
        assert aclrtDestroyEvent(e) == 0
    reasons = {
        "only the fork": "the last task (task_id=0) on the sub stream (stream_id={s}) is not an event record task. "
        "Call aclrtRecordEvent on the sub stream to deliver an event record task",
        "last not a record": "the last task (task_id=2) on the sub stream (stream_id={s}) is not an event record task. "
        "Call aclrtRecordEvent on the sub stream to deliver an event record task",
        "record not waited": "the last task (task_id=1, event_id={e}) on the sub stream (stream_id={s}) lacks the "
        "corresponding event wait task",
    }
    for case, reason in reasons.items():
        fork, join = _fork_join(bench, origin, side, join_back=case == "last not a record")
        if case == "record not waited":
            assert aclrtRecordEvent(join, side) == 0
        if case == "last not a record":
            assert A.aclrtMemsetAsync(bench.buf(), NB, 0, NB, side) == 0
        model = _capture_info(origin)[1]
        head, target = model.head, next(st for st in model.streams if st is not model.head)
        assert A.aclmdlRICaptureEnd(origin, m) == E.ACL_ERROR_RT_STREAM_UNJOINED, case
        text = reason.format(o=head.ident, s=target.ident, e=join.ident)
        msg = aclGetRecentErrMsg()
        assert msg.startswith(
            "Invalid_Argument(EE1017): Capture model validity check failed. Parameter capture model is invalid. "
            f"Reason: In the cross-stream capture scenario, {text}.\n"
        ), (case, msg)
        assert "rtStreamEndCapture execution failed, reason=capture model contains a stream that was not joined" in msg
        assert _capture_info(origin) == (0, None) and _capture_info(side) == (0, None)
        assert model.destroyed
        for e in (fork, join):
            assert aclrtDestroyEvent(e) == 0


def test_joining_a_capture_is_refused_for_the_default_stream_cpu_streams_and_another_model(bench):
    """ApiImpl::StreamWaitEvent's IsCapturing branch: a stream flag the capture does not support
    (ACL_STREAM_CPU_SCHEDULE: 507000, EE1011), the default stream (107031, EE1017), a stream
    capturing into another model (107032, EE1016; both captures are invalidated and their ends
    fail with 507903); an Ex event recorded outside the capture: 107024 (EE1016)."""
    origin, other = bench.stream(), bench.stream()
    cpu = Ref()
    assert aclrtCreateStreamWithConfig(cpu, 0, ACL_STREAM_CPU_SCHEDULE) == 0
    bench.streams.append(cpu.value)
    fork = _ex_event()
    assert A.aclmdlRICaptureBegin(origin, M.MODE_RELAXED) == 0
    assert aclrtRecordEvent(fork, origin) == 0
    assert aclrtStreamWaitEvent(cpu.value, fork) == E.ACL_ERROR_RT_INTERNAL_ERROR
    assert (
        f"Value 8 for parameter stream flag is invalid. Reason: Stream (stream_id={cpu.value.ident}) does not "
        "support the ACL Graph." in aclGetRecentErrMsg()
    )
    assert aclrtStreamWaitEvent(None, fork) == E.ACL_ERROR_RT_STREAM_CAPTURE_IMPLICIT
    assert "cannot be used in the ACL Graph" in aclGetRecentErrMsg()
    outside = _ex_event()
    assert aclrtRecordEvent(outside, other) == 0
    assert aclrtStreamWaitEvent(origin, outside) == E.ACL_ERROR_RT_CAPTURE_DEPENDENCY
    assert "the corresponding event record task is not in the current model" in aclGetRecentErrMsg()
    assert A.aclmdlRICaptureBegin(other, M.MODE_RELAXED) == 0
    m1, m2 = _capture_info(origin)[1], _capture_info(other)[1]
    assert aclrtStreamWaitEvent(other, fork) == E.ACL_ERROR_STREAM_CAPTURE_CONFLICT
    msg = aclGetRecentErrMsg()
    assert msg.startswith(
        "Not_Supported(EE1016): Triggering event waiting in capture mode failed. Reason: The model "
        f"(model_id={m1.ident}) where the event record task is located is inconsistent with the model "
        f"(stream_id={other.ident}, model_id={m2.ident}) where the event wait task is located.\n"
    ), msg
    assert "Capture wait event failed.[FUNC:StreamWaitEvent][FILE:api_impl.cc][LINE:1641]" in msg
    assert "rtStreamWaitEvent execution failed, reason=stream begin capture conflict" in msg
    for st, mdl in ((origin, m1), (other, m2)):
        assert A.aclmdlRICaptureEnd(st, Ref()) == E.ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED
        assert f"The current model (model_id={mdl.ident}) is invalid because an error occurred" in aclGetRecentErrMsg()
        assert mdl.destroyed and _capture_info(st) == (0, None)
    for e in (fork, outside):
        assert aclrtDestroyEvent(e) == 0


@pytest.mark.parametrize("chip", ["Ascend910B", "Ascend950"])
def test_capture_begin_and_end_refuse_streams_whose_flags_the_capture_does_not_support(soc, chip):
    """ApiErrorDecorator::StreamBeginCapture/StreamEndCapture: StreamFlagIsSupportCapture refuses
    an ACL_STREAM_CPU_SCHEDULE stream (RT_STREAM_AICPU) with 507000 (EE1011); Ascend950's
    (capture_adapt_v200.cc) also a persistent one, which the other chips capture."""
    soc(chip)
    assert aclInit(None) == 0 and A.aclrtSetDevice(0) == 0
    cpu, persistent = Ref(), Ref()
    assert aclrtCreateStreamWithConfig(cpu, 0, ACL_STREAM_CPU_SCHEDULE) == 0
    assert aclrtCreateStreamWithConfig(persistent, 0, ACL_STREAM_PERSISTENT) == 0
    for verb, call in (
        ("begin", lambda s: A.aclmdlRICaptureBegin(s, M.MODE_RELAXED)),
        ("end", lambda s: A.aclmdlRICaptureEnd(s, None)),
    ):
        assert call(cpu.value) == E.ACL_ERROR_RT_INTERNAL_ERROR
        assert aclGetRecentErrMsg().startswith(
            f"Invalid_Argument(EE1011): Stream {verb} capture failed. Value 8 for parameter stream flag is invalid. "
            f"Reason: Stream (stream_id={cpu.value.ident}) does not support the ACL Graph.\n"
        )
    if chip == "Ascend950":
        assert A.aclmdlRICaptureBegin(persistent.value, M.MODE_RELAXED) == E.ACL_ERROR_RT_INTERNAL_ERROR
        assert "Value 1 for parameter stream flag is invalid" in aclGetRecentErrMsg()
    else:
        m = Ref()
        assert A.aclmdlRICaptureBegin(persistent.value, M.MODE_RELAXED) == 0
        assert A.aclmdlRICaptureEnd(persistent.value, m) == 0 and A.aclmdlRIDestroy(m.value) == 0
    for s in (cpu, persistent):
        assert aclrtDestroyStream(s.value) == 0
    assert A.aclrtResetDevice(0) == 0 and aclFinalize() == 0


def test_a_model_is_refused_outside_its_context_and_without_one(bench):
    """ApiImpl's model calls (ModelDestroy, ModelExecute(Sync/Async), ModelBindStream, ModelUnbindStream,
    ModelLoadComplete, ModelAbort, ModelNameSet, ModelGetName, ModelGetStreams) check a current
    context (107002), then that the model was made in it (107004: EE1010 and FuncErrorReason)."""
    st = bench.stream()
    a, b, out = bench.buf(np.arange(N)), bench.buf(np.full(N, 2)), bench.buf(np.zeros(N))
    model = _capture_add(bench, st, a, b, out, 1.0)
    home, other = Ref(), Ref()
    assert A.aclrtGetCurrentContext(home) == 0
    assert A.aclrtCreateContext(other, 0) == 0  # and makes it current
    calls = {
        "Destroying a model running instance": ("rtModelDestroy", lambda: A.aclmdlRIDestroy(model)),
        "Aborting the model running instance": ("rtsModelAbort", lambda: A.aclmdlRIAbort(model)),
        "Setting the name of a model running instance": ("rtsModelSetName", lambda: A.aclmdlRISetName(model, "m")),
        "Obtaining the name of a model running instance": (
            "rtsModelGetName",
            lambda: A.aclmdlRIGetName(model, 8, Ref()),
        ),
        "Obtaining the stream associated with a model running instance": (
            "rtModelGetStreams",
            lambda: A.aclmdlRIGetStreams(model, None, Ref(0)),
        ),
        "Ending the build of a model running instance": (
            "rtsModelLoadComplete",
            lambda: A.aclmdlRIBuildEnd(model, None),
        ),
    }
    for desc, (rt_fn, call) in calls.items():
        assert call() == E.ACL_ERROR_RT_MODEL_CONTEXT, desc
        msg = aclGetRecentErrMsg()
        assert msg.startswith(
            f"Execution_Error_Invalid_Context(EE1010): {desc} execution failed because model does not belong to the current context. "
            f"Extended information: model_id={model.ident}, "
        ), msg
        assert f"{rt_fn} execution failed, reason=model not in current ctx" in msg
    assert A.aclrtDestroyContext(other.value) == 0  # no context is current now
    assert A.aclmdlRIDestroy(model) == E.ACL_ERROR_RT_CONTEXT_NULL
    assert A.aclrtSetCurrentContext(home.value) == 0
    assert A.aclmdlRIDestroy(model) == 0


def test_only_an_ongoing_capture_makes_an_event_capturing(bench):
    """Event::IsCapturing: an event recorded in an ongoing capture stays capturing when a plain
    record follows (captureEvent_ lasts until ExitCaptureNotify: 107028, and a wait joins), but
    not once the capture ended, nor for a record on a stream updating a task group (no capture
    stream); a capturing stream's wait on an Ex event is 107024 only after a plain record of it
    (HasRecord), not after replays (they record the capture's own event)."""
    origin, idle, side, upd = bench.stream(), bench.stream(), bench.stream(), bench.stream()
    e = _ex_event()
    assert A.aclmdlRICaptureBegin(origin, M.MODE_RELAXED) == 0
    assert A.aclmdlRICaptureTaskGrpBegin(origin) == 0
    assert aclrtRecordEvent(e, origin) == 0
    grp = Ref()
    assert A.aclmdlRICaptureTaskGrpEnd(origin, grp) == 0
    assert aclrtRecordEvent(e, idle) == 0  # a plain record: the link to the capture stays
    assert A.aclrtSynchronizeEvent(e) == E.ACL_ERROR_RT_EVENT_CAPTURED
    assert aclrtStreamWaitEvent(side, e) == 0 and _capture_info(side)[0] == 1  # joins
    assert aclrtRecordEvent(e, side) == 0 and aclrtStreamWaitEvent(origin, e) == 0
    m = Ref()
    assert A.aclmdlRICaptureEnd(origin, m) == 0, aclGetRecentErrMsg()
    for _ in range(2):  # replays record the capture's event, not e's HasRecord
        assert A.aclmdlRIExecuteAsync(m.value, idle) == 0
    assert aclrtSynchronizeStream(idle) == 0
    assert A.aclmdlRICaptureTaskUpdateBegin(upd, grp.value) == 0
    assert aclrtRecordEvent(e, upd) == 0
    other = bench.stream()
    assert aclrtStreamWaitEvent(other, e) == 0 and _capture_info(other) == (0, None)  # a plain wait
    assert A.aclmdlRICaptureTaskUpdateEnd(upd) == 0
    fresh = _ex_event()
    assert aclrtRecordEvent(fresh, idle) == 0 and aclrtSynchronizeStream(idle) == 0
    m2 = Ref()
    assert A.aclmdlRICaptureBegin(origin, M.MODE_RELAXED) == 0
    assert aclrtStreamWaitEvent(origin, fresh) == E.ACL_ERROR_RT_CAPTURE_DEPENDENCY  # HasRecord: refused
    assert A.aclmdlRICaptureEnd(origin, m2) == 0 and A.aclmdlRIDestroy(m2.value) == 0
    assert A.aclmdlRIDestroy(m.value) == 0
    for ev in (e, fresh):
        assert aclrtDestroyEvent(ev) == 0


def test_joining_an_invalidated_capture_is_refused_and_failed_ends_clear_the_model_out(bench):
    """StreamAddToCaptureModelProc refuses a capture an error invalidated (RT_ERROR_MODEL_CAPTURE_STATUS:
    507000 and the inner reports of the calls above it); ApiImpl::StreamEndCapture writes NULL to
    *modelRI when the end of a (non-sub) capture fails."""
    a, b, c = bench.stream(), bench.stream(), bench.stream()
    fork = _ex_event()
    assert A.aclmdlRICaptureBegin(a, M.MODE_RELAXED) == 0 and aclrtRecordEvent(fork, a) == 0
    assert A.aclmdlRICaptureBegin(b, M.MODE_RELAXED) == 0
    assert aclrtStreamWaitEvent(b, fork) == E.ACL_ERROR_STREAM_CAPTURE_CONFLICT  # invalidates both
    assert aclrtStreamWaitEvent(c, fork) == E.ACL_ERROR_RT_INTERNAL_ERROR
    msg = aclGetRecentErrMsg()
    assert f"New capture stream failed, stream_id={c.ident}, event_id=[{fork.ident}->{fork.ident}]." in msg
    assert "error=117702673.[FUNC:CaptureEventWait][FILE:api_impl_capture_event.cc][LINE:85]" in msg
    assert "rtStreamWaitEvent execution failed, reason=model status error" in msg
    assert _capture_info(c) == (0, None)
    for st in (a, b):
        out = Ref("sentinel")
        assert A.aclmdlRICaptureEnd(st, out) == E.ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED
        assert out.value is None
    assert aclrtDestroyEvent(fork) == 0
