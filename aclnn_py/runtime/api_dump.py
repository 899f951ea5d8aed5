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

Model dumps (``dump_list`` with ``model_name``/``layer``) and exception dumps (``dump_scene``)
are accepted and checked, but aclnn_py loads no models and its kernel faults are reported by the
stream, so neither writes anything (docs/runtime.md).
"""

from __future__ import annotations

import json
import os
import struct
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from .. import dtypes
from .._capi import ApiError, c_api, describe
from ._checks import INTERNAL, E, Message, acl_inner, acl_null, emu, int_arg
from .device import RT

# acl_dump.h
ACL_DUMP_MAX_FILE_PATH_LENGTH = 4096
AIC_ERR_BRIEF_DUMP, AIC_ERR_NORM_DUMP, AIC_ERR_DETAIL_DUMP, DATA_DUMP, OVERFLOW_DUMP = 1, 2, 3, 4, 5
ACL_OP_DUMP_OP_AICORE_ARGS = 0x00000001

_ADUMP_INPUT_FAILED = -2  # adump_pub.h
_MAX_DUMP_PATH_LENGTH = 512
_MAX_DUMP_STEP_INTERVAL_COUNT = 100
_MAX_BLACKLIST_SIZE = 100
_DUMP_VERSION = "2.0"

_VALID: dict[str, tuple[str, ...]] = {
    "dump_mode": ("input", "output", "all"),
    "dump_data": ("tensor", "stats"),
    "dump_kernel_data": ("all", "printf", "tensor", "assert", "timestamp"),
    "dump_op_switch": ("on", "off"),
    "dump_level": ("op", "kernel", "all"),
    "dump_debug": ("on", "off"),
    "dump_scene": ("lite_exception", "aic_err_brief_dump", "aic_err_norm_dump", "aic_err_detail_dump", "watcher"),
    "dump_stats": ("Max", "Min", "Avg", "Nan", "Negative Inf", "Positive Inf", "L2norm"),
}
_STRING_FIELDS = (
    "dump_path", "dump_mode", "dump_op_switch", "dump_level", "dump_scene", "dump_data", "dump_debug",
    "dump_kernel_data", "dump_step",
)  # fmt: skip
_VALUE_FIELDS = ("dump_mode", "dump_data", "dump_op_switch", "dump_level", "dump_debug", "dump_scene")

# EP0001 reasons
_NOT_FOUND = "The configuration item is not found"
_EMPTY = "The configuration item value is empty"
_MUST_STRING = "This configuration item must be of the string type"
_MUST_ARRAY = "This configuration item must be of the array type"
_MUST_OBJECT = "This configuration item must be of the object type"
_MEMBER_STRING = "The member type of this configuration item must be string"
_MEMBER_OBJECT = "The member type of this configuration item must be object"


class _Refused(Exception):
    """A dump configuration CANN refuses: the EP report to make."""

    def __init__(self, *message: str) -> None:
        super().__init__(message)
        self.message = message


def _ep0001(item: str, path: str, reason: str) -> _Refused:
    return _Refused(
        "EP0001", f"The content of configuration item {item} in configuration file {path} is invalid. Reason: {reason}."
    )


def _ep0002(value: str, item: str, path: str, expected: str) -> _Refused:
    return _Refused(
        "EP0002",
        f"Value {value} for configuration item {item} in configuration file {path} is invalid. Expected value: "
        f"{expected}.",
    )


def _ep0003(value: str, item: str, path: str, reason: str) -> _Refused:
    return _Refused(
        "EP0003",
        f"Value {value} for configuration item {item} in configuration file {path} is invalid. Reason: {reason}.",
    )


def _ep0005(path: str, reason: str) -> _Refused:
    return _Refused("EP0005", f"Conflict of configuration items in configuration file {path}. Reason: {reason}.")


def _when_value(path: str, cond: str, cond_value: str, item: str) -> _Refused:
    return _ep0005(
        path, f"When configuration item {cond} is set to {cond_value}, configuration item {item} cannot be configured"
    )


def _when_not_value(path: str, cond: str, cond_value: str, item: str) -> _Refused:
    return _ep0005(
        path,
        f"When configuration item {cond} is not set to {cond_value}, configuration item {item} cannot be configured",
    )


def _when_value_value(path: str, cond: str, cond_value: str, item: str, value: str) -> _Refused:
    return _ep0005(
        path,
        f"When configuration item {cond} is set to {cond_value}, configuration item {item} cannot be set to {value}",
    )


def _ep(eid: str, text: str) -> tuple[str, str]:
    """An EP report (its title, cause and solution come from error_code.json's template)."""
    return (eid, text)


# ---------------------------------------------------------------------------------------------
# the configuration
# ---------------------------------------------------------------------------------------------


@dataclass
class DumpSetting:
    """A configuration that passed CANN's checks."""

    path: str  # <dump_path>/<YYYYMMDDhhmmss>
    mode: str = "output"
    data: str = "tensor"
    op_switch: str = "off"
    level: str = "all"
    scene: str = ""
    stats: list[str] = field(default_factory=list)


def _split(text: str, delim: str) -> list[str]:
    """DumpConfigConverter::Split: getline pieces, plus an empty last piece after a trailing delim."""
    if not text:
        return [""]
    pieces = text.split(delim)
    if pieces[-1] == "":
        pieces = pieces[:-1]
        pieces.append("")
    return pieces


def _valid_value(key: str, value: str, path: str, report: str | None = None) -> None:
    where = report or key
    if value == "":
        raise _ep0001(where, path, _EMPTY)
    if value not in _VALID[key]:
        raise _ep0002(value, where, path, "/".join(sorted(_VALID[key])))


def _string_field(js: dict[str, Any], key: str, base: str, path: str) -> None:
    if key in js and not isinstance(js[key], str):
        raise _ep0001(f"{base}.{key}" if base else key, path, _MUST_STRING)


def _array_of(arr: object, base: str, path: str, strings: bool) -> list[Any]:
    if not isinstance(arr, list):
        raise _ep0001(base, path, _MUST_ARRAY)
    for i, v in enumerate(arr):
        if not (isinstance(v, str) if strings else isinstance(v, dict)):
            raise _ep0001(f"{base}[{i}]", path, _MEMBER_STRING if strings else _MEMBER_OBJECT)
    return arr


def _check_types(js: dict[str, Any], path: str) -> None:
    """CheckDumpFieldTypes."""
    for key in _STRING_FIELDS:
        _string_field(js, key, "", path)
    if "dump_stats" in js:
        _array_of(js["dump_stats"], "dump_stats", path, True)
    if "dump_list" in js:
        items = js["dump_list"]
        if not isinstance(items, list):
            raise _ep0001("dump_list", path, _MUST_ARRAY)
        for i, item in enumerate(items):
            base = f"dump_list[{i}]"
            if not isinstance(item, dict):
                raise _ep0001(base, path, _MUST_OBJECT)
            _string_field(item, "model_name", base, path)
            for key in ("layer", "watcher_nodes"):
                if key in item:
                    _array_of(item[key], f"{base}.{key}", path, True)
            for key in ("optype_blacklist", "opname_blacklist"):
                if key in item:
                    lst = _array_of(item[key], f"{base}.{key}", path, False)
                    for j, entry in enumerate(lst):
                        _string_field(entry, "name", f"{base}.{key}[{j}]", path)
                        if "pos" in entry:
                            _array_of(entry["pos"], f"{base}.{key}[{j}].pos", path, True)
            if "opname_range" in item:
                lst = _array_of(item["opname_range"], f"{base}.opname_range", path, False)
                for j, entry in enumerate(lst):
                    _string_field(entry, "begin", f"{base}.opname_range[{j}]", path)
                    _string_field(entry, "end", f"{base}.opname_range[{j}]", path)


def _check_values(js: dict[str, Any], path: str) -> None:
    """CheckDumpFieldValues."""
    for key in _VALUE_FIELDS:
        if key in js:
            _valid_value(key, js[key], path)
    if "dump_kernel_data" in js:
        for piece in _split(js["dump_kernel_data"], ","):
            _valid_value("dump_kernel_data", piece, path)
    for i, stat in enumerate(js.get("dump_stats", [])):
        _valid_value("dump_stats", stat, path, f"dump_stats[{i}]")


def _check_dump_path(js: dict[str, Any], path: str) -> None:
    if "dump_path" not in js:
        raise _ep0001("dump_path", path, _NOT_FOUND)
    dump_path: str = js["dump_path"]
    if dump_path == "":
        raise _ep0001("dump_path", path, _EMPTY)
    if len(dump_path) > _MAX_DUMP_PATH_LENGTH:
        raise _ep0003(dump_path, "dump_path", path, "The path length exceeds the maximum limit of 512 characters")
    if ":" in dump_path:  # CheckIpAddress: a path after an IPv4 address goes to a remote host
        head, _, tail = dump_path.partition(":")
        if tail == "":
            raise _ep0003(dump_path, "dump_path", path, "The value is an invalid path")
        parts = head.split(".")
        if len(parts) == 4 and all(p.strip().lstrip("+-").isdigit() and 0 <= int(p) <= 255 for p in parts):
            raise _Refused(
                "aclnn_py",
                f"aclmdlSetDump: dump_path {dump_path} names a remote host ({head}); aclnn_py dumps to local "
                "directories only.",
            )
    real = Path(dump_path)
    if not real.exists():
        raise _ep0003(dump_path, "dump_path", path, "The path does not exist")
    if not real.is_dir():
        raise _ep0003(dump_path, "dump_path", path, "The path is not a directory path")
    if not os.access(real, os.R_OK | os.W_OK):
        raise _ep0003(dump_path, "dump_path", path, "The value is a path without read and write permissions")


def _check_step(js: dict[str, Any], path: str) -> None:
    step = js.get("dump_step", "")
    if step == "":
        return
    pieces = _split(step, "|")
    if len(pieces) > _MAX_DUMP_STEP_INTERVAL_COUNT:
        raise _ep0003(step, "dump_step", path, "The value exceeds the maximum limit of 100 intervals")
    for i, piece in enumerate(pieces):
        ends = _split(piece, "-")
        where = f"dump_step[{i}]"
        if len(ends) > 2:
            raise _ep0003(piece, where, path, "The value has invalid format, expected format: 5-10")
        for end in ends:
            if not end or not end.isascii() or not end.isdigit():
                raise _ep0003(
                    piece, where, path, "The value contains non-digit characters,  expected format: 1 or 5-10"
                )
        if int(ends[0]) > int(ends[-1]):
            raise _ep0003(
                piece,
                where,
                path,
                "The value has invalid format, start step must not exceed end step, expected format: 5-10",
            )


def _check_list(js: dict[str, Any], path: str, level: str) -> None:
    items = js.get("dump_list", [])
    if not items:
        return
    switch_off = js.get("dump_op_switch", "off") == "off"
    scene = js.get("dump_scene", "")
    for i, item in enumerate(items):
        base = f"dump_list[{i}]"
        if switch_off:
            if "model_name" in item and item["model_name"] == "":
                raise _ep0001(f"{base}.model_name", path, _EMPTY)
            if "layer" in item and not item["layer"]:
                raise _ep0001(f"{base}.layer", path, _EMPTY)
        if scene == "watcher":
            if "watcher_nodes" not in item:
                raise _ep0001(f"{base}.watcher_nodes", path, _NOT_FOUND)
            if not item["watcher_nodes"]:
                raise _ep0001(f"{base}.watcher_nodes", path, _EMPTY)
            if "model_name" in item:
                raise _when_value(path, "dump_scene", "watcher", f"{base}.model_name")
        elif item.get("watcher_nodes"):
            raise _when_not_value(path, "dump_scene", "watcher", f"{base}.watcher_nodes")
        for key in ("optype_blacklist", "opname_blacklist"):
            if len(item.get(key, [])) > _MAX_BLACKLIST_SIZE:
                raise _ep0003(
                    str(len(item[key])), f"{base}.{key}", path, "The value size exceeds the maximum limit of 100"
                )
        for key in ("optype_blacklist", "opname_blacklist"):
            if item.get(key) and level != "op":
                raise _when_not_value(path, "dump_level", "op", f"{base}.{key}")
        ranges = item.get("opname_range", [])
        if ranges:
            if level != "op":
                raise _when_not_value(path, "dump_level", "op", f"{base}.opname_range")
            if "model_name" not in item:
                raise _ep0001(f"{base}.model_name", path, _NOT_FOUND)
            if item["model_name"] == "":
                raise _ep0001(f"{base}.model_name", path, _EMPTY)
            for j, r in enumerate(ranges):
                begin, end = r.get("begin", ""), r.get("end", "")
                if begin == "" or end == "":
                    raise _ep0003(
                        f"begin={begin}, end={end}",
                        f"{base}.opname_range[{j}]",
                        path,
                        "The item is incomplete, begin and end must be configured together and non-empty",
                    )


def _check_constraints(js: dict[str, Any], path: str) -> None:
    """CheckDumpConstraints."""
    scene = js.get("dump_scene")
    if scene is not None:
        debug_on = js.get("dump_debug") == "on"
        switch_on = js.get("dump_op_switch") == "on"
        if debug_on:
            raise _when_value_value(path, "dump_scene", scene, "dump_debug", "on")
        if switch_on:
            raise _when_value_value(path, "dump_scene", scene, "dump_op_switch", "on")
        if scene == "watcher" and js.get("dump_mode", "output") != "output":
            raise _when_value_value(path, "dump_scene", scene, "dump_mode", js["dump_mode"])
        if scene != "watcher":
            return
    _check_dump_path(js, path)
    if js.get("dump_debug", "off") == "on":
        if js.get("dump_op_switch") == "on":
            raise _when_value_value(path, "dump_debug", "on", "dump_op_switch", "on")
        return
    _check_step(js, path)
    _check_list(js, path, js.get("dump_level", "all"))
    if "dump_stats" in js:
        if not js["dump_stats"]:
            raise _ep0001("dump_stats", path, _EMPTY)
        if js.get("dump_data", "tensor") == "tensor":
            raise _when_value(path, "dump_data", "tensor", "dump_stats")


def parse_config(content: bytes, path: str) -> DumpSetting | None:
    """DumpConfigConverter::Convert: the setting a configuration asks for (None: no dump), or
    :class:`_Refused` with CANN's report."""
    if not content:
        raise _Refused("EP0004", f"Failed to parse file {path}. Reason: Invalid input parameters.")
    try:
        js = json.loads(content)
    except ValueError as e:  # Python's json wording where CANN shows nlohmann's
        raise _Refused("EP0004", f"Failed to parse file {path}. Reason: {e}.") from None
    if not isinstance(js, dict) or "dump" not in js:
        return None
    dump = js["dump"]
    if not isinstance(dump, dict):
        raise _ep0001("dump", path, _MUST_OBJECT)
    if not dump:
        return None
    _check_types(dump, path)
    _check_values(dump, path)
    _check_constraints(dump, path)
    need = bool(dump.get("dump_list")) or dump.get("dump_op_switch") == "on"
    need = need or dump.get("dump_debug") == "on" or bool(dump.get("dump_scene"))
    if not need:
        return None
    base = dump.get("dump_path", "./")
    return DumpSetting(
        path=str(Path(base) / time.strftime("%Y%m%d%H%M%S")),
        mode=dump.get("dump_mode", "output"),
        data=dump.get("dump_data", "tensor") or "tensor",
        op_switch=dump.get("dump_op_switch", "off"),
        level=dump.get("dump_level", "all"),
        scene=dump.get("dump_scene", ""),
        stats=list(dump.get("dump_stats", [])),
    )


# ---------------------------------------------------------------------------------------------
# state
# ---------------------------------------------------------------------------------------------


# sizeof(acldumpChunk) on LP64 (fileName[4096], bufLen, isLastChunk, offset, flag; dataBuf[] adds
# nothing): the callback's length is this plus bufLen, as adx_dump_record.cpp passes it
CHUNK_HEAD_SIZE = 4120


@dataclass
class acldumpChunk:
    """``acldumpChunk``: one piece of a dump file handed to the registered callback."""

    fileName: str
    bufLen: int
    isLastChunk: int
    offset: int
    flag: int
    dataBuf: bytes


class _State:
    def __init__(self) -> None:
        self.lock = threading.RLock()
        self.init_dump = False  # aclmdlInitDumpFlag
        self.setting: DumpSetting | None = None
        self.callback: Callable[[acldumpChunk, int], object] | None = None
        self.task_ids: dict[int, int] = {}
        self.failed = False
        self.files: list[str] = []


_S = _State()
ACTIVE = False  # read by the executor's kernel hook: one global check when nothing is dumped


def _apply(setting: DumpSetting | None) -> None:
    global ACTIVE
    _S.setting = setting
    ACTIVE = setting is not None and setting.op_switch == "on" and not setting.scene


def _read_file(path: str, api: str) -> bytes:
    """JsonParser::GetConfigStrFromFile: the file's bytes (100003 when it cannot be read)."""
    failed = acl_inner(f"Get config string from file[{path}] failed, errorCode = 100003")
    try:
        real = os.path.realpath(path, strict=True)
    except OSError as e:
        raise ApiError(
            E.ACL_ERROR_INVALID_FILE, ("EH0003", f"Path {path} is invalid. Reason: {e.strerror or e}."), failed
        ) from None
    if not os.path.isfile(real):
        raise ApiError(
            E.ACL_ERROR_INVALID_FILE, ("EH0004", f"File {path} is invalid. Reason: not a regular file."), failed
        )
    try:
        with open(real, "rb") as f:
            return f.read()
    except OSError:
        raise ApiError(
            E.ACL_ERROR_INVALID_FILE,
            ("EH0004", f"File {path} is invalid. Reason: File cannot be opened for reading."),
            failed,
        ) from None


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


def configure_from_init(path: str, content: bytes) -> None:
    """The ``"dump"`` section of aclInit's file (AclDump::HandleDumpConfig; an empty file is none)."""
    if not content:
        return
    _set_config(content, path, (acl_inner("[Process][DumpConfig]process HandleDumpConfig failed"),))


def finalize() -> None:
    """aclFinalize: the dump ends (the dump server stops with the runtime)."""
    with _S.lock:
        _apply(None)
        _S.init_dump = False


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
    none is set; the exception dumps have none here (aclnn_py writes no exception dump)."""
    kind = int_arg(dumpType, "dumpType", -(2**31), 2**31 - 1)
    with _S.lock:
        if kind in (DATA_DUMP, OVERFLOW_DUMP) and _S.setting is not None:
            return _S.setting.path
    return None


def dumped_files() -> list[str]:
    """The dump files written so far by this process (oldest first)."""
    with _S.lock:
        return list(_S.files)


# ---------------------------------------------------------------------------------------------
# the dump file
# ---------------------------------------------------------------------------------------------

_PROTO_TYPES = (  # toolkit.dumpdata.OutputDataType, in value order
    "UNDEFINED",
    "FLOAT",
    "FLOAT16",
    "INT8",
    "UINT8",
    "INT16",
    "UINT16",
    "INT32",
    "INT64",
    "UINT32",
    "UINT64",
    "BOOL",
    "DOUBLE",
    "STRING",
    "DUAL_SUB_INT8",
    "DUAL_SUB_UINT8",
    "COMPLEX64",
    "COMPLEX128",
    "QINT8",
    "QINT16",
    "QINT32",
    "QUINT8",
    "QUINT16",
    "RESOURCE",
    "STRING_REF",
    "DUAL",
    "VARIANT",
    "BF16",
    "INT4",
    "UINT1",
    "INT2",
    "UINT2",
    "COMPLEX32",
    "HIFLOAT8",
    "FLOAT8_E5M2",
    "FLOAT8_E4M3FN",
    "FLOAT8_E8M0",
    "FLOAT6_E3M2",
    "FLOAT6_E2M3",
    "FLOAT4_E2M1",
    "FLOAT4_E1M2",
)
_PROTO_TYPE = {name: i for i, name in enumerate(_PROTO_TYPES)}


def proto_data_type(acl_dtype: int) -> int:
    """toolkit.dumpdata.OutputDataType of an aclDataType (by name: the two enums number differently)."""
    try:
        name = dtypes.aclDataType(acl_dtype).name.removeprefix("ACL_")
    except ValueError:
        return 0
    return _PROTO_TYPE.get(name, 0)


def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        if n:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def _field(number: int, wire: int) -> bytes:
    return _varint(number << 3 | wire)


def _uint(number: int, value: int) -> bytes:
    return _field(number, 0) + _varint(value & 0xFFFFFFFFFFFFFFFF) if value else b""


def _bytes(number: int, value: bytes) -> bytes:
    return _field(number, 2) + _varint(len(value)) + value


def _shape(dims: Sequence[int]) -> bytes:
    packed = b"".join(_varint(int(d)) for d in dims)
    return _bytes(1, packed) if dims else b""  # proto3 packs repeated numbers


def _tensor_message(is_input: bool, tensor: Any, address: int | None, nbytes: int) -> bytes:
    shape = _shape(tensor.view_shape)
    origin = _shape(tensor.origin_shape)
    body = _uint(1, proto_data_type(tensor.dtype)) + _uint(2, int(tensor.storage_format))
    body += _bytes(3, shape)
    if is_input:  # OpInput: size 5, original_shape 6, address 8
        body += _uint(5, nbytes) + _bytes(6, origin) + _uint(8, address or 0)
    else:  # OpOutput: size 6, original_shape 7, address 9
        body += _uint(6, nbytes) + _bytes(7, origin) + _uint(9, address or 0)
    return body


Arg = tuple[Any, "int | None", np.ndarray]


def dump_bytes(op_name: str, now_us: int, inputs: Sequence[Arg], outputs: Sequence[Arg]) -> list[bytes]:
    """A dump file's pieces: the length and the DumpData message, then each tensor's bytes."""
    datas_in = [np.ascontiguousarray(a).tobytes() for _, _, a in inputs]
    datas_out = [np.ascontiguousarray(a).tobytes() for _, _, a in outputs]
    message = _bytes(1, _DUMP_VERSION.encode()) + _uint(2, now_us)
    for (t, ptr, _), data in zip(outputs, datas_out, strict=True):
        message += _bytes(3, _tensor_message(False, t, ptr, len(data)))
    for (t, ptr, _), data in zip(inputs, datas_in, strict=True):
        message += _bytes(4, _tensor_message(True, t, ptr, len(data)))
    message += _bytes(6, op_name.encode())
    return [struct.pack("<Q", len(message)) + message, *datas_in, *datas_out]


def _stats_csv(inputs: Sequence[Arg], outputs: Sequence[Arg], stats: Sequence[str]) -> str:
    lines = [
        "Input/Output,Index,Data Size,Data Type,Format,Shape,Max Value,Min Value,Avg Value,Count,Nan Count,"
        "Negative Inf Count,Positive Inf Count"
    ]
    for kind, args in (("Input", inputs), ("Output", outputs)):
        for i, (t, _, a) in enumerate(args):
            values = np.asarray(a, dtype=np.float64) if a.dtype.kind in "fiub" else np.zeros(0)
            finite = values[np.isfinite(values)]
            shape = "x".join(str(d) for d in t.view_shape) or "-"
            row = [
                kind, str(i), str(a.nbytes), "DT_" + _PROTO_TYPES[proto_data_type(t.dtype)], dtypes_format(t),
                shape,
                repr(float(finite.max())) if finite.size else "", repr(float(finite.min())) if finite.size else "",
                repr(float(finite.mean())) if finite.size else "", str(values.size),
                str(int(np.isnan(values).sum())), str(int(np.isneginf(values).sum())),
                str(int(np.isposinf(values).sum())),
            ]  # fmt: skip
            lines.append(",".join(row))
    return "\n".join(lines) + "\n"


def dtypes_format(tensor: Any) -> str:
    """The format's name as the dump's CSV writes it (NCHW, ND ...)."""
    name = (
        dtypes.aclFormat(int(tensor.storage_format)).name if int(tensor.storage_format) in set(dtypes.aclFormat) else ""
    )
    return name.removeprefix("ACL_FORMAT_").removeprefix("ACL_") or str(int(tensor.storage_format))


def _safe(name: str) -> str:
    """ReplaceStringElem: path separators, spaces and dots in names become underscores."""
    return "".join("_" if c in "/\\. " else c for c in name)


def kernel_ran(stream: Any, op_type: str, label: str, inputs: Sequence[Arg], outputs: Sequence[Arg]) -> None:
    """A kernel finished on ``stream``: dump it if the configuration asks (called by the
    executor's kernel hook; never raises: a failure is reported once on stderr)."""
    with _S.lock:
        setting, callback = _S.setting, _S.callback
        if setting is None or setting.op_switch != "on" or setting.scene:
            return
        task = _S.task_ids.get(stream.ident, 0)
        _S.task_ids[stream.ident] = task + 1
    try:
        api, _, rest = label.partition(": kernel #")
        index = rest.split(" ", 1)[0] if rest else "0"
        op_name = _safe(f"{api}_{op_type}_{index}")
        device = stream.context.device.ident
        now_us = time.time_ns() // 1000
        folder = Path(setting.path) / str(device)
        name = f"{_safe(op_type)}.{op_name}.{task}.{stream.ident}.{now_us}"
        target = folder / name
        chosen_in = inputs if setting.mode in ("input", "all") else []
        chosen_out = outputs if setting.mode in ("output", "all") else []
        if setting.data == "stats":
            pieces = [_stats_csv(chosen_in, chosen_out, setting.stats).encode()]
            target = folder / (name + ".csv")
        else:
            pieces = dump_bytes(op_name, now_us, chosen_in, chosen_out)
        if callback is not None:
            for i, piece in enumerate(pieces):
                chunk = acldumpChunk(str(target.resolve()), len(piece), int(i == len(pieces) - 1), -1, 0, piece)
                callback(chunk, CHUNK_HEAD_SIZE + len(piece))  # CANN: sizeof(DumpChunk) + bufLen
        else:
            folder.mkdir(parents=True, exist_ok=True)
            with open(target, "wb") as f:
                for piece in pieces:
                    f.write(piece)
        with _S.lock:
            _S.files.append(str(target))
    except Exception as e:  # the dump must never break the program it watches
        if not _S.failed:
            _S.failed = True
            sys.stderr.write(f"aclnn_py dump: cannot dump {label}: {e}\n")


# ---------------------------------------------------------------------------------------------
# reading a dump file back (tests, and users without CANN's msaccucmp)
# ---------------------------------------------------------------------------------------------


def _read_varint(buf: bytes, pos: int) -> tuple[int, int]:
    shift = value = 0
    while True:
        byte = buf[pos]
        pos += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            return value, pos


def _fields(buf: bytes) -> list[tuple[int, int | bytes]]:
    out: list[tuple[int, int | bytes]] = []
    pos = 0
    while pos < len(buf):
        key, pos = _read_varint(buf, pos)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, pos = _read_varint(buf, pos)
            out.append((number, value))
        elif wire == 2:
            n, pos = _read_varint(buf, pos)
            out.append((number, buf[pos : pos + n]))
            pos += n
        else:
            raise ValueError(f"unexpected wire type {wire}")
    return out


def _dims(packed: bytes) -> list[int]:
    dims: list[int] = []
    for number, value in _fields(packed):
        if number == 1 and isinstance(value, bytes):
            pos = 0
            while pos < len(value):
                d, pos = _read_varint(value, pos)
                dims.append(d)
        elif number == 1 and isinstance(value, int):
            dims.append(value)
    return dims


def read_dump_file(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Decode a dump file: ``{"version", "dump_time", "op_name", "input": [...], "output": [...]}``,
    each tensor ``{"data_type", "format", "shape", "size", "address", "data"}`` (its bytes)."""
    raw = Path(path).read_bytes()
    (n,) = struct.unpack_from("<Q", raw)
    message = raw[8 : 8 + n]
    data = raw[8 + n :]
    doc: dict[str, Any] = {"input": [], "output": []}
    for number, value in _fields(message):
        if number == 1 and isinstance(value, bytes):
            doc["version"] = value.decode()
        elif number == 2:
            doc["dump_time"] = value
        elif number == 6 and isinstance(value, bytes):
            doc["op_name"] = value.decode()
        elif number in (3, 4) and isinstance(value, bytes):
            is_input = number == 4
            t: dict[str, Any] = {"data_type": 0, "format": 0, "shape": [], "size": 0, "address": 0}
            for k, v in _fields(value):
                if k == 1:
                    t["data_type"] = v
                elif k == 2:
                    t["format"] = v
                elif k == 3 and isinstance(v, bytes):
                    t["shape"] = _dims(v)
                elif k == (5 if is_input else 6):
                    t["size"] = v
                elif k == (8 if is_input else 9):
                    t["address"] = v
            doc["input" if is_input else "output"].append(t)
    pos = 0
    for t in doc["input"] + doc["output"]:
        t["data"] = data[pos : pos + t["size"]]
        pos += t["size"]
    return doc


def reset() -> None:
    """Forget the dump configuration, service state and callback (test isolation; not a CANN call)."""
    with _S.lock:
        _apply(None)
        _S.__init__()  # type: ignore[misc]
