"""Every API of the registry is exported, documented (with its dtype tables as the code states
them), tested and reachable from the functional layer; every operator module is registered."""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

import aclnn_py
from aclnn_py import functional as F
from aclnn_py.ops import facts, registry

ROOT = Path(__file__).resolve().parents[1]
PAGES = {p.name: p.read_text(encoding="utf-8") for p in (ROOT / "docs" / "operators").glob("*.md")}
TESTS = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "tests" / "ops").rglob("test_*.py"))
FUNCTIONAL = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "aclnn_py" / "functional").glob("*.py"))
APIS = registry.IMPLEMENTED


def page_of(api: registry.Api) -> str:
    first = next(a for a in registry.APIS if a.module == api.module)
    return f"{first.name}.md"


@pytest.mark.parametrize("api", APIS, ids=lambda a: a.name)
def test_api_is_exported_documented_tested_and_functional(api: registry.Api) -> None:
    for name in api.names:
        assert callable(getattr(aclnn_py, name)), name
        assert name in aclnn_py.__all__
        assert name in dir(aclnn_py)
    module = importlib.import_module(api.module_path)
    assert module.__dict__[api.phase1] is getattr(aclnn_py, api.phase1)
    page = page_of(api)
    assert page in PAGES, f"docs/operators/{page} is missing"
    assert api.name in PAGES[page]
    assert api.phase1 in TESTS or api.name in TESTS, f"no test under tests/ops names {api.name}"
    assert f"``{api.name}``" in FUNCTIONAL, f"no functional wrapper documents {api.name}"
    assert f"`{api.name}`" in PAGES["index.md"] and f"]({page})" in PAGES["index.md"], "not in docs/operators/index.md"


@pytest.mark.parametrize("module", sorted({a.module for a in APIS}))
def test_operator_page_carries_the_dtype_tables_of_the_code(module: str) -> None:
    mod = importlib.import_module(f"aclnn_py.ops.{module}")
    page = page_of(next(a for a in APIS if a.module == module))
    assert hasattr(mod, "DTYPE_FACTS"), f"{module} declares no DTYPE_FACTS"
    assert facts.module_tables(module) in PAGES[page], f"the dtype tables of docs/operators/{page} are stale"


def test_every_operator_module_is_registered() -> None:
    modules = {a.module for a in registry.APIS}
    found = set()
    ops = ROOT / "aclnn_py" / "ops"
    for group in ops.iterdir():
        if group.is_dir() and not group.name.startswith("_") and (group / "__init__.py").exists():
            for info in pkgutil.iter_modules([str(group)]):
                if not info.name.startswith("_"):
                    found.add(f"{group.name}.{info.name}")
    assert found <= modules, f"unregistered operator modules: {sorted(found - modules)}"


def test_functional_exports() -> None:
    assert set(F.__all__) <= set(dir(F))


@pytest.mark.parametrize("api", registry.APIS, ids=lambda a: a.name)
def test_every_row_is_implemented(api: registry.Api) -> None:
    """Every row's module exists and defines its two C functions: the package exports every row
    without looking (a per-API check at import would grow every program's start-up)."""
    assert importlib.util.find_spec(api.module_path) is not None, f"{api.module_path} does not exist"
    module = importlib.import_module(api.module_path)
    for name in api.names:
        assert callable(module.__dict__.get(name)), f"{api.module_path} does not define {name}"
    assert registry.EXPORTS[api.phase1] == registry.EXPORTS[api.name] == api.module_path


@pytest.mark.parametrize("api", registry.APIS, ids=lambda a: a.name)
def test_every_prototype_parses(api: registry.Api) -> None:
    params = api.params
    assert params and params is api.params  # parsed once, then cached
    assert ", ".join(f"{p.ctype} {p.name}" for p in params) == " ".join(api.prototype.split())
    assert len({p.name for p in params}) == len(params)
    for p in params:
        assert p.kind  # a C type outside the known kinds raises KeyError here


def test_table_is_unique() -> None:
    assert len(registry.BY_NAME) == len(registry.APIS)
    assert len(registry.EXPORTS) == 2 * len(registry.APIS)
    assert registry.IMPLEMENTED == registry.APIS


@pytest.mark.parametrize(
    ("text", "message"),
    [("const aclTensor*", "bad parameter"), ("aclTensor** out", "unknown C type"), ("short n", "unknown C type")],
)
def test_parse_params_refuses(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        registry.parse_params(text)


def test_spacing_of_pointers_is_normalised() -> None:
    assert registry.parse_params("const aclTensor *self,aclTensor * out") == (
        registry.Param("const aclTensor*", "self"),
        registry.Param("aclTensor*", "out"),
    )


def test_import_parses_no_prototype() -> None:
    """``import aclnn_py`` builds the name tables only: no prototype parsed, no operator module loaded."""
    code = (
        "import sys\nimport aclnn_py\nfrom aclnn_py.ops import registry\n"
        "print(registry.parse_params.cache_info().currsize, "
        "sorted(m for m in sys.modules if any(m.startswith(a.module_path) for a in registry.APIS)))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120)
    assert done.stdout.split() == ["0", "[]"]
