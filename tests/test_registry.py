"""Every API of the registry is exported, documented (with its dtype tables as the code states
them), tested and reachable from the functional layer; every operator module is registered."""

from __future__ import annotations

import importlib
import pkgutil
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
def test_api_is_exported_documented_tested_and_functional(api):
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
def test_operator_page_carries_the_dtype_tables_of_the_code(module):
    mod = importlib.import_module(f"aclnn_py.ops.{module}")
    page = page_of(next(a for a in APIS if a.module == module))
    assert hasattr(mod, "DTYPE_FACTS"), f"{module} declares no DTYPE_FACTS"
    assert facts.module_tables(module) in PAGES[page], f"the dtype tables of docs/operators/{page} are stale"


def test_every_operator_module_is_registered():
    modules = {a.module for a in registry.APIS}
    found = set()
    ops = ROOT / "aclnn_py" / "ops"
    for group in ops.iterdir():
        if group.is_dir() and not group.name.startswith("_") and (group / "__init__.py").exists():
            for info in pkgutil.iter_modules([str(group)]):
                if not info.name.startswith("_"):
                    found.add(f"{group.name}.{info.name}")
    assert found <= modules, f"unregistered operator modules: {sorted(found - modules)}"


def test_functional_exports():
    assert set(F.__all__) <= set(dir(F))
