"""The timeline (``ACLNN_PY_TRACE=timeline.json``): valid against a JSON schema of the
trace-event format, the same under every stream policy, the virtual clock's ordering rules, and
which call queued which task (exactly: the runtime reports each submission with the task's
number; the pairing by stream order is kept for recordings without them)."""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import jsonschema
import numpy as np
import pytest

from aclnn_py import (
    ACL_ERROR_RT_PARAM_INVALID,
    ACL_FLOAT,
    ACL_FORMAT_ND,
    ACL_MEM_MALLOC_HUGE_FIRST,
    ACL_MEMCPY_DEVICE_TO_DEVICE,
    ACL_MEMCPY_HOST_TO_DEVICE,
    Ref,
    aclCreateTensor,
    aclDestroyTensor,
    aclFinalize,
    aclGetRecentErrMsg,
    aclInit,
    aclnnHardswishBackward,
    aclnnHardswishBackwardGetWorkspaceSize,
    aclrtCreateEvent,
    aclrtCreateStream,
    aclrtDestroyEvent,
    aclrtDestroyStream,
    aclrtFree,
    aclrtMalloc,
    aclrtMemcpy,
    aclrtMemcpyAsync,
    aclrtMemsetAsync,
    aclrtRecordEvent,
    aclrtResetDevice,
    aclrtSetDevice,
    aclrtStreamWaitEvent,
    aclrtSynchronizeDevice,
    aclrtSynchronizeStream,
    testing,
    timeline,
    trace,
)

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = json.loads((ROOT / "docs" / "pictures" / "trace-event.schema.json").read_text())
SVG = "{http://www.w3.org/2000/svg}"


def _validate(doc: dict) -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    jsonschema.validate(doc, SCHEMA, cls=jsonschema.Draft202012Validator)


def _malloc(n: int) -> int:
    p = Ref()
    assert aclrtMalloc(p, n, ACL_MEM_MALLOC_HUGE_FIRST) == 0
    return p.value


def _tensor(ptr, shape, strides=None, storage=None):
    storage = storage or shape
    return aclCreateTensor(shape, len(shape), ACL_FLOAT, strides, 0, ACL_FORMAT_ND, storage, len(storage), ptr)


def two_streams(target: timeline.Recorder | str, *, fail: bool = False) -> None:
    """Stream A runs a phase-2 call's two kernels and records an event; stream B waits for the
    event and copies the result; the default stream gets a fill; a wait for an event never
    recorded is refused and queues nothing; the host synchronizes B, then the device. ``fail``: the kernel
    reads past its allocation (the task fails, the queue behind it is dropped)."""
    assert aclInit(None) == 0 and aclrtSetDevice(0) == 0
    a, b, ev, idle = Ref(), Ref(), Ref(), Ref()
    for s in (a, b):
        assert aclrtCreateStream(s) == 0
    assert aclrtCreateEvent(ev) == 0 and aclrtCreateEvent(idle) == 0
    host = np.arange(32, dtype=np.float32)
    x, g, out, copy = (_malloc(128) for _ in range(4))
    small = _malloc(8)  # rounded up to 64 bytes: half of what the kernel reads
    for p in (x, g, small):
        assert aclrtMemcpy(p, 8, host, 8, ACL_MEMCPY_HOST_TO_DEVICE) == 0
    for p in (x, g):
        assert aclrtMemcpy(p, 128, host, 128, ACL_MEMCPY_HOST_TO_DEVICE) == 0
    tensors = [_tensor(g, [4, 8]), _tensor(small if fail else x, [4, 8]), _tensor(out, [4, 8], [1, 4], [8, 4])]
    ws, ex = Ref(0), Ref()
    with trace.tracing(target):
        assert aclnnHardswishBackwardGetWorkspaceSize(*tensors, ws, ex) == 0
        workspace = _malloc(ws.value)
        assert aclnnHardswishBackward(workspace, ws.value, ex.value, a.value) == 0
        assert aclrtRecordEvent(ev.value, a.value) == 0
        assert aclrtStreamWaitEvent(b.value, ev.value) == 0
        # never recorded: Event::Wait refuses it (107000) and nothing is queued
        assert aclrtStreamWaitEvent(b.value, idle.value) == ACL_ERROR_RT_PARAM_INVALID
        assert aclrtMemcpyAsync(copy, 128, out, 128, ACL_MEMCPY_DEVICE_TO_DEVICE, b.value) == 0
        assert aclrtMemsetAsync(x, 128, 0, 128, None) == 0
        assert aclrtSynchronizeStream(b.value) == 0  # a failure on stream A drops its record: B goes on
        status = aclrtSynchronizeDevice()
        assert (status != 0) == fail
    aclGetRecentErrMsg()
    for t in tensors:
        aclDestroyTensor(t)
    for p in (x, g, out, copy, small, workspace):
        aclrtFree(p)
    aclrtDestroyEvent(ev.value)
    aclrtDestroyEvent(idle.value)
    aclrtDestroyStream(a.value)
    aclrtDestroyStream(b.value)
    aclrtResetDevice(0)
    aclFinalize()
    aclGetRecentErrMsg()


def _document(policy: str, monkeypatch, program=two_streams, **kwargs) -> dict:
    monkeypatch.setenv("ACLNN_PY_STREAM", policy)
    testing.reset()
    recorder = timeline.Recorder()
    program(recorder, **kwargs)
    return recorder.document()


def _slices(doc: dict) -> list[dict]:
    return [e for e in doc["traceEvents"] if e["ph"] == "X"]


def _rows(doc: dict) -> dict[tuple[int, int], str]:
    return {(e["pid"], e["tid"]): e["args"]["name"] for e in doc["traceEvents"] if e["name"] == "thread_name"}


def _check_layout(doc: dict) -> None:
    """Rules every timeline keeps: rows without overlaps, each flow one start and one end bound
    inside slices of their rows, never pointing back in time."""
    rows: dict[tuple[int, int], list[dict]] = {}
    for e in _slices(doc):
        rows.setdefault((e["pid"], e["tid"]), []).append(e)
    assert set(rows) <= set(_rows(doc))
    for slices in rows.values():
        slices.sort(key=lambda e: e["ts"])
        for first, second in itertools.pairwise(slices):
            assert first["ts"] + first["dur"] <= second["ts"]
    starts = {e["id"]: e for e in doc["traceEvents"] if e["ph"] == "s"}
    ends = {e["id"]: e for e in doc["traceEvents"] if e["ph"] == "f"}
    assert starts.keys() == ends.keys()
    for fid, s in starts.items():
        f = ends[fid]
        assert (s["name"], s["cat"]) == (f["name"], f["cat"]) and s["ts"] <= f["ts"]
        for point in (s, f):
            assert any(e["ts"] <= point["ts"] <= e["ts"] + e["dur"] for e in rows[(point["pid"], point["tid"])])


@pytest.mark.parametrize("policy", ["deferred", "eager", "thread"])
def test_timeline_validates_and_is_the_same_under_every_policy(policy, monkeypatch):
    doc = _document(policy, monkeypatch)
    _validate(doc)
    _check_layout(doc)
    assert doc == _document("deferred", monkeypatch)
    assert json.dumps(doc) == json.dumps(_document(policy, monkeypatch))  # and run to run


def test_the_virtual_clock_orders_tasks_as_the_runtime_guarantees(monkeypatch):
    doc = _document("deferred", monkeypatch)
    rows = _rows(doc)
    by_name = {}
    for e in _slices(doc):
        by_name.setdefault(e["name"], []).append(e)
        e["row"] = rows[(e["pid"], e["tid"])]
    assert [e["row"] for e in by_name["aclnnHardswishBackward"]] == ["host"]
    k0, k1 = by_name["kernel #0 HardSwishGrad"][0], by_name["kernel #1 Transpose"][0]
    record, wait = by_name["record event"][0], by_name["wait event"]
    copy, fill = by_name["aclrtMemcpyAsync(128 bytes)"][0], by_name["aclrtMemsetAsync(128 bytes)"][0]
    assert k0["row"] == k1["row"] == record["row"] == "stream #2"
    assert len(wait) == 1 and wait[0]["row"] == copy["row"] == "stream #3"  # the unrecorded wait queued nothing
    assert fill["row"] == "stream #1"  # the default stream
    assert k0["args"]["queued by"] == k1["args"]["queued by"] == "aclnnHardswishBackward"
    assert copy["args"]["queued by"] == "aclrtMemcpyAsync" and fill["args"]["queued by"] == "aclrtMemsetAsync"
    phase2 = by_name["aclnnHardswishBackward"][0]
    assert k0["ts"] == phase2["ts"] + phase2["dur"] and k1["ts"] == k0["ts"] + timeline.KERNEL_US
    assert record["ts"] == k1["ts"] + k1["dur"]
    assert wait[0]["ts"] == record["ts"] + record["dur"]  # waited for the record, not its own queue
    assert copy["ts"] == wait[0]["ts"] + wait[0]["dur"]
    sync_b, sync_dev = by_name["aclrtSynchronizeStream"][0], by_name["aclrtSynchronizeDevice"][0]
    assert sync_b["ts"] + sync_b["dur"] == copy["ts"] + copy["dur"] + timeline.CALL_US
    assert sync_dev["dur"] == timeline.CALL_US  # everything had finished already
    flows = {(e["cat"], e["name"]) for e in doc["traceEvents"] if e["ph"] == "s"}
    assert ("event", "event #1") in flows and ("sync", "aclrtSynchronizeStream") in flows
    assert ("launch", "aclnnHardswishBackward") in flows
    assert doc["otherData"]["matching"] == "exact (runtime submissions)"


@pytest.mark.parametrize("policy", ["deferred", "eager", "thread"])
def test_a_failed_kernel_is_marked_and_the_dropped_tasks_are_absent(policy, monkeypatch, findings):
    doc = _document(policy, monkeypatch, fail=True)
    _validate(doc)
    _check_layout(doc)
    failed = [e for e in _slices(doc) if e.get("cname") == "terrible"]
    assert [e["name"] for e in failed] == ["kernel #0 HardSwishGrad"]
    assert failed[0]["args"]["status"] == "ACL_ERROR_RT_AICORE_EXCEPTION" and "failed" in failed[0]["args"]["msg"]
    names = [e["name"] for e in _slices(doc)]
    assert "kernel #1 Transpose" not in names and "record event" not in names
    # Every policy drops what was queued behind the failed kernel (eager and thread too, which
    # receive the later kernels after the failure), so the timelines are the same; only the call
    # that happened to run the copy of the never-written output carries its initcheck finding.
    assert _without_task_findings(doc) == _without_task_findings(_document("deferred", monkeypatch, fail=True))


def _without_task_findings(doc: dict) -> dict:
    """The timeline without the sanitizer findings that tasks made, which appear on the call
    during which the task ran (the submitting call under eager, a synchronize under deferred)."""
    events = []
    for e in doc["traceEvents"]:
        args = e.get("args", {})
        if str(args.get("msg", "")).startswith("sanitizer ["):
            e = {**e, "args": {k: v for k, v in args.items() if k != "msg"}}
        events.append(e)
    return {**doc, "traceEvents": events}


def test_exact_pairing_when_the_runtime_reports_submissions(monkeypatch):
    """The runtime reports each submission (Task.__init__ calls trace.log_submit) and each
    finished task with the same number, under every policy: the pairing is exact, and the
    timeline is the one the pairing by stream order makes from the same events."""
    reference = _document("deferred", monkeypatch)
    assert reference["otherData"]["matching"] == "exact (runtime submissions)"
    for policy in ("eager", "thread"):
        assert _document(policy, monkeypatch) == reference
    # Without the submissions (an older recording), stream order finds the same pairs here.
    monkeypatch.setattr(timeline.Recorder, "submit", lambda *args, **kwargs: None)
    doc = _document("deferred", monkeypatch)
    assert doc["otherData"].pop("matching") == "by stream order and call arguments"
    assert doc["otherData"] == {k: v for k, v in reference["otherData"].items() if k != "matching"}
    assert doc["traceEvents"] == reference["traceEvents"]


def _call(api: str, **args) -> dict:
    return {"event": "call", "api": api, "args": args, "ret": "ACL_SUCCESS", "code": 0, "out": {}, "msg": None}


def _task(stream: int, label: str, status: int = 0) -> dict:
    name = "ACL_SUCCESS" if status == 0 else "ACL_ERROR_RT_AICORE_EXCEPTION"
    return {
        "event": "task",
        "stream": stream,
        "task": label,
        "status": status,
        "status_name": name,
        "msg": "",
        "path": None,
    }


def test_exact_pairing_survives_tasks_dropped_after_a_failure():
    """Task numbers tie each finished task to its submission: the tasks a failure dropped
    (never reported) do not shift the later ones onto the wrong call."""
    rec = timeline.Recorder()
    stream = "<aclrtStream #5 (stream of device 0)>"
    for seq, n in ((1, 8), (2, 16), (3, 32)):
        rec.submit(5, seq, f"aclrtMemsetAsync({n} bytes)", "MainThread")
        rec.call(_call("aclrtMemsetAsync", stream=stream, count=n), "MainThread")
    rec.task(_task(5, "aclrtMemsetAsync(8 bytes)", 507015), seq=1)  # fails: 2 and 3 are dropped
    rec.call(_call("aclrtSynchronizeStream", stream=stream), "MainThread")
    rec.submit(5, 4, "aclrtMemsetAsync(64 bytes)", "MainThread")
    rec.call(_call("aclrtMemsetAsync", stream=stream, count=64), "MainThread")
    rec.task(_task(5, "aclrtMemsetAsync(64 bytes)"), seq=4)
    doc = rec.document()
    _validate(doc)
    tasks = [e for e in _slices(doc) if e["pid"] == timeline.DEVICE_PID]
    assert [(e["name"], e["ts"]) for e in tasks] == [
        ("aclrtMemsetAsync(8 bytes)", 1),
        ("aclrtMemsetAsync(64 bytes)", 6),
    ]
    calls = [e for e in _slices(doc) if e["pid"] == timeline.HOST_PID]
    assert [(e["name"], e["ts"]) for e in calls][-1] == ("aclrtMemsetAsync", 5)


def test_timeline_picture_is_well_formed(monkeypatch):
    doc = _document("deferred", monkeypatch)
    root = ET.fromstring(timeline.svg(doc, "two streams"))
    groups = list(root.iter(f"{SVG}g"))
    slices = [g for g in groups if g.get("class", "").startswith("slice")]
    assert [g.find(f"{SVG}title").text for g in slices] == [e["name"] for e in _slices(doc)]
    flows = [g for g in groups if g.get("class", "").startswith("flow")]
    assert len(flows) == sum(1 for e in doc["traceEvents"] if e["ph"] == "f")
    rows = [g.find(f"{SVG}title").text for g in groups if g.get("class") == "row"]
    assert rows == ["host", "stream #1", "stream #2", "stream #3"]


def test_tracing_to_a_json_path_writes_the_timeline_at_the_end(tmp_path, monkeypatch):
    path = tmp_path / "run.json"
    monkeypatch.setenv("ACLNN_PY_STREAM", "deferred")
    testing.reset()
    two_streams(str(path))
    assert json.loads(path.read_text()) == _document("deferred", monkeypatch)


def _run_sample(tmp_path: Path, trace_value: str, policy: str) -> subprocess.CompletedProcess[bytes]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ACLNN_PY_")}
    env |= {"ACLNN_PY_TRACE": trace_value, "ACLNN_PY_STREAM": policy}
    sample = ROOT / "samples" / "test_aclnn_hardswish_backward.py"
    proc = subprocess.run([sys.executable, str(sample)], capture_output=True, env=env, timeout=120, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == sample.with_suffix(".out").read_bytes() and proc.stderr == b""
    return proc


def test_environment_variable_json_means_the_timeline(tmp_path):
    docs = []
    for policy in ("deferred", "eager", "thread"):
        out = tmp_path / f"{policy}.json"
        _run_sample(tmp_path, str(out), policy)
        doc = json.loads(out.read_text())
        _validate(doc)
        _check_layout(doc)
        docs.append(doc)
    assert docs[0] == docs[1] == docs[2]
    names = [e["name"] for e in _slices(docs[0])]
    assert names[0] == "aclInit" and "kernel #0 HardSwishGrad" in names and "aclFinalize" in names


def test_environment_variable_jsonl_still_means_json_lines(tmp_path):
    out = tmp_path / "run.jsonl"
    _run_sample(tmp_path, str(out), "deferred")
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert records[0]["api"] == "aclInit" and any(r["event"] == "task" for r in records)


def test_each_host_thread_has_its_row(monkeypatch):
    import threading

    def program(rec: timeline.Recorder) -> None:
        assert aclInit(None) == 0 and aclrtSetDevice(0) == 0
        ptr = _malloc(64)

        def worker() -> None:
            assert aclrtSetDevice(0) == 0
            s = Ref()
            assert aclrtCreateStream(s) == 0
            assert aclrtMemsetAsync(ptr, 64, 1, 64, s.value) == 0
            assert aclrtSynchronizeStream(s.value) == 0
            assert aclrtDestroyStream(s.value) == 0

        with trace.tracing(rec):
            t = threading.Thread(target=worker, name="worker")
            t.start()
            t.join()
            assert aclrtMemsetAsync(ptr, 64, 2, 64, None) == 0
            assert aclrtSynchronizeStream(None) == 0
        aclrtFree(ptr)
        aclrtResetDevice(0)
        aclFinalize()

    docs = [_document(policy, monkeypatch, program=program) for policy in ("deferred", "eager", "thread")]
    assert docs[0] == docs[1] == docs[2]
    _validate(docs[0])
    _check_layout(docs[0])
    rows = _rows(docs[0])
    placed = [(rows[(e["pid"], e["tid"])], e["name"]) for e in _slices(docs[0])]
    assert placed == [
        ("host: worker", "aclrtSetDevice"),
        ("host: worker", "aclrtCreateStream"),
        ("host: worker", "aclrtMemsetAsync"),
        ("host: worker", "aclrtSynchronizeStream"),
        ("host: worker", "aclrtDestroyStream"),
        ("host", "aclrtMemsetAsync"),
        ("host", "aclrtSynchronizeStream"),
        ("stream #1", "aclrtMemsetAsync(64 bytes)"),
        ("stream #2", "aclrtMemsetAsync(64 bytes)"),
    ]  # rows in order (the events are listed by row and time, whatever order the tasks finished in)


def test_the_events_are_listed_in_an_order_the_timing_does_not_decide(monkeypatch):
    """Under the thread policy tasks reach the recorder in the order they finish, which a loaded
    machine changes (it made this file's policy comparisons flaky): the document lists the
    slices by row and time and numbers the flows in that order, so a shuffled recording gives
    the same document."""
    import random

    monkeypatch.setenv("ACLNN_PY_STREAM", "deferred")
    testing.reset()
    recorder = timeline.Recorder()
    two_streams(recorder)
    reference = recorder.document()
    meta = [e for e in reference["traceEvents"] if e["ph"] == "M"]  # made in a fixed order already
    rest = [e for e in reference["traceEvents"] if e["ph"] != "M"]
    random.Random(3).shuffle(rest)
    assert timeline._canonical(meta + rest) == reference["traceEvents"]
