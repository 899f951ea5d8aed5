"""The C ABI's adaptors for streams and notifies whose C arguments are structs, arrays or
out-buffers (capi/gen_rt.py ADAPTED; :mod:`aclnn_py._cabi` merges :data:`ADAPTORS` into its
table): the stream's configuration option and attribute union, a batch of notifies, the IPC
notify's export key and import pids, the IPC event handle, the counting notify's record and wait
structs.
"""

from __future__ import annotations

import ctypes
from typing import Any

from ._cabi_core import H, _buffer, _ref, _text_out
from ._ref import Ref


def _stream_config_opt(fn: Any, handle: int, attr: int, attrValue: int, valueSize: int) -> int:
    # the value's bytes alias the caller's memory; the engine reads them only once the size is right
    value = None if attrValue == 0 else _buffer(attrValue, valueSize)
    return int(fn(H.obj(handle), attr, value, valueSize))


def _notify_batch_reset(fn: Any, notifies: int, num: int) -> int:
    handles = (
        None if notifies == 0 else [H.obj(t) for t in (ctypes.c_uint64 * min(num, 1 << 16)).from_address(notifies)]
    )
    return int(fn(handles, num))


def _stream_attribute(fn: Any, stream: int, attr: int, value: int) -> int:
    # the union: its first 8 bytes hold every member (failureMode is 64 bits, the rest 32)
    from .runtime.api_stream_attr import aclrtStreamAttrValue

    py = None if value == 0 else aclrtStreamAttrValue(ctypes.c_uint64.from_address(value).value)
    rc = int(fn(H.obj(stream), attr, py))
    if rc == 0 and py is not None:
        ctypes.c_uint64.from_address(value).value = py.raw
    return rc


def _notify_export_key(fn: Any, notify: int, key: int, size: int, flags: int) -> int:
    ref = _ref(key)
    rc = int(fn(H.obj(notify), ref, size, flags))
    _text_out(key, ref, size & 0xFFFFFFFF)
    return rc


def _notify_set_import_pid(fn: Any, notify: int, pid: int, num: int) -> int:
    pids = None if pid == 0 else list((ctypes.c_int32 * min(num, 1 << 16)).from_address(pid))
    return int(fn(H.obj(notify), pids, num))


class _ServerPid(ctypes.Structure):
    """acl_rt.h's aclrtServerPid."""

    _fields_ = [("sdid", ctypes.c_uint32), ("pid", ctypes.c_void_p), ("num", ctypes.c_size_t)]


def _notify_set_import_pid_inter_server(fn: Any, notify: int, serverPids: int, num: int) -> int:
    from .runtime.api_notify import aclrtServerPid

    items = None
    if serverPids != 0:
        items = []
        for c in (_ServerPid * min(num, 1 << 16)).from_address(serverPids):
            pids = None if not c.pid else list((ctypes.c_int32 * max(1, min(c.num, 1 << 16))).from_address(c.pid))
            items.append(aclrtServerPid(c.sdid, pids, c.num))
    return int(fn(H.obj(notify), items, num))


def _ipc_get_event_handle(fn: Any, event: int, handle: int) -> int:
    from .runtime.api_notify import aclrtIpcEventHandle

    py = None if handle == 0 else aclrtIpcEventHandle()
    rc = int(fn(H.obj(event), py))
    if rc == 0 and py is not None:
        ctypes.memmove(handle, py.reserved, len(py.reserved))
    return rc


def _ipc_open_event_handle(fn: Any, handle: int, event: int) -> int:
    from .runtime.api_notify import ACL_IPC_EVENT_HANDLE_SIZE

    out: Ref[Any] | None = Ref() if event else None
    rc = int(fn(ctypes.string_at(handle, ACL_IPC_EVENT_HANDLE_SIZE), out))
    if rc == 0 and out is not None:
        ctypes.c_uint64.from_address(event).value = H.token(out.value)
    return rc


class _CntNotifyRecordInfo(ctypes.Structure):
    _fields_ = [("mode", ctypes.c_int32), ("value", ctypes.c_uint32)]


class _CntNotifyWaitInfo(ctypes.Structure):
    _fields_ = [
        ("mode", ctypes.c_int32),
        ("value", ctypes.c_uint32),
        ("timeout", ctypes.c_uint32),
        ("isClear", ctypes.c_uint8),
        ("rsv", ctypes.c_uint8 * 3),
    ]


def _cnt_notify_record(fn: Any, cntNotify: int, stream: int, info: int) -> int:
    from .runtime.api_cnt_notify import aclrtCntNotifyRecordInfo

    py = None
    if info != 0:
        c = _CntNotifyRecordInfo.from_address(info)
        py = aclrtCntNotifyRecordInfo(c.mode, c.value)
    return int(fn(H.obj(cntNotify), H.obj(stream), py))


def _cnt_notify_wait(fn: Any, cntNotify: int, stream: int, info: int) -> int:
    from .runtime.api_cnt_notify import aclrtCntNotifyWaitInfo

    py = None
    if info != 0:
        c = _CntNotifyWaitInfo.from_address(info)
        py = aclrtCntNotifyWaitInfo(c.mode, c.value, c.timeout, c.isClear)
    return int(fn(H.obj(cntNotify), H.obj(stream), py))


ADAPTORS: dict[str, Any] = {
    "aclrtSetStreamConfigOpt": _stream_config_opt,
    "aclrtSetStreamAttribute": _stream_attribute,
    "aclrtGetStreamAttribute": _stream_attribute,
    "aclrtNotifyBatchReset": _notify_batch_reset,
    "aclrtNotifyGetExportKey": _notify_export_key,
    "aclrtNotifySetImportPid": _notify_set_import_pid,
    "aclrtNotifySetImportPidInterServer": _notify_set_import_pid_inter_server,
    "aclrtIpcGetEventHandle": _ipc_get_event_handle,
    "aclrtIpcOpenEventHandle": _ipc_open_event_handle,
    "aclrtCntNotifyRecord": _cnt_notify_record,
    "aclrtCntNotifyWaitWithTimeout": _cnt_notify_wait,
}
