"""Copies of the memory chapter of ``acl_rt.h``: aclrtMemcpy and aclrtMemcpyAsync, and what every
copy shares (api_memcpy_2d, api_memcpy_batch, api_memset): the sides of a copy (simulated memory
or a host buffer), the kind and direction checks, and the emulator's protection of its simulated
memory.
"""

from __future__ import annotations

import array

import numpy as np

from .._capi import UINT64_MAX, ApiError, as_pointer, describe
from . import sanitizer
from ._checks import (
    PARAM,
    RT_PARAM,
    E,
    acl_null,
    acl_value,
    check_stopped,
    emu,
    fb_invalid,
    int_arg,
    need_context,
    own_stream,
    rt_api,
    rt_inner,
    rt_value,
    stream_handle,
)
from ._model_ri_checks import check_capture_mode
from .device import RT, RT_MAX_DEV_NUM
from .memory import DEVICE_BASE, HOST_BASE, REGION_SPAN, SPACE, Allocation, MemoryFault
from .model_ri import capturing
from .stream import Stream, Task, TaskFault

# -- the sides of a copy and their checks ------------------------------------------------------

_BUFFERS = (np.ndarray, bytes, bytearray, memoryview, array.array)
_KIND_NAMES = (
    "ACL_MEMCPY_HOST_TO_HOST",
    "ACL_MEMCPY_HOST_TO_DEVICE",
    "ACL_MEMCPY_DEVICE_TO_HOST",
    "ACL_MEMCPY_DEVICE_TO_DEVICE",
    "ACL_MEMCPY_DEFAULT",
    "ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE",
)
_KINDS = {  # kind: (dst is device, src is device)
    0: (False, False),
    1: (True, False),
    2: (False, True),
    3: (True, True),
    5: (True, False),
}
_KIND_OF = {sides: k for k, sides in _KINDS.items() if k != 5}
_KIND_EXPECT = (
    "ACL_MEMCPY_HOST_TO_DEVICE or ACL_MEMCPY_DEVICE_TO_DEVICE or ACL_MEMCPY_DEVICE_TO_HOST or "
    "ACL_MEMCPY_HOST_TO_HOST or ACL_MEMCPY_DEFAULT or ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE."
)
_FAULT_FIX = {
    "out-of-bounds": "keep count within the allocation",
    "use-after-free": "the memory was freed: use a live allocation",
    "unmapped": "pass an address inside a live allocation",
    "host-overflow": "pass a host buffer of at least count bytes, or a smaller count",
}


class _Side:
    """One side of a copy: simulated memory (``ptr``) or a host buffer object (``arr``)."""

    __slots__ = ("alloc", "arr", "kind", "ptr", "what")

    def __init__(self, kind: str, what: str, ptr: int | None, arr: np.ndarray | None, alloc: Allocation | None) -> None:
        self.kind = kind  # "device", "host" or "unknown" (an address the emulator does not know)
        self.what = what  # how messages name it
        self.ptr, self.arr, self.alloc = ptr, arr, alloc

    @property
    def is_device(self) -> bool:
        return self.kind in ("device", "mapped")


def _region(ptr: int) -> str:
    """Which simulated region an address lies in (live or not): "device", "host" or "unknown"."""
    if HOST_BASE <= ptr < HOST_BASE + REGION_SPAN:
        return "host"
    if DEVICE_BASE <= ptr < DEVICE_BASE + RT_MAX_DEV_NUM * REGION_SPAN:
        return "device"
    return "unknown"


def _host_bytes(api: str, obj: object, name: str, writable: bool) -> np.ndarray:
    """A host buffer object as a flat uint8 array aliasing it."""
    if isinstance(obj, np.ndarray):
        if not obj.flags.c_contiguous:
            raise ApiError(
                PARAM,
                emu(
                    f"{api}: {name} is a non-contiguous {describe(obj)}; host memory must be one contiguous "
                    "block (pass np.ascontiguousarray(...))."
                ),
            )
        if writable and not obj.flags.writeable:
            raise ApiError(
                PARAM, emu(f"{api}: {name} is a read-only {describe(obj)}; the destination must be writable.")
            )
        return obj.reshape(-1).view(np.uint8)
    try:
        mv = memoryview(obj)  # type: ignore[arg-type]
    except TypeError:
        raise _not_a_buffer(api, name, obj) from None
    if not mv.c_contiguous:
        raise ApiError(
            PARAM, emu(f"{api}: {name} is a non-contiguous buffer; host memory must be one contiguous block.")
        )
    if writable and mv.readonly:
        raise ApiError(
            PARAM,
            emu(
                f"{api}: {name} is a read-only {type(obj).__name__}; the destination must be writable "
                "(a bytearray or a numpy array)."
            ),
        )
    return np.frombuffer(mv.cast("B"), dtype=np.uint8) if mv.nbytes else np.empty(0, np.uint8)


def _not_a_buffer(api: str, name: str, obj: object) -> ApiError:
    return ApiError(
        PARAM,
        emu(
            f"{api}: {name} is {describe(obj)}; pass a pointer (an int from aclrtMalloc or aclrtMallocHost) or a "
            "host buffer (a numpy array, bytearray, or bytes as a source)."
        ),
    )


def _host_what(obj: object) -> str:
    """How a message names a host buffer (the C ABI passes C's memory as a memoryview)."""
    if isinstance(obj, memoryview):
        return "host memory"
    if isinstance(obj, np.ndarray):
        return "host memory (a numpy array)"
    if isinstance(obj, array.array):
        return "host memory (an array.array)"
    if isinstance(obj, bytes):
        return "host memory (a bytes object)"
    return f"host memory (a {type(obj).__name__})"


def _side(api: str, obj: object, name: str, writable: bool) -> _Side:
    if isinstance(obj, _BUFFERS):
        return _Side("host", _host_what(obj), None, _host_bytes(api, obj, name, writable), None)
    ptr = as_pointer(obj)
    if ptr is None or ptr < 0:
        if hasattr(obj, "__buffer__") or hasattr(obj, "__array_interface__"):
            arr = _host_bytes(api, obj, name, writable)
            return _Side("host", _host_what(obj), None, arr, None)
        raise _not_a_buffer(api, name, obj)
    alloc = SPACE.find(ptr)
    kind = alloc.kind if alloc is not None else _region(ptr)
    what = {
        "device": "device memory",
        "mapped": "device memory (a mapped range)",
        "host": "pinned host memory (aclrtMallocHost)",
    }.get(kind, "")
    return _Side(kind, what, ptr, None, alloc)


def _is_null(obj: object) -> bool:
    return not isinstance(obj, _BUFFERS) and as_pointer(obj) is None


def _memcpy_kind(kind: object) -> int:
    """``MemcpyKindTranslate``: 0..5 pass; anything else is 100000 (EH0007)."""
    k = int_arg(kind, "kind", -(2**31), 2**31 - 1)
    if not 0 <= k <= 5:
        desc = {6: "MEMCPY_INNER_DEVICE_TO_DEVICE(6)", 7: "MEMCPY_INTER_DEVICE_TO_DEVICE(7)"}.get(k, f"UNKNOWN({k})")
        raise ApiError(PARAM, acl_value("Memory copy type conversion", desc, "kind", _KIND_EXPECT))
    return k


def _copy_args(api: str, dst: object, src: object, count: object, kind: object) -> tuple[int, int] | None:
    """The ACL layer of aclrtMemcpy(Async): count 0 succeeds at once, then null dst, null src, kind."""
    n = int_arg(count, "count", 0, UINT64_MAX)
    if n == 0:
        return None
    for obj, name in ((dst, "dst"), (src, "src")):
        if _is_null(obj):
            raise ApiError(PARAM, acl_null(api, name))
    return n, _memcpy_kind(kind)


def _unknown_address(api: str, name: str, ptr: int, tail: str) -> ApiError:
    return ApiError(
        RT_PARAM,
        emu(
            f"{api}: {name} 0x{ptr:x} is an address aclnn_py does not know: it is neither simulated device memory "
            f"(aclrtMalloc) nor pinned host memory (aclrtMallocHost). {tail}"
        ),
    )


_PASS_THE_BUFFER = (
    "Pass a host buffer as the array (or bytearray) itself, not its address (such as numpy's .ctypes.data)."
)


def _check_direction(api: str, k: int, d: _Side, s: _Side) -> int:
    """The emulator's check of the addresses (CANN leaves them to the driver): every address must
    be memory it knows, and the kind must match the two sides. Returns the kind the sides make."""
    for side, name in ((d, "dst"), (s, "src")):
        if side.kind == "unknown":
            assert side.ptr is not None
            raise _unknown_address(api, name, side.ptr, _PASS_THE_BUFFER)
        if side.alloc is not None and side.alloc.alloc_api.startswith("aclrtHostRegister"):
            raise ApiError(
                RT_PARAM,
                emu(
                    f"{api}: {name} 0x{side.ptr:x} is the device address of registered host memory, which CANN's "
                    "documentation reserves for kernels (not memory copies); copy the host memory itself."
                ),
            )
    actual = _KIND_OF[(d.is_device, s.is_device)]
    if k != 4 and _KINDS[k] != (d.is_device, s.is_device):
        raise ApiError(
            RT_PARAM,
            emu(
                f"{api}: kind {_KIND_NAMES[k]} does not match the addresses: dst is {d.what} and src is {s.what}. "
                f"Pass {_KIND_NAMES[actual]}, or ACL_MEMCPY_DEFAULT to let the addresses decide."
            ),
        )
    return actual


def _location_name(side: _Side) -> str:
    """The runtime's MemLocationTypeToString of a copy side's real location."""
    if side.is_device:
        return "MEMORY_LOC_DEVICE(1)"
    return "MEMORY_LOC_UNREGISTERED(2)" if side.arr is not None else "MEMORY_LOC_HOST(0)"


def _ex_location_refused(d: _Side, s: _Side, stream: Stream) -> ApiError:
    """``MemcpyAsyncCheckExLocation`` of RT_MEMCPY_HOST_TO_DEVICE_EX (ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE):
    the source must be host memory and the destination device memory (api_error.cc)."""
    return ApiError(
        RT_PARAM,
        (
            "EE1011",
            "Checking the extended location for asynchronous memory copy failed. Value "
            f"{_location_name(s)}/{_location_name(d)} for parameter src/dst address location is invalid. Reason: "
            "The src address must be a host address and the dst address must be a device address.",
        ),
        rt_inner(
            f"MemcpyAsync EX check src or dst location failed, stream_id={stream.ident}, "
            "kind=MEMCPY_HOST_TO_DEVICE_EX(6)",
            "MemcpyAsync",
            "api_error.cc",
            2229,
        ),
        fb_invalid("rtMemcpyAsync"),
    )


def _fault(api: str, fault: MemoryFault) -> ApiError:
    """A copy or fill that would reach outside live memory (the emulator's refusal)."""
    text = fault.message if fault.message.startswith(f"{api}:") else f"{api}: {fault.message}"
    fix = _FAULT_FIX.get(fault.kind, "keep the access inside live memory")
    return ApiError(RT_PARAM, emu(f"{text}; {fix}."))


def _same_address(a: object, b: object, da: _Side, db: _Side) -> bool:
    if da.ptr is not None and db.ptr is not None:
        return da.ptr == db.ptr
    return a is b


def _do_copy(api: str, d: _Side, s: _Side, n: int) -> None:
    """Copy n bytes; every device access goes through the checked memory."""
    for side, verb in ((s, "reading"), (d, "writing")):
        if side.arr is not None and side.arr.size < n:
            raise MemoryFault("host-overflow", f"{api}: {verb} {n} bytes with a host buffer of {side.arr.size} bytes")
    if s.ptr is not None:
        SPACE.check(s.ptr, n, "read", api)
        sanitizer.before_read(s.ptr, n, api)
        data = SPACE.read(s.ptr, n, api)
    else:
        assert s.arr is not None
        data = s.arr[:n]
    if d.ptr is not None:
        SPACE.write(d.ptr, data, api)
        sanitizer.after_write(d.ptr, n, api)
    else:
        assert d.arr is not None
        d.arr[:n] = data


# -- 1-D copies ----------------------------------------------------------------------------------


@rt_api
def aclrtMemcpy(dst: object, destMax: int, src: object, count: int, kind: int) -> int:
    """Synchronous copy. It does not wait for any stream (as in CANN)."""
    api = "aclrtMemcpy"
    args = _copy_args(api, dst, src, count, kind)
    if args is None:
        return E.ACL_SUCCESS
    n, k = args
    dmax = int_arg(destMax, "destMax", 0, UINT64_MAX)
    if dmax == 0:
        raise ApiError(
            RT_PARAM, rt_value("Synchronous memory copy", 0, "destMax", "not equal to 0"), fb_invalid("rtMemcpy")
        )
    if n > dmax:
        raise ApiError(RT_PARAM, rt_value("Synchronous memory copy", n, "cnt", f"(0, {dmax}]"), fb_invalid("rtMemcpy"))
    d, s = _side(api, dst, "dst", True), _side(api, src, "src", False)
    if _same_address(dst, src, d, s):
        return E.ACL_SUCCESS
    need_context("rtMemcpy")
    check_capture_mode("Synchronous memory copy")
    _check_direction(api, k, d, s)
    sanitizer.host_access_hazard(d, s, n, api)
    try:
        _do_copy(api, d, s, n)
    except MemoryFault as fault:
        raise _fault(api, fault) from None
    return E.ACL_SUCCESS


@rt_api
def aclrtMemcpyAsync(dst: object, destMax: int, src: object, count: int, kind: int, stream: object) -> int:
    """Queue a copy on the stream. Host buffers are captured when the copy runs (pinned-memory
    semantics); ranges are checked now and again when it runs. HOST_TO_HOST is not supported
    asynchronously on a host+card system: 207000, silently, as in CANN."""
    api = "aclrtMemcpyAsync"
    args = _copy_args(api, dst, src, count, kind)
    if args is None:
        return E.ACL_SUCCESS
    n, k = args
    st = stream_handle(stream, "rtMemcpyAsync")
    dmax = int_arg(destMax, "destMax", 0, UINT64_MAX)
    if n > dmax:
        raise ApiError(
            RT_PARAM, rt_value("Asynchronous memory copy", n, "cnt", f"(0, {dmax}]"), fb_invalid("rtMemcpyAsync")
        )
    d, s = _side(api, dst, "dst", True), _side(api, src, "src", False)
    ctx = need_context("rtMemcpyAsync", implicit_default=False)
    if k == 5 and (s.is_device or not d.is_device):  # ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE
        raise _ex_location_refused(d, s, st or ctx.default_stream)
    actual = _check_direction(api, k, d, s)
    if actual == 0:  # HOST_TO_HOST (also ACL_MEMCPY_DEFAULT between host buffers)
        return E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    if _same_address(dst, src, d, s):
        return E.ACL_SUCCESS
    target = st or ctx.default_stream
    pageable = k != 5 and actual in (1, 2) and (d.arr is not None or s.arr is not None)
    if not pageable:  # (CANN turns a pageable copy into a synchronize and a synchronous copy)
        own_stream(target, ctx, "Asynchronous memory copy", "rtMemcpyAsync")
    elif st is not None and capturing(st):  # which a capture cannot hold (api_error.cc MemcpyAsync)
        raise ApiError(
            RT_PARAM,
            (
                "EE1016",
                "Asynchronous copy task failed. Reason: The pageable memory copy task does not support graph capture.",
            ),
            fb_invalid("rtMemcpyAsync"),
        )
    check_stopped(ctx)
    if d.is_device and s.is_device and d.ptr is not None and s.ptr is not None:
        # acl_rt.h: an on-chip device-to-device async copy needs 64-byte aligned addresses
        sanitizer.check_alignment(d.ptr, 64, "aclrtMemcpyAsync device-to-device dst", RT_PARAM)
        sanitizer.check_alignment(s.ptr, 64, "aclrtMemcpyAsync device-to-device src", RT_PARAM)
    for side, name in ((d, "dst"), (s, "src")):
        if side.ptr is not None:
            try:
                SPACE.check(side.ptr, n, "copy", api)
            except MemoryFault as fault:
                raise _fault(api, fault) from None
        elif side.arr is not None and side.arr.size < n:
            raise ApiError(
                RT_PARAM,
                emu(
                    f"{api}: {name} is a host buffer of {side.arr.size} bytes, too small for count {n}; pass a "
                    "larger buffer or a smaller count."
                ),
            )

    def run() -> None:
        try:
            _do_copy(api, d, s, n)
        except MemoryFault as fault:
            raise TaskFault(E.ACL_ERROR_RT_SYS_DMA, f"aclrtMemcpyAsync task failed: {fault.message}") from None

    task = Task(target, f"aclrtMemcpyAsync({n} bytes)", run)
    sanitizer.track(
        task,
        [(s.ptr, s.ptr + n)] if s.ptr is not None else [],
        [(d.ptr, d.ptr + n)] if d.ptr is not None else [],
    )
    RT.policy.submit(target, task)
    return E.ACL_SUCCESS


__all__ = [
    "aclrtMemcpy",
    "aclrtMemcpyAsync",
]
