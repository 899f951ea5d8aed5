"""C ABI adaptors of the memory chapter's functions whose C arguments the generated wrappers cannot
convert alone (``aclnn_py._cabi`` merges :data:`ADAPTORS` into its table): arrays of pointers that
may be host memory (the batch copies), pointers to device pointers (aclrtMemcpyAsyncWithOffset), a
``char*`` the function writes (aclrtIpcMemGetExportKey) and an array of structs holding pointers
(aclrtIpcMemImportPidInterServer). Each receives the C values as numbers and calls the Python
function of the same name.
"""

from __future__ import annotations

import ctypes
from typing import Any

from .._cabi_core import H, _buffer, _copy_args, _cstr, _dev, _u64
from .._ref import Ref

_MAX_ARRAY = 1 << 16  # longer arrays are not read: the Python function reports the count


def _u64s(addr: int, n: int) -> list[int] | None:
    if addr == 0:
        return None
    return list((ctypes.c_uint64 * n).from_address(addr)) if 0 < n <= _MAX_ARRAY else []


def _ipc_export_key(fn: Any, devPtr: int, size: int, key: int, length: int, flags: int) -> int:
    ref: Ref[Any] | None = Ref() if key else None
    rc = int(fn(_dev(devPtr), size, ref, length, flags))
    if ref is not None and isinstance(ref.value, str):
        data = ref.value.encode() + b"\0"
        ctypes.memmove(key, data, len(data))
    return rc


def _batch_lists(
    dsts: int, destMaxs: int, srcs: int, sizes: int, n: int, attrsIndexes: int, numAttrs: int
) -> tuple[object, object, object, object, object]:
    size_list = _u64s(sizes, n)
    max_list = _u64s(destMaxs, n)
    dst_list = _u64s(dsts, n)
    src_list = _u64s(srcs, n)
    lens = size_list or [0] * len(dst_list or [])
    d = None if dst_list is None else [_buffer(a, k) for a, k in zip(dst_list, max_list or lens, strict=False)]
    s = None if src_list is None else [_buffer(a, k) for a, k in zip(src_list, lens, strict=False)]
    return d, max_list, s, size_list, _u64s(attrsIndexes, numAttrs)


def _memcpy_batch(fn: Any, dsts: int, destMaxs: int, srcs: int, sizes: int, n: int, attrs: int, attrsIndexes: int,
                  numAttrs: int, failIndex: int) -> int:  # fmt: skip
    d, m, s, z, idx = _batch_lists(dsts, destMaxs, srcs, sizes, n, attrsIndexes, numAttrs)
    return int(fn(d, m, s, z, n, attrs or None, idx, numAttrs, _u64(failIndex)))


def _memcpy_batch_v2(fn: Any, dsts: int, destMaxs: int, srcs: int, sizes: int, n: int, attrs: int,
                     attrsIndexes: int, numAttrs: int) -> int:  # fmt: skip
    d, m, s, z, idx = _batch_lists(dsts, destMaxs, srcs, sizes, n, attrsIndexes, numAttrs)
    return int(fn(d, m, s, z, n, attrs or None, idx, numAttrs))


def _memcpy_batch_async(fn: Any, dsts: int, destMaxs: int, srcs: int, sizes: int, n: int, attrs: int,
                        attrsIndexes: int, numAttrs: int, failIndex: int, stream: int) -> int:  # fmt: skip
    d, m, s, z, idx = _batch_lists(dsts, destMaxs, srcs, sizes, n, attrsIndexes, numAttrs)
    return int(fn(d, m, s, z, n, attrs or None, idx, numAttrs, _u64(failIndex), H.obj(stream)))


def _memcpy_batch_async_v2(fn: Any, dsts: int, destMaxs: int, srcs: int, sizes: int, n: int, attrs: int,
                           attrsIndexes: int, numAttrs: int, stream: int) -> int:  # fmt: skip
    d, m, s, z, idx = _batch_lists(dsts, destMaxs, srcs, sizes, n, attrsIndexes, numAttrs)
    return int(fn(d, m, s, z, n, attrs or None, idx, numAttrs, H.obj(stream)))


def _memcpy_with_condition(fn: Any, dst: int, destMax: int, src: int, count: int, kind: int, stream: int) -> int:
    d, s = _copy_args(dst, destMax, src, count)
    return int(fn(d, destMax, s, count, kind, H.obj(stream)))


def _memcpy_with_offset(fn: Any, dst: int, destMax: int, dstOff: int, src: int, count: int, srcOff: int, kind: int,
                        stream: int) -> int:  # fmt: skip
    # dst and src are device addresses of device pointers, not out-parameters
    return int(fn(_dev(dst), destMax, dstOff, _dev(src), count, srcOff, kind, H.obj(stream)))


class _ServerPid(ctypes.Structure):
    _fields_ = [("sdid", ctypes.c_uint32), ("pid", ctypes.POINTER(ctypes.c_int32)), ("num", ctypes.c_size_t)]


def _ipc_import_pid_inter_server(fn: Any, key: int, serverPids: int, num: int) -> int:
    entries: list[tuple[int, list[int] | None]] | None = None
    if serverPids and 0 < num <= _MAX_ARRAY:
        entries = []
        for sp in (_ServerPid * num).from_address(serverPids):
            pids = [sp.pid[i] for i in range(min(sp.num, _MAX_ARRAY))] if sp.pid else None
            entries.append((int(sp.sdid), pids))
    elif serverPids:
        entries = []
    return int(fn(_cstr(key), entries, num))


ADAPTORS: dict[str, Any] = {
    "aclrtIpcMemGetExportKey": _ipc_export_key,
    "aclrtIpcMemImportPidInterServer": _ipc_import_pid_inter_server,
    "aclrtMemcpyBatch": _memcpy_batch,
    "aclrtMemcpyBatchV2": _memcpy_batch_v2,
    "aclrtMemcpyBatchAsync": _memcpy_batch_async,
    "aclrtMemcpyBatchAsyncV2": _memcpy_batch_async_v2,
    "aclrtMemcpyAsyncWithCondition": _memcpy_with_condition,
    "aclrtMemcpyAsyncWithOffset": _memcpy_with_offset,
}
