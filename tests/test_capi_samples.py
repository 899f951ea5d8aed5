"""Our own C++ sample programs, one per API family (``capi/samples/<family>.cpp``), compiled
against the C ABI and run: each prints, byte for byte, the expected printout stored beside its
line-by-line Python port (``samples/test_aclnn_<family>.py``), which tests/test_samples.py checks
the port prints: the program prints what its port prints.

The programs are written in the style of CANN's operator-document samples (Init, CreateAclTensor,
the two phases, a result printout, cleanup) but are this project's own. Skips cleanly without a
C++ compiler or the Python development headers.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from capi_support import CAPI, ROOT, compile_cpp, missing_toolchain, run

if (why := missing_toolchain()) is not None:
    pytest.skip(why, allow_module_level=True)

PROGRAMS = sorted((CAPI / "samples").glob("*.cpp"))


def _port(program: Path) -> Path:
    return ROOT / "samples" / f"test_aclnn_{program.stem}.py"


def test_every_sample_program_has_a_python_port_and_a_printout() -> None:
    for program in PROGRAMS:
        assert _port(program).exists(), f"{program.name}: no samples/{_port(program).name}"
        assert _port(program).with_suffix(".out").exists(), f"{program.name}: no expected printout"


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.stem)
def test_sample_program_prints_what_its_python_port_prints(tmp_path, capi_flags, program: Path) -> None:
    exe = compile_cpp(program.read_text(encoding="utf-8"), tmp_path / program.stem, capi_flags)
    done = run(exe)
    port = _port(program)
    expected = port.with_suffix(".out").read_text(encoding="utf-8")
    rc_file = port.with_suffix(".rc")
    expected_rc = int(rc_file.read_text()) if rc_file.exists() else 0
    assert done.returncode == expected_rc, done.stdout + done.stderr
    assert done.stdout == expected
    assert done.stderr == ""
    # the port prints that same file, byte for byte, with the same exit status: tests/test_samples.py
    # runs it (a second run here would repeat that run)
