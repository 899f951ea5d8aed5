"""The rest of ``acl_rt.h``'s memory chapter: frees that wait for the device, memory type and usage
queries, cache maintenance (flush, invalidate, aclrtCmoAsync: no cache exists in the simulated
memory, so they only check), aclrtMallocForTaskScheduler, aclrtMemP2PMap, and managed (unified)
memory, which the emulator refuses: its device memory is not reachable by a C program's own loads
and stores, which is what managed memory is for.
"""

from __future__ import annotations

import ctypes

from .. import soc as _soc
from .._capi import UINT64_MAX, ApiError, as_pointer, describe
from .._ref import Ref, store
from . import sanitizer
from ._checks import (
    PARAM,
    RT_PARAM,
    E,
    acl_null,
    acl_reason,
    acl_value,
    drain,
    emu,
    fb_invalid,
    int_arg,
    need_context,
    out_arg,
    own_stream,
    rt_api,
    rt_value,
    stream_handle,
)
from ._structs import aclrtMemUsageInfo, array_in, struct_out, write_usage
from .api_memory import _device_malloc, free_memory, peak_used
from .api_stream import check_stopped
from .device import RT, Device
from .memory import SPACE, MappedAllocation, MemoryFault


def _sync_device(dev: Device) -> None:
    """Wait for every stream of the device (``rtFreeWithDevSync`` waits before it frees)."""
    for ctx in ([dev.primary] if dev.primary else []) + dev.contexts:
        for st in ctx.all_streams():
            if not st.destroyed:
                drain(st)
                sanitizer.ordered(st)  # the host saw the device finish: its work is ordered first


@rt_api
def aclrtFreeWithDevSync(devPtr: object) -> int:
    """aclrtFree after the memory's device finished its queued work."""
    api = "aclrtFreeWithDevSync"
    p = as_pointer(devPtr)
    if p is None:
        raise ApiError(PARAM, acl_null(api, "devPtr"))
    alloc = SPACE.find(p) if p > 0 else None
    if alloc is not None and alloc.kind == "device" and alloc.device in RT.devices:
        _sync_device(RT.devices[alloc.device])
    return free_memory(devPtr, "devPtr", "device", api)


@rt_api
def aclrtFreeHostWithDevSync(hostPtr: object) -> int:
    """aclrtFreeHost after the current device finished its queued work."""
    api = "aclrtFreeHostWithDevSync"
    if as_pointer(hostPtr) is None:
        raise ApiError(PARAM, acl_null(api, "hostPtr"))
    ctx = RT.thread_context()
    if ctx is not None:
        _sync_device(ctx.device)
    return free_memory(hostPtr, "hostPtr", "host", api)


_CHECK_TYPE = "Device memory type check"
_DEV, _DVPP, _RSVD = 0x2, 0x8, 0x20  # RT_MEM_MASK_DEV_TYPE, _DVPP_TYPE, _RSVD_TYPE


def _mem_type(p: int) -> int:
    """The runtime's memory type bit of an address (0: none of them)."""
    alloc = SPACE.find(p)
    if alloc is None:
        return 0
    if isinstance(alloc, MappedAllocation):
        return _RSVD if alloc.alloc_api == "aclrtMapMem" else 0
    if alloc.kind != "device":
        return 0
    return _DVPP if alloc.alloc_api == "acldvppMalloc" else _DEV


@rt_api
def aclrtCheckMemType(addrList: object, size: int, memType: int, checkResult: object, reserve: int) -> int:
    """``checkResult`` 1 if every address of ``addrList`` is memory of one of the types of
    ``memType`` (device memory 0x2, DVPP memory 0x8, reserved-and-mapped memory 0x20), else 0.
    (acl_rt.h's ACL_RT_MEM_TYPE_RSVD is 0x10, which the runtime's own check refuses: as on CANN.)"""
    api, rt_fn = "aclrtCheckMemType", "rtsCheckMemType"
    if addrList is None or (as_pointer(addrList) is None and not isinstance(addrList, (list, tuple))):
        raise ApiError(PARAM, acl_null(api, "addrList"))
    out = out_arg(checkResult, api, "checkResult")
    store(out, 0)
    r = int_arg(reserve, "reserve", 0, 2**32 - 1)
    n = int_arg(size, "size", 0, 2**32 - 1)
    t = int_arg(memType, "memType", 0, 2**32 - 1)
    if r != 0:
        raise ApiError(RT_PARAM, rt_value(_CHECK_TYPE, r, "reserve", "0"), fb_invalid(rt_fn))
    if n == 0:
        raise ApiError(RT_PARAM, rt_value(_CHECK_TYPE, 0, "size", "greater than 0"), fb_invalid(rt_fn))
    if t & ~(_DEV | _RSVD | _DVPP):
        raise ApiError(
            RT_PARAM,
            (
                "EE1006",
                f"{_CHECK_TYPE} failed. Parameter memType value {t} is not supported. Reason: Parameter memType only "
                "supports OR combinations of one or more of RT_MEM_MASK_DEV_TYPE(0x2U), RT_MEM_MASK_RSVD_TYPE(0x20U), "
                "and RT_MEM_MASK_DVPP_TYPE(0x8U).",
            ),
            fb_invalid(rt_fn),
        )
    need_context(rt_fn)
    addrs = array_in(api, "addrList", addrList, n, ctypes.c_uint64, lambda v: as_pointer(v) or 0)
    store(out, int(all(_mem_type(a) & t for a in addrs)))
    return E.ACL_SUCCESS


_USAGE = "Querying the memory usage of a component"


@rt_api
def aclrtGetMemUsageInfo(deviceId: int, memUsageInfo: object, inputNum: int, outputNum: object) -> int:
    """The device memory in use by each component; the emulator has one, the application ("APP"):
    the bytes of its live allocations and the most it has held at once."""
    api, rt_fn = "aclrtGetMemUsageInfo", "rtGetMemUsageInfo"
    if memUsageInfo is None or (as_pointer(memUsageInfo) is None and not isinstance(memUsageInfo, (Ref, list))):
        raise ApiError(PARAM, acl_null(api, "memUsageInfo"))
    out = out_arg(outputNum, api, "outputNum")
    store(out, 0)
    n = int_arg(inputNum, "inputNum", 0, UINT64_MAX)
    if n == 0:
        raise ApiError(RT_PARAM, rt_value(_USAGE, 0, "inputNum", "not equal to 0"), fb_invalid(rt_fn))
    dev_id = int_arg(deviceId, "deviceId", -(2**31), 2**31 - 1)
    if not 0 <= dev_id < RT.device_count:
        raise ApiError(E.ACL_ERROR_RT_INVALID_DEVICEID, emu(f"{api}: deviceId {dev_id} does not exist."))
    need_context(rt_fn)
    dev = RT.device(dev_id)
    infos = [aclrtMemUsageInfo("APP", dev.used, max(peak_used(dev_id), dev.used))][:n]
    if isinstance(memUsageInfo, list):
        memUsageInfo[: len(infos)] = infos
    else:
        struct_out(api, "memUsageInfo", memUsageInfo, infos, write_usage)
    store(out, len(infos))
    return E.ACL_SUCCESS


def _cache_op(api: str, devPtr: object, size: object, rt_fn: str) -> int:
    p = as_pointer(devPtr)
    if p is None:
        raise ApiError(PARAM, acl_null(api, "devPtr"))
    n = int_arg(size, "size", 0, UINT64_MAX)
    if n == 0:
        raise ApiError(PARAM, acl_value(api, 0, "size", "must be greater than 0"))
    need_context(rt_fn)
    try:
        SPACE.check(p, n, "cache maintenance", api) if p > 0 else SPACE.check(0, n, "cache maintenance", api)
    except MemoryFault as fault:
        raise ApiError(RT_PARAM, emu(f"{fault.message}; pass memory of this process.")) from None
    return E.ACL_SUCCESS  # the simulated memory has no cache: nothing to write back or drop


@rt_api
def aclrtMemFlush(devPtr: object, size: int) -> int:
    """Write the cache back to memory (checks only: the simulated memory has no cache)."""
    return _cache_op("aclrtMemFlush", devPtr, size, "rtFlushCache")


@rt_api
def aclrtMemInvalidate(devPtr: object, size: int) -> int:
    """Drop the cached copy of memory (checks only: the simulated memory has no cache)."""
    return _cache_op("aclrtMemInvalidate", devPtr, size, "rtInvalidCache")


@rt_api
def aclrtCmoAsync(src: object, size: int, cmoType: int, stream: object) -> int:
    """Queue a cache maintenance operation (prefetch, write back, invalidate, flush) on the stream:
    the task checks its range when it runs and changes nothing (no cache exists here)."""
    api, rt_fn = "aclrtCmoAsync", "rtCmoAsync"
    p = as_pointer(src)
    if p is None:
        raise ApiError(PARAM, acl_null(api, "src"))
    n = int_arg(size, "size", 0, UINT64_MAX)
    if n == 0:
        raise ApiError(PARAM, acl_value(api, 0, "size", "must be greater than 0"))
    t = int_arg(cmoType, "cmoType", -(2**31), 2**31 - 1)
    if not 0 <= t <= 3:
        raise ApiError(RT_PARAM, emu(f"{api}: cmoType {t} is not an aclrtCmoType (0 to 3)."))
    if _soc.current().family not in ("Ascend910B", "Ascend910_93", "Ascend950"):
        return E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT  # ACL_REQUIRES_RTS_OK_WARN_NOT_SUPPORT: a WARN only
    st = stream_handle(stream, rt_fn)
    ctx = need_context(rt_fn)
    target = st or ctx.default_stream
    own_stream(target, ctx, "Cache memory operation", rt_fn)
    check_stopped(ctx)
    try:
        SPACE.check(p if p > 0 else 0, n, "cache maintenance", api)
    except MemoryFault as fault:
        raise ApiError(RT_PARAM, emu(f"{fault.message}.")) from None
    from .stream import Task

    RT.policy.submit(target, Task(target, f"{api}({n} bytes, type {t})", lambda: None))
    return E.ACL_SUCCESS


@rt_api
def aclrtMallocForTaskScheduler(devPtr: object, size: int, policy: int, cfg: object) -> int:
    """Device memory for the task scheduler (``aclrtMallocInnerWithCfg`` with the TS advice): the
    same rounding and pool as aclrtMallocWithCfg."""
    func = "aclrtMallocInnerWithCfg"
    out_arg(devPtr, func, "devPtr")
    if cfg is not None:
        num = getattr(cfg, "numAttrs", 0)
        if num and getattr(cfg, "attrs", None) is None:
            raise ApiError(
                PARAM,
                acl_reason(func, num, "cfg->numAttrs", "cfg->attrs must not be null when cfg->numAttrs is not 0"),
            )
    return _device_malloc(devPtr, size, policy, func, "aclrtMallocForTaskScheduler", aligned32=True)


@rt_api
def aclrtMemP2PMap(devPtr: object, size: int, dstDevId: int, flags: int) -> int:
    """Make ``[devPtr, devPtr + size)`` reachable from device ``dstDevId`` (every emulated device
    reaches every other's memory already: the call checks and succeeds)."""
    api = "aclrtMemP2PMap"
    p = as_pointer(devPtr)
    if p is None:
        raise ApiError(PARAM, acl_null(api, "devPtr"))
    n = int_arg(size, "size", 0, UINT64_MAX)
    if n == 0:
        raise ApiError(PARAM, acl_value(api, 0, "size", "must be greater than 0"))
    f = int_arg(flags, "flags", 0, UINT64_MAX)
    if f != 0:
        raise ApiError(PARAM, acl_reason(api, f, "flags", "flags is a reserved parameter and must be 0"))
    dev = int_arg(dstDevId, "dstDevId", -(2**31), 2**31 - 1)
    if not 0 <= dev < RT.device_count:
        raise ApiError(E.ACL_ERROR_RT_INVALID_DEVICEID, emu(f"{api}: dstDevId {dev} does not exist."))
    alloc = SPACE.find(p) if p > 0 else None
    if alloc is None or alloc.kind not in ("device", "mapped"):
        raise ApiError(RT_PARAM, emu(f"{api}: devPtr {describe(devPtr)} is not device memory."))
    try:
        SPACE.check(p, n, "map", api)
    except MemoryFault as fault:
        raise ApiError(RT_PARAM, emu(f"{fault.message}.")) from None
    return E.ACL_SUCCESS


# ---------------------------------------------------------------------------------------------
# managed memory: refused
# ---------------------------------------------------------------------------------------------

_NO_MANAGED = (
    "managed (unified) memory is not emulated: the simulated device memory is not reachable by the host "
    "program's own loads and stores, which is what managed memory promises. Use aclrtMalloc and aclrtMemcpy."
)


@rt_api
def aclrtMemAllocManaged(ptr: object, size: int, flag: int) -> int:
    """CANN's checks, then 207000: managed memory is not emulated."""
    api = "aclrtMemAllocManaged"
    out_arg(ptr, api, "ptr")
    f = int_arg(flag, "flag", 0, 2**32 - 1)
    if f != 1:
        raise ApiError(PARAM, acl_value(api, f, "flag", "ACL_RT_MEM_ATTACH_GLOBAL"))
    n = int_arg(size, "size", 0, UINT64_MAX)
    if n == 0:
        raise ApiError(
            RT_PARAM, rt_value("Unified virtual memory (UVM) allocation", 0, "size", "not equal to 0"),
            fb_invalid("rtMemAllocManaged"),
        )  # fmt: skip
    need_context("rtMemAllocManaged")
    raise ApiError(E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, emu(f"{api}: {_NO_MANAGED}"))


def _not_managed(api: str, ptr: object) -> ApiError:
    return ApiError(
        E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
        emu(f"{api}: {describe(ptr)} is not managed memory (aclrtMemAllocManaged gives none: {_NO_MANAGED})"),
    )


def _managed_range(api: str, ptr: object, size: object) -> None:
    """The managed calls' first checks: a NULL ``ptr`` (EH0008), a zero ``size`` (EH0007)."""
    if as_pointer(ptr) is None:
        raise ApiError(PARAM, acl_null(api, "ptr"))
    if int_arg(size, "size", 0, UINT64_MAX) == 0:
        raise ApiError(PARAM, acl_value(api, 0, "size", "must be greater than 0"))


@rt_api
def aclrtMemManagedAdvise(ptr: object, size: int, advise: int, location: object) -> int:
    """CANN's checks, then 207000 (no managed memory exists)."""
    api = "aclrtMemManagedAdvise"
    _managed_range(api, ptr, size)
    raise _not_managed(api, ptr)


@rt_api
def aclrtMemManagedPrefetchAsync(ptr: object, size: int, location: object, flags: int, stream: object) -> int:
    """CANN's checks, then 207000 (no managed memory exists)."""
    api = "aclrtMemManagedPrefetchAsync"
    _managed_range(api, ptr, size)
    raise _not_managed(api, ptr)


@rt_api
def aclrtMemManagedPrefetchBatchAsync(
    ptrs: object, sizes: object, count: int, prefetchLocs: object, prefetchLocIdxs: object, numPrefetchLocs: int,
    flags: int, stream: object,
) -> int:  # fmt: skip
    """CANN's checks, then 207000 (no managed memory exists)."""
    api = "aclrtMemManagedPrefetchBatchAsync"
    for obj, name in (
        (ptrs, "ptrs"),
        (sizes, "sizes"),
        (prefetchLocs, "prefetchLocs"),
        (prefetchLocIdxs, "prefetchLocIdxs"),
    ):
        if obj is None or (as_pointer(obj) is None and not isinstance(obj, (list, tuple))):
            raise ApiError(PARAM, acl_null(api, name))
    if int_arg(count, "count", 0, UINT64_MAX) == 0:
        raise ApiError(PARAM, acl_value(api, 0, "count", "must be greater than 0"))
    raise _not_managed(api, ptrs)


@rt_api
def aclrtMemManagedGetAttr(attribute: int, ptr: object, size: int, data: object, dataSize: int) -> int:
    """CANN's checks, then 207000 (no managed memory exists)."""
    api = "aclrtMemManagedGetAttr"
    if as_pointer(ptr) is None:
        raise ApiError(PARAM, acl_null(api, "ptr"))
    if data is None or (as_pointer(data) is None and not isinstance(data, Ref)):
        raise ApiError(PARAM, acl_null(api, "data"))
    if int_arg(size, "size", 0, UINT64_MAX) == 0:
        raise ApiError(PARAM, acl_value(api, 0, "size", "must be greater than 0"))
    raise _not_managed(api, ptr)


@rt_api
def aclrtMemManagedGetAttrs(
    attributes: object, numAttributes: int, ptr: object, size: int, data: object, dataSizes: object
) -> int:
    """CANN's checks, then 207000 (no managed memory exists)."""
    api = "aclrtMemManagedGetAttrs"
    if as_pointer(ptr) is None:
        raise ApiError(PARAM, acl_null(api, "ptr"))
    for obj, name in ((attributes, "attributes"), (data, "data"), (dataSizes, "dataSizes")):
        if obj is None or (as_pointer(obj) is None and not isinstance(obj, (list, tuple, Ref))):
            raise ApiError(PARAM, acl_null(api, name))
    if int_arg(size, "size", 0, UINT64_MAX) == 0:
        raise ApiError(PARAM, acl_value(api, 0, "size", "must be greater than 0"))
    raise _not_managed(api, ptr)
