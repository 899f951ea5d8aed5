"""The memory chapter of ``acl_rt.h``: allocation, release, copies, fills, memory information,
DVPP memory and the stream memory operations (aclrtValueWrite / aclrtValueWait).
"""

from __future__ import annotations

from collections.abc import Callable

from .. import soc as _soc
from .._capi import UINT64_MAX, ApiError, as_pointer, describe
from .._ref import store
from . import _rt_features, sanitizer
from ._checks import (
    PARAM,
    RT_PARAM,
    E,
    acl_inner,
    acl_null,
    acl_reason,
    acl_value,
    check_stopped,
    emu,
    fb_inner,
    fb_invalid,
    fb_no_context,
    fb_unsupported,
    host_backing,
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
from ._structs import aclrtMemLocation
from .device import RT, Device
from .memory import SPACE, Allocation, ManagedAllocation, MemoryFault, call_site, on_reset
from .stream import Stream, Task, TaskFault, wait_until

# ---------------------------------------------------------------------------------------------
# memory
# ---------------------------------------------------------------------------------------------

_HUGE1G = (6, 7)  # ACL_MEM_MALLOC_HUGE1G_ONLY, ACL_MEM_MALLOC_HUGE1G_ONLY_P2P
# aclrtGetMemInfo's 1 GB huge-page views: ACL_HBM_MEM_HUGE1G, ACL_HBM_MEM_P2P_HUGE1G, ACL_MEM_HUGE1G,
# ACL_MEM_P2P_HUGE1G
_HUGE1G_ATTRS = frozenset({10, 11, 14, 17})


def malloc_size(size: int, policy: int) -> int:
    """Bytes aclrtMalloc reserves: ``((size + 32 + padding - 1) / 32) * 32`` with the SoC's padding
    (32, i.e. ALIGN_UP(size, 32) + 32; 0 on Ascend950); no padding for the 1 GB huge-page policies
    (``policy ==`` one of them exactly, as aclMallocMemInner compares: other bits keep the padding)."""
    padding = 0 if policy in _HUGE1G else _soc.current().malloc_padding
    return (size + 32 + padding - 1) // 32 * 32


def _device_malloc(devPtr: object, size: object, policy: object, func: str, api: str, aligned32: bool) -> int:
    """``aclMallocMemInner`` / ``aclrtMallocCachedImpl``: ``func`` is the name CANN's reports give."""
    out = out_arg(devPtr, func, "devPtr")
    n = int_arg(size, "size", 0, UINT64_MAX)
    if n == 0:
        raise ApiError(PARAM, acl_value(func, 0, "size", "must be greater than 0"))
    pol = int_arg(policy, "policy", 0, 2**32 - 1)
    padding = 0 if aligned32 or pol in _HUGE1G else _soc.current().malloc_padding
    if n + 32 + padding > UINT64_MAX:  # GetAlignedAndPaddingSize: size + appendSize overflows
        raise ApiError(PARAM, acl_inner(f"[Check][Size]size too large: {n}"))
    rounded = (n + 31) // 32 * 32 if aligned32 else malloc_size(n, pol)
    ctx = need_context()  # rtMalloc adds no message of its own
    if pol in _HUGE1G and not _rt_features.has("RT_FEATURE_MEM_1G_HUGE_PAGE"):
        # NpuDriver::CheckIfSupport1GHugePage: the driver's refusal is logged only; rtMalloc sets the
        # thread's last error
        raise silent(E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
    store(out, _allocate_device(ctx.device, rounded, n, api))
    return E.ACL_SUCCESS


def check_capacity(dev: Device, rounded: int, api: str, asked: str = "requested", why: str = "") -> None:
    """Refuse ``rounded`` more bytes than the device's simulated pool has free (107002 with an
    aclnn_py note; the caller holds RT.lock). ``why`` is said after the free bytes."""
    if dev.used + rounded > dev.capacity:
        raise ApiError(
            E.ACL_ERROR_RT_MEMORY_ALLOCATION,
            emu(
                f"{api}: {rounded} bytes {asked} on device {dev.ident}, {dev.capacity - dev.used} of "
                f"{dev.capacity} bytes free{why} (ACLNN_PY_DEVICE_MEMORY sets the simulated capacity)."
            ),
        )


def _allocate_device(dev: Device, rounded: int, n: int, api: str) -> int:
    """Take ``rounded`` bytes of the device's pool (``n`` requested); returns the address."""
    with RT.lock:
        check_capacity(dev, rounded, api)
        with host_backing(api, rounded, " of simulated device memory"):
            alloc = SPACE.allocate(rounded, n, "device", dev.ident, api, call_site())
        dev.used += rounded
        _PEAK[dev.ident] = max(_PEAK.get(dev.ident, 0), dev.used)
    sanitizer.on_alloc(alloc)
    return alloc.start


_PEAK: dict[int, int] = {}  # the most device memory each device's allocations held at once
on_reset(_PEAK.clear)


def peak_used(device: int) -> int:
    """The most bytes the device's aclrtMalloc-family allocations have held at once."""
    return _PEAK.get(device, 0)


@rt_api
def aclrtMalloc(devPtr: object, size: int, policy: int) -> int:
    """Allocate device memory (not zeroed; rounded as CANN rounds it)."""
    return _device_malloc(devPtr, size, policy, "aclMallocMemInner", "aclrtMalloc", aligned32=False)


@rt_api
def aclrtMallocCached(devPtr: object, size: int, policy: int) -> int:
    """As aclrtMalloc (the emulator has no cache to keep coherent)."""
    return _device_malloc(devPtr, size, policy, "aclrtMallocCached", "aclrtMallocCached", aligned32=False)


@rt_api
def aclrtMallocAlign32(devPtr: object, size: int, policy: int) -> int:
    """Allocate device memory rounded up to 32 bytes, without the extra padding."""
    return _device_malloc(devPtr, size, policy, "aclMallocMemInner", "aclrtMallocAlign32", aligned32=True)


def allocate_pinned(n: int, api: str, recorded_as: str, what: str = "", rounded: int | None = None) -> Allocation:
    """Take ``n`` bytes of pinned host memory (aclrtMallocHost, mbufs), ``rounded`` of them
    reserved (default ``n``): refused with 107002 and an aclnn_py note when the simulated pool
    (one for the whole host) has too few bytes free, or when the host itself cannot back them.
    ``what`` qualifies the bytes in the note."""
    size = n if rounded is None else rounded
    with RT.lock:
        if RT.host_used + size > RT.capacity:
            raise ApiError(
                E.ACL_ERROR_RT_MEMORY_ALLOCATION,
                emu(
                    f"{api}: {n} bytes{what} requested, {RT.capacity - RT.host_used} of "
                    f"{RT.capacity} bytes available (ACLNN_PY_DEVICE_MEMORY sets the simulated capacity)."
                ),
            )
        with host_backing(api, size):
            alloc = SPACE.allocate(size, n, "host", 0, recorded_as, call_site())
        RT.host_used += size
    return alloc


def _malloc_host(hostPtr: object, size: object, api: str, name: str, rt_fn: str) -> int:
    out = out_arg(hostPtr, api, name)
    n = int_arg(size, "size", 0, UINT64_MAX)
    if n == 0:
        raise ApiError(PARAM, acl_value(api, 0, "size", "must be greater than 0"))
    need_context(rt_fn)
    # ApiImpl::HostMalloc / HostMallocWithCfg hand the driver the size rounded up to 32 bytes
    alloc = allocate_pinned(n, api, "aclrtMallocHost", " of pinned memory", rounded=(n + 31) // 32 * 32)
    sanitizer.on_alloc(alloc, initialised=True)
    store(out, alloc.start)
    return E.ACL_SUCCESS


@rt_api
def aclrtMallocHost(hostPtr: object, size: int) -> int:
    """Allocate pinned host memory (needs a current context, as in CANN); the pointer is an int
    that the memcpy functions accept."""
    return _malloc_host(hostPtr, size, "aclrtMallocHost", "hostPtr", "rtMallocHost")


@rt_api
def aclrtMallocHostWithCfg(ptr: object, size: int, cfg: object) -> int:
    """aclrtMallocHost with a configuration (its attributes change nothing here)."""
    return _malloc_host(ptr, size, "aclrtMallocHostWithCfg", "ptr", "rtsMallocHost")


@rt_api
def aclrtMallocWithCfg(devPtr: object, size: int, policy: int, cfg: object) -> int:
    """Device memory through ``aclrtMallocInnerWithCfg`` (the name CANN's reports give): a
    ``cfg`` with attributes counted but not given is refused; the size is rounded up to 32 bytes
    (the ACL layer adds no padding here; the attributes change nothing in the emulator)."""
    func = "aclrtMallocInnerWithCfg"
    out_arg(devPtr, func, "devPtr")
    if cfg is not None:
        num = getattr(cfg, "numAttrs", 0)
        if num and getattr(cfg, "attrs", None) is None:
            raise ApiError(
                PARAM,
                acl_reason(func, num, "cfg->numAttrs", "cfg->attrs must not be null when cfg->numAttrs is not 0"),
            )
    return _device_malloc(devPtr, size, policy, func, "aclrtMallocWithCfg", aligned32=True)


# how the memory behind a mapped range is given back, by the API that made the range
_RELEASE_MAPPED = {
    "aclrtMapMem": "aclrtUnmapMem",
    "aclrtHostRegister": "aclrtHostUnregister",
    "aclrtHostRegisterV2": "aclrtHostUnregister",
    "aclrtIpcMemImportByKey": "aclrtIpcMemClose",
}


def free_memory(ptr_arg: object, name: str, kind: str, api: str) -> int:
    maker = "aclrtMalloc" if kind == "device" else "aclrtMallocHost"
    ptr = as_pointer(ptr_arg)
    if ptr is None:
        raise ApiError(PARAM, acl_null(api, name))
    if ptr < 0:
        raise ApiError(
            PARAM, emu(f"{api}: {name} must be a pointer (the int {maker} returned), got {describe(ptr_arg)}.")
        )
    alloc = SPACE.find(ptr)
    if alloc is not None and alloc.kind == "mapped":
        raise ApiError(
            RT_PARAM,
            emu(
                f"{api}: {alloc.describe()}: that memory is released with "
                f"{_RELEASE_MAPPED.get(alloc.alloc_api, 'its own API')}, not {api}."
            ),
        )
    if alloc is not None and alloc.kind != kind:
        if kind == "host":  # rtFreeHost asks the driver where the address lives
            raise ApiError(
                RT_PARAM,
                (
                    "EE1011",
                    "Host memory release failed. Value "
                    f"{'MEMORY_LOC_MANAGED(3)' if isinstance(alloc, ManagedAllocation) else 'MEMORY_LOC_DEVICE(1)'}"
                    " for parameter hostPtr locationType is invalid. Reason: The specified address must be a host "
                    "address.",
                ),
                fb_invalid("rtFreeHost"),
            )
        if alloc.start == ptr:
            raise ApiError(
                RT_PARAM,
                emu(f"{api}: 0x{ptr:x} is pinned host memory ({alloc.describe()}); free it with aclrtFreeHost."),
            )
    sanitizer.check_free(alloc, ptr, api)
    try:
        freed = SPACE.free(ptr, api, call_site())
    except MemoryFault as fault:
        raise ApiError(
            RT_PARAM, emu(f"{api}: {fault.message}; pass a pointer that {maker} returned, and free it once.")
        ) from None
    with RT.lock:
        if kind == "device":
            RT.device(freed.device).used -= freed.size
        else:
            RT.host_used -= freed.size
    return E.ACL_SUCCESS


@rt_api
def aclrtFree(devPtr: object) -> int:
    """Free device memory at once (queued work that still uses it is not waited for). No current
    context is needed."""
    return free_memory(devPtr, "devPtr", "device", "aclrtFree")


@rt_api
def aclrtFreeHost(hostPtr: object) -> int:
    """Free pinned host memory made by aclrtMallocHost. No current context is needed."""
    return free_memory(hostPtr, "hostPtr", "host", "aclrtFreeHost")


# ACL_DDR_MEM, ACL_DDR_MEM_HUGE, ACL_DDR_MEM_NORMAL, ACL_DDR_MEM_P2P_HUGE, ACL_DDR_MEM_P2P_NORMAL
_DDR_ATTRS = (0, 2, 3, 6, 7)


@rt_api
def aclrtGetMemInfo(attr: int, free: object, total: object) -> int:
    """Free and total bytes of the current device's memory of that kind. The emulated device has
    one pool (``ACLNN_PY_DEVICE_MEMORY``) of the SoC's kind of memory: HBM on Ascend910B,
    Ascend910_93, Ascend950 and Ascend910, whose DDR attributes therefore report 0 free of 0;
    DDR on Ascend310P, where the runtime maps every HBM attribute to DDR
    (``memInfoMapType = MAP_WHEN_GET_INFO``). The pool serves every page size, so the huge,
    normal, 1 GB and P2P views of that memory all report the pool."""
    a = int_arg(attr, "attr", -(2**31), 2**31 - 1)
    out_free = out_arg(free, "aclrtGetMemInfo", "free")
    out_total = out_arg(total, "aclrtGetMemInfo", "total")
    if not 0 <= a <= 17:
        raise ApiError(
            E.ACL_ERROR_RT_INVALID_MEMORY_TYPE,
            rt_value(
                "Obtaining the memory information of the current device", f"UNKNOWN({a})", "memInfoType", "[0, 17]"
            ),
            fb_inner("rtMemGetInfoEx", "invalid memory type"),
        )
    ctx = RT.current_context()
    if ctx is None:  # ApiImpl::MemGetInfoEx: NULL_PTR_RETURN_MSG, not the context validation
        raise ApiError(
            E.ACL_ERROR_RT_CONTEXT_NULL,
            rt_inner("Check param failed, curCtx can not be null.", "MemGetInfoEx", "api_impl.cc", 3297),
            fb_no_context("rtMemGetInfoEx"),
        )
    dev = ctx.device
    family = _soc.current().family
    if a in _HUGE1G_ATTRS and not _rt_features.has("RT_FEATURE_MEM_1G_HUGE_PAGE") and family != "Ascend310P":
        # NpuDriver::MemGetInfoEx: CheckIfSupport1GHugePage (Ascend310P maps HBM to DDR first)
        raise ApiError(E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, fb_unsupported("rtMemGetInfoEx"))
    if a in _DDR_ATTRS and family != "Ascend310P":
        store(out_free, 0)
        store(out_total, 0)
    else:
        store(out_free, dev.capacity - dev.used)
        store(out_total, dev.capacity)
    return E.ACL_SUCCESS


# ---------------------------------------------------------------------------------------------
# DVPP memory (acl/ops/acl_dvpp.h)
# ---------------------------------------------------------------------------------------------


@rt_api
def acldvppMalloc(devPtr: object, size: int) -> int:
    """Device memory for media processing: ``ALIGN_UP(size, 32) + 32`` bytes of the device's pool
    (the DVPP library's rounding). Needs a current context; free it with acldvppFree."""
    out = out_arg(devPtr, "acldvppMalloc", "devPtr")
    n = int_arg(size, "size", 0, UINT64_MAX)
    if n + 64 > UINT64_MAX:  # the overflow check of ACL's GetAlignedSize, reported as an inner error
        raise ApiError(PARAM, acl_inner(f"[Check][Size]size too large: {n}"))
    rounded = (n + 64 - 1) // 32 * 32
    ctx = need_context("rtDvppMallocWithFlag")
    store(out, _allocate_device(ctx.device, rounded, n, "acldvppMalloc"))
    return E.ACL_SUCCESS


@rt_api
def acldvppFree(devPtr: object) -> int:
    """Free memory of acldvppMalloc (no current context needed). An address that is not device
    memory gives 107000 with the runtime's EE1011."""
    ptr = as_pointer(devPtr)
    if ptr is None:
        raise ApiError(PARAM, acl_null("acldvppFree", "devPtr"))
    alloc = SPACE.find(ptr)
    if alloc is not None and alloc.kind == "host":
        raise ApiError(
            RT_PARAM,
            (
                "EE1011",
                "Releasing DVPP device memory failed. Value MEMORY_LOC_HOST(0) for parameter devPtr locationType is "
                "invalid. Reason: The specified address must be a device address.",
            ),
            fb_invalid("rtDvppFree"),
        )
    return free_memory(devPtr, "devPtr", "device", "acldvppFree")


# ---------------------------------------------------------------------------------------------
# stream memory operations: aclrtValueWrite / aclrtValueWait (acl_rt.h:3804-3816)
# ---------------------------------------------------------------------------------------------

_WRITE_DESC = "Writing data to the specified memory"
_WAIT_DESC = "Unblocking the data in the specified memory when the data meets certain conditions"
_MASK64 = 2**64 - 1


def _value_condition(flag: int, value: int) -> Callable[[int], bool]:
    """ACL_STREAM_WAIT_VALUE_GEQ/EQ/AND/NOR on the 64-bit word (docs of aclrtValueWait)."""
    if flag == 0:  # GEQ: (int64_t)(*devAddr - value) >= 0
        return lambda cur: ((cur - value) & _MASK64) < 2**63
    if flag == 1:
        return lambda cur: cur == value
    if flag == 2:
        return lambda cur: (cur & value) != 0
    return lambda cur: (~(cur | value) & _MASK64) != 0


def _value_op(api: str, devAddr: object, value: object, flag: object, stream: object) -> tuple[int, int, int, Stream]:
    """The checks aclrtValueWrite and aclrtValueWait share, in CANN's order."""
    write = api == "aclrtValueWrite"
    rt_fn, desc = ("rtsValueWrite", _WRITE_DESC) if write else ("rtsValueWait", _WAIT_DESC)
    ptr = as_pointer(devAddr)
    if ptr is None:
        raise ApiError(PARAM, acl_null(api, "devAddr"))
    v = int_arg(value, "value", 0, _MASK64)
    f = int_arg(flag, "flag", 0, 2**32 - 1)
    if not _rt_features.has("RT_FEATURE_TASK_VALUE_WAIT"):
        raise silent(E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)  # a WARN only, but the last error is set
    st = stream_handle(stream, rt_fn)
    if write and f != 0:
        raise ApiError(RT_PARAM, rt_value(desc, f, "flag", "0"), fb_invalid(rt_fn))
    if not write and f >= 4:
        raise ApiError(RT_PARAM, rt_value(desc, f, "flag", "[0, 4)"), fb_invalid(rt_fn))
    if ptr < 0:
        raise ApiError(PARAM, emu(f"{api}: devAddr is {describe(devAddr)}; pass a device pointer (from aclrtMalloc)."))
    alloc = SPACE.find(ptr)
    if alloc is None:
        raise ApiError(
            RT_PARAM,
            emu(f"{api}: devAddr 0x{ptr:x} is not in live memory aclnn_py knows; pass a pointer from aclrtMalloc."),
        )
    if alloc.kind == "host":
        raise ApiError(
            RT_PARAM,
            rt_value(desc, "MEMORY_LOC_HOST(0)", "attributes.location.type", "MEMORY_LOC_DEVICE(1)"),
            fb_invalid(rt_fn),
        )
    ctx = need_context(rt_fn)
    target = st or ctx.default_stream
    own_stream(target, ctx, desc, rt_fn)
    check_stopped(ctx)
    try:
        SPACE.check(ptr, 8, "write" if write else "read", api)  # the tasks work on 64-bit words
    except MemoryFault as fault:
        raise ApiError(RT_PARAM, emu(f"{api}: {fault.message}; the word at devAddr is 8 bytes.")) from None
    return ptr, v, f, target


def _read_word(ptr: int, api: str) -> int | None:
    try:
        return int.from_bytes(SPACE.read(ptr, 8, api).tobytes(), "little")
    except MemoryFault:
        return None


@rt_api
def aclrtValueWrite(devAddr: object, value: int, flag: int, stream: object) -> int:
    """Queue a write of the 64-bit ``value`` at ``devAddr`` on the stream (flag must be 0;
    Ascend910B, Ascend910_93 and Ascend950 only)."""
    api = "aclrtValueWrite"
    ptr, v, _, target = _value_op(api, devAddr, value, flag, stream)

    def run() -> None:
        try:
            SPACE.write(ptr, v.to_bytes(8, "little"), api)
        except MemoryFault as fault:
            raise TaskFault(E.ACL_ERROR_RT_SYS_DMA, f"{api} task failed: {fault.message}") from None
        sanitizer.after_write(ptr, 8, api)

    task = Task(target, f"{api}(0x{ptr:x}, {v})", run)
    sanitizer.track(task, [], [(ptr, ptr + 8)])  # the host must not read or reuse the word before it is ordered
    RT.policy.submit(target, task)
    return E.ACL_SUCCESS


@rt_api
def aclrtValueWait(devAddr: object, value: int, flag: int, stream: object) -> int:
    """Queue a wait on the stream: later work of the stream runs once the 64-bit word at
    ``devAddr`` meets ``flag`` against ``value`` (ACL_STREAM_WAIT_VALUE_GEQ, _EQ, _AND, _NOR) —
    for instance after another stream, perhaps submitted later from another thread, writes it."""
    api = "aclrtValueWait"
    ptr, v, f, target = _value_op(api, devAddr, value, flag, stream)
    cond = _value_condition(f, v)

    def met() -> bool:
        cur = _read_word(ptr, api)
        return cur is None or cond(cur)  # a freed word: the task runs and fails

    policy = RT.policy

    def run() -> None:
        wait_until(met, policy, target, f"{api}(0x{ptr:x}, {v}, flag {f})", E.ACL_ERROR_RT_STREAM_SYNC_TIMEOUT)
        if _read_word(ptr, api) is None:
            raise TaskFault(E.ACL_ERROR_RT_SYS_DMA, f"{api} task failed: 0x{ptr:x} is no longer live memory")

    policy.submit(target, Task(target, f"{api}(0x{ptr:x}, {v}, flag {f})", run, ready=met))
    return E.ACL_SUCCESS


# ---------------------------------------------------------------------------------------------
# pointer attributes, peer access
# ---------------------------------------------------------------------------------------------


class aclrtPtrAttributes:
    """``aclrtPtrAttributes``: where a pointer's memory lives, and its page size."""

    __slots__ = ("location", "pageSize")

    def __init__(self, location: aclrtMemLocation, pageSize: int) -> None:
        self.location = location
        self.pageSize = pageSize

    def __repr__(self) -> str:
        return f"aclrtPtrAttributes(location={self.location!r}, pageSize={self.pageSize})"


# ACL_MEM_LOCATION_TYPE_HOST / _DEVICE / _UNREGISTERED (acl_rt.h:314-320)
_LOC_HOST, _LOC_DEVICE, _LOC_UNREGISTERED, _LOC_MANAGED = 0, 1, 2, 3
_HUGE_PAGE, _PAGE = 2 * 1024 * 1024, 4096


@rt_api
def aclrtPointerGetAttributes(ptr: object, attributes: object) -> int:
    """Where ``ptr`` points: device memory (its device, 2 MiB pages), pinned host memory (host,
    4 KiB pages) or memory the runtime never registered."""
    api = "aclrtPointerGetAttributes"
    p = as_pointer(ptr)
    if p is None:
        raise ApiError(PARAM, acl_null(api, "ptr"))
    out = out_arg(attributes, api, "attributes", numeric=False)
    if p < 0:
        raise ApiError(PARAM, emu(f"{api}: ptr is {describe(ptr)}; pass a pointer (an int)."))
    alloc = SPACE.find(p)
    if alloc is None:
        attrs = aclrtPtrAttributes(aclrtMemLocation(0, _LOC_UNREGISTERED), _PAGE)
    elif isinstance(alloc, ManagedAllocation):  # the driver's UVM memory: MANAGED, with its device
        attrs = aclrtPtrAttributes(aclrtMemLocation(alloc.device, _LOC_MANAGED), _HUGE_PAGE)
    elif alloc.kind in ("device", "mapped"):
        attrs = aclrtPtrAttributes(aclrtMemLocation(alloc.device, _LOC_DEVICE), _HUGE_PAGE)
    else:
        attrs = aclrtPtrAttributes(aclrtMemLocation(0, _LOC_HOST), _PAGE)
    store(out, attrs)
    return E.ACL_SUCCESS


def _same_device(api: str, dev: int, peer: int) -> ApiError:
    return ApiError(PARAM, acl_reason(api, dev, "deviceId", f"deviceId {dev} cannot be equal to peerDeviceId {peer}"))


def _peer_exists(api: str, name: str, dev: int) -> None:
    """The driver's answer for a device id it does not have (the emulator's own message)."""
    if not 0 <= dev < RT.device_count:
        raise ApiError(
            E.ACL_ERROR_RT_INVALID_DEVICEID,
            emu(f"{api}: {name} {dev} does not exist; the emulator offers devices 0 to {RT.device_count - 1}."),
        )


_P2P_DESC = "Checking whether data exchange is supported between devices"


@rt_api
def aclrtDeviceCanAccessPeer(canAccessPeer: object, deviceId: int, peerDeviceId: int) -> int:
    """1: every two distinct emulated devices can exchange data (all five SoCs have
    RT_FEATURE_DEVICE_P2P)."""
    api, rt_fn = "aclrtDeviceCanAccessPeer", "rtDeviceCanAccessPeer"
    dev = int_arg(deviceId, "deviceId", -(2**31), 2**31 - 1)
    peer = int_arg(peerDeviceId, "peerDeviceId", -(2**31), 2**31 - 1)
    if dev == peer:
        raise _same_device(api, dev, peer)
    _peer_exists(api, "peerDeviceId", peer)
    if not 0 <= dev < 64:
        raise ApiError(RT_PARAM, rt_value(_P2P_DESC, dev % 2**32, "realDeviceId", "[0, 64)"), fb_invalid(rt_fn))
    if canAccessPeer is None:
        raise ApiError(
            RT_PARAM,
            ("EE1004", f"{_P2P_DESC} failed because canAccessPeer cannot be a NULL pointer."),
            fb_invalid(rt_fn),
        )
    out = out_arg(canAccessPeer, api, "canAccessPeer")
    _peer_exists(api, "deviceId", dev)
    store(out, 1)
    return E.ACL_SUCCESS


def _current_device() -> int | None:
    """``rtGetDevice``: the current device, None (a silent 107002) without one."""
    ctx = RT.thread_context()
    if ctx is not None:
        return int(ctx.device.ident)
    if RT.initialized and RT.default_device is not None:
        return int(RT.default_device)
    return None


@rt_api
def aclrtDeviceEnablePeerAccess(peerDeviceId: int, flags: int) -> int:
    """Let the current device reach ``peerDeviceId``'s memory (flags must be 0)."""
    api = "aclrtDeviceEnablePeerAccess"
    peer = int_arg(peerDeviceId, "peerDeviceId", -(2**31), 2**31 - 1)
    f = int_arg(flags, "flags", 0, 2**32 - 1)
    if f != 0:
        raise ApiError(
            E.ACL_ERROR_FEATURE_UNSUPPORTED,
            acl_reason(api, f, "flags", "flags is a reserved parameter and must be 0"),
        )
    cur = _current_device()
    if cur is None:
        return E.ACL_ERROR_RT_CONTEXT_NULL
    if cur == peer:
        raise _same_device(api, cur, peer)
    _peer_exists(api, "peerDeviceId", peer)
    RT.peer_access.add((cur, peer))
    return E.ACL_SUCCESS


@rt_api
def aclrtDeviceDisablePeerAccess(peerDeviceId: int) -> int:
    """Undo aclrtDeviceEnablePeerAccess for the current device."""
    api = "aclrtDeviceDisablePeerAccess"
    peer = int_arg(peerDeviceId, "peerDeviceId", -(2**31), 2**31 - 1)
    cur = _current_device()
    if cur is None:
        return E.ACL_ERROR_RT_CONTEXT_NULL
    if cur == peer:
        raise _same_device(api, cur, peer)
    _peer_exists(api, "peerDeviceId", peer)
    RT.peer_access.discard((cur, peer))
    return E.ACL_SUCCESS


__all__ = [
    "acldvppFree",
    "acldvppMalloc",
    "aclrtDeviceCanAccessPeer",
    "aclrtDeviceDisablePeerAccess",
    "aclrtDeviceEnablePeerAccess",
    "aclrtFree",
    "aclrtFreeHost",
    "aclrtGetMemInfo",
    "aclrtMalloc",
    "aclrtMallocAlign32",
    "aclrtMallocCached",
    "aclrtMallocHost",
    "aclrtMallocHostWithCfg",
    "aclrtMallocWithCfg",
    "aclrtPointerGetAttributes",
    "aclrtPtrAttributes",
    "aclrtValueWait",
    "aclrtValueWrite",
]
