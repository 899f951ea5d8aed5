"""The application log, ``aclAppLog`` (acl/acl_base_rt.h; ``ACL_APP_LOG`` in C).

CANN formats the message (at most 1024 bytes with its NUL; longer text is cut and ends with
``...[truncated]``), prefixes ``<tid> <func>:<file>:<line>: "<text>"`` and hands it to the device log
(slog) under the APP module at the call's level, when that level is enabled (hicann/runtime
``src/acl/aclrt_impl/log.cpp``, ``src/acl/common/log_inner.cpp``). aclnn_py writes it where slog puts
an application's log by default, following CANN's documented log variables:

* ``ASCEND_GLOBAL_LOG_LEVEL``: 0 debug, 1 info, 2 warning, 3 error (the default), 4 none; a record
  below it is dropped (``ASCEND_MODULE_LOG_LEVEL=APP=<n>`` overrides it for the APP module);
* ``ASCEND_SLOG_PRINT_TO_STDOUT=1``: the records go to standard output;
* otherwise to ``$ASCEND_PROCESS_LOG_PATH/debug/plog/plog-<pid>_<time>.log`` (default
  ``~/ascend/log``), one file per process.

A record line is ``[<LEVEL>] APP(<pid>,<process>):<YYYY-MM-DD-hh:mm:ss.mmm.uuu> <message>``. The
function never fails (C's ``void``): a log that cannot be written is dropped, as slog drops it.
"""

from __future__ import annotations

import contextlib
import os
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
_DEFAULT_LEVEL = ACL_ERROR  # slog's default global level

_lock = threading.Lock()
_plog: Path | None = None  # this process's plog file, made on its first record


def enabled_level() -> int:
    """The lowest level written: ``ASCEND_MODULE_LOG_LEVEL``'s APP entry, else
    ``ASCEND_GLOBAL_LOG_LEVEL``, else error (4 and above: nothing)."""
    for entry in os.environ.get("ASCEND_MODULE_LOG_LEVEL", "").split(":"):
        name, _, value = entry.partition("=")
        if name.strip() == "APP" and value.strip().isdigit():
            return int(value)
    value = os.environ.get("ASCEND_GLOBAL_LOG_LEVEL", "").strip()
    return int(value) if value.isdigit() else _DEFAULT_LEVEL


def _cut(text: str) -> tuple[str, bool]:
    """``text`` within MAX_LOG_STRING - 1 bytes of UTF-8 (whether it was cut)."""
    raw = text.encode("utf-8", errors="surrogateescape")
    if len(raw) <= MAX_LOG_STRING - 1:
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
    if logLevel not in _LEVEL_NAMES or logLevel < enabled_level():
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
    if level not in _LEVEL_NAMES or level < enabled_level():
        return E.ACL_SUCCESS
    try:
        text = fmt % args if args else fmt
    except (TypeError, ValueError):
        return invalid_format()
    return record(level, func, file, number, text)


def invalid_format() -> int:
    """CANN's error record for a format its vsnprintf refuses."""
    if enabled_level() <= ACL_ERROR:
        _write(ACL_ERROR, "aclAppLog format string is invalid")
    return E.ACL_SUCCESS


def reset() -> None:
    """Forget this process's plog file (the next record starts a new one)."""
    global _plog
    with _lock:
        _plog = None


__all__ = ["aclAppLog"]
