"""External allocators, ``acl/acl_rt_allocator.h``: an allocator description (the allocator
object and its alloc / free / alloc-advise / block-address functions) registered for a stream.

The checks and codes are CANN's (hicann/runtime ``src/acl/aclrt_impl/allocator.cpp``): a
description is a plain record, registration keeps a copy of its fields per stream (the stream is
not validated, as in CANN: it is only a key), and aclrtAllocatorGetByStream hands them back.

In CANN the registered allocator is called by the graph engine, which takes a graph's working
memory from the stream's allocator. aclnn_py has no graph engine, and aclnn operators take their
workspace from the caller (aclnnXxx's ``workspace`` argument), so nothing in aclnn_py calls a
registered allocator: registration is stored, checked and answered, and documented as such
(docs/runtime.md).
"""

from __future__ import annotations

import threading
from typing import Any

from .._capi import ApiError, c_api
from .._ref import Ref, store
from ._checks import INTERNAL, PARAM, E, acl_null, emu, is_null_handle


class aclrtAllocatorDesc:
    """``aclrtAllocatorDesc``: the allocator object and its functions."""

    __slots__ = ("alloc", "alloc_advise", "destroyed", "free", "get_addr", "obj")

    def __init__(self) -> None:
        self.obj: object = None
        self.alloc: object = None
        self.free: object = None
        self.alloc_advise: object = None
        self.get_addr: object = None
        self.destroyed = False

    def __repr__(self) -> str:
        return f"<aclrtAllocatorDesc obj={self.obj!r}>"


_lock = threading.Lock()
# stream key -> (the description registered, a copy of its fields at registration, the stream)
_registered: dict[object, tuple[aclrtAllocatorDesc, tuple[object, object, object, object, object], object]] = {}


def _key(stream: object) -> object:
    """CANN keys the map by the stream pointer: the object itself, or its identity if unhashable."""
    try:
        hash(stream)
    except TypeError:
        return ("id", id(stream))
    return ("obj", stream)


def _null(api: str, **args: object) -> None:
    for name, value in args.items():
        if is_null_handle(value):
            raise ApiError(PARAM, acl_null(api, name))


def _desc(obj: object, api: str) -> aclrtAllocatorDesc:
    _null(api, allocatorDesc=obj)
    if not isinstance(obj, aclrtAllocatorDesc) or obj.destroyed:
        # CANN casts whatever it is given; the emulator refuses what it never made
        raise ApiError(PARAM, emu(f"{api}: allocatorDesc is not a live aclrtAllocatorDesc."))
    return obj


@c_api(INTERNAL, handle=True)
def aclrtAllocatorCreateDesc() -> aclrtAllocatorDesc:
    """An empty allocator description."""
    return aclrtAllocatorDesc()


@c_api(INTERNAL)
def aclrtAllocatorDestroyDesc(allocatorDesc: object) -> int:
    """Release a description (a registration keeps its own copy of the fields)."""
    _desc(allocatorDesc, "aclrtAllocatorDestroyDesc").destroyed = True
    return E.ACL_SUCCESS


def _setter(api: str, attr: str, allocatorDesc: object, value: object, name: str) -> int:
    desc = _desc(allocatorDesc, api)
    _null(api, **{name: value})
    setattr(desc, attr, value)
    return E.ACL_SUCCESS


@c_api(INTERNAL)
def aclrtAllocatorSetObjToDesc(allocatorDesc: object, allocator: object) -> int:
    """The allocator object passed to each function."""
    return _setter("aclrtAllocatorSetObjToDesc", "obj", allocatorDesc, allocator, "allocator")


@c_api(INTERNAL)
def aclrtAllocatorSetAllocFuncToDesc(allocatorDesc: object, func: object) -> int:
    """``void *alloc(aclrtAllocator allocator, size_t size)``: a block of ``size`` bytes."""
    return _setter("aclrtAllocatorSetAllocFuncToDesc", "alloc", allocatorDesc, func, "func")


@c_api(INTERNAL)
def aclrtAllocatorSetFreeFuncToDesc(allocatorDesc: object, func: object) -> int:
    """``void free(aclrtAllocator allocator, aclrtAllocatorBlock block)``."""
    return _setter("aclrtAllocatorSetFreeFuncToDesc", "free", allocatorDesc, func, "func")


@c_api(INTERNAL)
def aclrtAllocatorSetAllocAdviseFuncToDesc(allocatorDesc: object, func: object) -> int:
    """``void *allocAdvise(aclrtAllocator allocator, size_t size, aclrtAllocatorAddr addr)``."""
    return _setter("aclrtAllocatorSetAllocAdviseFuncToDesc", "alloc_advise", allocatorDesc, func, "func")


@c_api(INTERNAL)
def aclrtAllocatorSetGetAddrFromBlockFuncToDesc(allocatorDesc: object, func: object) -> int:
    """``void *getAddrFromBlock(aclrtAllocatorBlock block)``: the device address of a block."""
    return _setter("aclrtAllocatorSetGetAddrFromBlockFuncToDesc", "get_addr", allocatorDesc, func, "func")


@c_api(INTERNAL)
def aclrtAllocatorRegister(stream: object, allocatorDesc: object) -> int:
    """Register the description for ``stream`` (its fields are copied; the object, alloc, free
    and get-address functions must be set; alloc-advise is optional)."""
    api = "aclrtAllocatorRegister"
    _null(api, stream=stream)
    desc = _desc(allocatorDesc, api)
    for value, name in (
        (desc.obj, "allocatorDesc->obj"),
        (desc.alloc, "allocatorDesc->allocFunc"),
        (desc.free, "allocatorDesc->freeFunc"),
        (desc.get_addr, "allocatorDesc->getAddrFromBlockFunc"),
    ):
        if is_null_handle(value):
            raise ApiError(PARAM, acl_null(api, name))
    with _lock:
        fields = (desc.obj, desc.alloc, desc.free, desc.alloc_advise, desc.get_addr)
        _registered[_key(stream)] = (desc, fields, stream)
    return E.ACL_SUCCESS


@c_api(INTERNAL)
def aclrtAllocatorGetByStream(
    stream: object,
    allocatorDesc: object,
    allocator: object,
    allocFunc: object,
    freeFunc: object,
    allocAdviseFunc: object,
    getAddrFromBlockFunc: object,
) -> int:
    """The description registered for ``stream`` and the fields copied at registration (each
    out-parameter may be NULL but ``allocatorDesc``)."""
    api = "aclrtAllocatorGetByStream"
    _null(api, allocatorDesc=allocatorDesc, stream=stream)
    with _lock:
        found = _registered.get(_key(stream))
    if found is None:
        raise ApiError(
            PARAM,
            (
                "EH0012",
                f"{api} failed. Parameter stream is invalid. Reason: The stream is not registered with any allocator.",
            ),
        )
    desc, fields, _ = found
    store(_out(allocatorDesc, api, "allocatorDesc"), desc)
    for out, value, name in zip(
        (allocator, allocFunc, freeFunc, allocAdviseFunc, getAddrFromBlockFunc),
        fields,
        ("allocator", "allocFunc", "freeFunc", "allocAdviseFunc", "getAddrFromBlockFunc"),
        strict=True,
    ):
        if out is not None:
            store(_out(out, api, name), value)
    return E.ACL_SUCCESS


def _out(obj: object, api: str, name: str) -> Ref[Any]:
    if not isinstance(obj, Ref):
        raise ApiError(PARAM, emu(f"{api}: {name} must be an out-parameter (Ref()), got {type(obj).__name__}."))
    return obj


@c_api(INTERNAL)
def aclrtAllocatorUnregister(stream: object) -> int:
    """Forget the stream's allocator (success when none was registered, as CANN's)."""
    _null("aclrtAllocatorUnregister", stream=stream)
    with _lock:
        _registered.pop(_key(stream), None)
    return E.ACL_SUCCESS


def registered(stream: object) -> tuple[object, object, object, object, object] | None:
    """The allocator fields registered for ``stream`` (obj, alloc, free, alloc-advise, get-address),
    for a future caller inside aclnn_py."""
    with _lock:
        found = _registered.get(_key(stream))
    return None if found is None else found[1]


def reset() -> None:
    """Forget every registration (test isolation; not a CANN call)."""
    with _lock:
        _registered.clear()


__all__ = [
    "aclrtAllocatorCreateDesc",
    "aclrtAllocatorDesc",
    "aclrtAllocatorDestroyDesc",
    "aclrtAllocatorGetByStream",
    "aclrtAllocatorRegister",
    "aclrtAllocatorSetAllocAdviseFuncToDesc",
    "aclrtAllocatorSetAllocFuncToDesc",
    "aclrtAllocatorSetFreeFuncToDesc",
    "aclrtAllocatorSetGetAddrFromBlockFuncToDesc",
    "aclrtAllocatorSetObjToDesc",
    "aclrtAllocatorUnregister",
]
