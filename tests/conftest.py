"""Test isolation and the sanitizer contract.

* Every test starts from a fresh emulator (``aclnn_py.testing.reset``) on the default SoC.
* Internal errors raise instead of being turned into status codes, so bugs cannot hide.
* A test that makes the sanitizer report something must say so by using the ``findings``
  fixture; otherwise any finding fails the test (correct programs have zero findings).
"""

from __future__ import annotations

import os

import pytest

os.environ["ACLNN_PY_RAISE_INTERNAL"] = "1"
for var in ("ACLNN_PY_SOC", "ACLNN_PY_STREAM", "ACLNN_PY_DEVICE_COUNT", "ACLNN_PY_DEVICE_MEMORY", "ACLNN_PY_SANITIZER"):
    os.environ.pop(var, None)
# ACLNN_PY_TEST_STREAM=eager|thread runs the whole suite under another stream policy (the tests
# that compare the policies set theirs themselves)
if os.environ.get("ACLNN_PY_TEST_STREAM"):
    os.environ["ACLNN_PY_STREAM"] = os.environ["ACLNN_PY_TEST_STREAM"]

import aclnn_py._capi as _capi  # noqa: E402
from aclnn_py import testing  # noqa: E402
from aclnn_py.runtime import sanitizer  # noqa: E402

_capi.RAISE_INTERNAL = True
# The suite runs with the sanitizer at its default; ACLNN_PY_TEST_SANITIZER=off measures its cost
# (tests that provoke findings on purpose then fail, which is expected).
SANITIZER_MODE = os.environ.get("ACLNN_PY_TEST_SANITIZER", "warn")


class Findings(list):
    """The sanitizer findings (check, message) a test produced."""

    def checks(self) -> list[str]:
        return [c for c, _ in self]

    def text(self) -> str:
        return "\n".join(m for _, m in self)


@pytest.fixture(autouse=True)
def fresh_emulator(request, monkeypatch):
    testing.reset()
    sanitizer.set_mode(SANITIZER_MODE)
    sanitizer.FINDINGS.clear()
    start = 0
    yield
    new = sanitizer.FINDINGS[start:]
    testing.reset()
    if new and "findings" not in request.fixturenames:
        pytest.fail("unexpected sanitizer findings:\n" + "\n".join(f"[{c}] {m}" for c, m in new))


@pytest.fixture
def findings():
    """Sanitizer findings made during the test (inspect them after the action)."""

    class Live(Findings):
        def refresh(self) -> Findings:
            self[:] = list(sanitizer.FINDINGS)
            return self

    live = Live()
    yield live


@pytest.fixture
def soc(monkeypatch):
    """Switch the emulated SoC for this test: ``soc("Ascend950")``."""

    def use(name: str) -> None:
        monkeypatch.setenv("ACLNN_PY_SOC", name)

    return use


@pytest.fixture
def dev():
    """An initialised device 0 with a stream, and helpers that release what they make."""
    from helpers import Dev

    d = Dev()
    yield d
    d.close()


@pytest.fixture(scope="session")
def capi_flags() -> list[str]:
    """Build the C ABI library (when out of date); the flags that compile a program against it."""
    import capi_support

    if (why := capi_support.missing_toolchain()) is not None:
        pytest.skip(why)
    build = capi_support.load_build()
    build.build()  # type: ignore[attr-defined]
    return [*build.cflags(), *build.libs()]  # type: ignore[attr-defined]


@pytest.fixture(scope="session")
def capi_asan_flags() -> list[str]:
    """As capi_flags, for the AddressSanitizer build."""
    import capi_support

    if (why := capi_support.missing_toolchain()) is not None:
        pytest.skip(why)
    build = capi_support.load_build()
    build.build(asan=True)  # type: ignore[attr-defined]
    return [*build.cflags(), *build.libs(asan=True)]  # type: ignore[attr-defined]
