"""A functional call releases everything it made — device memory, tensors, scalars, arrays, the
executor — whether it succeeds or fails, and wherever it fails (issue 15, item 2: aclFinalize's
leak report names scalars and arrays too, so a call that left one behind would be reported there).

Each test ends with ``aclrtResetDevice`` + ``aclFinalize``: any object a call left behind is a
leakcheck finding then, which fails the test (conftest), on top of the explicit checks here."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import aclnn_py
from aclnn_py import aclDestroyTensor, aclFinalize, aclrtResetDevice
from aclnn_py import functional as F
from aclnn_py.functional import _core
from aclnn_py.runtime import sanitizer
from aclnn_py.runtime.device import RT

A3 = np.arange(3, dtype=np.float32)
A4 = np.ones(4, np.float32)

# name: a functional call that fails, and the C-style step that refuses it
FAILURES: dict[str, Callable[[], Any]] = {
    "phase 1 (shapes that do not broadcast), after two tensors and a scalar": lambda: F.add(A3, A4, alpha=2),
    "aclCreateScalar (a string), after a tensor and a scalar": lambda: F.clamp(A3, 0.0, "high"),
    "aclCreateIntArray (a dim past int64), after two tensors": lambda: F.reduce_sum(A3, [2**70]),
    "phase 1 (a dim out of range), after an array": lambda: F.reduce_sum(A3, [5]),
    "phase 1 (a null scalar), with the other scalar made": lambda: F.clamp(A3, None, None),
    "the operator's dtype check (a string array), with two scalars": lambda: F.adds(np.array(["a"]), 1.0, alpha=3),
    "a Python error on the way (an alpha no scalar holds)": lambda: F.subs(A3, 1.0, alpha=object()),
}


def _live() -> list[str]:
    """Every object still alive: the process's and device 0's."""
    return sanitizer.leaked(None) + sanitizer.leaked(0)


def _finish() -> None:
    aclrtResetDevice(0)
    aclFinalize()


@pytest.mark.parametrize("policy", ["deferred", "eager", "thread"])
@pytest.mark.parametrize("name", sorted(FAILURES))
def test_a_failed_call_leaves_nothing_behind(name, policy, monkeypatch):
    monkeypatch.setenv("ACLNN_PY_STREAM", policy)
    with pytest.raises(F.AclnnError):
        FAILURES[name]()
    assert _live() == []
    F.add(A3, A3)  # and the runtime is still usable
    assert _live() == []
    _finish()


@pytest.mark.parametrize("policy", ["deferred", "eager", "thread"])
def test_a_call_that_fails_at_the_synchronize_leaves_nothing_behind(policy, monkeypatch, findings):
    monkeypatch.setenv("ACLNN_PY_STREAM", policy)
    sanitizer.set_mode("error")  # the index out of range fails the kernel, so the synchronize
    with pytest.raises(F.AclnnError) as err:
        F.index_select(A3, 0, np.array([7], np.int64))
    assert (err.value.api, err.value.code) == ("aclrtSynchronizeStream", aclnn_py.ACL_ERROR_RT_AICORE_EXCEPTION)
    assert findings.refresh().checks() == ["undefined"]
    assert _live() == []
    _finish()
    assert findings.refresh().checks() == ["undefined"]  # no leakcheck at aclFinalize


def test_an_executor_phase_2_refuses_is_destroyed(monkeypatch):
    """Phase 2 frees a one-shot executor when it launches it; one it refuses earlier (here: a
    status code without running) is still alive, and the call destroys it."""
    seen: list[Any] = []

    def refuse(workspace: Any, size: Any, executor: Any, stream: Any) -> int:
        seen.append(executor)
        return int(aclnn_py.ACLNN_ERR_INNER)

    monkeypatch.setattr(aclnn_py, "aclnnAdd", refuse)
    with pytest.raises(F.AclnnError) as err:
        F.add(A3, A3)
    assert err.value.api == "aclnnAdd" and err.value.code == aclnn_py.ACLNN_ERR_INNER
    assert seen and seen[0].state == "released" and not RT.executors
    assert _live() == []
    _finish()


def test_an_executor_phase_2_raises_on_is_destroyed(monkeypatch):
    def boom(*args: Any) -> int:
        raise KeyboardInterrupt  # anything at all: the executor is still the call's

    monkeypatch.setattr(aclnn_py, "aclnnMuls", boom)
    with pytest.raises(KeyboardInterrupt):
        F.muls(A3, 2.0)
    assert _live() == []
    _finish()


def _first_destroy_raises(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Make the call's first aclDestroyTensor raise (the tensor stays alive); the kept tensor."""
    kept: list[Any] = []
    real = _core.aclDestroyTensor

    def destroy(t: Any) -> int:
        if not kept:
            kept.append(t)
            raise RuntimeError("the destroy failed")
        return int(real(t))

    monkeypatch.setattr(_core, "aclDestroyTensor", destroy)
    return kept


def test_one_failing_release_does_not_keep_the_rest(monkeypatch):
    kept = _first_destroy_raises(monkeypatch)
    with pytest.raises(RuntimeError, match="the destroy failed"):
        F.clamp(A3, 0.0, 1.0)  # succeeds; its release raises, after releasing all the rest
    assert len(kept) == 1
    live = _live()
    assert len(live) == 1 and live[0].startswith("aclTensor [3] DT_FLOAT")  # the scalars, memory: gone
    assert aclDestroyTensor(kept[0]) == 0
    _finish()


def test_a_failed_call_reports_its_own_failure_before_a_failed_release(monkeypatch):
    kept = _first_destroy_raises(monkeypatch)
    warned = pytest.warns(RuntimeWarning, match="releasing the objects of a failed call failed too: RuntimeError")
    with warned, pytest.raises(F.AclnnError) as err:
        F.add(A3, A4)
    assert err.value.api == "aclnnAddGetWorkspaceSize"
    live = _live()
    assert len(live) == 1 and live[0].startswith("aclTensor")
    assert aclDestroyTensor(kept[0]) == 0
    _finish()


def test_release_twice_releases_once():
    with _core.Call() as c:
        c.tensor(A3)
        c.scalar(1.0)
        c.int_array([0])
        c.release()
        assert _live() == []
    # __exit__ released again: nothing left to destroy, no double destroy reported
    _finish()
