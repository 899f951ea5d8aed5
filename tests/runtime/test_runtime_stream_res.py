"""Per-stream core limits (set, read, reset, bound to a thread) and the overflow switch."""

from __future__ import annotations

import threading

from rt_texts import bad_handle, null

from aclnn_py import (
    ACL_ERROR_INVALID_PARAM,
    ACL_ERROR_RT_INVALID_HANDLE,
    ACL_ERROR_RT_PARAM_INVALID,
    ACL_ERROR_RT_STREAM_CONTEXT,
    Ref,
    aclFinalize,
    aclGetRecentErrMsg,
    aclInit,
    aclrtCreateContext,
    aclrtCreateStream,
    aclrtDestroyContext,
    aclrtDestroyStream,
    aclrtGetResInCurrentThread,
    aclrtResetDevice,
    aclrtSetCurrentContext,
    aclrtSetDevice,
    aclrtSetDeviceResLimit,
)
from aclnn_py.runtime.api_stream_res import (
    aclrtGetStreamOverflowSwitch,
    aclrtGetStreamResLimit,
    aclrtResetStreamResLimit,
    aclrtSetStreamOverflowSwitch,
    aclrtSetStreamResLimit,
    aclrtUnuseStreamResInCurrentThread,
    aclrtUseStreamResInCurrentThread,
)
from aclnn_py.runtime.device import RT

CUBE, VECTOR = 0, 1


def test_stream_limits_follow_the_device_until_set(dev0):
    s = Ref()
    assert aclrtCreateStream(s) == 0
    value = Ref()
    assert aclrtGetStreamResLimit(s.value, CUBE, value) == 0 and value.value == 24  # Ascend910B1's cube cores
    assert aclrtSetDeviceResLimit(0, CUBE, 12) == 0
    assert aclrtGetStreamResLimit(s.value, CUBE, value) == 0 and value.value == 12  # the device's limit
    assert aclrtSetStreamResLimit(s.value, CUBE, 20) == 0  # may exceed the device's limit
    assert aclrtGetStreamResLimit(s.value, CUBE, value) == 0 and value.value == 20
    assert aclrtGetStreamResLimit(None, CUBE, value) == 0 and value.value == 12  # the default stream
    assert aclrtSetStreamResLimit(s.value, CUBE, 25) == ACL_ERROR_RT_PARAM_INVALID
    msg = aclGetRecentErrMsg()
    assert msg.startswith(
        "Invalid_Argument(EE1003): Setting the device resource limits of a specific stream failed because value 25 "
        "for parameter value is invalid. Expected value: must be less than or equal to 24."
    )
    assert "rtsSetStreamResLimit execution failed." in msg
    assert aclrtSetStreamResLimit(s.value, 2, 1) == ACL_ERROR_RT_PARAM_INVALID
    assert "value DEV_RES_TYPE_MAX(2) for parameter type is invalid. Expected value: [0, 2)." in aclGetRecentErrMsg()
    assert aclrtGetStreamResLimit(s.value, CUBE, None) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg().startswith(null("aclrtGetStreamResLimit", "value"))
    assert aclrtResetStreamResLimit(s.value) == 0
    assert aclrtGetStreamResLimit(s.value, CUBE, value) == 0 and value.value == 12
    assert aclrtDestroyStream(s.value) == 0
    assert aclrtGetStreamResLimit(s.value, CUBE, value) == ACL_ERROR_RT_INVALID_HANDLE
    assert aclGetRecentErrMsg().startswith(bad_handle("stream", "rtsGetStreamResLimit"))


def test_a_bound_stream_decides_what_the_thread_may_use(dev0):
    s = Ref()
    assert aclrtCreateStream(s) == 0
    assert aclrtSetStreamResLimit(s.value, VECTOR, 10) == 0
    value = Ref()
    assert aclrtUseStreamResInCurrentThread(s.value) == 0
    assert aclrtGetResInCurrentThread(VECTOR, value) == 0 and value.value == 10
    assert aclrtGetResInCurrentThread(CUBE, value) == 0 and value.value == 24  # no stream limit of that type
    seen: list[int] = []

    def other() -> None:  # another thread does not see this thread's binding
        assert aclrtSetCurrentContext(RT.devices[0].primary) == 0
        v = Ref()
        assert aclrtGetResInCurrentThread(VECTOR, v) == 0
        seen.append(v.value)

    t = threading.Thread(target=other)
    t.start()
    t.join()
    assert seen == [48]
    assert aclrtUnuseStreamResInCurrentThread(s.value) == 0
    assert aclrtGetResInCurrentThread(VECTOR, value) == 0 and value.value == 48
    assert aclrtDestroyStream(s.value) == 0


def test_overflow_switch(dev0):
    s = Ref()
    assert aclrtCreateStream(s) == 0
    flag = Ref()
    assert aclrtGetStreamOverflowSwitch(s.value, flag) == 0 and flag.value == 0
    assert aclrtSetStreamOverflowSwitch(s.value, 1) == 0
    assert aclrtGetStreamOverflowSwitch(s.value, flag) == 0 and flag.value == 1
    assert aclrtGetStreamOverflowSwitch(None, flag) == 0 and flag.value == 0  # the default stream's own switch
    assert aclrtSetStreamOverflowSwitch(s.value, 2) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg().startswith(
        "Invalid_Argument(EH0007): aclrtSetStreamOverflowSwitch failed because value 2 for parameter flag is invalid. "
        "Expected value: 0 or 1."
    )
    assert aclrtGetStreamOverflowSwitch(s.value, None) == ACL_ERROR_INVALID_PARAM
    aclGetRecentErrMsg()
    other = Ref()
    assert aclrtCreateContext(other, 0) == 0  # now current: the stream is not its
    assert aclrtSetStreamOverflowSwitch(s.value, 0) == ACL_ERROR_RT_STREAM_CONTEXT
    assert "stream does not belong to the current context" in aclGetRecentErrMsg()
    assert aclrtDestroyContext(other.value) == 0
    assert aclrtSetCurrentContext(RT.devices[0].primary) == 0
    assert aclrtDestroyStream(s.value) == 0


def test_overflow_switch_is_fixed_on_chips_without_it(soc):
    soc("Ascend310P")
    assert aclInit(None) == 0 and aclrtSetDevice(0) == 0
    flag = Ref()
    assert aclrtSetStreamOverflowSwitch(None, 0) == 0  # accepted and ignored
    assert aclrtGetStreamOverflowSwitch(None, flag) == 0 and flag.value == 1
    aclrtResetDevice(0)
    aclFinalize()


def test_stream_state_callbacks(dev0):
    from aclnn_py.runtime import api_device_query
    from aclnn_py.runtime.api_device_query import aclrtRegStreamStateCallback, aclrtSetDeviceTaskAbortCallback

    seen: list[tuple[object, int, object]] = []
    try:
        assert aclrtRegStreamStateCallback("watch", lambda s, st, a: seen.append((s, st, a)), "args") == 0
        assert aclrtRegStreamStateCallback("watch", lambda s, st, a: None, None) == ACL_ERROR_RT_PARAM_INVALID
        assert aclGetRecentErrMsg().startswith(
            "Invalid_Argument(EE1011): Registering the stream status callback function failed. Value watch for "
            "parameter regName is invalid. Reason: The callback name has already been registered."
        )
        s = Ref()
        assert aclrtCreateStream(s) == 0
        assert seen == [(s.value, 1, "args")]  # ACL_RT_STREAM_STATE_CREATE_POST
        assert aclrtDestroyStream(s.value) == 0
        assert seen[1] == (s.value, 2, "args") and seen[1][0].destroyed is not False  # DESTROY_PRE, then gone
        assert aclrtRegStreamStateCallback("watch", None, None) == 0
        assert aclrtCreateStream(s) == 0 and len(seen) == 2
        assert aclrtDestroyStream(s.value) == 0
        assert aclrtSetDeviceTaskAbortCallback("abort", lambda *a: 0, None) == 0
        assert aclrtSetDeviceTaskAbortCallback("abort", lambda *a: 0, None) == ACL_ERROR_RT_PARAM_INVALID
        assert "Parameter regName is invalid. Reason: The regName abort has been registered" in aclGetRecentErrMsg()
    finally:
        api_device_query.reset()


def test_groups_are_refused_off_ascend310p(dev0):
    from aclnn_py.runtime.api_group import aclrtCreateGroupInfo, aclrtGetGroupCount, aclrtSetGroup

    count = Ref()
    assert aclrtGetGroupCount(count) == 207000  # Ascend910B: no device groups
    assert aclGetRecentErrMsg().startswith(
        "Not_Supported(EE1005): The current system or device does not support obtaining the number of available "
        "computing power groups."
    )
    assert aclrtCreateGroupInfo() is None
    assert "rtGetGroupCount execution failed, the feature is not supported." in aclGetRecentErrMsg()
    assert aclrtSetGroup(0) == 207000
    aclGetRecentErrMsg()


def test_the_emulated_ascend310p_card_has_no_group(soc):
    from aclnn_py.runtime.api_group import (
        aclrtCreateGroupInfo,
        aclrtDestroyGroupInfo,
        aclrtGetGroupCount,
        aclrtGetGroupInfoDetail,
        aclrtGroupInfo,
        aclrtSetGroup,
    )

    soc("Ascend310P")
    assert aclInit(None) == 0 and aclrtSetDevice(0) == 0
    count = Ref()
    assert aclrtGetGroupCount(count) == 0 and count.value == 0
    assert aclrtCreateGroupInfo() is None  # no group: no memory (CANN warns only)
    assert aclrtSetGroup(4) == ACL_ERROR_RT_PARAM_INVALID
    assert aclGetRecentErrMsg().startswith(
        "Invalid_Argument(EE1003): Specifying the group used for the current operation failed because value 4 for "
        "parameter grpId is invalid. Expected value: [0, 3]."
    )
    assert aclrtSetGroup(1) == 107014  # ACL_ERROR_RT_GROUP_NOT_CREATE
    assert "The group id 1 does not exist." in aclGetRecentErrMsg()
    info = aclrtGroupInfo(0)
    assert aclrtGetGroupInfoDetail(info, 0, 0, Ref(), 4, Ref()) == ACL_ERROR_INVALID_PARAM
    assert "value 0 for parameter groupIndex is invalid. Expected value: [0, 0]." in aclGetRecentErrMsg()
    assert aclrtDestroyGroupInfo(info) == 0 and aclrtDestroyGroupInfo(None) == ACL_ERROR_INVALID_PARAM
    aclGetRecentErrMsg()
    aclrtResetDevice(0)
    aclFinalize()


def test_stream_attributes(dev0):
    from aclnn_py.runtime.api_stream_attr import aclrtGetStreamAttribute, aclrtSetStreamAttribute, aclrtStreamAttrValue

    s = Ref()
    assert aclrtCreateStream(s) == 0
    v = aclrtStreamAttrValue()
    for attr, value in ((1, 1), (2, 1), (3, 0x1234), (4, 1), (5, 9)):
        v.raw = value
        assert aclrtSetStreamAttribute(s.value, attr, v) == 0, attr
    got = aclrtStreamAttrValue()
    read = {}
    for attr in (1, 2, 3, 4, 5):
        assert aclrtGetStreamAttribute(s.value, attr, got) == 0
        read[attr] = got.raw
    assert read == {1: 1, 2: 1, 3: 0x1234, 4: 1, 5: 7}  # the priority is clamped to 7
    assert s.value.failure_mode == 1 and s.value.priority == 7
    v.raw = 0
    assert aclrtSetStreamAttribute(s.value, 1, v) == 207000  # stop mode cannot go back to continue
    assert "from stop mode to continue mode is not supported" in aclGetRecentErrMsg()
    v.raw = 2
    assert aclrtSetStreamAttribute(s.value, 2, v) == ACL_ERROR_RT_PARAM_INVALID
    assert "Setting the stream overflow/underflow detection switch failed because value 2 for parameter flags" in (
        aclGetRecentErrMsg()
    )
    assert aclrtSetStreamAttribute(s.value, 6, v) == ACL_ERROR_RT_PARAM_INVALID
    assert aclGetRecentErrMsg().startswith(
        "Invalid_Argument(EE1003): rtsStreamSetAttribute failed because value 6 for parameter stmAttrId is invalid. "
        "Expected value: [1, 6)."
    )
    assert aclrtSetStreamAttribute(None, 5, v) == ACL_ERROR_RT_PARAM_INVALID
    assert "Setting the stream priority failed because stm cannot be a NULL pointer." in aclGetRecentErrMsg()
    assert aclrtSetStreamAttribute(s.value, 1, None) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg().startswith(null("aclrtSetStreamAttribute", "value"))
    assert aclrtDestroyStream(s.value) == 0


def test_overflow_switch_and_tag_are_refused_on_a_capturing_stream(dev0):
    # ApiErrorDecorator::SetStreamOverflowSwitch (api_error.cc:6018-6028, after the flags range check)
    # and SetStreamTag (:6119-6123): 107027 EE1016, then the rt wrapper's FuncErrorReason
    from aclnn_py import aclmdlRICaptureBegin, aclmdlRICaptureEnd, aclmdlRIDestroy
    from aclnn_py.runtime.api_stream_attr import aclrtSetStreamAttribute, aclrtStreamAttrValue

    s = Ref()
    assert aclrtCreateStream(s) == 0
    st = s.value
    assert aclmdlRICaptureBegin(st, 0) == 0
    refusal = f"failed. Reason: Stream (stream_id={st.ident}) during the capture stage is not supported."
    assert aclrtSetStreamOverflowSwitch(st, 1) == 107027
    msg = aclGetRecentErrMsg()
    assert msg.startswith(f"Not_Supported(EE1016): Setting the stream overflow/underflow detection switch {refusal}")
    assert "rtSetStreamOverflowSwitch execution failed, reason=stream is captured" in msg
    for attr, desc in ((2, "Setting the stream overflow/underflow detection switch"), (3, "Setting the stream tag")):
        assert aclrtSetStreamAttribute(st, attr, aclrtStreamAttrValue(1)) == 107027
        msg = aclGetRecentErrMsg()
        assert msg.startswith(f"Not_Supported(EE1016): {desc} {refusal}"), msg
        assert "rtsStreamSetAttribute execution failed, reason=stream is captured" in msg
    # the decorator's flags range check comes first
    assert aclrtSetStreamAttribute(st, 2, aclrtStreamAttrValue(2)) == ACL_ERROR_RT_PARAM_INVALID
    assert "for parameter flags is invalid" in aclGetRecentErrMsg()
    model = Ref()
    assert aclmdlRICaptureEnd(st, model) == 0 and aclmdlRIDestroy(model.value) == 0
    assert aclrtSetStreamOverflowSwitch(st, 1) == 0  # no longer capturing
    assert aclrtSetStreamAttribute(st, 3, aclrtStreamAttrValue(5)) == 0
    assert aclrtDestroyStream(st) == 0


def test_an_ai_cpu_scheduling_stream_has_no_priority(dev0):
    # ApiErrorDecorator::Set/GetStreamPriorityValue (api_error.cc:6043-6046, 6071-6074): RT_STREAM_AICPU
    # (ACL_STREAM_CPU_SCHEDULE) -> 207000 EE1006, before the impl's context check
    from aclnn_py import aclrtCreateStreamWithConfig
    from aclnn_py.runtime.api_stream_attr import aclrtGetStreamAttribute, aclrtSetStreamAttribute, aclrtStreamAttrValue
    from aclnn_py.runtime.enums import ACL_STREAM_CPU_SCHEDULE

    s = Ref()
    assert aclrtCreateStreamWithConfig(s, 0, ACL_STREAM_CPU_SCHEDULE) == 0
    v = aclrtStreamAttrValue(3)
    assert aclrtSetStreamAttribute(s.value, 5, v) == 207000
    msg = aclGetRecentErrMsg()
    assert msg.startswith(
        "Not_Supported(EE1006): Setting the stream priority failed. Parameter stm->Flags() value 8 is not supported. "
        "Reason: The current stream is used to carry AI CPU scheduling tasks and does not support priority setting."
    ), msg
    assert "rtsStreamSetAttribute execution failed, the feature is not supported." in msg
    assert aclrtGetStreamAttribute(s.value, 5, v) == 207000 and v.raw == 3
    msg = aclGetRecentErrMsg()
    assert msg.startswith(
        "Not_Supported(EE1006): Obtaining the stream priority failed. Parameter stm->Flags() value 8 is not "
        "supported. Reason: The current stream is used to carry AI CPU scheduling tasks and does not support "
        "priority getting."
    ), msg
    assert aclrtSetStreamAttribute(s.value, 4, aclrtStreamAttrValue(1)) == 0  # the other attributes are unaffected
    assert aclrtDestroyStream(s.value) == 0
