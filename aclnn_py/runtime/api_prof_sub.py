"""Model subscription, ``acl/acl_prof.h``: aclprofModelSubscribe / aclprofModelUnSubscribe, the
subscription configuration, and the readers of the op records a subscription writes.

In CANN (hicann/runtime ``src/dfx/msprof``: ``prof_api_common.cpp``, ``msprofiler_acl_api.cpp``,
``prof_acl_mgr.cpp``, ``parser_transport.cpp``, ``op_desc_parser.cpp``) a subscription to a loaded
model sends, for every operator the model runs, one fixed-size ``ProfOpDesc`` record (80 bytes on
LP64) down the pipe whose write end the program gave in aclprofCreateSubscribeConfig; the program
reads the pipe and decodes the records with the readers (aclprofGetOpNum, aclprofGetOpType ...).
A record carries a signature (a CRC-32C of the rest of the record, without the final inversion),
the model id, a flag (ACL_SUBSCRIBE_OP), the thread id, an index into the profiler's table of op
types and names (each string can be fetched once: CANN erases it as it hands it out), the duration,
start and end (microseconds), the execution time and the device id. aclprofModelUnSubscribe closes
the write end (when no other subscription shares it) and sets the program's fd to -1, so a reader
thread sees the end of the pipe.

aclnn_py does the same for its model runtime instances (``aclmdlRI``): the model id is
aclmdlRIGetId's, and every kernel an execution of a subscribed model runs is written to the pipe,
with the aclnn kernel's op type (``Add``), an op name ``<api>_<op type>_<kernel index>`` (the name
the data dump gives it), and times on the clock event timestamps use (microseconds since the
device started). ``start`` is when the kernel was queued or its stream became free, whichever is
later, and ``end`` when it finished, so the duration is CANN's "schedule time + execution time".
An id registered with MsprofSetDeviceIdByGeModelIdx (GE's model loader calls it; hicann/runtime's
``profiling/2_subscribe_model`` calls it to stand in for aclmdlLoadFromFile) can be subscribed too;
aclnn_py loads no GE models, so nothing runs under such an id and nothing is written for it.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import re
import struct
import threading
from typing import Any

from .. import trace as _trace
from .._capi import ApiError, c_api, describe
from .._ref import store
from ._checks import INTERNAL, E, emu, int_arg
from .device import RT
from .prof_state import _S, _ek_null, _ek_order, _ek_value
from .stream import FINISH_HOOKS, Task, now_ns

# aclprofSubscribeOpFlag / aclprofSubscribeOpAttri
ACL_SUBSCRIBE_OP = 0
ACL_SUBSCRIBE_SUBGRAPH = 1
ACL_SUBSCRIBE_OP_THREAD = 2
ACL_SUBSCRIBE_NONE = 0xFF
ACL_SUBSCRIBE_ATTRI_THREADID = 0
ACL_SUBSCRIBE_ATTRI_NONE = 1
# aclprofAicoreMetrics
ACL_AICORE_ARITHMETIC_UTILIZATION = 0
ACL_AICORE_PIPE_UTILIZATION = 1
ACL_AICORE_MEMORY_BANDWIDTH = 2
ACL_AICORE_L0B_AND_WIDTH = 3
ACL_AICORE_RESOURCE_CONFLICT_RATIO = 4
ACL_AICORE_MEMORY_UB = 5
ACL_AICORE_L2_CACHE = 6
ACL_AICORE_PIPE_EXECUTE_UTILIZATION = 7
ACL_AICORE_MEMORY_ACCESS = 8
ACL_AICORE_NONE = 0xFF

# struct ProfOpDesc (data_struct.h): signature, modelId, flag, threadId (uint32); opIndex, duration,
# start, end, executionTime, cubeFops, vectorFops (uint64); devId (uint32), padded to 8 bytes
_DESC = struct.Struct("<4I7QI4x")
OP_DESC_SIZE = _DESC.size  # 80: what aclprofGetOpDescSize answers
_U32 = 0xFFFFFFFF


def _crc32c_table() -> tuple[int, ...]:
    """The byte table of CRC-32C (reflected polynomial 0x82F63B78), CANN's signature table."""
    table = []
    for n in range(256):
        c = n
        for _ in range(8):
            c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
        table.append(c)
    return tuple(table)


_TABLE = _crc32c_table()


def signature(data: bytes) -> int:
    """Utils::GenerateSignature: CRC-32C from ~0 with no final inversion."""
    sig = _U32
    for byte in data:
        sig = _TABLE[(sig ^ byte) & 0xFF] ^ (sig >> 8)
    return sig


class aclprofSubscribeConfig:
    """``aclprofSubscribeConfig``: the time-info switch, AI Core metrics and the pipe's fd holder."""

    __slots__ = ("destroyed", "fd", "metrics", "time_info")

    def __init__(self, time_info: int, metrics: int, fd: Any) -> None:
        self.time_info = time_info
        self.metrics = metrics
        self.fd = fd  # the program's int holding the write end (CANN keeps the pointer)
        self.destroyed = False

    def __repr__(self) -> str:
        return f"<aclprofSubscribeConfig timeInfo={self.time_info} fd={_fd_value(self.fd)}>"


class _Subscription:
    __slots__ = ("device", "fd", "holder")

    def __init__(self, device: int, holder: Any, fd: int) -> None:
        self.device = device
        self.holder = holder
        self.fd = fd


class _SubState:
    def __init__(self) -> None:
        self.lock = threading.RLock()
        self.ge_models: dict[int, int] = {}  # MsprofSetDeviceIdByGeModelIdx: model id -> device
        self.subs: dict[int, _Subscription] = {}  # model id -> its subscription
        self.types: dict[int, str] = {}  # opIndex -> op type, until read (OpDescParser)
        self.names: dict[int, str] = {}
        self.index = 0
        self.queued: dict[int, int] = {}  # task seq -> when it was queued (ns)
        self.free_at: dict[int, int] = {}  # stream -> when its last task ended (ns)
        self.sink: _QueueSink | None = None


_SUB = _SubState()

_MODEL_KERNEL = re.compile(r"^<aclmdlRI #(?P<model>\d+)>: (?P<api>.+): kernel #(?P<index>\d+) (?P<op>\S+)")


def _fd_value(holder: Any) -> int | None:
    value = getattr(holder, "value", None)
    return value if isinstance(value, int) else None


# ---------------------------------------------------------------------------------------------
# the records: written as the subscribed models' kernels finish
# ---------------------------------------------------------------------------------------------


class _QueueSink(_trace._TimelineSink):
    """Hears when tasks are queued while a subscription exists (a timeline sink, because the trace
    hands task numbers to timeline sinks only); the record is written by :func:`_finished`."""

    def __init__(self) -> None:
        super().__init__(None)  # type: ignore[arg-type]  # no recorder: submit and emit are our own

    def submit(self, stream: int, seq: int | None, label: str) -> None:
        if seq is not None and ": kernel #" in label:
            with _SUB.lock:
                _SUB.queued[seq] = now_ns()

    def emit(self, event: dict[str, Any]) -> None:
        pass


def _finished(task: Task) -> None:
    """A task ran (or was dropped): a subscribed model's kernel that ran writes its record. A
    stream hook, run before the task counts as done, so a synchronize that returns has seen the
    records of what it waited for; the write happens under the lock aclprofModelUnSubscribe closes
    the fd under, so it never reaches a closed (or reused) descriptor."""
    if not _SUB.subs:
        return
    end = now_ns()
    stream = task.stream
    with _SUB.lock:
        queued = _SUB.queued.pop(task.seq, end)
        start = max(queued, _SUB.free_at.get(stream.ident, 0))
        _SUB.free_at[stream.ident] = end
        m = _MODEL_KERNEL.match(task.label)
        if m is None or stream.error is not None:  # faulted or dropped: it did not run to its end
            return
        sub = _SUB.subs.get(int(m.group("model")))
        if sub is None:
            return
        record = _record(int(m.group("model")), sub.device, m.group("op"), _op_name(m), start, end)
        with contextlib.suppress(OSError):  # CANN logs a failed write (a closed pipe, a bad fd), drops the record
            os.write(sub.fd, record)


FINISH_HOOKS.append(_finished)


def _op_name(m: re.Match[str]) -> str:
    name = f"{m.group('api')}_{m.group('op')}_{m.group('index')}"
    return "".join("_" if c in "/\\. " else c for c in name)


def _record(model: int, device: int, op_type: str, op_name: str, start_ns: int, end_ns: int) -> bytes:
    """One ProfOpDesc, its type and name entered in the table (OpDescParser::SetOpTypeAndOpName)."""
    _SUB.index += 1
    _SUB.types[_SUB.index] = op_type
    _SUB.names[_SUB.index] = op_name
    start = max(0, start_ns - RT.start_ns) // 1000
    end = max(start, (end_ns - RT.start_ns) // 1000)
    body = _DESC.pack(0, model, ACL_SUBSCRIBE_OP, 0, _SUB.index, end - start, start, end, end - start, 0, 0, device)
    return struct.pack("<I", signature(body[4:])) + body[4:]


def _listen(on: bool) -> None:
    """Put the record sink among the trace's sinks while any subscription exists."""
    if on and _SUB.sink is None:
        _SUB.sink = _QueueSink()
        _trace._sinks.append(_SUB.sink)
    elif not on and _SUB.sink is not None:
        _trace._sinks.remove(_SUB.sink)
        _SUB.sink = None
        _SUB.queued.clear()
    _trace._refresh()


# ---------------------------------------------------------------------------------------------
# model registration, configuration, subscribe / unsubscribe
# ---------------------------------------------------------------------------------------------


@c_api(INTERNAL)
def MsprofSetDeviceIdByGeModelIdx(geModelIdx: int, deviceId: int) -> int:
    """Register a model id and its device (what GE's model loader tells the profiler;
    ``profiling/aprof_pub.h``). Returns 0."""
    idx = int_arg(geModelIdx, "geModelIdx", 0, _U32)
    dev = int_arg(deviceId, "deviceId", 0, _U32)
    with _SUB.lock:
        _SUB.ge_models[idx] = dev
    return 0


@c_api(INTERNAL)
def MsprofUnsetDeviceIdByGeModelIdx(geModelIdx: int, deviceId: int) -> int:
    """Forget a registered model id (GE calls it when the model unloads). Returns 0."""
    idx = int_arg(geModelIdx, "geModelIdx", 0, _U32)
    int_arg(deviceId, "deviceId", 0, _U32)
    with _SUB.lock:
        _SUB.ge_models.pop(idx, None)
    return 0


_C_TABLE: list[Any] = []  # the C library's registration lookup, once looked for


def _c_registered(model_id: int) -> int | None:
    """The device a C program registered ``model_id`` with (capi/src/aprof.c), if the process is one."""
    if not _C_TABLE:
        try:
            _C_TABLE.append(ctypes.CDLL(None).aclnn_py_ge_model_device)
        except (AttributeError, OSError):  # plain Python: no C library in the process
            _C_TABLE.append(None)
    lookup = _C_TABLE[0]
    if lookup is None:
        return None
    device = ctypes.c_uint32()
    return int(device.value) if lookup(ctypes.c_uint32(model_id), ctypes.byref(device)) == 0 else None


def _model_device(model_id: int) -> int | None:
    """ProfGetDeviceIdByGeModelIdx: the device of a registered id or of a live aclmdlRI."""
    from .model_ri import LIVE_MODELS

    if model_id in _SUB.ge_models:
        return _SUB.ge_models[model_id]
    registered = _c_registered(model_id)
    if registered is not None:
        return registered
    for model in list(LIVE_MODELS):
        if model.ident == model_id and not model.destroyed:
            return int(model.context.device.ident)
    return None


def _model_id(modelId: object) -> tuple[int, int]:
    """ProfCheckModelLoaded: the id and its device, or 100011 (EK0001)."""
    mid = int_arg(modelId, "modelId", 0, _U32)
    device = _model_device(mid)
    if device is None:
        raise ApiError(E.ACL_ERROR_INVALID_MODEL_ID, _ek_value(mid, "modelId", "The model ID does not exists"))
    return mid, device


@c_api(INTERNAL, handle=True)
def aclprofCreateSubscribeConfig(timeInfoSwitch: int, aicoreMetrics: int, fd: object) -> aclprofSubscribeConfig | None:
    """A subscription configuration: ``timeInfoSwitch`` 0 or 1, the metrics, and ``fd`` the
    program's int holding the pipe's write end (C: ``&fds[1]``; Python: a Ref or ctypes.c_int).
    NULL (None) for a NULL fd (EK0006) or a switch out of range."""
    if fd is None:
        raise ApiError(E.ACL_ERROR_INVALID_PARAM, _ek_null("aclprofCreateSubscribeConfig", "fd"))
    switch = int_arg(timeInfoSwitch, "timeInfoSwitch", -128, 127)
    if switch not in (0, 1):  # prof_api_common.cpp: MSPROF_LOGE only, NULL
        return None
    metrics = int_arg(aicoreMetrics, "aicoreMetrics", -(2**31), 2**31 - 1)
    if _fd_value(fd) is None:
        raise ApiError(
            E.ACL_ERROR_INVALID_PARAM,
            emu(f"aclprofCreateSubscribeConfig: fd is {describe(fd)}, not a Ref or ctypes int holding a descriptor."),
        )
    return aclprofSubscribeConfig(switch, metrics, fd)


def _live_config(obj: object, api: str) -> aclprofSubscribeConfig:
    if not isinstance(obj, aclprofSubscribeConfig) or obj.destroyed:
        # CANN dereferences whatever it is given; the emulator refuses what it never made
        raise ApiError(E.ACL_ERROR_INVALID_PARAM, emu(f"{api}: {describe(obj)} is not a live aclprofSubscribeConfig."))
    return obj


@c_api(INTERNAL)
def aclprofDestroySubscribeConfig(profSubscribeConfig: object) -> int:
    """Free a subscription configuration (a subscription made with it goes on: CANN copied what it needs)."""
    if profSubscribeConfig is None:  # prof_api_common.cpp: MSPROF_LOGE only
        return E.ACL_ERROR_INVALID_PARAM
    _live_config(profSubscribeConfig, "aclprofDestroySubscribeConfig").destroyed = True
    return E.ACL_SUCCESS


def _subscribe_precheck() -> None:
    """ProfAclMgr::ProfSubscribePrecheck: the profiler must not be in aclprofInit's API mode."""
    if _S.mode == "api":
        raise ApiError(
            E.ACL_ERROR_PROF_API_CONFLICT,
            ("EK0007", "Failed to start Profiling in subscribe mode because it is already in aclapi mode."),
        )


@c_api(INTERNAL)
def aclprofModelSubscribe(modelId: int, profSubscribeConfig: object) -> int:
    """Send the op records of model ``modelId`` down the configuration's pipe, in CANN's order of
    checks: the model loaded (100011, EK0001), the configuration (EK0006), the profiler not in
    aclprofInit's API mode (148047, EK0007), the time-info switch on (EK0001), not yet subscribed
    (148046)."""
    with _SUB.lock, _S.lock:
        mid, device = _model_id(modelId)
        if profSubscribeConfig is None:
            raise ApiError(E.ACL_ERROR_INVALID_PARAM, _ek_null("aclprofModelSubscribe", "profSubscribeConfig"))
        config = _live_config(profSubscribeConfig, "aclprofModelSubscribe")
        _subscribe_precheck()
        if not config.time_info and config.metrics == ACL_AICORE_NONE:  # CheckSubscribeConfig
            raise ApiError(
                E.ACL_ERROR_INVALID_PARAM,
                _ek_value(
                    config.time_info,
                    "timeInfo of aclprofCreateSubscribeConfig",
                    "Set the timeInfo switch to 1 if you want to receive subscribe information",
                ),
            )
        if mid in _SUB.subs:
            raise ApiError(
                E.ACL_ERROR_PROF_REPEAT_SUBSCRIBE,
                emu(f"aclprofModelSubscribe: model id {mid} has been subscribed."),
            )
        fd = _fd_value(config.fd)
        if fd is None:
            raise ApiError(E.ACL_ERROR_INVALID_PARAM, emu("aclprofModelSubscribe: the configuration's fd is gone."))
        _SUB.subs[mid] = _Subscription(device, config.fd, fd)
        _listen(True)
    return E.ACL_SUCCESS


@c_api(INTERNAL)
def aclprofModelUnSubscribe(modelId: int) -> int:
    """End a model's subscription: its pipe's write end is closed (unless another subscription
    writes to the same fd) and the program's fd set to -1, as CANN's CloseSubscribeFd does."""
    with _SUB.lock:
        mid, _device = _model_id(modelId)
        _subscribe_precheck()  # PrepareStopAclSubscribe: before the subscription is looked up
        sub = _SUB.subs.pop(mid, None)
        if sub is None:
            raise ApiError(E.ACL_ERROR_INVALID_MODEL_ID, _ek_order("aclprofModelSubscribe", "aclprofModelUnSubscribe"))
        if not any(other.fd == sub.fd for other in _SUB.subs.values()):
            with contextlib.suppress(OSError):  # CANN reports EK9999 in its log and goes on
                os.close(sub.fd)
            with contextlib.suppress(AttributeError, TypeError):
                sub.holder.value = -1
        _listen(bool(_SUB.subs))
    return E.ACL_SUCCESS


# ---------------------------------------------------------------------------------------------
# the readers (OpDescParser): a buffer of records read from the pipe
# ---------------------------------------------------------------------------------------------


class _Bad(Exception):
    """A reader's failed check (CANN logs it; the reader returns its failure value)."""


def _data(opInfo: object, opInfoLen: object, api: str) -> bytes:
    """The buffer's bytes, checked as CheckData does: a whole number of records, each signed. The
    length is CANN's ``uint32_t len`` (a size_t truncated)."""
    if opInfo is None:
        raise _Bad(f"{api}: opInfo is nullptr.")
    n = int_arg(opInfoLen, "opInfoLen", 0, 2**64 - 1) & _U32
    if n % OP_DESC_SIZE:
        raise _Bad(f"{api}: Length of data: {n} bytes is not [integer multiple] of OpDescSize: {OP_DESC_SIZE}.")
    data = _read(opInfo, n, api)
    for i in range(n // OP_DESC_SIZE):
        rec = data[i * OP_DESC_SIZE : (i + 1) * OP_DESC_SIZE]
        if struct.unpack_from("<I", rec)[0] != signature(rec[4:]):
            raise _Bad(f"{api}: Part {i} of data is invalid.")
    return data


def _read(opInfo: object, n: int, api: str) -> bytes:
    if isinstance(opInfo, int) and not isinstance(opInfo, bool):
        return ctypes.string_at(opInfo, n) if n else b""  # the C ABI: the program's buffer
    try:
        view = memoryview(opInfo).cast("B")  # type: ignore[arg-type]
    except TypeError:
        raise ApiError(
            E.ACL_ERROR_INVALID_PARAM, emu(f"{api}: opInfo is {describe(opInfo)}, not a buffer of records.")
        ) from None
    if len(view) < n:
        raise ApiError(E.ACL_ERROR_INVALID_PARAM, emu(f"{api}: opInfoLen is {n}, the buffer holds {len(view)} bytes."))
    return bytes(view[:n])


def _desc(data: bytes, index: object, api: str) -> tuple[int, ...]:
    """CHECK_INDEX_RET, then the record's fields."""
    i = int_arg(index, "index", 0, _U32)
    if i + 1 > _U32 or (i + 1) * OP_DESC_SIZE > len(data):
        raise _Bad(f"{api}: Index {i} is out of range {len(data)}.")
    return _DESC.unpack_from(data, i * OP_DESC_SIZE)


def _log(api_error: _Bad) -> ApiError:
    """OpDescParser's refusals are MSPROF_LOGE lines (the _Bad's text): 100000 without a report."""
    return ApiError(E.ACL_ERROR_INVALID_PARAM)


@c_api(INTERNAL)
def aclprofGetOpDescSize(opDescSize: object) -> int:
    """The size of one op record (80)."""
    if opDescSize is None:  # prof_api_common.cpp: "Invalid param of ProfGetOpDescSize", a log only
        return E.ACL_ERROR_INVALID_PARAM
    store(opDescSize, OP_DESC_SIZE)
    return E.ACL_SUCCESS


@c_api(INTERNAL)
def aclprofGetOpNum(opInfo: object, opInfoLen: int, opNumber: object) -> int:
    """How many records the buffer holds."""
    try:
        if opNumber is None:
            raise _Bad("aclprofGetOpNum: Invalid param of GetOpNum.")
        data = _data(opInfo, opInfoLen, "aclprofGetOpNum")
    except _Bad as bad:
        raise _log(bad) from None
    store(opNumber, len(data) // OP_DESC_SIZE)
    return E.ACL_SUCCESS


def _string_len(table: dict[int, str], what: str, api: str, opInfo: object, opInfoLen: object, index: object) -> int:
    try:
        desc = _desc(_data(opInfo, opInfoLen, api), index, api)
    except _Bad as bad:
        raise _log(bad) from None
    with _SUB.lock:
        text = table.get(desc[4])
    if text is None:  # "Failed to get op <what> len of <id>, maybe it has been got already.": a log only
        raise ApiError(E.ACL_ERROR_INVALID_PARAM)
    return len(text.encode()) + 1


def _string(
    table: dict[int, str], what: str, api: str, opInfo: object, opInfoLen: object, index: object, out: object, n: object
) -> int:
    size = int_arg(n, f"op{what.title()}Len", 0, 2**64 - 1) & _U32  # CANN's uint32_t length
    try:
        if out is None or size == 0:
            raise _Bad(f"{api}: Invalid param of GetOp{what.title()}.")
        desc = _desc(_data(opInfo, opInfoLen, api), index, api)
    except _Bad as bad:
        raise _log(bad) from None
    with _SUB.lock:
        text = table.get(desc[4])
        if text is None:  # "Failed to get op <what> of <id>, maybe it has been got already.": a log only
            raise ApiError(E.ACL_ERROR_INVALID_PARAM)
        raw = text.encode()
        if len(raw) > size:
            # memcpy_s refuses a copy longer than destMax and zeroes the destMax bytes (securec's
            # ERANGE_AND_RESET); the op's text stays in the table; a log at most
            _zero(out, size)
            raise ApiError(E.ACL_ERROR_INVALID_PARAM)
        _put(out, raw, size)
        del table[desc[4]]  # handed out once (OpDescParser erases it)
    return E.ACL_SUCCESS


def _zero(out: object, size: int) -> None:
    """memset(out, 0, size) of a buffer (a Ref gets the empty string C would read)."""
    if isinstance(out, (bytearray, ctypes.Array)):
        buf = memoryview(out).cast("B")
        buf[: min(size, len(buf))] = bytes(min(size, len(buf)))
    else:
        store(out, "")


def _put(out: object, raw: bytes, size: int) -> None:
    """memcpy_s(out, size, text, len(text)), then out[size - 1] = 0: a buffer gets exactly those
    bytes (the bytes in between stay as they were); a Ref gets the string C would read."""
    if isinstance(out, (bytearray, ctypes.Array)):
        buf = memoryview(out).cast("B")
        if len(buf) < size:
            raise ApiError(E.ACL_ERROR_INVALID_PARAM, emu(f"the buffer holds {len(buf)} bytes, the length is {size}."))
        buf[: len(raw)] = raw
        buf[size - 1] = 0
        return
    text = raw[: size - 1] if len(raw) == size else raw
    store(out, text.decode("utf-8", "replace"))


@c_api(INTERNAL)
def aclprofGetOpTypeLen(opInfo: object, opInfoLen: int, index: int, opTypeLen: object) -> int:
    """The length of record ``index``'s op type, its NUL included."""
    if opTypeLen is None:  # "Invalid param of GetOpTypeLen": a log only
        return E.ACL_ERROR_INVALID_PARAM
    store(opTypeLen, _string_len(_SUB.types, "type", "aclprofGetOpTypeLen", opInfo, opInfoLen, index))
    return E.ACL_SUCCESS


@c_api(INTERNAL)
def aclprofGetOpType(opInfo: object, opInfoLen: int, index: int, opType: object, opTypeLen: int) -> int:
    """Record ``index``'s op type into ``opType`` (a buffer of ``opTypeLen`` bytes, or a Ref); each
    type can be read once."""
    return _string(_SUB.types, "type", "aclprofGetOpType", opInfo, opInfoLen, index, opType, opTypeLen)


@c_api(INTERNAL)
def aclprofGetOpNameLen(opInfo: object, opInfoLen: int, index: int, opNameLen: object) -> int:
    """The length of record ``index``'s op name, its NUL included."""
    if opNameLen is None:  # "Invalid param of GetOpNameLen": a log only
        return E.ACL_ERROR_INVALID_PARAM
    store(opNameLen, _string_len(_SUB.names, "name", "aclprofGetOpNameLen", opInfo, opInfoLen, index))
    return E.ACL_SUCCESS


@c_api(INTERNAL)
def aclprofGetOpName(opInfo: object, opInfoLen: int, index: int, opName: object, opNameLen: int) -> int:
    """Record ``index``'s op name into ``opName``; each name can be read once."""
    return _string(_SUB.names, "name", "aclprofGetOpName", opInfo, opInfoLen, index, opName, opNameLen)


def _field(api: str, opInfo: object, opInfoLen: object, index: object, at: int, failed: int) -> int:
    """One number of record ``index``; ``failed`` when a check fails (CANN logs only)."""
    try:
        return int(_desc(_data(opInfo, opInfoLen, api), index, api)[at])
    except _Bad:
        return failed  # MSPROF_LOGE only


@c_api(INTERNAL)
def aclprofGetOpStart(opInfo: object, opInfoLen: int, index: int) -> int:
    """When record ``index``'s op started (us); 0 for a bad buffer or index."""
    return _field("aclprofGetOpStart", opInfo, opInfoLen, index, 6, 0)


@c_api(INTERNAL)
def aclprofGetOpEnd(opInfo: object, opInfoLen: int, index: int) -> int:
    """When record ``index``'s op ended (us); 0 for a bad buffer or index."""
    return _field("aclprofGetOpEnd", opInfo, opInfoLen, index, 7, 0)


@c_api(INTERNAL)
def aclprofGetOpDuration(opInfo: object, opInfoLen: int, index: int) -> int:
    """Record ``index``'s duration (us); 0 for a bad buffer or index."""
    return _field("aclprofGetOpDuration", opInfo, opInfoLen, index, 5, 0)


@c_api(INTERNAL)
def aclprofGetModelId(opInfo: object, opInfoLen: int, index: int) -> int:
    """Record ``index``'s model id. On a bad buffer or index CANN reports EK0001 and returns its
    error code (100000) as the id."""
    try:
        return int(_desc(_data(opInfo, opInfoLen, "aclprofGetModelId"), index, "aclprofGetModelId")[1])
    except _Bad:
        value = int_arg(index, "index", 0, _U32)
        ApiError(E.ACL_ERROR_INVALID_PARAM, _ek_value(value, "index", "failed to get model id")).report()
        return int(E.ACL_ERROR_INVALID_PARAM)


@c_api(INTERNAL)
def aclprofGetOpFlag(opInfo: object, opInfoLen: int, index: int) -> int:
    """Record ``index``'s aclprofSubscribeOpFlag. As CANN's: the signatures are not checked, a NULL
    buffer gives ACL_SUBSCRIBE_NONE and an index out of range 0."""
    if opInfo is None:
        return ACL_SUBSCRIBE_NONE
    i = int_arg(index, "index", 0, _U32)
    n = int_arg(opInfoLen, "opInfoLen", 0, 2**64 - 1) & _U32
    if (i + 1) * OP_DESC_SIZE > n:
        return 0
    return int(_DESC.unpack_from(_read(opInfo, n, "aclprofGetOpFlag"), i * OP_DESC_SIZE)[2])


@c_api(INTERNAL, handle=True)
def aclprofGetOpAttriValue(opInfo: object, opInfoLen: int, index: int, attri: int) -> str | None:
    """An attribute of record ``index``: ACL_SUBSCRIBE_ATTRI_THREADID gives the thread id (as text)
    of an ACL_SUBSCRIBE_OP_THREAD record; NULL otherwise."""
    if opInfo is None:
        return None
    i = int_arg(index, "index", 0, _U32)
    n = int_arg(opInfoLen, "opInfoLen", 0, 2**64 - 1) & _U32
    kind = int_arg(attri, "attri", -(2**31), 2**31 - 1)
    if (i + 1) * OP_DESC_SIZE > n:
        return None
    desc = _DESC.unpack_from(_read(opInfo, n, "aclprofGetOpAttriValue"), i * OP_DESC_SIZE)
    if kind != ACL_SUBSCRIBE_ATTRI_THREADID or desc[2] != ACL_SUBSCRIBE_OP_THREAD:
        return None
    return str(desc[3])


def reset() -> None:
    """Forget the subscriptions, registrations and the type/name table (test isolation; not a CANN call).
    Subscribed pipes are not closed: they belong to the program."""
    with _SUB.lock:
        _listen(False)
        _SUB.__init__()  # type: ignore[misc]


__all__ = [
    "ACL_AICORE_ARITHMETIC_UTILIZATION",
    "ACL_AICORE_L0B_AND_WIDTH",
    "ACL_AICORE_L2_CACHE",
    "ACL_AICORE_MEMORY_ACCESS",
    "ACL_AICORE_MEMORY_BANDWIDTH",
    "ACL_AICORE_MEMORY_UB",
    "ACL_AICORE_NONE",
    "ACL_AICORE_PIPE_EXECUTE_UTILIZATION",
    "ACL_AICORE_PIPE_UTILIZATION",
    "ACL_AICORE_RESOURCE_CONFLICT_RATIO",
    "ACL_SUBSCRIBE_ATTRI_NONE",
    "ACL_SUBSCRIBE_ATTRI_THREADID",
    "ACL_SUBSCRIBE_NONE",
    "ACL_SUBSCRIBE_OP",
    "ACL_SUBSCRIBE_OP_THREAD",
    "ACL_SUBSCRIBE_SUBGRAPH",
    "MsprofSetDeviceIdByGeModelIdx",
    "MsprofUnsetDeviceIdByGeModelIdx",
    "aclprofCreateSubscribeConfig",
    "aclprofDestroySubscribeConfig",
    "aclprofGetModelId",
    "aclprofGetOpAttriValue",
    "aclprofGetOpDescSize",
    "aclprofGetOpDuration",
    "aclprofGetOpEnd",
    "aclprofGetOpFlag",
    "aclprofGetOpName",
    "aclprofGetOpNameLen",
    "aclprofGetOpNum",
    "aclprofGetOpStart",
    "aclprofGetOpType",
    "aclprofGetOpTypeLen",
    "aclprofModelSubscribe",
    "aclprofModelUnSubscribe",
    "aclprofSubscribeConfig",
]
