"""The msproftx stamps of ``acl/acl_prof.h``: a pool of 100 stamps (aclprofCreateStamp /
aclprofDestroyStamp / aclprofSetStampTraceMessage), the instant marks (aclprofMark, aclprofMarkEx),
the push/pop slices and the ranges a program puts in its profile, and aclprofStr2Id.

They work after aclprofStart with ACL_PROF_MSPROFTX (:mod:`.api_prof`); each successful call is
recorded in the running session and drawn by :mod:`.prof_file`. The checks, codes and messages
are CANN's (``msproftx_adaptor.cpp``, ``msprof_tx_manager.cpp``, ``prof_stamp_pool.cpp``); a
failing stamp call returns the profiler's ``PROFILING_FAILED`` (-1), as CANN's do.
"""

from __future__ import annotations

import ctypes

from .._capi import ApiError, as_pointer, c_api, describe
from .._ref import Ref
from ._checks import INTERNAL, E, emu, int_arg, stream_handle, submit
from .prof_state import (
    _MAX_MSG_LEN,
    _S,
    _STAMP_BYTES,
    _STAMP_POOL,
    PROFILING_FAILED,
    _ek_null,
    _ek_order,
    _ek_value,
    _Stamp,
    _string,
    _thread,
)


def _tx_uninit() -> None:
    """MsprofTxUnInit (aclprofFinalize): the pool is released."""
    _S.tx_ready = False


def _stamp(address: object) -> _Stamp | None:
    """The pool entry at ``address`` (None if the address is not one the pool handed out)."""
    addr = as_pointer(address) if not isinstance(address, int) else address
    if addr is None or addr == 0:
        return None
    index, rest = divmod(addr - _S.base, _STAMP_BYTES)
    if rest or not 0 <= index < _STAMP_POOL:
        return None
    return _S.stamps.get(index)


def _require_stamp(address: object, api: str) -> _Stamp:
    stamp = _stamp(address)
    if stamp is None:
        # CANN writes through any pointer; the emulator refuses one its pool never handed out
        raise ApiError(PROFILING_FAILED, emu(f"{api}: stamp {describe(address)} is not a stamp of aclprofCreateStamp."))
    return stamp


def _record(kind: str, message: str, range_id: int = -1) -> None:
    session = _S.session
    if session is not None:
        session.records.append((kind, _thread(), message, range_id))


@c_api(INTERNAL)
def aclprofCreateStamp() -> int:
    """A stamp of the pool (100 entries), after aclprofStart with ACL_PROF_MSPROFTX: its address
    (NULL and EK0002 before that, NULL when the pool is used up)."""
    with _S.lock:
        if not _S.tx_ready:
            raise ApiError(0, _ek_order("aclprofStart", "aclprofCreateStamp"))
        if not _S.free:
            return 0  # "the number of used has reached the online": a log line only
        index = _S.free.pop(0)
        _S.stamps[index] = _Stamp(index)
        return _S.base + index * _STAMP_BYTES


@c_api(INTERNAL)
def aclprofDestroyStamp(stamp: object) -> int:
    """Return a stamp to the pool. C's ``void``: the Python function returns 0, or the code of a
    refusal."""
    if stamp is None or as_pointer(stamp) in (None, 0):
        raise ApiError(E.ACL_ERROR_INVALID_PARAM, _ek_null("aclprofDestroyStamp", "stamp"))
    with _S.lock:
        if not _S.tx_ready:
            return E.ACL_SUCCESS  # "MsprofTxManager is not inited yet": a log line only
        found = _stamp(stamp)
        if found is not None:
            del _S.stamps[found.ident]
            _S.free.insert(0, found.ident)
    return E.ACL_SUCCESS


@c_api(INTERNAL)
def aclprofSetStampTraceMessage(stamp: object, msg: str | bytes | None, msgLen: int) -> int:
    """The stamp's message (at most 127 bytes)."""
    if stamp is None or as_pointer(stamp) in (None, 0):
        raise ApiError(PROFILING_FAILED, _ek_null("aclprofSetStampTraceMessage", "stamp"))
    n = int_arg(msgLen, "msgLen", 0, 2**32 - 1)
    if n >= _MAX_MSG_LEN:  # CANN reports this as EK0006 on "stamp"
        raise ApiError(PROFILING_FAILED, _ek_null("aclprofSetStampTraceMessage", "stamp"))
    text = _string(msg)
    if text is None:
        return PROFILING_FAILED  # strncpy_s fails: a log line only
    with _S.lock:
        found = _require_stamp(stamp, "aclprofSetStampTraceMessage")
        found.message = text.encode("utf-8")[:n].decode("utf-8", "replace")
    return E.ACL_SUCCESS


@c_api(INTERNAL)
def aclprofMark(stamp: object) -> int:
    """An instant event with the stamp's message."""
    with _S.lock:
        if not _S.tx_ready:
            return PROFILING_FAILED
        if stamp is None or as_pointer(stamp) in (None, 0):
            raise ApiError(PROFILING_FAILED, _ek_null("aclprofMark", "stamp"))
        found = _require_stamp(stamp, "aclprofMark")
        _record("mark", found.message)
    return E.ACL_SUCCESS


@c_api(INTERNAL)
def aclprofMarkEx(msg: str | bytes | None, msgLen: int, stream: object) -> int:
    """An instant event with ``msg``, also put on ``stream`` as a marker task."""
    with _S.lock:
        if not _S.tx_ready:
            return PROFILING_FAILED
    text = _string(msg)
    n = int_arg(msgLen, "msgLen", 0, 2**64 - 1)
    if text is None or stream is None or as_pointer(stream) == 0 or len(text.encode("utf-8")) != n:
        raise ApiError(PROFILING_FAILED, _ek_value("nullptr", "message", "Invalid input param for markEx"))
    if n > _MAX_MSG_LEN - 1 or n < 1:
        return PROFILING_FAILED
    st = stream_handle(stream, "rtProfilerTraceEx")
    if st is not None:
        submit(st, f"aclprofMarkEx({text})", lambda: None)
    with _S.lock:
        _record("markex", text)
    return E.ACL_SUCCESS


@c_api(INTERNAL)
def aclprofPush(stamp: object) -> int:
    """Open a slice with the stamp's message (closed by aclprofPop)."""
    if stamp is None or as_pointer(stamp) in (None, 0):
        # ProfAclPush checks the stamp before the manager's init (msproftx_adaptor.cpp:116-125)
        raise ApiError(E.ACL_ERROR_INVALID_PARAM, _ek_null("aclprofPush", "stamp"))
    with _S.lock:
        if not _S.tx_ready:
            return PROFILING_FAILED
        found = _require_stamp(stamp, "aclprofPush")
        _S.stack.append(found)
        _record("push", found.message)
    return E.ACL_SUCCESS


@c_api(INTERNAL)
def aclprofPop() -> int:
    """Close the slice of the last aclprofPush (one stack for the process, as CANN's)."""
    with _S.lock:
        if not _S.tx_ready:
            return PROFILING_FAILED
        if not _S.stack:
            raise ApiError(PROFILING_FAILED, _ek_order("aclprofPush", "aclprofPop"))
        found = _S.stack.pop()
        _record("pop", found.message)
    return E.ACL_SUCCESS


@c_api(INTERNAL)
def aclprofRangeStart(stamp: object, rangeId: object) -> int:
    """Open a range with the stamp's message; ``*rangeId`` names it for aclprofRangeStop."""
    # ProfAclRangeStart checks both pointers before the manager's init (msproftx_adaptor.cpp:138-150)
    if stamp is None or as_pointer(stamp) in (None, 0):
        raise ApiError(E.ACL_ERROR_INVALID_PARAM, _ek_null("aclprofRangeStart", "stamp"))
    if rangeId is None:
        raise ApiError(E.ACL_ERROR_INVALID_PARAM, _ek_null("aclprofRangeStart", "rangeId"))
    with _S.lock:
        if not _S.tx_ready:
            raise ApiError(PROFILING_FAILED, _ek_order("aclprofStart", "aclprofRangeStart"))
        found = _require_stamp(stamp, "aclprofRangeStart")
        found.enabled = True
        _store(rangeId, found.ident)
        _record("range-start", found.message, found.ident)
    return E.ACL_SUCCESS


def _store(out: object, value: int) -> None:
    if isinstance(out, (Ref, ctypes._SimpleCData)):
        out.value = value
    else:
        raise ApiError(
            E.ACL_ERROR_INVALID_PARAM, emu(f"aclprofRangeStart: rangeId must be an out-parameter, got {describe(out)}.")
        )


@c_api(INTERNAL)
def aclprofRangeStop(rangeId: int) -> int:
    """Close the range ``rangeId``."""
    with _S.lock:
        if not _S.tx_ready:
            raise ApiError(PROFILING_FAILED, _ek_order("aclprofStart", "aclprofRangeStop"))
        ident = int_arg(rangeId, "rangeId", 0, 2**32 - 1)
        found = _S.stamps.get(ident) if ident < _STAMP_POOL else None
        if found is None or not found.enabled:
            raise ApiError(PROFILING_FAILED, _ek_order("aclprofRangeStart", "aclprofRangeStop"))
        _record("range-stop", found.message, ident)
    return E.ACL_SUCCESS


@c_api(INTERNAL)
def aclprofStr2Id(message: str | bytes | None) -> int:
    """A 64-bit id for a message (CANN hashes the text; aclnn_py uses FNV-1a, stable across runs)."""
    text = _string(message) or ""
    h = 0xCBF29CE484222325
    for byte in text.encode("utf-8"):
        h = ((h ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


__all__ = [
    "aclprofCreateStamp",
    "aclprofDestroyStamp",
    "aclprofMark",
    "aclprofMarkEx",
    "aclprofPop",
    "aclprofPush",
    "aclprofRangeStart",
    "aclprofRangeStop",
    "aclprofSetStampTraceMessage",
    "aclprofStr2Id",
]
