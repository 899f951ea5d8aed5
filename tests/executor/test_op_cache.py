"""The phase-1 op cache of composite operators (opbase op_cache): when a call hits, what the key
holds, when an entry becomes usable or is dropped, repeatable executors, limits, threads."""

from __future__ import annotations

import threading

import goldens
import numpy as np
import pytest
from helpers import assert_bits_equal

from aclnn_py import (
    ACL_FORMAT_NCHW,
    ACLNN_ERR_INNER,
    ACLNN_ERR_PARAM_NULLPTR,
    Ref,
    aclDestroyAclOpExecutor,
    aclGetRecentErrMsg,
    aclnnHardswishBackward,
    aclnnHardswishBackwardGetWorkspaceSize,
    aclnnScaledMaskedSoftmaxBackward,
    aclnnScaledMaskedSoftmaxBackwardGetWorkspaceSize,
    aclnnSmoothL1LossBackward,
    aclnnSmoothL1LossBackwardGetWorkspaceSize,
    aclrtSynchronizeStream,
    aclSetAclOpExecutorRepeatable,
    aclSetTensorAddr,
    dtypes,
)  # fmt: skip
from aclnn_py.executor import cache

HB1, HB2 = aclnnHardswishBackwardGetWorkspaceSize, aclnnHardswishBackward
SL1, SL2 = aclnnSmoothL1LossBackwardGetWorkspaceSize, aclnnSmoothL1LossBackward


def _hs_tensors(dev, x, g=None):
    g = np.ones_like(x) if g is None else g
    return dev.tensor(g), dev.tensor(x), dev.tensor(np.zeros_like(x))


def _p1(fn, *args):
    ws, ex = Ref(0), Ref()
    assert fn(*args, ws, ex) == 0, aclGetRecentErrMsg()
    return ws.value, ex.value


def _hs_run(dev, g, x, o):
    ws, ex = _p1(HB1, g, x, o)
    assert HB2(dev.workspace(ws), ws, ex, dev.stream) == 0
    return ex


def _sl1_f16_tensors(dev):
    """float16 inputs and a float32 out: the graph casts, so the workspace is not empty."""
    return [dev.tensor(np.ones(4, np.float16)) for _ in range(3)], dev.tensor(np.zeros(4, np.float32))


def _is_hit(ex) -> bool:
    return ex.cached_from is not None


@pytest.fixture
def env(monkeypatch):
    """Set cache environment variables, then start from a cold cache that reads them."""

    def use(**values: str) -> None:
        for k, v in values.items():
            monkeypatch.setenv(k, v)
        cache.reset()

    yield use
    monkeypatch.delenv(cache.ENV_LIMIT, raising=False)
    monkeypatch.delenv(cache.ENV_DISABLE, raising=False)
    cache.reset()


def test_a_repeat_of_a_call_that_ran_hits_and_replays_with_the_new_addresses(dev):
    x1 = np.array([-4, -1, 0.5, 2, 4], np.float32)
    first = _hs_run(dev, *_hs_tensors(dev, x1))
    assert not _is_hit(first)
    x2 = np.array([-3.5, -2, 1, 2.5, 3], np.float32)
    g2 = np.array([1, 2, 3, 4, 5], np.float32)
    g, x, o = _hs_tensors(dev, x2, g2)
    ws, ex = _p1(HB1, g, x, o)
    assert _is_hit(ex) and ex.cached_from is first and ws == first.workspace_size
    assert "op cache hit" in ex.describe() and "op-cache hit" in repr(ex)  # the call trace shows the repr
    assert HB2(dev.workspace(ws), ws, ex, dev.stream) == 0
    assert_bits_equal(dev.read(o), goldens.hardswish_tbe(g2, x2, np.float32))
    assert ex.state == "released"  # the wrapper is freed by phase 2


def test_a_hit_with_workspace_replays_casts_into_the_callers_workspace(dev):
    h = np.float16
    args = [np.array([0.5, 2, -3, 0.25], h), np.array([1, 0, 4, -1], h), np.array([0, 1, 1, 2], h)]
    for round_ in range(2):
        g, s, t = (dev.tensor(a + round_) for a in args)
        o = dev.tensor(np.zeros(4, np.float32))
        ws, ex = _p1(SL1, g, s, t, 0, 1.0, o)
        assert ws > 0 and _is_hit(ex) == (round_ == 1)
        assert SL2(dev.workspace(ws), ws, ex, dev.stream) == 0
        a = [x + round_ for x in args]
        assert_bits_equal(dev.read(o), goldens.smooth_l1_tbe(a[1], a[2], a[0], 1.0, "none", np.float32))


def test_no_hit_before_the_first_executor_has_run(dev):
    x = np.ones(4, np.float32)
    _, ex1 = _p1(HB1, *_hs_tensors(dev, x))
    _, ex2 = _p1(HB1, *_hs_tensors(dev, x))
    assert not _is_hit(ex2)  # registered at phase 1, usable only after a successful phase 2
    assert HB2(None, 0, ex1, dev.stream) == 0
    assert HB2(None, 0, ex2, dev.stream) == 0
    _, ex3 = _p1(HB1, *_hs_tensors(dev, x))
    assert ex3.cached_from is ex1  # the first executor registered under the key keeps it
    assert aclDestroyAclOpExecutor(ex3) == 0


def test_an_executor_freed_without_running_leaves_no_entry(dev):
    x = np.ones(4, np.float32)
    _, ex = _p1(HB1, *_hs_tensors(dev, x))
    assert aclDestroyAclOpExecutor(ex) == 0
    _, again = _p1(HB1, *_hs_tensors(dev, x))
    assert not _is_hit(again)
    assert aclDestroyAclOpExecutor(again) == 0


def test_a_phase2_that_fails_on_a_null_workspace_leaves_no_entry(dev):
    t3, o = _sl1_f16_tensors(dev)
    ws, ex = _p1(SL1, *t3, 0, 1.0, o)
    assert SL2(None, ws, ex, dev.stream) == ACLNN_ERR_PARAM_NULLPTR
    aclGetRecentErrMsg()
    ws, again = _p1(SL1, *t3, 0, 1.0, o)
    assert not _is_hit(again)
    assert SL2(dev.workspace(ws), ws, again, dev.stream) == 0


@pytest.mark.parametrize(
    "change",
    ["shape", "dtype", "strides", "offset", "format", "reduction", "beta", "negative_zero_beta", "aliasing", "soc"],
)
def test_the_key_tells_calls_apart(dev, change):
    base = np.arange(8, dtype=np.float32).reshape(2, 4)

    def call(which: str) -> object:
        arr, kwargs, reduction, beta = base, {}, 0, 0.0
        if which == "shape":
            arr = base.reshape(4, 2)
        elif which == "dtype":
            arr = base.astype(np.float16)
        elif which == "format":
            kwargs = {"fmt": ACL_FORMAT_NCHW}
        elif which == "reduction":
            reduction = 1
        elif which == "beta":
            beta = 0.5
        elif which == "negative_zero_beta":
            beta = -0.0
        if which in ("strides", "offset"):
            g = dev.strided(
                np.zeros(16, np.float32), (2, 4), (1, 2) if which == "strides" else (4, 1), 8 * (which == "offset")
            )
        else:
            g = dev.tensor(arr, **kwargs)
        s = g if which == "aliasing" else dev.tensor(arr)
        t = dev.tensor(arr)
        o = dev.tensor(np.zeros(arr.shape, arr.dtype))
        ws, ex = _p1(SL1, g, s, t, reduction, beta, o)
        hit = _is_hit(ex)
        assert SL2(dev.workspace(ws), ws, ex, dev.stream) == 0
        assert aclrtSynchronizeStream(dev.stream) == 0
        return hit

    assert call("base") is False
    assert call("base") is True
    if change == "soc":
        from aclnn_py import soc as _soc

        _soc.set_active(_soc.profile_for("Ascend910_93"))  # as if aclInit had run on another chip
        assert call("base") is False
    else:
        assert call(change) is False
        assert call(change) is True


def test_a_hit_skips_the_body_so_reformat_does_not_relabel_the_new_tensors(dev):
    # SmoothL1LossBackward's ReFormat relabels its inputs' formats in place; the key is taken
    # before that, so a repeat call with NCHW tensors hits and its tensors stay NCHW.
    arr = np.ones((1, 2, 2, 2), np.float32)

    def tensors():
        return [dev.tensor(arr, fmt=ACL_FORMAT_NCHW) for _ in range(4)]

    first = tensors()
    ws, ex = _p1(SL1, *first[:3], 0, 1.0, first[3])
    assert SL2(None, ws, ex, dev.stream) == 0
    assert first[0].view_format == dtypes.FORMAT_ND
    second = tensors()
    _, hit = _p1(SL1, *second[:3], 0, 1.0, second[3])
    assert _is_hit(hit)
    assert second[0].view_format == ACL_FORMAT_NCHW
    assert SL2(None, 0, hit, dev.stream) == 0


def test_a_cache_wrapper_cannot_be_made_repeatable(dev):
    x = np.ones(4, np.float32)
    _hs_run(dev, *_hs_tensors(dev, x))
    _, ex = _p1(HB1, *_hs_tensors(dev, x))
    assert aclSetAclOpExecutorRepeatable(ex) == ACLNN_ERR_INNER
    assert "op-cache hit" in aclGetRecentErrMsg()
    assert aclDestroyAclOpExecutor(ex) == 0  # a wrapper is deleted like an executor


def test_a_repeatable_executor_leaves_the_cache(dev):
    x = np.ones(4, np.float32)
    _, ex = _p1(HB1, *_hs_tensors(dev, x))
    assert aclSetAclOpExecutorRepeatable(ex) == 0
    for _ in range(2):
        assert HB2(None, 0, ex, dev.stream) == 0
    _, other = _p1(HB1, *_hs_tensors(dev, x))
    assert not _is_hit(other)
    assert aclDestroyAclOpExecutor(ex) == 0
    assert aclDestroyAclOpExecutor(other) == 0


def test_a_wrapper_phase2_with_a_null_workspace_deletes_the_wrapper(dev):
    t3, o = _sl1_f16_tensors(dev)
    ws, ex = _p1(SL1, *t3, 0, 1.0, o)
    assert SL2(dev.workspace(ws), ws, ex, dev.stream) == 0
    ws, hit = _p1(SL1, *t3, 0, 1.0, o)
    assert _is_hit(hit)
    assert SL2(None, ws, hit, dev.stream) == ACLNN_ERR_PARAM_NULLPTR
    assert hit.state == "released"
    _, again = _p1(SL1, *t3, 0, 1.0, o)
    assert _is_hit(again)  # the entry itself is still good
    assert aclDestroyAclOpExecutor(again) == 0


def test_a_wrapper_reads_the_addresses_at_phase1(dev, findings):
    # OpExecCacheWrap copies the storage addresses when it is made; aclSetTensorAddr later
    # returns 0 but does not move a wrapper's kernels (a composite executor would follow it).
    # The sanitizer names the trap.
    x = np.array([1, 2, 4, 5], np.float32)
    _hs_run(dev, *_hs_tensors(dev, x))
    g, s, o = _hs_tensors(dev, x)
    _, hit = _p1(HB1, g, s, o)
    elsewhere = dev.malloc(16)
    assert aclSetTensorAddr(hit, 0, o, elsewhere) == 0
    assert findings.refresh().checks() == ["memcheck"]
    assert "op-cache hit of aclnnHardswishBackward" in findings.text() and "out stays at 0x" in findings.text()
    assert "op-cache hit" in aclGetRecentErrMsg()
    assert HB2(None, 0, hit, dev.stream) == 0
    assert aclrtSynchronizeStream(dev.stream) == 0
    o.storage.addr = hit.addresses[id(hit.cached_from.user_tensors["out"].storage)]
    assert_bits_equal(dev.read_now(o), goldens.hardswish_tbe(np.ones(4, np.float32), x, np.float32))


def test_the_cached_graph_outlives_the_tensors_it_was_built_with(dev):
    from aclnn_py import aclDestroyTensor

    x = np.array([0.5, 1, 2], np.float32)
    first = _hs_tensors(dev, x)
    _hs_run(dev, *first)
    assert aclrtSynchronizeStream(dev.stream) == 0
    for t in first:
        assert aclDestroyTensor(t) == 0
    g, s, o = _hs_tensors(dev, 2 * x)
    hit = _hs_run(dev, g, s, o)
    assert hit.cached_from is not None
    assert_bits_equal(dev.read(o), goldens.hardswish_tbe(np.ones(3, np.float32), 2 * x, np.float32))


def test_an_unrepeatable_graph_is_not_cached(dev):
    # ViewCopy with input == output address marks the executor unrepeatable (AbandonCache(true));
    # none of the three seed graphs reaches that branch, so mark it by hand.
    x = np.ones(4, np.float32)
    _, ex = _p1(HB1, *_hs_tensors(dev, x))
    ex.mark_unrepeatable("ViewCopy found input == output address")
    assert HB2(None, 0, ex, dev.stream) == 0
    _, again = _p1(HB1, *_hs_tensors(dev, x))
    assert not _is_hit(again)
    assert aclDestroyAclOpExecutor(again) == 0


def test_limit_zero_and_disable_turn_the_cache_off(dev, env):
    x = np.ones(4, np.float32)
    for setting in ({cache.ENV_LIMIT: "0"}, {cache.ENV_DISABLE: "1"}, {cache.ENV_DISABLE: "0"}):
        env(**setting)
        _hs_run(dev, *_hs_tensors(dev, x))
        _, ex = _p1(HB1, *_hs_tensors(dev, x))
        assert not _is_hit(ex), setting  # DISABLE_L2_CACHE: any value, even 0
        assert aclDestroyAclOpExecutor(ex) == 0
        cache.reset()


def test_a_full_cache_drops_its_least_recently_used_entries(dev, env):
    env(**{cache.ENV_LIMIT: "2"})

    def call(n: int) -> bool:
        ex = _hs_run(dev, *_hs_tensors(dev, np.ones(n, np.float32)))
        return _is_hit(ex)

    assert [call(1), call(2), call(1), call(2)] == [False, False, True, True]
    assert call(3) is False  # full: up to 30 least recently used entries go (here both)
    assert [call(3), call(1)] == [True, False]


@pytest.mark.parametrize(
    "raw,limit", [("7", 7), (" 12abc", 12), ("x", 10000), ("-1", 10_000_000), ("99999999", 10_000_000)]
)
def test_the_limit_parses_like_stoull(env, raw, limit):
    env(**{cache.ENV_LIMIT: raw})
    assert cache.manager().limit == limit


def test_each_thread_has_its_own_cache(dev):
    x = np.ones(4, np.float32)
    _hs_run(dev, *_hs_tensors(dev, x))
    tensors = _hs_tensors(dev, x)
    seen = {}

    def other() -> None:
        from aclnn_py import aclrtSetDevice

        assert aclrtSetDevice(0) == 0
        ws, ex = Ref(0), Ref()
        assert HB1(*tensors, ws, ex) == 0
        seen["hit"] = _is_hit(ex.value)
        assert aclDestroyAclOpExecutor(ex.value) == 0

    th = threading.Thread(target=other)
    th.start()
    th.join()
    assert seen == {"hit": False}
    _, ex = _p1(HB1, *tensors)
    assert _is_hit(ex)
    assert aclDestroyAclOpExecutor(ex) == 0


def test_the_individual_op_path_is_not_cached_here(dev):
    shape = (1, 1, 2, 4)
    for _ in range(2):
        g = dev.tensor(np.ones(shape, np.float16))
        y = dev.tensor(np.full(shape, 0.25, np.float16))
        m = dev.tensor(np.zeros(shape, np.bool_))
        o = dev.tensor(np.zeros(shape, np.float16))
        ws, ex = _p1(aclnnScaledMaskedSoftmaxBackwardGetWorkspaceSize, g, y, m, 1.0, False, o)
        assert not _is_hit(ex) and ex.cache_entry is None
        assert aclnnScaledMaskedSoftmaxBackward(dev.workspace(ws), ws, ex, dev.stream) == 0


def test_an_empty_call_is_cached_too(dev):
    # no kernels, workspace 0: phase 2 still "runs" it (UpdateTensorAddr), so its entry is usable
    for round_ in range(2):
        x = np.zeros((0, 3), np.float32)
        ws, ex = _p1(HB1, *_hs_tensors(dev, x))
        assert ws == 0 and not ex.launches and _is_hit(ex) == (round_ == 1)
        assert HB2(None, 0, ex, dev.stream) == 0
