"""The streams chapter of ``acl_rt.h``: creation, destruction, synchronisation, queries, the
failure mode and the stream-config handle.
"""

from __future__ import annotations

from .. import _errmsg
from .. import soc as _soc
from .._capi import ApiError
from .._ref import store
from . import sanitizer
from ._checks import (
    ACL_CALL,
    TIMEOUT_EXPECT,
    E,
    acl_inner,
    acl_null,
    acl_value,
    drain,
    emu,
    fb_invalid,
    int_arg,
    is_null_handle,
    need_context,
    out_arg,
    own_stream,
    rt_api,
    rt_value,
    stream_error,
    stream_handle,
)
from .device import RT
from .enums import aclrtStreamStatus
from .memory import call_site
from .stream import Stream

# ---------------------------------------------------------------------------------------------
# streams
# ---------------------------------------------------------------------------------------------

# aclrtCreateStreamWithConfig maps the ACL flags it knows to the runtime's (others are dropped).
_STREAM_FLAGS = {0x1: 0x200, 0x2: 0x400, 0x4: 0x01, 0x8: 0x04, 0x10: 0x08, 0x20: 0x800}
_RT_STREAM_HUGE, _RT_STREAM_CP_PROCESS_USE, _RT_STREAM_ACSQ_LOCK = 0x04, 0x800, 0x2000
_NO_HUGE_STREAMS = ("Ascend310P",)  # SoC families without RT_FEATURE_STREAM_HUGE_DEPTH


def _create_stream(out: object, flags: int) -> int:
    rt_flags = 0
    for acl_flag, rt_flag in _STREAM_FLAGS.items():
        if flags & acl_flag:
            rt_flags |= rt_flag
    if rt_flags & _RT_STREAM_HUGE and _soc.current().family in _NO_HUGE_STREAMS:
        raise ApiError(  # FEATURE_NOT_SUPPORT: rtStreamCreateWithFlags adds nothing
            E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
            (
                "EE1006",
                f"Checking stream flags failed. Parameter flags value {rt_flags} is not supported. Reason: The current "
                "SoC supports only streams with a normal number of tasks and does not support huge streams.",
            ),
        )
    if rt_flags & _RT_STREAM_CP_PROCESS_USE and (rt_flags | _RT_STREAM_ACSQ_LOCK) != (
        _RT_STREAM_ACSQ_LOCK | _RT_STREAM_CP_PROCESS_USE
    ):
        raise ApiError(
            E.ACL_ERROR_RT_PARAM_INVALID,
            (
                "EE1006",
                f"Checking stream flags failed. Parameter flags value {rt_flags} is not supported. Reason: The flag "
                "RT_STREAM_CP_PROCESS_USE(0x800U) must be used together with RT_STREAM_ACSQ_LOCK(0x2000U).",
            ),
            fb_invalid("rtStreamCreateWithFlags"),
        )
    ctx = need_context("rtStreamCreateWithFlags")
    with RT.lock:
        dev = ctx.device
        soc = _soc.current()
        if dev.stream_count() >= soc.max_streams:
            raise ApiError(
                E.ACL_ERROR_RT_NO_STREAM_RESOURCE,
                emu(
                    f"stream creation: device {dev.ident} already has {soc.max_streams} streams, the most "
                    f"{soc.family} offers (default streams included); destroy the streams you no longer use."
                ),
            )
        s = Stream(ctx, False, flags, call_site())
        ctx.streams.append(s)
    store(out, s)
    return E.ACL_SUCCESS


@rt_api
def aclrtCreateStreamWithConfig(stream: object, priority: int, flag: int) -> int:
    """Create a stream in the current context (the priority is clamped and otherwise ignored)."""
    out = out_arg(stream, "aclrtCreateStreamWithConfig", "stream", numeric=False)
    int_arg(priority, "priority", 0, 2**32 - 1)
    flags = int_arg(flag, "flag", 0, 2**32 - 1)
    return _create_stream(out, flags)


@rt_api
def aclrtCreateStream(stream: object) -> int:
    """Create a stream in the current context."""
    return _create_stream(out_arg(stream, "aclrtCreateStream", "stream", numeric=False), 0)


@rt_api
def aclrtDestroyStream(stream: object) -> int:
    """Wait for the stream's tasks, then destroy it. The stream must belong to the current context."""
    if is_null_handle(stream):
        raise ApiError(E.ACL_ERROR_INVALID_PARAM, acl_null("aclrtDestroyStream", "stream"))
    st = stream_handle(stream, "rtStreamDestroy")
    assert st is not None
    ctx = need_context("rtStreamDestroy")
    own_stream(st, ctx, "Stream destruction", "rtStreamDestroy")
    if st.is_default:
        raise ApiError(
            E.ACL_ERROR_RT_PARAM_INVALID,
            emu(
                f"aclrtDestroyStream: {st!r} is a context's default stream; it goes with its context "
                "(aclrtResetDevice, aclrtDestroyContext), not by aclrtDestroyStream."
            ),
        )
    sanitizer.check_pending_destroy(st, "aclrtDestroyStream")
    code = 0
    try:
        drain(st)
        stream_error(st)
    except ApiError as e:
        for message in e.messages:
            _errmsg.report(*message)
        code = e.code
    sanitizer.check_stream_release(st, "aclrtDestroyStream")
    with RT.lock:
        st.destroyed = True
        RT.policy.shutdown(st)
        if st in st.context.streams:
            st.context.streams.remove(st)
    return code or E.ACL_SUCCESS


def _sync_stream(stream: object, rt_fn: str, timeout: int = -1) -> int:
    st = stream_handle(stream, rt_fn)
    if timeout == 0:
        raise ApiError(
            E.ACL_ERROR_RT_PARAM_INVALID,
            rt_value("Synchronizing a stream", timeout, "timeout", TIMEOUT_EXPECT),
            fb_invalid(rt_fn),
        )
    ctx = need_context(rt_fn)
    s = st or ctx.default_stream  # a stream of another context is synchronized too
    drain(s)
    return stream_error(s)


@rt_api
def aclrtSynchronizeStream(stream: object) -> int:
    """Block until every task queued on the stream has finished; report a failed task's status."""
    return _sync_stream(stream, "rtStreamSynchronize")


@rt_api
def aclrtSynchronizeStreamWithTimeout(stream: object, timeout: int) -> int:
    """As aclrtSynchronizeStream; timeout < -1 or == 0 gives 107000 (the emulator never times out)."""
    t = int_arg(timeout, "timeout", -(2**31), 2**31 - 1)
    if t < -1:
        raise ApiError(
            E.ACL_ERROR_RT_PARAM_INVALID,
            acl_inner("the timeout of synchronize stream is invalid", ACL_CALL),
            acl_value("aclrtSynchronizeStreamWithTimeout", t, "timeout", "[-1, INT_MAX]"),
        )
    return _sync_stream(stream, "rtStreamSynchronizeWithTimeout", t)


@rt_api
def aclrtStreamQuery(stream: object, status: object) -> int:
    """COMPLETE if nothing is queued; otherwise NOT_READY — and the device makes progress, so a
    polling loop sees COMPLETE on a later query."""
    out = out_arg(status, "aclrtStreamQuery", "status")
    st = stream_handle(stream, "rtStreamQuery")
    ctx = need_context("rtStreamQuery")
    s = st or ctx.default_stream  # a stream of another context is queried too
    if s.pending:
        store(out, aclrtStreamStatus.ACL_STREAM_STATUS_NOT_READY)
        if RT.policy.name != "thread":
            drain(s)
    else:
        store(out, aclrtStreamStatus.ACL_STREAM_STATUS_COMPLETE)
    return E.ACL_SUCCESS
