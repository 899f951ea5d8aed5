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

The chapter is four modules: this one (init/finalize, the configurations, sessions, step info),
:mod:`.api_prof_tx` (the msproftx stamps), :mod:`.prof_file` (the session's folder and the JSON it
writes) and :mod:`.prof_state` (the constants, EK messages, objects and the process's state).
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import sys
from collections.abc import Iterator, Sequence

from .. import trace as _trace
from .._capi import ApiError, as_pointer, c_api, describe
from ._checks import INTERNAL, E, emu, int_arg, stream_handle, submit
from .api_prof_tx import _tx_uninit
from .device import RT
from .prof_file import _materialize, _write
from .prof_state import (
    _CONFIG_MAX_LEN,
    _PATH_MAX_LEN,
    _PROF_AICPU_MODEL,
    _PROF_SWITCH_SUPPORT,
    _PROF_TASK_TIME,
    _PROF_TASK_TIME_L1,
    _PROF_TASK_TIME_L2,
    _S,
    ACL_PROF_ACL_API,
    ACL_PROF_API_STATS,
    ACL_PROF_ARGS_MAX,
    ACL_PROF_ARGS_MIN,
    ACL_PROF_MSPROFTX,
    ACL_PROF_OP_ATTR,
    ACL_PROF_PATH,
    ACL_PROF_TASK_TIME,
    ACL_PROF_TASK_TIME_L3,
    ACL_PROF_TRAINING_TRACE,
    ACL_STEP_END,
    ACL_STEP_START,
    HOST_ID,
    PROF_MAX_DEV_NUM,
    _ek_null,
    _ek_order,
    _ek_value,
    _Session,
    _string,
    aclprofConfig,
    aclprofStepInfo,
)

# ---------------------------------------------------------------------------------------------
# init / finalize / set config
# ---------------------------------------------------------------------------------------------


def _subscribing() -> bool:
    """ProfAclMgr's WORK_MODE_SUBSCRIBE: a model subscription began while the profiler was off
    (and lasts until the last one ends, prof_acl_mgr.cpp:1747-1749, :3458-3461); aclprofInit,
    aclprofStart and aclprofFinalize then conflict (148047, prof_acl_mgr.cpp:525-566)."""
    if _S.mode != "off":
        return False
    sub = sys.modules.get(f"{__package__}.api_prof_sub")
    return sub is not None and bool(sub._SUB.subs)


# Utils::CheckPathWithInvalidChar's INVALID_CHAR (src/dfx/msprof/collector/dvvp/common/utils/utils.cpp)
_INVALID_PATH_CHARS = "\n\f\r\b\t\v\x7f\"'\\%><|&$;`"


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
        if _subscribing():  # ProfInitPrecheck: "conflict with other api mode", a log line only
            return E.ACL_ERROR_PROF_API_CONFLICT
        if any(ch in os.path.abspath(path) for ch in _INVALID_PATH_CHARS):
            # ProfAclMgr::ProfAclInit -> Utils::CheckPathWithInvalidChar on the absolute path
            # (prof_acl_mgr.cpp:862, common/utils/utils.cpp:1625-1638): MSPROF_LOGE only
            return E.ACL_ERROR_INVALID_FILE
        _init(path)
    return E.ACL_SUCCESS


@c_api(INTERNAL)
def aclprofFinalize() -> int:
    """End the profiler's API mode: a running session is stopped (its data written), the stamps
    are released. Without aclprofInit it is a no-op that succeeds, as CANN's."""
    with _S.lock:
        if _subscribing():  # IsInited, then ProfFinalizePrecheck: a log line only
            return E.ACL_ERROR_PROF_API_CONFLICT
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
# sessions: start and stop (the file they write is prof_file's)
# ---------------------------------------------------------------------------------------------


@c_api(INTERNAL)
def aclprofStart(profilerConfig: object) -> int:
    """Start collecting: from now on the timeline records every call and task until aclprofStop
    (without aclprofInit the profiler initialises itself with ACL_PROF_PATH or ``./``)."""
    config = _default_config() if profilerConfig is None else _config(profilerConfig, "aclprofStart")
    _precheck(config)
    with _S.lock:
        if _subscribing():  # AutoInitForStartIfNeeded does nothing, ProfStartPrecheck: a log line only
            return E.ACL_ERROR_PROF_API_CONFLICT
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
    for chapter in ("api_prof_sub", "api_prof_range_ex"):  # subscriptions, the pushed tensor info
        module = sys.modules.get(f"{__package__}.{chapter}")
        if module is not None:  # a chapter never loaded holds nothing
            module.reset()


__all__ = [
    "aclprofCreateConfig",
    "aclprofCreateStepInfo",
    "aclprofDestroyConfig",
    "aclprofDestroyStepInfo",
    "aclprofFinalize",
    "aclprofGetStepTimestamp",
    "aclprofInit",
    "aclprofSetConfig",
    "aclprofStart",
    "aclprofStop",
]
