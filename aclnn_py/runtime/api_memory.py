"""The memory chapter of ``acl_rt.h``: allocation, release, copies, fills, memory information,
DVPP memory and the stream memory operations (aclrtValueWrite / aclrtValueWait).
"""

from __future__ import annotations

from .. import soc as _soc
from .._capi import UINT64_MAX, ApiError, as_pointer, describe
from .._ref import store
from . import sanitizer
from ._checks import (
    PARAM,
    RT_PARAM,
    E,
    acl_inner,
    acl_null,
    acl_value,
    emu,
    fb_inner,
    fb_invalid,
    fb_no_context,
    int_arg,
    need_context,
    out_arg,
    rt_api,
    rt_inner,
    rt_value,
)
from .device import RT
from .memory import SPACE, MemoryFault, call_site

# ---------------------------------------------------------------------------------------------
# memory
# ---------------------------------------------------------------------------------------------

_HUGE1G = (6, 7)


def malloc_size(size: int, policy: int) -> int:
    """Bytes aclrtMalloc reserves: ``((size + 32 + padding - 1) / 32) * 32`` with the SoC's padding
    (32, i.e. ALIGN_UP(size, 32) + 32; 0 on Ascend950); no padding for the 1 GB huge-page policies."""
    padding = 0 if (policy & 0xFF) in _HUGE1G else _soc.current().malloc_padding
    return (size + 32 + padding - 1) // 32 * 32


def _device_malloc(devPtr: object, size: object, policy: object, func: str, api: str, aligned32: bool) -> int:
    """``aclMallocMemInner`` / ``aclrtMallocCachedImpl``: ``func`` is the name CANN's reports give."""
    out = out_arg(devPtr, func, "devPtr")
    n = int_arg(size, "size", 0, UINT64_MAX)
    if n == 0:
        raise ApiError(PARAM, acl_value(func, 0, "size", "must be greater than 0"))
    pol = int_arg(policy, "policy", 0, 2**32 - 1)
    padding = 0 if aligned32 or (pol & 0xFF) in _HUGE1G else _soc.current().malloc_padding
    if n + 32 + padding > UINT64_MAX:  # GetAlignedAndPaddingSize: size + appendSize overflows
        raise ApiError(PARAM, acl_inner(f"[Check][Size]size too large: {n}"))
    rounded = (n + 31) // 32 * 32 if aligned32 else malloc_size(n, pol)
    ctx = need_context()  # rtMalloc adds no message of its own
    dev = ctx.device
    with RT.lock:
        if dev.used + rounded > dev.capacity:
            raise ApiError(
                E.ACL_ERROR_RT_MEMORY_ALLOCATION,
                emu(
                    f"{api}: {rounded} bytes requested on device {dev.ident}, {dev.capacity - dev.used} of "
                    f"{dev.capacity} bytes free (ACLNN_PY_DEVICE_MEMORY sets the simulated capacity)."
                ),
            )
        try:
            alloc = SPACE.allocate(rounded, n, "device", dev.ident, api, call_site())
        except MemoryError:
            raise ApiError(
                E.ACL_ERROR_RT_MEMORY_ALLOCATION,
                emu(f"{api}: the host cannot back {rounded} bytes of simulated device memory."),
            ) from None
        dev.used += rounded
    sanitizer.on_alloc(alloc)
    store(out, alloc.start)
    return E.ACL_SUCCESS


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


@rt_api
def aclrtMallocHost(hostPtr: object, size: int) -> int:
    """Allocate pinned host memory (needs a current context, as in CANN); the pointer is an int
    that the memcpy functions accept."""
    out = out_arg(hostPtr, "aclrtMallocHost", "hostPtr")
    n = int_arg(size, "size", 0, UINT64_MAX)
    if n == 0:
        raise ApiError(PARAM, acl_value("aclrtMallocHost", 0, "size", "must be greater than 0"))
    need_context("rtMallocHost")
    with RT.lock:
        if RT.host_used + n > RT.capacity:
            raise ApiError(
                E.ACL_ERROR_RT_MEMORY_ALLOCATION,
                emu(
                    f"aclrtMallocHost: {n} bytes of pinned memory requested, {RT.capacity - RT.host_used} of "
                    f"{RT.capacity} bytes available (ACLNN_PY_DEVICE_MEMORY sets the simulated capacity)."
                ),
            )
        try:
            alloc = SPACE.allocate(n, n, "host", 0, "aclrtMallocHost", call_site())
        except MemoryError:
            raise ApiError(
                E.ACL_ERROR_RT_MEMORY_ALLOCATION, emu(f"aclrtMallocHost: the host cannot back {n} bytes.")
            ) from None
        RT.host_used += n
    sanitizer.on_alloc(alloc, initialised=True)
    store(out, alloc.start)
    return E.ACL_SUCCESS


def _free(ptr_arg: object, name: str, kind: str, api: str) -> int:
    maker = "aclrtMalloc" if kind == "device" else "aclrtMallocHost"
    ptr = as_pointer(ptr_arg)
    if ptr is None:
        raise ApiError(PARAM, acl_null(api, name))
    if ptr < 0:
        raise ApiError(
            PARAM, emu(f"{api}: {name} must be a pointer (the int {maker} returned), got {describe(ptr_arg)}.")
        )
    alloc = SPACE.find(ptr)
    if alloc is not None and alloc.kind != kind:
        if kind == "host":  # rtFreeHost asks the driver where the address lives
            raise ApiError(
                RT_PARAM,
                (
                    "EE1011",
                    "Host memory release failed. Value MEMORY_LOC_DEVICE(1) for parameter hostPtr locationType is "
                    "invalid. Reason: The specified address must be a host address.",
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
    return _free(devPtr, "devPtr", "device", "aclrtFree")


@rt_api
def aclrtFreeHost(hostPtr: object) -> int:
    """Free pinned host memory made by aclrtMallocHost. No current context is needed."""
    return _free(hostPtr, "hostPtr", "host", "aclrtFreeHost")


@rt_api
def aclrtGetMemInfo(attr: int, free: object, total: object) -> int:
    """Free and total bytes of the current device (every attribute reports the same pool)."""
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
    store(out_free, dev.capacity - dev.used)
    store(out_total, dev.capacity)
    return E.ACL_SUCCESS
