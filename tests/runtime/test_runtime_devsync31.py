"""Stop 31: aclrtSynchronizeDevice's order and the synccheck advice for the streams the host does
not synchronize.

* Context::Synchronize (hicann/runtime context.cc:1219-1243) skips the IsStreamNotSync streams
  (context.cc:1194-1204) and SyncStreamsWithTimeout (context.cc:1069-1107) waits for the created
  streams in creation order, then the default stream, returning at the first failure in stop mode.
  (Its scope, the current context in CANN's code, is the whole device in aclnn_py: the document's
  contract, docs/fidelity.md.)
* aclrtSynchronizeStream returns at once for an ACL_STREAM_PERSISTENT, CPU_SCHEDULE or DEVICE_USE_ONLY
  stream (ApiErrorDecorator::StreamSynchronize, api_error.cc:1451-1458), while aclrtSynchronizeEvent
  waits for the event's record whatever its stream (ApiImpl::EventSynchronize -> Event::Synchronize,
  api_impl.cc:2250-2270, event.cc:1081-1160): the sanitizer's advice says so.
"""

from __future__ import annotations

import numpy as np
import pytest
from rt_streams import failing_copy, filled, new_stream, read_back

from aclnn_py import (
    ACL_ERROR_RT_SYS_DMA,
    ACL_MEMCPY_HOST_TO_DEVICE,
    ACL_STOP_ON_FAILURE,
    ACL_STREAM_CPU_SCHEDULE,
    ACL_STREAM_DEVICE_USE_ONLY,
    ACL_STREAM_PERSISTENT,
    Ref,
    aclGetRecentErrMsg,
)
from aclnn_py.runtime import api as A


def _current() -> object:
    c = Ref()
    assert A.aclrtGetCurrentContext(c) == 0
    return c.value


# -- item 1: the order of the device's synchronize ---------------------------------------------------


def test_device_synchronize_waits_for_the_created_streams_before_the_default_stream(deferred, dev0, findings):
    """SyncStreamsWithTimeout: the context's streams_ (creation order), then its default stream; in
    continue mode every one is waited for and the first failure is returned: the created stream's,
    not the default stream's."""
    q = Ref()
    assert A.aclrtMalloc(q, 64, 0) == 0  # the default stream's copy into it fails (freed before it runs)
    assert A.aclrtMemcpyAsync(q.value, 64, np.ones(64, np.uint8), 64, ACL_MEMCPY_HOST_TO_DEVICE, None) == 0
    assert A.aclrtFree(q.value) == 0
    st = new_stream()
    failing_copy(st)
    findings.refresh()
    aclGetRecentErrMsg()
    assert A.aclrtSynchronizeDevice() == ACL_ERROR_RT_SYS_DMA
    text = aclGetRecentErrMsg()
    assert "aclrtMemcpyAsync task failed" in text and f"at 0x{q.value:x} " not in text
    assert not st.pending and not _current().default_stream.pending
    assert A.aclrtDestroyStream(st) == 0


def test_device_synchronize_in_a_stopped_context_returns_at_the_first_failure(deferred, dev0, findings):
    """SyncStreamsWithTimeout returns a stream's failure at once unless the context continues on
    failure (context.cc:1091-1095): in stop mode the streams after the failing one are not waited for."""
    first, second = new_stream(), new_stream()
    assert A.aclrtSetStreamFailureMode(first, ACL_STOP_ON_FAILURE) == 0
    failing_copy(first)
    p = filled()
    assert A.aclrtMemsetAsync(p, 16, 5, 16, second) == 0
    findings.refresh()
    aclGetRecentErrMsg()
    assert A.aclrtSynchronizeDevice() == ACL_ERROR_RT_SYS_DMA
    assert "aclrtMemcpyAsync task failed" in aclGetRecentErrMsg()
    assert not first.pending and second.pending
    assert A.aclrtDestroyStreamForce(second) == 0 and A.aclrtDestroyStreamForce(first) == 0
    assert A.aclrtFree(p) == 0


# -- item 2: the advice for the streams the host does not synchronize ------------------------------


@pytest.mark.parametrize(
    "flag", [ACL_STREAM_CPU_SCHEDULE, ACL_STREAM_DEVICE_USE_ONLY], ids=["cpu_schedule", "device_use_only"]
)
def test_read_advice_for_a_stream_the_host_does_not_synchronize_names_an_event(deferred, dev0, findings, flag):
    """aclrtSynchronizeStream returned at once: the finding says so and advises an event (or a plain
    stream), not the stream synchronize that did not help."""
    name = {
        ACL_STREAM_CPU_SCHEDULE: "ACL_STREAM_CPU_SCHEDULE",
        ACL_STREAM_DEVICE_USE_ONLY: "ACL_STREAM_DEVICE_USE_ONLY",
    }
    st = new_stream(flag)
    p = filled()
    assert A.aclrtMemsetAsync(p, 16, 5, 16, st) == 0
    assert A.aclrtSynchronizeStream(st) == 0
    read_back(p)
    text = findings.refresh().text()
    assert findings.checks() == ["synccheck"]
    assert (
        f"queued on {st!r}, an {name[flag]} stream, whose aclrtSynchronizeStream returns at once without waiting "
        "for it, may still have to write it: the host may see stale data (record an event on "
        f"{st!r} after the work and call aclrtSynchronizeEvent on it first, or queue the work on a plain stream)"
    ) in text
    assert "call aclrtSynchronizeStream first" not in text and "has not been synchronized since" not in text
    aclGetRecentErrMsg()
    assert A.aclrtDestroyStreamForce(st) == 0 and A.aclrtFree(p) == 0


@pytest.mark.parametrize(
    "flag", [ACL_STREAM_CPU_SCHEDULE, ACL_STREAM_DEVICE_USE_ONLY], ids=["cpu_schedule", "device_use_only"]
)
def test_the_advised_event_orders_the_work(deferred, dev0, flag):
    """Following the advice: an event recorded on the stream after the work and synchronized orders
    the work before the host's read (no finding; the read sees the work's bytes)."""
    st = new_stream(flag)
    p = filled()
    assert A.aclrtMemsetAsync(p, 16, 5, 16, st) == 0
    ev = Ref()
    assert A.aclrtCreateEvent(ev) == 0
    assert A.aclrtRecordEvent(ev.value, st) == 0
    assert A.aclrtSynchronizeEvent(ev.value) == 0
    assert (read_back(p) == 5).all()
    assert A.aclrtDestroyEvent(ev.value) == 0
    assert A.aclrtDestroyStream(st) == 0 and A.aclrtFree(p) == 0


def test_advice_for_a_persistent_stream_is_a_plain_stream(deferred, dev0, findings):
    """A persistent stream's tasks are a model's (they run when the model runs): the advice is a
    plain stream for the work the host reads."""
    st = new_stream(ACL_STREAM_PERSISTENT)
    p = filled()
    assert A.aclrtMemsetAsync(p, 16, 5, 16, st) == 0
    assert A.aclrtSynchronizeStream(st) == 0
    read_back(p)
    text = findings.refresh().text()
    assert (
        f"queued on {st!r}, an ACL_STREAM_PERSISTENT stream, whose aclrtSynchronizeStream returns at once "
        "without waiting for it, may still have to write it: the host may see stale data (queue work the host "
        "waits for on a plain stream: an ACL_STREAM_PERSISTENT stream holds a model's tasks (aclmdlRIBindStream), "
        "run when the model runs)"
    ) in text
    aclGetRecentErrMsg()
    assert A.aclrtDestroyStreamForce(st) == 0 and A.aclrtFree(p) == 0


def test_overwrite_free_and_destroy_advice_for_a_cpu_schedule_stream(deferred, dev0, findings):
    """The host overwriting what the stream reads, freeing it, destroying the stream: each finding
    gives the event advice."""
    st = new_stream(ACL_STREAM_CPU_SCHEDULE)
    src, dst = filled(), filled()
    assert A.aclrtMemcpyAsync(dst, 16, src, 16, 3, st) == 0  # ACL_MEMCPY_DEVICE_TO_DEVICE
    event = f"record an event on {st!r} after the work and call aclrtSynchronizeEvent on it"
    assert A.aclrtMemcpy(src, 16, np.ones(16, np.uint8), 16, ACL_MEMCPY_HOST_TO_DEVICE) == 0
    assert f"may still use it ({event} first, or queue the work on a plain stream)" in findings.refresh().text()
    aclGetRecentErrMsg()
    assert A.aclrtFree(src) == 0
    assert (
        f"may still use it ({event} before freeing, or queue the work on a plain stream)" in (findings.refresh()[-1][1])
    )
    aclGetRecentErrMsg()
    assert A.aclrtMemsetAsync(dst, 16, 7, 16, st) == 0
    assert A.aclrtDestroyStream(st) == ACL_ERROR_RT_SYS_DMA  # its copy read the freed source when it ran
    assert f"CANN waits for them here — {event} first, or queue the work on a plain stream" in findings.refresh()[-1][1]
    aclGetRecentErrMsg()
    assert A.aclrtFree(dst) == 0


def test_plain_stream_advice_is_its_synchronize(deferred, dev0, findings):
    """A plain stream of the current context: aclrtSynchronizeStream, before the read and before
    the free."""
    st = new_stream()
    p = filled()
    assert A.aclrtMemsetAsync(p, 16, 5, 16, st) == 0
    read_back(p)
    assert (
        f"queued on {st!r}, which has not been synchronized since, may still have to write it: the host may "
        "see stale data (call aclrtSynchronizeStream first)"
    ) in findings.refresh().text()
    aclGetRecentErrMsg()
    assert A.aclrtFree(p) == 0
    assert "may still use it (call aclrtSynchronizeStream before freeing)" in findings.refresh()[-1][1]
    aclGetRecentErrMsg()
    assert A.aclrtDestroyStreamForce(st) == 0
