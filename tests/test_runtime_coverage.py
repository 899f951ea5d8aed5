"""docs/runtime.md says which runtime calls exist and which do not (issue 17): every function of
CANN's public runtime headers is either exported by aclnn_py and listed as present, or listed as
not provided, in the chapter table of "Which calls exist".

The headers are read from the hicann/runtime mirror (``ACLNN_PY_CANN_RUNTIME``: a bare git
repository, default /work/.mirror/hicann+runtime/repo); without it the module skips."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

import aclnn_py

CANN_RUNTIME = Path(os.environ.get("ACLNN_PY_CANN_RUNTIME", "/work/.mirror/hicann+runtime/repo"))
if not CANN_RUNTIME.is_dir():
    pytest.skip(
        f"needs a git mirror of hicann/runtime (CANN's runtime sources, not shipped): set ACLNN_PY_CANN_RUNTIME "
        f"(looked in {CANN_RUNTIME})",
        allow_module_level=True,
    )

DOC = Path(__file__).resolve().parents[1] / "docs" / "runtime.md"
HEADERS = (
    "acl_rt.h", "acl_base_rt.h", "acl_rt_allocator.h", "acl_prof.h", "acl_dump.h", "acl_tdt.h", "acl_tdt_queue.h",
)  # fmt: skip
EXPORT_MACROS = r"(?:ACL_FUNC_VISIBILITY|MSVP_PROF_API|ACL_DUMP_API|ACL_TDT_API)"


def cann_functions(header: str) -> set[str]:
    text = subprocess.run(
        ["git", f"--git-dir={CANN_RUNTIME}", "show", f"HEAD:include/external/acl/{header}"],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    return set(re.findall(EXPORT_MACROS + r"[^;(]*?\b(acl\w+)\s*\(", text))


def chapter_table() -> tuple[str, str]:
    """The "present" and "not provided" columns of the chapter table, each as one text."""
    section = DOC.read_text().split("## Which calls exist", 1)[1].split("\n## ", 1)[0]
    present, absent = [], []
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 3 and not set(cells[1]) <= {"-"} and cells[0] != "chapter":
            present.append(cells[1])
            absent.append(cells[2])
    return "\n".join(present), "\n".join(absent)


def _named(name: str, text: str) -> bool:
    return re.search(rf"`{name}`|`{name}\(|\b{name}\b", text) is not None


@pytest.mark.parametrize("header", HEADERS)
def test_every_cann_runtime_function_is_either_here_or_said_to_be_missing(header: str) -> None:
    present, absent = chapter_table()
    unaccounted = []
    for name in sorted(cann_functions(header)):
        here = callable(getattr(aclnn_py, name, None))
        if here and not _named(name, present):
            unaccounted.append(f"{name}: exported, not listed as present")
        elif not here and not _named(name, absent):
            unaccounted.append(f"{name}: missing, not listed as not provided")
    assert not unaccounted, "\n".join(unaccounted)
