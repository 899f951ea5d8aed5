"""CANN's own example programs: the C++ program of every operator document (hicann/ops-math,
hicann/ops-nn) that documents an API aclnn_py implements, and every operator directory's
``examples/test_aclnn_*.cpp`` that calls only implemented APIs and is not such a document's
program already, compiled unmodified against the C ABI and run. Each must exit 0, print exactly
``tests/cann_examples/<document stem, & → _>.out`` (an examples/ program:
``<operator directory>__<file stem>.out``) and write nothing on stderr — except where the program
itself is wrong (listed below, with why).
Every value in those printouts was computed independently from the program's inputs and CANN's
operator semantics, not copied from the emulator's output.

The documents are not part of the repository (CANN's code may not be copied into it): they are
read at test time from the folder ACLNN_PY_CANN_DOCS names, searched recursively for
``aclnn*.md``; paths containing ``experimental`` are skipped. For example::

    mkdir -p /tmp/cann-docs/ops-math /tmp/cann-docs/ops-nn
    git -C ops-math archive HEAD | tar -x -C /tmp/cann-docs/ops-math
    git -C ops-nn archive HEAD | tar -x -C /tmp/cann-docs/ops-nn
    ACLNN_PY_CANN_DOCS=/tmp/cann-docs .venv/bin/python -m pytest tests/test_cann_examples.py

Unset, the module skips at once. The programs are compiled and run in parallel (one worker per
CPU); skips cleanly without a C++ compiler or the Python development headers (as test_capi).
"""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import pytest
from capi_support import ROOT, compile_cpp, extract_program, missing_toolchain, run

if (why := missing_toolchain()) is not None:
    pytest.skip(why, allow_module_level=True)

from aclnn_py.ops import registry

if not os.environ.get("ACLNN_PY_CANN_DOCS"):
    pytest.skip(
        "needs CANN's operator documents, which the repository does not ship: set ACLNN_PY_CANN_DOCS to a "
        "folder holding a checkout (or git archive) of hicann/ops-math and hicann/ops-nn to compile and run "
        "their example programs (commands in this module's docstring)",
        allow_module_level=True,
    )

DOCS = Path(os.environ["ACLNN_PY_CANN_DOCS"])
EXPECTED = ROOT / "tests" / "cann_examples"
IMPLEMENTED = {api.name for api in registry.IMPLEMENTED}

# ---------------------------------------------------------------------------------------------
# the documents whose program cannot simply be compared with an expected printout
# ---------------------------------------------------------------------------------------------

# Programs with a bug the emulator reports: the expected stderr, a full-match regular expression
# (only the simulated addresses are left open). Their stdout is still compared with the .out file.
PROGRAM_BUGS: dict[str, str] = {
    # The program makes an INT8 `out` of 8 elements (8 bytes; aclrtMalloc rounds it to 64) and
    # copies it back into a std::vector<float> of 8 elements: 32 bytes, of which bytes 8..31 were
    # never written. CANN copies whatever the device memory holds; the emulator's initcheck names
    # the read. result[0] and result[1] are the INT8 results 0,1,2,3 and 4,4,4,4 read as float32
    # denormals (0.000000); result[2..7] are the emulator's fresh-memory poison 0xFF (-nan).
    "aclnnClampMax_aclnnInplaceClampMax": (
        r"aclnn_py sanitizer \[initcheck\]: aclrtMemcpy reads uninitialised device memory: "
        r"byte 0x[0-9a-f]+ \(offset 8\) of device allocation \[0x[0-9a-f]+, 0x[0-9a-f]+\) "
        r"\(64 bytes, 8 requested\) made by aclrtMalloc at the C program was never written; "
        r"the read covers \[0x[0-9a-f]+, 0x[0-9a-f]+\)\n"
    ),
    # Both Ne programs allocate a workspace for the in-place call into the variable that holds
    # the out-of-place call's workspace, so the first one is never freed (its size is the
    # emulator's workspace, left open). The NeTensor program also never destroys `out` nor frees
    # its 64 bytes. The leak check reports them when the device is reset and at aclFinalize.
    "aclnnNeScalar_aclnnInplaceNeScalar": (
        r"aclnn_py sanitizer \[leakcheck\]: aclrtResetDevice: 1 resource\(s\) of device 0 never released:\n"
        r"    device allocation \[0x[0-9a-f]+, 0x[0-9a-f]+\) \(\d+ bytes, \d+ requested\) made by aclrtMalloc at the "
        r"C program \(never aclrtFree'd\)\n"
    ),
    "aclnnNeTensor_aclnnInplaceNeTensor": (
        r"aclnn_py sanitizer \[leakcheck\]: aclrtResetDevice: 2 resource\(s\) of device 0 never released:\n"
        r"    device allocation \[0x[0-9a-f]+, 0x[0-9a-f]+\) \(96 bytes, 64 requested\) made by aclrtMalloc at the "
        r"C program \(never aclrtFree'd\)\n"
        r"    device allocation \[0x[0-9a-f]+, 0x[0-9a-f]+\) \(\d+ bytes, \d+ requested\) made by aclrtMalloc at the "
        r"C program \(never aclrtFree'd\)\n"
        r"aclnn_py sanitizer \[leakcheck\]: aclFinalize: 1 resource\(s\) of the process never released:\n"
        r"    aclTensor \[\d+(, \d+)*\] DT_\w+ at 0x[0-9a-f]+ made at the C program \(never aclDestroyTensor'ed\)\n"
    ),
}
# The examples/ versions of the NeTensor programs (the out-of-place and the in-place one alike)
# never destroy `out` nor free its 32 bytes (rounded to 64): reported when the device is reset and
# at aclFinalize.
_NE_EXAMPLE_LEAK = (
    r"aclnn_py sanitizer \[leakcheck\]: aclrtResetDevice: 1 resource\(s\) of device 0 never released:\n"
    r"    device allocation \[0x[0-9a-f]+, 0x[0-9a-f]+\) \(64 bytes, 32 requested\) made by aclrtMalloc at the "
    r"C program \(never aclrtFree'd\)\n"
    r"aclnn_py sanitizer \[leakcheck\]: aclFinalize: 1 resource\(s\) of the process never released:\n"
    r"    aclTensor \[4, 2\] DT_FLOAT at 0x[0-9a-f]+ made at the C program \(never aclDestroyTensor'ed\)\n"
)
PROGRAM_BUGS["not_equal__test_aclnn_ne_tensor"] = _NE_EXAMPLE_LEAK
PROGRAM_BUGS["not_equal__test_aclnn_inplace_ne_tensor"] = _NE_EXAMPLE_LEAK


def _zeros_then_ones(stdout: str) -> bool:
    """Eight lines ``result[i] is: 0|1``, the 0s first: what ``self = 0..7 > c`` prints for any c."""
    values = [re.fullmatch(rf"result\[{i}\] is: ([01])", line) for i, line in enumerate(stdout.splitlines())]
    bits = [int(m.group(1)) for m in values if m]
    return len(bits) == len(values) == 8 and bits == sorted(bits) and stdout.endswith("\n")


# Programs whose printout depends on memory they do not own, so it changes from run to run (the
# emulator cannot see the C objects' sizes, so nothing is reported): a predicate on the printout.
UNDEFINED_OUTPUT: dict[str, Callable[[str], bool]] = {
    # `float otherValue = 3.5f` is passed to aclCreateScalar as ACL_DOUBLE: the scalar is 8 bytes
    # read from the float's address, its 4 and 4 bytes of whatever follows it on the stack (with
    # ASLR, e.g. 2.75e-235, 3.76e+263, -7.74e-25 in three runs). CANN reads the same 8 bytes.
    # The document's intent (3.5) would print 0,0,0,0,1,1,1,1.
    "aclnnGtScalar_aclnnInplaceGtScalar": _zeros_then_ones,
}

# Programs that call an API aclnn_py does not implement (so they cannot compile): those APIs.
# None at ops-math c41933244c and ops-nn e5c3fa9327. (Both Ne documents' programs close their fence
# on their last line, "}```": see program_of.)
NOT_RUNNABLE: dict[str, set[str]] = {}

# Programs the emulator gets wrong: the reason (marked xfail, strict). None at ops-math c41933244c
# and ops-nn e5c3fa9327; an entry here goes with a bug report, never with a wrong .out file.
EMULATOR_BUGS: dict[str, str] = {}

# Implemented APIs that no program run here calls, and why.
NOT_CALLED: dict[str, str] = {
    "aclnnInplaceGeTensor": "aclnnGeTensor&aclnnInplaceGeTensor.md documents it, but its program and "
    "greater_equal/examples/test_aclnn_ge_tensor.cpp call aclnnGeTensor only",
    "aclnnInplaceGeScalar": "aclnnGeScalar&aclnnInplaceGeScalar.md documents it, but its program calls "
    "aclnnGeScalar only (greater_equal/examples/test_aclnn_ge_scalar.cpp is the same program)",
}

# ---------------------------------------------------------------------------------------------
# finding the documents and their programs
# ---------------------------------------------------------------------------------------------


def _key(doc: Path) -> str:
    return doc.stem.replace("&", "_")


def find_documents(root: Path) -> tuple[dict[str, Path], list[tuple[Path, Path]]]:
    """The documents naming an implemented API, by key; and any pairs of documents sharing a key."""
    found: dict[str, Path] = {}
    clashes = []
    for doc in sorted(root.rglob("aclnn*.md")):
        if "experimental" in doc.relative_to(root).as_posix():
            continue
        if not IMPLEMENTED & set(doc.stem.split("&")):
            continue
        if _key(doc) in found:
            clashes.append((found[_key(doc)], doc))
        found.setdefault(_key(doc), doc)
    return found, clashes


def program_of(doc: Path) -> str | None:
    program = extract_program(doc.read_text(encoding="utf-8"))
    # A closing fence on the program's last line ("}```") is not seen as a fence, so the extractor
    # takes the unfenced form, to the end of the text: drop that fence (it is not C++).
    return None if program is None else re.sub(r"```[ \t]*\n?\Z", "\n", program)


def called_apis(program: str) -> set[str]:
    return set(re.findall(r"\b(aclnn\w+)GetWorkspaceSize\s*\(", program))


def _tokens(program: str) -> str:
    """The program without comments and with its whitespace collapsed (to tell two copies apart
    from two programs)."""
    return " ".join(re.sub(r"/\*.*?\*/|//[^\n]*", " ", program, flags=re.S).split())


def find_example_programs(root: Path, documented: Iterable[str]) -> tuple[dict[str, str], list[str]]:
    """The programs of the operator directories' ``examples/test_aclnn_*.cpp`` that call only
    implemented APIs and are not a document's program already (those are compared there), by key
    ``<operator directory>__<file stem>``; and any keys found twice."""
    seen = {_tokens(p) for p in documented}
    found: dict[str, str] = {}
    clashes = []
    for path in sorted(root.rglob("examples/test_aclnn_*.cpp")):
        if "experimental" in path.relative_to(root).as_posix():
            continue
        program = path.read_text(encoding="utf-8", errors="replace")
        apis = called_apis(program)
        if not apis or not apis <= IMPLEMENTED or _tokens(program) in seen:
            continue
        key = f"{path.parent.parent.name}__{path.stem}"
        if key in found:
            clashes.append(key)
        found.setdefault(key, program)
    return found, clashes


DOCUMENTS, CLASHES = find_documents(DOCS) if DOCS.is_dir() else ({}, [])
DOCUMENT_PROGRAMS = {k: p for k, doc in DOCUMENTS.items() if (p := program_of(doc)) is not None}
EXAMPLE_PROGRAMS, EXAMPLE_CLASHES = (
    find_example_programs(DOCS, DOCUMENT_PROGRAMS.values()) if DOCS.is_dir() else ({}, [])
)
# every program compared here: the documents' (by document name) and the examples' (by directory)
PROGRAMS: dict[str, str] = {**DOCUMENT_PROGRAMS, **EXAMPLE_PROGRAMS}


def _param(key: str) -> object:
    if key in EMULATOR_BUGS:
        return pytest.param(key, marks=pytest.mark.xfail(reason=EMULATOR_BUGS[key], strict=True))
    return key


def _compile_and_run(program: str, exe: Path, flags: list[str]) -> subprocess.CompletedProcess[str]:
    return run(compile_cpp(program, exe, flags))


@pytest.fixture(scope="session")
def outcomes(request, tmp_path_factory) -> Iterator[dict[str, Future[subprocess.CompletedProcess[str]]]]:
    """Compiles and runs, in parallel, the programs of the selected tests (the results, by key)."""
    flags = request.getfixturevalue("capi_flags")
    wanted = [
        item.callspec.params["key"]
        for item in request.session.items
        if getattr(item, "function", None) is test_cann_example_program and hasattr(item, "callspec")
    ]
    workdir = tmp_path_factory.mktemp("cann_examples")
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        yield {
            key: pool.submit(_compile_and_run, PROGRAMS[key], workdir / key, flags)
            for key in wanted
            if key not in NOT_RUNNABLE
        }


# ---------------------------------------------------------------------------------------------
# the tests
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("key", [_param(k) for k in PROGRAMS])
def test_cann_example_program(outcomes, key: str) -> None:
    if key in NOT_RUNNABLE:
        missing = called_apis(PROGRAMS[key]) - IMPLEMENTED
        assert missing == NOT_RUNNABLE[key], f"{key}: its program now calls {sorted(missing)} outside aclnn_py"
        pytest.skip(f"{key}: its program calls {', '.join(sorted(missing))}, which aclnn_py does not implement")
    done = outcomes[key].result()
    assert done.returncode == 0, done.stdout + done.stderr
    if key in UNDEFINED_OUTPUT:
        assert UNDEFINED_OUTPUT[key](done.stdout), done.stdout
    else:
        assert done.stdout == (EXPECTED / f"{key}.out").read_text(encoding="utf-8")
    if key in PROGRAM_BUGS:
        assert re.fullmatch(PROGRAM_BUGS[key], done.stderr), done.stderr
    else:
        assert done.stderr == ""


def test_the_folder_holds_documents_of_distinct_names() -> None:
    assert DOCS.is_dir(), f"ACLNN_PY_CANN_DOCS={DOCS} is not a folder"
    assert DOCUMENTS, f"no aclnn*.md document of an implemented API under {DOCS}"
    assert not CLASHES, f"documents sharing an expected-printout name: {CLASHES}"
    assert not EXAMPLE_CLASHES, f"example programs sharing an expected-printout name: {EXAMPLE_CLASHES}"


def test_every_runnable_program_has_an_expected_printout_and_every_printout_a_program() -> None:
    compared = {k for k in PROGRAMS if k not in NOT_RUNNABLE and k not in UNDEFINED_OUTPUT}
    assert {p.stem for p in EXPECTED.glob("*.out")} == compared


def test_the_exception_lists_name_documents_with_programs() -> None:
    for table in (PROGRAM_BUGS, UNDEFINED_OUTPUT, NOT_RUNNABLE, EMULATOR_BUGS):
        assert set(table) <= set(PROGRAMS), f"not a document with a program: {sorted(set(table) - set(PROGRAMS))}"


def test_every_implemented_api_has_a_document_with_a_program() -> None:
    named = {name for key, doc in DOCUMENTS.items() if key in DOCUMENT_PROGRAMS for name in doc.stem.split("&")}
    assert not IMPLEMENTED - named, f"no document with a program under {DOCS} for {sorted(IMPLEMENTED - named)}"


def test_every_implemented_api_is_called_by_a_program_run_here() -> None:
    called = {api for key, program in PROGRAMS.items() if key not in NOT_RUNNABLE for api in called_apis(program)}
    assert IMPLEMENTED - called == set(NOT_CALLED)
