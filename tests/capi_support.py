"""What the C ABI tests share: the toolchain check, the library build, compiling and running a C++
program, and extracting the program of an operator document. The ``capi_flags`` /
``capi_asan_flags`` fixtures (tests/conftest.py) build the library once per session."""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import os
import re
import shutil
import subprocess
import sysconfig
import tempfile
from pathlib import Path

try:
    import fcntl
except ImportError:  # not POSIX: no lock, each worker may compile a program itself
    fcntl = None  # type: ignore[assignment]

ROOT = Path(__file__).resolve().parent.parent
CAPI = ROOT / "capi"


def missing_toolchain() -> str | None:
    """Why the C ABI cannot be built here, or None."""
    if shutil.which("g++") is None:
        return "needs g++ (a C++17 compiler) to build the C ABI and compile C++ programs against it; g++ is not on PATH"
    if not Path(sysconfig.get_paths()["include"], "Python.h").exists():
        return (
            "needs the Python development headers (Python.h, e.g. the python3-dev package) to build the C ABI; "
            f"none in {sysconfig.get_paths()['include']}"
        )
    return None


def load_build() -> object:
    """capi/build.py as a module."""
    spec = importlib.util.spec_from_file_location("aclnn_py_capi_build", CAPI / "build.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def extract_program(text: str) -> str | None:
    """The C++ program (the code with ``main``) of an operator document, or None if it has none.

    Markdown documents fence it (```Cpp / ```c++); documents saved from the web site carry it
    unfenced, from its first ``#include`` to the end."""
    for block in re.findall(r"^```[ \t]*(?:cpp|c\+\+)[ \t]*\n(.*?)^```", text, re.S | re.M | re.I):
        if re.search(r"\bint\s+main\s*\(", block):
            return str(block)
    m = re.search(r"^#include\b", text, re.M)
    if m and re.search(r"\bint\s+main\s*\(", text[m.start() :]):
        return text[m.start() :]
    return None


def env(**extra: str) -> dict[str, str]:
    """The environment of a C++ run: no emulator settings leak in from the test process."""
    out = {k: v for k, v in os.environ.items() if not k.startswith(("ACLNN_PY_", "ASAN_"))}
    out.update(extra)
    return out


# Where compile_cpp keeps the programs it built this session, by content (set by the capi_flags
# fixture to a directory the xdist workers share); None: every call compiles.
CACHE: Path | None = None


@functools.cache
def link_flags() -> list[str]:
    """``-fuse-ld=gold`` when gold links here, else nothing: the test programs link in a quarter of
    the time GNU ld takes (0.02 s instead of 0.09 s each). Only the linker changes, not what is
    linked: the same libraries, the same NEEDED entries and RUNPATH."""
    if shutil.which("ld.gold") is None or shutil.which("g++") is None:
        return []
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp, "probe.cpp")
        src.write_text("int main() { return 0; }\n")
        cmd = ["g++", "-fuse-ld=gold", str(src), "-o", str(Path(tmp, "probe"))]
        ok = subprocess.run(cmd, capture_output=True).returncode == 0
    return ["-fuse-ld=gold"] if ok else []


def compile_cpp(source: str, exe: Path, flags: list[str], asan: bool = False) -> Path:
    """Compile ``source`` with g++ -std=c++17 and ``flags`` (under AddressSanitizer when ``asan``);
    returns the program's path (``exe``).

    With :data:`CACHE` set, a program is compiled once per session: the build sits under a
    directory named by the hash of its source, name, flags and compiler, made under a lock (the
    xdist workers share it), and ``exe`` is a hard link to it (a copy across file systems)."""
    san = ["-fsanitize=address", "-fno-omit-frame-pointer", "-g"] if asan else []
    if CACHE is None:
        return _compile_to(source, exe, [*san, *flags])
    key = hashlib.sha256(
        "\0".join([shutil.which("g++") or "g++", exe.name, source, *san, *flags]).encode()
    ).hexdigest()[:24]
    home = CACHE / key
    home.mkdir(parents=True, exist_ok=True)
    built = home / exe.name
    with open(home / ".lock", "w") as lock:
        if fcntl is not None:
            fcntl.flock(lock, fcntl.LOCK_EX)
        if not (home / ".done").exists():
            _compile_to(source, built, [*san, *flags])
            (home / ".done").touch()
    exe.with_suffix(".cpp").write_text(source, encoding="utf-8")
    exe.unlink(missing_ok=True)
    try:
        os.link(built, exe)
    except OSError:
        shutil.copy2(built, exe)
    return exe


def _compile_to(source: str, exe: Path, flags: list[str]) -> Path:
    src = exe.with_suffix(".cpp")
    src.write_text(source, encoding="utf-8")
    cmd = ["g++", "-std=c++17", str(src), "-o", str(exe), *flags, *link_flags()]
    done = subprocess.run(cmd, capture_output=True, text=True)
    assert done.returncode == 0, f"{' '.join(cmd)}\n{done.stderr}"
    return exe


def run(exe: Path, *args: str, **extra: str) -> subprocess.CompletedProcess[str]:
    """Run ``exe args...`` in :func:`env` with ``extra`` settings; stdout and stderr captured."""
    return subprocess.run([str(exe), *args], capture_output=True, text=True, env=env(**extra), timeout=300)
