"""Model subscription (acl_prof.h): aclprofModelSubscribe / UnSubscribe, the subscribe configuration,
the 80-byte op records a subscribed aclmdlRI's executions write to the program's pipe, and the
readers that decode them (hicann/runtime src/dfx/msprof: prof_api_common.cpp, op_desc_parser.cpp,
prof_acl_mgr.cpp, parser_transport.cpp)."""

from __future__ import annotations

import ctypes
import os
import struct

import numpy as np
import pytest
from test_runtime_model_ri import Bench

from aclnn_py import (
    aclGetRecentErrMsg,
    aclnnAdd,
    aclprofFinalize,
    aclprofInit,
    aclrtCreateEvent,
    aclrtDestroyEvent,
    aclrtEventGetTimestamp,
    aclrtRecordEvent,
    aclrtSynchronizeStream,
)
from aclnn_py._ref import Ref
from aclnn_py.runtime import api as A
from aclnn_py.runtime import api_prof_sub as P
from aclnn_py.runtime import model_ri as M

HEAD = "TraceBack (most recent call last):\n"


@pytest.fixture
def bench(ctx):
    b = Bench()
    yield b
    b.close()
    P.reset()


@pytest.fixture
def pipe():
    r, w = os.pipe()
    holder = Ref(w)
    yield r, holder
    os.close(r)
    if holder.value != -1:
        os.close(holder.value)


def _model(bench: Bench, kernels: int = 1) -> tuple[object, int, list[int]]:
    """A captured model of ``kernels`` adds (out_k = x + (k + 1) * y); its id; the outputs."""
    st = bench.stream()
    x, y = bench.buf(np.arange(8)), bench.buf(np.ones(8))
    outs = [bench.buf() for _ in range(kernels)]
    execs = [bench.add(x, y, out, float(k + 1)) for k, out in enumerate(outs)]
    assert A.aclmdlRICaptureBegin(st, M.MODE_GLOBAL) == 0
    for ws, ex in execs:
        assert aclnnAdd(None, ws, ex, st) == 0
    m = Ref()
    assert A.aclmdlRICaptureEnd(st, m) == 0
    mid = Ref()
    assert A.aclmdlRIGetId(m.value, mid) == 0
    return m.value, mid.value, outs


def _drain(r: int) -> bytes:
    out = b""
    while chunk := os.read(r, 65536):
        out += chunk
    return out


def test_the_record_is_canns_80_bytes_signed_with_crc32c_without_the_final_inversion():
    size = Ref()
    assert P.aclprofGetOpDescSize(size) == 0 and size.value == 80
    # CRC-32C's check value of "123456789" is 0xE3069283 (after the final inversion CANN leaves out)
    assert P.signature(b"123456789") == 0xE3069283 ^ 0xFFFFFFFF
    assert P.aclprofGetOpDescSize(None) == 100000


def test_each_execution_of_a_subscribed_model_writes_a_record_per_kernel(bench, pipe):
    r, fd = pipe
    model, mid, outs = _model(bench, kernels=2)
    st = bench.stream()
    ev = Ref()
    assert aclrtCreateEvent(ev) == 0
    assert aclrtRecordEvent(ev.value, st) == 0
    assert aclrtSynchronizeStream(st) == 0
    before = Ref()
    assert aclrtEventGetTimestamp(ev.value, before) == 0
    assert aclrtDestroyEvent(ev.value) == 0
    config = P.aclprofCreateSubscribeConfig(1, P.ACL_AICORE_NONE, fd)
    assert P.aclprofModelSubscribe(mid, config) == 0
    for _ in range(3):
        assert A.aclmdlRIExecuteAsync(model, st) == 0
    assert aclrtSynchronizeStream(st) == 0
    assert P.aclprofModelUnSubscribe(mid) == 0
    assert fd.value == -1  # CANN closes the write end and writes -1 through the program's pointer
    data = _drain(r)  # the end of the pipe: the reader thread of a program stops here
    assert np.array_equal(bench.get(outs[1]), np.arange(8) + 2.0)
    n = Ref()
    assert P.aclprofGetOpNum(data, len(data), n) == 0 and n.value == 6
    ends = []
    for i in range(n.value):
        tl, nl = Ref(), Ref()
        kernel = ("Add", "Axpy")[i % 2]  # alpha 1: Add; alpha 2: Axpy (each executor's kernel #0)
        assert P.aclprofGetOpTypeLen(data, len(data), i, tl) == 0 and tl.value == len(kernel) + 1
        op_type = ctypes.create_string_buffer(tl.value)
        assert P.aclprofGetOpType(data, len(data), i, op_type, tl.value) == 0 and op_type.value == kernel.encode()
        assert P.aclprofGetOpNameLen(data, len(data), i, nl) == 0
        name = Ref()
        assert P.aclprofGetOpName(data, len(data), i, name, nl.value) == 0
        assert name.value == f"aclnnAdd_{kernel}_0"
        assert P.aclprofGetModelId(data, len(data), i) == mid
        assert P.aclprofGetOpFlag(data, len(data), i) == P.ACL_SUBSCRIBE_OP
        assert P.aclprofGetOpAttriValue(data, len(data), i, P.ACL_SUBSCRIBE_ATTRI_THREADID) is None
        start, end = P.aclprofGetOpStart(data, len(data), i), P.aclprofGetOpEnd(data, len(data), i)
        assert before.value <= start <= end and P.aclprofGetOpDuration(data, len(data), i) == end - start
        ends.append(end)
    assert ends == sorted(ends)  # one stream: the kernels ran in order


def test_a_type_or_name_is_handed_out_once(bench, pipe):
    r, fd = pipe
    model, mid, _ = _model(bench)
    st = bench.stream()
    assert P.aclprofModelSubscribe(mid, P.aclprofCreateSubscribeConfig(1, 0, fd)) == 0
    assert A.aclmdlRIExecuteAsync(model, st) == 0
    assert aclrtSynchronizeStream(st) == 0
    assert P.aclprofModelUnSubscribe(mid) == 0
    data = _drain(r)
    assert P.aclprofGetOpType(data, len(data), 0, Ref(), 8) == 0
    assert P.aclprofGetOpType(data, len(data), 0, Ref(), 8) == 100000
    assert aclGetRecentErrMsg() is None  # "Failed to get op type of ...": a log only
    assert P.aclprofGetOpTypeLen(data, len(data), 0, Ref()) == 100000
    # the name is still there: a buffer shorter than it is zeroed by memcpy_s (ERANGE_AND_RESET), the name
    # stays; one byte short of the NUL gets the string cut there, as memcpy_s then buf[len - 1] = 0 leave it
    short = bytearray(b"\xaa" * 6)
    assert P.aclprofGetOpName(data, len(data), 0, short, 4) == 100000 and aclGetRecentErrMsg() is None
    assert bytes(short) == b"\0\0\0\0\xaa\xaa"
    buf = bytearray(b"\xff" * len("aclnnAdd_Add_0"))
    assert P.aclprofGetOpName(data, len(data), 0, buf, len(buf)) == 0
    assert bytes(buf) == b"aclnnAdd_Add_\0"


def test_bad_buffers_and_indexes_fail_as_the_parser_does(bench, pipe):
    r, fd = pipe
    model, mid, _ = _model(bench)
    st = bench.stream()
    assert P.aclprofModelSubscribe(mid, P.aclprofCreateSubscribeConfig(1, 0, fd)) == 0
    assert A.aclmdlRIExecuteAsync(model, st) == 0 and aclrtSynchronizeStream(st) == 0
    assert P.aclprofModelUnSubscribe(mid) == 0
    data = _drain(r)
    n = Ref()
    # OpDescParser's checks are MSPROF_LOGE lines: codes (or 0) without a report
    assert P.aclprofGetOpNum(data, 79, n) == 100000 and aclGetRecentErrMsg() is None
    bad = bytearray(data)
    bad[40] ^= 1  # the end time: the signature no longer matches
    assert P.aclprofGetOpNum(bytes(bad), len(bad), n) == 100000 and aclGetRecentErrMsg() is None
    assert P.aclprofGetOpStart(bytes(bad), len(bad), 0) == 0
    assert P.aclprofGetOpStart(data, len(data), 1) == 0  # index past the buffer
    assert aclGetRecentErrMsg() is None
    assert P.aclprofGetModelId(data, len(data), 1) == 100000  # the code comes back as the id
    assert aclGetRecentErrMsg().startswith(
        "Invalid_Argument(EK0001): Value 1 for parameter index is invalid. Reason: failed to get model id."
    )
    # GetOpFlag checks no signature: NULL -> ACL_SUBSCRIBE_NONE, an index past the end -> 0
    assert P.aclprofGetOpFlag(None, 80, 0) == P.ACL_SUBSCRIBE_NONE
    assert P.aclprofGetOpFlag(bytes(bad), len(bad), 5) == 0
    assert P.aclprofGetOpNum(None, 80, n) == 100000
    assert P.aclprofGetOpNum(data, len(data) + 80, n) == 100000  # longer than the Python buffer
    # the length is CANN's uint32_t: 2**32 + 80 is read as 80
    assert P.aclprofGetOpNum(data, 2**32 + 80, n) == 0 and n.value == 1


def test_a_thread_record_answers_its_thread_id():
    body = struct.pack("<4I7QI4x", 0, 7, P.ACL_SUBSCRIBE_OP_THREAD, 4242, 0, 5, 10, 15, 5, 0, 0, 0)
    record = struct.pack("<I", P.signature(body[4:])) + body[4:]
    assert P.aclprofGetOpFlag(record, 80, 0) == P.ACL_SUBSCRIBE_OP_THREAD
    assert P.aclprofGetOpAttriValue(record, 80, 0, P.ACL_SUBSCRIBE_ATTRI_THREADID) == "4242"
    assert P.aclprofGetOpAttriValue(record, 80, 0, P.ACL_SUBSCRIBE_ATTRI_NONE) is None
    assert P.aclprofGetModelId(record, 80, 0) == 7
    assert (P.aclprofGetOpStart(record, 80, 0), P.aclprofGetOpEnd(record, 80, 0)) == (10, 15)


def test_subscription_checks_in_canns_order(bench, pipe):
    _r, fd = pipe
    _, mid, _ = _model(bench)
    config = P.aclprofCreateSubscribeConfig(1, P.ACL_AICORE_NONE, fd)
    assert P.aclprofModelSubscribe(mid + 100, config) == 100011
    assert aclGetRecentErrMsg().startswith(
        f"Invalid_Argument(EK0001): Value {mid + 100} for parameter modelId is invalid. Reason: The model ID does "
        "not exists."
    )
    assert P.aclprofModelSubscribe(mid, None) == 100000
    assert "aclprofModelSubscribe failed because parameter profSubscribeConfig cannot be a null pointer." in (
        aclGetRecentErrMsg()
    )
    quiet = P.aclprofCreateSubscribeConfig(0, P.ACL_AICORE_NONE, fd)
    assert P.aclprofModelSubscribe(mid, quiet) == 100000
    assert "Set the timeInfo switch to 1 if you want to receive subscribe information" in aclGetRecentErrMsg()
    assert aclprofInit(b"/tmp", 4) == 0
    assert P.aclprofModelSubscribe(mid, config) == 148047
    assert "Failed to start Profiling in subscribe mode because it is already in aclapi mode." in (aclGetRecentErrMsg())
    # PrepareStopAclSubscribe's ProfSubscribePrecheck comes before the subscription is looked up
    assert P.aclprofModelUnSubscribe(mid) == 148047
    assert "Failed to start Profiling in subscribe mode because it is already in aclapi mode." in (aclGetRecentErrMsg())
    assert aclprofFinalize() == 0
    assert P.aclprofModelSubscribe(mid, config) == 0
    assert P.aclprofModelSubscribe(mid, config) == 148046  # ACL_ERROR_PROF_REPEAT_SUBSCRIBE
    assert P.aclprofDestroySubscribeConfig(config) == 0  # the subscription goes on
    assert P.aclprofDestroySubscribeConfig(config) == 100000
    assert P.aclprofModelUnSubscribe(mid) == 0
    assert P.aclprofModelUnSubscribe(mid) == 100011
    assert "call aclprofModelSubscribe first, then aclprofModelUnSubscribe." in aclGetRecentErrMsg()
    assert P.aclprofDestroySubscribeConfig(quiet) == 0


def test_the_configuration_refuses_a_null_fd_or_a_switch_out_of_range():
    assert P.aclprofCreateSubscribeConfig(1, 0, None) is None
    assert aclGetRecentErrMsg().startswith(
        "Invalid_Argument_Null_Pointer(EK0006): aclprofCreateSubscribeConfig failed because parameter fd cannot be "
        "a null pointer."
    )
    assert P.aclprofCreateSubscribeConfig(2, 0, Ref(3)) is None  # the switch's range: a log only
    assert "EK0006" not in (aclGetRecentErrMsg() or "") and "opTimeSwitch" not in (aclGetRecentErrMsg() or "")
    assert P.aclprofDestroySubscribeConfig(None) == 100000


def test_a_registered_ge_model_id_subscribes_and_nothing_runs_under_it(bench, pipe):
    r, fd = pipe
    model, mid, _ = _model(bench)
    ge = mid + 1000
    assert P.MsprofSetDeviceIdByGeModelIdx(ge, 0) == 0
    assert P.aclprofModelSubscribe(ge, P.aclprofCreateSubscribeConfig(1, 0, fd)) == 0
    st = bench.stream()
    assert A.aclmdlRIExecuteAsync(model, st) == 0 and aclrtSynchronizeStream(st) == 0  # not model `ge`
    assert P.aclprofModelUnSubscribe(ge) == 0
    assert _drain(r) == b""
    assert P.MsprofUnsetDeviceIdByGeModelIdx(ge, 0) == 0
    assert P.aclprofModelSubscribe(ge, P.aclprofCreateSubscribeConfig(1, 0, Ref(0))) == 100011


def test_kernels_outside_the_model_and_a_shared_fd(bench, pipe):
    r, fd = pipe
    model_a, mid_a, _ = _model(bench)
    model_b, mid_b, _ = _model(bench)
    st = bench.stream()
    x, y, out = bench.buf(np.ones(8)), bench.buf(np.ones(8)), bench.buf()
    ws, ex = bench.add(x, y, out, 1.0)
    config = P.aclprofCreateSubscribeConfig(1, 0, fd)
    assert P.aclprofModelSubscribe(mid_a, config) == 0
    assert P.aclprofModelSubscribe(mid_b, config) == 0
    assert aclnnAdd(None, ws, ex, st) == 0  # a kernel of no model: no record
    assert A.aclmdlRIExecuteAsync(model_b, st) == 0 and aclrtSynchronizeStream(st) == 0
    assert P.aclprofModelUnSubscribe(mid_a) == 0
    assert fd.value != -1  # model b still writes to it
    assert A.aclmdlRIExecuteAsync(model_a, st) == 0 and aclrtSynchronizeStream(st) == 0  # a: no longer
    assert P.aclprofModelUnSubscribe(mid_b) == 0 and fd.value == -1
    data = _drain(r)
    assert len(data) == 80 and P.aclprofGetModelId(data, 80, 0) == mid_b


def test_the_profiler_api_conflicts_with_a_running_subscription(bench, pipe, tmp_path):
    # WORK_MODE_SUBSCRIBE (prof_acl_mgr.cpp:1747-1749) until the last unsubscription (:3458-3461):
    # ProfInitPrecheck / ProfStartPrecheck / ProfFinalizePrecheck return 148047 with a log line only
    from aclnn_py.runtime import api_prof as AP

    _r, fd = pipe
    _, mid, _ = _model(bench)
    config = P.aclprofCreateSubscribeConfig(1, P.ACL_AICORE_NONE, fd)
    assert P.aclprofModelSubscribe(mid, config) == 0
    path = str(tmp_path)
    assert aclprofInit(path, len(path)) == 148047 and aclGetRecentErrMsg() is None
    assert AP.aclprofStart(None) == 148047 and aclGetRecentErrMsg() is None
    assert aclprofFinalize() == 148047 and aclGetRecentErrMsg() is None
    assert P.aclprofModelUnSubscribe(mid) == 0  # the profiler is off again
    assert aclprofFinalize() == 0
    assert aclprofInit(path, len(path)) == 0 and aclprofFinalize() == 0
    assert P.aclprofDestroySubscribeConfig(config) == 0
