"""Per-stream settings of ``acl_rt.h``: the cores a stream may use (aclrtSetStreamResLimit ...,
aclrtUseStreamResInCurrentThread binds a stream's limits to the calling thread, which
aclrtGetResInCurrentThread then reports) and the overflow detection switch
(aclrtSetStreamOverflowSwitch / aclrtGetStreamOverflowSwitch).

The settings live beside the stream (a weak table: the stream object belongs to stream.py),
and go with it.
"""

from __future__ import annotations

import weakref

from .. import soc as _soc
from .._capi import ApiError
from .._ref import store
from . import _rt_features
from . import model_ri as M
from ._checks import (
    PARAM,
    RT_PARAM,
    E,
    acl_null,
    acl_value,
    fb_invalid,
    int_arg,
    need_context,
    out_arg,
    own_stream,
    rt_api,
    rt_value,
    stream_handle,
)
from ._model_ri_checks import captured
from .device import RT
from .stream import Stream

_RES_DESC = {0: "DEV_RES_CUBE_CORE(0)", 1: "DEV_RES_VECTOR_CORE(1)", 2: "DEV_RES_TYPE_MAX(2)"}
_limits: weakref.WeakKeyDictionary[Stream, dict[int, int]] = weakref.WeakKeyDictionary()
_overflow: weakref.WeakKeyDictionary[Stream, int] = weakref.WeakKeyDictionary()


def _type(value: object, desc: str, rt_fn: str) -> int:
    t = int_arg(value, "type", -(2**31), 2**31 - 1)
    if not 0 <= t < 2:
        raise ApiError(
            RT_PARAM,
            rt_value(desc, _RES_DESC.get(t & 0xFFFFFFFF, f"UNKNOWN({t})"), "type", "[0, 2)"),
            fb_invalid(rt_fn),
        )
    return t


def _target(stream: object, rt_fn: str) -> Stream:
    """The stream handle guard, then NULL: the current context's default stream."""
    st = stream_handle(stream, rt_fn)
    return st if st is not None else need_context(rt_fn).default_stream


def hardware_cores(t: int) -> int:
    """The SoC's cores of a resource type: cube cores (the AI Cores where the ini has no cube
    count) or vector cores."""
    soc = _soc.current()
    return (soc.cube_core_cnt or soc.ai_core_cnt) if t == 0 else soc.vector_core_cnt


def device_cores(st: Stream, t: int) -> int:
    """The cores of type ``t`` of the stream's device (aclrtSetDeviceResLimit's, else the SoC's)."""
    return int(st.context.device.res_limits.get(t, hardware_cores(t)))


def stream_limit(st: Stream, t: int) -> int | None:
    """The stream's own limit of type ``t`` (None: it follows the device)."""
    return _limits.get(st, {}).get(t)


@rt_api
def aclrtSetStreamResLimit(stream: object, type: int, value: int) -> int:
    """Limit the cores of ``type`` the stream's kernels use (at most the SoC's count; it need
    not be under aclrtSetDeviceResLimit's). NULL: the current context's default stream."""
    rt_fn = "rtsSetStreamResLimit"
    v = int_arg(value, "value", 0, 2**32 - 1)
    st = stream_handle(stream, rt_fn)
    t = _type(type, "Setting the device resource limit for the specified stream", rt_fn)
    st = st if st is not None else need_context(rt_fn).default_stream
    most = hardware_cores(t)
    if v > most:
        raise ApiError(
            RT_PARAM,
            rt_value(
                "Setting the device resource limits of a specific stream",
                v,
                "value",
                f"must be less than or equal to {most}",
            ),
            fb_invalid(rt_fn),
        )
    _limits.setdefault(st, {})[t] = v
    return E.ACL_SUCCESS


@rt_api
def aclrtGetStreamResLimit(stream: object, type: int, value: object) -> int:
    """The stream's core limit of ``type``, else the device's."""
    rt_fn = "rtsGetStreamResLimit"
    out = out_arg(value, "aclrtGetStreamResLimit", "value")
    st = stream_handle(stream, rt_fn)
    t = _type(type, "Obtaining the device resource limits of a specified stream", rt_fn)
    st = st if st is not None else need_context(rt_fn).default_stream
    own = stream_limit(st, t)
    store(out, own if own is not None else device_cores(st, t))
    return E.ACL_SUCCESS


@rt_api
def aclrtResetStreamResLimit(stream: object) -> int:
    """Drop the stream's own limits: it follows the device's again."""
    _limits.pop(_target(stream, "rtsResetStreamResLimit"), None)
    return E.ACL_SUCCESS


@rt_api
def aclrtUseStreamResInCurrentThread(stream: object) -> int:
    """Bind the stream's limits to the calling thread (aclrtGetResInCurrentThread reports them)."""
    RT.tls.res_stream = _target(stream, "rtsUseStreamResInCurrentThread")
    return E.ACL_SUCCESS


@rt_api
def aclrtUnuseStreamResInCurrentThread(stream: object) -> int:
    """Unbind the stream from the calling thread (another stream than the bound one: nothing)."""
    st = _target(stream, "rtsNotUseStreamResInCurrentThread")
    if getattr(RT.tls, "res_stream", None) is st:
        RT.tls.res_stream = None
    return E.ACL_SUCCESS


def thread_limit(t: int) -> int | None:
    """The limit of ``t`` of the stream bound to the calling thread, if it has one."""
    st = getattr(RT.tls, "res_stream", None)
    if st is None or st.destroyed:
        return None
    return stream_limit(st, t)


def refuse_capturing(st: Stream | None, desc: str, rt_fn: str) -> None:
    """ApiErrorDecorator::SetStreamOverflowSwitch / SetStreamTag (api_error.cc:6024-6027, 6121-6123):
    a capturing stream is refused (107027, EE1016), and the rt wrapper's ERROR_RETURN_WITH_EXT_ERRCODE
    adds FuncErrorReason's inner report."""
    if st is not None and st.capture is not None and M.capturing(st):
        raise captured(st, desc, rt_fn)


@rt_api
def aclrtSetStreamOverflowSwitch(stream: object, flag: int) -> int:
    """Turn overflow detection on (1) or off (0) for the stream's tasks. Chips without the
    per-stream switch (Ascend910, Ascend310P) accept and ignore it, as CANN does."""
    rt_fn = "rtSetStreamOverflowSwitch"
    f = int_arg(flag, "flag", 0, 2**32 - 1)
    if f not in (0, 1):
        raise ApiError(PARAM, acl_value("aclrtSetStreamOverflowSwitch", f, "flag", "0 or 1"))
    if not _rt_features.has("RT_FEATURE_STREAM_ATTR_OVERFLOW_CHECK"):
        return E.ACL_SUCCESS
    st = stream_handle(stream, rt_fn)
    refuse_capturing(st, "Setting the stream overflow/underflow detection switch", rt_fn)
    ctx = need_context(rt_fn)
    target = st if st is not None else ctx.default_stream
    own_stream(target, ctx, "Setting the stream overflow/underflow detection switch", rt_fn)
    _overflow[target] = f
    return E.ACL_SUCCESS


@rt_api
def aclrtGetStreamOverflowSwitch(stream: object, flag: object) -> int:
    """The stream's overflow detection switch (0 until set; always 1 on the chips without one)."""
    rt_fn = "rtGetStreamOverflowSwitch"
    if flag is None:
        raise ApiError(PARAM, acl_null("aclrtGetStreamOverflowSwitch", "flag"))
    out = out_arg(flag, "aclrtGetStreamOverflowSwitch", "flag")
    st = stream_handle(stream, rt_fn)
    ctx = need_context(rt_fn)
    target = st if st is not None else ctx.default_stream
    own_stream(target, ctx, "Obtaining the overflow/underflow detection flag of a specified stream", rt_fn)
    stars = _rt_features.has("RT_FEATURE_STREAM_ATTR_OVERFLOW_CHECK")
    store(out, _overflow.get(target, 0) if stars else 1)
    return E.ACL_SUCCESS


__all__ = [
    "aclrtGetStreamOverflowSwitch",
    "aclrtGetStreamResLimit",
    "aclrtResetStreamResLimit",
    "aclrtSetStreamOverflowSwitch",
    "aclrtSetStreamResLimit",
    "aclrtUnuseStreamResInCurrentThread",
    "aclrtUseStreamResInCurrentThread",
]
