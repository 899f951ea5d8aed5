"""Data dump: ``aclmdlInitDump`` / ``aclmdlSetDump`` / ``aclmdlFinalizeDump`` (``acl_rt.h``), the
``"dump"`` section of aclInit's configuration file, and ``acl/acl_dump.h``'s callback and path
queries.

The configuration is read and checked as CANN's dump module does (hicann/runtime
``src/acl/aclrt_impl/toolchain/dump.cpp``, ``src/dfx/adump/adump/impl/dump_config_converter.cpp``):
the same items, values, order of checks, codes (100009 for a refused configuration) and EP
messages. With ``"dump_op_switch": "on"`` every kernel an aclnn operator launches is dumped once
it has run, as CANN's single-operator dump does, to
``<dump_path>/<YYYYMMDDhhmmss>/<device>/<op type>.<op name>.<task id>.<stream id>.<time in us>``
in CANN's dump-file format: an 8-byte little-endian length, a ``toolkit.dumpdata.DumpData``
protobuf message (version "2.0", dump time, op name, and per input/output its data type, format,
shape, size and address), then the inputs' bytes and the outputs' bytes. ``"dump_data": "stats"``
writes ``<that path>.csv`` with CANN's columns instead. A callback registered with
``acldumpRegCallback`` receives the file's bytes as ``acldumpChunk`` pieces instead of the file.

Model dumps (``dump_list`` with ``model_name``/``layer``) are accepted and checked, but aclnn_py
loads no models, so they write nothing (docs/runtime.md). An exception ``dump_scene`` turns on the
exception dump (:mod:`.api_dump_exception`: its root, tensors a program saves there, and the dump of
a kernel that faults).

The chapter is three modules: this one (the API functions, reading the configuration file),
:mod:`.dump_config` (the configuration's checks and EP reports) and :mod:`.dump_file` (the dump
state, the kernel hook, the file format and reading a dump file back).
"""

from __future__ import annotations

import os
from collections.abc import Callable

from .._capi import ApiError, c_api, describe
from ._checks import INTERNAL, E, Message, acl_inner, acl_null, emu, int_arg
from .api_dump_exception import EXTRA_DUMP_DIR
from .api_dump_exception import enabled as exception_enabled
from .device import RT
from .dump_config import _ep, _Refused, parse_config
from .dump_file import _S, _apply, acldumpChunk

# acl_dump.h
ACL_DUMP_MAX_FILE_PATH_LENGTH = 4096
AIC_ERR_BRIEF_DUMP, AIC_ERR_NORM_DUMP, AIC_ERR_DETAIL_DUMP, DATA_DUMP, OVERFLOW_DUMP = 1, 2, 3, 4, 5
ACL_OP_DUMP_OP_AICORE_ARGS = 0x00000001

_ADUMP_INPUT_FAILED = -2  # adump_pub.h
_MAX_CONFIG_FILE_BYTE = 10 * 1024 * 1024  # json_parser.cpp MAX_CONFIG_FILE_BYTE
_MAX_CONFIG_DEPTH = 10  # MAX_CONFIG_OBJ_DEPTH, MAX_CONFIG_ARRAY_DEPTH


def _depths(content: bytes) -> tuple[int, int]:
    """JsonParser::GetMaxNestedLayers: the deepest ``{`` and ``[`` nesting, counted character by
    character up to the first NUL (strings included, as CANN's count does)."""
    obj = arr = max_obj = max_arr = 0
    for ch in content.split(b"\0", 1)[0]:
        if ch == 0x7B:  # {
            obj += 1
            max_obj = max(max_obj, obj)
        elif ch == 0x7D:  # }
            obj = max(obj - 1, 0)
        elif ch == 0x5B:  # [
            arr += 1
            max_arr = max(max_arr, arr)
        elif ch == 0x5D:  # ]
            arr = max(arr - 1, 0)
    return max_obj, max_arr


def _read_file(path: str, api: str) -> bytes:
    """JsonParser::GetConfigStrFromFile (src/acl/common/json_parser.cpp): the file's bytes; 100003
    when it cannot be read, is not a regular file or is over 10 MB, 100006 when it nests deeper
    than 10 objects or arrays."""

    def failed(code: int) -> Message:
        return acl_inner(f"Get config string from file[{path}] failed, errorCode = {code}")

    invalid = int(E.ACL_ERROR_INVALID_FILE)
    try:
        real = os.path.realpath(path, strict=True)
        size = os.stat(real).st_size
    except OSError as e:
        raise ApiError(
            E.ACL_ERROR_INVALID_FILE, ("EH0003", f"Path {path} is invalid. Reason: {e.strerror or e}."), failed(invalid)
        ) from None
    if not os.path.isfile(real):  # IsValidFileName reports the real path (json_parser.cpp:96-104)
        raise ApiError(
            E.ACL_ERROR_INVALID_FILE,
            ("EH0004", f"File {real} is invalid. Reason: config file is not a regular file."),
            failed(invalid),
        )
    if size > _MAX_CONFIG_FILE_BYTE:  # json_parser.cpp:106-117
        raise ApiError(
            E.ACL_ERROR_INVALID_FILE,
            (
                "EH0004",
                f"File {real} is invalid. Reason: file size {size} exceeds maximum allowed size "
                f"{_MAX_CONFIG_FILE_BYTE}.",
            ),
            failed(invalid),
        )
    try:
        with open(real, "rb") as f:
            content = f.read()
    except OSError:
        raise ApiError(
            E.ACL_ERROR_INVALID_FILE,
            ("EH0004", f"File {path} is invalid. Reason: File cannot be opened for reading."),
            failed(invalid),
        ) from None
    max_obj, max_arr = _depths(content)
    if max_obj > _MAX_CONFIG_DEPTH or max_arr > _MAX_CONFIG_DEPTH:  # json_parser.cpp:202-219
        raise ApiError(
            E.ACL_ERROR_PARSE_FILE,
            (
                "EH0004",
                f"File {path} is invalid. Reason: object depth {max_obj} exceeds max {_MAX_CONFIG_DEPTH} or array "
                f"depth {max_arr} exceeds max {_MAX_CONFIG_DEPTH}.",
            ),
            failed(int(E.ACL_ERROR_PARSE_FILE)),
        )
    return content


def _set_config(content: bytes, path: str, extra: tuple[Message, ...] = ()) -> None:
    """AdumpSetDumpConfig through the ACL layer: 100009 for a refused configuration."""
    try:
        setting = parse_config(content, path)
    except _Refused as r:
        eid, text = r.message
        first = emu(text) if eid == "aclnn_py" else _ep(eid, text)
        raise ApiError(
            E.ACL_ERROR_INVALID_DUMP_CONFIG,
            first,
            acl_inner(f"[Set][Dump]set dump config failed, adx errorCode = {_ADUMP_INPUT_FAILED}"),
            *extra,
        ) from None
    if setting is None:
        return  # needDump false: DumpManager keeps whatever was set before
    with _S.lock:
        _apply(setting)
    if setting.scene:  # the exception chapter's fault hook dumps a faulting kernel from now on
        from . import api_dump_exception  # noqa: F401


def configure_from_init(path: str, content: bytes) -> None:
    """The ``"dump"`` section of aclInit's file (AclDump::HandleDumpConfig; an empty file is none)."""
    if not content:
        return
    _set_config(content, path, (acl_inner("[Process][DumpConfig]process HandleDumpConfig failed"),))


def finalize() -> None:
    """aclFinalize: the dump ends (the dump server stops with the runtime). aclmdlInitDump's flag
    stays: dump.cpp's file-static aclmdlInitDumpFlag is cleared only by aclmdlFinalizeDump
    (dump.cpp:30, :236), so after aclFinalize and aclInit a second aclmdlInitDump is 100002."""
    with _S.lock:
        _apply(None)


def _need_init(api: str, impl: str) -> None:
    if not RT.initialized:
        raise ApiError(
            E.ACL_ERROR_UNINITIALIZE,
            _ep("EP0008", f"{api} failed. Reason: aclInit must be executed before {impl} is called."),
        )


@c_api(INTERNAL)
def aclmdlInitDump() -> int:
    """Start the dump service (once)."""
    _need_init("aclmdlInitDump", "aclmdlInitDump")
    with _S.lock:
        if _S.init_dump:
            raise ApiError(
                E.ACL_ERROR_REPEAT_INITIALIZE,
                _ep("EP0008", "aclmdlInitDump failed. Reason: This API cannot be called repeatedly."),
            )
        _S.init_dump = True
    return E.ACL_SUCCESS


@c_api(INTERNAL)
def aclmdlSetDump(dumpCfgPath: str | bytes | None) -> int:
    """Apply a dump configuration file (after aclmdlInitDump)."""
    _need_init("aclmdlSetDump", "aclmdlSetDumpImpl")
    with _S.lock:
        if not _S.init_dump:
            raise ApiError(
                E.ACL_ERROR_DUMP_NOT_RUN,
                _ep(
                    "EP0008",
                    "aclmdlSetDump failed. Reason: aclmdlInitDump must be executed before aclmdlSetDumpImpl is called.",
                ),
            )
    if dumpCfgPath is None:
        raise ApiError(E.ACL_ERROR_INVALID_PARAM, acl_null("aclmdlSetDump", "dumpCfgPath"))
    path = os.fsdecode(dumpCfgPath) if isinstance(dumpCfgPath, (str, bytes)) else None
    if path is None:
        raise ApiError(
            E.ACL_ERROR_INVALID_PARAM, emu(f"aclmdlSetDump: dumpCfgPath is {describe(dumpCfgPath)}, not a path.")
        )
    content = _read_file(path, "aclmdlSetDump")
    if content:
        _set_config(content, path)
    return E.ACL_SUCCESS


@c_api(INTERNAL)
def aclmdlFinalizeDump() -> int:
    """Stop dumping and the dump service."""
    _need_init("aclmdlFinalizeDump", "aclmdlFinalizeDump")
    with _S.lock:
        if not _S.init_dump:
            raise ApiError(
                E.ACL_ERROR_DUMP_NOT_RUN,
                _ep(
                    "EP0008",
                    "aclmdlFinalizeDump failed. Reason: aclmdlInitDump must be executed before aclmdlFinalizeDump "
                    "is called.",
                ),
            )
        _apply(None)
        _S.init_dump = False
    return E.ACL_SUCCESS


@c_api(INTERNAL)
def acldumpRegCallback(messageCallback: Callable[[acldumpChunk, int], object] | None, flag: int) -> int:
    """Receive dump data as chunks instead of files (``flag`` is reserved: 0)."""
    if messageCallback is None:
        raise ApiError(
            E.ACL_ERROR_FAILURE,
            _ep("EP0007", "acldumpRegCallback failed because messageCallback cannot be a NULL pointer."),
        )
    value = int_arg(flag, "flag", -(2**31), 2**31 - 1)
    if value != 0:
        raise ApiError(
            E.ACL_ERROR_FAILURE,
            _ep(
                "EP0006",
                f"acldumpRegCallback failed. Value {value} for parameter flag is invalid. Reason: The parameter is "
                "reserved and can only be 0",
            ),
        )
    if not callable(messageCallback):
        raise ApiError(E.ACL_ERROR_FAILURE, emu(f"acldumpRegCallback: {describe(messageCallback)} is not callable."))
    with _S.lock:
        _S.callback = messageCallback
    return E.ACL_SUCCESS


@c_api(INTERNAL)
def acldumpUnregCallback() -> int:
    """Dump data goes to files again. C's ``void``: the Python function returns 0."""
    with _S.lock:
        _S.callback = None
    return E.ACL_SUCCESS


@c_api(INTERNAL, handle=True)
def acldumpGetPath(dumpType: int) -> str | None:
    """The data-dump directory (DATA_DUMP, OVERFLOW_DUMP) of the current configuration, NULL when
    none is set; for the exception dumps (AIC_ERR_*) the extra-info directory, made on the spot:
    ``<dump_path>/extra-info/data-dump`` of an exception configuration, else under ``./``, as a
    real path (DumpManager::GetExtraExceptionDumpPath → ExceptionDumper::CreateExtraDumpPath;
    NULL if it cannot be made)."""
    kind = int_arg(dumpType, "dumpType", -(2**31), 2**31 - 1)
    with _S.lock:
        if kind in (DATA_DUMP, OVERFLOW_DUMP) and _S.setting is not None:
            return _S.setting.path
        if kind in (AIC_ERR_BRIEF_DUMP, AIC_ERR_NORM_DUMP, AIC_ERR_DETAIL_DUMP):
            base = _S.setting.base if exception_enabled() and _S.setting is not None else "./"
            folder = os.path.join(base, EXTRA_DUMP_DIR)
            try:
                os.makedirs(folder, exist_ok=True)
            except OSError:
                return None
            return os.path.realpath(folder)
    return None


def reset() -> None:
    """Forget the dump configuration, service state and callback (test isolation; not a CANN call)."""
    with _S.lock:
        _apply(None)
        _S.__init__()  # type: ignore[misc]


__all__ = [
    "ACL_DUMP_MAX_FILE_PATH_LENGTH",
    "AIC_ERR_BRIEF_DUMP",
    "AIC_ERR_DETAIL_DUMP",
    "AIC_ERR_NORM_DUMP",
    "DATA_DUMP",
    "OVERFLOW_DUMP",
    "acldumpGetPath",
    "acldumpRegCallback",
    "acldumpUnregCallback",
    "aclmdlFinalizeDump",
    "aclmdlInitDump",
    "aclmdlSetDump",
]
