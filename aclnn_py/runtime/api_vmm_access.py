"""Queries of the virtual memory API of ``acl_rt.h``'s memory chapter (api_vmm reserves, allocates
and maps): the allocation granularity of a memory attribute, the access rights of a mapped range
(aclrtMemSetAccess, aclrtMemGetAccess), the range an address lies in, the properties of a
physical handle and the handle mapped at an address. The checks are CANN's
(``src/acl/aclrt_impl/memory.cpp``, then ``api_error.cc``), as in api_vmm.
"""

from __future__ import annotations

from .._capi import UINT64_MAX, ApiError, as_pointer
from .._ref import Ref, store
from ._checks import (
    PARAM,
    RT_PARAM,
    E,
    acl_null,
    emu,
    fb_invalid,
    int_arg,
    out_arg,
    rt_api,
)
from ._structs import (
    access_descs,
    aclrtMemLocation,
    aclrtPhysicalMemProp,
    location_in,
    prop_in,
    struct_out,
    write_prop,
)
from .api_device import check_device_id
from .api_vmm import (
    ACCESS_NONE,
    ACCESS_READ,
    ACCESS_READWRITE,
    ATTR_OF,
    LOC_DEVICE,
    LOC_HOST,
    LOC_HOST_NUMA,
    Physical,
    check_mem_attr,
    device_of,
    handle_out,
    mapping_at,
    page_bytes,
    physical,
    ptr_arg,
    reveal,
)
from .memory import SPACE

# ---------------------------------------------------------------------------------------------
# granularity
# ---------------------------------------------------------------------------------------------


@rt_api
def aclrtMemGetAllocationGranularity(prop: object, option: int, granularity: object) -> int:
    """The page size of ``prop->memAttr`` (4 KB normal, 2 MB huge, 1 GB huge1G pages), the
    granularity of sizes and mappings, for the minimum and the recommended option alike (the
    option goes to the driver unchecked); a device location must name a device (107001)."""
    api = "aclrtMemGetAllocationGranularity"
    if prop is None or (as_pointer(prop) is None and not isinstance(prop, aclrtPhysicalMemProp)):
        raise ApiError(PARAM, acl_null(api, "prop"))
    out = out_arg(granularity, api, "granularity")
    int_arg(option, "option", -(2**31), 2**31 - 1)  # passed to the driver unchecked (api_error.cc)
    p = prop_in(api, "prop", prop)
    page, _ = check_mem_attr(api, p)
    if int(p.location.type) == LOC_DEVICE:  # ApiErrorDecorator::GetAllocationGranularity
        check_device_id(int(p.location.id), "rtMemGetAllocationGranularity", "GetAllocationGranularity", 6510)
    store(out, page_bytes(page))
    return E.ACL_SUCCESS


# ---------------------------------------------------------------------------------------------
# access, queries
# ---------------------------------------------------------------------------------------------

_SET_ACCESS = "Setting the memory access permission"
_GET_ACCESS = "Obtaining the memory access permission"


def _rt_null(desc: str, name: str, rt_fn: str) -> ApiError:
    return ApiError(RT_PARAM, ("EE1004", f"{desc} failed because {name} cannot be a NULL pointer."), fb_invalid(rt_fn))


@rt_api
def aclrtMemSetAccess(virPtr: object, size: int, desc: object, count: int) -> int:
    """Record which devices may read or write a mapped range (the emulator's devices reach every
    mapping; the rights are kept for aclrtMemGetAccess). A range of aclrtMemMapNoAccess becomes
    addressable once a device is granted read or read-write access (the device's page table is
    built then)."""
    api, rt_fn = "aclrtMemSetAccess", "rtMemSetAccess"
    p = as_pointer(virPtr)
    if p is None:
        raise _rt_null(_SET_ACCESS, "virPtr", rt_fn)
    if (
        as_pointer(desc) is None
        and not isinstance(desc, (list, tuple))
        and desc.__class__.__name__ != "aclrtMemAccessDesc"
    ):
        raise _rt_null(_SET_ACCESS, "desc", rt_fn)
    n = int_arg(size, "size", 0, UINT64_MAX)
    c = int_arg(count, "count", 0, UINT64_MAX)
    found = mapping_at(p) if p > 0 else None
    if found is None or found[1].start != p or found[1].size != n:
        raise ApiError(
            RT_PARAM, emu(f"{api}: [0x{max(p, 0):x}, +{n}) is not a range aclrtMapMem mapped (start and size).")
        )
    # count and the flags are the driver's checks (halMemSetAccess; ApiErrorDecorator::MemSetAccess
    # checks only the pointers): the emulator's own refusals, with CANN's code
    if c == 0:
        raise ApiError(RT_PARAM, emu(f"{api}: count must be greater than 0 (desc holds the access rights to set)."))
    descs = access_descs(api, desc, c)
    rights = found[0].access.setdefault(p, {})
    for d in descs:
        if int(d.flags) not in (ACCESS_NONE, ACCESS_READ, ACCESS_READWRITE):
            raise ApiError(
                RT_PARAM,
                emu(
                    f"{api}: desc.flags {int(d.flags):#x} is not an aclrtMemAccessFlags (ACL_RT_MEM_ACCESS_FLAGS_NONE "
                    "0x0, _READ 0x1 or _READWRITE 0x3)."
                ),
            )
        if int(d.location.type) == LOC_DEVICE:
            device_of(d.location, api)
        rights[(int(d.location.type), int(d.location.id))] = int(d.flags)
    if any(flags != ACCESS_NONE and loc[0] == LOC_DEVICE for loc, flags in rights.items()):
        reveal(found[0], p)
    return E.ACL_SUCCESS


@rt_api
def aclrtMemGetAccess(virPtr: object, location: object, flag: object) -> int:
    """The access right of ``location`` to the mapped range at ``virPtr`` (read-write for the
    device it was mapped on, none for the others, unless aclrtMemSetAccess said otherwise)."""
    api = "aclrtMemGetAccess"
    p = ptr_arg(api, virPtr, "virPtr")
    if location is None or (as_pointer(location) is None and not isinstance(location, (aclrtMemLocation, Ref))):
        raise ApiError(PARAM, acl_null(api, "location"))
    out = out_arg(flag, api, "flag")
    loc = location_in(api, "location", location)
    found = mapping_at(p)
    if found is None:
        raise ApiError(RT_PARAM, emu(f"{api}: 0x{p:x} is not inside a range aclrtMapMem mapped."))
    rights = found[0].access.get(found[1].start, {})
    store(out, rights.get((int(loc.type), int(loc.id)), ACCESS_NONE))
    return E.ACL_SUCCESS


_RANGE_DESC = "Obtaining the start address and size of the memory block to which the address to be queried belongs"


@rt_api
def aclrtMemGetAddressRange(ptr: object, pbase: object, psize: object) -> int:
    """The start and size of the allocation (or mapped range) that contains ``ptr``."""
    api, rt_fn = "aclrtMemGetAddressRange", "rtMemGetAddressRange"
    p = ptr_arg(api, ptr, "ptr")
    if pbase is None and psize is None:
        raise ApiError(
            RT_PARAM,
            ("EE1022", f"{_RANGE_DESC} failed. Values nullptr and nullptr for parameters pbase and psize are invalid. "
                       "Reason: Parameters pbase and psize cannot both be nullptr."),
            fb_invalid(rt_fn),
        )  # fmt: skip
    alloc = SPACE.find(p)
    if alloc is None:
        raise ApiError(RT_PARAM, emu(f"{api}: {SPACE.describe_address(p)}."))
    if pbase is not None:
        store(out_arg(pbase, api, "pbase"), alloc.start)
    if psize is not None:
        store(out_arg(psize, api, "psize"), alloc.size)
    return E.ACL_SUCCESS


@rt_api
def aclrtMemGetAllocationPropertiesFromHandle(handle: object, prop: object) -> int:
    """What a handle's memory is: location, and the memAttr its page and memory type map back to
    (memory.cpp's table: a device ACL_MEM_HUGE allocation reports ACL_HBM_MEM_HUGE)."""
    api = "aclrtMemGetAllocationPropertiesFromHandle"
    if as_pointer(handle) is None:
        raise ApiError(PARAM, acl_null(api, "handle"))
    if prop is None or (as_pointer(prop) is None and not isinstance(prop, Ref)):
        raise ApiError(PARAM, acl_null(api, "prop"))
    _, phys = physical(api, handle)
    host = phys.location.type in (LOC_HOST, LOC_HOST_NUMA)
    attr = ATTR_OF.get((phys.page, phys.mem_type, host))
    if attr is None:
        return PARAM  # CANN logs "memAttr not found" without a report
    value = aclrtPhysicalMemProp(0, 0, attr, aclrtMemLocation(phys.location.id, phys.location.type), phys.reserve)
    struct_out(api, "prop", prop, value, write_prop)
    return E.ACL_SUCCESS


@rt_api
def aclrtMemRetainAllocationHandle(virPtr: object, handle: object) -> int:
    """The handle of the physical memory mapped at ``virPtr`` (any address of the mapping)."""
    api = "aclrtMemRetainAllocationHandle"
    p = ptr_arg(api, virPtr, "virPtr")
    out = handle_out(api, "handle", handle)
    found = mapping_at(p)
    if found is None:
        raise ApiError(RT_PARAM, emu(f"{api}: 0x{p:x} is not inside a range aclrtMapMem mapped."))
    phys = found[1].backing
    assert isinstance(phys, Physical)
    store(out, min(phys.handles))
    return E.ACL_SUCCESS


__all__ = [
    "aclrtMemGetAccess",
    "aclrtMemGetAddressRange",
    "aclrtMemGetAllocationGranularity",
    "aclrtMemGetAllocationPropertiesFromHandle",
    "aclrtMemRetainAllocationHandle",
    "aclrtMemSetAccess",
]
