"""The data dump's configuration (the ``"dump"`` section of aclInit's file and of
aclmdlSetDump's): the items, values and order of CANN's checks (hicann/runtime
``src/dfx/adump/adump/impl/dump_config_converter.cpp``) and the EP reports for a refused one.

:func:`parse_config` turns a file's bytes into a :class:`DumpSetting`, or raises :class:`_Refused`
with the EP report; :mod:`.api_dump` turns that into CANN's 100009.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

_MAX_DUMP_PATH_LENGTH = 512
_MAX_DUMP_STEP_INTERVAL_COUNT = 100
_MAX_BLACKLIST_SIZE = 100

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
    base: str = "./"  # dump_path as written: the exception dumps' root (ExceptionDumper::SetDumpPath)


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
        base=base or "./",
    )
