"""Model runtime instances (``aclmdlRI``): work captured from streams and replayed.

A stream that captures (``aclmdlRICaptureBegin``), or that is bound to a model being built
(``aclmdlRIBindStream``), hands every task submitted to it to a :class:`Capture` (the stream's
``capture`` recorder, see stream.py) instead of queueing it. The task's body is kept as a
:class:`ModelTask` of the model, never run at capture time. ``aclmdlRIExecuteAsync`` submits
the head stream's recorded tasks, in order, to the stream it is given: the same kernels on the
same addresses, so a program that changes its input buffers and replays sees new results.
Control tasks (``aclrtActiveStream``, ``aclrtSwitchStream``, the conditional tasks of
``aclmdlRIAddCondTask``) run the tasks of another model stream, or of a sub-model, inline in
the task that reached them, deciding on the device values they read when they run.

What the sanitizer knew about a captured task (the byte ranges it reads and writes) moves
with it: each replay is tracked again, so a host read before the replay is synchronized is a
finding, as for any queued work.
"""

from __future__ import annotations

import contextlib
import itertools
import threading
from collections.abc import Callable
from typing import Any

from .. import soc as _soc
from . import sanitizer
from .device import RT
from .enums import ACL_STREAM_PERSISTENT
from .memory import SPACE, MemoryFault, call_site
from .stream import Event, Policy, Recorder, Stream, Task, TaskFault, finish_unrun, wait_until

# aclmdlRICaptureMode (acl_rt.h); MODE_NONE is the runtime's RT_STREAM_CAPTURE_MODE_MAX: no capture
MODE_GLOBAL, MODE_THREAD_LOCAL, MODE_RELAXED, MODE_NONE = 0, 1, 2, 3
MODE_NAMES = {
    MODE_GLOBAL: "ACL_MODEL_RI_CAPTURE_MODE_GLOBAL",
    MODE_THREAD_LOCAL: "ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL",
    MODE_RELAXED: "ACL_MODEL_RI_CAPTURE_MODE_RELAXED",
}
# the runtime's own names for the modes in its reports (StreamCaptureModeToString)
RT_MODE_NAMES = {
    MODE_GLOBAL: "GLOBAL(0)",
    MODE_THREAD_LOCAL: "THREAD_LOCAL(1)",
    MODE_RELAXED: "RELAXED(2)",
    MODE_NONE: "MAX(3)",
}


def mode_desc(mode: int) -> str:
    """StreamCaptureModeToString of any value (``UNKNOWN(n)`` outside the enum)."""
    return RT_MODE_NAMES.get(mode, f"UNKNOWN({mode})")


# aclmdlRITaskType
(
    TASK_DEFAULT,
    TASK_KERNEL,
    TASK_EVENT_RECORD,
    TASK_EVENT_WAIT,
    TASK_EVENT_RESET,
    TASK_VALUE_WRITE,
    TASK_VALUE_WAIT,
) = range(7)
TASK_TYPE_NAMES = ("DEFAULT", "KERNEL", "EVENT_RECORD", "EVENT_WAIT", "EVENT_RESET", "VALUE_WRITE", "VALUE_WAIT")

# aclmdlRICondTaskType
COND_IF, COND_WHILE, COND_SWITCH = 0, 1, 2
COND_NAMES = ("IF", "WHILE", "SWITCH")

# how long a model stream activated by a WHILE may loop before the emulator calls it a hang
WHILE_LIMIT = 1_000_000


def classify(label: str) -> int:
    """The aclmdlRITaskType of a submitted task, from the label its producer gave it (the
    executor's kernels are ``<api>: kernel #<i> <op>``; the event and value tasks are named
    after what they do)."""
    if ": kernel #" in label:
        return TASK_KERNEL
    if label == "record event":
        return TASK_EVENT_RECORD
    if label == "wait event":
        return TASK_EVENT_WAIT
    if label == "reset event":
        return TASK_EVENT_RESET
    if label.startswith("aclrtValueWrite("):
        return TASK_VALUE_WRITE
    if label.startswith("aclrtValueWait("):
        return TASK_VALUE_WAIT
    return TASK_DEFAULT


class ModelTask:
    """One task of a model stream (an ``aclmdlRITask``)."""

    __slots__ = (
        "__weakref__", "control", "disabled", "event", "fn", "label", "model", "order", "ready", "seq", "stream",
        "type", "use",
    )  # fmt: skip

    _orders = itertools.count()

    def __init__(
        self,
        model: Model,
        stream: Stream,
        kind: int,
        label: str,
        fn: Callable[[], None] | None,
        ready: Callable[[], bool] | None = None,
        control: Callable[[Runner], None] | None = None,
    ) -> None:
        self.model = model
        self.stream = stream  # the model stream it belongs to
        self.type = kind
        self.label = label
        self.fn = fn
        self.ready = ready
        self.control = control  # a control task's body, run with the replay's runner
        self.use: sanitizer.PendingUse | None = None
        self.event: Event | None = None  # the event an EVENT_RECORD task records
        self.disabled = False
        self.seq = len(model.tasks_of(stream))  # aclmdlRITaskGetSeqId: its place on its stream
        self.order = next(ModelTask._orders)  # when it was captured, across the model's streams

    def __repr__(self) -> str:
        return f"<aclmdlRITask {self.seq} of {self.model!r}: {self.label}>"

    def replace(self, other: ModelTask) -> None:
        """Take ``other``'s work (aclmdlRICaptureTaskUpdateEnd): same place, new body."""
        self.label, self.fn, self.ready, self.control = other.label, other.fn, other.ready, other.control
        self.use, self.event = other.use, other.event


class TaskGroup:
    """An ``aclrtTaskGrp``: the tasks captured between TaskGrpBegin and TaskGrpEnd."""

    _ids = itertools.count(1)

    def __init__(self, model: Model, stream: Stream) -> None:
        self.ident = next(TaskGroup._ids)
        self.model = model
        self.stream = stream
        self.tasks: list[ModelTask] = []
        self.closed = False

    def __repr__(self) -> str:
        return f"<aclrtTaskGrp #{self.ident} of {self.model!r}>"


class CondHandle:
    """An ``aclmdlRICondHandle``: a 64-bit device word a conditional task reads."""

    _ids = itertools.count(1)

    def __init__(self, model: Model, default: int, assign_default: bool) -> None:
        self.ident = next(CondHandle._ids)
        self.model = model
        self.default = default
        self.assign_default = assign_default
        dev = model.context.device.ident
        self.alloc = SPACE.allocate(32, 8, "device", dev, "aclmdlRICondHandleCreate", call_site())
        sanitizer.on_alloc(self.alloc, initialised=True)
        self.ptr = self.alloc.start
        SPACE.write(self.ptr, default.to_bytes(8, "little"), "aclmdlRICondHandleCreate")

    def __repr__(self) -> str:
        return f"<aclmdlRICondHandle #{self.ident} at 0x{self.ptr:x}>"

    def value(self) -> int:
        """The word as a conditional task reads it when it runs (freed memory fails the task)."""
        return read_word(self.ptr, 8, "conditional task") & 0xFFFF_FFFF_FFFF_FFFF

    def release(self) -> None:
        if self.alloc is not None:
            # (already gone if its device was reset before aclmdlRIDestroy)
            with contextlib.suppress(MemoryFault):
                SPACE.free(self.ptr, "aclmdlRIDestroy", call_site())
            self.alloc = None  # type: ignore[assignment]


class Model:
    """An ``aclmdlRI``: model streams, each with its ordered tasks."""

    _ids = itertools.count(0)

    def __init__(self, context: Any, kind: str, flag: int = 0) -> None:
        self.context = context
        self.kind = kind  # "capture" (aclmdlRICaptureBegin, ACL Graph) or "build" (aclmdlRIBuildBegin)
        self.flag = flag
        self.ident = next(Model._ids)
        self.name = ""
        self.state = "capturing" if kind == "capture" else "building"
        self.streams: list[Stream] = []  # the model streams, in the order they joined
        self.head: Stream | None = None
        self._tasks: dict[int, list[ModelTask]] = {}
        self.callbacks: list[tuple[Any, Any]] = []  # (func, userData) of DestroyRegisterCallback
        self.cond_handles: list[CondHandle] = []
        self.subs: list[Model] = []  # sub-models of conditional tasks
        self.parent: Model | None = None
        self.destroyed = False
        self.aborted = 0  # bumped by aclmdlRIAbort: executions submitted before it do nothing
        # CaptureModel::TerminateCapture: an error during the capture (a cross-model event) makes
        # aclmdlRICaptureEnd fail and destroy the model
        self.invalid = False
        self.runs = 0
        self.site = call_site()
        LIVE_MODELS.add(self)

    def __repr__(self) -> str:
        return f"<aclmdlRI #{self.ident}>"

    @property
    def is_sub(self) -> bool:
        return self.parent is not None

    def tasks_of(self, stream: Stream) -> list[ModelTask]:
        return self._tasks.setdefault(id(stream), [])

    def add_stream(self, stream: Stream, head: bool) -> None:
        if stream not in self.streams:
            self.streams.append(stream)
            self.tasks_of(stream)
        if head or self.head is None:
            self.head = stream
        MODEL_OF_STREAM[id(stream)] = (self, stream)

    def remove_stream(self, stream: Stream) -> None:
        if stream in self.streams:
            self.streams.remove(stream)
        self._tasks.pop(id(stream), None)
        if self.head is stream:
            self.head = self.streams[0] if self.streams else None
        MODEL_OF_STREAM.pop(id(stream), None)

    def all_tasks(self) -> list[ModelTask]:
        out: list[ModelTask] = []
        for st in self.streams:
            out += self.tasks_of(st)
        return out

    def events_recorded(self) -> list[Event]:
        """Every event a task of this model (or of its sub-models) records."""
        found = [t.event for t in self.all_tasks() if t.type == TASK_EVENT_RECORD and t.event is not None]
        for sub in self.subs:
            found += sub.events_recorded()
        return found


LIVE_MODELS: set[Model] = set()
# id(model stream) -> (model, stream): where aclmdlRIGetTasksByStream and the control tasks look
MODEL_OF_STREAM: dict[int, tuple[Model, Stream]] = {}


def model_stream(stream: Stream) -> Model | None:
    """The model a stream belongs to as a model stream (bound, or made for a capture)."""
    found = MODEL_OF_STREAM.get(id(stream))
    return found[0] if found is not None and found[1] is stream else None


# ---------------------------------------------------------------------------------------------
# capture
# ---------------------------------------------------------------------------------------------


class _ThreadModes(threading.local):
    def __init__(self) -> None:
        self.exchange = MODE_GLOBAL  # aclmdlRICaptureThreadExchangeMode's value for this thread


THREAD = _ThreadModes()


def reset() -> None:
    """Forget every model (for testing.reset: model numbers restart, as stream numbers do)."""
    LIVE_MODELS.clear()
    MODEL_OF_STREAM.clear()
    Model._ids = itertools.count(0)
    THREAD.exchange = MODE_GLOBAL


class Capture(Recorder):
    """The recorder of a stream that captures into ``model`` (or is bound to it)."""

    def __init__(
        self, model: Model, stream: Stream, target: Stream, mode: int, bound: bool = False, origin: bool = True
    ) -> None:
        self.model = model
        self.stream = stream  # the user's stream
        self.target = target  # the model stream its tasks go to
        self.mode = mode
        self.bound = bound
        # False for a stream that joined the capture by waiting on an event recorded in it (the
        # runtime's IsOrigCaptureStream): it has no capture mode and cannot end the capture
        self.origin = origin
        self.thread = threading.get_ident()
        self.group: TaskGroup | None = None
        self.update: TaskGroup | None = None  # aclmdlRICaptureTaskUpdateBegin's group
        self.updates: list[ModelTask] = []

    def add(self, mt: ModelTask) -> None:
        """Put a recorded task in its place: the model stream, or the update being captured."""
        if self.update is not None:
            self.updates.append(mt)
            return
        self.model.tasks_of(self.target).append(mt)
        if self.group is not None:
            self.group.tasks.append(mt)

    def take(self, task: Task) -> bool:
        kind = classify(task.label)
        mt = ModelTask(self.model, self.target, kind, task.label, task.fn, task.ready)
        if kind == TASK_EVENT_RECORD:
            mt.event = next((ev for ev in list(RT.events) if ev.task is task), None)
        mt.use = _take_use(task)
        self.add(mt)
        finish_unrun(task)  # never runs as itself; whoever waits for it sees it done
        return True


def _take_use(task: Task) -> sanitizer.PendingUse | None:
    """What the sanitizer tracked for a task being captured (it moves to each replay)."""
    with sanitizer._lock:
        return sanitizer._pending.pop(task.seq, None)


def captures_in(context: Any) -> list[Capture]:
    """The captures (not bindings) running in a context."""
    out = []
    for st in context.all_streams():
        cap = getattr(st, "capture", None)
        if isinstance(cap, Capture) and not cap.bound and cap.update is None:
            out.append(cap)
    return out


def _strictest(modes: list[int]) -> int:
    for m in (MODE_GLOBAL, MODE_THREAD_LOCAL, MODE_RELAXED):
        if m in modes:
            return m
    return MODE_NONE


def capture_mode_refusal(context: Any) -> str | None:
    """``Context::IsCaptureModeSupport``: why an unsafe call (a synchronous copy, say) may not
    run now, or None. The context's mode is the strictest of its captures, the thread's that
    of the captures this thread began; aclmdlRICaptureThreadExchangeMode's RELAXED allows all."""
    caps = captures_in(context)
    ctx_mode = _strictest([c.mode for c in caps])
    if ctx_mode == MODE_NONE:
        return None
    me = threading.get_ident()
    thread_mode = _strictest([c.mode for c in caps if c.thread == me])
    exchange = THREAD.exchange
    refused = False
    if exchange == MODE_GLOBAL:
        refused = ctx_mode == MODE_GLOBAL or thread_mode in (MODE_GLOBAL, MODE_THREAD_LOCAL)
    elif exchange == MODE_THREAD_LOCAL:
        refused = thread_mode in (MODE_GLOBAL, MODE_THREAD_LOCAL)
    if not refused:
        return None
    tid = threading.get_native_id()
    if thread_mode == MODE_RELAXED:
        return (
            "Other threads of the current context are in the capture state. As a result, the current operation "
            f"cannot be performed on thread {tid}. To perform this operation in the current thread, call "
            "aclmdlRICaptureThreadExchangeMode to change the capture mode of the current thread. The mode set using "
            f"the aclmdlRICaptureBegin API is {RT_MODE_NAMES[ctx_mode]}, and the capture mode of the current thread "
            f"is {RT_MODE_NAMES[thread_mode]}"
        )
    return (
        f"The current thread {tid} is in the capture state and the current operation cannot be performed. Check "
        "whether the mode set by the aclmdlRICaptureBegin API supports the current operation. This operation is "
        "supported only in the RELAXED mode. The mode set using the aclmdlRICaptureBegin API is "
        f"{RT_MODE_NAMES[ctx_mode]}, and the capture mode of the current thread is {RT_MODE_NAMES[thread_mode]}"
    )


def capturing(stream: Stream) -> bool:
    """Whether the stream captures (aclmdlRICaptureBegin or a task update), not merely bound."""
    cap = stream.capture
    return isinstance(cap, Capture) and not cap.bound


def capture_stream(context: Any) -> Stream:
    """A new model stream for a capture to fill (``Context::StreamAddToCaptureModelProc`` and
    ``AllocCascadeCaptureStream``, context_aclgraph.cc:98-99, 178-179): created with
    ``GetCaptureStreamFlag()``, RT_STREAM_PERSISTENT on Ascend950 (capture_adapt_v200.cc:35),
    RT_STREAM_DEFAULT on the others (capture_adapt_v100.cc:36). It is kept as the ACL flag that
    maps to it, so aclrtStreamGetFlags and every flag check see it."""
    flags = ACL_STREAM_PERSISTENT if _soc.current().is_regbase else 0
    return Stream(context, False, flags, call_site())


def join_capture(stream: Stream, model: Model) -> Capture:
    """``StreamAddToCaptureModelProc`` for a stream that waits on an event recorded in an
    ongoing capture: it gets a model stream of its own and captures into ``model`` too (no
    capture mode of its own; the capture's end releases it)."""
    target = capture_stream(model.context)
    model.add_stream(target, head=False)
    cap = Capture(model, stream, target, MODE_NONE, origin=False)
    stream.capture = cap
    return cap


def end_capture(model: Model) -> None:
    """``CaptureModel::ExitCaptureNotify``: every stream capturing into ``model`` (the origin
    and the streams that joined it) leaves the capture."""
    for st in model.context.all_streams():
        cap = st.capture
        if isinstance(cap, Capture) and cap.model is model and not cap.bound and cap.update is None:
            st.capture = None


def _waiting_streams(model: Model, record: ModelTask) -> set[int]:
    """The model streams whose waits bind to ``record`` (in the software-event mode each record
    in a capture makes a new capture event, and a wait binds to the latest one)."""
    found: set[int] = set()
    for mt in sorted(model.all_tasks(), key=lambda t: t.order):
        if mt.order <= record.order or mt.event is not record.event:
            continue
        if mt.type == TASK_EVENT_RECORD:
            break
        if mt.type == TASK_EVENT_WAIT:
            found.add(id(mt.stream))
    return found


def unjoined(model: Model, origin: Stream, external_flag: int) -> str | None:
    """``Context::CheckCaptureModelValidity``: why a capture with several streams cannot end (a
    stream that joined it must end with an event record a capture stream waits on, and the
    origin must wait on one of them), or None."""
    joined_back = False
    subs = [st for st in model.streams if st is not origin]
    for st in subs:
        tasks = model.tasks_of(st)
        last = tasks[-1]
        ev = last.event
        if last.type != TASK_EVENT_RECORD or ev is None or ev.flags == external_flag:
            return (
                f"In the cross-stream capture scenario, the last task (task_id={last.seq}) on the sub stream "
                f"(stream_id={st.ident}) is not an event record task. Call aclrtRecordEvent on the sub stream to "
                "deliver an event record task"
            )
        waiters = _waiting_streams(model, last)
        if not waiters:
            return (
                f"In the cross-stream capture scenario, the last task (task_id={last.seq}, event_id={ev.ident}) on "
                f"the sub stream (stream_id={st.ident}) lacks the corresponding event wait task"
            )
        if id(origin) in waiters - {id(st)}:
            joined_back = True
    if subs and not joined_back:
        return (
            f"In the cross-stream capture scenario, the origin stream (stream_id={origin.ident}) has no event wait "
            "task, indicating that the sub stream is not joined back to the origin stream"
        )
    return None


def record_event_op(stream: Stream, kind: int, event: Event) -> bool:
    """The hook api_event calls before queueing an event record, wait or reset: on a capturing
    stream the operation becomes a model task bound to the event (a wait then waits, at replay,
    for the event's latest record; a record makes each replay the event's completion). Returns
    whether it was captured."""
    cap = stream.capture
    if not isinstance(cap, Capture):
        return False
    model = cap.model
    if kind == TASK_EVENT_RECORD:
        mt = ModelTask(model, cap.target, kind, "record event", _record_body(event))
        mt.event = event
    elif kind == TASK_EVENT_WAIT:

        def recorded() -> bool:
            return event.task is not None and event.task.done

        mt = ModelTask(model, cap.target, kind, "wait event", None, ready=recorded)
        mt.event = event
    else:
        mt = ModelTask(model, cap.target, kind, "reset event", _reset_body(event))
        mt.event = event
    cap.add(mt)
    return True


def _record_body(event: Event) -> Callable[[], None]:
    from .stream import now_ns

    def run() -> None:
        event.timestamp_ns = now_ns()

    return run


def _reset_body(event: Event) -> Callable[[], None]:
    def run() -> None:
        event.task = None
        event.stream = None
        event.timestamp_ns = None

    return run


# ---------------------------------------------------------------------------------------------
# replay
# ---------------------------------------------------------------------------------------------


class Schedule:
    """The order one execution runs a model's tasks in. A built model runs its head stream (the
    others when a control task activates them); a captured model runs all its streams (each a
    head stream: StreamAddToCaptureModelProc binds them so), one after another as their event
    waits allow: a wait on a record of the model first runs the recording stream up to that
    record. ``ordered`` holds the waits this order satisfies. (A wait binds to a record captured
    before it, and each stream's tasks are in capture order, so the order always exists.)"""

    def __init__(self, model: Model) -> None:
        self.tasks: list[ModelTask] = []
        self.ordered: set[int] = set()
        if model.head is None:
            return
        if model.kind != "capture" or len(model.streams) < 2:
            self.tasks = list(model.tasks_of(model.head))
            return
        self._model = model
        self._records = sorted(
            (t for t in model.all_tasks() if t.type == TASK_EVENT_RECORD and t.event is not None),
            key=lambda t: t.order,
        )
        self._next = {id(st): 0 for st in model.streams}
        self._running: set[int] = set()
        self._done: set[int] = set()
        for st in [model.head] + [st for st in model.streams if st is not model.head]:
            self._advance(st, len(model.tasks_of(st)) - 1)

    def _record_for(self, wait: ModelTask) -> ModelTask | None:
        """The record of this model a captured wait binds to: the event's latest before it."""
        found = None
        for rec in self._records:
            if rec.order > wait.order:
                break
            if rec.event is wait.event:
                found = rec
        return found

    def _advance(self, stream: Stream, last: int) -> None:
        tasks = self._model.tasks_of(stream)
        self._running.add(id(stream))
        while self._next[id(stream)] <= last:
            mt = tasks[self._next[id(stream)]]
            rec = self._record_for(mt) if mt.type == TASK_EVENT_WAIT and mt.event is not None else None
            if rec is not None:
                if id(rec) not in self._done:
                    assert id(rec.stream) not in self._running  # captured earlier: never a cycle
                    self._advance(rec.stream, rec.seq)
                self.ordered.add(id(mt))
            self._next[id(stream)] += 1
            self.tasks.append(mt)
            self._done.add(id(mt))
        self._running.discard(id(stream))


class Runner:
    """One execution of a model on a stream: runs model tasks inline for the control tasks."""

    def __init__(self, model: Model, stream: Stream, policy: Policy, epoch: int, parent: Runner | None = None) -> None:
        self.model = model
        self.stream = stream
        self.policy = policy
        self.epoch = epoch
        self.parent = parent  # the execution a sub-model's runs inside (its abort stops this one)
        # model streams whose remaining tasks no longer run in this execution: a label switch
        # (aclrtSwitchLabelByIndex) jumped away from them
        self.halted: set[int] = set()
        self.current: Task | None = None  # the queued task of this execution now running
        self.schedule = Schedule(model)

    def _satisfied(self, mt: ModelTask) -> bool:
        """A wait the execution's order already satisfies (its record ran before it)."""
        return id(mt) in self.schedule.ordered

    def aborted(self) -> bool:
        if self.parent is not None:
            return self.parent.aborted()
        return self.model.aborted != self.epoch or self.model.destroyed

    def run_task(self, mt: ModelTask) -> None:
        if mt.disabled or self.aborted() or id(mt.stream) in self.halted:
            return
        if mt.ready is not None and not self._satisfied(mt) and not mt.ready():
            wait_until(mt.ready, self.policy, self.stream, f"{self.model!r}: {mt.label}", 107020)
        if mt.type == TASK_EVENT_WAIT and mt.event is not None:
            self._note_wait(mt.event)
        if mt.control is not None:
            mt.control(self)
        elif mt.fn is not None:
            mt.fn()

    def _note_wait(self, ev: Event) -> None:
        """The order a wait carries, for the sanitizer (as aclrtStreamWaitEvent notes it):
        synchronizing this stream past the wait orders the recording stream up to the record."""
        recorder, record = ev.stream, ev.task
        if recorder is None or record is None or recorder is self.stream or self.current is None:
            return
        sanitizer.note_wait(self.stream, self.current.seq, recorder, record.seq)

    def run_stream(self, model: Model, stream: Stream, start: int = 0) -> None:
        """Run a model stream's tasks in order from ``start`` (an activated stream, a sub-model's
        stream, the tasks after a label)."""
        self.halted.discard(id(stream))  # (re)entered: it runs again from here
        for mt in list(model.tasks_of(stream))[start:]:
            if id(stream) in self.halted:
                break
            self.run_task(mt)

    def jump(self, model: Model, source: Stream, target: Stream, start: int) -> None:
        """A label switch on ``source``: run ``target`` from ``start``, and ``source`` stops."""
        self.run_stream(model, target, start)
        self.halted.add(id(source))

    def run_model(self, model: Model) -> None:
        """Run a sub-model inline (a branch or loop body of a conditional task)."""
        if model.kind == "capture" and len(model.streams) > 1:
            sub = Runner(model, self.stream, self.policy, model.aborted, parent=self)
            sub.current = self.current
            for mt in sub.schedule.tasks:
                sub.run_task(mt)
        elif model.head is not None:
            self.run_stream(model, model.head)


def read_word(ptr: int, nbytes: int, who: str) -> int:
    """A little-endian device word a control task reads (a freed word fails the task)."""
    try:
        raw = SPACE.read(ptr, nbytes, who).tobytes()
    except MemoryFault as fault:
        raise TaskFault(507015, f"{who} failed: {fault.message}") from None
    return int.from_bytes(raw, "little", signed=True)


def execute(model: Model, stream: Stream, policy: Policy) -> list[Task]:
    """Queue one execution of ``model`` on ``stream``: the head stream's tasks, each its own
    task (so the policies run, wait and interleave them like any queued work)."""
    model.runs += 1
    runner = Runner(model, stream, policy, model.aborted)
    submitted: list[Task] = []
    heads = runner.schedule.tasks
    if any(h.assign_default for h in model.cond_handles):

        def assign() -> None:
            for h in model.cond_handles:
                if h.assign_default and h.alloc is not None:
                    SPACE.write(h.ptr, h.default.to_bytes(8, "little"), "conditional handle default")

        task = Task(stream, f"{model!r}: assign condition defaults", assign)
        submitted.append(task)
        policy.submit(stream, task)
    for mt in heads:
        holder: list[Task] = []
        task = Task(stream, f"{model!r}: {mt.label}", _body(runner, mt, holder), ready=_ready(runner, mt))
        holder.append(task)
        events = [mt.event] if mt.type == TASK_EVENT_RECORD and mt.event is not None else []
        if mt.control is not None:
            events = model.events_recorded()  # records reached inline complete with their task
        for ev in events:
            ev.task, ev.stream, ev.timestamp_ns = task, stream, None
        if mt.use is not None:
            sanitizer.track(task, mt.use.reads, mt.use.writes)
        submitted.append(task)
        policy.submit(stream, task)
    return submitted


def _body(runner: Runner, mt: ModelTask, holder: list[Task]) -> Callable[[], None]:
    def run() -> None:
        runner.current = holder[0] if holder else None
        runner.run_task(mt)

    return run


def _ready(runner: Runner, mt: ModelTask) -> Callable[[], bool] | None:
    if mt.ready is None:
        return None
    cond = mt.ready

    decided = id(mt) in runner.schedule.ordered  # its record runs before it in this execution

    def ready() -> bool:
        return mt.disabled or runner.aborted() or decided or cond()

    return ready


# ---------------------------------------------------------------------------------------------
# listings
# ---------------------------------------------------------------------------------------------


def describe(model: Model) -> list[str]:
    """The model as text: its streams and their tasks (aclmdlRIDebugPrint)."""
    kind = "ACL Graph (captured)" if model.kind == "capture" else "built model"
    name = f" '{model.name}'" if model.name else ""
    lines = [f"aclmdlRI #{model.ident}{name}: {kind}, {len(model.streams)} stream(s), state {model.state}"]
    for st in model.streams:
        head = " (head)" if st is model.head else ""
        tasks = model.tasks_of(st)
        lines.append(f"  stream #{st.ident}{head}: {len(tasks)} task(s)")
        for mt in tasks:
            off = " [disabled]" if mt.disabled else ""
            lines.append(f"    [{mt.seq}] {TASK_TYPE_NAMES[mt.type]:<12} {mt.label}{off}")
    for sub in model.subs:
        lines += ["  " + line for line in describe(sub)]
    return lines


def as_json(model: Model) -> dict[str, Any]:
    """The model as a JSON-able dict (aclmdlRIDebugJsonPrint)."""
    return {
        "modelId": model.ident,
        "name": model.name,
        "type": "ACL_GRAPH" if model.kind == "capture" else "MODEL",
        "streams": [
            {
                "streamId": st.ident,
                "head": st is model.head,
                "tasks": [
                    {"seqId": mt.seq, "type": TASK_TYPE_NAMES[mt.type], "name": mt.label, "disabled": mt.disabled}
                    for mt in model.tasks_of(st)
                ],
            }
            for st in model.streams
        ],
        "subModels": [as_json(sub) for sub in model.subs],
    }
