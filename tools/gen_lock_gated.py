"""Regenerate ``aclnn_py/runtime/_lock_gated.py``: which of aclnn_py's runtime functions wait while
the process is locked for a snapshot (aclrtSnapShotProcessLock), from hicann/runtime's source.

Usage: ``python tools/gen_lock_gated.py [GIT_DIR]`` (default: the bare mirror
``/work/.mirror/hicann+runtime/repo``; it reads the tree of HEAD with ``git show``, no work tree).
``--check`` compares instead of writing (exit 1 when the data module is not current).

The rule:

* An ``rt*`` function waits iff its body calls ``GLOBAL_STATE_WAIT_IF_LOCKED()``
  (global_state_manager.hpp: "For any api that involves modifications to device resources, this
  should be added"). The bodies read are those of the ``src/runtime/api/*.cc`` files the standard
  build compiles (``src/runtime/cmake/runtime.cmake``; not the stubs, nor the tiny or arch5162
  variants). An ``rt*`` function without the macro whose first ``rt*`` call is to a waiting one
  (a thin wrapper such as ``rtsFoo() { return rtFoo(); }``) waits too.
* An ACL function ``aclXxx`` waits iff an ``rt*`` function its ``aclXxxImpl`` calls waits: the
  rt functions it reaches, in the text's order, through the ACL layer's own helpers and methods
  defined in ``src/acl`` (``aclrtMallocImpl`` -> ``acl::aclMallocMemInner`` -> ``rtGetSocSpec``,
  then ``rtMalloc``, which waits) and the other ACL functions it calls (through their ``Impl``).
  Not only the first rt function: a query the ACL layer makes first (``rtGetSocSpec``,
  ``rtSymbolLookup``, ``rtGetRunMode`` ...) does not keep the call from waiting at the rt function
  that modifies the device. A function of the ACL layer with no ``Impl`` (the tdt queue's
  ``acltdt*``; the compact build's ``src/acl/aclrt_c``, for the names the C++ layer lacks) is read
  as its own body.

Limits (a text scan, not a compiler): every path counts, so a function that reaches a waiting
rt function only on some paths (a branch, an early return before it; ``rtMemcpy`` itself returns
before its wait for a zero count) counts as waiting; an ``rt*`` function reached through a
function pointer or a macro, or from code outside ``src/acl``, is not seen; the overloads of a
helper name, and the methods of one name of every class, are read as one. On CANN the wait
happens when the first waiting ``rt*`` function starts, after the ACL layer's own checks (and its
earlier queries); the emulator waits before the ACL checks. An exported function the scan cannot
classify (no body found, or calling no ``rt*`` function the standard build defines) is listed in
``UNCLASSIFIED`` of the data module and decided by hand in :data:`DECIDED` below (read from its
CANN code), else kept waiting.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from _generated import git, parse_args, write_or_check  # tools/ is on sys.path (the script's folder)

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "aclnn_py" / "runtime" / "_lock_gated.py"
MACRO = "GLOBAL_STATE_WAIT_IF_LOCKED"
RT_NAME = re.compile(r"^rts?[A-Z]\w*$")

#: The exported functions the scan cannot classify, decided by reading their CANN code:
#: name -> (waits, why). Regenerating lists any new unclassified name (kept waiting) for review.
_HOST_ONLY = "its Impl calls no rt function (a host object or a version file)"
DECIDED: dict[str, tuple[bool, str]] = {
    "aclDestroyDataBuffer": (False, _HOST_ONLY),
    "aclUpdateDataBuffer": (False, _HOST_ONLY),
    "aclrtDestroyBinary": (False, _HOST_ONLY),
    "aclrtDestroyGroupInfo": (False, _HOST_ONLY),
    "aclrtGetArgsFromExceptionInfo": (False, _HOST_ONLY),
    "aclrtGetVersion": (False, _HOST_ONLY),
    "aclsysGetCANNVersion": (False, _HOST_ONLY),
    "aclsysGetVersionNum": (False, _HOST_ONLY),
    "aclsysGetVersionStr": (False, _HOST_ONLY),
    # aclrt_c/runtime/stream.c (the compact build's ACL layer): host objects
    "aclrtSetStreamConfigOpt": (False, "stream.c: sets a field of the host handle"),
    "aclrtDestroyStreamConfigHandle": (False, "stream.c: frees the host handle"),
    # stream.c: rtStreamCreateWithConfig, of the compact runtime only; it creates a stream as
    # aclrtCreateStreamWithConfig's rtsStreamCreate (which waits) does
    "aclrtCreateStreamV2": (True, "stream.c -> rtStreamCreateWithConfig, a stream creation"),
    # the acldvpp library is not in hicann/runtime; it allocates and frees with the runtime's
    # rtDvppMalloc(WithFlag) / rtDvppFree (api_c.cc:887-915), which do not wait
    "acldvppMalloc": (False, "rtDvppMallocWithFlag (api_c.cc:887, no wait)"),
    "acldvppFree": (False, "rtDvppFree (api_c.cc:906, no wait)"),
}


def strip(src: str) -> str:
    """The source without comments, string and character literals and preprocessor lines."""
    src = re.sub(r"//[^\n]*|/\*.*?\*/", " ", src, flags=re.S)
    src = re.sub(r'"(?:\\.|[^"\\\n])*"', '""', src)
    src = re.sub(r"'(?:\\.|[^'\\\n])*'", "''", src)
    return re.sub(r"^[ \t]*#(?:[^\n]*\\\n)*[^\n]*", " ", src, flags=re.M)


_HEADER = re.compile(
    r"([A-Za-z_~]\w*)\s*\((?P<args>.*)\)\s*(?:const|noexcept|override|final|\s)*(?:->[^{]*)?(?::[^{]*)?$", re.S
)
_CONTAINER = re.compile(
    r"^\s*(?:namespace\b[^{]*|extern\s*\"\"\s*|(?:template\s*<.*>\s*)?(?:class|struct)\b[^(]*)$", re.S
)
_NOT_FUNCTIONS = {"if", "for", "while", "switch", "catch", "return", "sizeof", "decltype", "defined"}


def functions(src: str) -> list[tuple[str, str]]:
    """(name, body) of each function defined in ``src`` (at namespace, extern "C" or class level;
    a qualified name ``A::B::f`` is ``f``)."""
    src = strip(src)
    found: list[tuple[str, str]] = []
    i, start, n = 0, 0, len(src)
    containers = 0  # how deep the scan is in namespace / extern "C" / class blocks
    while i < n:
        c = src[i]
        if c in ";":
            start = i + 1
        elif c == "}":
            containers = max(containers - 1, 0)
            start = i + 1
        elif c == "{":
            header = src[start:i]
            if _CONTAINER.match(header):
                containers += 1
                start = i + 1
            else:
                end = _matching(src, i)
                m = _HEADER.search(header.strip())
                if m and m.group(1) not in _NOT_FUNCTIONS and "=" not in header.split("(")[0]:
                    found.append((m.group(1), src[i + 1 : end]))
                i = end
                start = i + 1
        i += 1
    return found


def _matching(src: str, i: int) -> int:
    depth = 0
    for j in range(i, len(src)):
        if src[j] == "{":
            depth += 1
        elif src[j] == "}":
            depth -= 1
            if depth == 0:
                return j
    return len(src)


_CALL = re.compile(r"(\.|->)?\s*(?:\w+::)*([A-Za-z_]\w*)\s*\(")


def calls(body: str) -> list[tuple[str, bool]]:
    """(name, is a method call ``x.f(`` / ``x->f(``) of each call in ``body``, in order."""
    return [(m.group(2), bool(m.group(1))) for m in _CALL.finditer(body) if m.group(2) not in _NOT_FUNCTIONS]


def read_tree(git_dir: str) -> tuple[str, dict[str, str]]:
    commit = git(git_dir, "rev-parse", "HEAD").strip()
    paths = git(git_dir, "ls-tree", "-r", "--name-only", "HEAD", "--", "src/runtime/api", "src/acl").split()
    cmake = git(git_dir, "show", "HEAD:src/runtime/cmake/runtime.cmake")
    built = set(re.findall(r"\$\{RUNTIME_DIR\}/(src/runtime/api/\w+\.cc)", cmake))
    wanted = [p for p in paths if p in built or (p.startswith("src/acl/") and p.endswith((".cpp", ".c")))]
    return commit, {p: git(git_dir, "show", f"HEAD:{p}") for p in wanted}


def classify(sources: dict[str, str], exported: list[str]) -> tuple[dict[str, tuple[bool, str]], list[str]]:
    """Each exported name -> (waits, the rt function deciding it); and the names not classified."""
    rt_bodies: dict[str, list[str]] = {}
    acl_bodies: dict[str, list[str]] = {}
    compact: dict[str, list[str]] = {}  # src/acl/aclrt_c: the compact build's C ACL layer
    for path, text in sources.items():
        for name, body in functions(text):
            if path.startswith("src/runtime/api/"):
                if RT_NAME.match(name):
                    rt_bodies.setdefault(name, []).append(body)
            else:
                (compact if path.endswith(".c") else acl_bodies).setdefault(name, []).append(body)
    for name, bodies in compact.items():  # only for the functions the C++ layer does not define
        if name not in acl_bodies and f"{name}Impl" not in acl_bodies:
            acl_bodies[name] = bodies

    rt_waits: dict[str, bool] = {}

    def rt_gated(name: str, seen: frozenset[str] = frozenset()) -> bool | None:
        """Whether the rt function waits; None: the standard build does not define it."""
        if name not in rt_bodies:
            return None
        if name not in rt_waits:
            bodies = rt_bodies[name]
            if any(MACRO in b for b in bodies):
                rt_waits[name] = True
            else:
                first = next(
                    (c for b in bodies for c, method in calls(b) if not method and RT_NAME.match(c) and c not in seen),
                    None,
                )
                rt_waits[name] = first is not None and bool(rt_gated(first, seen | {name}))
        return rt_waits[name]

    def rt_calls(name: str, seen: frozenset[str]) -> list[str]:
        """The rt functions ``name`` calls, in the text's order, through the ACL layer's helpers."""
        found: list[str] = []
        for body in acl_bodies.get(name, []):
            for c, method in calls(body):
                if not method and RT_NAME.match(c):
                    found.append(c)
                    continue
                if c.startswith("acl") and f"{c}Impl" in acl_bodies:  # another ACL function: its Impl
                    c = f"{c}Impl"
                if c in acl_bodies and c not in seen:  # a helper (a method: every class's, as one)
                    found += rt_calls(c, seen | {c})
        return found

    result: dict[str, tuple[bool, str]] = {}
    unclassified: list[str] = []
    for api in exported:
        impl = f"{api}Impl" if f"{api}Impl" in acl_bodies else api
        reached = list(dict.fromkeys(rt_calls(impl, frozenset({impl})))) if impl in acl_bodies else []
        waiting = [rt for rt in reached if rt_gated(rt)]
        if not reached or (not waiting and any(rt_gated(rt) is None for rt in reached)):
            unclassified.append(api)
        elif waiting:
            result[api] = (True, waiting[0] if waiting[0] == reached[0] else f"{waiting[0]} (after {reached[0]})")
        else:
            result[api] = (False, reached[0])
    return result, unclassified


def exported_rt_functions() -> list[str]:
    """aclnn_py's functions that go through the runtime's ``rt_api`` (the functions the gate holds)."""
    sys.path.insert(0, str(ROOT))
    from aclnn_py.runtime import _checks, _lazy_index, api

    for name in [*_lazy_index.EAGER, *_lazy_index.LAZY]:  # load every chapter: each registers its rt_api functions
        getattr(api, name)
    return sorted(_checks.RT_API_NAMES)


def render(commit: str, result: dict[str, tuple[bool, str]], unclassified: list[str]) -> str:
    gated = sorted(n for n, (w, _) in result.items() if w)
    free = sorted(n for n, (w, _) in result.items() if not w)
    decided_free = sorted(n for n in unclassified if n in DECIDED and not DECIDED[n][0])
    decided_gated = sorted(n for n in unclassified if n not in DECIDED or DECIDED[n][0])
    lines = [
        '"""Which of aclnn_py\'s runtime functions wait while the process is locked for a snapshot',
        "(aclrtSnapShotProcessLock): on CANN only the ``rt*`` functions whose body calls",
        "``GLOBAL_STATE_WAIT_IF_LOCKED()`` wait (global_state_manager.hpp: the APIs that modify device",
        "resources); the queries (aclrtGetDevice, aclrtGetLastError ...) and the synchronizes do not.",
        "",
        "Generated by ``python tools/gen_lock_gated.py`` (its docstring gives the rule and its limits)",
        f"from hicann/runtime commit {commit}. Do not edit by hand.",
        "An ACL function waits iff an ``rt*`` function its ``aclXxxImpl`` reaches waits; the comment after",
        "each name is the first ``rt*`` function that waits (and the one it calls before, if any), or the",
        "first it calls. ``UNCLASSIFIED``: the functions the scan could not",
        "classify (no ``Impl`` found, or calling no ``rt*`` function), decided by reading their CANN code",
        "(tools/gen_lock_gated.py's DECIDED) or else kept waiting. A name in neither set (a function",
        "added since) waits, as every runtime function did before (_checks.rt_api consults NOT_GATED).",
        '"""',
        "",
        "from __future__ import annotations",
        "",
        "#: The runtime functions that do NOT wait while the process is locked (what the gate reads).",
        "NOT_GATED: frozenset[str] = frozenset(",
        "    {",
    ]
    lines += [f'        "{n}",  # {result[n][1]}' for n in free]
    lines += [f'        "{n}",  # by hand: {DECIDED[n][1]}' for n in decided_free]
    lines += [
        "    }",
        ")",
        "",
        "#: The runtime functions that wait while the process is locked.",
        "GATED: frozenset[str] = frozenset(",
        "    {",
    ]
    lines += [f'        "{n}",  # {result[n][1]}' for n in gated]
    lines += [
        f'        "{n}",  # ' + (f"by hand: {DECIDED[n][1]}" if n in DECIDED else "unclassified: kept waiting")
        for n in decided_gated
    ]
    lines += ["    }", ")", "", "#: The functions the scan could not classify (decided by hand, above).",
              "UNCLASSIFIED: frozenset[str] = frozenset(", "    {"]  # fmt: skip
    lines += [f'        "{n}",' for n in sorted(unclassified)]
    lines += ["    }", ")", ""]
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    check, git_dir = parse_args(argv)
    commit, sources = read_tree(git_dir)
    result, unclassified = classify(sources, exported_rt_functions())
    text = render(commit, result, unclassified)

    def summary() -> str:
        undecided = [n for n in unclassified if n not in DECIDED]
        lines = [
            f"{OUT}: {len(result)} classified, {len(unclassified)} unclassified ({len(undecided)} not decided by hand)"
        ]
        lines += [f"  unclassified, kept waiting: {n}" for n in undecided]
        return "\n".join(lines)

    return write_or_check(OUT, text, check, "gen_lock_gated.py", summary)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
