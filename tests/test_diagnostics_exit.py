"""A program that exits without cleanup gets one short summary at interpreter exit (issue 15,
item 3): in warn mode on stderr, exit status unchanged; in error mode also a non-zero exit
status; a program that cleans up gets nothing. The same under every stream policy."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

LEAKY = textwrap.dedent(
    """
    from aclnn_py import *

    def CreateAclTensor(shape, addr):
        return aclCreateTensor(shape, len(shape), ACL_FLOAT, None, 0, ACL_FORMAT_ND, shape, len(shape), addr)

    aclInit(None)
    aclrtSetDevice(0)
    s = Ref()
    aclrtCreateStream(s)
    p = Ref()
    aclrtMalloc(p, 64, 0)
    aclrtMemsetAsync(p.value, 64, 1, 64, s.value)
    a = CreateAclTensor([4], p.value)
    b = CreateAclTensor([2, 2], p.value)
    scalar = aclCreateScalar(1.5, ACL_FLOAT)
    print("done")
    """
)

CLEAN = textwrap.dedent(
    """
    from aclnn_py import *

    aclInit(None)
    aclrtSetDevice(0)
    s = Ref()
    aclrtCreateStream(s)
    p = Ref()
    aclrtMalloc(p, 64, 0)
    aclrtMemsetAsync(p.value, 64, 1, 64, s.value)
    aclrtSynchronizeStream(s.value)
    aclrtFree(p.value)
    aclrtDestroyStream(s.value)
    aclrtResetDevice(0)
    aclFinalize()
    print("done")
    """
)


def _run(tmp_path: Path, source: str, policy: str, mode: str) -> subprocess.CompletedProcess[str]:
    prog = tmp_path / "prog.py"
    prog.write_text(source)
    env = {k: v for k, v in os.environ.items() if not k.startswith("ACLNN_PY_")}
    env.update(ACLNN_PY_STREAM=policy, ACLNN_PY_SANITIZER=mode, ACLNN_PY_KERNELS="numpy")
    env["PYTHONPATH"] = str(ROOT)
    return subprocess.run([sys.executable, str(prog)], capture_output=True, text=True, env=env, timeout=120)


@pytest.mark.parametrize("policy", ["deferred", "eager", "thread"])
def test_a_program_without_cleanup_gets_one_summary(tmp_path, policy):
    done = _run(tmp_path, LEAKY, policy, "warn")
    assert done.returncode == 0 and done.stdout == "done\n"
    err = done.stderr
    assert err.count("aclnn_py sanitizer [leakcheck]: the program exits without cleanup") == 1
    assert "aclFinalize was never called" in err
    assert "1 task(s) no synchronize has ordered (first: 'aclrtMemsetAsync(64 bytes)')" in err
    assert "5 object(s) never released (1 device allocation, 1 aclrtStream, 2 aclTensors, 1 aclScalar)" in err
    assert "aclTensor [4] DT_FLOAT at 0x" in err and "aclTensor [2, 2] DT_FLOAT at 0x" in err
    assert "made at prog.py:14 (through CreateAclTensor at prog.py:5)" in err
    assert "made at prog.py:15 (through CreateAclTensor at prog.py:5)" in err
    assert "aclScalar 1.5 DT_FLOAT made at prog.py:16" in err


@pytest.mark.parametrize("policy", ["deferred", "eager", "thread"])
def test_error_mode_makes_the_exit_status_non_zero(tmp_path, policy):
    done = _run(tmp_path, LEAKY, policy, "error")
    assert done.returncode == 3 and done.stdout == "done\n"
    assert "the program exits without cleanup" in done.stderr


@pytest.mark.parametrize("mode", ["warn", "error"])
def test_a_clean_program_gets_nothing(tmp_path, mode):
    done = _run(tmp_path, CLEAN, "eager", mode)
    assert (done.returncode, done.stdout, done.stderr) == (0, "done\n", "")


def test_nothing_is_said_with_the_sanitizer_off(tmp_path):
    done = _run(tmp_path, LEAKY, "deferred", "off")
    assert (done.returncode, done.stderr) == (0, "")
