"""What aclnn-port reports when it will not translate something: never a guess."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Refusal:
    """One construct the tool cannot translate faithfully: where, what, and why."""

    file: str
    line: int
    construct: str
    reason: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.construct}: {self.reason}"


class Refused(Exception):
    """Raised inside the translator for one construct (``line`` is 1-based); the statement that
    holds it is refused as a whole."""

    def __init__(self, line: int, construct: str, reason: str) -> None:
        super().__init__(f"{line}: {construct}: {reason}")
        self.line = line
        self.construct = construct
        self.reason = reason


class PortError(Exception):
    """The program cannot be ported faithfully: every refusal, in source order."""

    def __init__(self, refusals: list[Refusal]) -> None:
        super().__init__("\n".join(str(r) for r in refusals))
        self.refusals = refusals


class ParserUnavailable(ImportError):
    """tree-sitter and its C++ grammar are not installed (the ``port`` extra)."""
