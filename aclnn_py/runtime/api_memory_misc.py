"""The rest of ``acl_rt.h``'s memory chapter: frees that wait for the device, memory type and usage
queries, cache maintenance (flush, invalidate, aclrtCmoAsync: no cache exists in the simulated
memory, so they only check), aclrtMallocForTaskScheduler, aclrtMemP2PMap, and managed (unified)
memory: host pages mapped into the simulated space at their own address, so that one pointer serves
the program's own loads and stores, the copies and the kernels (advice and prefetch locations are
recorded per 2 MiB page; nothing migrates).
"""

from __future__ import annotations

import ctypes
import mmap

import numpy as np

from .. import soc as _soc
from .._capi import UINT64_MAX, ApiError, as_pointer, describe
from .._ref import Ref, store
from . import _rt_features
from ._checks import (
    PARAM,
    RT_ERROR_INVALID_VALUE,
    RT_PARAM,
    E,
    Message,
    acl_null,
    acl_reason,
    acl_value,
    check_device_valid,
    check_stopped,
    cur_stream,
    emu,
    fb_invalid,
    int_arg,
    need_context,
    out_arg,
    own_stream,
    rt_api,
    rt_inner,
    rt_value,
    silent,
    stream_handle,
)
from ._structs import aclrtMemUsageInfo, array_in, struct_out, write_usage
from .api_memory import _PEAK, _device_malloc, check_capacity, free_memory, peak_used
from .device import RT, RT_MAX_DEV_NUM
from .memory import (
    POISON,
    SPACE,
    ManagedAllocation,
    MappedAllocation,
    MemoryFault,
    call_chain,
    call_site,
    called_from_c,
    overlaps_simulated,
)
from .stream import Stream, Task


def _device_sync_first() -> int:
    """rtFreeWithDevSync / rtFreeHostWithDevSync: rtDeviceSynchronize of the current context first;
    its failure (no context, a faulted task) is returned and nothing is freed."""
    from .api_device import aclrtSynchronizeDevice

    return int(aclrtSynchronizeDevice())


@rt_api
def aclrtFreeWithDevSync(devPtr: object) -> int:
    """aclrtFree after the current device finished its queued work."""
    api = "aclrtFreeWithDevSync"
    if as_pointer(devPtr) is None:
        raise ApiError(PARAM, acl_null(api, "devPtr"))
    code = _device_sync_first()
    if code != E.ACL_SUCCESS:
        return code
    return free_memory(devPtr, "devPtr", "device", api)


@rt_api
def aclrtFreeHostWithDevSync(hostPtr: object) -> int:
    """aclrtFreeHost after the current device finished its queued work."""
    api = "aclrtFreeHostWithDevSync"
    if as_pointer(hostPtr) is None:
        raise ApiError(PARAM, acl_null(api, "hostPtr"))
    code = _device_sync_first()
    if code != E.ACL_SUCCESS:
        return code
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
    # ApiImpl::CheckMemType takes Runtime::CurrentContext(): no aclInit default device is set
    need_context(rt_fn, implicit_default=False)
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
    # ApiErrorDecorator::GetMemUsageInfo: ChgUserDevIdToDeviceId (the same id without
    # ASCEND_RT_VISIBLE_DEVICES), then CheckDeviceIdIsValid of the id as int32_t (EE1003)
    inner = f"Device ID is invalid, drv devId={dev_id & 0xFFFFFFFF}, retCode=0x7010003"
    check_device_valid(dev_id, inner, "GetMemUsageInfo", 7510, rt_fn)
    # ApiImpl::GetMemUsageInfo's CurrentContext(true, deviceId): the aclInit default device is made
    # current only when it is the device asked about (Runtime::CurrentContext, runtime.cc:5397-5428)
    need_context(rt_fn, implicit_default=RT.default_device == dev_id)
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
    # ApiImpl::FlushCache / InvalidCache (api_impl_standard_soc.cc:831-853) check no address or
    # range: any non-null pointer is accepted; the simulated memory has no cache to touch
    return E.ACL_SUCCESS


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
    # rtCmoAsync hands the task to rtCmoTaskLaunch (api_c_standard_soc.cc:860), whose handle guard and
    # ERROR_RETURN_WITH_EXT_ERRCODE name it; ApiImpl::CmoTaskLaunch's (and ApiImplDavid's) stream check
    # words the operation "Operating the cache memory on the device" (api_impl.cc:6882-6883)
    api, rt_fn = "aclrtCmoAsync", "rtCmoTaskLaunch"
    p = as_pointer(src)
    if p is None:
        raise ApiError(PARAM, acl_null(api, "src"))
    n = int_arg(size, "size", 0, UINT64_MAX)
    if n == 0:
        raise ApiError(PARAM, acl_value(api, 0, "size", "must be greater than 0"))
    t = int_arg(cmoType, "cmoType", -(2**31), 2**31 - 1)
    if not 0 <= t <= 3:
        # the ACL layer adds 6 (memory.cpp:1367-1370); rtCmoAsync's COND_RETURN_WARN refuses an opcode
        # outside CMO_PREFETCH..CMO_FLUSH (api_c_standard_soc.cc:845-850): a WARN, no last error
        return E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    if not _rt_features.has("RT_FEATURE_TASK_CMO"):
        return E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT  # rtCmoAsync's COND_RETURN_WARN: a WARN only
    st = stream_handle(stream, rt_fn)
    ctx = need_context(rt_fn)
    target = st or ctx.default_stream
    own_stream(target, ctx, "Operating the cache memory on the device", rt_fn)
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
    need_context("rtMemPrefetchToDevice")  # ApiImpl::MemPrefetchToDevice (api_impl.cc:3342-3343)
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
# managed (unified) memory: host pages mapped at their own address
# ---------------------------------------------------------------------------------------------

UVM_PAGE = 2 * 1024 * 1024  # ApiImpl::ManagedMemAlloc rounds RT_MEMORY_ATTACH_GLOBAL sizes up to 2 MiB
UVM_LIMIT = 3 << 40  # 11-05_unified_addressing.md: at most 3 TB of UVM per process
_HOST_ID, _NO_ID = -1, -2  # the ids a location-valued attribute reports for the host and for "none"
_LOC_INVALID, _LOC_DEVICE, _LOC_HOST_NUMA_CURRENT = 0, 1, 4  # aclrtMemManagedLocationType
# 11-05_unified_addressing.md: UVM exists on the A2 and A3 series only (not 950, 310P, 310B, 910)
_UVM_FAMILIES = ("Ascend910B", "Ascend910_93")
_ADVISE_DESC = "Managing the policy attributes of the unified virtual memory (UVM)"
_GET_ATTR_DESC = "Querying a policy attribute value of the UVM of a specified size"
_GET_ATTRS_DESC = "Querying multiple policy attribute values of the UVM of a specified size"
_PREFETCH_DESC = "Managing the prefetching of the unified virtual memory (UVM)"
_BATCH_DESC = "Managing the batch prefetching of the unified virtual memory (UVM)"


class aclrtMemManagedLocation:
    """``aclrtMemManagedLocation``: a location type (aclrtMemManagedLocationType) and its id."""

    __slots__ = ("id", "type")

    def __init__(self, type: int = 0, id: int = 0) -> None:
        self.type = type
        self.id = id

    def __repr__(self) -> str:
        return f"aclrtMemManagedLocation(type={self.type}, id={self.id})"


class CMemManagedLocation(ctypes.Structure):
    """The C layout of ``aclrtMemManagedLocation`` (an enum, then int32_t id)."""

    _fields_ = [("type", ctypes.c_int32), ("id", ctypes.c_int32)]


class _Policy:
    """What aclrtMemManagedAdvise and the prefetches set, one entry per 2 MiB page."""

    __slots__ = ("accessed", "last_id", "last_type", "pref_id", "pref_type", "read_mostly")

    def __init__(self, pages: int) -> None:
        self.read_mostly = np.zeros(pages, dtype=bool)
        self.pref_type = np.zeros(pages, dtype=np.int32)
        self.pref_id = np.full(pages, _NO_ID, dtype=np.int32)
        self.last_type = np.zeros(pages, dtype=np.int32)
        self.last_id = np.full(pages, _NO_ID, dtype=np.int32)
        self.accessed: dict[int, np.ndarray] = {}  # device id (or -1, the host) -> pages it may access


def _location(api: str, name: str, obj: object) -> tuple[int, int]:
    """An ``aclrtMemManagedLocation`` argument: (type, id)."""
    if isinstance(obj, tuple) and len(obj) == 2:
        t, i = obj
    elif hasattr(obj, "type") and hasattr(obj, "id"):
        t, i = obj.type, obj.id
    else:
        raise ApiError(PARAM, emu(f"{api}: {name} must be an aclrtMemManagedLocation, got {describe(obj)}."))
    return int_arg(t, f"{name}.type", -(2**31), 2**31 - 1), int_arg(i, f"{name}.id", -(2**31), 2**31 - 1)


def _uvm_supported(api: str, what: str) -> None:
    """The driver of a SoC without UVM refuses (207000): with a report for the allocation (as the
    example program 0_uvm_allocate expects), silently for the others (CANN logs a WARN only)."""
    soc = _soc.current()
    if soc.family in _UVM_FAMILIES:
        return
    if what == "alloc":
        raise ApiError(
            E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
            emu(f"{api}: {soc.name} has no unified virtual memory (CANN offers it on the A2 and A3 series)."),
        )
    raise silent(E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)


def _managed_at(api: str, name: str, p: int, n: int) -> tuple[ManagedAllocation, slice]:
    """The managed allocation holding ``[p, p + n)`` and the slice of its 2 MiB pages the range
    touches; anything else is the driver's refusal (107000, the emulator's words)."""
    alloc = SPACE.find(p) if p > 0 else None
    if not isinstance(alloc, ManagedAllocation):
        where = SPACE.describe_address(p) if p > 0 else f"{describe(p)} is not an address"
        raise ApiError(RT_PARAM, emu(f"{api}: {name} is not memory of aclrtMemAllocManaged ({where})."))
    if p + n > alloc.end:
        raise ApiError(
            RT_PARAM,
            emu(f"{api}: [0x{p:x}, +{n}) runs {p + n - alloc.end} bytes past the end of {alloc.describe()}."),
        )
    off = p - alloc.start
    return alloc, slice(off // UVM_PAGE, (off + n - 1) // UVM_PAGE + 1)


def _device_ids(api: str, desc: str, loc: tuple[int, int], param: str) -> None:
    """The runtime's check of a device location's id (``[0, numDev - 1]``)."""
    if loc[0] == _LOC_DEVICE and not 0 <= loc[1] < RT.device_count:
        raise ApiError(
            RT_PARAM,
            rt_value(desc, loc[1], param, f"[0, {RT.device_count - 1}]"),
            fb_invalid(api),
        )


def _is_location_type(t: int) -> bool:
    """Whether ``t`` is a member of aclrtMemManagedLocationType but the invalid type."""
    return _LOC_DEVICE <= t <= _LOC_HOST_NUMA_CURRENT


def _known_type(api: str, loc: tuple[int, int], param: str) -> None:
    """``ConvertMemManagedLocationType``: a type outside the enum becomes the invalid type, which
    the driver refuses (the emulator's words)."""
    if not _is_location_type(loc[0]):
        raise ApiError(
            RT_PARAM,
            emu(f"{api}: {param} {loc[0]} is not a location (ACL_MEM_LOCATIONTYPE_DEVICE ... _HOST_NUMA_CURRENT)."),
        )


@rt_api
def aclrtMemAllocManaged(ptr: object, size: int, flag: int) -> int:
    """Unified memory: ``size`` rounded up to 2 MiB of host pages, mapped into the simulated space
    at their own address (the device address *is* the host address), counted against the current
    device's memory, not initialised; released by aclrtFree."""
    api = "aclrtMemAllocManaged"
    out = out_arg(ptr, api, "ptr")
    f = int_arg(flag, "flag", 0, 2**32 - 1)
    if f != 1:
        raise ApiError(PARAM, acl_value(api, f, "flag", "ACL_RT_MEM_ATTACH_GLOBAL"))
    n = int_arg(size, "size", 0, UINT64_MAX)
    if n == 0:
        raise ApiError(
            # rtMemAllocManaged returns GetRtExtErrCodeAndSetGlobalErr(error): no FuncErrorReason (api_c.cc:944-956)
            RT_PARAM,
            rt_value("Unified virtual memory (UVM) allocation", 0, "size", "not equal to 0"),
        )  # fmt: skip
    dev = need_context().device  # EE1018 only (no wrapper report, as above)
    _uvm_supported(api, "alloc")
    rounded = (n + UVM_PAGE - 1) // UVM_PAGE * UVM_PAGE
    in_use = sum(a.size for a in SPACE.live() if isinstance(a, ManagedAllocation))
    if rounded > UVM_LIMIT - in_use:
        raise ApiError(
            E.ACL_ERROR_RT_MEMORY_ALLOCATION,
            emu(f"{api}: {rounded} bytes asked with {in_use} in use; a process holds at most 3 TB of UVM."),
        )
    with RT.lock:
        check_capacity(dev, rounded, api, "asked", ": managed memory is not oversubscribed")
        alloc = _map_pages(api, rounded, n, dev.ident)
        dev.used += rounded
        _PEAK[dev.ident] = max(_PEAK.get(dev.ident, 0), dev.used)
    alloc.buf.fill(POISON)  # CANN: the contents are not initialised (aclrtMemset them first)
    store(out, alloc.start)
    return E.ACL_SUCCESS


def _map_pages(api: str, rounded: int, requested: int, device: int) -> ManagedAllocation:
    """Fresh anonymous pages whose own address range misses the simulated regions, inserted into
    the simulated space at that address."""
    held: list[mmap.mmap] = []  # ranges that fell in a simulated region: kept until another is found
    try:
        for _ in range(8):
            try:
                pages = mmap.mmap(-1, rounded, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
            except (OSError, OverflowError, ValueError):
                raise ApiError(
                    E.ACL_ERROR_RT_MEMORY_ALLOCATION, emu(f"{api}: the host cannot map {rounded} bytes.")
                ) from None
            alloc = ManagedAllocation(pages, requested, device, api, call_site())
            if not overlaps_simulated(alloc.start, alloc.end, RT_MAX_DEV_NUM):
                alloc.origin = call_chain()
                try:
                    SPACE.insert(alloc)
                except MemoryFault as fault:  # a live mapping there already (cannot happen twice)
                    alloc.release()
                    raise ApiError(E.ACL_ERROR_RT_MEMORY_ALLOCATION, emu(f"{api}: {fault.message}.")) from None
                return alloc
            held.append(pages)
            alloc.backing = None  # the pages stay held until the loop ends
        raise ApiError(
            E.ACL_ERROR_RT_MEMORY_ALLOCATION,
            emu(f"{api}: the host keeps placing the pages inside the simulated address regions."),
        )
    finally:
        del held


def _policy(alloc: ManagedAllocation) -> _Policy:
    if alloc.policy is None:
        alloc.policy = _Policy(alloc.size // UVM_PAGE)
    policy: _Policy = alloc.policy
    return policy


def _managed_range(api: str, ptr: object, size: object) -> tuple[int, int]:
    """The managed calls' first checks: a NULL ``ptr`` (EH0008), a zero ``size`` (EH0007)."""
    p = as_pointer(ptr)
    if p is None:
        raise ApiError(PARAM, acl_null(api, "ptr"))
    n = int_arg(size, "size", 0, UINT64_MAX)
    if n == 0:
        raise ApiError(PARAM, acl_value(api, 0, "size", "must be greater than 0"))
    return p, n


_ADVISE_NAMES = (
    "ACL_MEM_ADVISE_SET_READ_MOSTLY", "ACL_MEM_ADVISE_UNSET_READ_MOSTLY", "ACL_MEM_ADVISE_SET_PREFERRED_LOCATION",
    "ACL_MEM_ADVISE_UNSET_PREFERRED_LOCATION", "ACL_MEM_ADVISE_SET_ACCESSED_BY", "ACL_MEM_ADVISE_UNSET_ACCESSED_BY",
)  # fmt: skip


@rt_api
def aclrtMemManagedAdvise(ptr: object, size: int, advise: int, location: object) -> int:
    """Record a policy for the 2 MiB pages of ``[ptr, ptr + size)`` (read-mostly, a preferred
    location, a device that accesses them); aclrtMemManagedGetAttr(s) read it back. It changes no
    placement: host and device share the pages."""
    api, rt_fn = "aclrtMemManagedAdvise", "rtMemManagedAdvise"
    p, n = _managed_range(api, ptr, size)
    a = int_arg(advise, "advise", -(2**31), 2**31 - 1) & 0xFFFF  # the runtime takes a uint16_t
    loc = _location(api, "location", location)
    if a > 5:
        raise ApiError(RT_PARAM, rt_value(_ADVISE_DESC, a, "advise", "[0, 5]"), fb_invalid(rt_fn))
    _device_ids(rt_fn, _ADVISE_DESC, loc, "location.id")
    need_context(rt_fn)
    _uvm_supported(api, "advise")
    if n % UVM_PAGE:
        raise ApiError(RT_PARAM, emu(f"{api}: size {n} is not a multiple of 2 MB, as CANN's documentation requires."))
    alloc, pages = _managed_at(api, "ptr", p, n)
    pol = _policy(alloc)
    if a in (0, 1):
        pol.read_mostly[pages] = a == 0
        return E.ACL_SUCCESS
    if a in (2, 4):
        _known_type(api, loc, "location.type")
    if a == 2:
        pol.pref_type[pages], pol.pref_id[pages] = loc
    elif a == 3:
        pol.pref_type[pages], pol.pref_id[pages] = _LOC_INVALID, _NO_ID
    else:
        who = loc[1] if loc[0] == _LOC_DEVICE else _HOST_ID
        if a == 4:
            pol.accessed.setdefault(who, np.zeros(pol.read_mostly.size, dtype=bool))[pages] = True
        elif who in pol.accessed:
            pol.accessed[who][pages] = False
    return E.ACL_SUCCESS


def _uniform(values: np.ndarray, none: int) -> int:
    """One value for a range: the pages' common value, or ``none`` when they differ."""
    return int(values[0]) if bool((values == values[0]).all()) else none


def _as_device_id(types: np.ndarray, ids: np.ndarray) -> int:
    """A legacy location attribute: a device id, -1 for the host, -2 when none or not uniform."""
    t = _uniform(types, _LOC_INVALID)
    if t == _LOC_INVALID:
        return _NO_ID
    return _uniform(ids, _NO_ID) if t == _LOC_DEVICE else _HOST_ID


def _attribute(api: str, alloc: ManagedAllocation, pages: slice, attr: int, data_size: int) -> list[int]:
    """The int32 values attribute ``attr`` answers for the pages (one, or ACCESSED_BY's list)."""
    pol = _policy(alloc)
    if attr == 3:
        if data_size == 0 or data_size % 4:
            raise ApiError(
                RT_PARAM, emu(f"{api}: dataSize {data_size} for ACCESSED_BY must be a non-zero multiple of 4.")
            )
        who = sorted(d for d, on in pol.accessed.items() if bool(on[pages].all()))
        return (who + [_NO_ID] * (data_size // 4))[: data_size // 4]
    if data_size != 4:
        raise ApiError(RT_PARAM, emu(f"{api}: dataSize {data_size} for attribute {attr} must be 4 (one int32)."))
    if attr == 1:
        return [int(bool(pol.read_mostly[pages].all()))]
    types, ids = (pol.pref_type, pol.pref_id) if attr in (2, 4, 5) else (pol.last_type, pol.last_id)
    if attr in (2, 6):
        return [_as_device_id(types[pages], ids[pages])]
    t = _uniform(types[pages], _LOC_INVALID)
    if attr in (4, 7):
        return [t]
    return [_NO_ID if t == _LOC_INVALID else _uniform(ids[pages], _NO_ID)]


def _attr_range(attr: int) -> bool:
    return 1 <= attr <= 8  # rtMemRangeAttributeReadMostly .. rtMemRangeAttributeLastPrefetchLocationId


def _write_values(api: str, data: object, values: list[int]) -> None:
    """Hand int32 values back: a Ref gets the int (or the list), an address of simulated memory or
    (from C) of the program's own memory gets the bytes."""
    raw = np.array(values, dtype="<i4").tobytes()
    if isinstance(data, Ref):
        store(data, values if len(values) != 1 else values[0])
        return
    addr = as_pointer(data)
    if addr is None or addr <= 0:
        raise ApiError(PARAM, emu(f"{api}: data must be a Ref() or an address, got {describe(data)}."))
    if SPACE.find(addr) is not None:
        try:
            SPACE.write(addr, raw, api)
        except MemoryFault as fault:
            raise ApiError(RT_PARAM, emu(f"{fault.message}.")) from None
        return
    if not called_from_c():
        raise ApiError(RT_PARAM, emu(f"{api}: data 0x{addr:x} is not memory aclnn_py knows; pass a Ref()."))
    ctypes.memmove(addr, raw, len(raw))


@rt_api
def aclrtMemManagedGetAttr(attribute: int, ptr: object, size: int, data: object, dataSize: int) -> int:
    """One policy attribute of the managed range ``[ptr, ptr + size)``, from what
    aclrtMemManagedAdvise and the prefetches recorded (pages that differ answer the invalid value)."""
    api, rt_fn = "aclrtMemManagedGetAttr", "rtMemManagedGetAttr"
    p = as_pointer(ptr)
    if p is None:
        raise ApiError(PARAM, acl_null(api, "ptr"))
    if data is None or (as_pointer(data) is None and not isinstance(data, Ref)):
        raise ApiError(PARAM, acl_null(api, "data"))
    n = int_arg(size, "size", 0, UINT64_MAX)
    if n == 0:
        raise ApiError(PARAM, acl_value(api, 0, "size", "must be greater than 0"))
    attr = int_arg(attribute, "attribute", -(2**31), 2**31 - 1)
    if not _attr_range(attr):
        raise ApiError(RT_PARAM, rt_value(_GET_ATTR_DESC, attr, "attribute", "[1, 8]"), fb_invalid(rt_fn))
    ds = int_arg(dataSize, "dataSize", 0, UINT64_MAX)
    _uvm_supported(api, "query")
    alloc, pages = _managed_at(api, "ptr", p, n)
    _write_values(api, data, _attribute(api, alloc, pages, attr, ds))
    return E.ACL_SUCCESS


def _null_array(obj: object) -> bool:
    """Whether an array argument is NULL: None or a zero address (the C ABI hands a non-NULL
    ``size_t*`` or enum array over as a ctypes number at its address, whatever its first value)."""
    if obj is None:
        return True
    return as_pointer(obj) is None and not isinstance(obj, (list, tuple, Ref, ctypes._SimpleCData))


@rt_api
def aclrtMemManagedGetAttrs(
    attributes: object, numAttributes: int, ptr: object, size: int, data: object, dataSizes: object
) -> int:
    """aclrtMemManagedGetAttr for each of ``attributes``: ``data[i]`` (a Ref or an address) receives
    attribute ``i`` in ``dataSizes[i]`` bytes."""
    api, rt_fn = "aclrtMemManagedGetAttrs", "rtMemManagedGetAttrs"
    p = as_pointer(ptr)
    if p is None:
        raise ApiError(PARAM, acl_null(api, "ptr"))
    for obj, name in ((attributes, "attributes"), (data, "data"), (dataSizes, "dataSizes")):
        if _null_array(obj):
            raise ApiError(PARAM, acl_null(api, name))
    n = int_arg(size, "size", 0, UINT64_MAX)
    if n == 0:
        raise ApiError(PARAM, acl_value(api, 0, "size", "must be greater than 0"))
    count = int_arg(numAttributes, "numAttributes", 0, UINT64_MAX)
    attrs = array_in(api, "attributes", attributes, count, ctypes.c_int32, int)
    for attr in attrs:
        if not _attr_range(attr):
            raise ApiError(RT_PARAM, rt_value(_GET_ATTRS_DESC, attr, "attributes[i]", "[1, 8]"), fb_invalid(rt_fn))
    sizes = array_in(api, "dataSizes", dataSizes, count, ctypes.c_uint64, int)
    outs = array_in(api, "data", data, count, ctypes.c_uint64, lambda v: v)
    _uvm_supported(api, "query")
    alloc, pages = _managed_at(api, "ptr", p, n)
    answers = [_attribute(api, alloc, pages, attr, ds) for attr, ds in zip(attrs, sizes, strict=True)]
    for out, values in zip(outs, answers, strict=True):
        if out is None or (not isinstance(out, Ref) and not as_pointer(out)):
            raise ApiError(RT_PARAM, emu(f"{api}: an element of data is a NULL pointer."))
        _write_values(api, out, values)
    return E.ACL_SUCCESS


def _queue_prefetch(api: str, target: Stream, moves: list[tuple[ManagedAllocation, slice, tuple[int, int]]]) -> None:
    """The prefetch task (CANN launches a host function on the stream): nothing moves, as host and
    device share the pages; the task records each range's last prefetch location when it runs."""

    def run() -> None:
        for alloc, pages, (t, i) in moves:
            if not alloc.freed:
                pol = _policy(alloc)
                pol.last_type[pages], pol.last_id[pages] = t, i

    RT.policy.submit(target, Task(target, f"{api}({len(moves)} range(s))", run))


# ApiImpl's prefetch implementations (api_impl_uvm.cc): their name in the inner reports and the
# lines of the ConvertUvmLocationStruct and LaunchHostFunc reports
_PREFETCH_IMPL = ("MemManagedPrefetchAsync", 78, 87)
_BATCH_IMPL = ("MemManagedPrefetchBatchAsync", 138, 152)
_HOST_FUNC_DESC = "Adding a host callback function to the stream task queue"


def _convert_location(loc: tuple[int, int], impl: tuple[str, int, int], rt_fn: str) -> None:
    """``UvmCallback::ConvertUvmLocationStruct`` (uvm_callback.cc:121-126): a type outside the enum
    (the ACL layer made it rtMemLocationTypeInvalid) is RT_ERROR_INVALID_VALUE, with ApiImpl's
    inner report before the wrapper's."""
    if not _is_location_type(loc[0]):
        func, line, _ = impl
        raise ApiError(
            RT_PARAM,
            rt_inner(
                f"ConvertUvmLocationStruct failed, retCode={RT_ERROR_INVALID_VALUE:#x}", func, "api_impl_uvm.cc", line
            ),
            fb_invalid(rt_fn),
        )


def _launch_context(target: Stream, impl: tuple[str, int, int], rt_fn: str) -> None:
    """``ApiImpl::LaunchHostFunc`` (api_impl.cc:9139-9150): the current context (``CurrentContext()``,
    which makes an aclInit default device current), the stream's context; its failure gets the
    calling implementation's inner report "LaunchHostFunc fails with error code ..." before the
    wrapper's."""
    func, _, line = impl

    def inner(code: int) -> Message:
        return rt_inner(f"LaunchHostFunc fails with error code {code:#x}", func, "api_impl_uvm.cc", line)

    def with_inner(err: ApiError, code: int) -> ApiError:  # the first report, the inner one, the wrapper's
        return ApiError(err.code, err.messages[0], inner(code), *err.messages[1:])

    try:
        ctx = need_context(rt_fn)
    except ApiError as err:  # RT_ERROR_CONTEXT_NULL: EE1018
        raise with_inner(err, 0x07070001) from None
    try:
        own_stream(target, ctx, _HOST_FUNC_DESC, rt_fn)
    except ApiError as err:  # RT_ERROR_STREAM_CONTEXT: EE1010
        raise with_inner(err, 0x07030003) from None
    check_stopped(ctx)


@rt_api
def aclrtMemManagedPrefetchAsync(ptr: object, size: int, location: object, flags: int, stream: object) -> int:
    """Queue a prefetch of the managed range to ``location`` on ``stream``: one address space, so no
    byte moves; once the task ran, LAST_PREFETCH_LOCATION answers ``location``.

    CANN's order: the ACL layer's checks; rtMemManagedPrefetchAsync's stream handle guard
    (api_c_uvm.cc:78); ApiErrorDecorator's GetCurStream, then its location check
    (api_error_uvm.cc:104-115); ApiImpl's driver check, location conversion and host-function
    launch (api_impl_uvm.cc:64-90)."""
    api, rt_fn = "aclrtMemManagedPrefetchAsync", "rtMemManagedPrefetchAsync"
    p, n = _managed_range(api, ptr, size)
    f = int_arg(flags, "flags", 0, 2**32 - 1)
    if f != 0:
        raise ApiError(PARAM, acl_reason(api, f, "flags", "flags is a reserved parameter and must be 0"))
    loc = _location(api, "location", location)
    st = stream_handle(stream, rt_fn)
    target = cur_stream(st, _PREFETCH_DESC, rt_fn, stream_null=True)
    _device_ids(rt_fn, _PREFETCH_DESC, loc, "location.id")
    _uvm_supported(api, "prefetch")  # halMemManagedPrefetch is missing: a WARN only
    _convert_location(loc, _PREFETCH_IMPL, rt_fn)
    _launch_context(target, _PREFETCH_IMPL, rt_fn)
    if n % UVM_PAGE:
        raise ApiError(RT_PARAM, emu(f"{api}: size {n} is not a multiple of 2 MB, as CANN's documentation requires."))
    alloc, pages = _managed_at(api, "ptr", p, n)
    _queue_prefetch(api, target, [(alloc, pages, loc)])
    return E.ACL_SUCCESS


def _loc_from_c(c: CMemManagedLocation) -> tuple[int, int]:
    return int(c.type), int(c.id)


@rt_api
def aclrtMemManagedPrefetchBatchAsync(
    ptrs: object, sizes: object, count: int, prefetchLocs: object, prefetchLocIdxs: object, numPrefetchLocs: int,
    flags: int, stream: object,
) -> int:  # fmt: skip
    """Several prefetches in one task: ``prefetchLocs[k]`` applies to ``ptrs[prefetchLocIdxs[k]]``
    up to the next index (the last one to ``count - 1``). Nothing moves (one address space).

    CANN's order: the ACL layer's checks; rtMemManagedPrefetchBatchAsync's stream handle guard
    (api_c_uvm.cc:94); ApiErrorDecorator's index, pointer and location checks, then GetCurStream
    (api_error_uvm.cc:125-197); ApiImpl's driver check, location conversion and host-function
    launch (api_impl_uvm.cc:92-154)."""
    api, rt_fn = "aclrtMemManagedPrefetchBatchAsync", "rtMemManagedPrefetchBatchAsync"
    for obj, name in (
        (ptrs, "ptrs"),
        (sizes, "sizes"),
        (prefetchLocs, "prefetchLocs"),
        (prefetchLocIdxs, "prefetchLocIdxs"),
    ):
        if _null_array(obj):
            raise ApiError(PARAM, acl_null(api, name))
    n = int_arg(count, "count", 0, UINT64_MAX)
    if n == 0:
        raise ApiError(PARAM, acl_value(api, 0, "count", "must be greater than 0"))
    k = int_arg(numPrefetchLocs, "numPrefetchLocs", 0, UINT64_MAX)
    if k == 0:
        raise ApiError(PARAM, acl_value(api, 0, "numPrefetchLocs", "must be greater than 0"))
    f = int_arg(flags, "flags", 0, UINT64_MAX)
    if f != 0:
        raise ApiError(PARAM, acl_reason(api, f, "flags", "flags is a reserved parameter and must be 0"))
    if n < k:
        raise ApiError(
            PARAM, acl_reason(api, n, "count", f"must be greater than or equal to numPrefetchLocs {k}")
        )  # fmt: skip
    st = stream_handle(stream, rt_fn)
    idxs = array_in(api, "prefetchLocIdxs", prefetchLocIdxs, k, ctypes.c_uint64, int)
    if idxs[0] != 0:
        raise ApiError(RT_PARAM, rt_value(_BATCH_DESC, idxs[0], "prefetchLocIdxs[0]", "equal to 0"), fb_invalid(rt_fn))
    addrs = array_in(api, "ptrs", ptrs, n, ctypes.c_uint64, lambda v: as_pointer(v) or 0)
    if 0 in addrs:
        raise ApiError(
            RT_PARAM, ("EE1004", f"{_BATCH_DESC} failed because ptrs[idx] cannot be a NULL pointer."),
            fb_invalid(rt_fn),
        )  # fmt: skip
    for j in range(k):
        if idxs[j] >= n:
            raise ApiError(
                RT_PARAM,
                (
                    "EE1017",
                    f"{_BATCH_DESC} failed. Parameter prefetchLocIdxs[{j}] or count is invalid. Reason: Elements in "
                    f"array prefetchLocIdxs should be less than count. Parameter prefetchLocIdxs[{j}] is {idxs[j]}, "
                    f"and count is {n}.",
                ),
                fb_invalid(rt_fn),
            )
        if j >= 1 and idxs[j] <= idxs[j - 1]:
            raise ApiError(
                RT_PARAM,
                (
                    "EE1017",
                    f"{_BATCH_DESC} failed. Parameter prefetchLocIdxs[{j}] or prefetchLocIdxs[{j - 1}] is invalid. "
                    f"Reason: Each element in prefetchLocIdxs must be greater than the previous element. Parameter "
                    f"prefetchLocIdxs[{j}] is {idxs[j]}, and prefetchLocIdxs[{j - 1}] is {idxs[j - 1]}.",
                ),
                fb_invalid(rt_fn),
            )
    locs = array_in(
        api, "prefetchLocs", prefetchLocs, k, CMemManagedLocation,
        lambda v: _loc_from_c(v) if isinstance(v, CMemManagedLocation) else _location(api, "prefetchLocs[k]", v),
    )  # fmt: skip
    for loc in locs:
        _device_ids(rt_fn, _BATCH_DESC, loc, "prefetchLocs[idx].id")
    target = cur_stream(st, _BATCH_DESC, rt_fn, stream_null=True)
    _uvm_supported(api, "prefetch")  # halMemManagedPrefetchBatch is missing: a WARN only
    for loc in locs:
        _convert_location(loc, _BATCH_IMPL, rt_fn)
    _launch_context(target, _BATCH_IMPL, rt_fn)
    lens = array_in(api, "sizes", sizes, n, ctypes.c_uint64, int)
    moves = []
    for j, loc in enumerate(locs):
        for i in range(idxs[j], idxs[j + 1] if j + 1 < k else n):
            if lens[i] == 0 or lens[i] % UVM_PAGE:
                raise ApiError(
                    RT_PARAM, emu(f"{api}: sizes[{i}] is {lens[i]}; each size must be a non-zero multiple of 2 MB.")
                )
            alloc, pages = _managed_at(api, f"ptrs[{i}]", addrs[i], lens[i])
            moves.append((alloc, pages, loc))
    _queue_prefetch(api, target, moves)
    return E.ACL_SUCCESS


__all__ = [
    "aclrtCheckMemType",
    "aclrtCmoAsync",
    "aclrtFreeHostWithDevSync",
    "aclrtFreeWithDevSync",
    "aclrtGetMemUsageInfo",
    "aclrtMallocForTaskScheduler",
    "aclrtMemAllocManaged",
    "aclrtMemFlush",
    "aclrtMemInvalidate",
    "aclrtMemManagedAdvise",
    "aclrtMemManagedGetAttr",
    "aclrtMemManagedGetAttrs",
    "aclrtMemManagedLocation",
    "aclrtMemManagedPrefetchAsync",
    "aclrtMemManagedPrefetchBatchAsync",
    "aclrtMemP2PMap",
]
