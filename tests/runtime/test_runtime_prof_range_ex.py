"""aclprofRangePushEx / aclprofRangePop (acl_prof.h): the tensor-info range of CANN's ProfTxPlugin
(hicann/runtime src/dfx/msprof/collector/dvvp/profapi/src/prof_tx_plugin.cpp): one slot, the stream's
op-info cache switch, the report at the midpoint of push and pop."""

from __future__ import annotations

import pytest
from test_runtime_prof import _start, _stop

from aclnn_py import Ref, aclGetRecentErrMsg, aclrtCreateStream, aclrtDestroyStream
from aclnn_py.runtime import api as A
from aclnn_py.runtime import api_prof as P
from aclnn_py.runtime import api_prof_range_ex as X
from aclnn_py.runtime import api_stream_attr as SA


@pytest.fixture
def prof(dev0, tmp_path):
    yield tmp_path
    P.aclprofFinalize()
    X.reset()
    aclGetRecentErrMsg()


@pytest.fixture
def stream(prof):
    s = Ref()
    assert aclrtCreateStream(s) == 0
    yield s.value
    assert aclrtDestroyStream(s.value) == 0


def _attr(stream: object, message_type: int = X.ACL_PROF_MESSAGE_TYPE_TENSOR_INFO) -> X.aclprofEventAttributes:
    tensors = [
        X.aclprofTensor(0, 2, 0, 2, [4, 2, 9, 9, 9, 9, 9, 9]),  # shapeDim 2: the rest is not read
        X.aclprofTensor(1, 2, 0, 1, [8]),
    ]
    info = X.aclprofTensorInfo(11, 22, 0, 2, 1, 8, stream, tensors)
    return X.aclprofEventAttributes(messageType=message_type, tensorInfo=info)


def test_pop_needs_a_push_and_push_a_tensor_info_message(prof, stream):
    """ProfTxPlugin's refusals are MSPROF_LOGE lines: codes without a report."""
    assert X.aclprofRangePop() == 100000
    assert aclGetRecentErrMsg() is None
    assert X.aclprofRangePushEx(None) == 100000
    assert aclGetRecentErrMsg() is None
    assert X.aclprofRangePushEx(_attr(stream, 1)) == -1
    assert aclGetRecentErrMsg() is None
    assert X.aclprofRangePushEx(_attr(stream)) == 0  # no session needed: the report goes nowhere
    assert X.aclprofRangePop() == 0
    assert X.aclprofRangePop() == 0  # the slot is kept: a second pop reports again


def test_a_session_gets_the_tensor_info_at_the_midpoint(prof, stream):
    config = _start(prof)
    assert X.aclprofRangePushEx(_attr(stream)) == 0
    assert X.aclprofRangePop() == 0
    doc = _stop(config)
    (event,) = [e for e in doc["traceEvents"] if e.get("name") == "tensor info"]
    calls = {e["name"]: e for e in doc["traceEvents"] if e.get("name") in ("aclprofRangePushEx", "aclprofRangePop")}
    push, pop = calls["aclprofRangePushEx"], calls["aclprofRangePop"]
    assert event["ts"] == (push["ts"] + pop["ts"] + pop["dur"]) / 2 and event["ph"] == "i"
    assert event["args"] == {
        "api": "aclprofRangePushEx/aclprofRangePop", "opNameId": 11, "opTypeId": 22, "kernelType": 1, "blockNums": 8,
        "tensors": [
            {"type": 0, "format": 2, "dataType": 0, "shape": [4, 2]},
            {"type": 1, "format": 2, "dataType": 0, "shape": [8]},
        ],
    }  # fmt: skip


def test_a_stream_caching_op_info_hands_it_to_the_runtime_not_the_profile(prof, stream):
    """ReportCacheOpInfo2RT: rtCacheLastTaskOpInfo takes the op info for the thread's last task of a
    capture; outside one it fails (its own report) and the pop answers PROFILING_FAILED."""
    value = SA.aclrtStreamAttrValue()
    value.cacheOpInfoSwitch = 1
    assert SA.aclrtSetStreamAttribute(stream, SA.ACL_STREAM_ATTR_CACHE_OP_INFO, value) == 0
    config = _start(prof)
    assert X.aclprofRangePushEx(_attr(stream)) == 0
    assert X.aclprofRangePop() == -1
    assert "aclrtCacheLastTaskOpInfo" in aclGetRecentErrMsg()  # the runtime's report of why
    buf = Ref()
    assert A.aclrtMalloc(buf, 64, 0) == 0
    assert A.aclmdlRICaptureBegin(stream, 2) == 0
    assert A.aclrtMemsetAsync(buf.value, 64, 0, 64, stream) == 0  # the thread's last task, captured
    assert X.aclprofRangePop() == 0, aclGetRecentErrMsg()
    model = Ref()
    assert A.aclmdlRICaptureEnd(stream, model) == 0 and A.aclmdlRIDestroy(model.value) == 0
    assert A.aclrtFree(buf.value) == 0
    doc = _stop(config)
    assert not [e for e in doc["traceEvents"] if e.get("name") == "tensor info"]


def test_a_stream_the_runtime_refuses_fails_the_pop(prof, stream):
    gone = Ref()
    assert aclrtCreateStream(gone) == 0 and aclrtDestroyStream(gone.value) == 0
    assert X.aclprofRangePushEx(_attr(gone.value)) == 0
    assert X.aclprofRangePop() == -1
    assert aclGetRecentErrMsg()  # the runtime's own report of the stream
    short = _attr(stream)
    assert short.tensorInfo is not None
    short.tensorInfo.tensorNum = 3
    assert X.aclprofRangePushEx(short) == 0
    assert X.aclprofRangePop() == 100000
    assert "tensorNum is 3, the tensor info holds 2 tensors" in aclGetRecentErrMsg()
