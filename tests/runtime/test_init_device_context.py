"""aclInit / aclFinalize, devices, contexts: codes, check order, per-thread state."""

from __future__ import annotations

import threading

import pytest

from aclnn_py import (
    ACL_ERROR_INTERNAL_ERROR,
    ACL_ERROR_INVALID_FILE,
    ACL_ERROR_INVALID_PARAM,
    ACL_ERROR_PARSE_FILE,
    ACL_ERROR_REPEAT_FINALIZE,
    ACL_ERROR_REPEAT_INITIALIZE,
    ACL_ERROR_RT_CONTEXT_NULL,
    ACL_ERROR_RT_CONTEXT_RELEASE_ERROR,
    ACL_ERROR_RT_INVALID_DEVICEID,
    ACL_ERROR_RT_INVALID_HANDLE,
    ACL_ERROR_RT_PARAM_INVALID,
    ACL_HOST,
    Ref,
    aclFinalize,
    aclFinalizeReference,
    aclGetRecentErrMsg,
    aclInit,
    aclrtCreateContext,
    aclrtCreateStream,
    aclrtDestroyContext,
    aclrtGetCurrentContext,
    aclrtGetDevice,
    aclrtGetDeviceCount,
    aclrtGetRunMode,
    aclrtGetSocName,
    aclrtResetDevice,
    aclrtResetDeviceForce,
    aclrtSetCurrentContext,
    aclrtSetDevice,
    aclrtSynchronizeDevice,
)  # fmt: skip


def test_init_then_repeat_returns_100002_and_finalize_twice_100037():
    assert aclInit(None) == 0
    assert aclInit(None) == ACL_ERROR_REPEAT_INITIALIZE
    assert aclGetRecentErrMsg() is None  # only a warning in CANN's log
    assert aclFinalize() == 0
    assert aclFinalize() == ACL_ERROR_REPEAT_FINALIZE


def test_finalize_without_init_succeeds_once():
    assert aclFinalize() == 0
    assert aclFinalize() == ACL_ERROR_REPEAT_FINALIZE


def test_init_accepts_empty_string_and_reinit_after_finalize():
    assert aclInit("") == 0
    assert aclFinalize() == 0
    assert aclInit(None) == 0
    assert aclFinalize() == 0


def test_init_config_file(tmp_path):
    assert aclInit(str(tmp_path / "missing.json")) == ACL_ERROR_INVALID_FILE
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert aclInit(str(bad)) == ACL_ERROR_PARSE_FILE
    aclGetRecentErrMsg()
    good = tmp_path / "acl.json"
    good.write_text('{"defaultDevice": {"default_device": "0"}}')
    assert aclInit(str(good)) == 0
    # the default device binds itself to a thread that has none
    dev = Ref()
    assert aclrtGetDevice(dev) == 0 and dev.value == 0
    assert aclFinalize() == 0


def test_reinit_with_different_config_after_finalize_is_rejected(tmp_path):
    first = tmp_path / "a.json"
    first.write_text("{}")
    second = tmp_path / "b.json"
    second.write_text('{"err_msg_mode": "0"}')
    assert aclInit(str(first)) == 0
    assert aclFinalize() == 0
    assert aclInit(str(second)) == ACL_ERROR_INVALID_PARAM
    assert aclInit(str(first)) == 0
    assert aclFinalize() == 0


def test_finalize_reference_counts_inits():
    assert aclInit(None) == 0
    assert aclInit(None) == ACL_ERROR_REPEAT_INITIALIZE
    left = Ref()
    assert aclFinalizeReference(left) == 0 and left.value == 1
    assert aclFinalizeReference(None) == 0
    assert aclFinalizeReference(None) == ACL_ERROR_REPEAT_FINALIZE


def test_unknown_soc_fails_init_with_a_clear_message(soc):
    soc("Ascend123")
    assert aclInit(None) == ACL_ERROR_INTERNAL_ERROR
    msg = aclGetRecentErrMsg()
    assert "Ascend123" in msg and "ACLNN_PY_SOC" in msg
    assert aclrtGetSocName() is None


@pytest.mark.parametrize("name", ["Ascend910B", "Ascend910B2", "Ascend910_93", "Ascend950", "Ascend910", "Ascend310P3"])
def test_soc_name_is_reported_as_configured(soc, name):
    soc(name)
    assert aclInit(None) == 0
    assert aclrtGetSocName() == name
    assert aclFinalize() == 0


def test_default_soc_is_ascend910b():
    assert aclrtGetSocName() == "Ascend910B"


def test_device_before_set_device_gives_107002():
    assert aclInit(None) == 0
    out = Ref()
    assert aclrtGetDevice(out) == ACL_ERROR_RT_CONTEXT_NULL
    assert "aclrtSetDevice" in aclGetRecentErrMsg()
    assert aclrtCreateStream(Ref()) == ACL_ERROR_RT_CONTEXT_NULL
    assert aclrtSynchronizeDevice() == ACL_ERROR_RT_CONTEXT_NULL
    assert aclFinalize() == 0


def test_set_device_range_and_null_out_params(monkeypatch):
    monkeypatch.setenv("ACLNN_PY_DEVICE_COUNT", "2")
    assert aclInit(None) == 0
    assert aclrtSetDevice(2) == ACL_ERROR_RT_INVALID_DEVICEID
    assert "[0, 2)" in aclGetRecentErrMsg()
    assert aclrtSetDevice(-1) == ACL_ERROR_RT_INVALID_DEVICEID
    assert aclrtSetDevice(1) == 0
    assert aclrtGetDevice(None) == ACL_ERROR_INVALID_PARAM
    assert aclrtGetDeviceCount(None) == ACL_ERROR_INVALID_PARAM
    count, dev = Ref(), Ref()
    assert aclrtGetDeviceCount(count) == 0 and count.value == 2
    assert aclrtGetDevice(dev) == 0 and dev.value == 1
    assert aclrtResetDevice(1) == 0
    assert aclFinalize() == 0


def test_default_device_count_is_8():
    count = Ref()
    assert aclInit(None) == 0
    assert aclrtGetDeviceCount(count) == 0 and count.value == 8
    assert aclFinalize() == 0


def test_reset_device_refcount_and_507007():
    assert aclInit(None) == 0
    assert aclrtResetDevice(0) == ACL_ERROR_RT_CONTEXT_RELEASE_ERROR
    assert "has not been set" in aclGetRecentErrMsg()
    assert aclrtResetDevice(64) == ACL_ERROR_RT_INVALID_DEVICEID
    assert aclrtSetDevice(0) == 0
    assert aclrtSetDevice(0) == 0
    assert aclrtResetDevice(0) == 0  # refcount 2 -> 1: context still valid
    assert aclrtGetDevice(Ref()) == 0
    assert aclrtResetDevice(0) == 0  # -> 0: released
    assert aclrtGetDevice(Ref()) == ACL_ERROR_RT_CONTEXT_NULL
    assert aclrtResetDevice(0) == ACL_ERROR_RT_CONTEXT_RELEASE_ERROR
    assert aclrtSetDevice(0) == 0 and aclrtSetDevice(0) == 0
    assert aclrtResetDeviceForce(0) == 0
    assert aclrtResetDevice(0) == ACL_ERROR_RT_CONTEXT_RELEASE_ERROR
    assert aclFinalize() == 0


def test_run_mode_is_host():
    mode = Ref()
    assert aclrtGetRunMode(mode) == 0 and mode.value == ACL_HOST
    assert aclrtGetRunMode(None) == ACL_ERROR_INVALID_PARAM


def test_threads_share_the_primary_context_but_not_the_current_context():
    assert aclInit(None) == 0
    assert aclrtSetDevice(0) == 0
    main_ctx = Ref()
    assert aclrtGetCurrentContext(main_ctx) == 0
    seen = {}

    def worker():
        seen["before"] = aclrtGetDevice(Ref())  # a new thread has no current context
        seen["set"] = aclrtSetDevice(0)
        ctx = Ref()
        aclrtGetCurrentContext(ctx)
        seen["ctx"] = ctx.value
        seen["reset"] = aclrtResetDevice(0)

    t = threading.Thread(target=worker)
    t.start()
    t.join()
    assert seen["before"] == ACL_ERROR_RT_CONTEXT_NULL
    assert seen["set"] == 0 and seen["reset"] == 0
    assert seen["ctx"] is main_ctx.value
    assert aclrtGetDevice(Ref()) == 0  # refcount 2 -> 1 kept the main thread's context
    assert aclrtResetDevice(0) == 0
    assert aclFinalize() == 0


def test_explicit_contexts():
    assert aclInit(None) == 0
    assert aclrtCreateContext(None, 0) == ACL_ERROR_INVALID_PARAM
    assert aclrtCreateContext(Ref(), 99) == ACL_ERROR_RT_INVALID_DEVICEID
    ctx = Ref()
    assert aclrtCreateContext(ctx, 0) == 0
    cur = Ref()
    assert aclrtGetCurrentContext(cur) == 0 and cur.value is ctx.value
    assert aclrtSetCurrentContext(None) == ACL_ERROR_INVALID_PARAM
    assert aclrtSetCurrentContext(ctx.value) == 0
    assert aclrtDestroyContext(None) == ACL_ERROR_INVALID_PARAM
    assert aclrtDestroyContext(ctx.value) == 0
    assert aclrtDestroyContext(ctx.value) == ACL_ERROR_RT_INVALID_HANDLE
    assert aclrtSetCurrentContext(ctx.value) == ACL_ERROR_RT_INVALID_HANDLE
    assert aclrtGetCurrentContext(Ref()) == ACL_ERROR_RT_CONTEXT_NULL
    # the primary context cannot be destroyed with aclrtDestroyContext
    assert aclrtSetDevice(0) == 0
    primary = Ref()
    aclrtGetCurrentContext(primary)
    assert aclrtDestroyContext(primary.value) == ACL_ERROR_RT_PARAM_INVALID
    assert aclrtResetDevice(0) == 0
    assert aclFinalize() == 0


def test_err_msg_is_per_thread_and_cleared_by_reading():
    assert aclrtGetDevice(None) == ACL_ERROR_INVALID_PARAM
    other = {}
    t = threading.Thread(target=lambda: other.setdefault("msg", aclGetRecentErrMsg()))
    t.start()
    t.join()
    assert other["msg"] is None
    msg = aclGetRecentErrMsg()
    assert msg == (
        "Invalid_Argument_Null_Pointer(EH0002): Argument deviceId must not be null.\n"
        "        Solution: Try again with a correct pointer argument.\n"
    )
    assert aclGetRecentErrMsg() is None


def test_err_msg_process_mode(tmp_path):
    cfg = tmp_path / "acl.json"
    cfg.write_text('{"err_msg_mode": "1"}')
    assert aclInit(str(cfg)) == 0
    t = threading.Thread(target=lambda: aclrtGetDevice(None))
    t.start()
    t.join()
    assert "deviceId" in aclGetRecentErrMsg()
    assert aclFinalize() == 0


def test_several_messages_render_with_a_traceback():
    aclrtGetDevice(None)
    aclrtGetDeviceCount(None)
    assert aclGetRecentErrMsg() == (
        "Invalid_Argument_Null_Pointer(EH0002): Argument deviceId must not be null.\n"
        "        Solution: Try again with a correct pointer argument.\n"
        "TraceBack (most recent call last):\n"
        "        Argument count must not be null.\n"
    )
