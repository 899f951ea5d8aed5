"""Test isolation and the sanitizer contract.

* Every test starts from a fresh emulator (``aclnn_py.testing.reset``) on the default SoC.
* Internal errors raise instead of being turned into status codes, so bugs cannot hide.
* A test that makes the sanitizer report something must say so by using the ``findings``
  fixture; otherwise any finding fails the test (correct programs have zero findings).
"""

from __future__ import annotations

import os
import stat
import tempfile

import pytest

os.environ["ACLNN_PY_RAISE_INTERNAL"] = "1"
for var in ("ACLNN_PY_SOC", "ACLNN_PY_STREAM", "ACLNN_PY_DEVICE_COUNT", "ACLNN_PY_DEVICE_MEMORY", "ACLNN_PY_SANITIZER"):
    os.environ.pop(var, None)
# ACLNN_PY_TEST_STREAM=eager|thread runs the whole suite under another stream policy (the tests
# that compare the policies set theirs themselves)
if os.environ.get("ACLNN_PY_TEST_STREAM"):
    os.environ["ACLNN_PY_STREAM"] = os.environ["ACLNN_PY_TEST_STREAM"]


# PYTHONDONTWRITEBYTECODE keeps .pyc files out of the source tree; the suite's child Pythons
# (the samples, the ports, the exit-summary programs: over a hundred) would then compile aclnn_py
# and numpy from source at every start (~0.5 s of CPU each). They keep their bytecode in a
# directory of the user's outside the tree instead (Python checks each .pyc against its source),
# used only if it is the user's own and no one else may write to it.
def _private_pycache() -> str | None:
    path = os.path.join(tempfile.gettempdir(), f"aclnn_py-pycache-{os.getuid()}")
    try:
        os.makedirs(path, mode=0o700, exist_ok=True)
        st = os.lstat(path)
        if stat.S_ISDIR(st.st_mode) and st.st_uid == os.getuid() and st.st_mode & 0o077 and not st.st_mode & 0o022:
            os.chmod(path, 0o700)  # ours, and no one else could write to it: close it (an older run made it 0755)
            st = os.lstat(path)
    except OSError:
        return None
    mine = stat.S_ISDIR(st.st_mode) and st.st_uid == os.getuid() and not st.st_mode & 0o077  # 0700: none may enter
    return path if mine else None


_WANT_PYCACHE = os.environ.get("PYTHONDONTWRITEBYTECODE") and not os.environ.get("PYTHONPYCACHEPREFIX")
if _WANT_PYCACHE and hasattr(os, "getuid") and (_pycache := _private_pycache()) is not None:
    del os.environ["PYTHONDONTWRITEBYTECODE"]
    os.environ["PYTHONPYCACHEPREFIX"] = _pycache

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
def deferred(monkeypatch):
    """Pin the deferred stream policy (the default) before a device fixture's aclInit reads it, for
    a test about work that is still queued (under eager and, by timing, thread it already ran): a
    failing copy fails when it runs, after the free."""
    monkeypatch.setenv("ACLNN_PY_STREAM", "deferred")


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


def _capi_cache(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Point capi_support's build cache at a directory of this session that every xdist worker
    shares (the workers' base directories are siblings), so a program compiles once per session."""
    import capi_support

    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent
    capi_support.CACHE = base / "capi-programs"


@pytest.fixture(scope="session")
def capi_flags(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """Build the C ABI library (when out of date); the flags that compile a program against it."""
    import capi_support

    if (why := capi_support.missing_toolchain()) is not None:
        pytest.skip(why)
    _capi_cache(tmp_path_factory)
    build = capi_support.load_build()
    build.build()  # type: ignore[attr-defined]
    return [*build.cflags(), *build.libs()]  # type: ignore[attr-defined]


@pytest.fixture(scope="session")
def capi_asan_flags(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """As capi_flags, for the AddressSanitizer build."""
    import capi_support

    if (why := capi_support.missing_toolchain()) is not None:
        pytest.skip(why)
    _capi_cache(tmp_path_factory)
    build = capi_support.load_build()
    build.build(asan=True)  # type: ignore[attr-defined]
    return [*build.cflags(), *build.libs(asan=True)]  # type: ignore[attr-defined]
