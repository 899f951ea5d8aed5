"""What the generators of aclnn_py's data modules share: reading CANN's git mirrors, and writing
a generated module or, with ``--check``, comparing it with what is on disk."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

#: The hicann/runtime mirror the `fetch` tool makes (a bare git directory).
RUNTIME_MIRROR = "/work/.mirror/hicann+runtime/repo"


def git(git_dir: str, *args: str) -> str:
    """``git --git-dir=git_dir args...``'s standard output (raises when git fails)."""
    return subprocess.run(["git", f"--git-dir={git_dir}", *args], check=True, capture_output=True, text=True).stdout


def parse_args(argv: list[str]) -> tuple[bool, str]:
    """``[--check] [GIT_DIR]`` -> (check, the mirror to read)."""
    args = [a for a in argv if a != "--check"]
    return "--check" in argv, args[0] if args else RUNTIME_MIRROR


def write_or_check(out: Path, text: str, check: bool, tool: str, summary: Callable[[], str]) -> int:
    """Write ``text`` to ``out`` and print ``summary()``; with ``check``, write nothing and return 1
    (saying which generator to run) when ``out`` differs from ``text``."""
    if check:
        if (out.read_text() if out.exists() else "") != text:
            print(f"{out} is not current: run python tools/{tool}", file=sys.stderr)
            return 1
        return 0
    out.write_text(text)
    print(summary())
    return 0
