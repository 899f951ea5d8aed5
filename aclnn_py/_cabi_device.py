"""The C ABI's adaptors for the device and system queries whose C arguments are structs or
out-buffers (capi/gen_rt.py ADAPTED; :mod:`aclnn_py._cabi` merges :data:`ADAPTORS` into its
table): the version text and number, aclrtErrorInfo, the CANN attribute list, the pointer
attributes, the utilization figures, the device's UUID and PCI bus id.
"""

from __future__ import annotations

import ctypes
from typing import Any

from ._cabi_core import _cstr, _dev, _i32, _ref, _text_out, _u64


def _version_str(fn: Any, pkgName: int, versionStr: int) -> int:
    # versionStr is the caller's char[ACL_PKG_VERSION_MAX_SIZE]: the text and its NUL go there
    ref = _ref(versionStr)
    rc: int = fn(_cstr(pkgName), ref)
    if ref is not None and isinstance(ref.value, str):
        data = ref.value.encode("utf-8")[: _rt_constant("ACL_PKG_VERSION_MAX_SIZE") - 1] + b"\0"
        ctypes.memmove(versionStr, data, len(data))
    return rc


def _version_num(fn: Any, pkgName: int, versionNum: int) -> int:
    return int(fn(_cstr(pkgName), _i32(versionNum)))


def _rt_constant(name: str) -> int:
    import aclnn_py

    return int(getattr(aclnn_py, name))


class _MemUceInfo(ctypes.Structure):
    _fields_ = [("addr", ctypes.c_uint64), ("len", ctypes.c_uint64), ("reserved", ctypes.c_uint64 * 14)]


class _MemUceInfoArray(ctypes.Structure):
    _fields_ = [("arraySize", ctypes.c_uint64), ("memUceInfoArray", _MemUceInfo * 20)]


class _ErrorInfoDetail(ctypes.Union):
    _fields_ = [("uceInfo", _MemUceInfoArray), ("aicoreErrType", ctypes.c_int32)]


class _ErrorInfo(ctypes.Structure):
    """acl_rt.h's aclrtErrorInfo, field for field (2576 bytes on LP64)."""

    _fields_ = [
        ("tryRepair", ctypes.c_uint8),
        ("hasDetail", ctypes.c_uint8),
        ("reserved", ctypes.c_uint8 * 2),
        ("errorType", ctypes.c_int32),
        ("detail", _ErrorInfoDetail),
    ]


def _error_verbose(fn: Any, deviceId: int, errorInfo: int) -> int:
    ref = _ref(errorInfo)
    rc: int = fn(deviceId, ref)
    info = None if ref is None else ref.value
    if info is not None:
        out = _ErrorInfo.from_address(errorInfo)
        out.tryRepair = int(info.tryRepair)
        out.hasDetail = int(info.hasDetail)
        out.errorType = int(info.errorType)
        uce = list(getattr(info, "uceInfo", ()) or ())
        # CANN copies the UCE list only for a memory error with details; the AI Core type always
        if out.hasDetail == 1 and out.errorType == 1 and uce:
            out.detail.uceInfo.arraySize = len(uce)
            for i, (addr, length) in enumerate(uce[:20]):
                out.detail.uceInfo.memUceInfoArray[i].addr = addr
                out.detail.uceInfo.memUceInfoArray[i].len = length
        else:
            out.detail.aicoreErrType = int(getattr(info, "aicoreErrType", 0))
    return rc


# aclGetCannAttributeList hands out a pointer to a static array: one per distinct list, kept forever.
_ATTR_LISTS: dict[tuple[int, ...], Any] = {}


def _cann_attribute_list(fn: Any, cannAttrList: int, num: int) -> int:
    ref = _ref(cannAttrList)
    rc: int = fn(ref, _u64(num))
    if ref is not None and ref.value is not None:
        values = tuple(int(v) for v in ref.value)
        array = _ATTR_LISTS.setdefault(values, (ctypes.c_int32 * max(len(values), 1))(*values))
        ctypes.c_uint64.from_address(cannAttrList).value = ctypes.addressof(array)
    return rc


class _PtrAttributes(ctypes.Structure):
    """acl_rt.h's aclrtPtrAttributes: ``{{uint32_t id; aclrtMemLocationType type;} location;
    uint32_t pageSize; uint32_t rsv[4];}``."""

    _fields_ = [("id", ctypes.c_uint32), ("type", ctypes.c_int32), ("pageSize", ctypes.c_uint32)]


def _pointer_attributes(fn: Any, ptr: int, attributes: int) -> int:
    ref = _ref(attributes)
    rc: int = fn(_dev(ptr), ref)
    attrs = None if ref is None else ref.value
    if attrs is not None:
        out = _PtrAttributes.from_address(attributes)
        out.id, out.type, out.pageSize = attrs.location.id, attrs.location.type, attrs.pageSize
    return rc


class _UtilizationInfo(ctypes.Structure):
    """acl_rt.h's aclrtUtilizationInfo."""

    _fields_ = [
        ("cubeUtilization", ctypes.c_int32),
        ("vectorUtilization", ctypes.c_int32),
        ("aicpuUtilization", ctypes.c_int32),
        ("memoryUtilization", ctypes.c_int32),
        ("utilizationExtend", ctypes.c_uint64),
    ]


def _utilization_rate(fn: Any, deviceId: int, utilizationInfo: int) -> int:
    # in and out, as C's struct: the engine's object carries the reserved pointer in, the figures out
    if utilizationInfo == 0:
        return int(fn(deviceId, None))
    from .runtime.api_device_info import aclrtUtilizationInfo

    c_info = _UtilizationInfo.from_address(utilizationInfo)
    info = aclrtUtilizationInfo()
    info.utilizationExtend = c_info.utilizationExtend or None
    rc = int(fn(deviceId, info))
    if rc == 0:
        for field in ("cubeUtilization", "vectorUtilization", "aicpuUtilization", "memoryUtilization"):
            setattr(c_info, field, int(getattr(info, field)))
    return rc


def _device_uuid(fn: Any, deviceId: int, uuid: int) -> int:
    ref = _ref(uuid)
    rc = int(fn(deviceId, ref))
    if ref is not None and ref.value is not None:
        data = bytes(ref.value)[:16]
        ctypes.memmove(uuid, data, len(data))
    return rc


def _device_pci_bus_id(fn: Any, deviceId: int, pciBusId: int, size: int) -> int:
    ref = _ref(pciBusId)
    rc = int(fn(deviceId, ref, size))
    _text_out(pciBusId, ref, size)
    return rc


ADAPTORS: dict[str, Any] = {
    "aclsysGetVersionStr": _version_str,
    "aclsysGetVersionNum": _version_num,
    "aclrtGetErrorVerbose": _error_verbose,
    "aclGetCannAttributeList": _cann_attribute_list,
    "aclrtPointerGetAttributes": _pointer_attributes,
    "aclrtGetDeviceUtilizationRate": _utilization_rate,
    "aclrtDeviceGetUuid": _device_uuid,
    "aclrtDeviceGetPCIBusId": _device_pci_bus_id,
}
