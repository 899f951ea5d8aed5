"""Errors and system information: the thread's last error, error details, package versions, CANN
attributes, the architecture check, device capabilities, float16, the sanitizer's error mode."""

from __future__ import annotations

import math
import threading

import numpy as np
import pytest
from rt_texts import FUNC_ERROR_REASON, ONLY_GET_DEV_MSG, null

from aclnn_py import (
    ACL_CANN_ATTR_BF16,
    ACL_CANN_ATTR_INF_NAN,
    ACL_CANN_ATTR_JIT_COMPILE,
    ACL_DEVICE_INFO_AI_CORE_NUM,
    ACL_DEVICE_INFO_L2_SIZE,
    ACL_DEVICE_INFO_VECTOR_CORE_NUM,
    ACL_ERROR_FEATURE_UNSUPPORTED,
    ACL_ERROR_INTERNAL_ERROR,
    ACL_ERROR_INVALID_FILE,
    ACL_ERROR_INVALID_PARAM,
    ACL_ERROR_RT_CONTEXT_NULL,
    ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
    ACL_ERROR_RT_INVALID_DEVICEID,
    ACL_ERROR_RT_INVALID_HANDLE,
    ACL_ERROR_RT_PARAM_INVALID,
    ACL_MEMCPY_DEVICE_TO_HOST,
    ACL_PKG_VERSION_MAX_SIZE,
    ACL_RT_NO_ERROR,
    ACL_RT_THREAD_LEVEL,
    Ref,
    aclFinalize,
    aclFloat16ToFloat,
    aclFloatToFloat16,
    aclGetCannAttribute,
    aclGetCannAttributeList,
    aclGetDeviceCapability,
    aclGetRecentErrMsg,
    aclInit,
    aclrtCheckArchCompatibility,
    aclrtCreateStream,
    aclrtDestroyStream,
    aclrtFree,
    aclrtGetErrorVerbose,
    aclrtGetLastError,
    aclrtGetRunMode,
    aclrtGetSocName,
    aclrtGetVersion,
    aclrtMalloc,
    aclrtMemcpy,
    aclrtPeekAtLastError,
    aclrtResetDevice,
    aclrtSetDevice,
    aclrtSynchronizeStream,
    aclsysGetVersionNum,
    aclsysGetVersionStr,
)
from aclnn_py.runtime import api_info, sanitizer

# -- the thread's last error -----------------------------------------------------------------------


def test_last_error_holds_the_newest_runtime_failure_and_get_clears_it():
    assert aclInit(None) == 0
    assert aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL) == 0
    assert aclrtSetDevice(99) == ACL_ERROR_RT_INVALID_DEVICEID  # a runtime failure
    assert aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL) == ACL_ERROR_RT_INVALID_DEVICEID
    assert aclrtDestroyStream(object()) == ACL_ERROR_RT_INVALID_HANDLE  # the newest wins
    assert aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL) == ACL_ERROR_RT_INVALID_HANDLE
    assert aclrtSetDevice(0) == 0  # a success does not clear it
    assert aclrtGetLastError(ACL_RT_THREAD_LEVEL) == ACL_ERROR_RT_INVALID_HANDLE
    assert aclrtGetLastError(ACL_RT_THREAD_LEVEL) == 0
    aclGetRecentErrMsg()
    aclrtResetDevice(0)
    aclFinalize()


def test_acl_layer_refusals_and_silent_returns_do_not_set_the_last_error():
    """hicann/runtime example 1_error_handling: aclrtGetRunMode(nullptr) is an ACL-layer refusal."""
    assert aclInit(None) == 0
    assert aclrtGetRunMode(None) == ACL_ERROR_INVALID_PARAM
    assert aclrtCreateStream(None) == ACL_ERROR_INVALID_PARAM
    assert aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL) == 0
    assert aclrtGetLastError(ACL_RT_THREAD_LEVEL) == 0
    aclGetRecentErrMsg()
    aclFinalize()


def test_a_failed_task_reported_by_synchronize_is_a_last_error(deferred, dev, findings):
    """Deferred (pinned): the copy runs at the synchronize, after the free, and fails there
    (eager ran it before the free)."""
    p = Ref()
    assert aclrtMalloc(p, 64, 0) == 0
    from aclnn_py import ACL_MEMCPY_HOST_TO_DEVICE, aclrtMemcpyAsync

    assert aclrtMemcpyAsync(p.value, 64, np.ones(64, np.uint8), 64, ACL_MEMCPY_HOST_TO_DEVICE, dev.stream) == 0
    assert aclrtFree(p.value) == 0
    code = aclrtSynchronizeStream(dev.stream)
    assert code != 0 and aclrtGetLastError(ACL_RT_THREAD_LEVEL) == code
    aclGetRecentErrMsg()
    findings.refresh()


def test_the_last_error_is_per_thread():
    assert aclInit(None) == 0
    assert aclrtSetDevice(99) == ACL_ERROR_RT_INVALID_DEVICEID
    seen = []
    t = threading.Thread(target=lambda: seen.append(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL)))
    t.start()
    t.join()
    assert seen == [0]
    assert aclrtGetLastError(ACL_RT_THREAD_LEVEL) == ACL_ERROR_RT_INVALID_DEVICEID
    aclGetRecentErrMsg()
    aclFinalize()


@pytest.mark.parametrize("func", [aclrtGetLastError, aclrtPeekAtLastError])
def test_only_the_thread_level_exists(func):
    assert func(1) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg().startswith(
        f"Invalid_Argument(EH0007): {func.__name__} failed because value 1 for parameter level is invalid. Expected "
        "value: ACL_RT_THREAD_LEVEL."
    )


def test_error_verbose_reports_no_device_fault(dev):
    info = Ref()
    assert aclrtGetErrorVerbose(0, info) == 0
    assert info.value.errorType == ACL_RT_NO_ERROR and info.value.tryRepair == 0 and info.value.hasDetail == 0
    assert aclrtGetErrorVerbose(0, None) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg().startswith(null("aclrtGetErrorVerbose", "errorInfo"))
    assert aclrtGetErrorVerbose(-1, info) == ACL_ERROR_RT_INVALID_DEVICEID
    msg = aclGetRecentErrMsg()
    assert (
        "Obtaining detailed error information failed because value 4294967295 for parameter realDeviceId is invalid. "
        "Expected value: [0,8)." in msg
    )
    assert f"rtsGetErrorVerbose execution failed, reason=device id error{FUNC_ERROR_REASON}" in msg


@pytest.mark.parametrize("chip", ["Ascend910", "Ascend310P"])
def test_error_verbose_is_not_supported_on_older_chips(soc, chip):
    soc(chip)
    assert aclInit(None) == 0
    assert aclrtGetErrorVerbose(0, Ref()) == ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    assert aclrtGetLastError(ACL_RT_THREAD_LEVEL) == ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    aclFinalize()


# -- versions --------------------------------------------------------------------------------------


def test_runtime_version_without_an_install_tree(monkeypatch):
    monkeypatch.delenv("ASCEND_HOME_PATH", raising=False)
    text, num = Ref(), Ref()
    assert aclsysGetVersionStr("runtime", text) == 0 and text.value == "9.1.0"
    assert aclsysGetVersionNum("runtime", num) == 0 and num.value == 90100000
    assert aclsysGetVersionStr("opp", text) == ACL_ERROR_INVALID_FILE
    assert aclGetRecentErrMsg() == ONLY_GET_DEV_MSG  # logged only (the text is aclGetRecentErrMsg's own)
    assert ACL_PKG_VERSION_MAX_SIZE == 128


def test_versions_from_an_install_tree(tmp_path, monkeypatch):
    for pkg, content in [
        ("runtime", "Version=8.5.0\nversion_dir=8.5\n"),
        ("ops_math", "  Version= 9.0.0-beta.1 \n"),
        ("hccl", "Version=9.0.0RC2\n"),
        ("bad", "Version=9.0.0T10\n"),
        ("empty", "name=empty\n"),
    ]:
        (tmp_path / "share" / "info" / pkg).mkdir(parents=True)
        (tmp_path / "share" / "info" / pkg / "version.info").write_text(content)
    monkeypatch.setenv("ASCEND_HOME_PATH", str(tmp_path))
    text, num = Ref(), Ref()
    assert aclsysGetVersionStr("runtime", text) == 0 and text.value == "8.5.0"
    assert aclsysGetVersionNum("runtime", num) == 0 and num.value == 80500000
    assert aclsysGetVersionStr("ops-math", text) == 0 and text.value == "9.0.0-beta.1"  # "-" tried as "_"
    assert aclsysGetVersionNum("ops_math", num) == 0 and num.value == 89999801
    assert aclsysGetVersionNum("hccl", num) == 0 and num.value == 89999902
    assert aclsysGetVersionNum("bad", num) == ACL_ERROR_INTERNAL_ERROR
    assert aclsysGetVersionStr("empty", text) == ACL_ERROR_INVALID_FILE
    path = tmp_path / "share" / "info" / "empty" / "version.info"
    assert aclGetRecentErrMsg().startswith(
        f"File_Operation_Error(EH0004): File {path} is invalid. Reason: Keyword Version= not found in version info file."
    )
    assert aclsysGetVersionStr("missing", text) == ACL_ERROR_INVALID_FILE


@pytest.mark.parametrize(
    ("text", "number"),
    [
        ("8.5.0", 80500000),
        ("9.0.0-beta.1", 89999801),
        ("9.0.0-rc.2", 89999902),
        ("9.0.0.alpha3", 89999703),
        ("9.0.0rc", 89999900),
        ("9.0.0--rc1", None),  # two separators before the keyword
        ("9.0.0-rc..1", None),
        ("9.0.0.1", None),
        ("9.0", None),
        ("9..0", None),
    ],
)
def test_version_numbers(text, number):
    assert api_info.version_number(text) == number


def test_version_calls_check_their_pointers():
    assert aclsysGetVersionStr(None, None) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg().startswith(null("aclsysGetVersionStr", "versionStr"))  # versionStr first
    assert aclsysGetVersionNum(None, Ref()) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg().startswith(null("aclsysGetVersionNum", "pkgName"))


def test_acl_version():
    major, minor, patch = Ref(), Ref(), Ref()
    assert aclrtGetVersion(major, minor, patch) == 0
    assert (major.value, minor.value, patch.value) == (1, 17, 0)
    assert aclrtGetVersion(major, None, patch) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg().startswith(null("aclrtGetVersion", "minorVersion"))


# -- CANN attributes, architecture, capabilities -----------------------------------------------------


@pytest.mark.parametrize(
    ("chip", "attrs"),
    [("Ascend910B", (0, 1, 2)), ("Ascend910_93", (0, 1, 2)), ("Ascend950", (0, 1, 2)), ("Ascend910", (2,)),
     ("Ascend310P", (2,))],
)  # fmt: skip
def test_cann_attributes(soc, chip, attrs):
    soc(chip)
    listed, num, value = Ref(), Ref(), Ref()
    assert aclGetCannAttributeList(listed, num) == 0
    assert listed.value == attrs and num.value == len(attrs)
    for attr in (ACL_CANN_ATTR_INF_NAN, ACL_CANN_ATTR_BF16, ACL_CANN_ATTR_JIT_COMPILE):
        assert aclGetCannAttribute(attr, value) == 0 and value.value == (1 if attr in attrs else 0)
    assert aclGetCannAttribute(3, value) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg() == ONLY_GET_DEV_MSG  # a WARN only
    assert aclGetCannAttributeList(None, num) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg().startswith(null("aclGetCannAttributeList", "cannAttrList"))


@pytest.mark.parametrize(
    ("chip", "other", "compatible"),
    [
        ("Ascend910B2", "Ascend910B4", 1),
        ("Ascend910B2", "Ascend910_9391", 1),  # the same NpuArch 2201
        ("Ascend910B2", "Ascend910B", 0),  # CANN's Ascend910B is the old Ascend 910 chip (1001)
        ("Ascend910A", "Ascend910", 1),
        ("Ascend950PR_9599", "Ascend950DT_9591", 1),
        ("Ascend310P3", "Ascend310B1", 0),
    ],
)
def test_arch_compatibility(soc, chip, other, compatible):
    soc(chip)
    result = Ref()
    assert aclrtCheckArchCompatibility(aclrtGetSocName(), result) == 0 and result.value == 1
    assert aclrtCheckArchCompatibility(other, result) == 0 and result.value == compatible


def test_arch_compatibility_checks():
    result = Ref()
    assert aclrtCheckArchCompatibility(None, result) == ACL_ERROR_RT_PARAM_INVALID
    assert aclGetRecentErrMsg().startswith(
        "Invalid_Argument_Null_Pointer(EE1004): Checking operator instruction compatibility based on the SoC version "
        "failed because omSocVersion cannot be a NULL pointer."
    )
    assert aclrtCheckArchCompatibility("Ascend123", result) == ACL_ERROR_RT_PARAM_INVALID
    assert (
        "Checking operator instruction compatibility based on the SoC version failed. Value Ascend123 for parameter "
        "omSocVersion is invalid. Reason: SoC version Ascend123 is invalid." in aclGetRecentErrMsg()
    )


@pytest.mark.parametrize(
    ("chip", "aic", "vec", "l2"),
    [("Ascend910B3", 20, 40, 192 << 20), ("Ascend950PR_9599", 36, 72, 128 << 20), ("Ascend310P3", 8, 7, 16 << 20)],
)
def test_device_capability_of_acl_base(soc, chip, aic, vec, l2):
    soc(chip)
    assert aclInit(None) == 0
    value = Ref()
    for info, want in ((ACL_DEVICE_INFO_AI_CORE_NUM, aic), (ACL_DEVICE_INFO_VECTOR_CORE_NUM, vec),
                       (ACL_DEVICE_INFO_L2_SIZE, l2)):  # fmt: skip
        assert aclGetDeviceCapability(0, info, value) == 0 and value.value == want
    assert aclGetDeviceCapability(0, 3, value) == ACL_ERROR_INVALID_PARAM
    assert aclGetDeviceCapability(8, 0, value) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg().startswith(
        "Invalid_Argument(EH0009): aclGetDeviceCapability failed. Value 8 for parameter deviceId is invalid. "
        "Reason: deviceId 8 greater than deviceNum 8."
    )
    aclFinalize()


# -- float16 ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "bits"),
    [
        (1.0, 0x3C00),
        (-2.5, 0xC100),
        (65504.0, 0x7BFF),
        (65520.0, 0x7BFF),  # rounds up to exponent 31: saturates
        (1e6, 0x7BFF),
        (math.inf, 0x7BFF),
        (-math.inf, 0xFBFF),
        (math.nan, 0x7BFF),
        (1.0 + 2**-11, 0x3C00),  # a tie: to even
        (1.0 + 3 * 2**-11, 0x3C02),
        (2**-24, 0x0001),
        (2**-25 * 1.5, 0x0001),  # between half the smallest subnormal and it
        (2**-25, 0x0000),  # exactly half: to even
        (2**-26, 0x0000),
        (-0.0, 0x8000),
        (6.097555e-05, 0x03FF),
    ],
)
def test_float_to_float16(value, bits):
    assert aclFloatToFloat16(value) == bits


@pytest.mark.parametrize(
    ("bits", "value"),
    [(0x3C00, 1.0), (0x7BFF, 65504.0), (0x7C00, 65536.0), (0xFC00, -65536.0), (0x7E00, 98304.0), (0x0001, 2**-24),
     (0x8000, -0.0)],
)  # fmt: skip
def test_float16_to_float(bits, value):
    got = aclFloat16ToFloat(bits)
    assert got == value and math.copysign(1.0, got) == math.copysign(1.0, value)


def test_float16_round_trip_agrees_with_numpy_on_finite_values():
    rng = np.random.default_rng(0)
    xs = rng.standard_normal(2000).astype(np.float32) * 1000
    for x in xs:
        assert aclFloatToFloat16(float(x)) == int(np.float16(x).view(np.uint16))
    for bits in range(0, 0x7C00, 97):
        assert aclFloat16ToFloat(bits) == float(np.uint16(bits).view(np.float16))


# -- the sanitizer's error mode prints what warn prints (issue 17, bug 3) ---------------------------


def test_error_mode_prints_the_finding_then_fails(dev, findings, capsys):
    sanitizer.set_mode("error")
    p = Ref()
    assert aclrtMalloc(p, 16, 0) == 0
    host = np.zeros(16, np.uint8)
    code = aclrtMemcpy(host, 16, p.value, 16, ACL_MEMCPY_DEVICE_TO_HOST)  # never written: initcheck
    assert code != 0
    err = capsys.readouterr().err
    assert err.startswith("aclnn_py sanitizer [initcheck]: ") and "was never written" in err
    assert "was never written" in aclGetRecentErrMsg()
    sanitizer.set_mode("warn")
    aclrtFree(p.value)
    assert findings.refresh().checks() == ["initcheck"]


def test_no_context_is_not_an_acl_layer_failure():
    assert aclInit(None) == 0
    assert aclrtCreateStream(Ref()) == ACL_ERROR_RT_CONTEXT_NULL
    assert aclrtGetLastError(ACL_RT_THREAD_LEVEL) == ACL_ERROR_RT_CONTEXT_NULL
    aclGetRecentErrMsg()
    assert ACL_ERROR_FEATURE_UNSUPPORTED == 200006
    aclFinalize()
