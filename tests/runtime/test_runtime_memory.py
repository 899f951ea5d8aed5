"""The memory chapter's additions: DVPP memory, aclrtValueWrite / aclrtValueWait (values that wait,
under every stream policy), aclrtGetMemInfo per attribute and chip."""

from __future__ import annotations

import threading

import numpy as np
import pytest
from rt_texts import FUNC_ERROR_REASON, INDENT, RANGE_SOLUTION, TRACEBACK, null, rt_invalid

from aclnn_py import (
    ACL_DDR_MEM,
    ACL_DDR_MEM_HUGE,
    ACL_ERROR_FEATURE_UNSUPPORTED,
    ACL_ERROR_INVALID_PARAM,
    ACL_ERROR_RT_CONTEXT_NULL,
    ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
    ACL_ERROR_RT_PARAM_INVALID,
    ACL_ERROR_RT_STREAM_CONTEXT,
    ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
    ACL_HBM_MEM,
    ACL_HBM_MEM_HUGE1G,
    ACL_MEM_NORMAL,
    ACL_MEMCPY_DEFAULT,
    ACL_MEMCPY_DEVICE_TO_DEVICE,
    ACL_MEMCPY_DEVICE_TO_HOST,
    ACL_MEMCPY_HOST_TO_DEVICE,
    ACL_MEMCPY_HOST_TO_HOST,
    ACL_RT_THREAD_LEVEL,
    ACL_STREAM_WAIT_VALUE_AND,
    ACL_STREAM_WAIT_VALUE_EQ,
    ACL_STREAM_WAIT_VALUE_GEQ,
    ACL_STREAM_WAIT_VALUE_NOR,
    Ref,
    acldvppFree,
    acldvppMalloc,
    aclFinalize,
    aclGetRecentErrMsg,
    aclInit,
    aclrtCreateContext,
    aclrtCreateStream,
    aclrtDestroyContext,
    aclrtDestroyStream,
    aclrtDeviceCanAccessPeer,
    aclrtDeviceDisablePeerAccess,
    aclrtDeviceEnablePeerAccess,
    aclrtFree,
    aclrtFreeHost,
    aclrtGetLastError,
    aclrtGetMemInfo,
    aclrtMalloc,
    aclrtMallocAlign32,
    aclrtMallocCached,
    aclrtMallocHost,
    aclrtMemcpy,
    aclrtMemcpy2d,
    aclrtMemcpy2dAsync,
    aclrtMemset,
    aclrtMemsetD32,
    aclrtMemsetD32Async,
    aclrtPointerGetAttributes,
    aclrtResetDevice,
    aclrtSetCurrentContext,
    aclrtSetDevice,
    aclrtSynchronizeStream,
    aclrtValueWait,
    aclrtValueWrite,
)
from aclnn_py.runtime import stream as stream_mod
from aclnn_py.runtime.device import RT
from aclnn_py.runtime.memory import SPACE


@pytest.fixture(params=["deferred", "eager", "thread"])
def policy(request, monkeypatch):
    monkeypatch.setenv("ACLNN_PY_STREAM", request.param)
    return request.param


@pytest.fixture
def ctx(policy):
    assert aclInit(None) == 0 and RT.policy.name == policy
    assert aclrtSetDevice(0) == 0
    yield policy
    aclrtResetDevice(0)
    aclFinalize()


def _stream():
    s = Ref()
    assert aclrtCreateStream(s) == 0
    return s.value


def _word(value=0):
    p = Ref()
    assert aclrtMalloc(p, 8, 0) == 0
    assert aclrtMemcpy(p.value, 8, np.array([value], np.uint64), 8, ACL_MEMCPY_HOST_TO_DEVICE) == 0
    return p.value


def _read_word(ptr):
    host = np.zeros(1, np.uint64)
    assert aclrtMemcpy(host, 8, ptr, 8, ACL_MEMCPY_DEVICE_TO_HOST) == 0
    return int(host[0])


# -- DVPP memory -----------------------------------------------------------------------------------


def test_dvpp_memory_is_device_memory_with_32_extra_bytes(dev0):
    p = Ref()
    assert acldvppMalloc(p, 100) == 0
    alloc = SPACE.find(p.value)
    assert alloc.kind == "device" and alloc.size == 160  # ALIGN_UP(100, 32) + 32
    data = np.arange(100, dtype=np.uint8)
    assert aclrtMemcpy(p.value, 100, data, 100, ACL_MEMCPY_HOST_TO_DEVICE) == 0
    back = np.zeros(100, np.uint8)
    assert aclrtMemcpy(back, 100, p.value, 100, ACL_MEMCPY_DEVICE_TO_HOST) == 0
    assert (back == data).all()
    free, total = Ref(), Ref()
    assert aclrtGetMemInfo(ACL_HBM_MEM, free, total) == 0 and total.value - free.value == 160
    assert acldvppFree(p.value) == 0
    assert aclrtGetMemInfo(ACL_HBM_MEM, free, total) == 0 and free.value == total.value


def test_dvpp_malloc_needs_a_context_and_checks_its_pointer():
    assert aclInit(None) == 0
    assert acldvppMalloc(None, 16) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg().startswith(null("acldvppMalloc", "devPtr"))
    assert acldvppMalloc(Ref(), 16) == ACL_ERROR_RT_CONTEXT_NULL
    assert "rtDvppMallocWithFlag execution failed, the context is a null pointer." in aclGetRecentErrMsg()
    assert acldvppFree(None) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg().startswith(null("acldvppFree", "devPtr"))
    aclFinalize()


def test_dvpp_free_refuses_host_memory(dev0):
    h = Ref()
    assert aclrtMallocHost(h, 64) == 0
    assert acldvppFree(h.value) == ACL_ERROR_RT_PARAM_INVALID
    assert aclGetRecentErrMsg() == (
        "Invalid_Argument(EE1011): Releasing DVPP device memory failed. Value MEMORY_LOC_HOST(0) for parameter devPtr "
        "locationType is invalid. Reason: The specified address must be a device address.\n"
        + RANGE_SOLUTION
        + TRACEBACK
        + f"{INDENT}The argument is invalid. Reason: rtDvppFree execution failed.\n"
    )
    assert aclrtFreeHost(h.value) == 0


# -- aclrtValueWrite / aclrtValueWait ------------------------------------------------------------


def test_regression_fuzz_a_queued_value_write_is_a_declared_write(dev0, findings):
    """Fuzz campaign (seed 1795482668, example 4691): a queued aclrtValueWrite's 8 bytes were not
    known to the sanitizer, so the synchronize that ran it changed undeclared bytes, and a host
    read of the word before any synchronize went unreported."""
    s = _stream()
    word = _word(0)
    assert aclrtValueWrite(word, 9, 0, s) == 0
    host = np.zeros(1, np.uint64)
    assert aclrtMemcpy(host, 8, word, 8, ACL_MEMCPY_DEVICE_TO_HOST) == 0
    assert findings.refresh().checks() == ["synccheck"] and "aclrtValueWrite" in findings.text()
    aclGetRecentErrMsg()
    assert aclrtSynchronizeStream(s) == 0
    assert _read_word(word) == 9 and findings.refresh().checks() == ["synccheck"]
    assert aclrtDestroyStream(s) == 0
    aclrtFree(word)


def test_value_write_then_wait_on_two_streams(ctx):
    a, b = _stream(), _stream()
    word, out = _word(0), _word(0)
    flag = np.array([7], np.uint64)
    # stream a waits for the word, then copies a marker; stream b writes the word afterwards
    assert aclrtValueWait(word, 5, ACL_STREAM_WAIT_VALUE_EQ, a) == 0
    assert aclrtMemcpy(out, 8, flag, 8, ACL_MEMCPY_HOST_TO_DEVICE) == 0
    assert aclrtValueWrite(word, 5, 0, b) == 0
    assert aclrtSynchronizeStream(a) == 0
    assert aclrtSynchronizeStream(b) == 0
    assert _read_word(word) == 5
    for s in (a, b):
        assert aclrtDestroyStream(s) == 0
    aclrtFree(word)
    aclrtFree(out)


def test_a_wait_holds_later_work_of_its_stream_until_the_write(ctx, findings):
    a, b = _stream(), _stream()
    word, target = _word(0), _word(0)
    assert aclrtValueWait(word, 1, ACL_STREAM_WAIT_VALUE_GEQ, a) == 0
    assert aclrtValueWrite(target, 42, 0, a) == 0  # queued behind the wait
    if ctx == "eager":  # eager runs what it can at once: the wait is not met, so a stays blocked
        assert _read_word(target) == 0
        # reading the word a queued ValueWrite writes, before any synchronize, is the hazard
        assert findings.refresh().checks() == ["synccheck"] and "aclrtValueWrite" in findings.text()
        aclGetRecentErrMsg()
    assert aclrtValueWrite(word, 3, 0, b) == 0
    assert aclrtSynchronizeStream(a) == 0
    assert _read_word(target) == 42
    for s in (a, b):
        assert aclrtDestroyStream(s) == 0
    aclrtFree(word)
    aclrtFree(target)


def test_the_write_may_come_later_from_another_thread(ctx):
    """hicann/runtime example 9_multistream_sync_memory: thread A queues a wait and synchronizes;
    thread B, later, writes on its own stream."""
    a, b = _stream(), _stream()
    word = _word(0)
    context = RT.thread_context()
    done = threading.Event()
    results = []

    def writer():
        assert aclrtSetCurrentContext(context) == 0
        done.wait(5)
        results.append(aclrtValueWrite(word, 9, 0, b))
        results.append(aclrtSynchronizeStream(b))

    assert aclrtValueWait(word, 9, ACL_STREAM_WAIT_VALUE_EQ, a) == 0
    t = threading.Thread(target=writer)
    t.start()
    done.set()
    assert aclrtSynchronizeStream(a) == 0
    t.join(10)
    assert results == [0, 0]
    for s in (a, b):
        assert aclrtDestroyStream(s) == 0
    aclrtFree(word)


@pytest.mark.parametrize(
    ("flag", "value", "word", "met"),
    [
        (ACL_STREAM_WAIT_VALUE_GEQ, 5, 5, True),
        (ACL_STREAM_WAIT_VALUE_GEQ, 5, 4, False),
        (ACL_STREAM_WAIT_VALUE_GEQ, 2**64 - 1, 3, True),  # (int64)(3 - (2^64 - 1)) = 4 >= 0
        (ACL_STREAM_WAIT_VALUE_EQ, 5, 5, True),
        (ACL_STREAM_WAIT_VALUE_EQ, 5, 6, False),
        (ACL_STREAM_WAIT_VALUE_AND, 0b0110, 0b0100, True),
        (ACL_STREAM_WAIT_VALUE_AND, 0b0110, 0b1001, False),
        (ACL_STREAM_WAIT_VALUE_NOR, 0, 0, True),
        (ACL_STREAM_WAIT_VALUE_NOR, 2**64 - 1, 0, False),
    ],
)
def test_wait_conditions(dev0, monkeypatch, flag, value, word, met):
    monkeypatch.setattr(stream_mod, "WAIT_LIMIT_S", 0.05)
    s = _stream()
    w = _word(word)
    assert aclrtValueWait(w, value, flag, s) == 0
    code = aclrtSynchronizeStream(s)
    assert code == (0 if met else ACL_ERROR_RT_STREAM_SYNC_TIMEOUT)
    if not met:
        assert "the condition was not met within 0.05 s; on hardware the stream hangs" in aclGetRecentErrMsg()
    assert aclrtDestroyStream(s) == 0
    aclrtFree(w)


def test_value_calls_check_as_cann_does(dev0):
    s = _stream()
    w = _word(0)
    assert aclrtValueWrite(None, 1, 0, s) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg().startswith(null("aclrtValueWrite", "devAddr"))
    assert aclrtValueWait(None, 1, 0, s) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg().startswith(null("aclrtValueWait", "devAddr"))
    assert aclrtValueWrite(w, 1, 1, s) == ACL_ERROR_RT_PARAM_INVALID
    assert aclGetRecentErrMsg() == rt_invalid(
        "Writing data to the specified memory failed because value 1 for parameter flag is invalid. Expected value: 0.",
        "rtsValueWrite",
    )
    assert aclrtValueWait(w, 1, 4, s) == ACL_ERROR_RT_PARAM_INVALID
    assert aclGetRecentErrMsg() == rt_invalid(
        "Unblocking the data in the specified memory when the data meets certain conditions failed because value 4 "
        "for parameter flag is invalid. Expected value: [0, 4).",
        "rtsValueWait",
    )
    h = Ref()
    assert aclrtMallocHost(h, 8) == 0
    assert aclrtValueWrite(h.value, 1, 0, s) == ACL_ERROR_RT_PARAM_INVALID
    assert aclGetRecentErrMsg() == rt_invalid(
        "Writing data to the specified memory failed because value MEMORY_LOC_HOST(0) for parameter "
        "attributes.location.type is invalid. Expected value: MEMORY_LOC_DEVICE(1).",
        "rtsValueWrite",
    )
    assert aclrtGetLastError(ACL_RT_THREAD_LEVEL) == ACL_ERROR_RT_PARAM_INVALID
    assert aclrtFreeHost(h.value) == 0
    assert aclrtDestroyStream(s) == 0
    aclrtFree(w)


def test_value_calls_need_the_stream_of_the_current_context(dev0):
    w = _word(0)
    s = _stream()
    other = Ref()
    assert aclrtCreateContext(other, 0) == 0
    assert aclrtValueWrite(w, 1, 0, s) == ACL_ERROR_RT_STREAM_CONTEXT
    msg = aclGetRecentErrMsg()
    assert "Writing data to the specified memory execution failed because stream does not belong" in msg
    assert f"rtsValueWrite execution failed, reason=stream not in current context{FUNC_ERROR_REASON}" in msg
    assert aclrtDestroyContext(other.value) == 0
    assert aclrtSetDevice(0) == 0
    assert aclrtDestroyStream(s) == 0
    aclrtFree(w)
    aclrtResetDevice(0)


@pytest.mark.parametrize("chip", ["Ascend910", "Ascend310P"])
def test_value_calls_are_not_supported_on_older_chips(soc, chip):
    soc(chip)
    assert aclInit(None) == 0 and aclrtSetDevice(0) == 0
    w = _word(0)
    assert aclrtValueWrite(w, 1, 0, None) == ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    assert aclrtValueWait(w, 1, 0, None) == ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    assert aclGetRecentErrMsg() is None  # a WARN only ...
    assert aclrtGetLastError(ACL_RT_THREAD_LEVEL) == ACL_ERROR_RT_FEATURE_NOT_SUPPORT  # ... but recorded
    aclrtFree(w)
    aclrtResetDevice(0)
    aclFinalize()


# -- aclrtGetMemInfo: each attribute its own figures ---------------------------------------------


@pytest.mark.parametrize(
    ("chip", "attr", "has_memory"),
    [
        ("Ascend910B", ACL_DDR_MEM, False),
        ("Ascend910B", ACL_DDR_MEM_HUGE, False),
        ("Ascend910B", ACL_HBM_MEM, True),
        ("Ascend910B", ACL_HBM_MEM_HUGE1G, True),
        ("Ascend910B", ACL_MEM_NORMAL, True),
        ("Ascend950", ACL_DDR_MEM, False),
        ("Ascend910", ACL_DDR_MEM, False),
        ("Ascend310P", ACL_DDR_MEM, True),
        ("Ascend310P", ACL_HBM_MEM, True),  # the runtime maps HBM to DDR on this chip
    ],
)
def test_meminfo_reports_the_kind_of_memory_the_chip_has(soc, chip, attr, has_memory):
    soc(chip)
    assert aclInit(None) == 0 and aclrtSetDevice(0) == 0
    p = Ref()
    assert aclrtMalloc(p, 1000, 0) == 0
    free, total = Ref(), Ref()
    assert aclrtGetMemInfo(attr, free, total) == 0
    if has_memory:
        assert total.value == RT.capacity and total.value - free.value == SPACE.find(p.value).size
    else:
        assert (free.value, total.value) == (0, 0)
    aclrtFree(p.value)
    aclrtResetDevice(0)
    aclFinalize()


def test_meminfo_of_1g_huge_pages_on_a_chip_without_them(soc):
    """NpuDriver::MemGetInfoEx checks RT_FEATURE_MEM_1G_HUGE_PAGE for the 1 GB views (Ascend910:
    207000 and rtMemGetInfoEx's EE1001); Ascend310P maps them to DDR before that check."""
    soc("Ascend910")
    assert aclInit(None) == 0 and aclrtSetDevice(0) == 0
    for attr in (ACL_HBM_MEM_HUGE1G, 11, 14, 17):
        assert aclrtGetMemInfo(attr, Ref(), Ref()) == ACL_ERROR_RT_FEATURE_NOT_SUPPORT
        assert aclGetRecentErrMsg() == (
            "Invalid_Argument(EE1001): The argument is invalid. Reason: rtMemGetInfoEx execution failed, the feature "
            "is not supported.\n        Solution: 1. Check the input parameter range of the function. 2. Check the "
            "function invocation relationship.\n"
        )
    assert aclrtResetDevice(0) == 0 and aclFinalize() == 0


@pytest.mark.parametrize("chip", ["Ascend910", "Ascend310P", "Ascend910B"])
@pytest.mark.parametrize("policy_1g", [6, 7])  # ACL_MEM_MALLOC_HUGE1G_ONLY(_P2P)
def test_1g_huge_page_allocations_need_the_chips_feature(soc, chip, policy_1g):
    """Only the A2/A3 series and Ascend950 have RT_FEATURE_MEM_1G_HUGE_PAGE: elsewhere the driver
    refuses (207000, logged only; the thread's last error is set)."""
    soc(chip)
    assert aclInit(None) == 0 and aclrtSetDevice(0) == 0
    p = Ref()
    for malloc in (aclrtMalloc, aclrtMallocAlign32, aclrtMallocCached):
        if chip == "Ascend910B":
            assert malloc(p, 100, policy_1g) == 0
            assert SPACE.find(p.value).size == 128  # no padding for the 1 GB policies
            assert aclrtFree(p.value) == 0
        else:
            assert malloc(p, 100, policy_1g) == ACL_ERROR_RT_FEATURE_NOT_SUPPORT
            assert aclGetRecentErrMsg() is None
            assert aclrtGetLastError(ACL_RT_THREAD_LEVEL) == ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    assert aclrtResetDevice(0) == 0 and aclFinalize() == 0


def test_padding_is_skipped_only_for_exactly_the_1g_policies(dev0):
    """aclMallocMemInner compares ``policy == ACL_MEM_MALLOC_HUGE1G_ONLY``: with other bits set the
    padding stays (and the policy maps to RT_MEMORY_DEFAULT)."""
    p = Ref()
    assert aclrtMalloc(p, 100, 0x1006) == 0
    assert SPACE.find(p.value).size == 160  # (100 + 32 + 32 - 1) // 32 * 32
    assert aclrtFree(p.value) == 0


def test_pinned_host_memory_is_rounded_up_to_32_bytes(dev0):
    """ApiImpl::HostMalloc asks the driver for ``((size + 31) >> 5) << 5`` bytes: a copy of 32
    bytes into a 1-byte aclrtMallocHost buffer stays inside it."""
    h, d = Ref(), Ref()
    assert aclrtMallocHost(h, 1) == 0 and aclrtMalloc(d, 32, 0) == 0
    assert SPACE.find(h.value).size == 32
    assert aclrtMemset(d.value, 32, 7, 32) == 0
    assert aclrtMemcpy(h.value, 32, d.value, 32, ACL_MEMCPY_DEVICE_TO_HOST) == 0
    assert aclrtFreeHost(h.value) == 0 and aclrtFree(d.value) == 0


# -- 2D copies -------------------------------------------------------------------------------------


def test_memcpy2d_copies_rows_between_pitches(ctx):
    host = np.arange(4 * 10, dtype=np.uint8).reshape(4, 10)  # 4 rows, pitch 10
    d = Ref()
    assert aclrtMalloc(d, 4 * 16, 0) == 0
    assert aclrtMemcpy(d.value, 64, np.zeros(64, np.uint8), 64, ACL_MEMCPY_HOST_TO_DEVICE) == 0
    assert aclrtMemcpy2d(d.value, 16, host, 10, 6, 4, ACL_MEMCPY_HOST_TO_DEVICE) == 0
    back = np.full((4, 8), 0xEE, np.uint8)
    s = _stream()
    assert aclrtMemcpy2dAsync(back, 8, d.value, 16, 6, 4, ACL_MEMCPY_DEFAULT, s) == 0
    assert aclrtSynchronizeStream(s) == 0
    assert (back[:, :6] == host[:, :6]).all() and (back[:, 6:] == 0xEE).all()
    whole = _read_bytes(d.value, 64).reshape(4, 16)
    assert (whole[:, :6] == host[:, :6]).all() and (whole[:, 6:] == 0).all()
    assert aclrtDestroyStream(s) == 0
    aclrtFree(d.value)


def _read_bytes(ptr, n):
    host = np.zeros(n, np.uint8)
    assert aclrtMemcpy(host, n, ptr, n, ACL_MEMCPY_DEVICE_TO_HOST) == 0
    return host


def test_memcpy2d_checks(dev0):
    d = Ref()
    assert aclrtMalloc(d, 64, 0) == 0
    host = np.zeros(64, np.uint8)
    assert aclrtMemcpy2d(d.value, 16, host, 16, 0, 4, ACL_MEMCPY_HOST_TO_DEVICE) == 0  # nothing to do
    assert aclrtMemcpy2d(None, 16, host, 16, 8, 4, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg().startswith(null("Checking the synchronous memory copy parameter validity", "dst"))
    assert aclrtMemcpy2d(d.value, 8, host, 16, 12, 4, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg().startswith(
        "Invalid_Argument(EH0009): Checking the synchronous memory copy parameter validity failed. Value 12 for "
        "parameter width is invalid. Reason: must be less than spitch and dpitch, spitch=16, dpitch=8."
    )
    assert aclrtMemcpy2d(d.value, 16, host, 16, 8, 4, 0) == ACL_ERROR_INVALID_PARAM
    assert "value MEMCPY_HOST_TO_HOST(0) for parameter kind is invalid. Expected value: ACL_MEMCPY_HOST_TO_DEVICE" in (
        aclGetRecentErrMsg()
    )
    assert aclrtMemcpy2d(d.value, 16, d.value, 16, 8, 4, ACL_MEMCPY_DEVICE_TO_DEVICE) == (
        ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    )
    assert aclGetRecentErrMsg().startswith(
        "Invalid_Argument(EE1001): The argument is invalid. Reason: rtMemcpy2d execution failed, the feature is not "
        "supported."
    )
    assert aclrtMemcpy2d(d.value, 16, host, 16, 8, 5242881, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_ERROR_RT_PARAM_INVALID
    msg = aclGetRecentErrMsg()
    assert (
        "Checking the validity of 2D memory copy parameters failed because value 5242881 for parameter height is "
        "invalid. Expected value: less than or equal to 5242880." in msg
    )
    assert "check memcpy2d param failure, retCode=0x7110001.[FUNC:MemCopy2DSync][FILE:api_error.cc][LINE:3020]" in msg
    assert aclrtMemcpy2d(d.value, 16, host, 16, 8, 8, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_ERROR_RT_PARAM_INVALID
    assert "runs" in aclGetRecentErrMsg()  # 8 rows of pitch 16 leave the 64-byte allocation
    aclrtFree(d.value)


def test_memcpy2d_kind_against_the_memory_locations(dev0):
    """MemcpyKindAutoCorrect: pinned host and device memory force the kind their locations make;
    a pageable buffer (UNREGISTERED) allows the kinds of MemcpyKindReviseMap and refuses the
    others; then Memcpy2dSync takes H2D and D2H only (107000, EE1017 naming the kind given)."""
    d, h, h2 = Ref(), Ref(), Ref()
    assert aclrtMalloc(d, 64, 0) == 0 and aclrtMallocHost(h, 64) == 0 and aclrtMallocHost(h2, 64) == 0
    host = np.arange(64, dtype=np.uint8)
    assert aclrtMemcpy2d(d.value, 16, host, 16, 8, 4, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_ERROR_RT_PARAM_INVALID
    assert aclGetRecentErrMsg() == (
        "Invalid_Argument(EE1017): Synchronous 2D memory copy task failed. Parameter kind or newKind is invalid. "
        "Reason: Memcpy2dSync supports only H2D or D2H. Parameter kind is MEMCPY_DEVICE_TO_HOST(2), and newKind is "
        "MEMCPY_KIND_MAX(8).\n" + TRACEBACK + f"{INDENT}The argument is invalid. Reason: rtMemcpy2d execution failed.\n"
    )
    assert aclrtMemcpy2d(d.value, 16, host, 16, 8, 4, ACL_MEMCPY_DEFAULT) == 0  # DEFAULT: the locations decide
    assert aclrtMemcpy(h.value, 64, host, 64, ACL_MEMCPY_HOST_TO_HOST) == 0
    assert aclrtMemcpy2d(d.value, 16, h.value, 16, 8, 4, ACL_MEMCPY_DEVICE_TO_HOST) == 0  # pinned: corrected
    assert aclrtMemcpy2d(h2.value, 16, h.value, 16, 8, 4, ACL_MEMCPY_DEFAULT) == ACL_ERROR_RT_PARAM_INVALID
    assert "Parameter kind is MEMCPY_DEFAULT(8), and newKind is MEMCPY_KIND_MAX(8)." in aclGetRecentErrMsg()
    # pinned -> pageable allows H2H and H2D, pageable -> pageable every kind: H2D copies
    out, out2 = np.zeros(64, np.uint8), np.zeros(64, np.uint8)
    assert aclrtMemcpy2d(out, 16, h.value, 16, 8, 4, ACL_MEMCPY_HOST_TO_DEVICE) == 0
    assert out.reshape(4, 16)[:, :8].tolist() == host.reshape(4, 16)[:, :8].tolist()
    assert aclrtMemcpy2d(out2, 16, out, 16, 8, 4, ACL_MEMCPY_DEVICE_TO_HOST) == 0 and (out2 == out).all()
    assert aclrtMemcpy2d(out2, 16, out, 16, 8, 4, ACL_MEMCPY_DEFAULT) == ACL_ERROR_RT_PARAM_INVALID  # H2H
    aclGetRecentErrMsg()
    assert aclrtFree(d.value) == 0 and aclrtFreeHost(h.value) == 0 and aclrtFreeHost(h2.value) == 0


# -- 32-bit fills, pointer attributes, peer access ---------------------------------------------------


def test_memset_d32_fills_words(ctx):
    p = Ref()
    assert aclrtMalloc(p, 64, 0) == 0
    assert aclrtMemsetD32(p.value, 64, 0xDEADBEEF, 8) == 0
    s = _stream()
    assert aclrtMemsetD32Async(p.value + 32, 32, 7, 8, s) == 0
    assert aclrtSynchronizeStream(s) == 0
    words = np.zeros(16, np.uint32)
    assert aclrtMemcpy(words, 64, p.value, 64, ACL_MEMCPY_DEVICE_TO_HOST) == 0
    assert (words[:8] == 0xDEADBEEF).all() and (words[8:] == 7).all()
    assert aclrtMemsetD32(p.value, 64, 1, 0) == 0  # N 0: nothing
    assert aclrtMemsetD32(p.value + 2, 60, 1, 1) == ACL_ERROR_INVALID_PARAM  # not 4-byte aligned: logged only
    assert aclrtMemsetD32(p.value, 8, 1, 3) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg().startswith(
        "Invalid_Argument(EH0009): aclrtMemsetD32 failed. Value 3 for parameter N is invalid. Reason: N \u00d7 4 (12) "
        "is greater than memSize (8), which does not meet the requirement."
    )
    assert aclrtMemsetD32(0x1234_0000, 64, 1, 1) == ACL_ERROR_INVALID_PARAM
    assert "Only memory allocated by aclrtMalloc or aclrtMallocHost is supported." in aclGetRecentErrMsg()
    assert aclrtDestroyStream(s) == 0
    aclrtFree(p.value)


def test_pointer_attributes(dev0):
    d, h = Ref(), Ref()
    assert aclrtMalloc(d, 64, 0) == 0 and aclrtMallocHost(h, 64) == 0
    attrs = Ref()
    assert aclrtPointerGetAttributes(d.value + 8, attrs) == 0
    assert (attrs.value.location.type, attrs.value.location.id) == (1, 0)  # ACL_MEM_LOCATION_TYPE_DEVICE
    assert aclrtPointerGetAttributes(h.value, attrs) == 0 and attrs.value.location.type == 0
    assert aclrtPointerGetAttributes(0x1000, attrs) == 0 and attrs.value.location.type == 2  # unregistered
    assert aclrtPointerGetAttributes(None, attrs) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg().startswith(null("aclrtPointerGetAttributes", "ptr"))
    aclrtFree(d.value)
    aclrtFreeHost(h.value)


def test_peer_access_between_two_devices():
    """hicann/runtime example 2_device_P2P: enable both directions, copy device 0 -> device 1."""
    assert aclInit(None) == 0
    can = Ref()
    assert aclrtDeviceCanAccessPeer(can, 0, 1) == 0 and can.value == 1
    assert aclrtDeviceCanAccessPeer(can, 1, 1) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg().startswith(
        "Invalid_Argument(EH0009): aclrtDeviceCanAccessPeer failed. Value 1 for parameter deviceId is invalid. "
        "Reason: deviceId 1 cannot be equal to peerDeviceId 1."
    )
    assert aclrtDeviceEnablePeerAccess(1, 0) == ACL_ERROR_RT_CONTEXT_NULL  # no current device: silent
    a, b = Ref(), Ref()
    assert aclrtSetDevice(1) == 0 and aclrtMalloc(b, 64, 0) == 0 and aclrtDeviceEnablePeerAccess(0, 0) == 0
    assert aclrtSetDevice(0) == 0 and aclrtMalloc(a, 64, 0) == 0 and aclrtDeviceEnablePeerAccess(1, 0) == 0
    assert aclrtDeviceEnablePeerAccess(1, 1) == ACL_ERROR_FEATURE_UNSUPPORTED
    assert "flags is a reserved parameter and must be 0" in aclGetRecentErrMsg()
    data = np.arange(64, dtype=np.uint8)
    assert aclrtMemcpy(a.value, 64, data, 64, ACL_MEMCPY_HOST_TO_DEVICE) == 0
    assert aclrtMemcpy(b.value, 64, a.value, 64, ACL_MEMCPY_DEVICE_TO_DEVICE) == 0
    assert (_read_bytes(b.value, 64) == data).all()
    assert aclrtDeviceDisablePeerAccess(1) == 0
    aclrtFree(a.value)
    aclrtFree(b.value)
    aclrtResetDevice(0)
    aclrtResetDevice(1)
    aclFinalize()
