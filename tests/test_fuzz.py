"""The fast fuzz: a fixed seed and a modest number of examples (``make fuzz`` runs long).

Example ``i`` of seed ``S`` is the campaign's: a failure here replays, call by call, with
``python tests/fuzz_campaign.py --seed S --example i`` (its first calls are these)."""

from __future__ import annotations

import random

import numpy as np
from fuzzing import FUNCTIONS, OP_APIS, Stats, check_memory, declared_writes, example, snapshot

from aclnn_py.ops import registry

NAMES = sorted(FUNCTIONS)


def test_every_public_function_is_fuzzed():
    assert len(NAMES) >= 80
    for must in ("aclInit", "aclrtMalloc", "aclCreateTensor", "aclnnHardswishBackwardGetWorkspaceSize",
                 "aclnnScaledMaskedSoftmaxBackward", "aclSetAclOpExecutorRepeatable"):  # fmt: skip
        assert must in NAMES
    # every registered API, both phases, with its arguments drawn from the registry
    assert set(OP_APIS) == {n for api in registry.IMPLEMENTED for n in api.names} and set(OP_APIS) <= set(NAMES)


def _examples(seed: int, count: int) -> Stats:
    stats = Stats()
    for i in range(count):
        try:
            example(random.Random(f"{seed}/{i}"), stats, NAMES, 12)
        except AssertionError as e:
            raise AssertionError(
                f"example {i} of seed {seed} (replay: python tests/fuzz_campaign.py --seed {seed} --example {i}): {e}"
            ) from e
    return stats


def test_calls_return_codes_and_never_damage_memory(findings, monkeypatch, tmp_path):
    """Under the deferred policy (pinned, as tests/fuzz_campaign.py pins it): the memory guard
    checks a call's writes against what it declares, and a kernel that runs at its launch
    (eager, or thread by timing) writes its output during the launch call."""
    monkeypatch.setenv("ACLNN_PY_STREAM", "deferred")  # read by each example's aclInit
    monkeypatch.chdir(tmp_path)  # what the calls make under ./ (dump and profiling folders) goes there
    stats = _examples(20261122, 160)
    # The arguments drawn from the registry are good enough, often enough, for the operators to
    # pass phase 1, run phase 2 and be answered by the op cache.
    phase1 = sum(stats.succeeded[api.phase1] for api in registry.IMPLEMENTED)
    phase2 = sum(stats.succeeded[api.name] for api in registry.IMPLEMENTED)
    assert phase1 > 100 and phase2 > 50 and stats.cache_hits > 0, (phase1, phase2, stats.cache_hits)


def test_the_same_promises_hold_when_findings_fail_their_calls(findings, monkeypatch, tmp_path):
    """ACLNN_PY_SANITIZER=error: a finding turns into a failing status with its message, never
    into an exception or a half-done write (``make fuzz`` runs it long). Deferred policy pinned,
    as above."""
    monkeypatch.setenv("ACLNN_PY_STREAM", "deferred")
    monkeypatch.chdir(tmp_path)
    from aclnn_py.runtime import sanitizer

    sanitizer.set_mode("error")
    _examples(20261123, 60)


def test_regression_fuzz_memset_with_a_bool_count_declares_its_one_byte_write(dev):
    # Campaign seed 1795357575: aclrtMemset(p, 1, 0, True) wrote one byte, as C's conversion of
    # true to size_t says, but the guard's oracle did not count a bool (or a numpy integer) as
    # a size and reported the byte as damage. The oracle now reads counts like the C surface.
    from aclnn_py import ACL_MEMCPY_DEVICE_TO_HOST, aclrtMemcpy, aclrtMemset

    for count in (True, np.int64(1)):
        p = dev.upload(np.full(8, 7, np.uint8))
        before = snapshot()
        args = {"devPtr": p, "maxCount": 1, "value": 0, "count": count}
        assert aclrtMemset(p, 1, 0, count) == 0
        assert declared_writes("aclrtMemset", args) == [(p, p + 1)]
        assert check_memory(before, declared_writes("aclrtMemset", args)) is None
        host = np.zeros(8, np.uint8)
        assert aclrtMemcpy(host, 8, p, 8, ACL_MEMCPY_DEVICE_TO_HOST) == 0
        assert host.tolist() == [0] + [7] * 7


def test_regression_fuzz_launch_kernel_with_a_handle_never_issued_reports_ee1017(dev):
    # Campaign seed 7, example 6: aclrtLaunchKernel returned 107017 with no message. CANN's
    # rtLaunchKernelByFuncHandleV3 validates funcHandle first, and the handle guard reports
    # EE1017 (hicann/runtime src/runtime/api/api_c.cc:3398, api_handle_guard.cc:22-29).
    from aclnn_py import ACL_ERROR_RT_INVALID_HANDLE, aclGetRecentErrMsg, aclrtLaunchKernel

    assert aclrtLaunchKernel(object(), 8, b"args", 4, None) == ACL_ERROR_RT_INVALID_HANDLE
    msg = aclGetRecentErrMsg()
    assert msg is not None and "EE1017" in msg and "Parameter funcHandle is invalid" in msg


def test_regression_fuzz_dvpp_malloc_of_a_size_that_overflows_says_so(dev):
    # Campaign seed 7, example 378: acldvppMalloc(p, 2**64 - 1) returned 100000 with no message;
    # ACL's GetAlignedSize reports "[Check][Size]size too large" as an inner error
    # (hicann/runtime src/acl/aclrt_impl/memory.cpp:300-302), as aclrtMalloc does here.
    from aclnn_py import ACL_ERROR_INVALID_PARAM, Ref, acldvppMalloc, aclGetRecentErrMsg

    out = Ref()
    assert acldvppMalloc(out, 2**64 - 1) == ACL_ERROR_INVALID_PARAM
    assert f"size too large: {2**64 - 1}" in (aclGetRecentErrMsg() or "")
    assert out.value is None


def test_regression_fuzz_a_junk_exception_callback_is_refused_at_registration(dev):
    # Campaign seed 7, examples 127, 914 and 842: aclrtExceptionInfoCallbackRegister([1, 2]) and
    # Unregister({'a': 1}) raised TypeError (unhashable), and a True registered earlier was
    # called by the next failing task, raising TypeError inside aclrtSynchronizeDevice. A C
    # caller can only pass a function pointer or NULL: anything else is refused when registered.
    from aclnn_py import (
        ACL_ERROR_RT_PARAM_INVALID,
        aclGetRecentErrMsg,
        aclrtExceptionInfoCallbackRegister,
        aclrtExceptionInfoCallbackUnregister,
        aclrtSetExceptionInfoCallback,
        aclrtSynchronizeDevice,
    )

    for fn in (aclrtExceptionInfoCallbackRegister, aclrtExceptionInfoCallbackUnregister, aclrtSetExceptionInfoCallback):
        for junk in ([1, 2], {"a": 1}, True, 5):
            assert fn(junk) == ACL_ERROR_RT_PARAM_INVALID, (fn.__name__, junk)
            msg = aclGetRecentErrMsg() or ""
            assert fn.__name__ in msg and "not a function" in msg
    from aclnn_py.runtime.api_callback import _callbacks

    seen: list[object] = []
    assert aclrtExceptionInfoCallbackRegister(seen.append) == 0
    assert list(_callbacks().values()) == [seen.append]  # nothing else is left for a failing task to call
    assert aclrtSynchronizeDevice() == 0
    assert aclrtExceptionInfoCallbackUnregister(seen.append) == 0
    assert not _callbacks()


def test_regression_fuzz_notify_batch_reset_of_a_non_sequence_is_refused(dev):
    # Campaign seed 7, example 294: aclrtNotifyBatchReset(object(), True) raised TypeError.
    from aclnn_py import ACL_ERROR_INVALID_PARAM, aclGetRecentErrMsg, aclrtNotifyBatchReset

    assert aclrtNotifyBatchReset(object(), 1) == ACL_ERROR_INVALID_PARAM
    assert "notifies is" in (aclGetRecentErrMsg() or "")
