"""The port's text: logical lines at an indentation, comments, blank lines, and C++'s line breaks.

Expression text may hold ``\\n`` where the C++ broke a line; inside brackets the break is kept and
the continuation aligned after the innermost open bracket (as the C++ aligned it), elsewhere it
becomes a space.
"""

from __future__ import annotations

from dataclasses import dataclass

INDENT = "    "


@dataclass
class Item:
    kind: str  # code, comment, blank, placeholder
    indent: int = 0
    text: str = ""
    comment: str = ""


def layout(prefix: str, text: str) -> list[str]:
    """Split ``text`` at its break markers into physical lines."""
    parts = text.split("\n")
    lines: list[str] = []
    current = prefix + parts[0]
    for part in parts[1:]:
        opens = _open_brackets(current)
        if not opens:
            current = current.rstrip() + " " + part.lstrip()
            continue
        lines.append(current.rstrip())
        current = " " * (opens[-1] + 1) + part.lstrip()
    lines.append(current)
    return lines


def _open_brackets(line: str) -> list[int]:
    """Columns of the brackets still open at the end of ``line`` (outside string literals)."""
    stack: list[int] = []
    quote = ""
    i = 0
    while i < len(line):
        c = line[i]
        if quote:
            if c == "\\":
                i += 2
                continue
            if c == quote:
                quote = ""
        elif c in "\"'":
            quote = c
        elif c == "#":
            break
        elif c in "([{":
            stack.append(i)
        elif c in ")]}" and stack:
            stack.pop()
        i += 1
    return stack


class Out:
    """The logical lines of a port (or of one statement) being written."""

    def __init__(self) -> None:
        self.items: list[Item] = []

    def code(self, indent: int, text: str, comment: str = "") -> None:
        self.items.append(Item("code", indent, text, comment))

    def comment(self, indent: int, text: str) -> None:
        self.items.append(Item("comment", indent, text))

    def trail(self, text: str) -> None:
        """A comment at the end of the last code line."""
        for item in reversed(self.items):
            if item.kind == "code":
                item.comment = f"{item.comment}; {text}" if item.comment else text
                return
        self.comment(0, text)

    def blank(self, n: int = 1) -> None:
        self.items.append(Item("blank", n))

    def placeholder(self, key: str) -> None:
        self.items.append(Item("placeholder", text=key))

    def extend(self, other: Out) -> None:
        self.items.extend(other.items)

    def has_code(self) -> bool:
        return any(i.kind == "code" for i in self.items)

    def text(self, fill: dict[str, list[str]]) -> str:
        lines: list[str] = []
        want_blank = 0
        for item in self.items:
            if item.kind == "blank":
                want_blank = max(want_blank, item.indent)
                continue
            new: list[str]
            if item.kind == "placeholder":
                new = fill.get(item.text, [])
            elif item.kind == "comment":
                new = [(INDENT * item.indent + "#" + (" " + item.text if item.text else "")).rstrip()]
            else:
                new = [ln.rstrip() for ln in layout(INDENT * item.indent, item.text)]
                if item.comment:
                    new[-1] += "  # " + item.comment
            if not new:
                continue
            if lines and want_blank:
                lines.extend([""] * want_blank)
            want_blank = 0
            lines.extend(new)
        return "\n".join(lines) + "\n"
