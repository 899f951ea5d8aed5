"""Managed (unified) memory: aclrtMemAllocManaged's pages are host memory mapped into the simulated
space at their own address, so the one pointer works for the program's own loads and stores
(ctypes here), the copy and fill functions, and kernels; advice and prefetch locations are recorded
per 2 MiB page; aclrtFree and a device reset release the pages."""

from __future__ import annotations

import ctypes

import numpy as np
import pytest

from aclnn_py import (
    ACL_FLOAT,
    ACL_MEMCPY_DEVICE_TO_HOST,
    ACL_MEMCPY_HOST_TO_DEVICE,
    aclCreateScalar,
    aclCreateTensor,
    aclDestroyScalar,
    aclDestroyTensor,
    aclFinalize,
    aclGetRecentErrMsg,
    aclInit,
    aclnnAdd,
    aclnnAddGetWorkspaceSize,
    aclrtCreateStream,
    aclrtDestroyStream,
    aclrtFree,
    aclrtFreeHost,
    aclrtGetMemInfo,
    aclrtMalloc,
    aclrtMemAllocManaged,
    aclrtMemcpy,
    aclrtMemManagedAdvise,
    aclrtMemManagedGetAttr,
    aclrtMemManagedGetAttrs,
    aclrtMemManagedPrefetchAsync,
    aclrtMemManagedPrefetchBatchAsync,
    aclrtMemset,
    aclrtPointerGetAttributes,
    aclrtResetDevice,
    aclrtSetDevice,
    aclrtSynchronizeStream,
)
from aclnn_py._ref import Ref
from aclnn_py.runtime.api_memory_misc import UVM_PAGE, aclrtMemManagedLocation
from aclnn_py.runtime.memory import DEVICE_BASE, HOST_BASE, REGION_SPAN, SPACE, overlaps_simulated

MB2 = UVM_PAGE
DEVICE, HOST = aclrtMemManagedLocation(1, 0), aclrtMemManagedLocation(2, 0)
(READ_MOSTLY, PREFERRED, ACCESSED_BY, PREF_TYPE, PREF_ID, LAST, LAST_TYPE, LAST_ID) = range(1, 9)


def headline() -> str:
    return (aclGetRecentErrMsg() or "").splitlines()[0]


def managed(size: int) -> int:
    ptr = Ref()
    assert aclrtMemAllocManaged(ptr, size, 1) == 0
    return int(ptr.value)


def attr(kind: int, p: int, n: int = MB2, size: int = 4) -> object:
    out = Ref()
    assert aclrtMemManagedGetAttr(kind, p, n, out, size) == 0, aclGetRecentErrMsg()
    return out.value


def test_one_pointer_is_the_host_address_and_the_device_address(dev0):
    p = managed(100)
    alloc = SPACE.find(p)
    assert alloc is not None and alloc.start == p and alloc.size == MB2 and alloc.requested == 100
    assert alloc.buf.ctypes.data == p  # the simulated bytes are the host pages at that very address
    assert p % 4096 == 0 and not overlaps_simulated(p, p + MB2, 64)
    assert ctypes.string_at(p, 4) == b"\xff" * 4  # not initialised (CANN: aclrtMemset it first)
    ctypes.memmove(p, b"host", 4)  # a plain host store ...
    seen = np.zeros(4, np.uint8)
    assert aclrtMemcpy(seen, 4, p, 4, ACL_MEMCPY_DEVICE_TO_HOST) == 0  # ... is what the device reads
    assert seen.tobytes() == b"host"
    assert aclrtMemcpy(p + 8, 4, np.frombuffer(b"copy", np.uint8), 4, ACL_MEMCPY_HOST_TO_DEVICE) == 0
    assert aclrtMemset(p + 12, 4, 0x41, 4) == 0
    assert ctypes.string_at(p, 16) == b"host\xff\xff\xff\xffcopyAAAA"  # and the reverse, no copy back
    assert aclrtFree(p) == 0


def test_a_kernel_writes_what_the_host_reads_and_reads_what_it_wrote(dev0):
    p = managed(3 * 32)
    x, y, z = p, p + 32, p + 64  # kernels want 32-byte aligned tensors
    ctypes.memmove(x, np.arange(4, dtype=np.float32).tobytes(), 16)
    ctypes.memmove(y, np.full(4, 10, np.float32).tobytes(), 16)
    tensors = [aclCreateTensor([4], 1, ACL_FLOAT, [1], 0, 2, [4], 1, a) for a in (x, y, z)]
    alpha = aclCreateScalar(np.float32(2.0), ACL_FLOAT)
    stream, ws, ex = Ref(), Ref(0), Ref()
    assert aclrtCreateStream(stream) == 0
    assert aclnnAddGetWorkspaceSize(tensors[0], tensors[1], alpha, tensors[2], ws, ex) == 0 and ws.value == 0
    assert aclnnAdd(None, 0, ex.value, stream.value) == 0
    assert aclrtSynchronizeStream(stream.value) == 0
    out = np.frombuffer(ctypes.string_at(z, 16), np.float32)
    np.testing.assert_array_equal(out, [20, 21, 22, 23])
    # the host changes an input in place; the next launch sees it with no copy in between
    ctypes.memmove(x, np.full(4, 100, np.float32).tobytes(), 16)
    assert aclnnAddGetWorkspaceSize(tensors[0], tensors[1], alpha, tensors[2], ws, ex) == 0
    assert aclnnAdd(None, 0, ex.value, stream.value) == 0 and aclrtSynchronizeStream(stream.value) == 0
    np.testing.assert_array_equal(np.frombuffer(ctypes.string_at(z, 16), np.float32), [120] * 4)
    for t in tensors:
        assert aclDestroyTensor(t) == 0
    assert aclDestroyScalar(alpha) == 0 and aclrtDestroyStream(stream.value) == 0
    assert aclrtFree(p) == 0


def test_bounds_and_frees_follow_the_rounded_allocation(dev0):
    p = managed(MB2 + 1)
    assert SPACE.find(p).size == 2 * MB2
    assert aclrtMemset(p + 2 * MB2 - 4, 4, 0, 4) == 0
    assert aclrtMemset(p + 2 * MB2 - 4, 8, 0, 8) == 207001 or "past the end" in aclGetRecentErrMsg()
    assert aclrtFreeHost(p) != 0  # rtFreeHost: managed memory is not a host address
    assert "Value MEMORY_LOC_MANAGED(3) for parameter hostPtr locationType is invalid." in aclGetRecentErrMsg()
    assert aclrtFree(p + 64) != 0 and "only the start" in aclGetRecentErrMsg()
    assert aclrtFree(p) == 0
    assert SPACE.find(p) is None
    assert aclrtMemset(p, 4, 0, 4) == 107000  # the range is no longer memory the emulator knows
    aclGetRecentErrMsg()
    assert aclrtFree(p) != 0 and "double free" in aclGetRecentErrMsg()


def test_managed_memory_counts_against_the_device_and_is_not_oversubscribed(monkeypatch):
    monkeypatch.setenv("ACLNN_PY_DEVICE_MEMORY", "8M")
    assert aclInit(None) == 0 and aclrtSetDevice(0) == 0
    try:
        free0, total = Ref(), Ref()
        assert aclrtGetMemInfo(1, free0, total) == 0  # ACL_HBM_MEM
        p = managed(1)
        free1 = Ref()
        assert aclrtGetMemInfo(1, free1, total) == 0 and free0.value - free1.value == MB2
        ptr = Ref()
        assert aclrtMemAllocManaged(ptr, 4 * MB2, 1) == 207001  # ACL_ERROR_RT_MEMORY_ALLOCATION
        assert "not oversubscribed" in aclGetRecentErrMsg()
        assert aclrtFree(p) == 0
        assert aclrtGetMemInfo(1, free1, total) == 0 and free1.value == free0.value
    finally:
        aclrtResetDevice(0)
        aclFinalize()


def test_a_device_reset_releases_managed_memory_and_reports_it(findings):
    assert aclInit(None) == 0 and aclrtSetDevice(0) == 0
    p = managed(64)
    aclrtResetDevice(0)
    aclFinalize()
    assert SPACE.find(p) is None
    text = "\n".join(message for _, message in findings.refresh())
    assert "aclrtMemAllocManaged" in text and "never aclrtFree'd" in text


def test_allocation_checks_in_cann_s_order(dev0):
    ptr = Ref()
    assert aclrtMemAllocManaged(None, 64, 1) == 100000
    aclGetRecentErrMsg()
    assert aclrtMemAllocManaged(ptr, 64, 2) == 100000
    assert headline().endswith("value 2 for parameter flag is invalid. Expected value: ACL_RT_MEM_ATTACH_GLOBAL.")
    assert aclrtMemAllocManaged(ptr, 0, 1) == 107000
    assert headline().endswith(
        "Unified virtual memory (UVM) allocation failed because value 0 for parameter size is invalid. "
        "Expected value: not equal to 0."
    )
    assert aclrtMemAllocManaged(ptr, 4 << 40, 1) == 207001  # more than the 3 TB a process may hold


def test_pointer_attributes_name_the_current_device(dev0):
    p = managed(64)
    out = Ref()
    assert aclrtPointerGetAttributes(p, out) == 0
    assert out.value.location.id == 0 and out.value.pageSize == MB2
    assert out.value.location.type == 3  # ACL_MEM_LOCATION_TYPE_MANAGED, with its device
    assert aclrtFree(p) == 0


def test_advice_is_recorded_per_page_and_read_back(dev0):
    p = managed(2 * MB2)
    assert attr(READ_MOSTLY, p, 2 * MB2) == 0 and attr(PREFERRED, p) == -2 and attr(PREF_TYPE, p) == 0
    assert aclrtMemManagedAdvise(p, MB2, 0, DEVICE) == 0  # SET_READ_MOSTLY, first page only
    assert attr(READ_MOSTLY, p) == 1 and attr(READ_MOSTLY, p, 2 * MB2) == 0
    assert aclrtMemManagedAdvise(p, 2 * MB2, 2, DEVICE) == 0  # SET_PREFERRED_LOCATION device 0
    assert attr(PREFERRED, p, 2 * MB2) == 0 and attr(PREF_TYPE, p) == 1 and attr(PREF_ID, p) == 0
    assert aclrtMemManagedAdvise(p + MB2, MB2, 2, HOST) == 0
    assert attr(PREFERRED, p + MB2) == -1 and attr(PREFERRED, p, 2 * MB2) == -2  # the pages differ
    assert attr(PREF_TYPE, p, 2 * MB2) == 0 and attr(PREF_ID, p, 2 * MB2) == -2
    assert aclrtMemManagedAdvise(p, 2 * MB2, 4, aclrtMemManagedLocation(1, 1)) == 0  # ACCESSED_BY device 1
    assert aclrtMemManagedAdvise(p, MB2, 4, DEVICE) == 0
    assert attr(ACCESSED_BY, p, MB2, 12) == [0, 1, -2] and attr(ACCESSED_BY, p, 2 * MB2, 8) == [1, -2]
    assert aclrtMemManagedAdvise(p, 2 * MB2, 5, aclrtMemManagedLocation(1, 1)) == 0  # UNSET_ACCESSED_BY
    assert attr(ACCESSED_BY, p, MB2, 8) == [0, -2]
    assert aclrtMemManagedAdvise(p, 2 * MB2, 3, DEVICE) == 0 and attr(PREFERRED, p, 2 * MB2) == -2
    attrs, outs, sizes = [READ_MOSTLY, ACCESSED_BY], [Ref(), Ref()], [4, 8]
    assert aclrtMemManagedGetAttrs(attrs, 2, p, MB2, outs, sizes) == 0
    assert outs[0].value == 1 and outs[1].value == [0, -2]
    # the answer can go to memory the device reaches: here the managed range itself
    assert aclrtMemManagedGetAttr(READ_MOSTLY, p, MB2, p + MB2, 4) == 0
    assert ctypes.c_int32.from_address(p + MB2).value == 1
    assert aclrtFree(p) == 0


def test_advice_checks(dev0):
    p = managed(MB2)
    dev_ptr = Ref()
    assert aclrtMalloc(dev_ptr, 64, 0) == 0
    assert aclrtMemManagedAdvise(None, MB2, 0, DEVICE) == 100000
    assert headline().endswith("aclrtMemManagedAdvise failed because ptr cannot be a NULL pointer.")
    assert aclrtMemManagedAdvise(p, 0, 0, DEVICE) == 100000
    aclGetRecentErrMsg()
    assert aclrtMemManagedAdvise(p, MB2, 6, DEVICE) == 107000
    assert headline().endswith("(UVM) failed because value 6 for parameter advise is invalid. Expected value: [0, 5].")
    assert aclrtMemManagedAdvise(p, MB2, 2, aclrtMemManagedLocation(1, 8)) == 107000
    assert "value 8 for parameter location.id is invalid. Expected value: [0, 7]." in headline()
    assert aclrtMemManagedAdvise(p, 4096, 0, DEVICE) == 107000 and "multiple of 2 MB" in headline()
    assert aclrtMemManagedAdvise(dev_ptr.value, MB2, 0, DEVICE) == 107000
    assert "is not memory of aclrtMemAllocManaged" in headline()
    assert aclrtMemManagedAdvise(p, 2 * MB2, 0, DEVICE) == 107000 and "past the end" in headline()
    assert aclrtMemManagedAdvise(p, MB2, 2, aclrtMemManagedLocation(0, 0)) == 107000
    assert "location.type 0 is not a location" in headline()
    out = Ref()
    assert aclrtMemManagedGetAttr(0, p, MB2, out, 4) == 107000
    assert headline().endswith("value 0 for parameter attribute is invalid. Expected value: [1, 8].")
    assert aclrtMemManagedGetAttr(READ_MOSTLY, p, MB2, None, 4) == 100000
    aclGetRecentErrMsg()
    assert aclrtMemManagedGetAttr(READ_MOSTLY, p, MB2, out, 8) == 107000 and "must be 4" in headline()
    assert aclrtMemManagedGetAttrs([READ_MOSTLY, 9], 2, p, MB2, [out, out], [4, 4]) == 107000
    assert "value 9 for parameter attributes[i] is invalid. Expected value: [1, 8]." in headline()
    assert aclrtFree(p) == 0 and aclrtFree(dev_ptr.value) == 0


def test_prefetch_moves_nothing_and_records_where_it_went(ctx):
    p = managed(3 * MB2)
    ctypes.memmove(p, b"stay", 4)
    stream = Ref()
    assert aclrtCreateStream(stream) == 0
    assert aclrtMemManagedPrefetchAsync(p, MB2, DEVICE, 0, stream.value) == 0
    assert aclrtSynchronizeStream(stream.value) == 0
    assert attr(LAST, p) == 0 and attr(LAST_TYPE, p) == 1 and attr(LAST_ID, p) == 0
    assert attr(LAST, p, 2 * MB2) == -2  # the second page was never prefetched
    assert ctypes.string_at(p, 4) == b"stay"  # one address space: the bytes stay where they are
    # two ranges to device 1, the third to the host: prefetchLocs[k] applies from prefetchLocIdxs[k]
    ptrs, sizes = [p, p + MB2, p + 2 * MB2], [MB2] * 3
    locs = [aclrtMemManagedLocation(1, 1), HOST]
    assert aclrtMemManagedPrefetchBatchAsync(ptrs, sizes, 3, locs, [0, 2], 2, 0, stream.value) == 0
    assert aclrtSynchronizeStream(stream.value) == 0
    assert attr(LAST, p, 2 * MB2) == 1 and attr(LAST, p + 2 * MB2) == -1 and attr(LAST, p, 3 * MB2) == -2
    assert aclrtDestroyStream(stream.value) == 0
    assert aclrtFree(p) == 0


def test_prefetch_checks(dev0):
    p = managed(MB2)
    assert aclrtMemManagedPrefetchAsync(p, MB2, DEVICE, 1, None) == 100000
    assert headline().endswith(
        "Value 1 for parameter flags is invalid. Reason: flags is a reserved parameter and must be 0."
    )
    assert aclrtMemManagedPrefetchAsync(p, MB2, aclrtMemManagedLocation(1, -1), 0, None) == 107000
    assert "value -1 for parameter location.id is invalid" in headline()
    assert aclrtMemManagedPrefetchAsync(p, 4096, DEVICE, 0, None) == 107000
    assert "multiple of 2 MB" in headline()
    batch = aclrtMemManagedPrefetchBatchAsync
    assert batch([p], [MB2], 1, [DEVICE, HOST], [0, 1], 2, 0, None) == 100000
    assert headline().endswith(
        "Value 1 for parameter count is invalid. Reason: must be greater than or equal to numPrefetchLocs 2."
    )
    assert batch([p], [MB2], 1, [DEVICE], [1], 1, 0, None) == 107000
    assert "value 1 for parameter prefetchLocIdxs[0] is invalid. Expected value: equal to 0." in headline()
    assert batch([p, p], [MB2, MB2], 2, [DEVICE, HOST], [0, 0], 2, 0, None) == 107000
    assert "Each element in prefetchLocIdxs must be greater than the previous element." in headline()
    assert batch([p, 0], [MB2, MB2], 2, [DEVICE], [0], 1, 0, None) == 107000
    assert "ptrs[idx] cannot be a NULL pointer" in headline()
    assert batch([p], [MB2], 1, [aclrtMemManagedLocation(1, 9)], [0], 1, 0, None) == 107000
    assert "parameter prefetchLocs[idx].id is invalid" in headline()
    assert aclrtFree(p) == 0


def test_the_overlap_check_knows_the_simulated_regions():
    assert overlaps_simulated(HOST_BASE + 4096, HOST_BASE + 8192, 1)
    assert overlaps_simulated(DEVICE_BASE + 3 * REGION_SPAN, DEVICE_BASE + 3 * REGION_SPAN + 1, 8)
    assert not overlaps_simulated(DEVICE_BASE + 3 * REGION_SPAN, DEVICE_BASE + 3 * REGION_SPAN + 1, 3)
    assert not overlaps_simulated(0x7F00_0000_0000, 0x7F00_0020_0000, 64)


@pytest.mark.parametrize("size", [1, MB2, MB2 + 1])
def test_sizes_round_up_to_2_mb(dev0, size):
    p = managed(size)
    assert SPACE.find(p).size == -(-size // MB2) * MB2
    assert aclrtFree(p) == 0


def test_socs_without_uvm_refuse_it(dev0, monkeypatch):
    from aclnn_py import soc

    monkeypatch.setenv("ACLNN_PY_SOC", "Ascend910")
    soc.set_active(None)
    ptr = Ref()
    assert aclrtMemAllocManaged(ptr, 64, 1) == 207000  # what 0_uvm_allocate skips on
    assert "has no unified virtual memory" in headline()
    out = Ref()
    assert aclrtMemManagedGetAttr(READ_MOSTLY, 0x1000, MB2, out, 4) == 207000
    assert aclGetRecentErrMsg() is None  # CANN logs a WARN only
