"""The parameter objects of ``acl/acl_tdt_queue.h``: queue attributes, queue routes, route lists
and route query information.

They are plain host objects in CANN too (``new`` in hicann/runtime
``src/acl/acl_tdt_queue/queue.cpp``), read and written with ``(type, len, param)`` calls that copy
``len`` bytes through CANN's ``CopyParam``: a copy longer than the field is EH0009 ("Parameter
copy"), a shorter one replaces only the field's first bytes (memcpy_s, little-endian), as here. The
queue name is kept, as CANN keeps it, in a 128-byte buffer of the attribute
(``RT_MQ_MAX_NAME_LEN``); ``ACL_TDT_QUEUE_NAME_PTR`` hands out a pointer to it. From Python a
``param``/``value`` is an ``int`` or a bytes-like object (its first ``len`` bytes are copied), a
name is a ``str``/``bytes`` (it stands for the ``const char*`` the C caller points at), and an
out-parameter is a ``Ref`` (or a ctypes number).
"""

from __future__ import annotations

import ctypes

from .._capi import ApiError, c_api, describe
from .._ref import Ref, store
from ._checks import INTERNAL, PARAM, E, acl_null, acl_reason, acl_value, emu, int_arg

RT_MQ_MAX_NAME_LEN = 128
RT_MQ_DEPTH_DEFAULT = 8  # QueueProcessor::acltdtSetDefaultQueueAttr
_POINTER = 8  # sizeof(size_t): the NAME_PTR payload

# acltdtQueueAttrType, acltdtQueueRouteParamType, acltdtQueueRouteQueryMode,
# acltdtQueueRouteQueryInfoParamType (CANN's numbers; aclnn_py.runtime.enums has the classes)
_NAME_PTR, _DEPTH = 0, 1
_ROUTE_SRC, _ROUTE_DST, _ROUTE_STATUS = 0, 1, 2
QUERY_SRC, QUERY_DST, QUERY_SRC_AND_DST, QUERY_ABNORMAL = 0, 1, 2, 100

_ATTR_DESC = {_NAME_PTR: "TDT_QUEUE_NAME_PTR(0)", _DEPTH: "TDT_QUEUE_DEPTH_UINT32(1)"}
_MODE_DESC = {
    QUERY_SRC: "TDT_QUEUE_ROUTE_QUERY_SRC(0)",
    QUERY_DST: "TDT_QUEUE_ROUTE_QUERY_DST(1)",
    QUERY_SRC_AND_DST: "TDT_QUEUE_ROUTE_QUERY_SRC_AND_DST(2)",
    QUERY_ABNORMAL: "TDT_QUEUE_ROUTE_QUERY_ABNORMAL(100)",
}


def _desc(table: dict[int, str], value: int) -> str:
    """CANN's GetXxxDesc: the enumerator's name, or UNKNOWN(n)."""
    return table.get(value, f"UNKNOWN({value})")


class acltdtQueueAttr:
    """``acltdtQueueAttr`` (``rtMemQueueAttr_t``): a queue's name (a 128-byte buffer) and depth."""

    __slots__ = ("depth", "destroyed", "name")

    def __init__(self) -> None:
        self.name = ctypes.create_string_buffer(RT_MQ_MAX_NAME_LEN)  # C reads it through NAME_PTR
        self.depth = RT_MQ_DEPTH_DEFAULT
        self.destroyed = False

    @property
    def text(self) -> str:
        """The name up to its NUL."""
        return self.name.value.decode("utf-8", "replace")

    def __repr__(self) -> str:
        return f"<acltdtQueueAttr name={self.text!r} depth={self.depth}>"


class acltdtQueueRoute:
    """``acltdtQueueRoute``: a source queue, a destination queue and the route's status."""

    __slots__ = ("destroyed", "dst", "src", "status")

    def __init__(self, src: int, dst: int, status: int = 0) -> None:
        self.src = src
        self.dst = dst
        self.status = status
        self.destroyed = False

    def __repr__(self) -> str:
        return f"<acltdtQueueRoute {self.src}->{self.dst} status={self.status}>"


class acltdtQueueRouteList:
    """``acltdtQueueRouteList``: routes by value (acltdtAddQueueRoute copies the route)."""

    __slots__ = ("destroyed", "routes")

    def __init__(self) -> None:
        self.routes: list[acltdtQueueRoute] = []
        self.destroyed = False

    def __repr__(self) -> str:
        return f"<acltdtQueueRouteList {self.routes}>"


class acltdtQueueRouteQueryInfo:
    """``acltdtQueueRouteQueryInfo``: the query mode, source and destination ids, and which of
    them acltdtSetQueueRouteQueryInfo set."""

    __slots__ = ("destroyed", "dst", "is_dst", "is_mode", "is_src", "mode", "src")

    def __init__(self) -> None:
        self.mode = 0
        self.src = 0
        self.dst = 0
        self.is_mode = self.is_src = self.is_dst = False
        self.destroyed = False

    def __repr__(self) -> str:
        return f"<acltdtQueueRouteQueryInfo mode={self.mode} src={self.src} dst={self.dst}>"


def live(obj: object, cls: type, api: str, name: str) -> None:
    """CANN dereferences whatever it is given; the emulator refuses what it never made (or freed)."""
    if not isinstance(obj, cls) or getattr(obj, "destroyed", False):
        raise ApiError(PARAM, emu(f"{api}: {name} is {describe(obj)}, not a live {cls.__name__}."))


def _need(api: str, **args: object) -> None:
    for name, value in args.items():
        if value is None:
            raise ApiError(PARAM, acl_null(api, name))


def destroy(api: str, obj: object, cls: type, name: str) -> int:
    """A parameter object's acltdtDestroy*: null, then not one the emulator made (or freed)."""
    _need(api, **{name: obj})
    live(obj, cls, api, name)
    obj.destroyed = True  # type: ignore[attr-defined]
    return E.ACL_SUCCESS


def _copy_check(src_len: int, dst_len: int) -> None:
    """CopyParam's size check: EH0009 with the function description "Parameter copy"."""
    if src_len > dst_len:
        raise ApiError(PARAM, acl_reason("Parameter copy", src_len, "srcLen", "srcLen must not be larger than dstLen"))


def _bytes_of(value: object, length: int, api: str, name: str) -> bytes:
    """The first ``length`` bytes C would copy from ``value`` (an int is its little-endian bytes)."""
    if isinstance(value, int) and not isinstance(value, bool):
        raw = (value & (2**64 - 1)).to_bytes(8, "little")
    else:
        try:
            raw = bytes(memoryview(value).cast("B"))  # type: ignore[arg-type]
        except TypeError:
            raise ApiError(PARAM, emu(f"{api}: {name} is {describe(value)}, not an int or a buffer.")) from None
    if len(raw) < length:
        raise ApiError(PARAM, emu(f"{api}: {name} holds {len(raw)} bytes, len is {length}."))
    return raw[:length]


def _copy_in(old: int, width: int, value: object, length: int, api: str, name: str, signed: bool = False) -> int:
    """memcpy_s of ``length`` bytes over a ``width``-byte field holding ``old``."""
    _copy_check(length, width)
    head = _bytes_of(value, length, api, name)
    field = bytearray(old.to_bytes(width, "little", signed=signed))
    field[:length] = head
    return int.from_bytes(field, "little", signed=signed)


def _copy_out(value: object, width: int, param: object, length: int, ret_size: object) -> None:
    """CopyParam from a ``width``-byte field into the caller's ``param`` of ``length`` bytes."""
    _copy_check(width, length)
    store(param, value)
    store(ret_size, width)


def _out(obj: object, api: str, name: str) -> object:
    if not isinstance(obj, (Ref, ctypes._SimpleCData)):
        raise ApiError(PARAM, emu(f"{api}: {name} must be an out-parameter (Ref()), got {describe(obj)}."))
    return obj


def _getter(api: str, obj: object, cls: type, oname: str, param: object, ret: object) -> None:
    _need(api, **{oname: obj, "param": param, "paramRetSize": ret})
    live(obj, cls, api, oname)
    _out(param, api, "param")
    _out(ret, api, "paramRetSize")


# ---------------------------------------------------------------------------------------------
# queue attributes
# ---------------------------------------------------------------------------------------------


@c_api(INTERNAL, handle=True)
def acltdtCreateQueueAttr() -> acltdtQueueAttr:
    """Queue attributes with CANN's defaults: no name (the runtime names the queue), depth 8."""
    return acltdtQueueAttr()


@c_api(INTERNAL)
def acltdtDestroyQueueAttr(attr: object) -> int:
    """Free queue attributes."""
    return destroy("acltdtDestroyQueueAttr", attr, acltdtQueueAttr, "attr")


def _strnlen(name: bytes) -> int:
    """strnlen(name, RT_MQ_MAX_NAME_LEN)."""
    end = name.find(b"\0")
    return min(len(name) if end < 0 else end, RT_MQ_MAX_NAME_LEN)


def _name_bytes(param: object, api: str) -> bytes | None:
    """The name a NAME_PTR payload points at (None: a NULL pointer)."""
    if isinstance(param, int) and not isinstance(param, bool):
        if param == 0:
            return None
        raise ApiError(PARAM, emu(f"{api}: param is the number {param}; a queue name is a str or bytes."))
    if isinstance(param, str):
        return param.encode("utf-8")
    if isinstance(param, (bytes, bytearray, memoryview)):
        return bytes(param)
    raise ApiError(PARAM, emu(f"{api}: param is {describe(param)}; a queue name is a str or bytes."))


@c_api(INTERNAL)
def acltdtSetQueueAttr(attr: object, type: int, len: int, param: object) -> int:
    """Set the queue's name (ACL_TDT_QUEUE_NAME_PTR: ``param`` is the name, ``len`` the size of the
    pointer C passes, 8) or depth (ACL_TDT_QUEUE_DEPTH_UINT32: ``len`` bytes of ``param``)."""
    api = "acltdtSetQueueAttr"
    _need(api, attr=attr, param=param)
    live(attr, acltdtQueueAttr, api, "attr")
    assert isinstance(attr, acltdtQueueAttr)
    kind = int_arg(type, "type", -(2**31), 2**31 - 1)
    n = int_arg(len, "len", 0, 2**64 - 1)
    if kind == _NAME_PTR:
        _copy_check(n, _POINTER)
        if n == 0:
            raise ApiError(PARAM)  # nothing copied: the pointer stays NULL (ACL_REQUIRES_NOT_NULL, a log only)
        if n < _POINTER:
            if param == 0:
                raise ApiError(PARAM)
            raise ApiError(PARAM, emu(f"{api}: copying {n} of a pointer's 8 bytes leaves a pointer C cannot use."))
        name = _name_bytes(param, api)
        if name is None:
            raise ApiError(PARAM)
        length = _strnlen(name)
        if length + 1 > RT_MQ_MAX_NAME_LEN:
            raise ApiError(PARAM, acl_value(api, length + 1, "queue name length", f"[0, {RT_MQ_MAX_NAME_LEN}]"))
        ctypes.memmove(attr.name, name[:length] + b"\0", length + 1)
        return E.ACL_SUCCESS
    if kind == _DEPTH:
        attr.depth = _copy_in(attr.depth, 4, param, n, api, "param")
        return E.ACL_SUCCESS
    raise ApiError(
        PARAM, acl_value(api, _desc(_ATTR_DESC, kind), "type", "[ACL_TDT_QUEUE_NAME_PTR, ACL_TDT_QUEUE_DEPTH_UINT32]")
    )


@c_api(INTERNAL)
def acltdtGetQueueAttr(attr: object, type: int, len: int, paramRetSize: object, param: object) -> int:
    """Read the name (the attribute's own name buffer: ``param`` receives the text) or the depth."""
    api = "acltdtGetQueueAttr"
    _getter(api, attr, acltdtQueueAttr, "attr", param, paramRetSize)
    assert isinstance(attr, acltdtQueueAttr)
    kind = int_arg(type, "type", -(2**31), 2**31 - 1)
    n = int_arg(len, "len", 0, 2**64 - 1)
    if kind == _NAME_PTR:
        _copy_out(attr.text, _POINTER, param, n, paramRetSize)
        return E.ACL_SUCCESS
    if kind == _DEPTH:
        _copy_out(attr.depth, 4, param, n, paramRetSize)
        return E.ACL_SUCCESS
    raise ApiError(
        PARAM, acl_value(api, _desc(_ATTR_DESC, kind), "type", "[ACL_TDT_QUEUE_NAME_PTR, ACL_TDT_QUEUE_DEPTH_UINT32]")
    )


# ---------------------------------------------------------------------------------------------
# routes and route lists
# ---------------------------------------------------------------------------------------------


@c_api(INTERNAL, handle=True)
def acltdtCreateQueueRoute(srcId: int, dstId: int) -> acltdtQueueRoute:
    """A route from queue ``srcId`` to queue ``dstId`` (status 0)."""
    src = int_arg(srcId, "srcId", 0, 2**32 - 1)
    dst = int_arg(dstId, "dstId", 0, 2**32 - 1)
    return acltdtQueueRoute(src, dst)


@c_api(INTERNAL)
def acltdtDestroyQueueRoute(route: object) -> int:
    """Free a route."""
    return destroy("acltdtDestroyQueueRoute", route, acltdtQueueRoute, "route")


@c_api(INTERNAL)
def acltdtGetQueueRouteParam(route: object, type: int, len: int, paramRetSize: object, param: object) -> int:
    """A route's source id, destination id (uint32) or status (int32: after a bind 1 bound, 0 not;
    after an unbind 0 unbound, 1 not; from a query ACL_TDT_QUEUE_ROUTE_BIND or _BIND_ABNORMAL)."""
    api = "acltdtGetQueueRouteParam"
    _getter(api, route, acltdtQueueRoute, "route", param, paramRetSize)
    assert isinstance(route, acltdtQueueRoute)
    kind = int_arg(type, "type", -(2**31), 2**31 - 1)
    n = int_arg(len, "len", 0, 2**64 - 1)
    fields = {_ROUTE_SRC: route.src, _ROUTE_DST: route.dst, _ROUTE_STATUS: route.status}
    if kind not in fields:
        raise ApiError(
            PARAM,
            acl_value(
                api, f"UNKNOWN({kind})", "type", "[ACL_TDT_QUEUE_ROUTE_SRC_UINT32, ACL_TDT_QUEUE_ROUTE_STATUS_INT32]"
            ),
        )
    _copy_out(fields[kind], 4, param, n, paramRetSize)
    return E.ACL_SUCCESS


@c_api(INTERNAL, handle=True)
def acltdtCreateQueueRouteList() -> acltdtQueueRouteList:
    """An empty route list."""
    return acltdtQueueRouteList()


@c_api(INTERNAL)
def acltdtDestroyQueueRouteList(routeList: object) -> int:
    """Free a route list (its routes are copies: the caller's routes stay)."""
    return destroy("acltdtDestroyQueueRouteList", routeList, acltdtQueueRouteList, "routeList")


@c_api(INTERNAL)
def acltdtAddQueueRoute(routeList: object, route: object) -> int:
    """Append a copy of ``route`` to the list."""
    api = "acltdtAddQueueRoute"
    _need(api, routeList=routeList, route=route)
    live(routeList, acltdtQueueRouteList, api, "routeList")
    live(route, acltdtQueueRoute, api, "route")
    assert isinstance(routeList, acltdtQueueRouteList) and isinstance(route, acltdtQueueRoute)
    routeList.routes.append(acltdtQueueRoute(route.src, route.dst, route.status))
    return E.ACL_SUCCESS


@c_api(INTERNAL)
def acltdtGetQueueRoute(routeList: object, index: int, route: object) -> int:
    """Copy the list's route at ``index`` into the caller's ``route``."""
    api = "acltdtGetQueueRoute"
    _need(api, routeList=routeList, route=route)
    live(routeList, acltdtQueueRouteList, api, "routeList")
    live(route, acltdtQueueRoute, api, "route")
    assert isinstance(routeList, acltdtQueueRouteList) and isinstance(route, acltdtQueueRoute)
    i = int_arg(index, "index", 0, 2**64 - 1)
    size = len(routeList.routes)
    if i >= size:
        raise ApiError(PARAM, acl_reason(api, i, "index", f"must be less than routeList size {size}"))
    got = routeList.routes[i]
    route.src, route.dst, route.status = got.src, got.dst, got.status
    return E.ACL_SUCCESS


@c_api(INTERNAL)
def acltdtGetQueueRouteNum(routeList: object) -> int:
    """The number of routes in the list (0, reported, for NULL)."""
    api = "acltdtGetQueueRouteNum"
    try:
        _need(api, routeList=routeList)
        live(routeList, acltdtQueueRouteList, api, "routeList")
    except ApiError as e:
        e.report()
        return 0
    return len(routeList.routes)  # type: ignore[attr-defined]


__all__ = [
    "acltdtAddQueueRoute",
    "acltdtCreateQueueAttr",
    "acltdtCreateQueueRoute",
    "acltdtCreateQueueRouteList",
    "acltdtDestroyQueueAttr",
    "acltdtDestroyQueueRoute",
    "acltdtDestroyQueueRouteList",
    "acltdtGetQueueAttr",
    "acltdtGetQueueRoute",
    "acltdtGetQueueRouteNum",
    "acltdtGetQueueRouteParam",
    "acltdtQueueAttr",
    "acltdtQueueRoute",
    "acltdtQueueRouteList",
    "acltdtQueueRouteQueryInfo",
    "acltdtSetQueueAttr",
]
