"""``python -m aclnn_py.runtime._lazy_index``: regenerate the name index
(``aclnn_py/runtime/_lazy_index/__init__.py``) from api.py's chapter imports and the chapters'
``__all__``. Only this command and the tests import this module."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

INDEX = Path(__file__).with_name("__init__.py")
API = Path(__file__).parent.parent / "api.py"
BEGIN, END = "# --- generated: begin ---\n", "# --- generated: end ---\n"


def chapter_names(node: ast.stmt) -> dict[str, str]:
    """The names one of api.py's ``from .chapter import ...`` statements gives -> that chapter:
    the chapter's ``__all__`` for a star import (what the import binds), else the names it lists."""
    if not (isinstance(node, ast.ImportFrom) and node.level == 1 and node.module):
        raise SystemExit(f"api.py line {node.lineno}: only `from .chapter import ...` belongs here")
    if [alias.name for alias in node.names] != ["*"]:
        return {alias.asname or alias.name: node.module for alias in node.names}
    names = getattr(importlib.import_module(f"aclnn_py.runtime.{node.module}"), "__all__", None)
    if names is None:
        raise SystemExit(f"aclnn_py/runtime/{node.module}.py has no __all__: list the names api.py re-exports")
    return dict.fromkeys(names, node.module)


def chapters() -> tuple[dict[str, str], dict[str, str]]:
    """(eager, lazy): each name api.py re-exports -> its chapter. Eager: api.py's top-level
    ``from .chapter import`` statements; lazy: those of its ``if TYPE_CHECKING:`` block."""
    eager: dict[str, str] = {}
    lazy: dict[str, str] = {}
    for node in ast.parse(API.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module:
            eager.update(chapter_names(node))
        elif isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            for sub in node.body:
                lazy.update(chapter_names(sub))
    both = sorted(eager.keys() & lazy.keys())
    if both:
        raise SystemExit(f"api.py gives {both} both with the package and on first use")
    return eager, lazy


def _table(variable: str, title: str, names: dict[str, str]) -> list[str]:
    rows = sorted(names.items(), key=lambda item: (item[1], item[0]))  # by chapter, then name
    return [
        f"#: Each name of {title} -> its chapter module.",
        f"{variable}: dict[str, str] = {{",
        *(f'    "{name}": "{chapter}",' for name, chapter in rows),
        "}",
    ]


def generated() -> str:
    """The index's part between the markers (ruff-formatted as written)."""
    eager, lazy = chapters()
    lines = [
        *_table("EAGER", "the chapters api.py imports with the package", eager),
        "",
        *_table("LAZY", "the chapters loaded on first use (api.py's module __getattr__)", lazy),
    ]
    return "\n".join(lines) + "\n"


def regenerated(text: str) -> str:
    """``text`` (the index file's) with its generated part rewritten."""
    head, sep, rest = text.partition(BEGIN)
    _, sep2, tail = rest.partition(END)
    if not (sep and sep2):
        raise SystemExit(f"{INDEX} lacks the generated-part markers")
    return head + BEGIN + generated() + END + tail


if __name__ == "__main__":
    INDEX.write_text(regenerated(INDEX.read_text(encoding="utf-8")), encoding="utf-8")
