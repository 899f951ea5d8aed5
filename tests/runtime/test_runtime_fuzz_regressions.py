"""Inputs the fuzz campaign found raising instead of returning a code, kept as plain tests."""

from __future__ import annotations

from aclnn_py import (
    ACL_ERROR_INVALID_PARAM,
    Ref,
    aclFinalize,
    aclInit,
    aclrtCreateNotify,
    aclrtDestroyNotify,
    aclrtNotifySetImportPidInterServer,
    aclrtResetDevice,
    aclrtResetFloatOverflowStatus,
    aclrtSetDevice,
)


def test_inter_server_pids_that_are_not_a_sequence(dev0):
    n = Ref()
    assert aclrtCreateNotify(n, 0) == 0
    assert aclrtNotifySetImportPidInterServer(n.value, -1, 1) == ACL_ERROR_INVALID_PARAM
    assert aclrtDestroyNotify(n.value) == 0


def test_a_queued_overflow_clear_runs_before_its_area_goes_with_the_device():
    """The clear is still queued when aclrtResetDevice releases the context's overflow area: the
    reset runs the queued work first (as it waits for every stream), so the clear succeeds."""
    assert aclInit(None) == 0 and aclrtSetDevice(0) == 0
    assert aclrtResetFloatOverflowStatus(None) == 0
    assert aclrtResetDevice(0) == 0
    assert aclFinalize() == 0
