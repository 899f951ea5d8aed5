"""The devices and contexts chapter's additions (capabilities, resources, device information, the
current default stream, aclrtResetDeviceForce), the aclDataBuffer family and the refused kernel
launches."""

from __future__ import annotations

import pytest
from rt_texts import FUNC_ERROR_REASON, GET_DEV_MSG_LINES, RANGE_SOLUTION, TRACEBACK, bad_handle, null

from aclnn_py import (
    ACL_DEV_ATTR_AICORE_CORE_NUM,
    ACL_DEV_ATTR_AICPU_CORE_NUM,
    ACL_DEV_ATTR_CUBE_CORE_NUM,
    ACL_DEV_ATTR_L2_CACHE_SIZE,
    ACL_DEV_ATTR_NPU_ARCH,
    ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE,
    ACL_DEV_ATTR_VECTOR_CORE_NUM,
    ACL_DEV_FEATURE_SUPPORT,
    ACL_ERROR_INVALID_PARAM,
    ACL_ERROR_RT_CONTEXT_NULL,
    ACL_ERROR_RT_CONTEXT_RELEASE_ERROR,
    ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
    ACL_ERROR_RT_INVALID_DEVICEID,
    ACL_ERROR_RT_INVALID_HANDLE,
    ACL_ERROR_RT_PARAM_INVALID,
    ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV,
    ACL_RT_DEV_RES_CUBE_CORE,
    ACL_RT_DEV_RES_VECTOR_CORE,
    ACL_RT_DEVICE_STATUS_NORMAL,
    ACL_RT_THREAD_LEVEL,
    Ref,
    aclCreateDataBuffer,
    aclDestroyDataBuffer,
    aclFinalize,
    aclGetDataBufferAddr,
    aclGetDataBufferSize,
    aclGetDataBufferSizeV2,
    aclGetRecentErrMsg,
    aclInit,
    aclrtBinaryGetFunction,
    aclrtBinaryLoad,
    aclrtBinaryLoadFromData,
    aclrtBinaryLoadFromFile,
    aclrtCreateBinary,
    aclrtCreateContext,
    aclrtCreateStream,
    aclrtCtxGetCurrentDefaultStream,
    aclrtDestroyBinary,
    aclrtDestroyContext,
    aclrtDeviceGetStreamPriorityRange,
    aclrtDeviceGetUuid,
    aclrtFree,
    aclrtFreeHost,
    aclrtGetDeviceCapability,
    aclrtGetDeviceInfo,
    aclrtGetDeviceResLimit,
    aclrtGetDeviceUtilizationRate,
    aclrtGetLastError,
    aclrtGetResInCurrentThread,
    aclrtGetSocName,
    aclrtLaunchKernel,
    aclrtLaunchKernelWithConfig,
    aclrtMallocHostWithCfg,
    aclrtMallocWithCfg,
    aclrtPeekAtLastError,
    aclrtQueryDeviceStatus,
    aclrtResetDevice,
    aclrtResetDeviceForce,
    aclrtResetDeviceResLimit,
    aclrtSetDevice,
    aclrtSetDeviceResLimit,
    aclrtStreamQuery,
    aclrtSynchronizeStream,
    aclrtUtilizationInfo,
    aclUpdateDataBuffer,
)
from aclnn_py.runtime.device import RT

# -- capabilities and resources ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("chip", "supported"), [("Ascend910B", 1), ("Ascend950", 1), ("Ascend310P", 1), ("Ascend910", 0)]
)
def test_device_capability_task_update(soc, chip, supported):
    soc(chip)
    assert aclInit(None) == 0 and aclrtSetDevice(0) == 0
    value = Ref()
    assert aclrtGetDeviceCapability(0, ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV, value) == 0
    assert value.value == (ACL_DEV_FEATURE_SUPPORT if supported else 0)
    aclrtResetDevice(0)
    aclFinalize()


def test_device_capability_checks():
    assert aclInit(None) == 0
    value = Ref()
    assert aclrtGetDeviceCapability(0, 1, None) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg().startswith(null("aclrtGetDeviceCapability", "value"))
    assert aclrtGetDeviceCapability(0, 20002, value) == ACL_ERROR_RT_PARAM_INVALID
    # read before aclGetRecentErrMsg: without a context, its own rtGetDevMsg failure becomes the last error
    assert aclrtGetLastError(ACL_RT_THREAD_LEVEL) == ACL_ERROR_RT_PARAM_INVALID
    assert aclGetRecentErrMsg().startswith(
        "Invalid_Argument(EE1003): rtsDeviceGetCapability failed because value UNKNOWN(20002) for parameter "
        "devFeatureType is invalid. Expected value: [0, 20002).\n" + RANGE_SOLUTION
    )
    assert aclrtGetLastError(ACL_RT_THREAD_LEVEL) == ACL_ERROR_RT_CONTEXT_NULL
    assert aclrtGetDeviceCapability(0, 5, value) == ACL_ERROR_RT_PARAM_INVALID  # in range, no such feature
    assert aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL) == 0  # returned directly: not recorded
    assert "Expected value: [1, 20002)." in aclGetRecentErrMsg()
    assert aclrtGetDeviceCapability(9, 1, value) == ACL_ERROR_RT_INVALID_DEVICEID
    msg = aclGetRecentErrMsg()
    assert "Verifying the device ID validity failed because value 9 for parameter devId is invalid." in msg
    assert "drv devId is invalid, drv devId=9, retCode=0x7010003[FUNC:GetDeviceCapability][FILE:api_error.cc]" in msg
    assert f"rtsDeviceGetCapability execution failed, reason=device id error{FUNC_ERROR_REASON}" in msg
    assert aclrtGetDeviceCapability(0, 1, value) == ACL_ERROR_RT_CONTEXT_NULL  # type 1 needs a context
    aclGetRecentErrMsg()
    aclFinalize()


@pytest.mark.parametrize(
    ("chip", "cube", "vector"), [("Ascend910B3", 20, 40), ("Ascend950PR_9599", 36, 72), ("Ascend310P3", 8, 7)]
)
def test_resources_of_the_current_thread_follow_limits(soc, chip, cube, vector):
    soc(chip)
    assert aclInit(None) == 0 and aclrtSetDevice(0) == 0
    value = Ref()
    assert aclrtGetResInCurrentThread(ACL_RT_DEV_RES_CUBE_CORE, value) == 0 and value.value == cube
    assert aclrtGetResInCurrentThread(ACL_RT_DEV_RES_VECTOR_CORE, value) == 0 and value.value == vector
    assert aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_VECTOR_CORE, 4) == 0
    assert aclrtGetResInCurrentThread(ACL_RT_DEV_RES_VECTOR_CORE, value) == 0 and value.value == 4
    assert aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_VECTOR_CORE, value) == 0 and value.value == 4
    assert aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, cube + 1) == ACL_ERROR_RT_PARAM_INVALID
    msg = aclGetRecentErrMsg()
    assert msg.startswith(
        f"Invalid_Argument(EE1003): Setting the device resource limit failed because value {cube + 1} for "
        f"parameter value is invalid. Expected value: must be less than or equal to {cube}.\n"
    )
    assert msg.endswith("The argument is invalid. Reason: rtsSetDeviceResLimit execution failed.\n")
    assert aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, 0) == 0  # ApiImpl refuses only above the cores
    assert aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, value) == 0 and value.value == 0
    assert aclrtResetDeviceResLimit(0) == 0
    assert aclrtGetResInCurrentThread(ACL_RT_DEV_RES_VECTOR_CORE, value) == 0 and value.value == vector
    aclrtResetDevice(0)
    aclFinalize()


def test_resources_of_the_current_thread_checks():
    assert aclInit(None) == 0
    assert aclrtGetResInCurrentThread(2, Ref()) == ACL_ERROR_RT_PARAM_INVALID
    assert aclGetRecentErrMsg().startswith(
        "Invalid_Argument(EE1003): Obtaining the device resources that can be used by the current thread failed "
        "because value DEV_RES_TYPE_MAX(2) for parameter type is invalid. Expected value: [0, 2)."
    )
    assert aclrtGetResInCurrentThread(0, Ref()) == ACL_ERROR_RT_CONTEXT_NULL
    assert "rtsGetResInCurrentThread execution failed, the context is a null pointer." in aclGetRecentErrMsg()
    assert aclrtGetResInCurrentThread(0, None) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg().startswith(null("aclrtGetResInCurrentThread", "value"))
    aclFinalize()


@pytest.mark.parametrize(
    ("chip", "attr", "value"),
    [
        ("Ascend910B1", ACL_DEV_ATTR_AICORE_CORE_NUM, 24),
        ("Ascend910B1", ACL_DEV_ATTR_CUBE_CORE_NUM, 24),
        ("Ascend910B1", ACL_DEV_ATTR_VECTOR_CORE_NUM, 48),
        ("Ascend910B1", ACL_DEV_ATTR_L2_CACHE_SIZE, 192 << 20),
        ("Ascend910B1", ACL_DEV_ATTR_NPU_ARCH, 2201),
        ("Ascend950PR_9599", ACL_DEV_ATTR_NPU_ARCH, 3510),
        ("Ascend910_9391", ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE, 32 << 30),
        ("Ascend910A", ACL_DEV_ATTR_AICPU_CORE_NUM, 4),
        ("Ascend310P1", ACL_DEV_ATTR_AICPU_CORE_NUM, 8),
    ],
)
def test_device_info(soc, chip, attr, value):
    soc(chip)
    assert aclInit(None) == 0
    got = Ref()
    assert aclrtGetDeviceInfo(0, attr, got) == 0 and got.value == value
    aclFinalize()


def test_device_info_checks(soc):
    soc("Ascend310P3")  # its platform ini has no cube_core_cnt
    assert aclInit(None) == 0
    got = Ref()
    assert aclrtGetDeviceInfo(0, ACL_DEV_ATTR_CUBE_CORE_NUM, got) == ACL_ERROR_RT_PARAM_INVALID
    assert (
        "get platform res failed, label=SoCInfo, key=cube_core_cnt socVersion=Ascend310P3[FUNC:"
        "GetDeviceInfoFromPlatformInfo][FILE:api_impl_standard_soc.cc][LINE:339]" in aclGetRecentErrMsg()
    )
    assert aclrtGetDeviceInfo(8, ACL_DEV_ATTR_AICORE_CORE_NUM, got) == ACL_ERROR_RT_PARAM_INVALID
    assert aclGetRecentErrMsg() == (
        "Invalid_Argument(EE1003): Querying device information based on the specified attribute failed because value "
        "8 for parameter realDeviceId is invalid. Expected value: [0, 8).\n"
        + RANGE_SOLUTION
        + TRACEBACK
        + "        The argument is invalid. Reason: rtsDeviceGetInfo execution failed.\n"
        + GET_DEV_MSG_LINES
    )
    assert aclrtGetDeviceInfo(0, 7, got) == ACL_ERROR_RT_PARAM_INVALID
    assert "Getting the device attributes failed because value UNKNOWN(7) for parameter attr" in aclGetRecentErrMsg()
    aclFinalize()


def test_priority_range_status_and_default_stream(dev0):
    least, greatest = Ref(), Ref()
    assert aclrtDeviceGetStreamPriorityRange(least, greatest) == 0 and (least.value, greatest.value) == (7, 0)
    assert aclrtDeviceGetStreamPriorityRange(None, None) == 0
    status = Ref()
    assert aclrtQueryDeviceStatus(0, status) == 0 and status.value == ACL_RT_DEVICE_STATUS_NORMAL
    default = Ref()
    assert aclrtCtxGetCurrentDefaultStream(default) == 0
    assert default.value is RT.thread_context().default_stream
    state = Ref()
    assert aclrtStreamQuery(default.value, state) == 0 and aclrtSynchronizeStream(default.value) == 0
    other = Ref()
    assert aclrtCreateContext(other, 0) == 0
    assert aclrtCtxGetCurrentDefaultStream(default) == 0 and default.value is other.value.default_stream
    assert aclrtDestroyContext(other.value) == 0
    assert aclrtSetDevice(0) == 0
    aclrtResetDevice(0)


def test_default_stream_needs_a_context():
    assert aclInit(None) == 0
    assert aclrtCtxGetCurrentDefaultStream(Ref()) == ACL_ERROR_RT_CONTEXT_NULL
    assert "rtCtxGetCurrentDefaultStream execution failed, the context is a null pointer." in aclGetRecentErrMsg()
    aclFinalize()


def test_reset_device_force_releases_every_reference(findings):
    assert aclInit(None) == 0
    for _ in range(3):
        assert aclrtSetDevice(0) == 0
    s = Ref()
    assert aclrtCreateStream(s) == 0
    assert aclrtResetDeviceForce(0) == 0
    assert RT.devices[0].refcount == 0 and s.value.destroyed
    assert findings.refresh().checks() == ["leakcheck"]  # the stream was never destroyed
    assert aclrtResetDeviceForce(0) == ACL_ERROR_RT_CONTEXT_RELEASE_ERROR  # nothing left to release
    assert "PrimaryContextRelease failed during force reset, retain count is 0." in aclGetRecentErrMsg()
    assert aclrtResetDevice(0) == ACL_ERROR_RT_CONTEXT_RELEASE_ERROR
    aclGetRecentErrMsg()
    aclFinalize()


def test_soc_name_before_init_is_the_real_name(soc):
    soc("Ascend910_9382")
    assert aclrtGetSocName() == "Ascend910_9382"


# -- aclDataBuffer ---------------------------------------------------------------------------------


def test_data_buffer_describes_memory_without_owning_it():
    buf = aclCreateDataBuffer(0x1000, 2**32 + 5)
    assert aclGetDataBufferAddr(buf) == 0x1000
    assert aclGetDataBufferSizeV2(buf) == 2**32 + 5
    assert aclGetDataBufferSize(buf) == 5  # the deprecated getter truncates to uint32
    assert aclUpdateDataBuffer(buf, 0x2000, 64) == 0
    assert (aclGetDataBufferAddr(buf), aclGetDataBufferSizeV2(buf)) == (0x2000, 64)
    assert aclDestroyDataBuffer(buf) == 0
    empty = aclCreateDataBuffer(None, 0)  # CANN checks neither argument
    assert aclGetDataBufferAddr(empty) is None and aclGetDataBufferSizeV2(empty) == 0
    assert aclDestroyDataBuffer(empty) == 0
    assert aclGetDataBufferAddr(None) is None and aclGetDataBufferSizeV2(None) == 0
    assert aclDestroyDataBuffer(None) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg().startswith(null("aclDestroyDataBuffer", "dataBuffer"))
    assert aclUpdateDataBuffer(None, 0, 0) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg().startswith(null("aclUpdateDataBuffer", "dataBuffer"))


# -- kernel launches are refused ---------------------------------------------------------------------


def test_loading_a_kernel_binary_is_refused_with_a_clear_message(dev0, tmp_path):
    path = tmp_path / "add_custom.o"
    path.write_bytes(b"\x7fELF")
    handle = Ref()
    assert aclrtBinaryLoadFromFile(str(path), None, handle) == ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    msg = aclGetRecentErrMsg()
    assert msg.startswith(f"aclnn_py: aclrtBinaryLoadFromFile: loading the kernel binary {path}: aclnn_py cannot run")
    assert "custom AscendC kernels" in msg and handle.value is None
    assert aclrtBinaryLoadFromData(b"\x7fELF", 4, None, handle) == ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    aclGetRecentErrMsg()
    assert aclrtBinaryLoadFromData(b"\x7fELF", 0, None, handle) == ACL_ERROR_RT_PARAM_INVALID
    assert aclGetRecentErrMsg().startswith(
        "Invalid_Argument(EE1003): Loading and parsing the operator binary data from the memory failed because value "
        "0 for parameter length is invalid. Expected value: not equal to 0."
    )
    binary = aclrtCreateBinary(b"\x7fELF", 4)
    assert aclrtBinaryLoad(binary, handle) == ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    aclGetRecentErrMsg()
    assert aclrtDestroyBinary(binary) == 0
    assert aclrtBinaryLoadFromFile(None, None, handle) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg().startswith(null("aclrtBinaryLoadFromFile", "binPath"))


def test_launching_with_a_handle_never_issued_is_107017(dev0):
    fake = object()
    assert aclrtBinaryGetFunction(fake, "add_custom", Ref()) == ACL_ERROR_RT_INVALID_HANDLE
    assert aclGetRecentErrMsg() == bad_handle("binHandle", "rtsFuncGetByName")
    assert aclrtLaunchKernel(fake, 8, b"args", 4, None) == ACL_ERROR_RT_INVALID_HANDLE
    assert aclGetRecentErrMsg() == bad_handle("funcHandle", "rtLaunchKernelByFuncHandleV3")
    assert aclrtLaunchKernel(None, 8, b"args", 4, None) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg().startswith(null("aclrtLaunchKernel", "funcHandle"))
    assert aclrtLaunchKernelWithConfig(fake, 0, None, None, fake, None) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg().startswith(
        "Invalid_Argument(EH0007): aclrtLaunchKernelWithConfig failed because value 0 for parameter numBlocks is "
        "invalid. Expected value: must be greater than 0."
    )
    assert aclrtLaunchKernelWithConfig(fake, 8, None, None, fake, None) == ACL_ERROR_RT_INVALID_HANDLE
    assert aclGetRecentErrMsg() == bad_handle("funcHandle", "rtsLaunchKernelWithConfig")


def test_utilization_and_uuid(dev0):
    info = aclrtUtilizationInfo()
    assert aclrtGetDeviceUtilizationRate(0, info) == 0
    assert (info.cubeUtilization, info.vectorUtilization, info.aicpuUtilization, info.memoryUtilization) == (
        -1,
        -1,
        -1,
        -1,
    )
    info.utilizationExtend = 0x1000
    assert aclrtGetDeviceUtilizationRate(0, info) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg().startswith(
        "Invalid_Argument(EH0012): aclrtGetDeviceUtilizationRate failed. Parameter utilizationInfo->utilizationExtend "
        "is invalid. Reason: utilizationExtend is a reserved parameter and must be nullptr."
    )
    a, b = Ref(), Ref()
    assert aclrtDeviceGetUuid(0, a) == 0 and aclrtDeviceGetUuid(1, b) == 0
    assert len(a.value) == 16 and a.value != b.value
    assert aclrtDeviceGetUuid(0, None) == ACL_ERROR_INVALID_PARAM
    aclGetRecentErrMsg()


def test_malloc_with_cfg(dev0):
    p, h = Ref(), Ref()
    assert aclrtMallocWithCfg(p, 10, 0, None) == 0
    assert aclrtMallocHostWithCfg(h, 10, None) == 0
    assert aclrtMallocWithCfg(None, 10, 0, None) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg().startswith(null("aclrtMallocInnerWithCfg", "devPtr"))
    assert aclrtMallocHostWithCfg(h, 0, None) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg().startswith(
        "Invalid_Argument(EH0007): aclrtMallocHostWithCfg failed because value 0 for parameter size is invalid. "
        "Expected value: must be greater than 0."
    )

    class Cfg:
        attrs = None
        numAttrs = 2

    assert aclrtMallocWithCfg(Ref(), 10, 0, Cfg()) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg().startswith(
        "Invalid_Argument(EH0009): aclrtMallocInnerWithCfg failed. Value 2 for parameter cfg->numAttrs is invalid. "
        "Reason: cfg->attrs must not be null when cfg->numAttrs is not 0."
    )

    assert aclrtFree_(p.value) == 0 and aclrtFreeHost(h.value) == 0


def aclrtFree_(ptr):

    return aclrtFree(ptr)
