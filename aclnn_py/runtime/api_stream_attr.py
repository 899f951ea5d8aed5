"""aclrtSetStreamAttribute / aclrtGetStreamAttribute (``acl_rt.h``): one switch over a stream's
failure mode, overflow detection switch, user tag, operator-info caching switch and priority,
each through the runtime call CANN's ``rtsStreamSetAttribute`` / ``rtsStreamGetAttribute``
(src/runtime/api/api_c_stream.cc:439-545) dispatches to.
"""

from __future__ import annotations

import weakref

from .._capi import ApiError, describe
from . import _rt_features
from ._checks import (
    PARAM,
    RT_PARAM,
    E,
    acl_null,
    cur_stream,
    emu,
    fb_invalid,
    fb_unsupported,
    int_arg,
    need_context,
    own_stream,
    rt_api,
    rt_value,
    stream_handle,
)
from .api_stream import _RT_STREAM_AICPU, clamp_priority, rt_flags_of, set_failure_mode
from .api_stream_res import _overflow, refuse_capturing
from .stream import Stream

ACL_STREAM_ATTR_FAILURE_MODE, ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK = 1, 2
ACL_STREAM_ATTR_USER_CUSTOM_TAG, ACL_STREAM_ATTR_CACHE_OP_INFO, ACL_STREAM_ATTR_PRIORITY = 3, 4, 5
_RT_STREAM_ATTR_MAX = 6
_tags: weakref.WeakKeyDictionary[Stream, int] = weakref.WeakKeyDictionary()
_cache_op_info: weakref.WeakKeyDictionary[Stream, int] = weakref.WeakKeyDictionary()


class aclrtStreamAttrValue:
    """``aclrtStreamAttrValue``, a union: ``failureMode`` is its 64 bits, the other members its low
    32 bits (``overflowSwitch``, ``userCustomTag``, ``cacheOpInfoSwitch``, ``streamPriority``)."""

    __slots__ = ("raw",)

    def __init__(self, raw: int = 0) -> None:
        self.raw = raw & 0xFFFFFFFFFFFFFFFF

    def _low(self) -> int:
        return self.raw & 0xFFFFFFFF

    def _set_low(self, v: int) -> None:
        self.raw = (self.raw & ~0xFFFFFFFF) | (int(v) & 0xFFFFFFFF)

    failureMode = property(lambda self: self.raw, lambda self, v: setattr(self, "raw", int(v) & (2**64 - 1)))
    overflowSwitch = property(_low, _set_low)
    userCustomTag = property(_low, _set_low)
    cacheOpInfoSwitch = property(_low, _set_low)
    streamPriority = property(_low, _set_low)

    def __repr__(self) -> str:
        return f"aclrtStreamAttrValue(0x{self.raw:x})"


def _value_arg(value: object, api: str) -> aclrtStreamAttrValue:
    if value is None:
        raise ApiError(PARAM, acl_null(api, "value"))
    if not isinstance(value, aclrtStreamAttrValue):
        raise ApiError(PARAM, emu(f"{api}: value must be an aclrtStreamAttrValue, got {describe(value)}."))
    return value


def _context_stream(st: Stream | None, desc: str, rt_fn: str) -> Stream:
    """ApiImpl's pattern (Set/GetStreamOverflowSwitch, Set/GetStreamTag: api_impl.cc:6960-6984,
    7029-7053): ``CurrentContext()``, which makes an aclInit default device current, NULL its
    default stream, which must be its own."""
    ctx = need_context(rt_fn)
    target = st if st is not None else ctx.default_stream
    own_stream(target, ctx, desc, rt_fn)
    return target


def _bad_attr(attr: int, rt_fn: str) -> ApiError:
    return ApiError(RT_PARAM, rt_value(rt_fn, attr, "stmAttrId", f"[1, {_RT_STREAM_ATTR_MAX})"), fb_invalid(rt_fn))


def _null_stm(desc: str, rt_fn: str) -> ApiError:
    return ApiError(RT_PARAM, ("EE1004", f"{desc} failed because stm cannot be a NULL pointer."), fb_invalid(rt_fn))


def _no_aicpu_priority(st: Stream, desc: str, verb: str, rt_fn: str) -> None:
    """ApiErrorDecorator::Set/GetStreamPriorityValue (api_error.cc:6043-6046, 6071-6074): a stream
    of AI CPU scheduling tasks (RT_STREAM_AICPU, ACL_STREAM_CPU_SCHEDULE) has no priority. (The
    RT_STREAM_FORBIDDEN_DEFAULT check before it, api_error.cc:6040-6042, 6068-6070, meets no ACL
    stream: aclrtCreateStream and aclrtCreateStreamWithConfig never set 0x10, and the lite library's
    aclrtCreateStreamV2 keeps no flag at all.)"""
    flags = rt_flags_of(st.flags)
    if flags & _RT_STREAM_AICPU:
        raise ApiError(
            E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
            (
                "EE1006",
                f"{desc} failed. Parameter stm->Flags() value {flags} is not supported. Reason: The current stream "
                f"is used to carry AI CPU scheduling tasks and does not support priority {verb}.",
            ),
            fb_unsupported(rt_fn),
        )


@rt_api
def aclrtSetStreamAttribute(stream: object, stmAttrType: int, value: object) -> int:
    """Set one attribute of the stream: ACL_STREAM_ATTR_FAILURE_MODE (as aclrtSetStreamFailureMode),
    _FLOAT_OVERFLOW_CHECK (as aclrtSetStreamOverflowSwitch; 0 or 1), _USER_CUSTOM_TAG (a number
    kept with the stream; Ascend910B/910_93/950), _CACHE_OP_INFO (0 or 1) or _PRIORITY (clamped
    to [0, 7], as aclrtCreateStreamWithConfig's). NULL stream: the current default stream."""
    api, rt_fn = "aclrtSetStreamAttribute", "rtsStreamSetAttribute"
    v = _value_arg(value, api)
    attr = int_arg(stmAttrType, "stmAttrType", -(2**31), 2**31 - 1)
    st = stream_handle(stream, rt_fn)
    if attr == ACL_STREAM_ATTR_FAILURE_MODE:
        return set_failure_mode(st, v.failureMode, rt_fn)
    if attr == ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK:
        if not _rt_features.has("RT_FEATURE_STREAM_ATTR_OVERFLOW_CHECK"):
            return E.ACL_SUCCESS  # "does not support, return success"
        desc = "Setting the stream overflow/underflow detection switch"
        if v.overflowSwitch >= 2:
            raise ApiError(RT_PARAM, rt_value(desc, v.overflowSwitch, "flags", "[0, 2)"), fb_invalid(rt_fn))
        refuse_capturing(st, desc, rt_fn)
        _overflow[_context_stream(st, desc, rt_fn)] = v.overflowSwitch
        return E.ACL_SUCCESS
    if attr == ACL_STREAM_ATTR_USER_CUSTOM_TAG:
        if not _rt_features.has("RT_FEATURE_STREAM_ATTR_USER_CUSTOM_TAG"):
            return E.ACL_SUCCESS
        refuse_capturing(st, "Setting the stream tag", rt_fn)
        _tags[_context_stream(st, "Setting the stream tag", rt_fn)] = v.userCustomTag
        return E.ACL_SUCCESS
    if attr == ACL_STREAM_ATTR_CACHE_OP_INFO:
        target = cur_stream(st, "Setting the switch for caching operator information in a stream", rt_fn)
        if v.cacheOpInfoSwitch not in (0, 1):
            raise ApiError(RT_PARAM, fb_invalid(rt_fn))  # RT_ERROR_INVALID_VALUE without a report of its own
        _cache_op_info[target] = v.cacheOpInfoSwitch
        return E.ACL_SUCCESS
    if attr == ACL_STREAM_ATTR_PRIORITY:
        if st is None:
            raise _null_stm("Setting the stream priority", rt_fn)
        _no_aicpu_priority(st, "Setting the stream priority", "setting", rt_fn)
        need_context(rt_fn)
        st.priority = clamp_priority(v.streamPriority)
        return E.ACL_SUCCESS
    raise _bad_attr(attr, rt_fn)


@rt_api
def aclrtGetStreamAttribute(stream: object, stmAttrType: int, value: object) -> int:
    """Read one attribute of the stream into ``value`` (see aclrtSetStreamAttribute); the tag off
    Ascend910B/910_93/950 leaves ``value`` as it was, as CANN does."""
    api, rt_fn = "aclrtGetStreamAttribute", "rtsStreamGetAttribute"
    v = _value_arg(value, api)
    attr = int_arg(stmAttrType, "stmAttrType", -(2**31), 2**31 - 1)
    st = stream_handle(stream, rt_fn)
    if attr == ACL_STREAM_ATTR_FAILURE_MODE:
        v.failureMode = cur_stream(st, "Obtaining the error handling mode of a stream", rt_fn).failure_mode
    elif attr == ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK:
        target = _context_stream(st, "Obtaining the overflow/underflow detection flag of a specified stream", rt_fn)
        v.overflowSwitch = _overflow.get(target, 0) if _rt_features.has("RT_FEATURE_STREAM_ATTR_OVERFLOW_CHECK") else 1
    elif attr == ACL_STREAM_ATTR_USER_CUSTOM_TAG:
        if _rt_features.has("RT_FEATURE_STREAM_ATTR_USER_CUSTOM_TAG"):
            v.userCustomTag = _tags.get(_context_stream(st, "Obtaining the stream label", rt_fn), 0)
    elif attr == ACL_STREAM_ATTR_CACHE_OP_INFO:
        target = cur_stream(st, "Querying whether the operator information is cached", rt_fn)
        v.cacheOpInfoSwitch = _cache_op_info.get(target, 0)
    elif attr == ACL_STREAM_ATTR_PRIORITY:
        if st is None:
            raise _null_stm("Obtaining the stream priority", rt_fn)
        _no_aicpu_priority(st, "Obtaining the stream priority", "getting", rt_fn)
        need_context(rt_fn)
        v.streamPriority = st.priority
    else:
        raise _bad_attr(attr, rt_fn)
    return E.ACL_SUCCESS


__all__ = ["aclrtGetStreamAttribute", "aclrtSetStreamAttribute", "aclrtStreamAttrValue"]
