"""The executor: workspace sizing and packing, phase 2 (CommonOpExecutorRun), lifecycle."""

from __future__ import annotations

import numpy as np
import pytest

from aclnn_py import (
    ACL_ERROR_RT_AICORE_EXCEPTION,
    ACLNN_ERR_INNER,
    ACLNN_ERR_PARAM_INVALID,
    ACLNN_ERR_PARAM_NULLPTR,
    ACLNN_ERR_RUNTIME_ERROR,
    Ref,
    aclDestroyAclOpExecutor,
    aclDestroyTensor,
    aclGetRecentErrMsg,
    aclnnHardswishBackward,
    aclnnHardswishBackwardGetWorkspaceSize,
    aclnnSmoothL1LossBackward,
    aclnnSmoothL1LossBackwardGetWorkspaceSize,
    aclrtDestroyStream,
    aclrtFree,
    aclrtSynchronizeStream,
    aclSetAclOpExecutorRepeatable,
    aclSetTensorAddr,
    dtypes,
)  # fmt: skip
from aclnn_py.executor.executor import aclOpExecutor, align_workspace

HB1, HB2 = aclnnHardswishBackwardGetWorkspaceSize, aclnnHardswishBackward


@pytest.mark.parametrize(
    "n,aligned", [(0, 512), (1, 512), (480, 512), (481, 1024), (4096, 4608), (16 * 1024 * 1024, 16777728)]
)
def test_workspace_alignment(n, aligned):
    assert align_workspace(n) == aligned


def _noop(ins, outs):
    return None


def test_packing_reuses_the_last_free_bucket():
    ex = aclOpExecutor("aclnnTest")
    x = ex.alloc_tensor((100,), dtypes.DT_FLOAT)  # pretend a user input
    x.storage.kind = "user"
    s = ex.step("Chain", [x])
    a = ex.alloc_tensor((100,), dtypes.DT_FLOAT)  # 400 B -> 512
    b = ex.alloc_tensor((200,), dtypes.DT_FLOAT)  # 800 B -> 1024
    c = ex.alloc_tensor((100,), dtypes.DT_FLOAT)  # 400 B -> 512
    d = ex.alloc_tensor((10,), dtypes.DT_FLOAT)
    ex.launch(s, "K0", [x], [a], _noop)  # a lives 0..1
    ex.launch(s, "K1", [a], [b], _noop)  # b lives 1..2 (overlaps a)
    ex.launch(s, "K2", [b], [c], _noop)  # c lives 2..3: a's bucket is free again (a ended at 1 < 2)
    ex.launch(s, "K3", [c], [d], _noop, scratch_sizes=[100])  # scratch at 3; b's bucket ended at 2
    size = ex.plan_workspace()
    assert a.storage.ws_offset == 0 and c.storage.ws_offset == 0
    assert b.storage.ws_offset == 512
    # K3's scratch goes to the *last* bucket whose occupant died (b's); d then reuses nothing free
    assert ex.launches[3].scratch[0].ws_offset == 512
    assert d.storage.ws_offset == 512 + 1024
    assert size == 512 + 1024 + 512


def test_a_buffer_never_shares_with_its_producers_input():
    ex = aclOpExecutor("aclnnTest")
    s = ex.step("Chain", [])
    a = ex.alloc_tensor((4,), dtypes.DT_FLOAT)
    b = ex.alloc_tensor((4,), dtypes.DT_FLOAT)
    ex.launch(s, "K0", [], [a], _noop)
    ex.launch(s, "K1", [a], [b], _noop)
    ex.plan_workspace()
    assert a.storage.ws_offset != b.storage.ws_offset


def test_no_kernels_means_no_workspace():
    ex = aclOpExecutor("aclnnTest")
    assert ex.plan_workspace() == 0


def _hardswish(dev, x, *, contiguous_out=True):
    g = dev.tensor(np.ones_like(x))
    s = dev.tensor(x)
    if contiguous_out:
        o = dev.tensor(np.zeros_like(x))
    else:
        o = dev.strided(np.zeros(x.shape[::-1], x.dtype), x.shape, (1, x.shape[0]))
    return g, s, o


def test_phase2_null_executor_is_reported_once(dev):
    # L2_DFX_PHASE_2 and CommonOpExecutorRun both report it; the error manager keeps one copy
    assert HB2(None, 0, None, dev.stream) == ACLNN_ERR_PARAM_NULLPTR
    assert aclGetRecentErrMsg() == "AclNN_Parameter_Error(EZ1001): executor is nullptr.\n"


def test_phase2_null_workspace_releases_the_executor(dev):
    g, s, o = _hardswish(dev, np.ones((4, 4), np.float32), contiguous_out=False)
    ws, ex = Ref(0), Ref()
    assert HB1(g, s, o, ws, ex) == 0 and ws.value > 0
    assert aclSetAclOpExecutorRepeatable(ex.value) == 0
    assert HB2(None, ws.value, ex.value, dev.stream) == ACLNN_ERR_PARAM_NULLPTR
    assert aclGetRecentErrMsg() == "AclNN_Parameter_Error(EZ1001): workspace is nullptr." + "\n"
    # deleted even though it was repeatable
    assert HB2(dev.workspace(ws.value), ws.value, ex.value, dev.stream) == ACLNN_ERR_PARAM_INVALID
    assert "already released" in aclGetRecentErrMsg()


def test_a_non_repeatable_executor_runs_once(dev):
    g, s, o = _hardswish(dev, np.ones(4, np.float32))
    ws, ex = Ref(0), Ref()
    assert HB1(g, s, o, ws, ex) == 0
    assert HB2(None, 0, ex.value, dev.stream) == 0
    assert HB2(None, 0, ex.value, dev.stream) == ACLNN_ERR_PARAM_INVALID
    msg = aclGetRecentErrMsg()
    assert "already released" in msg and "aclSetAclOpExecutorRepeatable" in msg
    assert aclDestroyAclOpExecutor(ex.value) == ACLNN_ERR_INNER
    assert "unknown magic number" in aclGetRecentErrMsg()
    assert aclSetAclOpExecutorRepeatable(ex.value) == ACLNN_ERR_INNER
    aclGetRecentErrMsg()


def test_repeatable_executor_runs_again_with_new_addresses(dev):
    x = np.array([0, 1, 2, 6], np.float32)
    g, s, o = _hardswish(dev, x)
    ws, ex = Ref(0), Ref()
    assert HB1(g, s, o, ws, ex) == 0
    assert aclSetAclOpExecutorRepeatable(ex.value) == 0
    assert HB2(None, 0, ex.value, dev.stream) == 0
    first = dev.read(o)
    # point self at other data and run again
    other = dev.upload(np.array([-4, -3, 3, 4], np.float32))
    assert aclSetTensorAddr(ex.value, 1, s, other) == 0
    assert HB2(None, 0, ex.value, dev.stream) == 0
    second = dev.read(o)
    assert first.tolist() == [0.5, np.float32(1 / 3) + np.float32(0.5), np.float32(np.float32(2 / 3) + 0.5), 1.0]
    assert second.tolist() == [0.0, -0.5, 1.5, 1.0]
    assert aclDestroyAclOpExecutor(ex.value) == 0
    assert HB2(None, 0, ex.value, dev.stream) == ACLNN_ERR_PARAM_INVALID
    aclGetRecentErrMsg()


def test_an_executor_whose_user_found_input_equals_output_cannot_repeat(dev):
    from aclnn_py import aclCreateTensor

    x = np.ones(4, np.float32)
    ptr = dev.upload(x)
    t = aclCreateTensor([4], 1, 0, None, 0, 2, [4], 1, ptr)
    g = dev.tensor(np.ones(4, np.float32))
    ex = aclOpExecutor("aclnnTest")
    from aclnn_py.l0.contiguous import view_copy

    assert view_copy(t, t, ex) is t
    assert ex.unrepeatable_reason
    ex.finish()
    assert aclSetAclOpExecutorRepeatable(ex) == ACLNN_ERR_INNER
    assert aclGetRecentErrMsg() is None  # opbase only logs a warning
    assert aclDestroyAclOpExecutor(ex) == 0
    aclDestroyTensor(t)
    _ = g


def test_destroyed_tensor_between_phases(dev):
    g, s, o = _hardswish(dev, np.ones(4, np.float32))
    ws, ex = Ref(0), Ref()
    assert HB1(g, s, o, ws, ex) == 0
    assert aclDestroyTensor(s) == 0
    assert HB2(None, 0, ex.value, dev.stream) == ACLNN_ERR_PARAM_INVALID
    assert "tensor argument self of aclnnHardswishBackward was destroyed" in aclGetRecentErrMsg()
    assert aclDestroyAclOpExecutor(ex.value) == 0


def test_executor_of_another_operator_runs_and_is_named(dev, findings):
    """CANN's CommonOpExecutorRun runs whatever executor it is given: another operator's phase 2
    runs this graph (code 0), and the sanitizer names the mix-up at the calling line."""
    g, s, o = _hardswish(dev, np.ones(4, np.float32))
    ws, ex = Ref(0), Ref()
    assert HB1(g, s, o, ws, ex) == 0
    assert aclnnSmoothL1LossBackward(dev.workspace(ws.value), ws.value, ex.value, dev.stream) == 0
    assert findings.refresh().checks() == ["usage"]
    assert "aclnnSmoothL1LossBackward at test_executor.py:" in findings[0][1]
    assert "built by aclnnHardswishBackwardGetWorkspaceSize; it runs aclnnHardswishBackward's graph" in findings[0][1]
    assert HB2(None, 0, ex.value, dev.stream) == ACLNN_ERR_PARAM_INVALID  # run once: released
    aclGetRecentErrMsg()
    assert HB2(None, 0, "executor", dev.stream) == ACLNN_ERR_PARAM_INVALID
    aclGetRecentErrMsg()


def test_too_small_workspace_is_named_and_caught(dev, findings):
    x = np.ones((8, 8), np.float32)
    g, s, o = _hardswish(dev, x, contiguous_out=False)
    ws, ex = Ref(0), Ref()
    assert HB1(g, s, o, ws, ex) == 0 and ws.value == 512
    small = dev.malloc(64)  # 96 bytes reserved: the intermediate (256 B) runs past it
    assert HB2(small, 64, ex.value, dev.stream) == 0  # CANN does not compare sizes here
    assert "smaller than the 512 bytes" in findings.refresh().text()
    aclGetRecentErrMsg()
    assert aclrtSynchronizeStream(dev.stream) == ACL_ERROR_RT_AICORE_EXCEPTION
    msg = aclGetRecentErrMsg()
    assert "kernel #0 HardSwishGrad failed" in msg and "past the end" in msg


def test_freed_workspace_is_caught_at_the_kernel(dev, findings):
    x = np.ones((8, 8), np.float32)
    g, s, o = _hardswish(dev, x, contiguous_out=False)
    ws, ex = Ref(0), Ref()
    assert HB1(g, s, o, ws, ex) == 0
    wsp = dev.malloc(ws.value)
    dev.ptrs.remove(wsp)
    assert aclrtFree(wsp) == 0
    assert HB2(wsp, ws.value, ex.value, dev.stream) == 0
    assert findings.refresh().checks() == ["memcheck"]
    aclGetRecentErrMsg()
    assert aclrtSynchronizeStream(dev.stream) == ACL_ERROR_RT_AICORE_EXCEPTION
    assert "freed memory" in aclGetRecentErrMsg()


def test_phase2_on_a_destroyed_stream_is_a_runtime_error(dev):
    g, s, o = _hardswish(dev, np.ones(4, np.float32))
    ws, ex = Ref(0), Ref()
    assert HB1(g, s, o, ws, ex) == 0
    st = dev.stream
    assert aclrtDestroyStream(st) == 0
    assert HB2(None, 0, ex.value, st) == ACLNN_ERR_RUNTIME_ERROR
    msg = aclGetRecentErrMsg()
    assert "launch failed for HardSwishGrad, errno:361001." in msg and "already destroyed" in msg
    # CommonOpExecutorRun deletes a non-repeatable executor whatever Run() returned
    assert aclDestroyAclOpExecutor(ex.value) == ACLNN_ERR_INNER
    assert "released executor" in aclGetRecentErrMsg()


def test_phase2_on_the_default_stream(dev):
    g, s, o = _hardswish(dev, np.full(4, 4.0, np.float32))
    ws, ex = Ref(0), Ref()
    assert HB1(g, s, o, ws, ex) == 0
    assert HB2(None, 0, ex.value, None) == 0
    assert aclrtSynchronizeStream(None) == 0
    assert dev.read(o).tolist() == [1.0] * 4


def test_phase1_needs_no_device_and_no_data(monkeypatch):
    from aclnn_py import aclCreateTensor

    ts = [aclCreateTensor([2, 3], 2, 0, None, 0, 2, [2, 3], 2, None) for _ in range(4)]
    ws, ex = Ref(0), Ref()
    assert aclnnSmoothL1LossBackwardGetWorkspaceSize(ts[0], ts[1], ts[2], 1, 0.5, ts[3], ws, ex) == 0
    assert ws.value == 0 and len(ex.value.launches) == 1
    assert aclDestroyAclOpExecutor(ex.value) == 0
    for t in ts:
        aclDestroyTensor(t)


def test_kernel_reading_a_tensor_without_data_fails_its_task(dev):
    from aclnn_py import aclCreateTensor

    g = aclCreateTensor([4], 1, 0, None, 0, 2, [4], 1, None)
    s, o = dev.tensor(np.ones(4, np.float32)), dev.tensor(np.ones(4, np.float32))
    ws, ex = Ref(0), Ref()
    assert HB1(g, s, o, ws, ex) == 0
    assert HB2(None, 0, ex.value, dev.stream) == 0
    assert aclrtSynchronizeStream(dev.stream) == ACL_ERROR_RT_AICORE_EXCEPTION
    assert "has no device address (nullptr)" in aclGetRecentErrMsg()
    aclDestroyTensor(g)


def test_view_reaching_outside_its_allocation_fails_at_run_time(dev):
    from aclnn_py import aclCreateTensor

    ptr = dev.upload(np.ones(4, np.float32))  # 16 B requested, 64 reserved
    big = aclCreateTensor([64], 1, 0, None, 0, 2, [64], 1, ptr)
    s, o = dev.tensor(np.ones(64, np.float32)), dev.tensor(np.ones(64, np.float32))
    ws, ex = Ref(0), Ref()
    assert HB1(big, s, o, ws, ex) == 0  # CANN checks no sizes in phase 1
    assert HB2(None, 0, ex.value, dev.stream) == 0
    assert aclrtSynchronizeStream(dev.stream) == ACL_ERROR_RT_AICORE_EXCEPTION
    msg = aclGetRecentErrMsg()
    assert "HardSwishGrad input 0" in msg and "runs 192 bytes past the end" in msg
    aclDestroyTensor(big)


def test_describe_shows_steps_kernels_and_placement(dev):
    g, s, o = _hardswish(dev, np.ones((3, 5), np.float32), contiguous_out=False)
    ws, ex = Ref(0), Ref()
    assert HB1(g, s, o, ws, ex) == 0
    text = ex.value.describe()
    assert (
        text.splitlines()[0] == "aclOpExecutor for aclnnHardswishBackward (composite, 2 kernel(s), workspace 512 bytes)"
    )
    assert "kernel #0 HardSwishGrad(DT_FLOAT[3, 5] @ gradOutput, DT_FLOAT[3, 5] @ self)" in text
    assert "-> DT_FLOAT[3, 5] @ workspace+0x0" in text
    assert "kernel #1 Transpose(DT_FLOAT[3, 5] @ workspace+0x0) perm=[1, 0] -> DT_FLOAT[5, 3] @ out" in text
    assert aclDestroyAclOpExecutor(ex.value) == 0


@pytest.mark.parametrize("op_cache", ["on", "off"])
def test_repeated_calls_leave_nothing_behind(dev, monkeypatch, op_cache):
    """Issue 6: no per-call state that grows with the calls made before, and no reference cycles
    left for the garbage collector (a task lets go of its body once it ran; a graph's launches do
    not point back at their steps), whether the op cache answers phase 1 or phase 1 builds."""
    import gc

    from aclnn_py.executor import cache
    from aclnn_py.runtime import sanitizer
    from aclnn_py.runtime.device import RT

    if op_cache == "off":
        monkeypatch.setenv(cache.ENV_LIMIT, "0")
        cache.reset()

    g, s, o = _hardswish(dev, np.linspace(-4, 4, 8, dtype=np.float32))
    t = dev.tensor(np.zeros(8, np.float32))

    def calls(n: int) -> None:
        for _ in range(n):
            for p1, p2, args in ((HB1, HB2, (g, s, o)), (aclnnSmoothL1LossBackwardGetWorkspaceSize,
                                 aclnnSmoothL1LossBackward, (g, s, t, 1, 1.0, o))):  # fmt: skip
                ws, ex = Ref(0), Ref()
                assert p1(*args, ws, ex) == 0
                w = dev.malloc(ws.value) if ws.value else None
                assert p2(w, ws.value, ex.value, dev.stream) == 0
                assert aclrtSynchronizeStream(dev.stream) == 0
                if w is not None:
                    assert aclrtFree(w) == 0
                    dev.ptrs.remove(w)

    calls(3)  # the op cache now answers both
    sizes = (len(RT.executors), len(sanitizer._pending), len(cache.manager().entries))
    gc.collect()
    gc.disable()
    try:
        calls(200)
        assert gc.collect() == 0  # nothing unreachable: reference counting freed every call
    finally:
        gc.enable()
    assert (len(RT.executors), len(sanitizer._pending), len(cache.manager().entries)) == sizes
