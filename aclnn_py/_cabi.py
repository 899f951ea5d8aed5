"""The Python half of the C ABI (``capi/``): C arguments in, the public Python API called, C results out.

The C library (``libaclnn_py.so`` a.k.a. ``libascendcl.so`` / ``libopapi.so``) passes every argument
as a plain number: pointers as addresses, handles as tokens. It looks each function up by name on
this module: the core acl/aclrt calls, the operators' two phases, and :func:`rt_call`, the one
generic call for the rest of the runtime, driven by the C prototype's signature string. Arguments
become what the Python API takes (objects, ``Ref`` holders, host buffers aliasing C memory) and
out-parameters are written straight into the C program's memory with ctypes, so there is one
engine: every check, message and kernel is the Python one.

The conversions (handle tokens, pointers, pinned host blocks, C strings) are in
:mod:`aclnn_py._cabi_core`; ``aclnn/acl_meta.h``'s functions in :mod:`aclnn_py._cabi_meta`
(imported here under their C names). The functions whose C arguments need more than the generic
conversion (capi/gen_rt.py ADAPTED) have adaptors, gathered into :data:`_ADAPTORS`: the memory
ones below, :mod:`aclnn_py._cabi_device` (device and system queries), :mod:`aclnn_py._cabi_stream`
(streams and notifies), :mod:`aclnn_py._cabi_callbacks` (C function pointers),
:mod:`aclnn_py._cabi_model_ri` (model runtime instances and labels), :mod:`aclnn_py._cabi_services`
(tdt, dump, allocator, log), :mod:`aclnn_py.runtime.cabi_memory` and the ``CABI_ADAPTORS`` of a few
runtime chapter modules.
"""

from __future__ import annotations

import ctypes
import importlib
from typing import Any

from . import dtypes as _dtypes
from ._cabi_callbacks import ADAPTORS as _CALLBACK_ADAPTORS
from ._cabi_core import (
    H,
    _buffer,
    _copy_args,
    _cstr,
    _dev,
    _i32,
    _pin,
    _pinned,
    _pinned_starts,
    _put_handle,
    _ref,
    _u32,
    _u64,
)
from ._cabi_device import ADAPTORS as _DEVICE_ADAPTORS
from ._cabi_meta import (
    aclCreateBoolArray,
    aclCreateFloatArray,
    aclCreateIntArray,
    aclCreateScalar,
    aclCreateScalarList,
    aclCreateTensor,
    aclCreateTensorList,
    aclDestroyAclOpExecutor,
    aclDestroyBoolArray,
    aclDestroyFloatArray,
    aclDestroyIntArray,
    aclDestroyScalar,
    aclDestroyScalarList,
    aclDestroyTensor,
    aclDestroyTensorList,
    aclGetDataType,
    aclGetFormat,
    aclGetIntArraySize,
    aclGetRawTensorAddr,
    aclGetStorageShape,
    aclGetTensorListSize,
    aclGetViewOffset,
    aclGetViewShape,
    aclGetViewStrides,
    aclInitTensor,
    aclSetAclOpExecutorRepeatable,
    aclSetRawTensorAddr,
)
from ._cabi_model_ri import ADAPTORS as _MODEL_RI_ADAPTORS
from ._cabi_prof_sub import ADAPTORS as _PROF_SUB_ADAPTORS
from ._cabi_services import ADAPTORS as _SERVICE_ADAPTORS
from ._cabi_stream import ADAPTORS as _STREAM_ADAPTORS
from ._cabi_tdt_queue import ADAPTORS as _TDT_QUEUE_ADAPTORS
from ._ref import Ref
from .ops import registry as _registry
from .runtime import api as _rt
from .runtime.api_device_atomic import CABI_ADAPTORS as _ATOMIC_ADAPTORS
from .runtime.api_device_repair import CABI_ADAPTORS as _REPAIR_ADAPTORS
from .runtime.api_info import CABI_ADAPTORS as _INFO_ADAPTORS
from .runtime.cabi_memory import ADAPTORS as _MEMORY_ADAPTORS
from .runtime.memory import set_foreign_caller

# What the C library looks up on this module by name (capi/src/aclnn_py_capi.cpp, gen_ops.py, gen_rt.py).
__all__ = [
    "aclCreateBoolArray",
    "aclCreateFloatArray",
    "aclCreateIntArray",
    "aclCreateScalar",
    "aclCreateScalarList",
    "aclCreateTensor",
    "aclCreateTensorList",
    "aclDataTypeSize",
    "aclDestroyAclOpExecutor",
    "aclDestroyBoolArray",
    "aclDestroyFloatArray",
    "aclDestroyIntArray",
    "aclDestroyScalar",
    "aclDestroyScalarList",
    "aclDestroyTensor",
    "aclDestroyTensorList",
    "aclFinalize",
    "aclGetDataType",
    "aclGetFormat",
    "aclGetIntArraySize",
    "aclGetRawTensorAddr",
    "aclGetRecentErrMsg",
    "aclGetStorageShape",
    "aclGetTensorListSize",
    "aclGetViewOffset",
    "aclGetViewShape",
    "aclGetViewStrides",
    "aclInit",
    "aclInitTensor",
    "aclSetAclOpExecutorRepeatable",
    "aclSetRawTensorAddr",
    "aclnn_phase1",
    "aclnn_phase2",
    "aclrtCreateContext",
    "aclrtCreateEvent",
    "aclrtCreateStream",
    "aclrtDestroyContext",
    "aclrtDestroyEvent",
    "aclrtDestroyStream",
    "aclrtEventElapsedTime",
    "aclrtFree",
    "aclrtFreeHost",
    "aclrtGetCurrentContext",
    "aclrtGetDevice",
    "aclrtGetDeviceCount",
    "aclrtGetMemInfo",
    "aclrtGetRunMode",
    "aclrtGetSocName",
    "aclrtMalloc",
    "aclrtMallocHost",
    "aclrtMemcpy",
    "aclrtMemcpyAsync",
    "aclrtMemset",
    "aclrtMemsetAsync",
    "aclrtQueryEventStatus",
    "aclrtRecordEvent",
    "aclrtResetDevice",
    "aclrtSetCurrentContext",
    "aclrtSetDevice",
    "aclrtStreamQuery",
    "aclrtStreamWaitEvent",
    "aclrtSynchronizeDevice",
    "aclrtSynchronizeEvent",
    "aclrtSynchronizeStream",
    "aclrtSynchronizeStreamWithTimeout",
    "embedded",
    "rt_call",
]


def embedded() -> None:
    """Called once when the C library started the interpreter itself: every call comes from C, so
    the sites named in messages (where memory was allocated, an executor made) are "the C program"."""
    set_foreign_caller("the C program")


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


def aclrtFree(devPtr: int) -> int:
    return _rt.aclrtFree(_dev(devPtr))


def aclrtFreeHost(hostPtr: int) -> int:
    sim = _pinned.get(hostPtr)
    rc = _rt.aclrtFreeHost(sim[0] if sim is not None else (hostPtr or None))
    if sim is not None and rc == 0:
        del _pinned[hostPtr]
        _pinned_starts.remove(hostPtr)
    return rc


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


# -- memory: allocation configurations and 2D copies read from C ------------------------------


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


# The functions whose C arguments need more than the generic conversion (capi/gen_rt.py ADAPTED):
# the memory ones here, the others with their groups.
_ADAPTORS: dict[str, Any] = {
    "aclrtMemcpy2d": _memcpy2d,
    "aclrtMemcpy2dAsync": _memcpy2d_async,
    "aclrtMallocWithCfg": _malloc_with_cfg,
    "aclrtMallocHostWithCfg": _malloc_host_with_cfg,
}
for _group in (
    _DEVICE_ADAPTORS,  # version text, aclrtErrorInfo, CANN attributes, pointer attributes, UUID, PCI bus id
    _STREAM_ADAPTORS,  # stream options and attributes, notify batches, IPC notifies and events, counting notifies
    _CALLBACK_ADAPTORS,  # host functions, exception, init/finalize, device/stream state and task-abort callbacks
    _MODEL_RI_ADAPTORS,  # model runtime instances and labels
    _MEMORY_ADAPTORS,  # the memory chapter's (batch copies, IPC keys ...) live with their functions
    _INFO_ADAPTORS,  # aclsysGetCANNVersion writes the caller's struct (api_info makes the ctypes view of it)
    _ATOMIC_ADAPTORS,  # the atomic-capability queries read and write C arrays
    _REPAIR_ADAPTORS,  # aclrtRepairError reads the caller's aclrtErrorInfo
    _SERVICE_ADAPTORS,  # tdt items' dims and data, the dump callback, the allocator, aclAppLog's text
    _PROF_SUB_ADAPTORS,  # the model subscription's records and fd, the exception dump's tensors and path
    _TDT_QUEUE_ADAPTORS,  # acl_tdt_queue.h's (type, len, param) copies and the queues' data in C memory
):
    _ADAPTORS.update(_group)
