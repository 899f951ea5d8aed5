"""The interconnect a virtual memory mapping goes through (``acl_rt.h``'s memory chapter):
aclrtMemMapSetLink advises the link for a handle's later mappings, aclrtMemMapSelectedLink maps a
reserved range onto the physical memory behind an already mapped one through a chosen link.

The checks are CANN's (``src/acl/aclrt_impl/memory.cpp``, then ``api_error.cc``, in its order,
codes and texts). The links themselves are the driver's (``halMemHandleSetAttribute``, not in the
public sources): aclnn_py models one emulated interconnect, so a mapping made through any link
reads and writes the same memory; which chip offers which link is the emulator's reading of
CANN's documentation (aclrtMemMapSelectedLink: Atlas A3 only, SIO or HCCS between its two dies;
the UB paths of aclrtMemLinkType are Ascend950's unified bus).
"""

from __future__ import annotations

from .. import soc as _soc
from .._capi import UINT64_MAX, ApiError, as_pointer
from ._checks import PARAM, RT_PARAM, E, acl_null, emu, fb_invalid, int_arg, rt_api, rt_value
from .api_vmm import Physical, map_range, mapping_at, physical, ptr_arg

# aclrtMemLinkType and ACL_RT_MEM_LINK_IDX_0/1 (acl_rt.h)
LINK_SIO, LINK_HCCS, LINK_UB_ONE_PORT, LINK_UB_MULTI_PORT = 0, 1, 2, 3
LINK_IDX_0, LINK_IDX_1 = 0, 1
# the links each emulated chip's driver accepts for aclrtMemMapSetLink (others: 207021; a chip
# without any: 207000), and the chips that map through a selected link
_CHIP_LINKS = {"Ascend910_93": {LINK_SIO, LINK_HCCS}, "Ascend950": {LINK_UB_ONE_PORT, LINK_UB_MULTI_PORT}}
_SELECTED_LINK_CHIPS = ("Ascend910_93",)


@rt_api
def aclrtMemMapSetLink(handle: object, adviceLink: int) -> int:
    """Advise the link the mappings of ``handle`` go through (before mapping it)."""
    api, rt_fn = "aclrtMemMapSetLink", "rtMemMapSetLink"
    if as_pointer(handle) is None:
        raise ApiError(PARAM, acl_null(api, "handle"))
    link = int_arg(adviceLink, "adviceLink", -(2**31), 2**31 - 1) & 0xFFFFFFFF
    if link > LINK_UB_MULTI_PORT:
        raise ApiError(
            RT_PARAM,
            rt_value("Setting the link ID for memory mapping", link, "adviceLink", "[0, 3]"),
            fb_invalid(rt_fn),
        )
    offered = _CHIP_LINKS.get(_soc.current().family)
    if offered is None:
        return E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT  # the driver's; CANN logs a WARN only
    _, phys = physical(api, handle)
    if link not in offered:
        return E.ACL_ERROR_RT_LINK_TYPE_NOT_SUPPORTED  # the driver's DRV_ERROR_NOT_EXIST: a WARN only
    phys.route = link
    return E.ACL_SUCCESS


@rt_api
def aclrtMemMapSelectedLink(virPtrDst: object, size: int, virPtrSrc: object, linkIdx: int) -> int:
    """Map the reserved range at ``virPtrDst`` onto the physical memory mapped at ``virPtrSrc``
    (mapping by mapping, as ApiImpl::MemMapSelectedLink walks them) through link ``linkIdx``
    (ACL_RT_MEM_LINK_IDX_0 SIO, _1 HCCS): afterwards both ranges read and write the same memory,
    and each piece mapped at ``virPtrDst`` is unmapped with its own aclrtUnmapMem."""
    api, rt_fn = "aclrtMemMapSelectedLink", "rtMemMapSelectedLink"
    dst = ptr_arg(api, virPtrDst, "virPtrDst")
    src = ptr_arg(api, virPtrSrc, "virPtrSrc")
    n = int_arg(size, "size", 0, UINT64_MAX)
    if n == 0:
        raise ApiError(PARAM, ("EH0001", "Value 0 for size is invalid. Reason: size must be greater than 0."))
    idx = int_arg(linkIdx, "linkIdx", 0, 2**32 - 1)
    if idx > LINK_IDX_1:
        raise ApiError(
            PARAM,
            (
                "EH0001",
                f"Value {idx} for linkIdx is invalid. Reason: linkIdx in aclrtMemMapSelectedLink must be 0 or 1.",
            ),
        )
    if _soc.current().family not in _SELECTED_LINK_CHIPS:
        return E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT  # the driver's handle attribute: a WARN only
    done, old, new = 0, src, dst
    while done < n:
        found = mapping_at(old)
        if found is None or found[1].start != old:
            raise ApiError(
                RT_PARAM,
                emu(f"{api}: 0x{old:x} is not the start of a range aclrtMapMem mapped (virPtrSrc + {done})."),
                fb_invalid(rt_fn),
            )
        phys = found[1].backing
        assert isinstance(phys, Physical)
        handle = min(phys.handles)
        physical(api, handle)
        saved, phys.route = phys.route, idx
        try:
            map_range(api, new, found[1].size, 0, handle, 0)
        finally:
            phys.route = saved  # MemMapSelectedLink restores the handle's own route afterwards
        old, new, done = old + found[1].size, new + found[1].size, done + found[1].size
    return E.ACL_SUCCESS


__all__ = [
    "aclrtMemMapSelectedLink",
    "aclrtMemMapSetLink",
]
