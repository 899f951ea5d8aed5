"""Usage mistakes the sanitizer names whatever the stream policy (issue 15, items 6 and 7):
forgetting aclInit is said once; a bad ACLNN_PY_KERNELS is refused at aclInit, naming the
variable, like the other settings."""

from __future__ import annotations

import pytest

from aclnn_py import (
    ACL_ERROR_INTERNAL_ERROR,
    ACL_ERROR_UNINITIALIZE,
    Ref,
    aclFinalize,
    aclGetRecentErrMsg,
    aclInit,
    aclrtCreateContext,
    aclrtDestroyContext,
    aclrtResetDevice,
    aclrtSetDevice,
)
from aclnn_py.runtime import sanitizer

POLICIES = ["deferred", "eager", "thread"]


@pytest.mark.parametrize("policy", POLICIES)
def test_forgetting_acl_init_is_said_once(policy, monkeypatch, findings):
    monkeypatch.setenv("ACLNN_PY_STREAM", policy)
    assert aclrtSetDevice(0) == 0  # CANN tolerates it: so does the emulator
    found = findings.refresh()
    assert found.checks() == ["usage"]
    assert found.text().startswith("aclrtSetDevice at test_diagnostics_usage.py:")
    assert "before aclInit" in found.text() and "said once" in found.text()
    assert "before aclInit" in (aclGetRecentErrMsg() or "")
    ctx = Ref()
    assert aclrtCreateContext(ctx, 0) == 0
    assert aclrtSetDevice(0) == 0
    assert len(findings.refresh()) == 1  # once
    assert aclrtDestroyContext(ctx.value) == 0
    assert aclrtResetDevice(0) == 0
    assert aclrtResetDevice(0) == 0


def test_with_acl_init_nothing_is_said(findings):
    assert aclInit(None) == 0 and aclrtSetDevice(0) == 0
    assert not findings.refresh()
    aclrtResetDevice(0)
    aclFinalize()


def test_forgetting_acl_init_fails_the_call_in_error_mode(findings):
    sanitizer.set_mode("error")
    assert aclrtSetDevice(0) == ACL_ERROR_UNINITIALIZE
    assert "before aclInit" in (aclGetRecentErrMsg() or "")
    assert aclrtSetDevice(0) == 0  # said once: the program goes on
    aclrtResetDevice(0)


@pytest.mark.parametrize("value", ["fast", "NUMPY", "numpy "])
@pytest.mark.parametrize("policy", POLICIES)
def test_a_bad_kernel_path_is_refused_at_acl_init(policy, value, monkeypatch):
    monkeypatch.setenv("ACLNN_PY_STREAM", policy)
    monkeypatch.setenv("ACLNN_PY_KERNELS", value)
    assert aclInit(None) == ACL_ERROR_INTERNAL_ERROR
    msg = aclGetRecentErrMsg() or ""
    assert "ACLNN_PY_KERNELS" in msg and repr(value) in msg and "numpy, numba, auto" in msg
    monkeypatch.setenv("ACLNN_PY_KERNELS", "numpy")
    assert aclInit(None) == 0
    aclFinalize()


def test_numba_asked_for_but_missing_is_refused_at_acl_init(monkeypatch):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "numba" else real(name, *a))
    monkeypatch.setenv("ACLNN_PY_KERNELS", "numba")
    assert aclInit(None) == ACL_ERROR_INTERNAL_ERROR
    assert "ACLNN_PY_KERNELS=numba but numba is not installed" in (aclGetRecentErrMsg() or "")


def test_rerunning_a_destroyed_repeatable_executor_names_the_destroy(dev):
    import numpy as np

    from aclnn_py import (
        ACLNN_ERR_PARAM_INVALID,
        aclDestroyAclOpExecutor,
        aclnnHardswishBackward,
        aclnnHardswishBackwardGetWorkspaceSize,
        aclrtSynchronizeStream,
        aclSetAclOpExecutorRepeatable,
    )

    g, x, o = (dev.tensor(np.ones(8, np.float32)) for _ in range(3))
    ws, ex = Ref(0), Ref()
    assert aclnnHardswishBackwardGetWorkspaceSize(g, x, o, ws, ex) == 0
    assert aclSetAclOpExecutorRepeatable(ex.value) == 0
    assert aclnnHardswishBackward(None, 0, ex.value, dev.stream) == 0
    assert aclrtSynchronizeStream(dev.stream) == 0
    assert aclDestroyAclOpExecutor(ex.value) == 0
    assert aclnnHardswishBackward(None, 0, ex.value, dev.stream) == ACLNN_ERR_PARAM_INVALID
    msg = aclGetRecentErrMsg() or ""
    assert "was destroyed by aclDestroyAclOpExecutor at test_diagnostics_usage.py:" in msg
    assert "aclSetAclOpExecutorRepeatable" not in msg


def test_messages_point_the_right_way(dev):
    """Issue 15 item 5: an array's .ctypes.data is named as what it is; aclrtFree of an array
    does not print the array; a null executor is said once."""
    import numpy as np

    from aclnn_py import (
        ACL_MEMCPY_HOST_TO_DEVICE,
        aclnnAdd,
        aclrtFree,
        aclrtMemcpy,
    )

    p = dev.malloc(64)
    host = np.ones(16, np.float32)
    assert aclrtMemcpy(p, 64, host.ctypes.data, 64, ACL_MEMCPY_HOST_TO_DEVICE) != 0
    msg = aclGetRecentErrMsg() or ""
    assert "src 0x" in msg and ".ctypes.data" in msg and "device memory, src is device memory" not in msg
    assert aclrtFree(np.zeros(1000)) != 0
    msg = aclGetRecentErrMsg() or ""
    assert "numpy.ndarray(shape=(1000,), dtype=float64)" in msg and len(msg) < 300
    assert aclnnAdd(None, 0, None, None) != 0
    assert (aclGetRecentErrMsg() or "").count("executor is nullptr.") == 1
