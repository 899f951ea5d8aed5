"""The devices and contexts chapter of ``acl_rt.h``: aclrtSetDevice ... aclrtResetDeviceForce,
the device queries, aclrtSynchronizeDevice, and the context calls.
"""

from __future__ import annotations

import contextlib

from .._capi import ApiError
from .._ref import store
from . import sanitizer
from ._checks import (
    NO_CONTEXT,
    TIMEOUT_EXPECT,
    E,
    acl_null,
    acl_value,
    check_device_valid,
    check_failed,
    drain,
    fb_inner,
    fb_invalid,
    fb_no_context,
    int_arg,
    loaded_chapter,
    need_context,
    out_arg,
    rt_api,
    rt_inner,
    rt_value,
    stream_error,
    unrecorded,
)
from .api_device_config import release_overflow_area
from .api_device_query import device_state_changed
from .device import RT, Context, Device
from .memory import SPACE, call_site
from .stream import Stream, stream_released

# ---------------------------------------------------------------------------------------------
# devices
# ---------------------------------------------------------------------------------------------

# aclrtDeviceState: what the device-state callbacks (aclrtRegDeviceStateCallback) are told
ACL_RT_DEVICE_STATE_SET_PRE, ACL_RT_DEVICE_STATE_SET_POST = 0, 1
ACL_RT_DEVICE_STATE_RESET_PRE, ACL_RT_DEVICE_STATE_RESET_POST = 2, 3


def _device_arg(deviceId: object) -> int:
    return int_arg(deviceId, "deviceId", -(2**31), 2**31 - 1)


def check_device_id(dev_id: int, rt_fn: str, func: str, line: int) -> None:
    """``CheckDeviceIdIsValid`` with the decorators' usual inner report (aclrtResetDevice's,
    aclrtResetDeviceForce's ...: 107001)."""
    check_device_valid(dev_id, f"drv devId is invalid, drv devId={dev_id}, retCode=0x7010003", func, line, rt_fn)


def _told_without_init(api: str) -> None:
    """Using a device before aclInit: CANN tolerates it (so does the emulator), but a program
    that forgets aclInit also forgets aclFinalize and reads no acl.json. Said once."""
    if RT.initialized or RT.told_no_init or not sanitizer.enabled():
        return
    RT.told_no_init = True
    sanitizer.finding(
        "usage",
        f"{api} at {call_site()} before aclInit: CANN tolerates it, but aclInit(NULL) belongs first "
        "(and aclFinalize last); this is said once",
        E.ACL_ERROR_UNINITIALIZE,
    )


@rt_api
def aclrtSetDevice(deviceId: int) -> int:
    """Retain the device's primary context (creating it on first use) and make it current."""
    _told_without_init("aclrtSetDevice")
    dev_id = _device_arg(deviceId)
    count = RT.device_count
    if not 0 <= dev_id < count:
        raise ApiError(
            E.ACL_ERROR_RT_INVALID_DEVICEID,
            rt_value(
                "Specifying the device used for computation by the current thread", dev_id, "drv devId", f"[0, {count})"
            ),
            fb_inner("rtSetDevice", "device id error"),
        )
    if _closed(RT.device(dev_id)):  # Runtime's device start: SET_PRE when the device opens
        device_state_changed(dev_id, ACL_RT_DEVICE_STATE_SET_PRE)
    with RT.lock:
        dev = RT.device(dev_id)
        dev.refcount += 1
        if dev.primary is None:
            dev.primary = Context(dev, True, call_site())
            dev.had_primary = True
        RT.tls.context = dev.primary
    device_state_changed(dev_id, ACL_RT_DEVICE_STATE_SET_POST)  # ApiImpl::SetDevice: after every set
    return E.ACL_SUCCESS


def _closed(dev: Device) -> bool:
    """Whether no context holds the device (its next retain starts it)."""
    return dev.primary is None and not dev.contexts


def _release_context(ctx: Context, api: str) -> int:
    """Wait for the context's streams, then destroy them. Returns the first task failure code."""
    first = 0
    for stream in ctx.all_streams():
        try:
            drain(stream)
            stream_error(stream)
        except ApiError as e:
            first = first or e.report()
        sanitizer.check_stream_release(stream, api)
        stream.destroyed = True
        RT.policy.shutdown(stream)
        stream_released(stream)
    ctx.streams.clear()
    release_overflow_area(ctx)
    ctx.destroyed = True
    return first


def _release_device(dev: Device, api: str) -> None:
    """Drop every context of the device, its events and its memory (refcount reached 0).

    The leak check runs first (while everything still exists); in ``error`` mode its finding
    fails the call only after the release is complete."""
    leak: ApiError | None = None
    for ctx in ([dev.primary] if dev.primary else []) + dev.contexts:
        for stream in ctx.all_streams():  # queued work may still use the overflow area: run it first
            with contextlib.suppress(ApiError):  # a hang is reported by _release_context's own drain
                drain(stream)
        release_overflow_area(ctx)  # the runtime's own memory is not the program's leak
    try:
        sanitizer.leak_check(api, dev.ident)
    except ApiError as e:
        leak = e
    for ctx in ([dev.primary] if dev.primary else []) + dev.contexts:
        _release_context(ctx, api)
    dev.primary = None
    dev.contexts.clear()
    dev.refcount = 0
    dev.res_limits.clear()  # the runtime's Device goes: a reopened device starts from the chip's cores
    for ev in list(RT.events):
        if ev.context.device is dev:
            ev.destroyed = True
            RT.events.discard(ev)
    # The mappings onto the device's memory go before that memory. These chapters load on first use
    # (runtime.api.LAZY_CHAPTERS): one that was never loaded has mapped nothing.
    for chapter in ("api_vmm", "api_hostreg", "api_ipc"):
        module = loaded_chapter(f"{__package__}.{chapter}")
        if module is not None:
            module.release_device(dev.ident, api)
    for alloc in dev.live_allocations():
        SPACE.free(alloc.start, api, call_site())
        dev.used -= alloc.size
    if leak is not None:
        raise leak


@rt_api
def aclrtResetDevice(deviceId: int) -> int:
    """Release one reference; at zero, wait for and destroy the device's streams and contexts."""
    dev_id = _device_arg(deviceId)
    check_device_id(dev_id, "rtDeviceReset", "DeviceReset", 3439)
    with RT.lock:
        dev = RT.devices.get(dev_id)
        if dev is None or dev.refcount == 0:
            raise ApiError(
                E.ACL_ERROR_RT_CONTEXT_RELEASE_ERROR,
                (
                    "EE1018",
                    "Resetting the device failed. Reason: The device has not been set or has already been reset.",
                ),
                fb_inner("rtDeviceReset", "context release error"),
            )
        closing = dev.refcount == 1
    if closing:  # the callbacks run outside the runtime's lock: they may call the runtime
        device_state_changed(dev_id, ACL_RT_DEVICE_STATE_RESET_PRE)
    with RT.lock:
        if dev.refcount > 0:  # another thread may have released it meanwhile
            dev.refcount -= 1
            if dev.refcount == 0:
                _release_device(dev, "aclrtResetDevice")
    if closing:
        device_state_changed(dev_id, ACL_RT_DEVICE_STATE_RESET_POST)
    return E.ACL_SUCCESS


def _release_primary(dev: Device, api: str) -> None:
    """Tear down the device's primary context only (its streams, then its events); the
    explicit contexts, and with them the device and its memory, stay."""
    primary = dev.primary
    if primary is not None:
        _release_context(primary, api)
        for ev in list(RT.events):
            if ev.context is primary:
                ev.destroyed = True
                RT.events.discard(ev)
    dev.primary = None
    dev.refcount = 0


@rt_api
def aclrtResetDeviceForce(deviceId: int) -> int:
    """Release the device's primary context whatever its reference count (CANN's
    ``DecideForcePrimaryReleaseAction`` drains the retain count, then tears the primary context
    down). Contexts made by aclrtCreateContext survive and keep the device open; without any,
    the device is released with its memory as by aclrtResetDevice. A failure is reported but not
    kept as the thread's last error (rtDeviceResetForce returns ``RT_TRANS_EXT_ERRCODE``)."""
    try:
        return _reset_device_force(deviceId)
    except ApiError as e:
        raise unrecorded(e) from None


def _reset_device_force(deviceId: object) -> int:
    dev_id = _device_arg(deviceId)
    check_device_id(dev_id, "rtDeviceResetForce", "DeviceResetForce", 6724)
    with RT.lock:
        dev = RT.devices.get(dev_id)
        if dev is None or dev.refcount == 0:
            # DecideForcePrimaryReleaseAction: no primary context ever, or one already released (the
            # slot keeps it, with a retain count of 0)
            text, line = (
                ("PrimaryContextRelease failed during force reset, retain count is 0.", 264)
                if dev is not None and dev.had_primary
                else ("PrimaryContextRelease failed, total ref count is 0.", 257)
            )
            raise ApiError(
                E.ACL_ERROR_RT_CONTEXT_RELEASE_ERROR,
                rt_inner(text, "DecideForcePrimaryReleaseAction", "runtime.cc", line),
                fb_inner("rtDeviceResetForce", "context release error"),
            )
    # the primary context's teardown tells the device-state callbacks, as aclrtResetDevice's does
    # (Runtime::PrimaryContextCallBack / PrimaryContextCallBackAfterTeardown)
    device_state_changed(dev_id, ACL_RT_DEVICE_STATE_RESET_PRE)
    with RT.lock:
        if dev.refcount == 0:  # another thread released it meanwhile
            pass
        elif dev.contexts:
            _release_primary(dev, "aclrtResetDeviceForce")
        else:
            _release_device(dev, "aclrtResetDeviceForce")
    device_state_changed(dev_id, ACL_RT_DEVICE_STATE_RESET_POST)
    return E.ACL_SUCCESS


@rt_api
def aclrtGetDevice(deviceId: object) -> int:
    """The device of the calling thread's current context (107002, silently, without one; the
    aclInit default device, without making it current)."""
    out = out_arg(deviceId, "aclrtGetDevice", "deviceId")
    ctx = RT.thread_context()
    if ctx is not None:
        store(out, ctx.device.ident)
        return E.ACL_SUCCESS
    if RT.initialized and RT.default_device is not None:
        store(out, RT.default_device)
        return E.ACL_SUCCESS
    return E.ACL_ERROR_RT_CONTEXT_NULL  # rtGetDevice returns it without a report


@rt_api
def aclrtGetDeviceCount(count: object) -> int:
    """How many devices the emulator offers (``ACLNN_PY_DEVICE_COUNT``, default 8)."""
    out = out_arg(count, "aclrtGetDeviceCount", "count")
    store(out, RT.device_count)
    return E.ACL_SUCCESS


def _synchronize_streams(streams: list[Stream]) -> int:
    """``Context::SyncStreamsWithTimeout`` (context.cc:1069-1107): the streams in turn; a failure
    ends it at once in a context stopped on failure, else every stream is waited for and the
    first failure returned."""
    first: ApiError | None = None
    for stream in streams:
        try:
            drain(stream)
            stream_error(stream)
        except ApiError as e:
            if stream.context.stop_on_failure:  # GetCtxMode() != CONTINUE_ON_FAILURE: return error
                sanitizer.ordered(stream)
                raise
            first = first or e
        sanitizer.ordered(stream)
    if first is not None:
        raise first
    return E.ACL_SUCCESS


def _synchronize_device(rt_fn: str) -> int:
    """``Context::Synchronize`` (context.cc:1219-1243): of the current context's streams, those
    ``Context::IsStreamNotSync`` names (context.cc:1194-1204) are skipped before the capture check
    and run on unwaited for; then CheckStatus; then the streams, each context's created ones in
    creation order and its default stream last. CANN's code waits for the current context's streams
    only; aclnn_py keeps the document's contract, every context of the device (docs/fidelity.md).
    A stream bound to a model (aclmdlRIBindStream) is not among its context's streams until it is
    unbound or its model destroyed (Context::ModelBindStream / ModelAddStream, context.cc:2015-2050;
    ModelUnbindStream / ModelDelStream and Model::~Model put it back): it runs on unwaited for too."""
    ctx = need_context(rt_fn)
    stream_chapter = loaded_chapter(f"{__package__}.api_stream")  # without it, no stream was made

    def bound(s: Stream) -> bool:
        return getattr(s.capture, "bound", False)

    def unsynced(s: Stream) -> bool:
        return bound(s) or (stream_chapter is not None and stream_chapter.not_device_synchronized(s))

    for st in ctx.all_streams():
        if not unsynced(st) and st.capture is not None:
            # Context::Synchronize: COND_RETURN_ERROR (a log) for a capturing stream of the context,
            # then the wrapper's FuncErrorReason
            raise ApiError(E.ACL_ERROR_RT_STREAM_CAPTURED, fb_inner(rt_fn, "stream is captured"))
    check_failed(ctx)  # Context::Synchronize: CheckStatus, before the streams (context.cc:1240-1242)
    dev = ctx.device
    ctxs = ([dev.primary] if dev.primary else []) + dev.contexts
    streams = [s for c in ctxs for s in [*c.streams, c.default_stream]]
    skipped = [s for s in streams if unsynced(s)]

    def run_skipped() -> None:
        if stream_chapter is not None:
            for s in skipped:
                stream_chapter.let_run(s)

    run_skipped()
    try:
        return _synchronize_streams([s for s in streams if s not in skipped])
    finally:
        run_skipped()  # and what the waited streams' work let them run (the device goes on)


@rt_api
def aclrtSynchronizeDevice() -> int:
    """Wait for every stream of the current device (a stream of the current context that is
    capturing: 107027)."""
    return _synchronize_device("rtDeviceSynchronize")


@rt_api
def aclrtSynchronizeDeviceWithTimeout(timeout: int) -> int:
    """As aclrtSynchronizeDevice; timeout < -1 or == 0 gives 107000 (the emulator never times out)."""
    t = int_arg(timeout, "timeout", -(2**31), 2**31 - 1)
    if t < -1:
        raise ApiError(
            E.ACL_ERROR_RT_PARAM_INVALID, acl_value("aclrtSynchronizeDeviceWithTimeout", t, "timeout", "[-1, INT_MAX]")
        )
    if t == 0:
        raise ApiError(
            E.ACL_ERROR_RT_PARAM_INVALID,
            rt_value("Waiting for all streams on the device to complete", t, "timeout", TIMEOUT_EXPECT),
            fb_invalid("rtDeviceSynchronizeWithTimeout"),
        )
    return _synchronize_device("rtDeviceSynchronizeWithTimeout")


# ---------------------------------------------------------------------------------------------
# contexts
# ---------------------------------------------------------------------------------------------


def _live_context(context: object) -> Context | None:
    if isinstance(context, Context) and not context.destroyed:
        return context
    return None


@rt_api
def aclrtCreateContext(context: object, deviceId: int) -> int:
    """Create an explicit context on the device and make it current for the calling thread."""
    _told_without_init("aclrtCreateContext")
    out = out_arg(context, "aclrtCreateContext", "context", numeric=False)
    dev_id = _device_arg(deviceId)
    count = RT.device_count
    if not 0 <= dev_id < count:
        raise ApiError(
            E.ACL_ERROR_RT_INVALID_DEVICEID,
            rt_value("Context creation", dev_id, "devId", f"[0, {count})"),
            fb_inner("rtCtxCreateEx", "device id error"),
        )
    if _closed(RT.device(dev_id)):  # NewContext retains the device: it starts here
        device_state_changed(dev_id, ACL_RT_DEVICE_STATE_SET_PRE)
    with RT.lock:
        dev = RT.device(dev_id)
        ctx = Context(dev, False, call_site())
        dev.contexts.append(ctx)
        RT.tls.context = ctx
    store(out, ctx)
    return E.ACL_SUCCESS


@rt_api
def aclrtDestroyContext(context: object) -> int:
    """Destroy an explicit context (its streams are waited for and destroyed). A destroyed,
    unknown or primary context gives 107002 (EE1017, EE1001), as in CANN."""
    if context is None:
        raise ApiError(E.ACL_ERROR_INVALID_PARAM, acl_null("aclrtDestroyContext", "context"))
    ctx = _live_context(context)
    reason = (
        "The context handle is a null pointer or has already been destroyed"
        if ctx is None
        else "Primary context cannot be destroyed explicitly"
        if ctx.is_primary
        else None
    )
    if reason is not None:
        raise ApiError(
            E.ACL_ERROR_RT_CONTEXT_NULL,
            ("EE1017", f"Context destruction failed. Parameter context is invalid. Reason: {reason}."),
            fb_no_context("rtCtxDestroyEx"),
        )
    assert ctx is not None
    with RT.lock:
        code = _release_context(ctx, "aclrtDestroyContext")
        ctx.device.contexts.remove(ctx)
        if RT.tls.context is ctx:
            RT.tls.context = None
    return code or E.ACL_SUCCESS


@rt_api
def aclrtSetCurrentContext(context: object) -> int:
    """Bind the context to the calling thread. A destroyed or unknown context gives 107000 with
    the runtime's context-validation EE1018 (which speaks of the thread) and EE1001."""
    if context is None:
        raise ApiError(E.ACL_ERROR_INVALID_PARAM, acl_null("aclrtSetCurrentContext", "context"))
    ctx = _live_context(context)
    if ctx is None:
        raise ApiError(E.ACL_ERROR_RT_PARAM_INVALID, ("EE1018", NO_CONTEXT), fb_invalid("rtCtxSetCurrent"))
    RT.tls.context = ctx
    return E.ACL_SUCCESS


@rt_api
def aclrtGetCurrentContext(context: object) -> int:
    """The calling thread's current context (107002, silently, without one)."""
    out = out_arg(context, "aclrtGetCurrentContext", "context", numeric=False)
    ctx = RT.thread_context()
    if ctx is None:
        return E.ACL_ERROR_RT_CONTEXT_NULL  # rtCtxGetCurrent returns it without a report
    store(out, ctx)
    return E.ACL_SUCCESS


__all__ = [
    "aclrtCreateContext",
    "aclrtDestroyContext",
    "aclrtGetCurrentContext",
    "aclrtGetDevice",
    "aclrtGetDeviceCount",
    "aclrtResetDevice",
    "aclrtResetDeviceForce",
    "aclrtSetCurrentContext",
    "aclrtSetDevice",
    "aclrtSynchronizeDevice",
    "aclrtSynchronizeDeviceWithTimeout",
]
