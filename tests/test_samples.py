"""Each sample program prints exactly the expected printout stored beside it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
PROGRAMS = sorted(p for p in SAMPLES.glob("*.py") if p.with_suffix(".out").exists())


def test_every_sample_has_an_expected_printout():
    programs = {p.stem for p in SAMPLES.glob("test_aclnn_*.py")}
    assert programs and programs <= {p.stem for p in PROGRAMS}


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.stem)
def test_sample_printout_is_byte_identical(program: Path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("ACLNN_PY_")}
    proc = subprocess.run([sys.executable, str(program)], capture_output=True, env=env, timeout=120)
    expected = program.with_suffix(".out").read_bytes()
    rc_file = program.with_suffix(".rc")
    expected_rc = int(rc_file.read_text()) if rc_file.exists() else 0
    assert proc.stdout == expected
    assert proc.returncode == expected_rc
    assert proc.stderr == b"", proc.stderr.decode()  # no sanitizer findings, no warnings
