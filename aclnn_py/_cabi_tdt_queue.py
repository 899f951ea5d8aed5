"""The C ABI's adaptors for acl/acl_tdt_queue.h: the ``(type, len, param)`` calls read and write
the caller's bytes as CANN's CopyParam does (``len`` bytes of ``param``, a NAME_PTR payload being a
``const char*`` whose text is read), acltdtGetQueueAttr hands out the address of the attribute's
own name buffer, and acltdtEnqueueData/acltdtDequeueData see the caller's host memory in place
(pinned and device memory by address). ``aclnn_py._cabi`` merges :data:`ADAPTORS` into its table;
the rest of the header goes through the generic conversion (its handles are in capi/gen_rt.py).
"""

from __future__ import annotations

import ctypes
from typing import Any

from ._cabi_core import H, _buffer, _u64
from ._ref import Ref

_NAME_PTR, _DEPTH = 0, 1
RT_MQ_MAX_NAME_LEN = 128  # the attribute's name buffer (not imported: the tdt queue chapter loads lazily)
_POINTER = 8
_FIELD = 4  # every other payload: a uint32, an int32 or an enum


def _head(addr: int, n: int) -> bytes:
    """The first ``n`` bytes at ``addr`` (only called with ``n`` no larger than the field)."""
    return ctypes.string_at(addr, n) if n else b""


def _name_at(ptr: int) -> bytes:
    """strnlen(ptr, 128) bytes of a C string: what CANN's strnlen reads, no further."""
    out = bytearray()
    while len(out) < RT_MQ_MAX_NAME_LEN:
        ch = ctypes.c_char.from_address(ptr + len(out)).value
        if ch == b"\0":
            break
        out += ch
    return bytes(out)


def _set_queue_attr(fn: Any, attr: int, type: int, n: int, param: int) -> int:
    value: object = None
    if param:
        if type == _NAME_PTR and 0 < n <= _POINTER:
            ptr = int.from_bytes(_head(param, n), "little")
            value = _name_at(ptr) if n == _POINTER and ptr else ptr  # a partial pointer: refused as a number
        elif type == _DEPTH and n <= _FIELD:
            value = _head(param, n)
        else:
            value = b""  # a copy the Python function refuses before reading it
    return int(fn(H.obj(attr), type, n, value))


def _out_field(param: int, signed: bool) -> Any:
    if param == 0:
        return None
    return (ctypes.c_int32 if signed else ctypes.c_uint32).from_address(param)


def _get_queue_attr(fn: Any, attr: int, type: int, n: int, paramRetSize: int, param: int) -> int:
    obj = H.obj(attr)
    if type != _NAME_PTR:
        out = _out_field(param, False) if type == _DEPTH else (Ref() if param else None)
        return int(fn(obj, type, n, _u64(paramRetSize), out))
    rc = int(fn(obj, type, n, _u64(paramRetSize), Ref() if param else None))
    name = getattr(obj, "name", None)
    if rc == 0 and isinstance(name, ctypes.Array):
        ctypes.c_uint64.from_address(param).value = ctypes.addressof(name)  # CANN's &attr->name[0]
    return rc


def _get_route_param(fn: Any, route: int, type: int, n: int, paramRetSize: int, param: int) -> int:
    out = _out_field(param, type == 2) if type in (0, 1, 2) else (Ref() if param else None)
    return int(fn(H.obj(route), type, n, _u64(paramRetSize), out))


def _set_query_info(fn: Any, info: int, type: int, n: int, value: int) -> int:
    payload: object = None
    if value:
        payload = _head(value, n) if n <= _FIELD else b""
    return int(fn(H.obj(info), type, n, payload))


def _enqueue_data(
    fn: Any, qid: int, data: int, dataSize: int, userData: int, userDataSize: int, timeout: int, rsv: int
) -> int:
    return int(fn(qid, _buffer(data, dataSize), dataSize, _buffer(userData, userDataSize), userDataSize, timeout, rsv))


def _dequeue_data(
    fn: Any, qid: int, data: int, dataSize: int, retDataSize: int, userData: int, userDataSize: int, timeout: int
) -> int:
    return int(
        fn(
            qid,
            _buffer(data, dataSize),
            dataSize,
            _u64(retDataSize),
            _buffer(userData, userDataSize),
            userDataSize,
            timeout,
        )
    )


ADAPTORS: dict[str, Any] = {
    "acltdtSetQueueAttr": _set_queue_attr,
    "acltdtGetQueueAttr": _get_queue_attr,
    "acltdtGetQueueRouteParam": _get_route_param,
    "acltdtSetQueueRouteQueryInfo": _set_query_info,
    "acltdtEnqueueData": _enqueue_data,
    "acltdtDequeueData": _dequeue_data,
}
