"""Stop 31: the failed task's report in a context stopped on failure is handed out once.
Stream::EnterFailureAbort moves the recycle thread's reports to the context (PushContextErrMsg,
hicann/runtime stream.cc:4342-4344, only for Stream::IsSeparateSendAndRecycle streams: Stars chips,
not RT_STREAM_AICPU / CP_PROCESS_USE ones); Context::CheckStatus and CheckTaskSend pop them into the
reports of the first call that meets the failure (PopContextErrMsg, context.cc:3556-3570, 2914-2917,
2952-2955); later calls get the code alone (here: the emulator's note)."""

from __future__ import annotations

import pytest
from rt_streams import failing_copy, last_error, new_stream

from aclnn_py import (
    ACL_ERROR_RT_SYS_DMA,
    ACL_STOP_ON_FAILURE,
    ACL_STREAM_CPU_SCHEDULE,
    ACL_STREAM_STATUS_NOT_READY,
    Ref,
    aclGetRecentErrMsg,
)
from aclnn_py.runtime import api as A

_TASK = "aclrtMemcpyAsync task failed"
_NOTE = "aclnn_py: the context stopped on failure (ACL_STOP_ON_FAILURE) after a task failed ("
_ACCEPTS = "); it accepts no new work\n"
_SYNC_TAIL = "); synchronizing or querying its streams returns that failure until aclrtDeviceTaskAbort\n"


def _fail_unsynchronized(st) -> None:
    """STOP mode, then a copy that fails when a query makes the deferred policy run it: the context
    stops, nobody has reported the task yet."""
    assert A.aclrtSetStreamFailureMode(st, ACL_STOP_ON_FAILURE) == 0
    failing_copy(st)
    status = Ref()
    assert A.aclrtStreamQuery(st, status) == 0 and status.value == ACL_STREAM_STATUS_NOT_READY
    aclGetRecentErrMsg()


def _reports(msg: str | None) -> list[str]:
    """The reports of an aclGetRecentErrMsg text (its TraceBack lines; a single report is the text)."""
    assert msg is not None
    lines = msg.splitlines()
    if "TraceBack (most recent call last):" not in lines:
        return [msg.rstrip("\n")]
    return [line.strip() for line in lines[lines.index("TraceBack (most recent call last):") + 1 :]]


def _memset(st, p) -> int:
    return int(A.aclrtMemsetAsync(p.value, 16, 1, 16, st))


def test_the_first_submission_carries_the_task_report_once(deferred, dev0, findings):
    """The first refusal (a submission on another stream) gets the task's report, then the note;
    the next ones, the failed stream's synchronize too, the note alone."""
    st, other = new_stream(), new_stream()
    _fail_unsynchronized(st)
    p = Ref()
    assert A.aclrtMalloc(p, 16, 0) == 0
    assert _memset(other, p) == ACL_ERROR_RT_SYS_DMA
    first = _reports(aclGetRecentErrMsg())
    assert len(first) == 2 and first[0].startswith(_TASK) and first[1].startswith(_NOTE[len("aclnn_py: ") :])
    assert last_error() == ACL_ERROR_RT_SYS_DMA
    assert _memset(other, p) == ACL_ERROR_RT_SYS_DMA
    msg = aclGetRecentErrMsg()
    assert msg.startswith(_NOTE) and msg.endswith(_ACCEPTS) and "TraceBack" not in msg
    assert A.aclrtSynchronizeStream(st) == ACL_ERROR_RT_SYS_DMA  # its task was reported already
    msg = aclGetRecentErrMsg()
    assert msg.startswith(_NOTE) and msg.endswith(_SYNC_TAIL) and "TraceBack" not in msg
    findings.refresh()
    assert A.aclrtDeviceTaskAbort(0, 0) == 0
    assert A.aclrtFree(p.value) == 0
    assert A.aclrtDestroyStreamForce(st) == 0 and A.aclrtDestroyStreamForce(other) == 0


@pytest.mark.parametrize("which", ["other stream", "default stream", "device"])
def test_the_first_synchronize_of_another_stream_carries_the_task_report(deferred, dev0, findings, which):
    """Context::CheckStatus pops too: the first synchronize that meets the failure, whichever
    stream it waits for, gets the task's report; a second, the note alone."""
    st, other = new_stream(), new_stream()
    _fail_unsynchronized(st)
    sync = {
        "other stream": lambda: A.aclrtSynchronizeStream(other),
        "default stream": lambda: A.aclrtSynchronizeStream(None),
        "device": A.aclrtSynchronizeDevice,
    }[which]
    assert sync() == ACL_ERROR_RT_SYS_DMA
    first = _reports(aclGetRecentErrMsg())
    assert len(first) == 2 and first[0].startswith(_TASK) and first[1].endswith(_SYNC_TAIL.strip())
    assert sync() == ACL_ERROR_RT_SYS_DMA
    msg = aclGetRecentErrMsg()
    assert msg.startswith(_NOTE) and msg.endswith(_SYNC_TAIL) and "TraceBack" not in msg
    findings.refresh()
    assert A.aclrtDeviceTaskAbort(0, 0) == 0
    assert A.aclrtDestroyStreamForce(st) == 0 and A.aclrtDestroyStreamForce(other) == 0


def test_a_query_first_carries_the_task_report(deferred, dev0, findings):
    st, other = new_stream(), new_stream()
    _fail_unsynchronized(st)
    status = Ref(99)
    assert A.aclrtStreamQuery(other, status) == ACL_ERROR_RT_SYS_DMA and status.value == 99
    first = _reports(aclGetRecentErrMsg())
    assert len(first) == 2 and first[0].startswith(_TASK)
    assert A.aclrtStreamQuery(other, status) == ACL_ERROR_RT_SYS_DMA
    assert "TraceBack" not in aclGetRecentErrMsg()
    findings.refresh()
    assert A.aclrtDeviceTaskAbort(0, 0) == 0
    assert A.aclrtDestroyStreamForce(st) == 0 and A.aclrtDestroyStreamForce(other) == 0


def test_the_failed_stream_synchronized_first_reports_its_task_once(deferred, dev0, findings):
    """Unchanged: the failed stream's synchronize reports the task; nothing is left to replay."""
    st, other = new_stream(), new_stream()
    _fail_unsynchronized(st)
    assert A.aclrtSynchronizeStream(st) == ACL_ERROR_RT_SYS_DMA
    assert _TASK in aclGetRecentErrMsg()
    p = Ref()
    assert A.aclrtMalloc(p, 16, 0) == 0
    assert _memset(other, p) == ACL_ERROR_RT_SYS_DMA
    msg = aclGetRecentErrMsg()
    assert msg.startswith(_NOTE) and msg.endswith(_ACCEPTS) and "TraceBack" not in msg
    findings.refresh()
    assert A.aclrtDeviceTaskAbort(0, 0) == 0
    assert A.aclrtFree(p.value) == 0
    assert A.aclrtDestroyStreamForce(st) == 0 and A.aclrtDestroyStreamForce(other) == 0


def test_no_replay_without_a_recycle_thread(deferred, chip, findings):
    """Ascend910 is no Stars chip (IsSeparateSendAndRecycle false: nothing is pushed): a submission
    gets the note alone and the failed stream's synchronize still reports its task."""
    chip("Ascend910")
    st, other = new_stream(), new_stream()
    _fail_unsynchronized(st)
    p = Ref()
    assert A.aclrtMalloc(p, 16, 0) == 0
    assert _memset(other, p) == ACL_ERROR_RT_SYS_DMA
    assert "TraceBack" not in aclGetRecentErrMsg()
    assert A.aclrtSynchronizeStream(st) == ACL_ERROR_RT_SYS_DMA
    assert _TASK in aclGetRecentErrMsg()
    findings.refresh()
    assert A.aclrtFree(p.value) == 0
    assert A.aclrtDestroyStreamForce(st) == 0 and A.aclrtDestroyStreamForce(other) == 0


def test_no_replay_for_a_cpu_schedule_stream(deferred, dev0, findings):
    """An RT_STREAM_AICPU stream (ACL_STREAM_CPU_SCHEDULE) does not push its reports: nothing to
    replay (its synchronize returns 0 at once, so its failure is never reported)."""
    st, other = new_stream(ACL_STREAM_CPU_SCHEDULE), new_stream()
    assert A.aclrtSetStreamFailureMode(st, ACL_STOP_ON_FAILURE) == 0
    failing_copy(st)
    assert A.aclrtSynchronizeStream(st) == 0  # not waited for: the copy runs, unreported
    aclGetRecentErrMsg()
    p = Ref()
    assert A.aclrtMalloc(p, 16, 0) == 0
    assert _memset(other, p) == ACL_ERROR_RT_SYS_DMA
    msg = aclGetRecentErrMsg()
    assert msg.startswith(_NOTE) and "TraceBack" not in msg
    findings.refresh()
    assert A.aclrtDeviceTaskAbort(0, 0) == 0
    assert A.aclrtFree(p.value) == 0
    assert A.aclrtDestroyStreamForce(st) == 0 and A.aclrtDestroyStreamForce(other) == 0
