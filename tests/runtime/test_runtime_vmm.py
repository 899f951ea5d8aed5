"""Virtual memory (reserve, physical handles, map, access, shareable handles) and host registration:
CANN's checks and texts, and memory that is really mapped (aliases, unmapped addresses refused by
copies and kernels alike)."""

from __future__ import annotations

import os

import numpy as np
import pytest
from rt_texts import FUNC_ERROR_REASON, INDENT, RANGE_SOLUTION, TRACEBACK, null

from aclnn_py import (
    ACL_DDR_MEM_HUGE,
    ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED,
    ACL_ERROR_HOST_MEMORY_NOT_REGISTERED,
    ACL_ERROR_INVALID_PARAM,
    ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
    ACL_ERROR_RT_INVALID_DEVICEID,
    ACL_ERROR_RT_PARAM_INVALID,
    ACL_FLOAT,
    ACL_FORMAT_ND,
    ACL_HBM_MEM_HUGE,
    ACL_HBM_MEM_NORMAL,
    ACL_HOST_REG_MAPPED,
    ACL_MEM_HUGE,
    ACL_MEM_HUGE1G,
    ACL_MEM_LOCATION_TYPE_DEVICE,
    ACL_MEM_LOCATION_TYPE_HOST,
    ACL_MEM_LOCATION_TYPE_MANAGED,
    ACL_MEM_NORMAL,
    ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT,
    ACL_MEM_SHARE_HANDLE_TYPE_FABRIC,
    ACL_MEMCPY_DEVICE_TO_HOST,
    ACL_MEMCPY_HOST_TO_DEVICE,
    ACL_RT_MEM_ACCESS_FLAGS_NONE,
    ACL_RT_MEM_ACCESS_FLAGS_READ,
    ACL_RT_MEM_ACCESS_FLAGS_READWRITE,
    ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM,
    ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION,
    Ref,
    aclCreateScalar,
    aclCreateTensor,
    aclDestroyScalar,
    aclDestroyTensor,
    aclGetRecentErrMsg,
    aclnnInplaceFillScalar,
    aclnnInplaceFillScalarGetWorkspaceSize,
    aclrtFree,
    aclrtFreePhysical,
    aclrtGetMemInfo,
    aclrtHostGetDevicePointer,
    aclrtHostRegister,
    aclrtHostRegisterV2,
    aclrtHostUnregister,
    aclrtMallocPhysical,
    aclrtMapMem,
    aclrtMemAccessDesc,
    aclrtMemcpy,
    aclrtMemExportToShareableHandle,
    aclrtMemExportToShareableHandleV2,
    aclrtMemGetAccess,
    aclrtMemGetAddressRange,
    aclrtMemGetAllocationGranularity,
    aclrtMemGetAllocationPropertiesFromHandle,
    aclrtMemImportFromShareableHandle,
    aclrtMemImportFromShareableHandleV2,
    aclrtMemLocation,
    aclrtMemRetainAllocationHandle,
    aclrtMemSetAccess,
    aclrtMemSetPidToShareableHandle,
    aclrtPhysicalMemProp,
    aclrtPointerGetAttributes,
    aclrtReleaseMemAddress,
    aclrtReserveMemAddress,
    aclrtReserveMemAddressNoUCMemory,
    aclrtSynchronizeStream,
    aclrtUnmapMem,
)

MB2 = 2 << 20


def headline() -> str:
    return (aclGetRecentErrMsg() or "").splitlines()[0]


def device_prop(attr: int = ACL_MEM_HUGE, dev: int = 0) -> aclrtPhysicalMemProp:
    return aclrtPhysicalMemProp(0, 0, attr, aclrtMemLocation(dev, ACL_MEM_LOCATION_TYPE_DEVICE), 0)


def physical(size: int = MB2, attr: int = ACL_MEM_HUGE) -> int:
    h = Ref()
    assert aclrtMallocPhysical(h, size, device_prop(attr), 0) == 0
    return int(h.value)


def reserve(size: int) -> int:
    va = Ref()
    assert aclrtReserveMemAddress(va, size, 0, None, 0) == 0
    return int(va.value)


def upload(ptr: int, arr: np.ndarray) -> int:
    return int(aclrtMemcpy(ptr, arr.nbytes, arr, arr.nbytes, ACL_MEMCPY_HOST_TO_DEVICE))


def download(ptr: int, n: int) -> tuple[int, np.ndarray]:
    out = np.zeros(n, np.float32)
    return int(aclrtMemcpy(out, out.nbytes, ptr, out.nbytes, ACL_MEMCPY_DEVICE_TO_HOST)), out


def fill_kernel(ptr: int, n: int, value: float) -> int:
    """aclnnInplaceFillScalar on ``n`` floats at ``ptr`` (a kernel, through the executor's checks)."""
    t = aclCreateTensor([n], 1, ACL_FLOAT, [1], 0, ACL_FORMAT_ND, [n], 1, ptr)
    s = aclCreateScalar(np.array(value, np.float32), ACL_FLOAT)
    ws, ex = Ref(), Ref()
    try:
        rc = aclnnInplaceFillScalarGetWorkspaceSize(t, s, ws, ex)
        if rc == 0:
            rc = aclnnInplaceFillScalar(None, 0, ex.value, None)
        if rc == 0:
            rc = aclrtSynchronizeStream(None)
        return int(rc)
    finally:
        aclDestroyTensor(t)
        aclDestroyScalar(s)


# -- mapping is real ------------------------------------------------------------------------------


def test_two_ranges_mapped_onto_one_handle_alias_each_other(dev0):
    h = physical()
    va = reserve(3 * MB2)
    a, b = va, va + 2 * MB2
    assert aclrtMapMem(a, MB2, 0, h, 0) == 0 and aclrtMapMem(b, MB2, 0, h, 0) == 0
    assert upload(a + 64, np.arange(8, dtype=np.float32)) == 0
    rc, out = download(b + 64, 8)
    assert rc == 0 and out.tolist() == list(range(8))
    # a kernel writing through one range is seen through the other
    assert fill_kernel(b, 16, 7.5) == 0
    assert download(a, 16)[1].tolist() == [7.5] * 16
    for p in (a, b):
        assert aclrtUnmapMem(p) == 0
    assert aclrtReleaseMemAddress(va) == 0 and aclrtFreePhysical(h) == 0


def test_an_unmapped_address_is_refused_by_copies_and_kernels(dev0):
    h = physical()
    va = reserve(2 * MB2)
    assert aclrtMapMem(va, MB2, 0, h, 0) == 0
    gap = va + MB2  # reserved, never mapped
    assert upload(gap, np.zeros(4, np.float32)) == ACL_ERROR_RT_PARAM_INVALID
    text = headline()
    assert "lies in the virtual range" in text and "no physical memory is mapped there" in text
    assert fill_kernel(gap, 4, 1.0) != 0
    assert f"0x{gap:x}" in (aclGetRecentErrMsg() or "")
    assert aclrtUnmapMem(va) == 0
    assert upload(va, np.zeros(4, np.float32)) == ACL_ERROR_RT_PARAM_INVALID  # unmapped again
    assert "freed by aclrtUnmapMem" in headline()
    assert aclrtReleaseMemAddress(va) == 0 and aclrtFreePhysical(h) == 0


def test_physical_memory_counts_against_the_pool_and_survives_unmapping(dev0):
    free0, total = Ref(), Ref()
    aclrtGetMemInfo(ACL_HBM_MEM_HUGE, free0, total)
    h = physical(MB2 + 1)  # rounded up to the 2 MB page
    free1 = Ref()
    aclrtGetMemInfo(ACL_HBM_MEM_HUGE, free1, total)
    assert free0.value - free1.value == 2 * MB2
    va = reserve(2 * MB2)
    assert aclrtMapMem(va, MB2 + 1, 0, h, 0) == 0
    assert upload(va, np.full(4, 3.0, np.float32)) == 0
    assert aclrtUnmapMem(va) == 0 and aclrtMapMem(va, MB2 + 1, 0, h, 0) == 0
    assert download(va, 4)[1].tolist() == [3.0] * 4  # the physical memory kept its bytes
    assert aclrtFreePhysical(h) == ACL_ERROR_RT_PARAM_INVALID and "still mapped" in headline()
    assert aclrtReleaseMemAddress(va) == ACL_ERROR_RT_PARAM_INVALID and "aclrtUnmapMem them first" in headline()
    assert aclrtUnmapMem(va) == 0 and aclrtFreePhysical(h) == 0 and aclrtReleaseMemAddress(va) == 0
    aclrtGetMemInfo(ACL_HBM_MEM_HUGE, free1, total)
    assert free1.value == free0.value


def test_mapped_memory_is_device_memory_but_not_aclrtFree_s(dev0):
    h = physical()
    va = reserve(MB2)
    assert aclrtMapMem(va, MB2, 0, h, 0) == 0
    attrs = Ref()
    assert aclrtPointerGetAttributes(va + 8, attrs) == 0
    assert attrs.value.location.type == ACL_MEM_LOCATION_TYPE_DEVICE
    assert aclrtFree(va) == ACL_ERROR_RT_PARAM_INVALID and "released with aclrtUnmapMem" in headline()
    base, size = Ref(), Ref()
    assert aclrtMemGetAddressRange(va + 100, base, size) == 0 and (base.value, size.value) == (va, MB2)
    got = Ref()
    assert aclrtMemRetainAllocationHandle(va + 5, got) == 0 and got.value == h
    assert aclrtUnmapMem(va) == 0 and aclrtReleaseMemAddress(va) == 0 and aclrtFreePhysical(h) == 0


def test_mapping_checks(dev0):
    h = physical()
    va = reserve(MB2)
    assert aclrtMapMem(None, MB2, 0, h, 0) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg() == null("aclrtMapMem", "virPtr")
    assert aclrtMapMem(va, MB2, 0, None, 0) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg() == null("aclrtMapMem", "handle")
    assert aclrtMapMem(va, 0, 0, h, 0) == ACL_ERROR_INVALID_PARAM
    assert headline().endswith(
        "aclrtMapMem failed because value 0 for parameter size is invalid. Expected value: must be greater than 0."
    )
    assert aclrtMapMem(va, MB2, 0, h, 1) == ACL_ERROR_INVALID_PARAM
    assert headline().endswith("value 1 for parameter flags is invalid. Expected value: 0.")
    assert aclrtMapMem(va, MB2, 4096, h, 0) == ACL_ERROR_RT_PARAM_INVALID and "offset 4096 must be 0" in headline()
    assert aclrtMapMem(va, MB2 // 2, 0, h, 0) == ACL_ERROR_RT_PARAM_INVALID and "must equal the size" in headline()
    assert aclrtMapMem(va + 64 * MB2, MB2, 0, h, 0) == ACL_ERROR_RT_PARAM_INVALID
    assert "not inside a range aclrtReserveMemAddress reserved" in headline()
    assert aclrtMapMem(va, MB2, 0, h, 0) == 0
    assert aclrtMapMem(va, MB2, 0, h, 0) == ACL_ERROR_RT_PARAM_INVALID and "overlaps" in headline()
    assert aclrtUnmapMem(va) == 0 and aclrtReleaseMemAddress(va) == 0 and aclrtFreePhysical(h) == 0


# -- the ACL layer's checks of aclrtMallocPhysical, in CANN's order ---------------------------------


def test_malloc_physical_checks_in_cann_s_order(dev0):
    h = Ref()
    assert aclrtMallocPhysical(None, MB2, device_prop(), 0) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg() == null("aclrtMallocPhysical", "handle")
    assert aclrtMallocPhysical(h, MB2, None, 0) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg() == null("aclrtMallocPhysical", "prop")
    assert aclrtMallocPhysical(h, MB2, device_prop(), 3) == ACL_ERROR_INVALID_PARAM
    assert headline() == (
        "Invalid_Argument(EH0009): aclrtMallocPhysical failed. Value 3 for parameter flags is invalid. Reason: flags "
        "is a reserved parameter and must be 0."
    )
    bad = device_prop()
    bad.handleType = 2
    assert aclrtMallocPhysical(h, MB2, bad, 0) == ACL_ERROR_INVALID_PARAM
    assert headline().endswith(
        "value 2 for parameter prop->handleType is invalid. Expected value: ACL_MEM_HANDLE_TYPE_NONE."
    )
    managed = aclrtPhysicalMemProp(0, 0, ACL_MEM_HUGE, aclrtMemLocation(0, ACL_MEM_LOCATION_TYPE_MANAGED), 0)
    assert aclrtMallocPhysical(h, MB2, managed, 0) == ACL_ERROR_INVALID_PARAM
    assert headline().endswith(
        "Value MEM_LOCATION_TYPE_MANAGED(3) for parameter prop->location.type is invalid. Reason: location type does "
        "not support MEM_LOCATION_TYPE_MANAGED(3)."
    )
    assert aclrtMallocPhysical(h, MB2, device_prop(ACL_DDR_MEM_HUGE), 0) == ACL_ERROR_INVALID_PARAM
    assert headline().endswith(
        "aclrtMallocPhysical failed because value DDR_MEM_HUGE(2) for parameter memAttr is invalid. Expected value: "
        "MEM_LOCATION_TYPE_HOST(0) or MEM_LOCATION_TYPE_HOST_NUMA(4)."
    )
    assert aclrtMallocPhysical(h, MB2, device_prop(1), 0) == ACL_ERROR_INVALID_PARAM  # ACL_HBM_MEM: no handler
    assert headline().endswith(
        "Value HBM_MEM(1) for parameter memAttr is invalid. Reason: The current physical memory attribute is not "
        "supported."
    )


def test_granularity_and_properties_follow_cann_s_tables(dev0):
    g = Ref()
    for attr, want in ((ACL_MEM_NORMAL, 4096), (ACL_MEM_HUGE, MB2), (ACL_MEM_HUGE1G, 1 << 30)):
        assert aclrtMemGetAllocationGranularity(device_prop(attr), ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, g) == 0
        assert g.value == want
    # the option goes to the driver unchecked (ApiErrorDecorator::GetAllocationGranularity)
    assert aclrtMemGetAllocationGranularity(device_prop(), 7, g) == 0 and g.value == MB2
    # a device location is checked (CheckDeviceIdIsValid)
    bad = device_prop(dev=99)
    assert aclrtMemGetAllocationGranularity(bad, 0, g) == ACL_ERROR_RT_INVALID_DEVICEID
    assert aclGetRecentErrMsg() == (
        "Invalid_Argument(EE1003): Verifying the device ID validity failed because value 99 for parameter devId is "
        "invalid. Expected value: [0, 8).\n"
        + RANGE_SOLUTION
        + TRACEBACK
        + f"{INDENT}drv devId is invalid, drv devId=99, retCode=0x7010003[FUNC:GetAllocationGranularity]"
        "[FILE:api_error.cc][LINE:6510]\n"
        + f"{INDENT}rtMemGetAllocationGranularity execution failed, reason=device id error{FUNC_ERROR_REASON}\n"
    )
    h = physical(4096, ACL_MEM_NORMAL)
    prop = Ref()
    assert aclrtMemGetAllocationPropertiesFromHandle(h, prop) == 0
    # a device ACL_MEM_NORMAL allocation is normal-page HBM: memory.cpp's table names it ACL_HBM_MEM_NORMAL
    assert prop.value.memAttr == ACL_HBM_MEM_NORMAL and prop.value.location.type == ACL_MEM_LOCATION_TYPE_DEVICE
    assert aclrtFreePhysical(h) == 0
    host = aclrtPhysicalMemProp(0, 0, ACL_MEM_HUGE, aclrtMemLocation(0, ACL_MEM_LOCATION_TYPE_HOST), 0)
    hh = Ref()
    assert aclrtMallocPhysical(hh, MB2, host, 0) == 0
    assert aclrtMemGetAllocationPropertiesFromHandle(hh.value, prop) == 0 and prop.value.memAttr == ACL_MEM_HUGE
    assert aclrtFreePhysical(hh.value) == 0


def test_reserve_checks(dev0):
    va = Ref()
    assert aclrtReserveMemAddress(va, 0, 0, None, 0) == ACL_ERROR_INVALID_PARAM
    assert headline().endswith("value 0 for parameter size is invalid. Expected value: must be greater than 0.")
    assert aclrtReserveMemAddress(va, MB2, 0, None, 2) == ACL_ERROR_INVALID_PARAM
    assert headline().endswith("value 2 for parameter flags is invalid. Expected value: 0.")
    assert aclrtReserveMemAddress(va, MB2, 0, None, 1) == 0  # 1 is kept for compatibility
    assert aclrtReleaseMemAddress(va.value) == 0
    assert aclrtReserveMemAddressNoUCMemory(va, MB2, 0, None, 0) == ACL_ERROR_RT_PARAM_INVALID  # whole GB only
    assert "whole number of 1 GB" in headline()
    assert aclrtReleaseMemAddress(0x1234) == ACL_ERROR_RT_PARAM_INVALID
    assert "not the start of a range" in headline()


def test_access_rights_are_kept_per_location(dev0):
    h = physical()
    va = reserve(MB2)
    assert aclrtMapMem(va, MB2, 0, h, 0) == 0
    flags = Ref()
    here, peer = aclrtMemLocation(0, ACL_MEM_LOCATION_TYPE_DEVICE), aclrtMemLocation(1, ACL_MEM_LOCATION_TYPE_DEVICE)
    assert aclrtMemGetAccess(va, here, flags) == 0 and flags.value == ACL_RT_MEM_ACCESS_FLAGS_READWRITE
    assert aclrtMemGetAccess(va, peer, flags) == 0 and flags.value == ACL_RT_MEM_ACCESS_FLAGS_NONE
    assert aclrtMemSetAccess(va, MB2, [aclrtMemAccessDesc(ACL_RT_MEM_ACCESS_FLAGS_READ, peer)], 1) == 0
    assert aclrtMemGetAccess(va + 10, peer, flags) == 0 and flags.value == ACL_RT_MEM_ACCESS_FLAGS_READ
    assert aclrtMemSetAccess(None, MB2, [], 1) == ACL_ERROR_RT_PARAM_INVALID
    assert headline().endswith("Setting the memory access permission failed because virPtr cannot be a NULL pointer.")
    assert aclrtMemSetAccess(va, MB2, [aclrtMemAccessDesc(2, peer)], 1) == ACL_ERROR_RT_PARAM_INVALID
    # the flags are the driver's check (halMemSetAccess): the emulator's own report
    assert headline() == (
        "aclnn_py: aclrtMemSetAccess: desc.flags 0x2 is not an aclrtMemAccessFlags (ACL_RT_MEM_ACCESS_FLAGS_NONE "
        "0x0, _READ 0x1 or _READWRITE 0x3)."
    )
    assert aclrtUnmapMem(va) == 0 and aclrtReleaseMemAddress(va) == 0 and aclrtFreePhysical(h) == 0


# -- shareable handles ----------------------------------------------------------------------------


def test_an_exported_handle_imports_into_the_same_memory(dev0):
    h = physical()
    share = Ref()
    assert aclrtMemExportToShareableHandle(h, 0, 0, share) == 0
    imported = Ref()
    # the exporter has not named this process: the import is refused, as CANN's pid check does
    assert aclrtMemImportFromShareableHandle(share.value, 0, imported) == ACL_ERROR_RT_PARAM_INVALID
    assert "not on the handle's whitelist" in headline()
    assert aclrtMemSetPidToShareableHandle(share.value, [os.getpid()], 1) == 0
    assert aclrtMemImportFromShareableHandle(share.value, 0, imported) == 0 and imported.value != h
    assert aclrtMemImportFromShareableHandle(share.value, 9, imported) == ACL_ERROR_RT_INVALID_DEVICEID
    assert headline().startswith("Invalid_Argument(EE1003): Verifying the device ID validity failed because value 9")
    va = reserve(2 * MB2)
    assert aclrtMapMem(va, MB2, 0, h, 0) == 0 and aclrtMapMem(va + MB2, MB2, 0, imported.value, 0) == 0
    assert upload(va, np.full(4, 9.0, np.float32)) == 0
    assert download(va + MB2, 4)[1].tolist() == [9.0] * 4
    assert aclrtUnmapMem(va) == 0 and aclrtUnmapMem(va + MB2) == 0 and aclrtReleaseMemAddress(va) == 0
    assert aclrtFreePhysical(h) == 0 and aclrtFreePhysical(imported.value) == 0


def test_v2_shareable_handles_default_and_fabric(dev0):
    h = physical()
    for share_type in (ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, ACL_MEM_SHARE_HANDLE_TYPE_FABRIC):
        share, got = Ref(), Ref()
        assert (
            aclrtMemExportToShareableHandleV2(h, ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION, share_type, share) == 0
        )
        assert aclrtMemImportFromShareableHandleV2(share, share_type, 0, got) == 0
        assert aclrtFreePhysical(got.value) == 0
    share = Ref()
    assert aclrtMemExportToShareableHandleV2(h, 0, 3, share) == ACL_ERROR_RT_PARAM_INVALID
    assert headline().endswith(
        "Exporting the shared handle of the AI server failed because value UNKNOWN(3) for parameter handleType is "
        "invalid. Expected value: MEM_SHARE_HANDLE_TYPE_DEFAULT(1) or MEM_SHARE_HANDLE_TYPE_FABRIC(2)."
    )
    assert aclrtMemExportToShareableHandle(h, 0, 2, share) == ACL_ERROR_RT_PARAM_INVALID
    assert headline().endswith(
        "Exporting the physical memory handle of the device failed because value 2 for parameter flags is invalid. "
        "Expected value: [0, 1]."
    )
    assert aclrtFreePhysical(h) == 0


# -- host registration ----------------------------------------------------------------------------


def test_registered_host_memory_is_written_by_a_kernel_through_its_device_address(dev0):
    host = np.zeros(32, np.float32)
    dev = Ref()
    assert aclrtHostRegister(host, host.nbytes, 0, dev) == 0
    assert fill_kernel(dev.value + 32, 8, 2.5) == 0
    assert host[8:16].tolist() == [2.5] * 8 and host[:8].tolist() == [0.0] * 8
    got = Ref()
    assert aclrtHostGetDevicePointer(host, got, 0) == 0 and got.value == dev.value
    # CANN documents the device address as one for kernels, not for memory copies
    assert upload(dev.value, np.zeros(2, np.float32)) == ACL_ERROR_RT_PARAM_INVALID
    assert "reserves for kernels (not memory copies)" in headline()
    assert aclrtHostRegister(host, 16, 0, dev) == ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED
    assert "is already registered" in headline()
    assert aclrtHostUnregister(host) == 0
    assert aclrtHostUnregister(host) == ACL_ERROR_HOST_MEMORY_NOT_REGISTERED
    assert headline() == (
        "Invalid_Argument_API_Call_Sequence(EE1018): Unregistering host memory failed. Reason: The host pointer has "
        "not been registered for device memory mapping."
    )


def test_host_register_v2_and_its_checks(dev0):
    host = np.zeros(16, np.float32)
    assert aclrtHostRegisterV2(host, host.nbytes, 0x40) == ACL_ERROR_RT_PARAM_INVALID
    assert headline().startswith(
        "Invalid_Argument(EE1011): Host memory address registration failed. Value 64 for parameter flag is invalid."
    )
    assert aclrtHostRegisterV2(host, host.nbytes, ACL_HOST_REG_MAPPED) == 0
    assert aclrtHostRegisterV2(host, host.nbytes, ACL_HOST_REG_MAPPED) == ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED
    assert headline() == (
        "Invalid_Argument_API_Call_Sequence(EE1018): Host memory address registration failed. Reason: The memory "
        "range has already been registered."
    )
    dev = Ref()
    assert aclrtHostGetDevicePointer(host, dev, 0) == 0
    assert fill_kernel(dev.value, 16, 1.0) == 0 and host.tolist() == [1.0] * 16
    assert aclrtHostGetDevicePointer(host, dev, 1) == ACL_ERROR_INVALID_PARAM
    assert headline().endswith("Reason: flag is a reserved parameter and must be 0.")
    assert aclrtHostUnregister(host) == 0
    assert aclrtHostGetDevicePointer(host, dev, 0) == ACL_ERROR_RT_PARAM_INVALID
    assert "The host pointer has not been registered for device address mapping." in headline()
    assert aclrtHostRegister(host, host.nbytes, 0x10, dev) == ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    # api_error.cc logs a WARN only, but rtsHostRegister's ERROR_RETURN_WITH_EXT_ERRCODE reports it
    assert headline() == (
        "Invalid_Argument(EE1001): The argument is invalid. Reason: rtsHostRegister execution failed, the feature "
        "is not supported."
    )
    assert aclrtHostRegister(None, 8, 0, dev) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg() == null("aclrtHostRegister", "ptr")


@pytest.mark.parametrize("addr", [0x1000, 0x7FFF_0000_0000])
def test_a_stray_host_address_is_refused_not_dereferenced(dev0, addr):
    dev = Ref()
    assert aclrtHostRegister(addr, 64, 0, dev) == ACL_ERROR_RT_PARAM_INVALID
    assert "is not host memory of this process" in headline()
    assert dev.value is None
