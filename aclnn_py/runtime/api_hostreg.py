"""Host memory registration of ``acl_rt.h``'s memory chapter: aclrtHostRegister(V2),
aclrtHostGetDevicePointer, aclrtHostUnregister, aclrtHostMemMapCapabilities.

Registering maps the host bytes at a device address: the device address is an allocation of the
simulated memory whose bytes *are* the host memory (a numpy array or other buffer from Python;
the C program's own memory from C, or pinned memory of aclrtMallocHost), so a kernel that writes
through the device pointer changes the host memory in place. As CANN documents, the device
address is for kernels, not for the memory copy functions (they refuse it).
"""

from __future__ import annotations

import ctypes
import ctypes.util
from dataclasses import dataclass

import numpy as np

from .._capi import UINT64_MAX, ApiError, as_pointer, describe
from .._ref import store
from ._checks import (
    PARAM,
    RT_PARAM,
    E,
    acl_null,
    acl_reason,
    acl_value,
    check_device_valid,
    emu,
    fb_invalid,
    fb_no_context,
    fb_unsupported,
    int_arg,
    need_context,
    out_arg,
    rt_api,
    rt_inner,
    rt_value,
)
from .device import RT, Context
from .memory import SPACE, MappedAllocation, MemoryFault, call_site, called_from_c, on_reset

# ACL_HOST_REG_* (aclrtHostRegisterV2) and aclrtHostRegisterType (aclrtHostRegister)
REG_MAPPED, REG_IOMEMORY, REG_READONLY, REG_PINNED = 0x2, 0x4, 0x8, 0x10000000
_V2_FLAGS = REG_MAPPED | REG_IOMEMORY | REG_READONLY | REG_PINNED
_REGISTER = "Registering the host memory as device-accessible memory"
_REGISTER_V2 = "Host memory address registration"
_GET_PTR = "Obtaining the on-device memory pointer based on the on-host virtual address"
_MAP_CAPS = "Querying the host memory mapping capability on a specified device"
_HAC_TYPE_MAX = 10  # RT_HAC_TYPE_MAX
_MAP_CAPS_FN = "HostMemMapCapabilities"


def _impl_context(func: str, line: int, rt_fn: str) -> Context:
    """``ApiImpl::<func>``'s ``NULL_PTR_RETURN_MSG(curCtx, RT_ERROR_CONTEXT_NULL)`` (api_impl.cc):
    without a current context, the inner EE9999 of the macro (not the EE1018 of the context
    validation), then the wrapper's EE1001."""
    ctx = RT.current_context()
    if ctx is None:
        raise ApiError(
            E.ACL_ERROR_RT_CONTEXT_NULL,
            rt_inner("Check param failed, curCtx can not be null.", func, "api_impl.cc", line),
            fb_no_context(rt_fn),
        )
    return ctx


@dataclass(eq=False)
class Registration:
    host: int  # the host address as the caller names it
    size: int
    device_ptr: int | None  # None: pinned only (ACL_HOST_REG_PINNED without MAPPED)
    api: str


REGISTERED: dict[int, Registration] = {}


def _reset() -> None:
    REGISTERED.clear()


on_reset(_reset)


def release_device(dev: int, api: str) -> None:
    """A device reset unmaps the device addresses of the host memory registered on it (the host
    memory stays the program's; the registration is gone, as the driver's mapping is)."""
    for key, reg in list(REGISTERED.items()):
        if reg.device_ptr is None:
            continue
        mapped = SPACE.find(reg.device_ptr)
        if mapped is not None and mapped.device == dev:
            SPACE.free(reg.device_ptr, api, call_site())
            SPACE.unreserve(reg.device_ptr)
            del REGISTERED[key]


_LIBC: list[ctypes.CDLL] = []  # found at the first use (find_library runs ldconfig: not at import)


def _libc() -> ctypes.CDLL:
    if not _LIBC:
        _LIBC.append(ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True))
    return _LIBC[0]


_PAGE = 4096


def _mapped_in_process(addr: int, size: int) -> bool:
    """Whether ``[addr, addr + size)`` is memory of this process (``mincore`` answers ENOMEM for
    any page that is not mapped), so that a stray address is refused instead of crashing."""
    lo = addr - addr % _PAGE
    span = addr + size - lo
    vec = ctypes.create_string_buffer(-(-span // _PAGE))
    return int(_libc().mincore(ctypes.c_void_p(lo), ctypes.c_size_t(span), vec)) == 0


def _host_bytes(api: str, ptr: object, size: int) -> tuple[int, np.ndarray]:
    """(the key the host memory is known by, its first ``size`` bytes as an aliasing array)."""
    if isinstance(ptr, (np.ndarray, bytearray, memoryview)):
        mv = memoryview(ptr)  # type: ignore[arg-type]  # numpy arrays export the buffer protocol
        if not mv.c_contiguous or mv.readonly:
            raise ApiError(PARAM, emu(f"{api}: ptr must be a writable contiguous host buffer, got {describe(ptr)}."))
        arr = np.frombuffer(mv.cast("B"), dtype=np.uint8) if mv.nbytes else np.empty(0, np.uint8)
        if arr.size < size:
            raise ApiError(RT_PARAM, emu(f"{api}: the host buffer holds {arr.size} bytes, fewer than size {size}."))
        return int(arr.ctypes.data), arr[:size]
    p = as_pointer(ptr)
    if p is None or p < 0:
        raise ApiError(PARAM, emu(f"{api}: ptr must be host memory (a numpy array or a pointer), got {describe(ptr)}."))
    alloc = SPACE.find(p)
    if alloc is not None:
        if alloc.kind != "host":
            raise ApiError(RT_PARAM, emu(f"{api}: 0x{p:x} is device memory ({alloc.describe()}), not host memory."))
        try:
            _, off = SPACE.check(p, size, "register", api)
        except MemoryFault as fault:
            raise ApiError(RT_PARAM, emu(f"{fault.message}.")) from None
        return p, alloc.buf[off : off + size]
    if called_from_c() and _mapped_in_process(p, size):
        return p, np.ctypeslib.as_array((ctypes.c_uint8 * size).from_address(p))
    raise ApiError(
        RT_PARAM,
        emu(f"{api}: [0x{p:x}, +{size}) is not host memory of this process (from Python pass the array itself)."),
    )


def _overlapping(key: int, size: int) -> Registration | None:
    for reg in REGISTERED.values():
        if reg.host < key + size and key < reg.host + reg.size:
            return reg
    return None


def _map(api: str, key: int, data: np.ndarray) -> int:
    dev = need_context().device.ident
    try:
        start = SPACE.reserve(data.size, _PAGE, dev)
        SPACE.insert(MappedAllocation(start, data, "mapped", dev, api, call_site(), key))
    except MemoryFault as fault:
        raise ApiError(E.ACL_ERROR_RT_MEMORY_ALLOCATION, emu(f"{api}: {fault.message}.")) from None
    return start


@rt_api
def aclrtHostRegister(ptr: object, size: int, type: int, devPtr: object) -> int:
    """Map ``size`` bytes of host memory for the device; ``devPtr`` receives the device address
    (ACL_HOST_REGISTER_MAPPED; the IO-memory and read-only types are not supported)."""
    api, rt_fn = "aclrtHostRegister", "rtsHostRegister"
    if ptr is None or (as_pointer(ptr) is None and not isinstance(ptr, (np.ndarray, bytearray, memoryview))):
        raise ApiError(PARAM, acl_null(api, "ptr"))
    out = out_arg(devPtr, api, "devPtr")
    n = int_arg(size, "size", 0, UINT64_MAX)
    if n == 0:
        raise ApiError(PARAM, acl_value(api, 0, "size", "must be greater than 0"))
    t = int_arg(type, "type", -(2**31), 2**31 - 1) & 0xFFFFFFFF
    if t & ~(REG_IOMEMORY | REG_READONLY):
        # ApiErrorDecorator::HostRegister logs a WARN only, but rtsHostRegister has no NOLOG path for
        # RT_ERROR_FEATURE_NOT_SUPPORT: its ERROR_RETURN_WITH_EXT_ERRCODE adds the FuncErrorReason
        raise ApiError(E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, fb_unsupported(rt_fn))
    _impl_context("HostRegister", 2561, rt_fn)
    if t:
        raise ApiError(
            E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
            emu(
                f"{api}: type {t:#x} (IO memory, read-only) is reserved in CANN's documentation; pass "
                "ACL_HOST_REGISTER_MAPPED."
            ),
        )
    key, data = _host_bytes(api, ptr, n)
    if _overlapping(key, n) is not None:
        raise ApiError(
            E.ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED, emu(f"{api}: [0x{key:x}, +{n}) is already registered.")
        )
    dptr = _map(api, key, data)
    REGISTERED[key] = Registration(key, n, dptr, api)
    store(out, dptr)
    return E.ACL_SUCCESS


@rt_api
def aclrtHostRegisterV2(ptr: object, size: int, flag: int) -> int:
    """Register host memory: ACL_HOST_REG_MAPPED maps it for the device (aclrtHostGetDevicePointer
    gives the address), ACL_HOST_REG_PINNED pins it (pageable memory only)."""
    api, rt_fn = "aclrtHostRegisterV2", "rtHostRegisterV2"
    if ptr is None or (as_pointer(ptr) is None and not isinstance(ptr, (np.ndarray, bytearray, memoryview))):
        raise ApiError(PARAM, acl_null(api, "ptr"))
    n = int_arg(size, "size", 0, UINT64_MAX)
    if n == 0:
        raise ApiError(PARAM, acl_value(api, 0, "size", "must be greater than 0"))
    f = int_arg(flag, "flag", 0, 2**32 - 1)
    if not (f & _V2_FLAGS) or f & ~_V2_FLAGS:
        raise ApiError(
            RT_PARAM,
            (
                "EE1011",
                f"{_REGISTER_V2} failed. Value {f} for parameter flag is invalid. Reason: The valid flag is an OR "
                "combination of RT_MEM_HOST_REGISTER_MAPPED(0x2U), RT_MEM_HOST_REGISTER_IOMEMORY(0x4U), "
                "RT_MEM_HOST_REGISTER_READONLY(0x8U), and RT_MEM_HOST_REGISTER_PINNED(0x10000000U).",
            ),
            fb_invalid(rt_fn),
        )
    _impl_context("HostRegisterV2", 2578, rt_fn)
    if f & (REG_IOMEMORY | REG_READONLY):
        raise ApiError(
            E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
            emu(f"{api}: ACL_HOST_REG_IOMEMORY and ACL_HOST_REG_READONLY are reserved in CANN's documentation."),
        )
    key, data = _host_bytes(api, ptr, n)
    if _overlapping(key, n) is not None:
        raise ApiError(
            E.ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED,
            ("EE1018", f"{_REGISTER_V2} failed. Reason: The memory range has already been registered."),
        )
    if f & REG_PINNED and SPACE.find(key) is not None:
        raise ApiError(
            RT_PARAM,
            emu(
                f"{api}: 0x{key:x} is already page-locked (aclrtMallocHost); ACL_HOST_REG_PINNED is for "
                "pageable memory."
            ),
        )
    dptr = _map(api, key, data) if f & REG_MAPPED else None
    REGISTERED[key] = Registration(key, n, dptr, api)
    return E.ACL_SUCCESS


def _key(ptr: object) -> int | None:
    if isinstance(ptr, (np.ndarray, bytearray, memoryview)):
        mv = memoryview(ptr)  # type: ignore[arg-type]
        return int(np.frombuffer(mv.cast("B"), dtype=np.uint8).ctypes.data) if mv.nbytes else None
    p = as_pointer(ptr)
    return p if p is not None and p > 0 else None


@rt_api
def aclrtHostGetDevicePointer(pHost: object, pDevice: object, flag: int) -> int:
    """The device address of registered host memory (an address inside the registered range gives
    the matching device address)."""
    api, rt_fn = "aclrtHostGetDevicePointer", "rtHostGetDevicePointer"
    if pHost is None or (as_pointer(pHost) is None and not isinstance(pHost, (np.ndarray, bytearray, memoryview))):
        raise ApiError(PARAM, acl_null(api, "pHost"))
    out = out_arg(pDevice, api, "pDevice")
    f = int_arg(flag, "flag", 0, 2**32 - 1)
    if f != 0:
        raise ApiError(PARAM, acl_reason(api, f, "flag", "flag is a reserved parameter and must be 0"))
    need_context(rt_fn)
    key = _key(pHost) or 0
    reg = next((r for r in REGISTERED.values() if r.host <= key < r.host + r.size and r.device_ptr is not None), None)
    if reg is None or reg.device_ptr is None:
        raise ApiError(
            RT_PARAM,
            (
                "EE1011",
                f"{_GET_PTR} failed. Value {key:#x} for parameter pHost is invalid. Reason: The host pointer has not "
                "been registered for device address mapping.",
            ),
            fb_invalid(rt_fn),
        )
    store(out, reg.device_ptr + key - reg.host)
    return E.ACL_SUCCESS


@rt_api
def aclrtHostUnregister(ptr: object) -> int:
    """Undo a registration (the start address it was registered with)."""
    api, rt_fn = "aclrtHostUnregister", "rtsHostUnregister"
    if ptr is None or (as_pointer(ptr) is None and not isinstance(ptr, (np.ndarray, bytearray, memoryview))):
        raise ApiError(PARAM, acl_null(api, "ptr"))
    _impl_context("HostUnregister", 2617, rt_fn)
    key = _key(ptr)
    reg = REGISTERED.pop(key, None) if key is not None else None
    if reg is None:
        raise ApiError(
            E.ACL_ERROR_HOST_MEMORY_NOT_REGISTERED,
            (
                "EE1018",
                "Unregistering host memory failed. Reason: The host pointer has not been registered for device "
                "memory mapping.",
            ),
        )
    if reg.device_ptr is not None:
        SPACE.free(reg.device_ptr, api, call_site())
        SPACE.unreserve(reg.device_ptr)
    return E.ACL_SUCCESS


@rt_api
def aclrtHostMemMapCapabilities(deviceId: int, hacType: int, capabilities: object) -> int:
    """Whether an accelerator of the device can reach registered host memory: every engine of the
    emulated device can (ACL_RT_HOST_MEM_MAP_SUPPORTED)."""
    api, rt_fn = "aclrtHostMemMapCapabilities", "rtHostMemMapCapabilities"
    out = out_arg(capabilities, api, "capabilities")
    dev = int_arg(deviceId, "deviceId", 0, 2**32 - 1)
    hac = int_arg(hacType, "hacType", -(2**31), 2**31 - 1) & 0xFFFFFFFF  # rtHacType: an unsigned enum
    # ApiErrorDecorator::HostMemMapCapabilities: the device id (CheckDeviceIdIsValid), the hacType,
    # then ApiImpl's context
    check_device_valid(dev, f"Device ID is invalid, drv devId={dev}, retCode=0x7010003", _MAP_CAPS_FN, 2070, rt_fn)
    if hac >= _HAC_TYPE_MAX:
        raise ApiError(RT_PARAM, rt_value(_MAP_CAPS, hac, "hacType", f"[0, {_HAC_TYPE_MAX})"), fb_invalid(rt_fn))
    _impl_context("HostMemMapCapabilities", 2674, rt_fn)
    store(out, 1)
    return E.ACL_SUCCESS


def registered_device_range(ptr: int) -> bool:
    """Whether ``ptr`` is a device address of registered host memory (copies refuse it)."""
    alloc = SPACE.find(ptr)
    return isinstance(alloc, MappedAllocation) and alloc.alloc_api.startswith("aclrtHostRegister")


__all__ = [
    "aclrtHostGetDevicePointer",
    "aclrtHostMemMapCapabilities",
    "aclrtHostRegister",
    "aclrtHostRegisterV2",
    "aclrtHostUnregister",
]
