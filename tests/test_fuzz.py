"""The fast fuzz: a fixed seed and a modest number of examples (``make fuzz`` runs long)."""

from __future__ import annotations

import numpy as np
from fuzzing import FUNCTIONS, Stats, World, call_once, check_memory, declared_writes, snapshot
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

NAMES = sorted(FUNCTIONS)
STATS = Stats()


def test_every_public_function_is_fuzzed():
    assert len(NAMES) >= 80
    for must in ("aclInit", "aclrtMalloc", "aclCreateTensor", "aclnnHardswishBackwardGetWorkspaceSize",
                 "aclnnScaledMaskedSoftmaxBackward", "aclSetAclOpExecutorRepeatable"):  # fmt: skip
        assert must in NAMES


def _twelve_calls(data: st.DataObject) -> None:
    world = World()
    try:
        for _ in range(12):
            call_once(world, data, STATS, NAMES)
    finally:
        world.close()


@seed(20261122)
@settings(max_examples=120, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_calls_return_codes_and_never_damage_memory(data, findings):
    _twelve_calls(data)


@seed(20261123)
@settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_the_same_promises_hold_when_findings_fail_their_calls(data, findings):
    """ACLNN_PY_SANITIZER=error: a finding turns into a failing status with its message, never
    into an exception or a half-done write (``make fuzz`` runs it long)."""
    from aclnn_py.runtime import sanitizer

    sanitizer.set_mode("error")
    _twelve_calls(data)


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
