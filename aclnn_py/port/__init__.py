"""aclnn-port: translate a C++ aclnn program into its line-by-line Python port.

``aclnn-port prog.cpp -o prog.py`` (or ``python -m aclnn_py.port``) writes a Python program with the
C++ program's structure line for line -- the same functions, statements, comments and names --
using aclnn_py as docs/porting.md teaches. What it cannot translate faithfully it refuses, naming
the file, line and construct; it never writes a program that runs and prints something else.

The C++ is parsed with tree-sitter (the ``port`` extra: ``pip install -e '.[port]'`` in a checkout); the
package imports without it.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import ParserUnavailable, PortError, Refusal


@dataclass(frozen=True)
class Port:
    """A translation: the Python text and what was refused (empty: a faithful port)."""

    python: str
    refusals: tuple[Refusal, ...]

    @property
    def ok(self) -> bool:
        return not self.refusals


def translate(source: str, filename: str = "<c++>", name: str | None = None) -> Port:
    """Translate C++ ``source``. ``filename`` names it in refusals, ``name`` in the port's header
    (default: ``filename``). A refused construct is kept as a marked comment in ``python``, and the
    port then stops before running anything; raises :class:`PortError` if the C++ cannot be read at
    all, :class:`ParserUnavailable` without tree-sitter."""
    from .program import run

    text, refusals = run(source, filename, name or filename)
    if refusals:
        text = _guarded(text, refusals)
    return Port(text, tuple(refusals))


def _guarded(text: str, refusals: list[Refusal]) -> str:
    """A partial port that refuses to run: it would print something else than the C++."""
    lines = text.split("\n")
    at = 2 if lines[:1] == ["#!/usr/bin/env python3"] else 0
    guard = [
        "# aclnn-port: NOT A FAITHFUL PORT. These C++ constructs were not translated (marked REFUSED below):",
        *[f"#   {r}" for r in refusals],
        'raise SystemExit("aclnn-port: this port is incomplete (see the REFUSED comments); it does not run")',
    ]
    return "\n".join(lines[:at] + guard + lines[at:])


__all__ = ["ParserUnavailable", "Port", "PortError", "Refusal", "translate"]
