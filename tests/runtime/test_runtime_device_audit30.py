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


# ---------------------------------------------------------------------------------------------
# devcfg: the stream-level overflow clear with a NULL stream and no context; the SIMT stack sizes
# ---------------------------------------------------------------------------------------------

_CURSTM_NULL = "Clearing the Float exception status flag of the NPU failed because curStm cannot be a NULL pointer."


@pytest.mark.parametrize("family", ["Ascend910B", "Ascend950"])
def test_the_npu_clear_with_a_null_stream_and_no_context_is_a_null_stream(soc, family):
    """ApiErrorDecorator::NpuClearFloatStatus (api_error.cc:5146) takes Runtime::GetCurStream
    (runtime.cc:6017): no context leaves the stream NULL (EE1018), refused as a NULL pointer
    (EE1004, 107000), before the implementation's own context check (107002)."""
    from rt_texts import INDENT, NO_CONTEXT_HEADLINE, TRACEBACK

    soc(family)
    assert aclInit(None) == 0
    for rt_fn, call in (
        ("rtNpuClearFloatStatus", lambda: A.aclrtNpuClearFloatOverFlowStatus(0, None)),
        ("rtCleanDeviceSatStatus", lambda: A.aclrtResetOverflowStatus(None)),  # DEVICE_SAT_STATUS_STREAM_LEVEL
        ("rtCleanDeviceSatStatus", lambda: A.aclrtResetFloatOverflowStatus(None)),
    ):
        assert call() == 107000, rt_fn
        assert A.aclrtPeekAtLastError(0) == 107000
        assert aclGetRecentErrMsg().startswith(
            NO_CONTEXT_HEADLINE
            + TRACEBACK
            + f"{INDENT}{_CURSTM_NULL}\n"
            + f"{INDENT}The argument is invalid. Reason: {rt_fn} execution failed.\n"
        )
    # the siblings have no such step: their implementations' context check (107002) decides
    assert A.aclrtNpuGetFloatOverFlowStatus(0x1000, 64, 0, None) == 107002
    assert "rtNpuGetFloatStatus execution failed, the context is a null pointer." in aclGetRecentErrMsg()
    assert A.aclrtGetOverflowStatus(0x1000, 64, None) == 107002
    assert "rtGetDeviceSatStatus execution failed, the context is a null pointer." in aclGetRecentErrMsg()
    assert aclFinalize() == 0


def test_the_npu_clear_with_a_null_stream_ignores_the_default_device(soc, tmp_path):
    """GetCurStream's Runtime::CurrentContext() never makes the aclInit default device current;
    on a context-level chip (ApiImpl::CleanDeviceSatStatus) the implementation's does."""
    cfg = tmp_path / "acl.json"
    cfg.write_text('{"defaultDevice": {"default_device": "0"}}')
    for family, code in (("Ascend910B", 107000), ("Ascend910", 0)):
        soc(family)
        assert aclInit(str(cfg)) == 0
        assert A.aclrtResetOverflowStatus(None) == code, family
        if code:
            assert _CURSTM_NULL in aclGetRecentErrMsg()
        assert aclFinalize() == 0


def test_the_npu_clear_with_a_null_stream_clears_the_default_streams_status(chip):
    chip("Ascend910B")
    area, out = Ref(), Ref()
    assert A.aclrtCtxGetFloatOverflowAddr(area) == 0 and A.aclrtMalloc(out, 64, 0) == 0
    assert A.aclrtMemset(area.value, 64, 7, 64) == 0
    assert A.aclrtNpuClearFloatOverFlowStatus(0, None) == 0
    assert A.aclrtNpuGetFloatOverFlowStatus(out.value, 64, 0, None) == 0
    host = bytearray(64)
    assert A.aclrtSynchronizeStream(None) == 0
    assert A.aclrtMemcpy(host, 64, out.value, 64, 2) == 0 and host == bytearray(64)
    assert A.aclrtFree(out.value) == 0


def test_a_refused_simt_stack_size_stays_set(chip):
    """SetLimitSizeByType (api_impl_david.cc:1835) stores the aligned size, then refuses two zero
    sizes (EE1011): the refused size stays, and DeviceSetLimit adds its inner report."""
    from rt_texts import ACL_CALL, INDENT, RANGE_SOLUTION, TRACEBACK

    chip("Ascend950")
    value = Ref()
    assert A.aclrtDeviceSetLimit(0, 0) == 0 and A.aclrtDeviceGetLimit(0, value) == 0 and value.value == 0
    assert A.aclrtDeviceSetLimit(1, 0) == 107000
    assert A.aclrtPeekAtLastError(0) == 107000
    assert aclGetRecentErrMsg() == (
        "Invalid_Argument(EE1011): Setting the SIMT stack size failed. Value 0 for parameter val is invalid. "
        "Reason: simtStackSize and simtDvgWarpStackSize cannot both be 0.\n"
        + RANGE_SOLUTION
        + TRACEBACK
        + f"{INDENT}Set simt stack size failed, drv devId=0, retCode=0x7110001."
        "[FUNC:DeviceSetLimit][FILE:api_impl_david.cc][LINE:1892]\n"
        + f"{INDENT}The argument is invalid. Reason: rtDeviceSetLimit execution failed.\n"
        + f"{INDENT}rtDeviceSetLimit failed, runtime result = 107000.{ACL_CALL}\n"
    )
    assert A.aclrtDeviceGetLimit(1, value) == 0 and value.value == 0  # the refused size is kept
    assert A.aclrtDeviceSetLimit(0, 5) == 0
    assert A.aclrtDeviceGetLimit(0, value) == 0 and value.value == 128 * 32
    assert A.aclrtDeviceGetLimit(1, value) == 0 and value.value == 0


@pytest.mark.parametrize(
    ("family", "limit", "value", "stored"),
    [
        ("Ascend950", 0, 2**27, 0),  # 2**27 * 32 wraps to 0 (the divergent-warp size is still 1 KiB)
        ("Ascend950", 0, 2**32 - 1, 0),  # (val + 127) wraps: aligned to 0
        ("Ascend950", 1, 2**32 - 1, 0),
        ("Ascend950", 0, 2**25 + 1, (2**25 + 128) * 32 % 2**32),
        ("Ascend910B", 2, 2**32 - 1, 0),  # (val + 16383) wraps: the SIMD stack size becomes 0
        ("Ascend910B", 2, 2**32 - 16384, 2**32 - 16384),
    ],
)
def test_the_stack_sizes_are_rounded_in_uint32(chip, family, limit, value, stored):
    chip(family)
    out = Ref()
    assert A.aclrtDeviceSetLimit(limit, value) == 0
    assert A.aclrtDeviceGetLimit(limit, out) == 0 and out.value == stored
