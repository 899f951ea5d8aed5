"""synccheck by the ordering rule (issue 15, item 1): a host read, overwrite or free of bytes that
a queued task writes or reads is a hazard until a synchronize (stream, event, device) or a query
that saw the work complete has ordered the task before it: whether the policy happened to run
the task already is irrelevant. Every test runs under the three policies and finds the same."""

from __future__ import annotations

import time

import numpy as np
import pytest

from aclnn_py import (
    ACL_MEMCPY_DEVICE_TO_HOST,
    ACL_MEMCPY_HOST_TO_DEVICE,
    Ref,
    aclFinalize,
    aclGetRecentErrMsg,
    aclInit,
    aclrtCreateEvent,
    aclrtCreateStream,
    aclrtDestroyEvent,
    aclrtDestroyStream,
    aclrtFree,
    aclrtMalloc,
    aclrtMemcpy,
    aclrtMemsetAsync,
    aclrtQueryEventStatus,
    aclrtRecordEvent,
    aclrtResetDevice,
    aclrtSetDevice,
    aclrtStreamQuery,
    aclrtStreamWaitEvent,
    aclrtSynchronizeDevice,
    aclrtSynchronizeEvent,
    aclrtSynchronizeStream,
)
from aclnn_py.runtime import sanitizer
from aclnn_py.runtime.device import RT

POLICIES = ["deferred", "eager", "thread"]


@pytest.fixture(params=POLICIES)
def rt(request, monkeypatch):
    monkeypatch.setenv("ACLNN_PY_STREAM", request.param)
    assert aclInit(None) == 0 and aclrtSetDevice(0) == 0
    assert RT.policy.name == request.param
    yield request.param
    aclGetRecentErrMsg()
    aclrtResetDevice(0)
    aclFinalize()
    aclGetRecentErrMsg()


def _poll_until(query, complete: int) -> None:
    status = Ref()
    deadline = time.monotonic() + 60
    while True:
        assert query(status) == 0
        if status.value == complete:
            return
        assert time.monotonic() < deadline, "the queued work never completed"
        time.sleep(0.0005)


def _alloc(n: int) -> int:
    p = Ref()
    assert aclrtMalloc(p, n, 0) == 0
    assert aclrtMemcpy(p.value, n, np.zeros(n, np.uint8), n, ACL_MEMCPY_HOST_TO_DEVICE) == 0
    return p.value


def _stream():
    s = Ref()
    assert aclrtCreateStream(s) == 0
    return s.value


def _event():
    e = Ref()
    assert aclrtCreateEvent(e) == 0
    return e.value


def _read(p: int, n: int = 16) -> None:
    out = np.zeros(n, np.uint8)
    assert aclrtMemcpy(out, n, p, n, ACL_MEMCPY_DEVICE_TO_HOST) == 0


def _synccheck() -> list[str]:
    found = [m for c, m in sanitizer.FINDINGS if c == "synccheck"]
    sanitizer.FINDINGS.clear()
    aclGetRecentErrMsg()
    return found


def test_a_read_without_a_synchronize_is_reported_under_every_policy(rt, findings):
    s = _stream()
    p = _alloc(16)
    assert aclrtMemsetAsync(p, 16, 3, 16, s) == 0
    _read(p)
    found = _synccheck()
    assert len(found) == 1
    assert found[0].startswith("aclrtMemcpy at test_diagnostics_ordering.py:")
    assert "'aclrtMemsetAsync(16 bytes)' queued on <aclrtStream #2" in found[0]
    assert "may still have to write it" in found[0]
    assert aclrtSynchronizeStream(s) == 0
    _read(p)
    assert _synccheck() == []  # ordered now
    aclrtFree(p)
    aclrtDestroyStream(s)


def test_the_findings_are_the_same_text_under_every_policy(monkeypatch, findings):
    texts = {}
    for policy in POLICIES:
        from aclnn_py import testing

        testing.reset()
        monkeypatch.setenv("ACLNN_PY_STREAM", policy)
        assert aclInit(None) == 0 and aclrtSetDevice(0) == 0
        s = _stream()
        p = _alloc(16)
        sanitizer.FINDINGS.clear()
        assert aclrtMemsetAsync(p, 16, 3, 16, s) == 0
        _read(p)
        assert aclrtFree(p) == 0
        assert aclrtDestroyStream(s) in (0, 507013)  # deferred runs the memset now, on freed memory
        texts[policy] = _synccheck()
        aclrtResetDevice(0)
        aclFinalize()
        aclGetRecentErrMsg()
    assert len(texts["deferred"]) == 2  # the read, then the free (the destroy finds it forgotten)
    assert texts["eager"] == texts["deferred"] == texts["thread"]


def test_a_free_and_an_overwrite_without_a_synchronize_are_reported(rt, findings):
    s = _stream()
    p, q = _alloc(16), _alloc(16)
    assert aclrtMemsetAsync(p, 16, 3, 16, s) == 0
    assert aclrtMemcpy(p, 16, np.ones(16, np.uint8), 16, ACL_MEMCPY_HOST_TO_DEVICE) == 0
    found = _synccheck()
    assert len(found) == 1 and "overwrites" in found[0] and "may still use it" in found[0]
    assert aclrtMemsetAsync(q, 16, 3, 16, s) == 0
    assert aclrtFree(q) == 0
    found = _synccheck()
    assert len(found) == 1 and found[0].startswith("aclrtFree at test_diagnostics_ordering.py:")
    # the memset may have run before the free (eager) or fail on the freed memory (deferred):
    # the hazard is the same, the outcome is the timing's
    assert aclrtSynchronizeStream(s) in (0, 507013)
    aclrtFree(p)
    aclrtDestroyStream(s)


def test_destroying_a_stream_with_unsynchronized_work_is_reported(rt, findings):
    s = _stream()
    p = _alloc(16)
    assert aclrtMemsetAsync(p, 16, 3, 16, s) == 0
    assert aclrtDestroyStream(s) == 0
    found = _synccheck()
    assert len(found) == 1 and "with 1 task(s) no synchronize has ordered" in found[0]
    _read(p)
    assert _synccheck() == []  # the destroy waited for the work: it is ordered
    aclrtFree(p)


def test_an_event_synchronize_orders_the_work_before_the_record_only(rt, findings):
    s = _stream()
    ev = _event()
    p, q = _alloc(16), _alloc(16)
    assert aclrtMemsetAsync(p, 16, 1, 16, s) == 0
    assert aclrtRecordEvent(ev, s) == 0
    assert aclrtMemsetAsync(q, 16, 2, 16, s) == 0
    assert aclrtSynchronizeEvent(ev) == 0
    _read(p)
    assert _synccheck() == []
    _read(q)
    found = _synccheck()
    assert len(found) == 1 and "'aclrtMemsetAsync(16 bytes)'" in found[0]
    assert aclrtSynchronizeDevice() == 0
    _read(q)
    assert _synccheck() == []
    aclrtFree(p)
    aclrtFree(q)
    aclrtDestroyEvent(ev)
    aclrtDestroyStream(s)


def test_a_stream_wait_carries_the_order_to_the_waited_stream(rt, findings):
    a, b = _stream(), _stream()
    ev = _event()
    p, q = _alloc(16), _alloc(16)
    assert aclrtMemsetAsync(p, 16, 1, 16, a) == 0
    assert aclrtRecordEvent(ev, a) == 0
    assert aclrtStreamWaitEvent(b, ev) == 0
    assert aclrtMemsetAsync(q, 16, 2, 16, b) == 0
    assert aclrtSynchronizeStream(b) == 0  # b waited for a's record: a's memset is ordered too
    _read(p)
    _read(q)
    assert _synccheck() == []
    aclrtFree(p)
    aclrtFree(q)
    aclrtDestroyEvent(ev)
    aclrtDestroyStream(a)
    aclrtDestroyStream(b)


def test_a_query_that_saw_the_work_complete_orders_it(rt, findings):
    s = _stream()
    ev = _event()
    p = _alloc(16)
    assert aclrtMemsetAsync(p, 16, 1, 16, s) == 0
    assert aclrtRecordEvent(ev, s) == 0
    # a polling loop, as a program writes it: every policy reaches COMPLETE (the thread policy's
    # worker needs the GIL, hence the sleep; the deadline only keeps a broken policy from hanging)
    _poll_until(lambda status: aclrtQueryEventStatus(ev, status), 1)  # ..._STATUS_COMPLETE
    _read(p)
    assert _synccheck() == []
    assert aclrtMemsetAsync(p, 16, 2, 16, s) == 0
    _poll_until(lambda status: aclrtStreamQuery(s, status), 0)  # ACL_STREAM_STATUS_COMPLETE
    _read(p)
    assert _synccheck() == []
    aclrtFree(p)
    aclrtDestroyEvent(ev)
    aclrtDestroyStream(s)
