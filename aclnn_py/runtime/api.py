"""The AscendCL runtime functions (``acl.h`` / ``acl_rt.h``) with CANN's check order and codes.

Each function checks its arguments in the order CANN does (ACL layer first: null pointers
and ranges give 100000; then the runtime layer: no current context gives 107002, a bad handle
107017, ...), records a message for ``aclGetRecentErrMsg()`` and returns the code. See
``docs/runtime.md`` for the emulator's choices where CANN is undefined.
"""

from __future__ import annotations

import array
import hashlib
import json
import os
from typing import Any

import numpy as np

from .. import _errmsg
from .. import soc as _soc
from .._capi import UINT64_MAX, ApiError, as_int, as_pointer, c_api, fail
from .._ref import is_out_param, store
from .._status import aclError
from . import sanitizer
from .device import RT, RT_MAX_DEV_NUM, Context, Device
from .enums import aclrtEventRecordedStatus, aclrtRunMode, aclrtStreamStatus
from .memory import SPACE, Allocation, MemoryFault, call_site
from .stream import CycleError, Event, Stream, Task, TaskFault, now_ns

E = aclError
_INTERNAL = E.ACL_ERROR_INTERNAL_ERROR


# ---------------------------------------------------------------------------------------------
# shared checks
# ---------------------------------------------------------------------------------------------


def _null(name: str) -> ApiError:
    return fail(E.ACL_ERROR_INVALID_PARAM, "EH0002", f"Argument {name} must not be null.")


def _invalid(name: str, value: object, reason: str) -> ApiError:
    return fail(E.ACL_ERROR_INVALID_PARAM, "EH0001", f"Value {value} for {name} is invalid. Reason: {reason}.")


def _rt_invalid(api: str, name: str, value: object, expected: str) -> ApiError:
    return fail(
        E.ACL_ERROR_RT_PARAM_INVALID,
        "EE1003",
        f"{api} failed because value {value} for parameter {name} is invalid. Expected value: {expected}.",
    )


def _out(obj: object, name: str, numeric: bool = True) -> object:
    """An out-parameter: None is nullptr (100000); an object that cannot hold a value too."""
    if obj is None:
        raise _null(name)
    if not is_out_param(obj, numeric):
        raise _invalid(name, type(obj).__name__, "an out-parameter (Ref or ctypes holder) is required")
    return obj


def need_context() -> Context:
    """The calling thread's current context, or 107002 (ACL_ERROR_RT_CONTEXT_NULL)."""
    ctx = RT.current_context()
    if ctx is None:
        raise fail(
            E.ACL_ERROR_RT_CONTEXT_NULL,
            "EE1018",
            "Context validation failed. Reason: No valid context is bound to the current thread. "
            "Call aclrtSetDevice or aclrtSetCurrentContext to bind one.",
        )
    return ctx


def _bad_handle(kind: str, obj: object) -> ApiError:
    if isinstance(obj, (Stream, Event, Context)) and obj.destroyed:
        reason = f"{obj!r} was already destroyed"
    else:
        reason = f"{type(obj).__name__} object is not an {kind}"
    return fail(E.ACL_ERROR_RT_INVALID_HANDLE, "EE1017", f"The {kind} handle is invalid. Reason: {reason}.")


def resolve_stream(stream: object) -> Stream:
    """A stream argument: None is the current context's default stream."""
    if stream is None or (isinstance(stream, int) and not isinstance(stream, bool) and stream == 0):
        return need_context().default_stream
    need_context()
    if not isinstance(stream, Stream) or stream.destroyed:
        raise _bad_handle("aclrtStream", stream)
    return stream


def _resolve_event(event: object, name: str = "event") -> Event:
    if event is None:
        raise _null(name)
    if not isinstance(event, Event) or event.destroyed:
        raise _bad_handle("aclrtEvent", event)
    return event


def _stream_error(stream: Stream) -> int:
    """Collect a failed task's status from the stream (reported once, then cleared)."""
    with stream.lock:
        err, stream.error = stream.error, None
    if err is None:
        return E.ACL_SUCCESS
    code, message = err
    raise ApiError(code, ("EZ9999", message, None))  # a device error: no aclnn template title


def drain(stream: Stream, until: Task | None = None) -> None:
    """Run (or wait for) the stream's queued work; a wait cycle fails like a hang would."""
    try:
        RT.policy.drain(stream, until)
    except CycleError as e:
        raise fail(E.ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, "EE1018", f"Stream synchronize failed. Reason: {e}.") from None


def submit(stream: Stream, label: str, fn: Any) -> Task:
    """Queue ``fn`` on ``stream`` under the active execution policy."""
    task = Task(stream, label, fn)
    RT.policy.submit(stream, task)
    return task


# ---------------------------------------------------------------------------------------------
# init / finalize
# ---------------------------------------------------------------------------------------------


@c_api(_INTERNAL)
def aclInit(configPath: str | None = None) -> int:
    """Initialise the runtime; a repeated call returns ACL_ERROR_REPEAT_INITIALIZE (100002)."""
    with RT.lock:
        if RT.initialized:
            RT.init_refcount += 1  # CANN only logs a warning: callers may ignore this code
            return E.ACL_ERROR_REPEAT_INITIALIZE
        content = ""
        if configPath not in (None, ""):
            if not isinstance(configPath, (str, bytes, os.PathLike)):
                raise _invalid("configPath", repr(configPath), "a path string is required")
            try:
                with open(configPath, encoding="utf-8") as f:
                    content = f.read()
            except (OSError, UnicodeDecodeError) as e:
                raise fail(
                    E.ACL_ERROR_INVALID_FILE,
                    "EH0001",
                    f"Value {configPath} for configPath is invalid. Reason: {e}.",
                ) from None
        config: dict[str, Any] = {}
        if content.strip():
            try:
                loaded = json.loads(content)
            except ValueError as e:
                raise fail(
                    E.ACL_ERROR_PARSE_FILE,
                    "EH0001",
                    f"Value {configPath} for configPath is invalid. Reason: not valid JSON ({e}).",
                ) from None
            config = loaded if isinstance(loaded, dict) else {}
        digest = hashlib.sha256(content.encode()).hexdigest()
        if RT.first_config is not None and RT.finalized and digest != RT.first_config:
            raise _invalid("configPath", configPath, "the configuration differs from the one of the first aclInit")
        try:
            profile = RT.configure_from_environment()
        except ValueError as e:
            raise fail(E.ACL_ERROR_INTERNAL_ERROR, "EH0001", f"aclInit failed. Reason: {e}.") from None
        if RT.first_config is None:
            RT.first_config = digest
        default = config.get("defaultDevice", {})
        RT.default_device = None
        if isinstance(default, dict) and "default_device" in default:
            try:
                RT.default_device = int(default["default_device"])
            except (TypeError, ValueError):
                raise _invalid("defaultDevice", default["default_device"], "an integer device id is required") from None
        _errmsg.set_process_mode(str(config.get("err_msg_mode", "0")) == "1")
        _soc.set_active(profile)
        RT.initialized = True
        RT.finalized = False
        RT.init_refcount = 1
        return E.ACL_SUCCESS


@c_api(_INTERNAL)
def aclFinalize() -> int:
    """Tear the runtime down; a repeated call returns ACL_ERROR_REPEAT_FINALIZE (100037)."""
    with RT.lock:
        if RT.finalized:
            raise fail(
                E.ACL_ERROR_REPEAT_FINALIZE,
                "EH0001",
                "Repeated finalization: aclFinalize was already called.",
            )
        leak: ApiError | None = None
        for dev in list(RT.devices.values()):
            if dev.refcount > 0 or dev.contexts:
                try:
                    _release_device(dev, "aclFinalize")
                except ApiError as e:
                    leak = leak or e
        try:
            sanitizer.leak_check("aclFinalize", None)
        except ApiError as e:
            leak = leak or e
        # The process-level registries start afresh (what leaked was reported above).
        RT.tensors.clear()
        RT.executors.clear()
        RT.tls.context = None
        RT.initialized = False
        RT.finalized = True
        RT.init_refcount = 0
        RT.default_device = None
        _soc.set_active(None)
        if leak is not None:
            raise leak
        return E.ACL_SUCCESS


@c_api(_INTERNAL)
def aclFinalizeReference(refCount: object = None) -> int:
    """Drop one aclInit reference; finalize when it reaches 0 (refCount may be None)."""
    with RT.lock:
        if RT.init_refcount == 0:
            raise fail(
                E.ACL_ERROR_REPEAT_FINALIZE,
                "EH0001",
                "Repeated finalization: the reference count is already 0.",
            )
        RT.init_refcount -= 1
        left = RT.init_refcount
        if refCount is not None:
            store(_out(refCount, "refCount"), left)
        if left == 0:
            RT.init_refcount = 1
            code = aclFinalize()
            if code != 0:
                return code
        return E.ACL_SUCCESS


@c_api(_INTERNAL, handle=True)
def aclGetRecentErrMsg() -> str | None:
    """The calling thread's pending error messages, newest call's view; clears them. None if empty."""
    return _errmsg.fetch()


@c_api(_INTERNAL, handle=True)
def aclrtGetSocName() -> str | None:
    """The emulated SoC's name (``ACLNN_PY_SOC``), or None if it cannot be resolved."""
    try:
        return _soc.current().name
    except _soc.UnknownSocError:
        return None


@c_api(_INTERNAL)
def aclrtGetRunMode(runMode: object) -> int:
    """Always ACL_HOST: the program runs on the host side of an emulated accelerator card."""
    store(_out(runMode, "runMode", numeric=True), aclrtRunMode.ACL_HOST)
    return E.ACL_SUCCESS


# ---------------------------------------------------------------------------------------------
# devices
# ---------------------------------------------------------------------------------------------


def _device_id(deviceId: object, api: str, limit: int) -> int:
    dev_id = as_int(deviceId, "deviceId", E.ACL_ERROR_INVALID_PARAM, -(2**31), 2**31 - 1)
    if not 0 <= dev_id < limit:
        raise fail(
            E.ACL_ERROR_RT_INVALID_DEVICEID,
            "EE1003",
            f"{api} failed because value {dev_id} for parameter deviceId is invalid. "
            f"Expected value: [0, {RT.device_count}).",
        )
    return dev_id


@c_api(_INTERNAL)
def aclrtSetDevice(deviceId: int) -> int:
    """Retain the device's primary context (creating it on first use) and make it current."""
    dev_id = _device_id(deviceId, "aclrtSetDevice", RT.device_count)
    with RT.lock:
        dev = RT.device(dev_id)
        dev.refcount += 1
        if dev.primary is None:
            dev.primary = Context(dev, True, call_site())
        RT.tls.context = dev.primary
    return E.ACL_SUCCESS


def _release_context(ctx: Context, api: str) -> int:
    """Wait for the context's streams, then destroy them. Returns the first task failure code."""
    first = 0
    for stream in ctx.all_streams():
        try:
            drain(stream)
            _stream_error(stream)
        except ApiError as e:
            for message in e.messages:
                _errmsg.report(*message)
            first = first or e.code
        sanitizer.check_stream_release(stream, api)
        stream.destroyed = True
        RT.policy.shutdown(stream)
    ctx.streams.clear()
    ctx.destroyed = True
    return first


def _release_device(dev: Device, api: str) -> None:
    """Drop every context of the device, its events and its memory (refcount reached 0).

    The leak check runs first (while everything still exists); in ``error`` mode its finding
    fails the call only after the release is complete."""
    leak: ApiError | None = None
    try:
        sanitizer.leak_check(api, dev.ident)
    except ApiError as e:
        leak = e
    for ctx in ([dev.primary] if dev.primary else []) + dev.contexts:
        _release_context(ctx, api)
    dev.primary = None
    dev.contexts.clear()
    dev.refcount = 0
    for ev in list(RT.events):
        if ev.context.device is dev:
            ev.destroyed = True
            RT.events.discard(ev)
    for alloc in dev.live_allocations():
        SPACE.free(alloc.start, api, call_site())
        dev.used -= alloc.size
    if leak is not None:
        raise leak


@c_api(_INTERNAL)
def aclrtResetDevice(deviceId: int) -> int:
    """Release one reference; at zero, wait for and destroy the device's streams and contexts."""
    dev_id = _device_id(deviceId, "aclrtResetDevice", RT_MAX_DEV_NUM)
    with RT.lock:
        dev = RT.devices.get(dev_id)
        if dev is None or dev.refcount == 0:
            raise fail(
                E.ACL_ERROR_RT_CONTEXT_RELEASE_ERROR,
                "EE1018",
                "Device reset failed. Reason: The device has not been set or has already been reset.",
            )
        dev.refcount -= 1
        if dev.refcount == 0:
            _release_device(dev, "aclrtResetDevice")
    return E.ACL_SUCCESS


@c_api(_INTERNAL)
def aclrtResetDeviceForce(deviceId: int) -> int:
    """Release the device whatever its reference count."""
    dev_id = _device_id(deviceId, "aclrtResetDeviceForce", RT_MAX_DEV_NUM)
    with RT.lock:
        dev = RT.devices.get(dev_id)
        if dev is None or dev.refcount == 0:
            raise fail(
                E.ACL_ERROR_RT_CONTEXT_RELEASE_ERROR,
                "EE1018",
                "Device reset failed. Reason: The device has not been set or has already been reset.",
            )
        _release_device(dev, "aclrtResetDeviceForce")
    return E.ACL_SUCCESS


@c_api(_INTERNAL)
def aclrtGetDevice(deviceId: object) -> int:
    """The device of the calling thread's current context."""
    out = _out(deviceId, "deviceId")
    ctx = need_context()
    store(out, ctx.device.ident)
    return E.ACL_SUCCESS


@c_api(_INTERNAL)
def aclrtGetDeviceCount(count: object) -> int:
    """How many devices the emulator offers (``ACLNN_PY_DEVICE_COUNT``, default 8)."""
    out = _out(count, "count")
    store(out, RT.device_count)
    return E.ACL_SUCCESS


def _synchronize_streams(streams: list[Stream]) -> int:
    first: ApiError | None = None
    for stream in streams:
        try:
            drain(stream)
            _stream_error(stream)
        except ApiError as e:
            first = first or e
    if first is not None:
        raise first
    return E.ACL_SUCCESS


@c_api(_INTERNAL)
def aclrtSynchronizeDevice() -> int:
    """Wait for every stream of the current device."""
    ctx = need_context()
    dev = ctx.device
    ctxs = ([dev.primary] if dev.primary else []) + dev.contexts
    return _synchronize_streams([s for c in ctxs for s in c.all_streams()])


@c_api(_INTERNAL)
def aclrtSynchronizeDeviceWithTimeout(timeout: int) -> int:
    """As aclrtSynchronizeDevice; timeout < -1 gives 107000 (the emulator never times out)."""
    t = as_int(timeout, "timeout", E.ACL_ERROR_INVALID_PARAM, -(2**31), 2**31 - 1)
    if t < -1:
        raise _rt_invalid("aclrtSynchronizeDeviceWithTimeout", "timeout", t, "[-1, 2147483647]")
    return aclrtSynchronizeDevice()


# ---------------------------------------------------------------------------------------------
# contexts
# ---------------------------------------------------------------------------------------------


def _resolve_context(context: object) -> Context:
    if context is None:
        raise _null("context")
    if not isinstance(context, Context) or context.destroyed:
        raise _bad_handle("aclrtContext", context)
    return context


@c_api(_INTERNAL)
def aclrtCreateContext(context: object, deviceId: int) -> int:
    """Create an explicit context on the device and make it current for the calling thread."""
    out = _out(context, "context", numeric=False)
    dev_id = _device_id(deviceId, "aclrtCreateContext", RT.device_count)
    with RT.lock:
        dev = RT.device(dev_id)
        ctx = Context(dev, False, call_site())
        dev.contexts.append(ctx)
        RT.tls.context = ctx
    store(out, ctx)
    return E.ACL_SUCCESS


@c_api(_INTERNAL)
def aclrtDestroyContext(context: object) -> int:
    """Destroy an explicit context (its streams are waited for and destroyed)."""
    ctx = _resolve_context(context)
    if ctx.is_primary:
        raise _rt_invalid("aclrtDestroyContext", "context", repr(ctx), "a context made by aclrtCreateContext")
    with RT.lock:
        code = _release_context(ctx, "aclrtDestroyContext")
        ctx.device.contexts.remove(ctx)
        if RT.tls.context is ctx:
            RT.tls.context = None
    return code or E.ACL_SUCCESS


@c_api(_INTERNAL)
def aclrtSetCurrentContext(context: object) -> int:
    """Bind the context to the calling thread."""
    ctx = _resolve_context(context)
    RT.tls.context = ctx
    return E.ACL_SUCCESS


@c_api(_INTERNAL)
def aclrtGetCurrentContext(context: object) -> int:
    """The calling thread's current context."""
    out = _out(context, "context", numeric=False)
    ctx = need_context()
    store(out, ctx)
    return E.ACL_SUCCESS


# ---------------------------------------------------------------------------------------------
# streams
# ---------------------------------------------------------------------------------------------


@c_api(_INTERNAL)
def aclrtCreateStreamWithConfig(stream: object, priority: int, flag: int) -> int:
    """Create a stream in the current context (priority is accepted and ignored)."""
    out = _out(stream, "stream", numeric=False)
    as_int(priority, "priority", E.ACL_ERROR_INVALID_PARAM, 0, 2**32 - 1)
    flags = as_int(flag, "flag", E.ACL_ERROR_INVALID_PARAM, 0, 2**32 - 1)
    ctx = need_context()
    with RT.lock:
        dev = ctx.device
        soc_limit = _soc.current().max_streams
        if dev.stream_count() >= soc_limit:
            raise fail(
                E.ACL_ERROR_RT_NO_STREAM_RESOURCE,
                "EE1018",
                f"Stream creation failed. Reason: device {dev.ident} already has {soc_limit} streams, "
                "the most this SoC supports (default stream included).",
            )
        s = Stream(ctx, False, flags, call_site())
        ctx.streams.append(s)
    store(out, s)
    return E.ACL_SUCCESS


@c_api(_INTERNAL)
def aclrtCreateStream(stream: object) -> int:
    """Create a stream in the current context."""
    return aclrtCreateStreamWithConfig(stream, 0, 0)


@c_api(_INTERNAL)
def aclrtDestroyStream(stream: object) -> int:
    """Wait for the stream's tasks, then destroy it. None -> 100000; a destroyed handle -> 107017."""
    if stream is None:
        raise _null("stream")
    if not isinstance(stream, Stream) or stream.destroyed:
        raise _bad_handle("aclrtStream", stream)
    if stream.is_default:
        raise _rt_invalid("aclrtDestroyStream", "stream", repr(stream), "a stream made by aclrtCreateStream")
    sanitizer.check_pending_destroy(stream, "aclrtDestroyStream")
    code = 0
    try:
        drain(stream)
        _stream_error(stream)
    except ApiError as e:
        for message in e.messages:
            _errmsg.report(*message)
        code = e.code
    sanitizer.check_stream_release(stream, "aclrtDestroyStream")
    with RT.lock:
        stream.destroyed = True
        RT.policy.shutdown(stream)
        if stream in stream.context.streams:
            stream.context.streams.remove(stream)
    return code or E.ACL_SUCCESS


@c_api(_INTERNAL)
def aclrtSynchronizeStream(stream: object) -> int:
    """Block until every task queued on the stream has finished; report a failed task's status."""
    s = resolve_stream(stream)
    drain(s)
    return _stream_error(s)


@c_api(_INTERNAL)
def aclrtSynchronizeStreamWithTimeout(stream: object, timeout: int) -> int:
    """As aclrtSynchronizeStream; timeout < -1 or == 0 gives 107000 (the emulator never times out)."""
    t = as_int(timeout, "timeout", E.ACL_ERROR_INVALID_PARAM, -(2**31), 2**31 - 1)
    if t < -1:
        raise _rt_invalid("aclrtSynchronizeStreamWithTimeout", "timeout", t, "[-1, 2147483647] and not 0")
    s = resolve_stream(stream)
    if t == 0:
        raise _rt_invalid(
            "aclrtSynchronizeStreamWithTimeout",
            "timeout",
            t,
            "greater than or equal to -1 and not equal to 0",
        )
    drain(s)
    return _stream_error(s)


@c_api(_INTERNAL)
def aclrtStreamQuery(stream: object, status: object) -> int:
    """COMPLETE if nothing is queued; otherwise NOT_READY — and the device makes progress, so a
    polling loop sees COMPLETE on a later query."""
    out = _out(status, "status")
    s = resolve_stream(stream)
    if s.pending:
        store(out, aclrtStreamStatus.ACL_STREAM_STATUS_NOT_READY)
        if RT.policy.name != "thread":
            drain(s)
    else:
        store(out, aclrtStreamStatus.ACL_STREAM_STATUS_COMPLETE)
    return E.ACL_SUCCESS


# ---------------------------------------------------------------------------------------------
# memory
# ---------------------------------------------------------------------------------------------

_HUGE1G = (6, 7)


def malloc_size(size: int, policy: int) -> int:
    """Bytes aclrtMalloc reserves: ``((size + 32 + padding - 1) / 32) * 32`` with the SoC's padding
    (32, i.e. ALIGN_UP(size, 32) + 32; 0 on Ascend950); no padding for the 1 GB huge-page policies."""
    padding = 0 if (policy & 0xFF) in _HUGE1G else _soc.current().malloc_padding
    return (size + 32 + padding - 1) // 32 * 32


def _device_malloc(devPtr: object, size: object, policy: object, api: str, aligned32: bool) -> int:
    out = _out(devPtr, "devPtr")
    n = as_int(size, "size", E.ACL_ERROR_INVALID_PARAM, 0, UINT64_MAX)
    if n == 0:
        raise _invalid("size", 0, "must be greater than 0")
    pol = as_int(policy, "policy", E.ACL_ERROR_INVALID_PARAM, 0, 2**32 - 1)
    rounded = (n + 31) // 32 * 32 if aligned32 else malloc_size(n, pol)
    if rounded > UINT64_MAX:
        raise _invalid("size", n, "the padded size overflows")
    ctx = need_context()
    dev = ctx.device
    with RT.lock:
        if dev.used + rounded > dev.capacity:
            raise fail(
                E.ACL_ERROR_RT_MEMORY_ALLOCATION,
                "EE1018",
                f"Memory allocation failed. Reason: {rounded} bytes requested on device {dev.ident}, "
                f"{dev.capacity - dev.used} of {dev.capacity} bytes free.",
            )
        try:
            alloc = SPACE.allocate(rounded, n, "device", dev.ident, api, call_site())
        except MemoryError:
            raise fail(
                E.ACL_ERROR_RT_MEMORY_ALLOCATION, "EE1018",
                f"Memory allocation failed. Reason: the host cannot back {rounded} bytes of simulated device memory.",
            ) from None  # fmt: skip
        dev.used += rounded
    sanitizer.on_alloc(alloc)
    store(out, alloc.start)
    return E.ACL_SUCCESS


@c_api(_INTERNAL)
def aclrtMalloc(devPtr: object, size: int, policy: int) -> int:
    """Allocate device memory (not zeroed; rounded as CANN rounds it)."""
    return _device_malloc(devPtr, size, policy, "aclrtMalloc", aligned32=False)


@c_api(_INTERNAL)
def aclrtMallocCached(devPtr: object, size: int, policy: int) -> int:
    """As aclrtMalloc (the emulator has no cache to keep coherent)."""
    return _device_malloc(devPtr, size, policy, "aclrtMallocCached", aligned32=False)


@c_api(_INTERNAL)
def aclrtMallocAlign32(devPtr: object, size: int, policy: int) -> int:
    """Allocate device memory rounded up to 32 bytes, without the extra padding."""
    return _device_malloc(devPtr, size, policy, "aclrtMallocAlign32", aligned32=True)


@c_api(_INTERNAL)
def aclrtMallocHost(hostPtr: object, size: int) -> int:
    """Allocate pinned host memory; the pointer is an int that the memcpy functions accept."""
    out = _out(hostPtr, "hostPtr")
    n = as_int(size, "size", E.ACL_ERROR_INVALID_PARAM, 0, UINT64_MAX)
    if n == 0:
        raise _invalid("size", 0, "must be greater than 0")
    with RT.lock:
        if RT.host_used + n > RT.capacity:
            raise fail(
                E.ACL_ERROR_RT_MEMORY_ALLOCATION,
                "EE1018",
                f"Host memory allocation failed. Reason: {n} bytes of pinned memory requested, "
                f"{RT.capacity - RT.host_used} of {RT.capacity} bytes available.",
            )
        try:
            alloc = SPACE.allocate(n, n, "host", 0, "aclrtMallocHost", call_site())
        except MemoryError:
            raise fail(
                E.ACL_ERROR_RT_MEMORY_ALLOCATION, "EE1018", f"Host memory allocation of {n} bytes failed."
            ) from None
        RT.host_used += n
    sanitizer.on_alloc(alloc, initialised=True)
    store(out, alloc.start)
    return E.ACL_SUCCESS


def _free(ptr_arg: object, name: str, kind: str, api: str) -> int:
    if ptr_arg is None:
        raise _null(name)
    ptr = as_pointer(ptr_arg)
    if ptr is None:
        raise _null(name)
    if ptr < 0:
        raise _invalid(name, repr(ptr_arg), "a pointer (int) is required")
    alloc = SPACE.find(ptr)
    if alloc is not None and alloc.start == ptr and alloc.kind != kind:
        other = "aclrtFreeHost" if alloc.kind == "host" else "aclrtFree"
        raise _rt_invalid(
            api, name, f"0x{ptr:x}", f"memory of the right kind: {alloc.describe()}; release it with {other}"
        )
    sanitizer.check_free(alloc, ptr, api)
    try:
        freed = SPACE.free(ptr, api, call_site())
    except MemoryFault as fault:
        raise _rt_invalid(
            api,
            name,
            f"0x{ptr:x}",
            f"a pointer returned by an allocation function and not yet freed ({fault.message})",
        ) from None
    with RT.lock:
        if kind == "device":
            RT.device(freed.device).used -= freed.size
        else:
            RT.host_used -= freed.size
    return E.ACL_SUCCESS


@c_api(_INTERNAL)
def aclrtFree(devPtr: object) -> int:
    """Free device memory at once (queued work that still uses it is not waited for)."""
    return _free(devPtr, "devPtr", "device", "aclrtFree")


@c_api(_INTERNAL)
def aclrtFreeHost(hostPtr: object) -> int:
    """Free pinned host memory made by aclrtMallocHost."""
    return _free(hostPtr, "hostPtr", "host", "aclrtFreeHost")


@c_api(_INTERNAL)
def aclrtGetMemInfo(attr: int, free: object, total: object) -> int:
    """Free and total bytes of the current device (every attribute reports the same pool)."""
    a = as_int(attr, "attr", E.ACL_ERROR_INVALID_PARAM, -(2**31), 2**31 - 1)
    out_free = _out(free, "free")
    out_total = _out(total, "total")
    dev = need_context().device
    if not 0 <= a <= 17:
        store(out_free, 0)
        store(out_total, 0)
        return E.ACL_SUCCESS
    store(out_free, dev.capacity - dev.used)
    store(out_total, dev.capacity)
    return E.ACL_SUCCESS


# -- memcpy / memset -----------------------------------------------------------------------------


class _Side:
    """One side of a copy: a device range or a host buffer."""

    __slots__ = ("alloc", "arr", "is_device", "ptr")

    def __init__(self, is_device: bool, ptr: int | None, arr: np.ndarray | None, alloc: Allocation | None) -> None:
        self.is_device, self.ptr, self.arr, self.alloc = is_device, ptr, arr, alloc


def _host_bytes(obj: object, name: str, writable: bool) -> np.ndarray:
    """A host buffer object as a flat uint8 array aliasing it."""
    if isinstance(obj, np.ndarray):
        if not obj.flags.c_contiguous:
            raise _invalid(
                name,
                "a non-contiguous array",
                "host memory must be one contiguous block (use np.ascontiguousarray)",
            )
        if writable and not obj.flags.writeable:
            raise _invalid(name, "a read-only array", "the destination must be writable")
        return obj.reshape(-1).view(np.uint8)
    try:
        mv = memoryview(obj)  # type: ignore[arg-type]
    except TypeError:
        raise _invalid(
            name,
            type(obj).__name__,
            "a device pointer (int) or a host buffer (numpy array, bytearray, bytes) is required",
        ) from None
    if not mv.c_contiguous:
        raise _invalid(name, "a non-contiguous buffer", "host memory must be one contiguous block")
    if writable and mv.readonly:
        raise _invalid(name, type(obj).__name__, "the destination must be writable (bytes is read-only)")
    return np.frombuffer(mv.cast("B"), dtype=np.uint8) if mv.nbytes else np.empty(0, np.uint8)


def _side(obj: object, name: str, writable: bool) -> _Side:
    if isinstance(obj, (np.ndarray, bytes, bytearray, memoryview, array.array)):
        return _Side(False, None, _host_bytes(obj, name, writable), None)
    ptr = as_pointer(obj)
    if ptr is None:
        raise _null(name)
    if ptr < 0:
        if hasattr(obj, "__buffer__") or hasattr(obj, "__array_interface__"):
            return _Side(False, None, _host_bytes(obj, name, writable), None)
        raise _invalid(
            name,
            type(obj).__name__,
            "a device pointer (int) or a host buffer (numpy array, bytearray, bytes) is required",
        )
    alloc = SPACE.find(ptr)
    if alloc is not None:
        return _Side(alloc.kind == "device", ptr, None, alloc)
    return _Side(True, ptr, None, None)  # unknown address: the checked access reports it


_KINDS = {
    0: (False, False),
    1: (True, False),
    2: (False, True),
    3: (True, True),
    5: (True, False),
}


def _check_copy(
    api: str, dst: object, destMax: object, src: object, count: object, kind: object
) -> tuple[_Side, _Side, int, int] | None:
    n = as_int(count, "count", E.ACL_ERROR_INVALID_PARAM, 0, UINT64_MAX)
    if n == 0:
        return None
    if dst is None or (
        as_pointer(dst) is None and not isinstance(dst, (np.ndarray, bytes, bytearray, memoryview, array.array))
    ):
        raise _null("dst")
    if src is None or (
        as_pointer(src) is None and not isinstance(src, (np.ndarray, bytes, bytearray, memoryview, array.array))
    ):
        raise _null("src")
    k = as_int(kind, "kind", E.ACL_ERROR_INVALID_PARAM, -(2**31), 2**31 - 1)
    if k not in (0, 1, 2, 3, 4, 5):
        raise _invalid(
            "kind", k, "it must be one of ACL_MEMCPY_HOST_TO_HOST .. ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE (0..5)"
        )
    dmax = as_int(destMax, "destMax", E.ACL_ERROR_INVALID_PARAM, 0, UINT64_MAX)
    if dmax == 0:
        raise _rt_invalid(api, "destMax", 0, "greater than 0")
    if n > dmax:
        raise _rt_invalid(api, "count", n, f"(0, {dmax}]")
    return _side(dst, "dst", True), _side(src, "src", False), n, k


def _same_address(a: object, b: object, da: _Side, db: _Side) -> bool:
    if da.ptr is not None and db.ptr is not None:
        return da.ptr == db.ptr
    return a is b


def _check_direction(api: str, k: int, d: _Side, s: _Side) -> None:
    if k == 4:
        return
    want_dst, want_src = _KINDS[k]
    if d.is_device != want_dst or s.is_device != want_src:
        names = {True: "device", False: "host"}
        raise _rt_invalid(
            api, "kind", k,
            f"a kind that matches the addresses (dst is {names[d.is_device]} memory, "
            f"src is {names[s.is_device]} memory)",
        )  # fmt: skip


def _do_copy(api: str, d: _Side, s: _Side, n: int) -> None:
    """Copy n bytes; every device access goes through the checked memory."""
    for side, verb in ((s, "reading"), (d, "writing")):
        if side.arr is not None and side.arr.size < n:
            raise MemoryFault("host-overflow", f"{api}: {verb} {n} bytes with a host buffer of {side.arr.size} bytes")
    if s.ptr is not None:
        SPACE.check(s.ptr, n, "read", api)
        sanitizer.before_read(s.ptr, n, api)
        data = SPACE.read(s.ptr, n, api)
    else:
        assert s.arr is not None
        data = s.arr[:n]
    if d.ptr is not None:
        SPACE.write(d.ptr, data, api)
        sanitizer.after_write(d.ptr, n, api)
    else:
        assert d.arr is not None
        d.arr[:n] = data


@c_api(_INTERNAL)
def aclrtMemcpy(dst: object, destMax: int, src: object, count: int, kind: int) -> int:
    """Synchronous copy. It does not wait for any stream (as in CANN)."""
    checked = _check_copy("aclrtMemcpy", dst, destMax, src, count, kind)
    if checked is None:
        return E.ACL_SUCCESS
    d, s, n, k = checked
    if _same_address(dst, src, d, s):
        return E.ACL_SUCCESS
    need_context()
    _check_direction("aclrtMemcpy", k, d, s)
    sanitizer.host_access_hazard(d, s, n, "aclrtMemcpy")
    try:
        _do_copy("aclrtMemcpy", d, s, n)
    except MemoryFault as fault:
        raise _rt_invalid(
            "aclrtMemcpy", "dst/src", f"{n} bytes", f"ranges inside live memory ({fault.message})"
        ) from None
    return E.ACL_SUCCESS


@c_api(_INTERNAL)
def aclrtMemcpyAsync(dst: object, destMax: int, src: object, count: int, kind: int, stream: object) -> int:
    """Queue a copy on the stream. Host buffers are captured when the copy runs (pinned-memory
    semantics); ranges are checked now and again when it runs."""
    checked = _check_copy("aclrtMemcpyAsync", dst, destMax, src, count, kind)
    if checked is None:
        return E.ACL_SUCCESS
    d, s, n, k = checked
    st = resolve_stream(stream)
    if _same_address(dst, src, d, s):
        return E.ACL_SUCCESS
    _check_direction("aclrtMemcpyAsync", k, d, s)
    if d.is_device and s.is_device and d.ptr is not None and s.ptr is not None:
        # acl_rt.h: an on-chip device-to-device async copy needs 64-byte aligned addresses
        sanitizer.check_alignment(d.ptr, 64, "aclrtMemcpyAsync device-to-device dst", E.ACL_ERROR_RT_PARAM_INVALID)
        sanitizer.check_alignment(s.ptr, 64, "aclrtMemcpyAsync device-to-device src", E.ACL_ERROR_RT_PARAM_INVALID)
    for side, name in ((d, "dst"), (s, "src")):
        if side.ptr is not None:
            try:
                SPACE.check(side.ptr, n, "copy", "aclrtMemcpyAsync")
            except MemoryFault as fault:
                raise _rt_invalid(
                    "aclrtMemcpyAsync",
                    name,
                    f"0x{side.ptr:x}",
                    f"a range inside live memory ({fault.message})",
                ) from None
        elif side.arr is not None and side.arr.size < n:
            raise _rt_invalid("aclrtMemcpyAsync", name, f"a buffer of {side.arr.size} bytes", f"at least {n} bytes")

    def run() -> None:
        try:
            _do_copy("aclrtMemcpyAsync", d, s, n)
        except MemoryFault as fault:
            raise TaskFault(E.ACL_ERROR_RT_SYS_DMA, f"aclrtMemcpyAsync task failed: {fault.message}") from None

    task = Task(st, f"aclrtMemcpyAsync({n} bytes)", run)
    sanitizer.track(
        task,
        [(s.ptr, s.ptr + n)] if s.ptr is not None else [],
        [(d.ptr, d.ptr + n)] if d.ptr is not None else [],
    )
    RT.policy.submit(st, task)
    return E.ACL_SUCCESS


def _memset_check(devPtr: object, maxCount: object, value: object, count: object) -> tuple[int, int, int, int] | None:
    n = as_int(count, "count", E.ACL_ERROR_INVALID_PARAM, 0, UINT64_MAX)
    if n == 0:
        return None
    ptr = as_pointer(devPtr)
    if ptr is None:
        raise _null("devPtr")
    if ptr < 0:
        raise _invalid("devPtr", type(devPtr).__name__, "a device pointer (int) is required")
    mx = as_int(maxCount, "maxCount", E.ACL_ERROR_INVALID_PARAM, 0, UINT64_MAX)
    v = as_int(value, "value", E.ACL_ERROR_INVALID_PARAM, -(2**31), 2**31 - 1)
    return ptr, mx, v, n


@c_api(_INTERNAL)
def aclrtMemset(devPtr: object, maxCount: int, value: int, count: int) -> int:
    """Synchronous byte fill (only the low 8 bits of value count). count > maxCount gives 107000."""
    checked = _memset_check(devPtr, maxCount, value, count)
    if checked is None:
        return E.ACL_SUCCESS
    ptr, mx, v, n = checked
    need_context()
    if n > mx:
        raise _rt_invalid("aclrtMemset", "count", n, f"(0, {mx}]")
    try:
        SPACE.fill(ptr, n, v, "aclrtMemset")
    except MemoryFault as fault:
        raise _rt_invalid(
            "aclrtMemset", "devPtr", f"0x{ptr:x}", f"a range inside live memory ({fault.message})"
        ) from None
    sanitizer.after_write(ptr, n, "aclrtMemset")
    return E.ACL_SUCCESS


@c_api(_INTERNAL)
def aclrtMemsetAsync(devPtr: object, maxCount: int, value: int, count: int, stream: object) -> int:
    """Queue a byte fill on the stream; count > maxCount gives 107000."""
    checked = _memset_check(devPtr, maxCount, value, count)
    if checked is None:
        return E.ACL_SUCCESS
    ptr, mx, v, n = checked
    st = resolve_stream(stream)
    if n > mx:
        raise _rt_invalid("aclrtMemsetAsync", "count", n, f"(0, {mx}]")
    try:
        SPACE.check(ptr, n, "write", "aclrtMemsetAsync")
    except MemoryFault as fault:
        raise _rt_invalid(
            "aclrtMemsetAsync", "devPtr", f"0x{ptr:x}", f"a range inside live memory ({fault.message})"
        ) from None

    def run() -> None:
        try:
            SPACE.fill(ptr, n, v, "aclrtMemsetAsync")
        except MemoryFault as fault:
            raise TaskFault(E.ACL_ERROR_RT_SYS_DMA, f"aclrtMemsetAsync task failed: {fault.message}") from None
        sanitizer.after_write(ptr, n, "aclrtMemsetAsync")

    task = Task(st, f"aclrtMemsetAsync({n} bytes)", run)
    sanitizer.track(task, [], [(ptr, ptr + n)])
    RT.policy.submit(st, task)
    return E.ACL_SUCCESS


# ---------------------------------------------------------------------------------------------
# events
# ---------------------------------------------------------------------------------------------


@c_api(_INTERNAL)
def aclrtCreateEventWithFlag(event: object, flag: int) -> int:
    """Create an event in the current context."""
    out = _out(event, "event", numeric=False)
    flags = as_int(flag, "flag", E.ACL_ERROR_INVALID_PARAM, 0, 2**32 - 1)
    ctx = need_context()
    ev = Event(ctx, flags, call_site())
    RT.events.add(ev)
    store(out, ev)
    return E.ACL_SUCCESS


@c_api(_INTERNAL)
def aclrtCreateEvent(event: object) -> int:
    """Create an event in the current context."""
    return aclrtCreateEventWithFlag(event, 0x1)


@c_api(_INTERNAL)
def aclrtDestroyEvent(event: object) -> int:
    """Destroy an event."""
    ev = _resolve_event(event)
    ev.destroyed = True
    RT.events.discard(ev)
    return E.ACL_SUCCESS


@c_api(_INTERNAL)
def aclrtRecordEvent(event: object, stream: object) -> int:
    """Record the event at the current end of the stream's queue."""
    ev = _resolve_event(event)
    st = resolve_stream(stream)

    def run() -> None:
        ev.timestamp_ns = now_ns()

    ev.timestamp_ns = None
    ev.stream = st
    ev.task = Task(st, "record event", run)
    RT.policy.submit(st, ev.task)
    return E.ACL_SUCCESS


@c_api(_INTERNAL)
def aclrtSynchronizeEvent(event: object) -> int:
    """Block until the stream has reached the event (an unrecorded event returns at once)."""
    ev = _resolve_event(event)
    if ev.task is not None and ev.stream is not None:
        drain(ev.stream, ev.task)
    return E.ACL_SUCCESS


@c_api(_INTERNAL)
def aclrtSynchronizeEventWithTimeout(event: object, timeout: int) -> int:
    """As aclrtSynchronizeEvent; timeout < -1 or 0 gives 107000."""
    t = as_int(timeout, "timeout", E.ACL_ERROR_INVALID_PARAM, -(2**31), 2**31 - 1)
    if t < -1:
        raise _rt_invalid("aclrtSynchronizeEventWithTimeout", "timeout", t, "[-1, 2147483647] and not 0")
    ev = _resolve_event(event)
    if t == 0:
        raise _rt_invalid(
            "aclrtSynchronizeEventWithTimeout", "timeout", t, "greater than or equal to -1 and not equal to 0"
        )
    if ev.task is not None and ev.stream is not None:
        drain(ev.stream, ev.task)
    return E.ACL_SUCCESS


@c_api(_INTERNAL)
def aclrtQueryEventStatus(event: object, status: object) -> int:
    """COMPLETE once the stream has passed the event; a pending event reports NOT_READY and the
    device makes progress, so polling terminates."""
    ev = _resolve_event(event)
    out = _out(status, "status")
    if ev.complete:
        store(out, aclrtEventRecordedStatus.ACL_EVENT_RECORDED_STATUS_COMPLETE)
        return E.ACL_SUCCESS
    store(out, aclrtEventRecordedStatus.ACL_EVENT_RECORDED_STATUS_NOT_READY)
    if ev.task is not None and ev.stream is not None and RT.policy.name != "thread":
        drain(ev.stream, ev.task)
    return E.ACL_SUCCESS


@c_api(_INTERNAL)
def aclrtEventElapsedTime(ms: object, startEvent: object, endEvent: object) -> int:
    """Milliseconds (float32) between two completed events."""
    out = _out(ms, "ms")
    start = _resolve_event(startEvent, "startEvent")
    end = _resolve_event(endEvent, "endEvent")
    for ev, name in ((start, "startEvent"), (end, "endEvent")):
        if not ev.recorded:
            raise fail(
                E.ACL_ERROR_RT_INTERNAL_ERROR,
                "EE1018",
                f"Event elapsed time failed. Reason: {name} was never recorded.",
            )
    for ev, name in ((start, "startEvent"), (end, "endEvent")):
        if not ev.complete or ev.timestamp_ns is None:
            raise fail(
                E.ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID,
                "EE1018",
                f"Event elapsed time failed. Reason: {name} has not completed yet "
                "(synchronize the event or stream first).",
            )
    assert start.timestamp_ns is not None and end.timestamp_ns is not None
    store(out, float(np.float32((end.timestamp_ns - start.timestamp_ns) / 1e6)))
    return E.ACL_SUCCESS


@c_api(_INTERNAL)
def aclrtStreamWaitEvent(stream: object, event: object) -> int:
    """Make later work on the stream wait until the event completes."""
    st = resolve_stream(stream)
    ev = _resolve_event(event)
    if ev.task is None or ev.stream is None:
        return E.ACL_SUCCESS
    waited_task, waited_stream = ev.task, ev.stream

    def run() -> None:
        if waited_stream is st:
            return
        try:
            RT.policy.drain(waited_stream, waited_task)
        except CycleError as e:
            raise TaskFault(E.ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, f"stream wait would never finish: {e}") from None

    submit(st, "wait event", run)
    return E.ACL_SUCCESS
