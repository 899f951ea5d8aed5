"""Profiling (acl/acl_prof.h): CANN's checks, codes and EK messages (hicann/runtime src/dfx/msprof:
prof_acl_api.cpp, msprofiler_acl_api.cpp, prof_acl_mgr.cpp, msproftx_adaptor.cpp,
msprof_tx_manager.cpp), and the profile a session writes: the timeline of the calls and tasks
between aclprofStart and aclprofStop, cut to the configured data types, with the msproftx stamps."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from aclnn_py import (
    Ref,
    aclGetRecentErrMsg,
    aclrtCreateStream,
    aclrtDestroyStream,
    aclrtFree,
    aclrtMalloc,
    aclrtMemsetAsync,
    aclrtSynchronizeStream,
)
from aclnn_py.runtime import api_prof as P
from aclnn_py.runtime import api_prof_tx as TX

ALL = P.ACL_PROF_ACL_API | P.ACL_PROF_TASK_TIME | P.ACL_PROF_MSPROFTX


@pytest.fixture
def prof(dev0, tmp_path):
    """Device 0 current; the profiler finalised after the test."""
    yield tmp_path
    P.aclprofFinalize()
    aclGetRecentErrMsg()


def ek(eid: str, title: str, text: str) -> str:
    return f"{title}({eid}): {text}\n"


def _init(path: Path) -> None:
    text = str(path)
    assert P.aclprofInit(text, len(text)) == 0


def _start(path: Path, types: int = ALL) -> P.aclprofConfig:
    _init(path)
    config = P.aclprofCreateConfig([0], 1, 0, None, types)
    assert isinstance(config, P.aclprofConfig)
    assert P.aclprofStart(config) == 0
    return config


def _stop(config: P.aclprofConfig) -> dict:
    assert P.aclprofStop(config) == 0
    assert P.aclprofDestroyConfig(config) == 0
    return json.loads(Path(P.written_files()[-1]).read_text())


def _some_work() -> None:
    stream, dev = Ref(), Ref()
    assert aclrtCreateStream(stream) == 0 and aclrtMalloc(dev, 256, 0) == 0
    assert aclrtMemsetAsync(dev.value, 256, 7, 256, stream.value) == 0
    assert aclrtSynchronizeStream(stream.value) == 0
    assert aclrtFree(dev.value) == 0 and aclrtDestroyStream(stream.value) == 0


def test_init_checks_in_cann_order(prof):
    assert P.aclprofInit(None, 4) == 100000
    assert aclGetRecentErrMsg() == ek(
        "EK0006",
        "Invalid_Argument_Null_Pointer",
        "aclprofInit failed because parameter profilerResultPath cannot be a null pointer.",
    )
    assert P.aclprofInit("/tmp", 0) == 100000
    assert aclGetRecentErrMsg() == ek(
        "EK0001",
        "Invalid_Argument",
        "Value 0 for parameter profilerResultPath length is invalid. Reason: Length of profilerResultPath should "
        "be in [1, 4096).",
    )
    assert P.aclprofInit("/tmp", 4096) == 100000
    aclGetRecentErrMsg()
    assert P.aclprofInit("/tmp", 3) == 100000
    assert "Length of profilerResultPath does not equal to strlen(profilerResultPath)" in aclGetRecentErrMsg()
    _init(prof)
    text = str(prof)
    assert P.aclprofInit(text, len(text)) == 100002  # ACL_ERROR_REPEAT_INITIALIZE
    assert aclGetRecentErrMsg() == ek(
        "EK0002",
        "Invalid_Argument_API_Call_Sequence",
        "Please call the APIs in the following order: call aclprofInit first, then aclprofStart.",
    )
    assert P.aclprofFinalize() == 0
    assert P.aclprofFinalize() == 0  # without init: a no-op that succeeds


def test_create_config_checks(prof):
    def refused(*args: object) -> str:
        assert P.aclprofCreateConfig(*args) is None
        msg = aclGetRecentErrMsg()
        assert msg is not None
        return msg

    assert "aclprofCreateConfig failed because parameter deviceIdList cannot be a null pointer." in refused(
        None, 1, 0, None, ALL
    )
    assert "Value *aicoreEvents for parameter aicoreEvents is invalid. Reason: The value of aicoreEvents must be " in (
        refused([0], 1, 0, 0x1234, ALL)
    )
    assert "Value 65 for parameter deviceNums is invalid. Reason: The device number should be less than 64." in (
        refused(list(range(65)), 65, 0, None, ALL)
    )
    assert "Value 9 for parameter device id is invalid. Reason: The device id should be in range [0,8)." in refused(
        [9], 1, 0, None, ALL
    )
    assert "Value 0 for parameter device id is invalid. Reason: device id is duplicatedly set." in refused(
        [0, 0], 2, 0, None, ALL
    )
    assert "Value 0 for parameter deviceNums is invalid. Reason: deviceNums can not be 0." in refused(
        None, 0, 0, None, P.ACL_PROF_ACL_API
    )
    # msproftx alone needs no device; the task-time levels bring the lower ones and the training trace
    assert P.aclprofCreateConfig(None, 0, 0, None, P.ACL_PROF_MSPROFTX) is not None
    config = P.aclprofCreateConfig(np.array([1, 0], dtype=np.uint32).tolist(), 2, 0, None, P.ACL_PROF_TASK_TIME_L3)
    assert config is not None and config.devices == [1, 0, P.HOST_ID]
    assert config.data_types & 0x2 and config.data_types & 0x800 and config.data_types & 0x2000
    assert config.data_types & P.ACL_PROF_TRAINING_TRACE
    stats = P.aclprofCreateConfig([0], 1, 0, None, P.ACL_PROF_API_STATS | P.ACL_PROF_TASK_TIME)
    assert stats is not None and stats.data_types == P.ACL_PROF_ACL_API | P.ACL_PROF_API_STATS
    assert P.aclprofDestroyConfig(None) == 100000
    assert "aclprofDestroyConfig failed because parameter profilerConfig cannot be a null pointer." in (
        aclGetRecentErrMsg()
    )


def test_a_session_writes_the_timeline_of_its_calls_and_tasks(prof):
    config = _start(prof, P.ACL_PROF_ACL_API | P.ACL_PROF_TASK_TIME)
    _some_work()
    doc = _stop(config)
    path = Path(P.written_files()[-1])
    assert path.parent.name == "mindstudio_profiler_output" and path.parent.parent.name.startswith("PROF_")
    assert path.parent.parent.parent == prof
    names = [e["name"] for e in doc["traceEvents"] if e["ph"] == "X"]
    assert names[:3] == ["aclrtCreateStream", "aclrtMalloc", "aclrtMemsetAsync"]
    assert "aclrtMemsetAsync(256 bytes)" in names  # the fill task on its stream's row
    assert doc["otherData"]["profiler"]["devices"] == [0]


def test_the_data_types_choose_what_is_kept(prof):
    config = _start(prof, P.ACL_PROF_ACL_API)
    _some_work()
    doc = _stop(config)
    assert {e["cat"] for e in doc["traceEvents"] if e["ph"] == "X"} == {"api"}
    assert not [e for e in doc["traceEvents"] if e["ph"] in ("s", "f")]
    config = P.aclprofCreateConfig([0], 1, 0, None, P.ACL_PROF_TASK_TIME)
    assert P.aclprofStart(config) == 0
    _some_work()
    doc = _stop(config)
    assert {e["cat"] for e in doc["traceEvents"] if e["ph"] == "X"} == {"fill"}


def test_stamps_become_events(prof):
    config = _start(prof)
    stamp = TX.aclprofCreateStamp()
    assert stamp != 0
    assert TX.aclprofSetStampTraceMessage(stamp, "step", 4) == 0
    assert TX.aclprofMark(stamp) == 0
    assert TX.aclprofPush(stamp) == 0
    _some_work()
    assert TX.aclprofPop() == 0
    range_id = Ref()
    assert TX.aclprofRangeStart(stamp, range_id) == 0 and range_id.value == 0
    assert TX.aclprofRangeStop(range_id.value) == 0
    TX.aclprofDestroyStamp(stamp)
    doc = _stop(config)
    tx = [e for e in doc["traceEvents"] if e.get("cat") == "msproftx"]
    assert [(e["ph"], e["name"]) for e in tx] == [("i", "step"), ("X", "step"), ("X", "step")]
    push = tx[1]
    calls = [
        e for e in doc["traceEvents"] if e.get("cat") == "api" and push["ts"] <= e["ts"] < push["ts"] + push["dur"]
    ]
    assert [e["name"] for e in calls][:4] == ["aclprofPush", "aclrtCreateStream", "aclrtMalloc", "aclrtMemsetAsync"]


def test_stamp_failures(prof):
    assert TX.aclprofCreateStamp() == 0  # before aclprofStart with ACL_PROF_MSPROFTX
    assert aclGetRecentErrMsg() == ek(
        "EK0002",
        "Invalid_Argument_API_Call_Sequence",
        "Please call the APIs in the following order: call aclprofStart first, then aclprofCreateStamp.",
    )
    assert TX.aclprofMark(None) == -1 and aclGetRecentErrMsg() is None  # not initialised: a log line only
    config = _start(prof)
    stamp = TX.aclprofCreateStamp()
    assert TX.aclprofSetStampTraceMessage(stamp, "x" * 128, 128) == -1
    assert "aclprofSetStampTraceMessage failed because parameter stamp cannot be a null pointer." in (
        aclGetRecentErrMsg()
    )
    assert TX.aclprofMark(None) == -1
    assert "aclprofMark failed because parameter stamp cannot be a null pointer." in aclGetRecentErrMsg()
    assert TX.aclprofPop() == -1
    assert "call aclprofPush first, then aclprofPop." in aclGetRecentErrMsg()
    assert TX.aclprofRangeStop(5) == -1
    assert "call aclprofRangeStart first, then aclprofRangeStop." in aclGetRecentErrMsg()
    assert TX.aclprofRangeStart(stamp, None) == 100000
    assert "aclprofRangeStart failed because parameter rangeId cannot be a null pointer." in aclGetRecentErrMsg()
    stamps = [TX.aclprofCreateStamp() for _ in range(99)]
    assert all(stamps) and TX.aclprofCreateStamp() == 0  # a pool of 100
    for s in [stamp, *stamps]:
        TX.aclprofDestroyStamp(s)
    assert TX.aclprofCreateStamp() != 0
    _stop(config)


def test_set_config_checks_and_the_default_path(prof, monkeypatch):
    assert P.aclprofSetConfig(0, "1", 1) == 100000
    assert "Value 0 for parameter configType is invalid. Reason: configType should be greater than " in (
        aclGetRecentErrMsg()
    )
    assert P.aclprofSetConfig(P.ACL_PROF_PATH, "x", 257) == 100000
    assert "configLength should be less than or equal to 256" in aclGetRecentErrMsg()
    assert P.aclprofSetConfig(P.ACL_PROF_PATH, None, 3) == 100000
    assert "aclprofSetConfig failed because parameter config cannot be a null pointer." in aclGetRecentErrMsg()
    assert P.aclprofSetConfig(P.ACL_PROF_PATH, "abc", 2) == 100000
    assert "configLength does not equal to strlen(config)" in aclGetRecentErrMsg()
    where = str(prof / "from-set-config")
    assert P.aclprofSetConfig(P.ACL_PROF_PATH, where, len(where)) == 0
    config = P.aclprofCreateConfig([0], 1, 0, None, P.ACL_PROF_ACL_API)
    assert P.aclprofStart(config) == 0  # no aclprofInit: the profiler initialises itself there
    _some_work()
    _stop(config)
    assert P.written_files()[-1].startswith(where)
    P._S.configured_path = ""


def test_start_checks(prof):
    _init(prof)
    config = P.aclprofCreateConfig([0], 1, 0, None, P.ACL_PROF_ACL_API | 0x10000)  # PROF_CPU: not accepted
    assert P.aclprofStart(config) == 200007  # ACL_ERROR_PROF_MODULES_UNSUPPORTED
    assert "supported switch is:0x" in aclGetRecentErrMsg()
    first = P.aclprofCreateConfig([0], 1, 0, None, P.ACL_PROF_ACL_API)
    other = P.aclprofCreateConfig([0], 1, 0, None, P.ACL_PROF_ACL_API | P.ACL_PROF_TASK_TIME)
    assert P.aclprofStart(first) == 0
    assert P.aclprofStart(first) == 0  # the same configuration again
    assert P.aclprofStart(other) == 100010  # ACL_ERROR_INVALID_PROFILING_CONFIG
    assert "which is different from the last startup" in aclGetRecentErrMsg()
    assert P.aclprofStop(first) == 0
    assert P.aclprofStop(first) == 0  # nothing running: success


def test_step_info_and_mark_ex(prof):
    config = _start(prof)
    step = P.aclprofCreateStepInfo()
    stream = Ref()
    assert aclrtCreateStream(stream) == 0
    assert P.aclprofGetStepTimestamp(step, P.ACL_STEP_START, stream.value) == 0
    assert P.aclprofGetStepTimestamp(step, P.ACL_STEP_START, stream.value) == 100000
    assert TX.aclprofMarkEx("loss", 4, stream.value) == 0
    assert TX.aclprofMarkEx("loss", 3, stream.value) == -1
    assert "Value nullptr for parameter message is invalid. Reason: Invalid input param for markEx." in (
        aclGetRecentErrMsg()
    )
    assert P.aclprofGetStepTimestamp(step, P.ACL_STEP_END, stream.value) == 0
    assert aclrtSynchronizeStream(stream.value) == 0 and aclrtDestroyStream(stream.value) == 0
    P.aclprofDestroyStepInfo(step)
    doc = _stop(config)
    names = [e["name"] for e in doc["traceEvents"] if e["ph"] in ("X", "i")]
    assert "aclprofMarkEx(loss)" in names and "loss" in names
    assert "aclprofGetStepTimestamp(step 1 start)" in names


def test_str2id_is_stable(prof):
    assert TX.aclprofStr2Id("matmul") == TX.aclprofStr2Id(b"matmul") != TX.aclprofStr2Id("add")


def test_an_aclnn_call_is_profiled_with_its_kernels(tmp_path) -> None:
    from helpers import Dev

    from aclnn_py import aclCreateScalar, aclDestroyScalar, aclnnAdd, aclnnAddGetWorkspaceSize

    dev = Dev()
    try:
        config = _start(tmp_path, P.ACL_PROF_ACL_API | P.ACL_PROF_TASK_TIME)
        a = np.arange(4, dtype=np.float32)
        ta, tb, out = dev.tensor(a), dev.tensor(a), dev.tensor(np.zeros(4, np.float32))
        alpha = aclCreateScalar(np.array([2.0], np.float32), 0)
        assert dev.run(aclnnAddGetWorkspaceSize, aclnnAdd, ta, tb, alpha, out) == (0, 0, 0)
        aclDestroyScalar(alpha)
        doc = _stop(config)
        kernels = [e for e in doc["traceEvents"] if e.get("cat") == "kernel"]
        assert kernels and all(e["pid"] == 2 for e in kernels)  # on the device rows
        assert [e["name"] for e in kernels] == ["kernel #0 Axpy"]  # alpha 2: one Axpy kernel
        calls = [e["name"] for e in doc["traceEvents"] if e.get("cat") == "api"]
        assert "aclnnAddGetWorkspaceSize" in calls and "aclnnAdd" in calls
        assert any(e["ph"] == "s" and e["name"] == "aclnnAdd" for e in doc["traceEvents"])  # launch flow
        assert dev.read(out).tolist() == (a + 2 * a).tolist()
    finally:
        P.aclprofFinalize()
        dev.close()


def test_a_result_directory_that_cannot_be_made_is_refused_at_start(prof) -> None:
    blocker = prof / "file"
    blocker.write_text("x")
    path = str(blocker / "sub")
    assert P.aclprofInit(path, len(path)) == 0  # the path is only recorded
    config = P.aclprofCreateConfig([0], 1, 0, None, P.ACL_PROF_ACL_API)
    assert P.aclprofStart(config) == 100003  # MaterializeResultPath
    assert aclGetRecentErrMsg() == ek(
        "EK0001",
        "Invalid_Argument",
        f"Value {path} for parameter path of profiling output is invalid. Reason: The operation create dir on "
        f"directory {path} is abnormal. [Error 20] Not a directory.",
    )
    assert P.aclprofDestroyConfig(config) == 0


def test_push_and_range_start_refuse_a_null_stamp_before_the_init_check(prof) -> None:
    # ProfAclPush / ProfAclRangeStart check their pointers (ReportNullParam: EK0006, 100000) before
    # MsprofTxManager's init check (msproftx_adaptor.cpp:116-125, 138-150)
    for call, args, param in (
        (TX.aclprofPush, (None,), "stamp"),
        (TX.aclprofRangeStart, (None, Ref()), "stamp"),
        (TX.aclprofRangeStart, (0, None), "stamp"),
    ):
        assert call(*args) == 100000
        name = call.__name__
        assert aclGetRecentErrMsg() == ek(
            "EK0006",
            "Invalid_Argument_Null_Pointer",
            f"{name} failed because parameter {param} cannot be a null pointer.",
        )
    config = _start(prof)
    stamp = TX.aclprofCreateStamp()
    assert TX.aclprofPush(None) == 100000
    assert "aclprofPush failed because parameter stamp cannot be a null pointer." in aclGetRecentErrMsg()
    TX.aclprofDestroyStamp(stamp)
    _stop(config)
    assert P.aclprofFinalize() == 0  # MsprofTxUnInit
    assert TX.aclprofRangeStart(stamp, None) == 100000  # rangeId too, before the init check
    assert "aclprofRangeStart failed because parameter rangeId cannot be a null pointer." in aclGetRecentErrMsg()
    assert TX.aclprofPush(stamp) == -1 and aclGetRecentErrMsg() is None  # a stamp, not inited: a log line only


def test_init_refuses_a_path_with_a_shell_or_control_character_without_a_report(prof) -> None:
    # ProfAclMgr::ProfAclInit -> Utils::CheckPathWithInvalidChar (prof_acl_mgr.cpp:862,
    # common/utils/utils.cpp:1625-1638): 100003 ACL_ERROR_INVALID_FILE and a log line only
    for ch in "\n\f\r\b\t\v\x7f\"'\\%><|&$;`":
        text = f"{prof}/out{ch}dir"
        assert P.aclprofInit(text, len(text.encode())) == 100003, repr(ch)
        assert aclGetRecentErrMsg() is None
    _init(prof)  # not initialised by the refused calls
