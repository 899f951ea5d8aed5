"""Device memory: aclrtMalloc sizing, poison, capacity, checked access, frees, memcpy/memset."""

from __future__ import annotations

import array
import ctypes

import numpy as np
import pytest

from aclnn_py import (
    ACL_ERROR_INVALID_PARAM,
    ACL_ERROR_RT_CONTEXT_NULL,
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
    aclFinalize,
    aclGetRecentErrMsg,
    aclInit,
    aclrtFree,
    aclrtFreeHost,
    aclrtGetMemInfo,
    aclrtMalloc,
    aclrtMallocAlign32,
    aclrtMallocHost,
    aclrtMemcpy,
    aclrtMemset,
    aclrtResetDevice,
    aclrtSetDevice,
)  # fmt: skip
from aclnn_py.runtime.memory import SPACE


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
    assert "devPtr" in aclGetRecentErrMsg()
    assert aclrtMalloc(Ref(), 0, 0) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg() == "Invalid_Argument(EH0001): Value 0 for size is invalid. Reason: must be greater than 0.\n"
    assert aclrtMalloc(Ref(), -5, 0) == ACL_ERROR_INVALID_PARAM
    assert aclrtMalloc(Ref(), 2**64, 0) == ACL_ERROR_INVALID_PARAM
    assert aclrtMalloc(Ref(), 2**64 - 1, 0) == ACL_ERROR_INVALID_PARAM  # padding overflows
    aclGetRecentErrMsg()


def test_malloc_needs_a_context():
    assert aclInit(None) == 0
    assert aclrtMalloc(Ref(), 16, 0) == ACL_ERROR_RT_CONTEXT_NULL
    aclFinalize()


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


def test_capacity_and_meminfo(ctx, monkeypatch):
    free, total = Ref(), Ref()
    assert aclrtGetMemInfo(ACL_HBM_MEM, free, total) == 0
    assert total.value == 32 * 1024**3 and free.value == total.value
    p = _alloc(1000)
    assert aclrtGetMemInfo(ACL_HBM_MEM, free, total) == 0
    assert total.value - free.value == 1056
    assert aclrtGetMemInfo(ACL_HBM_MEM, None, total) == ACL_ERROR_INVALID_PARAM
    assert aclrtGetMemInfo(99, free, total) == 0 and free.value == 0 and total.value == 0
    aclrtFree(p)
    assert aclrtMalloc(Ref(), 33 * 1024**3, 0) == ACL_ERROR_RT_MEMORY_ALLOCATION
    assert "bytes free" in aclGetRecentErrMsg()


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
    aclGetRecentErrMsg()
    p = _alloc(64)
    assert aclrtFree(p + 8) == ACL_ERROR_RT_PARAM_INVALID
    assert "8 bytes into" in aclGetRecentErrMsg()
    assert aclrtFree(p) == 0
    assert aclrtFree(p) == ACL_ERROR_RT_PARAM_INVALID
    msg = aclGetRecentErrMsg()
    assert "double free" in msg and "freed by aclrtFree" in msg and "test_memory.py" in msg
    assert aclrtFree(0x1234) == ACL_ERROR_RT_PARAM_INVALID
    assert "not returned by an allocation function" in aclGetRecentErrMsg()


def test_host_and_device_frees_do_not_mix(ctx):
    h = Ref()
    assert aclrtMallocHost(h, 100) == 0
    assert aclrtFree(h.value) == ACL_ERROR_RT_PARAM_INVALID
    assert "aclrtFreeHost" in aclGetRecentErrMsg()
    d = _alloc(10)
    assert aclrtFreeHost(d) == ACL_ERROR_RT_PARAM_INVALID
    aclGetRecentErrMsg()
    assert aclrtFreeHost(None) == ACL_ERROR_INVALID_PARAM
    assert aclrtMallocHost(None, 10) == ACL_ERROR_INVALID_PARAM
    assert aclrtMallocHost(Ref(), 0) == ACL_ERROR_INVALID_PARAM
    aclGetRecentErrMsg()
    assert aclrtFreeHost(h.value) == 0
    assert aclrtFree(d) == 0


def test_memcpy_check_order(ctx):
    p = _alloc(16)
    buf = np.zeros(4, np.float32)
    # 1. count == 0 returns at once, even with null pointers and a bad kind
    assert aclrtMemcpy(None, 0, None, 0, 99) == 0
    # 2. null dst, then null src
    assert aclrtMemcpy(None, 16, None, 16, 1) == ACL_ERROR_INVALID_PARAM
    assert "dst" in aclGetRecentErrMsg()
    assert aclrtMemcpy(p, 16, None, 16, 1) == ACL_ERROR_INVALID_PARAM
    assert "src" in aclGetRecentErrMsg()
    # 3. kind outside 0..5
    assert aclrtMemcpy(p, 16, buf, 16, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE) == ACL_ERROR_INVALID_PARAM
    assert aclrtMemcpy(p, 16, buf, 16, -1) == ACL_ERROR_INVALID_PARAM
    aclGetRecentErrMsg()
    # 4. destMax 0, count > destMax
    assert aclrtMemcpy(p, 0, buf, 16, 1) == ACL_ERROR_RT_PARAM_INVALID
    assert aclrtMemcpy(p, 8, buf, 16, 1) == ACL_ERROR_RT_PARAM_INVALID
    assert "Expected value: (0, 8]" in aclGetRecentErrMsg()
    # 5. dst == src: nothing to do
    assert aclrtMemcpy(p, 16, p, 16, ACL_MEMCPY_DEVICE_TO_DEVICE) == 0
    aclrtFree(p)


def test_memcpy_dst_equal_src_wins_over_missing_context():
    assert aclInit(None) == 0
    assert aclrtMemcpy(0x1000, 4, 0x1000, 4, 3) == 0
    assert aclrtMemcpy(bytearray(4), 4, b"abcd", 4, 0) == ACL_ERROR_RT_CONTEXT_NULL
    aclGetRecentErrMsg()
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
    assert "dst is host memory, src is device memory" in aclGetRecentErrMsg()
    aclrtFree(p)


def test_memcpy_bounds_are_checked_never_silent(ctx):
    p = _alloc(16)  # 64 bytes reserved
    big = np.zeros(100, np.uint8)
    assert aclrtMemcpy(p, 100, big, 100, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_ERROR_RT_PARAM_INVALID
    assert "past the end" in aclGetRecentErrMsg()
    small = np.zeros(4, np.uint8)
    assert aclrtMemcpy(small, 16, p, 16, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_ERROR_RT_PARAM_INVALID
    assert "a host buffer of 4 bytes" in aclGetRecentErrMsg()
    assert aclrtMemcpy(p, 16, b"\x00" * 8, 16, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_ERROR_RT_PARAM_INVALID
    aclGetRecentErrMsg()
    assert aclrtMemcpy(p, 16, bytes(16), 16, ACL_MEMCPY_HOST_TO_DEVICE) == 0
    aclrtFree(p)
    out = bytearray(16)
    assert aclrtMemcpy(out, 16, p, 16, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_ERROR_RT_PARAM_INVALID
    assert "freed memory" in aclGetRecentErrMsg()
    assert aclrtMemcpy(out, 16, 0x5000_0000, 16, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_ERROR_RT_PARAM_INVALID
    assert "not inside any allocation" in aclGetRecentErrMsg()


def test_memcpy_refuses_unusable_host_buffers(ctx):
    p = _alloc(16)
    strided = np.zeros(8, np.float32)[::2]
    assert aclrtMemcpy(strided, 16, p, 16, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_ERROR_INVALID_PARAM
    assert "contiguous" in aclGetRecentErrMsg()
    assert aclrtMemcpy(b"x" * 16, 16, p, 16, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_ERROR_INVALID_PARAM
    assert "writable" in aclGetRecentErrMsg()
    assert aclrtMemcpy("text", 16, p, 16, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_ERROR_INVALID_PARAM
    aclGetRecentErrMsg()
    aclrtFree(p)


def test_memset(ctx):
    p = _alloc(16)
    assert aclrtMemset(None, 16, 0, 0) == 0
    assert aclrtMemset(None, 16, 0, 4) == ACL_ERROR_INVALID_PARAM
    assert aclrtMemset(p, 4, 0, 8) == ACL_ERROR_RT_PARAM_INVALID
    aclGetRecentErrMsg()
    assert aclrtMemset(p, 16, 0x1234, 16) == 0  # only the low byte counts
    out = bytearray(16)
    assert aclrtMemcpy(out, 16, p, 16, ACL_MEMCPY_DEVICE_TO_HOST) == 0
    assert out == b"\x34" * 16
    assert aclrtMemset(p, 200, 0, 200) == ACL_ERROR_RT_PARAM_INVALID
    assert "past the end" in aclGetRecentErrMsg()
    aclrtFree(p)


def test_reset_device_frees_its_memory(ctx, findings):
    p = _alloc(64)
    assert aclrtResetDevice(0) == 0
    assert "never aclrtFree'd" in findings.refresh().text()
    assert aclrtSetDevice(0) == 0
    assert aclrtFree(p) == ACL_ERROR_RT_PARAM_INVALID
    assert "freed by aclrtResetDevice" in aclGetRecentErrMsg()
