"""The C ABI's adaptors for the tensor data transport (acl/acl_tdt.h), the dump callback
(acl/acl_dump.h) and the external allocators (acl/acl_rt_allocator.h): a data item's dims and data
read from C memory and its data address handed back, the dims written into the caller's array, a C
callback receiving each dump chunk as CANN's ``acldumpChunk``, and the allocator fields written
into the caller's out-parameters (capi/gen_rt.py ADAPTED; ``aclnn_py._cabi`` merges
:data:`ADAPTORS` into its table)."""

from __future__ import annotations

import bisect
import ctypes
from collections.abc import Callable
from typing import Any

import numpy as np

from . import _cabi_core
from ._cabi_core import H, _buffer, _dev, _put_handle, _ref
from .runtime.memory import SPACE

_MAX_DIMS = 1 << 10  # longer dims arrays are not read: the Python function reports dimNum


def _int64_array(addr: int, n: int) -> np.ndarray[Any, Any] | None:
    """The caller's ``int64_t[n]`` as a writable numpy view (None for nullptr)."""
    if addr == 0:
        return None
    count = min(n, _MAX_DIMS)
    if count == 0:
        return np.zeros(0, dtype=np.int64)
    return np.ctypeslib.as_array((ctypes.c_int64 * count).from_address(addr))


def _create_data_item(fn: Any, tdtType: int, dims: int, dimNum: int, dataType: int, data: int, size: int) -> object:
    # the data stays the caller's: host memory aliased in place, device or pinned memory by address
    view = _int64_array(dims, dimNum)
    dim_list = None if view is None else [int(d) for d in view]
    payload = _dev(data) if size == 0 else _buffer(data, size)
    return fn(tdtType, dim_list, dimNum, dataType, payload, size)  # rt_call makes its handle


def _sim_to_pinned(addr: int) -> int:
    """The real address of a simulated pinned-host address (what aclrtMallocHost gave C), else
    the address itself (device memory is addressed by its simulated address in C too)."""
    for real, (sim, size) in _cabi_core._pinned.items():
        if sim <= addr < sim + max(size, 1):
            return real + (addr - sim)
    return addr


def _data_address(data: object) -> int:
    """The C address of an item's data: the caller's own, or a received item's buffer."""
    if data is None:
        return 0
    if isinstance(data, int):
        return _sim_to_pinned(data)  # pinned host memory: the address aclrtMallocHost gave C
    if isinstance(data, np.ndarray):
        return int(data.ctypes.data)
    if isinstance(data, memoryview) and not data.readonly:
        return ctypes.addressof(ctypes.c_char.from_buffer(data)) if data.nbytes else 0
    return 0


def _data_addr_from_item(fn: Any, dataItem: int) -> int:
    return _data_address(fn(H.obj(dataItem)))


def _dims_from_item(fn: Any, dataItem: int, dims: int, dimNum: int) -> int:
    return int(fn(H.obj(dataItem), _int64_array(dims, dimNum), dimNum))


# -- acldumpRegCallback: int32_t (*)(const acldumpChunk*, int32_t) -------------------------------

_FILE_NAME = 4096  # ACL_DUMP_MAX_FILE_PATH_LENGTH


class _ChunkHead(ctypes.Structure):
    """acl_dump.h's acldumpChunk without its flexible ``dataBuf`` (which starts at its end)."""

    _fields_ = [
        ("fileName", ctypes.c_char * _FILE_NAME),
        ("bufLen", ctypes.c_uint32),
        ("isLastChunk", ctypes.c_uint32),
        ("offset", ctypes.c_int64),
        ("flag", ctypes.c_int32),
    ]


_DATA_AT = _FILE_NAME + 4 + 4 + 8 + 4  # offsetof(acldumpChunk, dataBuf): right after flag
_DUMP_FUNC = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.c_void_p, ctypes.c_int32)
# one Python callable per C function, kept for the process (a registration outlives the call)
_DUMP_CALLBACKS: dict[int, Callable[[Any, int], int]] = {}


def _dump_callback(func: int) -> Callable[[Any, int], int] | None:
    if func == 0:
        return None
    call = _DUMP_CALLBACKS.get(func)
    if call is None:
        c_func = _DUMP_FUNC(func)

        def call(chunk: Any, length: int, c: Any = c_func) -> int:
            data = bytes(chunk.dataBuf)
            raw = ctypes.create_string_buffer(max(_DATA_AT + len(data), ctypes.sizeof(_ChunkHead)))
            head = _ChunkHead.from_buffer(raw)
            head.fileName = chunk.fileName.encode("utf-8")[: _FILE_NAME - 1]
            head.bufLen, head.isLastChunk = chunk.bufLen, chunk.isLastChunk
            head.offset, head.flag = chunk.offset, chunk.flag
            ctypes.memmove(ctypes.addressof(raw) + _DATA_AT, data, len(data))
            return int(c(ctypes.addressof(raw), length))  # sizeof(acldumpChunk) + bufLen, as CANN

        _DUMP_CALLBACKS[func] = call
    return call


def _dump_reg_callback(fn: Any, messageCallback: int, flag: int) -> int:
    return int(fn(_dump_callback(messageCallback), flag))


# -- aclrtAllocatorGetByStream: the fields go back as the numbers C registered -----------------------


def _allocator_get_by_stream(
    fn: Any, stream: int, desc: int, allocator: int, alloc: int, free: int, advise: int, get_addr: int
) -> int:
    outs = [_ref(addr) for addr in (allocator, alloc, free, advise, get_addr)]
    desc_ref = _ref(desc)
    rc = int(fn(H.obj(stream), desc_ref, *outs))
    _put_handle(desc, desc_ref)
    for addr, ref in zip((allocator, alloc, free, advise, get_addr), outs, strict=True):
        if ref is not None and rc == 0:
            value = ref.value
            ctypes.c_uint64.from_address(addr).value = value if isinstance(value, int) else H.token(value)
    return rc


def _prof_create_config(
    fn: Any, deviceIdList: int, deviceNums: int, aicoreMetrics: int, aicoreEvents: int, dataTypeConfig: int
) -> object:
    # the ids are read from the caller's array (at most 1024: more devices than that never exist)
    ids = None if deviceIdList == 0 else list((ctypes.c_uint32 * min(deviceNums, 1024)).from_address(deviceIdList))
    return fn(ids, deviceNums, aicoreMetrics, aicoreEvents or None, dataTypeConfig)


def _app_log(fn: Any, logLevel: int, func: int, file: int, line: int, text: int, cut: int) -> int:
    """aclAppLog's text, formatted by the C side (capi/src/aclnn_py_capi.cpp)."""
    from .runtime import api_log

    if cut == 2:  # vsnprintf refused the format
        return api_log.invalid_format(logLevel)
    return api_log.record(
        logLevel, _cabi_core._cstr(func), _cabi_core._cstr(file), line, _cabi_core._cstr(text), bool(cut)
    )


# -- structs passed by value (written by hand in capi/src/aclnn_py_capi.cpp, field by field) ---------


def _simt_args_array(
    fn: Any, func: int, gx: int, gy: int, gz: int, bx: int, by: int, bz: int, dyn: int, stream: int, cfg: int, args: int
) -> int:
    # dim3 gridDim / blockDim: (x, y, z)
    return int(fn(func or None, (gx, gy, gz), (bx, by, bz), dyn, H.obj(stream), cfg or None, args or None))


def _simt_host_args(fn: Any, func: int, gx: int, gy: int, gz: int, bx: int, by: int, bz: int, dyn: int, stream: int,
                    cfg: int, hostArgs: int, argsSize: int, placeHolders: int, placeHolderNum: int) -> int:  # fmt: skip
    host = _buffer(hostArgs, argsSize)
    grid, block = (gx, gy, gz), (bx, by, bz)
    return int(fn(func or None, grid, block, dyn, H.obj(stream), cfg or None, host, argsSize, placeHolders or None,
                  placeHolderNum))  # fmt: skip


def _location(kind: int, ident: int) -> object:
    """aclrtMemManagedLocation {type, id}, passed by value."""
    from types import SimpleNamespace

    return SimpleNamespace(type=kind, id=ident)


def _managed_advise(fn: Any, ptr: int, size: int, advise: int, kind: int, ident: int) -> int:
    return int(fn(_dev(ptr), size, advise, _location(kind, ident)))


def _managed_prefetch(fn: Any, ptr: int, size: int, kind: int, ident: int, flags: int, stream: int) -> int:
    return int(fn(_dev(ptr), size, _location(kind, ident), flags, H.obj(stream)))


# -- mbufs: the data block's address as C sees it, the user data through C memory ----------------------


def _buf_data(fn: Any, buf: int, dataPtr: int, size: int) -> int:
    ptr_ref, size_ref = _ref(dataPtr), _ref(size)
    rc = int(fn(H.obj(buf), ptr_ref, size_ref))
    if rc == 0 and ptr_ref is not None and isinstance(ptr_ref.value, int):
        # the block is pinned host memory of the simulated memory: C gets its backing store, as
        # aclrtMallocHost's callers do, and _cabi_core translates it back when C passes it in
        ctypes.c_uint64.from_address(dataPtr).value = _expose_pinned(ptr_ref.value)
    if rc == 0 and size_ref is not None and isinstance(size_ref.value, int):
        ctypes.c_uint64.from_address(size).value = size_ref.value
    return rc


def _expose_pinned(sim: int) -> int:
    """The real address of a simulated pinned-host address, registered with _cabi_core's pinned map
    (as aclrtMallocHost's blocks are) so that C passing it back reaches the same memory."""
    alloc = SPACE.find(sim)
    if alloc is None:
        return sim
    real = int(alloc.buf.ctypes.data)
    if _cabi_core._pinned.get(real) != (alloc.start, alloc.size):
        if real not in _cabi_core._pinned:
            bisect.insort(_cabi_core._pinned_starts, real)
        _cabi_core._pinned[real] = (alloc.start, alloc.size)
    return real + (sim - alloc.start)


_MAX_USER = 4096  # more than the 96-byte user-data area: the Python function refuses the size first


def _c_bytes(addr: int, size: int) -> object:
    if addr == 0:
        return None
    n = min(size, _MAX_USER)
    return memoryview((ctypes.c_char * n).from_address(addr)).cast("B") if n else bytearray(0)


def _buf_user_data(fn: Any, buf: int, dataPtr: int, size: int, offset: int) -> int:
    return int(fn(H.obj(buf), _c_bytes(dataPtr, size), size, offset))


ADAPTORS: dict[str, Any] = {
    "aclrtLaunchSIMTKernelWithArgsArray": _simt_args_array,
    "aclrtLaunchSIMTKernelWithHostArgs": _simt_host_args,
    "aclrtMemManagedAdvise": _managed_advise,
    "aclrtMemManagedPrefetchAsync": _managed_prefetch,
    "aclrtGetBufData": _buf_data,
    "aclrtGetBufUserData": _buf_user_data,
    "aclrtSetBufUserData": _buf_user_data,
    "aclAppLog": _app_log,
    "aclprofCreateConfig": _prof_create_config,
    "acltdtCreateDataItem": _create_data_item,
    "acltdtGetDataAddrFromItem": _data_addr_from_item,
    "acltdtGetDimsFromItem": _dims_from_item,
    "acldumpRegCallback": _dump_reg_callback,
    "aclrtAllocatorGetByStream": _allocator_get_by_stream,
}
