"""Regenerate ``aclnn_py/runtime/_rt_features.py``: the runtime's optional features
(``RtOptionalFeatureType::RT_FEATURE_*``) of each emulated chip family, from hicann/runtime's source.

Usage: ``python tools/gen_rt_features.py [GIT_DIR]`` (default: the bare mirror
``/work/.mirror/hicann+runtime/repo``; it reads the tree of HEAD with ``git show``, no work tree).
``--check`` compares instead of writing (exit 1 when the data module is not current).

The rule:

* The runtime asks ``IS_SUPPORT_CHIP_FEATURE(chipType, RtOptionalFeatureType::RT_FEATURE_X)``
  (core/src/common/dev_info_manage.h), which looks ``RT_FEATURE_X`` up in the set registered for
  the chip type by ``REGISTER_CHIP_FEATURE_SET(chipType, SET)`` in
  ``src/runtime/config/<dir>/dev_info_reg.cc``. For each config dir of :data:`CONFIGS` the
  generator reads that file, finds its one ``REGISTER_CHIP_FEATURE_SET(<chip>, <SET>)`` (the chip
  type must be the one :data:`CONFIGS` names), and takes the ``RT_FEATURE_*`` names of the
  initializer of ``std::unordered_set<RtOptionalFeatureType> <SET>{...}`` in the same file.
* Of the file's one ``DevProperties`` initializer (``REGISTER_DEV_PROPERTIES``) only the fields of
  :data:`PROPS` are read, each ``.field = value,`` found exactly once: ``isStars``
  (``true``/``false``: ``Runtime::ChipIsHaveStars`` reads it),
  ``memcpyDescriptorSize`` (a number, or a ``MEMCPY_DESC_SIZE_Vn`` constant of the same file or of
  ``src/runtime/core/inc/device/device_properties.h``) and ``cmoDDRStructInfoSize`` (``0U``, or
  ``sizeof(<struct>)``: the struct's name is kept, its layout is the emulator's). Nothing else of
  the file is read (not ``supportOverflowMode`` or ``supportSnapshot``, nor
  ``dev_info_proc_func.cc``).
* The config dirs and the families (the chip types' SoC names: runtime.cc
  ``Runtime::GetSocVersionByHardwareVer`` answers Ascend910B* for CHIP_910_B_93, Ascend910A /
  Ascend910ProA ... for CHIP_CLOUD, Ascend310P* for CHIP_DC; spec/base_info.hpp's rtPGVersion_t
  names Ascend910_93xx beside Ascend950PR/DT bins, and CHIP_DAVID is the 950 config's chip):
  ``910_B_93`` (CHIP_910_B_93) -> Ascend910B and Ascend910_93; ``950`` (CHIP_DAVID) -> Ascend950;
  ``cloud`` (CHIP_CLOUD) -> Ascend910; ``dc`` (CHIP_DC) -> Ascend310P.
* ``KNOWN``: every member of ``enum class RtOptionalFeatureType``
  (``src/runtime/inc/common/feature_type.h``) but ``RT_FEATURE_TYPE_MAX``; a name a family
  registers must be one of them (else the generator fails).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from _generated import git, parse_args, write_or_check  # tools/ is on sys.path (the script's folder)

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "aclnn_py" / "runtime" / "_rt_features.py"
ENUM_FILE = "src/runtime/inc/common/feature_type.h"
PROPS_HEADER = "src/runtime/core/inc/device/device_properties.h"
PROPS = ("isStars", "memcpyDescriptorSize", "cmoDDRStructInfoSize")

#: config dir -> (the chip type it registers, the emulated families it stands for)
CONFIGS: dict[str, tuple[str, tuple[str, ...]]] = {
    "910_B_93": ("CHIP_910_B_93", ("Ascend910B", "Ascend910_93")),
    "950": ("CHIP_DAVID", ("Ascend950",)),
    "cloud": ("CHIP_CLOUD", ("Ascend910",)),
    "dc": ("CHIP_DC", ("Ascend310P",)),
}
FAMILIES = ("Ascend910B", "Ascend910_93", "Ascend950", "Ascend910", "Ascend310P")


def _strip_comments(src: str) -> str:
    return re.sub(r"//[^\n]*|/\*.*?\*/", " ", src, flags=re.S)


def known_features(header: str) -> list[str]:
    m = re.search(r"enum\s+class\s+RtOptionalFeatureType\b[^{]*\{(.*?)\}", _strip_comments(header), re.S)
    if m is None:
        raise SystemExit(f"{ENUM_FILE}: enum class RtOptionalFeatureType not found")
    names = re.findall(r"\b(RT_FEATURE_\w+)", m.group(1))
    return [n for n in names if n != "RT_FEATURE_TYPE_MAX"]


def registered_features(path: str, src: str, chip: str) -> list[str]:
    """The RT_FEATURE_* names of the set ``REGISTER_CHIP_FEATURE_SET(chip, SET)`` registers."""
    src = _strip_comments(src)
    regs = re.findall(r"REGISTER_CHIP_FEATURE_SET\(\s*(\w+)\s*,\s*(\w+)\s*\)", src)
    if len(regs) != 1 or regs[0][0] != chip:
        raise SystemExit(f"{path}: expected one REGISTER_CHIP_FEATURE_SET({chip}, ...), found {regs}")
    name = regs[0][1]
    m = re.search(r"std::unordered_set<\s*RtOptionalFeatureType\s*>\s*" + name + r"\s*\{(.*?)\}", src, re.S)
    if m is None:
        raise SystemExit(f"{path}: the initializer of {name} not found")
    return re.findall(r"RtOptionalFeatureType::(RT_FEATURE_\w+)", m.group(1))


Props = tuple[bool, int, "str | None"]


def _constants(src: str) -> dict[str, int]:
    return {m[0]: int(m[1]) for m in re.findall(r"constexpr\s+\w+\s+(MEMCPY_DESC_SIZE_V\d)\s*=\s*(\d+)U?\s*;", src)}


def dev_properties(path: str, src: str, header_constants: dict[str, int]) -> Props:
    """The :data:`PROPS` of the file's DevProperties initializer."""
    src = _strip_comments(src)
    raw: dict[str, str] = {}
    for field in PROPS:
        found = re.findall(r"\." + field + r"\s*=\s*([^,\n]+?)\s*,", src)
        if len(found) != 1:
            raise SystemExit(f"{path}: expected one .{field} = ..., found {found}")
        raw[field] = found[0]
    if raw["isStars"] not in ("true", "false"):
        raise SystemExit(f"{path}: .isStars = {raw['isStars']}: not true or false")
    consts = {**header_constants, **_constants(src)}
    size = raw["memcpyDescriptorSize"]
    number = re.fullmatch(r"(\d+)U?", size)
    if number is None and size not in consts:
        raise SystemExit(f"{path}: .memcpyDescriptorSize = {size}: no such constant")
    cmo = raw["cmoDDRStructInfoSize"]
    struct = re.fullmatch(r"sizeof\(\s*(\w+)\s*\)", cmo)
    if struct is None and cmo not in ("0", "0U"):
        raise SystemExit(f"{path}: .cmoDDRStructInfoSize = {cmo}: neither 0 nor sizeof(a struct)")
    return (
        raw["isStars"] == "true",
        int(number[1]) if number else consts[size],
        struct[1] if struct else None,
    )


def read(git_dir: str) -> tuple[str, list[str], dict[str, list[str]], dict[str, str], dict[str, Props]]:
    """(commit, the known names, family -> its names, family -> ``dir/file (SET of CHIP)``,
    family -> its :data:`PROPS`)."""
    commit = git(git_dir, "rev-parse", "HEAD").strip()
    known = known_features(git(git_dir, "show", f"HEAD:{ENUM_FILE}"))
    header_constants = _constants(_strip_comments(git(git_dir, "show", f"HEAD:{PROPS_HEADER}")))
    per_family: dict[str, list[str]] = {}
    origin: dict[str, str] = {}
    props: dict[str, Props] = {}
    for cfg, (chip, families) in CONFIGS.items():
        path = f"src/runtime/config/{cfg}/dev_info_reg.cc"
        src = git(git_dir, "show", f"HEAD:{path}")
        names = registered_features(path, src, chip)
        unknown = sorted(set(names) - set(known))
        if unknown:
            raise SystemExit(f"{path}: not members of RtOptionalFeatureType: {unknown}")
        values = dev_properties(path, src, header_constants)
        for fam in families:
            per_family[fam] = sorted(set(names))
            origin[fam] = f"config/{cfg}/dev_info_reg.cc ({chip})"
            props[fam] = values
    return commit, known, per_family, origin, props


def _literal(v: object) -> str:
    """A Python literal as the formatter writes it (strings in double quotes)."""
    return f'"{v}"' if isinstance(v, str) else repr(v)


def render(
    commit: str, known: list[str], per_family: dict[str, list[str]], origin: dict[str, str], props: dict[str, Props]
) -> str:
    out = [
        '"""The runtime\'s optional features (``RtOptionalFeatureType::RT_FEATURE_*``) of each emulated',
        "chip family: the set hicann/runtime's ``src/runtime/config/<dir>/dev_info_reg.cc`` registers",
        "with ``REGISTER_CHIP_FEATURE_SET`` for the family's chip type, which CANN's",
        "``IS_SUPPORT_CHIP_FEATURE(chipType, RT_FEATURE_X)`` consults.",
        "",
        "Generated by ``python tools/gen_rt_features.py`` (its docstring gives the rule) from",
        f"hicann/runtime commit {commit}. Do not edit by hand.",
        "Use :func:`has` (the current chip); ``KNOWN`` is every member of ``RtOptionalFeatureType``",
        "(src/runtime/inc/common/feature_type.h), so that a misspelt name fails loudly.",
        ":func:`properties` gives the few fields of the same files' ``DevProperties`` the emulator reads.",
        '"""',
        "",
        "from __future__ import annotations",
        "",
        "from typing import NamedTuple",
        "",
        "from .. import soc as _soc",
        "",
        "#: Every member of RtOptionalFeatureType (but RT_FEATURE_TYPE_MAX).",
        "KNOWN: frozenset[str] = frozenset(",
        "    {",
        *(f'        "{n}",' for n in sorted(known)),
        "    }",
        ")",
        "",
    ]
    # one set per config file (910_B_93's serves two families), then the families' map
    names: dict[str, str] = {}
    for fam in FAMILIES:
        if origin[fam] in names:
            continue
        cfg = origin[fam].split("/")[1]
        names[origin[fam]] = "_CONFIG_" + cfg.upper()
        out += [
            f"#: {origin[fam]}",
            f"{names[origin[fam]]}: frozenset[str] = frozenset(",
            "    {",
            *(f'        "{n}",' for n in per_family[fam]),
            "    }",
            ")",
            "",
        ]
    out += [
        "#: family -> the features its chip type's config registers.",
        "FEATURES: dict[str, frozenset[str]] = {",
        *(f'    "{fam}": {names[origin[fam]]},' for fam in FAMILIES),
        "}",
        "",
        "",
        "def has(feature: str) -> bool:",
        '    """Whether the current chip (``aclnn_py.soc.current().family``) has the runtime feature',
        "    ``feature`` (an ``RT_FEATURE_*`` name; a name that is no member of RtOptionalFeatureType is",
        '    a programming error)."""',
        '    assert feature in KNOWN, f"unknown runtime feature {feature!r}"',
        "    return feature in FEATURES[_soc.current().family]",
        "",
        "",
        "class DevProperties(NamedTuple):",
        '    """Fields of the chip type\'s ``DevProperties`` (``REGISTER_DEV_PROPERTIES``)."""',
        "",
        "    is_stars: bool  #: isStars (Runtime::ChipIsHaveStars)",
        "    memcpy_descriptor_size: int  #: memcpyDescriptorSize (bytes of a batch-copy descriptor)",
        "    cmo_addr_info: str | None  #: cmoDDRStructInfoSize's struct (None: 0, no CMO descriptor)",
        "",
        "",
        "#: family -> its chip type's DevProperties fields.",
        "PROPERTIES: dict[str, DevProperties] = {",
        *(f'    "{fam}": DevProperties({", ".join(_literal(v) for v in props[fam])}),' for fam in FAMILIES),
        "}",
        "",
        "",
        "def properties() -> DevProperties:",
        '    """The current chip\'s :class:`DevProperties`."""',
        "    return PROPERTIES[_soc.current().family]",
        "",
    ]
    return "\n".join(out)


def main(argv: list[str]) -> int:
    check, git_dir = parse_args(argv)
    commit, known, per_family, origin, props = read(git_dir)
    text = render(commit, known, per_family, origin, props)

    def summary() -> str:
        sizes = ", ".join(f"{f} {len(per_family[f])}" for f in FAMILIES)
        return f"{OUT}: {len(known)} known features; {sizes}"

    return write_or_check(OUT, text, check, "gen_rt_features.py", summary)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
