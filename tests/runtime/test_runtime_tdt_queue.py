"""Shared queues (acl/acl_tdt_queue.h): queue attributes, routes, route lists and query information
with CANN's CopyParam rules; queues that hold, wait and time out; routes that forward and stop; the
host side's refusals (hicann/runtime src/acl/acl_tdt_queue/, src/queue_schedule/server/)."""

from __future__ import annotations

import ctypes
import threading
import time
from collections.abc import Iterator

import numpy as np
import pytest
from rt_texts import null

from aclnn_py import (
    Ref,
    aclGetRecentErrMsg,
    aclInit,
    aclrtFree,
    aclrtMalloc,
    aclrtMemcpy,
    aclrtResetDevice,
    aclrtSetDevice,
)
from aclnn_py.runtime import api_tdt_queue as Q
from aclnn_py.runtime import api_tdt_queue_attr as A
from aclnn_py.runtime import api_tdt_queue_buf as B
from aclnn_py.runtime import api_tdt_queue_route as R

NAME, DEPTH = 0, 1
SRC, DST, STATUS = 0, 1, 2
MODE, QSRC, QDST = 0, 1, 2
FULL, EMPTY = 207014, 207013


def copy_reason(value: int) -> str:
    return (
        f"Invalid_Argument(EH0009): Parameter copy failed. Value {value} for parameter srcLen is invalid. Reason: "
        "srcLen must not be larger than dstLen."
    )


@pytest.fixture
def queues(dev0) -> Iterator[list[int]]:
    """Queues a test makes (destroyed after it, routes unbound first)."""
    made: list[int] = []
    yield made
    for routes in Q._ROUTES.values():
        routes.clear()
    for qid in made:
        Q.acltdtDestroyQueue(qid)
    aclGetRecentErrMsg()


def make(made: list[int], depth: int = 4, name: str = "") -> int:
    attr = A.acltdtCreateQueueAttr()
    assert A.acltdtSetQueueAttr(attr, DEPTH, 4, depth) == 0
    if name:
        assert A.acltdtSetQueueAttr(attr, NAME, 8, name) == 0
    qid = Ref()
    assert Q.acltdtCreateQueue(attr, qid) == 0, aclGetRecentErrMsg()
    assert A.acltdtDestroyQueueAttr(attr) == 0
    made.append(qid.value)
    return int(qid.value)


def routes(*pairs: tuple[int, int]) -> A.acltdtQueueRouteList:
    rl = A.acltdtCreateQueueRouteList()
    for src, dst in pairs:
        route = A.acltdtCreateQueueRoute(src, dst)
        assert A.acltdtAddQueueRoute(rl, route) == 0 and A.acltdtDestroyQueueRoute(route) == 0
    return rl


def test_queue_attributes_defaults_and_copies() -> None:
    attr = A.acltdtCreateQueueAttr()
    got, size = Ref(), Ref()
    assert A.acltdtGetQueueAttr(attr, DEPTH, 4, size, got) == 0 and (got.value, size.value) == (8, 4)
    assert A.acltdtGetQueueAttr(attr, NAME, 8, size, got) == 0 and (got.value, size.value) == ("", 8)
    assert A.acltdtSetQueueAttr(attr, NAME, 8, "simple_queue") == 0
    assert A.acltdtSetQueueAttr(attr, DEPTH, 4, np.uint32(16).tobytes()) == 0
    assert A.acltdtGetQueueAttr(attr, NAME, 8, size, got) == 0 and got.value == "simple_queue"
    assert A.acltdtGetQueueAttr(attr, DEPTH, 4, size, got) == 0 and got.value == 16
    # memcpy_s of fewer bytes replaces the low bytes only (little-endian)
    assert A.acltdtSetQueueAttr(attr, DEPTH, 1, 0x0203) == 0 and attr.depth == 0x03
    assert A.acltdtSetQueueAttr(attr, DEPTH, 0, 99) == 0 and attr.depth == 0x03
    # a copy longer than the field, a field longer than the caller's room
    assert A.acltdtSetQueueAttr(attr, DEPTH, 8, 4) == 100000
    assert aclGetRecentErrMsg().startswith(copy_reason(8))
    assert A.acltdtGetQueueAttr(attr, NAME, 4, size, got) == 100000
    assert aclGetRecentErrMsg().startswith(copy_reason(8))
    assert A.acltdtSetQueueAttr(attr, NAME, 16, "x") == 100000
    assert aclGetRecentErrMsg().startswith(copy_reason(16))
    assert A.acltdtSetQueueAttr(attr, NAME, 8, "q" * 128) == 100000
    assert aclGetRecentErrMsg().startswith(
        "Invalid_Argument(EH0007): acltdtSetQueueAttr failed because value 129 for parameter queue name length is "
        "invalid. Expected value: [0, 128]."
    )
    assert A.acltdtSetQueueAttr(attr, NAME, 8, "q" * 127) == 0 and attr.text == "q" * 127
    assert A.acltdtSetQueueAttr(attr, NAME, 8, 0) == 100000  # *param is NULL: a log line, no report
    assert A.acltdtSetQueueAttr(attr, 7, 4, 1) == 100000
    assert aclGetRecentErrMsg().startswith(
        "Invalid_Argument(EH0007): acltdtSetQueueAttr failed because value UNKNOWN(7) for parameter type is invalid. "
        "Expected value: [ACL_TDT_QUEUE_NAME_PTR, ACL_TDT_QUEUE_DEPTH_UINT32]."
    )
    assert A.acltdtSetQueueAttr(None, DEPTH, 4, 1) == 100000
    assert aclGetRecentErrMsg().startswith(null("acltdtSetQueueAttr", "attr"))
    assert A.acltdtGetQueueAttr(attr, DEPTH, 4, None, got) == 100000
    assert aclGetRecentErrMsg().startswith(null("acltdtGetQueueAttr", "paramRetSize"))
    assert A.acltdtDestroyQueueAttr(attr) == 0
    assert A.acltdtDestroyQueueAttr(attr) == 100000 and "not a live acltdtQueueAttr" in aclGetRecentErrMsg()
    assert A.acltdtDestroyQueueAttr(None) == 100000
    assert aclGetRecentErrMsg().startswith(null("acltdtDestroyQueueAttr", "attr"))


def test_routes_and_route_lists_copy_by_value() -> None:
    route = A.acltdtCreateQueueRoute(3, 5)
    rl = A.acltdtCreateQueueRouteList()
    assert A.acltdtAddQueueRoute(rl, route) == 0 and A.acltdtGetQueueRouteNum(rl) == 1
    route.src = 9  # the list holds a copy
    view = A.acltdtCreateQueueRoute(0, 0)
    assert A.acltdtGetQueueRoute(rl, 0, view) == 0
    got, size = Ref(), Ref()
    values = [(A.acltdtGetQueueRouteParam(view, k, 4, size, got), got.value) for k in (SRC, DST, STATUS)]
    assert values == [(0, 3), (0, 5), (0, 0)] and size.value == 4
    assert A.acltdtGetQueueRouteParam(view, STATUS, 2, size, got) == 100000
    assert aclGetRecentErrMsg().startswith(copy_reason(4))
    assert A.acltdtGetQueueRouteParam(view, 3, 4, size, got) == 100000
    assert "value UNKNOWN(3) for parameter type is invalid. Expected value: [ACL_TDT_QUEUE_ROUTE_SRC_UINT32, " in (
        aclGetRecentErrMsg()
    )
    assert A.acltdtGetQueueRoute(rl, 1, view) == 100000
    assert aclGetRecentErrMsg().startswith(
        "Invalid_Argument(EH0009): acltdtGetQueueRoute failed. Value 1 for parameter index is invalid. Reason: "
        "must be less than routeList size 1."
    )
    assert A.acltdtGetQueueRouteNum(None) == 0
    assert aclGetRecentErrMsg().startswith(null("acltdtGetQueueRouteNum", "routeList"))
    held = ctypes.c_uint32()
    assert A.acltdtGetQueueRouteParam(view, DST, 4, size, held) == 0 and held.value == 5
    for obj, destroy in ((route, A.acltdtDestroyQueueRoute), (view, A.acltdtDestroyQueueRoute)):
        assert destroy(obj) == 0
    assert A.acltdtDestroyQueueRouteList(rl) == 0


def test_query_info_must_name_what_it_queries(queues) -> None:
    info = R.acltdtCreateQueueRouteQueryInfo()
    out = A.acltdtCreateQueueRouteList()
    assert R.acltdtQueryQueueRoutes(info, out) == 100000
    assert aclGetRecentErrMsg().startswith(
        "Invalid_Argument(EH0009): Checking the validity of the queue route query operation failed. Value false for "
        "parameter queryInfo->isConfigMode is invalid."
    )
    assert R.acltdtSetQueueRouteQueryInfo(info, MODE, 4, 2) == 0
    assert R.acltdtSetQueueRouteQueryInfo(info, QSRC, 4, 1) == 0
    assert R.acltdtQueryQueueRoutes(info, out) == 100000
    assert "Value 1/0 for parameter queryInfo->isConfigSrc/isConfigDst is invalid." in aclGetRecentErrMsg()
    assert R.acltdtSetQueueRouteQueryInfo(info, MODE, 4, 7) == 0
    assert R.acltdtQueryQueueRoutes(info, out) == 100000
    assert aclGetRecentErrMsg().startswith(
        "Invalid_Argument(EH0007): Checking the validity of the queue route query operation failed because value "
        "UNKNOWN(7) for parameter queryInfo->mode is invalid."
    )
    assert R.acltdtSetQueueRouteQueryInfo(info, QDST, 8, 1) == 100000
    assert aclGetRecentErrMsg().startswith(copy_reason(8))
    assert R.acltdtSetQueueRouteQueryInfo(info, 5, 4, 1) == 100000
    assert "value UNKNOWN(5) for parameter type is invalid" in aclGetRecentErrMsg()
    assert R.acltdtSetQueueRouteQueryInfo(info, MODE, 4, 100) == 0  # the abnormal routes: none here
    assert R.acltdtQueryQueueRoutes(info, out) == 0 and A.acltdtGetQueueRouteNum(out) == 0
    assert R.acltdtQueryQueueRoutes(None, out) == 100000
    assert aclGetRecentErrMsg().startswith(null("acltdtQueryQueueRoutes", "queryInfo"))
    assert R.acltdtDestroyQueueRouteQueryInfo(info) == 0 and A.acltdtDestroyQueueRouteList(out) == 0


def test_create_queue_checks(queues) -> None:
    qid = Ref()
    assert Q.acltdtCreateQueue(None, None) == 100000
    assert aclGetRecentErrMsg().startswith(null("acltdtCreateQueue", "qid"))
    attr = A.acltdtCreateQueueAttr()
    assert A.acltdtSetQueueAttr(attr, DEPTH, 4, 1) == 0
    assert Q.acltdtCreateQueue(attr, qid) == 107000
    msg = aclGetRecentErrMsg()
    assert msg.startswith(
        "Invalid_Argument(EE1003): Memory queue creation failed because value 1 for parameter queAttr->depth is "
        "invalid. Expected value: 2."
    )
    assert "rtMemQueueCreate execution failed." in msg
    first = make(queues, name="twin")
    assert A.acltdtSetQueueAttr(attr, DEPTH, 4, 2) == 0 and A.acltdtSetQueueAttr(attr, NAME, 8, "twin") == 0
    assert Q.acltdtCreateQueue(attr, qid) == 107000 and "already has a queue named 'twin'" in aclGetRecentErrMsg()
    assert Q.acltdtCreateQueue(None, qid) == 0 and qid.value != first  # default attributes: depth 8
    queues.append(qid.value)
    assert Q._QUEUES[(0, qid.value)].depth == 8
    assert Q.acltdtDestroyQueue(12345) == 507899
    assert "queue 12345 does not exist on device 0" in aclGetRecentErrMsg()
    assert A.acltdtDestroyQueueAttr(attr) == 0


def test_create_queue_needs_a_device(dev0) -> None:
    qid, codes = Ref(), []
    # a new thread has no current context: rtGetDevice fails without a report
    worker = threading.Thread(target=lambda: codes.append(Q.acltdtCreateQueue(None, qid)))
    worker.start()
    worker.join()
    assert codes == [107002] and qid.value is None


def test_a_queue_is_a_bounded_fifo_with_user_data(queues) -> None:
    qid = make(queues, depth=2)
    assert Q.acltdtEnqueueData(qid, b"first", 5, b"u1", 2, 0, 0) == 0
    assert Q.acltdtEnqueueData(qid, np.arange(3, dtype=np.int32), 12, None, 0, 0, 0) == 0
    start = time.monotonic()
    assert Q.acltdtEnqueueData(qid, b"third", 5, None, 0, 30, 0) == FULL  # waited, then full: no report
    assert time.monotonic() - start >= 0.025
    data, size, user = bytearray(8), Ref(), bytearray(4)
    assert Q.acltdtDequeueData(qid, data, 8, size, user, 4, 0) == 0
    assert (bytes(data[:5]), size.value, bytes(user)) == (b"first", 5, b"u1\0\0")
    small = bytearray(4)
    assert Q.acltdtDequeueData(qid, small, 4, size, None, 0, 0) == 107000 and size.value == 12
    assert "it stays queued" in aclGetRecentErrMsg()
    ints = np.zeros(3, dtype=np.int32)
    assert Q.acltdtDequeueData(qid, ints, 12, size, None, 0, 0) == 0 and ints.tolist() == [0, 1, 2]
    assert Q.acltdtDequeueData(qid, ints, 12, size, None, 0, 0) == EMPTY
    assert Q.acltdtEnqueueData(qid, b"x" * 4, 4, b"u" * 97, 97, 0, 0) == 107000
    assert "at most 96 bytes of user data" in aclGetRecentErrMsg()


def test_enqueue_and_dequeue_checks(queues) -> None:
    qid = make(queues)
    assert Q.acltdtEnqueueData(qid, None, 4, None, 0, 0, 0) == 100000
    assert aclGetRecentErrMsg().startswith(null("acltdtEnqueueData", "data"))
    assert Q.acltdtEnqueueData(qid, b"abcd", 0, None, 0, 0, 0) == 100000
    assert aclGetRecentErrMsg().startswith(
        "Invalid_Argument(EH0007): acltdtEnqueueData failed because value 0 for parameter dataSize is invalid. "
        "Expected value: must be greater than 0."
    )
    assert Q.acltdtDequeueData(qid, bytearray(4), 4, None, None, 0, 0) == 100000
    assert aclGetRecentErrMsg().startswith(null("acltdtDequeueData", "retDataSize"))
    assert Q.acltdtEnqueueData(qid + 100, b"abcd", 4, None, 0, 0, 0) == 507899
    assert f"queue {qid + 100} does not exist on device 0" in aclGetRecentErrMsg()
    assert Q.acltdtEnqueueData(qid, b"ab", 4, None, 0, 0, 0) == 100000
    assert "data holds 2 bytes, the size says 4" in aclGetRecentErrMsg()


def test_device_memory_goes_in_and_out(queues) -> None:
    qid = make(queues)
    src, dst = Ref(), Ref()
    assert aclrtMalloc(src, 16, 0) == 0 and aclrtMalloc(dst, 16, 0) == 0
    values = np.array([1.5, 2.5, 3.5, 4.5], dtype=np.float32)
    assert aclrtMemcpy(src.value, 16, values, 16, 1) == 0
    assert Q.acltdtEnqueueData(qid, src.value, 16, None, 0, 0, 0) == 0
    size = Ref()
    assert Q.acltdtDequeueData(qid, dst.value, 16, size, None, 0, 0) == 0 and size.value == 16
    back = np.zeros(4, dtype=np.float32)
    assert aclrtMemcpy(back, 16, dst.value, 16, 2) == 0 and back.tolist() == values.tolist()
    assert aclrtFree(src.value) == 0 and aclrtFree(dst.value) == 0


def test_a_blocked_dequeue_wakes_on_the_enqueue_of_another_thread(queues) -> None:
    qid = make(queues)

    def producer() -> None:
        assert aclrtSetDevice(0) == 0
        time.sleep(0.05)
        assert Q.acltdtEnqueueData(qid, b"late", 4, None, 0, -1, 0) == 0
        aclrtResetDevice(0)

    worker = threading.Thread(target=producer)
    worker.start()
    data, size = bytearray(4), Ref()
    start = time.monotonic()
    # a long timeout rather than -1: a failing producer must not hang the suite (the C program waits with -1)
    assert Q.acltdtDequeueData(qid, data, 4, size, None, 0, 10000) == 0 and bytes(data) == b"late"
    assert 0.04 <= time.monotonic() - start < 5
    worker.join()


def test_a_bound_route_forwards_and_unbinding_stops_it(queues) -> None:
    src, dst, other = make(queues), make(queues, depth=2), make(queues)
    assert Q.acltdtEnqueueData(src, b"early", 5, None, 0, 0, 0) == 0
    rl = routes((src, dst))
    assert R.acltdtBindQueueRoutes(rl) == 0 and rl.routes[0].status == 1
    assert Q.queue_items(src) == [] and Q.queue_items(dst) == [(b"early", b"")]  # held data moves at bind
    assert Q.acltdtEnqueueData(src, b"a", 1, b"ua", 2, 0, 0) == 0
    assert Q.queue_items(dst) == [(b"early", b""), (b"a", b"ua")]
    assert Q.acltdtEnqueueData(src, b"b", 1, None, 0, 0, 0) == 0  # dst is full: b waits in src
    assert Q.queue_items(src) == [(b"b", b"")]
    data, size = bytearray(8), Ref()
    assert Q.acltdtDequeueData(dst, data, 8, size, None, 0, 0) == 0 and bytes(data[:5]) == b"early"
    assert Q.queue_items(dst) == [(b"a", b"ua"), (b"b", b"")] and Q.queue_items(src) == []
    # a second destination: one-to-many
    both = routes((src, other))
    assert R.acltdtBindQueueRoutes(both) == 0
    info = R.acltdtCreateQueueRouteQueryInfo()
    assert (
        R.acltdtSetQueueRouteQueryInfo(info, MODE, 4, 0) == 0
        and R.acltdtSetQueueRouteQueryInfo(info, QSRC, 4, src) == 0
    )
    found = A.acltdtCreateQueueRouteList()
    assert R.acltdtQueryQueueRoutes(info, found) == 0
    assert [(r.src, r.dst, r.status) for r in found.routes] == [(src, dst, 1), (src, other, 1)]
    assert Q.acltdtDestroyQueue(src) == 500001
    assert aclGetRecentErrMsg().startswith(f"aclnn_py: qid [{src}] can not be destroyed, it needs to be unbound first.")
    assert R.acltdtUnbindQueueRoutes(rl) == 0 and rl.routes[0].status == 0
    assert Q.acltdtDequeueData(dst, data, 8, size, None, 0, 0) == 0  # drain one: room again
    assert Q.acltdtEnqueueData(src, b"c", 1, None, 0, 0, 0) == 0
    assert Q.queue_items(other)[-1] == (b"c", b"") and Q.queue_items(dst) == [(b"b", b"")]  # unbound: no more
    assert R.acltdtQueryQueueRoutes(info, found) == 0 and len(found.routes) == 1  # the list is emptied first
    assert R.acltdtUnbindQueueRoutes(both) == 0 and R.acltdtUnbindQueueRoutes(both) == 0  # twice: still fine


def test_bind_refuses_what_the_queue_scheduler_refuses(queues) -> None:
    a, b, c = make(queues), make(queues), make(queues)
    assert R.acltdtBindQueueRoutes(routes((a, b))) == 0
    chain = routes((b, c), (a, a), (a, c), (a, 9000), (c, 4321))
    assert R.acltdtBindQueueRoutes(chain) == 500001
    # only a->c bound, but no status is copied back after a failure (SendBindUnbindMsg)
    assert [r.status for r in chain.routes] == [0, 0, 0, 0, 0]
    msg = aclGetRecentErrMsg()
    assert msg.startswith("EH9999: Internal error!") and "send connect qs failed, ret code is 7" in msg
    assert R.acltdtBindQueueRoutes(routes((a, b))) == 0  # already bound: bound again, no change
    assert sorted(Q._ROUTES[0]) == [(a, b), (a, c)]
    bad = routes((9000, a))
    bad.routes[0].status = 5
    assert R.acltdtUnbindQueueRoutes(bad) == 500001 and bad.routes[0].status == 5  # left as it was
    assert "ret code is 8" in aclGetRecentErrMsg()
    assert R.acltdtBindQueueRoutes(None) == 100000
    assert aclGetRecentErrMsg().startswith(null("acltdtBindQueueRoutes", "qRouteList"))


def test_the_host_side_refuses_mbuf_queues_grant_and_attach(queues) -> None:
    qid = make(queues)
    for call, args in (
        (B.acltdtEnqueue, (qid, None, 0)),
        (B.acltdtDequeue, (qid, Ref(), 0)),
        (B.acltdtGrantQueue, (qid, 1234, 6, 0)),
        (B.acltdtAttachQueue, (qid, 0, Ref())),
        (B.acltdtAllocBuf, (64, 0, Ref())),
        (B.acltdtFreeBuf, (None,)),
        (B.acltdtCopyBufRef, (None, Ref())),
    ):
        assert call(*args) == 200006
        msg = aclGetRecentErrMsg()
        name = call.__name__
        assert msg.startswith(f"Not_Supported(EH0011): The current system or device does not support {name}.")
        assert f"{name}: " in msg
    assert B.acltdtAllocBuf(64, 2, Ref()) == 100000
    assert aclGetRecentErrMsg().startswith(
        "Invalid_Argument(EH0007): acltdtAllocBuf failed because value UNKNOWN(2) for parameter type is invalid. "
        "Expected value: [0, 1]."
    )
    assert B.acltdtAllocBuf(64, 1, None) == 100000
    assert aclGetRecentErrMsg().startswith(null("acltdtAllocBuf", "buf"))


def test_a_reset_forgets_queues_routes_and_wakes_waiters(dev0) -> None:
    """testing.reset() (test isolation) drops every queue and route: the next queue is qid 0 again
    and empty, and a dequeue waiting on a dropped queue returns instead of waiting out its timeout."""
    from aclnn_py import testing

    first = make([])
    assert Q.acltdtEnqueueData(first, b"abcd", 4, None, 0, 0, 0) == 0
    second = make([])
    out: list[int] = []

    def wait() -> None:
        assert aclrtSetDevice(0) == 0  # the thread's own current device
        out.append(int(Q.acltdtDequeueData(second, bytearray(4), 4, Ref(), None, 0, 10_000)))

    waiter = threading.Thread(target=wait, daemon=True)
    waiter.start()
    waiter.join(0.2)
    assert waiter.is_alive()
    testing.reset()
    waiter.join(5)
    assert not waiter.is_alive() and out and out[0] != 0
    assert Q._QUEUES == {} and all(not r for r in Q._ROUTES.values())
    assert aclInit(None) == 0 and aclrtSetDevice(0) == 0  # the reset forgot aclInit too
    again = make([])
    try:
        assert again == 0 and Q.queue_items(0) == []
    finally:
        Q.acltdtDestroyQueue(again)
        aclGetRecentErrMsg()


def test_a_failed_bind_or_unbind_leaves_the_callers_statuses_unchanged(queues) -> None:
    # QueueProcessorHost::SendBindUnbindMsg returns ACL_ERROR_FAILURE on the scheduler's retCode
    # before it copies the route statuses back (queue_process_host.cpp:204-210)
    a, b = make(queues), make(queues)
    rl = routes((a, b), (a, a))
    for route in rl.routes:
        route.status = 7
    assert R.acltdtBindQueueRoutes(rl) == 500001
    assert [r.status for r in rl.routes] == [7, 7]
    assert "send connect qs failed, ret code is 1" in aclGetRecentErrMsg()
    assert sorted(Q._ROUTES[0]) == [(a, b)]  # the scheduler bound the good route all the same
    good = routes((a, b))
    assert R.acltdtBindQueueRoutes(good) == 0 and good.routes[0].status == 1  # copied back on success
    mixed = routes((a, b), (a, 9000))
    mixed.routes[0].status = 3
    assert R.acltdtUnbindQueueRoutes(mixed) == 500001 and [r.status for r in mixed.routes] == [3, 0]
    assert "ret code is 8" in aclGetRecentErrMsg()
    assert R.acltdtUnbindQueueRoutes(good) == 0 and good.routes[0].status == 0
