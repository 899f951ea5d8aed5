"""The fast fuzz: a fixed seed and a modest number of examples (``make fuzz`` runs long)."""

from __future__ import annotations

from fuzzing import FUNCTIONS, Stats, World, call_once
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

NAMES = sorted(FUNCTIONS)
STATS = Stats()


def test_every_public_function_is_fuzzed():
    assert len(NAMES) >= 80
    for must in ("aclInit", "aclrtMalloc", "aclCreateTensor", "aclnnHardswishBackwardGetWorkspaceSize",
                 "aclnnScaledMaskedSoftmaxBackward", "aclSetAclOpExecutorRepeatable"):  # fmt: skip
        assert must in NAMES


@seed(20261122)
@settings(max_examples=120, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_calls_return_codes_and_never_damage_memory(data, findings):
    world = World()
    try:
        for _ in range(12):
            call_once(world, data, STATS, NAMES)
    finally:
        world.close()
