"""The structs and arrays of the memory chapter (``aclrtPhysicalMemProp``, ``aclrtMemAccessDesc``,
``aclrtMemcpyBatchAttr`` ...): Python classes for the Python API, ctypes mirrors for the C ABI.

A C program passes a struct or an array as its address (capi/gen_rt.py gives such parameters to
the Python function as an int). Such an address is read or written in place only when the calls
come from a C program (the C ABI named its caller, :func:`memory.called_from_c`): there it is the
program's own memory, as on CANN. From Python the same parameters take the Python objects below
(``Ref`` for what the function writes), so a stray int never reaches ctypes.
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from .._capi import ApiError, describe
from .._ref import Ref, store
from ._checks import PARAM, emu
from .memory import called_from_c

T = TypeVar("T")


# ---------------------------------------------------------------------------------------------
# Python classes
# ---------------------------------------------------------------------------------------------


class aclrtMemLocation:
    """``aclrtMemLocation``: ``{uint32_t id; aclrtMemLocationType type;}``."""

    __slots__ = ("id", "type")

    def __init__(self, id: int = 0, type: int = 0) -> None:
        self.id = id
        self.type = type

    def __repr__(self) -> str:
        return f"aclrtMemLocation(id={self.id}, type={self.type})"


class aclrtPhysicalMemProp:
    """``aclrtPhysicalMemProp``: what physical memory aclrtMallocPhysical makes."""

    __slots__ = ("allocationType", "handleType", "location", "memAttr", "reserve")

    def __init__(
        self,
        handleType: int = 0,
        allocationType: int = 0,
        memAttr: int = 0,
        location: aclrtMemLocation | None = None,
        reserve: int = 0,
    ) -> None:
        self.handleType = handleType
        self.allocationType = allocationType
        self.memAttr = memAttr
        self.location = location if location is not None else aclrtMemLocation()
        self.reserve = reserve

    def __repr__(self) -> str:
        return (
            f"aclrtPhysicalMemProp(handleType={self.handleType}, allocationType={self.allocationType}, "
            f"memAttr={self.memAttr}, location={self.location!r}, reserve={self.reserve})"
        )


class aclrtMemAccessDesc:
    """``aclrtMemAccessDesc``: an access right (``aclrtMemAccessFlags``) for one location."""

    __slots__ = ("flags", "location", "rsv")

    def __init__(self, flags: int = 0, location: aclrtMemLocation | None = None, rsv: bytes = bytes(12)) -> None:
        self.flags = flags
        self.location = location if location is not None else aclrtMemLocation()
        self.rsv = bytes(rsv)


class aclrtMemcpyBatchAttr:
    """``aclrtMemcpyBatchAttr``: where a run of a batch copy's pairs live (``rsv`` must be 0)."""

    __slots__ = ("dstLoc", "rsv", "srcLoc")

    def __init__(
        self, dstLoc: aclrtMemLocation | None = None, srcLoc: aclrtMemLocation | None = None, rsv: bytes = bytes(16)
    ) -> None:
        self.dstLoc = dstLoc if dstLoc is not None else aclrtMemLocation()
        self.srcLoc = srcLoc if srcLoc is not None else aclrtMemLocation()
        self.rsv = bytes(rsv)


class aclrtMemUsageInfo:
    """``aclrtMemUsageInfo``: one component's current and peak use of device memory."""

    __slots__ = ("curMemSize", "memPeakSize", "name")

    def __init__(self, name: str = "", curMemSize: int = 0, memPeakSize: int = 0) -> None:
        self.name = name
        self.curMemSize = curMemSize
        self.memPeakSize = memPeakSize

    def __repr__(self) -> str:
        return f"aclrtMemUsageInfo(name={self.name!r}, curMemSize={self.curMemSize}, memPeakSize={self.memPeakSize})"


# ---------------------------------------------------------------------------------------------
# ctypes mirrors (LP64 layout, as acl_rt.h declares them)
# ---------------------------------------------------------------------------------------------


class CMemLocation(ctypes.Structure):
    _fields_ = [("id", ctypes.c_uint32), ("type", ctypes.c_int32)]


class CPhysicalMemProp(ctypes.Structure):
    _fields_ = [
        ("handleType", ctypes.c_int32),
        ("allocationType", ctypes.c_int32),
        ("memAttr", ctypes.c_int32),
        ("location", CMemLocation),
        ("reserve", ctypes.c_uint64),
    ]


class CMemAccessDesc(ctypes.Structure):
    _fields_ = [("flags", ctypes.c_int32), ("location", CMemLocation), ("rsv", ctypes.c_uint8 * 12)]


class CMemcpyBatchAttr(ctypes.Structure):
    _fields_ = [("dstLoc", CMemLocation), ("srcLoc", CMemLocation), ("rsv", ctypes.c_uint8 * 16)]


class CMemUsageInfo(ctypes.Structure):
    _fields_ = [
        ("name", ctypes.c_char * 32),
        ("curMemSize", ctypes.c_uint64),
        ("memPeakSize", ctypes.c_uint64),
        ("reserved", ctypes.c_size_t * 8),
    ]


def _loc(c: CMemLocation) -> aclrtMemLocation:
    return aclrtMemLocation(int(c.id), int(c.type))


def _prop_from_c(c: CPhysicalMemProp) -> aclrtPhysicalMemProp:
    return aclrtPhysicalMemProp(c.handleType, c.allocationType, c.memAttr, _loc(c.location), c.reserve)


def _access_from_c(c: CMemAccessDesc) -> aclrtMemAccessDesc:
    return aclrtMemAccessDesc(c.flags, _loc(c.location), bytes(c.rsv))


def _batch_attr_from_c(c: CMemcpyBatchAttr) -> aclrtMemcpyBatchAttr:
    return aclrtMemcpyBatchAttr(_loc(c.dstLoc), _loc(c.srcLoc), bytes(c.rsv))


# ---------------------------------------------------------------------------------------------
# reading and writing
# ---------------------------------------------------------------------------------------------


def _raw_address(obj: object) -> int | None:
    """``obj`` as a C program's address (an int, only when C is calling), else None."""
    if isinstance(obj, int) and not isinstance(obj, bool) and obj > 0 and called_from_c():
        return obj
    if isinstance(obj, ctypes._SimpleCData) and called_from_c():
        return ctypes.addressof(obj)  # an out-number holder the C ABI made at the array's address
    return None


def _refuse(api: str, name: str, obj: object, what: str) -> ApiError:
    return ApiError(PARAM, emu(f"{api}: {name} must be {what}, got {describe(obj)}."))


def prop_in(api: str, name: str, obj: object) -> aclrtPhysicalMemProp:
    """An ``aclrtPhysicalMemProp*`` argument (not null: the caller checked)."""
    if isinstance(obj, aclrtPhysicalMemProp):
        return obj
    addr = _raw_address(obj)
    if addr is not None:
        return _prop_from_c(CPhysicalMemProp.from_address(addr))
    raise _refuse(api, name, obj, "an aclrtPhysicalMemProp")


def location_in(api: str, name: str, obj: object) -> aclrtMemLocation:
    if isinstance(obj, aclrtMemLocation):
        return obj
    if isinstance(obj, Ref) and isinstance(obj.value, aclrtMemLocation):
        return obj.value
    addr = _raw_address(obj)
    if addr is not None:
        return _loc(CMemLocation.from_address(addr))
    raise _refuse(api, name, obj, "an aclrtMemLocation")


def struct_out(api: str, name: str, obj: object, value: Any, write_c: Callable[[int, Any], None]) -> None:
    """Hand ``value`` back through a struct out-parameter: a ``Ref`` from Python, the struct in
    place from C (``write_c(address, value)``)."""
    if isinstance(obj, Ref):
        obj.value = value
        return
    addr = _raw_address(obj)
    if addr is None:
        raise _refuse(api, name, obj, "an out-parameter (Ref())")
    write_c(addr, value)


def write_prop(addr: int, p: aclrtPhysicalMemProp) -> None:
    c = CPhysicalMemProp.from_address(addr)
    c.handleType, c.allocationType, c.memAttr = p.handleType, p.allocationType, p.memAttr
    c.location.id, c.location.type, c.reserve = p.location.id, p.location.type, p.reserve


def write_location(addr: int, loc: aclrtMemLocation) -> None:
    c = CMemLocation.from_address(addr)
    c.id, c.type = loc.id, loc.type


def write_usage(addr: int, infos: Sequence[aclrtMemUsageInfo]) -> None:
    arr = (CMemUsageInfo * len(infos)).from_address(addr)
    for c, info in zip(arr, infos, strict=True):
        c.name = info.name.encode()[:31]
        c.curMemSize, c.memPeakSize = info.curMemSize, info.memPeakSize


def array_in(api: str, name: str, obj: object, n: int, ctype: Any, convert: Callable[[Any], T]) -> list[T]:
    """``n`` elements of an array argument: a Python sequence, or (from C) the array in place."""
    if isinstance(obj, (list, tuple)):
        if len(obj) < n:
            raise ApiError(PARAM, emu(f"{api}: {name} holds {len(obj)} elements, fewer than the {n} the call names."))
        return [convert(v) for v in obj[:n]]
    addr = _raw_address(obj)
    if addr is not None:
        return [convert(v) for v in (ctype * n).from_address(addr)] if n else []
    raise _refuse(api, name, obj, f"a sequence of {n} elements")


def access_descs(api: str, obj: object, n: int) -> list[aclrtMemAccessDesc]:
    if isinstance(obj, aclrtMemAccessDesc):
        obj = [obj]
    return array_in(
        api, "desc", obj, n, CMemAccessDesc, lambda v: v if isinstance(v, aclrtMemAccessDesc) else _access_from_c(v)
    )


def batch_attrs(api: str, obj: object, n: int) -> list[aclrtMemcpyBatchAttr]:
    if isinstance(obj, aclrtMemcpyBatchAttr):
        obj = [obj]
    return array_in(
        api,
        "attrs",
        obj,
        n,
        CMemcpyBatchAttr,
        lambda v: v if isinstance(v, aclrtMemcpyBatchAttr) else _batch_attr_from_c(v),
    )


def write_array(api: str, name: str, obj: object, values: Sequence[int], ctype: Any) -> None:
    """Write ``values`` into an array out-parameter (a list from Python, C's array in place)."""
    if isinstance(obj, list):
        obj[: len(values)] = list(values)
        return
    if isinstance(obj, Ref):
        store(obj, list(values))
        return
    addr = _raw_address(obj)
    if addr is None:
        raise _refuse(api, name, obj, "a list to fill")
    arr = (ctype * len(values)).from_address(addr)
    for i, v in enumerate(values):
        arr[i] = v


__all__ = [
    "aclrtMemAccessDesc",
    "aclrtMemLocation",
    "aclrtMemUsageInfo",
    "aclrtMemcpyBatchAttr",
    "aclrtPhysicalMemProp",
]
