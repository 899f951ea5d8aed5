"""The profiler's shared part (``acl/acl_prof.h``): its constants, its EK messages, the
configuration, step-info and stamp objects, and the process's profiler state.

:mod:`.api_prof` (sessions and configurations), :mod:`.api_prof_tx` (the msproftx stamps) and
:mod:`.prof_file` (the profile a session writes) all work on the one :data:`_S` kept here.
"""

from __future__ import annotations

import contextlib
import ctypes
import threading
from pathlib import Path

from .. import timeline as _timeline

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


__all__ = [
    "ACL_PROF_ACL_API",
    "ACL_PROF_AICORE_METRICS",
    "ACL_PROF_AICPU",
    "ACL_PROF_API_STATS",
    "ACL_PROF_HCCL_TRACE",
    "ACL_PROF_L2CACHE",
    "ACL_PROF_MSPROFTX",
    "ACL_PROF_OP_ATTR",
    "ACL_PROF_PATH",
    "ACL_PROF_RUNTIME_API",
    "ACL_PROF_STORAGE_LIMIT",
    "ACL_PROF_TASK_MEMORY",
    "ACL_PROF_TASK_TIME",
    "ACL_PROF_TASK_TIME_L0",
    "ACL_PROF_TASK_TIME_L2",
    "ACL_PROF_TASK_TIME_L3",
    "ACL_PROF_TRAINING_TRACE",
    "ACL_STEP_END",
    "ACL_STEP_START",
    "aclprofConfig",
    "aclprofStepInfo",
]
