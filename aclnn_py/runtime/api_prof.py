"""Profiling, ``acl/acl_prof.h``: aclprofInit / Start / Stop / Finalize, the profiling
configuration, and the msproftx stamps (marks, push/pop, ranges) a program puts in its profile.

CANN's profiler (hicann/runtime ``src/dfx/msprof``) writes binary ``PROF_*`` data that the msprof
tool parses afterwards into, among other things, a Chrome trace-event timeline
(``mindstudio_profiler_output/msprof_*.json``). aclnn_py records what its own timeline records
(:mod:`aclnn_py.timeline`: every API call on the host rows, every kernel, copy and event task on
the stream rows, on the timeline's virtual clock) while a session runs (aclprofStart to
aclprofStop), adds the stamps as ``msproftx`` events, keeps what the configuration's data types
ask for, and writes the trace-event JSON directly, at aclprofStop, to
``<result path>/PROF_<n>_<time>_<tag>/mindstudio_profiler_output/msprof_<time>.json``.

The checks, their order, codes and messages are CANN's (``prof_acl_api.cpp``,
``msprofiler_acl_api.cpp``, ``prof_acl_mgr.cpp``, ``msproftx_adaptor.cpp``,
``msprof_tx_manager.cpp``, ``prof_stamp_pool.cpp``). The profiler reports under its own ids
(EK0001 ... EK0007); a failing stamp call returns the profiler's ``PROFILING_FAILED`` (-1), as
CANN's aclprofMark and friends do.
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import random
import string
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from .. import timeline as _timeline
from .. import trace as _trace
from .._capi import ApiError, as_pointer, c_api, describe
from .._ref import Ref
from ._checks import INTERNAL, E, emu, int_arg, stream_handle, submit
from .device import RT

# acl_prof.h's data types (aclprofCreateConfig's dataTypeConfig)
ACL_PROF_ACL_API = 0x0001
ACL_PROF_TASK_TIME = 0x0002
ACL_PROF_AICORE_METRICS = 0x0004
ACL_PROF_AICPU = 0x0008
ACL_PROF_L2CACHE = 0x0010
ACL_PROF_HCCL_TRACE = 0x0020
ACL_PROF_TRAINING_TRACE = 0x0040
ACL_PROF_MSPROFTX = 0x0080
ACL_PROF_RUNTIME_API = 0x0100
ACL_PROF_GE_API_L0 = 0x0200
ACL_PROF_TASK_TIME_L0 = 0x0800
ACL_PROF_TASK_MEMORY = 0x1000
ACL_PROF_GE_API_L1 = 0x01000000
ACL_PROF_TASK_TIME_L2 = 0x2000
ACL_PROF_OP_ATTR = 0x4000
ACL_PROF_TASK_TIME_L3 = 0x8000
ACL_PROF_API_STATS = 0x400000000
ACL_PROF_AICORE_SHAPE = 0x800000000
ACL_PROF_MAX_OP_NAME_LEN = 257
ACL_PROF_MAX_OP_TYPE_LEN = 65

# aclprofConfigType
ACL_PROF_ARGS_MIN = 0
ACL_PROF_STORAGE_LIMIT = 1
ACL_PROF_PATH = 16
ACL_PROF_ARGS_MAX = 17
# aclprofStepTag
ACL_STEP_START = 0
ACL_STEP_END = 1

# prof_data_config.h: the switches the profiler adds on its own, and what it accepts
_PROF_TASK_TIME = 0x0800  # TASK_TIME_L0
_PROF_TASK_TIME_L1 = 0x0002
_PROF_TASK_TIME_L2 = 0x2000
_PROF_AICPU_MODEL = 0x4000000000000000
_PROF_SWITCH_SUPPORT = (
    0x1 | 0x800 | 0x2 | 0x4 | 0x8 | 0x10 | 0x20 | 0x40 | 0x80 | 0x100 | _PROF_AICPU_MODEL | 0x1000 | 0x200
    | 0x1000000 | 0x2000 | 0x4000 | 0x8000 | ACL_PROF_API_STATS | ACL_PROF_AICORE_SHAPE
)  # fmt: skip
_TASK_BITS = ACL_PROF_TASK_TIME | ACL_PROF_TASK_TIME_L0 | ACL_PROF_TASK_TIME_L2 | ACL_PROF_TASK_TIME_L3
_API_BITS = ACL_PROF_ACL_API | ACL_PROF_RUNTIME_API
PROF_MAX_DEV_NUM = 64
_PATH_MAX_LEN = 4096  # aclProfPathMaxLen
_CONFIG_MAX_LEN = 256  # configMaxLength
_STAMP_POOL = 100  # CURRENT_STAMP_SIZE
_STAMP_BYTES = 0x100  # room for one msproftx stamp (its message is at most 127 bytes)
_MAX_MSG_LEN = 128  # MAX_MSG_LEN / MAX_MESSAGE_LEN
PROFILING_FAILED = -1
HOST_ID = 64  # PROF_DEFAULT_HOST_ID: aclprofCreateConfig appends the host to the device list
_MSPROFTX_ROW = 1000  # the host rows the stamps are drawn on start here


# ---------------------------------------------------------------------------------------------
# the profiler's messages (EK ids of error_code.json; their titles are passed with them)
# ---------------------------------------------------------------------------------------------


def _ek_value(value: object, param: str, reason: str) -> tuple[str, str]:
    return ("EK0001", f"Value {value} for parameter {param} is invalid. Reason: {reason}.")


def _ek_order(first: str, then: str) -> tuple[str, str]:
    return (
        "EK0002",
        f"Please call the APIs in the following order: call {first} first, then {then}.",
    )


def _ek_null(api: str, param: str) -> tuple[str, str]:
    return (
        "EK0006",
        f"{api} failed because parameter {param} cannot be a null pointer.",
    )


# ---------------------------------------------------------------------------------------------
# objects
# ---------------------------------------------------------------------------------------------


class aclprofConfig:
    """``aclprofConfig``: the devices and data types of a profiling session."""

    __slots__ = ("aicore_metrics", "data_types", "destroyed", "devices")

    def __init__(self, devices: list[int], aicore_metrics: int, data_types: int) -> None:
        self.devices = devices  # with the host appended (PROF_DEFAULT_HOST_ID), as CANN stores it
        self.aicore_metrics = aicore_metrics
        self.data_types = data_types
        self.destroyed = False

    def __repr__(self) -> str:
        return f"<aclprofConfig devices={self.devices[:-1]} dataTypeConfig=0x{self.data_types:x}>"


class aclprofStepInfo:
    """``aclprofStepInfo``: one training step's start and end marks (aclprofGetStepTimestamp)."""

    __slots__ = ("ended", "index", "started")

    def __init__(self, index: int) -> None:
        self.index = index
        self.started = False
        self.ended = False


class _Stamp:
    """One msproftx stamp of the pool: CANN hands out the address of a pool entry."""

    __slots__ = ("enabled", "ident", "message", "start_thread")

    def __init__(self, ident: int) -> None:
        self.ident = ident
        self.message = ""
        self.enabled = False  # isEnable: set by aclprofRangeStart, never cleared (as in CANN)
        self.start_thread = ""


class _Session:
    """A running aclprofStart..aclprofStop: the timeline recorder and the stamps' records."""

    def __init__(self, config: aclprofConfig) -> None:
        self.config = config
        self.recorder = _timeline.Recorder()
        self.block: contextlib.ExitStack = contextlib.ExitStack()
        # (kind, thread, message, range id): kinds mark, markex, push, pop, range-start, range-stop
        self.records: list[tuple[str, str, str, int]] = []
        self.folder = Path()  # PROF_<n>_<time>_<tag>, made at aclprofStart (CreateProfDir)
        self.stamp = ""


class _State:
    def __init__(self) -> None:
        self.lock = threading.RLock()
        self.mode = "off"  # WORK_MODE_OFF / WORK_MODE_API_CTRL ("api")
        self.result_path = ""
        self.configured_path = ""  # ACL_PROF_PATH of aclprofSetConfig
        self.settings: dict[int, str] = {}
        self.session: _Session | None = None
        self.sessions = 0
        self.tx_ready = False  # MsprofTxManager::isInit_
        self.pool = (ctypes.c_uint8 * (_STAMP_POOL * _STAMP_BYTES))()
        self.base = ctypes.addressof(self.pool)
        self.free = list(range(_STAMP_POOL))
        self.stamps: dict[int, _Stamp] = {}  # pool index -> stamp in use
        self.stack: list[_Stamp] = []  # aclprofPush's stack (one for the process, as CANN's)
        self.step_index = 0
        self.written: list[str] = []


_S = _State()


def _thread() -> str:
    return threading.current_thread().name


def _string(value: object) -> str | None:
    """A ``const char*`` argument: None for nullptr."""
    if value is None:
        return None
    if isinstance(value, bytes):
        return value.split(b"\0", 1)[0].decode("utf-8", "replace")
    return str(value)


# ---------------------------------------------------------------------------------------------
# init / finalize / set config
# ---------------------------------------------------------------------------------------------


def _init(path: str) -> None:
    """ProfAclMgr::ProfAclInit: record the absolute result path (made at the first stop)."""
    _S.result_path = os.path.abspath(path)
    _S.mode = "api"


@c_api(INTERNAL)
def aclprofInit(profilerResultPath: str | bytes | None, length: int) -> int:
    """Start the profiler's API mode, with the directory its results go to."""
    if os.environ.get("PROFILING_MODE", "") == "dynamic":
        return E.ACL_ERROR_FEATURE_UNSUPPORTED  # MSPROF_EVENT only: no report
    path = _string(profilerResultPath)
    if path is None:
        raise ApiError(E.ACL_ERROR_INVALID_PARAM, _ek_null("aclprofInit", "profilerResultPath"))
    n = int_arg(length, "length", 0, 2**64 - 1)
    if n >= _PATH_MAX_LEN or n == 0:
        raise ApiError(
            E.ACL_ERROR_INVALID_PARAM,
            _ek_value(
                n, "profilerResultPath length", f"Length of profilerResultPath should be in [1, {_PATH_MAX_LEN})"
            ),
        )
    if len(path.encode("utf-8")) != n:
        raise ApiError(
            E.ACL_ERROR_INVALID_PARAM,
            _ek_value(
                n,
                "profilerResultPath length",
                "Length of profilerResultPath does not equal to strlen(profilerResultPath)",
            ),
        )
    with _S.lock:
        if _S.mode == "api":  # ProfInitPrecheck
            raise ApiError(E.ACL_ERROR_REPEAT_INITIALIZE, _ek_order("aclprofInit", "aclprofStart"))
        _init(path)
    return E.ACL_SUCCESS


@c_api(INTERNAL)
def aclprofFinalize() -> int:
    """End the profiler's API mode: a running session is stopped (its data written), the stamps
    are released. Without aclprofInit it is a no-op that succeeds, as CANN's."""
    with _S.lock:
        if _S.mode == "off":
            return E.ACL_SUCCESS
        if _S.session is not None:
            _end_session()
        _tx_uninit()
        _S.mode = "off"
        _S.result_path = ""
    return E.ACL_SUCCESS


@c_api(INTERNAL)
def aclprofSetConfig(configType: int, config: str | bytes | None, configLength: int) -> int:
    """Set one profiler option (ACL_PROF_PATH, ACL_PROF_STORAGE_LIMIT ...) before aclprofStart."""
    kind = int_arg(configType, "configType", -(2**31), 2**31 - 1)
    if kind <= ACL_PROF_ARGS_MIN or kind >= ACL_PROF_ARGS_MAX:
        raise ApiError(
            E.ACL_ERROR_INVALID_PARAM,
            _ek_value(
                kind,
                "configType",
                "configType should be greater than ACL_PROF_ARGS_MIN and less than ACL_PROF_ARGS_MAX",
            ),
        )
    n = int_arg(configLength, "configLength", 0, 2**64 - 1)
    if n > _CONFIG_MAX_LEN:
        raise ApiError(
            E.ACL_ERROR_INVALID_PARAM,
            _ek_value(n, "configLength", f"configLength should be less than or equal to {_CONFIG_MAX_LEN}"),
        )
    text = _string(config)
    if text is None:
        raise ApiError(E.ACL_ERROR_INVALID_PARAM, _ek_null("aclprofSetConfig", "config"))
    if len(text.encode("utf-8")) != n:
        raise ApiError(
            E.ACL_ERROR_INVALID_PARAM, _ek_value(n, "configLength", "configLength does not equal to strlen(config)")
        )
    with _S.lock:
        _S.settings[kind] = text
        if kind == ACL_PROF_PATH:
            _S.configured_path = text
    return E.ACL_SUCCESS


# ---------------------------------------------------------------------------------------------
# configurations
# ---------------------------------------------------------------------------------------------


def _u32s(ids: object, n: int) -> list[int]:
    """``uint32_t *deviceIdList`` of ``n`` entries: a sequence, a ctypes array or an address."""
    if isinstance(ids, (list, tuple)):
        values = [int_arg(v, "deviceIdList", 0, 2**32 - 1) for v in ids[:n]]
        if len(values) < n:
            raise ApiError(
                E.ACL_ERROR_INVALID_PARAM,
                emu(f"aclprofCreateConfig: deviceIdList holds {len(ids)} entries, deviceNums is {n}."),
            )
        return values
    if isinstance(ids, ctypes.Array) and ctypes.sizeof(ids) >= 4 * n:
        return list((ctypes.c_uint32 * n).from_address(ctypes.addressof(ids)))
    # a bare address cannot be checked from Python, and reading through one could crash the process
    raise ApiError(
        E.ACL_ERROR_INVALID_PARAM,
        emu(f"aclprofCreateConfig: deviceIdList is {describe(ids)}, not a list or ctypes array of {n} uint32."),
    )


def _device_ids(api: str, ids: list[int]) -> None:
    """IsValidDevId: the number of devices, each id in range and given once."""
    count = RT.device_count
    if len(ids) > count:
        raise ApiError(
            E.ACL_ERROR_INVALID_PARAM,
            _ek_value(len(ids), "deviceNums", f"The device number should be in range [1, {count}]"),
        )
    seen: set[int] = set()
    for dev in ids:
        if dev >= count:
            raise ApiError(
                E.ACL_ERROR_INVALID_PARAM,
                _ek_value(dev, "device id", f"The device id should be in range [0,{count})"),
            )
        if dev in seen:
            raise ApiError(E.ACL_ERROR_INVALID_PARAM, _ek_value(dev, "device id", "device id is duplicatedly set"))
        seen.add(dev)


@c_api(INTERNAL, handle=True)
def aclprofCreateConfig(
    deviceIdList: object, deviceNums: int, aicoreMetrics: int, aicoreEvents: object, dataTypeConfig: int
) -> aclprofConfig | None:
    """A profiling configuration: the devices, the AI Core metrics and the data types to collect
    (NULL with an EK report for a bad argument, as CANN's)."""
    n = int_arg(deviceNums, "deviceNums", 0, 2**32 - 1)
    types = int_arg(dataTypeConfig, "dataTypeConfig", 0, 2**64 - 1)
    metrics = int_arg(aicoreMetrics, "aicoreMetrics", -(2**31), 2**31 - 1)
    if n != 0 and deviceIdList is None:
        raise ApiError(E.ACL_ERROR_INVALID_PARAM, _ek_null("aclprofCreateConfig", "deviceIdList"))
    if aicoreEvents is not None and as_pointer(aicoreEvents) != 0:
        raise ApiError(
            E.ACL_ERROR_INVALID_PARAM,
            _ek_value("*aicoreEvents", "aicoreEvents", "The value of aicoreEvents must be nullptr"),
        )
    if n > PROF_MAX_DEV_NUM:
        raise ApiError(
            E.ACL_ERROR_INVALID_PARAM,
            _ek_value(n, "deviceNums", f"The device number should be less than {PROF_MAX_DEV_NUM}"),
        )
    ids = _u32s(deviceIdList, n) if n else []
    _device_ids("aclprofCreateConfig", ids)
    if n == 0 and types & ACL_PROF_MSPROFTX == 0:
        raise ApiError(E.ACL_ERROR_INVALID_PARAM, _ek_value(0, "deviceNums", "deviceNums can not be 0"))
    config = types | _PROF_AICPU_MODEL
    # the task-time levels include the lower ones, and task time brings the training trace
    if types & _PROF_TASK_TIME_L1:
        config |= _PROF_TASK_TIME
    if types & (_PROF_TASK_TIME_L2 | ACL_PROF_OP_ATTR):
        config |= _PROF_TASK_TIME | _PROF_TASK_TIME_L1
    if types & ACL_PROF_TASK_TIME_L3:
        config |= _PROF_TASK_TIME | _PROF_TASK_TIME_L1 | _PROF_TASK_TIME_L2
    if config & (_PROF_TASK_TIME | _PROF_TASK_TIME_L1):
        config |= ACL_PROF_TRAINING_TRACE
    if types & ACL_PROF_API_STATS:  # "other bit switches will become useless"
        config = ACL_PROF_ACL_API | ACL_PROF_API_STATS
    return aclprofConfig([*ids, HOST_ID], metrics, config)


def _config(obj: object, api: str) -> aclprofConfig:
    if not isinstance(obj, aclprofConfig) or obj.destroyed:
        # CANN dereferences whatever it is given; the emulator refuses what it never made
        raise ApiError(E.ACL_ERROR_INVALID_PARAM, emu(f"{api}: {describe(obj)} is not a live aclprofConfig."))
    return obj


@c_api(INTERNAL)
def aclprofDestroyConfig(profilerConfig: object) -> int:
    """Release a configuration."""
    if profilerConfig is None:
        raise ApiError(E.ACL_ERROR_INVALID_PARAM, _ek_null("aclprofDestroyConfig", "profilerConfig"))
    _config(profilerConfig, "aclprofDestroyConfig").destroyed = True
    return E.ACL_SUCCESS


def _precheck(config: aclprofConfig) -> None:
    """preCheckProfConfig."""
    if config.data_types == 0:
        raise ApiError(E.ACL_ERROR_INVALID_PARAM, _ek_value(0, "dataTypeConfig", "dataTypeConfig can not be zero"))
    if config.data_types & ~_PROF_SWITCH_SUPPORT:
        raise ApiError(
            E.ACL_ERROR_PROF_MODULES_UNSUPPORTED,
            _ek_value(
                f"0x{config.data_types:x}",
                "dataTypeConfig",
                f"dataTypeConfig is not support, supported switch is:0x{_PROF_SWITCH_SUPPORT:x}",
            ),
        )


def _default_config() -> aclprofConfig:
    """ProfSetDefaultConfig: the devices in use, the platform's default data types."""
    active = sorted(d.ident for d in RT.devices.values() if d.refcount > 0)
    return aclprofConfig([*active, HOST_ID], 0, ACL_PROF_ACL_API | ACL_PROF_TASK_TIME | _PROF_AICPU_MODEL)


# ---------------------------------------------------------------------------------------------
# sessions: start, stop, and the file a session writes
# ---------------------------------------------------------------------------------------------


@c_api(INTERNAL)
def aclprofStart(profilerConfig: object) -> int:
    """Start collecting: from now on the timeline records every call and task until aclprofStop
    (without aclprofInit the profiler initialises itself with ACL_PROF_PATH or ``./``)."""
    config = _default_config() if profilerConfig is None else _config(profilerConfig, "aclprofStart")
    _precheck(config)
    with _S.lock:
        if _S.mode == "off":  # AutoInitForStartIfNeeded
            _init(_S.configured_path or "./")
        if _S.session is not None:  # g_isRepeatInvoking: CheckConfigConsistency
            _consistent(config, "aclprofStart")
            return E.ACL_SUCCESS
        session = _Session(config)
        _materialize(session)  # the result directory and this session's PROF folder, or 100003
        if config.data_types & ACL_PROF_MSPROFTX:
            _S.tx_ready = True  # MsprofTxApiHandle -> MsprofTxInit
        session.block.enter_context(_trace.tracing(session.recorder))
        _S.session = session
    return E.ACL_SUCCESS


def _consistent(config: aclprofConfig, api: str) -> None:
    running = _S.session.config if _S.session is not None else None
    if running is None:
        return
    shared = set(config.devices) & set(running.devices)
    if shared and config.data_types != running.data_types:
        raise ApiError(
            E.ACL_ERROR_INVALID_PROFILING_CONFIG,
            _ek_value(
                f"0x{config.data_types:x}",
                "dataTypeConfig",
                "Please check the dataTypeConfig input by aclprofStart or aclprofStop, which is different from "
                "the last startup",
            ),
        )


@c_api(INTERNAL)
def aclprofStop(profilerConfig: object) -> int:
    """Stop collecting and write the session's timeline (success without aclprofInit, as CANN's)."""
    with _S.lock:
        if _S.mode == "off":
            return E.ACL_SUCCESS
        if profilerConfig is None:
            if _S.session is None:
                return E.ACL_SUCCESS  # "No running devices left"
            config = _S.session.config
        else:
            config = _config(profilerConfig, "aclprofStop")
        _precheck(config)
        _consistent(config, "aclprofStop")
        if _S.session is not None:
            _end_session()
    return E.ACL_SUCCESS


def _end_session() -> None:
    session = _S.session
    assert session is not None
    _S.session = None
    session.block.close()
    try:
        _S.written.append(_write(session))
    except OSError as e:  # CANN logs a failed flush; the program goes on
        import sys

        sys.stderr.write(f"aclnn_py profiling: cannot write the profile to {_S.result_path}: {e}\n")


def _materialize(session: _Session) -> None:
    """MaterializeResultPath + CreateProfDir at aclprofStart: the result directory must be
    creatable and readable/writable (100003, EK0001 with the OS's error); the session's
    ``PROF_<n>_<time>_<tag>`` folder is made in it."""
    path = _S.result_path

    def refused(op: str, err: OSError) -> ApiError:
        reason = f"The operation {op} on directory {path} is abnormal. [Error {err.errno}] {err.strerror}"
        return ApiError(E.ACL_ERROR_INVALID_FILE, _ek_value(path, "path of profiling output", reason))

    try:
        os.makedirs(path, exist_ok=True)
    except OSError as e:
        raise refused("create dir", e) from None
    if not os.access(path, os.R_OK | os.W_OK | os.X_OK):
        raise refused("access", PermissionError(13, "Permission denied"))
    now = time.time()
    session.stamp = time.strftime("%Y%m%d%H%M%S", time.localtime(now)) + f"{int(now * 1000) % 1000:03d}"
    tag = "".join(random.choices(string.ascii_uppercase, k=16))
    _S.sessions += 1  # startIndex_
    session.folder = Path(path) / f"PROF_{_S.sessions:06d}_{session.stamp}_{tag}"
    try:
        session.folder.mkdir()
    except OSError as e:
        raise refused("create dir", e) from None


def _write(session: _Session) -> str:
    folder = session.folder / "mindstudio_profiler_output"
    folder.mkdir(parents=True, exist_ok=True)
    doc = profile_document(session)
    out = folder / f"msprof_{session.stamp[:14]}.json"
    out.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    return str(out)


def profile_document(session: _Session) -> dict[str, Any]:
    """The session's timeline, cut to the configured data types, with the stamps added."""
    doc = session.recorder.document()
    types = session.config.data_types
    keep_api = bool(types & _API_BITS)
    keep_tasks = bool(types & _TASK_BITS)
    keep_tx = bool(types & ACL_PROF_MSPROFTX)
    events: list[dict[str, Any]] = doc["traceEvents"]
    stamps = _stamp_events(events, session.records) if keep_tx else []
    kept: list[dict[str, Any]] = []
    flows: dict[int, list[dict[str, Any]]] = {}
    for ev in events:
        pid = ev.get("pid")
        if ev["ph"] in ("s", "f"):
            flows.setdefault(ev["id"], []).append(ev)
            continue
        if ev["ph"] == "M" or (pid == _timeline.HOST_PID and keep_api) or (pid == _timeline.DEVICE_PID and keep_tasks):
            kept.append(ev)
    for pair in flows.values():  # a flow is kept when both of its ends are
        ends = {e["pid"] for e in pair}
        if (_timeline.HOST_PID not in ends or keep_api) and (_timeline.DEVICE_PID not in ends or keep_tasks):
            kept.extend(pair)
    doc["traceEvents"] = kept + stamps
    doc["otherData"]["profiler"] = {
        "dataTypeConfig": f"0x{types:x}",
        "devices": session.config.devices[:-1],
        "source": "aclnn_py timeline (CANN writes binary PROF_* data that msprof parses)",
    }
    return doc


def _stamp_events(events: list[dict[str, Any]], records: list[tuple[str, str, str, int]]) -> list[dict[str, Any]]:
    """The msproftx events: each successful stamp call is the n-th such call of its thread's host
    row, and the n-th record of that thread holds its message."""
    rows: dict[int, str] = {}
    for ev in events:
        if ev["ph"] == "M" and ev["name"] == "thread_name" and ev["pid"] == _timeline.HOST_PID:
            name = ev["args"]["name"]
            rows[ev["tid"]] = "MainThread" if name == "host" else name.removeprefix("host: ")
    apis = {"aclprofMark", "aclprofMarkEx", "aclprofPush", "aclprofPop", "aclprofRangeStart", "aclprofRangeStop"}
    calls: dict[str, list[dict[str, Any]]] = {}
    for ev in sorted(events, key=lambda e: (e.get("ts", 0), e.get("tid", 0))):
        host_call = ev["ph"] == "X" and ev.get("pid") == _timeline.HOST_PID and ev["name"] in apis
        if host_call and ev["args"].get("ret") in (0, "ACL_SUCCESS"):
            calls.setdefault(rows.get(ev["tid"], ""), []).append(ev)
    cursor: dict[str, int] = {}
    out: list[dict[str, Any]] = []
    tids: dict[str, int] = {}
    pushed: list[tuple[dict[str, Any], str, str]] = []
    ranges: dict[int, tuple[dict[str, Any], str]] = {}

    def row(name: str) -> int:
        if name not in tids:
            tid = _MSPROFTX_ROW + len(tids)
            tids[name] = tid
            label = "msproftx" if name == "MainThread" else f"msproftx: {name}"
            if name == "ranges":
                label = "msproftx ranges"
            out.append({"name": "thread_name", "ph": "M", "pid": _timeline.HOST_PID, "tid": tid,
                        "args": {"name": label}})  # fmt: skip
            out.append({"name": "thread_sort_index", "ph": "M", "pid": _timeline.HOST_PID, "tid": tid,
                        "args": {"sort_index": tid}})  # fmt: skip
        return tids[name]

    for kind, thread, message, range_id in records:
        k = cursor.get(thread, 0)
        mine = calls.get(thread, [])
        if k >= len(mine):
            continue  # the call was not traced (the session ended inside it)
        cursor[thread] = k + 1
        call = mine[k]
        if kind in ("mark", "markex"):
            out.append({"name": message, "cat": "msproftx", "ph": "i", "s": "t", "ts": call["ts"],
                        "pid": _timeline.HOST_PID, "tid": row(thread), "args": {"api": call["name"]}})  # fmt: skip
        elif kind == "push":
            pushed.append((call, thread, message))
        elif kind == "pop" and pushed:
            start, who, text = pushed.pop()
            out.append({"name": text, "cat": "msproftx", "ph": "X", "ts": start["ts"],
                        "dur": call["ts"] + call["dur"] - start["ts"], "pid": _timeline.HOST_PID, "tid": row(who),
                        "args": {"api": "aclprofPush/aclprofPop"}})  # fmt: skip
        elif kind == "range-start":
            ranges[range_id] = (call, message)
        elif kind == "range-stop" and range_id in ranges:
            start, text = ranges.pop(range_id)
            out.append({"name": text, "cat": "msproftx", "ph": "X", "ts": start["ts"],
                        "dur": call["ts"] + call["dur"] - start["ts"], "pid": _timeline.HOST_PID, "tid": row("ranges"),
                        "args": {"api": "aclprofRangeStart/aclprofRangeStop", "rangeId": range_id}})  # fmt: skip
    return out


def written_files() -> list[str]:
    """The profile files the sessions of this process wrote, oldest first."""
    with _S.lock:
        return list(_S.written)


# ---------------------------------------------------------------------------------------------
# step info
# ---------------------------------------------------------------------------------------------


@c_api(INTERNAL, handle=True)
def aclprofCreateStepInfo() -> aclprofStepInfo:
    """A step-info object for aclprofGetStepTimestamp (numbered from 1)."""
    with _S.lock:
        _S.step_index += 1
        return aclprofStepInfo(_S.step_index)


@c_api(INTERNAL)
def aclprofDestroyStepInfo(stepinfo: object) -> int:
    """Release a step-info object (a null one is reported, as CANN's). C's ``void``: the Python
    function returns 0, or the code of a refusal."""
    if stepinfo is None:
        raise ApiError(E.ACL_ERROR_INVALID_PARAM, _ek_null("aclprofDestroyStepInfo", "stepInfo"))
    return E.ACL_SUCCESS


@c_api(INTERNAL)
def aclprofGetStepTimestamp(stepInfo: object, tag: int, stream: object) -> int:
    """Mark a step's start or end on a stream (each once per step-info)."""
    if stepInfo is None:
        raise ApiError(E.ACL_ERROR_INVALID_PARAM, _ek_null("aclprofGetStepTimestamp", "stepInfo"))
    if not isinstance(stepInfo, aclprofStepInfo):
        raise ApiError(
            E.ACL_ERROR_INVALID_PARAM, emu(f"aclprofGetStepTimestamp: {describe(stepInfo)} is not an aclprofStepInfo.")
        )
    which = int_arg(tag, "tag", -(2**31), 2**31 - 1)
    if stepInfo.started and which == ACL_STEP_START:
        return E.ACL_ERROR_INVALID_PARAM  # MSPROF_LOGE only
    if stepInfo.ended and which == ACL_STEP_END:
        return E.ACL_ERROR_INVALID_PARAM
    if which == ACL_STEP_START:
        stepInfo.started = True
    else:
        stepInfo.ended = True
    st = stream_handle(stream, "rtProfilerTraceEx")
    if st is not None:
        edge = "start" if which == ACL_STEP_START else "end"
        submit(st, f"aclprofGetStepTimestamp(step {stepInfo.index} {edge})", lambda: None)
    return E.ACL_SUCCESS


# ---------------------------------------------------------------------------------------------
# msproftx stamps
# ---------------------------------------------------------------------------------------------


def _tx_uninit() -> None:
    """MsprofTxUnInit (aclprofFinalize): the pool is released."""
    _S.tx_ready = False


def _stamp(address: object) -> _Stamp | None:
    """The pool entry at ``address`` (None if the address is not one the pool handed out)."""
    addr = as_pointer(address) if not isinstance(address, int) else address
    if addr is None or addr == 0:
        return None
    index, rest = divmod(addr - _S.base, _STAMP_BYTES)
    if rest or not 0 <= index < _STAMP_POOL:
        return None
    return _S.stamps.get(index)


def _require_stamp(address: object, api: str) -> _Stamp:
    stamp = _stamp(address)
    if stamp is None:
        # CANN writes through any pointer; the emulator refuses one its pool never handed out
        raise ApiError(PROFILING_FAILED, emu(f"{api}: stamp {describe(address)} is not a stamp of aclprofCreateStamp."))
    return stamp


def _record(kind: str, message: str, range_id: int = -1) -> None:
    session = _S.session
    if session is not None:
        session.records.append((kind, _thread(), message, range_id))


@c_api(INTERNAL)
def aclprofCreateStamp() -> int:
    """A stamp of the pool (100 entries), after aclprofStart with ACL_PROF_MSPROFTX: its address
    (NULL and EK0002 before that, NULL when the pool is used up)."""
    with _S.lock:
        if not _S.tx_ready:
            raise ApiError(0, _ek_order("aclprofStart", "aclprofCreateStamp"))
        if not _S.free:
            return 0  # "the number of used has reached the online": a log line only
        index = _S.free.pop(0)
        _S.stamps[index] = _Stamp(index)
        return _S.base + index * _STAMP_BYTES


@c_api(INTERNAL)
def aclprofDestroyStamp(stamp: object) -> int:
    """Return a stamp to the pool. C's ``void``: the Python function returns 0, or the code of a
    refusal."""
    if stamp is None or as_pointer(stamp) in (None, 0):
        raise ApiError(E.ACL_ERROR_INVALID_PARAM, _ek_null("aclprofDestroyStamp", "stamp"))
    with _S.lock:
        if not _S.tx_ready:
            return E.ACL_SUCCESS  # "MsprofTxManager is not inited yet": a log line only
        found = _stamp(stamp)
        if found is not None:
            del _S.stamps[found.ident]
            _S.free.insert(0, found.ident)
    return E.ACL_SUCCESS


@c_api(INTERNAL)
def aclprofSetStampTraceMessage(stamp: object, msg: str | bytes | None, msgLen: int) -> int:
    """The stamp's message (at most 127 bytes)."""
    if stamp is None or as_pointer(stamp) in (None, 0):
        raise ApiError(PROFILING_FAILED, _ek_null("aclprofSetStampTraceMessage", "stamp"))
    n = int_arg(msgLen, "msgLen", 0, 2**32 - 1)
    if n >= _MAX_MSG_LEN:  # CANN reports this as EK0006 on "stamp"
        raise ApiError(PROFILING_FAILED, _ek_null("aclprofSetStampTraceMessage", "stamp"))
    text = _string(msg)
    if text is None:
        return PROFILING_FAILED  # strncpy_s fails: a log line only
    with _S.lock:
        found = _require_stamp(stamp, "aclprofSetStampTraceMessage")
        found.message = text.encode("utf-8")[:n].decode("utf-8", "replace")
    return E.ACL_SUCCESS


@c_api(INTERNAL)
def aclprofMark(stamp: object) -> int:
    """An instant event with the stamp's message."""
    with _S.lock:
        if not _S.tx_ready:
            return PROFILING_FAILED
        if stamp is None or as_pointer(stamp) in (None, 0):
            raise ApiError(PROFILING_FAILED, _ek_null("aclprofMark", "stamp"))
        found = _require_stamp(stamp, "aclprofMark")
        _record("mark", found.message)
    return E.ACL_SUCCESS


@c_api(INTERNAL)
def aclprofMarkEx(msg: str | bytes | None, msgLen: int, stream: object) -> int:
    """An instant event with ``msg``, also put on ``stream`` as a marker task."""
    with _S.lock:
        if not _S.tx_ready:
            return PROFILING_FAILED
    text = _string(msg)
    n = int_arg(msgLen, "msgLen", 0, 2**64 - 1)
    if text is None or stream is None or as_pointer(stream) == 0 or len(text.encode("utf-8")) != n:
        raise ApiError(PROFILING_FAILED, _ek_value("nullptr", "message", "Invalid input param for markEx"))
    if n > _MAX_MSG_LEN - 1 or n < 1:
        return PROFILING_FAILED
    st = stream_handle(stream, "rtProfilerTraceEx")
    if st is not None:
        submit(st, f"aclprofMarkEx({text})", lambda: None)
    with _S.lock:
        _record("markex", text)
    return E.ACL_SUCCESS


@c_api(INTERNAL)
def aclprofPush(stamp: object) -> int:
    """Open a slice with the stamp's message (closed by aclprofPop)."""
    with _S.lock:
        if not _S.tx_ready:
            return PROFILING_FAILED
        if stamp is None or as_pointer(stamp) in (None, 0):
            raise ApiError(PROFILING_FAILED, _ek_null("aclprofPush", "stamp"))
        found = _require_stamp(stamp, "aclprofPush")
        _S.stack.append(found)
        _record("push", found.message)
    return E.ACL_SUCCESS


@c_api(INTERNAL)
def aclprofPop() -> int:
    """Close the slice of the last aclprofPush (one stack for the process, as CANN's)."""
    with _S.lock:
        if not _S.tx_ready:
            return PROFILING_FAILED
        if not _S.stack:
            raise ApiError(PROFILING_FAILED, _ek_order("aclprofPush", "aclprofPop"))
        found = _S.stack.pop()
        _record("pop", found.message)
    return E.ACL_SUCCESS


@c_api(INTERNAL)
def aclprofRangeStart(stamp: object, rangeId: object) -> int:
    """Open a range with the stamp's message; ``*rangeId`` names it for aclprofRangeStop."""
    with _S.lock:
        if not _S.tx_ready:
            raise ApiError(PROFILING_FAILED, _ek_order("aclprofStart", "aclprofRangeStart"))
    if stamp is None or as_pointer(stamp) in (None, 0):
        raise ApiError(E.ACL_ERROR_INVALID_PARAM, _ek_null("aclprofRangeStart", "stamp"))
    if rangeId is None:
        raise ApiError(E.ACL_ERROR_INVALID_PARAM, _ek_null("aclprofRangeStart", "rangeId"))
    with _S.lock:
        found = _require_stamp(stamp, "aclprofRangeStart")
        found.enabled = True
        _store(rangeId, found.ident)
        _record("range-start", found.message, found.ident)
    return E.ACL_SUCCESS


def _store(out: object, value: int) -> None:
    if isinstance(out, (Ref, ctypes._SimpleCData)):
        out.value = value
    else:
        raise ApiError(
            E.ACL_ERROR_INVALID_PARAM, emu(f"aclprofRangeStart: rangeId must be an out-parameter, got {describe(out)}.")
        )


@c_api(INTERNAL)
def aclprofRangeStop(rangeId: int) -> int:
    """Close the range ``rangeId``."""
    with _S.lock:
        if not _S.tx_ready:
            raise ApiError(PROFILING_FAILED, _ek_order("aclprofStart", "aclprofRangeStop"))
        ident = int_arg(rangeId, "rangeId", 0, 2**32 - 1)
        found = _S.stamps.get(ident) if ident < _STAMP_POOL else None
        if found is None or not found.enabled:
            raise ApiError(PROFILING_FAILED, _ek_order("aclprofRangeStart", "aclprofRangeStop"))
        _record("range-stop", found.message, ident)
    return E.ACL_SUCCESS


@c_api(INTERNAL)
def aclprofStr2Id(message: str | bytes | None) -> int:
    """A 64-bit id for a message (CANN hashes the text; aclnn_py uses FNV-1a, stable across runs)."""
    text = _string(message) or ""
    h = 0xCBF29CE484222325
    for byte in text.encode("utf-8"):
        h = ((h ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


@contextlib.contextmanager
def profiling(
    path: str, data_types: int = ACL_PROF_ACL_API | ACL_PROF_TASK_TIME, devices: Sequence[int] = (0,)
) -> Iterator[None]:
    """A Python convenience: aclprofInit / CreateConfig / Start around a block, Stop / Destroy /
    Finalize after it (the profile lands under ``path``)."""
    if aclprofInit(path, len(path.encode("utf-8"))) != 0:
        raise RuntimeError(f"aclprofInit failed for {path}")
    config = aclprofCreateConfig(list(devices), len(devices), 0, None, data_types)
    if config is None or aclprofStart(config) != 0:
        aclprofFinalize()
        raise RuntimeError("aclprofStart failed")
    try:
        yield
    finally:
        aclprofStop(config)
        aclprofDestroyConfig(config)
        aclprofFinalize()


def reset() -> None:
    """Forget every profiler state without writing anything (test isolation; not a CANN call)."""
    with _S.lock:
        if _S.session is not None:
            _S.session.block.close()
        _S.__init__()  # type: ignore[misc]
