"""``import aclnn_py`` loads only what every program needs (issue 19, item 3).

The rarely used runtime chapters load when one of their names is first used
(:data:`aclnn_py.runtime.api.LAZY`, PEP 562, generated into ``runtime/_lazy_index``). Each
chapter lists its C names once, in its ``__all__``; these tests hold the chapters' ``__all__``
against what they define, the generated index against the chapters and api.py's imports (eager
ones at its top, lazy ones as star imports in its ``TYPE_CHECKING`` block), and api.py's
``__all__`` against both, so a function added to a chapter cannot be left out of ``from aclnn_py
import *``, ``dir()``, the type checker's view or the C ABI; and they check in fresh processes
what ``import aclnn_py`` loads.
"""

from __future__ import annotations

import ast
import importlib
import json
import re
import shutil
import subprocess
import sys
import types
from pathlib import Path

import pytest

import aclnn_py
from aclnn_py.runtime import api

RUNTIME = Path(api.__file__).parent
PREFIXES = ("acl", "ACL")


def _fresh(code: str) -> str:
    """Run ``code`` in a fresh interpreter and return what it prints."""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120)
    return done.stdout


def _api_tree() -> ast.Module:
    return ast.parse((RUNTIME / "api.py").read_text())


def _chapter_imports(body: list[ast.stmt]) -> dict[str, list[str]]:
    """api.py's ``from .chapter import ...`` statements among ``body``: chapter -> the names each
    binds (a star import binds the chapter's ``__all__``)."""
    found: dict[str, list[str]] = {}
    for node in body:
        if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module:
            names = [a.asname or a.name for a in node.names]
            if names == ["*"]:
                names = list(importlib.import_module(f"aclnn_py.runtime.{node.module}").__all__)
            found.setdefault(node.module, []).extend(names)
    return found


def _type_checking_block() -> list[ast.stmt]:
    """The body of api.py's ``if TYPE_CHECKING:`` block."""
    blocks = [
        node.body
        for node in _api_tree().body
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"
    ]
    assert len(blocks) == 1
    return blocks[0]


def _eager_imports() -> dict[str, list[str]]:
    """api.py's top-level ``from .chapter import``: chapter -> the names it binds."""
    return _chapter_imports(_api_tree().body)


def _defined(module: str) -> set[str]:
    """The names a chapter file binds at its top level by itself (not by importing them)."""
    tree = ast.parse((RUNTIME / f"{module}.py").read_text())
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        targets = (
            node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        )
        for target in targets:
            names.update(n.id for n in ast.walk(target) if isinstance(n, ast.Name))
    return names


def _own_all(module: str) -> list[str] | None:
    for node in ast.parse((RUNTIME / f"{module}.py").read_text()).body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            return list(ast.literal_eval(node.value))
    return None


# What a chapter's __all__ may hold: C names (functions, types, #define constants), never helpers.
C_NAME = re.compile(r"(acl|ACL_|Msprof)[A-Za-z0-9_]*|[A-Z][A-Z0-9_]*")


def test_type_checking_block_star_imports_each_lazy_chapter() -> None:
    """The ``if TYPE_CHECKING:`` block is one ``from .chapter import *`` per lazy chapter (what type
    checkers see: the chapter's ``__all__``), and the generated LAZY gives exactly those names."""
    block = _type_checking_block()
    for node in block:
        assert isinstance(node, ast.ImportFrom) and node.level == 1, ast.dump(node)
        assert [a.name for a in node.names] == ["*"], f"{node.module}: a star import, the chapter's __all__"
    typed = _chapter_imports(block)
    assert set(typed) == set(api.LAZY_CHAPTERS)
    for module, names in api.LAZY_CHAPTERS.items():
        assert sorted(typed[module]) == sorted(names), module
    assert len(api.LAZY) == sum(len(names) for names in typed.values())


def test_the_generated_index_is_current() -> None:
    """``aclnn_py/runtime/_lazy_index/__init__.py`` is what ``python -m aclnn_py.runtime._lazy_index``
    writes from api.py's imports and the chapters' ``__all__`` (run it after listing a new name)."""
    from aclnn_py.runtime import _lazy_index
    from aclnn_py.runtime._lazy_index import __main__ as generator

    text = generator.INDEX.read_text(encoding="utf-8")
    assert generator.regenerated(text) == text, "stale: run `python -m aclnn_py.runtime._lazy_index`"
    eager, lazy = generator.chapters()
    assert eager == _lazy_index.EAGER and lazy == _lazy_index.LAZY and api.LAZY is _lazy_index.LAZY


def test_a_name_listed_in_a_chapter_reaches_the_index(monkeypatch: pytest.MonkeyPatch) -> None:
    """The one step for a new function: list it in its chapter's ``__all__``. Until the index is
    regenerated it is stale (the test above fails); regenerated, the name is in LAZY (a lazy
    chapter) or EAGER (a chapter loaded with the package), and nowhere else."""
    from aclnn_py.runtime import api_label, api_memset
    from aclnn_py.runtime._lazy_index import __main__ as generator

    text = generator.INDEX.read_text(encoding="utf-8")
    monkeypatch.setattr(api_label, "__all__", [*api_label.__all__, "aclrtNewLabelCall"])
    monkeypatch.setattr(api_memset, "__all__", [*api_memset.__all__, "aclrtNewMemsetCall"])
    new = generator.regenerated(text)
    assert new != text
    eager, lazy = generator.chapters()
    assert lazy["aclrtNewLabelCall"] == "api_label" and "aclrtNewLabelCall" not in eager
    assert eager["aclrtNewMemsetCall"] == "api_memset" and "aclrtNewMemsetCall" not in lazy
    added = set(new.splitlines()) - set(text.splitlines())
    assert added == {'    "aclrtNewLabelCall": "api_label",', '    "aclrtNewMemsetCall": "api_memset",'}


def test_the_generator_refuses_a_chapter_without_all(monkeypatch: pytest.MonkeyPatch) -> None:
    """A star-imported chapter without ``__all__`` stops the generator with the file to fix; a
    statement other than a chapter import in the TYPE_CHECKING block too."""
    from aclnn_py.runtime._lazy_index import __main__ as generator

    monkeypatch.setitem(sys.modules, "aclnn_py.runtime.api_new", types.ModuleType("aclnn_py.runtime.api_new"))
    with pytest.raises(SystemExit, match=r"aclnn_py/runtime/api_new.py has no __all__"):
        generator.chapter_names(ast.parse("from .api_new import *").body[0])
    with pytest.raises(SystemExit, match=re.escape("only `from .chapter import ...` belongs here")):
        generator.chapter_names(ast.parse("import os").body[0])
    named = generator.chapter_names(ast.parse("from .api_new import x as y, z").body[0])
    assert named == {"y": "api_new", "z": "api_new"}


def test_no_lazy_chapter_is_imported_eagerly() -> None:
    assert not set(_eager_imports()) & set(api.LAZY_CHAPTERS)


def test_all_is_exactly_the_eager_and_the_lazy_names() -> None:
    eager = {n for names in _eager_imports().values() for n in names}
    assert len(api.__all__) == len(set(api.__all__))
    assert set(api.__all__) == eager | set(api.LAZY)
    assert not eager & set(api.LAZY)
    for name, module in _eager_imports_by_name().items():
        assert getattr(api, name) is getattr(importlib.import_module(f"aclnn_py.runtime.{module}"), name), name


def _eager_imports_by_name() -> dict[str, str]:
    return {name: module for module, names in _eager_imports().items() for name in names}


def test_every_chapter_file_is_reexported() -> None:
    """Every ``api_*.py`` is an eager import or a lazy chapter; each chapter's ``__all__`` lists
    exactly C names it defines itself (no helpers, no repeats), among them every ``acl*``
    function and type it defines, so a new one cannot be left out of the package."""
    wired = set(_eager_imports()) | set(api.LAZY_CHAPTERS)
    chapters = sorted(p.stem for p in RUNTIME.glob("api_*.py"))
    assert chapters and set(chapters) <= wired
    exported = set(api.__all__)
    for module in wired:
        own = _own_all(module)
        if own is None:  # a chapter re-exported name by name (tests below name the one left)
            assert module in _explicit_eager_imports(), f"{module} has no __all__"
            continue
        assert len(own) == len(set(own)), module
        assert own == list(importlib.import_module(f"aclnn_py.runtime.{module}").__all__), module
        helpers = [n for n in own if not C_NAME.fullmatch(n)]
        assert not helpers, f"{module}.__all__ lists helpers {helpers}: only C names belong there"
        foreign = set(own) - _defined(module)
        assert not foreign, f"{module}.__all__ lists {sorted(foreign)}, which it does not define"
        tree = ast.parse((RUNTIME / f"{module}.py").read_text())
        functions = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
        missing = {n for n in functions if re.match(r"acl[A-Za-z]", n)} - set(own)
        assert not missing, f"{module} defines {sorted(missing)} but its __all__ does not list them"
        assert set(own) <= exported, module


def _explicit_eager_imports() -> set[str]:
    """The eager chapters api.py imports name by name (their files have no ``__all__`` yet)."""
    return {
        node.module
        for node in _api_tree().body
        if isinstance(node, ast.ImportFrom)
        and node.level == 1
        and node.module
        and [a.name for a in node.names] != ["*"]
    }


def test_explicit_eager_imports_reexport_each_name_as_itself() -> None:
    """A chapter api.py still imports name by name re-exports each ``as`` itself (else type
    checkers' ``from aclnn_py import *`` would not see it), and defines every ``acl*`` function
    and type it gives, all of them listed."""
    for node in _api_tree().body:
        if (
            isinstance(node, ast.ImportFrom)
            and node.level == 1
            and node.module
            and [a.name for a in node.names] != ["*"]
        ):
            assert all(a.asname == a.name for a in node.names), node.module
            names = {a.name for a in node.names}
            tree = ast.parse((RUNTIME / f"{node.module}.py").read_text())
            functions = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
            assert {n for n in functions if re.match(r"acl[A-Za-z]", n)} == names, node.module


def test_lazy_names_resolve_to_the_chapters_objects() -> None:
    for name, module in api.LAZY.items():
        chapter = importlib.import_module(f"aclnn_py.runtime.{module}")
        assert getattr(api, name) is getattr(chapter, name), name
        assert getattr(aclnn_py, name) is getattr(chapter, name), name


def test_unknown_names_raise_attribute_error() -> None:
    with pytest.raises(AttributeError, match="aclrtNoSuchFunction"):
        _ = api.aclrtNoSuchFunction
    with pytest.raises(AttributeError, match="aclrtNoSuchFunction"):
        _ = aclnn_py.aclrtNoSuchFunction


def test_dir_and_all_list_the_lazy_names() -> None:
    lazy_c_names = {n for n in api.LAZY if n.startswith(PREFIXES)}
    assert lazy_c_names
    assert set(api.LAZY) <= set(dir(api))
    assert lazy_c_names <= set(dir(aclnn_py))
    assert lazy_c_names <= set(aclnn_py.__all__)
    assert {n for n in api.__all__ if n.startswith(PREFIXES)} <= set(aclnn_py.__all__)


def test_import_loads_no_lazy_chapter() -> None:
    """A fresh ``import aclnn_py`` leaves every lazy chapter (and numba) unloaded."""
    out = _fresh("import json, sys\nimport aclnn_py\nprint(json.dumps(sorted(sys.modules)))")
    loaded = set(json.loads(out))
    lazy = {f"aclnn_py.runtime.{m}" for m in api.LAZY_CHAPTERS}
    assert not loaded & lazy, sorted(loaded & lazy)
    assert "numba" not in loaded


def test_first_use_loads_only_its_chapter() -> None:
    out = _fresh(
        "import json, sys\nimport aclnn_py\nf = aclnn_py.aclrtCreateLabel\n"
        "print(json.dumps([f.__module__, sorted(m for m in sys.modules if m.startswith('aclnn_py.runtime.api_'))]))"
    )
    module, loaded = json.loads(out)
    assert module == "aclnn_py.runtime.api_label"
    lazy_loaded = {m.rpartition(".")[2] for m in loaded} & set(api.LAZY_CHAPTERS)
    assert lazy_loaded == {"api_label"}


def test_star_import_gives_every_name() -> None:
    out = _fresh(
        "import json\nimport aclnn_py\nns = {}\nexec('from aclnn_py import *', ns)\n"
        "print(json.dumps([sorted(aclnn_py.__all__), sorted(n for n in ns if n != '__builtins__')]))"
    )
    names, bound = json.loads(out)
    assert names == bound
    assert set(api.LAZY) & set(bound) == {n for n in api.LAZY if n.startswith(PREFIXES)}


USER_PROGRAM = """\
from aclnn_py import (
    ACL_FLOAT,
    ACL_FORMAT_ND,
    ACL_MEM_MALLOC_HUGE_FIRST,
    ACL_SUCCESS,
    Ref,
    aclCreateScalar,
    aclCreateTensor,
    aclFinalize,
    aclInit,
    aclnnAdd,
    aclnnAddGetWorkspaceSize,
    aclOpExecutor,
    aclrtCreateLabel,
    aclrtCreateStream,
    aclrtDestroyLabel,
    aclrtMalloc,
    aclrtSetDevice,
    aclrtSynchronizeStream,
)


def main() -> None:
    assert aclInit(None) == ACL_SUCCESS and aclrtSetDevice(0) == ACL_SUCCESS
    stream: Ref[object] = Ref()
    addr: Ref[int | None] = Ref()
    assert aclrtCreateStream(stream) == ACL_SUCCESS
    assert aclrtMalloc(addr, 16, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS
    t = aclCreateTensor([4], 1, ACL_FLOAT, [1], 0, ACL_FORMAT_ND, [4], 1, addr.value)
    alpha = aclCreateScalar(1.0, ACL_FLOAT)
    size: Ref[int] = Ref(0)
    executor: Ref[aclOpExecutor | None] = Ref()
    assert aclnnAddGetWorkspaceSize(t, t, alpha, t, size, executor) == ACL_SUCCESS
    assert aclnnAdd(None, size.value, executor.value, stream.value) == ACL_SUCCESS
    assert aclrtSynchronizeStream(stream.value) == ACL_SUCCESS
    label: Ref[object] = Ref()
    assert aclrtCreateLabel(label) == ACL_SUCCESS and aclrtDestroyLabel(label.value) == ACL_SUCCESS
    assert aclFinalize() == ACL_SUCCESS
    print("ran")


def wrong() -> int:
    return aclnnAdd(None, 0, None)  # phase 2 without its stream


if __name__ == "__main__":
    main()
"""


STAR_PROGRAM = """\
from aclnn_py import *


def phase1() -> int:
    t = aclCreateTensor([4], 1, ACL_FLOAT, [1], 0, ACL_FORMAT_ND, [4], 1, None)
    size: Ref[int] = Ref(0)
    executor: Ref[aclOpExecutor | None] = Ref()
    return aclnnMulGetWorkspaceSize(t, t, t, size, executor) + aclInit(None) + ACL_SUCCESS


def wrong() -> int:
    return aclrtCreateLabel()  # no out-parameter


reveal_type(ACL_FLOAT)
reveal_type(ACL_MEM_MALLOC_HUGE_FIRST)
"""


@pytest.mark.skipif(shutil.which("mypy", path=str(Path(sys.executable).parent)) is None, reason="mypy not installed")
def test_mypy_strict_checks_a_user_program(tmp_path: Path) -> None:
    """Under ``mypy --strict`` a user program imports from ``aclnn_py`` the eager names (``Ref``,
    ``aclCreateTensor``), an operator API and a lazily loaded runtime function with their real
    signatures, and enum constants: its one wrong call is the one error. The program runs too."""
    user = tmp_path / "user.py"
    user.write_text(USER_PROGRAM + "reveal_type(aclnnAddGetWorkspaceSize)\nreveal_type(aclrtCreateLabel)\n")
    star = tmp_path / "star.py"  # `from aclnn_py import *`: the type checker sees every name too
    star.write_text(STAR_PROGRAM)
    mypy = str(Path(sys.executable).parent / "mypy")
    root = Path(aclnn_py.__file__).parent.parent
    done = subprocess.run(
        [mypy, "--strict", "--no-error-summary", str(user), str(star)],
        capture_output=True,
        text=True,
        cwd=root,
        timeout=600,
    )
    lines = done.stdout.splitlines()
    errors = [line for line in lines if "error:" in line]
    assert len(errors) == 2, done.stdout
    wrong_line = USER_PROGRAM.splitlines().index("    return aclnnAdd(None, 0, None)  # phase 2 without its stream") + 1
    assert any(f"user.py:{wrong_line}: error: Too few arguments" in e for e in errors), done.stdout
    wrong_line = STAR_PROGRAM.splitlines().index("    return aclrtCreateLabel()  # no out-parameter") + 1
    assert any(f'star.py:{wrong_line}: error: Missing positional argument "label"' in e for e in errors), done.stdout
    assert any('star.py:15: note: Revealed type is "aclnn_py.dtypes.aclDataType"' in line for line in lines)
    assert any(
        'star.py:16: note: Revealed type is "aclnn_py.runtime.enums.aclrtMemMallocPolicy"' in line for line in lines
    )
    assert any('Revealed type is "def (self: aclnn_py.tensor.aclTensor | None, other: ' in line for line in lines)
    assert any('Revealed type is "def (label: object) -> int"' in line for line in lines)
    ran = subprocess.run([sys.executable, str(user)], capture_output=True, text=True, cwd=root, timeout=120)
    assert ran.returncode != 0 and "reveal_type" in ran.stderr  # reveal_type is for mypy only
    user.write_text(USER_PROGRAM)
    ran = subprocess.run([sys.executable, str(user)], capture_output=True, text=True, cwd=root, timeout=120)
    assert ran.stdout == "ran\n", ran.stderr


def test_typed_operator_exports_are_the_registrys() -> None:
    """``aclnn_py/ops/_typed.py`` (what a type checker sees of the operators) re-exports exactly the
    registry's C functions, each from its own module and ``as`` itself; it is never imported at run time."""
    from aclnn_py.ops import registry

    found: dict[str, str] = {}
    for node in ast.parse((RUNTIME.parent / "ops" / "_typed.py").read_text()).body:
        if isinstance(node, ast.ImportFrom):
            assert node.level == 1 and node.module
            for alias in node.names:
                assert alias.asname == alias.name, alias.name
                found[alias.name] = f"aclnn_py.ops.{node.module}"
    missing = sorted(
        f"from .{m.removeprefix('aclnn_py.ops.')} import {n} as {n}"
        for n, m in registry.EXPORTS.items()
        if found.get(n) != m
    )
    assert not missing, "aclnn_py/ops/_typed.py lacks:\n" + "\n".join(missing)
    assert set(found) == set(registry.EXPORTS), sorted(set(found) - set(registry.EXPORTS))
    out = _fresh("import json, sys\nimport aclnn_py\nprint(json.dumps([m for m in sys.modules if '_typed' in m]))")
    assert json.loads(out) == []


def test_typed_constants_are_the_enums_members() -> None:
    """``aclnn_py/_typed_constants.py`` declares each enum member's module constant with its enum
    (``python -m aclnn_py._typed_constants`` regenerates it), importing each enum from its module."""
    declared: dict[str, str] = {}
    imported: dict[str, str] = {}
    for node in ast.parse((RUNTIME.parent / "_typed_constants.py").read_text()).body:
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            assert node.value is None and isinstance(node.annotation, ast.Name)
            declared[node.target.id] = node.annotation.id
        elif isinstance(node, ast.ImportFrom) and node.module != "__future__":
            imported.update({a.name: f"aclnn_py.{node.module}" for a in node.names})
    wanted = {name: type(member).__name__ for name, member in aclnn_py._constants.items()}
    assert declared == wanted, "stale: run `python -m aclnn_py._typed_constants`, then ruff check --fix and ruff format"
    assert imported == {e.__name__: e.__module__ for e in aclnn_py._ENUMS}


def _constants(module: str) -> dict[str, int]:
    """A chapter's module-level C constants (``ACL_X = 64``: acl_rt.h's and the other headers'
    ``#define``s) with their values."""
    tree = ast.parse((RUNTIME / f"{module}.py").read_text())
    found: list[str] = []
    for node in tree.body:
        targets = (
            node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        )
        found += [t.id for t in targets if isinstance(t, ast.Name) and re.fullmatch(r"ACL(NN)?_[A-Z0-9_]+", t.id)]
    chapter = importlib.import_module(f"aclnn_py.runtime.{module}")
    return {name: getattr(chapter, name) for name in found}


def test_every_chapter_constant_is_exported() -> None:
    """Each ``ACL_``/``ACLNN_`` constant a chapter defines is in its ``__all__`` and in ``from
    aclnn_py import *``. The one exception: a chapter's local copy of a constant the package already
    gives from elsewhere with the same value, which its ``__all__`` leaves out: one of
    :mod:`aclnn_py.runtime.enums`' (``api_device_query``'s ``ACL_RT_DEVS_TOPOLOGY_HCCS``), an enum
    member's (``api_log``'s ``ACL_DEBUG``) or another chapter's (``api_dump``'s
    ``ACL_OP_DUMP_OP_AICORE_ARGS``, api_dump_args')."""
    from aclnn_py.runtime import _lazy_index, enums

    chapter_of = {**_lazy_index.EAGER, **_lazy_index.LAZY}
    checked = copies = 0
    for path in sorted(RUNTIME.glob("api_*.py")):
        own = _own_all(path.stem)
        for name, value in _constants(path.stem).items():
            checked += 1
            assert name in aclnn_py.__all__, f"{path.stem} defines {name} but `from aclnn_py import *` lacks it"
            assert getattr(aclnn_py, name) == value, name
            if own is not None and name in own:
                continue
            copies += 1
            if name in enums.__all__:
                assert getattr(enums, name) == value, f"{path.stem}.{name} differs from runtime.enums'"
            elif name in aclnn_py._constants:
                assert aclnn_py._constants[name] == value, f"{path.stem}.{name} differs from the enum member"
            else:
                source = chapter_of.get(name)
                assert source not in (None, path.stem), f"{path.stem} defines {name} but its __all__ does not list it"
                assert getattr(importlib.import_module(f"aclnn_py.runtime.{source}"), name) == value, name
    assert checked > copies > 0
    assert aclnn_py.ACL_DUMP_MAX_FILE_PATH_LENGTH == 4096
    assert aclnn_py.ACL_IPC_EVENT_HANDLE_SIZE == 64
