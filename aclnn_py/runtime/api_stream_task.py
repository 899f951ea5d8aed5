"""Task-level calls of ``acl_rt.h`` around model streams: information cached on the calling
thread's last task (aclrtCacheLastTaskOpInfo, aclrtCacheLastTaskExtendInfo), the clearing of a
persistent model stream (aclrtPersistentTaskClean), the update of a random number task of a model
(aclrtTaskUpdateAsync) and the profiling trace task (aclrtProfTrace).

The checks are CANN's, in its order (``src/acl/aclrt_impl/kernel.cpp``, ``stream.cpp``,
``dfx.cpp``; the runtime's ``api_c*.cc``, ``api_error*.cc``, ``api_impl*.cc``).

CANN keeps the cached information by the stream and the task id of the thread's last task
(``extendInfos_[streamId][taskId]``, the capture model's shape infos); so does :data:`CACHED`.
The thread's last stream is the stream of its last task (stream.py's ``_THREAD.last_stream``);
before the thread's first task, a stream recording into a model (the first such stream when
several record at once).
"""

from __future__ import annotations

import ctypes
import threading
import weakref
from dataclasses import dataclass, field

import numpy as np

from .._capi import UINT64_MAX, ApiError, as_pointer, describe
from . import _rt_features
from . import model_ri as M
from . import stream as stream_mod
from ._checks import (
    PARAM,
    RT_PARAM,
    E,
    acl_null,
    acl_value,
    check_stopped,
    emu,
    fb_inner,
    fb_invalid,
    int_arg,
    need_context,
    own_stream,
    rt_api,
    rt_inner,
    rt_value,
    silent,
    stream_handle,
)
from .api_random import TASKS as RANDOM_TASKS
from .api_random import aclrtRandomNumTaskInfo, check_task_info
from .api_stream_attr import _cache_op_info
from .device import RT, Context
from .memory import SPACE, MemoryFault, called_from_c
from .stream import Stream, Task, TaskFault

_CAPTURE = "CAPTURE"
_MAX_OP_INFO = 64 * 1024  # MAX_SHAPE_INFO_SIZE (api_error.cc)
_MAX_EXTEND_INFO = 4096  # CacheLastTaskExtendInfo keeps the first 4 KB
_ACL_STREAM_PERSISTENT = 0x4
_ACL_STREAM_CPU_SCHEDULE = 0x10  # RT_STREAM_AICPU
_RANDOM_INFO_BYTES = ctypes.sizeof(aclrtRandomNumTaskInfo)  # sizeof(rtRandomNumTaskInfo_t): 104
ACL_RT_UPDATE_RANDOM_TASK, ACL_RT_UPDATE_AIC_AIV_TASK = 1, 2  # aclrtUpdateTaskAttrId


@dataclass
class Cached:
    """What a model keeps about its tasks: (stream id, task id) -> operator info / extend info."""

    op_info: dict[tuple[int, int], bytes] = field(default_factory=dict)
    extend_info: dict[tuple[int, int], str] = field(default_factory=dict)


CACHED: weakref.WeakKeyDictionary[M.Model, Cached] = weakref.WeakKeyDictionary()


def cached(model: M.Model) -> Cached:
    """The information cached on a model's tasks (aclrtCacheLastTaskOpInfo / ExtendInfo)."""
    return CACHED.setdefault(model, Cached())


def _host_bytes(api: str, name: str, obj: object, n: int) -> bytes:
    """``n`` bytes of host memory: a bytes-like object or numpy array from Python, the program's
    own memory (read in place) from C."""
    if isinstance(obj, (bytes, bytearray, memoryview)):
        data = bytes(obj)
    elif isinstance(obj, np.ndarray):
        data = obj.tobytes()
    elif isinstance(obj, str):
        data = obj.encode()
    else:
        addr = as_pointer(obj)
        if addr is not None and addr > 0 and called_from_c():
            return ctypes.string_at(addr, n)  # the program's own address (the C ABI passes it untranslated)
        raise ApiError(PARAM, emu(f"{api}: {name} must be host memory (bytes or a numpy array), got {describe(obj)}."))
    if len(data) < n:
        raise ApiError(PARAM, emu(f"{api}: {name} holds {len(data)} bytes, fewer than the {n} the call names."))
    return data[:n]


def _last_stream(ctx: Context) -> Stream | None:
    """The thread's last stream (``InnerThreadLocalContainer::GetLastStreamId``): the stream of the
    thread's last task where the task queue records it (``last_stream``); otherwise a stream of the
    context that records into a model (capturing, or bound) and that this thread captures on, or any
    such."""
    last = getattr(stream_mod._THREAD, "last_stream", None)
    if isinstance(last, Stream) and not last.destroyed:
        return last
    me = threading.get_ident()
    recording: list[tuple[Stream, M.Capture]] = []
    for st in ctx.all_streams():
        cap = st.capture
        if isinstance(cap, M.Capture):
            recording.append((st, cap))
    mine = [st for st, cap in recording if cap.bound or cap.thread == me]
    anyone = [st for st, _ in recording]
    found = mine or anyone
    return found[0] if found else None


def _model_of(st: Stream) -> M.Model | None:
    cap = st.capture
    return cap.model if isinstance(cap, M.Capture) else M.model_stream(st)


def _last_task_id() -> int:
    return int(getattr(stream_mod._THREAD, "last_task", 0)) & 0xFFFFFFFF


# ---------------------------------------------------------------------------------------------
# cached information
# ---------------------------------------------------------------------------------------------


@rt_api
def aclrtCacheLastTaskOpInfo(infoPtr: object, infoSize: int) -> int:
    """Cache ``infoSize`` bytes of operator information (host memory) on the calling thread's last
    task of a capture, for profiling (the operator information cache switch of the capturing
    stream, aclrtSetStreamAttribute's ACL_STREAM_ATTR_CACHE_OP_INFO, must be on)."""
    api, rt_fn = "aclrtCacheLastTaskOpInfo", "rtCacheLastTaskOpInfo"
    if infoPtr is None or (isinstance(infoPtr, int) and as_pointer(infoPtr) is None):
        raise ApiError(PARAM, acl_null(api, "infoPtr"))
    n = int_arg(infoSize, "infoSize", 0, UINT64_MAX)
    if n == 0:
        raise ApiError(PARAM, acl_value(api, 0, "infoSize", "must be greater than 0"))
    if not _rt_features.has("RT_FEATURE_MODEL_ACL_GRAPH"):
        raise silent(E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
    desc = "Caching the operator information of the latest task"
    if n > _MAX_OP_INFO:
        raise ApiError(RT_PARAM, rt_value(desc, n, "infoSize", f"(0, {_MAX_OP_INFO}]"), fb_invalid(rt_fn))
    ctx = need_context(rt_fn)
    st = _last_stream(ctx)
    if st is None:
        raise ApiError(
            E.ACL_ERROR_RT_INTERNAL_ERROR,
            emu(f"{api}: the calling thread has no stream recording into a model in the current context."),
        )
    own_stream(st, ctx, desc, rt_fn)
    model = _model_of(st)
    if model is None or model.kind != "capture":
        raise ApiError(
            E.ACL_ERROR_RT_INTERNAL_ERROR,
            emu(
                f"{api}: stream (stream_id={st.ident}) is not bound to a model or the bound model is not a "
                f"{_CAPTURE} model."
            ),
            fb_inner(rt_fn, "model pointer null"),
        )
    if not _cache_op_info.get(st, 0):
        raise ApiError(
            E.ACL_ERROR_RT_INTERNAL_ERROR,
            (
                "EE1018",
                f"{rt_fn} failed. Reason: The operator information cache function is not enabled. Call the "
                "rtSetStreamAttribute API to enable the operator information cache function first, "
                f"model_id={model.ident}, stream_id={st.ident}.",
            ),
            fb_inner(rt_fn, "model cache op info switch is closed"),
        )
    cached(model).op_info[(st.ident, _last_task_id())] = _host_bytes(api, "infoPtr", infoPtr, n)
    return E.ACL_SUCCESS


@rt_api
def aclrtCacheLastTaskExtendInfo(extendInfoPtr: object, infoSize: int) -> int:
    """Cache a JSON text (host memory, at most its first 4 KB) on the calling thread's last task
    of a model being captured or built (aclmdlRIDebugJsonPrint's custom information)."""
    api, rt_fn = "aclrtCacheLastTaskExtendInfo", "rtCacheLastTaskExtendInfo"
    if not _rt_features.has("RT_FEATURE_MODEL_ACL_GRAPH"):
        raise silent(E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
    desc = "Caching the extended information of the latest task"
    if extendInfoPtr is None or (isinstance(extendInfoPtr, int) and as_pointer(extendInfoPtr) is None):
        raise ApiError(
            RT_PARAM, ("EE1004", f"{desc} failed because extendInfoPtr cannot be a NULL pointer."), fb_invalid(rt_fn)
        )
    n = int_arg(infoSize, "infoSize", 0, UINT64_MAX)
    if n == 0:
        raise ApiError(RT_PARAM, rt_value(desc, 0, "infoSize", "not equal to 0"), fb_invalid(rt_fn))
    n = min(n, _MAX_EXTEND_INFO)  # the rest is dropped with a WARN
    ctx = need_context(rt_fn)
    st = _last_stream(ctx)
    if st is None:
        raise ApiError(
            E.ACL_ERROR_RT_INTERNAL_ERROR,
            emu(f"{api}: the calling thread has no stream recording into a model in the current context."),
        )
    if st.context is not ctx:
        raise ApiError(
            E.ACL_ERROR_RT_STREAM_CONTEXT,
            rt_inner(f"Stream is not in current ctx, stream_id={st.ident}.", "CacheLastTaskExtendInfo",
                     "api_impl.cc", 4639),
            fb_inner(rt_fn, "stream not in current context"),
        )  # fmt: skip
    model = _model_of(st)
    if model is None:
        raise ApiError(
            E.ACL_ERROR_RT_INTERNAL_ERROR,
            ("EE1004", f"{desc} failed because model cannot be a NULL pointer."),
            fb_inner(rt_fn, "model pointer null"),
        )
    text = _host_bytes(api, "extendInfoPtr", extendInfoPtr, n).decode("utf-8", errors="replace")
    cached(model).extend_info[(st.ident, _last_task_id())] = text
    return E.ACL_SUCCESS


# ---------------------------------------------------------------------------------------------
# persistent streams
# ---------------------------------------------------------------------------------------------


@rt_api
def aclrtPersistentTaskClean(stream: object) -> int:
    """Drop the tasks of a persistent stream (ACL_STREAM_PERSISTENT) bound to a built model, so
    that new tasks can be recorded on it without destroying it."""
    rt_fn = "rtsPersistentTaskClean"
    st = stream_handle(stream, rt_fn)
    desc = "Clearing tasks in a stream"
    if st is None:
        raise ApiError(RT_PARAM, ("EE1004", f"{desc} failed because stm cannot be a NULL pointer."), fb_invalid(rt_fn))
    # ApiErrorDecorator::StreamTaskClean (api_error_standard_soc.cc:368-371): either feature
    if not (
        _rt_features.has("RT_FEATURE_DFX_FAST_RECOVER_DOT_STREAM")
        or _rt_features.has("RT_FEATURE_DFX_PROCESS_SNAPSHOT")
    ):
        return E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT  # COND_RETURN_WITH_NOLOG
    invalid = fb_inner(rt_fn, "stream invalid")
    if not st.flags & _ACL_STREAM_PERSISTENT:
        raise ApiError(
            E.ACL_ERROR_RT_INTERNAL_ERROR,
            ("EE1011", f"{desc} failed. Value RT_STREAM_PERSISTENT for parameter stream flag is invalid. Reason: "
                       f"Non-persistent stream (stream_id={st.ident}) does not support stream task clearance."),
            invalid,
        )  # fmt: skip
    model = M.model_stream(st)
    # The bind flag: Model::BindStream gives an AI CPU stream (RT_STREAM_AICPU) its model but not the
    # flag (model.cc:509-513), so this check refuses it and the AI CPU check after it
    # (api_error_standard_soc.cc:379-382) is never reached.
    if model is None or st.flags & _ACL_STREAM_CPU_SCHEDULE:
        raise ApiError(
            E.ACL_ERROR_RT_INTERNAL_ERROR,
            ("EE1017", f"{desc} failed. Parameter stream is invalid. Reason: Stream (stream_id={st.ident}) must be "
                       "bound to a model."),
            invalid,
        )  # fmt: skip
    if model.state != "ready":
        raise ApiError(
            E.ACL_ERROR_RT_INTERNAL_ERROR,
            ("EE1017", f"{desc} failed. Parameter stream is invalid. Reason: Model (model_id={model.ident}) where "
                       f"stream (stream_id={st.ident}) is located has not been loaded. Clear stream tasks after the "
                       "model is loaded."),
            invalid,
        )  # fmt: skip
    if model.is_sub:
        return E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT  # COND_RETURN_WARN: a sub ACL Graph's stream
    ctx = need_context(rt_fn)
    own_stream(st, ctx, desc, rt_fn)
    model.tasks_of(st).clear()
    return E.ACL_SUCCESS


# ---------------------------------------------------------------------------------------------
# task update
# ---------------------------------------------------------------------------------------------


class aclrtTaskUpdateInfo(ctypes.Structure):
    """``aclrtTaskUpdateInfo``: ``id`` (aclrtUpdateTaskAttrId) and the union of the random task's
    ``{srcAddr, size, rsv[4]}`` and the AI Core task's ``{binHandle, funcEntryAddr, blockDimAddr, rsv[4]}``."""

    _fields_ = [
        ("id", ctypes.c_int32),
        ("srcAddr", ctypes.c_void_p),  # randomTaskAttr.srcAddr / aicAivTaskAttr.binHandle
        ("size", ctypes.c_size_t),  # randomTaskAttr.size / aicAivTaskAttr.funcEntryAddr
        ("blockDimAddr", ctypes.c_void_p),  # aicAivTaskAttr.blockDimAddr (randomTaskAttr.rsv)
        ("rsv", ctypes.c_uint32 * 4),
    ]


def _update_info(api: str, obj: object) -> aclrtTaskUpdateInfo:
    if isinstance(obj, aclrtTaskUpdateInfo):
        return obj
    addr = as_pointer(obj)
    if addr is not None and addr > 0 and called_from_c():
        return aclrtTaskUpdateInfo.from_address(addr)
    raise ApiError(PARAM, emu(f"{api}: info must be an aclrtTaskUpdateInfo, got {describe(obj)}."))


@rt_api
def aclrtTaskUpdateAsync(taskStream: object, taskId: int, info: object, execStream: object) -> int:
    """Queue on ``execStream`` the update of task ``taskId`` of ``taskStream`` (a stream bound to a
    model): ACL_RT_UPDATE_RANDOM_TASK replaces a random number task's task information by the 104 bytes
    at ``info->randomTaskAttr.srcAddr`` (device memory, read when the update runs: the runtime's
    rtRandomNumTaskInfo_t, whose dataType is rtRandomNumDataType, 0 INT32 ... 6 FP32, as
    aclrtRandomNumAsync leaves it in the caller's struct), so the model's next executions generate
    with the new parameters. ACL_RT_UPDATE_AIC_AIV_TASK needs a
    kernel binary handle, which aclnn_py never issues (custom kernels are not emulated)."""
    api, rt_fn = "aclrtTaskUpdateAsync", "rtsLaunchUpdateTask"
    if info is None or (isinstance(info, int) and as_pointer(info) is None):
        raise ApiError(PARAM, acl_null(api, "info"))
    cfg = _update_info(api, info)
    kind = int(cfg.id)
    if kind == ACL_RT_UPDATE_AIC_AIV_TASK:
        raise ApiError(
            E.ACL_ERROR_RT_INVALID_HANDLE,
            emu(f"{api}: info->aicAivTaskAttr.binHandle is not a kernel binary handle: aclnn_py issues none "
                "(custom AscendC kernels need Huawei's kernel compiler and an NPU)."),
        )  # fmt: skip
    if kind != ACL_RT_UPDATE_RANDOM_TASK:
        raise ApiError(
            RT_PARAM,
            (
                "EE1003",
                f"{rt_fn} failed because value {kind} for parameter cfg->id is invalid. Expected value: [1, 3).",
            ),
        )
    if taskStream is None or (isinstance(taskStream, int) and taskStream == 0):
        raise ApiError(RT_PARAM, ("EE1004", f"{rt_fn} failed because destStm cannot be a NULL pointer."))
    dest = stream_handle(taskStream, rt_fn)
    assert dest is not None
    if not _rt_features.has("RT_FEATURE_TASK_DSA_UPDATE"):
        raise silent(E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)  # "only support in cloud_v2"
    exe = stream_handle(execStream, rt_fn)
    tid = int_arg(taskId, "taskId", 0, 2**32 - 1)
    desc = "Delivering the Submission Queue Entry (SQE) update task"
    src = as_pointer(cfg.srcAddr) or 0
    if src == 0:
        raise ApiError(RT_PARAM, ("EE1004", f"{desc} failed because src cannot be a NULL pointer."), fb_invalid(rt_fn))
    size = int(cfg.size)
    if size != _RANDOM_INFO_BYTES:
        raise ApiError(
            RT_PARAM,
            ("EE1011", f"{desc} failed. Value {size} for parameter cnt is invalid. Reason: If parameter needCpuTask "
                       f"is equal to 1, the value of parameter cnt should be {_RANDOM_INFO_BYTES}(bytes)."),
            fb_invalid(rt_fn),
        )  # fmt: skip
    ctx = need_context(rt_fn)
    target = exe or ctx.default_stream
    own_stream(target, ctx, desc, rt_fn)
    check_stopped(ctx)
    holder = RANDOM_TASKS.get(dest, {}).get(tid)
    if holder is None or M.model_stream(dest) is None:
        raise ApiError(
            RT_PARAM,
            emu(f"{api}: task {tid} of {dest!r} is not a random number task of a stream bound to a model "
                "(aclrtRandomNumAsync recorded on a stream of aclmdlRIBindStream)."),
        )  # fmt: skip
    alloc = SPACE.find(src)
    if alloc is None or alloc.kind not in ("device", "mapped"):
        raise ApiError(RT_PARAM, emu(f"{api}: info->randomTaskAttr.srcAddr {describe(src)} is not device memory."))

    def run() -> None:
        try:
            raw = SPACE.read(src, size, api).tobytes()
        except MemoryFault as fault:
            raise TaskFault(E.ACL_ERROR_RT_SYS_DMA, f"{api} task failed: {fault.message}") from None
        new = aclrtRandomNumTaskInfo.from_buffer_copy(raw)  # rtRandomNumTaskInfo_t: the runtime's dataType
        try:
            holder[0] = check_task_info(api, new, "rtsLaunchRandomNumTask")
        except ApiError as e:
            why = e.messages[0][1] if e.messages else str(e.code)
            raise TaskFault(
                E.ACL_ERROR_RT_PARAM_INVALID, f"{api} task failed: the new task information: {why}"
            ) from None

    task = Task(target, f"{api}(task {tid} of stream #{dest.ident})", run)
    RT.policy.submit(target, task)
    return E.ACL_SUCCESS


# ---------------------------------------------------------------------------------------------
# profiling trace
# ---------------------------------------------------------------------------------------------

_TRACE_BYTES = 18  # sizeof(rtProfTraceUserData), packed: uint64 id, uint64 modelId, uint16 tagId
TRACES: list[tuple[int, int, int, int]] = []  # (stream id, id, modelId, tagId) of the traces run


@rt_api
def aclrtProfTrace(userdata: object, length: int, stream: object) -> int:
    """Queue a profiling trace point on ``stream``: ``length`` (1 to 18) bytes of ``userdata`` are
    the packed ``{uint64 id; uint64 modelId; uint16 tagId}``, zero-filled; the task records them
    when it runs (:data:`TRACES`, and ``ACLNN_PY_TRACE``'s log)."""
    api, rt_fn = "aclrtProfTrace", "rtsProfTrace"
    if userdata is None or (isinstance(userdata, int) and as_pointer(userdata) is None):
        raise ApiError(PARAM, acl_null(api, "userdata"))
    n = int_arg(length, "length", -(2**31), 2**31 - 1)
    if n > _TRACE_BYTES or n <= 0:
        raise ApiError(
            RT_PARAM,
            ("EE1003", f"{rt_fn} failed because value {n} for parameter length is invalid. Expected value: "
                       f"(0, {_TRACE_BYTES}]."),
        )  # fmt: skip
    data = _host_bytes(api, "userdata", userdata, n) + bytes(_TRACE_BYTES - n)
    ident, model_id, tag = (
        int.from_bytes(data[0:8], "little"),
        int.from_bytes(data[8:16], "little"),
        int.from_bytes(data[16:18], "little"),
    )
    st = stream_handle(stream, rt_fn)
    ctx = need_context(rt_fn)
    target = st or ctx.default_stream
    own_stream(target, ctx, "Delivering a profiling task with tracepoint", rt_fn)
    check_stopped(ctx)

    def run() -> None:
        TRACES.append((target.ident, ident, model_id, tag))

    task = Task(target, f"{api}(id={ident}, modelId={model_id}, tagId={tag})", run)
    RT.policy.submit(target, task)
    return E.ACL_SUCCESS


__all__ = [
    "aclrtCacheLastTaskExtendInfo",
    "aclrtCacheLastTaskOpInfo",
    "aclrtPersistentTaskClean",
    "aclrtProfTrace",
    "aclrtTaskUpdateAsync",
    "aclrtTaskUpdateInfo",
]
