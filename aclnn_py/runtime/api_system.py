"""Initialisation, errors and system information: aclInit / aclFinalize, aclGetRecentErrMsg, the
thread's last error, the SoC and version queries, CANN attributes and the float16 helpers.
"""

from __future__ import annotations

import os
import re
from types import ModuleType
from typing import Any

from .. import _errmsg
from .. import soc as _soc
from .._capi import ApiError, c_api, describe
from .._ref import store
from . import _rt_features, sanitizer
from ._checks import (
    INTERNAL,
    NO_CONTEXT,
    E,
    acl_inner,
    acl_reason,
    acl_value,
    emu,
    fb_inner,
    fb_no_context,
    int_arg,
    loaded_chapter,
    out_arg,
    rt_api,
    rt_value,
    set_last_error,
    silent,
)
from .api_device import _release_device, check_device_id
from .device import RT
from .enums import aclrtAicoreErrorType, aclrtErrorType, aclrtLastErrLevel, aclrtRunMode

# ---------------------------------------------------------------------------------------------
# init / finalize
# ---------------------------------------------------------------------------------------------

_CONFIG_FAILED = "Get Content from configPath failed, ret=100003"


def _json_dump(value: object) -> str:
    """nlohmann's ``dump()`` of a parsed value: compact, non-ASCII kept."""
    import json  # json and hashlib load with the first aclInit, not with the package

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
    import json

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
    # static_cast<int32_t>(strtol(...)) (json_parser.cpp): strtol stops at LONG_MAX, the cast keeps 32 bits
    dev = (min(int(value), 2**63 - 1) + 2**31) % 2**32 - 2**31
    try:  # rtSetDefaultDeviceId: ApiErrorDecorator::SetDefaultDeviceId's CheckDeviceIdIsValid
        check_device_id(dev, "rtSetDefaultDeviceId", "SetDefaultDeviceId", 6669)
    except ApiError as e:
        raise ApiError(e.code, *e.messages, failed) from None
    return dev


_FAILURE, _INVALID = int(E.ACL_ERROR_FAILURE), int(E.ACL_ERROR_INVALID_PARAM)  # as %d prints them


def _print_fifo_sizes(config: dict[str, Any]) -> None:
    """``HandlePrintFifoSizeConfig``: each top-level ``simd_printf_fifo_size_per_core`` /
    ``simt_printf_fifo_size`` must be a positive integer as the JSON writes it (the regex runs on
    nlohmann's dump, so a quoted number is refused too); the sizes themselves are the device's
    printf buffers, which the emulator's kernels do not have."""
    for key in ("simd_printf_fifo_size_per_core", "simt_printf_fifo_size"):
        if key in config and not re.fullmatch(r"[1-9]\d*", dumped := _json_dump(config[key])):
            raise ApiError(
                E.ACL_ERROR_FAILURE,
                acl_reason(
                    "Getting print fifo size", dumped, "fifoSize", "value must be a positive integer in acl.json"
                ),
                acl_inner(f"[Process][PrintFifoSize]process HandlePrintFifoSizeConfig failed, ret={_FAILURE}"),
            )


def _event_mode(config: dict[str, Any]) -> None:
    """``HandleEventModeConfig``: ``acl_graph.event_mode`` must be the string "0" or "1" (the mode
    itself is the device's event scheduling, not modelled)."""
    section = config.get("acl_graph")
    if not isinstance(section, dict) or "event_mode" not in section:
        return
    value = section["event_mode"]
    if isinstance(value, str) and not re.fullmatch(r"0|1", value):
        raise ApiError(
            E.ACL_ERROR_INVALID_PARAM,
            acl_reason("Getting event mode", value, "event_mode", "value must be 0 or 1"),
            acl_inner(f"[Process][EventMode]process HandleEventModeConfig failed, ret={_INVALID}"),
        )


def _loaded(chapter: str) -> ModuleType | None:
    """A chapter that loads on first use (runtime.api.LAZY_CHAPTERS), if something has loaded it: one
    never loaded has nothing registered, configured or to release, and aclInit/aclFinalize skip it.
    One another thread is still importing counts as not loaded (its functions may not exist yet)."""
    return loaded_chapter(f"{__package__}.{chapter}")


@rt_api
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
        import hashlib

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
        try:
            profile = RT.configure_from_environment()
        except ValueError as e:
            raise ApiError(INTERNAL, emu(f"aclInit: {e}.")) from None
        # aclInitImpl's order (acl.cpp): the ACL_MODEL init callbacks; with a file, its dump section,
        # the ACL_OP_EXECUTOR callbacks and the default device; then the ACL_DVPP and OTHER callbacks.
        # A failing callback fails aclInit (reported for its type, OTHER only logged).
        callbacks = _loaded("api_init_callback")  # nothing is registered before that chapter loads
        text = content.decode("utf-8", errors="replace")
        try:
            if callbacks is not None:
                callbacks.notify_init(text, bool(path), (callbacks.ACL_REG_TYPE_ACL_MODEL,))
            default_device = None
            if path:  # AclDump::HandleDumpConfig: the file's "dump" section
                from . import api_dump  # a lazy chapter (runtime.api.LAZY_CHAPTERS): loaded for a config file

                api_dump.configure_from_init(path, content)
                if callbacks is not None:
                    callbacks.notify_init(text, True, (callbacks.ACL_REG_TYPE_ACL_OP_EXECUTOR,))
                default_device = _default_device(path, config)
                _print_fifo_sizes(config)
                _event_mode(config)
            if callbacks is not None:
                kinds = (callbacks.ACL_REG_TYPE_ACL_DVPP, callbacks.ACL_REG_TYPE_OTHER)
                callbacks.notify_init(text, bool(path), kinds)
        except ApiError as e:
            if e.messages:
                raise
            return e.code  # ACL_REG_TYPE_OTHER: ACL_LOG_ERROR, a log line only
        if RT.first_config is None:  # the first successful aclInit's file is the one later ones match
            RT.first_config, RT.first_config_path = digest, path
        RT.default_device = default_device
        RT.config_text = text  # SetConfigPathStr: what a callback registered later is handed
        _errmsg.set_process_mode(process_mode)
        _soc.set_active(profile)
        RT.initialized = True
        RT.finalized = False
        RT.init_refcount = 1
        return E.ACL_SUCCESS


@rt_api
def aclFinalize() -> int:
    """Tear the runtime down; a repeated call returns ACL_ERROR_REPEAT_FINALIZE (100037)."""
    with RT.lock:
        if RT.finalized:
            raise ApiError(E.ACL_ERROR_REPEAT_FINALIZE, acl_inner("[Finalize][Acl]repeatedly finalized"))
        # the registered finalize callbacks run first; a failing one leaves the runtime initialised
        # (aclFinalizeInternal's report for its type, then aclFinalize's own)
        callbacks = _loaded("api_init_callback")
        try:
            if callbacks is not None:
                callbacks.notify_finalize()
        except ApiError as e:
            failed = acl_inner(f"[Finalize][Acl]finalize internal failed, errorCode = {e.code}")
            raise ApiError(e.code, *e.messages, failed) from None
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
        RT.handles.clear()
        RT.executors.clear()
        RT.tls.context = None
        dump = _loaded("api_dump")
        if dump is not None:  # the dump server stops with the runtime (a dump never loaded never started)
            dump.finalize()
        RT.initialized = False
        RT.finalized = True
        RT.init_refcount = 0
        RT.default_device = None
        _soc.set_active(None)
        if leak is not None:
            raise leak
        return E.ACL_SUCCESS


@rt_api
def aclFinalizeReference(refCount: object = None) -> int:
    """Drop one aclInit reference; finalize when it reaches 0. ``*refCount`` (None allowed) is
    written first, so a failing call leaves 0 there."""
    with RT.lock:
        out = None
        if refCount is not None:
            out = out_arg(refCount, "aclFinalizeReference", "refCount")
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


@c_api(INTERNAL, handle=True)
def aclGetRecentErrMsg() -> str | None:
    """The calling thread's pending error messages; clears them. None if there are none.

    As in CANN, it first asks the device for its messages (``rtGetDevMsg``), which needs a
    current context: a thread without one gets that call's own EE1018 and EE1001 in the text it
    reads (with an aclInit ``defaultDevice``, that device is made current instead, silently)."""
    if RT.current_context() is None:
        _errmsg.report("EE1018", NO_CONTEXT)
        _errmsg.report(*fb_no_context("rtGetDevMsg"))
        set_last_error(E.ACL_ERROR_RT_CONTEXT_NULL)  # rtGetDevMsg's ERROR_RETURN_WITH_EXT_ERRCODE
    return _errmsg.fetch()


@c_api(INTERNAL, handle=True)
def aclrtGetSocName() -> str | None:
    """The emulated SoC's name (``ACLNN_PY_SOC``), or None if it cannot be resolved."""
    try:
        return _soc.current().name
    except _soc.UnknownSocError:
        return None


@rt_api
def aclrtGetRunMode(runMode: object) -> int:
    """Always ACL_HOST: the program runs on the host side of an emulated accelerator card."""
    store(out_arg(runMode, "aclrtGetRunMode", "runMode"), aclrtRunMode.ACL_HOST)
    return E.ACL_SUCCESS


# ---------------------------------------------------------------------------------------------
# the thread's last error; error details
# ---------------------------------------------------------------------------------------------


def _level(level: object, func: str) -> None:
    lv = int_arg(level, "level", -(2**31), 2**31 - 1)
    if lv != aclrtLastErrLevel.ACL_RT_THREAD_LEVEL:
        raise ApiError(E.ACL_ERROR_INVALID_PARAM, acl_value(func, lv, "level", "ACL_RT_THREAD_LEVEL"))


@rt_api
def aclrtPeekAtLastError(level: int) -> int:
    """The calling thread's most recent runtime error (0 if none), left in place. Only failures
    of the runtime layer count: an ACL-layer refusal (a NULL out-parameter, say) never does."""
    _level(level, "aclrtPeekAtLastError")
    return int(RT.tls.last_error)


@rt_api
def aclrtGetLastError(level: int) -> int:
    """As aclrtPeekAtLastError, and the thread's last error is cleared to 0."""
    _level(level, "aclrtGetLastError")
    code, RT.tls.last_error = RT.tls.last_error, 0
    return int(code)


class aclrtErrorInfo:
    """``aclrtErrorInfo``: what aclrtGetErrorVerbose reports about a device fault."""

    __slots__ = ("aicoreErrType", "errorType", "hasDetail", "tryRepair", "uceInfo")

    def __init__(self) -> None:
        self.tryRepair = 0
        self.hasDetail = 0
        self.errorType = aclrtErrorType.ACL_RT_NO_ERROR
        self.aicoreErrType = aclrtAicoreErrorType.ACL_RT_AICORE_ERROR_UNKNOWN
        self.uceInfo: list[tuple[int, int]] = []  # (addr, len) of uncorrectable memory errors

    def __repr__(self) -> str:
        return f"<aclrtErrorInfo {self.errorType!s} tryRepair={self.tryRepair} hasDetail={self.hasDetail}>"


@rt_api
def aclrtGetErrorVerbose(deviceId: int, errorInfo: object) -> int:
    """Details of the device's latest fault. The emulated devices have no memory, link or L2
    faults (a failing task is a software fault): ACL_RT_NO_ERROR. Ascend910 and Ascend310P lack
    the feature (207000, a WARN only)."""
    out = out_arg(errorInfo, "aclrtGetErrorVerbose", "errorInfo", numeric=False)
    dev_id = int_arg(deviceId, "deviceId", -(2**31), 2**31 - 1)
    if not _rt_features.has("RT_FEATURE_DFX_ERR_GET_AND_REPAIR"):
        raise silent(E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
    count = RT.device_count
    if not 0 <= dev_id < count:
        raise ApiError(
            E.ACL_ERROR_RT_INVALID_DEVICEID,
            rt_value("Obtaining detailed error information", dev_id % 2**32, "realDeviceId", f"[0,{count})"),
            fb_inner("rtsGetErrorVerbose", "device id error"),
        )
    store(out, aclrtErrorInfo())
    return E.ACL_SUCCESS


__all__ = [
    "aclFinalize",
    "aclFinalizeReference",
    "aclGetRecentErrMsg",
    "aclInit",
    "aclrtErrorInfo",
    "aclrtGetErrorVerbose",
    "aclrtGetLastError",
    "aclrtGetRunMode",
    "aclrtGetSocName",
    "aclrtPeekAtLastError",
]
