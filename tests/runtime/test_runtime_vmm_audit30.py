"""Audit 30 of host registration, batch copies, virtual memory, cache descriptors and UCE calls:
CANN's check order, codes and texts where the audit found the emulator apart from
hicann/runtime (api_error.cc, api_impl.cc, api_c*.cc)."""

from __future__ import annotations

import numpy as np
import pytest
from rt_texts import FUNC_ERROR_REASON, GET_DEV_MSG_LINES, INDENT, POINTER_SOLUTION, RANGE_SOLUTION, TRACEBACK

from aclnn_py import (
    ACL_ERROR_RT_CONTEXT_NULL,
    ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
    ACL_ERROR_RT_INVALID_DEVICEID,
    ACL_ERROR_RT_PARAM_INVALID,
    ACL_HOST_REG_MAPPED,
    ACL_MEM_HUGE,
    ACL_MEM_HUGE1G,
    ACL_MEM_LOCATION_TYPE_DEVICE,
    ACL_MEM_LOCATION_TYPE_HOST,
    ACL_RT_THREAD_LEVEL,
    Ref,
    aclFinalize,
    aclGetRecentErrMsg,
    aclInit,
    aclrtCmoAsyncWithDesc,
    aclrtCreateStream,
    aclrtDestroyStream,
    aclrtFree,
    aclrtFreeHost,
    aclrtFreePhysical,
    aclrtGetLastError,
    aclrtGetMemUceInfo,
    aclrtHostMemMapCapabilities,
    aclrtHostRegister,
    aclrtHostRegisterV2,
    aclrtHostUnregister,
    aclrtMalloc,
    aclrtMallocHost,
    aclrtMallocPhysical,
    aclrtMemcpyBatch,
    aclrtMemcpyBatchAsync,
    aclrtMemcpyBatchAttr,
    aclrtMemExportToShareableHandle,
    aclrtMemImportFromShareableHandle,
    aclrtMemLocation,
    aclrtMemSetAccess,
    aclrtMemSetPidToShareableHandleV2,
    aclrtMemUceRepair,
    aclrtPhysicalMemProp,
    aclrtRepairError,
    aclrtResetDevice,
    aclrtSetDevice,
    aclrtSynchronizeStream,
    soc,
)

SIZE_MAX = 2**64 - 1
MB2 = 2 << 20
DEV = aclrtMemLocation(0, ACL_MEM_LOCATION_TYPE_DEVICE)
HOST = aclrtMemLocation(0, ACL_MEM_LOCATION_TYPE_HOST)
FEATURE = (
    "Invalid_Argument(EE1001): The argument is invalid. Reason: {} execution failed, the feature is not supported."
)


def headline() -> str:
    return (aclGetRecentErrMsg() or "").splitlines()[0]


def last_error() -> int:
    return int(aclrtGetLastError(ACL_RT_THREAD_LEVEL))


@pytest.fixture
def chip(request, monkeypatch):
    """Device 0 of the SoC the test names (default Ascend910B)."""
    monkeypatch.setenv("ACLNN_PY_SOC", getattr(request, "param", "Ascend910B"))
    soc.set_active(None)
    assert aclInit(None) == 0 and aclrtSetDevice(0) == 0
    last_error()
    yield
    aclrtResetDevice(0)
    aclFinalize()
    monkeypatch.undo()
    soc.set_active(None)


def dev_alloc(n: int) -> int:
    p = Ref()
    assert aclrtMalloc(p, n, 0) == 0
    return int(p.value)


def device_prop(attr: int = ACL_MEM_HUGE, dev: int = 0) -> aclrtPhysicalMemProp:
    return aclrtPhysicalMemProp(0, 0, attr, aclrtMemLocation(dev, ACL_MEM_LOCATION_TYPE_DEVICE), 0)


def device_id_lines(value: int, inner: str, count: int = 8) -> str:
    return (
        "Invalid_Argument(EE1003): Verifying the device ID validity failed because value "
        f"{value} for parameter devId is invalid. Expected value: [0, {count}).\n" + RANGE_SOLUTION + TRACEBACK + inner
    )


# -- 1-3: host registration -----------------------------------------------------------------------


def test_host_register_type_with_other_bits_gets_the_wrapper_s_feature_report(chip):
    host = np.zeros(16, np.float32)
    dev = Ref()
    assert aclrtHostRegister(host, host.nbytes, 0x10, dev) == ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    # ApiErrorDecorator::HostRegister only WARNs; rtsHostRegister's ERROR_RETURN_WITH_EXT_ERRCODE reports
    assert aclGetRecentErrMsg().startswith(FEATURE.format("rtsHostRegister") + "\n")
    assert last_error() == ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    assert dev.value is None


def test_host_registration_without_a_context_is_api_impl_s_null_check():
    host = np.zeros(16, np.float32)
    cases = [
        (lambda: aclrtHostRegister(host, host.nbytes, 0, Ref()), "HostRegister", 2561, "rtsHostRegister"),
        (lambda: aclrtHostRegisterV2(host, host.nbytes, ACL_HOST_REG_MAPPED), "HostRegisterV2", 2578,
         "rtHostRegisterV2"),
        (lambda: aclrtHostUnregister(host), "HostUnregister", 2617, "rtsHostUnregister"),
        (lambda: aclrtHostMemMapCapabilities(0, 0, Ref()), "HostMemMapCapabilities", 2674,
         "rtHostMemMapCapabilities"),
    ]  # fmt: skip
    for call, func, line, rt_fn in cases:
        assert call() == ACL_ERROR_RT_CONTEXT_NULL
        wrapper = f"The argument is invalid. Reason: {rt_fn} execution failed, the context is a null pointer."
        # the inner EE9999 of NULL_PTR_RETURN_MSG, not the EE1018 of the context validation
        assert aclGetRecentErrMsg() == (
            f"Invalid_Argument(EE1001): {wrapper}\n"
            + RANGE_SOLUTION
            + TRACEBACK
            + f"{INDENT}Check param failed, curCtx can not be null.[FUNC:{func}][FILE:api_impl.cc][LINE:{line}]\n"
            + f"{INDENT}{wrapper}\n"
            + GET_DEV_MSG_LINES
        )


def test_host_mem_map_capabilities_checks_the_device_then_hac_type_then_the_context():
    caps = Ref()
    # no context: the device id and the hacType are checked first (ApiErrorDecorator)
    assert aclrtHostMemMapCapabilities(99, 0, caps) == ACL_ERROR_RT_INVALID_DEVICEID
    assert aclGetRecentErrMsg() == device_id_lines(
        99,
        f"{INDENT}Device ID is invalid, drv devId=99, retCode=0x7010003[FUNC:HostMemMapCapabilities]"
        "[FILE:api_error.cc][LINE:2070]\n"
        f"{INDENT}rtHostMemMapCapabilities execution failed, reason=device id error{FUNC_ERROR_REASON}\n"
        + GET_DEV_MSG_LINES,
    )
    assert aclrtHostMemMapCapabilities(0, 10, caps) == ACL_ERROR_RT_PARAM_INVALID
    assert aclGetRecentErrMsg() == (
        "Invalid_Argument(EE1003): Querying the host memory mapping capability on a specified device failed because "
        "value 10 for parameter hacType is invalid. Expected value: [0, 10).\n"
        + RANGE_SOLUTION
        + TRACEBACK
        + f"{INDENT}The argument is invalid. Reason: rtHostMemMapCapabilities execution failed.\n"
        + GET_DEV_MSG_LINES
    )
    assert aclrtHostMemMapCapabilities(0, 9, caps) == ACL_ERROR_RT_CONTEXT_NULL
    assert caps.value is None


def test_host_mem_map_capabilities_with_a_context(chip):
    caps = Ref()
    assert aclrtHostMemMapCapabilities(0, 9, caps) == 0 and caps.value == 1
    assert aclrtHostMemMapCapabilities(0, -1, caps) == ACL_ERROR_RT_PARAM_INVALID
    assert "value 4294967295 for parameter hacType is invalid. Expected value: [0, 10)." in headline()


# -- 4-5: batch copies ------------------------------------------------------------------------------


@pytest.mark.parametrize("chip", ["Ascend910", "Ascend310P"], indirect=True)
def test_batch_copies_off_the_feature_refuse_before_the_decorator_s_checks(chip):
    a = dev_alloc(64)
    h = np.zeros(16, np.float32)
    fail = Ref(7)
    attrs = [aclrtMemcpyBatchAttr(DEV, HOST)]
    # attrsIdxs[0] 1 would be the decorator's EE1003: the feature comes first, failIdx untouched
    assert aclrtMemcpyBatch([a], [64], [h], [64], 1, attrs, [1], 1, fail) == ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    assert aclGetRecentErrMsg() is None and fail.value == 7
    assert last_error() == ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    st = Ref()
    assert aclrtCreateStream(st) == 0 and aclrtDestroyStream(st.value) == 0
    # a destroyed stream too: the feature is checked before the handle guard
    assert (
        aclrtMemcpyBatchAsync([a], [64], [h], [64], 1, attrs, [1], 1, fail, st.value)
        == ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    )
    assert aclGetRecentErrMsg() is None and fail.value == 7
    assert aclrtFree(a) == 0


def test_batch_async_checks_the_stream_before_the_decorator(chip):
    a = dev_alloc(64)
    h = np.zeros(16, np.float32)
    fail = Ref(7)
    st = Ref()
    assert aclrtCreateStream(st) == 0 and aclrtDestroyStream(st.value) == 0
    attrs = [aclrtMemcpyBatchAttr(DEV, HOST)]
    assert aclrtMemcpyBatchAsync([a], [64], [h], [64], 1, attrs, [1], 1, fail, st.value) != 0
    assert headline().startswith("Invalid_Argument(EE1017): Object validation failed. Parameter stream is invalid.")
    assert fail.value == 7  # RT_VALIDATE_AND_UNWRAP_OBJECT runs before the decorator's SetFailIndex
    assert aclrtFree(a) == 0


def test_batch_async_refuses_a_zero_size_pair_with_its_index(chip):
    a, b = dev_alloc(4096), dev_alloc(4096)
    h1, h2 = np.zeros(1024, np.float32), np.zeros(1024, np.float32)
    fail = Ref()
    attrs = [aclrtMemcpyBatchAttr(DEV, HOST)]
    rc = aclrtMemcpyBatchAsync([a, b], [4096, 4096], [h1, h2], [4096, 0], 2, attrs, [0], 1, fail, None)
    assert rc == ACL_ERROR_RT_PARAM_INVALID and fail.value == 1
    assert aclGetRecentErrMsg() == (
        "Invalid_Argument(EE1017): Checking memory copy params failed. Parameter size is invalid. Reason: Parameter "
        "size 0 should be greater than 0 and less than or equal to parameter destMax 4096.\n"
        + TRACEBACK
        + f"{INDENT}The argument is invalid. Reason: rtsMemcpyBatchAsync execution failed.\n"
    )
    assert aclrtSynchronizeStream(None) == 0
    assert aclrtFree(a) == 0 and aclrtFree(b) == 0


def test_batch_async_direction_and_attribute_refusals_read_as_validate_mem_cpy_params(chip):
    h, h2 = np.zeros(16, np.float32), np.zeros(16, np.float32)
    fail = Ref()
    h2h = [aclrtMemcpyBatchAttr(HOST, HOST)]
    assert aclrtMemcpyBatchAsync([h2], [64], [h], [64], 1, h2h, [0], 1, fail, None) == ACL_ERROR_RT_PARAM_INVALID
    assert headline() == (
        "Not_Supported(EE1016): Checking memory copy params failed. Reason: Only H2D and D2H copy directions are "
        "supported. The destination location type is MEMORY_LOC_HOST(0), and the source location type is "
        "MEMORY_LOC_HOST(0)."
    )
    assert fail.value == 0
    a = dev_alloc(64)
    wrong = [aclrtMemcpyBatchAttr(HOST, HOST)]
    assert aclrtMemcpyBatchAsync([a], [64], [h], [64], 1, wrong, [0], 1, fail, None) == ACL_ERROR_RT_PARAM_INVALID
    text = aclGetRecentErrMsg()
    assert text.startswith(
        "Invalid_Argument(EE1017): Checking memory copy attributes failed. Parameter dst is invalid. Reason: The "
        "input memory type MEMORY_LOC_HOST(0) and the actual memory type MEMORY_LOC_DEVICE(1) do not match"
    )
    assert (
        f"{INDENT}check attributes failed, attributes of src locationType=MEMORY_LOC_HOST(0), dst locationType="
        "MEMORY_LOC_HOST(0), actually dst locationType=MEMORY_LOC_DEVICE(1), src locationType=MEMORY_LOC_HOST(0)."
        "[FUNC:ValidateMemCpyParamsAndAttributes][FILE:api_impl.cc][LINE:8852]\n"
    ) in text
    assert text.endswith(f"{INDENT}The argument is invalid. Reason: rtsMemcpyBatchAsync execution failed.\n")
    assert aclrtFree(a) == 0


def test_batch_sync_attribute_refusal_has_the_inner_report(chip):
    a = dev_alloc(64)
    h = np.zeros(16, np.float32)
    fail = Ref()
    wrong = [aclrtMemcpyBatchAttr(DEV, DEV)]
    assert aclrtMemcpyBatch([a], [64], [h], [64], 1, wrong, [0], 1, fail) == ACL_ERROR_RT_PARAM_INVALID
    assert fail.value == 0
    text = aclGetRecentErrMsg()
    assert text.startswith(
        "Invalid_Argument(EE1017): Checking memory copy attributes failed. Parameter src is invalid. Reason: The "
        "input memory type MEMORY_LOC_DEVICE(1) and the actual memory type MEMORY_LOC_UNREGISTERED(2) do not match"
    )
    assert text.endswith(
        f"{INDENT}Failed to verify 0th memory pair attributes. retCode=0x7110001.[FUNC:MemcpyBatch]"
        "[FILE:api_impl.cc][LINE:8780]\n"
        f"{INDENT}The argument is invalid. Reason: rtsMemcpyBatch execution failed.\n"
    )
    pinned = Ref()
    assert aclrtMallocHost(pinned, 64) == 0  # page-locked memory: MEMORY_LOC_HOST, not UNREGISTERED
    assert aclrtMemcpyBatch([a], [64], [pinned.value], [64], 1, wrong, [0], 1, fail) == ACL_ERROR_RT_PARAM_INVALID
    assert "and the actual memory type MEMORY_LOC_HOST(0) do not match" in headline()
    assert aclrtFreeHost(pinned.value) == 0
    assert aclrtFree(a) == 0


def test_batch_sync_copies_without_a_context(monkeypatch):
    """ApiImpl::MemcpyBatch has no context check (NpuDriver::MemcpyBatch copies)."""
    monkeypatch.setenv("ACLNN_PY_SOC", "Ascend910B")
    soc.set_active(None)
    assert aclInit(None) == 0 and aclrtSetDevice(0) == 0
    a = dev_alloc(64)
    import threading

    got: list[int] = []
    src = np.arange(16, dtype=np.float32)
    attrs = [aclrtMemcpyBatchAttr(DEV, HOST)]

    def other_thread() -> None:
        got.append(int(aclrtMemcpyBatch([a], [64], [src], [64], 1, attrs, [0], 1, Ref())))
        got.append(int(aclrtMemcpyBatchAsync([a], [64], [src], [64], 1, attrs, [0], 1, Ref(), None)))

    t = threading.Thread(target=other_thread)
    t.start()
    t.join()
    assert got == [0, ACL_ERROR_RT_CONTEXT_NULL]
    out = np.zeros(16, np.float32)
    back = [aclrtMemcpyBatchAttr(HOST, DEV)]
    assert aclrtMemcpyBatch([out], [64], [a], [64], 1, back, [0], 1, Ref()) == 0 and out.tolist() == src.tolist()
    assert aclrtFree(a) == 0
    aclrtResetDevice(0)
    aclFinalize()
    monkeypatch.undo()
    soc.set_active(None)


# -- 6-8: virtual memory ----------------------------------------------------------------------------


@pytest.mark.parametrize("chip", ["Ascend910", "Ascend310P"], indirect=True)
def test_malloc_physical_1g_pages_off_the_feature_are_an_inner_report_without_last_error(chip):
    h = Ref()
    assert aclrtMallocPhysical(h, 1 << 30, device_prop(ACL_MEM_HUGE1G), 0) == ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    assert aclGetRecentErrMsg() == (
        "EE9999: Internal error!\nEE9999(EE9999):  pageType does not support, pageType[2], retCode=0x711000d"
        "[FUNC:MallocPhysical][FILE:api_error.cc][LINE:6364]\n" + TRACEBACK
    )
    assert last_error() == 0  # rtMallocPhysical: COND_RETURN_WITH_NOLOG
    assert h.value is None


def test_malloc_physical_bad_device_id_has_no_wrapper_report(chip):
    h = Ref()
    assert aclrtMallocPhysical(h, MB2, device_prop(dev=99), 0) == ACL_ERROR_RT_INVALID_DEVICEID
    assert aclGetRecentErrMsg() == device_id_lines(
        99,
        f"{INDENT}drv devId is invalid, drv devId=99, retCode=0x7010003[FUNC:MallocPhysical][FILE:api_error.cc]"
        "[LINE:6347]\n",
    )
    assert last_error() == ACL_ERROR_RT_INVALID_DEVICEID


def _mapped(h: Ref) -> tuple[int, int]:
    from aclnn_py import aclrtMapMem, aclrtReserveMemAddress

    assert aclrtMallocPhysical(h, MB2, device_prop(), 0) == 0
    va = Ref()
    assert aclrtReserveMemAddress(va, MB2, 0, None, 0) == 0
    assert aclrtMapMem(va.value, MB2, 0, h.value, 0) == 0
    return int(va.value), int(h.value)


def test_mem_set_access_count_and_flags_are_the_emulator_s_checks(chip):
    from aclnn_py import aclrtMemAccessDesc, aclrtReleaseMemAddress, aclrtUnmapMem

    va, h = _mapped(Ref())
    peer = aclrtMemLocation(1, ACL_MEM_LOCATION_TYPE_DEVICE)
    assert aclrtMemSetAccess(va, MB2, [aclrtMemAccessDesc(1, peer)], 0) == ACL_ERROR_RT_PARAM_INVALID
    assert aclGetRecentErrMsg() == (
        "aclnn_py: aclrtMemSetAccess: count must be greater than 0 (desc holds the access rights to set).\n"
    )
    assert aclrtMemSetAccess(va, MB2, [aclrtMemAccessDesc(2, peer)], 1) == ACL_ERROR_RT_PARAM_INVALID
    assert headline().startswith("aclnn_py: aclrtMemSetAccess: desc.flags 0x2 is not an aclrtMemAccessFlags")
    assert aclrtUnmapMem(va) == 0 and aclrtReleaseMemAddress(va) == 0 and aclrtFreePhysical(h) == 0


def test_shareable_handle_texts_follow_cann(chip):
    h = Ref()
    assert aclrtMallocPhysical(h, MB2, device_prop(), 0) == 0
    share = Ref()
    assert aclrtMemExportToShareableHandle(h.value, 0, 2, share) == ACL_ERROR_RT_PARAM_INVALID
    assert aclGetRecentErrMsg().endswith(
        f"{INDENT}The argument is invalid. Reason: rtMemExportToShareableHandle execution failed.\n"
    )
    assert aclrtMemExportToShareableHandle(h.value, 0, 1, share) == 0
    imported = Ref()
    assert aclrtMemImportFromShareableHandle(share.value, 99, imported) == ACL_ERROR_RT_INVALID_DEVICEID
    assert aclGetRecentErrMsg() == device_id_lines(
        99,
        f"{INDENT}drv devId is invalid, drv devId=99, retCode=0x7010003[FUNC:ImportFromShareableHandle]"
        "[FILE:api_error.cc][LINE:6446]\n"
        f"{INDENT}rtMemImportFromShareableHandle execution failed, reason=device id error{FUNC_ERROR_REASON}\n",
    )
    assert aclrtMemSetPidToShareableHandleV2(Ref(share.value), 5, [1], 1) == ACL_ERROR_RT_PARAM_INVALID
    assert headline() == (
        "Invalid_Argument(EE1003): Setting the trustlist of processes that can share memory failed because value "
        "UNKNOWN(5) for parameter handleType is invalid. Expected value: MEM_SHARE_HANDLE_TYPE_DEFAULT(1) or "
        "MEM_SHARE_HANDLE_TYPE_FABRIC(2)."
    )
    assert aclrtFreePhysical(h.value) == 0


# -- 9: cache descriptors ---------------------------------------------------------------------------

_CMO = "Using the memory descriptor to operate the cache memory on the device"


def test_cmo_with_desc_reports_as_rt_cmo_addr_task_launch(chip):
    desc = dev_alloc(32)
    assert aclrtCmoAsyncWithDesc(None, 1, None, None) == ACL_ERROR_RT_PARAM_INVALID
    assert aclGetRecentErrMsg() == (
        f"Invalid_Argument_Null_Pointer(EE1004): {_CMO} failed because cmoAddrInfo cannot be a NULL pointer.\n"
        + POINTER_SOLUTION
        + TRACEBACK
        + f"{INDENT}The argument is invalid. Reason: rtCmoAddrTaskLaunch execution failed.\n"
    )
    assert aclrtCmoAsyncWithDesc(desc, 4, None, None) == ACL_ERROR_RT_PARAM_INVALID
    assert headline() == (
        f"Invalid_Argument(EE1003): {_CMO} failed because value CMO_RESERVED(10) for parameter cmoOpCode is invalid. "
        "Expected value: [6, 10)."
    )
    assert aclrtCmoAsyncWithDesc(desc, -1, None, None) == ACL_ERROR_RT_PARAM_INVALID
    assert "value UNKNOWN(5) for parameter cmoOpCode" in headline()
    st = Ref()
    assert aclrtCreateStream(st) == 0 and aclrtDestroyStream(st.value) == 0
    assert aclrtCmoAsyncWithDesc(desc, 1, st.value, None) != 0
    assert aclGetRecentErrMsg().endswith(
        f"{INDENT}rtCmoAddrTaskLaunch failed. Parameter handle is invalid. Reason: 1. The handle has been destroyed. "
        "2. The handle type is not the expected one.\n"
    )
    assert aclrtFree(desc) == 0


# -- 10: UCE and repair -----------------------------------------------------------------------------


def test_uce_and_repair_device_checks_name_real_device_id(chip):
    from aclnn_py import aclrtErrorInfo

    n = Ref()
    assert aclrtGetMemUceInfo(99, [], 4, n) == ACL_ERROR_RT_INVALID_DEVICEID
    assert aclGetRecentErrMsg() == (
        "Invalid_Argument(EE1003): Obtaining the virtual address of the memory Uncorrectable Error (UCE) failed "
        "because value 99 for parameter realDeviceId is invalid. Expected value: [0, 8).\n"
        + RANGE_SOLUTION
        + TRACEBACK
        + f"{INDENT}rtGetMemUceInfo execution failed, reason=device id error{FUNC_ERROR_REASON}\n"
    )
    assert aclrtMemUceRepair(-1, [], 0) == ACL_ERROR_RT_INVALID_DEVICEID
    assert headline() == (
        "Invalid_Argument(EE1003): Rectifying the memory Uncorrectable Error (UCE) failed because value -1 for "
        "parameter realDeviceId is invalid. Expected value: [0, 8)."
    )
    info = aclrtErrorInfo()
    info.tryRepair = 1
    assert aclrtRepairError(99, info) == ACL_ERROR_RT_INVALID_DEVICEID
    assert aclGetRecentErrMsg() == (
        "Invalid_Argument(EE1003): Rectifying the device faults failed because value 99 for parameter realDeviceId "
        "is invalid. Expected value: [0,8).\n"
        + RANGE_SOLUTION
        + TRACEBACK
        + f"{INDENT}rtsRepairError execution failed, reason=device id error{FUNC_ERROR_REASON}\n"
    )


@pytest.mark.parametrize("chip", ["Ascend910"], indirect=True)
def test_uce_off_the_feature_leaves_no_last_error(chip):
    n = Ref()
    assert aclrtGetMemUceInfo(0, [], 4, n) == ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    assert aclGetRecentErrMsg() is None and last_error() == 0
    assert aclrtMemUceRepair(0, [], 0) == ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    assert aclGetRecentErrMsg() is None and last_error() == 0
