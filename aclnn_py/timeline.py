"""A timeline of a program's streams in the Chrome trace-event format (Perfetto, chrome://tracing).

The call trace (:mod:`aclnn_py.trace`) feeds a :class:`Recorder` with the API calls and the
device tasks; :meth:`Recorder.document` lays them out on a **virtual clock** and returns the
trace-event JSON object:

* the host row (one per host thread) holds every API call, in program order;
* each stream has a row holding its tasks — kernels, async copies and fills, event records and
  waits — in the stream's order;
* flow arrows join a call to the tasks it queued (``launch``), an event's record to the waits
  and synchronizes that needed it (``event``), and the last task a synchronize waited for to the
  synchronize (``sync``).

The clock is modelled, not measured, so two runs of a program give the same file under every
stream policy (``deferred`` runs a kernel inside the synchronize, ``eager`` inside the launch,
``thread`` whenever its worker gets to it: measured times would show the policy, not the
program). Every API call takes :data:`CALL_US`; a task starts when the call that queued it has
returned, its stream is free, and (a wait) the event's record has run; it takes its
:func:`task_cost`. A synchronize returns :data:`CALL_US` after the last task it waits for.

Which call queued which task is known exactly when the runtime reports submissions
(:func:`aclnn_py.trace.log_submit`); otherwise it is reconstructed from the calls' arguments and
the task labels: each stream is an in-order queue, so the n-th copy task on stream 2 belongs to
the n-th successful ``aclrtMemcpyAsync`` on stream 2, and so on for fills, event records, waits
and phase-2 calls (whose kernels number from ``#0`` each run).

:func:`svg` draws such a document as a picture (used for the docs). Nothing here imports the
rest of the package.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass, field
from typing import Any

from ._xml import escape

CALL_US = 1  # every API call on the host
KERNEL_US = 4  # every kernel
COPY_US = 2  # an async copy or fill, plus 1 per started 64 KiB
EVENT_US = 1  # an event record or wait
HOST_PID, DEVICE_PID = 1, 2

_KERNEL = re.compile(r"^(?P<api>.+): kernel #(?P<index>\d+) (?P<op>\S+)")
_STREAM = re.compile(r"<aclrtStream #(\d+) \((default stream|stream)")
_EVENT = re.compile(r"<aclrtEvent #(\d+)>")
_KERNELS = re.compile(r"(\d+) kernel\(s\)")
_BYTES = re.compile(r"\((\d+) bytes\)")

# synchronizing calls and what they wait for
_SYNC_STREAM = {"aclrtSynchronizeStream", "aclrtSynchronizeStreamWithTimeout", "aclrtDestroyStream"}
_SYNC_DEVICE = {"aclrtSynchronizeDevice", "aclrtSynchronizeDeviceWithTimeout", "aclrtResetDevice"}
_SYNC_EVENT = {"aclrtSynchronizeEvent", "aclrtSynchronizeEventWithTimeout"}
# Tasks named by what queued them: a label -> the API that queues it
_LABELS = (
    ("record event", "aclrtRecordEvent"),
    ("wait event", "aclrtStreamWaitEvent"),
    ("reset event", "aclrtResetEvent"),
    ("record notify", "aclrtRecordNotify"),
    ("wait notify", "aclrtWaitAndResetNotify"),
    ("host function", "aclrtLaunchHostFunc"),
)
_CALL_LABEL = re.compile(r"^(acl\w+)\(")  # aclrtMemcpyAsync(24 bytes), aclrtValueWrite(0x..., 1) ...
_SUBMITTERS = {api for _, api in _LABELS} | {
    "aclrtMemcpyAsync",
    "aclrtMemsetAsync",
    "aclrtValueWrite",
    "aclrtValueWait",
}
_CATEGORY = {
    "kernel": "kernel",
    "aclrtMemcpyAsync": "copy",
    "aclrtMemsetAsync": "fill",
    "aclrtRecordEvent": "event",
    "aclrtStreamWaitEvent": "event",
    "aclrtResetEvent": "event",
    "aclrtRecordNotify": "notify",
    "aclrtWaitAndResetNotify": "notify",
    "aclrtValueWrite": "value",
    "aclrtValueWait": "value",
    "aclrtLaunchHostFunc": "host function",
}


def task_kind(label: str) -> str:
    """What queued a task, from its label: ``kernel`` (a phase-2 call), the runtime API that
    queues such tasks (``aclrtMemcpyAsync``, ``aclrtRecordEvent`` ...), or ``other``."""
    if _KERNEL.match(label):
        return "kernel"
    m = _CALL_LABEL.match(label)
    if m is not None:
        return m.group(1)
    for prefix, api in _LABELS:
        if label.startswith(prefix):
            return api
    return "other"


def task_category(label: str) -> str:
    """The timeline's category of a task: kernel, copy, fill, event, notify, value, host function."""
    return _CATEGORY.get(task_kind(label), "other")


def task_cost(label: str) -> int:
    """The modelled duration of a task in microseconds."""
    category = task_category(label)
    if category == "kernel":
        return KERNEL_US
    if category in ("copy", "fill"):
        m = _BYTES.search(label)
        n = int(m.group(1)) if m else 0
        return COPY_US + (n + 65535) // 65536
    return EVENT_US


def _stream_key(value: Any) -> int | str | None:
    """The stream a call names: its number, ``"default"`` for a null stream, None if unknown."""
    if value is None:
        return "default"
    if isinstance(value, str):
        m = _STREAM.search(value)
        if m:
            return "default" if m.group(2) == "default stream" else int(m.group(1))
    return None


def _event_id(value: Any) -> int | None:
    m = _EVENT.search(value) if isinstance(value, str) else None
    return int(m.group(1)) if m else None


@dataclass
class _Call:
    event: dict[str, Any]
    thread: str
    submits: list[tuple[int, int | None, str]] = field(default_factory=list)  # (stream, task seq, label)
    tasks: list[int] = field(default_factory=list)  # indices into Recorder.tasks
    start: int = 0
    end: int = 0


@dataclass
class _Task:
    event: dict[str, Any]
    seq: int | None
    call: int | None = None
    start: int = 0
    end: int = 0
    after: int | None = None  # a wait: the record task it waited for


class Recorder:
    """Collects the trace's events (from any thread) and lays them out as a timeline."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.calls: list[_Call] = []
        self.tasks: list[_Task] = []
        self._pending: dict[str, list[tuple[int, int | None, str]]] = {}
        self.exact = False  # True once the runtime reported a submission

    def call(self, event: dict[str, Any], thread: str) -> None:
        """An API call returned (``event`` as :func:`aclnn_py.trace.log_call` builds it)."""
        with self.lock:
            self.calls.append(_Call(event, thread, self._pending.pop(thread, [])))

    def submit(self, stream: int, seq: int | None, label: str, thread: str) -> None:
        """A task was queued by the call running on ``thread`` (the call is logged when it returns)."""
        with self.lock:
            self.exact = True
            self._pending.setdefault(thread, []).append((stream, seq, label))

    def task(self, event: dict[str, Any], seq: int | None = None) -> None:
        """A task ran (or failed) on its stream."""
        with self.lock:
            self.tasks.append(_Task(event, seq))

    # -- matching tasks to the calls that queued them --------------------------------------

    def _match_exact(self) -> None:
        by_seq = {t.seq: i for i, t in enumerate(self.tasks) if t.seq is not None}
        fifo: dict[int, list[int]] = {}
        for i, t in enumerate(self.tasks):
            fifo.setdefault(t.event["stream"], []).append(i)
        cursor: dict[int, int] = {}
        for ci, c in enumerate(self.calls):
            for stream, seq, _label in c.submits:
                ti: int | None
                if seq is not None and seq in by_seq:
                    ti = by_seq[seq]
                elif seq is None or not by_seq:  # finished tasks without numbers: stream order
                    k = cursor.get(stream, 0)
                    queue = fifo.get(stream, [])
                    ti = queue[k] if k < len(queue) else None
                    cursor[stream] = k + 1
                else:
                    ti = None  # queued, never ran (dropped after a failure on its stream)
                if ti is not None:
                    self.tasks[ti].call = ci
                    c.tasks.append(ti)

    def _match_by_arguments(self) -> None:
        named = self._named_streams()
        queues: dict[tuple[int | str, str], list[int]] = {}
        recorded: set[int] = set()
        for ci, c in enumerate(self.calls):
            ev = c.event
            if ev.get("code") != 0:
                continue
            args = ev.get("args", {})
            kind: str | None = ev["api"] if ev["api"] in _SUBMITTERS else None
            if kind is None and {"workspace", "executor", "stream"} <= set(args):
                m = _KERNELS.search(str(args["executor"]))
                kind = "kernel" if m is None or int(m.group(1)) > 0 else None
            if kind is None:
                continue
            if kind == "aclrtRecordEvent":
                ident = _event_id(args.get("event"))
                if ident is not None:
                    recorded.add(ident)
            if kind == "aclrtStreamWaitEvent" and _event_id(args.get("event")) not in recorded:
                continue  # waiting for an event never recorded queues nothing
            key = _stream_key(args.get("stream"))
            if key is not None:
                queues.setdefault((key, kind), []).append(ci)
        current: dict[int, int | None] = {}  # stream -> the phase-2 call its kernels belong to
        for ti, t in enumerate(self.tasks):
            stream = t.event["stream"]
            skey: int | str = stream if stream in named else "default"
            label = t.event["task"]
            kind = task_kind(label)
            owner: int | None = None
            if kind == "kernel":
                m = _KERNEL.match(label)
                if (m is not None and int(m.group("index")) == 0) or current.get(stream) is None:
                    q = queues.get((skey, "kernel"), [])
                    current[stream] = q.pop(0) if q else None
                owner = current[stream]
            elif kind != "other":
                q = queues.get((skey, kind), [])
                owner = q.pop(0) if q else None
            if owner is not None:
                t.call = owner
                self.calls[owner].tasks.append(ti)

    # -- the virtual clock -----------------------------------------------------------------

    def _schedule(self) -> list[tuple[str, int, int, str]]:
        """Times for every call and task; returns the sync/event flows (kind, from task, to, name)."""
        flows: list[tuple[str, int, int, str]] = []
        by_stream: dict[int, list[int]] = {}
        for i, t in enumerate(self.tasks):
            by_stream.setdefault(t.event["stream"], []).append(i)
        done: dict[int, int] = {}  # stream -> how many of its tasks are scheduled
        free: dict[int, int] = {}  # stream -> when it is free
        last: dict[int, int] = {}  # stream -> its last scheduled task
        record_of: dict[int, int] = {}  # event -> its latest record task
        synced: set[int] = set()
        named = self._named_streams()

        def run_until(stream: int, ti: int | None, ready: int) -> None:
            """Schedule the stream's tasks up to and including ``ti`` (all if None)."""
            queue = by_stream.get(stream, [])
            while done.get(stream, 0) < len(queue):
                k = queue[done.get(stream, 0)]
                t = self.tasks[k]
                start = max(ready if t.call is not None else 0, free.get(stream, 0))
                if t.after is not None:
                    start = max(start, self.tasks[t.after].end)
                t.start, t.end = start, start + task_cost(t.event["task"])
                free[stream], last[stream] = t.end, k
                done[stream] = done.get(stream, 0) + 1
                if k == ti:
                    return

        clock = 0
        for ci, c in enumerate(self.calls):
            ev = c.event
            args = ev.get("args", {})
            c.start = clock
            c.end = clock + CALL_US
            for ti in c.tasks:
                t = self.tasks[ti]
                kind = task_kind(t.event["task"])
                if kind == "aclrtStreamWaitEvent":
                    rec = record_of.get(_event_id(args.get("event")) or -1)
                    if rec is not None:
                        t.after = rec
                        flows.append(("event", rec, ti, f"event #{_event_id(args.get('event'))}"))
                run_until(t.event["stream"], ti, c.end)
                if kind == "aclrtRecordEvent":
                    ident = _event_id(args.get("event"))
                    if ident is not None:
                        record_of[ident] = ti
            awaited: list[int] = []
            api = ev["api"]
            if api in _SYNC_EVENT:
                rec = record_of.get(_event_id(args.get("event")) or -1)
                if rec is not None:
                    awaited.append(rec)
            elif api in _SYNC_STREAM or api in _SYNC_DEVICE:
                key = _stream_key(args.get("stream")) if api in _SYNC_STREAM else None
                for stream in sorted(last):
                    if api in _SYNC_DEVICE or key == stream or (key == "default" and stream not in named):
                        awaited.append(last[stream])
            for ti in awaited:
                c.end = max(c.end, self.tasks[ti].end + CALL_US)
                if ti not in synced:
                    synced.add(ti)
                    flows.append(("sync", ti, -1 - ci, api))
            clock = c.end
        for stream in sorted(by_stream):  # tasks no call claimed: after everything else
            run_until(stream, None, clock)
        return flows

    def _named_streams(self) -> set[int]:
        named: set[int] = set()
        for c in self.calls:
            for value in (*c.event.get("args", {}).values(), *c.event.get("out", {}).values()):
                for m in _STREAM.finditer(str(value)):
                    if m.group(2) == "stream":
                        named.add(int(m.group(1)))
        return named

    def document(self) -> dict[str, Any]:
        """The timeline as a trace-event JSON object (``{"traceEvents": [...], ...}``)."""
        with self.lock:
            for t in self.tasks:
                t.call, t.after = None, None
            for c in self.calls:
                c.tasks = []
            if self.exact:
                self._match_exact()
            else:
                self._match_by_arguments()
            flows = self._schedule()
            return self._events(flows)

    def _events(self, flows: list[tuple[str, int, int, str]]) -> dict[str, Any]:
        threads: dict[str, int] = {}
        for c in self.calls:
            threads.setdefault(c.thread, len(threads) + 1)
        streams = sorted({t.event["stream"] for t in self.tasks})
        events: list[dict[str, Any]] = [
            {"name": "process_name", "ph": "M", "pid": HOST_PID, "tid": 0, "args": {"name": "host"}},
            {"name": "process_sort_index", "ph": "M", "pid": HOST_PID, "tid": 0, "args": {"sort_index": 0}},
            {"name": "process_name", "ph": "M", "pid": DEVICE_PID, "tid": 0, "args": {"name": "device streams"}},
            {"name": "process_sort_index", "ph": "M", "pid": DEVICE_PID, "tid": 0, "args": {"sort_index": 1}},
        ]
        for name, tid in threads.items():
            row = "host" if name == "MainThread" else f"host: {name}"
            events.append({"name": "thread_name", "ph": "M", "pid": HOST_PID, "tid": tid, "args": {"name": row}})
            events.append(
                {"name": "thread_sort_index", "ph": "M", "pid": HOST_PID, "tid": tid, "args": {"sort_index": tid}}
            )
        for s in streams:
            events.append(
                {"name": "thread_name", "ph": "M", "pid": DEVICE_PID, "tid": s, "args": {"name": f"stream #{s}"}}
            )
            events.append(
                {"name": "thread_sort_index", "ph": "M", "pid": DEVICE_PID, "tid": s, "args": {"sort_index": s}}
            )
        for c in self.calls:
            ev = c.event
            args: dict[str, Any] = {"args": ev.get("args", {}), "ret": ev.get("ret")}
            if ev.get("out"):
                args["out"] = ev["out"]
            if ev.get("msg"):
                args["msg"] = ev["msg"]
            events.append(
                {
                    "name": ev["api"],
                    "cat": "api",
                    "ph": "X",
                    "ts": c.start,
                    "dur": c.end - c.start,
                    "pid": HOST_PID,
                    "tid": threads[c.thread],
                    "args": args,
                }
            )
        for t in self.tasks:
            ev = t.event
            label = ev["task"]
            m = _KERNEL.match(label)
            targs: dict[str, Any] = {"task": label, "status": ev["status_name"]}
            if ev.get("msg"):
                targs["msg"] = ev["msg"]
            if ev.get("path"):
                targs["path"] = ev["path"]
            if t.call is not None:
                targs["queued by"] = self.calls[t.call].event["api"]
            entry = {
                "name": f"kernel #{m.group('index')} {m.group('op')}" if m else label,
                "cat": task_category(label),
                "ph": "X",
                "ts": t.start,
                "dur": t.end - t.start,
                "pid": DEVICE_PID,
                "tid": ev["stream"],
                "args": targs,
            }
            if ev["status"] != 0:
                entry["cname"] = "terrible"
            events.append(entry)
        flow_id = 0

        def flow(cat: str, name: str, src: tuple[int, int, int], dst: tuple[int, int, int]) -> None:
            nonlocal flow_id
            flow_id += 1
            events.append(
                {"name": name, "cat": cat, "ph": "s", "id": flow_id, "ts": src[0], "pid": src[1], "tid": src[2]}
            )
            events.append(
                {
                    "name": name,
                    "cat": cat,
                    "ph": "f",
                    "bp": "e",
                    "id": flow_id,
                    "ts": dst[0],
                    "pid": dst[1],
                    "tid": dst[2],
                }
            )

        def at_task(ti: int) -> tuple[int, int, int]:
            t = self.tasks[ti]
            return (t.start, DEVICE_PID, t.event["stream"])

        for c in self.calls:  # launch flows: a call to the first task it queued on each stream
            seen: set[int] = set()
            for ti in c.tasks:
                stream = self.tasks[ti].event["stream"]
                if stream not in seen:
                    seen.add(stream)
                    flow("launch", c.event["api"], (c.start, HOST_PID, threads[c.thread]), at_task(ti))
        for cat, src, dst, name in flows:
            if dst >= 0:
                flow(cat, name, at_task(src), at_task(dst))
            else:
                # ends where the synchronize saw the task finish (inside the call's slice)
                c = self.calls[-1 - dst]
                flow(cat, name, at_task(src), (max(c.start, self.tasks[src].end), HOST_PID, threads[c.thread]))
        return {
            "traceEvents": _canonical(events),
            "displayTimeUnit": "ns",
            "otherData": {
                "generator": "aclnn_py",
                "clock": (
                    f"virtual microseconds: API call {CALL_US}, kernel {KERNEL_US}, async copy/fill {COPY_US} + 1 per "
                    f"64 KiB, event record/wait {EVENT_US}; a task starts once its call returned, its stream is free "
                    "and the event it waits for is recorded"
                ),
                "matching": "exact (runtime submissions)" if self.exact else "by stream order and call arguments",
            },
        }


# -- a picture of a timeline ------------------------------------------------------------------

_FILL = {
    "api": "#dbeafe",
    "kernel": "#bbf7d0",
    "copy": "#fde68a",
    "fill": "#fde68a",
    "event": "#e9d5ff",
    "notify": "#e9d5ff",
    "value": "#fbcfe8",
    "host function": "#fed7aa",
    "other": "#e5e7eb",
}
_FONT = "DejaVu Sans Mono, Menlo, Consolas, monospace"
_CHAR_W = 6.6  # one 11px monospace character


def _num(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".")


def svg(doc: dict[str, Any], title: str = "") -> str:
    """Draw a trace-event document (as :meth:`Recorder.document` makes it) as an SVG: one row
    per host thread and per stream, a box per call and per task, arrows for the flows."""
    events = doc["traceEvents"]
    names: dict[tuple[int, int], str] = {}
    for e in events:
        if e["ph"] == "M" and e["name"] == "thread_name":
            names[(e["pid"], e["tid"])] = e["args"]["name"]
    slices = [e for e in events if e["ph"] == "X"]
    rows = sorted({(e["pid"], e["tid"]) for e in slices})
    end = max((e["ts"] + e["dur"] for e in slices), default=1)
    label_w = max([len(names.get(r, "")) for r in rows] + [8]) * _CHAR_W + 16
    scale = max(28.0, min(64.0, 900.0 / max(end, 1)))
    row_h, top, left = 40.0, 44.0 if title else 20.0, 12.0
    width = left + label_w + end * scale + 24
    # A name too long for its box is written slanted above it: each row makes room for its own.
    slant = 0.6  # sin of the 37-degree slant

    def fits(e: dict[str, Any]) -> bool:
        return bool(len(e["name"]) * _CHAR_W + 6 <= max(e["dur"] * scale - 2, 2.0))

    y_of: dict[tuple[int, int], float] = {}
    y = top
    for r in rows:
        long = [len(e["name"]) for e in slices if (e["pid"], e["tid"]) == r and not fits(e)]
        y += min(max(long, default=0) * _CHAR_W * slant, 160.0) + (4 if long else 0)
        y_of[r] = y
        y += row_h
    height = y + 36
    x0 = left + label_w
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_num(width)}" height="{_num(height)}" '
        f'viewBox="0 0 {_num(width)} {_num(height)}" font-family="{_FONT}" font-size="11">',
        f"<title>{escape(title or 'timeline')}</title>",
        '<defs><marker id="flow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="6" markerHeight="6" '
        'orient="auto"><path d="M 0 0 L 10 5 L 0 10 z" fill="#7c3aed"/></marker></defs>',
        f'<rect width="{_num(width)}" height="{_num(height)}" fill="#ffffff"/>',
    ]
    if title:
        out.append(f'<text x="{_num(left)}" y="22" font-size="13" font-weight="bold">{escape(title)}</text>')
    for r in rows:
        y = y_of[r]
        out.append(
            f'<g class="row"><title>{escape(names.get(r, ""))}</title>'
            f'<line x1="{_num(left)}" y1="{_num(y + row_h - 4)}" x2="{_num(width - 12)}" y2="{_num(y + row_h - 4)}" '
            'stroke="#e5e7eb"/>'
            f'<text x="{_num(left)}" y="{_num(y + row_h / 2 + 2)}" font-weight="bold">'
            f"{escape(names.get(r, ''))}</text></g>"
        )
    for tick in range(0, end + 1, max(1, end // 12 or 1)):
        x = x0 + tick * scale
        out.append(
            f'<line x1="{_num(x)}" y1="{_num(top - 4)}" x2="{_num(x)}" y2="{_num(height - 28)}" stroke="#f3f4f6"/>'
            f'<text x="{_num(x)}" y="{_num(height - 14)}" text-anchor="middle" fill="#6b7280">{tick}</text>'
        )
    out.append(f'<text x="{_num(left)}" y="{_num(height - 14)}" fill="#6b7280">virtual µs</text>')
    boxes: dict[tuple[int, int, int], tuple[float, float, float]] = {}
    durations: dict[tuple[int, int, int], int] = {}
    for e in slices:
        x, y = x0 + e["ts"] * scale, y_of[(e["pid"], e["tid"])] + 6
        w = max(e["dur"] * scale - 2, 2.0)
        fill = "#fecaca" if e.get("cname") == "terrible" else _FILL.get(e.get("cat", "other"), _FILL["other"])
        boxes[(e["pid"], e["tid"], e["ts"])] = (x, y, w)
        durations[(e["pid"], e["tid"], e["ts"])] = e["dur"]
        text = e["name"]
        if fits(e):
            label = f'<text x="{_num(x + 3)}" y="{_num(y + row_h / 2 - 3)}">{escape(text)}</text>'
        else:
            label = (
                f'<text x="{_num(x + 4)}" y="{_num(y - 3)}" transform="rotate(-37 {_num(x + 4)} {_num(y - 3)})">'
                f"{escape(text)}</text>"
            )
        out.append(
            f'<g class="slice {escape(e.get("cat", ""))}"><title>{escape(text)}</title>'
            f'<rect x="{_num(x)}" y="{_num(y)}" width="{_num(w)}" height="{_num(row_h - 16)}" rx="3" fill="{fill}" '
            'stroke="#374151"/>' + label + "</g>"
        )
    starts = {e["id"]: e for e in events if e["ph"] == "s"}

    def enclosing(e: dict[str, Any]) -> tuple[float, float, float] | None:
        """The box of the slice a flow end binds to (the one whose time span holds it)."""
        for (pid, tid, ts), box in boxes.items():
            if (pid, tid) == (e["pid"], e["tid"]) and ts <= e["ts"] < ts + max(durations[(pid, tid, ts)], 1):
                return box
        return None

    box_h = row_h - 16
    for f in (e for e in events if e["ph"] == "f"):
        s = starts[f["id"]]
        sb, db = enclosing(s), enclosing(f)
        if sb is None or db is None:
            continue
        down = db[1] > sb[1]  # the arrow leaves the bottom of its source and enters the top of its target
        sy, dy = (sb[1] + box_h, db[1]) if down else (sb[1], db[1] + box_h)
        if f["cat"] == "launch":
            sx, dx = sb[0] + sb[2] / 2, db[0] + 2
            colour, dash = "#9ca3af", ' stroke-dasharray="3 3"'
        else:  # from the end of the task waited for to the moment the waiter saw it end
            sx = sb[0] + sb[2]
            dx = max(db[0], sx) if f["cat"] == "event" else x0 + f["ts"] * scale
            colour, dash = "#7c3aed", ""
        out.append(
            f'<g class="flow {escape(f["cat"])}"><title>{escape(f["cat"])}: {escape(f["name"])}</title>'
            f'<line x1="{_num(sx)}" y1="{_num(sy)}" x2="{_num(dx)}" y2="{_num(dy)}" stroke="{colour}" '
            f'stroke-width="1.5"{dash} marker-end="url(#flow)"/></g>'
        )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _canonical(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The events in an order that depends on the timeline only: the metadata, then the slices by
    row and time, then the flows by their two ends, numbered in that order. Tasks reach the
    recorder in the order they finished, which under the thread policy is the machine's timing."""
    meta = [e for e in events if e["ph"] == "M"]
    slices = sorted(
        (e for e in events if e["ph"] == "X"), key=lambda e: (e["pid"], e["tid"], e["ts"], e["dur"], e["name"])
    )
    ends = {e["id"]: e for e in events if e["ph"] == "f"}
    pairs = sorted(
        ((e, ends[e["id"]]) for e in events if e["ph"] == "s"),
        key=lambda p: (p[0]["ts"], p[0]["pid"], p[0]["tid"], p[1]["ts"], p[1]["pid"], p[1]["tid"], p[0]["cat"],
                       p[0]["name"]),
    )  # fmt: skip
    flows: list[dict[str, Any]] = []
    for n, (start, end) in enumerate(pairs, 1):
        flows += [{**start, "id": n}, {**end, "id": n}]
    return meta + slices + flows
