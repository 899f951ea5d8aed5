"""Submissions a context stopped on a failure refuses at once (Context::CheckTaskSend, hicann/runtime
context.cc:2924-2962, through Engine::SubmitTask; Ascend950's CheckTaskCanSend): an aclnn API's
phase 2 (its first kernel's launch) and a model's execution, as the runtime's own submissions
(copies, fills, event records ...) already do."""

from __future__ import annotations

import numpy as np
from helpers import Dev

from aclnn_py import (
    ACL_ERROR_RT_SYS_DMA,
    ACL_FLOAT,
    ACL_MEMCPY_HOST_TO_DEVICE,
    ACL_STOP_ON_FAILURE,
    ACL_STREAM_PERSISTENT,
    Ref,
    aclCreateScalar,
    aclDestroyScalar,
    aclGetRecentErrMsg,
    aclnnAdd,
    aclnnAddGetWorkspaceSize,
)
from aclnn_py.runtime import api as A

ACLNN_ERR_RUNTIME_ERROR = 361001


def _stop(stream) -> None:
    """STOP mode, then a copy whose destination is freed before it runs: the context stops."""
    assert A.aclrtSetStreamFailureMode(stream, ACL_STOP_ON_FAILURE) == 0
    p = Ref()
    assert A.aclrtMalloc(p, 64, 0) == 0
    assert A.aclrtMemcpyAsync(p.value, 64, np.ones(64, np.uint8), 64, ACL_MEMCPY_HOST_TO_DEVICE, stream) == 0
    assert A.aclrtFree(p.value) == 0
    assert A.aclrtSynchronizeStream(stream) == ACL_ERROR_RT_SYS_DMA
    aclGetRecentErrMsg()


def test_phase_2_in_a_stopped_context_is_a_launch_failure(deferred, findings):
    dev = Dev()
    try:
        a, b = dev.tensor(np.ones(8, np.float32)), dev.tensor(np.ones(8, np.float32))
        out = dev.tensor(np.zeros(8, np.float32))
        alpha = aclCreateScalar(np.float32(1.0), ACL_FLOAT)
        ws, ex = Ref(0), Ref()
        assert aclnnAddGetWorkspaceSize(a, b, alpha, out, ws, ex) == 0
        _stop(dev.stream)
        assert aclnnAdd(None, ws.value, ex.value, dev.stream) == ACLNN_ERR_RUNTIME_ERROR
        msg = aclGetRecentErrMsg()
        assert "it accepts no new work" in msg and "launch failed for Add" in msg
        assert aclDestroyScalar(alpha) == 0
        findings.refresh()
    finally:
        assert A.aclrtDeviceTaskAbort(0, 0) == 0
        dev.close()


def test_a_model_execution_in_a_stopped_context_is_refused(deferred, findings):
    dev = Dev()
    try:
        ps = Ref()
        assert A.aclrtCreateStreamWithConfig(ps, 0, ACL_STREAM_PERSISTENT) == 0
        m = Ref()
        assert A.aclmdlRIBuildBegin(m, 0) == 0
        assert A.aclmdlRIBindStream(m.value, ps.value, 0) == 0
        assert A.aclmdlRIEndTask(m.value, ps.value) == 0
        assert A.aclmdlRIBuildEnd(m.value, None) == 0
        _stop(dev.stream)
        assert A.aclmdlRIExecuteAsync(m.value, dev.stream) == ACL_ERROR_RT_SYS_DMA
        assert "it accepts no new work" in aclGetRecentErrMsg()
        assert A.aclmdlRIExecute(m.value, -1) == ACL_ERROR_RT_SYS_DMA
        assert "it accepts no new work" in aclGetRecentErrMsg()
        findings.refresh()
        assert A.aclmdlRIDestroy(m.value) == 0
        assert A.aclrtDestroyStream(ps.value) == 0
    finally:
        assert A.aclrtDeviceTaskAbort(0, 0) == 0
        dev.close()
