"""Task-level calls around model streams: aclrtCacheLastTaskOpInfo / aclrtCacheLastTaskExtendInfo
(cached by stream and task id on the model), aclrtPersistentTaskClean, aclrtTaskUpdateAsync of a
random number task in a built model, aclrtProfTrace: CANN's checks and what each does."""

from __future__ import annotations

import ctypes

import numpy as np
from rt_texts import INDENT, RANGE_SOLUTION, TRACEBACK, null

from aclnn_py import (
    ACL_FLOAT,
    ACL_MEMCPY_DEVICE_TO_DEVICE,
    ACL_MEMCPY_DEVICE_TO_HOST,
    ACL_MEMCPY_HOST_TO_DEVICE,
    ACL_STREAM_PERSISTENT,
    Ref,
    aclGetRecentErrMsg,
    aclmdlRIBindStream,
    aclmdlRIBuildBegin,
    aclmdlRIBuildEnd,
    aclmdlRICaptureBegin,
    aclmdlRICaptureEnd,
    aclmdlRIDestroy,
    aclmdlRIEndTask,
    aclmdlRIExecuteAsync,
    aclmdlRIUnbindStream,
    aclrtCreateStreamWithConfig,
    aclrtDestroyStream,
    aclrtFree,
    aclrtGetLastError,
    aclrtGetThreadLastTaskId,
    aclrtMalloc,
    aclrtMemcpy,
    aclrtMemcpyAsync,
    aclrtMemset,
    aclrtSetStreamAttribute,
    aclrtStreamAttrValue,
    aclrtSynchronizeStream,
)
from aclnn_py.runtime import api_random as R
from aclnn_py.runtime import api_stream_task as T
from aclnn_py.runtime import model_ri as M


def stream(flag=0):
    s = Ref()
    assert aclrtCreateStreamWithConfig(s, 0, flag) == 0
    return s.value


def test_prof_trace_queues_its_trace_point(dev0):
    s = stream()
    T.TRACES.clear()
    data = (5).to_bytes(8, "little") + (9).to_bytes(8, "little") + (3).to_bytes(2, "little")
    assert T.aclrtProfTrace(data, 18, s) == 0
    assert T.aclrtProfTrace(data[:4], 4, s) == 0  # zero-filled to 18 bytes
    assert aclrtSynchronizeStream(s) == 0
    sid = s.ident
    assert [(sid, 5, 9, 3), (sid, 5, 0, 0)] == T.TRACES
    assert T.aclrtProfTrace(None, 18, s) == 100000
    assert aclGetRecentErrMsg() == null("aclrtProfTrace", "userdata")
    assert T.aclrtProfTrace(data, 19, s) == 107000
    assert aclGetRecentErrMsg().startswith(
        "Invalid_Argument(EE1003): rtsProfTrace failed because value 19 for parameter length is invalid. "
        "Expected value: (0, 18]."
    )
    assert aclrtGetLastError(0) == 107000
    assert T.aclrtProfTrace(data, 0, s) == 107000
    aclrtDestroyStream(s)


def test_cache_last_task_op_info_in_a_capture(dev0):
    s = stream()
    buf = Ref()
    assert aclrtMalloc(buf, 128, 0) == 0
    assert aclrtMemset(buf.value, 128, 0, 128) == 0
    assert aclmdlRICaptureBegin(s, 0) == 0
    assert aclrtMemcpyAsync(buf.value, 64, buf.value + 64, 64, ACL_MEMCPY_DEVICE_TO_DEVICE, s) == 0
    assert T.aclrtCacheLastTaskOpInfo(b"shape", 5) == 507000
    assert "The operator information cache function is not enabled." in aclGetRecentErrMsg()
    assert aclrtSetStreamAttribute(s, 4, aclrtStreamAttrValue(1)) == 0
    tid = Ref()
    assert aclrtGetThreadLastTaskId(tid) == 0
    assert T.aclrtCacheLastTaskOpInfo(b"shape", 5) == 0
    assert T.aclrtCacheLastTaskExtendInfo('{"op": "copy"}', 14) == 0
    model = Ref()
    assert aclmdlRICaptureEnd(s, model) == 0
    cached = T.cached(model.value)
    assert cached.op_info == {(s.ident, tid.value): b"shape"}
    assert cached.extend_info == {(s.ident, tid.value): '{"op": "copy"}'}
    assert T.aclrtCacheLastTaskOpInfo(b"shape", 5) == 507000  # no stream records into a model now
    assert aclmdlRIDestroy(model.value) == 0
    aclrtFree(buf.value)
    aclrtDestroyStream(s)


def test_cache_checks(dev0):
    assert T.aclrtCacheLastTaskOpInfo(None, 4) == 100000
    assert aclGetRecentErrMsg() == null("aclrtCacheLastTaskOpInfo", "infoPtr")
    assert T.aclrtCacheLastTaskOpInfo(b"x", 0) == 100000
    assert "value 0 for parameter infoSize is invalid. Expected value: must be greater than 0." in (
        aclGetRecentErrMsg()
    )
    assert T.aclrtCacheLastTaskOpInfo(bytes(65537), 65537) == 107000
    assert "value 65537 for parameter infoSize is invalid. Expected value: (0, 65536]." in aclGetRecentErrMsg()
    assert T.aclrtCacheLastTaskExtendInfo(None, 4) == 107000
    assert aclGetRecentErrMsg().startswith(
        "Invalid_Argument_Null_Pointer(EE1004): Caching the extended information of the latest task failed because "
        "extendInfoPtr cannot be a NULL pointer."
    )
    assert T.aclrtCacheLastTaskExtendInfo(b"x", 0) == 107000
    assert "value 0 for parameter infoSize is invalid. Expected value: not equal to 0." in aclGetRecentErrMsg()


def _built_model(s, body):
    model = Ref()
    assert aclmdlRIBuildBegin(model, 0) == 0
    assert aclmdlRIBindStream(model.value, s, 0) == 0
    body()
    assert aclmdlRIEndTask(model.value, s) == 0
    assert aclmdlRIBuildEnd(model.value, None) == 0
    return model.value


def test_persistent_task_clean_empties_the_bound_stream(dev0):
    s = stream(ACL_STREAM_PERSISTENT)
    buf = Ref()
    assert aclrtMalloc(buf, 64, 0) == 0
    model = _built_model(s, lambda: aclrtMemset(buf.value, 64, 1, 64) == 0)
    mdl = M.model_stream(s)
    assert mdl is not None and len(mdl.tasks_of(s)) >= 1
    assert T.aclrtPersistentTaskClean(s) == 0
    assert mdl.tasks_of(s) == []
    plain = stream()
    assert T.aclrtPersistentTaskClean(plain) == 507000
    assert aclGetRecentErrMsg() == (
        "Invalid_Argument(EE1011): Clearing tasks in a stream failed. Value RT_STREAM_PERSISTENT for parameter stream "
        f"flag is invalid. Reason: Non-persistent stream (stream_id={plain.ident}) does not support stream task "
        "clearance.\n"
        + RANGE_SOLUTION
        + TRACEBACK
        + f"{INDENT}rtsPersistentTaskClean execution failed, reason=stream invalid"
        "[FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:68]\n"
    )
    lone = stream(ACL_STREAM_PERSISTENT)
    assert T.aclrtPersistentTaskClean(lone) == 507000
    assert f"Reason: Stream (stream_id={lone.ident}) must be bound to a model." in aclGetRecentErrMsg()
    assert T.aclrtPersistentTaskClean(None) == 107000
    assert aclmdlRIUnbindStream(model, s) in (0, 107000)
    assert aclmdlRIDestroy(model) == 0
    for st in (s, plain, lone):
        aclrtDestroyStream(st)
    aclrtFree(buf.value)


def test_task_update_replaces_a_random_task_of_a_built_model(dev0):
    s, exe = stream(ACL_STREAM_PERSISTENT), stream()
    out, cnt, src = Ref(), Ref(), Ref()
    for ref, n in ((out, 256), (cnt, 16), (src, 128)):
        assert aclrtMalloc(ref, n, 0) == 0
    assert aclrtMemset(cnt.value, 16, 0, 16) == 0

    def info(lo, hi):
        t = R.aclrtRandomNumTaskInfo()
        t.dataType, t.randomNumFuncParaInfo.funcType = ACL_FLOAT, R.UNIFORM_DIS
        t.randomNumFuncParaInfo.paramInfo.uniformDisInfo.min = R.para(lo, 4, dtype=np.float32)
        t.randomNumFuncParaInfo.paramInfo.uniformDisInfo.max = R.para(hi, 4, dtype=np.float32)
        t.randomResultAddr, t.randomCounterAddr = out.value, cnt.value
        t.randomSeed, t.randomNum = R.para(1, 8), R.para(64, 8)
        return t

    tid = Ref()

    def body():
        assert R.aclrtRandomNumAsync(info(0.0, 1.0), s, None) == 0
        assert aclrtGetThreadLastTaskId(tid) == 0

    model = _built_model(s, body)

    def replay():
        assert aclmdlRIExecuteAsync(model, exe) == 0 and aclrtSynchronizeStream(exe) == 0
        host = np.zeros(64, dtype=np.float32)
        assert aclrtMemcpy(host, 256, out.value, 256, ACL_MEMCPY_DEVICE_TO_HOST) == 0
        return host

    first = replay()
    assert first.min() >= 0.0 and first.max() < 1.0
    update = info(5.0, 6.0)
    update.dataType = 6  # the runtime's rtRandomNumDataType: RT_RANDOM_NUM_DATATYPE_FP32
    new = bytes(update)
    raw = np.frombuffer(new, dtype=np.uint8).copy()
    assert aclrtMemcpy(src.value, 104, raw, 104, ACL_MEMCPY_HOST_TO_DEVICE) == 0
    upd = T.aclrtTaskUpdateInfo()
    upd.id, upd.srcAddr, upd.size = T.ACL_RT_UPDATE_RANDOM_TASK, src.value, 104
    assert T.aclrtTaskUpdateAsync(s, tid.value, upd, exe) == 0, aclGetRecentErrMsg()
    assert aclrtSynchronizeStream(exe) == 0
    second = replay()
    assert second.min() >= 5.0 and second.max() < 6.0
    upd.size = 40
    assert T.aclrtTaskUpdateAsync(s, tid.value, upd, exe) == 107000
    assert (
        "Value 40 for parameter cnt is invalid. Reason: If parameter needCpuTask is equal to 1, the value of "
        "parameter cnt should be 104(bytes)." in aclGetRecentErrMsg()
    )
    upd.size = 104
    assert T.aclrtTaskUpdateAsync(s, tid.value + 1000, upd, exe) == 107000
    assert "is not a random number task of a stream bound to a model" in aclGetRecentErrMsg()
    bad = np.frombuffer(bytes(info(5.0, 6.0)), dtype=np.uint8).copy()  # ACL_FLOAT (0) is the runtime's INT32
    bad[4:8] = 0xFF  # funcType 0xFFFFFFFF: the update task's CheckRandomNumTaskInfo refuses it
    assert aclrtMemcpy(src.value, 104, bad, 104, ACL_MEMCPY_HOST_TO_DEVICE) == 0
    assert T.aclrtTaskUpdateAsync(s, tid.value, upd, exe) == 0
    assert aclrtSynchronizeStream(exe) == 107000
    assert "value UNKNOWN(-1) for parameter funcType" in aclGetRecentErrMsg()
    assert replay().min() >= 5.0  # the task kept its last good information
    upd.id = 7
    assert T.aclrtTaskUpdateAsync(s, tid.value, upd, exe) == 107000
    assert "value 7 for parameter cfg->id is invalid. Expected value: [1, 3)." in aclGetRecentErrMsg()
    upd.id = T.ACL_RT_UPDATE_AIC_AIV_TASK
    assert T.aclrtTaskUpdateAsync(s, tid.value, upd, exe) == 107017
    assert "aclnn_py issues none" in aclGetRecentErrMsg()
    assert T.aclrtTaskUpdateAsync(s, tid.value, None, exe) == 100000
    assert aclGetRecentErrMsg() == null("aclrtTaskUpdateAsync", "info")
    assert aclmdlRIDestroy(model) == 0
    for ref in (out, cnt, src):
        aclrtFree(ref.value)
    aclrtDestroyStream(s)
    aclrtDestroyStream(exe)


def test_update_info_layout_is_acl_rt_h():
    assert ctypes.sizeof(T.aclrtTaskUpdateInfo) == 48
    assert T.aclrtTaskUpdateInfo.srcAddr.offset == 8 and T.aclrtTaskUpdateInfo.size.offset == 16
    assert ctypes.sizeof(R.aclrtRandomNumTaskInfo) == 104
    assert R.aclrtRandomNumTaskInfo.randomSeed.offset == 64


def test_the_last_stream_of_the_thread_decides_when_the_queue_records_it(dev0, monkeypatch):
    from aclnn_py.runtime import stream as stream_mod

    capturing, plain = stream(), stream()
    assert aclmdlRICaptureBegin(capturing, 0) == 0
    assert aclrtSetStreamAttribute(capturing, 4, aclrtStreamAttrValue(1)) == 0
    monkeypatch.setattr(stream_mod._THREAD, "last_stream", plain, raising=False)
    assert T.aclrtCacheLastTaskOpInfo(b"op", 2) == 507000  # the last task went to a stream of no model
    assert "is not bound to a model or the bound model is not a CAPTURE model" in aclGetRecentErrMsg()
    monkeypatch.setattr(stream_mod._THREAD, "last_stream", capturing, raising=False)
    assert T.aclrtCacheLastTaskOpInfo(b"op", 2) == 0
    model = Ref()
    assert aclmdlRICaptureEnd(capturing, model) == 0
    assert list(T.cached(model.value).op_info.values()) == [b"op"]
    assert aclmdlRIDestroy(model.value) == 0
    aclrtDestroyStream(capturing)
    aclrtDestroyStream(plain)


def test_extend_info_of_a_stream_of_another_context(dev0, monkeypatch):
    from aclnn_py import aclrtCreateContext, aclrtDestroyContext, aclrtGetCurrentContext, aclrtSetCurrentContext
    from aclnn_py.runtime import stream as stream_mod

    first, mine = Ref(), stream()
    assert aclrtGetCurrentContext(first) == 0
    other = Ref()
    assert aclrtCreateContext(other, 0) == 0  # now current
    monkeypatch.setattr(stream_mod._THREAD, "last_stream", mine, raising=False)
    assert T.aclrtCacheLastTaskExtendInfo(b"{}", 2) == 107003
    assert (
        f"Stream is not in current ctx, stream_id={mine.ident}.[FUNC:CacheLastTaskExtendInfo][FILE:api_impl.cc]"
        "[LINE:4639]" in aclGetRecentErrMsg()
    )
    assert aclrtSetCurrentContext(first.value) == 0
    assert aclrtDestroyContext(other.value) == 0
    aclrtDestroyStream(mine)
