"""aclnn-port: every C++ program the suite compiles against the C ABI, translated by the tool, prints
what the C++ prints; the checked-in ports in samples/ are the tool's output; what the tool cannot
translate faithfully, it refuses, naming file, line and construct.

Each program is translated once (a module fixture), and the ports run as subprocesses side by side.
Skips cleanly without tree-sitter (the ``port`` extra); the seed documents' samples are used when
the documents are there (ACLNN_PY_SEEDS, default ../shared/seeds next to the checkout).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from port_support import port_env, runs_as_the_program

pytest.importorskip("tree_sitter", reason="needs the C++ parser: pip install -e '.[port]'")
pytest.importorskip("tree_sitter_cpp", reason="needs the C++ parser: pip install -e '.[port]'")

from aclnn_py.port import Port, PortError, translate
from aclnn_py.port.cli import main as cli_main
from aclnn_py.port.source import extract_program

ROOT = Path(__file__).resolve().parent.parent
CAPI = ROOT / "capi"
SAMPLES = ROOT / "samples"
SEEDS = Path(os.environ.get("ACLNN_PY_SEEDS", ROOT.parent / "shared" / "seeds"))


@dataclass(frozen=True)
class Program:
    """A C++ program and what its port must be and print. ``name`` is the source's name in the port's
    header (what `aclnn-port --name` is given when the port is regenerated); ``port`` the checked-in
    port it must equal (None: none checked in)."""

    id: str
    source: str
    name: str
    expected: Path  # the C++ program's printout (samples/*.out)
    port: Path | None


def _programs() -> list[Program]:
    found = []
    for cpp in sorted((CAPI / "samples").glob("*.cpp")):
        port = SAMPLES / f"test_aclnn_{cpp.stem}.py"
        found.append(
            Program(
                cpp.stem, cpp.read_text(encoding="utf-8"), f"capi/samples/{cpp.name}", port.with_suffix(".out"), port
            )
        )
    seen: set[str] = set()
    if SEEDS.is_dir():
        for doc in sorted(SEEDS.iterdir()):
            program = extract_program(doc.read_text(encoding="utf-8"))
            if program is None:
                continue
            header = re.search(r'#include\s+"aclnnop/(?:level2/)?(\w+)\.h"', program)
            assert header is not None, f"{doc.name}: the sample includes no operator header"
            stem = "test_" + header.group(1)
            port = SAMPLES / f"{stem}.py"
            # the first document of an operator is the one its checked-in port was made from
            found.append(
                Program(doc.name, program, f"{stem}.cpp", port.with_suffix(".out"), None if stem in seen else port)
            )
            seen.add(stem)
    return found


PROGRAMS = _programs()
IDS = [p.id for p in PROGRAMS]


_env = port_env


@pytest.fixture(scope="module")
def ports() -> dict[str, Port]:
    return {p.id: translate(p.source, p.id, p.name) for p in PROGRAMS}


def _checked_in(program: Program, port: Port) -> bool:
    """Whether the port is, character for character, its checked-in port in samples/, which
    tests/test_samples.py runs and compares with the same expected printout (exit status and an
    empty stderr included): running it here again would repeat that run."""
    return program.port is not None and port.ok and program.port.read_text(encoding="utf-8") == port.python


@pytest.fixture(scope="module")
def runs(ports, tmp_path_factory) -> dict[str, subprocess.Popen[bytes]]:
    """Every port started at once (each test then waits for its own), but those that are their
    checked-in port (:func:`_checked_in`)."""
    folder = tmp_path_factory.mktemp("ports")
    started = {}
    for p in PROGRAMS:
        if not ports[p.id].ok or _checked_in(p, ports[p.id]):
            continue
        path = folder / f"{p.id}.py"
        path.write_text(ports[p.id].python, encoding="utf-8")
        started[p.id] = subprocess.Popen(
            [sys.executable, str(path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=_env()
        )
    yield started
    for proc in started.values():  # those no test waited for (deselected, or a failure before)
        if proc.poll() is None:
            proc.kill()
        proc.communicate()  # reaps it and closes its pipes


# ---------------------------------------------------------------------------------------------
# the programs of the suite, translated and run
# ---------------------------------------------------------------------------------------------


def test_the_suite_has_programs_to_port() -> None:
    assert {p.id for p in PROGRAMS} >= {c.stem for c in (CAPI / "samples").glob("*.cpp")}
    if not SEEDS.is_dir():
        pytest.skip(
            f"needs CANN's sample documents, which the repository does not ship: set ACLNN_PY_SEEDS to their "
            f"folder (looked in {SEEDS})"
        )
    assert (
        sum(
            1 for p in PROGRAMS if p.port is not None and p.id not in {c.stem for c in (CAPI / "samples").glob("*.cpp")}
        )
        == 3
    )


@pytest.mark.parametrize("program", PROGRAMS, ids=IDS)
def test_the_port_prints_what_the_cpp_prints(program: Program, ports, runs) -> None:
    port = ports[program.id]
    assert port.ok, "\n".join(str(r) for r in port.refusals)
    if _checked_in(program, port):
        # the same program as samples/<port>.py: tests/test_samples.py runs it against program.expected
        assert program.expected == program.port.with_suffix(".out")  # type: ignore[union-attr]
        return
    out, err = runs[program.id].communicate(timeout=300)
    rc_file = program.expected.with_suffix(".rc")
    assert runs[program.id].returncode == (int(rc_file.read_text()) if rc_file.exists() else 0), err.decode()
    assert out == program.expected.read_bytes()
    assert err == b""


@pytest.mark.parametrize("program", [p for p in PROGRAMS if p.port is not None], ids=lambda p: p.id)
def test_the_checked_in_port_is_the_tools_output(program: Program, ports) -> None:
    assert program.port is not None
    assert program.port.read_text(encoding="utf-8") == ports[program.id].python, (
        f"regenerate it: aclnn-port <source> --name {program.name} -o samples/{program.port.name}"
    )


def test_every_port_in_samples_has_its_cpp_or_is_the_error_paths_sample() -> None:
    made = {p.port.name for p in PROGRAMS if p.port is not None}
    hand_written = {p.name for p in SAMPLES.glob("test_aclnn_*.py")} - made
    if SEEDS.is_dir():
        assert hand_written == {"test_aclnn_error_paths.py"}  # no C++ twin: written by hand
    else:
        assert "test_aclnn_error_paths.py" in hand_written


# ---------------------------------------------------------------------------------------------
# the C ABI's test programs: what cannot be ported is refused, clearly
# ---------------------------------------------------------------------------------------------


def _refusals(source: str, filename: str = "prog.cpp") -> list[tuple[int, str, str]]:
    try:
        port = translate(source, filename)
    except PortError as e:
        return [(r.line, r.construct, r.reason) for r in e.refusals]
    return [(r.line, r.construct, r.reason) for r in port.refusals]


def test_threads_cpp_is_refused_it_runs_std_thread() -> None:
    """capi/tests/threads.cpp runs its work on std::thread and hands each thread a pointer into a
    std::vector of result structs: a Python port would need threading semantics the tool does not
    model, and pointers to structs, so it refuses, naming each (the plain struct itself translates)."""
    src = (CAPI / "tests" / "threads.cpp").read_text(encoding="utf-8")
    refusals = _refusals(src, "threads.cpp")
    lines = src.split("\n")
    by_construct = {construct: line for line, construct, _ in refusals}
    assert "std::thread" in by_construct and "std::thread" in lines[by_construct["std::thread"] - 1]
    reasons = {reason.split(" is not")[0]: lines[line - 1] for line, _, reason in refusals}
    assert "Result *r" in reasons["a pointer to a struct"]
    assert "std::vector<Result>" in reasons["a std::vector of structs"]
    assert not any("struct Result" in c for c in by_construct)


def test_error_rows_cpp_is_refused_where_it_touches_raw_memory_and_forges_handles() -> None:
    """capi/tests/error_rows.cpp writes pinned host memory through a raw pointer and forges handles from
    integers: no Python twin; everything else in it translates."""
    src = (CAPI / "tests" / "error_rows.cpp").read_text(encoding="utf-8")
    refusals = _refusals(src, "error_rows.cpp")
    lines = src.split("\n")
    for line, construct, _reason in refusals:
        assert construct.split("(")[0].split("<")[0] in lines[line - 1]
    kinds = sorted({reason.split(" (")[0] for _, _, reason in refusals})
    assert kinds == [
        "a pointer or handle forged from an integer has no Python twin",
        "reading or writing memory through a raw pointer has no Python twin",
        "std::memset is not translated",
    ]
    assert [c for _, c, _ in refusals if "reinterpret_cast" in c] == [
        "reinterpret_cast<aclTensor *>(0x1234560)",
        "reinterpret_cast<aclrtStream>(0x7777770)",
    ]


# ---------------------------------------------------------------------------------------------
# unknown constructs: each refused with its file, line and construct
# ---------------------------------------------------------------------------------------------

PRELUDE = '#include <cstdio>\n#include <vector>\n#include "acl/acl.h"\n'
UNKNOWN = [
    ("switch", "int main() {\n  int x = 1;\n  switch (x) { case 1: break; }\n  return 0;\n}", 6, "switch", "switch"),
    ("goto", "int main() {\n  goto end;\nend:\n  return 0;\n}", 5, "goto", "goto"),
    (
        "struct member without an initializer",
        "struct P { int x; };\nint main() { return 0; }",
        4,
        "int x;",
        "no default member initializer",
    ),
    (
        "struct method",
        "struct P {\n  int x = 0;\n  int get() { return x; }\n};\nint main() { return 0; }",
        6,
        "int get()",
        "member functions or constructors",
    ),
    (
        "struct constructor",
        "struct P {\n  int x = 0;\n  P() {}\n};\nint main() { return 0; }",
        6,
        "P()",
        "constructors",
    ),
    (
        "struct inheritance",
        "struct B { int x = 0; };\nstruct P : B { int y = 0; };\nint main() { return 0; }",
        5,
        "struct P : B",
        "inheritance",
    ),
    ("static member", "struct P { int x = 0; static int n; };\nint main() { return 0; }", 4, "static int n", "static"),
    (
        "member reading a member",
        "struct P { int x = 1; int y = x; };\nint main() { return 0; }",
        4,
        "int y = x",
        "reads",
    ),
    (
        "pointer to a struct",
        "struct P { int x = 0; };\nint main() {\n  P p;\n  P* q = &p;\n  return 0;\n}",
        7,
        "q",
        "a pointer to a struct",
    ),
    (
        "vector of structs",
        "struct P { int x = 0; };\nint main() {\n  std::vector<P> ps(2);\n  return 0;\n}",
        6,
        "std::vector<P>",
        "a std::vector of structs",
    ),
    (
        "struct copy",
        "struct P { int x = 0; };\nint main() {\n  P p;\n  P q = p;\n  return 0;\n}",
        7,
        "P q = p",
        "copying",
    ),
    (
        "struct assignment",
        "struct P { int x = 0; };\nint main() {\n  P p;\n  P q;\n  q = p;\n  return 0;\n}",
        8,
        "q = p",
        "assigning a whole struct",
    ),
    (
        "struct by value",
        "struct P { int x = 0; };\nint f(P p) { return p.x; }\nint main() { return 0; }",
        5,
        "int f(P p)",
        "passed by value",
    ),
    (
        "struct returned",
        "struct P { int x = 0; };\nP make() {\n  P p;\n  return p;\n}\nint main() { return 0; }",
        5,
        "P make()",
        "returning a struct",
    ),
    (
        "reference to an element",
        "void f(int& v) { v = 1; }\nint main() {\n  std::vector<int> a(2);\n  f(a[0]);\n  return a[0];\n}",
        7,
        "a[0]",
        "takes a variable",
    ),
    ("class", "class C { };\nint main() { return 0; }", 4, "class C", "struct, class"),
    ("new", "int main() {\n  float* p = new float[4];\n  return 0;\n}", 5, "new float[4]", "new"),
    ("lambda", "int main() {\n  auto f = [](int a) { return a; };\n  return 0;\n}", 5, "[](int a)", "lambda"),
    ("iostream", "int main() {\n  std::cout << 1;\n  return 0;\n}", 5, "std::cout", "not translated"),
    (
        "unknown function",
        "int main() {\n  undeclaredHelper(1.0f);\n  return 0;\n}",
        5,
        "undeclaredHelper",
        "neither in this program nor by aclnn_py",
    ),
    (
        "unknown operator header",
        '#include "aclnnop/aclnn_no_such_op.h"\nint main() { return 0; }',
        4,
        "#include",
        "no operator of aclnn_py",
    ),
    ("unknown header", '#include "my_helpers.h"\nint main() { return 0; }', 4, "#include", "the tool sees one file"),
    (
        "conditional compilation",
        "#ifdef FOO\nint x = 1;\n#endif\nint main() { return 0; }",
        4,
        "#ifdef",
        "conditional compilation",
    ),
    ("printf %a", 'int main() {\n  printf("%a\\n", 1.0);\n  return 0;\n}', 5, "printf", "%a"),
    ("printf argument type", 'int main() {\n  printf("%d\\n", 1.5);\n  return 0;\n}', 5, "1.5", "undefined in C"),
    (
        "printf argument count",
        'int main() {\n  printf("%d %d\\n", 1);\n  return 0;\n}',
        5,
        "printf",
        "takes 2 argument(s)",
    ),
    (
        "signed division with side effects",
        "int f() { return -7; }\nint main() {\n  int b = 2;\n  int c = f() / b;\n  return c;\n}",
        7,
        "f() / b",
        "truncates toward zero",
    ),
    (
        "printf width",
        'int main() {\n  int i = 1;\n  printf("%ld\\n", i);\n  return 0;\n}',
        6,
        "i",
        "64-bit conversion",
    ),
    (
        "scalar read past its variable",
        "int main() {\n  int32_t v = 2;\n  aclScalar* s = aclCreateScalar(&v, ACL_INT64);\n  return 0;\n}",
        6,
        "&v",
        "past the variable",
    ),
    (
        "float16 arithmetic",
        "int main() {\n  _Float16 h = 1;\n  _Float16 g = h + h;\n  return 0;\n}",
        6,
        "h + h",
        "_Float16",
    ),
    (
        "unsigned countdown",
        "int main() {\n  for (size_t i = 3; i >= 0; i--) {}\n  return 0;\n}",
        5,
        "for (size_t",
        "never ends",
    ),
    (
        "static local",
        "int f() {\n  static int n = 0;\n  return ++n;\n}\nint main() { return f(); }",
        5,
        "static int",
        "static local",
    ),
    ("reference variable", "int main() {\n  int x = 1;\n  int& r = x;\n  return r;\n}", 6, "int& r", "reference"),
    (
        "auto reference",
        "int main() {\n  int x = 1;\n  auto& r = x;\n  r = 5;\n  return x;\n}",
        6,
        "auto& r",
        "reference",
    ),
    (
        "function writing a reference as a value",
        "void f(int64_t& v) { v = 1; }\nint main() {\n  void (*g)(int64_t&) = f;\n  return 0;\n}",
        6,
        "f",
        "writes a reference parameter",
    ),
    (
        "reference to a pointer",
        "void f(int32_t*& p) { p = nullptr; }\nint main() { return 0; }",
        4,
        "int32_t*& p",
        "reference",
    ),
    (
        "vector assigned through a reference",
        "void f(std::vector<int64_t>& v) {\n  std::vector<int64_t> w = {1, 2};\n  v = w;\n}\nint main() { return 0; }",
        6,
        "v = w",
        "through a reference",
    ),
    (
        "growing a numpy vector",
        "int main() {\n  std::vector<float> v;\n  v.push_back(1.0f);\n  return 0;\n}",
        6,
        "v.push_back",
        "cannot grow",
    ),
    (
        "raw pointer",
        "int main() {\n  void* p = nullptr;\n  aclrtMallocHost(&p, 4);\n  static_cast<char*>(p)[0] = 1;\n  return 0;\n}",
        7,
        "static_cast<char*>(p)[0]",
        "raw pointer",
    ),
    (
        "forged handle",
        "int main() {\n  aclrtSynchronizeStream(reinterpret_cast<aclrtStream>(0x10));\n  return 0;\n}",
        5,
        "reinterpret_cast",
        "forged",
    ),
    ("using namespace", "using namespace std;\nint main() { return 0; }", 4, "using namespace std", "write std::"),
    ("byte escape", 'int main() {\n  printf("\\xff");\n  return 0;\n}', 5, '"\\xff"', "byte escape"),
    ("long double", "int main() {\n  double d = 1.0L;\n  return 0;\n}", 5, "1.0L", "long double"),
    ("stringizing macro", "#define S(x) #x\nint main() { return 0; }", 4, "#define S(x) #x", "stringizes"),
    ("main with arguments", "int main(int argc, char** argv) { return 0; }", 4, "int main", "argc"),
    ("comma operator", "int main() {\n  int a = 1;\n  int b = (a++, a);\n  return b;\n}", 6, "(a++, a)", "comma"),
    (
        "shadowing",
        "int main() {\n  int x = 1;\n  {\n    int x = 2;\n  }\n  return x;\n}",
        7,
        "int x = 2",
        "declared again",
    ),
    ("exceptions", "int main() {\n  try { } catch (...) { }\n  return 0;\n}", 5, "try", "exceptions"),
    (
        "overloads",
        "int f(int a) { return a; }\nint f(double a) { return 1; }\nint main() { return f(1); }",
        5,
        "int f(double a)",
        "defined twice",
    ),
    ("not C++", "int main() {\n  return 0 +;\n}", 5, "", "parser cannot read"),
    (
        "function declared in a function",
        "int main() {\n  std::vector<float> f(int64_t);\n  return 0;\n}",
        5,
        "std::vector<float> f(int64_t);",
        "a function declared inside a function",
    ),
    (
        "unique_ptr with the default deleter",
        "int main() {\n  std::unique_ptr<aclTensor> t(nullptr);\n  return 0;\n}",
        5,
        "std::unique_ptr<aclTensor>",
        "without a function deleter",
    ),
    (
        "unique_ptr deleter of another type",
        "using P = std::unique_ptr<void, decltype(&aclrtFree)>;\nint main() {\n  P p(nullptr, &aclrtDestroyStream);\n"
        "  return 0;\n}",
        6,
        "&aclrtDestroyStream",
        "a deleter that is no",
    ),
    (
        "unique_ptr by value",
        "using P = std::unique_ptr<void, decltype(&aclrtFree)>;\nint f(P p) { return 0; }\nint main() { return 0; }",
        5,
        "int f(P p)",
        "passed by value",
    ),
    (
        "unique_ptr as a value",
        "using P = std::unique_ptr<void, decltype(&aclrtFree)>;\nint main() {\n  P p(nullptr, &aclrtFree);\n"
        "  if (p) {\n    return 1;\n  }\n  return 0;\n}",
        7,
        "p",
        "used as a value",
    ),
    (
        "global unique_ptr",
        "using P = std::unique_ptr<void, decltype(&aclrtFree)>;\nP g(nullptr, &aclrtFree);\nint main() { return 0; }",
        5,
        "P g",
        "a global std::unique_ptr",
    ),
    (
        "lambda capturing by copy",
        "int main() {\n  std::shared_ptr<void> g(nullptr, [=](void*) {});\n  return 0;\n}",
        5,
        "[=]",
        "capturing by copy",
    ),
    (
        "lambda assigning what it captures",
        "int main() {\n  int n = 0;\n  std::shared_ptr<void> g(nullptr, [&](void*) {\n    n = 1;\n  });\n"
        "  return n;\n}",
        7,
        "n",
        "a lambda assigning n",
    ),
    (
        "shared_ptr reset",
        "int main() {\n  std::shared_ptr<void> g(nullptr, &aclrtFree);\n  g.reset();\n  return 0;\n}",
        6,
        "g.reset()",
        "only get()",
    ),
]


@pytest.mark.parametrize(("name", "body", "line", "construct", "reason"), UNKNOWN, ids=[u[0] for u in UNKNOWN])
def test_an_unknown_construct_is_refused_with_file_line_and_construct(name, body, line, construct, reason) -> None:
    refusals = _refusals(PRELUDE + body)
    assert refusals, f"{name}: translated without a refusal"
    first = refusals[0]
    assert first[0] == line, refusals
    assert construct in first[1], refusals
    assert reason in first[2], refusals


def test_the_cli_stops_on_refusal_names_file_line_construct_and_writes_nothing(tmp_path, capsys) -> None:
    src = tmp_path / "prog.cpp"
    src.write_text(PRELUDE + "int main() {\n  int x = 1;\n  switch (x) { default: break; }\n  return 0;\n}\n")
    out = tmp_path / "prog.py"
    assert cli_main([str(src), "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert f"{src}:6: switch (x) {{ default: break; }}: switch is not translated" in err
    assert not out.exists()


def test_the_partial_port_marks_refused_lines_and_does_not_run(tmp_path) -> None:
    src = tmp_path / "prog.cpp"
    src.write_text(PRELUDE + 'int main() {\n  printf("before\\n");\n  goto end;\nend:\n  return 0;\n}\n')
    out = tmp_path / "prog.py"
    done = subprocess.run(
        [sys.executable, "-m", "aclnn_py.port", str(src), "-o", str(out), "--partial"], capture_output=True, text=True
    )
    assert done.returncode == 1
    assert f"{src}:6: goto end;: goto has no Python twin" in done.stderr
    text = out.read_text()
    assert "# aclnn-port: REFUSED line 6: goto end;: goto has no Python twin" in text
    run = subprocess.run([sys.executable, str(out)], capture_output=True, text=True, env=_env())
    assert run.returncode != 0 and run.stdout == ""  # it never prints something else
    assert "this port is incomplete" in run.stderr


def test_the_cli_ports_a_program_and_a_document(tmp_path) -> None:
    doc = tmp_path / "aclnnDemo.md"
    doc.write_text(
        "# a document\n\n```Cpp\n" + PRELUDE + 'int main() {\n  printf("%d\\n", 6 * 7);\n  return 0;\n}\n```\n',
        encoding="utf-8",
    )
    out = tmp_path / "demo.py"
    assert cli_main([str(doc), "-o", str(out), "--name", "demo.cpp"]) == 0
    text = out.read_text()
    assert "# Generated by aclnn-port from demo.cpp" in text
    assert '    printf("%d\\n", 6 * 7)\n' in text
    run = subprocess.run([sys.executable, str(out)], capture_output=True, text=True, env=_env())
    assert (run.returncode, run.stdout) == (0, "42\n")


def test_the_documented_example_is_the_tools_output() -> None:
    """docs/porting.md opens with a C++ program and its port: the port is what the tool writes."""
    doc = (ROOT / "docs" / "porting.md").read_text(encoding="utf-8")
    cpp = re.search(r"^```cpp\n(.*?)^```", doc, re.S | re.M)
    py = re.search(r"^```python\n(.*?)^```", doc, re.S | re.M)
    assert cpp is not None and py is not None and cpp.start() < py.start()
    assert translate(cpp.group(1), "hardswish.cpp").python == py.group(1)


def test_the_console_script_is_declared() -> None:
    text = (ROOT / "pyproject.toml").read_text()
    scripts = text.split("[project.scripts]", 1)[1].split("\n[", 1)[0]
    assert 'aclnn-port = "aclnn_py.port.cli:main"' in scripts
    extras = dict(re.findall(r"^(\w+) = \[(.*)\]$", text.split("[project.optional-dependencies]", 1)[1], re.M))
    for dep in ("tree-sitter>", "tree-sitter-cpp>"):
        assert f'"{dep}' in extras["port"] and f'"{dep}' in extras["test"]


def test_the_package_imports_without_the_parser() -> None:
    code = (
        "import sys\n"
        "sys.modules['tree_sitter'] = None\n"
        "sys.modules['tree_sitter_cpp'] = None\n"
        "import aclnn_py, aclnn_py.port\n"
        "from aclnn_py.port import ParserUnavailable, translate\n"
        "try:\n"
        "    translate('int main() { return 0; }')\n"
        "except ParserUnavailable as e:\n"
        "    print(e)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=_env())
    assert done.returncode == 0, done.stderr
    assert "pip install tree-sitter 'tree-sitter-cpp<0.24'" in done.stdout and "pip install -e '.[port]'" in done.stdout


# ---------------------------------------------------------------------------------------------
# what aclnn_py exports, the tool knows
# ---------------------------------------------------------------------------------------------


def _declarations(text: str) -> dict[str, str]:
    text = re.sub(r"/\*.*?\*/|//[^\n]*", "", text, flags=re.S)
    text = text.replace("ACL_FUNC_VISIBILITY", "")
    found = {}
    for m in re.finditer(r"([A-Za-z_][\w \t\*]*?\b(acl\w+)\s*\([^;{}()]*\)\s*);", text):
        found[m.group(2)] = " ".join(m.group(1).replace("*", " * ").split()).replace("( ", "(")
    return found


def test_the_prototypes_are_the_c_abis() -> None:
    from aclnn_py.port import prototypes

    ours = _declarations(prototypes.HEADERS + prototypes.MORE)
    theirs: dict[str, str] = {}
    for header in [*(CAPI / "include" / "acl").glob("*.h"), CAPI / "include" / "acl" / "ops" / "acl_dvpp.h"]:
        theirs.update(_declarations(header.read_text()))
    theirs.update(_declarations((CAPI / "include" / "aclnn" / "acl_meta.h").read_text()))
    assert ours and ours == theirs


def test_the_tool_knows_every_exported_function_with_its_python_arity() -> None:
    import inspect

    import aclnn_py
    from aclnn_py.ops import registry
    from aclnn_py.port.known import known

    k = known()
    for name in aclnn_py.__all__:
        obj = getattr(aclnn_py, name)
        if isinstance(obj, type) or not callable(obj):
            continue
        assert name in k.functions, f"{name}: no C prototype in aclnn_py/port/prototypes.py"
        params = inspect.signature(obj).parameters
        fixed = [p for p in params.values() if p.kind is not p.VAR_POSITIONAL]  # C's "..." is *args
        assert len(k.functions[name].params) == len(fixed), name
        assert k.functions[name].variadic == (len(fixed) < len(params)), name
    for api in registry.IMPLEMENTED:
        assert len(k.functions[api.phase1].params) == len(api.params) + 2
        assert len(k.functions[api.name].params) == 4


# ---------------------------------------------------------------------------------------------
# C's arithmetic, conversions, loops and printf, against g++
# ---------------------------------------------------------------------------------------------

CONSTRUCTS = r"""// Constructs whose Python reading could differ from C's: each line prints what C computes.
#include <cmath>
#include <cstdio>
#include <type_traits>
#include <vector>
#include "acl/acl.h"

#define CHECK(cond, expr) do { if (!(cond)) { expr; } } while (0)
#define SQUARE(x) ((x) * (x))
#define COUNT 5
#define SAY(fmt, ...) printf(fmt, ##__VA_ARGS__)

const std::vector<int64_t> kDims = {2, 3};
int g_calls = 0;

int Bump(int by) {
  g_calls += by;
  return g_calls;
}

template <typename T>
T Sum(const std::vector<T>& v) {
  T total = 0;
  for (auto x : v) {
    total += x;
  }
  return total;
}

template <typename T>
void Show(const char* label, int64_t n) {
  std::vector<T> data(n, 1);
  printf("%s %d %zu %g\n", label, std::is_integral<T>::value ? 1 : 0, sizeof(T) * data.size(),
         static_cast<double>(data[n - 1]));
}

void Fill(int32_t* out, double value) { *out = static_cast<int32_t>(value); }

int main() {
  // float arithmetic stays in float; a double operand makes it double
  float a = 0.1f;
  float b = a * 3.0f + 1;
  double c = a * 3.0;
  printf("%.10f %.10f %.10f\n", a, b, c);
  float third = 1.0f / 3;
  double dthird = 1.0 / 3;
  printf("%.9g %.17g\n", third, dthird);
  float big_f = 16777217;
  printf("%.1f %.8g\n", big_f, 1.1f);
  // unsigned arithmetic wraps where C sees the unsigned value
  uint64_t big = 3;
  uint64_t under = big - 5;
  printf("%llu\n", (unsigned long long)under);
  int64_t back = big - 5;
  printf("%ld\n", back);
  uint32_t u32 = 7;
  printf("%u %d\n", u32 - 8, u32 - 8 > 0);
  // narrowing and explicit casts
  int8_t small = static_cast<int8_t>(300);
  int64_t wide = 70000;
  int16_t mid = static_cast<int16_t>(wide);
  uint8_t byte = static_cast<uint8_t>(-1);
  printf("%d %d %d %d\n", small, mid, byte, static_cast<int>(-2.7));
  size_t q = 17 / 5;
  printf("%zu %zu %d\n", q, sizeof(double), 17 % 5);
  int64_t m = -7, d = 2;
  printf("%ld %ld %ld %ld %d\n", m / d, m % d, m / -d, m % -d, -7 / 2);
  // loops
  int total = 0;
  for (int i = 0; i < COUNT; ++i) {
    total += i;
  }
  for (int i = 10; i > 0; i -= 3) total += i;
  for (int64_t i = static_cast<int64_t>(kDims.size()) - 3; i >= 0; i--) total += 100;
  int k = 0;
  while (k < 3) {
    k++;
  }
  do {
    k += 10;
  } while (k < 30);
  for (int j = 0; j * j < 20; j++) k += 1;
  printf("%d %d\n", total, k);
  // vectors, templates, out-parameters
  std::vector<float> v = {1.5f, 2.25f, -0.125f};
  std::vector<double> dv(3, 0.5);
  std::vector<int32_t> iv = {1, -2, 3};
  printf("%g %g %d\n", Sum(v), Sum(dv), Sum(iv));
  Show<float>("float", 4);
  Show<int8_t>("int8", 4);
  int32_t filled = 0;
  Fill(&filled, -2.7);
  int first = Bump(2);
  int second = Bump(3);
  printf("%d %d %d %d\n", filled, first, second, g_calls);
  std::vector<int64_t> copy = kDims;
  copy[0] = 7;
  printf("%ld %ld %zu\n", kDims[0], copy[0], copy.size());
  std::vector<int8_t> bytes = {100, 100, -128};
  int sum8 = bytes[0] + bytes[1];
  int neg = -bytes[2];
  int64_t acc = 0;
  for (auto e : bytes) acc += e * 1000;
  printf("%d %d %ld\n", sum8, neg, acc);
  // conditions and strings
  const char* word = total > 10 ? "big" : "small";
  bool both = total > 0 && k > 0;
  int either = total < 0 || k > 0;
  printf("%s %d %d %d\n", word, both, !both, either);
  printf("%d %x %o %5.2f|%-6s|%c|%e\n", -5, 255, 8, 3.14159, "ab", 'z', 12345.678);
  printf("%d\n", SQUARE(total - 1));
  SAY("%s\n", "via an alias macro");
  double nanv = NAN;
  printf("%f %f %f\n", nanv, -nanv, INFINITY);
  void* none = nullptr;
  printf("%d %d\n", none == nullptr, !none);
  CHECK(k == 34, printf("k is %d\n", k); return 3);
  return 0;
}
"""
CONSTRUCTS_OUT = """0.1000000015 1.2999999523 0.3000000045
0.333333343 0.33333333333333331
16777216.0 1.1
18446744073709551614
-2
4294967295 1
44 4464 255 -2
3 8 2
-3 -1 3 -1 -3
32 38
3.625 1.5 2
float 0 16 1
int8 1 4 1
-2 2 5 5
2 7 2
200 128 72000
big 1 0 1
-5 ff 10  3.14|ab    |z|1.234568e+04
961
via an alias macro
nan -nan inf
1 1
k is 38
"""


def test_cs_arithmetic_conversions_loops_and_printf_survive_the_port(tmp_path) -> None:
    port = translate(CONSTRUCTS, "constructs.cpp")
    assert port.ok, port.refusals
    runs_as_the_program(tmp_path, "constructs", CONSTRUCTS, port.python, CONSTRUCTS_OUT, code=3)


# ---------------------------------------------------------------------------------------------
# plain data structs and reference parameters, against g++
# ---------------------------------------------------------------------------------------------

STRUCTS = r"""// Plain data structs and reference parameters: each line prints what C computes.
#include <cstdio>
#include <vector>
#include "acl/acl.h"

struct Config {
  std::vector<int64_t> shape = {2, 3};
  float scale = 0.5f;  // a float member stays a float
  int32_t count{4};
  uint64_t size = 0;

  std::vector<float> data;
  const char* label = "cfg";
};

void Fill(int32_t* out, int32_t value) { *out = value; }

void Twice(int64_t& v) { v *= 2; }

void Bump(uint64_t& size, int64_t by) { size += by; }

void Forward(uint64_t& size) { Bump(size, 100); }

void Put(int32_t* out) { Fill(&(*out), 9); }

int32_t Via(int32_t x) {
  Fill(&x, x + 1);
  return x;
}

void Grow(Config& c) {
  c.count += 1;
  c.shape[0] = 7;
  Fill(&c.count, c.count * 10);
  Bump(c.size, 3);
  c.scale = c.scale * 3;
}

void Show(const Config& c) {
  printf("%s %ld %ld %.9g %d %lu %zu\n", c.label, c.shape[0], c.shape[1], c.scale, c.count, c.size, c.data.size());
}

int main() {
  Config a;
  Config b{};
  const Config& r = a;
  Grow(a);
  Show(r);
  Show(b);
  int64_t n = 5;
  Twice(n);
  uint64_t total = 1;
  Bump(total, n);
  Forward(total);
  int32_t put = 0;
  Put(&put);
  printf("%ld %lu %d %d\n", n, total, Via(41), put);
  return 0;
}
"""
STRUCTS_OUT = """cfg 7 3 1.5 50 3 0
cfg 2 3 0.5 4 0 0
10 111 42 9
"""


def test_plain_structs_and_reference_parameters_survive_the_port(tmp_path) -> None:
    """A struct of default-initialized members is a class setting them in ``__init__`` (a member whose
    address is taken is a Ref); a reference parameter the callee writes takes the caller's Ref; a
    by-value parameter whose address is taken is wrapped in a Ref; ``&*p`` is ``p``."""
    port = translate(STRUCTS, "structs.cpp")
    assert port.ok, port.refusals
    assert "class Config:  # struct Config\n    def __init__(self):\n        self.shape = [2, 3]\n" in port.python
    assert "        self.count = Ref(4)\n        self.size = Ref(0)\n" in port.python
    assert "def Twice(v):\n    v.value *= 2\n" in port.python
    assert "    x = Ref(x)  # its address is taken\n" in port.python
    assert "    a = Config()\n    b = Config()\n    r = a\n" in port.python
    runs_as_the_program(tmp_path, "structs", STRUCTS, port.python, STRUCTS_OUT)


def test_a_chain_of_reference_parameters_settles(tmp_path) -> None:
    """Each pass learns one more caller of a written reference parameter: ten nested ones still end
    with main's variable held in a Ref and written."""
    chain = "".join(f"void f{i}(int64_t& v) {{ f{i - 1}(v); }}\n" for i in range(1, 10))
    src = PRELUDE + "void f0(int64_t& v) { v = 7; }\n" + chain
    src += 'int main() {\n  int64_t n = 0;\n  f9(n);\n  printf("%ld\\n", n);\n  return 0;\n}\n'
    port = translate(src, "chain.cpp")
    assert port.ok, port.refusals
    assert "    n = Ref(0)\n    f9(n)\n" in port.python
    path = tmp_path / "chain.py"
    path.write_text(port.python)
    run = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, env=_env())
    assert (run.returncode, run.stdout, run.stderr) == (0, "7\n", "")


def test_a_document_whose_fence_closes_on_the_programs_last_line_gives_the_program_only() -> None:
    """CANN's Ne documents end their program with ``}```: not a fence line, so the program is
    taken unfenced; the closing fence and the prose after it are not C++."""
    doc = "Example:\n\n```Cpp\n#include <cstdio>\nint main() {\n  return 0;\n}```\n\nMore prose.\n"
    assert extract_program(doc) == "#include <cstdio>\nint main() {\n  return 0;\n}\n"
    port = translate(extract_program(doc) or "", "doc.cpp")
    assert port.ok


# ---------------------------------------------------------------------------------------------
# RAII: std::unique_ptr and std::shared_ptr deleters, against g++
# ---------------------------------------------------------------------------------------------

RAII = r"""// RAII: each deleter prints its name; C++ destroys a block's objects at its end, the last declared
// first, on every way out of it.
#include <cstdio>
#include <memory>
#include <vector>
#include "acl/acl.h"

std::vector<int32_t> cells = {0, 1, 2, 3, 4, 5, 6, 7};
int g_deleted = 0;

void Delete(const char* name) {
  g_deleted += 1;
  printf("%s (%d)\n", name, g_deleted);
}
void FreeA(void* p) { Delete("FreeA"); }
void FreeB(void* p) { Delete("FreeB"); }
void FreeC(void* p) { Delete("FreeC"); }
void FreeD(void* p) { Delete("FreeD"); }

using APtr = std::unique_ptr<void, decltype(&FreeA)>;

struct Holder {
  int64_t id = 7;
  APtr first{nullptr, &FreeA};
  APtr second{nullptr, &FreeB};
};

int Fill(Holder& h, int stop) {
  h.first.reset(&cells[1]);
  if (stop == 1) {
    return 1;
  }
  h.second.reset(&cells[2]);
  return 0;
}

int Scoped(int stop) {
  Holder h;
  APtr local(&cells[3], &FreeC);
  printf("scoped %d\n", stop);
  if (Fill(h, stop) != 0) {
    printf("early return\n");
    return 1;
  }
  printf("end of Scoped\n");
  return 0;
}

int main() {
  int step = 0;
  int64_t size = 3;
  std::vector<float> zeros(size);
  std::shared_ptr<void> guard(nullptr, [&](void* p) {
    printf("guard at step %d, %d\n", step, p == nullptr);
  });
  APtr a(nullptr, &FreeA);
  a.reset(&cells[4]);  // nothing to delete before
  printf("reset %zu %g\n", zeros.size(), zeros[2]);
  a.reset(&cells[5]);  // deletes the first
  step = 1;
  Scoped(1);
  Scoped(0);
  for (int i = 0; i < 2; i++) {
    APtr each(&cells[6], &FreeD);
    printf("loop %d\n", i);
  }
  void* kept = a.release();
  APtr b(kept, &FreeA);
  printf("owned %d\n", b.get() != nullptr);
  step = 2;
  return 0;
}
"""
RAII_OUT = """reset 3 0
FreeA (1)
scoped 1
early return
FreeC (2)
FreeA (3)
scoped 0
end of Scoped
FreeC (4)
FreeB (5)
FreeA (6)
loop 0
FreeD (7)
loop 1
FreeD (8)
owned 1
FreeA (9)
guard at step 2, 1
"""


def test_raii_deleters_run_where_cpp_destroys_the_objects(tmp_path) -> None:
    """A block declaring smart pointers runs in a contextlib.ExitStack that destroys them at its end, on
    every way out, the last first (a loop body's at each turn); a struct holding them is an ExitStack
    of its members; ``reset`` deletes the old pointer, ``release`` gives it up; a shared_ptr's lambda
    deleter is a nested function that reads what it captures at exit and runs for a null pointer;
    ``std::vector<float> zeros(size);`` is a vector of ``size`` elements."""
    port = translate(RAII, "raii.cpp")
    assert port.ok, port.refusals
    assert "from aclnn_py.raii import shared_ptr, unique_ptr" in port.python
    assert (
        "class Holder(contextlib.ExitStack):  # struct Holder: destroys its smart pointers\n"
        "    def __init__(self):\n        super().__init__()\n        self.id = 7\n"
        "        self.first = self.enter_context(unique_ptr(None, FreeA))\n"
    ) in port.python
    assert "    with contextlib.ExitStack() as scope:  # destroys what it holds" in port.python
    assert "        h = scope.enter_context(Holder())\n" in port.python
    assert "    zeros = np.zeros(size, dtype=np.float32)\n" in port.python
    assert (
        "        def guard_deleter(p):  # [&](void* p): reads what it captures when it runs\n"
        '            printf("guard at step %d, %d\\n", step, p is None)\n'
        "        guard = scope.enter_context(shared_ptr(None, guard_deleter))\n"
        "        a = scope.enter_context(unique_ptr(None, FreeA))\n"
    ) in port.python
    assert (
        "            with contextlib.ExitStack() as scope2:  # destroys what it holds at the end of the block, "
        "last first, as C++ does\n                each = scope2.enter_context(unique_ptr(cells[6:], FreeD))\n"
    ) in port.python
    runs_as_the_program(tmp_path, "raii", RAII, port.python, RAII_OUT)


def test_a_plain_struct_keeps_its_member_names() -> None:
    """Only a struct holding smart pointers derives from contextlib.ExitStack, so only its
    members are renamed away from ExitStack's names (``close`` -> ``close_``)."""
    src = "#include <cstdio>\nstruct Plain { int close = 1; int callback = 2; };\n" + (
        'int main() { Plain p; printf("%d %d\\n", p.close, p.callback); return 0; }\n'
    )
    python = translate(src, "plain.cpp").python
    assert "self.close = 1" in python and "p.callback" in python and "close_" not in python
