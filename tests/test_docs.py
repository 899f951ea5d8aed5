"""Every code snippet of the docs runs: ``>>>`` examples as doctests, other Python blocks as
programs. C++ blocks are excerpts checked by the C ABI tests; shell blocks are commands."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest

from aclnn_py import testing

ROOT = Path(__file__).resolve().parent.parent
DOCS = sorted([ROOT / "README.md", *(ROOT / "docs").rglob("*.md")])
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)
# Pages that demonstrate sanitizer findings on purpose.
SHOWS_FINDINGS = {"diagnostics.md"}


def _blocks(path: Path) -> list[tuple[str, str]]:
    return [(m.group(1), m.group(2)) for m in FENCE.finditer(path.read_text())]


def test_every_python_block_is_runnable_and_languages_are_declared():
    for path in DOCS:
        for lang, _ in _blocks(path):
            assert lang in {"python", "cpp", "sh", "text", "json", "c"}, f"{path.name}: block without a known language"


@pytest.mark.parametrize("path", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_doc_snippets_run(path: Path, findings):
    testing.reset()
    result = doctest.testfile(
        str(path), module_relative=False, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, verbose=False
    )
    assert result.failed == 0, f"{result.failed} doctest example(s) failed in {path.name}"
    for lang, body in _blocks(path):
        if lang == "python" and ">>>" not in body:
            testing.reset()
            exec(compile(body, str(path), "exec"), {"__name__": "__doc_snippet__"})
    if path.name not in SHOWS_FINDINGS:
        assert not findings.refresh(), f"{path.name} makes sanitizer findings: {findings.text()}"
