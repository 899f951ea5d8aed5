"""aclnn-port on CANN's own example programs: the C++ program of every operator document and
operator directory's examples/ that tests/test_cann_examples.py compiles (hicann/ops-math,
hicann/ops-nn, found the same way, from the
folder ACLNN_PY_CANN_DOCS names), translated by the tool and its port run: each port prints exactly
the compiled program's expected printout (``tests/cann_examples/<key>.out``) and nothing on stderr,
except where the program itself is wrong (test_cann_examples.PROGRAM_BUGS): there the port prints the
same and the sanitizer reports the same findings, naming the port's own file and line where the C ABI
names "the C program". What the tool cannot translate faithfully it refuses (REFUSED below): the
programs whose printout C leaves undefined. Every other program is ported and run, those of the
operator directories' examples/ that release their resources by RAII (std::unique_ptr deleters, a
std::shared_ptr guard with a lambda deleter) and those declaring `std::vector<float> v(size);`
included.

Unset, the module skips at once (commands to export the documents: test_cann_examples' docstring).
The ports run in parallel (one worker per CPU). Skips cleanly without tree-sitter (the ``port``
extra).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import pytest

pytest.importorskip("tree_sitter", reason="needs the C++ parser: pip install -e '.[port]'")
pytest.importorskip("tree_sitter_cpp", reason="needs the C++ parser: pip install -e '.[port]'")

if not os.environ.get("ACLNN_PY_CANN_DOCS"):
    pytest.skip(
        "needs CANN's operator documents, which the repository does not ship: set ACLNN_PY_CANN_DOCS to a "
        "folder holding a checkout (or git archive) of hicann/ops-math and hicann/ops-nn to port and run "
        "their example programs (commands in tests/test_cann_examples.py's docstring)",
        allow_module_level=True,
    )

# The documents, their programs, expected printouts and exception lists are test_cann_examples'
# (importing it skips this module too where the C ABI cannot be built: its discovery lives there).
import test_cann_examples as cann
from test_port import _env

from aclnn_py.port import Port, PortError, Refusal, translate

# Programs the tool refuses, by key: the statement that holds the refused construct (its line must
# hold it) and the refusal's reason. Each is a program whose printout C leaves undefined.
REFUSED: dict[str, tuple[str, str]] = {
    # `float otherValue = 3.5f` handed to aclCreateScalar as ACL_DOUBLE (see UNDEFINED_OUTPUT): no
    # Python value is the 8 bytes C reads there.
    "aclnnGtScalar_aclnnInplaceGtScalar": (
        "aclCreateScalar(&otherValue, aclDataType::ACL_DOUBLE)",
        "aclCreateScalar reads 8 bytes from a 4-byte float: past the variable, undefined in C",
    ),
}

PORTED = [k for k in cann.PROGRAMS if k not in cann.NOT_RUNNABLE and k not in REFUSED]


def _translate(key: str) -> Port | list[Refusal]:
    """The port of a document's program, or (if it cannot be read at all) the refusals."""
    try:
        return translate(cann.PROGRAMS[key], f"{key}.cpp", f"{key}.cpp")
    except PortError as e:
        return e.refusals


@pytest.fixture(scope="module")
def ports() -> dict[str, Port | list[Refusal]]:
    return {key: _translate(key) for key in cann.PROGRAMS if key not in cann.NOT_RUNNABLE}


def _run(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(path)], capture_output=True, text=True, env=_env(), timeout=300)


@pytest.fixture(scope="module")
def runs(
    ports: dict[str, Port | list[Refusal]], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[dict[str, Future[subprocess.CompletedProcess[str]]]]:
    """Every faithful port, run in parallel (each test waits for its own)."""
    folder = tmp_path_factory.mktemp("cann_ports")
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        started = {}
        for key, port in ports.items():
            if isinstance(port, Port) and port.ok:
                path = folder / f"{key}.py"
                path.write_text(port.python, encoding="utf-8")
                started[key] = pool.submit(_run, path)
        yield started


def _expected_stderr(key: str) -> str:
    """The C ABI's expected findings with the port's own file and line for "the C program"."""
    here = re.escape(f"{key}.py:") + r"\d+"
    # a port names its line, and the line that called its helper (CreateAclTensor) when there is one
    site = rf"{here}(?:, from {here})?(?: \(through \w+ at {here}\))?"
    return cann.PROGRAM_BUGS[key].replace("the C program", site)


@pytest.mark.parametrize("key", PORTED)
def test_the_port_of_a_cann_example_prints_what_the_program_prints(
    ports: dict[str, Port | list[Refusal]], runs: dict[str, Future[subprocess.CompletedProcess[str]]], key: str
) -> None:
    port = ports[key]
    assert isinstance(port, Port) and port.ok, "\n".join(
        str(r) for r in (port.refusals if isinstance(port, Port) else port)
    )
    done = runs[key].result()
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout == (cann.EXPECTED / f"{key}.out").read_text(encoding="utf-8")
    if key not in cann.PROGRAM_BUGS:
        assert done.stderr == ""
        return
    assert re.fullmatch(_expected_stderr(key), done.stderr), done.stderr
    # each finding names the port's line that made the resource
    lines = port.python.split("\n")
    k = re.escape(key)
    places = re.findall(
        rf"(?:made by (\w+)|(aclTensor) [^\n]*? made) at {k}\.py:(\d+)(?:, from {k}\.py:\d+)?"
        rf"(?: \(through \w+ at {k}\.py:(\d+)\))?",
        done.stderr,
    )
    assert places
    for call, handle, line, inner in places:  # the innermost line is the call that made it
        made = lines[int(inner or line) - 1]
        assert (call or "aclCreateTensor") in made, (handle or call, made)


@pytest.mark.parametrize("key", sorted(REFUSED))
def test_a_cann_example_with_undefined_output_is_refused_at_its_line(
    ports: dict[str, Port | list[Refusal]], key: str
) -> None:
    statement, reason = REFUSED[key]
    port = ports[key]
    refusals = port.refusals if isinstance(port, Port) else tuple(port)
    source_lines = cann.PROGRAMS[key].split("\n")
    assert [(r.file, statement in source_lines[r.line - 1], r.reason) for r in refusals] == [
        (f"{key}.cpp", True, reason)
    ], refusals
    assert isinstance(port, Port)
    # the partial port marks the line and refuses to run
    assert f"# aclnn-port: REFUSED line {refusals[0].line}: {refusals[0].construct}: {reason}" in port.python
    assert 'raise SystemExit("aclnn-port: this port is incomplete' in port.python


def test_the_refused_programs_are_those_whose_printout_c_leaves_undefined() -> None:
    assert set(REFUSED) == set(cann.UNDEFINED_OUTPUT)
    assert set(REFUSED) <= set(cann.PROGRAMS)


def test_every_runnable_program_is_ported_and_compared() -> None:
    assert PORTED, f"no document with a program under {cann.DOCS}"
    assert {p.stem for p in cann.EXPECTED.glob("*.out")} == set(PORTED)
