"""The emulated chip (SoC) and the rules that depend on it.

Chosen by the environment variable ``ACLNN_PY_SOC`` (default ``Ascend910B``), read at
``aclInit``; phase-1 calls made before ``aclInit`` read it on the spot. Accepted: a real SoC
name of CANN's platform configuration (``src/platform/platform_config/{cann,cann-dev}/<name>.ini``
in hicann/runtime: ``Ascend910B1`` ... ``Ascend910B4-1``, ``Ascend910_9362`` ... ``Ascend910_9392``,
``Ascend950PR_9599``, ``Ascend950DT_9591`` ..., ``Ascend910A`` ..., ``Ascend310P1`` ...), which
``aclrtGetSocName()`` answers as a device does, and the rules of its family apply; or a family
name (``Ascend910B``, ``Ascend910_93``, ``Ascend950``, ``Ascend910``, ``Ascend310P``), which
stands for one real SoC of that family (:data:`FAMILY_DEFAULTS`) and answers that SoC's name.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator

import attrs

ENV_VAR = "ACLNN_PY_SOC"
DEFAULT_SOC = "Ascend910B"


@attrs.frozen
class SocProfile:
    """Everything the emulator needs to know about one chip family."""

    name: str  # what aclrtGetSocName() reports: the real SoC name
    family: str  # Ascend910B | Ascend910_93 | Ascend950 | Ascend910 | Ascend310P
    npu_arch: str  # DAV_2201, DAV_3510, DAV_1001, DAV_2002
    malloc_padding: int  # aclrtMalloc adds ALIGN_UP(size, 32) + padding
    max_streams: int  # per device, default stream included
    kernel_family: str  # "tbe" (legacy built-in kernels) or "arch35" (ops-nn AscendC, 950)
    lib_api_workspace: int  # AscendC GetLibApiWorkSpaceSize(): system workspace of AscendC kernels
    ai_core_cnt: int = 0  # [SoCInfo] of the SoC's platform ini
    cube_core_cnt: int = 0  # 0: the ini has no such key (Ascend910, Ascend310P)
    vector_core_cnt: int = 0
    l2_size: int = 0
    max_notifies: int = 8192  # notifies per device (CANN's aclrtCreateNotify documentation)
    ai_cpu_cnt: int = 0

    @property
    def npu_arch_number(self) -> int:
        """``[version] NpuArch`` of the ini: 2201, 3510, 1001, 2002."""
        return int(self.npu_arch.removeprefix("DAV_"))

    @property
    def supports_bf16_and_inf_nan(self) -> bool:
        """``SoCInfo.support_bf16`` / ``support_inf_nan`` (set on 910B, 910_93 and 950 only)."""
        return self.family in ("Ascend910B", "Ascend910_93", "Ascend950")

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

# The real SoCs of the five families, from their platform ini (hicann/runtime
# src/platform/platform_config/cann/*.ini and cann-dev/*.ini, [SoCInfo]):
# name: (family = Short_SoC_version, ai_core_cnt, cube_core_cnt, vector_core_cnt, l2_size MiB, ai_cpu_cnt)
_SOCS: dict[str, tuple[str, int, int, int, int, int]] = {
    "Ascend910B1": ("Ascend910B", 24, 24, 48, 192, 6),
    "Ascend910B2": ("Ascend910B", 24, 24, 48, 192, 6),
    "Ascend910B2C": ("Ascend910B", 24, 24, 48, 192, 6),
    "Ascend910B3": ("Ascend910B", 20, 20, 40, 192, 6),
    "Ascend910B4": ("Ascend910B", 20, 20, 40, 96, 6),
    "Ascend910B4-1": ("Ascend910B", 20, 20, 40, 168, 6),
    "Ascend910_9362": ("Ascend910_93", 20, 20, 40, 168, 6),
    "Ascend910_9363": ("Ascend910_93", 20, 20, 40, 168, 6),
    "Ascend910_9372": ("Ascend910_93", 20, 20, 40, 192, 6),
    "Ascend910_9381": ("Ascend910_93", 24, 24, 48, 192, 6),
    "Ascend910_9382": ("Ascend910_93", 24, 24, 48, 192, 6),
    "Ascend910_9391": ("Ascend910_93", 24, 24, 48, 192, 6),
    "Ascend910_9392": ("Ascend910_93", 24, 24, 48, 192, 6),
    "Ascend950PR_950z": ("Ascend950", 4, 4, 8, 16, 5),
    "Ascend950PR_9579": ("Ascend950", 28, 28, 56, 128, 7),
    "Ascend950PR_957b": ("Ascend950", 28, 28, 56, 112, 5),
    "Ascend950PR_957bx": ("Ascend950", 28, 28, 56, 112, 5),
    "Ascend950PR_957c": ("Ascend950", 28, 28, 56, 112, 5),
    "Ascend950PR_957d": ("Ascend950", 28, 28, 56, 96, 5),
    "Ascend950PR_9589": ("Ascend950", 32, 32, 64, 128, 6),
    "Ascend950PR_958b": ("Ascend950", 32, 32, 64, 112, 7),
    "Ascend950PR_9599": ("Ascend950", 36, 36, 72, 128, 6),
    "Ascend950DT_950x": ("Ascend950", 8, 8, 16, 32, 5),
    "Ascend950DT_950y": ("Ascend950", 8, 8, 16, 32, 5),
    "Ascend950DT_9571": ("Ascend950", 28, 28, 56, 128, 7),
    "Ascend950DT_9572": ("Ascend950", 28, 28, 56, 128, 7),
    "Ascend950DT_9573": ("Ascend950", 28, 28, 56, 112, 5),
    "Ascend950DT_9574": ("Ascend950", 28, 28, 56, 112, 5),
    "Ascend950DT_9575": ("Ascend950", 28, 28, 56, 128, 7),
    "Ascend950DT_9576": ("Ascend950", 28, 28, 56, 128, 7),
    "Ascend950DT_9577": ("Ascend950", 28, 28, 56, 112, 5),
    "Ascend950DT_9578": ("Ascend950", 28, 28, 56, 112, 5),
    "Ascend950DT_9581": ("Ascend950", 32, 32, 64, 128, 6),
    "Ascend950DT_9581x": ("Ascend950", 32, 32, 64, 128, 6),
    "Ascend950DT_9582": ("Ascend950", 32, 32, 64, 128, 6),
    "Ascend950DT_9582x": ("Ascend950", 32, 32, 64, 128, 6),
    "Ascend950DT_9583": ("Ascend950", 32, 32, 64, 112, 7),
    "Ascend950DT_9584": ("Ascend950", 32, 32, 64, 112, 7),
    "Ascend950DT_9585": ("Ascend950", 32, 32, 64, 128, 6),
    "Ascend950DT_9586": ("Ascend950", 32, 32, 64, 128, 6),
    "Ascend950DT_9587": ("Ascend950", 32, 32, 64, 112, 7),
    "Ascend950DT_9588": ("Ascend950", 32, 32, 64, 112, 7),
    "Ascend950DT_9591": ("Ascend950", 36, 36, 72, 128, 6),
    "Ascend950DT_9592": ("Ascend950", 36, 36, 72, 128, 6),
    "Ascend950DT_9595": ("Ascend950", 36, 36, 72, 128, 6),
    "Ascend950DT_9596": ("Ascend950", 36, 36, 72, 128, 6),
    "Ascend950DT_95A1": ("Ascend950", 36, 36, 72, 128, 6),
    "Ascend950DT_95A2": ("Ascend950", 36, 36, 72, 128, 6),
    "Ascend910A": ("Ascend910", 32, 0, 0, 32, 4),
    "Ascend910ProA": ("Ascend910", 32, 0, 0, 32, 4),
    "Ascend910ProB": ("Ascend910", 30, 0, 0, 32, 4),
    "Ascend910PremiumA": ("Ascend910", 32, 0, 0, 32, 4),
    "Ascend310P1": ("Ascend310P", 10, 0, 8, 16, 8),
    "Ascend310P3": ("Ascend310P", 8, 0, 7, 16, 7),
    "Ascend310P5": ("Ascend310P", 8, 0, 7, 16, 8),
    "Ascend310P7": ("Ascend310P", 8, 0, 7, 16, 8),
}

# A family name stands for one real SoC of the family (Ascend910 -> Ascend910A as CANN's
# platform manager maps it, platform_manager_v2.cpp:243-245). "Ascend910B" is kept as the name
# of the A2 family: the old Ascend 910 chip of that name (cann/Ascend910B.ini) is not offered.
FAMILY_DEFAULTS = {
    "Ascend910B": "Ascend910B1",
    "Ascend910_93": "Ascend910_9391",
    "Ascend950": "Ascend950PR_9599",
    "Ascend910": "Ascend910A",
    "Ascend310P": "Ascend310P3",
}

# Notifies per device (documentation of aclrtCreateNotify): 65535 on 950, 8192 on A2/A3, 1024 on 310P/910.
_MAX_NOTIFIES = {"Ascend950": 65535, "Ascend910B": 8192, "Ascend910_93": 8192, "Ascend910": 1024, "Ascend310P": 1024}

KNOWN_SOCS = tuple(_SOCS)

# [version] NpuArch of the SoCs of CANN's platform configuration the emulator does not offer
# (aclrtCheckArchCompatibility knows every one).
_OTHER_ARCHS = {
    "Ascend910B": 1001,  # the old Ascend 910 chip of that name (cann/Ascend910B.ini)
    "Ascend310B1": 3002, "Ascend310B2": 3002, "Ascend310B3": 3002, "Ascend310B4": 3002,
    "Ascend031": 3004, "Ascend035": 3505, "Ascend035A": 3505, "Ascend035B": 3505,
    "Ascend350_354f": 3510, "Ascend350_355e": 3510,
}  # fmt: skip


def npu_arch_of(name: str) -> int | None:
    """The NpuArch of a SoC name of CANN's platform configuration (``Ascend910`` is read as
    ``Ascend910A``, as CANN's platform manager does); None for an unknown name."""
    if name in _OTHER_ARCHS:
        return _OTHER_ARCHS[name]
    entry = _SOCS.get("Ascend910A" if name == "Ascend910" else name)
    if entry is None:
        return None
    return int(_FAMILIES[entry[0]][0].removeprefix("DAV_"))


KNOWN_FAMILIES = tuple(_FAMILIES)


class UnknownSocError(ValueError):
    """The configured SoC name is not one the emulator knows."""


def profile_for(name: str) -> SocProfile:
    """The profile of a SoC name or family name; raises :class:`UnknownSocError` otherwise."""
    real = FAMILY_DEFAULTS.get(name, name)
    entry = _SOCS.get(real)
    if entry is None:
        raise UnknownSocError(
            f"unknown SoC {name!r} in {ENV_VAR}; expected a SoC name of CANN's platform configuration (e.g. "
            f"{', '.join(FAMILY_DEFAULTS.values())}) or a family name ({', '.join(KNOWN_FAMILIES)})"
        )
    family, aic, cube, vec, l2_mib, aicpu = entry
    arch, padding, streams, kernels = _FAMILIES[family]
    return SocProfile(
        real,
        family,
        arch,
        padding,
        streams,
        kernels,
        16 * _MiB,
        aic,
        cube,
        vec,
        l2_mib * _MiB,
        _MAX_NOTIFIES[family],
        aicpu,
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
