"""Streams as in-order task queues, events as markers in them, and the execution policies.

A task is a Python callable that does the device work (a kernel, an async copy, an event
record). Work submitted to a stream runs in submission order; when it runs is the policy's
business:

* ``deferred`` (default): tasks wait in the queue until something needs their results:
  ``aclrtSynchronizeStream``/``Device``/``Event``, a stream waiting on an event, destroying the
  stream, resetting the device. Code that forgets to synchronise sees stale memory, as on
  hardware.
* ``eager``: each task runs as soon as it is submitted (handy under a debugger).
* ``thread``: a worker thread per stream runs the queue asynchronously.

All three give the same results for correct programs. A failing task (a memory fault in a
kernel, say) records its status on the stream, the rest of the queue is dropped, and the next
synchronise returns the status, as a device exception does on hardware.
"""

from __future__ import annotations

import abc
import itertools
import threading
import time
import weakref
from collections import deque
from collections.abc import Callable
from typing import Any

from .. import _errmsg, _settings
from .. import trace as _trace
from .memory import call_chain

TaskFn = Callable[[], None]


# Called with each task once it ran, or once a failure dropped it from its queue (the sanitizer
# forgets the byte ranges it had to touch).
FINISH_HOOKS: list[Callable[[Task], None]] = []
# Called with a stream once it is destroyed (aclrtDestroyStream, or its context's release): what
# holds it lets go, as the runtime's teardown does (a callback subscription: Stream::~Stream's
# UnSubscribeReport).
RELEASE_HOOKS: list[Callable[[Stream], None]] = []


def stream_released(stream: Stream) -> None:
    """Run the release hooks of a stream just marked destroyed."""
    for hook in RELEASE_HOOKS:
        hook(stream)


# Called with (stream, task, fault) when a task that ran fails (the exception-info callbacks, the
# exception dump and the abort mode use this); not for a task a stopped context drops unrun.
FAULT_HOOKS: list[Callable[[Stream, Task, TaskFault], None]] = []


class TaskFault(Exception):
    """Raised by a task body: the status the next synchronise returns and the message.
    ``dropped``: the task did not run (its context had stopped on an earlier failure)."""

    def __init__(self, code: int, message: str, *, dropped: bool = False) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.dropped = dropped


_FAILURE_LOCK = threading.Lock()
_THREAD = threading.local()  # per submitting thread: the sequence number of its last task


class Task:
    """One unit of device work queued on a stream."""

    __slots__ = ("done", "fn", "label", "note", "ready", "seq", "stream")

    _seq = itertools.count()

    def __init__(self, stream: Stream, label: str, fn: TaskFn, ready: Callable[[], bool] | None = None) -> None:
        self.stream = stream
        self.label = label
        self.fn = fn
        self.done = False  # set once the task ran (or was dropped after a failure)
        self.note = ""  # what the task reports about itself (a kernel: the path that ran)
        # A task that waits for a condition (aclrtValueWait, a notify wait): until it holds, the
        # stream is blocked there. The eager policy leaves such a task queued instead of blocking
        # the submitting thread; the task's body itself waits (see Policy.progress).
        self.ready = ready
        self.seq = next(Task._seq)
        _THREAD.last_task = self.seq  # aclrtGetThreadLastTaskId: the thread's last submission
        _THREAD.last_stream = stream  # aclrtCacheLastTask*: the stream of that submission
        if _trace.ACTIVE:
            _trace.log_submit(stream.ident, self.seq, label)


class Stream:
    """An ``aclrtStream``: an in-order queue of tasks bound to a context."""

    __slots__ = (
        "__weakref__", "capture", "context", "cv", "destroyed", "draining", "error", "failure_mode", "flags",
        "host_funcs", "ident", "is_default", "lock", "origin", "priority", "queue", "reports", "site", "worker",
    )  # fmt: skip

    _ids = itertools.count(1)

    def __init__(self, context: Any, is_default: bool, flags: int, site: str) -> None:
        self.context = context
        self.is_default = is_default
        self.flags = flags
        self.site = site
        self.origin = call_chain()  # the user's line through helpers, for leak reports
        self.ident = next(Stream._ids)
        self.queue: deque[Task] = deque()
        self.lock = threading.RLock()
        self.cv = threading.Condition(self.lock)
        self.error: tuple[int, str] | None = None
        self.destroyed = False
        self.draining = False
        self.worker: threading.Thread | None = None
        # messages a worker thread's tasks reported (thread policy), handed to the synchronizer
        self.reports: list[Any] = []
        # aclrtLaunchHostFunc subscribed the stream to the runtime's callback thread (SUBSCRIBE_RUNTIME)
        self.host_funcs = False
        self.priority = 0  # as stored by aclrtCreateStreamWithConfig: clamped to [0, 7]
        self.failure_mode = 0  # ACL_CONTINUE_ON_FAILURE / ACL_STOP_ON_FAILURE
        # While the stream captures into a model (aclmdlRICaptureBegin) or is bound to one
        # (aclmdlRIBindStream), the recorder its submitted tasks go to instead of the queue.
        self.capture: Recorder | None = None
        LIVE_STREAMS.add(self)

    def __repr__(self) -> str:
        kind = "default stream" if self.is_default else "stream"
        state = ", destroyed" if self.destroyed else ""
        return f"<aclrtStream #{self.ident} ({kind} of device {self.context.device.ident}{state})>"

    def unfinished(self) -> list[Task]:
        """The queued tasks that have not finished, oldest first (a worker thread keeps the task
        it runs at the head of the queue until it takes it off, a moment after it is done)."""
        return [t for t in list(self.queue) if not t.done]

    @property
    def pending(self) -> int:
        return len(self.unfinished())


class Recorder(abc.ABC):
    """What a capturing stream hands its submitted tasks to (model_ri.Capture implements it)."""

    @abc.abstractmethod
    def take(self, task: Task) -> bool:
        """Record ``task`` into the model instead of queueing it; False lets it queue as usual."""


def _captured(stream: Stream, task: Task) -> bool:
    """Whether a capturing stream's recorder took the task (then no policy queues or runs it)."""
    recorder = stream.capture
    return recorder is not None and recorder.take(task)


# Every stream not yet collected: where a waiting task looks for work that may unblock it.
LIVE_STREAMS: weakref.WeakSet[Stream] = weakref.WeakSet()


class Event:
    """An ``aclrtEvent``: a marker recorded into a stream; it completes when the stream reaches it."""

    __slots__ = (
        "__weakref__",
        "captured",
        "context",
        "destroyed",
        "ever_recorded",
        "flags",
        "ident",
        "new_mode",
        "origin",
        "site",
        "stream",
        "task",
        "timestamp_ns",
    )

    _ids = itertools.count(1)

    def __init__(self, context: Any, flags: int, site: str) -> None:
        self.context = context
        self.flags = flags
        self.site = site
        self.origin = call_chain()
        self.ident = next(Event._ids)
        self.destroyed = False
        self.stream: Stream | None = None
        self.task: Task | None = None
        self.timestamp_ns: int | None = None
        self.new_mode = False  # made by aclrtCreateEventExWithFlag
        # the runtime's hasRecord_: set by the first record (not one into a capture), kept by resets
        self.ever_recorded = False
        self.captured: Any = None  # the capture its latest record went into (model_ri.Capture), if any

    def __repr__(self) -> str:
        return f"<aclrtEvent #{self.ident}>"

    @property
    def recorded(self) -> bool:
        return self.task is not None

    @property
    def complete(self) -> bool:
        return self.task is not None and self.task.done


def _ran() -> None:
    """The body of a task that has run (or was dropped)."""


def _finish(task: Task) -> None:
    """A task ran or was dropped: the hooks first, so that whoever sees it done sees it forgotten."""
    task.fn = _ran  # a task's body usually refers to the task: free the pair without the GC
    for hook in FINISH_HOOKS:
        hook(task)
    task.done = True


def finish_unrun(task: Task) -> None:
    """Drop a task without running it (a forced stream destruction)."""
    _finish(task)


def running_task() -> bool:
    """Whether the calling thread is running a stream's task (a host function, a callback)."""
    return bool(getattr(_THREAD, "in_task", False))


def _run_task(stream: Stream, task: Task) -> None:
    """Run one task; a TaskFault poisons the stream and drops the queue behind it. In a context
    that stops on failure (aclrtSetStreamFailureMode), the first failure is kept on the context
    and no later task of any of its streams runs."""
    status, message = 0, ""
    ctx = stream.context
    if stream.error is not None:
        # The stream faulted and no synchronize has reported it yet: as after a device
        # exception, nothing queued behind the fault runs. Under the deferred policy the fault
        # itself drops the queue; under eager and thread the later tasks arrive one by one
        # (the second kernel of the same phase 2, say) and are dropped here, so every policy
        # runs the same tasks.
        _finish(task)
        return
    try:
        stopped = getattr(ctx, "failure", None)
        if stopped is not None:
            raise TaskFault(*stopped, dropped=True)
        outer = getattr(_THREAD, "in_task", False)
        _THREAD.in_task = True
        try:
            task.fn()
        finally:
            _THREAD.in_task = outer
    except TaskFault as fault:
        status, message = fault.code, fault.message
        error = (fault.code, fault.message)
        with stream.lock:
            # a task the stopped context did not run leaves no failure of its own: the context's
            # failure answers for the stream (Context::CheckStatus), whatever the policy
            if stream.error is None and not fault.dropped:
                stream.error = error
            dropped = list(stream.queue)
            stream.queue.clear()
        if not fault.dropped:
            if getattr(ctx, "stop_on_failure", False):
                with _FAILURE_LOCK:  # two streams' tasks may fail at once (the thread policy): the first stops it
                    if getattr(ctx, "failure", None) is None:
                        ctx.failure = error  # the stream's own error, the very tuple: its synchronize tells them apart
            for hook in FAULT_HOOKS:  # the device reports a task that failed, not one it never ran
                hook(stream, task, fault)
        for t in dropped:
            _finish(t)
    finally:
        if FINISH_HOOKS:
            _finish(task)
        else:  # _finish inlined: no hook to call
            task.fn = _ran
            task.done = True
        if _trace.ACTIVE:
            _trace.log_task(stream.ident, task.label, status, message, task.note, seq=task.seq)


class Policy(abc.ABC):
    """How and when queued tasks run. Subclasses implement ``submit`` and ``drain``."""

    name = "base"

    @abc.abstractmethod
    def submit(self, stream: Stream, task: Task) -> None:
        """Queue ``task`` on ``stream`` (and maybe run it)."""

    @abc.abstractmethod
    def drain(self, stream: Stream, until: Task | None = None) -> None:
        """Return once every task up to ``until`` (all tasks if None) has finished."""

    def shutdown(self, stream: Stream) -> None:  # noqa: B027 - a hook most policies do not need
        """Called when a stream is destroyed (after a drain)."""

    def progress(self, exclude: Stream) -> bool:
        """Called by a task that waits for a condition: run work of other streams that may meet
        it. Returns whether anything ran (the thread policy's workers need no help: False)."""
        return False


class CycleError(Exception):
    """Streams waiting on each other: on hardware this would hang forever."""


class DeferredPolicy(Policy):
    """Tasks run on the host thread that needs their results."""

    name = "deferred"

    def submit(self, stream: Stream, task: Task) -> None:
        if stream.capture is not None and _captured(stream, task):  # no call when nothing captures
            return
        with stream.lock:
            stream.queue.append(task)

    def drain(self, stream: Stream, until: Task | None = None) -> None:
        with stream.lock:
            if stream.draining:
                if until is not None and until.done:
                    return
                raise CycleError(f"stream #{stream.ident} waits on itself through an event")
            stream.draining = True
            try:
                while stream.queue:
                    if until is not None and until.done:
                        break
                    task = stream.queue.popleft()
                    _run_task(stream, task)
            finally:
                stream.draining = False

    def progress(self, exclude: Stream) -> bool:
        """Run the runnable heads of the other streams' queues (a stream another thread is
        draining, or one whose head waits itself, is left alone)."""
        ran = False
        for other in list(LIVE_STREAMS):
            if other is exclude or other.destroyed or not other.queue:
                continue
            ran = self.run_ready(other) or ran
        return ran

    def run_ready(self, stream: Stream) -> bool:
        """Run the stream's tasks up to the first that waits for an unmet condition; never block
        on the stream's lock. Returns whether anything ran."""
        if not stream.lock.acquire(blocking=False):
            return False
        ran = False
        try:
            if stream.draining:
                return False
            stream.draining = True
            try:
                while stream.queue:
                    head = stream.queue[0]
                    if head.ready is not None and not head.ready():
                        break
                    stream.queue.popleft()
                    _run_task(stream, head)
                    ran = True
            finally:
                stream.draining = False
        finally:
            stream.lock.release()
        return ran


class EagerPolicy(DeferredPolicy):
    """Each task runs as soon as it is submitted; a task that waits for a condition not yet met
    stays queued (its stream blocked there) until a later submission meets it."""

    name = "eager"

    def submit(self, stream: Stream, task: Task) -> None:
        if _captured(stream, task):
            return
        super().submit(stream, task)
        if not self.run_ready(stream) and stream.queue and stream.queue[0].ready is None:
            self.drain(stream)  # another thread holds the stream: wait for it, as before
        # This task may have met the condition another stream waits for.
        for other in list(LIVE_STREAMS):
            if other is not stream and other.queue and other.queue[0].ready is not None:
                self.run_ready(other)


class ThreadPolicy(Policy):
    """One worker thread per stream, started on first use; truly asynchronous."""

    name = "thread"

    def submit(self, stream: Stream, task: Task) -> None:
        if _captured(stream, task):
            return
        with stream.cv:
            stream.queue.append(task)
            if stream.worker is None:
                stream.worker = threading.Thread(
                    target=self._work, args=(stream,), name=f"aclnn_py-stream-{stream.ident}", daemon=True
                )
                stream.worker.start()
            stream.cv.notify_all()

    def _work(self, stream: Stream) -> None:
        while True:
            with stream.cv:
                while not stream.queue and not stream.destroyed:
                    stream.cv.wait()
                if not stream.queue and stream.destroyed:
                    return
                task = stream.queue[0]
            _run_task(stream, task)
            reported = _errmsg.take()  # a finding's message belongs to whoever synchronizes
            with stream.cv:
                stream.reports.extend(reported)
                if stream.queue and stream.queue[0] is task:
                    stream.queue.popleft()
                stream.cv.notify_all()

    def drain(self, stream: Stream, until: Task | None = None) -> None:
        with stream.cv:
            if until is not None:
                while not until.done:
                    stream.cv.wait()
            else:
                while stream.queue:
                    stream.cv.wait()
            # what the tasks reported on the worker is reported to the synchronizing thread, as
            # the deferred and eager policies (which run tasks on the caller's thread) do
            reported, stream.reports = stream.reports, []
        _errmsg.give(reported)

    def shutdown(self, stream: Stream) -> None:
        with stream.cv:
            stream.cv.notify_all()


POLICIES: dict[str, type[Policy]] = {p.name: p for p in (DeferredPolicy, EagerPolicy, ThreadPolicy)}
ENV_VAR = "ACLNN_PY_STREAM"


def policy_from_environment() -> Policy:
    """The policy named by ``ACLNN_PY_STREAM`` (default ``deferred``)."""
    return POLICIES[_settings.choice(ENV_VAR, tuple(POLICIES), "deferred", "stream policy")]()


# How long a waiting task (aclrtValueWait, aclrtWaitAndResetNotify) waits for its condition when
# nothing can meet it any more. On hardware the stream would hang; the emulator fails the task.
WAIT_LIMIT_S = 60.0


def wait_until(
    cond: Callable[[], bool], policy: Policy, stream: Stream, what: str, code: int, limit_s: float | None = None
) -> None:
    """The body of a waiting task on ``stream``: return once ``cond()`` holds, making progress on
    other streams meanwhile (the deferred and eager policies run them on this thread). After
    ``limit_s`` seconds (``WAIT_LIMIT_S`` by default) without the condition the task fails
    with ``code``."""
    limit = WAIT_LIMIT_S if limit_s is None else limit_s
    start = time.monotonic()
    while not cond():
        if policy.progress(stream):
            continue
        if time.monotonic() - start > limit:
            raise TaskFault(code, f"{what}: the condition was not met within {limit:g} s; on hardware the stream hangs")
        time.sleep(0.0005)


def now_ns() -> int:
    """The clock events read (host monotonic clock, nanoseconds)."""
    return time.perf_counter_ns()
