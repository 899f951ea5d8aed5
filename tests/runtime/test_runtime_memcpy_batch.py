"""IPC memory keys, batch copies, copy descriptors, aclrtReduceAsync and the rest of the memory chapter
(frees with device sync, memory type and usage queries, cache maintenance, managed memory refused)."""

from __future__ import annotations

import os

import ml_dtypes
import numpy as np
import pytest
from rt_texts import null

from aclnn_py import (
    ACL_BF16,
    ACL_DOUBLE,
    ACL_ERROR_INVALID_PARAM,
    ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
    ACL_ERROR_RT_PARAM_INVALID,
    ACL_FLOAT,
    ACL_FLOAT16,
    ACL_INT8,
    ACL_INT32,
    ACL_MEM_LOCATION_TYPE_DEVICE,
    ACL_MEM_LOCATION_TYPE_HOST,
    ACL_MEMCPY_DEVICE_TO_HOST,
    ACL_MEMCPY_HOST_TO_DEVICE,
    ACL_MEMCPY_INNER_DEVICE_TO_DEVICE,
    ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION,
    ACL_RT_MEM_TYPE_DEV,
    ACL_RT_MEM_TYPE_DVPP,
    ACL_RT_MEM_TYPE_RSVD,
    ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL,
    ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX,
    ACL_RT_MEMCPY_SDMA_AUTOMATIC_MIN,
    ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM,
    Ref,
    acldvppMalloc,
    aclGetRecentErrMsg,
    aclrtCheckMemType,
    aclrtCmoAsync,
    aclrtCreateStream,
    aclrtDestroyStream,
    aclrtFree,
    aclrtFreeWithDevSync,
    aclrtGetLastError,
    aclrtGetMemcpyDescSize,
    aclrtGetMemUsageInfo,
    aclrtIpcMemClose,
    aclrtIpcMemGetExportKey,
    aclrtIpcMemImportByKey,
    aclrtIpcMemImportPidInterServer,
    aclrtIpcMemSetAttr,
    aclrtIpcMemSetImportPid,
    aclrtMalloc,
    aclrtMemAllocManaged,
    aclrtMemcpy,
    aclrtMemcpyAsyncWithCondition,
    aclrtMemcpyAsyncWithDesc,
    aclrtMemcpyAsyncWithOffset,
    aclrtMemcpyBatch,
    aclrtMemcpyBatchAsync,
    aclrtMemcpyBatchAttr,
    aclrtMemcpyBatchV2,
    aclrtMemFlush,
    aclrtMemInvalidate,
    aclrtMemLocation,
    aclrtMemsetAsync,
    aclrtReduceAsync,
    aclrtSetMemcpyDesc,
    aclrtSynchronizeStream,
)

SIZE_MAX = 2**64 - 1
DEV = aclrtMemLocation(0, ACL_MEM_LOCATION_TYPE_DEVICE)
HOST = aclrtMemLocation(0, ACL_MEM_LOCATION_TYPE_HOST)


def headline() -> str:
    return (aclGetRecentErrMsg() or "").splitlines()[0]


_ALLOCS: list[int] = []


@pytest.fixture(autouse=True)
def _freed_at_the_end(dev0):
    """Every test runs on device 0 and frees what dev_alloc gave it (the leak check is strict)."""
    yield
    while _ALLOCS:
        aclrtFree(_ALLOCS.pop())


def dev_alloc(n: int) -> int:
    p = Ref()
    assert aclrtMalloc(p, n, 0) == 0
    _ALLOCS.append(int(p.value))
    return int(p.value)


def put(ptr: int, arr: np.ndarray) -> None:
    assert aclrtMemcpy(ptr, arr.nbytes, arr, arr.nbytes, ACL_MEMCPY_HOST_TO_DEVICE) == 0


def get(ptr: int, like: np.ndarray) -> np.ndarray:
    out = np.zeros_like(like)
    assert aclrtMemcpy(out, out.nbytes, ptr, out.nbytes, ACL_MEMCPY_DEVICE_TO_HOST) == 0
    return out


# -- IPC ------------------------------------------------------------------------------------------


def test_an_ipc_key_imports_the_same_memory_in_this_process(dev0):
    src = dev_alloc(256)
    put(src, np.arange(64, dtype=np.float32))
    key = Ref()
    assert aclrtIpcMemGetExportKey(src + 64, 128, key, 65, 0) == 0
    imported = Ref()
    assert aclrtIpcMemImportByKey(imported, key.value, 0) == ACL_ERROR_RT_PARAM_INVALID
    assert "not on the key's whitelist" in headline()
    assert aclrtIpcMemSetImportPid(key.value, [os.getpid()], 1) == 0
    assert aclrtIpcMemImportByKey(imported, key.value, 0) == 0
    assert get(imported.value, np.zeros(4, np.float32)).tolist() == [16, 17, 18, 19]
    put(imported.value, np.full(2, -1.0, np.float32))  # and writes land in the exporter's memory
    assert get(src + 64, np.zeros(3, np.float32)).tolist() == [-1.0, -1.0, 18.0]
    assert aclrtIpcMemSetAttr(key.value, 0, 1) == 0
    assert aclrtIpcMemClose(key.value) == 0  # closes the import (IpcCloseMemoryByName); the export stays
    assert aclrtMemcpy(np.zeros(1, np.float32), 4, imported.value, 4, ACL_MEMCPY_DEVICE_TO_HOST) != 0
    assert "freed by aclrtIpcMemClose" in headline()
    again = Ref()
    assert aclrtIpcMemImportByKey(again, key.value, 0) == 0
    assert get(again.value, np.zeros(1, np.float32)).tolist() == [-1.0]
    assert aclrtIpcMemClose(key.value) == 0  # the import
    assert aclrtIpcMemClose(key.value) == 0  # no import left: the export is destroyed
    assert aclrtIpcMemImportByKey(imported, key.value, 0) == ACL_ERROR_RT_PARAM_INVALID
    assert "keys of another process cannot be opened" in headline()


def test_ipc_checks(dev0):
    p = dev_alloc(64)
    key = Ref()
    assert aclrtIpcMemGetExportKey(None, 64, key, 65, 0) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg() == null("aclrtIpcMemGetExportKey", "devPtr")
    assert aclrtIpcMemGetExportKey(p, 0, key, 65, 0) == ACL_ERROR_RT_PARAM_INVALID
    assert headline() == (
        "Invalid_Argument(EE1003): Setting the memory to be shared between processes failed because value 0 for "
        "parameter byteCount is invalid. Expected value: not equal to 0."
    )
    assert aclrtIpcMemGetExportKey(p, 64, key, 65, 2) == ACL_ERROR_RT_PARAM_INVALID
    assert headline().endswith("value 2 for parameter flags is invalid. Expected value: [0, 1].")
    assert aclrtIpcMemGetExportKey(p, 64, key, 4, 0) == ACL_ERROR_RT_PARAM_INVALID and "too short" in headline()
    buf = bytearray(65)
    assert aclrtIpcMemGetExportKey(p, 64, buf, 65, ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION) == 0
    imported = Ref()
    assert aclrtIpcMemImportByKey(imported, bytes(buf), 0) == 0  # no whitelist needed
    assert aclrtIpcMemSetImportPid(bytes(buf), [1], 0) == ACL_ERROR_RT_PARAM_INVALID
    assert headline().endswith("value 0 for parameter num is invalid. Expected value: (0, 2147483647].")
    assert aclrtIpcMemSetAttr(bytes(buf), 0, 4) == ACL_ERROR_RT_PARAM_INVALID
    assert headline().endswith("value 4 for parameter attr is invalid. Expected value: [0, 4).")
    assert aclrtIpcMemImportPidInterServer(None, [], 1) == ACL_ERROR_RT_PARAM_INVALID
    assert headline().endswith("rtIpcMemImportPidInterServer failed because key cannot be a NULL pointer.")
    assert aclrtIpcMemImportPidInterServer(bytes(buf), [(0, [os.getpid()])], 1) == 0
    assert aclrtIpcMemClose(bytes(buf)) == 0


# -- batch copies ---------------------------------------------------------------------------------


def test_a_batch_copies_every_pair(dev0):
    a, b = dev_alloc(64), dev_alloc(64)
    h1, h2 = np.arange(16, dtype=np.float32), np.full(16, 5.0, np.float32)
    fail = Ref()
    attrs = [aclrtMemcpyBatchAttr(DEV, HOST)]
    assert aclrtMemcpyBatch([a, b], [64, 64], [h1, h2], [64, 64], 2, attrs, [0], 1, fail) == 0
    assert fail.value == SIZE_MAX
    out1, out2 = np.zeros(16, np.float32), np.zeros(16, np.float32)
    back = [aclrtMemcpyBatchAttr(HOST, DEV)]
    assert aclrtMemcpyBatchV2([out1, out2], [64, 64], [a, b], [64, 64], 2, back, [0], 1) == 0
    assert out1.tolist() == h1.tolist() and out2.tolist() == h2.tolist()
    st = Ref()
    assert aclrtCreateStream(st) == 0
    h3 = np.full(16, 7.0, np.float32)
    assert aclrtMemcpyBatchAsync([a], [64], [h3], [64], 1, attrs, [0], 1, fail, st.value) == 0
    assert aclrtSynchronizeStream(st.value) == 0 and get(a, h3).tolist() == h3.tolist()
    assert aclrtDestroyStream(st.value) == 0


def test_batch_checks_name_the_failed_pair(dev0):
    a = dev_alloc(64)
    h = np.zeros(16, np.float32)
    fail = Ref()
    attrs = [aclrtMemcpyBatchAttr(DEV, HOST)]
    assert aclrtMemcpyBatch([a], [64], [h], [64], 1, attrs, [0], 1, None) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg() == null("aclrtMemcpyBatch", "failIndex")
    assert aclrtMemcpyBatch([a], [32], [h], [64], 1, attrs, [0], 1, fail) == ACL_ERROR_INVALID_PARAM
    assert headline() == (
        "Invalid_Argument(EH0009): Checking the batch memory copy parameter validity failed. Value 32 for parameter "
        "destMaxs is invalid. Reason: The memory copy size 64 at index 0 exceeds the size 32 of the destination buffer."
    )
    assert aclrtMemcpyBatch([a], [64], [h], [0], 1, None, None, 0, fail) == 0 and fail.value == SIZE_MAX
    wrong = [aclrtMemcpyBatchAttr(HOST, HOST)]
    assert aclrtMemcpyBatch([a, a], [64, 64], [h, h], [64, 64], 2, attrs + wrong, [0, 1], 2, fail) != 0
    assert fail.value == 1
    assert headline().startswith(
        "Invalid_Argument(EE1017): Checking memory copy attributes failed. Parameter dst is invalid. Reason: The input "
        "memory type MEMORY_LOC_HOST(0) and the actual memory type MEMORY_LOC_DEVICE(1) do not match"
    )
    assert aclrtMemcpyBatch([a], [64], [h], [64], 1, attrs, [1], 1, fail) == ACL_ERROR_RT_PARAM_INVALID
    assert headline().endswith("value 1 for parameter attrsIdxs[0] is invalid. Expected value: 0.")
    h2 = np.zeros(16, np.float32)
    h2h = [aclrtMemcpyBatchAttr(HOST, HOST)]
    assert aclrtMemcpyBatch([h2], [64], [h], [64], 1, h2h, [0], 1, fail) == ACL_ERROR_RT_PARAM_INVALID
    assert "Only H2D and D2H copy directions are supported." in headline() and fail.value == 0


# -- descriptors, offsets, conditions ---------------------------------------------------------------


def test_a_copy_descriptor_is_device_memory_read_when_the_task_runs(dev0):
    size = Ref()
    assert aclrtGetMemcpyDescSize(ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, size) == 0 and size.value == 32
    assert aclrtGetMemcpyDescSize(ACL_MEMCPY_HOST_TO_DEVICE, size) == ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    desc, src, dst = dev_alloc(32), dev_alloc(64), dev_alloc(64)
    put(src, np.arange(16, dtype=np.float32))
    assert aclrtSetMemcpyDesc(desc, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, src, dst, 64, None) == 0
    st = Ref()
    assert aclrtCreateStream(st) == 0
    assert aclrtMemcpyAsyncWithDesc(desc, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, st.value) == 0
    assert aclrtSynchronizeStream(st.value) == 0
    assert get(dst, np.zeros(16, np.float32)).tolist() == list(range(16))
    assert aclrtMemcpyAsyncWithDesc(desc, 9, st.value) == ACL_ERROR_INVALID_PARAM
    assert headline().endswith(
        "aclrtMemcpyAsyncWithDesc failed because value UNKNOWN(9) for parameter kind is invalid. Expected value: "
        "[RT_MEMCPY_KIND_HOST_TO_HOST, RT_MEMCPY_KIND_MAX)."
    )
    assert aclrtDestroyStream(st.value) == 0


def test_offsets_are_read_from_device_pointers_when_the_task_runs(dev0):
    src, dst, ptrs = dev_alloc(64), dev_alloc(64), dev_alloc(16)
    put(src, np.arange(16, dtype=np.float32))
    put(ptrs, np.array([dst, src], dtype=np.uint64))
    assert aclrtMemcpyAsyncWithOffset(ptrs, 64, 8, ptrs + 8, 16, 16, 3, None) == 0
    assert aclrtSynchronizeStream(None) == 0
    assert get(dst + 8, np.zeros(4, np.float32)).tolist() == [4, 5, 6, 7]


def test_a_conditional_copy_wants_page_locked_host_memory(dev0):
    d = dev_alloc(64)
    assert aclrtMemcpyAsyncWithCondition(d, 64, np.zeros(16, np.float32), 64, 1, None) == ACL_ERROR_RT_PARAM_INVALID
    assert "needs page-locked memory" in headline()


# -- aclrtReduceAsync ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "op"),
    [
        (ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, np.add),
        (ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX, np.maximum),
        (ACL_RT_MEMCPY_SDMA_AUTOMATIC_MIN, np.minimum),
    ],
)
@pytest.mark.parametrize(
    ("acl_type", "np_type"),
    [(ACL_FLOAT, np.float32), (ACL_FLOAT16, np.float16), (ACL_INT32, np.int32), (ACL_INT8, np.int8),
     (ACL_BF16, ml_dtypes.bfloat16)],
)  # fmt: skip
def test_reduce_on_the_stream(dev0, kind, op, acl_type, np_type):
    rng = np.random.default_rng(7)
    d0 = rng.integers(-50, 50, 32).astype(np_type)
    s0 = rng.integers(-50, 50, 32).astype(np_type)
    dst, src = dev_alloc(d0.nbytes), dev_alloc(s0.nbytes)
    put(dst, d0)
    put(src, s0)
    assert aclrtReduceAsync(dst, src, d0.nbytes, kind, acl_type, None, None) == 0
    assert aclrtSynchronizeStream(None) == 0
    want = np.asarray(op(d0, s0), dtype=np_type)
    assert get(dst, d0).tolist() == want.tolist()


def test_reduce_checks(dev0):
    a, b = dev_alloc(64), dev_alloc(64)
    assert (
        aclrtReduceAsync(a, b, 64, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_DOUBLE, None, None) == ACL_ERROR_INVALID_PARAM
    )
    assert headline() == (
        "Invalid_Argument(EH0009): aclrtReduceAsync failed. Value DOUBLE(11) for parameter type is invalid. Reason: "
        "The data type is currently not supported."
    )
    assert aclrtReduceAsync(a, b, 64, 9, ACL_FLOAT, None, None) == ACL_ERROR_RT_PARAM_INVALID
    assert headline().endswith(
        "Asynchronously performing the Reduce operation failed because value 9 for parameter kind is invalid. "
        "Expected value: [10, 14)."
    )
    assert (
        aclrtReduceAsync(a, b, 0, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_FLOAT, None, None) == ACL_ERROR_RT_PARAM_INVALID
    )
    assert headline().endswith("failed because value 0 for parameter cnt is invalid. Expected value: not equal to 0.")
    assert aclrtReduceAsync(a, b, 64, 10, ACL_FLOAT, None, 0x10) == ACL_ERROR_INVALID_PARAM
    assert headline().endswith("Reason: reserve is a reserved parameter and must be nullptr.")
    assert aclrtReduceAsync(a, b, 64, ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL, ACL_FLOAT, None, None) == (
        ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    )
    assert aclrtReduceAsync(a, b, 128, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_FLOAT, None, None) != 0  # past the end


def test_ascend310p_reduces_only_sums_of_its_types(dev0, monkeypatch):
    monkeypatch.setenv("ACLNN_PY_SOC", "Ascend310P")
    from aclnn_py import soc

    soc.set_active(None)
    a, b = dev_alloc(64), dev_alloc(64)
    assert aclrtReduceAsync(a, b, 64, ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX, ACL_FLOAT, None, None) == (
        ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    )
    assert aclrtReduceAsync(a, b, 64, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_INT32, None, None) == (
        ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    )
    put(a, np.ones(16, np.float32))
    put(b, np.ones(16, np.float32))
    assert aclrtReduceAsync(a, b, 64, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_FLOAT, None, None) == 0
    assert aclrtSynchronizeStream(None) == 0 and get(a, np.zeros(16, np.float32)).tolist() == [2.0] * 16


# -- the rest -------------------------------------------------------------------------------------


def test_free_with_dev_sync_waits_for_queued_work(dev0):
    p = dev_alloc(64)
    _ALLOCS.remove(p)
    st = Ref()
    assert aclrtCreateStream(st) == 0
    assert aclrtMemsetAsync(p, 64, 1, 64, st.value) == 0
    assert aclrtFreeWithDevSync(p) == 0  # no synccheck finding: the fill ran first
    assert aclrtDestroyStream(st.value) == 0


def test_memory_types_and_usage(dev0):
    d, v = dev_alloc(64), Ref()
    assert acldvppMalloc(v, 64) == 0
    _ALLOCS.append(v.value)
    result = Ref()
    assert aclrtCheckMemType([d], 1, ACL_RT_MEM_TYPE_DEV, result, 0) == 0 and result.value == 1
    assert aclrtCheckMemType([d, v.value], 2, ACL_RT_MEM_TYPE_DEV, result, 0) == 0 and result.value == 0
    assert aclrtCheckMemType([d, v.value], 2, ACL_RT_MEM_TYPE_DEV | ACL_RT_MEM_TYPE_DVPP, result, 0) == 0
    assert result.value == 1
    assert aclrtCheckMemType([d], 1, ACL_RT_MEM_TYPE_RSVD, result, 0) == ACL_ERROR_RT_PARAM_INVALID
    assert headline().startswith("Not_Supported(EE1006): Device memory type check failed. Parameter memType value 16")
    infos, n = [], Ref()
    assert aclrtGetMemUsageInfo(0, infos, 4, n) == 0 and n.value == 1
    assert infos[0].name == "APP" and infos[0].curMemSize >= 64 and infos[0].memPeakSize >= infos[0].curMemSize


def test_cache_maintenance_checks_only(dev0):
    """ApiImpl::FlushCache / InvalidCache check no address or range (any non-null pointer passes);
    aclrtCmoAsync's type outside 0..3 is rtCmoAsync's WARN-only 207000 (no report, no last error)."""
    p = dev_alloc(64)
    assert aclrtMemFlush(p, 64) == 0 and aclrtMemInvalidate(p, 64) == 0
    assert aclrtMemFlush(p, 0) == ACL_ERROR_INVALID_PARAM
    aclGetRecentErrMsg()
    assert aclrtMemInvalidate(p, 4096) == 0 and aclrtMemFlush(0x1234, 8) == 0  # no range check in CANN
    assert aclrtCmoAsync(p, 64, 1, None) == 0 and aclrtSynchronizeStream(None) == 0
    assert aclrtCmoAsync(p, 64, 4, None) == 207000 and aclGetRecentErrMsg() is None
    assert aclrtGetLastError(0) == 0


def test_managed_memory_passes_cann_s_checks_then_is_made(dev0):
    ptr = Ref()
    assert aclrtMemAllocManaged(ptr, 64, 2) == ACL_ERROR_INVALID_PARAM
    assert headline().endswith("value 2 for parameter flag is invalid. Expected value: ACL_RT_MEM_ATTACH_GLOBAL.")
    assert aclrtMemAllocManaged(ptr, 64, 1) == 0 and aclrtFree(ptr.value) == 0  # test_runtime_managed.py


def test_simulated_memory_has_no_uncorrectable_errors(dev0):
    from aclnn_py import aclrtGetMemUceInfo, aclrtMemUceInfo, aclrtMemUceRepair

    infos: list[object] = []
    n = Ref()
    assert aclrtGetMemUceInfo(0, infos, 4, n) == 0 and n.value == 0 and infos == []
    assert aclrtGetMemUceInfo(0, None, 4, n) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg() == null("aclrtGetMemUceInfo", "memUceInfoArray")
    assert aclrtMemUceRepair(0, [aclrtMemUceInfo(0x1000, 64)], 1) == 0
    assert aclrtMemUceRepair(0, [], 129) == ACL_ERROR_INVALID_PARAM
    assert headline().endswith(
        "Value 129 for parameter arraySize is invalid. Reason: must be less than or equal to 128."
    )
    bad = aclrtMemUceInfo(0x1000, 64, (1,) + (0,) * 13)
    assert aclrtMemUceRepair(0, [bad], 1) == ACL_ERROR_INVALID_PARAM
    assert headline().endswith("Reason: memUceInfoArray.reserved is a reserved parameter and must be 0.")
    # memory.cpp compares 14 bytes of reserved: the third word is not looked at, as on CANN
    assert aclrtMemUceRepair(0, [aclrtMemUceInfo(0x1000, 64, (0, 0, 5) + (0,) * 11)], 1) == 0


def test_uce_calls_need_the_fast_recover_feature(dev0, monkeypatch):
    from aclnn_py import aclrtGetMemUceInfo, soc

    monkeypatch.setenv("ACLNN_PY_SOC", "Ascend910")
    soc.set_active(None)
    n = Ref()
    assert aclrtGetMemUceInfo(0, [], 4, n) == ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    assert aclGetRecentErrMsg() is None


def test_cache_descriptors_hold_the_runtime_s_struct(dev0):
    from aclnn_py import aclrtCmoAsyncWithDesc, aclrtCmoGetDescSize, aclrtCmoSetDesc

    size = Ref()
    assert aclrtCmoGetDescSize(size) == 0 and size.value == 32
    desc, data = dev_alloc(32), dev_alloc(256)
    assert aclrtCmoSetDesc(desc, data, 256) == 0
    raw = get(desc, np.zeros(32, np.uint8)).tobytes()
    assert int.from_bytes(raw[16:24], "little") == data and int.from_bytes(raw[12:16], "little") == 256
    assert aclrtCmoAsyncWithDesc(desc, 1, None, None) == 0 and aclrtSynchronizeStream(None) == 0
    assert aclrtCmoSetDesc(desc, data, 0) == ACL_ERROR_RT_PARAM_INVALID
    assert headline() == (
        "Invalid_Argument(EE1003): Setting the cache memory descriptor failed because value 0 for parameter srcLen "
        "is invalid. Expected value: not equal to 0."
    )
    assert aclrtCmoGetDescSize(None) == ACL_ERROR_RT_PARAM_INVALID
    assert "cannot be a NULL pointer" in headline()


def test_cache_barriers_are_refused_after_cann_s_checks(dev0):
    from aclnn_py import aclrtBarrierTaskInfo, aclrtCmoAsyncWithBarrier, aclrtCmoWaitBarrier

    p = dev_alloc(64)
    assert aclrtCmoAsyncWithBarrier(None, 64, 2, 1, None) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg() == null("aclrtCmoAsyncWithBarrier", "src")
    assert aclrtCmoAsyncWithBarrier(p, 64, 2, 1, None) == ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    assert aclGetRecentErrMsg() is None
    assert aclrtCmoWaitBarrier(aclrtBarrierTaskInfo(0, []), None, 0) == ACL_ERROR_INVALID_PARAM
    assert headline().endswith("value 0 for parameter taskInfo->barrierNum is invalid. Expected value: (0, 6].")
    assert aclrtCmoWaitBarrier(aclrtBarrierTaskInfo(1, [(0, 1)]), None, 0) == ACL_ERROR_RT_PARAM_INVALID
    assert headline().endswith(
        "rtsLaunchBarrierTask failed because value 6 for parameter cmoInfo.cmoType is invalid. Expected value: "
        "CMO_INVALID(8)."
    )
    assert aclrtCmoWaitBarrier(aclrtBarrierTaskInfo(1, [(2, 5)]), None, 0) == ACL_ERROR_RT_FEATURE_NOT_SUPPORT
