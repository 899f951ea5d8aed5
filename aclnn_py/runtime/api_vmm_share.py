"""Shareable handles of the virtual memory API: export a physical allocation's handle as a number
(or a fabric handle), name the processes that may import it, and import it as a handle of this
process. Import works within the process (the handle then names the same physical memory, so a
mapping of it aliases the exporter's); another process would need this process's simulated memory,
which a separate Python process does not share.
"""

from __future__ import annotations

import ctypes
import os

from .._capi import UINT64_MAX, ApiError, as_pointer, describe
from .._ref import Ref, store
from ._checks import (
    PARAM,
    RT_PARAM,
    E,
    acl_null,
    acl_reason,
    acl_value,
    emu,
    fb_invalid,
    int_arg,
    out_arg,
    rt_api,
    rt_value,
)
from ._structs import array_in
from .api_device import check_device_id
from .api_vmm import SHARED, Physical, Shareable, handle_out, new_handle, new_key, physical
from .device import RT
from .memory import called_from_c

# ---------------------------------------------------------------------------------------------
# shareable handles
# ---------------------------------------------------------------------------------------------

_EXPORT_DESC = "Exporting the physical memory handle of the device"
_EXPORT_V2_DESC = "Exporting the shared handle of the AI server"
_IMPORT_DESC = "Obtaining shareableHandle information and returning the handle in the current process"
_SHARE_TYPES = "MEM_SHARE_HANDLE_TYPE_DEFAULT(1) or MEM_SHARE_HANDLE_TYPE_FABRIC(2)"
_FABRIC_MAGIC = b"aclnn_py fabric\0"


def _export(phys: Physical, flags: int) -> int:
    key = new_key()
    SHARED[key] = Shareable(phys, check_pid=flags == 0)
    return key


@rt_api
def aclrtMemExportToShareableHandle(handle: object, handleType: int, flags: int, shareableHandle: object) -> int:
    """A number another process can import the handle's memory with (this process too, here).
    Unless ``flags`` is ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION, only processes named by
    aclrtMemSetPidToShareableHandle may import it."""
    api = "aclrtMemExportToShareableHandle"
    if as_pointer(handle) is None:
        raise ApiError(PARAM, acl_null(api, "handle"))
    ht = int_arg(handleType, "handleType", -(2**31), 2**31 - 1)
    if ht != 0:
        raise ApiError(PARAM, acl_value(api, ht, "handleType", "ACL_MEM_HANDLE_TYPE_NONE"))
    out = out_arg(shareableHandle, api, "shareableHandle")
    f = int_arg(flags, "flags", 0, UINT64_MAX)
    if f > 1:
        # rtsMemExportToShareableHandle calls rtMemExportToShareableHandle, whose FuncErrorReason names itself
        raise ApiError(
            RT_PARAM, rt_value(_EXPORT_DESC, f, "flags", "[0, 1]"), fb_invalid("rtMemExportToShareableHandle")
        )
    _, phys = physical(api, handle)
    store(out, _export(phys, f))
    return E.ACL_SUCCESS


def _share_type(t: int, desc: str, rt_fn: str) -> None:
    if t not in (1, 2):
        raise ApiError(RT_PARAM, rt_value(desc, f"UNKNOWN({t})", "handleType", _SHARE_TYPES), fb_invalid(rt_fn))


@rt_api
def aclrtMemExportToShareableHandleV2(handle: object, flags: int, shareType: int, shareableHandle: object) -> int:
    """aclrtMemExportToShareableHandle with a share type: DEFAULT writes a uint64_t, FABRIC an
    ``aclrtMemFabricHandle`` (128 bytes)."""
    api, rt_fn = "aclrtMemExportToShareableHandleV2", "rtMemExportToShareableHandleV2"
    if as_pointer(handle) is None:
        raise ApiError(PARAM, acl_null(api, "handle"))
    if shareableHandle is None or (as_pointer(shareableHandle) is None and not isinstance(shareableHandle, Ref)):
        raise ApiError(PARAM, acl_null(api, "shareableHandle"))
    t = int_arg(shareType, "shareType", -(2**31), 2**31 - 1)
    _share_type(t, _EXPORT_V2_DESC, rt_fn)
    f = int_arg(flags, "flags", 0, UINT64_MAX)
    if f > 1:
        raise ApiError(RT_PARAM, rt_value(_EXPORT_V2_DESC, f, "flags", "[0, 1]"), fb_invalid(rt_fn))
    _, phys = physical(api, handle)
    key = _export(phys, f)
    data = key.to_bytes(8, "little") if t == 1 else _FABRIC_MAGIC + key.to_bytes(8, "little") + bytes(104)
    _write_share(api, shareableHandle, key if t == 1 else data, data)
    return E.ACL_SUCCESS


def _write_share(api: str, obj: object, py_value: object, data: bytes) -> None:
    if isinstance(obj, Ref):
        obj.value = py_value
        return
    addr = obj if isinstance(obj, int) and called_from_c() else None
    if addr is None:
        raise ApiError(PARAM, emu(f"{api}: shareableHandle must be an out-parameter (Ref()), got {describe(obj)}."))
    ctypes.memmove(addr, data, len(data))


def _read_share(api: str, obj: object, t: int) -> int | None:
    """The key behind a V2 shareable handle argument (an int or Ref from Python, C's bytes)."""
    value = obj.value if isinstance(obj, Ref) else obj
    if isinstance(value, (bytes, bytearray)) and value[:16] == _FABRIC_MAGIC:
        return int.from_bytes(value[16:24], "little")
    if isinstance(obj, int) and called_from_c():
        raw = ctypes.string_at(obj, 24 if t == 2 else 8)
        if t == 2:
            return int.from_bytes(raw[16:24], "little") if raw[:16] == _FABRIC_MAGIC else None
        return int.from_bytes(raw, "little")
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _import(api: str, key: int | None, out: object) -> int:
    share = SHARED.get(key) if key is not None else None
    if share is None or not share.phys.handles:
        raise ApiError(
            RT_PARAM, emu(f"{api}: {key} is not a shareable handle exported in this process (or it was released).")
        )
    if share.check_pid and os.getpid() not in share.pids:
        raise ApiError(
            RT_PARAM,
            emu(
                f"{api}: process {os.getpid()} is not on the handle's whitelist: the exporter names importers with "
                "aclrtMemSetPidToShareableHandle, or exports with ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION."
            ),
        )
    store(out, new_handle(share.phys))
    return E.ACL_SUCCESS


@rt_api
def aclrtMemImportFromShareableHandle(shareableHandle: int, deviceId: int, handle: object) -> int:
    """A handle of this process for exported memory (the same physical memory: mapping it aliases
    the exporter's mappings). Another process would need the exporter's simulated memory, which a
    separate Python process does not share: only this process can import."""
    api = "aclrtMemImportFromShareableHandle"
    out = handle_out(api, "handle", handle)
    key = int_arg(shareableHandle, "shareableHandle", 0, UINT64_MAX)
    dev = int_arg(deviceId, "deviceId", -(2**31), 2**31 - 1)
    # ApiErrorDecorator::ImportFromShareableHandle: CheckDeviceIdIsValid
    check_device_id(dev, "rtMemImportFromShareableHandle", "ImportFromShareableHandle", 6446)
    return _import(api, key, out)


@rt_api
def aclrtMemImportFromShareableHandleV2(shareableHandle: object, shareType: int, flags: int, handle: object) -> int:
    """aclrtMemImportFromShareableHandle with a share type (on the current device)."""
    api, rt_fn = "aclrtMemImportFromShareableHandleV2", "rtMemImportFromShareableHandleV2"
    if shareableHandle is None or (
        as_pointer(shareableHandle) is None and not isinstance(shareableHandle, (Ref, bytes))
    ):
        raise ApiError(PARAM, acl_null(api, "shareableHandle"))
    out = handle_out(api, "handle", handle)
    f = int_arg(flags, "flags", 0, UINT64_MAX)
    if f != 0:
        raise ApiError(PARAM, acl_reason(api, f, "flags", "flags is a reserved parameter and must be 0"))
    if RT.thread_context() is None and RT.default_device is None:
        return E.ACL_ERROR_RT_CONTEXT_NULL  # rtsGetDevice fails: its code, returned without a report
    t = int_arg(shareType, "shareType", -(2**31), 2**31 - 1)
    _share_type(t, _IMPORT_DESC, rt_fn)
    return _import(api, _read_share(api, shareableHandle, t), out)


def _pids(api: str, pid: object, num: int) -> list[int]:
    if isinstance(pid, int) and not isinstance(pid, bool):
        pid = [pid]
    return array_in(api, "pid", pid, num, ctypes.c_int32, int)


def _set_pids(api: str, key: int | None, pids: list[int]) -> int:
    share = SHARED.get(key) if key is not None else None
    if share is None:
        raise ApiError(RT_PARAM, emu(f"{api}: {key} is not a shareable handle exported in this process."))
    share.pids.update(pids)
    return E.ACL_SUCCESS


@rt_api
def aclrtMemSetPidToShareableHandle(shareableHandle: int, pid: object, pidNum: int) -> int:
    """Let the processes ``pid[0..pidNum)`` import the shareable handle."""
    api = "aclrtMemSetPidToShareableHandle"
    if pid is None:
        raise ApiError(PARAM, acl_null(api, "pid"))
    n = int_arg(pidNum, "pidNum", 0, UINT64_MAX)
    if n == 0:
        raise ApiError(PARAM, acl_value(api, 0, "pidNum", "must be greater than 0"))
    key = int_arg(shareableHandle, "shareableHandle", 0, UINT64_MAX)
    return _set_pids(api, key, _pids(api, pid, n))


@rt_api
def aclrtMemSetPidToShareableHandleV2(shareableHandle: object, shareType: int, pid: object, pidNum: int) -> int:
    """aclrtMemSetPidToShareableHandle for a V2 shareable handle."""
    api = "aclrtMemSetPidToShareableHandleV2"
    if shareableHandle is None or (
        as_pointer(shareableHandle) is None and not isinstance(shareableHandle, (Ref, bytes))
    ):
        raise ApiError(PARAM, acl_null(api, "shareableHandle"))
    if pid is None:
        raise ApiError(PARAM, acl_null(api, "pid"))
    n = int_arg(pidNum, "pidNum", 0, UINT64_MAX)
    if n == 0:
        raise ApiError(PARAM, acl_value(api, 0, "pidNum", "must be greater than 0"))
    t = int_arg(shareType, "shareType", -(2**31), 2**31 - 1)
    _share_type(t, "Setting the trustlist of processes that can share memory", "rtMemSetPidToShareableHandleV2")
    return _set_pids(api, _read_share(api, shareableHandle, t), _pids(api, pid, n))


__all__ = [
    "aclrtMemExportToShareableHandle",
    "aclrtMemExportToShareableHandleV2",
    "aclrtMemImportFromShareableHandle",
    "aclrtMemImportFromShareableHandleV2",
    "aclrtMemSetPidToShareableHandle",
    "aclrtMemSetPidToShareableHandleV2",
]
