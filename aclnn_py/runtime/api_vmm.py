"""Virtual memory management of ``acl_rt.h``'s memory chapter: reserve a virtual range, allocate
physical memory as a handle and map the one onto the other, with the tables the other virtual
memory modules share (the queries and access rights are in api_vmm_access, the shareable handles
in api_vmm_share).

The mapping is real: a mapped range is an allocation of the simulated memory whose bytes *are* the
physical allocation's (:class:`memory.MappedAllocation`), so two ranges mapped onto one handle alias
each other, and an address of a reserved range with nothing mapped is refused by the bounds checks
of every copy and kernel, as unmapped memory is on the device. The ACL layer's checks are CANN's
(``src/acl/aclrt_impl/memory.cpp``, in its order, codes and texts), then the runtime decorator's
(``api_error.cc``); what the driver would refuse (an address outside any reservation, a size
other than the handle's ...) is the emulator's own report with CANN's code.
"""

from __future__ import annotations

import ctypes
import itertools
from dataclasses import dataclass, field

from .._capi import UINT64_MAX, ApiError, as_pointer, describe
from .._ref import store
from . import _rt_features, sanitizer
from ._checks import (
    PARAM,
    RT_PARAM,
    E,
    acl_null,
    acl_reason,
    acl_value,
    check_device_valid,
    emu,
    host_backing,
    int_arg,
    out_arg,
    rt_api,
    rt_inner,
    unrecorded,
)
from ._structs import (
    aclrtMemLocation,
    aclrtPhysicalMemProp,
    prop_in,
)
from .device import RT
from .memory import SPACE, Allocation, MappedAllocation, MemoryFault, call_site, called_from_c, on_reset

# aclrtMemLocationType, aclrtMemAttr, aclrtMemAccessFlags (acl_rt.h)
LOC_HOST, LOC_DEVICE, LOC_UNREGISTERED, LOC_MANAGED, LOC_HOST_NUMA = 0, 1, 2, 3, 4
_MEM_ATTR_NAMES = (
    "DDR_MEM", "HBM_MEM", "DDR_MEM_HUGE", "DDR_MEM_NORMAL", "HBM_MEM_HUGE", "HBM_MEM_NORMAL", "DDR_MEM_P2P_HUGE",
    "DDR_MEM_P2P_NORMAL", "HBM_MEM_P2P_HUGE", "HBM_MEM_P2P_NORMAL", "HBM_MEM_HUGE1G", "HBM_MEM_P2P_HUGE1G",
    "MEM_NORMAL", "MEM_HUGE", "MEM_HUGE1G", "MEM_P2P_NORMAL", "MEM_P2P_HUGE", "MEM_P2P_HUGE1G",
)  # fmt: skip
_LOC_NAMES = ("MEM_LOCATION_TYPE_HOST", "MEM_LOCATION_TYPE_DEVICE", "MEM_LOCATION_TYPE_UNREGISTERED",
              "MEM_LOCATION_TYPE_MANAGED", "MEM_LOCATION_TYPE_HOST_NUMA")  # fmt: skip
ACCESS_NONE, ACCESS_READ, ACCESS_READWRITE = 0x0, 0x1, 0x3

# page types and memory types of the driver (aclrtMemPgType, aclrtMemType)
_NORMAL, _HUGE, _HUGE1G = 0, 1, 2
_HBM, _DDR, _P2P_HBM, _P2P_DDR = 0, 1, 2, 3
_PAGE_BYTES = {_NORMAL: 4096, _HUGE: 2 << 20, _HUGE1G: 1 << 30}


def attr_desc(attr: int) -> str:
    """``GetMemAttrDesc``: ``HBM_MEM_HUGE(4)``, ``UNKNOWN(99)``."""
    return f"{_MEM_ATTR_NAMES[attr]}({attr})" if 0 <= attr < len(_MEM_ATTR_NAMES) else f"UNKNOWN({attr})"


def loc_desc(t: int) -> str:
    """``GetMemLocationTypeDesc``."""
    return f"{_LOC_NAMES[t]}({t})" if 0 <= t < len(_LOC_NAMES) else f"UNKNOWN({t})"


def _page_and_type(attr: int, host: bool, dev: bool) -> tuple[int, int] | None:
    """``memAttrHandlers`` of memory.cpp: (page type, memory type) of a memAttr, None if the
    attribute has no handler; an attribute a handler leaves unset stays (NORMAL, HBM), as the
    zeroed ``rtDrvMemProp_t`` does."""
    table = {
        4: (_HUGE, _HBM), 5: (_NORMAL, _HBM), 10: (_HUGE1G, _HBM),
        2: (_HUGE, _DDR) if host else None, 3: (_NORMAL, _DDR) if host else None,
        6: (_HUGE, _P2P_DDR) if host else None, 7: (_NORMAL, _P2P_DDR) if host else None,
        12: (_NORMAL, _DDR) if host else (_NORMAL, _HBM) if dev else None,
        13: (_HUGE, _DDR) if host else (_HUGE, _HBM) if dev else None,
        14: (_HUGE1G, _DDR) if host else (_HUGE1G, _HBM) if dev else None,
        15: (_NORMAL, _P2P_DDR) if host else (_NORMAL, _P2P_HBM) if dev else None,
        16: (_HUGE, _P2P_DDR) if host else (_HUGE, _P2P_HBM) if dev else None,
        17: (_HUGE1G, _P2P_DDR) if host else (_HUGE1G, _P2P_HBM) if dev else None,
    }  # fmt: skip
    if attr not in table:
        return None
    return table[attr] or (_NORMAL, _HBM)


# memory.cpp's ``mapping``: (page type, memory type, host?) -> the memAttr a handle reports
ATTR_OF = {
    (_HUGE, _HBM, True): 4, (_NORMAL, _HBM, True): 5, (_HUGE1G, _HBM, True): 10, (_NORMAL, _P2P_DDR, True): 7,
    (_NORMAL, _DDR, True): 12, (_HUGE, _DDR, True): 13, (_HUGE1G, _DDR, True): 14, (_HUGE, _P2P_DDR, True): 16,
    (_HUGE1G, _P2P_DDR, True): 17, (_NORMAL, _HBM, False): 5, (_HUGE, _HBM, False): 4, (_HUGE1G, _HBM, False): 10,
    (_NORMAL, _DDR, False): 12, (_HUGE, _DDR, False): 13, (_HUGE1G, _DDR, False): 14, (_NORMAL, _P2P_HBM, False): 15,
    (_HUGE, _P2P_HBM, False): 16, (_HUGE1G, _P2P_HBM, False): 17,
}  # fmt: skip


def check_mem_attr(func: str, prop: aclrtPhysicalMemProp) -> tuple[int, int]:
    """The memAttr checks aclrtMallocPhysical and aclrtMemGetAllocationGranularity share."""
    t, attr = int(prop.location.type), int(prop.memAttr)
    dev = t == LOC_DEVICE
    if dev and attr in (2, 3, 6, 7):
        raise ApiError(
            PARAM,
            acl_value(func, attr_desc(attr), "memAttr", "MEM_LOCATION_TYPE_HOST(0) or MEM_LOCATION_TYPE_HOST_NUMA(4)"),
        )
    kinds = _page_and_type(attr, t in (LOC_HOST, LOC_HOST_NUMA), dev)
    if kinds is None:
        raise ApiError(
            PARAM,
            acl_reason(func, attr_desc(attr), "memAttr", "The current physical memory attribute is not supported"),
        )
    return kinds


# ---------------------------------------------------------------------------------------------
# the emulator's tables
# ---------------------------------------------------------------------------------------------


@dataclass(eq=False)
class Physical:
    """One physical allocation (aclrtMallocPhysical) and what refers to it."""

    backing: Allocation  # storage with canaries, never addressable itself
    size: int  # the size the caller asked for
    location: aclrtMemLocation
    page: int
    mem_type: int
    reserve: int
    handles: set[int] = field(default_factory=set)  # handles naming it (the first, imported ones)
    mappings: set[int] = field(default_factory=set)  # start addresses of the ranges mapped onto it
    route: int | None = None  # the link aclrtMemMapSetLink advised for its mappings (None: the default)


@dataclass(eq=False)
class Reservation:
    start: int
    size: int
    device: int
    maps: dict[int, MappedAllocation] = field(default_factory=dict)
    access: dict[int, dict[tuple[int, int], int]] = field(default_factory=dict)  # map start -> location -> flags
    hidden: set[int] = field(default_factory=set)  # starts of aclrtMemMapNoAccess ranges not yet accessible


@dataclass(eq=False)
class Shareable:
    """A handle exported for other processes (aclrtMemExportToShareableHandle)."""

    phys: Physical
    check_pid: bool
    pids: set[int] = field(default_factory=set)


HANDLES: dict[int, Physical] = {}
RESERVED: dict[int, Reservation] = {}
SHARED: dict[int, Shareable] = {}
_ids = itertools.count(1)  # handle and shareable numbers
_HANDLE_BASE = 0x7E00_0000_0000  # handle values look like pointers and are never simulated memory


def reset() -> None:
    """Forget every table (test isolation; not a CANN call)."""
    HANDLES.clear()
    RESERVED.clear()
    SHARED.clear()


on_reset(reset)


def release_device(dev: int, api: str) -> None:
    """A device reset takes its virtual memory with it (the driver's address space and physical
    pages of the device go): every range reserved on it is unmapped and forgotten, and every
    physical allocation on it is released with all the handles naming it."""
    for start, res in list(RESERVED.items()):
        if res.device != dev:
            continue
        for p, mapped in list(res.maps.items()):
            if SPACE.find(p) is mapped:
                SPACE.free(p, api, call_site())
            phys = mapped.backing
            if isinstance(phys, Physical):
                phys.mappings.discard(p)
        SPACE.unreserve(start)
        del RESERVED[start]
    gone = {
        id(phys): phys for phys in HANDLES.values() if phys.location.type == LOC_DEVICE and phys.backing.device == dev
    }
    for phys in gone.values():
        for h in list(phys.handles):
            HANDLES.pop(h, None)
        phys.handles.clear()
        _release_backing(phys)
    for key in [k for k, s in SHARED.items() if id(s.phys) in gone]:
        del SHARED[key]


def new_key() -> int:
    """A fresh shareable-handle number."""
    return 0x5A00_0000 + next(_ids)


def new_handle(phys: Physical) -> int:
    h = _HANDLE_BASE + next(_ids) * 0x40
    HANDLES[h] = phys
    phys.handles.add(h)
    return h


def physical(api: str, handle: object) -> tuple[int, Physical]:
    h = as_pointer(handle)
    phys = HANDLES.get(h) if h is not None else None
    if h is None or phys is None:
        raise ApiError(
            RT_PARAM,
            emu(f"{api}: handle {describe(handle)} is not a live handle of aclrtMallocPhysical (or an import)."),
        )
    return h, phys


def device_of(loc: aclrtMemLocation, api: str) -> int:
    """The device a location names (an id outside the emulator's devices is 107001)."""
    dev = int(loc.id)
    if not 0 <= dev < RT.device_count:
        raise ApiError(
            E.ACL_ERROR_RT_INVALID_DEVICEID,
            emu(
                f"{api}: prop->location.id {dev} is not a device; the emulator offers devices 0 to "
                f"{RT.device_count - 1}."
            ),
        )
    return dev


def handle_out(api: str, name: str, obj: object) -> object:
    """An ``aclrtDrvMemHandle*`` out-parameter: a ``Ref`` (or ctypes holder) from Python; from C
    the address the handle is written to (the C ABI passes a struct-like pointer as its address)."""
    if isinstance(obj, int) and not isinstance(obj, bool) and obj > 0 and called_from_c():
        return ctypes.c_uint64.from_address(obj)
    return out_arg(obj, api, name)


def _current_device() -> int:
    ctx = RT.thread_context()
    return int(ctx.device.ident) if ctx is not None else 0


def mapping_at(ptr: int) -> tuple[Reservation, MappedAllocation] | None:
    """The reservation and the mapping that contain ``ptr``."""
    for res in RESERVED.values():
        if res.start <= ptr < res.start + res.size:
            for m in res.maps.values():
                if m.start <= ptr < m.end:
                    return res, m
            return None
    return None


# ---------------------------------------------------------------------------------------------
# reserve and release virtual ranges
# ---------------------------------------------------------------------------------------------


def _reserve(api: str, virPtr: object, size: object, alignment: object, expectPtr: object, flags: object) -> int:
    out = out_arg(virPtr, api, "virPtr")
    n = int_arg(size, "size", 0, UINT64_MAX)
    if n == 0:
        raise ApiError(PARAM, acl_value(api, 0, "size", "must be greater than 0"))
    f = int_arg(flags, "flags", 0, UINT64_MAX)
    if f not in (0, 1):
        raise ApiError(PARAM, acl_value(api, f, "flags", "0"))
    a = int_arg(alignment, "alignment", 0, UINT64_MAX)
    if api == "aclrtReserveMemAddressNoUCMemory" and n % (1 << 30):
        raise ApiError(RT_PARAM, emu(f"{api}: size {n} must be a whole number of 1 GB (1073741824 bytes)."))
    if a != 0:
        raise ApiError(RT_PARAM, emu(f"{api}: alignment {a} is reserved and must be 0 (CANN's documentation)."))
    if as_pointer(expectPtr) is not None:
        raise ApiError(
            E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
            emu(
                f"{api}: a chosen start address (expectPtr) is an experimental CANN feature aclnn_py does not "
                "offer; pass nullptr."
            ),
        )
    dev = _current_device()
    try:
        start = SPACE.reserve(n, 2 << 20, dev)  # virtual ranges start on a 2 MB (huge page) boundary
    except MemoryFault as fault:
        raise ApiError(E.ACL_ERROR_RT_MEMORY_ALLOCATION, emu(f"{api}: {fault.message}.")) from None
    RESERVED[start] = Reservation(start, n, dev)
    store(out, start)
    return E.ACL_SUCCESS


@rt_api
def aclrtReserveMemAddress(virPtr: object, size: int, alignment: int, expectPtr: object, flags: int) -> int:
    """Reserve ``size`` bytes of virtual address space (nothing is accessible there until
    aclrtMapMem maps physical memory onto it)."""
    return _reserve("aclrtReserveMemAddress", virPtr, size, alignment, expectPtr, flags)


@rt_api
def aclrtReserveMemAddressNoUCMemory(virPtr: object, size: int, alignment: int, expectPtr: object, flags: int) -> int:
    """aclrtReserveMemAddress for memory the device does not cache uncached (size: whole GB)."""
    return _reserve("aclrtReserveMemAddressNoUCMemory", virPtr, size, alignment, expectPtr, flags)


def ptr_arg(api: str, obj: object, name: str) -> int:
    """A pointer argument: nullptr is the ACL layer's EH0008, a non-pointer the emulator's report."""
    p = as_pointer(obj)
    if p is None:
        raise ApiError(PARAM, acl_null(api, name))
    if p < 0:
        raise ApiError(PARAM, emu(f"{api}: {name} must be a pointer (an int), got {describe(obj)}."))
    return p


@rt_api
def aclrtReleaseMemAddress(virPtr: object) -> int:
    """Give back a range of aclrtReserveMemAddress (everything mapped in it must be unmapped)."""
    api = "aclrtReleaseMemAddress"
    p = ptr_arg(api, virPtr, "virPtr")
    res = RESERVED.get(p)
    if res is None:
        raise ApiError(RT_PARAM, emu(f"{api}: 0x{p:x} is not the start of a range aclrtReserveMemAddress reserved."))
    if res.maps:
        first = min(res.maps)
        raise ApiError(
            RT_PARAM,
            emu(
                f"{api}: {len(res.maps)} mapping(s) remain in the range (first at 0x{first:x}); "
                "aclrtUnmapMem them first."
            ),
        )
    del RESERVED[p]
    SPACE.unreserve(p)
    return E.ACL_SUCCESS


# ---------------------------------------------------------------------------------------------
# physical memory
# ---------------------------------------------------------------------------------------------


def page_bytes(page: int) -> int:
    """The bytes of a page type: the granularity of sizes and mappings."""
    return _PAGE_BYTES[page]


@rt_api
def aclrtMallocPhysical(handle: object, size: int, prop: object, flags: int) -> int:
    """Allocate physical memory (device HBM, or host memory) and return its handle; it becomes
    addressable once aclrtMapMem maps it into a reserved range. Its size counts against the
    device's pool (rounded up to the page size of ``prop->memAttr``), like aclrtMalloc's."""
    api = "aclrtMallocPhysical"
    out = handle_out(api, "handle", handle)
    if prop is None or (as_pointer(prop) is None and not isinstance(prop, aclrtPhysicalMemProp)):
        raise ApiError(PARAM, acl_null(api, "prop"))
    n = int_arg(size, "size", 0, UINT64_MAX)
    if n == 0:
        raise ApiError(PARAM, acl_value(api, 0, "size", "must be greater than 0"))
    f = int_arg(flags, "flags", 0, UINT64_MAX)
    if f != 0:
        raise ApiError(PARAM, acl_reason(api, f, "flags", "flags is a reserved parameter and must be 0"))
    p = prop_in(api, "prop", prop)
    if p.handleType != 0:
        raise ApiError(PARAM, acl_value(api, p.handleType, "prop->handleType", "ACL_MEM_HANDLE_TYPE_NONE"))
    if p.allocationType != 0:
        raise ApiError(
            PARAM, acl_value(api, p.allocationType, "prop->allocationType", "ACL_MEM_ALLOCATION_TYPE_PINNED")
        )
    t = int(p.location.type)
    if t in (LOC_UNREGISTERED, LOC_MANAGED):
        raise ApiError(
            PARAM, acl_reason(api, loc_desc(t), "prop->location.type", f"location type does not support {loc_desc(t)}")
        )
    page, mem_type = check_mem_attr(api, p)
    if t == LOC_HOST_NUMA:
        raise ApiError(
            E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
            emu(f"{api}: the emulated host has no NUMA nodes to allocate from; use MEM_LOCATION_TYPE_HOST(0)."),
        )
    if t not in (LOC_HOST, LOC_DEVICE):
        raise ApiError(RT_PARAM, emu(f"{api}: prop->location.type {loc_desc(t)} is not a place memory can live."))
    dev = _malloc_device_id(int(p.location.id)) if t == LOC_DEVICE else 0
    if page == _HUGE1G and not _rt_features.has("RT_FEATURE_MEM_1G_HUGE_PAGE"):
        # ApiErrorDecorator::MallocPhysical: NpuDriver::CheckIfSupport1GHugePage (RT_FEATURE_MEM_1G_HUGE_PAGE)
        # fails with RT_ERROR_FEATURE_NOT_SUPPORT, reported inner; rtMallocPhysical returns it through
        # COND_RETURN_WITH_NOLOG (no wrapper report, no last error)
        raise unrecorded(
            ApiError(
                E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                rt_inner(
                    f"pageType does not support, pageType[{page}], retCode=0x711000d",
                    "MallocPhysical",
                    "api_error.cc",
                    6364,
                ),
            )
        )
    rounded = -(-n // page_bytes(page)) * page_bytes(page)
    backing = _allocate_backing(api, t, dev, rounded, n)
    phys = Physical(backing, n, aclrtMemLocation(int(p.location.id), t), page, mem_type, int(p.reserve))
    store(out, new_handle(phys))
    return E.ACL_SUCCESS


def _malloc_device_id(dev: int) -> int:
    """``ApiErrorDecorator::MallocPhysical``'s CheckDeviceIdIsValid of a device location: EE1003
    and the inner report; rtMallocPhysical adds no FuncErrorReason (GetRtExtErrCodeAndSetGlobalErr)."""
    check_device_valid(
        dev, f"drv devId is invalid, drv devId={dev % 2**32}, retCode=0x7010003", "MallocPhysical", 6347, None
    )
    return dev


def _allocate_backing(api: str, t: int, dev: int, rounded: int, n: int) -> Allocation:
    with RT.lock:
        if t == LOC_DEVICE:
            pool = RT.device(dev)
            free, total = pool.capacity - pool.used, pool.capacity
        else:
            free, total = RT.capacity - RT.host_used, RT.capacity
        if rounded > free:
            raise ApiError(
                E.ACL_ERROR_RT_MEMORY_ALLOCATION,
                emu(
                    f"{api}: {rounded} bytes requested, {free} of {total} bytes free (ACLNN_PY_DEVICE_MEMORY "
                    "sets the simulated capacity)."
                ),
            )
        with host_backing(api, rounded):
            backing = Allocation(0, rounded, n, "device" if t == LOC_DEVICE else "host", dev, api, call_site())
        if t == LOC_DEVICE:
            RT.device(dev).used += rounded
        else:
            RT.host_used += rounded
    sanitizer.on_alloc(backing)
    return backing


def _release_backing(phys: Physical) -> None:
    with RT.lock:
        if phys.location.type == LOC_DEVICE:
            RT.device(phys.backing.device).used -= phys.backing.size
        else:
            RT.host_used -= phys.backing.size


@rt_api
def aclrtFreePhysical(handle: object) -> int:
    """Release a handle of aclrtMallocPhysical (or of an import). The memory goes when no handle
    names it any more; a handle whose memory is still mapped is refused (unmap first)."""
    api = "aclrtFreePhysical"
    if as_pointer(handle) is None:
        raise ApiError(PARAM, acl_null(api, "handle"))
    h, phys = physical(api, handle)
    if phys.mappings and len(phys.handles) == 1:
        first = min(phys.mappings)
        raise ApiError(
            RT_PARAM, emu(f"{api}: the memory is still mapped at 0x{first:x}; aclrtUnmapMem every range first.")
        )
    del HANDLES[h]
    phys.handles.discard(h)
    if not phys.handles:
        _release_backing(phys)
        for key in [k for k, s in SHARED.items() if s.phys is phys]:
            del SHARED[key]
    return E.ACL_SUCCESS


def map_range(
    api: str, virPtr: object, size: object, offset: object, handle: object, flags: object, accessible: bool = True
) -> int:
    """aclrtMapMem's checks and mapping, shared with aclrtMemMapNoAccess (``accessible`` False: the
    range is bound to the handle but not inserted into the simulated memory, so every access through
    it is refused as an unmapped address is, until aclrtMemSetAccess grants a right)."""
    p = ptr_arg(api, virPtr, "virPtr")
    if as_pointer(handle) is None:
        raise ApiError(PARAM, acl_null(api, "handle"))
    n = int_arg(size, "size", 0, UINT64_MAX)
    if n == 0:
        raise ApiError(PARAM, acl_value(api, 0, "size", "must be greater than 0"))
    f = int_arg(flags, "flags", 0, UINT64_MAX)
    if f != 0:
        raise ApiError(PARAM, acl_value(api, f, "flags", "0"))
    off = int_arg(offset, "offset", 0, UINT64_MAX)
    _, phys = physical(api, handle)
    res = next((r for r in RESERVED.values() if r.start <= p < r.start + r.size), None)
    if res is None:
        raise ApiError(RT_PARAM, emu(f"{api}: virPtr 0x{p:x} is not inside a range aclrtReserveMemAddress reserved."))
    if off != 0:
        raise ApiError(RT_PARAM, emu(f"{api}: offset {off} must be 0 (CANN's documentation: only 0 is supported)."))
    if n != phys.size:
        raise ApiError(RT_PARAM, emu(f"{api}: size {n} must equal the size {phys.size} the handle was allocated with."))
    if p + n > res.start + res.size:
        raise ApiError(
            RT_PARAM,
            emu(
                f"{api}: [0x{p:x}, 0x{p + n:x}) runs past the reserved range "
                f"[0x{res.start:x}, 0x{res.start + res.size:x})."
            ),
        )
    # a range mapped without access is not in the simulated memory: its overlaps are found here
    other = next((m for m in res.maps.values() if m.start < p + n and p < m.end), None)
    if other is not None:
        raise ApiError(RT_PARAM, emu(f"{api}: [0x{p:x}, 0x{p + n:x}) overlaps {other.describe()}; unmap it first."))
    mapped = MappedAllocation(p, phys.backing.buf[:n], "mapped", res.device, api, call_site(), phys)
    mapped.init = phys.backing.init  # the sanitizer's record of written bytes is the memory's
    if accessible:
        try:
            SPACE.insert(mapped)
        except MemoryFault as fault:
            raise ApiError(RT_PARAM, emu(f"{api}: {fault.message}; unmap it first.")) from None
        res.access[p] = {(LOC_DEVICE, res.device): ACCESS_READWRITE}
    else:
        res.hidden.add(p)
        res.access[p] = {}
    res.maps[p] = mapped
    phys.mappings.add(p)
    return E.ACL_SUCCESS


def reveal(res: Reservation, p: int) -> None:
    """A range of aclrtMemMapNoAccess becomes addressable (aclrtMemSetAccess granted a right)."""
    if p in res.hidden:
        SPACE.insert(res.maps[p])
        res.hidden.discard(p)


@rt_api
def aclrtMapMem(virPtr: object, size: int, offset: int, handle: object, flags: int) -> int:
    """Map a handle's physical memory at ``virPtr`` (inside a reserved range): from then on the
    addresses read and write that memory, as every other range mapped onto the same handle."""
    return map_range("aclrtMapMem", virPtr, size, offset, handle, flags)


@rt_api
def aclrtMemMapNoAccess(virPtr: object, size: int, offset: int, handle: object, flags: int) -> int:
    """Bind a handle's physical memory to ``virPtr`` without any access right: copies and kernels
    through the range fail as through an unmapped address until aclrtMemSetAccess grants one."""
    return map_range("aclrtMemMapNoAccess", virPtr, size, offset, handle, flags, accessible=False)


@rt_api
def aclrtUnmapMem(virPtr: object) -> int:
    """Undo aclrtMapMem: the addresses become unmapped again (the physical memory stays)."""
    api = "aclrtUnmapMem"
    p = ptr_arg(api, virPtr, "virPtr")
    found = mapping_at(p)
    if found is None or found[1].start != p:
        raise ApiError(RT_PARAM, emu(f"{api}: 0x{p:x} is not the start of a range aclrtMapMem mapped."))
    res, mapped = found
    if p in res.hidden:  # never addressable: nothing to free in the simulated memory
        res.hidden.discard(p)
    else:
        sanitizer.check_free(mapped, p, api)
        SPACE.free(p, api, call_site())
    del res.maps[p]
    res.access.pop(p, None)
    phys = mapped.backing
    assert isinstance(phys, Physical)
    phys.mappings.discard(p)
    return E.ACL_SUCCESS


__all__ = [
    "aclrtFreePhysical",
    "aclrtMallocPhysical",
    "aclrtMapMem",
    "aclrtMemMapNoAccess",
    "aclrtReleaseMemAddress",
    "aclrtReserveMemAddress",
    "aclrtReserveMemAddressNoUCMemory",
    "aclrtUnmapMem",
]
