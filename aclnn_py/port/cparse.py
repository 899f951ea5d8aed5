"""The C++ parser: tree-sitter with its C++ grammar, and small helpers over its nodes.

tree-sitter gives a concrete syntax tree that keeps every comment and the row of every token, which
is what a line-by-line port needs; it parses one file without its headers. Types the program relies
on come from the program's own declarations and from aclnn_py (see :mod:`.known`).
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from typing import TYPE_CHECKING

from .errors import ParserUnavailable

if TYPE_CHECKING:
    from tree_sitter import Node, Parser, Tree

INSTALL_HINT = (
    "aclnn-port needs tree-sitter and its C++ grammar: pip install tree-sitter 'tree-sitter-cpp<0.24' "
    "(or pip install -e '.[port]' in a checkout)"
)


@functools.lru_cache(maxsize=1)
def parser() -> Parser:
    """The tree-sitter C++ parser (raises :class:`ParserUnavailable` if it is not installed)."""
    try:
        import tree_sitter
        import tree_sitter_cpp
    except ImportError as e:
        raise ParserUnavailable(f"{INSTALL_HINT} ({e})") from None
    return tree_sitter.Parser(tree_sitter.Language(tree_sitter_cpp.language()))


def parse(text: str) -> Tree:
    return parser().parse(text.encode("utf-8"))


def text(node: Node | None) -> str:
    if node is None or node.text is None:
        return ""
    return node.text.decode("utf-8")


def line(node: Node) -> int:
    """The 1-based line a node starts on."""
    return int(node.start_point[0]) + 1


def snippet(node: Node, limit: int = 90) -> str:
    """The node's C++ text on one line (whitespace collapsed), shortened to ``limit`` characters."""
    s = " ".join(text(node).replace("\\\n", " ").split())
    return s if len(s) <= limit else s[: limit - 3] + "..."


def field(node: Node, name: str) -> Node | None:
    return node.child_by_field_name(name)


def fields(node: Node, name: str) -> list[Node]:
    return list(node.children_by_field_name(name))


def named(node: Node) -> list[Node]:
    """Named children, without comments."""
    return [c for c in node.named_children if c.type != "comment"]


def walk(node: Node) -> Iterator[Node]:
    """Every node below ``node`` (itself included), in source order."""
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(reversed(n.children))


def syntax_errors(node: Node) -> list[Node]:
    """The ERROR and MISSING nodes of a tree (outermost only)."""
    found: list[Node] = []
    stack = [node]
    while stack:
        n = stack.pop()
        if n.is_error or n.is_missing:
            found.append(n)
            continue
        if n.has_error:
            stack.extend(reversed(n.children))
    return found


def end_row(node: Node) -> int:
    """The 0-based row of a node's last character (a directive's node ends after its newline)."""
    row, col = node.end_point
    return int(row) - 1 if col == 0 and row > node.start_point[0] else int(row)


def node_key(node: Node) -> tuple[int, int]:
    """A stable identity for a node of one tree (its byte range)."""
    return (int(node.start_byte), int(node.end_byte))
