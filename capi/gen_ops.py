"""The C side of every aclnn API, generated from ``aclnn_py/ops/registry.py``.

* :func:`headers` — CANN's operator headers, one per header path of the registry
  (``aclnnop/aclnn_add.h`` ...), declaring both phases of each API with CANN's prototype, plus
  a ``aclnnop/level2/`` twin of each (CANN installs a copy there too, and older programs include
  that path; ops-math's copies carry its deprecation ``#warning``, ops-nn's none) and the two
  packages' master headers ``aclnnop/aclnn_ops_math.h`` / ``aclnnop/aclnn_ops_nn.h``, which include
  every header of their package (ops-math installs a level2 copy of its own). They are checked in
  under ``capi/include``: ``python capi/build.py --headers`` rewrites them, and a test checks that
  they match this generator;
* :func:`wrappers` — the C++ definitions the library exports, compiled into it: each passes its
  arguments as numbers to ``aclnn_py._cabi.aclnn_phase1`` / ``aclnn_phase2`` with the API's name.
  A new operator needs no C code of its own.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE.parent) not in sys.path:
    sys.path.insert(0, str(HERE.parent))

from aclnn_py.ops import registry  # noqa: E402

PHASE2 = "void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream"
TAIL = "uint64_t* workspaceSize, aclOpExecutor** executor"
# How each C parameter kind travels to Python (Py_BuildValue code, C++ cast); handles and
# pointers travel as unsigned long long.
_NUMBER = {
    "int": ("L", "long long"),
    "float": ("d", "double"),  # a float converts to double exactly
    "double": ("d", "double"),
    "bool": ("i", "int"),
    "dtype": ("i", "int"),
}
_UNSIGNED = ("K", "unsigned long long")  # uint64_t parameters
BANNER = "// Generated from aclnn_py/ops/registry.py by `python capi/build.py --headers`: do not edit."


def _phase1_params(api: registry.Api) -> str:
    return ", ".join([*(f"{p.ctype} {p.name}" for p in api.params), TAIL])


def _page(api: registry.Api) -> str:
    first = next(a for a in registry.APIS if a.module == api.module)
    return f"docs/operators/{first.name}.md"


def _guard(path: str) -> str:
    return "ACLNN_PY_" + path.upper().replace("/", "_").replace(".", "_") + "_"


def _header(path: str, group: list[registry.Api]) -> str:
    guard = _guard(path)
    lines = [BANNER, f"#ifndef {guard}", f"#define {guard}", ""]
    lines += ['#include "aclnn/aclnn_base.h"', '#include "aclnnop/aclnn_util.h"', ""]
    lines += ["#ifdef __cplusplus", 'extern "C" {', "#endif", ""]
    for api in group:
        lines.append(f"// {api.name} ({_page(api)})")
        lines.append(f"ACLNN_API aclnnStatus {api.phase1}({_phase1_params(api)});")
        lines.append(f"ACLNN_API aclnnStatus {api.name}({PHASE2});")
        lines.append("")
    lines += ["#ifdef __cplusplus", "}", "#endif", "", f"#endif  // {guard}", ""]
    return "\n".join(lines)


# Which CANN package installs an operator's header, by the registry's group (the top folder of
# the operator in hicann/ops-math and hicann/ops-nn). A new group must be added here.
PACKAGES = {
    "math": "ops-math",
    "conversion": "ops-math",
    "random": "ops-math",
    "activation": "ops-nn",
    "loss": "ops-nn",
    "vfusion": "ops-nn",
    "index": "ops-nn",
    "norm": "ops-nn",
    "pooling": "ops-nn",
    "matmul": "ops-nn",
    "conv": "ops-nn",
}
MASTER = {"ops-math": "aclnnop/aclnn_ops_math.h", "ops-nn": "aclnnop/aclnn_ops_nn.h"}
# ops-math's installer inserts this after the last #include of each level2 copy
# (hicann/ops-math scripts/util/add_deprecation_warning.py); ops-nn adds none.
MATH_LEVEL2_WARNING = (
    '#warning "This file is scheduled to be deprecated. Please use the file with the same name under '
    'include/aclnnop in the CANN package installation path instead."'
)


def package(api: registry.Api) -> str:
    """``ops-math`` or ``ops-nn``: the package that installs the API's header."""
    return PACKAGES[api.module_path.split(".")[2]]


def _level2(path: str, pkg: str) -> str:
    twin = path.replace("aclnnop/", "aclnnop/level2/", 1)
    guard = _guard(twin)
    lines = [BANNER, f"#ifndef {guard}", f"#define {guard}", f'#include "{path}"']
    if pkg == "ops-math":
        lines.append(MATH_LEVEL2_WARNING)
    return "\n".join([*lines, "#endif", ""])


def _master(path: str, members: list[str]) -> str:
    guard = _guard(path)
    lines = [BANNER, f"#ifndef {guard}", f"#define {guard}", ""]
    lines += [f'#include "{m.rsplit("/", 1)[1]}"' for m in members]
    return "\n".join([*lines, "", f"#endif  // {guard}", ""])


def headers(apis: tuple[registry.Api, ...] = registry.IMPLEMENTED) -> dict[str, str]:
    """Header path (relative to ``capi/include``) -> text, for every header of ``apis``."""
    by_header: dict[str, list[registry.Api]] = {}
    for api in apis:
        by_header.setdefault(api.header, []).append(api)
    out: dict[str, str] = {}
    members: dict[str, list[str]] = {pkg: [] for pkg in MASTER}
    for path, group in sorted(by_header.items()):
        pkg = package(group[0])
        out[path] = _header(path, group)
        out[path.replace("aclnnop/", "aclnnop/level2/", 1)] = _level2(path, pkg)
        members[pkg].append(path)
    for pkg, master in MASTER.items():
        if members[pkg]:
            out[master] = _master(master, members[pkg])
            if pkg == "ops-math":  # ops-math installs its master header into level2 too
                out[master.replace("aclnnop/", "aclnnop/level2/", 1)] = _level2(master, pkg)
    return out


def _phase1_body(api: registry.Api) -> str:
    fmt = "(s"
    values = [f'"{api.name}"']
    for p in api.params:
        code, cast = _UNSIGNED if p.ctype == "uint64_t" else _NUMBER.get(p.kind, ("K", ""))
        fmt += code
        values.append(f"static_cast<{cast}>({p.name})" if cast else f"P({p.name})")
    fmt += "KK)"
    values += ["P(workspaceSize)", "P(executor)"]
    return f'return Status(ACLNN_ERR_INNER, "aclnn_phase1", "{fmt}", {", ".join(values)});'


def wrappers(apis: tuple[registry.Api, ...] = registry.IMPLEMENTED) -> str:
    """The C++ definitions of every API (capi/src/aclnn_py_capi.cpp includes them inside its
    ``extern "C"`` block, after the helpers ``Status`` and ``P``)."""
    lines = ["// Generated at build time from aclnn_py/ops/registry.py by capi/gen_ops.py: do not edit.", ""]
    for api in apis:
        lines.append(f"aclnnStatus {api.phase1}({_phase1_params(api)}) {{")
        lines.append(f"    {_phase1_body(api)}")
        lines.append("}")
        lines.append(f"aclnnStatus {api.name}({PHASE2}) {{")
        lines.append(
            f'    return Status(ACLNN_ERR_INNER, "aclnn_phase2", "(sKKKK)", "{api.name}", P(workspace), '
            "static_cast<unsigned long long>(workspaceSize), P(executor), P(stream));"
        )
        lines.append("}")
        lines.append("")
    return "\n".join(lines)


def includes(apis: tuple[registry.Api, ...] = registry.IMPLEMENTED) -> str:
    """The ``#include`` of every operator header (the library compiles against its own headers)."""
    return "\n".join(f'#include "{h}"' for h in sorted({a.header for a in apis})) + "\n"
