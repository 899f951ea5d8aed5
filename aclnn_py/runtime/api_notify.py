"""Notifies, IPC events and IPC notifies of ``acl_rt.h``.

* Notifies (aclrtCreateNotify ... aclrtNotifyBatchReset): a flag one stream sets and another waits
  for and clears.

* IPC events (aclrtIpcGetEventHandle / aclrtIpcOpenEventHandle): an event made with
  ACL_EVENT_IPC exports a 64-byte handle; opening it gives an event of the current context that
  shares the exported event's record, so a stream can wait for work recorded elsewhere.
* IPC notifies (aclrtNotifyGetExportKey / aclrtNotifyImportByKey / aclrtNotifySetImportPid ...):
  an exported notify gets a key; importing the key gives a notify sharing the exporter's flag.
(The counting notifies are in :mod:`.api_cnt_notify`.)

There is one process here: an import works within it, and its pid must be on the exporter's
trustlist (or the export disabled the pid check), as the driver requires of another process.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Sequence
from typing import Any

from .. import soc as _soc
from .._capi import ApiError, describe
from .._ref import store
from . import _rt_features
from ._checks import (
    PARAM,
    RT_PARAM,
    E,
    acl_null,
    bad_object,
    check_stopped,
    emu,
    event_handle,
    fb_inner,
    fb_invalid,
    impl_david,
    int_arg,
    is_null_handle,
    loaded_chapter,
    need_context,
    out_arg,
    own_stream,
    rt_api,
    rt_inner,
    rt_value,
    silent,
    stream_handle,
    submit,
)
from .device import RT, Context
from .memory import call_site
from .stream import Event, Stream, Task, wait_until

_RT_EVENT_IPC = 0x40
ACL_IPC_EVENT_HANDLE_SIZE = 64


def null_param(desc: str, param: str, rt_fn: str) -> ApiError:
    """``NULL_PTR_RETURN_MSG_OUTER_WITH_FUNC_DESC``: EE1004, then the wrapper's EE1001 (107000)."""
    return ApiError(RT_PARAM, ("EE1004", f"{desc} failed because {param} cannot be a NULL pointer."), fb_invalid(rt_fn))


def bad_value(desc: str, value: object, param: str, expect: str, rt_fn: str) -> ApiError:
    """An EE1003 value check of the runtime's decorator, then the wrapper's EE1001 (107000)."""
    return ApiError(RT_PARAM, rt_value(desc, value, param, expect), fb_invalid(rt_fn))


# -- notifies (acl_rt.h:3863-3922, 4649) -----------------------------------------------------------


class NotifyState:
    """The hardware flag behind a notify: shared by the notify that exported it and every notify
    imported from its key (aclrtNotifyImportByKey), so a record on one is seen by a wait on another."""

    __slots__ = ("is_set",)

    def __init__(self) -> None:
        self.is_set = False


class aclrtNotify:
    """An ``aclrtNotify``: a flag one stream sets (aclrtRecordNotify) and another waits for and
    clears (aclrtWaitAndResetNotify). ``key``, ``pids`` and ``export_flags`` are set once it is
    exported (aclrtNotifyGetExportKey); ``imported`` marks a notify opened from a key."""

    __slots__ = (
        "__weakref__", "context", "destroyed", "export_flags", "flag", "ident", "imported", "key", "pids",
        "server_pids", "site", "state",
    )  # fmt: skip

    _ids = 0

    def __init__(self, context: Context, flag: int, site: str, state: NotifyState | None = None) -> None:
        aclrtNotify._ids += 1
        self.ident = aclrtNotify._ids - 1  # notify ids count from 0, as the hardware's do
        self.context = context
        self.flag = flag
        self.state = state if state is not None else NotifyState()
        self.destroyed = False
        self.site = site
        self.key: str | None = None
        self.pids: set[int] = set()
        self.server_pids: set[tuple[int, int]] = set()
        self.export_flags = 0
        self.imported = state is not None

    @property
    def is_set(self) -> bool:
        return self.state.is_set

    @is_set.setter
    def is_set(self, value: bool) -> None:
        self.state.is_set = value

    def __repr__(self) -> str:
        return f"<aclrtNotify #{self.ident}>"


def _notify_handle(notify: object, rt_fn: str) -> aclrtNotify:
    if not isinstance(notify, aclrtNotify) or notify.destroyed:
        raise bad_object("notify", rt_fn)
    return notify


def _notify_arg(notify: object, func: str, rt_fn: str) -> aclrtNotify:
    if is_null_handle(notify):
        raise ApiError(PARAM, acl_null(func, "notify"))
    return _notify_handle(notify, rt_fn)


@rt_api
def aclrtCreateNotify(notify: object, flag: int) -> int:
    """Create a notify on the current device (ACL_NOTIFY_DEFAULT or ACL_NOTIFY_DEVICE_USE_ONLY).
    Without a current device it returns 107002 without a report (``rtGetDevice``)."""
    out = out_arg(notify, "aclrtCreateNotify", "notify", numeric=False)
    f = int_arg(flag, "flag", 0, 2**64 - 1)
    if f not in (0, 1):
        raise ApiError(
            RT_PARAM,
            (
                "EE1003",
                f"rtsNotifyCreate failed because value {f} for parameter flag is invalid. Expected value: "
                "RT_NOTIFY_FLAG_DEFAULT or RT_NOTIFY_FLAG_DOWNLOAD_TO_DEV.",
            ),
        )
    ctx = RT.current_context()
    if ctx is None:
        return E.ACL_ERROR_RT_CONTEXT_NULL
    with RT.lock:
        check_notify_room(ctx.device, "rtsNotifyCreate")
        n = aclrtNotify(ctx, f, call_site())
        RT.notifies.add(n)
    store(out, n)
    return E.ACL_SUCCESS


def notify_ids_in_use(device: Any) -> int:
    """The device's notify ids in use: those ``Notify::Setup`` took (notify.cc:107-137) for the
    notifies of aclrtCreateNotify and of Ascend950's subscriptions, and on Ascend950 those of the
    events that take one (``DavidEvent::GenEventId``: :func:`.api_event.event_ids_in_use`). An
    imported notify takes none (``Notify::OpenIpcNotify`` opens the exporter's, notify.cc:452-520),
    nor does a counting notify (a DRV_CNT_NOTIFY_ID: count_notify.cc:72, npu_driver_res.cc:1465-1468)."""
    cnt = loaded_chapter(f"{__package__}.api_cnt_notify")
    counting = cnt.aclrtCntNotify if cnt is not None else ()
    used = sum(
        1
        for n in list(RT.notifies)
        if n.context.device is device and not isinstance(n, counting) and not getattr(n, "imported", False)
    )
    if impl_david():
        events = loaded_chapter(f"{__package__}.api_event")  # never loaded: no event holds one
        if events is not None:
            used += events.event_ids_in_use(device)
    return used


def check_notify_room(device: Any, rt_fn: str) -> None:
    """``ApiImpl::NotifyCreate``'s ``Notify::Setup`` on a device whose notifies are all taken
    (RT_ERROR_DRV_NO_NOTIFY_RESOURCES): 207009 with its EE1023, its inner report
    (api_impl.cc:4812-4818) and the calling rts function's FuncErrorReason. Call under RT.lock."""
    if notify_ids_in_use(device) >= _soc.current().max_notifies:
        raise ApiError(
            E.ACL_ERROR_RT_NO_NOTIFY_RESOURCE,
            ("EE1023", "Alloc Notify resource failed. Reason: Too many Notify objects are created."),
            rt_inner(
                f"Notify create failed, setup failed, drv devId={device.ident}, retCode=0x702001b",
                "NotifyCreate",
                "api_impl.cc",
                4816,
            ),
            fb_inner(rt_fn, "driver error:no notify resource"),
        )


@rt_api
def aclrtDestroyNotify(notify: object) -> int:
    """Destroy a notify (needs a current context)."""
    rt_fn = "rtNotifyDestroy"
    n = _notify_arg(notify, "aclrtDestroyNotify", rt_fn)
    need_context(rt_fn)
    n.destroyed = True
    RT.notifies.discard(n)
    return E.ACL_SUCCESS


@rt_api
def aclrtRecordNotify(notify: object, stream: object) -> int:
    """Queue "set the notify" on the stream (one of the current context)."""
    rt_fn = "rtNotifyRecord"
    n = _notify_arg(notify, "aclrtRecordNotify", rt_fn)
    st = stream_handle(stream, rt_fn)
    ctx = need_context(rt_fn)
    target = st or ctx.default_stream
    own_stream(target, ctx, "Notify recording", rt_fn)
    check_stopped(ctx)

    def run() -> None:
        n.is_set = True

    submit(target, f"record notify #{n.ident}", run)
    return E.ACL_SUCCESS


@rt_api
def aclrtWaitAndResetNotify(notify: object, stream: object, timeout: int) -> int:
    """Queue a wait on the stream: the stream stops there until the notify is set (by a record
    on another stream, submitted before or after), then clears it. ``timeout`` in seconds, 0 for
    no limit; a wait that outlives it fails the stream with 107019 (ACL_ERROR_RT_WAIT_TIMEOUT)."""
    t = int_arg(timeout, "timeout", 0, 2**32 - 1)
    rt_fn = "rtNotifyWait" if t == 2**32 - 1 else "rtNotifyWaitWithTimeOut"
    n = _notify_arg(notify, "aclrtWaitAndResetNotify", rt_fn)
    st = stream_handle(stream, rt_fn)
    ctx = need_context(rt_fn)
    target = st or ctx.default_stream
    own_stream(target, ctx, "Waiting for a Notify", rt_fn)
    check_stopped(ctx)
    policy = RT.policy
    limit = float(t) if 0 < t < 2**32 - 1 else None
    code = E.ACL_ERROR_RT_WAIT_TIMEOUT if limit is not None else E.ACL_ERROR_RT_STREAM_SYNC_TIMEOUT

    def run() -> None:
        wait_until(lambda: n.is_set, policy, target, f"aclrtWaitAndResetNotify(notify #{n.ident})", code, limit)
        n.is_set = False

    task = Task(target, f"wait notify #{n.ident}", run, ready=lambda: n.is_set)
    policy.submit(target, task)
    return E.ACL_SUCCESS


@rt_api
def aclrtGetNotifyId(notify: object, notifyId: object) -> int:
    """The notify's number (needs a current context)."""
    if is_null_handle(notify):
        raise ApiError(PARAM, acl_null("aclrtGetNotifyId", "notify"))
    out = out_arg(notifyId, "aclrtGetNotifyId", "notifyId")
    rt_fn = "rtGetNotifyID"
    n = _notify_handle(notify, rt_fn)
    need_context(rt_fn)
    store(out, n.ident)
    return E.ACL_SUCCESS


@rt_api
def aclrtNotifyBatchReset(notifies: Sequence[object] | None, num: int) -> int:
    """Clear the first ``num`` notifies at once (from the host), stopping at the first bad one:
    rtsNotifyBatchReset (api_c_event.cc:161-177) calls rtNotifyReset for each in turn."""
    if notifies is None:
        raise ApiError(PARAM, acl_null("aclrtNotifyBatchReset", "notifies"))
    k = int_arg(num, "num", 0, 2**64 - 1) & 0xFFFF_FFFF  # static_cast<uint32_t>(num) (acl/notify.cpp:88)
    if k == 0:
        raise ApiError(
            RT_PARAM,
            (
                "EE1003",
                "rtsNotifyBatchReset failed because value 0 for parameter num is invalid. Expected value: "
                "(0, 4294967295].",
            ),
        )
    try:
        items = list(notifies)
    except TypeError:  # a C caller passes an array of handles; nothing else reaches the runtime
        raise ApiError(
            PARAM,
            emu(f"aclrtNotifyBatchReset: notifies is {describe(notifies)}, not a sequence of aclrtNotify handles."),
        ) from None
    if len(items) < k:
        raise ApiError(
            PARAM,
            emu(f"aclrtNotifyBatchReset: num is {k} but notifies holds {len(items)}; pass num <= len(notifies)."),
        )
    rt_fn = "rtNotifyReset"
    for item in items[:k]:
        # rtNotifyReset (api_c_standard_soc.cc:1952-1968): off RT_FEATURE_NOTIFY_RESET a WARN and the
        # bare code (no report, no last error)
        if not _rt_features.has("RT_FEATURE_NOTIFY_RESET"):
            return E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT
        if is_null_handle(item):  # passes the handle guard; ApiErrorDecorator::NotifyReset (api_error.cc:4398)
            raise null_param("Notify resetting", "inNotify", rt_fn)
        n = _notify_handle(item, rt_fn)
        need_context(rt_fn)  # ApiImpl::NotifyReset (ApiImplDavid's on Ascend950)
        n.is_set = False
    return E.ACL_SUCCESS


# ---------------------------------------------------------------------------------------------
# events: how many are left, IPC handles
# ---------------------------------------------------------------------------------------------

# DevProperties.stubEventCount of each family (runtime config dev_info_reg.cc): the event ids a
# device offers (Ascend950 answers notify ids instead: see aclrtGetEventAvailNum).
_EVENT_IDS = {"Ascend910B": 65536, "Ascend910_93": 65536, "Ascend910": 65536, "Ascend310P": 1024}


@rt_api
def aclrtGetEventAvailNum(eventCount: object) -> int:
    """How many more event ids the current device has: ``NpuDriver::GetAvailEventNum``'s capacity
    less those in use (npu_driver_res.cc:620-640; every family has
    RT_FEATURE_DEVICE_GET_RESOURCE_NUM_DYNAMIC, api_impl.cc:1914-1932). The ids in use are those
    the device's events hold (:func:`.api_event.ids_held`: an aclrtCreateEvent event from its
    first record on, an aclrtCreateEventExWithFlag event while a record of it is pending, one of
    aclrtCreateEventWithFlag from its creation if its flag takes one) and those of Ascend910B/
    910_93's subscriptions. Ascend950 (RT_FEATURE_DEVICE_NOTIFY_ONLY) answers its notify ids
    instead: its notifies less those in use (:func:`notify_ids_in_use`). Needs a current context."""
    out = out_arg(eventCount, "aclrtGetEventAvailNum", "eventCount")
    dev = need_context("rtGetAvailEventNum").device
    if _rt_features.has("RT_FEATURE_DEVICE_NOTIFY_ONLY"):
        store(out, max(0, _soc.current().max_notifies - notify_ids_in_use(dev)))
        return E.ACL_SUCCESS
    events = loaded_chapter(f"{__package__}.api_event")  # never loaded: no event holds one
    used = events.event_ids_in_use(dev) if events is not None else 0
    callbacks = loaded_chapter(f"{__package__}.api_callback")  # never loaded: no subscription holds one
    if callbacks is not None:  # Ascend910B/910_93: each subscription's event holds an event id
        used += callbacks.subscription_events(dev)
    store(out, max(0, _EVENT_IDS[_soc.current().family] - used))
    return E.ACL_SUCCESS


class aclrtIpcEventHandle:
    """``aclrtIpcEventHandle``: 64 opaque bytes (``reserved``) naming an exported IPC event."""

    __slots__ = ("reserved",)

    def __init__(self, reserved: bytes | None = None) -> None:
        self.reserved = bytes(reserved or b"").ljust(ACL_IPC_EVENT_HANDLE_SIZE, b"\0")[:ACL_IPC_EVENT_HANDLE_SIZE]

    def __repr__(self) -> str:
        return f"aclrtIpcEventHandle({self.reserved[:8].hex()}...)"


_ipc_ids = itertools.count(0x10001)  # the shareable handles the emulated driver hands out (never 0)
_ipc_events: dict[int, Event] = {}  # shareable handle -> the exported event


def _shared(name: str) -> property:
    """A property of an opened IPC event that reads and writes the exported event's ``name``."""
    return property(
        lambda self: getattr(self.source, name),
        lambda self, value: setattr(self.source, name, value),
    )


class IpcOpenedEvent(Event):
    """An event opened from an IPC handle: its record is the exported event's (a wait on it waits
    for the exporter's stream; a record on it records the shared event)."""

    __slots__ = ("source",)

    def __init__(self, source: Event, context: Context, site: str) -> None:
        # Event.__init__ would clear the shared record: set the event's own fields only.
        self.source = source
        self.context = context
        self.flags = _RT_EVENT_IPC
        self.site = site
        self.origin = source.origin
        self.ident = next(Event._ids)
        self.destroyed = False
        self.new_mode = True  # made through the Ex path: aclrtResetEvent refuses it

    # The record state is the exported event's: reads and writes go to it.
    task: Task | None = _shared("task")  # type: ignore[assignment]
    captured: Any = _shared("captured")
    ever_recorded: bool = _shared("ever_recorded")  # type: ignore[assignment]
    stream: Stream | None = _shared("stream")  # type: ignore[assignment]
    timestamp_ns: int | None = _shared("timestamp_ns")  # type: ignore[assignment]


def _handle_of(ev: Event) -> int:
    for key, exported in _ipc_events.items():
        if exported is ev:
            return key
    key = next(_ipc_ids)
    _ipc_events[key] = ev
    return key


@rt_api
def aclrtIpcGetEventHandle(event: object, handle: object) -> int:
    """Export an ACL_EVENT_IPC event (aclrtCreateEventExWithFlag): ``handle`` (an
    :class:`aclrtIpcEventHandle`) receives its shareable handle. Ascend910B/910_93/950 only."""
    api, rt_fn = "aclrtIpcGetEventHandle", "rtIpcGetEventHandle"
    if handle is None:
        raise ApiError(PARAM, acl_null(api, "handle"))
    if is_null_handle(event):
        raise ApiError(PARAM, acl_null(api, "event"))
    if not _rt_features.has("RT_FEATURE_IPC_EVENT"):
        raise silent(E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)  # a WARN only (api_c_standard_soc.cc)
    ev = event_handle(event, rt_fn)
    if not isinstance(handle, aclrtIpcEventHandle):
        raise ApiError(PARAM, emu(f"{api}: handle must be an aclrtIpcEventHandle, got {describe(handle)}."))
    if ev.flags != _RT_EVENT_IPC:
        raise ApiError(
            RT_PARAM,
            (
                "EE1006",
                f"Obtaining the IPC event handle failed. Parameter evt.eventFlag_ value {ev.flags} is not supported. "
                "Reason: Only IPC events are supported.",
            ),
            fb_invalid(rt_fn),
        )
    source = ev.source if isinstance(ev, IpcOpenedEvent) else ev
    handle.reserved = _handle_of(source).to_bytes(8, "little").ljust(ACL_IPC_EVENT_HANDLE_SIZE, b"\0")
    return E.ACL_SUCCESS


@rt_api
def aclrtIpcOpenEventHandle(handle: object, event: object) -> int:
    """Open an exported IPC event in the current context (``event`` receives it)."""
    api, rt_fn = "aclrtIpcOpenEventHandle", "rtIpcOpenEventHandle"
    out = out_arg(event, api, "event", numeric=False)
    if not _rt_features.has("RT_FEATURE_IPC_EVENT"):
        raise silent(E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
    raw = handle.reserved if isinstance(handle, aclrtIpcEventHandle) else handle
    if not isinstance(raw, (bytes, bytearray)):
        raise ApiError(PARAM, emu(f"{api}: handle must be an aclrtIpcEventHandle, got {describe(handle)}."))
    ctx = need_context(rt_fn)
    key = int.from_bytes(bytes(raw)[:8], "little")
    source = _ipc_events.get(key)
    if source is None or source.destroyed:
        raise ApiError(
            E.ACL_ERROR_RT_PARAM_INVALID,
            emu(
                f"{api}: no live IPC event was exported under handle 0x{key:x} in this process "
                "(aclrtIpcGetEventHandle of an ACL_EVENT_IPC event makes one)."
            ),
        )
    opened = IpcOpenedEvent(source, ctx, call_site())
    RT.events.add(opened)
    store(out, opened)
    return E.ACL_SUCCESS


# ---------------------------------------------------------------------------------------------
# IPC notifies
# ---------------------------------------------------------------------------------------------

_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION = 0x2
_RT_NOTIFY_IMPORT_FLAGS_MAX = 0x1 | 0x2  # RT_NOTIFY_FLAG_DOWNLOAD_TO_DEV | ..._ENABLE_PEER_ACCESS
_exported: dict[str, aclrtNotify] = {}  # key -> the exporting notify


@rt_api
def aclrtNotifyGetExportKey(notify: object, key: object, len: int, flags: int) -> int:
    """Export the notify: ``key`` (an out-parameter, a C buffer of ``len`` bytes) receives the
    key another process (here: this one) imports. ``flags``: ACL_RT_NOTIFY_EXPORT_FLAG_DEFAULT
    or ..._DISABLE_PID_VALIDATION (no trustlist needed)."""
    api, rt_fn = "aclrtNotifyGetExportKey", "rtsNotifyGetExportKey"
    desc = "Setting a Notify as an IPC Notify"
    if is_null_handle(notify):
        raise ApiError(PARAM, acl_null(api, "notify"))
    out = out_arg(key, api, "key", numeric=False)
    n = int_arg(len, "len", 0, 2**64 - 1) & 0xFFFFFFFF  # the runtime takes it as uint32_t
    f = int_arg(flags, "flags", 0, 2**64 - 1)
    nt = _notify_arg(notify, api, rt_fn)
    if n == 0:
        raise bad_value(desc, 0, "len", "not equal to 0", rt_fn)
    if f not in (0, _RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION):
        raise bad_value(desc, f, "flag", "0 or 2", rt_fn)
    if nt.key is not None or nt.imported:
        raise ApiError(
            E.ACL_ERROR_RT_INTERNAL_ERROR,
            rt_inner("Create ipc notify failed, ipc notify flag cannot be true", "CreateIpcNotify", "notify.cc", 385),
            fb_inner(rt_fn, "notify type error"),
        )
    name = f"aclnn_py_notify_{os.getpid()}_{nt.ident}"
    len_name = name.encode().__len__()
    if n < len_name + 1:
        raise ApiError(
            RT_PARAM,
            emu(f"{api}: len is {n}, the key {name!r} needs {len_name + 1} bytes with its NUL."),
        )
    nt.key = name
    nt.export_flags = f
    _exported[name] = nt
    store(out, name)
    return E.ACL_SUCCESS


@rt_api
def aclrtNotifySetImportPid(notify: object, pid: Sequence[int] | None, num: int) -> int:
    """Put the first ``num`` pids on the exported notify's trustlist (the processes that may
    import it). Needs a current context."""
    api, rt_fn = "aclrtNotifySetImportPid", "rtsNotifySetImportPid"
    if is_null_handle(notify):
        raise ApiError(PARAM, acl_null(api, "notify"))
    if pid is None:
        raise ApiError(PARAM, acl_null(api, "pid"))
    k = int_arg(num, "num", 0, 2**64 - 1)
    nt = _notify_arg(notify, api, rt_fn)
    signed = k & 0xFFFFFFFF
    signed = signed - 2**32 if signed >= 2**31 else signed  # static_cast<int32_t>(num)
    if signed <= 0:
        raise bad_value(
            "Setting the trustlist of processes that can share a Notify object", signed, "num", "(0, 2147483647]", rt_fn
        )
    need_context(rt_fn)
    pids = _int_list(pid, signed, api, "pid")
    if nt.key is None:
        raise ApiError(RT_PARAM, emu(f"{api}: {nt!r} has no export key yet; call aclrtNotifyGetExportKey first."))
    nt.pids.update(pids)
    return E.ACL_SUCCESS


def _int_list(values: object, n: int, api: str, name: str) -> list[int]:
    try:
        items = [int(v) for v in list(values)[:n]]  # type: ignore[call-overload]
    except (TypeError, ValueError):
        raise ApiError(PARAM, emu(f"{api}: {name} is {describe(values)}, not a sequence of integers.")) from None
    if len(items) < n:
        raise ApiError(PARAM, emu(f"{api}: num is {n} but {name} holds {len(items)}."))
    return items


class aclrtServerPid:
    """``aclrtServerPid``: a server (``sdid``) and the pids (``pid``, ``num`` of them) on it."""

    __slots__ = ("num", "pid", "sdid")

    def __init__(self, sdid: int = 0, pid: Sequence[int] | None = None, num: int = 0) -> None:
        self.sdid = sdid
        self.pid = pid
        self.num = num


@rt_api
def aclrtNotifySetImportPidInterServer(notify: object, serverPids: Sequence[object] | None, num: int) -> int:
    """Trust processes of other servers of the super pod (``serverPids[i].num`` must be 1). The
    emulator has one server: the pairs are kept, and only aclrtNotifySetImportPid's list
    admits imports of this process."""
    rt_fn = "rtNotifySetImportPidInterServer"
    if is_null_handle(notify):
        raise ApiError(RT_PARAM, ("EE1004", f"{rt_fn} failed because notify cannot be a NULL pointer."))
    if serverPids is None:
        raise ApiError(RT_PARAM, ("EE1004", f"{rt_fn} failed because serverPids cannot be a NULL pointer."))
    k = int_arg(num, "num", 0, 2**64 - 1)
    if k == 0:
        raise ApiError(RT_PARAM, rt_value(rt_fn, 0, "num", "not equal to 0"))
    if not isinstance(notify, aclrtNotify) or notify.destroyed:
        raise bad_object("notify", rt_fn)
    if not isinstance(serverPids, (list, tuple)):
        raise ApiError(
            PARAM,
            emu(
                "aclrtNotifySetImportPidInterServer: serverPids must be a sequence of aclrtServerPid, got "
                f"{describe(serverPids)}."
            ),
        )
    items = list(serverPids)
    if len(items) < k:
        raise ApiError(PARAM, emu(f"aclrtNotifySetImportPidInterServer: num is {k} but serverPids holds {len(items)}."))
    pairs = []
    for i, sp in enumerate(items[:k]):
        if not isinstance(sp, aclrtServerPid):
            raise ApiError(PARAM, emu(f"aclrtNotifySetImportPidInterServer: serverPids[{i}] is {describe(sp)}."))
        if sp.pid is None:
            raise ApiError(
                RT_PARAM, ("EE1004", f"{rt_fn} failed because serverPids[{i}].pid cannot be a NULL pointer.")
            )
        if sp.num != 1:
            raise ApiError(RT_PARAM, rt_value(rt_fn, sp.num, f"serverPids[{i}].num", "1"))
        pairs.append((int(sp.sdid), _int_list(sp.pid, 1, "aclrtNotifySetImportPidInterServer", "pid")[0]))
    if notify.key is None:
        raise ApiError(RT_PARAM, emu(f"{rt_fn}: {notify!r} has no export key yet; call aclrtNotifyGetExportKey first."))
    notify.server_pids.update(pairs)
    return E.ACL_SUCCESS


@rt_api
def aclrtNotifyImportByKey(notify: object, key: str | None, flags: int) -> int:
    """Import an exported notify (``notify`` receives a notify of the current device sharing the
    exporter's flag). This process's pid must be on the exporter's trustlist unless the export
    disabled the check."""
    api, rt_fn = "aclrtNotifyImportByKey", "rtIpcOpenNotifyWithFlag"
    out = out_arg(notify, api, "notify", numeric=False)
    if key is None:
        raise ApiError(PARAM, acl_null(api, "key"))
    f = int_arg(flags, "flags", 0, 2**64 - 1) & 0xFFFFFFFF
    if f > _RT_NOTIFY_IMPORT_FLAGS_MAX:
        raise bad_value("Enabling IPC Notify", f, "flag", f"[0, {_RT_NOTIFY_IMPORT_FLAGS_MAX}]", rt_fn)
    ctx = need_context(rt_fn)
    name = key.decode(errors="replace") if isinstance(key, (bytes, bytearray)) else str(key)
    source = _exported.get(name)
    if source is None or source.destroyed:
        raise ApiError(RT_PARAM, emu(f"{api}: no live notify was exported under key {name!r} in this process."))
    pid = os.getpid()
    if not source.export_flags & _RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION and pid not in source.pids:
        raise ApiError(
            E.ACL_ERROR_RT_NO_PERMISSION,
            emu(
                f"{api}: process {pid} is not on the trustlist of key {name!r}: the exporter calls "
                "aclrtNotifySetImportPid with this pid, or exports with "
                "ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION."
            ),
        )
    imported = aclrtNotify(ctx, f & 0x1, call_site(), state=source.state)
    RT.notifies.add(imported)
    store(out, imported)
    return E.ACL_SUCCESS


__all__ = [
    "ACL_IPC_EVENT_HANDLE_SIZE",
    "aclrtCreateNotify",
    "aclrtDestroyNotify",
    "aclrtGetEventAvailNum",
    "aclrtGetNotifyId",
    "aclrtIpcEventHandle",
    "aclrtIpcGetEventHandle",
    "aclrtIpcOpenEventHandle",
    "aclrtNotify",
    "aclrtNotifyBatchReset",
    "aclrtNotifyGetExportKey",
    "aclrtNotifyImportByKey",
    "aclrtNotifySetImportPid",
    "aclrtNotifySetImportPidInterServer",
    "aclrtRecordNotify",
    "aclrtServerPid",
    "aclrtWaitAndResetNotify",
]
