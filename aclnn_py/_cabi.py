"""The Python half of the C ABI (``capi/``): C arguments in, the public Python API called, C results out.

The C library (``libaclnn_py.so`` a.k.a. ``libascendcl.so`` / ``libopapi.so``) passes every argument
as a plain number: pointers as addresses, handles as the tokens this module hands out. This module
turns them into what the Python API takes (objects, ``Ref`` holders, host buffers aliasing C memory)
and writes out-parameters straight into the C program's memory with ctypes, so there is one engine:
every check, message and kernel is the Python one.

Handles. ``aclTensor*``, ``aclrtStream`` ... are tokens, not Python object addresses, so a stale or
forged handle reaches the Python API as an object it rejects (``UnknownHandle``) instead of crashing the
process. Tokens of destroyed objects stay resolvable for a while so use-after-destroy is named.

Pointers. Simulated addresses (device memory, and pinned host memory as the engine sees it) pass
through as ints. Any other non-null address is real host memory of the C program (a
``std::vector``'s data): it is wrapped in place as a ctypes buffer of the bytes the call declares.
``aclrtMallocHost`` hands C the real address of the simulated block's backing store, so C code can
write it directly, and translates it back whenever it comes in again.
"""

from __future__ import annotations

import bisect
import ctypes
import importlib
from collections import OrderedDict
from typing import Any

from . import dtypes as _dtypes
from . import tensor as _t
from ._ref import Ref
from .executor import api as _exe
from .ops import registry as _registry
from .runtime import api as _rt
from .runtime.device import RT
from .runtime.memory import DEVICE_BASE, HOST_BASE, REGION_SPAN, SPACE, set_foreign_caller

_TOKEN_BASE = 0x1000
_TOKEN_STEP = 0x10  # looks like an aligned pointer in a debugger, and is never 0
_GRAVEYARD = 65536  # destroyed handles kept resolvable for use-after-destroy messages


class UnknownHandle:
    """A handle value this library never handed out (or one forgotten long ago)."""

    __slots__ = ("token",)

    def __init__(self, token: int) -> None:
        self.token = token

    def __repr__(self) -> str:
        return f"<unknown handle 0x{self.token:x}>"


class _Handles:
    """Tokens for the Python objects handed to C."""

    def __init__(self) -> None:
        self.next = _TOKEN_BASE
        self.live: dict[int, object] = {}
        self.dead: OrderedDict[int, object] = OrderedDict()
        self.by_id: dict[int, int] = {}

    def token(self, obj: object) -> int:
        if obj is None:
            return 0
        tok = self.by_id.get(id(obj))
        if tok is not None and (self.live.get(tok) is obj or self.dead.get(tok) is obj):
            return tok
        tok, self.next = self.next, self.next + _TOKEN_STEP
        self.live[tok] = obj
        self.by_id[id(obj)] = tok
        return tok

    def obj(self, token: int) -> object:
        if token == 0:
            return None
        obj = self.live.get(token)
        if obj is None:
            obj = self.dead.get(token)
        return UnknownHandle(token) if obj is None else obj

    def sweep(self, *tokens: int) -> None:
        """Move the objects behind ``tokens`` that are now destroyed to the graveyard."""
        for tok in tokens:
            obj = self.live.get(tok)
            if obj is None or not _is_dead(obj):
                continue
            del self.live[tok]
            self.dead[tok] = obj
            while len(self.dead) > _GRAVEYARD:
                old_tok, old = self.dead.popitem(last=False)
                if self.by_id.get(id(old)) == old_tok:
                    del self.by_id[id(old)]


def _is_dead(obj: object) -> bool:
    return (
        getattr(obj, "alive", True) is False
        or getattr(obj, "destroyed", False) is True
        or getattr(obj, "state", "") == "released"
    )


H = _Handles()


def embedded() -> None:
    """Called once when the C library started the interpreter itself: every call comes from C, so
    the sites named in messages (where memory was allocated, an executor made) are "the C program"."""
    set_foreign_caller("the C program")


# ---------------------------------------------------------------------------------------------
# pointers
# ---------------------------------------------------------------------------------------------

# Real address of a pinned block's backing store -> (simulated start, size), for aclrtMallocHost.
_pinned_starts: list[int] = []
_pinned: dict[int, tuple[int, int]] = {}


def _simulated(addr: int) -> bool:
    if HOST_BASE <= addr < HOST_BASE + REGION_SPAN:
        return True
    return DEVICE_BASE <= addr < DEVICE_BASE + max(RT.device_count, 1) * REGION_SPAN


def _pinned_to_sim(addr: int) -> int | None:
    i = bisect.bisect_right(_pinned_starts, addr) - 1
    if i >= 0:
        real = _pinned_starts[i]
        sim, size = _pinned[real]
        if addr < real + max(size, 1):
            return sim + (addr - real)
    return None


def _dev(addr: int) -> int | None:
    """A pointer argument that names simulated memory: None for nullptr, pinned addresses translated."""
    if addr == 0:
        return None
    sim = _pinned_to_sim(addr)
    return addr if sim is None else sim


def _buffer(addr: int, nbytes: int) -> object:
    """A pointer argument that may be device or host memory: an int, or C's bytes aliased in place."""
    if addr == 0:
        return None
    if _simulated(addr):
        return addr
    sim = _pinned_to_sim(addr)
    if sim is not None:
        return sim
    if nbytes <= 0 or nbytes > 1 << 47:
        return bytearray(0)  # nothing to alias (the engine reports the size problem)
    return memoryview((ctypes.c_char * nbytes).from_address(addr)).cast("B")


def _int64s(addr: int, n: int) -> list[int] | None:
    if addr == 0:
        return None
    return list((ctypes.c_int64 * n).from_address(addr)) if n else []


def _u64(addr: int) -> Any:
    return None if addr == 0 else ctypes.c_uint64.from_address(addr)


def _i64(addr: int) -> Any:
    return None if addr == 0 else ctypes.c_int64.from_address(addr)


def _u32(addr: int) -> Any:
    return None if addr == 0 else ctypes.c_uint32.from_address(addr)


def _i32(addr: int) -> Any:
    return None if addr == 0 else ctypes.c_int32.from_address(addr)


def _ref(addr: int) -> Ref[Any] | None:
    return None if addr == 0 else Ref()


def _put_handle(addr: int, ref: Ref[Any] | None) -> None:
    """Write a handle out-parameter (only when the Python call stored one, as C leaves it untouched)."""
    if ref is not None and ref.value is not None:
        ctypes.c_uint64.from_address(addr).value = H.token(ref.value)


# ---------------------------------------------------------------------------------------------
# acl / aclrt
# ---------------------------------------------------------------------------------------------


def aclInit(configPath: str | None) -> int:
    return _rt.aclInit(configPath)


def aclFinalize() -> int:
    return _rt.aclFinalize()


def aclGetRecentErrMsg() -> str | None:
    return _rt.aclGetRecentErrMsg()


def aclDataTypeSize(dataType: int) -> int:
    return _dtypes.aclDataTypeSize(dataType)


def aclrtSetDevice(deviceId: int) -> int:
    return _rt.aclrtSetDevice(deviceId)


def aclrtResetDevice(deviceId: int) -> int:
    return _rt.aclrtResetDevice(deviceId)


def aclrtGetDevice(deviceId: int) -> int:
    return _rt.aclrtGetDevice(_i32(deviceId))


def aclrtGetDeviceCount(count: int) -> int:
    return _rt.aclrtGetDeviceCount(_u32(count))


def aclrtSynchronizeDevice() -> int:
    return _rt.aclrtSynchronizeDevice()


def aclrtGetRunMode(runMode: int) -> int:
    return _rt.aclrtGetRunMode(_i32(runMode))


def aclrtGetSocName() -> str | None:
    return _rt.aclrtGetSocName()


def aclrtCreateContext(context: int, deviceId: int) -> int:
    ref = _ref(context)
    rc = _rt.aclrtCreateContext(ref, deviceId)
    _put_handle(context, ref)
    return rc


def aclrtDestroyContext(context: int) -> int:
    rc = _rt.aclrtDestroyContext(H.obj(context))
    H.sweep(context)
    return rc


def aclrtSetCurrentContext(context: int) -> int:
    return _rt.aclrtSetCurrentContext(H.obj(context))


def aclrtGetCurrentContext(context: int) -> int:
    ref = _ref(context)
    rc = _rt.aclrtGetCurrentContext(ref)
    _put_handle(context, ref)
    return rc


def aclrtCreateStream(stream: int) -> int:
    ref = _ref(stream)
    rc = _rt.aclrtCreateStream(ref)
    _put_handle(stream, ref)
    return rc


def aclrtDestroyStream(stream: int) -> int:
    rc = _rt.aclrtDestroyStream(H.obj(stream))
    H.sweep(stream)
    return rc


def aclrtSynchronizeStream(stream: int) -> int:
    return _rt.aclrtSynchronizeStream(H.obj(stream))


def aclrtSynchronizeStreamWithTimeout(stream: int, timeout: int) -> int:
    return _rt.aclrtSynchronizeStreamWithTimeout(H.obj(stream), timeout)


def aclrtStreamQuery(stream: int, status: int) -> int:
    return _rt.aclrtStreamQuery(H.obj(stream), _i32(status))


def aclrtStreamWaitEvent(stream: int, event: int) -> int:
    return _rt.aclrtStreamWaitEvent(H.obj(stream), H.obj(event))


def aclrtCreateEvent(event: int) -> int:
    ref = _ref(event)
    rc = _rt.aclrtCreateEvent(ref)
    _put_handle(event, ref)
    return rc


def aclrtDestroyEvent(event: int) -> int:
    rc = _rt.aclrtDestroyEvent(H.obj(event))
    H.sweep(event)
    return rc


def aclrtRecordEvent(event: int, stream: int) -> int:
    return _rt.aclrtRecordEvent(H.obj(event), H.obj(stream))


def aclrtSynchronizeEvent(event: int) -> int:
    return _rt.aclrtSynchronizeEvent(H.obj(event))


def aclrtQueryEventStatus(event: int, status: int) -> int:
    return _rt.aclrtQueryEventStatus(H.obj(event), _i32(status))


def aclrtEventElapsedTime(ms: int, startEvent: int, endEvent: int) -> int:
    out = None if ms == 0 else ctypes.c_float.from_address(ms)
    return _rt.aclrtEventElapsedTime(out, H.obj(startEvent), H.obj(endEvent))


def aclrtMalloc(devPtr: int, size: int, policy: int) -> int:
    return _rt.aclrtMalloc(_u64(devPtr), size, policy)


def aclrtMallocHost(hostPtr: int, size: int) -> int:
    ref = _ref(hostPtr)
    rc = _rt.aclrtMallocHost(ref, size)
    _pin(hostPtr, ref)
    return rc


def _pin(hostPtr: int, ref: Ref[Any] | None) -> None:
    """Hand C the real address of a new pinned block's backing store (aclrtMallocHost & co.)."""
    if ref is not None and ref.value is not None:
        alloc = SPACE.find(ref.value)
        assert alloc is not None
        real = alloc.buf.ctypes.data  # the block's backing store: C reads and writes it directly
        bisect.insort(_pinned_starts, real)
        _pinned[real] = (alloc.start, alloc.size)
        ctypes.c_uint64.from_address(hostPtr).value = real


def aclrtFree(devPtr: int) -> int:
    return _rt.aclrtFree(_dev(devPtr))


def aclrtFreeHost(hostPtr: int) -> int:
    sim = _pinned.get(hostPtr)
    rc = _rt.aclrtFreeHost(sim[0] if sim is not None else (hostPtr or None))
    if sim is not None and rc == 0:
        del _pinned[hostPtr]
        _pinned_starts.remove(hostPtr)
    return rc


def _copy_args(dst: int, destMax: int, src: int, count: int) -> tuple[object, object]:
    n = min(count, destMax)
    return _buffer(dst, n), _buffer(src, n)


def aclrtMemcpy(dst: int, destMax: int, src: int, count: int, kind: int) -> int:
    d, s = _copy_args(dst, destMax, src, count)
    return _rt.aclrtMemcpy(d, destMax, s, count, kind)


def aclrtMemcpyAsync(dst: int, destMax: int, src: int, count: int, kind: int, stream: int) -> int:
    d, s = _copy_args(dst, destMax, src, count)
    return _rt.aclrtMemcpyAsync(d, destMax, s, count, kind, H.obj(stream))


def aclrtMemset(devPtr: int, maxCount: int, value: int, count: int) -> int:
    return _rt.aclrtMemset(_dev(devPtr), maxCount, value, count)


def aclrtMemsetAsync(devPtr: int, maxCount: int, value: int, count: int, stream: int) -> int:
    return _rt.aclrtMemsetAsync(_dev(devPtr), maxCount, value, count, H.obj(stream))


def aclrtGetMemInfo(attr: int, free: int, total: int) -> int:
    return _rt.aclrtGetMemInfo(attr, _u64(free), _u64(total))


# ---------------------------------------------------------------------------------------------
# aclnn/acl_meta.h
# ---------------------------------------------------------------------------------------------


def aclCreateTensor(
    viewDims: int,
    viewDimsNum: int,
    dataType: int,
    stride: int,
    offset: int,
    format: int,
    storageDims: int,
    storageDimsNum: int,
    tensorData: int,
) -> int:
    t = _t.aclCreateTensor(
        _int64s(viewDims, viewDimsNum), viewDimsNum, dataType, _int64s(stride, viewDimsNum), offset, format,
        _int64s(storageDims, storageDimsNum), storageDimsNum, _dev(tensorData),
    )  # fmt: skip
    return H.token(t)


def aclInitTensor(
    tensor: int,
    viewDims: int,
    viewDimsNum: int,
    dataType: int,
    stride: int,
    offset: int,
    format: int,
    storageDims: int,
    storageDimsNum: int,
    tensorDataAddr: int,
) -> int:
    return int(
        _t.aclInitTensor(
            H.obj(tensor), _int64s(viewDims, viewDimsNum), viewDimsNum, dataType, _int64s(stride, viewDimsNum),
            offset, format, _int64s(storageDims, storageDimsNum), storageDimsNum, _dev(tensorDataAddr),
        )
    )  # fmt: skip


def aclCreateScalar(value: int, dataType: int) -> int:
    size = _dtypes.aclDataTypeSize(dataType) if 0 <= dataType < 2**31 else 0
    data = None if value == 0 else memoryview((ctypes.c_char * max(size, 1)).from_address(value)).cast("B")
    return H.token(_t.aclCreateScalar(data, dataType))


def aclCreateIntArray(value: int, size: int) -> int:
    return H.token(_t.aclCreateIntArray(_int64s(value, size), size))


def aclCreateFloatArray(value: int, size: int) -> int:
    vals = None if value == 0 else list((ctypes.c_float * size).from_address(value))
    return H.token(_t.aclCreateFloatArray(vals, size))


def aclCreateBoolArray(value: int, size: int) -> int:
    vals = None if value == 0 else list((ctypes.c_bool * size).from_address(value))
    return H.token(_t.aclCreateBoolArray(vals, size))


def _handle_list(value: int, size: int) -> list[object] | None:
    if value == 0:
        return None
    return [H.obj(tok) for tok in (ctypes.c_uint64 * size).from_address(value)]


def aclCreateTensorList(value: int, size: int) -> int:
    return H.token(_t.aclCreateTensorList(_handle_list(value, size), size))  # type: ignore[arg-type]


def aclCreateScalarList(value: int, size: int) -> int:
    return H.token(_t.aclCreateScalarList(_handle_list(value, size), size))  # type: ignore[arg-type]


def _destroy(fn: Any, handle: int) -> int:
    obj = H.obj(handle)
    rc: int = fn(obj)
    elements = getattr(obj, "values", None) if isinstance(obj, (_t.aclTensorList, _t.aclScalarList)) else None
    H.sweep(handle, *(H.by_id.get(id(e), 0) for e in elements or ()))
    return rc


def aclDestroyTensor(tensor: int) -> int:
    return _destroy(_t.aclDestroyTensor, tensor)


def aclDestroyScalar(scalar: int) -> int:
    return _destroy(_t.aclDestroyScalar, scalar)


def aclDestroyIntArray(array: int) -> int:
    return _destroy(_t.aclDestroyIntArray, array)


def aclDestroyFloatArray(array: int) -> int:
    return _destroy(_t.aclDestroyFloatArray, array)


def aclDestroyBoolArray(array: int) -> int:
    return _destroy(_t.aclDestroyBoolArray, array)


def aclDestroyTensorList(array: int) -> int:
    return _destroy(_t.aclDestroyTensorList, array)


def aclDestroyScalarList(array: int) -> int:
    return _destroy(_t.aclDestroyScalarList, array)


def _shape_getter(fn: Any, tensor: int, dims: int, num: int) -> tuple[int, list[int] | None]:
    """(status, values): the C side copies ``values`` into a new[]'d array for ``*dims``."""
    ref = _ref(dims)
    rc: int = fn(H.obj(tensor), ref, _u64(num))
    return rc, (ref.value if ref is not None else None)


def aclGetViewShape(tensor: int, viewDims: int, viewDimsNum: int) -> tuple[int, list[int] | None]:
    return _shape_getter(_t.aclGetViewShape, tensor, viewDims, viewDimsNum)


def aclGetStorageShape(tensor: int, storageDims: int, storageDimsNum: int) -> tuple[int, list[int] | None]:
    return _shape_getter(_t.aclGetStorageShape, tensor, storageDims, storageDimsNum)


def aclGetViewStrides(tensor: int, stridesValue: int, stridesNum: int) -> tuple[int, list[int] | None]:
    return _shape_getter(_t.aclGetViewStrides, tensor, stridesValue, stridesNum)


def aclGetViewOffset(tensor: int, offset: int) -> int:
    return int(_t.aclGetViewOffset(H.obj(tensor), _i64(offset)))


def aclGetFormat(tensor: int, format: int) -> int:
    return int(_t.aclGetFormat(H.obj(tensor), _i32(format)))


def aclGetDataType(tensor: int, dataType: int) -> int:
    return int(_t.aclGetDataType(H.obj(tensor), _i32(dataType)))


def aclGetIntArraySize(array: int, size: int) -> int:
    return int(_t.aclGetIntArraySize(H.obj(array), _u64(size)))


def aclGetTensorListSize(tensorList: int, size: int) -> int:
    return int(_t.aclGetTensorListSize(H.obj(tensorList), _u64(size)))


def aclSetAclOpExecutorRepeatable(executor: int) -> int:
    return _exe.aclSetAclOpExecutorRepeatable(H.obj(executor))


def aclDestroyAclOpExecutor(executor: int) -> int:
    rc = _exe.aclDestroyAclOpExecutor(H.obj(executor))
    H.sweep(executor)
    return rc


def aclSetRawTensorAddr(tensor: int, addr: int) -> int:
    return _t.aclSetRawTensorAddr(H.obj(tensor), _dev(addr))  # type: ignore[arg-type]


def aclGetRawTensorAddr(tensor: int, addr: int) -> int:
    return _t.aclGetRawTensorAddr(H.obj(tensor), _u64(addr))  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------------------
# operators
# ---------------------------------------------------------------------------------------------


_NUMBERS = frozenset(("int", "float", "double", "dtype"))


def _operator(name: str) -> Any:
    """The Python function of an exported C operator function (the registry's module)."""
    api = _registry.BY_NAME[name.removesuffix("GetWorkspaceSize")]
    return getattr(importlib.import_module(api.module_path), name)


def _c_arg(p: _registry.Param, value: int | float) -> object:
    if p.kind in _NUMBERS:
        return value
    if p.kind == "bool":
        return bool(value)
    return H.obj(int(value))  # a handle: tensor, scalar, array, list


def aclnn_phase1(name: str, *raw: Any) -> int:
    """``<name>GetWorkspaceSize(params..., uint64_t* workspaceSize, aclOpExecutor** executor)``
    of any registered API, its arguments as the generated C wrapper passes them (capi/gen_ops.py)."""
    *values, workspace_size, executor = raw
    params = _registry.BY_NAME[name].params
    ref = _ref(executor)
    args = [_c_arg(p, v) for p, v in zip(params, values, strict=True)]
    rc: int = _operator(name + "GetWorkspaceSize")(*args, _u64(workspace_size), ref)
    _put_handle(executor, ref)
    return rc


def aclnn_phase2(name: str, workspace: int, workspaceSize: int, executor: int, stream: int) -> int:
    """``<name>(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream)``."""
    rc: int = _operator(name)(_dev(workspace), workspaceSize, H.obj(executor), H.obj(stream))
    H.sweep(executor)
    return rc


# ---------------------------------------------------------------------------------------------
# the rest of the runtime: one generic call driven by the C prototype (capi/gen_rt.py)
# ---------------------------------------------------------------------------------------------

_OUT_TYPES: dict[str, Any] = {
    "i32": ctypes.c_int32,
    "u32": ctypes.c_uint32,
    "i64": ctypes.c_int64,
    "u64": ctypes.c_uint64,
    "f32": ctypes.c_float,
}
# A C string longer than this is not read whole (a missing NUL would run off into other memory).
_MAX_CSTR = 1 << 16


def _cstr(addr: int) -> str | None:
    """A ``const char*`` argument: None for nullptr, else the text up to its NUL (UTF-8)."""
    if addr == 0:
        return None
    raw = ctypes.string_at(addr, _strnlen(addr))
    return raw.decode("utf-8", errors="surrogateescape")


def _strnlen(addr: int) -> int:
    for n in range(_MAX_CSTR):
        if ctypes.c_char.from_address(addr + n).value == b"\0":
            return n
    return _MAX_CSTR


def _engine(name: str) -> Any:
    """The Python function of a C runtime function (exported by aclnn_py under its C name)."""
    import aclnn_py

    return getattr(aclnn_py, name)


def _arg(kind: str, value: Any, handles_out: list[tuple[int, Ref[Any]]]) -> object:
    if kind in ("i", "u", "f"):
        return value
    if kind == "h":
        return H.obj(value)
    if kind == "p":
        return _dev(value)
    if kind == "r":
        return value or None
    if kind == "s":
        return _cstr(value)
    if kind == "H":
        ref = _ref(value)
        if ref is not None:
            handles_out.append((value, ref))
        return ref
    if kind == "P":
        return _u64(value)
    if kind.startswith("o:"):
        return None if value == 0 else _OUT_TYPES[kind[2:]].from_address(value)
    raise ValueError(f"unknown parameter kind {kind!r}")


def _result(kind: str, value: Any) -> int | float | str | None:
    if kind == "t":
        return value if isinstance(value, str) else None  # the C side keeps the text
    if kind == "H":
        return H.token(value)
    if kind == "p":
        return int(value or 0)
    if kind == "f":
        return float(value)
    return int(value)


def rt_call(name: str, signature: str, *raw: Any) -> int | float | str | None:
    """Call the runtime function ``name`` with the C arguments ``raw`` as its generated wrapper
    passes them; ``signature`` (``<return>:<param>,...``, see capi/gen_rt.py) says how each one
    becomes the Python API's argument and how the result goes back to C."""
    ret, _, params = signature.partition(":")
    adaptor = _ADAPTORS.get(name)
    if adaptor is not None:
        return _result(ret, adaptor(_engine(name), *raw))
    kinds = params.split(",") if params else []
    handles_out: list[tuple[int, Ref[Any]]] = []
    args = [_arg(kind, value, handles_out) for kind, value in zip(kinds, raw, strict=True)]
    result = _engine(name)(*args)
    for addr, ref in handles_out:
        _put_handle(addr, ref)
    if "Destroy" in name or "UnLoad" in name:
        H.sweep(*(v for k, v in zip(kinds, raw, strict=True) if k == "h"))
    return _result(ret, result)


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


def _stream_config_opt(fn: Any, handle: int, attr: int, attrValue: int, valueSize: int) -> int:
    # the value's bytes alias the caller's memory; the engine reads them only once the size is right
    value = None if attrValue == 0 else _buffer(attrValue, valueSize)
    return int(fn(H.obj(handle), attr, value, valueSize))


def _notify_batch_reset(fn: Any, notifies: int, num: int) -> int:
    handles = (
        None if notifies == 0 else [H.obj(t) for t in (ctypes.c_uint64 * min(num, 1 << 16)).from_address(notifies)]
    )
    return int(fn(handles, num))


_HOST_FUNC = ctypes.CFUNCTYPE(None, ctypes.c_void_p)


def _launch_host_func(fn: Any, stream: int, func: int, args: int) -> int:
    # the C function runs when the stream reaches it, with its own argument; ctypes drops the GIL
    # around the call, so it may call ACL functions itself
    c_func = None if func == 0 else _HOST_FUNC(func)
    call = None if c_func is None else (lambda arg, c=c_func: c(arg))
    return int(fn(H.obj(stream), call, args or None))


def _launch_callback(fn: Any, func: int, userData: int, blockType: int, stream: int) -> int:
    # runs on the thread that calls aclrtProcessReport (a C thread, attached to Python)
    c_func = None if func == 0 else _HOST_FUNC(func)
    call = None if c_func is None else (lambda arg, c=c_func: c(arg))
    return int(fn(call, userData or None, blockType, H.obj(stream)))


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


# C exception callbacks, one Python wrapper per C function: Unregister must find the same object
_EXCEPTION_CALLBACKS: dict[int, Any] = {}
_EXCEPTION_FUNC = ctypes.CFUNCTYPE(None, ctypes.c_uint64)


def _exception_callback(func: int) -> Any:
    if func == 0:
        return None
    wrapper = _EXCEPTION_CALLBACKS.get(func)
    if wrapper is None:
        c_func = _EXCEPTION_FUNC(func)

        def wrapper(info: object, c: Any = c_func) -> None:
            c(H.token(info))  # the C side reads it back with aclrtGet*FromExceptionInfo

        _EXCEPTION_CALLBACKS[func] = wrapper
    return wrapper


def _set_exception_callback(fn: Any, callback: int) -> int:
    return int(fn(_exception_callback(callback)))


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


def _malloc_config(cfg: int) -> object:
    """``aclrtMallocConfig*``: None for nullptr, else its two fields (the attributes' address)."""
    if cfg == 0:
        return None
    from types import SimpleNamespace

    attrs, num = (ctypes.c_uint64 * 2).from_address(cfg)
    return SimpleNamespace(attrs=attrs or None, numAttrs=num)


def _malloc_with_cfg(fn: Any, devPtr: int, size: int, policy: int, cfg: int) -> int:
    return int(fn(_u64(devPtr), size, policy, _malloc_config(cfg)))


def _malloc_host_with_cfg(fn: Any, ptr: int, size: int, cfg: int) -> int:
    ref = _ref(ptr)
    rc = int(fn(ref, size, _malloc_config(cfg)))
    _pin(ptr, ref)
    return rc


def _span(pitch: int, width: int, height: int) -> int:
    return 0 if height == 0 or width == 0 else (height - 1) * pitch + width


def _memcpy2d(fn: Any, dst: int, dpitch: int, src: int, spitch: int, width: int, height: int, kind: int) -> int:
    d, s = _buffer(dst, _span(dpitch, width, height)), _buffer(src, _span(spitch, width, height))
    return int(fn(d, dpitch, s, spitch, width, height, kind))


def _memcpy2d_async(
    fn: Any, dst: int, dpitch: int, src: int, spitch: int, width: int, height: int, kind: int, stream: int
) -> int:
    d, s = _buffer(dst, _span(dpitch, width, height)), _buffer(src, _span(spitch, width, height))
    return int(fn(d, dpitch, s, spitch, width, height, kind, H.obj(stream)))


# -- IPC notifies and events, counting notifies, PCI bus ids, device and init callbacks ---------------


def _text_out(addr: int, ref: Ref[Any] | None, size: int) -> None:
    """Copy a text the engine stored into the caller's char[size] (cut to fit, NUL-terminated)."""
    if ref is not None and isinstance(ref.value, str) and size > 0:
        data = ref.value.encode("utf-8")[: size - 1] + b"\0"
        ctypes.memmove(addr, data, len(data))


def _notify_export_key(fn: Any, notify: int, key: int, size: int, flags: int) -> int:
    ref = _ref(key)
    rc = int(fn(H.obj(notify), ref, size, flags))
    _text_out(key, ref, size & 0xFFFFFFFF)
    return rc


def _device_pci_bus_id(fn: Any, deviceId: int, pciBusId: int, size: int) -> int:
    ref = _ref(pciBusId)
    rc = int(fn(deviceId, ref, size))
    _text_out(pciBusId, ref, size)
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


# A C function pointer becomes one Python callable, kept for the process: registering and
# unregistering the same C function reach the engine as the same object.
_C_CALLBACKS: dict[tuple[str, int], Any] = {}
_INIT_FUNC = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_void_p)
_FINALIZE_FUNC = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p)
_STATE_FUNC = ctypes.CFUNCTYPE(None, ctypes.c_int32, ctypes.c_int32, ctypes.c_void_p)
_STREAM_STATE_FUNC = ctypes.CFUNCTYPE(None, ctypes.c_uint64, ctypes.c_int32, ctypes.c_void_p)
_ABORT_FUNC = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.c_int32, ctypes.c_int32, ctypes.c_uint32, ctypes.c_void_p)


def _c_callback(kind: str, func: int) -> Any:
    if func == 0:
        return None
    wrapper = _C_CALLBACKS.get((kind, func))
    if wrapper is None:
        if kind == "init":
            c_init = _INIT_FUNC(func)

            def wrapper(text: str, size: int, data: object, c: Any = c_init) -> int:
                return int(c(text.encode("utf-8"), size, data))

        elif kind == "finalize":
            c_fin = _FINALIZE_FUNC(func)

            def wrapper(data: object, c: Any = c_fin) -> int:
                return int(c(data))

        elif kind == "state":
            c_state = _STATE_FUNC(func)

            def wrapper(device: int, state: int, data: object, c: Any = c_state) -> None:
                c(device, state, data)

        elif kind == "stream":
            c_stream = _STREAM_STATE_FUNC(func)

            def wrapper(stream: object, state: int, data: object, c: Any = c_stream) -> None:
                c(H.token(stream), state, data)  # the C side gets the stream's handle

        else:
            c_abort = _ABORT_FUNC(func)

            def wrapper(device: int, stage: int, timeout: int, data: object, c: Any = c_abort) -> int:
                return int(c(device, stage, timeout, data))

        _C_CALLBACKS[(kind, func)] = wrapper
    return wrapper


def _init_callback_register(fn: Any, type_: int, cbFunc: int, userData: int) -> int:
    return int(fn(type_, _c_callback("init", cbFunc), userData or None))


def _init_callback_unregister(fn: Any, type_: int, cbFunc: int) -> int:
    return int(fn(type_, _c_callback("init", cbFunc)))


def _finalize_callback_register(fn: Any, type_: int, cbFunc: int, userData: int) -> int:
    return int(fn(type_, _c_callback("finalize", cbFunc), userData or None))


def _finalize_callback_unregister(fn: Any, type_: int, cbFunc: int) -> int:
    return int(fn(type_, _c_callback("finalize", cbFunc)))


def _device_state_callback(fn: Any, regName: int, callback: int, args: int) -> int:
    return int(fn(_cstr(regName), _c_callback("state", callback), args or None))


def _stream_attribute(fn: Any, stream: int, attr: int, value: int) -> int:
    # the union: its first 8 bytes hold every member (failureMode is 64 bits, the rest 32)
    from .runtime.api_stream_attr import aclrtStreamAttrValue

    py = None if value == 0 else aclrtStreamAttrValue(ctypes.c_uint64.from_address(value).value)
    rc = int(fn(H.obj(stream), attr, py))
    if rc == 0 and py is not None:
        ctypes.c_uint64.from_address(value).value = py.raw
    return rc


def _stream_state_callback(fn: Any, regName: int, callback: int, args: int) -> int:
    return int(fn(_cstr(regName), _c_callback("stream", callback), args or None))


def _task_abort_callback(fn: Any, regName: int, callback: int, args: int) -> int:
    return int(fn(_cstr(regName), _c_callback("abort", callback), args or None))


# The functions whose C arguments need more than the generic conversion (capi/gen_rt.py ADAPTED).
_ADAPTORS: dict[str, Any] = {
    "aclsysGetVersionStr": _version_str,
    "aclsysGetVersionNum": _version_num,
    "aclrtGetErrorVerbose": _error_verbose,
    "aclGetCannAttributeList": _cann_attribute_list,
    "aclrtSetStreamConfigOpt": _stream_config_opt,
    "aclrtNotifyBatchReset": _notify_batch_reset,
    "aclrtLaunchHostFunc": _launch_host_func,
    "aclrtMemcpy2d": _memcpy2d,
    "aclrtMemcpy2dAsync": _memcpy2d_async,
    "aclrtLaunchCallback": _launch_callback,
    "aclrtPointerGetAttributes": _pointer_attributes,
    "aclrtSetExceptionInfoCallback": _set_exception_callback,
    "aclrtExceptionInfoCallbackRegister": _set_exception_callback,
    "aclrtExceptionInfoCallbackUnregister": _set_exception_callback,
    "aclrtGetDeviceUtilizationRate": _utilization_rate,
    "aclrtDeviceGetUuid": _device_uuid,
    "aclrtMallocWithCfg": _malloc_with_cfg,
    "aclrtMallocHostWithCfg": _malloc_host_with_cfg,
    "aclrtNotifyGetExportKey": _notify_export_key,
    "aclrtNotifySetImportPid": _notify_set_import_pid,
    "aclrtNotifySetImportPidInterServer": _notify_set_import_pid_inter_server,
    "aclrtIpcGetEventHandle": _ipc_get_event_handle,
    "aclrtCntNotifyRecord": _cnt_notify_record,
    "aclrtCntNotifyWaitWithTimeout": _cnt_notify_wait,
    "aclrtDeviceGetPCIBusId": _device_pci_bus_id,
    "aclInitCallbackRegister": _init_callback_register,
    "aclInitCallbackUnRegister": _init_callback_unregister,
    "aclFinalizeCallbackRegister": _finalize_callback_register,
    "aclFinalizeCallbackUnRegister": _finalize_callback_unregister,
    "aclrtRegDeviceStateCallback": _device_state_callback,
    "aclrtSetDeviceTaskAbortCallback": _task_abort_callback,
    "aclrtRegStreamStateCallback": _stream_state_callback,
    "aclrtSetStreamAttribute": _stream_attribute,
    "aclrtGetStreamAttribute": _stream_attribute,
}

from ._cabi_model_ri import ADAPTORS as _MODEL_RI_ADAPTORS  # noqa: E402 - it imports this module's helpers

_ADAPTORS.update(_MODEL_RI_ADAPTORS)

# the memory chapter's adaptors (batch copies, IPC keys ...) live with their functions
from .runtime.cabi_memory import ADAPTORS as _MEMORY_ADAPTORS  # noqa: E402

_ADAPTORS.update(_MEMORY_ADAPTORS)

# aclsysGetCANNVersion writes the caller's struct (api_info makes the ctypes view of it)
from .runtime.api_info import CABI_ADAPTORS as _INFO_ADAPTORS  # noqa: E402

_ADAPTORS.update(_INFO_ADAPTORS)

# the atomic-capability queries read the operations from, and write the capabilities into, C arrays
from .runtime.api_device_atomic import CABI_ADAPTORS as _ATOMIC_ADAPTORS  # noqa: E402

_ADAPTORS.update(_ATOMIC_ADAPTORS)

# aclrtRepairError reads the caller's aclrtErrorInfo
from .runtime.api_device_repair import CABI_ADAPTORS as _REPAIR_ADAPTORS  # noqa: E402

_ADAPTORS.update(_REPAIR_ADAPTORS)

# tdt items' dims and data, the dump callback, the allocator's out-parameters, aclAppLog's text
from ._cabi_services import ADAPTORS as _SERVICE_ADAPTORS  # noqa: E402

_ADAPTORS.update(_SERVICE_ADAPTORS)
