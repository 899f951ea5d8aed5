"""Fixtures of the runtime chapters' tests."""

from __future__ import annotations

import pytest

from aclnn_py import aclFinalize, aclInit, aclrtResetDevice, aclrtSetDevice


@pytest.fixture
def dev0():
    """Device 0 current on this thread, for one test."""
    assert aclInit(None) == 0 and aclrtSetDevice(0) == 0
    yield
    aclrtResetDevice(0)
    aclFinalize()


@pytest.fixture(params=["deferred", "eager", "thread"])
def ctx(request, monkeypatch):
    """Device 0 current under each stream policy in turn (a test file may define its own ``ctx``)."""
    monkeypatch.setenv("ACLNN_PY_STREAM", request.param)
    assert aclInit(None) == 0 and aclrtSetDevice(0) == 0
    yield request.param
    aclrtResetDevice(0)
    aclFinalize()


@pytest.fixture
def chip(soc):
    """``chip(name)``: emulate that chip, then aclInit and device 0 current, for one test (a test
    may open device 1 too: both are reset)."""

    def start(name: str) -> None:
        soc(name)
        assert aclInit(None) == 0 and aclrtSetDevice(0) == 0

    yield start
    aclrtResetDevice(1)
    aclrtResetDevice(0)
    aclFinalize()
