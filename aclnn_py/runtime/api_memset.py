"""Fills of the memory chapter of ``acl_rt.h``: the byte fills aclrtMemset(Async) and the 32-bit
fills aclrtMemsetD32(Async) (acl_rt.h:2332-2363), with the emulator's protection of its simulated
memory (api_memcpy's checks of an address).
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from .._capi import UINT64_MAX, ApiError, as_pointer, describe
from . import sanitizer
from ._checks import (
    PARAM,
    RT_PARAM,
    E,
    acl_inner,
    acl_null,
    acl_reason,
    check_stopped,
    emu,
    fb_invalid,
    int_arg,
    need_context,
    own_stream,
    rt_api,
    rt_value,
    stream_handle,
)
from ._model_ri_checks import check_capture_mode
from .api_memcpy import _BUFFERS, _fault, _host_bytes, _region, _unknown_address
from .device import RT
from .memory import SPACE, MemoryFault
from .stream import Task, TaskFault

# -- byte fills -----------------------------------------------------------------------------------


def _memset_args(
    api: str, devPtr: object, maxCount: object, value: object, count: object
) -> tuple[int, int, int, int] | None:
    n = int_arg(count, "count", 0, UINT64_MAX)
    if n == 0:
        return None
    ptr = as_pointer(devPtr)
    if ptr is None:
        raise ApiError(PARAM, acl_null(api, "devPtr"))
    if ptr < 0:
        raise ApiError(
            PARAM, emu(f"{api}: devPtr is {describe(devPtr)}; pass a device pointer (an int from aclrtMalloc).")
        )
    mx = int_arg(maxCount, "maxCount", 0, UINT64_MAX)
    v = int_arg(value, "value", -(2**31), 2**31 - 1)
    return ptr, mx, v, n


def _memset_target(api: str, ptr: int, n: int) -> None:
    """The emulator's checks of the fill's range (CANN leaves them to the driver)."""
    if SPACE.find(ptr) is None and _region(ptr) == "unknown":
        raise _unknown_address(api, "devPtr", ptr, "Pass a pointer from aclrtMalloc.")
    try:
        SPACE.check(ptr, n, "write", api)
    except MemoryFault as fault:
        raise _fault(api, fault) from None


@rt_api
def aclrtMemset(devPtr: object, maxCount: int, value: int, count: int) -> int:
    """Synchronous byte fill (only the low 8 bits of value count)."""
    api = "aclrtMemset"
    args = _memset_args(api, devPtr, maxCount, value, count)
    if args is None:
        return E.ACL_SUCCESS
    ptr, mx, v, n = args
    need_context("rtMemset")
    check_capture_mode("Memory setting synchronization")
    if n > mx:  # CANN has no such check before the driver
        raise ApiError(RT_PARAM, emu(f"{api}: count {n} is larger than maxCount {mx}; pass count <= maxCount."))
    _memset_target(api, ptr, n)
    SPACE.fill(ptr, n, v, api)
    sanitizer.after_write(ptr, n, api)
    return E.ACL_SUCCESS


@rt_api
def aclrtMemsetAsync(devPtr: object, maxCount: int, value: int, count: int, stream: object) -> int:
    """Queue a byte fill on the stream; count > maxCount gives 107000. Host memory (pinned, or a
    host buffer such as a numpy array) is filled at once, before the call returns: the runtime's
    MemSetAsync memsets host and unregistered memory itself (memory_common.cc) and queues nothing."""
    api = "aclrtMemsetAsync"
    pageable = isinstance(devPtr, _BUFFERS)
    args = _memset_args(api, 1 if pageable else devPtr, maxCount, value, count)
    if args is None:
        return E.ACL_SUCCESS
    ptr, mx, v, n = args
    st = stream_handle(stream, "rtMemsetAsync")
    if n > mx:
        raise ApiError(
            RT_PARAM,
            rt_value("Asynchronously setting the memory content to a specified value", n, "cnt", f"(0, {mx}]"),
            fb_invalid("rtMemsetAsync"),
        )
    ctx = need_context("rtMemsetAsync")
    target = st or ctx.default_stream
    own_stream(target, ctx, "Asynchronously setting the memory content to a specified value", "rtMemsetAsync")
    check_stopped(ctx)
    if pageable:
        buf = _host_bytes(api, devPtr, "devPtr", writable=True)
        if n > buf.size:
            raise ApiError(PARAM, emu(f"{api}: count {n} is larger than devPtr's {buf.size} bytes."))
        buf[:n] = v & 0xFF
        return E.ACL_SUCCESS
    _memset_target(api, ptr, n)
    alloc = SPACE.find(ptr)
    if alloc is not None and alloc.kind == "host":  # pinned memory: memset_s now, nothing queued
        # the host writes now: work queued before that still uses the bytes is the host's hazard, as
        # for aclrtMemcpy (a program that meant the fill to be in stream order learns it is not)
        sanitizer.host_access_hazard(SimpleNamespace(ptr=ptr), SimpleNamespace(ptr=None), n, api)
        SPACE.fill(ptr, n, v, api)
        sanitizer.after_write(ptr, n, api)
        return E.ACL_SUCCESS

    def run() -> None:
        try:
            SPACE.fill(ptr, n, v, api)
        except MemoryFault as fault:
            raise TaskFault(E.ACL_ERROR_RT_SYS_DMA, f"aclrtMemsetAsync task failed: {fault.message}") from None
        sanitizer.after_write(ptr, n, api)

    task = Task(target, f"aclrtMemsetAsync({n} bytes)", run)
    sanitizer.track(task, [], [(ptr, ptr + n)])
    RT.policy.submit(target, task)
    return E.ACL_SUCCESS


# -- 32-bit fills (acl_rt.h:2332-2363) --------------------------------------------------------------


def _memset_d32_args(
    api: str, ptr_arg: object, memSize: object, value: object, N: object
) -> tuple[int, int, int] | int | None:
    """aclrtMemsetD32(Async)'s ACL checks: N 0 succeeds at once, a NULL pointer, a pointer not
    4-byte aligned (logged only), N x 4 > memSize, memory not from aclrtMalloc/aclrtMallocHost."""
    n = int_arg(N, "N", 0, UINT64_MAX)
    if n == 0:
        return None
    ptr = as_pointer(ptr_arg)
    if ptr is None:
        raise ApiError(PARAM, acl_null(api, "ptr"))
    if ptr < 0:
        raise ApiError(PARAM, emu(f"{api}: ptr is {describe(ptr_arg)}; pass a pointer (an int from aclrtMalloc)."))
    size = int_arg(memSize, "memSize", 0, UINT64_MAX)
    v = int_arg(value, "value", 0, 2**32 - 1)
    if ptr % 4:
        return PARAM_LOGGED
    if size < n * 4:
        raise ApiError(
            PARAM,
            acl_reason(
                api,
                n,
                "N",
                f"N \u00d7 4 ({n * 4}) is greater than memSize ({size}), which does not meet the requirement",
            ),
        )
    alloc = SPACE.find(ptr)
    if alloc is None:
        raise ApiError(PARAM, acl_inner("Only memory allocated by aclrtMalloc or aclrtMallocHost is supported."))
    return ptr, v, n


PARAM_LOGGED = -1  # a check CANN only logs: 100000 without a report


def _fill_words(api: str, ptr: int, value: int, n: int) -> None:
    SPACE.write(ptr, np.full(n, value, dtype="<u4").view(np.uint8), api)
    sanitizer.after_write(ptr, n * 4, api)


@rt_api
def aclrtMemsetD32(ptr: object, memSize: int, value: int, N: int) -> int:
    """Fill ``N`` 32-bit words at ``ptr`` with ``value`` (device or pinned host memory)."""
    api = "aclrtMemsetD32"
    args = _memset_d32_args(api, ptr, memSize, value, N)
    if args is None:
        return E.ACL_SUCCESS
    if isinstance(args, int):  # a check CANN only logs
        return PARAM
    p, v, n = args
    need_context("rtMemsetD32")
    try:
        SPACE.check(p, n * 4, "write", api)
        _fill_words(api, p, v, n)
    except MemoryFault as fault:
        raise _fault(api, fault) from None
    return E.ACL_SUCCESS


@rt_api
def aclrtMemsetD32Async(ptr: object, memSize: int, value: int, N: int, stream: object) -> int:
    """Queue a fill of ``N`` 32-bit words on the stream."""
    api, rt_fn = "aclrtMemsetD32Async", "rtMemsetD32Async"
    args = _memset_d32_args(api, ptr, memSize, value, N)
    if args is None:
        return E.ACL_SUCCESS
    if isinstance(args, int):  # a check CANN only logs
        return PARAM
    p, v, n = args
    st = stream_handle(stream, rt_fn)
    ctx = need_context(rt_fn)
    target = st or ctx.default_stream
    own_stream(target, ctx, "Asynchronously setting the memory content to a specified value", rt_fn)
    check_stopped(ctx)
    try:
        SPACE.check(p, n * 4, "write", api)
    except MemoryFault as fault:
        raise _fault(api, fault) from None

    def run() -> None:
        try:
            _fill_words(api, p, v, n)
        except MemoryFault as fault:
            raise TaskFault(E.ACL_ERROR_RT_SYS_DMA, f"{api} task failed: {fault.message}") from None

    task = Task(target, f"{api}({n} words)", run)
    sanitizer.track(task, [], [(p, p + n * 4)])
    RT.policy.submit(target, task)
    return E.ACL_SUCCESS


__all__ = [
    "aclrtMemset",
    "aclrtMemsetAsync",
    "aclrtMemsetD32",
    "aclrtMemsetD32Async",
]
