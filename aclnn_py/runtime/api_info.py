"""System information of ``acl_rt.h`` / ``acl_base_rt.h``: package versions, CANN attributes, the
SoC's architecture, device capabilities of ``acl_base_rt.h``, the runtime's own version and the
float16 helpers.

The package versions come from an install tree as in CANN (``$ASCEND_HOME_PATH/share/info/<pkg>/
version.info``, the line ``Version=...``). Without ``ASCEND_HOME_PATH`` the emulator answers for
the one package it emulates, ``runtime`` (npu-runtime 9.1.0, hicann/runtime ``version.cmake``);
CANN itself would return 100003 there.
"""

from __future__ import annotations

import ctypes
import os
import re
from typing import Any

import numpy as np

from .. import soc as _soc
from .._capi import ApiError, as_float, as_int, describe
from .._ref import Ref, store
from ._checks import (
    EMU,
    PARAM,
    RT_PARAM,
    E,
    acl_null,
    acl_reason,
    emu,
    fb_invalid,
    int_arg,
    out_arg,
    rt_api,
)
from .device import RT
from .enums import ACL_MAJOR_VERSION, ACL_MINOR_VERSION, ACL_PATCH_VERSION, ACL_PKG_VERSION_MAX_SIZE

# ---------------------------------------------------------------------------------------------
# package versions: aclsysGetVersionStr / aclsysGetVersionNum
# ---------------------------------------------------------------------------------------------

HOME_ENV = "ASCEND_HOME_PATH"
EMULATED_PACKAGES = {"runtime": "9.1.0"}  # what answers without an install tree
_INSTALL_INFO = "/etc/ascend_install.info"
_INSTALL_KEYS = {"driver": "Driver_Install_Path_Param=", "firmware": "Firmware_Install_Path_Param="}


def _version_file(path: str, raw: bool = False) -> str | None:
    """The trimmed value (``raw``: untrimmed, as aclsysGetCANNVersion's ParseVersionInfo takes it)
    of the first line holding ``Version=``; None if the file cannot be read. A file without it
    is 100003 with EH0004."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
    except OSError:
        return None
    for line in lines:
        pos = line.find("Version=")
        if pos >= 0:
            value = line[pos + len("Version=") :]
            value = value if raw else value.strip()
            if value:
                return value
            break
    raise ApiError(
        E.ACL_ERROR_INVALID_FILE,
        ("EH0004", f"File {path} is invalid. Reason: Keyword Version= not found in version info file."),
    )


def _install_root(pkg: str) -> str | None:
    """Where ``pkg``'s version.info lives (None: nowhere to look)."""
    if pkg in _INSTALL_KEYS:
        try:
            with open(_INSTALL_INFO, encoding="utf-8", errors="replace") as f:
                lines = f.read().splitlines()
        except FileNotFoundError:
            return None
        except OSError as e:
            raise ApiError(
                E.ACL_ERROR_INVALID_FILE,
                ("EH0004", f"File {_INSTALL_INFO} is invalid. Reason: Failed to open file, {e.strerror}."),
            ) from None
        key = _INSTALL_KEYS[pkg]
        for line in lines:
            if line.startswith(key):
                return os.path.join(line[len(key) :].strip(), pkg)
        return None
    home = os.environ.get(HOME_ENV)
    if not home or not os.path.exists(home):
        return None
    return os.path.join(os.path.realpath(home), "share", "info", pkg)


def package_version(pkg: str, raw: bool = False) -> str | None:
    """``GetPkgVersionContent``: the package's version, trying the ``-``/``_`` spelling too
    (``raw``: the value untrimmed)."""
    names = [pkg]
    if "-" in pkg:
        names.append(pkg.replace("-", "_"))
    elif "_" in pkg:
        names.append(pkg.replace("_", "-"))
    failure: ApiError | None = None
    for name in names:
        root = _install_root(name)
        if root is None:
            continue
        try:
            value = _version_file(os.path.join(root, "version.info"), raw)
        except ApiError as e:
            failure = failure or e
            continue
        if value is not None:
            return value
    if failure is not None:
        raise failure
    if os.environ.get(HOME_ENV) is None and pkg not in _INSTALL_KEYS:
        return EMULATED_PACKAGES.get(pkg)
    return None


def _package_arg(pkgName: object, func: str) -> str:
    if pkgName is None:
        raise ApiError(PARAM, acl_null(func, "pkgName"))
    if isinstance(pkgName, bytes):
        return pkgName.decode("utf-8", "replace")
    if not isinstance(pkgName, str):
        raise ApiError(PARAM, emu(f"{func}: pkgName must be a str, got {type(pkgName).__name__}."))
    return pkgName


@rt_api
def aclsysGetVersionStr(pkgName: str | None, versionStr: object) -> int:
    """The version string of a package (a directory of ``share/info``, or ``driver`` /
    ``firmware``); 100003 when it cannot be found (logged only, as in CANN)."""
    out = out_arg(versionStr, "aclsysGetVersionStr", "versionStr", numeric=False)
    pkg = _package_arg(pkgName, "aclsysGetVersionStr")
    version = package_version(pkg)
    if version is None:
        return E.ACL_ERROR_INVALID_FILE
    if len(version.encode()) >= ACL_PKG_VERSION_MAX_SIZE:
        raise ApiError(
            E.ACL_ERROR_INTERNAL_ERROR,
            emu(
                f"aclsysGetVersionStr: the version of {pkg} has {len(version)} characters, more than the 127 it holds."
            ),
        )
    store(out, version)
    return E.ACL_SUCCESS


_WEIGHTS = (10_000_000, 100_000, 1_000)  # major, minor, patch (acl.cpp:60-62)
_PRE_RELEASE = (("alpha", 300), ("beta", 200), ("rc", 100))
_STOI = re.compile(r"\s*[+-]?\d+")


def version_number(text: str) -> int | None:
    """``CalculateVersionNum``: ``X.Y.Z`` -> X*10^7 + Y*10^5 + Z*10^3, less 300/200/100 plus the
    number for an ``alpha``/``beta``/``rc`` suffix. None where CANN fails (500000)."""
    dot1 = text.find(".")
    dot2 = text.find(".", dot1 + 1) if dot1 > 0 else -1
    if dot1 <= 0 or dot2 < 0 or dot2 == dot1 + 1:
        return None
    m = re.match(r"\d+", text[dot2 + 1 :])
    if m is None:
        return None
    parts = [_STOI.match(text[:dot1]), _STOI.match(text[dot1 + 1 : dot2])]
    if parts[0] is None or parts[1] is None:  # std::stoi throws
        return None
    base = int(parts[0].group()) * _WEIGHTS[0] + int(parts[1].group()) * _WEIGHTS[1] + int(m.group()) * _WEIGHTS[2]
    suffix = text[dot2 + 1 + m.end() :]
    if not suffix:
        return base
    lower = suffix.lower()
    for keyword, weight in _PRE_RELEASE:
        index = lower.find(keyword)
        if index < 0:
            continue
        if index > 1:  # more than one separator before the keyword
            return None
        number = _pre_release_number(suffix[index + len(keyword) :])
        return None if number is None else base - weight + number
    return None


def _pre_release_number(part: str) -> int | None:
    """``ParsePreNumStrict``: "", "1", ".1", "-1" (at most one separator, then only digits)."""
    if not part:
        return 0
    m = re.fullmatch(r"([.-]?)(\d+)", part)
    if m is None:
        return None
    return int(m.group(2))


@rt_api
def aclsysGetVersionNum(pkgName: str | None, versionNum: object) -> int:
    """The package's version as a number (``8.5.0`` -> 80500000, ``9.0.0-beta.1`` -> 89999801)."""
    out = out_arg(versionNum, "aclsysGetVersionNum", "versionNum")
    pkg = _package_arg(pkgName, "aclsysGetVersionNum")
    version = package_version(pkg)
    if version is None:
        return E.ACL_ERROR_INVALID_FILE
    number = version_number(version)
    if number is None:
        return E.ACL_ERROR_INTERNAL_ERROR  # logged only
    store(out, number)
    return E.ACL_SUCCESS


# ---------------------------------------------------------------------------------------------
# CANN attributes, the architecture, device capabilities
# ---------------------------------------------------------------------------------------------


def _cann_attributes() -> tuple[int, ...]:
    """ACL_CANN_ATTR_INF_NAN and _BF16 need the SoC's support_inf_nan / support_bf16;
    ACL_CANN_ATTR_JIT_COMPILE only the runtime version (>= 6.4)."""
    return (0, 1, 2) if _soc.current().supports_bf16_and_inf_nan else (2,)


@rt_api
def aclGetCannAttributeList(cannAttrList: object, num: object) -> int:
    """The attributes available here, in enum order (a tuple of ints) and their number."""
    out_list = out_arg(cannAttrList, "aclGetCannAttributeList", "cannAttrList", numeric=False)
    out_num = out_arg(num, "aclGetCannAttributeList", "num")
    attrs = _cann_attributes()
    store(out_list, attrs)
    store(out_num, len(attrs))
    return E.ACL_SUCCESS


@rt_api
def aclGetCannAttribute(cannAttr: int, value: object) -> int:
    """1 if the attribute is available, else 0; an attribute CANN does not know is 100000 (a
    WARN only)."""
    out = out_arg(value, "aclGetCannAttribute", "value")
    attr = int_arg(cannAttr, "cannAttr", -(2**31), 2**31 - 1)
    if attr not in (0, 1, 2):
        return PARAM
    store(out, 1 if attr in _cann_attributes() else 0)
    return E.ACL_SUCCESS


_ARCH_DESC = "Checking operator instruction compatibility based on the SoC version"


@rt_api
def aclrtCheckArchCompatibility(socVersion: str | None, canCompatible: object) -> int:
    """1 if ``socVersion`` has the NPU architecture of the emulated SoC, else 0 (any SoC name of
    CANN's platform configuration is known)."""
    rt_fn = "rtCheckArchCompatibility"
    for obj, name in ((socVersion, "omSocVersion"), (canCompatible, "canCompatible")):
        if obj is None:
            raise ApiError(
                RT_PARAM, ("EE1004", f"{_ARCH_DESC} failed because {name} cannot be a NULL pointer."), fb_invalid(rt_fn)
            )
    out = out_arg(canCompatible, "aclrtCheckArchCompatibility", "canCompatible")
    soc_name: object = socVersion.decode() if isinstance(socVersion, bytes) else socVersion
    if not isinstance(soc_name, str):
        raise ApiError(
            PARAM, emu(f"aclrtCheckArchCompatibility: socVersion must be a str, got {type(soc_name).__name__}.")
        )
    name = soc_name
    if name == "":
        raise ApiError(RT_PARAM, fb_invalid(rt_fn))
    arch = _soc.npu_arch_of(name)
    if arch is None:
        raise ApiError(
            RT_PARAM,
            (
                "EE1011",
                f"{_ARCH_DESC} failed. Value {name} for parameter omSocVersion is invalid. Reason: SoC version {name} "
                "is invalid.",
            ),
            fb_invalid(rt_fn),
        )
    store(out, 1 if arch == _soc.current().npu_arch_number else 0)
    return E.ACL_SUCCESS


@rt_api
def aclGetDeviceCapability(deviceId: int, deviceInfo: int, value: object) -> int:
    """ACL_DEVICE_INFO_AI_CORE_NUM / _VECTOR_CORE_NUM / _L2_SIZE of the SoC's platform ini (the
    same for every device); another deviceInfo is 100000 without a report."""
    out = out_arg(value, "aclGetDeviceCapability", "value")
    dev_id = int_arg(deviceId, "deviceId", 0, 2**32 - 1)
    info = int_arg(deviceInfo, "deviceInfo", -(2**31), 2**31 - 1)
    count = RT.device_count
    if dev_id > count - 1:
        raise ApiError(
            PARAM,
            acl_reason(
                "aclGetDeviceCapability", dev_id, "deviceId", f"deviceId {dev_id} greater than deviceNum {count}"
            ),
        )
    soc = _soc.current()
    values = {0: soc.ai_core_cnt, 1: soc.vector_core_cnt, 2: soc.l2_size}
    if info not in values:
        return PARAM
    store(out, values[info])
    return E.ACL_SUCCESS


@rt_api
def aclrtGetVersion(majorVersion: object, minorVersion: object, patchVersion: object) -> int:
    """The ACL version of the emulated ``acl_rt.h``: 1.17.0."""
    outs = [
        out_arg(obj, "aclrtGetVersion", name)
        for obj, name in (
            (majorVersion, "majorVersion"),
            (minorVersion, "minorVersion"),
            (patchVersion, "patchVersion"),
        )
    ]
    for out, v in zip(outs, (ACL_MAJOR_VERSION, ACL_MINOR_VERSION, ACL_PATCH_VERSION), strict=True):
        store(out, v)
    return E.ACL_SUCCESS


# ---------------------------------------------------------------------------------------------
# float16 (src/acl/aclrt_impl/types/fp16_impl.cpp)
# ---------------------------------------------------------------------------------------------


def aclFloat16ToFloat(value: int) -> float:
    """CANN's conversion: exponent 31 is an ordinary exponent (0x7C00 -> 65536.0, a NaN
    -> (1 + m/1024) * 65536), zero keeps its sign, subnormals are exact."""
    try:
        bits = as_int(value, "value", PARAM, -(2**63), 2**64 - 1, eid=EMU) & 0xFFFF
    except ApiError as e:
        e.report()  # no status code: a Python argument C could not pass is reported, the result is 0
        return 0.0
    sign = -1.0 if bits & 0x8000 else 1.0
    exp = (bits >> 10) & 0x1F
    man = bits & 0x3FF
    if exp == 0:
        return sign * man * 2.0**-24
    return sign * (1.0 + man / 1024.0) * 2.0 ** (exp - 15)


def aclFloatToFloat16(value: float) -> int:
    """CANN's conversion: round to nearest even; |x| beyond the float16 range (Inf and NaN too)
    saturates to ±65504 (0x7BFF / 0xFBFF); values below the smallest subnormal flush to ±0 (a
    value between half of it and it rounds up to 0x0001)."""
    try:
        f = as_float(value, "value", PARAM, eid=EMU)
    except ApiError as e:
        e.report()  # no status code: a Python argument C could not pass is reported, the result is 0
        return 0
    with np.errstate(over="ignore"):
        bits = int(np.array([f], dtype=np.float32).view(np.uint32)[0])  # C's double -> float
    sign = (bits >> 16) & 0x8000
    exp = (bits >> 23) & 0xFF
    man = bits & 0x7FFFFF
    if exp > 142:  # |x| >= 65536, Inf, NaN
        return sign | 0x7BFF
    if exp == 0 and man == 0:
        return sign
    if exp >= 113:  # a normal float16
        half_exp = exp - 112
        half_man, rest = man >> 13, man & 0x1FFF
        if rest > 0x1000 or (rest == 0x1000 and half_man & 1):
            half_man += 1
            if half_man == 0x400:
                half_man, half_exp = 0, half_exp + 1
        if half_exp >= 31:
            return sign | 0x7BFF
        return sign | (half_exp << 10) | half_man
    if exp >= 103:  # a float16 subnormal
        full = man | 0x800000
        shift = 126 - exp  # value = full * 2^(exp-150); in units of 2^-24: full >> (126 - exp)
        q, rest = full >> shift, full & ((1 << shift) - 1)
        half = 1 << (shift - 1)
        if rest > half or (rest == half and q & 1):
            q += 1
        return sign | q
    if exp == 102 and man != 0:
        return sign | 0x0001
    return sign


# ---------------------------------------------------------------------------------------------
# aclsysGetCANNVersion (deprecated in favour of aclsysGetVersionStr / Num, still exported)
# ---------------------------------------------------------------------------------------------

ACL_PKG_VERSION_PARTS_MAX_SIZE = 64
# aclCANNPackageName -> the package directory read (acl.cpp's kMapToPkgName)
_CANN_PACKAGES = {
    0: "runtime",
    1: "runtime",
    2: "bisheng-compiler",
    3: "hccl",
    4: "oam-tools",
    5: "ops-legacy",
    6: "ops-legacy",
    7: "driver",
}


class aclCANNPackageVersion(ctypes.Structure):
    """``aclCANNPackageVersion``: the version and its four parts, as C strings."""

    _fields_ = [
        ("version", ctypes.c_char * ACL_PKG_VERSION_MAX_SIZE),
        ("majorVersion", ctypes.c_char * ACL_PKG_VERSION_PARTS_MAX_SIZE),
        ("minorVersion", ctypes.c_char * ACL_PKG_VERSION_PARTS_MAX_SIZE),
        ("releaseVersion", ctypes.c_char * ACL_PKG_VERSION_PARTS_MAX_SIZE),
        ("patchVersion", ctypes.c_char * ACL_PKG_VERSION_PARTS_MAX_SIZE),
        ("reserved", ctypes.c_char * ACL_PKG_VERSION_MAX_SIZE),
    ]


def _fill_version(text: str) -> aclCANNPackageVersion | None:
    """FillinPackageVersion: ``a.b[.c[.d]]`` (a ``-suffix`` joined as one more part, its dots
    removed: ConvertVersion); fewer than two parts is a failure."""
    head, dash, tail = text.partition("-")
    text = f"{head}.{tail.replace('.', '')}" if dash else text
    parts = text.split(".")
    if len(parts) < 2:
        return None
    parts += ["0"] * (4 - len(parts))
    if not all(parts[:4]):
        return None  # std::string::copy of an empty part copies nothing: CANN fails
    out = aclCANNPackageVersion()
    out.version = text.encode()[: ACL_PKG_VERSION_MAX_SIZE - 1]
    out.majorVersion = parts[0].encode()[: ACL_PKG_VERSION_PARTS_MAX_SIZE - 1]
    out.minorVersion = parts[1].encode()[: ACL_PKG_VERSION_PARTS_MAX_SIZE - 1]
    out.releaseVersion = parts[2].encode()[: ACL_PKG_VERSION_PARTS_MAX_SIZE - 1]
    out.patchVersion = parts[3].encode()[: ACL_PKG_VERSION_PARTS_MAX_SIZE - 1]
    return out


@rt_api
def aclsysGetCANNVersion(name: int, version: object) -> int:
    """The version of a CANN package by enum (deprecated): 100003 when the package cannot be
    found or its version cannot be split, 100000 for an unknown name (both logged only)."""
    if version is None:
        raise ApiError(PARAM, acl_null("aclsysGetCANNVersion", "version"))
    if not isinstance(version, (aclCANNPackageVersion, Ref)):
        # a bare address cannot be checked from Python: only the C ABI passes one (its adaptor
        # makes the struct); writing through any integer could crash the process
        raise ApiError(
            PARAM,
            emu(f"aclsysGetCANNVersion: version must be an aclCANNPackageVersion or a Ref(), got {describe(version)}."),
        )
    which = int_arg(name, "name", -(2**31), 2**31 - 1)
    pkg = _CANN_PACKAGES.get(which)
    if pkg is None:
        return E.ACL_ERROR_INVALID_PARAM
    try:
        text = package_version(pkg, raw=True)
    except ApiError:
        # GetCANNVersionInternal: a version.info without a usable Version= line is ACL_LOG_ERROR
        # and 100003 (acl.cpp ParseVersionInfo), no report (aclsysGetVersionStr reports EH0004)
        return E.ACL_ERROR_INVALID_FILE
    if text is None:
        return E.ACL_ERROR_INVALID_FILE
    filled = _fill_version(text)
    if filled is None:
        return E.ACL_ERROR_INVALID_FILE
    if isinstance(version, aclCANNPackageVersion):  # the C ABI's struct (CABI_ADAPTORS) or a Python one
        ctypes.memmove(ctypes.addressof(version), ctypes.addressof(filled), ctypes.sizeof(filled))
    else:
        store(out_arg(version, "aclsysGetCANNVersion", "version", numeric=False), filled)
    return E.ACL_SUCCESS


def _cann_version_c(fn: Any, name: int, version: int) -> int:
    """The C ABI's aclsysGetCANNVersion: the caller's struct, written in place."""
    return int(fn(name, None if version == 0 else aclCANNPackageVersion.from_address(version)))


CABI_ADAPTORS: dict[str, Any] = {"aclsysGetCANNVersion": _cann_version_c}


__all__ = [
    "aclCANNPackageVersion",
    "aclFloat16ToFloat",
    "aclFloatToFloat16",
    "aclGetCannAttribute",
    "aclGetCannAttributeList",
    "aclGetDeviceCapability",
    "aclrtCheckArchCompatibility",
    "aclrtGetVersion",
    "aclsysGetCANNVersion",
    "aclsysGetVersionNum",
    "aclsysGetVersionStr",
]
