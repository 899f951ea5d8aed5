"""The file a profiling session writes (``acl/acl_prof.h``): the session's ``PROF_<n>_<time>_<tag>``
folder, made at aclprofStart as CANN's MaterializeResultPath and CreateProfDir do, and, at
aclprofStop, the timeline's trace-event JSON cut to the configuration's data types with the
msproftx stamps added, in ``<folder>/mindstudio_profiler_output/msprof_<time>.json``.
"""

from __future__ import annotations

import json
import os
import random
import string
import time
from pathlib import Path
from typing import Any

from .. import timeline as _timeline
from .._capi import ApiError
from ._checks import E
from .prof_state import _API_BITS, _MSPROFTX_ROW, _S, _TASK_BITS, ACL_PROF_MSPROFTX, _ek_value, _Session


def _materialize(session: _Session) -> None:
    """MaterializeResultPath + CreateProfDir at aclprofStart: the result directory must be
    creatable and readable/writable (100003, EK0001 with the OS's error); the session's
    ``PROF_<n>_<time>_<tag>`` folder is made in it."""
    path = _S.result_path

    def refused(op: str, err: OSError) -> ApiError:
        reason = f"The operation {op} on directory {path} is abnormal. [Error {err.errno}] {err.strerror}"
        return ApiError(E.ACL_ERROR_INVALID_FILE, _ek_value(path, "path of profiling output", reason))

    try:
        os.makedirs(path, exist_ok=True)
    except OSError as e:
        raise refused("create dir", e) from None
    if not os.access(path, os.R_OK | os.W_OK | os.X_OK):
        raise refused("access", PermissionError(13, "Permission denied"))
    now = time.time()
    session.stamp = time.strftime("%Y%m%d%H%M%S", time.localtime(now)) + f"{int(now * 1000) % 1000:03d}"
    tag = "".join(random.choices(string.ascii_uppercase, k=16))
    _S.sessions += 1  # startIndex_
    session.folder = Path(path) / f"PROF_{_S.sessions:06d}_{session.stamp}_{tag}"
    try:
        session.folder.mkdir()
    except OSError as e:
        raise refused("create dir", e) from None


def _write(session: _Session) -> str:
    folder = session.folder / "mindstudio_profiler_output"
    folder.mkdir(parents=True, exist_ok=True)
    doc = profile_document(session)
    out = folder / f"msprof_{session.stamp[:14]}.json"
    out.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    return str(out)


def profile_document(session: _Session) -> dict[str, Any]:
    """The session's timeline, cut to the configured data types, with the stamps added."""
    doc = session.recorder.document()
    types = session.config.data_types
    keep_api = bool(types & _API_BITS)
    keep_tasks = bool(types & _TASK_BITS)
    keep_tx = bool(types & ACL_PROF_MSPROFTX)
    events: list[dict[str, Any]] = doc["traceEvents"]
    stamps = _stamp_events(events, session.records) if keep_tx else []
    kept: list[dict[str, Any]] = []
    flows: dict[int, list[dict[str, Any]]] = {}
    for ev in events:
        pid = ev.get("pid")
        if ev["ph"] in ("s", "f"):
            flows.setdefault(ev["id"], []).append(ev)
            continue
        if ev["ph"] == "M" or (pid == _timeline.HOST_PID and keep_api) or (pid == _timeline.DEVICE_PID and keep_tasks):
            kept.append(ev)
    for pair in flows.values():  # a flow is kept when both of its ends are
        ends = {e["pid"] for e in pair}
        if (_timeline.HOST_PID not in ends or keep_api) and (_timeline.DEVICE_PID not in ends or keep_tasks):
            kept.extend(pair)
    doc["traceEvents"] = kept + stamps
    doc["otherData"]["profiler"] = {
        "dataTypeConfig": f"0x{types:x}",
        "devices": session.config.devices[:-1],
        "source": "aclnn_py timeline (CANN writes binary PROF_* data that msprof parses)",
    }
    return doc


def _stamp_events(events: list[dict[str, Any]], records: list[tuple[str, str, str, int]]) -> list[dict[str, Any]]:
    """The msproftx events: each successful stamp call is the n-th such call of its thread's host
    row, and the n-th record of that thread holds its message."""
    rows: dict[int, str] = {}
    for ev in events:
        if ev["ph"] == "M" and ev["name"] == "thread_name" and ev["pid"] == _timeline.HOST_PID:
            name = ev["args"]["name"]
            rows[ev["tid"]] = "MainThread" if name == "host" else name.removeprefix("host: ")
    apis = {
        "aclprofMark", "aclprofMarkEx", "aclprofPush", "aclprofPop", "aclprofRangeStart", "aclprofRangeStop",
        "aclprofRangePushEx", "aclprofRangePop",
    }  # fmt: skip
    calls: dict[str, list[dict[str, Any]]] = {}
    for ev in sorted(events, key=lambda e: (e.get("ts", 0), e.get("tid", 0))):
        host_call = ev["ph"] == "X" and ev.get("pid") == _timeline.HOST_PID and ev["name"] in apis
        if host_call and ev["args"].get("ret") in (0, "ACL_SUCCESS"):
            calls.setdefault(rows.get(ev["tid"], ""), []).append(ev)
    cursor: dict[str, int] = {}
    out: list[dict[str, Any]] = []
    tids: dict[str, int] = {}
    pushed: list[tuple[dict[str, Any], str, str]] = []
    ranges: dict[int, tuple[dict[str, Any], str]] = {}
    pushed_ex: dict[str, dict[str, Any]] = {}  # aclprofRangePushEx's call, per thread (one slot)

    def row(name: str) -> int:
        if name not in tids:
            tid = _MSPROFTX_ROW + len(tids)
            tids[name] = tid
            label = "msproftx" if name == "MainThread" else f"msproftx: {name}"
            if name == "ranges":
                label = "msproftx ranges"
            out.append({"name": "thread_name", "ph": "M", "pid": _timeline.HOST_PID, "tid": tid,
                        "args": {"name": label}})  # fmt: skip
            out.append({"name": "thread_sort_index", "ph": "M", "pid": _timeline.HOST_PID, "tid": tid,
                        "args": {"sort_index": tid}})  # fmt: skip
        return tids[name]

    for kind, thread, message, range_id in records:
        k = cursor.get(thread, 0)
        mine = calls.get(thread, [])
        if k >= len(mine):
            continue  # the call was not traced (the session ended inside it)
        cursor[thread] = k + 1
        call = mine[k]
        if kind in ("mark", "markex"):
            out.append({"name": message, "cat": "msproftx", "ph": "i", "s": "t", "ts": call["ts"],
                        "pid": _timeline.HOST_PID, "tid": row(thread), "args": {"api": call["name"]}})  # fmt: skip
        elif kind == "push":
            pushed.append((call, thread, message))
        elif kind == "pop" and pushed:
            start, who, text = pushed.pop()
            out.append({"name": text, "cat": "msproftx", "ph": "X", "ts": start["ts"],
                        "dur": call["ts"] + call["dur"] - start["ts"], "pid": _timeline.HOST_PID, "tid": row(who),
                        "args": {"api": "aclprofPush/aclprofPop"}})  # fmt: skip
        elif kind == "push-ex":
            pushed_ex[thread] = call
        elif kind == "pop-ex":  # CANN reports the tensor info at the midpoint of push and pop
            start = pushed_ex.get(thread, call)
            mid = (start["ts"] + call["ts"] + call["dur"]) / 2
            out.append({"name": "tensor info", "cat": "msproftx", "ph": "i", "s": "t", "ts": mid,
                        "pid": _timeline.HOST_PID, "tid": row(thread),
                        "args": {"api": "aclprofRangePushEx/aclprofRangePop", **json.loads(message)}})  # fmt: skip
        elif kind == "range-start":
            ranges[range_id] = (call, message)
        elif kind == "range-stop" and range_id in ranges:
            start, text = ranges.pop(range_id)
            out.append({"name": text, "cat": "msproftx", "ph": "X", "ts": start["ts"],
                        "dur": call["ts"] + call["dur"] - start["ts"], "pid": _timeline.HOST_PID, "tid": row("ranges"),
                        "args": {"api": "aclprofRangeStart/aclprofRangeStop", "rangeId": range_id}})  # fmt: skip
    return out
