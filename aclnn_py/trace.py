"""The call trace: every API call and every device task, one line per event.

Switch it on with ``ACLNN_PY_TRACE=1`` (text to stderr) or ``ACLNN_PY_TRACE=path.jsonl`` (JSON
lines to a file), or for a block of code::

    with aclnn_py.trace.tracing() as events:        # collect in a list
        ...
    with aclnn_py.trace.tracing("run.log"):          # or write text / .jsonl to a file
        ...

A call line shows the arguments (tensors as dtype/shape/strides/offset/address, pointers in
hex), the return code by name, the out-parameters it filled and the message it recorded. A task
line shows each executor kernel (and async copy, fill, event) as the stream runs it. No
timestamps: two runs of the same program give the same trace, so traces diff cleanly.
"""

from __future__ import annotations

import contextlib
import ctypes
import enum
import itertools
import json
import os
import sys
import threading
from collections.abc import Iterator
from typing import IO, Any

ENV_VAR = "ACLNN_PY_TRACE"


class _Sink:
    def __init__(self, target: IO[str] | list[dict[str, Any]] | None, as_json: bool) -> None:
        self.target = target
        self.as_json = as_json
        self.lock = threading.Lock()

    def emit(self, event: dict[str, Any]) -> None:
        with self.lock:
            if isinstance(self.target, list):
                self.target.append(event)
                return
            out = self.target if self.target is not None else sys.stderr
            out.write((json.dumps(event) if self.as_json else render(event)) + "\n")
            out.flush()


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


def log_task(stream_ident: int, label: str, status: int, message: str, note: str = "") -> None:
    """Record one task run by a stream."""
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
        sink.emit(event)


@contextlib.contextmanager
def tracing(target: str | IO[str] | list[dict[str, Any]] | None = None) -> Iterator[list[dict[str, Any]] | None]:
    """Trace the calls made inside the block.

    ``target``: None collects events in a list (yielded), a path writes text (``.jsonl``: JSON
    lines), an open file writes text, a list receives the events."""
    collected: list[dict[str, Any]] | None = None
    opened: IO[str] | None = None
    if target is None:
        collected = []
        sink = _Sink(collected, False)
    elif isinstance(target, list):
        collected = target
        sink = _Sink(target, False)
    elif isinstance(target, str):
        opened = open(target, "w", encoding="utf-8")  # noqa: SIM115 - closed below
        sink = _Sink(opened, target.endswith(".jsonl"))
    else:
        sink = _Sink(target, False)
    _sinks.append(sink)
    _refresh()
    try:
        yield collected
    finally:
        _sinks.remove(sink)
        _refresh()
        if opened is not None:
            opened.close()


def _from_environment() -> None:
    value = os.environ.get(ENV_VAR, "")
    if not value or value == "0":
        return
    if value == "1":
        _sinks.append(_Sink(None, False))
    else:
        _sinks.append(_Sink(open(value, "a", encoding="utf-8"), value.endswith(".jsonl")))  # noqa: SIM115
    _refresh()


_from_environment()
