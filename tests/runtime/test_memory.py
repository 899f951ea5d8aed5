"""Device memory: aclrtMalloc sizing, poison, capacity, checked access, frees, memcpy/memset; the
codes and messages of CANN's checks (runtime master, ACL 1.17) and of the emulator's own."""

from __future__ import annotations

import array
import ctypes
import re
import threading

import numpy as np
import pytest
from rt_texts import (
    ACL_INNER,
    FUNC_ERROR_REASON,
    GET_DEV_MSG_LINES,
    INDENT,
    RANGE_SOLUTION,
    TRACEBACK,
    emulator,
    no_context_unbound,
    null,
    rt_invalid,
)

from aclnn_py import (
    ACL_DDR_MEM,
    ACL_ERROR_INVALID_PARAM,
    ACL_ERROR_RT_CONTEXT_NULL,
    ACL_ERROR_RT_INVALID_MEMORY_TYPE,
    ACL_ERROR_RT_MEMORY_ALLOCATION,
    ACL_ERROR_RT_PARAM_INVALID,
    ACL_HBM_MEM,
    ACL_MEM_MALLOC_HUGE1G_ONLY,
    ACL_MEM_MALLOC_HUGE_FIRST,
    ACL_MEMCPY_DEFAULT,
    ACL_MEMCPY_DEVICE_TO_DEVICE,
    ACL_MEMCPY_DEVICE_TO_HOST,
    ACL_MEMCPY_HOST_TO_DEVICE,
    ACL_MEMCPY_HOST_TO_HOST,
    ACL_MEMCPY_INNER_DEVICE_TO_DEVICE,
    Ref,
    _errmsg,
    aclFinalize,
    aclGetRecentErrMsg,
    aclInit,
    aclrtAllocBuf,
    aclrtFree,
    aclrtFreeBuf,
    aclrtFreeHost,
    aclrtGetMemInfo,
    aclrtMalloc,
    aclrtMallocAlign32,
    aclrtMallocCached,
    aclrtMallocHost,
    aclrtMemcpy,
    aclrtMemset,
    aclrtResetDevice,
    aclrtSetDevice,
)  # fmt: skip
from aclnn_py.runtime.device import DEFAULT_DEVICE_MEMORY
from aclnn_py.runtime.memory import SPACE

KIND_EXPECT = (
    "ACL_MEMCPY_HOST_TO_DEVICE or ACL_MEMCPY_DEVICE_TO_DEVICE or ACL_MEMCPY_DEVICE_TO_HOST or ACL_MEMCPY_HOST_TO_HOST "
    "or ACL_MEMCPY_DEFAULT or ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE.."
)


@pytest.fixture
def ctx():
    assert aclInit(None) == 0
    assert aclrtSetDevice(0) == 0
    yield
    aclrtResetDevice(0)
    aclFinalize()


def _alloc(n, policy=ACL_MEM_MALLOC_HUGE_FIRST):
    p = Ref()
    assert aclrtMalloc(p, n, policy) == 0
    return p.value


def _site(text: str) -> str:
    """Messages name the line that allocated or freed: make them comparable."""
    return re.sub(r"test_memory\.py:\d+", "test_memory.py:N", text)


@pytest.mark.parametrize("size,reserved", [(1, 64), (32, 64), (33, 96), (64, 96), (100, 160)])
def test_malloc_rounds_up_to_32_plus_32(ctx, size, reserved):
    p = _alloc(size)
    alloc = SPACE.find(p)
    assert alloc.size == reserved and alloc.requested == size
    assert p % 64 == 0
    assert aclrtFree(p) == 0


def test_malloc_on_ascend950_has_no_padding(soc):
    soc("Ascend950")
    assert aclInit(None) == 0 and aclrtSetDevice(0) == 0
    p = _alloc(33)
    assert SPACE.find(p).size == 64
    assert aclrtFree(p) == 0
    aclrtResetDevice(0)
    aclFinalize()


def test_huge1g_policies_skip_padding(ctx):
    p = _alloc(33, ACL_MEM_MALLOC_HUGE1G_ONLY)
    assert SPACE.find(p).size == 64
    q = Ref()
    assert aclrtMallocAlign32(q, 33, ACL_MEM_MALLOC_HUGE_FIRST) == 0
    assert SPACE.find(q.value).size == 64
    aclrtFree(p)
    aclrtFree(q.value)


def test_malloc_check_order(ctx):
    assert aclrtMalloc(None, 0, 0) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg() == null("aclMallocMemInner", "devPtr")
    assert aclrtMalloc(Ref(), 0, 0) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg() == (
        "Invalid_Argument(EH0007): aclMallocMemInner failed because value 0 for parameter size is invalid. Expected "
        "value: must be greater than 0.\n" + RANGE_SOLUTION
    )
    assert aclrtMallocAlign32(None, 8, 0) == ACL_ERROR_INVALID_PARAM
    assert aclrtMallocCached(None, 8, 0) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg() == (
        null("aclMallocMemInner", "devPtr")
        + TRACEBACK
        + f"{INDENT}aclrtMallocCached failed because devPtr cannot be a NULL pointer.\n"
    )
    assert aclrtMalloc(Ref(), 2**64 - 1, 0) == ACL_ERROR_INVALID_PARAM  # the padding overflows
    assert aclGetRecentErrMsg() == (
        "EH9999: Internal error!\n"
        f"EH9999(EH9999):  [Check][Size]size too large: 18446744073709551615{ACL_INNER}\n"
        "TraceBack (most recent call last):\n"
    )
    assert aclrtMallocAlign32(Ref(), 2**64 - 33, 0) == ACL_ERROR_RT_MEMORY_ALLOCATION  # no padding: no overflow
    assert aclGetRecentErrMsg().startswith("aclnn_py: aclrtMallocAlign32: 18446744073709551584 bytes requested")
    assert aclrtMalloc(Ref(), -5, 0) == ACL_ERROR_INVALID_PARAM  # not a size_t: the emulator's refusal
    assert aclGetRecentErrMsg() == emulator(
        "Value -5 for size is invalid. Reason: it must be in [0, 18446744073709551615]."
    )


def test_malloc_needs_a_context_and_adds_no_second_message():
    assert aclInit(None) == 0
    assert aclrtMalloc(Ref(), 16, 0) == ACL_ERROR_RT_CONTEXT_NULL
    assert aclrtSetDevice(0) == 0
    assert aclGetRecentErrMsg() == (
        "Invalid_Argument_API_Call_Sequence(EE1018): Context validation failed. Reason: No valid context is bound "
        "to the current thread. Call aclrtSetDevice or aclrtSetCurrentContext to bind a valid context to the "
        "current thread before calling this API.\n"
    )
    aclrtResetDevice(0)
    aclFinalize()


def test_malloc_host_needs_a_context():
    assert aclInit(None) == 0
    assert aclrtMallocHost(Ref(), 64) == ACL_ERROR_RT_CONTEXT_NULL
    assert aclGetRecentErrMsg() == no_context_unbound("rtMallocHost")
    assert aclrtMallocHost(None, 64) == ACL_ERROR_INVALID_PARAM  # the ACL checks come first
    assert aclrtMallocHost(Ref(), 0) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg() == (
        null("aclrtMallocHost", "hostPtr")
        + TRACEBACK
        + f"{INDENT}aclrtMallocHost failed because value 0 for parameter size is invalid. Expected value: must be "
        "greater than 0.\n" + GET_DEV_MSG_LINES
    )
    aclFinalize()


def test_frees_need_no_context():
    assert aclInit(None) == 0 and aclrtSetDevice(0) == 0
    p, h = Ref(), Ref()
    assert aclrtMalloc(p, 16, 0) == 0 and aclrtMallocHost(h, 16) == 0
    codes = []
    t = threading.Thread(target=lambda: codes.extend([aclrtFree(p.value), aclrtFreeHost(h.value)]))
    t.start()
    t.join()  # a thread with no current context
    assert codes == [0, 0]
    assert _errmsg.peek() == []
    assert aclrtResetDevice(0) == 0 and aclFinalize() == 0


def test_malloc_accepts_ctypes_holders(ctx):
    holder = ctypes.c_void_p()
    assert aclrtMalloc(ctypes.byref(holder), 16, 0) == 0
    assert holder.value is not None
    assert aclrtFree(holder.value) == 0
    h2 = ctypes.c_void_p()
    assert aclrtMalloc(h2, 16, 0) == 0
    assert aclrtFree(h2) == 0  # a c_void_p is a pointer argument too


def test_fresh_memory_is_not_zeroed(ctx, findings):
    p = _alloc(16)
    host = np.zeros(16, np.uint8)
    assert aclrtMemcpy(host, 16, p, 16, ACL_MEMCPY_DEVICE_TO_HOST) == 0
    assert findings.refresh().checks() == ["initcheck"]
    assert "was never written" in aclGetRecentErrMsg()
    assert (host == 0xFF).all()
    f = host[:4].view(np.float32)
    assert np.isnan(f).all()
    aclrtFree(p)


def test_capacity_and_meminfo(ctx):
    free, total = Ref(), Ref()
    assert aclrtGetMemInfo(ACL_HBM_MEM, free, total) == 0
    assert total.value == 32 * 1024**3 and free.value == total.value
    p = _alloc(1000)
    assert aclrtGetMemInfo(ACL_HBM_MEM, free, total) == 0
    assert total.value - free.value == 1056
    assert aclrtGetMemInfo(ACL_DDR_MEM, free, total) == 0  # an Ascend910B device has HBM only
    assert (free.value, total.value) == (0, 0)
    aclrtFree(p)
    assert aclrtMalloc(Ref(), 33 * 1024**3, 0) == ACL_ERROR_RT_MEMORY_ALLOCATION
    assert aclGetRecentErrMsg() == emulator(
        "aclrtMalloc: 35433480224 bytes requested on device 0, 34359738368 of 34359738368 bytes free "
        "(ACLNN_PY_DEVICE_MEMORY sets the simulated capacity)."
    )


@pytest.mark.parametrize("attr", [18, -1, 99])
def test_meminfo_attr_out_of_range_is_107016_before_the_context(attr):
    assert aclrtGetMemInfo(attr, Ref(), Ref()) == ACL_ERROR_RT_INVALID_MEMORY_TYPE
    assert aclGetRecentErrMsg() == (
        "Invalid_Argument(EE1003): Obtaining the memory information of the current device failed because value "
        f"UNKNOWN({attr}) for parameter memInfoType is invalid. Expected value: [0, 17].\n"
        + RANGE_SOLUTION
        + TRACEBACK
        + f"{INDENT}rtMemGetInfoEx execution failed, reason=invalid memory type{FUNC_ERROR_REASON}\n"
        + GET_DEV_MSG_LINES
    )


def test_meminfo_null_out_params_and_no_context():
    assert aclrtGetMemInfo(ACL_HBM_MEM, None, Ref()) == ACL_ERROR_INVALID_PARAM
    assert aclrtGetMemInfo(99, Ref(), None) == ACL_ERROR_INVALID_PARAM  # the ACL checks come first
    assert aclrtGetMemInfo(ACL_HBM_MEM, Ref(), Ref()) == ACL_ERROR_RT_CONTEXT_NULL
    assert aclGetRecentErrMsg() == (
        null("aclrtGetMemInfo", "free")
        + TRACEBACK
        + f"{INDENT}aclrtGetMemInfo failed because total cannot be a NULL pointer.\n"
        + f"{INDENT}Check param failed, curCtx can not be null.[FUNC:MemGetInfoEx][FILE:api_impl.cc][LINE:3297]\n"
        + f"{INDENT}The argument is invalid. Reason: rtMemGetInfoEx execution failed, the context is a null pointer.\n"
        + GET_DEV_MSG_LINES
    )


def test_capacity_is_configurable(monkeypatch):
    monkeypatch.setenv("ACLNN_PY_DEVICE_MEMORY", "1M")
    assert aclInit(None) == 0 and aclrtSetDevice(0) == 0
    p = _alloc(512 * 1024)
    assert aclrtMalloc(Ref(), 600 * 1024, 0) == ACL_ERROR_RT_MEMORY_ALLOCATION
    aclGetRecentErrMsg()
    aclrtFree(p)
    aclrtResetDevice(0)
    aclFinalize()


def test_free_errors_name_the_mistake(ctx):
    assert aclrtFree(None) == ACL_ERROR_INVALID_PARAM
    assert aclrtFree(0) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg() == null("aclrtFree", "devPtr")  # the same report is kept once
    p = _alloc(64)
    assert aclrtFree(p + 8) == ACL_ERROR_RT_PARAM_INVALID
    assert _site(aclGetRecentErrMsg()) == emulator(
        f"aclrtFree: 0x{p + 8:x} is 8 bytes into device allocation [0x{p:x}, 0x{p + 96:x}) (96 bytes, 64 requested) "
        "made by aclrtMalloc at test_memory.py:N; only the start address an allocation returned can be freed; pass "
        "a pointer that aclrtMalloc returned, and free it once."
    )
    assert aclrtFree(p) == 0
    assert aclrtFree(p) == ACL_ERROR_RT_PARAM_INVALID
    assert _site(aclGetRecentErrMsg()) == emulator(
        f"aclrtFree: double free of 0x{p:x}: device allocation [0x{p:x}, 0x{p + 96:x}) (96 bytes, 64 requested) "
        "made by aclrtMalloc at test_memory.py:N, freed by aclrtFree at test_memory.py:N; pass a pointer that "
        "aclrtMalloc returned, and free it once."
    )
    assert aclrtFree(0x1234) == ACL_ERROR_RT_PARAM_INVALID
    assert aclGetRecentErrMsg() == emulator(
        "aclrtFree: 0x1234 was not returned by an allocation function; pass a pointer that aclrtMalloc returned, and "
        "free it once."
    )
    arr = np.zeros((2, 3), np.float32)
    assert aclrtFree(arr) == ACL_ERROR_INVALID_PARAM  # described, never printed
    assert aclGetRecentErrMsg() == emulator(
        "aclrtFree: devPtr must be a pointer (the int aclrtMalloc returned), got numpy.ndarray(shape=(2, 3), "
        "dtype=float32)."
    )


def test_host_and_device_frees_do_not_mix(ctx):
    h = Ref()
    assert aclrtMallocHost(h, 100) == 0
    assert aclrtFree(h.value) == ACL_ERROR_RT_PARAM_INVALID
    assert _site(aclGetRecentErrMsg()) == emulator(
        f"aclrtFree: 0x{h.value:x} is pinned host memory (host allocation [0x{h.value:x}, 0x{h.value + 128:x}) "
        "(128 bytes, 100 requested) made by aclrtMallocHost at test_memory.py:N); free it with aclrtFreeHost."
    )
    d = _alloc(10)
    assert aclrtFreeHost(d) == ACL_ERROR_RT_PARAM_INVALID
    assert aclrtFreeHost(d + 8) == ACL_ERROR_RT_PARAM_INVALID  # any device address
    assert aclGetRecentErrMsg() == (
        "Invalid_Argument(EE1011): Host memory release failed. Value MEMORY_LOC_DEVICE(1) for parameter hostPtr "
        "locationType is invalid. Reason: The specified address must be a host address.\n"
        + RANGE_SOLUTION
        + TRACEBACK
        + f"{INDENT}The argument is invalid. Reason: rtFreeHost execution failed.\n"
    )
    assert aclrtFreeHost(None) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg() == null("aclrtFreeHost", "hostPtr")
    assert aclrtFreeHost(h.value) == 0
    assert aclrtFree(d) == 0


def test_memcpy_check_order(ctx):
    p = _alloc(16)
    buf = np.zeros(4, np.float32)
    # 1. count == 0 returns at once, even with null pointers and a bad kind
    assert aclrtMemcpy(None, 0, None, 0, 99) == 0
    # 2. null dst, then null src
    assert aclrtMemcpy(None, 16, None, 16, 1) == ACL_ERROR_INVALID_PARAM
    assert aclrtMemcpy(p, 16, None, 16, 1) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg() == (
        null("aclrtMemcpy", "dst") + TRACEBACK + f"{INDENT}aclrtMemcpy failed because src cannot be a NULL pointer.\n"
    )
    # 3. kind outside 0..5 (6 and 7 too)
    assert aclrtMemcpy(p, 16, buf, 16, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg() == (
        "Invalid_Argument(EH0007): Memory copy type conversion failed because value MEMCPY_INNER_DEVICE_TO_DEVICE(6) "
        f"for parameter kind is invalid. Expected value: {KIND_EXPECT}\n" + RANGE_SOLUTION
    )
    assert aclrtMemcpy(p, 0, buf, 16, -1) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg() == (
        "Invalid_Argument(EH0007): Memory copy type conversion failed because value UNKNOWN(-1) for parameter kind "
        f"is invalid. Expected value: {KIND_EXPECT}\n" + RANGE_SOLUTION
    )
    # 4. destMax 0, count > destMax (the runtime's texts)
    assert aclrtMemcpy(p, 0, buf, 16, 1) == ACL_ERROR_RT_PARAM_INVALID
    assert aclGetRecentErrMsg() == rt_invalid(
        "Synchronous memory copy failed because value 0 for parameter destMax is invalid. Expected value: not equal "
        "to 0.",
        "rtMemcpy",
    )
    assert aclrtMemcpy(p, 8, buf, 16, 1) == ACL_ERROR_RT_PARAM_INVALID
    assert aclGetRecentErrMsg() == rt_invalid(
        "Synchronous memory copy failed because value 16 for parameter cnt is invalid. Expected value: (0, 8].",
        "rtMemcpy",
    )
    # 5. dst == src: nothing to do
    assert aclrtMemcpy(p, 16, p, 16, ACL_MEMCPY_DEVICE_TO_DEVICE) == 0
    aclrtFree(p)


def test_memcpy_dst_equal_src_wins_over_missing_context():
    assert aclInit(None) == 0
    assert aclrtMemcpy(0x1000, 4, 0x1000, 4, 3) == 0
    assert aclrtMemcpy(bytearray(4), 4, b"abcd", 4, ACL_MEMCPY_HOST_TO_HOST) == ACL_ERROR_RT_CONTEXT_NULL
    assert aclGetRecentErrMsg() == no_context_unbound("rtMemcpy")
    aclFinalize()


def test_memcpy_round_trip_and_buffer_kinds(ctx):
    p = _alloc(16)
    assert aclrtMemcpy(p, 16, b"0123456789abcdef", 16, ACL_MEMCPY_HOST_TO_DEVICE) == 0
    out = bytearray(16)
    assert aclrtMemcpy(out, 16, p, 16, ACL_MEMCPY_DEVICE_TO_HOST) == 0
    assert bytes(out) == b"0123456789abcdef"
    arr = array.array("f", [0.0] * 4)
    assert aclrtMemcpy(arr, 16, p, 16, ACL_MEMCPY_DEFAULT) == 0
    assert arr.tobytes() == b"0123456789abcdef"
    # pointer arithmetic works as in C
    q = _alloc(8)
    assert aclrtMemcpy(q, 8, p + 8, 8, ACL_MEMCPY_DEVICE_TO_DEVICE) == 0
    small = bytearray(8)
    assert aclrtMemcpy(small, 8, q, 8, ACL_MEMCPY_DEVICE_TO_HOST) == 0
    assert bytes(small) == b"89abcdef"
    h2h = bytearray(4)
    assert aclrtMemcpy(h2h, 4, b"wxyz", 4, ACL_MEMCPY_HOST_TO_HOST) == 0 and h2h == b"wxyz"
    aclrtFree(p)
    aclrtFree(q)


def test_memcpy_with_pinned_host_memory(ctx):
    h = Ref()
    assert aclrtMallocHost(h, 16) == 0
    p = _alloc(16)
    assert aclrtMemcpy(h.value, 16, b"pinnedhostmemory", 16, ACL_MEMCPY_HOST_TO_HOST) == 0
    assert aclrtMemcpy(p, 16, h.value, 16, ACL_MEMCPY_HOST_TO_DEVICE) == 0
    out = bytearray(16)
    assert aclrtMemcpy(out, 16, p, 16, ACL_MEMCPY_DEVICE_TO_HOST) == 0 and out == b"pinnedhostmemory"
    aclrtFree(p)
    aclrtFreeHost(h.value)


def test_memcpy_kind_must_match_the_addresses(ctx):
    p = _alloc(16)
    buf = np.zeros(4, np.float32)
    assert aclrtMemcpy(buf, 16, p, 16, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_ERROR_RT_PARAM_INVALID
    assert aclGetRecentErrMsg() == emulator(
        "aclrtMemcpy: kind ACL_MEMCPY_HOST_TO_DEVICE does not match the addresses: dst is host memory (a numpy "
        "array) and src is device memory. Pass ACL_MEMCPY_DEVICE_TO_HOST, or ACL_MEMCPY_DEFAULT to let the addresses "
        "decide."
    )
    h = Ref()
    assert aclrtMallocHost(h, 16) == 0
    assert aclrtMemcpy(p, 16, h.value, 16, ACL_MEMCPY_DEVICE_TO_DEVICE) == ACL_ERROR_RT_PARAM_INVALID
    assert aclGetRecentErrMsg() == emulator(
        "aclrtMemcpy: kind ACL_MEMCPY_DEVICE_TO_DEVICE does not match the addresses: dst is device memory and src is "
        "pinned host memory (aclrtMallocHost). Pass ACL_MEMCPY_HOST_TO_DEVICE, or ACL_MEMCPY_DEFAULT to let the "
        "addresses decide."
    )
    aclrtFreeHost(h.value)
    aclrtFree(p)


def test_a_raw_host_address_is_not_device_memory(ctx):
    p = _alloc(16)
    assert aclrtMemset(p, 16, 0, 16) == 0
    host = np.zeros(4, np.float32)
    addr = host.ctypes.data  # what v.data() translates to: not memory the emulator knows
    for args in ((addr, 16, p, 16, ACL_MEMCPY_DEVICE_TO_HOST), (p, 16, addr, 16, ACL_MEMCPY_HOST_TO_DEVICE)):
        assert aclrtMemcpy(*args) == ACL_ERROR_RT_PARAM_INVALID
        name = "dst" if args[0] == addr else "src"
        assert aclGetRecentErrMsg() == emulator(
            f"aclrtMemcpy: {name} 0x{addr:x} is an address aclnn_py does not know: it is neither simulated device "
            "memory (aclrtMalloc) nor pinned host memory (aclrtMallocHost). Pass a host buffer as the array (or "
            "bytearray) itself, not its address (such as numpy's .ctypes.data)."
        )
    assert aclrtMemset(addr, 16, 0, 16) == ACL_ERROR_RT_PARAM_INVALID
    assert aclGetRecentErrMsg() == emulator(
        f"aclrtMemset: devPtr 0x{addr:x} is an address aclnn_py does not know: it is neither simulated device memory "
        "(aclrtMalloc) nor pinned host memory (aclrtMallocHost). Pass a pointer from aclrtMalloc."
    )
    assert aclrtMemcpy(host, 16, p, 16, ACL_MEMCPY_DEVICE_TO_HOST) == 0  # the array itself
    aclrtFree(p)


def test_memcpy_bounds_are_checked_never_silent(ctx):
    p = _alloc(16)  # 64 bytes reserved
    big = np.zeros(100, np.uint8)
    assert aclrtMemcpy(p, 100, big, 100, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_ERROR_RT_PARAM_INVALID
    assert _site(aclGetRecentErrMsg()) == emulator(
        f"aclrtMemcpy: write of 100 bytes at 0x{p:x} runs 36 bytes past the end of device allocation [0x{p:x}, "
        f"0x{p + 64:x}) (64 bytes, 16 requested) made by aclrtMalloc at test_memory.py:N; keep count within the "
        "allocation."
    )
    small = np.zeros(4, np.uint8)
    assert aclrtMemcpy(small, 16, p, 16, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_ERROR_RT_PARAM_INVALID
    assert aclGetRecentErrMsg() == emulator(
        "aclrtMemcpy: writing 16 bytes with a host buffer of 4 bytes; pass a host buffer of at least count bytes, or "
        "a smaller count."
    )
    assert aclrtMemcpy(p, 16, b"\x00" * 8, 16, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_ERROR_RT_PARAM_INVALID
    aclGetRecentErrMsg()
    assert aclrtMemcpy(p, 16, bytes(16), 16, ACL_MEMCPY_HOST_TO_DEVICE) == 0
    aclrtFree(p)
    out = bytearray(16)
    assert aclrtMemcpy(out, 16, p, 16, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_ERROR_RT_PARAM_INVALID
    assert _site(aclGetRecentErrMsg()) == emulator(
        f"aclrtMemcpy: read of 16 bytes at 0x{p:x} touches freed memory: device allocation [0x{p:x}, 0x{p + 64:x}) "
        "(64 bytes, 16 requested) made by aclrtMalloc at test_memory.py:N, freed by aclrtFree at test_memory.py:N; "
        "the memory was freed: use a live allocation."
    )
    unmapped = p + (1 << 30)  # inside the device region, outside every allocation
    assert aclrtMemcpy(out, 16, unmapped, 16, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_ERROR_RT_PARAM_INVALID
    assert aclGetRecentErrMsg() == emulator(
        f"aclrtMemcpy: read of 16 bytes at 0x{unmapped:x} is not inside any allocation; pass an address inside a "
        "live allocation."
    )


def test_memcpy_refuses_unusable_host_buffers(ctx):
    p = _alloc(16)
    strided = np.zeros(8, np.float32)[::2]
    assert aclrtMemcpy(strided, 16, p, 16, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg() == emulator(
        "aclrtMemcpy: dst is a non-contiguous numpy.ndarray(shape=(4,), dtype=float32); host memory must be one "
        "contiguous block (pass np.ascontiguousarray(...))."
    )
    assert aclrtMemcpy(b"x" * 16, 16, p, 16, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg() == emulator(
        "aclrtMemcpy: dst is a read-only bytes; the destination must be writable (a bytearray or a numpy array)."
    )
    assert aclrtMemcpy("text", 16, p, 16, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg() == emulator(
        "aclrtMemcpy: dst is 'text'; pass a pointer (an int from aclrtMalloc or aclrtMallocHost) or a host buffer (a "
        "numpy array, bytearray, or bytes as a source)."
    )
    aclrtFree(p)


def test_memset(ctx):
    p = _alloc(16)
    assert aclrtMemset(None, 16, 0, 0) == 0
    assert aclrtMemset(None, 16, 0, 4) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg() == null("aclrtMemset", "devPtr")
    assert aclrtMemset(p, 4, 0, 8) == ACL_ERROR_RT_PARAM_INVALID  # CANN leaves it to the driver
    assert aclGetRecentErrMsg() == emulator("aclrtMemset: count 8 is larger than maxCount 4; pass count <= maxCount.")
    assert aclrtMemset(p, 16, 0x1234, 16) == 0  # only the low byte counts
    out = bytearray(16)
    assert aclrtMemcpy(out, 16, p, 16, ACL_MEMCPY_DEVICE_TO_HOST) == 0
    assert out == b"\x34" * 16
    assert aclrtMemset(p, 200, 0, 200) == ACL_ERROR_RT_PARAM_INVALID
    assert "past the end" in aclGetRecentErrMsg()
    aclrtFree(p)


def test_memset_needs_a_context_before_the_emulator_checks():
    assert aclInit(None) == 0
    assert aclrtMemset(0x1234, 4, 0, 8) == ACL_ERROR_RT_CONTEXT_NULL
    assert aclGetRecentErrMsg() == no_context_unbound("rtMemset")
    aclFinalize()


def test_reset_device_frees_its_memory(ctx, findings):
    p = _alloc(64)
    assert aclrtResetDevice(0) == 0
    assert "never aclrtFree'd" in findings.refresh().text()
    assert aclrtSetDevice(0) == 0
    assert aclrtFree(p) == ACL_ERROR_RT_PARAM_INVALID
    assert "freed by aclrtResetDevice" in aclGetRecentErrMsg()


def test_a_leak_made_in_the_programs_main_names_that_line_not_the_call_of_main(tmp_path):
    """A port's main() is called from the script: it is the program, not a helper, so the leak
    report names the line in main alone (a helper called from main adds 'through <helper>')."""
    import subprocess
    import sys

    prog = tmp_path / "prog.py"
    prog.write_text(
        "from aclnn_py import *\n"
        "def helper():\n"
        "    p = Ref()\n"
        "    aclrtMalloc(p, 8, ACL_MEM_MALLOC_HUGE_FIRST)\n"
        "def main():\n"
        "    aclInit(None); aclrtSetDevice(0)\n"
        "    p = Ref()\n"
        "    aclrtMalloc(p, 8, ACL_MEM_MALLOC_HUGE_FIRST)\n"
        "    helper()\n"
        "    aclrtResetDevice(0); aclFinalize()\n"
        "main()\n",
        encoding="utf-8",
    )
    env = {k: v for k, v in __import__("os").environ.items() if not k.startswith("ACLNN_PY_")}
    done = subprocess.run([sys.executable, str(prog)], capture_output=True, text=True, env=env, timeout=120)
    assert "made by aclrtMalloc at prog.py:8 (never aclrtFree'd)" in done.stderr, done.stderr
    assert "made by aclrtMalloc at prog.py:4, from prog.py:9 (through helper at prog.py:4)" in done.stderr
    assert "through main" not in done.stderr


def test_pinned_host_memory_is_one_pool_for_malloc_host_and_mbufs(ctx):
    """aclrtMallocHost and aclrtAllocBuf take pinned memory from one simulated pool (the
    device capacity): past it each is refused with 107002 and a note of the free bytes
    (aclrtMallocHost's 1000 bytes take 1024: the runtime rounds them up to 32)."""
    total = DEFAULT_DEVICE_MEMORY  # conftest clears ACLNN_PY_DEVICE_MEMORY
    p, buf = Ref(), Ref()
    assert aclrtMallocHost(p, 1000) == 0
    assert aclrtAllocBuf(Ref(), total) == ACL_ERROR_RT_MEMORY_ALLOCATION
    assert aclGetRecentErrMsg() == emulator(
        f"aclrtAllocBuf: {total} bytes requested, {total - 1024} of {total} bytes available "
        "(ACLNN_PY_DEVICE_MEMORY sets the simulated capacity)."
    )
    assert aclrtAllocBuf(buf, 24) == 0
    assert aclrtMallocHost(Ref(), total - 1000) == ACL_ERROR_RT_MEMORY_ALLOCATION
    assert aclGetRecentErrMsg() == emulator(
        f"aclrtMallocHost: {total - 1000} bytes of pinned memory requested, {total - 1048} of {total} bytes "
        "available (ACLNN_PY_DEVICE_MEMORY sets the simulated capacity)."
    )
    assert aclrtFreeBuf(buf.value) == 0
    assert aclrtFreeHost(p.value) == 0
