"""Files: the outline of a UT file (its tests, fixtures and enumerators), the cases read from it in
gtest's order, which files CANN builds, and the counts per API."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .interpreter import Interpreter
from .lexer import END, Tok, strip_comments, tokenize
from .model import SOC_NAMES, STUB_DEFAULT_SOC, Case, Skipped, Unreadable, Value
from .parser import Parser, Stmt

# ---------------------------------------------------------------------------------------------
# files
# ---------------------------------------------------------------------------------------------


@dataclass
class _Test:
    suite: str
    name: str
    line: int
    body: list[Tok]


@dataclass
class _Outline:
    """A file's tests, its fixtures' SetUp / TearDown bodies and its enumerators."""

    tests: list[_Test] = field(default_factory=list)
    fixtures: dict[str, dict[str, list[Tok]]] = field(default_factory=dict)  # class -> method -> body
    enumerators: dict[str, Value] = field(default_factory=dict)
    stray: list[tuple[int, str]] = field(default_factory=list)  # (line, API) of an OP_API_UT outside a test


_FIXTURE_METHODS = ("SetUp", "TearDown", "SetUpTestCase", "TearDownTestCase", "SetUpTestSuite", "TearDownTestSuite")


def _block(toks: Sequence[Tok], i: int) -> tuple[list[Tok], int]:
    """The tokens inside the braces opening at toks[i], and the index after the closing one."""
    if toks[i].text != "{":
        raise Unreadable(f"line {toks[i].line}: expected '{{', found {toks[i].text!r}")
    depth = 0
    for j in range(i, len(toks)):
        if toks[j].kind == "op" and toks[j].text in ("{", "}"):
            depth += 1 if toks[j].text == "{" else -1
            if depth == 0:
                return list(toks[i + 1 : j]), j + 1
    raise Unreadable(f"line {toks[i].line}: unterminated block")


def _to_body(toks: Sequence[Tok], j: int) -> int:
    """The index of the ``{`` opening a class, struct or enum body from ``j`` on (or of the ``;``
    ending a mere declaration, or the end)."""
    while toks[j].text not in ("{", ";") and toks[j].kind != END:
        j += 1
    return j


def _outline(toks: Sequence[Tok]) -> _Outline:
    out = _Outline()
    i = 0
    while toks[i].kind != END:
        t = toks[i]
        texts = [x.text for x in toks[i + 1 : i + 6]]
        if (
            t.kind == "name"
            and t.text in ("TEST_F", "TEST")
            and texts[0] == "("
            and texts[2] == ","
            and texts[4] == ")"
        ):
            body, i = _block(toks, i + 6)
            out.tests.append(_Test(texts[1], texts[3], t.line, body))
        elif t.kind == "name" and t.text in ("class", "struct") and toks[i + 1].kind == "name":
            name = toks[i + 1].text
            j = _to_body(toks, i + 2)
            if toks[j].text != "{":
                i = j
                continue
            inner, i = _block(toks, j)
            out.fixtures[name] = _methods(inner)
        elif t.kind == "name" and t.text == "enum":
            j = i + 1 + (toks[i + 1].text in ("class", "struct"))
            type_name = toks[j].text if toks[j].kind == "name" else ""
            j = _to_body(toks, j)
            if toks[j].text != "{":
                i = j
                continue
            inner, i = _block(toks, j)
            out.enumerators.update(_enumerators(inner, type_name))
        else:
            if t.text == "OP_API_UT" and toks[i + 1].text == "(":
                out.stray.append((t.line, toks[i + 2].text))
            i += 1
    return out


def _methods(toks: Sequence[Tok]) -> dict[str, list[Tok]]:
    """A fixture class's SetUp / TearDown / SetUpTestCase / TearDownTestCase bodies."""
    out = {}
    for i, t in enumerate(toks[:-1]):
        if t.kind == "name" and t.text in _FIXTURE_METHODS and toks[i + 1].text == "(":
            j = i + 2
            while j < len(toks) and toks[j].text not in ("{", ";"):
                j += 1
            if j < len(toks) and toks[j].text == "{":
                out[t.text.replace("TestSuite", "TestCase")] = _block(toks, j)[0]
    return out


def _enumerators(toks: Sequence[Tok], type_name: str) -> dict[str, Value]:
    """``enum T { A, B = 3, C }``'s enumerators (an unnamed enum's are plain ints)."""
    out: dict[str, Value] = {}
    value = -1
    for item in " ".join(t.text for t in toks).split(","):
        if not item.strip():
            continue
        name, _, expr = item.partition("=")
        if expr.strip():
            v = Interpreter(out, None).evaluate(Parser(tokenize(expr)).expression())
            if not isinstance(v, Value) or not isinstance(v.value, int):
                raise Unreadable(f"enumerator {name.strip()} = {expr.strip()}")
            value = v.value
        else:
            value += 1
        out[name.strip()] = Value(f"enum {type_name}" if type_name else "int", value)
    return out


_OP_API_UT = re.compile(r"\bOP_API_UT\s*\(\s*(\w+)\s*,")


def read_file(path: Path, root: Path, apis: Mapping[str, int]) -> tuple[list[Case], list[Skipped]]:
    """The cases of one UT file, in gtest's order: the phase-1 calls of the APIs in ``apis``
    (name -> the number of phase-1 parameters before workspaceSize and executor)."""
    rel = path.relative_to(root).as_posix()
    text = path.read_text(encoding="utf-8", errors="replace")
    try:
        toks = tokenize(text)
        outline = _outline(toks)
    except Unreadable as e:
        in_file = tuple(a for a in _OP_API_UT.findall(strip_comments(text)) if a in apis)
        return [], [Skipped(rel, rel, 1, in_file, f"the file: {e}")] if in_file else []
    cases: list[Case] = []
    skipped: list[Skipped] = []
    for line, api in outline.stray:
        if api in apis:
            skipped.append(Skipped(f"{rel}@{line}", rel, line, (api,), f"line {line}: an OP_API_UT outside a TEST_F"))

    def parse(body: Sequence[Tok]) -> list[Stmt]:
        return Parser(body, Interpreter(outline.enumerators, None).enums).statements()

    def named(body: Sequence[Tok]) -> tuple[str, ...]:
        return tuple(
            body[k + 2].text for k in range(len(body) - 2) if body[k].text == "OP_API_UT" and body[k + 2].text in apis
        )

    soc: str | None = STUB_DEFAULT_SOC

    def fixture(suite: str, method: str) -> None:
        nonlocal soc
        body = outline.fixtures.get(suite, {}).get(method)
        if body:
            interp = Interpreter(outline.enumerators, soc)
            try:
                interp.run(parse(body))
                soc = interp.soc
            except Unreadable:
                soc = None

    suites: dict[str, list[_Test]] = {}  # gtest runs suite by suite, in the order they first appear
    for t in outline.tests:
        suites.setdefault(t.suite, []).append(t)
    for suite, tests in suites.items():
        fixture(suite, "SetUpTestCase")
        for t in tests:
            test_id = f"{rel}::{t.name}"
            apis_in = named(t.body)
            if t.name.startswith("DISABLED_") or suite.startswith("DISABLED_"):
                if apis_in:
                    skipped.append(Skipped(test_id, rel, t.line, apis_in, "DISABLED_ in gtest", "disabled"))
                continue
            fixture(suite, "SetUp")
            interp = Interpreter(outline.enumerators, soc)
            try:
                interp.run(parse(t.body))
            except Unreadable as e:
                if apis_in:
                    skipped.append(Skipped(test_id, rel, t.line, apis_in, str(e)))
                if any(tok.text in ("SetPlatformSocVersion", "SetPlatformNpuArch") for tok in t.body):
                    soc = None  # the SoC from here on is not known
            else:
                soc = interp.soc
                cases_and_skips = _calls(test_id, rel, interp, apis)
                cases += [c for c in cases_and_skips if isinstance(c, Case)]
                skipped += [c for c in cases_and_skips if isinstance(c, Skipped)]
            fixture(suite, "TearDown")
        fixture(suite, "TearDownTestCase")
    return cases, skipped


def _calls(test_id: str, rel: str, interp: Interpreter, apis: Mapping[str, int]) -> list[Case | Skipped]:
    out: list[Case | Skipped] = []
    for ut in interp.uts:
        if ut.api in apis and ut.used != "phase1":
            why = "TestPrecision only" if ut.used == "precision" else "never called"
            out.append(
                Skipped(f"{test_id}@{ut.line}", rel, ut.line, (ut.api,), f"no phase-1 call ({why})", "unchecked")
            )
    calls = [c for c in interp.calls if c.api in apis]
    for k, c in enumerate(calls):
        cid = test_id if len(calls) == 1 else f"{test_id}#{k + 1}"
        if c.status is None:
            out.append(Skipped(cid, rel, c.line, (c.api,), "no assertion on its status", "unchecked"))
        elif len(c.args) != apis[c.api]:
            out.append(Skipped(cid, rel, c.line, (c.api,), f"{len(c.args)} arguments for {apis[c.api]} parameters"))
        else:
            soc = SOC_NAMES.get(c.soc, c.soc)
            init, workspace = (c.workspace_init, c.workspace) if c.workspace_init is not None else (0, None)
            out.append(Case(cid, rel, c.line, soc, c.api, c.args, c.status, init, workspace))
    return out


def _built(path: Path) -> bool:
    """Whether CANN's CMake compiles this file into its op_api UT binary (see the docstring)."""
    if not path.name.startswith("test_aclnn_"):
        return False
    parts = path.parent.parts
    if parts[-3:] == ("tests", "ut", "op_api"):
        return True
    if parts[-3:] != ("tests", "ut", "op_host") and parts[-4:] != ("tests", "ut", "op_host", "op_api"):
        return False
    for repo in path.parents:
        func = repo / "cmake" / "func.cmake"
        if func.is_file():
            return "op_host/op_api" in func.read_text(encoding="utf-8", errors="replace")
    return False


def find_files(root: Path, apis: Iterable[str]) -> list[Path]:
    """The op_api UT sources under ``root`` that CANN builds (none under ``experimental``) and
    that construct an OP_API_UT of one of ``apis``."""
    wanted = set(apis)
    out = []
    for path in sorted(root.rglob("tests/ut/**/test_aclnn_*.cpp")):
        if "experimental" in path.relative_to(root).parts or not _built(path):
            continue
        if wanted & set(_OP_API_UT.findall(strip_comments(path.read_text(encoding="utf-8", errors="replace")))):
            out.append(path)
    return out


def read_tree(root: Path, apis: Mapping[str, int]) -> tuple[list[Case], list[Skipped]]:
    """Every case of every UT file under ``root`` that calls one of ``apis``."""
    cases: list[Case] = []
    skipped: list[Skipped] = []
    for path in find_files(root, apis):
        c, s = read_file(path, root, apis)
        cases += c
        skipped += s
    return cases, skipped


def count_calls(cases: Iterable[Case], skipped: Iterable[Skipped]) -> Iterator[tuple[str, int, int]]:
    """(api, read, unreadable) per API: the phase-1 calls with an assertion that are replayed,
    and the OP_API_UTs of the tests that could not be read."""
    read: dict[str, int] = {}
    unreadable: dict[str, int] = {}
    for c in cases:
        read[c.api] = read.get(c.api, 0) + 1
    for s in skipped:
        if s.kind == "unreadable":
            for api in s.apis:
                unreadable[api] = unreadable.get(api, 0) + 1
    for api in sorted(read.keys() | unreadable.keys()):
        yield api, read.get(api, 0), unreadable.get(api, 0)
