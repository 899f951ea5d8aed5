"""Fourth audit round (device configuration and queries): the overflow-status calls refuse a
capturing stream (their error decorators, api_error.cc:5138-5154, 6200-6212), the V2 operator
timeout's credits stop at RT_STARS_MAX_KERNEL_CREDIT on every chip (task_execute_time.cc),
Ascend310P's aclrtSetOpWaitTimeout needs a context (config/dc eventWaitTimeout), and the id
mapping names rtsGetPhyDevIdByLogicDevId's own parameter."""

from __future__ import annotations

import pytest

from aclnn_py import aclFinalize, aclGetRecentErrMsg, aclInit
from aclnn_py._ref import Ref
from aclnn_py.runtime import api as A


@pytest.fixture
def chip(soc):
    def start(name: str) -> None:
        soc(name)
        assert aclInit(None) == 0 and A.aclrtSetDevice(0) == 0

    yield start
    A.aclrtResetDevice(0)
    aclFinalize()


def test_overflow_status_calls_refuse_a_capturing_stream(chip):
    chip("Ascend910B")
    st, out = Ref(), Ref()
    assert A.aclrtCreateStream(st) == 0 and A.aclrtMalloc(out, 64, 0) == 0
    assert A.aclmdlRICaptureBegin(st.value, 2) == 0
    calls = {
        "Obtaining the overflow status of tasks in all streams on the current device": (
            "rtGetDeviceSatStatus",
            lambda: A.aclrtGetOverflowStatus(out.value, 64, st.value),
        ),
        "Clearing the Float exception status flag of the NPU": (
            "rtCleanDeviceSatStatus",
            lambda: A.aclrtResetOverflowStatus(st.value),
        ),
        "Obtaining the Float exception status of the NPU": (
            "rtNpuGetFloatStatus",
            lambda: A.aclrtNpuGetFloatOverFlowStatus(out.value, 64, 0, st.value),
        ),
    }
    for desc, (rt_fn, call) in calls.items():
        assert call() == 107027, desc
        msg = aclGetRecentErrMsg()
        assert f"{desc} failed. Reason: Stream (stream_id={st.value.ident}) during the capture stage" in msg
        assert f"{rt_fn} execution failed, reason=stream is captured" in msg
    assert A.aclrtNpuClearFloatOverFlowStatus(0, st.value) == 107027
    aclGetRecentErrMsg()
    m = Ref()
    assert A.aclmdlRICaptureEnd(st.value, m) == 0 and A.aclmdlRIDestroy(m.value) == 0
    assert A.aclrtFree(out.value) == 0 and A.aclrtDestroyStream(st.value) == 0


@pytest.mark.parametrize(
    ("family", "expected"),
    [("Ascend910", 17454747090), ("Ascend310P", 545460846), ("Ascend910B", 1090921693)],
)
def test_the_v2_timeout_takes_at_most_254_credits_on_every_chip(chip, family, expected):
    chip(family)
    actual = Ref()
    for timeout in (0, 10**15):
        assert A.aclrtSetOpExecuteTimeOutV2(timeout, actual) == 0 and actual.value == expected


def test_ascend310p_op_wait_timeout_needs_a_context(soc):
    for family, code in (("Ascend310P", 107002), ("Ascend910B", 0)):
        soc(family)
        assert aclInit(None) == 0
        assert A.aclrtSetOpWaitTimeout(5) == code, family
        if code:
            assert "rtSetOpWaitTimeOut execution failed, the context is a null pointer." in aclGetRecentErrMsg()
        assert aclFinalize() == 0


def test_the_physical_id_of_a_user_id_names_the_logic_device_parameter(chip):
    chip("Ascend910B")
    assert A.aclrtGetPhyDevIdByUserDevId(-1, Ref()) != 0
    assert "parameter logicDevId" in aclGetRecentErrMsg()
