"""The application log, ``aclAppLog`` (acl/acl_base_rt.h; ``ACL_APP_LOG`` in C).

As CANN (hicann/runtime ``src/acl/aclrt_impl/log.cpp``, ``src/acl/common/log_inner.cpp``): nothing
without ``fmt``, ``func`` or ``file``; then ``AclLog::IsLogOutputEnable``: the level must be at or
above the ASCENDCL module's level (a module level of 4, none, counts as info there), so a level
above error passes and a negative one does not; then the text is formatted (at most 1024 bytes with
its NUL; a format that cannot be used is the error record ``aclAppLog format string is invalid``),
prefixed ``<tid> <func>:<file>:<line>: "<text>"`` (a text or message of 1023 bytes or more ends with
``...[truncated]``) and handed to slog under the APP module at the call's level; only the four
levels debug .. error are recorded, and slog writes a record only at or above the APP module's level
(``src/dfx/log/liblog/slog/dlog_core.c``). aclnn_py writes it where slog puts an application's log by
default, following CANN's log variables as slog reads them (``dlog_level_env.c``):

* ``ASCEND_GLOBAL_LOG_LEVEL``: 0 debug, 1 info, 2 warning, 3 error (the default), 4 none; a value
  strtol does not read whole, or outside 0..4, is the default;
* ``ASCEND_MODULE_LOG_LEVEL``: ``<MODULE>=<level>`` items joined by ``:`` (``ASCENDCL=1:APP=0``)
  override the global level per module; one bad item (an unknown module, a level outside 0..4, no
  ``=`` or no value) makes slog ignore the whole variable;
* ``ASCEND_SLOG_PRINT_TO_STDOUT=1``: the records go to standard output;
* otherwise to ``$ASCEND_PROCESS_LOG_PATH/debug/plog/plog-<pid>_<time>.log`` (default
  ``~/ascend/log``), one file per process.

A record line is ``[<LEVEL>] APP(<pid>,<process>):<YYYY-MM-DD-hh:mm:ss.mmm.uuu> <message>``. The
function never fails (C's ``void``): a log that cannot be written is dropped, as slog drops it.
"""

from __future__ import annotations

import contextlib
import os
import re
import sys
import threading
import time
from pathlib import Path

from .._capi import ApiError, c_api, describe
from ._checks import INTERNAL, PARAM, E, emu, int_arg

ACL_DEBUG, ACL_INFO, ACL_WARNING, ACL_ERROR = 0, 1, 2, 3
_LEVEL_NAMES = {ACL_DEBUG: "DEBUG", ACL_INFO: "INFO", ACL_WARNING: "WARNING", ACL_ERROR: "ERROR"}
MAX_LOG_STRING = 1024  # acl::MAX_LOG_STRING: the text and the message, each with its NUL
TRUNCATED_MARK = "...[truncated]"
_DEFAULT_LEVEL = ACL_ERROR  # slog's default global level (DLOG_GLOABLE_DEFAULT_LEVEL)
_NULL_LEVEL = 4  # LOG_MAX_LEVEL: nothing is written
_OPTION_MAX = 32 + 32 + 2  # MAX_MODULE_LOG_LEVEL_OPTION_LEN: an item, with its NUL
_ENV_MAX = _OPTION_MAX * 64  # MAX_ASCEND_MODULE_LOG_ENV_LEN
# slog's module names (src/dfx/log/utils/log_level.h DEFINE_MODULE_LEVEL; the numbered entries are
# discarded ids, whose names are their numbers)
_MODULES = frozenset((
    "SLOG", "IDEDD", "SCC", "HCCL", "FMK", "CCU", "DVPP", "RUNTIME", "CCE", "HDC", "DRV", "NET", "HIXL", "DQS",
    "14", "15", "16", "17", "18", "19", "20", "21", "DEVMM", "KERNEL", "LIBMEDIA", "CCECPU", "26", "ROS", "HCCP",
    "ROCE", "TEFUSION", "PROFILING", "DP", "APP", "TS", "TSDUMP", "AICPU", "LP", "TDT", "FE", "MD", "MB", "ME",
    "IMU", "IMP", "GE", "46", "CAMERA", "ASCENDCL", "TEEOS", "ISP", "SIS", "HSM", "DSS", "PROCMGR", "BBOX",
    "AIVECTOR", "TBE", "FV", "PYPTO", "TUNE", "HSS", "FFTS", "OP", "UDF", "HICAID", "TSYNC", "AUDIO", "TPRT",
    "ASCENDCKERNEL", "ASYS", "ATRACE", "RTC", "SYSMONITOR", "AML", "ADETECT",
))  # fmt: skip

_lock = threading.Lock()
_plog: Path | None = None  # this process's plog file, made on its first record


def _level_value(text: str) -> int | None:
    """``LogStrToInt`` (strtol, base 10, the whole string) within 0..4, else None."""
    if not re.fullmatch(r"[ \t\n\v\f\r]*[+-]?[0-9]+", text):
        return None
    value = int(text.strip(" \t\n\v\f\r"))
    return value if 0 <= value <= _NULL_LEVEL else None


def _module_levels() -> dict[str, int]:
    """``DlogInitModuleLogLevelByEnv``: every item of ``ASCEND_MODULE_LOG_LEVEL``, or none."""
    env = os.environ.get("ASCEND_MODULE_LOG_LEVEL")
    if not env or len(env.encode("utf-8", errors="surrogateescape")) > _ENV_MAX:
        return {}
    items = [part for part in env.split(":") if part]  # strtok: empty items are skipped
    if len(items) > len(_MODULES):  # at most INVALID_MODULE_ID (76) items
        return {}
    levels: dict[str, int] = {}
    for item in items:
        if len(item.encode("utf-8", errors="surrogateescape")) > _OPTION_MAX - 1 or item.count("=") != 1:
            return {}
        name, _, text = item.partition("=")
        value = _level_value(text) if name and text and name in _MODULES else None
        if value is None:
            return {}
        levels[name] = value
    return levels


def module_level(module: str) -> int:
    """A module's slog level: its ``ASCEND_MODULE_LOG_LEVEL`` entry, else ``ASCEND_GLOBAL_LOG_LEVEL``,
    else error (3); a level of 4 or above lets nothing through."""
    level = _module_levels().get(module)
    if level is not None:
        return level
    value = _level_value(os.environ.get("ASCEND_GLOBAL_LOG_LEVEL", ""))
    return _DEFAULT_LEVEL if value is None else value


def enabled_level() -> int:
    """The lowest level slog writes for the APP module (4 and above: nothing)."""
    return module_level("APP")


def acl_enabled(logLevel: int) -> bool:
    """``AclLog::IsLogOutputEnable``: the ASCENDCL module's level (a level outside debug .. error
    counts as info) at or below ``logLevel``."""
    level = module_level("ASCENDCL")
    return (level if level in _LEVEL_NAMES else ACL_INFO) <= logLevel


def _cut(text: str) -> tuple[str, bool]:
    """``text`` within MAX_LOG_STRING - 1 bytes of UTF-8, and whether it earns the mark (CANN's
    ``*snprintf_truncated_s`` returns 1023 for a text cut there and for one that just fits)."""
    raw = text.encode("utf-8", errors="surrogateescape")
    if len(raw) < MAX_LOG_STRING - 1:
        return text, False
    return raw[: MAX_LOG_STRING - 1].decode("utf-8", errors="ignore"), True


def plog_path() -> Path:
    """Where this process's records go when they are not printed (made on the first record)."""
    global _plog
    if _plog is None:
        base = Path(os.environ.get("ASCEND_PROCESS_LOG_PATH") or Path.home() / "ascend" / "log")
        stamp = time.strftime("%Y%m%d%H%M%S", time.localtime())
        _plog = base / "debug" / "plog" / f"plog-{os.getpid()}_{stamp}.log"
    return _plog


def _write(level: int, message: str) -> None:
    """``ACLSaveLog`` then slog: only debug .. error, at or above the APP module's level."""
    if level not in _LEVEL_NAMES or level < enabled_level():
        return
    now = time.time()
    micro = int((now % 1) * 1_000_000)
    clock = time.strftime("%Y-%m-%d-%H:%M:%S", time.localtime(now))
    process = Path(sys.argv[0]).name if sys.argv and sys.argv[0] else "python"
    when = f"{clock}.{micro // 1000:03d}.{micro % 1000:03d}"
    line = f"[{_LEVEL_NAMES[level]}] APP({os.getpid()},{process}):{when} {message}\n"
    # slog drops a record it cannot write (the call still returns its code)
    with _lock, contextlib.suppress(OSError):
        if os.environ.get("ASCEND_SLOG_PRINT_TO_STDOUT", "").strip() == "1":
            sys.stdout.write(line)
            sys.stdout.flush()
            return
        path = plog_path()
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("a", encoding="utf-8", errors="surrogateescape") as out:
            out.write(line)


def record(logLevel: int, func: str | None, file: str | None, line: int, text: str | None, cut: bool = False) -> int:
    """The record of an already formatted text (the C library's aclAppLog formats with vsnprintf
    and passes the text here; ``cut``: its vsnprintf cut the text at 1023 bytes)."""
    if text is None or func is None or file is None:
        return E.ACL_SUCCESS  # CANN returns without a record
    if not acl_enabled(logLevel):
        return E.ACL_SUCCESS
    body, body_cut = _cut(text)
    message, head_cut = _cut(f'{threading.get_native_id()} {func}:{file}:{line & 0xFFFFFFFF}: "{body}"')
    if cut or body_cut or head_cut:  # the mark overwrites the end, within the 1024 bytes
        raw = message.encode("utf-8", errors="surrogateescape")
        keep = MAX_LOG_STRING - 1 - len(TRUNCATED_MARK)
        message = raw[:keep].decode("utf-8", errors="ignore") + TRUNCATED_MARK
    _write(logLevel, message)
    return E.ACL_SUCCESS


def _text(value: object, name: str) -> str | None:
    """A ``const char*`` argument: None, a str, or bytes (UTF-8); anything else is refused."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, (bytes, bytearray)):
        return bytes(value).decode("utf-8", errors="surrogateescape")
    raise ApiError(PARAM, emu(f"aclAppLog: {name} is {describe(value)}, not a C string."))


@c_api(INTERNAL)
def aclAppLog(logLevel: int, func: object, file: object, line: int, fmt: object, *args: object) -> int:
    """Write an application log record (C's ``void``: returns 0). ``fmt`` is formatted with
    ``args`` as printf would (Python's ``%`` operator); a format the arguments do not fit is
    CANN's invalid format: an error record "aclAppLog format string is invalid" instead."""
    level = int_arg(logLevel, "logLevel", -(2**31), 2**31 - 1)
    number = int_arg(line, "line", 0, 2**32 - 1)
    func, file, fmt = _text(func, "func"), _text(file, "file"), _text(fmt, "fmt")
    if fmt is None or func is None or file is None:
        return E.ACL_SUCCESS
    if not acl_enabled(level):  # before the format is read
        return E.ACL_SUCCESS
    try:
        text = fmt % args if args else fmt
    except (TypeError, ValueError):
        return invalid_format(level)
    return record(level, func, file, number, text)


def invalid_format(logLevel: int) -> int:
    """CANN's error record for a format its vsnprintf refuses, in a call of level ``logLevel``
    (AclLog::IsLogOutputEnable decides first whether the format is read at all)."""
    if acl_enabled(logLevel):
        _write(ACL_ERROR, "aclAppLog format string is invalid")
    return E.ACL_SUCCESS


def reset() -> None:
    """Forget this process's plog file (the next record starts a new one)."""
    global _plog
    with _lock:
        _plog = None


__all__ = ["aclAppLog"]
