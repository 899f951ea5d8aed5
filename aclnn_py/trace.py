"""The call trace: every API call and every device task, one line per event.

Switch it on with ``ACLNN_PY_TRACE=1`` (text to stderr), ``ACLNN_PY_TRACE=path.jsonl`` (JSON
lines to a file) or ``ACLNN_PY_TRACE=path.json`` (a timeline in the Chrome trace-event format,
written when the program exits: open it in Perfetto or ``chrome://tracing``), or for a block of
code::

    with aclnn_py.trace.tracing() as events:        # collect in a list
        ...
    with aclnn_py.trace.tracing("run.log"):          # or write text / .jsonl / .json to a file
        ...
    with aclnn_py.trace.tracing(graphs="graphs/"):   # and every executor's picture (DOT + SVG)
        ...

A call line shows the arguments (tensors as dtype/shape/strides/offset/address, pointers in
hex), the return code by name, the out-parameters it filled and the message it recorded. A task
line shows each executor kernel (and async copy, fill, event) as the stream runs it. No
timestamps: two runs of the same program give the same trace, so traces diff cleanly. The
timeline uses a virtual clock for the same reason (see :mod:`aclnn_py.timeline`).

``ACLNN_PY_TRACE_GRAPHS=<dir>`` (or ``tracing(graphs=<dir>)``) writes the picture of every
executor a successful phase 1 hands out, as ``<dir>/<n>-<api>.dot`` and ``.svg`` (``n`` counts
from 1); the SVG is drawn by :mod:`aclnn_py.executor.picture` (through :data:`PICTURE`), or by Graphviz's ``dot`` when
``ACLNN_PY_GRAPHVIZ=1`` (or ``graphviz=True``) and ``dot`` is installed.
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import enum
import itertools
import os
import sys
import threading
from collections.abc import Callable, Iterator
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:  # loaded with the first timeline sink: a program that never traces does not pay for it
    from . import timeline as _timeline

ENV_VAR = "ACLNN_PY_TRACE"
GRAPHS_ENV_VAR = "ACLNN_PY_TRACE_GRAPHS"
GRAPHVIZ_ENV_VAR = "ACLNN_PY_GRAPHVIZ"


def _json_line(event: dict[str, Any]) -> str:
    import json  # at the first JSON-lines event, not with the package

    return json.dumps(event)


class _Sink:
    """Text or JSON lines to a stream, or events into a list."""

    def __init__(self, target: IO[str] | list[dict[str, Any]] | None, as_json: bool) -> None:
        self.target = target
        self.as_json = as_json
        self.lock = threading.Lock()

    def submit(self, stream: int, seq: int | None, label: str) -> None:
        """A task was queued (only the timeline needs to know)."""

    def call_objects(self, args: dict[str, Any], event: dict[str, Any]) -> None:
        """The call's arguments as objects (only the executor pictures need them)."""

    def emit(self, event: dict[str, Any]) -> None:
        with self.lock:
            if isinstance(self.target, list):
                self.target.append(event)
                return
            out = self.target if self.target is not None else sys.stderr
            out.write((_json_line(event) if self.as_json else render(event)) + "\n")
            out.flush()


class _TimelineSink(_Sink):
    """Feeds a timeline recorder; the document is written when the sink closes."""

    def __init__(self, recorder: _timeline.Recorder, path: str | None = None) -> None:
        super().__init__(None, True)
        self.recorder = recorder
        self.path = path

    def submit(self, stream: int, seq: int | None, label: str) -> None:
        self.recorder.submit(stream, seq, label, threading.current_thread().name)

    def emit(self, event: dict[str, Any]) -> None:
        if event["event"] == "call":
            self.recorder.call(event, threading.current_thread().name)
        elif event["event"] == "task":
            self.recorder.task(event, event.get("_seq"))

    def close(self) -> None:
        """Write the timeline (a path target)."""
        if self.path is not None:
            import json
            from pathlib import Path

            Path(self.path).write_text(json.dumps(self.recorder.document(), indent=1) + "\n", encoding="utf-8")


# Draws an executor's picture: (executor, engine) -> (DOT text, SVG text). Set by
# aclnn_py.executor when it loads: the trace sits below the executor (the runtime reports to
# it) and must not import it back.
PICTURE: Callable[[Any, str], tuple[str, str]] | None = None


class _GraphSink(_Sink):
    """Writes the picture of every executor a successful call hands out."""

    def __init__(self, directory: str, graphviz: bool) -> None:
        from pathlib import Path  # only where pictures are written (import aclnn_py stays light)

        super().__init__(None, False)
        self.directory = Path(directory)
        self.graphviz = graphviz
        self.count = 0
        self.failed = False

    def emit(self, event: dict[str, Any]) -> None:
        pass

    def call_objects(self, args: dict[str, Any], event: dict[str, Any]) -> None:
        if event.get("code") != 0:
            return
        for v in args.values():
            ex = getattr(v, "value", None) if type(v).__name__ == "Ref" else None
            if type(ex).__name__ == "aclOpExecutor":
                self._write(ex)

    def _write(self, ex: Any) -> None:
        draw = PICTURE
        if draw is None:  # no executor package loaded: nothing can hand out an executor
            return
        with self.lock:
            self.count += 1
            stem = self.directory / f"{self.count:03d}-{ex.api}"
            try:
                self.directory.mkdir(parents=True, exist_ok=True)
                dot, svg = draw(ex, "dot" if self.graphviz else "builtin")
                stem.with_suffix(".dot").write_text(dot, encoding="utf-8")
                stem.with_suffix(".svg").write_text(svg, encoding="utf-8")
            except OSError as e:  # the trace must never break the program it watches
                if not self.failed:
                    self.failed = True
                    sys.stderr.write(f"aclnn_py trace: cannot write executor pictures to {self.directory}: {e}\n")


_sinks: list[_Sink] = []
_seq = itertools.count(1)
ACTIVE = False  # read by the hot paths: one global check when tracing is off


def _refresh() -> None:
    global ACTIVE
    ACTIVE = bool(_sinks)


def describe(value: Any) -> Any:
    """A JSON-friendly, deterministic description of an argument or result."""
    kind = type(value).__name__
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, enum.IntEnum):
        return value.name
    if isinstance(value, int):
        return f"0x{value:x}" if value >= 0x1_0000_0000 else value
    if isinstance(value, float):
        return repr(value)
    if kind == "aclTensor":
        from . import dtypes

        st = value.storage
        where = (
            f"ws+0x{st.ws_offset:x}"
            if st.kind == "workspace" and st.ws_offset is not None
            else (f"0x{st.addr:x}" if st.addr else "nullptr")
        )
        return (
            f"aclTensor({dtypes.dt_name(value.dtype)}{list(value.view_shape)} strides={list(value.strides)} "
            f"offset={value.offset} @{where})"
        )
    if kind == "Ref":
        return {"Ref": describe(value.value)}
    if isinstance(value, ctypes._SimpleCData):
        return {kind: describe(value.value)}
    if kind in ("Stream", "Event", "Context", "aclOpExecutor", "aclScalar"):
        return repr(value)
    if hasattr(value, "__array_interface__") or isinstance(value, (bytes, bytearray, memoryview)):
        nbytes = getattr(value, "nbytes", None) or len(value)
        return f"<host buffer {kind} {nbytes} bytes>"
    if isinstance(value, (list, tuple)):
        return [describe(v) for v in value[:16]] + (["..."] if len(value) > 16 else [])
    return f"<{kind}>"


def render(event: dict[str, Any]) -> str:
    """One text line for an event."""
    if event["event"] == "call":
        args = ", ".join(f"{k}={_short(v)}" for k, v in event["args"].items())
        line = f"[aclnn_py #{event['seq']}] {event['api']}({args}) -> {event['ret']}"
        if event.get("out"):
            line += " " + " ".join(f"{k}={_short(v)}" for k, v in event["out"].items())
        if event.get("msg"):
            line += " | " + event["msg"].replace("\n", " / ")
        return line
    if event["event"] == "task":
        state = "ok" if event["status"] == 0 else f"FAILED {event['status_name']}: {event['msg']}"
        if event.get("path"):
            state += f" [{event['path']}]"
        return f"[aclnn_py #{event['seq']}] task on stream #{event['stream']}: {event['task']} -> {state}"
    return f"[aclnn_py #{event['seq']}] {event['event']}: {event.get('msg', '')}"


def _short(v: Any) -> str:
    if isinstance(v, dict) and len(v) == 1:
        ((k, inner),) = v.items()
        return f"{k}({_short(inner)})"
    return str(v)


def log_call(api: str, args: dict[str, Any], described: dict[str, Any], ret: Any, before_msgs: int) -> None:
    """Record one call of the C-style surface (called by the API wrapper when tracing).

    ``described`` are the arguments as they were before the call; out-parameters (``Ref``) are
    shown again with what the call stored in them."""
    from . import _errmsg

    msgs = _errmsg.peek()[before_msgs:]
    out = {k: describe(v.value) for k, v in args.items() if type(v).__name__ == "Ref"}
    event = {
        "event": "call",
        "seq": next(_seq),
        "api": api,
        "args": described,
        "ret": describe(ret) if not isinstance(ret, int) or isinstance(ret, enum.IntEnum) else ret,
        "code": int(ret) if isinstance(ret, int) else None,
        "out": out,
        "msg": "\n".join(t for _, t in msgs) or None,
    }
    for sink in list(_sinks):
        sink.emit(event)
        sink.call_objects(args, event)


def log_submit(stream_ident: int, seq: int | None, label: str) -> None:
    """Record that the running API call queued a task (``seq``: the task's number, the same
    one :func:`log_task` receives). Only the timeline uses it: it ties each task to its call
    exactly; without it the timeline pairs tasks with calls by stream order."""
    for sink in list(_sinks):
        sink.submit(stream_ident, seq, label)


def log_task(stream_ident: int, label: str, status: int, message: str, note: str = "", seq: int | None = None) -> None:
    """Record one task run by a stream (``seq``: the task's number, as :func:`log_submit` got it)."""
    from ._status import status_name

    event = {
        "event": "task",
        "seq": next(_seq),
        "stream": stream_ident,
        "task": label,
        "status": int(status),
        "status_name": status_name(status) if status else "ACL_SUCCESS",
        "msg": message,
        "path": note or None,
    }
    for sink in list(_sinks):
        if seq is not None and isinstance(sink, _TimelineSink):
            sink.emit({**event, "_seq": seq})
        else:
            sink.emit(event)


def _path_sink(path: str) -> _Sink:
    if path.endswith(".json"):
        from . import timeline as _timeline

        return _TimelineSink(_timeline.Recorder(), path)
    return _Sink(open(path, "w", encoding="utf-8"), path.endswith(".jsonl"))


def _append(path: str) -> IO[str]:
    return open(path, "a", encoding="utf-8")  # open for the whole run


def _close(sink: _Sink) -> None:
    if isinstance(sink, _TimelineSink):
        sink.close()
    elif sink.target is not None and not isinstance(sink.target, list) and sink.target is not sys.stderr:
        sink.target.close()


@contextlib.contextmanager
def tracing(
    target: str | IO[str] | list[dict[str, Any]] | _timeline.Recorder | None = None,
    *,
    graphs: str | os.PathLike[str] | None = None,
    graphviz: bool = False,
) -> Iterator[list[dict[str, Any]] | None]:
    """Trace the calls made inside the block.

    ``target``: None collects events in a list (yielded), a path writes text (``.jsonl``: JSON
    lines; ``.json``: the timeline in the trace-event format, written when the block ends), an
    open file writes text, a list receives the events, a :class:`aclnn_py.timeline.Recorder`
    receives them for :meth:`~aclnn_py.timeline.Recorder.document`. ``graphs``: a directory
    that receives every executor's picture (``graphviz=True``: SVG by Graphviz's ``dot`` when
    it is installed)."""
    from . import timeline as _timeline

    collected: list[dict[str, Any]] | None = None
    sinks: list[_Sink] = []
    owned: list[_Sink] = []
    if target is None:
        if graphs is None:
            collected = []
            sinks.append(_Sink(collected, False))
    elif isinstance(target, list):
        collected = target
        sinks.append(_Sink(target, False))
    elif isinstance(target, _timeline.Recorder):
        sinks.append(_TimelineSink(target))
    elif isinstance(target, str):
        owned.append(_path_sink(target))
    else:
        sinks.append(_Sink(target, False))
    if graphs is not None:
        sinks.append(_GraphSink(os.fspath(graphs), graphviz))
    sinks += owned
    _sinks.extend(sinks)
    _refresh()
    try:
        yield collected
    finally:
        for sink in sinks:
            _sinks.remove(sink)
        _refresh()
        for sink in owned:
            _close(sink)


def _from_environment() -> None:
    value = os.environ.get(ENV_VAR, "")
    if value == "1":
        _sinks.append(_Sink(None, False))
    elif value and value != "0":
        # .json: the timeline; a text or .jsonl file is appended to
        sink = _path_sink(value) if value.endswith(".json") else _Sink(_append(value), value.endswith(".jsonl"))
        _sinks.append(sink)
        if isinstance(sink, _TimelineSink):
            atexit.register(sink.close)  # the whole program's timeline, once it has ended
    graphs = os.environ.get(GRAPHS_ENV_VAR, "")
    if graphs:
        _sinks.append(_GraphSink(graphs, os.environ.get(GRAPHVIZ_ENV_VAR, "") not in ("", "0")))
    _refresh()


_from_environment()
