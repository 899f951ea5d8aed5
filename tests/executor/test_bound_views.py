"""Phase 2's bound views: a repeated run at the same address reuses an argument's view of device
memory while its allocation lives, and every check a fresh view gets still holds (freed memory,
another address, uninitialised bytes); a freed allocation's bytes go once newer frees hold
memory.FREED_BYTES_KEPT."""

from __future__ import annotations

import gc
import weakref

import numpy as np

from aclnn_py import (
    ACL_ERROR_RT_AICORE_EXCEPTION,
    Ref,
    aclDestroyAclOpExecutor,
    aclGetRecentErrMsg,
    aclnnHardswishBackward,
    aclnnHardswishBackwardGetWorkspaceSize,
    aclrtFree,
    aclrtMalloc,
    aclrtSynchronizeStream,
    aclSetAclOpExecutorRepeatable,
    aclSetTensorAddr,
)
from aclnn_py.executor import executor as X
from aclnn_py.runtime import memory
from aclnn_py.runtime.memory import SPACE

HB1, HB2 = aclnnHardswishBackwardGetWorkspaceSize, aclnnHardswishBackward
X_IN = np.array([-4, -1, 0.5, 2], np.float32)
# HardSwishGrad with gradOutput 1: 0 below -3, x / 3 + 0.5 inside (-3, 3), in float32
EXPECTED = [0.0, *(float(np.float32(v / 3) + np.float32(0.5)) for v in (-1, 0.5, 2))]


def _repeatable(dev, x=X_IN):
    g, s, o = dev.tensor(np.ones_like(x)), dev.tensor(x), dev.tensor(np.zeros_like(x))
    ws, ex = Ref(0), Ref()
    assert HB1(g, s, o, ws, ex) == 0, aclGetRecentErrMsg()
    assert ws.value == 0
    assert aclSetAclOpExecutorRepeatable(ex.value) == 0
    return ex.value, s, o


def _specs(ex):
    return [spec for ln in ex.launches for spec in (*ln.in_specs, *ln.out_specs)]


def test_a_second_run_at_the_same_addresses_reuses_each_view(dev):
    ex, _, o = _repeatable(dev)
    assert HB2(None, 0, ex, dev.stream) == 0
    assert aclrtSynchronizeStream(dev.stream) == 0
    first = [spec.bound for spec in _specs(ex)]
    assert all(b is not None for b in first)
    assert HB2(None, 0, ex, dev.stream) == 0
    assert aclrtSynchronizeStream(dev.stream) == 0
    assert [spec.bound[2] for spec in _specs(ex)] == [b[2] for b in first]  # the same arrays
    assert all(spec.bound[2] is b[2] for spec, b in zip(_specs(ex), first, strict=True))
    assert dev.read(o).tolist() == EXPECTED
    assert aclDestroyAclOpExecutor(ex) == 0


def test_a_new_address_binds_a_new_view_and_reads_the_new_data(dev):
    ex, s, o = _repeatable(dev)
    assert HB2(None, 0, ex, dev.stream) == 0
    assert aclrtSynchronizeStream(dev.stream) == 0
    other = dev.upload(np.array([-4, -3, 3, 4], np.float32))
    assert aclSetTensorAddr(ex, 1, s, other) == 0
    assert HB2(None, 0, ex, dev.stream) == 0
    assert aclrtSynchronizeStream(dev.stream) == 0
    assert dev.read(o).tolist() == [0.0, -0.5, 1.5, 1.0]
    assert other in [spec.bound[0] for spec in _specs(ex)]
    assert aclDestroyAclOpExecutor(ex) == 0


def test_memory_freed_after_a_run_is_still_caught_by_the_next(dev):
    ex, s, _ = _repeatable(dev)
    assert HB2(None, 0, ex, dev.stream) == 0
    assert aclrtSynchronizeStream(dev.stream) == 0
    ptr = s.storage.addr
    dev.ptrs.remove(ptr)
    assert aclrtFree(ptr) == 0
    assert HB2(None, 0, ex, dev.stream) == 0  # the kernel touches the memory when it runs
    assert aclrtSynchronizeStream(dev.stream) == ACL_ERROR_RT_AICORE_EXCEPTION
    msg = aclGetRecentErrMsg()
    assert "kernel #0 HardSwishGrad failed" in msg and "freed memory" in msg
    assert aclDestroyAclOpExecutor(ex) == 0


def test_uninitialised_memory_at_a_new_address_is_still_found(dev, findings):
    ex, s, _ = _repeatable(dev)
    assert HB2(None, 0, ex, dev.stream) == 0
    assert aclrtSynchronizeStream(dev.stream) == 0
    fresh = dev.malloc(X_IN.nbytes)  # never written
    assert aclSetTensorAddr(ex, 1, s, fresh) == 0
    assert HB2(None, 0, ex, dev.stream) == 0
    aclrtSynchronizeStream(dev.stream)
    aclGetRecentErrMsg()
    assert findings.refresh().checks() == ["initcheck"]
    assert "reads uninitialised device memory" in findings.text()
    assert aclDestroyAclOpExecutor(ex) == 0


def test_a_large_allocation_keeps_no_view_between_runs(dev):
    x = np.ones(X.BIND_LIMIT // 4 + 1, np.float32)  # one allocation above the limit per tensor
    ex, _, _ = _repeatable(dev, x)
    assert HB2(None, 0, ex, dev.stream) == 0
    assert aclrtSynchronizeStream(dev.stream) == 0
    assert [spec.bound for spec in _specs(ex)] == [None, None, None]
    assert aclDestroyAclOpExecutor(ex) == 0


def test_free_gives_the_bytes_back_beyond_the_budget_and_keeps_the_record(dev, monkeypatch):
    monkeypatch.setattr(memory, "FREED_BYTES_KEPT", 1 << 20)
    ptrs, raws = [], []
    for _ in range(3):
        p = Ref()
        assert aclrtMalloc(p, 1 << 20, 0) == 0
        ptrs.append(p.value)
        raws.append(weakref.ref(SPACE.find(p.value).raw))
    for p in ptrs:
        assert aclrtFree(p) == 0
    gc.collect()
    # the newest free holds its bytes (a view built just before a racing free reaches orphaned
    # bytes, not memory handed out again); the older ones are released ...
    assert [r() is None for r in raws] == [True, True, False]
    for p in ptrs:  # ... and every record stays for messages
        alloc = SPACE.find_freed(p)
        assert alloc is not None and alloc.freed and "freed by aclrtFree" in SPACE.describe_address(p)
