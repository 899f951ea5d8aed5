"""Where the C++ comes from: a source file, or the sample program of an operator document."""

from __future__ import annotations

import re
from pathlib import Path

CPP_SUFFIXES = {".cpp", ".cc", ".cxx", ".c++", ".cp", ".c", ".h", ".hpp"}


def extract_program(text: str) -> str | None:
    """The C++ program (the code with ``main``) of an operator document, or None if it has none.

    Markdown documents fence it (```Cpp / ```c++); documents saved from the web site carry it
    unfenced, from its first ``#include`` to the end. (Finding the code in a document is not
    parsing C++: the program found is parsed like any other.)"""
    for block in re.findall(r"^```[ \t]*(?:cpp|c\+\+)[ \t]*\n(.*?)^```", text, re.S | re.M | re.I):
        if re.search(r"\bint\s+main\s*\(", block):
            return str(block)
    m = re.search(r"^#include\b", text, re.M)
    if m and re.search(r"\bint\s+main\s*\(", text[m.start() :]):
        # a fence closed on the program's last line ("}```") is not a fence line, so the block is
        # taken unfenced, to the end of the text: that fence and what follows it are not C++
        program = text[m.start() :]
        closing = re.search(r"^(.*?\S)```[ \t]*$", program, re.M)
        return program[: closing.start() + len(closing.group(1))] + "\n" if closing else program
    return None


def read_program(path: Path) -> str:
    """The C++ of ``path``: the file itself, or the program of a document (.md, .txt ...)."""
    text = path.read_text(encoding="utf-8")
    if path.suffix.lower() in CPP_SUFFIXES:
        return text
    program = extract_program(text)
    if program is None:
        raise ValueError(f"{path}: no C++ program (a code block with main) in this document")
    return program
