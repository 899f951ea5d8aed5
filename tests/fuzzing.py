"""Fuzzing the C-style surface: every public function, arguments good and bad.

Used by ``tests/test_fuzz.py`` (a fixed seed, a modest number of examples) and by ``make fuzz``
(``tests/fuzz_campaign.py``, a long campaign). Each example builds a small world — the runtime
initialised on two devices, live, freed and foreign allocations, tensors good and strange,
streams, events, executors fresh and consumed — and makes a sequence of calls in it.

The operators' arguments come from the registry (``aclnn_py.ops.registry``), by the kind of each
C parameter, with no per-operator code (``draw_op_arguments``): tensors of the dtypes the API's
``DTYPE_FACTS`` allow on the chip in effect (and some they refuse), of shapes that broadcast and
that do not, 0-d, empty, more than 8 dims, non-contiguous, the same tensor passed twice, without
data or destroyed; scalars, int arrays, ints, floats, bools and dtypes good and bad; nullptr
anywhere. Phase 2 gets the executor phase 1 made (or a consumed, foreign or null one), a
workspace of the right size or too small or null, the right or a wrong stream. A successful phase
1 is mostly followed by its phase 2 (sometimes made repeatable first), a successful phase 2 by a
synchronize (its kernels run), phase 2 again or the same phase 1 again (an op-cache hit); one
example in four runs with the call trace on. After every call:

* the result is an int status (or, for functions that return handles in C, a handle or None),
  and no Python exception escaped;
* a non-zero status left a message for ``aclGetRecentErrMsg()`` — except where CANN itself
  returns silently (listed in ``SILENT``);
* no byte of simulated memory changed outside what the call may write (its destination range,
  or what the work it let run declared), and every allocation's guard bytes are intact.
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import functools
import importlib
import inspect
import math
import os
import random
import re
import struct
import tempfile
import threading
from collections import Counter
from collections.abc import Callable
from typing import Any

import numpy as np
from hypothesis import strategies as st

import aclnn_py
from aclnn_py import Ref, dtypes, testing, trace
from aclnn_py import soc as _soc
from aclnn_py._capi import _plain_int
from aclnn_py.ops import registry
from aclnn_py.port import prototypes
from aclnn_py.runtime import api_log, sanitizer
from aclnn_py.runtime import stream as stream_mod
from aclnn_py.runtime.memory import SPACE
from aclnn_py.runtime.stream import Event, Stream

# The last example's world is left as its calls made it: not a program's leak, so it is dropped
# before the sanitizer's exit summary (atexit runs the later registration first).
atexit.register(testing.reset)

# Every public C-style function (the same set ``from aclnn_py import *`` exports).
FUNCTIONS: dict[str, Callable[..., Any]] = {
    name: getattr(aclnn_py, name)
    for name in aclnn_py.__all__
    if name.startswith("acl") and inspect.isfunction(getattr(aclnn_py, name))
}


def _returns() -> tuple[set[str], set[str]]:
    """Which functions return a handle (a pointer in C: ``None`` is nullptr) and which a plain
    value (a size, a float, a string), read from the C prototypes aclnn_py declares; every other
    function returns a status."""
    handles = {m.group(1) for m in re.finditer(r"typedef void \*(\w+);", prototypes.TYPEDEFS)}
    handle_fns, value_fns = set(), set()
    for m in re.finditer(r"^(\w[^(;]*?)\b(\w+)\(", prototypes.HEADERS + prototypes.MORE, re.MULTILINE):
        ret, name = m.group(1).strip(), m.group(2)
        if ret in ("aclError", "aclnnStatus"):
            continue
        (handle_fns if "*" in ret or ret in handles else value_fns).add(name)  # a string may be NULL too
    return handle_fns, value_fns


HANDLE_RETURNING, VALUE_RETURNING = _returns()
# (function, status) pairs CANN returns without reporting a message.
SILENT = {
    ("aclInit", 100002),
    ("aclSetAclOpExecutorRepeatable", 561000),
} | {
    (name, 161001)
    for name in FUNCTIONS
    if name.startswith("aclGet") and name not in ("aclGetRawTensorAddr", "aclGetRecentErrMsg")
} | {("aclInitTensor", 161001)} | {
    ("aclrtGetDevice", 107002),  # rtGetDevice and rtCtxGetCurrent return it without a report
    # the same rtGetDevice under ACL_REQUIRES_RTS_OK, which logs without reporting
    # (hicann/runtime src/acl/aclrt_impl/memory.cpp aclrtDeviceEnablePeerAccessImpl/DisablePeerAccessImpl)
    ("aclrtDeviceEnablePeerAccess", 107002),
    ("aclrtDeviceDisablePeerAccess", 107002),
    # rtsNotifyCreate returns rtGetDevice's code as it is (src/runtime/api/api_c_event.cc:126-129)
    ("aclrtCreateNotify", 107002),
    ("aclrtGetCurrentContext", 107002),
    ("aclrtMemcpyAsync", 207000),  # HOST_TO_HOST on a host+card system
    ("aclrtSynchronizeEvent", 207000),  # an ACL_EVENT_EXTERNAL event
    ("aclrtSynchronizeEventWithTimeout", 207000),
    # aclrtProcessReport on a thread no stream is bound to, or with nothing reported in time:
    # ApiImpl::ProcessReport's COND_RETURN_WARN (src/runtime/api/impl/api_impl.cc:5393) and
    # aclrtProcessReportImpl's ACL_LOG_INFO (src/acl/aclrt_impl/callback.cpp:194-200) only log.
    ("aclrtProcessReport", 107012),
    ("aclrtProcessReport", 507012),
    # The stream-config handle lives in the lite library, whose ACL_LOG_ERROR / ACL_LOG_INNER_ERROR
    # only log (src/acl/aclrt_c/common/log_inner.h:56-68, 105-117): a NULL handle
    # (src/acl/aclrt_c/runtime/stream.c:33-35), a NULL handle or value, an attribute out of range, a
    # bad size or priority (stream.c:53-62, 70-73, 82-85, 93-96, 112-120), a NULL stream (stream.c:132-134).
    ("aclrtDestroyStreamConfigHandle", 100000),
    ("aclrtSetStreamConfigOpt", 100000),
    ("aclrtCreateStreamV2", 100000),
    # A package whose version file is missing: GetVersionByPkgName / GetVersionStringInternal
    # ACL_LOG_WARN / ACL_LOG_ERROR only (src/acl/aclrt_impl/acl.cpp:904-916, 945-964), and the
    # full library's ACL_LOG_ERROR is a dlog record (src/acl/common/log_inner.h:185-189).
    ("aclsysGetVersionStr", 100003),
    ("aclsysGetVersionNum", 100003),
    # a pointer not 4-byte aligned: ACL_LOG_ERROR only (src/acl/aclrt_impl/memory.cpp:785-789, 839-843)
    ("aclrtMemsetD32", 100000),
    ("aclrtMemsetD32Async", 100000),
    # the EXTERNAL flags (graph capture), which the emulator does not support: the runtime returns
    # 207000 through COND_RETURN_WITH_NOLOG (src/runtime/api/api_c.cc:761 for rtEventRecordWithFlag,
    # src/runtime/api/api_c_stream.cc:433 for rtStreamWaitEventWithFlag) and ACL's
    # ACL_REQUIRES_RTS_OK passes it on without a report (src/acl/common/log_inner.h:282-288)
    ("aclrtRecordEventWithFlag", 207000),
    ("aclrtStreamWaitEventWithFlag", 207000),
    # msproftx before aclprofStart with ACL_PROF_MSPROFTX, a NULL message, a markEx message of
    # the wrong length: MSPROF_LOGE / FUNRET_CHECK_EXPR_ACTION only, PROFILING_FAILED (-1)
    # (src/dfx/msprof/collector/dvvp/msprof/msproftx/src/msprof_tx_manager.cpp Mark, MarkEx, Push, Pop,
    # SetStampTraceMessage)
    ("aclprofMark", -1),
    ("aclprofMarkEx", -1),
    ("aclprofPush", -1),
    # aclprofInit of a path with a control or shell character: Utils::CheckPathWithInvalidChar, MSPROF_LOGE
    # only (src/dfx/msprof/collector/dvvp/msprof/engine/src/prof_acl_mgr.cpp:862, common/utils/utils.cpp:1625-1638);
    # the profiler API while a model subscription runs: ProfInitPrecheck / ProfStartPrecheck, MSPROF_LOGE only
    # (prof_acl_mgr.cpp:525-566)
    ("aclprofInit", 100003),
    ("aclprofInit", 148047),
    ("aclprofStart", 148047),
    ("aclprofFinalize", 148047),
    # aclrtGetFunctionSize on Ascend910: rtFuncGetSize's COND_RETURN_WARN(!RT_FEATURE_MODEL_ACL_GRAPH)
    # (src/runtime/api/api_c_standard_soc.cc:1680-1683)
    ("aclrtGetFunctionSize", 207000),
    ("aclprofPop", -1),
    ("aclprofSetStampTraceMessage", -1),
    # a step tagged twice: MSPROF_LOGE only (src/dfx/msprof/collector/dvvp/msprofiler/prof_acl_core.cpp)
    ("aclprofGetStepTimestamp", 100000),
    # the subscription's readers and the tensor-info range: MSPROF_LOGE only (src/dfx/msprof/collector/dvvp/
    # analyze/src/op_desc_parser.cpp, profapi/src/prof_api_common.cpp:56-70, profapi/src/prof_tx_plugin.cpp:
    # 170-186)
    ("aclprofDestroySubscribeConfig", 100000),
    ("aclprofGetOpDescSize", 100000),
    ("aclprofGetOpNum", 100000),
    ("aclprofGetOpTypeLen", 100000),
    ("aclprofGetOpType", 100000),
    ("aclprofGetOpNameLen", 100000),
    ("aclprofGetOpName", 100000),
    ("aclprofRangePushEx", 100000),
    ("aclprofRangePushEx", -1),
    ("aclprofRangePop", 100000),
    # a package not installed or not split, an unknown package: ACL_LOG_WARN / ACL_LOG_ERROR only
    # (src/acl/aclrt_impl/acl.cpp aclsysGetCANNVersionImpl, GetCANNVersionInternal)
    ("aclsysGetCANNVersion", 100003),
    ("aclsysGetCANNVersion", 100000),
    # no STARS or a kind other than INNER_DEVICE_TO_DEVICE:
    # rtsGetMemcpyDescSize / rtsSetMemcpyDesc / rtsMemcpyAsyncWithDesc's RT_LOG_WARNING (src/runtime/api/
    # api_c_memory.cc:347-358, 372-377, 395-400); a batch copy on a SoC without it (ACL_REQUIRES_RTS_OK_WARN_
    # NOT_SUPPORT, src/acl/aclrt_impl/memory.cpp:1756-1770); aclrtCmoAsync likewise (memory.cpp:1370)
    ("aclrtGetMemcpyDescSize", 207000),
    ("aclrtSetMemcpyDesc", 207000),
    ("aclrtMemcpyAsyncWithDesc", 207000),
    ("aclrtMemcpyBatch", 207000),
    ("aclrtMemcpyBatchV2", 207000),
    ("aclrtMemcpyBatchAsync", 207000),
    ("aclrtMemcpyBatchAsyncV2", 207000),
    ("aclrtCmoAsync", 207000),
    # the cache descriptors without RT_FEATURE_TASK_CMO (api_c_standard_soc.cc:487-490, 506-509), the
    # barriers without RT_FEATURE_TASK_ASYNC_CMO (api_c_memory.cc:671-674: no emulated SoC has it)
    ("aclrtCmoGetDescSize", 207000),
    ("aclrtCmoSetDesc", 207000),
    ("aclrtCmoAsyncWithDesc", 207000),
    ("aclrtCmoAsyncWithBarrier", 207000),
    ("aclrtCmoWaitBarrier", 207000),
    # aclrtMemImportFromShareableHandleV2 returns rtsGetDevice's code as is (memory.cpp:1262-1266)
    ("aclrtMemImportFromShareableHandleV2", 107002),
    # InitCallbackManager (src/acl/aclrt_impl/init_callback_manager.cpp): a NULL callback is
    # ACL_ERROR_INVALID_PARAM, a second callback for a type / one not registered
    # ACL_ERROR_INTERNAL_ERROR, neither reported
    ("aclInitCallbackRegister", 100000), ("aclInitCallbackRegister", 500000),
    ("aclInitCallbackUnRegister", 100000), ("aclInitCallbackUnRegister", 500000),
    ("aclFinalizeCallbackRegister", 100000), ("aclFinalizeCallbackRegister", 500000),
    ("aclFinalizeCallbackUnRegister", 100000), ("aclFinalizeCallbackUnRegister", 500000),
    # rtCntNotifyCreateServer returns rtGetDevice's code as it is (src/runtime/api/api_david.cc:140-151)
    ("aclrtCntNotifyCreate", 107002),
    # rtIpcGetEventHandle off RT_FEATURE_IPC_EVENT chips: a WARN only (api_c_standard_soc.cc:1463-1472)
    ("aclrtIpcGetEventHandle", 207000),
    # SIMT limits off Ascend950: COND_RETURN_WITH_NOLOG (api_c_device.cc:145-164), ACL_LOG_WARN (device.cpp:632-690)
    ("aclrtDeviceSetLimit", 207000), ("aclrtDeviceGetLimit", 207000),
    # a context option never set: rtCtxGetSysParamOpt returns 107021 before its report (api_c.cc:3476-3487)
    ("aclrtCtxGetSysParamOpt", 107021),
    # off RT_FEATURE_DFX_FAST_RECOVER chips: COND_RETURN_WITH_NOLOG (api_error.cc:3495-3497)
    ("aclrtDeviceTaskAbort", 207000),
    ("aclrtRepairError", 207000),
    # the failure mode of an ACL_STREAM_DEVICE_USE_ONLY stream or of a model's stream:
    # ApiErrorDecorator::StreamSetMode's WARN (api_error.cc:1605-1607) and ApiImpl::StreamSetMode,
    # returned by rtStreamSetMode's COND_RETURN_WITH_NOLOG (api_c_stream.cc:302)
    ("aclrtSetStreamFailureMode", 207000),
    # the link calls: the driver's halMemHandleSetAttribute refusals reach ACL_REQUIRES_RTS_OK_WARN_NOT_SUPPORT /
    # a WARN (src/acl/aclrt_impl/memory.cpp aclrtMemMapSelectedLinkImpl, aclrtMemMapSetLinkImpl;
    # src/runtime/api/api_c_memory.cc rtMemMapSelectedLink, rtMemMapSetLink: COND_RETURN_WITH_NOLOG)
    ("aclrtMemMapSelectedLink", 207000),
    ("aclrtMemMapSetLink", 207000),
    ("aclrtMemMapSetLink", 207021),
    # chips without the feature: COND_RETURN_WARN / RT_LOG_WARNING only (src/runtime/api/api_c_kernel.cc
    # rtsLaunchRandomNumTask; api_c_standard_soc.cc rtsLaunchUpdateTask, rtCacheLastTaskOpInfo,
    # rtCacheLastTaskExtendInfo; api_error_standard_soc.cc StreamTaskClean; api_c_snapshot.cc
    # CheckSnapShotFeatureSupport), a sub-model's stream (StreamTaskClean's COND_RETURN_WARN)
    ("aclrtRandomNumAsync", 207000),
    ("aclrtTaskUpdateAsync", 207000),
    ("aclrtCacheLastTaskOpInfo", 207000),
    ("aclrtCacheLastTaskExtendInfo", 207000),
    ("aclrtPersistentTaskClean", 207000),
    ("aclrtSnapShotProcessLock", 207000), ("aclrtSnapShotProcessUnlock", 207000),
    ("aclrtSnapShotProcessBackup", 207000), ("aclrtSnapShotProcessRestore", 207000),
    ("aclrtSnapShotCallbackRegister", 207000), ("aclrtSnapShotCallbackUnregister", 207000),
    # chips without RT_FEATURE_TASK_VALUE_WAIT / RT_FEATURE_DFX_ERR_GET_AND_REPAIR: RT_LOG_WARNING, then
    # GetRtExtErrCodeAndSetGlobalErr (src/runtime/api/api_c_memory.cc rtsValueWrite, rtsValueWait;
    # api_c_device.cc rtsGetErrorVerbose); the managed-memory calls on a SoC without UVM:
    # COND_RETURN_WITH_NOLOG (api_c_uvm.cc rtMemManagedAdvise, GetAttr(s), PrefetchAsync, PrefetchBatchAsync)
    ("aclrtValueWrite", 207000), ("aclrtValueWait", 207000),
    ("aclrtGetErrorVerbose", 207000),
    ("aclrtMemManagedAdvise", 207000),
    ("aclrtMemManagedGetAttr", 207000), ("aclrtMemManagedGetAttrs", 207000),
    ("aclrtMemManagedPrefetchAsync", 207000), ("aclrtMemManagedPrefetchBatchAsync", 207000),
    # off RT_FEATURE_DFX_FAST_RECOVER chips (ApiErrorDecorator::MemUceRepair / GetMemUceInfo return it,
    # api_c.cc rtMemUceRepair / rtGetMemUceInfo: COND_RETURN_WITH_NOLOG); off RT_FEATURE_IPC_EVENT chips
    # (api_c_standard_soc.cc rtIpcOpenEventHandle: RT_LOG_WARNING); an IPC event's number (api_c.cc
    # rtGetEventID: COND_RETURN_WITH_NOLOG)
    ("aclrtMemUceRepair", 207000), ("aclrtGetMemUceInfo", 207000),
    ("aclrtIpcOpenEventHandle", 207000),
    ("aclrtGetEventId", 207000),
    # an event without a wait task (ACL_EVENT_TIME_LINE alone): ApiErrorDecorator::StreamWaitEvent's
    # COND_RETURN_WARN, rtStreamWaitEvent's COND_RETURN_WITH_NOLOG (api_c_stream.cc:140)
    ("aclrtStreamWaitEvent", 207000),
    # ApiImpl::EventRecord / EventReset on a capturing stream with an event of aclrtCreateEvent(WithFlag), and
    # EventReset of an event without a wait task, an IPC or an Ex event: WARNs, rtEventRecord/rtEventReset's NOLOG
    ("aclrtRecordEvent", 207000), ("aclrtResetEvent", 207000),
    # ApiImplEvent's WARN-only refusals of event kinds, passed on by the rt wrappers' NOLOG (api_impl_event_common.cc;
    # api_c.cc rtEventQuery, rtEventQueryStatus, rtEventQueryWaitStatus, rtEventElapsedTime); an IPC event off
    # RT_FEATURE_IPC_EVENT chips (api_error.cc EventCreateEx, api_c.cc rtEventCreateExWithFlag)
    ("aclrtQueryEvent", 207000), ("aclrtQueryEventStatus", 207000), ("aclrtQueryEventWaitStatus", 207000),
    ("aclrtEventElapsedTime", 207000), ("aclrtCreateEventExWithFlag", 207000),
    # Ascend910 has no RT_FEATURE_MODEL_ACL_GRAPH: the capture wrappers' WARN (api_c_standard_soc.cc)
    *((name, 207000) for name in (
        "aclmdlRICaptureBegin", "aclmdlRICaptureToModelRIBegin", "aclmdlRICaptureEnd", "aclmdlRICaptureGetInfo",
        "aclmdlRICaptureThreadExchangeMode", "aclmdlRICaptureTaskGrpBegin", "aclmdlRICaptureTaskUpdateBegin",
        "aclmdlRIDebugPrint", "aclmdlRIDebugJsonPrint",
    )),
    # the 1 GB huge-page policies on chips without RT_FEATURE_MEM_1G_HUGE_PAGE: the driver's refusal is logged
    # only (npu_driver_mem.cc CheckIfSupport1GHugePage), rtMalloc passes the code on
    *(
        (name, 207000)
        for name in (
            "aclrtMalloc", "aclrtMallocAlign32", "aclrtMallocCached", "aclrtMallocWithCfg", "aclrtMallocForTaskScheduler",
        )
    ),
    # the queue calls without a current device: rtGetDevice's code passed on by ACL_REQUIRES_RTS_OK /
    # ACL_REQUIRES_RTS_OK_WARN_NOT_SUPPORT (src/acl/acl_tdt_queue/queue_process_host.cpp,
    # queue_process.cpp GetDeviceId), which log without reporting; an empty or full queue after the
    # timeout: ACL_LOG_INFO only (queue_process.cpp acltdtEnqueueData, acltdtDequeueData)
    *((name, 107002) for name in (
        "acltdtCreateQueue", "acltdtDestroyQueue", "acltdtEnqueueData", "acltdtDequeueData",
        "acltdtBindQueueRoutes", "acltdtUnbindQueueRoutes", "acltdtQueryQueueRoutes",
    )),
    ("acltdtEnqueueData", 207014),
    ("acltdtDequeueData", 207013),
    # aclrtNotifyBatchReset off RT_FEATURE_NOTIFY_RESET (not Ascend910B/910_93/950): rtNotifyReset's WARN and
    # the bare code (src/runtime/api/api_c_standard_soc.cc:1960-1966)
    ("aclrtNotifyBatchReset", 207000),
} | {
    # An operator's phase 1 returns ACLNN_ERR_INNER_NULLPTR through CHECK_RET(x != nullptr,
    # ACLNN_ERR_INNER_NULLPTR), which logs nothing, after an l0 op that fails without a report:
    # l0op::Cast of a dtype pair no engine takes (ops-math math/cast/op_api/cast.cpp: CHECK_RET(
    # IsAiCpuSupport(self, dstDtype), nullptr)); also aclnnLtScalar's CHECK_RET(self != nullptr,
    # ACLNN_ERR_INNER_NULLPTR) (math/less/op_api/aclnn_lt_scalar.cpp).
    (api.phase1, 561103)
    for api in registry.IMPLEMENTED
}  # fmt: skip
# The same, on Ascend950 only (the regbase code paths).
SILENT_REGBASE = {
    # aclnnLtScalarGetWorkspaceSizeV35: CHECK_RET(other != nullptr, ACLNN_ERR_PARAM_NULLPTR), then
    # self (ops-math math/less/op_api/aclnn_lt_scalar.cpp); aclnnInplaceLtScalarGetWorkspaceSize calls it
    # with out = selfRef
    ("aclnnLtScalarGetWorkspaceSize", 161001),
    ("aclnnInplaceLtScalarGetWorkspaceSize", 161001),
}
_SILENT_ON_REGBASE = SILENT | SILENT_REGBASE
# Functions whose return value is the thread's last error code, not the call's status (they
# succeed whatever they return: acl_rt.h's aclrtGetLastError / aclrtPeekAtLastError).
RETURNS_AN_ERROR_CODE = {"aclrtGetLastError", "aclrtPeekAtLastError"}
# Calls that would end the world the example runs in; drawn rarely.
SET_ADDR = ("aclSetTensorAddr", "aclSetInputTensorAddr", "aclSetOutputTensorAddr")
DISRUPTIVE = {"aclFinalize", "aclFinalizeReference", "aclrtResetDevice", "aclrtResetDeviceForce", "aclrtDestroyContext"}
# Functions that let queued device work run (their declared writes are what that work declared).
RUNS_QUEUED_WORK = {
    "aclrtSynchronizeStream", "aclrtSynchronizeStreamWithTimeout", "aclrtSynchronizeDevice",
    "aclrtSynchronizeDeviceWithTimeout", "aclrtSynchronizeEvent", "aclrtSynchronizeEventWithTimeout",
    "aclrtStreamQuery", "aclrtQueryEventStatus", "aclrtDestroyStream", "aclrtResetDevice", "aclrtResetDeviceForce",
    "aclFinalize", "aclFinalizeReference", "aclrtDestroyContext",
    # they drain the stream an event was recorded on, or run other streams' work while they wait
    "aclrtQueryEvent", "aclrtQueryEventWaitStatus", "aclrtStreamWaitEvent", "aclrtStreamWaitEventWithFlag",
    "aclrtStreamWaitEventWithTimeout", "aclrtWaitAndResetNotify", "aclrtValueWait", "aclrtLaunchCallback",
    "aclrtProcessReport", "aclrtDestroyStreamForce", "aclrtStreamAbort", "aclrtStreamStop",
    # they wait for the device's streams before they free
    "aclrtFreeWithDevSync", "aclrtFreeHostWithDevSync",
}  # fmt: skip

PROF_DIR = tempfile.mkdtemp(prefix="aclnn_py_fuzz_prof_")
# aclAppLog at an enabled level writes a plog file as CANN's slog does (~/ascend/log by default)
LOG_DIR = tempfile.mkdtemp(prefix="aclnn_py_fuzz_log_")
WEIRD = [object(), "text", 1.5, float("nan"), [1, 2], {"a": 1}, b"bytes", -1, 2**70, True]


class World:
    """The objects an example's calls draw their arguments from."""

    def __init__(self) -> None:
        testing.reset()
        import os

        # A waiting task (aclrtValueWait, a notify wait) whose condition nothing meets fails after
        # this long instead of a minute (on hardware the stream would hang).
        stream_mod.WAIT_LIMIT_S = 0.05
        os.environ["ACLNN_PY_DEVICE_COUNT"] = "2"
        os.environ["ACLNN_PY_DEVICE_MEMORY"] = "64M"  # sizes up to 2**65 are drawn: keep RAM bounded
        os.environ["ASCEND_PROCESS_LOG_PATH"] = LOG_DIR
        assert aclnn_py.aclInit(None) == 0
        # the profile of a profiler that initialises itself (aclprofStart without aclprofInit) goes
        # here, not to the working directory
        assert aclnn_py.aclprofSetConfig(aclnn_py.ACL_PROF_PATH, PROF_DIR, len(PROF_DIR)) == 0
        os.environ.pop("ACLNN_PY_DEVICE_COUNT", None)
        os.environ.pop("ACLNN_PY_DEVICE_MEMORY", None)
        api_log.plog_path()  # fixed now, under LOG_DIR
        os.environ.pop("ASCEND_PROCESS_LOG_PATH", None)
        assert aclnn_py.aclrtSetDevice(1) == 0
        foreign = Ref()
        aclnn_py.aclrtMalloc(foreign, 256, 0)
        elsewhere = Ref()
        aclnn_py.aclrtCreateStream(elsewhere)  # a stream of device 1: the wrong stream for device 0's work
        self.other_stream = elsewhere.value
        assert aclnn_py.aclrtSetDevice(0) == 0
        self.ptrs: list[int] = [foreign.value]
        self.freed: list[int] = []
        for size in (64, 256, 4096):
            p = Ref()
            aclnn_py.aclrtMalloc(p, size, 0)
            aclnn_py.aclrtMemset(p.value, size, 0x11, size)
            self.ptrs.append(p.value)
        gone = Ref()
        aclnn_py.aclrtMalloc(gone, 128, 0)
        aclnn_py.aclrtFree(gone.value)
        self.freed.append(gone.value)
        host = Ref()
        aclnn_py.aclrtMallocHost(host, 128)
        self.host = host.value
        s = Ref()
        aclnn_py.aclrtCreateStream(s)
        self.streams: list[Any] = [s.value]
        dead = Ref()
        aclnn_py.aclrtCreateStream(dead)
        aclnn_py.aclrtDestroyStream(dead.value)
        self.dead_stream = dead.value
        e = Ref()
        aclnn_py.aclrtCreateEvent(e)
        self.events: list[Any] = [e.value]
        self.tensors = self._tensors()
        self.executors: list[Any] = []
        self.contexts: list[Any] = []
        # The operators' arguments (see draw_op_argument): a device buffer their tensors view,
        # filled with values of every kind (NaN, inf, huge, subnormal, zero bytes ...).
        pool = Ref()
        aclnn_py.aclrtMalloc(pool, DATA_POOL, 0)
        self.data: int = pool.value
        raw = _pool_bytes()
        aclnn_py.aclrtMemcpy(self.data, DATA_POOL, raw, raw.size, aclnn_py.ACL_MEMCPY_HOST_TO_DEVICE)
        self.workspaces: dict[int, int | None] = {}  # size -> a device buffer of exactly that size
        self.origin: dict[int, str] = {}  # id(executor) -> the phase-1 function that made it
        # The calls to make next, (name, arguments or None), see _plan_next; ``last_phase1``: the
        # arguments of each API's last successful phase 1; ``own``: buffers made for one tensor.
        self.plan: list[tuple[str, list[Any] | None]] = []
        self.own: list[int] = []
        self.last_phase1: dict[str, list[Any]] = {}
        self.ncalls = 0
        self.handles: list[Any] = []  # scalars, arrays and lists the calls made
        self.dead_handles: list[Any] = []  # a destroyed aclScalar and aclIntArray
        for make, destroy, args in (
            (aclnn_py.aclCreateScalar, aclnn_py.aclDestroyScalar, (1.0, 0)),
            (aclnn_py.aclCreateIntArray, aclnn_py.aclDestroyIntArray, ([0], 1)),
        ):
            h = make(*args)
            destroy(h)
            self.dead_handles.append(h)

    def _tensors(self) -> list[Any]:
        make = aclnn_py.aclCreateTensor
        p = self.ptrs[3]  # 4096 bytes
        specs = [
            ([4, 2], 0, None, 0, [4, 2]),
            ([2, 2, 2, 2], 0, None, 0, [2, 2, 2, 2]),
            ([2, 2, 2, 2], 12, None, 0, [2, 2, 2, 2]),  # BOOL
            ([4, 2], 1, None, 0, [4, 2]),  # FLOAT16
            ([4, 2], 27, None, 0, [4, 2]),  # BF16
            ([2, 4], 0, [1, 2], 0, [4, 2]),  # transposed view
            ([3], 0, [-1], 2, [3]),  # negative stride
            ([1] * 9, 0, None, 0, [1] * 9),  # more than 8 dims
            ([1] * 26, 0, None, 0, [1] * 26),  # more than 25 dims
            ([-2, 3], 0, None, 0, [6]),  # negative dim
            ([64, 64], 0, None, 0, [64, 64]),  # larger than its allocation
            ([4], 0, [1000], 0, [4]),  # strides reach outside the storage
            ([0, 4], 0, None, 0, [0, 4]),  # empty
            ([4, 2], 3, None, 0, [4, 2]),  # INT32
            ([4, 2], 99, None, 0, [4, 2]),  # unknown dtype
        ]
        out = [make(v, len(v), dt, st_, off, 2, s, len(s), p) for v, dt, st_, off, s in specs]
        nodata = make([4, 2], 2, 0, None, 0, 2, [4, 2], 2, None)
        out.append(nodata)
        dead = make([4, 2], 2, 0, None, 0, 2, [4, 2], 2, p)
        aclnn_py.aclDestroyTensor(dead)
        out.append(dead)
        foreign = make([4, 2], 2, 0, None, 0, 2, [4, 2], 2, self.ptrs[0])
        out.append(foreign)
        return [t for t in out if t is not None]

    def note_result(self, name: str, args: dict[str, Any], result: Any) -> None:
        """Keep handles the call produced so later calls can use them."""
        for key, v in args.items():
            if isinstance(v, Ref) and v.value is not None:
                val = v.value
                if isinstance(val, Stream):
                    self.streams.append(val)
                elif isinstance(val, Event):
                    self.events.append(val)
                elif isinstance(val, aclnn_py.aclOpExecutor):
                    self.executors.append(val)
                    self.origin[id(val)] = name
                elif type(val).__name__ == "Context":
                    self.contexts.append(val)
                elif isinstance(val, int) and key in ("devPtr", "hostPtr") and name.startswith("aclrtMalloc"):
                    self.ptrs.append(val)
        if isinstance(result, aclnn_py.aclTensor):
            self.tensors.append(result)
        elif result is not None and hasattr(result, "alive"):
            self.handles.append(result)

    def workspace(self, size: int) -> int | None:
        """A device buffer of exactly ``size`` bytes (made once per size; None if there is no room)."""
        if size <= 0:
            return None
        if size not in self.workspaces:
            p = Ref()
            ok = aclnn_py.aclrtMalloc(p, size, 0) == 0
            self.workspaces[size] = p.value if ok else None
            aclnn_py.aclGetRecentErrMsg()  # a failed allocation's message is not the next call's
        return self.workspaces[size]

    def close(self) -> None:
        mode = sanitizer.MODE  # the leak check of the teardown is not the fuzzed calls' business
        sanitizer.set_mode("off")
        testing.reset()
        sanitizer.set_mode(mode)


# -- argument strategies ------------------------------------------------------------------------


def _pointer(world: World, data: random.Random, host_ok: bool) -> Any:
    choices: list[Any] = ["live", "interior", "freed", "null", "zero", "random", "weird", "ctypes"]
    if host_ok:
        choices += ["array", "bytes", "bytearray", "pinned", "strided"]
    kind = _one(data, choices)
    if kind == "live":
        return _one(data, world.ptrs)
    if kind == "interior":
        return _one(data, world.ptrs) + _int_in(data, 0, 200)
    if kind == "freed":
        return _one(data, world.freed)
    if kind == "null":
        return None
    if kind == "zero":
        return 0
    if kind == "random":
        return _int_in(data, -(2**65), 2**65)
    if kind == "weird":
        return _one(data, WEIRD)
    if kind == "ctypes":
        return ctypes.c_void_p(_one(data, world.ptrs))
    if kind == "array":
        return np.zeros(_int_in(data, 0, 300), dtype=_one(data, [np.uint8, np.float32]))
    if kind == "bytes":
        return bytes(_int_in(data, 0, 300))
    if kind == "bytearray":
        return bytearray(_int_in(data, 0, 300))
    if kind == "pinned":
        return world.host + _int_in(data, 0, 64)
    return np.zeros(64, np.float32)[::2]


# Strategies are made once: making one per draw costs more than the draw.
_INTS: dict[tuple[int, int], st.SearchStrategy[int]] = {}


def _int_in(data: random.Random | st.DataObject, lo: int, hi: int) -> int:
    """An integer in [lo, hi], from a ``random.Random`` or a hypothesis draw (its strategy made once)."""
    if isinstance(data, random.Random):
        return data.randint(lo, hi)
    s = _INTS.get((lo, hi))
    if s is None:
        s = _INTS[(lo, hi)] = st.integers(lo, hi)
    return data.draw(s)


def _one(data: random.Random | st.DataObject, seq: Any) -> Any:
    """One element of the sequence."""
    return seq[_int_in(data, 0, len(seq) - 1)]


def _flags(data: random.Random, n: int) -> list[bool]:
    return [data.random() < 0.5 for _ in range(n)]


def _size(data: random.Random) -> Any:
    kind = _int_in(data, -3, 3)
    if kind < 0:
        return _int_in(data, 0, 4)
    if kind == 0:
        return _int_in(data, 0, 5000)
    if kind == 1:
        return _int_in(data, -(2**64), 2**65)
    return _one(data, [0, 1, 2**63, 2**64 - 1, 2**64, -1] if kind == 2 else [*WEIRD, None])


def _out(data: random.Random) -> Any:
    kind = _one(data, ["ref", "ref", "ref", "none", "ctypes", "byref", "weird"])
    if kind == "ref":
        return Ref()
    if kind == "ctypes":
        return ctypes.c_uint64()
    if kind == "byref":
        return ctypes.byref(ctypes.c_int64())
    return [] if kind == "weird" else None


def _handle(data: random.Random, pool: list[Any], dead: list[Any]) -> Any:
    kind = _one(data, ["live", "live", "dead", "null", "weird"])
    if kind == "live" and pool:
        return _one(data, pool)
    if kind == "dead" and dead:
        return _one(data, dead)
    if kind == "weird":
        return _one(data, WEIRD)
    return None


def _int(data: random.Random, lo: int, hi: int) -> Any:
    kind = _int_in(data, 0, 2)
    if kind == 0:
        return _int_in(data, lo, hi)
    if kind == 1:
        return _one(data, [_int_in(data, -(2**64), 2**64), _int_in(data, -1000, 1000), 2**63, 2**32, -(2**63)])
    return _one(data, [*WEIRD, None, 0])


def _dims(data: random.Random) -> Any:
    kind = _int_in(data, 0, 3)
    if kind == 0:
        return [_int_in(data, -3, 6) for _ in range(_one(data, [0, 1, 2, 2, 3, 4, 10]))]
    if kind == 1:
        return [_int_in(data, -(2**64), 2**64) for _ in range(_int_in(data, 0, 3))]
    if kind == 2:
        return [1] * 30
    return _one(data, [None, "abc", [1.5, 2], (2, 3), np.array([2, 3]), (ctypes.c_int64 * 2)(2, 3)])


def _any_float(data: random.Random) -> float:
    """Any double, by its bits: NaNs with payloads, subnormals, infinities."""
    return float(struct.unpack("<d", data.getrandbits(64).to_bytes(8, "little"))[0])


# -- operator arguments: drawn from the registry, by C parameter kind --------------------------
#
# No per-operator code: each aclnn API's parameters come from its registry row (Param.kind), and
# its tensors' dtypes from its module's DTYPE_FACTS on the chip in effect (and some it refuses).

# Every operator function -> its registry row and its phase (1: GetWorkspaceSize, 2: the launch).
OP_APIS: dict[str, tuple[registry.Api, int]] = {
    name: (api, phase) for api in registry.IMPLEMENTED for phase, name in ((1, api.phase1), (2, api.name))
}
HANDLES = (aclnn_py.aclScalar, aclnn_py.aclIntArray, aclnn_py.aclBoolArray, aclnn_py.aclFloatArray,
           aclnn_py.aclTensorList, aclnn_py.aclScalarList)  # fmt: skip
DATA_POOL = 64 * 1024  # bytes of the device buffer the operators' tensors view
ALL_DTYPES = tuple(int(d) for d in aclnn_py.aclDataType if d >= 0)
BAD_DTYPES = (-1, 28, 42, 43, 99, 2**31 - 1)  # undefined, unknown, one past the end, absurd
SCALAR_DTYPES = (0, 1, 27, 2, 3, 9, 4, 6, 12, 11, 10, 8, 7, 16, 17, 35, 36)
SCALAR_VALUES: tuple[Any, ...] = (
    0, 1, -1, 2, 7, -3, 0.5, 3.5, -2.25, -0.0, 1e-45, 1e-40, 65504.0, 65520.0, 3.4e38, 1e39, -1e39, 1e308,
    math.nan, -math.nan, math.inf, -math.inf, 127, 128, 255, 256, -129, 2**31 - 1, 2**31, -(2**31), 2**32,
    2**53 + 1, 2**63 - 1, -(2**63), 2**63, 2**64 - 1, 2**64, -(2**64), 2**100, complex(1, 2), complex(0, -1),
    complex(math.nan, 1), complex(math.inf, 0), True, False, np.float16(3.0), np.int8(-5), np.uint64(2**64 - 1),
)  # fmt: skip
FLOAT_VALUES: tuple[Any, ...] = (
    0.0, 1.0, -1.0, 0.5, 2.0, 1e-12, -0.0, math.nan, math.inf, -math.inf, 1e39, -1e39, 3.4e38, 1e308, -1e308,
    5e-324, 2**1100, -(2**1100), 10**400, np.float32(1.5), np.float64(math.nan), np.int64(3),
)  # fmt: skip
INT_VALUES: tuple[Any, ...] = (
    127, 128, -129, 255, 2**31 - 1, 2**31, -(2**31) - 1, 2**32, 2**63 - 1, -(2**63), 2**63, -(2**63) - 1, 2**64,
    np.int64(1), np.int32(-1), np.uint64(2**64 - 1), ctypes.c_int64(2), True,
)  # fmt: skip
BOOLS: tuple[Any, ...] = (True, False, True, False, 0, 1, 2, np.bool_(True), None, "x")
FORMATS = (2, 2, 2, 2, 2, 2, 2, 0, 1, 3, 29, 4, 30, -1, 99)
_FACTS: dict[tuple[str, str, str | None], tuple[int, ...]] = {}


def allowed_dtypes(api: registry.Api, param: str | None = None) -> tuple[int, ...]:
    """The dtypes the API's module accepts on the chip in effect, from its DTYPE_FACTS: the lists
    whose label names ``param`` (a word of the label), else every list."""
    key = (api.module, _soc.current().name, param)
    if key not in _FACTS:
        facts = getattr(importlib.import_module(api.module_path), "DTYPE_FACTS", {})
        named = [fn for label, fn in facts.items() if param in re.findall(r"\w+", label)]
        seen: list[int] = []
        for fn in named or facts.values():
            seen += [int(d) for d in fn() if int(d) not in seen]
        _FACTS[key] = tuple(seen)
    return _FACTS[key]


def _pool_bytes() -> np.ndarray:
    """What the data pool holds: floats of every class in each width, integers, bools, noise."""
    rng = np.random.default_rng(20261122)
    f32 = np.array([0, -0.0, 1, -1, 0.5, 3, -7.25, 1e-40, 3.4e38, np.inf, -np.inf, np.nan, 1e-3, 100], np.float32)
    f16 = np.array([0, -0.0, 1, -2, 0.25, 6e-8, 65504, np.inf, -np.inf, np.nan, 5, -0.5], np.float16)
    i32 = np.array([0, 1, -1, 2, 3, 2**31 - 1, -(2**31), 7, 0, 1], np.int32)
    parts = [
        np.tile(f32, 200).view(np.uint8), np.tile(f16, 200).view(np.uint8), np.tile(i32, 200).view(np.uint8),
        rng.integers(0, 2, 4096, dtype=np.uint8), rng.integers(0, 256, DATA_POOL, dtype=np.uint8),
    ]  # fmt: skip
    raw = np.concatenate(parts)[:DATA_POOL]
    out = rng.permutation(raw.reshape(-1, 32)).reshape(-1)  # 32-byte blocks, mixed
    return np.ascontiguousarray(out)


class Call:
    """One operator call being drawn: its API, the shape its tensors vary around, what came before."""

    def __init__(self, api: registry.Api, base: list[int], sane: bool) -> None:
        self.api = api
        self.base = base
        self.sane = sane  # arguments an operator could accept, mostly; else anything goes
        self.tensors: list[Any] = []  # the tensor arguments drawn so far (for aliasing)
        self.dtypes: list[int] = []


def _pick(data: random.Random, call: Call | None, weighted: dict[str, int], sane: dict[str, int] | None = None) -> str:
    """One of the keys, drawn with the given weights (``sane``'s in a sane call, if given)."""
    w = sane if sane is not None and call is not None and call.sane else weighted
    return _one(data, [k for k, n in w.items() for _ in range(n)])


def _shape(call: Call, data: random.Random) -> list[int]:
    base = call.base
    how = _pick(
        data,
        call,
        {"same": 10, "bcast": 4, "other": 2, "0d": 1, "empty": 1, "rank9": 1, "free": 1},
        {"same": 16, "bcast": 2, "0d": 1, "empty": 1},
    )
    if how == "same":
        return list(base)
    if how == "bcast":  # broadcasts with base: leading dims dropped, some dims 1
        keep = base[_int_in(data, 0, len(base)) :]
        ones = _flags(data, len(keep))
        return [1 if one else d for d, one in zip(keep, ones)]
    if how == "other":  # does not broadcast: one dim changed
        if not base:
            return [_int_in(data, 2, 3)]
        i = _int_in(data, 0, len(base) - 1)
        return [d + (2 if d == 1 else 1) if j == i else d for j, d in enumerate(base)]
    if how == "0d":
        return []
    if how == "empty":
        shape = list(base) or [3]
        shape[_int_in(data, 0, len(shape) - 1)] = 0
        return shape
    if how == "rank9":  # more than 8 dims (now and then more than 25)
        tail = list(base)[-2:]
        return [1] * _int_in(data, 9 - len(tail), _one(data, [10, 10, 10, 26])) + tail
    return [_int_in(data, 0, 5) for _ in range(_int_in(data, 0, 5))]


def _layout(call: Call, shape: list[int], data: random.Random) -> tuple[list[int], int, list[int]]:
    """Strides, offset (elements) and storage shape of a view of ``shape``."""
    contiguous = list(dtypes.contiguous_strides(shape))
    how = _pick(
        data,
        call,
        {"contiguous": 12, "transposed": 2, "strided": 1, "offset": 1, "expanded": 1, "negative": 1, "garbage": 1},
        {"contiguous": 14, "transposed": 2, "strided": 1, "offset": 1},
    )
    if how == "transposed" and len(shape) >= 2:
        stored = [*shape[:-2], shape[-1], shape[-2]]
        s = list(dtypes.contiguous_strides(stored))
        return [*s[:-2], s[-1], s[-2]], 0, stored
    strides, offset = contiguous, 0
    if how == "strided":
        strides = [2 * s for s in contiguous]
    elif how == "offset":
        offset = _int_in(data, 1, 6)
    elif how == "expanded" and shape:
        i = _int_in(data, 0, len(shape) - 1)
        strides = [0 if j == i else s for j, s in enumerate(contiguous)]
    elif how == "negative" and shape:
        i = _int_in(data, 0, len(shape) - 1)
        strides = [-s if j == i else s for j, s in enumerate(contiguous)]
        offset = max(shape[i] - 1, 0) * contiguous[i]
    elif how == "garbage":
        strides = [_int_in(data, -3, 9) for _ in shape]
        offset = _int_in(data, -2, 9)
        return strides, offset, [_int_in(data, 0, 9) for _ in range(_int_in(data, 0, 3))]
    else:
        return strides, 0, list(shape)
    if 0 in shape:
        return strides, offset, [0]
    reach = offset + sum((d - 1) * abs(s) for d, s in zip(shape, strides)) + 1
    return strides, offset, [reach]


def _fresh_tensor(world: World, call: Call, param: str, data: random.Random) -> Any:
    allowed = allowed_dtypes(call.api, param)
    which = _pick(data, call, {"allowed": 6, "as_before": 4, "refused": 2, "bad": 1}, {"allowed": 4, "as_before": 8})
    before = [d for d in call.dtypes if d in allowed] if call.sane and allowed else call.dtypes
    if which == "as_before" and before:
        dt = _one(data, before)
    elif which in ("allowed", "as_before") and allowed:
        dt = _one(data, allowed)
    elif which == "bad":
        dt = _one(data, BAD_DTYPES)
    else:
        dt = _one(data, [d for d in ALL_DTYPES if d not in allowed] or ALL_DTYPES)
    shape = _shape(call, data)
    strides, offset, stored = _layout(call, shape, data)
    fmt = _one(data, FORMATS) if not call.sane or not _int_in(data, 0, 4) else 2
    nbytes = dtypes.shape_bytes(max(dtypes.numel(stored), 0), dtypes.to_op_dtype(dt)) if dt in ALL_DTYPES else 64
    where = _pick(
        data, call, {"pool": 16, "own": 1, "none": 1, "freed": 1, "foreign": 1, "misaligned": 1}, {"pool": 12, "own": 1}
    )
    addr: Any = None
    if where == "own":  # a buffer of its own, exactly its size (which a later call may free)
        p = Ref()
        if aclnn_py.aclrtMalloc(p, max(nbytes, 1), 0) == 0:
            addr = p.value
            world.own.append(addr)
            world.ptrs.append(addr)
        aclnn_py.aclGetRecentErrMsg()
    elif where in ("pool", "misaligned"):
        room = max(DATA_POOL - nbytes, 0) // 32
        addr = world.data + 32 * _int_in(data, 0, room)
        if where == "misaligned":
            addr += _int_in(data, 1, 31)
    elif where == "freed":
        addr = world.freed[0]
    elif where == "foreign":
        addr = world.ptrs[0]
    t = aclnn_py.aclCreateTensor(shape, len(shape), dt, strides, offset, fmt, stored, len(stored), addr)
    if t is not None:
        world.tensors.append(t)
        call.dtypes.append(dtypes.to_op_dtype(dt))
    return t


def _op_tensor(world: World, call: Call, param: str, data: random.Random) -> Any:
    how = _pick(
        data, call, {"fresh": 14, "alias": 3, "pool": 1, "null": 1, "dead": 1, "weird": 1}, {"fresh": 8, "alias": 1}
    )
    if how == "alias" and call.tensors:  # in place: the same tensor passed again
        t = _one(data, call.tensors)
    elif how == "pool":
        t = _handle(data, [t for t in world.tensors if t.alive], [])
    elif how == "null":
        t = None
    elif how == "dead":
        t = _one(data, [t for t in world.tensors if not t.alive])
    elif how == "weird":
        t = _one(data, [*WEIRD, *world.dead_handles, world.streams[0]])
    else:
        t = _fresh_tensor(world, call, param, data)
    call.tensors.append(t)
    return t


def _first_rank(call: Call) -> int:
    for t in call.tensors:
        if isinstance(t, aclnn_py.aclTensor):
            return t.rank
    return len(call.base)


def _op_scalar(world: World, call: Call, param: str, data: random.Random) -> Any:
    how = _pick(data, call, {"fresh": 12, "null": 1, "dead": 1, "weird": 1}, {"fresh": 1})
    if how == "null":
        return None
    if how == "dead":
        return world.dead_handles[0]
    if how == "weird":
        return _one(data, [*WEIRD, world.tensors[0]])
    which = _pick(data, call, {"allowed": 3, "common": 4, "any": 1}, {"allowed": 3, "common": 2})
    allowed = allowed_dtypes(call.api, param)
    if which == "allowed" and allowed:
        dt = _one(data, allowed)
    elif which == "any":
        dt = _one(data, ALL_DTYPES + BAD_DTYPES)
    else:
        dt = _one(data, SCALAR_DTYPES)
    return aclnn_py.aclCreateScalar(_one(data, SCALAR_VALUES), dt)


def _op_int_array(world: World, call: Call, data: random.Random) -> Any:
    how = _pick(
        data,
        call,
        {"valid": 6, "negative": 2, "out": 2, "duplicated": 1, "empty": 2, "huge": 1, "null": 1, "dead": 1, "weird": 1},
        {"valid": 6, "negative": 2, "empty": 1},
    )
    if how == "null":
        return None
    if how == "dead":
        return world.dead_handles[1]
    if how == "weird":
        return _one(data, [*WEIRD, world.tensors[0], world.dead_handles[0]])
    r = _first_rank(call)
    dims = [d for d, keep in zip(range(r), _flags(data, r)) if keep]
    if how == "negative":
        dims = [d - r for d in dims] or [-1]
    elif how == "out":
        dims = [*dims, _one(data, [r, r + 1, -r - 1, 8, 25])]
    elif how == "duplicated":
        d = _int_in(data, 0, max(r - 1, 0))
        dims = [d, _one(data, [d, d - r])]
    elif how == "empty":
        dims = []
    elif how == "huge":
        dims = [_one(data, [2**62, 2**63 - 1, -(2**63), -(2**40)])]
    return aclnn_py.aclCreateIntArray(dims, len(dims))


def _op_list(world: World, call: Call, kind: str, param: str, data: random.Random) -> Any:
    """aclBoolArray, aclFloatArray, aclTensorList, aclScalarList: a few elements, or nullptr."""
    if _pick(data, call, {"fresh": 8, "null": 1, "weird": 1}, {"fresh": 1}) != "fresh":
        return _one(data, [None, *WEIRD])
    n = _int_in(data, 0, 4)
    if kind == "bool_array":
        return aclnn_py.aclCreateBoolArray(_flags(data, n), n)
    if kind == "float_array":
        return aclnn_py.aclCreateFloatArray([_one(data, FLOAT_VALUES[:-3]) for _ in range(n)], n)
    if kind == "tensor_list":
        items = [_fresh_tensor(world, call, param, data) for _ in range(n)]
        return aclnn_py.aclCreateTensorList(items, n)
    items = [_op_scalar(world, call, param, data) for _ in range(n)]
    return aclnn_py.aclCreateScalarList(
        [s if isinstance(s, aclnn_py.aclScalar) and s.alive else None for s in items], n
    )


def _op_int(call: Call, data: random.Random) -> Any:
    if call.sane:
        return _int_in(data, -2, 3)
    kind = _int_in(data, 0, 3)
    return _int_in(data, -4, 4) if kind < 2 else _one(data, INT_VALUES if kind == 2 else [*WEIRD, None])


def _op_float(call: Call, data: random.Random) -> Any:
    if call.sane:
        return _one(data, FLOAT_VALUES[:9])
    kind = _int_in(data, 0, 3)
    return _one(data, FLOAT_VALUES) if kind < 2 else _any_float(data) if kind == 2 else _one(data, [*WEIRD, None])


def _op_dtype(call: Call, param: str, data: random.Random) -> Any:
    which = _pick(data, call, {"allowed": 5, "any": 3, "bad": 2, "weird": 1}, {"allowed": 4, "any": 1})
    allowed = allowed_dtypes(call.api, param)
    if which == "allowed" and allowed:
        return _one(data, allowed)
    if which == "bad":
        return _one(data, [*BAD_DTYPES, -(2**31) - 1, 2**40])
    if which == "weird":
        return _one(data, [*WEIRD, None])
    return _one(data, ALL_DTYPES)


def _op_out(data: random.Random) -> Any:
    """A phase-1 out-parameter: nearly always one that can receive the value."""
    return Ref() if _int_in(data, 0, 11) else _out(data)


def _phase2_arguments(world: World, api: registry.Api, data: random.Random) -> list[Any]:
    """(workspace, workspaceSize, executor, stream): the executor phase 1 made for this API (or a
    consumed, foreign, null one), its workspace of the right size, too small, null, elsewhere."""
    mine = [e for e in world.executors if world.origin.get(id(e)) == api.phase1]
    how = _pick(data, None, {"mine": 12, "consumed": 2, "other": 1, "null": 1, "weird": 1})
    if how == "mine" and mine:
        ready = [e for e in mine if e.state == "ready"]
        executor: Any = _one(data, ready or mine)
    elif how == "consumed" and mine:  # phase 2 twice
        executor = _one(data, mine)
    elif how in ("mine", "consumed", "other") and world.executors:  # another API's
        executor = _one(data, world.executors)
    elif how == "weird":
        executor = _one(data, [*WEIRD, world.tensors[0]])
    else:
        executor = None
    need = executor.workspace_size if isinstance(executor, aclnn_py.aclOpExecutor) else 0
    how = _pick(data, None, {"right": 12, "small": 2, "null": 1, "larger": 1, "elsewhere": 1, "random": 2})
    if how == "right" or (how in ("small", "larger") and need == 0):
        if need == 0 and bool(_int_in(data, 0, 1)):
            workspace, size = world.ptrs[1], 0
        else:
            workspace, size = world.workspace(need), need
    elif how == "small":  # too small: the size, or the buffer
        if bool(_int_in(data, 0, 1)):
            workspace, size = world.workspace(need), _one(data, [need - 1, need // 2, 1])
        else:
            workspace, size = world.ptrs[1], need
    elif how == "null":
        workspace, size = None, need
    elif how == "larger":
        workspace, size = world.workspace(need), need + 4096
    elif how == "elsewhere":  # device 1's memory, or freed memory
        workspace, size = _one(data, [world.ptrs[0], world.freed[0]]), need
    else:
        workspace, size = _pointer(world, data, host_ok=False), _size(data)
    how = _pick(data, None, {"right": 10, "default": 2, "wrong": 2, "dead": 1, "weird": 1})
    live = [s for s in world.streams if not s.destroyed]
    if how == "right" and live:
        stream = _one(data, live)
    elif how == "wrong":
        stream = world.other_stream
    elif how == "dead":
        stream = world.dead_stream
    elif how == "weird":
        stream = _one(data, [*WEIRD, world.events[0]])
    else:
        stream = None
    return [workspace, size, executor, stream]


def draw_op_arguments(world: World, name: str, data: random.Random) -> list[Any]:
    """The arguments of an aclnn API's phase 1 or phase 2, by the registry's parameter kinds."""
    api, phase = OP_APIS[name]
    if phase == 2:
        return _phase2_arguments(world, api, data)
    rank = _one(data, [0, 1, 1, 2, 2, 2, 3, 3, 4, 4])
    base = [_one(data, [1, 2, 2, 3, 3, 4]) for _ in range(rank)]
    call = Call(api, base, sane=_int_in(data, 0, 2) > 0)
    args: list[Any] = []
    for p in api.params:
        kind = p.kind
        if kind == "tensor":
            args.append(_op_tensor(world, call, p.name, data))
        elif kind == "scalar":
            args.append(_op_scalar(world, call, p.name, data))
        elif kind == "int_array":
            args.append(_op_int_array(world, call, data))
        elif kind in ("bool_array", "float_array", "tensor_list", "scalar_list"):
            args.append(_op_list(world, call, kind, p.name, data))
        elif kind == "int":
            args.append(_op_int(call, data))
        elif kind in ("float", "double"):
            args.append(_op_float(call, data))
        elif kind == "bool":
            args.append(_one(data, BOOLS[:2] if call.sane else BOOLS))
        elif kind == "dtype":
            args.append(_op_dtype(call, p.name, data))
            if args[-1] in ALL_DTYPES:  # an out tensor may follow it
                call.dtypes.append(args[-1])
        else:  # a kind this harness does not know yet: junk, so the surface still sees it
            args.append(_one(data, [*WEIRD, None]))
    world.handles += [a for a in args if isinstance(a, HANDLES) and a not in world.handles]
    return [*args, _op_out(data), _op_out(data)]


def draw_argument(world: World, fn_name: str, param: str, data: random.Random) -> Any:
    """One argument for parameter ``param`` of ``fn_name``: mostly plausible, often wrong."""
    # (the operators' arguments come from the registry: draw_op_arguments)
    dead_tensors = [t for t in world.tensors if not t.alive]
    if param == "tensor":
        return _handle(data, [t for t in world.tensors if t.alive], dead_tensors)
    if param in ("scalar", "array"):
        return _handle(data, [h for h in world.handles if h.alive], [h for h in world.handles if not h.alive])
    if param in ("executor",):
        return _handle(
            data, [e for e in world.executors if e.state == "ready"], [e for e in world.executors if e.state != "ready"]
        )
    if param in ("stream",):
        return _handle(data, [s for s in world.streams if not s.destroyed], [world.dead_stream])
    if param in ("event", "startEvent", "endEvent"):
        return _handle(data, [e for e in world.events if not e.destroyed], [e for e in world.events if e.destroyed])
    if param == "context":
        if fn_name in ("aclrtCreateContext", "aclrtGetCurrentContext"):
            return _out(data)
        return _handle(data, world.contexts, [])
    if param in ("devPtr", "hostPtr") and (fn_name.startswith("aclrtMalloc") or fn_name.startswith("aclrtGet")):
        return _out(data)
    if param in ("dst", "src", "devPtr", "hostPtr", "workspace", "tensorData", "addr", "tensorDataAddr"):
        if fn_name in ("aclGetRawTensorAddr",):
            return _out(data)
        return _pointer(world, data, host_ok=param in ("dst", "src"))
    if param in ("size", "count", "destMax", "maxCount", "workspaceSize", "viewDimsNum", "storageDimsNum", "index"):
        return _size(data)
    if param in ("viewDims", "storageDims", "stride"):
        return _dims(data)
    if param in ("deviceId",):
        return _int(data, -1, 3)
    if param in ("dataType",):
        return _one(data, [0, 1, 27, 12, 3, -1, 13, 33, 41, 99, 2**40, *WEIRD])
    if param in ("format",):
        return _int(data, -1, 60)
    if param in ("kind",):
        return _int(data, -1, 8)
    if param in ("policy", "flag", "priority", "attr"):
        return _int(data, -1, 20)
    if param == "timeout" and fn_name in (
        "aclrtProcessReport",
        "aclrtWaitAndResetNotify",
        "acltdtSendTensor",
        "acltdtReceiveTensor",
    ):
        # never -1 (wait for ever): a bound thread with nothing reported would wait for good
        return _one(data, [1, 2, 0, -2, *WEIRD])
    if param == "timeout" and fn_name in ("acltdtEnqueueData", "acltdtDequeueData"):
        # a queue waits on its own: never -1 (WEIRD holds it), a few ms at most
        return _one(data, [1, 2, 0, -2, 5, "text", 1.5, 2**70])
    if param in ("timeout",):
        return _int(data, -3, 100)
    if param == "offset" and not fn_name.startswith("aclGet"):
        return _int(data, -3, 5)
    if param in ("value",):
        if fn_name.startswith("aclCreate"):
            return _one(data, [None, [1, 2, 3], [1.5], 3.5, b"\x01\x02\x03\x04", np.ones(3), "s", [world.tensors[0]]])
        return _int(data, -300, 300)
    if param in ("configPath",):
        return _one(data, [None, "", "/nonexistent/acl.json", 5, b"/tmp"])
    if param == "path" and fn_name == "aclopStartDumpArgs":  # it makes the directory: never in the tree
        return _one(data, [None, "", PROF_DIR, os.path.join(PROF_DIR, "args"), 5, b"/nonexistent/x", "/proc/x"])
    if param in ("refCount", "deviceId_out", "status", "ms", "free", "total", "runMode", "viewDims_out"):
        return _out(data)
    drawn = _draw_runtime_argument(world, fn_name, param, data)
    if drawn is not _JUNK:
        return drawn
    # accessor outs and anything else: an out-parameter or junk
    return _one(data, [Ref(), Ref(), None, *WEIRD])


_JUNK = object()  # _draw_runtime_argument: no plausible value known, draw junk
# Out-parameters of the wider runtime surface (a Ref mostly, sometimes NULL or junk).
_RUNTIME_OUTS = {
    "canAccessPeer", "canCompatible", "cannAttrList", "deviceStatus", "eventId", "greatestPriority",
    "leastPriority", "majorVersion", "minorVersion", "patchVersion", "notifyId", "streamCount", "streamId",
    "timestamp", "versionNum", "versionStr", "utilizationInfo", "uuid", "attributes", "errorInfo",
    "stridesValue", "stridesNum", "binHandle", "funcHandle", "argsHandle", "paramHandle", "bufferAddr",
}  # fmt: skip


def _world_extra(world: World, name: str, make: Callable[[], Any]) -> Any:
    """An object made once per world, on first use (notifies, a stream-config handle ...)."""
    if name not in world.__dict__:
        world.__dict__[name] = make()
    return world.__dict__[name]


def _notifies() -> list[Any]:
    made = []
    for _ in range(2):
        n = Ref()
        if aclnn_py.aclrtCreateNotify(n, 0) == 0:
            made.append(n.value)
    return made


def _config_handle() -> Any:
    h = aclnn_py.aclrtCreateStreamConfigHandle()
    aclnn_py.aclrtSetStreamConfigOpt(h, 3, (1).to_bytes(4, "little"), 4)  # priority 1
    return h


def _draw_runtime_argument(world: World, fn_name: str, param: str, data: random.Random) -> Any:
    """Plausible values for the parameters of the wider runtime surface (peer access, callbacks,
    notifies, stream-config handles, 2-D copies, versions ...), so that its functions succeed
    often enough to be exercised past their argument checks; ``_JUNK`` where none is known."""
    if param in _RUNTIME_OUTS or (param == "num" and fn_name == "aclGetCannAttributeList"):
        return _out(data)
    if param == "flags" and fn_name == "aclrtStreamGetFlags":
        return _out(data)
    if param == "ptr" and fn_name == "aclrtMallocHostWithCfg":
        return _out(data)
    if param in ("ptr", "devAddr"):
        return _pointer(world, data, host_ok=False)
    if param == "data" and fn_name in ("aclCreateDataBuffer", "aclUpdateDataBuffer"):
        return _pointer(world, data, host_ok=False)
    if param in ("N", "memSize", "dpitch", "spitch", "width", "height", "argsSize", "dataLen", "length"):
        return _size(data)
    if param in ("paramSize", "dataSize", "actualArgsSize", "userArgsSize", "placeHolderNum"):  # kernel arguments
        return _size(data)
    if param in ("param", "userHostMem", "hostArgs"):
        return _pointer(world, data, host_ok=True)
    if param in ("peerDeviceId",):
        return _int(data, -1, 2)
    if param in ("blockType", "level", "mode", "flags"):
        return _int(data, -1, 2)
    if param in ("numBlocks", "type", "devFeatureType", "cannAttr", "funcEntry"):
        return _int(data, -1, 8)
    if param == "valueSize":
        return _one(data, [4, 8, 8, 0, 2, -1, *WEIRD])
    if param == "attrValue":
        return _one(data, [(1).to_bytes(4, "little"), (0).to_bytes(8, "little"), 3, 1, None, *WEIRD])
    if param == "threadId":
        return _one(data, [threading.get_ident(), threading.get_ident(), 0, -1, *WEIRD])
    if param in ("fn", "callback"):
        return _one(data, [_noop, _noop, None, *WEIRD])
    if param in ("userData", "args"):
        return _one(data, [None, 7, "user data"])
    if param == "pkgName":
        return _one(data, ["runtime", "driver", "compiler", "opp", "no_such_package", None, *WEIRD])
    if param == "socVersion":
        return _one(data, [_soc.current().name, "Ascend910B1", "Ascend310P3", "NotASoc", None, *WEIRD])
    if param == "handle":
        live = _world_extra(world, "config_handle", _config_handle)
        return _one(data, [live, live, None, *WEIRD])
    if param == "notify":
        if fn_name == "aclrtCreateNotify":
            return _out(data)
        pool = _world_extra(world, "notifies", _notifies)
        return _handle(data, pool, [])
    if param == "notifies":
        pool = _world_extra(world, "notifies", _notifies)
        return _one(data, [list(pool), list(pool), [], None, *WEIRD])
    if param == "num" and fn_name == "aclrtNotifyBatchReset":
        return _int(data, 0, 3)
    if param == "dataBuffer":
        buffers = _world_extra(world, "data_buffers", lambda: [aclnn_py.aclCreateDataBuffer(world.ptrs[1], 256)])
        return _one(data, [*buffers, *buffers, None, *WEIRD])
    if param == "cfg":
        return _one(data, [None, None, *WEIRD])
    if param == "qid":  # acl_tdt_queue.h: the queues acltdtCreateQueue numbers from 0
        return _out(data) if fn_name == "acltdtCreateQueue" else _int(data, -1, 3)
    return _JUNK


def _noop(*args: Any) -> None:
    """A callback that does nothing (host callbacks, exception callbacks)."""


# -- the guard ---------------------------------------------------------------------------------


def snapshot() -> dict[int, np.ndarray]:
    return {a.start: a.buf.copy() for a in SPACE.live()}


def _address(p: Any) -> int | None:
    """A pointer argument as the C surface reads it (None: not an address)."""
    if isinstance(p, ctypes.c_void_p):
        p = p.value
    return p if isinstance(p, int) and not isinstance(p, bool) else None


def declared_writes(name: str, args: dict[str, Any]) -> list[tuple[int, int]]:
    """Byte ranges a call may change: its destination, or what queued work it lets run declared."""
    ranges: list[tuple[int, int]] = []
    if name in ("aclrtMemcpy", "aclrtMemset"):
        dst = args.get("dst", args.get("devPtr"))
        # the count as the C surface reads it: bool, numpy and ctypes integers convert like C's
        n = _plain_int(args.get("count"))
        if isinstance(dst, ctypes.c_void_p):
            dst = dst.value
        if isinstance(dst, int) and not isinstance(dst, bool) and dst and n is not None and n > 0:
            ranges.append((dst, dst + n))
    if name == "aclrtMemsetD32":  # N 32-bit values from ptr
        dst, n = _address(args.get("ptr")), _plain_int(args.get("N"))
        if dst and n is not None and n > 0:
            ranges.append((dst, dst + 4 * n))
    if name == "aclrtMemcpy2d":  # height rows of width bytes, dpitch apart
        dst = _address(args.get("dst"))
        pitch, width, height = (_plain_int(args.get(k)) for k in ("dpitch", "width", "height"))
        if dst and pitch is not None and width is not None and height is not None and width > 0 and height > 0:
            ranges.extend((dst + r * pitch, dst + r * pitch + width) for r in range(min(height, 1 << 16)))
    if name == "aclrtCmoSetDesc":  # the runtime's descriptor struct (64 bytes at most)
        desc = _address(args.get("cmoDesc"))
        if desc:
            ranges.append((desc, desc + 64))
    if name == "aclrtSetMemcpyDesc":  # the descriptor: source, destination and length
        desc = _address(args.get("desc"))
        if desc:
            ranges.append((desc, desc + 32))
    if name in RUNS_QUEUED_WORK:
        with sanitizer._lock:
            for use in sanitizer._pending.values():
                ranges.extend(use.writes)
    return ranges


def check_memory(before: dict[int, np.ndarray], allowed: list[tuple[int, int]]) -> str | None:
    """Describe any change outside the allowed ranges, or any damaged guard bytes."""
    for alloc in SPACE.live():
        if not alloc.canaries_intact():
            return f"guard bytes damaged around {alloc.describe()}"
        old = before.get(alloc.start)
        if old is None or old.size != alloc.size:
            continue
        changed = np.flatnonzero(old != alloc.buf)
        for off in changed:
            addr = alloc.start + int(off)
            if not any(lo <= addr < hi for lo, hi in allowed):
                return f"byte 0x{addr:x} of {alloc.describe()} changed outside the call's declared writes"
    return None


class Stats:
    """What a campaign saw."""

    def __init__(self) -> None:
        self.calls = 0
        self.codes: Counter[str] = Counter()
        self.per_function: Counter[str] = Counter()
        self.succeeded: Counter[str] = Counter()  # calls that returned 0, per function
        self.cache_hits = 0  # phase-1 calls answered by the op cache
        self.findings: list[str] = []


VERBOSE = False  # print each call and its result (fuzz_campaign.py --example)


@functools.lru_cache(maxsize=8)
def _operator_names_of(names: tuple[str, ...]) -> list[str]:
    return [n for n in names if n in OP_APIS]


def _operator_names(names: list[str]) -> list[str]:
    return _operator_names_of(tuple(names))


def call_once(world: World, data: random.Random | st.DataObject, stats: Stats, names: list[str]) -> None:
    """Draw a function and its arguments, call it, check every promise.

    ``data`` (a ``random.Random``, or hypothesis' in the suite) draws the function and a seed; the
    arguments come from a ``random.Random`` of that seed, the function and the call's place in the
    example: dozens of hypothesis draws per operator call would cost more than the call."""
    planned: list[Any] | None = None
    if world.plan and _int_in(data, 0, 4):  # the plan, four times in five
        name, planned = world.plan.pop(0)
    else:
        world.plan.clear()
        # the operators keep the share they had when the runtime was smaller (4 calls in 10), so a
        # growing runtime surface does not starve the operator paths
        ops = _operator_names(names)
        name = _one(data, ops if ops and _int_in(data, 0, 9) < 4 else names)
        if name in DISRUPTIVE and _int_in(data, 0, 9) != 0:
            name = "aclrtSynchronizeStream"
    world.ncalls += 1
    rnd = random.Random(f"{name}/{world.ncalls}/{_int_in(data, 0, 2**64 - 1)}")
    fn = FUNCTIONS[name]
    params = list(inspect.signature(fn).parameters)
    if planned is not None:
        values = list(planned)
        if name in OP_APIS:  # the same phase 1 again, new out-parameters: the op cache's turn
            values[-2:] = [_op_out(rnd), _op_out(rnd)]
    elif name in OP_APIS:
        values = draw_op_arguments(world, name, rnd)
    else:
        values = [draw_argument(world, name, p, rnd) for p in params]
    args = dict(zip(params, values))
    before = snapshot()
    allowed = declared_writes(name, args)
    aclnn_py.aclGetRecentErrMsg()
    if VERBOSE:
        print(f"{world.ncalls:3d} {name}{tuple(args.values())!r}", flush=True)
    try:
        result = fn(*args.values())
    except Exception as e:  # the promise: nothing escapes
        raise AssertionError(f"{name}{tuple(args.values())!r} raised {e!r}") from e
    if VERBOSE:
        print(f"    -> {result!r}: {(aclnn_py._errmsg.peek() or [('', '')])[0][1][:300]!r}", flush=True)
    stats.calls += 1
    stats.per_function[name] += 1
    if name in VALUE_RETURNING:
        assert isinstance(result, (int, float)), (name, result)
        stats.codes["value"] += 1
    elif name in HANDLE_RETURNING:
        assert result is None or not isinstance(result, bool), (name, result)
        stats.codes["handle" if result is not None else "None"] += 1
    else:
        assert isinstance(result, int) and not isinstance(result, bool), (name, result)
        stats.codes[aclnn_py._status.status_name(result)] += 1
        if result == 0:
            stats.succeeded[name] += 1
        silent = _SILENT_ON_REGBASE if _soc.current().is_regbase else SILENT
        if result != 0 and (name, int(result)) not in silent and name not in RETURNS_AN_ERROR_CODE:
            pending = aclnn_py._errmsg.peek()
            assert pending, f"{name}{tuple(args.values())!r} returned {result} without a message"
    problem = check_memory(before, allowed)
    assert problem is None, f"{name}{tuple(args.values())!r}: {problem}"
    world.note_result(name, args, result)
    if result == 0:
        _plan_next(world, name, args, values, rnd, stats)


def _plan_next(
    world: World, name: str, args: dict[str, Any], values: list[Any], rnd: random.Random, stats: Stats
) -> None:
    """The calls that naturally follow a successful operator call (each made four times in five).

    After phase 1: its phase 2, sometimes after making the executor repeatable, or after
    destroying one of its tensors, freeing a tensor's buffer or moving a tensor. After phase 2: a
    synchronize (the kernels run), or the same phase 1 again (an op-cache hit), or phase 2 again
    (twice; a repeatable executor runs again), maybe with a tensor moved by aclSetTensorAddr, or a
    free of a buffer the queued work uses before the synchronize."""
    if name not in OP_APIS:
        return
    api, phase = OP_APIS[name]
    ex = getattr(args["executor"], "value", None) if phase == 1 else args["executor"]
    if phase == 1:
        tensors = [v for v in values if isinstance(v, aclnn_py.aclTensor) and v.alive]
    else:  # the tensors the executor's kernels use
        tensors = [t for t in getattr(ex, "user_tensors", {}).values() if t.alive]
    own = [t.storage.addr for t in tensors if t.storage.addr in world.own]
    elsewhere = world.data + 32 * rnd.randrange(DATA_POOL // 64)
    plan: list[tuple[str, list[Any] | None]] = []
    if phase == 1:
        world.last_phase1[name] = list(values)
        stats.cache_hits += getattr(ex, "cached_from", None) is not None
        if isinstance(ex, aclnn_py.aclOpExecutor) and rnd.random() < 0.2:
            plan.append(("aclSetAclOpExecutorRepeatable", [ex]))
        if tensors and rnd.random() < 0.15:
            t = rnd.choice(tensors)
            plan.append(
                rnd.choice(
                    [("aclDestroyTensor", [t]), ("aclSetRawTensorAddr", [t, elsewhere])]
                    + [("aclrtFree", [p]) for p in own]
                )
            )
        plan.append((api.name, None))
    else:
        nxt = rnd.choice(["aclrtSynchronizeDevice", "aclrtSynchronizeDevice", api.phase1, api.name, "move"])
        if nxt != "move":
            plan.append((nxt, world.last_phase1.get(nxt)))
        elif isinstance(ex, aclnn_py.aclOpExecutor) and ex.state == "ready" and tensors:  # repeatable
            plan.append((rnd.choice(SET_ADDR), [ex, 0, rnd.choice(tensors), elsewhere]))
            plan.append((api.name, None))
        if own and rnd.random() < 0.1:  # freed while queued work still uses it (synccheck)
            plan.insert(0, ("aclrtFree", [rnd.choice(own)]))
    world.plan = plan


def example(data: random.Random | st.DataObject, stats: Stats, names: list[str], calls: int) -> None:
    """One world and ``calls`` calls in it; one example in four runs with the call trace on."""
    world = World()
    traced = _int_in(data, 0, 3) == 0
    try:
        with trace.tracing([]) if traced else contextlib.nullcontext():
            for _ in range(calls):
                call_once(world, data, stats, names)
    finally:
        world.close()
