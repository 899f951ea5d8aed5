"""What a subscription holds, and what becomes of its callbacks when it goes.

Ascend910B/910_93's ApiImpl::SubscribeReport first creates an event (EventCreate(&curEvent,
RT_EVENT_DDSYNC_NS), api_impl.cc:5207-5213) of the current context's device; its flag makes
Event::GenEventId take one of that device's event ids from the driver at once (event.cc:457-481),
until CbSubscribe::Delete deletes the event (subscribe.cc:211-218, 283-290) at aclrtUnSubscribeReport
or the stream's teardown (stream.cc:1544). Ascend950 creates a notify instead (see
test_runtime_callback31.py); the chips without STARS create nothing.

CbSubscribe::Delete also frees the thread's group and its callback SQ/CQ when the stream was the
thread's last (needsFreeSqCq, subscribe.cc:221-241, 294-312): the callbacks the stream reached but
the thread had not yet processed go with the CQ, and the thread's next aclrtProcessReport finds no
group (GetGroupIdByThreadId, api_impl.cc:5393-5396: 107012, a WARN only). A thread with another
stream keeps its CQ, and ProcessReport runs every report in it (api_impl.cc:5416-5476), the
destroyed stream's too. A callback task reports to the CQ fixed at its submission (cbRptCqid,
stream_task.cc:296-302): reached after that CQ was freed, its report is lost."""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Iterator

import pytest

from aclnn_py import aclGetRecentErrMsg
from aclnn_py._ref import Ref
from aclnn_py.runtime import api as A
from aclnn_py.runtime import api_callback as C
from aclnn_py.runtime.device import RT

STREAM_SUBSCRIBE = 107011  # ACL_ERROR_RT_STREAM_SUBSCRIBE
THREAD_SUBSCRIBE = 107012  # ACL_ERROR_RT_THREAD_SUBSCRIBE
REPORT_TIMEOUT = 507012  # ACL_ERROR_RT_REPORT_TIMEOUT
NO_BLOCK, BLOCK = 0, 1  # ACL_CALLBACK_NO_BLOCK, ACL_CALLBACK_BLOCK
ME = threading.get_ident()


def _stream() -> object:
    st = Ref()
    assert A.aclrtCreateStream(st) == 0
    return st.value


def _held(device: int) -> int:
    """The event ids of ``device`` the subscriptions hold."""
    return C.subscription_events(RT.devices[device])


class _Reporter:
    """A thread to bind streams to: ``process(ms)`` has it call aclrtProcessReport(ms) once."""

    def __init__(self) -> None:
        self._calls: queue.Queue[int | None] = queue.Queue()
        self._codes: queue.Queue[int] = queue.Queue()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()
        assert self._thread.ident is not None
        self.tid = self._thread.ident

    def _serve(self) -> None:
        while (ms := self._calls.get()) is not None:
            self._codes.put(int(A.aclrtProcessReport(ms)))

    def process(self, ms: int) -> int:
        self._calls.put(ms)
        return self._codes.get(timeout=60)

    def close(self) -> None:
        self._calls.put(None)
        self._thread.join()


@pytest.fixture
def reporter() -> Iterator[_Reporter]:
    r = _Reporter()
    yield r
    r.close()


# ---------------------------------------------------------------------------------------------
# 1. Ascend910B/910_93: the subscription's event
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("family", ["Ascend910B", "Ascend910_93"])
def test_each_subscription_holds_an_event_id_until_it_is_cancelled(chip, family):
    chip(family)
    s1, s2 = _stream(), _stream()
    assert _held(0) == 0
    assert A.aclrtSubscribeReport(ME, s1) == 0
    assert _held(0) == 1
    assert A.aclrtSubscribeReport(ME, s2) == 0
    assert _held(0) == 2
    assert A.aclrtUnSubscribeReport(ME, s1) == 0  # CbSubscribe::Delete deletes its event
    assert _held(0) == 1
    assert A.aclrtDestroyStream(s2) == 0  # so does the teardown's UnSubscribeReport(Stream*)
    assert _held(0) == 0
    assert A.aclrtDestroyStream(s1) == 0


def test_a_refused_subscription_gives_its_event_back(chip):
    chip("Ascend910B")
    s = _stream()
    assert A.aclrtSubscribeReport(ME, s) == 0
    assert A.aclrtSubscribeReport(ME + 1, s) == STREAM_SUBSCRIBE  # its event is destroyed again
    aclGetRecentErrMsg()
    assert _held(0) == 1
    assert A.aclrtUnSubscribeReport(ME, s) == 0
    assert A.aclrtDestroyStream(s) == 0


def test_the_event_is_of_the_current_device_not_the_streams(chip):
    """ApiImpl::EventCreate makes the event in CurrentContext(), whatever the stream's device."""
    chip("Ascend910B")
    assert A.aclrtSetDevice(1) == 0
    s1 = _stream()
    assert A.aclrtSetDevice(0) == 0
    assert A.aclrtSubscribeReport(ME, s1) == 0
    assert (_held(0), _held(1)) == (1, 0)
    assert A.aclrtUnSubscribeReport(ME, s1) == 0
    assert (_held(0), _held(1)) == (0, 0)
    assert A.aclrtSetDevice(1) == 0 and A.aclrtDestroyStream(s1) == 0
    assert A.aclrtSetDevice(0) == 0


def test_a_device_reset_releases_the_default_streams_subscription_event(chip):
    chip("Ascend910B")
    assert A.aclrtSetDevice(1) == 0
    assert A.aclrtSubscribeReport(ME, None) == 0
    assert _held(1) == 1
    assert A.aclrtResetDevice(1) == 0  # its default stream's teardown
    assert A.aclrtSetDevice(1) == 0
    assert _held(1) == 0
    assert A.aclrtSetDevice(0) == 0


@pytest.mark.parametrize("family", ["Ascend950", "Ascend310P"])
def test_other_chips_subscriptions_hold_no_event(chip, family):
    """Ascend950 (ApiImplDavid) creates a notify instead; a chip without STARS creates nothing."""
    chip(family)
    s = _stream()
    assert A.aclrtSubscribeReport(ME, s) == 0
    assert _held(0) == 0
    assert A.aclrtUnSubscribeReport(ME, s) == 0
    assert A.aclrtDestroyStream(s) == 0


# ---------------------------------------------------------------------------------------------
# 2. the callbacks still to be processed when their subscription goes
# ---------------------------------------------------------------------------------------------

FAMILIES = ["Ascend910B", "Ascend950", "Ascend310P"]


def _reached(ran: list[object], stream: object, *marks: object) -> None:
    """Launch a no-block callback per mark and let the stream reach them all."""
    for mark in marks:
        assert A.aclrtLaunchCallback(ran.append, mark, NO_BLOCK, stream) == 0
    assert A.aclrtSynchronizeStream(stream) == 0


@pytest.mark.parametrize("family", FAMILIES)
def test_destroying_the_threads_last_stream_drops_its_pending_callbacks(chip, reporter, family):
    chip(family)
    s = _stream()
    ran: list[object] = []
    assert A.aclrtSubscribeReport(reporter.tid, s) == 0
    _reached(ran, s, 1, 2)
    assert A.aclrtDestroyStream(s) == 0  # the teardown frees the thread's CQ, the reports with it
    assert reporter.process(50) == THREAD_SUBSCRIBE
    assert ran == []


@pytest.mark.parametrize("family", FAMILIES)
def test_a_device_reset_drops_the_pending_callbacks_of_its_streams(chip, reporter, family):
    chip(family)
    assert A.aclrtSetDevice(1) == 0
    ran: list[object] = []
    assert A.aclrtSubscribeReport(reporter.tid, None) == 0
    _reached(ran, None, 1)
    assert A.aclrtResetDevice(1) == 0
    assert reporter.process(50) == THREAD_SUBSCRIBE
    assert ran == []
    assert A.aclrtSetDevice(0) == 0


@pytest.mark.parametrize("family", FAMILIES)
def test_unsubscribing_the_threads_last_stream_drops_its_pending_callbacks(chip, reporter, family):
    chip(family)
    s = _stream()
    ran: list[object] = []
    assert A.aclrtSubscribeReport(reporter.tid, s) == 0
    _reached(ran, s, 1)
    assert A.aclrtUnSubscribeReport(reporter.tid, s) == 0
    assert reporter.process(50) == THREAD_SUBSCRIBE
    # subscribed again, the thread has a new CQ: the old reports do not come back
    assert A.aclrtSubscribeReport(reporter.tid, s) == 0
    assert reporter.process(50) == REPORT_TIMEOUT
    assert ran == []
    _reached(ran, s, 2)
    assert reporter.process(1000) == 0
    assert ran == [2]
    assert A.aclrtUnSubscribeReport(reporter.tid, s) == 0
    assert A.aclrtDestroyStream(s) == 0


@pytest.mark.parametrize("family", FAMILIES)
def test_a_thread_with_another_stream_still_runs_a_destroyed_streams_callbacks(chip, reporter, family):
    """The thread keeps its CQ (the stream was not its last): ProcessReport runs every report in
    it. (Already so before; kept as the other side of the tests above.)"""
    chip(family)
    s1, s2 = _stream(), _stream()
    ran: list[object] = []
    assert A.aclrtSubscribeReport(reporter.tid, s1) == 0
    assert A.aclrtSubscribeReport(reporter.tid, s2) == 0
    _reached(ran, s1, 1)
    assert A.aclrtDestroyStream(s1) == 0
    assert reporter.process(1000) == 0
    assert ran == [1]
    assert A.aclrtUnSubscribeReport(reporter.tid, s2) == 0
    assert A.aclrtDestroyStream(s2) == 0


def test_a_callback_reached_after_its_cq_was_freed_is_lost(chip, reporter, monkeypatch):
    """The task reports to the CQ of its submission; unsubscribed before the stream reaches it
    (the deferred policy runs the stream at the synchronize), the report has nowhere to go."""
    monkeypatch.setenv("ACLNN_PY_STREAM", "deferred")
    chip("Ascend910B")
    s = _stream()
    ran: list[object] = []
    assert A.aclrtSubscribeReport(reporter.tid, s) == 0
    assert A.aclrtLaunchCallback(ran.append, 1, NO_BLOCK, s) == 0
    assert A.aclrtUnSubscribeReport(reporter.tid, s) == 0
    assert A.aclrtSynchronizeStream(s) == 0
    assert reporter.process(50) == THREAD_SUBSCRIBE
    assert ran == []
    assert A.aclrtDestroyStream(s) == 0


def _avail() -> int:
    n = Ref()
    assert A.aclrtGetEventAvailNum(n) == 0
    return int(n.value)


@pytest.mark.parametrize(("family", "held"), [("Ascend910B", 1), ("Ascend910_93", 1), ("Ascend310P", 0)])
def test_a_subscription_takes_an_event_id_of_the_current_device(chip, family, held):
    """Ascend910B/910_93: ApiImpl::SubscribeReport's EventCreate(RT_EVENT_DDSYNC_NS) takes an
    event id from the driver (Event::GenEventId), which rtGetAvailEventNum counts as used
    (capacity - usedNum) until CbSubscribe::Delete deletes the event."""
    chip(family)
    s = Ref()
    assert A.aclrtCreateStream(s) == 0
    before = _avail()
    assert A.aclrtSubscribeReport(ME, s.value) == 0
    assert _avail() == before - held
    assert A.aclrtUnSubscribeReport(ME, s.value) == 0
    assert _avail() == before
    assert A.aclrtSubscribeReport(ME, s.value) == 0
    assert A.aclrtDestroyStream(s.value) == 0  # the teardown's UnSubscribeReport(Stream*)
    assert _avail() == before


def test_a_blocking_callback_whose_report_was_lost_fails_its_stream_at_once(chip, reporter, monkeypatch):
    """An ACL_CALLBACK_BLOCK callback whose queue was freed before the stream reached it would hold
    the stream forever on hardware: the emulator fails the task at once with the wait's 507046."""
    monkeypatch.setenv("ACLNN_PY_STREAM", "deferred")
    chip("Ascend910B")
    s = _stream()
    assert A.aclrtSubscribeReport(reporter.tid, s) == 0
    assert A.aclrtLaunchCallback(lambda _: None, 1, BLOCK, s) == 0
    assert A.aclrtUnSubscribeReport(reporter.tid, s) == 0
    start = time.monotonic()
    assert A.aclrtSynchronizeStream(s) == 507046
    assert time.monotonic() - start < 5
    assert "the callback's report was lost" in aclGetRecentErrMsg()
    assert A.aclrtDestroyStream(s) == 0
