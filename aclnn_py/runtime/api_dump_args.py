"""Operator argument dump switches of acl/acl_dump.h: ``aclopStartDumpArgs`` / ``aclopStopDumpArgs``.

CANN's checks, order, codes and reports are those of hicann/runtime
``src/dfx/adump/adump/manage/adump_api_platform.cpp`` and ``dump_manager.cpp``
(``DumpManager::StartDumpArgs``): a NULL path is EP0007, a ``dumpType`` without
``ACL_OP_DUMP_OP_AICORE_ARGS`` EP0006, a second start EP0008; the path must not be empty, is made
when missing, must be a directory the process can read and write (EP0006 with CANN's reasons), and
every failure returns ACL_ERROR_FAILURE (500000). Stop clears the switch (success when it was off,
or when ``dumpType`` lacks the AI Core bit).

What CANN records under the path is the AI Core kernels' argument blocks (op info records); aclnn_py's
kernels are host computations with no AI Core argument block, so the switch is kept (and
:func:`args_dump_path` reports it) but nothing is written under the path.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

from .._capi import ApiError, c_api
from ._checks import INTERNAL, E, Message, int_arg

ACL_OP_DUMP_OP_AICORE_ARGS = 0x00000001
_API = "aclopStartDumpArgs"

_lock = threading.Lock()
_path: str | None = None  # the switch (OP_INFO_RECORD_DUMP) and its path


def _ep(eid: str, text: str) -> Message:
    return (eid, text)  # the title, cause and solution come from error_code.json's template


def _invalid(value: str, param: str, reason: str) -> ApiError:
    text = f"{_API} failed. Value {value} for parameter {param} is invalid. Reason: {reason}"
    return ApiError(E.ACL_ERROR_FAILURE, _ep("EP0006", text))


def _path_text(path: object) -> str | None:
    if path is None:
        return None
    if isinstance(path, bytes):
        return path.decode("utf-8", errors="surrogateescape")
    return str(path)


@c_api(INTERNAL)
def aclopStartDumpArgs(dumpType: int, path: str | bytes | None) -> int:
    """Switch the AI Core argument dump on, into the directory ``path``."""
    global _path
    text = _path_text(path)
    if text is None:
        raise ApiError(E.ACL_ERROR_FAILURE, _ep("EP0007", f"{_API} failed because path cannot be a NULL pointer."))
    kind = int_arg(dumpType, "dumpType", 0, 2**32 - 1)
    if kind & ACL_OP_DUMP_OP_AICORE_ARGS != ACL_OP_DUMP_OP_AICORE_ARGS:
        raise _invalid(str(kind), "dumpType", f"The parameter is reserved and can only be {ACL_OP_DUMP_OP_AICORE_ARGS}")
    with _lock:
        if _path is not None:
            raise ApiError(
                E.ACL_ERROR_FAILURE, _ep("EP0008", f"{_API} failed. Reason: This API cannot be called repeatedly.")
            )
        if not text:
            raise _invalid(text, "path", "The parameter is a path and cannot be empty")
        folder = Path(text)
        if not folder.exists():
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as e:
                reason = f"The parameter is a path and the path fails to be created. Error: {os.strerror(e.errno or 0)}"
                raise _invalid(text, "path", reason) from None
        if not folder.is_dir():
            raise _invalid(text, "path", "The parameter is not a directory path")
        if not os.access(folder, os.R_OK | os.W_OK):
            raise _invalid(text, "path", "The value is a path without read and write permissions")
        _path = text
    return E.ACL_SUCCESS


@c_api(INTERNAL)
def aclopStopDumpArgs(dumpType: int) -> int:
    """Switch the AI Core argument dump off (success when it was off)."""
    global _path
    kind = int_arg(dumpType, "dumpType", 0, 2**32 - 1)
    if kind & ACL_OP_DUMP_OP_AICORE_ARGS == ACL_OP_DUMP_OP_AICORE_ARGS:
        with _lock:
            _path = None
    return E.ACL_SUCCESS


def args_dump_path() -> str | None:
    """The directory of the argument dump while it is on."""
    with _lock:
        return _path


def reset() -> None:
    """Switch the argument dump off (testing.reset)."""
    global _path
    with _lock:
        _path = None


__all__ = [
    "ACL_OP_DUMP_OP_AICORE_ARGS",
    "aclopStartDumpArgs",
    "aclopStopDumpArgs",
]
