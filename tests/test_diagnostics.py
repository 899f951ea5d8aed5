"""Diagnostics hardware cannot give: each mistake made on purpose, its report and its code."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from helpers import Dev

import aclnn_py
from aclnn_py import (
    ACL_ERROR_RELATIVE_RESOURCE_NOT_CLEARED,
    ACL_ERROR_RT_AICORE_EXCEPTION,
    ACL_ERROR_RT_PARAM_INVALID,
    ACL_MEMCPY_DEVICE_TO_DEVICE,
    ACL_MEMCPY_DEVICE_TO_HOST,
    ACLNN_ERR_PARAM_INVALID,
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
    aclrtFree,
    aclrtMalloc,
    aclrtMallocHost,
    aclrtMemcpy,
    aclrtMemcpyAsync,
    aclrtResetDevice,
    aclrtSetDevice,
    aclrtSynchronizeStream,
)  # fmt: skip
from aclnn_py.runtime import sanitizer

ROOT = Path(__file__).resolve().parent.parent
HB1, HB2 = aclnnHardswishBackwardGetWorkspaceSize, aclnnHardswishBackward


def _policy() -> str:
    """The stream policy the suite runs under (ACLNN_PY_TEST_STREAM; deferred by default)."""
    return os.environ.get("ACLNN_PY_STREAM", "deferred")


def _hardswish_queued(dev, x=None):
    x = np.linspace(-4, 4, 8).astype(np.float32) if x is None else x
    g, s, o = dev.tensor(np.ones_like(x)), dev.tensor(x), dev.tensor(np.zeros_like(x))
    ws, ex = Ref(0), Ref()
    assert HB1(g, s, o, ws, ex) == 0
    assert HB2(None, 0, ex.value, dev.stream) == 0
    return o


# -- memcheck ----------------------------------------------------------------------------------


def test_unaligned_tensor_data_is_reported(dev, findings):
    base = dev.upload(np.ones(16, np.float32))
    t = aclCreateTensor([4], 1, 0, None, 0, 2, [4], 1, base + 4)  # tensorData must be 32-byte aligned
    s, o = dev.tensor(np.ones(4, np.float32)), dev.tensor(np.ones(4, np.float32))
    ws, ex = Ref(0), Ref()
    assert HB1(t, s, o, ws, ex) == 0
    assert HB2(None, 0, ex.value, dev.stream) == 0  # the faithful code stays 0 in warn mode
    assert findings.refresh().checks() == ["memcheck"]
    assert "tensor gradOutput's data address" in findings.text() and "not 32-byte aligned" in findings.text()
    aclGetRecentErrMsg()
    aclDestroyTensor(t)


def test_unaligned_device_to_device_async_copy(dev, findings):
    a, b = dev.upload(np.ones(64, np.uint8)), dev.malloc(64)
    assert aclrtMemcpyAsync(b, 32, a + 8, 32, ACL_MEMCPY_DEVICE_TO_DEVICE, dev.stream) == 0
    assert "not 64-byte aligned" in findings.refresh().text()
    aclGetRecentErrMsg()


# -- initcheck ---------------------------------------------------------------------------------


def test_kernel_reading_never_written_memory(dev, findings):
    p = dev.malloc(32)  # never written: poison bytes
    x = aclCreateTensor([8], 1, 0, None, 0, 2, [8], 1, p)
    g, o = dev.tensor(np.ones(8, np.float32)), dev.tensor(np.zeros(8, np.float32))
    ws, ex = Ref(0), Ref()
    assert HB1(g, x, o, ws, ex) == 0
    assert HB2(None, 0, ex.value, dev.stream) == 0
    assert aclrtSynchronizeStream(dev.stream) == 0
    assert findings.refresh().checks() == ["initcheck"]
    assert "self (HardSwishGrad input 1) reads uninitialised device memory" in findings.text()
    assert "made by aclrtMalloc" in findings.text()
    assert aclGetRecentErrMsg().startswith("aclnn_py: sanitizer [initcheck]: self (HardSwishGrad input 1)")
    assert dev.read(o).tolist() == [1.0] * 8  # the poison is NaN, and the TBE kernel maps NaN x to 1.0
    aclDestroyTensor(x)


def test_partial_writes_are_tracked_per_byte(dev, findings):
    p = dev.malloc(16)
    assert aclrtMemcpy(p, 8, np.ones(2, np.float32), 8, 1) == 0  # first half written
    out = np.zeros(4, np.float32)
    assert aclrtMemcpy(out[:2], 8, p, 8, ACL_MEMCPY_DEVICE_TO_HOST) == 0
    assert not findings.refresh()
    assert aclrtMemcpy(out, 16, p, 16, ACL_MEMCPY_DEVICE_TO_HOST) == 0
    assert "offset 8" in findings.refresh().text()
    aclGetRecentErrMsg()


def test_strided_writes_switch_to_a_byte_mask(dev, findings):
    # a transposed output is written through a strided view: every element becomes initialised
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    g, s = dev.tensor(np.ones((2, 3), np.float32)), dev.tensor(x)
    p = dev.malloc(24)
    o = aclCreateTensor([2, 3], 2, 0, [1, 2], 0, 2, [3, 2], 2, p)
    assert dev.run(HB1, HB2, g, s, o) == (0, 0, 0)
    host = np.zeros(6, np.float32)
    assert aclrtMemcpy(host, 24, p, 24, ACL_MEMCPY_DEVICE_TO_HOST) == 0
    assert not findings.refresh()
    aclDestroyTensor(o)


# -- synccheck ---------------------------------------------------------------------------------


def test_reading_results_before_synchronize(dev, findings):
    o = _hardswish_queued(dev)
    host = np.zeros(8, np.float32)
    assert aclrtMemcpy(host, 32, o.storage.addr, 32, ACL_MEMCPY_DEVICE_TO_HOST) == 0
    text = findings.refresh().text()
    assert (
        "aclrtMemcpy at test_diagnostics.py:" in text
        and " reads [" in text
        and "kernel #0 HardSwishGrad" in text
        and "has not been synchronized" in text
    )
    if _policy() == "deferred":
        assert (host == 0).all()  # stale: the kernel has not run (eager ran it, thread may have)
    aclGetRecentErrMsg()


def test_freeing_memory_queued_work_uses(dev, findings):
    o = _hardswish_queued(dev)
    p = o.storage.addr
    dev.ptrs.remove(p)
    assert aclrtFree(p) == 0
    assert "aclrtFree at test_diagnostics.py:" in findings.refresh().text()
    aclGetRecentErrMsg()
    rc = aclrtSynchronizeStream(dev.stream)
    if _policy() == "deferred":  # the kernel runs now and writes freed memory (eager ran it before the free)
        assert rc == ACL_ERROR_RT_AICORE_EXCEPTION
        assert "freed memory" in aclGetRecentErrMsg()
    elif rc != 0:  # thread: whichever came first
        assert "freed memory" in aclGetRecentErrMsg()


# -- leakcheck ---------------------------------------------------------------------------------


def test_leaks_are_listed_with_where_they_were_made(findings):
    assert aclInit(None) == 0 and aclrtSetDevice(0) == 0
    p, s, e, h = Ref(), Ref(), Ref(), Ref()
    aclrtMalloc(p, 100, 0)
    aclrtCreateStream(s)
    aclrtCreateEvent(e)
    aclrtMallocHost(h, 10)
    t = aclCreateTensor([2], 1, 0, None, 0, 2, [2], 1, p.value)
    assert aclrtResetDevice(0) == 0
    text = findings.refresh().text()
    assert "aclrtResetDevice: 3 resource(s) of device 0 never released" in text
    assert (
        "never aclrtFree'd" in text and "never aclrtDestroyStream'ed" in text and "never aclrtDestroyEvent'ed" in text
    )
    assert "test_diagnostics.py" in text
    assert aclFinalize() == 0
    text = findings.refresh().text()
    assert "aclFinalize: 2 resource(s) of the process never released" in text
    assert "never aclrtFreeHost'ed" in text and "aclTensor [2] DT_FLOAT at 0x" in text
    _ = t


# -- modes -------------------------------------------------------------------------------------


def test_error_mode_makes_findings_fail_the_call(findings):
    sanitizer.set_mode("error")
    dev = Dev()
    try:
        o = _hardswish_queued(dev)
        host = np.zeros(8, np.float32)
        assert aclrtMemcpy(host, 32, o.storage.addr, 32, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_ERROR_RT_PARAM_INVALID
        assert "sanitizer [synccheck]" in aclGetRecentErrMsg()
        assert aclrtSynchronizeStream(dev.stream) == 0
        # a kernel that reads uninitialised memory fails its task in error mode
        p = dev.malloc(32)
        x = aclCreateTensor([8], 1, 0, None, 0, 2, [8], 1, p)
        g, out = dev.tensor(np.ones(8, np.float32)), dev.tensor(np.zeros(8, np.float32))
        ws, ex = Ref(0), Ref()
        assert HB1(g, x, out, ws, ex) == 0
        assert HB2(None, 0, ex.value, dev.stream) == 0
        assert aclrtSynchronizeStream(dev.stream) == ACL_ERROR_RT_AICORE_EXCEPTION
        assert "sanitizer [initcheck]" in aclGetRecentErrMsg()
        aclDestroyTensor(x)
        # a short workspace fails phase 2
        x2 = np.ones((4, 4), np.float32)
        g2, s2 = dev.tensor(x2), dev.tensor(x2)
        o2 = dev.strided(np.zeros((4, 4), np.float32), (4, 4), (1, 4))
        assert HB1(g2, s2, o2, ws, ex) == 0 and ws.value == 512
        small = dev.malloc(64)
        assert HB2(small, 64, ex.value, dev.stream) == ACLNN_ERR_PARAM_INVALID
        assert "smaller than the 512 bytes" in aclGetRecentErrMsg()
    finally:
        dev.close()
    # leaks make aclFinalize fail (after releasing everything)
    assert aclInit(None) == 0 and aclrtSetDevice(0) == 0
    leak = Ref()
    aclrtMalloc(leak, 8, 0)
    assert aclrtResetDevice(0) == ACL_ERROR_RELATIVE_RESOURCE_NOT_CLEARED
    aclGetRecentErrMsg()
    assert aclFinalize() == 0
    findings.refresh()


def test_off_mode_reports_nothing(findings):
    sanitizer.set_mode("off")
    dev = Dev()
    try:
        o = _hardswish_queued(dev)
        host = np.zeros(8, np.float32)
        assert aclrtMemcpy(host, 32, o.storage.addr, 32, ACL_MEMCPY_DEVICE_TO_HOST) == 0
    finally:
        dev.close()
    assert not findings.refresh()
    assert aclnn_py._errmsg.peek() == []  # (aclGetRecentErrMsg, without a context, would add its own two)


def test_unknown_sanitizer_mode():
    with pytest.raises(ValueError):
        sanitizer.set_mode("loud")


# -- call trace --------------------------------------------------------------------------------


def test_trace_context_manager_collects_calls_and_tasks(dev):
    with aclnn_py.trace.tracing() as events:
        o = _hardswish_queued(dev)
        assert aclrtSynchronizeStream(dev.stream) == 0
        aclrtMalloc(None, 4, 0)
    apis = [e.get("api") or e["event"] for e in events]
    # the task line comes when the kernel runs: at the synchronize under deferred, at once under
    # eager (before the call's own line, written when it returns), on the worker under thread
    assert sorted(apis[-4:-1]) == sorted(["aclnnHardswishBackward", "task", "aclrtSynchronizeStream"])
    assert apis[-5] == "aclnnHardswishBackwardGetWorkspaceSize" and apis[-1] == "aclrtMalloc"
    if _policy() == "deferred":
        assert apis[-4:-2] == ["aclnnHardswishBackward", "task"]
    task = next(e for e in events[-5:] if e["event"] == "task")
    p1 = events[-5]
    assert p1["args"]["self"].startswith("aclTensor(DT_FLOAT[8] strides=[1] offset=0 @0x12c")
    assert p1["args"]["executor"] == {"Ref": None} and p1["out"]["workspaceSize"] == 0
    assert task["task"] == "aclnnHardswishBackward: kernel #0 HardSwishGrad" and task["status"] == 0
    bad = events[-1]
    assert bad["ret"] == "ACL_ERROR_INVALID_PARAM" and bad["code"] == 100000
    assert bad["msg"] == "aclMallocMemInner failed because devPtr cannot be a NULL pointer."
    assert aclrtSynchronizeStream(dev.stream) == 0
    aclGetRecentErrMsg()
    _ = o


def test_trace_to_text_and_jsonl_files(dev, tmp_path):
    text_path, json_path = tmp_path / "run.log", tmp_path / "run.jsonl"
    with aclnn_py.trace.tracing(str(text_path)):
        _hardswish_queued(dev)
        assert aclrtSynchronizeStream(dev.stream) == 0
    with aclnn_py.trace.tracing(str(json_path)):
        assert aclrtSynchronizeStream(None) == 0
    lines = text_path.read_text().splitlines()
    assert any(" aclnnHardswishBackward(workspace=None, workspaceSize=0, executor=<aclOpExecutor" in ln for ln in lines)
    assert any("task on stream #" in ln and "kernel #0 HardSwishGrad -> ok" in ln for ln in lines)
    record = json.loads(json_path.read_text().splitlines()[0])
    assert record["api"] == "aclrtSynchronizeStream" and record["ret"] == "ACL_SUCCESS"


def test_trace_shows_failed_tasks(dev):
    p = dev.upload(np.ones(4, np.float32))
    big = aclCreateTensor([64], 1, 0, None, 0, 2, [64], 1, p)
    s, o = dev.tensor(np.ones(64, np.float32)), dev.tensor(np.ones(64, np.float32))
    with aclnn_py.trace.tracing() as events:
        assert dev.run(HB1, HB2, big, s, o)[2] == ACL_ERROR_RT_AICORE_EXCEPTION
    task = next(e for e in events if e["event"] == "task")
    assert task["status_name"] == "ACL_ERROR_RT_AICORE_EXCEPTION" and "past the end" in task["msg"]
    assert "FAILED ACL_ERROR_RT_AICORE_EXCEPTION" in aclnn_py.trace.render(task)
    aclGetRecentErrMsg()
    aclDestroyTensor(big)


def _run_sample(name: str, **env: str) -> subprocess.CompletedProcess[bytes]:
    full = {k: v for k, v in os.environ.items() if not k.startswith("ACLNN_PY_")} | env
    return subprocess.run([sys.executable, str(ROOT / "samples" / name)], capture_output=True, env=full, timeout=120)


def test_trace_environment_variable_writes_to_stderr():
    proc = _run_sample("test_aclnn_smooth_l1_loss_backward.py", ACLNN_PY_TRACE="1")
    assert proc.returncode == 0
    assert proc.stdout == (ROOT / "samples" / "test_aclnn_smooth_l1_loss_backward.out").read_bytes()
    err = proc.stderr.decode().splitlines()
    assert err[0] == "[aclnn_py #1] aclInit(configPath=None) -> ACL_SUCCESS"
    assert any("task on stream #" in ln and "SmoothL1LossGradV2 -> ok" in ln for ln in err)
    assert err[-1].endswith("aclFinalize() -> ACL_SUCCESS")


@pytest.mark.parametrize("policy", ["eager", "thread"])
@pytest.mark.parametrize(
    "sample",
    [
        "test_aclnn_smooth_l1_loss_backward.py",
        "test_aclnn_hardswish_backward.py",
        "test_aclnn_scaled_masked_softmax_backward.py",
        "test_aclnn_error_paths.py",
    ],
)
def test_every_policy_gives_the_same_printout(policy, sample):
    proc = _run_sample(sample, ACLNN_PY_STREAM=policy)
    assert proc.returncode == 0 and proc.stderr == b""
    assert proc.stdout == (ROOT / "samples" / sample).with_suffix(".out").read_bytes()


def test_sanitizer_error_mode_leaves_correct_samples_alone():
    proc = _run_sample("test_aclnn_scaled_masked_softmax_backward.py", ACLNN_PY_SANITIZER="error")
    assert proc.returncode == 0 and proc.stderr == b""


def test_tasks_dropped_after_a_fault_are_forgotten(dev, findings):
    x = np.ones((16, 16), np.float32)
    g, s = dev.tensor(x), dev.tensor(x)
    o = dev.strided(np.zeros((16, 16), np.float32), (16, 16), (1, 16))
    ws, ex = Ref(0), Ref()
    assert HB1(g, s, o, ws, ex) == 0
    small = dev.malloc(16)
    assert HB2(small, 16, ex.value, dev.stream) == 0  # too small: kernel #0 faults, the Transpose is dropped
    assert aclrtSynchronizeStream(dev.stream) == ACL_ERROR_RT_AICORE_EXCEPTION
    findings.refresh()
    count = len(findings)
    aclGetRecentErrMsg()
    dev.ptrs.remove(small)
    assert aclrtFree(small) == 0  # the dropped Transpose will never run: no synccheck finding
    assert len(findings.refresh()) == count
