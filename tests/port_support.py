"""What the aclnn-port tests share: the environment a ported program runs in, and the check that a
ported program prints what its C++ program prints."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

CAPI = Path(__file__).resolve().parent.parent / "capi"


def port_env() -> dict[str, str]:
    """The environment of a ported program: none of the caller's ACLNN_PY_ / ASAN_ settings. The
    translation is under test, not the kernels (every kernel set computes the same bits, which
    test_samples and the kernel tests check): the reference kernels start fastest."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ACLNN_PY_", "ASAN_"))}
    env["ACLNN_PY_KERNELS"] = "numpy"
    return env


def runs_as_the_program(tmp_path: Path, name: str, cpp: str, python: str, printout: str, code: int = 0) -> None:
    """The port exits with ``code`` and prints ``printout`` (nothing on stderr); then, where g++ is
    at hand, the C++ program compiled and run does the same (the expectation is checked too)."""
    path = tmp_path / f"{name}.py"
    path.write_text(python)
    run = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, env=port_env())
    assert (run.returncode, run.stdout, run.stderr) == (code, printout, "")
    if shutil.which("g++") is None:
        pytest.skip("needs g++ to compile the C++ program and recheck the expected printout against it")
    src = tmp_path / f"{name}.cpp"
    src.write_text(cpp)
    exe = tmp_path / name
    subprocess.run(["g++", "-std=c++17", f"-I{CAPI / 'include'}", str(src), "-o", str(exe)], check=True)
    c = subprocess.run([str(exe)], capture_output=True, text=True)
    assert (c.returncode, c.stdout) == (code, printout)
