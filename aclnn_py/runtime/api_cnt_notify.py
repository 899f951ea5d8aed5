"""The counting notifies of ``acl_rt.h`` (aclrtCntNotify*, Ascend950 only): a 32-bit count that
a record sets, adds to, ORs or ANDs on one stream and a wait on another stream compares against.
The other chips answer 207000 (their runtime's ``ApiImpl`` has no counting notify).
"""

from __future__ import annotations

import itertools

from .._capi import ApiError, describe
from .._ref import store
from ._checks import (
    PARAM,
    RT_PARAM,
    E,
    acl_null,
    bad_object,
    check_stopped,
    emu,
    fb_unsupported,
    impl_david,
    int_arg,
    is_null_handle,
    need_context,
    out_arg,
    own_stream,
    rt_api,
    rt_value,
    stream_handle,
)
from .api_notify import bad_value, null_param
from .device import RT, Context
from .memory import call_site
from .stream import Stream, Task, TaskFault, wait_until

# ---------------------------------------------------------------------------------------------
# counting notifies (Ascend950)
# ---------------------------------------------------------------------------------------------

_RECORD_MODES = {0: "RECORD_STORE_MODE(0)", 1: "RECORD_ADD_MODE(1)", 2: "RECORD_WRITE_BIT_MODE(2)",
                 3: "RECORD_INVALID_MODE(3)", 4: "RECORD_CLEAR_BIT_MODE(4)", 5: "RECORD_MODE_MAX(5)"}  # fmt: skip
_WAIT_MODES = {0: "WAIT_LESS_MODE(0)", 1: "WAIT_EQUAL_MODE(1)", 2: "WAIT_BIGGER_MODE(2)",
               3: "WAIT_BIGGER_OR_EQUAL_MODE(3)", 4: "WAIT_BITMAP_MODE(4)", 5: "WAIT_MODE_MAX(5)"}  # fmt: skip


class aclrtCntNotify:
    """An ``aclrtCntNotify``: a 32-bit count on the device."""

    __slots__ = ("__weakref__", "context", "count", "destroyed", "ident", "site")

    _ids = itertools.count()

    def __init__(self, context: Context, site: str) -> None:
        self.context = context
        self.count = 0
        self.destroyed = False
        self.ident = next(aclrtCntNotify._ids)
        self.site = site

    def __repr__(self) -> str:
        return f"<aclrtCntNotify #{self.ident} count={self.count}>"


class aclrtCntNotifyRecordInfo:
    """``aclrtCntNotifyRecordInfo``: ``mode`` (ACL_RT_CNT_NOTIFY_RECORD_*) and ``value``."""

    __slots__ = ("mode", "value")

    def __init__(self, mode: int = 0, value: int = 0) -> None:
        self.mode = mode
        self.value = value


class aclrtCntNotifyWaitInfo:
    """``aclrtCntNotifyWaitInfo``: ``mode`` (ACL_RT_CNT_NOTIFY_WAIT_*), ``value``, ``timeout`` in
    seconds (0: no limit) and ``isClear`` (1: the count goes back to 0 once the wait is met)."""

    __slots__ = ("isClear", "mode", "timeout", "value")

    def __init__(self, mode: int = 0, value: int = 0, timeout: int = 0, isClear: int = 0) -> None:
        self.mode = mode
        self.value = value
        self.timeout = timeout
        self.isClear = isClear


def _cnt_handle(cntNotify: object, rt_fn: str) -> aclrtCntNotify | None:
    if is_null_handle(cntNotify):
        return None
    if not isinstance(cntNotify, aclrtCntNotify) or cntNotify.destroyed:
        raise bad_object("cntNotify", rt_fn)
    return cntNotify


def _cnt_arg(cntNotify: object, desc: str, rt_fn: str) -> aclrtCntNotify:
    """The handle guard, then the decorator's not-null check (EE1004)."""
    cn = _cnt_handle(cntNotify, rt_fn)
    if cn is None:
        raise null_param(desc, "inCntNotify", rt_fn)
    return cn


def _unsupported(rt_fn: str) -> ApiError:
    return ApiError(E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, fb_unsupported(rt_fn))


def _cnt_target(stream: object, desc: str, rt_fn: str) -> Stream:
    """ApiImplDavid: the current context, the stream (NULL: its default), which must be its."""
    ctx = need_context(rt_fn)
    st = stream_handle(stream, rt_fn) or ctx.default_stream
    own_stream(st, ctx, desc, rt_fn)
    check_stopped(ctx)
    return st


@rt_api
def aclrtCntNotifyCreate(cntNotify: object, flag: int) -> int:
    """Create a counting notify (count 0) on the current device; ``flag`` must be 0. Ascend950
    only: elsewhere 207000."""
    rt_fn = "rtCntNotifyCreateWithFlag"
    f = int_arg(flag, "flag", 0, 2**64 - 1)
    if f != 0:
        raise ApiError(RT_PARAM, rt_value("rtCntNotifyCreateServer", f, "flags", "0"))
    ctx = RT.current_context()
    if ctx is None:
        return E.ACL_ERROR_RT_CONTEXT_NULL  # rtGetDevice returns it without a report
    if cntNotify is None:
        raise null_param("CntNotify creation", "retCntNotify", rt_fn)
    out = out_arg(cntNotify, "aclrtCntNotifyCreate", "cntNotify", numeric=False)
    if not impl_david():  # ApiImpl answers FEATURE_NOT_SUPPORT
        raise _unsupported(rt_fn)
    cn = aclrtCntNotify(ctx, call_site())
    RT.notifies.add(cn)
    store(out, cn)
    return E.ACL_SUCCESS


@rt_api
def aclrtCntNotifyDestroy(cntNotify: object) -> int:
    """Destroy a counting notify."""
    cn = _cnt_arg(cntNotify, "CntNotify destruction", "rtCntNotifyDestroy")
    cn.destroyed = True
    RT.notifies.discard(cn)
    return E.ACL_SUCCESS


def _record_value(mode: int, value: int) -> tuple[str, int]:
    return ("set" if mode == 0 else "add" if mode == 1 else "or" if mode == 2 else "and"), value & 0xFFFFFFFF


def _apply(cn: aclrtCntNotify, mode: int, value: int) -> None:
    if mode == 0:
        cn.count = value
    elif mode == 1:
        cn.count = (cn.count + value) & 0xFFFFFFFF
    elif mode == 2:
        cn.count |= value
    else:
        cn.count &= value


@rt_api
def aclrtCntNotifyRecord(cntNotify: object, stream: object, info: object) -> int:
    """Queue a record on the stream: when it runs, the count becomes ``value`` (SET_VALUE),
    count + ``value`` (ADD), count | ``value`` (BIT_OR) or count & ``value`` (BIT_AND)."""
    api, rt_fn, desc = "aclrtCntNotifyRecord", "rtsCntNotifyRecord", "CntNotify recording"
    if info is None:
        raise ApiError(PARAM, acl_null(api, "info"))
    cn = _cnt_handle(cntNotify, rt_fn)
    stream_handle(stream, rt_fn)
    if cn is None:
        raise null_param(desc, "inCntNotify", rt_fn)
    if not isinstance(info, aclrtCntNotifyRecordInfo):
        raise ApiError(PARAM, emu(f"{api}: info must be an aclrtCntNotifyRecordInfo, got {describe(info)}."))
    mode = int_arg(info.mode, "info->mode", -(2**31), 2**31 - 1)
    if mode >= 5 or mode == 3 or mode < 0:
        raise bad_value(
            desc,
            _RECORD_MODES.get(mode, f"UNKNOWN({mode})"),
            "info->mode",
            "RECORD_STORE_MODE(0), RECORD_ADD_MODE(1), RECORD_WRITE_BIT_MODE(2) or RECORD_CLEAR_BIT_MODE(4)",
            rt_fn,
        )
    value = int_arg(info.value, "info->value", 0, 2**32 - 1)
    if not impl_david():  # ApiImpl answers FEATURE_NOT_SUPPORT
        raise _unsupported(rt_fn)
    target = _cnt_target(stream, desc, rt_fn)
    label, v = _record_value(mode, value)
    RT.policy.submit(target, Task(target, f"cnt notify #{cn.ident} {label} {v}", lambda: _apply(cn, mode, v)))
    return E.ACL_SUCCESS


def _wait_condition(cn: aclrtCntNotify, mode: int, value: int) -> bool:
    c = cn.count
    if mode == 0:
        return c < value
    if mode == 1:
        return c == value
    if mode == 2:
        return c > value
    if mode == 3:
        return c >= value
    return c & value == value


@rt_api
def aclrtCntNotifyWaitWithTimeout(cntNotify: object, stream: object, info: object) -> int:
    """Queue a wait on the stream: later work of the stream runs once the count meets ``mode``
    against ``value`` (LESS, EQUAL, BIGGER, BIGGER_OR_EQUAL, EQUAL_WITH_BITMASK); ``isClear``
    sets it back to 0 then. A wait that outlives ``timeout`` seconds fails the stream with
    107019 (ACL_ERROR_RT_WAIT_TIMEOUT)."""
    api, rt_fn, desc = "aclrtCntNotifyWaitWithTimeout", "rtsCntNotifyWaitWithTimeout", "Waiting for CntNotify"
    if info is None:
        raise ApiError(PARAM, acl_null(api, "info"))
    cn = _cnt_handle(cntNotify, rt_fn)
    stream_handle(stream, rt_fn)
    if cn is None:
        raise null_param(desc, "inCntNotify", rt_fn)
    if not isinstance(info, aclrtCntNotifyWaitInfo):
        raise ApiError(PARAM, emu(f"{api}: info must be an aclrtCntNotifyWaitInfo, got {describe(info)}."))
    mode = int_arg(info.mode, "info->mode", -(2**31), 2**31 - 1)
    if not 0 <= mode < 5:
        raise bad_value(desc, _WAIT_MODES.get(mode, f"UNKNOWN({mode})"), "info->mode", "[0, 5)", rt_fn)
    value = int_arg(info.value, "info->value", 0, 2**32 - 1)
    timeout = int_arg(info.timeout, "info->timeout", 0, 2**32 - 1)
    clear = int_arg(info.isClear, "info->isClear", 0, 255)
    if not impl_david():  # ApiImpl answers FEATURE_NOT_SUPPORT
        raise _unsupported(rt_fn)
    target = _cnt_target(stream, desc, rt_fn)
    policy = RT.policy
    limit = float(timeout) if timeout else None
    code = E.ACL_ERROR_RT_WAIT_TIMEOUT if limit is not None else E.ACL_ERROR_RT_STREAM_SYNC_TIMEOUT
    what = f"aclrtCntNotifyWaitWithTimeout(cnt notify #{cn.ident}, mode {mode}, value {value})"

    def run() -> None:
        if cn.destroyed:
            raise TaskFault(E.ACL_ERROR_RT_PARAM_INVALID, f"{what}: the counting notify was destroyed")
        wait_until(lambda: _wait_condition(cn, mode, value), policy, target, what, code, limit)
        if clear:
            cn.count = 0

    policy.submit(
        target, Task(target, f"wait cnt notify #{cn.ident}", run, ready=lambda: _wait_condition(cn, mode, value))
    )
    return E.ACL_SUCCESS


@rt_api
def aclrtCntNotifyReset(cntNotify: object, stream: object) -> int:
    """Queue "count = 0" on the stream (a SET_VALUE record of 0, as CANN does)."""
    rt_fn, desc = "rtsCntNotifyReset", "CntNotify reset"
    cn = _cnt_handle(cntNotify, rt_fn)
    stream_handle(stream, rt_fn)
    if cn is None:
        raise null_param(desc, "inCntNotify", rt_fn)
    if not impl_david():  # ApiImpl answers FEATURE_NOT_SUPPORT
        raise _unsupported(rt_fn)
    target = _cnt_target(stream, desc, rt_fn)
    RT.policy.submit(target, Task(target, f"cnt notify #{cn.ident} reset", lambda: _apply(cn, 0, 0)))
    return E.ACL_SUCCESS


@rt_api
def aclrtCntNotifyGetId(cntNotify: object, notifyId: object) -> int:
    """The counting notify's number."""
    rt_fn, desc = "rtsCntNotifyGetId", "Obtaining the ID of a CntNotify object"
    cn = _cnt_arg(cntNotify, desc, rt_fn)
    if notifyId is None:
        raise null_param(desc, "notifyId", rt_fn)
    out = out_arg(notifyId, "aclrtCntNotifyGetId", "notifyId")
    store(out, cn.ident)
    return E.ACL_SUCCESS


__all__ = [
    "aclrtCntNotify",
    "aclrtCntNotifyCreate",
    "aclrtCntNotifyDestroy",
    "aclrtCntNotifyGetId",
    "aclrtCntNotifyRecord",
    "aclrtCntNotifyRecordInfo",
    "aclrtCntNotifyReset",
    "aclrtCntNotifyWaitInfo",
    "aclrtCntNotifyWaitWithTimeout",
]
