"""The emulated chip (SoC) and the rules that depend on it.

Chosen by the environment variable ``ACLNN_PY_SOC`` (default ``Ascend910B``), read at
``aclInit``; phase-1 calls made before ``aclInit`` read it on the spot. A family name
(``Ascend910B``) or a product name of that family (``Ascend910B2``, ``Ascend910_9391``,
``Ascend950PR_9599``, ``Ascend310P3`` ...) is accepted and reported back by
``aclrtGetSocName()`` exactly as given.
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Iterator

import attrs

ENV_VAR = "ACLNN_PY_SOC"
DEFAULT_SOC = "Ascend910B"


@attrs.frozen
class SocProfile:
    """Everything the emulator needs to know about one chip family."""

    name: str  # what aclrtGetSocName() reports
    family: str  # Ascend910B | Ascend910_93 | Ascend950 | Ascend910 | Ascend310P
    npu_arch: str  # DAV_2201, DAV_3510, DAV_1001, DAV_2002
    malloc_padding: int  # aclrtMalloc adds ALIGN_UP(size, 32) + padding
    max_streams: int  # per device, default stream included
    kernel_family: str  # "tbe" (legacy built-in kernels) or "arch35" (ops-nn AscendC, 950)
    lib_api_workspace: int  # AscendC GetLibApiWorkSpaceSize(): system workspace of AscendC kernels

    @property
    def is_regbase(self) -> bool:
        """``IsRegbase()``: true only for the DAV_3510 architecture (Ascend950)."""
        return self.npu_arch == "DAV_3510"

    @property
    def no_move_align(self) -> bool:
        """SoCs on which ViewCopy may only re-point a result when the output has no tail."""
        return self.family in ("Ascend910", "Ascend310", "Ascend310P")


_MiB = 1024 * 1024

_FAMILIES: dict[str, tuple[str, int, int, str]] = {
    # family: (npu arch, malloc padding, max streams, kernel family)
    "Ascend910B": ("DAV_2201", 32, 1984, "tbe"),
    "Ascend910_93": ("DAV_2201", 32, 1984, "tbe"),
    "Ascend950": ("DAV_3510", 0, 1984, "arch35"),
    "Ascend910": ("DAV_1001", 32, 1024, "tbe"),
    "Ascend310P": ("DAV_2002", 32, 1024, "tbe"),
}

# Longest prefixes first so that "Ascend910B2" is not taken for "Ascend910".
_PATTERNS = [
    (re.compile(r"Ascend910_93\w*"), "Ascend910_93"),
    (re.compile(r"Ascend910B\w*(-\w+)?"), "Ascend910B"),
    (re.compile(r"Ascend950\w*"), "Ascend950"),
    (re.compile(r"Ascend310P\w*"), "Ascend310P"),
    (re.compile(r"Ascend910(A|ProA|ProB|PremiumA)?"), "Ascend910"),
]

KNOWN_FAMILIES = tuple(_FAMILIES)


class UnknownSocError(ValueError):
    """The configured SoC name is not one the emulator knows."""


def profile_for(name: str) -> SocProfile:
    """The profile of a SoC name; raises :class:`UnknownSocError` for unknown names."""
    for pattern, family in _PATTERNS:
        if pattern.fullmatch(name):
            arch, padding, streams, kernels = _FAMILIES[family]
            return SocProfile(name, family, arch, padding, streams, kernels, 16 * _MiB)
    raise UnknownSocError(
        f"unknown SoC {name!r} in {ENV_VAR}; expected one of {', '.join(KNOWN_FAMILIES)} "
        "(or a product name of those families, e.g. Ascend910B2)"
    )


def from_environment() -> SocProfile:
    """The profile named by ``ACLNN_PY_SOC`` (default Ascend910B)."""
    return profile_for(os.environ.get(ENV_VAR, "") or DEFAULT_SOC)


_active: SocProfile | None = None


def set_active(profile: SocProfile | None) -> None:
    """Pin the profile for the life of the runtime (aclInit) or unpin it (aclFinalize)."""
    global _active
    _active = profile


@contextlib.contextmanager
def emulating(name: str) -> Iterator[SocProfile]:
    """Evaluate chip-dependent rules as on ``name`` (for tables and tests), then restore."""
    global _active
    saved, _active = _active, profile_for(name)
    try:
        yield _active
    finally:
        _active = saved


def current() -> SocProfile:
    """The SoC in effect: the one pinned at aclInit, else whatever the environment says now."""
    return _active if _active is not None else from_environment()
