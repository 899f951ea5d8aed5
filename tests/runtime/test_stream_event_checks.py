"""Streams, events and async copies: the check order, codes and messages of CANN's runtime
(master, ACL 1.17): handles before the context, the stream's own context (EE1010), flags, timeouts."""

from __future__ import annotations

import threading

import numpy as np
import pytest
from rt_texts import (
    ACL_CALL,
    FUNC_ERROR_REASON,
    GET_DEV_MSG,
    INDENT,
    NO_CONTEXT,
    RANGE_SOLUTION,
    TRACEBACK,
    bad_handle,
    emulator,
    no_context,
    no_context_unbound,
    null,
    rt_invalid,
)

from aclnn_py import (
    ACL_ERROR_INVALID_PARAM,
    ACL_ERROR_RT_CONTEXT_NULL,
    ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
    ACL_ERROR_RT_INVALID_HANDLE,
    ACL_ERROR_RT_PARAM_INVALID,
    ACL_ERROR_RT_STREAM_CONTEXT,
    ACL_EVENT_DEVICE_USE_ONLY,
    ACL_EVENT_EXTERNAL,
    ACL_EVENT_SYNC,
    ACL_EVENT_TIME_LINE,
    ACL_MEMCPY_DEFAULT,
    ACL_MEMCPY_DEVICE_TO_DEVICE,
    ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE,
    ACL_MEMCPY_HOST_TO_DEVICE,
    ACL_MEMCPY_HOST_TO_HOST,
    ACL_RT_THREAD_LEVEL,
    ACL_STREAM_DEVICE_USE_ONLY,
    ACL_STREAM_FAST_LAUNCH,
    ACL_STREAM_HUGE,
    Ref,
    _errmsg,
    aclFinalize,
    aclGetRecentErrMsg,
    aclInit,
    aclrtCreateContext,
    aclrtCreateEvent,
    aclrtCreateEventWithFlag,
    aclrtCreateStream,
    aclrtCreateStreamWithConfig,
    aclrtDestroyContext,
    aclrtDestroyEvent,
    aclrtDestroyStream,
    aclrtEventElapsedTime,
    aclrtFree,
    aclrtFreeHost,
    aclrtGetCurrentContext,
    aclrtGetLastError,
    aclrtMalloc,
    aclrtMallocHost,
    aclrtMemcpy,
    aclrtMemcpyAsync,
    aclrtMemsetAsync,
    aclrtQueryEventStatus,
    aclrtRecordEvent,
    aclrtResetDevice,
    aclrtResetEvent,
    aclrtSetCurrentContext,
    aclrtSetDevice,
    aclrtStreamQuery,
    aclrtStreamWaitEvent,
    aclrtSynchronizeEvent,
    aclrtSynchronizeEventWithTimeout,
    aclrtSynchronizeStream,
    aclrtSynchronizeStreamWithTimeout,
)  # fmt: skip

HANDLE_FALLBACK = "failed. Parameter handle is invalid. Reason: 1. The handle has been destroyed. 2. The handle type is not the expected one.\n"


@pytest.fixture
def ctx():
    assert aclInit(None) == 0 and aclrtSetDevice(0) == 0
    yield
    aclrtResetDevice(0)
    aclFinalize()


def _stream():
    s = Ref()
    assert aclrtCreateStream(s) == 0
    return s.value


def _event(flag=None):
    e = Ref()
    assert (aclrtCreateEvent(e) if flag is None else aclrtCreateEventWithFlag(e, flag)) == 0
    return e.value


def _alloc(n):
    p = Ref()
    assert aclrtMalloc(p, n, 0) == 0
    return p.value


def _ee1010(desc, stream, cur, rt_fn):
    return (
        f"Execution_Error_Invalid_Context(EE1010): {desc} execution failed because stream does not belong to the "
        f"current context. Extended information: stream_id={stream.ident}, stream_ctx={stream.context.pointer}, "
        f"cur_ctx={cur.pointer}.\n"
        + TRACEBACK
        + f"{INDENT}{rt_fn} execution failed, reason=stream not in current context{FUNC_ERROR_REASON}\n"
    )


# -- streams -------------------------------------------------------------------------------------


def test_handles_are_checked_before_the_context():
    assert aclInit(None) == 0 and aclrtSetDevice(0) == 0
    s = _stream()
    assert aclrtDestroyStream(s) == 0
    assert aclrtResetDevice(0) == 0  # no context from here on
    assert aclrtDestroyStream(s) == ACL_ERROR_RT_INVALID_HANDLE
    assert aclrtSynchronizeStream(s) == ACL_ERROR_RT_INVALID_HANDLE
    assert aclrtSynchronizeStream(None) == ACL_ERROR_RT_CONTEXT_NULL
    assert aclGetRecentErrMsg() == (
        bad_handle("stream", "rtStreamDestroy")
        + f"{INDENT}rtStreamSynchronize {HANDLE_FALLBACK}"
        + f"{INDENT}{NO_CONTEXT}\n"
        + f"{INDENT}The argument is invalid. Reason: rtStreamSynchronize execution failed, the context is a null "
        "pointer.\n" + f"{INDENT}{GET_DEV_MSG}\n"
    )
    assert aclFinalize() == 0


def test_invalid_stream_handles_of_every_function(ctx):
    s = _stream()
    assert aclrtDestroyStream(s) == 0
    assert aclrtStreamQuery(s, Ref()) == ACL_ERROR_RT_INVALID_HANDLE
    assert aclrtSynchronizeStreamWithTimeout(s, 0) == ACL_ERROR_RT_INVALID_HANDLE  # before the timeout check
    assert aclrtMemsetAsync(0x1234, 4, 0, 8, s) == ACL_ERROR_RT_INVALID_HANDLE  # before count > maxCount
    assert aclrtMemcpyAsync(bytearray(4), 4, b"abcd", 8, ACL_MEMCPY_HOST_TO_HOST, s) == ACL_ERROR_RT_INVALID_HANDLE
    assert aclGetRecentErrMsg() == (
        bad_handle("stream", "rtStreamQuery")
        + f"{INDENT}rtStreamSynchronizeWithTimeout {HANDLE_FALLBACK}"
        + f"{INDENT}rtMemsetAsync {HANDLE_FALLBACK}"
        + f"{INDENT}rtMemcpyAsync {HANDLE_FALLBACK}"
    )
    e = _event()
    assert aclrtRecordEvent(e, "not a stream") == ACL_ERROR_RT_INVALID_HANDLE
    assert aclrtStreamWaitEvent(s, e) == ACL_ERROR_RT_INVALID_HANDLE
    assert aclGetRecentErrMsg() == (
        bad_handle("stream", "rtEventRecord") + f"{INDENT}rtStreamWaitEvent {HANDLE_FALLBACK}"
    )
    assert aclrtDestroyEvent(e) == 0


def test_stream_functions_without_a_context():
    assert aclInit(None) == 0
    for call in (
        lambda: aclrtSynchronizeStream(None),
        lambda: aclrtStreamQuery(None, Ref()),
        lambda: aclrtSynchronizeStreamWithTimeout(None, 10),
    ):
        assert call() == ACL_ERROR_RT_CONTEXT_NULL
    assert aclrtSetDevice(0) == 0  # read with a context: only the functions' own reports
    assert aclGetRecentErrMsg() == (
        no_context("rtStreamSynchronize")
        + f"{INDENT}The argument is invalid. Reason: rtStreamQuery execution failed, the context is a null pointer.\n"
        + f"{INDENT}The argument is invalid. Reason: rtStreamSynchronizeWithTimeout execution failed, the context is "
        "a null pointer.\n"
    )
    assert aclrtResetDevice(0) == 0 and aclFinalize() == 0


def test_stream_query_checks_status_first():
    assert aclrtStreamQuery("not a stream", None) == ACL_ERROR_INVALID_PARAM
    assert _errmsg.peek() == [("EH0008", "aclrtStreamQuery failed because status cannot be a NULL pointer.")]


def test_destroy_stream_needs_a_context_and_one_of_its_own(ctx):
    s = _stream()
    other = Ref()
    assert aclrtCreateContext(other, 0) == 0  # now current: s belongs to the primary context
    assert aclrtDestroyStream(s) == ACL_ERROR_RT_STREAM_CONTEXT
    assert aclGetRecentErrMsg() == _ee1010("Stream destruction", s, other.value, "rtStreamDestroy")
    assert aclrtSynchronizeStream(s) == 0  # synchronizing a stream of another context is allowed
    assert aclrtStreamQuery(s, Ref()) == 0
    assert aclrtDestroyContext(other.value) == 0  # no context now
    assert aclrtDestroyStream(s) == ACL_ERROR_RT_CONTEXT_NULL
    assert aclGetRecentErrMsg() == no_context_unbound("rtStreamDestroy")
    assert aclrtSetDevice(0) == 0  # the primary context again (a second reference)
    assert aclrtDestroyStream(s) == 0
    assert aclrtResetDevice(0) == 0


def test_synchronize_stream_with_timeout(ctx):
    s = _stream()
    assert aclrtSynchronizeStreamWithTimeout(s, -2) == ACL_ERROR_RT_PARAM_INVALID
    text = (
        "aclrtSynchronizeStreamWithTimeout failed because value -2 for parameter timeout is invalid. Expected value: "
        "[-1, INT_MAX]."
    )
    # the inner report comes first, so the EH0007 headline shows again in the traceback (as in CANN)
    assert aclGetRecentErrMsg() == (
        f"Invalid_Argument(EH0007): {text}\n"
        + RANGE_SOLUTION
        + TRACEBACK
        + f"{INDENT}the timeout of synchronize stream is invalid{ACL_CALL}\n"
        + f"{INDENT}{text}\n"
    )
    assert aclrtSynchronizeStreamWithTimeout(s, 0) == ACL_ERROR_RT_PARAM_INVALID
    assert aclGetRecentErrMsg() == rt_invalid(
        "Synchronizing a stream failed because value 0 for parameter timeout is invalid. Expected value: greater "
        "than or equal to -1 and not equal to 0.",
        "rtStreamSynchronizeWithTimeout",
    )
    assert aclrtSynchronizeStreamWithTimeout(s, -1) == 0
    assert aclrtSynchronizeStreamWithTimeout(s, 1000) == 0
    assert aclrtDestroyStream(s) == 0


def test_timeout_zero_is_checked_before_the_context():
    assert aclrtSynchronizeStreamWithTimeout(None, 0) == ACL_ERROR_RT_PARAM_INVALID
    assert _errmsg.peek()[0][0] == "EE1003"


def test_stream_creation_flags(ctx):
    s = Ref()
    flags = ACL_STREAM_DEVICE_USE_ONLY | ACL_STREAM_FAST_LAUNCH
    assert aclrtCreateStreamWithConfig(s, 0, flags) == ACL_ERROR_RT_PARAM_INVALID
    assert aclGetRecentErrMsg() == (
        "Not_Supported(EE1006): Checking stream flags failed. Parameter flags value 2560 is not supported. Reason: "
        "The flag RT_STREAM_CP_PROCESS_USE(0x800U) must be used together with RT_STREAM_ACSQ_LOCK(0x2000U).\n"
        + TRACEBACK
        + f"{INDENT}The argument is invalid. Reason: rtStreamCreateWithFlags execution failed.\n"
    )
    assert aclrtCreateStreamWithConfig(None, 0, 0) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg() == null("aclrtCreateStreamWithConfig", "stream")
    # unknown bits are dropped and the priority is clamped; HUGE is supported on Ascend910B
    assert aclrtCreateStreamWithConfig(s, 99, 0x40000000 | ACL_STREAM_HUGE) == 0
    assert aclrtDestroyStream(s.value) == 0
    assert aclrtCreateStreamWithConfig(s, 0, ACL_STREAM_DEVICE_USE_ONLY) == 0  # alone it is accepted
    assert aclrtDestroyStream(s.value) == 0


def test_huge_streams_are_not_supported_on_ascend310p(soc):
    soc("Ascend310P")
    assert aclInit(None) == 0 and aclrtSetDevice(0) == 0
    assert aclrtCreateStreamWithConfig(Ref(), 0, ACL_STREAM_HUGE) == ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    assert aclGetRecentErrMsg() == (
        "Not_Supported(EE1006): Checking stream flags failed. Parameter flags value 4 is not supported. Reason: The "
        "current SoC supports only streams with a normal number of tasks and does not support huge streams.\n"
    )
    # rtStreamCreateWithFlags returns it through COND_RETURN_WITH_NOLOG: not the thread's last error
    assert aclrtGetLastError(ACL_RT_THREAD_LEVEL) == 0
    assert aclrtResetDevice(0) == 0 and aclFinalize() == 0


# -- async memory --------------------------------------------------------------------------------


def test_memset_async_checks_count_before_the_context():
    assert aclInit(None) == 0
    assert aclrtMemsetAsync(None, 4, 0, 8, None) == ACL_ERROR_INVALID_PARAM
    assert aclrtMemsetAsync(0x1234, 4, 0, 8, None) == ACL_ERROR_RT_PARAM_INVALID
    assert aclrtMemsetAsync(0x1234, 8, 0, 8, None) == ACL_ERROR_RT_CONTEXT_NULL
    assert aclGetRecentErrMsg() == (
        null("aclrtMemsetAsync", "devPtr")
        + TRACEBACK
        + f"{INDENT}Asynchronously setting the memory content to a specified value failed because value 8 for "
        "parameter cnt is invalid. Expected value: (0, 4].\n"
        + f"{INDENT}The argument is invalid. Reason: rtMemsetAsync execution failed.\n"
        + f"{INDENT}{NO_CONTEXT}\n"
        + f"{INDENT}The argument is invalid. Reason: rtMemsetAsync execution failed, the context is a null pointer.\n"
        + f"{INDENT}{GET_DEV_MSG}\n"
    )
    assert aclFinalize() == 0


def test_memset_async_on_a_stream_of_another_context(ctx):
    s = _stream()
    a = _alloc(8)
    other = Ref()
    assert aclrtCreateContext(other, 0) == 0
    assert aclrtMemsetAsync(a, 8, 0, 8, s) == ACL_ERROR_RT_STREAM_CONTEXT
    assert aclGetRecentErrMsg() == _ee1010(
        "Asynchronously setting the memory content to a specified value", s, other.value, "rtMemsetAsync"
    )
    assert aclrtDestroyContext(other.value) == 0
    assert aclrtSetDevice(0) == 0
    assert aclrtMemsetAsync(a, 8, 0, 8, s) == 0 and aclrtSynchronizeStream(s) == 0
    assert aclrtFree(a) == 0 and aclrtDestroyStream(s) == 0
    assert aclrtResetDevice(0) == 0


def test_memset_async_fills_host_memory_before_it_returns(ctx, findings):
    """The runtime's MemSetAsync memsets host and unregistered memory itself (memory_common.cc):
    the bytes are there when the call returns, nothing is queued; a queued copy that still reads
    them is the host's hazard, named by the sanitizer."""
    s = _stream()
    h = Ref()
    assert aclrtMallocHost(h, 64) == 0
    assert aclrtMemsetAsync(h.value, 64, 7, 64, s) == 0
    host = np.zeros(64, np.uint8)
    assert aclrtMemcpy(host, 64, h.value, 64, ACL_MEMCPY_DEFAULT) == 0  # no synchronize needed
    assert (host == 7).all() and not s.pending and findings.refresh() == []
    buf = np.ones(16, np.uint8)  # pageable memory too
    assert aclrtMemsetAsync(buf, 16, 9, 8, s) == 0
    assert buf.tolist() == [9] * 8 + [1] * 8
    d = _alloc(64)
    assert aclrtMemsetAsync(d, 64, 0, 64, s) == 0  # device memory: queued
    assert aclrtMemcpyAsync(d, 64, h.value, 64, ACL_MEMCPY_HOST_TO_DEVICE, s) == 0
    assert aclrtMemsetAsync(h.value, 64, 1, 64, s) == 0  # the queued copy has not read it yet
    assert findings.refresh().checks() == ["synccheck"] and "aclrtMemsetAsync" in findings.text()
    assert aclrtSynchronizeStream(s) == 0
    assert aclrtFree(d) == 0 and aclrtFreeHost(h.value) == 0 and aclrtDestroyStream(s) == 0


def test_memcpy_async_check_order():
    assert aclInit(None) == 0
    assert aclrtMemcpyAsync(None, 4, b"abcd", 4, 1, None) == ACL_ERROR_INVALID_PARAM
    assert aclrtMemcpyAsync(bytearray(4), 4, b"abcd", 4, 7, None) == ACL_ERROR_INVALID_PARAM
    assert aclrtMemcpyAsync(bytearray(4), 0, b"abcd", 4, 1, None) == ACL_ERROR_RT_PARAM_INVALID  # no destMax check
    assert aclrtMemcpyAsync(bytearray(4), 4, b"abcd", 4, 1, None) == ACL_ERROR_RT_CONTEXT_NULL
    assert aclGetRecentErrMsg() == (
        null("aclrtMemcpyAsync", "dst")
        + TRACEBACK
        + f"{INDENT}Memory copy type conversion failed because value MEMCPY_INTER_DEVICE_TO_DEVICE(7) for parameter "
        "kind is invalid. Expected value: ACL_MEMCPY_HOST_TO_DEVICE or ACL_MEMCPY_DEVICE_TO_DEVICE or "
        "ACL_MEMCPY_DEVICE_TO_HOST or ACL_MEMCPY_HOST_TO_HOST or ACL_MEMCPY_DEFAULT or "
        "ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE..\n"
        + f"{INDENT}Asynchronous memory copy failed because value 4 for parameter cnt is invalid. Expected value: "
        "(0, 0].\n"
        + f"{INDENT}The argument is invalid. Reason: rtMemcpyAsync execution failed.\n"
        + f"{INDENT}{NO_CONTEXT}\n"
        + f"{INDENT}The argument is invalid. Reason: rtMemcpyAsync execution failed, the context is a null pointer.\n"
        + f"{INDENT}{GET_DEV_MSG}\n"
    )
    assert aclFinalize() == 0


def test_memcpy_async_does_not_make_the_default_device_current(tmp_path):
    cfg = tmp_path / "acl.json"
    cfg.write_text('{"defaultDevice": {"default_device": "0"}}')
    assert aclInit(str(cfg)) == 0
    assert aclrtMemcpyAsync(bytearray(4), 4, b"abcd", 4, ACL_MEMCPY_HOST_TO_HOST, None) == ACL_ERROR_RT_CONTEXT_NULL
    aclGetRecentErrMsg()  # (this one does make it current)
    assert aclFinalize() == 0


@pytest.mark.parametrize("kind", [ACL_MEMCPY_HOST_TO_HOST, ACL_MEMCPY_DEFAULT])
def test_memcpy_async_host_to_host_is_207000_silently(ctx, kind):
    dst = bytearray(4)
    assert aclrtMemcpyAsync(dst, 4, b"abcd", 4, kind, None) == ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    assert _errmsg.peek() == []
    h = Ref()
    assert aclrtMallocHost(h, 4) == 0
    assert aclrtMemcpyAsync(h.value, 4, b"abcd", 4, kind, None) == ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    assert aclGetRecentErrMsg() is None and dst == bytearray(4)
    assert aclrtFreeHost(h.value) == 0


def test_memcpy_async_kind_is_checked_against_the_addresses(ctx):
    a = _alloc(16)
    host = np.zeros(4, np.float32)
    assert aclrtMemcpyAsync(host, 16, a, 16, ACL_MEMCPY_HOST_TO_DEVICE, None) == ACL_ERROR_RT_PARAM_INVALID
    assert aclGetRecentErrMsg() == emulator(
        "aclrtMemcpyAsync: kind ACL_MEMCPY_HOST_TO_DEVICE does not match the addresses: dst is host memory (a numpy "
        "array) and src is device memory. Pass ACL_MEMCPY_DEVICE_TO_HOST, or ACL_MEMCPY_DEFAULT to let the addresses "
        "decide."
    )
    addr = host.ctypes.data
    assert aclrtMemcpyAsync(a, 16, addr, 16, ACL_MEMCPY_HOST_TO_DEVICE, None) == ACL_ERROR_RT_PARAM_INVALID
    assert aclGetRecentErrMsg().startswith(f"aclnn_py: aclrtMemcpyAsync: src 0x{addr:x} is an address aclnn_py does")
    assert aclrtFree(a) == 0


def test_memcpy_async_host_to_buf_to_device_checks_the_locations(ctx):
    """MemcpyAsyncCheckExLocation (RT_MEMCPY_HOST_TO_DEVICE_EX): host source, device destination."""
    a, b = _alloc(16), _alloc(16)
    s = _stream()
    assert aclrtMemcpyAsync(a, 16, b, 16, ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE, s) == ACL_ERROR_RT_PARAM_INVALID
    assert aclGetRecentErrMsg() == (
        "Invalid_Argument(EE1011): Checking the extended location for asynchronous memory copy failed. Value "
        "MEMORY_LOC_DEVICE(1)/MEMORY_LOC_DEVICE(1) for parameter src/dst address location is invalid. Reason: The "
        "src address must be a host address and the dst address must be a device address.\n"
        + RANGE_SOLUTION
        + TRACEBACK
        + f"{INDENT}MemcpyAsync EX check src or dst location failed, stream_id={s.ident}, "
        "kind=MEMCPY_HOST_TO_DEVICE_EX(6)[FUNC:MemcpyAsync][FILE:api_error.cc][LINE:2229]\n"
        + f"{INDENT}The argument is invalid. Reason: rtMemcpyAsync execution failed.\n"
    )
    host = np.ones(16, np.uint8)
    assert aclrtMemcpyAsync(a, 16, host, 16, ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE, s) == 0
    assert aclrtSynchronizeStream(s) == 0
    assert aclrtFree(a) == 0 and aclrtFree(b) == 0 and aclrtDestroyStream(s) == 0


def test_memcpy_async_on_a_stream_of_another_context(ctx):
    s = _stream()
    a, b = _alloc(64), _alloc(64)
    other = Ref()
    assert aclrtCreateContext(other, 0) == 0
    assert aclrtMemcpyAsync(b, 64, a, 64, ACL_MEMCPY_DEVICE_TO_DEVICE, s) == ACL_ERROR_RT_STREAM_CONTEXT
    assert aclGetRecentErrMsg() == _ee1010("Asynchronous memory copy", s, other.value, "rtMemcpyAsync")
    # a copy from pageable host memory becomes a synchronize and a synchronous copy in CANN: no EE1010
    assert aclrtMemcpyAsync(b, 64, bytes(64), 64, ACL_MEMCPY_HOST_TO_DEVICE, s) == 0
    assert aclrtSynchronizeStream(s) == 0
    assert aclrtDestroyContext(other.value) == 0 and aclrtSetDevice(0) == 0
    assert aclrtFree(a) == 0 and aclrtFree(b) == 0 and aclrtDestroyStream(s) == 0
    assert aclrtResetDevice(0) == 0


# -- events --------------------------------------------------------------------------------------

EVENT_FLAG_EXPECT = (
    "an OR combination of RT_EVENT_DDSYNC_NS(0x1U), RT_EVENT_STREAM_MARK(0x2U), RT_EVENT_DDSYNC(0x4U), and "
    "RT_EVENT_TIME_LINE(0x8U); or RT_EVENT_MC2(0x10U) or RT_EVENT_EXTERNAL(0x20U) used alone"
)


@pytest.mark.parametrize("flag", [0, 0x40, 0x80000000])
def test_event_flags_out_of_range_are_checked_before_the_context(flag):
    assert aclrtCreateEventWithFlag(Ref(), flag) == ACL_ERROR_RT_PARAM_INVALID
    assert (
        aclGetRecentErrMsg()
        == rt_invalid(
            f"Event creation failed because value {flag} for parameter flag is invalid. Expected value: "
            f"{EVENT_FLAG_EXPECT}.",
            "rtEventCreateWithFlag",
        )
        + f"{INDENT}{NO_CONTEXT}\n{INDENT}{GET_DEV_MSG}\n"
    )


@pytest.mark.parametrize("flag", [ACL_EVENT_DEVICE_USE_ONLY | ACL_EVENT_SYNC, ACL_EVENT_EXTERNAL | ACL_EVENT_TIME_LINE])
def test_device_only_and_external_events_take_no_other_flag(ctx, flag):
    assert aclrtCreateEventWithFlag(Ref(), flag) == ACL_ERROR_RT_PARAM_INVALID
    assert aclGetRecentErrMsg() == (
        f"Not_Supported(EE1006): Event creation failed. Parameter flag value {flag} is not supported. Reason: "
        "RT_EVENT_MC2(0x10U) and RT_EVENT_EXTERNAL(0x20U) do not support OR combination with other flags.\n"
        + TRACEBACK
        + f"{INDENT}The argument is invalid. Reason: rtEventCreateWithFlag execution failed.\n"
    )


def test_event_creation_needs_a_context_and_uses_the_default_flag():
    assert aclInit(None) == 0
    assert aclrtCreateEvent(Ref()) == ACL_ERROR_RT_CONTEXT_NULL
    assert aclrtCreateEventWithFlag(Ref(), ACL_EVENT_SYNC) == ACL_ERROR_RT_CONTEXT_NULL
    assert aclGetRecentErrMsg() == no_context_unbound("rtEventCreateWithFlag")  # one name for both
    assert aclrtSetDevice(0) == 0
    e = _event()
    assert e.flags == 0x0E  # RT_EVENT_DEFAULT: DDSYNC | TIME_LINE | STREAM_MARK
    assert aclrtDestroyEvent(e) == 0
    assert aclrtResetDevice(0) == 0 and aclFinalize() == 0


def test_record_event_checks_handles_then_the_context():
    assert aclInit(None) == 0 and aclrtSetDevice(0) == 0
    e = _event()
    gone = _event()
    assert aclrtDestroyEvent(gone) == 0
    assert aclrtRecordEvent(None, "not a stream") == ACL_ERROR_INVALID_PARAM
    assert aclrtRecordEvent(gone, "not a stream") == ACL_ERROR_RT_INVALID_HANDLE  # the event first
    assert aclGetRecentErrMsg() == (
        null("aclrtRecordEvent", "event")
        + TRACEBACK
        + f"{INDENT}Object validation failed. Parameter event is invalid. Reason: 1. The event handle has been "
        "destroyed. 2. The handle type must be event.\n" + f"{INDENT}rtEventRecord {HANDLE_FALLBACK}"
    )
    seen = []

    def worker():  # a thread without a current context
        seen.extend([aclrtRecordEvent(e, None), aclGetRecentErrMsg()])

    t = threading.Thread(target=worker)
    t.start()
    t.join()
    assert seen == [ACL_ERROR_RT_CONTEXT_NULL, no_context_unbound("rtEventRecord")]
    assert aclrtDestroyEvent(e) == 0
    assert aclrtResetDevice(0) == 0 and aclFinalize() == 0


def test_record_event_on_a_stream_of_another_context(ctx):
    s = _stream()
    e = _event()
    other = Ref()
    assert aclrtCreateContext(other, 0) == 0
    assert aclrtRecordEvent(e, s) == ACL_ERROR_RT_STREAM_CONTEXT
    assert aclGetRecentErrMsg() == _ee1010("Event recording", s, other.value, "rtEventRecord")
    assert aclrtStreamWaitEvent(s, e) == ACL_ERROR_RT_STREAM_CONTEXT
    assert aclGetRecentErrMsg() == _ee1010("Triggering stream event waiting", s, other.value, "rtStreamWaitEvent")
    assert aclrtDestroyContext(other.value) == 0 and aclrtSetDevice(0) == 0
    assert aclrtDestroyEvent(e) == 0 and aclrtDestroyStream(s) == 0
    assert aclrtResetDevice(0) == 0


def test_device_only_events_cannot_be_recorded_or_waited_for_on_the_host(ctx):
    e = _event(ACL_EVENT_DEVICE_USE_ONLY)
    assert aclrtRecordEvent(e, None) == ACL_ERROR_RT_PARAM_INVALID
    assert aclrtStreamWaitEvent(None, e) == ACL_ERROR_RT_PARAM_INVALID
    assert aclGetRecentErrMsg() == (
        "Not_Supported(EE1006): Event recording failed. Parameter evt.eventFlag_ value 16 is not supported. Reason: "
        "Device-only events can be called only on the device.\n"
        + TRACEBACK
        + f"{INDENT}The argument is invalid. Reason: rtEventRecord execution failed.\n"
        + f"{INDENT}Triggering event waiting failed. Parameter evt.eventFlag_ value 16 is not supported. Reason: "
        "Device-only events can be called only on the device.\n"
        + f"{INDENT}The argument is invalid. Reason: rtStreamWaitEvent execution failed.\n"
    )
    assert aclrtDestroyEvent(e) == 0


def test_stream_wait_event_checks_the_event_pointer_first(ctx):
    e = _event()
    assert aclrtStreamWaitEvent("not a stream", None) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg() == null("aclrtStreamWaitEvent", "event")
    assert aclrtStreamWaitEvent("not a stream", "not an event") == ACL_ERROR_RT_INVALID_HANDLE  # the stream first
    assert aclrtStreamWaitEvent(None, "not an event") == ACL_ERROR_RT_INVALID_HANDLE
    assert aclGetRecentErrMsg() == bad_handle("stream", "rtStreamWaitEvent") + (
        f"{INDENT}Object validation failed. Parameter event is invalid. Reason: 1. The event handle has been "
        "destroyed. 2. The handle type must be event.\n"
    )
    assert aclrtDestroyEvent(e) == 0


@pytest.mark.parametrize("chip", ["Ascend910B", "Ascend950"])
def test_waiting_for_an_event_never_recorded_is_refused(soc, chip):
    """Event::Wait refuses an event no record has reached (107000, EE1018 then rtStreamWaitEvent's
    EE1001); Ascend950's DavidEvent only logs it, leaving the EE1001. A reset keeps the record
    (hasRecord_), and an event of aclrtCreateEventExWithFlag or with ACL_EVENT_SYNC is waited
    for at once."""
    soc(chip)
    assert aclInit(None) == 0 and aclrtSetDevice(0) == 0
    s, e = _stream(), _event()
    assert aclrtStreamWaitEvent(s, e) == ACL_ERROR_RT_PARAM_INVALID
    fallback = "The argument is invalid. Reason: rtStreamWaitEvent execution failed.\n"
    assert aclGetRecentErrMsg() == (
        "Invalid_Argument(EE1001): " + fallback + "        Solution: 1. Check the input parameter range of the "
        "function. 2. Check the function invocation relationship.\n"
        if chip == "Ascend950"
        else (
            "Invalid_Argument_API_Call_Sequence(EE1018): Waiting for an event failed. Reason: The event has not been "
            "recorded. Call rtRecordEvent first to record the event on a stream.\n" + TRACEBACK + INDENT + fallback
        )
    )
    assert aclrtRecordEvent(e, s) == 0 and aclrtSynchronizeStream(s) == 0
    assert aclrtResetEvent(e, s) == 0 and aclrtSynchronizeStream(s) == 0
    assert aclrtStreamWaitEvent(s, e) == 0  # recorded once: the reset does not undo that
    sync = _event(ACL_EVENT_SYNC)
    assert aclrtStreamWaitEvent(s, sync) == 0
    assert aclrtSynchronizeStream(s) == 0
    for ev in (e, sync):
        assert aclrtDestroyEvent(ev) == 0
    assert aclrtDestroyStream(s) == 0
    assert aclrtResetDevice(0) == 0 and aclFinalize() == 0


def test_waiting_for_an_event_without_a_wait_task_is_207000_silently(ctx):
    """ACL_EVENT_TIME_LINE alone: ApiErrorDecorator::StreamWaitEvent's COND_RETURN_WARN
    (IsEventWithoutWaitTask), passed on without a report; nothing is queued."""
    s, e = _stream(), _event(ACL_EVENT_TIME_LINE)
    assert aclrtRecordEvent(e, s) == 0
    _errmsg.clear()
    assert aclrtStreamWaitEvent(s, e) == ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    assert aclGetRecentErrMsg() is None
    assert aclrtSynchronizeStream(s) == 0
    assert aclrtDestroyEvent(e) == 0 and aclrtDestroyStream(s) == 0


def test_events_are_destroyed_synchronized_and_queried_without_a_context():
    assert aclInit(None) == 0 and aclrtSetDevice(0) == 0
    e = _event()
    assert aclrtRecordEvent(e, None) == 0
    results = []

    def worker():  # no current context in this thread
        status = Ref()
        results.extend([aclrtSynchronizeEvent(e), aclrtQueryEventStatus(e, status), status.value])
        results.extend([aclrtSynchronizeEventWithTimeout(e, 5), aclrtDestroyEvent(e)])
        results.append(_errmsg.peek())

    t = threading.Thread(target=worker)
    t.start()
    t.join()
    assert results == [0, 0, 1, 0, 0, []]
    assert aclrtResetDevice(0) == 0 and aclFinalize() == 0


def test_event_handle_and_null_checks(ctx):
    e = _event()
    assert aclrtDestroyEvent(e) == 0
    assert aclrtDestroyEvent(e) == ACL_ERROR_RT_INVALID_HANDLE
    assert aclGetRecentErrMsg() == bad_handle("event", "rtEventDestroy")
    assert aclrtSynchronizeEvent(None) == ACL_ERROR_INVALID_PARAM
    assert aclrtSynchronizeEvent(e) == ACL_ERROR_RT_INVALID_HANDLE
    assert aclGetRecentErrMsg() == (
        null("aclrtSynchronizeEvent", "event")
        + TRACEBACK
        + f"{INDENT}Object validation failed. Parameter event is invalid. Reason: 1. The event handle has been "
        "destroyed. 2. The handle type must be event.\n" + f"{INDENT}rtEventSynchronize {HANDLE_FALLBACK}"
    )
    assert aclrtQueryEventStatus(e, None) == ACL_ERROR_INVALID_PARAM  # both nulls before the handle
    assert aclGetRecentErrMsg() == null("aclrtQueryEventStatus", "status")
    assert aclrtQueryEventStatus(e, Ref()) == ACL_ERROR_RT_INVALID_HANDLE
    assert aclGetRecentErrMsg() == bad_handle("event", "rtEventQueryStatus")
    assert aclrtEventElapsedTime(Ref(), e, None) == ACL_ERROR_INVALID_PARAM  # all nulls before the handles
    assert aclGetRecentErrMsg() == null("aclrtEventElapsedTime", "endEvent")
    assert aclrtEventElapsedTime(Ref(), e, e) == ACL_ERROR_RT_INVALID_HANDLE
    assert aclGetRecentErrMsg() == bad_handle("event", "rtEventElapsedTime")


def test_synchronize_event_with_timeout(ctx):
    e = _event()
    assert aclrtSynchronizeEventWithTimeout(None, -2) == ACL_ERROR_RT_PARAM_INVALID  # before the null check
    assert aclGetRecentErrMsg() == (
        "Invalid_Argument(EH0007): aclrtSynchronizeEventWithTimeout failed because value -2 for parameter timeout is "
        "invalid. Expected value: [-1, INT_MAX].\n" + RANGE_SOLUTION
    )
    assert aclrtSynchronizeEventWithTimeout(None, 0) == ACL_ERROR_INVALID_PARAM
    assert aclrtSynchronizeEventWithTimeout("not an event", 0) == ACL_ERROR_RT_INVALID_HANDLE
    assert aclrtSynchronizeEventWithTimeout(e, 0) == ACL_ERROR_RT_PARAM_INVALID
    assert aclGetRecentErrMsg() == (
        null("aclrtSynchronizeEventWithTimeout", "event")
        + TRACEBACK
        + f"{INDENT}Object validation failed. Parameter event is invalid. Reason: 1. The event handle has been "
        "destroyed. 2. The handle type must be event.\n"
        + f"{INDENT}rtEventSynchronizeWithTimeout {HANDLE_FALLBACK}"
        + f"{INDENT}Event synchronization failed because value 0 for parameter timeout is invalid. Expected value: "
        "greater than or equal to -1 and not equal to 0.\n"
        + f"{INDENT}The argument is invalid. Reason: rtEventSynchronizeWithTimeout execution failed.\n"
    )
    assert aclrtSynchronizeEventWithTimeout(e, -1) == 0
    assert aclrtDestroyEvent(e) == 0


def test_external_events_cannot_be_synchronized(ctx):
    e = _event(ACL_EVENT_EXTERNAL)
    assert aclrtSynchronizeEvent(e) == ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    assert aclrtSynchronizeEventWithTimeout(e, 10) == ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    assert aclGetRecentErrMsg() is None  # a warning in CANN's log only
    assert aclrtDestroyEvent(e) == 0


def test_set_current_context_then_record_on_its_default_stream(ctx):
    other = Ref()
    assert aclrtCreateContext(other, 0) == 0
    e = _event()
    assert aclrtRecordEvent(e, None) == 0  # the current context's default stream
    assert aclrtSynchronizeEvent(e) == 0
    primary = Ref()
    assert aclrtSetDevice(0) == 0
    assert aclrtGetCurrentContext(primary) == 0
    assert aclrtSetCurrentContext(other.value) == 0
    assert aclrtDestroyEvent(e) == 0 and aclrtDestroyContext(other.value) == 0
    assert aclrtResetDevice(0) == 0
