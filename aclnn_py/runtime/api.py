"""The AscendCL runtime functions (``acl.h`` / ``acl_rt.h``) with CANN's check order, codes and
messages.

Each function checks its arguments in the order the current CANN runtime does (hicann/runtime
master, the 9.2 line: ACL 1.17): the ACL layer first (a null pointer gives 100000 and EH0008, a
bad value EH0007), then the ``rt*`` function it calls: the stream/event handle (107017, two
EE1017 reports), the runtime's own value checks (EE1003 in CANN's wording), the current context
(107002, EE1018), and the stream's context (107003, EE1010). A runtime failure is followed by
the second message the ``rt*`` wrapper adds (``ErrorMessageUtils::FuncErrorReason``): EE1001
``The argument is invalid. Reason: <rtFn> execution failed...``, the EE1017 handle report, or an
EE9999 inner report. Inner reports carry the ``[FUNC:..][FILE:..][LINE:..]`` suffix CANN's error
manager appends.

Where CANN has no check but the emulator must protect its simulated memory (a copy whose kind
contradicts the addresses, one that reaches outside live memory, a bad free, an address the
emulator does not know ...), the emulator keeps its check and reports it under its own id
``aclnn_py``. See ``docs/runtime.md`` for the table of codes and messages.
"""

from __future__ import annotations

import array
import hashlib
import json
import os
import re
from typing import Any

import numpy as np

from .. import _errmsg
from .. import soc as _soc
from .._capi import UINT64_MAX, ApiError, as_int, as_pointer, c_api, describe, fail
from .._ref import is_out_param, store
from .._status import aclError
from . import sanitizer
from .device import RT, RT_MAX_DEV_NUM, Context, Device
from .enums import aclrtEventRecordedStatus, aclrtRunMode, aclrtStreamStatus
from .memory import DEVICE_BASE, HOST_BASE, REGION_SPAN, SPACE, Allocation, MemoryFault, call_site
from .stream import CycleError, Event, Stream, Task, TaskFault, now_ns

E = aclError
_INTERNAL = E.ACL_ERROR_INTERNAL_ERROR
EMU = "aclnn_py"  # the id of the emulator's own reports (checks CANN does not make)

Message = tuple[str, str] | tuple[str, str, None]


# ---------------------------------------------------------------------------------------------
# CANN's messages
# ---------------------------------------------------------------------------------------------

# The [FUNC:][FILE:][LINE:] suffix CANN's error manager appends to an inner report.
ACL_INNER = "[FUNC:ReportInnerError][FILE:log_inner.cpp][LINE:133]"  # ACL_LOG_INNER_ERROR
ACL_CALL = "[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:150]"  # ACL_LOG_CALL_ERROR
FUNC_ERROR_REASON = "[FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:68]"

# ContextManage::ReportContextValidationError (EE1018 "%s failed. Reason: %s.")
NO_CONTEXT = (
    "Context validation failed. Reason: No valid context is bound to the current thread. Call aclrtSetDevice "
    "or aclrtSetCurrentContext to bind a valid context to the current thread before calling this API."
)
_TIMEOUT_EXPECT = "greater than or equal to -1 and not equal to 0"


def acl_null(func: str, param: str) -> Message:
    """``ACL_REQUIRES_NOT_NULL_WITH_INPUT_REPORT``: EH0008 (``func`` without its ``Impl``)."""
    return ("EH0008", f"{func} failed because {param} cannot be a NULL pointer.")


def acl_value(func: str, value: object, param: str, expect: str) -> Message:
    """EH0007, the ACL layer's invalid-value report."""
    return (
        "EH0007",
        f"{func} failed because value {value} for parameter {param} is invalid. Expected value: {expect}.",
    )


def acl_reason(func: str, value: object, param: str, reason: str) -> Message:
    """EH0009, the ACL layer's invalid-parameter report with a reason."""
    return ("EH0009", f"{func} failed. Value {value} for parameter {param} is invalid. Reason: {reason}.")


def acl_inner(text: str, suffix: str = ACL_INNER) -> Message:
    """``ACL_LOG_INNER_ERROR`` (or, with ``ACL_CALL``, ``ACL_LOG_CALL_ERROR``): EH9999."""
    return ("EH9999", text + suffix, None)


def rt_value(desc: str, value: object, param: str, expect: str) -> Message:
    """EE1003 of the runtime's checks; ``desc`` is CANN's phrase for the operation."""
    return (
        "EE1003",
        f"{desc} failed because value {value} for parameter {param} is invalid. Expected value: {expect}.",
    )


def rt_inner(text: str, func: str, file: str, line: int) -> Message:
    """An EE9999 inner report of the runtime, with the place that made it."""
    return ("EE9999", f"{text}[FUNC:{func}][FILE:{file}][LINE:{line}]", None)


# The rt* wrapper's second message (FuncErrorReason), by the inner error it returns.
def fb_invalid(rt_fn: str) -> Message:
    return ("EE1001", f"The argument is invalid. Reason: {rt_fn} execution failed.")


def fb_no_context(rt_fn: str) -> Message:
    return ("EE1001", f"The argument is invalid. Reason: {rt_fn} execution failed, the context is a null pointer.")


def fb_handle(rt_fn: str) -> Message:
    return (
        "EE1017",
        f"{rt_fn} failed. Parameter handle is invalid. Reason: 1. The handle has been destroyed. "
        "2. The handle type is not the expected one.",
    )


def fb_inner(rt_fn: str, reason: str) -> Message:
    return ("EE9999", f"{rt_fn} execution failed, reason={reason}{FUNC_ERROR_REASON}", None)


def emu(text: str) -> Message:
    """A report of the emulator's own (not CANN's): id ``aclnn_py``, no title."""
    return (EMU, text, None)


def _int(v: object, name: str, lo: int, hi: int) -> int:
    """An integer argument; a non-integer or out-of-range value is the emulator's refusal."""
    return as_int(v, name, E.ACL_ERROR_INVALID_PARAM, lo, hi, eid=EMU)


def _out(obj: object, func: str, name: str, numeric: bool = True) -> object:
    """An out-parameter: None is nullptr (100000, EH0008); an object that cannot hold a value too."""
    if obj is None:
        raise ApiError(E.ACL_ERROR_INVALID_PARAM, acl_null(func, name))
    if not is_out_param(obj, numeric):
        holders = "Ref() or a ctypes holder" if numeric else "Ref()"
        raise ApiError(
            E.ACL_ERROR_INVALID_PARAM, emu(f"{func}: {name} must be an out-parameter ({holders}), got {describe(obj)}.")
        )
    return obj


def need_context(rt_fn: str | None = None, *, implicit_default: bool = True) -> Context:
    """The calling thread's current context, or 107002: EE1018, then (when the caller names its
    ``rt*`` function) the wrapper's EE1001. ``implicit_default``: an aclInit ``defaultDevice``
    is made current on the spot (``ApiImpl::CurrentContext()``); the no-argument
    ``Runtime::CurrentContext()`` of a few functions does not do that."""
    ctx = RT.current_context() if implicit_default else RT.thread_context()
    if ctx is None:
        messages: list[Message] = [("EE1018", NO_CONTEXT)]
        if rt_fn is not None:
            messages.append(fb_no_context(rt_fn))
        raise ApiError(E.ACL_ERROR_RT_CONTEXT_NULL, *messages)
    return ctx


def _is_null_handle(obj: object) -> bool:
    return obj is None or (isinstance(obj, int) and not isinstance(obj, bool) and obj == 0)


def _bad_object(kind: str, rt_fn: str) -> ApiError:
    """``RT_VALIDATE_AND_UNWRAP_OBJECT`` failed: the handle guard's EE1017, then the wrapper's."""
    return ApiError(
        E.ACL_ERROR_RT_INVALID_HANDLE,
        (
            "EE1017",
            f"Object validation failed. Parameter {kind} is invalid. Reason: 1. The {kind} handle has been "
            f"destroyed. 2. The handle type must be {kind}.",
        ),
        fb_handle(rt_fn),
    )


def _stream_handle(stream: object, rt_fn: str) -> Stream | None:
    """A stream argument validated as the rt function's handle guard does (None: the default)."""
    if _is_null_handle(stream):
        return None
    if not isinstance(stream, Stream) or stream.destroyed:
        raise _bad_object("stream", rt_fn)
    return stream


def _event_handle(event: object, rt_fn: str) -> Event:
    if not isinstance(event, Event) or event.destroyed:
        raise _bad_object("event", rt_fn)
    return event


def _own_stream(st: Stream, ctx: Context, desc: str, rt_fn: str) -> None:
    """``COND_RETURN_AND_MSG_INVALID_CONTEXT_STREAM_WITH_FUNC_DESC``: the stream must belong to
    the current context (107003, EE1010 and the wrapper's inner report)."""
    if st.context is not ctx:
        raise ApiError(
            E.ACL_ERROR_RT_STREAM_CONTEXT,
            (
                "EE1010",
                f"{desc} execution failed because stream does not belong to the current context. Extended "
                f"information: stream_id={st.ident}, stream_ctx={st.context.pointer}, cur_ctx={ctx.pointer}.",
            ),
            fb_inner(rt_fn, "stream not in current context"),
        )


def _legacy_bad_handle(kind: str, obj: object) -> ApiError:
    if isinstance(obj, (Stream, Event, Context)) and obj.destroyed:
        reason = f"{obj!r} was already destroyed"
    else:
        reason = f"{type(obj).__name__} object is not an {kind}"
    return fail(E.ACL_ERROR_RT_INVALID_HANDLE, "EE1017", f"The {kind} handle is invalid. Reason: {reason}.")


def resolve_stream(stream: object) -> Stream:
    """A stream argument of a caller outside the runtime (the executor's phase-2 launch): None is
    the current context's default stream; no current context gives 107002, a bad handle 107017.
    (The runtime functions check their streams as their own rt functions do.)"""
    if _is_null_handle(stream):
        return need_context().default_stream
    need_context()
    if not isinstance(stream, Stream) or stream.destroyed:
        raise _legacy_bad_handle("aclrtStream", stream)
    return stream


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
        raise ApiError(
            E.ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
            emu(f"this synchronize would never return ({e}); on hardware it hangs. Remove the wait cycle."),
        ) from None


def submit(stream: Stream, label: str, fn: Any) -> Task:
    """Queue ``fn`` on ``stream`` under the active execution policy."""
    task = Task(stream, label, fn)
    RT.policy.submit(stream, task)
    return task


# ---------------------------------------------------------------------------------------------
# init / finalize
# ---------------------------------------------------------------------------------------------

_CONFIG_FAILED = "Get Content from configPath failed, ret=100003"


def _json_dump(value: object) -> str:
    """nlohmann's ``dump()`` of a parsed value: compact, non-ASCII kept."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _json_type(value: object) -> str:
    """nlohmann's ``type_name()``."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    return "object" if isinstance(value, dict) else "array"


def _read_config(path: str) -> bytes:
    """``GetStrFromConfigPath``: the file's bytes, or 100003 (EH0003 and aclInit's EH9999)."""
    try:
        real = os.path.realpath(path, strict=True)
    except OSError as e:
        reason = e.strerror or str(e)
        raise ApiError(
            E.ACL_ERROR_INVALID_FILE,
            ("EH0003", f"Path {path} is invalid. Reason: {reason}."),
            acl_inner(_CONFIG_FAILED),
        ) from None
    try:
        with open(real, "rb") as f:
            return f.read()
    except OSError:
        raise ApiError(
            E.ACL_ERROR_INVALID_FILE,
            ("EH0003", f"Path {path} is invalid. Reason: file open failed."),
            acl_inner(_CONFIG_FAILED),
        ) from None


def _parse_config(path: str, content: bytes) -> dict[str, Any]:
    """``HandleErrorManagerConfig``'s parse: an empty file is no config; invalid JSON is 100006."""
    if not content:
        return {}
    try:
        loaded = json.loads(content)
    except ValueError as e:  # the reason is Python's json message where CANN shows nlohmann's
        raise ApiError(
            E.ACL_ERROR_PARSE_FILE,
            ("EH0004", f"File {path} is invalid. Reason: Parse exception: {e}."),
            acl_inner(f"Cannot parse err_msg config from file[{path}], errorCode = 100006"),
            acl_inner("[Process][ErrorMsg]process HandleErrorManagerConfig failed, ret=100006"),
        ) from None
    return loaded if isinstance(loaded, dict) else {}


def _err_msg_mode(config: dict[str, Any]) -> bool:
    """``err_msg_mode``: its JSON dump must be ``"0"`` or ``"1"`` (quotes included), so a number is
    refused (100000, EH0009). Returns True for process mode."""
    if "err_msg_mode" not in config:
        return False
    dump = _json_dump(config["err_msg_mode"])
    if dump in ('"0"', '"1"'):
        return dump == '"1"'
    raise ApiError(
        E.ACL_ERROR_INVALID_PARAM,
        acl_reason(
            "Parsing the configuration of the error information reporting mode",
            dump,
            "err_msg mode",
            "err_msg mode config is invalid, only support INTERNAL_MODE and PROCESS_MODE",
        ),
        acl_inner("[Process][ErrorMsg]process HandleErrorManagerConfig failed, ret=100000"),
    )


def _default_device(path: str, config: dict[str, Any]) -> int | None:
    """``GetDefaultDeviceIdFromFile``: ``{"defaultDevice": {"default_device": "<n>"}}``."""
    section = config.get("defaultDevice")
    if not isinstance(section, dict) or "default_device" not in section:
        return None
    value = section["default_device"]
    failed = acl_inner("[Process][DefaultDevice]process HandleDefaultDevice failed")
    if not isinstance(value, str):
        raise ApiError(
            E.ACL_ERROR_FAILURE,
            (
                "EH0004",
                f"File {path} is invalid. Reason: JSON parse exception: [json.exception.type_error.302] type must "
                f"be string, but is {_json_type(value)}.",
            ),
            failed,
        )
    if not re.fullmatch(r"0|[1-9][0-9]*", value):
        raise ApiError(
            E.ACL_ERROR_FAILURE,
            acl_reason(
                "Parsing the default device ID from the configuration file",
                value,
                "default_device",
                "value must be 0 or a positive integer",
            ),
            failed,
        )
    return int(value)


@c_api(_INTERNAL)
def aclInit(configPath: str | None = None) -> int:
    """Initialise the runtime; a repeated call returns ACL_ERROR_REPEAT_INITIALIZE (100002)."""
    with RT.lock:
        if RT.initialized:
            RT.init_refcount += 1  # CANN only logs it: callers may ignore this code
            return E.ACL_ERROR_REPEAT_INITIALIZE
        content = b""
        path = ""
        if configPath not in (None, ""):
            if not isinstance(configPath, (str, bytes, os.PathLike)):
                raise ApiError(
                    E.ACL_ERROR_INVALID_PARAM,
                    emu(f"aclInit: configPath must be a path string or None, got {describe(configPath)}."),
                )
            path = os.fsdecode(configPath)
            content = _read_config(path)
        digest = hashlib.sha256(content).hexdigest()
        if RT.first_config is not None and digest != RT.first_config:
            raise ApiError(
                E.ACL_ERROR_INVALID_PARAM,
                (
                    "EH0004",
                    f"File {path} is invalid. Reason: config content differs from the first aclInit config file "
                    f"path: {RT.first_config_path}.",
                ),
            )
        config = _parse_config(path, content) if path else {}
        process_mode = _err_msg_mode(config)
        default_device = _default_device(path, config) if path else None
        try:
            profile = RT.configure_from_environment()
        except ValueError as e:
            raise ApiError(_INTERNAL, emu(f"aclInit: {e}.")) from None
        if RT.first_config is None:
            RT.first_config, RT.first_config_path = digest, path
        RT.default_device = default_device
        _errmsg.set_process_mode(process_mode)
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
            raise ApiError(E.ACL_ERROR_REPEAT_FINALIZE, acl_inner("[Finalize][Acl]repeatedly finalized"))
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
    """Drop one aclInit reference; finalize when it reaches 0. ``*refCount`` (None allowed) is
    written first, so a failing call leaves 0 there."""
    with RT.lock:
        out = None
        if refCount is not None:
            out = _out(refCount, "aclFinalizeReference", "refCount")
            store(out, RT.init_refcount)
        if RT.init_refcount > 1:
            RT.init_refcount -= 1
            if out is not None:
                store(out, RT.init_refcount)
            return E.ACL_SUCCESS
        if RT.init_refcount < 1:
            raise ApiError(
                E.ACL_ERROR_REPEAT_FINALIZE,
                acl_inner("[Finalize][Acl]aclFinalizeReference called repeatedly or called without proper aclInit"),
            )
        code = aclFinalize()
        if out is not None:
            store(out, RT.init_refcount)
        return code


@c_api(_INTERNAL, handle=True)
def aclGetRecentErrMsg() -> str | None:
    """The calling thread's pending error messages; clears them. None if there are none.

    As in CANN, it first asks the device for its messages (``rtGetDevMsg``), which needs a
    current context: a thread without one gets that call's own EE1018 and EE1001 in the text it
    reads (with an aclInit ``defaultDevice``, that device is made current instead, silently)."""
    if RT.current_context() is None:
        _errmsg.report("EE1018", NO_CONTEXT)
        _errmsg.report(*fb_no_context("rtGetDevMsg"))
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
    store(_out(runMode, "aclrtGetRunMode", "runMode"), aclrtRunMode.ACL_HOST)
    return E.ACL_SUCCESS


# ---------------------------------------------------------------------------------------------
# devices
# ---------------------------------------------------------------------------------------------


def _device_arg(deviceId: object) -> int:
    return _int(deviceId, "deviceId", -(2**31), 2**31 - 1)


def _check_device_id(dev_id: int, rt_fn: str, reset_func: str, reset_line: int) -> None:
    """``CheckDeviceIdIsValid`` of aclrtResetDevice / aclrtResetDeviceForce (107001)."""
    count = RT.device_count
    if not 0 <= dev_id < count:
        raise ApiError(
            E.ACL_ERROR_RT_INVALID_DEVICEID,
            rt_value("Verifying the device ID validity", dev_id, "devId", f"[0, {count})"),
            rt_inner(
                f"drv devId is invalid, drv devId={dev_id}, retCode=0x7010003", reset_func, "api_error.cc", reset_line
            ),
            fb_inner(rt_fn, "device id error"),
        )


@c_api(_INTERNAL)
def aclrtSetDevice(deviceId: int) -> int:
    """Retain the device's primary context (creating it on first use) and make it current."""
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
    dev_id = _device_arg(deviceId)
    _check_device_id(dev_id, "rtDeviceReset", "DeviceReset", 3439)
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
        dev.refcount -= 1
        if dev.refcount == 0:
            _release_device(dev, "aclrtResetDevice")
    return E.ACL_SUCCESS


@c_api(_INTERNAL)
def aclrtResetDeviceForce(deviceId: int) -> int:
    """Release the device whatever its reference count."""
    dev_id = _device_arg(deviceId)
    _check_device_id(dev_id, "rtDeviceResetForce", "DeviceResetForce", 6724)
    with RT.lock:
        dev = RT.devices.get(dev_id)
        if dev is None or dev.refcount == 0:
            raise ApiError(
                E.ACL_ERROR_RT_CONTEXT_RELEASE_ERROR,
                rt_inner(
                    "PrimaryContextRelease failed, total ref count is 0.",
                    "DecideForcePrimaryReleaseAction",
                    "runtime.cc",
                    257,
                ),
                fb_inner("rtDeviceResetForce", "context release error"),
            )
        _release_device(dev, "aclrtResetDeviceForce")
    return E.ACL_SUCCESS


@c_api(_INTERNAL)
def aclrtGetDevice(deviceId: object) -> int:
    """The device of the calling thread's current context (107002, silently, without one; the
    aclInit default device, without making it current)."""
    out = _out(deviceId, "aclrtGetDevice", "deviceId")
    ctx = RT.thread_context()
    if ctx is not None:
        store(out, ctx.device.ident)
        return E.ACL_SUCCESS
    if RT.initialized and RT.default_device is not None:
        store(out, RT.default_device)
        return E.ACL_SUCCESS
    return E.ACL_ERROR_RT_CONTEXT_NULL  # rtGetDevice returns it without a report


@c_api(_INTERNAL)
def aclrtGetDeviceCount(count: object) -> int:
    """How many devices the emulator offers (``ACLNN_PY_DEVICE_COUNT``, default 8)."""
    out = _out(count, "aclrtGetDeviceCount", "count")
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


def _synchronize_device(rt_fn: str) -> int:
    dev = need_context(rt_fn).device
    ctxs = ([dev.primary] if dev.primary else []) + dev.contexts
    return _synchronize_streams([s for c in ctxs for s in c.all_streams()])


@c_api(_INTERNAL)
def aclrtSynchronizeDevice() -> int:
    """Wait for every stream of the current device."""
    return _synchronize_device("rtDeviceSynchronize")


@c_api(_INTERNAL)
def aclrtSynchronizeDeviceWithTimeout(timeout: int) -> int:
    """As aclrtSynchronizeDevice; timeout < -1 or == 0 gives 107000 (the emulator never times out)."""
    t = _int(timeout, "timeout", -(2**31), 2**31 - 1)
    if t < -1:
        raise ApiError(
            E.ACL_ERROR_RT_PARAM_INVALID, acl_value("aclrtSynchronizeDeviceWithTimeout", t, "timeout", "[-1, INT_MAX]")
        )
    if t == 0:
        raise ApiError(
            E.ACL_ERROR_RT_PARAM_INVALID,
            rt_value("Waiting for all streams on the device to complete", t, "timeout", _TIMEOUT_EXPECT),
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


@c_api(_INTERNAL)
def aclrtCreateContext(context: object, deviceId: int) -> int:
    """Create an explicit context on the device and make it current for the calling thread."""
    out = _out(context, "aclrtCreateContext", "context", numeric=False)
    dev_id = _device_arg(deviceId)
    count = RT.device_count
    if not 0 <= dev_id < count:
        raise ApiError(
            E.ACL_ERROR_RT_INVALID_DEVICEID,
            rt_value("Context creation", dev_id, "devId", f"[0, {count})"),
            fb_inner("rtCtxCreateEx", "device id error"),
        )
    with RT.lock:
        dev = RT.device(dev_id)
        ctx = Context(dev, False, call_site())
        dev.contexts.append(ctx)
        RT.tls.context = ctx
    store(out, ctx)
    return E.ACL_SUCCESS


@c_api(_INTERNAL)
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


@c_api(_INTERNAL)
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


@c_api(_INTERNAL)
def aclrtGetCurrentContext(context: object) -> int:
    """The calling thread's current context (107002, silently, without one)."""
    out = _out(context, "aclrtGetCurrentContext", "context", numeric=False)
    ctx = RT.thread_context()
    if ctx is None:
        return E.ACL_ERROR_RT_CONTEXT_NULL  # rtCtxGetCurrent returns it without a report
    store(out, ctx)
    return E.ACL_SUCCESS


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


@c_api(_INTERNAL)
def aclrtCreateStreamWithConfig(stream: object, priority: int, flag: int) -> int:
    """Create a stream in the current context (the priority is clamped and otherwise ignored)."""
    out = _out(stream, "aclrtCreateStreamWithConfig", "stream", numeric=False)
    _int(priority, "priority", 0, 2**32 - 1)
    flags = _int(flag, "flag", 0, 2**32 - 1)
    return _create_stream(out, flags)


@c_api(_INTERNAL)
def aclrtCreateStream(stream: object) -> int:
    """Create a stream in the current context."""
    return _create_stream(_out(stream, "aclrtCreateStream", "stream", numeric=False), 0)


@c_api(_INTERNAL)
def aclrtDestroyStream(stream: object) -> int:
    """Wait for the stream's tasks, then destroy it. The stream must belong to the current context."""
    if _is_null_handle(stream):
        raise ApiError(E.ACL_ERROR_INVALID_PARAM, acl_null("aclrtDestroyStream", "stream"))
    st = _stream_handle(stream, "rtStreamDestroy")
    assert st is not None
    ctx = need_context("rtStreamDestroy")
    _own_stream(st, ctx, "Stream destruction", "rtStreamDestroy")
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
        _stream_error(st)
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
    st = _stream_handle(stream, rt_fn)
    if timeout == 0:
        raise ApiError(
            E.ACL_ERROR_RT_PARAM_INVALID,
            rt_value("Synchronizing a stream", timeout, "timeout", _TIMEOUT_EXPECT),
            fb_invalid(rt_fn),
        )
    ctx = need_context(rt_fn)
    s = st or ctx.default_stream  # a stream of another context is synchronized too
    drain(s)
    return _stream_error(s)


@c_api(_INTERNAL)
def aclrtSynchronizeStream(stream: object) -> int:
    """Block until every task queued on the stream has finished; report a failed task's status."""
    return _sync_stream(stream, "rtStreamSynchronize")


@c_api(_INTERNAL)
def aclrtSynchronizeStreamWithTimeout(stream: object, timeout: int) -> int:
    """As aclrtSynchronizeStream; timeout < -1 or == 0 gives 107000 (the emulator never times out)."""
    t = _int(timeout, "timeout", -(2**31), 2**31 - 1)
    if t < -1:
        raise ApiError(
            E.ACL_ERROR_RT_PARAM_INVALID,
            acl_inner("the timeout of synchronize stream is invalid", ACL_CALL),
            acl_value("aclrtSynchronizeStreamWithTimeout", t, "timeout", "[-1, INT_MAX]"),
        )
    return _sync_stream(stream, "rtStreamSynchronizeWithTimeout", t)


@c_api(_INTERNAL)
def aclrtStreamQuery(stream: object, status: object) -> int:
    """COMPLETE if nothing is queued; otherwise NOT_READY — and the device makes progress, so a
    polling loop sees COMPLETE on a later query."""
    out = _out(status, "aclrtStreamQuery", "status")
    st = _stream_handle(stream, "rtStreamQuery")
    ctx = need_context("rtStreamQuery")
    s = st or ctx.default_stream  # a stream of another context is queried too
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
_PARAM = E.ACL_ERROR_INVALID_PARAM
_RT_PARAM = E.ACL_ERROR_RT_PARAM_INVALID


def malloc_size(size: int, policy: int) -> int:
    """Bytes aclrtMalloc reserves: ``((size + 32 + padding - 1) / 32) * 32`` with the SoC's padding
    (32, i.e. ALIGN_UP(size, 32) + 32; 0 on Ascend950); no padding for the 1 GB huge-page policies."""
    padding = 0 if (policy & 0xFF) in _HUGE1G else _soc.current().malloc_padding
    return (size + 32 + padding - 1) // 32 * 32


def _device_malloc(devPtr: object, size: object, policy: object, func: str, api: str, aligned32: bool) -> int:
    """``aclMallocMemInner`` / ``aclrtMallocCachedImpl``: ``func`` is the name CANN's reports give."""
    out = _out(devPtr, func, "devPtr")
    n = _int(size, "size", 0, UINT64_MAX)
    if n == 0:
        raise ApiError(_PARAM, acl_value(func, 0, "size", "must be greater than 0"))
    pol = _int(policy, "policy", 0, 2**32 - 1)
    padding = 0 if aligned32 or (pol & 0xFF) in _HUGE1G else _soc.current().malloc_padding
    if n + 32 + padding > UINT64_MAX:  # GetAlignedAndPaddingSize: size + appendSize overflows
        raise ApiError(_PARAM, acl_inner(f"[Check][Size]size too large: {n}"))
    rounded = (n + 31) // 32 * 32 if aligned32 else malloc_size(n, pol)
    ctx = need_context()  # rtMalloc adds no message of its own
    dev = ctx.device
    with RT.lock:
        if dev.used + rounded > dev.capacity:
            raise ApiError(
                E.ACL_ERROR_RT_MEMORY_ALLOCATION,
                emu(
                    f"{api}: {rounded} bytes requested on device {dev.ident}, {dev.capacity - dev.used} of "
                    f"{dev.capacity} bytes free (ACLNN_PY_DEVICE_MEMORY sets the simulated capacity)."
                ),
            )
        try:
            alloc = SPACE.allocate(rounded, n, "device", dev.ident, api, call_site())
        except MemoryError:
            raise ApiError(
                E.ACL_ERROR_RT_MEMORY_ALLOCATION,
                emu(f"{api}: the host cannot back {rounded} bytes of simulated device memory."),
            ) from None
        dev.used += rounded
    sanitizer.on_alloc(alloc)
    store(out, alloc.start)
    return E.ACL_SUCCESS


@c_api(_INTERNAL)
def aclrtMalloc(devPtr: object, size: int, policy: int) -> int:
    """Allocate device memory (not zeroed; rounded as CANN rounds it)."""
    return _device_malloc(devPtr, size, policy, "aclMallocMemInner", "aclrtMalloc", aligned32=False)


@c_api(_INTERNAL)
def aclrtMallocCached(devPtr: object, size: int, policy: int) -> int:
    """As aclrtMalloc (the emulator has no cache to keep coherent)."""
    return _device_malloc(devPtr, size, policy, "aclrtMallocCached", "aclrtMallocCached", aligned32=False)


@c_api(_INTERNAL)
def aclrtMallocAlign32(devPtr: object, size: int, policy: int) -> int:
    """Allocate device memory rounded up to 32 bytes, without the extra padding."""
    return _device_malloc(devPtr, size, policy, "aclMallocMemInner", "aclrtMallocAlign32", aligned32=True)


@c_api(_INTERNAL)
def aclrtMallocHost(hostPtr: object, size: int) -> int:
    """Allocate pinned host memory (needs a current context, as in CANN); the pointer is an int
    that the memcpy functions accept."""
    out = _out(hostPtr, "aclrtMallocHost", "hostPtr")
    n = _int(size, "size", 0, UINT64_MAX)
    if n == 0:
        raise ApiError(_PARAM, acl_value("aclrtMallocHost", 0, "size", "must be greater than 0"))
    need_context("rtMallocHost")
    with RT.lock:
        if RT.host_used + n > RT.capacity:
            raise ApiError(
                E.ACL_ERROR_RT_MEMORY_ALLOCATION,
                emu(
                    f"aclrtMallocHost: {n} bytes of pinned memory requested, {RT.capacity - RT.host_used} of "
                    f"{RT.capacity} bytes available (ACLNN_PY_DEVICE_MEMORY sets the simulated capacity)."
                ),
            )
        try:
            alloc = SPACE.allocate(n, n, "host", 0, "aclrtMallocHost", call_site())
        except MemoryError:
            raise ApiError(
                E.ACL_ERROR_RT_MEMORY_ALLOCATION, emu(f"aclrtMallocHost: the host cannot back {n} bytes.")
            ) from None
        RT.host_used += n
    sanitizer.on_alloc(alloc, initialised=True)
    store(out, alloc.start)
    return E.ACL_SUCCESS


def _free(ptr_arg: object, name: str, kind: str, api: str) -> int:
    maker = "aclrtMalloc" if kind == "device" else "aclrtMallocHost"
    ptr = as_pointer(ptr_arg)
    if ptr is None:
        raise ApiError(_PARAM, acl_null(api, name))
    if ptr < 0:
        raise ApiError(
            _PARAM, emu(f"{api}: {name} must be a pointer (the int {maker} returned), got {describe(ptr_arg)}.")
        )
    alloc = SPACE.find(ptr)
    if alloc is not None and alloc.kind != kind:
        if kind == "host":  # rtFreeHost asks the driver where the address lives
            raise ApiError(
                _RT_PARAM,
                (
                    "EE1011",
                    "Host memory release failed. Value MEMORY_LOC_DEVICE(1) for parameter hostPtr locationType is "
                    "invalid. Reason: The specified address must be a host address.",
                ),
                fb_invalid("rtFreeHost"),
            )
        if alloc.start == ptr:
            raise ApiError(
                _RT_PARAM,
                emu(f"{api}: 0x{ptr:x} is pinned host memory ({alloc.describe()}); free it with aclrtFreeHost."),
            )
    sanitizer.check_free(alloc, ptr, api)
    try:
        freed = SPACE.free(ptr, api, call_site())
    except MemoryFault as fault:
        raise ApiError(
            _RT_PARAM, emu(f"{api}: {fault.message}; pass a pointer that {maker} returned, and free it once.")
        ) from None
    with RT.lock:
        if kind == "device":
            RT.device(freed.device).used -= freed.size
        else:
            RT.host_used -= freed.size
    return E.ACL_SUCCESS


@c_api(_INTERNAL)
def aclrtFree(devPtr: object) -> int:
    """Free device memory at once (queued work that still uses it is not waited for). No current
    context is needed."""
    return _free(devPtr, "devPtr", "device", "aclrtFree")


@c_api(_INTERNAL)
def aclrtFreeHost(hostPtr: object) -> int:
    """Free pinned host memory made by aclrtMallocHost. No current context is needed."""
    return _free(hostPtr, "hostPtr", "host", "aclrtFreeHost")


@c_api(_INTERNAL)
def aclrtGetMemInfo(attr: int, free: object, total: object) -> int:
    """Free and total bytes of the current device (every attribute reports the same pool)."""
    a = _int(attr, "attr", -(2**31), 2**31 - 1)
    out_free = _out(free, "aclrtGetMemInfo", "free")
    out_total = _out(total, "aclrtGetMemInfo", "total")
    if not 0 <= a <= 17:
        raise ApiError(
            E.ACL_ERROR_RT_INVALID_MEMORY_TYPE,
            rt_value(
                "Obtaining the memory information of the current device", f"UNKNOWN({a})", "memInfoType", "[0, 17]"
            ),
            fb_inner("rtMemGetInfoEx", "invalid memory type"),
        )
    ctx = RT.current_context()
    if ctx is None:  # ApiImpl::MemGetInfoEx: NULL_PTR_RETURN_MSG, not the context validation
        raise ApiError(
            E.ACL_ERROR_RT_CONTEXT_NULL,
            rt_inner("Check param failed, curCtx can not be null.", "MemGetInfoEx", "api_impl.cc", 3297),
            fb_no_context("rtMemGetInfoEx"),
        )
    dev = ctx.device
    store(out_free, dev.capacity - dev.used)
    store(out_total, dev.capacity)
    return E.ACL_SUCCESS


# -- memcpy / memset -----------------------------------------------------------------------------

_BUFFERS = (np.ndarray, bytes, bytearray, memoryview, array.array)
_KIND_NAMES = (
    "ACL_MEMCPY_HOST_TO_HOST",
    "ACL_MEMCPY_HOST_TO_DEVICE",
    "ACL_MEMCPY_DEVICE_TO_HOST",
    "ACL_MEMCPY_DEVICE_TO_DEVICE",
    "ACL_MEMCPY_DEFAULT",
    "ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE",
)
_KINDS = {  # kind: (dst is device, src is device)
    0: (False, False),
    1: (True, False),
    2: (False, True),
    3: (True, True),
    5: (True, False),
}
_KIND_OF = {sides: k for k, sides in _KINDS.items() if k != 5}
_KIND_EXPECT = (
    "ACL_MEMCPY_HOST_TO_DEVICE or ACL_MEMCPY_DEVICE_TO_DEVICE or ACL_MEMCPY_DEVICE_TO_HOST or "
    "ACL_MEMCPY_HOST_TO_HOST or ACL_MEMCPY_DEFAULT or ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE."
)
_FAULT_FIX = {
    "out-of-bounds": "keep count within the allocation",
    "use-after-free": "the memory was freed: use a live allocation",
    "unmapped": "pass an address inside a live allocation",
    "host-overflow": "pass a host buffer of at least count bytes, or a smaller count",
}


class _Side:
    """One side of a copy: simulated memory (``ptr``) or a host buffer object (``arr``)."""

    __slots__ = ("alloc", "arr", "kind", "ptr", "what")

    def __init__(self, kind: str, what: str, ptr: int | None, arr: np.ndarray | None, alloc: Allocation | None) -> None:
        self.kind = kind  # "device", "host" or "unknown" (an address the emulator does not know)
        self.what = what  # how messages name it
        self.ptr, self.arr, self.alloc = ptr, arr, alloc

    @property
    def is_device(self) -> bool:
        return self.kind == "device"


def _region(ptr: int) -> str:
    """Which simulated region an address lies in (live or not): "device", "host" or "unknown"."""
    if HOST_BASE <= ptr < HOST_BASE + REGION_SPAN:
        return "host"
    if DEVICE_BASE <= ptr < DEVICE_BASE + RT_MAX_DEV_NUM * REGION_SPAN:
        return "device"
    return "unknown"


def _host_bytes(api: str, obj: object, name: str, writable: bool) -> np.ndarray:
    """A host buffer object as a flat uint8 array aliasing it."""
    if isinstance(obj, np.ndarray):
        if not obj.flags.c_contiguous:
            raise ApiError(
                _PARAM,
                emu(
                    f"{api}: {name} is a non-contiguous {describe(obj)}; host memory must be one contiguous "
                    "block (pass np.ascontiguousarray(...))."
                ),
            )
        if writable and not obj.flags.writeable:
            raise ApiError(
                _PARAM, emu(f"{api}: {name} is a read-only {describe(obj)}; the destination must be writable.")
            )
        return obj.reshape(-1).view(np.uint8)
    try:
        mv = memoryview(obj)  # type: ignore[arg-type]
    except TypeError:
        raise _not_a_buffer(api, name, obj) from None
    if not mv.c_contiguous:
        raise ApiError(
            _PARAM, emu(f"{api}: {name} is a non-contiguous buffer; host memory must be one contiguous block.")
        )
    if writable and mv.readonly:
        raise ApiError(
            _PARAM,
            emu(
                f"{api}: {name} is a read-only {type(obj).__name__}; the destination must be writable "
                "(a bytearray or a numpy array)."
            ),
        )
    return np.frombuffer(mv.cast("B"), dtype=np.uint8) if mv.nbytes else np.empty(0, np.uint8)


def _not_a_buffer(api: str, name: str, obj: object) -> ApiError:
    return ApiError(
        _PARAM,
        emu(
            f"{api}: {name} is {describe(obj)}; pass a pointer (an int from aclrtMalloc or aclrtMallocHost) or a "
            "host buffer (a numpy array, bytearray, or bytes as a source)."
        ),
    )


def _host_what(obj: object) -> str:
    """How a message names a host buffer (the C ABI passes C's memory as a memoryview)."""
    if isinstance(obj, memoryview):
        return "host memory"
    if isinstance(obj, np.ndarray):
        return "host memory (a numpy array)"
    if isinstance(obj, array.array):
        return "host memory (an array.array)"
    if isinstance(obj, bytes):
        return "host memory (a bytes object)"
    return f"host memory (a {type(obj).__name__})"


def _side(api: str, obj: object, name: str, writable: bool) -> _Side:
    if isinstance(obj, _BUFFERS):
        return _Side("host", _host_what(obj), None, _host_bytes(api, obj, name, writable), None)
    ptr = as_pointer(obj)
    if ptr is None or ptr < 0:
        if hasattr(obj, "__buffer__") or hasattr(obj, "__array_interface__"):
            arr = _host_bytes(api, obj, name, writable)
            return _Side("host", _host_what(obj), None, arr, None)
        raise _not_a_buffer(api, name, obj)
    alloc = SPACE.find(ptr)
    kind = alloc.kind if alloc is not None else _region(ptr)
    what = {"device": "device memory", "host": "pinned host memory (aclrtMallocHost)"}.get(kind, "")
    return _Side(kind, what, ptr, None, alloc)


def _is_null(obj: object) -> bool:
    return not isinstance(obj, _BUFFERS) and as_pointer(obj) is None


def _memcpy_kind(kind: object) -> int:
    """``MemcpyKindTranslate``: 0..5 pass; anything else is 100000 (EH0007)."""
    k = _int(kind, "kind", -(2**31), 2**31 - 1)
    if not 0 <= k <= 5:
        desc = {6: "MEMCPY_INNER_DEVICE_TO_DEVICE(6)", 7: "MEMCPY_INTER_DEVICE_TO_DEVICE(7)"}.get(k, f"UNKNOWN({k})")
        raise ApiError(_PARAM, acl_value("Memory copy type conversion", desc, "kind", _KIND_EXPECT))
    return k


def _copy_args(api: str, dst: object, src: object, count: object, kind: object) -> tuple[int, int] | None:
    """The ACL layer of aclrtMemcpy(Async): count 0 succeeds at once, then null dst, null src, kind."""
    n = _int(count, "count", 0, UINT64_MAX)
    if n == 0:
        return None
    for obj, name in ((dst, "dst"), (src, "src")):
        if _is_null(obj):
            raise ApiError(_PARAM, acl_null(api, name))
    return n, _memcpy_kind(kind)


def _unknown_address(api: str, name: str, ptr: int, tail: str) -> ApiError:
    return ApiError(
        _RT_PARAM,
        emu(
            f"{api}: {name} 0x{ptr:x} is an address aclnn_py does not know: it is neither simulated device memory "
            f"(aclrtMalloc) nor pinned host memory (aclrtMallocHost). {tail}"
        ),
    )


_PASS_THE_BUFFER = (
    "Pass a host buffer as the array (or bytearray) itself, not its address (such as numpy's .ctypes.data)."
)


def _check_direction(api: str, k: int, d: _Side, s: _Side) -> int:
    """The emulator's check of the addresses (CANN leaves them to the driver): every address must
    be memory it knows, and the kind must match the two sides. Returns the kind the sides make."""
    for side, name in ((d, "dst"), (s, "src")):
        if side.kind == "unknown":
            assert side.ptr is not None
            raise _unknown_address(api, name, side.ptr, _PASS_THE_BUFFER)
    actual = _KIND_OF[(d.is_device, s.is_device)]
    if k != 4 and _KINDS[k] != (d.is_device, s.is_device):
        raise ApiError(
            _RT_PARAM,
            emu(
                f"{api}: kind {_KIND_NAMES[k]} does not match the addresses: dst is {d.what} and src is {s.what}. "
                f"Pass {_KIND_NAMES[actual]}, or ACL_MEMCPY_DEFAULT to let the addresses decide."
            ),
        )
    return actual


def _fault(api: str, fault: MemoryFault) -> ApiError:
    """A copy or fill that would reach outside live memory (the emulator's refusal)."""
    text = fault.message if fault.message.startswith(f"{api}:") else f"{api}: {fault.message}"
    fix = _FAULT_FIX.get(fault.kind, "keep the access inside live memory")
    return ApiError(_RT_PARAM, emu(f"{text}; {fix}."))


def _same_address(a: object, b: object, da: _Side, db: _Side) -> bool:
    if da.ptr is not None and db.ptr is not None:
        return da.ptr == db.ptr
    return a is b


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
    api = "aclrtMemcpy"
    args = _copy_args(api, dst, src, count, kind)
    if args is None:
        return E.ACL_SUCCESS
    n, k = args
    dmax = _int(destMax, "destMax", 0, UINT64_MAX)
    if dmax == 0:
        raise ApiError(
            _RT_PARAM, rt_value("Synchronous memory copy", 0, "destMax", "not equal to 0"), fb_invalid("rtMemcpy")
        )
    if n > dmax:
        raise ApiError(_RT_PARAM, rt_value("Synchronous memory copy", n, "cnt", f"(0, {dmax}]"), fb_invalid("rtMemcpy"))
    d, s = _side(api, dst, "dst", True), _side(api, src, "src", False)
    if _same_address(dst, src, d, s):
        return E.ACL_SUCCESS
    need_context("rtMemcpy")
    _check_direction(api, k, d, s)
    sanitizer.host_access_hazard(d, s, n, api)
    try:
        _do_copy(api, d, s, n)
    except MemoryFault as fault:
        raise _fault(api, fault) from None
    return E.ACL_SUCCESS


@c_api(_INTERNAL)
def aclrtMemcpyAsync(dst: object, destMax: int, src: object, count: int, kind: int, stream: object) -> int:
    """Queue a copy on the stream. Host buffers are captured when the copy runs (pinned-memory
    semantics); ranges are checked now and again when it runs. HOST_TO_HOST is not supported
    asynchronously on a host+card system: 207000, silently, as in CANN."""
    api = "aclrtMemcpyAsync"
    args = _copy_args(api, dst, src, count, kind)
    if args is None:
        return E.ACL_SUCCESS
    n, k = args
    st = _stream_handle(stream, "rtMemcpyAsync")
    dmax = _int(destMax, "destMax", 0, UINT64_MAX)
    if n > dmax:
        raise ApiError(
            _RT_PARAM, rt_value("Asynchronous memory copy", n, "cnt", f"(0, {dmax}]"), fb_invalid("rtMemcpyAsync")
        )
    d, s = _side(api, dst, "dst", True), _side(api, src, "src", False)
    ctx = need_context("rtMemcpyAsync", implicit_default=False)
    actual = _check_direction(api, k, d, s)
    if actual == 0:  # HOST_TO_HOST (also ACL_MEMCPY_DEFAULT between host buffers)
        return E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    if _same_address(dst, src, d, s):
        return E.ACL_SUCCESS
    target = st or ctx.default_stream
    pageable = k != 5 and actual in (1, 2) and (d.arr is not None or s.arr is not None)
    if not pageable:  # (CANN turns a pageable copy into a synchronize and a synchronous copy)
        _own_stream(target, ctx, "Asynchronous memory copy", "rtMemcpyAsync")
    if d.is_device and s.is_device and d.ptr is not None and s.ptr is not None:
        # acl_rt.h: an on-chip device-to-device async copy needs 64-byte aligned addresses
        sanitizer.check_alignment(d.ptr, 64, "aclrtMemcpyAsync device-to-device dst", _RT_PARAM)
        sanitizer.check_alignment(s.ptr, 64, "aclrtMemcpyAsync device-to-device src", _RT_PARAM)
    for side, name in ((d, "dst"), (s, "src")):
        if side.ptr is not None:
            try:
                SPACE.check(side.ptr, n, "copy", api)
            except MemoryFault as fault:
                raise _fault(api, fault) from None
        elif side.arr is not None and side.arr.size < n:
            raise ApiError(
                _RT_PARAM,
                emu(
                    f"{api}: {name} is a host buffer of {side.arr.size} bytes, too small for count {n}; pass a "
                    "larger buffer or a smaller count."
                ),
            )

    def run() -> None:
        try:
            _do_copy(api, d, s, n)
        except MemoryFault as fault:
            raise TaskFault(E.ACL_ERROR_RT_SYS_DMA, f"aclrtMemcpyAsync task failed: {fault.message}") from None

    task = Task(target, f"aclrtMemcpyAsync({n} bytes)", run)
    sanitizer.track(
        task,
        [(s.ptr, s.ptr + n)] if s.ptr is not None else [],
        [(d.ptr, d.ptr + n)] if d.ptr is not None else [],
    )
    RT.policy.submit(target, task)
    return E.ACL_SUCCESS


def _memset_args(
    api: str, devPtr: object, maxCount: object, value: object, count: object
) -> tuple[int, int, int, int] | None:
    n = _int(count, "count", 0, UINT64_MAX)
    if n == 0:
        return None
    ptr = as_pointer(devPtr)
    if ptr is None:
        raise ApiError(_PARAM, acl_null(api, "devPtr"))
    if ptr < 0:
        raise ApiError(
            _PARAM, emu(f"{api}: devPtr is {describe(devPtr)}; pass a device pointer (an int from aclrtMalloc).")
        )
    mx = _int(maxCount, "maxCount", 0, UINT64_MAX)
    v = _int(value, "value", -(2**31), 2**31 - 1)
    return ptr, mx, v, n


def _memset_target(api: str, ptr: int, n: int) -> None:
    """The emulator's checks of the fill's range (CANN leaves them to the driver)."""
    if SPACE.find(ptr) is None and _region(ptr) == "unknown":
        raise _unknown_address(api, "devPtr", ptr, "Pass a pointer from aclrtMalloc.")
    try:
        SPACE.check(ptr, n, "write", api)
    except MemoryFault as fault:
        raise _fault(api, fault) from None


@c_api(_INTERNAL)
def aclrtMemset(devPtr: object, maxCount: int, value: int, count: int) -> int:
    """Synchronous byte fill (only the low 8 bits of value count)."""
    api = "aclrtMemset"
    args = _memset_args(api, devPtr, maxCount, value, count)
    if args is None:
        return E.ACL_SUCCESS
    ptr, mx, v, n = args
    need_context("rtMemset")
    if n > mx:  # CANN has no such check before the driver
        raise ApiError(_RT_PARAM, emu(f"{api}: count {n} is larger than maxCount {mx}; pass count <= maxCount."))
    _memset_target(api, ptr, n)
    SPACE.fill(ptr, n, v, api)
    sanitizer.after_write(ptr, n, api)
    return E.ACL_SUCCESS


@c_api(_INTERNAL)
def aclrtMemsetAsync(devPtr: object, maxCount: int, value: int, count: int, stream: object) -> int:
    """Queue a byte fill on the stream; count > maxCount gives 107000."""
    api = "aclrtMemsetAsync"
    args = _memset_args(api, devPtr, maxCount, value, count)
    if args is None:
        return E.ACL_SUCCESS
    ptr, mx, v, n = args
    st = _stream_handle(stream, "rtMemsetAsync")
    if n > mx:
        raise ApiError(
            _RT_PARAM,
            rt_value("Asynchronously setting the memory content to a specified value", n, "cnt", f"(0, {mx}]"),
            fb_invalid("rtMemsetAsync"),
        )
    ctx = need_context("rtMemsetAsync")
    target = st or ctx.default_stream
    _own_stream(target, ctx, "Asynchronously setting the memory content to a specified value", "rtMemsetAsync")
    _memset_target(api, ptr, n)

    def run() -> None:
        try:
            SPACE.fill(ptr, n, v, api)
        except MemoryFault as fault:
            raise TaskFault(E.ACL_ERROR_RT_SYS_DMA, f"aclrtMemsetAsync task failed: {fault.message}") from None
        sanitizer.after_write(ptr, n, api)

    task = Task(target, f"aclrtMemsetAsync({n} bytes)", run)
    sanitizer.track(task, [], [(ptr, ptr + n)])
    RT.policy.submit(target, task)
    return E.ACL_SUCCESS


# ---------------------------------------------------------------------------------------------
# events
# ---------------------------------------------------------------------------------------------

RT_EVENT_DEFAULT = 0x0E  # RT_EVENT_DDSYNC | RT_EVENT_TIME_LINE | RT_EVENT_STREAM_MARK: aclrtCreateEvent's flag
_RT_EVENT_FLAG_MAX = 0x3F
_RT_EVENT_MC2, _RT_EVENT_EXTERNAL = 0x10, 0x20  # ACL_EVENT_DEVICE_USE_ONLY, ACL_EVENT_EXTERNAL
_EVENT_FLAG_EXPECT = (
    "an OR combination of RT_EVENT_DDSYNC_NS(0x1U), RT_EVENT_STREAM_MARK(0x2U), RT_EVENT_DDSYNC(0x4U), and "
    "RT_EVENT_TIME_LINE(0x8U); or RT_EVENT_MC2(0x10U) or RT_EVENT_EXTERNAL(0x20U) used alone"
)


def _create_event(out: object, flags: int) -> int:
    """``rtEventCreateWithFlag``: the flag checks come before the context."""
    rt_fn = "rtEventCreateWithFlag"
    if flags & _RT_EVENT_FLAG_MAX == 0 or flags > _RT_EVENT_FLAG_MAX:
        raise ApiError(_RT_PARAM, rt_value("Event creation", flags, "flag", _EVENT_FLAG_EXPECT), fb_invalid(rt_fn))
    for alone in (_RT_EVENT_MC2, _RT_EVENT_EXTERNAL):
        if flags & alone and flags & ~alone:
            raise ApiError(
                _RT_PARAM,
                (
                    "EE1006",
                    f"Event creation failed. Parameter flag value {flags} is not supported. Reason: "
                    "RT_EVENT_MC2(0x10U) and RT_EVENT_EXTERNAL(0x20U) do not support OR combination with other flags.",
                ),
                fb_invalid(rt_fn),
            )
    ctx = need_context(rt_fn)
    ev = Event(ctx, flags, call_site())
    RT.events.add(ev)
    store(out, ev)
    return E.ACL_SUCCESS


@c_api(_INTERNAL)
def aclrtCreateEventWithFlag(event: object, flag: int) -> int:
    """Create an event in the current context with the runtime flags given (ACL's values are the
    runtime's: ACL_EVENT_SYNC 0x1 ... ACL_EVENT_EXTERNAL 0x20)."""
    out = _out(event, "aclrtCreateEventWithFlag", "event", numeric=False)
    flags = _int(flag, "flag", 0, 2**32 - 1)
    return _create_event(out, flags)


@c_api(_INTERNAL)
def aclrtCreateEvent(event: object) -> int:
    """Create an event in the current context (flag RT_EVENT_DEFAULT, 0x0E)."""
    return _create_event(_out(event, "aclrtCreateEvent", "event", numeric=False), RT_EVENT_DEFAULT)


def _event_arg(event: object, func: str, rt_fn: str, name: str = "event") -> Event:
    if _is_null_handle(event):
        raise ApiError(_PARAM, acl_null(func, name))
    return _event_handle(event, rt_fn)


@c_api(_INTERNAL)
def aclrtDestroyEvent(event: object) -> int:
    """Destroy an event (no current context is needed)."""
    ev = _event_arg(event, "aclrtDestroyEvent", "rtEventDestroy")
    ev.destroyed = True
    RT.events.discard(ev)
    return E.ACL_SUCCESS


def _device_only(ev: Event, desc: str, rt_fn: str) -> None:
    """An ACL_EVENT_DEVICE_USE_ONLY (RT_EVENT_MC2) event cannot be used from the host (107000)."""
    if ev.flags & _RT_EVENT_MC2:
        raise ApiError(
            _RT_PARAM,
            (
                "EE1006",
                f"{desc} failed. Parameter evt.eventFlag_ value {ev.flags} is not supported. Reason: Device-only "
                "events can be called only on the device.",
            ),
            fb_invalid(rt_fn),
        )


@c_api(_INTERNAL)
def aclrtRecordEvent(event: object, stream: object) -> int:
    """Record the event at the current end of the stream's queue (a stream of the current context)."""
    rt_fn = "rtEventRecord"
    ev = _event_arg(event, "aclrtRecordEvent", rt_fn)
    st = _stream_handle(stream, rt_fn)
    _device_only(ev, "Event recording", rt_fn)
    ctx = need_context(rt_fn)
    target = st or ctx.default_stream
    _own_stream(target, ctx, "Event recording", rt_fn)

    def run() -> None:
        ev.timestamp_ns = now_ns()

    ev.timestamp_ns = None
    ev.stream = target
    ev.task = Task(target, "record event", run)
    RT.policy.submit(target, ev.task)
    return E.ACL_SUCCESS


def _sync_event(ev: Event) -> int:
    if ev.flags == _RT_EVENT_EXTERNAL:
        return E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT  # "The external event does not support synchronization."
    if ev.task is not None and ev.stream is not None:
        drain(ev.stream, ev.task)
    return E.ACL_SUCCESS


@c_api(_INTERNAL)
def aclrtSynchronizeEvent(event: object) -> int:
    """Block until the stream has reached the event (an unrecorded event returns at once). No
    current context is needed."""
    return _sync_event(_event_arg(event, "aclrtSynchronizeEvent", "rtEventSynchronize"))


@c_api(_INTERNAL)
def aclrtSynchronizeEventWithTimeout(event: object, timeout: int) -> int:
    """As aclrtSynchronizeEvent; timeout < -1 or 0 gives 107000 (the emulator never times out)."""
    rt_fn = "rtEventSynchronizeWithTimeout"
    t = _int(timeout, "timeout", -(2**31), 2**31 - 1)
    if t < -1:
        raise ApiError(_RT_PARAM, acl_value("aclrtSynchronizeEventWithTimeout", t, "timeout", "[-1, INT_MAX]"))
    ev = _event_arg(event, "aclrtSynchronizeEventWithTimeout", rt_fn)
    if t == 0:
        raise ApiError(_RT_PARAM, rt_value("Event synchronization", t, "timeout", _TIMEOUT_EXPECT), fb_invalid(rt_fn))
    return _sync_event(ev)


@c_api(_INTERNAL)
def aclrtQueryEventStatus(event: object, status: object) -> int:
    """COMPLETE once the stream has passed the event; a pending event reports NOT_READY and the
    device makes progress, so polling terminates."""
    if _is_null_handle(event):
        raise ApiError(_PARAM, acl_null("aclrtQueryEventStatus", "event"))
    out = _out(status, "aclrtQueryEventStatus", "status")
    ev = _event_handle(event, "rtEventQueryStatus")
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
    rt_fn = "rtEventElapsedTime"
    out = _out(ms, "aclrtEventElapsedTime", "ms")
    for ev, name in ((startEvent, "startEvent"), (endEvent, "endEvent")):
        if _is_null_handle(ev):
            raise ApiError(_PARAM, acl_null("aclrtEventElapsedTime", name))
    start = _event_handle(startEvent, rt_fn)
    end = _event_handle(endEvent, rt_fn)
    if not (start.recorded and end.recorded):
        raise ApiError(E.ACL_ERROR_RT_INTERNAL_ERROR, fb_inner(rt_fn, "event recorder null"))
    if not (start.complete and end.complete) or start.timestamp_ns is None or end.timestamp_ns is None:
        raise ApiError(E.ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID, fb_inner(rt_fn, "event timestamp invalid"))
    store(out, float(np.float32((end.timestamp_ns - start.timestamp_ns) / 1e6)))
    return E.ACL_SUCCESS


@c_api(_INTERNAL)
def aclrtStreamWaitEvent(stream: object, event: object) -> int:
    """Make later work on the stream (one of the current context) wait until the event completes."""
    rt_fn = "rtStreamWaitEvent"
    if _is_null_handle(event):
        raise ApiError(_PARAM, acl_null("aclrtStreamWaitEvent", "event"))
    st = _stream_handle(stream, rt_fn)
    ev = _event_handle(event, rt_fn)
    _device_only(ev, "Triggering event waiting", rt_fn)
    ctx = need_context(rt_fn)
    target = st or ctx.default_stream
    _own_stream(target, ctx, "Triggering stream event waiting", rt_fn)
    if ev.task is None or ev.stream is None:
        return E.ACL_SUCCESS
    waited_task, waited_stream = ev.task, ev.stream

    def run() -> None:
        if waited_stream is target:
            return
        try:
            RT.policy.drain(waited_stream, waited_task)
        except CycleError as e:
            raise TaskFault(E.ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, f"stream wait would never finish: {e}") from None

    submit(target, "wait event", run)
    return E.ACL_SUCCESS
