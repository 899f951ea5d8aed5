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


def test_calls_return_codes_and_never_damage_memory(findings):
    stats = _examples(20261122, 160)
    # The arguments drawn from the registry are good enough, often enough, for the operators to
    # pass phase 1, run phase 2 and be answered by the op cache.
    phase1 = sum(stats.succeeded[api.phase1] for api in registry.IMPLEMENTED)
    phase2 = sum(stats.succeeded[api.name] for api in registry.IMPLEMENTED)
    assert phase1 > 100 and phase2 > 50 and stats.cache_hits > 0, (phase1, phase2, stats.cache_hits)


def test_the_same_promises_hold_when_findings_fail_their_calls(findings):
    """ACLNN_PY_SANITIZER=error: a finding turns into a failing status with its message, never
    into an exception or a half-done write (``make fuzz`` runs it long)."""
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
