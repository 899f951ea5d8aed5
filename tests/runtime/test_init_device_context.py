"""aclInit / aclFinalize, devices, contexts, aclGetRecentErrMsg: codes, check order, messages
(CANN runtime master, ACL 1.17), per-thread state."""

from __future__ import annotations

import threading

import pytest
from rt_texts import (
    ACL_INNER,
    FUNC_ERROR_REASON,
    GET_DEV_MSG,
    GET_DEV_MSG_LINES,
    INDENT,
    NO_CONTEXT,
    NO_CONTEXT_HEADLINE,
    ONLY_GET_DEV_MSG,
    RANGE_SOLUTION,
    TRACEBACK,
    emulator,
    no_context,
    null,
)

from aclnn_py import (
    ACL_ERROR_FAILURE,
    ACL_ERROR_INTERNAL_ERROR,
    ACL_ERROR_INVALID_FILE,
    ACL_ERROR_INVALID_PARAM,
    ACL_ERROR_PARSE_FILE,
    ACL_ERROR_REPEAT_FINALIZE,
    ACL_ERROR_REPEAT_INITIALIZE,
    ACL_ERROR_RT_CONTEXT_NULL,
    ACL_ERROR_RT_CONTEXT_RELEASE_ERROR,
    ACL_ERROR_RT_INVALID_DEVICEID,
    ACL_ERROR_RT_PARAM_INVALID,
    ACL_HOST,
    ACL_RT_THREAD_LEVEL,
    Ref,
    _errmsg,
    aclFinalize,
    aclFinalizeReference,
    aclGetRecentErrMsg,
    aclInit,
    aclrtCreateContext,
    aclrtCreateStream,
    aclrtDestroyContext,
    aclrtDestroyStream,
    aclrtGetCurrentContext,
    aclrtGetDevice,
    aclrtGetDeviceCount,
    aclrtGetLastError,
    aclrtGetRunMode,
    aclrtGetSocName,
    aclrtPeekAtLastError,
    aclrtResetDevice,
    aclrtResetDeviceForce,
    aclrtSetCurrentContext,
    aclrtSetDevice,
    aclrtSynchronizeDevice,
    aclrtSynchronizeDeviceWithTimeout,
)  # fmt: skip
from aclnn_py.runtime.device import RT


def test_init_then_repeat_returns_100002_and_finalize_twice_100037():
    assert aclInit(None) == 0
    assert aclInit(None) == ACL_ERROR_REPEAT_INITIALIZE
    assert _errmsg.peek() == []  # only a log line in CANN
    assert aclFinalize() == 0
    assert aclFinalize() == ACL_ERROR_REPEAT_FINALIZE
    # an inner report; aclGetRecentErrMsg's own two (no context) make the headline
    assert aclGetRecentErrMsg() == (
        NO_CONTEXT_HEADLINE
        + TRACEBACK
        + f"{INDENT}[Finalize][Acl]repeatedly finalized{ACL_INNER}\n"
        + GET_DEV_MSG_LINES
    )


def test_a_repeated_finalize_with_a_context_shows_the_inner_layout():
    assert aclInit(None) == 0 and aclFinalize() == 0
    assert aclFinalize() == ACL_ERROR_REPEAT_FINALIZE
    assert aclInit(None) == 0 and aclrtSetDevice(0) == 0  # a context, so nothing more is added
    assert aclGetRecentErrMsg() == (
        "EH9999: Internal error!\n"
        f"EH9999(EH9999):  [Finalize][Acl]repeatedly finalized{ACL_INNER}\n"
        "TraceBack (most recent call last):\n"
    )


def test_finalize_without_init_succeeds_once():
    assert aclFinalize() == 0
    assert aclFinalize() == ACL_ERROR_REPEAT_FINALIZE


def test_init_accepts_empty_string_and_reinit_after_finalize():
    assert aclInit("") == 0
    assert aclFinalize() == 0
    assert aclInit(None) == 0
    assert aclFinalize() == 0


def test_init_with_a_path_that_does_not_exist(tmp_path):
    path = str(tmp_path / "missing.json")
    assert aclInit(path) == ACL_ERROR_INVALID_FILE
    assert aclGetRecentErrMsg() == (
        f"File_Operation_Error_Invalid_Path(EH0003): Path {path} is invalid. Reason: No such file or directory.\n"
        + TRACEBACK
        + f"{INDENT}Get Content from configPath failed, ret=100003{ACL_INNER}\n"
        + GET_DEV_MSG_LINES
    )


def test_init_with_a_path_that_cannot_be_opened(tmp_path):
    assert aclInit(str(tmp_path)) == ACL_ERROR_INVALID_FILE  # a directory
    assert aclGetRecentErrMsg().startswith(
        f"File_Operation_Error_Invalid_Path(EH0003): Path {tmp_path} is invalid. Reason: file open failed.\n"
    )


def test_init_with_invalid_json(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert aclInit(str(bad)) == ACL_ERROR_PARSE_FILE
    assert aclGetRecentErrMsg() == (
        f"File_Operation_Error(EH0004): File {bad} is invalid. Reason: Parse exception: Expecting property name "
        "enclosed in double quotes: line 1 column 2 (char 1).\n"
        + TRACEBACK
        + f"{INDENT}Cannot parse err_msg config from file[{bad}], errorCode = 100006{ACL_INNER}\n"
        + f"{INDENT}[Process][ErrorMsg]process HandleErrorManagerConfig failed, ret=100006{ACL_INNER}\n"
        + GET_DEV_MSG_LINES
    )


def test_an_empty_config_file_is_no_config(tmp_path):
    empty = tmp_path / "empty.json"
    empty.write_text("")
    assert aclInit(str(empty)) == 0 and aclFinalize() == 0
    assert aclInit(None) == 0 and aclFinalize() == 0  # the same (empty) content


def test_a_blank_config_file_is_not_json(tmp_path):
    blank = tmp_path / "blank.json"
    blank.write_text(" \n")
    assert aclInit(str(blank)) == ACL_ERROR_PARSE_FILE  # nlohmann refuses it too


def test_the_default_device_binds_itself_to_a_thread_that_has_none(tmp_path):
    good = tmp_path / "acl.json"
    good.write_text('{"defaultDevice": {"default_device": "1"}}')
    assert aclInit(str(good)) == 0
    dev = Ref()
    assert aclrtGetDevice(dev) == 0 and dev.value == 1  # answered without making it current
    assert aclrtGetCurrentContext(Ref()) == ACL_ERROR_RT_CONTEXT_NULL
    assert aclGetRecentErrMsg() is None  # its rtGetDevMsg makes the default device current, silently
    ctx = Ref()
    assert aclrtGetCurrentContext(ctx) == 0 and ctx.value.device.ident == 1
    s = Ref()
    assert aclrtCreateStream(s) == 0 and aclrtDestroyStream(s.value) == 0
    assert aclFinalize() == 0


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (
            "0",
            "File_Operation_Error(EH0004): File {path} is invalid. Reason: JSON parse exception: "
            "[json.exception.type_error.302] type must be string, but is number.\n",
        ),
        (
            '"01"',
            "Invalid_Argument(EH0009): Parsing the default device ID from the configuration file failed. Value 01 "
            "for parameter default_device is invalid. Reason: value must be 0 or a positive integer.\n"
            + RANGE_SOLUTION,
        ),
    ],
)
def test_an_invalid_default_device_fails_init_with_500001(tmp_path, value, expected):
    cfg = tmp_path / "acl.json"
    cfg.write_text('{"defaultDevice": {"default_device": ' + value + "}}")
    assert aclInit(str(cfg)) == ACL_ERROR_FAILURE
    assert aclGetRecentErrMsg() == (
        expected.format(path=cfg)
        + TRACEBACK
        + f"{INDENT}[Process][DefaultDevice]process HandleDefaultDevice failed{ACL_INNER}\n"
        + GET_DEV_MSG_LINES
    )


def test_a_default_device_that_does_not_exist_fails_init_with_107001(tmp_path):
    """rtSetDefaultDeviceId's decorator checks the id (CheckDeviceIdIsValid), then aclInit's
    ACL_LOG_INNER_ERROR adds its own line; aclInit is not done."""
    cfg = tmp_path / "acl.json"
    cfg.write_text('{"defaultDevice": {"default_device": "100"}}')
    assert aclInit(str(cfg)) == ACL_ERROR_RT_INVALID_DEVICEID
    assert aclGetRecentErrMsg() == (
        "Invalid_Argument(EE1003): Verifying the device ID validity failed because value 100 for parameter devId is "
        "invalid. Expected value: [0, 8).\n"
        + RANGE_SOLUTION
        + TRACEBACK
        + f"{INDENT}drv devId is invalid, drv devId=100, retCode=0x7010003[FUNC:SetDefaultDeviceId][FILE:api_error.cc]"
        "[LINE:6669]\n"
        + f"{INDENT}rtSetDefaultDeviceId execution failed, reason=device id error{FUNC_ERROR_REASON}\n"
        + f"{INDENT}[Process][DefaultDevice]process HandleDefaultDevice failed{ACL_INNER}\n"
        + GET_DEV_MSG_LINES
    )
    assert aclrtGetDevice(Ref()) == ACL_ERROR_RT_CONTEXT_NULL  # no default device was set
    assert aclInit(None) == 0 and aclFinalize() == 0


def test_a_default_device_id_is_read_as_an_int32(tmp_path):
    """HandleDefaultDevice: static_cast<int32_t>(strtol(...)): 3000000000 is -1294967296 in both
    reports, and 2^32 is device 0."""
    cfg = tmp_path / "acl.json"
    cfg.write_text('{"defaultDevice": {"default_device": "3000000000"}}')
    assert aclInit(str(cfg)) == ACL_ERROR_RT_INVALID_DEVICEID
    msg = aclGetRecentErrMsg()
    assert "value -1294967296 for parameter devId is invalid" in msg
    assert "drv devId is invalid, drv devId=-1294967296, retCode=0x7010003" in msg
    cfg.write_text('{"defaultDevice": {"default_device": "4294967296"}}')
    assert aclInit(str(cfg)) == 0
    out = Ref()
    assert aclrtGetDevice(out) == 0 and out.value == 0
    aclrtResetDevice(0)
    assert aclFinalize() == 0


def test_reinit_with_different_config_after_finalize_is_rejected(tmp_path):
    first = tmp_path / "a.json"
    first.write_text("{}")
    second = tmp_path / "b.json"
    second.write_text('{"err_msg_mode": "0"}')
    assert aclInit(str(first)) == 0
    assert aclFinalize() == 0
    assert aclInit(str(second)) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg() == (
        f"File_Operation_Error(EH0004): File {second} is invalid. Reason: config content differs from the first "
        f"aclInit config file path: {first}.\n" + TRACEBACK + GET_DEV_MSG_LINES
    )
    assert aclInit(str(first)) == 0
    assert aclFinalize() == 0


@pytest.mark.parametrize(("value", "shown"), [("1", "1"), ("0", "0"), ('"2"', '"2"'), ("true", "true")])
def test_err_msg_mode_must_be_the_string_0_or_1(tmp_path, value, shown):
    cfg = tmp_path / "acl.json"
    cfg.write_text('{"err_msg_mode": ' + value + "}")
    assert aclInit(str(cfg)) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg() == (
        "Invalid_Argument(EH0009): Parsing the configuration of the error information reporting mode failed. "
        f"Value {shown} for parameter err_msg mode is invalid. Reason: err_msg mode config is invalid, only support "
        "INTERNAL_MODE and PROCESS_MODE.\n"
        + RANGE_SOLUTION
        + TRACEBACK
        + f"{INDENT}[Process][ErrorMsg]process HandleErrorManagerConfig failed, ret=100000{ACL_INNER}\n"
        + GET_DEV_MSG_LINES
    )


def test_finalize_reference_counts_inits():
    assert aclInit(None) == 0
    assert aclInit(None) == ACL_ERROR_REPEAT_INITIALIZE
    left = Ref()
    assert aclFinalizeReference(left) == 0 and left.value == 1
    assert aclFinalizeReference(left) == 0 and left.value == 0
    left.value = 7
    assert aclFinalizeReference(left) == ACL_ERROR_REPEAT_FINALIZE
    assert left.value == 0  # written before the check
    assert aclFinalizeReference(None) == ACL_ERROR_REPEAT_FINALIZE
    assert aclGetRecentErrMsg() == (
        NO_CONTEXT_HEADLINE
        + TRACEBACK
        + f"{INDENT}[Finalize][Acl]aclFinalizeReference called repeatedly or called without proper aclInit"
        f"{ACL_INNER}\n" + GET_DEV_MSG_LINES
    )
    assert aclFinalize() == ACL_ERROR_REPEAT_FINALIZE  # the reference reaching 0 finalized


def test_unknown_soc_fails_init_with_a_clear_message(soc):
    soc("Ascend123")
    assert aclInit(None) == ACL_ERROR_INTERNAL_ERROR
    msg = aclGetRecentErrMsg()
    assert msg.startswith("aclnn_py: aclInit: ") and "Ascend123" in msg and "ACLNN_PY_SOC" in msg
    assert aclrtGetSocName() is None


@pytest.mark.parametrize(
    "name", ["Ascend910B2", "Ascend910B4-1", "Ascend910_9391", "Ascend950PR_9599", "Ascend910A", "Ascend310P3"]
)
def test_a_real_soc_name_is_reported_as_configured(soc, name):
    soc(name)
    assert aclInit(None) == 0
    assert aclrtGetSocName() == name
    assert aclFinalize() == 0


@pytest.mark.parametrize(
    ("family", "real"),
    [
        ("Ascend910B", "Ascend910B1"),
        ("Ascend910_93", "Ascend910_9391"),
        ("Ascend950", "Ascend950PR_9599"),
        ("Ascend910", "Ascend910A"),
        ("Ascend310P", "Ascend310P3"),
    ],
)
def test_a_family_name_answers_a_real_soc_of_the_family(soc, family, real):
    soc(family)
    assert aclInit(None) == 0
    assert aclrtGetSocName() == real
    assert aclFinalize() == 0


def test_default_soc_is_a_real_ascend910b_chip():
    assert aclrtGetSocName() == "Ascend910B1"


def test_get_device_and_get_current_context_without_a_context_are_silent():
    assert aclInit(None) == 0
    assert aclrtGetDevice(Ref()) == ACL_ERROR_RT_CONTEXT_NULL
    assert aclrtGetCurrentContext(Ref()) == ACL_ERROR_RT_CONTEXT_NULL
    assert _errmsg.peek() == []
    assert aclGetRecentErrMsg() == ONLY_GET_DEV_MSG  # what aclGetRecentErrMsg itself reports
    assert aclFinalize() == 0


def test_context_functions_without_a_context_give_107002_and_ee1018():
    assert aclInit(None) == 0
    assert aclrtCreateStream(Ref()) == ACL_ERROR_RT_CONTEXT_NULL
    assert aclrtSynchronizeDevice() == ACL_ERROR_RT_CONTEXT_NULL
    assert aclrtSynchronizeDeviceWithTimeout(5) == ACL_ERROR_RT_CONTEXT_NULL
    assert aclGetRecentErrMsg() == (
        NO_CONTEXT_HEADLINE
        + TRACEBACK
        + f"{INDENT}The argument is invalid. Reason: rtStreamCreateWithFlags execution failed, the context is a null "
        "pointer.\n"
        + f"{INDENT}The argument is invalid. Reason: rtDeviceSynchronize execution failed, the context is a null "
        "pointer.\n"
        + f"{INDENT}The argument is invalid. Reason: rtDeviceSynchronizeWithTimeout execution failed, the context is "
        "a null pointer.\n" + f"{INDENT}{GET_DEV_MSG}\n"
    )
    assert aclFinalize() == 0


def test_synchronize_device_with_timeout_checks_before_the_context():
    assert aclInit(None) == 0
    assert aclrtSynchronizeDeviceWithTimeout(-2) == ACL_ERROR_RT_PARAM_INVALID
    assert aclrtSetDevice(0) == 0
    assert aclGetRecentErrMsg() == (
        "Invalid_Argument(EH0007): aclrtSynchronizeDeviceWithTimeout failed because value -2 for parameter timeout "
        "is invalid. Expected value: [-1, INT_MAX].\n" + RANGE_SOLUTION
    )
    assert aclrtSynchronizeDeviceWithTimeout(0) == ACL_ERROR_RT_PARAM_INVALID
    assert aclGetRecentErrMsg() == (
        "Invalid_Argument(EE1003): Waiting for all streams on the device to complete failed because value 0 for "
        "parameter timeout is invalid. Expected value: greater than or equal to -1 and not equal to 0.\n"
        + RANGE_SOLUTION
        + TRACEBACK
        + f"{INDENT}The argument is invalid. Reason: rtDeviceSynchronizeWithTimeout execution failed.\n"
    )
    assert aclrtSynchronizeDeviceWithTimeout(-1) == 0 and aclrtSynchronizeDeviceWithTimeout(10) == 0
    assert aclrtResetDevice(0) == 0 and aclFinalize() == 0


@pytest.mark.parametrize("device", [2, -1])
def test_set_device_out_of_range(monkeypatch, device):
    monkeypatch.setenv("ACLNN_PY_DEVICE_COUNT", "2")
    assert aclInit(None) == 0 and aclrtSetDevice(0) == 0
    assert aclrtSetDevice(device) == ACL_ERROR_RT_INVALID_DEVICEID
    assert aclGetRecentErrMsg() == (
        "Invalid_Argument(EE1003): Specifying the device used for computation by the current thread failed because "
        f"value {device} for parameter drv devId is invalid. Expected value: [0, 2).\n"
        + RANGE_SOLUTION
        + TRACEBACK
        + f"{INDENT}rtSetDevice execution failed, reason=device id error{FUNC_ERROR_REASON}\n"
    )
    assert aclrtResetDevice(0) == 0 and aclFinalize() == 0


def test_null_out_params_and_the_device_count(monkeypatch):
    monkeypatch.setenv("ACLNN_PY_DEVICE_COUNT", "2")
    assert aclInit(None) == 0
    assert aclrtSetDevice(1) == 0
    assert aclrtGetDevice(None) == ACL_ERROR_INVALID_PARAM
    assert aclrtGetDeviceCount(None) == ACL_ERROR_INVALID_PARAM
    assert aclrtGetRunMode(None) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg() == (
        null("aclrtGetDevice", "deviceId")
        + TRACEBACK
        + f"{INDENT}aclrtGetDeviceCount failed because count cannot be a NULL pointer.\n"
        + f"{INDENT}aclrtGetRunMode failed because runMode cannot be a NULL pointer.\n"
    )
    count, dev = Ref(), Ref()
    assert aclrtGetDeviceCount(count) == 0 and count.value == 2
    assert aclrtGetDevice(dev) == 0 and dev.value == 1
    assert aclrtGetDevice("not a holder") == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg() == emulator(
        "aclrtGetDevice: deviceId must be an out-parameter (Ref() or a ctypes holder), got 'not a holder'."
    )
    assert aclrtResetDevice(1) == 0
    assert aclFinalize() == 0


def test_default_device_count_is_8():
    count = Ref()
    assert aclInit(None) == 0
    assert aclrtGetDeviceCount(count) == 0 and count.value == 8
    assert aclFinalize() == 0


def test_reset_device_refcount_and_507007():
    assert aclInit(None) == 0
    assert aclrtSetDevice(1) == 0  # a context, so the messages below are read as they are
    assert aclrtResetDevice(0) == ACL_ERROR_RT_CONTEXT_RELEASE_ERROR
    assert aclGetRecentErrMsg() == (
        "Invalid_Argument_API_Call_Sequence(EE1018): Resetting the device failed. Reason: The device has not been "
        "set or has already been reset.\n"
        + TRACEBACK
        + f"{INDENT}rtDeviceReset execution failed, reason=context release error{FUNC_ERROR_REASON}\n"
    )
    assert aclrtSetDevice(0) == 0
    assert aclrtSetDevice(0) == 0
    assert aclrtResetDevice(0) == 0  # refcount 2 -> 1: context still valid
    assert aclrtGetDevice(Ref()) == 0
    assert aclrtResetDevice(0) == 0  # -> 0: released
    assert aclrtGetDevice(Ref()) == ACL_ERROR_RT_CONTEXT_NULL
    assert aclrtResetDevice(0) == ACL_ERROR_RT_CONTEXT_RELEASE_ERROR
    assert aclrtSetDevice(0) == 0 and aclrtSetDevice(0) == 0
    assert aclrtResetDeviceForce(0) == 0
    assert aclrtResetDevice(0) == ACL_ERROR_RT_CONTEXT_RELEASE_ERROR
    aclGetRecentErrMsg()
    assert aclFinalize() == 0


@pytest.mark.parametrize(("api", "rt_fn", "func", "line"), [
    (aclrtResetDevice, "rtDeviceReset", "DeviceReset", 3439),
    (aclrtResetDeviceForce, "rtDeviceResetForce", "DeviceResetForce", 6724),
])  # fmt: skip
@pytest.mark.parametrize("device", [8, 63, -1])
def test_reset_of_a_device_id_out_of_range_is_107001(api, rt_fn, func, line, device):
    assert aclInit(None) == 0 and aclrtSetDevice(0) == 0
    assert api(device) == ACL_ERROR_RT_INVALID_DEVICEID
    assert aclGetRecentErrMsg() == (
        "Invalid_Argument(EE1003): Verifying the device ID validity failed because value "
        f"{device} for parameter devId is invalid. Expected value: [0, 8).\n"
        + RANGE_SOLUTION
        + TRACEBACK
        + f"{INDENT}drv devId is invalid, drv devId={device}, retCode=0x7010003[FUNC:{func}][FILE:api_error.cc]"
        f"[LINE:{line}]\n" + f"{INDENT}{rt_fn} execution failed, reason=device id error{FUNC_ERROR_REASON}\n"
    )
    assert aclFinalize() == 0


def test_force_reset_of_a_device_not_set_has_only_inner_reports():
    assert aclInit(None) == 0 and aclrtSetDevice(1) == 0
    assert aclrtResetDeviceForce(0) == ACL_ERROR_RT_CONTEXT_RELEASE_ERROR
    assert aclGetRecentErrMsg() == (
        "EE9999: Internal error!\n"
        "EE9999(EE9999):  PrimaryContextRelease failed, total ref count is 0."
        "[FUNC:DecideForcePrimaryReleaseAction][FILE:runtime.cc][LINE:257]\n"
        "TraceBack (most recent call last):\n"
        f"       rtDeviceResetForce execution failed, reason=context release error{FUNC_ERROR_REASON}\n"
    )
    assert aclFinalize() == 0


def test_a_second_force_reset_finds_the_released_primary_context():
    """The runtime keeps a released primary context in its slot (TrySetValAndResetRef): a forced
    reset after a reset reports the drained retain count (runtime.cc:264), not the missing context."""
    assert aclInit(None) == 0 and aclrtSetDevice(0) == 0
    assert aclrtResetDeviceForce(0) == 0
    assert aclrtResetDeviceForce(0) == ACL_ERROR_RT_CONTEXT_RELEASE_ERROR
    assert (
        "PrimaryContextRelease failed during force reset, retain count is 0."
        "[FUNC:DecideForcePrimaryReleaseAction][FILE:runtime.cc][LINE:264]" in aclGetRecentErrMsg()
    )
    assert aclFinalize() == 0


def test_a_failed_force_reset_is_not_the_threads_last_error():
    """rtDeviceResetForce returns RT_TRANS_EXT_ERRCODE, not GetRtExtErrCodeAndSetGlobalErr: the
    failure is reported, the last error stays."""
    assert aclInit(None) == 0 and aclrtSetDevice(1) == 0
    assert aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL) == 0
    assert aclrtResetDeviceForce(0) == ACL_ERROR_RT_CONTEXT_RELEASE_ERROR
    assert aclrtResetDeviceForce(99) == ACL_ERROR_RT_INVALID_DEVICEID
    assert aclrtGetLastError(ACL_RT_THREAD_LEVEL) == 0
    assert aclrtResetDevice(99) == ACL_ERROR_RT_INVALID_DEVICEID  # rtDeviceReset does set it
    assert aclrtGetLastError(ACL_RT_THREAD_LEVEL) == ACL_ERROR_RT_INVALID_DEVICEID
    assert aclrtResetDevice(1) == 0 and aclFinalize() == 0


def test_run_mode_is_host():
    mode = Ref()
    assert aclrtGetRunMode(mode) == 0 and mode.value == ACL_HOST


def test_threads_share_the_primary_context_but_not_the_current_context():
    assert aclInit(None) == 0
    assert aclrtSetDevice(0) == 0
    main_ctx = Ref()
    assert aclrtGetCurrentContext(main_ctx) == 0
    seen = {}

    def worker():
        seen["before"] = aclrtGetDevice(Ref())  # a new thread has no current context
        seen["set"] = aclrtSetDevice(0)
        ctx = Ref()
        aclrtGetCurrentContext(ctx)
        seen["ctx"] = ctx.value
        seen["reset"] = aclrtResetDevice(0)

    t = threading.Thread(target=worker)
    t.start()
    t.join()
    assert seen["before"] == ACL_ERROR_RT_CONTEXT_NULL
    assert seen["set"] == 0 and seen["reset"] == 0
    assert seen["ctx"] is main_ctx.value
    assert aclrtGetDevice(Ref()) == 0  # refcount 2 -> 1 kept the main thread's context
    assert aclrtResetDevice(0) == 0
    assert aclFinalize() == 0


def test_explicit_contexts():
    assert aclInit(None) == 0
    assert aclrtCreateContext(None, 0) == ACL_ERROR_INVALID_PARAM
    assert aclrtCreateContext(Ref(), 99) == ACL_ERROR_RT_INVALID_DEVICEID
    assert aclGetRecentErrMsg() == (
        null("aclrtCreateContext", "context")
        + TRACEBACK
        + f"{INDENT}Context creation failed because value 99 for parameter devId is invalid. Expected value: [0, 8).\n"
        + f"{INDENT}rtCtxCreateEx execution failed, reason=device id error{FUNC_ERROR_REASON}\n"
        + GET_DEV_MSG_LINES
    )
    ctx = Ref()
    assert aclrtCreateContext(ctx, 0) == 0
    cur = Ref()
    assert aclrtGetCurrentContext(cur) == 0 and cur.value is ctx.value
    assert aclrtSetCurrentContext(None) == ACL_ERROR_INVALID_PARAM
    assert aclrtDestroyContext(None) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg() == (
        null("aclrtSetCurrentContext", "context")
        + TRACEBACK
        + f"{INDENT}aclrtDestroyContext failed because context cannot be a NULL pointer.\n"
    )
    assert aclrtSetCurrentContext(ctx.value) == 0
    assert aclrtDestroyContext(ctx.value) == 0
    assert aclrtGetCurrentContext(Ref()) == ACL_ERROR_RT_CONTEXT_NULL  # silently
    assert aclrtSetDevice(0) == 0
    # a destroyed context: CANN's codes are 107002 (destroy) and 107000 (set current)
    assert aclrtDestroyContext(ctx.value) == ACL_ERROR_RT_CONTEXT_NULL
    assert aclGetRecentErrMsg() == (
        "Invalid_Argument(EE1017): Context destruction failed. Parameter context is invalid. Reason: The context "
        "handle is a null pointer or has already been destroyed.\n"
        + TRACEBACK
        + f"{INDENT}The argument is invalid. Reason: rtCtxDestroyEx execution failed, the context is a null pointer.\n"
    )
    assert aclrtSetCurrentContext(ctx.value) == ACL_ERROR_RT_PARAM_INVALID
    assert aclGetRecentErrMsg() == (
        NO_CONTEXT_HEADLINE
        + TRACEBACK
        + f"{INDENT}The argument is invalid. Reason: rtCtxSetCurrent execution failed.\n"
    )
    assert aclrtSetCurrentContext("not a context") == ACL_ERROR_RT_PARAM_INVALID
    aclGetRecentErrMsg()
    # the primary context cannot be destroyed with aclrtDestroyContext
    primary = Ref()
    aclrtGetCurrentContext(primary)
    assert aclrtDestroyContext(primary.value) == ACL_ERROR_RT_CONTEXT_NULL
    assert aclGetRecentErrMsg() == (
        "Invalid_Argument(EE1017): Context destruction failed. Parameter context is invalid. Reason: Primary "
        "context cannot be destroyed explicitly.\n"
        + TRACEBACK
        + f"{INDENT}The argument is invalid. Reason: rtCtxDestroyEx execution failed, the context is a null pointer.\n"
    )
    assert aclrtResetDevice(0) == 0
    assert aclFinalize() == 0


def test_err_msg_is_per_thread_and_cleared_by_reading():
    assert aclInit(None) == 0 and aclrtSetDevice(0) == 0
    assert aclrtGetDevice(None) == ACL_ERROR_INVALID_PARAM
    other = {}

    def worker():
        other["empty"] = _errmsg.peek()
        other["msg"] = aclGetRecentErrMsg()  # this thread has no context

    t = threading.Thread(target=worker)
    t.start()
    t.join()
    assert other["empty"] == []  # the main thread's report is not this thread's
    assert other["msg"] == ONLY_GET_DEV_MSG
    assert aclGetRecentErrMsg() == null("aclrtGetDevice", "deviceId")
    assert aclGetRecentErrMsg() is None
    assert aclrtResetDevice(0) == 0 and aclFinalize() == 0


def test_get_recent_err_msg_in_a_thread_without_a_context_reports_its_own_failure():
    assert aclrtGetDevice(None) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg() == null("aclrtGetDevice", "deviceId") + TRACEBACK + GET_DEV_MSG_LINES
    assert aclGetRecentErrMsg() == ONLY_GET_DEV_MSG  # never None without a context
    # rtGetDevMsg's failure (ERROR_RETURN_WITH_EXT_ERRCODE) is the thread's last error
    assert aclrtGetLastError(ACL_RT_THREAD_LEVEL) == ACL_ERROR_RT_CONTEXT_NULL


def test_err_msg_process_mode(tmp_path):
    cfg = tmp_path / "acl.json"
    cfg.write_text('{"err_msg_mode": "1"}')
    assert aclInit(str(cfg)) == 0
    assert aclrtSetDevice(0) == 0
    t = threading.Thread(target=lambda: aclrtGetDevice(None))
    t.start()
    t.join()
    assert aclGetRecentErrMsg() == null("aclrtGetDevice", "deviceId")
    assert aclrtResetDevice(0) == 0
    assert aclFinalize() == 0


def test_several_messages_render_with_a_traceback():
    aclrtGetDevice(None)
    aclrtGetDeviceCount(None)
    assert aclGetRecentErrMsg() == (
        null("aclrtGetDevice", "deviceId")
        + TRACEBACK
        + f"{INDENT}aclrtGetDeviceCount failed because count cannot be a NULL pointer.\n"
        + f"{INDENT}{NO_CONTEXT}\n"
        + f"{INDENT}{GET_DEV_MSG}\n"
    )


def test_no_context_reports_for_each_context_user():
    assert aclInit(None) == 0 and aclrtSetDevice(0) == 0 and aclrtResetDevice(0) == 0
    assert aclrtSynchronizeDevice() == ACL_ERROR_RT_CONTEXT_NULL
    assert aclrtSetDevice(1) == 0  # read with a context: the function's own two reports only
    assert aclGetRecentErrMsg() == no_context("rtDeviceSynchronize")
    assert aclrtResetDevice(1) == 0 and aclFinalize() == 0


def test_runtime_state_is_reset_between_tests():
    assert RT.thread_context() is None and not RT.initialized


@pytest.mark.parametrize(
    ("content", "code", "report", "inner"),
    [
        (
            '{"simd_printf_fifo_size_per_core": 0}',
            ACL_ERROR_FAILURE,
            "Invalid_Argument(EH0009): Getting print fifo size failed. Value 0 for parameter fifoSize is invalid. "
            "Reason: value must be a positive integer in acl.json.",
            "[Process][PrintFifoSize]process HandlePrintFifoSizeConfig failed, ret=500001",
        ),
        (  # the regex runs on the JSON text: a quoted number is refused too
            '{"simt_printf_fifo_size": "512"}',
            ACL_ERROR_FAILURE,
            'Invalid_Argument(EH0009): Getting print fifo size failed. Value "512" for parameter fifoSize is invalid. '
            "Reason: value must be a positive integer in acl.json.",
            "[Process][PrintFifoSize]process HandlePrintFifoSizeConfig failed, ret=500001",
        ),
        (
            '{"acl_graph": {"event_mode": "2"}}',
            ACL_ERROR_INVALID_PARAM,
            "Invalid_Argument(EH0009): Getting event mode failed. Value 2 for parameter event_mode is invalid. Reason: "
            "value must be 0 or 1.",
            "[Process][EventMode]process HandleEventModeConfig failed, ret=100000",
        ),
    ],
)
def test_print_fifo_sizes_and_event_mode_are_checked(tmp_path, content, code, report, inner):
    cfg = tmp_path / "acl.json"
    cfg.write_text(content)
    assert aclInit(str(cfg)) == code
    msg = aclGetRecentErrMsg()
    assert msg.startswith(report) and f"{inner}{ACL_INNER}" in msg


def test_valid_print_fifo_sizes_and_event_mode_are_accepted(tmp_path):
    cfg = tmp_path / "acl.json"
    cfg.write_text('{"simd_printf_fifo_size_per_core": 2048, "acl_graph": {"event_mode": "1"}}')
    assert aclInit(str(cfg)) == 0 and aclFinalize() == 0
