"""Shared queues of ``acl/acl_tdt_queue.h``: create and destroy, enqueue and dequeue data (the
routes that move data between queues are bound in :mod:`.api_tdt_queue_route`).

A queue is real: a bounded FIFO of its attribute's depth on the calling thread's device, holding
copies of the data (and up to 96 bytes of user data) acltdtEnqueueData was given. A full queue
makes acltdtEnqueueData wait, an empty one acltdtDequeueData, on a condition, up to ``timeout`` ms
(-1: for ever, 0: not at all), then return 207014 / 207013 without a report, as CANN's. A bound
route really forwards: what reaches a source queue moves to every destination queue as soon as
they all have room (the queue scheduler's work on a device), in order; unbinding stops it.

The ACL layer's checks, order, codes and messages are CANN's (hicann/runtime
``src/acl/acl_tdt_queue/queue.cpp``, ``queue_process.cpp`` and the host processor
``queue_process_host.cpp``, which an aclnn_py program gets: aclrtGetRunMode answers ACL_HOST);
the bind, unbind and query rules and the route statuses are the queue scheduler's
(``src/queue_schedule/server/router_server.cpp``, ``bind_relation.cpp``). The driver below
(``halQueue*``) is not in hicann/runtime: its refusals (an unknown queue id, a duplicate name,
user data over 96 bytes, a receive buffer smaller than the data) are modelled and reported with an
``aclnn_py`` message; docs/runtime.md and /work/notes/fidelity/tdt_queue.md list them.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from dataclasses import dataclass

from .._capi import ApiError, describe
from .._ref import Ref, store
from . import sanitizer
from ._checks import PARAM, RT_PARAM, E, acl_null, acl_value, emu, fb_inner, fb_invalid, int_arg, rt_api
from ._checks import rt_value as _rt_value
from .api_tdt_queue_attr import acltdtQueueAttr, live
from .device import RT
from .memory import SPACE, MemoryFault

RT_MQ_DEPTH_MIN = 2
MAX_QUEUE_ID_NUM = 8192  # bqs_msg.h; the driver's MAX_QUEUE_NUM too
USER_DATA_MAX = 96
_DRV_INTERNAL = "driver error:internal error"  # rtErrMap_'s text for an unmapped driver code


@dataclass(frozen=True)
class _Item:
    """One enqueued piece of data and its user data."""

    data: bytes
    user: bytes


class _Queue:
    """A queue of the driver: its id, device, name, depth and items."""

    __slots__ = ("depth", "destroyed", "device", "items", "name", "qid")

    def __init__(self, qid: int, device: int, name: str, depth: int) -> None:
        self.qid = qid
        self.device = device
        self.name = name
        self.depth = depth
        self.items: deque[_Item] = deque()
        self.destroyed = False

    def __repr__(self) -> str:
        return f"<queue {self.qid} {self.name!r} device {self.device} {len(self.items)}/{self.depth}>"


# One condition for every queue: a route moves items between queues atomically, and a waiter
# looks at its own queue when anything changes.
_CV = threading.Condition()
_QUEUES: dict[tuple[int, int], _Queue] = {}  # (device, qid)
_ROUTES: dict[int, dict[tuple[int, int], None]] = {}  # device -> bound (src, dst), in bind order


def reset() -> None:
    """Forget every queue and route (test isolation; not a CANN call): a waiter sees its queue end."""
    with _CV:
        for queue in _QUEUES.values():
            queue.destroyed = True
        _QUEUES.clear()
        _ROUTES.clear()
        _CV.notify_all()


def _device() -> int:
    """rtGetDevice: the current context's device (107002 without a report when there is none)."""
    ctx = RT.thread_context()
    if ctx is not None:
        return int(ctx.device.ident)
    if RT.initialized and RT.default_device is not None:
        return int(RT.default_device)
    raise ApiError(E.ACL_ERROR_RT_CONTEXT_NULL)


def _driver(code: int, rt_fn: str, text: str, reason: str = _DRV_INTERNAL) -> ApiError:
    """A modelled driver refusal: the emulator's report, then the rt wrapper's inner report."""
    return ApiError(code, emu(text), fb_inner(rt_fn, reason))


def _queue(device: int, qid: int, rt_fn: str, api: str) -> _Queue:
    q = _QUEUES.get((device, qid))
    if q is None:
        raise _driver(
            E.ACL_ERROR_RT_DRV_INTERNAL_ERROR,
            rt_fn,
            f"{api}: queue {qid} does not exist on device {device} (the driver's 'queue not created').",
        )
    return q


def _out(obj: object, api: str, name: str) -> object:
    if not isinstance(obj, Ref) and not hasattr(obj, "value"):
        raise ApiError(PARAM, emu(f"{api}: {name} must be an out-parameter (Ref()), got {describe(obj)}."))
    return obj


def _wait(ready: object, q: _Queue, timeout: int) -> bool:
    """Wait (holding ``_CV``) until ``ready()``, the queue's end, or ``timeout`` ms (-1: for
    ever; another negative value does not wait, as 0)."""
    deadline = None if timeout == -1 else time.monotonic() + max(timeout, 0) / 1000
    while not ready():  # type: ignore[operator]
        if q.destroyed:
            return False
        remaining = None if deadline is None else deadline - time.monotonic()
        if remaining is not None and remaining <= 0:
            return False
        _CV.wait(0.5 if remaining is None else remaining)
    return True


def _pump(device: int) -> None:
    """The queue scheduler (holding ``_CV``): move each routed source queue's oldest item to all
    its destinations while every one of them has room."""
    routes = _ROUTES.get(device, {})
    moved = True
    while moved:
        moved = False
        by_src: dict[int, list[_Queue]] = {}
        for src, dst in routes:
            by_src.setdefault(src, []).append(_QUEUES[(device, dst)])
        for src, dsts in by_src.items():
            q = _QUEUES[(device, src)]
            while q.items and all(len(d.items) < d.depth for d in dsts):
                item = q.items.popleft()
                for d in dsts:
                    d.items.append(item)
                moved = True
    _CV.notify_all()


def _gone(q: _Queue, api: str) -> ApiError:
    return _driver(E.ACL_ERROR_RT_DRV_INTERNAL_ERROR, "rtMemQueue", f"{api}: queue {q.qid} was destroyed meanwhile.")


# ---------------------------------------------------------------------------------------------
# queues
# ---------------------------------------------------------------------------------------------


@rt_api
def acltdtCreateQueue(attr: object, qid: object) -> int:
    """A queue of ``attr``'s name and depth (NULL: no name, depth 8) on the current device."""
    api, rt_fn = "acltdtCreateQueue", "rtMemQueueCreate"
    if qid is None:
        raise ApiError(PARAM, acl_null(api, "qid"))
    out = _out(qid, api, "qid")
    device = _device()
    name, depth = "", 8
    if attr is not None:
        live(attr, acltdtQueueAttr, api, "attr")
        assert isinstance(attr, acltdtQueueAttr)
        name, depth = attr.text, attr.depth
    if depth < RT_MQ_DEPTH_MIN:
        raise ApiError(
            RT_PARAM,
            _rt_value("Memory queue creation", depth, "queAttr->depth", str(RT_MQ_DEPTH_MIN)),
            fb_invalid(rt_fn),
        )
    with _CV:
        mine = sorted(q for d, q in _QUEUES if d == device)
        if name and any(_QUEUES[(device, q)].name == name for q in mine):
            raise _driver(
                RT_PARAM,
                rt_fn,
                f"{api}: device {device} already has a queue named {name!r}; the driver refuses a second one.",
                "driver error:invalid value",
            )
        if len(mine) >= MAX_QUEUE_ID_NUM:
            raise _driver(
                E.ACL_ERROR_RT_OVER_LIMIT, rt_fn, f"{api}: device {device} has {len(mine)} queues.", "over limit"
            )
        new = next(i for i in range(MAX_QUEUE_ID_NUM) if (device, i) not in _QUEUES)
        _QUEUES[(device, new)] = _Queue(new, device, name, depth)
    store(out, new)
    return E.ACL_SUCCESS


@rt_api
def acltdtDestroyQueue(qid: int) -> int:
    """Destroy a queue and what it holds (500001 while a route still uses it)."""
    api = "acltdtDestroyQueue"
    device = _device()
    q_id = int_arg(qid, "qid", 0, 2**32 - 1)
    with _CV:
        if any(q_id in pair for pair in _ROUTES.get(device, {})):
            raise ApiError(
                E.ACL_ERROR_FAILURE, emu(f"qid [{q_id}] can not be destroyed, it needs to be unbound first.")
            )
        q = _queue(device, q_id, "rtMemQueueDestroy", api)
        del _QUEUES[(device, q_id)]
        q.destroyed = True
        q.items.clear()
        _CV.notify_all()
    return E.ACL_SUCCESS


def _payload(data: object, size: int, api: str, name: str) -> bytes:
    """``size`` bytes of host or device memory: a buffer object, or a simulated address."""
    if isinstance(data, int) and not isinstance(data, bool):
        try:
            sanitizer.before_read(data, size, f"{api} {name}")
            return bytes(SPACE.read(data, size, f"{api} {name}"))
        except MemoryFault as fault:
            raise ApiError(PARAM, emu(f"{api}: {fault.message}")) from None
    try:
        raw = memoryview(data).cast("B")  # type: ignore[arg-type]
    except TypeError:
        raise ApiError(PARAM, emu(f"{api}: {name} is {describe(data)}, not a buffer or an address.")) from None
    if raw.nbytes < size:
        raise ApiError(PARAM, emu(f"{api}: {name} holds {raw.nbytes} bytes, the size says {size}."))
    return bytes(raw[:size])


def _deliver(dest: object, raw: bytes, api: str, name: str) -> None:
    """Write ``raw`` at the start of ``dest`` (a writable buffer, or a simulated address)."""
    if not raw:
        return
    if isinstance(dest, int) and not isinstance(dest, bool):
        try:
            SPACE.write(dest, raw, f"{api} {name}")
        except MemoryFault as fault:
            raise ApiError(PARAM, emu(f"{api}: {fault.message}")) from None
        sanitizer.after_write(dest, len(raw), f"{api} {name}")
        return
    try:
        view = memoryview(dest).cast("B")  # type: ignore[arg-type]
    except TypeError:
        raise ApiError(PARAM, emu(f"{api}: {name} is {describe(dest)}, not a buffer or an address.")) from None
    if view.readonly or view.nbytes < len(raw):
        raise ApiError(PARAM, emu(f"{api}: {name} is read-only or holds fewer than {len(raw)} bytes."))
    view[: len(raw)] = raw


def _user_size(user: object, size: int, api: str, rt_fn: str) -> None:
    if size > USER_DATA_MAX or (user is None and size > 0):
        raise _driver(
            RT_PARAM,
            rt_fn,
            f"{api}: userData of {size} bytes{' (NULL)' if user is None else ''}; a queue item carries at most "
            f"{USER_DATA_MAX} bytes of user data.",
            "driver error:invalid value",
        )


@rt_api
def acltdtEnqueueData(
    qid: int, data: object, dataSize: int, userData: object, userDataSize: int, timeout: int, rsv: int
) -> int:
    """Queue a copy of ``dataSize`` bytes of ``data`` (host or device memory) and of
    ``userDataSize`` (≤ 96) bytes of ``userData``; a full queue waits ``timeout`` ms, then 207014."""
    api, rt_fn = "acltdtEnqueueData", "rtMemQueueEnQueueBuff"
    if data is None:
        raise ApiError(PARAM, acl_null(api, "data"))
    size = int_arg(dataSize, "dataSize", 0, 2**64 - 1)
    if size == 0:
        raise ApiError(PARAM, acl_value(api, 0, "dataSize", "must be greater than 0"))
    device = _device()
    q_id = int_arg(qid, "qid", 0, 2**32 - 1)
    user_n = int_arg(userDataSize, "userDataSize", 0, 2**64 - 1)
    wait = int_arg(timeout, "timeout", -(2**31), 2**31 - 1)
    int_arg(rsv, "rsv", 0, 2**32 - 1)  # reserved: CANN passes it on unread
    with _CV:
        _queue(device, q_id, rt_fn, api)
    _user_size(userData, user_n, api, rt_fn)
    item = _Item(_payload(data, size, api, "data"), _payload(userData, user_n, api, "userData") if user_n else b"")
    with _CV:
        q = _queue(device, q_id, rt_fn, api)
        if not _wait(lambda: len(q.items) < q.depth, q, wait):
            if q.destroyed:
                raise _gone(q, api)
            return E.ACL_ERROR_RT_QUEUE_FULL  # "queue full": an INFO log, no report
        q.items.append(item)
        _pump(device)
    return E.ACL_SUCCESS


@rt_api
def acltdtDequeueData(
    qid: int, data: object, dataSize: int, retDataSize: object, userData: object, userDataSize: int, timeout: int
) -> int:
    """Take the oldest item into ``data`` (``dataSize`` bytes of host or device memory) and its
    user data into ``userData``; ``retDataSize`` gets the item's size. An empty queue waits
    ``timeout`` ms, then 207013; a buffer smaller than the item keeps it queued (107000)."""
    api = "acltdtDequeueData"
    if data is None:
        raise ApiError(PARAM, acl_null(api, "data"))
    if retDataSize is None:
        raise ApiError(PARAM, acl_null(api, "retDataSize"))
    size = int_arg(dataSize, "dataSize", 0, 2**64 - 1)
    if size == 0:
        raise ApiError(PARAM, acl_value(api, 0, "dataSize", "must be greater than 0"))
    ret = _out(retDataSize, api, "retDataSize")
    device = _device()
    q_id = int_arg(qid, "qid", 0, 2**32 - 1)
    user_n = int_arg(userDataSize, "userDataSize", 0, 2**64 - 1)
    wait = int_arg(timeout, "timeout", -(2**31), 2**31 - 1)
    with _CV:
        q = _queue(device, q_id, "rtMemQueuePeek", api)
        if not _wait(lambda: bool(q.items), q, wait):
            if q.destroyed:
                raise _gone(q, api)
            return E.ACL_ERROR_RT_QUEUE_EMPTY  # "queue empty": an INFO log, no report
        head = q.items[0]
        store(ret, len(head.data))  # rtMemQueuePeek writes the size before the dequeue
        rt_fn = "rtMemQueueDeQueueBuff"
        _user_size(userData, user_n, api, rt_fn)
        if size < len(head.data):
            raise _driver(
                RT_PARAM,
                rt_fn,
                f"{api}: the item holds {len(head.data)} bytes, data has room for {size}; it stays queued "
                "(retDataSize tells its size).",
                "driver error:invalid value",
            )
        _deliver(data, head.data, api, "data")
        _deliver(userData, head.user[:user_n], api, "userData")
        q.items.popleft()
        _pump(device)
    return E.ACL_SUCCESS


def queue_items(qid: int, device: int = 0) -> list[tuple[bytes, bytes]]:
    """The data and user data a queue holds, oldest first (a Python helper, not a CANN call)."""
    with _CV:
        q = _QUEUES.get((device, qid))
        return [] if q is None else [(it.data, it.user) for it in q.items]


__all__ = ["acltdtCreateQueue", "acltdtDequeueData", "acltdtDestroyQueue", "acltdtEnqueueData"]
