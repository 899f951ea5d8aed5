"""docs/porting.md shows its C++ side itself: the HardswishBackward program of "A port by hand"
is ours, printed in full. It compiles against the C ABI and prints what the page says; the
hand-written port beside it and the port aclnn-port makes of it print the same; the walkthrough's
C++ excerpt is lines of that program and its Python lines are what the tool writes for them."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from capi_support import ROOT, compile_cpp, run
from capi_support import env as _env

PAGE = (ROOT / "docs" / "porting.md").read_text(encoding="utf-8")


def _section(title: str) -> str:
    start = PAGE.index(f"\n## {title}")
    end = PAGE.find("\n## ", start + 1)
    return PAGE[start : end if end >= 0 else None]


def _blocks(text: str, lang: str) -> list[str]:
    return re.findall(rf"^```{lang}\n(.*?)^```", text, re.S | re.M)


BY_HAND = _section("A port by hand, with the helper module")
PROGRAM = _blocks(BY_HAND, "cpp")[0]
PRINTOUT = _blocks(BY_HAND, "text")[0]
HAND_PORT = _blocks(BY_HAND, "python")[0]
WALK = _section("Walking through one port")


def _python(source: str, tmp_path: Path, name: str) -> str:
    path = tmp_path / name
    path.write_text(source, encoding="utf-8")
    done = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, env=_env(), cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    return done.stdout


def test_the_page_names_no_file_the_project_does_not_ship():
    assert "seeds" not in PAGE and "<seeds>" not in PAGE
    for path in re.findall(r"`((?:capi|samples|tests|aclnn_py)/[\w./<>-]+)`", PAGE):
        if "<" in path:  # a pattern such as capi/samples/<family>.cpp
            assert list(ROOT.glob(path.replace("<family>", "*"))), path
        else:
            assert (ROOT / path).exists(), path


def test_the_program_compiles_and_prints_what_the_page_says(tmp_path, capi_flags):
    done = run(compile_cpp(PROGRAM, tmp_path / "hardswish_backward", capi_flags))
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == PRINTOUT


def test_the_hand_port_prints_the_same(tmp_path):
    assert _python(HAND_PORT, tmp_path, "by_hand.py") == PRINTOUT


def test_the_tools_port_prints_the_same_and_the_walkthrough_quotes_both(tmp_path):
    pytest.importorskip("tree_sitter", reason="needs the C++ parser: pip install -e '.[port]'")
    pytest.importorskip("tree_sitter_cpp", reason="needs the C++ parser: pip install -e '.[port]'")
    from aclnn_py.port import translate

    port = translate(PROGRAM, "hardswish_backward.cpp").python
    assert _python(port, tmp_path, "ported.py") == PRINTOUT
    (excerpt,) = _blocks(WALK, "cpp")
    assert excerpt in PROGRAM
    (lines,) = _blocks(WALK, "text")
    assert lines in port
